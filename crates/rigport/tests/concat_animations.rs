//! `Settings::concat_animations`: every corpus IQE/IQM file with several animations,
//! converted to MilkShape binary and ASCII with its animations end to end on one timeline.
//!
//! * The notes give one frame range per animation, "name: frames a-b", the first starting on
//!   frame 1 and each on the frame after the previous one; for an IQE file each range holds
//!   as many frames as the animation has `frame` lines in the text.
//! * Posing the written file, read back, at a time inside the k-th range equals posing the
//!   k-th original animation at the corresponding time: every joint's skinning matrix moves
//!   the model's vertices to the same place within 1e-3 of the model's size.
//! * Without the setting, each animation but the first is a loss naming it; targets that
//!   keep every animation ignore the setting with a note.

use rigport::pipeline::{Settings, convert};
use rigport::{Document, Format, Model, ReadOptions, Report};
use rigport_anim::sample_model;
use rigport_model_core::glam::Vec3;
use rigport_test_support::corpus;
use std::path::{Path, PathBuf};

fn read_model(bytes: &[u8]) -> Model {
    let (document, _) = Document::sniff_and_read(bytes, &ReadOptions::default()).unwrap();
    document.to_model().unwrap().0
}

/// Corpus IQE and IQM files with at least two animations, with their models.
fn multi_animation_files() -> Option<Vec<(PathBuf, Vec<u8>, Model)>> {
    let files = corpus::corpus_files(&["iqe", "iqm"])?;
    Some(
        files
            .into_iter()
            .filter_map(|path| {
                let bytes = std::fs::read(&path).unwrap();
                let model = read_model(&bytes);
                (model.animations.len() >= 2).then_some((path, bytes, model))
            })
            .collect(),
    )
}

/// `(name, first, last)` of every `animation-range` note ("walk: frames 1-30").
fn ranges(report: &Report) -> Vec<(String, u64, u64)> {
    report
        .with_code("animation-range")
        .map(|n| {
            let (name, rest) = n.message.rsplit_once(": frames ").expect("a range note");
            let digits: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '-')
                .collect();
            let (a, b) = digits.split_once('-').unwrap();
            (name.to_owned(), a.parse().unwrap(), b.parse().unwrap())
        })
        .collect()
}

/// Frame lines per animation, read from the IQE text itself.
fn iqe_frame_counts(text: &str) -> Vec<u64> {
    let mut counts = Vec::new();
    for command in text.lines().map(|l| l.split_whitespace().next()) {
        if command == Some("animation") {
            counts.push(0);
        } else if command == Some("frame") {
            if let Some(last) = counts.last_mut() {
                *last += 1;
            }
        }
    }
    counts
}

fn vertices_and_size(model: &Model) -> (Vec<Vec3>, f32) {
    let points: Vec<Vec3> = model
        .meshes
        .iter()
        .flat_map(|m| m.vertices.iter().map(|v| v.position))
        .step_by(7)
        .collect();
    let (lo, hi) = points.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    (points, (hi - lo).length().max(1e-3))
}

fn first_key_time(model: &Model, animation: usize) -> f32 {
    model.animations[animation]
        .tracks
        .iter()
        .flat_map(|t| {
            t.translations
                .first()
                .map(|k| k.time)
                .into_iter()
                .chain(t.rotations.first().map(|k| k.time))
                .chain(t.scales.first().map(|k| k.time))
        })
        .fold(f32::INFINITY, f32::min)
}

fn settings(concat: bool) -> Settings {
    Settings {
        concat_animations: concat,
        ..Settings::default()
    }
}

