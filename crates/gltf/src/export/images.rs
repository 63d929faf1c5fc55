//! Texture images for embedding: where their bytes come from ([`ImageSource`], so the
//! exporter never touches the disk itself and tests can hand it images made in code) and
//! how they become something every glTF viewer loads (PNG or JPEG).

use image::ImageFormat;
use rigport_model_core::codec::{Companions, Folder};
use rigport_model_core::texture::{self, Limits, LoadError};
use std::io::Cursor;
use std::path::{Path, PathBuf};

/// An image file found for a material's texture reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceImage {
    /// The file's name (the one found, which may differ in case from the reference); it
    /// names the image in the glTF and tells TGA apart, which has no signature.
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// Why a reference gave no image bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ImageError {
    /// No file matches the reference.
    #[error("not found")]
    NotFound,
    /// A file was found but could not be read.
    #[error("{0}")]
    Unreadable(String),
}

/// Gives the bytes of the image a material's texture reference names.
pub trait ImageSource {
    /// The image for `reference`, the texture path exactly as the material stores it.
    fn load(&self, reference: &str) -> Result<SourceImage, ImageError>;
}

/// Any closure from a reference to an image is a source (handy in tests).
impl<F> ImageSource for F
where
    F: Fn(&str) -> Result<SourceImage, ImageError>,
{
    fn load(&self, reference: &str) -> Result<SourceImage, ImageError> {
        self(reference)
    }
}

/// Images found among the files beside the source model ([`Companions`]: a folder on disk,
/// files in memory) by [`rigport_model_core::texture::find`], the one lookup rule rigport has,
/// shared with the renderer; files larger than the [`Limits`] are refused before reading.
#[derive(Clone, Debug)]
pub struct BesideImages<C> {
    files: C,
    limits: Limits,
}

/// Images beside the source model in a folder on disk.
pub type FolderImages = BesideImages<Folder>;

impl FolderImages {
    /// Images beside a model in folder `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self::over(Folder::new(dir))
    }

    /// The folder searched.
    pub fn dir(&self) -> &Path {
        self.files.dir()
    }
}

impl<C: Companions> BesideImages<C> {
    /// Images among `files`, with the default [`Limits`].
    pub fn over(files: C) -> Self {
        Self {
            files,
            limits: Limits::default(),
        }
    }
}

impl<C: Companions> ImageSource for BesideImages<C> {
    fn load(&self, reference: &str) -> Result<SourceImage, ImageError> {
        match texture::load(&self.files, reference, &self.limits) {
            Ok(found) => Ok(SourceImage {
                name: found.name,
                bytes: found.bytes.into_owned(),
            }),
            Err(LoadError::NotFound(_)) => Err(ImageError::NotFound),
            Err(other) => Err(ImageError::Unreadable(other.to_string())),
        }
    }
}

/// The two image types core glTF allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mime {
    /// `image/png`.
    Png,
    /// `image/jpeg`.
    Jpeg,
}

impl Mime {
    /// The media type string glTF stores.
    pub fn as_str(self) -> &'static str {
        match self {
            Mime::Png => "image/png",
            Mime::Jpeg => "image/jpeg",
        }
    }

    /// The file extension for a companion file of this type.
    pub fn extension(self) -> &'static str {
        match self {
            Mime::Png => "png",
            Mime::Jpeg => "jpg",
        }
    }
}

/// An image ready to embed: its type, its bytes, and whether it was converted.
#[derive(Debug)]
pub(super) struct Prepared {
    pub mime: Mime,
    pub bytes: Vec<u8>,
    /// The format it was converted from (`None` when passed through unchanged).
    pub converted_from: Option<ImageFormat>,
}

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
const JPEG_SIGNATURE: &[u8] = &[0xFF, 0xD8, 0xFF];

/// PNG and JPEG bytes pass through unchanged (judged by content, not by name); anything else
/// the `image` crate decodes (BMP, TGA) is re-encoded as PNG. The error says why not.
pub(super) fn prepare(image: SourceImage) -> Result<Prepared, String> {
    let SourceImage { name, bytes } = image;
    if bytes.starts_with(PNG_SIGNATURE) {
        return Ok(Prepared {
            mime: Mime::Png,
            bytes,
            converted_from: None,
        });
    }
    if bytes.starts_with(JPEG_SIGNATURE) {
        return Ok(Prepared {
            mime: Mime::Jpeg,
            bytes,
            converted_from: None,
        });
    }
    // TGA has no signature: content first, then the file name's extension.
    let format = image::guess_format(&bytes)
        .ok()
        .or_else(|| ImageFormat::from_path(&name).ok())
        .filter(|format| format.reading_enabled())
        .ok_or_else(|| "not an image format rigport can read (PNG, JPEG, BMP, TGA)".to_owned())?;
    let mut reader = image::ImageReader::with_format(Cursor::new(&bytes), format);
    let caps = Limits::default();
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(caps.max_side);
    limits.max_image_height = Some(caps.max_side);
    limits.max_alloc = Some(caps.max_bytes);
    reader.limits(limits);
    let decoded = reader
        .decode()
        .map_err(|e| format!("cannot decode as {format:?}: {e}"))?;
    drop(bytes);
    let png = encode_png(&decoded)?;
    Ok(Prepared {
        mime: Mime::Png,
        bytes: png,
        converted_from: Some(format),
    })
}

