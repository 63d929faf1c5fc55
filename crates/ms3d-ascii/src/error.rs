//! Errors of reading and converting MilkShape 3D ASCII files: the shared
//! [`rigport_model_core::Error`], with what only this format says as its [`Detail`].

/// Why a file could not be read or converted.
///
/// Read errors carry the byte span of the offending text;
/// [`Error::render`](rigport_model_core::Error::render) turns it into `line:column` and draws
/// the line. Nothing counts lines until then.
pub type Error = rigport_model_core::Error<Detail>;

/// What only a MilkShape ASCII file's text can get wrong; the span is the [`Error`]'s.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Detail {
    /// A byte sequence that is no token of the format.
    #[error("unexpected {found}")]
    Lex {
        /// What was there.
        found: String,
    },
    /// A token other than the one the grammar needs.
    #[error("expected {expected}, found {found}")]
    Unexpected {
        /// What the grammar needs.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// The input ended where more was needed (the span is the end of the input).
    #[error("unexpected end of input, expected {expected}")]
    UnexpectedEof {
        /// What the grammar needs.
        expected: &'static str,
    },
    /// A number token that does not fit the field (a fraction where an integer belongs, a
    /// value outside the type's range).
    #[error("expected {expected}, found `{found}`")]
    BadNumber {
        /// What the field needs.
        expected: &'static str,
        /// The token.
        found: String,
    },
    /// A count promises more records than the rest of the input can hold (the span is the
    /// count token).
    #[error("{count} {what} need at least {needed} more bytes, but only {available} are left")]
    CountExceedsInput {
        /// What is counted.
        what: &'static str,
        /// The count.
        count: u64,
        /// Fewest bytes those records could take.
        needed: u64,
        /// Bytes after the count line.
        available: u64,
    },
    /// A known block appears a second time (the span is the second header).
    #[error("`{name}:` block repeated; the first one is on line {first_line}")]
    DuplicateBlock {
        /// Block word.
        name: &'static str,
        /// Line of the first header.
        first_line: usize,
    },
    /// An index that points past what it indexes (the span is the index token).
    #[error("{what} {index} out of range ({len} available)")]
    IndexOutOfRange {
        /// What is indexed (`"vertex index"`, `"material index"`…).
        what: &'static str,
        /// The index as written.
        index: i64,
        /// Number of elements it may select.
        len: usize,
    },
    /// The file does not start with `// MilkShape 3D ASCII` (strict reading only; the span
    /// is the start of the input).
    #[error("missing `// MilkShape 3D ASCII` header line")]
    MissingMagic,
}
