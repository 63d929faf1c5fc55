//! Errors of reading, writing and converting B3D files: the shared
//! [`rigport_model_core::Error`], with what only B3D says as its [`Detail`].

/// Everything that can go wrong. Read errors name the byte offset of what was being read
/// ([`Error::offset`](rigport_model_core::Error::offset)).
pub type Error = rigport_model_core::Error<Detail>;

/// What only a B3D file's chunks can get wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Detail {
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
    /// Chunks nested deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    #[error("chunks nested more than {max} deep at byte {offset}")]
    TooDeep {
        /// Where the too-deep chunk starts.
        offset: u64,
        /// The limit.
        max: usize,
    },
}
