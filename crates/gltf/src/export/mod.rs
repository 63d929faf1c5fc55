//! glTF 2.0 export: a [`Model`] as a `.glb` file ([`to_glb`]), or as `.gltf` JSON plus a
//! `.bin` buffer ([`to_gltf`]).
//!
//! Built on the `gltf-json` crate; the output passes the Khronos glTF validator.
//!
//! * Meshes: one glTF mesh (one triangle primitive) and one node per model mesh, with
//!   `POSITION` (with bounds), `NORMAL`, `TEXCOORD_0` and `COLOR_0` when the source had them,
//!   `JOINTS_0` (`u8` when the skin has at most 256 joints, else `u16`) and `WEIGHTS_0`
//!   (summing to 1) for skinned meshes, and `u16` or `u32` indices. Triangles are written with
//!   the winding they have; triangles facing away from their vertex normals are counted in
//!   the report.
//! * Materials: base colour from the diffuse colour, its alpha times the opacity (`BLEND`
//!   below 1), emissive colour, metallic 0, roughness 1. A mesh whose triangles disagree
//!   with its stored normals in more than 5 % of cases gets a double-sided material (a
//!   double-sided copy when the material is shared with consistent meshes) and a warning.
//! * Textures: with [`ExportOptions::source_dir`] set (or an [`ImageSource`] given, such as
//!   [`BesideImages`] over files in memory), each material's image is found beside the
//!   source model by [`rigport_model_core::texture::find`] (base name, any case, then the
//!   same stem as PNG, JPEG, TGA or BMP); PNG and JPEG pass through, BMP and TGA
//!   become PNG, and the image is embedded in the `.glb` (a buffer view with its MIME type)
//!   or returned as a companion file for the `.gltf` ([`SeparateFiles::images`]). An image
//!   not found, or [`ExportOptions::embed_textures`] off, leaves the reference as a
//!   relative, percent-encoded URI (an absolute path keeps only its file name, with a
//!   warning); a texture not found is a `texture-missing` warning naming it.
//! * Skeleton: joint `i` is node `i` with the bind transform as TRS; one skin whose inverse
//!   bind matrices come from [`rigport_anim::skeleton::inverse_bind_matrices`] (last row
//!   exactly `0 0 0 1`). Several roots get a common untransformed parent node.
//! * Animations: one per model animation with translation/rotation/scale channels per joint,
//!   times in seconds; `LINEAR`, `STEP`, or `CUBICSPLINE` with Catmull-Rom tangents.
//!
//!   Frame rates and loop flags go in each animation's `extras` (`fps`, `looping`).
//! * The model comment goes in `asset.extras.comment`.
//!
//! Whatever glTF cannot hold (ambient/specular/shininess, alpha maps) and every repair is
//! listed in the returned [`Report`].

use std::borrow::Cow;

mod animation;
mod buffer;
mod glb;
mod images;
mod material;
mod mesh;
pub mod sides;
mod skeleton;
mod textures;
pub mod uri;
mod weights;
pub(crate) mod written;

#[cfg(test)]
mod tests;

use crate::Error;
use buffer::{Buffer, Builder};
use gltf_json as json;
use rigport_model_core::{Mesh, Model, Report, Severity, Winding};
use std::path::PathBuf;
use textures::{Placement, Textures};
use weights::{LastSkin, WeightStats};

pub use images::{BesideImages, FolderImages, ImageError, ImageSource, SourceImage};
pub use textures::CompanionImage;

/// Options of [`to_glb`] and [`to_gltf`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExportOptions {
    /// Indent the JSON (useful for `.gltf`, which people read).
    pub pretty: bool,
    /// The folder of the source model, where texture images are looked for. `None` (the
    /// default): no image is read and every texture is written as a URI, as stored.
    pub source_dir: Option<PathBuf>,
    /// Embed the images found (in the `.glb`, or as companion files of a `.gltf`); `false`
    /// writes every texture as a URI, as stored. Default `true`.
    pub embed_textures: bool,
}

impl Default for ExportOptions {
    fn default() -> Self {
        Self {
            pretty: false,
            source_dir: None,
            embed_textures: true,
        }
    }
}

impl ExportOptions {
    /// These options with the JSON indented (`true`) or compact (`false`).
    pub fn with_pretty(mut self, pretty: bool) -> Self {
        self.pretty = pretty;
        self
    }

