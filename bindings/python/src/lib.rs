//! The native half of the `rigport` Python package (`rigport._rigport`): a thin skin over
//! the `rigport` facade crate. Every format rule lives in the facade and the format crates;
//! this crate only moves values between Rust and Python:
//!
//! * reading (`read`, `read_bytes`) gives a `Model` whose meshes carry numpy arrays;
//! * `convert`, `Model.save`, `info` and `render` build the same
//!   `rigport::pipeline::Settings`, `rigport::info` summary and `rigport_dataset::picture` request as
//!   the `rigport` command with the same options, so they write the same bytes;
//! * `render_views` draws an orbit through `rigport_dataset::picture::Prepared::orbit_set`, as
//!   `rigport render --orbit N` does, and gives its pictures, cameras and keypoints as numpy
//!   arrays; the library helpers behind `rigport.distributed.render_all(..., orbit=N)` write
//!   the command's dataset by the layout and `--resume` rule of `rigport_dataset::library`;
//! * every failure is a Python exception: `RigportError` (with `.offset`, `.line`,
//!   `.column` and `.path` where known), `FileNotFoundError` and the other `OSError`s,
//!   `FileExistsError` for an output that exists without `force=True`, `ValueError` for
//!   bad arguments. A panic is caught and raised as `RigportError`.
//!
//! The interpreter lock is released while files are read, converted, posed and drawn.
//!
//! Used from Python (the package's tests run this; see `bindings/python/README.md`):
//!
//! ```python
//! import rigport
//! model = rigport.read("fixtures/ms3d/rig_full.ms3d")
//! posed = model.pose(0, time=0.5)          # one float32 (n, 3) array per mesh
//! rigport.convert("fixtures/ms3d/rig_full.ms3d", "/tmp/rig_full.glb", force=True)
//! ```

mod convert;
mod errors;
mod info;
mod library;
mod model;
mod render;
mod values;
mod views;

use pyo3::prelude::*;

/// rigport's native module: read, pose, convert and draw skeletal models in every format
/// ``formats()`` lists. Import ``rigport``, not this module.
#[pymodule]
fn _rigport(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let error = py.get_type::<errors::RigportError>();
    for attribute in ["offset", "line", "column", "path"] {
        error.setattr(attribute, py.None())?;
    }
    m.add("RigportError", error)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<model::PyModel>()?;
    m.add_class::<model::PyMesh>()?;
    m.add_class::<model::PyMaterial>()?;
    m.add_class::<model::PyJoint>()?;
    m.add_class::<model::PyAnimation>()?;
    m.add_function(wrap_pyfunction!(model::read, m)?)?;
    m.add_function(wrap_pyfunction!(model::read_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(convert::convert, m)?)?;
    m.add_function(wrap_pyfunction!(info::info, m)?)?;
    m.add_function(wrap_pyfunction!(render::render, m)?)?;
    m.add_function(wrap_pyfunction!(info::formats, m)?)?;
    m.add_function(wrap_pyfunction!(info::plan_batch, m)?)?;
    m.add_function(wrap_pyfunction!(info::batch_skipped, m)?)?;
    m.add_class::<views::PyViews>()?;
    m.add_function(wrap_pyfunction!(views::render_views, m)?)?;
    m.add_function(wrap_pyfunction!(library::plan_library, m)?)?;
    m.add_function(wrap_pyfunction!(library::render_model, m)?)?;
    m.add_function(wrap_pyfunction!(library::manifest_failure, m)?)?;
    m.add_function(wrap_pyfunction!(library::write_annotations, m)?)?;
    Ok(())
}
