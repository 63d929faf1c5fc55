//! Which files below a batch's inputs are read, and which are left out and why: a folder of
//! files rigport does not read says so instead of converting nothing without a word.
//!
//! ```
//! use rigport::batch::collect;
//! use std::path::PathBuf;
//!
//! let dir = std::env::temp_dir().join(format!("rigport-collect-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! for name in ["hero.iqe", "skin.png", "a.blend", "b.blend"] {
//!     std::fs::write(dir.join(name), b"").unwrap();
//! }
//! let collected = collect(&[dir.clone()]).unwrap();
//! assert_eq!(collected.inputs, [dir.join("hero.iqe")]);
//! // The texture is a companion and stays silent; the .blend files are counted.
//! assert_eq!(collected.skipped_summary().unwrap(),
//!            "2 skipped: .blend (2), not a format rigport reads");
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::Format;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Why a file of a format rigport does not read is skipped.
pub const NOT_READ: &str = "not a format rigport reads";
/// Why a file of a format rigport only writes (posed OBJ) is skipped.
pub const ONLY_WRITTEN: &str = "a format rigport writes but does not read";

/// Extensions of the files that travel with models and are read through them, never alone:
/// images (textures), a `.gltf`'s `.bin` buffers and OBJ's `.mtl` materials. A batch passes
/// them over in silence.
const COMPANIONS: [&str; 18] = [
    "png", "jpg", "jpeg", "tga", "bmp", "gif", "webp", "dds", "ktx", "ktx2", "exr", "hdr", "tif",
    "tiff", "psd", "pcx", "bin", "mtl",
];

/// Files that file managers and version control leave in folders.
const SYSTEM_FILES: [&str; 2] = ["thumbs.db", "desktop.ini"];

/// The files of a batch: those read, and those passed over with a reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collected {
    /// Files whose extension rigport reads (and files named explicitly, whatever their
    /// extension), sorted within each folder so runs are reproducible.
    pub inputs: Vec<PathBuf>,
    /// Files found in the folders that rigport does not read, companions aside.
    pub skipped: Vec<Skipped>,
}

/// A file a batch passed over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why: [`NOT_READ`] or [`ONLY_WRITTEN`].
    pub reason: &'static str,
}

impl Collected {
    /// The files skipped, counted by extension: `17 skipped: .blend (17), not a format
    /// rigport reads`; extensions sharing a reason are listed together, the reason and the
    /// extension with the most files first. `None` when nothing was skipped.
    pub fn skipped_summary(&self) -> Option<String> {
        skipped_summary(&self.skipped)
    }

    /// Why a batch over `paths` has nothing to do (`verb`: "convert", "render"), or `None`
    /// when it has inputs: what was skipped, or that the folders hold no files at all.
    pub fn nothing_to(&self, paths: &[PathBuf], verb: &str) -> Option<String> {
        if !self.inputs.is_empty() {
            return None;
        }
        let named: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let named = named.join(", ");
        Some(match self.skipped_summary() {
            Some(summary) => format!("nothing to {verb} in {named}: {summary}"),
            None => format!(
                "nothing to {verb} in {named}: no model files (rigport reads {})",
                crate::registry::readable_keys()
            ),
        })
    }
}

/// [`Collected::skipped_summary`] of a list of skipped files.
pub fn skipped_summary(skipped: &[Skipped]) -> Option<String> {
    if skipped.is_empty() {
        return None;
    }
    let mut by_reason: BTreeMap<&str, BTreeMap<String, usize>> = BTreeMap::new();
    for file in skipped {
        *by_reason
            .entry(file.reason)
            .or_default()
            .entry(extension_label(&file.path))
            .or_default() += 1;
    }
    // The reason with the most files first.
    let mut by_reason: Vec<(&str, BTreeMap<String, usize>)> = by_reason.into_iter().collect();
    by_reason.sort_by_key(|(_, counts)| std::cmp::Reverse(counts.values().sum::<usize>()));
    let groups: Vec<String> = by_reason
        .into_iter()
        .map(|(reason, counts)| {
            let mut counts: Vec<(String, usize)> = counts.into_iter().collect();
            counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            let listed: Vec<String> = counts
                .iter()
                .map(|(extension, n)| format!("{extension} ({n})"))
                .collect();
            format!("{}, {reason}", listed.join(", "))
        })
        .collect();
    Some(format!("{} skipped: {}", skipped.len(), groups.join("; ")))
}

/// `.fbx`, lower case, or `(no extension)`.
fn extension_label(path: &Path) -> String {
    match path.extension() {
        Some(extension) => format!(".{}", extension.to_string_lossy().to_lowercase()),
        None => "(no extension)".to_owned(),
    }
}

