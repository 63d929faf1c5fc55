//! Errors of reading, writing and converting MilkShape binary files.

use rigport_model_core::{LimitError, ReferenceProblem, TooMany};
use std::ops::Range;

/// Everything that can go wrong. Read errors name the byte offset and what was being read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file does not start with `MS3D000000`.
    #[error("not a MilkShape 3D binary file: byte 0 holds {found:?}, expected \"MS3D000000\"")]
    BadMagic {
        /// The first bytes of the input (at most 10), lossily decoded.
        found: String,
    },
    /// The header version is not 3 or 4.
    #[error("unsupported MilkShape 3D version {version} at byte 10 (versions 3 and 4 are read)")]
    UnsupportedVersion {
        /// The stored version.
        version: i32,
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
        /// Bytes left in the input.
        available: u64,
    },
    /// A count asks for more records than the rest of the input can hold.
    #[error(
        "count past the end: {count} {what} at byte {offset} need at least {needed} bytes, only {available} left"
    )]
    CountPastEnd {
        /// Where the first record would start.
        offset: u64,
        /// What was being read.
        what: &'static str,
        /// The stored count.
        count: u64,
        /// Least bytes `count` records need.
        needed: u64,
        /// Bytes left in the input.
        available: u64,
    },
    /// A stored value makes no sense (a negative count or length, an unknown subVersion).
    #[error("invalid {what} at byte {offset}: {value}")]
    Invalid {
        /// Where the value is stored.
        offset: u64,
        /// What the value is.
        what: &'static str,
        /// The stored value.
        value: i64,
    },
    /// Bytes follow the model extra block, the last block the format defines.
    #[error("{length} unexpected bytes after the model extra block at byte {offset}")]
    UnexpectedBytes {
        /// Where they start.
        offset: u64,
        /// How many there are.
        length: u64,
    },
    /// A count would make the reader allocate more than [`rigport_model_core::Limits`] allow.
    #[error("at byte {offset}: {source}")]
    Limit {
        /// Where the count is stored.
        offset: u64,
        /// The exceeded limit.
        #[source]
        source: LimitError,
    },
    /// Strict mode: the bytes after the core could not be interpreted.
    #[error("damaged tail at byte {offset} ({length} bytes cannot be interpreted): {reason}")]
    DamagedTail {
        /// Where the uninterpretable bytes start.
        offset: u64,
        /// How many bytes follow from there.
        length: u64,
        /// Why they could not be read.
        reason: String,
    },
    /// Reading the input failed.
    #[error("cannot read input: {0}")]
    Io(#[from] std::io::Error),
    /// A model exceeds what a MilkShape file can hold (the message names the limit).
    #[error(transparent)]
    TooMany(#[from] TooMany),
    /// A model refers to something that does not exist (the first problem
    /// [`Model::check_references`](rigport_model_core::Model::check_references) found).
    #[error("invalid model: {0}")]
    InvalidModel(#[from] ReferenceProblem),
    /// A conversion option has a value the format cannot use.
    #[error("invalid option: {0}")]
    InvalidOption(String),
}

impl Error {
    /// The byte offset the error is about, for errors found while reading.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::BadMagic { .. } => Some(0),
            Error::UnsupportedVersion { .. } => Some(10),
            Error::Truncated { offset, .. }
            | Error::CountPastEnd { offset, .. }
            | Error::Invalid { offset, .. }
            | Error::UnexpectedBytes { offset, .. }
            | Error::Limit { offset, .. }
            | Error::DamagedTail { offset, .. } => Some(*offset),
            Error::Io(_) | Error::TooMany(_) | Error::InvalidModel(_) | Error::InvalidOption(_) => {
                None
            }
        }
    }

    /// The bytes the error is about, for errors found while reading: an empty range at
    /// [`Error::offset`] (a binary record has no printable extent). The same method as the
    /// text formats' errors have.
    pub fn span(&self) -> Option<Range<usize>> {
        self.offset()
            .and_then(|offset| usize::try_from(offset).ok())
            .map(|offset| offset..offset)
    }

    /// The error for a person: the message, which names the byte offset when there is one.
    /// `src` is accepted for the same signature as the text formats' `render`.
    pub fn render(&self, _src: &[u8]) -> String {
        format!("error: {self}")
    }
}
