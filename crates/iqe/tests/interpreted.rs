//! The crate's codec (`rigport_iqe::CODEC`, which reads through a scene it keeps, so the
//! commands are interpreted once) gives what `File::from_slice_with` and `to_model` give: the
//! same warnings, errors (and their line:column) and model, for every fixture (the failing
//! ones included), every corpus file, a strict read and a file read on every core.

mod common;

use rigport_iqe::{CODEC, ConvertOptions, File, to_model};
use rigport_model_core::ReadOptions;
use rigport_model_core::codec::Location;
use rigport_test_support::codec_agreement::assert_codec_reads_as_faithful;
use rigport_test_support::corpus;

/// Reads `bytes` both ways with `options` and compares everything; returns whether the
/// read succeeded.
fn same_both_ways(name: &str, bytes: &[u8], options: &ReadOptions) -> bool {
    let faithful = File::from_slice_with(bytes, options)
        .map(|(file, mut report)| {
            let (model, more) = to_model(&file, &ConvertOptions::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            report.extend(more);
            (model, report)
        })
        .map_err(|e| {
            let at = Location::at_text(bytes, e.span().map(|span| span.start));
            (e.to_string(), at)
        });
    assert_codec_reads_as_faithful(name, &CODEC, bytes, options, faithful)
}

#[test]
fn every_fixture_reads_and_converts_as_file_and_to_model_do() {
    let mut read = 0;
    let mut failed = 0;
    let mut entries: Vec<_> = std::fs::read_dir(common::fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "iqe"))
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        for options in [ReadOptions::default(), ReadOptions::strict()] {
            match same_both_ways(&name, &bytes, &options) {
                true => read += 1,
                false => failed += 1,
            }
        }
    }
    // Both outcomes were compared: the fixtures hold valid files, `fail_*` ones, and ones
    // that only a strict read refuses.
    assert!(read >= 40 && failed >= 16, "{read} read, {failed} failed");
}

#[test]
fn every_corpus_file_reads_and_converts_as_file_and_to_model_do() {
    let Some(files) = corpus::corpus_files(&["iqe"]) else {
        return;
    };
    for path in &files {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).unwrap();
        assert!(
            same_both_ways(&name, &bytes, &ReadOptions::default()),
            "{name}"
        );
    }
    assert!(files.len() >= 10, "{} corpus files", files.len());
}

#[test]
fn a_file_read_on_every_core_keeps_the_same_scene() {
    // Past the 1 MB from which the reader cuts the file into chunks (one segment each):
    // the scene is built over the joined segments.
    let mut text = b"# Inter-Quake Export\njoint \"root\" -1\npq 0 0 0 0 0 0 1\n".to_vec();
    let meshes = 40;
    let per_mesh = 2000;
    for m in 0..meshes {
        text.extend_from_slice(format!("mesh \"m{m}\"\nmaterial \"mat{}\"\n", m % 3).as_bytes());
        for v in 0..per_mesh {
            let (x, y) = (v % 50, v / 50);
            text.extend_from_slice(
                format!("vp {x} {y} {m}.5\nvt 0.{v} 0.{m}\nvb 0 1\n").as_bytes(),
            );
        }
        for v in 0..per_mesh - 51 {
            if v % 50 != 49 {
                text.extend_from_slice(format!("fm {v} {} {}\n", v + 1, v + 51).as_bytes());
            }
        }
    }
    text.extend_from_slice(
        b"animation \"a\"\nframerate 10\nframe\npq 0 0 0 0 0 0 1\nframe\npq 1 0 0 0 0 0 1\n",
    );
    assert!(text.len() > 2 << 20, "{} bytes", text.len());
    assert!(same_both_ways("generated", &text, &ReadOptions::default()));
}
