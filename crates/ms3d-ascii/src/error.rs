//! Errors with a byte span, rendered naga-style only when shown.

use rigport_model_core::{LimitError, ReferenceProblem, TooMany, diagnostic};
use std::ops::Range;

/// Why a file could not be read or converted.
///
/// Read errors carry the byte span of the offending text; [`Error::render`] turns it into
/// `line:column` and draws the line. Nothing counts lines until then.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A byte sequence that is no token of the format.
    #[error("unexpected {found}")]
    Lex {
        /// Where.
        span: Range<usize>,
        /// What was there.
        found: String,
    },
    /// A token other than the one the grammar needs.
    #[error("expected {expected}, found {found}")]
    Unexpected {
        /// Where.
        span: Range<usize>,
        /// What the grammar needs.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// The input ended where more was needed.
    #[error("unexpected end of input, expected {expected}")]
    UnexpectedEof {
        /// The end of the input.
        span: Range<usize>,
        /// What the grammar needs.
        expected: &'static str,
    },
    /// A number token that does not fit the field (a fraction where an integer belongs, a
    /// value outside the type's range).
    #[error("expected {expected}, found `{found}`")]
    BadNumber {
        /// Where.
        span: Range<usize>,
        /// What the field needs.
        expected: &'static str,
        /// The token.
        found: String,
    },
    /// A count promises more records than the rest of the input can hold.
    #[error("{count} {what} need at least {needed} more bytes, but only {available} are left")]
    CountExceedsInput {
        /// The count token.
        span: Range<usize>,
        /// What is counted.
        what: &'static str,
        /// The count.
        count: u64,
        /// Fewest bytes those records could take.
        needed: u64,
        /// Bytes after the count line.
        available: u64,
    },
    /// A known block appears a second time.
    #[error("`{name}:` block repeated; the first one is on line {first_line}")]
    DuplicateBlock {
        /// The second header.
        span: Range<usize>,
        /// Block word.
        name: &'static str,
        /// Line of the first header.
        first_line: usize,
    },
    /// An index that points past what it indexes.
    #[error("{what} {index} out of range ({len} available)")]
    IndexOutOfRange {
        /// The index token.
        span: Range<usize>,
        /// What is indexed (`"vertex index"`, `"material index"`…).
        what: &'static str,
        /// The index as written.
        index: i64,
        /// Number of elements it may select.
        len: usize,
    },
    /// The file does not start with `// MilkShape 3D ASCII` (strict reading only).
    #[error("missing `// MilkShape 3D ASCII` header line")]
    MissingMagic {
        /// The start of the input.
        span: Range<usize>,
    },
    /// Reserving memory for a count would exceed the read limits.
    #[error("{source}")]
    Limit {
        /// The count token.
        span: Range<usize>,
        /// The refused reservation.
        source: LimitError,
    },
    /// A conversion option is unusable.
    #[error("invalid frame rate {0}: it must be finite and above 0")]
    InvalidFps(f32),
    /// A model holds more of something than MilkShape can (the message names the limit).
    #[error(transparent)]
    TooMany(#[from] TooMany),
    /// A model refers to something that does not exist (the first problem
    /// [`Model::check_references`](rigport_model_core::Model::check_references) found).
    #[error("invalid model: {0}")]
    InvalidModel(#[from] ReferenceProblem),
    /// Reading the input failed.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

impl Error {
    /// The byte span of the offending text, for errors that come from the input.
    pub fn span(&self) -> Option<Range<usize>> {
        match self {
            Error::Lex { span, .. }
            | Error::Unexpected { span, .. }
            | Error::UnexpectedEof { span, .. }
            | Error::BadNumber { span, .. }
            | Error::CountExceedsInput { span, .. }
            | Error::DuplicateBlock { span, .. }
            | Error::IndexOutOfRange { span, .. }
            | Error::MissingMagic { span }
            | Error::Limit { span, .. } => Some(span.clone()),
            Error::InvalidFps(_) | Error::TooMany(_) | Error::InvalidModel(_) | Error::Io(_) => {
                None
            }
        }
    }

    /// The byte offset where [`Error::span`] starts, as binary formats report it.
    pub fn offset(&self) -> Option<u64> {
        self.span().map(|span| span.start as u64)
    }

    /// The error as a compiler would show it: message, `line:column` and the offending line
    /// with the span underlined. `src` must be the input the error came from.
    pub fn render(&self, src: &[u8]) -> String {
        match self.span() {
            Some(span) => diagnostic::render(src, span, &self.to_string()),
            None => format!("error: {self}"),
        }
    }

    /// Whether the input simply ends inside what was being read: the file ran out, a count
    /// promises more than is left, or the error sits on a last line with no line break after
    /// it (a cut inside a quoted name or a number, `"Bone0` or `4e-`). Lenient reading keeps
    /// such a tail raw with a warning.
    pub(crate) fn is_truncation(&self, src: &[u8]) -> bool {
        match self {
            Error::UnexpectedEof { .. } | Error::CountExceedsInput { .. } => true,
            _ => self
                .span()
                .is_some_and(|s| !src[s.start.min(src.len())..].contains(&b'\n')),
        }
    }
}
