//! A model file read through its format crate's faithful layer, whatever the format, and
//! the content sniffing that picks the format.

use crate::error::{Error, FormatError};
use crate::format::Format;
use rigport_model_core::{FileSummary, Model, ReadOptions, Report};

/// A file read faithfully, in one of the readable formats this build includes.
// One document lives per file being processed, never in bulk, so the size difference between
// variants costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
#[non_exhaustive]
pub enum Document {
    /// MilkShape 3D binary.
    #[cfg(feature = "ms3d")]
    Ms3d(rigport_ms3d_bin::File),
    /// MilkShape 3D ASCII.
    #[cfg(feature = "ms3d-ascii")]
    Ms3dAscii(rigport_ms3d_ascii::File),
    /// Inter-Quake Export.
    #[cfg(feature = "iqe")]
    Iqe(rigport_iqe::File),
    /// Inter-Quake Model.
    #[cfg(feature = "iqm")]
    Iqm(rigport_iqm::File),
}

/// Detects a readable format from the content (magic), not the extension, among the formats
/// this build reads.
pub fn sniff(bytes: &[u8]) -> Option<Format> {
    // The binary magics are the most specific; IQE's header line is checked before the ASCII
    // format's looser first-line rules.
    #[cfg(feature = "ms3d")]
    if rigport_ms3d_bin::sniff(bytes) {
        return Some(Format::Ms3d);
    }
    #[cfg(feature = "iqm")]
    if rigport_iqm::sniff(bytes) {
        return Some(Format::Iqm);
    }
    #[cfg(feature = "iqe")]
    if rigport_iqe::sniff(bytes) {
        return Some(Format::Iqe);
    }
    #[cfg(feature = "ms3d-ascii")]
    if rigport_ms3d_ascii::sniff(bytes) {
        return Some(Format::Ms3dAscii);
    }
    let _ = bytes; // used by no check when no readable format is built in
    None
}

impl Document {
    /// Reads `bytes` as `format`. Text formats' errors come rendered against `bytes`
    /// (line:column and the line); the format crate's error is kept in [`Error::Read`].
    pub fn read(
        bytes: &[u8],
        format: Format,
        options: &ReadOptions,
    ) -> Result<(Document, Report), Error> {
        if !format.is_readable() {
            return Err(Error::NotReadable(format));
        }
        let _ = (bytes, options); // unused when no readable format is built in
        match format {
            #[cfg(feature = "ms3d")]
            Format::Ms3d => rigport_ms3d_bin::File::from_slice_with(bytes, options)
                .map(|(f, r)| (Document::Ms3d(f), r))
                .map_err(|e| Error::Read {
                    format,
                    rendered: e.to_string(),
                    source: FormatError::Ms3d(e),
                }),
            #[cfg(feature = "ms3d-ascii")]
            Format::Ms3dAscii => rigport_ms3d_ascii::File::from_slice_with(bytes, options)
                .map(|(f, r)| (Document::Ms3dAscii(f), r))
                .map_err(|e| Error::Read {
                    format,
                    rendered: e.render(bytes),
                    source: FormatError::Ms3dAscii(e),
                }),
            #[cfg(feature = "iqe")]
            Format::Iqe => rigport_iqe::File::from_slice_with(bytes, options)
                .map(|(f, r)| (Document::Iqe(f), r))
                .map_err(|e| Error::Read {
                    format,
                    rendered: e.render(bytes),
                    source: FormatError::Iqe(e),
                }),
            #[cfg(feature = "iqm")]
            Format::Iqm => rigport_iqm::File::from_slice_with(bytes, options)
                .map(|(f, r)| (Document::Iqm(f), r))
                .map_err(|e| Error::Read {
                    format,
                    rendered: e.to_string(),
                    source: FormatError::Iqm(Box::new(e)),
                }),
            _ => Err(Error::NotEnabled { format }),
        }
    }

    /// Detects the format and reads the file.
    pub fn sniff_and_read(
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Result<(Document, Report), Error> {
        let format = sniff(bytes).ok_or(Error::Unrecognized)?;
        Self::read(bytes, format, options)
    }

    /// The format this document was read as.
    pub fn format(&self) -> Format {
        match *self {
            #[cfg(feature = "ms3d")]
            Document::Ms3d(_) => Format::Ms3d,
            #[cfg(feature = "ms3d-ascii")]
            Document::Ms3dAscii(_) => Format::Ms3dAscii,
            #[cfg(feature = "iqe")]
            Document::Iqe(_) => Format::Iqe,
            #[cfg(feature = "iqm")]
            Document::Iqm(_) => Format::Iqm,
        }
    }

    /// Counts and details for `rigport info`.
    pub fn summary(&self) -> FileSummary {
        match *self {
            #[cfg(feature = "ms3d")]
            Document::Ms3d(ref f) => f.summary(),
            #[cfg(feature = "ms3d-ascii")]
            Document::Ms3dAscii(ref f) => f.summary(),
            #[cfg(feature = "iqe")]
            Document::Iqe(ref f) => f.summary(),
            #[cfg(feature = "iqm")]
            Document::Iqm(ref f) => f.summary(),
        }
    }

    /// Writes the faithful file back (byte-identical for binary, content-identical for text).
    pub fn to_vec(&self) -> Vec<u8> {
        match *self {
            #[cfg(feature = "ms3d")]
            Document::Ms3d(ref f) => f.to_vec(),
            #[cfg(feature = "ms3d-ascii")]
            Document::Ms3dAscii(ref f) => f.to_vec(),
            #[cfg(feature = "iqe")]
            Document::Iqe(ref f) => f.to_vec(),
            #[cfg(feature = "iqm")]
            Document::Iqm(ref f) => f.to_vec(),
        }
    }

    /// Converts to the neutral model with each format crate's default conversion options.
    pub fn to_model(&self) -> Result<(Model, Report), Error> {
        let format = self.format();
        match *self {
            #[cfg(feature = "ms3d")]
            Document::Ms3d(ref f) => {
                rigport_ms3d_bin::to_model(f, &Default::default()).map_err(|e| Error::ToModel {
                    format,
                    source: FormatError::Ms3d(e),
                })
            }
            #[cfg(feature = "ms3d-ascii")]
            Document::Ms3dAscii(ref f) => rigport_ms3d_ascii::to_model(f, &Default::default())
                .map_err(|e| Error::ToModel {
                    format,
                    source: FormatError::Ms3dAscii(e),
                }),
            #[cfg(feature = "iqe")]
            Document::Iqe(ref f) => {
                rigport_iqe::to_model(f, &Default::default()).map_err(|e| Error::ToModel {
                    format,
                    source: FormatError::Iqe(e),
                })
            }
            #[cfg(feature = "iqm")]
            Document::Iqm(ref f) => {
                rigport_iqm::to_model(f, &Default::default()).map_err(|e| Error::ToModel {
                    format,
                    source: FormatError::Iqm(Box::new(e)),
                })
            }
        }
    }
}
