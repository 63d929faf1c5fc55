//! The camera of each view, fitted to the points it must show.
//!
//! Fitting runs in `f64`: real files carry huge coordinates, and differences of large `f32`
//! values lose everything in `f32`.

use crate::{Orbit, View};
use glam::{DVec2, DVec3, Vec3};
use rigport_model_core::UpAxis;

/// Share of the picture the model's bounds fill (5 % margin on each side).
const FILL: f64 = 0.9;
/// Half the vertical field of view of the iso camera (30° in all).
const HALF_FOV_DEGREES: f64 = 15.0;
/// Iso camera: turned this far about +Y from the front camera towards +X …
const ISO_AZIMUTH_DEGREES: f64 = 45.0;
/// … and raised this far above the XZ plane.
const ISO_ELEVATION_DEGREES: f64 = 30.0;

/// Vertical field of view of the orbit cameras, in degrees.
pub const ORBIT_FOV_Y_DEGREES: f64 = 40.0;

/// A vertex on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Projected {
    /// Pixel coordinates (origin top-left, y down) of the target the camera was fitted to.
    pub x: f32,
    pub y: f32,
    /// Nearness in `0..=1`, larger is closer; linear in screen space for both projections.
    pub key: f32,
    /// `1/w` up to a constant, for perspective-correct attributes (1 for orthographic).
    pub inv_w: f32,
}

/// A view's camera, fitted to a set of points and a target size.
///
/// Its axes and eye are in the model's own coordinates; a Z-up model is seen through the
/// turn to Y-up `(x, y, z) → (x, z, −y)`, so each view shows it upright.
#[derive(Clone, Debug)]
pub(crate) struct Camera {
    right: DVec3,
    up: DVec3,
    forward: DVec3,
    /// The model's up axis (the frame of the vectors above).
    model_up: UpAxis,
    /// Eye position of a perspective camera; `None` for orthographic.
    eye: Option<DVec3>,
    centre: DVec2,
    scale: f64,
    half: DVec2,
    near: f64,
    far: f64,
}

/// Orbit cameras stay this far from straight above or below (their right axis comes from
/// the up axis).
const MAX_ELEVATION_DEGREES: f64 = 89.0;

/// The bounds of `points` in `f64`; `None` when there are none.
fn bounds(points: impl Iterator<Item = Vec3>) -> Option<(DVec3, DVec3)> {
    let (mut lo, mut hi) = (DVec3::INFINITY, DVec3::NEG_INFINITY);
    for p in points {
        let p = p.as_dvec3();
        lo = lo.min(p);
        hi = hi.max(p);
    }
    (lo.x <= hi.x).then_some((lo, hi))
}

/// Right, up and forward (viewing direction) of a view, in Y-up coordinates.
pub(crate) fn basis(view: View) -> (DVec3, DVec3, DVec3) {
    let (r, u, f) = match view {
        View::Front => (DVec3::X, DVec3::Y, DVec3::NEG_Z),
        View::Back => (DVec3::NEG_X, DVec3::Y, DVec3::Z),
        View::Left => (DVec3::Z, DVec3::Y, DVec3::X),
        View::Right => (DVec3::NEG_Z, DVec3::Y, DVec3::NEG_X),
        View::Top => (DVec3::X, DVec3::NEG_Z, DVec3::NEG_Y),
        View::Iso => {
            let (az, el) = (
                ISO_AZIMUTH_DEGREES.to_radians(),
                ISO_ELEVATION_DEGREES.to_radians(),
            );
            let towards_eye = towards(az, el);
            let forward = -towards_eye;
            let right = forward.cross(DVec3::Y).normalize();
            (right, right.cross(forward), forward)
        }
    };
    (r, u, f)
}

/// Right, up and forward given in Y-up coordinates, expressed in the coordinates of a model
/// whose up axis is `model_up` (exact: components are moved and negated).
fn in_model_frame((r, u, f): (DVec3, DVec3, DVec3), model_up: UpAxis) -> [DVec3; 3] {
    // The inverse of `to_y_up`: (x, y, z) → (x, −z, y) for a Z-up model.
    [r, u, f].map(|v| match model_up {
        UpAxis::Z => DVec3::new(v.x, -v.z, v.y),
        UpAxis::Y => v,
    })
}

