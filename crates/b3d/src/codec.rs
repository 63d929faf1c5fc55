//! Blitz3D B3D as a [`Codec`](rigport_model_core::codec::Codec): a reader and a writer over
//! the crate's faithful layer, for callers that handle every format alike.
//!
//! ```
//! let codec = &rigport_b3d::CODEC;
//! assert_eq!(codec.info().key, "b3d");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Y);
//! assert!(codec.sniff(b"BB3D\x04\0\0\0\x01\0\0\0"));
//! ```

use rigport_model_core::UpAxis;
use rigport_model_core::codec::FormatInfo;

/// What the codec says about the format.
pub static INFO: FormatInfo = FormatInfo {
    key: "b3d",
    family: "B3D",
    description: "Blitz3D model (`.b3d`)",
    extensions: &["b3d"],
    up: UpAxis::Y,
    writes: true,
    reads: true,
    // One timeline: several animations are laid end to end by `from_model`.
    one_timeline: true,
    ..FormatInfo::DEFAULT
};

rigport_model_core::faithful_codec!(B3d, INFO);
