//! `.md5mesh` and `.md5anim` to the neutral model.

use super::ConvertOptions;
use super::normals::smooth_normals;
use crate::error::{Detail, Error};
use crate::file::{BaseFrameEntry, File, HierarchyEntry, Kind, MeshView};
use crate::math::{Rigid, restore_w};
use glam::{DQuat, DVec3, Vec2};
use rigport_anim::skeleton::break_cycles;
use rigport_anim::weights::keep_largest_four;
use rigport_model_core::text::decode_name;
use rigport_model_core::{
    Animation, Joint, JointId, Key, Material, MaterialId, Mesh, Model, Report, Skeleton, Track,
    UpAxis, Vertex, codes,
};

/// Converts a file to the neutral model (Z up, as MD5 is).
///
/// * `.md5mesh`: joints (model space in the file) become parent-relative bind transforms;
///   each vertex's position is the sum over its weights of
///   `bias · (joint position + joint rotation · weight position)`; the four largest weights
///   are kept and renormalised (`weights-truncated`); triangles are turned
///   counter-clockwise; normals are generated (area-weighted); each distinct non-empty
///   `shader` becomes a material whose texture reference is the shader string; meshes
///   without vertices or triangles are skipped (`empty-meshes`, `faceless-vertices`).
/// * `.md5anim`: the skeleton from the hierarchy and the baseframe, and one animation
///   named [`ConvertOptions::animation_name`] with a key per frame at `frameRate`
///   (`frame / frameRate` seconds) on every animated component, and one key at 0 holding
///   the baseframe value on every channel the file does not animate, so the animation
///   poses the same on another skeleton with these joint names (whose bind is not this
///   baseframe) as on its own.
pub fn to_model(file: &File, options: &ConvertOptions) -> Result<(Model, Report), Error> {
    match file.kind {
        Kind::Mesh => mesh_model(file),
        Kind::Anim => {
            let mut report = Report::default();
            let skeleton = anim_skeleton(file, &mut report)?;
            let map: Vec<JointId> = (0..skeleton.len() as u32).map(JointId).collect();
            let animation = animation(
                file,
                options.animation_name(),
                None,
                &map,
                options,
                &mut report,
            )?;
            let model = Model {
                skeleton,
                animations: vec![animation],
                comment: commandline(file),
                up: UpAxis::Z,
                ..Model::default()
            };
            Ok((model, report))
        }
    }
}

/// An `.md5mesh` with `.md5anim`s (each with its animation name): the mesh's model with one
/// animation per file. An animation's joints are matched to the mesh's by index when the
/// names agree index by index (the IQM SDK matches by index), else by name (as Doom 3);
/// a joint the animation does not know keeps its bind pose.
pub fn to_model_with_animations(
    mesh: &File,
    animations: &[(&str, &File)],
    options: &ConvertOptions,
) -> Result<(Model, Report), Error> {
    if mesh.kind != Kind::Mesh {
        return Err(Error::detail(Detail::WrongKind {
            expected: "an md5mesh",
            found: "an md5anim",
        }));
    }
    let (mut model, mut report) = mesh_model(mesh)?;
    let binds: Vec<Rigid> = model
        .skeleton
        .joints
        .iter()
        .map(|j| Rigid {
            position: j.translation.as_dvec3(),
            rotation: j.rotation.as_dquat(),
        })
        .collect();
    for (name, file) in animations {
        if file.kind != Kind::Anim {
            return Err(Error::detail(Detail::WrongKind {
                expected: "an md5anim",
                found: "an md5mesh",
            }));
        }
        let mesh_names: Vec<&str> = model
            .skeleton
            .joints
            .iter()
            .map(|j| j.name.as_str())
            .collect();
        let map = match_joints(&mesh_names, file, name)?;
        let mapped_binds: Vec<Rigid> = map.iter().map(|j| binds[j.index()]).collect();
        let animation = animation(file, name, Some(&mapped_binds), &map, options, &mut report)?;
        model.animations.push(animation);
    }
    Ok((model, report))
}

