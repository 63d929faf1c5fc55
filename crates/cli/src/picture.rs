//! `rigport render` in memory: any readable file to a PNG of the posed model (or a contact
//! sheet), with textures looked up beside the source file.

use crate::document::Document;
use crate::pipeline::{PoseRequest, resolve_pose};
use rigport_model_core::{ReadOptions, Report};
use rigport_render::{FolderTextures, PoseAt, render, render_sheet};

/// The renderer's options and views, re-exported so callers need not depend on it.
pub use rigport_render::{RenderOptions, Rgb, View};
use std::path::Path;

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
) -> Result<(Vec<u8>, Report), String> {
    let (document, mut report) =
        Document::sniff_and_read(input, &request.read).map_err(|e| e.message)?;
    let (model, to_model_report) = document.to_model().map_err(|e| e.message)?;
    drop(document);
    report.extend(to_model_report);

    let mut options = request.options;
    options.pose = match resolve_pose(&model, &request.pose)? {
        Some((index, time)) => PoseAt::Animation { index, time },
        None => PoseAt::Auto,
    };
    let textures = FolderTextures::new(source_dir);
    let picture = match request.sheet {
        Some(frames) => render_sheet(&model, &options, frames, &textures),
        None => render(&model, &options, &textures),
    }
    .map_err(|e| e.to_string())?;
    report.extend(picture.report);
    let mut png = Vec::new();
    picture
        .image
        .write_to(
            &mut std::io::Cursor::new(&mut png),
            rigport_render::image::ImageFormat::Png,
        )
        .map_err(|e| format!("cannot encode the PNG: {e}"))?;
    Ok((png, report))
}

#[cfg(test)]
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
        assert!(err.contains("no triangles"), "{err}");
        let err = render_png(b"junk", Path::new("."), &request).unwrap_err();
        assert!(!err.is_empty());
    }
}
