//! Conversion to and from the neutral model.

mod bounds;
mod from_model;
mod geometry;
mod numbering;
mod quantize;
mod sampling;
mod to_model;

pub use from_model::{from_model, from_model_owned};
pub use to_model::to_model;

/// Frames per second assumed for an animation whose `framerate` is 0 (Red Eclipse's
/// files): the Blender exporter's default scene rate.
pub const DEFAULT_FPS: f32 = 24.0;

rigport_model_core::convert_options!();
