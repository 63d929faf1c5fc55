//! Neutral model → file.

use super::ConvertOptions;
use crate::error::Error;
use crate::file::{Comments, File, Group, Joint as FileJoint, JointExtra, VertexExtra};
use crate::limits::{
    MAX_GROUPS, MAX_JOINTS, MAX_KEYS_PER_CHANNEL, MAX_MATERIALS, MAX_TRIANGLES, MAX_VERTICES,
};
use crate::records::{
    JointColor, Keyframe, Keyframer, Material as FileMaterial, ModelExtra, Triangle, Vertex,
    VertexExtraRecord,
};
use rigport_anim::euler::quat_to_euler_near_pole_precise;
use rigport_anim::milkshape::{
    DEFAULT_FPS, DEFAULT_FRAMES, StoredSkin, cut_name, encode_skin, relative_rotation,
    relative_translation, report_cut_names, skin_rounding, timeline_animation,
};
use rigport_model_core::glam::Vec3;
use rigport_model_core::text::encode_name_8bit;
use rigport_model_core::{
    Animation, Interpolation, Key, Material, Mesh, Model, Report, TooMany, codes,
};
use std::collections::HashMap;

/// Joint colour written into the joint extra block (the model has none).
const DEFAULT_JOINT_COLOR: [f32; 3] = [1.0, 1.0, 0.0];

/// Converts a model to a file with every trailing block, reporting what it cannot hold.
///
/// Unified vertices of a mesh that share position and skin become one vertex record; their
/// normals and texture coordinates go to the triangle corners. Fails when the model exceeds
/// a MilkShape limit (65534 vertices or triangles, 255 groups, 128 materials, 128 joints)
/// or refers to something it does not have ([`Model::check_references`]; the error names
/// the first problem).
///
/// A MilkShape file holds one timeline: the first animation is written and every other
/// one reported lost by name (`rigport_anim::milkshape::timeline_animation`, as the ASCII
/// writer does); `rigport_anim::concat` lays several on one timeline beforehand. Weights
/// are stored as whole percents: a vertex whose weights change by rounding is counted in a
/// `weights-rounded` loss.
///
/// Every joint gets keys: a channel the model does not animate gets one key at the first
/// frame holding the bind value (relative value 0). The pose is unchanged, so nothing is
/// reported; assimp, the importer most engines use, refuses a file with a joint without
/// keys ("aiAnimation::mNumChannels is 0"), and every real file gives every joint keys.
pub fn from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    if !matches!(options.vertex_extra_sub_version, 1..=3) {
        return Err(Error::InvalidOption(format!(
            "vertex extra subVersion {} (1, 2 or 3 can be written)",
            options.vertex_extra_sub_version
        )));
    }
    if let Some(problem) = model.check_references().into_iter().next() {
        return Err(problem.into());
    }
    check_limit("groups", model.meshes.len(), MAX_GROUPS)?;
    check_limit("materials", model.materials.len(), MAX_MATERIALS)?;
    check_limit("joints", model.skeleton.len(), MAX_JOINTS)?;
    check_limit("triangles", model.triangle_count(), MAX_TRIANGLES)?;
    let mut report = Report::default();
    let mut names = NameWriter::default();
    let materials = model
        .materials
        .iter()
        .map(|m| material(m, &mut names))
        .collect();
    let mut joints = joints(model, &mut names, &mut report);
    let mut geometry = Geometry::default();
    for (index, mesh) in model.meshes.iter().enumerate() {
        geometry.add_mesh(index, mesh, &mut names, &mut report)?;
    }
    check_limit("vertices", geometry.vertices.len(), MAX_VERTICES)?;
    geometry.report_rounding(&mut report);
    for vertex in &mut geometry.vertices {
        vertex.reference_count = 0;
    }
    for triangle in &geometry.triangles {
        for &v in &triangle.vertex_indices {
            if let Some(vertex) = geometry.vertices.get_mut(usize::from(v)) {
                vertex.reference_count = vertex.reference_count.saturating_add(1);
            }
        }
    }
    let keyframer = animation(model, &mut joints, &mut report);
    names.report(&mut report);
    let joint_count = joints.len();
    let file = File {
        version: 4,
        vertices: geometry.vertices,
        triangles: geometry.triangles,
        groups: geometry.groups,
        materials,
        keyframer,
        joints,
        comments: Some(Comments {
            sub_version: 1,
            model: model.comment.iter().map(|c| encode_name_8bit(c)).collect(),
            ..Comments::default()
        }),
        vertex_extra: Some(VertexExtra {
            sub_version: options.vertex_extra_sub_version,
            records: geometry.extras,
        }),
        joint_extra: Some(JointExtra {
            sub_version: 1,
            colors: vec![
                JointColor {
                    color: DEFAULT_JOINT_COLOR
                };
                joint_count
            ],
        }),
        model_extra: Some(ModelExtra {
            sub_version: 1,
            joint_size: 1.0,
            transparency_mode: 0,
            alpha_ref: 0.5,
        }),
        tail: Vec::new(),
    };
    Ok((file, report))
}

