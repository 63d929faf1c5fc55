//! The registry: the one list of formats, and the one place the facade names the format
//! crates.
//!
//! Each format crate implements a [`Reader`](rigport_model_core::codec::Reader) and/or a
//! [`Writer`](rigport_model_core::codec::Writer), lists them in a [`Codec`], and owns every
//! fact about its format in its [`FormatInfo`] (key, extensions, description, up axis, whether it
//! is read and written, one timeline or many, whether a same-format copy is faithful, whether
//! it keeps cubic splines or embeds its images, the files beside a model it reads and
//! writes). The facade asks those facts and names no format itself. [`Format`] is a thin id: its variants, the cargo feature that brings each in
//! and the codec come from the one [`registry!`] list below, and everything else it says
//! is its codec's.
//!
//! Adding a format: its crate, a cargo feature in `crates/rigport/Cargo.toml`, one line in
//! the list below and its place in [`SNIFF_ORDER`]. Reading, sniffing, `info`, `validate`,
//! same-format copies, conversions, writing (with companion files) and every door's list of
//! formats then follow.

use rigport_model_core::UpAxis;
use rigport_model_core::codec::{Codec, FormatInfo};
use std::path::Path;

/// Declares [`Format`] (one variant per line), [`Format::ALL`], the key and feature of each,
/// and [`codec`], which gives the codec when this build includes the feature.
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident = $key:literal, feature $feature:literal, $codec:path;)*) => {
        /// Every format rigport knows, whether or not this build includes it (see
        /// [`Format::is_enabled`]): the ids and keys stay stable whatever the features. New
        /// formats are added, so a `match` needs a wildcard arm.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Format {
            $($(#[$doc])* $variant,)*
        }

        impl Format {
            /// Every format, in the registry's order (readable ones first, then the
            /// export-only ones).
            pub const ALL: [Format; [$($key),*].len()] = [$(Format::$variant),*];

            /// The key used in `--to` and in `info --json`'s `format` (the codec's
            /// [`FormatInfo::key`]; known even when the feature is off).
            pub fn key(self) -> &'static str {
                match self {
                    $(Format::$variant => $key,)*
                }
            }

            /// The cargo feature of the `rigport` crate that brings this format in.
            pub fn feature(self) -> &'static str {
                match self {
                    $(Format::$variant => $feature,)*
                }
            }
        }

        /// The codec of `format`, when this build includes it ([`Format::codec`]).
        fn codec(format: Format) -> Option<&'static Codec> {
            match format {
                $(Format::$variant => {
                    #[cfg(feature = $feature)]
                    let codec: Option<&'static Codec> = Some(&$codec);
                    #[cfg(not(feature = $feature))]
                    let codec: Option<&'static Codec> = None;
                    codec
                })*
            }
        }
    };
}

registry! {
    /// MilkShape 3D binary (`.ms3d`).
    Ms3d = "ms3d", feature "ms3d", rigport_ms3d_bin::CODEC;
    /// MilkShape 3D ASCII (`.txt`).
    Ms3dAscii = "ms3d-ascii", feature "ms3d-ascii", rigport_ms3d_ascii::CODEC;
    /// Inter-Quake Export (`.iqe`).
    Iqe = "iqe", feature "iqe", rigport_iqe::CODEC;
    /// Inter-Quake Model, version 2 (`.iqm`).
    Iqm = "iqm", feature "iqm", rigport_iqm::CODEC;
    /// glTF 2.0 binary (`.glb`).
    Glb = "glb", feature "gltf", rigport_gltf::codec::GLB_CODEC;
    /// glTF 2.0 JSON with a `.bin` beside it (`.gltf`).
    Gltf = "gltf", feature "gltf", rigport_gltf::codec::GLTF_CODEC;
    /// id Tech 4 MD5 mesh (`.md5mesh`), with its `.md5anim` files beside it.
    Md5Mesh = "md5mesh", feature "md5", rigport_md5::MESH_CODEC;
    /// id Tech 4 MD5 animation (`.md5anim`): a skeleton and one animation.
    Md5Anim = "md5anim", feature "md5", rigport_md5::ANIM_CODEC;
    /// Valve SMD (`.smd`): a reference model or an animation sequence.
    Smd = "smd", feature "smd", rigport_smd::CODEC;
    /// Unreal ActorX mesh (`.psk`, `.pskx`), with its `.psa` animations beside it.
    Psk = "psk", feature "psk", rigport_psk::PSK_CODEC;
    /// Unreal ActorX animations (`.psa`): a skeleton and its sequences.
    Psa = "psa", feature "psk", rigport_psk::PSA_CODEC;
    /// Blitz3D (`.b3d`), as Luanti mods and Blitz3D games ship it: one animation timeline.
    B3d = "b3d", feature "b3d", rigport_b3d::CODEC;
    /// Autodesk FBX, binary or ASCII (`.fbx`), read through ufbx; not written.
    Fbx = "fbx", feature "fbx", rigport_fbx::CODEC;
    /// Wavefront OBJ with an `.mtl` beside it (`.obj`), posed; written, not read.
    Obj = "obj", feature "obj", rigport_obj::CODEC;
}

