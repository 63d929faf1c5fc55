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
use rigport_model_core::codec::Companions;
use rigport_model_core::{Model, ReadOptions, Report, UpAxis};
use rigport_render::image::RgbaImage;
use rigport_render::{
    BesideTextures, FolderTextures, PoseAt, TextureError, TextureSource, render, render_sheet,
};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The renderer's options, views, colours and errors, re-exported so callers need not
/// depend on it.
pub use rigport_render::{
    Animated, CameraPose, MAX_SIDE, Orbit, Passes, RenderError, RenderOptions, Rgb, View,
    encode_png, parse_size,
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
        document.to_model_with_images(&crate::ModelOptions::default())?;
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

/// The images the source file held (a glTF's), else the files given beside it.
struct AmongFiles<'a> {
    embedded: HashMap<String, Arc<RgbaImage>>,
    beside: BesideTextures<&'a (dyn Companions + Sync)>,
}

impl TextureSource for AmongFiles<'_> {
    fn load(&self, reference: &str) -> Result<Arc<RgbaImage>, TextureError> {
        match self.embedded.get(reference) {
            Some(image) => Ok(Arc::clone(image)),
            None => self.beside.load(reference),
        }
    }
}

/// A file read once and ready to be drawn many ways: its model, its `info` summary, its
/// images (decoded once, whichever pictures use them) and what reading it warned about.
pub struct Prepared {
    model: Model,
    info: crate::info::Info,
    textures: Textures,
    /// What reading and converting the file warned about.
    pub report: Report,
}

/// The encoded pictures of one orbit ([`Prepared::orbit`]).
#[derive(Clone, Debug, Default)]
pub struct OrbitPictures {
    /// One entry per camera, in orbit order.
    pub views: Vec<ViewFiles>,
    /// The cameras in the instant-ngp / nerfstudio `transforms.json` convention (see
    /// [`Prepared::orbit`]).
    pub transforms: Value,
    /// What drawing warned about.
    pub report: Report,
}

/// One orbit view as its drawing thread leaves it: colour, normal and mask encoded, depth
/// waiting for the scale shared by every view.
struct Drawn {
    color: Vec<u8>,
    normal: Option<Vec<u8>>,
    mask: Option<Vec<u8>>,
    depth: Option<rigport_render::DepthImage>,
    camera: Option<rigport_render::CameraPose>,
    notices: Vec<rigport_model_core::Notice>,
}