/// The mesh joint each joint of the `.md5anim` `file` drives: by index when the names agree
/// index by index, else by name; an error naming the first joint the mesh lacks.
pub(crate) fn match_joints(
    mesh_names: &[&str],
    file: &File,
    animation: &str,
) -> Result<Vec<JointId>, Error> {
    let names: Vec<String> = file.hierarchy().map(|h| decode_name(&h.name)).collect();
    let by_index =
        names.len() == mesh_names.len() && names.iter().zip(mesh_names).all(|(a, b)| a == b);
    if by_index {
        return Ok((0..names.len() as u32).map(JointId).collect());
    }
    names
        .iter()
        .map(|n| {
            mesh_names
                .iter()
                .position(|m| m == n)
                .map(|i| JointId(i as u32))
                .ok_or_else(|| {
                    Error::detail(Detail::AnimationMismatch {
                        animation: animation.to_owned(),
                        reason: format!("the mesh has no joint `{n}`"),
                    })
                })
        })
        .collect()
}

fn commandline(file: &File) -> Option<String> {
    file.commandline()
        .filter(|c| !c.is_empty())
        .map(decode_name)
}

fn decode_counted(bytes: &[u8], latin1: &mut usize) -> String {
    if std::str::from_utf8(bytes).is_err() {
        *latin1 += 1;
    }
    decode_name(bytes)
}

fn report_latin1(latin1: usize, report: &mut Report) {
    if latin1 > 0 {
        report.info(
            codes::LATIN1_NAMES,
            format!("{latin1} names are not UTF-8 and were read as Latin-1"),
        );
    }
}

fn invalid(message: String) -> Error {
    Error::InvalidModel(message)
}

