//! The meaning of a command list: vertex arrays, meshes with fanned triangles and their
//! smoothing state, the skeleton with its base pose, and animations split into frames.
//!
//! A [`Scene`] borrows the file: its vertex arrays and poses are the numbers stored in the
//! file's commands, looked up through one index per vertex, never copied (a copy in `f64`
//! would hold more memory than the text it came from).

use crate::command::{Attribute, FaceBase};
use crate::error::Error;
use crate::lines::command_spans;
use crate::notes::{Notes, Place};
use crate::pose::{PoseFacts, Transform, pose_transform};
use crate::store::{CommandRef, Kind, Store, Values, attribute_param};
use rigport_model_core::codes;
use std::ops::Range;
use std::sync::LazyLock;

/// A `vx` tangent: either with a bitangent sign or with the bitangent itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tangent {
    /// Tangent vector.
    pub tangent: [f64; 3],
    /// `sign(dot(cross(normal, tangent), bitangent))` in the 4-value form (0 when absent).
    pub sign: f64,
    /// The bitangent in the 6-value form.
    pub bitangent: Option<[f64; 3]>,
}

/// A mesh: a name, a material and a range of triangles in [`Scene::triangles`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneMesh {
    /// Name as stored (empty when the `mesh` command had none or there was no `mesh`).
    pub name: Vec<u8>,
    /// Material name as stored (empty when none was given).
    pub material: Vec<u8>,
    /// Vertices defined between this `mesh` command and the next.
    pub vertices: Range<usize>,
    /// Its triangles in [`Scene::triangles`].
    pub triangles: Range<usize>,
}

/// The smoothing parameters in force for a triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothingState {
    /// `smoothgroup` key; only triangles with the same key are smoothed (default −1).
    pub group: i64,
    /// `smoothangle` in degrees (default 180).
    pub angle: f64,
    /// `smoothuv`: corners must also share texture coordinates.
    pub uv: bool,
}

impl Default for SmoothingState {
    fn default() -> Self {
        Self {
            group: -1,
            angle: 180.0,
            uv: false,
        }
    }
}

/// One triangle after fanning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Triangle {
    /// Vertex indices in file order (IQE winds front faces clockwise).
    pub vertices: [u32; 3],
    /// Index into [`Scene::smoothing`].
    pub smoothing: u32,
    /// `fs` flags: bit `k` set means the edge from corner `k` to corner `k+1` smooths.
    pub edges: u8,
}

/// A joint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneJoint {
    /// Name as stored.
    pub name: Vec<u8>,
    /// Parent joint, `None` for a root.
    pub parent: Option<usize>,
}

/// An animation: frames of one pose per joint.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneAnimation {
    /// Name as stored; `None` when the command had none.
    pub name: Option<Vec<u8>>,
    /// `framerate`, if given.
    pub framerate: Option<f64>,
    /// `loop` was given.
    pub looping: bool,
    /// The poses of each frame (absolute local transforms, one per joint) as a range of
    /// [`Scene::pose`] numbers.
    pub frames: Vec<Range<usize>>,
}

/// The vertex arrays a scene indexes: `vp`, `vt`, `vn`, `vx`, `vc`, `v0`…`v9` (in the
/// order of [`attribute_param`]), then `vb` and `vs`.
const ARRAYS: usize = 17;
const BLEND_ARRAY: usize = 15;
const SMOOTH_INDEX_ARRAY: usize = 16;

/// Keyword of each array, for error messages.
const ARRAY_KEYWORDS: [&str; ARRAYS] = [
    "vp", "vt", "vn", "vx", "vc", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "vb",
    "vs",
];

fn array_of(attribute: Attribute) -> usize {
    usize::from(attribute_param(attribute))
}

/// One vertex array: how long it is and, for a built scene, the command holding each
/// vertex's values.
#[derive(Clone, Debug, Default, PartialEq)]
struct Column {
    len: usize,
    commands: Vec<u32>,
}

/// The store of a [detached](Scene::detach) scene.
static NO_COMMANDS: LazyLock<Store> = LazyLock::new(Store::default);

