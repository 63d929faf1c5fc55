//! IQM to the neutral model.

use super::ConvertOptions;
use crate::error::Error;
use crate::file::{ArrayKind, File, Format, VertexArray};
use crate::records::Pose;
use rigport_model_core::glam::{Quat, Vec2, Vec3, Vec4};
use rigport_model_core::text::decode_name;
use rigport_model_core::{
    Animation, Joint, JointId, Key, Material, MaterialId, Mesh, Model, Report, Track, UpAxis,
    Vertex,
};
use std::collections::HashMap;

/// Converts a file to the neutral model.
///
/// Triangles are rewound from IQM's clockwise front faces (the winding of the IQE they are
/// compiled from) to glTF's counter-clockwise ones. Blend indexes and weights are read in
/// any integer or float format (integer weights normalized: ubyte ÷ 255, …), joints out of
/// range dropped, weights renormalized. Each animation becomes keys at `k / framerate`
/// seconds from the dequantized frames (`offset + value × scale`); a channel group the
/// masks leave constant becomes one key. A looping animation of `N` frames lasts `N /
/// framerate` (it blends back to frame 0); framerate 0 means
/// [`ConvertOptions::default_fps`]. A file with poses but no joints (an animation for
/// a skeleton defined elsewhere) gets placeholder joints `joint0…`, parented as its poses.
pub fn to_model(file: &File, options: &ConvertOptions) -> Result<(Model, Report), Error> {
    let mut report = Report::default();
    let mut model = Model {
        up: UpAxis::Z,
        ..Model::default()
    };
    add_joints(file, &mut model, &mut report);
    add_meshes(file, &mut model, &mut report)?;
    add_animations(file, options, &mut model, &mut report)?;
    if !file.comment.is_empty() {
        model.comment = Some(decode_name(rigport_model_core::text::until_nul(
            &file.comment,
        )));
    }
    report_losses(file, &mut report);
    Ok((model, report))
}

fn name_at(file: &File, offset: u32, what: &str, bad: &mut usize) -> String {
    match file.text_at(offset) {
        Some(name) => decode_name(name),
        None => {
            *bad += 1;
            let _ = what;
            String::new()
        }
    }
}

fn quat(v: [f32; 4]) -> Quat {
    Vec4::from_array(v)
        .try_normalize()
        .map_or(Quat::IDENTITY, Quat::from_vec4)
}

fn add_joints(file: &File, model: &mut Model, report: &mut Report) {
    let mut bad_names = 0;
    let mut bad_parents = 0;
    let n = file.joints.len();
    let parent_of = |parent: i32, index: usize, bad: &mut usize| -> Option<JointId> {
        if parent < 0 {
            return None;
        }
        let p = parent as usize;
        if p >= n.max(file.poses.len()) || p == index {
            *bad += 1;
            return None;
        }
        JointId::from_index(p)
    };
    for (i, joint) in file.joints.iter().enumerate() {
        model.skeleton.joints.push(Joint {
            name: name_at(file, joint.name, "joint", &mut bad_names),
            parent: parent_of(joint.parent, i, &mut bad_parents),
            translation: Vec3::from_array(joint.translate),
            rotation: quat(joint.rotate),
            scale: Vec3::from_array(joint.scale),
        });
    }
    if file.joints.is_empty() && !file.poses.is_empty() {
        for (i, pose) in file.poses.iter().enumerate() {
            let mut joint = Joint::new(format!("joint{i}"));
            joint.parent = parent_of(pose.parent, i, &mut bad_parents);
            model.skeleton.joints.push(joint);
        }
        report.warn(
            rigport_model_core::codes::PLACEHOLDER_JOINTS,
            format!(
                "the file animates {} joints it does not define (an animation-only file); placeholder joints created",
                file.poses.len()
            ),
        );
    }
    if bad_names > 0 {
        report.warn(
            rigport_model_core::codes::BAD_NAME,
            format!("{bad_names} joint names point outside the text table; left empty"),
        );
    }
    if bad_parents > 0 {
        report.warn(
            rigport_model_core::codes::BAD_PARENT,
            format!("{bad_parents} joints or poses name a parent that does not exist; made roots"),
        );
    }
}

/// Every component of an array as `f64`, `normalized` as OpenGL would for integers.
struct Decoded {
    values: Vec<f32>,
    size: usize,
}

