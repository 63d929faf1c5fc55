//! File → model: weld vertex/normal pairs into unified vertices, resolve parents by name,
//! turn relative keys at frame numbers into absolute local transforms at seconds.

use super::{ConvertOptions, loss_if_any};
use crate::Error;
use crate::file::{self, Bone, File};
use rigport_anim::euler::euler_to_quat;
use rigport_anim::milkshape::{
    self, ANIMATION_NAME, BindPose, KeyTimeline, absolute_track, report_keys_outside,
    resolve_parents_by_name,
};
use rigport_anim::skeleton::break_cycles;
use rigport_model_core::codes;
use rigport_model_core::glam::{Vec2, Vec3};
use rigport_model_core::text::decode_name;
use rigport_model_core::{
    Animation, Joint, JointId, Material, MaterialId, Mesh, Model, Report, Skeleton, Vertex,
};
use std::collections::HashMap;

/// Counts of what could not be carried, reported once per kind at the end.
#[derive(Default)]
struct Tally {
    bad_triangles: usize,
    bad_materials: usize,
    bad_bones: usize,
    unused_normals: usize,
    flagged_meshes: usize,
    flagged_vertices: usize,
    flagged_triangles: usize,
    flagged_bones: usize,
    smoothed_triangles: usize,
    latin1_names: usize,
}

/// Converts a file to the neutral model.
pub fn to_model(file: &File, options: &ConvertOptions) -> Result<(Model, Report), Error> {
    let fps = options.fps(None)?;
    let mut report = Report::default();
    let mut tally = Tally::default();
    let mut model = Model {
        materials: file
            .materials()
            .iter()
            .map(|m| material(m, &mut tally))
            .collect(),
        skeleton: skeleton(file.bones(), &mut report, &mut tally),
        ..Model::default()
    };
    let (materials, joints) = (model.materials.len(), model.skeleton.len());
    model.meshes = file
        .meshes()
        .iter()
        .map(|m| mesh(m, materials, joints, &mut tally))
        .collect();
    if file.has_keys() {
        model.animations.push(animation(file, fps, &mut report));
    }
    losses(file, &tally, &mut report);
    Ok((model, report))
}

fn name(bytes: &[u8], tally: &mut Tally) -> String {
    if std::str::from_utf8(bytes).is_err() {
        tally.latin1_names += 1;
    }
    decode_name(bytes)
}

fn material(m: &file::Material, tally: &mut Tally) -> Material {
    let path = |bytes: &[u8], tally: &mut Tally| (!bytes.is_empty()).then(|| name(bytes, tally));
    Material {
        name: name(&m.name, tally),
        ambient: m.ambient.into(),
        diffuse: m.diffuse.into(),
        specular: m.specular.into(),
        emissive: m.emissive.into(),
        shininess: m.shininess,
        opacity: m.transparency,
        texture: path(&m.texture, tally),
        alpha_map: path(&m.alpha_map, tally),
    }
}

/// Joints in file order; parents found by name (the first bone of that name), wherever
/// they are listed. Missing parents, self-parents and cycles become roots, with a warning
/// (the shared MilkShape rules in `rigport_anim`).
fn skeleton(bones: &[Bone], report: &mut Report, tally: &mut Tally) -> Skeleton {
    let names: Vec<(&[u8], &[u8])> = bones
        .iter()
        .map(|b| (b.name.as_slice(), b.parent.as_slice()))
        .collect();
    let parents = resolve_parents_by_name(&names, decode_name, report);
    let joints = bones
        .iter()
        .zip(parents)
        .map(|(bone, parent)| {
            if bone.flags != 0 {
                tally.flagged_bones += 1;
            }
            Joint {
                name: name(&bone.name, tally),
                parent,
                translation: Vec3::from(bone.position),
                rotation: euler_to_quat(Vec3::from(bone.rotation)),
                scale: Vec3::ONE,
            }
        })
        .collect();
    let mut skeleton = Skeleton { joints };
    break_cycles(&mut skeleton, report);
    skeleton
}

