//! SMD to the neutral model.

use super::ConvertOptions;
use crate::error::Error;
use crate::file::{File, Item, SkeletonLine, Vertex as SmdVertex};
use rigport_anim::euler::euler_to_quat;
use rigport_anim::sample::Transform;
use rigport_anim::skeleton::break_cycles;
use rigport_anim::weights::keep_largest_four;
use rigport_model_core::glam::{Quat, Vec2, Vec3};
use rigport_model_core::text::decode_name;
use rigport_model_core::{
    Animation, Joint, JointId, Key, Material, MaterialId, Mesh, Model, Report, Track, UpAxis,
    Vertex, codes,
};
use std::collections::HashMap;

/// A bone line's transform: translation and `Rz·Ry·Rx` Euler angles.
pub(crate) fn pose_transform(position: [f32; 3], rotation: [f32; 3]) -> (Vec3, Quat) {
    (
        Vec3::from_array(position),
        euler_to_quat(Vec3::from_array(rotation)),
    )
}

/// Bone ID → joint, the first node with an ID winning.
fn id_map(file: &File) -> HashMap<i32, JointId> {
    let mut ids = HashMap::new();
    for (index, node) in file.nodes().enumerate() {
        ids.entry(node.id).or_insert(JointId(index as u32));
    }
    ids
}

/// Converts a file to a model.
///
/// * Skeleton: the `nodes` in file order (several roots allowed; a parent ID that is not
///   listed makes a root, a parent cycle is broken), bind transforms from the first `time`
///   frame (`R = Rz·Ry·Rx`), a bone that frame does not list at the identity (warned).
/// * Meshes: one per material string, in order of first use; the material is named after
///   the string and its texture is the string (SMD materials are texture file names). The
///   mesh is named after the string up to its first `.`. Corners are welded when position,
///   normal, uv and weights are equal; normals come from the file (scaled to unit length),
///   `v` is flipped to the model's top-left origin, and a triangle whose corners turn
///   against its stored normals is rewound counter-clockwise (reported).
/// * Weights: a 9-field line or a link count of 0 puts the vertex wholly on its parent
///   bone; links to the same bone add up; what the links leave below 1 goes to the parent
///   bone; the sum is then normalized. More than four influences keep the four largest,
///   renormalized (a loss). Links to bones that are not listed are ignored.
/// * Animation: an animation file (no `triangles`) or a file with more than one frame
///   becomes one animation named [`ConvertOptions::animation_name`] at
///   [`ConvertOptions::fps`] (SMD stores no frame rate; a note says which was assumed). A
///   frame that lists only some bones holds the others at their previous values.
/// * `Model::up` is [`UpAxis::Z`]; `vertexanimation` blocks (flex shapes) and unknown
///   blocks are reported as not carried; comment lines before the first block become the
///   model comment, others are reported.
pub fn to_model(file: &File, options: &ConvertOptions) -> Result<(Model, Report), Error> {
    let fps = options.checked_fps()?;
    let mut report = Report::default();
    let mut model = Model {
        up: UpAxis::Z,
        ..Model::default()
    };
    let ids = id_map(file);

    // Skeleton and bind pose.
    let frames = file.frames();
    let first: HashMap<i32, &crate::file::BonePose> = frames
        .first()
        .map(|f| f.poses.iter().map(|p| (p.bone, *p)).collect())
        .unwrap_or_default();
    let mut unposed = 0usize;
    for node in file.nodes() {
        let mut joint = Joint::new(decode_name(&node.name));
        joint.parent = if node.parent == -1 {
            None
        } else {
            // A parent that is not listed: a root (the reader warned).
            ids.get(&node.parent).copied()
        };
        match first.get(&node.id) {
            Some(pose) => {
                (joint.translation, joint.rotation) = pose_transform(pose.position, pose.rotation);
            }
            None => unposed += 1,
        }
        model.skeleton.joints.push(joint);
    }
    if unposed > 0 {
        report.warn(
            codes::BASE_POSE_COUNT,
            format!("{unposed} bone(s) have no line in the first skeleton frame; their bind pose is the identity"),
        );
    }
    break_cycles(&mut model.skeleton, &mut report);

    add_meshes(file, &ids, &mut model, &mut report);

    if !file.has_triangles() || frames.len() > 1 {
        let node_joints: Vec<Option<JointId>> = (0..model.skeleton.len())
            .map(|i| Some(JointId(i as u32)))
            .collect();
        let animation = build_animation(
            file,
            &node_joints,
            &model,
            &options.animation_name,
            fps,
            &mut report,
        );
        model.animations.push(animation);
        report.info(
            codes::DEFAULT_FRAMERATE,
            format!("SMD stores no frame rate; the animation plays at {fps} fps"),
        );
    }

    carry_comments(file, &mut model, &mut report);
    let shapes = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::VertexAnimation(lines) => Some(lines),
            _ => None,
        })
        .flatten()
        .filter(|l| matches!(l, crate::file::VertexAnimationLine::Time { .. }))
        .count();
    if file.has_vertex_animation() {
        report.loss(
            codes::MORPH_TARGETS,
            format!("the `vertexanimation` block ({shapes} shapes) is not carried"),
        );
    }
    let unknown: Vec<String> = file
        .unknown_blocks()
        .map(|b| format!("`{}`", decode_name(&b.keyword)))
        .collect();
    if !unknown.is_empty() {
        report.loss(
            codes::UNKNOWN_BLOCKS,
            format!("unknown blocks are not carried: {}", unknown.join(", ")),
        );
    }
    Ok((model, report))
}

