//! Which nodes become joints, and their bind pose.
//!
//! Joints are the nodes a skeleton needs: every bone (`LimbNode`), every node a skin cluster
//! binds to, every animated node with a mesh at or below it (so a rigid mesh moves), and all
//! nodes above those up to the scene root (the nulls a skeleton hangs from, such as
//! Blender's armature object). They are listed parents first, in the file's tree order.
//!
//! A joint a skin cluster binds to has the bind world matrix that puts the skinned mesh, as
//! saved, where the cluster's inverse bind matrix expects it: the mesh node's geometry
//! transform times the inverse of the cluster's `geometry_to_bone` (which ufbx makes from
//! `TransformLink` and `Transform`, the matrices Blender's importer also takes over the
//! `Pose` nodes). Skinning then gives what ufbx's own skinning gives, also for files whose
//! clusters disagree on where the mesh was bound (Blender 2.79's). Any other joint takes its
//! parent's bind world times its rest transform (the transform the file was saved in).

use crate::math::{decompose, inverse, mat};
use glam::DMat4;
use rigport_model_core::{Joint, JointId, Skeleton};
use std::collections::{HashMap, HashSet};

/// The skeleton and how the scene's nodes map onto it.
pub(crate) struct Rig {
    /// The skeleton, parents before children.
    pub skeleton: Skeleton,
    /// The joint of each node that is one, by node `typed_id`.
    pub joint_of_node: HashMap<u32, JointId>,
    /// The node (`typed_id`) of each joint.
    pub node_of_joint: Vec<u32>,
    /// Each joint's bind world matrix.
    pub bind_world: Vec<DMat4>,
    /// Each joint's rest world matrix (its node's, as saved).
    pub rest_world: Vec<DMat4>,
}

impl Rig {
    /// The nearest joint at or above `node`.
    pub fn joint_above(&self, node: &ufbx::Node) -> Option<JointId> {
        let mut at = Some(node);
        while let Some(node) = at {
            if let Some(&joint) = self.joint_of_node.get(&node.element.typed_id) {
                return Some(joint);
            }
            at = node.parent.as_deref();
        }
        None
    }
}

/// The skeleton of `scene`; `animated` holds the nodes (`typed_id`) some stack moves.
pub(crate) fn build(scene: &ufbx::Scene, animated: &HashSet<u32>) -> Rig {
    let nodes: Vec<&ufbx::Node> = scene.nodes.iter().map(|n| &**n).collect();
    let mut wanted: HashSet<u32> = HashSet::new();
    for node in &nodes {
        if node.is_root {
            continue;
        }
        if node.bone.is_some() || node.attrib_type == ufbx::ElementType::Bone {
            wanted.insert(node.element.typed_id);
        }
        if node.mesh.is_some() {
            // An animated node at or above a mesh moves it: it must be a joint.
            let mut at = Some(*node);
            while let Some(n) = at.filter(|n| !n.is_root) {
                if animated.contains(&n.element.typed_id) {
                    wanted.insert(n.element.typed_id);
                }
                at = n.parent.as_deref();
            }
        }
    }
    // A joint's bind world from the first skin that binds it: where it puts the mesh's
    // geometry, as saved, at the cluster's inverse bind matrix (`geometry_to_bone`).
    let mut cluster_bind: HashMap<u32, DMat4> = HashMap::new();
    for node in &nodes {
        let Some(mesh) = node.mesh.as_deref() else {
            continue;
        };
        let geometry = mat(&node.geometry_to_world);
        for skin in mesh.skin_deformers.iter() {
            for cluster in skin.clusters.iter() {
                if let Some(bone) = cluster.bone_node.as_deref().filter(|b| !b.is_root) {
                    wanted.insert(bone.element.typed_id);
                    cluster_bind
                        .entry(bone.element.typed_id)
                        .or_insert_with(|| geometry * inverse(&mat(&cluster.geometry_to_bone)));
                }
            }
        }
    }
    // Every node above a wanted one (the root aside) is a joint too.
    let mut joints: HashSet<u32> = HashSet::new();
    for node in &nodes {
        if wanted.contains(&node.element.typed_id) {
            let mut at = Some(*node);
            while let Some(n) = at.filter(|n| !n.is_root) {
                if !joints.insert(n.element.typed_id) {
                    break;
                }
                at = n.parent.as_deref();
            }
        }
    }

    let mut rig = Rig {
        skeleton: Skeleton::default(),
        joint_of_node: HashMap::new(),
        node_of_joint: Vec::new(),
        bind_world: Vec::new(),
        rest_world: Vec::new(),
    };
    // Parents first, in tree order: a depth-first walk from the root.
    let mut stack: Vec<&ufbx::Node> = vec![&scene.root_node];
    while let Some(node) = stack.pop() {
        for child in node.children.iter().rev() {
            stack.push(child);
        }
        let id = node.element.typed_id;
        if node.is_root || !joints.contains(&id) {
            continue;
        }
        let Some(joint_id) = JointId::from_index(rig.skeleton.joints.len()) else {
            break;
        };
        let parent = node
            .parent
            .as_deref()
            .and_then(|p| rig.joint_of_node.get(&p.element.typed_id).copied());
        let parent_bind = parent.map_or(DMat4::IDENTITY, |p| rig.bind_world[p.index()]);
        let bind = match cluster_bind.get(&id) {
            Some(bind) => *bind,
            None if parent.is_some() => parent_bind * mat(&node.node_to_parent),
            None => mat(&node.node_to_world),
        };
        let (translation, rotation, scale) = decompose(&(inverse(&parent_bind) * bind));
        let mut joint = Joint::new(joint_name(node, rig.skeleton.joints.len()));
        joint.parent = parent;
        joint.translation = translation;
        joint.rotation = rotation;
        joint.scale = scale;
        rig.skeleton.joints.push(joint);
        rig.joint_of_node.insert(id, joint_id);
        rig.node_of_joint.push(id);
        rig.bind_world.push(bind);
        rig.rest_world.push(mat(&node.node_to_world));
    }
    rig
}

/// The node's name; for a helper ufbx added (to compensate a joint's scale inheritance or
/// hold a geometry transform) the name of the node it helps with a suffix; else `joint_N`.
fn joint_name(node: &ufbx::Node, index: usize) -> String {
    if !node.element.name.is_empty() {
        return node.element.name.to_string();
    }
    let parent = node.parent.as_deref().map(|p| p.element.name.to_string());
    match parent.filter(|p| !p.is_empty()) {
        Some(parent) if node.is_scale_helper => format!("{parent}_scale"),
        Some(parent) if node.is_geometry_transform_helper => format!("{parent}_geometry"),
        _ => format!("joint_{index}"),
    }
}
