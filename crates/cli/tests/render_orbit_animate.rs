//! `rigport render --orbit N --animate`: every view at every sampled frame, one camera per
//! view for the whole animation, masks that follow the motion, and `transforms.json` and
//! `keypoints.json` entries per picture.

mod common;

use common::{repo_root, rigport};
use serde_json::Value;
use std::path::Path;

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Renders `fixture` into `out` with `extra` arguments and returns its folder.
fn render(fixture: &str, out: &Path, extra: &[&str]) -> std::path::PathBuf {
    let input = repo_root().join(fixture);
    let mut args = vec![
        "render",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--size",
        "64x64",
        "--animate",
    ];
    args.extend(extra);
    let run = rigport(&args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    out.join(input.file_stem().unwrap())
}

#[test]
fn every_view_at_every_frame_with_one_camera_per_view() {
    let temp = tempfile::tempdir().unwrap();
    for fixture in [
        "fixtures/ms3d/rig_full.ms3d",
        "fixtures/ms3d-ascii/lf_skinned_quad.txt",
    ] {
        let out = temp.path().join(Path::new(fixture).file_stem().unwrap());
        let folder = render(
            fixture,
            &out,
            &[
                "--orbit",
                "3",
                "--frames",
                "4",
                "--passes",
                "depth,mask",
                "--depth-format",
                "png16",
                "--keypoints",
            ],
        );
        assert!(!folder.join("animation.png").exists());
        let transforms = json(&folder.join("transforms.json"));
        let records = transforms["frames"].as_array().unwrap();
        assert_eq!(records.len(), 3 * 4, "{fixture}");
        let mut changed = 0;
        for view in 0..3 {
            let mut masks = Vec::new();
            for frame in 0..4 {
                let stem = format!("view_{view:02}/frame_{frame:04}");
                for suffix in [".png", "_depth.png", "_mask.png"] {
                    assert!(
                        folder.join(format!("{stem}{suffix}")).is_file(),
                        "{stem}{suffix}"
                    );
                }
                let record = &records[frame * 3 + view];
                assert_eq!(record["file_path"], format!("{stem}.png"));
                assert_eq!(
                    (record["view"].as_u64(), record["frame"].as_u64()),
                    (Some(view as u64), Some(frame as u64))
                );
                assert_eq!(record["depth_file_path"], format!("{stem}_depth.png"));
                assert_eq!(record["mask_path"], format!("{stem}_mask.png"));
                // One camera per view for the whole animation.
                assert_eq!(
                    record["transform_matrix"],
                    records[view]["transform_matrix"]
                );
                masks.push(std::fs::read(folder.join(format!("{stem}_mask.png"))).unwrap());
            }
            let times: Vec<f64> = (0..4)
                .map(|f| records[f * 3 + view]["time"].as_f64().unwrap())
                .collect();
            assert!(times.windows(2).all(|t| t[0] < t[1]), "{times:?}");
            changed += masks.windows(2).filter(|m| m[0] != m[1]).count();
        }
        // The model moves: masks change between frames.
        assert!(changed >= 3, "{fixture}: {changed} mask changes");
        assert_eq!(transforms["depth_unit_scale_factor"], 0.001);
        let keypoints = json(&folder.join("keypoints.json"));
        let views = keypoints["frames"].as_array().unwrap();
        assert_eq!(views.len(), 12);
        for (record, view) in records.iter().zip(views) {
            for key in ["file_path", "view", "frame", "time"] {
                assert_eq!(record[key], view[key], "{key}");
            }
        }
        // The joints move between the first and the last frame.
        assert_ne!(views[0]["keypoints"], views[9]["keypoints"]);
        let coco = json(&out.join("annotations.json"));
        assert_eq!(coco["images"].as_array().unwrap().len(), 12);
        let manifest = std::fs::read_to_string(out.join("manifest.jsonl")).unwrap();
        assert!(manifest.contains("view_02/frame_0003_mask.png"));
    }
}

#[test]
fn views_per_frame_draws_seeded_random_cameras_at_each_frame() {
    let temp = tempfile::tempdir().unwrap();
    let args = [
        "--orbit",
        "1",
        "--frames",
        "3",
        "--views-per-frame",
        "2",
        "--seed",
        "9",
    ];
    let folder = render("fixtures/ms3d/rig_full.ms3d", &temp.path().join("a"), &args);
    let again = render("fixtures/ms3d/rig_full.ms3d", &temp.path().join("b"), &args);
    let transforms = json(&folder.join("transforms.json"));
    assert_eq!(transforms, json(&again.join("transforms.json")));
    let records = transforms["frames"].as_array().unwrap();
    assert_eq!(records.len(), 3 * 2);
    for frame in 0..3 {
        for view in 0..2 {
            let stem = format!("view_{view:02}/frame_{frame:04}.png");
            assert!(folder.join(&stem).is_file(), "{stem}");
            assert_eq!(
                std::fs::read(folder.join(&stem)).unwrap(),
                std::fs::read(again.join(&stem)).unwrap()
            );
        }
    }
    // Other cameras at each frame.
    assert_ne!(
        records[0]["transform_matrix"],
        records[2]["transform_matrix"]
    );
    assert_ne!(
        records[0]["transform_matrix"],
        records[1]["transform_matrix"]
    );
}

#[test]
fn animate_without_orbit_still_writes_the_apng_and_a_static_model_fails() {
    let temp = tempfile::tempdir().unwrap();
    let folder = render("fixtures/ms3d/rig_full.ms3d", &temp.path().join("a"), &[]);
    assert!(folder.join("animation.png").is_file());
    assert!(!folder.join("view_00").exists());
    // A model without animations: the manifest says why.
    let input = repo_root().join("fixtures/iqe/polygons.iqe");
    let out = temp.path().join("b");
    let run = rigport(&[
        "render",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--orbit",
        "2",
        "--animate",
    ]);
    assert_eq!(run.status.code(), Some(1));
    let manifest = std::fs::read_to_string(out.join("manifest.jsonl")).unwrap();
    assert!(
        manifest.contains("failed") && manifest.contains("animation"),
        "{manifest}"
    );
}
