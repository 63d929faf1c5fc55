//! Every prefix of every fixture, every fixture with single bytes changed, and cuts of the
//! corpus files and of the crate's own output read to a file or an error — never a panic —
//! leniently and strictly, and convert, summarize and write when they read.

mod common;

use rigport_model_core::ReadOptions;
use rigport_smd::{ConvertOptions, File, from_model, to_model};
use rigport_test_support::contract::{contract_model, cut_lengths};
use rigport_test_support::{fixtures, workspace_root};

fn exercise(bytes: &[u8]) {
    let _ = rigport_smd::sniff(bytes);
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        match File::from_slice_with(bytes, &options) {
            Ok((file, _)) => {
                let _ = file.summary();
                let written = file.to_vec();
                let again = File::from_slice(&written).expect("a written file reads back");
                assert!(again.to_vec() == written, "writing is not stable");
                if let Ok((model, _)) = to_model(&file, &ConvertOptions::default()) {
                    if let Ok((out, _)) = from_model(&model, &ConvertOptions::default()) {
                        File::from_slice(&out.to_vec()).expect("from_model output reads back");
                    }
                }
            }
            Err(error) => {
                assert!(!error.to_string().is_empty());
                assert!(
                    error.span().is_some(),
                    "a read error without a place: {error}"
                );
                let _ = error.render(bytes);
            }
        }
    }
}

fn fixture_bytes() -> Vec<Vec<u8>> {
    let files = fixtures::fixtures("smd");
    assert!(files.len() >= 5);
    files
        .iter()
        .map(|p| std::fs::read(workspace_root().join(p)).unwrap())
        .collect()
}

#[test]
fn every_prefix_reads_or_errors() {
    for bytes in fixture_bytes() {
        for end in 0..=bytes.len() {
            exercise(&bytes[..end]);
        }
    }
}

#[test]
fn changed_bytes_read_or_error() {
    for bytes in fixture_bytes() {
        for at in 0..bytes.len() {
            for replacement in [b'\n', b'"', b'-', b'9', b'#', b' ', 0xff] {
                let mut changed = bytes.clone();
                changed[at] = replacement;
                exercise(&changed);
            }
        }
    }
}

#[test]
fn cuts_of_the_corpus_read_or_error() {
    let Some(files) = common::corpus("smd") else {
        return;
    };
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        for cut in cut_lengths(bytes.len()).into_iter().step_by(8) {
            exercise(&bytes[..cut]);
        }
    }
}

#[test]
fn cuts_of_its_own_output_read_or_error() {
    let (file, _) = from_model(&contract_model(), &ConvertOptions::default()).unwrap();
    let bytes = file.to_vec();
    let mut refused = 0;
    for cut in cut_lengths(bytes.len()) {
        if File::from_slice_with(&bytes[..cut], &ReadOptions::strict()).is_err() {
            refused += 1;
        }
        exercise(&bytes[..cut]);
    }
    assert!(refused > 0);
}
