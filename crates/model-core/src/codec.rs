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
//!     description: "An empty model (`.empty`)",
//!     extensions: &["empty"],
//!     up: UpAxis::Y,
//!     writes: true,
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

use crate::{FileSummary, Model, ReadOptions, Report, UpAxis};
use std::any::Any;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// What a format is: the facts a registry, a file dialog or `--to` needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    /// Stable key, as in `--to` and `info --json` (`"md5mesh"`).
    pub key: &'static str,
    /// A one-line description for people (`"id Tech 4 MD5 mesh (`.md5mesh`)"`).
    pub description: &'static str,
    /// File extensions without the dot, lower case, the usual one first.
    pub extensions: &'static [&'static str],
    /// The axis models stand along in this format.
    pub up: UpAxis,
    /// Whether [`Codec::write`] is implemented.
    pub writes: bool,
}

/// Where in the input an error is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Location {
    /// Not tied to one place (a model past a format's limits, say).
    #[default]
    Unknown,
    /// A byte offset into a binary file.
    Offset(u64),
    /// A 1-based line and column (in bytes) of a text file.
    Text {
        /// Line, from 1.
        line: u32,
        /// Column in bytes, from 1.
        column: u32,
    },
}

impl Location {
    /// A binary format's error location: the byte offset, when the error has one.
    pub fn at_offset(offset: Option<u64>) -> Self {
        offset.map_or(Location::Unknown, Location::Offset)
    }

    /// A text format's error location: the line and column where `span_start` is, when the
    /// error has one.
    pub fn at_text(text: &[u8], span_start: Option<usize>) -> Self {
        span_start.map_or(Location::Unknown, |start| Location::in_text(text, start))
    }

    /// The line and column of byte `offset` of `text` (see [`crate::diagnostic::line_col`]).
    pub fn in_text(text: &[u8], offset: usize) -> Self {
        let (line, column) = crate::diagnostic::line_col(text, offset);
        Location::Text {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Unknown => Ok(()),
            Location::Offset(offset) => write!(f, "byte {offset}"),
            Location::Text { line, column } => write!(f, "{line}:{column}"),
        }
    }
}

/// The error every codec returns: the format, where, what, and the format crate's own error.
#[derive(Debug)]
pub struct FormatError {
    /// The format's key ([`FormatInfo::key`]).
    pub format: &'static str,
    /// Where in the input.
    pub location: Location,
    /// A sentence for a person.
    pub message: String,
    /// The format crate's own error, for callers that want its details.
    pub source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
    /// The error as the format crate shows it to a person, when it draws its errors itself
    /// (a text format's line with a caret, a binary format's own sentence):
    /// [`FormatError::render`] then gives it as it is.
    pub rendered: Option<String>,
    /// The file other than the one read that the error is about (an external buffer or
    /// image a `.gltf` names that could not be read), when there is one.
    pub file: Option<PathBuf>,
}

impl FormatError {
    /// An error at `location` with a message and no source.
    pub fn new(format: &'static str, location: Location, message: impl Into<String>) -> Self {
        Self {
            format,
            location,
            message: message.into(),
            source: None,
            rendered: None,
            file: None,
        }
    }

