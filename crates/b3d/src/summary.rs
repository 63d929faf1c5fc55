//! The facts `rigport info` shows about a file.

use crate::file::{File, NodeChunk, TopChunk};
use rigport_model_core::FileSummary;
use rigport_model_core::text::decode_name;
use std::collections::BTreeMap;

pub(crate) fn summarize(file: &File) -> FileSummary {
    let nodes = file.nodes();
    let (mut meshes, mut vertices, mut triangles, mut tris_chunks) = (0u64, 0u64, 0u64, 0u64);
    let (mut bones, mut keys_chunks, mut anims, mut frames) = (0u64, 0u64, 0u64, 0i64);
    let mut fps = Vec::new();
    let mut unknown: BTreeMap<String, usize> = BTreeMap::new();
    for c in &file.chunks {
        if let TopChunk::Raw(r) = c {
            *unknown
                .entry(String::from_utf8_lossy(&r.tag).into_owned())
                .or_default() += 1;
        }
    }
    for (_, node) in &nodes {
        for c in &node.children {
            match c {
                NodeChunk::Mesh(m) => {
                    meshes += 1;
                    vertices += m.vrts().map_or(0, |v| v.count() as u64);
                    for t in m.tris() {
                        tris_chunks += 1;
                        triangles += t.triangles.len() as u64;
                    }
                }
                NodeChunk::Bone(_) => bones += 1,
                NodeChunk::Keys(_) => keys_chunks += 1,
                NodeChunk::Anim(a) => {
                    anims += 1;
                    frames = frames.max(a.frames.into());
                    fps.push(a.fps.to_string());
                }
                NodeChunk::Raw(r) => {
                    *unknown
                        .entry(String::from_utf8_lossy(&r.tag).into_owned())
                        .or_default() += 1
                }
                NodeChunk::Node(_) => {}
            }
        }
    }
    let mut details: Vec<(String, String)> = Vec::new();
    let mut add = |key: &str, value: String| details.push((key.to_owned(), value));
    add("version", file.version.to_string());
    add("nodes", nodes.len().to_string());
    add("TRIS chunks", tris_chunks.to_string());
    add("KEYS chunks", keys_chunks.to_string());
    if !fps.is_empty() {
        fps.dedup();
        add("ANIM fps", fps.join(", "));
    }
    let textures: Vec<String> = file.textures().map(|t| decode_name(&t.file)).collect();
    if !textures.is_empty() {
        add("textures", textures.join(", "));
    }
    if !unknown.is_empty() {
        let list: Vec<String> = unknown.iter().map(|(t, n)| format!("{t} ×{n}")).collect();
        add("other chunks", list.join(", "));
    }
    FileSummary {
        format: "b3d",
        meshes,
        vertices,
        triangles,
        materials: file.brushes().count() as u64,
        joints: bones,
        animations: u64::from(anims > 0 && keys_chunks > 0),
        frames: frames.max(0) as u64,
        warnings: Vec::new(),
        details,
        morph_targets: Vec::new(),
        weight_tracks: Vec::new(),
    }
}
