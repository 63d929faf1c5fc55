//! The model's meshes from a scene: a model vertex per file vertex and normal, the skin
//! reduced to four influences.

use crate::command::Attribute;
use crate::normals::CornerNormals;
use crate::scene::Scene;
use rigport_model_core::glam::{DVec3, Vec2, Vec3, Vec4};
use rigport_model_core::text::decode_name;
use rigport_model_core::{JointId, MaterialId, Mesh, Vertex};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Mutex, OnceLock, PoisonError};

/// Counts from the vertex conversion for the report.
#[derive(Debug, Default, PartialEq)]
pub(super) struct SkinCounts {
    pub truncated: usize,
    pub bad_joint: usize,
    pub renormalized: usize,
    pub outside: usize,
    pub w_not_one: usize,
}

/// Makes the model's meshes one scene mesh at a time, with the counts the report needs.
///
/// A file vertex becomes one model vertex per mesh that uses it and per normal it takes
/// there; the vertices of a mesh that no triangle uses are kept too. A mesh is made by
/// [`begin`](MeshBuilder::begin), [`triangles`](MeshBuilder::triangles) over its triangles
/// in order (in as many pieces as the caller likes) and [`end`](MeshBuilder::end).
pub(super) struct MeshBuilder {
    meshes: Vec<Mesh>,
    /// The mesh being made.
    current: Mesh,
    /// Model vertices made ahead for file vertices of the current mesh that no triangle
    /// names, in vertex order ([`MeshBuilder::set_aside`]).
    aside: Vec<(usize, Vertex)>,
    counts: SkinCounts,
    /// Whether each file vertex went into some mesh.
    placed: Vec<bool>,
    local: LocalVertices,
    has_uvs: bool,
    has_colors: bool,
    /// How many `vn` the file holds.
    stored: usize,
}

impl MeshBuilder {
    pub fn new(scene: &Scene<'_>) -> Self {
        MeshBuilder {
            meshes: Vec::with_capacity(scene.meshes.len()),
            current: Mesh::default(),
            aside: Vec::new(),
            counts: SkinCounts::default(),
            placed: vec![false; scene.vertex_count],
            local: LocalVertices::new(scene.vertex_count),
            has_uvs: scene.array_len(Attribute::TexCoord) > 0,
            has_colors: scene.array_len(Attribute::Color) > 0,
            stored: scene.array_len(Attribute::Normal),
        }
    }

    /// Every mesh of `scene`, with the normals `normals` makes, shared out with `beside`,
    /// the other work of a conversion: with the `parallel` feature that runs on another
    /// thread, which then makes meshes from the end of the list while this one makes them
    /// from the start (the same meshes and counts as on one thread).
    ///
    /// A mesh whose triangles name only its own vertices is made without looking at any
    /// other mesh; a file where some triangle names another mesh's vertex (where the
    /// vertices a mesh keeps unused depend on the meshes before it) is made on this thread
    /// alone.
    pub fn all_beside<B: Send>(
        scene: &Scene<'_>,
        normals: impl FnOnce() -> CornerNormals + Send,
        beside: impl FnOnce() -> B + Send,
    ) -> (CornerNormals, Vec<Mesh>, SkinCounts, B) {
        let made = OnceLock::new();
        let left = Mutex::new(0..scene.meshes.len());
        let (front, (back, other)) = super::to_model::join(
            || {
                let normals = made.get_or_init(normals);
                MeshBuilder::take(scene, normals, &left, End::Front)
            },
            || {
                let other = beside();
                // Normals still being made: the meshes are left to the first thread. The
                // check over every triangle is made here, off the first thread's way.
                let back = made
                    .get()
                    .filter(|_| scene.meshes.len() > 1 && own_vertices_only(scene))
                    .map(|normals| MeshBuilder::take(scene, normals, &left, End::Back));
                (back, other)
            },
        );
        let (meshes, counts) = match back {
            Some(back) => front.followed_by(back).finish(),
            None => front.finish(),
        };
        (made.into_inner().unwrap_or_default(), meshes, counts, other)
    }

    /// A builder that made the meshes it took from `left`, one at a time from `end`, until
    /// none were left.
    fn take(
        scene: &Scene<'_>,
        normals: &CornerNormals,
        left: &Mutex<Range<usize>>,
        end: End,
    ) -> MeshBuilder {
        let mut builder = MeshBuilder::new(scene);
        let next = || {
            let mut left = left.lock().unwrap_or_else(PoisonError::into_inner);
            match end {
                End::Front => left.next(),
                End::Back => left.next_back(),
            }
        };
        while let Some(index) = next() {
            let Some(mesh) = scene.meshes.get(index) else {
                continue;
            };
            builder.begin(scene, index);
            builder.triangles(scene, mesh.triangles.clone(), normals);
            builder.end(scene, index, normals);
        }
        builder
    }

