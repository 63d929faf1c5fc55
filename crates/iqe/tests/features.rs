//! One test per feature of the command set, each on a hand-written fixture whose comments
//! explain the expected values.

mod common;

use common::{fixture, fixture_bytes, scene};
use rigport_iqe::{Attribute, Command, CommandRef, ConvertOptions, File, to_model};
use rigport_model_core::glam::{Quat, Vec3, Vec4};
use rigport_model_core::{ReadOptions, Severity};

fn triangles(name: &str) -> Vec<[u32; 3]> {
    scene(name).triangles.iter().map(|t| t.vertices).collect()
}

#[test]
fn fa_counts_from_the_file_fm_from_the_mesh() {
    let s = scene("fa_vs_fm.iqe");
    assert_eq!(triangles("fa_vs_fm.iqe"), [[0, 1, 2], [3, 4, 5], [0, 1, 2]]);
    assert_eq!(s.meshes[1].triangles, 1..3);
    assert_eq!(s.meshes[1].vertices, 3..6);
}

#[test]
fn negative_indices_count_back_from_the_last_vertex_so_far() {
    assert_eq!(triangles("negative_indices.iqe"), [[0, 1, 2], [4, 2, 3]]);
}

#[test]
fn polygons_fan_from_their_first_index() {
    assert_eq!(
        triangles("polygons.iqe"),
        [
            [0, 1, 2],
            [0, 2, 3],
            [0, 3, 4],
            [5, 6, 7],
            [5, 7, 8],
            [5, 8, 9],
            [5, 9, 10]
        ]
    );
    assert_eq!(fixture("polygons.iqe").summary().triangles, 7);
}

#[test]
fn without_faces_every_three_vertices_of_a_mesh_are_a_triangle() {
    let s = scene("no_faces.iqe");
    assert!(!s.has_faces);
    assert_eq!(triangles("no_faces.iqe"), [[0, 1, 2], [3, 4, 5], [6, 7, 8]]);
    assert_eq!(s.meshes[1].triangles, 2..3);
    // No vn: the normals are generated; all three triangles lie flat with +Z fronts
    // ((p2-p0)x(p1-p0) = X x Y), and the model winds them counter-clockwise.
    let (model, _) = to_model(&fixture("no_faces.iqe"), &ConvertOptions::default()).unwrap();
    for mesh in &model.meshes {
        assert!(mesh.vertices.iter().all(|v| v.normal == Vec3::Z));
    }
}

#[test]
fn vertexarray_declarations_are_kept_in_order_and_written_back() {
    let file = fixture("vertexarray.iqe");
    let declarations: Vec<_> = file
        .commands()
        .filter_map(|c| match c {
            CommandRef::VertexArray(d) => Some(d),
            _ => None,
        })
        .collect();
    assert_eq!(declarations.len(), 4);
    assert_eq!(declarations[2].kind, b"custom0");
    assert_eq!(declarations[2].name.as_deref(), Some(&b"wind"[..]));
    assert_eq!(declarations[3].size, b"9");
    let text = String::from_utf8(file.to_vec()).unwrap();
    assert!(
        text.contains("vertexarray custom0 float 2 \"wind\"\n"),
        "{text}"
    );
    assert!(
        text.contains("vertexarray bogus int 9 \"ignored\"\n"),
        "{text}"
    );
    // v0 given with 2 values, and once with 1: the rest default to 0.
    assert_eq!(
        scene("vertexarray.iqe").custom(0, 2).unwrap(),
        [1.0, 0.0, 0.0, 0.0]
    );
}

