//! The native half of the `rigport` Python package (`rigport._rigport`): a thin skin over
//! the `rigport` facade crate. Every format rule lives in the facade and the format crates;
//! this crate only moves values between Rust and Python:
//!
//! * reading (`read`, `read_bytes`) gives a `Model` whose meshes carry numpy arrays;
//! * `convert`, `Model.save`, `info` and `render` build the same
//!   `rigport::pipeline::Settings`, `rigport::info` summary and `rigport::picture` request as
//!   the `rigport` command with the same options, so they write the same bytes;
//! * every failure is a Python exception: `RigportError` (with `.offset`, `.line`,
//!   `.column` and `.path` where known), `FileNotFoundError` and the other `OSError`s,
//!   `FileExistsError` for an output that exists without `force=True`, `ValueError` for
//!   bad arguments. A panic is caught and raised as `RigportError`.
//!
//! The interpreter lock is released while files are read, converted, posed and drawn.
//!
//! Used from Python (the package's tests run this; see `bindings/python/README.md`):
//!
//! ```python
//! import rigport
//! model = rigport.read("fixtures/ms3d/rig_full.ms3d")
//! posed = model.pose(0, time=0.5)          # one float32 (n, 3) array per mesh
//! rigport.convert("fixtures/ms3d/rig_full.ms3d", "/tmp/rig_full.glb", force=True)
//! ```

use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::create_exception;
use pyo3::exceptions::{
    PyException, PyFileExistsError, PyFileNotFoundError, PyIsADirectoryError, PyOSError,
    PyPermissionError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rigport::attach::AnimationSource;
use rigport::pipeline::{self, PoseRequest, Settings};
use rigport::{Document, Format, ReadOptions, Report};
use rigport_model_core::codec::Location;
use std::path::{Path, PathBuf};
use std::sync::Arc;

create_exception!(
    rigport,
    RigportError,
    PyException,
    "A file rigport could not read, convert, pose or draw.\n\n\
     Attributes (None when unknown): ``offset`` (byte offset, binary formats), ``line`` and\n\
     ``column`` (1-based, text formats and glTF JSON), ``path`` (the file the error is about)."
);

/// Why a call failed, before it becomes a Python exception (built without the interpreter
/// lock, raised with it).
#[derive(Debug)]
enum Failure {
    /// `RigportError`.
    Rigport {
        message: String,
        location: Location,
        path: Option<String>,
    },
    /// A file system error about `path` (`FileNotFoundError`, `PermissionError`, …).
    Io {
        error: std::io::Error,
        path: PathBuf,
    },
    /// An output that exists, without `force`.
    Exists(PathBuf),
    /// A bad argument.
    Value(String),
}

impl Failure {
    /// A `RigportError` with no location.
    fn message(message: impl Into<String>, path: Option<&Path>) -> Self {
        Failure::Rigport {
            message: message.into(),
            location: Location::Unknown,
            path: path.map(|p| p.display().to_string()),
        }
    }

    /// A facade error about `input` (the bytes read from `path`).
    fn rigport(error: &rigport::Error, input: &[u8], path: Option<&Path>) -> Self {
        let file = error.file().or(path);
        Failure::Rigport {
            message: error.to_string(),
            location: error.location(input),
            path: file.map(|p| p.display().to_string()),
        }
    }

    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            Failure::Rigport {
                message,
                location,
                path,
            } => {
                let error = RigportError::new_err(message);
                let value = error.value(py);
                let (offset, line, column) = match location {
                    Location::Offset(offset) => (Some(offset), None, None),
                    Location::Text { line, column } => (None, Some(line), Some(column)),
                    _ => (None, None, None),
                };
                // Setting attributes on a fresh exception object cannot fail in practice;
                // if it did, the exception still carries its message.
                let _ = value.setattr("offset", offset);
                let _ = value.setattr("line", line);
                let _ = value.setattr("column", column);
                let _ = value.setattr("path", path);
                error
            }
            Failure::Io { error, path } => {
                let args = (
                    error.raw_os_error().unwrap_or(0),
                    error.to_string(),
                    path.display().to_string(),
                );
                match error.kind() {
                    std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(args),
                    std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(args),
                    std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(args),
                    _ => PyOSError::new_err(args),
                }
            }
            Failure::Exists(path) => PyFileExistsError::new_err((
                17,
                format!(
                    "{} already exists (use force=True to overwrite)",
                    path.display()
                ),
                path.display().to_string(),
            )),
            Failure::Value(message) => PyValueError::new_err(message),
        }
    }
}

