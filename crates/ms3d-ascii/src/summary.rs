//! The facts `rigport info` shows about a file.

use crate::file::File;
use rigport_model_core::FileSummary;
use rigport_model_core::text::decode_name;

/// Names joined for display.
fn names<'a>(list: impl Iterator<Item = &'a [u8]>) -> String {
    list.map(|n| format!("\"{}\"", decode_name(n)))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn summary(file: &File) -> FileSummary {
    let meshes = file.meshes();
    let bones = file.bones();
    let count = |n: usize| n as u64;
    let mut details = vec![(
        "blocks".to_owned(),
        file.blocks
            .iter()
            .map(|b| decode_name(b.name()))
            .collect::<Vec<_>>()
            .join(", "),
    )];
    let unknown: Vec<String> = file
        .unknown_blocks()
        .map(|u| format!("{} ({} lines)", decode_name(&u.header), u.lines.len()))
        .collect();
    if !unknown.is_empty() {
        details.push(("unknown blocks".to_owned(), unknown.join(", ")));
    }
    if let Some(frame) = file.current_frame() {
        details.push(("current frame".to_owned(), frame.to_string()));
    }
    let normals: usize = meshes.iter().map(|m| m.normals.len()).sum();
    details.push(("normals".to_owned(), normals.to_string()));
    let position_keys: usize = bones.iter().map(|b| b.position_keys.len()).sum();
    let rotation_keys: usize = bones.iter().map(|b| b.rotation_keys.len()).sum();
    details.push(("position keys".to_owned(), position_keys.to_string()));
    details.push(("rotation keys".to_owned(), rotation_keys.to_string()));
    details.push((
        "mesh names".to_owned(),
        names(meshes.iter().map(|m| m.name.as_slice())),
    ));
    details.push((
        "material names".to_owned(),
        names(file.materials().iter().map(|m| m.name.as_slice())),
    ));
    details.push((
        "bone names".to_owned(),
        names(bones.iter().map(|b| b.name.as_slice())),
    ));
    if !file.damaged_tail.is_empty() {
        details.push((
            "damaged tail".to_owned(),
            format!("{} bytes kept uninterpreted", file.damaged_tail.len()),
        ));
    }
    FileSummary {
        format: "ms3d-ascii",
        meshes: count(meshes.len()),
        vertices: meshes.iter().map(|m| count(m.vertices.len())).sum(),
        triangles: meshes.iter().map(|m| count(m.triangles.len())).sum(),
        materials: count(file.materials().len()),
        joints: count(bones.len()),
        animations: u64::from(file.has_keys()),
        frames: file.frames().map_or(0, |f| u64::try_from(f).unwrap_or(0)),
        warnings: Vec::new(),
        details,
        morph_targets: Vec::new(),
        weight_tracks: Vec::new(),
    }
}
