//! Euler angles as MilkShape and IQE store them.
//!
//! Angles are radians about fixed axes, applied X then Y then Z: for column vectors
//! `R = Rz(z)·Ry(y)·Rx(x)`, i.e. `q = qz·qy·qx`. This is exactly the roll (x) / pitch (y) /
//! yaw (z) formula of the MilkShape ASCII specification.

use glam::{DQuat, EulerRot, Quat, Vec3};

/// Quaternion of the Euler angles `(x, y, z)` in radians: `qz·qy·qx`.
#[inline]
pub fn euler_to_quat(angles: Vec3) -> Quat {
    // libm, not std: the same bits on every target (std's sine is the system's natively and
    // libm's in WebAssembly).
    quat_of(angles, libm::sincosf)
}

/// `qz·qy·qx` from the sines and cosines of the half angles `sin_cos` gives.
#[inline(always)]
fn quat_of(angles: Vec3, mut sin_cos: impl FnMut(f32) -> (f32, f32)) -> Quat {
    let (sr, cr) = sin_cos(angles.x * 0.5);
    let (sp, cp) = sin_cos(angles.y * 0.5);
    let (sy, cy) = sin_cos(angles.z * 0.5);
    Quat::from_xyzw(
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    )
}

/// [`euler_to_quat`] for many keys, remembering the sines and cosines of the last angles it
/// met (a small table indexed by the angle's bits): animation keys repeat angles (an axis
/// a joint does not turn about, a pose held or cycled), and a remembered pair is the very
/// pair `libm::sincosf` gave, so every quaternion has exactly [`euler_to_quat`]'s bits.
#[derive(Clone, Debug)]
pub struct EulerToQuat {
    /// `(angle bits, sine, cosine)`.
    slots: [(u32, f32, f32); Self::SLOTS],
}

impl Default for EulerToQuat {
    fn default() -> Self {
        // Every slot starts as the angle +0.
        let (sine, cosine) = libm::sincosf(0.0);
        Self {
            slots: [(0.0f32.to_bits(), sine, cosine); Self::SLOTS],
        }
    }
}

impl EulerToQuat {
    const SLOTS: usize = 256;

    /// [`euler_to_quat`] of `angles`.
    #[inline]
    pub fn quat(&mut self, angles: Vec3) -> Quat {
        quat_of(angles, |x| self.sin_cos(x))
    }

    #[inline]
    fn sin_cos(&mut self, x: f32) -> (f32, f32) {
        let bits = x.to_bits();
        let slot = &mut self.slots[(bits.wrapping_mul(0x9E37_79B1) >> 24) as usize];
        if slot.0 != bits {
            let (sine, cosine) = libm::sincosf(x);
            *slot = (bits, sine, cosine);
        }
        (slot.1, slot.2)
    }
}

/// Euler angles `(x, y, z)` of a unit quaternion, the inverse of [`euler_to_quat`]; `y` is
/// in `[-π/2, π/2]`.
pub fn quat_to_euler(q: Quat) -> Vec3 {
    let (z, y, x) = q.normalize().to_euler(EulerRot::ZYX);
    Vec3::new(x, y, z)
}

