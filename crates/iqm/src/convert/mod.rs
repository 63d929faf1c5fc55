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

/// Options for converting to and from the neutral model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvertOptions {
    /// Frame rate for animations whose `framerate` is not a positive number (default
    /// [`DEFAULT_FPS`]); [`from_model`] also samples such model animations at it.
    pub default_fps: f32,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        Self {
            default_fps: DEFAULT_FPS,
        }
    }
}
