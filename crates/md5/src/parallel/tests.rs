//! A file read in pieces on the thread pool is the file read on one thread: same items,
//! same report, same error at the same line and column; and a join that one reader could
//! have read otherwise is refused, so that the file is read again on one thread.

use super::*;
use crate::convert::{ConvertOptions, anim_from_model, from_model};
use crate::file::File;
use crate::lex::BOM;
use crate::read::finish;
use rigport_model_core::diagnostic::line_col;
use rigport_model_core::{Limits, Report};
use rigport_test_support::synth::{Rig, model};

/// A read's result, comparable: the file (printed, so that NaNs compare equal), the
/// report, or the error with its line and column.
type Outcome = Result<(String, Report), (String, (usize, usize))>;

fn outcome(src: &[u8], read: Result<(File, Report), crate::Error>) -> Outcome {
    read.map(|(file, report)| (format!("{file:?}"), report))
        .map_err(|e| {
            (
                e.to_string(),
                line_col(src, e.span().map_or(0, |s| s.start)),
            )
        })
}

fn body(src: &[u8]) -> (bool, usize) {
    let bom = src.starts_with(BOM);
    (bom, if bom { BOM.len() } else { 0 })
}

/// The one-thread read.
fn one(src: &[u8], options: &ReadOptions) -> Outcome {
    let (bom, body) = body(src);
    outcome(
        src,
        read_lines(src, body, options).and_then(|lines| finish(src, bom, lines)),
    )
}

/// The read in `count` pieces, or `None` when the pieces are refused.
fn in_pieces(src: &[u8], options: &ReadOptions, count: usize) -> Option<Outcome> {
    let (bom, body) = body(src);
    let ranges = split(src, body, count);
    let lines = read_pieces(src, &ranges, options)?;
    Some(outcome(src, finish(src, bom, lines)))
}

/// Reads `src` on one thread and in each number of pieces, leniently and strictly;
/// returns how many piecewise reads were joined (not refused).
fn same_in_pieces(name: &str, src: &[u8], counts: &[usize]) -> usize {
    let mut joined = 0;
    for strict in [false, true] {
        let options = ReadOptions {
            strict,
            ..Default::default()
        };
        let expected = one(src, &options);
        for &count in counts {
            if let Some(got) = in_pieces(src, &options, count) {
                assert_eq!(got, expected, "{name}: {count} pieces, strict {strict}");
                joined += 1;
            }
        }
    }
    joined
}

/// An md5mesh and an md5anim of a generated rig: several meshes and many frames.
fn generated() -> [Vec<u8>; 2] {
    let rig = Rig {
        meshes: 6,
        cols: 6,
        rows: 5,
        joints: 9,
        frames: 40,
    };
    let model = model(&rig, 1);
    let options = ConvertOptions::default();
    let mesh = from_model(&model, &options).unwrap().0.to_vec();
    let anim = anim_from_model(&model, 0, &options).unwrap().0.to_vec();
    [mesh, anim]
}

#[test]
fn split_cuts_only_before_block_openers() {
    for src in generated() {
        for count in 1..40 {
            let ranges = split(&src, 0, count);
            assert!(ranges.len() <= count);
            assert_eq!(ranges[0].start, 0);
            assert_eq!(ranges.last().map(|r| r.end), Some(src.len()));
            for pair in ranges.windows(2) {
                assert_eq!(pair[0].end, pair[1].start);
                assert!(pair[0].start < pair[0].end);
                let line = String::from_utf8_lossy(&src[pair[1].start..]);
                let word = line.trim_start().split([' ', '\t', '{']).next();
                assert!(matches!(word, Some("mesh" | "frame")), "{line:.20}");
            }
        }
        assert!(split(&src, 0, 8).len() > 2);
    }
}

#[test]
fn generated_files_read_the_same_in_pieces() {
    for src in generated() {
        let joined = same_in_pieces("generated", &src, &[2, 3, 7, 64]);
        assert!(joined >= 8, "{joined} joins");
    }
}

