//! B3D → neutral model.
//!
//! * **Axes.** The stored values are mirrored in Z (see the crate docs); the local matrix
//!   of a node is `T · R · S` and a node's world matrix is its parent's times its own.
//! * **Joints.** Every `NODE` with a `BONE` chunk (an empty one included) or a `KEYS` chunk
//!   becomes a joint, in file order; its parent is its nearest such ancestor. The transforms
//!   of the nodes in between (mesh nodes, pivots) are folded into the joint's bind and keys,
//!   so world matrices are unchanged.
//! * **Meshes.** Each `TRIS` chunk becomes one model mesh, in file order, named after its
//!   node and holding the vertices it uses, placed by the mesh node's world rest matrix (as
//!   Irrlicht/Luanti place them). Its material is the `TRIS` brush, else the `MESH` brush.
//! * **Weights.** A `BONE` chunk's vertex ids index the most recent `MESH` in file order
//!   (Irrlicht's rule; Blitz3D's "enclosing mesh node" gives the same on every known file).
//!   Weights that are not positive are dropped, the four largest kept and normalized; a
//!   vertex left without weight is static, as in Luanti.
//! * **Duplicate skeletons.** Multi-mesh Blender exports copy the armature under every mesh
//!   node: each copy stays its own set of joints (one skeleton per mesh, as Luanti keeps
//!   them), reported as `duplicate-joint-names`.
//! * **Time.** One animation. Every `KEYS` chunk of a node adds keys to its channels (a later
//!   key at the same frame replaces an earlier one). File frame `k` is at `(k − 1) / fps`
//!   seconds: frame 1 (the first key every exporter writes) is t = 0, which is Luanti's
//!   frame 0, so a Luanti `set_animation({x = a, y = b})` range is `a / fps … b / fps` in
//!   the model. Frames below 1 are clamped to 1, as Irrlicht does. `ANIM.fps` 0 becomes
//!   [`ConvertOptions::default_fps`] (60, the description's default), reported.

use crate::file::{Bone, Node, NodeChunk, TopChunk};
use crate::{ConvertOptions, Error, File};
use glam::{Mat3, Mat4, Quat, Vec2, Vec3, Vec4};
use rigport_anim::weights::keep_largest_four;
use rigport_model_core::text::decode_name;
use rigport_model_core::{
    Animation, Joint, JointId, Key, Material, MaterialId, Mesh, Model, Report, Track, UpAxis,
    Vertex, codes,
};
use std::collections::{BTreeMap, HashMap};

/// Texture flag: the texture samples the second UV set (a lightmap).
const SECOND_UV_SET: i32 = 0x10000;

/// A node's local transform in the model's (mirrored) space.
#[derive(Clone, Copy, Debug)]
struct Trs {
    translation: Vec3,
    rotation: Quat,
    scale: Vec3,
}

impl Trs {
    fn matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
}

/// Position or direction `(x, y, z)` of the file → the model's `(x, y, −z)`.
pub(crate) fn mirror(v: [f32; 3]) -> Vec3 {
    Vec3::new(v[0], v[1], -v[2])
}

/// Stored rotation `w, x, y, z` (the conjugate, left-handed) → the model's quaternion
/// `(x, y, −z, w)`.
pub(crate) fn rotation(r: [f32; 4]) -> Quat {
    Quat::from_xyzw(r[1], r[2], -r[3], r[0])
}

fn unit(q: Quat, fixed: &mut usize) -> Quat {
    let len = q.length();
    if len.is_finite() && len > 1e-12 {
        if (len - 1.0).abs() > 1e-4 {
            *fixed += 1;
        }
        q / len
    } else {
        *fixed += 1;
        Quat::IDENTITY
    }
}

struct Flat<'a> {
    node: &'a Node,
    parent: Option<usize>,
    local: Trs,
}