    /// This builder's meshes (the first ones, in order) followed by those of `back`, which
    /// made the last ones from the last: the two as one builder.
    fn followed_by(mut self, back: MeshBuilder) -> MeshBuilder {
        self.meshes.extend(back.meshes.into_iter().rev());
        for (placed, other) in self.placed.iter_mut().zip(back.placed) {
            *placed |= other;
        }
        // `outside` is counted from `placed` at the end.
        let SkinCounts {
            truncated,
            bad_joint,
            renormalized,
            outside: _,
            w_not_one,
        } = back.counts;
        let counts = &mut self.counts;
        counts.truncated += truncated;
        counts.bad_joint += bad_joint;
        counts.renormalized += renormalized;
        counts.w_not_one += w_not_one;
        self
    }

    /// Starts scene mesh `index` (the next one).
    pub fn begin(&mut self, scene: &Scene<'_>, index: usize) {
        let Some(mesh) = scene.meshes.get(index) else {
            return;
        };
        let mut out = Mesh::new(decode_name(&mesh.name));
        out.material = scene
            .materials
            .iter()
            .position(|m| *m == mesh.material)
            .and_then(MaterialId::from_index);
        out.has_uvs = self.has_uvs;
        out.has_colors = self.has_colors;
        out.vertices.reserve(mesh.vertices.len());
        out.triangles.reserve(mesh.triangles.len());
        self.current = out;
    }

    /// Adds scene triangles `range` (of the mesh begun) with their vertices.
    pub fn triangles(&mut self, scene: &Scene<'_>, range: Range<usize>, normals: &CornerNormals) {
        let mut maker = self.maker(scene, normals);
        for t in range {
            let (Some(triangle), Some(corner)) =
                (scene.triangles.get(t), normals.corner_indices(scene, t))
            else {
                continue;
            };
            let [a, b, c] = [0, 1, 2].map(|k| {
                maker.placed[triangle.vertices[k] as usize] = true;
                maker.vertex(triangle.vertices[k], corner[k])
            });
            // IQE fronts wind clockwise; the model (glTF) wants counter-clockwise.
            maker.out.triangles.push([a, c, b]);
        }
    }

    /// Makes now the model vertices of `vertices` (rising), file vertices of the mesh
    /// begun that no triangle of it or of an earlier mesh names, for [`MeshBuilder::end`]
    /// to add: their commands need not be kept while the triangles are made.
    pub fn set_aside(
        &mut self,
        scene: &Scene<'_>,
        vertices: impl Iterator<Item = usize>,
        normals: &CornerNormals,
    ) {
        let own = self.stored > 0;
        let mut aside = std::mem::take(&mut self.aside);
        let mut maker = self.maker(scene, normals);
        aside.extend(vertices.map(|v| {
            let normal = if own { v as u32 } else { NO_NORMAL };
            (v, maker.making.vertex(v as u32, normal))
        }));
        self.aside = aside;
    }

    /// Ends scene mesh `index`: adds the vertices of its range no triangle has used (with
    /// their stored normal, if any), those [set aside](MeshBuilder::set_aside) included.
    pub fn end(&mut self, scene: &Scene<'_>, index: usize, normals: &CornerNormals) {
        let mut aside = std::mem::take(&mut self.aside).into_iter().peekable();
        if let Some(mesh) = scene.meshes.get(index) {
            let own = self.stored > 0;
            let mut maker = self.maker(scene, normals);
            for v in mesh.vertices.clone() {
                if !maker.placed[v] {
                    maker.placed[v] = true;
                    let normal = if own { v as u32 } else { NO_NORMAL };
                    match aside.next_if(|(at, _)| *at == v) {
                        Some((_, made)) => maker.push(v as u32, normal, made),
                        None => maker.vertex(v as u32, normal),
                    };
                }
            }
        }
        self.local.clear();
        self.meshes.push(std::mem::take(&mut self.current));
    }

    /// The meshes made, and the counts (with the vertices no mesh took).
    pub fn finish(mut self) -> (Vec<Mesh>, SkinCounts) {
        self.counts.outside = self.placed.iter().filter(|p| !**p).count();
        (self.meshes, self.counts)
    }