fn mesh_model(file: &File) -> Result<(Model, Report), Error> {
    let mut report = Report::default();
    let mut latin1 = 0;
    let records: Vec<_> = file.joints().collect();
    let world: Vec<Rigid> = records
        .iter()
        .map(|j| Rigid {
            position: DVec3::from_array(j.position),
            rotation: restore_w(j.orientation),
        })
        .collect();
    let mut skeleton = Skeleton::default();
    for (i, j) in records.iter().enumerate() {
        let parent = match j.parent {
            p if p < 0 => None,
            p if (p as usize) < records.len() && p as usize != i => Some(JointId(p as u32)),
            p => return Err(invalid(format!("joint {i} has parent {p}"))),
        };
        let mut joint = Joint::new(decode_counted(&j.name, &mut latin1));
        joint.parent = parent;
        skeleton.joints.push(joint);
    }
    break_cycles(&mut skeleton, &mut report);
    for (i, joint) in skeleton.joints.iter_mut().enumerate() {
        let local = match joint.parent {
            None => world[i],
            Some(p) => world[p.index()].relative(&world[i]),
        };
        joint.translation = local.position.as_vec3();
        joint.rotation = local.rotation.as_quat().normalize();
    }

    let mut model = Model {
        skeleton,
        comment: commandline(file),
        up: UpAxis::Z,
        ..Model::default()
    };
    let (mut empty, mut faceless, mut truncated, mut renormalized, mut unweighted) =
        (0, 0, 0, 0, 0);
    for (m, view) in file.meshes().iter().enumerate() {
        if view.verts.is_empty() {
            empty += 1;
            continue;
        }
        if view.tris.is_empty() {
            faceless += view.verts.len();
            continue;
        }
        let mut mesh = Mesh::new(mesh_name(view, m, &mut latin1));
        mesh.has_uvs = true;
        if let Some(shader) = view.shader.filter(|s| !s.is_empty()) {
            let name = decode_counted(shader, &mut latin1);
            let id = match model.materials.iter().position(|x| x.name == name) {
                Some(i) => i,
                None => {
                    let mut material = Material::named(name.clone());
                    material.texture = Some(name);
                    model.materials.push(material);
                    model.materials.len() - 1
                }
            };
            mesh.material = Some(MaterialId(id as u32));
        }
        for (v, vert) in view.verts.iter().enumerate() {
            let range = usize::try_from(vert.first_weight)
                .ok()
                .zip(usize::try_from(vert.weight_count).ok())
                .and_then(|(first, count)| Some(first..first.checked_add(count)?))
                .filter(|r| r.end <= view.weights.len())
                .ok_or_else(|| {
                    invalid(format!(
                        "mesh {m} vertex {v}: its weights pass the weight list"
                    ))
                })?;
            let mut position = DVec3::ZERO;
            let mut influences: Vec<(JointId, f32)> = Vec::new();
            for weight in &view.weights[range] {
                let joint = usize::try_from(weight.joint)
                    .ok()
                    .filter(|&j| j < world.len())
                    .ok_or_else(|| {
                        invalid(format!(
                            "mesh {m}: weight joint {} does not exist",
                            weight.joint
                        ))
                    })?;
                position += weight.bias * world[joint].apply(DVec3::from_array(weight.position));
                let bias = weight.bias as f32;
                if bias > 0.0 {
                    match influences.iter_mut().find(|(j, _)| j.index() == joint) {
                        Some((_, b)) => *b += bias,
                        None => influences.push((JointId(joint as u32), bias)),
                    }
                }
            }
            if keep_largest_four(&mut influences) {
                truncated += 1;
            }
            let sum: f32 = influences.iter().map(|(_, w)| w).sum();
            if influences.is_empty() {
                unweighted += 1;
            } else if (sum - 1.0).abs() > 1e-3 {
                renormalized += 1;
            }
            let mut vertex = Vertex {
                position: position.as_vec3(),
                uv: Vec2::new(vert.uv[0] as f32, vert.uv[1] as f32),
                ..Vertex::default()
            };
            for (slot, (joint, weight)) in influences.iter().enumerate() {
                vertex.joints[slot] = *joint;
                vertex.weights[slot] = if sum > 0.0 { weight / sum } else { 0.0 };
            }
            mesh.vertices.push(vertex);
        }
        for tri in &view.tris {
            let mut corners = [0u32; 3];
            for (corner, &index) in corners.iter_mut().zip(&tri.vertices) {
                *corner = u32::try_from(index)
                    .ok()
                    .filter(|&i| (i as usize) < mesh.vertices.len())
                    .ok_or_else(|| {
                        invalid(format!("mesh {m}: triangle vertex {index} does not exist"))
                    })?;
            }
            // MD5 fronts wind the other way round from glTF's: swap two corners.
            mesh.triangles.push([corners[0], corners[2], corners[1]]);
        }
        smooth_normals(&mut mesh);
        model.meshes.push(mesh);
    }
    if empty > 0 {
        report.info(
            codes::EMPTY_MESHES,
            format!("{empty} mesh blocks without vertices were skipped"),
        );
    }
    if faceless > 0 {
        report.loss(
            codes::FACELESS_VERTICES,
            format!("{faceless} vertices of meshes without triangles were left out"),
        );
    }
    if truncated > 0 {
        report.loss(
            codes::WEIGHTS_TRUNCATED,
            format!(
                "{truncated} vertices have more than 4 weights: the 4 largest were kept and \
                 renormalised"
            ),
        );
    }
    if renormalized > 0 {
        report.info(
            codes::WEIGHTS_RENORMALIZED,
            format!("{renormalized} vertices' weights did not sum to 1 and were rescaled"),
        );
    }
    if unweighted > 0 {
        report.warn(
            codes::BLEND_WITHOUT_WEIGHT,
            format!("{unweighted} vertices have no weight and are bound to no joint"),
        );
    }
    if !model.meshes.is_empty() {
        report.info(
            codes::NORMALS_GENERATED,
            "normals were generated from the triangles (MD5 stores none)",
        );
    }
    report_latin1(latin1, &mut report);
    Ok((model, report))
}

