//! Conversion between the faithful [`File`](crate::File) and the neutral
//! [`Model`](rigport_model_core::Model): [`to_model`], [`add_animation`], [`from_model`],
//! [`animation_from_model`] and their options.

mod from_model;
mod to_model;

pub(crate) use from_model::reference;
pub use from_model::{animation_from_model, from_model};
pub use to_model::{add_animation, to_model};

/// Frames per second given to SMD animations, which store none: studiomdl's default for a
/// `$sequence` without `fps`.
pub const DEFAULT_FPS: f32 = 30.0;

/// The name [`to_model`] gives the animation of an animation SMD by default.
pub const DEFAULT_ANIMATION_NAME: &str = "anim";

/// Options for converting to and from the neutral model.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvertOptions {
    /// The frame rate of animations read from SMD (which stores none), default
    /// [`DEFAULT_FPS`]. [`animation_from_model`] samples each animation at its own rate and
    /// uses this one only when that rate is not a positive number.
    pub fps: f32,
    /// The name of the animation [`to_model`] makes of an animation SMD, default
    /// [`DEFAULT_ANIMATION_NAME`].
    pub animation_name: String,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        Self {
            fps: DEFAULT_FPS,
            animation_name: DEFAULT_ANIMATION_NAME.to_owned(),
        }
    }
}

impl ConvertOptions {
    pub(crate) fn checked_fps(&self) -> Result<f32, crate::Error> {
        if self.fps.is_finite() && self.fps > 0.0 {
            Ok(self.fps)
        } else {
            Err(crate::Error::invalid_fps(self.fps))
        }
    }
}