#[test]
fn custom_attributes_v0_to_v9_default_missing_components_to_zero() {
    let s = scene("custom_attributes.iqe");
    assert_eq!(s.custom(0, 0).unwrap(), [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(s.custom(2, 1).unwrap(), [1.0, 2.0, 3.0, 0.0]);
    assert_eq!(s.custom(3, 2).unwrap(), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(s.custom(9, 0).unwrap(), [9.0; 4]);
    assert_eq!(s.custom(9, 1).unwrap(), [0.0; 4]);
    assert!((0..10).all(|n| s.array_len(Attribute::Custom(n)) == 3));
    let (_, report) = to_model(
        &fixture("custom_attributes.iqe"),
        &ConvertOptions::default(),
    )
    .unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::CUSTOM_ATTRIBUTES)
            .count(),
        10
    );
}

#[test]
fn tangents_in_both_forms() {
    let s = scene("tangents.iqe");
    assert_eq!(s.tangent(0).unwrap().sign, 1.0);
    assert_eq!(s.tangent(1).unwrap().sign, -1.0);
    assert_eq!(s.tangent(0).unwrap().bitangent, None);
    assert_eq!(s.tangent(2).unwrap().bitangent, Some([0.0, 1.0, 0.0]));
    let (_, report) = to_model(&fixture("tangents.iqe"), &ConvertOptions::default()).unwrap();
    assert!(
        report
            .with_code(rigport_model_core::codes::TANGENTS)
            .any(|n| n.message.starts_with("3 "))
    );
    assert!(
        report
            .with_code(rigport_model_core::codes::BITANGENTS)
            .any(|n| n.message.starts_with("1 "))
    );
}

#[test]
fn blends_with_no_pairs_and_with_six_keep_the_four_largest() {
    let s = scene("blends.iqe");
    assert!(s.blend(0).unwrap().is_empty());
    assert_eq!(s.blend(1).unwrap().len(), 6);
    let (model, report) = to_model(&fixture("blends.iqe"), &ConvertOptions::default()).unwrap();
    let mesh = &model.meshes[0];
    // Model vertices follow first use by the triangle (0, 2, 1 after rewinding); find by y.
    let v = mesh.vertices.iter().find(|v| v.position.y == 1.0).unwrap();
    // 6 pairs: j2 0.3, j1 0.2, j5 0.2, j3 0.15 kept (sum 0.85); j0 0.1, j4 0.05 dropped.
    let joints: Vec<u32> = v.joints.iter().map(|j| j.0).collect();
    assert_eq!(joints, [2, 1, 5, 3]);
    let expected = [0.3 / 0.85, 0.2 / 0.85, 0.2 / 0.85, 0.15 / 0.85];
    for (w, e) in v.weights.iter().zip(expected) {
        assert!((w - e).abs() < 1e-6, "{:?}", v.weights);
    }
    let unskinned = mesh
        .vertices
        .iter()
        .find(|v| v.position == Vec3::ZERO)
        .unwrap();
    assert!(!unskinned.is_skinned());
    let loss: Vec<_> = report
        .with_code(rigport_model_core::codes::WEIGHTS_TRUNCATED)
        .collect();
    assert_eq!(loss.len(), 1);
    assert!(
        loss[0].message.starts_with("1 vertices"),
        "{}",
        loss[0].message
    );
    assert_eq!(loss[0].severity, Severity::Loss);
}

#[test]
fn colors_with_three_values_get_alpha_one() {
    let s = scene("colors.iqe");
    assert_eq!(s.color(0).unwrap(), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(s.color(1).unwrap(), [0.0, 1.0, 0.0, 0.5]);
    let (model, _) = to_model(&fixture("colors.iqe"), &ConvertOptions::default()).unwrap();
    assert!(model.meshes[0].has_colors);
    assert!(
        model.meshes[0]
            .vertices
            .iter()
            .any(|v| v.color == Vec4::new(1.0, 0.0, 0.0, 1.0))
    );
}

#[test]
fn poses_pq_pm_pa_give_the_hand_computed_transforms() {
    let s = scene("poses.iqe");
    let close = |a: Vec3, b: Vec3| (a - b).length() < 1e-5;
    // pq 1 2 3 0.6 0 0: w = -sqrt(1 - 0.36) = -0.8.
    let p = s.base_pose(0).unwrap();
    assert_eq!(p.translation, Vec3::new(1.0, 2.0, 3.0));
    assert!((p.rotation.w + 0.8).abs() < 1e-6 && (p.rotation.x - 0.6).abs() < 1e-6);
    // pq with w: 90 degrees about Y takes +Z to +X.
    assert!(close(s.base_pose(1).unwrap().rotation * Vec3::Z, Vec3::X));
    // pq with 10 values: scale (2, 3, 4).
    assert_eq!(s.base_pose(2).unwrap().scale, Vec3::new(2.0, 3.0, 4.0));
    // pm rows [0 -3 0] [2 0 0] [0 0 4]: columns (0,2,0) (-3,0,0) (0,0,4) have lengths
    // 2, 3, 4; dividing them out leaves 90 degrees about Z (+X to +Y).
    let m = s.base_pose(3).unwrap();
    assert!(close(m.scale, Vec3::new(2.0, 3.0, 4.0)), "{:?}", m.scale);
    assert!(close(m.rotation * Vec3::X, Vec3::Y));
    assert_eq!(m.translation, Vec3::new(5.0, 0.0, 0.0));
    // pa: pi/2 about X takes +Y to +Z.
    assert!(close(s.base_pose(4).unwrap().rotation * Vec3::Y, Vec3::Z));
    let (model, _) = to_model(&fixture("poses.iqe"), &ConvertOptions::default()).unwrap();
    assert_eq!(model.skeleton.joints[3].scale, m.scale);
}

#[test]
fn skeleton_only_with_interleaved_poses_and_several_roots() {
    let file = fixture("skeleton_only.iqe");
    let s = file.scene().unwrap();
    let parents: Vec<_> = s.joints.iter().map(|j| j.parent).collect();
    assert_eq!(parents, [None, Some(0), None, None, Some(2)]);
    assert_eq!(s.base_poses.len(), 5);
    assert_eq!(
        s.base_pose(3).unwrap().translation,
        Vec3::new(0.0, 0.0, 3.0)
    );
    let summary = file.summary();
    assert_eq!(
        (summary.joints, summary.meshes, summary.triangles),
        (5, 0, 0)
    );
    let (model, report) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert_eq!(model.skeleton.len(), 5);
    assert_eq!(report.count(Severity::Warning), 0, "{report}");
}

#[test]
fn animation_only_files_get_placeholder_joints_and_keys_in_seconds() {
    let file = fixture("animation_only.iqe");
    let summary = file.summary();
    assert_eq!(
        (summary.animations, summary.frames, summary.joints),
        (2, 4, 0)
    );
    let (model, report) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert_eq!(model.skeleton.len(), 2);
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::PLACEHOLDER_JOINTS)
            .count(),
        1
    );
    let walk = &model.animations[0];
    assert!(walk.looping);
    assert_eq!(walk.fps, 10.0);
    // Frame k at k / 10 seconds; joint 0 moves 0 -> 0.5 -> 1 along Y.
    let times: Vec<f32> = walk.tracks[0].translations.iter().map(|k| k.time).collect();
    assert_eq!(times, [0.0, 0.1, 0.2]);
    assert_eq!(
        walk.tracks[0].translations[1].value,
        Vec3::new(0.0, 0.5, 0.0)
    );
    // No framerate: the documented default, 24.
    assert_eq!(model.animations[1].fps, 24.0);
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::DEFAULT_FRAMERATE)
            .count(),
        1
    );
}

