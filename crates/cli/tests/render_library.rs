//! `rigport render DIR -o OUT --orbit N --passes … --metadata`, `--animate` and `--resume`
//! on a folder: every view of every pass is written, the cameras of `transforms.json`
//! project the model's `.glb` vertices onto its drawn mask, the metadata agrees with
//! `info --json`, and the manifest has a line per input, damaged files marked failed.

mod common;

use common::{repo_root, rigport};
use rigport::document::Document;
use rigport::{Format, ReadOptions};
use rigport_model_core::glam::{DMat4, DVec2, DVec3, DVec4};
use rigport_model_core::{Mesh, UpAxis};
use serde_json::Value;
use std::path::{Path, PathBuf};

const VIEWS: usize = 8;
const SIDE: u32 = 128;

/// The inputs: fixtures of each readable kind (Y-up and Z-up, animated and not), corpus
/// models when `RIGPORT_CORPUS` is set, and a damaged file.
fn input_folder(dir: &Path) -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = [
        "fixtures/ms3d/rig_full.ms3d",
        "fixtures/ms3d-ascii/lf_skinned_quad.txt",
        "fixtures/iqe/blends.iqe",
        "fixtures/iqe/polygons.iqe",
    ]
    .iter()
    .map(|p| repo_root().join(p))
    .collect();
    if let Some(root) = std::env::var_os("RIGPORT_CORPUS").map(PathBuf::from) {
        let root = if root.is_relative() {
            repo_root().join(root)
        } else {
            root
        };
        for p in [
            "iqm/raylib_guy.iqm",
            "iqm/redeclipse_janitor.iqm",
            "iqe/res-buildables__buildables__mgturret__mgturret.iqe",
        ] {
            sources.push(root.join(p));
        }
    }
    let mut copied = Vec::new();
    for source in sources {
        let target = dir.join(source.file_name().unwrap());
        std::fs::copy(&source, &target).unwrap();
        copied.push(target);
    }
    let damaged = dir.join("damaged.ms3d");
    let mut bytes = std::fs::read(repo_root().join("fixtures/ms3d/rig_full.ms3d")).unwrap();
    bytes.truncate(40);
    std::fs::write(&damaged, bytes).unwrap();
    copied
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The model as its `.glb` holds it (converted by the facade and read back), posed as
/// `render` poses it by default (first frame of the first animation, else the bind pose).
fn glb_meshes(input: &Path) -> Vec<Mesh> {
    let bytes = std::fs::read(input).unwrap();
    let settings = rigport::pipeline::Settings {
        source_dir: input.parent().map(Path::to_path_buf),
        ..Default::default()
    };
    let converted =
        rigport::pipeline::convert(&bytes, Path::new("m.glb"), Format::Glb, &settings).unwrap();
    let (document, _) =
        Document::sniff_and_read(&converted.files[0].1, &ReadOptions::default()).unwrap();
    let (model, _) = document.to_model().unwrap();
    assert_eq!(model.up, UpAxis::Y);
    if model.animations.is_empty() {
        model.meshes
    } else {
        rigport_anim::posed_meshes(&model, 0, 0.0).unwrap().0
    }
}

/// A world point to pixel coordinates through a `transforms.json` camera (OpenGL camera
/// axes: looking down −Z, +Y up; pixel y down).
fn project(c2w: &DMat4, intrinsics: [f64; 4], p: DVec3) -> Option<DVec2> {
    let [fl_x, fl_y, cx, cy] = intrinsics;
    let q = c2w.inverse() * DVec4::new(p.x, p.y, p.z, 1.0);
    let depth = -q.z;
    (depth > 0.0).then(|| DVec2::new(cx + fl_x * q.x / depth, cy - fl_y * q.y / depth))
}

fn matrix(value: &Value) -> DMat4 {
    let rows: Vec<Vec<f64>> = serde_json::from_value(value.clone()).unwrap();
    let mut cols = [0.0; 16];
    for r in 0..4 {
        for c in 0..4 {
            cols[c * 4 + r] = rows[r][c];
        }
    }
    DMat4::from_cols_array(&cols)
}

