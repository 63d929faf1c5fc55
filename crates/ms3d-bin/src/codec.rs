//! MilkShape 3D binary through the shared [`Codec`](rigport_model_core::codec::Codec) trait, for
//! callers that handle every format alike (the `rigport` facade, the Python package, the
//! web page).
//!
//! ```
//! use rigport_model_core::codec::Codec;
//!
//! let codec = &rigport_ms3d_bin::CODEC;
//! assert_eq!(codec.info().key, "ms3d");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Y);
//! ```

use rigport_model_core::UpAxis;
use rigport_model_core::codec::{FormatInfo, Location};

static INFO: FormatInfo = FormatInfo {
    key: "ms3d",
    family: "MilkShape 3D",
    description: "MilkShape 3D binary (`.ms3d`)",
    extensions: &["ms3d"],
    up: UpAxis::Y,
    writes: true,
    reads: true,
    one_timeline: true,
    animation_only: false,
    morph_targets: false,
};

rigport_model_core::faithful_codec!(
    Ms3dBinary,
    INFO,
    |error, _bytes| Location::at_offset(error.offset()),
    {
        // A conversion decodes the keys once, straight into the model's tracks, without
        // the faithful key arrays (`convert::direct`).
        fn read_model(
            bytes: &[u8],
            options: &rigport_model_core::ReadOptions,
        ) -> Result<(rigport_model_core::Model, rigport_model_core::Report), crate::Error> {
            crate::convert::direct::read_model(bytes, options)
        }

        fn read_pending(
            bytes: &[u8],
            options: &rigport_model_core::ReadOptions,
        ) -> Result<
            (
                crate::convert::direct::PendingModel,
                rigport_model_core::Report,
            ),
            crate::Error,
        > {
            crate::convert::direct::read_pending(bytes, options)
        }
    }
);
