//! What `rigport info` says about a file, in one place for every front door (the CLI, the
//! Python package, the web page): [`summarize`] reads a file and [`to_json`] gives the
//! object `rigport info --json` prints.
//!
//! ```
//! use rigport::info::{summarize, to_json};
//! use rigport::ReadOptions;
//!
//! let iqe = b"# Inter-Quake Export\nmesh tri\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";
//! let summary = summarize(iqe, None, &ReadOptions::default()).unwrap();
//! let json = to_json("tri.iqe", &summary);
//! assert_eq!(json["format"], "iqe");
//! assert_eq!(json["triangles"], 1);
//! ```

use crate::{Document, Error};
use rigport_model_core::{FileSummary, ReadOptions};
use serde_json::json;
use std::path::Path;

/// Reads one file's content and summarizes it, with the read's warnings appended. `dir` is
/// the folder the file is in, where a `.gltf` finds its buffers (`None`: nowhere).
pub fn summarize(
    bytes: &[u8],
    dir: Option<&Path>,
    options: &ReadOptions,
) -> Result<FileSummary, Error> {
    let (document, report) = Document::sniff_and_read_in(bytes, options, dir)?;
    let mut summary = document.summary();
    summary
        .warnings
        .extend(report.notices.iter().map(|n| n.message.clone()));
    Ok(summary)
}

/// The `rigport info --json` object for one file, `file` being how the file is named.
pub fn to_json(file: &str, s: &FileSummary) -> serde_json::Value {
    json!({
        "file": file,
        "format": s.format,
        "meshes": s.meshes,
        "vertices": s.vertices,
        "triangles": s.triangles,
        "materials": s.materials,
        "joints": s.joints,
        "animations": s.animations,
        "frames": s.frames,
        "warnings": s.warnings,
    })
}

/// The `rigport info --json` object for a file that could not be read.
pub fn error_json(file: &str, message: &str) -> serde_json::Value {
    json!({ "file": file, "error": message })
}