/// The PNG files of one view.
#[derive(Clone, Debug, Default)]
pub struct ViewFiles {
    /// The colour picture (8-bit RGB).
    pub color: Vec<u8>,
    /// Depth (16-bit grey; distance = value × `integer_depth_scale`, 0 = nothing).
    pub depth: Option<Vec<u8>>,
    /// Camera-space normals (8-bit RGB, `(n + 1) / 2 · 255`, black = nothing).
    pub normal: Option<Vec<u8>>,
    /// Coverage (8-bit grey).
    pub mask: Option<Vec<u8>>,
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
            document.to_model_with_images(&crate::ModelOptions::default())?;
        drop(document);
        report.extend(to_model_report);
        // The textures `rigport info` lists, with its warning for each one missing.
        let textures = crate::TextureList::of(
            &model,
            &images,
            &rigport_model_core::codec::Folder::new(source_dir),
        );
        let mut missing = Report::default();
        textures.warn_missing(&mut missing);
        summary
            .warnings
            .extend(missing.notices.into_iter().map(|n| n.message));
        let info = crate::info::Info { summary, textures };
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
    fn options(&self, options: &RenderOptions, pose: &PoseRequest) -> Result<RenderOptions, Error> {
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

    /// `views` perspective cameras evenly around the model's up axis, the first at the
    /// front, raised `elevation_degrees`, each fitted so the model fills the middle 90 % of
    /// the picture ([`RenderOptions::orbit`]), drawn at the pose `request` asks for with the
    /// passes its options ask for.
    ///
    /// `transforms` is the instant-ngp / nerfstudio camera file: `w`, `h`, `fl_x`, `fl_y`,
    /// `cx`, `cy`, `camera_angle_x`, `camera_angle_y`, and per view `file_path`
    /// (`view_00.png`, …) and `transform_matrix`, the camera-to-world matrix (rows; OpenGL
    /// camera axes: it looks down its −Z, +Y up) in the model's coordinates turned Y-up as
    /// in its `.glb`, so a vertex of the `.glb` projects onto its pixel. With depth:
    /// `integer_depth_scale` (a depth PNG value × it = distance along the view axis, in
    /// the model's units) and per view `depth_file_path`; with normals `normal_file_path`;
    /// with a mask `mask_path`.
    pub fn orbit(
        &self,
        request: &PictureRequest,
        views: u32,
        elevation_degrees: f32,
    ) -> Result<OrbitPictures, Error> {
        let options = self.options(&request.options, &request.pose)?;
        let orbits = Orbit::ring(views, elevation_degrees);
        // Colour, normal and mask are encoded by the thread that drew the view, as soon
        // as it is drawn; depth waits for every view, as its scale is the farthest
        // distance of all of them.
        let drawn = rigport_render::render_views_with(
            &self.model,
            &options,
            &orbits,
            &self.textures,
            |_, picture| -> Result<Drawn, Error> {
                let png = |encoded: Result<Vec<u8>, _>| encoded.map_err(Error::Png);
                Ok(Drawn {
                    color: png(rigport_render::encode_png(&picture.image))?,
                    normal: picture
                        .normal
                        .as_ref()
                        .map(|n| png(rigport_render::encode_png_rgb8(n)))
                        .transpose()?,
                    mask: picture
                        .mask
                        .as_ref()
                        .map(|m| png(rigport_render::encode_png_gray8(m)))
                        .transpose()?,
                    depth: picture.depth,
                    camera: picture.camera,
                    notices: picture.report.notices,
                })
            },
        )?
        .into_iter()
        .collect::<Result<Vec<Drawn>, Error>>()?;
        let mut report = Report::default();
        let far = drawn
            .iter()
            .filter_map(|p| p.depth.as_ref())
            .flat_map(|d| d.as_raw().iter().copied())
            .fold(0.0_f32, f32::max);
        let depth_scale = if far > 0.0 {
            f64::from(far) / 65535.0
        } else {
            1.0
        };
        let digits = view_digits(views);
        let mut files = Vec::with_capacity(drawn.len());
        let mut frames = Vec::with_capacity(drawn.len());
        let mut intrinsics = None;
        for (i, picture) in drawn.into_iter().enumerate() {
            report.notices.extend(picture.notices);
            let name = format!("view_{i:0digits$}");
            let depth = match &picture.depth {
                Some(depth) => {
                    let values: Vec<u16> = depth
                        .as_raw()
                        .iter()
                        .map(|&d| {
                            if d > 0.0 {
                                (f64::from(d) / depth_scale).round().clamp(1.0, 65535.0) as u16
                            } else {
                                0
                            }
                        })
                        .collect();
                    Some(
                        rigport_render::encode_png_gray16(depth.width(), depth.height(), &values)
                            .map_err(Error::Png)?,
                    )
                }
                None => None,
            };
            let (color, normal, mask) = (picture.color, picture.normal, picture.mask);
            if let Some(camera) = picture.camera {
                intrinsics.get_or_insert(camera);
                let mut frame = json!({
                    "file_path": format!("{name}.png"),
                    "transform_matrix": camera.camera_to_world,
                });
                if depth.is_some() {
                    frame["depth_file_path"] = json!(format!("{name}_depth.png"));
                }
                if normal.is_some() {
                    frame["normal_file_path"] = json!(format!("{name}_normal.png"));
                }
                if mask.is_some() {
                    frame["mask_path"] = json!(format!("{name}_mask.png"));
                }
                frames.push(frame);
            }
            files.push(ViewFiles {
                color,
                depth,
                normal,
                mask,
            });
        }
        let (w, h) = (f64::from(options.width), f64::from(options.height));
        let mut transforms = match intrinsics {
            Some(c) => json!({
                "w": options.width,
                "h": options.height,
                "fl_x": c.focal,
                "fl_y": c.focal,
                "cx": c.cx,
                "cy": c.cy,
                "camera_angle_x": 2.0 * (w / (2.0 * c.focal)).atan(),
                "camera_angle_y": 2.0 * (h / (2.0 * c.focal)).atan(),
                "k1": 0.0, "k2": 0.0, "p1": 0.0, "p2": 0.0,
                "camera_model": "OPENCV",
            }),
            None => json!({}),
        };
        if options.passes.depth {
            transforms["integer_depth_scale"] = json!(depth_scale);
        }
        transforms["up"] = json!("+y");
        transforms["frames"] = Value::Array(frames);
        Ok(OrbitPictures {
            views: files,
            transforms,
            report,
        })
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

    /// What an asset library wants to know about the file, named `file`: the `rigport info
    /// --json` object (same keys and values) plus `up` (the file's convention), `bounds`
    /// (`min`, `max` of the bind pose turned Y-up, as in the `.glb`; absent when no vertex
    /// is finite), `joint_list` (`name`, `parent` index or null), `animation_list` (`name`,
    /// `fps`, `duration` in seconds, `frames` as `--animate` draws them, `looping`) and
    /// `textures` (`found`, `missing`: the references materials name, by whether an
    /// image was found for them).
    pub fn metadata(&self, file: &str) -> Value {
        let mut value = crate::info::info_json(file, &self.info);
        let model = &self.model;
        value["up"] = json!(model.up.key());
        let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
        for v in model.meshes.iter().flat_map(|m| &m.vertices) {
            let p = model.up.turn_vector(UpAxis::Y, v.position);
            if p.is_finite() {
                for (k, c) in p.to_array().into_iter().enumerate() {
                    lo[k] = lo[k].min(c);
                    hi[k] = hi[k].max(c);
                }
            }
        }
        if lo[0] <= hi[0] {
            value["bounds"] = json!({ "min": lo, "max": hi });
        }
        value["joint_list"] = model
            .skeleton
            .joints
            .iter()
            .map(|j| json!({ "name": j.name, "parent": j.parent.map(|p| p.index()) }))
            .collect();
        value["animation_list"] = model
            .animations
            .iter()
            .map(|a| {
                let fps = if a.fps.is_finite() && a.fps > 0.0 {
                    a.fps
                } else {
                    30.0
                };
                let frames = rigport_render::frame_times(a.end_time(), a.looping, fps)
                    .map(|t| t.len() as u64)
                    .ok();
                json!({
                    "name": a.name,
                    "fps": a.fps,
                    "duration": a.end_time(),
                    "frames": frames,
                    "looping": a.looping,
                })
            })
            .collect();
        value
    }
}

/// Digits of a view's number in its file name: at least 2.
fn view_digits(views: u32) -> usize {
    views.saturating_sub(1).max(1).to_string().len().max(2)
}

/// What a texture source gave for one reference.
type Loaded = Result<Arc<RgbaImage>, TextureError>;

/// The images the source file held (a glTF's), else the files beside it; each reference
/// is decoded once however many pictures use it.
struct Textures {
    embedded: HashMap<String, Arc<RgbaImage>>,
    folder: FolderTextures,
    cache: Mutex<HashMap<String, Loaded>>,
}

impl TextureSource for Textures {
    fn load(&self, reference: &str) -> Result<Arc<RgbaImage>, TextureError> {
        if let Some(image) = self.embedded.get(reference) {
            return Ok(Arc::clone(image));
        }
        if let Some(loaded) = self
            .cache
            .lock()
            .ok()
            .and_then(|c| c.get(reference).cloned())
        {
            return loaded;
        }
        let loaded = self.folder.load(reference);
        if let Ok(mut cache) = self.cache.lock() {
            cache.insert(reference.to_owned(), loaded.clone());
        }
        loaded
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
