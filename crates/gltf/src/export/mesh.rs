//! Meshes: one glTF mesh with one triangle primitive, and one node, per model mesh.
//!
//! Every triangle whose indices are in range is written as given (the format crates own the
//! winding); values glTF's validator rejects (non-finite numbers, zero normals, colours
//! outside 0..1) are repaired and counted, never dropped.

use super::buffer::{Builder, Usage};
use super::material::unit;
use super::report_counts;
use super::weights::Influence;
use glam::Vec3;
use gltf_json as json;
use json::accessor::Type;
use json::mesh::{Mode, Primitive, Semantic};
use json::validation::Checked;
use rigport_model_core::Winding;
use rigport_model_core::{Mesh, MorphTarget, Report, Severity};
use std::collections::BTreeMap;

/// What every mesh needs to know about the rest of the document.
pub(super) struct MeshContext {
    /// The skin skinned meshes use.
    pub skin: Option<json::Index<json::Skin>>,
    /// Skin joint index given to vertices of a skinned mesh bound to no joint.
    pub unbound_joint: u32,
    /// Whether joint indices fit in `u8` (else `u16`).
    pub joints_u8: bool,
}

/// Counts over all meshes, reported once at the end.
#[derive(Default)]
pub(super) struct MeshStats {
    /// Meshes left out because no triangle remained, with their vertex counts.
    pub skipped: Vec<(String, usize)>,
    /// Triangles left out because an index was out of range.
    pub bad_triangles: usize,
    /// Non-finite positions or texture coordinates replaced by 0.
    pub non_finite: usize,
    /// Zero or non-finite normals replaced by the normals of the adjacent faces.
    pub normals_generated: usize,
    /// Meshes written without normals because none were stored.
    pub without_normals: usize,
    /// Vertex colours clamped to 0..1.
    pub colours_clamped: usize,
    /// Meshes naming a material that does not exist (counted by the material plan).
    pub bad_material: usize,
    /// Front-face agreement over all meshes.
    pub winding: Winding,
}

