//! Finding a material's image file beside the model that names it.
//!
//! Real files name their images in every way a Windows tool could: `.\skin.jpg`, absolute
//! paths from the author's machine (`C:/Users/me/models/Zombie.jpg` for a file shipped as
//! `ZOMBIE.JPG`), bare names in another case than the file on disk. Every consumer that needs
//! the pixels (glTF texture embedding, the renderer) resolves a reference with the one rule
//! here, so a texture found by one is found by all:
//!
//! 1. a relative reference that names an existing file under the model's folder is used as is;
//! 2. otherwise the reference is reduced to its file name (after the last `/` or `\`, which
//!    also drops a drive letter and a `.\` prefix) and looked up in the model's folder,
//!    exactly first, then ignoring case.
//!
//! ```
//! use rigport_model_core::texture::file_name_of;
//!
//! assert_eq!(file_name_of(r"C:\Users\me\models\Zombie.jpg"), Some("Zombie.jpg"));
//! assert_eq!(file_name_of(r".\skin.bmp"), Some("skin.bmp"));
//! assert_eq!(file_name_of("textures/"), None);
//! ```

use std::path::{Component, Path, PathBuf};

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

/// Finds the image a material's texture reference names, beside the model in `dir`, by the
/// rule in the [module docs](self). Returns `None` when no such file exists (or the folder
/// cannot be read).
pub fn find_beside(dir: &Path, reference: &str) -> Option<PathBuf> {
    let reference = reference.trim();
    if is_plain_relative(reference) {
        let direct = dir.join(reference.replace('\\', "/"));
        if direct.is_file() {
            return Some(direct);
        }
    }
    let name = file_name_of(reference)?;
    let exact = dir.join(name);
    if exact.is_file() {
        return Some(exact);
    }
    let wanted = name.to_lowercase();
    let mut matches: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().to_lowercase() == wanted)
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .collect();
    // Several files differing only in case: take the first in sorted order, so the choice
    // does not depend on the order the file system lists them in.
    matches.sort();
    matches.into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn plain_relative_references() {
        assert!(is_plain_relative("skin.bmp"));
        assert!(is_plain_relative(r".\textures\skin.bmp"));
        assert!(!is_plain_relative("C:/x/skin.bmp"));
        assert!(!is_plain_relative("/abs/skin.bmp"));
        assert!(!is_plain_relative("../up/skin.bmp"));
    }

    #[test]
    fn finds_files_beside_the_model() {
        let dir = std::env::temp_dir().join(format!("rigport-texture-{}", std::process::id()));
        let sub = dir.join("textures");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(dir.join("ZOMBIE.JPG"), b"jpg").unwrap();
        std::fs::write(sub.join("skin.png"), b"png").unwrap();

        // Absolute Windows path of another machine, other case: found by file name.
        let found = find_beside(&dir, r"C:\Users\me\models\Zombie.jpg").unwrap();
        assert_eq!(found.file_name().unwrap(), "ZOMBIE.JPG");
        // `.\` prefix and a relative subfolder.
        assert_eq!(
            find_beside(&dir, r".\textures\skin.png").unwrap(),
            sub.join("skin.png")
        );
        // Not there at all, or naming a folder.
        assert_eq!(find_beside(&dir, "missing.bmp"), None);
        assert_eq!(find_beside(&dir, "textures"), None);
        assert_eq!(find_beside(&dir.join("no-such-dir"), "x.png"), None);

        std::fs::remove_dir_all(&dir).unwrap();
    }
}