    /// An error wrapping a format crate's own error; the message is its `Display`.
    pub fn wrap<E>(format: &'static str, location: Location, error: E) -> Self
    where
        E: std::error::Error + Send + Sync + 'static,
    {
        Self {
            format,
            location,
            message: error.to_string(),
            source: Some(Box::new(error)),
            rendered: None,
            file: None,
        }
    }

    /// An error wrapping a format crate's own error, shown to people as that error's own
    /// `Display` (no format or location before it): for errors not about the input's text
    /// (a model a writer refuses, a conversion step).
    pub fn wrap_plain<E>(format: &'static str, location: Location, error: E) -> Self
    where
        E: std::error::Error + Send + Sync + 'static,
    {
        let rendered = error.to_string();
        Self::wrap(format, location, error).with_rendered(rendered)
    }

    /// This error, shown to people as `rendered` (see [`FormatError::rendered`]).
    pub fn with_rendered(mut self, rendered: impl Into<String>) -> Self {
        self.rendered = Some(rendered.into());
        self
    }

    /// This error, about the file at `path` (see [`FormatError::file`]).
    pub fn with_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.file = Some(path.into());
        self
    }
}

impl FormatError {
    /// The error as a person should see it: the format crate's own rendering when it gave
    /// one ([`FormatError::rendered`]); else, for a text location, the message,
    /// `--> line:col`, the line of `src` and a caret under the column (as
    /// [`crate::diagnostic::render`] draws it); otherwise the one-line
    /// [`Display`](fmt::Display). Pass the bytes read.
    pub fn render(&self, src: &[u8]) -> String {
        if let Some(rendered) = &self.rendered {
            return rendered.clone();
        }
        match self.location {
            Location::Text { line, column } => {
                let at = crate::diagnostic::offset_of(src, line as usize, column as usize);
                let message = format!("{}: {}", self.format, self.message);
                crate::diagnostic::render(src, at..at + 1, &message)
            }
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::Unknown => write!(f, "{}: {}", self.format, self.message),
            location => write!(f, "{}: {location}: {}", self.format, self.message),
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// Files a read may need beside the main one, looked up by file name (a `.md5anim` beside a
/// `.md5mesh`, a `.gltf`'s `.bin`). A folder on disk, a zip or the files a web page was
/// given all answer the same way.
pub trait Companions {
    /// The content of the file called `name` beside the main file, if there is one.
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>>;
    /// The names of every file beside the main one (for codecs that look for a pattern,
    /// such as `<stem>*.md5anim`); empty when the source cannot list them.
    fn names(&self) -> Vec<String> {
        Vec::new()
    }
    /// The size in bytes of the file called `name`, if there is one, so a caller can refuse
    /// a file larger than its limits before reading it. By default the file is read to
    /// measure it; sources that know sizes (a folder, files in memory) answer directly.
    fn size(&self, name: &str) -> Option<u64> {
        self.get(name).map(|bytes| bytes.len() as u64)
    }
    /// The folder on disk the companions are in, when they are files of one (formats whose
    /// files name companions by relative path, such as a `.gltf`'s `textures/skin.png`,
    /// read them from there).
    fn folder(&self) -> Option<&Path> {
        None
    }
}

/// A borrowed source answers as the source does.
impl<T: Companions + ?Sized> Companions for &T {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        (**self).get(name)
    }
    fn names(&self) -> Vec<String> {
        (**self).names()
    }
    fn size(&self, name: &str) -> Option<u64> {
        (**self).size(name)
    }
    fn folder(&self) -> Option<&Path> {
        (**self).folder()
    }
}

/// A shared source answers as the source does.
impl<T: Companions + ?Sized> Companions for std::sync::Arc<T> {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        (**self).get(name)
    }
    fn names(&self) -> Vec<String> {
        (**self).names()
    }
    fn size(&self, name: &str) -> Option<u64> {
        (**self).size(name)
    }
    fn folder(&self) -> Option<&Path> {
        (**self).folder()
    }
}

/// No files beside the main one.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCompanions;

impl Companions for NoCompanions {
    fn get(&self, _: &str) -> Option<Cow<'_, [u8]>> {
        None
    }
    fn size(&self, _: &str) -> Option<u64> {
        None
    }
}

/// Files given in memory by name (the files a web page was handed, say). A name may hold a
/// relative path (`textures/skin.png`) when the caller keeps folders.
impl<S: std::hash::BuildHasher> Companions for HashMap<String, Vec<u8>, S> {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        self.get(name).map(|bytes| Cow::Borrowed(bytes.as_slice()))
    }
    fn size(&self, name: &str) -> Option<u64> {
        self.get(name).map(|bytes| bytes.len() as u64)
    }
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.keys().cloned().collect();
        names.sort();
        names
    }
}

/// Files given in memory by name, in name order.
impl Companions for BTreeMap<String, Vec<u8>> {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        self.get(name).map(|bytes| Cow::Borrowed(bytes.as_slice()))
    }
    fn size(&self, name: &str) -> Option<u64> {
        self.get(name).map(|bytes| bytes.len() as u64)
    }
    fn names(&self) -> Vec<String> {
        self.keys().cloned().collect()
    }
}