/// The mesh's name: the `// meshes:` comment or `name` line, else the shader's last path
/// part, else `mesh<index>`.
fn mesh_name(view: &MeshView<'_>, index: usize, latin1: &mut usize) -> String {
    if let Some(name) = view.name.filter(|n| !n.is_empty()) {
        return decode_counted(name, latin1);
    }
    if let Some(shader) = view.shader.filter(|s| !s.is_empty()) {
        let base = shader
            .rsplit(|&b| b == b'/' || b == b'\\')
            .next()
            .filter(|b| !b.is_empty())
            .unwrap_or(shader);
        return decode_counted(base, latin1);
    }
    format!("mesh{index}")
}

/// The skeleton of an `.md5anim`: hierarchy names and parents, baseframe transforms.
fn anim_skeleton(file: &File, report: &mut Report) -> Result<Skeleton, Error> {
    let hierarchy: Vec<&HierarchyEntry> = file.hierarchy().collect();
    let base: Vec<&BaseFrameEntry> = file.base_frame().collect();
    if base.len() != hierarchy.len() {
        return Err(invalid(format!(
            "{} baseframe lines for {} joints",
            base.len(),
            hierarchy.len()
        )));
    }
    let mut latin1 = 0;
    let mut skeleton = Skeleton::default();
    for (i, (h, b)) in hierarchy.iter().zip(&base).enumerate() {
        let mut joint = Joint::new(decode_counted(&h.name, &mut latin1));
        joint.parent = match h.parent {
            p if p < 0 => None,
            p if (p as usize) < hierarchy.len() && p as usize != i => Some(JointId(p as u32)),
            p => return Err(invalid(format!("joint {i} has parent {p}"))),
        };
        let bind = Rigid {
            position: DVec3::from_array(b.position),
            rotation: restore_w(b.orientation),
        };
        joint.translation = bind.position.as_vec3();
        joint.rotation = bind.rotation.as_quat().normalize();
        skeleton.joints.push(joint);
    }
    break_cycles(&mut skeleton, report);
    report_latin1(latin1, report);
    Ok(skeleton)
}

/// The animation of an `.md5anim`. A channel the file does not animate poses at the
/// baseframe's value. With `binds` (`binds[j]`: the bind transform of the model joint the
/// file's joint `j` drives, `map[j]`), such a channel gets a key only where the baseframe
/// differs from that bind; without (the animation stands apart from any mesh, and whichever
/// skeleton it is later put on has a bind of its own) it always gets one key at 0.
fn animation(
    file: &File,
    name: &str,
    binds: Option<&[Rigid]>,
    map: &[JointId],
    options: &ConvertOptions,
    report: &mut Report,
) -> Result<Animation, Error> {
    let fps = match file.frame_rate() {
        Some(rate) if rate.is_finite() && rate > 0.0 && (rate as f32).is_finite() => rate as f32,
        Some(rate) => {
            let fps = options.fallback_fps();
            report.warn(
                codes::INVALID_FPS,
                format!("frameRate {rate} is not a positive number; {fps} used"),
            );
            fps
        }
        None => {
            let fps = options.fallback_fps();
            report.info(
                codes::DEFAULT_FRAMERATE,
                format!("no frameRate line; {fps} frames per second used"),
            );
            fps
        }
    };
    let hierarchy: Vec<&HierarchyEntry> = file.hierarchy().collect();
    let base: Vec<&BaseFrameEntry> = file.base_frame().collect();
    if base.len() != hierarchy.len()
        || map.len() != hierarchy.len()
        || binds.is_some_and(|b| b.len() != map.len())
    {
        return Err(invalid(format!(
            "{} baseframe lines for {} joints",
            base.len(),
            hierarchy.len()
        )));
    }
    let frames: Vec<Vec<f64>> = file.frames().map(|f| f.values().collect()).collect();
    // Each key needs a number of its own in a file whose joints do not share numbers; a
    // file whose start indices overlap may reuse them, but not without bound.
    let numbers: usize = frames.iter().map(Vec::len).sum();
    let channels: usize = hierarchy
        .iter()
        .map(|h| usize::from(h.flags & 7 != 0) + usize::from(h.flags & 56 != 0))
        .sum();
    let keys = channels.saturating_mul(frames.len());
    if keys > 4 * numbers + (1 << 16) {
        return Err(invalid(format!(
            "the frames' {numbers} numbers would make {keys} keys: the joints' start indices \
             overlap beyond reason"
        )));
    }
    let mut animation = Animation::new(name, fps);
    animation.duration = frames.len().saturating_sub(1) as f32 / fps;
    for (j, (h, b)) in hierarchy.iter().zip(&base).enumerate() {
        let mut track = Track::new(map[j]);
        let bind = binds.map(|b| b[j]);
        let base_position = DVec3::from_array(b.position);
        let base_rotation = restore_w(b.orientation);
        if h.flags & 7 != 0 {
            for (f, values) in frames.iter().enumerate() {
                let (t, _) = components(h, b, values);
                track
                    .translations
                    .push(Key::new(f as f32 / fps, t.as_vec3()));
            }
        } else if bind.is_none_or(|bind| {
            !base_position.abs_diff_eq(bind.position, 1e-6 * (1.0 + bind.position.length()))
        }) {
            track
                .translations
                .push(Key::new(0.0, base_position.as_vec3()));
        }
        if h.flags & 56 != 0 {
            let mut previous: Option<DQuat> = None;
            for (f, values) in frames.iter().enumerate() {
                let (_, mut q) = components(h, b, values);
                if previous.is_some_and(|p| p.dot(q) < 0.0) {
                    q = -q;
                }
                previous = Some(q);
                track
                    .rotations
                    .push(Key::new(f as f32 / fps, q.as_quat().normalize()));
            }
        } else if bind.is_none_or(|bind| base_rotation.dot(bind.rotation).abs() < 1.0 - 1e-9) {
            track
                .rotations
                .push(Key::new(0.0, base_rotation.as_quat().normalize()));
        }
        if !track.is_empty() {
            animation.tracks.push(track);
        }
    }
    Ok(animation)
}

