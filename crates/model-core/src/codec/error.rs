//! [`FormatError`], the error every codec returns, and where in the input it is ([`Location`]).

use std::fmt;
use std::path::PathBuf;

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
    /// The format's key ([`FormatInfo::key`](super::FormatInfo::key)).
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
