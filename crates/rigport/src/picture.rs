//! Pictures of posed models (feature `render`): any readable file to a PNG of the posed
//! model, or a contact sheet of an animation, with textures looked up beside the source file.
//!
//! ```
//! use rigport::picture::{PictureRequest, RenderOptions, render_png};
//! use std::path::Path;
//!
//! let iqe = b"# Inter-Quake Export\nmesh tri\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";
//! let request = PictureRequest {
//!     options: RenderOptions { width: 32, height: 16, ..RenderOptions::default() },
//!     ..PictureRequest::default()
//! };
//! let (png, _report) = render_png(iqe, Path::new("."), &request).unwrap();
//! assert!(png.starts_with(b"\x89PNG"));
//! ```

use crate::document::Document;
use crate::error::Error;
use crate::pipeline::PoseRequest;
use rigport_model_core::codec::{Companions, Folder};
use rigport_model_core::{ReadOptions, Report};
use rigport_render::image::RgbaImage;
use rigport_render::{BesideTextures, PoseAt, TextureError, TextureSource, render, render_sheet};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// The renderer's options, views, colours and errors, re-exported so callers need not
/// depend on it.
pub use rigport_render::{MAX_SIDE, RenderError, RenderOptions, Rgb, View, parse_size};

/// What to draw.
#[derive(Clone, Debug, Default)]
pub struct PictureRequest {
    /// Reading options.
    pub read: ReadOptions,
    /// Size, view, background, wire (its `pose` is replaced by what `pose` asks for).
    pub options: RenderOptions,
    /// Animation and time; nothing asked means the renderer's default pose.
    pub pose: PoseRequest,
    /// Draw a contact sheet of this many frames instead of one pose.
    pub sheet: Option<u32>,
}

/// Reads `input` (any readable format, detected from the content), poses and draws it, and
/// encodes the picture as PNG. Textures are looked up in `source_dir`, the folder the input
/// came from. Returns the PNG bytes and everything the reader, the conversion and the
/// renderer warned about.
pub fn render_png(
    input: &[u8],
    source_dir: &Path,
    request: &PictureRequest,
) -> Result<(Vec<u8>, Report), Error> {
    render_png_with(input, Some(source_dir), &Folder::new(source_dir), request)
}

/// [`render_png`] with the textures looked up among `files` (any [`Companions`]: a folder,
/// the files a web page was given) by the rule of [`rigport_model_core::texture`];
/// `source_dir`, when known, is where a `.gltf` finds its external buffers.
pub fn render_png_with(
    input: &[u8],
    source_dir: Option<&Path>,
    files: &(dyn Companions + Sync),
    request: &PictureRequest,
) -> Result<(Vec<u8>, Report), Error> {
    let (document, mut report) = Document::sniff_and_read_in(input, &request.read, source_dir)?;
    let (model, images, to_model_report) =
        document.to_model_with_images(&crate::ModelOptions::default())?;
    drop(document);
    report.extend(to_model_report);

    let mut options = request.options;
    options.pose = match rigport_obj::resolve(&model, &request.pose)? {
        Some((index, time)) => PoseAt::Animation { index, time },
        None => PoseAt::Auto,
    };
    let textures = Textures {
        embedded: decode_embedded(&images),
        beside: BesideTextures::over(files),
    };
    let picture = match request.sheet {
        Some(frames) => render_sheet(&model, &options, frames, &textures),
        None => render(&model, &options, &textures),
    }?;
    report.extend(picture.report);
    let png = rigport_render::encode_png(&picture.image).map_err(Error::Png)?;
    Ok((png, report))
}

/// The images the source file held (a glTF's), else the files beside it.
struct Textures<'a> {
    embedded: HashMap<String, Arc<RgbaImage>>,
    beside: BesideTextures<&'a (dyn Companions + Sync)>,
}

impl TextureSource for Textures<'_> {
    fn load(&self, reference: &str) -> Result<Arc<RgbaImage>, TextureError> {
        match self.embedded.get(reference) {
            Some(image) => Ok(Arc::clone(image)),
            None => self.beside.load(reference),
        }
    }
}

/// Decodes the source's own images (PNG, re-encoded by the import, which already bounded
/// their size); one that does not decode is left to the folder lookup.
fn decode_embedded(images: &[crate::Image]) -> HashMap<String, Arc<RgbaImage>> {
    images
        .iter()
        .filter_map(|image| {
            let decoded = rigport_render::image::load_from_memory_with_format(
                &image.png,
                rigport_render::image::ImageFormat::Png,
            )
            .ok()?;
            Some((image.file_name.clone(), Arc::new(decoded.into_rgba8())))
        })
        .collect()
}

#[cfg(all(test, feature = "iqe"))]
mod tests {
    use super::*;

    #[test]
    fn iqe_triangle_to_png_and_skeleton_only_error() {
        let iqe = b"# Inter-Quake Export\nmesh tri\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";
        let request = PictureRequest {
            options: RenderOptions {
                width: 32,
                height: 16,
                ..RenderOptions::default()
            },
            ..PictureRequest::default()
        };
        let (png, _) = render_png(iqe, Path::new("."), &request).unwrap();
        let image = rigport_render::image::load_from_memory(&png).unwrap();
        assert_eq!((image.width(), image.height()), (32, 16));

        let bones = b"# Inter-Quake Export\njoint root -1\npq 0 0 0 0 0 0 1\n";
        let err = render_png(bones, Path::new("."), &request).unwrap_err();
        assert!(
            matches!(err, Error::Render(RenderError::NoTriangles)),
            "{err}"
        );
        assert!(err.to_string().contains("no triangles"), "{err}");
        let err = render_png(b"junk", Path::new("."), &request).unwrap_err();
        assert!(matches!(err, Error::Unrecognized), "{err}");
    }
}