/// Welds each distinct (vertex, normal) corner pair into one unified vertex. Unified
/// vertices are ordered by the file's vertex index, so writing the model back keeps the
/// vertex order; a vertex no triangle uses still becomes one (with a zero normal).
fn mesh(m: &file::Mesh, materials: usize, joints: usize, tally: &mut Tally) -> Mesh {
    if m.flags != 0 {
        tally.flagged_meshes += 1;
    }
    let index = |i: i32, len: usize| usize::try_from(i).ok().filter(|&i| i < len);
    // Corner pairs in first-use order, and the triangles whose indices are all valid.
    let mut pair_of: HashMap<(usize, usize), usize> = HashMap::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut corners: Vec<[usize; 3]> = Vec::with_capacity(m.triangles.len());
    for t in &m.triangles {
        if t.flags != 0 {
            tally.flagged_triangles += 1;
        }
        if t.smoothing_group != 0 {
            tally.smoothed_triangles += 1;
        }
        let mut tri = [0; 3];
        let mut valid = true;
        for (c, slot) in tri.iter_mut().enumerate() {
            match (
                index(t.vertices[c], m.vertices.len()),
                index(t.normals[c], m.normals.len()),
            ) {
                (Some(v), Some(n)) => {
                    *slot = *pair_of.entry((v, n)).or_insert_with(|| {
                        pairs.push((v, n));
                        pairs.len() - 1
                    });
                }
                _ => valid = false,
            }
        }
        if valid {
            corners.push(tri);
        } else {
            tally.bad_triangles += 1;
        }
    }
    let mut used_normals = vec![false; m.normals.len()];
    pairs.iter().for_each(|&(_, n)| used_normals[n] = true);
    tally.unused_normals += used_normals.iter().filter(|u| !**u).count();

    // Stable sort keeps first-use order among the pairs of one vertex.
    let mut order: Vec<usize> = (0..pairs.len()).collect();
    order.sort_by_key(|&p| pairs[p].0);
    let mut unified_of_pair = vec![0u32; pairs.len()];
    let mut vertices = Vec::with_capacity(m.vertices.len().max(pairs.len()));
    let mut next = order.iter().peekable();
    for (v, record) in m.vertices.iter().enumerate() {
        if record.flags != 0 {
            tally.flagged_vertices += 1;
        }
        let base = unified(record, Vec3::ZERO, joints, tally);
        let mut any = false;
        while let Some(&&p) = next.peek().filter(|&&&p| pairs[p].0 == v) {
            next.next();
            any = true;
            unified_of_pair[p] = vertices.len() as u32;
            let normal = m.normals.get(pairs[p].1).copied().unwrap_or_default();
            vertices.push(Vertex {
                normal: Vec3::from(normal),
                ..base
            });
        }
        if !any {
            vertices.push(base);
        }
    }
    let material = match index(m.material, materials) {
        Some(i) => MaterialId::from_index(i),
        None => {
            if m.material != -1 {
                tally.bad_materials += 1;
            }
            None
        }
    };
    Mesh {
        name: name(&m.name, tally),
        material,
        vertices,
        triangles: corners
            .iter()
            .map(|t| t.map(|p| unified_of_pair[p]))
            .collect(),
        has_uvs: true,
        has_colors: false,
        morph_targets: Vec::new(),
    }
}

fn unified(v: &file::Vertex, normal: Vec3, joints: usize, tally: &mut Tally) -> Vertex {
    let mut out = Vertex {
        position: Vec3::from(v.position),
        normal,
        uv: Vec2::from(v.uv),
        ..Vertex::default()
    };
    match usize::try_from(v.bone).ok().filter(|&b| b < joints) {
        Some(b) => {
            out.joints[0] = JointId(b as u32);
            out.weights[0] = 1.0;
        }
        None if v.bone != -1 => tally.bad_bones += 1,
        None => {}
    }
    out
}

