//! Posing against the IQM SDK, the oracle for SMD (`iqm out.iqm ref.smd anim.smd`), when
//! `RIGPORT_IQM_SDK` names its binary (skipped otherwise): the SDK compiles a reference
//! and an animation file, a small independent IQM reader below skins its bind vertices
//! with its frames, and at every 4th frame each of our posed vertices must lie within
//! 2e-3 of the model's size of the SDK's vertex with the same bind position.
//!
//! Four cases: two corpus pairs with identical `nodes` blocks, files rigport wrote (the
//! soldier reference with the walk animation added by bone name), which checks that the SDK
//! reads rigport's output back as rigport means it, and the files rigport writes of
//! `synth::gimbal`, whose joints turn at Y = ±90° ± ε (every frame compared).

mod common;

use rigport_anim::Pose;
use rigport_anim::skin::skin_vertex;
use rigport_model_core::Model;
use rigport_model_core::codec::WriteOptions;
use rigport_model_core::glam::{Mat4, Quat, Vec3};
use rigport_smd::CODEC;
use rigport_smd::{ConvertOptions, File, add_animation, to_model};
use std::path::{Path, PathBuf};

/// The SDK binary, or `None` (after saying so) when the test is skipped.
fn sdk() -> Option<PathBuf> {
    let Some(path) = std::env::var_os("RIGPORT_IQM_SDK") else {
        println!("skipped: RIGPORT_IQM_SDK not set");
        return None;
    };
    Some(PathBuf::from(path))
}

