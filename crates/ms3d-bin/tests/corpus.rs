//! Every real file of `$RIGPORT_CORPUS/ms3d`: the expected outcome, byte-identical write
//! back, counts that agree with an independent reading, and a conversion whose triangles
//! face the way their stored normals point.

mod common;

use rigport_model_core::glam::Vec3;
use rigport_ms3d_bin::{ConvertOptions, Detail, Error, File, ReadOptions, from_model, to_model};

/// Counts read from the corpus with an independent Python scanner written while
/// studying the files: (file, vertices, triangles, groups, materials, joints, keys,
/// optional blocks).
type Row = (&'static str, u64, u64, u64, u64, u64, usize, &'static str);

const EXPECTED: &[Row] = &[
    ("assimp_InvalidMaterialIndex.ms3d", 1, 1, 1, 1, 0, 0, "none"),
    ("assimp_Wuson.ms3d", 2117, 3732, 1, 0, 0, 0, "all"),
    ("assimp_jeep1.ms3d", 1190, 2032, 7, 1, 0, 0, "none"),
    ("assimp_twospheres.ms3d", 124, 240, 2, 0, 0, 0, "all"),
    (
        "assimp_twospheres_withmats.ms3d",
        124,
        240,
        2,
        2,
        0,
        0,
        "all",
    ),
    ("glscene_BigHoleBox.ms3d", 24, 32, 2, 0, 0, 0, "none"),
    ("glscene_BigHoleBox2.ms3d", 16, 32, 1, 1, 0, 0, "none"),
    ("glscene_Box.ms3d", 8, 12, 2, 0, 0, 0, "none"),
    ("glscene_Chair.ms3d", 612, 1052, 11, 1, 0, 0, "all"),
    ("glscene_Cylinder.ms3d", 158, 312, 1, 0, 0, 0, "none"),
    ("glscene_FreakShip.ms3d", 43, 82, 1, 0, 0, 0, "none"),
    ("glscene_HalfSphere.ms3d", 431, 816, 2, 0, 0, 0, "none"),
    ("glscene_LScene.ms3d", 2672, 5184, 8, 0, 0, 0, "none"),
    ("glscene_Woman4.ms3d", 1789, 3450, 10, 2, 31, 69246, "all"),
    ("glscene_old_Cylinder.ms3d", 158, 312, 3, 0, 0, 0, "none"),
    (
        "glscene_old_Woman4.ms3d",
        1789,
        3450,
        10,
        2,
        31,
        69246,
        "none",
    ),
    ("glscene_scene.ms3d", 334, 648, 5, 0, 0, 0, "none"),
    ("icub_bottomEyeLid.ms3d", 857, 535, 1, 0, 0, 0, "none"),
    ("icub_iCub_Head_b.ms3d", 7798, 5294, 1, 1, 0, 0, "none"),
    ("icub_topEyeLid.ms3d", 790, 454, 1, 0, 0, 0, "none"),
    ("rustms3d_POA.ms3d", 2709, 4756, 76, 1, 0, 0, "all"),
];

/// Files whose core is damaged in their own history (MANIFEST notes) and what the reader
/// trips over (the independent scan runs off the end at the same place): Wuson_broken2018
/// lost 2 bytes, so its keyframer and joint data are shifted and a joint claims 65280
/// translation keys; Head_a lost bytes inside its triangles, so the group count reads 12400.
const DAMAGED_CORE: &[(&str, &str)] = &[
    ("assimp_Wuson_broken2018.ms3d", "translation keys"),
    ("icub_iCub_Head_a.ms3d", "groups"),
];
/// 3 bytes deleted inside the last joint's keys: the core reads, the tail does not.
const DAMAGED_TAIL: &str = "glscene_old_Woman4.ms3d";

fn key_count(file: &File) -> usize {
    file.joints
        .iter()
        .map(|j| j.rotation_keys.len() + j.translation_keys.len())
        .sum()
}