#[test]
fn the_comment_section_is_kept_verbatim() {
    let bytes = fixture_bytes("comment_section.iqe");
    let file = fixture("comment_section.iqe");
    let start = bytes.windows(8).position(|w| w == b"comment\n").unwrap() + 8;
    assert_eq!(file.comment.as_deref(), Some(&bytes[start..]));
    assert_eq!(
        file.summary().vertices,
        3,
        "lines after `comment` are not commands"
    );
    assert!(file.to_vec().ends_with(&bytes[start - 8..]));
    let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert!(model.comment.unwrap().contains("café"));
}

#[test]
fn crlf_tabs_blank_lines_leading_spaces_and_frame_numbers() {
    let bytes = fixture_bytes("crlf.iqe");
    let (file, report) = File::from_slice_with(&bytes, &ReadOptions::strict()).unwrap();
    assert!(report.is_empty(), "{report}");
    let s = file.scene().unwrap();
    assert_eq!(s.triangles.len(), 1);
    assert_eq!(s.materials, [b"stone".to_vec()]);
    assert_eq!(s.animations[0].frames.len(), 2);
    assert!(file.commands().any(|c| c == CommandRef::Frame(Some(b"1"))));
    assert!(!file.to_vec().contains(&b'\r'));
}

#[test]
fn unquoted_utf8_and_latin1_names_keep_their_bytes() {
    let file = fixture("names.iqe");
    let s = file.scene().unwrap();
    assert_eq!(s.joints[0].name, b"Bone");
    assert_eq!(s.joints[1].name, b"caf\xe9");
    assert_eq!(s.joints[2].name, b"Schulter links");
    assert_eq!(s.meshes[0].name, "Körper".as_bytes());
    assert_eq!(s.meshes[0].material, "Stoff Ä".as_bytes());
    let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert_eq!(model.skeleton.joints[1].name, "café");
    assert_eq!(model.meshes[0].name, "Körper");
    assert_eq!(model.materials[0].name, "Stoff Ä");
    let again = File::from_slice(&file.to_vec()).unwrap();
    assert_eq!(again, file);
}

