//! The hand-made files of `fixtures/md5`, with values worked out by hand.

mod common;

use common::{content, fixtures};
use glam::{Quat, Vec3};
use rigport_md5::{ConvertOptions, File, Kind, to_model, to_model_with_animations};
use rigport_model_core::{JointId, ReadOptions, codes};

fn read(name: &str) -> (Vec<u8>, File) {
    let path = rigport_test_support::fixtures::fixture("md5", name);
    let bytes = std::fs::read(&path).unwrap();
    let file = File::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {}", e.render(&bytes)));
    (bytes, file)
}

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-5
}

#[test]
fn every_fixture_reads_and_writes_its_content_or_fails_on_its_line() {
    let expected_failures = [
        ("fail_unterminated_name.md5mesh", 6, "closing quote"),
        (
            "fail_end_inside_mesh.md5mesh",
            8,
            "end of input inside the `mesh` block",
        ),
        (
            "fail_baseframe_count.md5anim",
            11,
            "baseframe has 1 lines for 2 joints",
        ),
    ];
    let all = fixtures();
    assert!(all.len() >= 7);
    for path in all {
        let name = rigport_test_support::fixtures::file_name(&path);
        let bytes = std::fs::read(&path).unwrap();
        let read = File::from_slice(&bytes);
        if let Some((_, line, text)) = expected_failures.iter().find(|(n, ..)| *n == name) {
            let error = read.expect_err(&name);
            assert_eq!(error.line_col(&bytes).unwrap().0, *line, "{name}: {error}");
            assert!(error.to_string().contains(text), "{name}: {error}");
            continue;
        }
        let file = read.unwrap_or_else(|e| panic!("{name}: {}", e.render(&bytes)));
        let written = file.to_vec();
        assert_eq!(content(&written), content(&bytes), "{name}");
        assert_eq!(File::from_slice(&written).unwrap(), file, "{name}");
        to_model(&file, &ConvertOptions::default()).unwrap();
    }
}

#[test]
fn the_spec_mesh_lands_where_the_notes_say() {
    let (_, file) = read("spec_mesh.md5mesh");
    let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
    // "arm" is 10 up the root, turned +90° about Y (stored y −0.7071 rebuilds w < 0).
    let arm = &model.skeleton.joints[1];
    assert_eq!(arm.parent, Some(JointId(0)));
    assert!(close(arm.translation, Vec3::new(0.0, 0.0, 10.0)));
    let turn = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    assert!(
        arm.rotation.dot(turn).abs() > 1.0 - 1e-6,
        "{:?}",
        arm.rotation
    );
    let mesh = &model.meshes[0];
    assert_eq!(mesh.name, "arm_mesh");
    assert_eq!(model.materials[0].name, "models/test/arm");
    assert_eq!(
        model.materials[0].texture.as_deref(),
        Some("models/test/arm")
    );
    let p: Vec<Vec3> = mesh.vertices.iter().map(|v| v.position).collect();
    // vert 0: root (0,0,0); vert 1: both weights at (4,0,0); vert 2: (0,0,10) + R·(0,0,2).
    assert!(close(p[0], Vec3::ZERO));
    assert!(close(p[1], Vec3::new(4.0, 0.0, 0.0)));
    assert!(close(p[2], Vec3::new(2.0, 0.0, 10.0)));
    // vert 1 is half root, half arm.
    let w: Vec<(u32, f32)> = mesh.vertices[1]
        .influences()
        .map(|(j, w)| (j.0, w))
        .collect();
    assert_eq!(w, [(0, 0.5), (1, 0.5)]);
    // `tri 0 0 2 1` becomes counter-clockwise 0 1 2, and its normal follows:
    // (4,0,0) × (2,0,10) = (0, −40, 0).
    assert_eq!(mesh.triangles, vec![[0, 1, 2]]);
    assert!(close(mesh.vertices[0].normal, Vec3::NEG_Y));
    assert_eq!(model.up, rigport_model_core::UpAxis::Z);
    assert_eq!(model.comment.as_deref(), Some("exported by our toolkit"));
}

#[test]
fn the_spec_anim_keys_the_flagged_components() {
    let (_, file) = read("spec_anim.md5anim");
    assert_eq!(file.kind, Kind::Anim);
    let options = ConvertOptions {
        animation_name: Some("wave".to_owned()),
        ..ConvertOptions::default()
    };
    let (model, report) = to_model(&file, &options).unwrap();
    assert!(report.is_empty(), "{report}");
    let animation = &model.animations[0];
    assert_eq!((animation.name.as_str(), animation.fps), ("wave", 24.0));
    assert!((animation.duration - 1.0 / 24.0).abs() < 1e-7);
    // The root animates nothing: its baseframe, one key of each kind at 0, so that the
    // animation put on another skeleton poses the root as this file means.
    assert_eq!(animation.tracks.len(), 2);
    let root = &animation.tracks[0];
    assert_eq!(root.joint, JointId(0));
    assert_eq!((root.translations.len(), root.rotations.len()), (1, 1));
    assert_eq!(root.translations[0].time, 0.0);
    assert!(close(root.translations[0].value, Vec3::ZERO));
    assert!(root.rotations[0].value.dot(Quat::IDENTITY).abs() > 1.0 - 1e-6);
    let track = &animation.tracks[1];
    assert_eq!(track.joint, JointId(1));
    let times: Vec<f32> = track.translations.iter().map(|k| k.time).collect();
    assert_eq!(times, [0.0, 1.0 / 24.0]);
    assert!(close(
        track.translations[1].value,
        Vec3::new(0.5, 0.0, 10.0)
    ));
    // Frame 0: xyz (0.1, −0.70, 0), w = −sqrt(1 − 0.01 − 0.49).
    let q = track.rotations[0].value;
    let expected = Quat::from_xyzw(0.1, -0.7, 0.0, -(0.5f32).sqrt());
    assert!(q.dot(expected).abs() > 1.0 - 1e-6, "{q:?}");
}

