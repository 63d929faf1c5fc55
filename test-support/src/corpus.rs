//! Where the real-file corpus is, for the tests of every crate.
//!
//! `RIGPORT_CORPUS` may be relative (`RIGPORT_CORPUS=../shared/corpus`, as the README and CI
//! give it); it is taken from the workspace root, because cargo runs each crate's tests in
//! that crate's own directory.
use crate::workspace_root;
use std::path::PathBuf;

/// `$RIGPORT_CORPUS/<format>`, or `None` after printing that the test skipped.
pub fn corpus_dir(format: &str) -> Option<PathBuf> {
    corpus_root().map(|root| root.join(format))
}

/// `$RIGPORT_CORPUS` itself, or `None` after printing that the test skipped.
pub fn corpus_root() -> Option<PathBuf> {
    let Some(root) = std::env::var_os("RIGPORT_CORPUS") else {
        println!("skipped: RIGPORT_CORPUS not set");
        return None;
    };
    let root = PathBuf::from(root);
    let root = if root.is_relative() {
        workspace_root().join(root)
    } else {
        root
    };
    Some(root)
}

/// The corpus folders of every format rigport reads (IQM has a corpus folder but no
/// fixture folder: its fixtures are made byte by byte in its tests).
pub const CORPUS_FORMATS: [&str; 7] = ["ms3d", "ms3d-ascii", "iqe", "iqm", "psk", "b3d", "fbx"];

/// Every file of `$RIGPORT_CORPUS/<format>` for each of `formats`, sorted, or `None` (after
/// saying so) when `RIGPORT_CORPUS` is not set.
pub fn corpus_files(formats: &[&str]) -> Option<Vec<PathBuf>> {
    let mut files = Vec::new();
    for format in formats {
        let dir = corpus_dir(format)?;
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            files.push(
                entry
                    .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                    .path(),
            );
        }
    }
    files.sort();
    Some(files)
}
