//! Every project fixture: sound files read strictly without warnings and write back with
//! the same content; `fail_*` files fail strict reading with the snapshotted rendering.

mod common;

use common::content;
use rigport_ms3d_ascii::{File, ReadOptions};

#[test]
fn fixtures_read_or_fail_as_snapshotted() {
    insta::glob!("../../../fixtures", "ms3d-ascii/*.txt", |path| {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        if name.starts_with("fail_") {
            let strict = match File::from_slice_with(&bytes, &ReadOptions::strict()) {
                Err(error) => error.render(&bytes),
                Ok(_) => panic!("{name} must fail strict reading"),
            };
            let lenient = match File::from_slice_with(&bytes, &ReadOptions::default()) {
                Err(error) => format!("error too:\n{}", error.render(&bytes)),
                Ok((file, report)) => format!(
                    "read, {} bytes kept as a damaged tail, with:\n{report}",
                    file.damaged_tail.len()
                ),
            };
            insta::assert_snapshot!(format!("strict:\n{strict}\n\nlenient:\n{lenient}"));
        } else {
            let (file, report) = File::from_slice_with(&bytes, &ReadOptions::strict())
                .unwrap_or_else(|e| panic!("{name}:\n{}", e.render(&bytes)));
            assert!(report.is_empty(), "{name}: {report}");
            let written = file.to_vec();
            assert!(
                content(&written) == content(&bytes),
                "{name}: content differs"
            );
            assert_eq!(
                File::from_slice(&written).unwrap().to_vec(),
                written,
                "{name}"
            );
            insta::assert_debug_snapshot!(file.summary());
        }
    });
}

/// Every prefix of every fixture, read both ways: an error or a file, never a panic. A
/// prefix the lenient reader accepts writes back to something it reads the same way.
#[test]
fn truncation_sweep_never_panics_and_stays_idempotent() {
    for path in common::txt_files(&common::fixture_dir()) {
        let bytes = std::fs::read(&path).unwrap();
        for end in 0..=bytes.len() {
            let prefix = &bytes[..end];
            let _ = File::from_slice_with(prefix, &ReadOptions::strict());
            if let Ok(file) = File::from_slice(prefix) {
                let written = file.to_vec();
                let again = File::from_slice(&written)
                    .unwrap_or_else(|e| panic!("{}[..{end}]: {e}", path.display()));
                assert_eq!(again.to_vec(), written, "{}[..{end}]", path.display());
            }
        }
    }
}

/// Single-byte changes at every position of every fixture never panic.
#[test]
fn byte_flips_never_panic() {
    for path in common::txt_files(&common::fixture_dir()) {
        let bytes = std::fs::read(&path).unwrap();
        for at in 0..bytes.len() {
            for replacement in [b'"', b'\n', b'9', b'-', b'A', b':', b'.', 0xFF] {
                let mut changed = bytes.clone();
                changed[at] = replacement;
                if let Ok(file) = File::from_slice(&changed) {
                    let _ = file.summary();
                    let _ = rigport_ms3d_ascii::to_model(&file, &Default::default());
                }
            }
        }
    }
}
