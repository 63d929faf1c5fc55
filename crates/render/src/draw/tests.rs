//! One picture's own tests.
use super::*;
use crate::closed::tests::cube;
use crate::{NoTextures, Orbit, Passes, View};
use glam::Quat;

/// `mesh` turned by `turn` about its centre and moved by `offset`.
fn placed(mut mesh: Mesh, turn: Quat, offset: Vec3) -> Mesh {
    for v in &mut mesh.vertices {
        v.position = turn * (v.position - Vec3::splat(0.5)) + offset;
    }
    mesh
}

/// Two cubes (one wound inside out) beside a single open triangle, in two meshes.
fn scene_model() -> Model {
    let mut inside_out = placed(cube(), Quat::from_rotation_y(0.7), Vec3::new(1.6, 0.2, 0.3));
    for t in &mut inside_out.triangles {
        t.swap(1, 2);
    }
    let mut tilted = placed(cube(), Quat::from_rotation_x(0.4), Vec3::ZERO);
    let base = tilted.vertices.len() as u32;
    for p in [
        Vec3::new(-2.0, -1.0, -1.0),
        Vec3::new(3.0, -1.0, -1.0),
        Vec3::new(0.0, 2.0, -1.5),
    ] {
        tilted.vertices.push(Vertex {
            position: p,
            ..Vertex::default()
        });
    }
    tilted.triangles.push([base, base + 1, base + 2]);
    Model {
        meshes: vec![tilted, inside_out],
        ..Model::default()
    }
}

#[test]
fn faces_turned_away_from_closed_surfaces_are_skipped_without_changing_the_picture() {
    let model = scene_model();
    let whole = Scene::new(&model, &NoTextures).expect("scene");
    let culling = Scene::new(&model, &NoTextures)
        .expect("scene")
        .skipping_hidden_faces();
    let orbits = Orbit::ring(5, 20.0);
    let mut cameras: Vec<RenderOptions> = [View::Front, View::Top, View::Iso]
        .into_iter()
        .map(|view| RenderOptions {
            view,
            ..RenderOptions::default()
        })
        .collect();
    cameras.extend(orbits.into_iter().map(|orbit| RenderOptions {
        orbit: Some(orbit),
        ..RenderOptions::default()
    }));
    for options in cameras {
        let options = RenderOptions {
            width: 96,
            height: 80,
            passes: Passes {
                depth: true,
                normal: true,
                mask: true,
            },
            ..options
        };
        let culled = culling.draw(&options, PoseAt::Bind).expect("culled");
        let whole = whole.draw(&options, PoseAt::Bind).expect("whole");
        // Only a silhouette's samples within EDGE_SLACK of it may differ: there a face
        // turned away, drawn, can win the tie with the face in front. At most one sample
        // of a pixel, in a few pixels.
        let differ = |a: &[u8], b: &[u8]| {
            let pixels = a.chunks(4).zip(b.chunks(4)).filter(|(p, q)| p != q);
            let mut count = 0;
            for (p, q) in pixels {
                assert!(
                    p.iter().zip(q).all(|(p, q)| p.abs_diff(*q) <= 64),
                    "{options:?}"
                );
                count += 1;
            }
            count
        };
        assert!(differ(&culled.image, &whole.image) <= 4, "{options:?}");
        let normals = |n: &Option<RgbImage>| {
            let n = n.as_ref().expect("normals");
            n.pixels()
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect::<Vec<u8>>()
        };
        assert!(differ(&normals(&culled.normal), &normals(&whole.normal)) <= 4);
        // Depth too, there only; coverage is the same.
        let (near, far) = (culled.depth.expect("depth"), whole.depth.expect("depth"));
        let depth_differs = near
            .as_raw()
            .iter()
            .zip(far.as_raw())
            .filter(|(a, b)| (*a - *b).abs() > 1e-4)
            .count();
        assert!(depth_differs <= 4, "{options:?}: {depth_differs}");
        assert_eq!(culled.mask, whole.mask, "{options:?}");
    }
}

fn scene_of(model: &Model) -> Scene<'_> {
    Scene::new(model, &NoTextures)
        .expect("scene")
        .skipping_hidden_faces()
}

#[test]
fn only_closed_surfaces_lose_triangles() {
    let model = scene_model();
    let scene = Scene::new(&model, &NoTextures)
        .expect("scene")
        .skipping_hidden_faces();
    let options = RenderOptions {
        width: 64,
        height: 64,
        view: View::Iso,
        ..RenderOptions::default()
    };
    let camera = fit_camera(
        &options,
        model.up,
        || {
            model
                .meshes
                .iter()
                .flat_map(|m| m.vertices.iter().map(|v| v.position))
        },
        128,
        128,
    )
    .expect("camera");
    let screens = on_screen(&camera, &model.meshes);
    let visible = Drawable::of(&model.meshes);
    let surfaces = scene.surfaces.as_ref().expect("surfaces");
    let outward = surfaces.outward(&model.meshes);
    let shown = shown(
        &model.meshes,
        &visible,
        Some((surfaces, &outward)),
        &screens,
    );
    // The cubes' triangles whose outward normal points to the eye, found in the world,
    // and the open triangle whatever its facing.
    let facing = |m: usize, outward: f32| -> Vec<[u32; 3]> {
        let mesh = &model.meshes[m];
        mesh.triangles
            .iter()
            .enumerate()
            .filter(|&(k, t)| {
                let [a, b, c] = t.map(|i| mesh.vertices[i as usize].position);
                let normal = (b - a).cross(c - a) * outward;
                k >= 12 || normal.dot(camera.towards_camera((a + b + c) / 3.0)) > 0.0
            })
            .map(|(_, t)| *t)
            .collect()
    };
    assert!((4..=6).contains(&(facing(0, 1.0).len() - 1)));
    assert_eq!(shown[0], facing(0, 1.0));
    assert_eq!(shown[1], facing(1, -1.0));
    // With a triangle of the posed meshes not drawable, the pose gives no windings and
    // nothing is skipped.
    let mut broken = model.clone();
    broken.meshes[0].vertices[0].position.x = f32::NAN;
    let broken_scene = scene_of(&broken);
    let posed = broken_scene.pose(PoseAt::Bind).expect("pose");
    assert!(posed.outward.is_none());
    let using_it = broken.meshes[0].triangles.iter().filter(|t| t.contains(&0));
    assert_eq!(posed.skipped, using_it.count());
}
