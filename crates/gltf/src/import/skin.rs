//! Skins → one skeleton.
//!
//! The joints are the nodes of every skin the scene's meshes use (every skin when none is
//! used), shared by node index when skins overlap, plus any node between two of them (so a
//! joint's parent is always a joint), in the order the skins list them (parents moved
//! before their children where a skin lists a child first); the joint rigport's writer adds
//! for unbound vertices is left out. A joint's bind world matrix is the inverse of its
//! inverse bind matrix (the first skin that lists it wins); a node between joints without
//! one takes its parent's bind world times its rest transform. Non-joint ancestors of the
//! top joints are folded into them: a root joint's bind and keys include the ancestors'
//! rest world transform.
//!
//! glTF draws a skinned vertex at rest at `Σ w · world(joint) · inverseBind · v`: where the
//! inverse bind matrices do not invert the rest pose (a skeleton under a turned node whose
//! matrices leave the turn out, or matrices offset from the nodes), that is not the stored
//! vertex. The model binds where glTF draws at rest: with `S` the first root joint's
//! `world · inverseBind`, every bind world matrix becomes `S · bind` and every skinned vertex
//! `S · v`. Posing is unchanged (`S` cancels), and where every joint's `world · inverseBind`
//! is `S` (one turn or offset for the whole skin) the bind pose is the rest pose exactly.

use super::scene::Hierarchy;
use super::{GltfFile, ImportError, accessor};
use glam::Mat4;
use rigport_anim::Transform;
use rigport_model_core::{Budget, Joint, JointId, Report, Skeleton, codes};

/// The skeleton and how nodes and skins map onto it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rig {
    /// The merged skeleton (parents before children).
    pub skeleton: Skeleton,
    /// The joint each node became, if any.
    pub joint_of_node: Vec<Option<JointId>>,
    /// The node of each joint.
    pub node_of_joint: Vec<usize>,
    /// Per skin: the joint of each entry of its `joints` (empty for skins not imported).
    pub skin_joints: Vec<Vec<JointId>>,
    /// Bind world matrix of each joint.
    pub bind_world: Vec<Mat4>,
    /// The rest transform of each joint's node, local to its joint parent (folded with the
    /// non-joint ancestors for roots).
    pub rest: Vec<Transform>,
    /// For root joints with non-joint ancestors: the ancestors' rest world matrix.
    pub fold: Vec<Option<Mat4>>,
    /// The node of the writer's unbound joint, read as no joint ([`UNBOUND`]).
    pub unbound: Option<usize>,
    /// `S` of the module docs: what takes a skinned vertex from the skins' bind space to the
    /// rest pose glTF draws (identity when they agree).
    pub bind_to_rest: Mat4,
}

/// What a skin's entry for the writer's unbound joint ([`crate::UNBOUND_JOINT_NAME`]) maps
/// to: no joint. Never a joint index (a skeleton holds fewer joints).
pub(crate) const UNBOUND: JointId = JointId(u32::MAX);

/// Whether `node` is the joint rigport's writer adds for unbound vertices: that name, no
/// children or mesh, at rest where its parent is, and no joint above it.
fn is_unbound_joint(
    root: &gltf_json::Root,
    hierarchy: &Hierarchy,
    node: usize,
    in_set: &[bool],
) -> bool {
    let n = &root.nodes[node];
    n.name.as_deref() == Some(crate::UNBOUND_JOINT_NAME)
        && n.children.as_ref().is_none_or(Vec::is_empty)
        && n.mesh.is_none()
        && hierarchy.parent[node].is_none_or(|p| !in_set[p])
        && hierarchy.local[node]
            .to_mat4()
            .abs_diff_eq(Mat4::IDENTITY, 1e-6)
}

/// `to_scale_rotation_translation` as a [`Transform`], the rotation normalized.
pub(crate) fn decompose(m: Mat4) -> Transform {
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    Transform {
        translation,
        rotation: super::scene::unit(rotation),
        scale,
    }
}

/// Whether a matrix can be inverted reliably.
fn invertible(m: &Mat4) -> bool {
    let det = m.determinant();
    m.is_finite() && det.is_finite() && det.abs() > 1e-12
}

/// The joints' nodes in the order the skins list them: the used skins' `joints` in turn
/// (a node's first listing counts), then the nodes between joints in the node tree's order.
/// A joint listed before its joint parent goes after it, with any other ancestors not yet
/// placed: the skeleton keeps parents before children. A skin that lists parents first (as
/// rigport writes them, in the source file's joint order) gives exactly its order.
fn joint_order(
    skins: &[gltf_json::Skin],
    used: &[bool],
    hierarchy: &Hierarchy,
    in_set: &[bool],
) -> Vec<usize> {
    let listed = skins
        .iter()
        .zip(used)
        .filter(|(_, used)| **used)
        .flat_map(|(skin, _)| skin.joints.iter().map(|j| j.value()));
    let in_tree = hierarchy.order.iter().copied().filter(|&i| in_set[i]);
    let mut placed = vec![false; in_set.len()];
    let mut order = Vec::new();
    let mut chain = Vec::new();
    for node in listed.chain(in_tree) {
        // The node and its joint ancestors not yet placed, nearest first. The set holds
        // every node between two joints, so the walk ends at the first node outside it.
        let mut at = Some(node);
        while let Some(i) = at.filter(|&i| in_set[i] && !placed[i]) {
            placed[i] = true;
            chain.push(i);
            at = hierarchy.parent[i];
        }
        order.extend(chain.drain(..).rev());
    }
    order
}