/// Runs `work` without the interpreter lock, a panic turned into a `RigportError`, and
/// raises its failure.
fn detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, Failure> + Send,
) -> PyResult<T> {
    let result = py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Failure::message(format!("internal error: {what}"), None))
        })
    });
    result.map_err(|failure| failure.into_pyerr(py))
}

/// The bytes of a file.
fn read_input(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|error| Failure::Io {
        error,
        path: path.to_path_buf(),
    })
}

use rigport::batch::input_dir;
use rigport::output::OutputError;

/// The `rigport` command's output rule ([`rigport::output::check_target`]): never over the
/// input, over an existing file only with `force`.
fn check_target(path: &Path, input: Option<&Path>, force: bool) -> Result<(), Failure> {
    Ok(rigport::output::check_target(
        path,
        input.as_slice(),
        force,
    )?)
}

/// Writes a file as the `rigport` command does ([`rigport::output::write_atomic`]).
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    Ok(rigport::output::write_atomic(path, bytes)?)
}

impl From<OutputError> for Failure {
    fn from(error: OutputError) -> Self {
        match error {
            OutputError::Exists(path) => Failure::Exists(path),
            OutputError::IsInput(ref path) => Failure::message(error.to_string(), Some(path)),
            OutputError::Io { path, source } => Failure::Io {
                error: source,
                path,
            },
        }
    }
}

/// A report as Python sees it: one dict per notice, `code`, `message`, `severity`.
fn report_list<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for notice in &report.notices {
        let entry = PyDict::new(py);
        entry.set_item("code", notice.code)?;
        entry.set_item("message", &notice.message)?;
        entry.set_item("severity", notice.severity.to_string())?;
        list.append(entry)?;
    }
    Ok(list)
}

/// A JSON value as the Python value `json.loads` would give.
fn json_to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// An `(n, width)` float32 array from a flat vector.
fn matrix<T: numpy::Element>(
    py: Python<'_>,
    flat: Vec<T>,
    width: usize,
) -> PyResult<Py<PyArray2<T>>> {
    let rows = flat.len() / width;
    let array = Array2::from_shape_vec((rows, width), flat)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(array.into_pyarray(py).unbind())
}

/// `Some(3)` as Python writes it (`3`), `None` as `None`.
fn py_option<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "None".to_owned(), |v| v.to_string())
}

/// A float32 vector.
fn vector(py: Python<'_>, values: &[f32]) -> Py<PyArray1<f32>> {
    Array1::from_vec(values.to_vec()).into_pyarray(py).unbind()
}

/// One mesh of a [`PyModel`]: vertex attributes as numpy arrays (one row per vertex, in the
/// model's vertex order) and triangles as vertex indices.
#[pyclass(frozen, module = "rigport", name = "Mesh")]
struct PyMesh {
    /// The mesh's name.
    #[pyo3(get)]
    name: String,
    /// Index into `Model.materials`, or None.
    #[pyo3(get)]
    material: Option<usize>,
    /// Positions, float32 (n, 3), in the bind pose.
    #[pyo3(get)]
    positions: Py<PyArray2<f32>>,
    /// Unit normals, float32 (n, 3) (zero where the file has none and none could be made).
    #[pyo3(get)]
    normals: Py<PyArray2<f32>>,
    /// Texture coordinates, float32 (n, 2), origin top-left (zeros when the file has none).
    #[pyo3(get)]
    uvs: Py<PyArray2<f32>>,
    /// Joint indices into `Model.joints`, uint16 (n, 4); a slot of weight 0 holds 0.
    #[pyo3(get)]
    joints: Py<PyArray2<u16>>,
    /// Weights of `joints`, float32 (n, 4): each row of a skinned vertex sums to 1, a vertex
    /// bound to no joint has zeros.
    #[pyo3(get)]
    weights: Py<PyArray2<f32>>,
    /// Triangles as indices into the vertex rows, uint32 (m, 3), counter-clockwise seen from
    /// the front.
    #[pyo3(get)]
    triangles: Py<PyArray2<u32>>,
}

#[pymethods]
impl PyMesh {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Mesh(name={:?}, vertices={}, triangles={})",
            self.name,
            self.positions.bind(py).len().unwrap_or(0),
            self.triangles.bind(py).len().unwrap_or(0)
        )
    }
}

/// One material: its name and the texture it names.
#[pyclass(frozen, module = "rigport", name = "Material")]
struct PyMaterial {
    /// The material's name.
    #[pyo3(get)]
    name: String,
    /// The texture reference exactly as the file stores it, or None.
    #[pyo3(get)]
    texture: Option<String>,
    /// The image file that reference names, found beside the model the way rigport finds it
    /// (same name in any case, else the same stem with another image extension), or None
    /// (no reference, a model read from bytes, or no such file).
    #[pyo3(get)]
    texture_file: Option<String>,
}

