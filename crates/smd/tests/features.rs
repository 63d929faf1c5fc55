//! What the reader, the conversions and the writer do with each feature of the format, on
//! the hand-made fixtures in `fixtures/smd` and small inline files.

mod common;

use rigport_anim::Pose;
use rigport_anim::sample::Transform;
use rigport_model_core::codec::{Location, WriteOptions};
use rigport_model_core::glam::{Quat, Vec3};
use rigport_model_core::{
    Animation, JointId, Key, Model, ReadOptions, Report, Severity, Track, UpAxis, codes,
};
use rigport_smd::CODEC;
use rigport_smd::{
    ConvertOptions, Detail, Error, File, Item, animation_from_model, from_model, sniff, to_model,
};
use rigport_test_support::{fixtures, workspace_root};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(workspace_root().join(fixtures::fixture("smd", name))).unwrap()
}

fn model_of(bytes: &[u8]) -> (Model, Report) {
    let file = File::from_slice(bytes).unwrap_or_else(|e| panic!("{}", e.render(bytes)));
    to_model(&file, &ConvertOptions::default()).unwrap()
}

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-4
}

#[test]
fn fixtures_round_trip_with_the_same_content_and_read_strictly() {
    for path in fixtures::fixtures("smd") {
        let bytes = std::fs::read(workspace_root().join(&path)).unwrap();
        let name = path.display();
        let (file, report) = File::from_slice_with(&bytes, &ReadOptions::strict())
            .unwrap_or_else(|e| panic!("{name}: {}", e.render(&bytes)));
        assert!(report.is_empty(), "{name}: {report}");
        assert!(sniff(&bytes), "{name}");
        let written = file.to_vec();
        let (a, b) = (
            common::content(std::str::from_utf8(&bytes).unwrap()),
            common::content(std::str::from_utf8(&written).unwrap()),
        );
        assert_eq!(a, b, "{name}");
        assert_eq!(File::from_slice(&written).unwrap(), file, "{name}");
    }
}

#[test]
fn euler_angles_turn_x_first_then_y_then_z() {
    // Bone 1 sits 10 up the root's Z and turns 90° about Y: its local +X points along
    // world −Z, its +Z along world +X (hand-computed Ry(90°)).
    let (model, _) = model_of(&fixture("two_bones_reference.smd"));
    let arm = &model.skeleton.joints[1];
    assert_eq!(arm.name, "upper arm");
    assert_eq!(arm.parent, Some(JointId(0)));
    assert!(close(arm.translation, Vec3::new(0.0, 0.0, 10.0)));
    assert!(close(arm.rotation * Vec3::X, Vec3::NEG_Z));
    assert!(close(arm.rotation * Vec3::Z, Vec3::X));
    let world = rigport_anim::skeleton::world_bind_matrices(&model.skeleton).unwrap();
    assert!(close(
        world[1].transform_point3(Vec3::X),
        Vec3::new(0.0, 0.0, 9.0)
    ));
    // A pose line with two angles: Rx(90°) first takes +Y to +Z, then Rz(90°) leaves +Z.
    // +X: Rx leaves it, Rz(90°) takes it to +Y.
    let text = b"version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 0\n0 0 0 0 1.5707964 0 1.5707964\nend\n";
    let (model, _) = model_of(text);
    let q = model.skeleton.joints[0].rotation;
    assert!(close(q * Vec3::Y, Vec3::Z), "{}", q * Vec3::Y);
    assert!(close(q * Vec3::X, Vec3::Y), "{}", q * Vec3::X);
    // Rx(90°) then Ry(90°): +Y → +Z → +X.
    let text = b"version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 0\n0 0 0 0 1.5707964 1.5707964 0\nend\n";
    let (model, _) = model_of(text);
    assert!(close(model.skeleton.joints[0].rotation * Vec3::Y, Vec3::X));
}

