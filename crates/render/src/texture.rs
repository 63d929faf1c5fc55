//! Where a material's pixels come from. The rasterizer asks a [`TextureSource`] and never
//! touches files itself, so it can be tested with images made in code; [`FolderTextures`]
//! is the source for a model read from disk.

use image::RgbaImage;
use rigport_model_core::codec::{Companions, Folder};
use rigport_model_core::texture::{self, Limits, LoadError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Why a texture reference gave no image.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextureError {
    /// No file matches the reference.
    #[error("texture `{0}` not found beside the model")]
    NotFound(String),
    /// The file exists but could not be decoded.
    #[error("texture `{reference}` ({path}) cannot be decoded: {reason}")]
    Decode {
        /// The reference as the material stores it.
        reference: String,
        /// The file found for it.
        path: String,
        /// The decoder's message.
        reason: String,
    },
}

/// Gives the image a material's texture reference names.
pub trait TextureSource: Sync {
    /// The decoded image for `reference` (the path exactly as the material stores it).
    fn load(&self, reference: &str) -> Result<Arc<RgbaImage>, TextureError>;
}

/// No textures at all: every material falls back to its colours.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTextures;

impl TextureSource for NoTextures {
    fn load(&self, reference: &str) -> Result<Arc<RgbaImage>, TextureError> {
        Err(TextureError::NotFound(reference.to_owned()))
    }
}

/// Images given by reference, for tests and for callers that already hold the pixels.
impl TextureSource for HashMap<String, Arc<RgbaImage>> {
    fn load(&self, reference: &str) -> Result<Arc<RgbaImage>, TextureError> {
        self.get(reference)
            .cloned()
            .ok_or_else(|| TextureError::NotFound(reference.to_owned()))
    }
}

/// Textures found among the files beside a model ([`Companions`]: a folder on disk, files in
/// memory) by [`rigport_model_core::texture::find`] (the one lookup rule rigport has, shared
/// with glTF embedding) and decoded with the `image` crate (PNG, JPEG, BMP, TGA) within the
/// shared [`Limits`], each reference once.
#[derive(Debug)]
pub struct BesideTextures<C> {
    files: C,
    limits: Limits,
    cache: Mutex<HashMap<String, Result<Arc<RgbaImage>, TextureError>>>,
}

/// Textures beside a model in a folder on disk.
pub type FolderTextures = BesideTextures<Folder>;

impl FolderTextures {
    /// Textures beside a model in folder `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self::over(Folder::new(dir))
    }

    /// The folder searched.
    pub fn dir(&self) -> &Path {
        self.files.dir()
    }
}

impl<C: Companions> BesideTextures<C> {
    /// Textures among `files`, with the default [`Limits`].
    pub fn over(files: C) -> Self {
        Self {
            files,
            limits: Limits::default(),
            cache: Mutex::new(HashMap::new()),
        }
    }

    fn decode(&self, reference: &str) -> Result<Arc<RgbaImage>, TextureError> {
        let found = match texture::load(&self.files, reference, &self.limits) {
            Ok(found) => found,
            Err(LoadError::NotFound(_)) => {
                return Err(TextureError::NotFound(reference.to_owned()));
            }
            Err(other) => {
                return Err(TextureError::Decode {
                    reference: reference.to_owned(),
                    path: match &other {
                        LoadError::TooLarge { name, .. } | LoadError::Unreadable { name, .. } => {
                            name.clone()
                        }
                        _ => String::new(),
                    },
                    reason: other.to_string(),
                });
            }
        };
        decode(&found.name, &found.bytes, &self.limits)
            .map(Arc::new)
            .map_err(|reason| TextureError::Decode {
                reference: reference.to_owned(),
                path: found.name.clone(),
                reason,
            })
    }
}

/// Decodes an image file's bytes (PNG, JPEG, BMP or TGA, judged by content, then by the
/// name's extension for TGA, which has no signature) within `limits`.
fn decode(name: &str, bytes: &[u8], limits: &Limits) -> Result<RgbaImage, String> {
    let format = image::guess_format(bytes)
        .ok()
        .or_else(|| image::ImageFormat::from_path(name).ok())
        .filter(|format| format.reading_enabled())
        .ok_or_else(|| "not an image format rigport can read (PNG, JPEG, BMP, TGA)".to_owned())?;
    let mut reader = image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    let mut caps = image::Limits::default();
    caps.max_image_width = Some(limits.max_side);
    caps.max_image_height = Some(limits.max_side);
    caps.max_alloc = Some(limits.max_bytes);
    reader.limits(caps);
    let image = reader.decode().map_err(|e| e.to_string())?;
    Ok(image.into_rgba8())
}