#[pymethods]
impl PyMaterial {
    fn __repr__(&self) -> String {
        format!(
            "Material(name={:?}, texture={})",
            self.name,
            py_option(self.texture.as_ref().map(|t| format!("{t:?}")))
        )
    }
}

/// One joint of the skeleton, with its bind transform local to its parent.
#[pyclass(frozen, module = "rigport", name = "Joint")]
struct PyJoint {
    /// The joint's name.
    #[pyo3(get)]
    name: String,
    /// Index of the parent joint in `Model.joints`, or None for a root.
    #[pyo3(get)]
    parent: Option<usize>,
    /// Bind translation, float32 (3,).
    #[pyo3(get)]
    translation: Py<PyArray1<f32>>,
    /// Bind rotation as a unit quaternion x, y, z, w, float32 (4,).
    #[pyo3(get)]
    rotation: Py<PyArray1<f32>>,
    /// Bind scale, float32 (3,).
    #[pyo3(get)]
    scale: Py<PyArray1<f32>>,
}

#[pymethods]
impl PyJoint {
    fn __repr__(&self) -> String {
        format!(
            "Joint(name={:?}, parent={})",
            self.name,
            py_option(self.parent)
        )
    }
}

/// One animation.
#[pyclass(frozen, module = "rigport", name = "Animation")]
struct PyAnimation {
    /// The animation's name.
    #[pyo3(get)]
    name: String,
    /// Frames per second the file uses.
    #[pyo3(get)]
    fps: f32,
    /// Length in seconds (the later of the declared length and the last key).
    #[pyo3(get)]
    duration: f32,
    /// Frames the animation spans at its frame rate, the first included.
    #[pyo3(get)]
    frames: u64,
    /// Whether the animation repeats.
    #[pyo3(get)]
    looping: bool,
}

#[pymethods]
impl PyAnimation {
    fn __repr__(&self) -> String {
        format!(
            "Animation(name={:?}, fps={}, duration={}, frames={})",
            self.name, self.fps, self.duration, self.frames
        )
    }
}

/// Where a model came from: what `save` needs to write what `rigport convert` would.
struct Source {
    /// The bytes read.
    bytes: Vec<u8>,
    /// The file, when read from a path.
    path: Option<PathBuf>,
    /// The name errors use (the path, or the name given to `read_bytes`).
    label: String,
}

/// A model read by `rigport.read` or `rigport.read_bytes`: its meshes, materials, skeleton
/// and animations in the neutral form every format converts through.
#[pyclass(frozen, module = "rigport", name = "Model")]
struct PyModel {
    model: Arc<rigport::Model>,
    source: Arc<Source>,
    /// The format the file was read as (`"ms3d"`, `"ms3d-ascii"`, `"iqe"`, `"iqm"`, `"glb"`,
    /// `"gltf"`).
    #[pyo3(get)]
    format: String,
    /// What the reader warned about (the `warnings` of ``rigport.info``), then the warnings
    /// of the conversion to the neutral model.
    #[pyo3(get)]
    warnings: Vec<String>,
    /// The meshes, in file order.
    #[pyo3(get)]
    meshes: Vec<Py<PyMesh>>,
    /// The materials, in file order.
    #[pyo3(get)]
    materials: Vec<Py<PyMaterial>>,
    /// The joints, in file order (a parent may come after its child).
    #[pyo3(get)]
    joints: Vec<Py<PyJoint>>,
    /// The animations, in file order.
    #[pyo3(get)]
    animations: Vec<Py<PyAnimation>>,
}

/// Flat vertex data of one mesh, made without the interpreter lock.
struct MeshData {
    name: String,
    material: Option<usize>,
    positions: Vec<f32>,
    normals: Vec<f32>,
    uvs: Vec<f32>,
    joints: Vec<u16>,
    weights: Vec<f32>,
    triangles: Vec<u32>,
}

