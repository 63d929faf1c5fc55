//! Every readable fixture converted to every format, in memory through the library: what each
//! conversion reports, and what the written file reads back as (for formats rigport reads).

use rigport::Format;
use rigport::document::Document;
use rigport::pipeline::{Settings, convert};
use rigport_model_core::{ReadOptions, Severity};
use rigport_sweep::exercise::targets;
use rigport_test_support::fixtures::{file_name, readable_fixtures};
use rigport_test_support::workspace_root as repo_root;
use std::fmt::Write as _;
use std::path::Path;

/// One line per target: outputs, the notice codes, and the read-back counts.
fn describe(input: &[u8], source: Format) -> String {
    let mut out = String::new();
    for target in targets() {
        let output = Path::new("out").with_extension(target.extension());
        let _ = write!(out, "{} -> {}: ", source.key(), target.key());
        match convert(input, &output, target, &Settings::default()) {
            Err(message) => {
                let _ = writeln!(
                    out,
                    "error: {}",
                    message.to_string().lines().next().unwrap_or_default()
                );
            }
            Ok(converted) => {
                let files: Vec<String> = converted
                    .files
                    .iter()
                    .map(|(p, _)| p.display().to_string())
                    .collect();
                let mut codes: Vec<String> = converted
                    .report
                    .notices
                    .iter()
                    .filter(|n| n.severity != Severity::Info)
                    .map(|n| format!("{}:{}", n.severity, n.code))
                    .collect();
                codes.sort();
                codes.dedup();
                let _ = write!(out, "{} [{}]", files.join(" + "), codes.join(", "));
                // glTF outputs are read back by tests/gltf_input.rs (a .gltf's .bin is not on
                // disk here, and their snapshot lines predate glTF input).
                if target.can_read() && !matches!(target, Format::Glb | Format::Gltf) {
                    let bytes = &converted.files[0].1;
                    // A faithful copy keeps a damaged tail, so only new files must read strictly.
                    let options = if target == source {
                        ReadOptions::default()
                    } else {
                        ReadOptions::strict()
                    };
                    let (document, _) =
                        Document::read(bytes, target, &options).unwrap_or_else(|e| {
                            panic!("{} output does not read back: {}", target.key(), e)
                        });
                    let s = document.summary();
                    let _ = write!(
                        out,
                        " => meshes {} vertices {} triangles {} materials {} joints {} animations {}",
                        s.meshes, s.vertices, s.triangles, s.materials, s.joints, s.animations
                    );
                }
                out.push('\n');
            }
        }
    }
    out
}

#[test]
fn every_fixture_to_every_format() {
    for path in readable_fixtures() {
        let bytes = std::fs::read(repo_root().join(&path)).unwrap();
        let source = rigport::document::sniff(&bytes).expect("fixture format is detected");
        let name = format!("convert__{}", file_name(&path));
        insta::assert_snapshot!(name, describe(&bytes, source));
    }
}

#[test]
fn same_format_conversion_is_the_faithful_copy() {
    for path in readable_fixtures() {
        let bytes = std::fs::read(repo_root().join(&path)).unwrap();
        let source = rigport::document::sniff(&bytes).unwrap();
        let out = convert(&bytes, Path::new("x"), source, &Settings::default()).unwrap();
        let (document, _) = Document::read(&bytes, source, &ReadOptions::default()).unwrap();
        assert_eq!(out.files[0].1, document.to_vec(), "{}", path.display());
        if source == Format::Ms3d {
            assert_eq!(out.files[0].1, bytes, "binary copies are byte-identical");
        }
    }
}

#[test]
fn triangles_survive_every_model_conversion() {
    for path in readable_fixtures() {
        let bytes = std::fs::read(repo_root().join(&path)).unwrap();
        let (document, _) = Document::sniff_and_read(&bytes, &ReadOptions::default()).unwrap();
        let (model, _) = document.to_model().unwrap();
        for target in [Format::Ms3d, Format::Ms3dAscii, Format::Iqe] {
            if target == document.format() {
                continue;
            }
            let Ok(out) = convert(&bytes, Path::new("x"), target, &Settings::default()) else {
                continue; // a limit of the target; the error is in the snapshot
            };
            let (back, _) =
                Document::read(&out.files[0].1, target, &ReadOptions::default()).unwrap();
            let (back_model, _) = back.to_model().unwrap();
            assert_eq!(
                back_model.triangle_count(),
                model.triangle_count(),
                "{} -> {}",
                path.display(),
                target.key()
            );
        }
    }
}

#[test]
fn a_file_that_does_not_read_fails_to_convert_with_the_readers_error() {
    // IQE takes its own read for conversions to other formats (one interpretation, see
    // `rigport_iqe::Interpreted`); its errors must still come rendered as a read's do.
    let mut compared = 0;
    for path in rigport_test_support::fixtures::fixtures("iqe") {
        if !file_name(&path).starts_with("fail_") {
            continue;
        }
        let bytes = std::fs::read(repo_root().join(&path)).unwrap();
        if rigport::sniff(&bytes) != Some(Format::Iqe) {
            continue; // a broken header: not taken for IQE at all
        }
        let read = Document::read(&bytes, Format::Iqe, &ReadOptions::default())
            .expect_err("a fail_ fixture");
        for target in [Format::Iqm, Format::Glb, Format::Iqe] {
            let converted = convert(&bytes, Path::new("x"), target, &Settings::default())
                .expect_err("a fail_ fixture");
            assert_eq!(
                converted.to_string(),
                read.to_string(),
                "{} -> {}",
                path.display(),
                target.key()
            );
            compared += 1;
        }
    }
    assert!(compared >= 21, "{compared} conversions compared");
}
