//! Posing against the IQM SDK (`iqm`, the format notes' oracle), when `RIGPORT_IQM_SDK`
//! names its compiler and `RIGPORT_CORPUS` is set; skipped otherwise.
//!
//! For each corpus mesh with its animation, the SDK compiles the original files to an IQM,
//! and again the files this crate writes from the model it read. A small IQM reader here
//! (the crate may not depend on rigport-iqm) poses the SDK's vertices at every 4th frame;
//! this crate's model is posed with `rigport_anim` and skinned; vertices are matched by bind
//! position and UV. Every posed vertex must agree within 2e-3 of the model's size.
//!
//! The same for `synth::md5_flags`, whose joints carry every component-flag pattern.

use glam::{Mat4, Quat, Vec2, Vec3};
use rigport_md5::MESH_CODEC;
use rigport_md5::{ConvertOptions, File, to_model_with_animations};
use rigport_test_support::corpus;
use std::path::{Path, PathBuf};
use std::process::Command;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// What the test needs of an IQM file: bind vertices (position, uv, 4 joints, 4 weights),
/// joint parents and bind transforms, and each frame's local joint transforms.
struct Iqm {
    positions: Vec<Vec3>,
    uvs: Vec<Vec2>,
    blend: Vec<([u8; 4], [u8; 4])>,
    parents: Vec<i32>,
    bind: Vec<Mat4>,
    frames: Vec<Vec<Mat4>>,
}

fn read_iqm(b: &[u8]) -> Iqm {
    assert!(b.starts_with(b"INTERQUAKEMODEL\0"), "not an IQM");
    let h = |i: usize| u32_at(b, 16 + 4 * i) as usize;
    // Header fields after magic: version, filesize, flags, num_text, ofs_text, num_meshes,
    // ofs_meshes, num_vertexarrays, num_vertexes, ofs_vertexarrays, num_triangles,
    // ofs_triangles, ofs_adjacency, num_joints, ofs_joints, num_poses, ofs_poses, num_anims,
    // ofs_anims, num_frames, num_framechannels, ofs_frames, …
    let (num_arrays, num_vertexes, ofs_arrays) = (h(7), h(8), h(9));
    let (num_joints, ofs_joints, num_poses, ofs_poses) = (h(13), h(14), h(15), h(16));
    let (num_frames, ofs_frames) = (h(19), h(21));
    let mut iqm = Iqm {
        positions: Vec::new(),
        uvs: Vec::new(),
        blend: vec![([0; 4], [0; 4]); num_vertexes],
        parents: Vec::new(),
        bind: Vec::new(),
        frames: Vec::new(),
    };
    for a in 0..num_arrays {
        let at = ofs_arrays + 20 * a;
        let (kind, format, size, offset) = (
            u32_at(b, at),
            u32_at(b, at + 8),
            u32_at(b, at + 12) as usize,
            u32_at(b, at + 16) as usize,
        );
        match (kind, format) {
            (0, 7) => {
                iqm.positions = (0..num_vertexes)
                    .map(|v| {
                        let p = offset + 12 * v;
                        Vec3::new(f32_at(b, p), f32_at(b, p + 4), f32_at(b, p + 8))
                    })
                    .collect()
            }
            (1, 7) => {
                iqm.uvs = (0..num_vertexes)
                    .map(|v| Vec2::new(f32_at(b, offset + 8 * v), f32_at(b, offset + 8 * v + 4)))
                    .collect()
            }
            (4, 1) | (5, 1) => {
                assert_eq!(size, 4);
                for v in 0..num_vertexes {
                    let four: [u8; 4] = b[offset + 4 * v..offset + 4 * v + 4].try_into().unwrap();
                    if kind == 4 {
                        iqm.blend[v].0 = four;
                    } else {
                        iqm.blend[v].1 = four;
                    }
                }
            }
            _ => {}
        }
    }
    let transform = |at: usize, t: [f32; 10]| {
        let _ = at;
        Mat4::from_scale_rotation_translation(
            Vec3::new(t[7], t[8], t[9]),
            Quat::from_xyzw(t[3], t[4], t[5], t[6]).normalize(),
            Vec3::new(t[0], t[1], t[2]),
        )
    };
    for j in 0..num_joints {
        let at = ofs_joints + 48 * j;
        iqm.parents.push(u32_at(b, at + 4) as i32);
        let t: [f32; 10] = std::array::from_fn(|i| f32_at(b, at + 8 + 4 * i));
        iqm.bind.push(transform(at, t));
    }
    let mut channels = ofs_frames;
    for _ in 0..num_frames {
        let mut frame = Vec::new();
        for p in 0..num_poses {
            let at = ofs_poses + 88 * p;
            let mask = u32_at(b, at + 4);
            let mut t = [0f32; 10];
            for (c, value) in t.iter_mut().enumerate() {
                *value = f32_at(b, at + 8 + 4 * c);
                if mask & (1 << c) != 0 {
                    let q = u16::from_le_bytes([b[channels], b[channels + 1]]);
                    channels += 2;
                    *value += f32::from(q) * f32_at(b, at + 48 + 4 * c);
                }
            }
            frame.push(transform(at, t));
        }
        iqm.frames.push(frame);
    }
    iqm
}

