//! The neutral model to `.psk` and `.psa`.

use super::{ConvertOptions, linear_to_srgb};
use crate::error::Error;
use crate::file::*;
use glam::{Quat, Vec3};
use rigport_anim::Pose;
use rigport_anim::skeleton::parent_first_order;
use rigport_model_core::{Model, Report, TooMany, codes};
use std::collections::HashMap;

/// The type flag written on every section (ActorX's, as the Blender add-on writes it).
pub const TYPE_FLAG: i32 = 1999801;
/// The `ANIMHEAD` type flag of a PSA with scale keys: UE3 reads `SCALEKEYS` from 20090127 on.
pub const SCALE_TYPE_FLAG: i32 = 20100422;
/// Most keys (frames × bones over every sequence) one `.psa` is written with.
const MAX_KEYS: usize = 1 << 26;

/// How the model's joints become the file's bones: parents first, one root at index 0 (a
/// root named `ROOT` is added when the model has none or several).
struct Layout {
    /// File bone → model joint (`None`: the added root).
    model_of: Vec<Option<usize>>,
    /// Model joint → file bone.
    file_of: Vec<usize>,
    /// The bone records (bind pose).
    bones: Vec<Bone>,
}

fn stored(rotation: Quat, root: bool) -> [f32; 4] {
    let q = if root { rotation } else { rotation.conjugate() };
    [q.x, q.y, q.z, q.w]
}

fn layout(model: &Model, report: &mut Report) -> Result<Layout, Error> {
    let joints = &model.skeleton.joints;
    let order =
        parent_first_order(&model.skeleton).map_err(|e| Error::InvalidModel(e.to_string()))?;
    let roots = joints.iter().filter(|j| j.parent.is_none()).count();
    let add_root = roots != 1;
    let mut model_of: Vec<Option<usize>> = Vec::with_capacity(joints.len() + 1);
    if add_root {
        model_of.push(None);
    }
    model_of.extend(order.iter().map(|j| Some(j.index())));
    TooMany::check("PSK", "bones", model_of.len(), i32::MAX as usize)?;
    let mut file_of = vec![0usize; joints.len()];
    for (file, joint) in model_of.iter().enumerate() {
        if let Some(joint) = joint {
            file_of[*joint] = file;
        }
    }
    if add_root && !joints.is_empty() {
        report.info(
            codes::JOINT_ADDED,
            format!("the model has {roots} root joints; a bone `ROOT` was added as the one root PSK needs"),
        );
    }
    let mut root_name = "ROOT".to_owned();
    while joints.iter().any(|j| j.name == root_name) {
        root_name.push('_');
    }
    let (mut cut, mut scaled) = (0usize, 0usize);
    let mut children = vec![0i32; model_of.len()];
    let mut parents = vec![0i32; model_of.len()];
    for (file, joint) in model_of.iter().enumerate().skip(1) {
        let parent = joint
            .and_then(|j| joints[j].parent)
            .map_or(0, |p| file_of[p.index()]);
        parents[file] = parent as i32;
        children[parent] += 1;
    }
    let bones = model_of
        .iter()
        .enumerate()
        .map(|(file, joint)| {
            let (name, translation, rotation) = match joint {
                Some(j) => {
                    let joint = &joints[*j];
                    if !joint.scale.abs_diff_eq(Vec3::ONE, 1e-5) {
                        scaled += 1;
                    }
                    (joint.name.as_str(), joint.translation, joint.rotation)
                }
                None => (root_name.as_str(), Vec3::ZERO, Quat::IDENTITY),
            };
            let (name, was_cut) = name_field(name);
            cut += usize::from(was_cut);
            Bone {
                name,
                flags: 0,
                num_children: children[file],
                parent: parents[file],
                orientation: stored(rotation, file == 0),
                position: translation.to_array(),
                length: 0.0,
                size: [0.0; 3],
            }
        })
        .collect();
    if cut > 0 {
        report.loss(
            codes::NAME_TRUNCATED,
            format!("{cut} joint names were longer than 63 bytes and were cut"),
        );
    }
    if scaled > 0 {
        report.loss(
            codes::JOINT_SCALE,
            format!("{scaled} joints have a bind scale; PSK bones hold none, so it was dropped"),
        );
    }
    let mut names: Vec<&str> = joints.iter().map(|j| j.name.as_str()).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    if names.len() < before {
        report.warn(
            codes::DUPLICATE_JOINT_NAMES,
            format!(
                "{} joint names are repeated; a PSA binds to the first bone of each name",
                before - names.len()
            ),
        );
    }
    Ok(Layout {
        model_of,
        file_of,
        bones,
    })
}

