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
        let details = if args.anim_details {
            anim_details(path, &options).map(Some)
        } else {
            Ok(None)
        };
        match summarize(path, &options).and_then(|summary| details.map(|d| (summary, d))) {
            Ok((summary, Some(details))) => {
                let mut json = to_json(path, &summary);
                json["anim_details"] = details;
                println!("{json}");
            }
            Ok((summary, None)) if args.json => println!("{}", to_json(path, &summary)),
            Ok((summary, None)) => print!("{}", to_text(path, &summary)),
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

/// `--anim-details`: each animation of the model `convert` reads, with its frame rate and
/// length in seconds.
pub fn anim_details(path: &Path, options: &ReadOptions) -> Result<serde_json::Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let (document, _) = rigport::Document::sniff_and_read_in(&bytes, options, path.parent())
        .map_err(|e| e.to_string())?;
    let (model, _) = document.to_model().map_err(|e| e.to_string())?;
    let animations = model
        .animations
        .iter()
        .map(|a| serde_json::json!({ "name": a.name, "fps": a.fps, "duration": a.end_time() }))
        .collect();
    Ok(serde_json::Value::Array(animations))
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