/// The files in a folder on disk: the companions of a model read from that folder.
///
/// A name is a file name, or a relative path below the folder with `/` or `\` between its
/// parts; names with a drive, a root or a `..` part name nothing (a model's references must
/// not reach outside its folder). [`Companions::names`] lists the folder's files (not its
/// subfolders), sorted. The folder is listed once, on the first call, and each entry is only
/// looked up on disk when it is a link (a folder of thousands of files costs one listing,
/// not a lookup per file per texture).
///
/// ```
/// use rigport_model_core::codec::{Companions, Folder};
///
/// let dir = std::env::temp_dir().join(format!("rigport-folder-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("skin.png"), b"png").unwrap();
/// let folder = Folder::new(&dir);
/// assert_eq!(folder.get("skin.png").as_deref(), Some(&b"png"[..]));
/// assert_eq!(folder.size(r".\skin.png"), Some(3));
/// assert!(folder.get("../skin.png").is_none());
/// assert_eq!(folder.names(), ["skin.png"]);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct Folder {
    dir: PathBuf,
    /// The folder's file names, sorted, once listed.
    listing: OnceLock<Vec<String>>,
}

/// Two folders are equal when they name the same folder, listed or not.
impl PartialEq for Folder {
    fn eq(&self, other: &Self) -> bool {
        self.dir == other.dir
    }
}

impl Eq for Folder {}

impl Folder {
    /// The files in folder `dir` (`""` is the current folder).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        Self {
            dir,
            listing: OnceLock::new(),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of the file `name` names inside the folder, if the name stays inside it.
    pub fn path_of(&self, name: &str) -> Option<PathBuf> {
        let normalised = name.trim().replace('\\', "/");
        let relative = Path::new(&normalised);
        let inside = !normalised.is_empty()
            && !normalised.contains(':')
            && relative
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
            && relative
                .components()
                .any(|c| matches!(c, Component::Normal(_)));
        inside.then(|| self.dir.join(relative))
    }
}

impl Companions for Folder {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        let path = self.path_of(name)?;
        if !path.is_file() {
            return None;
        }
        std::fs::read(path).ok().map(Cow::Owned)
    }

    fn size(&self, name: &str) -> Option<u64> {
        let metadata = std::fs::metadata(self.path_of(name)?).ok()?;
        metadata.is_file().then_some(metadata.len())
    }

    fn folder(&self) -> Option<&Path> {
        Some(&self.dir)
    }

    fn names(&self) -> Vec<String> {
        self.listing.get_or_init(|| list_files(&self.dir)).clone()
    }
}

/// The names of the files in `dir` (and of links to files), sorted. The listing's own file
/// types answer for everything but links, which are followed to see what they name.
fn list_files(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| match entry.file_type() {
            Ok(kind) if kind.is_symlink() => entry.path().is_file(),
            Ok(kind) => kind.is_file(),
            Err(_) => false,
        })
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    names.sort();
    names
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

/// Files a write may read besides the model (texture images to embed): `files` given in
/// memory first (the images a source file held), then the files of `under`, if any.
pub struct Overlay<'a> {
    files: Vec<(&'a str, &'a [u8])>,
    under: Option<&'a dyn Companions>,
}

impl<'a> Overlay<'a> {
    /// `files` (name and content) over `under`.
    pub fn new(
        files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
        under: Option<&'a dyn Companions>,
    ) -> Self {
        Self {
            files: files.into_iter().collect(),
            under,
        }
    }
}

impl fmt::Debug for Overlay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.files.iter().map(|(name, _)| *name).collect();
        f.debug_struct("Overlay")
            .field("files", &names)
            .field("under", &self.under.is_some())
            .finish()
    }
}

impl Companions for Overlay<'_> {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        match self.files.iter().find(|(n, _)| *n == name) {
            Some((_, bytes)) => Some(Cow::Borrowed(bytes)),
            None => self.under?.get(name),
        }
    }
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.files.iter().map(|(n, _)| (*n).to_owned()).collect();
        if let Some(under) = self.under {
            for name in under.names() {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        names
    }
    fn size(&self, name: &str) -> Option<u64> {
        match self.files.iter().find(|(n, _)| *n == name) {
            Some((_, bytes)) => Some(bytes.len() as u64),
            None => self.under?.size(name),
        }
    }
    fn folder(&self) -> Option<&Path> {
        self.under?.folder()
    }
}