/// Projected vertices on model pixels (or beside one) and all projected vertices, and the IoU of the silhouette drawn from
/// the projected triangles (at least 2 of each pixel's 4 quarter centres inside) with the
/// mask (at least half covered).
fn check_view(
    meshes: &[Mesh],
    c2w: &DMat4,
    intrinsics: [f64; 4],
    mask: &image::GrayImage,
) -> ((usize, usize), f64) {
    let (w, h) = mask.dimensions();
    let (mut on, mut all) = (0usize, 0usize);
    // Samples at the centres of each pixel's 2×2 quarters, as the mask counts them.
    let mut drawn = vec![0u8; (w * h) as usize];
    for mesh in meshes {
        let screen: Vec<Option<DVec2>> = mesh
            .vertices
            .iter()
            .map(|v| project(c2w, intrinsics, v.position.as_dvec3()))
            .collect();
        for t in &mesh.triangles {
            let Some(corners) = t
                .iter()
                .map(|&i| screen.get(i as usize).copied().flatten())
                .collect::<Option<Vec<DVec2>>>()
            else {
                continue;
            };
            let [a, b, c] = [corners[0], corners[1], corners[2]];
            // A triangle seen (nearly) edge-on covers no sample: its corners are not
            // expected on the mask (the silhouette below still includes it).
            let seen = (b - a).perp_dot(c - a).abs() * 0.5 >= 2.0;
            for p in corners.iter().filter(|_| seen) {
                all += 1;
                let (x, y) = (p.x.floor(), p.y.floor());
                // A vertex on a pixel the model covers, or beside one (a vertex on the
                // silhouette's edge lies between pixels).
                let near = (-1..=1)
                    .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
                    .any(|(dx, dy): (i64, i64)| {
                        let (x, y) = (x as i64 + dx, y as i64 + dy);
                        x >= 0
                            && y >= 0
                            && x < i64::from(w)
                            && y < i64::from(h)
                            && mask.get_pixel(x as u32, y as u32).0[0] > 0
                    });
                if near && (0.0..f64::from(w)).contains(&x) && (0.0..f64::from(h)).contains(&y) {
                    on += 1;
                }
            }
            let min = a.min(b).min(c).max(DVec2::ZERO);
            let max = a.max(b).max(c).min(DVec2::new(f64::from(w), f64::from(h)));
            for y in (min.y as u32)..(max.y.ceil() as u32).min(h) {
                for x in (min.x as u32)..(max.x.ceil() as u32).min(w) {
                    for (k, (sx, sy)) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
                        .into_iter()
                        .enumerate()
                    {
                        let p = DVec2::new(f64::from(x) + sx, f64::from(y) + sy);
                        let d = [
                            (b - a).perp_dot(p - a),
                            (c - b).perp_dot(p - b),
                            (a - c).perp_dot(p - c),
                        ];
                        if d.iter().all(|&v| v >= 0.0) || d.iter().all(|&v| v <= 0.0) {
                            drawn[(y * w + x) as usize] |= 1 << k;
                        }
                    }
                }
            }
        }
    }
    let drawn: Vec<bool> = drawn.iter().map(|s| s.count_ones() >= 2).collect();
    let covered: Vec<bool> = mask.pixels().map(|p| p.0[0] >= 128).collect();
    let both = drawn
        .iter()
        .zip(&covered)
        .filter(|(a, b)| **a && **b)
        .count();
    let either = drawn
        .iter()
        .zip(&covered)
        .filter(|(a, b)| **a || **b)
        .count();
    (
        (on, all),
        if either == 0 {
            1.0
        } else {
            both as f64 / either as f64
        },
    )
}