/// Writes one mesh and the node that places it, or `None` (counted in `stats`) when no
/// triangle is left to write. `material` is the glTF material chosen by
/// [`super::sides::plan`], `winding` the mesh's front-face counts; `influences` is set for a
/// skinned mesh (one per vertex).
///
/// Every attribute is written straight from the model's vertices into the buffer, so no
/// copy of a whole attribute is ever held.
pub(super) fn write_mesh(
    mesh: &Mesh,
    material: Option<u32>,
    winding: Winding,
    influences: Option<&[Option<Influence>]>,
    context: &MeshContext,
    builder: &mut Builder,
    stats: &mut MeshStats,
) -> Option<json::Index<json::Node>> {
    let vertex_count = mesh.vertices.len();
    let in_range = |t: &&[u32; 3]| t.iter().all(|&i| (i as usize) < vertex_count);
    let triangle_count = mesh.triangles.iter().filter(in_range).count();
    stats.bad_triangles += mesh.triangles.len() - triangle_count;
    if triangle_count == 0 {
        stats.skipped.push((mesh.name.clone(), vertex_count));
        return None;
    }
    stats.winding.checked += winding.checked;
    stats.winding.disagree += winding.disagree;

    let mut attributes = BTreeMap::new();
    let positions = mesh
        .vertices
        .iter()
        .map(|v| finite(v.position.to_array(), &mut stats.non_finite));
    attributes.insert(
        Semantic::Positions,
        builder.accessor_from(positions, Type::Vec3, Usage::Position),
    );
    let normals = write_normals(mesh, in_range, builder, stats);
    if let Some(normals) = normals {
        attributes.insert(Semantic::Normals, normals);
    }
    if mesh.has_uvs {
        let uvs = mesh
            .vertices
            .iter()
            .map(|v| finite(v.uv.to_array(), &mut stats.non_finite));
        attributes.insert(
            Semantic::TexCoords(0),
            builder.accessor_from(uvs, Type::Vec2, Usage::Vertex),
        );
    }
    if mesh.has_colors {
        let colours = mesh.vertices.iter().map(|v| {
            let raw = v.color.to_array();
            let clamped = raw.map(unit);
            stats.colours_clamped += usize::from(raw != clamped);
            clamped
        });
        attributes.insert(
            Semantic::Colors(0),
            builder.accessor_from(colours, Type::Vec4, Usage::Vertex),
        );
    }
    let skin = influences.and(context.skin);
    if let (Some(influences), Some(_)) = (influences, skin) {
        // Unbound vertices get the unbound joint, weight 1.
        let unbound = ([context.unbound_joint, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
        let skin_of = |i: &Option<Influence>| i.unwrap_or(unbound);
        let joints = influences.iter().map(|i| skin_of(i).0);
        let joints = if context.joints_u8 {
            let narrow = joints.map(|j| j.map(|j| j as u8));
            builder.accessor_from(narrow, Type::Vec4, Usage::Vertex)
        } else {
            let narrow = joints.map(|j| j.map(|j| j as u16));
            builder.accessor_from(narrow, Type::Vec4, Usage::Vertex)
        };
        attributes.insert(Semantic::Joints(0), joints);
        let weights = influences.iter().map(|i| skin_of(i).1);
        attributes.insert(
            Semantic::Weights(0),
            builder.accessor_from(weights, Type::Vec4, Usage::Vertex),
        );
    }
    let triangles = mesh.triangles.iter().filter(in_range);
    // 0xFFFF is primitive restart, which glTF forbids as an index value.
    let indices = if vertex_count <= usize::from(u16::MAX) {
        let narrow = triangles.map(|t| t.map(|i| i as u16));
        builder.accessor_from(narrow, Type::Scalar, Usage::Index)
    } else {
        builder.accessor_from(triangles.copied(), Type::Scalar, Usage::Index)
    };

    let targets = write_targets(mesh, normals.is_some(), builder);
    let material = material.map(json::Index::new);
    let gltf_mesh = builder.root.push(json::Mesh {
        extensions: None,
        extras: target_names(mesh),
        name: Some(mesh.name.clone()),
        primitives: vec![Primitive {
            attributes: attributes
                .into_iter()
                .map(|(k, v)| (Checked::Valid(k), v))
                .collect(),
            extensions: None,
            extras: Default::default(),
            indices: Some(indices),
            material,
            mode: Checked::Valid(Mode::Triangles),
            targets,
        }],
        weights: (!mesh.morph_targets.is_empty()).then(|| mesh.default_weights()),
    });
    Some(builder.root.push(json::Node {
        name: Some(mesh.name.clone()),
        mesh: Some(gltf_mesh),
        skin,
        ..Default::default()
    }))
}

/// The morph targets of a mesh: each offset column dense or sparse, whichever is smaller;
/// normal offsets only where the mesh's normals are written. `None` without targets.
fn write_targets(
    mesh: &Mesh,
    with_normals: bool,
    builder: &mut Builder,
) -> Option<Vec<json::mesh::MorphTarget>> {
    if mesh.morph_targets.is_empty() {
        return None;
    }
    let n = mesh.vertices.len();
    let mut out = Vec::with_capacity(mesh.morph_targets.len());
    for target in &mesh.morph_targets {
        let positions = offset_accessor(target, n, &target.positions, true, builder);
        let normals = (with_normals && target.normals.len() == target.positions.len())
            .then(|| offset_accessor(target, n, &target.normals, false, builder));
        out.push(json::mesh::MorphTarget {
            positions: Some(positions),
            normals,
            tangents: None,
        });
    }
    Some(out)
}

/// One offset column of `target` (parallel to its positions) over `n` vertices: sparse when
/// fewer than three quarters of the vertices move (an index costs a third of an offset),
/// else dense with zeros where nothing moves. Offsets naming a vertex past the mesh, or out
/// of order, are dropped; non-finite ones are written as 0.
fn offset_accessor(
    target: &MorphTarget,
    n: usize,
    column: &[Vec3],
    bounds: bool,
    builder: &mut Builder,
) -> json::Index<json::Accessor> {
    let usage = if bounds {
        Usage::Position
    } else {
        Usage::Vertex
    };
    let clean = |v: Vec3| {
        if v.is_finite() {
            v.to_array()
        } else {
            [0.0; 3]
        }
    };
    let mut moved: Vec<(u32, [f32; 3])> = Vec::new();
    if let Some(indices) = &target.indices {
        let mut previous = None;
        for (&i, &v) in indices.iter().zip(column) {
            if (i as usize) < n && previous.is_none_or(|p| i > p) {
                moved.push((i, clean(v)));
                previous = Some(i);
            }
        }
    } else {
        moved.extend(
            column
                .iter()
                .take(n)
                .enumerate()
                .filter(|(_, v)| **v != Vec3::ZERO)
                .map(|(i, &v)| (i as u32, clean(v))),
        );
    }
    if moved.is_empty() || moved.len() * 4 >= n * 3 {
        let mut dense = vec![[0.0_f32; 3]; n];
        for (i, v) in moved {
            dense[i as usize] = v;
        }
        return builder.accessor_from(dense.into_iter(), Type::Vec3, usage);
    }
    let indices: Vec<u32> = moved.iter().map(|(i, _)| *i).collect();
    builder.sparse_vec3(n, &indices, moved.into_iter().map(|(_, v)| v), bounds)
}

/// `extras.targetNames` (what Blender and three.js read) when some target has a name.
fn target_names(mesh: &Mesh) -> json::extras::Extras {
    if mesh.morph_targets.iter().all(|t| t.name.is_empty()) {
        return None;
    }
    let names: Vec<&str> = mesh.morph_targets.iter().map(|t| t.name.as_str()).collect();
    let text = serde_json::json!({ "targetNames": names }).to_string();
    json::extras::RawValue::from_string(text).ok()
}

/// The components with non-finite ones replaced by 0 (counted per element in `count`).
fn finite<const N: usize>(item: [f32; N], count: &mut usize) -> [f32; N] {
    if item.iter().all(|c| c.is_finite()) {
        return item;
    }
    *count += 1;
    item.map(|c| if c.is_finite() { c } else { 0.0 })
}

/// Writes unit normals: stored ones normalized; zero or broken ones replaced by the
/// area-weighted normal of the adjacent faces (+Y when that is zero too). Writes nothing
/// and returns `None` when no vertex has a usable stored normal: glTF viewers then compute
/// flat normals themselves.
fn write_normals(
    mesh: &Mesh,
    in_range: impl Fn(&&[u32; 3]) -> bool,
    builder: &mut Builder,
    stats: &mut MeshStats,
) -> Option<json::Index<json::Accessor>> {
    let missing = mesh
        .vertices
        .iter()
        .filter(|v| v.normal.try_normalize().is_none())
        .count();
    if missing == mesh.vertices.len() {
        stats.without_normals += 1;
        return None;
    }
    // Face normals are summed only when some vertex needs them.
    let mut faces = Vec::new();
    if missing > 0 {
        stats.normals_generated += missing;
        faces = vec![Vec3::ZERO; mesh.vertices.len()];
        for t in mesh.triangles.iter().filter(in_range) {
            let [a, b, c] = t.map(|i| mesh.vertices[i as usize].position);
            let face = (b - a).cross(c - a);
            if face.is_finite() {
                for &i in t {
                    faces[i as usize] += face;
                }
            }
        }
    }
    let normals = mesh.vertices.iter().enumerate().map(|(i, v)| {
        v.normal
            .try_normalize()
            .or_else(|| faces.get(i)?.try_normalize())
            .unwrap_or(Vec3::Y)
            .to_array()
    });
    Some(builder.accessor_from(normals, Type::Vec3, Usage::Vertex))
}

/// Turns the counts into report notices.
pub(super) fn report_stats(stats: &MeshStats, report: &mut Report) {
    for (name, vertices) in &stats.skipped {
        if *vertices > 0 {
            report.loss(
                rigport_model_core::codes::GLTF_MESH_NO_TRIANGLES,
                format!("mesh `{name}` has no valid triangles; left out with its {vertices} vertices (glTF forbids empty primitives)"),
            );
        } else {
            report.info(
                rigport_model_core::codes::GLTF_MESH_EMPTY,
                format!("mesh `{name}` is empty; left out"),
            );
        }
    }
    use Severity::{Info, Loss, Warning};
    let winding = format!(
        "of {} checked triangles face away from their stored vertex normals (glTF draws counter-clockwise as front)",
        stats.winding.checked
    );
    report_counts(
        report,
        &[
            (
                stats.bad_triangles,
                Loss,
                rigport_model_core::codes::GLTF_TRIANGLE_INDEX_OUT_OF_RANGE,
                "triangles name a vertex that does not exist; left out",
            ),
            (
                stats.non_finite,
                Warning,
                rigport_model_core::codes::GLTF_NON_FINITE_VERTEX,
                "vertex positions or texture coordinates were not finite; written as 0",
            ),
            (
                stats.normals_generated,
                Warning,
                rigport_model_core::codes::GLTF_NORMALS_GENERATED,
                "vertices had a zero or broken normal; replaced by the normal of their faces",
            ),
            (
                stats.without_normals,
                Info,
                rigport_model_core::codes::GLTF_NO_NORMALS,
                "meshes have no normals; written without (viewers compute flat normals)",
            ),
            (
                stats.colours_clamped,
                Warning,
                rigport_model_core::codes::GLTF_COLOUR_CLAMPED,
                "vertex colours were outside 0..1; clamped",
            ),
            (
                stats.bad_material,
                Warning,
                rigport_model_core::codes::GLTF_MATERIAL_MISSING,
                "meshes name a material that does not exist; written without material",
            ),
            (
                stats.winding.disagree,
                Warning,
                rigport_model_core::codes::GLTF_WINDING_DISAGREES,
                &winding,
            ),
        ],
    );
}
