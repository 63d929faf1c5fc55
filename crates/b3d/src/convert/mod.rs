//! The neutral layer: [`to_model`] and [`from_model`].

mod from_model;
mod to_model;

pub use from_model::from_model;
pub use to_model::to_model;

/// Frames per second used when `ANIM.fps` is 0 (the original description's default).
pub const DEFAULT_FPS: f32 = 60.0;

rigport_model_core::convert_options!();
