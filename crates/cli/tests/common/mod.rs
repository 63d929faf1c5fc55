//! Paths shared by the CLI integration tests.
#![allow(dead_code)] // each test binary uses a different subset

#[path = "../../../../test-support/corpus.rs"]
mod corpus;

use rigport::formats::Format;
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

/// Fixtures that are expected to read (their names do not start with `fail_`).
pub fn readable_fixtures() -> Vec<PathBuf> {
    ["ms3d", "ms3d-ascii", "iqe"]
        .iter()
        .flat_map(|f| fixtures(f))
        .filter(|p| !file_name(p).starts_with("fail_"))
        .collect()
}

/// The file name as text.
pub fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Every corpus file, or `None` (after saying so) when `RIGPORT_CORPUS` is not set.
pub fn corpus_files() -> Option<Vec<PathBuf>> {
    let mut files = Vec::new();
    for format in ["ms3d", "ms3d-ascii", "iqe", "iqm"] {
        let dir = corpus::corpus_dir(format)?;
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            files.push(entry.unwrap().path());
        }
    }
    files.sort();
    Some(files)
}

/// Runs the `rigport` binary in the repo root.
pub fn rigport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigport"))
        .current_dir(repo_root())
        .args(args)
        .output()
        .expect("rigport runs")
}

/// Every output format, in the order the tests report them.
pub const TARGETS: [Format; 7] = Format::ALL;
