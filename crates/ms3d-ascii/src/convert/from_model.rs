//! Model → file: split unified vertices back into vertex records and a normal list, keep
//! one bone per vertex, turn absolute local transforms at seconds into relative keys at
//! frame numbers.

use super::{ConvertOptions, loss_if_any};
use crate::Error;
use crate::file::{self, Block, Bone, File, Triangle};
use rigport_anim::euler::quat_to_euler;
use rigport_anim::milkshape::{relative_rotation, relative_translation};
use rigport_model_core::text::encode_name_8bit;
use rigport_model_core::{Animation, Interpolation, Mesh, Model, Report, Skeleton};
use std::collections::HashMap;

/// `Frames:` written when the model has no animation (MilkShape's default timeline).
pub(crate) const DEFAULT_FRAMES: i32 = 30;

/// Counts of what could not be carried, reported once per kind at the end.
#[derive(Default)]
struct Tally {
    renamed: usize,
    non_finite: usize,
    multi_weight: usize,
    bad_bones: usize,
    bad_materials: usize,
    bad_triangles: usize,
    colored_meshes: usize,
}

/// Converts the neutral model to a file.
///
/// Vertex records are the distinct `(position, uv, bone)` triples of a mesh's unified
/// vertices in first-use order, normals the distinct corner normals; each vertex keeps only
/// its largest joint weight. Only the first animation is written.
pub fn from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    let animation = model.animations.first();
    let fps = options.fps(animation.map(|a| a.fps))?;
    let mut report = Report::default();
    let mut t = Tally::default();
    let count = |what, n: usize| i32::try_from(n).map_err(|_| Error::TooMany { what, count: n });
    count("meshes", model.meshes.len())?;
    count("materials", model.materials.len())?;
    count("bones", model.skeleton.len())?;

    let mut meshes = Vec::with_capacity(model.meshes.len());
    for m in &model.meshes {
        count("vertices", m.vertices.len())?;
        count("triangles", m.triangles.len())?;
        meshes.push(mesh(m, model, &mut t));
    }
    let materials = model
        .materials
        .iter()
        .map(|m| material(m, &mut t))
        .collect();
    let mut bones = bones(&model.skeleton, &mut t, &mut report);
    let frames = match animation {
        Some(animation) => keys(
            animation,
            &model.skeleton,
            &mut bones,
            fps,
            &mut t,
            &mut report,
        ),
        None => DEFAULT_FRAMES,
    };
    if animation.is_some_and(|a| a.looping) {
        report.loss(
            "looping",
            "the loop flag cannot be stored in MilkShape ASCII",
        );
    }
    if model.animations.len() > 1 {
        report.loss(
            "animations",
            format!(
                "MilkShape ASCII holds one timeline; {} animations after the first were dropped",
                model.animations.len() - 1
            ),
        );
    }
    if model.comment.is_some() {
        report.loss("comment", "the model comment is not written");
    }
    tally_losses(&t, &mut report);
    let file = File {
        blocks: vec![
            Block::Frames(frames),
            Block::Frame(1),
            Block::Meshes(meshes),
            Block::Materials(materials),
            Block::Bones(bones),
        ],
        damaged_tail: Vec::new(),
    };
    Ok((file, report))
}

/// Name bytes that can stand between quotes on one line.
fn name(text: &str, t: &mut Tally) -> Vec<u8> {
    let mut bytes = encode_name_8bit(text);
    let mut changed = false;
    for b in &mut bytes {
        if matches!(*b, b'"' | b'\n' | b'\r') {
            *b = if *b == b'"' { b'\'' } else { b' ' };
            changed = true;
        }
    }
    t.renamed += usize::from(changed);
    bytes
}

/// Finite values; anything else becomes 0 (the reader could not read it back).
fn finite<const N: usize>(values: [f32; N], t: &mut Tally) -> [f32; N] {
    values.map(|v| {
        if v.is_finite() {
            v
        } else {
            t.non_finite += 1;
            0.0
        }
    })
}