/// Comment lines before the first block become the model comment (markers and one blank
/// after them removed); others are reported as lost.
fn carry_comments(file: &File, model: &mut Model, report: &mut Report) {
    let mut header = Vec::new();
    for item in &file.items {
        match item {
            Item::Comment(text) => header.push(strip_marker(text)),
            _ => break,
        }
    }
    if !header.is_empty() {
        model.comment = Some(header.join("\n"));
    }
    let others = file.comment_lines().len() - header.len() + file.trailing_comment_count();
    if others > 0 {
        report.loss(
            codes::COMMENT_LINES,
            format!(
                "{others} comment(s) after the first block or after a line's fields are not carried"
            ),
        );
    }
}

fn strip_marker(text: &[u8]) -> String {
    let rest = text
        .strip_prefix(b"//")
        .or_else(|| text.strip_prefix(b"#"))
        .or_else(|| text.strip_prefix(b";"))
        .unwrap_or(text);
    let rest = rest.strip_prefix(b" ").unwrap_or(rest);
    decode_name(rest)
}

/// The mesh name of a material string: up to its first `.` (IQM's rule), or the whole
/// string when that leaves nothing.
pub(crate) fn mesh_name(material: &str) -> String {
    match material.find('.') {
        Some(dot) if dot > 0 => material[..dot].to_owned(),
        _ => material.to_owned(),
    }
}

/// The influences of a vertex line by the reader rule, largest first; counts what was
/// adjusted.
#[derive(Default)]
struct WeightStats {
    leftover: usize,
    renormalized: usize,
    truncated: usize,
    unskinned: usize,
}

fn influences(
    vertex: &SmdVertex,
    ids: &HashMap<i32, JointId>,
    out: &mut Vec<(JointId, f32)>,
    stats: &mut WeightStats,
) {
    out.clear();
    let parent = ids.get(&vertex.parent).copied();
    let add = |out: &mut Vec<(JointId, f32)>, joint: JointId, weight: f32| match out
        .iter_mut()
        .find(|(j, _)| *j == joint)
    {
        Some((_, w)) => *w += weight,
        None => out.push((joint, weight)),
    };
    if let Some(links) = vertex.links.as_deref().filter(|l| !l.is_empty()) {
        for link in links {
            if let Some(&joint) = ids.get(&link.bone) {
                if link.weight.is_finite() && link.weight > 0.0 {
                    add(out, joint, link.weight);
                }
            }
        }
        let sum: f32 = out.iter().map(|(_, w)| w).sum();
        if let Some(parent) = parent {
            if sum < 1.0 - 1e-4 {
                add(out, parent, 1.0 - sum);
                stats.leftover += 1;
            }
        }
        let sum: f32 = out.iter().map(|(_, w)| w).sum();
        if sum > 0.0 && (sum - 1.0).abs() > 1e-4 {
            for (_, w) in out.iter_mut() {
                *w /= sum;
            }
            stats.renormalized += 1;
        }
    }
    if out.is_empty() {
        match parent {
            Some(parent) => out.push((parent, 1.0)),
            None => {
                stats.unskinned += 1;
                return;
            }
        }
    }
    if keep_largest_four(out) {
        stats.truncated += 1;
    } else {
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
    }
}

