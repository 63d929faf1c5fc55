//! Damaged input: cut at every offset, bytes flipped, hostile counts. Every outcome is an
//! error naming an offset or a read (with a warning when the tail is damaged) — never a
//! panic — and whatever reads writes back to exactly the input.

mod common;

use rigport_model_core::{At, Limits, ReadOptions};
use rigport_ms3d_bin::{Detail, Error, File};

/// Byte offsets where a file may end cleanly: after the core and after each block present.
fn boundaries(file: &File) -> Vec<usize> {
    let mut stripped = file.clone();
    stripped.tail.clear();
    let mut ends = vec![stripped.to_vec().len()];
    for _ in 0..4 {
        if stripped.model_extra.take().is_none()
            && stripped.joint_extra.take().is_none()
            && stripped.vertex_extra.take().is_none()
            && stripped.comments.take().is_none()
        {
            break;
        }
        ends.push(stripped.to_vec().len());
    }
    ends.sort_unstable();
    ends
}

/// Checks what reading `bytes[..cut]` gives, knowing the whole file's clean boundaries.
fn check_prefix(name: &str, bytes: &[u8], cut: usize, ends: &[usize]) {
    let prefix = &bytes[..cut];
    let lenient = File::from_slice_with(prefix, &ReadOptions::default());
    let strict = File::from_slice_with(prefix, &ReadOptions::strict());
    let core_end = ends[0];
    if cut < core_end {
        let error = lenient.expect_err("a cut core is an error");
        let offset = error.offset().expect("read errors name an offset");
        assert!(offset <= cut as u64, "{name}@{cut}: {error}");
        assert!(strict.is_err(), "{name}@{cut}");
        return;
    }
    let (file, report) = lenient.unwrap_or_else(|e| panic!("{name}@{cut}: {e}"));
    assert_eq!(file.to_vec(), prefix, "{name}@{cut}: write(read(x)) != x");
    if ends.contains(&cut) {
        assert!(report.is_empty(), "{name}@{cut}: {report}");
        assert!(strict.is_ok(), "{name}@{cut}: {:?}", strict.err());
    } else {
        assert_eq!(report.notices.len(), 1, "{name}@{cut}");
        assert_eq!(report.notices[0].code, "damaged-tail");
        let error = strict.expect_err("strict mode refuses a cut block");
        assert!(
            matches!(
                error,
                Error::Format {
                    detail: Detail::DamagedTail { .. },
                    ..
                }
            ),
            "{name}@{cut}: {error}"
        );
    }
}

#[test]
fn every_prefix_of_every_fixture() {
    for (name, bytes) in common::ms3d_files(&common::fixture_dir()) {
        match File::from_slice(&bytes) {
            Ok(file) => {
                let ends = boundaries(&file);
                for cut in 0..=bytes.len() {
                    check_prefix(&name, &bytes, cut, &ends);
                }
            }
            Err(_) => {
                for cut in 0..=bytes.len() {
                    assert!(File::from_slice(&bytes[..cut]).is_err(), "{name}@{cut}");
                }
            }
        }
    }
}

#[test]
fn evenly_spaced_prefixes_of_corpus_files() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    for (name, bytes) in common::ms3d_files(&dir) {
        let len = bytes.len();
        let mut cuts: Vec<usize> = (0..=200).map(|i| len * i / 200).collect();
        match File::from_slice(&bytes) {
            Ok(file) => {
                let ends = boundaries(&file);
                // Around each boundary too, where off-by-one mistakes live.
                for &end in &ends {
                    cuts.extend([end.saturating_sub(1), end, (end + 1).min(len)]);
                }
                for cut in cuts {
                    check_prefix(&name, &bytes, cut, &ends);
                }
            }
            Err(_) => {
                for cut in cuts {
                    assert!(File::from_slice(&bytes[..cut]).is_err(), "{name}@{cut}");
                }
            }
        }
    }
}

#[test]
fn flipped_bytes_read_back_exactly_or_fail_with_an_offset() {
    for (name, bytes) in common::ms3d_files(&common::fixture_dir()) {
        for at in 0..bytes.len() {
            for mask in [0xFF, 0x80] {
                let mut damaged = bytes.clone();
                damaged[at] ^= mask;
                match File::from_slice(&damaged) {
                    Ok(file) => assert_eq!(file.to_vec(), damaged, "{name}: byte {at}"),
                    Err(error) => assert!(error.offset().is_some(), "{name}: {error}"),
                }
            }
        }
    }
}

/// `MS3D000000`, version 4, then `nNumVertices = 65535` and 4 more bytes: 65535 records of
/// 15 bytes would need 983025 bytes from byte 16, where 4 are left.
#[test]
fn hostile_vertex_count_fails_before_allocating() {
    let mut bytes = b"MS3D000000".to_vec();
    bytes.extend_from_slice(&4i32.to_le_bytes());
    bytes.extend_from_slice(&u16::MAX.to_le_bytes());
    bytes.extend_from_slice(&[0; 4]);
    assert_eq!(bytes.len(), 20);
    // Even with no allocation budget at all, the count is refused by the byte check: it
    // comes before anything is reserved or allocated.
    let options = ReadOptions {
        limits: Limits { max_alloc_bytes: 0 },
        ..ReadOptions::default()
    };
    let error = File::from_slice_with(&bytes, &options).unwrap_err();
    assert_eq!(error.offset(), Some(16), "{error}");
    match error {
        Error::Format {
            detail:
                Detail::CountPastEnd {
                    offset,
                    what,
                    count,
                    needed,
                    available,
                },
            ..
        } => {
            assert_eq!((offset, what, count), (16, "vertices", 65535));
            assert_eq!((needed, available), (983_025, 4));
        }
        other => panic!("expected a count past the end, got {other}"),
    }
}

/// A count the input can hold but the memory limit cannot is refused with the limit.
#[test]
fn memory_limit_is_enforced() {
    let bytes = common::fixture("rig_full.ms3d");
    let options = ReadOptions {
        limits: Limits {
            max_alloc_bytes: 64,
        },
        ..ReadOptions::default()
    };
    let error = File::from_slice_with(&bytes, &options).unwrap_err();
    assert!(
        matches!(
            error,
            Error::Limit {
                at: Some(At::Offset(16)),
                ..
            }
        ),
        "{error}"
    );
    assert!(File::from_slice_with(&bytes, &ReadOptions::default()).is_ok());
}

#[test]
fn not_milkshape_and_short_headers() {
    assert!(matches!(
        File::from_slice(b"IQE\n"),
        Err(Error::BadMagic { .. })
    ));
    assert!(matches!(
        File::from_slice(b"MS3D0"),
        Err(Error::Truncated { offset: 0, .. })
    ));
    assert!(matches!(
        File::from_slice(b"MS3D000000\x04\0"),
        Err(Error::Truncated {
            offset: 10,
            what: "header version",
            ..
        })
    ));
    let error = File::from_slice(b"MS3D000000\x05\0\0\0").unwrap_err();
    assert!(
        matches!(
            error,
            Error::Format {
                detail: Detail::UnsupportedVersion { version: 5 },
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(error.offset(), Some(10));
    assert_eq!(
        File::from_slice(b"IQE\n").unwrap_err().to_string(),
        "not a MilkShape 3D binary file: byte 0 holds \"IQE\\n\", expected \"MS3D000000\""
    );
    assert!(!rigport_ms3d_bin::sniff(b"MS3D00000"));
    assert!(rigport_ms3d_bin::sniff(b"MS3D000000\x04\0\0\0"));
}
