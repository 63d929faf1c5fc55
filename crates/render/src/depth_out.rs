//! Depth pictures as dataset loaders read them: a 16-bit grey PNG in fixed steps
//! (millimetres when the model's unit is the metre), or float32 distances in NumPy's `.npy`
//! format. Either way a value times the file's scale factor (nerfstudio's
//! `depth_unit_scale_factor`) is the distance along the viewing direction, in the model's
//! units; 0 means no surface.

use crate::{DepthImage, RenderError};
use image::ImageError;
use std::fmt;
use std::str::FromStr;

/// The step of a [`DepthFormat::Png16`] picture whose farthest surface is close enough:
/// a thousandth of the model's unit (a millimetre when the unit is the metre).
pub const DEPTH_STEP: f64 = 0.001;

/// How a depth pass is written for datasets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DepthFormat {
    /// 16-bit grey PNG: distance ÷ step, rounded, 0 where nothing is drawn; the step is
    /// [`DEPTH_STEP`], or the smallest power of ten above it that holds the farthest
    /// surface in 65 535 steps ([`png16_step`]).
    #[default]
    Png16,
    /// NumPy `.npy` (version 1.0), `<f4`, C order, shape `(height, width)`: the distance
    /// itself, 0 where nothing is drawn.
    Npy,
}

impl DepthFormat {
    /// Every format, in the order the help lists them.
    pub const ALL: [DepthFormat; 2] = [DepthFormat::Png16, DepthFormat::Npy];

    /// The name used on the command line: `png16`, `npy`.
    pub fn key(self) -> &'static str {
        match self {
            DepthFormat::Png16 => "png16",
            DepthFormat::Npy => "npy",
        }
    }

    /// The file extension: `png`, `npy`.
    pub fn extension(self) -> &'static str {
        match self {
            DepthFormat::Png16 => "png",
            DepthFormat::Npy => "npy",
        }
    }

    /// The factor a stored value is multiplied by to give the distance, for a set of
    /// pictures whose farthest drawn distance is `far`: [`png16_step`] for PNG, 1 for
    /// `.npy`.
    pub fn scale_factor(self, far: f64) -> f64 {
        match self {
            DepthFormat::Png16 => png16_step(far),
            DepthFormat::Npy => 1.0,
        }
    }

    /// `depth` in this format, each value divided by `scale_factor` (from
    /// [`DepthFormat::scale_factor`]).
    pub fn encode(self, depth: &DepthImage, scale_factor: f64) -> Result<Vec<u8>, ImageError> {
        match self {
            DepthFormat::Png16 => {
                let values: Vec<u16> = depth
                    .as_raw()
                    .iter()
                    .map(|&d| steps(d, scale_factor))
                    .collect();
                crate::encode_png_gray16(depth.width(), depth.height(), &values)
            }
            DepthFormat::Npy => Ok(npy_f32(depth.width(), depth.height(), depth.as_raw())),
        }
    }
}

impl fmt::Display for DepthFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for DepthFormat {
    type Err = RenderError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DepthFormat::ALL
            .into_iter()
            .find(|f| f.key().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| RenderError::BadDepthFormat(s.to_owned()))
    }
}

/// The step of a 16-bit depth picture whose farthest surface is at `far`: [`DEPTH_STEP`],
/// or the smallest power of ten above it for which `far` is at most 65 535 steps (a model
/// measured in centimetres or inches is often hundreds of units away). Each power of ten
/// is the `f64` nearest to it, as written in decimal.
pub fn png16_step(far: f64) -> f64 {
    let mut exponent = -3;
    loop {
        let step: f64 = format!("1e{exponent}").parse().unwrap_or(f64::MAX);
        if !(far.is_finite() && far / step > 65535.0) || exponent >= 300 {
            return step;
        }
        exponent += 1;
    }
}

/// A distance as 16-bit steps: 0 for no surface, else at least 1.
fn steps(d: f32, step: f64) -> u16 {
    if d > 0.0 {
        (f64::from(d) / step).round().clamp(1.0, 65535.0) as u16
    } else {
        0
    }
}

/// `values` (`height` rows of `width`) as a NumPy 1.0 `.npy` file of little-endian
/// float32, C order, shape `(height, width)`.
pub(crate) fn npy_f32(width: u32, height: u32, values: &[f32]) -> Vec<u8> {
    let mut header =
        format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({height}, {width}), }}");
    // Magic (6), version (2), header length (2), header and its newline: a multiple of 64.
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    header.push('\n');
    let mut npy = Vec::with_capacity(10 + header.len() + values.len() * 4);
    npy.extend_from_slice(b"\x93NUMPY\x01\x00");
    npy.extend_from_slice(&(header.len() as u16).to_le_bytes());
    npy.extend_from_slice(header.as_bytes());
    for v in values {
        npy.extend_from_slice(&v.to_le_bytes());
    }
    npy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_is_a_millimetre_until_the_far_surface_needs_more() {
        assert_eq!(png16_step(0.0), 0.001);
        assert_eq!(png16_step(65.535), 0.001);
        assert_eq!(png16_step(65.6), 0.01);
        assert_eq!(png16_step(655.36), 0.1);
        assert_eq!(png16_step(2000.0), 0.1);
        assert_eq!(png16_step(1e6), 100.0);
        assert_eq!(png16_step(f64::NAN), 0.001);
        assert!(png16_step(f64::from(f32::MAX)) * 65535.0 >= f64::from(f32::MAX));
    }

    #[test]
    fn png16_holds_steps_and_npy_holds_the_floats() {
        let depth = DepthImage::from_raw(3, 2, vec![0.0, 1.0, 1.2344, 65.535, 70.0, 0.0001])
            .expect("depth");
        let png = DepthFormat::Png16.encode(&depth, 0.001).unwrap();
        let decoded = image::load_from_memory(&png).unwrap().into_luma16();
        assert_eq!(decoded.as_raw(), &[0, 1000, 1234, 65535, 65535, 1]);

        let npy = DepthFormat::Npy.encode(&depth, 1.0).unwrap();
        assert_eq!(&npy[..8], b"\x93NUMPY\x01\x00");
        let header_len = usize::from(u16::from_le_bytes([npy[8], npy[9]]));
        assert_eq!((10 + header_len) % 64, 0);
        let header = std::str::from_utf8(&npy[10..10 + header_len]).unwrap();
        assert!(header.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"));
        assert!(header.ends_with('\n'));
        let floats: Vec<f32> = npy[10 + header_len..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        assert_eq!(floats, depth.as_raw().as_slice());
    }

    #[test]
    fn formats_parse_by_name() {
        for format in DepthFormat::ALL {
            assert_eq!(format.key().parse::<DepthFormat>().unwrap(), format);
        }
        assert!("exr".parse::<DepthFormat>().is_err());
    }
}
