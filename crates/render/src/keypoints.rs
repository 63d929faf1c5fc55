//! Joint keypoints: where each joint of the posed skeleton lands in a drawn picture, how far
//! along the view it is, and whether the picture shows it.

use crate::{CameraPose, DepthImage, PoseAt, RenderError};
use glam::{DMat3, DVec3};
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
        let (w, h) = (f64::from(depth.width()), f64::from(depth.height()));
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
                    visibility(depth, u, v, along, tolerance)
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

/// Whether a joint at pixel coordinates `(u, v)` (inside the picture) and distance `along`
/// is seen in `depth`.
fn visibility(depth: &DepthImage, u: f64, v: f64, along: f64, tolerance: f64) -> Visibility {
    let seen = |d: f32| along <= f64::from(d) + tolerance;
    let (x, y) = (u.floor() as u32, v.floor() as u32);
    let here = depth.get_pixel(x, y).0[0];
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
    let x1 = ((u + r).floor() as u32).min(depth.width() - 1);
    let y1 = ((v + r).floor() as u32).min(depth.height() - 1);
    for j in y0..=y1 {
        for i in x0..=x1 {
            // The distance from the joint to the nearest point of pixel (i, j).
            let dx = (f64::from(i) - u).max(u - f64::from(i + 1)).max(0.0);
            let dy = (f64::from(j) - v).max(v - f64::from(j + 1)).max(0.0);
            let d = depth.get_pixel(i, j).0[0];
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
