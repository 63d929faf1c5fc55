//! glTF 2.0 import: `.glb` and `.gltf` (with `data:` URIs or files beside it) into the
//! neutral model.
//!
//! Two layers, as in every rigport format crate:
//!
//! 1. [`GltfFile`], the faithful layer: the bytes read, the parsed JSON, every buffer and
//!    image resolved. Container and JSON errors are typed ([`ImportError`]) with the byte
//!    offset (`.glb`) or `line:column` (JSON, [`ImportError::render`]).
//! 2. [`to_model`]: the default scene (else scene 0, else every root node) baked into a
//!    [`Model`]: unskinned mesh instances in world space (or, under a joint, rigidly bound
//!    to it), skinned ones bound to one skeleton merged from every skin, whose bind pose
//!    comes from the inverse bind matrices; every animation's TRS channels; base-colour
//!    materials with their images re-encoded as PNG ([`ImportedImage`]). What the model
//!    cannot carry is a loss in the [`Report`].
//!
//! ```
//! use rigport_gltf::export::{ExportOptions, to_glb};
//! use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
//! use rigport_model_core::{Mesh, Model, ReadOptions, Vertex, glam::Vec3};
//!
//! // A one-triangle model written as .glb by this crate, then read back.
//! let mut mesh = Mesh::new("tri");
//! for position in [Vec3::ZERO, Vec3::X, Vec3::Y] {
//!     mesh.vertices.push(Vertex { position, normal: Vec3::Z, ..Vertex::default() });
//! }
//! mesh.triangles.push([0, 1, 2]);
//! let mut model = Model::default();
//! model.meshes.push(mesh);
//! let (glb, _) = to_glb(&model, &ExportOptions::default()).unwrap();
//!
//! let (file, _warnings) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None).unwrap();
//! assert!(file.is_binary());
//! assert_eq!(file.to_vec(), glb);
//! let (imported, report) = to_model(&file, &ImportOptions::default()).unwrap();
//! assert_eq!(imported.model.triangle_count(), 1);
//! assert_eq!(imported.model.meshes[0].vertices[1].position, Vec3::X);
//! assert!(imported.images.is_empty());
//! # let _ = report;
//! ```

mod accessor;
mod animation;
mod error;
mod file;
mod glb;
mod image;
mod mesh;
mod morph;
pub(crate) mod opened;
mod scene;
mod sides;
mod skin;
mod tangents;
mod uri;

pub use error::ImportError;
pub use file::GltfFile;

use rigport_model_core::{Limits, Model, Report};

/// How [`to_model`] converts.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ImportOptions {
    /// Frame rate given to an animation whose key times suggest none (fewer than two
    /// distinct times, or no whole rate up to 240 fps puts every key on a frame). Default 30. The facade also passes
    /// it to [`rigport_anim::resample::bake`] for targets that cannot hold cubic splines.
    pub fps: f32,
    /// Memory limits for the decoded model.
    pub limits: Limits,
    /// Turn warnings into errors.
    pub strict: bool,
}

impl Default for ImportOptions {
    fn default() -> Self {
        Self {
            fps: 30.0,
            limits: Limits::default(),
            strict: false,
        }
    }
}

impl ImportOptions {
    /// These options with another fallback frame rate.
    pub fn with_fps(mut self, fps: f32) -> Self {
        self.fps = fps;
        self
    }

    /// These options with other memory limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// These options, strict (warnings become errors) or lenient.
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }
}

/// A model read from glTF and the images its materials use.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The model; `Material::texture` names an entry of [`Imported::images`], or, for an
    /// external image that could not be read (a warning when the file was read), the
    /// relative path the file gave.
    pub model: Model,
    /// The images, to be written beside the output.
    pub images: Vec<ImportedImage>,
}

/// An image the model's materials reference (`Material::texture == Some(file_name)`),
/// re-encoded as PNG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedImage {
    /// A unique, filesystem-safe file name ending in `.png`.
    pub file_name: String,
    /// The PNG bytes.
    pub png: Vec<u8>,
}

/// Converts the default scene of a glTF file into a model (see the [module docs](self)).
pub fn to_model(
    file: &GltfFile,
    options: &ImportOptions,
) -> Result<(Imported, Report), ImportError> {
    let mut report = Report::default();
    let mut budget = options.limits.budget();
    let root = file.root();
    let hierarchy = scene::Hierarchy::new(root)?;
    let rig = skin::Rig::new(file, &hierarchy, &mut budget, &mut report)?;
    let mut model = Model {
        skeleton: rig.skeleton.clone(),
        ..Model::default()
    };
    let (materials, images) = image::materials(file, options, &mut report)?;
    model.materials = materials;
    let morph_nodes = mesh::meshes(file, &hierarchy, &rig, &mut budget, &mut model, &mut report)?;
    sides::merge_copies(file, &mut model, &mut report);
    model.comment = comment(root);
    model.animations =
        animation::animations(file, &rig, &morph_nodes, options, &mut budget, &mut report)?;
    if !root.cameras.is_empty() {
        report.loss(
            rigport_model_core::codes::CAMERAS,
            format!("{} cameras are not carried", root.cameras.len()),
        );
    }
    if options.strict {
        if let Some(notice) = report
            .notices
            .iter()
            .find(|n| n.severity == rigport_model_core::Severity::Warning)
        {
            return Err(ImportError::Strict(notice.message.clone()));
        }
    }
    Ok((Imported { model, images }, report))
}

/// The model comment the writer keeps in `asset.extras` ([`crate::COMMENT_EXTRA`]).
fn comment(root: &gltf_json::Root) -> Option<String> {
    let raw = root.asset.extras.as_ref()?;
    let serde_json::Value::Object(extras) = serde_json::from_str(raw.get()).ok()? else {
        return None;
    };
    let comment = extras.get(crate::COMMENT_EXTRA)?.as_str()?;
    Some(comment.to_owned()).filter(|c| !c.trim().is_empty())
}
