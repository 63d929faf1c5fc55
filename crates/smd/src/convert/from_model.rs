//! The neutral model to SMD: a reference file and one animation file per animation.

use super::{ConvertOptions, DEFAULT_FPS};
use crate::error::Error;
use crate::file::{
    BonePose, File, Item, Link, Node, NodeLine, SkeletonLine, Triangle, TriangleLine, Version,
    Vertex as SmdVertex,
};
use rigport_anim::Pose;
use rigport_anim::euler::quat_to_euler_precise;
use rigport_anim::normalize_animation;
use rigport_anim::skeleton::parent_first_order;
use rigport_model_core::glam::{Quat, Vec3};
use rigport_model_core::{JointId, Material, Model, Report, codes};
use std::collections::HashMap;
use std::sync::Arc;

/// The bones as written: file order (parents first), names made writable, IDs 0..N−1.
struct Bones {
    /// Model joints in file order.
    order: Vec<JointId>,
    /// Model joint → bone ID.
    id_of: Vec<i32>,
    /// The `nodes` lines.
    nodes: Vec<NodeLine>,
    /// Whether a bone was invented (the model has no joints).
    placeholder: bool,
}

fn bones(model: &Model, report: &mut Report) -> Result<Bones, Error> {
    if model.skeleton.is_empty() {
        return Ok(Bones {
            order: Vec::new(),
            id_of: Vec::new(),
            nodes: vec![NodeLine::Node(Node {
                id: 0,
                name: b"root".to_vec(),
                quoted: true,
                parent: -1,
                comment: None,
            })],
            placeholder: true,
        });
    }
    let order = parent_first_order(&model.skeleton)
        .map_err(|e| unwritable(format!("the skeleton is not a forest: {e}")))?;
    let mut id_of = vec![0i32; model.skeleton.len()];
    for (id, joint) in order.iter().enumerate() {
        id_of[joint.index()] = i32::try_from(id)
            .map_err(|_| unwritable(format!("{} joints", model.skeleton.len())))?;
    }
    let (mut quotes, mut empty) = (0usize, 0usize);
    let nodes = order
        .iter()
        .map(|&joint| {
            let j = &model.skeleton.joints[joint.index()];
            let mut name: Vec<u8> = j
                .name
                .bytes()
                .map(|b| {
                    if b == b'"' || b == b'\n' || b == b'\r' {
                        b'_'
                    } else {
                        b
                    }
                })
                .collect();
            if name != j.name.as_bytes() {
                quotes += 1;
            }
            if name.is_empty() {
                empty += 1;
                name = format!("joint{}", joint.0).into_bytes();
            }
            NodeLine::Node(Node {
                id: id_of[joint.index()],
                name,
                quoted: true,
                parent: j.parent.map_or(-1, |p| id_of[p.index()]),
                comment: None,
            })
        })
        .collect();
    if quotes > 0 {
        report.loss(
            codes::NAME_QUOTES,
            format!("{quotes} joint name(s) held quotes or line breaks; they became `_`"),
        );
    }
    if empty > 0 {
        report.loss(
            codes::NAMES_CHANGED,
            format!("{empty} joint(s) had no name; they were named `joint<N>`"),
        );
    }
    Ok(Bones {
        order,
        id_of,
        nodes,
        placeholder: false,
    })
}

fn pose_line(bone: i32, translation: Vec3, rotation: Quat) -> SkeletonLine {
    SkeletonLine::Pose(BonePose {
        bone,
        position: translation.to_array(),
        rotation: quat_to_euler_precise(rotation).to_array(),
        comment: None,
    })
}

fn header(model: &Model) -> Vec<Item> {
    let mut items = Vec::new();
    if let Some(comment) = &model.comment {
        for line in comment.lines() {
            let line = line.trim_end();
            items.push(Item::Comment(if line.is_empty() {
                b"//".to_vec()
            } else {
                format!("// {line}").into_bytes()
            }));
        }
    }
    items.push(Item::Version(Version {
        value: 1,
        comment: None,
    }));
    items
}

