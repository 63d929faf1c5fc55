//! A model file read through its format's [`Reader`], whatever the format, and the content
//! sniffing that picks the format.

use crate::error::Error;
use crate::registry::Format;
use rigport_model_core::codec::{
    Codec, Companions, Folder, FormatError, Input, NoCompanions, Opened, Opening, OutputFile,
    Reader,
};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report};
use std::any::Any;
use std::path::Path;

/// What a conversion to the neutral model asks for beyond the defaults: the frame rate at
/// which animations a target cannot hold as they are (glTF CUBICSPLINE) are resampled.
pub use rigport_model_core::codec::ModelOptions;

/// A file read by its format's reader, in one of the readable formats this build includes:
/// the format crate's faithful file ([`Document::file`]).
#[derive(Debug)]
pub struct Document {
    format: Format,
    file: Box<dyn Opened>,
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

/// An image a codec found held in the file.
impl From<OutputFile> for Image {
    fn from(file: OutputFile) -> Self {
        Image {
            file_name: file.name,
            png: file.bytes,
        }
    }
}

/// Detects a readable format from the content (magic), not the extension, among the formats
/// this build reads, in the registry's order.
pub fn sniff(bytes: &[u8]) -> Option<Format> {
    crate::registry::sniff(bytes)
}

/// The reader of `format` in this build.
pub(crate) fn reader(format: Format) -> Result<&'static dyn Reader, Error> {
    let codec: &Codec = format.codec().ok_or(Error::NotEnabled { format })?;
    codec.reader().ok_or(Error::NotReadable(format))
}

/// A codec's read error, rendered against the `bytes` read (line:column and the line, for
/// text) and naming the format the file turned out to be.
pub(crate) fn read_error(format: Format, error: FormatError, bytes: &[u8]) -> Error {
    Error::Read {
        format: Format::from_key(error.format).unwrap_or(format),
        rendered: error.render(bytes),
        source: Box::new(error),
    }
}

/// The files beside a model in folder `base_dir`, if any.
pub(crate) fn folder(base_dir: Option<&Path>) -> Option<Folder> {
    base_dir.map(Folder::new)
}

/// `folder` as companions (none without a folder).
pub(crate) fn companions(folder: &Option<Folder>) -> &dyn Companions {
    match folder {
        Some(folder) => folder,
        None => &NoCompanions,
    }
}

impl Document {
    /// Reads `bytes` as `format`. Text formats' errors come rendered against `bytes`
    /// (line:column and the line); the codec's error is kept in [`Error::Read`].
    /// A `.gltf` naming external files cannot be read this way: use [`Document::read_in`].
    pub fn read(
        bytes: &[u8],
        format: Format,
        options: &ReadOptions,
    ) -> Result<(Document, Report), Error> {
        Self::read_in(bytes, format, options, None)
    }

    /// [`Document::read`] for a file in folder `base_dir`, where the external files a glTF
    /// names (buffers, images) or an MD5 mesh's animations are read from (`None`: an
    /// external file is an error naming it).
    pub fn read_in(
        bytes: &[u8],
        format: Format,
        options: &ReadOptions,
        base_dir: Option<&Path>,
    ) -> Result<(Document, Report), Error> {
        Self::read_named(bytes, format, options, base_dir, None)
    }

    /// [`Document::read_in`] for the file at `path` (its folder holds what it names, and its
    /// name names what a reader finds beside it: `hero_walk.md5anim` beside `hero.md5mesh`
    /// is the animation `walk`).
    pub fn read_path(
        bytes: &[u8],
        format: Format,
        options: &ReadOptions,
        path: &Path,
    ) -> Result<(Document, Report), Error> {
        let name = path.file_name().and_then(|n| n.to_str());
        let dir = crate::batch::input_dir(path);
        Self::read_named(bytes, format, options, Some(&dir), name)
    }

    /// [`Document::read_in`] for the file called `name` in `base_dir`.
    pub(crate) fn read_named(
        bytes: &[u8],
        format: Format,
        options: &ReadOptions,
        base_dir: Option<&Path>,
        name: Option<&str>,
    ) -> Result<(Document, Report), Error> {
        let reader = reader(format)?;
        let folder = folder(base_dir);
        let input = Input::new(bytes, options)
            .beside(companions(&folder))
            .named(name);
        let read = reader
            .open(&input)
            .map_err(|e| read_error(format, e, bytes))?;
        let (Opening::File(file), report) = read else {
            // A reader opening to keep gives the file (`Intent::Keep`).
            let message = "the reader kept no file";
            let error = FormatError::new(format.key(), Default::default(), message);
            return Err(read_error(format, error, bytes));
        };
        // A reader of one flavour reads the other too (a `.glb` named `.gltf`).
        let format = Format::from_key(file.info().key).unwrap_or(format);
        Ok((Document { format, file }, report))
    }

    /// Detects the format and reads the file.
    pub fn sniff_and_read(
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Result<(Document, Report), Error> {
        Self::sniff_and_read_in(bytes, options, None)
    }

    /// Detects the format and reads the file at `path` (see [`Document::read_path`]).
    pub fn sniff_and_read_path(
        bytes: &[u8],
        options: &ReadOptions,
        path: &Path,
    ) -> Result<(Document, Report), Error> {
        let format = sniff(bytes).ok_or(Error::Unrecognized)?;
        Self::read_path(bytes, format, options, path)
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
        self.format
    }

    /// The format crate's faithful file, when it is a `T`
    /// (`rigport::formats::iqe::File`, `rigport::formats::gltf::import::GltfFile`…).
    pub fn file<T: Any>(&self) -> Option<&T> {
        self.file.as_any().downcast_ref()
    }

    /// Counts and details for `rigport info`.
    pub fn summary(&self) -> FileSummary {
        self.file.summary()
    }

    /// Writes the faithful file back (byte-identical for binary, content-identical for text).
    pub fn to_vec(&self) -> Vec<u8> {
        self.file.to_vec()
    }

    /// The same-format copy a conversion writes, with what it repaired or why there is
    /// none (`None`: the copy must go through the model).
    pub(crate) fn copy(&self) -> Result<(Option<Vec<u8>>, Report), Error> {
        self.file.copy().map_err(|e| self.to_model_error(e))
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
        let modelled = self
            .file
            .to_model(options)
            .map_err(|e| self.to_model_error(e))?;
        let images = modelled.images.into_iter().map(Image::from).collect();
        Ok((modelled.model, images, modelled.report))
    }

    fn to_model_error(&self, source: FormatError) -> Error {
        Error::ToModel {
            format: self.format,
            source: Box::new(source),
        }
    }
}
