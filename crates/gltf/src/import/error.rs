//! Why a glTF file could not be read or turned into a model.

use rigport_model_core::LimitError;
use rigport_model_core::diagnostic;
use std::path::PathBuf;

/// Why a `.glb` or `.gltf` could not be imported. Binary container errors name the byte
/// offset in the `.glb`; JSON errors the byte offset in the JSON text (shown as
/// `line:column` by [`ImportError::render`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    /// The bytes are neither a GLB container nor glTF JSON.
    #[error("not a glTF file: {0}")]
    NotGltf(String),
    /// The GLB container is damaged: truncated, wrong lengths or chunk types.
    #[error("GLB at byte {offset}: {message}")]
    Glb {
        /// Byte offset in the `.glb` where the problem is.
        offset: u64,
        /// What was expected there.
        message: String,
    },
    /// The JSON could not be parsed into a glTF document.
    #[error("glTF JSON at {line}:{column}: {message}")]
    Json {
        /// Byte offset of the problem in the whole input (the `.glb` or the `.gltf`).
        offset: u64,
        /// Byte offset of the JSON text in the input (20 in a `.glb`, 0 in a `.gltf`).
        json_start: u64,
        /// 1-based line in the JSON text.
        line: usize,
        /// 1-based column in the JSON text.
        column: usize,
        /// What serde_json expected.
        message: String,
    },
    /// The file requires an extension that compresses geometry.
    #[error(
        "compressed glTF ({extension}) is not supported; decompress it first (e.g. `gltf-transform copy`)"
    )]
    Compressed {
        /// `KHR_draco_mesh_compression` or `EXT_meshopt_compression`.
        extension: String,
    },
    /// The file requires an extension this reader does not implement.
    #[error("the file requires the glTF extension {extension}, which is not supported")]
    UnsupportedExtension {
        /// Its name.
        extension: String,
    },
    /// An external buffer or image could not be read.
    #[error("cannot read `{uri}` (looked for {}): {message}", path.display())]
    MissingFile {
        /// The URI as written in the file.
        uri: String,
        /// The path tried.
        path: PathBuf,
        /// Why reading failed.
        message: String,
    },
    /// An external URI with no folder to resolve it in (the input came from memory).
    #[error("`{uri}` is an external file, but the input has no folder to find it in")]
    ExternalWithoutBase {
        /// The URI as written in the file.
        uri: String,
    },
    /// A URI that cannot be used (bad `data:` base64, an absolute or remote URI).
    #[error("{what}: bad URI `{uri}`: {message}")]
    BadUri {
        /// What it belongs to (`buffer 0`).
        what: String,
        /// The URI (shortened).
        uri: String,
        /// What is wrong.
        message: String,
    },
    /// A buffer, buffer view or accessor reaches outside what holds it, or its sizes
    /// overflow.
    #[error("{what}: {message}")]
    OutOfRange {
        /// The object (`accessor 3`, `buffer view 2`).
        what: String,
        /// Which range and which limit.
        message: String,
    },
    /// An index in the JSON or in an index accessor points past what it indexes.
    #[error("{what}: index {index} is out of range (there are {len})")]
    BadIndex {
        /// Who holds the index (`node 4 mesh`, `primitive 0 of mesh 1 indices`).
        what: String,
        /// The index.
        index: u64,
        /// How many there are.
        len: u64,
    },
    /// The document breaks a rule of glTF 2.0 the importer relies on.
    #[error("{what}: {message}")]
    Invalid {
        /// The object.
        what: String,
        /// The rule broken.
        message: String,
    },
    /// A warning turned into an error by `ReadOptions { strict: true }`.
    #[error("{0} (strict mode)")]
    Strict(String),
    /// The input would need more memory than the limits allow.
    #[error(transparent)]
    Limit(#[from] LimitError),
}

impl ImportError {
    /// The byte offset in the input the error is about, when it concerns one place: the
    /// `.glb` container position, or the position in the JSON text (counted from the start
    /// of the input, so inside a `.glb` it includes the 20-byte headers).
    pub fn offset(&self) -> Option<u64> {
        match self {
            Self::Glb { offset, .. } | Self::Json { offset, .. } => Some(*offset),
            _ => None,
        }
    }

    /// The error as the text formats show theirs. JSON errors get `line:column`, the line
    /// and a caret (pass the bytes that were read: the `.gltf`, or the whole `.glb`);
    /// others are one line.
    pub fn render(&self, src: &[u8]) -> String {
        match self {
            Self::Json {
                offset, json_start, ..
            } => {
                let start = (*json_start as usize).min(src.len());
                let json = &src[start..];
                let at = (*offset as usize).saturating_sub(start);
                diagnostic::render(json, at..at + 1, &self.to_string())
            }
            _ => format!("error: {self}"),
        }
    }

    /// Shorthand for [`ImportError::OutOfRange`].
    pub(crate) fn range(what: impl Into<String>, message: impl Into<String>) -> Self {
        Self::OutOfRange {
            what: what.into(),
            message: message.into(),
        }
    }

    /// Shorthand for [`ImportError::Invalid`].
    pub(crate) fn invalid(what: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Invalid {
            what: what.into(),
            message: message.into(),
        }
    }

    /// Shorthand for [`ImportError::BadIndex`].
    pub(crate) fn index(what: impl Into<String>, index: impl TryInto<u64>, len: usize) -> Self {
        Self::BadIndex {
            what: what.into(),
            index: index.try_into().unwrap_or(u64::MAX),
            len: len as u64,
        }
    }
}
