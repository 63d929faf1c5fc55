//! PNG encoding of a drawn picture, tuned for speed: a 16-frame sheet of 512×512 cells is
//! 4 megapixels, and encoding it with the `image` crate's defaults (RGBA, balanced deflate)
//! cost about a tenth of drawing it.

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder, ImageError, RgbaImage};

/// Encodes an opaque picture as an 8-bit RGB PNG (the alpha channel is always 255, so it
/// is left out) with fast deflate and adaptive filtering: pictures of models are large flat
/// areas and smooth gradients, which adaptive filters make cheap to compress even at the
/// fastest level.
pub fn encode_png(image: &RgbaImage) -> Result<Vec<u8>, ImageError> {
    let mut rgb = Vec::with_capacity(image.as_raw().len() / 4 * 3);
    for p in image.as_raw().chunks_exact(4) {
        rgb.extend_from_slice(&p[..3]);
    }
    let mut png = Vec::new();
    PngEncoder::new_with_quality(&mut png, CompressionType::Fast, FilterType::Adaptive)
        .write_image(&rgb, image.width(), image.height(), ExtendedColorType::Rgb8)?;
    Ok(png)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_the_pixels_as_rgb() {
        let mut image = RgbaImage::from_pixel(5, 3, image::Rgba([10, 20, 30, 255]));
        image.put_pixel(4, 2, image::Rgba([200, 100, 0, 255]));
        let png = encode_png(&image).unwrap();
        let decoded = image::load_from_memory(&png).unwrap();
        assert_eq!(decoded.color(), image::ColorType::Rgb8);
        assert_eq!(decoded.into_rgba8(), image);
    }
}
