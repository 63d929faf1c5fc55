//! Why a picture or a dataset could not be made: the facade's error for reading, converting
//! and the pose asked for, or the drawing's own.

/// Why a picture or a dataset could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be read or converted, or the pose asked for is not one of the
    /// model's ([`rigport::Error`], with the codec's error and its place).
    #[error(transparent)]
    Read(#[from] rigport::Error),
    /// The picture could not be drawn (no triangles, bad size, no animation for a sheet…).
    #[error(transparent)]
    Render(#[from] rigport_render::RenderError),
    /// The drawn picture could not be encoded as PNG.
    #[error("cannot encode the PNG: {0}")]
    Png(#[source] rigport_render::image::ImageError),
}

/// A pose that names no pose of the model is the facade's [`rigport::Error::Pose`].
impl From<rigport_anim::request::RequestError> for Error {
    fn from(error: rigport_anim::request::RequestError) -> Self {
        Error::Read(rigport::Error::Pose(error))
    }
}
