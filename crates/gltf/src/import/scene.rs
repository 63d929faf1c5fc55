//! The node hierarchy: parents, rest transforms, world matrices and the scene's nodes.

use super::ImportError;
use glam::{Mat4, Quat, Vec3};
use gltf_json as json;
use rigport_anim::Transform;

/// The node tree of a document, checked: every child index exists, no node has two
/// parents, no cycles.
pub(crate) struct Hierarchy {
    /// Parent of each node.
    pub parent: Vec<Option<usize>>,
    /// Rest (file) transform of each node, local to its parent.
    pub local: Vec<Transform>,
    /// Rest world matrix of each node.
    pub world: Vec<Mat4>,
    /// Nodes of the scene that is imported, parents before children.
    pub scene_nodes: Vec<usize>,
    /// Every node, parents before children.
    pub order: Vec<usize>,
}

/// A node's TRS, from `matrix` when it has one (decomposed; glTF forbids skew there).
pub(crate) fn node_transform(node: &json::Node) -> Transform {
    if let Some(m) = node.matrix {
        let (scale, rotation, translation) =
            Mat4::from_cols_array(&m).to_scale_rotation_translation();
        return Transform {
            translation,
            rotation: unit(rotation),
            scale,
        };
    }
    Transform {
        translation: node.translation.map_or(Vec3::ZERO, Vec3::from),
        rotation: node
            .rotation
            .map_or(Quat::IDENTITY, |q| unit(Quat::from_array(q.0))),
        scale: node.scale.map_or(Vec3::ONE, Vec3::from),
    }
}

/// `normalize` that gives the identity for a zero or non-finite quaternion.
pub(crate) fn unit(q: Quat) -> Quat {
    let length = q.length();
    if length.is_finite() && length > 1e-12 {
        q / length
    } else {
        Quat::IDENTITY
    }
}

impl Hierarchy {
    /// Builds the tree and picks the scene: `scene`, else scene 0, else every root node.
    pub(crate) fn new(root: &json::Root) -> Result<Hierarchy, ImportError> {
        let n = root.nodes.len();
        let mut parent = vec![None; n];
        for (p, node) in root.nodes.iter().enumerate() {
            for child in node.children.iter().flatten() {
                let c = child.value();
                let slot = parent
                    .get_mut(c)
                    .ok_or_else(|| ImportError::index(format!("node {p} children"), c, n))?;
                // Listed twice (even by one parent) or its own child: not a tree, and every
                // later walk up the parents relies on it being one.
                if c == p || slot.is_some() {
                    return Err(ImportError::invalid(
                        format!("node {c}"),
                        "is listed as a child twice or is its own child; glTF nodes form trees",
                    ));
                }
                *slot = Some(p);
            }
        }
        // Parents before children; a node never reached from a root is in a cycle.
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<usize> = (0..n).filter(|&i| parent[i].is_none()).collect();
        stack.reverse();
        while let Some(i) = stack.pop() {
            order.push(i);
            if let Some(children) = &root.nodes[i].children {
                stack.extend(children.iter().rev().map(|c| c.value()));
            }
        }
        if order.len() != n {
            let mut reached = vec![false; n];
            order.iter().for_each(|&i| reached[i] = true);
            let stuck = reached.iter().position(|r| !r).unwrap_or(0);
            return Err(ImportError::invalid(
                format!("node {stuck}"),
                "is part of a cycle of nodes",
            ));
        }
        let local: Vec<Transform> = root.nodes.iter().map(node_transform).collect();
        let mut world = vec![Mat4::IDENTITY; n];
        for &i in &order {
            let own = local[i].to_mat4();
            world[i] = match parent[i] {
                Some(p) => world[p] * own,
                None => own,
            };
        }
        let roots: Vec<usize> = match root
            .scene
            .map(|s| s.value())
            .or((!root.scenes.is_empty()).then_some(0))
        {
            Some(s) => {
                let scene = root
                    .scenes
                    .get(s)
                    .ok_or_else(|| ImportError::index("scene", s, root.scenes.len()))?;
                let mut roots = Vec::with_capacity(scene.nodes.len());
                for node in &scene.nodes {
                    let i = node.value();
                    if i >= n {
                        return Err(ImportError::index(format!("scene {s} nodes"), i, n));
                    }
                    roots.push(i);
                }
                roots
            }
            None => (0..n).filter(|&i| parent[i].is_none()).collect(),
        };
        // Every node under the roots, parents first, each once.
        let mut seen = vec![false; n];
        let mut scene_nodes = Vec::new();
        let mut stack: Vec<usize> = roots.into_iter().rev().collect();
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            scene_nodes.push(i);
            if let Some(children) = &root.nodes[i].children {
                stack.extend(children.iter().rev().map(|c| c.value()));
            }
        }
        Ok(Hierarchy {
            parent,
            local,
            world,
            scene_nodes,
            order,
        })
    }
}