fn mesh(m: &Mesh, model: &Model, t: &mut Tally) -> file::Mesh {
    let joints = model.skeleton.len();
    let material = match m.material {
        Some(id) if id.index() < model.materials.len() => id.0 as i32,
        Some(_) => {
            t.bad_materials += 1;
            -1
        }
        None => -1,
    };
    if m.has_colors {
        t.colored_meshes += 1;
    }
    let mut vertices = Vec::new();
    let mut vertex_index: HashMap<([u32; 3], [u32; 2], i32), i32> = HashMap::new();
    let mut record_of = Vec::with_capacity(m.vertices.len());
    for v in &m.vertices {
        let mut influences: Vec<_> = v.influences().collect();
        if influences.len() > 1 {
            t.multi_weight += 1;
        }
        // Largest weight first; equal weights keep slot order.
        influences.sort_by(|a, b| b.1.total_cmp(&a.1));
        let bone = match influences.first() {
            Some((joint, _)) if joint.index() < joints => joint.0 as i32,
            Some(_) => {
                t.bad_bones += 1;
                -1
            }
            None => -1,
        };
        let record = file::Vertex {
            flags: 0,
            position: finite(v.position.to_array(), t),
            uv: finite(v.uv.to_array(), t),
            bone,
        };
        let key = (
            record.position.map(f32::to_bits),
            record.uv.map(f32::to_bits),
            bone,
        );
        let index = *vertex_index.entry(key).or_insert_with(|| {
            vertices.push(record);
            vertices.len() as i32 - 1
        });
        record_of.push(index);
    }
    let mut normals = Vec::new();
    let mut normal_index: HashMap<[u32; 3], i32> = HashMap::new();
    let mut triangles = Vec::with_capacity(m.triangles.len());
    for tri in &m.triangles {
        let Some(corners) = tri
            .iter()
            .map(|&i| m.vertices.get(i as usize).zip(record_of.get(i as usize)))
            .collect::<Option<Vec<_>>>()
        else {
            t.bad_triangles += 1;
            continue;
        };
        let mut out = Triangle::default();
        for (c, (vertex, &record)) in corners.into_iter().enumerate() {
            let normal = finite(vertex.normal.to_array(), t);
            out.vertices[c] = record;
            out.normals[c] = *normal_index
                .entry(normal.map(f32::to_bits))
                .or_insert_with(|| {
                    normals.push(normal);
                    normals.len() as i32 - 1
                });
        }
        triangles.push(out);
    }
    file::Mesh {
        name: name(&m.name, t),
        flags: 0,
        material,
        vertices,
        normals,
        triangles,
    }
}

fn material(m: &rigport_model_core::Material, t: &mut Tally) -> file::Material {
    let path =
        |p: &Option<String>, t: &mut Tally| p.as_deref().map(|p| name(p, t)).unwrap_or_default();
    file::Material {
        name: name(&m.name, t),
        ambient: finite(m.ambient.to_array(), t),
        diffuse: finite(m.diffuse.to_array(), t),
        specular: finite(m.specular.to_array(), t),
        emissive: finite(m.emissive.to_array(), t),
        shininess: finite([m.shininess], t)[0],
        transparency: finite([m.opacity], t)[0],
        texture: path(&m.texture, t),
        alpha_map: path(&m.alpha_map, t),
    }
}

fn bones(skeleton: &Skeleton, t: &mut Tally, report: &mut Report) -> Vec<Bone> {
    let mut scaled = 0;
    let mut seen = std::collections::HashSet::new();
    let mut duplicates = 0;
    let mut missing_parents = 0;
    let bones = skeleton
        .joints
        .iter()
        .map(|j| {
            if (j.scale - rigport_model_core::glam::Vec3::ONE)
                .abs()
                .max_element()
                > 1e-6
            {
                scaled += 1;
            }
            if !seen.insert(j.name.as_str()) {
                duplicates += 1;
            }
            let parent_joint = j.parent.and_then(|p| skeleton.get(p));
            if j.parent.is_some() && parent_joint.is_none() {
                missing_parents += 1;
            }
            let parent = parent_joint.map(|p| name(&p.name, t)).unwrap_or_default();
            Bone {
                name: name(&j.name, t),
                parent,
                flags: 0,
                position: finite(j.translation.to_array(), t),
                rotation: finite(quat_to_euler(j.rotation).to_array(), t),
                position_keys: Vec::new(),
                rotation_keys: Vec::new(),
            }
        })
        .collect();
    if scaled > 0 {
        report.loss(
            "joint-scale",
            format!("{scaled} joints have a bind scale other than 1, which MilkShape cannot hold"),
        );
    }
    if missing_parents > 0 {
        report.warn(
            "missing-parent",
            format!("{missing_parents} joints name a parent that does not exist; written as roots"),
        );
    }
    if duplicates > 0 {
        report.loss(
            "duplicate-joint-names",
            format!("{duplicates} joints share a name with an earlier joint; parents are found by name, so children of the later ones attach to the first"),
        );
    }
    bones
}

