//! One shape for every format: a format crate implements a [`Reader`] (three methods), a
//! [`Writer`] (two), or both, and every codec error is a [`FormatError`].
//!
//! A reader names its format ([`FormatInfo`]: key, extensions, up axis and what the format
//! holds), recognises its files by content ([`Reader::sniff`]) and opens them
//! ([`Reader::open`], the one read): the file kept ([`Opened`]: its summary, its same-format
//! copy, its model), or, when only the model is wanted ([`Intent::Model`]), the model still
//! to be made ([`Opening::Model`]), which owns what it is made from so that the input can be
//! freed first. Files a read needs beside the main one (animation files, external buffers)
//! come through [`Companions`] in its [`Input`]. A writer writes a model as one or more files
//! ([`Written`]: the main file first, then companions such as a `.md5anim` per animation).
//! A registry lists each format as a [`Codec`]. A format crate with the usual faithful layer
//! describes it once ([`Faithful`]) and gets both through [`FaithfulCodec`].
//!
//! ```
//! use rigport_model_core::codec::{
//!     self, FormatError, FormatInfo, Input, Location, Modelled, Opening, Output, Reader, Writer,
//!     Written,
//! };
//! use rigport_model_core::{Model, ReadOptions, Report, UpAxis};
//! use std::borrow::Cow;
//!
//! /// A toy format: the text `empty`.
//! struct Empty;
//!
//! static INFO: FormatInfo = FormatInfo {
//!     key: "empty",
//!     family: "Empty",
//!     description: "An empty model (`.empty`)",
//!     extensions: &["empty"],
//!     reads: true,
//!     writes: true,
//!     ..FormatInfo::DEFAULT
//! };
//!
//! impl Reader for Empty {
//!     fn info(&self) -> &'static FormatInfo {
//!         &INFO
//!     }
//!     fn sniff(&self, bytes: &[u8]) -> bool {
//!         bytes.starts_with(b"empty")
//!     }
//!     fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
//!         if input.bytes != b"empty" {
//!             return Err(FormatError::new("empty", Location::Offset(5), "trailing bytes"));
//!         }
//!         let pending = Box::new(|| Ok(Modelled::of(Model::default(), Report::default())));
//!         Ok((Opening::Model(pending), Report::default()))
//!     }
//! }
//!
//! impl Writer for Empty {
//!     fn info(&self) -> &'static FormatInfo {
//!         &INFO
//!     }
//!     fn write(&self, _: Cow<'_, Model>, output: &Output<'_>) -> Result<Written, FormatError> {
//!         Ok(Written::single(output.main, b"empty".to_vec()))
//!     }
//! }
//!
//! static CODEC: codec::Codec = codec::Codec::new(&INFO, Some(&Empty), Some(&Empty));
//!
//! let (model, _) = CODEC.read(b"empty", &ReadOptions::default()).unwrap();
//! let written = CODEC.write(&model, "a.empty", &Default::default()).unwrap();
//! assert_eq!(written.files[0].bytes, b"empty");
//! let error = CODEC.read(b"emptyX", &ReadOptions::default()).unwrap_err();
//! assert_eq!(error.to_string(), "empty: byte 5: trailing bytes");
//! ```

mod companions;
mod error;
mod faithful;
mod kept;
mod written;

pub use companions::{
    Beside, Companions, Folder, NoCompanions, Overlay, animation_names_beside,
    attach_animations_beside,
};
pub use error::{FormatError, Location};
pub use faithful::{ErrorOf, Faithful, FaithfulCodec, ModelRead, PendingOf};
pub use kept::{Keep, Kept};
pub use written::{OutputFile, Written, WrittenFiles, animation_name_beside, file_safe, stem_of};

use crate::{FileSummary, Model, ReadOptions, Report, UpAxis};
use std::any::Any;
use std::borrow::Cow;
use std::fmt;