fn world(parents: &[i32], locals: &[Mat4]) -> Vec<Mat4> {
    let mut out: Vec<Mat4> = Vec::with_capacity(locals.len());
    for (j, local) in locals.iter().enumerate() {
        // The SDK writes parents before children.
        let m = match usize::try_from(parents[j]) {
            Ok(p) if p < j => out[p] * *local,
            _ => *local,
        };
        out.push(m);
    }
    out
}

impl Iqm {
    /// Every vertex posed at `frame`.
    fn posed(&self, frame: usize) -> Vec<Vec3> {
        let bind = world(&self.parents, &self.bind);
        let posed = world(&self.parents, &self.frames[frame]);
        let skin: Vec<Mat4> = posed
            .iter()
            .zip(&bind)
            .map(|(p, b)| *p * b.inverse())
            .collect();
        self.positions
            .iter()
            .zip(&self.blend)
            .map(|(p, (joints, weights))| {
                let mut out = Vec3::ZERO;
                for k in 0..4 {
                    let w = f32::from(weights[k]) / 255.0;
                    if w > 0.0 {
                        out += w * skin[joints[k] as usize].transform_point3(*p);
                    }
                }
                out
            })
            .collect()
    }
}

fn sdk() -> Option<PathBuf> {
    match std::env::var_os("RIGPORT_IQM_SDK") {
        Some(path) => Some(PathBuf::from(path)),
        None => {
            println!("skipped: RIGPORT_IQM_SDK not set");
            None
        }
    }
}

fn compile(sdk: &Path, dir: &Path, mesh: &Path, anim: &Path) -> Iqm {
    let out = dir.join("out.iqm");
    let status = Command::new(sdk)
        .arg(&out)
        .arg(mesh)
        .arg(anim)
        .current_dir(dir)
        .output()
        .expect("the SDK runs");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    read_iqm(&std::fs::read(&out).unwrap())
}

