//! Joint keypoints: where each joint of the posed skeleton lands in a drawn picture, how far
//! along the view it is, and whether the picture shows it.

use crate::{CameraPose, DepthImage, PoseAt, RenderError};
use glam::{DMat3, DVec3};
use image::{Rgba, RgbaImage};
use rigport_model_core::{Model, UpAxis};

/// A joint counts as visible when it lies behind the surface drawn at its pixel by at most
/// this share of the model's size (the diagonal of its bind-pose bounds): a joint sits
/// inside the limb whose surface covers it.
pub const VISIBILITY_TOLERANCE: f64 = 0.05;

/// How far (in output pixels) from a joint's pixel the surface is looked for when that
/// pixel shows none: a joint on the silhouette's edge is still seen.
pub const SILHOUETTE_SLACK: f64 = 2.0;

/// Whether a picture shows a joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Visibility {
    /// On the drawn surface, or behind it by at most the tolerance
    /// ([`VISIBILITY_TOLERANCE`]); where the joint's own pixel shows no surface, a surface
    /// within [`SILHOUETTE_SLACK`] pixels that it is not behind.
    Visible,
    /// In the frame but not seen: behind the surface drawn at its pixel by more than the
    /// tolerance, or off the model's silhouette.
    Occluded,
    /// Outside the picture, or not in front of the camera.
    Outside,
}

impl Visibility {
    /// The name `keypoints.json` writes: `visible`, `occluded`, `outside`.
    pub fn key(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::Occluded => "occluded",
            Visibility::Outside => "outside",
        }
    }

    /// COCO's visibility flag: 2 visible, 1 labelled but not visible, 0 not labelled.
    pub fn coco(self) -> u8 {
        match self {
            Visibility::Visible => 2,
            Visibility::Occluded => 1,
            Visibility::Outside => 0,
        }
    }
}

/// One joint seen from one camera.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keypoint {
    /// The joint's world position: the model's coordinates turned Y-up, as in its `.glb`
    /// (the world of [`CameraPose::camera_to_world`]).
    pub world: [f64; 3],
    /// Output pixel coordinates `(u, v)`: `(0, 0)` is the top-left corner of the top-left
    /// pixel (pixel centres at `+0.5`), u right, v down. Not finite when the joint is
    /// in the camera's plane.
    pub pixel: [f64; 2],
    /// Distance along the viewing direction, as the depth pass measures it (negative:
    /// behind the camera).
    pub depth: f64,
    /// Whether the picture shows the joint.
    pub visibility: Visibility,
}

/// The joints of a posed model as one picture shows them, found while the picture is
/// drawn ([`render_views_seeing`](crate::render_views_seeing),
/// [`OrbitFrames::seeing`](crate::OrbitFrames::seeing)), and where the model covers
/// that picture. The same as [`PosedJoints::seen`] against the picture's depth pass, and
/// the box and count of the pixels where that pass is above 0, without drawing the pass.
#[derive(Clone, Debug, PartialEq)]
pub struct SeenJoints {
    /// One per joint, in joint order.
    pub keypoints: Vec<Keypoint>,
    /// The box of pixels the model covers, `[x, y, width, height]` (`None`: none).
    pub bbox: Option<[u32; 4]>,
    /// How many pixels the model covers.
    pub area: u64,
}

/// The joints of a model at one pose, ready to be seen from any camera of that pose.
#[derive(Clone, Debug, PartialEq)]
pub struct PosedJoints {
    /// World positions (Y-up, as in the `.glb`), in joint order.
    pub world: Vec<DVec3>,
    /// The model's size: the diagonal of its bind-pose bounds (finite vertices).
    pub size: f64,
}

