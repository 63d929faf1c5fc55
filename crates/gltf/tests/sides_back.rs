//! The double-sided material copy the writer adds for a mesh whose triangles face away from
//! their stored normals comes back as the material it copies: a model written as glTF and
//! read again has its own materials, its meshes on them.

use glam::Vec3;
use rigport_gltf::export::{ExportOptions, to_glb};
use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
use rigport_model_core::{Material, MaterialId, Mesh, Model, ReadOptions, Vertex, codes};

/// A triangle in the XY plane, its stored normals `+Z` (agreeing with its winding) or `-Z`.
fn triangle(name: &str, material: Option<u32>, agrees: bool) -> Mesh {
    let normal = if agrees { Vec3::Z } else { Vec3::NEG_Z };
    let mut mesh = Mesh::new(name);
    mesh.material = material.map(MaterialId);
    mesh.vertices = [Vec3::ZERO, Vec3::X, Vec3::Y]
        .into_iter()
        .map(|position| Vertex {
            position,
            normal,
            ..Vertex::default()
        })
        .collect();
    mesh.triangles = vec![[0, 1, 2]];
    mesh
}

fn back(model: &Model) -> (Model, rigport_model_core::Report) {
    let (glb, _) = to_glb(model, &ExportOptions::default()).unwrap();
    let (file, _) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None).unwrap();
    let (imported, report) = to_model(&file, &ImportOptions::default()).unwrap();
    (imported.model, report)
}

#[test]
fn double_sided_copies_come_back_as_their_material() {
    let model = Model {
        materials: vec![Material::named("skin"), Material::named("metal")],
        meshes: vec![
            triangle("good", Some(0), true),
            triangle("bad", Some(0), false),
            triangle("plain", Some(1), true),
            triangle("bare", None, false),
        ],
        ..Model::default()
    };
    let (glb, _) = to_glb(&model, &ExportOptions::default()).unwrap();
    let (file, _) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None).unwrap();
    let written: Vec<_> = file
        .root()
        .materials
        .iter()
        .map(|m| m.name.clone().unwrap_or_default())
        .collect();
    assert_eq!(
        written,
        [
            "skin",
            "metal",
            "skin (double-sided)",
            "default (double-sided)"
        ],
        "the writer's copies"
    );
    let (read, report) = back(&model);
    let names: Vec<&str> = read.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["skin", "metal"]);
    let used: Vec<Option<u32>> = read
        .meshes
        .iter()
        .map(|m| m.material.map(|id| id.0))
        .collect();
    assert_eq!(used, [Some(0), Some(0), Some(1), None]);
    assert!(
        report.with_code(codes::GLTF_DOUBLE_SIDED).next().is_some(),
        "{report}"
    );
}

#[test]
fn a_material_of_its_own_keeps_its_name() {
    // Named like a copy but not equal to `skin`: a material of its own.
    let mut own = Material::named("skin (double-sided)");
    own.opacity = 0.5;
    let model = Model {
        materials: vec![Material::named("skin"), own],
        meshes: vec![triangle("a", Some(0), true), triangle("b", Some(1), true)],
        ..Model::default()
    };
    let (read, _) = back(&model);
    let names: Vec<&str> = read.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["skin", "skin (double-sided)"]);
}
