//! Conversion between the faithful [`File`](crate::File) and the neutral
//! [`Model`](rigport_model_core::Model).

mod from_model;
mod normals;
mod to_model;

pub use from_model::{anim_from_model, from_model};
pub use normals::smooth_normals;
pub(crate) use to_model::match_joints;
pub use to_model::{to_model, to_model_with_animations};

/// Frames per second when an `.md5anim` has no usable `frameRate` (Doom 3's and assimp's
/// default).
pub const DEFAULT_FPS: f32 = 24.0;

/// Options for converting to and from the neutral model.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvertOptions {
    /// The name of the animation an `.md5anim` becomes ([`to_model`]); the file does not
    /// carry one (engines name it after the file). `None`: `"anim"`.
    pub animation_name: Option<String>,
    /// Frame rate for an `.md5anim` without a positive `frameRate`, and for writing an
    /// animation whose own rate is not positive. Default [`DEFAULT_FPS`].
    pub default_fps: f32,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        Self {
            animation_name: None,
            default_fps: DEFAULT_FPS,
        }
    }
}

impl ConvertOptions {
    /// The name an `.md5anim` converted with these options gets.
    pub fn animation_name(&self) -> &str {
        self.animation_name.as_deref().unwrap_or("anim")
    }

    pub(crate) fn fallback_fps(&self) -> f32 {
        if self.default_fps.is_finite() && self.default_fps > 0.0 {
            self.default_fps
        } else {
            DEFAULT_FPS
        }
    }
}
