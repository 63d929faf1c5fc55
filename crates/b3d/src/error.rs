//! Errors of reading, writing and converting B3D files.

use rigport_model_core::LimitError;

/// Everything that can go wrong. Read errors name the byte offset of what was being read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file does not start with a `BB3D` chunk.
    #[error("not a B3D file: byte 0 holds {found:?}, expected \"BB3D\"")]
    BadMagic {
        /// The first bytes of the input (at most 4), lossily decoded.
        found: String,
    },
    /// The input (or the chunk being read) ends inside a record.
    #[error(
        "truncated: reading {what} at byte {offset} needs {needed} bytes, only {available} left"
    )]
    Truncated {
        /// Where the record starts.
        offset: u64,
        /// What was being read.
        what: &'static str,
        /// Bytes the record needs.
        needed: u64,
        /// Bytes left in the input or the enclosing chunk.
        available: u64,
    },
    /// A chunk's length is negative.
    #[error("chunk {tag} at byte {offset} has a negative length ({length})")]
    NegativeLength {
        /// Where the chunk header starts.
        offset: u64,
        /// The chunk's tag.
        tag: String,
        /// The stored length.
        length: i32,
    },
    /// A chunk ends past the end of the chunk (or file) holding it.
    #[error(
        "chunk {tag} at byte {offset} has length {length}: it would end at byte {end}, past the end of {parent} at byte {parent_end}"
    )]
    ChunkPastEnd {
        /// Where the chunk header starts.
        offset: u64,
        /// The chunk's tag.
        tag: String,
        /// The stored length.
        length: i32,
        /// Where the chunk would end.
        end: u64,
        /// What holds the chunk (`"the file"`, `"NODE"`…).
        parent: &'static str,
        /// Where that ends.
        parent_end: u64,
    },
    /// A chunk tag is not four ASCII letters, digits, spaces or underscores: the bytes are
    /// not a chunk header, so the file is damaged.
    #[error("damaged chunk header at byte {offset}: tag bytes {tag:02X?} are not a chunk name")]
    BadTag {
        /// Where the chunk header starts.
        offset: u64,
        /// The four tag bytes.
        tag: [u8; 4],
    },
    /// A string runs to the end of its chunk without a NUL.
    #[error("{what} at byte {offset} has no terminating NUL before the end of its chunk")]
    Unterminated {
        /// Where the string starts.
        offset: u64,
        /// What the string is.
        what: &'static str,
    },
    /// A stored value the reader cannot use.
    #[error("invalid {what} at byte {offset}: {value}")]
    Invalid {
        /// Where the value is stored.
        offset: u64,
        /// What the value is.
        what: &'static str,
        /// The stored value.
        value: i64,
    },
    /// Chunks nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    #[error("chunks nested more than {max} deep at byte {offset}")]
    TooDeep {
        /// Where the too-deep chunk starts.
        offset: u64,
        /// The limit.
        max: usize,
    },
    /// Strict mode: a warning of a lenient read.
    #[error("at byte {offset}: {message}")]
    Strict {
        /// Where the problem is.
        offset: u64,
        /// The warning.
        message: String,
    },
    /// A count would make the reader allocate more than [`rigport_model_core::Limits`] allow.
    #[error("at byte {offset}: {source}")]
    Limit {
        /// Where the chunk holding the records starts.
        offset: u64,
        /// The exceeded limit.
        #[source]
        source: LimitError,
    },
    /// Reading the input failed.
    #[error("cannot read input: {0}")]
    Io(#[from] std::io::Error),
    /// A model exceeds what a B3D file can hold.
    #[error("cannot write B3D: {0}")]
    TooLarge(String),
}

impl Error {
    /// The byte offset the error is about, for errors found while reading.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::BadMagic { .. } => Some(0),
            Error::Truncated { offset, .. }
            | Error::NegativeLength { offset, .. }
            | Error::ChunkPastEnd { offset, .. }
            | Error::BadTag { offset, .. }
            | Error::Unterminated { offset, .. }
            | Error::Invalid { offset, .. }
            | Error::TooDeep { offset, .. }
            | Error::Strict { offset, .. }
            | Error::Limit { offset, .. } => Some(*offset),
            Error::Io(_) | Error::TooLarge(_) => None,
        }
    }
}
