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

/// How many pixels of two encoded pictures differ by more than 8 levels (of 255) in a
/// channel, and how many there are; `None` when either does not decode or their dimensions
/// differ.
pub fn differing_pixels(a: &[u8], b: &[u8]) -> Option<(usize, usize)> {
    let a = image::load_from_memory(a).ok()?.into_rgba8();
    let b = image::load_from_memory(b).ok()?.into_rgba8();
    if a.dimensions() != b.dimensions() {
        return None;
    }
    let differing = a
        .pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > 8))
        .count();
    Some((differing, (a.width() * a.height()) as usize))
}

/// The tolerance every golden picture is held to, in a test and when goldens are
/// regenerated: the same dimensions, and at most 1 % of pixels differing by more than 8
/// levels in a channel (another machine's float rounding may move an edge pixel or two).
pub fn close(a: &[u8], b: &[u8]) -> bool {
    differing_pixels(a, b).is_some_and(|(differing, total)| differing * 100 <= total)
}

/// Writes `png` to `path` unless the file there is [`close`] to it (so regenerating goldens on
/// another machine leaves every picture the tests accept as it is); returns whether it
/// wrote. Folders are created as needed.
pub fn write_unless_close(path: &Path, png: &[u8]) -> std::io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| close(&old, png)) {
        return Ok(false);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, png)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{ImageFormat, RgbaImage};

    fn encode(image: &RgbaImage) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        image.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn a_golden_within_the_tolerance_is_kept_and_one_beyond_it_rewritten() {
        let picture = RgbaImage::from_fn(20, 20, |x, y| image::Rgba([x as u8, y as u8, 90, 255]));
        let dir = std::env::temp_dir().join(format!("rigport-png-{}", std::process::id()));
        let path = dir.join("golden.png");
        assert!(write_unless_close(&path, &encode(&picture)).unwrap());
        let golden = std::fs::read(&path).unwrap();
        // One level off everywhere: close, so the golden stays.
        let mut nudged = picture.clone();
        nudged.pixels_mut().for_each(|p| p.0[2] += 1);
        assert!(close(&golden, &encode(&nudged)));
        assert!(!write_unless_close(&path, &encode(&nudged)).unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), golden);
        // Four pixels of 400 far off: still within 1 %.
        let mut spots = picture.clone();
        (0..4).for_each(|i| spots.put_pixel(i, 0, image::Rgba([255, 0, 0, 255])));
        assert_eq!(differing_pixels(&golden, &encode(&spots)), Some((4, 400)));
        assert!(close(&golden, &encode(&spots)));
        // Five: beyond it, so the golden is rewritten.
        spots.put_pixel(4, 0, image::Rgba([255, 0, 0, 255]));
        assert!(!close(&golden, &encode(&spots)));
        assert!(write_unless_close(&path, &encode(&spots)).unwrap());
        assert_ne!(std::fs::read(&path).unwrap(), golden);
        // Other dimensions are never close.
        let smaller = RgbaImage::new(20, 10);
        assert_eq!(differing_pixels(&golden, &encode(&smaller)), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
