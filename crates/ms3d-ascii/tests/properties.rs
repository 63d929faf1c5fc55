//! Properties over generated input: numbers survive writing exactly and without exponents;
//! arbitrary bytes never make the reader panic.

use proptest::prelude::*;
use rigport_ms3d_ascii::{Block, File, Key, ReadOptions};

fn finite_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        proptest::num::f32::NORMAL,
        proptest::num::f32::SUBNORMAL,
        proptest::num::f32::ZERO,
        -1000.0f32..1000.0,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_finite_f32_is_written_without_exponent_and_reads_back(value in finite_f32()) {
        let file = File {
            blocks: vec![Block::Bones(vec![rigport_ms3d_ascii::Bone {
                name: b"b".to_vec(),
                position_keys: vec![Key { frame: value, value: [value, -value, 0.0] }],
                ..Default::default()
            }])],
            damaged_tail: Vec::new(),
        };
        let bytes = file.to_vec();
        let text = String::from_utf8(bytes.clone()).unwrap();
        let numbers = text
            .split_ascii_whitespace()
            .filter(|t| t.starts_with(|c: char| c.is_ascii_digit() || c == '-'));
        for number in numbers {
            prop_assert!(!number.contains(['e', 'E']), "{}", number);
        }
        let back = File::from_slice(&bytes).unwrap();
        let key = back.bones()[0].position_keys[0];
        prop_assert_eq!(key.frame.to_bits(), value.to_bits());
        prop_assert_eq!(key.value[1].to_bits(), (-value).to_bits());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = File::from_slice_with(&bytes, &ReadOptions::strict());
        if let Ok(file) = File::from_slice(&bytes) {
            let _ = file.summary();
            let _ = rigport_ms3d_ascii::to_model(&file, &Default::default());
        }
    }

    #[test]
    fn token_soup_never_panics(parts in proptest::collection::vec(
        prop_oneof![
            Just("Meshes: "), Just("Bones: "), Just("Materials: "), Just("Frames: "),
            Just("\"n\" "), Just("1 "), Just("-1 "), Just("0.5 "), Just("\r\n"), Just("\n"),
            Just("// c\n"), Just("Odd: 2\n"), Just("3 "),
        ],
        0..200,
    )) {
        let text = format!("// MilkShape 3D ASCII\n{}", parts.concat());
        if let Ok(file) = File::from_slice(text.as_bytes()) {
            let written = file.to_vec();
            let again = File::from_slice(&written).unwrap();
            prop_assert_eq!(again.to_vec(), written);
        }
    }
}
