//! Errors with the byte span they concern; line and column are computed only when shown.

use rigport_model_core::diagnostic::{self, Span};
use rigport_model_core::{LimitError, ReferenceProblem};
use std::ops::Range;

/// Why an IQE file could not be read or converted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The first line is not `# Inter-Quake Export`.
    #[error("expected the header `# Inter-Quake Export`, found `{found}`")]
    MissingHeader {
        /// Where the first line is.
        span: Span,
        /// The start of what was there instead.
        found: String,
    },
    /// A line could not be understood.
    #[error("{command}: expected {expected}, found `{found}`")]
    Syntax {
        /// The offending token (or the end of its line).
        span: Span,
        /// The command being read.
        command: String,
        /// What the command needs there.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// Vertex arrays ended up with different lengths.
    #[error(
        "vertex arrays differ in length: vertex {vertex} has a {longer} here but no {shorter} ({shorter} has {shorter_len} entries, {longer} has {longer_len}); every vertex array must be absent or as long as the others"
    )]
    ArrayLength {
        /// The command that defined the first vertex the shorter array lacks.
        span: Span,
        /// The vertex missing an attribute.
        vertex: usize,
        /// Keyword of the longer array (`vp`).
        longer: &'static str,
        /// Keyword of the shorter array (`vn`).
        shorter: &'static str,
        /// Final length of the longer array.
        longer_len: usize,
        /// Final length of the shorter array.
        shorter_len: usize,
    },
    /// A face index points outside the vertex arrays.
    #[error(
        "face index {index} resolves to vertex {resolved}, but the file defines {vertices} vertices"
    )]
    IndexOutOfRange {
        /// The face command.
        span: Span,
        /// The index as written.
        index: i64,
        /// The vertex it resolves to (may be negative).
        resolved: i128,
        /// Vertices in the file.
        vertices: usize,
    },
    /// A joint names a parent that does not exist, or the hierarchy loops.
    #[error("joint {joint}: {problem}")]
    Hierarchy {
        /// The joint command.
        span: Option<Span>,
        /// Index of the joint.
        joint: usize,
        /// What is wrong.
        problem: String,
    },
    /// A warning turned into an error by `ReadOptions { strict: true }`.
    #[error("{message} (strict mode)")]
    Strict {
        /// Where the problem is.
        span: Option<Span>,
        /// The warning.
        message: String,
    },
    /// A model holds something IQE cannot express within reason.
    #[error("cannot write as IQE: {0}")]
    Unrepresentable(String),
    /// A model refers to something that does not exist (the first problem
    /// [`Model::check_references`](rigport_model_core::Model::check_references) found).
    #[error("invalid model: {0}")]
    InvalidModel(#[from] ReferenceProblem),
    /// The input would need more memory than the limits allow.
    #[error(transparent)]
    Limit(#[from] LimitError),
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl Error {
    /// The byte range of the input the error is about, if it concerns one place.
    pub fn span(&self) -> Option<Range<usize>> {
        match self {
            Error::MissingHeader { span, .. }
            | Error::Syntax { span, .. }
            | Error::ArrayLength { span, .. }
            | Error::IndexOutOfRange { span, .. } => Some(span.clone()),
            Error::Hierarchy { span, .. } | Error::Strict { span, .. } => span.clone(),
            Error::Limit(_) | Error::Io(_) | Error::Unrepresentable(_) | Error::InvalidModel(_) => {
                None
            }
        }
    }

    /// The byte offset where [`Error::span`] starts, as binary formats report it.
    pub fn offset(&self) -> Option<u64> {
        self.span().map(|span| span.start as u64)
    }

    /// The error pointing at `span` (for errors found after reading, about a command).
    pub(crate) fn with_span(mut self, at: Span) -> Error {
        match &mut self {
            Error::ArrayLength { span, .. } | Error::IndexOutOfRange { span, .. } => *span = at,
            Error::Hierarchy { span, .. } => *span = Some(at),
            _ => {}
        }
        self
    }

    /// The error as a compiler would show it: message, `--> line:column`, the line and a
    /// caret under the span. Pass the bytes that were read.
    pub fn render(&self, src: &[u8]) -> String {
        match self.span() {
            Some(span) => diagnostic::render(src, span, &self.to_string()),
            None => format!("error: {self}"),
        }
    }
}
