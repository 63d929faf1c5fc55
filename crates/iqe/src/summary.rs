//! Counts and facts for `rigport info`.

use crate::file::File;
use crate::store::Kind;
use rigport_model_core::FileSummary;

impl File {
    /// Counts for `rigport info`: vertices (vertex-array length), triangles after fanning,
    /// meshes, joints, animations, frames over all animations, distinct materials.
    pub fn summary(&self) -> FileSummary {
        summarize(self)
    }
}

fn summarize(file: &File) -> FileSummary {
    let mut summary = FileSummary {
        format: "iqe",
        ..FileSummary::default()
    };
    let scene = match file.scene() {
        Ok(scene) => scene,
        Err(err) => {
            summary.warnings.push(err.to_string());
            return summary;
        }
    };
    summary.meshes = scene.meshes.len() as u64;
    summary.vertices = scene.vertex_count as u64;
    summary.triangles = scene.triangle_count() as u64;
    summary.materials = scene.materials.len() as u64;
    summary.joints = scene.joints.len() as u64;
    summary.animations = scene.animations.len() as u64;
    summary.frames = scene.frame_count() as u64;
    let normals = if scene.array_len(crate::Attribute::Normal) == 0 {
        "generated (no vn)"
    } else {
        "stored (vn)"
    };
    summary.details.push(("normals".into(), normals.into()));
    let declared = file.count_kind(&[Kind::VertexArray]);
    if declared > 0 {
        summary
            .details
            .push(("vertexarray declarations".into(), declared.to_string()));
    }
    let unknown = file.count_kind(&[Kind::Unknown]);
    if unknown > 0 {
        summary
            .details
            .push(("unknown commands".into(), unknown.to_string()));
    }
    if let Some(comment) = &file.comment {
        summary
            .details
            .push(("comment section".into(), format!("{} bytes", comment.len())));
    }
    summary
}