/// What an IQE file means, worked out from its commands.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene<'f> {
    store: &'f Store,
    /// Number of vertices (the length of every non-empty vertex array).
    pub vertex_count: usize,
    columns: [Column; ARRAYS],
    /// Meshes in file order.
    pub meshes: Vec<SceneMesh>,
    /// All triangles, mesh after mesh.
    pub triangles: Vec<Triangle>,
    /// Distinct smoothing states referenced by triangles.
    pub smoothing: Vec<SmoothingState>,
    /// Whether any `fs` command appeared.
    pub has_edge_flags: bool,
    /// Whether any face command appeared (else every 3 vertices of a mesh are a triangle).
    pub has_faces: bool,
    /// Joints in file order.
    pub joints: Vec<SceneJoint>,
    /// The pose commands in file order (see [`Scene::pose`]).
    poses: Vec<u32>,
    /// The poses before any `animation` (one per joint), as [`Scene::pose`] numbers.
    pub base_poses: Range<usize>,
    /// Animations in file order.
    pub animations: Vec<SceneAnimation>,
    /// Distinct non-empty material names in order of first use.
    pub materials: Vec<Vec<u8>>,
}

/// An error found while interpreting commands, with the command it is about so a reader
/// holding the text can point at its line.
pub(crate) struct Located {
    pub error: Error,
    pub command: Option<usize>,
}

impl Located {
    /// The error with the span of its command's line in `src`.
    pub fn locate(self, src: &[u8]) -> Error {
        match self.command {
            Some(i) => match command_spans(src, &[i]).pop().flatten() {
                Some(span) => self.error.with_span(span),
                None => self.error,
            },
            None => self.error,
        }
    }
}

impl From<Located> for Error {
    fn from(located: Located) -> Error {
        located.error
    }
}

/// Whether a walk keeps what it finds (a scene to use) or only counts it (a check).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Build,
    Check,
}

/// State while walking the commands.
struct Builder<'f> {
    scene: Scene<'f>,
    purpose: Purpose,
    /// Triangles made so far (kept in `scene.triangles` only when building).
    triangle_count: usize,
    material: Vec<u8>,
    mesh_start: usize,
    smoothing: SmoothingState,
    edge_flags: Vec<u8>,
    edge_flag_count: usize,
    /// The command starting each frame of each animation, for warnings.
    frame_commands: Vec<Vec<usize>>,
    /// Faces reaching past the vertices defined so far: (command, index as written,
    /// vertex it resolves to), checked once every vertex is known.
    forward: Vec<(usize, i64, usize)>,
}

impl<'f> Scene<'f> {
    /// Interprets the commands of `store` into a scene.
    pub(crate) fn build(store: &'f Store, notes: &mut Notes) -> Result<Scene<'f>, Located> {
        Builder::new(store, Purpose::Build).run(notes)
    }

    /// Checks the commands of `store` the way [`Scene::build`] would, without keeping the
    /// triangles and vertex indices (what reading a file costs in memory stays the file).
    pub(crate) fn check(store: &'f Store, notes: &mut Notes) -> Result<(), Located> {
        Builder::new(store, Purpose::Check).run(notes).map(|_| ())
    }

    /// The scene without the borrow of its commands, to be kept beside them in
    /// [`Interpreted`](crate::Interpreted) and [attached](Scene::attach) again. Moves every
    /// array; copies nothing.
    pub(crate) fn detach(self) -> Scene<'static> {
        // Listing every field (no `..`) makes a new field a compile error here.
        let Scene {
            store: _,
            vertex_count,
            columns,
            meshes,
            triangles,
            smoothing,
            has_edge_flags,
            has_faces,
            joints,
            poses,
            base_poses,
            animations,
            materials,
        } = self;
        Scene {
            store: &NO_COMMANDS,
            vertex_count,
            columns,
            meshes,
            triangles,
            smoothing,
            has_edge_flags,
            has_faces,
            joints,
            poses,
            base_poses,
            animations,
            materials,
        }
    }

