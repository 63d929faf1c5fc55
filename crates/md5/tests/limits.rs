//! Counts in a file never drive allocation: a tiny file declaring billions of records reads
//! (with warnings) in little memory, and a read past the memory limit is an error naming
//! its line.

use rigport_md5::{Error, File};
use rigport_model_core::{Limits, ReadOptions, codes};
use rigport_test_support::counting_alloc::Counting;

#[global_allocator]
static ALLOC: Counting = Counting;

const LIARS: &[u8] = b"MD5Version 10\ncommandline \"\"\nnumJoints 4000000000\nnumMeshes 4000000000\n\
joints {\n\t\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\n\tshader \"\"\n\tnumverts 9223372036854775807\n\
\tvert 0 ( 0 0 ) 0 1\n\tnumtris 4000000000\n\tnumweights 4000000000\n\tweight 0 0 1 ( 0 0 0 )\n}\n";

#[test]
fn huge_counts_are_warnings_not_allocations() {
    let (file, report) = File::from_slice_with(LIARS, &ReadOptions::default()).unwrap();
    assert_eq!(file.meshes()[0].verts.len(), 1);
    let notice = report.with_code(codes::COUNT_MISMATCH).next().unwrap();
    assert!(
        notice
            .message
            .starts_with("line 10: `numverts 9223372036854775807` but 1 records"),
        "{notice}"
    );
    assert!(notice.message.contains("more like it"), "{notice}");
    let error = File::from_slice_with(LIARS, &ReadOptions::strict()).unwrap_err();
    assert_eq!(error.line_col(LIARS), Some((10, 11)), "{error}");
    let (peak_file, peak) =
        rigport_test_support::counting_alloc::peak_during(|| File::from_slice(LIARS).unwrap());
    assert_eq!(peak_file, file);
    assert!(peak < 64 * 1024, "peak {peak} bytes");
}

#[test]
fn the_memory_limit_is_an_error_on_its_line() {
    let options = ReadOptions {
        limits: Limits {
            max_alloc_bytes: 1000,
        },
        ..ReadOptions::default()
    };
    match File::from_slice_with(LIARS, &options) {
        Err(error @ Error::Limit { .. }) => {
            let (line, _) = error.line_col(LIARS).unwrap();
            assert!(line > 1, "{error}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn frames_out_of_order_are_warnings() {
    let src = b"MD5Version 10\ncommandline \"\"\nnumFrames 2\nnumJoints 1\nframeRate 24\n\
numAnimatedComponents 1\nhierarchy {\n\t\"a\" -1 1 0\n}\nbaseframe {\n\t( 0 0 0 ) ( 0 0 0 )\n}\n\
frame 1 {\n\t1\n}\nframe 0 {\n\t2\n}\n";
    let (_, report) = File::from_slice_with(src, &ReadOptions::default()).unwrap();
    let notice = report.with_code(codes::INDEX_OUT_OF_RANGE).next().unwrap();
    assert!(
        notice
            .message
            .starts_with("line 13: frame 1 is frame block 0"),
        "{notice}"
    );
    assert!(File::from_slice_with(src, &ReadOptions::strict()).is_err());
}