impl<C: Companions + Sync> TextureSource for BesideTextures<C> {
    fn load(&self, reference: &str) -> Result<Arc<RgbaImage>, TextureError> {
        let cached = self
            .cache
            .lock()
            .ok()
            .and_then(|cache| cache.get(reference).cloned());
        if let Some(result) = cached {
            return result;
        }
        let result = self.decode(reference);
        if let Ok(mut cache) = self.cache.lock() {
            cache.insert(reference.to_owned(), result.clone());
        }
        result
    }
}

/// An image sampled with texture coordinates whose origin is the top-left (as glTF,
/// MilkShape and IQE store them), repeating outside `0..1`, nearest texel (sampled once
/// per pixel, at its centre): the texel's red, green and blue.
#[inline]
pub(crate) fn sample(image: &RgbaImage, u: f32, v: f32) -> [u8; 3] {
    let (w, h) = image.dimensions();
    if w == 0 || h == 0 {
        return [255; 3];
    }
    let (x, y) = (wrap(u, w), wrap(v, h));
    let i = (y as usize * w as usize + x as usize) * 4;
    let raw = image.as_raw();
    [raw[i], raw[i + 1], raw[i + 2]]
}

/// The texel index of a repeating coordinate `t` on an axis of `n > 0` texels.
#[inline]
fn wrap(t: f32, n: u32) -> u32 {
    // Most coordinates are already in 0..1; `rem_euclid` is a libm call.
    let t = if (0.0..1.0).contains(&t) {
        t
    } else {
        t.rem_euclid(1.0)
    };
    // `as` turns NaN into 0 and saturates infinities; `min` keeps the index in range.
    ((t * n as f32) as u32).min(n - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_from_the_top_left_and_repeats() {
        let mut image = RgbaImage::new(2, 2);
        image.put_pixel(0, 0, image::Rgba([255, 0, 0, 255]));
        image.put_pixel(1, 1, image::Rgba([0, 0, 255, 255]));
        assert_eq!(sample(&image, 0.25, 0.25), [255, 0, 0]);
        assert_eq!(sample(&image, 0.75, 0.75), [0, 0, 255]);
        assert_eq!(sample(&image, 1.25, -0.75), [255, 0, 0]);
        assert_eq!(sample(&image, 0.999_999_9, 1.0), [0, 0, 0]);
        // Not a number: some texel, no panic.
        let _ = sample(&image, f32::NAN, f32::INFINITY);
    }

    #[test]
    fn folder_textures_find_decode_and_report() {
        let dir = std::env::temp_dir().join(format!("rigport-render-tex-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let image = RgbaImage::from_pixel(3, 2, image::Rgba([10, 20, 30, 255]));
        image.save(dir.join("SKIN.PNG")).unwrap();
        std::fs::write(dir.join("broken.png"), b"\x89PNG\r\n\x1a\nnot really").unwrap();
        let source = FolderTextures::new(&dir);
        // Absolute Windows path of another machine, another case: found by file name.
        let found = source.load(r"C:\art\skin.png").unwrap();
        assert_eq!(found.dimensions(), (3, 2));
        assert_eq!(found.get_pixel(2, 1).0, [10, 20, 30, 255]);
        assert!(matches!(
            source.load("missing.bmp"),
            Err(TextureError::NotFound(_))
        ));
        assert!(matches!(
            source.load(r".\broken.png"),
            Err(TextureError::Decode { .. })
        ));
        // The named type missing, another one beside: found by its stem.
        let tga = dir.join("Body.tga");
        image.save(&tga).unwrap();
        assert_eq!(source.load("Body.jpg").unwrap().dimensions(), (3, 2));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn files_in_memory_answer_as_a_folder_does() {
        let mut bmp = std::io::Cursor::new(Vec::new());
        RgbaImage::from_pixel(2, 2, image::Rgba([200, 100, 0, 255]))
            .write_to(&mut bmp, image::ImageFormat::Bmp)
            .unwrap();
        let files = HashMap::from([("Skin.BMP".to_owned(), bmp.into_inner())]);
        let source = BesideTextures::over(files);
        assert_eq!(
            source.load(r".\skin.jpg").unwrap().get_pixel(1, 1).0,
            [200, 100, 0, 255]
        );
        assert_eq!(
            source.load("gone.png").unwrap_err().to_string(),
            "texture `gone.png` not found beside the model"
        );
    }
}
