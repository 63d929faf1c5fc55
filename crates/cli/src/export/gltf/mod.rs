//! glTF 2.0 export: a [`Model`] as a `.glb` file, or as `.gltf` JSON plus a `.bin` buffer.
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

use buffer::Builder;
use gltf_json as json;
use rigport_anim::skeleton::HierarchyError;
use rigport_model_core::{Model, Report, Severity};
use weights::{WeightStats, influence, is_bound};

/// How the glTF is packaged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// One binary `.glb` file holding the JSON and the buffer.
    #[default]
    Glb,
    /// A `.gltf` JSON file naming a separate buffer file.
    Separate {
        /// File name of the buffer, as it will sit beside the `.gltf` (not yet URI-encoded;
        /// see [`bin_file_name_for`]).
        bin_file_name: String,
    },
}

/// Options of [`export`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GltfOptions {
    /// `.glb` or `.gltf` + `.bin`.
    pub layout: Layout,
    /// Indent the JSON (useful for `.gltf`, which people read).
    pub pretty: bool,
}

/// The exported files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GltfOutput {
    /// The bytes of a complete `.glb` file.
    Glb(Vec<u8>),
    /// The `.gltf` text and the bytes of its buffer file. `bin` is empty exactly when the
    /// model has no data at all; then the JSON names no buffer and no file must be written.
    Separate {
        /// JSON text of the `.gltf` file.
        json: String,
        /// Contents of the buffer file named in [`Layout::Separate`].
        bin: Vec<u8>,
    },
}

/// Why a model cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum GltfError {
    /// A joint's parent does not exist or the parents form a cycle.
    #[error("the skeleton cannot be written as a node tree: {0}")]
    Hierarchy(#[from] HierarchyError),
    /// glTF joint indices are at most 16 bits.
    #[error("the skin needs {count} joints, but glTF joint indices hold at most 65536")]
    TooManyJoints {
        /// Joints the skin would need.
        count: usize,
    },
    /// A GLB file has a 32-bit length.
    #[error("the GLB would be {bytes} bytes, but the container holds at most 4 GiB")]
    TooLarge {
        /// Size it would have.
        bytes: u64,
    },
    /// The JSON could not be written.
    #[error("JSON serialization failed: {0}")]
    Json(#[from] json::Error),
}

/// The buffer file name for a `.gltf` path: its file stem plus `.bin`.
pub fn bin_file_name_for(gltf_path: &std::path::Path) -> String {
    let stem = gltf_path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".to_owned());
    format!("{stem}.bin")
}

/// Converts a model to glTF 2.0. The [`Report`] lists what glTF could not hold and every
/// value that was repaired to pass the glTF validator.
pub fn export(model: &Model, options: &GltfOptions) -> Result<(GltfOutput, Report), GltfError> {
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
        return Err(GltfError::TooManyJoints { count: skin_joints });
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
    let bin_uri = match &options.layout {
        Layout::Glb => None,
        Layout::Separate { bin_file_name } => Some(uri::percent_encode(bin_file_name)),
    };
    builder.finish_buffer(bin_uri);
    let text = if options.pretty {
        builder.root.to_string_pretty()?
    } else {
        builder.root.to_string()?
    };
    let output = match options.layout {
        Layout::Glb => GltfOutput::Glb(glb::assemble(&text, builder.bin)?),
        Layout::Separate { .. } => GltfOutput::Separate {
            json: text,
            bin: builder.bin,
        },
    };
    Ok((output, report))
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