    /// These options with texture images looked for in `dir`, the source model's folder.
    pub fn with_source_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.source_dir = Some(dir.into());
        self
    }

    /// These options embedding the images found (`true`) or keeping URIs (`false`).
    pub fn with_embed_textures(mut self, embed: bool) -> Self {
        self.embed_textures = embed;
        self
    }

    /// The image source these options ask for: the source folder when embedding.
    fn folder_images(&self) -> Option<FolderImages> {
        self.source_dir
            .as_ref()
            .filter(|_| self.embed_textures)
            .map(FolderImages::new)
    }
}

/// A `.gltf` file and the buffer file it names, as returned by [`to_gltf`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeparateFiles {
    /// JSON text of the `.gltf` file.
    pub json: String,
    /// Contents of the buffer file. Empty exactly when the model has no data at all; then
    /// the JSON names no buffer and no file must be written.
    pub bin: Vec<u8>,
    /// Texture images to write beside the `.gltf` (PNG or JPEG), named
    /// `{buffer stem}-{image stem}.png|jpg` so they never replace the source's own images.
    pub images: Vec<CompanionImage>,
}

/// The buffer file name for a `.gltf` path: its file stem plus `.bin`.
pub fn bin_file_name_for(gltf_path: &std::path::Path) -> String {
    let stem = gltf_path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".to_owned());
    format!("{stem}.bin")
}

/// Converts a model to one binary `.glb` file. The [`Report`] lists what glTF could not
/// hold and every value that was repaired to pass the glTF validator.
///
/// Texture images are read from [`ExportOptions::source_dir`] (see [`to_glb_with_images`]).
pub fn to_glb(model: &Model, options: &ExportOptions) -> Result<(Vec<u8>, Report), Error> {
    to_glb_from(Cow::Borrowed(model), options, None)
}

/// [`to_glb`] with the texture images read from `images` (unless
/// [`ExportOptions::embed_textures`] is off) and embedded in the file.
pub fn to_glb_with_images(
    model: &Model,
    options: &ExportOptions,
    images: &dyn ImageSource,
) -> Result<(Vec<u8>, Report), Error> {
    to_glb_from(Cow::Borrowed(model), options, Some(images))
}

/// [`to_glb_with_images`] (`images`: `None` reads them from
/// [`ExportOptions::source_dir`], as [`to_glb`] does) for a borrowed or an owned model. An
/// owned one has each mesh's vertices and triangles freed once they are written, so a large
/// model and its file are not held whole at once (a 118 MB animated IQE → glb: BENCHMARKS.md).
pub(crate) fn to_glb_from(
    model: Cow<'_, Model>,
    options: &ExportOptions,
    images: Option<&dyn ImageSource>,
) -> Result<(Vec<u8>, Report), Error> {
    let folder = options.folder_images();
    let images = images.or(folder.as_ref().map(|f| f as &dyn ImageSource));
    let placement = match (images, options.embed_textures) {
        (Some(images), true) => Placement::Embed(images),
        _ => Placement::Reference,
    };
    let (json, buffer, report, _) = build(model, None, placement, options)?;
    Ok((glb::assemble(&json, buffer)?, report))
}

/// Converts a model to `.gltf` JSON plus its buffer file, which will sit beside the `.gltf`
/// as `bin_file_name` (see [`bin_file_name_for`]; the JSON gets it percent-encoded).
///
/// Texture images are read from [`ExportOptions::source_dir`] (see [`to_gltf_with_images`]).
pub fn to_gltf(
    model: &Model,
    bin_file_name: &str,
    options: &ExportOptions,
) -> Result<(SeparateFiles, Report), Error> {
    match options.folder_images() {
        Some(folder) => to_gltf_with_images(model, bin_file_name, options, &folder),
        None => separate(model, bin_file_name, Placement::Reference, options),
    }
}

/// [`to_gltf`] with the texture images read from `images` (unless
/// [`ExportOptions::embed_textures`] is off) and returned in [`SeparateFiles::images`].
pub fn to_gltf_with_images(
    model: &Model,
    bin_file_name: &str,
    options: &ExportOptions,
    images: &dyn ImageSource,
) -> Result<(SeparateFiles, Report), Error> {
    let placement = match options.embed_textures {
        true => Placement::Companion {
            source: images,
            stem: std::path::Path::new(bin_file_name)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "model".to_owned()),
            taken: vec![bin_file_name.to_owned()],
        },
        false => Placement::Reference,
    };
    separate(model, bin_file_name, placement, options)
}

