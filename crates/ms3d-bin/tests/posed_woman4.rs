//! A real skinned, animated file posed at several key times stays coherent: every triangle
//! whose three corners follow one joint alone moves rigidly, so its edge lengths are kept.

mod common;

use rigport_anim::pose_model;
use rigport_model_core::{Mesh, Model};
use rigport_ms3d_bin::{ConvertOptions, File, to_model};
use std::fmt::Write as _;

/// Times (seconds) to pose at: the first keys, one inside, and past the last key (held).
const TIMES: [f32; 4] = [0.0, 1.0, 3.0, 1000.0];

fn load() -> Option<Model> {
    let path = common::corpus_dir()?.join("glscene_Woman4.ms3d");
    let file = File::from_slice(&std::fs::read(path).unwrap()).unwrap();
    Some(to_model(&file, &ConvertOptions::default()).unwrap().0)
}

/// Triangles whose corners all have their full weight on the same single joint.
fn single_joint_triangles(mesh: &Mesh) -> impl Iterator<Item = &[u32; 3]> {
    mesh.triangles.iter().filter(|t| {
        let v = t.map(|i| &mesh.vertices[i as usize]);
        v.iter().all(|v| v.weights[0] == 1.0) && v.iter().all(|x| x.joints[0] == v[0].joints[0])
    })
}

fn edge_lengths(mesh: &Mesh, t: &[u32; 3]) -> [f32; 3] {
    let p = t.map(|i| mesh.vertices[i as usize].position);
    [
        p[0].distance(p[1]),
        p[1].distance(p[2]),
        p[2].distance(p[0]),
    ]
}

#[test]
fn woman4_posed_keeps_rigid_triangles_rigid() {
    let Some(model) = load() else { return };
    assert_eq!(model.animations.len(), 1);
    let rigid: usize = model
        .meshes
        .iter()
        .map(|m| single_joint_triangles(m).count())
        .sum();
    assert!(
        rigid > 1000,
        "Woman4 has many single-joint triangles, found {rigid}"
    );
    let mut snapshot = String::new();
    for time in TIMES {
        let (posed, _) = pose_model(&model, 0, time).unwrap();
        let mut worst = 0.0_f32;
        for (bind_mesh, posed_mesh) in model.meshes.iter().zip(&posed.meshes) {
            for t in single_joint_triangles(bind_mesh) {
                let before = edge_lengths(bind_mesh, t);
                let after = edge_lengths(posed_mesh, t);
                for (a, b) in before.iter().zip(after) {
                    worst = worst.max((a - b).abs());
                }
            }
        }
        assert!(worst < 1e-4, "t = {time}: an edge changed by {worst}");
        // The pose must actually move things, or the check above proves nothing.
        let moved = model.meshes[0].vertices[0]
            .position
            .distance(posed.meshes[0].vertices[0].position);
        assert!(moved > 1e-3, "t = {time}: vertex 0 did not move");
        let _ = writeln!(snapshot, "t = {time}");
        for mesh in posed.meshes.iter().take(3) {
            let p = mesh.vertices[0].position;
            let _ = writeln!(
                snapshot,
                "  {} v0 = ({:.3}, {:.3}, {:.3})",
                mesh.name, p.x, p.y, p.z
            );
        }
    }
    insta::assert_snapshot!(snapshot);
}