impl MeshData {
    fn of(mesh: &rigport_model_core::Mesh) -> Self {
        let n = mesh.vertices.len();
        let mut data = MeshData {
            name: mesh.name.clone(),
            material: mesh.material.map(|m| m.index()),
            positions: Vec::with_capacity(n * 3),
            normals: Vec::with_capacity(n * 3),
            uvs: Vec::with_capacity(n * 2),
            joints: Vec::with_capacity(n * 4),
            weights: Vec::with_capacity(n * 4),
            triangles: mesh.triangles.iter().flatten().copied().collect(),
        };
        for v in &mesh.vertices {
            data.positions.extend_from_slice(&v.position.to_array());
            data.normals.extend_from_slice(&v.normal.to_array());
            data.uvs.extend_from_slice(&v.uv.to_array());
            for (joint, weight) in v.joints.iter().zip(v.weights) {
                let used = weight > 0.0;
                let index = if used { joint.index() } else { 0 };
                data.joints.push(u16::try_from(index).unwrap_or(u16::MAX));
                data.weights.push(if used { weight } else { 0.0 });
            }
        }
        data
    }

    fn into_py(self, py: Python<'_>) -> PyResult<PyMesh> {
        Ok(PyMesh {
            name: self.name,
            material: self.material,
            positions: matrix(py, self.positions, 3)?,
            normals: matrix(py, self.normals, 3)?,
            uvs: matrix(py, self.uvs, 2)?,
            joints: matrix(py, self.joints, 4)?,
            weights: matrix(py, self.weights, 4)?,
            triangles: matrix(py, self.triangles, 3)?,
        })
    }
}

/// A model read without the interpreter lock, with its flat mesh data.
struct Loaded {
    model: rigport::Model,
    format: Format,
    warnings: Vec<String>,
    meshes: Vec<MeshData>,
    texture_files: Vec<Option<String>>,
    source: Source,
}

/// Reads a model from `bytes`; `dir` is where its companion files are.
fn load(
    bytes: Vec<u8>,
    path: Option<PathBuf>,
    label: String,
    options: ReadOptions,
) -> Result<Loaded, Failure> {
    let dir = path.as_deref().map(input_dir);
    let fail = |e: rigport::Error| Failure::rigport(&e, &bytes, Some(Path::new(&label)));
    let (document, mut report) =
        Document::sniff_and_read_in(&bytes, &options, dir.as_deref()).map_err(fail)?;
    let format = document.format();
    let (model, to_model_report) = document.to_model().map_err(fail)?;
    drop(document);
    // What the conversion to the neutral model leaves out (its losses and notes) is about
    // conversions, not about the file: only its warnings are the model's.
    report.notices.extend(
        to_model_report
            .notices
            .into_iter()
            .filter(|n| n.severity == rigport::Severity::Warning),
    );
    let meshes = model.meshes.iter().map(MeshData::of).collect();
    let texture_files = model
        .materials
        .iter()
        .map(|material| {
            let dir = dir.as_deref()?;
            let reference = material.texture.as_deref()?;
            rigport_model_core::texture::find_beside(dir, reference)
                .map(|p| p.display().to_string())
        })
        .collect();
    Ok(Loaded {
        warnings: report.notices.iter().map(|n| n.message.clone()).collect(),
        model,
        format,
        meshes,
        texture_files,
        source: Source { bytes, path, label },
    })
}

impl PyModel {
    fn from_loaded(py: Python<'_>, loaded: Loaded) -> PyResult<Self> {
        let Loaded {
            model,
            format,
            warnings,
            meshes,
            texture_files,
            source,
        } = loaded;
        let meshes = meshes
            .into_iter()
            .map(|m| Py::new(py, m.into_py(py)?))
            .collect::<PyResult<_>>()?;
        let materials = model
            .materials
            .iter()
            .zip(texture_files)
            .map(|(m, texture_file)| {
                Py::new(
                    py,
                    PyMaterial {
                        name: m.name.clone(),
                        texture: m.texture.clone(),
                        texture_file,
                    },
                )
            })
            .collect::<PyResult<_>>()?;
        let joints = model
            .skeleton
            .joints
            .iter()
            .map(|j| {
                Py::new(
                    py,
                    PyJoint {
                        name: j.name.clone(),
                        parent: j.parent.map(|p| p.index()),
                        translation: vector(py, &j.translation.to_array()),
                        rotation: vector(py, &j.rotation.to_array()),
                        scale: vector(py, &j.scale.to_array()),
                    },
                )
            })
            .collect::<PyResult<_>>()?;
        let animations = model
            .animations
            .iter()
            .map(|a| {
                Py::new(
                    py,
                    PyAnimation {
                        name: a.name.clone(),
                        fps: a.fps,
                        duration: a.end_time(),
                        frames: a.frame_count(),
                        looping: a.looping,
                    },
                )
            })
            .collect::<PyResult<_>>()?;
        Ok(PyModel {
            model: Arc::new(model),
            source: Arc::new(source),
            format: format.key().to_owned(),
            warnings,
            meshes,
            materials,
            joints,
            animations,
        })
    }
}

