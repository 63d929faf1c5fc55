//! Orbit datasets of one pose: every view's passes encoded, `transforms.json` and the
//! keypoints of the joints seen from each view.

use super::*;
use serde_json::{Value, json};

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

/// Encodes a depth image (with the scale every picture of a set shares).
pub(super) type DepthEncoder<'a> =
    &'a dyn Fn(&rigport_render::DepthImage) -> Result<Vec<u8>, Error>;

/// One orbit view as its drawing thread leaves it: colour, normal and mask encoded, depth
/// waiting for the scale shared by every view.
pub(super) struct Drawn {
    pub(super) color: Vec<u8>,
    pub(super) normal: Option<Vec<u8>>,
    pub(super) mask: Option<Vec<u8>>,
    pub(super) depth: Option<rigport_render::DepthImage>,
    /// Depth already encoded (an animated orbit, whose depth scale is known beforehand).
    pub(super) encoded_depth: Option<Vec<u8>>,
    pub(super) camera: Option<rigport_render::CameraPose>,
    pub(super) notices: Vec<rigport_model_core::Notice>,
    pub(super) keypoints: Option<(Vec<Keypoint>, Option<[u32; 4]>, u64)>,
}

impl Drawn {
    /// The joints seen in the picture `name` (its path less `.png`), when they were asked for.
    pub(super) fn view_keypoints(
        keypoints: Option<(Vec<Keypoint>, Option<[u32; 4]>, u64)>,
        name: &str,
    ) -> Option<ViewKeypoints> {
        keypoints.map(|(keypoints, bbox, area)| ViewKeypoints {
            file_path: format!("{name}.png"),
            keypoints,
            bbox,
            area,
        })
    }

    /// `picture`, with the skeleton drawn over it when `skeleton` asks, as the thread that
    /// drew it leaves it: colour, normal and mask encoded as PNG; depth kept for a scale
    /// known only once every view is drawn, or, with `depth`, encoded by it.
    pub(super) fn encode(
        mut picture: rigport_render::Picture,
        skeleton: bool,
        parents: &[Option<usize>],
        depth: Option<DepthEncoder<'_>>,
    ) -> Result<Drawn, Error> {
        let png = |encoded: Result<Vec<u8>, _>| encoded.map_err(Error::Png);
        overlay(&mut picture, skeleton, parents);
        let (depth, encoded_depth) = match depth {
            Some(encode) => (None, picture.depth.as_ref().map(encode).transpose()?),
            None => (picture.depth, None),
        };
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
            depth,
            encoded_depth,
            camera: picture.camera,
            notices: picture.report.notices,
            keypoints: picture
                .joints
                .map(|seen| (seen.keypoints, seen.bbox, seen.area)),
        })
    }
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
        let each = |_, picture: rigport_render::Picture| -> Result<Drawn, Error> {
            Drawn::encode(picture, set.draw_skeleton, &parents, None)
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
            seen.extend(Drawn::view_keypoints(picture.keypoints, &name));
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
    pub(super) fn parents(&self) -> Vec<Option<usize>> {
        let joints = &self.model.skeleton.joints;
        joints.iter().map(|j| j.parent.map(|p| p.index())).collect()
    }
}

/// With `draw`, the skeleton (`parents` in joint order) drawn over `picture`'s colour as
/// its joints were seen.
fn overlay(picture: &mut rigport_render::Picture, draw: bool, parents: &[Option<usize>]) {
    if let (true, Some(seen)) = (draw, &picture.joints) {
        rigport_render::draw_skeleton(&mut picture.image, &seen.keypoints, parents);
    }
}

/// Digits of a view's number in its file name: at least 2.
pub(super) fn view_digits(views: u32) -> usize {
    views.saturating_sub(1).max(1).to_string().len().max(2)
}
