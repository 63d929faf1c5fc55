//! The facts `rigport info` shows about a file.

use crate::file::{ArrayKind, File, Format};
use rigport_model_core::FileSummary;
use rigport_model_core::text::decode_name;

fn kind_name(file: &File, kind: ArrayKind) -> String {
    match kind {
        ArrayKind::Position => "position".into(),
        ArrayKind::TexCoord => "texcoord".into(),
        ArrayKind::Normal => "normal".into(),
        ArrayKind::Tangent => "tangent".into(),
        ArrayKind::BlendIndexes => "blendindexes".into(),
        ArrayKind::BlendWeights => "blendweights".into(),
        ArrayKind::Color => "color".into(),
        ArrayKind::Reserved(k) => format!("reserved type {k}"),
        ArrayKind::Custom(name) => format!(
            "custom `{}`",
            file.text_at(name).map(decode_name).unwrap_or_default()
        ),
    }
}

fn format_name(format: u32) -> String {
    match Format::from_u32(format) {
        Some(f) => format!("{f:?}").to_lowercase(),
        None => format!("unknown format {format}"),
    }
}

fn names(file: &File, offsets: impl Iterator<Item = u32>) -> String {
    offsets
        .map(|o| file.text_at(o).map(decode_name).unwrap_or_default())
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn summarize(file: &File) -> FileSummary {
    let h = &file.header;
    let mut details: Vec<(String, String)> = Vec::new();
    let mut add = |key: &str, value: String| details.push((key.to_owned(), value));
    add("version", h.version.to_string());
    let arrays = file
        .vertex_arrays
        .iter()
        .map(|a| {
            format!(
                "{} {}×{}",
                kind_name(file, a.kind()),
                format_name(a.format),
                a.size
            )
        })
        .collect::<Vec<_>>();
    add("vertex arrays", arrays.join(", "));
    add("poses", file.poses.len().to_string());
    add("frame channels", h.num_framechannels.to_string());
    let anims = file
        .anims
        .iter()
        .map(|a| {
            format!(
                "{} ({} frames at {} fps{})",
                file.text_at(a.name).map(decode_name).unwrap_or_default(),
                a.num_frames,
                a.framerate,
                if a.looping() { ", loop" } else { "" }
            )
        })
        .collect::<Vec<_>>();
    add("animations", anims.join(", "));
    add("meshes", names(file, file.meshes.iter().map(|m| m.name)));
    add("joints", names(file, file.joints.iter().map(|j| j.name)));
    add("adjacency", file.adjacency.is_some().to_string());
    add("bounds", file.bounds.is_some().to_string());
    if !file.comment.is_empty() {
        add("comment bytes", file.comment.len().to_string());
    }
    if !file.extensions.is_empty() {
        add("extensions", file.extensions.len().to_string());
    }
    let gap_bytes: usize = file.gaps.iter().map(|g| g.bytes.len()).sum();
    if gap_bytes > 0 {
        add("bytes outside blocks", gap_bytes.to_string());
    }
    let materials = {
        // Distinct material names; offset 0 is the empty string (no material).
        let mut seen: Vec<&[u8]> = file
            .meshes
            .iter()
            .filter_map(|m| file.text_at(m.material))
            .filter(|name| !name.is_empty())
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    };
    FileSummary {
        format: "iqm",
        meshes: file.meshes.len() as u64,
        vertices: h.num_vertexes.into(),
        triangles: file.triangles.len() as u64,
        materials: materials as u64,
        joints: file.joints.len() as u64,
        animations: file.anims.len() as u64,
        frames: h.num_frames.into(),
        warnings: Vec::new(),
        details,
        morph_targets: Vec::new(),
        weight_tracks: Vec::new(),
    }
}