#[test]
fn corpus_files_read_write_back_and_fail_as_expected() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let files = common::ms3d_files(&dir);
    assert_eq!(files.len(), 23, "the corpus holds 23 .ms3d files");
    println!(
        "file | version | vertices | triangles | groups | materials | joints | keys | blocks | result"
    );
    for (name, bytes) in &files {
        if let Some((_, expected_what)) = DAMAGED_CORE.iter().find(|d| d.0 == name) {
            let error = File::from_slice(bytes).expect_err(name);
            assert!(
                matches!(
                    &error,
                    Error::Format { detail: Detail::CountPastEnd { what, .. }, .. }
                        if what == expected_what
                ),
                "{name}: {error}"
            );
            let offset = error.offset().expect("a read error names its offset");
            assert!(offset < bytes.len() as u64 && error.to_string().contains("at byte"));
            println!("{name} | | | | | | | | | error: {error}");
            continue;
        }
        let (file, report) = File::from_slice_with(bytes, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&file.to_vec(), bytes, "{name}: write(read(x)) != x");
        let strict = File::from_slice_with(bytes, &ReadOptions::strict());
        let result = if name == DAMAGED_TAIL {
            let notice = report.notices.first().expect("a damaged-tail warning");
            assert_eq!(notice.code, "damaged-tail");
            // The core ends at 1387172 (independent scan); the tail starts there.
            assert!(notice.message.contains("byte 1387172"), "{notice}");
            assert_eq!(file.tail.len(), bytes.len() - 1_387_172);
            let error = strict.expect_err("strict mode refuses a damaged tail");
            assert_eq!(error.offset(), Some(1_387_172));
            format!("warning: {}", notice.message)
        } else {
            assert!(report.is_empty(), "{name}: {report}");
            assert!(strict.is_ok(), "{name}: {:?}", strict.err());
            "ok".to_owned()
        };
        let expected = EXPECTED
            .iter()
            .find(|e| e.0 == name)
            .unwrap_or_else(|| panic!("{name} is not in the expected table"));
        let summary = file.summary();
        let blocks = file.blocks_present();
        let blocks_text = match blocks.len() {
            0 => "none",
            4 => "all",
            _ => "some",
        };
        assert_eq!(
            (
                summary.vertices,
                summary.triangles,
                summary.meshes,
                summary.materials,
                summary.joints,
                key_count(&file),
                blocks_text
            ),
            (
                expected.1, expected.2, expected.3, expected.4, expected.5, expected.6, expected.7
            ),
            "{name}"
        );
        assert_eq!(summary.animations, u64::from(expected.6 > 0));
        let extra = file
            .vertex_extra
            .as_ref()
            .map(|v| format!(" (vertex extra sv{})", v.sub_version))
            .unwrap_or_default();
        println!(
            "{name} | {} | {} | {} | {} | {} | {} | {} | {}{extra} | {result}",
            file.version,
            summary.vertices,
            summary.triangles,
            summary.meshes,
            summary.materials,
            summary.joints,
            key_count(&file),
            if blocks.is_empty() {
                "none".to_owned()
            } else {
                blocks.join("+")
            },
        );
    }
}

/// Over all corpus triangles, the face normal from the corner order agrees with the stored
/// corner normals: MilkShape winds counter-clockwise seen from the front, like glTF.
#[test]
fn corpus_conversion_keeps_counts_and_front_faces() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let (mut agree, mut disagree) = (0usize, 0usize);
    for (name, bytes) in common::ms3d_files(&dir) {
        let Ok(file) = File::from_slice(&bytes) else {
            continue;
        };
        let options = ConvertOptions::default();
        let (model, report) = to_model(&file, &options).unwrap();
        // MANIFEST: its one group names material 1 of 1.
        let bad_material = report
            .with_code(rigport_model_core::codes::MISSING_MATERIAL)
            .next()
            .is_some();
        assert_eq!(
            bad_material,
            name == "assimp_InvalidMaterialIndex.ms3d",
            "{name}"
        );
        let grouped: usize = file.groups.iter().map(|g| g.triangle_indices.len()).sum();
        assert!(model.triangle_count() <= grouped, "{name}");
        assert_eq!(
            model.animations.len(),
            usize::from(file.has_keys()),
            "{name}"
        );
        for mesh in &model.meshes {
            for t in &mesh.triangles {
                let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
                let face = (b.position - a.position).cross(c.position - a.position);
                let stored: Vec3 = a.normal + b.normal + c.normal;
                let dot = face.dot(stored);
                if dot > 1e-9 {
                    agree += 1;
                } else if dot < -1e-9 {
                    disagree += 1;
                }
            }
        }
        // Back to MilkShape and once more to the model: the same shape of model.
        let (again, _) = from_model(&model, &options).unwrap();
        let (model2, _) = to_model(&again, &options).unwrap();
        assert_eq!(model2.meshes.len(), model.meshes.len(), "{name}");
        for (m1, m2) in model.meshes.iter().zip(&model2.meshes) {
            assert_eq!(m1.triangles.len(), m2.triangles.len(), "{name}");
            assert!(m2.vertices.len() <= m1.vertices.len(), "{name}");
        }
        assert_eq!(model2.skeleton.len(), model.skeleton.len(), "{name}");
    }
    println!("front faces agreeing with stored normals: {agree}, disagreeing: {disagree}");
    assert!(disagree * 100 < agree, "{agree} agree, {disagree} disagree");
}
