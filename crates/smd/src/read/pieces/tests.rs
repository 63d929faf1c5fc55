//! A block read in pieces on the thread pool is the block read on one thread: same lines,
//! same report (the first 32 warnings located, the rest counted), same error at the same
//! line; and a join one reader could have read otherwise is refused, so that the block is
//! read again on one thread.

use super::super::parse_split;
use super::*;
use crate::convert::{ConvertOptions, animation_from_model, from_model};
use crate::file::File;
use rigport_model_core::{Limits, ReadOptions};
use rigport_test_support::synth::{Rig, model};

/// A read's result, comparable: the file (printed, so that NaNs compare equal) and the
/// report, or the error and where it starts.
type Outcome = Result<(String, Report), (String, Option<usize>)>;

fn outcome(read: Result<(File, Report), Error>) -> Outcome {
    read.map(|(file, report)| (format!("{file:?}"), report))
        .map_err(|e| (e.to_string(), e.span().map(|s| s.start)))
}

/// Cutting every block into up to `count` pieces of at least `piece` bytes.
fn pieces(count: usize, piece: usize) -> Option<Split> {
    Some(Split {
        block: 0,
        piece,
        count,
    })
}

/// Reads `src` on one thread and in pieces of several sizes and counts, leniently and
/// strictly, and checks every read gives the same.
fn same_in_pieces(name: &str, src: &[u8]) {
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        let one = outcome(parse_split(src, &options, None));
        for count in [2, 3, 7, 64] {
            for piece in [0, 40, 1000] {
                let got = outcome(parse_split(src, &options, pieces(count, piece)));
                assert_eq!(got, one, "{name}: {count} pieces of {piece} bytes");
            }
        }
    }
}

/// A reference and an animation of a generated rig.
fn generated() -> [String; 2] {
    let rig = Rig {
        meshes: 3,
        cols: 5,
        rows: 4,
        joints: 9,
        frames: 30,
    };
    let model = model(&rig, 1);
    let options = ConvertOptions::default();
    let reference = from_model(&model, &options).unwrap().0.to_vec();
    let animation = animation_from_model(&model, 0, &options)
        .unwrap()
        .0
        .to_vec();
    [reference, animation].map(|bytes| String::from_utf8(bytes).unwrap())
}

#[test]
fn scans_cut_before_records_only() {
    let [reference, animation] = generated();
    let check = |src: &str, block: &str, record: fn(&str, usize) -> bool| {
        let start = src.find(&format!("{block}\n")).unwrap() + block.len() + 1;
        let reader = reader_at(src.as_bytes(), start);
        let scan = match block {
            "triangles" => scan::<Triangles>(&reader, 100),
            _ => scan::<Skeleton>(&reader, 100),
        };
        assert!(
            scan.starts.len() > 3,
            "{block}: {} starts",
            scan.starts.len()
        );
        let (end, after) = scan.end.unwrap();
        assert!(src[end..].starts_with("end"));
        assert_eq!(after.number, src[..end].lines().count() + 1);
        for start in &scan.starts {
            let data_before = src[reader.lines.pos..start.pos]
                .lines()
                .filter(|l| !l.trim().is_empty())
                .count();
            assert!(record(&src[start.pos..], data_before), "{block}");
            assert_eq!(start.number, src[..start.pos].lines().count());
        }
    };
    check(&reference, "triangles", |_, before| before % 4 == 0);
    check(&animation, "skeleton", |rest, _| rest.starts_with("time "));
}

/// A reader placed at `start` of `src`, as the block reader finds it.
fn reader_at(src: &[u8], start: usize) -> Reader<'_> {
    Reader {
        src,
        lines: Lines {
            src,
            pos: start,
            number: src[..start].iter().filter(|&&b| b == b'\n').count(),
        },
        strict: false,
        budget: ReadOptions::default().limits.budget(),
        report: Report::default(),
        warnings: 0,
        last_code: rigport_model_core::Code::new(""),
        ids: None,
        materials: HashSet::new(),
        last_material: None,
        split: None,
    }
}

#[test]
fn generated_files_read_the_same_in_pieces() {
    for src in generated() {
        same_in_pieces("generated", src.as_bytes());
    }
}

