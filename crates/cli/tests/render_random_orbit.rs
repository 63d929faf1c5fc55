//! `rigport render --orbit random:N --seed S`: N cameras within the random ranges, the
//! same files for the same seed, other cameras for another seed.

mod common;

use common::{repo_root, rigport};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Every file under `dir`, by path relative to it.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                all.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    all
}

fn render(out: &Path, seed: &str) -> BTreeMap<String, Vec<u8>> {
    let input = repo_root().join("fixtures/ms3d/rig_full.ms3d");
    let run = rigport(&[
        "render",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--orbit",
        "random:6",
        "--seed",
        seed,
        "--size",
        "64x64",
        "--passes",
        "depth,mask",
        "--keypoints",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    files(out)
}

#[test]
fn the_same_seed_writes_the_same_files() {
    let temp = tempfile::tempdir().unwrap();
    let first = render(&temp.path().join("a"), "42");
    let again = render(&temp.path().join("b"), "42");
    let other = render(&temp.path().join("c"), "43");
    // Six views of colour, depth and mask, transforms, keypoints, manifest, annotations.
    assert_eq!(first.len(), 6 * 3 + 4, "{:?}", first.keys());
    // The manifest names its inputs and outputs, which are the same paths here.
    assert_eq!(first, again);
    let transforms = |files: &BTreeMap<String, Vec<u8>>| -> Value {
        serde_json::from_slice(&files["rig_full/transforms.json"]).unwrap()
    };
    assert_ne!(
        transforms(&first)["frames"][0]["transform_matrix"],
        transforms(&other)["frames"][0]["transform_matrix"]
    );
    // Each camera's elevation (its backward axis, the matrix's third column, against +Y)
    // lies in the random range.
    let frames = transforms(&first)["frames"].as_array().unwrap().clone();
    assert_eq!(frames.len(), 6);
    let mut elevations = Vec::new();
    for frame in &frames {
        let m: Vec<Vec<f64>> = serde_json::from_value(frame["transform_matrix"].clone()).unwrap();
        let elevation = m[1][2].asin().to_degrees();
        assert!((-20.001..=60.001).contains(&elevation), "{elevation}");
        elevations.push(elevation);
    }
    assert!(elevations.windows(2).any(|w| (w[0] - w[1]).abs() > 1.0));
}

#[test]
fn orbit_counts_are_checked() {
    for bad in ["0", "random:0", "random:1001", "spiral:4", "random:x"] {
        let run = rigport(&["render", "in.ms3d", "-o", "out", "--orbit", bad]);
        assert_eq!(run.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains("random:N"), "{bad}: {stderr}");
    }
}
