//! Mesh instances → model meshes: one model mesh per primitive per node that shows it.
//!
//! Attributes are read column by column straight into the final `Vec<Vertex>` (no
//! per-vertex allocation). Triangle strips and fans become triangle lists with the winding
//! glTF gives them (strip triangle `i` is `(i, i+1, i+2)` for even `i` and `(i, i+2, i+1)`
//! for odd, fan triangle `i` is `(i+1, i+2, 0)`, glTF 2.0 §3.7.2.1); points and lines are a
//! loss. Without `NORMAL`, flat normals are generated, which needs the vertices unwelded
//! (glTF 2.0 §3.7.2.1: "client implementations MUST calculate flat normals").

use super::accessor::{self, accessor_type, visit_f32, visit_u32};
use super::morph::{self, MorphNodes, MorphStats};
use super::scene::Hierarchy;
use super::skin::{Rig, UNBOUND};
use super::{GltfFile, ImportError};
use glam::{Mat3, Mat4, Vec2, Vec3, Vec4};
use gltf_json as json;
use json::accessor::Type;
use json::mesh::{Mode, Semantic};
use json::validation::Checked;
use rigport_model_core::{Budget, JointId, MaterialId, Mesh, MeshId, Model, Report, Vertex, codes};

/// Counts over every primitive, reported once.
#[derive(Default)]
struct Stats {
    points_lines: usize,
    morph: MorphStats,
    extra_attributes: usize,
    tangents: usize,
    generated_normals: usize,
    truncated: usize,
    renormalized: usize,
    missing_joint: usize,
    leftover_corners: usize,
    degenerate_strip: usize,
    no_position: usize,
    skin_without_joints: usize,
}

/// Adds a model mesh for every triangle primitive of every mesh instance in the scene, and
/// returns, per node, the model meshes with morph targets it shows (what a `weights`
/// channel on the node drives).
pub(crate) fn meshes(
    file: &GltfFile,
    hierarchy: &Hierarchy,
    rig: &Rig,
    budget: &mut Budget,
    model: &mut Model,
    report: &mut Report,
) -> Result<MorphNodes, ImportError> {
    let root = file.root();
    let mut stats = Stats::default();
    let mut morph_nodes: MorphNodes = vec![Vec::new(); root.nodes.len()];
    for &node_index in &hierarchy.scene_nodes {
        let node = &root.nodes[node_index];
        let Some(mesh_index) = node.mesh.map(|m| m.value()) else {
            continue;
        };
        let gltf_mesh = root.meshes.get(mesh_index).ok_or_else(|| {
            ImportError::index(
                format!("node {node_index} mesh"),
                mesh_index,
                root.meshes.len(),
            )
        })?;
        let skin = match node.skin.map(|s| s.value()) {
            Some(s) if rig.skin_joints.get(s).is_some_and(|j| !j.is_empty()) => {
                Some(&rig.skin_joints[s][..])
            }
            _ => None,
        };
        let base = gltf_mesh
            .name
            .clone()
            .or_else(|| node.name.clone())
            .unwrap_or_else(|| format!("mesh{mesh_index}"));
        let target_names = morph::target_names(gltf_mesh);
        let default_weights = node
            .weights
            .as_deref()
            .or(gltf_mesh.weights.as_deref())
            .unwrap_or_default();
        for (p, primitive) in gltf_mesh.primitives.iter().enumerate() {
            let name = if gltf_mesh.primitives.len() == 1 {
                base.clone()
            } else {
                format!("{base}.{p}")
            };
            let what = format!("mesh {mesh_index} primitive {p}");
            let Some(mut mesh) =
                primitive_mesh(file, primitive, skin, &what, name, budget, &mut stats)?
            else {
                continue;
            };
            let n = mesh.vertices.len();
            mesh.morph_targets = morph::read_targets(
                file,
                primitive,
                (&target_names, default_weights),
                n,
                &what,
                budget,
                &mut stats.morph,
            )?;
            if let Some(material) = primitive.material {
                let m = material.value();
                if m >= model.materials.len() {
                    return Err(ImportError::index(
                        format!("{what} material"),
                        m,
                        model.materials.len(),
                    ));
                }
                mesh.material = Some(MaterialId(m as u32));
            }
            if !mesh.is_skinned() || skin.is_none() {
                place(&mut mesh, hierarchy, rig, node_index);
            } else {
                // Skinned: from the skins' bind space to the rest pose glTF draws.
                transform(&mut mesh, rig.bind_to_rest);
            }
            if !primitive
                .attributes
                .contains_key(&Checked::Valid(Semantic::Normals))
            {
                flat_normals(&mut mesh, budget)?;
                stats.generated_normals += 1;
            }
            if !mesh.morph_targets.is_empty() {
                let id = MeshId(model.meshes.len() as u32);
                morph_nodes[node_index].push((id, mesh.morph_targets.len()));
            }
            model.meshes.push(mesh);
        }
    }
    report_stats(&stats, report);
    morph::report_stats(&stats.morph, report);
    Ok(morph_nodes)
}

