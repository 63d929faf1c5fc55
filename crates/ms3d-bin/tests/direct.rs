//! The crate's codec reads a file for a conversion without the faithful key arrays (the
//! keys are decoded once, straight into the model's tracks). It must give what
//! `File::from_slice_with` then `to_model` give: the same model, the same warnings in the
//! same order, the same errors at the same byte offsets — for every fixture (the failing
//! ones included), every corpus file, every cut of a rigged file, a tight memory limit and
//! a file with enough keys to be made on several threads.

mod common;

use rigport_model_core::codec::Location;
use rigport_model_core::{Limits, ReadOptions};
use rigport_ms3d_bin::{CODEC, ConvertOptions, File, Keyframe, to_model};
use rigport_test_support::codec_agreement::assert_codec_reads_as_faithful;

/// Reads `bytes` both ways with `options` and compares everything; returns whether the
/// read succeeded.
fn same_both_ways(name: &str, bytes: &[u8], options: &ReadOptions) -> bool {
    let faithful = File::from_slice_with(bytes, options)
        .and_then(|(file, mut report)| {
            let (model, more) = to_model(&file, &ConvertOptions::default())?;
            report.extend(more);
            Ok((model, report))
        })
        .map_err(|e| (e.to_string(), Location::at_offset(e.offset())));
    assert_codec_reads_as_faithful(name, &CODEC, bytes, options, faithful)
}

/// Counts of reads that succeeded and failed.
#[derive(Default)]
struct Outcomes {
    read: usize,
    failed: usize,
}

impl Outcomes {
    fn add(&mut self, read: bool) {
        match read {
            true => self.read += 1,
            false => self.failed += 1,
        }
    }
}

#[test]
fn every_fixture_converts_as_file_and_to_model_do() {
    let mut outcomes = Outcomes::default();
    for (name, bytes) in common::ms3d_files(&common::fixture_dir()) {
        for options in [ReadOptions::default(), ReadOptions::strict()] {
            outcomes.add(same_both_ways(&name, &bytes, &options));
        }
    }
    // Both outcomes were compared: the fixtures hold valid files and `fail_*` ones.
    assert!(outcomes.read >= 20, "{} read", outcomes.read);
    assert!(outcomes.failed >= 4, "{} failed", outcomes.failed);
}

#[test]
fn every_cut_of_a_rigged_file_converts_or_fails_alike() {
    let bytes = common::fixture("rig_full.ms3d");
    let mut outcomes = Outcomes::default();
    for len in 0..=bytes.len() {
        outcomes.add(same_both_ways(
            &format!("rig_full.ms3d cut at {len}"),
            &bytes[..len],
            &ReadOptions::default(),
        ));
    }
    assert!(outcomes.read > 0 && outcomes.failed > 0);
}

#[test]
fn a_memory_limit_refuses_the_keys_alike() {
    let bytes = common::fixture("rig_full.ms3d");
    let file = File::from_slice(&bytes).unwrap();
    let keys: usize = file
        .joints
        .iter()
        .map(|j| j.rotation_keys.len() + j.translation_keys.len())
        .sum();
    assert!(keys > 0);
    // Enough for everything but a few keys: the limit is reached inside the joints.
    let mut outcomes = Outcomes::default();
    for spare in [0, 16, 64, 256, 4096] {
        let options = ReadOptions {
            limits: Limits {
                max_alloc_bytes: (bytes.len() + spare) as u64,
            },
            ..ReadOptions::default()
        };
        outcomes.add(same_both_ways("rig_full.ms3d, limited", &bytes, &options));
    }
    assert!(outcomes.failed > 0);
}

#[test]
fn a_long_animation_made_on_several_threads_converts_alike() {
    let mut file = File::from_slice(&common::fixture("rig_full.ms3d")).unwrap();
    assert!(file.joints.len() >= 2);
    let frames = 40_000 / file.joints.len() + 1;
    file.keyframer.total_frames = frames as i32;
    for (j, joint) in file.joints.iter_mut().enumerate() {
        let key = |k: usize| Keyframe {
            time: k as f32 / file.keyframer.fps,
            value: [k as f32 * 0.01, j as f32 * 0.1, -(k as f32) * 0.02],
        };
        joint.rotation_keys = (0..frames).map(key).collect();
        joint.translation_keys = (0..frames).map(key).collect();
        // One key past the timeline, dropped with a warning either way.
        joint.translation_keys.push(Keyframe {
            time: 2.0 * frames as f32 / file.keyframer.fps,
            value: [0.0; 3],
        });
    }
    let bytes = file.to_vec();
    assert!(same_both_ways(
        "long animation",
        &bytes,
        &ReadOptions::default()
    ));
    let (model, report) = CODEC.read(&bytes, &ReadOptions::default()).unwrap();
    let keys: usize = model.animations[0]
        .tracks
        .iter()
        .map(|t| t.rotations.len() + t.translations.len())
        .sum();
    assert_eq!(keys, 2 * frames * file.joints.len());
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::KEYS_OUTSIDE_TIMELINE)
            .count(),
        1
    );
}

#[test]
fn every_corpus_file_converts_as_file_and_to_model_do() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let mut outcomes = Outcomes::default();
    for (name, bytes) in common::ms3d_files(&dir) {
        for options in [ReadOptions::default(), ReadOptions::strict()] {
            outcomes.add(same_both_ways(&name, &bytes, &options));
        }
    }
    assert!(outcomes.read >= 20, "{} read", outcomes.read);
}