#[test]
fn orbit_passes_metadata_and_manifest_of_a_folder() {
    let temp = tempfile::tempdir().unwrap();
    let inputs_dir = temp.path().join("in");
    std::fs::create_dir(&inputs_dir).unwrap();
    let inputs = input_folder(&inputs_dir);
    let out = temp.path().join("out");
    let size = format!("{SIDE}x{SIDE}");
    let args = [
        "render",
        inputs_dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--orbit",
        "8",
        "--passes",
        "color,depth,normal,mask",
        "--metadata",
        "--size",
        &size,
    ];
    let run = rigport(&args);
    // The damaged file fails the run (exit 1) without stopping it.
    assert_eq!(
        run.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );

    let manifest = std::fs::read_to_string(out.join("manifest.jsonl")).unwrap();
    let lines: Vec<Value> = manifest
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), inputs.len() + 1, "{manifest}");
    for line in &lines {
        let input = line["input"].as_str().unwrap();
        if input.ends_with("damaged.ms3d") {
            assert_eq!(line["status"], "failed", "{line}");
            assert!(line["error"].as_str().unwrap().contains("byte"), "{line}");
            continue;
        }
        assert_eq!(line["status"], "ok", "{line}");
    }

    for input in &inputs {
        let name = input.file_stem().unwrap().to_str().unwrap();
        let folder = out.join(name);
        let transforms = json(&folder.join("transforms.json"));
        let frames = transforms["frames"].as_array().unwrap();
        assert_eq!(frames.len(), VIEWS);
        assert_eq!(transforms["w"], SIDE);
        let intrinsics = ["fl_x", "fl_y", "cx", "cy"].map(|k| transforms[k].as_f64().unwrap());
        let angle = transforms["camera_angle_x"].as_f64().unwrap();
        assert!((2.0 * (f64::from(SIDE) / 2.0 / intrinsics[0]).atan() - angle).abs() < 1e-9);
        let depth_scale = transforms["integer_depth_scale"].as_f64().unwrap();
        let meshes = glb_meshes(input);
        // Counted over the model's views: a few-triangle fixture's sharp tip, thinner than
        // a sample for pixels on end, is one vertex of nine in a view.
        let (mut vertices_on, mut vertices_all) = (0, 0);
        for (i, frame) in frames.iter().enumerate() {
            let stem = format!("view_{i:02}");
            assert_eq!(frame["file_path"], format!("{stem}.png"));
            let color = image::open(folder.join(format!("{stem}.png"))).unwrap();
            assert_eq!((color.width(), color.height()), (SIDE, SIDE));
            let depth = image::open(folder.join(format!("{stem}_depth.png"))).unwrap();
            assert_eq!(depth.color(), image::ColorType::L16);
            let normal = image::open(folder.join(format!("{stem}_normal.png"))).unwrap();
            assert_eq!(normal.color(), image::ColorType::Rgb8);
            let mask = image::open(folder.join(format!("{stem}_mask.png")))
                .unwrap()
                .into_luma8();
            let c2w = matrix(&frame["transform_matrix"]);
            let ((on, all), iou) = check_view(&meshes, &c2w, intrinsics, &mask);
            println!("{name} {stem}: {on} of {all} vertices on the mask, IoU {iou:.3}");
            vertices_on += on;
            vertices_all += all;
            assert!(iou >= 0.9, "{name} {stem}: IoU {iou}");

            // Depth: where the mask is full, the depth is the distance of a point of the
            // model along the view axis, so it lies between the nearest and the farthest
            // vertex.
            let depth = depth.into_luma16();
            let axis = -c2w.col(2).truncate();
            let eye = c2w.col(3).truncate();
            let along: Vec<f64> = meshes
                .iter()
                .flat_map(|m| &m.vertices)
                .map(|v| (v.position.as_dvec3() - eye).dot(axis))
                .collect();
            let (near, far) = along
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &d| {
                    (a.min(d), b.max(d))
                });
            let slack = (far - near) * 0.02 + depth_scale;
            for (d, m) in depth.pixels().zip(mask.pixels()) {
                if m.0[0] == 255 {
                    let d = f64::from(d.0[0]) * depth_scale;
                    assert!(
                        d >= near - slack && d <= far + slack,
                        "{name} {stem}: {d} outside {near}..{far}"
                    );
                } else if m.0[0] == 0 {
                    assert_eq!(d.0[0], 0);
                }
            }
        }

        let share = vertices_on as f64 / vertices_all.max(1) as f64;
        assert!(
            share >= 0.95,
            "{name}: only {:.1} % of vertices on the mask",
            share * 100.0
        );
        assert!(vertices_all > 0, "{name}");

        // The metadata repeats `info --json` and adds the skeleton and animations.
        let metadata = json(&folder.join("metadata.json"));
        let info = rigport(&["info", "--json", input.to_str().unwrap()]);
        let info: Value = serde_json::from_slice(&info.stdout).unwrap();
        for (key, value) in info.as_object().unwrap() {
            if key != "file" {
                assert_eq!(&metadata[key], value, "{name}: {key}");
            }
        }
        assert_eq!(
            metadata["joint_list"].as_array().unwrap().len() as u64,
            info["joints"].as_u64().unwrap()
        );
        assert_eq!(
            metadata["animation_list"].as_array().unwrap().len() as u64,
            info["animations"].as_u64().unwrap()
        );
        let bounds = &metadata["bounds"];
        for k in 0..3 {
            assert!(bounds["min"][k].as_f64().unwrap() <= bounds["max"][k].as_f64().unwrap());
        }
    }

    // Resume: nothing left to do, the manifest keeps its lines and gains the retried
    // failure; a removed output makes its model be drawn again.
    let resume: Vec<&str> = args.iter().copied().chain(["--resume"]).collect();
    let first = out
        .join(inputs[0].file_stem().unwrap())
        .join("view_03_mask.png");
    std::fs::remove_file(&first).unwrap();
    // A picture cut short (as a machine crash may leave one that was not synced) counts
    // as missing too.
    let second = out.join(inputs[1].file_stem().unwrap()).join("view_00.png");
    let png = std::fs::read(&second).unwrap();
    std::fs::write(&second, &png[..png.len() / 2]).unwrap();
    let run = rigport(&resume);
    assert_eq!(run.status.code(), Some(1));
    let manifest = std::fs::read_to_string(out.join("manifest.jsonl")).unwrap();
    let again: Vec<Value> = manifest
        .lines()
        .skip(lines.len())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let redone: Vec<&str> = again.iter().map(|l| l["input"].as_str().unwrap()).collect();
    assert_eq!(redone.len(), 3, "{redone:?}");
    assert!(redone.iter().any(|i| i.ends_with("damaged.ms3d")));
    assert!(redone.iter().any(|i| Path::new(i) == inputs[0]));
    assert!(redone.iter().any(|i| Path::new(i) == inputs[1]));
    assert!(first.is_file());
    assert_eq!(std::fs::read(&second).unwrap(), png);
}