/// [`quat_to_euler`] computed in `f64` from the quaternion's components, for writers whose
/// angles a reader rebuilds in doubles (SMD): near Y = ±90°, where X and Z each turn the
/// joint about nearly the same axis, the `f32` matrix route loses X and Z separately (errors
/// of 1e-2 radians a thousandth of a radian from the pole), while this one keeps the
/// rotation they make together within a few `f32` roundings of every angle (about 3e-7
/// radians once the angles are rounded to `f32`).
///
/// The half-angle method of Bernardes and Viollet (2022, "Quaternion to Euler angles
/// conversion: a direct, general and computationally efficient method"), for the extrinsic
/// X, Y, Z sequence: `y` from the two half-norms, `(x + z) / 2` and `(z − x) / 2` from two
/// `atan2`s, each well conditioned wherever it matters. At the pole itself, where only one
/// of those half angles is defined, `z` is 0. `x` and `z` are in `[-π, π]`, `y` in
/// `[-π/2, π/2]`.
pub fn quat_to_euler_precise(q: Quat) -> Vec3 {
    use std::f64::consts::{FRAC_PI_2, PI};
    let (qx, qy, qz, qw) = (
        f64::from(q.x),
        f64::from(q.y),
        f64::from(q.z),
        f64::from(q.w),
    );
    let (a, b, c, d) = (qw - qy, qx + qz, qy + qw, qz - qx);
    let (near, far) = (libm::hypot(c, d), libm::hypot(a, b));
    let y = 2.0 * libm::atan2(near, far) - FRAC_PI_2;
    let half_sum = libm::atan2(b, a);
    let half_diff = libm::atan2(d, c);
    // Below this a half angle's pair is rounding noise: the pole, where only the other one
    // turns the joint.
    const POLE: f64 = 1e-12;
    let scale = near.max(far);
    let (x, z) = if near <= POLE * scale {
        (2.0 * half_sum, 0.0)
    } else if far <= POLE * scale {
        (-2.0 * half_diff, 0.0)
    } else {
        (half_sum - half_diff, half_sum + half_diff)
    };
    let wrap = |angle: f64| {
        if angle > PI {
            angle - 2.0 * PI
        } else if angle < -PI {
            angle + 2.0 * PI
        } else {
            angle
        }
    };
    Vec3::new(wrap(x) as f32, y as f32, wrap(z) as f32)
}

/// How far from Y = ±90° (radians) [`quat_to_euler_near_pole_precise`] keeps
/// [`quat_to_euler`]'s angles without checking them. The `f32` route's rotation error grows
/// about as `4.6e-7 / ε` radians at a distance `ε` from the pole (3e-2 radians 1e-5 from it,
/// where `X` and `Z` turn the joint about nearly the same axis); beyond this distance it
/// stays within 1.2e-6 radians (4.5e-7 at Y = 0).
pub const NEAR_POLE: f32 = 0.5;

/// The largest rotation error (radians) of [`quat_to_euler`]'s angles that
/// [`quat_to_euler_near_pole_precise`] keeps within [`NEAR_POLE`] of the pole.
pub const NEAR_POLE_TOLERANCE: f64 = 5e-7;