/// The format as the limit errors name it.
const FORMAT: &str = "MilkShape 3D";

fn check_limit(what: &'static str, count: usize, max: usize) -> Result<(), Error> {
    Ok(TooMany::check(FORMAT, what, count, max)?)
}

/// Encodes names into fixed arrays, counting the ones that had to be cut.
#[derive(Default)]
struct NameWriter {
    truncated: usize,
    first: Option<String>,
}

impl NameWriter {
    /// The name as a NUL-terminated array of `N` bytes (Latin-1 when it fits, else UTF-8),
    /// cut to the `N − 1` bytes MilkShape's limit allows.
    fn array<const N: usize>(&mut self, name: &str) -> [u8; N] {
        let mut bytes = encode_name_8bit(name);
        if cut_name(&mut bytes, N - 1) {
            self.truncated += 1;
            self.first.get_or_insert_with(|| name.to_owned());
        }
        let mut out = [0u8; N];
        out[..bytes.len()].copy_from_slice(&bytes);
        out
    }

    fn report(&self, report: &mut Report) {
        report_cut_names(self.truncated, self.first.as_deref(), report);
    }
}

fn material(m: &Material, names: &mut NameWriter) -> FileMaterial {
    FileMaterial {
        name: names.array(&m.name),
        ambient: m.ambient.to_array(),
        diffuse: m.diffuse.to_array(),
        specular: m.specular.to_array(),
        emissive: m.emissive.to_array(),
        shininess: m.shininess,
        transparency: m.opacity,
        mode: 0,
        texture: names.array(m.texture.as_deref().unwrap_or_default()),
        alphamap: names.array(m.alpha_map.as_deref().unwrap_or_default()),
    }
}

fn joints(model: &Model, names: &mut NameWriter, report: &mut Report) -> Vec<FileJoint> {
    let encoded: Vec<[u8; 32]> = model
        .skeleton
        .joints
        .iter()
        .map(|j| names.array(&j.name))
        .collect();
    let mut scaled = 0;
    let joints = model
        .skeleton
        .joints
        .iter()
        .zip(&encoded)
        .map(|(joint, name)| {
            // Parents were checked to exist (`check_references`).
            let parent_name = joint
                .parent
                .and_then(|parent| encoded.get(parent.index()).copied())
                .unwrap_or([0; 32]);
            if !joint.scale.abs_diff_eq(Vec3::ONE, 1e-6) {
                scaled += 1;
            }
            FileJoint {
                flags: 0,
                name: *name,
                parent_name,
                rotation: quat_to_euler_near_pole_precise(joint.rotation).to_array(),
                position: joint.translation.to_array(),
                rotation_keys: Vec::new(),
                translation_keys: Vec::new(),
            }
        })
        .collect();
    let distinct: std::collections::HashSet<&[u8; 32]> = encoded.iter().collect();
    if distinct.len() < encoded.len() {
        report.warn(
            codes::DUPLICATE_JOINT_NAMES,
            "some joints share a name; MilkShape finds parents by name, so they may resolve to the first",
        );
    }
    if scaled > 0 {
        report.loss(
            codes::JOINT_SCALE,
            format!("the bind scale of {scaled} joints is not 1 and cannot be stored"),
        );
    }
    joints
}

/// Vertex records, triangles and groups built mesh by mesh.
#[derive(Default)]
struct Geometry {
    vertices: Vec<Vertex>,
    extras: Vec<VertexExtraRecord>,
    triangles: Vec<Triangle>,
    groups: Vec<Group>,
    /// Unified vertices whose weights whole percents do not hold exactly, and the largest
    /// change.
    rounded: usize,
    worst_rounding: f32,
}