impl Decoded {
    fn new(array: &VertexArray, normalized: bool) -> Option<Self> {
        let format = array.format()?;
        let size = array.size as usize;
        let width = format.size();
        let values = if format == Format::Float {
            array
                .data
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        } else {
            array
                .data
                .chunks_exact(width)
                .map(|c| {
                    if normalized {
                        format.normalized(c) as f32
                    } else {
                        format.value(c) as f32
                    }
                })
                .collect()
        };
        Some(Self { values, size })
    }

    /// Component `c` of vertex `v`, or `default` when the array has fewer components.
    fn get(&self, v: usize, c: usize, default: f32) -> f32 {
        if c >= self.size {
            return default;
        }
        self.values
            .get(v * self.size + c)
            .copied()
            .unwrap_or(default)
    }
}

#[derive(Default)]
struct SkinCounts {
    out_of_range: usize,
    renormalized: usize,
    without_skeleton: usize,
}

fn add_meshes(file: &File, model: &mut Model, report: &mut Report) -> Result<(), Error> {
    // The vertices the arrays hold: `num_vertexes` in a consistent file. A header that
    // claims more (with no array to back it) must not size anything.
    let held = file
        .vertex_arrays
        .iter()
        .filter_map(|a| {
            let width = a.format()?.size() * a.size as usize;
            (width > 0).then(|| a.data.len() / width)
        })
        .max()
        .unwrap_or(0);
    let total = (file.header.num_vertexes as usize).min(held);
    let decoded = |kind: ArrayKind, normalized: bool| {
        file.array(kind).and_then(|a| Decoded::new(a, normalized))
    };
    let positions = decoded(ArrayKind::Position, false);
    let texcoords = decoded(ArrayKind::TexCoord, false);
    // Integer normals are normalized as OpenGL would (floats are unchanged).
    let normals = decoded(ArrayKind::Normal, true);
    let colors = decoded(ArrayKind::Color, true);
    let indexes = decoded(ArrayKind::BlendIndexes, false);
    let weights = decoded(ArrayKind::BlendWeights, true);
    if positions.is_none() && total > 0 && !file.meshes.is_empty() {
        report.warn(
            rigport_model_core::codes::NO_POSITIONS,
            format!("the file has {total} vertices but no position array; positions are zero"),
        );
    }
    if normals.is_none() && !file.triangles.is_empty() {
        report.info(
            rigport_model_core::codes::NO_NORMALS,
            "the file has no normal array; normals are zero",
        );
    }
    let mut material_names: Vec<u32> = Vec::new();
    let mut bad_names = 0;
    let mut skin = SkinCounts::default();
    let mut dropped_triangles = 0;
    let mut outside = 0;
    let joints = model.skeleton.joints.len();
    let skinned = indexes.is_some() && weights.is_some();
    for (m, record) in file.meshes.iter().enumerate() {
        // Ranges past the arrays are cut to what the file holds, with a warning.
        let first = (record.first_vertex as usize).min(total);
        let count = (record.num_vertexes as usize).min(total - first);
        let first_tri = (record.first_triangle as usize).min(file.triangles.len());
        let tri_count = (record.num_triangles as usize).min(file.triangles.len() - first_tri);
        if count != record.num_vertexes as usize || tri_count != record.num_triangles as usize {
            report.warn(
                rigport_model_core::codes::MESH_OUT_OF_RANGE,
                format!(
                    "mesh {m} uses vertices {}+{} and triangles {}+{} of the {total} and {} the file holds; cut to those",
                    record.first_vertex,
                    record.num_vertexes,
                    record.first_triangle,
                    record.num_triangles,
                    file.triangles.len()
                ),
            );
        }
        let mut mesh = Mesh::new(name_at(file, record.name, "mesh", &mut bad_names));
        let material = name_at(file, record.material, "material", &mut bad_names);
        if !material.is_empty() {
            let id = match material_names.iter().position(|&o| o == record.material) {
                Some(id) => id,
                None => {
                    material_names.push(record.material);
                    model.materials.push(Material::named_as_texture(material));
                    material_names.len() - 1
                }
            };
            mesh.material = MaterialId::from_index(id);
        }
        mesh.has_uvs = texcoords.is_some();
        mesh.has_colors = colors.is_some();
        let make_vertex = |v: usize, skin: &mut SkinCounts| {
            let mut vertex = Vertex::default();
            if let Some(p) = &positions {
                vertex.position = Vec3::new(p.get(v, 0, 0.0), p.get(v, 1, 0.0), p.get(v, 2, 0.0));
            }
            if let Some(t) = &texcoords {
                vertex.uv = Vec2::new(t.get(v, 0, 0.0), t.get(v, 1, 0.0));
            }
            if let Some(n) = &normals {
                vertex.normal = Vec3::new(n.get(v, 0, 0.0), n.get(v, 1, 0.0), n.get(v, 2, 0.0));
            }
            if let Some(c) = &colors {
                vertex.color = Vec4::new(
                    c.get(v, 0, 1.0),
                    c.get(v, 1, 1.0),
                    c.get(v, 2, 1.0),
                    c.get(v, 3, 1.0),
                );
            }
            if let (Some(i), Some(w)) = (&indexes, &weights) {
                skin_vertex(&mut vertex, v, i, w, joints, skin);
            }
            vertex
        };
        mesh.vertices.reserve_exact(count);
        for v in first..first + count {
            mesh.vertices.push(make_vertex(v, &mut skin));
        }
        // Triangles index the whole file's vertices. Engines draw them so, and real files
        // (Red Eclipse's propeller, compiled by the SDK) have meshes whose triangles use
        // another mesh's vertices: those vertices are copied into this mesh.
        let mut borrowed: HashMap<usize, u32> = HashMap::new();
        mesh.triangles.reserve_exact(tri_count);
        for t in &file.triangles[first_tri..first_tri + tri_count] {
            if t.iter().any(|&i| i as usize >= total) {
                dropped_triangles += 1;
                continue;
            }
            let local = t.map(|i| {
                let i = i as usize;
                match i.checked_sub(first).filter(|&l| l < count) {
                    Some(l) => l as u32,
                    None => *borrowed.entry(i).or_insert_with(|| {
                        mesh.vertices.push(make_vertex(i, &mut skin));
                        (mesh.vertices.len() - 1) as u32
                    }),
                }
            });
            // Clockwise in IQM, counter-clockwise in the model.
            mesh.triangles.push([local[0], local[2], local[1]]);
        }
        outside += borrowed.len();
        model.meshes.push(mesh);
    }
    if skinned && joints == 0 && total > 0 {
        skin.without_skeleton = total;
    }
    if bad_names > 0 {
        report.warn(
            rigport_model_core::codes::BAD_NAME,
            format!("{bad_names} mesh or material names point outside the text table; left empty"),
        );
    }
    if outside > 0 {
        report.warn(
            rigport_model_core::codes::VERTICES_OUTSIDE_MESH,
            format!(
                "triangles use {outside} vertices outside their mesh's vertex range; copied into the mesh"
            ),
        );
    }
    if dropped_triangles > 0 {
        report.loss(
            rigport_model_core::codes::TRIANGLES_OUT_OF_RANGE,
            format!("{dropped_triangles} triangles use vertices past the end of the vertex arrays; dropped"),
        );
    }
    if skin.out_of_range > 0 {
        report.loss(
            rigport_model_core::codes::WEIGHT_JOINT_OUT_OF_RANGE,
            format!(
                "{} vertex weights name joints that do not exist; dropped",
                skin.out_of_range
            ),
        );
    }
    if skin.renormalized > 0 {
        report.info(
            rigport_model_core::codes::WEIGHTS_RENORMALIZED,
            format!(
                "{} vertices had weights not summing to 1; renormalized",
                skin.renormalized
            ),
        );
    }
    if skin.without_skeleton > 0 {
        report.loss(
            rigport_model_core::codes::WEIGHTS_WITHOUT_SKELETON,
            format!(
                "{} vertices carry blend weights but the file has no joints; dropped",
                skin.without_skeleton
            ),
        );
    }
    Ok(())
}

