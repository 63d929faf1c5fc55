//! Damaged input: real files and the crate's own output, truncated and with bytes changed
//! at random. Every outcome is an error naming an offset, or a read that writes back to
//! exactly the input and converts without a panic.

mod common;

use proptest::prelude::*;
use rigport_model_core::{Limits, ReadOptions};
use rigport_psk::{ConvertOptions, Detail, Error, File, to_model};
use rigport_psk::{PSA_CODEC, PSK_CODEC};

/// The inputs: every corpus file, and a small mesh and animation written by the crate
/// (so the test has inputs without the corpus).
fn inputs() -> Vec<Vec<u8>> {
    let mut inputs: Vec<Vec<u8>> = common::corpus("psk")
        .into_iter()
        .map(|(_, bytes)| bytes)
        .collect();
    let model = rigport_test_support::contract::contract_model();
    let (psk, _) = rigport_psk::from_model(&model, &ConvertOptions::default()).unwrap();
    inputs.push(psk.to_vec());
    let mut animated = model.clone();
    let mut animation = rigport_model_core::Animation::new("a", 10.0);
    let mut track = rigport_model_core::Track::new(rigport_model_core::JointId(0));
    for frame in 0..3 {
        track.rotations.push(rigport_model_core::Key::new(
            frame as f32 / 10.0,
            rigport_model_core::glam::Quat::from_rotation_z(frame as f32),
        ));
    }
    animation.tracks.push(track);
    animated.animations.push(animation);
    let (psa, _) = rigport_psk::anim_from_model(&animated, &ConvertOptions::default()).unwrap();
    inputs.push(psa.to_vec());
    inputs
}

fn check(bytes: &[u8]) {
    let options = ReadOptions::default();
    match File::from_slice_with(bytes, &options) {
        Ok((file, _)) => {
            assert_eq!(file.to_vec(), bytes, "write(read(x)) != x");
            let _ = file.summary();
            let options = ConvertOptions::default();
            if let Ok((model, _)) = to_model(&file, &options) {
                // What the model becomes is a file a strict read accepts (as the fuzz
                // target checks).
                let psk = rigport_psk::from_model(&model, &options);
                let psa = rigport_psk::anim_from_model(&model, &options);
                for (out, _) in [psk, psa].into_iter().flatten() {
                    let bytes = out.to_vec();
                    let (back, report) = File::from_slice_with(&bytes, &ReadOptions::strict())
                        .expect("the crate's own output reads back strictly");
                    assert!(report.is_empty(), "{report}");
                    assert_eq!(back.to_vec(), bytes);
                }
            }
        }
        Err(error) => assert!(error.offset().is_some(), "{error}"),
    }
    let _ = PSK_CODEC.read(bytes, &options);
    let _ = PSA_CODEC.read(bytes, &options);
    let _ = File::from_slice_with(bytes, &ReadOptions::strict());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_and_truncated_files_never_panic(
        pick in any::<prop::sample::Index>(),
        cut in any::<prop::sample::Index>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
        header_bias in any::<bool>(),
    ) {
        let inputs = inputs();
        let mut bytes = inputs[pick.index(inputs.len())].clone();
        for (at, value) in flips {
            // Half the time inside the first headers, where the sizes and counts are.
            let span = if header_bias { bytes.len().min(200) } else { bytes.len() };
            let at = at.index(span);
            bytes[at] = value;
        }
        let keep = cut.index(bytes.len() + 1);
        bytes.truncate(keep);
        check(&bytes);
    }
}

#[test]
fn every_prefix_of_a_small_file_errors_with_an_offset_or_reads_back() {
    for bytes in inputs().iter().filter(|b| b.len() <= 8192) {
        for cut in 0..bytes.len() {
            check(&bytes[..cut]);
        }
    }
}

#[test]
fn a_huge_count_is_an_error_not_an_allocation() {
    // A points section claiming 2^31 − 1 records in a 64-byte file.
    let mut bytes = Vec::new();
    for (name, size, count) in [("ACTRHEAD", 0, 0), ("PNTS0000", 12, i32::MAX)] {
        let mut id = [0u8; 20];
        id[..name.len()].copy_from_slice(name.as_bytes());
        bytes.extend_from_slice(&id);
        for v in [0i32, size, count] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    let error = File::from_slice(&bytes).unwrap_err();
    assert_eq!(error.offset(), Some(32), "{error}");
}

#[test]
fn not_psk_and_a_short_header() {
    let error = File::from_slice(&[b'X'; 40]).unwrap_err();
    assert!(
        matches!(
            &error,
            Error::Format {
                detail: Detail::NotPsk { found },
                ..
            } if found == "XXXXXXXXXXXXXXXXXXXX"
        ),
        "{error}"
    );
    assert_eq!(error.offset(), Some(0));
    let error = File::from_slice(b"ACTRHEAD\0\0").unwrap_err();
    assert_eq!(
        error.to_string(),
        "truncated file: reading the section header at byte 0 needs 32 bytes, only 10 left"
    );
    assert!(
        matches!(error, Error::Truncated { offset: 0, .. }),
        "{error}"
    );
}

#[test]
fn a_small_memory_limit_is_an_error_not_an_allocation() {
    for bytes in inputs() {
        let options = ReadOptions {
            limits: Limits {
                max_alloc_bytes: 64,
            },
            ..ReadOptions::default()
        };
        let error = File::from_slice_with(&bytes, &options).unwrap_err();
        assert!(error.offset().is_some(), "{error}");
    }
}
