//! `rigport.read`, `rigport.read_bytes` and the classes they give: `Model` with its
//! `Mesh`es (numpy arrays), `Material`s, `Joint`s and `Animation`s, `Model.pose` and
//! `Model.save`.

use crate::convert::ConvertRequest;
use crate::errors::{Failure, detached, read_input};
use crate::values::{matrix, py_option, report_list, vector};
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rigport::batch::input_dir;
use rigport::pipeline::PoseRequest;
use rigport::{Document, Format, ReadOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One mesh of a [`PyModel`]: vertex attributes as numpy arrays (one row per vertex, in the
/// model's vertex order) and triangles as vertex indices.
#[pyclass(frozen, get_all, module = "rigport", name = "Mesh")]
pub(crate) struct PyMesh {
    /// The mesh's name.
    name: String,
    /// Index into `Model.materials`, or None.
    material: Option<usize>,
    /// Positions, float32 (n, 3), in the bind pose.
    positions: Py<PyArray2<f32>>,
    /// Unit normals, float32 (n, 3) (zero where the file has none and none could be made).
    normals: Py<PyArray2<f32>>,
    /// Texture coordinates, float32 (n, 2), origin top-left (zeros when the file has none).
    uvs: Py<PyArray2<f32>>,
    /// Joint indices into `Model.joints`, uint16 (n, 4); a slot of weight 0 holds 0.
    joints: Py<PyArray2<u16>>,
    /// Weights of `joints`, float32 (n, 4): each row of a skinned vertex sums to 1, a vertex
    /// bound to no joint has zeros.
    weights: Py<PyArray2<f32>>,
    /// Triangles as indices into the vertex rows, uint32 (m, 3), counter-clockwise seen from
    /// the front.
    triangles: Py<PyArray2<u32>>,
    /// Morph targets by name: position offsets, float32 (n, 3), one row per vertex (zero
    /// where the target moves nothing). An unnamed target is `target<i>`; a repeated name
    /// gets `.<i>`. Empty for a mesh without targets.
    morph_targets: Py<PyDict>,
    /// The weight of each of `morph_targets`, in its order, float32 (t,): what the mesh
    /// shows when no animation drives it.
    default_weights: Py<PyArray1<f32>>,
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
#[pyclass(frozen, get_all, module = "rigport", name = "Material")]
pub(crate) struct PyMaterial {
    /// The material's name.
    name: String,
    /// The texture reference exactly as the file stores it, or None.
    texture: Option<String>,
    /// The image file that reference names, found beside the model the way rigport finds it
    /// (same name in any case, else the same stem with another image extension), or None
    /// (no reference, a model read from bytes, or no such file).
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
#[pyclass(frozen, get_all, module = "rigport", name = "Joint")]
pub(crate) struct PyJoint {
    /// The joint's name.
    name: String,
    /// Index of the parent joint in `Model.joints`, or None for a root.
    parent: Option<usize>,
    /// Bind translation, float32 (3,).
    translation: Py<PyArray1<f32>>,
    /// Bind rotation as a unit quaternion x, y, z, w, float32 (4,).
    rotation: Py<PyArray1<f32>>,
    /// Bind scale, float32 (3,).
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
#[pyclass(frozen, get_all, module = "rigport", name = "Animation")]
pub(crate) struct PyAnimation {
    /// The animation's name.
    name: String,
    /// Frames per second the file uses.
    fps: f32,
    /// Length in seconds (the later of the declared length and the last key).
    duration: f32,
    /// Frames the animation spans at its frame rate, the first included.
    frames: u64,
    /// Whether the animation repeats.
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
pub(crate) struct PyModel {
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
    /// Morph targets as (key, dense offsets n × 3).
    morph_targets: Vec<(String, Vec<f32>)>,
    default_weights: Vec<f32>,
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
            morph_targets: Vec::with_capacity(mesh.morph_targets.len()),
            default_weights: mesh.default_weights(),
        };
        for (i, target) in mesh.morph_targets.iter().enumerate() {
            let mut key = match target.name.as_str() {
                "" => format!("target{i}"),
                name => name.to_owned(),
            };
            if data.morph_targets.iter().any(|(k, _)| *k == key) {
                key = format!("{key}.{i}");
            }
            let mut offsets = vec![0.0; n * 3];
            for (v, p, _) in target.offsets(n) {
                offsets[v * 3..v * 3 + 3].copy_from_slice(&p.to_array());
            }
            data.morph_targets.push((key, offsets));
        }
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
            morph_targets: {
                let targets = PyDict::new(py);
                for (key, offsets) in self.morph_targets {
                    targets.set_item(key, matrix(py, offsets, 3)?)?;
                }
                targets.unbind()
            },
            default_weights: vector(py, &self.default_weights),
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
    let fail = |e: rigport::Error| Failure::rigport(&e, &bytes, Some(Path::new(&label)));
    let read = match path.as_deref() {
        Some(path) => Document::sniff_and_read_path(&bytes, &options, path),
        None => Document::sniff_and_read(&bytes, &options),
    };
    let (document, mut report) = read.map_err(fail)?;
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
            let dir = input_dir(path.as_deref()?);
            let reference = material.texture.as_deref()?;
            rigport_model_core::texture::find_beside(&dir, reference)
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
pub(crate) enum Which {
    /// By index.
    Index(usize),
    /// By name (a name that is not an animation's is read as an index, as `--anim` does).
    Name(String),
}

impl Which {
    pub(crate) fn as_request(&self) -> String {
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

    /// Vertex positions of every mesh in `animation` (index or name) at `time` seconds
    /// (wrapped if the animation loops), moved by the morph targets' weights at that time and
    /// then skinned, as float32 (n, 3) arrays in the meshes' vertex order: the pose
    /// `rigport convert --anim A --time T` writes to OBJ.
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
pub(crate) fn read(
    py: Python<'_>,
    path: PathBuf,
    strict: bool,
    anims_beside: bool,
) -> PyResult<PyModel> {
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
pub(crate) fn read_bytes(
    py: Python<'_>,
    data: Vec<u8>,
    name: String,
    strict: bool,
) -> PyResult<PyModel> {
    let options = ReadOptions {
        strict,
        ..ReadOptions::default()
    };
    let loaded = detached(py, move || load(data, None, name, options))?;
    PyModel::from_loaded(py, loaded)
}
