//! The renderer's contract on models built in code: silhouettes against an independent
//! projection, poses, views, sheets, wire, colours, textures and bad input.

use image::RgbaImage;
use rigport_model_core::glam::{Quat, Vec2, Vec3, Vec4};
use rigport_model_core::{
    Animation, Joint, JointId, Key, Material, MaterialId, Mesh, Model, Skeleton, Track, Vertex,
};
use rigport_render::{
    NoTextures, Orbit, Passes, PoseAt, PosedJoints, RenderError, RenderOptions, Rgb, View,
    Visibility, draw_skeleton, render, render_sheet, render_views, render_views_seeing, sheet_grid,
};
use std::collections::HashMap;
use std::sync::Arc;

const BACKGROUND: Rgb = Rgb([255, 0, 255]);

fn vertex(p: Vec3, joint: u32) -> Vertex {
    Vertex {
        position: p,
        normal: Vec3::ZERO,
        joints: [JointId(joint), JointId(0), JointId(0), JointId(0)],
        weights: [1.0, 0.0, 0.0, 0.0],
        ..Vertex::default()
    }
}

/// A box from `lo` to `hi` bound to `joint`, appended to `mesh`.
fn add_box(mesh: &mut Mesh, lo: Vec3, hi: Vec3, joint: u32) {
    let base = mesh.vertices.len() as u32;
    for i in 0..8 {
        let pick = |bit: u32, a: f32, b: f32| if i & bit == 0 { a } else { b };
        let p = Vec3::new(
            pick(1, lo.x, hi.x),
            pick(2, lo.y, hi.y),
            pick(4, lo.z, hi.z),
        );
        mesh.vertices.push(vertex(p, joint));
    }
    for [a, b, c, d] in [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ] {
        mesh.triangles.push([base + a, base + b, base + c]);
        mesh.triangles.push([base + a, base + c, base + d]);
    }
}

