//! The facts `rigport info` shows about a file, counted on the file itself.

use crate::file::{File, Item};
use rigport_model_core::FileSummary;
use rigport_model_core::text::decode_name;
use std::collections::HashSet;

pub(crate) fn summary(file: &File) -> FileSummary {
    let nodes = file.nodes().count() as u64;
    let frames = file.frames().len() as u64;
    let triangles = file.triangles().count() as u64;
    let materials: HashSet<&[u8]> = file.triangles().map(|t| &*t.material).collect();
    let links = file
        .triangles()
        .flat_map(|t| &t.vertices)
        .filter_map(|v| v.links.as_ref().map(Vec::len))
        .max();
    let mut details = vec![
        (
            "kind".to_owned(),
            if file.has_vertex_animation() {
                "vertex animation (flex shapes)"
            } else if file.has_triangles() {
                "reference"
            } else {
                "animation"
            }
            .to_owned(),
        ),
        (
            "blocks".to_owned(),
            file.items
                .iter()
                .filter(|i| !matches!(i, Item::Comment(_)))
                .map(|i| decode_name(i.name()))
                .collect::<Vec<_>>()
                .join(", "),
        ),
    ];
    if let Some(version) = file.version() {
        details.push(("version".to_owned(), version.to_string()));
    }
    let roots = file.nodes().filter(|n| n.parent == -1).count();
    details.push(("roots".to_owned(), roots.to_string()));
    details.push((
        "vertex lines".to_owned(),
        match links {
            None if triangles > 0 => "GoldSrc (no links)".to_owned(),
            None => "none".to_owned(),
            Some(most) => format!("Source links, at most {most} per vertex"),
        },
    ));
    let comments = file.comment_lines().len();
    if comments > 0 {
        details.push(("comment lines".to_owned(), comments.to_string()));
    }
    details.push((
        "frame rate".to_owned(),
        "not stored (30 fps assumed)".to_owned(),
    ));
    let mut names: Vec<String> = materials
        .iter()
        .map(|m| format!("\"{}\"", decode_name(m)))
        .collect();
    names.sort();
    details.push(("material names".to_owned(), names.join(", ")));
    let is_animation = !file.has_triangles() || frames > 1;
    FileSummary {
        format: crate::KEY,
        meshes: materials.len() as u64,
        vertices: triangles * 3,
        triangles,
        materials: materials.len() as u64,
        joints: nodes,
        animations: u64::from(is_animation),
        frames,
        warnings: Vec::new(),
        details,
        morph_targets: Vec::new(),
        weight_tracks: Vec::new(),
    }
}