/// What the SDK wrote, as far as posing needs it.
struct Iqm {
    /// Bind world matrices.
    bind_world: Vec<Mat4>,
    /// Per frame, the world matrix of each joint.
    frames: Vec<Vec<Mat4>>,
    positions: Vec<Vec3>,
    /// Per vertex, (joint, weight in 0..=1).
    blends: Vec<[(usize, f32); 4]>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn world(parents: &[i32], locals: &[Mat4]) -> Vec<Mat4> {
    let mut out: Vec<Mat4> = Vec::with_capacity(locals.len());
    for (j, local) in locals.iter().enumerate() {
        // The SDK writes parents before children.
        let parent = parents[j];
        out.push(if parent < 0 {
            *local
        } else {
            out[parent as usize] * *local
        });
    }
    out
}

/// Reads an IQM 2 file (header fields as in the SDK's `iqm.h`).
fn read_iqm(b: &[u8]) -> Iqm {
    assert_eq!(&b[..16], b"INTERQUAKEMODEL\0");
    let h = |i: usize| u32_at(b, 16 + 4 * i) as usize;
    let (num_vertexarrays, num_vertexes, ofs_vertexarrays) = (h(7), h(8), h(9));
    let (num_joints, ofs_joints, num_poses, ofs_poses) = (h(13), h(14), h(15), h(16));
    let (num_frames, ofs_frames) = (h(19), h(21));
    assert_eq!(num_joints, num_poses, "joints and poses");
    let mut parents = Vec::new();
    let mut bind_local = Vec::new();
    for j in 0..num_joints {
        let at = ofs_joints + 48 * j;
        parents.push(u32_at(b, at + 4) as i32);
        let f = |k: usize| f32_at(b, at + 8 + 4 * k);
        bind_local.push(Mat4::from_scale_rotation_translation(
            Vec3::new(f(7), f(8), f(9)),
            Quat::from_xyzw(f(3), f(4), f(5), f(6)).normalize(),
            Vec3::new(f(0), f(1), f(2)),
        ));
    }
    let bind_world = world(&parents, &bind_local);
    let mut data = ofs_frames;
    let mut frames = Vec::new();
    for _ in 0..num_frames {
        let mut locals = Vec::new();
        for p in 0..num_poses {
            let at = ofs_poses + 88 * p;
            let mask = u32_at(b, at + 4);
            let mut channels = [0.0f32; 10];
            for (c, value) in channels.iter_mut().enumerate() {
                *value = f32_at(b, at + 8 + 4 * c);
                if mask & (1 << c) != 0 {
                    let raw = u16::from_le_bytes([b[data], b[data + 1]]);
                    data += 2;
                    *value += f32::from(raw) * f32_at(b, at + 48 + 4 * c);
                }
            }
            locals.push(Mat4::from_scale_rotation_translation(
                Vec3::new(channels[7], channels[8], channels[9]),
                Quat::from_xyzw(channels[3], channels[4], channels[5], channels[6]).normalize(),
                Vec3::new(channels[0], channels[1], channels[2]),
            ));
        }
        frames.push(world(&parents, &locals));
    }
    let mut positions = vec![Vec3::ZERO; num_vertexes];
    let mut indexes = vec![[0u8; 4]; num_vertexes];
    let mut weights = vec![[0u8; 4]; num_vertexes];
    for a in 0..num_vertexarrays {
        let at = ofs_vertexarrays + 20 * a;
        let (kind, offset) = (u32_at(b, at), u32_at(b, at + 16) as usize);
        for v in 0..num_vertexes {
            match kind {
                0 => {
                    let p = offset + 12 * v;
                    positions[v] = Vec3::new(f32_at(b, p), f32_at(b, p + 4), f32_at(b, p + 8));
                }
                4 => indexes[v].copy_from_slice(&b[offset + 4 * v..offset + 4 * v + 4]),
                5 => weights[v].copy_from_slice(&b[offset + 4 * v..offset + 4 * v + 4]),
                _ => {}
            }
        }
    }
    let blends = indexes
        .iter()
        .zip(&weights)
        .map(|(i, w)| std::array::from_fn(|k| (usize::from(i[k]), f32::from(w[k]) / 255.0)))
        .collect();
    Iqm {
        bind_world,
        frames,
        positions,
        blends,
    }
}

fn run_sdk(sdk: &Path, dir: &Path, files: &[&Path]) -> Iqm {
    let out = dir.join("out.iqm");
    let status = std::process::Command::new(sdk)
        .arg(&out)
        .args(files)
        .output()
        .expect("the SDK runs");
    assert!(status.status.success(), "{status:?}");
    read_iqm(&std::fs::read(&out).unwrap())
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rigport-smd-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The largest distance between our posed vertices and the SDK's, over the model's size,
/// at every `step`th frame and the last; and the number of frames compared.
fn compare(model: &Model, iqm: &Iqm, step: usize) -> (f32, usize) {
    let animation = &model.animations[0];
    let frame_count = (animation.end_time() * animation.fps).round() as usize + 1;
    assert_eq!(iqm.frames.len(), frame_count, "frame count");
    let ours: Vec<_> = model.meshes.iter().flat_map(|m| &m.vertices).collect();
    let (min, max) = ours.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| {
        (lo.min(v.position), hi.max(v.position))
    });
    let size = (max - min).length();
    // Each of our vertices: the SDK vertex at the same bind position whose weights agree
    // best (the SDK's joint indices are the files' bone IDs, ours too for these files).
    let matched: Vec<usize> = ours
        .iter()
        .map(|v| {
            let weight_gap = |k: usize| -> f32 {
                let mut gap = 0.0;
                for (joint, w) in v.influences() {
                    let theirs: f32 = iqm.blends[k]
                        .iter()
                        .filter(|(j, _)| *j == joint.index())
                        .map(|(_, w)| w)
                        .sum();
                    gap += (theirs - w).abs();
                }
                gap
            };
            let nearest = (0..iqm.positions.len())
                .map(|k| iqm.positions[k].distance(v.position))
                .fold(f32::MAX, f32::min);
            assert!(
                nearest < 1e-3 * size.max(1.0),
                "no SDK vertex at {}",
                v.position
            );
            (0..iqm.positions.len())
                .filter(|&k| iqm.positions[k].distance(v.position) <= nearest + 1e-6)
                .min_by(|&a, &b| weight_gap(a).total_cmp(&weight_gap(b)))
                .unwrap()
        })
        .collect();
    let mut pose = Pose::new(&model.skeleton).unwrap();
    let mut worst = 0.0f32;
    let mut compared = 0;
    // Every `step`th frame, and the last one (short animations would otherwise only check 0).
    let frames = (0..frame_count)
        .step_by(step)
        .chain(std::iter::once(frame_count - 1));
    for frame in frames {
        pose.sample(animation, frame as f32 / animation.fps);
        let skinning = pose.skinning_matrices();
        for (v, &k) in ours.iter().zip(&matched) {
            let (posed, _) = skin_vertex(skinning, v);
            let theirs: Vec3 = iqm.blends[k]
                .iter()
                .filter(|(_, w)| *w > 0.0)
                .map(|&(j, w)| {
                    let m = iqm.frames[frame][j] * iqm.bind_world[j].inverse();
                    m.transform_point3(iqm.positions[k]) * w
                })
                .sum();
            worst = worst.max(posed.distance(theirs) / size);
        }
        compared += 1;
    }
    (worst, compared)
}

fn corpus_file(name: &str) -> Option<PathBuf> {
    Some(rigport_test_support::corpus::corpus_dir("smd")?.join(name))
}

fn model_of(reference: &Path, animation: &Path) -> Model {
    let read = |p: &Path| File::from_slice(&std::fs::read(p).unwrap()).unwrap();
    let options = ConvertOptions::default();
    let (mut model, _) = to_model(&read(reference), &options).unwrap();
    add_animation(&mut model, &read(animation), "anim", &options).unwrap();
    model
}

fn check_pair(reference: &str, animation: &str) {
    let (Some(sdk), Some(reference), Some(animation)) =
        (sdk(), corpus_file(reference), corpus_file(animation))
    else {
        return;
    };
    let model = model_of(&reference, &animation);
    let dir = scratch(reference.file_stem().unwrap().to_str().unwrap());
    let iqm = run_sdk(&sdk, &dir, &[&reference, &animation]);
    let (worst, frames) = compare(&model, &iqm, 4);
    println!(
        "{}: {frames} frames compared, worst {worst:.2e} of the model's size",
        reference.display()
    );
    assert!(worst <= 2e-3, "{worst}");
}

#[test]
fn door_opening_poses_as_the_sdk_does() {
    check_pair(
        "mapbase_door01_left_reference.smd",
        "mapbase_door01_left_open.smd",
    );
}

#[test]
fn blender_cube_poses_as_the_sdk_does() {
    check_pair("bst_Cube_Armature.smd", "bst_ActionFilter_X_Axis.smd");
}

#[test]
fn files_rigport_writes_pose_in_the_sdk_as_rigport_means_them() {
    let (Some(sdk), Some(reference), Some(animation)) = (
        sdk(),
        corpus_file("mapbase_combine_soldier_lod4.smd"),
        corpus_file("mapbase_walkn.smd"),
    ) else {
        return;
    };
    let model = model_of(&reference, &animation);
    let written = CODEC
        .write(&model, "soldier.smd", &WriteOptions::default())
        .unwrap();
    assert_eq!(written.files.len(), 2);
    let dir = scratch("written");
    let paths: Vec<PathBuf> = written
        .files
        .iter()
        .map(|f| {
            let path = dir.join(&f.name);
            std::fs::write(&path, &f.bytes).unwrap();
            path
        })
        .collect();
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let iqm = run_sdk(&sdk, &dir, &refs);
    // What rigport reads back from its own files poses like the model it wrote.
    let back = model_of(&paths[0], &paths[1]);
    let (worst, frames) = compare(&model, &iqm, 4);
    let (worst_back, _) = compare(&back, &iqm, 4);
    println!(
        "written soldier + walk: {frames} frames, worst {worst:.2e}, read back {worst_back:.2e}"
    );
    assert!(worst <= 2e-3 && worst_back <= 2e-3, "{worst} {worst_back}");
}

#[test]
fn joints_near_the_euler_pole_pose_in_the_sdk_as_written() {
    let Some(sdk) = sdk() else {
        return;
    };
    let model = rigport_test_support::synth::gimbal_model();
    let written = CODEC
        .write(&model, "gimbal.smd", &WriteOptions::default())
        .unwrap();
    let dir = scratch("gimbal");
    let paths: Vec<PathBuf> = written
        .files
        .iter()
        .map(|f| {
            let path = dir.join(&f.name);
            std::fs::write(&path, &f.bytes).unwrap();
            path
        })
        .collect();
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let iqm = run_sdk(&sdk, &dir, &refs);
    let (worst, frames) = compare(&model, &iqm, 1);
    println!("gimbal: {frames} frames, worst {worst:.2e} of the model's size");
    assert!(worst <= 2e-3, "{worst}");
}
