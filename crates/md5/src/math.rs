//! The MD5 math: the implied quaternion `w`, model-space joints to parent-relative ones and
//! back, bind-pose vertices from weights and weights from vertices.
//!
//! Quaternions are Hamilton quaternions rotating column vectors (`v' = q v q*`), glam's
//! convention. MD5 stores `x y z` and a reader rebuilds `w = −sqrt(max(0, 1 − x² − y² − z²))`:
//! the engine's own positive root belongs to its transposed matrices, and the negative root
//! is the same rotation in standard math (the format notes, §4). A writer therefore
//! normalises, negates a quaternion whose `w` is positive, and writes `x y z`.

use glam::{DQuat, DVec3};

/// The quaternion `(x, y, z, w)` with `w = −sqrt(max(0, 1 − x² − y² − z²))`, normalised.
///
/// ```
/// use rigport_md5::math::restore_w;
/// let q = restore_w([0.0, 0.0, 0.0]);
/// assert_eq!((q.x, q.y, q.z, q.w), (0.0, 0.0, 0.0, -1.0));
/// ```
pub fn restore_w(xyz: [f64; 3]) -> DQuat {
    let [x, y, z] = xyz;
    let w = -(1.0 - x * x - y * y - z * z).max(0.0).sqrt();
    let q = DQuat::from_xyzw(x, y, z, w);
    let length = q.length();
    if length > 0.0 && length.is_finite() {
        q / length
    } else {
        DQuat::IDENTITY
    }
}

/// The `x y z` a writer stores for `q`: normalised, negated when `w` is positive, so that
/// [`restore_w`] gives the same rotation back.
pub fn stored_xyz(q: DQuat) -> [f64; 3] {
    let length = q.length();
    let q = if length > 0.0 && length.is_finite() {
        q / length
    } else {
        DQuat::IDENTITY
    };
    let q = if q.w > 0.0 { -q } else { q };
    [q.x, q.y, q.z]
}

/// A rigid transform: a translation and a unit rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rigid {
    /// Translation.
    pub position: DVec3,
    /// Rotation.
    pub rotation: DQuat,
}

impl Rigid {
    /// No translation, no rotation.
    pub const IDENTITY: Rigid = Rigid {
        position: DVec3::ZERO,
        rotation: DQuat::IDENTITY,
    };

    /// `self` then `child` (the child's transform expressed in `self`'s space):
    /// `rotation = self.rotation ⊗ child.rotation`,
    /// `position = self.position + rot(self.rotation, child.position)`.
    pub fn then(&self, child: &Rigid) -> Rigid {
        Rigid {
            position: self.position + self.rotation * child.position,
            rotation: (self.rotation * child.rotation).normalize(),
        }
    }

    /// The transform of `world` relative to `self` (both in the same space):
    /// `rotation = conj(self.rotation) ⊗ world.rotation`,
    /// `position = rot(conj(self.rotation), world.position − self.position)`.
    pub fn relative(&self, world: &Rigid) -> Rigid {
        let inverse = self.rotation.conjugate();
        Rigid {
            position: inverse * (world.position - self.position),
            rotation: (inverse * world.rotation).normalize(),
        }
    }

    /// A point of this transform's space in the outer space: `position + rot(rotation, p)`.
    pub fn apply(&self, p: DVec3) -> DVec3 {
        self.position + self.rotation * p
    }

    /// A point of the outer space in this transform's space:
    /// `rot(conj(rotation), p − position)`.
    pub fn inverse_apply(&self, p: DVec3) -> DVec3 {
        self.rotation.conjugate() * (p - self.position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: DVec3, b: DVec3) -> bool {
        (a - b).length() < 1e-9
    }

    #[test]
    fn w_is_negative_and_clamped() {
        // x² + y² + z² slightly above 1: w is 0, never NaN, and the result is unit length.
        let q = restore_w([0.6, 0.8, 0.0000001]);
        assert_eq!(q.w, 0.0);
        assert!((q.length() - 1.0).abs() < 1e-12);
        let h = 0.5_f64.sqrt();
        let q = restore_w([0.0, -h, 0.0]);
        assert!((q.w + h).abs() < 1e-12);
    }

    #[test]
    fn the_spec_example_turns_plus_90_about_y() {
        // Notes §2.1: "arm" stores ( 0 -0.7071067812 0 ): w = −0.7071, a +90° turn about Y,
        // which takes +Z to +X: the weight ( 0 0 2 )... lands 2 units along +X.
        let q = restore_w([0.0, -std::f64::consts::FRAC_1_SQRT_2, 0.0]);
        let turned = q * DVec3::Z;
        assert!(close(turned, DVec3::X), "{turned:?}");
        // Both weights of vert 1 of the example land on (4, 0, 0).
        let root = Rigid::IDENTITY;
        let arm = Rigid {
            position: DVec3::new(0.0, 0.0, 10.0),
            rotation: q,
        };
        assert!(close(
            root.apply(DVec3::new(4.0, 0.0, 0.0)),
            DVec3::new(4.0, 0.0, 0.0)
        ));
        let p = arm.apply(DVec3::new(10.0, 0.0, 4.0));
        // (0,0,10) + rot(+90° Y, (10,0,4)) = (0,0,10) + (4, 0, −10) = (4, 0, 0)
        assert!(close(p, DVec3::new(4.0, 0.0, 0.0)), "{p:?}");
    }

    #[test]
    fn stored_xyz_round_trips_through_restore_w() {
        for q in [
            DQuat::from_rotation_x(0.3),
            DQuat::from_rotation_y(-2.9),
            DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 1.7),
            DQuat::IDENTITY,
        ] {
            let back = restore_w(stored_xyz(q));
            assert!(
                back.dot(q).abs() > 1.0 - 1e-12,
                "{q:?} came back as {back:?}"
            );
            assert!(back.w <= 0.0);
        }
    }

    #[test]
    fn relative_undoes_then() {
        // Parent at (1,2,3) turned 90° about Z; child 1 unit along the parent's +X with a
        // turn about X: in model space it is at (1,3,3).
        let parent = Rigid {
            position: DVec3::new(1.0, 2.0, 3.0),
            rotation: DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2),
        };
        let local = Rigid {
            position: DVec3::X,
            rotation: DQuat::from_rotation_x(0.5),
        };
        let world = parent.then(&local);
        assert!(close(world.position, DVec3::new(1.0, 3.0, 3.0)));
        let back = parent.relative(&world);
        assert!(close(back.position, local.position));
        assert!(back.rotation.dot(local.rotation).abs() > 1.0 - 1e-12);
        let p = DVec3::new(0.5, -1.0, 2.0);
        assert!(close(world.inverse_apply(world.apply(p)), p));
    }
}
