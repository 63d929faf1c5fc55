//! What the tests of the two ways of reading (on several threads, through the fast path)
//! share: the outcome of a read, the files to read, and generated lines of every kind.

use crate::file::File;
use crate::read::Split;
use proptest::prelude::*;
use rigport_model_core::{ReadOptions, Report};
use std::ops::Range;

/// What a read gives, in a form two reads can be compared by: the file and its report, or
/// the error with its span and its rendering.
#[derive(Debug, PartialEq)]
pub(crate) enum Outcome {
    Read(File, Report),
    Failed(String, Option<Range<usize>>, String),
}

/// Reads `src` as `split` says.
pub(crate) fn read(src: &[u8], options: &ReadOptions, split: Split) -> Outcome {
    match File::from_slice_split(src, options, split) {
        Ok((file, report)) => Outcome::Read(file, report),
        Err(error) => Outcome::Failed(format!("{error:?}"), error.span(), error.render(src)),
    }
}

/// Every fixture (the failing ones included) and every corpus file, as bytes.
pub(crate) fn test_files() -> Vec<Vec<u8>> {
    let mut files = rigport_test_support::fixtures::fixtures("iqe");
    files.extend(rigport_test_support::corpus::corpus_files(&["iqe"]).unwrap_or_default());
    assert!(files.len() > 20, "{files:?}");
    files
        .iter()
        .map(|path| std::fs::read(rigport_test_support::workspace_root().join(path)).unwrap())
        .collect()
}

/// A file of the header and `lines`, optionally cut off in a last line.
pub(crate) fn file_of(lines: &[String], cut_off: bool) -> Vec<u8> {
    let mut src = b"# Inter-Quake Export\n".to_vec();
    for line in lines {
        src.extend_from_slice(line.as_bytes());
        src.push(b'\n');
    }
    if cut_off {
        // A file cut off in its last line.
        src.extend_from_slice(b"vp 1 2.5e");
    }
    src
}

/// Lines the generated files are made of: every command, with the odd habits real files
/// have, numbers too long to pack in place (the side tables the join must renumber), lines
/// that warn, and now and then one that fails or starts the comment section.
pub(crate) fn line() -> impl Strategy<Value = String> {
    let number = prop_oneof![
        (-999i32..999).prop_map(|n| n.to_string()),
        (-99999i32..99999).prop_map(|n| format!("{:.5}", f64::from(n) / 1e5)),
        // Too many digits or an exponent: stored in the side table.
        (1u32..u32::MAX).prop_map(|n| format!("{n}.123456789")),
        (1i32..99).prop_map(|n| format!("{n}e-7")),
        Just("-0".to_string()),
    ];
    let integer = prop_oneof![
        (0i64..6).prop_map(|n| n.to_string()),
        (-3i64..0).prop_map(|n| n.to_string()),
        // Past 31 bits: the integer side table.
        Just("5000000000".to_string()),
    ];
    let numbers = |n: usize| proptest::collection::vec(number.clone(), 1..=n);
    prop_oneof![
        8 => (prop_oneof!["vp", "vt", "vn", "vc", "v3", "pq", "pa"], numbers(4))
            .prop_map(|(k, v)| format!("{k} {}", v.join(" "))),
        3 => proptest::collection::vec(integer.clone(), 0..5)
            .prop_map(|v| format!("fm {}", v.join(" "))),
        2 => proptest::collection::vec(integer.clone(), 0..4)
            .prop_map(|v| format!("fa {}", v.join(" "))),
        2 => proptest::collection::vec((integer.clone(), number.clone()), 0..3).prop_map(|v| {
            let pairs: Vec<String> = v.iter().map(|(j, w)| format!("{j} {w}")).collect();
            format!("vb {}", pairs.join(" "))
        }),
        1 => Just("vb 3".to_string()),
        1 => integer.clone().prop_map(|i| format!("vs {i}")),
        1 => integer.clone().prop_map(|i| format!("fs {i} 1 0")),
        1 => "[a-z]{0,6}".prop_map(|n| format!("mesh \"{n}\"")),
        1 => "[a-z]{1,6}".prop_map(|n| format!("material {n}")),
        1 => ("[a-z]{1,4}", -1i64..3).prop_map(|(n, p)| format!("joint {n} {p}")),
        1 => Just("animation a".to_string()),
        1 => (0u32..5).prop_map(|n| format!("frame {n}")),
        1 => Just("loop".to_string()),
        1 => Just("framerate 30 extra".to_string()),
        1 => Just("smoothgroup 2".to_string()),
        1 => Just("smoothangle 45.5".to_string()),
        1 => Just("frobnicate 1 2".to_string()),
        1 => Just("vertexarray position float 3 \"vp\"".to_string()),
        1 => Just("# a comment line".to_string()),
        1 => Just("vp 1 2 3 # trailing".to_string()),
        1 => Just(String::new()),
        // Lines the fast path must leave to the general reader.
        1 => Just("vn 0 1 0 5".to_string()),
        1 => Just("vt 0.5 0.25 0.125".to_string()),
        1 => Just("pq 1 2 3 0 0 0 1 1 1 1 9".to_string()),
        1 => Just("vp \"1\" 2".to_string()),
        1 => Just("fm 1 #2 3".to_string()),
        1 => Just("fm 0 1".to_string()),
        1 => Just("fa 0 1 x".to_string()),
        1 => Just("vb 1 0.5 2".to_string()),
        1 => Just("  vp\t1\x0b2\x0c3 \r".to_string()),
        1 => Just("vn 1\"2 0 0".to_string()),
        1 => Just("vp 1.5.5 0 0".to_string()),
        1 => Just("\t vt 0.5 0.25\r".to_string()),
        // Rare: a syntax error, the comment section.
        1 => Just("vp 1 zero 3".to_string()),
        1 => Just("comment".to_string()),
    ]
}
