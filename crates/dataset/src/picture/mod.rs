//! Pictures of posed models (feature `render`): any readable file to a PNG of the posed
//! model, or a contact sheet of an animation, with textures looked up beside the source file;
//! for asset libraries, [`Prepared`] reads a file once and draws orbit views with depth,
//! normal and mask passes and their cameras (`transforms.json`), an animated PNG, and the
//! file's metadata.
//!
//! Every view shows the model upright by its own convention: a Z-up model (IQE, IQM) is
//! seen through the turn to Y-up `(x, y, z) → (x, z, −y)` its `.glb` gets, so `front`
//! shows a Blender-made character's face.
//!
//! ```
//! use rigport_dataset::picture::{PictureRequest, RenderOptions, render_png};
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

mod animated_orbit;
mod coco;
mod keypoints;
mod metadata;
mod orbit;
mod textures;
mod transforms;

pub use animated_orbit::OrbitAnimation;
pub use coco::{CocoModel, coco_keypoints};
pub use keypoints::{OrbitKeypoints, ViewKeypoints};
use orbit::{Drawn, view_digits};
pub use orbit::{OrbitPictures, OrbitSet, ViewFiles};
use textures::{AmongFiles, Textures, decode_embedded};
use transforms::transforms_json;

use crate::Error;
use rigport::Document;
use rigport::pipeline::PoseRequest;
use rigport_model_core::codec::Companions;
use rigport_model_core::{Model, ReadOptions, Report, UpAxis};
use rigport_render::image::RgbaImage;
use rigport_render::{
    BesideTextures, FolderTextures, PoseAt, TextureError, TextureSource, render, render_sheet,
};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The renderer's options, views, colours and errors, re-exported so callers need not
/// depend on it.
pub use rigport_render::{
    Animated, CameraConvention, CameraPose, DepthFormat, JOINT_DOT_RADIUS, Keypoint, MAX_SIDE,
    Orbit, Passes, RenderError, RenderOptions, Rgb, SKELETON_OCCLUDED, SKELETON_VISIBLE,
    VISIBILITY_TOLERANCE, View, Visibility, draw_skeleton, encode_png, parse_size,
};

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
    let prepared = Prepared::read(input, source_dir, &request.read)?;
    let (picture, mut report) = prepared.picture(request)?;
    let png = rigport_render::encode_png(&picture.image).map_err(Error::Png)?;
    let mut all = prepared.report.clone();
    all.notices.append(&mut report.notices);
    Ok((png, all))
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
        document.to_model_with_images(&rigport::ModelOptions::default())?;
    drop(document);
    report.extend(to_model_report);
    let options = posed_options(&model, &request.options, &request.pose)?;
    let textures = AmongFiles {
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

/// `options` with the pose of `model` that `pose` asks for (the bind pose: [`PoseAt::Auto`]).
fn posed_options(
    model: &Model,
    options: &RenderOptions,
    pose: &PoseRequest,
) -> Result<RenderOptions, Error> {
    let mut options = *options;
    options.pose = match rigport_anim::request::resolve(model, pose)? {
        Some((index, time)) => PoseAt::Animation { index, time },
        None => PoseAt::Auto,
    };
    Ok(options)
}

/// A file read once and ready to be drawn many ways: its model, its `info` summary, its
/// images (decoded once, whichever pictures use them) and what reading it warned about.
pub struct Prepared {
    model: Model,
    info: rigport::info::Info,
    textures: Textures,
    /// What reading and converting the file warned about.
    pub report: Report,
}

impl Prepared {
    /// Reads `input` (any readable format, detected from the content); textures are looked
    /// up in `source_dir`, the folder the input came from. The file's own bytes are not
    /// kept.
    pub fn read(input: &[u8], source_dir: &Path, read: &ReadOptions) -> Result<Self, Error> {
        let (document, mut report) = Document::sniff_and_read_in(input, read, Some(source_dir))?;
        // The summary `rigport info` prints, with the same warnings.
        let mut summary = document.summary();
        summary
            .warnings
            .extend(report.notices.iter().map(|n| n.message.clone()));
        let (model, images, to_model_report) =
            document.to_model_with_images(&rigport::ModelOptions::default())?;
        drop(document);
        report.extend(to_model_report);
        // The textures `rigport info` lists, with its warning for each one missing.
        let textures = rigport::TextureList::of(
            &model,
            &images,
            &rigport_model_core::codec::Folder::new(source_dir),
        );
        let mut missing = Report::default();
        textures.warn_missing(&mut missing);
        summary
            .warnings
            .extend(missing.notices.into_iter().map(|n| n.message));
        let info = rigport::info::Info { summary, textures };
        Ok(Self {
            model,
            info,
            textures: Textures {
                embedded: decode_embedded(&images),
                folder: FolderTextures::new(source_dir),
                cache: Mutex::new(HashMap::new()),
            },
            report,
        })
    }

    /// The model as read (in its own up axis).
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// `options` with the pose `pose` asks for.
    pub(super) fn options(
        &self,
        options: &RenderOptions,
        pose: &PoseRequest,
    ) -> Result<RenderOptions, Error> {
        posed_options(&self.model, options, pose)
    }

    /// One picture (or a contact sheet) as `request` says (its `read` is not used), with
    /// the passes its options ask for, and what drawing it warned about.
    pub fn picture(
        &self,
        request: &PictureRequest,
    ) -> Result<(rigport_render::Picture, Report), Error> {
        let options = self.options(&request.options, &request.pose)?;
        let picture = match request.sheet {
            Some(frames) => render_sheet(&self.model, &options, frames, &self.textures),
            None => render(&self.model, &options, &self.textures),
        }?;
        let report = picture.report.clone();
        Ok((picture, report))
    }

    /// Every frame of the animation `request.pose` names (the first by default) from
    /// `request.options`' camera, as an animated PNG at `fps` (default: the animation's
    /// own rate), one frame per animation frame.
    pub fn animation(&self, request: &PictureRequest, fps: Option<f32>) -> Result<Animated, Error> {
        let mut options = self.options(&request.options, &request.pose)?;
        if options.pose == PoseAt::Auto {
            options.pose = PoseAt::Animation {
                index: 0,
                time: 0.0,
            };
        }
        Ok(rigport_render::render_apng(
            &self.model,
            &options,
            fps,
            &self.textures,
        )?)
    }
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
        assert!(
            matches!(err, Error::Render(RenderError::NoTriangles)),
            "{err}"
        );
        assert!(err.to_string().contains("no triangles"), "{err}");
        let err = render_png(b"junk", Path::new("."), &request).unwrap_err();
        assert!(
            matches!(err, Error::Read(rigport::Error::Unrecognized)),
            "{err}"
        );
    }
}
