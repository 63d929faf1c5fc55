//! Posing checked against a reading of the file written here from the IQM 2 specification
//! alone (`iqm.txt`, and the SDK demo's `animate`): channels dequantized as
//! `offset + value · scale`, a joint's local matrix `T·R·S`, world = parent world · local,
//! vertices skinned by `world · inverse(bind world)` with their four 0–255 weights, in
//! doubles. Every frame of every animation of the corpus's IQM files with a mesh, and of
//! the file this crate writes from `raylib_guy.iqm`'s model (whose `dance` scales a joint to
//! 2.8), must agree with `rigport_anim` within 1e-5 of the model's height.

use rigport_iqm::{ConvertOptions, File, from_model, to_model};
use rigport_model_core::Model;
use rigport_model_core::glam::{DMat4, DQuat, DVec3, Vec3};

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn f32_at(b: &[u8], at: usize) -> f64 {
    f64::from(f32::from_le_bytes(b[at..at + 4].try_into().unwrap()))
}

/// `T·R·S` of the ten channels (translation, quaternion x y z w, scale).
fn local(c: &[f64; 10]) -> DMat4 {
    DMat4::from_scale_rotation_translation(
        DVec3::new(c[7], c[8], c[9]),
        DQuat::from_xyzw(c[3], c[4], c[5], c[6]).normalize(),
        DVec3::new(c[0], c[1], c[2]),
    )
}

fn world(parents: &[i32], locals: &[DMat4]) -> Vec<DMat4> {
    let mut out: Vec<DMat4> = Vec::with_capacity(locals.len());
    for (j, m) in locals.iter().enumerate() {
        // The specification puts parents before children.
        out.push(match usize::try_from(parents[j]) {
            Ok(p) => out[p] * *m,
            Err(_) => *m,
        });
    }
    out
}

/// Per animation (first frame, frame count), and per frame every vertex posed.
fn posed_by_the_spec(b: &[u8]) -> Vec<Vec<Vec<DVec3>>> {
    let h = |i: usize| u32_at(b, 16 + 4 * i) as usize;
    let (num_arrays, num_vertexes, ofs_arrays) = (h(7), h(8), h(9));
    let (num_joints, ofs_joints, num_poses, ofs_poses) = (h(13), h(14), h(15), h(16));
    let (num_anims, ofs_anims, num_frames, ofs_frames) = (h(17), h(18), h(19), h(21));
    assert_eq!(num_joints, num_poses);
    let (mut positions, mut joints, mut weights) = (
        vec![DVec3::ZERO; num_vertexes],
        vec![[0u8; 4]; num_vertexes],
        vec![[0u8; 4]; num_vertexes],
    );
    for a in 0..num_arrays {
        let at = ofs_arrays + 20 * a;
        let (kind, format, offset) = (u32_at(b, at), u32_at(b, at + 8), u32_at(b, at + 16));
        let offset = offset as usize;
        for v in 0..num_vertexes {
            match (kind, format) {
                (0, 7) => {
                    let p = offset + 12 * v;
                    positions[v] = DVec3::new(f32_at(b, p), f32_at(b, p + 4), f32_at(b, p + 8));
                }
                (4, 1) => joints[v].copy_from_slice(&b[offset + 4 * v..offset + 4 * v + 4]),
                (5, 1) => weights[v].copy_from_slice(&b[offset + 4 * v..offset + 4 * v + 4]),
                _ => {}
            }
        }
    }
    let mut parents = Vec::new();
    let mut bind = Vec::new();
    for j in 0..num_joints {
        let at = ofs_joints + 48 * j;
        parents.push(u32_at(b, at + 4) as i32);
        bind.push(local(&std::array::from_fn(|c| f32_at(b, at + 8 + 4 * c))));
    }
    let inverse_bind: Vec<DMat4> = world(&parents, &bind).iter().map(|m| m.inverse()).collect();
    let mut data = ofs_frames;
    let mut frames = Vec::new();
    for _ in 0..num_frames {
        let mut locals = Vec::new();
        for p in 0..num_poses {
            let at = ofs_poses + 88 * p;
            let mask = u32_at(b, at + 4);
            let channels = std::array::from_fn(|c| {
                let mut value = f32_at(b, at + 8 + 4 * c);
                if mask & (1 << c) != 0 {
                    let raw = u16::from_le_bytes([b[data], b[data + 1]]);
                    data += 2;
                    value += f64::from(raw) * f32_at(b, at + 48 + 4 * c);
                }
                value
            });
            locals.push(local(&channels));
        }
        let skin: Vec<DMat4> = world(&parents, &locals)
            .iter()
            .zip(&inverse_bind)
            .map(|(w, i)| *w * *i)
            .collect();
        frames.push(
            (0..num_vertexes)
                .map(|v| {
                    (0..4)
                        .map(|k| {
                            let w = f64::from(weights[v][k]) / 255.0;
                            skin[usize::from(joints[v][k])].transform_point3(positions[v]) * w
                        })
                        .sum()
                })
                .collect::<Vec<DVec3>>(),
        );
    }
    (0..num_anims)
        .map(|a| {
            let at = ofs_anims + 20 * a;
            let (first, count) = (u32_at(b, at + 4) as usize, u32_at(b, at + 8) as usize);
            frames[first..first + count].to_vec()
        })
        .collect()
}

