//! The walk over the commands that builds a [`Scene`] (or only checks the commands): one
//! command at a time, meshes, faces, smoothing, joints, poses and frames.

use super::*;

impl<'f> Builder<'f> {
    pub(super) fn new(store: &'f Store, purpose: Purpose) -> Self {
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

    pub(super) fn run(mut self, notes: &mut Notes) -> Result<Scene<'f>, Located> {
        let store = self.scene.store;
        self.feed(store, 0, notes)?;
        self.finish(notes)
    }

    /// Walks the commands of `store`, numbered from `first` on: the next ones of the file
    /// (the whole file for [`Builder::run`], a chunk of it for a [`Walk`]).
    pub(super) fn feed(
        &mut self,
        store: &Store,
        first: usize,
        notes: &mut Notes,
    ) -> Result<(), Located> {
        for (i, (segment, k)) in (first..).zip(store.positions()) {
            // Vertex lines are most of a file and need only their kind and attribute: no
            // view is built for them. `command` interprets every other command (and would
            // the vertex lines too, the same way).
            if let Some(array) = vertex_array(segment.kind(k), segment.attribute(k)) {
                self.vertex(array, i);
            } else if let Some(command) = segment.command(k) {
                self.command(command, i, notes)?;
            }
        }
        Ok(())
    }

    /// This builder reading `store`, which holds every command it was fed, for
    /// [`Builder::finish`].
    pub(super) fn attach<'g>(self, store: &'g Store) -> Builder<'g> {
        // Listing every field (no `..`) makes a new field a compile error here.
        let Builder {
            scene,
            purpose,
            triangle_count,
            material,
            mesh_start,
            smoothing,
            edge_flags,
            edge_flag_count,
            frame_commands,
            forward,
        } = self;
        Builder {
            scene: Scene::attach(scene.detach(), store),
            purpose,
            triangle_count,
            material,
            mesh_start,
            smoothing,
            edge_flags,
            edge_flag_count,
            frame_commands,
            forward,
        }
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
        self.smoothing_index();
        let mut forward = std::mem::take(&mut self.forward);
        let mut resolve = |index: i64| -> Result<u32, Located> {
            let vertex = match (index < 0, base) {
                (true, _) => defined as i128 + i128::from(index),
                (false, FaceBase::File) => i128::from(index),
                (false, FaceBase::Mesh) => mesh_start + i128::from(index),
            };
            let Ok(vertex) = u32::try_from(vertex) else {
                return Err(Located {
                    error: unlocated(Detail::IndexOutOfRange {
                        index,
                        resolved: vertex,
                        vertices: defined,
                    }),
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
                });
                previous = next;
            }
            Ok(())
        };
        let result = fan();
        self.forward = forward;
        result
    }

    /// Makes the smoothing state in force the one of the triangles made from here on.
    fn smoothing_index(&mut self) {
        let states = &mut self.scene.smoothing;
        if states.last() != Some(&self.smoothing) {
            states.push(self.smoothing);
            self.scene.smoothing_starts.push(self.triangle_count);
        }
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

    pub(super) fn finish(mut self, notes: &mut Notes) -> Result<Scene<'f>, Located> {
        self.close_mesh();
        self.check_array_lengths()?;
        let vertex_count = self.scene.vertex_count;
        if let Some(&(face, index, vertex)) = self.forward.iter().find(|f| f.2 >= vertex_count) {
            return Err(Located {
                error: unlocated(Detail::IndexOutOfRange {
                    index,
                    resolved: vertex as i128,
                    vertices: vertex_count,
                }),
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
            let mut flags = std::mem::take(&mut self.edge_flags);
            flags.truncate(self.scene.triangles.len());
            flags.shrink_to_fit();
            self.scene.edge_flags = flags;
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
            error: unlocated(Detail::ArrayLength {
                vertex: shorter_len,
                longer: ARRAY_KEYWORDS[longer],
                shorter: ARRAY_KEYWORDS[shorter],
                longer_len,
                shorter_len,
            }),
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
        if scene.smoothing.is_empty() {
            scene.smoothing.push(SmoothingState::default());
            scene.smoothing_starts.push(self.triangle_count);
        }
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
                });
            }
            mesh.triangles = start..self.triangle_count;
        }
        self.scene.meshes = meshes;
    }
}