/// One file a write produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// File name, in the main output's folder.
    pub name: String,
    /// Content.
    pub bytes: Vec<u8>,
}

/// What [`Codec::write`] produced: the main file first, then its companions, and a report of
/// everything the format could not carry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Written {
    /// Files, the main one first.
    pub files: Vec<OutputFile>,
    /// Losses and notes.
    pub report: Report,
}

impl Written {
    /// One file and an empty report.
    pub fn single(name: &str, bytes: Vec<u8>) -> Self {
        Self {
            files: vec![OutputFile {
                name: name.to_owned(),
                bytes,
            }],
            report: Report::default(),
        }
    }
}

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

/// A format crate's faithful layer, described once so that [`FaithfulCodec`] can implement
/// [`Codec`] over it: the crate names its file type, its error and five functions it already
/// has, and gets reading, summaries, faithful copies and writing through the shared trait.
pub trait Faithful: Send + Sync + 'static {
    /// The faithful file (`File`).
    type File: Send + Sync + fmt::Debug + 'static;
    /// The crate's error.
    type Error: std::error::Error + Send + Sync + 'static;

    /// What the format is.
    fn info() -> &'static FormatInfo;
    /// Whether `bytes` look like this format.
    fn sniff(bytes: &[u8]) -> bool;
    /// The faithful read (`File::from_slice_with`).
    fn read(bytes: &[u8], options: &ReadOptions) -> Result<(Self::File, Report), Self::Error>;
    /// The faithful write (`File::to_vec`).
    fn to_vec(file: &Self::File) -> Vec<u8>;
    /// What `info` prints (`File::summary`).
    fn summary(file: &Self::File) -> FileSummary;
    /// The neutral model (`to_model` with the default options).
    fn to_model(file: &Self::File) -> Result<(Model, Report), Self::Error>;
    /// The file written from a model (`from_model` with the default options).
    fn from_model(model: &Model) -> Result<(Self::File, Report), Self::Error>;
    /// [`Faithful::from_model`] for a model the caller gives away (by default borrowed); a
    /// crate that can free parts of the model as it goes overrides it.
    fn from_model_owned(model: Model) -> Result<(Self::File, Report), Self::Error> {
        Self::from_model(&model)
    }
    /// Where in `bytes` the error is.
    fn location(error: &Self::Error, bytes: &[u8]) -> Location;

    /// The error as a person should see it, against the `bytes` read (by default its
    /// `Display`; text formats draw the line and a caret).
    fn render(error: &Self::Error, bytes: &[u8]) -> String {
        let _ = bytes;
        error.to_string()
    }

    /// Bytes to the neutral model in one step; a crate with a faster way than
    /// [`Faithful::read`] then [`Faithful::to_model`] overrides it.
    fn read_model(bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), Self::Error> {
        let (file, mut report) = Self::read(bytes, options)?;
        let (model, more) = Self::to_model(&file)?;
        report.extend(more);
        Ok((model, report))
    }

    /// The read of [`Codec::read_pending`]: by default the faithful file, turned into the
    /// model when the closure runs; a crate that builds what the model is made from while
    /// it checks the file keeps that instead.
    #[allow(clippy::type_complexity)]
    fn read_pending(
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Result<
        (
            Box<dyn FnOnce() -> Result<(Model, Report), Self::Error> + Send>,
            Report,
        ),
        Self::Error,
    > {
        let (file, report) = Self::read(bytes, options)?;
        Ok((Box::new(move || Self::to_model(&file)), report))
    }
}

/// The [`Codec`] of a crate's [`Faithful`] layer.
pub struct FaithfulCodec<F>(std::marker::PhantomData<fn() -> F>);

impl<F> FaithfulCodec<F> {
    /// The codec (a unit value: usable in a `static`).
    pub const fn new() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<F> Default for FaithfulCodec<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F> fmt::Debug for FaithfulCodec<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FaithfulCodec")
    }
}

