//! The library layout of ``rigport render INPUTS... -o DIR --orbit N`` for
//! `rigport.distributed.render_all`: the plan of folders and what a resumed run skips, one
//! model's files (the command's, byte for byte) and its manifest line, and
//! `annotations.json` of the models done. The rules live in `rigport_dataset::library`.

use crate::errors::{Failure, check_target, detached};
use crate::model::Which;
use crate::render::Colour;
use crate::values::{py_to_json, report_list};
use crate::views::{check_size, colour_of, convention, orbits};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rigport::pipeline::PoseRequest;
use rigport::{ReadOptions, Report};
use rigport_dataset::library::{self, ModelDone};
use rigport_dataset::model::{ModelRequest, model_files};
use rigport_dataset::picture::{
    DepthFormat, OrbitAnimation, OrbitKeypoints, OrbitSet, Passes, PictureRequest, RenderOptions,
};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// One input of a library run: input, folder name, clash message or None, done (a resumed
/// run skips it).
type PlannedModel = (String, String, Option<String>, bool);

/// Plans a library run into `out_dir`: the readable files below `paths` (sorted), each
/// with its folder name, the message when an earlier input owns that folder, and, with
/// `resume`, whether `out_dir/manifest.jsonl` says it is done (``rigport render
/// --resume``'s rule).
#[pyfunction]
#[pyo3(signature = (paths, out_dir, resume = false))]
pub(crate) fn plan_library(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    out_dir: PathBuf,
    resume: bool,
) -> PyResult<Vec<PlannedModel>> {
    detached(py, move || {
        let inputs = crate::errors::collect_inputs(&paths)?;
        let done = if resume {
            library::completed(&out_dir.join(library::MANIFEST), &out_dir)
        } else {
            HashSet::new()
        };
        Ok(library::plan(&inputs, &out_dir)
            .into_iter()
            .map(|p| {
                let input = p.input.display().to_string();
                let skip = done.contains(&input);
                (input, p.name, p.clash, skip)
            })
            .collect())
    })
}

/// The manifest line (JSON) of an input that failed with `error`.
#[pyfunction]
pub(crate) fn manifest_failure(input: PathBuf, name: String, error: String) -> String {
    library::manifest_line(&input, &name, Path::new(""), Err(&error)).to_string()
}

/// Draws one model as ``rigport render INPUT -o OUT_DIR --orbit N ...`` does into
/// ``out_dir/<name>/`` (the same files, byte for byte) and returns its manifest line
/// (JSON: ``status`` ``"ok"`` with ``outputs``, ``warnings`` and, with keypoints,
/// ``bboxes``; or ``"failed"`` with ``error``) and the report (list of dicts, as
/// ``convert``). A model that fails never raises; bad options raise ``ValueError``.
#[pyfunction]
#[pyo3(
    signature = (input, out_dir, name, *, orbit = None, seed = None, elevation = 20.0, size = (512, 512), background = None, wire = false, passes = Vec::new(), depth_format = None, camera_convention = None, keypoints = false, anim = None, time = None, frame = None, animate = false, fps = None, frames = None, views_per_frame = None, metadata = false, force = false, strict = false, anims_beside = false),
    text_signature = "(input, out_dir, name, *, orbit=None, seed=None, elevation=20.0, size=(512, 512), background=None, wire=False, passes=(), depth_format=None, camera_convention=None, keypoints=False, anim=None, time=None, frame=None, animate=False, fps=None, frames=None, views_per_frame=None, metadata=False, force=False, strict=False, anims_beside=False)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn render_model(
    py: Python<'_>,
    input: PathBuf,
    out_dir: PathBuf,
    name: String,
    orbit: Option<u32>,
    seed: Option<u64>,
    elevation: f32,
    size: (u32, u32),
    background: Option<Colour>,
    wire: bool,
    passes: Vec<String>,
    depth_format: Option<String>,
    camera_convention: Option<String>,
    keypoints: bool,
    anim: Option<Which>,
    time: Option<f32>,
    frame: Option<f32>,
    animate: bool,
    fps: Option<f32>,
    frames: Option<u32>,
    views_per_frame: Option<u32>,
    metadata: bool,
    force: bool,
    strict: bool,
    anims_beside: bool,
) -> PyResult<(String, Py<PyList>)> {
    // The orbit options not named here keep their defaults, as the command's do.
    #[allow(clippy::needless_update)]
    let prepare = || -> Result<ModelRequest, Failure> {
        let (width, height) = size;
        check_size(width, height)?;
        let passes: Passes = if passes.is_empty() {
            Passes::default()
        } else {
            passes
                .join(",")
                .parse()
                .map_err(|e: rigport_dataset::picture::RenderError| Failure::Value(e.to_string()))?
        };
        let request = PictureRequest {
            read: ReadOptions {
                strict,
                animations_beside: anims_beside,
                ..ReadOptions::default()
            },
            options: RenderOptions {
                width,
                height,
                background: colour_of(background)?,
                wire,
                passes,
                ..RenderOptions::default()
            },
            pose: PoseRequest {
                time,
                frame,
                anim: anim.as_ref().map(Which::as_request),
            },
            sheet: None,
        };
        let depth_format = depth_format
            .map(|key| {
                key.parse::<DepthFormat>()
                    .map_err(|e: rigport_dataset::picture::RenderError| {
                        Failure::Value(e.to_string())
                    })
            })
            .transpose()?;
        let orbit = match orbit {
            Some(views) => Some(OrbitSet {
                orbits: orbits(views, seed, elevation)?,
                keypoints,
                depth_format,
                convention: camera_convention.as_deref().map(convention).transpose()?,
                animate: animate.then_some(OrbitAnimation {
                    fps,
                    frames,
                    views_per_frame,
                    seed: seed.unwrap_or(0),
                }),
                ..OrbitSet::default()
            }),
            None => None,
        };
        Ok(ModelRequest {
            picture: request,
            orbit,
            animate,
            fps,
            metadata,
        })
    };
    let request = prepare().map_err(|f| f.into_pyerr(py))?;
    let (line, report) = py.detach(move || {
        let folder = out_dir.join(&name);
        let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            draw_model(&request, force, &input, &folder)
        }))
        .unwrap_or_else(|_| Err("internal error: the drawing panicked".to_owned()));
        match drawn {
            Ok((outputs, report, keypoints)) => {
                let done = ModelDone {
                    outputs: &outputs,
                    warnings: library::warning_count(&report),
                    keypoints: keypoints.as_ref(),
                };
                let line = library::manifest_line(&input, &name, &out_dir, Ok(done));
                (line.to_string(), report)
            }
            Err(message) => {
                let line = library::manifest_line(&input, &name, &out_dir, Err(&message));
                (line.to_string(), Report::default())
            }
        }
    });
    Ok((line, report_list(py, &report)?.unbind()))
}

