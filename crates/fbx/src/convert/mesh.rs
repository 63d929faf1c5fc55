//! Meshes: one per node instance and material part, triangulated as ufbx does, their
//! corners unified into vertices (position, normal, UV, colour), placed on the rig:
//!
//! - skinned: in bind space (the skin cluster's bind matrix of the geometry), with the four
//!   strongest influences renormalized;
//! - rigid under a joint: bound whole to that joint, placed where its bind pose puts it;
//! - otherwise static, in world space.
//!
//! Blend shapes become morph targets ([`super::blend`]).

use super::blend;
use super::skeleton::Rig;
use crate::math::{dvec3, inverse, mat};
use glam::{DMat3, DMat4, DVec3, Vec2, Vec3, Vec4};
use rigport_model_core::{JointId, MaterialId, Mesh, MeshId, Report, Vertex, codes};
use std::collections::HashMap;

/// How a mesh instance sits on the rig.
enum Placement {
    /// Skinned: geometry → bind space for a vertex bound wholly by each cluster (its joint's
    /// bind world times the cluster's inverse bind matrix, with its normal matrix), and for
    /// a vertex bound by none.
    Skinned(Vec<(DMat4, DMat3)>, DMat4),
    /// Bound whole to a joint: geometry → bind space.
    Rigid(JointId, DMat4),
    /// In world space.
    Static(DMat4),
}

impl Placement {
    fn matrix(&self) -> &DMat4 {
        match self {
            Placement::Skinned(_, m) | Placement::Rigid(_, m) | Placement::Static(m) => m,
        }
    }
}

/// Counts for the report.
#[derive(Default)]
struct Dropped {
    influences: usize,
    unweighted: usize,
}

/// Every mesh instance of `scene`, and the blend channels of those with shapes.
pub(crate) fn convert(
    scene: &ufbx::Scene,
    rig: &Rig,
    material_ids: &HashMap<u32, MaterialId>,
    report: &mut Report,
) -> (Vec<Mesh>, Vec<blend::Source>) {
    let mut meshes = Vec::new();
    let mut sources = Vec::new();
    let mut dropped = Dropped::default();
    for node in scene.nodes.iter() {
        let Some(mesh) = node.mesh.as_deref() else {
            continue;
        };
        let skin = mesh.skin_deformers.first().map(|s| &**s);
        let placement = match skin.filter(|s| !s.clusters.is_empty()) {
            Some(skin) => Placement::Skinned(
                skin.clusters
                    .iter()
                    .map(|cluster| {
                        let joint = cluster
                            .bone_node
                            .as_deref()
                            .and_then(|bone| rig.joint_of_node.get(&bone.element.typed_id));
                        let m = match joint {
                            Some(joint) => {
                                rig.bind_world[joint.index()] * mat(&cluster.geometry_to_bone)
                            }
                            None => mat(&node.geometry_to_world),
                        };
                        (m, normal_matrix(&m))
                    })
                    .collect(),
                mat(&node.geometry_to_world),
            ),
            None => match rig.joint_above(node) {
                Some(joint) => Placement::Rigid(
                    joint,
                    rig.bind_world[joint.index()]
                        * inverse(&rig.rest_world[joint.index()])
                        * mat(&node.geometry_to_world),
                ),
                None => Placement::Static(mat(&node.geometry_to_world)),
            },
        };
        let mut source = blend::Source::of(mesh);
        let parts: Vec<&ufbx::MeshPart> = mesh
            .material_parts
            .iter()
            .filter(|p| p.num_triangles > 0)
            .collect();
        for part in &parts {
            let material = node
                .materials
                .get(part.index as usize)
                .or_else(|| mesh.materials.get(part.index as usize))
                .and_then(|m| material_ids.get(&m.element.typed_id).copied());
            let mut name = node.element.name.to_string();
            if parts.len() > 1 {
                if let Some(m) = material {
                    let material_name = &scene.materials[m.index()].element.name;
                    name = format!("{name}_{material_name}");
                }
            }
            let mut maps = source.is_some().then(Vec::new);
            let mut built = build_part(
                mesh,
                part,
                skin,
                rig,
                &placement,
                maps.as_mut(),
                &mut dropped,
            );
            built.name = name;
            built.material = material;
            if let (Some(source), Some(maps)) = (source.as_mut(), maps) {
                built.morph_targets = blend::targets(mesh, &maps);
                source.meshes.extend(MeshId::from_index(meshes.len()));
            }
            meshes.push(built);
        }
        sources.extend(source.filter(|s| !s.meshes.is_empty()));
    }
    if dropped.influences > 0 {
        report.loss(
            codes::WEIGHTS_TRUNCATED,
            format!(
                "{} vertices had more than 4 joint influences; the 4 strongest are kept and renormalized",
                dropped.influences
            ),
        );
    }
    if dropped.unweighted > 0 {
        report.warn(
            codes::UNSKINNED_VERTICES,
            format!(
                "{} vertices of skinned meshes have no joint weights; they stay at their bind position",
                dropped.unweighted
            ),
        );
    }
    let in_betweens: Vec<String> = sources
        .iter()
        .flat_map(|s| &s.channels)
        .filter(|c| c.targets.len() > 1)
        .map(|c| c.name.clone())
        .collect();
    if !in_betweens.is_empty() {
        report.info(
            codes::FBX_IN_BETWEENS,
            format!(
                "{} blend channels have in-between shapes ({}): each shape is a morph target of its own, the channel's weight split between the two shapes around it; a weight track holds that split, keyed where the file's weight is",
                in_betweens.len(),
                in_betweens.join(", ")
            ),
        );
    }
    (meshes, sources)
}

