//! Inter-Quake Model through the shared [`Codec`](rigport_model_core::codec::Codec) trait, for
//! callers that handle every format alike (the `rigport` facade, the Python package, the
//! web page).
//!
//! ```
//! use rigport_model_core::codec::Codec;
//!
//! let codec = &rigport_iqm::CODEC;
//! assert_eq!(codec.info().key, "iqm");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Z);
//! ```

use rigport_model_core::UpAxis;
use rigport_model_core::codec::{FormatInfo, Location};

static INFO: FormatInfo = FormatInfo {
    key: "iqm",
    family: "IQM",
    description: "Inter-Quake Model, version 2 (`.iqm`)",
    extensions: &["iqm"],
    up: UpAxis::Z,
    writes: true,
    reads: true,
    one_timeline: false,
    animation_only: false,
    morph_targets: false,
};

rigport_model_core::faithful_codec!(
    Iqm,
    INFO,
    |error, _bytes| Location::at_offset(error.offset()),
    {
        // Each mesh is freed once welded and the animations once sampled.
        fn from_model_owned(
            model: rigport_model_core::Model,
        ) -> Result<(crate::File, rigport_model_core::Report), crate::Error> {
            crate::from_model_owned(model, &crate::ConvertOptions::default())
        }
    }
);
