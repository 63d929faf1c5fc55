//! `convert --concat-animations`: a corpus IQE with five animations into MilkShape, one
//! file and a batch, prints each animation's frame range; without the flag each dropped
//! animation is named.

mod common;

use rigport_test_support::corpus;

const DRILL: &str = "res-buildables__buildables__drill__drill.iqe";

/// `name: frames a-b` lines of the output, as `(a, b)`.
fn ranges(stdout: &str) -> Vec<(u64, u64)> {
    stdout
        .lines()
        .filter_map(|l| l.split_once(": frames ").map(|(_, rest)| rest))
        .map(|rest| {
            let digits: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '-')
                .collect();
            let (a, b) = digits.split_once('-').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect()
}

#[test]
fn concat_animations_prints_frame_ranges_single_and_batch() {
    let Some(dir) = corpus::corpus_dir("iqe") else {
        return;
    };
    let input = dir.join(DRILL);
    let animations = std::fs::read_to_string(&input)
        .unwrap()
        .lines()
        .filter(|l| l.split_whitespace().next() == Some("animation"))
        .count();
    assert!(animations >= 2);
    let out = tempfile::tempdir().unwrap();
    let single = out.path().join("drill.ms3d");
    let done = common::rigport(&[
        "convert",
        &input.display().to_string(),
        &single.display().to_string(),
        "--concat-animations",
    ]);
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let found = ranges(&stdout);
    assert_eq!(found.len(), animations, "{stdout}");
    assert_eq!(found[0].0, 1, "{stdout}");
    for pair in found.windows(2) {
        assert_eq!(pair[1].0, pair[0].1 + 1, "{stdout}");
    }
    // Batch, with every loss listed: the same ranges, under the input's name.
    let batch = common::rigport(&[
        "convert",
        &input.display().to_string(),
        "--to",
        "ms3d-ascii",
        "-o",
        &out.path().display().to_string(),
        "--concat-animations",
        "--verbose",
    ]);
    let stderr = String::from_utf8_lossy(&batch.stderr);
    assert!(batch.status.success(), "{stderr}");
    assert_eq!(ranges(&stderr), found, "{stderr}");
    assert!(
        out.path()
            .join("res-buildables__buildables__drill__drill.txt")
            .is_file()
    );
    // Without the flag: one loss per dropped animation.
    let plain = common::rigport(&[
        "convert",
        &input.display().to_string(),
        &out.path().join("plain.ms3d").display().to_string(),
        "--verbose",
    ]);
    let stdout = String::from_utf8_lossy(&plain.stdout);
    assert!(plain.status.success());
    assert_eq!(
        stdout.matches("[animations-dropped]").count(),
        animations - 1,
        "{stdout}"
    );
    assert!(ranges(&stdout).is_empty());
}
