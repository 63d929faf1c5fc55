//! Errors of reading, writing and converting MilkShape binary files: the shared
//! [`rigport_model_core::Error`], with what only MilkShape says as its [`Detail`].

/// Everything that can go wrong. Read errors name the byte offset and what was being read
/// ([`Error::offset`](rigport_model_core::Error::offset)).
pub type Error = rigport_model_core::Error<Detail>;

/// What only a MilkShape binary file's counts and blocks can get wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Detail {
    /// The header version is not 3 or 4.
    #[error("unsupported MilkShape 3D version {version} at byte 10 (versions 3 and 4 are read)")]
    UnsupportedVersion {
        /// The stored version.
        version: i32,
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
    /// Bytes follow the model extra block, the last block the format defines.
    #[error("{length} unexpected bytes after the model extra block at byte {offset}")]
    UnexpectedBytes {
        /// Where they start.
        offset: u64,
        /// How many there are.
        length: u64,
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
}