/// Bakes an unskinned instance: world space, or — under a joint — rigidly bound to the
/// nearest joint above it, placed where that joint's bind pose puts it.
fn place(mesh: &mut Mesh, hierarchy: &Hierarchy, rig: &Rig, node: usize) {
    let world = hierarchy.world[node];
    let (matrix, joint) = match rig.joint_above(hierarchy, node) {
        Some(j) => {
            let rest_world = hierarchy.world[rig.node_of_joint[j.index()]];
            let to_bind = if rest_world.determinant().abs() > 1e-12 {
                rig.bind_world[j.index()] * rest_world.inverse()
            } else {
                Mat4::IDENTITY
            };
            (to_bind * world, Some(j))
        }
        None => (world, None),
    };
    for vertex in &mut mesh.vertices {
        vertex.joints = [JointId(0); 4];
        vertex.weights = [0.0; 4];
        if let Some(j) = joint {
            vertex.joints[0] = j;
            vertex.weights[0] = 1.0;
        }
    }
    transform(mesh, matrix);
}

/// Applies a matrix to positions and normals; a mirroring matrix also flips the winding so
/// the front faces stay those glTF shows (glTF 2.0 §3.7.4: a negative determinant makes
/// clockwise triangles front-facing).
fn transform(mesh: &mut Mesh, matrix: Mat4) {
    if matrix == Mat4::IDENTITY {
        return;
    }
    let normal_matrix = Mat3::from_mat4(matrix).inverse().transpose();
    let normal_matrix = if normal_matrix.is_finite() {
        normal_matrix
    } else {
        Mat3::IDENTITY
    };
    for vertex in &mut mesh.vertices {
        vertex.position = matrix.transform_point3(vertex.position);
        vertex.normal = (normal_matrix * vertex.normal).normalize_or_zero();
    }
    morph::transform_targets(
        &mut mesh.morph_targets,
        Mat3::from_mat4(matrix),
        normal_matrix,
    );
    if matrix.determinant() < 0.0 {
        for triangle in &mut mesh.triangles {
            triangle.swap(1, 2);
        }
    }
}

/// Unwelds the mesh (three vertices per triangle) and gives each triangle's corners its
/// face normal, counter-clockwise.
fn flat_normals(mesh: &mut Mesh, budget: &mut Budget) -> Result<(), ImportError> {
    budget.reserve(
        "unwelded vertices",
        mesh.triangles.len() as u64 * 3,
        size_of::<Vertex>() as u64,
    )?;
    let mut vertices = Vec::with_capacity(mesh.triangles.len() * 3);
    let mut corners = Vec::new();
    if !mesh.morph_targets.is_empty() {
        corners = mesh.triangles.iter().flatten().copied().collect();
    }
    for (t, triangle) in mesh.triangles.iter_mut().enumerate() {
        let [a, b, c] = triangle.map(|i| mesh.vertices[i as usize]);
        let normal = (b.position - a.position)
            .cross(c.position - a.position)
            .normalize_or_zero();
        for mut v in [a, b, c] {
            v.normal = normal;
            vertices.push(v);
        }
        let first = (t * 3) as u32;
        *triangle = [first, first + 1, first + 2];
    }
    mesh.vertices = vertices;
    morph::unweld_targets(&mut mesh.morph_targets, &corners);
    Ok(())
}

/// The accessor of an attribute, if the primitive has it.
fn attribute(primitive: &json::mesh::Primitive, semantic: Semantic) -> Option<usize> {
    primitive
        .attributes
        .get(&Checked::Valid(semantic))
        .map(|a| a.value())
}

/// Checks that an attribute has one element per vertex.
fn same_count(
    file: &GltfFile,
    index: usize,
    vertices: usize,
    what: &str,
) -> Result<(), ImportError> {
    let info = accessor::info(file, index, what)?;
    if info.count != vertices {
        return Err(ImportError::invalid(
            format!("{what} (accessor {index})"),
            format!("has {} elements but POSITION has {vertices}", info.count),
        ));
    }
    Ok(())
}

