//! `rigport render --orbit N --keypoints --camera-convention opengl|opencv`: every joint's
//! world position, projected through the file's camera-to-world matrix and intrinsics by
//! the convention the file names, lands on its `keypoints.json` pixel, and the pixels do not
//! depend on the convention.

mod common;

use common::{repo_root, rigport};
use rigport_model_core::glam::{DMat4, DVec3, DVec4};
use serde_json::Value;
use std::path::Path;

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn matrix(value: &Value) -> DMat4 {
    let rows: Vec<Vec<f64>> = serde_json::from_value(value.clone()).unwrap();
    DMat4::from_cols_array_2d(&std::array::from_fn(|c| {
        std::array::from_fn(|r| rows[r][c])
    }))
}

/// Renders `input` into `out` with keypoints and, when given, `--camera-convention`.
fn render(input: &Path, out: &Path, convention: Option<&str>) {
    let mut args = vec![
        "render",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--orbit",
        "5",
        "--elevation",
        "25",
        "--size",
        "96x80",
        "--keypoints",
    ];
    if let Some(convention) = convention {
        args.extend(["--camera-convention", convention]);
    }
    let run = rigport(&args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// A world point to pixel coordinates through a camera-to-world matrix in `convention`
/// (a point behind the camera too: its pixel is where the same formula puts it).
fn project(c2w: &DMat4, intrinsics: [f64; 4], convention: &str, p: DVec3) -> [f64; 2] {
    let [fl_x, fl_y, cx, cy] = intrinsics;
    let q = c2w.inverse() * DVec4::new(p.x, p.y, p.z, 1.0);
    match convention {
        "opencv" => [cx + fl_x * q.x / q.z, cy + fl_y * q.y / q.z],
        _ => [cx + fl_x * q.x / -q.z, cy - fl_y * q.y / -q.z],
    }
}

#[test]
fn joints_project_onto_their_keypoint_pixels_in_both_conventions() {
    let temp = tempfile::tempdir().unwrap();
    for fixture in ["fixtures/ms3d/rig_full.ms3d", "fixtures/iqe/blends.iqe"] {
        let input = repo_root().join(fixture);
        let name = input.file_stem().unwrap().to_str().unwrap().to_owned();
        let mut keypoint_files = Vec::new();
        for convention in ["opengl", "opencv"] {
            let out = temp.path().join(format!("{name}_{convention}"));
            render(&input, &out, Some(convention));
            let folder = out.join(&name);
            let transforms = json(&folder.join("transforms.json"));
            assert_eq!(transforms["camera_convention"], convention);
            assert_eq!(transforms["transform"], "camera_to_world");
            let intrinsics = ["fl_x", "fl_y", "cx", "cy"].map(|k| transforms[k].as_f64().unwrap());
            let keypoints = json(&folder.join("keypoints.json"));
            let frames = transforms["frames"].as_array().unwrap();
            let views = keypoints["frames"].as_array().unwrap();
            assert_eq!(frames.len(), views.len());
            let mut checked = 0;
            for (frame, view) in frames.iter().zip(views) {
                assert_eq!(frame["file_path"], view["file_path"]);
                let c2w = matrix(&frame["transform_matrix"]);
                for point in view["keypoints"].as_array().unwrap() {
                    let world: Vec<f64> = serde_json::from_value(point["world"].clone()).unwrap();
                    let pixel: Vec<Option<f64>> =
                        serde_json::from_value(point["pixel"].clone()).unwrap();
                    let (Some(u), Some(v)) = (pixel[0], pixel[1]) else {
                        continue;
                    };
                    let at = DVec3::new(world[0], world[1], world[2]);
                    let projected = project(&c2w, intrinsics, convention, at);
                    assert!(
                        (projected[0] - u).abs() < 0.5 && (projected[1] - v).abs() < 0.5,
                        "{fixture} {convention}: {projected:?} against ({u}, {v})"
                    );
                    checked += 1;
                }
            }
            assert!(checked >= 5 * 2, "{fixture}: {checked} joints");
            keypoint_files.push(std::fs::read(folder.join("keypoints.json")).unwrap());
        }
        // Same pixels, depths and visibility whatever the convention.
        assert_eq!(keypoint_files[0], keypoint_files[1], "{fixture}");
    }
}

#[test]
fn without_the_flag_transforms_say_nothing_of_the_convention() {
    let temp = tempfile::tempdir().unwrap();
    let input = repo_root().join("fixtures/ms3d/rig_full.ms3d");
    render(&input, &temp.path().join("plain"), None);
    render(&input, &temp.path().join("gl"), Some("opengl"));
    let plain = json(&temp.path().join("plain/rig_full/transforms.json"));
    let mut gl = json(&temp.path().join("gl/rig_full/transforms.json"));
    assert!(plain.get("camera_convention").is_none() && plain.get("transform").is_none());
    let object = gl.as_object_mut().unwrap();
    object.remove("camera_convention");
    object.remove("transform");
    assert_eq!(plain, gl);
}