/// What a format is: the facts a registry, a file dialog or `--to` needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    /// Stable key, as in `--to` and `info --json` (`"ms3d-ascii"`).
    pub key: &'static str,
    /// The short name of the format's family, which menus and lists group formats by
    /// (`"MilkShape 3D"` for both its binary and its ASCII format).
    pub family: &'static str,
    /// A one-line description for people (`"MilkShape 3D ASCII (`.txt`)"`).
    pub description: &'static str,
    /// File extensions without the dot, lower case, the usual one first.
    pub extensions: &'static [&'static str],
    /// The axis models stand along in this format.
    pub up: UpAxis,
    /// Whether the format has a [`Writer`].
    pub writes: bool,
    /// Whether the format has a [`Reader`] (false for an export-only format such as posed
    /// OBJ).
    pub reads: bool,
    /// Whether the format holds one animation timeline (MilkShape): the first animation is
    /// written and the others dropped, unless they are concatenated.
    pub one_timeline: bool,
    /// Whether the format's files hold a skeleton's animations and no mesh (`.md5anim`,
    /// `.psa`): read alone they give a model without meshes, and they attach to a model
    /// beside them.
    pub animation_only: bool,
    /// Whether a model written in the format keeps its morph targets and their animated
    /// weights. A format that does not is given the model at its default weights, and the
    /// conversion reports the targets as a loss
    /// ([`drop_morphs`](crate::morph::drop_morphs)).
    pub morph_targets: bool,
    /// Whether a same-format conversion may copy the file as it was read (byte-faithful);
    /// false for a format whose files name others by relative path (`.gltf`), which a copy
    /// into another folder would lose: those go through the model.
    pub faithful_copy: bool,
    /// Whether the format keeps glTF cubic-spline keys; any other target gets them
    /// resampled as linear keys.
    pub cubic_splines: bool,
    /// Whether the writer finds the images its materials name itself (embedding them or
    /// writing them beside the file); for other formats the caller writes them beside the
    /// output.
    pub embeds_images: bool,
    /// Whether materials are named after their texture's file (IQE and IQM name a material
    /// by the image it draws).
    pub names_materials_by_texture: bool,
    /// Whether the format holds one pose, not a skeleton and its animations (OBJ).
    pub posed: bool,
}

impl FormatInfo {
    /// Every fact false or empty (Y up, a faithful copy): the base a format's own
    /// `FormatInfo` is written over (`..FormatInfo::DEFAULT`).
    pub const DEFAULT: FormatInfo = FormatInfo {
        key: "",
        family: "",
        description: "",
        extensions: &[],
        up: UpAxis::Y,
        writes: false,
        reads: false,
        one_timeline: false,
        animation_only: false,
        morph_targets: false,
        faithful_copy: true,
        cubic_splines: false,
        embeds_images: false,
        names_materials_by_texture: false,
        posed: false,
    };
}

/// Which pose a posed export (OBJ) or a picture shows: an animation by name or index and a
/// time or frame. All `None` (the default) means the bind pose. `rigport_anim::request`
/// resolves it against a model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoseRequest {
    /// Time in seconds; wins over [`frame`](Self::frame).
    pub time: Option<f32>,
    /// Frame number, turned into seconds with the animation's frame rate.
    pub frame: Option<f32>,
    /// Animation name, or its index when no animation has that name. Without it (but with a
    /// time or frame) the first animation.
    pub anim: Option<String>,
}

impl PoseRequest {
    /// Whether this asks for the bind pose (nothing set).
    pub fn is_bind_pose(&self) -> bool {
        self.time.is_none() && self.frame.is_none() && self.anim.is_none()
    }
}

/// Options every writer takes; each writer reads those that concern its format.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct WriteOptions {
    /// The pose a format holding one pose (OBJ) is written in.
    pub pose: PoseRequest,
    /// Keep texture references as URIs instead of embedding the images
    /// ([`Output::files`] is where images come from).
    pub keep_texture_uris: bool,
}