/// One material part of one instance.
fn build_part(
    mesh: &ufbx::Mesh,
    part: &ufbx::MeshPart,
    skin: Option<&ufbx::SkinDeformer>,
    rig: &Rig,
    placement: &Placement,
    mut maps: Option<&mut Vec<(u32, DMat3, DMat3)>>,
    dropped: &mut Dropped,
) -> Mesh {
    let matrix = *placement.matrix();
    let normal_matrix = normal_matrix(&matrix);
    let flip = matrix.determinant() < 0.0;
    let mut out = Mesh::new("");
    out.has_uvs = mesh.vertex_uv.exists;
    out.has_colors = mesh.vertex_color.exists;
    let mut corners = vec![0u32; mesh.max_face_triangles.max(1) * 3];
    // Corners are one vertex when their FBX vertex and attribute values are the same (files
    // that store normals per corner repeat them). Most corners of a vertex share its values:
    // the first unified vertex of each FBX vertex is found by index, and only the other
    // values a vertex takes go through the map (random probes of a large map were half of a
    // large file's conversion). A first corner makes its vertex without the map: a key holds
    // its FBX vertex, so no earlier corner can have made it.
    let mut first: Vec<u32> = vec![u32::MAX; mesh.num_vertices];
    let mut keys: Vec<Corner> = Vec::new();
    let mut others: HashMap<Corner, u32, foldhash::fast::FixedState> =
        HashMap::with_hasher(foldhash::fast::FixedState::default());
    for &face_index in part.face_indices.iter() {
        let Some(face) = mesh.faces.get(face_index as usize).copied() else {
            continue;
        };
        if face.num_indices < 3 {
            continue;
        }
        let needed = (face.num_indices as usize - 2) * 3;
        if corners.len() < needed {
            corners.resize(needed, 0);
        }
        let triangles = ufbx::triangulate_face(&mut corners, mesh, face) as usize;
        for triangle in corners[..triangles * 3].chunks_exact(3) {
            let mut ids = [0u32; 3];
            for (slot, &corner) in ids.iter_mut().zip(triangle) {
                let corner = corner as usize;
                let key = corner_key(mesh, corner);
                let seen = first.get(key.vertex as usize).copied().unwrap_or(u32::MAX);
                if seen != u32::MAX && keys[seen as usize] == key {
                    *slot = seen;
                    continue;
                }
                let mut make = || {
                    let (v, linear, normals) = vertex(
                        mesh,
                        corner,
                        key.vertex,
                        skin,
                        rig,
                        placement,
                        &matrix,
                        &normal_matrix,
                        dropped,
                    );
                    out.vertices.push(v);
                    if let Some(maps) = maps.as_deref_mut() {
                        maps.push((key.vertex, linear, normals));
                    }
                    keys.push(key);
                    keys.len() as u32 - 1
                };
                *slot = match first.get_mut(key.vertex as usize) {
                    Some(first) if *first == u32::MAX => {
                        *first = make();
                        *first
                    }
                    _ => *others.entry(key).or_insert_with(make),
                };
            }
            if flip {
                ids.swap(1, 2);
            }
            out.triangles.push(ids);
        }
    }
    out
}

