//! Models through the writers and back: small generated models, an animated rig, the
//! joint-added rule, and the two codecs.

use glam::{Quat, Vec3};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use rigport_md5::{ANIM_CODEC, MESH_CODEC};
use rigport_md5::{
    ConvertOptions, File, Kind, anim_from_model, from_model, sniff_kind, to_model,
    to_model_with_animations,
};
use rigport_model_core::codec::Input;
use rigport_model_core::codec::{Companions, Location, WriteOptions};
use rigport_model_core::strategies::small_model;
use rigport_model_core::{
    Animation, Joint, JointId, Key, Mesh, Model, ReadOptions, Track, Vertex, codes,
};
use std::borrow::Cow;
use std::collections::HashMap;

fn world_positions(model: &Model) -> Vec<Vec3> {
    rigport_anim::skeleton::world_bind_matrices(&model.skeleton)
        .unwrap()
        .iter()
        .map(|m| m.w_axis.truncate())
        .collect()
}

fn through_md5(model: &Model) -> (Model, rigport_model_core::Report) {
    let (file, report) = from_model(model, &ConvertOptions::default()).unwrap();
    let bytes = file.to_vec();
    let back = File::from_slice(&bytes).unwrap();
    assert_eq!(back, file, "the written file reads back equal");
    let (model, _) = to_model(&back, &ConvertOptions::default()).unwrap();
    (model, report)
}

/// What a model holds that MD5 carries: corners (position, uv, the joint of a skinned
/// vertex by name), mesh and material names, joints by name with parents and world bind
/// positions.
fn same_in_md5(original: &Model, back: &Model) -> Result<(), String> {
    if original.meshes.len() != back.meshes.len() {
        return Err("mesh count".into());
    }
    let joint_name = |model: &Model, v: &Vertex| {
        v.influences()
            .next()
            .map(|(j, _)| model.skeleton.joints[j.index()].name.clone())
    };
    for (a, b) in original.meshes.iter().zip(&back.meshes) {
        let material = |model: &Model, mesh: &Mesh| {
            mesh.material
                .map(|m| model.materials[m.index()].name.clone())
        };
        if a.name != b.name || material(original, a) != material(back, b) {
            return Err(format!("mesh `{}` became `{}`", a.name, b.name));
        }
        if a.triangles != b.triangles {
            return Err(format!("mesh `{}`: triangles changed", a.name));
        }
        for (va, vb) in a.vertices.iter().zip(&b.vertices) {
            if !va.position.abs_diff_eq(vb.position, 1e-4) || !va.uv.abs_diff_eq(vb.uv, 1e-6) {
                return Err(format!("vertex {va:?} became {vb:?}"));
            }
            let expected = joint_name(original, va).unwrap_or_else(|| "origin".to_owned());
            if Some(expected) != joint_name(back, vb) {
                return Err(format!("vertex {va:?} is bound to another joint: {vb:?}"));
            }
        }
    }
    let (wa, wb) = (world_positions(original), world_positions(back));
    for (i, joint) in original.skeleton.joints.iter().enumerate() {
        let j = back
            .skeleton
            .find(&joint.name)
            .ok_or(format!("joint `{}` lost", joint.name))?;
        let parent = |model: &Model, p: Option<JointId>| {
            p.map(|p| model.skeleton.joints[p.index()].name.clone())
        };
        let back_parent =
            parent(back, back.skeleton.joints[j.index()].parent).filter(|p| p != "origin");
        if parent(original, joint.parent) != back_parent {
            return Err(format!("joint `{}` has another parent", joint.name));
        }
        if !wa[i].abs_diff_eq(wb[j.index()], 1e-4) {
            return Err(format!("joint `{}` moved", joint.name));
        }
    }
    Ok(())
}

#[test]
fn small_models_come_back() {
    let mut runner = TestRunner::deterministic();
    for _ in 0..64 {
        let model = small_model().new_tree(&mut runner).unwrap().current();
        let (back, _) = through_md5(&model);
        if let Err(problem) = same_in_md5(&model, &back) {
            panic!("{problem}\n{model:#?}");
        }
    }
}

