//! The neutral model to IQE.

use super::ConvertOptions;
use crate::command::{Attribute, Command, FaceBase, PoseKind};
use crate::error::Error;
use crate::file::File;
use crate::write::is_bare_word;
use rigport_anim::normalize_animation;
use rigport_anim::sample::{Transform, period, sample_animation_track_in};
use rigport_model_core::codes;
use rigport_model_core::diagnostic::excerpt;
use rigport_model_core::glam::{Quat, Vec3};
use rigport_model_core::{Animation, Key, Model, Report, Track};

/// Poses (frames × joints) [`from_model`] always allows: twice the largest real animation
/// seen (66 123 poses), whatever the number of keys.
const FREE_POSES: u64 = 1 << 17;

/// Most poses a model may make [`from_model`] write: [`FREE_POSES`], or one per key of the
/// model when it has more. IQE stores every frame, so a few keys at an absurd time (a damaged
/// file) would otherwise turn a kilobyte into gigabytes; one pose per key keeps the output
/// proportional to the input the keys came from.
fn pose_allowance(model: &Model) -> u64 {
    let keys = model.key_count();
    FREE_POSES.max(keys as u64)
}

/// Converts a model to an IQE file: joints with `pq` base poses, then each mesh with its
/// material, vertices (`vp`, `vt`/`vc` when any mesh has them, `vn`, `vb` when there is a
/// skeleton) and `fm` faces rewound clockwise, then animations sampled at their frame rate,
/// then the comment section. The report names what IQE cannot hold.
///
/// Animations are sampled with `rigport_anim::sample` at every frame of their frame rate;
/// of several tracks for one joint the first is used (the others are reported lost). A
/// looping animation of period `N/F` is written as its `N` frames `0 … N−1`: IQE plays
/// frame 0 again after the last. A model that refers to something it does not have is
/// refused ([`Model::check_references`]).
pub fn from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    // Refused, as by every rigport writer: IQE would read a parent past the end as an error
    // and a face index past its mesh as a vertex of the next mesh (wrong geometry).
    if let Some(problem) = model.check_references().into_iter().next() {
        return Err(Error::from(problem));
    }
    let mut report = Report::default();
    let mut names = NameFixer::default();
    // Commands go straight into the file's compact store, one at a time.
    let mut commands = File::default();
    commands.comment = model.comment.as_ref().map(|c| c.as_bytes().to_vec());
    for joint in &model.skeleton.joints {
        commands.push(&Command::Joint {
            name: names.fix(&joint.name),
            parent: Some(joint.parent.map_or(-1, |p| i64::from(p.0))),
        })?;
        commands.push(&pose(joint.translation, joint.rotation, joint.scale))?;
    }
    add_meshes(model, &mut names, &mut commands, &mut report)?;
    let mut poses_left = pose_allowance(model);
    for animation in &model.animations {
        add_animation(
            model,
            animation,
            options,
            &mut poses_left,
            &mut names,
            &mut commands,
            &mut report,
        )?;
    }
    let materials_with_more = model
        .materials
        .iter()
        .filter(|m| !m.is_only_a_name())
        .count();
    if materials_with_more > 0 {
        report.loss(
            codes::MATERIAL_PROPERTIES,
            format!("{materials_with_more} materials have colours, shininess, opacity or textures; IQE keeps only the name"),
        );
    }
    if names.changed > 0 {
        report.loss(
            codes::NAME_QUOTES,
            format!(
                "{} names held line breaks (now spaces) or both quotes and white space (quotes now apostrophes)",
                names.changed
            ),
        );
    }
    Ok((commands, report))
}

/// Names as bytes; counts the ones IQE cannot quote.
#[derive(Default)]
struct NameFixer {
    changed: usize,
}