/// Writes the animation's tracks as relative keys; returns the `Frames:` value.
fn keys(
    animation: &Animation,
    skeleton: &Skeleton,
    bones: &mut [Bone],
    fps: f32,
    t: &mut Tally,
    report: &mut Report,
) -> i32 {
    let mut last_frame = animation.duration * fps;
    let (mut scale_keys, mut stray_tracks) = (0, 0);
    let mut done = vec![false; bones.len()];
    for track in &animation.tracks {
        let (Some(joint), Some(bone)) = (
            skeleton.get(track.joint),
            bones.get_mut(track.joint.index()),
        ) else {
            stray_tracks += 1;
            continue;
        };
        if std::mem::replace(&mut done[track.joint.index()], true) {
            stray_tracks += 1;
            continue;
        }
        scale_keys += track.scales.len();
        let rot = quat_to_euler(joint.rotation);
        bone.position_keys = track
            .translations
            .iter()
            .map(|k| file::Key {
                frame: finite([k.time * fps], t)[0],
                value: finite(
                    relative_translation(joint.translation, rot, k.value).to_array(),
                    t,
                ),
            })
            .collect();
        bone.rotation_keys = track
            .rotations
            .iter()
            .map(|k| file::Key {
                frame: finite([k.time * fps], t)[0],
                value: finite(relative_rotation(rot, k.value).to_array(), t),
            })
            .collect();
        let keys = bone.position_keys.iter().chain(&bone.rotation_keys);
        last_frame = keys.map(|k| k.frame).fold(last_frame, f32::max);
    }
    if scale_keys > 0 {
        report.loss("scale-keys", format!("{scale_keys} scale keys were dropped; MilkShape keys hold translation and rotation only"));
    }
    if stray_tracks > 0 {
        report.loss(
            "stray-tracks",
            format!(
                "{stray_tracks} tracks name a missing joint or repeat a joint and were dropped"
            ),
        );
    }
    if animation.interpolation != Interpolation::Linear {
        report.loss(
            "interpolation",
            format!("{:?} interpolation becomes linear", animation.interpolation),
        );
    }
    whole_frames(last_frame)
}

/// The frame count covering `frames`: rounded when float error put it a hair off a whole
/// frame (25/24·24 = 25.000002), else rounded up; at least 1.
fn whole_frames(frames: f32) -> i32 {
    if !frames.is_finite() {
        return 1;
    }
    let rounded = frames.round();
    let whole = if (frames - rounded).abs() < 1e-3 {
        rounded
    } else {
        frames.ceil()
    };
    whole.clamp(1.0, i32::MAX as f32) as i32
}

fn tally_losses(t: &Tally, report: &mut Report) {
    loss_if_any(
        report,
        "names-changed",
        t.renamed,
        format!(
            "{} names held a quote or line break, replaced by ' or a space",
            t.renamed
        ),
    );
    loss_if_any(
        report,
        "non-finite",
        t.non_finite,
        format!("{} non-finite numbers were written as 0", t.non_finite),
    );
    loss_if_any(
        report,
        "weights-dropped",
        t.multi_weight,
        format!(
            "{} vertices had several joint weights; kept the largest (MilkShape ASCII has one bone per vertex)",
            t.multi_weight
        ),
    );
    loss_if_any(
        report,
        "invalid-bone",
        t.bad_bones,
        format!(
            "{} vertices named a joint that does not exist and are not skinned",
            t.bad_bones
        ),
    );
    loss_if_any(
        report,
        "invalid-material",
        t.bad_materials,
        format!(
            "{} meshes named a material that does not exist and have none",
            t.bad_materials
        ),
    );
    loss_if_any(
        report,
        "invalid-triangles",
        t.bad_triangles,
        format!(
            "{} triangles with out-of-range indices were dropped",
            t.bad_triangles
        ),
    );
    loss_if_any(
        report,
        "vertex-colors",
        t.colored_meshes,
        format!("vertex colours of {} meshes were dropped", t.colored_meshes),
    );
}
