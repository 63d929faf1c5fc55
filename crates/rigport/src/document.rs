//! A model file read through its format crate's faithful layer, whatever the format, and
//! the content sniffing that picks the format.

use crate::error::{Error, FormatError};
use crate::format::Format;
use rigport_model_core::{FileSummary, Model, ReadOptions, Report};
use std::path::Path;

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
    /// glTF 2.0, binary (`.glb`) or JSON (`.gltf`), with every buffer and image resolved.
    #[cfg(feature = "gltf")]
    Gltf(rigport_gltf::import::GltfFile),
    /// A format read through its [`Codec`](rigport_model_core::codec::Codec) (MD5, SMD).
    Codec(CodecDocument),
}

/// A file of a codec-based format: its bytes (for `info` and the faithful same-format copy)
/// and the model its codec read.
#[derive(Debug)]
pub struct CodecDocument {
    format: Format,
    bytes: Vec<u8>,
    options: ReadOptions,
    model: Model,
}

impl CodecDocument {
    /// The model the codec read.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The codec; present, since the document was read by it.
    fn codec(&self) -> Option<&'static dyn rigport_model_core::codec::Codec> {
        crate::registry::codec(self.format)
    }
}

/// An image a converted model's materials name (`Material::texture` is `file_name`), which
/// must be written beside the output: glTF files embed their textures, the other formats
/// name image files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// File name (no folder) the material names.
    pub file_name: String,
    /// PNG bytes.
    pub png: Vec<u8>,
}

/// What a conversion to the neutral model asks for beyond the defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelOptions {
    /// Frames per second at which animations a target cannot hold as they are (glTF
    /// CUBICSPLINE) are resampled.
    pub fps: f32,
}

impl Default for ModelOptions {
    fn default() -> Self {
        Self { fps: 30.0 }
    }
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
    // glTF: the GLB magic, or JSON whose top object has "asset"; neither can start an IQE
    // or MilkShape ASCII file.
    #[cfg(feature = "gltf")]
    if rigport_gltf::sniff(bytes) {
        return Some(if bytes.starts_with(b"glTF") {
            Format::Glb
        } else {
            Format::Gltf
        });
    }
    // MD5 and SMD open with keywords no other text format starts with.
    if let Some(format) = crate::registry::sniff(bytes) {
        return Some(format);
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
    /// A `.gltf` naming external files cannot be read this way: use [`Document::read_in`].
    pub fn read(
        bytes: &[u8],
        format: Format,
        options: &ReadOptions,
    ) -> Result<(Document, Report), Error> {
        Self::read_in(bytes, format, options, None)
    }

    /// [`Document::read`] for a file in folder `base_dir`, where the external files a glTF
    /// names (buffers, images) are read from (`None`: an external file is an error naming
    /// it). Other formats ignore the folder.
    pub fn read_in(
        bytes: &[u8],
        format: Format,
        options: &ReadOptions,
        base_dir: Option<&Path>,
    ) -> Result<(Document, Report), Error> {
        if !format.is_readable() {
            return Err(Error::NotReadable(format));
        }
        let _ = (bytes, options, base_dir); // unused when no readable format is built in
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
                .map_err(|e| iqe_read_error(e, bytes)),
            #[cfg(feature = "iqm")]
            Format::Iqm => rigport_iqm::File::from_slice_with(bytes, options)
                .map(|(f, r)| (Document::Iqm(f), r))
                .map_err(|e| Error::Read {
                    format,
                    rendered: e.to_string(),
                    source: FormatError::Iqm(Box::new(e)),
                }),
            // Both glTF flavours go through one reader, which tells them apart itself: a
            // `.glb` named `.gltf` still reads.
            #[cfg(feature = "gltf")]
            Format::Glb | Format::Gltf => {
                rigport_gltf::import::GltfFile::from_slice_with(bytes, options, base_dir)
                    .map(|(f, r)| (Document::Gltf(f), r))
                    .map_err(|e| {
                        let format = if bytes.starts_with(b"glTF") {
                            Format::Glb
                        } else {
                            Format::Gltf
                        };
                        Error::Read {
                            format,
                            rendered: e.render(bytes),
                            source: FormatError::Gltf(Box::new(e)),
                        }
                    })
            }
            _ => read_codec(bytes, format, options, base_dir),
        }
    }

    /// Detects the format and reads the file.
    pub fn sniff_and_read(
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Result<(Document, Report), Error> {
        Self::sniff_and_read_in(bytes, options, None)
    }

    /// Detects the format and reads the file, which is in folder `base_dir` (see
    /// [`Document::read_in`]).
    pub fn sniff_and_read_in(
        bytes: &[u8],
        options: &ReadOptions,
        base_dir: Option<&Path>,
    ) -> Result<(Document, Report), Error> {
        let format = sniff(bytes).ok_or(Error::Unrecognized)?;
        Self::read_in(bytes, format, options, base_dir)
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
            #[cfg(feature = "gltf")]
            Document::Gltf(ref f) => {
                if f.is_binary() {
                    Format::Glb
                } else {
                    Format::Gltf
                }
            }
            Document::Codec(ref d) => d.format,
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
            #[cfg(feature = "gltf")]
            Document::Gltf(ref f) => f.summary(),
            Document::Codec(ref d) => d
                .codec()
                .and_then(|codec| codec.summary(&d.bytes, &d.options).ok())
                .unwrap_or_else(|| {
                    let key = d.format.key();
                    FileSummary::of_model(key, &d.model, &Report::default())
                }),
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
            #[cfg(feature = "gltf")]
            Document::Gltf(ref f) => f.to_vec(),
            // The codec's faithful copy; a codec without one (or failing on bytes it has
            // read) gives the file as it came, which is the same content.
            Document::Codec(ref d) => match d.codec().and_then(|c| c.copy(&d.bytes, &d.options)) {
                Some(Ok((bytes, _))) => bytes,
                _ => d.bytes.clone(),
            },
        }
    }

