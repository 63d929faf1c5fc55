//! The output rule: refusals, permissions, no leftovers, and files of several writeback
//! steps written whole.

use super::*;

#[test]
fn refuses_existing_and_input_paths() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.ms3d");
    std::fs::write(&input, b"x").unwrap();
    assert!(matches!(
        check_target(&input, &[&input], true),
        Err(OutputError::IsInput(_))
    ));
    let out = dir.path().join("out.ms3d");
    check_target(&out, &[&input], false).unwrap();
    assert!(!sync_before_rename(&out), "a new file has nothing to keep");
    write_atomic(&out, b"abc").unwrap();
    assert!(
        sync_before_rename(&out),
        "the file written is kept until replaced"
    );
    assert!(matches!(
        check_target(&out, &[&input], false),
        Err(OutputError::Exists(_))
    ));
    check_target(&out, &[&input], true).unwrap();
    write_atomic(&out, b"def").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), b"def");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "not the temporary file's 0600");
    }
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn large_files_are_written_whole_synced_or_not() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("large.glb");
    // Two and a half megabytes, no two alike.
    let bytes: Vec<u8> = (0..(5usize << 20) / 2)
        .map(|i| (i % 251) as u8 ^ (i >> 20) as u8)
        .collect();
    write_atomic(&out, &bytes).unwrap();
    assert!(std::fs::read(&out).unwrap() == bytes);
    // Replacing it syncs.
    let reversed: Vec<u8> = bytes.iter().rev().copied().collect();
    write_atomic(&out, &reversed).unwrap();
    assert!(std::fs::read(&out).unwrap() == reversed);
    write_atomic_unsynced(&out, &bytes[..1000]).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), &bytes[..1000]);
}