/// A direction of the model's frame in the Y-up frame.
fn to_y_up(v: DVec3, model_up: UpAxis) -> DVec3 {
    // Exact in f64: the turn only moves and negates components.
    match model_up {
        UpAxis::Z => DVec3::new(v.x, v.z, -v.y),
        UpAxis::Y => v,
    }
}

/// Where a drawn picture's camera was, for tools that need the camera of each picture
/// (NeRF and Gaussian-splatting trainers read it from `transforms.json`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraPose {
    /// Camera-to-world matrix, row-major (`m[row][column]`), in OpenGL camera axes (the
    /// camera looks down its −Z with +Y up and +X to the right). The world is the model's
    /// coordinates turned Y-up (a Z-up model's `(x, y, z)` is `(x, z, −y)` here, as in its
    /// `.glb`).
    pub camera_to_world: [[f64; 4]; 4],
    /// Perspective: the focal length in output pixels. Orthographic: output pixels per unit.
    pub focal: f64,
    /// Principal point, in output pixels from the top-left corner (pixel centres at `i + 0.5`).
    pub cx: f64,
    /// Principal point, in output pixels from the top-left corner, y down.
    pub cy: f64,
    /// Whether the projection is orthographic (the `front`…`top` views).
    pub orthographic: bool,
}

impl Camera {
    /// A perspective camera on `orbit` around the centre of `points`' bounds, looking at
    /// it, with a vertical field of view of [`ORBIT_FOV_Y_DEGREES`] and the principal point
    /// at the target's centre; the distance is the smallest at which every point projects
    /// inside the middle 90 % of the target, so the model fills the frame from every side,
    /// times the orbit's distance scale when it is above 1.
    pub fn orbit<I: Iterator<Item = Vec3>>(
        orbit: Orbit,
        model_up: UpAxis,
        points: impl Fn() -> I,
        width: u32,
        height: u32,
    ) -> Option<Camera> {
        let (lo, hi) = bounds(points())?;
        let centre = (lo + hi) * 0.5;
        let az = f64::from(orbit.azimuth_degrees).to_radians();
        let el = f64::from(orbit.elevation_degrees)
            .clamp(-MAX_ELEVATION_DEGREES, MAX_ELEVATION_DEGREES)
            .to_radians();
        let towards_eye = towards(az, el);
        let forward = -towards_eye;
        let right = forward.cross(DVec3::Y).normalize();
        let [right, up, forward] = in_model_frame((right, right.cross(forward), forward), model_up);
        let half = DVec2::new(f64::from(width), f64::from(height)) * 0.5;
        let focal = half.y / libm::tan(ORBIT_FOV_Y_DEGREES.to_radians() * 0.5);
        // A point q (from the centre) at distance d lands at focal · (q·r) / (d + q·f)
        // from the middle; it is inside FILL of the half-width when
        // d ≥ |q·r| · focal / (FILL · half.x) − q·f, and likewise for the height.
        let (kx, ky) = (focal / (FILL * half.x), focal / (FILL * half.y));
        let (mut distance, mut behind) = (0.0_f64, f64::NEG_INFINITY);
        let radius = ((hi - lo).length() * 0.5).max(1e-9);
        for p in points() {
            let q = p.as_dvec3() - centre;
            let along = q.dot(forward);
            distance = distance
                .max(q.dot(right).abs() * kx - along)
                .max(q.dot(up).abs() * ky - along);
            behind = behind.max(-along);
        }
        // Every point stays in front of the eye, by at least a thousandth of the radius.
        let distance = distance.max(behind + radius * 1e-3);
        let scale = f64::from(orbit.distance_scale);
        let distance = if scale.is_finite() && scale > 1.0 {
            distance * scale
        } else {
            distance
        };
        let eye = centre - forward * distance;
        let mut camera = Camera {
            right,
            up,
            forward,
            model_up,
            eye: Some(eye),
            centre: DVec2::ZERO,
            scale: focal,
            half,
            near: 0.0,
            far: 0.0,
        };
        let (mut near, mut far) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in points() {
            let depth = camera.view_space(p).1;
            near = near.min(depth);
            far = far.max(depth);
        }
        camera.near = near;
        camera.far = far;
        Some(camera)
    }

