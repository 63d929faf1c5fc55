//! `rigport.render_views`: the orbit dataset `rigport render DIR -o OUT --orbit N
//! --keypoints` writes for one model, as numpy arrays instead of files. The views are drawn
//! by the same `Prepared::orbit_set` as the command's, then read back from the encoded
//! pictures, so every number equals the command's files: colour and mask pixels as the PNGs
//! hold them, depth as the float32 `.npy` of `--depth-format npy`, cameras as
//! `transforms.json` and keypoints as `keypoints.json` hold them (before printing).

use crate::errors::{Failure, detached, read_input};
use crate::model::Which;
use crate::render::Colour;
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rigport::ReadOptions;
use rigport::batch::input_dir;
use rigport::pipeline::PoseRequest;
use rigport_dataset::picture::{
    CameraConvention, DepthFormat, Orbit, OrbitAnimation, OrbitSet, Passes, PictureRequest,
    Prepared, RenderOptions,
};
use std::path::{Path, PathBuf};

/// The orbit views of one model as numpy arrays ([`render_views`]). The leading dimensions
/// of every per-picture array are (views,), or (frames, views) for an animation.
#[pyclass(frozen, get_all, module = "rigport", name = "Views")]
pub(crate) struct PyViews {
    /// Colour, uint8 (…, h, w, 4) RGBA: the pixels of the command's `view_00.png`….
    images: Py<PyArrayDyn<u8>>,
    /// Distance along each camera's view axis in the model's units, float32 (…, h, w); 0
    /// where nothing is drawn (the command's `--depth-format npy` files).
    depth: Py<PyArrayDyn<f32>>,
    /// Coverage, uint8 (…, h, w), 0 to 255 (the command's `_mask.png` files).
    mask: Py<PyArrayDyn<u8>>,
    /// The pinhole camera shared by every view: ``fl_x``, ``fl_y``, ``cx``, ``cy`` (pixels,
    /// (0, 0) the top-left corner), ``w``, ``h``.
    intrinsics: Py<PyDict>,
    /// Camera-to-world matrices, float64 (…, 4, 4), rows, in `camera_convention`'s camera
    /// axes, in the world of the model's `.glb` (the `transform_matrix` of
    /// `transforms.json`).
    camera_to_world: Py<PyArrayDyn<f64>>,
    /// The camera axes of `camera_to_world`: ``"opengl"`` or ``"opencv"``.
    camera_convention: String,
    /// Each picture's file name in the command's layout (``view_00.png``, or
    /// ``view_00/frame_0000.png``), in the order of the arrays flattened.
    file_paths: Vec<String>,
    /// Seconds into the animation of each frame, float64 (frames,); (1,) for one pose.
    times: Py<PyArrayDyn<f64>>,
    /// Joint names, in joint order (empty without keypoints).
    joint_names: Vec<String>,
    /// Each joint's parent index, or None for a root.
    joint_parents: Vec<Option<usize>>,
    /// Joint positions in the world of `camera_to_world`, posed as the pictures are,
    /// float64 (…, joints, 3); None without keypoints.
    joints_world: Option<Py<PyArrayDyn<f64>>>,
    /// Joint pixels (u right, v down, (0, 0) the top-left corner of the top-left pixel),
    /// float64 (…, joints, 2); None without keypoints.
    joints_pixel: Option<Py<PyArrayDyn<f64>>>,
    /// Joint depth along the view axis, as `depth` measures it, float64 (…, joints); None
    /// without keypoints.
    joints_depth: Option<Py<PyArrayDyn<f64>>>,
    /// COCO's v per joint, int8 (…, joints): 2 visible, 1 occluded, 0 outside the frame;
    /// None without keypoints.
    joints_visibility: Option<Py<PyArrayDyn<i8>>>,
    /// What reading and drawing warned about, as sentences.
    warnings: Vec<String>,
}

#[pymethods]
impl PyViews {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Views(images={:?}, joints={})",
            self.images.bind(py).shape(),
            self.joint_names.len()
        )
    }
}

/// Flat values and their shape, made without the interpreter lock.
struct Flat<T> {
    shape: Vec<usize>,
    values: Vec<T>,
}

impl<T: numpy::Element> Flat<T> {
    fn new(shape: Vec<usize>) -> Self {
        let len = shape.iter().product();
        Flat {
            shape,
            values: Vec::with_capacity(len),
        }
    }

