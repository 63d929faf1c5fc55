//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// `fixtures/ms3d` of the workspace.
pub fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/ms3d")
}

/// One fixture's bytes.
pub fn fixture(name: &str) -> Vec<u8> {
    let path = fixture_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `.ms3d` file below `dir`, sorted by name.
pub fn ms3d_files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "ms3d"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

use rigport_test_support::corpus;

/// `$RIGPORT_CORPUS/ms3d`, or `None` (after saying so) when the variable is unset.
pub fn corpus_dir() -> Option<PathBuf> {
    corpus::corpus_dir("ms3d")
}
