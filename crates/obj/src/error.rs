//! Why a posed OBJ cannot be written.

use rigport_anim::PoseError;

/// Why [`write_posed`](crate::write_posed) cannot pose the model as asked. Writing the model
/// as it is ([`write_obj`](crate::write_obj)) cannot fail.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The pose names an animation by a name no animation has (and that is no index).
    #[error("no animation named `{name}`")]
    NoAnimationNamed {
        /// The name asked for.
        name: String,
    },
    /// The pose names an animation index past the end of the model's animations.
    #[error("animation {index} does not exist (the model has {count})")]
    NoSuchAnimation {
        /// The index asked for.
        index: usize,
        /// Number of animations in the model.
        count: usize,
    },
    /// The pose is given as a frame number but the animation has no frame rate.
    #[error("animation `{animation}` has no frame rate")]
    NoFrameRate {
        /// Name of the animation.
        animation: String,
    },
    /// The skeleton cannot be posed (a missing parent or a cycle).
    #[error(transparent)]
    Pose(#[from] PoseError),
}
