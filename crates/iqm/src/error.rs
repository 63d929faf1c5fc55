//! Errors of reading, writing and converting IQM files.

use rigport_model_core::LimitError;

/// Everything that can go wrong. Read errors name the byte offset and what was being read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file does not start with `INTERQUAKEMODEL\0`.
    #[error("not an IQM file: byte 0 holds {found:?}, expected \"INTERQUAKEMODEL\\0\"")]
    BadMagic {
        /// The first bytes of the input (at most 16), lossily decoded.
        found: String,
    },
    /// The header version is not 1 or 2.
    #[error("unsupported IQM version {version} at byte 16 (versions 1 and 2 are read)")]
    UnsupportedVersion {
        /// The stored version.
        version: u32,
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
    /// A block placed by an offset and a count does not fit in the file.
    #[error(
        "{field} = {value} (stored at byte {offset}): {count} {what} of {item_size} bytes would end at byte {end}, past the end of the {file_len}-byte file"
    )]
    BlockPastEnd {
        /// The offset field that places the block (`ofs_meshes`, `vertex array 2 offset`).
        field: String,
        /// Where that field is stored.
        offset: u64,
        /// The stored offset.
        value: u64,
        /// What the block holds.
        what: &'static str,
        /// How many items the count field asks for.
        count: u64,
        /// Bytes per item.
        item_size: u64,
        /// Where the block would end.
        end: u64,
        /// Size of the input.
        file_len: u64,
    },
    /// A stored value makes no sense (an unknown vertex array format in strict mode, a
    /// broken extension list).
    #[error("invalid {what} at byte {offset}: {value}")]
    Invalid {
        /// Where the value is stored.
        offset: u64,
        /// What the value is.
        what: String,
        /// The stored value.
        value: i64,
    },
    /// Strict mode: `filesize` disagrees with the size of the input.
    #[error("header filesize at byte 20 is {stored}, but the file has {actual} bytes")]
    FileSize {
        /// The stored `filesize`.
        stored: u64,
        /// The real size.
        actual: u64,
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
    /// Reading the input failed.
    #[error("cannot read input: {0}")]
    Io(#[from] std::io::Error),
    /// The file's blocks disagree with each other in a way the model cannot take (a mesh
    /// whose vertices lie outside the vertex arrays, an animation past the frames).
    #[error("inconsistent IQM file: {0}")]
    Inconsistent(String),
    /// A model exceeds what an IQM file can hold.
    #[error("cannot write IQM: {0}")]
    TooLarge(String),
    /// A model refers to something that does not exist.
    #[error("invalid model: {0}")]
    InvalidModel(String),
}

impl Error {
    /// The byte offset the error is about, for errors found while reading.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::BadMagic { .. } => Some(0),
            Error::UnsupportedVersion { .. } => Some(16),
            Error::FileSize { .. } => Some(20),
            Error::Truncated { offset, .. }
            | Error::BlockPastEnd { offset, .. }
            | Error::Invalid { offset, .. }
            | Error::Limit { offset, .. } => Some(*offset),
            Error::Io(_) | Error::Inconsistent(_) | Error::TooLarge(_) | Error::InvalidModel(_) => {
                None
            }
        }
    }
}
