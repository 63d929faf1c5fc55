//! Replays every minimized fuzz crasher committed under `fuzz/regressions/<target>/` through
//! the check of the target that found it and through the whole pipeline, so a bug the fuzzers
//! found once stays fixed in an ordinary `cargo test` (no nightly, no libFuzzer).

/// The fuzz targets' checks, the very functions the targets call.
use rigport_sweep::fuzz as fuzz_checks;

use std::path::PathBuf;

#[test]
fn every_fuzz_regression_stays_fixed() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut replayed = 0;
    for target in std::fs::read_dir(&root).expect("fuzz/regressions exists") {
        let dir = target.expect("directory entry").path();
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("readable directory")
            .map(|e| e.expect("directory entry").path())
            .collect();
        files.sort();
        for file in files {
            let bytes = std::fs::read(&file).expect("readable file");
            // A panic names the file through the harness's output of this line.
            println!("replaying {}", file.display());
            fuzz_checks::target(&name, &bytes);
            fuzz_checks::pipeline(&bytes);
            replayed += 1;
        }
    }
    assert!(
        replayed > 0,
        "no regressions found under {}",
        root.display()
    );
}
