//! Poses compared with assimp (`assimp export f.b3d out.glb -fglb2`, read by the test
//! support's independent glTF oracle): at rest, at the first key frame and mid-animation,
//! every corner within 2e-3 of the model's size, on every corpus file where none of
//! assimp's known deviations applies. Which deviation rules a file out is decided from the
//! file itself and printed:
//!
//! * several `KEYS` chunks on one node (assimp keeps the last);
//! * `BONE` chunks aimed at a mesh other than the file's first (assimp indexes every mesh's
//!   vertices as one list);
//! * bone names used twice (assimp's validator refuses them);
//! * more than one `ANIM` (no animation imported), `ANIM.fps` 0 (no time base);
//! * a skinned mesh whose node is not at the origin, or with vertices no bone weights
//!   (assimp keeps skinned vertices in the mesh node's space and gives unweighted ones no
//!   influence; rigport places them by the node as Luanti does).
//!
//! Keys past `ANIM.frames` (every Blender export) make assimp's validator refuse a file,
//! but `assimp export` does not validate and keeps every key, so those files are compared
//! (at frames within `ANIM.frames`, where assimp's duration does not cut anything).
//!
//! Skipped with a message when assimp is not installed.

mod common;

use rigport_b3d::{ConvertOptions, File, Node, NodeChunk, to_model};
use rigport_model_core::Model;
use rigport_test_support::gltf::Oracle;
use rigport_test_support::gltf::oracle::{Triangle, compare, size};
use std::collections::HashMap;
use std::process::Command;

