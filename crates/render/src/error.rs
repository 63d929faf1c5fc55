//! Why a picture could not be drawn.

use rigport_anim::PoseError;

/// Why [`render`](crate::render) or [`render_sheet`](crate::render_sheet) failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RenderError {
    /// The model has no triangles at all (e.g. a skeleton- or animation-only file).
    #[error("the model has no triangles to draw")]
    NoTriangles,
    /// Every triangle was unusable.
    #[error(
        "none of the model's {skipped} triangle(s) can be drawn (indices out of range, or positions not finite once posed)"
    )]
    NoDrawableTriangles {
        /// How many triangles were skipped.
        skipped: usize,
    },
    /// The model cannot be posed (missing animation, broken hierarchy).
    #[error("cannot pose the model: {0}")]
    Pose(#[from] PoseError),
    /// A contact sheet needs an animation to spread its frames over.
    #[error("a contact sheet needs an animation, and the model has none")]
    NoAnimation,
    /// Width or height outside `1..=MAX_SIDE`.
    #[error("picture size {width}x{height} is outside 1x1..={max}x{max}", max = crate::MAX_SIDE)]
    BadSize {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
    },
    /// A size that is not `WxH`.
    #[error("size `{0}` is not WIDTHxHEIGHT (e.g. 512x512)")]
    BadSizeText(String),
    /// A contact sheet of zero frames, or one larger than [`MAX_SHEET_PIXELS`](crate::MAX_SHEET_PIXELS).
    #[error("a contact sheet of {frames} frame(s) of {width}x{height} is not 1 frame or more within {max} pixels", max = crate::MAX_SHEET_PIXELS)]
    BadSheet {
        /// Frames asked for.
        frames: u32,
        /// Cell width.
        width: u32,
        /// Cell height.
        height: u32,
    },
    /// A view name that is none of front, back, left, right, top, iso.
    #[error("view `{0}` is not one of front, back, left, right, top, iso")]
    BadView(String),
    /// A colour that is not `RRGGBB`.
    #[error("colour `{0}` is not RRGGBB hex (e.g. 404048)")]
    BadColour(String),
    /// A pass name that is none of color, depth, normal, mask.
    #[error("pass `{0}` is not one of color, depth, normal, mask")]
    BadPass(String),
    /// A depth format that is none of png16, npy.
    #[error("depth format `{0}` is not one of png16, npy")]
    BadDepthFormat(String),
    /// A camera convention that is none of opengl, opencv.
    #[error("camera convention `{0}` is not one of opengl, opencv")]
    BadCameraConvention(String),
    /// An animation of zero frames, or more than [`MAX_ANIMATION_FRAMES`](crate::MAX_ANIMATION_FRAMES).
    #[error("an animated picture of {frames} frame(s) is not 1 to {max} frames", max = crate::MAX_ANIMATION_FRAMES)]
    BadFrames {
        /// Frames asked for.
        frames: u64,
    },
    /// The animated PNG could not be written.
    #[error("cannot write the animated PNG: {0}")]
    Encode(String),
    /// More orbit views than [`MAX_VIEWS_PIXELS`](crate::MAX_VIEWS_PIXELS) allows.
    #[error("{views} views of {width}x{height} exceed {max} pixels in all", max = crate::MAX_VIEWS_PIXELS)]
    TooManyViews {
        /// Views asked for.
        views: usize,
        /// Picture width.
        width: u32,
        /// Picture height.
        height: u32,
    },
}
