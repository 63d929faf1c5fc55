//! The double-sided material copies the writer adds (see the writer's `sides`), read back as
//! the material they copy, so a model written to glTF and read again has its own materials.
//!
//! A copy is recognised strictly: a double-sided material named `<name> (double-sided)` whose
//! every other property equals an earlier material called `<name>`; its meshes take that
//! material. `default (double-sided)`, the copy of glTF's default material, is read as no
//! material where no material is called `default`.

use rigport_model_core::{Material, MaterialId, Model, Report, codes};

use super::file::GltfFile;

/// The writer's suffix for a double-sided copy.
const SUFFIX: &str = " (double-sided)";

/// Maps each mesh of `model` using a double-sided copy onto the material it copies and
/// drops the copies (one note lists them).
pub(super) fn merge_copies(file: &GltfFile, model: &mut Model, report: &mut Report) {
    let gltf = &file.root().materials;
    let target: Vec<Option<Option<usize>>> = model
        .materials
        .iter()
        .enumerate()
        .map(|(m, material)| copied(m, material, &model.materials, gltf))
        .collect();
    if target.iter().all(Option::is_none) {
        return;
    }
    // New index of each kept material.
    let mut place = vec![None; model.materials.len()];
    let mut kept = 0u32;
    for (m, merged) in target.iter().enumerate() {
        if merged.is_none() {
            place[m] = Some(kept);
            kept += 1;
        }
    }
    for mesh in &mut model.meshes {
        if let Some(id) = mesh.material {
            let m = id.index();
            mesh.material = match target.get(m) {
                Some(Some(into)) => into.and_then(|k| place[k]).map(MaterialId),
                _ => place.get(m).copied().flatten().map(MaterialId),
            };
        }
    }
    let names: Vec<String> = model
        .materials
        .iter()
        .zip(&target)
        .filter(|(_, t)| t.is_some())
        .map(|(material, _)| format!("`{}`", material.name))
        .collect();
    let mut m = 0;
    model.materials.retain(|_| {
        m += 1;
        target[m - 1].is_none()
    });
    report.info(
        codes::GLTF_DOUBLE_SIDED,
        format!(
            "{} read as the materials they are double-sided copies of",
            names.join(", ")
        ),
    );
}

/// Whether material `m` is a double-sided copy: `Some(Some(k))` of material `k`,
/// `Some(None)` of glTF's default material, `None` when it is a material of its own.
fn copied(
    m: usize,
    material: &Material,
    materials: &[Material],
    gltf: &[gltf_json::Material],
) -> Option<Option<usize>> {
    if !gltf.get(m).is_some_and(|g| g.double_sided) {
        return None;
    }
    let name = material.name.strip_suffix(SUFFIX)?;
    let original = materials[..m].iter().position(|other| {
        other.name == name
            && Material {
                name: other.name.clone(),
                ..material.clone()
            } == *other
    });
    match original {
        Some(k) => Some(Some(k)),
        None if name == "default" && !materials.iter().any(|o| o.name == "default") => Some(None),
        None => None,
    }
}
