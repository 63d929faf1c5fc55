//! MilkShape 3D ASCII through the shared [`Codec`](rigport_model_core::codec::Codec) trait, for
//! callers that handle every format alike (the `rigport` facade, the Python package, the
//! web page).
//!
//! ```
//! use rigport_model_core::codec::Codec;
//!
//! let codec = &rigport_ms3d_ascii::CODEC;
//! assert_eq!(codec.info().key, "ms3d-ascii");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Y);
//! ```

use rigport_model_core::UpAxis;
use rigport_model_core::codec::{FormatInfo, Location};

static INFO: FormatInfo = FormatInfo {
    key: "ms3d-ascii",
    family: "MilkShape 3D",
    description: "MilkShape 3D ASCII (`.txt`)",
    extensions: &["txt"],
    up: UpAxis::Y,
    writes: true,
    reads: true,
    one_timeline: true,
    animation_only: false,
    morph_targets: false,
};

rigport_model_core::faithful_codec!(
    Ms3dAscii,
    INFO,
    |error, bytes| Location::at_text(bytes, error.span().map(|span| span.start)),
    {
        fn render(error: &crate::Error, bytes: &[u8]) -> String {
            error.render(bytes)
        }
    }
);
