//! Neutral model → B3D, in the form every reader accepts (see `b3d.md` §8):
//!
//! * `TEXS` (each distinct texture once) and `BRUS` (one brush per material, one texture
//!   slot) before the scene;
//! * with joints: one root `NODE` holding one `MESH` (one `VRTS` for every model mesh, one
//!   `TRIS` chunk per model mesh, in order), its `ANIM`, then the joints as child nodes in
//!   hierarchy order, each with a `BONE` chunk (its positive weights; empty when it weights
//!   nothing, so it reads back as a joint) and one `KEYS` chunk when animated. B3D names
//!   nodes, not `TRIS` chunks, so the node takes the first mesh's name;
//! * without joints: one `NODE` per run of meshes sharing a name, each `TRIS` chunk of a run
//!   in one `MESH`;
//! * mirrored back to left-handed: `(x, y, z)` → `(x, y, −z)`, quaternion `(x, y, z, w)` →
//!   stored `w, x, y, −z`, winding reversed;
//! * one timeline: one animation as it is, several laid end to end
//!   ([`rigport_anim::concat`], the ranges reported). A key at `t` seconds is written at
//!   frame `round(t · fps) + 1`, so frame 1 is t = 0 and Luanti's frame numbers are
//!   `t · fps`; keys between frames are sampled at every frame. `ANIM.frames` is the last
//!   frame written.

use super::to_model::mirror;
use crate::file::{
    Anim, Bone, Brus, Brush, File, Key as FileKey, Keys, Mesh as FileMesh, MeshChunk, Node,
    NodeChunk, Texs, Texture, TopChunk, Tris, Vrts,
};
use crate::{ConvertOptions, Error, MAX_DEPTH};
use glam::{Quat, Vec3};
use rigport_anim::concat::concat_animations;
use rigport_anim::normalize_animation;
use rigport_anim::resample::{bake, keys_between_frames};
use rigport_anim::sample::{Transform, sample_track};
use rigport_model_core::text::encode_name_8bit;
use rigport_model_core::{Animation, Mesh, Model, Report, codes};
use std::collections::BTreeSet;

fn stored_rotation(q: Quat) -> [f32; 4] {
    [q.w, q.x, q.y, -q.z]
}

fn node(name: &str, t: Vec3, r: Quat, s: Vec3) -> Node {
    Node {
        name: encode_name_8bit(name),
        position: mirror(t.to_array()).to_array(),
        scale: s.to_array(),
        rotation: stored_rotation(r),
        children: Vec::new(),
    }
}

fn index(i: usize) -> Result<i32, Error> {
    i32::try_from(i).map_err(|_| unwritable(format!("index {i} exceeds a 32-bit integer")))
}