fn skin_vertex(
    vertex: &mut Vertex,
    v: usize,
    indexes: &Decoded,
    weights: &Decoded,
    joints: usize,
    counts: &mut SkinCounts,
) {
    let mut slot = 0;
    let mut total = 0.0;
    for k in 0..indexes.size.min(weights.size) {
        let weight = weights.get(v, k, 0.0);
        if weight <= 0.0 || !weight.is_finite() {
            continue;
        }
        let joint = indexes.get(v, k, -1.0);
        if joint < 0.0 || joint >= joints as f32 || joint.fract() != 0.0 {
            if joints > 0 {
                counts.out_of_range += 1;
            }
            continue;
        }
        if slot == 4 {
            break;
        }
        vertex.joints[slot] = JointId(joint as u32);
        vertex.weights[slot] = weight;
        total += weight;
        slot += 1;
    }
    if total > 0.0 && (total - 1.0).abs() > 1e-3 {
        counts.renormalized += 1;
        for w in &mut vertex.weights {
            *w /= total;
        }
    }
}

/// Where each pose's values start within a frame, and how many values a frame holds.
fn pose_starts(poses: &[Pose]) -> (Vec<usize>, usize) {
    let mut starts = Vec::with_capacity(poses.len());
    let mut at = 0;
    for pose in poses {
        starts.push(at);
        at += (pose.channelmask & 0x3ff).count_ones() as usize;
    }
    (starts, at)
}

