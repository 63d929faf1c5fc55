//! The meaning of a command list: vertex arrays, meshes with fanned triangles and their
//! smoothing state, the skeleton with its base pose, and animations split into frames.
//!
//! A [`Scene`] borrows the file: its vertex arrays and poses are the numbers stored in the
//! file's commands, looked up through one index per vertex, never copied (a copy in `f64`
//! would hold more memory than the text it came from).

use crate::command::{Attribute, FaceBase};
use crate::error::{Detail, Error};
use crate::lines::command_spans;
use crate::notes::{Notes, Place};
use crate::pose::{PoseFacts, Transform, pose_transform};
use crate::store::{CommandRef, Kind, Store, Values, attribute_param};
use rigport_model_core::{At, codes};
use std::ops::Range;
use std::sync::LazyLock;

mod build;
mod check;

use check::{check_hierarchy, vertex_array, vertex_array_of};

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
    /// The first triangle of each state of [`Scene::smoothing`]: states follow one another
    /// through the triangles (see [`Scene::smoothing_of`]).
    smoothing_starts: Vec<usize>,
    /// Whether any `fs` command appeared.
    pub has_edge_flags: bool,
    /// The `fs` flags of each triangle, in [`Scene::triangles`]' order, when any `fs`
    /// command appeared (see [`Scene::edges`]). Apart from the triangles, which most files
    /// do not flag: 4 bytes a triangle less, 6 MB on a 118 MB IQE of quads.
    edge_flags: Vec<u8>,
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
                Some(span) => with_span(self.error, span),
                None => self.error,
            },
            None => self.error,
        }
    }
}

/// `error` pointing at `span` (for errors found after reading, about a command).
fn with_span(mut error: Error, span: Range<usize>) -> Error {
    if let Error::Format { at, .. } = &mut error {
        *at = Some(At::Span(span));
    }
    error
}

/// An error about a command not yet found in the text ([`Located::locate`] finds it); until
/// then it points at the start of the input.
fn unlocated(detail: Detail) -> Error {
    Error::at(0..0, detail)
}

impl From<Located> for Error {
    fn from(located: Located) -> Error {
        located.error
    }
}

/// Whether a walk keeps what it finds (a scene to use) or only counts it (a check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// A scene to use.
    Build,
    /// Only the errors and warnings building one gives, without keeping the triangles and
    /// vertex indices (what reading a file costs in memory stays the file).
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

/// The walk of [`Scene::walk`] taken a chunk of commands at a time, in
/// file order, as the chunks are read: the same scene, warnings and error as one walk over
/// the whole file once [finished](Walk::finish).
pub(crate) struct Walk {
    builder: Builder<'static>,
    /// The warnings of the chunks walked, to follow those of reading the whole file.
    notes: Notes,
    /// The walk's error, where it stopped.
    failed: Option<Located>,
    /// The number of the next command.
    next: usize,
}

impl Walk {
    pub(crate) fn new(purpose: Purpose) -> Walk {
        Walk {
            builder: Builder::new(&NO_COMMANDS, purpose),
            notes: Notes::default(),
            failed: None,
            next: 0,
        }
    }

    /// Walks the commands of `chunk`, the next ones of the file.
    pub(crate) fn follow(&mut self, chunk: &Store) {
        if self.failed.is_none()
            && let Err(located) = self.builder.feed(chunk, self.next, &mut self.notes)
        {
            self.failed = Some(located);
        }
        self.next += chunk.len();
    }

    /// The scene of the commands walked, which `store` holds, its warnings added to
    /// `notes`; or the error one walk would have stopped at.
    pub(crate) fn finish<'f>(
        self,
        store: &'f Store,
        notes: &mut Notes,
    ) -> Result<Scene<'f>, Located> {
        if let Some(located) = self.failed {
            return Err(located);
        }
        notes.append(self.notes);
        self.builder.attach(store).finish(notes)
    }
}

impl<'f> Scene<'f> {
    /// Interprets the commands of `store` for `purpose`: a scene, or only a check that
    /// fails and warns as building one would ([`Purpose::Check`]).
    pub(crate) fn walk(
        store: &'f Store,
        purpose: Purpose,
        notes: &mut Notes,
    ) -> Result<Scene<'f>, Located> {
        Builder::new(store, purpose).run(notes)
    }

    /// Interprets the commands of `store` into a scene.
    pub(crate) fn build(store: &'f Store, notes: &mut Notes) -> Result<Scene<'f>, Located> {
        Scene::walk(store, Purpose::Build, notes)
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
            smoothing_starts,
            has_edge_flags,
            edge_flags,
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
            smoothing_starts,
            has_edge_flags,
            edge_flags,
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
            smoothing_starts: Vec::new(),
            has_edge_flags: false,
            edge_flags: Vec::new(),
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

    /// The index into [`Scene::smoothing`] of the state in force for triangle `t`. A file
    /// changes state between faces only, so the states are kept as runs of triangles (4
    /// bytes a triangle less than an index each).
    pub fn smoothing_of(&self, t: usize) -> u32 {
        let state = self.smoothing_starts.partition_point(|&start| start <= t);
        state.saturating_sub(1) as u32
    }

    /// The `fs` flags of triangle `t`: bit `k` set means the edge from corner `k` to corner
    /// `k+1` smooths (all three without `fs` flags for it).
    pub fn edges(&self, t: usize) -> u8 {
        self.edge_flags.get(t).copied().unwrap_or(0b111)
    }

    /// Number of pose commands in the file.
    pub fn pose_count(&self) -> usize {
        self.poses.len()
    }

    /// Pose `i` (in file order) as a transform, with facts for the report.
    pub fn pose_with_facts(&self, i: usize) -> Option<(Transform, PoseFacts)> {
        pose_at(self.store, self.pose_command(i)?)
    }

    /// The command holding pose `i` (in file order).
    pub(crate) fn pose_command(&self, i: usize) -> Option<usize> {
        self.poses.get(i).map(|&c| c as usize)
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

/// The pose stored in command `command` of `store`, as a transform with facts for the
/// report (`None` when that command is no pose or is not held).
pub(crate) fn pose_at(store: &Store, command: usize) -> Option<(Transform, PoseFacts)> {
    match store.get(command)? {
        CommandRef::Pose(kind, values) => {
            // Poses use at most 15 values; decoding onto the stack costs no allocation.
            let mut buffer = [0.0; 15];
            Some(pose_transform(kind, values.decode_into(&mut buffer)))
        }
        _ => None,
    }
}
