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
use std::borrow::Cow;
use std::fmt;

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
}

impl FormatError {
    /// An error at `location` with a message and no source.
    pub fn new(format: &'static str, location: Location, message: impl Into<String>) -> Self {
        Self {
            format,
            location,
            message: message.into(),
            source: None,
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
}

/// No files beside the main one.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCompanions;

impl Companions for NoCompanions {
    fn get(&self, _: &str) -> Option<Cow<'_, [u8]>> {
        None
    }
}

/// The files in a folder on disk, beside the main file.
#[derive(Clone, Debug)]
pub struct Folder {
    dir: std::path::PathBuf,
}

impl Folder {
    /// The files of `dir`.
    pub fn new(dir: impl Into<std::path::PathBuf>) -> Self {
        Self { dir: dir.into() }
    }
}

impl Companions for Folder {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        // A name, never a path: nothing outside the folder is read.
        if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
            return None;
        }
        std::fs::read(self.dir.join(name)).ok().map(Cow::Owned)
    }

    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter(|entry| entry.path().is_file())
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    }
}

/// Options every writer takes.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct WriteOptions {}

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

    /// The file's own counts and facts, as `rigport info` shows them. By default they are
    /// counted on the model [`Codec::read`] gives; a codec whose file counts differ from the
    /// model's (welded vertices, fanned polygons) overrides it.
    fn summary(&self, bytes: &[u8], options: &ReadOptions) -> Result<FileSummary, FormatError> {
        let (model, report) = self.read(bytes, options)?;
        Ok(FileSummary::of_model(self.info().key, &model, &report))
    }

    /// A copy of the file in the same format through the faithful layer: byte-identical for
    /// a binary format, content-identical for a text one (comments and unknown lines kept).
    /// `None` (the default) when the codec has no faithful layer: the copy then goes
    /// through the model.
    fn copy(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Option<Result<(Vec<u8>, Report), FormatError>> {
        let _ = (bytes, options);
        None
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
    fn wrapped_errors_keep_their_source() {
        let io = std::io::Error::other("boom");
        let e = FormatError::wrap("md5mesh", Location::Offset(3), io);
        assert_eq!(e.to_string(), "md5mesh: byte 3: boom");
        assert!(std::error::Error::source(&e).is_some());
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
