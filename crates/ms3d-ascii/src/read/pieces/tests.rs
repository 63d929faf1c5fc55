//! A block read in runs on the thread pool is the block read on one thread: same records,
//! same report, same error at the same place; and a join one reader could have read
//! otherwise is refused, so that the block is read again on one thread.

use super::super::{Split as ReadSplit, parse_split};
use super::*;
use crate::file::File;
use rigport_model_core::{Limits, ReadOptions, Report};
use rigport_test_support::synth::{Rig, ms3d_ascii};

/// A read's result, comparable: the file (printed, so that NaNs compare equal) and the
/// report, or the error and where it starts.
type Outcome = Result<(String, Report), (String, Option<usize>)>;

fn read(src: &[u8], options: &ReadOptions, split: ReadSplit) -> Outcome {
    parse_split(src, options, split)
        .map(|(file, report): (File, Report)| (format!("{file:?}"), report))
        .map_err(|e| (e.to_string(), e.span().map(|s| s.start)))
}

/// Reads `src` on one thread and in runs of several counts, leniently and strictly, and
/// checks every read gives the same.
fn same_in_runs(name: &str, src: &[u8]) {
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        let one = read(src, &options, None);
        for count in [2, 3, 7, 64] {
            let got = read(src, &options, Some(Split { block: 0, count }));
            assert_eq!(got, one, "{name}: {count} runs");
        }
    }
}

/// A generated file: several meshes and bones with keys.
fn generated() -> String {
    let rig = Rig {
        meshes: 5,
        cols: 4,
        rows: 3,
        joints: 9,
        frames: 12,
    };
    String::from_utf8(ms3d_ascii(&rig)).unwrap()
}

#[test]
fn the_scan_finds_every_record_start() {
    let src = generated();
    let after = |header: &str| {
        let at = src.find(header).unwrap();
        at + src[at..].find('\n').unwrap() + 1
    };
    let meshes = after("Meshes: 5");
    let starts = record_starts(src.as_bytes(), meshes, 5, MESH).unwrap();
    assert_eq!(starts.len(), 6);
    for start in &starts[..5] {
        assert!(
            src[*start..].starts_with("\"grid"),
            "{:.20}",
            &src[*start..]
        );
    }
    assert!(src[starts[5]..].trim_start().starts_with("Materials:"));
    let bones = after("Bones: 9");
    let starts = record_starts(src.as_bytes(), bones, 9, BONE).unwrap();
    for start in &starts[..9] {
        assert!(
            src[*start..].starts_with("\"joint"),
            "{:.20}",
            &src[*start..]
        );
    }
    // A count line that is not a count, or more records than the input holds.
    assert!(record_starts(src.as_bytes(), bones, 10, BONE).is_none());
    let broken = src.replacen("\n12\r\n", "\ntwelve\r\n", 1);
    assert!(broken != src);
    assert!(record_starts(broken.as_bytes(), bones, 9, BONE).is_none());
}

#[test]
fn runs_cover_the_records_in_order() {
    let starts = [0, 10, 20, 30, 100, 110, 120];
    for count in 1..10 {
        let runs = runs(&starts, count);
        assert!(runs.len() <= count);
        assert_eq!(runs[0].start, 0);
        assert_eq!(runs.last().unwrap().end, 6);
        for pair in runs.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
            assert!(pair[0].start < pair[0].end);
        }
    }
}

#[test]
fn generated_files_read_the_same_in_runs() {
    same_in_runs("generated", generated().as_bytes());
}

/// Every fixture (the failing ones included) and every corpus file.
#[test]
fn fixtures_and_corpus_read_the_same_in_runs() {
    let mut paths = rigport_test_support::fixtures::fixtures("ms3d-ascii");
    paths.extend(rigport_test_support::corpus::corpus_files(&["ms3d-ascii"]).unwrap_or_default());
    assert!(!paths.is_empty());
    for path in paths {
        let path = rigport_test_support::workspace_root().join(path);
        let src = std::fs::read(&path).unwrap();
        same_in_runs(&path.display().to_string(), &src);
    }
}

/// Damage inside and across runs: indices out of range in several meshes (findings
/// joined), a bad number, a record short of a line, a count larger than its lines,
/// comments and blank lines between records, CRLF.
#[test]
fn damaged_files_read_the_same_in_runs() {
    let src = generated();
    let lines: Vec<&str> = src.lines().collect();
    let triangle_lines: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].split_whitespace().count() == 8)
        .collect();
    let vertex_lines: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].split_whitespace().count() == 7 && !lines[i].starts_with('"'))
        .collect();
    let edit = |at: &[usize], change: &dyn Fn(&str) -> String| {
        let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for &i in at {
            changed[i] = change(lines[i]);
        }
        changed.join("\r\n") + "\r\n"
    };
    let with_words = |line: &str, at: usize, word: &str| {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        words[at] = word;
        words.join(" ")
    };
    let every = |indices: &[usize], step: usize| -> Vec<usize> {
        indices.iter().copied().step_by(step).collect()
    };
    let cases = [
        // Vertex indices past the mesh's vertices in every mesh: one finding, counted.
        edit(&every(&triangle_lines, 7), &|l| with_words(l, 1, "999")),
        // Bone indices past the bones in every mesh: extremes judged at the end.
        edit(&every(&vertex_lines, 5), &|l| with_words(l, 6, "42")),
        edit(&every(&vertex_lines, 9), &|l| with_words(l, 6, "-7")),
        edit(&[vertex_lines[vertex_lines.len() / 2]], &|l| {
            with_words(l, 2, "x")
        }),
        edit(&[triangle_lines[triangle_lines.len() / 2]], &|_| {
            String::new()
        }),
        edit(&[vertex_lines[vertex_lines.len() * 3 / 4]], &|l| {
            format!("{l}\r\n// a comment\r\n\r\n")
        }),
        src.replacen("\n12\r\n", "\n13\r\n", 1),
        src.replace("\r\n", "\n"),
    ];
    for (k, case) in cases.iter().enumerate() {
        assert!(*case != src, "case {k} changes nothing");
        same_in_runs(&format!("case {k}"), case.as_bytes());
    }
}

/// A budget the runs overdraw together, though each fits on its own, gives the error one
/// reader gives.
#[test]
fn a_budget_overdrawn_by_the_runs_together_fails_as_one_reader_does() {
    let src = generated();
    let with_budget = |max_alloc_bytes| ReadOptions {
        limits: Limits { max_alloc_bytes },
        ..Default::default()
    };
    // The least budget one reader reads the file with.
    let (mut low, mut high) = (0u64, 64 * src.len() as u64);
    assert!(read(src.as_bytes(), &with_budget(high), None).is_ok());
    while low + 1 < high {
        let mid = (low + high) / 2;
        match read(src.as_bytes(), &with_budget(mid), None) {
            Ok(_) => high = mid,
            Err(_) => low = mid,
        }
    }
    for max_alloc_bytes in [low, high, low * 3 / 4, high / 2] {
        let options = with_budget(max_alloc_bytes);
        let one = read(src.as_bytes(), &options, None);
        let runs = read(src.as_bytes(), &options, Some(Split { block: 0, count: 3 }));
        assert_eq!(runs, one, "{max_alloc_bytes}");
    }
}