/// One primitive as a model mesh in the primitive's own space (`None` for points, lines and
/// primitives without positions).
#[allow(clippy::too_many_arguments)]
fn primitive_mesh(
    file: &GltfFile,
    primitive: &json::mesh::Primitive,
    skin: Option<&[JointId]>,
    what: &str,
    name: String,
    budget: &mut Budget,
    stats: &mut Stats,
) -> Result<Option<Mesh>, ImportError> {
    let mode = match primitive.mode {
        Checked::Valid(mode) => mode,
        Checked::Invalid => return Err(ImportError::invalid(what, "has an invalid mode")),
    };
    if matches!(
        mode,
        Mode::Points | Mode::Lines | Mode::LineLoop | Mode::LineStrip
    ) {
        stats.points_lines += 1;
        return Ok(None);
    }
    let Some(position) = attribute(primitive, Semantic::Positions) else {
        stats.no_position += 1;
        return Ok(None);
    };
    let n = accessor::info(file, position, &format!("{what} POSITION"))?.count;
    budget.reserve("vertices", n as u64, size_of::<Vertex>() as u64)?;
    let mut mesh = Mesh::new(name);
    mesh.vertices = vec![Vertex::default(); n];
    let vertices = &mut mesh.vertices;
    visit_f32::<3>(file, position, &format!("{what} POSITION"), |i, p| {
        vertices[i].position = Vec3::from(p);
    })?;
    if let Some(normal) = attribute(primitive, Semantic::Normals) {
        same_count(file, normal, n, &format!("{what} NORMAL"))?;
        visit_f32::<3>(file, normal, &format!("{what} NORMAL"), |i, v| {
            vertices[i].normal = Vec3::from(v).normalize_or_zero();
        })?;
    }
    if let Some(uv) = attribute(primitive, Semantic::TexCoords(0)) {
        same_count(file, uv, n, &format!("{what} TEXCOORD_0"))?;
        visit_f32::<2>(file, uv, &format!("{what} TEXCOORD_0"), |i, v| {
            vertices[i].uv = Vec2::from(v);
        })?;
        mesh.has_uvs = true;
    }
    if let Some(color) = attribute(primitive, Semantic::Colors(0)) {
        let label = format!("{what} COLOR_0");
        same_count(file, color, n, &label)?;
        if accessor_type(file, color) == Some(Type::Vec3) {
            visit_f32::<3>(file, color, &label, |i, v| {
                vertices[i].color = Vec3::from(v).extend(1.0);
            })?;
        } else {
            visit_f32::<4>(file, color, &label, |i, v| {
                vertices[i].color = Vec4::from(v)
            })?;
        }
        mesh.has_colors = true;
    }
    for semantic in primitive.attributes.keys() {
        match semantic {
            Checked::Valid(Semantic::Tangents) => stats.tangents += 1,
            Checked::Valid(Semantic::TexCoords(k) | Semantic::Colors(k)) if *k > 0 => {
                stats.extra_attributes += 1;
            }
            Checked::Invalid => stats.extra_attributes += 1,
            _ => {}
        }
    }
    read_influences(
        file,
        primitive,
        skin,
        what,
        &mut mesh.vertices,
        budget,
        stats,
    )?;
    read_triangles(file, primitive, mode, n, what, &mut mesh, budget, stats)?;
    Ok(Some(mesh))
}