/// Which animation: an index into `Model.animations` or a name.
#[derive(FromPyObject)]
enum Which {
    /// By index.
    Index(usize),
    /// By name (a name that is not an animation's is read as an index, as `--anim` does).
    Name(String),
}

impl Which {
    fn as_request(&self) -> String {
        match self {
            Which::Index(i) => i.to_string(),
            Which::Name(name) => name.clone(),
        }
    }
}

#[pymethods]
impl PyModel {
    /// The axis the model stands along, as its format has it: ``"y"`` or ``"z"``.
    #[getter]
    fn up_axis(&self) -> &'static str {
        match self.model.up {
            rigport::UpAxis::Z => "z",
            _ => "y",
        }
    }

    /// Skinned vertex positions of every mesh in `animation` (index or name) at `time`
    /// seconds (wrapped if the animation loops), as float32 (n, 3) arrays in the meshes'
    /// vertex order: the pose `rigport convert --anim A --time T` writes to OBJ.
    #[pyo3(signature = (animation = Which::Index(0), time = 0.0), text_signature = "(self, /, animation=0, time=0.0)")]
    fn pose(
        &self,
        py: Python<'_>,
        animation: Which,
        time: f32,
    ) -> PyResult<Vec<Py<PyArray2<f32>>>> {
        if !time.is_finite() {
            return Err(PyValueError::new_err(format!("time {time} is not finite")));
        }
        let model = Arc::clone(&self.model);
        let label = self.source.label.clone();
        let positions = detached(py, move || {
            let fail = |message: String| Failure::message(message, Some(Path::new(&label)));
            let index = match &animation {
                Which::Index(index) => *index,
                Which::Name(_) => {
                    let request = PoseRequest {
                        time: Some(time),
                        frame: None,
                        anim: Some(animation.as_request()),
                    };
                    match rigport::formats::obj::resolve(&model, &request) {
                        Ok(Some((index, _))) => index,
                        Ok(None) => 0,
                        Err(e) => return Err(fail(e.to_string())),
                    }
                }
            };
            let (meshes, _) =
                rigport_anim::posed_meshes(&model, index, time).map_err(|e| fail(e.to_string()))?;
            Ok(meshes
                .iter()
                .map(|mesh| {
                    mesh.vertices
                        .iter()
                        .flat_map(|v| v.position.to_array())
                        .collect::<Vec<f32>>()
                })
                .collect::<Vec<_>>())
        })?;
        positions
            .into_iter()
            .map(|flat| matrix(py, flat, 3))
            .collect()
    }

    /// Writes the model to `path` exactly as ``rigport.convert`` would write the file it was
    /// read from (a same-format save is a byte-identical copy); the format comes from `to`
    /// or the extension. Returns the report (list of dicts: code, message, severity).
    #[pyo3(
        signature = (path, *, force = false, to = None, keep_axes = false, with_anims = Vec::new(), concat_animations = false, embed_textures = true, fps = 30.0),
        text_signature = "(self, /, path, *, force=False, to=None, keep_axes=False, with_anims=(), concat_animations=False, embed_textures=True, fps=30.0)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn save<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf,
        force: bool,
        to: Option<String>,
        keep_axes: bool,
        with_anims: Vec<PathBuf>,
        concat_animations: bool,
        embed_textures: bool,
        fps: f32,
    ) -> PyResult<Bound<'py, PyList>> {
        let request = ConvertRequest {
            to,
            force,
            keep_axes,
            with_anims,
            concat_animations,
            embed_textures,
            fps,
            strict: false,
            anims_beside: false,
        };
        let source = Arc::clone(&self.source);
        let report = detached(py, move || {
            request.run(&source.bytes, source.path.as_deref(), &source.label, &path)
        })?;
        report_list(py, &report)
    }

    fn __repr__(&self) -> String {
        format!(
            "Model(format={:?}, meshes={}, vertices={}, joints={}, animations={})",
            self.format,
            self.model.meshes.len(),
            self.model.vertex_count(),
            self.model.skeleton.len(),
            self.model.animations.len()
        )
    }
}

/// The options of one conversion, as `rigport convert` takes them.
struct ConvertRequest {
    to: Option<String>,
    force: bool,
    keep_axes: bool,
    with_anims: Vec<PathBuf>,
    concat_animations: bool,
    embed_textures: bool,
    fps: f32,
    strict: bool,
    anims_beside: bool,
}