/// Joint `h`'s local pose in one frame: the baseframe with the flagged components replaced
/// from `values` (in the order Tx Ty Tz Qx Qy Qz from `start_index`), `w` rebuilt after.
/// Numbers past the frame's end keep the baseframe value.
pub(crate) fn components(h: &HierarchyEntry, b: &BaseFrameEntry, values: &[f64]) -> (DVec3, DQuat) {
    let mut pose = [
        b.position[0],
        b.position[1],
        b.position[2],
        b.orientation[0],
        b.orientation[1],
        b.orientation[2],
    ];
    let mut k = h.start_index;
    for (bit, slot) in pose.iter_mut().enumerate() {
        if h.flags & (1 << bit) != 0 {
            if let Some(&v) = usize::try_from(k).ok().and_then(|k| values.get(k)) {
                *slot = v;
            }
            k = k.saturating_add(1);
        }
    }
    (
        DVec3::new(pose[0], pose[1], pose[2]),
        restore_w([pose[3], pose[4], pose[5]]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flagged_components_replace_the_baseframe_in_order() {
        // Flags 6 (Ty Tz) read two numbers from start 1: y and z; the rest stay.
        let h = HierarchyEntry {
            name: b"j".to_vec(),
            parent: -1,
            flags: 6 | 16,
            start_index: 1,
        };
        let b = BaseFrameEntry {
            position: [1.0, 2.0, 3.0],
            orientation: [0.0, 0.0, 0.0],
        };
        let (t, q) = components(&h, &b, &[9.0, 20.0, 30.0, 0.6]);
        assert_eq!(t, DVec3::new(1.0, 20.0, 30.0));
        assert!((q.y - 0.6).abs() < 1e-12 && (q.w + 0.8).abs() < 1e-12);
        // A frame that ends early keeps the baseframe for the missing numbers.
        let (t, _) = components(&h, &b, &[9.0, 20.0]);
        assert_eq!(t, DVec3::new(1.0, 20.0, 3.0));
    }
}
