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
//!   below 1), emissive colour, the texture as a relative, percent-encoded image URI (an
//!   absolute path keeps only its file name, with a warning). Metallic 0, roughness 1.
//! * Skeleton: joint `i` is node `i` with the bind transform as TRS; one skin whose inverse
//!   bind matrices come from [`rigport_anim::skeleton::inverse_bind_matrices`] (last row
//!   exactly `0 0 0 1`). Several roots get a common untransformed parent node.
//! * Animations: one per model animation with translation/rotation/scale channels per joint,
//!   times in seconds; `LINEAR`, `STEP`, or `CUBICSPLINE` with Catmull-Rom tangents.
//!
//! Whatever glTF cannot hold (ambient/specular/shininess, alpha maps, the model comment,
//! frame rates and loop flags) and every repair is listed in the returned [`Report`].

mod animation;
mod buffer;
mod glb;
mod material;
mod mesh;
mod skeleton;
pub mod uri;
mod weights;
pub mod winding;

#[cfg(test)]
mod tests;

use crate::Error;
use buffer::Builder;
use gltf_json as json;
use rigport_model_core::{Model, Report, Severity};
use weights::{WeightStats, influence, is_bound};

/// Options of [`to_glb`] and [`to_gltf`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExportOptions {
    /// Indent the JSON (useful for `.gltf`, which people read).
    pub pretty: bool,
}

impl ExportOptions {
    /// These options with the JSON indented (`true`) or compact (`false`).
    pub fn with_pretty(mut self, pretty: bool) -> Self {
        self.pretty = pretty;
        self
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
pub fn to_glb(model: &Model, options: &ExportOptions) -> Result<(Vec<u8>, Report), Error> {
    let (json, bin, report) = build(model, None, options)?;
    Ok((glb::assemble(&json, bin)?, report))
}

/// Converts a model to `.gltf` JSON plus its buffer file, which will sit beside the `.gltf`
/// as `bin_file_name` (see [`bin_file_name_for`]; the JSON gets it percent-encoded).
pub fn to_gltf(
    model: &Model,
    bin_file_name: &str,
    options: &ExportOptions,
) -> Result<(SeparateFiles, Report), Error> {
    let bin_uri = uri::percent_encode(bin_file_name);
    let (json, bin, report) = build(model, Some(bin_uri), options)?;
    Ok((SeparateFiles { json, bin }, report))
}

/// Converts a model to the glTF JSON text and the bytes of its one buffer; `bin_uri` is the
/// buffer's URI for a separate `.bin`, `None` for the GLB's own binary chunk.
fn build(
    model: &Model,
    bin_uri: Option<String>,
    options: &ExportOptions,
) -> Result<(String, Vec<u8>, Report), Error> {
    let mut report = Report::default();
    let mut builder = Builder::with_capacity(buffer::size_bound(model));

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
            for vertex in &mesh.vertices {
                match is_bound(vertex, joint_count, &mut weight_stats) {
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
    material::write_materials(model, &mut builder, &mut report);
    let context = mesh::MeshContext {
        material_count: model.materials.len(),
        skin: nodes.skin,
        unbound_joint: joint_count as u32,
        joints_u8: nodes.skin_joints <= 256,
    };
    let mut scene_nodes = nodes.scene_roots;
    let mut mesh_stats = mesh::MeshStats::default();
    for (mesh, skinning) in model.meshes.iter().zip(&skinning) {
        let influences: Option<Vec<_>> = skinning.bound.then(|| {
            // Counted in the first pass already.
            let mut counted = WeightStats::default();
            let per_vertex = mesh.vertices.iter();
            per_vertex
                .map(|v| influence(v, joint_count, &mut counted))
                .collect()
        });
        let node = mesh::write_mesh(
            mesh,
            influences.as_deref(),
            &context,
            &mut builder,
            &mut mesh_stats,
        );
        scene_nodes.extend(node);
    }
    mesh::report_stats(&mesh_stats, &mut report);
    weights::report_weight_stats(&weight_stats, &mut report);
    animation::write_animations(model, &mut builder, &mut report);
    if model
        .comment
        .as_deref()
        .is_some_and(|c| !c.trim().is_empty())
    {
        report.loss(
            "gltf-comment",
            "the model comment has no place in glTF; not carried",
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
    Ok((text, builder.bin, report))
}

/// Whether a mesh has vertices bound to a joint, and vertices bound to none.
#[derive(Clone, Copy, Debug, Default)]
struct Skinning {
    bound: bool,
    unbound: bool,
}

/// Pushes one notice per entry whose count is not zero, reading "`count` `message`".
fn report_counts(report: &mut Report, entries: &[(usize, Severity, &'static str, &str)]) {
    for &(count, severity, code, message) in entries {
        if count > 0 {
            report.push(severity, code, format!("{count} {message}"));
        }
    }
}