struct Walk<'a> {
    nodes: Vec<Flat<'a>>,
    /// Nodes holding a `MESH`, in file order.
    meshes: Vec<usize>,
    /// `BONE` chunks: their node and the most recent mesh node before them.
    bones: Vec<(usize, &'a Bone, Option<usize>)>,
    anims: Vec<&'a crate::file::Anim>,
    sequences: Vec<String>,
}

impl<'a> Walk<'a> {
    fn visit(&mut self, node: &'a Node, parent: Option<usize>, current: &mut Option<usize>) {
        let index = self.nodes.len();
        self.nodes.push(Flat {
            node,
            parent,
            local: Trs {
                translation: mirror(node.position),
                rotation: rotation(node.rotation),
                scale: Vec3::from_array(node.scale),
            },
        });
        for child in &node.children {
            match child {
                NodeChunk::Mesh(_) => {
                    if !self.meshes.contains(&index) {
                        self.meshes.push(index);
                    }
                    *current = Some(index);
                }
                NodeChunk::Bone(b) => self.bones.push((index, b, *current)),
                NodeChunk::Anim(a) => self.anims.push(a),
                NodeChunk::Node(n) => self.visit(n, Some(index), current),
                NodeChunk::Raw(r) if &r.tag == b"SEQS" => {
                    if let Some(s) = sequence(&r.body) {
                        self.sequences.push(s);
                    }
                }
                NodeChunk::Keys(_) | NodeChunk::Raw(_) => {}
            }
        }
    }
}

/// An undocumented `SEQS` chunk (name, first frame, last frame, 0) as a person reads it.
fn sequence(body: &[u8]) -> Option<String> {
    let nul = body.iter().position(|&b| b == 0)?;
    let rest = body.get(nul + 1..nul + 9)?;
    let first = i32::from_le_bytes(rest[..4].try_into().ok()?);
    let last = i32::from_le_bytes(rest[4..8].try_into().ok()?);
    Some(format!(
        "`{}`: file frames {first}-{last} (Luanti frames {}-{})",
        decode_name(&body[..nul]),
        first.saturating_sub(1),
        last.saturating_sub(1)
    ))
}

