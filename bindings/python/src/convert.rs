//! `rigport.convert` (and `Model.save`): the `rigport::pipeline` settings of `rigport
//! convert` with the same options, and the files written by the command's output rule.

use crate::errors::{Failure, check_target, detached, read_input, write_atomic};
use crate::values::report_list;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rigport::attach::AnimationSource;
use rigport::batch::input_dir;
use rigport::pipeline::{self, PoseRequest, Settings};
use rigport::{Format, ReadOptions, Report};
use std::path::{Path, PathBuf};

/// The options of one conversion, as `rigport convert` takes them.
pub(crate) struct ConvertRequest {
    pub(crate) to: Option<String>,
    pub(crate) force: bool,
    pub(crate) keep_axes: bool,
    pub(crate) with_anims: Vec<PathBuf>,
    pub(crate) concat_animations: bool,
    pub(crate) embed_textures: bool,
    pub(crate) fps: f32,
    pub(crate) strict: bool,
    pub(crate) anims_beside: bool,
}

impl ConvertRequest {
    /// Converts `bytes` (read from `input`, when it came from a file) to `output` and writes
    /// the files, as `rigport convert INPUT OUTPUT` does.
    pub(crate) fn run(
        &self,
        bytes: &[u8],
        input: Option<&Path>,
        label: &str,
        output: &Path,
    ) -> Result<Report, Failure> {
        let target = match &self.to {
            Some(key) => Format::from_key(key).ok_or_else(|| {
                let keys: Vec<&str> = Format::ALL.iter().map(|f| f.key()).collect();
                Failure::Value(format!(
                    "unknown format `{key}`: use one of {}",
                    keys.join(", ")
                ))
            })?,
            None => Format::from_extension(output).ok_or_else(|| {
                Failure::Value(format!(
                    "cannot tell the output format from {}; use to=",
                    output.display()
                ))
            })?,
        };
        if !pipeline::is_valid_fps(self.fps) {
            return Err(Failure::Value(format!(
                "fps={} is not a frame rate above 0 and at most {}",
                self.fps,
                pipeline::MAX_FPS
            )));
        }
        let read = ReadOptions {
            strict: self.strict,
            animations_beside: self.anims_beside,
            ..ReadOptions::default()
        };
        let mut animations = Vec::with_capacity(self.with_anims.len());
        for path in &self.with_anims {
            std::fs::metadata(path).map_err(|error| Failure::Io {
                error,
                path: path.clone(),
            })?;
            let source = AnimationSource::read(path, &read)
                .map_err(|message| Failure::message(message, Some(path)))?;
            animations.push(source);
        }
        let settings = Settings {
            read,
            animations,
            pose: PoseRequest::default(),
            keep_texture_uris: !self.embed_textures,
            concat_animations: self.concat_animations,
            keep_axes: self.keep_axes,
            source_dir: input.map(input_dir),
            source_name: input
                .and_then(Path::file_name)
                .and_then(|n| n.to_str())
                .map(str::to_owned),
            beside: None,
            fps: self.fps,
        };
        check_target(output, input, self.force)?;
        let converted = pipeline::convert(bytes, output, target, &settings)
            .map_err(|e| Failure::rigport(&e, bytes, Some(Path::new(label))))?;
        for (path, _) in &converted.files {
            check_target(path, input, self.force)?;
        }
        for (path, content) in &converted.files {
            write_atomic(path, content)?;
        }
        Ok(converted.report)
    }
}

/// Converts the file `src` into `dst`, writing what ``rigport convert SRC DST`` writes with
/// the same options (byte for byte): the format comes from `to` (a key: ``"glb"``,
/// ``"gltf"``, ``"iqm"``, ``"iqe"``, ``"ms3d"``, ``"ms3d-ascii"``, ``"obj"``) or from `dst`'s
/// extension; companions (``.bin``, textures, ``.mtl``) are written beside `dst`.
///
/// Options: `force` overwrites existing outputs, `keep_axes` keeps the source's up axis,
/// `with_anims` attaches the animations of other files, `concat_animations` lays every
/// animation on one timeline (MilkShape), `embed_textures` embeds images in glTF output,
/// `fps` is the resampling rate of cubic-spline animations, `strict` turns warnings into
/// errors, `anims_beside` attaches the animation files beside `src` that fit its skeleton
/// (``rigport convert --anims-beside``). Returns the report: a list of dicts with ``code``, ``message``, ``severity``
/// (``"info"``, ``"warning"`` or ``"loss"``).
#[pyfunction]
#[pyo3(
    signature = (src, dst, *, to = None, force = false, keep_axes = false, with_anims = Vec::new(), concat_animations = false, embed_textures = true, fps = 30.0, strict = false, anims_beside = false),
    text_signature = "(src, dst, *, to=None, force=False, keep_axes=False, with_anims=(), concat_animations=False, embed_textures=True, fps=30.0, strict=False, anims_beside=False)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn convert<'py>(
    py: Python<'py>,
    src: PathBuf,
    dst: PathBuf,
    to: Option<String>,
    force: bool,
    keep_axes: bool,
    with_anims: Vec<PathBuf>,
    concat_animations: bool,
    embed_textures: bool,
    fps: f32,
    strict: bool,
    anims_beside: bool,
) -> PyResult<Bound<'py, PyList>> {
    let request = ConvertRequest {
        to,
        force,
        keep_axes,
        with_anims,
        concat_animations,
        embed_textures,
        fps,
        strict,
        anims_beside,
    };
    let report = detached(py, move || {
        let bytes = read_input(&src)?;
        request.run(&bytes, Some(&src), &src.display().to_string(), &dst)
    })?;
    report_list(py, &report)
}
