//! Finding a material's image file beside the model that names it, and the limits every
//! decoder of such an image keeps to.
//!
//! Real files name their images in every way a Windows tool could: `.\skin.jpg`, absolute
//! paths from the author's machine (`C:/Users/me/models/Zombie.jpg` for a file shipped as
//! `ZOMBIE.JPG`), bare names in another case than the file on disk, an image of another
//! type than the one named (the IQM SDK's `mrfixit.iqm` names `Body.jpg` and ships
//! `Body.tga`), engine paths without any extension (an MD5 shader
//! `models/weapons/rifle/rifle`). Every consumer that needs the pixels (glTF texture
//! embedding, the renderer, `rigport info`, the Python and web doors) resolves a reference
//! with the one rule here, over the files beside the model as a
//! [`Companions`] (a folder on disk is [`Folder`], the files a web
//! page was given are a map), so a texture found by one is found by all:
//!
//! 1. a plain relative reference (no drive, no root, no `..`) naming a file among the
//!    companions is used as is (`textures/skin.png`);
//! 2. otherwise the reference is reduced to its base name (after the last `/` or `\`, which
//!    also drops a drive letter and a `.\` prefix), looked up exactly, then ignoring case;
//! 3. then the same stem with each image extension in turn ([`IMAGE_EXTENSIONS`]: png, jpg,
//!    jpeg, tga, bmp), exactly, then ignoring case. The stem is the base name without an
//!    image extension (`Body.jpg` → `Body`, `rifle` → `rifle`, `skin.dds` → `skin`).
//!
//! Several files differing only in case: the first in sorted order, so the choice does not
//! depend on the order a file system lists them in.
//!
//! ```
//! use rigport_model_core::texture::{file_name_of, find};
//! use std::collections::BTreeMap;
//!
//! assert_eq!(file_name_of(r"C:\Users\me\models\Zombie.jpg"), Some("Zombie.jpg"));
//! assert_eq!(file_name_of(r".\skin.bmp"), Some("skin.bmp"));
//! assert_eq!(file_name_of("textures/"), None);
//!
//! let files = BTreeMap::from([
//!     ("ZOMBIE.JPG".to_owned(), b"jpeg".to_vec()),
//!     ("Body.tga".to_owned(), b"tga".to_vec()),
//!     ("rifle.png".to_owned(), b"png".to_vec()),
//! ]);
//! assert_eq!(find(&files, r"C:\art\Zombie.jpg").as_deref(), Some("ZOMBIE.JPG"));
//! assert_eq!(find(&files, "Body.jpg").as_deref(), Some("Body.tga"));
//! assert_eq!(find(&files, "models/weapons/rifle/rifle").as_deref(), Some("rifle.png"));
//! assert_eq!(find(&files, "missing.png"), None);
//! ```

use crate::codec::{Companions, Folder};
use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

/// The image types rigport decodes, as the extensions tried after a reference's own base
/// name, in this order.
pub const IMAGE_EXTENSIONS: [&str; 5] = ["png", "jpg", "jpeg", "tga", "bmp"];

/// Extensions taken off a base name to make the stem the other extensions are tried with:
/// the decodable ones and other image types a reference may name (`.dds`, `.gif`, …) that
/// a model often ships converted.
const STRIPPED_EXTENSIONS: [&str; 12] = [
    "png", "jpg", "jpeg", "tga", "bmp", "dds", "gif", "tif", "tiff", "pcx", "webp", "ktx",
];

/// The caps every texture decoder keeps to (glTF embedding, the renderer): a file or a
/// header asking for more is refused before anything that size is allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest width or height decoded, in pixels. Default 16384.
    pub max_side: u32,
    /// Most bytes one texture file may have, and most bytes its decoder may allocate.
    /// Default 512 MiB: an 8192 × 8192 image of 16-bit RGBA, far above any real texture.
    pub max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_side: 16384,
            max_bytes: 512 << 20,
        }
    }
}

