//! Why a file could not be read, converted or written — one enum for the whole facade, whose
//! read and conversion variants carry the format crate's own error.

use crate::format::Format;
use rigport_model_core::codec::Location;
use std::path::{Path, PathBuf};

/// Why a file could not be read, converted or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No readable format's signature is at the start of the bytes.
    #[error(
        "not a MilkShape 3D (binary or ASCII), Inter-Quake Export, Inter-Quake Model, glTF 2.0, \
         MD5 or SMD file: no known signature at the start"
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
        /// The format crate's error, with its byte offset or span.
        #[source]
        source: FormatError,
        /// The error rendered against the input (line:column and the line, for text).
        rendered: String,
    },
    /// The file read, but cannot become a neutral model.
    #[error("{source}")]
    ToModel {
        /// The format of the file.
        format: Format,
        /// The format crate's error.
        #[source]
        source: FormatError,
    },
    /// The model cannot be written in the target format (a format limit, never a silent
    /// truncation).
    #[error("{source}")]
    FromModel {
        /// The target format.
        format: Format,
        /// The format crate's error.
        #[source]
        source: FormatError,
    },
    /// The animations of another file do not fit the model's skeleton (see
    /// [`crate::attach`]); the message names the file and the mismatch.
    #[error("{0}")]
    Attach(String),
    /// The glTF exporter refused the model.
    #[cfg(feature = "gltf")]
    #[error(transparent)]
    Gltf(#[from] rigport_gltf::Error),
    /// The pose asked for (of an OBJ export or a picture) names no pose of the model.
    #[error(transparent)]
    Pose(#[from] rigport_anim::request::RequestError),
    /// The OBJ pose could not be applied.
    #[cfg(feature = "obj")]
    #[error(transparent)]
    Obj(#[from] rigport_obj::Error),
    /// The picture could not be drawn (no triangles, bad size, no animation for a sheet…).
    #[cfg(feature = "render")]
    #[error(transparent)]
    Render(#[from] rigport_render::RenderError),
    /// The drawn picture could not be encoded as PNG.
    #[cfg(feature = "render")]
    #[error("cannot encode the PNG: {0}")]
    Png(#[source] rigport_render::image::ImageError),
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
    pub fn location(&self, input: &[u8]) -> Location {
        match self {
            Error::Read { source, .. } | Error::ToModel { source, .. } => source.location(input),
            _ => Location::Unknown,
        }
    }

    /// The file other than the input the error is about (an external buffer or image a
    /// `.gltf` names that could not be read), when there is one.
    pub fn file(&self) -> Option<&Path> {
        match self {
            #[cfg(feature = "gltf")]
            Error::Read {
                source: FormatError::Gltf(error),
                ..
            }
            | Error::ToModel {
                source: FormatError::Gltf(error),
                ..
            } => match **error {
                rigport_gltf::import::ImportError::MissingFile { ref path, .. } => Some(path),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The error of one format crate, as it came (offsets and spans included).
#[derive(Debug)]
#[non_exhaustive]
pub enum FormatError {
    /// From `rigport-ms3d-bin`.
    #[cfg(feature = "ms3d")]
    Ms3d(rigport_ms3d_bin::Error),
    /// From `rigport-ms3d-ascii`.
    #[cfg(feature = "ms3d-ascii")]
    Ms3dAscii(rigport_ms3d_ascii::Error),
    /// From `rigport-iqe`.
    #[cfg(feature = "iqe")]
    Iqe(rigport_iqe::Error),
    /// From `rigport-iqm` (boxed: its offsets and counts would make every `Result` of the
    /// facade larger).
    #[cfg(feature = "iqm")]
    Iqm(Box<rigport_iqm::Error>),
    /// From `rigport-gltf`'s import (boxed, like IQM's: it names offsets, URIs and paths).
    #[cfg(feature = "gltf")]
    Gltf(Box<rigport_gltf::import::ImportError>),
    /// From a format crate that implements the shared
    /// [`Codec`](rigport_model_core::codec::Codec) trait (MD5, SMD), with its location.
    Codec(Box<rigport_model_core::codec::FormatError>),
}

// Written by hand, not derived: with no format feature the enum is empty, and the matches
// below must then have no arms. It is a transparent wrapper: Display is the inner error's,
// and so is the source chain.
impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            #[cfg(feature = "ms3d")]
            FormatError::Ms3d(ref e) => e.fmt(f),
            #[cfg(feature = "ms3d-ascii")]
            FormatError::Ms3dAscii(ref e) => e.fmt(f),
            #[cfg(feature = "iqe")]
            FormatError::Iqe(ref e) => e.fmt(f),
            #[cfg(feature = "iqm")]
            FormatError::Iqm(ref e) => e.fmt(f),
            #[cfg(feature = "gltf")]
            FormatError::Gltf(ref e) => e.fmt(f),
            FormatError::Codec(ref e) => e.fmt(f),
        }
    }
}

impl FormatError {
    /// Where in `input` (the bytes the format crate read) the error is; see
    /// [`Error::location`].
    pub fn location(&self, input: &[u8]) -> Location {
        let _ = input; // unused when no format is built in
        let offset = |offset: Option<u64>| offset.map_or(Location::Unknown, Location::Offset);
        let text = |span: Option<std::ops::Range<usize>>| {
            span.map_or(Location::Unknown, |span| {
                Location::in_text(input, span.start)
            })
        };
        let _ = (&offset, &text); // unused when only codec-based formats are built in
        match *self {
            #[cfg(feature = "ms3d")]
            FormatError::Ms3d(ref e) => offset(e.offset()),
            #[cfg(feature = "ms3d-ascii")]
            FormatError::Ms3dAscii(ref e) => text(e.span()),
            #[cfg(feature = "iqe")]
            FormatError::Iqe(ref e) => text(e.span()),
            #[cfg(feature = "iqm")]
            FormatError::Iqm(ref e) => offset(e.offset()),
            #[cfg(feature = "gltf")]
            FormatError::Gltf(ref e) => match **e {
                // The JSON text's own line and column (inside a `.glb`, counted from the
                // start of its JSON chunk, as the rendered message shows them).
                rigport_gltf::import::ImportError::Json {
                    offset, json_start, ..
                } => {
                    let start =
                        usize::try_from(json_start).map_or(input.len(), |s| s.min(input.len()));
                    let at = usize::try_from(offset)
                        .unwrap_or(usize::MAX)
                        .saturating_sub(start);
                    Location::in_text(&input[start..], at)
                }
                ref other => offset(other.offset()),
            },
            FormatError::Codec(ref e) => e.location,
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match *self {
            #[cfg(feature = "ms3d")]
            FormatError::Ms3d(ref e) => e.source(),
            #[cfg(feature = "ms3d-ascii")]
            FormatError::Ms3dAscii(ref e) => e.source(),
            #[cfg(feature = "iqe")]
            FormatError::Iqe(ref e) => e.source(),
            #[cfg(feature = "iqm")]
            FormatError::Iqm(ref e) => e.source(),
            #[cfg(feature = "gltf")]
            FormatError::Gltf(ref e) => e.source(),
            FormatError::Codec(ref e) => e.source(),
        }
    }
}