/// `.gltf` JSON, buffer and companion images.
fn separate(
    model: &Model,
    bin_file_name: &str,
    placement: Placement,
    options: &ExportOptions,
) -> Result<(SeparateFiles, Report), Error> {
    let bin_uri = uri::percent_encode(bin_file_name);
    let (json, buffer, report, images) =
        build(Cow::Borrowed(model), Some(bin_uri), placement, options)?;
    let bin = buffer.joined();
    Ok((SeparateFiles { json, bin, images }, report))
}

/// Converts a model to the glTF JSON text, the bytes of its one buffer and the companion
/// images; `bin_uri` is the buffer's URI for a separate `.bin`, `None` for the GLB's own
/// binary chunk.
fn build(
    model: Cow<'_, Model>,
    bin_uri: Option<String>,
    placement: Placement,
    options: &ExportOptions,
) -> Result<(String, Buffer, Report, Vec<CompanionImage>), Error> {
    let apart = animation::writes_apart(&model);
    build_apart(model, bin_uri, placement, options, apart)
}

/// [`build`], writing the animations apart or in turn (the same output either way).
fn build_apart(
    mut model: Cow<'_, Model>,
    bin_uri: Option<String>,
    placement: Placement,
    options: &ExportOptions,
    apart: bool,
) -> Result<(String, Buffer, Report, Vec<CompanionImage>), Error> {
    // Animations written apart (on another thread, with the `parallel` feature) follow the
    // rest as if written last; they read the meshes' morph targets, so then no mesh is
    // freed as it is written.
    let (animations, front) = match apart {
        true => {
            let shared: &Model = &model;
            animation::alongside(true, shared, || {
                front(&mut Cow::Borrowed(shared), placement, true)
            })
        }
        false => (None, front(&mut model, placement, false)),
    };
    let model: &Model = &model;
    let Front {
        mut builder,
        mut report,
        scene_nodes,
        mesh_nodes,
        companions,
    } = front?;
    match animations {
        Some((animations, animation_report)) => {
            builder.follow_with(animations);
            report.extend(animation_report);
        }
        None => animation::write_animations(model, &mut builder, &mut report),
    }
    animation::aim_weight_channels(&mut builder.root, &mesh_nodes);
    if let Some(comment) = model.comment.as_deref().filter(|c| !c.trim().is_empty()) {
        let extras = serde_json::json!({ crate::COMMENT_EXTRA: comment }).to_string();
        builder.root.asset.extras = json::extras::RawValue::from_string(extras).ok();
        report.info(
            rigport_model_core::codes::GLTF_COMMENT,
            "the model comment is kept in `asset.extras.comment`, which rigport reads back and other glTF readers pass over",
        );
    }

    // An empty scene would be written without `nodes`, which gltf-json cannot read back:
    // a model with nothing to show gets no scene at all.
    if !scene_nodes.is_empty() {
        let scene = builder.root.push(json::Scene {
            extensions: None,
            extras: Default::default(),
            name: None,
            nodes: scene_nodes,
        });
        builder.root.scene = Some(scene);
    }
    builder.root.asset.generator = Some(format!("rigport {}", env!("CARGO_PKG_VERSION")));
    builder.finish_buffer(bin_uri);
    let text = if options.pretty {
        builder.root.to_string_pretty()?
    } else {
        builder.root.to_string()?
    };
    Ok((text, builder.into_buffer(), report, companions))
}

/// What [`front`] wrote: everything but the animations.
struct Front {
    builder: Builder,
    report: Report,
    scene_nodes: Vec<json::Index<json::Node>>,
    /// The node of each model mesh (`None`: not written).
    mesh_nodes: Vec<Option<json::Index<json::Node>>>,
    companions: Vec<CompanionImage>,
}

