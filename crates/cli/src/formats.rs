//! The format registry: names, extensions, and which formats can be read or written.

use clap::ValueEnum;
use std::path::Path;

/// Every format rigport knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub enum Format {
    /// MilkShape 3D binary (`.ms3d`).
    Ms3d,
    /// MilkShape 3D ASCII (`.txt`).
    #[value(name = "ms3d-ascii")]
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
}

impl Format {
    /// Every format, readable ones first (the order of the enum; a test keeps it equal to
    /// clap's list of values).
    pub const ALL: [Format; 7] = [
        Format::Ms3d,
        Format::Ms3dAscii,
        Format::Iqe,
        Format::Iqm,
        Format::Glb,
        Format::Gltf,
        Format::Obj,
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
            _ => return None,
        })
    }

    /// Whether rigport can read this format (the others are export-only).
    pub fn is_readable(self) -> bool {
        matches!(
            self,
            Format::Ms3d | Format::Ms3dAscii | Format::Iqe | Format::Iqm
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_map_both_ways() {
        for format in Format::value_variants() {
            let path = format!("model.{}", format.extension().to_uppercase());
            assert_eq!(Format::from_extension(Path::new(&path)), Some(*format));
        }
        assert_eq!(Format::from_extension(Path::new("model.fbx")), None);
        assert_eq!(Format::ALL.as_slice(), Format::value_variants());
        assert_eq!(Format::from_extension(Path::new("noext")), None);
    }
}
