//! PNG pictures compared by what they show, not by their bytes: two encoders (or one encoder
//! built on another machine) may compress the same pixels differently, so generated pictures
//! (render goldens, image fixtures) are compared and rewritten by their decoded pixels.
//!
//! ```
//! use image::codecs::png::{CompressionType, FilterType, PngEncoder};
//! use image::{ImageEncoder, RgbaImage};
//! use rigport_test_support::png::same_pixels;
//!
//! let encode = |image: &RgbaImage, compression| {
//!     let mut out = Vec::new();
//!     PngEncoder::new_with_quality(&mut out, compression, FilterType::Adaptive)
//!         .write_image(image, image.width(), image.height(), image::ExtendedColorType::Rgba8)
//!         .unwrap();
//!     out
//! };
//! let picture = RgbaImage::from_fn(64, 64, |x, y| image::Rgba([x as u8, y as u8, 7, 255]));
//! let (fast, best) = (encode(&picture, CompressionType::Fast), encode(&picture, CompressionType::Best));
//! assert_ne!(fast, best);
//! assert!(same_pixels(&fast, &best));
//! let mut other = picture.clone();
//! other.put_pixel(3, 3, image::Rgba([0, 0, 0, 255]));
//! assert!(!same_pixels(&fast, &encode(&other, CompressionType::Fast)));
//! ```

use std::path::Path;

/// The pixels of an encoded picture as 16-bit RGBA with its dimensions, or `None` when it
/// does not decode (so 8- and 16-bit, grey and colour encodings of one picture compare equal).
pub fn decode(bytes: &[u8]) -> Option<((u32, u32), Vec<u16>)> {
    let image = image::load_from_memory(bytes).ok()?.into_rgba16();
    Some((image.dimensions(), image.into_raw()))
}

/// Whether two encoded pictures have the same dimensions and the same pixels. Two inputs that
/// do not decode are the same only when their bytes are.
pub fn same_pixels(a: &[u8], b: &[u8]) -> bool {
    match (decode(a), decode(b)) {
        (Some(a), Some(b)) => a == b,
        (None, None) => a == b,
        _ => false,
    }
}

/// Writes `png` to `path` unless the file there already shows the same pixels; returns
/// whether it wrote. Folders are created as needed.
pub fn write_if_changed(path: &Path, png: &[u8]) -> std::io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| same_pixels(&old, png)) {
        return Ok(false);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, png)?;
    Ok(true)
}