    fn into_py(self, py: Python<'_>) -> PyResult<Py<PyArrayDyn<T>>> {
        let array = ArrayD::from_shape_vec(IxDyn(&self.shape), self.values)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py).unbind())
    }
}

/// The joints seen from every picture: world positions, pixels, depths, COCO visibility.
type Joints = (Flat<f64>, Flat<f64>, Flat<f64>, Flat<i8>);

/// Everything of [`PyViews`], made without the interpreter lock.
struct Drawn {
    images: Flat<u8>,
    depth: Flat<f32>,
    mask: Flat<u8>,
    intrinsics: [(&'static str, f64); 6],
    camera_to_world: Flat<f64>,
    file_paths: Vec<String>,
    times: Vec<f64>,
    joint_names: Vec<String>,
    joint_parents: Vec<Option<usize>>,
    joints: Option<Joints>,
    warnings: Vec<String>,
}

/// What to draw: the command's options for one model.
pub(crate) struct OrbitRequest {
    pub(crate) request: PictureRequest,
    pub(crate) set: OrbitSet,
}

/// The cameras: `views` evenly around the up axis at `elevation` degrees, or `views`
/// seeded random ones.
pub(crate) fn orbits(views: u32, seed: Option<u64>, elevation: f32) -> Result<Vec<Orbit>, Failure> {
    if !(1..=1000).contains(&views) {
        return Err(Failure::Value(format!(
            "views={views}: draw between 1 and 1000 views"
        )));
    }
    if !(-89.0..=89.0).contains(&elevation) {
        return Err(Failure::Value(format!(
            "elevation={elevation} is not between -89 and 89 degrees"
        )));
    }
    Ok(match seed {
        Some(seed) => Orbit::random(views, seed),
        None => Orbit::ring(views, elevation),
    })
}

/// The camera axes named `key` (``"opengl"``, ``"opencv"``).
pub(crate) fn convention(key: &str) -> Result<CameraConvention, Failure> {
    key.parse()
        .map_err(|e: rigport_dataset::picture::RenderError| Failure::Value(e.to_string()))
}

/// A background colour as the command takes it.
pub(crate) fn colour_of(colour: Option<Colour>) -> Result<rigport_dataset::picture::Rgb, Failure> {
    Ok(match colour {
        None => RenderOptions::default().background,
        Some(Colour::Rgb(r, g, b)) => rigport_dataset::picture::Rgb([r, g, b]),
        Some(Colour::Hex(hex)) => hex
            .parse()
            .map_err(|e: rigport_dataset::picture::RenderError| Failure::Value(e.to_string()))?,
    })
}

/// A picture size the renderer takes.
pub(crate) fn check_size(width: u32, height: u32) -> Result<(), Failure> {
    let max = rigport_dataset::picture::MAX_SIDE;
    if !(1..=max).contains(&width) || !(1..=max).contains(&height) {
        return Err(Failure::Value(format!(
            "size {width}x{height}: each side must be between 1 and {max}"
        )));
    }
    Ok(())
}

/// The pixels of a PNG the orbit encoded.
fn decode(png: &[u8], path: &Path) -> Result<image::DynamicImage, Failure> {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .map_err(|e| Failure::message(format!("picture does not decode: {e}"), Some(path)))
}

/// The float32 values of a `.npy` file the orbit wrote (little-endian `<f4`).
fn npy_values(npy: &[u8]) -> Option<Vec<f32>> {
    let header = usize::from(u16::from_le_bytes([*npy.get(8)?, *npy.get(9)?]));
    let data = npy.get(10 + header..)?;
    Some(
        data.chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    )
}

/// Draws the orbit of `path` and reads its pictures back.
fn draw(path: &Path, orbit: &OrbitRequest) -> Result<Drawn, Failure> {
    let bytes = read_input(path)?;
    let prepared = Prepared::read(&bytes, &input_dir(path), &orbit.request.read)
        .map_err(|e| Failure::dataset(&e, &bytes, Some(path)))?;
    drop(bytes);
    let pictures = prepared
        .orbit_set(&orbit.request, &orbit.set)
        .map_err(|e| Failure::message(e.to_string(), Some(path)))?;
    let transforms = &pictures.transforms;
    let frames = transforms["frames"].as_array().cloned().unwrap_or_default();
    let count = pictures.views.len();
    // Frames then views: an animation's pictures come frame by frame.
    let mut times: Vec<f64> = Vec::new();
    for frame in &frames {
        let time = frame["time"].as_f64().unwrap_or(0.0);
        if frame["view"].as_u64() == Some(0) || times.is_empty() {
            times.push(time);
        }
    }
    let lead: Vec<usize> = if orbit.set.animate.is_some() {
        vec![times.len(), count / times.len().max(1)]
    } else {
        vec![count]
    };
    let (w, h) = (
        orbit.request.options.width as usize,
        orbit.request.options.height as usize,
    );
    let with = |tail: &[usize]| [lead.as_slice(), tail].concat();
    let mut images = Flat::new(with(&[h, w, 4]));
    let mut depth = Flat::new(with(&[h, w]));
    let mut mask = Flat::new(with(&[h, w]));
    let mut camera_to_world = Flat::new(with(&[4, 4]));
    let mut file_paths = Vec::with_capacity(count);
    for (view, frame) in pictures.views.into_iter().zip(&frames) {
        let name = format!("{}.png", view.name);
        images.values.extend(
            decode(&view.color, Path::new(&name))?
                .into_rgba8()
                .into_raw(),
        );
        let mask_png = view.mask.as_deref().unwrap_or_default();
        mask.values
            .extend(decode(mask_png, Path::new(&name))?.into_luma8().into_raw());
        let values = view
            .depth
            .as_deref()
            .and_then(npy_values)
            .filter(|v| v.len() == w * h)
            .ok_or_else(|| Failure::message("no depth drawn", Some(Path::new(&name))))?;
        depth.values.extend(values);
        for row in frame["transform_matrix"].as_array().into_iter().flatten() {
            for value in row.as_array().into_iter().flatten() {
                camera_to_world
                    .values
                    .push(value.as_f64().unwrap_or(f64::NAN));
            }
        }
        file_paths.push(name);
    }
    let number = |key: &str| transforms[key].as_f64().unwrap_or(f64::NAN);
    let intrinsics = [
        ("fl_x", number("fl_x")),
        ("fl_y", number("fl_y")),
        ("cx", number("cx")),
        ("cy", number("cy")),
        ("w", number("w")),
        ("h", number("h")),
    ];
    let (mut joint_names, mut joint_parents, mut joints) = (Vec::new(), Vec::new(), None);
    if let Some(seen) = pictures.keypoints {
        let n = seen.names.len();
        let mut world = Flat::new(with(&[n, 3]));
        let mut pixel = Flat::new(with(&[n, 2]));
        let mut along = Flat::new(with(&[n]));
        let mut visibility = Flat::new(with(&[n]));
        for view in &seen.views {
            for point in &view.keypoints {
                world.values.extend(point.world);
                pixel.values.extend(point.pixel);
                along.values.push(point.depth);
                visibility
                    .values
                    .push(i8::try_from(point.visibility.coco()).unwrap_or(0));
            }
        }
        joint_names = seen.names;
        joint_parents = seen.parents;
        joints = Some((world, pixel, along, visibility));
    }
    let mut report = prepared.report.clone();
    report.extend(pictures.report);
    Ok(Drawn {
        images,
        depth,
        mask,
        intrinsics,
        camera_to_world,
        file_paths,
        times,
        joint_names,
        joint_parents,
        joints,
        warnings: report
            .notices
            .iter()
            .filter(|n| n.severity == rigport::Severity::Warning)
            .map(|n| n.message.clone())
            .collect(),
    })
}

/// Draws `views` orbit views of the model in `path` as ``rigport render DIR -o OUT --orbit
/// N --keypoints`` does and returns them as numpy arrays (a :class:`Views`) instead of
/// files: `images`, `depth`, `mask`, `intrinsics`, `camera_to_world` and, with
/// `keypoints`, the joints seen from every view.
///
/// Cameras: `views` evenly around the up axis at `elevation` degrees (``--orbit N
/// --elevation``), or with `seed` `views` seeded random ones (``--orbit random:N
/// --seed``). `width` and `height` are each picture's size; `camera_convention`
/// (``"opengl"`` or ``"opencv"``) the axes of `camera_to_world`; `anim` (index or name),
/// `time` (seconds) and `frame` pick the pose. With `frames` (that many frames spread
/// evenly), `fps` (frames per second) or ``animate=True`` (every frame at the
/// animation's rate) the animation is drawn instead (``--animate``), every view at every
/// frame, and the arrays lead with (frames, views); `views_per_frame` draws that many
/// random cameras per frame (from `seed`, default 0) instead.
#[pyfunction]
#[pyo3(
    signature = (path, views = 8, *, width = 512, height = 512, keypoints = true, camera_convention = String::from("opengl"), seed = None, elevation = 20.0, anim = None, time = None, frame = None, frames = None, fps = None, animate = false, views_per_frame = None, background = None, strict = false),
    text_signature = "(path, views=8, *, width=512, height=512, keypoints=True, camera_convention=\"opengl\", seed=None, elevation=20.0, anim=None, time=None, frame=None, frames=None, fps=None, animate=False, views_per_frame=None, background=None, strict=False)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn render_views(
    py: Python<'_>,
    path: PathBuf,
    views: u32,
    width: u32,
    height: u32,
    keypoints: bool,
    camera_convention: String,
    seed: Option<u64>,
    elevation: f32,
    anim: Option<Which>,
    time: Option<f32>,
    frame: Option<f32>,
    frames: Option<u32>,
    fps: Option<f32>,
    animate: bool,
    views_per_frame: Option<u32>,
    background: Option<Colour>,
    strict: bool,
) -> PyResult<PyViews> {
    let animate = animate || frames.is_some() || fps.is_some() || views_per_frame.is_some();
    // The orbit options not named here keep their defaults, as the command's do.
    #[allow(clippy::needless_update)]
    let prepare = || -> Result<OrbitRequest, Failure> {
        check_size(width, height)?;
        if animate && (time.is_some() || frame.is_some()) {
            return Err(Failure::Value(
                "time and frame pick one pose: an animation draws every frame".to_owned(),
            ));
        }
        if frames.is_some() && fps.is_some() {
            return Err(Failure::Value(
                "frames and fps exclude each other".to_owned(),
            ));
        }
        if frames == Some(0) || views_per_frame == Some(0) {
            return Err(Failure::Value(
                "frames and views_per_frame must be at least 1".to_owned(),
            ));
        }
        let read = ReadOptions {
            strict,
            ..ReadOptions::default()
        };
        Ok(OrbitRequest {
            request: PictureRequest {
                read,
                options: RenderOptions {
                    width,
                    height,
                    background: colour_of(background)?,
                    passes: Passes {
                        mask: true,
                        ..Passes::default()
                    },
                    ..RenderOptions::default()
                },
                pose: PoseRequest {
                    time,
                    frame,
                    anim: anim.as_ref().map(Which::as_request),
                },
                sheet: None,
            },
            set: OrbitSet {
                orbits: orbits(views, seed, elevation)?,
                keypoints,
                depth_format: Some(DepthFormat::Npy),
                convention: Some(convention(&camera_convention)?),
                animate: animate.then_some(OrbitAnimation {
                    fps,
                    frames,
                    views_per_frame,
                    seed: seed.unwrap_or(0),
                }),
                ..OrbitSet::default()
            },
        })
    };
    let orbit = prepare().map_err(|f| f.into_pyerr(py))?;
    let convention = orbit.set.convention.unwrap_or_default().key().to_owned();
    let drawn = detached(py, move || draw(&path, &orbit))?;
    let intrinsics = PyDict::new(py);
    for (key, value) in drawn.intrinsics {
        intrinsics.set_item(key, value)?;
    }
    let times = Flat {
        shape: vec![drawn.times.len()],
        values: drawn.times,
    };
    let (joints_world, joints_pixel, joints_depth, joints_visibility) = match drawn.joints {
        Some((world, pixel, depth, visibility)) => (
            Some(world.into_py(py)?),
            Some(pixel.into_py(py)?),
            Some(depth.into_py(py)?),
            Some(visibility.into_py(py)?),
        ),
        None => (None, None, None, None),
    };
    Ok(PyViews {
        images: drawn.images.into_py(py)?,
        depth: drawn.depth.into_py(py)?,
        mask: drawn.mask.into_py(py)?,
        intrinsics: intrinsics.unbind(),
        camera_to_world: drawn.camera_to_world.into_py(py)?,
        camera_convention: convention,
        file_paths: drawn.file_paths,
        times: times.into_py(py)?,
        joint_names: drawn.joint_names,
        joint_parents: drawn.joint_parents,
        joints_world,
        joints_pixel,
        joints_depth,
        joints_visibility,
        warnings: drawn.warnings,
    })
}
