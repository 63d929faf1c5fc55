//! Pose commands to translation, rotation and scale (`M = T·R·S`, DESIGN §5).

use crate::command::PoseKind;
use rigport_anim::euler::euler_to_quat;
use rigport_model_core::glam::{DMat3, DQuat, DVec3};

/// A joint transform local to its parent, `T·R·S`: `output = (input·scale)·rotation +
/// translation` — the animation crate's, so poses feed sampling and skinning as they are.
pub use rigport_anim::Transform;

/// Further facts about one pose, for the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoseFacts {
    /// The stored quaternion (or matrix) was not unit length and was normalized.
    pub normalized: bool,
}

/// Value `i`, or `default` when the line stops before it.
fn value(values: &[f64], i: usize, default: f64) -> f64 {
    values.get(i).copied().unwrap_or(default)
}

fn vec3(values: &[f64], from: usize, default: f64) -> DVec3 {
    DVec3::new(
        value(values, from, default),
        value(values, from + 1, default),
        value(values, from + 2, default),
    )
}

/// `q` scaled to unit length (identity when its length is 0 or not finite); notes in
/// `facts` when it was not unit length to begin with.
fn unit(q: DQuat, facts: &mut PoseFacts) -> DQuat {
    let length = q.length();
    facts.normalized = (length - 1.0).abs() > 1e-4;
    if length > 0.0 && length.is_finite() {
        q / length
    } else {
        DQuat::IDENTITY
    }
}

/// Interprets a pose command's values with the defaults of the specification.
///
/// * `pq`: with no `Qw`, `w = −sqrt(max(0, 1 − x² − y² − z²))`; a quaternion that is not
///   unit length is normalized (and reported through [`PoseFacts`]).
/// * `pm`: the matrix rows may carry scale; each column's length is that axis' scale, a
///   negative determinant mirrors all three, and the remaining rotation is converted.
/// * `pa`: radians, `q = qz·qy·qx`.
pub fn pose_transform(kind: PoseKind, values: &[f64]) -> (Transform, PoseFacts) {
    let translation = vec3(values, 0, 0.0);
    let mut facts = PoseFacts::default();
    let (rotation, scale) = match kind {
        PoseKind::Quaternion => {
            let xyz = vec3(values, 3, 0.0);
            let w = values
                .get(6)
                .copied()
                .unwrap_or_else(|| -(1.0 - xyz.length_squared()).max(0.0).sqrt());
            let q = unit(DQuat::from_xyzw(xyz.x, xyz.y, xyz.z, w), &mut facts);
            (q, vec3(values, 7, 1.0))
        }
        PoseKind::Matrix => {
            let rows = [
                vec3(values, 3, 0.0),
                vec3(values, 6, 0.0),
                vec3(values, 9, 0.0),
            ];
            let m = DMat3::from_cols(rows[0], rows[1], rows[2]).transpose();
            let mut axis_scale =
                DVec3::new(m.x_axis.length(), m.y_axis.length(), m.z_axis.length());
            if m.determinant() < 0.0 {
                axis_scale = -axis_scale;
            }
            let safe = |s: f64| if s == 0.0 || !s.is_finite() { 1.0 } else { s };
            let rotation = DMat3::from_cols(
                m.x_axis / safe(axis_scale.x),
                m.y_axis / safe(axis_scale.y),
                m.z_axis / safe(axis_scale.z),
            );
            let q = unit(DQuat::from_mat3(&rotation), &mut facts);
            (q, vec3(values, 12, 1.0) * axis_scale)
        }
        PoseKind::Angles => {
            let angles = vec3(values, 3, 0.0).as_vec3();
            (euler_to_quat(angles).as_dquat(), vec3(values, 6, 1.0))
        }
    };
    let transform = Transform {
        translation: translation.as_vec3(),
        rotation: rotation.as_quat(),
        scale: scale.as_vec3(),
    };
    (transform, facts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::glam::{Quat, Vec3};

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn pq_without_w_gets_a_negative_w() {
        // x = 0.6, y = z = 0: w = -sqrt(1 - 0.36) = -0.8.
        let (t, facts) = pose_transform(PoseKind::Quaternion, &[1.0, 2.0, 3.0, 0.6, 0.0, 0.0]);
        assert!((t.rotation.w + 0.8).abs() < 1e-6 && (t.rotation.x - 0.6).abs() < 1e-6);
        assert!(!facts.normalized);
        assert_eq!(t.translation, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(t.scale, Vec3::ONE);
    }

    #[test]
    fn pq_non_unit_is_normalized_and_reported() {
        let (t, facts) = pose_transform(
            PoseKind::Quaternion,
            &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 1.0, 2.0, 3.0],
        );
        assert!(facts.normalized);
        assert_eq!(t.rotation, Quat::IDENTITY);
        assert_eq!(t.scale, Vec3::new(1.0, 2.0, 3.0));
    }

    #[test]
    fn pm_rows_with_scale_decompose() {
        // Rotation 90° about Z (column-vector convention rows: [0 -1 0],[1 0 0],[0 0 1]),
        // then each column scaled by (2, 3, 4): rows [0 -3 0],[2 0 0],[0 0 4].
        let (t, _) = pose_transform(
            PoseKind::Matrix,
            &[5.0, 0.0, 0.0, 0.0, -3.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 4.0],
        );
        assert!(close(t.scale, Vec3::new(2.0, 3.0, 4.0)), "{:?}", t.scale);
        assert!(close(t.rotation * Vec3::X, Vec3::Y));
        assert_eq!(t.translation, Vec3::new(5.0, 0.0, 0.0));
    }

    #[test]
    fn pm_mirror_gives_negative_scale() {
        let (t, _) = pose_transform(
            PoseKind::Matrix,
            &[
                0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0, 2.0, 2.0, 2.0,
            ],
        );
        // det = -1: scale -1 on every axis (times the extra 2), rotation = identity·(-1)/(-1).
        assert!(close(t.scale, Vec3::splat(-2.0)), "{:?}", t.scale);
        assert!(
            t.rotation.abs_diff_eq(Quat::IDENTITY, 1e-6)
                || t.rotation.abs_diff_eq(-Quat::IDENTITY, 1e-6)
        );
    }

    #[test]
    fn pa_is_qz_qy_qx_in_radians() {
        let (t, _) = pose_transform(
            PoseKind::Angles,
            &[
                0.0,
                0.0,
                0.0,
                std::f64::consts::FRAC_PI_2,
                0.0,
                std::f64::consts::FRAC_PI_2,
            ],
        );
        // X first: +Y -> +Z; then Z leaves +Z. +X -> +X -> +Y.
        assert!(close(t.rotation * Vec3::Y, Vec3::Z));
        assert!(close(t.rotation * Vec3::X, Vec3::Y));
        assert!((t.rotation.length() - 1.0).abs() < 1e-6);
    }
}