impl<F: Faithful> FaithfulCodec<F> {
    fn error(error: F::Error, bytes: &[u8]) -> FormatError {
        let location = F::location(&error, bytes);
        let rendered = F::render(&error, bytes);
        FormatError::wrap(F::info().key, location, error).with_rendered(rendered)
    }
}

/// The file a faithful layer made from a model, written as `main`, with its report.
fn written<F: Faithful>(
    made: Result<(F::File, Report), F::Error>,
    main: &str,
) -> Result<Written, FormatError> {
    let (file, report) =
        made.map_err(|e| FormatError::wrap_plain(F::info().key, Location::Unknown, e))?;
    let mut written = Written::single(main, F::to_vec(&file));
    written.report = report;
    Ok(written)
}

/// A model made from a file whose bytes are gone, with its error located as it can
/// still be: a byte offset still says where, a line cannot.
fn modelled<F: Faithful>(made: Result<(Model, Report), F::Error>) -> Result<Modelled, FormatError> {
    let (model, report) = made.map_err(|error| {
        let location = match F::location(&error, &[]) {
            Location::Offset(offset) => Location::Offset(offset),
            _ => Location::Unknown,
        };
        FormatError::wrap_plain(F::info().key, location, error)
    })?;
    Ok(Modelled {
        model,
        images: Vec::new(),
        report,
    })
}

/// A [`Faithful`] layer's file, kept by [`FaithfulCodec::open`].
struct FaithfulFile<F: Faithful>(F::File);

impl<F: Faithful> fmt::Debug for FaithfulFile<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<F: Faithful> Opened for FaithfulFile<F> {
    fn info(&self) -> &'static FormatInfo {
        F::info()
    }

    fn summary(&self) -> FileSummary {
        F::summary(&self.0)
    }

    fn to_vec(&self) -> Vec<u8> {
        F::to_vec(&self.0)
    }

    fn to_model(&self, _: &ModelOptions) -> Result<Modelled, FormatError> {
        modelled::<F>(F::to_model(&self.0))
    }

    fn as_any(&self) -> &dyn Any {
        &self.0
    }
}

impl<F: Faithful> Codec for FaithfulCodec<F> {
    fn info(&self) -> &'static FormatInfo {
        F::info()
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        F::sniff(bytes)
    }

    fn read(&self, bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), FormatError> {
        F::read_model(bytes, options).map_err(|e| Self::error(e, bytes))
    }

    fn open(&self, bytes: &[u8], options: &ReadOptions, _: &dyn Companions) -> Option<Opening> {
        Some(match F::read(bytes, options) {
            Ok((file, report)) => {
                Ok((Box::new(FaithfulFile::<F>(file)) as Box<dyn Opened>, report))
            }
            Err(e) => Err(Self::error(e, bytes)),
        })
    }

    fn read_model(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        _: &dyn Companions,
        _: &ModelOptions,
    ) -> Result<Modelled, FormatError> {
        let (model, report) = self.read(bytes, options)?;
        Ok(Modelled {
            model,
            images: Vec::new(),
            report,
        })
    }

    fn read_pending(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        _: &dyn Companions,
        _: &ModelOptions,
    ) -> Result<(PendingModel, Report), FormatError> {
        let (pending, report) =
            F::read_pending(bytes, options).map_err(|e| Self::error(e, bytes))?;
        Ok((Box::new(move || modelled::<F>(pending())), report))
    }

    fn write(&self, model: &Model, main: &str, _: &WriteOptions) -> Result<Written, FormatError> {
        written::<F>(F::from_model(model), main)
    }

    // The files are not used, as in `write_with`.
    fn write_owned(
        &self,
        model: Model,
        main: &str,
        _: &WriteOptions,
        _: Option<&dyn Companions>,
    ) -> Result<Written, FormatError> {
        written::<F>(F::from_model_owned(model), main)
    }
}

