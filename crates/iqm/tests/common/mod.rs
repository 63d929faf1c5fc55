//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub mod raw;

use rigport_test_support::corpus;

/// `$RIGPORT_CORPUS/<format>`, or `None` (after saying so) when the variable is unset.
pub fn corpus_dir(format: &str) -> Option<PathBuf> {
    corpus::corpus_dir(format)
}

/// `fixtures/iqm` of the workspace.
pub fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/iqm")
}

/// Every file with extension `ext` in `dir`, sorted by name.
pub fn files(dir: &Path, ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}