impl NameFixer {
    fn fix(&mut self, name: &str) -> Vec<u8> {
        // A line break ends an IQE token even inside quotes: it would split the command.
        if name.contains(['\n', '\r']) {
            self.changed += 1;
            return self.fix(&name.replace(['\n', '\r'], " "));
        }
        let bytes = name.as_bytes();
        if bytes.contains(&b'"') && !is_bare_word(bytes) {
            self.changed += 1;
            return bytes
                .iter()
                .map(|&b| if b == b'"' { b'\'' } else { b })
                .collect();
        }
        bytes.to_vec()
    }
}

/// `f32` to the `f64` with the same shortest decimal text (0.1f32 stays "0.1").
fn wide(value: f32) -> f64 {
    format!("{value}").parse().unwrap_or(f64::from(value))
}

fn pose(t: Vec3, r: Quat, s: Vec3) -> Command {
    let mut values: Vec<f64> = [t.x, t.y, t.z, r.x, r.y, r.z, r.w].map(wide).to_vec();
    if s != Vec3::ONE {
        values.extend([s.x, s.y, s.z].map(wide));
    }
    Command::Pose(PoseKind::Quaternion, values)
}

fn add_meshes(
    model: &Model,
    names: &mut NameFixer,
    commands: &mut File,
    report: &mut Report,
) -> Result<(), Error> {
    // An IQE file without any face command makes every 3 vertices of a mesh a triangle, so
    // vertices of a model without triangles cannot be written without inventing faces.
    let faceless = model.triangle_count() == 0;
    if faceless && model.vertex_count() > 0 {
        report.loss(
            codes::FACELESS_VERTICES,
            format!(
                "{} vertices belong to no triangle; IQE would read vertices without any face as triangles, so they are left out",
                model.vertex_count()
            ),
        );
    }
    let uvs = model.meshes.iter().any(|m| m.has_uvs);
    let colors = model.meshes.iter().any(|m| m.has_colors);
    let skinned = !model.skeleton.joints.is_empty();
    for mesh in &model.meshes {
        commands.push(&Command::Mesh(Some(names.fix(&mesh.name))))?;
        // Always name the material: in IQE it is sticky from one mesh to the next.
        let material = mesh
            .material
            .and_then(|m| model.materials.get(m.index()))
            .map_or_else(Vec::new, |m| names.fix(&m.name));
        commands.push(&Command::Material(Some(material)))?;
        if faceless {
            continue;
        }
        for v in &mesh.vertices {
            let f = |values: &[f32]| values.iter().copied().map(wide).collect::<Vec<f64>>();
            commands.push(&Command::Vertex(
                Attribute::Position,
                f(&v.position.to_array()),
            ))?;
            if uvs {
                commands.push(&Command::Vertex(Attribute::TexCoord, f(&v.uv.to_array())))?;
            }
            commands.push(&Command::Vertex(Attribute::Normal, f(&v.normal.to_array())))?;
            if colors {
                commands.push(&Command::Vertex(Attribute::Color, f(&v.color.to_array())))?;
            }
            if skinned {
                let pairs = v
                    .influences()
                    .map(|(j, w)| (i64::from(j.0), wide(w)))
                    .collect();
                commands.push(&Command::Blend(pairs))?;
            }
        }
        for t in &mesh.triangles {
            // The model winds fronts counter-clockwise; IQE clockwise.
            commands.push(&Command::Face(
                FaceBase::Mesh,
                vec![t[0].into(), t[2].into(), t[1].into()],
            ))?;
        }
    }
    Ok(())
}