/// Implements [`Faithful`] for a unit struct `$ty` of a format crate whose root has the usual
/// faithful layer (`File` with `from_slice_with`, `to_vec` and `summary`; `Error`; `sniff`;
/// `to_model` and `from_model` with `ConvertOptions`), and defines `CODEC`, its
/// [`FaithfulCodec`]. `info` is the crate's [`FormatInfo`]; `location` says where an error is,
/// given the error and the bytes read; further `Faithful` methods (a faster `read_model`)
/// may follow in braces.
///
/// ```ignore
/// rigport_model_core::faithful_codec!(Iqm, INFO, |error, _bytes| {
///     Location::at_offset(error.offset())
/// });
/// ```
// `crate::` is meant: it names the format crate that calls the macro, whose root holds
// `File`, `Error`, `sniff`, `to_model`, `from_model` and `ConvertOptions`.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! faithful_codec {
    ($ty:ident, $info:expr, |$error:ident, $bytes:ident| $location:expr $(, { $($extra:tt)* })?) => {
        /// The faithful layer of this crate, as
        /// [`Faithful`](rigport_model_core::codec::Faithful) describes it.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $ty;

        /// This format's codec.
        pub const CODEC: $crate::codec::FaithfulCodec<$ty> = $crate::codec::FaithfulCodec::new();

        impl $crate::codec::Faithful for $ty {
            type File = crate::File;
            type Error = crate::Error;

            fn info() -> &'static $crate::codec::FormatInfo {
                &$info
            }

            fn sniff(bytes: &[u8]) -> bool {
                crate::sniff(bytes)
            }

            fn read(
                bytes: &[u8],
                options: &$crate::ReadOptions,
            ) -> Result<(crate::File, $crate::Report), crate::Error> {
                crate::File::from_slice_with(bytes, options)
            }

            fn to_vec(file: &crate::File) -> Vec<u8> {
                file.to_vec()
            }

            fn summary(file: &crate::File) -> $crate::FileSummary {
                file.summary()
            }

            fn to_model(
                file: &crate::File,
            ) -> Result<($crate::Model, $crate::Report), crate::Error> {
                crate::to_model(file, &crate::ConvertOptions::default())
            }

            fn from_model(
                model: &$crate::Model,
            ) -> Result<(crate::File, $crate::Report), crate::Error> {
                crate::from_model(model, &crate::ConvertOptions::default())
            }

            fn location($error: &crate::Error, $bytes: &[u8]) -> $crate::codec::Location {
                $location
            }

            $($($extra)*)?
        }
    };
}

/// Defines, on a format crate's faithful `File`, the two ways of reading that follow from its
/// `File::from_slice_with`: `File::from_slice` (lenient, default limits, warnings dropped)
/// and `File::read` (everything from an `io::Read`, then `from_slice`). The crate's `Error`
/// must convert from `std::io::Error`.
///
/// ```ignore
/// rigport_model_core::faithful_readers!();
/// ```
// `crate::` is meant: it names the format crate that calls the macro.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! faithful_readers {
    () => {
        impl crate::File {
            /// Reads a file leniently with the default limits; the warnings are dropped
            /// (see `File::from_slice_with` for them).
            pub fn from_slice(bytes: &[u8]) -> Result<crate::File, crate::Error> {
                Self::from_slice_with(bytes, &$crate::ReadOptions::default()).map(|(file, _)| file)
            }

            /// Reads everything from `reader`, then parses it with `File::from_slice`.
            pub fn read<R: std::io::Read>(mut reader: R) -> Result<crate::File, crate::Error> {
                let mut bytes = Vec::new();
                reader.read_to_end(&mut bytes)?;
                Self::from_slice(&bytes)
            }
        }
    };
}

/// The stem of a main output name (`"hero.md5mesh"` → `"hero"`), for naming companions.
pub fn stem_of(main: &str) -> &str {
    match main.rfind('.') {
        Some(dot) if dot > 0 => &main[..dot],
        _ => main,
    }
}