/// An "L": a tall body on joint 0 and an arm on joint 1 (at the shoulder) that an animation
/// swings from horizontal (t = 0) to pointing up (t = 1 s). Asymmetric in every axis.
fn rig() -> Model {
    let mut mesh = Mesh::new("body");
    add_box(
        &mut mesh,
        Vec3::new(-0.5, 0.0, -0.3),
        Vec3::new(0.5, 3.0, 0.3),
        0,
    );
    add_box(
        &mut mesh,
        Vec3::new(0.5, 2.6, -0.2),
        Vec3::new(2.5, 3.0, 0.8),
        1,
    );
    mesh.material = Some(MaterialId(0));
    let mut shoulder = Joint::new("shoulder");
    shoulder.parent = Some(JointId(0));
    shoulder.translation = Vec3::new(0.5, 2.8, 0.0);
    let mut animation = Animation::new("raise", 30.0);
    let mut track = Track::new(JointId(1));
    track.rotations = vec![
        Key::new(0.0, Quat::IDENTITY),
        Key::new(1.0, Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
    ];
    animation.tracks.push(track);
    animation.duration = 1.0;
    Model {
        meshes: vec![mesh],
        materials: vec![Material {
            diffuse: Vec4::new(0.2, 0.6, 0.9, 1.0),
            ..Material::named("blue")
        }],
        skeleton: Skeleton {
            joints: vec![Joint::new("root"), shoulder],
        },
        animations: vec![animation],
        ..Model::default()
    }
}

fn options(view: View, width: u32, height: u32) -> RenderOptions {
    RenderOptions {
        width,
        height,
        view,
        background: BACKGROUND,
        ..RenderOptions::default()
    }
}

fn coverage(image: &RgbaImage) -> Vec<bool> {
    image
        .pixels()
        .map(|p| p.0[..3] != BACKGROUND.0[..])
        .collect()
}

/// The front-view coverage computed independently: the 2D bounds of the drawn vertices
/// fill 90 % of the limiting side, centred, +Y up; a pixel is covered when its centre lies
/// in a triangle's XY projection.
fn projected_coverage(meshes: &[Mesh], width: u32, height: u32) -> Vec<bool> {
    let points = meshes
        .iter()
        .flat_map(|m| m.vertices.iter().map(|v| v.position));
    let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
    for p in points {
        lo = lo.min(p.truncate());
        hi = hi.max(p.truncate());
    }
    let extent = hi - lo;
    let scale = (0.9 * width as f32 / extent.x).min(0.9 * height as f32 / extent.y);
    let centre = (lo + hi) * 0.5;
    let to_world = |x: f32, y: f32| {
        Vec2::new(
            centre.x + (x - width as f32 / 2.0) / scale,
            centre.y - (y - height as f32 / 2.0) / scale,
        )
    };
    let triangles: Vec<[Vec2; 3]> = meshes
        .iter()
        .flat_map(|m| {
            m.triangles
                .iter()
                .map(|t| t.map(|i| m.vertices[i as usize].position.truncate()))
        })
        .collect();
    let inside = |p: Vec2, [a, b, c]: [Vec2; 3]| {
        let side = |s: Vec2, e: Vec2| (e - s).perp_dot(p - s);
        let (d0, d1, d2) = (side(a, b), side(b, c), side(c, a));
        (d0 >= 0.0 && d1 >= 0.0 && d2 >= 0.0) || (d0 <= 0.0 && d1 <= 0.0 && d2 <= 0.0)
    };
    let mut covered = Vec::new();
    for y in 0..height {
        for x in 0..width {
            let p = to_world(x as f32 + 0.5, y as f32 + 0.5);
            covered.push(triangles.iter().any(|&t| inside(p, t)));
        }
    }
    covered
}

fn iou(a: &[bool], b: &[bool]) -> f64 {
    let both = a.iter().zip(b).filter(|(x, y)| **x && **y).count();
    let either = a.iter().zip(b).filter(|(x, y)| **x || **y).count();
    both as f64 / either.max(1) as f64
}

#[test]
fn front_silhouette_matches_the_projected_triangles() {
    let model = rig();
    for time in [0.0, 0.5, 1.0] {
        let mut opts = options(View::Front, 160, 120);
        opts.pose = PoseAt::Animation { index: 0, time };
        let picture = render(&model, &opts, &NoTextures).unwrap();
        let (posed, _) = rigport_anim::posed_meshes(&model, 0, time).unwrap();
        let expected = projected_coverage(&posed, 160, 120);
        let score = iou(&coverage(&picture.image), &expected);
        assert!(score >= 0.95, "time {time}: IoU {score}");
        // The oracle is not trivially satisfied: the model covers part of the picture only.
        let share = expected.iter().filter(|c| **c).count() as f64 / expected.len() as f64;
        assert!(share > 0.1 && share < 0.8, "{share}");
    }
}

#[test]
fn two_times_of_an_animation_give_different_pictures() {
    let model = rig();
    let at = |time| {
        let mut opts = options(View::Front, 96, 96);
        opts.pose = PoseAt::Animation { index: 0, time };
        render(&model, &opts, &NoTextures).unwrap().image
    };
    let (a, b) = (at(0.0), at(1.0));
    let differing = a.pixels().zip(b.pixels()).filter(|(p, q)| p != q).count();
    assert!(differing > 96 * 96 / 20, "{differing}");
    // The same time twice is the same picture (no hidden state).
    assert_eq!(at(0.25), at(0.25));
}

#[test]
fn auto_pose_is_the_first_frame_and_bind_is_the_stored_mesh() {
    let model = rig();
    let draw = |pose| {
        let mut opts = options(View::Iso, 64, 64);
        opts.pose = pose;
        render(&model, &opts, &NoTextures).unwrap().image
    };
    assert_eq!(
        draw(PoseAt::Auto),
        draw(PoseAt::Animation {
            index: 0,
            time: 0.0
        })
    );
    assert_ne!(
        draw(PoseAt::Bind),
        draw(PoseAt::Animation {
            index: 0,
            time: 1.0
        })
    );
    let mut opts = options(View::Iso, 64, 64);
    opts.pose = PoseAt::Animation {
        index: 3,
        time: 0.0,
    };
    assert!(matches!(
        render(&model, &opts, &NoTextures),
        Err(RenderError::Pose(_))
    ));
}

fn mirrored(c: &[bool], width: usize) -> Vec<bool> {
    c.chunks(width)
        .flat_map(|row| row.iter().rev().copied().collect::<Vec<_>>())
        .collect()
}

#[test]
fn views_are_the_front_camera_turned() {
    let model = rig();
    let mut pictures = HashMap::new();
    for view in View::ALL {
        let mut opts = options(view, 90, 90);
        opts.pose = PoseAt::Bind;
        let image = render(&model, &opts, &NoTextures).unwrap().image;
        pictures.insert(view, coverage(&image));
    }
    // Opposite orthographic views see mirrored silhouettes.
    let same = |a: &[bool], b: &[bool]| iou(a, b) > 0.97;
    assert!(same(
        &pictures[&View::Back],
        &mirrored(&pictures[&View::Front], 90)
    ));
    assert!(same(
        &pictures[&View::Left],
        &mirrored(&pictures[&View::Right], 90)
    ));
    // Different directions see different shapes.
    for (a, b) in [
        (View::Front, View::Left),
        (View::Front, View::Top),
        (View::Left, View::Top),
        (View::Front, View::Iso),
    ] {
        assert!(!same(&pictures[&a], &pictures[&b]), "{a} vs {b}");
    }
    // Front: the body on the left, the arm sticking out to the right (+X) at the top (+Y).
    let front = &pictures[&View::Front];
    let at = |x: usize, y: usize| front[y * 90 + x];
    assert!(at(80, 10) && !at(80, 80) && at(10, 80) && at(10, 10));
}

#[test]
fn sheet_geometry_is_a_grid_of_cells() {
    let model = rig();
    let opts = options(View::Front, 40, 30);
    let sheet = render_sheet(&model, &opts, 5, &NoTextures).unwrap();
    assert_eq!(sheet_grid(5), (3, 2));
    assert_eq!(sheet.image.dimensions(), (120, 60));
    let cell = |i: u32| {
        image::imageops::crop_imm(&sheet.image, (i % 3) * 40, (i / 3) * 30, 40, 30).to_image()
    };
    // Each frame is drawn in its own cell; the first is the start, the fifth the end.
    for i in 0..5 {
        assert!(coverage(&cell(i)).iter().any(|c| *c), "cell {i} empty");
    }
    assert!(
        coverage(&cell(5)).iter().all(|c| !c),
        "the sixth cell is empty"
    );
    let single = |time| {
        let mut o = opts;
        o.pose = PoseAt::Animation { index: 0, time };
        render(&model, &o, &NoTextures).unwrap().image
    };
    assert_eq!(cell(0), single(0.0));
    assert_eq!(cell(2), single(0.5));
    assert_eq!(cell(4), single(1.0));
    assert_ne!(cell(0), cell(4));
}

#[test]
fn sheet_errors() {
    let mut model = rig();
    let opts = options(View::Front, 40, 30);
    assert!(matches!(
        render_sheet(&model, &opts, 0, &NoTextures),
        Err(RenderError::BadSheet { .. })
    ));
    model.animations.clear();
    assert_eq!(
        render_sheet(&model, &opts, 4, &NoTextures),
        Err(RenderError::NoAnimation)
    );
}

#[test]
fn wire_overlays_edges() {
    let model = rig();
    let plain = render(&model, &options(View::Iso, 128, 128), &NoTextures)
        .unwrap()
        .image;
    let mut opts = options(View::Iso, 128, 128);
    opts.wire = true;
    let wired = render(&model, &opts, &NoTextures).unwrap().image;
    let dark = |img: &RgbaImage| {
        img.pixels()
            .filter(|p| p.0[..3].iter().all(|&c| c < 40))
            .count()
    };
    assert_eq!(dark(&plain), 0);
    assert!(dark(&wired) > 100, "{}", dark(&wired));
    // The wire changes pixels only where the model is (hidden edges stay hidden or on it).
    let covered = coverage(&plain);
    let outside_changes = plain
        .pixels()
        .zip(wired.pixels())
        .zip(&covered)
        .filter(|((a, b), c)| a != b && !**c)
        .count();
    assert!(outside_changes < 128 * 4, "{outside_changes}");
}

fn quad(colours: Option<[Vec4; 4]>) -> Model {
    // A unit square facing the front camera, uv (0,0) at its top-left corner.
    let corners = [
        (-1.0, 1.0, 0.0, 0.0),
        (1.0, 1.0, 1.0, 0.0),
        (1.0, -1.0, 1.0, 1.0),
        (-1.0, -1.0, 0.0, 1.0),
    ];
    let mut mesh = Mesh::new("quad");
    for (i, (x, y, u, v)) in corners.into_iter().enumerate() {
        mesh.vertices.push(Vertex {
            position: Vec3::new(x, y, 0.0),
            normal: Vec3::Z,
            uv: Vec2::new(u, v),
            color: colours.map_or(Vec4::ONE, |c| c[i]),
            ..Vertex::default()
        });
    }
    mesh.triangles = vec![[0, 1, 2], [0, 2, 3]];
    mesh.has_uvs = true;
    mesh.has_colors = colours.is_some();
    mesh.material = Some(MaterialId(0));
    Model {
        meshes: vec![mesh],
        materials: vec![Material {
            diffuse: Vec4::new(1.0, 0.5, 0.0, 1.0),
            texture: Some(r".\checker.png".into()),
            ..Material::named("m")
        }],
        ..Model::default()
    }
}

#[test]
fn texture_then_vertex_colours_then_diffuse() {
    let opts = options(View::Front, 100, 100);
    let px = |img: &RgbaImage, x, y| img.get_pixel(x, y).0;

    // No image: the material's diffuse, fully lit (the face looks at the camera).
    let picture = render(&quad(None), &opts, &NoTextures).unwrap();
    assert_eq!(px(&picture.image, 50, 50), [255, 128, 0, 255]);
    assert_eq!(picture.report.notices.len(), 1, "{:?}", picture.report);
    assert!(picture.report.notices[0].message.contains("checker.png"));

    // Vertex colours win over the diffuse colour.
    let red = Vec4::new(1.0, 0.0, 0.0, 1.0);
    let picture = render(&quad(Some([red; 4])), &opts, &NoTextures).unwrap();
    assert_eq!(px(&picture.image, 50, 50), [255, 0, 0, 255]);

    // The texture wins over both, sampled with a top-left origin.
    let mut checker = RgbaImage::new(2, 2);
    checker.put_pixel(0, 0, image::Rgba([0, 255, 0, 255]));
    checker.put_pixel(1, 0, image::Rgba([0, 0, 255, 255]));
    checker.put_pixel(0, 1, image::Rgba([255, 255, 255, 255]));
    checker.put_pixel(1, 1, image::Rgba([0, 0, 0, 255]));
    let textures = HashMap::from([(r".\checker.png".to_string(), Arc::new(checker))]);
    let picture = render(&quad(Some([red; 4])), &opts, &textures).unwrap();
    assert!(picture.report.notices.is_empty());
    assert_eq!(px(&picture.image, 25, 25), [0, 255, 0, 255]);
    assert_eq!(px(&picture.image, 75, 25), [0, 0, 255, 255]);
    assert_eq!(px(&picture.image, 25, 75), [255, 255, 255, 255]);
    assert_eq!(px(&picture.image, 75, 75), [0, 0, 0, 255]);
    // Outside the quad (5 % margin): background.
    assert_eq!(px(&picture.image, 2, 50), [255, 0, 255, 255]);
}

#[test]
fn lambert_darkens_faces_turned_away_and_lights_back_faces() {
    let mut model = quad(None);
    model.materials[0].texture = None;
    let opts = options(View::Front, 20, 20);
    let facing = render(&model, &opts, &NoTextures).unwrap().image;
    // Turned 60° about Y: cos 60° = 0.5 → ambient 0.3 + 0.7 × 0.5 = 0.65 of the colour.
    let turn = Quat::from_rotation_y(60f32.to_radians());
    for v in &mut model.meshes[0].vertices {
        v.position = turn * v.position;
        v.normal = turn * v.normal;
    }
    let turned = render(&model, &opts, &NoTextures).unwrap().image;
    assert_eq!(facing.get_pixel(10, 10).0[0], 255);
    let red = turned.get_pixel(10, 10).0[0];
    assert!((165..=167).contains(&red), "{red}");
    // Normals pointing away from the camera light the face the same (both faces drawn).
    for v in &mut model.meshes[0].vertices {
        v.normal = -v.normal;
    }
    let flipped = render(&model, &opts, &NoTextures).unwrap().image;
    assert_eq!(flipped, turned);
}

#[test]
fn no_triangles_is_an_error_that_says_so() {
    let mut model = rig();
    model.meshes[0].triangles.clear();
    let err = render(&model, &RenderOptions::default(), &NoTextures).unwrap_err();
    assert_eq!(err, RenderError::NoTriangles);
    assert!(err.to_string().contains("no triangles"));
    let err = render(&Model::default(), &RenderOptions::default(), &NoTextures).unwrap_err();
    assert_eq!(err, RenderError::NoTriangles);
}

#[test]
fn hostile_models_are_skipped_or_refused_never_a_panic() {
    // NaN and infinite positions, an out-of-range index, a degenerate triangle, huge values.
    let mut model = rig();
    let mesh = &mut model.meshes[0];
    mesh.vertices[0].position = Vec3::NAN;
    mesh.vertices[1].position.y = f32::INFINITY;
    mesh.vertices[2].normal = Vec3::NAN;
    mesh.triangles.push([0, 999, 2]);
    mesh.triangles.push([3, 3, 3]);
    let n = mesh.vertices.len() as u32;
    mesh.vertices.push(vertex(Vec3::splat(3e38), 0));
    mesh.vertices.push(vertex(Vec3::new(-3e38, 3e38, 0.0), 0));
    mesh.triangles.push([n, n + 1, 4]);
    for view in View::ALL {
        for wire in [false, true] {
            let mut opts = options(view, 64, 48);
            opts.wire = wire;
            let picture = render(&model, &opts, &NoTextures).unwrap();
            assert_eq!(picture.image.dimensions(), (64, 48));
            assert!(
                picture
                    .report
                    .notices
                    .iter()
                    .any(|n| n.code == "triangles-skipped")
            );
        }
    }
    // Nothing drawable at all: a typed error, not an empty picture.
    let mut model = rig();
    for v in &mut model.meshes[0].vertices {
        v.position = Vec3::NAN;
    }
    let err = render(&model, &RenderOptions::default(), &NoTextures).unwrap_err();
    assert!(
        matches!(err, RenderError::NoDrawableTriangles { skipped: 24 }),
        "{err}"
    );
    // Sizes out of range.
    let opts = RenderOptions {
        width: 0,
        ..RenderOptions::default()
    };
    assert!(matches!(
        render(&rig(), &opts, &NoTextures),
        Err(RenderError::BadSize { .. })
    ));
}

/// The mean column of the model's pixels in each frame of an APNG.
fn frame_centres(apng: &[u8]) -> Vec<f64> {
    let mut reader = png::Decoder::new(std::io::Cursor::new(apng))
        .read_info()
        .unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let mut centres = Vec::new();
    while let Ok(info) = reader.next_frame(&mut buffer) {
        let (width, mut sum, mut count) = (info.width as usize, 0.0, 0.0);
        for (i, pixel) in buffer[..info.buffer_size()].chunks_exact(3).enumerate() {
            if pixel != BACKGROUND.0 {
                sum += (i % width) as f64;
                count += 1.0;
            }
        }
        centres.push(sum / count / width as f64);
    }
    centres
}

#[test]
fn an_animated_picture_keeps_one_camera_while_the_model_moves() {
    let mut model = rig();
    let mut walk = Track::new(JointId(0));
    walk.translations = vec![
        Key::new(0.0, Vec3::ZERO),
        Key::new(1.0, Vec3::new(12.0, 0.0, 0.0)),
    ];
    model.animations[0].tracks.push(walk);
    let animated = rigport_render::render_apng(
        &model,
        &options(View::Front, 96, 64),
        Some(4.0),
        &NoTextures,
    )
    .unwrap();
    let centres = frame_centres(&animated.png);
    assert_eq!(centres.len(), animated.frames as usize);
    assert!(centres.len() >= 2, "{centres:?}");
    // Fitted per frame, the model would sit in the middle of every frame.
    assert!(
        centres.windows(2).all(|w| w[1] > w[0]),
        "the model walks right across a still frame: {centres:?}"
    );
    assert!(
        centres[0] < 0.3 && *centres.last().unwrap() > 0.7,
        "{centres:?}"
    );
}

/// The box and count of the pixels where `depth` is above 0.
fn depth_coverage(depth: &rigport_render::DepthImage) -> (Option<[u32; 4]>, u64) {
    let (mut lo, mut hi, mut area) = ([u32::MAX; 2], [0u32; 2], 0u64);
    for (x, y, d) in depth.enumerate_pixels() {
        if d.0[0] > 0.0 {
            lo = [lo[0].min(x), lo[1].min(y)];
            hi = [hi[0].max(x), hi[1].max(y)];
            area += 1;
        }
    }
    let bbox = (area > 0).then(|| [lo[0], lo[1], hi[0] - lo[0] + 1, hi[1] - lo[1] + 1]);
    (bbox, area)
}

#[test]
fn joints_seen_while_drawing_match_the_depth_pass() {
    let model = rig();
    let joints = PosedJoints::of(
        &model,
        PoseAt::Animation {
            index: 0,
            time: 0.4,
        },
    )
    .unwrap();
    let orbits = [Orbit::ring(6, 25.0), Orbit::random(6, 7)].concat();
    for (wire, passes) in [
        (false, Passes::default()),
        (true, Passes::default()),
        (
            false,
            Passes {
                depth: true,
                normal: true,
                mask: true,
            },
        ),
    ] {
        let options = RenderOptions {
            width: 97,
            height: 61,
            wire,
            passes,
            pose: PoseAt::Animation {
                index: 0,
                time: 0.4,
            },
            ..RenderOptions::default()
        };
        let seen =
            render_views_seeing(&model, &options, &orbits, &NoTextures, &joints, |_, p| p).unwrap();
        let with_depth = RenderOptions {
            passes: Passes {
                depth: true,
                ..passes
            },
            ..options
        };
        let reference = render_views(&model, &with_depth, &orbits, &NoTextures).unwrap();
        let plain = render_views(&model, &options, &orbits, &NoTextures).unwrap();
        let mut kinds = [0; 3];
        for ((picture, reference), plain) in seen.iter().zip(&reference).zip(&plain) {
            // Seeing the joints changes no picture.
            assert_eq!(picture.image, plain.image);
            assert_eq!(picture.depth, plain.depth);
            assert_eq!(picture.mask, plain.mask);
            let found = picture.joints.as_ref().unwrap();
            let depth = reference.depth.as_ref().unwrap();
            let camera = reference.camera.as_ref().unwrap();
            assert_eq!(found.keypoints, joints.seen(camera, depth));
            assert_eq!((found.bbox, found.area), depth_coverage(depth));
            assert!(found.area > 0);
            for k in &found.keypoints {
                kinds[match k.visibility {
                    Visibility::Visible => 0,
                    Visibility::Occluded => 1,
                    Visibility::Outside => 2,
                }] += 1;
            }
        }
        assert!(kinds[0] > 0 && kinds[1] > 0, "{kinds:?}");
        assert!(plain.iter().all(|p| p.joints.is_none()));
    }
}

#[test]
fn skeleton_overlay_marks_the_joint_pixels() {
    let model = rig();
    let joints = PosedJoints::of(&model, PoseAt::Bind).unwrap();
    let options = RenderOptions {
        width: 80,
        height: 80,
        pose: PoseAt::Bind,
        ..RenderOptions::default()
    };
    let mut pictures = render_views_seeing(
        &model,
        &options,
        &Orbit::ring(4, 10.0),
        &NoTextures,
        &joints,
        |_, p| p,
    )
    .unwrap();
    let parents = [None, Some(0)];
    for picture in &mut pictures {
        let before = picture.image.clone();
        let seen = picture.joints.clone().unwrap();
        draw_skeleton(&mut picture.image, &seen.keypoints, &parents);
        assert_ne!(before, picture.image);
        for k in seen
            .keypoints
            .iter()
            .filter(|k| k.visibility == Visibility::Visible)
        {
            let [u, v] = k.pixel;
            let pixel = picture.image.get_pixel(u as u32, v as u32).0;
            assert_eq!(pixel[..3], rigport_render::SKELETON_VISIBLE);
        }
    }
}