/// The file name a texture reference points at: the part after the last `/` or `\`, with
/// surrounding whitespace trimmed. `None` when nothing is left (an empty reference or one
/// ending in a separator).
pub fn file_name_of(reference: &str) -> Option<&str> {
    let name = reference
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(reference)
        .trim();
    // A bare drive such as `C:` names no file.
    let is_drive = name.len() == 2 && name.ends_with(':');
    (!name.is_empty() && name != "." && name != ".." && !is_drive).then_some(name)
}

/// Whether a texture reference is an absolute path, with either kind of slash: a leading
/// slash (a POSIX root, a UNC `//server`) or a drive letter (`C:/…`, also the drive-relative
/// `C:file`). `rigport validate` reports such references; exporters keep their file name.
///
/// ```
/// use rigport_model_core::texture::is_absolute;
/// assert!(is_absolute(r"C:\art\skin.png") && is_absolute("/home/me/skin.png"));
/// assert!(!is_absolute(r".\skin.png") && !is_absolute("textures/skin.png"));
/// ```
pub fn is_absolute(reference: &str) -> bool {
    let path = reference.replace('\\', "/");
    path.starts_with('/') || strip_drive(&path).len() != path.len()
}

/// `name` without a leading drive letter and colon (`C:skin.png` → `skin.png`).
pub fn strip_drive(name: &str) -> &str {
    match name.as_bytes() {
        [drive, b':', ..] if drive.is_ascii_alphabetic() => &name[2..],
        _ => name,
    }
}

/// The file names tried for a base name, in order: the name itself, then its stem with
/// each of [`IMAGE_EXTENSIONS`] (leaving out the name itself).
pub fn candidates(base: &str) -> Vec<String> {
    let stem = match base.rsplit_once('.') {
        Some((stem, extension))
            if !stem.is_empty()
                && STRIPPED_EXTENSIONS
                    .iter()
                    .any(|e| e.eq_ignore_ascii_case(extension)) =>
        {
            stem
        }
        _ => base,
    };
    let mut names = vec![base.to_owned()];
    for extension in IMAGE_EXTENSIONS {
        let name = format!("{stem}.{extension}");
        if !name.eq_ignore_ascii_case(base) {
            names.push(name);
        }
    }
    names
}

/// Whether a reference is a plain relative path that may name a file under the model's
/// folder: no drive letter, no root, no `..` climbing out of the folder.
fn is_plain_relative(reference: &str) -> bool {
    let normalised = reference.replace('\\', "/");
    let path = Path::new(&normalised);
    !normalised.contains(':')
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// The name, among `files`, of the image a material's texture reference names, by the rule
/// in the [module docs](self). `None` when no file matches.
pub fn find(files: &dyn Companions, reference: &str) -> Option<String> {
    let reference = reference.trim();
    if is_plain_relative(reference) && reference.contains(['/', '\\']) {
        let relative = reference.replace('\\', "/");
        let relative = relative.trim_start_matches("./");
        if files.size(relative).is_some() {
            return Some(relative.to_owned());
        }
    }
    let base = file_name_of(reference)?;
    let mut names: Option<Vec<String>> = None;
    for candidate in candidates(base) {
        if files.size(&candidate).is_some() {
            return Some(candidate);
        }
        let names = names.get_or_insert_with(|| files.names());
        if let Some(name) = names.iter().find(|n| n.eq_ignore_ascii_case(&candidate)) {
            return Some(name.clone());
        }
        // Non-ASCII names: compare their lower-case forms.
        if !candidate.is_ascii() {
            let wanted = candidate.to_lowercase();
            if let Some(name) = names.iter().find(|n| n.to_lowercase() == wanted) {
                return Some(name.clone());
            }
        }
    }
    None
}

/// An image file found for a texture reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    /// The file's name among the companions (it may differ from the reference in case,
    /// folder and extension).
    pub name: String,
    /// The file's bytes.
    pub bytes: Cow<'a, [u8]>,
}