/// The readable formats, in the order their content is sniffed: the binary magics (PSK's and
/// PSA's first section id, B3D's `BB3D`, FBX's `Kaydara FBX Binary` among them) are the most
/// specific; an ASCII FBX file's `; FBX` header comment or `FBXHeaderExtension:` record comes
/// next; glTF's (the GLB magic, or JSON whose top object has "asset") and MD5's
/// and SMD's opening keywords start no other format's file; IQE's header line is checked
/// before the MilkShape ASCII format's looser first-line rules.
pub(crate) const SNIFF_ORDER: [Format; 13] = [
    Format::Ms3d,
    Format::Iqm,
    Format::Psk,
    Format::Psa,
    Format::B3d,
    Format::Fbx,
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

/// The keys of the formats this build reads, comma-separated, for messages.
pub(crate) fn readable_keys() -> String {
    let keys: Vec<&str> = Format::ALL
        .into_iter()
        .filter(|f| f.can_read())
        .map(Format::key)
        .collect();
    keys.join(", ")
}

impl Format {
    /// The format's codec, when this build includes it: what the facade reads and writes
    /// through, for code that drives every format alike (the hostile-input checks).
    pub fn codec(self) -> Option<&'static Codec> {
        codec(self)
    }

    /// What the format's codec says of it, when this build includes it.
    pub fn info(self) -> Option<&'static FormatInfo> {
        codec(self).map(|codec| codec.info())
    }

    /// The usual file extension (the key when this build does not include the format).
    pub fn extension(self) -> &'static str {
        self.info()
            .and_then(|info| info.extensions.first().copied())
            .unwrap_or(self.key())
    }

    /// The format of this build an output path asks for by its extension (any of the
    /// format's, case-insensitive).
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?;
        Format::ALL.into_iter().find(|format| {
            format
                .info()
                .is_some_and(|info| info.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
        })
    }

    /// A one-line description for people, e.g. in a command's help (the key when this
    /// build does not include the format).
    pub fn description(self) -> &'static str {
        self.info().map_or(self.key(), |info| info.description)
    }

    /// The format a `--to` style key names ([`Format::key`]), exactly.
    pub fn from_key(key: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.key() == key)
    }

    /// The axis models stand along in this format (DESIGN §10; +Y when this build does not
    /// include it). A conversion between two formats that differ turns the model.
    pub fn up_axis(self) -> UpAxis {
        self.info().map_or(UpAxis::Y, |info| info.up)
    }

    /// Whether a model written in the format keeps its morph targets (see
    /// [`FormatInfo::morph_targets`]).
    pub fn keeps_morph_targets(self) -> bool {
        self.info().is_some_and(|info| info.morph_targets)
    }

    /// Whether the format says `fact` of itself, in this build (false when this build does
    /// not include it): `Format::Gltf.has(|info| info.cubic_splines)`.
    pub fn has(self, fact: impl Fn(&FormatInfo) -> bool) -> bool {
        self.info().is_some_and(fact)
    }

    /// Whether this build includes the format's feature.
    pub fn is_enabled(self) -> bool {
        codec(self).is_some()
    }

    /// Whether the format holds one animation timeline (MilkShape binary and ASCII): the
    /// first animation is written and the others dropped, unless they are concatenated
    /// ([`Settings::concat_animations`](crate::pipeline::Settings::concat_animations)).
    pub fn has_one_timeline(self) -> bool {
        self.info().is_some_and(|info| info.one_timeline)
    }

    /// Whether the format's files hold animations and no mesh (see
    /// [`FormatInfo::animation_only`]).
    pub fn is_animation_only(self) -> bool {
        self.info().is_some_and(|info| info.animation_only)
    }

    /// The short name of the format's family (see [`FormatInfo::family`]; the key when this
    /// build does not include the format).
    pub fn family(self) -> &'static str {
        self.info().map_or(self.key(), |info| info.family)
    }

    /// Whether this build can read the format: built in, and its codec reads (the others
    /// are export-only or not in this build).
    pub fn can_read(self) -> bool {
        self.info().is_some_and(|info| info.reads)
    }

    /// Whether this build can write the format: built in, and its codec writes.
    pub fn can_write(self) -> bool {
        self.info().is_some_and(|info| info.writes)
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

/// The format crates this build includes, under short names.
pub mod formats {
    #[cfg(feature = "b3d")]
    pub use rigport_b3d as b3d;
    #[cfg(feature = "fbx")]
    pub use rigport_fbx as fbx;
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
    #[cfg(feature = "psk")]
    pub use rigport_psk as psk;
    #[cfg(feature = "smd")]
    pub use rigport_smd as smd;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every format of this build is its codec: the key the registry gives it is the
    /// codec's, and its extensions lead back to it.
    #[test]
    fn every_format_is_held_to_its_codec() {
        let mut enabled = 0;
        for format in Format::ALL {
            assert_eq!(Format::from_key(format.key()), Some(format));
            let Some(info) = format.info() else {
                assert!(!format.can_read() && !format.can_write(), "{format}");
                continue;
            };
            enabled += 1;
            assert_eq!(info.key, format.key(), "{format}");
            assert_eq!(format.extension(), info.extensions[0], "{format}");
            for extension in info.extensions {
                let path = format!("model.{}", extension.to_uppercase());
                assert_eq!(Format::from_extension(Path::new(&path)), Some(format));
            }
            assert_eq!(format.can_read(), info.reads, "{format}");
            let codec = format.codec().unwrap();
            assert_eq!(codec.reader().is_some(), info.reads, "{format}: a reader");
            assert_eq!(codec.writer().is_some(), info.writes, "{format}: a writer");
            for part in [
                codec.reader().map(|r| r.info()),
                codec.writer().map(|w| w.info()),
            ] {
                assert!(
                    part.is_none_or(|part| part == info),
                    "{format}: one FormatInfo"
                );
            }
            assert_eq!(format.can_read(), SNIFF_ORDER.contains(&format), "{format}");
        }
        assert!(enabled > 0 || cfg!(not(feature = "ms3d")));
        assert_eq!(Format::from_extension(Path::new("model.dae")), None);
        assert_eq!(Format::from_extension(Path::new("noext")), None);
        assert_eq!(Format::from_key("MS3D"), None, "keys are exact");
    }

    #[test]
    fn features_decide_what_this_build_reads_and_writes() {
        assert_eq!(Format::Iqe.can_read(), cfg!(feature = "iqe"));
        assert_eq!(Format::Glb.can_write(), cfg!(feature = "gltf"));
        assert!(!Format::Obj.can_read());
        assert_eq!(Format::Gltf.can_read(), cfg!(feature = "gltf"));
        assert_eq!(Format::Ms3dAscii.feature(), "ms3d-ascii");
        assert_eq!(
            Format::Ms3d.has_one_timeline(),
            cfg!(feature = "ms3d"),
            "MilkShape holds one timeline"
        );
    }
}