fn add_meshes(file: &File, ids: &HashMap<i32, JointId>, model: &mut Model, report: &mut Report) {
    let mut mesh_of: HashMap<&[u8], usize> = HashMap::new();
    let mut welds: Vec<HashMap<[u32; 16], u32>> = Vec::new();
    let mut buffer = Vec::new();
    let mut stats = WeightStats::default();
    let mut reversed = 0usize;
    for triangle in file.triangles() {
        let key: &[u8] = &triangle.material;
        let mesh_index = *mesh_of.entry(key).or_insert_with(|| {
            let name = decode_name(key);
            let mut material = Material::named(name.clone());
            if !name.is_empty() {
                material.texture = Some(name.clone());
            }
            let material_id = MaterialId(model.materials.len() as u32);
            model.materials.push(material);
            let mut mesh = Mesh::new(mesh_name(&name));
            mesh.material = Some(material_id);
            mesh.has_uvs = true;
            model.meshes.push(mesh);
            welds.push(HashMap::new());
            model.meshes.len() - 1
        });
        let mesh = &mut model.meshes[mesh_index];
        let weld = &mut welds[mesh_index];
        let mut corners = [0u32; 3];
        for (corner, smd) in corners.iter_mut().zip(&triangle.vertices) {
            influences(smd, ids, &mut buffer, &mut stats);
            let normal = Vec3::from_array(smd.normal).normalize_or_zero();
            let mut vertex = Vertex {
                position: Vec3::from_array(smd.position),
                normal,
                uv: Vec2::new(smd.uv[0], 1.0 - smd.uv[1]),
                ..Vertex::default()
            };
            for (slot, (joint, weight)) in buffer.iter().enumerate().take(4) {
                vertex.joints[slot] = *joint;
                vertex.weights[slot] = *weight;
            }
            let mut bits = [0u32; 16];
            let values = [
                vertex.position.x,
                vertex.position.y,
                vertex.position.z,
                vertex.normal.x,
                vertex.normal.y,
                vertex.normal.z,
                vertex.uv.x,
                vertex.uv.y,
            ];
            for (b, v) in bits.iter_mut().zip(values) {
                *b = v.to_bits();
            }
            for slot in 0..4 {
                bits[8 + slot] = vertex.joints[slot].0;
                bits[12 + slot] = vertex.weights[slot].to_bits();
            }
            *corner = *weld.entry(bits).or_insert_with(|| {
                mesh.vertices.push(vertex);
                (mesh.vertices.len() - 1) as u32
            });
        }
        // Counter-clockwise seen from the side the stored normals point to.
        let [a, b, c] = triangle
            .vertices
            .each_ref()
            .map(|v| Vec3::from_array(v.position));
        let face = (b - a).cross(c - a);
        let stored: Vec3 = triangle
            .vertices
            .iter()
            .map(|v| Vec3::from_array(v.normal))
            .sum();
        if face.dot(stored) < 0.0 {
            corners.swap(1, 2);
            reversed += 1;
        }
        mesh.triangles.push(corners);
    }
    if reversed > 0 {
        report.info(
            codes::TRIANGLES_REVERSED,
            format!(
                "{reversed} triangle(s) turned clockwise against their stored normals were rewound"
            ),
        );
    }
    if stats.leftover > 0 {
        report.info(
            codes::WEIGHTS_RENORMALIZED,
            format!(
                "{} vertex line(s) have link weights summing below 1; the rest went to the parent bone",
                stats.leftover
            ),
        );
    }
    if stats.renormalized > 0 {
        report.info(
            codes::WEIGHTS_RENORMALIZED,
            format!(
                "{} vertex line(s) have link weights not summing to 1; they were rescaled",
                stats.renormalized
            ),
        );
    }
    if stats.truncated > 0 {
        report.loss(
            codes::WEIGHTS_TRUNCATED,
            format!(
                "{} vertex line(s) have more than 4 influences; the 4 largest were kept and renormalized",
                stats.truncated
            ),
        );
    }
    if stats.unskinned > 0 {
        report.warn(
            codes::SKIN_JOINT_MISSING,
            format!(
                "{} vertex line(s) name a parent bone that is not listed and no listed link; they are not skinned",
                stats.unskinned
            ),
        );
    }
}

