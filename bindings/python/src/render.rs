//! `rigport.render`: one picture or a contact sheet as `rigport render SRC PNG` draws it.

use crate::errors::{Failure, check_target, detached, read_input, write_atomic};
use crate::model::Which;
use crate::values::report_list;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use rigport::ReadOptions;
use rigport::batch::input_dir;
use rigport::pipeline::PoseRequest;
use std::path::PathBuf;

/// A picture size: one side for a square, or (width, height).
#[derive(FromPyObject)]
pub(crate) enum Size {
    Square(u32),
    Sides(u32, u32),
}

/// A background colour: ``"RRGGBB"`` (``#`` allowed) or (r, g, b) bytes.
#[derive(FromPyObject)]
pub(crate) enum Colour {
    Hex(String),
    Rgb(u8, u8, u8),
}

/// Draws the model in `src` posed, as ``rigport render SRC PNG`` does, and writes the PNG.
///
/// `size` is one side or (width, height) (of each cell of a sheet); `view` is ``"front"``,
/// ``"back"``, ``"left"``, ``"right"``, ``"top"`` or ``"iso"``; `animation` (index or name)
/// and `time` (seconds) pick the pose; ``sheet=N`` draws N frames of the animation in a
/// grid; `background` is ``"RRGGBB"`` or (r, g, b); `wire` overlays the edges. Textures are
/// looked up beside `src`. Returns the report (list of dicts, as ``convert``).
#[pyfunction]
#[pyo3(
    signature = (src, png, *, size = Size::Square(512), view = String::from("iso"), animation = None, time = None, sheet = None, background = None, wire = false, force = false, strict = false),
    text_signature = "(src, png, *, size=512, view=\"iso\", animation=None, time=None, sheet=None, background=None, wire=False, force=False, strict=False)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn render<'py>(
    py: Python<'py>,
    src: PathBuf,
    png: PathBuf,
    size: Size,
    view: String,
    animation: Option<Which>,
    time: Option<f32>,
    sheet: Option<u32>,
    background: Option<Colour>,
    wire: bool,
    force: bool,
    strict: bool,
) -> PyResult<Bound<'py, PyList>> {
    use rigport_dataset::picture::{PictureRequest, RenderOptions, Rgb, View, render_png};
    let (width, height) = match size {
        Size::Square(side) => (side, side),
        Size::Sides(w, h) => (w, h),
    };
    let view: View = view
        .parse()
        .map_err(|e: rigport_dataset::picture::RenderError| PyValueError::new_err(e.to_string()))?;
    let defaults = RenderOptions::default();
    let background = match background {
        None => defaults.background,
        Some(Colour::Rgb(r, g, b)) => Rgb([r, g, b]),
        Some(Colour::Hex(hex)) => {
            hex.parse()
                .map_err(|e: rigport_dataset::picture::RenderError| {
                    PyValueError::new_err(e.to_string())
                })?
        }
    };
    if time.is_some() && sheet.is_some() {
        return Err(PyValueError::new_err(
            "time and sheet exclude each other: a sheet spans the whole animation",
        ));
    }
    if sheet.is_some_and(|n| !(1..=4096).contains(&n)) {
        return Err(PyValueError::new_err("sheet must be between 1 and 4096"));
    }
    let request = PictureRequest {
        read: ReadOptions {
            strict,
            ..ReadOptions::default()
        },
        options: RenderOptions {
            width,
            height,
            view,
            background,
            wire,
            ..defaults
        },
        pose: PoseRequest {
            time,
            frame: None,
            anim: animation.map(|a| a.as_request()),
        },
        sheet,
    };
    let report = detached(py, move || {
        check_target(&png, Some(&src), force)?;
        let bytes = read_input(&src)?;
        let (picture, report) = render_png(&bytes, &input_dir(&src), &request)
            .map_err(|e| Failure::dataset(&e, &bytes, Some(&src)))?;
        write_atomic(&png, &picture)?;
        Ok(report)
    })?;
    report_list(py, &report)
}
