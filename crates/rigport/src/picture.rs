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

mod animated_orbit;

pub use animated_orbit::OrbitAnimation;

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
    /// With keypoints asked for ([`Prepared::orbit_with`]): the joints seen from every view.
    pub keypoints: Option<OrbitKeypoints>,
}

/// The joints of an orbit's model seen from each of its views ([`Prepared::orbit_with`]).
#[derive(Clone, Debug, Default)]
pub struct OrbitKeypoints {
    /// `keypoints.json`: `joints` (`name`, `parent` index or null) and per view `frames`
    /// (`file_path`, `view`, `frame`, `time`, `keypoints`: per joint `world`, `pixel`,
    /// `depth`, `visibility`).
    pub json: Value,
    /// Joint names, in joint order.
    pub names: Vec<String>,
    /// Each joint's parent index.
    pub parents: Vec<Option<usize>>,
    /// Per view, in orbit order.
    pub views: Vec<ViewKeypoints>,
}

/// The joints seen from one view, and where the model covers that view.
#[derive(Clone, Debug, Default)]
pub struct ViewKeypoints {
    /// The picture's file name (`view_00.png`).
    pub file_path: String,
    /// One per joint, in joint order.
    pub keypoints: Vec<Keypoint>,
    /// The box of pixels the model covers, `[x, y, width, height]` (`None`: none).
    pub bbox: Option<[u32; 4]>,
    /// How many pixels the model covers.
    pub area: u64,
}

/// One orbit view as its drawing thread leaves it: colour, normal and mask encoded, depth
/// waiting for the scale shared by every view.
struct Drawn {
    color: Vec<u8>,
    normal: Option<Vec<u8>>,
    mask: Option<Vec<u8>>,
    depth: Option<rigport_render::DepthImage>,
    /// Depth already encoded (an animated orbit, whose depth scale is known beforehand).
    encoded_depth: Option<Vec<u8>>,
    camera: Option<rigport_render::CameraPose>,
    notices: Vec<rigport_model_core::Notice>,
    keypoints: Option<(Vec<Keypoint>, Option<[u32; 4]>, u64)>,
}

/// The files of one view.
#[derive(Clone, Debug, Default)]
pub struct ViewFiles {
    /// The stem of the view's files, relative to the model's folder (`view_00`).
    pub name: String,
    /// The colour picture (8-bit RGB).
    pub color: Vec<u8>,
    /// Depth: 16-bit grey, distance = value × `integer_depth_scale`, 0 = nothing; with
    /// [`OrbitSet::depth_format`], that format (distance = value ×
    /// `depth_unit_scale_factor`).
    pub depth: Option<Vec<u8>>,
    /// The depth file's extension (`png`, `npy`).
    pub depth_extension: &'static str,
    /// Camera-space normals (8-bit RGB, `(n + 1) / 2 · 255`, black = nothing).
    pub normal: Option<Vec<u8>>,
    /// Coverage (8-bit grey).
    pub mask: Option<Vec<u8>>,
}

impl ViewFiles {
    /// Each file with its path relative to the model's folder, in the order colour
    /// (`<name>.png`), depth (`<name>_depth.<ext>`), normal, mask.
    pub fn into_files(self) -> Vec<(String, Vec<u8>)> {
        let name = &self.name;
        let mut files = vec![(format!("{name}.png"), self.color)];
        for (suffix, bytes) in [
            (format!("depth.{}", self.depth_extension), self.depth),
            ("normal.png".to_owned(), self.normal),
            ("mask.png".to_owned(), self.mask),
        ] {
            if let Some(bytes) = bytes {
                files.push((format!("{name}_{suffix}"), bytes));
            }
        }
        files
    }
}

