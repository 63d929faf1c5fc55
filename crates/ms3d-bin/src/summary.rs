//! The facts `rigport info` shows about a file.

use crate::file::File;
use rigport_model_core::FileSummary;
use rigport_model_core::text::{decode_name, until_nul};

/// A name array as display text: the bytes before the NUL, UTF-8 or else Latin-1.
pub(crate) fn display_name(raw: &[u8]) -> String {
    decode_name(until_nul(raw))
}

/// Whether a NUL-terminated name array holds non-zero bytes after its first NUL.
pub(crate) fn has_bytes_after_nul(raw: &[u8]) -> bool {
    raw.iter()
        .position(|&b| b == 0)
        .is_some_and(|nul| raw[nul..].iter().any(|&b| b != 0))
}

fn name_list<'a>(names: impl Iterator<Item = &'a [u8]>) -> String {
    names.map(display_name).collect::<Vec<_>>().join(", ")
}

pub(crate) fn summarize(file: &File) -> FileSummary {
    let key_counts = |f: fn(&crate::Joint) -> usize| file.joints.iter().map(f).sum::<usize>();
    let rotation_keys = key_counts(|j| j.rotation_keys.len());
    let translation_keys = key_counts(|j| j.translation_keys.len());
    let mut details: Vec<(String, String)> = Vec::new();
    let mut add = |key: &str, value: String| details.push((key.to_owned(), value));
    add("version", file.version.to_string());
    add("fps", file.keyframer.fps.to_string());
    add("current time", file.keyframer.current_time.to_string());
    add("total frames", file.keyframer.total_frames.to_string());
    add("rotation keys", rotation_keys.to_string());
    add("translation keys", translation_keys.to_string());
    let blocks = file.blocks_present();
    add(
        "blocks",
        if blocks.is_empty() {
            "none".to_owned()
        } else {
            blocks.join(", ")
        },
    );
    if let Some(c) = &file.comments {
        add(
            "comments",
            format!(
                "subVersion {}: {} group, {} material, {} joint, {} model",
                c.sub_version,
                c.groups.len(),
                c.materials.len(),
                c.joints.len(),
                c.model.len()
            ),
        );
    }
    if let Some(v) = &file.vertex_extra {
        add("vertex extra", format!("subVersion {}", v.sub_version));
    }
    if let Some(j) = &file.joint_extra {
        add("joint extra", format!("subVersion {}", j.sub_version));
    }
    if let Some(m) = &file.model_extra {
        add(
            "model extra",
            format!(
                "subVersion {}: joint size {}, transparency mode {}, alpha ref {}",
                m.sub_version, m.joint_size, m.transparency_mode, m.alpha_ref
            ),
        );
    }
    if !file.tail.is_empty() {
        add("raw tail bytes", file.tail.len().to_string());
    }
    let names_with_junk = file
        .groups
        .iter()
        .map(|g| &g.name[..])
        .chain(file.materials.iter().map(|m| &m.name[..]))
        .chain(
            file.joints
                .iter()
                .flat_map(|j| [&j.name[..], &j.parent_name[..]]),
        )
        .filter(|n| has_bytes_after_nul(n))
        .count();
    if names_with_junk > 0 {
        add(
            "names with bytes after the NUL",
            names_with_junk.to_string(),
        );
    }
    add("groups", name_list(file.groups.iter().map(|g| &g.name[..])));
    add(
        "materials",
        name_list(file.materials.iter().map(|m| &m.name[..])),
    );
    add("joints", name_list(file.joints.iter().map(|j| &j.name[..])));
    FileSummary {
        format: "ms3d",
        meshes: file.groups.len() as u64,
        vertices: file.vertices.len() as u64,
        triangles: file.triangles.len() as u64,
        materials: file.materials.len() as u64,
        joints: file.joints.len() as u64,
        animations: u64::from(file.has_keys()),
        frames: u64::try_from(file.keyframer.total_frames).unwrap_or(0),
        warnings: Vec::new(),
        details,
        morph_targets: Vec::new(),
        weight_tracks: Vec::new(),
    }
}
