//! The asset-library layout of `rigport render INPUTS... -o DIR` with `--orbit`, `--animate`
//! or `--metadata`, for every door that writes it: a folder `DIR/<name>/` per model named
//! after its file, `DIR/manifest.jsonl` with a line per input, the rule by which a resumed
//! run skips a model, and the keypoints of the models done for `DIR/annotations.json`.
//!
//! A manifest line is a JSON object: `input`, `name`, `status` (`ok` or `failed`), and
//! either `outputs` (the files written, relative to `DIR`), `warnings` (how many) and, with
//! keypoints, `bboxes` (per view `bbox` and `area`), or `error`. A model counts as done
//! ([`completed`]) when its last line says ok and every output it lists is there whole
//! ([`whole`]); any other model is drawn again, replacing what an interrupted run left.

use crate::picture::{CocoModel, OrbitKeypoints, coco_keypoints};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The manifest's file name in the output folder.
pub const MANIFEST: &str = "manifest.jsonl";

/// The COCO keypoints file of a keypoints run, in the output folder.
pub const ANNOTATIONS: &str = "annotations.json";

/// A model's keypoints file, in its folder.
pub const KEYPOINTS: &str = "keypoints.json";

/// A model's cameras file, in its folder.
pub const TRANSFORMS: &str = "transforms.json";

/// A model's folder name: its file stem.
pub fn model_name(input: &Path) -> String {
    input
        .file_stem()
        .unwrap_or(input.as_os_str())
        .to_string_lossy()
        .into_owned()
}

/// One input of a library run: its folder name, and why it cannot have that folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    /// The input file.
    pub input: PathBuf,
    /// Its folder's name ([`model_name`]).
    pub name: String,
    /// Set when an earlier input (in the given order) owns the folder: the message of its
    /// failed manifest line.
    pub clash: Option<String>,
}

/// The folder of each of `inputs` (sorted as the batch walk sorts them) below `dir`: the
/// first input with a given name owns its folder, a later one fails with a message.
pub fn plan(inputs: &[PathBuf], dir: &Path) -> Vec<Planned> {
    let mut owners: HashMap<String, &Path> = HashMap::new();
    for input in inputs {
        owners.entry(model_name(input)).or_insert(input);
    }
    inputs
        .iter()
        .map(|input| {
            let name = model_name(input);
            let clash = match owners.get(&name) {
                Some(owner) if *owner != input.as_path() => Some(format!(
                    "{} is also the folder of {}; render one of them separately",
                    dir.join(&name).display(),
                    owner.display()
                )),
                _ => None,
            };
            Planned {
                input: input.clone(),
                name,
                clash,
            }
        })
        .collect()
}

/// What drawing one model left: the files written (below `dir`), how many warnings, and
/// the joints seen from each view when keypoints were asked for.
#[derive(Clone, Copy, Debug)]
pub struct ModelDone<'a> {
    /// Every file written, in writing order.
    pub outputs: &'a [PathBuf],
    /// How many warnings reading and drawing gave.
    pub warnings: usize,
    /// The keypoints, when asked for.
    pub keypoints: Option<&'a OrbitKeypoints>,
}