impl WriteOptions {
    /// These options writing `pose` (see [`WriteOptions::pose`]).
    pub fn with_pose(mut self, pose: PoseRequest) -> Self {
        self.pose = pose;
        self
    }

    /// These options keeping texture URIs (`true`) or embedding images (`false`).
    pub fn with_keep_texture_uris(mut self, keep: bool) -> Self {
        self.keep_texture_uris = keep;
        self
    }
}

/// What a conversion to the neutral model asks for beyond the read options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelOptions {
    /// Frames per second given to animations whose key times suggest none (glTF).
    pub fps: f32,
}

impl Default for ModelOptions {
    fn default() -> Self {
        Self { fps: 30.0 }
    }
}

/// A file turned into the neutral model: the model, the images it holds inside the file
/// (a glTF's embedded or data-URI images, as PNG, by the name its materials use), and what
/// the conversion warned about.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Modelled {
    /// The model.
    pub model: Model,
    /// Images held inside the file, each named as the materials name it.
    pub images: Vec<OutputFile>,
    /// Warnings and losses.
    pub report: Report,
}

impl Modelled {
    /// A model with its report and no images.
    pub fn of(model: Model, report: Report) -> Self {
        Self {
            model,
            images: Vec::new(),
            report,
        }
    }
}

/// What a read is for ([`Input::intent`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Intent {
    /// The file is kept ([`Opening::File`]): its summary, its same-format copy, its model.
    #[default]
    Keep,
    /// Only the model is wanted, made with these options: a reader with a faster way to the
    /// model than through its faithful file may give [`Opening::Model`] instead.
    Model(ModelOptions),
}

/// What a [`Reader`] reads: the bytes of the main file, the options, the files beside it and
/// what the read is for.
#[derive(Clone, Copy)]
pub struct Input<'a> {
    /// The whole main file.
    pub bytes: &'a [u8],
    /// Leniency, limits, whether animation files beside the main one are attached.
    pub options: &'a ReadOptions,
    /// The files beside the main one (animation files, a `.gltf`'s buffers and images).
    pub companions: &'a dyn Companions,
    /// The main file's name among them (`hero.md5mesh`), when known: a reader naming the
    /// animation files it attaches names them by [`animation_name_beside`].
    pub name: Option<&'a str>,
    /// What the read is for.
    pub intent: Intent,
}

impl<'a> Input<'a> {
    /// `bytes` read with `options`, nothing beside them, to be kept.
    pub fn new(bytes: &'a [u8], options: &'a ReadOptions) -> Self {
        Self {
            bytes,
            options,
            companions: &NoCompanions,
            name: None,
            intent: Intent::Keep,
        }
    }

    /// This input with the main file's name (see [`Input::name`]).
    pub fn named(mut self, name: Option<&'a str>) -> Self {
        self.name = name;
        self
    }

    /// This input with `companions` beside the main file.
    pub fn beside(mut self, companions: &'a dyn Companions) -> Self {
        self.companions = companions;
        self
    }

    /// This input read for its model alone ([`Intent::Model`]).
    pub fn for_model(mut self, options: ModelOptions) -> Self {
        self.intent = Intent::Model(options);
        self
    }
}

impl fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("bytes", &self.bytes.len())
            .field("options", self.options)
            .field("name", &self.name)
            .field("intent", &self.intent)
            .finish_non_exhaustive()
    }
}

/// A file read faithfully by its [`Reader`] ([`Opening::File`]): the format crate's own
/// file, kept for what follows a read (counts, a same-format copy, the model) so that none
/// of them reads the bytes again.
pub trait Opened: Send + Sync + fmt::Debug {
    /// The format the file is (a `.gltf` reader reading a `.glb` says `.glb`).
    fn info(&self) -> &'static FormatInfo;
    /// The file's own counts and facts, as `rigport info` shows them.
    fn summary(&self) -> FileSummary;
    /// The file written back as it was read (byte-identical for binary, content-identical
    /// for text).
    fn to_vec(&self) -> Vec<u8>;
    /// The same-format copy a conversion writes, with a report: by default
    /// [`Opened::to_vec`]; a format that repairs what its own validator refuses gives the
    /// repaired file and says what it repaired, or `None` (and why, in the report) when the
    /// copy must go through the model instead.
    fn copy(&self) -> Result<(Option<Vec<u8>>, Report), FormatError> {
        Ok((Some(self.to_vec()), Report::default()))
    }
    /// The neutral model, with the images the file holds.
    fn to_model(&self, options: &ModelOptions) -> Result<Modelled, FormatError>;
    /// The format crate's file, for callers that downcast it to its type.
    fn as_any(&self) -> &dyn Any;
}