/// The cameras of an orbit dataset and how it is written ([`Prepared::orbit_set`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OrbitSet {
    /// The cameras, in view order.
    pub orbits: Vec<Orbit>,
    /// Also see the skeleton's joints from every view (`keypoints.json`).
    pub keypoints: bool,
    /// Write the depth pass in this format (drawn whatever the passes say); `None`: as
    /// the passes ask, 16-bit scaled to the farthest surface (`integer_depth_scale`).
    pub depth_format: Option<DepthFormat>,
    /// Write each `transform_matrix` in these camera axes, and say so in `transforms`
    /// (`camera_convention`, `transform`: `camera_to_world`); `None`: OpenGL's, unsaid.
    pub convention: Option<CameraConvention>,
    /// Draw every sampled frame of an animation from the cameras, instead of one pose
    /// (see [`OrbitAnimation`]).
    pub animate: Option<OrbitAnimation>,
    /// Draw the skeleton over each colour picture, as its keypoints see it
    /// ([`rigport_render::draw_skeleton`]: joints as dots, bones as lines, visible and
    /// occluded in two colours, those outside the frame left out); the other passes are
    /// unchanged. Keypoints are found for it whether or not [`OrbitSet::keypoints`] asks
    /// for them.
    pub draw_skeleton: bool,
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
    ///
    /// Every frame of `transforms` also carries `view` (its index), `frame` (0) and `time`
    /// (seconds into the animation drawn; 0 for the bind pose).
    pub fn orbit(
        &self,
        request: &PictureRequest,
        views: u32,
        elevation_degrees: f32,
    ) -> Result<OrbitPictures, Error> {
        self.orbit_with(request, views, elevation_degrees, false)
    }

    /// [`Prepared::orbit`], with the joints of the skeleton posed as the pictures are
    /// (`keypoints`) seen from every view: world position (the `.glb`'s coordinates, the
    /// world of `transforms`), pixel `(u, v)` in the picture's camera (`(0, 0)` the top-left
    /// corner, pixel centres at `+0.5`, v down), depth along the view, and whether the
    /// picture shows it, tested against the depth the renderer drew (read at the joints'
    /// pixels while drawing, the depth pass drawn only when asked for; see [`Visibility`]).
    pub fn orbit_with(
        &self,
        request: &PictureRequest,
        views: u32,
        elevation_degrees: f32,
        keypoints: bool,
    ) -> Result<OrbitPictures, Error> {
        let set = OrbitSet {
            orbits: Orbit::ring(views, elevation_degrees),
            keypoints,
            ..OrbitSet::default()
        };
        self.orbit_set(request, &set)
    }

    /// [`Prepared::orbit_with`] from the cameras of `set`, written as `set` says.
    ///
    /// With [`OrbitSet::animate`], every sampled frame of the animation from each camera
    /// (or from random cameras per frame), each camera fitted once to the box around the
    /// model in every frame: files `view_00/frame_0000.png`… (the passes beside them as
    /// `view_00/frame_0000_depth.png`…), `transforms` and keypoints frames by frame then
    /// view, each with its `view`, `frame` and `time`; the depth scale comes from the far
    /// corner of that box.
    ///
    /// With [`OrbitSet::convention`] each `transform_matrix` is in those camera axes
    /// (OpenCV's: looking down +Z, +Y down) and `transforms` says which
    /// (`camera_convention`, `transform`); the pictures and keypoints are the same.
    ///
    /// With [`OrbitSet::depth_format`] the depth pass is drawn whatever the passes say,
    /// each view's `depth_file_path` has that format's extension, and `transforms` holds
    /// `depth_unit_scale_factor` (nerfstudio's: a stored value × it = distance along the
    /// view axis, in the model's units) instead of `integer_depth_scale`.
    pub fn orbit_set(
        &self,
        request: &PictureRequest,
        set: &OrbitSet,
    ) -> Result<OrbitPictures, Error> {
        if let Some(animation) = &set.animate {
            return self.orbit_frames(request, set, animation);
        }
        let options = self.options(&request.options, &request.pose)?;
        let orbits = &set.orbits;
        let views = orbits.len() as u32;
        let joints = (set.keypoints || set.draw_skeleton)
            .then(|| rigport_render::PosedJoints::of(&self.model, options.pose))
            .transpose()?;
        let parents = self.parents();
        let write_depth = options.passes.depth || set.depth_format.is_some();
        let mut draw_options = options;
        draw_options.passes.depth |= write_depth;
        // Colour, normal and mask are encoded by the thread that drew the view, as soon
        // as it is drawn; depth waits for every view, as its scale is the farthest
        // distance of all of them.
        let each = |_, mut picture: rigport_render::Picture| -> Result<Drawn, Error> {
            let png = |encoded: Result<Vec<u8>, _>| encoded.map_err(Error::Png);
            overlay(&mut picture, set.draw_skeleton, &parents);
            let keypoints = picture
                .joints
                .map(|seen| (seen.keypoints, seen.bbox, seen.area));
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
                encoded_depth: None,
                camera: picture.camera,
                notices: picture.report.notices,
                keypoints,
            })
        };
        let drawn = match &joints {
            Some(joints) => rigport_render::render_views_seeing(
                &self.model,
                &draw_options,
                orbits,
                &self.textures,
                joints,
                each,
            ),
            None => rigport_render::render_views_with(
                &self.model,
                &draw_options,
                orbits,
                &self.textures,
                each,
            ),
        }?
        .into_iter()
        .collect::<Result<Vec<Drawn>, Error>>()?;
        let mut report = Report::default();
        let far = drawn
            .iter()
            .filter_map(|p| p.depth.as_ref())
            .flat_map(|d| d.as_raw().iter().copied())
            .fold(0.0_f32, f32::max);
        let depth_scale = match set.depth_format {
            Some(format) => format.scale_factor(f64::from(far)),
            None if far > 0.0 => f64::from(far) / 65535.0,
            None => 1.0,
        };
        let digits = view_digits(views);
        let depth_extension = set.depth_format.map_or("png", DepthFormat::extension);
        let time = match options.pose.resolve(&self.model) {
            rigport_render::PoseAt::Animation { time, .. } => time,
            _ => 0.0,
        };
        let mut files = Vec::with_capacity(drawn.len());
        let mut frames = Vec::with_capacity(drawn.len());
        let mut seen = Vec::new();
        let mut intrinsics = None;
        for (i, picture) in drawn.into_iter().enumerate() {
            report.notices.extend(picture.notices);
            let name = format!("view_{i:0digits$}");
            let depth = match (&picture.depth, set.depth_format) {
                (Some(depth), Some(format)) => {
                    Some(format.encode(depth, depth_scale).map_err(Error::Png)?)
                }
                (Some(depth), None) => {
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
                (None, _) => None,
            };
            if let Some((keypoints, bbox, area)) = picture.keypoints {
                seen.push(ViewKeypoints {
                    file_path: format!("{name}.png"),
                    keypoints,
                    bbox,
                    area,
                });
            }
            let (color, normal, mask) = (picture.color, picture.normal, picture.mask);
            if let Some(camera) = picture.camera {
                intrinsics.get_or_insert(camera);
                let mut frame = json!({
                    "file_path": format!("{name}.png"),
                    "view": i,
                    "frame": 0,
                    "time": time,
                    "transform_matrix": set
                        .convention
                        .unwrap_or_default()
                        .camera_to_world(&camera),
                });
                if depth.is_some() {
                    frame["depth_file_path"] = json!(format!("{name}_depth.{depth_extension}"));
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
                name,
                color,
                depth,
                depth_extension,
                normal,
                mask,
            });
        }
        let transforms = transforms_json(
            &options,
            intrinsics,
            set,
            options.passes.depth,
            depth_scale,
            frames,
        );
        let places: Vec<(usize, usize, f32)> = (0..seen.len()).map(|i| (i, 0, time)).collect();
        let keypoints = set.keypoints.then(|| self.keypoints_json(seen, &places));
        Ok(OrbitPictures {
            views: files,
            transforms,
            report,
            keypoints,
        })
    }

    /// Each joint's parent index, in joint order.
    fn parents(&self) -> Vec<Option<usize>> {
        let joints = &self.model.skeleton.joints;
        joints.iter().map(|j| j.parent.map(|p| p.index())).collect()
    }

    /// `keypoints.json` of the views `seen`, each at its `(view, frame, time)` of `places`.
    fn keypoints_json(
        &self,
        seen: Vec<ViewKeypoints>,
        places: &[(usize, usize, f32)],
    ) -> OrbitKeypoints {
        let joints = &self.model.skeleton.joints;
        let names: Vec<String> = joints.iter().map(|j| j.name.clone()).collect();
        let parents: Vec<Option<usize>> =
            joints.iter().map(|j| j.parent.map(|p| p.index())).collect();
        let frames: Vec<Value> = seen
            .iter()
            .zip(places)
            .map(|(view, &(index, frame, time))| {
                json!({
                    "file_path": view.file_path,
                    "view": index,
                    "frame": frame,
                    "time": time,
                    "keypoints": view.keypoints.iter().map(|k| json!({
                        "world": k.world,
                        "pixel": k.pixel,
                        "depth": k.depth,
                        "visibility": k.visibility.key(),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let json = json!({
            "joints": names.iter().zip(&parents).map(|(name, parent)| {
                json!({ "name": name, "parent": parent })
            }).collect::<Vec<_>>(),
            "frames": frames,
        });
        OrbitKeypoints {
            json,
            names,
            parents,
            views: seen,
        }
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

impl OrbitKeypoints {
    /// Reads back what [`Prepared::orbit_with`] gave from its `keypoints.json` (`json`) and
    /// each view's box and area, in view order; `None` when `json` is not such a file.
    pub fn from_json(json: Value, boxes: &[(Option<[u32; 4]>, u64)]) -> Option<Self> {
        let mut names = Vec::new();
        let mut parents = Vec::new();
        for joint in json["joints"].as_array()? {
            names.push(joint["name"].as_str()?.to_owned());
            parents.push(joint["parent"].as_u64().map(|p| p as usize));
        }
        let frames = json["frames"].as_array()?;
        if frames.len() != boxes.len() {
            return None;
        }
        let mut views = Vec::with_capacity(frames.len());
        for (frame, &(bbox, area)) in frames.iter().zip(boxes) {
            let keypoints = frame["keypoints"]
                .as_array()?
                .iter()
                .map(|k| {
                    let triple = |key: &str| -> Option<Vec<f64>> {
                        k[key]
                            .as_array()?
                            .iter()
                            .map(|c| Some(c.as_f64().unwrap_or(f64::NAN)))
                            .collect()
                    };
                    let (world, pixel) = (triple("world")?, triple("pixel")?);
                    Some(Keypoint {
                        world: [*world.first()?, *world.get(1)?, *world.get(2)?],
                        pixel: [*pixel.first()?, *pixel.get(1)?],
                        depth: k["depth"].as_f64().unwrap_or(f64::NAN),
                        visibility: match k["visibility"].as_str()? {
                            "visible" => Visibility::Visible,
                            "occluded" => Visibility::Occluded,
                            _ => Visibility::Outside,
                        },
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            views.push(ViewKeypoints {
                file_path: frame["file_path"].as_str()?.to_owned(),
                keypoints,
                bbox,
                area,
            });
        }
        Some(Self {
            json,
            names,
            parents,
            views,
        })
    }
}

/// One model's orbit in a COCO keypoints file ([`coco_keypoints`]).
#[derive(Clone, Copy, Debug)]
pub struct CocoModel<'a> {
    /// The model's folder, relative to the file (image `file_name`s start with it).
    pub folder: &'a str,
    /// Picture width and height.
    pub size: (u32, u32),
    /// Its joints seen from each view.
    pub keypoints: &'a OrbitKeypoints,
}

/// A COCO keypoints file (`images`, `annotations`, `categories`) of the orbits of
/// `models`, in their order: one image per view (`file_name` `<folder>/view_00.png`), one
/// annotation per image, and one category per distinct skeleton (the same joint names and
/// parents in the same order), named after the first model that has it, with the joint
/// names as `keypoints` and each bone as a 1-based `[parent, child]` pair in `skeleton`.
///
/// An annotation's `keypoints` are `[x, y, v]` per joint: v = 2 visible, 1 occluded (in the
/// frame but not seen), 0 outside the frame (then x = y = 0), as COCO defines them; x and
/// y count pixels by index, centres at integers, as COCO and detectron2 read them (the
/// `keypoints.json` pixel less 0.5). `bbox` `[x, y, w, h]` and `area` are the pixels the
/// model covers (its mask); `num_keypoints` counts the joints with v > 0.
pub fn coco_keypoints(models: &[CocoModel<'_>]) -> Value {
    let mut categories: Vec<Value> = Vec::new();
    let mut category_of: HashMap<(&[String], &[Option<usize>]), usize> = HashMap::new();
    let mut images = Vec::new();
    let mut annotations = Vec::new();
    for model in models {
        let k = model.keypoints;
        let key = (k.names.as_slice(), k.parents.as_slice());
        let category = *category_of.entry(key).or_insert_with(|| {
            let id = categories.len() + 1;
            let skeleton: Vec<[usize; 2]> = k
                .parents
                .iter()
                .enumerate()
                .filter_map(|(j, p)| p.filter(|&p| p < k.names.len()).map(|p| [p + 1, j + 1]))
                .collect();
            categories.push(json!({
                "id": id,
                "name": model.folder,
                "supercategory": "skeleton",
                "keypoints": k.names,
                "skeleton": skeleton,
            }));
            id
        });
        for view in &k.views {
            let image_id = images.len() + 1;
            images.push(json!({
                "id": image_id,
                "file_name": format!("{}/{}", model.folder, view.file_path),
                "width": model.size.0,
                "height": model.size.1,
            }));
            let mut flat = Vec::with_capacity(view.keypoints.len() * 3);
            let mut labelled = 0;
            for point in &view.keypoints {
                let v = point.visibility.coco();
                let [x, y] = if v > 0 && point.pixel.iter().all(|c| c.is_finite()) {
                    labelled += 1;
                    point.pixel.map(|c| c - 0.5)
                } else {
                    [0.0, 0.0]
                };
                flat.extend([json!(x), json!(y), json!(v)]);
            }
            let bbox = view.bbox.unwrap_or([0; 4]);
            annotations.push(json!({
                "id": annotations.len() + 1,
                "image_id": image_id,
                "category_id": category,
                "keypoints": flat,
                "num_keypoints": labelled,
                "bbox": bbox,
                "area": view.area,
                "iscrowd": 0,
            }));
        }
    }
    json!({
        "info": { "description": "rigport render --orbit --keypoints" },
        "images": images,
        "annotations": annotations,
        "categories": categories,
    })
}

/// With `draw`, the skeleton (`parents` in joint order) drawn over `picture`'s colour as
/// its joints were seen.
fn overlay(picture: &mut rigport_render::Picture, draw: bool, parents: &[Option<usize>]) {
    if let (true, Some(seen)) = (draw, &picture.joints) {
        rigport_render::draw_skeleton(&mut picture.image, &seen.keypoints, parents);
    }
}

/// `transforms.json` of views whose `frames` are given: the intrinsics of the first
/// camera (`None`: none drawn), the depth scale (`depth_unit_scale_factor` with a depth
/// format, else `integer_depth_scale` when `scaled_depth`), the convention when named.
fn transforms_json(
    options: &RenderOptions,
    intrinsics: Option<rigport_render::CameraPose>,
    set: &OrbitSet,
    scaled_depth: bool,
    depth_scale: f64,
    frames: Vec<Value>,
) -> Value {
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
    match set.depth_format {
        Some(_) => transforms["depth_unit_scale_factor"] = json!(depth_scale),
        None if scaled_depth => {
            transforms["integer_depth_scale"] = json!(depth_scale);
        }
        None => {}
    }
    if let Some(convention) = set.convention {
        transforms["camera_convention"] = json!(convention.key());
        transforms["transform"] = json!("camera_to_world");
    }
    transforms["up"] = json!("+y");
    transforms["frames"] = Value::Array(frames);
    transforms
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
