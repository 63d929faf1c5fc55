//! Double-sided materials for meshes whose own triangles disagree with their stored normals.
//!
//! Engines that drew such files (Scorched3D, Unvanquished) either disabled back-face culling
//! or lit by the stored normals, so the model looked whole. glTF culls back faces unless the
//! material is double-sided; written single-sided, a third of bender.txt would vanish. The
//! data is kept as it is and the mesh gets a double-sided material: the material itself when
//! every mesh using it is inconsistent, else a double-sided copy appended after the model's
//! materials (so material ids still carry over).

use rigport_model_core::Winding;
use rigport_model_core::{Model, Report};

/// A mesh is inconsistent when more than this share of its judged triangles (in percent)
/// face away from their stored normals. Below it, a few sliver or folded triangles in a
/// carefully made model do not make every material double-sided.
pub const INCONSISTENT_PERCENT: usize = 5;

/// Whether a mesh's winding is inconsistent enough to draw it double-sided.
pub fn is_inconsistent(winding: Winding) -> bool {
    winding.disagree * 100 > winding.checked * INCONSISTENT_PERCENT
}

/// Which glTF material each mesh uses, and which are double-sided.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct MaterialPlan {
    /// glTF material of each model mesh (`None`: no material).
    pub mesh_material: Vec<Option<u32>>,
    /// Per model material: written double-sided.
    pub double_sided: Vec<bool>,
    /// Double-sided materials appended after the model's: a copy of that model material,
    /// or (`None`) glTF's default material for inconsistent meshes without one.
    pub variants: Vec<Option<usize>>,
    /// Written meshes naming a material that does not exist.
    pub bad_material: usize,
}