fn add_animation(
    model: &Model,
    animation: &Animation,
    options: &ConvertOptions,
    poses_left: &mut u64,
    names: &mut NameFixer,
    commands: &mut File,
    report: &mut Report,
) -> Result<(), Error> {
    let fps = if animation.fps > 0.0 && animation.fps.is_finite() {
        animation.fps
    } else {
        options.default_fps
    };
    let end = animation.end_time();
    // Saturating: a damaged file's key time (3e38 s) makes the product saturate to u64::MAX.
    let span = (f64::from(end) * f64::from(fps)).round() as u64;
    // A looping animation's last frame blends back to frame 0 at `end` (its period), so the
    // frame at `end` is frame 0 and is not written again.
    let frames = if animation.looping {
        span.max(1)
    } else {
        span.saturating_add(1)
    };
    let joints = model.skeleton.joints.len() as u64;
    let poses = frames.saturating_mul(joints.max(1));
    if !end.is_finite() || poses > *poses_left {
        return Err(unwritable(format!(
            "animation `{}` would need {frames} frames of {joints} joints at {fps} fps, \
             more poses than the model's keys justify ({} left)",
            excerpt(animation.name.as_bytes(), 40),
            *poses_left
        )));
    }
    *poses_left -= poses;
    commands.push(&Command::Animation(Some(names.fix(&animation.name))))?;
    commands.push(&Command::Framerate(wide(fps)))?;
    if animation.looping {
        commands.push(&Command::Loop)?;
    }
    let off_frame = rigport_anim::resample::keys_between_frames(animation, fps);
    if off_frame {
        report.info(
            codes::RESAMPLED,
            format!(
                "animation `{}` has keys between frames; sampled at {fps} fps",
                animation.name
            ),
        );
    }
    if animation.interpolation.is_cubic() {
        report.loss(
            codes::CUBIC_INTERPOLATION,
            format!(
                "animation `{}` is cubic; sampled on the curve at each frame, IQE interpolates linearly in between",
                animation.name
            ),
        );
    }
    let clean = sortable(animation, model.skeleton.len(), report);
    let animation = clean.as_ref().unwrap_or(animation);
    // The first track of each joint, as `Animation::track` finds it.
    let mut first_track: Vec<Option<&Track>> = vec![None; model.skeleton.len()];
    let mut duplicates = 0usize;
    for track in &animation.tracks {
        match first_track.get_mut(track.joint.index()) {
            Some(slot @ None) => *slot = Some(track),
            Some(Some(_)) => duplicates += 1,
            // Unreachable: track joints were checked to exist (`check_references`).
            None => {}
        }
    }
    if duplicates > 0 {
        report.loss(
            codes::TRACK_JOINT_DUPLICATE,
            format!(
                "{duplicates} further tracks of an already animated joint in animation `{}` are not written (the first track of a joint wins)",
                animation.name
            ),
        );
    }
    let period = period(animation);
    for frame in 0..frames {
        let time = frame as f32 / fps;
        commands.push(&Command::Frame(Some(frame.to_string().into_bytes())))?;
        for (joint, track) in model.skeleton.joints.iter().zip(&first_track) {
            let bind = Transform::of_joint(joint);
            let local = track.map_or(bind, |t| {
                sample_animation_track_in(animation, period, t, time, &bind)
            });
            commands.push(&pose(local.translation, local.rotation, local.scale))?;
        }
    }
    Ok(())
}

/// A sorted, finite copy of an animation whose keys `rigport_anim::sample` cannot take as
/// they are (out of time order, or not finite), with what was changed; `None` when the keys
/// are fine, which is what every reader produces.
fn sortable(animation: &Animation, joints: usize, report: &mut Report) -> Option<Animation> {
    fn fine<T>(keys: &[Key<T>], finite: impl Fn(&T) -> bool) -> bool {
        keys.windows(2).all(|w| w[0].time <= w[1].time)
            && keys.iter().all(|k| k.time.is_finite() && finite(&k.value))
    }
    let all_fine = animation.tracks.iter().all(|t| {
        fine(&t.translations, |v| v.is_finite())
            && fine(&t.rotations, |q| q.is_finite())
            && fine(&t.scales, |v| v.is_finite())
    });
    if all_fine {
        return None;
    }
    let mut clean = animation.clone();
    let notices = normalize_animation(&mut clean, joints);
    // Duplicate tracks are this writer's loss, reported by the caller.
    report.notices.extend(
        notices
            .notices
            .into_iter()
            .filter(|n| n.code != codes::TRACK_JOINT_DUPLICATE),
    );
    Some(clean)
}

/// A model IQE cannot hold.
fn unwritable(message: String) -> Error {
    Error::Unwritable {
        format: "IQE",
        message,
    }
}