/// A vertex record's identity: position bits and stored skin.
type RecordKey = ([u32; 3], i8, [i8; 3], [u8; 3]);

impl Geometry {
    /// The `weights-rounded` loss, when a vertex's weights changed.
    fn report_rounding(&self, report: &mut Report) {
        if self.rounded > 0 {
            report.loss(
                codes::WEIGHTS_ROUNDED,
                format!(
                    "the weights of {} vertices were rounded to MilkShape's limit of whole \
                     percents (0-100, 4 influences); the largest change is {:.2} %",
                    self.rounded,
                    self.worst_rounding * 100.0
                ),
            );
        }
    }

    fn add_mesh(
        &mut self,
        mesh_index: usize,
        mesh: &Mesh,
        names: &mut NameWriter,
        report: &mut Report,
    ) -> Result<(), Error> {
        let mut records: HashMap<RecordKey, u16> = HashMap::new();
        let mut record_of = Vec::with_capacity(mesh.vertices.len());
        for vertex in &mesh.vertices {
            let skin: StoredSkin = encode_skin(vertex.joints, vertex.weights);
            let change = skin_rounding(vertex.joints, vertex.weights, skin);
            // Float noise in weights that were whole percents is not a loss.
            if change > 1e-4 {
                self.rounded += 1;
                self.worst_rounding = self.worst_rounding.max(change);
            }
            let key = (
                vertex.position.to_array().map(f32::to_bits),
                skin.bone_id,
                skin.extra_bone_ids,
                skin.weights,
            );
            let next = self.vertices.len();
            let record = match records.get(&key) {
                Some(&record) => record,
                None => {
                    let record = u16::try_from(next).map_err(|_| TooMany {
                        format: FORMAT,
                        what: "vertices",
                        count: next + 1,
                        max: MAX_VERTICES,
                    })?;
                    self.vertices.push(Vertex {
                        flags: 0,
                        position: vertex.position.to_array(),
                        bone_id: skin.bone_id,
                        reference_count: 0,
                    });
                    self.extras.push(VertexExtraRecord {
                        bone_ids: skin.extra_bone_ids,
                        weights: skin.weights,
                        extra: [0, 0],
                    });
                    records.insert(key, record);
                    record
                }
            };
            record_of.push(record);
        }
        let first_triangle = self.triangles.len();
        for corners in &mesh.triangles {
            let mut triangle = Triangle {
                flags: 0,
                vertex_indices: [0; 3],
                normals: [[0.0; 3]; 3],
                s: [0.0; 3],
                t: [0.0; 3],
                smoothing_group: 1,
                group_index: mesh_index as u8,
            };
            for (corner, &unified) in corners.iter().enumerate() {
                // Corners were checked to exist (`check_references`).
                let (Some(vertex), Some(&record)) = (
                    mesh.vertices.get(unified as usize),
                    record_of.get(unified as usize),
                ) else {
                    continue;
                };
                triangle.vertex_indices[corner] = record;
                triangle.normals[corner] = vertex.normal.to_array();
                triangle.s[corner] = vertex.uv.x;
                triangle.t[corner] = vertex.uv.y;
            }
            self.triangles.push(triangle);
        }
        // Both fit: the triangle total was checked against 65534 before.
        let triangle_indices = (first_triangle..self.triangles.len())
            .map(|t| t as u16)
            .collect();
        // Materials were checked to exist (`check_references`) and number at most 128.
        let material_index = mesh.material.map_or(-1, |id| id.0 as i8);
        if mesh.has_colors {
            report.loss(
                codes::VERTEX_COLORS,
                format!(
                    "the vertex colours of mesh `{}` cannot be stored",
                    mesh.name
                ),
            );
        }
        self.groups.push(Group {
            flags: 0,
            name: names.array(&mesh.name),
            triangle_indices,
            material_index,
        });
        Ok(())
    }
}