#[test]
fn concatenated_animations_pose_as_the_originals_inside_their_ranges() {
    let Some(files) = multi_animation_files() else {
        return;
    };
    assert!(!files.is_empty(), "the corpus has multi-animation files");
    for (path, bytes, original) in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        let fps = original.animations[0].fps;
        let (points, size) = vertices_and_size(original);
        for (target, out) in [(Format::Ms3d, "x.ms3d"), (Format::Ms3dAscii, "x.txt")] {
            let converted = convert(bytes, Path::new(out), target, &settings(true)).unwrap();
            let found = ranges(&converted.report);
            let names: Vec<&str> = found.iter().map(|r| r.0.as_str()).collect();
            let expected: Vec<&str> = original
                .animations
                .iter()
                .map(|a| a.name.as_str())
                .collect();
            assert_eq!(names, expected, "{name} {target}: {}", converted.report);
            assert_eq!(converted.report.with_code("animations-dropped").count(), 0);
            let mut next = 1;
            for (_, first, last) in &found {
                assert_eq!(
                    *first, next,
                    "{name}: ranges follow each other from frame 1"
                );
                assert!(last >= first);
                next = last + 1;
            }
            let same_rate = original.animations.iter().all(|a| a.fps == fps);
            if path.extension().is_some_and(|e| e == "iqe") && same_rate {
                let text = String::from_utf8_lossy(bytes);
                let lengths: Vec<u64> = found.iter().map(|r| r.2 - r.1 + 1).collect();
                assert_eq!(
                    lengths,
                    iqe_frame_counts(&text),
                    "{name}: one frame per frame line"
                );
            }
            let mut back = read_model(&converted.files[0].1);
            assert_eq!(back.animations.len(), 1, "{name} {target}");
            // MilkShape is Y-up: an IQE source was turned, and is turned back to compare.
            back.turn_to(original.up);
            // The timeline itself, before MilkShape's own losses, poses every animation as
            // it was, scale keys included.
            let joined = rigport_anim::concat::concat_animations(
                &original.skeleton,
                &original.animations,
                "timeline",
            )
            .unwrap();
            let mut timeline_model = original.clone();
            timeline_model.animations = vec![joined.animation];
            check_poses(
                &name,
                original,
                &timeline_model,
                &found,
                &points,
                size,
                |_| true,
            );
            // Written and read back: MilkShape holds no scale keys (reported lost), so the
            // animations that scale are left out of the comparison.
            let scales = |k: usize| {
                original.animations[k].tracks.iter().any(|t| {
                    t.scales
                        .iter()
                        .any(|s| !s.value.abs_diff_eq(Vec3::ONE, 1e-6))
                })
            };
            if (0..original.animations.len()).any(scales) {
                assert!(converted.report.with_code("scale-keys").count() > 0);
            }
            check_poses(&name, original, &back, &found, &points, size, |k| {
                !scales(k)
            });
        }
    }
}

/// Poses `joined` (one timeline) inside each range against the original animation.
fn check_poses(
    name: &str,
    original: &Model,
    joined: &Model,
    found: &[(String, u64, u64)],
    points: &[Vec3],
    size: f32,
    include: impl Fn(usize) -> bool,
) {
    let fps = original.animations[0].fps;
    for (k, (_, first, last)) in found.iter().enumerate().filter(|(k, _)| include(*k)) {
        let local_start = first_key_time(original, k);
        let local_start = if local_start.is_finite() {
            local_start
        } else {
            0.0
        };
        let frames = (last - first) as f32;
        for step in 0..=8 {
            let into = frames * step as f32 / 8.0 / fps;
            // Frames are what the timeline keeps; an ASCII file stores no frame rate, so
            // the one read back (24) may differ from the original's.
            let timeline = (*first as f32 + into * fps) / joined.animations[0].fps;
            let (a, _) = sample_model(original, k, local_start + into).unwrap();
            let (b, _) = sample_model(joined, 0, timeline).unwrap();
            for (j, (sa, sb)) in a
                .skinning_matrices()
                .iter()
                .zip(b.skinning_matrices())
                .enumerate()
            {
                for p in points {
                    let error = (sa.transform_point3(*p) - sb.transform_point3(*p)).length();
                    assert!(
                        error <= 1e-3 * size,
                        "{name}: animation {k} joint {j} at +{into}s: off by {error} (size {size})"
                    );
                }
            }
        }
    }
}

#[test]
fn without_the_setting_each_dropped_animation_is_named_and_other_targets_ignore_it() {
    let Some(files) = multi_animation_files() else {
        return;
    };
    let Some((path, bytes, original)) = files.first() else {
        panic!("the corpus has multi-animation files");
    };
    for (target, out) in [(Format::Ms3d, "x.ms3d"), (Format::Ms3dAscii, "x.txt")] {
        let converted = convert(bytes, Path::new(out), target, &settings(false)).unwrap();
        let dropped: Vec<&str> = converted
            .report
            .with_code("animations-dropped")
            .map(|n| n.message.as_str())
            .collect();
        assert_eq!(
            dropped.len(),
            original.animations.len() - 1,
            "{}",
            path.display()
        );
        for (message, animation) in dropped.iter().zip(&original.animations[1..]) {
            assert!(
                message.contains(&format!("`{}`", animation.name)),
                "{message}"
            );
            assert!(message.contains("limit"), "{message}");
        }
    }
    for (target, out) in [
        (Format::Iqe, "x.iqe"),
        (Format::Iqm, "x.iqm"),
        (Format::Glb, "x.glb"),
    ] {
        let converted = convert(bytes, Path::new(out), target, &settings(true)).unwrap();
        assert_eq!(
            converted.report.with_code("setting-ignored").count(),
            1,
            "{target}"
        );
        assert_eq!(converted.report.with_code("animation-range").count(), 0);
        if target != Format::Glb {
            let back = read_model(&converted.files[0].1);
            assert_eq!(back.animations.len(), original.animations.len(), "{target}");
        }
    }
}
