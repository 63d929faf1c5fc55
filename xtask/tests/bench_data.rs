//! The generators make what they promise: hand-computed counts, read back by the format
//! crates, and the helper functions' invariants.

use rigport_model_core::ReadOptions;
use rigport_test_support::synth::rig::{euler_to_quat, noise};
use rigport_test_support::synth::{self, Ms3dSpec, Rig};

#[test]
fn noise_stays_in_range() {
    for seed in 0..10_000 {
        let n = noise(seed);
        assert!((-1.0..1.0).contains(&n), "{n}");
    }
}

#[test]
fn euler_angles_become_the_expected_quaternions() {
    assert_eq!(euler_to_quat([0.0; 3]), [0.0, 0.0, 0.0, 1.0]);
    // A quarter turn about Z is (0, 0, sin 45°, cos 45°).
    let q = euler_to_quat([0.0, 0.0, std::f32::consts::FRAC_PI_2]);
    assert!((q[2] - q[3]).abs() < 1e-6 && q[0] == 0.0 && q[1] == 0.0);
}

#[test]
fn influences_are_four_distinct_joints_summing_to_one() {
    let rig = Rig {
        meshes: 3,
        cols: 10,
        rows: 5,
        joints: 6,
        frames: 2,
    };
    for (mesh, i, j) in [(0, 0, 0), (2, 10, 5), (1, 7, 3)] {
        let inf = rig.influences(mesh, i, j);
        let sum: f32 = inf.iter().map(|p| p.1).sum();
        assert!((sum - 1.0).abs() < 1e-6);
        for a in 0..4 {
            assert!(inf[a].0 < 6);
            for b in a + 1..4 {
                assert_ne!(inf[a].0, inf[b].0);
            }
        }
    }
}

/// 2 grids of 2×1 quads: 6 vertices and 4 triangles each. Keeping 7 triangles drops the
/// last one; asking for 15 vertex records splits 3 shared corners off.
#[test]
fn ms3d_reaches_exact_triangle_and_vertex_counts() {
    let spec = Ms3dSpec {
        rig: Rig {
            meshes: 2,
            cols: 2,
            rows: 1,
            joints: 4,
            frames: 3,
        },
        triangles: 7,
        vertices: 15,
    };
    let bytes = synth::ms3d(&spec);
    let (file, report) = rigport_ms3d_bin::File::from_slice_with(&bytes, &ReadOptions::default())
        .expect("the generated file reads");
    assert!(report.is_empty(), "{report:?}");
    assert_eq!(file.to_vec(), bytes);
    assert_eq!((file.vertices.len(), file.triangles.len()), (15, 7));
    let groups: Vec<usize> = file
        .groups
        .iter()
        .map(|g| g.triangle_indices.len())
        .collect();
    assert_eq!(groups, [4, 3]);
    // The split-off copies stand where the vertices they copy stand.
    for t in &file.triangles {
        for &v in &t.vertex_indices {
            assert!(usize::from(v) < 15);
        }
    }
    let extra = file.vertex_extra.as_ref().expect("weights are stored");
    assert_eq!(extra.sub_version, 2);
    assert_eq!(extra.records[0].weights, [40, 30, 20]);
    assert!(file.joints.iter().all(|j| j.rotation_keys.len() == 3));
}

/// 4 grids of 40×40 quads: 4·41² = 6724 vertices, 4·2·40² = 12800 triangles.
#[test]
fn small_ms3d_converts_with_four_weights_per_vertex() {
    let bytes = synth::ms3d(&synth::small_ms3d());
    let file = rigport_ms3d_bin::File::from_slice(&bytes).expect("reads");
    let summary = file.summary();
    assert_eq!((summary.vertices, summary.triangles), (6724, 12800));
    assert_eq!((summary.joints, summary.frames), (32, 400));
    let (model, _) = rigport_ms3d_bin::to_model(&file, &Default::default()).expect("converts");
    let weights = model.meshes[0].vertices[0].weights;
    let want = [0.4, 0.3, 0.2, 0.1];
    assert!(
        weights.iter().zip(want).all(|(w, x)| (w - x).abs() < 1e-6),
        "{weights:?}"
    );
}

/// `text_rig(1)`: 8 grids of 70×6 quads: 8·71·7 = 3976 vertices, 8·2·70·6 = 6720
/// triangles, 64 joints, 64 frames.
#[test]
fn text_files_read_and_convert() {
    let rig = synth::text_rig(1);
    let ascii = synth::ms3d_ascii(&rig);
    let (file, report) = rigport_ms3d_ascii::File::from_slice_with(
        &ascii,
        &ReadOptions {
            strict: true,
            ..Default::default()
        },
    )
    .expect("the ASCII file reads strictly");
    assert!(report.is_empty(), "{report:?}");
    let summary = file.summary();
    assert_eq!((summary.vertices, summary.triangles), (3976, 6720));
    assert_eq!((summary.joints, summary.frames), (64, 64));
    rigport_ms3d_ascii::to_model(&file, &Default::default()).expect("ASCII converts");

    let iqe = synth::iqe(&rig);
    let (file, report) = rigport_iqe::File::from_slice_with(
        &iqe,
        &ReadOptions {
            strict: true,
            ..Default::default()
        },
    )
    .expect("the IQE file reads strictly");
    assert!(report.is_empty(), "{report:?}");
    let summary = file.summary();
    assert_eq!((summary.vertices, summary.triangles), (3976, 6720));
    assert_eq!((summary.joints, summary.frames), (64, 64));
    let (model, _) = rigport_iqe::to_model(&file, &Default::default()).expect("IQE converts");
    assert_eq!(model.animations[0].fps, 30.0);
}

