//! Why a model cannot be written as glTF.

use rigport_anim::skeleton::HierarchyError;

/// Why a model cannot be exported. Everything glTF merely cannot hold is a loss in the
/// [`Report`](rigport_model_core::Report) instead; these are the cases with no valid file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A joint's parent does not exist or the parents form a cycle.
    #[error("the skeleton cannot be written as a node tree: {0}")]
    Hierarchy(#[from] HierarchyError),
    /// glTF joint indices are at most 16 bits.
    #[error("the skin needs {count} joints, but glTF joint indices hold at most 65536")]
    TooManyJoints {
        /// Joints the skin would need.
        count: usize,
    },
    /// A GLB file has a 32-bit length.
    #[error("the GLB would be {bytes} bytes, but the container holds at most 4 GiB")]
    TooLarge {
        /// Size it would have.
        bytes: u64,
    },
    /// The JSON could not be written.
    #[error("JSON serialization failed: {0}")]
    Json(#[from] gltf_json::Error),
}