#[test]
fn unknown_commands_are_kept_in_order_and_warned_about() {
    let bytes = fixture_bytes("unknown_commands.iqe");
    let (file, report) = File::from_slice_with(&bytes, &ReadOptions::default()).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::UNKNOWN_COMMAND)
            .count(),
        2,
        "{report}"
    );
    assert!(report.notices[0].message.starts_with("line 3:"), "{report}");
    assert_eq!(
        file.command(1).map(|c| c.to_command()),
        Some(Command::Unknown(b"bogus 1 2 3".to_vec()))
    );
    // The trailing comment follows its face.
    assert_eq!(
        file.commands().last().map(|c| c.to_command()),
        Some(Command::Comment(b" a trailing comment".to_vec()))
    );
    assert!(File::from_slice_with(&bytes, &ReadOptions::strict()).is_err());
    let (_, loss) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert_eq!(
        loss.with_code(rigport_model_core::codes::UNKNOWN_COMMANDS)
            .count(),
        1
    );
}

#[test]
fn header_tolerates_bom_spaces_and_text_after_export() {
    assert!(rigport_iqe::sniff(
        b"\xEF\xBB\xBF  # Inter-Quake Export v2\n"
    ));
    assert!(!rigport_iqe::sniff(b"# Inter Quake Export\n"));
    let file = File::from_slice(b"\t# Inter-Quake Export  extra\r\nmesh\n").unwrap();
    assert_eq!(file.header_extra, b"  extra");
    assert_eq!(file.to_vec(), b"# Inter-Quake Export  extra\n\nmesh\n");
}

#[test]
fn frames_with_the_wrong_pose_count_warn_and_fail_strict() {
    let src = b"# Inter-Quake Export\njoint a -1\njoint b 0\npq 0 0 0\npq 0 0 0\nanimation x\nframe\npq 0 0 0\n";
    let (_, report) = File::from_slice_with(src, &ReadOptions::default()).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::FRAME_POSE_COUNT)
            .count(),
        1,
        "{report}"
    );
    assert!(report.notices[0].message.starts_with("line 7:"), "{report}");
    assert!(File::from_slice_with(src, &ReadOptions::strict()).is_err());
}

#[test]
fn from_model_round_trips_geometry_skeleton_and_animation() {
    let file = fixture("crlf.iqe");
    let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
    let (written, report) = rigport_iqe::from_model(&model, &ConvertOptions::default()).unwrap();
    assert_eq!(report.count(Severity::Loss), 0, "{report}");
    let reread = File::from_slice(&written.to_vec()).unwrap();
    let (back, _) = to_model(&reread, &ConvertOptions::default()).unwrap();
    assert_eq!(back.meshes[0].triangles, model.meshes[0].triangles);
    assert_eq!(back.meshes[0].vertices, model.meshes[0].vertices);
    assert_eq!(back.skeleton, model.skeleton);
    assert_eq!(back.animations[0].tracks, model.animations[0].tracks);
    assert_eq!(back.animations[0].fps, 30.0);
    let rotation: Quat = back.animations[0].tracks[0].rotations[1].value;
    assert_eq!(rotation, Quat::IDENTITY);
}

