//! What `rigport info` says about a file, in one place for every front door (the CLI, the
//! Python package, the web page): [`inspect`] reads a file (its summary and which of its
//! textures are found beside it) and [`info_json`] gives the object `rigport info --json`
//! prints; [`summarize`] and [`to_json`] are the same without the textures.
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
//!
//! // An IQE material names its texture: found whatever its case, or missing.
//! let iqe = b"# Inter-Quake Export\nmesh tri\nmaterial Skin.png\nvp 0 0 0\nfm 0 0 0\n";
//! let files = std::collections::BTreeMap::from([("skin.PNG".to_owned(), Vec::new())]);
//! let info = rigport::info::inspect(iqe, None, Some(&files), &ReadOptions::default()).unwrap();
//! assert_eq!(rigport::info::info_json("tri.iqe", &info)["textures"]["found"][0], "skin.PNG");
//! let info = rigport::info::inspect(iqe, None, None, &ReadOptions::default()).unwrap();
//! assert_eq!(info.textures.missing, ["Skin.png"]);
//! ```

use crate::images::TextureList;
use crate::{Document, Error};
use rigport_model_core::codec::{Companions, Folder, NoCompanions};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report};
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

/// What `rigport info` says about one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Counts, details and warnings (a `texture-missing` warning per texture not found
    /// among them).
    pub summary: FileSummary,
    /// The model's texture references, found beside it or missing.
    pub textures: TextureList,
}

/// Reads one file's content, summarizes it and looks its textures up among `files` (by
/// default the files in `dir`, the folder the file is in, where a `.gltf` also finds its
/// buffers; with neither, every texture not held in the file is missing). A file that
/// reads but does not convert to a model keeps its summary, with the reason as a warning.
pub fn inspect(
    bytes: &[u8],
    dir: Option<&Path>,
    files: Option<&dyn Companions>,
    options: &ReadOptions,
) -> Result<Info, Error> {
    let (document, report) = Document::sniff_and_read_in(bytes, options, dir)?;
    let mut summary = document.summary();
    summary
        .warnings
        .extend(report.notices.iter().map(|n| n.message.clone()));
    let folder = dir.map(Folder::new);
    let files: &dyn Companions = match (files, &folder) {
        (Some(files), _) => files,
        (None, Some(folder)) => folder,
        (None, None) => &NoCompanions,
    };
    let textures = match document.to_model_with_images(&crate::ModelOptions::default()) {
        Ok((model, images, _)) => {
            count_model(&mut summary, &model);
            TextureList::of(&model, &images, files)
        }
        Err(e) => {
            summary.warnings.push(format!(
                "textures not listed: the model cannot be built: {e}"
            ));
            TextureList::default()
        }
    };
    let mut missing = Report::default();
    textures.warn_missing(&mut missing);
    summary
        .warnings
        .extend(missing.notices.into_iter().map(|n| n.message));
    Ok(Info { summary, textures })
}

/// Sets the counts every door reports from the model the file reads as (one meaning for
/// `joints` and `animations` in `rigport info`, the Python package and the web page):
/// `joints` is the model's skeleton (an animation-only IQM counts the joints its poses
/// animate), `animations` every animation the model carries, those attached from files
/// beside it included (`--anims-beside`), and `frames` adds each attached animation's frames
/// (its length at its rate, first and last frame included) to the file's own. The morph
/// targets and weight tracks are named from the model too.
pub fn count_model(summary: &mut FileSummary, model: &Model) {
    summary.joints = model.skeleton.len() as u64;
    *summary = std::mem::take(summary).with_morphs_of(model);
    let own = usize::try_from(summary.animations).unwrap_or(usize::MAX);
    for attached in model.animations.iter().skip(own) {
        let frames = (attached.end_time() * attached.fps).round();
        if frames.is_finite() && frames >= 0.0 {
            summary.frames = summary.frames.saturating_add(frames as u64 + 1);
        }
    }
    summary.animations = model.animations.len() as u64;
}

/// The `rigport info --json` object for one file: [`to_json`]'s fields and `textures`,
/// `{"found": [file names], "missing": [references as written]}`.
pub fn info_json(file: &str, info: &Info) -> serde_json::Value {
    let mut value = to_json(file, &info.summary);
    let found: Vec<&str> = info
        .textures
        .found
        .iter()
        .map(|(_, name)| name.as_str())
        .collect();
    value["textures"] = json!({ "found": found, "missing": info.textures.missing });
    value
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
        "morph_targets": s.morph_targets.len(),
        "weight_tracks": s.weight_tracks.len(),
        "morph": {
            "targets": s.morph_targets.iter().map(|(mesh, name)| json!({ "mesh": mesh, "name": name })).collect::<Vec<_>>(),
            "weight_tracks": s.weight_tracks.iter().map(|(animation, mesh)| json!({ "animation": animation, "mesh": mesh })).collect::<Vec<_>>(),
        },
        "warnings": s.warnings,
    })
}

/// A report's notices as JSON objects (`severity`, `code`, `message`): the shape of every
/// door's `report` (`rigport convert --json`, the page).
pub fn report_json(report: &crate::Report) -> serde_json::Value {
    report
        .notices
        .iter()
        .map(|n| json!({ "severity": n.severity.to_string(), "code": n.code.key(), "message": n.message }))
        .collect()
}

/// The `rigport info --json` object for a file that could not be read.
pub fn error_json(file: &str, message: &str) -> serde_json::Value {
    json!({ "file": file, "error": message })
}

/// Every format this build includes, as a JSON object whose keys keep the registry's order:
/// key → `family`, `description`, `extension` (the usual one), `extensions`, `reads`,
/// `writes`, `animation_only`, the shape `rigport.formats()` gives. `rigport formats
/// --json` prints it, and the Blender add-ons read it as `formats.json`.
///
/// ```
/// let table: serde_json::Value = serde_json::from_str(&rigport::info::formats_json()).unwrap();
/// assert_eq!(table["ms3d-ascii"]["extension"], "txt");
/// assert_eq!(table["obj"]["reads"], false);
/// ```
pub fn formats_json() -> String {
    let entries: Vec<String> = crate::Format::ALL
        .into_iter()
        .filter(|f| f.is_enabled())
        .map(|format| {
            let extensions = format.info().map_or(&[][..], |info| info.extensions);
            let entry = json!({
                "family": format.family(),
                "description": format.description(),
                "extension": format.extension(),
                "extensions": extensions,
                "reads": format.can_read(),
                "writes": format.can_write(),
                "animation_only": format.is_animation_only(),
            });
            format!("  {}: {entry}", serde_json::Value::from(format.key()))
        })
        .collect();
    format!("{{\n{}\n}}\n", entries.join(",\n"))
}