impl Rig {
    /// Builds the skeleton from the skins (see the module docs).
    pub(crate) fn new(
        file: &GltfFile,
        hierarchy: &Hierarchy,
        budget: &mut Budget,
        report: &mut Report,
    ) -> Result<Rig, ImportError> {
        let root = file.root();
        let n = root.nodes.len();
        let mut used = vec![false; root.skins.len()];
        for &i in &hierarchy.scene_nodes {
            let node = &root.nodes[i];
            if let (Some(skin), Some(_)) = (node.skin, node.mesh) {
                let s = skin.value();
                *used.get_mut(s).ok_or_else(|| {
                    ImportError::index(format!("node {i} skin"), s, root.skins.len())
                })? = true;
            }
        }
        if !used.contains(&true) {
            used.iter_mut().for_each(|u| *u = true);
        }
        // Joint set: the skins' joints…
        let mut in_set = vec![false; n];
        let mut ibm: Vec<Option<Mat4>> = vec![None; n];
        let mut mismatched = 0usize;
        for (s, skin) in root.skins.iter().enumerate() {
            if !used[s] {
                continue;
            }
            let matrices = match skin.inverse_bind_matrices {
                Some(a) => {
                    let m = accessor::read_f32::<16>(
                        file,
                        a.value(),
                        &format!("skin {s} inverseBindMatrices"),
                        budget,
                    )?;
                    if m.len() < skin.joints.len() {
                        return Err(ImportError::invalid(
                            format!("skin {s}"),
                            format!(
                                "has {} joints but {} inverse bind matrices",
                                skin.joints.len(),
                                m.len()
                            ),
                        ));
                    }
                    m
                }
                None => Vec::new(),
            };
            for (k, joint) in skin.joints.iter().enumerate() {
                let node = joint.value();
                if node >= n {
                    return Err(ImportError::index(format!("skin {s} joint {k}"), node, n));
                }
                in_set[node] = true;
                let m = matrices
                    .get(k)
                    .map_or(Mat4::IDENTITY, Mat4::from_cols_array);
                match ibm[node] {
                    None => ibm[node] = Some(m),
                    Some(first) if !first.abs_diff_eq(m, 1e-4) => mismatched += 1,
                    Some(_) => {}
                }
            }
        }
        if mismatched > 0 {
            report.warn(
                codes::SKINS_MERGED,
                format!("{mismatched} joints shared by several skins have different inverse bind matrices; the first skin's are used"),
            );
        }
        // …less the writer's unbound joint…
        let unbound = (0..n).find(|&i| in_set[i] && is_unbound_joint(root, hierarchy, i, &in_set));
        if let Some(node) = unbound {
            in_set[node] = false;
            report.info(
                codes::GLTF_UNBOUND_JOINT,
                format!("the joint `{}` (rigport writes it for vertices bound to no joint) is read as no joint; the vertices on it alone are unbound", crate::UNBOUND_JOINT_NAME),
            );
        }
        // …plus every node between a joint and the joint above it.
        let joints_only = in_set.clone();
        for node in 0..n {
            if !joints_only[node] {
                continue;
            }
            let mut path = Vec::new();
            let mut p = hierarchy.parent[node];
            while let Some(q) = p {
                if joints_only[q] || in_set[q] {
                    path.iter().for_each(|&m: &usize| in_set[m] = true);
                    break;
                }
                path.push(q);
                p = hierarchy.parent[q];
            }
        }
        let node_of_joint = joint_order(&root.skins, &used, hierarchy, &in_set);
        let mut joint_of_node = vec![None; n];
        for (j, &node) in node_of_joint.iter().enumerate() {
            joint_of_node[node] = Some(JointId(j as u32));
        }
        let mut rig = Rig {
            joint_of_node,
            unbound,
            skin_joints: vec![Vec::new(); root.skins.len()],
            ..Rig::default()
        };
        let mut singular = 0usize;
        for &node in &node_of_joint {
            let parent_joint = hierarchy.parent[node].and_then(|p| rig.joint_of_node[p]);
            let fold = match (parent_joint, hierarchy.parent[node]) {
                (None, Some(p)) => Some(hierarchy.world[p]),
                _ => None,
            };
            let rest_matrix = hierarchy.local[node].to_mat4();
            let rest = match fold {
                Some(f) => decompose(f * rest_matrix),
                None => hierarchy.local[node],
            };
            let parent_bind = parent_joint.map(|p| rig.bind_world[p.index()]);
            let inherited = parent_bind.unwrap_or(fold.unwrap_or(Mat4::IDENTITY)) * rest_matrix;
            let bind_world = match ibm[node] {
                Some(m) if invertible(&m) => m.inverse(),
                Some(_) => {
                    singular += 1;
                    inherited
                }
                None => inherited,
            };
            let local = match parent_bind {
                Some(p) if invertible(&p) => decompose(p.inverse() * bind_world),
                Some(_) => rest,
                None => decompose(bind_world),
            };
            let name = root.nodes[node]
                .name
                .clone()
                .unwrap_or_else(|| format!("node{node}"));
            rig.skeleton.joints.push(Joint {
                name,
                parent: parent_joint,
                translation: local.translation,
                rotation: local.rotation,
                scale: local.scale,
            });
            rig.bind_world.push(bind_world);
            rig.rest.push(rest);
            rig.fold.push(fold);
        }
        rig.node_of_joint = node_of_joint;
        rig.bind_at_rest(hierarchy);
        if singular > 0 {
            report.warn(
                codes::INDEX_OUT_OF_RANGE,
                format!("{singular} inverse bind matrices cannot be inverted; those joints bind at their rest pose"),
            );
        }
        for (s, skin) in root.skins.iter().enumerate() {
            if used[s] {
                rig.skin_joints[s] = skin
                    .joints
                    .iter()
                    .map(|j| match Some(j.value()) == unbound {
                        true => UNBOUND,
                        false => rig.joint_of_node[j.value()].unwrap_or_default(),
                    })
                    .collect();
            }
        }
        let merged = used.iter().filter(|u| **u).count();
        if merged > 1 {
            report.info(
                codes::SKINS_MERGED,
                format!(
                    "{merged} skins merged into one skeleton of {} joints",
                    rig.skeleton.len()
                ),
            );
        }
        Ok(rig)
    }

