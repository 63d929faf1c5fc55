//! Model → file: split unified vertices back into vertex records and a normal list, keep
//! one bone per vertex, turn absolute local transforms at seconds into relative keys at
//! frame numbers.

use super::{ConvertOptions, DEFAULT_FPS, loss_if_any};
use crate::Error;
use crate::file::{self, Block, Bone, File, Triangle};
use rigport_anim::euler::quat_to_euler_near_pole_precise;
use rigport_anim::milkshape::limits::{
    MAX_GROUPS, MAX_JOINTS, MAX_MATERIALS, MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_TRIANGLES,
    MAX_VERTICES,
};
use rigport_anim::milkshape::{
    cut_name, relative_rotation, relative_translation, report_cut_names, timeline_animation,
};
use rigport_model_core::text::encode_name_8bit;
use rigport_model_core::{Animation, Interpolation, Mesh, Model, Report, Skeleton, TooMany, codes};
use std::collections::HashMap;

pub(crate) use rigport_anim::milkshape::DEFAULT_FRAMES;

/// Counts of what could not be carried, reported once per kind at the end.
#[derive(Default)]
struct Tally {
    renamed: usize,
    cut: usize,
    first_cut: Option<String>,
    non_finite: usize,
    multi_weight: usize,
    colored_meshes: usize,
}