/// The animation of `file`'s skeleton frames. `node_joints[i]` is the model joint of the
/// file's `i`-th node (`None`: not in the model). Bones a frame does not list hold their
/// previous value (the model's bind value before the first frame that lists them).
fn build_animation(
    file: &File,
    node_joints: &[Option<JointId>],
    model: &Model,
    name: &str,
    fps: f32,
    report: &mut Report,
) -> Animation {
    let mut by_id: HashMap<i32, JointId> = HashMap::new();
    for (node, joint) in file.nodes().zip(node_joints) {
        if let Some(joint) = joint {
            by_id.entry(node.id).or_insert(*joint);
        }
    }
    let joints = model.skeleton.len();
    let mut current: Vec<Transform> = model
        .skeleton
        .joints
        .iter()
        .map(Transform::of_joint)
        .collect();
    // The frame each joint's last key is at, if it has any.
    let mut last_key: Vec<Option<usize>> = vec![None; joints];
    let mut tracks: Vec<Track> = (0..joints).map(|j| Track::new(JointId(j as u32))).collect();
    let mut frame = 0usize;
    let mut first_time = None;
    let mut gaps = 0usize;
    let mut started = false;
    let time_of = |frame: usize| frame as f32 / fps;
    for line in file.skeleton() {
        match line {
            SkeletonLine::Time { time, .. } => {
                if started {
                    frame += 1;
                }
                started = true;
                let first = *first_time.get_or_insert(*time);
                if i64::from(*time) != i64::from(first) + frame as i64 {
                    gaps += 1;
                }
            }
            SkeletonLine::Pose(pose) if started => {
                let Some(&joint) = by_id.get(&pose.bone) else {
                    continue;
                };
                let j = joint.index();
                let (translation, rotation) = pose_transform(pose.position, pose.rotation);
                let track = &mut tracks[j];
                // Hold the previous value up to the frame before this one.
                if frame > 0 && last_key[j] != Some(frame - 1) && last_key[j] != Some(frame) {
                    let held = current[j];
                    track
                        .translations
                        .push(Key::new(time_of(frame - 1), held.translation));
                    track
                        .rotations
                        .push(Key::new(time_of(frame - 1), held.rotation));
                }
                if last_key[j] == Some(frame) {
                    // Listed twice in one frame: the later line wins.
                    track.translations.pop();
                    track.rotations.pop();
                }
                track
                    .translations
                    .push(Key::new(time_of(frame), translation));
                track.rotations.push(Key::new(time_of(frame), rotation));
                current[j].translation = translation;
                current[j].rotation = rotation;
                last_key[j] = Some(frame);
            }
            SkeletonLine::Pose(_) | SkeletonLine::Comment(_) => {}
        }
    }
    if gaps > 0 {
        report.warn(
            codes::KEYS_UNSORTED,
            format!("{gaps} `time` value(s) do not follow the previous one by 1; frames play in file order"),
        );
    }
    let mut animation = Animation::new(name, fps);
    animation.duration = if started { time_of(frame) } else { 0.0 };
    animation.tracks = tracks.into_iter().filter(|t| !t.is_empty()).collect();
    animation
}

