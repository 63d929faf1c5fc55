//! `rigport render DIR -o OUT --orbit N --draw-skeleton`: the skeleton drawn over each colour
//! picture sits on the keypoints (dots at the joints' pixels, lines along the bones), and
//! nothing else changes; without the flag, keypoints leave the pictures as they were.

mod common;

use common::{repo_root, rigport};
use rigport_dataset::picture::{JOINT_DOT_RADIUS, SKELETON_OCCLUDED, SKELETON_VISIBLE};
use serde_json::Value;
use std::path::{Path, PathBuf};

const VIEWS: usize = 6;

/// Fixtures with skeletons (Y-up and Z-up) and, with `RIGPORT_CORPUS`, real characters.
fn sources() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = ["fixtures/ms3d/rig_full.ms3d", "fixtures/iqe/blends.iqe"]
        .iter()
        .map(|p| repo_root().join(p))
        .collect();
    if let Some(root) = std::env::var_os("RIGPORT_CORPUS").map(PathBuf::from) {
        let root = if root.is_relative() {
            repo_root().join(root)
        } else {
            root
        };
        for p in ["iqm/raylib_guy.iqm", "smd/mapbase_combine_soldier_lod4.smd"] {
            all.push(root.join(p));
        }
    } else {
        println!("RIGPORT_CORPUS not set: fixtures only");
    }
    all
}

fn render(input: &Path, out: &Path, extra: &[&str]) {
    let mut args = vec![
        "render",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--orbit",
        "6",
        "--size",
        "160x120",
    ];
    args.extend(extra);
    let run = rigport(&args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Distance from point `p` to the segment `a`–`b`.
fn to_segment(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let length = dx * dx + dy * dy;
    let t = if length > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p[0] - a[0] - t * dx).hypot(p[1] - a[1] - t * dy)
}

#[test]
fn the_skeleton_overlay_sits_on_the_keypoints() {
    let temp = tempfile::tempdir().unwrap();
    let (mut drawn_dots, mut changed_pixels) = (0, 0);
    for input in sources() {
        let name = input.file_stem().unwrap().to_str().unwrap().to_owned();
        let (plain, with_keypoints, overlaid) = (
            temp.path().join(format!("{name}-plain")),
            temp.path().join(format!("{name}-keypoints")),
            temp.path().join(format!("{name}-skeleton")),
        );
        render(&input, &plain, &["--passes", "depth,mask"]);
        render(
            &input,
            &with_keypoints,
            &["--passes", "depth,mask", "--keypoints"],
        );
        render(
            &input,
            &overlaid,
            &["--passes", "depth,mask", "--keypoints", "--draw-skeleton"],
        );
        let folder = |root: &Path| root.join(&name);
        // Keypoints, cameras and the other passes do not depend on the overlay.
        for file in ["keypoints.json", "transforms.json"] {
            assert_eq!(
                std::fs::read(folder(&with_keypoints).join(file)).unwrap(),
                std::fs::read(folder(&overlaid).join(file)).unwrap(),
                "{name}: {file}"
            );
        }
        assert_eq!(
            json(&with_keypoints.join("annotations.json")),
            json(&overlaid.join("annotations.json"))
        );
        let keypoints = json(&folder(&overlaid).join("keypoints.json"));
        let parents: Vec<Option<usize>> = keypoints["joints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j["parent"].as_u64().map(|p| p as usize))
            .collect();
        let frames = keypoints["frames"].as_array().unwrap();
        assert_eq!(frames.len(), VIEWS);
        for (view, frame) in frames.iter().enumerate() {
            let stem = format!("view_{view:02}");
            for suffix in ["_depth.png", "_mask.png"] {
                let file = format!("{stem}{suffix}");
                assert_eq!(
                    std::fs::read(folder(&plain).join(&file)).unwrap(),
                    std::fs::read(folder(&overlaid).join(&file)).unwrap(),
                    "{name}: {file}"
                );
            }
            // Without the flag, keypoints leave the colour picture byte for byte.
            let colour = format!("{stem}.png");
            let before = std::fs::read(folder(&plain).join(&colour)).unwrap();
            assert_eq!(
                before,
                std::fs::read(folder(&with_keypoints).join(&colour)).unwrap(),
                "{name}: {colour}"
            );
            let before = image::load_from_memory(&before).unwrap().into_rgb8();
            let after = image::open(folder(&overlaid).join(&colour))
                .unwrap()
                .into_rgb8();
            let points: Vec<([f64; 2], &str)> = frame["keypoints"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| {
                    let pixel: Vec<f64> = serde_json::from_value(k["pixel"].clone()).unwrap();
                    ([pixel[0], pixel[1]], k["visibility"].as_str().unwrap())
                })
                .collect();
            let shown = |k: usize| points[k].1 != "outside";
            // Each joint in the frame has its dot on its own pixel: a visible one always
            // in the visible colour (drawn last), an occluded one in either colour.
            for (k, &([u, v], visibility)) in points.iter().enumerate() {
                if !shown(k) {
                    continue;
                }
                let at = after.get_pixel(u.floor() as u32, v.floor() as u32).0;
                match visibility {
                    "visible" => assert_eq!(at, SKELETON_VISIBLE, "{name} {stem} joint {k}"),
                    _ => assert!(
                        at == SKELETON_OCCLUDED || at == SKELETON_VISIBLE,
                        "{name} {stem} joint {k}: {at:?}"
                    ),
                }
                drawn_dots += 1;
            }
            // Every pixel the overlay changed is one of its colours, within 1 px of a
            // joint's dot or of a bone between two joints in the frame.
            for (x, y, pixel) in after.enumerate_pixels() {
                if *pixel == *before.get_pixel(x, y) {
                    continue;
                }
                changed_pixels += 1;
                assert!(
                    pixel.0 == SKELETON_VISIBLE || pixel.0 == SKELETON_OCCLUDED,
                    "{name} {stem} ({x}, {y}): {pixel:?}"
                );
                let centre = [f64::from(x) + 0.5, f64::from(y) + 0.5];
                let near_dot = (0..points.len()).filter(|&k| shown(k)).any(|k| {
                    let [u, v] = points[k].0;
                    (centre[0] - u).hypot(centre[1] - v) <= JOINT_DOT_RADIUS + 1.0
                });
                let near_bone = parents.iter().enumerate().any(|(k, parent)| {
                    parent.is_some_and(|p| {
                        shown(k) && shown(p) && to_segment(centre, points[p].0, points[k].0) <= 1.0
                    })
                });
                assert!(
                    near_dot || near_bone,
                    "{name} {stem}: overlay pixel ({x}, {y}) away from every joint and bone"
                );
            }
        }
    }
    println!("{drawn_dots} joints drawn, {changed_pixels} pixels changed");
    assert!(drawn_dots > 0 && changed_pixels > 0);
}

#[test]
fn the_skeleton_overlay_needs_an_orbit() {
    let run = rigport(&[
        "render",
        "fixtures/ms3d/rig_full.ms3d",
        "x.png",
        "--draw-skeleton",
    ]);
    assert_eq!(run.status.code(), Some(2));
}
