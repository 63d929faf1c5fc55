//! The one place the facade names the format crates that implement
//! [`rigport_model_core::codec::Codec`], and where they are re-exported ([`formats`]). Adding such a format: its crate, a [`Format`]
//! variant (`format.rs`: key, extension, description, feature), a cargo feature, and one line
//! in [`codec`]. Reading, sniffing, `info`, `validate`, same-format copies, conversions and
//! writing (with companion files) then work through the trait.

use crate::format::Format;
use rigport_model_core::codec::Codec;

/// The codec of `format`, when it is a codec-based format this build includes.
pub(crate) fn codec(format: Format) -> Option<&'static dyn Codec> {
    #[allow(clippy::match_single_binding)] // one arm per codec-based format built in
    match format {
        #[cfg(feature = "smd")]
        Format::Smd => Some(&rigport_smd::Smd),
        #[cfg(feature = "md5")]
        Format::Md5Mesh => Some(&rigport_md5::Md5Mesh),
        #[cfg(feature = "md5")]
        Format::Md5Anim => Some(&rigport_md5::Md5Anim),
        _ => None,
    }
}

/// The codec-based formats, in the order their content is sniffed.
pub(crate) const SNIFF_ORDER: [Format; 3] = [Format::Md5Mesh, Format::Md5Anim, Format::Smd];

/// The first codec-based format this build includes whose signature `bytes` start with.
pub(crate) fn sniff(bytes: &[u8]) -> Option<Format> {
    SNIFF_ORDER
        .into_iter()
        .find(|&format| codec(format).is_some_and(|codec| codec.sniff(bytes)))
}

/// The format crates this build includes, under short names.
pub mod formats {
    #[cfg(feature = "gltf")]
    pub use rigport_gltf as gltf;
    #[cfg(feature = "iqe")]
    pub use rigport_iqe as iqe;
    #[cfg(feature = "iqm")]
    pub use rigport_iqm as iqm;
    #[cfg(feature = "md5")]
    pub use rigport_md5 as md5;
    #[cfg(feature = "ms3d-ascii")]
    pub use rigport_ms3d_ascii as ms3d_ascii;
    #[cfg(feature = "ms3d")]
    pub use rigport_ms3d_bin as ms3d;
    #[cfg(feature = "obj")]
    pub use rigport_obj as obj;
    #[cfg(feature = "smd")]
    pub use rigport_smd as smd;
}