/// The manifest line of `input` (folder `name` below `dir`): done, or failed with a
/// message.
pub fn manifest_line(
    input: &Path,
    name: &str,
    dir: &Path,
    outcome: Result<ModelDone<'_>, &str>,
) -> Value {
    match outcome {
        Ok(done) => {
            let mut line = json!({
                "input": input.display().to_string(),
                "name": name,
                "status": "ok",
                "outputs": done
                    .outputs
                    .iter()
                    .map(|p| p.strip_prefix(dir).unwrap_or(p).display().to_string())
                    .collect::<Vec<_>>(),
                "warnings": done.warnings,
            });
            if let Some(keypoints) = done.keypoints {
                // What annotations.json needs that keypoints.json does not hold, for a
                // resumed run.
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
    }
}

/// The last line of each input in the manifest at `path`; lines that do not parse (an
/// interrupted write) are ignored.
fn last_lines(path: &Path) -> HashMap<String, Value> {
    let mut lines = HashMap::new();
    let Ok(file) = File::open(path) else {
        return lines;
    };
    for line in BufReader::new(file).lines().map_while(Result::ok) {
        let Ok(value) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if let Some(input) = value["input"].as_str() {
            lines.insert(input.to_owned(), value);
        }
    }
    lines
}

/// Inputs the manifest at `path` lists as ok, on their last line, whose outputs (relative
/// to `dir`) all exist whole ([`whole`]): the models a resumed run skips.
pub fn completed(path: &Path, dir: &Path) -> HashSet<String> {
    last_lines(path)
        .into_iter()
        .filter(|(_, line)| {
            line["status"] == "ok"
                && line["outputs"].as_array().is_some_and(|outputs| {
                    outputs
                        .iter()
                        .all(|o| o.as_str().is_some_and(|o| whole(&dir.join(o))))
                })
        })
        .map(|(input, _)| input)
        .collect()
}

/// Whether an output file is there and whole: not empty, a PNG ending with its `IEND`
/// chunk, a JSON document ending with `}`. Pictures are renamed into place whole but not
/// synced to disk one by one, so after a machine crash a file listed as done may be empty
/// or cut short; such a model is drawn again.
pub fn whole(path: &Path) -> bool {
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

/// The keypoints of `inputs` read back from their folders below `dir`: each one's
/// `keypoints.json` with the boxes of its last ok line in the manifest at `manifest`, by
/// folder name (in no order). Second: the inputs whose keypoints do not read back (no ok
/// line, no boxes, no or a damaged `keypoints.json`).
pub fn keypoints_of(
    manifest: &Path,
    dir: &Path,
    inputs: &HashSet<String>,
) -> (Vec<(String, OrbitKeypoints)>, Vec<String>) {
    let mut lines: HashMap<String, Value> = HashMap::new();
    if let Ok(file) = File::open(manifest) {
        for line in BufReader::new(file).lines().map_while(Result::ok) {
            let Ok(value) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if let Some(input) = value["input"].as_str().filter(|i| inputs.contains(*i)) {
                if value["status"] == "ok" {
                    lines.insert(input.to_owned(), value);
                }
            }
        }
    }
    let mut models = Vec::new();
    let mut missing: Vec<String> = inputs
        .iter()
        .filter(|i| !lines.contains_key(*i))
        .cloned()
        .collect();
    for (input, line) in lines {
        let Some(name) = line["name"].as_str() else {
            missing.push(input);
            continue;
        };
        let keypoints = std::fs::read(dir.join(name).join(KEYPOINTS))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .and_then(|json| model_keypoints(json, &line["bboxes"]));
        match keypoints {
            Some(keypoints) => models.push((name.to_owned(), keypoints)),
            None => missing.push(input),
        }
    }
    missing.sort();
    (models, missing)
}

/// A model's keypoints from its `keypoints.json` (`json`) and the `bboxes` of its manifest
/// line; `None` when either is not what a run wrote.
pub fn model_keypoints(json: Value, bboxes: &Value) -> Option<OrbitKeypoints> {
    let boxes: Vec<(Option<[u32; 4]>, u64)> = bboxes
        .as_array()?
        .iter()
        .map(|v| {
            let bbox = serde_json::from_value(v["bbox"].clone()).ok();
            (bbox, v["area"].as_u64().unwrap_or(0))
        })
        .collect();
    OrbitKeypoints::from_json(json, &boxes)
}

/// `annotations.json` (COCO keypoints, [`coco_keypoints`]) of the models `seen`, each by
/// its folder name, in the order of their names, for pictures of `size` (width, height).
pub fn annotations(mut seen: Vec<(String, OrbitKeypoints)>, size: (u32, u32)) -> Value {
    seen.sort_by(|a, b| a.0.cmp(&b.0));
    let models: Vec<CocoModel<'_>> = seen
        .iter()
        .map(|(folder, keypoints)| CocoModel {
            folder,
            size,
            keypoints,
        })
        .collect();
    coco_keypoints(&models)
}

/// Warnings and losses in `report`: what a manifest line counts.
pub fn warning_count(report: &rigport_model_core::Report) -> usize {
    report
        .notices
        .iter()
        .filter(|n| n.severity != rigport_model_core::Severity::Info)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_is_done_when_its_last_line_is_ok_and_its_outputs_are_whole() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("a")).unwrap();
        std::fs::create_dir(root.join("b")).unwrap();
        std::fs::write(root.join("a/transforms.json"), b"{}\n").unwrap();
        std::fs::write(root.join("b/transforms.json"), b"{\"frames\": [").unwrap();
        let done = |input: &str, name: &str| {
            let outputs = [root.join(name).join(TRANSFORMS)];
            let outcome = ModelDone {
                outputs: &outputs,
                warnings: 0,
                keypoints: None,
            };
            manifest_line(Path::new(input), name, root, Ok(outcome)).to_string()
        };
        let failed = manifest_line(Path::new("c.iqe"), "c", root, Err("bad")).to_string();
        let lines = [
            done("c.iqe", "c"),
            done("a.iqe", "a"),
            done("b.iqe", "b"),
            failed,
            "{\"input\": \"a.iqe\", \"sta".to_owned(),
        ];
        std::fs::write(root.join(MANIFEST), lines.join("\n")).unwrap();
        let finished = completed(&root.join(MANIFEST), root);
        assert_eq!(finished, HashSet::from(["a.iqe".to_owned()]));
        std::fs::remove_file(root.join("a/transforms.json")).unwrap();
        assert!(completed(&root.join(MANIFEST), root).is_empty());
    }

    #[test]
    fn a_later_input_with_the_same_stem_clashes() {
        let inputs = [PathBuf::from("a/x.iqe"), PathBuf::from("b/x.ms3d")];
        let planned = plan(&inputs, Path::new("out"));
        assert_eq!(planned[0].clash, None);
        assert_eq!(planned[1].name, "x");
        assert!(planned[1].clash.as_deref().unwrap().contains("a/x.iqe"));
    }
}
