//! A skeleton written as glTF comes back as it was: in its own joint order, also where that
//! order is not the node tree's depth-first one (IQM, MD5, SMD and PSK files address joints
//! by index), and without the joint the writer adds for unbound vertices.

use glam::Vec3;
use rigport_gltf::export::{ExportOptions, to_glb};
use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
use rigport_model_core::{Joint, JointId, Mesh, Model, ReadOptions, Report, Skeleton, Vertex};

/// Writes `model` as glb and reads it back.
fn back(model: &Model) -> (Model, Report) {
    let (glb, _) = to_glb(model, &ExportOptions::default()).unwrap();
    let (file, _) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None).unwrap();
    let (imported, report) = to_model(&file, &ImportOptions::default()).unwrap();
    (imported.model, report)
}

/// The skeleton's joint names, in order.
fn joint_names(model: &Model) -> Vec<&str> {
    model
        .skeleton
        .joints
        .iter()
        .map(|j| j.name.as_str())
        .collect()
}

#[test]
fn joints_come_back_in_the_order_written() {
    // root; its children `a` and `b`; `a_child` under `a` listed last (depth-first would
    // give root, a, a_child, b).
    let joint = |name: &str, parent: Option<u32>, y: f32| Joint {
        parent: parent.map(JointId),
        translation: Vec3::new(0.0, y, 0.0),
        ..Joint::new(name)
    };
    let skeleton = Skeleton {
        joints: vec![
            joint("root", None, 0.0),
            joint("a", Some(0), 1.0),
            joint("b", Some(0), 1.5),
            joint("a_child", Some(1), 1.0),
        ],
    };
    let mut mesh = Mesh::new("strip");
    for (k, y) in [0.0f32, 1.0, 2.0, 1.5].into_iter().enumerate() {
        let mut vertex = Vertex {
            position: Vec3::new(k as f32 * 0.1, y, 0.0),
            normal: Vec3::Z,
            ..Vertex::default()
        };
        vertex.joints[0] = JointId(k as u32);
        vertex.weights[0] = 1.0;
        mesh.vertices.push(vertex);
    }
    mesh.triangles = vec![[0, 1, 2], [0, 2, 3]];
    let model = Model {
        meshes: vec![mesh],
        skeleton,
        ..Model::default()
    };
    let (imported, _) = back(&model);
    let names = joint_names(&imported);
    assert_eq!(names, ["root", "a", "b", "a_child"]);
    let parents: Vec<Option<u32>> = imported
        .skeleton
        .joints
        .iter()
        .map(|j| j.parent.map(|p| p.0))
        .collect();
    assert_eq!(parents, [None, Some(0), Some(0), Some(1)]);
    // Each vertex stays on its joint.
    let bound: Vec<u32> = imported.meshes[0]
        .vertices
        .iter()
        .map(|v| v.joints[0].0)
        .collect();
    assert_eq!(bound, [0, 1, 2, 3]);
}

#[test]
fn vertices_bound_to_no_joint_come_back_unbound_without_an_added_joint() {
    let mut mesh = Mesh::new("flag");
    for (k, position) in [Vec3::ZERO, Vec3::X, Vec3::Y].into_iter().enumerate() {
        let mut vertex = Vertex {
            position,
            normal: Vec3::Z,
            ..Vertex::default()
        };
        if k == 0 {
            vertex.weights[0] = 1.0;
        }
        mesh.vertices.push(vertex);
    }
    mesh.triangles = vec![[0, 1, 2]];
    let model = Model {
        meshes: vec![mesh],
        skeleton: Skeleton {
            joints: vec![Joint::new("pole")],
        },
        ..Model::default()
    };
    let (imported, report) = back(&model);
    let names = joint_names(&imported);
    assert_eq!(names, ["pole"]);
    let weights: Vec<[f32; 4]> = imported.meshes[0]
        .vertices
        .iter()
        .map(|v| v.weights)
        .collect();
    assert_eq!(weights, [[1.0, 0.0, 0.0, 0.0], [0.0; 4], [0.0; 4]]);
    assert!(
        report
            .notices
            .iter()
            .any(|n| n.code == rigport_model_core::codes::GLTF_UNBOUND_JOINT),
        "{report:?}"
    );
    assert!(
        !report
            .notices
            .iter()
            .any(|n| n.severity >= rigport_model_core::Severity::Warning),
        "{report:?}"
    );
}
