//! Model-level checks for `rigport validate`: problems a file can have even when every byte
//! of it reads.
//!
//! Two checks borrow the glTF exporter's rules (front-face winding, absolute texture paths)
//! and run only with the `gltf` feature; the MilkShape limits come from their one home,
//! `rigport_anim::milkshape::limits`, and are checked whatever the features.

use crate::document::{Document, sniff};
use rigport_anim::skeleton::parent_first_order;
use rigport_model_core::{Model, ReadOptions, Severity, TooMany};
use std::path::Path;

/// One problem found, with where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// `Error` fails validation; `Warning` and `Info` do not.
    pub severity: FindingSeverity,
    /// Stable kebab-case code.
    pub code: rigport_model_core::Code,
    /// What and where, for a person.
    pub message: String,
}

/// How serious a [`Finding`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FindingSeverity {
    /// Worth knowing; nothing is wrong.
    Info,
    /// Suspicious, or a limit of another format.
    Warning,
    /// The file is broken.
    Error,
}

impl FindingSeverity {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingSeverity::Info => "info",
            FindingSeverity::Warning => "warning",
            FindingSeverity::Error => "error",
        }
    }
}

impl From<Severity> for FindingSeverity {
    fn from(severity: Severity) -> Self {
        match severity {
            Severity::Info | Severity::Loss => FindingSeverity::Info,
            Severity::Warning => FindingSeverity::Warning,
        }
    }
}

/// Limits of MilkShape 3D (binary and ASCII), the most restrictive target, from their one
/// home in `rigport_anim::milkshape::limits`.
const MS3D_LIMITS: [(&str, usize); 5] = {
    use rigport_anim::milkshape::limits::*;
    [
        ("vertices", MAX_VERTICES),
        ("triangles", MAX_TRIANGLES),
        ("groups", MAX_GROUPS),
        ("materials", MAX_MATERIALS),
        ("joints", MAX_JOINTS),
    ]
};

/// How far a weight sum may be from 1 before it is reported (MilkShape stores percents).
const WEIGHT_TOLERANCE: f32 = 0.01;
/// How far a quaternion's length may be from 1 before it is reported.
const UNIT_TOLERANCE: f32 = 1e-3;

/// Runs every model check. `model_path` locates texture files (relative to its directory).
pub fn check_model(model: &Model, model_path: &Path) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut push = |severity, code, message: String| {
        findings.push(Finding {
            severity,
            code,
            message,
        })
    };
    if let Err(error) = parent_first_order(&model.skeleton) {
        push(
            FindingSeverity::Error,
            rigport_model_core::codes::HIERARCHY,
            error.to_string(),
        );
    }
    for mesh in &model.meshes {
        let name = &mesh.name;
        let mut used = vec![false; mesh.vertices.len()];
        let (mut out_of_range, mut degenerate) = (0usize, 0usize);
        let mut first_bad = None;
        for (t, triangle) in mesh.triangles.iter().enumerate() {
            let mut valid = true;
            for &i in triangle {
                match used.get_mut(i as usize) {
                    Some(flag) => *flag = true,
                    None => valid = false,
                }
            }
            if !valid {
                out_of_range += 1;
                first_bad.get_or_insert(t);
                continue;
            }
            let [a, b, c] = triangle.map(|i| mesh.vertices[i as usize].position);
            if (b - a).cross(c - a).length_squared() == 0.0 {
                degenerate += 1;
            }
        }
        if out_of_range > 0 {
            push(
                FindingSeverity::Error,
                rigport_model_core::codes::INDEX_OUT_OF_RANGE,
                format!(
                    "mesh `{name}`: {out_of_range} triangles index past its {} vertices (first: triangle {})",
                    mesh.vertices.len(),
                    first_bad.unwrap_or_default()
                ),
            );
        }
        if degenerate > 0 {
            push(
                FindingSeverity::Warning,
                rigport_model_core::codes::DEGENERATE_TRIANGLES,
                format!("mesh `{name}`: {degenerate} triangles have zero area"),
            );
        }
        let unused = used.iter().filter(|u| !**u).count();
        if unused > 0 {
            push(
                FindingSeverity::Warning,
                rigport_model_core::codes::UNREFERENCED_VERTICES,
                format!("mesh `{name}`: {unused} vertices are used by no triangle"),
            );
        }
        let bad_weights = mesh
            .vertices
            .iter()
            .filter(|v| v.is_skinned())
            .filter(|v| (v.weights.iter().sum::<f32>() - 1.0).abs() > WEIGHT_TOLERANCE)
            .count();
        if bad_weights > 0 {
            push(
                FindingSeverity::Warning,
                rigport_model_core::codes::WEIGHTS_NOT_NORMALIZED,
                format!("mesh `{name}`: {bad_weights} vertices have weights that do not sum to 1"),
            );
        }
        let joint_count = model.skeleton.joints.len();
        let bad_joints = mesh
            .vertices
            .iter()
            .filter(|v| v.influences().any(|(j, _)| j.index() >= joint_count))
            .count();
        if bad_joints > 0 {
            push(
                FindingSeverity::Error,
                rigport_model_core::codes::JOINT_OUT_OF_RANGE,
                format!(
                    "mesh `{name}`: {bad_joints} vertices are weighted to joints that do not exist ({joint_count} joints)"
                ),
            );
        }
        let winding = mesh.winding();
        if winding.disagree > 0 {
            push(
                FindingSeverity::Warning,
                rigport_model_core::codes::WINDING,
                format!(
                    "mesh `{name}`: {} of {} triangles face away from their stored normals",
                    winding.disagree, winding.checked
                ),
            );
        }
    }
    check_rotations(model, &mut push);
    check_textures(model, model_path, &mut push);
    check_other_format_limits(model, &mut push);
    findings
}

