//! `rigport render INPUTS... -o DIR` with `--orbit`, `--animate` or `--metadata`: a folder
//! `DIR/<name>/` per model, drawn in parallel, and `DIR/manifest.jsonl`, one line per input
//! appended as each finishes, so an interrupted run can `--resume`; with `--keypoints`,
//! `DIR/annotations.json` (COCO keypoints) of every model done. The layout, the manifest
//! line and the `--resume` rule are `rigport::library`'s, shared with the Python package.

use super::Status;
use crate::args::{OrbitArg, RenderArgs};
use crate::batch;
use crate::output::{check_target, write_atomic_unsynced};
use rigport::library::{self, ANNOTATIONS, KEYPOINTS, MANIFEST, ModelDone};
use rigport::picture::{
    CocoModel, Orbit, OrbitAnimation, OrbitKeypoints, OrbitSet, PictureRequest, Prepared,
};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Runs the library layout.
pub fn run(args: &RenderArgs, dir: &Path, request: &PictureRequest) -> Status {
    let (inputs, passed_over) = match batch::collect(&args.paths, batch::Work::Render) {
        Ok(collected) => (collected.inputs, collected.skipped),
        Err(message) => {
            eprintln!("error: {message}");
            return Status::Failure;
        }
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: {}: {e}", dir.display());
        return Status::Failure;
    }
    let manifest_path = dir.join(MANIFEST);
    let done = if args.resume {
        library::completed(&manifest_path, dir)
    } else {
        HashSet::new()
    };
    let manifest = OpenOptions::new()
        .create(true)
        .write(true)
        .append(args.resume)
        .truncate(!args.resume)
        .open(&manifest_path);
    let manifest = match manifest {
        Ok(file) => Mutex::new(file),
        Err(e) => {
            eprintln!("error: {}: {e}", manifest_path.display());
            return Status::Failure;
        }
    };

    // The first input (in sorted order) with a given name owns its folder.
    let planned = library::plan(&inputs, dir);
    let clashes: HashMap<&Path, &str> = planned
        .iter()
        .filter_map(|p| Some((p.input.as_path(), p.clash.as_deref()?)))
        .collect();
    let todo: Vec<PathBuf> = inputs
        .iter()
        .filter(|input| !done.contains(&input.display().to_string()))
        .cloned()
        .collect();
    let skipped = inputs.len() - todo.len();
    // The keypoints of each model drawn, by folder name, for annotations.json.
    let seen: Mutex<Vec<(String, OrbitKeypoints)>> = Mutex::new(Vec::new());
    let outcomes = batch::run_parallel(&todo, batch::Work::Render, false, |input| {
        let name = library::model_name(input);
        let result = match clashes.get(input) {
            Some(clash) => Err((*clash).to_owned()),
            None => draw_model(args, request, input, &dir.join(&name)),
        };
        let outcome = match &result {
            Ok((outputs, warnings, keypoints)) => Ok(ModelDone {
                outputs,
                warnings: *warnings,
                keypoints: keypoints.as_ref(),
            }),
            Err(message) => Err(message.as_str()),
        };
        let line = library::manifest_line(input, &name, dir, outcome);
        let written = manifest
            .lock()
            .map_err(|_| "manifest lock poisoned".to_owned())
            .and_then(|mut file| {
                writeln!(file, "{line}")
                    .and_then(|()| file.flush())
                    .map_err(|e| format!("{}: {e}", manifest_path.display()))
            });
        match (result, written) {
            (Ok((_, warnings, keypoints)), Ok(())) => {
                if let (Some(keypoints), Ok(mut seen)) = (keypoints, seen.lock()) {
                    seen.push((name.clone(), keypoints));
                }
                Ok((vec![dir.join(&name)], warnings))
            }
            (Err(e), _) | (Ok(_), Err(e)) => Err(e),
        }
    });
    if skipped > 0 {
        eprintln!("{skipped} already done (--resume)");
    }
    let mut failed = false;
    if args.keypoints {
        let mut seen = seen.into_inner().unwrap_or_default();
        if args.resume {
            let (resumed, missing) = library::keypoints_of(&manifest_path, dir, &done);
            for input in missing {
                eprintln!(
                    "warning: {input}: no keypoints to resume from; left out of {ANNOTATIONS} (render it again without --resume)"
                );
            }
            seen.extend(resumed);
        }
        seen.sort_by(|a, b| a.0.cmp(&b.0));
        let size = (request.options.width, request.options.height);
        let models: Vec<CocoModel<'_>> = seen
            .iter()
            .map(|(folder, keypoints)| CocoModel {
                folder,
                size,
                keypoints,
            })
            .collect();
        let coco = rigport::picture::coco_keypoints(&models);
        let path = dir.join(ANNOTATIONS);
        let written = serde_json::to_vec(&coco)
            .map_err(|e| e.to_string())
            .and_then(|bytes| write_atomic_unsynced(&path, &bytes).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("error: {}: {e}", path.display());
            failed = true;
        }
    }
    let detail = args.output.detail();
    batch::report_skipped(
        &passed_over,
        detail == crate::args::Detail::Verbose,
        detail == crate::args::Detail::Json,
    );
    eprint!(
        "{}",
        batch::summary(&outcomes, &passed_over, batch::Work::Render)
    );
    if failed || batch::any_failed(&outcomes) {
        Status::Failure
    } else {
        Status::Success
    }
}