/// The worst distance between `model` posed by `rigport_anim` at each frame and the
/// spec's reading of `bytes`, over the model's height.
fn worst(bytes: &[u8], model: &Model) -> f64 {
    let expected = posed_by_the_spec(bytes);
    assert_eq!(expected.len(), model.animations.len(), "animations");
    let vertices: Vec<_> = model.meshes.iter().flat_map(|m| &m.vertices).collect();
    let (lo, hi) = vertices.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), v| {
        (lo.min(v.position), hi.max(v.position))
    });
    let height = f64::from((hi - lo).max_element());
    let mut pose = rigport_anim::Pose::new(&model.skeleton).unwrap();
    let mut worst = 0.0f64;
    for (a, (animation, frames)) in model.animations.iter().zip(&expected).enumerate() {
        // Frame `f` is at `f / framerate` seconds, the file's own rate.
        let framerate = f32::from_le_bytes(
            bytes[u32_at(bytes, 16 + 4 * 18) as usize + 20 * a + 12..][..4]
                .try_into()
                .unwrap(),
        );
        for (f, theirs) in frames.iter().enumerate() {
            pose.sample(animation, f as f32 / framerate);
            assert_eq!(theirs.len(), vertices.len(), "vertices");
            for (v, t) in vertices.iter().zip(theirs) {
                let (ours, _) = rigport_anim::skin::skin_vertex(pose.skinning_matrices(), v);
                worst = worst.max(ours.as_dvec3().distance(*t) / height);
            }
        }
    }
    worst
}

#[test]
fn corpus_poses_as_the_specification_reads_it() {
    let Some(dir) = rigport_test_support::corpus::corpus_dir("iqm") else {
        return;
    };
    let mut checked = 0;
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(file) = File::from_slice(&bytes) else {
            continue;
        };
        let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
        if model.meshes.is_empty() || model.animations.is_empty() {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let source = worst(&bytes, &model);
        println!("{name}: worst {source:.2e} of the height");
        assert!(source < 1e-5, "{name}: {source}");
        if name == "raylib_guy.iqm" {
            // What this crate writes of it (the scaling `dance` included) poses the same.
            let (written, _) = from_model(&model, &ConvertOptions::default()).unwrap();
            let bytes = written.to_vec();
            let (back, _) =
                to_model(&File::from_slice(&bytes).unwrap(), &Default::default()).unwrap();
            let rewritten = worst(&bytes, &back);
            println!("{name} written again: worst {rewritten:.2e} of the height");
            assert!(rewritten < 1e-5, "{name} written: {rewritten}");
        }
        checked += 1;
    }
    assert!(
        checked > 0,
        "no IQM with a mesh and animations in the corpus"
    );
}