/// The largest distance between the SDK's and our posed vertices at every 4th frame,
/// relative to the model's size.
fn compare(iqm: &Iqm, model: &rigport_model_core::Model) -> f32 {
    let ours: Vec<&rigport_model_core::Vertex> =
        model.meshes.iter().flat_map(|m| &m.vertices).collect();
    let (min, max) = ours.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(a, b), v| (a.min(v.position), b.max(v.position)),
    );
    let size = (max - min).length();
    // Nearest of our vertices for each of the SDK's, by bind position and uv.
    let matched: Vec<usize> = iqm
        .positions
        .iter()
        .zip(&iqm.uvs)
        .map(|(p, uv)| {
            (0..ours.len())
                .min_by(|&a, &b| {
                    let d = |i: usize| {
                        (ours[i].position - *p).length_squared()
                            + (ours[i].uv - *uv).length_squared()
                    };
                    d(a).total_cmp(&d(b))
                })
                .unwrap()
        })
        .collect();
    for (i, p) in matched.iter().zip(&iqm.positions) {
        assert!(
            (ours[*i].position - *p).length() < 1e-3 * size,
            "bind mismatch"
        );
    }
    let animation = &model.animations[0];
    let mut pose = rigport_anim::Pose::new(&model.skeleton).unwrap();
    let mut worst = 0.0f32;
    for frame in (0..iqm.frames.len()).step_by(4) {
        pose.sample(animation, frame as f32 / animation.fps);
        let theirs = iqm.posed(frame);
        for (t, i) in theirs.iter().zip(&matched) {
            let (p, _) = rigport_anim::skin::skin_vertex(pose.skinning_matrices(), ours[*i]);
            worst = worst.max((p - *t).length() / size);
        }
    }
    worst
}