/// Plans the materials. `windings` and `written` (whether the mesh has a triangle to write)
/// are per model mesh. One warning lists the inconsistent meshes.
pub(super) fn plan(
    model: &Model,
    windings: &[Winding],
    written: &[bool],
    report: &mut Report,
) -> MaterialPlan {
    let material_count = model.materials.len();
    let mut plan = MaterialPlan {
        double_sided: vec![false; material_count],
        ..MaterialPlan::default()
    };
    // The model material of each written mesh, and whether that mesh is inconsistent.
    let uses: Vec<Option<(Option<usize>, bool)>> = model
        .meshes
        .iter()
        .zip(windings.iter().zip(written))
        .map(|(mesh, (&winding, &written))| {
            if !written {
                return None;
            }
            let material = mesh.material.map(|id| id.index());
            let valid = material.filter(|&m| m < material_count);
            plan.bad_material += usize::from(material.is_some() && valid.is_none());
            Some((valid, is_inconsistent(winding)))
        })
        .collect();
    // Materials used by at least one consistent mesh.
    let mut shared = vec![false; material_count];
    for &(material, inconsistent) in uses.iter().flatten() {
        if let Some(m) = material {
            shared[m] |= !inconsistent;
        }
    }
    // Variant index per model material (or the default material), made on first need.
    let mut variant_of: Vec<Option<u32>> = vec![None; material_count];
    let mut default_variant: Option<u32> = None;
    let mut listed = Vec::new();
    for ((mesh, use_), winding) in model.meshes.iter().zip(&uses).zip(windings) {
        let Some((material, inconsistent)) = *use_ else {
            plan.mesh_material.push(None);
            continue;
        };
        let chosen = match (material, inconsistent) {
            (material, false) => material.map(|m| m as u32),
            (Some(m), true) if !shared[m] => {
                plan.double_sided[m] = true;
                Some(m as u32)
            }
            (source, true) => {
                let slot = match source {
                    Some(m) => &mut variant_of[m],
                    None => &mut default_variant,
                };
                let index = *slot.get_or_insert_with(|| {
                    plan.variants.push(source);
                    (material_count + plan.variants.len() - 1) as u32
                });
                Some(index)
            }
        };
        if inconsistent {
            let how = match (material, chosen) {
                (Some(m), Some(c)) if c as usize != m => {
                    format!(", copy of `{}`", model.materials[m].name)
                }
                (None, _) => ", default material".to_owned(),
                _ => String::new(),
            };
            listed.push(format!(
                "`{}` {:.0} % ({}/{}{how})",
                mesh.name,
                winding.disagree as f64 * 100.0 / winding.checked as f64,
                winding.disagree,
                winding.checked,
            ));
        }
        plan.mesh_material.push(chosen);
    }
    if !listed.is_empty() {
        // One warning per file, however many meshes: the list says which and how badly.
        report.warn(
            rigport_model_core::codes::GLTF_DOUBLE_SIDED,
            format!(
                "{} of {} meshes have more than {INCONSISTENT_PERCENT} % of their triangles facing away from their stored normals; drawn double-sided (a double-sided copy where the material is shared with consistent meshes): {}",
                listed.len(),
                model.meshes.len(),
                listed.join(", ")
            ),
        );
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::{Material, MaterialId, Mesh};

    fn model(materials: &[Option<u32>]) -> Model {
        let mut model = Model {
            materials: vec![Material::named("a"), Material::named("b")],
            ..Model::default()
        };
        for (i, m) in materials.iter().enumerate() {
            let mut mesh = Mesh::new(format!("m{i}"));
            mesh.material = m.map(MaterialId);
            model.meshes.push(mesh);
        }
        model
    }

    const GOOD: Winding = Winding {
        disagree: 5,
        checked: 100,
    };
    const BAD: Winding = Winding {
        disagree: 6,
        checked: 100,
    };

    #[test]
    fn the_threshold_is_more_than_five_percent() {
        assert!(!is_inconsistent(GOOD));
        assert!(is_inconsistent(BAD));
        assert!(!is_inconsistent(Winding::default()));
    }

    #[test]
    fn an_unshared_material_becomes_double_sided_a_shared_one_gets_a_copy() {
        // m0 (bad) alone on `a`; m1 (bad) and m2 (good) share `b`; m3 (bad) has none;
        // m4 (bad) also uses `b` and shares m1's copy; m5 names a missing material.
        let model = model(&[Some(0), Some(1), Some(1), None, Some(1), Some(9)]);
        let windings = [BAD, BAD, GOOD, BAD, BAD, GOOD];
        let mut report = Report::default();
        let plan = plan(&model, &windings, &[true; 6], &mut report);
        assert_eq!(plan.double_sided, vec![true, false]);
        assert_eq!(plan.variants, vec![Some(1), None]);
        assert_eq!(
            plan.mesh_material,
            vec![Some(0), Some(2), Some(1), Some(3), Some(2), None]
        );
        assert_eq!(plan.bad_material, 1);
        let warnings: Vec<_> = report
            .notices
            .iter()
            .filter(|n| n.code == "gltf-double-sided")
            .collect();
        assert_eq!(warnings.len(), 1, "{report}");
        let message = &warnings[0].message;
        assert!(message.starts_with("4 of 6 meshes"), "{message}");
        assert!(
            message.contains("`m1` 6 % (6/100, copy of `b`)"),
            "{message}"
        );
        assert!(
            message.contains("`m3` 6 % (6/100, default material)"),
            "{message}"
        );
        assert!(message.contains("`m0` 6 % (6/100)"), "{message}");
        assert!(!message.contains("`m2`"), "{message}");
    }

    #[test]
    fn meshes_not_written_change_nothing() {
        let model = model(&[Some(0), Some(0)]);
        let mut report = Report::default();
        let plan = plan(&model, &[BAD, GOOD], &[true, false], &mut report);
        assert_eq!(plan.double_sided, vec![true, false]);
        assert!(plan.variants.is_empty());
        assert_eq!(plan.mesh_material, vec![Some(0), None]);
    }
}
