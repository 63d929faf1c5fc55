//! One shape for every format: the [`Codec`] trait a format crate implements once, and the
//! [`FormatError`] every codec's errors share.
//!
//! A codec names its format ([`FormatInfo`]: key, extensions, up axis), recognises its files
//! by content ([`Codec::sniff`]), reads a file into the neutral [`Model`] and, where the
//! format can be written, writes a model back as one or more files ([`Written`]: the main
//! file first, then companions such as a `.md5anim` per animation). Files a read needs
//! beside the main one (animation files, external buffers) come through [`Companions`].
//!
//! Each format crate keeps its faithful layer (the file as written) for users who want it;
//! the codec is the neutral door the facade, the Python package and the web page use.
//!
//! ```
//! use rigport_model_core::codec::{Codec, FormatError, FormatInfo, Location, WriteOptions, Written};
//! use rigport_model_core::{Model, ReadOptions, Report, UpAxis};
//!
//! /// A toy format: the text `empty`.
//! struct Empty;
//!
//! static INFO: FormatInfo = FormatInfo {
//!     key: "empty",
//!     family: "Empty",
//!     description: "An empty model (`.empty`)",
//!     extensions: &["empty"],
//!     up: UpAxis::Y,
//!     writes: true,
//!     reads: true,
//!     one_timeline: false,
//!     animation_only: false,
//!     morph_targets: false,
//! };
//!
//! impl Codec for Empty {
//!     fn info(&self) -> &'static FormatInfo {
//!         &INFO
//!     }
//!     fn sniff(&self, bytes: &[u8]) -> bool {
//!         bytes.starts_with(b"empty")
//!     }
//!     fn read(&self, bytes: &[u8], _: &ReadOptions) -> Result<(Model, Report), FormatError> {
//!         if bytes != b"empty" {
//!             return Err(FormatError::new("empty", Location::Offset(5), "trailing bytes"));
//!         }
//!         Ok((Model::default(), Report::default()))
//!     }
//!     fn write(&self, _: &Model, main: &str, _: &WriteOptions) -> Result<Written, FormatError> {
//!         Ok(Written::single(main, b"empty".to_vec()))
//!     }
//! }
//!
//! let (model, _) = Empty.read(b"empty", &ReadOptions::default()).unwrap();
//! let written = Empty.write(&model, "a.empty", &WriteOptions::default()).unwrap();
//! assert_eq!(written.files[0].bytes, b"empty");
//! let error = Empty.read(b"emptyX", &ReadOptions::default()).unwrap_err();
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
pub use faithful::{Faithful, FaithfulCodec};
pub use kept::{Keep, Kept, model_of};
pub use written::{OutputFile, Written, WrittenFiles, file_safe, stem_of};

use crate::{FileSummary, Model, ReadOptions, Report, UpAxis};
use std::any::Any;
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
    /// Whether [`Codec::write`] is implemented.
    pub writes: bool,
    /// Whether [`Codec::read`] reads files of the format (false for an export-only format
    /// such as posed OBJ).
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
    /// ([`Codec::write_with`] is where images come from).
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

/// A file read faithfully by its codec ([`Codec::open`]): the format crate's own file, kept
/// for what follows a read (counts, a same-format copy, the model) so that none of them
/// reads the bytes again.
pub trait Opened: Send + Sync + fmt::Debug {
    /// The format the file is (a `.gltf` codec reading a `.glb` says `.glb`).
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

/// What [`Codec::open`] gives: the file kept, and what its read warned about.
pub type Opening = Result<(Box<dyn Opened>, Report), FormatError>;

/// A model still to be made from what a read kept ([`Codec::read_pending`]): it owns all it
/// needs, so the bytes read can be freed before it runs.
pub type PendingModel = Box<dyn FnOnce() -> Result<Modelled, FormatError> + Send>;

/// A format, implemented once by its crate.
pub trait Codec: Send + Sync {
    /// What the format is.
    fn info(&self) -> &'static FormatInfo;

    /// Whether `bytes` (the whole file, or at least its first 4 KiB) look like this format.
    /// Content decides, never the extension.
    fn sniff(&self, bytes: &[u8]) -> bool;

    /// Reads a whole file into the neutral model, with a report of what it warned about.
    /// The model's [`Model::up`] is [`FormatInfo::up`].
    fn read(&self, bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), FormatError>;

    /// [`Codec::read`] with the files beside the main one (by default they are not used).
    fn read_with(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
    ) -> Result<(Model, Report), FormatError> {
        let _ = companions;
        self.read(bytes, options)
    }

