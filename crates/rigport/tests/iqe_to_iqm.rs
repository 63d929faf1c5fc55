//! Compiling IQE to IQM loses nothing but quantization: for every corpus `.iqe`,
//! `.iqe → .iqm → model` equals `.iqe → model` — geometry exactly (weights to 1/255), the
//! skeleton's bind pose, and every animation's local transforms at its first, middle and
//! last frame within each channel's quantization step (the pose's `channelscale`).

use rigport_anim::sample::{Transform, sample_track};
use rigport_model_core::glam::Vec4;
use rigport_model_core::{Animation, Model, Skeleton};
use rigport_test_support::corpus;
use rigport_test_support::fixtures::file_name;

fn corpus_iqe() -> Option<Vec<std::path::PathBuf>> {
    let files = corpus::corpus_files(&["iqe"])?;
    Some(
        files
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "iqe"))
            .collect(),
    )
}

/// A joint's local transform at `time` in an animation (the bind value where untracked).
fn local(skeleton: &Skeleton, animation: &Animation, joint: usize, time: f32) -> Transform {
    let bind = Transform::of_joint(&skeleton.joints[joint]);
    animation
        .tracks
        .iter()
        .find(|t| t.joint.index() == joint)
        .map_or(bind, |t| {
            sample_track(t, time, animation.interpolation, &bind)
        })
}

fn channels(t: &Transform, reference: Vec4) -> [f32; 10] {
    let mut q = Vec4::from(t.rotation);
    if q.dot(reference) < 0.0 {
        q = -q;
    }
    [
        t.translation.x,
        t.translation.y,
        t.translation.z,
        q.x,
        q.y,
        q.z,
        q.w,
        t.scale.x,
        t.scale.y,
        t.scale.z,
    ]
}