/// Files below `paths` (directories are recursed) whose extension rigport reads, sorted so
/// runs are reproducible. Explicitly named files are kept whatever their extension. The
/// error names a path that does not exist or a folder that cannot be listed.
pub fn collect_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    collect(paths).map(|collected| collected.inputs)
}

/// [`collect_inputs`] with the files it passed over ([`Collected::skipped`]).
pub fn collect(paths: &[PathBuf]) -> Result<Collected, String> {
    let mut collected = Collected::default();
    for path in paths {
        if path.is_dir() {
            walk(path, &mut collected).map_err(|e| format!("{}: {e}", path.display()))?;
        } else if path.exists() {
            collected.inputs.push(path.clone());
        } else {
            return Err(format!("{}: no such file or directory", path.display()));
        }
    }
    Ok(collected)
}

fn walk(dir: &Path, collected: &mut Collected) -> std::io::Result<()> {
    // `file_type` does not follow symbolic links: a link to a parent folder must not make
    // the walk loop (or collect every file many times).
    let mut entries: Vec<(PathBuf, std::fs::FileType)> = std::fs::read_dir(dir)?
        .map(|entry| entry.and_then(|e| Ok((e.path(), e.file_type()?))))
        .collect::<Result<_, _>>()?;
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, kind) in entries {
        if kind.is_dir() {
            walk(&path, collected)?;
        } else if !kind.is_symlink() || path.is_file() {
            match Format::from_extension(&path) {
                Some(format) if format.can_read() => collected.inputs.push(path),
                Some(_) => collected.skipped.push(Skipped {
                    path,
                    reason: ONLY_WRITTEN,
                }),
                None if is_silent(&path) => {}
                None => collected.skipped.push(Skipped {
                    path,
                    reason: NOT_READ,
                }),
            }
        }
    }
    Ok(())
}

/// Companions ([`COMPANIONS`]), hidden files and the files system tools leave behind.
fn is_silent(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if name.starts_with('.') || SYSTEM_FILES.contains(&name.as_str()) {
        return true;
    }
    path.extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .is_some_and(|e| COMPANIONS.contains(&e.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(names: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for name in names {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, b"").unwrap();
        }
        dir
    }

    #[test]
    fn collects_readable_files_recursively_in_order_and_counts_the_rest() {
        let dir = folder(&[
            "b.ms3d",
            "a.iqe",
            "notes.md",
            "sub/c.txt",
            "sub/d.glb",
            "sub/e.obj",
            "sub/e.mtl",
            "sub/skin.PNG",
            "x.blend",
            "y.BLEND",
            ".DS_Store",
            "README",
        ]);
        let collected = collect(&[dir.path().to_path_buf()]).unwrap();
        let names = |paths: Vec<&PathBuf>| -> Vec<String> {
            paths
                .iter()
                .map(|p| p.strip_prefix(dir.path()).unwrap().display().to_string())
                .collect()
        };
        assert_eq!(
            names(collected.inputs.iter().collect()),
            ["a.iqe", "b.ms3d", "sub/c.txt", "sub/d.glb"]
        );
        assert_eq!(
            names(collected.skipped.iter().map(|s| &s.path).collect()),
            ["README", "notes.md", "sub/e.obj", "x.blend", "y.BLEND"]
        );
        assert_eq!(
            collected.skipped_summary().unwrap(),
            "5 skipped: .blend (2), (no extension) (1), .md (1), not a format rigport reads; \
             .obj (1), a format rigport writes but does not read"
        );
        assert_eq!(collected.nothing_to(&[], "convert"), None);
        assert!(collect(&[dir.path().join("missing")]).is_err());
    }

    #[test]
    fn a_folder_without_models_has_nothing_to_do_and_says_why() {
        let dir = folder(&["a.fbx2", "b.fbx2", "tex.png"]);
        let paths = [dir.path().to_path_buf()];
        let message = collect(&paths)
            .unwrap()
            .nothing_to(&paths, "render")
            .unwrap();
        assert!(
            message.ends_with(": 2 skipped: .fbx2 (2), not a format rigport reads"),
            "{message}"
        );
        assert!(message.starts_with("nothing to render in "), "{message}");
        let empty = folder(&[]);
        let paths = [empty.path().to_path_buf()];
        let message = collect(&paths)
            .unwrap()
            .nothing_to(&paths, "convert")
            .unwrap();
        assert!(
            message.contains("no model files (rigport reads "),
            "{message}"
        );
        // A file named on the command line is an input whatever its extension.
        let named = [dir.path().join("a.fbx2")];
        assert_eq!(collect(&named).unwrap().inputs, named);
    }
}