/// Converts a file to the neutral model (see the module docs for the rules); the report
/// names every loss.
pub fn to_model(file: &File, options: &ConvertOptions) -> Result<(Model, Report), Error> {
    let mut report = Report::default();
    let mut walk = Walk {
        nodes: Vec::new(),
        meshes: Vec::new(),
        bones: Vec::new(),
        anims: Vec::new(),
        sequences: Vec::new(),
    };
    let mut current = None;
    for chunk in &file.chunks {
        if let TopChunk::Node(n) = chunk {
            walk.visit(n, None, &mut current);
        }
    }
    let nodes = &walk.nodes;
    let count = nodes.len();

    // World rest matrices, and for each node the matrix from its nearest joint ancestor's
    // space (or the model's) to its parent's space: the transforms folded into joints.
    let is_joint: Vec<bool> = nodes
        .iter()
        .map(|f| f.node.is_bone() || f.node.keys().next().is_some())
        .collect();
    let mut world = Vec::with_capacity(count);
    let mut above = Vec::with_capacity(count);
    for f in nodes {
        let local = f.local.matrix();
        match f.parent {
            None => {
                world.push(local);
                above.push(Mat4::IDENTITY);
            }
            Some(p) => {
                world.push(world[p] * local);
                above.push(if is_joint[p] {
                    Mat4::IDENTITY
                } else {
                    above[p] * nodes[p].local.matrix()
                });
            }
        }
    }

    // Joints.
    let mut joint_of: Vec<Option<JointId>> = vec![None; count];
    let mut model = Model {
        up: UpAxis::Y,
        ..Model::default()
    };
    let mut inexact = 0usize;
    let mut fixed_rotations = 0usize;
    for (i, f) in nodes.iter().enumerate() {
        if !is_joint[i] {
            continue;
        }
        let mut parent = f.parent;
        while let Some(p) = parent {
            if is_joint[p] {
                break;
            }
            parent = nodes[p].parent;
        }
        let fold = Fold::new(above[i]);
        inexact += usize::from(!fold.exact);
        let bind = fold.trs(&f.local);
        joint_of[i] = JointId::from_index(model.skeleton.joints.len());
        model.skeleton.joints.push(Joint {
            name: decode_name(&f.node.name),
            parent: parent.and_then(|p| joint_of[p]),
            translation: bind.translation,
            rotation: unit(bind.rotation, &mut fixed_rotations),
            scale: bind.scale,
        });
    }
    if inexact > 0 {
        report.loss(
            codes::JOINT_SCALE,
            format!(
                "{inexact} joints sit under nodes with non-uniform scale: their folded transforms are approximate"
            ),
        );
    }
    let mut names: HashMap<&str, usize> = HashMap::new();
    for j in &model.skeleton.joints {
        *names.entry(j.name.as_str()).or_default() += 1;
    }
    let duplicated = names.values().filter(|&&n| n > 1).count();
    if duplicated > 0 {
        report.info(
            codes::DUPLICATE_JOINT_NAMES,
            format!(
                "{duplicated} joint names occur more than once (a skeleton copied under each mesh node): each copy is kept as its own joints"
            ),
        );
    }

    materials(file, &mut model, &mut report);
    meshes(&walk, &world, &joint_of, &is_joint, &mut model, &mut report);
    animation(
        &walk,
        &above,
        &joint_of,
        options,
        &mut model,
        &mut report,
        &mut fixed_rotations,
    );
    if fixed_rotations > 0 {
        report.info(
            codes::ROTATION_NORMALIZED,
            format!("{fixed_rotations} rotations not of unit length were normalized"),
        );
    }
    let unused = (0..count)
        .filter(|&i| !is_joint[i] && nodes[i].node.mesh().is_none())
        .count();
    if unused > 0 {
        report.info(
            codes::UNKNOWN_BLOCKS,
            format!(
                "{unused} nodes hold neither a mesh, a bone nor keys (pivots): their transforms are folded into what lies below them"
            ),
        );
    }
    Ok((model, report))
}

/// The transform of the nodes between a joint and its joint parent, applied to the joint's
/// own transforms: exact when it is a similarity (uniform scale).
struct Fold {
    matrix: Mat4,
    identity: bool,
    rotation: Quat,
    scale: Vec3,
    exact: bool,
}

impl Fold {
    fn new(matrix: Mat4) -> Self {
        let identity = matrix == Mat4::IDENTITY;
        let (scale, rotation, translation) = matrix.to_scale_rotation_translation();
        let _ = translation;
        let rebuilt = Mat4::from_scale_rotation_translation(scale, rotation, translation);
        let uniform = (scale.x - scale.y).abs() <= 1e-5 * scale.x.abs().max(1.0)
            && (scale.x - scale.z).abs() <= 1e-5 * scale.x.abs().max(1.0);
        let exact = identity || (uniform && rebuilt.abs_diff_eq(matrix, 1e-4));
        Self {
            matrix,
            identity,
            rotation,
            scale,
            exact,
        }
    }

    fn translation(&self, t: Vec3) -> Vec3 {
        if self.identity {
            t
        } else {
            self.matrix.transform_point3(t)
        }
    }

    fn rotation(&self, r: Quat) -> Quat {
        if self.identity { r } else { self.rotation * r }
    }

    fn scale(&self, s: Vec3) -> Vec3 {
        if self.identity { s } else { self.scale * s }
    }

    fn trs(&self, t: &Trs) -> Trs {
        Trs {
            translation: self.translation(t.translation),
            rotation: self.rotation(t.rotation),
            scale: self.scale(t.scale),
        }
    }
}