/// The material line of a mesh: its material's texture as stored, else the material's
/// name, else the mesh's name, else `default`; blanks become `_` (readers cut the line at
/// the first blank).
fn material_line(model: &Model, mesh: &rigport_model_core::Mesh, report: &mut Changes) -> String {
    let material = mesh.material.and_then(|m| model.materials.get(m.index()));
    let texture = material
        .and_then(|m| m.texture.as_deref())
        .filter(|t| !t.trim().is_empty());
    let chosen = match (texture, material) {
        (Some(texture), Some(m)) => {
            if texture != m.name {
                report.named_after_texture += 1;
            }
            texture.to_owned()
        }
        (None, Some(m)) if !m.name.trim().is_empty() => m.name.clone(),
        _ if !mesh.name.trim().is_empty() => mesh.name.clone(),
        _ => "default".to_owned(),
    };
    let fixed: String = chosen
        .trim()
        .chars()
        .map(|c| {
            if c.is_whitespace() || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if fixed != chosen {
        report.blanks += 1;
    }
    fixed
}

#[derive(Default)]
struct Changes {
    named_after_texture: usize,
    blanks: usize,
}

fn has_properties(material: &Material) -> bool {
    let plain = Material::default();
    material.ambient != plain.ambient
        || material.diffuse != plain.diffuse
        || material.specular != plain.specular
        || material.emissive != plain.emissive
        || material.shininess != plain.shininess
        || material.opacity != plain.opacity
        || material.alpha_map.is_some()
}

/// Converts a model to a reference SMD: `version 1`, `nodes` (parents first, IDs
/// 0..N−1), `skeleton` with the bind pose as `time 0`, and `triangles`: per triangle its
/// mesh's material line (the material's texture as stored, else its name), then three
/// vertex lines in the model's counter-clockwise order with Source-style links (every
/// influence, weights summing to 1, the strongest bone as parent) and `v` flipped back to
/// the bottom-left origin. The model comment becomes `//` lines before `version 1`.
///
/// A model without joints gets one bone, `root`, at the origin. Animations are not part of
/// a reference file: [`animation_from_model`] writes each as its own file (reported
/// here). The report names everything else SMD cannot hold. A model that refers to
/// something it does not have, or whose joints form a cycle, is refused.
pub fn from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    let (file, mut report) = reference(model, options)?;
    if !model.animations.is_empty() {
        report.loss(
            codes::ANIMATIONS_DROPPED,
            format!(
                "{} animation(s) are not part of a reference SMD; `animation_from_model` writes each as its own file",
                model.animations.len()
            ),
        );
    }
    Ok((file, report))
}

pub(crate) fn reference(model: &Model, _options: &ConvertOptions) -> Result<(File, Report), Error> {
    if let Some(problem) = model.check_references().into_iter().next() {
        return Err(problem.into());
    }
    let mut report = Report::default();
    let bones = bones(model, &mut report)?;
    let mut items = header(model);
    items.push(Item::Nodes(bones.nodes.clone()));

    let mut skeleton = vec![SkeletonLine::Time {
        time: 0,
        comment: None,
    }];
    let mut scaled = 0usize;
    if bones.placeholder {
        skeleton.push(pose_line(0, Vec3::ZERO, Quat::IDENTITY));
        report.info(
            codes::PLACEHOLDER_JOINTS,
            "the model has no joints; SMD binds every vertex to a bone, so one bone `root` at the origin was written",
        );
    }
    for &joint in &bones.order {
        let j = &model.skeleton.joints[joint.index()];
        if !j.scale.abs_diff_eq(Vec3::ONE, 1e-6) {
            scaled += 1;
        }
        skeleton.push(pose_line(
            bones.id_of[joint.index()],
            j.translation,
            j.rotation,
        ));
    }
    if scaled > 0 {
        report.loss(
            codes::JOINT_SCALE,
            format!("{scaled} joint(s) have a bind scale other than 1; SMD stores none"),
        );
    }
    items.push(Item::Skeleton(skeleton));

    // The bone unskinned vertices are bound to: the first root in file order.
    let fallback = bones.order.first().map_or(0, |j| bones.id_of[j.index()]);
    let mut changes = Changes::default();
    let mut lines = Vec::new();
    let (mut unskinned, mut unused, mut colours, mut renamed) = (0usize, 0usize, 0usize, 0usize);
    let mut influences: Vec<(i32, f32)> = Vec::new();
    for mesh in &model.meshes {
        let material: Arc<[u8]> = Arc::from(material_line(model, mesh, &mut changes).as_bytes());
        if mesh.name != super::to_model::mesh_name(&String::from_utf8_lossy(&material)) {
            renamed += 1;
        }
        if mesh.has_colors {
            colours += 1;
        }
        let mut used = vec![false; mesh.vertices.len()];
        let mut converted: HashMap<u32, SmdVertex> = HashMap::new();
        for triangle in &mesh.triangles {
            let vertices = triangle.map(|index| {
                used[index as usize] = true;
                converted
                    .entry(index)
                    .or_insert_with(|| {
                        let v = &mesh.vertices[index as usize];
                        influences.clear();
                        let sum: f32 = v.influences().map(|(_, w)| w).sum();
                        for (joint, weight) in v.influences() {
                            let id = bones.id_of.get(joint.index()).copied().unwrap_or(fallback);
                            match influences.iter_mut().find(|(b, _)| *b == id) {
                                Some((_, w)) => *w += weight / sum,
                                None => influences.push((id, weight / sum)),
                            }
                        }
                        if influences.is_empty() {
                            if !bones.placeholder {
                                unskinned += 1;
                            }
                            influences.push((fallback, 1.0));
                        }
                        influences.sort_by(|a, b| b.1.total_cmp(&a.1));
                        SmdVertex {
                            parent: influences[0].0,
                            position: v.position.to_array(),
                            normal: v.normal.to_array(),
                            uv: [v.uv.x, 1.0 - v.uv.y],
                            links: Some(
                                influences
                                    .iter()
                                    .map(|&(bone, weight)| Link { bone, weight })
                                    .collect(),
                            ),
                            comment: None,
                        }
                    })
                    .clone()
            });
            lines.push(TriangleLine::Triangle(Triangle {
                material: material.clone(),
                vertices,
                comments: Vec::new(),
            }));
        }
        unused += used.iter().filter(|u| !**u).count();
    }
    items.push(Item::Triangles(lines));

    if unskinned > 0 {
        report.loss(
            codes::UNSKINNED_VERTICES,
            format!("{unskinned} vertices bound to no joint were bound to the first root bone"),
        );
    }
    if unused > 0 {
        report.loss(
            codes::UNUSED_VERTICES,
            format!(
                "{unused} vertices no triangle uses are not written (SMD stores triangle corners)"
            ),
        );
    }
    if colours > 0 {
        report.loss(
            codes::VERTEX_COLORS,
            format!("{colours} mesh(es) have vertex colours; SMD stores none"),
        );
    }
    if renamed > 0 {
        report.loss(
            codes::MESH_NAMES,
            format!("{renamed} mesh name(s) are not stored: SMD groups triangles by material line"),
        );
    }
    if changes.named_after_texture > 0 {
        report.info(
            codes::MATERIAL_NAMED_AFTER_TEXTURE,
            format!(
                "{} material line(s) name the material's texture, as SMD readers load that string as the image",
                changes.named_after_texture
            ),
        );
    }
    if changes.blanks > 0 {
        report.loss(
            codes::NAMES_CHANGED,
            format!(
                "{} material line(s) held blanks; they became `_`",
                changes.blanks
            ),
        );
    }
    let with_properties = model.materials.iter().filter(|m| has_properties(m)).count();
    if with_properties > 0 {
        report.loss(
            codes::MATERIAL_PROPERTIES,
            format!("{with_properties} material(s) have colours or maps SMD cannot store"),
        );
    }
    Ok((
        File {
            items,
            ..File::default()
        },
        report,
    ))
}

/// Converts animation `index` of a model to an animation SMD: the same `nodes` block as
/// [`from_model`]'s reference file, then a `skeleton` block with one `time` per frame,
/// `0 … F−1`, every bone listed in ascending ID order, sampled at the animation's frame
/// rate (or [`ConvertOptions::fps`] when it has none). SMD stores no frame rate: one other
/// than 30 is reported as lost.
pub fn animation_from_model(
    model: &Model,
    index: usize,
    options: &ConvertOptions,
) -> Result<(File, Report), Error> {
    if let Some(problem) = model.check_references().into_iter().next() {
        return Err(problem.into());
    }
    let source = model.animations.get(index).ok_or_else(|| {
        unwritable(format!(
            "animation {index} does not exist ({} animations)",
            model.animations.len()
        ))
    })?;
    let mut report = Report::default();
    let bones = bones(model, &mut report)?;
    let fps = if source.fps.is_finite() && source.fps > 0.0 {
        source.fps
    } else {
        report.warn(
            codes::INVALID_FPS,
            format!(
                "animation `{}` has frame rate {}; sampled at {}",
                source.name, source.fps, options.fps
            ),
        );
        options.checked_fps()?
    };
    let mut animation = source.clone();
    report.extend(normalize_animation(&mut animation, model.skeleton.len()));
    let end = animation.end_time();
    let span = (f64::from(end) * f64::from(fps)).round();
    let frames = if span.is_finite() && span >= 0.0 {
        (span as u64).saturating_add(1)
    } else {
        u64::MAX
    };
    let joints = bones.nodes.len() as u64;
    let allowance = rigport_anim::resample::poses_allowed(model);
    if frames.saturating_mul(joints) > allowance {
        return Err(unwritable(format!(
            "animation `{}` would need {frames} frames of {joints} bones at {fps} fps, more poses than the model's keys justify ({allowance})",
            rigport_model_core::diagnostic::excerpt(source.name.as_bytes(), 40)
        )));
    }
    if fps != DEFAULT_FPS {
        report.loss(
            codes::FRAMERATE,
            format!(
                "SMD stores no frame rate: animation `{}` was sampled at {fps} fps, readers assume their own (30 in studiomdl)",
                source.name
            ),
        );
    }
    if animation.looping {
        report.loss(
            codes::LOOPING,
            format!("animation `{}` loops; SMD stores no loop flag", source.name),
        );
    }
    if animation.interpolation.is_cubic() {
        report.loss(
            codes::CUBIC_INTERPOLATION,
            format!(
                "animation `{}` is cubic; sampled on the curve at each frame",
                source.name
            ),
        );
    }
    let off_frame = rigport_anim::resample::keys_between_frames(&animation, fps);
    if off_frame {
        report.info(
            codes::RESAMPLED,
            format!(
                "animation `{}` has keys between frames; sampled at {fps} fps",
                source.name
            ),
        );
    }
    if animation
        .tracks
        .iter()
        .flat_map(|t| &t.scales)
        .any(|k| !k.value.abs_diff_eq(Vec3::ONE, 1e-6))
    {
        report.loss(
            codes::SCALE_KEYS,
            format!(
                "animation `{}` scales joints; SMD stores no scale",
                source.name
            ),
        );
    }

    let mut skeleton = Vec::new();
    let mut pose = if bones.placeholder {
        None
    } else {
        Some(
            Pose::new(&model.skeleton)
                .map_err(|e| unwritable(format!("the skeleton is not a forest: {e}")))?,
        )
    };
    for frame in 0..frames {
        skeleton.push(SkeletonLine::Time {
            time: i32::try_from(frame).map_err(|_| unwritable(format!("{frames} frames")))?,
            comment: None,
        });
        match &mut pose {
            None => skeleton.push(pose_line(0, Vec3::ZERO, Quat::IDENTITY)),
            Some(pose) => {
                pose.sample(&animation, frame as f32 / fps);
                let locals = pose.local_transforms();
                for &joint in &bones.order {
                    let local = locals[joint.index()];
                    skeleton.push(pose_line(
                        bones.id_of[joint.index()],
                        local.translation,
                        local.rotation,
                    ));
                }
            }
        }
    }
    let items = vec![
        Item::Version(Version {
            value: 1,
            comment: None,
        }),
        Item::Nodes(bones.nodes),
        Item::Skeleton(skeleton),
    ];
    Ok((
        File {
            items,
            ..File::default()
        },
        report,
    ))
}

/// A model SMD cannot hold.
fn unwritable(message: String) -> Error {
    Error::Unwritable {
        format: "SMD",
        message,
    }
}