/// PNG bytes of a decoded image, with fast compression: embedding is on the conversion's
/// critical path, and the GLB is usually compressed again for shipping anyway.
fn encode_png(image: &image::DynamicImage) -> Result<Vec<u8>, String> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    // PNG holds 8- and 16-bit grey, grey+alpha, RGB and RGBA; anything else becomes RGBA8.
    let image = match image {
        image::DynamicImage::ImageLuma8(_)
        | image::DynamicImage::ImageLumaA8(_)
        | image::DynamicImage::ImageRgb8(_)
        | image::DynamicImage::ImageRgba8(_)
        | image::DynamicImage::ImageLuma16(_)
        | image::DynamicImage::ImageLumaA16(_)
        | image::DynamicImage::ImageRgb16(_)
        | image::DynamicImage::ImageRgba16(_) => std::borrow::Cow::Borrowed(image),
        other => std::borrow::Cow::Owned(image::DynamicImage::ImageRgba8(other.to_rgba8())),
    };
    let mut out = Vec::new();
    let encoder =
        PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Adaptive);
    image
        .write_with_encoder(encoder)
        .map_err(|e| format!("cannot encode as PNG: {e}"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage, Rgba, RgbaImage};

    fn encoded(image: image::DynamicImage, format: ImageFormat) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, format).unwrap();
        out.into_inner()
    }

    fn checker() -> RgbImage {
        RgbImage::from_fn(5, 3, |x, y| Rgb([(x * 50) as u8, (y * 80) as u8, 7]))
    }

    #[test]
    fn bmp_and_tga_become_png_with_the_same_pixels() {
        let rgb = checker();
        let rgba = RgbaImage::from_fn(4, 4, |x, y| Rgba([x as u8 * 60, y as u8 * 60, 200, 100]));
        for (name, bytes, expected) in [
            (
                "a.bmp",
                encoded(rgb.clone().into(), ImageFormat::Bmp),
                image::DynamicImage::from(rgb.clone()),
            ),
            (
                "b.TGA",
                encoded(rgba.clone().into(), ImageFormat::Tga),
                rgba.clone().into(),
            ),
        ] {
            let prepared = prepare(SourceImage {
                name: name.into(),
                bytes,
            })
            .unwrap();
            assert_eq!(prepared.mime, Mime::Png, "{name}");
            assert!(prepared.converted_from.is_some(), "{name}");
            let back =
                image::load_from_memory_with_format(&prepared.bytes, ImageFormat::Png).unwrap();
            assert_eq!(back.to_rgba8(), expected.to_rgba8(), "{name}");
        }
    }

    #[test]
    fn png_and_jpeg_pass_through_whatever_their_name() {
        let png = encoded(checker().into(), ImageFormat::Png);
        let jpeg = encoded(checker().into(), ImageFormat::Jpeg);
        let p = prepare(SourceImage {
            name: "x.bmp".into(),
            bytes: png.clone(),
        })
        .unwrap();
        assert_eq!(
            (p.mime, &p.bytes, p.converted_from),
            (Mime::Png, &png, None)
        );
        let j = prepare(SourceImage {
            name: "x.png".into(),
            bytes: jpeg.clone(),
        })
        .unwrap();
        assert_eq!(
            (j.mime, &j.bytes, j.converted_from),
            (Mime::Jpeg, &jpeg, None)
        );
    }

    #[test]
    fn garbage_and_huge_headers_are_errors_not_allocations() {
        let err = prepare(SourceImage {
            name: "x.dds".into(),
            bytes: b"DDS junk".to_vec(),
        })
        .unwrap_err();
        assert!(err.contains("not an image format"), "{err}");
        // A BMP header claiming 100000 x 100000 pixels over 60 bytes.
        let mut bmp = encoded(checker().into(), ImageFormat::Bmp);
        bmp[18..22].copy_from_slice(&100_000i32.to_le_bytes());
        bmp[22..26].copy_from_slice(&100_000i32.to_le_bytes());
        bmp.truncate(60);
        let err = prepare(SourceImage {
            name: "big.bmp".into(),
            bytes: bmp,
        })
        .unwrap_err();
        assert!(err.contains("decode"), "{err}");
        // Every truncation of a real BMP is an error or an image, never a panic.
        let whole = encoded(checker().into(), ImageFormat::Bmp);
        for len in 0..whole.len() {
            let _ = prepare(SourceImage {
                name: "t.bmp".into(),
                bytes: whole[..len].to_vec(),
            });
        }
    }

    #[test]
    fn folder_images_use_the_shared_lookup_rule() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("SKIN.BMP"), b"bytes").unwrap();
        let source = FolderImages::new(dir.path());
        let found = source.load(r"C:\Art\skin.bmp").unwrap();
        assert_eq!(
            found,
            SourceImage {
                name: "SKIN.BMP".into(),
                bytes: b"bytes".to_vec()
            }
        );
        assert_eq!(source.load("other.bmp"), Err(ImageError::NotFound));
    }
}
