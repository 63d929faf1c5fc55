//! The format registry: names, extensions, and which formats can be read or written in
//! this build (each format is a cargo feature).

use rigport_model_core::UpAxis;
use std::path::Path;

/// Every format rigport knows, whether or not this build includes it (see
/// [`Format::is_enabled`]): the names stay stable whatever the features.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// MilkShape 3D binary (`.ms3d`).
    Ms3d,
    /// MilkShape 3D ASCII (`.txt`).
    Ms3dAscii,
    /// Inter-Quake Export (`.iqe`).
    Iqe,
    /// Inter-Quake Model, version 2 (`.iqm`).
    Iqm,
    /// glTF 2.0 binary (`.glb`).
    Glb,
    /// glTF 2.0 JSON with a `.bin` beside it (`.gltf`).
    Gltf,
    /// Wavefront OBJ with an `.mtl` beside it (`.obj`), posed.
    Obj,
    /// id Tech 4 MD5 mesh (`.md5mesh`); written with one `.md5anim` per animation beside it.
    Md5Mesh,
    /// id Tech 4 MD5 animation (`.md5anim`): a skeleton and one animation.
    Md5Anim,
    /// Valve SMD (`.smd`): a reference model or an animation sequence; written as a reference
    /// with one animation `.smd` per animation beside it.
    Smd,
}

impl Format {
    /// Every format, readable ones first (the order of the enum).
    pub const ALL: [Format; 10] = [
        Format::Ms3d,
        Format::Ms3dAscii,
        Format::Iqe,
        Format::Iqm,
        Format::Glb,
        Format::Gltf,
        Format::Obj,
        Format::Md5Mesh,
        Format::Md5Anim,
        Format::Smd,
    ];

    /// The key used in `--to` and in `info --json`'s `format`.
    pub fn key(self) -> &'static str {
        match self {
            Format::Ms3d => "ms3d",
            Format::Ms3dAscii => "ms3d-ascii",
            Format::Iqe => "iqe",
            Format::Iqm => "iqm",
            Format::Glb => "glb",
            Format::Gltf => "gltf",
            Format::Obj => "obj",
            Format::Md5Mesh => "md5mesh",
            Format::Md5Anim => "md5anim",
            Format::Smd => "smd",
        }
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Ms3d => "ms3d",
            Format::Ms3dAscii => "txt",
            Format::Iqe => "iqe",
            Format::Iqm => "iqm",
            Format::Glb => "glb",
            Format::Gltf => "gltf",
            Format::Obj => "obj",
            Format::Md5Mesh => "md5mesh",
            Format::Md5Anim => "md5anim",
            Format::Smd => "smd",
        }
    }

    /// The format an output path asks for by its extension (case-insensitive).
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "ms3d" => Format::Ms3d,
            "txt" => Format::Ms3dAscii,
            "iqe" => Format::Iqe,
            "iqm" => Format::Iqm,
            "glb" => Format::Glb,
            "gltf" => Format::Gltf,
            "obj" => Format::Obj,
            "md5mesh" => Format::Md5Mesh,
            "md5anim" => Format::Md5Anim,
            "smd" => Format::Smd,
            _ => return None,
        })
    }

    /// A one-line description for people, e.g. in a command's help.
    pub fn description(self) -> &'static str {
        match self {
            Format::Ms3d => "MilkShape 3D binary (`.ms3d`)",
            Format::Ms3dAscii => "MilkShape 3D ASCII (`.txt`)",
            Format::Iqe => "Inter-Quake Export (`.iqe`)",
            Format::Iqm => "Inter-Quake Model, version 2 (`.iqm`)",
            Format::Glb => "glTF 2.0 binary (`.glb`)",
            Format::Gltf => "glTF 2.0 JSON with a `.bin` beside it (`.gltf`)",
            Format::Obj => "Wavefront OBJ with an `.mtl` beside it (`.obj`), posed",
            Format::Md5Mesh => {
                "id Tech 4 MD5 mesh (`.md5mesh`), animations as `.md5anim` beside it"
            }
            Format::Md5Anim => "id Tech 4 MD5 animation (`.md5anim`)",
            Format::Smd => "Valve SMD (`.smd`), animations as `.smd` sequences beside it",
        }
    }

    /// The format a `--to` style key names ([`Format::key`]), exactly.
    pub fn from_key(key: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.key() == key)
    }

    /// The cargo feature of the `rigport` crate that brings this format in.
    pub fn feature(self) -> &'static str {
        match self {
            Format::Ms3d => "ms3d",
            Format::Ms3dAscii => "ms3d-ascii",
            Format::Iqe => "iqe",
            Format::Iqm => "iqm",
            Format::Glb | Format::Gltf => "gltf",
            Format::Obj => "obj",
            Format::Md5Mesh | Format::Md5Anim => "md5",
            Format::Smd => "smd",
        }
    }

    /// Whether this build includes the format's feature.
    pub fn is_enabled(self) -> bool {
        crate::registry::codec(self).is_some()
    }

    /// The axis models stand along in this format (DESIGN §10): +Z for IQE and IQM, +Y for
    /// MilkShape, glTF and OBJ. A conversion between the two turns the model.
    pub fn up_axis(self) -> UpAxis {
        match self {
            Format::Iqe | Format::Iqm | Format::Md5Mesh | Format::Md5Anim | Format::Smd => {
                UpAxis::Z
            }
            Format::Ms3d | Format::Ms3dAscii | Format::Glb | Format::Gltf | Format::Obj => {
                UpAxis::Y
            }
        }
    }

    /// Whether rigport reads this format at all (the others are export-only), whatever the
    /// features of this build.
    pub fn is_readable(self) -> bool {
        !matches!(self, Format::Obj)
    }

    /// Whether the format holds one animation timeline (MilkShape binary and ASCII): the
    /// first animation is written and the others dropped, unless they are concatenated
    /// ([`Settings::concat_animations`](crate::pipeline::Settings::concat_animations)).
    pub fn has_one_timeline(self) -> bool {
        matches!(self, Format::Ms3d | Format::Ms3dAscii)
    }

    /// Whether this build can read the format: readable and enabled.
    pub fn can_read(self) -> bool {
        self.is_readable() && self.is_enabled()
    }

    /// Whether this build can write the format: built in, and its codec writes.
    pub fn can_write(self) -> bool {
        crate::registry::codec(self).is_some_and(|codec| codec.info().writes)
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_map_both_ways() {
        for format in Format::ALL {
            let path = format!("model.{}", format.extension().to_uppercase());
            assert_eq!(Format::from_extension(Path::new(&path)), Some(format));
            assert_eq!(Format::from_key(format.key()), Some(format));
        }
        assert_eq!(Format::from_extension(Path::new("model.fbx")), None);
        assert_eq!(Format::from_extension(Path::new("noext")), None);
        assert_eq!(Format::from_key("MS3D"), None, "keys are exact");
    }

    #[test]
    fn features_decide_what_this_build_reads_and_writes() {
        assert_eq!(Format::Iqe.can_read(), cfg!(feature = "iqe"));
        assert_eq!(Format::Glb.can_write(), cfg!(feature = "gltf"));
        assert!(!Format::Obj.can_read());
        assert_eq!(Format::Gltf.can_read(), cfg!(feature = "gltf"));
        assert!(Format::Glb.is_readable() && !Format::Obj.is_readable());
        assert_eq!(Format::Ms3dAscii.feature(), "ms3d-ascii");
    }
}