impl PosedJoints {
    /// The joints of `model` at `pose` ([`PoseAt::Auto`] as the pictures resolve it: the
    /// first animation at time 0, else the bind pose). Fails on a broken hierarchy or an
    /// animation that does not exist.
    pub fn of(model: &Model, pose: PoseAt) -> Result<Self, RenderError> {
        let matrices = match pose.resolve(model) {
            PoseAt::Animation { index, time } => rigport_anim::sample_model(model, index, time)?
                .0
                .world_matrices()
                .to_vec(),
            _ => rigport_anim::Pose::new(&model.skeleton)
                .map_err(rigport_anim::PoseError::from)?
                .world_matrices()
                .to_vec(),
        };
        let world = matrices
            .iter()
            .map(|m| to_y_up(m.w_axis.truncate().as_dvec3(), model.up))
            .collect();
        let (mut lo, mut hi) = (DVec3::INFINITY, DVec3::NEG_INFINITY);
        for v in model.meshes.iter().flat_map(|m| &m.vertices) {
            let p = v.position.as_dvec3();
            if p.is_finite() {
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
        let size = if lo.x <= hi.x {
            (hi - lo).length()
        } else {
            0.0
        };
        Ok(Self { world, size })
    }

    /// Each joint as `camera` sees it, its visibility tested against `depth`, the depth
    /// pass drawn by that camera (each pixel's nearest surface, 0 where none).
    pub fn seen(&self, camera: &CameraPose, depth: &DepthImage) -> Vec<Keypoint> {
        self.seen_in(camera, depth.width(), depth.height(), |x, y| {
            depth.get_pixel(x, y).0[0]
        })
    }

    /// [`PosedJoints::seen`] in a picture of `width` × `height` whose depth at pixel
    /// `(x, y)` is `depth(x, y)` (asked only for pixels inside the picture, near the
    /// joints').
    pub(crate) fn seen_in(
        &self,
        camera: &CameraPose,
        width: u32,
        height: u32,
        depth: impl Fn(u32, u32) -> f32,
    ) -> Vec<Keypoint> {
        let m = camera.camera_to_world;
        // The rotation's columns are the camera's axes in the world; its transpose takes a
        // world offset from the eye into camera axes.
        let rotation = DMat3::from_cols(
            DVec3::new(m[0][0], m[1][0], m[2][0]),
            DVec3::new(m[0][1], m[1][1], m[2][1]),
            DVec3::new(m[0][2], m[1][2], m[2][2]),
        );
        let eye = DVec3::new(m[0][3], m[1][3], m[2][3]);
        let to_camera = rotation.transpose();
        let tolerance = self.size * VISIBILITY_TOLERANCE;
        let (w, h) = (f64::from(width), f64::from(height));
        self.world
            .iter()
            .map(|&p| {
                let q = to_camera * (p - eye);
                // Along the view from the camera's origin, as the depth pass measures
                // (an orthographic camera's origin is on the plane of the nearest point).
                let along = -q.z;
                let (u, v) = if camera.orthographic {
                    (
                        camera.cx + camera.focal * q.x,
                        camera.cy - camera.focal * q.y,
                    )
                } else {
                    (
                        camera.cx + camera.focal * q.x / along,
                        camera.cy - camera.focal * q.y / along,
                    )
                };
                let inside = (camera.orthographic || along > 0.0)
                    && (0.0..w).contains(&u)
                    && (0.0..h).contains(&v);
                let visibility = if inside {
                    visibility(&depth, (width, height), [u, v, along], tolerance)
                } else {
                    Visibility::Outside
                };
                Keypoint {
                    world: p.to_array(),
                    pixel: [u, v],
                    depth: along,
                    visibility,
                }
            })
            .collect()
    }
}

/// Whether a joint at pixel coordinates `(u, v)` (inside the picture, of `width` ×
/// `height`) and distance `along` is seen where `depth(x, y)` is each pixel's depth.
fn visibility(
    depth: &impl Fn(u32, u32) -> f32,
    (width, height): (u32, u32),
    [u, v, along]: [f64; 3],
    tolerance: f64,
) -> Visibility {
    let seen = |d: f32| along <= f64::from(d) + tolerance;
    let (x, y) = (u.floor() as u32, v.floor() as u32);
    let here = depth(x, y);
    if here > 0.0 {
        return if seen(here) {
            Visibility::Visible
        } else {
            Visibility::Occluded
        };
    }
    // Off the silhouette: a surface within the slack that the joint is not behind.
    let r = SILHOUETTE_SLACK;
    let (x0, y0) = (
        (u - r).floor().max(0.0) as u32,
        (v - r).floor().max(0.0) as u32,
    );
    let x1 = ((u + r).floor() as u32).min(width - 1);
    let y1 = ((v + r).floor() as u32).min(height - 1);
    for j in y0..=y1 {
        for i in x0..=x1 {
            // The distance from the joint to the nearest point of pixel (i, j).
            let dx = (f64::from(i) - u).max(u - f64::from(i + 1)).max(0.0);
            let dy = (f64::from(j) - v).max(v - f64::from(j + 1)).max(0.0);
            let d = depth(i, j);
            if dx * dx + dy * dy <= r * r && d > 0.0 && seen(d) {
                return Visibility::Visible;
            }
        }
    }
    Visibility::Occluded
}

/// A point of the model's frame in the Y-up world of the cameras (exact).
fn to_y_up(p: DVec3, up: UpAxis) -> DVec3 {
    match up {
        UpAxis::Z => DVec3::new(p.x, p.z, -p.y),
        UpAxis::Y => p,
    }
}

/// Colour of a visible joint's dot, and of a bone whose two joints are visible, in
/// [`draw_skeleton`].
pub const SKELETON_VISIBLE: [u8; 3] = [0, 255, 64];

/// Colour of an occluded joint's dot, and of a bone with an occluded joint, in
/// [`draw_skeleton`].
pub const SKELETON_OCCLUDED: [u8; 3] = [255, 0, 192];

/// Radius in pixels of a joint's dot in [`draw_skeleton`]: the pixels whose centre lies
/// within it of the joint's pixel coordinates.
pub const JOINT_DOT_RADIUS: f64 = 2.0;

/// Draws the skeleton seen in a picture over `image`: each bone (a joint and its parent,
/// `parents` in joint order) as a line one pixel wide between their pixel coordinates,
/// then each joint as a dot of [`JOINT_DOT_RADIUS`], occluded ones first, so a visible
/// joint's own pixel always shows [`SKELETON_VISIBLE`]. Joints [`Visibility::Outside`]
/// the picture, and bones with such a joint, are not drawn. Colours are exact (no
/// blending), so the overlay can be told from the picture.
pub fn draw_skeleton(image: &mut RgbaImage, keypoints: &[Keypoint], parents: &[Option<usize>]) {
    let drawn =
        |k: &Keypoint| k.visibility != Visibility::Outside && k.pixel.iter().all(|c| c.is_finite());
    let (w, h) = (i64::from(image.width()), i64::from(image.height()));
    let mut put = |x: i64, y: i64, [r, g, b]: [u8; 3]| {
        if (0..w).contains(&x) && (0..h).contains(&y) {
            image.put_pixel(x as u32, y as u32, Rgba([r, g, b, 255]));
        }
    };
    for (child, parent) in parents.iter().enumerate() {
        let (Some(a), Some(b)) = (parent.and_then(|p| keypoints.get(p)), keypoints.get(child))
        else {
            continue;
        };
        if !(drawn(a) && drawn(b)) {
            continue;
        }
        let colour = if a.visibility == Visibility::Visible && b.visibility == Visibility::Visible {
            SKELETON_VISIBLE
        } else {
            SKELETON_OCCLUDED
        };
        // One pixel a step along the longer axis; both ends lie inside the picture, so
        // the steps are bounded by its size.
        let ([ua, va], [ub, vb]) = (a.pixel, b.pixel);
        let steps = (ub - ua).abs().max((vb - va).abs()).ceil().max(1.0) as usize;
        for i in 0..=steps {
            let t = i as f64 / steps as f64;
            let (u, v) = (ua + (ub - ua) * t, va + (vb - va) * t);
            put(u.floor() as i64, v.floor() as i64, colour);
        }
    }
    for shown in [Visibility::Occluded, Visibility::Visible] {
        let colour = match shown {
            Visibility::Visible => SKELETON_VISIBLE,
            _ => SKELETON_OCCLUDED,
        };
        for k in keypoints
            .iter()
            .filter(|k| k.visibility == shown && drawn(k))
        {
            let [u, v] = k.pixel;
            let r = JOINT_DOT_RADIUS;
            let (x0, y0) = ((u - r).floor() as i64, (v - r).floor() as i64);
            let (x1, y1) = ((u + r).floor() as i64, (v + r).floor() as i64);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let (dx, dy) = (x as f64 + 0.5 - u, y as f64 + 0.5 - v);
                    let own = x == u.floor() as i64 && y == v.floor() as i64;
                    if own || dx * dx + dy * dy <= r * r {
                        put(x, y, colour);
                    }
                }
            }
        }
    }
}