/// Writes a model as a `.psk`: points welded by position, normal and weights; one wedge
/// per model vertex; faces wound clockwise; materials by name; the skeleton parents first
/// with one root; up to four weights per point; `VTXNORMS` when the model has normals and
/// `VERTEXCOLOR` when it has colours. Animations are not part of a `.psk`
/// ([`anim_from_model`] writes them).
pub fn from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    let _ = options;
    let mut report = Report::default();
    let layout = layout(model, &mut report)?;
    // Materials: the model's, then `None` for meshes without one.
    let mut materials: Vec<MaterialRecord> = model
        .materials
        .iter()
        .map(|m| material_record(&m.name))
        .collect();
    let lost = model
        .materials
        .iter()
        .filter(|m| !m.is_only_a_name() || m.texture.is_some())
        .count();
    if lost > 0 {
        report.loss(
            codes::MATERIAL_PROPERTIES,
            format!("{lost} materials have colours or textures; a PSK material holds only a name"),
        );
    }
    let mut none_material = None;
    let mut mesh_material = Vec::with_capacity(model.meshes.len());
    for mesh in &model.meshes {
        let index = match mesh.material.filter(|m| m.index() < model.materials.len()) {
            Some(m) => m.index(),
            None => *none_material.get_or_insert_with(|| {
                materials.push(material_record("None"));
                materials.len() - 1
            }),
        };
        mesh_material.push(index);
    }
    TooMany::check("PSK", "materials", materials.len(), 256)?;
    let colors = model.meshes.iter().any(|m| m.has_colors);
    let normals = model
        .meshes
        .iter()
        .flat_map(|m| &m.vertices)
        .any(|v| v.normal != Vec3::ZERO);
    type PointKey = ([u32; 3], [u32; 3], [(u32, u32); 4]);
    let mut point_index: HashMap<PointKey, u32> = HashMap::new();
    let mut points: Vec<[f32; 3]> = Vec::new();
    let mut point_normals: Vec<[f32; 3]> = Vec::new();
    let mut weights: Vec<RawWeight> = Vec::new();
    let mut wedges: Vec<Wedge> = Vec::new();
    let mut wedge_colors: Vec<[u8; 4]> = Vec::new();
    let mut faces: Vec<Face> = Vec::new();
    let (mut bad_joints, mut unskinned) = (0usize, 0usize);
    for (mesh, &material) in model.meshes.iter().zip(&mesh_material) {
        let first = wedges.len();
        for vertex in &mesh.vertices {
            let mut skin = [(0u32, 0u32); 4];
            let mut k = 0;
            for (joint, weight) in vertex.influences() {
                match layout.file_of.get(joint.index()) {
                    Some(&bone) if weight.is_finite() => {
                        skin[k] = (bone as u32, weight.to_bits());
                        k += 1;
                    }
                    _ => bad_joints += 1,
                }
            }
            if k == 0 && !model.skeleton.is_empty() {
                unskinned += 1;
            }
            let key = (
                vertex.position.to_array().map(f32::to_bits),
                vertex.normal.to_array().map(f32::to_bits),
                skin,
            );
            let point = *point_index.entry(key).or_insert_with(|| {
                let point = points.len() as u32;
                points.push(vertex.position.to_array());
                point_normals.push(vertex.normal.to_array());
                let sum: f32 = skin[..k].iter().map(|(_, w)| f32::from_bits(*w)).sum();
                for &(bone, w) in &skin[..k] {
                    weights.push(RawWeight {
                        weight: f32::from_bits(w) / sum,
                        point: point as i32,
                        bone: bone as i32,
                    });
                }
                point
            });
            wedges.push(Wedge {
                point,
                u: vertex.uv.x,
                v: vertex.uv.y,
                material: material as u8,
                reserved: 0,
                pad: 0,
            });
            if colors {
                let c = vertex.color;
                wedge_colors.push([
                    linear_to_srgb(c.x),
                    linear_to_srgb(c.y),
                    linear_to_srgb(c.z),
                    (c.w.clamp(0.0, 1.0) * 255.0).round() as u8,
                ]);
            }
        }
        for triangle in &mesh.triangles {
            if triangle.iter().any(|&i| i as usize >= mesh.vertices.len()) {
                return Err(Error::InvalidModel(format!(
                    "mesh `{}` has a triangle past its {} vertices",
                    mesh.name,
                    mesh.vertices.len()
                )));
            }
            let [a, b, c] = triangle.map(|i| (first + i as usize) as u32);
            faces.push(Face {
                wedges: [a, c, b],
                material: material as u8,
                aux_material: 0,
                smoothing: 1,
            });
        }
    }
    TooMany::check("PSK", "points", points.len(), i32::MAX as usize)?;
    TooMany::check("PSK", "wedges", wedges.len(), i32::MAX as usize)?;
    TooMany::check("PSK", "faces", faces.len(), i32::MAX as usize)?;
    if bad_joints > 0 {
        report.warn(
            codes::SKIN_JOINT_MISSING,
            format!(
                "{bad_joints} vertex influences name no joint of the skeleton and were dropped"
            ),
        );
    }
    if unskinned > 0 {
        report.info(
            super::codes::UNWEIGHTED_POINTS,
            format!("{unskinned} vertices bound to no joint are bound to the root bone (PSK binds every unweighted point to it)"),
        );
    }
    let names: Vec<&str> = model.meshes.iter().map(|m| m.name.as_str()).collect();
    if !names.is_empty() {
        report.info(
            codes::NAMES_CHANGED,
            format!(
                "PSK has no mesh names ({}); it groups faces by material",
                names.join(", ")
            ),
        );
    }
    if model.comment.is_some() {
        report.loss(
            codes::COMMENT,
            "PSK holds no comment; the model's was dropped".to_owned(),
        );
    }
    let faces_body = if wedges.len() > 65536 {
        Body::Faces32(faces)
    } else {
        Body::Faces(faces)
    };
    let mut sections = vec![
        Section::new("ACTRHEAD", TYPE_FLAG, Body::Raw(Vec::new())),
        Section::new("PNTS0000", TYPE_FLAG, Body::Points(points)),
        Section::new("VTXW0000", TYPE_FLAG, Body::Wedges(wedges)),
        Section::new(
            if matches!(faces_body, Body::Faces32(_)) {
                "FACE3200"
            } else {
                "FACE0000"
            },
            TYPE_FLAG,
            faces_body,
        ),
        Section::new("MATT0000", TYPE_FLAG, Body::Materials(materials)),
        Section::new("REFSKELT", TYPE_FLAG, Body::Bones(layout.bones)),
        Section::new("RAWWEIGHTS", TYPE_FLAG, Body::Weights(weights)),
    ];
    if normals {
        sections.push(Section::new(
            "VTXNORMS",
            TYPE_FLAG,
            Body::Normals(point_normals),
        ));
    }
    if colors {
        sections.push(Section::new(
            "VERTEXCOLOR",
            TYPE_FLAG,
            Body::Colors(wedge_colors),
        ));
    }
    let file = File {
        kind: Kind::Mesh,
        sections,
        trailing: Vec::new(),
    };
    Ok((file, report))
}

