//! The meaning of a command list: vertex arrays, meshes with fanned triangles and their
//! smoothing state, the skeleton with its base pose, and animations split into frames.

use crate::command::{Attribute, Command, FaceBase};
use crate::error::Error;
use crate::notes::Notes;
use crate::pose::{Transform, pose_transform};
use rigport_model_core::diagnostic::Span;
use std::ops::Range;

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
    pub vertices: [usize; 3],
    /// Index into [`Scene::smoothing`].
    pub smoothing: usize,
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
    /// Poses of each frame (absolute local transforms, one per joint).
    pub frames: Vec<Vec<Transform>>,
}

/// What an IQE file means, worked out from its commands.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// Number of vertices (the length of every non-empty vertex array).
    pub vertex_count: usize,
    /// `vp` with W (defaults applied).
    pub positions: Vec<[f64; 4]>,
    /// `vt`.
    pub texcoords: Vec<[f64; 2]>,
    /// `vn`.
    pub normals: Vec<[f64; 3]>,
    /// `vx`.
    pub tangents: Vec<Tangent>,
    /// `vc` with alpha (defaults applied).
    pub colors: Vec<[f64; 4]>,
    /// `vb` pairs as given.
    pub blends: Vec<Vec<(i64, f64)>>,
    /// `v0`…`v9`.
    pub customs: [Vec<[f64; 4]>; 10],
    /// `vs`.
    pub smooth_indexes: Vec<i64>,
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
    /// Poses before any `animation` (one per joint).
    pub base_poses: Vec<Transform>,
    /// Animations in file order.
    pub animations: Vec<SceneAnimation>,
    /// Distinct non-empty material names in order of first use.
    pub materials: Vec<Vec<u8>>,
    /// Poses whose quaternion or matrix had to be normalized.
    pub normalized_poses: usize,
}

/// Commands' spans, when they came from a file (errors then point at lines).
pub(crate) type Spans<'a> = Option<&'a [Span]>;

fn span_of(spans: Spans<'_>, i: usize) -> Option<Span> {
    spans.and_then(|s| s.get(i).cloned())
}

/// State while walking the commands.
#[derive(Default)]
struct Builder {
    scene: Scene,
    material: Vec<u8>,
    mesh_start: usize,
    smoothing: SmoothingState,
    edge_flags: Vec<u8>,
    frame_spans: Vec<Vec<Option<Span>>>,
    /// Faces reaching past the vertices defined so far: (command, index as written,
    /// vertex it resolves to), checked once every vertex is known.
    forward: Vec<(usize, i64, usize)>,
}

impl Scene {
    /// Interprets commands; errors name the span of the command at fault when `spans` is
    /// given (one per command).
    pub(crate) fn build(
        commands: &[Command],
        spans: Spans<'_>,
        notes: &mut Notes,
    ) -> Result<Scene, Error> {
        let mut b = Builder::default();
        for (i, command) in commands.iter().enumerate() {
            b.command(command, i, spans, notes)?;
        }
        b.finish(commands, spans, notes)
    }

    /// Number of triangles after fanning polygons.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// Total frames over all animations.
    pub fn frame_count(&self) -> usize {
        self.animations.iter().map(|a| a.frames.len()).sum()
    }
}