fn check_rotations(
    model: &Model,
    push: &mut impl FnMut(FindingSeverity, rigport_model_core::Code, String),
) {
    let off_unit = |q: rigport_model_core::glam::Quat| (q.length() - 1.0).abs() > UNIT_TOLERANCE;
    for joint in &model.skeleton.joints {
        if off_unit(joint.rotation) {
            push(
                FindingSeverity::Warning,
                rigport_model_core::codes::NON_UNIT_QUATERNION,
                format!(
                    "joint `{}`: bind rotation has length {}",
                    joint.name,
                    joint.rotation.length()
                ),
            );
        }
    }
    for animation in &model.animations {
        let count: usize = animation
            .tracks
            .iter()
            .map(|t| t.rotations.iter().filter(|k| off_unit(k.value)).count())
            .sum();
        if count > 0 {
            push(
                FindingSeverity::Warning,
                rigport_model_core::codes::NON_UNIT_QUATERNION,
                format!(
                    "animation `{}`: {count} rotation keys are not unit quaternions",
                    animation.name
                ),
            );
        }
    }
}

fn check_textures(
    model: &Model,
    model_path: &Path,
    push: &mut impl FnMut(FindingSeverity, rigport_model_core::Code, String),
) {
    let dir = model_path.parent().unwrap_or(Path::new("."));
    // Many materials often share one texture: report each path once, with its users.
    let mut paths: Vec<(&str, Vec<&str>)> = Vec::new();
    for material in &model.materials {
        for texture in [&material.texture, &material.alpha_map]
            .into_iter()
            .flatten()
        {
            if texture.is_empty() {
                continue;
            }
            match paths.iter_mut().find(|(p, _)| p == texture) {
                Some((_, users)) => users.push(&material.name),
                None => paths.push((texture, vec![&material.name])),
            }
        }
    }
    for (texture, users) in paths {
        let used_by = match users.as_slice() {
            [one] => format!("material `{one}`"),
            many => format!("{} materials", many.len()),
        };
        if rigport_model_core::texture::is_absolute(texture) {
            push(
                FindingSeverity::Warning,
                rigport_model_core::codes::ABSOLUTE_TEXTURE_PATH,
                format!("{used_by}: texture path `{texture}` is absolute"),
            );
        } else if !dir.join(texture.replace('\\', "/")).exists() {
            push(
                FindingSeverity::Warning,
                rigport_model_core::codes::MISSING_TEXTURE,
                format!("{used_by}: texture `{texture}` is not beside the model"),
            );
        }
    }
}

fn check_other_format_limits(
    model: &Model,
    push: &mut impl FnMut(FindingSeverity, rigport_model_core::Code, String),
) {
    let counts = [
        model.vertex_count(),
        model.triangle_count(),
        model.meshes.len(),
        model.materials.len(),
        model.skeleton.joints.len(),
    ];
    for ((what, limit), count) in MS3D_LIMITS.iter().zip(counts) {
        if let Err(too_many) = TooMany::check("MilkShape 3D", what, count, *limit) {
            push(
                FindingSeverity::Info,
                rigport_model_core::codes::MS3D_LIMIT,
                too_many.to_string(),
            );
        }
    }
    let multi = model
        .meshes
        .iter()
        .flat_map(|m| &m.vertices)
        .filter(|v| v.influences().count() > 1)
        .count();
    if multi > 0 {
        push(
            FindingSeverity::Info,
            rigport_model_core::codes::MS3D_ASCII_LIMIT,
            format!("{multi} vertices have several joint weights; MilkShape ASCII keeps only one"),
        );
    }
    if model.animations.len() > 1 {
        push(
            FindingSeverity::Info,
            rigport_model_core::codes::MS3D_LIMIT,
            format!(
                "{} animations; MilkShape's limit is {} (one timeline; --concat-animations lays them end to end)",
                model.animations.len(),
                rigport_anim::milkshape::limits::MAX_ANIMATIONS
            ),
        );
    }
}