/// A name made safe as part of a file name: letters, digits, `-`, `_` and `.` kept, anything
/// else `_`; never empty, never `.` or `..` alone.
pub fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() || safe.chars().all(|c| c == '.') {
        "_".repeat(safe.len().max(1))
    } else {
        safe
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_read_as_people_expect() {
        assert_eq!(
            Location::in_text(b"a\nbc d", 5),
            Location::Text { line: 2, column: 4 }
        );
        let e = FormatError::new("smd", Location::Text { line: 3, column: 7 }, "bad number");
        assert_eq!(e.to_string(), "smd: 3:7: bad number");
        let e = FormatError::new("iqm", Location::Unknown, "too many joints");
        assert_eq!(e.to_string(), "iqm: too many joints");
    }

    #[test]
    fn text_errors_render_with_the_line_and_a_caret() {
        let src = b"version 1\r\nnodes\r\n  0 \"root\" x\r\n";
        let e = FormatError::new("smd", Location::in_text(src, 29), "expected a number");
        let shown = e.render(src);
        assert!(shown.contains("--> 3:12"), "{shown}");
        assert!(shown.contains("0 \"root\" x"), "{shown}");
        assert!(shown.ends_with('^'), "{shown}");
        let binary = FormatError::new("iqm", Location::Offset(8), "bad");
        assert_eq!(binary.render(b"whatever"), "iqm: byte 8: bad");
    }

    #[test]
    fn wrapped_errors_keep_their_source() {
        let io = std::io::Error::other("boom");
        let e = FormatError::wrap("md5mesh", Location::Offset(3), io);
        assert_eq!(e.to_string(), "md5mesh: byte 3: boom");
        assert!(std::error::Error::source(&e).is_some());
    }

    #[test]
    fn overlays_answer_from_memory_first() {
        let mut under = BTreeMap::new();
        under.insert("eyes.png".to_owned(), b"eyes".to_vec());
        under.insert("skin.png".to_owned(), b"disk".to_vec());
        let held = [("skin.png", &b"held"[..])];
        let overlay = Overlay::new(held, Some(&under));
        assert_eq!(overlay.get("skin.png").as_deref(), Some(&b"held"[..]));
        assert_eq!(overlay.get("eyes.png").as_deref(), Some(&b"eyes"[..]));
        assert_eq!(overlay.size("skin.png"), Some(4));
        assert_eq!(overlay.names(), ["skin.png", "eyes.png"]);
        let alone = Overlay::new(std::iter::empty(), None);
        assert!(alone.get("skin.png").is_none() && alone.names().is_empty());
    }

    #[test]
    fn plain_errors_show_the_crate_message() {
        let io = std::io::Error::other("too many joints");
        let e = FormatError::wrap_plain("iqm", Location::Offset(4), io);
        assert_eq!(e.render(b"whatever"), "too many joints");
        assert_eq!(e.to_string(), "iqm: byte 4: too many joints");
        let text = FormatError::new("smd", Location::Text { line: 1, column: 1 }, "bad")
            .with_rendered("drawn by the crate");
        assert_eq!(text.render(b"x"), "drawn by the crate");
    }

    #[test]
    #[cfg(unix)]
    fn a_folder_lists_its_files_and_links_to_files_once() {
        use std::os::unix::fs::symlink;
        let dir = std::env::temp_dir().join(format!("rigport-folder-list-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("textures")).unwrap();
        std::fs::write(dir.join("skin.png"), b"png").unwrap();
        std::fs::write(dir.join("Body.TGA"), b"tga").unwrap();
        symlink(dir.join("skin.png"), dir.join("linked.png")).unwrap();
        symlink(dir.join("textures"), dir.join("linked-folder")).unwrap();
        symlink(dir.join("gone.png"), dir.join("dangling.png")).unwrap();
        let folder = Folder::new(&dir);
        assert_eq!(folder.names(), ["Body.TGA", "linked.png", "skin.png"]);
        // Listed once: a file made later is not listed, though it is read by name.
        std::fs::write(dir.join("later.png"), b"later").unwrap();
        assert_eq!(folder.names(), ["Body.TGA", "linked.png", "skin.png"]);
        assert_eq!(folder.size("later.png"), Some(5));
        assert_eq!(folder, Folder::new(&dir), "equal whether listed or not");
        assert_eq!(Folder::new(&dir).names().len(), 4);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn companion_names() {
        assert_eq!(stem_of("hero.md5mesh"), "hero");
        assert_eq!(stem_of(".hidden"), ".hidden");
        assert_eq!(stem_of("noext"), "noext");
        assert_eq!(file_safe("run/fast 2"), "run_fast_2");
        assert_eq!(file_safe(".."), "__");
        assert_eq!(file_safe(""), "_");
    }
}
