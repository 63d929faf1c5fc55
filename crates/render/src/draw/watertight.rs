//! Triangles that share an edge leave no gap and no double cover along it.
use super::*;
use crate::{NoTextures, Passes, View};
use glam::Quat;

#[test]
fn triangles_sharing_an_edge_leave_no_crack_between_them() {
    // Squares of two triangles, seen face on in square pictures so that the shared
    // diagonal runs through sample centres, and turned a little so that it does not;
    // single-sided (nothing behind to hide a crack): no pixel inside is left partly
    // uncovered.
    for (size, angle) in [
        (64, 0.0_f32),
        (97, 0.0),
        (128, 0.0),
        (100, 0.31),
        (161, 1.13),
    ] {
        let turn = Quat::from_rotation_z(angle);
        let mut mesh = Mesh::new("quad");
        for (x, y) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            mesh.vertices.push(Vertex {
                position: turn * Vec3::new(x, y, 0.0),
                ..Vertex::default()
            });
        }
        mesh.triangles = vec![[0, 1, 2], [0, 2, 3]];
        let model = Model {
            meshes: vec![mesh],
            ..Model::default()
        };
        let options = RenderOptions {
            width: size,
            height: size,
            view: View::Front,
            passes: Passes {
                mask: true,
                ..Passes::default()
            },
            ..RenderOptions::default()
        };
        let picture = render(&model, &options, &NoTextures).expect("picture");
        let mask = picture.mask.expect("mask");
        // A pixel left partly uncovered between four fully covered neighbours.
        let full = |x: u32, y: u32| mask.get_pixel(x, y)[0] == 255;
        let mut holes = 0;
        for y in 1..size - 1 {
            for x in 1..size - 1 {
                let neighbours =
                    full(x - 1, y) && full(x + 1, y) && full(x, y - 1) && full(x, y + 1);
                if neighbours && !full(x, y) {
                    holes += 1;
                }
            }
        }
        assert_eq!(holes, 0, "{size} px, {angle} rad");
    }
}