    /// Moves the animations and their poses out into a detached scene of their own, with a
    /// copy of the joints, to be converted on another thread while the meshes are made from
    /// this one. This scene keeps no animation and no pose.
    pub(crate) fn take_animations(&mut self) -> Scene<'static> {
        Scene {
            joints: self.joints.clone(),
            poses: std::mem::take(&mut self.poses),
            base_poses: std::mem::take(&mut self.base_poses),
            animations: std::mem::take(&mut self.animations),
            ..Scene::empty(&NO_COMMANDS)
        }
    }

    /// A scene of nothing, reading `store`.
    fn empty(store: &'f Store) -> Scene<'f> {
        Scene {
            store,
            vertex_count: 0,
            columns: Default::default(),
            meshes: Vec::new(),
            triangles: Vec::new(),
            smoothing: Vec::new(),
            has_edge_flags: false,
            has_faces: false,
            joints: Vec::new(),
            poses: Vec::new(),
            base_poses: 0..0,
            animations: Vec::new(),
            materials: Vec::new(),
        }
    }

    /// The commands holding each animation's poses, as the range from its first to its
    /// last (base poses, which the skeleton is made from, are not in any).
    pub(crate) fn animation_commands(&self) -> Vec<Range<usize>> {
        let command = |pose: usize| self.poses.get(pose).map(|&c| c as usize);
        self.animations
            .iter()
            .filter_map(|animation| {
                let first = animation.frames.iter().find(|f| !f.is_empty())?;
                let last = animation.frames.iter().rfind(|f| !f.is_empty())?;
                Some(command(first.start)?..command(last.end - 1)? + 1)
            })
            .collect()
    }

    /// A [detached](Scene::detach) scene reading the commands it was built from again.
    pub(crate) fn attach(detached: Scene<'static>, store: &'f Store) -> Scene<'f> {
        Scene { store, ..detached }
    }

    /// Number of triangles after fanning polygons.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// Total frames over all animations.
    pub fn frame_count(&self) -> usize {
        self.animations.iter().map(|a| a.frames.len()).sum()
    }

    /// Length of an attribute's vertex array (0 when the file has none).
    pub fn array_len(&self, attribute: Attribute) -> usize {
        self.columns[array_of(attribute)].len
    }

    /// Number of `vb` lines.
    pub fn blend_count(&self) -> usize {
        self.columns[BLEND_ARRAY].len
    }

    /// Number of `vs` lines.
    pub fn smooth_index_count(&self) -> usize {
        self.columns[SMOOTH_INDEX_ARRAY].len
    }

    /// The commands holding the values of every vertex mesh `mesh` takes (its own and any
    /// its faces name), as the range from the first to the last; empty for a mesh without
    /// vertices.
    pub(crate) fn mesh_commands(&self, mesh: usize) -> Range<usize> {
        let Some(mesh) = self.meshes.get(mesh) else {
            return 0..0;
        };
        let faces = self
            .triangles
            .get(mesh.triangles.clone())
            .unwrap_or_default();
        let named = faces.iter().flat_map(|t| t.vertices).map(|v| v as usize);
        let (low, high) = mesh
            .vertices
            .clone()
            .chain(named)
            .fold((usize::MAX, 0), |(low, high), v| (low.min(v), high.max(v)));
        self.vertex_commands((low, high))
    }

    /// The commands holding the values of vertices `low..=high`, as the range from the
    /// first to the last (empty when `low > high`).
    pub(crate) fn vertex_commands(&self, (low, high): (usize, usize)) -> Range<usize> {
        if low > high {
            return 0..0;
        }
        // Vertex `v`'s value in an array is the array's `v`th command, so an array's
        // commands rise with the vertex: its lowest and highest vertices bound the rest.
        let (mut first, mut last) = (usize::MAX, 0);
        for column in &self.columns {
            let top = high.min(column.commands.len().saturating_sub(1));
            if let (Some(&a), Some(&b)) = (column.commands.get(low), column.commands.get(top)) {
                first = first.min(a as usize);
                last = last.max(b as usize + 1);
            }
        }
        first.min(last)..last
    }

    /// The stored values of vertex `v` in array `array`.
    fn values<T: crate::store::StoredValue>(
        &self,
        array: usize,
        v: usize,
    ) -> Option<Values<'f, T>> {
        let command = *self.columns[array].commands.get(v)?;
        Some(self.store.values(command as usize))
    }

    /// The values of vertex `v` of an attribute with the specification's defaults for
    /// components the line leaves out (W and alpha 1, the rest 0).
    fn attribute<const N: usize>(&self, attribute: Attribute, v: usize) -> Option<[f64; N]> {
        let values = self.values::<f64>(array_of(attribute), v)?;
        let defaults = attribute.defaults();
        Some(std::array::from_fn(|i| {
            values.get(i).unwrap_or(defaults[i.min(3)])
        }))
    }

    /// `vp` of vertex `v` with W.
    pub fn position(&self, v: usize) -> Option<[f64; 4]> {
        self.attribute(Attribute::Position, v)
    }

    /// `vt` of vertex `v`.
    pub fn texcoord(&self, v: usize) -> Option<[f64; 2]> {
        self.attribute(Attribute::TexCoord, v)
    }

    /// `vn` of vertex `v`.
    pub fn normal(&self, v: usize) -> Option<[f64; 3]> {
        self.attribute(Attribute::Normal, v)
    }

    /// `vc` of vertex `v` with alpha.
    pub fn color(&self, v: usize) -> Option<[f64; 4]> {
        self.attribute(Attribute::Color, v)
    }

    /// Custom attribute `v0`…`v9` (`n` = 0…9) of vertex `v`.
    pub fn custom(&self, n: u8, v: usize) -> Option<[f64; 4]> {
        self.attribute(Attribute::Custom(n.min(9)), v)
    }

    /// `vx` of vertex `v`.
    pub fn tangent(&self, v: usize) -> Option<Tangent> {
        let values = self.values::<f64>(array_of(Attribute::Tangent), v)?;
        let value = |i: usize| values.get(i).unwrap_or(0.0);
        let bitangent = (values.len() > 4).then(|| [value(3), value(4), value(5)]);
        Some(Tangent {
            tangent: [value(0), value(1), value(2)],
            sign: if bitangent.is_some() { 0.0 } else { value(3) },
            bitangent,
        })
    }

    /// `vb` pairs of vertex `v`, as given.
    pub fn blend(&self, v: usize) -> Option<Values<'f, (i64, f64)>> {
        self.values(BLEND_ARRAY, v)
    }

    /// `vs` of vertex `v`.
    pub fn smooth_index(&self, v: usize) -> Option<i64> {
        self.values::<i64>(SMOOTH_INDEX_ARRAY, v)?.get(0)
    }

    /// Number of pose commands in the file.
    pub fn pose_count(&self) -> usize {
        self.poses.len()
    }

    /// Pose `i` (in file order) as a transform, with facts for the report.
    pub fn pose_with_facts(&self, i: usize) -> Option<(Transform, PoseFacts)> {
        let command = *self.poses.get(i)? as usize;
        match self.store.get(command)? {
            CommandRef::Pose(kind, values) => {
                // Poses use at most 15 values; decoding onto the stack costs no allocation.
                let mut buffer = [0.0; 15];
                Some(pose_transform(kind, values.decode_into(&mut buffer)))
            }
            _ => None,
        }
    }

    /// Pose `i` (in file order) as a transform.
    pub fn pose(&self, i: usize) -> Option<Transform> {
        self.pose_with_facts(i).map(|(t, _)| t)
    }

    /// The base pose of joint `j` (the `j`th pose before any animation).
    pub fn base_pose(&self, j: usize) -> Option<Transform> {
        if j >= self.base_poses.len() {
            return None;
        }
        self.pose(self.base_poses.start + j)
    }
}