#[test]
fn animate_writes_one_apng_frame_per_animation_frame() {
    use image::AnimationDecoder;
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("out");
    for fixture in ["fixtures/ms3d/rig_full.ms3d", "fixtures/iqe/crlf.iqe"] {
        let input = repo_root().join(fixture);
        let run = rigport(&[
            "render",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--animate",
            "--metadata",
            "--size",
            "32x32",
            "--force",
        ]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let folder = out.join(input.file_stem().unwrap());
        let metadata = json(&folder.join("metadata.json"));
        let animation = &metadata["animation_list"][0];
        let expected = animation["frames"].as_u64().unwrap();
        let file = std::fs::File::open(folder.join("animation.png")).unwrap();
        let decoder = image::codecs::png::PngDecoder::new(std::io::BufReader::new(file)).unwrap();
        assert!(decoder.is_apng().unwrap());
        let frames = decoder
            .apng()
            .unwrap()
            .into_frames()
            .collect_frames()
            .unwrap();
        println!("{fixture}: {} frames, {animation}", frames.len());
        assert_eq!(frames.len() as u64, expected, "{fixture}");
        // One frame per frame of the source's timeline.
        let fps = animation["fps"].as_f64().unwrap();
        let duration = animation["duration"].as_f64().unwrap();
        let looping = animation["looping"].as_bool().unwrap();
        let steps = (duration * fps).round() as u64;
        assert_eq!(expected, if looping { steps.max(1) } else { steps + 1 });
        assert!(expected > 1, "{fixture}");
        let middle = frames.len() / 2;
        // rig_full's joints move; crlf.iqe's two frames hold the same pose.
        assert_eq!(
            frames[0].buffer() != frames[middle].buffer(),
            fixture.ends_with("rig_full.ms3d"),
            "{fixture}: first and middle frames"
        );
    }
}
