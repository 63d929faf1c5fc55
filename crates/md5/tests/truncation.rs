//! Every prefix of every fixture (and of the contract model's output), and every fixture
//! with single bytes changed, reads to a file or an error — never a panic — in lenient and
//! strict mode; what reads converts or errors, and writes back to bytes that read again.

mod common;

use rigport_md5::{ConvertOptions, File, from_model, to_model};
use rigport_model_core::ReadOptions;
use rigport_test_support::contract::{contract_model, cut_lengths};

fn exercise(bytes: &[u8]) -> bool {
    let mut read = false;
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        match File::from_slice_with(bytes, &options) {
            Ok((file, _)) => {
                read = true;
                let _ = file.summary();
                let _ = to_model(&file, &ConvertOptions::default());
                let written = file.to_vec();
                let again = File::from_slice(&written)
                    .unwrap_or_else(|e| panic!("written file does not read back: {e}"));
                assert!(again.to_vec() == written, "second write differs");
            }
            Err(error) => {
                assert!(!error.to_string().is_empty());
                let _ = error.render(bytes);
            }
        }
    }
    read
}

fn inputs() -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = common::fixtures()
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let (file, _) = from_model(&contract_model(), &ConvertOptions::default()).unwrap();
    all.push(file.to_vec());
    all
}

#[test]
fn every_prefix_reads_or_errors() {
    for bytes in inputs() {
        let mut refused = 0;
        for cut in cut_lengths(bytes.len()) {
            if !exercise(&bytes[..cut]) {
                refused += 1;
            }
        }
        assert!(refused > 0, "the empty input at least is refused");
    }
}

#[test]
fn changed_bytes_read_or_error() {
    for bytes in inputs() {
        for at in 0..bytes.len() {
            for replacement in [b'\n', b'"', b'-', b'9', b'{', b'}', b'(', b'/', 0xff] {
                let mut changed = bytes.clone();
                changed[at] = replacement;
                exercise(&changed);
            }
        }
    }
}
