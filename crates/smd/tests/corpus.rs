//! The real files of `$RIGPORT_CORPUS/smd`: each reads with the counts a plain line scan
//! finds, writes back with the same content, converts, and goes through the codec; the
//! damaged files of `smd-damaged` are errors naming a line, never a panic.

mod common;

use rigport_model_core::ReadOptions;
use rigport_model_core::codec::{Location, WriteOptions};
use rigport_smd::CODEC;
use rigport_smd::{ConvertOptions, File, sniff, to_model};

#[test]
fn every_corpus_file_reads_with_its_own_counts() {
    let Some(files) = common::corpus("smd") else {
        return;
    };
    assert!(files.len() >= 13, "{} files", files.len());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        assert!(sniff(&bytes), "{name}: not sniffed");
        let (file, _) = File::from_slice_with(&bytes, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {}", e.render(&bytes)));
        let scan = common::counts(std::str::from_utf8(&bytes).unwrap());
        let summary = file.summary();
        assert_eq!(
            (summary.joints, summary.frames, summary.triangles),
            (scan.nodes, scan.frames, scan.triangles),
            "{name}"
        );
        assert!(scan.nodes > 0, "{name}: the scan found no bones");
        let codec = CODEC
            .open_file(&bytes, &ReadOptions::default())
            .map(|(file, _)| file.summary())
            .unwrap();
        assert_eq!(codec.triangles, scan.triangles, "{name}");
    }
}

#[test]
fn every_corpus_file_round_trips_with_the_same_content() {
    let Some(files) = common::corpus("smd") else {
        return;
    };
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        let file = File::from_slice(&bytes).unwrap();
        let written = file.to_vec();
        let original = common::content(std::str::from_utf8(&bytes).unwrap());
        let back = common::content(std::str::from_utf8(&written).unwrap());
        assert_eq!(original.len(), back.len(), "{name}: line count");
        for (i, (a, b)) in original.iter().zip(&back).enumerate() {
            assert_eq!(a, b, "{name}: content line {}", i + 1);
        }
        let again = File::from_slice(&written).unwrap();
        assert_eq!(again, file, "{name}: the written file reads as another");
        assert_eq!(again.to_vec(), written, "{name}: writing is not idempotent");
        let (copy, _) = CODEC
            .open_file(&bytes, &ReadOptions::default())
            .map(|(file, report)| (file.to_vec(), report))
            .unwrap();
        assert_eq!(copy, written, "{name}: the codec's copy differs");
        // CRLF files stay CRLF.
        assert_eq!(
            bytes.windows(2).any(|w| w == b"\r\n"),
            written.windows(2).any(|w| w == b"\r\n"),
            "{name}: line endings"
        );
    }
}

#[test]
fn every_corpus_file_converts_and_writes() {
    let Some(files) = common::corpus("smd") else {
        return;
    };
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        let file = File::from_slice(&bytes).unwrap();
        let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
        assert_eq!(model.skeleton.len() as u64, file.summary().joints, "{name}");
        assert!(model.check_references().is_empty(), "{name}");
        let (read, _) = CODEC.read(&bytes, &ReadOptions::default()).unwrap();
        assert_eq!(read, model, "{name}: the codec reads another model");
        let written = CODEC
            .write(&model, "out.smd", &WriteOptions::default())
            .unwrap();
        // An animation file (no mesh, one animation) is written as itself; any other model as
        // a reference with one file per animation beside it.
        let animation_file = !file.has_triangles() && model.animations.len() == 1;
        let files = if animation_file {
            1
        } else {
            1 + model.animations.len()
        };
        assert_eq!(written.files.len(), files, "{name}");
        if animation_file {
            let (again, _) = CODEC
                .read(&written.files[0].bytes, &ReadOptions::default())
                .unwrap();
            assert_eq!(
                again.animations.len(),
                1,
                "{name}: read back as an animation"
            );
        }
        for out in &written.files {
            assert!(
                written
                    .report
                    .notices
                    .iter()
                    .any(|n| n.message.contains(&out.name)),
                "{name}: {} not listed in the report",
                out.name
            );
            let back = File::from_slice_with(&out.bytes, &ReadOptions::strict())
                .unwrap_or_else(|e| panic!("{name} → {}: {}", out.name, e.render(&out.bytes)));
            assert!(sniff(&out.bytes), "{name} → {}", out.name);
            assert_eq!(back.0.nodes().count(), model.skeleton.len().max(1));
        }
    }
}

#[test]
fn damaged_files_are_errors_naming_a_line() {
    let Some(files) = common::corpus("smd-damaged") else {
        return;
    };
    assert!(!files.is_empty());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        for options in [ReadOptions::default(), ReadOptions::strict()] {
            let error = File::from_slice_with(&bytes, &options)
                .err()
                .unwrap_or_else(|| panic!("{name} reads"));
            assert!(error.span().is_some(), "{name}: {error}");
            let codec = CODEC.read(&bytes, &options).unwrap_err();
            assert!(
                matches!(codec.location, Location::Text { .. }),
                "{name}: {codec}"
            );
            assert!(error.render(&bytes).contains("--> "), "{name}");
            if bytes.is_empty() {
                assert!(error.to_string().starts_with("empty input"), "{error}");
                assert_eq!(codec.to_string(), format!("smd: 1:1: {error}"));
            }
        }
    }
}
