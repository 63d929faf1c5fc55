//! A skeleton written as glTF comes back in its own joint order, also where that order is
//! not the node tree's depth-first one (IQM, MD5, SMD and PSK files address joints by index).

use glam::Vec3;
use rigport_gltf::export::{ExportOptions, to_glb};
use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
use rigport_model_core::{Joint, JointId, Mesh, Model, ReadOptions, Skeleton, Vertex};

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
    let (glb, _) = to_glb(&model, &ExportOptions::default()).unwrap();
    let (file, _) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None).unwrap();
    let (imported, _) = to_model(&file, &ImportOptions::default()).unwrap();
    let names: Vec<&str> = imported
        .model
        .skeleton
        .joints
        .iter()
        .map(|j| j.name.as_str())
        .collect();
    assert_eq!(names, ["root", "a", "b", "a_child"]);
    let parents: Vec<Option<u32>> = imported
        .model
        .skeleton
        .joints
        .iter()
        .map(|j| j.parent.map(|p| p.0))
        .collect();
    assert_eq!(parents, [None, Some(0), Some(0), Some(1)]);
    // Each vertex stays on its joint.
    let bound: Vec<u32> = imported.model.meshes[0]
        .vertices
        .iter()
        .map(|v| v.joints[0].0)
        .collect();
    assert_eq!(bound, [0, 1, 2, 3]);
}