/// Every fixture (the failing ones included) and every corpus file: the same result, or
/// refused.
#[test]
fn fixtures_and_corpus_read_the_same_in_pieces() {
    let mut paths = rigport_test_support::fixtures::fixtures("md5");
    paths.extend(rigport_test_support::corpus::corpus_files(&["md5"]).unwrap_or_default());
    let mut joined = 0;
    for path in paths {
        let path = rigport_test_support::workspace_root().join(path);
        let src = std::fs::read(&path).unwrap();
        joined += same_in_pieces(&path.display().to_string(), &src, &[2, 3, 7, 64]);
    }
    assert!(joined > 0);
}

/// Damage at and across the cuts: a block left open, lines of the other kind, joints on
/// both sides, a weight past the joints, a bad number late in the file.
#[test]
fn damaged_files_read_the_same_in_pieces_or_are_refused() {
    let [mesh, anim] = generated();
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
    let (mesh, anim) = (text(&mesh), text(&anim));
    let without_close = |src: &str, nth: usize| {
        let mut lines: Vec<&str> = src.lines().collect();
        let close = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.trim() == "}")
            .nth(nth)
            .map(|(i, _)| i)
            .unwrap();
        lines.remove(close);
        lines.join("\n")
    };
    let joints_block = {
        let start = mesh.find("joints {").unwrap();
        let end = start + mesh[start..].find("}\n").unwrap() + 2;
        mesh[start..end].to_owned()
    };
    let cases = [
        without_close(&mesh, 2),
        without_close(&anim, 5),
        without_close(&anim, 30),
        format!("{anim}\n{}", &mesh[mesh.find("mesh {").unwrap()..]),
        format!("{mesh}\n{joints_block}"),
        // A second joints block whose first joint names itself (joint 9) as its parent.
        format!("{mesh}\n{}", joints_block.replacen("\"\t-1 ", "\"\t9 ", 1)),
        first_weights_on(&mesh, "77", 1),
        // The same joint past the joints in every mesh: the first is named.
        first_weights_on(&mesh, "77", usize::MAX),
        first_weights_on(&mesh, "-1", 1),
        anim.replacen("frame 30 {\n", "frame 30 {\n\t1 2 x\n", 1),
        anim.replacen("frame 30 {\n", "frame 30 {\n\tmystery line\n", 1),
        anim.replacen("frame 12", "frame 13", 1),
        mesh.replacen("numverts", "// a comment\n\tnumverts", 1),
        mesh.replace('\n', "\r\n"),
        format!("\u{feff}{anim}"),
    ];
    for (k, case) in cases.iter().enumerate() {
        assert!(*case != mesh && *case != anim, "case {k} changes nothing");
        same_in_pieces(&format!("case {k}"), case.as_bytes(), &[2, 3, 7, 64]);
    }
}

/// `src` with the joint of the first weight of up to `meshes` meshes set to `joint`.
fn first_weights_on(src: &str, joint: &str, meshes: usize) -> String {
    let mut changed = 0;
    let lines = src.lines().map(|line| {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if changed < meshes && words.len() > 2 && words[..2] == ["weight", "0"] {
            changed += 1;
            words[2] = joint;
            return format!("\t{}", words.join(" "));
        }
        line.to_owned()
    });
    lines.collect::<Vec<_>>().join("\n")
}

/// A budget the pieces overdraw together, though each fits on its own, is refused.
#[test]
fn a_budget_overdrawn_by_the_pieces_together_is_refused() {
    let [_, anim] = generated();
    let (_, body) = body(&anim);
    let whole = read_lines(&anim, body, &ReadOptions::default())
        .unwrap()
        .drawn;
    let options = ReadOptions {
        limits: Limits {
            max_alloc_bytes: whole * 2 / 3,
        },
        ..Default::default()
    };
    assert!(one(&anim, &options).is_err());
    assert!(in_pieces(&anim, &options, 2).is_none());
}