/// Converts the neutral model to a B3D file; the report names every loss.
pub fn from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    let mut report = Report::default();
    let mut file = File {
        version: 1,
        ..File::default()
    };
    materials(model, &mut file);

    let skinned = !model.skeleton.joints.is_empty();
    let mut roots = Vec::new();
    if skinned {
        let name = model.meshes.first().map_or("ROOT", |m| m.name.as_str());
        let lost = model.meshes.iter().filter(|m| m.name != name).count();
        if lost > 0 {
            report.loss(
                codes::NAMES_CHANGED,
                format!(
                    "{lost} mesh names are not stored: the meshes share one skinned MESH (one TRIS chunk each) in node `{name}`"
                ),
            );
        }
        let mut root = node(name, Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
        let (mesh, weights) = mesh(model, &model.meshes.iter().collect::<Vec<_>>(), &mut report)?;
        root.children.push(NodeChunk::Mesh(mesh));
        let keys = animation(model, options, &mut report)?;
        if let Some((anim, _)) = &keys {
            root.children.push(NodeChunk::Anim(anim.clone()));
        }
        joints(model, weights, keys.map(|(_, k)| k), &mut root, &mut report)?;
        roots.push(root);
    } else {
        let mut groups: Vec<Vec<&Mesh>> = Vec::new();
        for m in &model.meshes {
            match groups.last_mut() {
                Some(g) if g[0].name == m.name => g.push(m),
                _ => groups.push(vec![m]),
            }
        }
        if !model.animations.is_empty() {
            report.loss(
                codes::ANIMATIONS_DROPPED,
                "the model has no joints: its animations have nothing to move",
            );
        }
        // A MESH without vertices is refused by assimp's validator and draws nothing in
        // Luanti: a group of meshes without triangles gets no node.
        let (groups, empty): (Vec<_>, Vec<_>) = groups
            .into_iter()
            .partition(|g| g.iter().any(|m| !m.triangles.is_empty()));
        if !empty.is_empty() {
            let names: Vec<&str> = empty.iter().map(|g| g[0].name.as_str()).collect();
            report.info(
                codes::EMPTY_MESHES,
                format!(
                    "{} meshes without triangles are not written: {}",
                    names.len(),
                    names.join(", ")
                ),
            );
        }
        for group in groups {
            let mut n = node(&group[0].name, Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
            n.children
                .push(NodeChunk::Mesh(mesh(model, &group, &mut report)?.0));
            roots.push(n);
        }
        if roots.len() > 1 {
            let mut root = node("ROOT", Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
            root.children = roots.drain(..).map(NodeChunk::Node).collect();
            roots.push(root);
        }
    }
    file.chunks.extend(roots.into_iter().map(TopChunk::Node));
    Ok((file, report))
}

fn materials(model: &Model, file: &mut File) {
    if model.materials.is_empty() {
        return;
    }
    let mut textures: Vec<&str> = Vec::new();
    let mut brushes = Vec::new();
    for m in &model.materials {
        let slot = m.texture.as_deref().map(|t| {
            textures.iter().position(|x| *x == t).unwrap_or_else(|| {
                textures.push(t);
                textures.len() - 1
            })
        });
        brushes.push(Brush {
            name: encode_name_8bit(&m.name),
            color: [
                m.diffuse.x,
                m.diffuse.y,
                m.diffuse.z,
                m.diffuse.w * m.opacity,
            ],
            shininess: (m.shininess / 128.0).clamp(0.0, 1.0),
            blend: 1,
            fx: 0,
            textures: vec![slot.map_or(-1, |s| s as i32)],
        });
    }
    if !textures.is_empty() {
        file.chunks.push(TopChunk::Texs(Texs {
            textures: textures
                .iter()
                .map(|t| Texture {
                    file: encode_name_8bit(t),
                    flags: 1,
                    blend: 2,
                    position: [0.0, 0.0],
                    scale: [1.0, 1.0],
                    rotation: 0.0,
                })
                .collect(),
            extra: Vec::new(),
        }));
    }
    file.chunks.push(TopChunk::Brus(Brus {
        n_texs: 1,
        brushes,
        extra: Vec::new(),
    }));
}

/// One `MESH` of `meshes` (one `TRIS` each) and the weights per joint over its vertices.
#[allow(clippy::type_complexity)]
fn mesh(
    model: &Model,
    meshes: &[&Mesh],
    report: &mut Report,
) -> Result<(FileMesh, Vec<Vec<(i32, f32)>>), Error> {
    let normals = meshes
        .iter()
        .any(|m| m.vertices.iter().any(|v| v.normal != Vec3::ZERO));
    let colors = meshes.iter().any(|m| m.has_colors);
    let uvs = meshes.iter().any(|m| m.has_uvs);
    let flags = i32::from(normals) | (i32::from(colors) << 1);
    let mut data = Vec::new();
    let mut weights: Vec<Vec<(i32, f32)>> = vec![Vec::new(); model.skeleton.joints.len()];
    let mut chunks = Vec::new();
    let mut base = 0usize;
    let (mut bad_joint, mut bad_triangles) = (0usize, 0usize);
    for m in meshes {
        for v in &m.vertices {
            data.extend_from_slice(&mirror(v.position.to_array()).to_array());
            if normals {
                data.extend_from_slice(&mirror(v.normal.to_array()).to_array());
            }
            if colors {
                data.extend_from_slice(&v.color.to_array());
            }
            if uvs {
                data.extend_from_slice(&v.uv.to_array());
            }
        }
        for (i, v) in m.vertices.iter().enumerate() {
            for (joint, w) in v.influences() {
                match weights.get_mut(joint.index()) {
                    Some(list) => list.push((index(base + i)?, w)),
                    None => bad_joint += 1,
                }
            }
        }
        let mut triangles = Vec::with_capacity(m.triangles.len());
        for t in &m.triangles {
            if t.iter().any(|&i| i as usize >= m.vertices.len()) {
                bad_triangles += 1;
                continue;
            }
            let [a, b, c] = t.map(|i| index(base + i as usize));
            triangles.push([a?, c?, b?]);
        }
        let brush = m
            .material
            .filter(|id| id.index() < model.materials.len())
            .map_or(-1, |id| id.index() as i32);
        chunks.push(MeshChunk::Tris(Tris {
            brush,
            triangles,
            extra: Vec::new(),
        }));
        base += m.vertices.len();
    }
    index(base)?;
    if bad_joint > 0 {
        report.loss(
            codes::SKIN_JOINT_MISSING,
            format!("{bad_joint} weights name joints that do not exist: dropped"),
        );
    }
    if bad_triangles > 0 {
        report.loss(
            codes::INVALID_TRIANGLES,
            format!("{bad_triangles} triangles name vertices that do not exist: dropped"),
        );
    }
    chunks.insert(
        0,
        MeshChunk::Vrts(Vrts {
            flags,
            sets: i32::from(uvs),
            set_size: if uvs { 2 } else { 0 },
            data,
            extra: Vec::new(),
        }),
    );
    Ok((FileMesh { brush: -1, chunks }, weights))
}

/// The joints as nodes under `root`, in hierarchy order.
fn joints(
    model: &Model,
    mut weights: Vec<Vec<(i32, f32)>>,
    mut keys: Option<Vec<Option<Keys>>>,
    root: &mut Node,
    report: &mut Report,
) -> Result<(), Error> {
    let joints = &model.skeleton.joints;
    let count = joints.len();
    let valid_parent = |i: usize| {
        joints[i]
            .parent
            .map(|p| p.index())
            .filter(|&p| p < count && p != i)
    };
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut roots = Vec::new();
    for i in 0..count {
        match valid_parent(i) {
            Some(p) => children[p].push(i),
            None => roots.push(i),
        }
    }
    // Joints on a cycle are reached from no root: they become roots.
    let mut reached = vec![false; count];
    let mut order = Vec::new();
    let mut depth = vec![0usize; count];
    let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
    loop {
        while let Some(j) = stack.pop() {
            if reached[j] {
                continue;
            }
            reached[j] = true;
            order.push(j);
            for &c in children[j].iter().rev() {
                depth[c] = depth[j] + 1;
                stack.push(c);
            }
        }
        match (0..count).find(|&j| !reached[j]) {
            Some(j) => {
                report.warn(
                    codes::JOINT_CYCLE,
                    format!(
                        "joint `{}` is on a parent cycle: written as a root",
                        joints[j].name
                    ),
                );
                depth[j] = 0;
                stack.push(j);
            }
            None => break,
        }
    }
    if depth.iter().any(|&d| d + 2 > MAX_DEPTH) {
        return Err(unwritable(format!(
            "joint chains deeper than {} levels",
            MAX_DEPTH - 2
        )));
    }
    if order.iter().enumerate().any(|(k, &j)| k != j) {
        report.info(
            codes::NAMES_CHANGED,
            "joints are written in hierarchy order (B3D nests them), which differs from the model's order",
        );
    }
    // Build nodes bottom-up: each joint's node, then attach children in reverse order.
    let mut built: Vec<Option<Node>> = (0..count)
        .map(|j| {
            let joint = &joints[j];
            let mut n = node(&joint.name, joint.translation, joint.rotation, joint.scale);
            n.children.push(NodeChunk::Bone(Bone {
                weights: std::mem::take(&mut weights[j]),
                extra: Vec::new(),
            }));
            if let Some(k) = keys.as_mut().and_then(|k| k[j].take()) {
                n.children.push(NodeChunk::Keys(k));
            }
            Some(n)
        })
        .collect();
    for &j in order.iter().rev() {
        let kids: Vec<Node> = children[j]
            .iter()
            .filter(|&&c| depth[c] == depth[j] + 1)
            .filter_map(|&c| built[c].take())
            .collect();
        if let Some(n) = built[j].as_mut() {
            n.children.extend(kids.into_iter().map(NodeChunk::Node));
        }
    }
    let top: Vec<usize> = order.iter().copied().filter(|&j| depth[j] == 0).collect();
    for j in top {
        if let Some(n) = built[j].take() {
            root.children.push(NodeChunk::Node(n));
        }
    }
    Ok(())
}

/// The `ANIM` chunk and one `KEYS` chunk per joint (`None` for joints without keys).
#[allow(clippy::type_complexity)]
fn animation(
    model: &Model,
    options: &ConvertOptions,
    report: &mut Report,
) -> Result<Option<(Anim, Vec<Option<Keys>>)>, Error> {
    let joints = model.skeleton.joints.len();
    let mut animation: Animation = match model.animations.len() {
        0 => return Ok(None),
        1 => model.animations[0].clone(),
        _ => {
            let Some(c) = concat_animations(&model.skeleton, &model.animations, "animation") else {
                return Ok(None);
            };
            report.extend(c.report);
            let ranges: Vec<String> = c
                .ranges
                .iter()
                .map(|r| format!("`{}` frames {}-{}", r.name, r.first, r.last))
                .collect();
            report.info(
                codes::ANIMATION_RANGE,
                format!(
                    "{} animations laid end to end on B3D's one timeline (Luanti frame numbers): {}",
                    model.animations.len(),
                    ranges.join(", ")
                ),
            );
            c.animation
        }
    };
    report.extend(normalize_animation(&mut animation, joints));
    let fps = if animation.fps.is_finite() && animation.fps > 0.0 {
        animation.fps
    } else {
        options.default_fps
    };
    if animation.interpolation != rigport_model_core::Interpolation::Linear {
        animation = bake(&animation, fps);
    }
    let every_frame = keys_between_frames(&animation, fps);
    if every_frame {
        report.info(
            codes::RESAMPLED,
            format!("keys between frames were sampled at every frame of {fps} fps"),
        );
    }
    let frame_of = |t: f32| -> Result<i32, Error> {
        let f = (f64::from(t) * f64::from(fps)).round().max(0.0);
        if f > f64::from(i32::MAX - 1) {
            return Err(unwritable(format!(
                "a key at {t} s is past frame {}",
                i32::MAX
            )));
        }
        Ok(f as i32 + 1)
    };
    let mode = animation.interpolation;
    let mut out: Vec<Option<Keys>> = vec![None; joints];
    let mut last = frame_of(animation.end_time())?;
    for track in &animation.tracks {
        let Some(joint) = model.skeleton.joints.get(track.joint.index()) else {
            continue;
        };
        let mut frames = BTreeSet::new();
        if every_frame {
            let end = frame_of(track.end_time())?;
            if end > 1_000_000 {
                return Err(unwritable(format!("{end} frames to sample")));
            }
            frames.extend(1..=end);
        } else {
            for t in track
                .translations
                .iter()
                .map(|k| k.time)
                .chain(track.rotations.iter().map(|k| k.time))
                .chain(track.scales.iter().map(|k| k.time))
            {
                frames.insert(frame_of(t)?);
            }
        }
        let flags = i32::from(!track.translations.is_empty())
            | (i32::from(!track.scales.is_empty()) << 1)
            | (i32::from(!track.rotations.is_empty()) << 2);
        let bind = Transform::of_joint(joint);
        let keys = frames
            .into_iter()
            .map(|f| {
                last = last.max(f);
                let t = ((f64::from(f) - 1.0) / f64::from(fps)) as f32;
                let x = sample_track(track, t, mode, &bind);
                FileKey {
                    frame: f,
                    position: if flags & 1 != 0 {
                        mirror(x.translation.to_array()).to_array()
                    } else {
                        [0.0; 3]
                    },
                    scale: if flags & 2 != 0 {
                        x.scale.to_array()
                    } else {
                        [0.0; 3]
                    },
                    rotation: if flags & 4 != 0 {
                        stored_rotation(x.rotation)
                    } else {
                        [0.0; 4]
                    },
                }
            })
            .collect();
        out[track.joint.index()] = Some(Keys {
            flags,
            keys,
            extra: Vec::new(),
        });
    }
    let anim = Anim {
        flags: 0,
        frames: last,
        fps,
        extra: Vec::new(),
    };
    Ok(Some((anim, out)))
}

/// A model B3D cannot hold.
fn unwritable(message: String) -> Error {
    Error::Unwritable {
        format: "B3D",
        message,
    }
}
