//! Why a posed OBJ cannot be written.

use rigport_anim::PoseError;
use rigport_anim::request::RequestError;

/// Why [`write_posed`](crate::write_posed) cannot pose the model as asked. Writing the model
/// as it is ([`write_obj`](crate::write_obj)) cannot fail.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The request names no pose of the model (no such animation, no frame rate).
    #[error(transparent)]
    Request(#[from] RequestError),
    /// The skeleton cannot be posed (a missing parent or a cycle).
    #[error(transparent)]
    Pose(#[from] PoseError),
}