    /// The file's own counts and facts, as `rigport info` shows them, with the read's
    /// warnings. By default the [`Opened`] file's ([`Codec::open`]), else counted on the
    /// model [`Codec::read`] gives; a codec whose file counts differ from the model's
    /// (welded vertices, fanned polygons) overrides it.
    fn summary(&self, bytes: &[u8], options: &ReadOptions) -> Result<FileSummary, FormatError> {
        let Some(opened) = self.open(bytes, options, &NoCompanions) else {
            let (model, report) = self.read(bytes, options)?;
            return Ok(FileSummary::of_model(self.info().key, &model, &report));
        };
        let (file, report) = opened?;
        Ok(file.summary().with_warnings_of(&report))
    }

    /// A copy of the file in the same format through the faithful layer: byte-identical for
    /// a binary format, content-identical for a text one (comments and unknown lines kept).
    /// By default the [`Opened`] file's [`Opened::to_vec`]; `None` when the codec has no
    /// faithful layer ([`Codec::open`] gives none): the copy then goes through the model.
    fn copy(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Option<Result<(Vec<u8>, Report), FormatError>> {
        let opened = self.open(bytes, options, &NoCompanions)?;
        Some(opened.map(|(file, report)| (file.to_vec(), report)))
    }

    /// Reads the file faithfully and keeps it ([`Opened`]) for the steps that follow;
    /// `None` (the default) when the codec has no faithful layer beyond
    /// [`Codec::read_with`], [`Codec::summary`] and [`Codec::copy`].
    fn open(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
    ) -> Option<Opening> {
        let _ = (bytes, options, companions);
        None
    }

    /// Reads the file for a conversion that frees `bytes` before the model is made (the
    /// input and the model are then never held at once): the read's report now, the model
    /// when the returned [`PendingModel`] runs. By default the faithful file
    /// ([`Codec::open`]) is kept and turned into the model later, or, for a codec without
    /// one, [`Codec::read_model`] runs at once; a codec that builds what the model is made
    /// from while it checks the file keeps that instead (nothing is built twice).
    fn read_pending(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
        model_options: &ModelOptions,
    ) -> Result<(PendingModel, Report), FormatError> {
        let model_options = *model_options;
        match self.open(bytes, options, companions) {
            Some(opened) => {
                let (file, report) = opened?;
                Ok((Box::new(move || file.to_model(&model_options)), report))
            }
            None => {
                let mut modelled = self.read_model(bytes, options, companions, &model_options)?;
                let report = std::mem::take(&mut modelled.report);
                Ok((Box::new(move || Ok(modelled)), report))
            }
        }
    }

    /// Bytes to the neutral model in one step, with the images the file holds, for a
    /// conversion that needs nothing else of the file. By default [`Codec::open`] then
    /// [`Opened::to_model`], or [`Codec::read_with`] for a codec without a faithful layer;
    /// a codec with a faster way overrides it.
    fn read_model(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
        model_options: &ModelOptions,
    ) -> Result<Modelled, FormatError> {
        match self.open(bytes, options, companions) {
            Some(opened) => {
                let (file, mut report) = opened?;
                let mut modelled = file.to_model(model_options)?;
                report.extend(std::mem::take(&mut modelled.report));
                modelled.report = report;
                Ok(modelled)
            }
            None => {
                let (model, report) = self.read_with(bytes, options, companions)?;
                Ok(Modelled {
                    model,
                    images: Vec::new(),
                    report,
                })
            }
        }
    }

    /// Writes `model` as this format. `main` is the main output's file name: companions
    /// are named after it. Formats that cannot be written keep the default, an error.
    fn write(
        &self,
        model: &Model,
        main: &str,
        options: &WriteOptions,
    ) -> Result<Written, FormatError> {
        let _ = (model, main, options);
        Err(FormatError::new(
            self.info().key,
            Location::Unknown,
            "this format is not written",
        ))
    }

    /// [`Codec::write`] with files the writer may read (texture images to embed, looked up
    /// among `files` by the rule of [`crate::texture`]); by default they are not used.
    fn write_with(
        &self,
        model: &Model,
        main: &str,
        options: &WriteOptions,
        files: &dyn Companions,
    ) -> Result<Written, FormatError> {
        let _ = files;
        self.write(model, main, options)
    }

    /// [`Codec::write_with`] (or [`Codec::write`] when there are no `files`) for a model the
    /// caller gives away: a writer may free each part of the model once it is written, so a
    /// large model is not held in full beside its output. The output is the same; by
    /// default the model is simply borrowed.
    fn write_owned(
        &self,
        model: Model,
        main: &str,
        options: &WriteOptions,
        files: Option<&dyn Companions>,
    ) -> Result<Written, FormatError> {
        match files {
            Some(files) => self.write_with(&model, main, options, files),
            None => self.write(&model, main, options),
        }
    }
}

#[cfg(test)]
mod tests;
