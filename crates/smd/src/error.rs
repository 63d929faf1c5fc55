//! Errors with a byte span, rendered with `line:column` only when shown.

use rigport_model_core::codec::{FormatError, Location};
use rigport_model_core::{LimitError, ReferenceProblem, TooMany, diagnostic};
use std::ops::Range;

/// Why a file could not be read or a model could not be written.
///
/// Read errors carry the byte span of the offending text; [`Error::render`] turns it into
/// `line:column` and draws the line, [`Error::location`] gives the `line:column` alone.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input holds no line of SMD at all (empty, or only blanks and comments).
    #[error("empty input: an SMD file holds `version 1`, a `nodes` block and a `skeleton` block")]
    Empty {
        /// The end of the input.
        span: Range<usize>,
    },
    /// A token other than the one the grammar needs.
    #[error("expected {expected}, found `{found}`")]
    Unexpected {
        /// Where.
        span: Range<usize>,
        /// What the grammar needs.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// A line ended where more fields were needed.
    #[error("line ends early: expected {expected}")]
    ShortLine {
        /// The end of the line.
        span: Range<usize>,
        /// What the grammar needs.
        expected: &'static str,
    },
    /// The input ended inside a block or a triangle.
    #[error("unexpected end of input: {expected}")]
    UnexpectedEof {
        /// The end of the input.
        span: Range<usize>,
        /// What was needed.
        expected: &'static str,
    },
    /// A number that does not fit its field (a fraction where an integer belongs, a value
    /// outside the type's range, a word).
    #[error("expected {expected}, found `{found}`")]
    BadNumber {
        /// Where.
        span: Range<usize>,
        /// What the field needs.
        expected: &'static str,
        /// The token.
        found: String,
    },
    /// A double quote that is never closed on its line.
    #[error("unterminated quoted name")]
    UnterminatedQuote {
        /// From the opening quote to the end of the line.
        span: Range<usize>,
    },
    /// The file has no `nodes` block.
    #[error("no `nodes` block: every SMD file lists its bones")]
    MissingNodes {
        /// The end of the input.
        span: Range<usize>,
    },
    /// Something the lenient reader accepts with a warning, refused by a strict read (the
    /// message is the warning's).
    #[error("{message}")]
    Strict {
        /// Where.
        span: Range<usize>,
        /// The warning.
        message: String,
    },
    /// Keeping what was read would exceed the read limits.
    #[error("{source}")]
    Limit {
        /// The line being kept.
        span: Range<usize>,
        /// The refused reservation.
        source: LimitError,
    },
    /// A conversion option is unusable.
    #[error("invalid frame rate {0}: it must be finite and above 0")]
    InvalidFps(f32),
    /// A model holds more of something than SMD can.
    #[error(transparent)]
    TooMany(#[from] TooMany),
    /// A model refers to something that does not exist (the first problem
    /// [`Model::check_references`](rigport_model_core::Model::check_references) found).
    #[error("invalid model: {0}")]
    InvalidModel(#[from] ReferenceProblem),
    /// A model cannot be written as SMD (the message says why).
    #[error("cannot write SMD: {0}")]
    Unrepresentable(String),
    /// Reading the input failed.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

impl Error {
    /// The byte span of the offending text, for errors that come from the input.
    pub fn span(&self) -> Option<Range<usize>> {
        match self {
            Error::Empty { span }
            | Error::Unexpected { span, .. }
            | Error::ShortLine { span, .. }
            | Error::UnexpectedEof { span, .. }
            | Error::BadNumber { span, .. }
            | Error::UnterminatedQuote { span }
            | Error::MissingNodes { span }
            | Error::Strict { span, .. }
            | Error::Limit { span, .. } => Some(span.clone()),
            Error::InvalidFps(_)
            | Error::TooMany(_)
            | Error::InvalidModel(_)
            | Error::Unrepresentable(_)
            | Error::Io(_) => None,
        }
    }

    /// The 1-based `line:column` of the error in `src`, the input it came from
    /// ([`Location::Unknown`] for errors that come from no input).
    pub fn location(&self, src: &[u8]) -> Location {
        match self.span() {
            Some(span) => Location::in_text(src, span.start),
            None => Location::Unknown,
        }
    }

    /// The error as a compiler would show it: message, `line:column` and the offending line
    /// with the span underlined. `src` must be the input the error came from.
    pub fn render(&self, src: &[u8]) -> String {
        match self.span() {
            Some(span) => diagnostic::render(src, span, &self.to_string()),
            None => format!("error: {self}"),
        }
    }

    /// The codec's error: format `smd`, the location in `src`, this error as its source.
    pub fn into_format_error(self, src: &[u8]) -> FormatError {
        let location = self.location(src);
        FormatError::wrap(crate::KEY, location, self)
    }
}
