//! The contract every format crate keeps, as test macros: [`round_trip_test!`] (small models
//! survive `from_model` → write → read → `to_model`) and [`format_contract!`] (that, plus:
//! the crate recognizes its own output, a strict read accepts it, writing again gives the
//! same bytes, and no cut of it makes a reader panic).
//!
//! The macros expect the crate's API shape: `sniff`, `File::{from_slice, from_slice_with,
//! to_vec}`, `to_model` and `from_model` taking `&ConvertOptions` (via `Default`).

pub use rigport_model_core::strategies::check_round_trip;
pub use rigport_model_core::{Model, ReadOptions};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use rigport_model_core::strategies::small_model;

/// A small model every format holds without loss, with joints and skinned vertices: the
/// first such model of [`small_model`]'s deterministic sequence (the same on every run).
pub fn contract_model() -> Model {
    let mut runner = TestRunner::deterministic();
    loop {
        let Ok(tree) = small_model().new_tree(&mut runner) else {
            continue;
        };
        let model = tree.current();
        let skinned = model
            .meshes
            .iter()
            .flat_map(|m| &m.vertices)
            .any(|v| v.is_skinned());
        if model.skeleton.joints.len() >= 2 && skinned {
            return model;
        }
    }
}

/// The lengths at which [`format_contract!`] cuts a file: every length for a short file,
/// else about 512 spread evenly plus the last 16 (where a damaged tail starts).
pub fn cut_lengths(len: usize) -> Vec<usize> {
    if len <= 1024 {
        return (0..len).collect();
    }
    let step = len / 512;
    let mut cuts: Vec<usize> = (0..len).step_by(step).collect();
    cuts.extend(len.saturating_sub(16)..len);
    cuts.dedup();
    cuts
}

/// Declares the round-trip property test of a format crate: `#[test] fn
/// small_models_round_trip`, running [`check_round_trip`] through the crate's API contract
/// with default options. Use it in an integration test:
/// `rigport_test_support::round_trip_test!(rigport_iqe);`.
#[macro_export]
macro_rules! round_trip_test {
    ($krate:ident) => {
        #[test]
        fn small_models_round_trip() {
            $crate::contract::check_round_trip(|model| {
                let (file, _) = $krate::from_model(model, &Default::default())
                    .expect("from_model accepts a small model");
                let back =
                    $krate::File::from_slice(&file.to_vec()).expect("the written file reads back");
                $krate::to_model(&back, &Default::default())
                    .expect("the file read back converts")
                    .0
            });
        }
    };
}

/// Declares the whole contract of a format crate: [`round_trip_test!`] plus
/// `its_own_output_is_recognized_and_stable` and `no_cut_of_its_output_panics`. Use it in
/// an integration test: `rigport_test_support::format_contract!(rigport_iqe);`.
#[macro_export]
macro_rules! format_contract {
    ($krate:ident) => {
        $crate::round_trip_test!($krate);

        #[test]
        fn its_own_output_is_recognized_and_stable() {
            let model = $crate::contract::contract_model();
            let (file, _) = $krate::from_model(&model, &Default::default())
                .expect("from_model accepts the contract model");
            let bytes = file.to_vec();
            assert!(
                $krate::sniff(&bytes),
                "sniff does not recognize the crate's own output"
            );
            let strict = $crate::contract::ReadOptions::strict();
            let (back, report) = $krate::File::from_slice_with(&bytes, &strict)
                .expect("a strict read accepts the crate's own output");
            assert!(report.is_empty(), "reading its own output warns: {report}");
            assert!(
                back.to_vec() == bytes,
                "writing what was read gives other bytes"
            );
        }

        #[test]
        fn no_cut_of_its_output_panics() {
            let model = $crate::contract::contract_model();
            let (file, _) = $krate::from_model(&model, &Default::default())
                .expect("from_model accepts the contract model");
            let bytes = file.to_vec();
            let lenient = $crate::contract::ReadOptions::default();
            let strict = $crate::contract::ReadOptions::strict();
            let mut refused = 0usize;
            for cut in $crate::contract::cut_lengths(bytes.len()) {
                for options in [&lenient, &strict] {
                    // A panic fails the test; an error must say something.
                    if let Err(error) = $krate::File::from_slice_with(&bytes[..cut], options) {
                        assert!(!error.to_string().is_empty(), "empty error at {cut}");
                        refused += 1;
                    }
                }
            }
            // The empty input at least is no file of any format.
            assert!(refused > 0, "every cut read, even the empty one");
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_cover_short_files_wholly_and_long_ones_evenly() {
        assert_eq!(cut_lengths(4), [0, 1, 2, 3]);
        let cuts = cut_lengths(100_000);
        assert!(cuts.len() < 600 && cuts.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(cuts.last(), Some(&99_999));
        let model = contract_model();
        assert!(model.skeleton.joints.len() >= 2);
        assert_eq!(contract_model(), model, "deterministic");
    }
}
