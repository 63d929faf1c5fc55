//! The file's own counts.

use crate::file::{File, Header, Kind};
use rigport_model_core::FileSummary;

pub(crate) fn summary(file: &File) -> FileSummary {
    let mut s = FileSummary {
        format: file.kind.key(),
        ..FileSummary::default()
    };
    let mut details = Vec::new();
    if let Some(version) = file.version() {
        details.push(("version".to_owned(), version.to_string()));
    }
    if let Some(c) = file.commandline().filter(|c| !c.is_empty()) {
        details.push((
            "commandline".to_owned(),
            rigport_model_core::diagnostic::excerpt(c, 200),
        ));
    }
    match file.kind {
        Kind::Mesh => {
            s.joints = file.joints().count() as u64;
            let meshes = file.meshes();
            s.meshes = meshes.len() as u64;
            s.vertices = meshes.iter().map(|m| m.verts.len() as u64).sum();
            s.triangles = meshes.iter().map(|m| m.tris.len() as u64).sum();
            let weights: u64 = meshes.iter().map(|m| m.weights.len() as u64).sum();
            let mut shaders: Vec<&[u8]> = meshes
                .iter()
                .filter_map(|m| m.shader)
                .filter(|s| !s.is_empty())
                .collect();
            shaders.sort_unstable();
            shaders.dedup();
            s.materials = shaders.len() as u64;
            details.push(("weights".to_owned(), weights.to_string()));
        }
        Kind::Anim => {
            s.joints = file.hierarchy().count() as u64;
            s.animations = 1;
            s.frames = file.frames().count() as u64;
            for header in file.headers() {
                match header {
                    Header::FrameRate(rate) => {
                        details.push(("frameRate".to_owned(), rate.to_string()))
                    }
                    Header::NumAnimatedComponents(n) => {
                        details.push(("numAnimatedComponents".to_owned(), n.to_string()))
                    }
                    _ => {}
                }
            }
        }
    }
    s.details = details;
    s
}