impl ConvertRequest {
    /// Converts `bytes` (read from `input`, when it came from a file) to `output` and writes
    /// the files, as `rigport convert INPUT OUTPUT` does.
    fn run(
        &self,
        bytes: &[u8],
        input: Option<&Path>,
        label: &str,
        output: &Path,
    ) -> Result<Report, Failure> {
        let target = match &self.to {
            Some(key) => Format::from_key(key).ok_or_else(|| {
                let keys: Vec<&str> = Format::ALL.iter().map(|f| f.key()).collect();
                Failure::Value(format!(
                    "unknown format `{key}`: use one of {}",
                    keys.join(", ")
                ))
            })?,
            None => Format::from_extension(output).ok_or_else(|| {
                Failure::Value(format!(
                    "cannot tell the output format from {}; use to=",
                    output.display()
                ))
            })?,
        };
        if !pipeline::is_valid_fps(self.fps) {
            return Err(Failure::Value(format!(
                "fps={} is not a frame rate above 0 and at most {}",
                self.fps,
                pipeline::MAX_FPS
            )));
        }
        let read = ReadOptions {
            strict: self.strict,
            animations_beside: self.anims_beside,
            ..ReadOptions::default()
        };
        let mut animations = Vec::with_capacity(self.with_anims.len());
        for path in &self.with_anims {
            std::fs::metadata(path).map_err(|error| Failure::Io {
                error,
                path: path.clone(),
            })?;
            let source = AnimationSource::read(path, &read)
                .map_err(|message| Failure::message(message, Some(path)))?;
            animations.push(source);
        }
        let settings = Settings {
            read,
            animations,
            pose: PoseRequest::default(),
            keep_texture_uris: !self.embed_textures,
            concat_animations: self.concat_animations,
            keep_axes: self.keep_axes,
            source_dir: input.map(input_dir),
            beside: None,
            fps: self.fps,
        };
        check_target(output, input, self.force)?;
        let converted = pipeline::convert(bytes, output, target, &settings)
            .map_err(|e| Failure::rigport(&e, bytes, Some(Path::new(label))))?;
        for (path, _) in &converted.files {
            check_target(path, input, self.force)?;
        }
        for (path, content) in &converted.files {
            write_atomic(path, content)?;
        }
        Ok(converted.report)
    }
}

/// Reads a model file (any format rigport reads, detected from the content). Companion
/// files (a `.gltf`'s buffers, textures) are found beside it as the `rigport` command finds
/// them. With ``strict=True`` every warning is an error. With ``anims_beside=True`` the
/// animation files beside it that fit its skeleton are attached too (MD5: every
/// ``.md5anim`` of the folder whose joints are the mesh's), as ``rigport convert
/// --anims-beside`` does.
///
/// Raises ``FileNotFoundError`` (or another ``OSError``) when the file cannot be read and
/// ``RigportError`` when it does not read as a model.
#[pyfunction]
#[pyo3(signature = (path, *, strict = false, anims_beside = false))]
fn read(py: Python<'_>, path: PathBuf, strict: bool, anims_beside: bool) -> PyResult<PyModel> {
    let options = ReadOptions {
        strict,
        animations_beside: anims_beside,
        ..ReadOptions::default()
    };
    let loaded = detached(py, move || {
        let bytes = read_input(&path)?;
        let label = path.display().to_string();
        load(bytes, Some(path), label, options)
    })?;
    PyModel::from_loaded(py, loaded)
}

/// Reads a model from bytes (a ``bytes`` or ``bytearray``); `name` names it in errors.
/// Nothing is looked for beside it: a ``.gltf`` naming external files does not read this
/// way, and saved models do not embed textures.
#[pyfunction]
#[pyo3(
    signature = (data, name = String::from("<bytes>"), *, strict = false),
    text_signature = "(data, name=\"<bytes>\", *, strict=False)"
)]
fn read_bytes(py: Python<'_>, data: Vec<u8>, name: String, strict: bool) -> PyResult<PyModel> {
    let options = ReadOptions {
        strict,
        ..ReadOptions::default()
    };
    let loaded = detached(py, move || load(data, None, name, options))?;
    PyModel::from_loaded(py, loaded)
}

