//! Why a file could not be read, converted or written — one enum for the whole facade, whose
//! read and conversion variants carry the codec's error ([`FormatError`]: the format, where,
//! the message, the format crate's own error as its source).

use crate::registry::Format;
use rigport_model_core::codec::Location;
use std::path::{Path, PathBuf};

/// The error of a format's codec: the format, where, the message, and the format crate's
/// own error as its source.
pub use rigport_model_core::codec::FormatError;

/// The codec's error as a person should see it when no input is at hand to draw a line
/// from: the format crate's own rendering, else the one-line message.
fn shown(error: &FormatError) -> String {
    error.rendered.clone().unwrap_or_else(|| error.to_string())
}

/// Why a file could not be read, converted or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No readable format's signature is at the start of the bytes.
    #[error(
        "not a file of a format rigport reads ({}): no known signature at the start",
        crate::registry::readable_keys()
    )]
    Unrecognized,
    /// The format is export-only (OBJ).
    #[error("rigport cannot read {0} files")]
    NotReadable(Format),
    /// This build of the `rigport` crate leaves the format's cargo feature out.
    #[error("this build of rigport leaves out {format} (cargo feature `{}`)", .format.feature())]
    NotEnabled {
        /// The format asked for.
        format: Format,
    },
    /// The file does not read as its format. `rendered` is the message as a person should
    /// see it: for text formats the offending line with a caret under the column.
    #[error("{rendered}")]
    Read {
        /// The format the file was read as.
        format: Format,
        /// The codec's error, with its location.
        #[source]
        source: Box<FormatError>,
        /// The error rendered against the input (line:column and the line, for text).
        rendered: String,
    },
    /// The file read, but cannot become a neutral model.
    #[error("{}", shown(.source))]
    ToModel {
        /// The format of the file.
        format: Format,
        /// The codec's error.
        #[source]
        source: Box<FormatError>,
    },
    /// The model cannot be written in the target format (a format limit, never a silent
    /// truncation).
    #[error("{}", shown(.source))]
    FromModel {
        /// The target format.
        format: Format,
        /// The codec's error.
        #[source]
        source: Box<FormatError>,
    },
    /// The animations of another file do not fit the model's skeleton (see
    /// [`crate::attach`]); the message names the file and the mismatch.
    #[error("{0}")]
    Attach(String),
    /// The pose asked for (of an OBJ export or a picture) names no pose of the model.
    #[error(transparent)]
    Pose(#[from] rigport_anim::request::RequestError),
    /// The output's companion file (`.bin` beside a `.gltf`, `.mtl` beside an `.obj`) would
    /// have the output's own name.
    #[error(
        "{} would also be the name of its companion file; choose an output ending in .{}",
        .output.display(),
        .format.extension()
    )]
    CompanionClash {
        /// The output path asked for.
        output: PathBuf,
        /// The target format.
        format: Format,
    },
}

impl Error {
    /// Where in `input` (the bytes that were read) the error is: a byte offset for binary
    /// formats and a `.glb`'s container, a line and column for text formats and glTF's
    /// JSON, [`Location::Unknown`] when the error is not about one place of the input.
    /// (The codec located the error against `input` when it read it.)
    pub fn location(&self, input: &[u8]) -> Location {
        let _ = input;
        match self {
            Error::Read { source, .. } | Error::ToModel { source, .. } => source.location,
            _ => Location::Unknown,
        }
    }

    /// The file other than the input the error is about (an external buffer or image a
    /// `.gltf` names that could not be read), when there is one.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Error::Read { source, .. } | Error::ToModel { source, .. } => source.file.as_deref(),
            _ => None,
        }
    }
}
