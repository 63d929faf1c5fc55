//! Conversion between the faithful [`File`](crate::File) and the neutral
//! [`Model`](rigport_model_core::Model).

mod from_model;
mod to_model;

pub use from_model::{SCALE_TYPE_FLAG, TYPE_FLAG, anim_from_model, from_model};
pub use to_model::{bind_by_name, shared_bones, to_model, to_model_with_animations};

/// Frames per second for a sequence whose `AnimRate` is not positive, and for writing an
/// animation without a positive rate.
pub const DEFAULT_FPS: f32 = 30.0;

/// The report codes this crate adds to those of [`rigport_model_core::codes`].
pub mod codes {
    /// Sequences' `FirstRawFrame` recomputed (CUE4Parse's bug).
    pub const FIRST_RAW_FRAME: rigport_model_core::Code =
        rigport_model_core::Code::new("first-raw-frame");
    /// PSA bones the skeleton lacks, or skeleton bones a PSA does not animate.
    pub const PSA_BONES_UNMATCHED: rigport_model_core::Code =
        rigport_model_core::Code::new("psa-bones-unmatched");
    /// Extra UV sets (`EXTRAUVS0`, …) the model cannot hold.
    pub const EXTRA_UVS: rigport_model_core::Code = rigport_model_core::Code::new("extra-uvs");
    /// Points without weights, bound to the root bone.
    pub const UNWEIGHTED_POINTS: rigport_model_core::Code =
        rigport_model_core::Code::new("unweighted-points");
}

rigport_model_core::convert_options!();

impl ConvertOptions {
    pub(crate) fn fallback_fps(&self) -> f32 {
        if self.default_fps.is_finite() && self.default_fps > 0.0 {
            self.default_fps
        } else {
            DEFAULT_FPS
        }
    }
}

/// An 8-bit sRGB channel as a linear value.
pub(crate) fn srgb_to_linear(channel: u8) -> f32 {
    let c = f64::from(channel) / 255.0;
    let linear = if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    };
    linear as f32
}

/// A linear value as the nearest 8-bit sRGB channel (the inverse of [`srgb_to_linear`]
/// for every byte).
pub(crate) fn linear_to_srgb(value: f32) -> u8 {
    let v = f64::from(value).clamp(0.0, 1.0);
    let c = if v <= 0.0031308 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    };
    (c * 255.0).round() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_round_trip_every_byte() {
        for byte in 0..=255u8 {
            assert_eq!(linear_to_srgb(srgb_to_linear(byte)), byte);
        }
    }
}
