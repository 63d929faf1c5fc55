//! The render benchmark's model, shared by its criterion bench and its `profile` example.

use rigport_model_core::glam::{Quat, Vec2, Vec3};
use rigport_model_core::{
    Animation, Joint, JointId, Key, Material, MaterialId, Mesh, Model, Skeleton, Track, Vertex,
};

/// A sphere of `2 × n × n` triangles (a little more than 60 000 for n = 174) whose upper
/// half follows a second joint that an animation turns. Its texture coordinates wrap a
/// texture around it once; it is drawn untextured unless a material is added (see
/// [`textured`]).
pub fn sphere(n: u32) -> Model {
    let mut mesh = Mesh::new("sphere");
    for i in 0..=n {
        let theta = std::f32::consts::PI * i as f32 / n as f32;
        for j in 0..=n {
            let phi = std::f32::consts::TAU * j as f32 / n as f32;
            let p = Vec3::new(
                theta.sin() * phi.cos(),
                theta.cos(),
                theta.sin() * phi.sin(),
            );
            let up = p.y.max(0.0);
            mesh.vertices.push(Vertex {
                position: p,
                normal: p,
                uv: Vec2::new(j as f32 / n as f32, i as f32 / n as f32),
                joints: [JointId(0), JointId(1), JointId(0), JointId(0)],
                weights: [1.0 - up, up, 0.0, 0.0],
                ..Vertex::default()
            });
        }
    }
    let row = n + 1;
    for i in 0..n {
        for j in 0..n {
            let a = i * row + j;
            mesh.triangles.push([a, a + row, a + 1]);
            mesh.triangles.push([a + 1, a + row, a + row + 1]);
        }
    }
    let mut top = Joint::new("top");
    top.parent = Some(JointId(0));
    let mut animation = Animation::new("bend", 30.0);
    let mut track = Track::new(JointId(1));
    track.rotations = vec![
        Key::new(0.0, Quat::IDENTITY),
        Key::new(1.0, Quat::from_rotation_z(1.0)),
    ];
    animation.tracks.push(track);
    Model {
        meshes: vec![mesh],
        skeleton: Skeleton {
            joints: vec![Joint::new("root"), top],
        },
        animations: vec![animation],
        ..Model::default()
    }
}

/// The sphere with a material naming `skin.png` (supply it from a `TextureSource`).
pub fn textured(n: u32) -> Model {
    let mut model = sphere(n);
    model.materials.push(Material {
        texture: Some("skin.png".to_owned()),
        ..Material::default()
    });
    model.meshes[0].material = Some(MaterialId(0));
    model.meshes[0].has_uvs = true;
    model
}