/// A model still to be made from what a read kept ([`Opening::Model`]): it owns all it
/// needs, so the bytes read can be freed before it runs.
pub type PendingModel = Box<dyn FnOnce() -> Result<Modelled, FormatError> + Send>;

/// What [`Reader::open`] gives.
pub enum Opening {
    /// The file, kept.
    File(Box<dyn Opened>),
    /// The model still to be made: only for [`Intent::Model`].
    Model(PendingModel),
}

impl Opening {
    /// The file opened, kept.
    pub fn file(file: impl Opened + 'static) -> Self {
        Opening::File(Box::new(file))
    }

    /// The model: made now from the file, or by the pending read. `options` are those of
    /// the file's conversion (a pending model was given its own with the [`Intent`]).
    pub fn into_model(self, options: &ModelOptions) -> Result<Modelled, FormatError> {
        match self {
            Opening::File(file) => file.to_model(options),
            Opening::Model(pending) => pending(),
        }
    }
}

impl fmt::Debug for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opening::File(file) => f.debug_tuple("File").field(file).finish(),
            Opening::Model(_) => f.write_str("Model(..)"),
        }
    }
}

/// A format's reader, implemented once by its crate.
pub trait Reader: Send + Sync {
    /// What the format is.
    fn info(&self) -> &'static FormatInfo;

    /// Whether `bytes` (the whole file, or at least its first 4 KiB) look like this format.
    /// Content decides, never the extension.
    fn sniff(&self, bytes: &[u8]) -> bool;

    /// Reads a file: the one read. It gives the file kept ([`Opening::File`]), or for
    /// [`Intent::Model`] possibly the model still to be made ([`Opening::Model`]), with what
    /// the read warned about. The model's [`Model::up`] is [`FormatInfo::up`].
    fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError>;
}

/// Where a [`Writer`] writes: the main file's name (companions are named after it), the
/// options, and the files it may read (texture images to embed, looked up among them by
/// the rule of [`crate::texture`]).
#[derive(Clone, Copy)]
pub struct Output<'a> {
    /// The main output's file name.
    pub main: &'a str,
    /// What to write.
    pub options: &'a WriteOptions,
    /// Files the writer may read; `None`: every texture stays a URI.
    pub files: Option<&'a dyn Companions>,
}

impl<'a> Output<'a> {
    /// The main file `main` written with `options`, no files to read.
    pub fn new(main: &'a str, options: &'a WriteOptions) -> Self {
        Self {
            main,
            options,
            files: None,
        }
    }

    /// This output with `files` to read.
    pub fn reading(mut self, files: &'a dyn Companions) -> Self {
        self.files = Some(files);
        self
    }
}

impl fmt::Debug for Output<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Output")
            .field("main", &self.main)
            .field("options", self.options)
            .field("files", &self.files.is_some())
            .finish()
    }
}

/// A format's writer, implemented once by its crate.
pub trait Writer: Send + Sync {
    /// What the format is.
    fn info(&self) -> &'static FormatInfo;

    /// Writes `model` as this format: the main file first, then its companions. A model
    /// given away ([`Cow::Owned`]) lets a writer free each part once it is written, so a
    /// large model is not held in full beside its output; the output is the same.
    fn write(&self, model: Cow<'_, Model>, output: &Output<'_>) -> Result<Written, FormatError>;
}