/// What makes two face corners one vertex: the FBX vertex and the bits of the corner's
/// normal, UV and colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Corner {
    vertex: u32,
    attributes: [u64; 9],
}

fn corner_key(mesh: &ufbx::Mesh, corner: usize) -> Corner {
    let mut attributes = [0u64; 9];
    let value = |indices: &ufbx::List<u32>| indices.get(corner).copied().unwrap_or(0) as usize;
    if mesh.vertex_normal.exists {
        if let Some(n) = mesh
            .vertex_normal
            .values
            .get(value(&mesh.vertex_normal.indices))
        {
            attributes[..3].copy_from_slice(&[n.x.to_bits(), n.y.to_bits(), n.z.to_bits()]);
        }
    }
    if mesh.vertex_uv.exists {
        if let Some(uv) = mesh.vertex_uv.values.get(value(&mesh.vertex_uv.indices)) {
            attributes[3..5].copy_from_slice(&[uv.x.to_bits(), uv.y.to_bits()]);
        }
    }
    if mesh.vertex_color.exists {
        if let Some(c) = mesh
            .vertex_color
            .values
            .get(value(&mesh.vertex_color.indices))
        {
            attributes[5..].copy_from_slice(&[
                c.x.to_bits(),
                c.y.to_bits(),
                c.z.to_bits(),
                c.w.to_bits(),
            ]);
        }
    }
    Corner {
        vertex: mesh.vertex_indices.get(corner).copied().unwrap_or(0),
        attributes,
    }
}

/// The unified vertex of one face corner, with the 3×3 maps that placed its position and
/// normal (what its blend-shape offsets go through).
#[allow(clippy::too_many_arguments)]
fn vertex(
    mesh: &ufbx::Mesh,
    corner: usize,
    vertex_index: u32,
    skin: Option<&ufbx::SkinDeformer>,
    rig: &Rig,
    placement: &Placement,
    matrix: &DMat4,
    normal_matrix: &DMat3,
    dropped: &mut Dropped,
) -> (Vertex, DMat3, DMat3) {
    let mut v = Vertex::default();
    let position = mesh
        .vertices
        .get(vertex_index as usize)
        .map_or(DVec3::ZERO, |p| dvec3(*p));
    let mut maps = (DMat3::from_mat4(*matrix), *normal_matrix);
    let normal = mesh
        .vertex_normal
        .exists
        .then(|| attribute3(&mesh.vertex_normal, corner));
    // A skinned vertex is placed by each of its clusters, blended by weight (they agree
    // where the file's clusters agree on where the mesh was bound).
    let mut placed = None;
    if let (Placement::Skinned(by_cluster, _), Some(skin)) = (placement, skin) {
        let bound = influences(&mut v, skin, vertex_index, rig, dropped);
        if !bound.is_empty() {
            let mut p = DVec3::ZERO;
            let mut n = DVec3::ZERO;
            maps = (DMat3::ZERO, DMat3::ZERO);
            for (cluster, weight) in bound.iter() {
                let (m, normals) = by_cluster
                    .get(cluster)
                    .map_or((matrix, normal_matrix), |(m, n)| (m, n));
                p += m.transform_point3(position) * weight;
                if let Some(normal) = normal {
                    n += *normals * normal * weight;
                }
                maps.0 += DMat3::from_mat4(*m) * weight;
                maps.1 += *normals * weight;
            }
            placed = Some((p, n.normalize_or_zero()));
        }
    }
    let (position, normal) = placed.unwrap_or_else(|| {
        (
            matrix.transform_point3(position),
            normal.map_or(DVec3::ZERO, |n| (*normal_matrix * n).normalize_or_zero()),
        )
    });
    v.position = position.as_vec3();
    v.normal = normal.as_vec3();
    if mesh.vertex_uv.exists {
        let index = mesh.vertex_uv.indices.get(corner).copied().unwrap_or(0) as usize;
        if let Some(uv) = mesh.vertex_uv.values.get(index) {
            // FBX's V runs up from the bottom; the model's from the top.
            v.uv = Vec2::new(uv.x as f32, 1.0 - uv.y as f32);
        }
    }
    if mesh.vertex_color.exists {
        let index = mesh.vertex_color.indices.get(corner).copied().unwrap_or(0) as usize;
        if let Some(c) = mesh.vertex_color.values.get(index) {
            v.color = Vec4::new(c.x as f32, c.y as f32, c.z as f32, c.w as f32);
        }
    }
    match placement {
        Placement::Rigid(joint, _) => {
            v.joints[0] = *joint;
            v.weights[0] = 1.0;
        }
        Placement::Skinned(..) | Placement::Static(_) => {}
    }
    if !v.normal.is_finite() {
        v.normal = Vec3::ZERO;
    }
    (v, maps.0, maps.1)
}