/// The one animation of the file: every bone with keys gets a track. Key times are frame
/// numbers, made seconds with `fps`; from there the path is the binary crate's (cached bind
/// pose, keys off the timeline dropped with a warning).
fn animation(file: &File, fps: f32, report: &mut Report) -> Animation {
    let frames = file.frames().unwrap_or(0);
    let mut animation = milkshape::animation(ANIMATION_NAME, fps, frames, report);
    let timeline = KeyTimeline::new(animation.duration, animation.fps);
    let mut outside = 0usize;
    for (i, bone) in file.bones().iter().enumerate() {
        if bone.position_keys.is_empty() && bone.rotation_keys.is_empty() {
            continue;
        }
        let Some(joint) = JointId::from_index(i) else {
            break;
        };
        let bind = BindPose::new(Vec3::from(bone.position), Vec3::from(bone.rotation));
        let (track, dropped) = absolute_track(
            joint,
            &bind,
            seconds(&bone.position_keys, fps),
            seconds(&bone.rotation_keys, fps),
            &timeline,
        );
        outside += dropped;
        animation.tracks.push(track);
    }
    report_keys_outside(outside, &timeline, report);
    animation
}

/// Stored keys as `(time in seconds, value)`: ASCII key times are frame numbers.
fn seconds(keys: &[file::Key], fps: f32) -> impl ExactSizeIterator<Item = (f32, Vec3)> + '_ {
    keys.iter()
        .map(move |k| (k.frame / fps, Vec3::from(k.value)))
}

/// Reports everything the model could not carry, once per kind with counts.
fn losses(file: &File, t: &Tally, report: &mut Report) {
    loss_if_any(
        report,
        codes::INVALID_TRIANGLES,
        t.bad_triangles,
        format!(
            "{} triangles with out-of-range indices were dropped",
            t.bad_triangles
        ),
    );
    loss_if_any(
        report,
        codes::INVALID_MATERIAL,
        t.bad_materials,
        format!(
            "{} meshes name a material that does not exist; they have none",
            t.bad_materials
        ),
    );
    loss_if_any(
        report,
        codes::INVALID_BONE,
        t.bad_bones,
        format!(
            "{} vertices name a bone that does not exist; they are not skinned",
            t.bad_bones
        ),
    );
    loss_if_any(
        report,
        codes::UNUSED_NORMALS,
        t.unused_normals,
        format!("{} normals no triangle uses were dropped", t.unused_normals),
    );
    let flagged = t.flagged_meshes + t.flagged_vertices + t.flagged_triangles + t.flagged_bones;
    loss_if_any(
        report,
        codes::FLAGS,
        flagged,
        format!(
            "editor flags are not carried: {} meshes, {} vertices, {} triangles and {} bones have non-zero flags",
            t.flagged_meshes, t.flagged_vertices, t.flagged_triangles, t.flagged_bones
        ),
    );
    loss_if_any(
        report,
        codes::SMOOTHING_GROUPS,
        t.smoothed_triangles,
        format!(
            "smoothing groups are not carried: {} triangles are in a non-zero group (the normals are kept)",
            t.smoothed_triangles
        ),
    );
    if let Some(frame) = file.current_frame().filter(|&f| f != 1) {
        report.loss(
            codes::CURRENT_FRAME,
            format!("the editor's current frame ({frame}) is not carried"),
        );
    }
    if let Some(frames) = file
        .frames()
        .filter(|&f| f != super::from_model::DEFAULT_FRAMES)
    {
        if !file.has_keys() {
            report.loss(
                codes::FRAMES,
                format!("`Frames: {frames}` is not carried: the file has no keys, so no animation"),
            );
        }
    }
    let unknown: Vec<String> = file
        .unknown_blocks()
        .filter(|u| u.has_content())
        .map(|u| decode_name(&u.header))
        .collect();
    if !unknown.is_empty() {
        report.loss(
            codes::UNKNOWN_BLOCKS,
            format!(
                "{} blocks the model cannot hold were dropped: {}",
                unknown.len(),
                unknown.join(", ")
            ),
        );
    }
    if !file.damaged_tail.is_empty() {
        report.loss(
            codes::DAMAGED_TAIL,
            format!(
                "{} bytes of a damaged last block were not converted",
                file.damaged_tail.len()
            ),
        );
    }
    if t.latin1_names > 0 {
        report.info(
            codes::LATIN1_NAMES,
            format!(
                "{} names are not UTF-8 and were read as Latin-1",
                t.latin1_names
            ),
        );
    }
}
