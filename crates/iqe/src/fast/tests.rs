//! The fast path stores what the general reader stores: every line read both ways gives
//! the same file, report and error.

use crate::read::{FAST_LINES, Split};
use crate::test_lines::{Outcome, file_of, line, read, test_files};
use proptest::prelude::*;
use rigport_model_core::ReadOptions;

/// `src` read on one thread with the fast path and without it, leniently and strictly.
fn both_ways(src: &[u8]) -> [(Outcome, Outcome); 2] {
    [false, true].map(|strict| {
        let options = ReadOptions {
            strict,
            ..Default::default()
        };
        let fast = read(src, &options, Split::One);
        FAST_LINES.with(|f| f.set(false));
        let general = read(src, &options, Split::One);
        FAST_LINES.with(|f| f.set(true));
        (fast, general)
    })
}

fn assert_same_both_ways(src: &[u8]) {
    for (fast, general) in both_ways(src) {
        assert_eq!(fast, general, "input:\n{}", String::from_utf8_lossy(src));
    }
}

#[test]
fn fixtures_and_corpus_read_the_same_without_the_fast_path() {
    for src in test_files() {
        assert_same_both_ways(&src);
    }
}

/// Lines only the general reader may take: each warns or fails, both ways alike, and the
/// warning or error points at the same place.
#[test]
fn unusual_lines_warn_and_fail_the_same() {
    for line in [
        "vn 0 1 0 5",
        "vp \"1\" 2",
        "fm 0 1",
        "fm 0 1 x",
        "vb 1 0.5 2",
        "vp 1 2 3 # tail",
        "pq 1 2 3 0 0 0 1 1 1 1 9",
        "vp 1 2 3",
        // Words that start as plain numbers and go on (the number is read before the end
        // of its word is known), and numbers the short path leaves to the general one.
        "vp 1.5.3 2 3",
        "vp 1.5x 2 3",
        "vp -.5 .5 1.",
        "vp 0.5\t1\x0b2",
        "vp 12345678901234567890 0 0",
        "vp 1e5 0 0",
        "fm 0 1 2x",
        "fm 0 1 +2",
        "fm 1234567890 1 2",
        "fm 123456789 1 2",
        "vb 1 0.5e1",
        "vb 1x 0.5",
    ] {
        for cut_off in [false, true] {
            let lines = [
                "vp 0 0 0".to_string(),
                line.to_string(),
                "vp 1 1 1".to_string(),
            ];
            let mut src = file_of(&lines, false);
            if cut_off {
                // The same line last, without its newline.
                src.extend_from_slice(line.as_bytes());
            }
            assert_same_both_ways(&src);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random files of every kind of line read the same with the fast path and without.
    #[test]
    fn random_files_read_the_same_without_the_fast_path(
        lines in proptest::collection::vec(line(), 0..80),
        cut_off in any::<bool>(),
    ) {
        assert_same_both_ways(&file_of(&lines, cut_off));
    }
}
