//! Writing: the crate's output reads back strictly and byte for byte, a MilkShape model
//! written as PSK and PSA reads back with its triangles, bones and animations, and the
//! `.psk` codec writes every animation into one `.psa` beside the mesh.

mod common;

use rigport_model_core::codec::Input;
use rigport_model_core::codec::{Codec, WriteOptions};
use rigport_model_core::{Model, ReadOptions, UpAxis};
use rigport_psk::{ConvertOptions, File, anim_from_model, from_model, to_model};
use rigport_psk::{PSA_CODEC, PSK_CODEC};
use std::collections::BTreeMap;

fn milkshape() -> Model {
    let path = rigport_test_support::fixtures::fixture("ms3d", "rig_full.ms3d");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = rigport_ms3d_bin::File::from_slice(&bytes).unwrap();
    let (mut model, _) =
        rigport_ms3d_bin::to_model(&file, &rigport_ms3d_bin::ConvertOptions::default()).unwrap();
    // As the facade does before writing a Z-up format.
    model.turn_to(UpAxis::Z);
    model
}

#[test]
fn a_milkshape_model_comes_back_with_its_triangles_bones_and_animations() {
    let model = milkshape();
    assert!(!model.animations.is_empty() && model.skeleton.len() > 1);
    let written = PSK_CODEC
        .write(&model, "rig.psk", &WriteOptions::default())
        .unwrap();
    let names: Vec<&str> = written.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["rig.psk", "rig.psa"]);
    assert_eq!(
        written
            .report
            .with_code(rigport_model_core::codes::FILES_WRITTEN)
            .count(),
        1
    );
    for file in &written.files {
        let (read, report) = File::from_slice_with(&file.bytes, &ReadOptions::strict())
            .unwrap_or_else(|e| panic!("{}: {e}", file.name));
        assert!(report.is_empty(), "{}: {report}", file.name);
        assert_eq!(read.to_vec(), file.bytes, "{}", file.name);
    }
    let beside: BTreeMap<String, Vec<u8>> = written
        .files
        .iter()
        .map(|f| (f.name.clone(), f.bytes.clone()))
        .collect();
    let options = ReadOptions {
        animations_beside: true,
        ..ReadOptions::default()
    };
    let (back, report) = PSK_CODEC
        .read_model(&Input::new(&written.files[0].bytes, &options).beside(&beside))
        .unwrap();
    assert_eq!(back.triangle_count(), model.triangle_count(), "{report}");
    let roots = model
        .skeleton
        .joints
        .iter()
        .filter(|j| j.parent.is_none())
        .count();
    let added = usize::from(roots != 1);
    assert_eq!(back.skeleton.len(), model.skeleton.len() + added);
    for joint in &model.skeleton.joints {
        assert!(back.skeleton.find(&joint.name).is_some(), "{}", joint.name);
    }
    assert_eq!(back.animations.len(), model.animations.len());
    // Every joint's model-space bind position survives.
    let before = rigport_anim::skeleton::world_bind_matrices(&model.skeleton).unwrap();
    let after = rigport_anim::skeleton::world_bind_matrices(&back.skeleton).unwrap();
    for (i, joint) in model.skeleton.joints.iter().enumerate() {
        let j = back.skeleton.find(&joint.name).unwrap().index();
        let (a, b) = (before[i].w_axis, after[j].w_axis);
        assert!(a.abs_diff_eq(b, 1e-3), "{}: {a} became {b}", joint.name);
    }
    // And the pose at a frame in the middle of the first animation.
    let t = model.animations[0].end_time() / 2.0;
    let frame = (t * model.animations[0].fps).round() / model.animations[0].fps;
    let pose = |m: &Model| {
        let mut pose = rigport_anim::Pose::new(&m.skeleton).unwrap();
        let mut animation = m.animations[0].clone();
        rigport_anim::normalize_animation(&mut animation, m.skeleton.len());
        pose.sample(&animation, frame);
        pose.world_matrices().to_vec()
    };
    let (pa, pb) = (pose(&model), pose(&back));
    for (i, joint) in model.skeleton.joints.iter().enumerate() {
        let j = back.skeleton.find(&joint.name).unwrap().index();
        assert!(
            pa[i].w_axis.abs_diff_eq(pb[j].w_axis, 1e-2),
            "{} at {frame}: {} became {}",
            joint.name,
            pa[i].w_axis,
            pb[j].w_axis
        );
    }
}

#[test]
fn the_crates_output_is_stable() {
    let model = milkshape();
    let options = ConvertOptions::default();
    let (psk, _) = from_model(&model, &options).unwrap();
    let (psa, _) = anim_from_model(&model, &options).unwrap();
    for file in [psk, psa] {
        let bytes = file.to_vec();
        let (model, _) = to_model(&File::from_slice(&bytes).unwrap(), &options).unwrap();
        // Written again from what was read: the same geometry and skeleton.
        let again = if file.kind == rigport_psk::Kind::Mesh {
            from_model(&model, &options).unwrap().0
        } else {
            anim_from_model(&model, &options).unwrap().0
        };
        assert_eq!(again.sections.len(), file.sections.len());
        assert_eq!(again.bones(), file.bones());
        assert_eq!(again.faces().len(), file.faces().len());
    }
}

#[test]
fn corpus_files_survive_the_model() {
    for (name, bytes) in common::corpus("psk") {
        let options = ReadOptions::default();
        let codec: &Codec = if name.ends_with(".psa") {
            &PSA_CODEC
        } else {
            &PSK_CODEC
        };
        let (model, _) = codec.read(&bytes, &options).unwrap();
        let written = codec
            .write(&model, &name, &WriteOptions::default())
            .unwrap();
        let (back, _) = codec.read(&written.files[0].bytes, &options).unwrap();
        assert_eq!(back.triangle_count(), model.triangle_count(), "{name}");
        assert_eq!(back.skeleton.len(), model.skeleton.len(), "{name}");
        assert_eq!(back.animations.len(), model.animations.len(), "{name}");
        let copy = codec
            .open_file(&bytes, &options)
            .map(|(file, report)| (file.to_vec(), report))
            .unwrap()
            .0;
        assert_eq!(copy, bytes, "{name}: the faithful copy");
    }
}

#[test]
fn the_codecs_sniff_their_own_kind() {
    let model = milkshape();
    let written = PSK_CODEC
        .write(&model, "a.psk", &WriteOptions::default())
        .unwrap();
    let (psk, psa) = (&written.files[0].bytes, &written.files[1].bytes);
    assert!(PSK_CODEC.sniff(psk) && !PSK_CODEC.sniff(psa));
    assert!(PSA_CODEC.sniff(psa) && !PSA_CODEC.sniff(psk));
    assert!(!PSK_CODEC.sniff(b"INTERQUAKEMODEL\0") && !PSA_CODEC.sniff(b""));
    let error = PSA_CODEC.read(psk, &ReadOptions::default()).unwrap_err();
    assert!(error.to_string().contains("not a .psa"), "{error}");
    let psa_only = PSA_CODEC
        .write(&model, "a.psa", &WriteOptions::default())
        .unwrap();
    assert_eq!(psa_only.files[0].bytes, *psa);
}