/// Converts the neutral model to a file.
///
/// Vertex records are the distinct `(position, uv, bone)` triples of a mesh's unified
/// vertices in first-use order, normals the distinct corner normals; each vertex keeps only
/// its largest joint weight (MilkShape ASCII's limit: one bone per vertex).
///
/// MilkShape reads an ASCII file into the same structures as a binary one, so the writer
/// keeps the same limits (`rigport_anim::milkshape::limits`): more than 255 meshes, 128
/// materials, 128 bones, 65534 vertex records or 65534 triangles is an error; names longer
/// than 31 bytes (paths 127) are cut, reported as `name-truncated`. Only the first
/// animation is written, every other one reported lost by name, as the binary writer does;
/// of several tracks for one joint only the first. A model that refers to something it
/// does not have is refused ([`Model::check_references`]; the error names the first
/// problem).
pub fn from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    if let Some(problem) = model.check_references().into_iter().next() {
        return Err(Error::from(problem));
    }
    let count = |what, count: usize, max: usize| {
        TooMany::check("MilkShape ASCII", what, count, max).map_err(Error::from)
    };
    count("meshes", model.meshes.len(), MAX_GROUPS)?;
    count("materials", model.materials.len(), MAX_MATERIALS)?;
    count("bones", model.skeleton.len(), MAX_JOINTS)?;
    count("triangles", model.triangle_count(), MAX_TRIANGLES)?;
    let mut report = Report::default();
    let animation = timeline_animation(&model.animations, &mut report);
    let fps = options.fps(animation.map(|a| a.fps))?;
    let mut t = Tally::default();

    let mut meshes = Vec::with_capacity(model.meshes.len());
    let mut records = 0usize;
    for m in &model.meshes {
        let mesh = mesh(m, &mut t);
        records += mesh.vertices.len();
        // Checked as meshes are made: a model far past the limit stops early.
        count("vertices", records, MAX_VERTICES)?;
        meshes.push(mesh);
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
    if animation.is_some() && fps != DEFAULT_FPS {
        report.loss(
            codes::FRAMERATE,
            format!(
                "MilkShape ASCII stores no frame rate; its keys are numbered at {fps} fps, and readers assume {DEFAULT_FPS} (MilkShape's default, and rigport's)"
            ),
        );
    }
    if animation.is_some_and(|a| a.looping) {
        report.loss(
            codes::LOOPING,
            "the loop flag cannot be stored in MilkShape ASCII",
        );
    }
    if model.comment.is_some() {
        report.loss(codes::COMMENT, "the model comment is not written");
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

/// Name bytes that can stand between quotes on one line, cut to MilkShape's limit.
fn name(text: &str, t: &mut Tally) -> Vec<u8> {
    limited(text, MAX_NAME_BYTES, t)
}

/// A texture path as [`name`] writes a name, with the longer path limit.
fn path(text: &str, t: &mut Tally) -> Vec<u8> {
    limited(text, MAX_PATH_BYTES, t)
}

fn limited(text: &str, limit: usize, t: &mut Tally) -> Vec<u8> {
    let mut bytes = encode_name_8bit(text);
    if cut_name(&mut bytes, limit) {
        t.cut += 1;
        t.first_cut.get_or_insert_with(|| text.to_owned());
    }
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

fn mesh(m: &Mesh, t: &mut Tally) -> file::Mesh {
    // Materials and joints were checked to exist (`check_references`).
    let material = m.material.map_or(-1, |id| id.0 as i32);
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
        let bone = influences.first().map_or(-1, |(joint, _)| joint.0 as i32);
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
            // Unreachable: corners were checked to exist (`check_references`).
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
    let texture =
        |p: &Option<String>, t: &mut Tally| p.as_deref().map(|p| path(p, t)).unwrap_or_default();
    file::Material {
        name: name(&m.name, t),
        ambient: finite(m.ambient.to_array(), t),
        diffuse: finite(m.diffuse.to_array(), t),
        specular: finite(m.specular.to_array(), t),
        emissive: finite(m.emissive.to_array(), t),
        shininess: finite([m.shininess], t)[0],
        transparency: finite([m.opacity], t)[0],
        texture: texture(&m.texture, t),
        alpha_map: texture(&m.alpha_map, t),
    }
}

fn bones(skeleton: &Skeleton, t: &mut Tally, report: &mut Report) -> Vec<Bone> {
    let mut scaled = 0;
    let mut seen = std::collections::HashSet::new();
    let mut duplicates = 0;
    // Each name once: a parent's name is its bone's name (cut alike, counted once).
    let names: Vec<Vec<u8>> = skeleton.joints.iter().map(|j| name(&j.name, t)).collect();
    let bones = skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(index, j)| {
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
            // Parents were checked to exist (`check_references`).
            let parent = j
                .parent
                .and_then(|p| names.get(p.index()))
                .cloned()
                .unwrap_or_default();
            Bone {
                name: names.get(index).cloned().unwrap_or_default(),
                parent,
                flags: 0,
                position: finite(j.translation.to_array(), t),
                rotation: finite(quat_to_euler_near_pole_precise(j.rotation).to_array(), t),
                position_keys: Vec::new(),
                rotation_keys: Vec::new(),
            }
        })
        .collect();
    if scaled > 0 {
        report.loss(
            codes::JOINT_SCALE,
            format!("{scaled} joints have a bind scale other than 1, which MilkShape cannot hold"),
        );
    }
    if duplicates > 0 {
        report.loss(
            codes::DUPLICATE_JOINT_NAMES,
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
    let (mut scale_keys, mut repeated) = (0, 0);
    let mut done = vec![false; bones.len()];
    for track in &animation.tracks {
        // Track joints were checked to exist (`check_references`).
        let (Some(joint), Some(bone), Some(done)) = (
            skeleton.get(track.joint),
            bones.get_mut(track.joint.index()),
            done.get_mut(track.joint.index()),
        ) else {
            continue;
        };
        // The first track of a joint wins, as in `Animation::track`.
        if std::mem::replace(done, true) {
            repeated += 1;
            continue;
        }
        scale_keys += track.scales.len();
        let rot = quat_to_euler_near_pole_precise(joint.rotation);
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
        report.loss(codes::SCALE_KEYS, format!("{scale_keys} scale keys were dropped; MilkShape keys hold translation and rotation only"));
    }
    if repeated > 0 {
        report.loss(
            codes::TRACK_JOINT_DUPLICATE,
            format!(
                "{repeated} further tracks of an already animated joint in animation `{}` were dropped (the first track of a joint wins)",
                animation.name
            ),
        );
    }
    if animation.interpolation != Interpolation::Linear {
        report.loss(
            codes::INTERPOLATION,
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
    report_cut_names(t.cut, t.first_cut.as_deref(), report);
    loss_if_any(
        report,
        codes::NAMES_CHANGED,
        t.renamed,
        format!(
            "{} names held a quote or line break, replaced by ' or a space",
            t.renamed
        ),
    );
    loss_if_any(
        report,
        codes::NON_FINITE,
        t.non_finite,
        format!("{} non-finite numbers were written as 0", t.non_finite),
    );
    loss_if_any(
        report,
        codes::WEIGHTS_DROPPED,
        t.multi_weight,
        format!(
            "{} vertices had several joint weights; kept the largest (MilkShape ASCII's limit is 1 bone per vertex)",
            t.multi_weight
        ),
    );
    loss_if_any(
        report,
        codes::VERTEX_COLORS,
        t.colored_meshes,
        format!("vertex colours of {} meshes were dropped", t.colored_meshes),
    );
}