/// What one model's drawing left: the files written, what reading and drawing reported,
/// the keypoints.
type Drawn = (Vec<PathBuf>, Report, Option<OrbitKeypoints>);

/// Reads one model, makes everything `request` asks for (`rigport_dataset::model`, the
/// command's own job) and writes it into `folder`.
fn draw_model(
    request: &ModelRequest,
    force: bool,
    input: &Path,
    folder: &Path,
) -> Result<Drawn, String> {
    let bytes = std::fs::read(input).map_err(|e| format!("cannot read: {e}"))?;
    let made = model_files(bytes, input, folder, request).map_err(|e| e.to_string())?;
    for (path, _) in &made.files {
        check_target(path, Some(input), force).map_err(|f| match f {
            Failure::Exists(path) => format!(
                "{} already exists (use force=True to overwrite)",
                path.display()
            ),
            other => format!("{other:?}"),
        })?;
    }
    for (path, bytes) in &made.files {
        rigport::output::write_atomic_unsynced(path, bytes).map_err(|e| e.to_string())?;
    }
    Ok((
        made.files.into_iter().map(|(path, _)| path).collect(),
        made.report,
        made.keypoints,
    ))
}

/// A model for ``annotations.json``: folder name, its ``keypoints.json`` (as ``json.load``
/// reads it) and the ``bboxes`` of its manifest line.
type AnnotatedModel<'py> = (String, Bound<'py, PyAny>, Bound<'py, PyAny>);

/// Writes ``out_dir/annotations.json`` (COCO keypoints) of `models` as ``rigport render
/// --keypoints`` does, for pictures of `size` (width, height). Returns the names of the
/// models left out (their keypoints do not read back).
#[pyfunction]
pub(crate) fn write_annotations(
    py: Python<'_>,
    out_dir: PathBuf,
    models: Vec<AnnotatedModel<'_>>,
    size: (u32, u32),
) -> PyResult<Vec<String>> {
    let mut given = Vec::with_capacity(models.len());
    for (name, keypoints, bboxes) in &models {
        given.push((name.clone(), py_to_json(keypoints)?, py_to_json(bboxes)?));
    }
    detached(py, move || {
        let mut seen = Vec::with_capacity(given.len());
        let mut missing = Vec::new();
        for (name, keypoints, bboxes) in given {
            match library::model_keypoints(keypoints, &bboxes) {
                Some(keypoints) => seen.push((name, keypoints)),
                None => missing.push(name),
            }
        }
        let coco = library::annotations(seen, size);
        let bytes = serde_json::to_vec(&coco)
            .map_err(|e| Failure::message(e.to_string(), Some(&out_dir)))?;
        rigport::output::write_atomic_unsynced(&out_dir.join(library::ANNOTATIONS), &bytes)?;
        Ok(missing)
    })
}