#[test]
fn triangles_read_in_pieces_share_their_materials() {
    let [reference, _] = generated();
    let options = ReadOptions::default();
    let (file, _) = parse_split(reference.as_bytes(), &options, pieces(7, 40)).unwrap();
    let mut first: std::collections::HashMap<Vec<u8>, std::sync::Arc<[u8]>> = Default::default();
    let mut triangles = 0;
    for item in &file.items {
        if let crate::file::Item::Triangles(lines) = item {
            for line in lines {
                if let TriangleLine::Triangle(t) = line {
                    let shared = first
                        .entry(t.material.to_vec())
                        .or_insert(t.material.clone());
                    assert!(std::sync::Arc::ptr_eq(shared, &t.material));
                    triangles += 1;
                }
            }
        }
    }
    assert!(triangles > 100 && first.len() > 1);
}

/// Every fixture (the failing ones included) and every corpus file.
#[test]
fn fixtures_and_corpus_read_the_same_in_pieces() {
    let mut paths = rigport_test_support::fixtures::fixtures("smd");
    paths.extend(rigport_test_support::corpus::corpus_files(&["smd"]).unwrap_or_default());
    assert!(!paths.is_empty());
    for path in paths {
        let path = rigport_test_support::workspace_root().join(path);
        let src = std::fs::read(&path).unwrap();
        same_in_pieces(&path.display().to_string(), &src);
    }
}

/// Damage inside and across pieces: warnings past the 32 listed, bad numbers, `end` inside
/// a triangle, a missing `end`, a pose before `time`, comments between records.
#[test]
fn damaged_files_read_the_same_in_pieces() {
    let [reference, animation] = generated();
    let every_nth = |src: &str, n: usize, from: &str, to: &str| {
        let mut seen = 0;
        let lines = src.lines().map(|line| {
            if line.starts_with(from) {
                seen += 1;
                if seen % n == 0 {
                    return line.replacen(from, to, 1);
                }
            }
            line.to_owned()
        });
        lines.collect::<Vec<_>>().join("\n") + "\n"
    };
    // The line numbers of the material lines of `reference`'s triangles.
    let lines: Vec<&str> = reference.lines().collect();
    let triangles = lines.iter().position(|l| *l == "triangles").unwrap() + 1;
    let material = |k: usize| triangles + 4 * k;
    let with_line = |at: usize, text: &str| {
        let mut changed = lines.clone();
        changed.insert(at, text);
        changed.join("\n") + "\n"
    };
    let cases = [
        // Bone 0 renumbered in `nodes` but linked on every vertex line: more than 32
        // warnings.
        every_nth(&reference, 1, "0 ", "77 "),
        // The same past the 32 listed in the triangles only, after a warning of another
        // code: the count carries the code of the last warning.
        {
            let at = reference.find("triangles\n").unwrap();
            let (head, tail) = reference.split_at(at);
            let head = head.replacen("nodes\n", "nodes\n1 \"again\" 0\n", 1);
            head + &tail.replace("\n0 ", "\n77 ")
        },
        every_nth(&animation, 2, "2 ", "-5 "),
        every_nth(&reference, 13, "0 ", "0 x "),
        every_nth(&animation, 11, "3 ", "3 y "),
        // `end` inside a triangle, and closing the block early.
        with_line(material(20) + 2, "end"),
        with_line(material(20), "end"),
        reference.trim_end().trim_end_matches("end").to_owned(),
        animation.trim_end().trim_end_matches("end").to_owned(),
        with_line(material(30), "// a comment between triangles"),
        with_line(material(31) + 1, "// a comment inside a triangle"),
        with_line(material(32), ""),
        animation.replacen("time 0\n", "", 1),
        animation.replacen("time 7\n", "time 7 // seven\n\n", 1),
        reference.replace('\n', "\r\n"),
    ];
    let (_, report) = parse_split(cases[0].as_bytes(), &ReadOptions::default(), None).unwrap();
    assert!(
        report
            .notices
            .iter()
            .any(|n| n.message.contains("further warnings")),
        "case 0 has more warnings than are listed"
    );
    for (k, case) in cases.iter().enumerate() {
        assert!(
            *case != reference && *case != animation,
            "case {k} changes nothing"
        );
        same_in_pieces(&format!("case {k}"), case.as_bytes());
    }
}

/// A budget the pieces overdraw together, though each fits on its own, gives the error one
/// reader gives.
#[test]
fn a_budget_overdrawn_by_the_pieces_together_fails_as_one_reader_does() {
    let [reference, _] = generated();
    let src = reference.as_bytes();
    for max_alloc_bytes in [src.len() as u64, src.len() as u64 / 2, 20_000] {
        let options = ReadOptions {
            limits: Limits { max_alloc_bytes },
            ..Default::default()
        };
        let one = outcome(parse_split(src, &options, None));
        assert!(one.is_err(), "{max_alloc_bytes}: {one:?}");
        assert_eq!(outcome(parse_split(src, &options, pieces(3, 40))), one);
    }
}
