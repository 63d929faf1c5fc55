//! Compiling IQE to IQM loses nothing but quantization: for every corpus `.iqe`,
//! `.iqe → .iqm → model` equals `.iqe → model` — geometry exactly (weights to 1/255), the
//! skeleton's bind pose, and every animation's local transforms at its first, middle and
//! last frame within each channel's quantization step (the pose's `channelscale`).

mod common;

use rigport_anim::sample::{Transform, sample_track};
use rigport_model_core::glam::Vec4;
use rigport_model_core::{Animation, Model, Skeleton};

fn corpus_iqe() -> Option<Vec<std::path::PathBuf>> {
    let files = common::corpus_files()?;
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
    assert_eq!(a.meshes.len(), b.meshes.len(), "{name}");
    for (ma, mb) in a.meshes.iter().zip(&b.meshes) {
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
        let name = common::file_name(path);
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
            assert_eq!(
                frames as f32,
                (anim_a.end_time() * fps).round() + 1.0,
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