/// Writes the first animation's tracks as keys relative to the bind pose, gives every
/// joint channel still without keys its placeholder, and returns the keyframer data.
fn animation(model: &Model, joints: &mut [FileJoint], report: &mut Report) -> Keyframer {
    let Some(animation) = timeline_animation(&model.animations, report) else {
        placeholder_keys(joints, 1.0 / DEFAULT_FPS);
        return Keyframer {
            fps: DEFAULT_FPS,
            current_time: 0.0,
            total_frames: DEFAULT_FRAMES,
        };
    };
    let fps = if animation.fps.is_finite() && animation.fps > 0.0 {
        animation.fps
    } else {
        report.warn(
            codes::INVALID_FPS,
            format!(
                "frame rate {} is not positive; writing {DEFAULT_FPS}",
                animation.fps
            ),
        );
        DEFAULT_FPS
    };
    write_tracks(animation, joints, report);
    // The first frame: where the animation's first key is, else MilkShape's frame 1.
    let first = joints
        .iter()
        .flat_map(|j| j.rotation_keys.iter().chain(&j.translation_keys))
        .map(|k| k.time)
        .fold(f32::INFINITY, f32::min);
    placeholder_keys(joints, if first.is_finite() { first } else { 1.0 / fps });
    Keyframer {
        fps,
        current_time: 0.0,
        total_frames: (animation.end_time() * fps)
            .round()
            .clamp(0.0, i32::MAX as f32) as i32,
    }
}

/// One key at `time` in every channel without keys, relative value 0: the bind pose, which
/// is what an empty channel means, so the pose does not change.
fn placeholder_keys(joints: &mut [FileJoint], time: f32) {
    let hold = Keyframe {
        time,
        value: [0.0; 3],
    };
    for joint in joints {
        if joint.rotation_keys.is_empty() {
            joint.rotation_keys.push(hold);
        }
        if joint.translation_keys.is_empty() {
            joint.translation_keys.push(hold);
        }
    }
}

/// Writes each joint's first track (the one rule for duplicate tracks, as in
/// `Animation::track`); later tracks of the same joint are reported lost.
fn write_tracks(animation: &Animation, joints: &mut [FileJoint], report: &mut Report) {
    let (mut scale_keys, mut repeated, mut too_many) = (0usize, 0usize, 0usize);
    let mut written = vec![false; joints.len()];
    for track in &animation.tracks {
        // Track joints were checked to exist (`check_references`).
        let (Some(joint), Some(done)) = (
            joints.get_mut(track.joint.index()),
            written.get_mut(track.joint.index()),
        ) else {
            continue;
        };
        if std::mem::replace(done, true) {
            repeated += 1;
            continue;
        }
        let position = Vec3::from(joint.position);
        let rotation = Vec3::from(joint.rotation);
        let limit = MAX_KEYS_PER_CHANNEL;
        too_many += track.translations.len().saturating_sub(limit)
            + track.rotations.len().saturating_sub(limit);
        joint.translation_keys = keyframes(&track.translations, limit, |t| {
            relative_translation(position, rotation, t)
        });
        joint.rotation_keys =
            keyframes(&track.rotations, limit, |q| relative_rotation(rotation, q));
        scale_keys += track.scales.len();
    }
    let mut lose = |code, count: usize, what: String| {
        if count > 0 {
            report.loss(code, format!("{count} {what}"));
        }
    };
    lose(
        codes::SCALE_KEYS,
        scale_keys,
        "scale keys cannot be stored".into(),
    );
    lose(
        codes::TRACK_JOINT_DUPLICATE,
        repeated,
        format!(
            "further tracks of an already animated joint in animation `{}` are not written (the first track of a joint wins)",
            animation.name
        ),
    );
    lose(
        codes::TOO_MANY_KEYS,
        too_many,
        format!(
            "keys past MilkShape's limit of {MAX_KEYS_PER_CHANNEL} per joint channel are not written"
        ),
    );
    if animation.interpolation != Interpolation::Linear {
        report.loss(
            codes::INTERPOLATION,
            format!(
                "{:?} interpolation is stored as MilkShape's linear",
                animation.interpolation
            ),
        );
    }
    if animation.looping {
        report.loss(codes::LOOPING, "the loop flag cannot be stored");
    }
}

/// The first `limit` keys of a channel as MilkShape keyframes, each value made relative to
/// the bind pose by `relative`.
fn keyframes<T: Copy>(
    keys: &[Key<T>],
    limit: usize,
    relative: impl Fn(T) -> Vec3,
) -> Vec<Keyframe> {
    keys.iter()
        .take(limit)
        .map(|k| Keyframe {
            time: k.time,
            value: relative(k.value).to_array(),
        })
        .collect()
}
