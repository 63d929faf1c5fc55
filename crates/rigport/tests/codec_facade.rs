//! The facade reads, copies and writes every format through its codec: what a caller sees of
//! that (the faithful file behind a `Document`, the codec's error with its location and the
//! external file it names, errors of writers, sniffing in the registry's order).

use rigport::pipeline::{PoseRequest, Settings, convert};
use rigport::{Document, Error, Format, ReadOptions, sniff};
use rigport_model_core::codec::Location;
use std::path::Path;

const TRI: &[u8] = b"# Inter-Quake Export\nmesh tri\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";

#[test]
fn a_document_keeps_the_format_crates_file() {
    let (document, _) = Document::read(TRI, Format::Iqe, &ReadOptions::default()).unwrap();
    let file = document
        .file::<rigport_iqe::File>()
        .expect("an IQE document holds the IQE file");
    assert_eq!(file.to_vec(), document.to_vec());
    assert!(document.file::<rigport_iqm::File>().is_none());
    assert_eq!(document.summary().triangles, 1);
}

#[test]
fn glb_and_gltf_are_told_apart_by_content() {
    let glb = convert(TRI, Path::new("t.glb"), Format::Glb, &Settings::default()).unwrap();
    let glb = &glb.files[0].1;
    assert_eq!(sniff(glb), Some(Format::Glb));
    // Read as `.gltf`, a `.glb` is still a `.glb`.
    let (document, _) = Document::read(glb, Format::Gltf, &ReadOptions::default()).unwrap();
    assert_eq!(document.format(), Format::Glb);
    let gltf = convert(TRI, Path::new("t.gltf"), Format::Gltf, &Settings::default()).unwrap();
    assert_eq!(sniff(&gltf.files[0].1), Some(Format::Gltf));
    assert_eq!(gltf.files[1].0, Path::new("t.bin"));
}

#[test]
fn text_errors_carry_line_and_column_and_draw_the_line() {
    let input = b"# Inter-Quake Export\nvp 0 x 0\n";
    let error = Document::sniff_and_read(input, &ReadOptions::default()).unwrap_err();
    assert!(
        matches!(
            error,
            Error::Read {
                format: Format::Iqe,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(matches!(
        error.location(input),
        Location::Text { line: 2, .. }
    ));
    let shown = error.to_string();
    assert!(shown.contains("vp 0 x 0") && shown.contains('^'), "{shown}");
}

#[test]
fn a_gltf_error_names_the_file_it_could_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = br#"{"asset":{"version":"2.0"},"buffers":[{"uri":"gone.bin","byteLength":12}]}"#;
    let error =
        Document::sniff_and_read_in(gltf, &ReadOptions::default(), Some(dir.path())).unwrap_err();
    let file = error.file().expect("the missing buffer is named");
    assert!(file.ends_with("gone.bin"), "{file:?}");
}

#[test]
fn writer_errors_keep_the_writers_message() {
    let settings = Settings {
        pose: PoseRequest {
            anim: Some("walk".into()),
            ..PoseRequest::default()
        },
        ..Settings::default()
    };
    let error = convert(TRI, Path::new("t.obj"), Format::Obj, &settings).unwrap_err();
    assert!(
        matches!(
            error,
            Error::FromModel {
                format: Format::Obj,
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("no animation named `walk`"),
        "{error}"
    );
}