#[test]
fn its_own_output_is_recognized_strict_clean_and_stable() {
    let model = rigport_test_support::contract::contract_model();
    let (file, _) = from_model(&model, &ConvertOptions::default()).unwrap();
    let bytes = file.to_vec();
    assert_eq!(sniff_kind(&bytes), Some(Kind::Mesh));
    let (back, report) = File::from_slice_with(&bytes, &ReadOptions::strict()).unwrap();
    assert!(report.is_empty(), "{report}");
    assert_eq!(back.to_vec(), bytes);
}

#[test]
fn unbound_vertices_get_an_added_root() {
    let mut model = rigport_test_support::contract::contract_model();
    let vertex = model.meshes[0]
        .vertices
        .iter_mut()
        .find(|v| v.is_skinned())
        .unwrap();
    vertex.weights = [0.0; 4];
    let (back, report) = through_md5(&model);
    assert_eq!(report.with_code(codes::JOINT_ADDED).count(), 1, "{report}");
    assert_eq!(back.skeleton.joints[0].name, "origin");
    assert_eq!(back.skeleton.len(), model.skeleton.len() + 1);
    same_in_md5(&model, &back).unwrap();
    // A model without joints gets the root too, every vertex on it.
    let mut bare = model.clone();
    bare.skeleton.joints.clear();
    for v in bare.meshes.iter_mut().flat_map(|m| &mut m.vertices) {
        v.weights = [0.0; 4];
    }
    let (back, _) = through_md5(&bare);
    assert_eq!(back.skeleton.len(), 1);
    same_in_md5(&bare, &back).unwrap();
}

/// Two joints, a skinned triangle and a 1-second animation keyed off the frame grid.
fn animated() -> Model {
    let mut model = Model::default();
    let mut root = Joint::new("root");
    root.translation = Vec3::new(0.0, 0.0, 1.0);
    root.rotation = Quat::from_rotation_z(0.4);
    let mut arm = Joint::new("arm");
    arm.parent = Some(JointId(0));
    arm.translation = Vec3::new(2.0, 0.0, 0.0);
    model.skeleton.joints = vec![root, arm];
    let mut mesh = Mesh::new("tri");
    for (p, j) in [(Vec3::ZERO, 0), (Vec3::new(3.0, 0.0, 1.0), 1), (Vec3::Y, 0)] {
        mesh.vertices.push(Vertex {
            position: p,
            joints: [JointId(j), JointId(0), JointId(0), JointId(0)],
            weights: [1.0, 0.0, 0.0, 0.0],
            ..Vertex::default()
        });
    }
    mesh.triangles.push([0, 1, 2]);
    model.meshes.push(mesh);
    let mut animation = Animation::new("walk cycle", 24.0);
    let mut track = Track::new(JointId(1));
    track.rotations = vec![
        Key::new(0.0, Quat::IDENTITY),
        Key::new(0.51, Quat::from_rotation_x(1.2)),
        Key::new(1.0, Quat::from_rotation_y(-0.7)),
    ];
    track.translations = vec![
        Key::new(0.0, Vec3::new(2.0, 0.0, 0.0)),
        Key::new(1.0, Vec3::new(2.5, 0.5, 0.0)),
    ];
    animation.tracks.push(track);
    animation.duration = 1.0;
    model.animations.push(animation);
    model
}

