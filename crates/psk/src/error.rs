//! Errors of reading, writing and converting PSK, PSKX and PSA files: the shared
//! [`rigport_model_core::Error`], with what only PSK and PSA say as its [`Detail`].

/// Everything that can go wrong. Read errors name the byte offset they are about
/// ([`Error::offset`](rigport_model_core::Error::offset)).
pub type Error = rigport_model_core::Error<Detail>;

/// What only a PSK or PSA file's sections can get wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Detail {
    /// The first section is neither `ACTRHEAD` nor `ANIMHEAD`.
    #[error(
        "not a PSK or PSA file: the first section at byte 0 is {found:?}, expected ACTRHEAD or ANIMHEAD"
    )]
    NotPsk {
        /// The first section's name (at most 20 bytes), lossily decoded.
        found: String,
    },
    /// A section's record size or count is negative.
    #[error("section {id} at byte {offset}: {field} is {value}, which is negative")]
    Negative {
        /// The section's name.
        id: String,
        /// Where the section header starts.
        offset: u64,
        /// `DataSize` or `DataCount`.
        field: &'static str,
        /// The stored value.
        value: i32,
    },
    /// A section's records run past the end of the input.
    #[error(
        "section {id} at byte {offset}: {count} records of {size} bytes need {needed} bytes from byte {body}, only {available} left (the file ends inside record {cut} at byte {cut_at})"
    )]
    SectionPastEnd {
        /// The section's name.
        id: String,
        /// Where the section header starts.
        offset: u64,
        /// `DataSize`.
        size: u64,
        /// `DataCount`.
        count: u64,
        /// `DataSize × DataCount`.
        needed: u64,
        /// Where the records start.
        body: u64,
        /// Bytes left after the header.
        available: u64,
        /// The first record the input does not hold whole (0-based).
        cut: u64,
        /// Where that record starts.
        cut_at: u64,
    },
    /// Bytes after the last section too few for a header (strict reads only; lenient reads
    /// keep them).
    #[error("{count} bytes at byte {offset} after the last section are not a section")]
    TrailingBytes {
        /// Where they start.
        offset: u64,
        /// How many there are.
        count: u64,
    },
    /// An index past what it indexes (a face's wedge, a wedge's point, a weight's bone).
    #[error("{what} at byte {offset} is {index}, but there are only {len}")]
    IndexOutOfRange {
        /// Where the index is stored.
        offset: u64,
        /// What the index is (`"face wedge index"`).
        what: &'static str,
        /// The stored index.
        index: i64,
        /// How many there are.
        len: u64,
    },
    /// The sections disagree in a way the model cannot take (a sequence whose frames lie
    /// past the keys).
    #[error("inconsistent file at byte {offset}: {message}")]
    Inconsistent {
        /// Where the value that does not fit is stored.
        offset: u64,
        /// What does not fit.
        message: String,
    },
    /// The file lacks a section the conversion needs.
    #[error("the file has no {0} section")]
    Missing(&'static str),
}