    /// Distance along the viewing direction of the farthest point the camera was fitted
    /// to (for an orbit camera, from the eye).
    pub fn far(&self) -> f64 {
        self.far
    }

    /// Distance along the viewing direction of a sample whose nearness is `key`:
    /// perspective, from the eye; orthographic, from the plane of the nearest point the
    /// camera was fitted to.
    pub fn distance(&self, key: f32) -> f64 {
        let key = f64::from(key);
        match self.eye {
            Some(_) => self.near / key,
            None => (1.0 - key) * (self.far - self.near),
        }
    }

    /// Whether the camera is a perspective one ([`Camera::distance`] is `near / key`).
    pub fn is_perspective(&self) -> bool {
        self.eye.is_some()
    }

    /// A unit direction of the model's frame in camera space (OpenGL axes: +X right, +Y
    /// up, +Z towards the viewer).
    pub fn to_camera_space(&self, v: Vec3) -> Vec3 {
        let v = v.as_dvec3();
        DVec3::new(v.dot(self.right), v.dot(self.up), -v.dot(self.forward)).as_vec3()
    }

    /// Where this camera is, with the projection in pixels of a picture `factor` times
    /// smaller than the target it was fitted to (the supersampling factor).
    pub fn pose(&self, factor: u32) -> CameraPose {
        let turn = |v: DVec3| to_y_up(v, self.model_up);
        let (r, u, b) = (turn(self.right), turn(self.up), -turn(self.forward));
        let origin = match self.eye {
            Some(eye) => turn(eye),
            // An orthographic camera sits on the near plane, over the picture's centre.
            None => turn(
                self.right * self.centre.x + self.up * self.centre.y + self.forward * self.near,
            ),
        };
        let f = f64::from(factor.max(1));
        let half = self.half / f;
        let focal = self.scale / f;
        CameraPose {
            camera_to_world: [
                [r.x, u.x, b.x, origin.x],
                [r.y, u.y, b.y, origin.y],
                [r.z, u.z, b.z, origin.z],
                [0.0, 0.0, 0.0, 1.0],
            ],
            focal,
            cx: half.x - self.centre.x * focal,
            cy: half.y + self.centre.y * focal,
            orthographic: self.eye.is_none(),
        }
    }

    /// The camera of `view` fitted to `points` (only finite ones are passed) for a target of
    /// `width`×`height` pixels; `None` when there are no points. `points` is called twice.
    pub fn fit<I: Iterator<Item = Vec3>>(
        view: View,
        model_up: UpAxis,
        points: impl Fn() -> I,
        width: u32,
        height: u32,
    ) -> Option<Camera> {
        let [right, up, forward] = in_model_frame(basis(view), model_up);
        let (lo, hi) = bounds(points())?;
        let eye = (view == View::Iso).then(|| {
            // The eye is far enough that the bounding sphere fits the field of view, so
            // every point is in front of it: no near-plane clipping is ever needed.
            let radius = ((hi - lo).length() * 0.5).max(1e-6);
            let distance = radius / libm::sin(HALF_FOV_DEGREES.to_radians());
            (lo + hi) * 0.5 - forward * distance
        });
        let mut camera = Camera {
            right,
            up,
            forward,
            model_up,
            eye,
            centre: DVec2::ZERO,
            scale: 1.0,
            half: DVec2::new(f64::from(width), f64::from(height)) * 0.5,
            near: 0.0,
            far: 0.0,
        };
        let (mut plo, mut phi) = (DVec2::INFINITY, DVec2::NEG_INFINITY);
        let (mut near, mut far) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in points() {
            let (q, depth) = camera.view_space(p);
            plo = plo.min(q);
            phi = phi.max(q);
            near = near.min(depth);
            far = far.max(depth);
        }
        let extent = phi - plo;
        let fit = |size: f64, extent: f64| {
            if extent > 0.0 {
                size * FILL / extent
            } else {
                f64::INFINITY
            }
        };
        let scale = fit(f64::from(width), extent.x).min(fit(f64::from(height), extent.y));
        camera.scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        camera.centre = (plo + phi) * 0.5;
        camera.near = near;
        camera.far = far;
        Some(camera)
    }