fn compare_geometry(name: &str, a: &Model, b: &Model) {
    // Meshes without triangles are dropped (with a loss notice): assimp refuses them.
    let kept: Vec<_> = a
        .meshes
        .iter()
        .filter(|m| !m.triangles.is_empty())
        .collect();
    assert_eq!(kept.len(), b.meshes.len(), "{name}");
    for (ma, mb) in kept.into_iter().zip(&b.meshes) {
        assert_eq!(ma.name, mb.name, "{name}");
        assert_eq!(ma.triangles.len(), mb.triangles.len(), "{name} {}", ma.name);
        for (ta, tb) in ma.triangles.iter().zip(&mb.triangles) {
            for (&ia, &ib) in ta.iter().zip(tb) {
                let (va, vb) = (ma.vertices[ia as usize], mb.vertices[ib as usize]);
                assert_eq!(va.position, vb.position, "{name} {}", ma.name);
                assert_eq!(va.normal, vb.normal, "{name} {}", ma.name);
                if ma.has_uvs {
                    assert_eq!(va.uv, vb.uv, "{name} {}", ma.name);
                }
                let weight = |v: &rigport_model_core::Vertex, joint: &str, model: &Model| {
                    v.influences()
                        .filter(|(j, _)| model.skeleton.joints[j.index()].name == joint)
                        .map(|(_, w)| w)
                        .sum::<f32>()
                };
                for (j, _) in va.influences() {
                    let joint = &a.skeleton.joints[j.index()].name;
                    let (wa, wb) = (weight(&va, joint, a), weight(&vb, joint, b));
                    assert!(
                        (wa - wb).abs() <= 1.0 / 255.0 + 1e-6,
                        "{name}: weight {wa} -> {wb}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_corpus_iqe_compiles_to_an_iqm_that_holds_the_same_model() {
    let Some(files) = corpus_iqe() else { return };
    assert!(!files.is_empty());
    let mut checked_frames = 0;
    for path in &files {
        let name = file_name(path);
        let bytes = std::fs::read(path).unwrap();
        let iqe = rigport_iqe::File::from_slice(&bytes).unwrap();
        let (a, _) = rigport_iqe::to_model(&iqe, &Default::default()).unwrap();
        let (iqm, _) = rigport_iqm::from_model(&a, &Default::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = iqm.to_vec();
        let (iqm, report) =
            rigport_iqm::File::from_slice_with(&written, &rigport_iqm::ReadOptions::strict())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.is_empty(), "{name}: {report}");
        let (b, _) = rigport_iqm::to_model(&iqm, &Default::default()).unwrap();
        compare_geometry(&name, &a, &b);
        // Joints may be reordered (parents first): match them by name.
        assert_eq!(a.skeleton.joints.len(), b.skeleton.joints.len(), "{name}");
        let in_b: Vec<usize> = a
            .skeleton
            .joints
            .iter()
            .map(|j| {
                b.skeleton
                    .joints
                    .iter()
                    .position(|k| k.name == j.name)
                    .unwrap()
            })
            .collect();
        for (ja, &jb) in a.skeleton.joints.iter().zip(&in_b) {
            let jb_joint = &b.skeleton.joints[jb];
            assert!(
                ja.translation.abs_diff_eq(jb_joint.translation, 1e-6),
                "{name}"
            );
            assert!(
                ja.rotation.dot(jb_joint.rotation).abs() > 1.0 - 1e-6,
                "{name}"
            );
        }
        assert_eq!(a.animations.len(), b.animations.len(), "{name}");
        for (anim_a, (anim_b, stored)) in
            a.animations.iter().zip(b.animations.iter().zip(&iqm.anims))
        {
            assert_eq!(anim_a.name, anim_b.name);
            assert_eq!(anim_a.looping, anim_b.looping);
            let frames = stored.num_frames as usize;
            let fps = stored.framerate;
            assert_eq!(fps, anim_a.fps, "{name}");
            // A looping animation of N frames lasts N/F (it blends back to frame 0 after the
            // last); a one-shot one ends on its last frame.
            let seam = if anim_a.looping { 0.0 } else { 1.0 };
            assert_eq!(
                frames as f32,
                (anim_a.end_time() * fps).round() + seam,
                "{name}"
            );
            for frame in [0, frames / 2, frames - 1] {
                let time = frame as f32 / fps;
                for (j, &jb) in in_b.iter().enumerate() {
                    let ta = local(&a.skeleton, anim_a, j, time);
                    let tb = local(&b.skeleton, anim_b, jb, time);
                    let ca = channels(&ta, Vec4::from(ta.rotation));
                    let cb = channels(&tb, Vec4::from(ta.rotation));
                    let pose = &iqm.poses[jb];
                    for c in 0..10 {
                        let step = pose.channelscale[c];
                        let tolerance = step + 1e-5 * ca[c].abs().max(1.0);
                        assert!(
                            (ca[c] - cb[c]).abs() <= tolerance,
                            "{name} `{}` frame {frame} joint {j} channel {c}: {} vs {} (step {step})",
                            anim_a.name,
                            ca[c],
                            cb[c]
                        );
                    }
                    checked_frames += 1;
                }
            }
        }
    }
    eprintln!("{checked_frames} joint poses checked");
}

/// The JSON chunk of a GLB, parsed.
fn glb_json(glb: &[u8]) -> serde_json::Value {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

#[test]
fn every_corpus_iqm_keeps_its_triangles_and_animations_in_glb() {
    let Some(files) = corpus::corpus_files(&["iqm"]) else {
        return;
    };
    let mut seen = 0;
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "iqm"))
    {
        let name = file_name(path);
        let bytes = std::fs::read(path).unwrap();
        let iqm = rigport_iqm::File::from_slice(&bytes).unwrap();
        let out = std::path::Path::new("out.glb");
        let converted =
            rigport::pipeline::convert(&bytes, out, rigport::Format::Glb, &Default::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        let json = glb_json(&converted.files[0].1);
        let accessors = json["accessors"].as_array().cloned().unwrap_or_default();
        let triangles: u64 = json["meshes"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|m| m["primitives"].as_array().cloned().unwrap_or_default())
            .map(|p| {
                accessors[p["indices"].as_u64().unwrap() as usize]["count"]
                    .as_u64()
                    .unwrap()
                    / 3
            })
            .sum();
        assert_eq!(triangles, iqm.triangles.len() as u64, "{name}");
        let animations = json["animations"].as_array().map_or(0, Vec::len);
        assert_eq!(animations, iqm.anims.len(), "{name}");
        seen += 1;
    }
    assert_eq!(seen, 11);
}

/// What the IQM SDK's `iqm` compiler (lsalzman/iqm 8554dca) writes for each corpus IQE:
/// vertices after welding, triangles, frames, frame channels, and the first frame's bounds
/// (min, max) where there are any. rigport must agree: the same welding, the same
/// quantization masks, bounds within 1e-3 of the SDK's.
/// File, vertices, triangles, frames, frame channels, first-frame bounds.
type SdkFigures = (&'static str, u32, u32, u32, u32, Option<[f32; 6]>);

const SDK: [SdkFigures; 10] = [
    ("afe__cube.iqe", 24, 12, 0, 0, None),
    ("afe__wiggler.iqe", 52, 28, 0, 0, None),
    ("iqe-rs__tests__data__cube.iqe", 24, 12, 0, 0, None),
    ("iqe-rs__tests__data__nameless.iqe", 0, 0, 0, 0, None),
    ("love-und-panzer__tank.iqe", 5553, 8660, 0, 0, None),
    (
        "love-und-panzer__test_cube.iqe",
        24,
        12,
        540,
        10,
        Some([-1.0, -1.0, -1.0, 1.0, 1.0, 1.0]),
    ),
    ("love-und-panzer__uv_grid.iqe", 4, 2, 0, 0, None),
    (
        "res-buildables__buildables__drill__drill.iqe",
        4200,
        5044,
        495,
        5,
        Some([-28.9047, -28.9047, 0.1477, 28.9047, 28.9047, 56.7951]),
    ),
    (
        "res-buildables__buildables__mgturret__mgturret.iqe",
        2606,
        2787,
        403,
        11,
        Some([-25.2615, -47.8748, 0.0042, 25.2652, 24.3169, 55.0045]),
    ),
    (
        "res-weapons__missiles__rocket__rocket.iqe",
        135,
        156,
        0,
        0,
        None,
    ),
];

#[test]
fn corpus_iqe_compiles_to_what_the_sdk_writes() {
    let Some(files) = corpus_iqe() else { return };
    assert_eq!(files.len(), SDK.len());
    for (name, vertices, triangles, frames, channels, bounds) in SDK {
        let path = files.iter().find(|p| file_name(p) == name).unwrap();
        let iqe = rigport_iqe::File::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let (model, _) = rigport_iqe::to_model(&iqe, &Default::default()).unwrap();
        let (iqm, _) = rigport_iqm::from_model(&model, &Default::default()).unwrap();
        let h = &iqm.header;
        assert_eq!(
            (
                h.num_vertexes,
                h.num_triangles,
                h.num_frames,
                h.num_framechannels
            ),
            (vertices, triangles, frames, channels),
            "{name}"
        );
        if let Some(expected) = bounds {
            let b = iqm.bounds.as_ref().unwrap()[0];
            let got = [b.bbmin, b.bbmax].concat();
            for (g, e) in got.iter().zip(expected) {
                assert!(
                    (g - e).abs() < 1e-3 * e.abs().max(1.0),
                    "{name}: {got:?} vs {expected:?}"
                );
            }
        }
    }
}
