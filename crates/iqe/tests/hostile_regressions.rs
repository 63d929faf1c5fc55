//! Inputs found by the hostile-input sweep and the fuzzers, each reduced to the
//! smallest case that showed the bug.

use rigport_iqe::{ConvertOptions, Error, File, from_model};
use rigport_model_core::glam::Vec3;
use rigport_model_core::{Animation, Joint, JointId, Key, Model, Track};

/// A one-joint model whose animation has one translation key at `time` seconds, 30 fps.
fn one_key_at(time: f32) -> Model {
    let mut model = Model::default();
    model.skeleton.joints.push(Joint::new("root"));
    let mut animation = Animation::new("walk", 30.0);
    let mut track = Track::new(JointId(0));
    track.translations.push(Key::new(time, Vec3::ZERO));
    animation.tracks.push(track);
    model.animations.push(animation);
    model
}

fn frames_written(file: &File) -> usize {
    file.commands()
        .filter(|c| matches!(c, rigport_iqe::CommandRef::Frame(_)))
        .count()
}

#[test]
fn a_key_at_an_absurd_time_is_refused_not_an_overflow() {
    // glscene_old_Woman4.ms3d (damaged) has key times like 3.3e38 s: 3.3e38 × 30 saturates
    // the frame count to u64::MAX, whose + 1 overflowed.
    for time in [3.3e38, f32::MAX, f32::INFINITY] {
        let error = from_model(&one_key_at(time), &ConvertOptions::default()).unwrap_err();
        assert!(
            matches!(error, Error::Unwritable { format: "IQE", .. }),
            "{time}: {error}"
        );
    }
}

#[test]
fn resampling_is_bounded_by_the_keys_not_by_the_key_times() {
    // 100 s at 30 fps: frames 0..=3000, 3001 poses of one joint — well under the free
    // allowance of 131 072 poses.
    let (file, _) = from_model(&one_key_at(100.0), &ConvertOptions::default()).unwrap();
    assert_eq!(frames_written(&file), 3001);
    // 10 000 s would be 300 001 poses for one key: refused instead of 20 MB of text.
    let error = from_model(&one_key_at(10_000.0), &ConvertOptions::default()).unwrap_err();
    assert!(error.to_string().contains("300001 frames"), "{error}");
}

#[test]
fn a_cut_off_last_line_kept_raw_reads_back_after_writing() {
    // The lenient reader keeps a cut-off last line raw; the writer used to end it with a
    // newline, so the written file no longer had a cut-off line and failed to read.
    for cut in [
        &b"# Inter-Quake Export\nmesh m\nvp 0 0 0\nfm 0 \""[..],
        b"# Inter-Quake Export\njoint",
        b"# Inter-Quake Export\njoint \"a\" -",
        // Found by the `iqe` fuzz target: the trailing comment of a cut-off line was kept
        // as a command of its own, so the raw line was no longer the last one.
        b"# Inter-Quake Export\n smoothangle at # note",
    ] {
        let (file, report) = File::from_slice_with(cut, &Default::default()).unwrap();
        assert!(
            report
                .with_code(rigport_model_core::codes::DAMAGED_TAIL)
                .next()
                .is_some()
        );
        let written = file.to_vec();
        let again = File::from_slice(&written).unwrap();
        assert_eq!(again, file);
        assert_eq!(again.to_vec(), written);
    }
}