fn materials(file: &File, model: &mut Model, report: &mut Report) {
    let textures: Vec<_> = file.textures().collect();
    let (mut extra_slots, mut effects) = (0usize, 0usize);
    for brush in file.brushes() {
        let slots: Vec<&crate::Texture> = brush
            .textures
            .iter()
            .filter_map(|&t| {
                usize::try_from(t)
                    .ok()
                    .and_then(|t| textures.get(t).copied())
            })
            .collect();
        // The colour texture: the first slot not sampling the second UV set (SCP-CB puts
        // the lightmap in slot 0).
        let texture = slots
            .iter()
            .find(|t| t.flags & SECOND_UV_SET == 0)
            .or(slots.first());
        extra_slots += slots.len().saturating_sub(1);
        effects += usize::from(brush.fx != 0 || brush.blend != 1);
        let [r, g, b, a] = brush.color;
        model.materials.push(Material {
            name: decode_name(&brush.name),
            diffuse: Vec4::new(r, g, b, 1.0),
            opacity: a,
            shininess: brush.shininess * 128.0,
            texture: texture.map(|t| decode_name(&t.file)),
            ..Material::default()
        });
    }
    if extra_slots > 0 {
        report.loss(
            codes::INVALID_MATERIAL,
            format!(
                "{extra_slots} brush texture slots beyond the colour texture (lightmaps, detail maps) are not carried"
            ),
        );
    }
    if effects > 0 {
        report.loss(
            codes::MATERIAL_MODE,
            format!("{effects} brushes have blend modes or FX bits the model does not carry"),
        );
    }
}