impl<'f> Builder<'f> {
    fn new(store: &'f Store, purpose: Purpose) -> Self {
        Self {
            scene: Scene::empty(store),
            purpose,
            triangle_count: 0,
            material: Vec::new(),
            mesh_start: 0,
            smoothing: SmoothingState::default(),
            edge_flags: Vec::new(),
            edge_flag_count: 0,
            frame_commands: Vec::new(),
            forward: Vec::new(),
        }
    }

    fn run(mut self, notes: &mut Notes) -> Result<Scene<'f>, Located> {
        let store = self.scene.store;
        for (i, (segment, k)) in store.positions().enumerate() {
            // Vertex lines are most of a file and need only their kind and attribute: no
            // view is built for them. `command` interprets every other command (and would
            // the vertex lines too, the same way).
            if let Some(array) = vertex_array(segment.kind(k), segment.attribute(k)) {
                self.vertex(array, i);
            } else if let Some(command) = segment.command(k) {
                self.command(command, i, notes)?;
            }
        }
        self.finish(notes)
    }

    /// Appends vertex `command` to an array.
    fn vertex(&mut self, array: usize, command: usize) {
        let column = &mut self.scene.columns[array];
        column.len += 1;
        if self.purpose == Purpose::Build {
            // Commands number below 2³² (the store's entries are counted in `u32`).
            column.commands.push(command as u32);
        }
    }

    fn positions_defined(&self) -> usize {
        self.scene.columns[array_of(Attribute::Position)].len
    }

    fn command(
        &mut self,
        command: CommandRef<'_>,
        i: usize,
        notes: &mut Notes,
    ) -> Result<(), Located> {
        let scene = &mut self.scene;
        match command {
            CommandRef::Vertex(attribute, _) => self.vertex(array_of(attribute), i),
            CommandRef::Blend(_) => self.vertex(BLEND_ARRAY, i),
            CommandRef::SmoothIndex(_) => self.vertex(SMOOTH_INDEX_ARRAY, i),
            CommandRef::Mesh(name) => {
                self.close_mesh();
                self.mesh_start = self.positions_defined();
                self.scene.meshes.push(SceneMesh {
                    name: name.unwrap_or_default().to_vec(),
                    material: self.material.clone(),
                    vertices: self.mesh_start..self.mesh_start,
                    triangles: self.triangle_count..self.triangle_count,
                });
            }
            CommandRef::Material(name) => {
                // Sticky state as in iqm.cpp: it applies to the current mesh and to every
                // later mesh that names none.
                self.material = name.unwrap_or_default().to_vec();
                if !self.material.is_empty() && !scene.materials.contains(&self.material) {
                    scene.materials.push(self.material.clone());
                }
                if let Some(mesh) = scene.meshes.last_mut() {
                    mesh.material = self.material.clone();
                }
            }
            CommandRef::Face(base, indices) => self.face(base, indices, i)?,
            CommandRef::FaceSmooth(flags) => self.face_smooth(flags, i, notes),
            CommandRef::SmoothUv(n) => self.smoothing.uv = n.unwrap_or(1) > 0,
            CommandRef::SmoothGroup(n) => self.smoothing.group = n.unwrap_or(-1),
            CommandRef::SmoothAngle(a) => {
                self.smoothing.angle = a.unwrap_or(0.0).clamp(-180.0, 180.0).abs()
            }
            CommandRef::Joint { name, parent } => scene.joints.push(SceneJoint {
                name: name.to_vec(),
                // Checked against the final joint count in `finish`.
                parent: parent.and_then(|p| usize::try_from(p).ok()),
            }),
            CommandRef::Pose(..) => {
                scene.poses.push(i as u32);
                let pose = scene.poses.len() - 1;
                match scene.animations.last_mut() {
                    None => scene.base_poses.end = scene.poses.len(),
                    Some(animation) => {
                        if animation.frames.is_empty() {
                            // Poses right after `animation` form its first frame (iqm.cpp).
                            animation.frames.push(pose..pose);
                            if let Some(f) = self.frame_commands.last_mut() {
                                f.push(i);
                            }
                        }
                        if let Some(frame) = animation.frames.last_mut() {
                            frame.end = pose + 1;
                        }
                    }
                }
            }
            CommandRef::Animation(name) => {
                scene.animations.push(SceneAnimation {
                    name: name.map(<[u8]>::to_vec),
                    framerate: None,
                    looping: false,
                    frames: Vec::new(),
                });
                self.frame_commands.push(Vec::new());
            }
            CommandRef::Loop | CommandRef::Framerate(_) | CommandRef::Frame(_) => {
                let next_pose = scene.poses.len();
                let Some(animation) = scene.animations.last_mut() else {
                    notes.warn_at(
                        codes::OUTSIDE_ANIMATION,
                        Place::Command(i),
                        "animation command before any `animation`; ignored",
                    );
                    return Ok(());
                };
                match command {
                    CommandRef::Loop => animation.looping = true,
                    CommandRef::Framerate(rate) => animation.framerate = Some(rate),
                    _ => {
                        animation.frames.push(next_pose..next_pose);
                        if let Some(f) = self.frame_commands.last_mut() {
                            f.push(i);
                        }
                    }
                }
            }
            CommandRef::Comment(_) | CommandRef::VertexArray(_) | CommandRef::Unknown(_) => {}
        }
        Ok(())
    }

    fn close_mesh(&mut self) {
        let (vertices, triangles) = (self.positions_defined(), self.triangle_count);
        if let Some(mesh) = self.scene.meshes.last_mut() {
            mesh.vertices.end = vertices;
            mesh.triangles.end = triangles;
        }
    }

    fn push_triangle(&mut self, triangle: Triangle) {
        self.triangle_count += 1;
        if self.purpose == Purpose::Build {
            self.scene.triangles.push(triangle);
        }
    }

    fn face(&mut self, base: FaceBase, indices: Values<'_, i64>, i: usize) -> Result<(), Located> {
        self.scene.has_faces = true;
        if self.scene.meshes.is_empty() {
            // Faces before any `mesh` belong to an unnamed mesh starting at vertex 0.
            self.scene.meshes.push(SceneMesh {
                name: Vec::new(),
                material: self.material.clone(),
                vertices: 0..0,
                triangles: 0..0,
            });
        }
        if indices.len() < 3 {
            return Ok(());
        }
        let defined = self.positions_defined();
        let mesh_start = self.mesh_start as i128;
        let state = self.smoothing_index();
        let mut forward = std::mem::take(&mut self.forward);
        let mut resolve = |index: i64| -> Result<u32, Located> {
            let vertex = match (index < 0, base) {
                (true, _) => defined as i128 + i128::from(index),
                (false, FaceBase::File) => i128::from(index),
                (false, FaceBase::Mesh) => mesh_start + i128::from(index),
            };
            let Ok(vertex) = u32::try_from(vertex) else {
                return Err(Located {
                    error: Error::IndexOutOfRange {
                        span: 0..0,
                        index,
                        resolved: vertex,
                        vertices: defined,
                    },
                    command: Some(i),
                });
            };
            if vertex as usize >= defined {
                forward.push((i, index, vertex as usize));
            }
            Ok(vertex)
        };
        // Fanned as (first, k, k+1), each index resolved once as it is read.
        let mut fan = || -> Result<(), Located> {
            let mut corners = indices.iter();
            let (Some(a), Some(b)) = (corners.next(), corners.next()) else {
                return Ok(());
            };
            let first = resolve(a)?;
            let mut previous = resolve(b)?;
            for c in corners {
                let next = resolve(c)?;
                self.push_triangle(Triangle {
                    vertices: [first, previous, next],
                    smoothing: state,
                    edges: 0b111,
                });
                previous = next;
            }
            Ok(())
        };
        let result = fan();
        self.forward = forward;
        result
    }

    fn smoothing_index(&mut self) -> u32 {
        let states = &mut self.scene.smoothing;
        if states.last() != Some(&self.smoothing) {
            states.push(self.smoothing);
        }
        (states.len() - 1) as u32
    }

    /// `fs` flags fan like the face they belong to: the first triangle keeps flags of edges
    /// AB and BC, later ones the polygon edge they own; diagonals inside a polygon smooth.
    fn face_smooth(&mut self, flags: Values<'_, i64>, i: usize, notes: &mut Notes) {
        self.scene.has_edge_flags = true;
        if flags.len() < 3 {
            notes.warn_at(
                codes::SHORT_FACE_SMOOTH,
                Place::Command(i),
                "`fs` needs 3 flags; ignored",
            );
            return;
        }
        let bit = |k: usize| u8::from(flags.get(k).unwrap_or(0) > 0);
        let n = flags.len();
        for t in 0..n - 2 {
            let first_edge = if t == 0 { bit(0) } else { 1 };
            let last_edge = if t == n - 3 { bit(n - 1) } else { 1 };
            self.edge_flag_count += 1;
            if self.purpose == Purpose::Build {
                self.edge_flags
                    .push(first_edge | bit(t + 1) << 1 | last_edge << 2);
            }
        }
    }

    fn finish(mut self, notes: &mut Notes) -> Result<Scene<'f>, Located> {
        self.close_mesh();
        self.check_array_lengths()?;
        let vertex_count = self.scene.vertex_count;
        if let Some(&(face, index, vertex)) = self.forward.iter().find(|f| f.2 >= vertex_count) {
            return Err(Located {
                error: Error::IndexOutOfRange {
                    span: 0..0,
                    index,
                    resolved: vertex as i128,
                    vertices: vertex_count,
                },
                command: Some(face),
            });
        }
        if !self.scene.has_faces {
            self.triangulate_vertex_runs(notes);
        }
        if self.scene.has_edge_flags {
            if self.edge_flag_count != self.triangle_count {
                notes.warn(
                    codes::FACE_SMOOTH_COUNT,
                    None,
                    format!(
                        "`fs` flags cover {} triangles, the faces make {}; the rest smooth on every edge",
                        self.edge_flag_count, self.triangle_count
                    ),
                );
            }
            for (t, flags) in self.scene.triangles.iter_mut().zip(&self.edge_flags) {
                t.edges = *flags;
            }
        }
        check_hierarchy(self.scene.store, &self.scene.joints)?;
        self.check_pose_counts(notes);
        Ok(self.scene)
    }

    fn check_array_lengths(&mut self) -> Result<(), Located> {
        let scene = &mut self.scene;
        let lengths: Vec<(usize, usize)> = scene
            .columns
            .iter()
            .enumerate()
            .map(|(array, column)| (array, column.len))
            .collect();
        let (longer, longer_len) = lengths
            .iter()
            .copied()
            .max_by_key(|&(_, len)| len)
            .unwrap_or((0, 0));
        scene.vertex_count = longer_len;
        let Some(&(shorter, shorter_len)) = lengths
            .iter()
            .find(|&&(_, len)| len > 0 && len < longer_len)
        else {
            return Ok(());
        };
        // Point at the command that defined the first vertex the shorter array lacks.
        let at = (0..scene.store.len())
            .filter(|&i| vertex_array_of(scene.store, i) == Some(longer))
            .nth(shorter_len);
        Err(Located {
            error: Error::ArrayLength {
                span: 0..0,
                vertex: shorter_len,
                longer: ARRAY_KEYWORDS[longer],
                shorter: ARRAY_KEYWORDS[shorter],
                longer_len,
                shorter_len,
            },
            command: at,
        })
    }

    fn check_pose_counts(&self, notes: &mut Notes) {
        let joints = self.scene.joints.len();
        if joints == 0 {
            return; // an animation-only file: its poses fit a skeleton from elsewhere
        }
        let base = self.scene.base_poses.len();
        if base != joints {
            let first_joint = self.scene.store.kinds().position(|k| k == Kind::Joint);
            notes.warn_at(
                codes::BASE_POSE_COUNT,
                first_joint.map_or(Place::Nowhere, Place::Command),
                format!(
                    "{joints} joints but {base} base poses; joints without one get the identity"
                ),
            );
        }
        // One warning for all such frames: a file of empty `frame` lines must not make a
        // message per line (that alone grew the report to many times the input).
        let mut mismatched = 0usize;
        let mut first = None;
        for (animation, frame_commands) in self.scene.animations.iter().zip(&self.frame_commands) {
            for (frame, &command) in animation.frames.iter().zip(frame_commands) {
                if frame.len() != joints {
                    mismatched += 1;
                    first.get_or_insert((command, frame.len()));
                }
            }
        }
        if let Some((command, poses)) = first {
            notes.warn_at(
                codes::FRAME_POSE_COUNT,
                Place::Command(command),
                format!(
                    "{mismatched} frames do not hold one pose per joint (this one has {poses} poses, the skeleton {joints} joints); missing joints keep no key, extra poses are ignored"
                ),
            );
        }
    }

    /// With no face command anywhere, every 3 vertices of a mesh form a triangle.
    fn triangulate_vertex_runs(&mut self, notes: &mut Notes) {
        let scene = &mut self.scene;
        if scene.meshes.first().is_some_and(|m| m.vertices.start > 0)
            || (scene.meshes.is_empty() && scene.vertex_count > 0)
        {
            let end = scene
                .meshes
                .first()
                .map_or(scene.vertex_count, |m| m.vertices.start);
            scene.meshes.insert(
                0,
                SceneMesh {
                    name: Vec::new(),
                    material: Vec::new(),
                    vertices: 0..end,
                    triangles: 0..0,
                },
            );
        }
        let state = if scene.smoothing.is_empty() {
            scene.smoothing.push(SmoothingState::default());
            0
        } else {
            scene.smoothing.len() - 1
        };
        let mut meshes = std::mem::take(&mut self.scene.meshes);
        for mesh in &mut meshes {
            let start = self.triangle_count;
            let count = mesh.vertices.len();
            if count % 3 != 0 {
                notes.warn(
                    codes::VERTEX_RUN,
                    None,
                    format!(
                        "mesh has {count} vertices and no faces; the last {} make no triangle",
                        count % 3
                    ),
                );
            }
            for first in (mesh.vertices.start..mesh.vertices.end.saturating_sub(2)).step_by(3) {
                let first = first as u32;
                self.push_triangle(Triangle {
                    vertices: [first, first + 1, first + 2],
                    smoothing: state as u32,
                    edges: 0b111,
                });
            }
            mesh.triangles = start..self.triangle_count;
        }
        self.scene.meshes = meshes;
    }
}

