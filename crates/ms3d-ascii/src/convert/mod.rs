//! Conversion between the faithful [`File`](crate::File) and the neutral model.
//!
//! ASCII key times are frame numbers; the model's are seconds: `seconds = frame / fps`, so
//! frame 1 is `1/fps`, which is where MilkShape's binary files put their first key too.
//! Keys are relative to the bind pose; the shared `rigport_anim::milkshape` functions turn
//! them into the model's absolute local transforms and back.

mod from_model;
mod to_model;

pub use from_model::from_model;
pub use to_model::to_model;

use crate::Error;
use rigport_model_core::Report;

/// Records a loss under `code` when `count` things were lost (the message says how many).
fn loss_if_any(report: &mut Report, code: rigport_model_core::Code, count: usize, message: String) {
    if count > 0 {
        report.loss(code, message);
    }
}

/// Frames per second when neither the options nor the model say otherwise. MilkShape
/// ASCII files do not store a frame rate; 24 is MilkShape's default (defined once, in
/// `rigport_anim::milkshape`).
pub use rigport_anim::milkshape::DEFAULT_FPS;

/// Options of [`to_model`] and [`from_model`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ConvertOptions {
    /// Frames per second used to turn frame numbers into seconds and back.
    ///
    /// `None` (the default): [`to_model`] uses [`DEFAULT_FPS`]; [`from_model`] uses the
    /// frame rate of the model's animation (so a binary file's own rate is kept), or
    /// [`DEFAULT_FPS`] when it has none. `Some(fps)` forces that rate both ways.
    pub fps: Option<f32>,
}

impl ConvertOptions {
    /// Options with a fixed frame rate.
    pub fn with_fps(fps: f32) -> Self {
        Self { fps: Some(fps) }
    }

    /// The frame rate to use, given the model's own rate when converting from a model.
    pub(crate) fn fps(&self, model_fps: Option<f32>) -> Result<f32, Error> {
        let valid = |fps: &f32| fps.is_finite() && *fps > 0.0;
        match self.fps {
            Some(fps) if valid(&fps) => Ok(fps),
            Some(fps) => Err(Error::invalid_fps(fps)),
            None => Ok(model_fps.filter(valid).unwrap_or(DEFAULT_FPS)),
        }
    }
}