/// A format as a registry lists it: what it is, and its reader and writer (a format has one
/// or both). Its methods read and write through them, for callers that hold the format
/// rather than its reader or writer.
#[derive(Clone, Copy)]
pub struct Codec {
    info: &'static FormatInfo,
    reader: Option<&'static dyn Reader>,
    writer: Option<&'static dyn Writer>,
}

impl Codec {
    /// The format `info` says, read by `reader` and written by `writer`.
    pub const fn new(
        info: &'static FormatInfo,
        reader: Option<&'static dyn Reader>,
        writer: Option<&'static dyn Writer>,
    ) -> Self {
        Self {
            info,
            reader,
            writer,
        }
    }

    /// What the format is.
    pub fn info(&self) -> &'static FormatInfo {
        self.info
    }

    /// Its reader, if it is read.
    pub fn reader(&self) -> Option<&'static dyn Reader> {
        self.reader
    }

    /// Its writer, if it is written.
    pub fn writer(&self) -> Option<&'static dyn Writer> {
        self.writer
    }

    /// Whether `bytes` look like this format ([`Reader::sniff`]; false for a format that is
    /// not read).
    pub fn sniff(&self, bytes: &[u8]) -> bool {
        self.reader.is_some_and(|reader| reader.sniff(bytes))
    }

    /// [`Reader::open`], or an error for a format that is not read.
    pub fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
        match self.reader {
            Some(reader) => reader.open(input),
            None => Err(self.not("read")),
        }
    }

    /// Reads a whole file into the neutral model, with the read's and the conversion's
    /// reports. The images a file holds are left out (a loss the report names):
    /// [`Opened::to_model`] gives them.
    pub fn read(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Result<(Model, Report), FormatError> {
        self.read_model(&Input::new(bytes, options))
    }

    /// [`Codec::read`] of `input` (its companions; [`Intent::Model`]'s options, else the
    /// default ones).
    pub fn read_model(&self, input: &Input<'_>) -> Result<(Model, Report), FormatError> {
        let options = match input.intent {
            Intent::Model(options) => options,
            Intent::Keep => ModelOptions::default(),
        };
        let (opening, mut report) = self.open(&input.for_model(options))?;
        let modelled = opening.into_model(&options)?;
        report.extend(modelled.report);
        if !modelled.images.is_empty() {
            report.loss(
                crate::codes::IMAGES_NOT_CARRIED,
                format!(
                    "{} images held in the file are not part of the model (materials keep their names)",
                    modelled.images.len()
                ),
            );
        }
        Ok((modelled.model, report))
    }

    /// Opens `bytes` alone and keeps the file ([`Opening::File`]).
    pub fn open_file(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Result<(Box<dyn Opened>, Report), FormatError> {
        match self.open(&Input::new(bytes, options))? {
            (Opening::File(file), report) => Ok((file, report)),
            (Opening::Model(_), _) => Err(self.not("kept")),
        }
    }

    /// Writes `model` as `main` with `options` ([`Writer::write`] of a borrowed model), or
    /// an error for a format that is not written.
    pub fn write(
        &self,
        model: &Model,
        main: &str,
        options: &WriteOptions,
    ) -> Result<Written, FormatError> {
        self.write_to(Cow::Borrowed(model), &Output::new(main, options))
    }

    /// [`Writer::write`], or an error for a format that is not written.
    pub fn write_to(
        &self,
        model: Cow<'_, Model>,
        output: &Output<'_>,
    ) -> Result<Written, FormatError> {
        match self.writer {
            Some(writer) => writer.write(model, output),
            None => Err(self.not("written")),
        }
    }

    fn not(&self, what: &str) -> FormatError {
        FormatError::new(
            self.info.key,
            Location::Unknown,
            format!("this format is not {what}"),
        )
    }
}

impl fmt::Debug for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Codec")
            .field("key", &self.info.key)
            .field("reads", &self.reader.is_some())
            .field("writes", &self.writer.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests;
