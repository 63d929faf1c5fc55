//! MilkShape 3D binary as a [`Codec`](rigport_model_core::codec::Codec): a reader and a
//! writer over the crate's faithful layer, for callers that handle every format alike
//! (the `rigport` facade, the Python package, the web page).
//!
//! ```
//! let codec = &rigport_ms3d_bin::CODEC;
//! assert_eq!(codec.info().key, "ms3d");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Y);
//! ```

use rigport_model_core::UpAxis;
use rigport_model_core::codec::FormatInfo;

static INFO: FormatInfo = FormatInfo {
    key: "ms3d",
    family: "MilkShape 3D",
    description: "MilkShape 3D binary (`.ms3d`)",
    extensions: &["ms3d"],
    up: UpAxis::Y,
    writes: true,
    reads: true,
    one_timeline: true,
    ..FormatInfo::DEFAULT
};

// A conversion decodes the keys once, straight into the model's tracks, without the
// faithful key arrays (`convert::direct`).
rigport_model_core::faithful_codec!(
    Ms3dBinary,
    INFO,
    model_read = crate::convert::direct::read_pending,
);