    fn maker<'b, 'f>(
        &'b mut self,
        scene: &'b Scene<'f>,
        normals: &'b CornerNormals,
    ) -> VertexMaker<'b, 'f> {
        VertexMaker {
            making: Making {
                scene,
                normals,
                stored: self.stored,
                counts: &mut self.counts,
                last_skin: None,
            },
            out: &mut self.current,
            placed: &mut self.placed,
            local: &mut self.local,
        }
    }
}

/// Which end of the list of meshes a thread takes them from.
#[derive(Clone, Copy)]
enum End {
    Front,
    Back,
}

/// Whether every triangle of every mesh names only vertices of its own mesh.
fn own_vertices_only(scene: &Scene<'_>) -> bool {
    scene.meshes.iter().all(|mesh| {
        let own = &mesh.vertices;
        scene
            .triangles
            .get(mesh.triangles.clone())
            .unwrap_or_default()
            .iter()
            .all(|t| t.vertices.iter().all(|&v| own.contains(&(v as usize))))
    })
}

/// Adds the model vertices of one run of the current mesh.
struct VertexMaker<'b, 'f> {
    making: Making<'b, 'f>,
    out: &'b mut Mesh,
    placed: &'b mut Vec<bool>,
    local: &'b mut LocalVertices,
}

impl VertexMaker<'_, '_> {
    /// The model vertex of file vertex `vertex` with normal `normal`, made the first time.
    fn vertex(&mut self, vertex: u32, normal: u32) -> u32 {
        let VertexMaker {
            making, out, local, ..
        } = self;
        local.get_or_add(vertex, normal, || add(out, making.vertex(vertex, normal)))
    }

    /// Adds `made`, the model vertex of (`vertex`, `normal`), to the mesh.
    fn push(&mut self, vertex: u32, normal: u32, made: Vertex) -> u32 {
        let out = &mut *self.out;
        self.local.get_or_add(vertex, normal, || add(out, made))
    }
}

/// Appends `vertex` to `mesh`; its index.
fn add(mesh: &mut Mesh, vertex: Vertex) -> u32 {
    mesh.vertices.push(vertex);
    (mesh.vertices.len() - 1) as u32
}

/// Makes model vertices from the scene, counting what the report needs.
struct Making<'b, 'f> {
    scene: &'b Scene<'f>,
    normals: &'b CornerNormals,
    /// How many `vn` the file holds.
    stored: usize,
    counts: &'b mut SkinCounts,
    last_skin: LastSkin<'f>,
}

impl Making<'_, '_> {
    /// The model vertex of file vertex `vertex` with normal `normal` (of the generated
    /// ones, or a stored `vn` when fewer than `stored`).
    fn vertex(&mut self, vertex: u32, normal: u32) -> Vertex {
        let scene = self.scene;
        let n = if self.normals.generated {
            self.normals.normals.get(normal as usize).copied()
        } else {
            // As `corner_normals` gives them: the vertex's own `vn`, 0 past them.
            ((normal as usize) < self.stored).then(|| {
                DVec3::from_array(scene.normal(normal as usize).unwrap_or_default()).as_vec3()
            })
        }
        .unwrap_or(Vec3::ZERO);
        make_vertex(scene, vertex as usize, n, self.counts, &mut self.last_skin)
    }
}

/// Normal index of a vertex that has none.
const NO_NORMAL: u32 = u32::MAX;

/// The model vertex made for each (file vertex, normal) pair of the current mesh.
///
/// Almost every file vertex has one normal, so the first pair of each vertex lives in two
/// flat arrays indexed by vertex (no hashing per corner); only a vertex that takes a second
/// normal (generated normals split at hard edges) goes to a map.
struct LocalVertices {
    first: Vec<u32>,
    first_normal: Vec<u32>,
    touched: Vec<u32>,
    more: HashMap<(u32, u32), u32>,
}

impl LocalVertices {
    const NONE: u32 = u32::MAX;

    fn new(vertices: usize) -> Self {
        Self {
            first: vec![Self::NONE; vertices],
            first_normal: vec![0; vertices],
            touched: Vec::new(),
            more: HashMap::new(),
        }
    }

    /// The model vertex of `(vertex, normal)`, made by `add` the first time.
    fn get_or_add(&mut self, vertex: u32, normal: u32, add: impl FnOnce() -> u32) -> u32 {
        let v = vertex as usize;
        match self.first.get(v) {
            Some(&Self::NONE) => {
                let index = add();
                self.first[v] = index;
                self.first_normal[v] = normal;
                self.touched.push(vertex);
                index
            }
            Some(&index) if self.first_normal[v] == normal => index,
            _ => *self.more.entry((vertex, normal)).or_insert_with(add),
        }
    }