/// Validates one file's bytes: a strict read (a damaged tail, a trailing byte or an
/// out-of-range index is an error here), the conversion report, then [`check_model`].
/// Returns the detected format and the findings, errors first. `model_path` locates the
/// textures.
pub fn validate(bytes: &[u8], model_path: &Path) -> (Option<crate::Format>, Vec<Finding>) {
    let error = |code, message: String| {
        vec![Finding {
            severity: FindingSeverity::Error,
            code,
            message,
        }]
    };
    let Some(format) = sniff(bytes) else {
        return (
            None,
            error(
                rigport_model_core::codes::UNKNOWN_FORMAT,
                "no known file signature".into(),
            ),
        );
    };
    let (document, _) = match Document::read_path(bytes, format, &ReadOptions::strict(), model_path)
    {
        Ok(read) => read,
        Err(e) => {
            return (
                Some(format),
                error(rigport_model_core::codes::READ, e.to_string()),
            );
        }
    };
    let mut findings = Vec::new();
    match document.to_model_with_images(&crate::ModelOptions::default()) {
        Ok((model, images, report)) => {
            findings.extend(report.notices.into_iter().map(|n| Finding {
                severity: n.severity.into(),
                code: n.code,
                message: n.message,
            }));
            // A glTF's embedded images are in the file, not beside it.
            let embedded = |f: &Finding| {
                f.code == "missing-texture"
                    && images
                        .iter()
                        .any(|i| f.message.contains(&format!("`{}`", i.file_name)))
            };
            findings.extend(
                check_model(&model, model_path)
                    .into_iter()
                    .filter(|f| !embedded(f)),
            );
        }
        Err(e) => findings.extend(error(rigport_model_core::codes::MODEL, e.to_string())),
    }
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    (Some(format), findings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::glam::{Quat, Vec3};
    use rigport_model_core::{Joint, JointId, Material, Mesh, Vertex};

    fn codes(findings: &[Finding]) -> Vec<&'static str> {
        findings.iter().map(|f| f.code.key()).collect()
    }

    #[test]
    fn milkshape_limits_are_named_with_their_numbers() {
        let mut model = Model::default();
        model.skeleton.joints = vec![Joint::new("j"); 129];
        model.animations = vec![rigport_model_core::Animation::new("a", 24.0); 2];
        let findings = check_model(&model, Path::new("m.iqe"));
        let limits: Vec<&str> = findings
            .iter()
            .filter(|f| f.code == "ms3d-limit")
            .map(|f| f.message.as_str())
            .collect();
        assert_eq!(limits.len(), 2, "{findings:?}");
        assert!(limits[0].contains("129 joints") && limits[0].contains("limit of 128"));
        assert!(limits[1].contains("limit is 1"), "{}", limits[1]);
    }

    #[test]
    fn a_clean_triangle_has_no_findings() {
        let mut model = Model::default();
        let mut mesh = Mesh::new("tri");
        for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
            mesh.vertices.push(Vertex {
                position: p,
                normal: Vec3::Z,
                ..Vertex::default()
            });
        }
        mesh.triangles.push([0, 1, 2]);
        model.meshes.push(mesh);
        assert_eq!(check_model(&model, Path::new("m.iqe")), vec![]);
    }

    #[test]
    fn broken_models_are_reported_with_their_location() {
        let mut model = Model::default();
        let mut mesh = Mesh::new("bad");
        for p in [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z] {
            mesh.vertices.push(Vertex {
                position: p,
                normal: -Vec3::Z,
                joints: [JointId(5), JointId(0), JointId(0), JointId(0)],
                weights: [0.5, 0.0, 0.0, 0.0],
                ..Vertex::default()
            });
        }
        mesh.triangles = vec![[0, 1, 2], [0, 0, 1], [0, 1, 9]];
        model.meshes.push(mesh);
        model.skeleton.joints.push(Joint {
            parent: Some(JointId(0)),
            rotation: Quat::from_xyzw(0.0, 0.0, 0.0, 2.0),
            ..Joint::new("loop")
        });
        model.materials.push(Material {
            texture: Some("C:\\art\\skin.bmp".into()),
            ..Material::named("skin")
        });
        let findings = check_model(&model, Path::new("/nonexistent/m.ms3d"));
        let codes = codes(&findings);
        for expected in [
            "hierarchy",
            "index-out-of-range",
            "degenerate-triangles",
            "unreferenced-vertices",
            "weights-not-normalized",
            "joint-out-of-range",
            "winding",
            "non-unit-quaternion",
            "absolute-texture-path",
        ] {
            assert!(
                codes.contains(&expected),
                "{expected} missing from {codes:?}"
            );
        }
        let range = findings
            .iter()
            .find(|f| f.code == "index-out-of-range")
            .unwrap();
        assert!(
            range.message.contains("first: triangle 2"),
            "{}",
            range.message
        );
        assert_eq!(range.severity, FindingSeverity::Error);
    }
}
