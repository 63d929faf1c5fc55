//! `rigport render INPUTS... -o DIR` with `--orbit`, `--animate` or `--metadata`: a folder
//! `DIR/<name>/` per model, drawn in parallel, and `DIR/manifest.jsonl`, one line per input
//! appended as each finishes, so an interrupted run can `--resume`; with `--keypoints`,
//! `DIR/annotations.json` (COCO keypoints) of every model done.

use super::Status;
use crate::args::{OrbitArg, RenderArgs};
use crate::batch;
use crate::output::{check_target, write_atomic_unsynced};
use rigport::picture::{
    CocoModel, Orbit, OrbitAnimation, OrbitKeypoints, OrbitSet, PictureRequest, Prepared,
};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The manifest's file name in the output folder.
pub const MANIFEST: &str = "manifest.jsonl";

/// The COCO keypoints file of a `--keypoints` run, in the output folder.
pub const ANNOTATIONS: &str = "annotations.json";

/// A model's keypoints file, in its folder.
const KEYPOINTS: &str = "keypoints.json";

/// Runs the library layout.
pub fn run(args: &RenderArgs, dir: &Path, request: &PictureRequest) -> Status {
    let inputs = match batch::collect_inputs(&args.paths) {
        Ok(inputs) => inputs,
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
        completed(&manifest_path, dir)
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
    let mut owners: HashMap<String, &Path> = HashMap::new();
    for input in &inputs {
        owners.entry(model_name(input)).or_insert(input);
    }
    let todo: Vec<PathBuf> = inputs
        .iter()
        .filter(|input| !done.contains(&input.display().to_string()))
        .cloned()
        .collect();
    let skipped = inputs.len() - todo.len();
    // The keypoints of each model drawn, by folder name, for annotations.json.
    let seen: Mutex<Vec<(String, OrbitKeypoints)>> = Mutex::new(Vec::new());
    let outcomes = batch::run_parallel(&todo, batch::Work::Render, false, |input| {
        let name = model_name(input);
        let result = match owners.get(&name) {
            Some(owner) if *owner != input => Err(format!(
                "{} is also the folder of {}; render one of them separately",
                dir.join(&name).display(),
                owner.display()
            )),
            _ => draw_model(args, request, input, &dir.join(&name)),
        };
        let line = match &result {
            Ok((outputs, warnings, keypoints)) => {
                let mut line = json!({
                    "input": input.display().to_string(),
                    "name": name,
                    "status": "ok",
                    "outputs": outputs
                        .iter()
                        .map(|p| p.strip_prefix(dir).unwrap_or(p).display().to_string())
                        .collect::<Vec<_>>(),
                    "warnings": warnings,
                });
                if let Some(keypoints) = keypoints {
                    // What annotations.json needs that keypoints.json does not hold, for
                    // a resumed run.
                    line["bboxes"] = keypoints
                        .views
                        .iter()
                        .map(|v| json!({ "bbox": v.bbox, "area": v.area }))
                        .collect();
                }
                line
            }
            Err(message) => json!({
                "input": input.display().to_string(),
                "name": name,
                "status": "failed",
                "error": message,
            }),
        };
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
            seen.extend(resumed_keypoints(&manifest_path, dir, &done));
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
    eprint!("{}", batch::summary(&outcomes, batch::Work::Render));
    if failed || batch::any_failed(&outcomes) {
        Status::Failure
    } else {
        Status::Success
    }
}

/// A model's folder name: its file stem.
fn model_name(input: &Path) -> String {
    input
        .file_stem()
        .unwrap_or(input.as_os_str())
        .to_string_lossy()
        .into_owned()
}

/// The keypoints of the models a resumed run skipped (`done`), from their folder's
/// keypoints.json and the boxes of their last ok manifest line; a model whose files do not
/// read back is left out with a warning.
fn resumed_keypoints(
    manifest: &Path,
    dir: &Path,
    done: &HashSet<String>,
) -> Vec<(String, OrbitKeypoints)> {
    let mut lines: HashMap<String, Value> = HashMap::new();
    if let Ok(file) = File::open(manifest) {
        for line in BufReader::new(file).lines().map_while(Result::ok) {
            let Ok(value) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if let Some(input) = value["input"].as_str().filter(|i| done.contains(*i)) {
                if value["status"] == "ok" {
                    lines.insert(input.to_owned(), value);
                }
            }
        }
    }
    let mut models = Vec::new();
    for (input, line) in lines {
        let Some(name) = line["name"].as_str() else {
            continue;
        };
        let boxes: Option<Vec<(Option<[u32; 4]>, u64)>> = line["bboxes"].as_array().map(|b| {
            b.iter()
                .map(|v| {
                    let bbox = serde_json::from_value(v["bbox"].clone()).ok();
                    (bbox, v["area"].as_u64().unwrap_or(0))
                })
                .collect()
        });
        let keypoints = boxes.and_then(|boxes| {
            let bytes = std::fs::read(dir.join(name).join(KEYPOINTS)).ok()?;
            OrbitKeypoints::from_json(serde_json::from_slice(&bytes).ok()?, &boxes)
        });
        match keypoints {
            Some(keypoints) => models.push((name.to_owned(), keypoints)),
            None => eprintln!(
                "warning: {input}: no keypoints to resume from; left out of {ANNOTATIONS} (render it again without --resume)"
            ),
        }
    }
    models
}

/// Inputs the manifest at `path` lists as ok whose outputs (relative to `dir`) all exist
/// whole ([`whole`]). Lines that do not parse (an interrupted write) are ignored.
fn completed(path: &Path, dir: &Path) -> HashSet<String> {
    let mut done = HashSet::new();
    let Ok(file) = File::open(path) else {
        return done;
    };
    for line in BufReader::new(file).lines().map_while(Result::ok) {
        let Ok(value) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let (Some(input), Some(status)) = (value["input"].as_str(), value["status"].as_str())
        else {
            continue;
        };
        let complete = status == "ok"
            && value["outputs"].as_array().is_some_and(|outputs| {
                outputs
                    .iter()
                    .all(|o| o.as_str().is_some_and(|o| whole(&dir.join(o))))
            });
        if complete {
            done.insert(input.to_owned());
        } else {
            done.remove(input);
        }
    }
    done
}

/// Whether an output file is there and whole: not empty, a PNG ending with its `IEND`
/// chunk, a JSON document ending with `}`. Pictures are not synced to disk one by one
/// ([`write_atomic_unsynced`]), so after a machine crash a file listed as done may be
/// empty or cut short; such a model is drawn again.
fn whole(path: &Path) -> bool {
    /// The last 12 bytes of every PNG: the empty `IEND` chunk and its CRC.
    const PNG_END: [u8; 12] = [0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82];
    // Only the end of each file is read: a resumed library has many pictures.
    let Some(end) = tail(path, 64) else {
        return false;
    };
    match path.extension().and_then(|e| e.to_str()) {
        Some("png") => end.ends_with(&PNG_END),
        Some("json") => end.trim_ascii_end().ends_with(b"}"),
        _ => !end.is_empty(),
    }
}

/// The last `n` bytes of the file at `path` (all of it when shorter).
fn tail(path: &Path, n: u64) -> Option<Vec<u8>> {
    let mut file = File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(n))).ok()?;
    let mut end = Vec::new();
    file.read_to_end(&mut end).ok()?;
    Some(end)
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
