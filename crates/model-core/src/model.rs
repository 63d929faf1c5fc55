//! The whole model.

use crate::{Animation, Material, Mesh, Skeleton, Track, UpAxis};

/// A skeletal model in neutral form.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    /// Meshes (MilkShape groups, IQE meshes).
    pub meshes: Vec<Mesh>,
    /// Materials referenced by [`Mesh::material`].
    pub materials: Vec<Material>,
    /// Joint hierarchy and bind pose.
    pub skeleton: Skeleton,
    /// Animations.
    pub animations: Vec<Animation>,
    /// Free-form comment carried by the file (MilkShape model comment, IQE comment section).
    pub comment: Option<String>,
    /// The axis the model stands along: its source format's convention (see
    /// [`Model::turn_to`]).
    pub up: UpAxis,
}

impl Model {
    /// Total unified vertices over all meshes.
    pub fn vertex_count(&self) -> usize {
        self.meshes.iter().map(|m| m.vertices.len()).sum()
    }

    /// Total animation keys over every channel of every track of every animation (what
    /// writers that store every frame bound their output by).
    pub fn key_count(&self) -> usize {
        self.animations
            .iter()
            .flat_map(|a| &a.tracks)
            .map(Track::key_count)
            .sum()
    }

    /// Total morph targets over all meshes.
    pub fn morph_target_count(&self) -> usize {
        self.meshes.iter().map(|m| m.morph_targets.len()).sum()
    }

    /// Total morph-weight tracks over all animations.
    pub fn morph_track_count(&self) -> usize {
        self.animations.iter().map(|a| a.morph_tracks.len()).sum()
    }

    /// Total triangles over all meshes.
    pub fn triangle_count(&self) -> usize {
        self.meshes.iter().map(|m| m.triangles.len()).sum()
    }
}
