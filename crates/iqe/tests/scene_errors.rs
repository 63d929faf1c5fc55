//! `File::scene()` on commands pushed by hand: its errors carry the span of the offending
//! command in the file's own text (`File::to_vec`), like errors found while reading.

use rigport_iqe::{Attribute, Command, Detail, Error, FaceBase, File};

#[test]
fn a_scene_error_points_at_its_command_in_the_written_text() {
    let mut file = File::default();
    file.push(&Command::Mesh(Some(b"m".to_vec()))).unwrap();
    for p in [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        file.push(&Command::Vertex(Attribute::Position, p.to_vec()))
            .unwrap();
    }
    file.push(&Command::Face(FaceBase::Mesh, vec![0, 1, 2]))
        .unwrap();
    file.push(&Command::Face(FaceBase::Mesh, vec![0, 1, 9]))
        .unwrap();
    let error = file.scene().unwrap_err();
    assert!(
        matches!(
            error,
            Error::Format {
                detail: Detail::IndexOutOfRange { .. },
                ..
            }
        ),
        "{error}"
    );
    let text = file.to_vec();
    let span = error.span().expect("a span");
    assert_eq!(&text[span.clone()], b"fm 0 1 9", "{}", error.render(&text));
    assert_eq!(error.offset(), Some(span.start as u64));
    assert!(
        error.render(&text).contains("--> 8:1"),
        "{}",
        error.render(&text)
    );
}