/// Why a texture reference gave no image bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// No file matches the reference.
    #[error("texture `{0}` not found beside the model")]
    NotFound(String),
    /// A file was found but is larger than the limits allow.
    #[error("texture `{reference}` ({name}): {size} bytes, more than the {max} a texture may have")]
    TooLarge {
        /// The reference as the material stores it.
        reference: String,
        /// The file found.
        name: String,
        /// Its size.
        size: u64,
        /// The limit.
        max: u64,
    },
    /// A file was found but could not be read.
    #[error("texture `{reference}` ({name}) cannot be read")]
    Unreadable {
        /// The reference as the material stores it.
        reference: String,
        /// The file found.
        name: String,
    },
}

/// Finds the image `reference` names among `files` ([`find`]) and reads it, refusing a file
/// larger than `limits` allow before reading it.
pub fn load<'a>(
    files: &'a dyn Companions,
    reference: &str,
    limits: &Limits,
) -> Result<Found<'a>, LoadError> {
    let name = find(files, reference).ok_or_else(|| LoadError::NotFound(reference.to_owned()))?;
    let unreadable = || LoadError::Unreadable {
        reference: reference.to_owned(),
        name: name.clone(),
    };
    let size = files.size(&name).ok_or_else(unreadable)?;
    if size > limits.max_bytes {
        return Err(LoadError::TooLarge {
            reference: reference.to_owned(),
            name,
            size,
            max: limits.max_bytes,
        });
    }
    let bytes = files.get(&name).ok_or_else(unreadable)?;
    if bytes.len() as u64 > limits.max_bytes {
        return Err(LoadError::TooLarge {
            reference: reference.to_owned(),
            name,
            size: bytes.len() as u64,
            max: limits.max_bytes,
        });
    }
    Ok(Found { name, bytes })
}

/// Finds the image a material's texture reference names, beside the model in `dir`, by the
/// rule in the [module docs](self). Returns `None` when no such file exists (or the folder
/// cannot be read).
pub fn find_beside(dir: &Path, reference: &str) -> Option<PathBuf> {
    let folder = Folder::new(dir);
    let name = find(&folder, reference)?;
    folder.path_of(&name)
}

