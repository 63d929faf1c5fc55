//! Errors of reading, writing and converting IQM files: the shared
//! [`rigport_model_core::Error`], with what only IQM says as its [`Detail`].

/// Everything that can go wrong. Read errors name the byte offset and what was being read
/// ([`Error::offset`](rigport_model_core::Error::offset)).
pub type Error = rigport_model_core::Error<Detail>;

/// What only an IQM file's header and blocks can get wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Detail {
    /// The header version is not 1 or 2.
    #[error("unsupported IQM version {version} at byte 16 (versions 1 and 2 are read)")]
    UnsupportedVersion {
        /// The stored version.
        version: u32,
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
    /// Strict mode: `filesize` disagrees with the size of the input.
    #[error("header filesize at byte 20 is {stored}, but the file has {actual} bytes")]
    FileSize {
        /// The stored `filesize`.
        stored: u64,
        /// The real size.
        actual: u64,
    },
}
