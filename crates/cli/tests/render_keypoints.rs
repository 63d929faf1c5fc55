//! `rigport render DIR -o OUT --orbit N --keypoints`: each joint's pixel is the projection
//! of the posed skeleton of the model's `.glb` through `transforms.json`'s camera, visible
//! joints lie on the mask, occluded ones behind the depth pass, and `annotations.json`
//! says the same as every `keypoints.json`.

mod common;

use common::{repo_root, rigport};
use rigport::document::Document;
use rigport::{Format, ReadOptions};
use rigport_model_core::glam::{DMat4, DVec3, DVec4};
use rigport_model_core::{Model, UpAxis};
use serde_json::Value;
use std::path::{Path, PathBuf};

const VIEWS: usize = 8;
const SIDE: u32 = 128;

/// Fixtures (Y-up and Z-up, animated and not, one without joints) and, with
/// `RIGPORT_CORPUS`, real models of several formats; the second list is the animated ones.
fn sources() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let fixtures =
        |paths: &[&str]| -> Vec<PathBuf> { paths.iter().map(|p| repo_root().join(p)).collect() };
    let mut all = fixtures(&[
        "fixtures/ms3d/rig_full.ms3d",
        "fixtures/ms3d-ascii/lf_skinned_quad.txt",
        "fixtures/iqe/blends.iqe",
        "fixtures/iqe/polygons.iqe",
    ]);
    let mut animated = fixtures(&[
        "fixtures/ms3d/rig_full.ms3d",
        "fixtures/ms3d-ascii/lf_skinned_quad.txt",
    ]);
    if let Some(root) = std::env::var_os("RIGPORT_CORPUS").map(PathBuf::from) {
        let root = if root.is_relative() {
            repo_root().join(root)
        } else {
            root
        };
        for p in [
            "iqm/raylib_guy.iqm",
            "iqm/redeclipse_janitor.iqm",
            "md5/assimp_Bob.md5mesh",
            "smd/assimp_WusonSMD.smd",
            "gltf/raylib_greenman.glb",
        ] {
            all.push(root.join(p));
        }
        animated.push(root.join("iqm/raylib_guy.iqm"));
        animated.push(root.join("gltf/raylib_greenman.glb"));
    } else {
        println!("RIGPORT_CORPUS not set: fixtures only");
    }
    (all, animated)
}

/// Copies `sources` into a new folder `dir`.
fn copy_into(dir: &Path, sources: &[PathBuf]) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    sources
        .iter()
        .map(|source| {
            let target = dir.join(source.file_name().unwrap());
            std::fs::copy(source, &target).unwrap();
            target
        })
        .collect()
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The model as its `.glb` holds it (converted by the facade and read back).
fn glb_model(input: &Path) -> Model {
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
    model
}

/// World positions of the `.glb` model's joints at animation 0, `time` seconds (the bind
/// pose when it has no animation), as rigport poses its skeleton.
fn posed_joints(model: &Model, time: f32) -> Vec<DVec3> {
    let pose = if model.animations.is_empty() {
        rigport_anim::Pose::new(&model.skeleton).unwrap()
    } else {
        rigport_anim::sample_model(model, 0, time).unwrap().0
    };
    pose.world_matrices()
        .iter()
        .map(|m| m.w_axis.truncate().as_dvec3())
        .collect()
}

fn matrix(value: &Value) -> DMat4 {
    let rows: Vec<Vec<f64>> = serde_json::from_value(value.clone()).unwrap();
    DMat4::from_cols_array_2d(&std::array::from_fn(|c| {
        std::array::from_fn(|r| rows[r][c])
    }))
}

/// A world point in a `transforms.json` camera: pixel (OpenGL camera axes, looking down
/// −Z, +Y up; pixel v down) and depth along the view.
fn project(c2w: &DMat4, [fl_x, fl_y, cx, cy]: [f64; 4], p: DVec3) -> ([f64; 2], f64) {
    let q = c2w.inverse() * DVec4::new(p.x, p.y, p.z, 1.0);
    let depth = -q.z;
    ([cx + fl_x * q.x / depth, cy - fl_y * q.y / depth], depth)
}

