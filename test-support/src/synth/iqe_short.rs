//! The synthetic scene as the simplest IQE exporters write it: short
//! lines, numbers with 5 decimals, every vertex `vp`, `vt`, `vn 0 1 0` and
//! `vb 12 0.6 13 0.4`, faces `fm a b c`, and one long animation of `pq` lines. Many short
//! lines are the worst case for a line parser: its cost per line, not per byte, dominates.

use super::rig::{Rig, euler_to_quat};
use std::io::Write;

/// Appends `values` as `%.5f` numbers, each preceded by a space.
fn numbers5(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        // Writing to a Vec cannot fail.
        let _ = write!(out, " {v:.5}");
    }
}

/// The file's bytes. The rig needs at least 14 joints (every vertex is bound to joints 12
/// and 13).
pub fn iqe_short(rig: &Rig) -> Vec<u8> {
    write(rig, Shape::default())
}

/// [`iqe_short`] with one triangle per quad (every other triangle of the grid left out):
/// about as many faces as vertices, the proportion of a real character export whose
/// vertices are split along UV seams and hard edges.
pub fn iqe_anim(rig: &Rig) -> Vec<u8> {
    write(rig, Shape::ANIM)
}

/// [`iqe_anim`] with every grid in one mesh (one `mesh` line; faces number the vertices
/// of all the grids before theirs): a character exported as one object.
pub fn iqe_anim_one_mesh(rig: &Rig) -> Vec<u8> {
    write(
        rig,
        Shape {
            one_mesh: true,
            ..Shape::ANIM
        },
    )
}

/// [`iqe_anim`] without `vn` lines: the reader generates the normals.
pub fn iqe_anim_no_normals(rig: &Rig) -> Vec<u8> {
    write(
        rig,
        Shape {
            normals: false,
            ..Shape::ANIM
        },
    )
}

/// The scene with every grid's faces as `fm a b c d` quads, each vertex bound to two
/// neighbouring joints (`vb J 0.6 J+1 0.4`, J following the column), and the animation
/// marked `loop` with 6-decimal `pq` lines: the shape of a 100 MB character export with
/// quads, as [`quad_rig`](super::quad_rig) sizes it.
pub fn iqe_anim_quads(rig: &Rig) -> Vec<u8> {
    write(
        rig,
        Shape {
            quads: true,
            pose_decimals: 6,
            ..Shape::ANIM
        },
    )
}

/// How the scene is written.
#[derive(Clone, Copy)]
struct Shape {
    /// The first 1 or 2 triangles of each quad.
    triangles_per_quad: usize,
    /// All grids in one mesh.
    one_mesh: bool,
    /// `vn` lines.
    normals: bool,
    /// Quads (`fm a b c d`), a `loop` animation and joints that follow the column, in
    /// place of triangles and every vertex on joints 12 and 13.
    quads: bool,
    /// Decimals of the animation's `pq` numbers.
    pose_decimals: usize,
}

impl Shape {
    const ANIM: Shape = Shape {
        triangles_per_quad: 1,
        one_mesh: false,
        normals: true,
        quads: false,
        pose_decimals: 5,
    };
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            triangles_per_quad: 2,
            ..Shape::ANIM
        }
    }
}

/// The file in `shape`.
fn write(rig: &Rig, shape: Shape) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"# Inter-Quake Export\n");
    for joint in 0..rig.joints {
        let parent = rig.parent(joint).map_or(-1, i64::from);
        let _ = writeln!(out, "joint \"joint{joint}\" {parent}");
        let (translation, rotation) = rig.bind(joint);
        pose(&mut out, translation, rotation, 5);
    }
    let stride = rig.cols + 1;
    let vertex_line_end: &[u8] = if shape.normals {
        b"\nvn 0 1 0\nvb 12 0.6 13 0.4\n"
    } else {
        b"\nvb 12 0.6 13 0.4\n"
    };
    for m in 0..rig.meshes {
        // Faces number the mesh's vertices from its first: in one mesh, after the grids before.
        let first = if shape.one_mesh {
            m * rig.vertices_per_mesh()
        } else {
            0
        };
        if m == 0 || !shape.one_mesh {
            let _ = writeln!(out, "mesh \"grid{m}\"");
            let _ = writeln!(out, "material \"grid{m}.png\"");
        }
        for g in 0..rig.vertices_per_mesh() {
            let (i, j) = (g % stride, g / stride);
            out.extend_from_slice(b"vp");
            let [x, y, z] = rig.position(m, i, j);
            // Quads lie in the XZ plane, facing `vn 0 1 0`.
            let position = if shape.quads { [x, z, y] } else { [x, y, z] };
            numbers5(&mut out, &position);
            out.extend_from_slice(b"\nvt");
            numbers5(&mut out, &rig.uv(i, j));
            if shape.quads {
                let joint = i * (rig.joints - 1) / stride;
                let normal: &[u8] = if shape.normals { b"\nvn 0 1 0" } else { b"" };
                out.extend_from_slice(normal);
                let _ = writeln!(out, "\nvb {joint} 0.6 {} 0.4", joint + 1);
            } else {
                out.extend_from_slice(vertex_line_end);
            }
        }
        for j in 0..rig.rows {
            for i in 0..rig.cols {
                if shape.quads {
                    // Counter-clockwise from +Z is clockwise from +Y once Y and Z swap:
                    // the way IQE fronts wind.
                    let [[a, b, c], [_, _, d]] =
                        rig.quad_triangles(i, j).map(|t| t.map(|v| v + first));
                    let _ = writeln!(out, "fm {a} {b} {c} {d}");
                    continue;
                }
                // IQE fronts wind clockwise.
                for [a, b, c] in rig
                    .quad_triangles(i, j)
                    .into_iter()
                    .take(shape.triangles_per_quad)
                {
                    let [a, b, c] = [a, b, c].map(|v| v + first);
                    let _ = writeln!(out, "fm {a} {c} {b}");
                }
            }
        }
    }
    out.extend_from_slice(b"animation \"wave\"\nframerate 30\n");
    if shape.quads {
        out.extend_from_slice(b"loop\n");
    }
    for frame in 0..rig.frames {
        let _ = writeln!(out, "frame {frame}");
        for joint in 0..rig.joints {
            let (translation, rotation) = rig.bind(joint);
            let (dt, dr) = rig.key(joint, frame);
            pose(
                &mut out,
                std::array::from_fn(|k| translation[k] + dt[k]),
                std::array::from_fn(|k| rotation[k] + dr[k]),
                shape.pose_decimals,
            );
        }
    }
    out
}

/// A `pq` line with `decimals`-decimal numbers: translation and a quaternion.
fn pose(out: &mut Vec<u8>, translation: [f32; 3], euler: [f32; 3], decimals: usize) {
    out.extend_from_slice(b"pq");
    for v in translation.into_iter().chain(euler_to_quat(euler)) {
        let _ = write!(out, " {v:.decimals$}");
    }
    out.push(b'\n');
}
