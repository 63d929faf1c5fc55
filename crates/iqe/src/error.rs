//! Errors of reading, writing and converting IQE files: the shared
//! [`rigport_model_core::Error`], with what only IQE says as its [`Detail`].

/// Why an IQE file could not be read or converted.
///
/// Read errors carry the byte span they concern; line and column are computed only when
/// shown ([`Error::render`](rigport_model_core::Error::render)).
pub type Error = rigport_model_core::Error<Detail>;

/// What only an IQE file's commands can get wrong; the span is the [`Error`]'s.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Detail {
    /// The first line is not `# Inter-Quake Export` (the span is the first line).
    #[error("expected the header `# Inter-Quake Export`, found `{found}`")]
    MissingHeader {
        /// The start of what was there instead.
        found: String,
    },
    /// A line could not be understood (the span is the offending token, or the end of its
    /// line).
    #[error("{command}: expected {expected}, found `{found}`")]
    Syntax {
        /// The command being read.
        command: String,
        /// What the command needs there.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// Vertex arrays ended up with different lengths (the span is the command that defined
    /// the first vertex the shorter array lacks).
    #[error(
        "vertex arrays differ in length: vertex {vertex} has a {longer} here but no {shorter} ({shorter} has {shorter_len} entries, {longer} has {longer_len}); every vertex array must be absent or as long as the others"
    )]
    ArrayLength {
        /// The vertex missing an attribute.
        vertex: usize,
        /// Keyword of the longer array (`vp`).
        longer: &'static str,
        /// Keyword of the shorter array (`vn`).
        shorter: &'static str,
        /// Final length of the longer array.
        longer_len: usize,
        /// Final length of the shorter array.
        shorter_len: usize,
    },
    /// A face index points outside the vertex arrays (the span is the face command).
    #[error(
        "face index {index} resolves to vertex {resolved}, but the file defines {vertices} vertices"
    )]
    IndexOutOfRange {
        /// The index as written.
        index: i64,
        /// The vertex it resolves to (may be negative).
        resolved: i128,
        /// Vertices in the file.
        vertices: usize,
    },
    /// A joint names a parent that does not exist, or the hierarchy loops (the span, when
    /// known, is the joint command).
    #[error("joint {joint}: {problem}")]
    Hierarchy {
        /// Index of the joint.
        joint: usize,
        /// What is wrong.
        problem: String,
    },
}
