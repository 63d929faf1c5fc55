//! Conversion between the faithful [`File`](crate::File) and the neutral
//! [`Model`](rigport_model_core::Model).
//!
//! * Per-corner normals and texture coordinates are welded into unified vertices on import
//!   (one vertex per distinct `(vertex record, normal, uv)` in a group) and split back into
//!   triangle corners on export.
//! * Triangles are kept in their stored order: over the whole corpus MilkShape's corners are
//!   counter-clockwise seen from the side its stored normals point to, which is glTF's front
//!   face, so no flip is needed.
//! * Weights, Euler angles and keys relative to the bind pose follow `rigport_anim::milkshape`.

pub(crate) mod direct;
mod from_model;
mod keys;
mod losses;
mod to_model;

pub use from_model::from_model;
pub use to_model::to_model;

/// Options of [`to_model`] and [`from_model`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertOptions {
    /// Name given to the one animation a file with keys holds (the format stores none).
    pub animation_name: String,
    /// Vertex extra subVersion [`from_model`] writes: 1 (weights), 2 (one extra word) or
    /// 3 (two extra words, as MilkShape 1.8.5 writes).
    pub vertex_extra_sub_version: i32,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        Self {
            animation_name: rigport_anim::milkshape::ANIMATION_NAME.to_owned(),
            vertex_extra_sub_version: 3,
        }
    }
}
