//! The synthetic [`Rig`] scene as a neutral [`Model`], for tests that need a model of a
//! given size (the MilkShape limit tests) without going through a file.

use super::rig::{Rig, euler_to_quat};
use rigport_model_core::glam::{Quat, Vec2, Vec3};
use rigport_model_core::{
    Animation, Joint, JointId, Key, Material, MaterialId, Mesh, Model, Skeleton, Track, Vertex,
};

/// The scene of `rig` as a model: its grids as meshes (each with its own material), its
/// binary-tree skeleton, and `animations` animations named `anim0`, `anim1`, … of
/// `rig.frames` keys at 24 fps (animation `a` starts its bend cycle `a` frames later).
pub fn model(rig: &Rig, animations: u32) -> Model {
    let mut model = Model::default();
    for m in 0..rig.meshes {
        let mut mesh = Mesh::new(format!("grid{m}"));
        mesh.material = Some(MaterialId(m));
        mesh.has_uvs = true;
        for j in 0..=rig.rows {
            for i in 0..=rig.cols {
                let influences = rig.influences(m, i, j);
                mesh.vertices.push(Vertex {
                    position: Vec3::from(rig.position(m, i, j)),
                    normal: Vec3::from(rig.normal(m, i, j)),
                    uv: Vec2::from(rig.uv(i, j)),
                    joints: influences.map(|(joint, _)| JointId(joint)),
                    weights: influences.map(|(_, w)| w),
                    ..Vertex::default()
                });
            }
        }
        for j in 0..rig.rows {
            for i in 0..rig.cols {
                mesh.triangles.extend(rig.quad_triangles(i, j));
            }
        }
        model.meshes.push(mesh);
        model
            .materials
            .push(Material::named(format!("material{m}")));
    }
    model.skeleton = skeleton(rig);
    for a in 0..animations {
        model.animations.push(animation(rig, &model.skeleton, a));
    }
    model
}

fn quat(angles: [f32; 3]) -> Quat {
    Quat::from_array(euler_to_quat(angles))
}

fn skeleton(rig: &Rig) -> Skeleton {
    let joints = (0..rig.joints)
        .map(|j| {
            let (translation, rotation) = rig.bind(j);
            let mut joint = Joint::new(format!("joint{j}"));
            joint.parent = rig.parent(j).map(JointId);
            joint.translation = Vec3::from(translation);
            joint.rotation = quat(rotation);
            joint
        })
        .collect();
    Skeleton { joints }
}

/// MilkShape-style keys (relative to the bind pose) made absolute: `pos + R(rot)·k` and
/// `R(rot)·R(k)`.
fn animation(rig: &Rig, skeleton: &Skeleton, index: u32) -> Animation {
    let fps = 24.0;
    let mut animation = Animation::new(format!("anim{index}"), fps);
    animation.duration = rig.frames.saturating_sub(1) as f32 / fps;
    for (j, joint) in skeleton.joints.iter().enumerate() {
        let mut track = Track::new(JointId(j as u32));
        for frame in 0..rig.frames {
            let (offset, turn) = rig.key(j as u32, frame + index);
            let time = frame as f32 / fps;
            track.translations.push(Key::new(
                time,
                joint.translation + joint.rotation * Vec3::from(offset),
            ));
            track
                .rotations
                .push(Key::new(time, (joint.rotation * quat(turn)).normalize()));
        }
        animation.tracks.push(track);
    }
    animation
}