    /// Moves the bind pose to the rest pose glTF draws (see the module docs): `S` from the
    /// first root joint, applied to every bind world matrix and to the roots' locals.
    fn bind_at_rest(&mut self, hierarchy: &Hierarchy) {
        self.bind_to_rest = Mat4::IDENTITY;
        let (Some(&node), Some(&bind)) = (self.node_of_joint.first(), self.bind_world.first())
        else {
            return;
        };
        if !invertible(&bind) {
            return;
        }
        let settle = hierarchy.world[node] * bind.inverse();
        if !settle.is_finite() || !invertible(&settle) || settle.abs_diff_eq(Mat4::IDENTITY, 1e-6) {
            return;
        }
        self.bind_to_rest = settle;
        for (j, bind) in self.bind_world.iter_mut().enumerate() {
            *bind = settle * *bind;
            let joint = &mut self.skeleton.joints[j];
            if joint.parent.is_none() {
                let local = decompose(*bind);
                joint.translation = local.translation;
                joint.rotation = local.rotation;
                joint.scale = local.scale;
            }
        }
    }

    /// The nearest joint at or above `node`, if any.
    pub(crate) fn joint_above(&self, hierarchy: &Hierarchy, node: usize) -> Option<JointId> {
        let mut at = Some(node);
        while let Some(i) = at {
            if let Some(j) = self.joint_of_node[i] {
                return Some(j);
            }
            at = hierarchy.parent[i];
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The joint order of a document whose one skin lists the joints (no nodes between).
    fn order(nodes: &str, joints: &[usize]) -> Vec<usize> {
        let text = format!(
            r#"{{"asset":{{"version":"2.0"}},"nodes":{nodes},"skins":[{{"joints":{joints:?}}}]}}"#
        );
        let root: gltf_json::Root = serde_json::from_str(&text).unwrap();
        let hierarchy = Hierarchy::new(&root).unwrap();
        let mut in_set = vec![false; root.nodes.len()];
        joints.iter().for_each(|&j| in_set[j] = true);
        joint_order(&root.skins, &[true], &hierarchy, &in_set)
    }

    /// Node 0 with children 1 and 2; node 3 under 2.
    const TREE: &str = r#"[{"children":[1,2]},{},{"children":[3]},{}]"#;

    #[test]
    fn a_skin_listing_parents_first_gives_its_own_order() {
        // The tree's own order would be 0, 1, 2, 3.
        assert_eq!(order(TREE, &[0, 2, 3, 1]), [0, 2, 3, 1]);
        assert_eq!(order(TREE, &[0, 1, 2, 3]), [0, 1, 2, 3]);
    }

    #[test]
    fn a_joint_listed_before_its_parent_follows_it() {
        assert_eq!(order(TREE, &[3, 1, 2, 0]), [0, 2, 3, 1]);
        assert_eq!(order(TREE, &[1, 3, 0, 2]), [0, 1, 2, 3]);
    }
}
