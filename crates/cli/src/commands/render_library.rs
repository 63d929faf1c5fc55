//! `rigport render INPUTS... -o DIR` with `--orbit`, `--animate` or `--metadata`: a folder
//! `DIR/<name>/` per model, drawn in parallel, and `DIR/manifest.jsonl`, one line per input
//! appended as each finishes, so an interrupted run can `--resume`; with `--keypoints`,
//! `DIR/annotations.json` (COCO keypoints) of every model done. The layout, the manifest
//! line and the `--resume` rule are `rigport_dataset::library`'s, shared with the Python package.

use super::Status;
use crate::args::{OrbitArg, RenderArgs};
use crate::batch;
use crate::output::{check_target, write_atomic_unsynced};
use rigport_dataset::library::{self, ANNOTATIONS, MANIFEST, ModelDone};
use rigport_dataset::model::{ModelRequest, model_files};
use rigport_dataset::picture::{Orbit, OrbitAnimation, OrbitKeypoints, OrbitSet, PictureRequest};
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
        let coco = library::annotations(seen, (request.options.width, request.options.height));
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

/// Reads one model, makes everything asked for (`rigport_dataset::model`, the job the
/// Python package runs too) and writes it into `folder`.
fn draw_model(
    args: &RenderArgs,
    request: &PictureRequest,
    input: &Path,
    folder: &Path,
) -> Result<Drawn, String> {
    let bytes = crate::input::read(input, true).map_err(|e| format!("cannot read: {e}"))?;
    let orbit = args.orbit.map(|orbit| OrbitSet {
        orbits: match orbit {
            OrbitArg::Ring(views) => Orbit::ring(views, args.elevation),
            OrbitArg::Random(views) => Orbit::random(views, args.seed),
        },
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
    });
    let job = ModelRequest {
        picture: request.clone(),
        orbit,
        animate: args.animate,
        fps: args.fps,
        metadata: args.metadata,
    };
    let made = model_files(bytes, input, folder, &job).map_err(|e| e.to_string())?;
    // A resumed run replaces what an interrupted one left behind.
    let force = args.force || args.resume;
    for (path, _) in &made.files {
        check_target(path, &[input], force)?;
    }
    for (path, bytes) in &made.files {
        write_atomic_unsynced(path, bytes).map_err(|e| e.to_string())?;
    }
    Ok((
        made.files.into_iter().map(|(path, _)| path).collect(),
        batch::warning_count(&made.report),
        made.keypoints,
    ))
}
