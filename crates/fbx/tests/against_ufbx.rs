//! Every corpus FBX read into the model, checked against ufbx's own evaluation of the same
//! scene: the triangle count of every mesh instance, one animation per stack, a joint for
//! every bone, and the skinned (or rigidly moved) vertices posed by `rigport_anim` at the
//! first, middle and last frame of each animation against the vertices ufbx skins itself
//! (`evaluate_scene` with `evaluate_skinning`: blend shapes at their animated weights, then
//! the skin), within 1e-3 of the model's size.

use glam::{DVec3, Vec3};
use rigport_model_core::{Model, ReadOptions};
use rigport_test_support::corpus::corpus_dir;

fn load(bytes: &[u8]) -> ufbx::SceneRoot {
    let opts = ufbx::LoadOpts {
        target_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_unit_meters: 1.0,
        space_conversion: ufbx::SpaceConversion::AdjustTransforms,
        inherit_mode_handling: ufbx::InheritModeHandling::Compensate,
        clean_skin_weights: true,
        generate_missing_normals: true,
        ..Default::default()
    };
    ufbx::load_memory(bytes, opts).expect("ufbx loads the corpus file")
}

/// ufbx's world-space vertices of every mesh instance at `time` (None: as loaded).
fn ufbx_vertices(scene: &ufbx::Scene, anim: Option<(&ufbx::Anim, f64)>) -> Vec<DVec3> {
    let evaluated;
    let scene: &ufbx::Scene = match anim {
        Some((anim, time)) => {
            let opts = ufbx::EvaluateOpts {
                evaluate_skinning: true,
                ..Default::default()
            };
            evaluated = ufbx::evaluate_scene(scene, anim, time, opts).expect("evaluates");
            &evaluated
        }
        None => scene,
    };
    let mut out = Vec::new();
    for node in scene.nodes.iter() {
        let Some(mesh) = node.mesh.as_deref() else {
            continue;
        };
        let skinned = anim.is_some() && mesh.skinned_position.exists;
        let (values, local) = if skinned {
            (&mesh.skinned_position.values, mesh.skinned_is_local)
        } else {
            (&mesh.vertex_position.values, true)
        };
        let m = &node.geometry_to_world;
        for p in values.iter() {
            let p = DVec3::new(p.x, p.y, p.z);
            out.push(if local {
                DVec3::new(
                    m.m00 * p.x + m.m01 * p.y + m.m02 * p.z + m.m03,
                    m.m10 * p.x + m.m11 * p.y + m.m12 * p.z + m.m13,
                    m.m20 * p.x + m.m21 * p.y + m.m22 * p.z + m.m23,
                )
            } else {
                p
            });
        }
    }
    out
}

/// `count` of the mesh of every node that has one (an instanced mesh counts each time).
fn sum_over_instances(scene: &ufbx::Scene, count: impl Fn(&ufbx::Mesh) -> usize) -> usize {
    scene
        .nodes
        .iter()
        .filter_map(|n| n.mesh.as_deref())
        .map(count)
        .sum()
}