    /// Forgets the mesh (only the vertices it touched are reset).
    fn clear(&mut self) {
        for &v in &self.touched {
            self.first[v as usize] = Self::NONE;
        }
        self.touched.clear();
        self.more.clear();
    }
}

/// The skin of the last `vb` line made into joints and weights: its numbers as stored, the
/// joints and weights, and the counts `truncated`, `bad_joint` and `renormalized` it added.
/// Neighbouring vertices usually share their skin.
type LastSkin<'f> = Option<(
    crate::store::Values<'f, (i64, f64)>,
    [JointId; 4],
    [f32; 4],
    [usize; 3],
)>;

fn make_vertex<'f>(
    scene: &Scene<'f>,
    v: usize,
    normal: Vec3,
    counts: &mut SkinCounts,
    last_skin: &mut LastSkin<'f>,
) -> Vertex {
    let p = scene.position(v).unwrap_or([0.0, 0.0, 0.0, 1.0]);
    counts.w_not_one += usize::from(p[3] != 1.0);
    let mut vertex = Vertex {
        position: Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32),
        normal,
        ..Vertex::default()
    };
    if let Some(uv) = scene.texcoord(v) {
        vertex.uv = Vec2::new(uv[0] as f32, uv[1] as f32);
    }
    if let Some(c) = scene.color(v) {
        vertex.color = Vec4::new(c[0] as f32, c[1] as f32, c[2] as f32, c[3] as f32);
    }
    if let Some(pairs) = scene.blend(v) {
        let (joints, weights, counted) = match *last_skin {
            Some((last, joints, weights, counted)) if last.same_as(&pairs) => {
                (joints, weights, counted)
            }
            _ => {
                let (joints, weights, counted) = skin(scene, pairs);
                *last_skin = Some((pairs, joints, weights, counted));
                (joints, weights, counted)
            }
        };
        vertex.joints = joints;
        vertex.weights = weights;
        counts.truncated += counted[0];
        counts.bad_joint += counted[1];
        counts.renormalized += counted[2];
    }
    vertex
}

/// The four strongest valid influences of a `vb` line, normalized, and what they count:
/// `[truncated, bad_joint, renormalized]`.
fn skin(
    scene: &Scene<'_>,
    pairs: crate::store::Values<'_, (i64, f64)>,
) -> ([JointId; 4], [f32; 4], [usize; 3]) {
    let mut joints_out = [JointId(0); 4];
    let mut weights_out = [0.0f32; 4];
    let mut counted = [0usize; 3];
    let joints = scene.joints.len();
    let mut kept = Strongest::default();
    for (index, weight) in pairs.iter() {
        match u32::try_from(index) {
            Ok(j) if (j as usize) < joints && weight > 0.0 => kept.offer(j, weight),
            _ if weight > 0.0 => counted[1] += 1,
            _ => {}
        }
    }
    counted[0] = usize::from(kept.offered > 4);
    let kept = kept.as_slice();
    let total: f64 = kept.iter().map(|p| p.1).sum();
    if total > 0.0 {
        counted[2] = usize::from((total - 1.0).abs() > 1e-3);
        for (slot, (j, w)) in kept.iter().enumerate() {
            joints_out[slot] = JointId(*j);
            weights_out[slot] = (w / total) as f32;
        }
    }
    (joints_out, weights_out, counted)
}

/// The four largest weights offered, largest first, earlier ones first among equals — what
/// a stable sort by descending weight then keeping 4 gives, without a vector per vertex.
#[derive(Default)]
struct Strongest {
    pairs: [(u32, f64); 4],
    len: usize,
    offered: usize,
}

impl Strongest {
    fn offer(&mut self, joint: u32, weight: f64) {
        self.offered += 1;
        // After every kept pair at least as heavy (stable among equal weights).
        let at = self.pairs[..self.len]
            .iter()
            .position(|p| p.1.total_cmp(&weight).is_lt())
            .unwrap_or(self.len);
        if at == 4 {
            return;
        }
        let end = self.len.min(3);
        self.pairs.copy_within(at..end, at + 1);
        self.pairs[at] = (joint, weight);
        self.len = (self.len + 1).min(4);
    }

    fn as_slice(&self) -> &[(u32, f64)] {
        &self.pairs[..self.len]
    }
}

#[cfg(test)]
mod tests;
