//! What files and this build hold: `rigport.info` (the `rigport info --json` object),
//! `rigport.formats` and `rigport.plan_batch` (the batch walk and output names).

use crate::errors::{Failure, detached, read_input};
use crate::values::json_to_py;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rigport::{Format, ReadOptions};
use std::path::PathBuf;

/// What a file holds: the dict ``rigport info --json FILE`` prints (file, format, counts,
/// warnings).
#[pyfunction]
#[pyo3(signature = (path, *, strict = false))]
pub(crate) fn info<'py>(
    py: Python<'py>,
    path: PathBuf,
    strict: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let json = detached(py, move || {
        let bytes = read_input(&path)?;
        let options = ReadOptions {
            strict,
            ..ReadOptions::default()
        };
        // What `rigport info --json` prints: the summary and the textures found beside it.
        let dir = rigport::batch::input_dir(&path);
        let info = rigport::info::inspect(&bytes, Some(&dir), None, &options)
            .map_err(|e| Failure::rigport(&e, &bytes, Some(&path)))?;
        Ok(rigport::info::info_json(&path.display().to_string(), &info))
    })?;
    json_to_py(py, &json)
}

/// One input of a batch plan: input, output or None, clash message or None.
pub(crate) type PlannedRow = (String, Option<String>, Option<String>);

/// Plans a batch run as ``rigport convert|render INPUTS... -o DIR`` does: the readable
/// files below `paths` (folders recursed, sorted), each with its output
/// ``out_dir/<stem>.<extension>`` or, when an earlier input already writes that output, the
/// error saying so. Returns ``(input, output, error)`` tuples (one of the last two None).
/// Raises ``FileNotFoundError`` for a path that does not exist.
#[pyfunction]
#[pyo3(
    signature = (paths, out_dir, extension, verb = String::from("convert")),
    text_signature = "(paths, out_dir, extension, verb=\"convert\")"
)]
pub(crate) fn plan_batch(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    out_dir: PathBuf,
    extension: String,
    verb: String,
) -> PyResult<Vec<PlannedRow>> {
    detached(py, move || {
        let inputs = crate::errors::collect_inputs(&paths)?;
        let planned = rigport::batch::plan(&inputs, &out_dir, &extension, &verb);
        Ok(planned
            .into_iter()
            .map(|p| {
                let input = p.input.display().to_string();
                match p.output {
                    Ok(output) => (input, Some(output.display().to_string()), None),
                    Err(clash) => (input, None, Some(clash)),
                }
            })
            .collect())
    })
}

/// What a batch over `paths` passes over, for `rigport.distributed`: the files skipped as
/// ``(path, reason)``, the summary line (``17 skipped: .fbx (17), not a format rigport
/// reads``) or None, and, when nothing below `paths` can be worked on (`verb`: "convert",
/// "render"), the message saying so, else None. Raises ``ValueError`` for a folder that
/// cannot be listed.
#[pyfunction]
#[pyo3(signature = (paths, verb = String::from("convert")))]
pub(crate) fn batch_skipped(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    verb: String,
) -> PyResult<SkippedFiles> {
    detached(py, move || {
        let collected = rigport::batch::collect(&paths).map_err(Failure::Value)?;
        let files = collected
            .skipped
            .iter()
            .map(|s| (s.path.display().to_string(), s.reason.to_owned()))
            .collect();
        Ok((
            files,
            collected.skipped_summary(),
            collected.nothing_to(&paths, &verb),
        ))
    })
}

/// What [`batch_skipped`] returns.
pub(crate) type SkippedFiles = (Vec<(String, String)>, Option<String>, Option<String>);

/// The formats this build knows, in the registry's order: key → (family, description, usual
/// extension, every extension, reads, writes, animation only).
#[pyfunction]
pub(crate) fn formats<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for format in Format::ALL {
        let entry = PyDict::new(py);
        entry.set_item("family", format.family())?;
        entry.set_item("description", format.description())?;
        entry.set_item("extension", format.extension())?;
        entry.set_item(
            "extensions",
            format.info().map_or(&[][..], |info| info.extensions),
        )?;
        entry.set_item("animation_only", format.is_animation_only())?;
        entry.set_item("reads", format.can_read())?;
        entry.set_item("writes", format.can_write())?;
        dict.set_item(format.key(), entry)?;
    }
    Ok(dict)
}
