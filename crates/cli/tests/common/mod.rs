//! Paths and the binary runner shared by the CLI integration tests.
#![allow(dead_code)] // each test binary uses a different subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Every file under `fixtures/<format>/`, sorted, as paths relative to the repo root.
pub fn fixtures(format: &str) -> Vec<PathBuf> {
    let dir = repo_root().join("fixtures").join(format);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && !file_name(p).starts_with('.'))
        .map(|p| p.strip_prefix(repo_root()).unwrap().to_path_buf())
        .collect();
    files.sort();
    files
}

/// The file name as text.
pub fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Runs the `rigport` binary in the repo root.
pub fn rigport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigport"))
        .current_dir(repo_root())
        .args(args)
        .output()
        .expect("rigport runs")
}