impl Builder {
    fn command(
        &mut self,
        command: &Command,
        i: usize,
        spans: Spans<'_>,
        notes: &mut Notes,
    ) -> Result<(), Error> {
        let scene = &mut self.scene;
        match command {
            Command::Vertex(attribute, values) => self.attribute(*attribute, values),
            Command::Blend(pairs) => scene.blends.push(pairs.clone()),
            Command::SmoothIndex(n) => scene.smooth_indexes.push(*n),
            Command::Mesh(name) => {
                self.close_mesh();
                self.mesh_start = self.scene.positions.len();
                self.scene.meshes.push(SceneMesh {
                    name: name.clone().unwrap_or_default(),
                    material: self.material.clone(),
                    vertices: self.mesh_start..self.mesh_start,
                    triangles: self.scene.triangles.len()..self.scene.triangles.len(),
                });
            }
            Command::Material(name) => {
                // Sticky state as in iqm.cpp: it applies to the current mesh and to every
                // later mesh that names none.
                self.material = name.clone().unwrap_or_default();
                if !self.material.is_empty() && !scene.materials.contains(&self.material) {
                    scene.materials.push(self.material.clone());
                }
                if let Some(mesh) = scene.meshes.last_mut() {
                    mesh.material = self.material.clone();
                }
            }
            Command::Face(base, indices) => self.face(*base, indices, i, spans)?,
            Command::FaceSmooth(flags) => self.face_smooth(flags, i, spans, notes),
            Command::SmoothUv(n) => self.smoothing.uv = n.unwrap_or(1) > 0,
            Command::SmoothGroup(n) => self.smoothing.group = n.unwrap_or(-1),
            Command::SmoothAngle(a) => {
                self.smoothing.angle = a.unwrap_or(0.0).clamp(-180.0, 180.0).abs()
            }
            Command::Joint { name, parent } => scene.joints.push(SceneJoint {
                name: name.clone(),
                // Checked against the final joint count in `finish`.
                parent: parent.and_then(|p| usize::try_from(p).ok()),
            }),
            Command::Pose(kind, values) => {
                let (transform, facts) = pose_transform(*kind, values);
                scene.normalized_poses += usize::from(facts.normalized);
                match scene.animations.last_mut() {
                    None => scene.base_poses.push(transform),
                    Some(animation) => {
                        let frame_spans = self.frame_spans.last_mut();
                        if animation.frames.is_empty() {
                            // Poses right after `animation` form its first frame (iqm.cpp).
                            animation.frames.push(Vec::new());
                            if let Some(f) = frame_spans {
                                f.push(span_of(spans, i));
                            }
                        }
                        if let Some(frame) = animation.frames.last_mut() {
                            frame.push(transform);
                        }
                    }
                }
            }
            Command::Animation(name) => {
                scene.animations.push(SceneAnimation {
                    name: name.clone(),
                    framerate: None,
                    looping: false,
                    frames: Vec::new(),
                });
                self.frame_spans.push(Vec::new());
            }
            Command::Loop | Command::Framerate(_) | Command::Frame(_) => {
                let Some(animation) = scene.animations.last_mut() else {
                    notes.warn(
                        "outside-animation",
                        span_of(spans, i),
                        "animation command before any `animation`; ignored",
                    );
                    return Ok(());
                };
                match command {
                    Command::Loop => animation.looping = true,
                    Command::Framerate(rate) => animation.framerate = Some(*rate),
                    _ => {
                        animation.frames.push(Vec::new());
                        if let Some(f) = self.frame_spans.last_mut() {
                            f.push(span_of(spans, i));
                        }
                    }
                }
            }
            Command::Comment(_) | Command::VertexArray(_) | Command::Unknown(_) => {}
        }
        Ok(())
    }

    fn attribute(&mut self, attribute: Attribute, values: &[f64]) {
        let defaults = attribute.defaults();
        let v = |i: usize| values.get(i).copied().unwrap_or(defaults[i.min(3)]);
        let scene = &mut self.scene;
        match attribute {
            Attribute::Position => scene.positions.push([v(0), v(1), v(2), v(3)]),
            Attribute::TexCoord => scene.texcoords.push([v(0), v(1)]),
            Attribute::Normal => scene.normals.push([v(0), v(1), v(2)]),
            Attribute::Color => scene.colors.push([v(0), v(1), v(2), v(3)]),
            Attribute::Custom(n) => {
                scene.customs[usize::from(n.min(9))].push([v(0), v(1), v(2), v(3)])
            }
            Attribute::Tangent => {
                let bitangent =
                    (values.len() > 4).then(|| [v(3), v(4), values.get(5).copied().unwrap_or(0.0)]);
                scene.tangents.push(Tangent {
                    tangent: [v(0), v(1), v(2)],
                    sign: if bitangent.is_some() { 0.0 } else { v(3) },
                    bitangent,
                });
            }
        }
    }

    fn close_mesh(&mut self) {
        let (vertices, triangles) = (self.scene.positions.len(), self.scene.triangles.len());
        if let Some(mesh) = self.scene.meshes.last_mut() {
            mesh.vertices.end = vertices;
            mesh.triangles.end = triangles;
        }
    }

