//! `rigport info`: what a file holds, as text or one JSON object per line.

use super::Status;
use crate::args::InfoArgs;
use rigport_model_core::{FileSummary, ReadOptions};
use std::path::Path;

/// Runs `rigport info`.
pub fn run(args: &InfoArgs) -> Status {
    let options = ReadOptions {
        strict: args.read.strict,
        ..ReadOptions::default()
    };
    let mut status = Status::Success;
    for path in &args.files {
        match summarize(path, &options) {
            Ok(summary) if args.json => println!("{}", to_json(path, &summary)),
            Ok(summary) => print!("{}", to_text(path, &summary)),
            Err(message) => {
                status = Status::Failure;
                if args.json {
                    let file = path.display().to_string();
                    println!("{}", rigport::info::error_json(&file, &message));
                }
                eprintln!("{}: {message}", path.display());
            }
        }
    }
    status
}

/// Reads one file and summarizes it, with the read's warnings appended.
pub fn summarize(path: &Path, options: &ReadOptions) -> Result<FileSummary, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    rigport::info::summarize(&bytes, path.parent(), options).map_err(|e| e.to_string())
}

/// The `--json` line for one file.
pub fn to_json(path: &Path, s: &FileSummary) -> serde_json::Value {
    rigport::info::to_json(&path.display().to_string(), s)
}

/// The human-readable summary of one file.
pub fn to_text(path: &Path, s: &FileSummary) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "{} ({})", path.display(), s.format);
    let counts = [
        ("meshes", s.meshes),
        ("vertices", s.vertices),
        ("triangles", s.triangles),
        ("materials", s.materials),
        ("joints", s.joints),
        ("animations", s.animations),
        ("frames", s.frames),
    ];
    for (name, value) in counts {
        let _ = writeln!(out, "  {name:<16} {value}");
    }
    for (key, value) in &s.details {
        let _ = writeln!(out, "  {key:<16} {value}");
    }
    for warning in &s.warnings {
        let _ = writeln!(out, "  warning: {warning}");
    }
    out
}
