//! Conversion between the faithful [`File`](crate::File) and the neutral
//! [`Model`](rigport_model_core::Model): [`to_model`], [`from_model`] and their options.

mod from_model;
mod meshes;
mod owned;
mod to_model;

pub use from_model::from_model;
pub(crate) use owned::owned_scene_to_model;
pub use to_model::to_model;

/// Frames per second used when an animation has no (or a non-positive) `framerate`.
///
/// iqm.cpp stores 0 ("unspecified") in that case; the reference Blender exporter always
/// writes the scene rate, whose default is 24, so 24 is what such a file most likely meant.
pub const DEFAULT_FPS: f32 = 24.0;

rigport_model_core::convert_options!();