/// The vertex array command `i` appends to, read from its kind and attribute alone.
fn vertex_array_of(store: &Store, i: usize) -> Option<usize> {
    vertex_array(store.kind(i), store.attribute(i))
}

/// The vertex array of a command of this kind and attribute, if it is a vertex line.
fn vertex_array(kind: Option<Kind>, attribute: Option<Attribute>) -> Option<usize> {
    match kind? {
        Kind::Vertex => attribute.map(array_of),
        Kind::Blend => Some(BLEND_ARRAY),
        Kind::SmoothIndex => Some(SMOOTH_INDEX_ARRAY),
        _ => None,
    }
}

/// Parents must exist and the hierarchy must not loop.
fn check_hierarchy(store: &Store, joints: &[SceneJoint]) -> Result<(), Located> {
    let joint_commands: Vec<usize> = store
        .kinds()
        .enumerate()
        .filter(|&(_, k)| k == Kind::Joint)
        .map(|(i, _)| i)
        .collect();
    let located = |j: usize, problem: String| Located {
        error: Error::Hierarchy {
            span: None,
            joint: j,
            problem,
        },
        command: joint_commands.get(j).copied(),
    };
    for (j, joint) in joints.iter().enumerate() {
        if let Some(p) = joint.parent
            && p >= joints.len()
        {
            return Err(located(
                j,
                format!("parent index {p} is out of range ({} joints)", joints.len()),
            ));
        }
    }
    // 0 = unseen, 1 = on the current walk, 2 = known to reach a root.
    let mut state = vec![0u8; joints.len()];
    for start in 0..joints.len() {
        let mut walk = Vec::new();
        let mut at = Some(start);
        while let Some(j) = at {
            match state[j] {
                2 => break,
                1 => {
                    return Err(located(
                        j,
                        "the parent chain loops back to this joint".into(),
                    ));
                }
                _ => {
                    state[j] = 1;
                    walk.push(j);
                    at = joints[j].parent;
                }
            }
        }
        for j in walk {
            state[j] = 2;
        }
    }
    Ok(())
}