fn size(points: &[Vec3]) -> f32 {
    let mut lo = Vec3::splat(f32::MAX);
    let mut hi = Vec3::splat(f32::MIN);
    for p in points {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    (hi - lo).length().max(1e-6)
}

/// The largest distance from one of `ours` to the nearest of `theirs`.
fn farthest(ours: &[Vec3], theirs: &[DVec3]) -> f32 {
    let theirs: Vec<Vec3> = theirs.iter().map(|p| p.as_vec3()).collect();
    ours.iter()
        .map(|p| {
            theirs
                .iter()
                .map(|q| p.distance_squared(*q))
                .fold(f32::MAX, f32::min)
                .sqrt()
        })
        .fold(0.0, f32::max)
}

fn posed(model: &Model, animation: Option<(usize, f32)>) -> Vec<Vec3> {
    let meshes = match animation {
        Some((index, time)) => {
            rigport_anim::posed_meshes(model, index, time)
                .expect("poses")
                .0
        }
        None => model
            .meshes
            .iter()
            .map(|m| {
                let weights = m.default_weights();
                rigport_anim::morph::morph_mesh(m, &weights).unwrap_or_else(|| m.clone())
            })
            .collect(),
    };
    meshes
        .iter()
        .flat_map(|m| m.vertices.iter().map(|v| v.position))
        .collect()
}

#[test]
fn every_corpus_fbx_matches_ufbx_counts_and_poses() {
    let Some(dir) = corpus_dir("fbx") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{}", dir.display());
    let mut compared = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        assert!(rigport_fbx::CODEC.sniff(&bytes), "{name}: sniffed");
        let (model, _report) = rigport_fbx::CODEC
            .read(&bytes, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = load(&bytes);

        // Counts: triangles of every instance, a stack per animation, every bone a joint.
        let triangles = sum_over_instances(&scene, |m| m.num_triangles);
        assert_eq!(model.triangle_count(), triangles, "{name}: triangles");
        assert_eq!(
            model.animations.len(),
            scene.anim_stacks.len(),
            "{name}: animations"
        );
        let bones = scene.nodes.iter().filter(|n| n.bone.is_some()).count();
        assert!(model.skeleton.len() >= bones, "{name}: {bones} bones");
        let named = scene
            .nodes
            .iter()
            .filter(|n| n.bone.is_some() && !n.element.name.is_empty());
        for bone in named {
            assert!(
                model.skeleton.find(&bone.element.name).is_some(),
                "{name}: bone {} is a joint",
                bone.element.name
            );
        }
        if model.meshes.is_empty() {
            continue;
        }

        // Rest: the model's bind mesh against ufbx's vertices as saved, when the file's bind
        // pose is the saved one (otherwise the saved pose is what the animations start from).
        let rest = posed(&model, None);
        let tolerance = 1e-3 * size(&rest);
        // Posed: first, middle and last time of every animation.
        for (index, (animation, stack)) in model
            .animations
            .iter()
            .zip(scene.anim_stacks.iter())
            .enumerate()
        {
            // Frames, as Blender shows them: between frames the baked keys are linear
            // where the file's curves may not be.
            let frames = (animation.end_time() * animation.fps + 1e-3).floor();
            let at = |frame: f32| frame / animation.fps;
            for time in [0.0, at((frames / 2.0).floor()), at(frames)] {
                let ours = posed(&model, Some((index, time)));
                let theirs = ufbx_vertices(
                    &scene,
                    Some((&stack.anim, stack.time_begin + f64::from(time))),
                );
                let off = farthest(&ours, &theirs);
                assert!(
                    off <= tolerance,
                    "{name}: animation {:?} at {time} s: a vertex {off} from ufbx's (size {})",
                    animation.name,
                    size(&rest)
                );
                compared += 1;
            }
        }
    }
    println!("{compared} poses compared with ufbx's skinning");
    assert!(compared >= 30, "{compared}");
}

/// The distinct face corners of every material part of every mesh instance, as ufbx gives
/// them: corners are one vertex when their FBX vertex and the bits of their normal, UV and
/// colour are the same.
fn distinct_corners(scene: &ufbx::Scene) -> usize {
    let mut total = 0;
    for mesh in scene.nodes.iter().filter_map(|n| n.mesh.as_deref()) {
        for part in mesh.material_parts.iter().filter(|p| p.num_triangles > 0) {
            let mut seen = std::collections::HashSet::new();
            let mut corners = vec![0u32; mesh.max_face_triangles.max(1) * 3];
            for &face in part.face_indices.iter() {
                let face = mesh.faces[face as usize];
                if face.num_indices < 3 {
                    continue;
                }
                let triangles = ufbx::triangulate_face(&mut corners, mesh, face) as usize;
                for &corner in &corners[..triangles * 3] {
                    let corner = corner as usize;
                    let bits =
                        |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                    let normal = mesh.vertex_normal.exists.then(|| {
                        let n = mesh.vertex_normal[corner];
                        bits(&[n.x, n.y, n.z])
                    });
                    let uv = mesh.vertex_uv.exists.then(|| {
                        let uv = mesh.vertex_uv[corner];
                        bits(&[uv.x, uv.y])
                    });
                    let colour = mesh.vertex_color.exists.then(|| {
                        let c = mesh.vertex_color[corner];
                        bits(&[c.x, c.y, c.z, c.w])
                    });
                    seen.insert((mesh.vertex_indices[corner], normal, uv, colour));
                }
            }
            total += seen.len();
        }
    }
    total
}

/// A vertex per distinct corner: every corner of the same values is one model vertex, and
/// no two model vertices of a part have the same values (files that store normals per
/// corner repeat them; hard edges and UV seams split a vertex).
#[test]
fn every_corpus_fbx_has_a_vertex_per_distinct_corner() {
    let Some(dir) = corpus_dir("fbx") else {
        return;
    };
    let mut split = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let (model, _) = rigport_fbx::CODEC
            .read(&bytes, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let scene = load(&bytes);
        let ours: usize = model.meshes.iter().map(|m| m.vertices.len()).sum();
        let corners = distinct_corners(&scene);
        assert_eq!(
            ours, corners,
            "{name}: model vertices against distinct corners"
        );
        let fbx_vertices = sum_over_instances(&scene, |m| m.num_vertices);
        split += usize::from(corners > fbx_vertices);
    }
    // Some files split vertices at hard edges or seams, so both ways are exercised.
    assert!(split > 0, "no corpus file splits a vertex");
}
