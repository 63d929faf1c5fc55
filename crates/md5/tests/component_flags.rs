//! Joints that animate only some of their components: a mesh and animation whose 64 joints
//! carry every flag pattern (`rigport_test_support::synth::md5_flags`, with a baseframe that
//! differs from the mesh's bind pose in every joint) posed by this crate and by hand, at
//! every frame. Every joint and every vertex must agree within 2e-3 of the model's size
//! (`tests/oracle.rs` holds the same files to the IQM SDK).
//!
//! Twice: the pair read together (`to_model_with_animations`), and the `.md5anim` read
//! alone (`Md5Anim`, the way `rigport convert --with-anims` reads it) with its tracks then
//! moved onto the mesh's joints by name, as the facade attaches another file's animations.

use rigport_anim::Pose;
use rigport_anim::skin::skin_vertex;
use rigport_md5::ANIM_CODEC;
use rigport_md5::{ConvertOptions, File, to_model_with_animations};
use rigport_model_core::Model;
use rigport_model_core::glam::{DVec3, Vec3};
use rigport_test_support::synth::{Md5Flags, md5_flags};

const FRAMES: usize = 5;

fn model_of(synth: &Md5Flags) -> Model {
    let mesh = File::from_slice(synth.mesh.as_bytes()).unwrap();
    let anim = File::from_slice(synth.anim.as_bytes()).unwrap();
    let (model, _) =
        to_model_with_animations(&mesh, &[("flags", &anim)], &ConvertOptions::default()).unwrap();
    model
}

/// The mesh alone, with the animation of the `.md5anim` read on its own and its tracks moved
/// onto the mesh's joints of the same names.
fn model_attached(synth: &Md5Flags) -> Model {
    let mesh = File::from_slice(synth.mesh.as_bytes()).unwrap();
    let (mut model, _) = to_model_with_animations(&mesh, &[], &ConvertOptions::default()).unwrap();
    let (source, _) = ANIM_CODEC
        .read(synth.anim.as_bytes(), &Default::default())
        .unwrap();
    let mut animation = source.animations[0].clone();
    for track in &mut animation.tracks {
        let name = &source.skeleton.joints[track.joint.index()].name;
        track.joint = model.skeleton.find(name).unwrap();
    }
    model.animations.push(animation);
    model
}

/// The diagonal of the bind vertices' box.
fn size(points: &[DVec3]) -> f64 {
    let (min, max) = points.iter().fold(
        (DVec3::splat(f64::MAX), DVec3::splat(f64::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    (max - min).length()
}

#[test]
fn every_flag_pattern_poses_as_the_baseframe_and_frames_mean() {
    let synth = md5_flags(FRAMES);
    check(&synth, &model_of(&synth));
}

#[test]
fn an_md5anim_read_alone_poses_another_skeleton_from_its_baseframe() {
    let synth = md5_flags(FRAMES);
    check(&synth, &model_attached(&synth));
}

/// `model` posed at every frame against the by-hand pose of `synth`.
fn check(synth: &Md5Flags, model: &Model) {
    let bind = synth.bind_vertices();
    let size = size(&bind);
    let vertices = &model.meshes[0].vertices;
    assert_eq!(vertices.len(), bind.len());
    for (v, b) in vertices.iter().zip(&bind) {
        assert!(v.position.as_dvec3().distance(*b) < 1e-5 * size, "bind");
    }
    let animation = &model.animations[0];
    let mut pose = Pose::new(&model.skeleton).unwrap();
    let (mut worst_joint, mut worst_vertex) = ((0.0f64, 0, 0), (0.0f64, 0, 0));
    for frame in 0..FRAMES {
        pose.sample(animation, frame as f32 / synth.fps as f32);
        for (j, (position, rotation)) in synth.posed_joints(frame).iter().enumerate() {
            let world = pose.world_matrices()[j].as_dmat4();
            let gap = world.transform_point3(DVec3::ZERO).distance(*position).max(
                // A unit offset turned by both rotations: their difference, in model units.
                (world.transform_vector3(DVec3::X) - *rotation * DVec3::X)
                    .length()
                    .max((world.transform_vector3(DVec3::Y) - *rotation * DVec3::Y).length())
                    * size,
            );
            if gap / size > worst_joint.0 {
                worst_joint = (gap / size, frame, j);
            }
        }
        for (i, (v, expected)) in vertices.iter().zip(synth.posed_vertices(frame)).enumerate() {
            let (posed, _): (Vec3, _) = skin_vertex(pose.skinning_matrices(), v);
            let gap = posed.as_dvec3().distance(expected) / size;
            if gap > worst_vertex.0 {
                worst_vertex = (gap, frame, i / 3);
            }
        }
    }
    println!(
        "worst joint {:.2e} (frame {}, joint {}), worst vertex {:.2e} (frame {}, joint {})",
        worst_joint.0, worst_joint.1, worst_joint.2, worst_vertex.0, worst_vertex.1, worst_vertex.2
    );
    assert!(worst_joint.0 < 2e-3, "joint {worst_joint:?}");
    assert!(worst_vertex.0 < 2e-3, "vertex {worst_vertex:?}");
}
