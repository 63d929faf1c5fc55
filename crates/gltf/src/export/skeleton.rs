//! The skeleton as glTF nodes, and the skin that binds meshes to it.
//!
//! Joint `i` of the model is node `i`, so animation channels and `JOINTS_0` can use joint ids
//! directly. Parents may come after their children in the model; glTF only needs each node to
//! have one parent and no cycles, which [`parent_first_order`] has checked. glTF's validator
//! also needs all joints of a skin to share one ancestor, so several root joints (or the extra
//! joint for unskinned vertices) are gathered under one untransformed node.

use super::buffer::{Builder, Usage};
use crate::Error;
use glam::{Mat4, Quat, Vec3};
use gltf_json as json;
use json::accessor::Type;
use json::scene::UnitQuaternion;
use rigport_anim::skeleton::{inverse_bind_matrices, parent_first_order};
use rigport_model_core::{Report, Skeleton};

pub(super) use crate::{ARMATURE_NAME, UNBOUND_JOINT_NAME};

/// The nodes and skin written for a skeleton.
pub(super) struct SkeletonNodes {
    /// Nodes the scene must list (root joints or their common ancestor).
    pub scene_roots: Vec<json::Index<json::Node>>,
    /// The skin, when the model has joints.
    pub skin: Option<json::Index<json::Skin>>,
    /// Number of joints in the skin (model joints plus the unbound joint, if any).
    pub skin_joints: usize,
}

/// The skeleton with every transform made finite and every rotation unit length, so the
/// node TRS and the inverse bind matrices describe exactly the same pose.
pub(super) fn sanitized(skeleton: &Skeleton, report: &mut Report) -> Result<Skeleton, Error> {
    parent_first_order(skeleton)?;
    let mut fixed = 0usize;
    let mut clean = skeleton.clone();
    for joint in &mut clean.joints {
        let before = (joint.translation, joint.rotation, joint.scale);
        joint.translation = finite_or(joint.translation, Vec3::ZERO);
        joint.scale = finite_or(joint.scale, Vec3::ONE);
        joint.rotation = unit_rotation(joint.rotation).unwrap_or(Quat::IDENTITY);
        // A mere renormalization is not worth a warning; a replaced value is.
        if before.0 != joint.translation
            || before.2 != joint.scale
            || unit_rotation(before.1).is_none()
        {
            fixed += 1;
        }
    }
    if fixed > 0 {
        report.warn(
            rigport_model_core::codes::GLTF_JOINT_TRANSFORM_INVALID,
            format!("{fixed} joints had a non-finite or zero bind transform part; replaced by the identity part"),
        );
    }
    Ok(clean)
}

/// `value` if every component is finite, else `fallback`.
pub(super) fn finite_or(value: Vec3, fallback: Vec3) -> Vec3 {
    if value.is_finite() { value } else { fallback }
}

/// The rotation scaled to unit length, or `None` when it is zero or not finite.
pub(super) fn unit_rotation(q: Quat) -> Option<Quat> {
    let length = q.length();
    (length.is_finite() && length > 0.0).then(|| q / length)
}

/// Writes one node per joint (node index = joint id), the common ancestor and unbound joint
/// when needed, and the skin with its inverse bind matrices.
pub(super) fn write_skeleton(
    skeleton: &Skeleton,
    need_unbound_joint: bool,
    builder: &mut Builder,
    report: &mut Report,
) -> Result<SkeletonNodes, Error> {
    let count = skeleton.joints.len();
    if count == 0 {
        return Ok(SkeletonNodes {
            scene_roots: Vec::new(),
            skin: None,
            skin_joints: 0,
        });
    }
    // Joint i must become node i: the skeleton is the first thing written.
    debug_assert!(builder.root.nodes.is_empty());
    let mut children: Vec<Vec<json::Index<json::Node>>> = vec![Vec::new(); count];
    let mut roots = Vec::new();
    for (i, joint) in skeleton.joints.iter().enumerate() {
        let node = json::Index::new(i as u32);
        // parent_first_order (in `sanitized`) has checked every parent id is in range.
        match joint.parent.and_then(|p| children.get_mut(p.index())) {
            Some(siblings) => siblings.push(node),
            None => roots.push(node),
        }
    }
    for (joint, children) in skeleton.joints.iter().zip(children) {
        builder.root.push(json::Node {
            name: Some(joint.name.clone()),
            children: (!children.is_empty()).then_some(children),
            translation: (joint.translation != Vec3::ZERO).then(|| joint.translation.to_array()),
            rotation: (joint.rotation != Quat::IDENTITY)
                .then(|| UnitQuaternion(joint.rotation.to_array())),
            scale: (joint.scale != Vec3::ONE).then(|| joint.scale.to_array()),
            ..Default::default()
        });
    }

    let mut skin_nodes: Vec<json::Index<json::Node>> =
        (0..count as u32).map(json::Index::new).collect();
    let mut matrices = inverse_bind_matrices(skeleton)?;
    let singular = matrices.iter().filter(|m| !m.is_finite()).count();
    for m in matrices.iter_mut().filter(|m| !m.is_finite()) {
        *m = Mat4::IDENTITY;
    }
    if singular > 0 {
        report.warn(
            rigport_model_core::codes::GLTF_BIND_SINGULAR,
            format!("{singular} joints have a bind transform that cannot be inverted (zero scale); identity inverse bind matrix written"),
        );
    }
    let scene_roots = if roots.len() > 1 || need_unbound_joint {
        if need_unbound_joint {
            let unbound = builder.root.push(json::Node {
                name: Some(UNBOUND_JOINT_NAME.to_owned()),
                ..Default::default()
            });
            roots.push(unbound);
            skin_nodes.push(unbound);
            matrices.push(Mat4::IDENTITY);
            report.info(
                rigport_model_core::codes::GLTF_UNBOUND_JOINT,
                format!("vertices bound to no joint in skinned meshes are bound to the static joint `{UNBOUND_JOINT_NAME}`"),
            );
        }
        let armature = builder.root.push(json::Node {
            name: Some(ARMATURE_NAME.to_owned()),
            children: Some(roots),
            ..Default::default()
        });
        vec![armature]
    } else {
        roots
    };

    let flat: Vec<f32> = matrices.iter().flat_map(Mat4::to_cols_array).collect();
    let inverse_bind_matrices = builder.accessor(&flat, Type::Mat4, Usage::Plain);
    let skin_joints = skin_nodes.len();
    let skin = builder.root.push(json::Skin {
        extensions: None,
        extras: Default::default(),
        inverse_bind_matrices: Some(inverse_bind_matrices),
        joints: skin_nodes,
        name: None,
        skeleton: None,
    });
    Ok(SkeletonNodes {
        scene_roots,
        skin: Some(skin),
        skin_joints,
    })
}
