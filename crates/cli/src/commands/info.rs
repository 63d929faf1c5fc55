//! `rigport info`: what a file holds, as text or one JSON object per line.

use super::Status;
use crate::args::{Detail, InfoArgs};
use rigport::info::Info;
use rigport_model_core::ReadOptions;
use std::path::Path;

/// Runs `rigport info`.
pub fn run(args: &InfoArgs) -> Status {
    let options = args.read.options();
    let detail = args.output.detail();
    let mut status = Status::Success;
    for path in &args.files {
        let details = if args.anim_details {
            anim_details(path, &options).map(Some)
        } else {
            Ok(None)
        };
        match inspect(path, &options).and_then(|info| details.map(|d| (info, d))) {
            Ok((info, Some(details))) => {
                let mut json = to_json(path, &info);
                json["anim_details"] = details;
                println!("{json}");
            }
            Ok((info, None)) => match detail {
                Detail::Json => println!("{}", to_json(path, &info)),
                Detail::Quiet => {}
                Detail::Default => print!("{}", to_text(path, &info, false)),
                Detail::Verbose => print!("{}", to_text(path, &info, true)),
            },
            Err(message) => {
                status = Status::Failure;
                if detail == Detail::Json {
                    let file = path.display().to_string();
                    println!("{}", rigport::info::error_json(&file, &message));
                }
                eprintln!("{}: {message}", path.display());
            }
        }
    }
    status
}

/// Reads one file: its summary, with the read's warnings appended, and its textures looked
/// up beside it.
pub fn inspect(path: &Path, options: &ReadOptions) -> Result<Info, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let dir = crate::batch::input_dir(path);
    rigport::info::inspect(&bytes, Some(&dir), None, options).map_err(|e| e.to_string())
}

/// `--anim-details`: each animation of the model `convert` reads, with its frame rate and
/// length in seconds.
pub fn anim_details(path: &Path, options: &ReadOptions) -> Result<serde_json::Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let (document, _) =
        rigport::Document::sniff_and_read_path(&bytes, options, path).map_err(|e| e.to_string())?;
    let (model, _) = document.to_model().map_err(|e| e.to_string())?;
    let animations = model
        .animations
        .iter()
        .map(|a| serde_json::json!({ "name": a.name, "fps": a.fps, "duration": a.end_time() }))
        .collect();
    Ok(serde_json::Value::Array(animations))
}

/// The `--json` line for one file.
pub fn to_json(path: &Path, info: &Info) -> serde_json::Value {
    rigport::info::info_json(&path.display().to_string(), info)
}

/// The human-readable summary of one file; `verbose` lists each texture reference and the
/// file it resolved to.
pub fn to_text(path: &Path, info: &Info, verbose: bool) -> String {
    use std::fmt::Write as _;
    let s = &info.summary;
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
    if !(s.morph_targets.is_empty() && s.weight_tracks.is_empty()) {
        let _ = writeln!(out, "  {:<16} {}", "morph targets", s.morph_targets.len());
        let _ = writeln!(out, "  {:<16} {}", "weight tracks", s.weight_tracks.len());
    }
    for (key, value) in &s.details {
        let _ = writeln!(out, "  {key:<16} {value}");
    }
    let textures = &info.textures;
    if verbose {
        for (reference, file) in &textures.found {
            let _ = writeln!(out, "  {:<16} {reference} -> {file}", "texture");
        }
        for reference in &textures.missing {
            let _ = writeln!(out, "  {:<16} {reference} (missing)", "texture");
        }
    } else if !textures.found.is_empty() || !textures.missing.is_empty() {
        let _ = writeln!(
            out,
            "  {:<16} {} found, {} missing",
            "textures",
            textures.found.len(),
            textures.missing.len()
        );
    }
    for warning in &s.warnings {
        let _ = writeln!(out, "  warning: {warning}");
    }
    out
}