#[test]
fn weights_links_and_leftovers() {
    let (model, report) = model_of(&fixture("two_bones_reference.smd"));
    let mesh = &model.meshes[0];
    assert_eq!(mesh.name, "skin_material");
    assert_eq!(model.up, UpAxis::Z);
    let at = |p: Vec3| mesh.vertices.iter().find(|v| close(v.position, p)).unwrap();
    // Linked 50/50: both bones, largest first (a tie keeps link order).
    let split = at(Vec3::new(4.0, 0.0, 0.0));
    assert_eq!(split.joints[..2], [JointId(0), JointId(1)]);
    assert_eq!(split.weights, [0.5, 0.5, 0.0, 0.0]);
    // v flipped to the top-left origin.
    assert!((split.uv.y - 1.0).abs() < 1e-6);
    assert!(report.with_code(codes::WEIGHTS_TRUNCATED).next().is_none());

    let (model, report) = model_of(&fixture("comments_crlf_goldsrc_mixed.smd"));
    let skin = &model.meshes[0];
    assert_eq!(
        model.materials[0].texture.as_deref(),
        Some("C:\\models\\skin map.bmp")
    );
    let v = |p: Vec3| skin.vertices.iter().find(|v| close(v.position, p)).unwrap();
    // 9 fields: wholly on the parent (bone 0); link count 0: on the parent (bone 1).
    assert_eq!(
        (
            v(Vec3::new(0.0, 0.0, 40.0)).joints[0],
            v(Vec3::new(0.0, 0.0, 40.0)).weights[0]
        ),
        (JointId(0), 1.0)
    );
    assert_eq!(v(Vec3::new(1.0, 0.0, 40.0)).joints[0], JointId(1));
    // Links 0.25 each to bones 2, 1 and 0 leave 0.25 for the parent (bone 2): 0.5.
    let leftover = v(Vec3::new(1.0, 1.0, 40.0));
    assert_eq!(leftover.joints[0], JointId(2));
    assert!((leftover.weights[0] - 0.5).abs() < 1e-6);
    assert!((leftover.weights.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    assert_eq!(report.with_code(codes::WEIGHTS_RENORMALIZED).count(), 1);
    // Several roots.
    let roots = model
        .skeleton
        .joints
        .iter()
        .filter(|j| j.parent.is_none())
        .count();
    assert_eq!(roots, 2);

    let (model, report) = model_of(&fixture("five_links_and_unknown_block.smd"));
    let v = model.meshes[0]
        .vertices
        .iter()
        .find(|v| v.position == Vec3::ZERO)
        .unwrap();
    // 0.3 (b), 0.25 (d), 0.2 (c), then 0.1 (a, listed before e's 0.1); sum 0.85.
    assert_eq!(v.joints, [JointId(1), JointId(3), JointId(2), JointId(0)]);
    for (w, expected) in v.weights.iter().zip([0.3, 0.25, 0.2, 0.1]) {
        assert!((w - expected / 0.85).abs() < 1e-6, "{:?}", v.weights);
    }
    let truncated: Vec<_> = report.with_code(codes::WEIGHTS_TRUNCATED).collect();
    assert_eq!(truncated.len(), 1);
    assert_eq!(truncated[0].severity, Severity::Loss);
    assert!(report.with_code(codes::UNKNOWN_BLOCKS).next().is_some());
}

#[test]
fn comments_before_the_first_block_are_the_model_comment() {
    let bytes = fixture("comments_crlf_goldsrc_mixed.smd");
    let file = File::from_slice(&bytes).unwrap();
    assert_eq!(file.comment_lines().len(), 4);
    assert_eq!(file.trailing_comment_count(), 5);
    assert!(file.to_vec().windows(2).any(|w| w == b"\r\n"));
    let (model, report) = model_of(&bytes);
    assert_eq!(
        model.comment.as_deref(),
        Some("Created by hand, with every kind of comment\nand a hash line")
    );
    let lost: Vec<_> = report.with_code(codes::COMMENT_LINES).collect();
    assert_eq!(lost.len(), 1);
    assert!(
        lost[0].message.starts_with("7 comment"),
        "{}",
        lost[0].message
    );
    // Written back: `//` lines before `version 1`.
    let (out, _) = from_model(&model, &ConvertOptions::default()).unwrap();
    assert!(
        matches!(&out.items[0], Item::Comment(c) if c == b"// Created by hand, with every kind of comment")
    );
    let (again, _) = to_model(&out, &ConvertOptions::default()).unwrap();
    assert_eq!(again.comment, model.comment);
}

#[test]
fn clockwise_triangles_are_rewound() {
    // Corners (0,0,0) (0,1,0) (1,0,0) turn clockwise seen from +Z, where the normals point.
    let text =
        b"version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\nm\n\
0 0 0 0 0 0 1 0 0\n0 0 1 0 0 0 1 0 1\n0 1 0 0 0 0 1 1 0\n\
m\n0 0 0 1 0 0 1 0 0\n0 1 0 1 0 0 1 1 0\n0 0 1 1 0 0 1 0 1\nend\n";
    let (model, report) = model_of(text);
    let mesh = &model.meshes[0];
    assert_eq!(mesh.winding().disagree, 0);
    assert_eq!(mesh.winding().checked, 2);
    let reversed: Vec<_> = report.with_code(codes::TRIANGLES_REVERSED).collect();
    assert_eq!(reversed.len(), 1);
    assert!(reversed[0].message.starts_with("1 triangle"));
}

#[test]
fn partial_frames_hold_the_previous_values() {
    let (model, report) = model_of(&fixture("two_bones_partial_frames.smd"));
    assert_eq!(model.animations.len(), 1);
    let animation = &model.animations[0];
    assert_eq!(animation.name, "anim");
    assert_eq!(animation.fps, 30.0);
    assert!(report.with_code(codes::DEFAULT_FRAMERATE).next().is_some());
    let mut pose = Pose::new(&model.skeleton).unwrap();
    let local = |pose: &mut Pose, frame: f32| -> Vec<Transform> {
        pose.sample(animation, frame / 30.0);
        pose.local_transforms().to_vec()
    };
    let f1 = local(&mut pose, 1.0);
    assert!(close(f1[0].translation, Vec3::ZERO), "root holds frame 0");
    assert!(f1[1].rotation.dot(Quat::from_rotation_y(1.2)).abs() > 1.0 - 1e-6);
    let f2 = local(&mut pose, 2.0);
    assert!(close(f2[0].translation, Vec3::X));
    assert!(
        f2[1].rotation.dot(Quat::from_rotation_y(1.2)).abs() > 1.0 - 1e-6,
        "bone 1 holds frame 1"
    );
    // Between frames 0 and 1 the root did not move: held, not interpolated towards frame 2.
    let half = local(&mut pose, 1.5);
    assert!(close(half[0].translation, Vec3::new(0.5, 0.0, 0.0)));
    let f05 = local(&mut pose, 0.5);
    assert!(close(f05[0].translation, Vec3::ZERO));
    let options = ConvertOptions {
        fps: 24.0,
        animation_name: "walk".to_owned(),
    };
    let file = File::from_slice(&fixture("two_bones_partial_frames.smd")).unwrap();
    let (model, _) = to_model(&file, &options).unwrap();
    assert_eq!(
        (model.animations[0].name.as_str(), model.animations[0].fps),
        ("walk", 24.0)
    );
    assert!((model.animations[0].duration - 2.0 / 24.0).abs() < 1e-6);
}

#[test]
fn vertex_animation_is_kept_in_the_file_and_reported_lost() {
    let bytes = fixture("flex_shapes.smd");
    let file = File::from_slice(&bytes).unwrap();
    assert!(file.has_vertex_animation());
    let (_, report) = model_of(&bytes);
    let lost: Vec<_> = report.with_code(codes::MORPH_TARGETS).collect();
    assert_eq!(lost.len(), 1);
    assert!(lost[0].message.contains("2 shapes"), "{}", lost[0].message);
}

fn error_of(text: &[u8], options: &ReadOptions) -> (Error, Location) {
    let error = File::from_slice_with(text, options).unwrap_err();
    let location = error.location(text);
    (error, location)
}

const HEAD: &str = "version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n";

#[test]
fn errors_name_the_line_and_column() {
    let lenient = ReadOptions::default();
    let cases: [(String, &str, (u32, u32)); 10] = [
        (
            format!("{HEAD}triangles\nm\n0 0 0 zero 0 0 1 0 0\n"),
            "expected a position coordinate, found `zero`",
            (11, 7),
        ),
        (
            "version 1\nnodes\n0 \"open -1\nend\n".to_owned(),
            "unterminated quoted name",
            (3, 3),
        ),
        (
            format!("{HEAD}triangles\nm\n0 0 0 0 0 0 1 0\n"),
            "line ends early: expected a texture coordinate",
            (11, 16),
        ),
        (
            format!("{HEAD}triangles\nm\n0 0 0 0 0 0 1 0 0\nend\n"),
            "expected 3 vertex lines after the material line, found `end`",
            (12, 1),
        ),
        (
            format!("{HEAD}triangles\nm\n0 0 0 0 0 0 1 0 0\n"),
            "unexpected end of input: the triangle has fewer than 3 vertex lines",
            (12, 1),
        ),
        (
            "version 1\nskeleton\ntime 0\nend\n".to_owned(),
            "no `nodes` block: every SMD file lists its bones",
            (5, 1),
        ),
        (
            "version 1\nnodes\n0 \"a\" -1 extra\nend\n".to_owned(),
            "expected the end of the line, found `extra`",
            (3, 10),
        ),
        (
            "version 1\nnodes\n0 \"a\" -1\nend\nskeleton\n0 0 0 0 0 0 0\nend\n".to_owned(),
            "expected `time N` before the first bone line, found `0`",
            (6, 1),
        ),
        (
            format!("{HEAD}vertexanimation\n0 0 0 0 0 0 1\nend\n"),
            "expected `time N` before the first vertex line, found `0`",
            (10, 1),
        ),
        (
            format!("{HEAD}vertexanimation\ntime x\nend\n"),
            "expected the shape number, found `x`",
            (10, 6),
        ),
    ];
    for (text, message, (line, column)) in cases {
        let (error, location) = error_of(text.as_bytes(), &lenient);
        assert_eq!(error.to_string(), message, "{text}");
        assert_eq!(location, Location::Text { line, column }, "{text}");
        let codec = CODEC.read(text.as_bytes(), &lenient).unwrap_err();
        assert_eq!(codec.location, location);
        assert_eq!(
            codec.to_string(),
            format!("smd: {line}:{column}: {message}")
        );
    }
    let (error, location) = error_of(b"", &lenient);
    assert!(matches!(
        error,
        Error::Format {
            detail: Detail::Empty,
            ..
        }
    ));
    assert_eq!(location, Location::Text { line: 1, column: 1 });
    let (error, _) = error_of(b"// only a comment\n\n", &lenient);
    assert!(matches!(
        error,
        Error::Format {
            detail: Detail::Empty,
            ..
        }
    ));
}

#[test]
fn strict_reading_refuses_what_lenient_reading_warns_about() {
    let cases: [(String, rigport_model_core::Code); 6] = [
        (
            HEAD.replace("version 1", "version 2"),
            codes::UNSUPPORTED_VERSION,
        ),
        (HEAD.replace("version 1\n", ""), codes::MISSING_MAGIC),
        (
            HEAD.replace("0 0 0 0 0 0 0", "7 0 0 0 0 0 0"),
            codes::INDEX_OUT_OF_RANGE,
        ),
        (
            HEAD.replace("0 \"a\" -1", "0 \"a\" -1\n0 \"b\" -1"),
            codes::DUPLICATE_JOINT_IDS,
        ),
        (
            HEAD.replace("0 \"a\" -1", "0 \"a\" 4"),
            codes::MISSING_PARENT,
        ),
        (
            HEAD.trim_end_matches("end\n").to_owned(),
            codes::DAMAGED_TAIL,
        ),
    ];
    for (text, code) in cases {
        let (file, report) = File::from_slice_with(text.as_bytes(), &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let notice = report
            .with_code(code)
            .next()
            .unwrap_or_else(|| panic!("{text}: {report}"));
        // Lenient warnings name their line.
        assert!(
            notice
                .message
                .split(':')
                .next()
                .unwrap()
                .parse::<u32>()
                .is_ok(),
            "{}",
            notice.message
        );
        let error = File::from_slice_with(text.as_bytes(), &ReadOptions::strict()).unwrap_err();
        assert!(matches!(error, Error::Strict { .. }), "{text}: {error}");
        assert!(error.span().is_some());
        to_model(&file, &ConvertOptions::default()).unwrap();
    }
}

#[test]
fn the_read_budget_is_kept() {
    let bytes = fixture("comments_crlf_goldsrc_mixed.smd");
    let mut options = ReadOptions::default();
    options.limits.max_alloc_bytes = 300;
    let error = File::from_slice_with(&bytes, &options).unwrap_err();
    assert!(matches!(error, Error::Limit { .. }), "{error}");
    assert!(error.span().is_some());
}

/// A model with two joints, one skinned triangle and a one-second animation at 24 fps.
fn animated_model() -> Model {
    let (mut model, _) = model_of(&fixture("two_bones_reference.smd"));
    let mut animation = Animation::new("wave hello", 24.0);
    let mut track = Track::new(JointId(1));
    track.rotations = vec![
        Key::new(0.0, model.skeleton.joints[1].rotation),
        Key::new(
            1.0,
            Quat::from_rotation_x(0.5) * model.skeleton.joints[1].rotation,
        ),
    ];
    animation.tracks.push(track);
    model.animations.push(animation);
    model
}

#[test]
fn the_writer_samples_every_frame_with_every_bone() {
    let model = animated_model();
    let (file, report) = animation_from_model(&model, 0, &ConvertOptions::default()).unwrap();
    let frames = file.frames();
    assert_eq!(frames.len(), 25);
    assert!(
        frames
            .iter()
            .enumerate()
            .all(|(i, f)| f.time == i as i32 && f.poses.len() == 2)
    );
    assert!(
        report.with_code(codes::FRAMERATE).next().is_some(),
        "{report}"
    );
    // Read back at its own rate, the animation poses as the model's.
    let options = ConvertOptions {
        fps: 24.0,
        ..ConvertOptions::default()
    };
    let mut back = model.clone();
    back.animations.clear();
    rigport_smd::add_animation(&mut back, &file, "back", &options).unwrap();
    let (mut a, mut b) = (
        Pose::new(&model.skeleton).unwrap(),
        Pose::new(&back.skeleton).unwrap(),
    );
    for frame in [0.0, 7.0, 12.0, 24.0] {
        a.sample(&model.animations[0], frame / 24.0);
        b.sample(&back.animations[0], frame / 24.0);
        for (x, y) in a.world_matrices().iter().zip(b.world_matrices()) {
            assert!(x.abs_diff_eq(*y, 1e-4), "frame {frame}");
        }
    }
}

#[test]
fn the_codec_writes_a_reference_and_one_file_per_animation() {
    let mut model = animated_model();
    let mut second = model.animations[0].clone();
    second.name = "wave/hello".to_owned();
    model.animations.push(second);
    let written = CODEC
        .write(&model, "arm.smd", &WriteOptions::default())
        .unwrap();
    let names: Vec<&str> = written.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["arm.smd", "arm_wave_hello.smd", "arm_wave_hello_2.smd"]
    );
    // Names that differ only in case would be one file on Windows and macOS.
    let mut cased = model.clone();
    cased.animations[0].name = "Walk".to_owned();
    cased.animations[1].name = "walk".to_owned();
    let written_cased = CODEC
        .write(&cased, "arm.smd", &WriteOptions::default())
        .unwrap();
    let cased_names: Vec<&str> = written_cased
        .files
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(cased_names, ["arm.smd", "arm_Walk.smd", "arm_walk_2.smd"]);
    let listed: Vec<_> = written.report.with_code(codes::FILES_WRITTEN).collect();
    assert_eq!(listed.len(), 1);
    for name in names {
        assert!(listed[0].message.contains(name), "{}", listed[0].message);
    }
    assert!(
        written
            .report
            .with_code(codes::ANIMATIONS_DROPPED)
            .next()
            .is_none()
    );
    let (main, _) = from_model(&model, &ConvertOptions::default()).unwrap();
    assert_eq!(main.to_vec(), written.files[0].bytes);
    assert_eq!(CODEC.info().up, UpAxis::Z);
    assert!(CODEC.sniff(&written.files[1].bytes));
}

/// A model with no mesh and one animation (an animation `.smd` read) is written back as that
/// one animation file, which reads back as the same animation; with a mesh, the reference
/// and the animation beside it.
#[test]
fn an_animation_alone_is_written_as_one_animation_file() {
    let mut model = animated_model();
    model.meshes.clear();
    let written = CODEC
        .write(&model, "walk.smd", &WriteOptions::default())
        .unwrap();
    let names: Vec<&str> = written.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["walk.smd"]);
    let (back, _) = CODEC
        .read(&written.files[0].bytes, &ReadOptions::default())
        .unwrap();
    assert!(back.meshes.is_empty());
    assert_eq!(back.animations.len(), 1);
    assert_eq!(back.skeleton.len(), model.skeleton.len());
    // SMD holds no frame rate: the frames come back, at the reader's rate.
    let frames = |a: &Animation| (a.end_time() * a.fps).round();
    assert_eq!(frames(&back.animations[0]), frames(&model.animations[0]));
    let with_mesh = CODEC
        .write(&animated_model(), "walk.smd", &WriteOptions::default())
        .unwrap();
    assert_eq!(with_mesh.files.len(), 2);
}

#[test]
fn models_without_joints_get_a_root_bone() {
    let (mut model, _) = model_of(&fixture("two_bones_reference.smd"));
    model.skeleton.joints.clear();
    for v in model.meshes.iter_mut().flat_map(|m| &mut m.vertices) {
        v.weights = [0.0; 4];
        v.joints = [JointId(0); 4];
    }
    let (file, report) = from_model(&model, &ConvertOptions::default()).unwrap();
    assert!(report.with_code(codes::PLACEHOLDER_JOINTS).next().is_some());
    assert!(report.with_code(codes::UNSKINNED_VERTICES).next().is_none());
    let (back, _) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert_eq!(back.skeleton.joints.len(), 1);
    assert_eq!(back.triangle_count(), 1);
}

#[test]
fn many_warnings_are_counted_not_listed() {
    let mut text = String::from(HEAD);
    text.push_str("triangles\n");
    for _ in 0..40 {
        text.push_str("m\n9 0 0 0 0 0 1 0 0\n9 1 0 0 0 0 1 0 0\n9 0 1 0 0 0 1 0 0\n");
    }
    text.push_str("end\n");
    let (_, report) = File::from_slice_with(text.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(report.notices.len(), 33);
    assert_eq!(report.notices[32].message, "88 further warnings not listed");
    assert!(
        report
            .notices
            .iter()
            .all(|n| n.code == codes::INDEX_OUT_OF_RANGE)
    );
}
