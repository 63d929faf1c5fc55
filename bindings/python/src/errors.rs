//! Failures and how they reach Python: `RigportError` with its location attributes, the
//! `OSError` family, `FileExistsError` and `ValueError`; the interpreter lock released around
//! work, panics caught; the command's output rule for files written.

use pyo3::create_exception;
use pyo3::exceptions::{
    PyException, PyFileExistsError, PyFileNotFoundError, PyIsADirectoryError, PyOSError,
    PyPermissionError, PyValueError,
};
use pyo3::prelude::*;
use rigport::output::OutputError;
use rigport_model_core::codec::Location;
use std::path::{Path, PathBuf};

create_exception!(
    rigport,
    RigportError,
    PyException,
    "A file rigport could not read, convert, pose or draw.\n\n\
     Attributes (None when unknown): ``offset`` (byte offset, binary formats), ``line`` and\n\
     ``column`` (1-based, text formats and glTF JSON), ``path`` (the file the error is about)."
);

/// Why a call failed, before it becomes a Python exception (built without the interpreter
/// lock, raised with it).
#[derive(Debug)]
pub(crate) enum Failure {
    /// `RigportError`.
    Rigport {
        message: String,
        location: Location,
        path: Option<String>,
    },
    /// A file system error about `path` (`FileNotFoundError`, `PermissionError`, …).
    Io {
        error: std::io::Error,
        path: PathBuf,
    },
    /// An output that exists, without `force`.
    Exists(PathBuf),
    /// A bad argument.
    Value(String),
}

impl Failure {
    /// A `RigportError` with no location.
    pub(crate) fn message(message: impl Into<String>, path: Option<&Path>) -> Self {
        Failure::Rigport {
            message: message.into(),
            location: Location::Unknown,
            path: path.map(|p| p.display().to_string()),
        }
    }

    /// A facade error about `input` (the bytes read from `path`).
    pub(crate) fn rigport(error: &rigport::Error, input: &[u8], path: Option<&Path>) -> Self {
        let file = error.file().or(path);
        Failure::Rigport {
            message: error.to_string(),
            location: error.location(input),
            path: file.map(|p| p.display().to_string()),
        }
    }

    /// A picture's or a dataset's error about `input`: the facade's as [`Failure::rigport`],
    /// the drawing's by its message.
    pub(crate) fn dataset(
        error: &rigport_dataset::Error,
        input: &[u8],
        path: Option<&Path>,
    ) -> Self {
        match error {
            rigport_dataset::Error::Read(error) => Self::rigport(error, input, path),
            other => Failure::Rigport {
                message: other.to_string(),
                location: Location::Unknown,
                path: path.map(|p| p.display().to_string()),
            },
        }
    }

    pub(crate) fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            Failure::Rigport {
                message,
                location,
                path,
            } => {
                let error = RigportError::new_err(message);
                let value = error.value(py);
                let (offset, line, column) = match location {
                    Location::Offset(offset) => (Some(offset), None, None),
                    Location::Text { line, column } => (None, Some(line), Some(column)),
                    _ => (None, None, None),
                };
                // Setting attributes on a fresh exception object cannot fail in practice;
                // if it did, the exception still carries its message.
                let _ = value.setattr("offset", offset);
                let _ = value.setattr("line", line);
                let _ = value.setattr("column", column);
                let _ = value.setattr("path", path);
                error
            }
            Failure::Io { error, path } => {
                let args = (
                    error.raw_os_error().unwrap_or(0),
                    error.to_string(),
                    path.display().to_string(),
                );
                match error.kind() {
                    std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(args),
                    std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(args),
                    std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(args),
                    _ => PyOSError::new_err(args),
                }
            }
            Failure::Exists(path) => PyFileExistsError::new_err((
                17,
                format!(
                    "{} already exists (use force=True to overwrite)",
                    path.display()
                ),
                path.display().to_string(),
            )),
            Failure::Value(message) => PyValueError::new_err(message),
        }
    }
}

/// Runs `work` without the interpreter lock, a panic turned into a `RigportError`, and
/// raises its failure.
pub(crate) fn detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, Failure> + Send,
) -> PyResult<T> {
    let result = py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Failure::message(format!("internal error: {what}"), None))
        })
    });
    result.map_err(|failure| failure.into_pyerr(py))
}

/// The bytes of a file.
pub(crate) fn read_input(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|error| Failure::Io {
        error,
        path: path.to_path_buf(),
    })
}

/// The files `paths` name, folders searched as batches search them
/// ([`rigport::batch::collect_inputs`]); `FileNotFoundError` for a path that does not exist.
pub(crate) fn collect_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    if let Some(missing) = paths.iter().find(|p| !p.exists()) {
        return Err(Failure::Io {
            error: std::io::Error::from(std::io::ErrorKind::NotFound),
            path: missing.clone(),
        });
    }
    rigport::batch::collect_inputs(paths).map_err(Failure::Value)
}

/// The `rigport` command's output rule ([`rigport::output::check_target`]): never over the
/// input, over an existing file only with `force`.
pub(crate) fn check_target(path: &Path, input: Option<&Path>, force: bool) -> Result<(), Failure> {
    Ok(rigport::output::check_target(
        path,
        input.as_slice(),
        force,
    )?)
}

/// Writes a file as the `rigport` command does ([`rigport::output::write_atomic`]).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    Ok(rigport::output::write_atomic(path, bytes)?)
}

impl From<OutputError> for Failure {
    fn from(error: OutputError) -> Self {
        match error {
            OutputError::Exists(path) => Failure::Exists(path),
            OutputError::IsInput(ref path) => Failure::message(error.to_string(), Some(path)),
            OutputError::Io { path, source } => Failure::Io {
                error: source,
                path,
            },
        }
    }
}