/// Writes everything but the animations (`apart`: they are written on their own, so the
/// buffer needs no room for them). An owned `model` has each mesh's vertices and triangles
/// freed once the mesh is written: nothing after the meshes reads them.
fn front(model: &mut Cow<'_, Model>, placement: Placement, apart: bool) -> Result<Front, Error> {
    let mut report = Report::default();
    // The one place the exporter judges winding: the material plan and the report use it.
    let windings: Vec<Winding> = model.meshes.iter().map(Mesh::winding).collect();
    let written: Vec<bool> = model
        .meshes
        .iter()
        .map(|mesh| {
            let count = mesh.vertices.len();
            let in_range = |t: &[u32; 3]| t.iter().all(|&i| (i as usize) < count);
            mesh.triangles.iter().any(in_range)
        })
        .collect();
    let plan = sides::plan(model, &windings, &written, &mut report);
    let mut textures = Textures::load(model, placement, &mut report);
    let capacity = buffer::size_bound(model) + textures.embedded_bytes();
    let mut builder = Builder::with_capacity(match apart {
        true => capacity - buffer::animation_bound(model),
        false => capacity,
    });

    let skeleton = skeleton::sanitized(&model.skeleton, &mut report)?;
    let joint_count = skeleton.joints.len();
    // Influences come first: an unbound vertex in a skinned mesh needs an extra joint. Only
    // what each mesh needs is kept here; its influences are worked out again, one mesh at a
    // time, as it is written (holding them for every vertex of a large model costs more).
    let mut weight_stats = WeightStats::default();
    let skinning: Vec<Skinning> = model
        .meshes
        .iter()
        .map(|mesh| {
            let mut skinning = Skinning::default();
            let mut last = LastSkin::bound();
            for vertex in &mesh.vertices {
                match last.of(vertex, joint_count, &mut weight_stats) {
                    true => skinning.bound = true,
                    false => skinning.unbound = true,
                }
            }
            skinning
        })
        .collect();
    let need_unbound_joint = skinning.iter().any(|s| s.bound && s.unbound);
    let skin_joints = joint_count + usize::from(need_unbound_joint);
    if skin_joints > 1 << 16 {
        return Err(Error::TooManyJoints { count: skin_joints });
    }

    let nodes = skeleton::write_skeleton(&skeleton, need_unbound_joint, &mut builder, &mut report)?;
    material::write_materials(model, &plan, &mut textures, &mut builder, &mut report);
    let context = mesh::MeshContext {
        skin: nodes.skin,
        unbound_joint: joint_count as u32,
        joints_u8: nodes.skin_joints <= 256,
    };
    let mut scene_nodes = nodes.scene_roots;
    let mut mesh_stats = mesh::MeshStats {
        bad_material: plan.bad_material,
        ..Default::default()
    };
    let per_mesh = skinning.iter().zip(&windings).zip(&plan.mesh_material);
    let mut mesh_nodes = Vec::with_capacity(model.meshes.len());
    for (index, ((skinning, &winding), &material)) in per_mesh.enumerate() {
        let Some(mesh) = model.meshes.get(index) else {
            break;
        };
        let influences: Option<Vec<_>> = skinning.bound.then(|| {
            // Counted in the first pass already.
            let mut counted = WeightStats::default();
            let mut last = LastSkin::influences();
            let per_vertex = mesh.vertices.iter();
            per_vertex
                .map(|v| last.of(v, joint_count, &mut counted))
                .collect()
        });
        let node = mesh::write_mesh(
            mesh,
            material,
            winding,
            influences.as_deref(),
            &context,
            &mut builder,
            &mut mesh_stats,
        );
        scene_nodes.extend(node);
        mesh_nodes.push(node);
        if let Cow::Owned(model) = model
            && let Some(mesh) = model.meshes.get_mut(index)
        {
            mesh.vertices = Vec::new();
            mesh.triangles = Vec::new();
        }
    }
    mesh::report_stats(&mesh_stats, &mut report);
    weights::report_weight_stats(&weight_stats, &mut report);
    Ok(Front {
        builder,
        report,
        scene_nodes,
        mesh_nodes,
        companions: textures.companions,
    })
}

/// Whether a mesh has vertices bound to a joint, and vertices bound to none.
#[derive(Clone, Copy, Debug, Default)]
struct Skinning {
    bound: bool,
    unbound: bool,
}

/// Pushes one notice per entry whose count is not zero, reading "`count` `message`".
fn report_counts(
    report: &mut Report,
    entries: &[(usize, Severity, rigport_model_core::Code, &str)],
) {
    for &(count, severity, code, message) in entries {
        if count > 0 {
            report.push(severity, code, format!("{count} {message}"));
        }
    }
}
