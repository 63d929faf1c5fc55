//! Meshes of unified vertices.

use crate::{JointId, MaterialId, MorphTarget};
use glam::{Vec2, Vec3, Vec4};

/// One unified vertex: every attribute a triangle corner needs, selected by one index.
///
/// Unused joint slots have weight `0.0`; their joint id is meaningless and kept at 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex {
    /// Position in the mesh's bind space.
    pub position: Vec3,
    /// Unit normal (or zero when the source had none and none could be generated).
    pub normal: Vec3,
    /// Texture coordinate, origin top-left (as in MilkShape, IQE and glTF).
    pub uv: Vec2,
    /// Linear RGBA colour; `Vec4::ONE` when the source has none (see [`Mesh::has_colors`]).
    pub color: Vec4,
    /// Up to four influencing joints.
    pub joints: [JointId; 4],
    /// Weights of [`Vertex::joints`], in `0.0..=1.0`; they sum to 1 for a skinned vertex and
    /// are all 0 for a vertex bound to no joint.
    pub weights: [f32; 4],
}

impl Default for Vertex {
    fn default() -> Self {
        Self {
            position: Vec3::ZERO,
            normal: Vec3::ZERO,
            uv: Vec2::ZERO,
            color: Vec4::ONE,
            joints: [JointId(0); 4],
            weights: [0.0; 4],
        }
    }
}

impl Vertex {
    /// Whether any joint influences this vertex.
    pub fn is_skinned(&self) -> bool {
        self.weights.iter().any(|&w| w > 0.0)
    }

    /// The influences with non-zero weight, in slot order.
    pub fn influences(&self) -> impl Iterator<Item = (JointId, f32)> + '_ {
        self.joints
            .iter()
            .zip(self.weights)
            .filter(|(_, w)| *w > 0.0)
            .map(|(j, w)| (*j, w))
    }
}

/// A triangle mesh with one material.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Name as it should be shown to a person (decoded; see [`crate::text`]).
    pub name: String,
    /// Material used by every triangle, if any.
    pub material: Option<MaterialId>,
    /// Unified vertices.
    pub vertices: Vec<Vertex>,
    /// Triangles as indices into [`Mesh::vertices`], counter-clockwise seen from the side
    /// the normals point to (glTF's front face).
    pub triangles: Vec<[u32; 3]>,
    /// Whether the source carried texture coordinates (otherwise every `uv` is zero).
    pub has_uvs: bool,
    /// Whether the source carried vertex colours (otherwise every `color` is one).
    pub has_colors: bool,
    /// Morph targets (empty for most meshes): offsets blended in by weight before skinning.
    pub morph_targets: Vec<MorphTarget>,
}

impl Mesh {
    /// An empty mesh with a name.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..Self::default()
        }
    }

    /// Whether any vertex is influenced by a joint.
    pub fn is_skinned(&self) -> bool {
        self.vertices.iter().any(Vertex::is_skinned)
    }

    /// The default weight of every morph target, in target order.
    pub fn default_weights(&self) -> Vec<f32> {
        self.morph_targets
            .iter()
            .map(|t| t.default_weight)
            .collect()
    }

    /// Moves the vertices by the morph targets at `weights` (one per target; normals
    /// renormalized where they moved), keeping the targets. Returns whether a weight moved
    /// anything (all zero or non-finite: the mesh is left bit for bit as it was).
    pub fn apply_weights(&mut self, weights: &[f32]) -> bool {
        if self.morph_targets.is_empty() || weights.iter().all(|&w| w == 0.0 || !w.is_finite()) {
            return false;
        }
        let mut positions: Vec<_> = self.vertices.iter().map(|v| v.position).collect();
        let mut normals: Vec<_> = self.vertices.iter().map(|v| v.normal).collect();
        crate::morph::add_offsets(&self.morph_targets, weights, &mut positions, &mut normals);
        for ((vertex, p), n) in self.vertices.iter_mut().zip(positions).zip(normals) {
            vertex.position = p;
            if n != vertex.normal {
                vertex.normal = n.normalize_or_zero();
            }
        }
        true
    }

    /// Moves the vertices by the targets' default weights ([`Mesh::apply_weights`]) and
    /// drops the targets: the mesh a viewer shows at rest, for a format that holds no morph
    /// targets. Returns whether a vertex moved.
    pub fn bake_default_weights(&mut self) -> bool {
        let weights = self.default_weights();
        let moved = self.apply_weights(&weights);
        self.morph_targets.clear();
        moved
    }
}
