//! Errors with a byte span, rendered as `line:column` only when shown.

use rigport_model_core::{LimitError, ReferenceProblem, TooMany, diagnostic};
use std::ops::Range;

/// Why a file could not be read or converted.
///
/// Read errors carry the byte span of the offending text; [`Error::render`] turns it into
/// `line:column` and draws the line. [`Error::line_col`] gives the place alone.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input holds nothing but blanks and comments.
    #[error("empty input: an MD5 file starts with `MD5Version 10`")]
    Empty {
        /// The end of the input.
        span: Range<usize>,
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
    /// The input ended inside a block.
    #[error("unexpected end of input inside the `{block}` block opened on line {line}")]
    UnexpectedEof {
        /// The block's opening line.
        span: Range<usize>,
        /// Block keyword.
        block: String,
        /// Line of the opening brace.
        line: usize,
    },
    /// A number that does not fit its field (a fraction where an integer belongs, a value
    /// out of range, `nan`).
    #[error("expected {expected}, found `{found}`")]
    BadNumber {
        /// Where.
        span: Range<usize>,
        /// What the field needs.
        expected: &'static str,
        /// The token.
        found: String,
    },
    /// An index that points past what it indexes.
    #[error("{what} {index} out of range ({len} available)")]
    IndexOutOfRange {
        /// The index token.
        span: Range<usize>,
        /// What is indexed (`"weight joint"`, `"triangle vertex"`…).
        what: &'static str,
        /// The index as written.
        index: i64,
        /// Number of elements it may select.
        len: usize,
    },
    /// The records do not fit together (a baseframe line count other than the joint count,
    /// a mesh block in an animation file…).
    #[error("{message}")]
    Inconsistent {
        /// Where.
        span: Range<usize>,
        /// What is wrong.
        message: String,
    },
    /// An `.md5camera` file (camera cuts and a camera path), which holds no model.
    #[error(
        "this is an .md5camera file (`{keyword}`): camera paths are not models; md5mesh and md5anim are read"
    )]
    Camera {
        /// The camera keyword.
        span: Range<usize>,
        /// The keyword (`numCuts`, `cuts`, `camera`).
        keyword: String,
    },
    /// A warning of a strict read.
    #[error("{message} [{code}]")]
    Strict {
        /// Where.
        span: Range<usize>,
        /// The warning's report code.
        code: rigport_model_core::Code,
        /// The warning.
        message: String,
    },
    /// Reserving memory for the records would exceed the read limits.
    #[error("{source}")]
    Limit {
        /// The record that did not fit.
        span: Range<usize>,
        /// The refused reservation.
        source: LimitError,
    },
    /// An `.md5anim` does not fit the mesh it was given to (joint count or names).
    #[error("animation `{animation}` does not fit the mesh: {reason}")]
    AnimationMismatch {
        /// Animation name.
        animation: String,
        /// Why.
        reason: String,
    },
    /// A conversion wanted the other kind of file (an md5anim where an md5mesh belongs).
    #[error("expected {expected}, found {found}")]
    WrongKind {
        /// The kind needed.
        expected: &'static str,
        /// The kind given.
        found: &'static str,
    },
    /// A model holds more of something than the writer takes.
    #[error(transparent)]
    TooMany(#[from] TooMany),
    /// A model refers to something that does not exist, or its joints form a cycle.
    #[error("invalid model: {0}")]
    InvalidModel(String),
    /// A model without the animation asked for.
    #[error("the model has no animation {0}")]
    NoAnimation(usize),
    /// Reading the input failed.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

impl From<ReferenceProblem> for Error {
    fn from(problem: ReferenceProblem) -> Self {
        Error::InvalidModel(problem.to_string())
    }
}

impl Error {
    /// The byte span of the offending text, for errors that come from the input.
    pub fn span(&self) -> Option<Range<usize>> {
        match self {
            Error::Empty { span }
            | Error::Unexpected { span, .. }
            | Error::UnexpectedEof { span, .. }
            | Error::BadNumber { span, .. }
            | Error::IndexOutOfRange { span, .. }
            | Error::Inconsistent { span, .. }
            | Error::Camera { span, .. }
            | Error::Strict { span, .. }
            | Error::Limit { span, .. } => Some(span.clone()),
            Error::AnimationMismatch { .. }
            | Error::WrongKind { .. }
            | Error::TooMany(_)
            | Error::InvalidModel(_)
            | Error::NoAnimation(_)
            | Error::Io(_) => None,
        }
    }

    /// 1-based line and column of the error in `src` (the input it came from).
    pub fn line_col(&self, src: &[u8]) -> Option<(usize, usize)> {
        self.span()
            .map(|span| diagnostic::line_col(src, span.start))
    }

    /// The error as a compiler shows it: message, `line:column` and the offending line
    /// with the span underlined. `src` must be the input the error came from.
    pub fn render(&self, src: &[u8]) -> String {
        match self.span() {
            Some(span) => diagnostic::render(src, span, &self.to_string()),
            None => format!("error: {self}"),
        }
    }
}
