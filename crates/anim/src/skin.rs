//! Linear blend skinning: `v' = Σ wᵢ · Sᵢ · v` with `Sᵢ = G(t)ᵢ · Gbᵢ⁻¹`.
//!
//! Weights are used as they are where they sum to 1 and divided by their sum otherwise.
//! Only slots with a positive, finite weight and a joint that exists count. A vertex with
//! no such slot **stays where it is**: model-core stores an unskinned vertex as all-zero
//! weights and says the joint ids of zero-weight slots mean nothing, so "follows its first
//! joint" can only be decided by the format reader (MilkShape's all-zero stored weights
//! already decode to 100 % on the vertex's bone in
//! [`decode_skin`](crate::milkshape::decode_skin)).
//!
//! Normals go through the inverse-transpose of the blended 3×3 and are renormalized, so
//! non-uniform scale keeps them perpendicular to the surface; a zero normal stays zero.

use glam::{Mat4, Vec3, Vec3A};
use rigport_model_core::Vertex;

/// The skinned position and normal of one vertex.
#[inline]
pub fn skin_vertex(skinning: &[Mat4], vertex: &Vertex) -> (Vec3, Vec3) {
    let mut blended = Mat4::ZERO;
    let mut total = 0.0_f32;
    for (joint, &weight) in vertex.joints.iter().zip(&vertex.weights) {
        if weight > 0.0 && weight.is_finite() {
            if let Some(matrix) = skinning.get(joint.index()) {
                blended += *matrix * weight;
                total += weight;
            }
        }
    }
    if total <= 0.0 {
        return (vertex.position, vertex.normal);
    }
    if total != 1.0 {
        blended *= total.recip();
    }
    (
        blended.transform_point3(vertex.position),
        transform_normal(&blended, vertex.normal),
    )
}

/// `n` through the inverse-transpose of `m`'s 3×3, normalized (zero stays zero).
#[inline]
fn transform_normal(m: &Mat4, n: Vec3) -> Vec3 {
    // For columns a, b, c the inverse is the matrix of rows (b×c, c×a, a×b) / det, so its
    // transpose has those as columns. Dividing by |det| is undone by normalizing; only its
    // sign matters (a mirror flips the normal).
    let a = Vec3A::from_vec4(m.x_axis);
    let b = Vec3A::from_vec4(m.y_axis);
    let c = Vec3A::from_vec4(m.z_axis);
    let (bc, ca, ab) = (b.cross(c), c.cross(a), a.cross(b));
    let sign = a.dot(bc).signum();
    Vec3::from((bc * n.x + ca * n.y + ab * n.z) * sign).normalize_or_zero()
}

/// Skins vertices in place.
pub fn skin_vertices(skinning: &[Mat4], vertices: &mut [Vertex]) {
    for vertex in vertices {
        (vertex.position, vertex.normal) = skin_vertex(skinning, vertex);
    }
}

/// Writes the skinned position and normal of each `bind` vertex into the `posed` vertex at
/// the same index (other attributes of `posed` are left alone); stops at the shorter slice.
pub fn skin_vertices_into(skinning: &[Mat4], bind: &[Vertex], posed: &mut [Vertex]) {
    for (source, target) in bind.iter().zip(posed) {
        (target.position, target.normal) = skin_vertex(skinning, source);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};
    use rigport_model_core::JointId;

    fn vertex(joints: [u32; 4], weights: [f32; 4]) -> Vertex {
        Vertex {
            position: Vec3::new(1.0, 2.0, 3.0),
            normal: Vec3::X,
            joints: joints.map(JointId),
            weights,
            ..Vertex::default()
        }
    }

    #[test]
    fn zero_weight_and_missing_joints_stay_put() {
        let skinning = [Mat4::from_translation(Vec3::X)];
        let v = vertex([0; 4], [0.0; 4]);
        assert_eq!(skin_vertex(&skinning, &v), (v.position, v.normal));
        let far = vertex([5, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(skin_vertex(&skinning, &far), (far.position, far.normal));
        let nan = vertex([0; 4], [f32::NAN, 0.0, 0.0, 0.0]);
        assert_eq!(skin_vertex(&skinning, &nan).0, nan.position);
    }

    #[test]
    fn weights_are_normalized() {
        // Weights 2 and 2 on +X and −X translations: half of each, the vertex stays.
        let skinning = [
            Mat4::from_translation(Vec3::X),
            Mat4::from_translation(-Vec3::X),
        ];
        let v = vertex([0, 1, 0, 0], [2.0, 2.0, 0.0, 0.0]);
        assert!((skin_vertex(&skinning, &v).0 - v.position).length() < 1e-6);
    }

    #[test]
    fn normals_use_the_inverse_transpose() {
        // Scale x by 2: the plane x + y = 0 (normal (1,1,0)/√2) becomes x/2 + y = 0, whose
        // normal is (1,2,0)/√5 — not the (2,1,0) that transforming the normal would give.
        let skinning = [Mat4::from_scale(Vec3::new(2.0, 1.0, 1.0))];
        let mut v = vertex([0; 4], [1.0, 0.0, 0.0, 0.0]);
        v.normal = Vec3::new(1.0, 1.0, 0.0).normalize();
        let n = skin_vertex(&skinning, &v).1;
        assert!(
            (n - Vec3::new(1.0, 2.0, 0.0).normalize()).length() < 1e-6,
            "{n}"
        );
        // A mirror keeps the normal a mirrored normal.
        let mirror = [Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0))];
        v.normal = Vec3::X;
        assert!((skin_vertex(&mirror, &v).1 + Vec3::X).length() < 1e-6);
        // Rotation: the normal turns with it.
        let turn = [Mat4::from_quat(Quat::from_rotation_z(
            std::f32::consts::FRAC_PI_2,
        ))];
        assert!((skin_vertex(&turn, &v).1 - Vec3::Y).length() < 1e-6);
    }

    #[test]
    fn into_and_in_place_agree() {
        let skinning = [Mat4::from_translation(Vec3::Z)];
        let bind = [vertex([0; 4], [1.0, 0.0, 0.0, 0.0])];
        let mut posed = bind;
        skin_vertices_into(&skinning, &bind, &mut posed);
        let mut in_place = bind;
        skin_vertices(&skinning, &mut in_place);
        assert_eq!(posed, in_place);
        assert_eq!(posed[0].position, Vec3::new(1.0, 2.0, 4.0));
    }
}