/// The matrix that carries normals along with `m`: its inverse transpose.
fn normal_matrix(m: &DMat4) -> DMat3 {
    DMat3::from_mat4(inverse(m)).transpose()
}

fn attribute3(attribute: &ufbx::VertexVec3, corner: usize) -> DVec3 {
    let index = attribute.indices.get(corner).copied().unwrap_or(0) as usize;
    attribute
        .values
        .get(index)
        .map_or(DVec3::ZERO, |v| dvec3(*v))
}

/// The four strongest joint influences of a skinned vertex, renormalized, set on `v`; returns
/// each one's cluster and weight (empty for a vertex no joint binds).
fn influences(
    v: &mut Vertex,
    skin: &ufbx::SkinDeformer,
    vertex_index: u32,
    rig: &Rig,
    dropped: &mut Dropped,
) -> Bound {
    let Some(range) = skin.vertices.get(vertex_index as usize) else {
        dropped.unweighted += 1;
        return Bound::default();
    };
    let begin = range.weight_begin as usize;
    let end = begin.saturating_add(range.num_weights as usize);
    let weights = skin.weights.get(begin..end).unwrap_or(&[]);
    // The four strongest, kept in order as they come (no allocation per vertex).
    let mut found: [(JointId, f64, usize); 4] = [(JointId(0), 0.0, 0); 4];
    let (mut kept, mut seen) = (0usize, 0usize);
    for w in weights {
        if !(w.weight.is_finite() && w.weight > 0.0) {
            continue;
        }
        let joint = skin
            .clusters
            .get(w.cluster_index as usize)
            .and_then(|cluster| cluster.bone_node.as_deref())
            .and_then(|bone| rig.joint_of_node.get(&bone.element.typed_id));
        let Some(&joint) = joint else {
            continue;
        };
        seen += 1;
        let entry = (joint, w.weight, w.cluster_index as usize);
        let mut at = kept.min(3);
        if kept == 4 && found[3].1 >= w.weight {
            continue;
        }
        while at > 0 && found[at - 1].1 < w.weight {
            found[at] = found[at - 1];
            at -= 1;
        }
        found[at] = entry;
        kept = (kept + 1).min(4);
    }
    if seen > 4 {
        dropped.influences += 1;
    }
    let found = &found[..kept];
    let total: f64 = found.iter().map(|(_, w, _)| w).sum();
    if found.is_empty() || total <= 0.0 {
        dropped.unweighted += 1;
        return Bound::default();
    }
    let mut bound = Bound::default();
    for (slot, &(joint, weight, cluster)) in found.iter().enumerate() {
        v.joints[slot] = joint;
        v.weights[slot] = (weight / total) as f32;
        bound.0[slot] = (cluster, weight / total);
        bound.1 = slot + 1;
    }
    bound
}

/// The clusters binding a vertex and their weights (at most four, the count second).
#[derive(Clone, Copy, Default)]
struct Bound([(usize, f64); 4], usize);

impl Bound {
    fn is_empty(&self) -> bool {
        self.1 == 0
    }

    fn iter(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.0[..self.1].iter().copied()
    }
}