#[test]
fn posing_matches_the_iqm_sdk() {
    let (Some(sdk), Some(dir)) = (sdk(), corpus::corpus_dir("md5")) else {
        return;
    };
    let scratch = std::env::temp_dir().join(format!("rigport-md5-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for (mesh, anim) in [
        ("unv_blaster_view.md5mesh", "unv_blaster_view_raise.md5anim"),
        ("unv_blaster_view.md5mesh", "unv_blaster_view_fire.md5anim"),
        ("unv_mdriver_view.md5mesh", "unv_mdriver_view_fire.md5anim"),
        ("assimp_Bob.md5mesh", "assimp_Bob.md5anim"),
    ] {
        let (mesh_path, anim_path) = (dir.join(mesh), dir.join(anim));
        let mesh_file = File::from_slice(&std::fs::read(&mesh_path).unwrap()).unwrap();
        let anim_file = File::from_slice(&std::fs::read(&anim_path).unwrap()).unwrap();
        let (model, _) = to_model_with_animations(
            &mesh_file,
            &[("anim", &anim_file)],
            &ConvertOptions::default(),
        )
        .unwrap();
        // The SDK on the original files.
        let original = compile(&sdk, &scratch, &mesh_path, &anim_path);
        let worst = compare(&original, &model);
        println!("{mesh} + {anim}: SDK on the originals, worst {worst:.2e} of the model size");
        assert!(worst < 2e-3, "{mesh} + {anim}: {worst}");
        // The SDK on what this crate writes from the model.
        let written = MESH_CODEC
            .write(&model, "written.md5mesh", &Default::default())
            .unwrap();
        for file in &written.files {
            std::fs::write(scratch.join(&file.name), &file.bytes).unwrap();
        }
        let ours = compile(
            &sdk,
            &scratch,
            &scratch.join(&written.files[0].name),
            &scratch.join(&written.files[1].name),
        );
        let worst = compare(&ours, &model);
        println!("{mesh} + {anim}: SDK on the written files, worst {worst:.2e} of the model size");
        assert!(worst < 2e-3, "{mesh} + {anim} written: {worst}");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// The 64 joints of `synth::md5_flags` (every component-flag pattern, a baseframe unlike the
/// bind pose) compiled by the SDK: its joints posed at every frame must agree with the
/// by-hand pose and with this crate's within 2e-3 of the model's size.
#[test]
fn every_flag_pattern_poses_as_the_iqm_sdk_does() {
    let Some(sdk) = sdk() else {
        return;
    };
    const FRAMES: usize = 5;
    let synth = rigport_test_support::synth::md5_flags(FRAMES);
    let scratch = std::env::temp_dir().join(format!("rigport-md5-flags-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let (mesh_path, anim_path) = (scratch.join("flags.md5mesh"), scratch.join("flags.md5anim"));
    std::fs::write(&mesh_path, &synth.mesh).unwrap();
    std::fs::write(&anim_path, &synth.anim).unwrap();
    let iqm = compile(&sdk, &scratch, &mesh_path, &anim_path);
    assert_eq!(iqm.frames.len(), FRAMES, "frames");
    let mesh_file = File::from_slice(synth.mesh.as_bytes()).unwrap();
    let anim_file = File::from_slice(synth.anim.as_bytes()).unwrap();
    let (model, _) = to_model_with_animations(
        &mesh_file,
        &[("flags", &anim_file)],
        &ConvertOptions::default(),
    )
    .unwrap();
    // The `.md5anim` read alone, its tracks moved onto the mesh's joints by name (how
    // another file's animations are attached to a model).
    let (mut attached, _) =
        to_model_with_animations(&mesh_file, &[], &ConvertOptions::default()).unwrap();
    let (source, _) = rigport_md5::ANIM_CODEC
        .read(synth.anim.as_bytes(), &Default::default())
        .unwrap();
    let mut animation = source.animations[0].clone();
    for track in &mut animation.tracks {
        let name = &source.skeleton.joints[track.joint.index()].name;
        track.joint = attached.skeleton.find(name).unwrap();
    }
    attached.animations.push(animation);
    let bind = synth.bind_vertices();
    let (min, max) = bind.iter().fold(
        (glam::DVec3::splat(f64::MAX), glam::DVec3::splat(f64::MIN)),
        |(a, b), p| (a.min(*p), b.max(*p)),
    );
    let size = (max - min).length() as f32;
    // The SDK orders vertices its own way: each of its vertices is the synthetic vertex at
    // the same bind position.
    let matched: Vec<usize> = iqm
        .positions
        .iter()
        .map(|p| {
            let k = (0..bind.len())
                .min_by(|&a, &b| {
                    let d = |i: usize| bind[i].as_vec3().distance(*p);
                    d(a).total_cmp(&d(b))
                })
                .unwrap();
            assert!(
                bind[k].as_vec3().distance(*p) < 1e-5 * size,
                "bind mismatch"
            );
            k
        })
        .collect();
    assert_eq!(matched.len(), bind.len(), "vertices");
    let mut pose = rigport_anim::Pose::new(&model.skeleton).unwrap();
    let (mut by_hand, mut ours, mut ours_attached) = (0.0f32, 0.0f32, 0.0f32);
    for frame in 0..FRAMES {
        // The SDK keeps the joints in file order (parents come first here).
        let theirs = world(&iqm.parents, &iqm.frames[frame]);
        let time = frame as f32 / synth.fps as f32;
        let positions = |pose: &rigport_anim::Pose| -> Vec<Vec3> {
            pose.world_matrices()
                .iter()
                .map(|m| m.transform_point3(Vec3::ZERO))
                .collect()
        };
        pose.sample(&model.animations[0], time);
        let together = positions(&pose);
        pose.sample(&attached.animations[0], time);
        let apart = positions(&pose);
        for (j, (position, _)) in synth.posed_joints(frame).iter().enumerate() {
            let sdk_position = theirs[j].transform_point3(Vec3::ZERO);
            by_hand = by_hand.max(sdk_position.distance(position.as_vec3()) / size);
            ours = ours.max(sdk_position.distance(together[j]) / size);
            ours_attached = ours_attached.max(sdk_position.distance(apart[j]) / size);
        }
        let expected = synth.posed_vertices(frame);
        for (v, k) in iqm.posed(frame).iter().zip(&matched) {
            by_hand = by_hand.max(v.distance(expected[*k].as_vec3()) / size);
        }
    }
    println!(
        "SDK against by hand: worst {by_hand:.2e}; against rigport: worst {ours:.2e}, \
         the md5anim read alone and attached: {ours_attached:.2e}"
    );
    assert!(by_hand < 2e-3, "SDK against by hand: {by_hand}");
    assert!(ours < 2e-3, "SDK against rigport: {ours}");
    assert!(
        ours_attached < 2e-3,
        "SDK against the attached md5anim: {ours_attached}"
    );
    let _ = std::fs::remove_dir_all(&scratch);
}