fn assimp_available() -> bool {
    Command::new("assimp")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Why assimp's pose of this file is not comparable, if it is not; and whether its
/// animation is.
fn deviations(file: &File) -> (Option<String>, Option<String>) {
    let nodes = file.nodes();
    let mut names: HashMap<&[u8], usize> = HashMap::new();
    let (mut anims, mut last_key, mut fps) = (0, 0, 0.0f32);
    let mut meshes = 0usize;
    let mut bones_past_first = false;
    let mut skin_issue = None;
    for (_, n) in &nodes {
        if n.is_bone() {
            *names.entry(&n.name).or_default() += 1;
        }
        if n.keys().count() > 1 {
            return (
                Some(format!(
                    "node {:?} has several KEYS chunks",
                    String::from_utf8_lossy(&n.name)
                )),
                None,
            );
        }
        for k in n.keys().flat_map(|k| &k.keys) {
            last_key = last_key.max(k.frame);
        }
        for c in &n.children {
            match c {
                NodeChunk::Anim(a) => {
                    anims += 1;
                    fps = a.fps;
                }
                NodeChunk::Mesh(_) => meshes += 1,
                NodeChunk::Bone(b) if meshes > 1 && !b.weights.is_empty() => {
                    bones_past_first = true
                }
                _ => {}
            }
        }
    }
    if names.values().any(|&n| n > 1) {
        return (Some("bone names occur twice".into()), None);
    }
    if bones_past_first {
        return (
            Some("BONE chunks weight a mesh other than the first".into()),
            None,
        );
    }
    // Skinned meshes: their node must be at the origin and every vertex weighted.
    fn walk(n: &Node, issue: &mut Option<String>) {
        if let Some(m) = n.mesh() {
            let count = m.vrts().map_or(0, |v| v.count());
            let mut weighted = vec![false; count];
            let mut any = false;
            fn bones(n: &Node, weighted: &mut [bool], any: &mut bool) {
                for c in &n.children {
                    match c {
                        NodeChunk::Bone(b) => {
                            for &(v, w) in &b.weights {
                                if w > 0.0 {
                                    *any = true;
                                    if let Some(x) =
                                        usize::try_from(v).ok().and_then(|v| weighted.get_mut(v))
                                    {
                                        *x = true;
                                    }
                                }
                            }
                        }
                        NodeChunk::Node(c) => bones(c, weighted, any),
                        _ => {}
                    }
                }
            }
            bones(n, &mut weighted, &mut any);
            let identity =
                n.position == [0.0; 3] && n.scale == [1.0; 3] && n.rotation == [1.0, 0.0, 0.0, 0.0];
            if any && !identity {
                *issue = Some("a skinned mesh's node is not at the origin".into());
            } else if any && weighted.iter().any(|w| !w) {
                *issue = Some("a skinned mesh has vertices no bone weights".into());
            }
        }
        for c in n.child_nodes() {
            walk(c, issue);
        }
    }
    for n in file.root_nodes() {
        walk(n, &mut skin_issue);
    }
    if skin_issue.is_some() {
        return (skin_issue, None);
    }
    let animated = if last_key == 0 {
        Some("no keys".into())
    } else if anims != 1 {
        Some(format!("{anims} ANIM chunks"))
    } else if fps <= 0.0 {
        Some("ANIM fps 0".into())
    } else {
        None
    };
    (None, animated)
}

fn rigport_triangles(model: &Model, pose: Option<f32>) -> Vec<Triangle> {
    let meshes = match pose {
        None => model.meshes.clone(),
        Some(t) => rigport_anim::posed_meshes(model, 0, t).unwrap().0,
    };
    meshes
        .iter()
        .flat_map(|m| {
            m.triangles
                .iter()
                .map(|t| t.map(|i| m.vertices[i as usize].position))
        })
        .collect()
}

#[test]
fn poses_agree_with_assimp_where_its_deviations_do_not_apply() {
    if !assimp_available() {
        println!("skipped: assimp is not installed");
        return;
    }
    let Some(files) = common::corpus("b3d") else {
        return;
    };
    let out = std::env::temp_dir().join(format!("rigport-b3d-assimp-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let (mut compared, mut animated) = (0, 0);
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let file = File::from_slice(&bytes).unwrap();
        let (skip, skip_animation) = deviations(&file);
        if let Some(why) = skip {
            println!("{name}: not compared ({why})");
            continue;
        }
        let glb = out.join(format!("{name}.glb"));
        let run = Command::new("assimp")
            .arg("export")
            .arg(&path)
            .arg(&glb)
            .arg("-fglb2")
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{name}: assimp failed: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let oracle = Oracle::read(&std::fs::read(&glb).unwrap(), None).unwrap();
        let (model, _) = to_model(&file, &ConvertOptions::default()).unwrap();
        let expected = oracle.triangles(None).unwrap();
        let tolerance = 2e-3 * size(&expected);
        let worst = compare(&expected, &rigport_triangles(&model, None), tolerance)
            .unwrap_or_else(|e| panic!("{name} at rest: {e}"));
        println!("{name}: rest pose within {worst} (tolerance {tolerance})");
        compared += 1;
        if let Some(why) = skip_animation {
            println!("{name}: animation not compared ({why})");
            continue;
        }
        let fps = model.animations[0].fps;
        let keys: Vec<i32> = file
            .nodes()
            .iter()
            .flat_map(|(_, n)| {
                n.keys()
                    .flat_map(|k| k.keys.iter().map(|k| k.frame))
                    .collect::<Vec<_>>()
            })
            .collect();
        let frames = file
            .nodes()
            .iter()
            .flat_map(|(_, n)| n.children.iter())
            .find_map(|c| match c {
                NodeChunk::Anim(a) => Some(a.frames),
                _ => None,
            });
        let first = *keys.iter().min().unwrap();
        let last = (*keys.iter().max().unwrap()).min(frames.unwrap_or(i32::MAX));
        for frame in [first, (first + last) / 2, (first + last) / 2 + 1] {
            // assimp: file frame k at k / fps; rigport: at (k - 1) / fps.
            let theirs = oracle.triangles(Some((0, frame as f32 / fps))).unwrap();
            let ours = rigport_triangles(&model, Some((frame - 1) as f32 / fps));
            let worst = compare(&theirs, &ours, tolerance)
                .unwrap_or_else(|e| panic!("{name} at frame {frame}: {e}"));
            println!("{name}: frame {frame} within {worst}");
        }
        animated += 1;
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(compared > 0 && animated > 0, "nothing was compared");
    println!("{compared} files compared at rest, {animated} animated");
}