    /// Converts to the neutral model with each format crate's default conversion options.
    /// The images a glTF embeds are left out (see [`Document::to_model_with_images`]).
    pub fn to_model(&self) -> Result<(Model, Report), Error> {
        self.to_model_with_images(&ModelOptions::default())
            .map(|(model, _, report)| (model, report))
    }

    /// Converts to the neutral model, with the images the model's materials name that exist
    /// only inside the file (a glTF's embedded or data-URI images, re-encoded as PNG).
    pub fn to_model_with_images(
        &self,
        options: &ModelOptions,
    ) -> Result<(Model, Vec<Image>, Report), Error> {
        let _ = options; // read only by the glTF import
        match *self {
            #[cfg(feature = "gltf")]
            Document::Gltf(ref f) => gltf_import(f, self.format(), options),
            #[allow(unreachable_patterns)] // a build that reads only glTF
            _ => self
                .to_model_only()
                .map(|(model, report)| (model, Vec::new(), report)),
        }
    }

    /// The formats whose model has no images of its own.
    fn to_model_only(&self) -> Result<(Model, Report), Error> {
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
            #[cfg(feature = "gltf")]
            Document::Gltf(ref f) => gltf_import(f, format, &ModelOptions::default())
                .map(|(model, _, report)| (model, report)),
            // The codec read the model with the file; its read report was the document's.
            Document::Codec(ref d) => Ok((d.model.clone(), Report::default())),
        }
    }
}

/// Reads a codec-based format; a format this build leaves out is [`Error::NotEnabled`].
fn read_codec(
    bytes: &[u8],
    format: Format,
    options: &ReadOptions,
    base_dir: Option<&Path>,
) -> Result<(Document, Report), Error> {
    let codec = crate::registry::codec(format).ok_or(Error::NotEnabled { format })?;
    let folder = base_dir.map(rigport_model_core::codec::Folder::new);
    let companions: &dyn rigport_model_core::codec::Companions = match &folder {
        Some(folder) => folder,
        None => &rigport_model_core::codec::NoCompanions,
    };
    let (model, report) = codec
        .read_with(bytes, options, companions)
        .map_err(|e| Error::Read {
            format,
            rendered: e.render(bytes),
            source: FormatError::Codec(Box::new(e)),
        })?;
    let document = CodecDocument {
        format,
        bytes: bytes.to_vec(),
        options: *options,
        model,
    };
    Ok((Document::Codec(document), report))
}

/// An IQE file read with its scene kept ([`rigport_iqe::Interpreted`]), for a conversion
/// that frees the text before building the model from it (the commands are interpreted
/// once). Errors are rendered against the text as [`Document::read`] renders them.
#[cfg(feature = "iqe")]
pub(crate) fn read_iqe_interpreted(
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<(rigport_iqe::Interpreted, Report), Error> {
    rigport_iqe::Interpreted::from_slice_with(bytes, options).map_err(|e| iqe_read_error(e, bytes))
}

/// An IQE file read straight into the model by its codec, for a conversion that then needs
/// neither the text nor a second interpretation of the commands. Errors are the reader's,
/// rendered against the text as [`Document::read`] renders them.
#[cfg(feature = "iqe")]
pub(crate) fn read_iqe_model(
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<(Model, Report), Error> {
    use rigport_model_core::codec::Codec;
    rigport_iqe::CODEC.read(bytes, options).map_err(|e| {
        match e
            .source
            .map(|source| source.downcast::<rigport_iqe::Error>())
        {
            Some(Ok(error)) => iqe_read_error(*error, bytes),
            _ => Error::Read {
                format: Format::Iqe,
                rendered: e.message.clone(),
                source: FormatError::Codec(Box::new(rigport_model_core::codec::FormatError::new(
                    e.format, e.location, e.message,
                ))),
            },
        }
    })
}

/// An IQE reader's error, rendered against the text it is about.
#[cfg(feature = "iqe")]
fn iqe_read_error(error: rigport_iqe::Error, bytes: &[u8]) -> Error {
    Error::Read {
        format: Format::Iqe,
        rendered: error.render(bytes),
        source: FormatError::Iqe(error),
    }
}

/// The glTF import: the model and the images its materials name.
#[cfg(feature = "gltf")]
fn gltf_import(
    file: &rigport_gltf::import::GltfFile,
    format: Format,
    options: &ModelOptions,
) -> Result<(Model, Vec<Image>, Report), Error> {
    let mut import = rigport_gltf::import::ImportOptions::default();
    import.fps = options.fps;
    let (imported, report) =
        rigport_gltf::import::to_model(file, &import).map_err(|e| Error::ToModel {
            format,
            source: FormatError::Gltf(Box::new(e)),
        })?;
    let images = imported
        .images
        .into_iter()
        .map(|i| Image {
            file_name: i.file_name,
            png: i.png,
        })
        .collect();
    Ok((imported.model, images, report))
}