/// `short_rig(1)`: 4 grids of 100×15 quads: 4·101·16 = 6464 vertices, 4·2·100·15 = 12000
/// triangles, 64 joints, 85 frames; every line is one of the short shapes of `iqe_short`.
#[test]
fn short_line_iqe_reads_strictly_with_the_promised_counts() {
    let iqe = synth::iqe_short(&synth::short_rig(1));
    let (file, report) = rigport_iqe::File::from_slice_with(
        &iqe,
        &ReadOptions {
            strict: true,
            ..Default::default()
        },
    )
    .expect("the short-line IQE file reads strictly");
    assert!(report.is_empty(), "{report:?}");
    let summary = file.summary();
    assert_eq!((summary.vertices, summary.triangles), (6464, 12000));
    assert_eq!((summary.joints, summary.frames), (64, 85));
    let text = String::from_utf8(iqe).unwrap();
    assert_eq!(text.matches("\nvn 0 1 0\nvb 12 0.6 13 0.4\n").count(), 6464);
    // Numbers with 5 decimals: `vp 1.23456 …`.
    let vp = text.lines().find(|l| l.starts_with("vp ")).unwrap();
    assert!(
        vp.split(' ')
            .skip(1)
            .all(|n| n.split('.').nth(1).map(str::len) == Some(5)),
        "{vp}"
    );
    let (model, _) = rigport_iqe::to_model(&file, &Default::default()).expect("IQE converts");
    assert_eq!(model.animations[0].fps, 30.0);
}

/// `anim_rig(1)`: 4 grids of 100×20 quads with one triangle each: 4·101·21 = 8484
/// vertices, 4·100·20 = 8000 triangles, 64 joints, 86 frames (64 · 86 = 5504 `pq` lines, 12 %
/// of the lines).
#[test]
fn anim_iqe_reads_strictly_with_the_promised_counts() {
    let iqe = synth::iqe_anim(&synth::anim_rig(1));
    let (file, report) = rigport_iqe::File::from_slice_with(
        &iqe,
        &ReadOptions {
            strict: true,
            ..Default::default()
        },
    )
    .expect("the animation-heavy IQE file reads strictly");
    assert!(report.is_empty(), "{report:?}");
    let summary = file.summary();
    assert_eq!((summary.vertices, summary.triangles), (8484, 8000));
    assert_eq!((summary.joints, summary.frames), (64, 86));
    let text = String::from_utf8(iqe).unwrap();
    let lines = text.lines().count();
    let pq = text.lines().filter(|l| l.starts_with("pq ")).count();
    assert_eq!(pq, 64 * 86 + 64);
    assert!(
        (0.11..0.13).contains(&(pq as f64 / lines as f64)),
        "{pq} of {lines}"
    );
}

#[test]
fn one_mesh_and_normal_free_variants_hold_the_same_scene() {
    let rig = synth::anim_rig(1);
    let read = |bytes: Vec<u8>| {
        let options = ReadOptions {
            strict: true,
            ..Default::default()
        };
        let (file, report) = rigport_iqe::File::from_slice_with(&bytes, &options)
            .expect("the variant reads strictly");
        assert!(report.is_empty(), "{report:?}");
        let text = String::from_utf8(bytes).unwrap();
        let count = |keyword: &str| text.lines().filter(|l| l.starts_with(keyword)).count();
        (file.summary(), count("mesh "), count("vn "))
    };
    let (plain, meshes, normals) = read(synth::iqe_anim(&rig));
    let (one, one_meshes, one_normals) = read(synth::iqe_anim_one_mesh(&rig));
    let (bare, bare_meshes, bare_normals) = read(synth::iqe_anim_no_normals(&rig));
    assert!(meshes > 1, "{meshes} meshes");
    assert_eq!((one_meshes, one_normals), (1, normals));
    assert_eq!((bare_meshes, bare_normals), (meshes, 0));
    for variant in [&one, &bare] {
        assert_eq!(
            (variant.vertices, variant.triangles, variant.frames),
            (plain.vertices, plain.triangles, plain.frames)
        );
    }
    // Joined, the grids keep their own faces: the one mesh's model has every grid's vertices.
    let (model, _) = rigport_iqe::to_model(
        &rigport_iqe::File::from_slice(&synth::iqe_anim_one_mesh(&rig)).unwrap(),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(model.meshes.len(), 1);
    assert_eq!(model.meshes[0].vertices.len() as u64, plain.vertices);
}
