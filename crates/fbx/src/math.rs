//! ufbx's values as glam's, in double precision until they reach the model.

use glam::{DMat4, DQuat, DVec3, DVec4, Quat, Vec3};

/// A ufbx affine matrix (column-major 3×4) as a 4×4 matrix.
pub fn mat(m: &ufbx::Matrix) -> DMat4 {
    DMat4::from_cols(
        DVec4::new(m.m00, m.m10, m.m20, 0.0),
        DVec4::new(m.m01, m.m11, m.m21, 0.0),
        DVec4::new(m.m02, m.m12, m.m22, 0.0),
        DVec4::new(m.m03, m.m13, m.m23, 1.0),
    )
}

/// A ufbx vector.
pub fn dvec3(v: ufbx::Vec3) -> DVec3 {
    DVec3::new(v.x, v.y, v.z)
}

/// A ufbx vector, in single precision.
pub fn vec3(v: ufbx::Vec3) -> Vec3 {
    dvec3(v).as_vec3()
}

/// A ufbx quaternion, normalized, in single precision (the identity for a degenerate one).
pub fn quat(q: ufbx::Quat) -> Quat {
    unit(DQuat::from_xyzw(q.x, q.y, q.z, q.w))
}

/// `q` normalized in single precision, or the identity when it has no direction.
pub fn unit(q: DQuat) -> Quat {
    let length = q.length();
    if length.is_finite() && length > 1e-12 {
        let q = q / length;
        Quat::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32)
    } else {
        Quat::IDENTITY
    }
}

/// A local transform's parts: translation, rotation (normalized) and scale.
pub fn decompose(m: &DMat4) -> (Vec3, Quat, Vec3) {
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    (translation.as_vec3(), unit(rotation), scale.as_vec3())
}

/// The inverse of `m`, or the identity for a matrix that cannot be inverted.
pub fn inverse(m: &DMat4) -> DMat4 {
    let det = m.determinant();
    if det.is_finite() && det.abs() > 1e-300 {
        m.inverse()
    } else {
        DMat4::IDENTITY
    }
}
