//! The model comment (a MilkShape, SMD, IQE or IQM file's) is kept in the glTF's
//! `asset.extras` and read back, so it survives a conversion through glTF.

use rigport_gltf::COMMENT_EXTRA;
use rigport_gltf::export::{ExportOptions, to_glb};
use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
use rigport_model_core::{Model, ReadOptions, Severity, codes};

fn back(model: &Model) -> (Model, String) {
    let (glb, report) = to_glb(model, &ExportOptions::default()).unwrap();
    assert!(
        report
            .with_code(codes::GLTF_COMMENT)
            .all(|n| n.severity == Severity::Info),
        "{report}"
    );
    let (file, _) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None).unwrap();
    let extras = file
        .root()
        .asset
        .extras
        .as_ref()
        .map(|e| e.get().to_owned())
        .unwrap_or_default();
    let (imported, _) = to_model(&file, &ImportOptions::default()).unwrap();
    (imported.model, extras)
}

#[test]
fn the_model_comment_comes_back() {
    let model = Model {
        comment: Some("made in 2004\nby hand".to_owned()),
        ..Model::default()
    };
    let (read, extras) = back(&model);
    assert_eq!(read.comment, model.comment);
    assert!(extras.contains(COMMENT_EXTRA), "{extras}");
}

#[test]
fn no_comment_writes_no_extras() {
    let (read, extras) = back(&Model::default());
    assert_eq!(read.comment, None);
    assert!(extras.is_empty(), "{extras}");
}
