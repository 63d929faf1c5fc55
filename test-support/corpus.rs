//! Where the real-file corpus is, for the tests of every crate (each includes this file with
//! `#[path]`, as the benches share `xtask/src/bench_data`).
//!
//! `RIGPORT_CORPUS` may be relative (`RIGPORT_CORPUS=../shared/corpus`, as the README and CI
//! give it); it is taken from the workspace root, because cargo runs each crate's tests in
//! that crate's own directory.
#![allow(dead_code)] // each test binary uses one of the two functions

use std::path::{Path, PathBuf};

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
        // Every crate sits at crates/<name>, two levels below the workspace root.
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(root)
    } else {
        root
    };
    Some(root)
}
