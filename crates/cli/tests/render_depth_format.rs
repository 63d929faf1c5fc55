//! `rigport render --orbit N --depth-format png16|npy`: the depth file times
//! `depth_unit_scale_factor` is the camera-space depth of the surface seen, computed here
//! from the flat square's plane and each view's camera in `transforms.json`.

mod common;

use common::rigport;
use rigport_model_core::glam::{DMat4, DVec3, DVec4};
use serde_json::Value;
use std::path::Path;

const SIDE: u32 = 96;

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

/// An IQE square of side `size` in the file's XZ plane (Z-up: it stands upright, facing
/// the front camera), centred at the origin: in the world of `transforms.json` (Y-up) the
/// plane z = 0.
fn square(dir: &Path, size: f64) -> std::path::PathBuf {
    let h = size / 2.0;
    let iqe = format!(
        "# Inter-Quake Export\nmesh square\nvp {} 0 {}\nvp {h} 0 {}\nvp {h} 0 {h}\nvp {} 0 {h}\nfm 0 1 2\nfm 0 2 3\n",
        -h, -h, -h, -h
    );
    let path = dir.join(format!("square_{size}.iqe"));
    std::fs::write(&path, iqe).unwrap();
    path
}

/// The depth along the view (camera −Z) at which the ray through pixel coordinates
/// `(u, v)` meets the plane z = 0 of the world, or `None` when it does not.
fn plane_depth(c2w: &DMat4, intrinsics: [f64; 4], u: f64, v: f64) -> Option<f64> {
    let [fl_x, fl_y, cx, cy] = intrinsics;
    // OpenGL camera axes: a point at depth 1 along the view.
    let direction = DVec3::new((u - cx) / fl_x, -(v - cy) / fl_y, -1.0);
    let origin = c2w.w_axis.truncate();
    let world = (*c2w * DVec4::new(direction.x, direction.y, direction.z, 0.0)).truncate();
    let t = -origin.z / world.z;
    (t.is_finite() && t > 0.0).then_some(t)
}

/// Reads a `.npy` of little-endian float32 with shape `(h, w)`.
fn npy(path: &Path) -> (Vec<usize>, Vec<f32>) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert!(header.contains("'descr': '<f4'") && header.contains("'fortran_order': False"));
    let shape: Vec<usize> = header
        .split_once("'shape': (")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(dims, _)| {
            dims.split(',')
                .filter_map(|d| d.trim().parse().ok())
                .collect()
        })
        .unwrap();
    let values = bytes[10 + len..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    (shape, values)
}

/// Renders the square of `size` with `--depth-format format` and returns, per view, the
/// largest difference between the stored depth × factor and the plane's depth over the
/// pixels whose four samples all see the square, and how many pixels were compared.
fn depth_errors(size: f64, format: &str) -> (f64, Vec<(f64, usize)>) {
    let temp = tempfile::tempdir().unwrap();
    let input = square(temp.path(), size);
    let out = temp.path().join("out");
    let run = rigport(&[
        "render",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--orbit",
        "3",
        "--size",
        &format!("{SIDE}x{SIDE}"),
        "--depth-format",
        format,
        "--passes",
        "mask",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let folder = out.join(input.file_stem().unwrap());
    let transforms = json(&folder.join("transforms.json"));
    assert!(transforms.get("integer_depth_scale").is_none());
    let factor = transforms["depth_unit_scale_factor"].as_f64().unwrap();
    let intrinsics = ["fl_x", "fl_y", "cx", "cy"].map(|k| transforms[k].as_f64().unwrap());
    let mut views = Vec::new();
    for frame in transforms["frames"].as_array().unwrap() {
        let c2w = matrix(&frame["transform_matrix"]);
        let depth_path = folder.join(frame["depth_file_path"].as_str().unwrap());
        let stored: Vec<f64> = match format {
            "png16" => {
                let image = image::open(&depth_path).unwrap();
                assert_eq!(image.color(), image::ColorType::L16);
                image
                    .into_luma16()
                    .pixels()
                    .map(|p| f64::from(p.0[0]))
                    .collect()
            }
            _ => {
                assert_eq!(depth_path.extension().unwrap(), "npy");
                let (shape, values) = npy(&depth_path);
                assert_eq!(shape, [SIDE as usize, SIDE as usize]);
                values.into_iter().map(f64::from).collect()
            }
        };
        let mask = image::open(folder.join(frame["mask_path"].as_str().unwrap()))
            .unwrap()
            .into_luma8();
        let (mut worst, mut compared) = (0.0_f64, 0);
        // Every third pixel in each direction.
        for y in (0..SIDE).step_by(3) {
            for x in (0..SIDE).step_by(3) {
                let value = stored[(y * SIDE + x) as usize];
                if mask.get_pixel(x, y).0[0] < 255 {
                    // No sample covered: nothing stored.
                    if mask.get_pixel(x, y).0[0] == 0 {
                        assert_eq!(value, 0.0, "({x}, {y})");
                    }
                    continue;
                }
                // The pixel's depth is that of its nearest sample, at the centres of its
                // quarters.
                let expected = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
                    .into_iter()
                    .filter_map(|(sx, sy)| {
                        plane_depth(&c2w, intrinsics, f64::from(x) + sx, f64::from(y) + sy)
                    })
                    .fold(f64::INFINITY, f64::min);
                worst = worst.max((value * factor - expected).abs());
                compared += 1;
            }
        }
        views.push((worst, compared));
    }
    (factor, views)
}

#[test]
fn png16_depth_times_the_factor_is_the_planes_depth_within_a_millimetre() {
    // A 1 m square: millimetre steps, within 1 mm.
    let (factor, views) = depth_errors(1.0, "png16");
    assert_eq!(factor, 0.001);
    for (view, (worst, compared)) in views.iter().enumerate() {
        assert!(*compared > 50, "view {view}: {compared} pixels");
        assert!(*worst <= 0.001, "view {view}: {worst} m");
    }
    // A 100 m square is seen from beyond 65.535 m: steps of the power of ten that holds
    // it, within 1 mm per metre of size.
    let (factor, views) = depth_errors(100.0, "png16");
    assert_eq!(factor, 0.01);
    for (view, (worst, compared)) in views.iter().enumerate() {
        assert!(*compared > 50, "view {view}: {compared} pixels");
        assert!(*worst <= 0.001 * 100.0, "view {view}: {worst}");
    }
}

#[test]
fn npy_depth_is_the_planes_depth_in_float32() {
    for size in [1.0, 100.0] {
        let (factor, views) = depth_errors(size, "npy");
        assert_eq!(factor, 1.0);
        for (view, (worst, compared)) in views.iter().enumerate() {
            assert!(*compared > 50, "view {view}: {compared} pixels");
            assert!(*worst <= 1e-5 * size, "{size}: view {view}: {worst}");
        }
    }
}

#[test]
fn without_the_flag_depth_keeps_its_scaled_encoding() {
    let temp = tempfile::tempdir().unwrap();
    let input = square(temp.path(), 1.0);
    let out = temp.path().join("out");
    let run = rigport(&[
        "render",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--orbit",
        "2",
        "--size",
        "32x32",
        "--passes",
        "depth",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let transforms = json(&out.join("square_1/transforms.json"));
    assert!(transforms["integer_depth_scale"].as_f64().unwrap() > 0.0);
    assert!(transforms.get("depth_unit_scale_factor").is_none());
    assert_eq!(
        transforms["frames"][0]["depth_file_path"],
        "view_00_depth.png"
    );
}
