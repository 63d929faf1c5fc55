//! MilkShape 3D ASCII as a [`Codec`](rigport_model_core::codec::Codec): a reader and a
//! writer over the crate's faithful layer, for callers that handle every format alike
//! (the `rigport` facade, the Python package, the web page).
//!
//! ```
//! let codec = &rigport_ms3d_ascii::CODEC;
//! assert_eq!(codec.info().key, "ms3d-ascii");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Y);
//! ```

use rigport_model_core::UpAxis;
use rigport_model_core::codec::FormatInfo;

static INFO: FormatInfo = FormatInfo {
    key: "ms3d-ascii",
    family: "MilkShape 3D",
    description: "MilkShape 3D ASCII (`.txt`)",
    extensions: &["txt"],
    up: UpAxis::Y,
    writes: true,
    reads: true,
    one_timeline: true,
    ..FormatInfo::DEFAULT
};

rigport_model_core::faithful_codec!(Ms3dAscii, INFO);
