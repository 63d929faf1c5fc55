//! The workspace's own small files under `fixtures/<format>/`.

use crate::workspace_root;
use std::path::{Path, PathBuf};

/// The formats with a fixture folder that rigport reads, in registry order.
pub const READABLE: [&str; 3] = ["ms3d", "ms3d-ascii", "iqe"];

/// `fixtures/` at the workspace root.
pub fn fixtures_dir() -> PathBuf {
    workspace_root().join("fixtures")
}

/// `fixtures/<format>/<name>`.
pub fn fixture(format: &str, name: &str) -> PathBuf {
    fixtures_dir().join(format).join(name)
}

/// Every file under `fixtures/<format>/` (hidden files left out), sorted, as paths relative
/// to the workspace root (so snapshot names and messages do not depend on the checkout).
pub fn fixtures(format: &str) -> Vec<PathBuf> {
    let root = workspace_root();
    let dir = fixtures_dir().join(format);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            e.unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .path()
        })
        .filter(|p| p.is_file() && !file_name(p).starts_with('.'))
        .map(|p| p.strip_prefix(&root).map(Path::to_path_buf).unwrap_or(p))
        .collect();
    files.sort();
    files
}

/// Fixtures of every readable format that are expected to read (their names do not start
/// with `fail_`, and textures are left out), relative to the workspace root.
pub fn readable_fixtures() -> Vec<PathBuf> {
    READABLE
        .iter()
        .flat_map(|f| fixtures(f))
        .filter(|p| !file_name(p).starts_with("fail_") && !is_image(p))
        .collect()
}

/// Whether a fixture is a texture beside the models (BMP, PNG, JPEG, TGA), not a model.
pub fn is_image(path: &Path) -> bool {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    ["bmp", "png", "jpg", "jpeg", "tga"]
        .iter()
        .any(|image| extension.eq_ignore_ascii_case(image))
}

/// The file name as text (empty for a path without one).
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixtures_are_found_relative_to_the_root_and_failures_left_out() {
        let all = fixtures("ms3d");
        assert!(all.iter().any(|p| p.ends_with("rig_full.ms3d")), "{all:?}");
        assert!(
            all.iter()
                .all(|p| p.is_relative() && p.starts_with("fixtures/ms3d"))
        );
        let readable = readable_fixtures();
        assert!(!readable.is_empty());
        assert!(readable.iter().all(|p| !file_name(p).starts_with("fail_")));
        assert!(workspace_root().join(&readable[0]).is_file());
    }
}