#[test]
fn wrapped_frames_and_partial_flags() {
    let (_, file) = read("wrapped_frames.md5anim");
    let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
    let animation = &model.animations[0];
    assert_eq!(animation.fps, 30.0);
    let track = |j: u32| animation.track(JointId(j)).unwrap();
    // root: Tz only, from start 0.
    let z: Vec<f32> = track(0).translations.iter().map(|k| k.value.z).collect();
    assert_eq!(z, [0.0, 0.5, 1.0]);
    // Channels not animated: the baseframe, one key at 0.
    let identity = |q: Quat| q.dot(Quat::IDENTITY).abs() > 1.0 - 1e-6;
    assert_eq!(track(0).rotations.len(), 1);
    assert!(identity(track(0).rotations[0].value));
    // a: Ty Tz from start 1, x from the baseframe.
    assert!(close(
        track(1).translations[2].value,
        Vec3::new(1.0, 0.2, 0.4)
    ));
    // b: the quaternion from start 3, across the wrapped lines; its translation the
    // baseframe's.
    assert_eq!(track(2).translations.len(), 1);
    assert!(close(
        track(2).translations[0].value,
        Vec3::new(0.0, 1.0, 0.0)
    ));
    let q = track(2).rotations[2].value;
    let expected = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2);
    assert!(q.dot(expected).abs() > 1.0 - 1e-6, "{q:?}");
}

#[test]
fn crowbar_headers_crlf_unknown_lines_and_six_weights() {
    let (bytes, file) = read("crowbar_crlf.md5mesh");
    assert!(rigport_md5::sniff(&bytes));
    let written = file.to_vec();
    assert!(written.starts_with(b"// Created by Crowbar 0.74\r\n"));
    assert!(
        written
            .windows(19)
            .any(|w| w == b"\tsmoothing 1\r\n}\r\n\r\n")
    );
    // The unknown `smoothing` line is a warning, and an error when strict, on its line.
    let (_, report) = File::from_slice_with(&bytes, &ReadOptions::default()).unwrap();
    assert_eq!(
        report.with_code(codes::UNKNOWN_COMMAND).count(),
        1,
        "{report}"
    );
    let error = File::from_slice_with(&bytes, &ReadOptions::strict()).unwrap_err();
    assert_eq!(error.line_col(&bytes), Some((41, 3)), "{error}");
    let (model, report) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert_eq!(model.meshes.len(), 1, "the empty mesh is skipped");
    assert_eq!(report.with_code(codes::EMPTY_MESHES).count(), 1);
    assert_eq!(report.with_code(codes::WEIGHTS_TRUNCATED).count(), 1);
    let mesh = &model.meshes[0];
    assert_eq!(mesh.name, "hand");
    assert_eq!(model.skeleton.joints[1].name, "upper arm.L");
    // vert 0: 0.3, 0.25, 0.2, 0.1, 0.1, 0.05 on joints 0 to 5: the four largest kept
    // (the earlier of the two 0.1) and divided by their sum 0.85.
    let w: Vec<(u32, f32)> = mesh.vertices[0]
        .influences()
        .map(|(j, w)| (j.0, w))
        .collect();
    let expected = [(0, 0.3), (1, 0.25), (2, 0.2), (3, 0.1)];
    assert_eq!(w.len(), 4);
    for ((j, w), (ej, ew)) in w.iter().zip(expected) {
        assert_eq!(*j, ej);
        assert!((w - ew / 0.85).abs() < 1e-6, "{w} vs {}", ew / 0.85);
    }
    // The position still sums all six weights (as the engine and the IQM SDK do): every
    // weight puts vert 0 at the origin.
    assert!(close(mesh.vertices[0].position, Vec3::ZERO));
}

#[test]
fn animations_fit_a_mesh_by_name_or_refuse() {
    let (_, mesh) = read("spec_mesh.md5mesh");
    let (_, anim) = read("spec_anim.md5anim");
    let (model, _) =
        to_model_with_animations(&mesh, &[("wave", &anim)], &ConvertOptions::default()).unwrap();
    assert_eq!(model.animations[0].name, "wave");
    let (_, other) = read("wrapped_frames.md5anim");
    let error =
        to_model_with_animations(&mesh, &[("x", &other)], &ConvertOptions::default()).unwrap_err();
    assert!(error.to_string().contains("no joint `a`"), "{error}");
}

#[test]
fn a_byte_order_mark_is_skipped_and_kept() {
    let (bytes, file) = read("spec_mesh.md5mesh");
    let mut marked = b"\xEF\xBB\xBF".to_vec();
    marked.extend_from_slice(&bytes);
    assert!(rigport_md5::sniff(&marked));
    let (with_mark, report) = File::from_slice_with(&marked, &ReadOptions::strict()).unwrap();
    assert!(report.is_empty() && with_mark.bom);
    assert_eq!(with_mark.items, file.items);
    assert!(
        with_mark
            .to_vec()
            .starts_with(b"\xEF\xBB\xBFMD5Version 10\n")
    );
}