/// Adds the animation of an animation SMD to a model read from its reference file,
/// matching bones **by name** (studiomdl's and Blender Source Tools' rule; the two files
/// may number bones differently). Bones of the animation the model does not have are
/// reported and skipped; joints the animation does not list keep their bind pose. The
/// animation is named `name` and plays at [`ConvertOptions::fps`].
pub fn add_animation(
    model: &mut Model,
    file: &File,
    name: &str,
    options: &ConvertOptions,
) -> Result<Report, Error> {
    let fps = options.checked_fps()?;
    let mut report = Report::default();
    let mut missing = Vec::new();
    let node_joints: Vec<Option<JointId>> = file
        .nodes()
        .map(|node| {
            let joint = model.skeleton.find(&decode_name(&node.name));
            if joint.is_none() {
                missing.push(decode_name(&node.name));
            }
            joint
        })
        .collect();
    if !missing.is_empty() {
        report.warn(
            codes::TRACK_JOINT_MISSING,
            format!(
                "animation `{name}`: {} bone(s) are not in the model and were skipped: {}",
                missing.len(),
                missing.join(", ")
            ),
        );
    }
    let animation = build_animation(file, &node_joints, model, name, fps, &mut report);
    model.animations.push(animation);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    fn turns(rotation: [f32; 3], from: Vec3, to: Vec3) {
        let (_, q) = pose_transform([0.0; 3], rotation);
        let got = q * from;
        assert!(
            (got - to).length() < 1e-6,
            "{rotation:?}: {from} went to {got}, not {to}"
        );
    }

    #[test]
    fn quarter_turns_by_hand() {
        // One axis at a time: X takes +Y to +Z, Y takes +Z to +X, Z takes +X to +Y.
        turns([FRAC_PI_2, 0.0, 0.0], Vec3::Y, Vec3::Z);
        turns([0.0, FRAC_PI_2, 0.0], Vec3::Z, Vec3::X);
        turns([0.0, 0.0, FRAC_PI_2], Vec3::X, Vec3::Y);
        // All three, X first: +X → +X (X) → −Z (Y) → −Z (Z);
        // +Y → +Z → +X → +Y; +Z → −Y → −Y → +X.
        let all = [FRAC_PI_2; 3];
        turns(all, Vec3::X, Vec3::NEG_Z);
        turns(all, Vec3::Y, Vec3::Y);
        turns(all, Vec3::Z, Vec3::X);
        // Y then Z: +Z → +X (Y) → +Y (Z); the reverse order would give +Z → +X.
        turns([0.0, FRAC_PI_2, FRAC_PI_2], Vec3::Z, Vec3::Y);
    }

    #[test]
    fn half_angles_by_hand() {
        // rz = 0.5: q = (0, 0, sin 0.25, cos 0.25).
        let (_, q) = pose_transform([0.0; 3], [0.0, 0.0, 0.5]);
        let expected = Quat::from_xyzw(0.0, 0.0, 0.247_403_96, 0.968_912_4);
        assert!(q.abs_diff_eq(expected, 1e-6), "{q}");
        // Angles past ±π (real files have −9.47) wrap like any other.
        let (_, a) = pose_transform([0.0; 3], [-9.47, 0.0, 0.0]);
        let (_, b) = pose_transform([0.0; 3], [-9.47 + 4.0 * std::f32::consts::PI, 0.0, 0.0]);
        assert!(a.dot(b).abs() > 1.0 - 1e-5);
    }

    #[test]
    fn the_writer_angles_read_back_as_the_same_rotation() {
        for angles in [[0.3, -1.2, 2.5], [FRAC_PI_2, 0.1, -0.2], [0.0, 0.0, -3.0]] {
            let (_, q) = pose_transform([0.0; 3], angles);
            let written = rigport_anim::euler::quat_to_euler_precise(q).to_array();
            let (_, back) = pose_transform([0.0; 3], written);
            assert!(q.dot(back).abs() > 1.0 - 1e-6, "{angles:?} → {written:?}");
        }
    }

    #[test]
    fn mesh_names_stop_at_the_first_dot() {
        assert_eq!(mesh_name("holygrail.tga"), "holygrail");
        assert_eq!(mesh_name(".hidden"), ".hidden");
        assert_eq!(mesh_name("door01a"), "door01a");
    }
}