/// The distinct texture references of a model's materials, in material order, each once
/// (blank ones left out).
pub fn references(model: &crate::Model) -> Vec<&str> {
    let mut seen: Vec<&str> = Vec::new();
    for material in &model.materials {
        if let Some(reference) = material.texture.as_deref().filter(|r| !r.trim().is_empty()) {
            if !seen.contains(&reference) {
                seen.push(reference);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn file_names_from_real_references() {
        assert_eq!(file_name_of("skin.bmp"), Some("skin.bmp"));
        assert_eq!(file_name_of(r".\skin.bmp"), Some("skin.bmp"));
        assert_eq!(file_name_of("C:/a/b/Zombie.jpg"), Some("Zombie.jpg"));
        assert_eq!(file_name_of(r"D:\x\y z\Face 1.TGA "), Some("Face 1.TGA"));
        assert_eq!(file_name_of(""), None);
        assert_eq!(file_name_of("dir/"), None);
        assert_eq!(file_name_of("C:"), None);
        assert_eq!(file_name_of(".."), None);
    }

    #[test]
    fn candidates_keep_the_name_first_then_try_each_image_type() {
        assert_eq!(
            candidates("Body.jpg"),
            ["Body.jpg", "Body.png", "Body.jpeg", "Body.tga", "Body.bmp"]
        );
        assert_eq!(
            candidates("rifle"),
            [
                "rifle",
                "rifle.png",
                "rifle.jpg",
                "rifle.jpeg",
                "rifle.tga",
                "rifle.bmp"
            ]
        );
        assert_eq!(candidates("skin.DDS")[1], "skin.png");
        // Not an image extension: kept as part of the stem.
        assert_eq!(candidates("metal.001")[1], "metal.001.png");
        assert_eq!(candidates(".png")[1], ".png.png");
    }

    #[test]
    fn plain_relative_references() {
        assert!(is_plain_relative("skin.bmp"));
        assert!(is_plain_relative(r".\textures\skin.bmp"));
        assert!(!is_plain_relative("C:/x/skin.bmp"));
        assert!(!is_plain_relative("/abs/skin.bmp"));
        assert!(!is_plain_relative("../up/skin.bmp"));
    }

    fn files(names: &[&str]) -> HashMap<String, Vec<u8>> {
        names
            .iter()
            .map(|n| (n.to_string(), n.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn the_rule_over_files_in_memory() {
        let files = files(&[
            "nskinbr.JPG",
            "Body.tga",
            "body.bmp",
            "b.png",
            "B.PNG",
            "é.png",
        ]);
        assert_eq!(
            find(&files, r".\nskinbr.jpg").as_deref(),
            Some("nskinbr.JPG")
        );
        // The named type first, then the others in order: tga before bmp.
        assert_eq!(find(&files, "C:/x/Body.jpg").as_deref(), Some("Body.tga"));
        assert_eq!(find(&files, "BODY.BMP").as_deref(), Some("body.bmp"));
        // Several files differing in case only: the exact one, else the first sorted.
        assert_eq!(find(&files, "b.png").as_deref(), Some("b.png"));
        assert_eq!(find(&files, "b.Png").as_deref(), Some("B.PNG"));
        assert_eq!(find(&files, "É.PNG").as_deref(), Some("é.png"));
        assert_eq!(find(&files, "models/x/b").as_deref(), Some("b.png"));
        assert_eq!(find(&files, "nothing.jpg"), None);
        assert_eq!(find(&files, ""), None);
        assert_eq!(find(&files, "dir/"), None);
    }

    #[test]
    fn loading_checks_the_size_before_reading() {
        let files = files(&["skin.png"]);
        let found = load(&files, "SKIN.png", &Limits::default()).unwrap();
        assert_eq!(
            (found.name.as_str(), &*found.bytes),
            ("skin.png", &b"skin.png"[..])
        );
        let tight = Limits {
            max_bytes: 4,
            ..Limits::default()
        };
        assert!(matches!(
            load(&files, "skin.png", &tight),
            Err(LoadError::TooLarge {
                size: 8,
                max: 4,
                ..
            })
        ));
        let missing = load(&files, r".\gone.bmp", &Limits::default()).unwrap_err();
        assert_eq!(
            missing.to_string(),
            r"texture `.\gone.bmp` not found beside the model"
        );
    }

    #[test]
    fn finds_files_beside_the_model() {
        let dir = std::env::temp_dir().join(format!("rigport-texture-{}", std::process::id()));
        let sub = dir.join("textures");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(dir.join("ZOMBIE.JPG"), b"jpg").unwrap();
        std::fs::write(dir.join("Head.tga"), b"tga").unwrap();
        std::fs::write(sub.join("skin.png"), b"png").unwrap();

        // Absolute Windows path of another machine, other case: found by file name.
        let found = find_beside(&dir, r"C:\Users\me\models\Zombie.jpg").unwrap();
        assert_eq!(found.file_name().unwrap(), "ZOMBIE.JPG");
        // Another image type than the one named.
        let found = find_beside(&dir, "Head.jpg").unwrap();
        assert_eq!(found.file_name().unwrap(), "Head.tga");
        // `.\` prefix and a relative subfolder.
        assert_eq!(
            find_beside(&dir, r".\textures\skin.png").unwrap(),
            sub.join("skin.png")
        );
        // Not there at all, or naming a folder.
        assert_eq!(find_beside(&dir, "missing.bmp"), None);
        assert_eq!(find_beside(&dir, "textures"), None);
        assert_eq!(find_beside(&dir.join("no-such-dir"), "x.png"), None);
        // Out of the folder: never.
        assert_eq!(find_beside(&sub, "../ZOMBIE.JPG"), None);

        std::fs::remove_dir_all(&dir).unwrap();
    }
}
