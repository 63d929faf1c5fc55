//! Neutral model → file.

use super::ConvertOptions;
use crate::error::Error;
use crate::file::{Comments, File, Group, Joint as FileJoint, JointExtra, VertexExtra};
use crate::limits::{MAX_GROUPS, MAX_JOINTS, MAX_MATERIALS, MAX_TRIANGLES, MAX_VERTICES};
use crate::records::{
    JointColor, Keyframe, Keyframer, Material as FileMaterial, ModelExtra, Triangle, Vertex,
    VertexExtraRecord,
};
use rigport_anim::euler::quat_to_euler;
use rigport_anim::milkshape::{StoredSkin, encode_skin, relative_rotation, relative_translation};
use rigport_model_core::glam::Vec3;
use rigport_model_core::text::encode_name_8bit;
use rigport_model_core::{Animation, Interpolation, Key, Material, Mesh, Model, Report};
use std::collections::HashMap;

/// Frame rate and length MilkShape gives a new document; used when the model has no
/// animation.
const DEFAULT_FPS: f32 = 24.0;
const DEFAULT_FRAMES: i32 = 30;
/// Joint colour written into the joint extra block (the model has none).
const DEFAULT_JOINT_COLOR: [f32; 3] = [1.0, 1.0, 0.0];

/// Converts a model to a file with every trailing block, reporting what it cannot hold.
///
/// Unified vertices of a mesh that share position and skin become one vertex record; their
/// normals and texture coordinates go to the triangle corners. Fails when the model exceeds
/// a MilkShape limit (65534 vertices or triangles, 255 groups, 128 materials, 128 joints)
/// or refers to something it does not have.
pub fn from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    if !matches!(options.vertex_extra_sub_version, 1..=3) {
        return Err(Error::InvalidOption(format!(
            "vertex extra subVersion {} (1, 2 or 3 can be written)",
            options.vertex_extra_sub_version
        )));
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
    let mut joints = joints(model, &mut names, &mut report)?;
    let mut geometry = Geometry::default();
    for (index, mesh) in model.meshes.iter().enumerate() {
        geometry.add_mesh(model, index, mesh, &mut names, &mut report)?;
    }
    check_limit("vertices", geometry.vertices.len(), MAX_VERTICES)?;
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
    let keyframer = animation(model, &mut joints, &mut report)?;
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

fn check_limit(what: &'static str, count: usize, max: usize) -> Result<(), Error> {
    if count > max {
        return Err(Error::TooMany { what, count, max });
    }
    Ok(())
}

/// Encodes names into fixed arrays, counting the ones that had to be cut.
#[derive(Default)]
struct NameWriter {
    truncated: Vec<String>,
}

impl NameWriter {
    /// The name as a NUL-terminated array of `N` bytes (Latin-1 when it fits, else UTF-8).
    fn array<const N: usize>(&mut self, name: &str) -> [u8; N] {
        let bytes = encode_name_8bit(name);
        let keep = bytes.len().min(N - 1);
        if keep < bytes.len() {
            self.truncated.push(name.to_owned());
        }
        let mut out = [0u8; N];
        out[..keep].copy_from_slice(&bytes[..keep]);
        out
    }

    fn report(&self, report: &mut Report) {
        if let Some(first) = self.truncated.first() {
            report.loss(
                "name-truncated",
                format!(
                    "{} names or paths are longer than their field and were cut (first: `{first}`)",
                    self.truncated.len()
                ),
            );
        }
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

fn joints(
    model: &Model,
    names: &mut NameWriter,
    report: &mut Report,
) -> Result<Vec<FileJoint>, Error> {
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
        .enumerate()
        .map(|(index, (joint, name))| {
            let parent_name = match joint.parent {
                None => [0; 32],
                Some(parent) => *encoded.get(parent.index()).ok_or_else(|| {
                    Error::InvalidModel(format!(
                        "joint {index} `{}` has parent {parent}, but there are {} joints",
                        joint.name,
                        encoded.len()
                    ))
                })?,
            };
            if !joint.scale.abs_diff_eq(Vec3::ONE, 1e-6) {
                scaled += 1;
            }
            Ok(FileJoint {
                flags: 0,
                name: *name,
                parent_name,
                rotation: quat_to_euler(joint.rotation).to_array(),
                position: joint.translation.to_array(),
                rotation_keys: Vec::new(),
                translation_keys: Vec::new(),
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let distinct: std::collections::HashSet<&[u8; 32]> = encoded.iter().collect();
    if distinct.len() < encoded.len() {
        report.warn(
            "duplicate-joint-names",
            "some joints share a name; MilkShape finds parents by name, so they may resolve to the first",
        );
    }
    if scaled > 0 {
        report.loss(
            "joint-scale",
            format!("the bind scale of {scaled} joints is not 1 and cannot be stored"),
        );
    }
    Ok(joints)
}

/// Vertex records, triangles and groups built mesh by mesh.
#[derive(Default)]
struct Geometry {
    vertices: Vec<Vertex>,
    extras: Vec<VertexExtraRecord>,
    triangles: Vec<Triangle>,
    groups: Vec<Group>,
}

/// A vertex record's identity: position bits and stored skin.
type RecordKey = ([u32; 3], i8, [i8; 3], [u8; 3]);

impl Geometry {
    fn add_mesh(
        &mut self,
        model: &Model,
        mesh_index: usize,
        mesh: &Mesh,
        names: &mut NameWriter,
        report: &mut Report,
    ) -> Result<(), Error> {
        let joint_count = model.skeleton.len();
        let mut records: HashMap<RecordKey, u16> = HashMap::new();
        let mut record_of = Vec::with_capacity(mesh.vertices.len());
        for (vertex_index, vertex) in mesh.vertices.iter().enumerate() {
            if let Some((joint, _)) = vertex.influences().find(|(j, _)| j.index() >= joint_count) {
                return Err(Error::InvalidModel(format!(
                    "vertex {vertex_index} of mesh `{}` is weighted to joint {joint}, but there are {joint_count} joints",
                    mesh.name
                )));
            }
            let skin: StoredSkin = encode_skin(vertex.joints, vertex.weights);
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
                    let record = u16::try_from(next).map_err(|_| Error::TooMany {
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
        for (triangle_index, corners) in mesh.triangles.iter().enumerate() {
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
                let (Some(vertex), Some(&record)) = (
                    mesh.vertices.get(unified as usize),
                    record_of.get(unified as usize),
                ) else {
                    return Err(Error::InvalidModel(format!(
                        "triangle {triangle_index} of mesh `{}` uses vertex {unified}, but the mesh has {} vertices",
                        mesh.name,
                        mesh.vertices.len()
                    )));
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
        let material_index = match mesh.material {
            None => -1,
            Some(id) if id.index() < model.materials.len() => id.0 as i8,
            Some(id) => {
                report.warn(
                    "missing-material",
                    format!(
                        "mesh `{}` uses material {id}, but there are {} materials; written without material",
                        mesh.name,
                        model.materials.len()
                    ),
                );
                -1
            }
        };
        if mesh.has_colors {
            report.loss(
                "vertex-colours",
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

/// Writes the first animation's tracks as keys relative to the bind pose and returns the
/// keyframer data.
fn animation(
    model: &Model,
    joints: &mut [FileJoint],
    report: &mut Report,
) -> Result<Keyframer, Error> {
    let Some(animation) = model.animations.first() else {
        return Ok(Keyframer {
            fps: DEFAULT_FPS,
            current_time: 0.0,
            total_frames: DEFAULT_FRAMES,
        });
    };
    if model.animations.len() > 1 {
        let dropped: Vec<&str> = model.animations[1..]
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        report.loss(
            "animations-dropped",
            format!(
                "a MilkShape file holds one animation; {} more are not written ({})",
                dropped.len(),
                dropped.join(", ")
            ),
        );
    }
    let fps = if animation.fps.is_finite() && animation.fps > 0.0 {
        animation.fps
    } else {
        report.warn(
            "invalid-fps",
            format!(
                "frame rate {} is not positive; writing {DEFAULT_FPS}",
                animation.fps
            ),
        );
        DEFAULT_FPS
    };
    write_tracks(animation, joints, report)?;
    Ok(Keyframer {
        fps,
        current_time: 0.0,
        total_frames: (animation.end_time() * fps)
            .round()
            .clamp(0.0, i32::MAX as f32) as i32,
    })
}

fn write_tracks(
    animation: &Animation,
    joints: &mut [FileJoint],
    report: &mut Report,
) -> Result<(), Error> {
    let joint_count = joints.len();
    let (mut scale_keys, mut repeated, mut too_many) = (0usize, 0usize, 0usize);
    for track in &animation.tracks {
        let joint = joints.get_mut(track.joint.index()).ok_or_else(|| {
            Error::InvalidModel(format!(
                "animation `{}` has a track for joint {}, but there are {joint_count} joints",
                animation.name, track.joint
            ))
        })?;
        if !joint.rotation_keys.is_empty() || !joint.translation_keys.is_empty() {
            repeated += 1;
            continue;
        }
        let position = Vec3::from(joint.position);
        let rotation = Vec3::from(joint.rotation);
        let limit = usize::from(u16::MAX);
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
        "scale-keys",
        scale_keys,
        "scale keys cannot be stored".into(),
    );
    lose(
        "repeated-track",
        repeated,
        "further tracks of an already animated joint are not written".into(),
    );
    lose(
        "too-many-keys",
        too_many,
        "keys past 65535 per joint channel are not written".into(),
    );
    if animation.interpolation != Interpolation::Linear {
        report.loss(
            "interpolation",
            format!(
                "{:?} interpolation is stored as MilkShape's linear",
                animation.interpolation
            ),
        );
    }
    if animation.looping {
        report.loss("looping", "the loop flag cannot be stored");
    }
    Ok(())
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
