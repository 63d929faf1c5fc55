//! Inter-Quake Model as a [`Codec`](rigport_model_core::codec::Codec): a reader and a
//! writer over the crate's faithful layer, for callers that handle every format alike
//! (the `rigport` facade, the Python package, the web page).
//!
//! ```
//! let codec = &rigport_iqm::CODEC;
//! assert_eq!(codec.info().key, "iqm");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Z);
//! ```

use rigport_model_core::UpAxis;
use rigport_model_core::codec::FormatInfo;

static INFO: FormatInfo = FormatInfo {
    key: "iqm",
    family: "IQM",
    description: "Inter-Quake Model, version 2 (`.iqm`)",
    extensions: &["iqm"],
    up: UpAxis::Z,
    writes: true,
    reads: true,
    names_materials_by_texture: true,
    ..FormatInfo::DEFAULT
};

// Each mesh is freed once welded and the animations once sampled; each large block of the
// file once copied out.
rigport_model_core::faithful_codec!(
    Iqm,
    INFO,
    from_owned = crate::from_model_owned,
    into_vec = crate::File::into_vec,
);
