//! Errors of reading, writing and converting MD5 files: the shared
//! [`rigport_model_core::Error`], with what only MD5 says as its [`Detail`].

/// Why a file could not be read or converted.
///
/// Read errors carry the byte span of the offending text;
/// [`Error::render`](rigport_model_core::Error::render) turns it into `line:column` and draws
/// the line, [`Error::line_col`](rigport_model_core::Error::line_col) gives the place alone.
pub type Error = rigport_model_core::Error<Detail>;

/// What only MD5 files and their conversions can get wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Detail {
    /// The input holds nothing but blanks and comments.
    #[error("empty input: an MD5 file starts with `MD5Version 10`")]
    Empty,
    /// A token other than the one the grammar needs.
    #[error("expected {expected}, found {found}")]
    Unexpected {
        /// What the grammar needs.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// The input ended inside a block (the error's span is the block's opening line).
    #[error("unexpected end of input inside the `{block}` block opened on line {line}")]
    UnexpectedEof {
        /// Block keyword.
        block: String,
        /// Line of the opening brace.
        line: usize,
    },
    /// A number that does not fit its field (a fraction where an integer belongs, a value
    /// out of range, `nan`).
    #[error("expected {expected}, found `{found}`")]
    BadNumber {
        /// What the field needs.
        expected: &'static str,
        /// The token.
        found: String,
    },
    /// An index that points past what it indexes.
    #[error("{what} {index} out of range ({len} available)")]
    IndexOutOfRange {
        /// What is indexed (`"weight joint"`, `"triangle vertex"`…).
        what: &'static str,
        /// The index as written.
        index: i64,
        /// Number of elements it may select.
        len: usize,
    },
    /// The records do not fit together (a baseframe line count other than the joint count,
    /// a mesh block in an animation file…).
    #[error("{message}")]
    Inconsistent {
        /// What is wrong.
        message: String,
    },
    /// An `.md5camera` file (camera cuts and a camera path), which holds no model.
    #[error(
        "this is an .md5camera file (`{keyword}`): camera paths are not models; md5mesh and md5anim are read"
    )]
    Camera {
        /// The keyword (`numCuts`, `cuts`, `camera`).
        keyword: String,
    },
    /// An `.md5anim` does not fit the mesh it was given to (joint count or names).
    #[error("animation `{animation}` does not fit the mesh: {reason}")]
    AnimationMismatch {
        /// Animation name.
        animation: String,
        /// Why.
        reason: String,
    },
    /// A conversion wanted the other kind of file (an md5anim where an md5mesh belongs).
    #[error("expected {expected}, found {found}")]
    WrongKind {
        /// The kind needed.
        expected: &'static str,
        /// The kind given.
        found: &'static str,
    },
    /// A model without the animation asked for.
    #[error("the model has no animation {0}")]
    NoAnimation(usize),
}