    /// Projected plane coordinates and depth along the viewing direction.
    fn view_space(&self, p: Vec3) -> (DVec2, f64) {
        let p = p.as_dvec3();
        match self.eye {
            None => (
                DVec2::new(p.dot(self.right), p.dot(self.up)),
                p.dot(self.forward),
            ),
            Some(eye) => {
                let q = p - eye;
                let depth = q.dot(self.forward);
                (DVec2::new(q.dot(self.right), q.dot(self.up)) / depth, depth)
            }
        }
    }

    /// Where a point lands on the target.
    pub fn project(&self, p: Vec3) -> Projected {
        let (q, depth) = self.view_space(p);
        let x = self.half.x + (q.x - self.centre.x) * self.scale;
        let y = self.half.y - (q.y - self.centre.y) * self.scale;
        let (key, inv_w) = match self.eye {
            None => {
                let range = self.far - self.near;
                let key = if range > 0.0 {
                    (self.far - depth) / range
                } else {
                    1.0
                };
                (key, 1.0)
            }
            Some(_) => {
                let key = self.near / depth;
                (key, key)
            }
        };
        Projected {
            x: x as f32,
            y: y as f32,
            key: key as f32,
            inv_w: inv_w as f32,
        }
    }

    /// Unit direction from `p` towards the camera (the light sits at the camera).
    pub fn towards_camera(&self, p: Vec3) -> Vec3 {
        match self.eye {
            None => (-self.forward).as_vec3(),
            Some(eye) => (eye - p.as_dvec3()).normalize_or_zero().as_vec3(),
        }
    }
}

/// The unit vector towards an eye at azimuth `az` and elevation `el` (radians), Y up. Its
/// trigonometry is the `libm` crate's, not the system's: glibc picks its `sin` and `cos` by
/// the processor (with or without FMA), which moved an edge pixel between machines.
fn towards(az: f64, el: f64) -> DVec3 {
    let (cos_el, sin_el) = (libm::cos(el), libm::sin(el));
    DVec3::new(libm::sin(az) * cos_el, sin_el, libm::cos(az) * cos_el)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_are_right_handed_and_front_is_xy() {
        for view in View::ALL {
            let (r, u, f) = basis(view);
            // Looking along f with u up, r is to the right: r = f × u.
            assert!((f.cross(u) - r).length() < 1e-12, "{view}");
            assert!((r.length() - 1.0).abs() < 1e-12 && (u.length() - 1.0).abs() < 1e-12);
        }
        assert_eq!(basis(View::Front), (DVec3::X, DVec3::Y, DVec3::NEG_Z));
    }

    #[test]
    fn front_fit_keeps_aspect_with_five_percent_margin() {
        // A 2 × 1 box on a 200 × 200 target: width limits, 180 px for 2 units.
        let points = [Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 5.0)];
        let cam = Camera::fit(View::Front, UpAxis::Y, || points.iter().copied(), 200, 200).unwrap();
        let a = cam.project(points[0]);
        let b = cam.project(points[1]);
        assert!((a.x - 10.0).abs() < 1e-4 && (b.x - 190.0).abs() < 1e-4);
        assert!((a.y - 145.0).abs() < 1e-4 && (b.y - 55.0).abs() < 1e-4);
        // +Z is towards the front camera: nearer.
        assert!(b.key > a.key);
    }

    #[test]
    fn degenerate_and_huge_points_stay_finite() {
        let one = [Vec3::splat(3.0)];
        let cam = Camera::fit(View::Iso, UpAxis::Y, || one.iter().copied(), 10, 10).unwrap();
        let p = cam.project(one[0]);
        assert!(p.x.is_finite() && p.y.is_finite() && p.key.is_finite());
        let huge = [Vec3::splat(-3e38), Vec3::splat(3e38)];
        for view in View::ALL {
            let cam = Camera::fit(view, UpAxis::Y, || huge.iter().copied(), 64, 64).unwrap();
            for &q in &huge {
                let p = cam.project(q);
                assert!(
                    p.x.is_finite() && p.y.is_finite() && p.key.is_finite(),
                    "{view}"
                );
                assert!((-1.0..=65.0).contains(&p.x), "{view} {p:?}");
            }
        }
        assert!(Camera::fit(View::Front, UpAxis::Y, std::iter::empty, 10, 10).is_none());
    }
}