    fn face(
        &mut self,
        base: FaceBase,
        indices: &[i64],
        i: usize,
        spans: Spans<'_>,
    ) -> Result<(), Error> {
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
        let defined = self.scene.positions.len();
        let mesh_start = self.mesh_start as i128;
        let mut resolved = Vec::with_capacity(indices.len());
        for &index in indices {
            let vertex = match (index < 0, base) {
                (true, _) => defined as i128 + i128::from(index),
                (false, FaceBase::File) => i128::from(index),
                (false, FaceBase::Mesh) => mesh_start + i128::from(index),
            };
            let Ok(vertex) = usize::try_from(vertex) else {
                return Err(Error::IndexOutOfRange {
                    span: span_of(spans, i).unwrap_or(0..0),
                    index,
                    resolved: vertex,
                    vertices: defined,
                });
            };
            if vertex >= defined {
                self.forward.push((i, index, vertex));
            }
            resolved.push(vertex);
        }
        let state = self.smoothing_index();
        for pair in resolved[1..].windows(2) {
            self.scene.triangles.push(Triangle {
                vertices: [resolved[0], pair[0], pair[1]],
                smoothing: state,
                edges: 0b111,
            });
        }
        Ok(())
    }

    fn smoothing_index(&mut self) -> usize {
        let states = &mut self.scene.smoothing;
        if states.last() != Some(&self.smoothing) {
            states.push(self.smoothing);
        }
        states.len() - 1
    }

    /// `fs` flags fan like the face they belong to: the first triangle keeps flags of edges
    /// AB and BC, later ones the polygon edge they own; diagonals inside a polygon smooth.
    fn face_smooth(&mut self, flags: &[i64], i: usize, spans: Spans<'_>, notes: &mut Notes) {
        self.scene.has_edge_flags = true;
        if flags.len() < 3 {
            notes.warn(
                "short-face-smooth",
                span_of(spans, i),
                "`fs` needs 3 flags; ignored",
            );
            return;
        }
        let bit = |k: usize| u8::from(flags[k] > 0);
        let n = flags.len();
        for t in 0..n - 2 {
            let first_edge = if t == 0 { bit(0) } else { 1 };
            let last_edge = if t == n - 3 { bit(n - 1) } else { 1 };
            self.edge_flags
                .push(first_edge | bit(t + 1) << 1 | last_edge << 2);
        }
    }

    fn finish(
        mut self,
        commands: &[Command],
        spans: Spans<'_>,
        notes: &mut Notes,
    ) -> Result<Scene, Error> {
        self.close_mesh();
        self.check_array_lengths(commands, spans)?;
        let scene = &mut self.scene;
        if let Some(&(face, index, vertex)) =
            self.forward.iter().find(|f| f.2 >= scene.vertex_count)
        {
            return Err(Error::IndexOutOfRange {
                span: span_of(spans, face).unwrap_or(0..0),
                index,
                resolved: vertex as i128,
                vertices: scene.vertex_count,
            });
        }
        if !scene.has_faces {
            triangulate_vertex_runs(scene, notes);
        }
        if scene.has_edge_flags {
            if self.edge_flags.len() != scene.triangles.len() {
                notes.warn(
                    "face-smooth-count",
                    None,
                    format!(
                        "`fs` flags cover {} triangles, the faces make {}; the rest smooth on every edge",
                        self.edge_flags.len(),
                        scene.triangles.len()
                    ),
                );
            }
            for (t, flags) in scene.triangles.iter_mut().zip(&self.edge_flags) {
                t.edges = *flags;
            }
        }
        check_hierarchy(commands, spans, &scene.joints)?;
        self.check_pose_counts(commands, spans, notes);
        Ok(self.scene)
    }