/// Converts the file `src` into `dst`, writing what ``rigport convert SRC DST`` writes with
/// the same options (byte for byte): the format comes from `to` (a key: ``"glb"``,
/// ``"gltf"``, ``"iqm"``, ``"iqe"``, ``"ms3d"``, ``"ms3d-ascii"``, ``"obj"``) or from `dst`'s
/// extension; companions (``.bin``, textures, ``.mtl``) are written beside `dst`.
///
/// Options: `force` overwrites existing outputs, `keep_axes` keeps the source's up axis,
/// `with_anims` attaches the animations of other files, `concat_animations` lays every
/// animation on one timeline (MilkShape), `embed_textures` embeds images in glTF output,
/// `fps` is the resampling rate of cubic-spline animations, `strict` turns warnings into
/// errors, `anims_beside` attaches the animation files beside `src` that fit its skeleton
/// (``rigport convert --anims-beside``). Returns the report: a list of dicts with ``code``, ``message``, ``severity``
/// (``"info"``, ``"warning"`` or ``"loss"``).
#[pyfunction]
#[pyo3(
    signature = (src, dst, *, to = None, force = false, keep_axes = false, with_anims = Vec::new(), concat_animations = false, embed_textures = true, fps = 30.0, strict = false, anims_beside = false),
    text_signature = "(src, dst, *, to=None, force=False, keep_axes=False, with_anims=(), concat_animations=False, embed_textures=True, fps=30.0, strict=False, anims_beside=False)"
)]
#[allow(clippy::too_many_arguments)]
fn convert<'py>(
    py: Python<'py>,
    src: PathBuf,
    dst: PathBuf,
    to: Option<String>,
    force: bool,
    keep_axes: bool,
    with_anims: Vec<PathBuf>,
    concat_animations: bool,
    embed_textures: bool,
    fps: f32,
    strict: bool,
    anims_beside: bool,
) -> PyResult<Bound<'py, PyList>> {
    let request = ConvertRequest {
        to,
        force,
        keep_axes,
        with_anims,
        concat_animations,
        embed_textures,
        fps,
        strict,
        anims_beside,
    };
    let report = detached(py, move || {
        let bytes = read_input(&src)?;
        request.run(&bytes, Some(&src), &src.display().to_string(), &dst)
    })?;
    report_list(py, &report)
}

/// What a file holds: the dict ``rigport info --json FILE`` prints (file, format, counts,
/// warnings).
#[pyfunction]
#[pyo3(signature = (path, *, strict = false))]
fn info<'py>(py: Python<'py>, path: PathBuf, strict: bool) -> PyResult<Bound<'py, PyAny>> {
    let json = detached(py, move || {
        let bytes = read_input(&path)?;
        let options = ReadOptions {
            strict,
            ..ReadOptions::default()
        };
        // What `rigport info --json` prints: the summary and the textures found beside it.
        let dir = rigport::batch::input_dir(&path);
        let info = rigport::info::inspect(&bytes, Some(&dir), None, &options)
            .map_err(|e| Failure::rigport(&e, &bytes, Some(&path)))?;
        Ok(rigport::info::info_json(&path.display().to_string(), &info))
    })?;
    json_to_py(py, &json)
}

/// A picture size: one side for a square, or (width, height).
#[derive(FromPyObject)]
enum Size {
    Square(u32),
    Sides(u32, u32),
}

/// A background colour: ``"RRGGBB"`` (``#`` allowed) or (r, g, b) bytes.
#[derive(FromPyObject)]
enum Colour {
    Hex(String),
    Rgb(u8, u8, u8),
}

/// Draws the model in `src` posed, as ``rigport render SRC PNG`` does, and writes the PNG.
///
/// `size` is one side or (width, height) (of each cell of a sheet); `view` is ``"front"``,
/// ``"back"``, ``"left"``, ``"right"``, ``"top"`` or ``"iso"``; `animation` (index or name)
/// and `time` (seconds) pick the pose; ``sheet=N`` draws N frames of the animation in a
/// grid; `background` is ``"RRGGBB"`` or (r, g, b); `wire` overlays the edges. Textures are
/// looked up beside `src`. Returns the report (list of dicts, as ``convert``).
#[pyfunction]
#[pyo3(
    signature = (src, png, *, size = Size::Square(512), view = String::from("iso"), animation = None, time = None, sheet = None, background = None, wire = false, force = false, strict = false),
    text_signature = "(src, png, *, size=512, view=\"iso\", animation=None, time=None, sheet=None, background=None, wire=False, force=False, strict=False)"
)]
#[allow(clippy::too_many_arguments)]
fn render<'py>(
    py: Python<'py>,
    src: PathBuf,
    png: PathBuf,
    size: Size,
    view: String,
    animation: Option<Which>,
    time: Option<f32>,
    sheet: Option<u32>,
    background: Option<Colour>,
    wire: bool,
    force: bool,
    strict: bool,
) -> PyResult<Bound<'py, PyList>> {
    use rigport::picture::{PictureRequest, RenderOptions, Rgb, View, render_png};
    let (width, height) = match size {
        Size::Square(side) => (side, side),
        Size::Sides(w, h) => (w, h),
    };
    let view: View = view
        .parse()
        .map_err(|e: rigport::picture::RenderError| PyValueError::new_err(e.to_string()))?;
    let defaults = RenderOptions::default();
    let background = match background {
        None => defaults.background,
        Some(Colour::Rgb(r, g, b)) => Rgb([r, g, b]),
        Some(Colour::Hex(hex)) => hex
            .parse()
            .map_err(|e: rigport::picture::RenderError| PyValueError::new_err(e.to_string()))?,
    };
    if time.is_some() && sheet.is_some() {
        return Err(PyValueError::new_err(
            "time and sheet exclude each other: a sheet spans the whole animation",
        ));
    }
    if sheet.is_some_and(|n| !(1..=4096).contains(&n)) {
        return Err(PyValueError::new_err("sheet must be between 1 and 4096"));
    }
    let request = PictureRequest {
        read: ReadOptions {
            strict,
            ..ReadOptions::default()
        },
        options: RenderOptions {
            width,
            height,
            view,
            background,
            wire,
            ..defaults
        },
        pose: PoseRequest {
            time,
            frame: None,
            anim: animation.map(|a| a.as_request()),
        },
        sheet,
    };
    let report = detached(py, move || {
        check_target(&png, Some(&src), force)?;
        let bytes = read_input(&src)?;
        let (picture, report) = render_png(&bytes, &input_dir(&src), &request)
            .map_err(|e| Failure::rigport(&e, &bytes, Some(&src)))?;
        write_atomic(&png, &picture)?;
        Ok(report)
    })?;
    report_list(py, &report)
}

