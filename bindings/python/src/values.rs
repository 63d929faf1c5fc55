//! Rust values as Python sees them: reports as lists of dicts, JSON as `json.loads` gives
//! it, flat vectors as numpy arrays.

use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rigport::Report;

/// A report as Python sees it: one dict per notice, `code`, `message`, `severity`.
pub(crate) fn report_list<'py>(py: Python<'py>, report: &Report) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for notice in &report.notices {
        let entry = PyDict::new(py);
        entry.set_item("code", notice.code.key())?;
        entry.set_item("message", &notice.message)?;
        entry.set_item("severity", notice.severity.to_string())?;
        list.append(entry)?;
    }
    Ok(list)
}

/// A JSON value as the Python value `json.loads` would give.
pub(crate) fn json_to_py<'py>(
    py: Python<'py>,
    value: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// An `(n, width)` float32 array from a flat vector.
pub(crate) fn matrix<T: numpy::Element>(
    py: Python<'_>,
    flat: Vec<T>,
    width: usize,
) -> PyResult<Py<PyArray2<T>>> {
    let rows = flat.len() / width;
    let array = Array2::from_shape_vec((rows, width), flat)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(array.into_pyarray(py).unbind())
}

/// `Some(3)` as Python writes it (`3`), `None` as `None`.
pub(crate) fn py_option<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "None".to_owned(), |v| v.to_string())
}

/// A float32 vector.
pub(crate) fn vector(py: Python<'_>, values: &[f32]) -> Py<PyArray1<f32>> {
    Array1::from_vec(values.to_vec()).into_pyarray(py).unbind()
}

/// A Python value as JSON: None, bool, int, float, str, lists and tuples, dicts with str keys
/// (what ``json.loads`` gives); floats keep every bit.
pub(crate) fn py_to_json(value: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    use pyo3::types::{PyBool, PyFloat, PyInt, PyString, PyTuple};
    use serde_json::Value;
    Ok(if value.is_none() {
        Value::Null
    } else if let Ok(b) = value.cast::<PyBool>() {
        Value::Bool(b.is_true())
    } else if value.is_instance_of::<PyInt>() {
        match value.extract::<i64>() {
            Ok(i) => Value::from(i),
            Err(_) => Value::from(value.extract::<u64>()?),
        }
    } else if let Ok(f) = value.cast::<PyFloat>() {
        serde_json::Number::from_f64(f.value()).map_or(Value::Null, Value::Number)
    } else if value.is_instance_of::<PyString>() {
        Value::String(value.extract::<String>()?)
    } else if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = serde_json::Map::new();
        for (key, item) in dict.iter() {
            map.insert(key.extract::<String>()?, py_to_json(&item)?);
        }
        Value::Object(map)
    } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        Value::Array(
            value
                .try_iter()?
                .map(|item| py_to_json(&item?))
                .collect::<PyResult<_>>()?,
        )
    } else {
        return Err(PyValueError::new_err(format!(
            "not a JSON value: {}",
            value.get_type().name()?
        )));
    })
}