#[test]
fn animations_come_back_at_every_frame() {
    let model = animated();
    let options = ConvertOptions::default();
    let (mesh, _) = from_model(&model, &options).unwrap();
    let (anim, report) = anim_from_model(&model, 0, &options).unwrap();
    assert!(report.is_empty(), "{report}");
    let anim_bytes = anim.to_vec();
    let text = String::from_utf8_lossy(&anim_bytes);
    assert!(
        text.contains("numFrames 25") && text.contains("frameRate 24"),
        "{text}"
    );
    // The root never moves: flags 0. The arm moves in x and y and turns about x and y
    // (slerp between turns about X and Y keeps z 0): flags 1 + 2 + 8 + 16.
    assert!(
        text.contains("\"root\"\t-1 0 0") && text.contains("\"arm\"\t0 27 0"),
        "{text}"
    );
    let mesh = File::from_slice(&mesh.to_vec()).unwrap();
    let anim = File::from_slice_with(&anim_bytes, &ReadOptions::strict())
        .unwrap()
        .0;
    let (back, _) = to_model_with_animations(&mesh, &[("walk cycle", &anim)], &options).unwrap();
    let mut ours = rigport_anim::Pose::new(&model.skeleton).unwrap();
    let mut theirs = rigport_anim::Pose::new(&back.skeleton).unwrap();
    for frame in 0..25 {
        let t = frame as f32 / 24.0;
        ours.sample(&model.animations[0], t);
        theirs.sample(&back.animations[0], t);
        for (a, b) in ours.world_matrices().iter().zip(theirs.world_matrices()) {
            assert!(a.abs_diff_eq(*b, 1e-4), "frame {frame}: {a} vs {b}");
        }
    }
    // The bounds of frame 0 hold the bind triangle.
    let bounds = anim.bounds().next().unwrap();
    let bind = &back.meshes[0].vertices;
    for v in bind {
        for axis in 0..3 {
            let p = f64::from(v.position[axis]);
            assert!(bounds.min[axis] - 1e-5 <= p && p <= bounds.max[axis] + 1e-5);
        }
    }
}

#[test]
fn what_md5anim_cannot_hold_is_reported() {
    let mut model = animated();
    model.animations[0].fps = 29.97;
    model.animations[0].looping = true;
    model.animations[0].tracks[0].scales = vec![Key::new(0.5, Vec3::splat(2.0))];
    let (anim, report) = anim_from_model(&model, 0, &ConvertOptions::default()).unwrap();
    for code in [codes::RESAMPLED, codes::LOOPING, codes::SCALE_KEYS] {
        assert_eq!(report.with_code(code).count(), 1, "{code}: {report}");
    }
    assert!(String::from_utf8_lossy(&anim.to_vec()).contains("frameRate 30"));
    assert!(anim_from_model(&model, 1, &ConvertOptions::default()).is_err());
}

struct Folder(HashMap<String, Vec<u8>>);

impl Companions for Folder {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        self.0.get(name).map(|b| Cow::Borrowed(b.as_slice()))
    }
    fn names(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }
}