#[test]
fn from_model_leaves_out_vertices_when_no_triangle_exists() {
    // Without any face command IQE makes triangles of every 3 vertices, so writing the two
    // loose vertices would invent geometry; they are left out and the loss is reported.
    use rigport_model_core::{Mesh, Model, Vertex};
    let mut model = Model::default();
    let mut mesh = Mesh::new("points");
    mesh.vertices = vec![Vertex::default(); 2];
    model.meshes.push(mesh);
    let (file, report) = rigport_iqe::from_model(&model, &ConvertOptions::default()).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::FACELESS_VERTICES)
            .count(),
        1
    );
    let bytes = file.to_vec();
    let (back, _) = File::from_slice_with(&bytes, &ReadOptions::strict()).unwrap();
    let (back_model, _) = to_model(&back, &ConvertOptions::default()).unwrap();
    assert_eq!(back_model.triangle_count(), 0);
    assert_eq!(back_model.vertex_count(), 0);
}

#[test]
fn from_model_keeps_names_on_one_line_and_refuses_dangling_indices() {
    use rigport_model_core::{Joint, JointId, Mesh, Model, Vertex};
    let mut model = Model::default();
    model.skeleton.joints.push(Joint::new("upper\narm"));
    let (file, report) = rigport_iqe::from_model(&model, &ConvertOptions::default()).unwrap();
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::NAME_QUOTES)
            .count(),
        1
    );
    let (back, _) = File::from_slice_with(&file.to_vec(), &ReadOptions::strict()).unwrap();
    let (back_model, _) = to_model(&back, &ConvertOptions::default()).unwrap();
    assert_eq!(back_model.skeleton.joints.len(), 1);
    assert_eq!(back_model.skeleton.joints[0].name, "upper arm");

    model.skeleton.joints[0].parent = Some(JointId(7));
    assert!(rigport_iqe::from_model(&model, &ConvertOptions::default()).is_err());
    model.skeleton.joints[0].parent = None;
    let mut mesh = Mesh::new("m");
    mesh.vertices = vec![Vertex::default(); 3];
    mesh.triangles = vec![[0, 1, 3]];
    model.meshes.push(mesh);
    let err = rigport_iqe::from_model(&model, &ConvertOptions::default()).unwrap_err();
    let problem = model.check_references().into_iter().next().unwrap();
    assert!(
        matches!(
            problem,
            rigport_model_core::ReferenceProblem::TriangleVertex {
                vertex: 3,
                vertices: 3,
                ..
            }
        ),
        "{problem}"
    );
    assert!(
        matches!(&err, rigport_iqe::Error::InvalidModel(message) if *message == problem.to_string()),
        "{err}"
    );
}

#[test]
fn empty_frames_and_many_joints_allocate_by_poses_and_warn_once() {
    // 2000 joints and 5000 frames with no poses: reserving frames × joints keys up front
    // would be 10 million keys; nothing is reserved and one warning names the count.
    let mut text = String::from("# Inter-Quake Export\n");
    for _ in 0..2000 {
        text.push_str("joint a\n");
    }
    text.push_str("animation run\n");
    for _ in 0..5000 {
        text.push_str("frame\n");
    }
    let (file, report) = File::from_slice_with(text.as_bytes(), &ReadOptions::default()).unwrap();
    let counts: Vec<_> = report
        .with_code(rigport_model_core::codes::FRAME_POSE_COUNT)
        .collect();
    assert_eq!(counts.len(), 1, "{report}");
    assert!(
        counts[0].message.contains(": 5000 frames do not hold"),
        "{}",
        counts[0].message
    );
    let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
    assert!(model.animations.iter().all(|a| a.tracks.is_empty()));
}
