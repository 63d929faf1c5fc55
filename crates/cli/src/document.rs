//! A model file read through its format crate's faithful layer, whatever the format.

use crate::formats::Format;
use rigport_model_core::{FileSummary, Model, ReadOptions, Report};

/// A file read faithfully, in one of the readable formats.
// One document lives per file being processed, never in bulk, so the size difference between
// variants costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Document {
    /// MilkShape 3D binary.
    Ms3d(rigport_ms3d_bin::File),
    /// MilkShape 3D ASCII.
    Ms3dAscii(rigport_ms3d_ascii::File),
    /// Inter-Quake Export.
    Iqe(rigport_iqe::File),
    /// Inter-Quake Model.
    Iqm(rigport_iqm::File),
}

/// Why a file could not be read or converted. The message names the offset or line:column.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ReadError {
    /// The rendered message (for text formats, with the offending line drawn).
    pub message: String,
}

/// Detects a readable format from the content (magic), not the extension.
pub fn sniff(bytes: &[u8]) -> Option<Format> {
    if rigport_ms3d_bin::sniff(bytes) {
        Some(Format::Ms3d)
    } else if rigport_iqm::sniff(bytes) {
        Some(Format::Iqm)
    } else if rigport_iqe::sniff(bytes) {
        Some(Format::Iqe)
    } else if rigport_ms3d_ascii::sniff(bytes) {
        Some(Format::Ms3dAscii)
    } else {
        None
    }
}

impl Document {
    /// Reads `bytes` as `format`.
    pub fn read(
        bytes: &[u8],
        format: Format,
        options: &ReadOptions,
    ) -> Result<(Document, Report), ReadError> {
        match format {
            Format::Ms3d => rigport_ms3d_bin::File::from_slice_with(bytes, options)
                .map(|(f, r)| (Document::Ms3d(f), r))
                .map_err(|e| ReadError {
                    message: e.to_string(),
                }),
            Format::Ms3dAscii => rigport_ms3d_ascii::File::from_slice_with(bytes, options)
                .map(|(f, r)| (Document::Ms3dAscii(f), r))
                .map_err(|e| ReadError {
                    message: e.render(bytes),
                }),
            Format::Iqe => rigport_iqe::File::from_slice_with(bytes, options)
                .map(|(f, r)| (Document::Iqe(f), r))
                .map_err(|e| ReadError {
                    message: e.render(bytes),
                }),
            Format::Iqm => rigport_iqm::File::from_slice_with(bytes, options)
                .map(|(f, r)| (Document::Iqm(f), r))
                .map_err(|e| ReadError {
                    message: e.to_string(),
                }),
            other => Err(ReadError {
                message: format!("rigport cannot read {} files", other.key()),
            }),
        }
    }

    /// Detects the format and reads the file.
    pub fn sniff_and_read(
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Result<(Document, Report), ReadError> {
        let format = sniff(bytes).ok_or_else(|| ReadError {
            message: "not a MilkShape 3D (binary or ASCII), Inter-Quake Export or Inter-Quake Model file: \
                      no known signature at the start"
                .to_owned(),
        })?;
        Self::read(bytes, format, options)
    }

    /// The format this document was read as.
    pub fn format(&self) -> Format {
        match self {
            Document::Ms3d(_) => Format::Ms3d,
            Document::Ms3dAscii(_) => Format::Ms3dAscii,
            Document::Iqe(_) => Format::Iqe,
            Document::Iqm(_) => Format::Iqm,
        }
    }

    /// Counts and details for `rigport info`.
    pub fn summary(&self) -> FileSummary {
        match self {
            Document::Ms3d(f) => f.summary(),
            Document::Ms3dAscii(f) => f.summary(),
            Document::Iqe(f) => f.summary(),
            Document::Iqm(f) => f.summary(),
        }
    }

    /// Writes the faithful file back (byte-identical for binary, content-identical for text).
    pub fn to_vec(&self) -> Vec<u8> {
        match self {
            Document::Ms3d(f) => f.to_vec(),
            Document::Ms3dAscii(f) => f.to_vec(),
            Document::Iqe(f) => f.to_vec(),
            Document::Iqm(f) => f.to_vec(),
        }
    }

    /// Converts to the neutral model.
    pub fn to_model(&self) -> Result<(Model, Report), ReadError> {
        let wrap = |message: String| ReadError { message };
        match self {
            Document::Ms3d(f) => {
                rigport_ms3d_bin::to_model(f, &Default::default()).map_err(|e| wrap(e.to_string()))
            }
            Document::Ms3dAscii(f) => rigport_ms3d_ascii::to_model(f, &Default::default())
                .map_err(|e| wrap(e.to_string())),
            Document::Iqe(f) => {
                rigport_iqe::to_model(f, &Default::default()).map_err(|e| wrap(e.to_string()))
            }
            Document::Iqm(f) => {
                rigport_iqm::to_model(f, &Default::default()).map_err(|e| wrap(e.to_string()))
            }
        }
    }
}
