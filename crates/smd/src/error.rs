//! Errors of reading, writing and converting SMD files: the shared
//! [`rigport_model_core::Error`], with what only SMD says as its [`Detail`].

/// Why a file could not be read or a model could not be written.
///
/// Read errors carry the byte span of the offending text;
/// [`Error::render`](rigport_model_core::Error::render) turns it into `line:column` and draws
/// the line, [`Error::location`](rigport_model_core::Error::location) gives the
/// `line:column` alone.
pub type Error = rigport_model_core::Error<Detail>;

/// What only an SMD file's lines can get wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Detail {
    /// The input holds no line of SMD at all (empty, or only blanks and comments).
    #[error("empty input: an SMD file holds `version 1`, a `nodes` block and a `skeleton` block")]
    Empty,
    /// A token other than the one the grammar needs.
    #[error("expected {expected}, found `{found}`")]
    Unexpected {
        /// What the grammar needs.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// A line ended where more fields were needed (the error's span is the end of the line).
    #[error("line ends early: expected {expected}")]
    ShortLine {
        /// What the grammar needs.
        expected: &'static str,
    },
    /// The input ended inside a block or a triangle.
    #[error("unexpected end of input: {expected}")]
    UnexpectedEof {
        /// What was needed.
        expected: &'static str,
    },
    /// A number that does not fit its field (a fraction where an integer belongs, a value
    /// outside the type's range, a word).
    #[error("expected {expected}, found `{found}`")]
    BadNumber {
        /// What the field needs.
        expected: &'static str,
        /// The token.
        found: String,
    },
    /// A double quote that is never closed on its line (the error's span runs from the
    /// opening quote to the end of the line).
    #[error("unterminated quoted name")]
    UnterminatedQuote,
    /// The file has no `nodes` block.
    #[error("no `nodes` block: every SMD file lists its bones")]
    MissingNodes,
}