/// Whether a mask pixel within 2 px of `(u, v)` is covered.
fn near_mask(mask: &image::GrayImage, [u, v]: [f64; 2]) -> bool {
    let (w, h) = mask.dimensions();
    let range = |c: f64, n: u32| {
        (((c - 2.0).floor().max(0.0)) as u32)..=(((c + 2.0).floor() as u32).min(n - 1))
    };
    range(v, h).any(|j| {
        range(u, w).any(|i| {
            let dx = (f64::from(i) - u).max(u - f64::from(i + 1)).max(0.0);
            let dy = (f64::from(j) - v).max(v - f64::from(j + 1)).max(0.0);
            dx * dx + dy * dy <= 4.0 && mask.get_pixel(i, j).0[0] > 0
        })
    })
}

/// Runs the render and checks every model's keypoints; returns the counts of visible,
/// occluded and outside joints.
fn check_run(inputs: &[PathBuf], out: &Path, extra: &[&str], time: f32) -> [usize; 3] {
    let dir = inputs[0].parent().unwrap();
    let size = format!("{SIDE}x{SIDE}");
    let mut args = vec![
        "render",
        dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--orbit",
        "8",
        "--passes",
        "depth,mask",
        "--keypoints",
        "--size",
        &size,
    ];
    args.extend(extra);
    let run = rigport(&args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );

    let coco = json(&out.join("annotations.json"));
    let images = coco["images"].as_array().unwrap();
    let annotations = coco["annotations"].as_array().unwrap();
    assert_eq!(images.len(), inputs.len() * VIEWS);
    assert_eq!(annotations.len(), images.len());
    let mut counts = [0; 3];
    for input in inputs {
        let name = input.file_stem().unwrap().to_str().unwrap();
        let folder = out.join(name);
        let transforms = json(&folder.join("transforms.json"));
        let keypoints = json(&folder.join("keypoints.json"));
        let intrinsics = ["fl_x", "fl_y", "cx", "cy"].map(|k| transforms[k].as_f64().unwrap());
        let depth_scale = transforms["integer_depth_scale"].as_f64().unwrap();
        let model = glb_model(input);
        let world = posed_joints(&model, time);
        let size = {
            let (mut lo, mut hi) = (DVec3::INFINITY, DVec3::NEG_INFINITY);
            for p in model.meshes.iter().flat_map(|m| &m.vertices) {
                lo = lo.min(p.position.as_dvec3());
                hi = hi.max(p.position.as_dvec3());
            }
            (hi - lo).length()
        };

        // The .glb lists joints parents first: they are matched by name (in order, for
        // names given twice), and each parent by its joint. It may add one joint for
        // vertices bound to none.
        let joints = keypoints["joints"].as_array().unwrap();
        let glb = &model.skeleton.joints;
        let added = glb.iter().filter(|j| j.name == "rigport_unbound").count();
        assert_eq!(joints.len() + added, glb.len(), "{name}");
        let mut taken = vec![false; glb.len()];
        let order: Vec<usize> = joints
            .iter()
            .map(|joint| {
                assert_eq!(joint.as_object().unwrap().len(), 2, "{name}: {joint}");
                let k = (0..glb.len())
                    .find(|&k| !taken[k] && joint["name"] == glb[k].name.as_str())
                    .unwrap_or_else(|| panic!("{name}: {joint} not in the .glb"));
                taken[k] = true;
                k
            })
            .collect();
        for (joint, &k) in joints.iter().zip(&order) {
            let parent = joint["parent"].as_u64().map(|p| order[p as usize]);
            assert_eq!(parent, glb[k].parent.map(|p| p.index()), "{name}: {joint}");
        }
        let world: Vec<DVec3> = order.iter().map(|&k| world[k]).collect();
        let frames = keypoints["frames"].as_array().unwrap();
        assert_eq!(frames.len(), VIEWS);
        for (i, (frame, camera)) in frames
            .iter()
            .zip(transforms["frames"].as_array().unwrap())
            .enumerate()
        {
            let stem = format!("view_{i:02}");
            assert_eq!(frame["file_path"], format!("{stem}.png"));
            for key in ["file_path", "view", "frame", "time"] {
                assert_eq!(frame[key], camera[key], "{name} {stem}: {key}");
            }
            assert_eq!(frame["view"], i);
            assert_eq!(frame["frame"], 0);
            assert!((frame["time"].as_f64().unwrap() - f64::from(time)).abs() < 1e-6);
            let c2w = matrix(&camera["transform_matrix"]);
            let mask = image::open(folder.join(format!("{stem}_mask.png")))
                .unwrap()
                .into_luma8();
            let depth = image::open(folder.join(format!("{stem}_depth.png")))
                .unwrap()
                .into_luma16();
            let points = frame["keypoints"].as_array().unwrap();
            assert_eq!(points.len(), world.len(), "{name} {stem}");
            let image_id = images
                .iter()
                .find(|im| im["file_name"] == format!("{name}/{stem}.png"))
                .unwrap_or_else(|| panic!("{name}/{stem}.png not in annotations.json"))["id"]
                .clone();
            let annotation = annotations
                .iter()
                .find(|a| a["image_id"] == image_id)
                .unwrap();
            let triples = annotation["keypoints"].as_array().unwrap();
            assert_eq!(triples.len(), 3 * world.len());
            for (k, (point, &p)) in points.iter().zip(&world).enumerate() {
                let at = format!("{name} {stem} joint {k}");
                assert_eq!(point.as_object().unwrap().len(), 4, "{at}: {point}");
                let written: Vec<f64> = serde_json::from_value(point["world"].clone()).unwrap();
                assert!(
                    (DVec3::from_slice(&written) - p).length() <= 1e-4 * size.max(1e-6),
                    "{at}: world {written:?}, the .glb's posed skeleton {p}"
                );
                let ([u, v], along) = project(&c2w, intrinsics, p);
                let visibility = point["visibility"].as_str().unwrap();
                let inside = along > 0.0
                    && (0.0..f64::from(SIDE)).contains(&u)
                    && (0.0..f64::from(SIDE)).contains(&v);
                let pixel: Vec<f64> = serde_json::from_value(point["pixel"].clone()).unwrap();
                assert!(
                    (pixel[0] - u).abs() <= 0.5 && (pixel[1] - v).abs() <= 0.5,
                    "{at}: pixel {pixel:?}, projected ({u}, {v})"
                );
                assert!((point["depth"].as_f64().unwrap() - along).abs() <= 1e-4 * size);
                let flag = triples[3 * k + 2].as_u64().unwrap();
                match visibility {
                    "outside" => {
                        assert!(!inside, "{at}: outside at ({u}, {v}) depth {along}");
                        counts[2] += 1;
                        assert_eq!(flag, 0);
                    }
                    "visible" => {
                        assert!(inside, "{at}");
                        assert!(near_mask(&mask, [u, v]), "{at}: visible off the mask");
                        counts[0] += 1;
                        assert_eq!(flag, 2);
                    }
                    "occluded" => {
                        assert!(inside, "{at}");
                        let surface =
                            f64::from(depth.get_pixel(u as u32, v as u32).0[0]) * depth_scale;
                        // Behind the surface drawn at its pixel, or off the silhouette.
                        assert!(
                            surface == 0.0 || along > surface,
                            "{at}: occluded at {along}, in front of the surface at {surface}"
                        );
                        counts[1] += 1;
                        assert_eq!(flag, 1);
                    }
                    other => panic!("{at}: visibility {other}"),
                }
            }
            // The box is the mask's.
            let (mut lo, mut hi, mut area) = ([u32::MAX; 2], [0; 2], 0u64);
            for (x, y, m) in mask.enumerate_pixels() {
                if m.0[0] > 0 {
                    lo = [lo[0].min(x), lo[1].min(y)];
                    hi = [hi[0].max(x), hi[1].max(y)];
                    area += 1;
                }
            }
            if area > 0 {
                assert_eq!(
                    annotation["bbox"],
                    serde_json::json!([lo[0], lo[1], hi[0] - lo[0] + 1, hi[1] - lo[1] + 1]),
                    "{name} {stem}"
                );
            }
            assert_eq!(annotation["area"], area, "{name} {stem}");
        }
    }
    counts
}

#[test]
fn keypoints_match_the_posed_skeleton_the_mask_and_the_depth() {
    let temp = tempfile::tempdir().unwrap();
    let (all, animated) = sources();
    let inputs = copy_into(&temp.path().join("in"), &all);
    let counts = check_run(&inputs, &temp.path().join("out"), &[], 0.0);
    println!("default pose: visible, occluded, outside: {counts:?}");
    assert!(counts[0] > 0 && counts[1] > 0, "{counts:?}");

    // The joints are posed as the pictures are.
    let inputs = copy_into(&temp.path().join("animated"), &animated);
    let counts = check_run(
        &inputs,
        &temp.path().join("posed"),
        &["--anim", "0", "--time", "0.3"],
        0.3,
    );
    println!("animation 0 at 0.3 s: visible, occluded, outside: {counts:?}");
}

#[test]
fn keypoints_need_an_orbit() {
    let run = rigport(&[
        "render",
        "fixtures/ms3d/rig_full.ms3d",
        "x.png",
        "--keypoints",
    ]);
    assert_eq!(run.status.code(), Some(2));
}