/// JOINTS_n / WEIGHTS_n, every set: the four largest influences per vertex, merged by
/// joint, mapped through the skin onto the skeleton and renormalized.
fn read_influences(
    file: &GltfFile,
    primitive: &json::mesh::Primitive,
    skin: Option<&[JointId]>,
    what: &str,
    vertices: &mut [Vertex],
    budget: &mut Budget,
    stats: &mut Stats,
) -> Result<(), ImportError> {
    let mut sets = 0u32;
    while attribute(primitive, Semantic::Joints(sets)).is_some()
        && attribute(primitive, Semantic::Weights(sets)).is_some()
    {
        sets += 1;
    }
    if sets == 0 {
        return Ok(());
    }
    let Some(skin) = skin else {
        stats.skin_without_joints += 1;
        return Ok(());
    };
    let n = vertices.len();
    if sets == 1 {
        return single_set(file, primitive, skin, what, vertices, stats);
    }
    let width = 4 * sets as usize;
    budget.reserve("vertex influences", (n * width) as u64, 8)?;
    let mut joints = vec![0u32; n * width];
    let mut weights = vec![0f32; n * width];
    for set in 0..sets {
        let at = 4 * set as usize;
        let joint_accessor = attribute(primitive, Semantic::Joints(set)).unwrap_or_default();
        let weight_accessor = attribute(primitive, Semantic::Weights(set)).unwrap_or_default();
        let label = format!("{what} JOINTS_{set}");
        same_count(file, joint_accessor, n, &label)?;
        visit_u32::<4>(file, joint_accessor, &label, |i, v| {
            joints[i * width + at..i * width + at + 4].copy_from_slice(&v);
        })?;
        let label = format!("{what} WEIGHTS_{set}");
        same_count(file, weight_accessor, n, &label)?;
        visit_f32::<4>(file, weight_accessor, &label, |i, v| {
            weights[i * width + at..i * width + at + 4].copy_from_slice(&v);
        })?;
    }
    let mut influences: Vec<(JointId, f32)> = Vec::with_capacity(width);
    for (i, vertex) in vertices.iter_mut().enumerate() {
        influences.clear();
        for k in 0..width {
            let w = weights[i * width + k];
            if !(w > 0.0 && w.is_finite()) {
                continue;
            }
            let Some(&joint) = skin.get(joints[i * width + k] as usize) else {
                stats.missing_joint += 1;
                continue;
            };
            if joint == UNBOUND {
                continue;
            }
            match influences.iter_mut().find(|(j, _)| *j == joint) {
                Some((_, total)) => *total += w,
                None => influences.push((joint, w)),
            }
        }
        let truncated = influences.len() > 4;
        if truncated {
            influences.sort_by(|a, b| b.1.total_cmp(&a.1));
            influences.truncate(4);
            stats.truncated += 1;
        }
        let sum: f32 = influences.iter().map(|(_, w)| w).sum();
        // Weights as stored are kept bit for bit unless they must change.
        let rescale = truncated || (sum - 1.0).abs() > 1e-5;
        if !truncated && (sum - 1.0).abs() > 1e-3 {
            stats.renormalized += 1;
        }
        for (slot, (joint, w)) in influences.iter().enumerate() {
            vertex.joints[slot] = *joint;
            vertex.weights[slot] = if rescale { w / sum } else { *w };
        }
    }
    Ok(())
}

/// JOINTS_0 / WEIGHTS_0 alone (the common case): read straight into the vertices, then
/// mapped through the skin and checked in one pass, without a scratch array.
fn single_set(
    file: &GltfFile,
    primitive: &json::mesh::Primitive,
    skin: &[JointId],
    what: &str,
    vertices: &mut [Vertex],
    stats: &mut Stats,
) -> Result<(), ImportError> {
    let n = vertices.len();
    let joint_accessor = attribute(primitive, Semantic::Joints(0)).unwrap_or_default();
    let weight_accessor = attribute(primitive, Semantic::Weights(0)).unwrap_or_default();
    let label = format!("{what} JOINTS_0");
    same_count(file, joint_accessor, n, &label)?;
    visit_u32::<4>(file, joint_accessor, &label, |i, v| {
        vertices[i].joints = v.map(JointId);
    })?;
    let label = format!("{what} WEIGHTS_0");
    same_count(file, weight_accessor, n, &label)?;
    visit_f32::<4>(file, weight_accessor, &label, |i, v| {
        vertices[i].weights = v
    })?;
    for vertex in vertices.iter_mut() {
        let mut sum = 0.0;
        for (joint, weight) in vertex.joints.iter_mut().zip(&mut vertex.weights) {
            if !(*weight > 0.0 && weight.is_finite()) {
                *weight = 0.0;
                *joint = JointId(0);
                continue;
            }
            match skin.get(joint.index()) {
                Some(&UNBOUND) => {
                    *weight = 0.0;
                    *joint = JointId(0);
                }
                Some(&mapped) => *joint = mapped,
                None => {
                    stats.missing_joint += 1;
                    *weight = 0.0;
                    *joint = JointId(0);
                }
            }
            sum += *weight;
        }
        if sum > 0.0 && (sum - 1.0).abs() > 1e-5 {
            if (sum - 1.0).abs() > 1e-3 {
                stats.renormalized += 1;
            }
            vertex.weights.iter_mut().for_each(|w| *w /= sum);
        }
    }
    Ok(())
}