fn material_record(name: &str) -> MaterialRecord {
    MaterialRecord {
        name: name_field(name).0,
        texture_index: 0,
        poly_flags: 0,
        aux_material: 0,
        aux_flags: 0,
        lod_bias: 0,
        lod_style: 0,
    }
}

/// Writes every animation of a model as one `.psa`: the skeleton's bones as `BONENAMES`
/// (the same layout as [`from_model`]'s `REFSKELT`), one sequence per animation sampled at
/// each frame of its own rate, keys frame-major with every bone at every frame.
/// `SCALEKEYS` is written (with `ANIMHEAD` type flag 20100422) only when some key scales.
pub fn anim_from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    let mut report = Report::default();
    let layout = layout(model, &mut report)?;
    let bones = layout.bones.len();
    let mut pose = Pose::new(&model.skeleton).map_err(|e| Error::InvalidModel(e.to_string()))?;
    let mut infos = Vec::with_capacity(model.animations.len());
    let mut keys: Vec<AnimKey> = Vec::new();
    let mut scales: Vec<ScaleKey> = Vec::new();
    let mut scaled = false;
    let mut first_frame = 0usize;
    let mut bad_rates = 0usize;
    for animation in &model.animations {
        let fps = if animation.fps.is_finite() && animation.fps > 0.0 {
            animation.fps
        } else {
            bad_rates += 1;
            options.fallback_fps()
        };
        let mut animation = animation.clone();
        animation.fps = fps;
        report.extend(rigport_anim::normalize_animation(
            &mut animation,
            model.skeleton.len(),
        ));
        let frames = usize::try_from(animation.frame_count()).unwrap_or(usize::MAX);
        let total = (first_frame.saturating_add(frames)).saturating_mul(bones);
        TooMany::check("PSA", "keys", total, MAX_KEYS)?;
        let allowance = rigport_anim::resample::poses_allowed(model);
        if total as u64 > allowance {
            return Err(Error::InvalidModel(format!(
                "animation `{}` would need {frames} frames of {bones} bones, more keys than the model's own justify ({allowance})",
                rigport_model_core::diagnostic::excerpt(animation.name.as_bytes(), 40)
            )));
        }
        keys.reserve(frames * bones);
        scales.reserve(frames * bones);
        for frame in 0..frames {
            pose.sample(&animation, frame as f32 / fps);
            let locals = pose.local_transforms();
            for (file, joint) in layout.model_of.iter().enumerate() {
                let (translation, rotation, scale) = match joint {
                    Some(j) => {
                        let t = &locals[*j];
                        (t.translation, t.rotation, t.scale)
                    }
                    None => (Vec3::ZERO, Quat::IDENTITY, Vec3::ONE),
                };
                scaled |= !scale.abs_diff_eq(Vec3::ONE, 1e-6);
                keys.push(AnimKey {
                    position: translation.to_array(),
                    orientation: stored(rotation.normalize(), file == 0),
                    time: 1.0,
                });
                scales.push(ScaleKey {
                    scale: scale.to_array(),
                    time: 1.0,
                });
            }
        }
        let (name, cut) = name_field(&animation.name);
        if cut {
            report.loss(
                codes::NAME_TRUNCATED,
                format!("animation name `{}` was cut to 63 bytes", animation.name),
            );
        }
        infos.push(AnimInfo {
            name,
            group: name_field("None").0,
            total_bones: bones as i32,
            root_include: 0,
            key_compression_style: 0,
            key_quotum: (frames * bones).min(i32::MAX as usize) as i32,
            key_reduction: 1.0,
            track_time: frames as f32,
            anim_rate: fps,
            start_bone: 0,
            first_raw_frame: first_frame as i32,
            num_raw_frames: frames as i32,
        });
        first_frame += frames;
    }
    if bad_rates > 0 {
        report.warn(
            codes::INVALID_FPS,
            format!(
                "{bad_rates} animations have no positive frame rate; {} frames per second were used",
                options.fallback_fps()
            ),
        );
    }
    let mut sections = vec![
        Section::new(
            "ANIMHEAD",
            if scaled { SCALE_TYPE_FLAG } else { TYPE_FLAG },
            Body::Raw(Vec::new()),
        ),
        Section::new("BONENAMES", TYPE_FLAG, Body::Bones(layout.bones)),
        Section::new("ANIMINFO", TYPE_FLAG, Body::AnimInfo(infos)),
        Section::new("ANIMKEYS", TYPE_FLAG, Body::Keys(keys)),
    ];
    if scaled {
        sections.push(Section::new(
            "SCALEKEYS",
            TYPE_FLAG,
            Body::ScaleKeys(scales),
        ));
    }
    let file = File {
        kind: Kind::Anim,
        sections,
        trailing: Vec::new(),
    };
    Ok((file, report))
}
