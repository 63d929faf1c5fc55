//! Right side up: a model converted between formats that stand models along different axes
//! (IQE and IQM are Z-up; MilkShape and glTF are Y-up) stands in the output as it stood in
//! its source.
//!
//! For every real file with triangles, the bind-pose box of the output, read back, equals the
//! source's box turned (`(x, y, z) → (x, z, −y)` for Z-up → Y-up, its inverse the other way)
//! within 1e-3 of the model's size; with `keep_axes` it equals the source's box unturned;
//! `.iqm → .glb → .iqm` gives back the source's box.

use rigport::pipeline::{Settings, convert};
use rigport::{Document, Format, sniff};
use rigport_model_core::glam::Vec3;
use rigport_model_core::{Model, ReadOptions, UpAxis, codes};
use rigport_test_support::corpus::corpus_files;
use rigport_test_support::fixtures::file_name;
use std::path::{Path, PathBuf};

/// The bind-pose box of every vertex, or `None` for a model without vertices.
fn bounds(model: &Model) -> Option<(Vec3, Vec3)> {
    let mut points = model
        .meshes
        .iter()
        .flat_map(|m| &m.vertices)
        .map(|v| v.position)
        .filter(|p| p.is_finite());
    let first = points.next()?;
    Some(points.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p))))
}

/// A box turned from one convention to another, computed from its corners (not with the
/// code under test).
fn turned(bounds: (Vec3, Vec3), from: UpAxis, to: UpAxis) -> (Vec3, Vec3) {
    let (lo, hi) = bounds;
    let turn = |p: Vec3| match (from, to) {
        (UpAxis::Z, UpAxis::Y) => Vec3::new(p.x, p.z, -p.y),
        (UpAxis::Y, UpAxis::Z) => Vec3::new(p.x, -p.z, p.y),
        _ => p,
    };
    let (a, b) = (turn(lo), turn(hi));
    (a.min(b), a.max(b))
}

fn read_model(bytes: &[u8], dir: Option<&Path>) -> Model {
    let (document, _) = Document::sniff_and_read_in(bytes, &ReadOptions::default(), dir).unwrap();
    document.to_model().unwrap().0
}

fn settings(dir: &Path, keep_axes: bool) -> Settings {
    Settings {
        source_dir: Some(dir.to_path_buf()),
        keep_axes,
        ..Settings::default()
    }
}

/// Converts `bytes` to `target` and reads the main output back.
fn through(bytes: &[u8], dir: &Path, target: Format, keep_axes: bool) -> (Model, bool) {
    let output = PathBuf::from(format!("out.{}", target.extension()));
    let converted = convert(bytes, &output, target, &settings(dir, keep_axes)).unwrap();
    let noted = converted
        .report
        .notices
        .iter()
        .any(|n| n.code == codes::AXES_CONVERTED);
    let (document, _) =
        Document::read(&converted.files[0].1, target, &ReadOptions::default()).unwrap();
    (document.to_model().unwrap().0, noted)
}

fn assert_box(name: &str, what: &str, expected: (Vec3, Vec3), actual: Option<(Vec3, Vec3)>) {
    let actual = actual.unwrap_or_else(|| panic!("{name} {what}: no vertices"));
    let size = (expected.1 - expected.0).length().max(1e-6);
    let error = (expected.0 - actual.0)
        .abs()
        .max_element()
        .max((expected.1 - actual.1).abs().max_element());
    assert!(
        error <= 1e-3 * size,
        "{name} {what}: box {actual:?}, expected {expected:?} (off by {error}, size {size})"
    );
}

/// Every corpus file of these folders that reads and has vertices, with its model.
fn sources(formats: &[&str]) -> Vec<(String, Vec<u8>, PathBuf, Model)> {
    let Some(files) = corpus_files(formats) else {
        return Vec::new();
    };
    let sources: Vec<_> = files
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(&path).ok()?;
            sniff(&bytes)?;
            let dir = path.parent()?.to_path_buf();
            let (document, _) =
                Document::sniff_and_read_in(&bytes, &ReadOptions::default(), Some(&dir)).ok()?;
            let (model, _) = document.to_model().ok()?;
            bounds(&model)?;
            Some((file_name(&path), bytes, dir, model))
        })
        .collect();
    assert!(
        !sources.is_empty(),
        "no corpus file of {formats:?} has vertices"
    );
    sources
}