fn add_animations(
    file: &File,
    options: &ConvertOptions,
    model: &mut Model,
    report: &mut Report,
) -> Result<(), Error> {
    if file.anims.is_empty() {
        return Ok(());
    }
    let (starts, channels) = pose_starts(&file.poses);
    let stored = file.header.num_framechannels as usize;
    if channels != stored {
        // Values a mask selects beyond the frame's stride read as 0 (see `pose_track`).
        report.warn(
            rigport_model_core::codes::CHANNEL_COUNT,
            format!(
                "the poses' channel masks select {channels} values per frame, the header says {stored}; values past the frame read as 0"
            ),
        );
    }
    // Frames the stored values hold (all of `num_frames` in a consistent file).
    let frames = (file.header.num_frames as usize).min(
        file.frames
            .len()
            .checked_div(stored)
            .unwrap_or(file.header.num_frames as usize),
    );
    let joints = model.skeleton.joints.len();
    if file.poses.len() > joints {
        report.loss(
            rigport_model_core::codes::EXTRA_POSES,
            format!(
                "{} poses beyond the {joints} joints dropped",
                file.poses.len() - joints
            ),
        );
    }
    let mut defaulted = 0;
    let mut bad_names = 0;
    for (a, anim) in file.anims.iter().enumerate() {
        let first = (anim.first_frame as usize).min(frames);
        let mut count = anim.num_frames as usize;
        if first.checked_add(count).is_none_or(|end| end > frames) {
            report.warn(
                rigport_model_core::codes::FRAMES_OUT_OF_RANGE,
                format!(
                    "animation {a} uses frames {}..{} of the {frames} the file holds; cut to those",
                    anim.first_frame,
                    u64::from(anim.first_frame) + u64::from(anim.num_frames)
                ),
            );
            count = frames - first;
        }
        let fps = if anim.framerate > 0.0 && anim.framerate.is_finite() {
            anim.framerate
        } else {
            defaulted += 1;
            options.default_fps
        };
        let mut out = Animation::new(name_at(file, anim.name, "animation", &mut bad_names), fps);
        out.looping = anim.looping();
        out.duration = if out.looping {
            count as f32 / fps
        } else {
            count.saturating_sub(1) as f32 / fps
        };
        for (p, pose) in file.poses.iter().enumerate().take(joints) {
            let bind_scale = model.skeleton.joints[p].scale;
            let track = pose_track(file, pose, p, starts[p], first, count, fps, bind_scale);
            if !track.is_empty() {
                out.tracks.push(track);
            }
        }
        model.animations.push(out);
    }
    if defaulted > 0 {
        report.warn(
            rigport_model_core::codes::DEFAULT_FRAMERATE,
            format!(
                "{defaulted} animations have framerate 0; {} frames per second assumed",
                options.default_fps
            ),
        );
    }
    if bad_names > 0 {
        report.warn(
            rigport_model_core::codes::BAD_NAME,
            format!("{bad_names} animation names point outside the text table; left empty"),
        );
    }
    Ok(())
}

const TRANSLATION: u32 = 0b111;
const ROTATION: u32 = 0b1111 << 3;
const SCALE: u32 = 0b111 << 7;

