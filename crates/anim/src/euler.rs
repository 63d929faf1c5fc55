//! Euler angles as MilkShape and IQE store them.
//!
//! Angles are radians about fixed axes, applied X then Y then Z: for column vectors
//! `R = Rz(z)·Ry(y)·Rx(x)`, i.e. `q = qz·qy·qx`. This is exactly the roll (x) / pitch (y) /
//! yaw (z) formula of the MilkShape ASCII specification.

use glam::{EulerRot, Quat, Vec3};

/// Quaternion of the Euler angles `(x, y, z)` in radians: `qz·qy·qx`.
#[inline]
pub fn euler_to_quat(angles: Vec3) -> Quat {
    // libm, not std: the same bits on every target (std's sine is the system's natively and
    // libm's in WebAssembly).
    let (sr, cr) = libm::sincosf(angles.x * 0.5);
    let (sp, cp) = libm::sincosf(angles.y * 0.5);
    let (sy, cy) = libm::sincosf(angles.z * 0.5);
    Quat::from_xyzw(
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    )
}

/// Euler angles `(x, y, z)` of a unit quaternion, the inverse of [`euler_to_quat`]; `y` is
/// in `[-π/2, π/2]`.
pub fn quat_to_euler(q: Quat) -> Vec3 {
    let (z, y, x) = q.normalize().to_euler(EulerRot::ZYX);
    Vec3::new(x, y, z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Mat3;
    use std::f32::consts::FRAC_PI_2;

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
}