fn meshes(
    walk: &Walk,
    world: &[Mat4],
    joint_of: &[Option<JointId>],
    is_joint: &[bool],
    model: &mut Model,
    report: &mut Report,
) {
    let (mut zero, mut out_of_range, mut more_than_four, mut renormalized) = (0, 0, 0, 0);
    let (mut bad_triangles, mut bad_brushes, mut second_set, mut static_moving) = (0, 0, 0, 0);
    let brushes = model.materials.len();
    for &m in &walk.meshes {
        let node = walk.nodes[m].node;
        let Some(mesh) = node.mesh() else { continue };
        let vrts = mesh.vrts();
        let vertex_count = vrts.map_or(0, |v| v.count());
        let g = world[m];
        let normal_matrix = {
            let m3 = Mat3::from_mat4(g);
            if m3.determinant().abs() > 1e-12 {
                m3.inverse().transpose()
            } else {
                m3
            }
        };
        // Influences per vertex from every BONE chunk aimed at this mesh.
        let mut influences: Vec<Vec<(JointId, f32)>> = Vec::new();
        for (bone_node, bone, target) in &walk.bones {
            if *target != Some(m) {
                continue;
            }
            let Some(joint) = joint_of[*bone_node] else {
                continue;
            };
            if influences.is_empty() {
                influences = vec![Vec::new(); vertex_count];
            }
            for &(id, w) in &bone.weights {
                if !(w > 0.0 && w.is_finite()) {
                    zero += 1;
                    continue;
                }
                match usize::try_from(id).ok().and_then(|i| influences.get_mut(i)) {
                    Some(list) => list.push((joint, w)),
                    None => out_of_range += 1,
                }
            }
        }
        let mut weights = vec![[0.0f32; 4]; influences.len()];
        let mut joints = vec![[JointId(0); 4]; influences.len()];
        for (v, list) in influences.iter_mut().enumerate() {
            if keep_largest_four(list) {
                more_than_four += 1;
            }
            let sum: f32 = list.iter().map(|(_, w)| w).sum();
            if !list.is_empty() && (sum - 1.0).abs() > 1e-3 {
                renormalized += 1;
            }
            for (k, (j, w)) in list.iter().enumerate() {
                joints[v][k] = *j;
                weights[v][k] = w / sum;
            }
        }
        // Is the mesh node or one of its ancestors animated? Then its unweighted vertices
        // stay where they are while the node moves.
        let mut moving = false;
        let mut at = Some(m);
        while let Some(i) = at {
            moving |= is_joint[i] && walk.nodes[i].node.keys().next().is_some();
            at = walk.nodes[i].parent;
        }

        let name = decode_name(&node.name);
        let sets = vrts.map_or(0, |v| v.sets);
        if sets > 1 {
            second_set += 1;
        }
        let mut remap = vec![u32::MAX; vertex_count];
        for tris in mesh.tris() {
            let brush = if tris.brush >= 0 {
                tris.brush
            } else {
                mesh.brush
            };
            let material = usize::try_from(brush).ok().and_then(|b| {
                if b < brushes {
                    MaterialId::from_index(b)
                } else {
                    bad_brushes += 1;
                    None
                }
            });
            let mut out = Mesh {
                name: name.clone(),
                material,
                has_uvs: vrts.is_some_and(|v| v.sets > 0 && v.set_size > 0),
                has_colors: vrts.is_some_and(|v| v.has_colors()),
                ..Mesh::default()
            };
            remap.fill(u32::MAX);
            for t in &tris.triangles {
                let ids = t.map(|i| usize::try_from(i).ok().filter(|&i| i < vertex_count));
                let [Some(a), Some(b), Some(c)] = ids else {
                    bad_triangles += 1;
                    continue;
                };
                let mut corner = |i: usize| -> u32 {
                    if remap[i] == u32::MAX {
                        let v = vrts.expect("vertices exist when an id is in range");
                        remap[i] = out.vertices.len() as u32;
                        let mut vertex = Vertex {
                            position: g.transform_point3(mirror(v.position(i))),
                            ..Vertex::default()
                        };
                        if let Some(n) = v.normal(i) {
                            vertex.normal = (normal_matrix * mirror(n)).normalize_or_zero();
                        }
                        if let Some(c) = v.color(i) {
                            vertex.color = Vec4::from_array(c);
                        }
                        if let Some(uv) = v.tex_coords(i, 0) {
                            vertex.uv = Vec2::new(
                                uv.first().copied().unwrap_or(0.0),
                                uv.get(1).copied().unwrap_or(0.0),
                            );
                        }
                        if let (Some(w), Some(j)) = (weights.get(i), joints.get(i)) {
                            vertex.weights = *w;
                            vertex.joints = *j;
                        }
                        if moving && !vertex.is_skinned() {
                            static_moving += 1;
                        }
                        out.vertices.push(vertex);
                    }
                    remap[i]
                };
                // Reversed winding: clockwise in the left-handed file, counter-clockwise
                // after the mirror.
                let tri = [corner(a), corner(c), corner(b)];
                out.triangles.push(tri);
            }
            model.meshes.push(out);
        }
    }
    let mut note =
        |count: usize, severity_loss: bool, code: rigport_model_core::Code, text: String| {
            if count > 0 {
                if severity_loss {
                    report.loss(code, text);
                } else {
                    report.info(code, text);
                }
            }
        };
    note(
        zero,
        false,
        codes::WEIGHTS_RENORMALIZED,
        format!("{zero} bone weights of 0 (or not positive) were dropped"),
    );
    note(
        out_of_range,
        true,
        codes::WEIGHT_JOINT_OUT_OF_RANGE,
        format!("{out_of_range} bone weights name a vertex the mesh does not have: dropped"),
    );
    note(
        more_than_four,
        true,
        codes::WEIGHTS_RENORMALIZED,
        format!("{more_than_four} vertices had more than 4 weights; kept the 4 largest"),
    );
    note(
        renormalized,
        false,
        codes::WEIGHTS_RENORMALIZED,
        format!("{renormalized} vertices' weights did not sum to 1 and were rescaled"),
    );
    note(
        bad_triangles,
        true,
        codes::INVALID_TRIANGLES,
        format!("{bad_triangles} triangles name vertices the mesh does not have: dropped"),
    );
    note(
        bad_brushes,
        true,
        codes::MISSING_MATERIAL,
        format!("{bad_brushes} TRIS chunks name a brush that does not exist: no material"),
    );
    note(
        second_set,
        true,
        codes::VERTEX_EXTRA_WORDS,
        format!(
            "{second_set} meshes have a second UV set (lightmap coordinates): only the first is carried"
        ),
    );
    note(
        static_moving,
        true,
        codes::BLEND_WITHOUT_WEIGHT,
        format!(
            "{static_moving} vertices without weight belong to an animated node: they stay at rest, as in Luanti"
        ),
    );
}