/// Euler angles `(x, y, z)` of a unit quaternion for writers whose output must not change
/// where it was already right (MilkShape): [`quat_to_euler`]'s angles, bit for bit, where
/// `Y` is more than [`NEAR_POLE`] from ±90°, or nearer where those angles, rebuilt in
/// doubles, give the rotation back within [`NEAR_POLE_TOLERANCE`];
/// [`quat_to_euler_precise`]'s otherwise.
pub fn quat_to_euler_near_pole_precise(q: Quat) -> Vec3 {
    // `quat_to_euler` of the quaternion as given (normalizing twice changes the last bits).
    let angles = quat_to_euler(q);
    let unit = q.normalize();
    let exact = DQuat::from_xyzw(
        f64::from(unit.x),
        f64::from(unit.y),
        f64::from(unit.z),
        f64::from(unit.w),
    );
    // sin Y of `Rz·Ry·Rx`, in doubles so the choice does not itself round near the bound.
    let sin_y = 2.0 * (exact.w * exact.y - exact.x * exact.z);
    if sin_y.abs() <= libm::cos(f64::from(NEAR_POLE)) {
        return angles;
    }
    // The rotation the angles mean, in doubles (libm: the same choice on every target).
    let (sx, cx) = libm::sincos(f64::from(angles.x) * 0.5);
    let (sy, cy) = libm::sincos(f64::from(angles.y) * 0.5);
    let (sz, cz) = libm::sincos(f64::from(angles.z) * 0.5);
    let rebuilt = DQuat::from_xyzw(
        sx * cy * cz - cx * sy * sz,
        cx * sy * cz + sx * cy * sz,
        cx * cy * sz - sx * sy * cz,
        cx * cy * cz + sx * sy * sz,
    );
    let d = rebuilt.conjugate() * exact;
    let error = 2.0 * libm::atan2(d.xyz().length(), d.w.abs());
    if error <= NEAR_POLE_TOLERANCE {
        angles
    } else {
        quat_to_euler_precise(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Mat3;
    use std::f32::consts::{FRAC_PI_2, PI};

    fn assert_same_rotation(q: Quat, m: Mat3) {
        let qm = Mat3::from_quat(q);
        for (a, b) in qm.to_cols_array().iter().zip(m.to_cols_array()) {
            assert!((a - b).abs() < 1e-5, "{qm:?} != {m:?}");
        }
    }

    #[test]
    fn matches_rz_ry_rx_matrix_product() {
        let a = Vec3::new(0.7, -0.4, 2.1);
        let m =
            Mat3::from_rotation_z(a.z) * Mat3::from_rotation_y(a.y) * Mat3::from_rotation_x(a.x);
        assert_same_rotation(euler_to_quat(a), m);
    }

    #[test]
    fn quarter_turns_about_each_axis_by_hand() {
        // 90° about X takes +Y to +Z; about Y takes +Z to +X; about Z takes +X to +Y.
        let x = euler_to_quat(Vec3::new(FRAC_PI_2, 0.0, 0.0));
        assert!((x * Vec3::Y - Vec3::Z).length() < 1e-6);
        let y = euler_to_quat(Vec3::new(0.0, FRAC_PI_2, 0.0));
        assert!((y * Vec3::Z - Vec3::X).length() < 1e-6);
        let z = euler_to_quat(Vec3::new(0.0, 0.0, FRAC_PI_2));
        assert!((z * Vec3::X - Vec3::Y).length() < 1e-6);
    }

    #[test]
    fn x_is_applied_before_z() {
        // Rx(90°) then Rz(90°): +Y -> +Z (by X) -> +Z (Z leaves it) ; +X -> +X -> +Y.
        let q = euler_to_quat(Vec3::new(FRAC_PI_2, 0.0, FRAC_PI_2));
        assert!((q * Vec3::Y - Vec3::Z).length() < 1e-6);
        assert!((q * Vec3::X - Vec3::Y).length() < 1e-6);
    }

    #[test]
    fn remembered_sines_give_the_same_bits() {
        let mut memo = EulerToQuat::default();
        let mut angles = vec![
            Vec3::ZERO,
            Vec3::new(-0.0, 0.0, -0.0),
            Vec3::splat(f32::NAN),
        ];
        for i in 0..2000u32 {
            let bend = ((i % 64) as f32 / 32.0 - 1.0) * 0.3;
            angles.push(Vec3::new(bend, i as f32 * 1e-3 - 1.0, -bend));
            angles.push(Vec3::new(
                f32::from_bits(i.wrapping_mul(2_654_435_761)),
                0.0,
                3.0,
            ));
        }
        for a in angles.iter().chain(angles.iter().rev()) {
            let (q, r) = (memo.quat(*a), euler_to_quat(*a));
            assert_eq!(
                q.to_array().map(f32::to_bits),
                r.to_array().map(f32::to_bits),
                "{a:?}"
            );
        }
    }

    #[test]
    fn inverse_recovers_angles() {
        for a in [
            Vec3::new(0.1, 0.2, 0.3),
            Vec3::new(-2.0, 1.2, 3.0),
            Vec3::new(0.0, 0.0, 0.0),
        ] {
            let back = quat_to_euler(euler_to_quat(a));
            assert_same_rotation(euler_to_quat(back), Mat3::from_quat(euler_to_quat(a)));
        }
    }

    /// `Rz·Ry·Rx` of `(x, y, z)`, all in doubles (as SMD readers rebuild it).
    fn rebuilt(a: Vec3) -> glam::DQuat {
        let (x, y, z) = (f64::from(a.x), f64::from(a.y), f64::from(a.z));
        glam::DQuat::from_rotation_z(z)
            * glam::DQuat::from_rotation_y(y)
            * glam::DQuat::from_rotation_x(x)
    }

    fn gap(a: glam::DQuat, b: glam::DQuat) -> f64 {
        let d = a.normalize().conjugate() * b.normalize();
        2.0 * d.xyz().length().atan2(d.w.abs())
    }

    #[test]
    fn precise_angles_rebuild_the_rotation_everywhere_and_at_the_poles() {
        let mut worst = 0.0f64;
        let mut cases = Vec::new();
        for i in 0..400u32 {
            let t = i as f64;
            let (x, z) = ((t * 0.731).sin() * 3.1, (t * 1.377).cos() * 3.1);
            // Anywhere, then ever closer to either pole.
            let y = match i % 4 {
                0 => (t * 0.291).sin() * 1.5,
                1 => FRAC_PI_2 as f64 - 10f64.powi(-((i / 4) as i32 % 9)),
                2 => -(FRAC_PI_2 as f64) + 10f64.powi(-((i / 4) as i32 % 9)),
                _ => {
                    if i % 8 == 3 {
                        FRAC_PI_2 as f64
                    } else {
                        -(FRAC_PI_2 as f64)
                    }
                }
            };
            cases.push(glam::DQuat::from_euler(EulerRot::ZYX, z, y, x));
        }
        for source in cases {
            let q = source.as_quat();
            let angles = quat_to_euler_precise(q);
            assert!(
                angles.y.abs() <= FRAC_PI_2 + 1e-6 && angles.x.abs() <= PI && angles.z.abs() <= PI
            );
            worst = worst.max(gap(rebuilt(angles), q.as_dquat()));
        }
        assert!(worst < 1e-6, "{worst}");
    }

    #[test]
    fn precise_angles_by_hand() {
        // A quarter turn about Y; any angles; the pole, where X and Z turn about one axis.
        let a = quat_to_euler_precise(euler_to_quat(Vec3::new(0.0, FRAC_PI_2, 0.0)));
        assert!((a - Vec3::new(0.0, FRAC_PI_2, 0.0)).length() < 1e-6, "{a}");
        let b = quat_to_euler_precise(euler_to_quat(Vec3::new(0.7, -0.4, 2.1)));
        assert!((b - Vec3::new(0.7, -0.4, 2.1)).length() < 1e-6, "{b}");
        let c =
            quat_to_euler_precise(Quat::from_rotation_y(-FRAC_PI_2) * Quat::from_rotation_x(0.5));
        assert!((c.y + FRAC_PI_2).abs() < 1e-6, "{c}");
        assert_same_rotation(
            euler_to_quat(c),
            Mat3::from_quat(Quat::from_rotation_y(-FRAC_PI_2) * Quat::from_rotation_x(0.5)),
        );
    }

    /// Quaternions of `Rz·Ry·Rx` with Y within `(lo, hi)` radians of either pole, both sides.
    fn near_pole_cases(lo: f64, hi: f64, count: u32) -> Vec<Quat> {
        (0..count)
            .map(|i| {
                let t = f64::from(i);
                let (x, z) = ((t * 0.731).sin() * 3.1, (t * 1.377).cos() * 3.1);
                // From `lo` to `hi` on a logarithmic scale, so every decade is visited.
                let share = (t * 0.618).fract();
                let distance = lo * (hi / lo).powf(share);
                let pole = if i % 2 == 0 { 1.0 } else { -1.0 };
                let side = if i % 4 < 2 { 1.0 } else { -1.0 };
                let y = pole * (FRAC_PI_2 as f64) - pole * side * distance;
                glam::DQuat::from_euler(EulerRot::ZYX, z, y, x).as_quat()
            })
            .collect()
    }

    #[test]
    fn near_pole_precise_keeps_the_f32_angles_away_from_the_pole() {
        let mut cases = near_pole_cases(f64::from(NEAR_POLE) + 1e-3, FRAC_PI_2 as f64, 4000);
        cases.push(Quat::IDENTITY);
        cases.push(Quat::from_xyzw(0.1, 0.2, 0.3, 0.9)); // not unit
        for q in cases {
            assert_eq!(
                quat_to_euler_near_pole_precise(q)
                    .to_array()
                    .map(f32::to_bits),
                quat_to_euler(q).to_array().map(f32::to_bits),
                "{q:?}"
            );
        }
    }

    #[test]
    fn near_pole_precise_gives_the_rotation_back_near_the_pole() {
        let (mut worst, mut worst_f32) = (0.0f64, 0.0f64);
        let mut cases = near_pole_cases(1e-9, f64::from(NEAR_POLE), 4000);
        cases.push(Quat::from_rotation_y(FRAC_PI_2));
        cases.push(Quat::from_rotation_y(-FRAC_PI_2) * Quat::from_rotation_x(0.5));
        for q in cases {
            let angles = quat_to_euler_near_pole_precise(q);
            worst = worst.max(gap(rebuilt(angles), q.as_dquat()));
            worst_f32 = worst_f32.max(gap(rebuilt(quat_to_euler(q)), q.as_dquat()));
        }
        // The f32 route alone: 3e-2 radians.
        assert!(worst_f32 > 1e-2, "{worst_f32}");
        assert!(worst < 6e-7, "{worst}");
    }
}