/// What one model's drawing left: the files written, the number of warnings, and the
/// joints seen from each view when `--keypoints` asked for them.
type Drawn = (Vec<PathBuf>, usize, Option<OrbitKeypoints>);

/// Reads one model and writes everything asked for into `folder`.
fn draw_model(
    args: &RenderArgs,
    request: &PictureRequest,
    input: &Path,
    folder: &Path,
) -> Result<Drawn, String> {
    let bytes = crate::input::read(input, true).map_err(|e| format!("cannot read: {e}"))?;
    let prepared = Prepared::read(bytes.as_ref(), &batch::input_dir(input), &request.read)
        .map_err(|e| e.to_string())?;
    drop(bytes);
    let mut report = prepared.report.clone();
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut keypoints = None;
    if let Some(orbit) = args.orbit {
        let orbits = match orbit {
            OrbitArg::Ring(views) => Orbit::ring(views, args.elevation),
            OrbitArg::Random(views) => Orbit::random(views, args.seed),
        };
        let set = OrbitSet {
            orbits,
            keypoints: args.keypoints,
            draw_skeleton: args.draw_skeleton,
            depth_format: args.depth_format,
            convention: args.camera_convention,
            animate: args.animate.then_some(OrbitAnimation {
                fps: args.fps,
                frames: args.frames,
                views_per_frame: args.views_per_frame,
                seed: args.seed,
            }),
        };
        let orbit = prepared
            .orbit_set(request, &set)
            .map_err(|e| e.to_string())?;
        report.extend(orbit.report);
        for view in orbit.views {
            for (path, bytes) in view.into_files() {
                files.push((folder.join(path), bytes));
            }
        }
        let json = serde_json::to_vec_pretty(&orbit.transforms).map_err(|e| e.to_string())?;
        files.push((folder.join("transforms.json"), json));
        if let Some(seen) = orbit.keypoints {
            let json = serde_json::to_vec(&seen.json).map_err(|e| e.to_string())?;
            files.push((folder.join(KEYPOINTS), json));
            keypoints = Some(seen);
        }
    }
    if args.animate && args.orbit.is_none() {
        let animated = prepared
            .animation(request, args.fps)
            .map_err(|e| e.to_string())?;
        report.extend(animated.report);
        files.push((folder.join("animation.png"), animated.png));
    }
    if args.orbit.is_none() && !args.animate {
        let (picture, picture_report) = prepared.picture(request).map_err(|e| e.to_string())?;
        report.extend(picture_report);
        let png = rigport::picture::encode_png(&picture.image).map_err(|e| e.to_string())?;
        files.push((folder.join("picture.png"), png));
    }
    if args.metadata {
        let mut metadata = prepared.metadata(&input.display().to_string());
        metadata["render_warnings"] = report
            .notices
            .iter()
            .map(|n| Value::from(n.to_string()))
            .collect();
        let json = serde_json::to_vec_pretty(&metadata).map_err(|e| e.to_string())?;
        files.push((folder.join("metadata.json"), json));
    }
    // A resumed run replaces what an interrupted one left behind.
    let force = args.force || args.resume;
    for (path, _) in &files {
        check_target(path, &[input], force)?;
    }
    for (path, bytes) in &files {
        write_atomic_unsynced(path, bytes).map_err(|e| e.to_string())?;
    }
    Ok((
        files.into_iter().map(|(path, _)| path).collect(),
        batch::warning_count(&report),
        keypoints,
    ))
}
