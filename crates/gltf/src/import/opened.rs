//! A glTF file as a reader keeps it ([`OpenedGltf`]): its summary, its copy (checked, with
//! the tangents glTF forbids rebuilt) and its model, with the errors located in the bytes
//! read.

use crate::codec::{GLB_INFO, GLTF_INFO, info_of};
use crate::import::{GltfFile, ImportError, ImportOptions, to_model};
use rigport_model_core::codec::{
    Companions, FormatError, FormatInfo, Location, ModelOptions, Modelled, Opened, OutputFile,
};
use rigport_model_core::{FileSummary, Limits, ReadOptions, Report, codes};
use std::any::Any;

/// A read error, about `bytes`: where it is (the JSON text's own line and column, inside a
/// `.glb` counted from the start of its JSON chunk; else a byte of the container), rendered
/// as the text formats render theirs, and naming the external file that could not be read.
fn import_error(error: ImportError, bytes: &[u8]) -> FormatError {
    let location = match error {
        ImportError::Json {
            offset, json_start, ..
        } => {
            let start = usize::try_from(json_start).map_or(bytes.len(), |s| s.min(bytes.len()));
            let at = usize::try_from(offset)
                .unwrap_or(usize::MAX)
                .saturating_sub(start);
            Location::in_text(&bytes[start..], at)
        }
        ref other => Location::at_offset(other.offset()),
    };
    let rendered = error.render(bytes);
    let file = missing_file(&error);
    let mut error = FormatError::wrap(info_of(bytes).key, location, error).with_rendered(rendered);
    error.file = file;
    error
}

/// The external file an import error says could not be read.
fn missing_file(error: &ImportError) -> Option<std::path::PathBuf> {
    match error {
        ImportError::MissingFile { path, .. } => Some(path.clone()),
        _ => None,
    }
}

/// The import of a file read (its bytes are no longer at hand: errors keep their offset).
fn import(
    file: &GltfFile,
    limits: Limits,
    fps: f32,
) -> Result<(crate::import::Imported, Report), FormatError> {
    let options = ImportOptions {
        limits,
        fps,
        ..ImportOptions::default()
    };
    to_model(file, &options).map_err(|error| {
        let info = if file.is_binary() {
            &GLB_INFO
        } else {
            &GLTF_INFO
        };
        let file = missing_file(&error);
        let location = Location::at_offset(error.offset());
        let mut error = FormatError::wrap_plain(info.key, location, error);
        error.file = file;
        error
    })
}

/// An image the file holds, as a file to write beside an output or embed again.
impl From<crate::import::ImportedImage> for OutputFile {
    fn from(image: crate::import::ImportedImage) -> Self {
        OutputFile {
            name: image.file_name,
            bytes: image.png,
        }
    }
}

/// A glTF file read, with the limits its import keeps to.
#[derive(Debug)]
pub(crate) struct OpenedGltf {
    file: GltfFile,
    limits: Limits,
}

impl Opened for OpenedGltf {
    fn info(&self) -> &'static FormatInfo {
        if self.file.is_binary() {
            &GLB_INFO
        } else {
            &GLTF_INFO
        }
    }

    fn summary(&self) -> FileSummary {
        self.file.summary()
    }

    fn to_vec(&self) -> Vec<u8> {
        self.file.to_vec()
    }

    // A glTF reads lazily: accessors and indices are checked by the import, so the copy is
    // imported once (and the model dropped) rather than copied unchecked. It rebuilds vertex
    // tangents glTF forbids, so that every file written validates; when they cannot be
    // rewritten in place (`None`) the copy goes through the model.
    fn copy(&self) -> Result<(Option<Vec<u8>>, Report), FormatError> {
        import(&self.file, self.limits, ModelOptions::default().fps)?;
        Ok(match self.file.valid_copy() {
            Some((bytes, report)) => (Some(bytes), report),
            None => {
                let mut report = Report::default();
                report.warn(
                    codes::TANGENTS_REPAIRED,
                    "vertex tangents glTF forbids cannot be rebuilt in place (sparse, not f32 VEC4, or outside the BIN chunk); converted through the model, which does not carry tangents",
                );
                (None, report)
            }
        })
    }

    fn to_model(&self, options: &ModelOptions) -> Result<Modelled, FormatError> {
        let (imported, report) = import(&self.file, self.limits, options.fps)?;
        Ok(Modelled {
            model: imported.model,
            images: imported.images.into_iter().map(OutputFile::from).collect(),
            report,
        })
    }

    fn as_any(&self) -> &dyn Any {
        &self.file
    }
}

/// Reads a glTF file (either flavour) with the files beside it, for both codecs.
pub(crate) fn open(
    bytes: &[u8],
    options: &ReadOptions,
    companions: &dyn Companions,
) -> Result<(OpenedGltf, Report), FormatError> {
    let (file, report) = GltfFile::from_slice_with(bytes, options, companions.folder())
        .map_err(|e| import_error(e, bytes))?;
    let limits = options.limits;
    Ok((OpenedGltf { file, limits }, report))
}
