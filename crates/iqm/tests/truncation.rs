//! Damaged input: every corpus file and fixture cut at many offsets, bytes flipped, and
//! tiny memory limits. Every outcome is an error naming an offset or a read that writes
//! back to exactly the input — never a panic — and what reads also converts without one.

mod common;

use rigport_iqm::{File, ReadOptions, to_model};
use rigport_model_core::Limits;

fn corpus() -> Vec<(String, Vec<u8>)> {
    common::corpus_dir("iqm").map_or_else(Vec::new, |dir| common::files(&dir, "iqm"))
}

/// Offsets to cut at: all of them for small files, every 61st plus the ends for big ones.
fn cuts(len: usize) -> Vec<usize> {
    if len <= 4096 {
        (0..len).collect()
    } else {
        (0..len).step_by(61).chain(len - 200..len).collect()
    }
}

fn check(name: &str, bytes: &[u8]) {
    match File::from_slice_with(bytes, &ReadOptions::default()) {
        Ok((file, _)) => {
            assert_eq!(file.to_vec(), bytes, "{name}: write(read(x)) != x");
            let _ = to_model(&file, &Default::default());
        }
        Err(error) => assert!(error.offset().is_some(), "{name}: {error}"),
    }
}

#[test]
fn every_prefix_errors_with_an_offset_or_reads_back_exactly() {
    let files = corpus();
    for (name, bytes) in &files {
        for cut in cuts(bytes.len()) {
            let prefix = &bytes[..cut];
            check(&format!("{name}@{cut}"), prefix);
            if cut >= 16 && cut < bytes.len() {
                // A cut file never matches its filesize: strict mode refuses it.
                assert!(File::from_slice_with(prefix, &ReadOptions::strict()).is_err());
            }
        }
    }
}

#[test]
fn flipped_bytes_never_panic() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (name, bytes) in corpus() {
        for round in 0..300 {
            let mut damaged = bytes.clone();
            for _ in 0..1 + round % 4 {
                // Mostly the header and the records after it, where counts and offsets live.
                let span = if round % 2 == 0 {
                    damaged.len().min(400)
                } else {
                    damaged.len()
                };
                let at = (next() % span as u64) as usize;
                damaged[at] ^= 1 << (next() % 8);
            }
            check(&format!("{name} round {round}"), &damaged);
        }
    }
}

#[test]
fn a_small_memory_limit_is_an_error_not_an_allocation() {
    for (name, bytes) in corpus() {
        let options = ReadOptions {
            limits: Limits {
                max_alloc_bytes: 64,
            },
            ..ReadOptions::default()
        };
        if bytes.len() > 400 {
            let error = File::from_slice_with(&bytes, &options).unwrap_err();
            assert!(
                error.to_string().contains("memory limit"),
                "{name}: {error}"
            );
        }
    }
}
