//! [`Error`]: what every format says when it cannot read a file or write a model, with what
//! only one format says as a detail inside it (as image-rs's `ImageError::Decoding` carries
//! its format's error).

use crate::codec::{FormatError, Location};
use crate::{LimitError, ReferenceProblem, TooMany, diagnostic};
use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// Where in the input an error is, as the reader knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum At {
    /// A byte span of a text file; its line and column are found only when shown.
    Span(Range<usize>),
    /// A byte offset into a binary file.
    Offset(u64),
}

impl From<Range<usize>> for At {
    fn from(span: Range<usize>) -> Self {
        At::Span(span)
    }
}

impl From<u64> for At {
    fn from(offset: u64) -> Self {
        At::Offset(offset)
    }
}

/// A read, write or conversion error of a format crate whose own findings are `D`.
///
/// Each format crate names it `Error` (`pub type Error = rigport_model_core::Error<Detail>`).
/// Binary formats' messages name the byte offset; a text format's error is drawn by
/// [`Error::render`] with `line:column` and a caret under the span.
///
/// ```
/// use rigport_model_core::{At, Error};
///
/// let error: Error<std::fmt::Error> = Error::strict(3..7, "a tab inside a name");
/// assert_eq!(error.place(), Some(At::Span(3..7)));
/// assert!(error.render(b"abc name\n").contains("1:4"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error<D> {
    /// What only this format says about its input (a token its grammar does not take, a
    /// chunk that ends past its parent…).
    #[error("{detail}")]
    Format {
        /// Where, when the finding is about one place.
        at: Option<At>,
        /// The format's own finding.
        detail: D,
    },
    /// The input does not start the way the format's files do.
    #[error("not {format} file: byte 0 holds {found:?}, expected \"{expected}\"")]
    BadMagic {
        /// The format with its article ("a B3D").
        format: &'static str,
        /// The magic bytes, as written in the format's specification.
        expected: &'static str,
        /// The first bytes of the input, lossily decoded.
        found: String,
    },
    /// The input ends inside a record.
    #[error(
        "truncated file: reading {what} at byte {offset} needs {needed} bytes, only {available} left"
    )]
    Truncated {
        /// Where the record starts.
        offset: u64,
        /// What was being read.
        what: &'static str,
        /// Bytes the record needs.
        needed: u64,
        /// Bytes left in the input (or in the chunk holding the record).
        available: u64,
    },
    /// A stored value the reader cannot use.
    #[error("invalid {what} at byte {offset}: {value}")]
    Invalid {
        /// Where the value is stored.
        offset: u64,
        /// What the value is.
        what: Cow<'static, str>,
        /// The stored value.
        value: i64,
    },
    /// A warning of a lenient read, which strict reading refuses.
    #[error("{}{message} (strict mode)", prefix(.at))]
    Strict {
        /// Where, when the warning is about one place.
        at: Option<At>,
        /// The warning.
        message: String,
    },
    /// Reserving memory for the records would exceed the [`Limits`](crate::Limits).
    #[error("{}{source}", prefix(.at))]
    Limit {
        /// The record that did not fit, when known.
        at: Option<At>,
        /// The refused reservation.
        #[source]
        source: LimitError,
    },
    /// A model holds more of something than the format takes.
    #[error(transparent)]
    TooMany(#[from] TooMany),
    /// A model refers to something that does not exist, or its joints form a cycle.
    #[error("invalid model: {0}")]
    InvalidModel(String),
    /// A model the format cannot hold for a reason of its own.
    #[error("cannot write {format}: {message}")]
    Unwritable {
        /// The format, as a person names it.
        format: &'static str,
        /// Why.
        message: String,
    },
    /// An option out of its range (a frame rate of 0, a version the writer does not have).
    #[error("invalid option: {0}")]
    InvalidOption(String),
    /// Reading the input failed.
    #[error("cannot read input: {0}")]
    Io(#[from] std::io::Error),
}

/// `at byte N: ` for a binary place; nothing for text, whose place [`Error::render`] draws.
fn prefix(at: &Option<At>) -> String {
    match at {
        Some(At::Offset(offset)) => format!("at byte {offset}: "),
        _ => String::new(),
    }
}

impl<D> From<ReferenceProblem> for Error<D> {
    fn from(problem: ReferenceProblem) -> Self {
        Error::InvalidModel(problem.to_string())
    }
}

impl<D> From<LimitError> for Error<D> {
    fn from(source: LimitError) -> Self {
        Error::Limit { at: None, source }
    }
}

impl<D> Error<D> {
    /// The format's own finding `detail`, at `at`.
    pub fn at(at: impl Into<At>, detail: D) -> Self {
        Error::Format {
            at: Some(at.into()),
            detail,
        }
    }

    /// The format's own finding `detail`, about no one place.
    pub fn detail(detail: D) -> Self {
        Error::Format { at: None, detail }
    }

    /// A warning at `at` that strict reading refuses.
    pub fn strict(at: impl Into<At>, message: impl Into<String>) -> Self {
        Error::Strict {
            at: Some(at.into()),
            message: message.into(),
        }
    }

    /// A reservation at `at` past the read limits.
    pub fn limit(at: impl Into<At>, source: LimitError) -> Self {
        Error::Limit {
            at: Some(at.into()),
            source,
        }
    }

    /// A frame rate that is not finite and above 0.
    pub fn invalid_fps(fps: f32) -> Self {
        Error::InvalidOption(format!("frame rate {fps}: it must be finite and above 0"))
    }

    /// Where in the input the error is, for errors found while reading.
    pub fn place(&self) -> Option<At> {
        match self {
            Error::Format { at, .. } | Error::Strict { at, .. } | Error::Limit { at, .. } => {
                at.clone()
            }
            Error::BadMagic { .. } => Some(At::Offset(0)),
            Error::Truncated { offset, .. } | Error::Invalid { offset, .. } => {
                Some(At::Offset(*offset))
            }
            _ => None,
        }
    }

    /// The byte offset the error is about (a text span's start), for errors found while
    /// reading.
    pub fn offset(&self) -> Option<u64> {
        match self.place()? {
            At::Span(span) => Some(span.start as u64),
            At::Offset(offset) => Some(offset),
        }
    }

    /// The byte span of the offending text, for a text format's read errors.
    pub fn span(&self) -> Option<Range<usize>> {
        match self.place()? {
            At::Span(span) => Some(span),
            At::Offset(_) => None,
        }
    }

    /// 1-based line and column of a text error in `src`, the input it came from.
    pub fn line_col(&self, src: &[u8]) -> Option<(usize, usize)> {
        self.span()
            .map(|span| diagnostic::line_col(src, span.start))
    }

    /// Where the error is, as [`FormatError`](crate::codec::FormatError) says it: `line:col`
    /// in `src` for text, the byte offset for binary.
    pub fn location(&self, src: &[u8]) -> Location {
        match self.place() {
            Some(At::Span(span)) if span.start <= src.len() => Location::in_text(src, span.start),
            Some(At::Span(span)) => Location::Offset(span.start as u64),
            Some(At::Offset(offset)) => Location::Offset(offset),
            None => Location::Unknown,
        }
    }
}

impl<D: fmt::Display> Error<D> {
    /// The error as a compiler shows it: for text, the message, `line:column` and the
    /// offending line with the span underlined (`src` must be the input the error came
    /// from); otherwise `error: ` and the message.
    pub fn render(&self, src: &[u8]) -> String {
        match self.span() {
            Some(span) => diagnostic::render(src, span, &self.to_string()),
            None => format!("error: {self}"),
        }
    }
}

impl<D: std::error::Error + Send + Sync + 'static> Error<D> {
    /// This error as the codec error of the format `key`: located and drawn against the
    /// `bytes` read; without them (an error of a conversion, once the bytes are gone), as
    /// its own sentence, keeping only a byte offset.
    pub fn into_format_error(self, key: &'static str, bytes: Option<&[u8]>) -> FormatError {
        match bytes {
            Some(bytes) => {
                let location = self.location(bytes);
                let shown = match self.span() {
                    Some(span) => diagnostic::render(bytes, span, &self.to_string()),
                    None => self.to_string(),
                };
                FormatError::wrap(key, location, self).with_rendered(shown)
            }
            None => {
                let location = Location::at_offset(match self.place() {
                    Some(At::Offset(offset)) => Some(offset),
                    _ => None,
                });
                FormatError::wrap_plain(key, location, self)
            }
        }
    }
}