/// The triangles of a primitive: indices (or 0..n) assembled by mode, each checked.
#[allow(clippy::too_many_arguments)]
fn read_triangles(
    file: &GltfFile,
    primitive: &json::mesh::Primitive,
    mode: Mode,
    n: usize,
    what: &str,
    mesh: &mut Mesh,
    budget: &mut Budget,
    stats: &mut Stats,
) -> Result<(), ImportError> {
    let label = format!("{what} indices");
    let corners = match primitive.indices {
        Some(a) => accessor::info(file, a.value(), &label)?.count,
        None => n,
    };
    budget.reserve("triangles", corners as u64, 12)?;
    let triangles = &mut mesh.triangles;
    let mut bad = None;
    let fast = match (mode, primitive.indices) {
        (Mode::Triangles, Some(a)) => {
            accessor::packed_triangles(file, a.value(), &label, triangles)?
        }
        _ => None,
    };
    if let Some(max) = fast {
        stats.leftover_corners += corners % 3;
        if max as usize >= n {
            // Find the first offending corner for the error.
            let at = triangles
                .iter()
                .flatten()
                .position(|&i| i == max)
                .unwrap_or(0);
            bad = Some((at, max));
        }
    } else if mode == Mode::Triangles {
        triangles.reserve(corners / 3);
        let mut corner = [0u32; 3];
        let mut k = 0;
        let mut push = |i: usize, index: u32| {
            if index as usize >= n {
                bad.get_or_insert((i, index));
            }
            corner[k] = index;
            k += 1;
            if k == 3 {
                triangles.push(corner);
                k = 0;
            }
        };
        match primitive.indices {
            Some(a) => {
                visit_u32::<1>(file, a.value(), &label, |i, [index]| push(i, index))?;
            }
            None => (0..n).for_each(|i| push(i, i as u32)),
        }
        stats.leftover_corners += k;
    } else {
        let mut list = Vec::with_capacity(corners);
        match primitive.indices {
            Some(a) => {
                visit_u32::<1>(file, a.value(), &label, |i, [index]| {
                    if index as usize >= n {
                        bad.get_or_insert((i, index));
                    }
                    list.push(index);
                })?;
            }
            None => list.extend(0..n as u32),
        }
        let count = list.len().saturating_sub(2);
        triangles.reserve(count);
        for i in 0..count {
            let triangle = if mode == Mode::TriangleFan {
                [list[i + 1], list[i + 2], list[0]]
            } else if i % 2 == 0 {
                [list[i], list[i + 1], list[i + 2]]
            } else {
                [list[i], list[i + 2], list[i + 1]]
            };
            // Strips join pieces with repeated indices; those triangles have no area.
            if triangle[0] == triangle[1]
                || triangle[1] == triangle[2]
                || triangle[0] == triangle[2]
            {
                stats.degenerate_strip += 1;
                continue;
            }
            triangles.push(triangle);
        }
    }
    if let Some((i, index)) = bad {
        return Err(ImportError::BadIndex {
            what: format!("{label}[{i}]"),
            index: u64::from(index),
            len: n as u64,
        });
    }
    Ok(())
}

/// Turns the counts into report notices.
fn report_stats(stats: &Stats, report: &mut Report) {
    let mut say = |count: usize, code: rigport_model_core::Code, loss: bool, text: &str| {
        if count > 0 {
            let message = format!("{count} {text}");
            if loss {
                report.loss(code, message);
            } else {
                report.info(code, message);
            }
        }
    };
    say(
        stats.points_lines,
        codes::NON_TRIANGLE_PRIMITIVES,
        true,
        "point or line primitives are not carried (only triangles)",
    );
    say(
        stats.extra_attributes,
        codes::CUSTOM_ATTRIBUTES,
        true,
        "vertex attributes beyond TEXCOORD_0/COLOR_0 (second UV or colour sets, custom attributes) are not carried",
    );
    say(
        stats.tangents,
        codes::TANGENTS,
        true,
        "primitives have tangents, which are not carried",
    );
    say(
        stats.generated_normals,
        codes::NORMALS_GENERATED,
        false,
        "primitives have no NORMAL; flat normals were generated (vertices unwelded)",
    );
    say(
        stats.truncated,
        codes::WEIGHTS_TRUNCATED,
        true,
        "vertices have more than 4 joint influences; the 4 largest were kept and renormalized",
    );
    say(
        stats.renormalized,
        codes::WEIGHTS_RENORMALIZED,
        false,
        "vertices' joint weights did not sum to 1; rescaled",
    );
    say(
        stats.missing_joint,
        codes::SKIN_JOINT_MISSING,
        true,
        "vertex influences name a joint past the end of their skin; ignored",
    );
    say(
        stats.leftover_corners,
        codes::INVALID_TRIANGLES,
        true,
        "index entries past the last whole triangle were ignored",
    );
    say(
        stats.degenerate_strip,
        codes::INVALID_TRIANGLES,
        false,
        "degenerate strip/fan triangles (repeated indices, no area) were left out",
    );
    say(
        stats.no_position,
        codes::INVALID_TRIANGLES,
        true,
        "primitives have no POSITION and were left out",
    );
    say(
        stats.skin_without_joints,
        codes::SKIN_JOINT_MISSING,
        true,
        "primitives have joint weights but their node has no skin; not skinned",
    );
}