/// One input of a batch plan: input, output or None, clash message or None.
type PlannedRow = (String, Option<String>, Option<String>);

/// Plans a batch run as ``rigport convert|render INPUTS... -o DIR`` does: the readable
/// files below `paths` (folders recursed, sorted), each with its output
/// ``out_dir/<stem>.<extension>`` or, when an earlier input already writes that output, the
/// error saying so. Returns ``(input, output, error)`` tuples (one of the last two None).
/// Raises ``FileNotFoundError`` for a path that does not exist.
#[pyfunction]
#[pyo3(
    signature = (paths, out_dir, extension, verb = String::from("convert")),
    text_signature = "(paths, out_dir, extension, verb=\"convert\")"
)]
fn plan_batch(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    out_dir: PathBuf,
    extension: String,
    verb: String,
) -> PyResult<Vec<PlannedRow>> {
    detached(py, move || {
        if let Some(missing) = paths.iter().find(|p| !p.exists()) {
            return Err(Failure::Io {
                error: std::io::Error::from(std::io::ErrorKind::NotFound),
                path: missing.clone(),
            });
        }
        let inputs = rigport::batch::collect_inputs(&paths).map_err(Failure::Value)?;
        let planned = rigport::batch::plan(&inputs, &out_dir, &extension, &verb);
        Ok(planned
            .into_iter()
            .map(|p| {
                let input = p.input.display().to_string();
                match p.output {
                    Ok(output) => (input, Some(output.display().to_string()), None),
                    Err(clash) => (input, None, Some(clash)),
                }
            })
            .collect())
    })
}

/// The formats this build knows, in the registry's order: key → (family, description, usual
/// extension, every extension, reads, writes, animation only).
#[pyfunction]
fn formats<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for format in Format::ALL {
        let entry = PyDict::new(py);
        entry.set_item("family", format.family())?;
        entry.set_item("description", format.description())?;
        entry.set_item("extension", format.extension())?;
        entry.set_item(
            "extensions",
            format.info().map_or(&[][..], |info| info.extensions),
        )?;
        entry.set_item("animation_only", format.is_animation_only())?;
        entry.set_item("reads", format.can_read())?;
        entry.set_item("writes", format.can_write())?;
        dict.set_item(format.key(), entry)?;
    }
    Ok(dict)
}

/// rigport's native module: read, pose, convert and draw skeletal models in every format
/// ``formats()`` lists. Import ``rigport``, not this module.
#[pymodule]
fn _rigport(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let error = py.get_type::<RigportError>();
    for attribute in ["offset", "line", "column", "path"] {
        error.setattr(attribute, py.None())?;
    }
    m.add("RigportError", error)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyModel>()?;
    m.add_class::<PyMesh>()?;
    m.add_class::<PyMaterial>()?;
    m.add_class::<PyJoint>()?;
    m.add_class::<PyAnimation>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(read_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(info, m)?)?;
    m.add_function(wrap_pyfunction!(render, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(plan_batch, m)?)?;
    Ok(())
}
