//! Hostile input: real files cut, flipped and spliced never make the reader or the
//! conversions panic; whatever reads writes back the same bytes; cuts of the crate's own
//! output are refused with an error, never a panic.

mod common;

use proptest::prelude::*;
use rigport_b3d::{ConvertOptions, File, ReadOptions, from_model, to_model};

fn corpus_bytes() -> Vec<Vec<u8>> {
    common::corpus("b3d")
        .unwrap_or_default()
        .into_iter()
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() < 20_000))
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

fn exercise(bytes: &[u8]) {
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        match File::from_slice_with(bytes, &options) {
            Ok((file, _)) => {
                assert!(
                    file.to_vec() == bytes,
                    "a file that reads writes back other bytes"
                );
                if let Ok((model, _)) = to_model(&file, &ConvertOptions::default()) {
                    let _ = from_model(&model, &ConvertOptions::default());
                }
            }
            Err(e) => assert!(e.offset().is_some(), "a read error without offset: {e}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_real_files_never_panic(
        pick in any::<prop::sample::Index>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
        cut in any::<prop::sample::Index>(),
        do_cut in any::<bool>(),
    ) {
        let files = corpus_bytes();
        if files.is_empty() {
            return Ok(());
        }
        let mut bytes = files[pick.index(files.len())].clone();
        for (at, value) in flips {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        if do_cut {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        exercise(&bytes);
    }
}

#[test]
fn every_cut_of_a_small_real_file_is_refused_without_panic() {
    for bytes in corpus_bytes().iter().filter(|b| b.len() < 3000) {
        for cut in 0..bytes.len() {
            assert!(
                File::from_slice(&bytes[..cut]).is_err(),
                "a cut at {cut} reads"
            );
        }
    }
}

#[test]
fn huge_counts_and_deep_nesting_are_refused_without_allocating() {
    // A NODE chain deeper than MAX_DEPTH.
    let mut body = Vec::new();
    for _ in 0..rigport_b3d::MAX_DEPTH + 2 {
        let mut node = b"NODE".to_vec();
        let inner = std::mem::take(&mut body);
        let mut fields = vec![b'n', 0];
        fields.extend_from_slice(&[0u8; 40]);
        fields.extend_from_slice(&inner);
        node.extend_from_slice(&(fields.len() as i32).to_le_bytes());
        node.extend_from_slice(&fields);
        body = node;
    }
    let mut file = b"BB3D".to_vec();
    file.extend_from_slice(&((body.len() + 4) as i32).to_le_bytes());
    file.extend_from_slice(&1i32.to_le_bytes());
    file.extend_from_slice(&body);
    let error = File::from_slice(&file).unwrap_err();
    assert!(error.to_string().contains("nested"), "{error}");
    // A chunk claiming 2 GB.
    let mut file = b"BB3D".to_vec();
    file.extend_from_slice(&i32::MAX.to_le_bytes());
    file.extend_from_slice(&1i32.to_le_bytes());
    assert!(File::from_slice(&file).unwrap_err().offset() == Some(0));
}
