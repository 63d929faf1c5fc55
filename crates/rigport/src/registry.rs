//! The one place the facade names the format crates: each implements
//! [`rigport_model_core::codec::Codec`], and they are re-exported here ([`formats`]).
//! Adding a format: its crate, a [`Format`] variant (`format.rs`: key, extension,
//! description, feature), a cargo feature, one line in [`codec`] and its place in
//! [`SNIFF_ORDER`]. Reading, sniffing, `info`, `validate`, same-format copies, conversions
//! and writing (with companion files) then work through the trait.

use crate::format::Format;
use rigport_model_core::codec::Codec;

/// The codec of `format`, when this build includes it.
pub(crate) fn codec(format: Format) -> Option<&'static dyn Codec> {
    #[allow(clippy::match_single_binding)] // a build with no format has only the last arm
    match format {
        #[cfg(feature = "ms3d")]
        Format::Ms3d => Some(&rigport_ms3d_bin::CODEC),
        #[cfg(feature = "ms3d-ascii")]
        Format::Ms3dAscii => Some(&rigport_ms3d_ascii::CODEC),
        #[cfg(feature = "iqe")]
        Format::Iqe => Some(&rigport_iqe::CODEC),
        #[cfg(feature = "iqm")]
        Format::Iqm => Some(&rigport_iqm::CODEC),
        #[cfg(feature = "gltf")]
        Format::Glb => Some(&rigport_gltf::codec::GLB),
        #[cfg(feature = "gltf")]
        Format::Gltf => Some(&rigport_gltf::codec::GLTF),
        #[cfg(feature = "obj")]
        Format::Obj => Some(&rigport_obj::CODEC),
        #[cfg(feature = "md5")]
        Format::Md5Mesh => Some(&rigport_md5::Md5Mesh),
        #[cfg(feature = "md5")]
        Format::Md5Anim => Some(&rigport_md5::Md5Anim),
        #[cfg(feature = "smd")]
        Format::Smd => Some(&rigport_smd::Smd),
        #[allow(unreachable_patterns)] // reached when a format's feature is off
        _ => None,
    }
}

/// The readable formats, in the order their content is sniffed: the binary magics are the
/// most specific; glTF's (the GLB magic, or JSON whose top object has "asset") and MD5's
/// and SMD's opening keywords start no other format's file; IQE's header line is checked
/// before the MilkShape ASCII format's looser first-line rules.
pub(crate) const SNIFF_ORDER: [Format; 9] = [
    Format::Ms3d,
    Format::Iqm,
    Format::Glb,
    Format::Gltf,
    Format::Md5Mesh,
    Format::Md5Anim,
    Format::Smd,
    Format::Iqe,
    Format::Ms3dAscii,
];

/// The first readable format this build includes whose signature `bytes` start with.
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
