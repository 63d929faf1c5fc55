//! The camera of each view, fitted to the points it must show.
//!
//! Fitting runs in `f64`: real files carry huge coordinates, and differences of large `f32`
//! values lose everything in `f32`.

use crate::View;
use glam::{DVec2, DVec3, Vec3};

/// Share of the picture the model's bounds fill (5 % margin on each side).
const FILL: f64 = 0.9;
/// Half the vertical field of view of the iso camera (30° in all).
const HALF_FOV_DEGREES: f64 = 15.0;
/// Iso camera: turned this far about +Y from the front camera towards +X …
const ISO_AZIMUTH_DEGREES: f64 = 45.0;
/// … and raised this far above the XZ plane.
const ISO_ELEVATION_DEGREES: f64 = 30.0;

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
#[derive(Clone, Debug)]
pub(crate) struct Camera {
    right: DVec3,
    up: DVec3,
    forward: DVec3,
    /// Eye position of a perspective camera; `None` for orthographic.
    eye: Option<DVec3>,
    centre: DVec2,
    scale: f64,
    half: DVec2,
    near: f64,
    far: f64,
}

/// Right, up and forward (viewing direction) of a view.
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
            let towards_eye = DVec3::new(az.sin() * el.cos(), el.sin(), az.cos() * el.cos());
            let forward = -towards_eye;
            let right = forward.cross(DVec3::Y).normalize();
            (right, right.cross(forward), forward)
        }
    };
    (r, u, f)
}

impl Camera {
    /// The camera of `view` fitted to `points` (only finite ones are passed) for a target of
    /// `width`×`height` pixels; `None` when there are no points. `points` is called twice.
    pub fn fit<I: Iterator<Item = Vec3>>(
        view: View,
        points: impl Fn() -> I,
        width: u32,
        height: u32,
    ) -> Option<Camera> {
        let (right, up, forward) = basis(view);
        let (mut lo, mut hi) = (DVec3::INFINITY, DVec3::NEG_INFINITY);
        for p in points() {
            let p = p.as_dvec3();
            lo = lo.min(p);
            hi = hi.max(p);
        }
        if lo.x > hi.x {
            return None;
        }
        let eye = (view == View::Iso).then(|| {
            // The eye is far enough that the bounding sphere fits the field of view, so
            // every point is in front of it: no near-plane clipping is ever needed.
            let radius = ((hi - lo).length() * 0.5).max(1e-6);
            let distance = radius / HALF_FOV_DEGREES.to_radians().sin();
            (lo + hi) * 0.5 - forward * distance
        });
        let mut camera = Camera {
            right,
            up,
            forward,
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
        let cam = Camera::fit(View::Front, || points.iter().copied(), 200, 200).unwrap();
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
        let cam = Camera::fit(View::Iso, || one.iter().copied(), 10, 10).unwrap();
        let p = cam.project(one[0]);
        assert!(p.x.is_finite() && p.y.is_finite() && p.key.is_finite());
        let huge = [Vec3::splat(-3e38), Vec3::splat(3e38)];
        for view in View::ALL {
            let cam = Camera::fit(view, || huge.iter().copied(), 64, 64).unwrap();
            for &q in &huge {
                let p = cam.project(q);
                assert!(
                    p.x.is_finite() && p.y.is_finite() && p.key.is_finite(),
                    "{view}"
                );
                assert!((-1.0..=65.0).contains(&p.x), "{view} {p:?}");
            }
        }
        assert!(Camera::fit(View::Front, std::iter::empty, 10, 10).is_none());
    }
}