/// The keys of one pose over frames `first..first + count`. A channel group no mask bit
/// varies is one key at 0 (its value never changes), which also keeps the keys proportional
/// to the stored values.
#[allow(clippy::too_many_arguments)]
fn pose_track(
    file: &File,
    pose: &Pose,
    p: usize,
    start: usize,
    first: usize,
    count: usize,
    fps: f32,
    bind_scale: Vec3,
) -> Track {
    let channels = file.header.num_framechannels as usize;
    let value_at = |f: usize| -> [f32; 10] {
        let frame_start = (first + f) * channels;
        let frame_end = frame_start + channels;
        let mut out = pose.channeloffset;
        let mut at = frame_start + start;
        for (c, value) in out.iter_mut().enumerate() {
            if pose.channelmask & (1 << c) != 0 {
                let stored = if at < frame_end {
                    file.frames.get(at).copied().unwrap_or(0)
                } else {
                    0
                };
                at += 1;
                *value += f32::from(stored) * pose.channelscale[c];
            }
        }
        out
    };
    let mut track = Track::new(JointId(p as u32));
    if count == 0 {
        return track;
    }
    // With no stored values per frame, a mask cannot vary anything.
    let varying = if channels == 0 { 0 } else { pose.channelmask };
    let keys = |mask: u32| {
        if varying & mask != 0 { count } else { 1 }
    };
    track.translations.reserve_exact(keys(TRANSLATION));
    track.rotations.reserve_exact(keys(ROTATION));
    let scale_varies = varying & SCALE != 0;
    let constant_scale = Vec3::new(
        pose.channeloffset[7],
        pose.channeloffset[8],
        pose.channeloffset[9],
    );
    let any_frame = varying & 0x3ff != 0;
    for f in 0..keys(TRANSLATION).max(keys(ROTATION)).max(keys(SCALE)) {
        let v = if any_frame {
            value_at(f)
        } else {
            pose.channeloffset
        };
        let time = f as f32 / fps;
        if f < keys(TRANSLATION) {
            track
                .translations
                .push(Key::new(time, Vec3::new(v[0], v[1], v[2])));
        }
        if f < keys(ROTATION) {
            track
                .rotations
                .push(Key::new(time, quat([v[3], v[4], v[5], v[6]])));
        }
        if scale_varies {
            track
                .scales
                .push(Key::new(time, Vec3::new(v[7], v[8], v[9])));
        }
    }
    if !scale_varies && constant_scale != bind_scale {
        track.scales.push(Key::new(0.0, constant_scale));
    }
    let _ = p;
    track
}

fn report_losses(file: &File, report: &mut Report) {
    let mut custom = Vec::new();
    for array in &file.vertex_arrays {
        let n = file.header.num_vertexes;
        match array.kind() {
            ArrayKind::Tangent => report.loss(
                rigport_model_core::codes::TANGENTS,
                format!("{n} tangents cannot be carried (from_model computes them again)"),
            ),
            ArrayKind::Custom(name) => custom.push(format!(
                "`{}`",
                file.text_at(name).map(decode_name).unwrap_or_default()
            )),
            ArrayKind::Reserved(kind) => custom.push(format!("reserved type {kind}")),
            _ => {}
        }
        if array.format().is_none() {
            report.loss(
                rigport_model_core::codes::UNKNOWN_FORMAT,
                format!(
                    "a vertex array of unknown format {} cannot be read",
                    array.format
                ),
            );
        }
        if array.flags != 0 {
            report.loss(
                rigport_model_core::codes::VERTEX_ARRAY_FLAGS,
                format!("vertex array flags {:#x} cannot be carried", array.flags),
            );
        }
    }
    if !custom.is_empty() {
        report.loss(
            rigport_model_core::codes::CUSTOM_ARRAYS,
            format!(
                "{} custom vertex arrays cannot be carried: {}",
                custom.len(),
                custom.join(", ")
            ),
        );
    }
    if file.adjacency.is_some() {
        report.info(
            rigport_model_core::codes::ADJACENCY,
            "triangle adjacency is not kept in the model (from_model computes it again)",
        );
    }
    if file.bounds.is_some() {
        report.info(
            rigport_model_core::codes::BOUNDS,
            "per-frame bounds are not kept in the model (from_model computes them again)",
        );
    }
    if !file.extensions.is_empty() {
        report.loss(
            rigport_model_core::codes::EXTENSIONS,
            format!("{} extensions cannot be carried", file.extensions.len()),
        );
    }
    if file.header.flags != 0 {
        report.loss(
            rigport_model_core::codes::HEADER_FLAGS,
            format!("header flags {:#x} cannot be carried", file.header.flags),
        );
    }
    let loop_bits = file.anims.iter().filter(|a| a.flags & !1 != 0).count();
    if loop_bits > 0 {
        report.loss(
            rigport_model_core::codes::ANIMATION_FLAGS,
            format!("{loop_bits} animations carry unknown flag bits; dropped"),
        );
    }
}
