//! The counts `rigport info` shows for a file.

use crate::file::{File, Kind};
use rigport_model_core::FileSummary;

pub(crate) fn summary(file: &File) -> FileSummary {
    let key = match file.kind {
        Kind::Mesh => "psk",
        Kind::Anim => "psa",
    };
    let mut materials_used: Vec<u8> = file.faces().iter().map(|f| f.material).collect();
    materials_used.sort_unstable();
    materials_used.dedup();
    let sequences = file.sequences();
    let frames: u64 = sequences
        .iter()
        .map(|s| u64::try_from(s.num_raw_frames).unwrap_or(0))
        .sum();
    let names: Vec<String> = file
        .sections
        .iter()
        .map(|s| format!("{}×{}", String::from_utf8_lossy(s.name()), s.data_count))
        .collect();
    FileSummary {
        format: key,
        meshes: materials_used.len() as u64,
        vertices: file.wedges().len() as u64,
        triangles: file.faces().len() as u64,
        materials: file.materials().len() as u64,
        joints: file.bones().len() as u64,
        animations: sequences.len() as u64,
        frames,
        warnings: Vec::new(),
        details: vec![
            ("points".to_owned(), file.points().len().to_string()),
            ("sections".to_owned(), names.join(" ")),
        ],
        morph_targets: Vec::new(),
        weight_tracks: Vec::new(),
    }
}