#[allow(clippy::too_many_arguments)]
fn animation(
    walk: &Walk,
    above: &[Mat4],
    joint_of: &[Option<JointId>],
    options: &ConvertOptions,
    model: &mut Model,
    report: &mut Report,
    fixed_rotations: &mut usize,
) {
    let has_keys = walk
        .nodes
        .iter()
        .any(|f| f.node.keys().any(|k| !k.keys.is_empty()));
    if !has_keys {
        if !walk.anims.is_empty() {
            report.info(
                codes::ANIMATIONS_DROPPED,
                "the file has ANIM chunks but no keys: no animation",
            );
        }
        return;
    }
    let stored = walk.anims.first().map(|a| a.fps);
    let fps = match stored {
        Some(f) if f.is_finite() && f > 0.0 => f,
        _ => {
            report.info(
                codes::DEFAULT_FRAMERATE,
                format!(
                    "ANIM fps is {} : {} frames per second assumed",
                    stored.map_or("missing".to_owned(), |f| f.to_string()),
                    options.default_fps
                ),
            );
            options.default_fps
        }
    };
    if walk
        .anims
        .iter()
        .any(|a| a.fps.to_bits() != walk.anims[0].fps.to_bits())
    {
        report.warn(
            codes::INVALID_FPS,
            "ANIM chunks disagree on fps: the first one's is used",
        );
    }
    let frames = walk.anims.iter().map(|a| a.frames).max().unwrap_or(0);
    let time = |frame: i32| ((f64::from(frame) - 1.0) / f64::from(fps)) as f32;
    let (mut clamped, mut last) = (0usize, 1i32);
    let mut animation = Animation::new("animation", fps);
    for (i, f) in walk.nodes.iter().enumerate() {
        let Some(joint) = joint_of[i] else { continue };
        let fold = Fold::new(above[i]);
        let mut positions = BTreeMap::new();
        let mut scales = BTreeMap::new();
        let mut rotations = BTreeMap::new();
        for keys in f.node.keys() {
            for k in &keys.keys {
                let frame = if k.frame < 1 {
                    clamped += 1;
                    1
                } else {
                    k.frame
                };
                last = last.max(frame);
                if keys.flags & 1 != 0 {
                    positions.insert(frame, fold.translation(mirror(k.position)));
                }
                if keys.flags & 2 != 0 {
                    scales.insert(frame, fold.scale(Vec3::from_array(k.scale)));
                }
                if keys.flags & 4 != 0 {
                    let r = unit(rotation(k.rotation), fixed_rotations);
                    rotations.insert(frame, fold.rotation(r));
                }
            }
        }
        let mut track = Track::new(joint);
        track.translations = positions
            .into_iter()
            .map(|(f, v)| Key::new(time(f), v))
            .collect();
        track.scales = scales
            .into_iter()
            .map(|(f, v)| Key::new(time(f), v))
            .collect();
        track.rotations = rotations
            .into_iter()
            .map(|(f, v)| Key::new(time(f), v))
            .collect();
        if !track.is_empty() {
            animation.tracks.push(track);
        }
    }
    if clamped > 0 {
        report.info(
            codes::KEYS_OUTSIDE_TIMELINE,
            format!("{clamped} keys before frame 1 were moved to frame 1 (as Irrlicht does)"),
        );
    }
    animation.duration = time(frames.max(last).max(1));
    for s in &walk.sequences {
        report.info(codes::ANIMATION_RANGE, format!("sequence {s}"));
    }
    report.info(
        codes::FRAMES,
        format!(
            "file frame k is at (k - 1) / {fps} s: frame 1 is t = 0 (Luanti's frame 0); ANIM frames = {frames}, last key at frame {last}"
        ),
    );
    model.animations.push(animation);
}
