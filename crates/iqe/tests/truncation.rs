//! Every prefix of every fixture, and every fixture with single bytes changed, reads to a
//! file or an error — never a panic — in lenient and strict mode, and converts when it reads.

mod common;

use rigport_iqe::{ConvertOptions, File, to_model};
use rigport_model_core::ReadOptions;

fn exercise(bytes: &[u8]) {
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        match File::from_slice_with(bytes, &options) {
            Ok((file, _)) => {
                let _ = file.summary();
                let _ = to_model(&file, &ConvertOptions::default());
                let _ = File::from_slice(&file.to_vec());
            }
            Err(error) => {
                let _ = error.render(bytes);
            }
        }
    }
}

fn fixtures() -> Vec<Vec<u8>> {
    let mut all: Vec<_> = std::fs::read_dir(common::fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    all.sort();
    assert!(all.len() >= 20);
    all.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

#[test]
fn every_prefix_reads_or_errors() {
    for bytes in fixtures() {
        for end in 0..=bytes.len() {
            exercise(&bytes[..end]);
        }
    }
}

#[test]
fn changed_bytes_read_or_error() {
    for bytes in fixtures() {
        for at in 0..bytes.len() {
            for replacement in [b'\n', b'"', b'-', b'9', 0xff] {
                let mut changed = bytes.clone();
                changed[at] = replacement;
                exercise(&changed);
            }
        }
    }
}