    fn check_array_lengths(&mut self, commands: &[Command], spans: Spans<'_>) -> Result<(), Error> {
        let scene = &mut self.scene;
        let mut lengths: Vec<(&'static str, usize)> = vec![
            ("vp", scene.positions.len()),
            ("vt", scene.texcoords.len()),
            ("vn", scene.normals.len()),
            ("vx", scene.tangents.len()),
            ("vc", scene.colors.len()),
            ("vb", scene.blends.len()),
            ("vs", scene.smooth_indexes.len()),
        ];
        for (n, custom) in scene.customs.iter().enumerate() {
            lengths.push((Attribute::Custom(n as u8).keyword(), custom.len()));
        }
        let (longer, longer_len) = lengths
            .iter()
            .copied()
            .max_by_key(|&(_, len)| len)
            .unwrap_or(("vp", 0));
        scene.vertex_count = longer_len;
        let Some(&(shorter, shorter_len)) = lengths
            .iter()
            .find(|&&(_, len)| len > 0 && len < longer_len)
        else {
            return Ok(());
        };
        // Point at the command that defined the first vertex the shorter array lacks.
        let at = commands
            .iter()
            .enumerate()
            .filter(|(_, c)| keyword_of_array(c) == Some(longer))
            .nth(shorter_len)
            .map_or(0, |(i, _)| i);
        Err(Error::ArrayLength {
            span: span_of(spans, at).unwrap_or(0..0),
            vertex: shorter_len,
            longer,
            shorter,
            longer_len,
            shorter_len,
        })
    }

    fn check_pose_counts(&self, commands: &[Command], spans: Spans<'_>, notes: &mut Notes) {
        let joints = self.scene.joints.len();
        if joints == 0 {
            return; // an animation-only file: its poses fit a skeleton from elsewhere
        }
        let base = self.scene.base_poses.len();
        if base != joints {
            let first_joint = commands
                .iter()
                .position(|c| matches!(c, Command::Joint { .. }));
            notes.warn(
                "base-pose-count",
                first_joint.and_then(|i| span_of(spans, i)),
                format!(
                    "{joints} joints but {base} base poses; joints without one get the identity"
                ),
            );
        }
        for (animation, frame_spans) in self.scene.animations.iter().zip(&self.frame_spans) {
            for (frame, span) in animation.frames.iter().zip(frame_spans) {
                if frame.len() != joints {
                    notes.warn(
                        "frame-pose-count",
                        span.clone(),
                        format!(
                            "frame has {} poses, the skeleton has {joints} joints; missing joints keep no key, extra poses are ignored",
                            frame.len()
                        ),
                    );
                }
            }
        }
    }
}

fn keyword_of_array(command: &Command) -> Option<&'static str> {
    match command {
        Command::Vertex(a, _) => Some(a.keyword()),
        Command::Blend(_) => Some("vb"),
        Command::SmoothIndex(_) => Some("vs"),
        _ => None,
    }
}

/// With no face command anywhere, every 3 vertices of a mesh form a triangle.
fn triangulate_vertex_runs(scene: &mut Scene, notes: &mut Notes) {
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
    for mesh in &mut scene.meshes {
        let start = scene.triangles.len();
        let count = mesh.vertices.len();
        if count % 3 != 0 {
            notes.warn(
                "vertex-run",
                None,
                format!(
                    "mesh has {count} vertices and no faces; the last {} make no triangle",
                    count % 3
                ),
            );
        }
        for first in (mesh.vertices.start..mesh.vertices.end.saturating_sub(2)).step_by(3) {
            scene.triangles.push(Triangle {
                vertices: [first, first + 1, first + 2],
                smoothing: state,
                edges: 0b111,
            });
        }
        mesh.triangles = start..scene.triangles.len();
    }
}

/// Parents must exist and the hierarchy must not loop.
fn check_hierarchy(
    commands: &[Command],
    spans: Spans<'_>,
    joints: &[SceneJoint],
) -> Result<(), Error> {
    let joint_commands: Vec<usize> = commands
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c, Command::Joint { .. }))
        .map(|(i, _)| i)
        .collect();
    let span = |j: usize| joint_commands.get(j).and_then(|&i| span_of(spans, i));
    for (j, joint) in joints.iter().enumerate() {
        if let Some(p) = joint.parent
            && p >= joints.len()
        {
            return Err(Error::Hierarchy {
                span: span(j),
                joint: j,
                problem: format!("parent index {p} is out of range ({} joints)", joints.len()),
            });
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
                    return Err(Error::Hierarchy {
                        span: span(j),
                        joint: j,
                        problem: "the parent chain loops back to this joint".into(),
                    });
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