#[test]
fn z_up_files_stand_up_in_gltf_and_keep_their_numbers_with_keep_axes() {
    let files = sources(&["iqe", "iqm", "md5", "smd", "psk"]);
    for (name, bytes, dir, source) in &files {
        assert_eq!(source.up, UpAxis::Z, "{name}");
        let box_ = bounds(source).unwrap();
        let (glb, noted) = through(bytes, dir, Format::Glb, false);
        assert!(noted, "{name}: no axes-converted note");
        let expected = turned(box_, UpAxis::Z, UpAxis::Y);
        assert_box(name, "-> glb", expected, bounds(&glb));
        let (kept, noted) = through(bytes, dir, Format::Glb, true);
        assert!(!noted, "{name}: --keep-axes still noted a turn");
        assert_box(name, "-> glb --keep-axes", box_, bounds(&kept));
    }
    eprintln!("{} Z-up files checked", files.len());
}

#[test]
fn y_up_files_stand_up_in_iqe_iqm_and_psk() {
    let files = sources(&["ms3d", "ms3d-ascii", "gltf", "b3d"]);
    for (name, bytes, dir, source) in &files {
        assert_eq!(source.up, UpAxis::Y, "{name}");
        let expected = turned(bounds(source).unwrap(), UpAxis::Y, UpAxis::Z);
        for target in [Format::Iqe, Format::Iqm, Format::Psk] {
            let (model, noted) = through(bytes, dir, target, false);
            assert!(noted, "{name} -> {target}: no axes-converted note");
            assert_box(name, &format!("-> {target}"), expected, bounds(&model));
        }
    }
    eprintln!("{} Y-up files checked", files.len());
}

#[test]
fn iqm_through_glb_and_back_gives_the_source_box() {
    let files = sources(&["iqm"]);
    for (name, bytes, dir, source) in &files {
        let glb = convert(
            bytes,
            Path::new("x.glb"),
            Format::Glb,
            &settings(dir, false),
        )
        .unwrap()
        .files
        .remove(0)
        .1;
        let (back, noted) = through(&glb, dir, Format::Iqm, false);
        assert!(noted, "{name}: .glb -> .iqm did not turn");
        assert_box(
            name,
            "-> glb -> iqm",
            bounds(source).unwrap(),
            bounds(&back),
        );
        // The numbers come back within float rounding, not just the box: every vertex of
        // either model lies on a vertex of the other (the order may change: the IQM
        // compiler welds).
        let again = read_model(bytes, Some(dir));
        let size = {
            let (lo, hi) = bounds(&again).unwrap();
            (hi - lo).length().max(1e-6)
        };
        let points = |m: &Model| -> Vec<Vec3> {
            m.meshes
                .iter()
                .flat_map(|m| &m.vertices)
                .map(|v| v.position)
                .collect()
        };
        let (ours, theirs) = (points(&again), points(&back));
        let farthest = |from: &[Vec3], to: &[Vec3]| {
            from.iter()
                .map(|p| {
                    to.iter()
                        .map(|q| (*p - *q).abs().max_element())
                        .fold(f32::INFINITY, f32::min)
                })
                .fold(0.0_f32, f32::max)
        };
        let worst = farthest(&ours, &theirs).max(farthest(&theirs, &ours));
        assert!(worst <= 1e-4 * size, "{name}: vertices off by {worst}");
    }
}

#[test]
fn same_convention_conversions_do_not_turn() {
    // A fixture in each convention, to a target of the same convention: no note, same box.
    let iqe = b"# Inter-Quake Export\nmesh tri\nvp 0 0 0\nvp 1 0 0\nvp 0 0 2\nfm 0 1 2\n";
    let (model, noted) = through(iqe, Path::new("."), Format::Iqm, false);
    assert!(!noted);
    assert_eq!(bounds(&model), Some((Vec3::ZERO, Vec3::new(1.0, 0.0, 2.0))));
    let (model, noted) = through(iqe, Path::new("."), Format::Glb, false);
    assert!(noted);
    assert_eq!(bounds(&model), Some((Vec3::ZERO, Vec3::new(1.0, 2.0, 0.0))));
}