/// Animation names survive a write and a read beside the mesh: `hero_<name>.md5anim` is read
/// as `<name>` and an animation named as the mesh is `hero.md5anim`, so a round trip in a
/// folder writes the files it read.
#[test]
fn animation_names_come_back_from_the_files_written() {
    let mut model = animated();
    let mut own = model.animations[0].clone();
    own.name = "hero".to_owned();
    model.animations.insert(0, own);
    let written = MESH_CODEC
        .write(&model, "hero.md5mesh", &WriteOptions::default())
        .unwrap();
    let names: Vec<&str> = written.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["hero.md5mesh", "hero.md5anim", "hero_walk_cycle.md5anim"]
    );
    let folder = Folder(
        written.files[1..]
            .iter()
            .map(|f| (f.name.clone(), f.bytes.clone()))
            .collect(),
    );
    let beside = ReadOptions {
        animations_beside: true,
        ..ReadOptions::default()
    };
    let read = |name| {
        let input = Input::new(&written.files[0].bytes, &beside)
            .beside(&folder)
            .named(name);
        let (back, _) = MESH_CODEC.read_model(&input).unwrap();
        back.animations
            .iter()
            .map(|a| a.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(read(Some("hero.md5mesh")), ["hero", "walk_cycle"]);
    assert_eq!(read(Some("HERO.MD5MESH")), ["hero", "walk_cycle"]);
    // Without the main file's name, each is its file's stem.
    assert_eq!(read(None), ["hero", "hero_walk_cycle"]);
    // Beside another mesh, the prefix is not the mesh's own.
    assert_eq!(read(Some("villain.md5mesh")), ["hero", "hero_walk_cycle"]);
}

#[test]
fn the_codecs_write_read_and_copy() {
    let model = animated();
    let written = MESH_CODEC
        .write(&model, "hero.md5mesh", &WriteOptions::default())
        .unwrap();
    let names: Vec<&str> = written.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["hero.md5mesh", "hero_walk_cycle.md5anim"]);
    let listed = written
        .report
        .with_code(codes::FILES_WRITTEN)
        .next()
        .unwrap();
    assert!(
        listed.message.contains("hero_walk_cycle.md5anim"),
        "{listed}"
    );
    let (mesh, anim) = (&written.files[0].bytes, &written.files[1].bytes);
    assert!(MESH_CODEC.sniff(mesh) && !MESH_CODEC.sniff(anim));
    assert!(ANIM_CODEC.sniff(anim) && !ANIM_CODEC.sniff(mesh));
    assert_eq!(MESH_CODEC.info().up, rigport_model_core::UpAxis::Z);

    // Companions: the animation beside the mesh, named after its file; an unrelated
    // md5anim is skipped.
    let mut folder = HashMap::new();
    folder.insert("hero_walk_cycle.md5anim".to_owned(), anim.clone());
    let other = std::fs::read(rigport_test_support::fixtures::fixture(
        "md5",
        "wrapped_frames.md5anim",
    ))
    .unwrap();
    folder.insert("other.md5anim".to_owned(), other);
    let folder = Folder(folder);
    let (alone, _) = MESH_CODEC
        .read_model(&Input::new(mesh, &ReadOptions::default()).beside(&folder))
        .unwrap();
    assert!(alone.animations.is_empty(), "read only when asked for");
    let beside = ReadOptions {
        animations_beside: true,
        ..ReadOptions::default()
    };
    let (back, report) = MESH_CODEC
        .read_model(&Input::new(mesh, &beside).beside(&folder))
        .unwrap();
    assert_eq!(back.animations.len(), 1);
    assert_eq!(back.animations[0].name, "hero_walk_cycle");
    assert_eq!(
        report.with_code(codes::ANIMATIONS_DROPPED).count(),
        1,
        "{report}"
    );

    let summary = MESH_CODEC
        .open_file(mesh, &ReadOptions::default())
        .map(|(file, _)| file.summary())
        .unwrap();
    assert_eq!(
        (
            summary.joints,
            summary.meshes,
            summary.vertices,
            summary.triangles
        ),
        (2, 1, 3, 1)
    );
    let summary = ANIM_CODEC
        .open_file(anim, &ReadOptions::default())
        .map(|(file, _)| file.summary())
        .unwrap();
    assert_eq!((summary.frames, summary.animations), (25, 1));
    let (copy, _) = MESH_CODEC
        .open_file(mesh, &ReadOptions::default())
        .map(|(file, report)| (file.to_vec(), report))
        .unwrap();
    assert_eq!(&copy, mesh);

    // The anim codec alone: skeleton and one animation; writing needs an animation.
    let (alone, _) = ANIM_CODEC.read(anim, &ReadOptions::default()).unwrap();
    assert_eq!(alone.animations[0].name, "anim");
    assert!(
        ANIM_CODEC
            .write(&Model::default(), "a.md5anim", &WriteOptions::default())
            .is_err()
    );

    // Errors name the line; the wrong kind is refused.
    let bad = b"MD5Version 10\ncommandline \"\"\nnumMeshes 1\njoints {\n\t\"a\" -1 ( 0 0 ) ( 0 0 0 )\n}\n";
    let error = MESH_CODEC.read(bad, &ReadOptions::default()).unwrap_err();
    assert_eq!(
        error.location,
        Location::Text {
            line: 5,
            column: 15
        },
        "{error}"
    );
    assert!(ANIM_CODEC.read(mesh, &ReadOptions::default()).is_err());
}
