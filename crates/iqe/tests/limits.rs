//! The allocation budget of `ReadOptions.limits` bounds what a read may hold: every command
//! is charged to it before it is stored, so a file larger than the budget is refused with
//! the limit error instead of being held.

use rigport_iqe::{Error, File};
use rigport_model_core::{Limits, ReadOptions};

fn with_budget(max_alloc_bytes: u64) -> ReadOptions {
    ReadOptions {
        limits: Limits { max_alloc_bytes },
        ..ReadOptions::default()
    }
}

/// `n` triangles of three `vp` lines and one `fm` each.
fn triangles(n: usize) -> Vec<u8> {
    let mut text = b"# Inter-Quake Export\nmesh m\n".to_vec();
    for _ in 0..n {
        text.extend_from_slice(b"vp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n");
    }
    text
}

#[test]
fn a_file_whose_commands_exceed_the_budget_is_refused() {
    let bytes = triangles(100);
    // 401 commands (mesh, 300 vp, 100 fm): each costs at least its in-memory size, so 4 KiB
    // cannot hold them, while the default 1 GiB can.
    let error = File::from_slice_with(&bytes, &with_budget(4096)).unwrap_err();
    assert!(matches!(error, Error::Limit { .. }), "{error}");
    assert!(error.to_string().contains("IQE commands"), "{error}");
    let (file, _) = File::from_slice_with(&bytes, &ReadOptions::default()).unwrap();
    assert_eq!(file.command_count(), 401);
}

#[test]
fn the_budget_is_per_read_not_per_command() {
    // One triangle's four commands fit in 4 KiB; a hundred do not (above), so the budget is
    // drawn down across the read, not checked command by command.
    assert!(File::from_slice_with(&triangles(1), &with_budget(4096)).is_ok());
}
