//! The synthetic scene as a MilkShape binary file, written byte by byte (sharing no code
//! with `rigport-ms3d-bin`), with every optional block and subVersion 2 weights.

use super::le_bytes::LeBytes;
use super::rig::Rig;

/// A MilkShape binary bench input.
#[derive(Clone, Copy, Debug)]
pub struct Ms3dSpec {
    /// The scene; `rig.frames` keys per joint for rotation and for translation.
    pub rig: Rig,
    /// Triangles to keep (the grids' last triangles are dropped to reach it).
    pub triangles: u32,
    /// Vertex records wanted: shared corners get their own copy of the vertex until the
    /// count is reached (geometry unchanged, like hard edges).
    pub vertices: u32,
}

/// One triangle corner: the vertex record it uses and the grid point it stands on.
#[derive(Clone, Copy)]
struct Corner {
    vertex: u32,
    grid: (u32, u32, u32),
}

/// The file's bytes.
///
/// # Panics
/// If the spec does not fit the format (more than 65535 records, more than 128 joints).
pub fn ms3d(spec: &Ms3dSpec) -> Vec<u8> {
    let rig = &spec.rig;
    assert!(rig.joints <= 128 && rig.meshes <= 128 && rig.frames <= 65535);
    let (mut vertices, mut triangles) = grid_geometry(rig);
    triangles.truncate(spec.triangles as usize);
    split_shared_corners(&mut vertices, &mut triangles, spec.vertices);
    assert!(vertices.len() <= 65535 && triangles.len() <= 65535);

    let mut out = LeBytes::with_capacity(
        vertices.len() * 25 + triangles.len() * 72 + rig.joints as usize * rig.frames as usize * 32,
    );
    out.raw(b"MS3D000000").i32(4);
    out.u16(vertices.len() as u16);
    let mut references = vec![0u32; vertices.len()];
    for t in &triangles {
        for c in &t.1 {
            references[c.vertex as usize] += 1;
        }
    }
    for (v, &(m, i, j)) in vertices.iter().enumerate() {
        out.u8(0)
            .f32s(&rig.position(m, i, j))
            .u8(rig.influences(m, i, j)[0].0 as u8)
            .u8(references[v].min(255) as u8);
    }
    out.u16(triangles.len() as u16);
    for (group, corners) in &triangles {
        out.u16(0);
        for c in corners {
            out.u16(c.vertex as u16);
        }
        for c in corners {
            let (m, i, j) = c.grid;
            out.f32s(&rig.normal(m, i, j));
        }
        for axis in 0..2 {
            for c in corners {
                let (_, i, j) = c.grid;
                out.f32s(&[rig.uv(i, j)[axis]]);
            }
        }
        out.u8(1).u8(*group as u8);
    }
    out.u16(rig.meshes as u16);
    for m in 0..rig.meshes {
        let members: Vec<u16> = (0..triangles.len())
            .filter(|&t| triangles[t].0 == m)
            .map(|t| t as u16)
            .collect();
        out.u8(0).name(format!("grid{m}").as_bytes(), 32);
        out.u16(members.len() as u16);
        for t in members {
            out.u16(t);
        }
        out.u8(m as u8);
    }
    out.u16(rig.meshes as u16);
    for m in 0..rig.meshes {
        out.name(format!("material{m}").as_bytes(), 32)
            .f32s(&[0.2, 0.2, 0.2, 1.0])
            .f32s(&[0.8, 0.7, 0.6, 1.0])
            .f32s(&[0.0, 0.0, 0.0, 1.0])
            .f32s(&[0.0, 0.0, 0.0, 1.0])
            .f32s(&[10.0, 1.0])
            .u8(0)
            .name(format!("grid{m}.png").as_bytes(), 128)
            .name(b"", 128);
    }
    out.f32s(&[30.0, 0.0]).i32(rig.frames as i32);
    write_joints(&mut out, rig);
    // Comments (none), vertex extra subVersion 2, joint extra, model extra.
    out.i32(1).i32(0).i32(0).i32(0).i32(0);
    out.i32(2);
    for &(m, i, j) in &vertices {
        let inf = rig.influences(m, i, j);
        for (joint, _) in &inf[1..] {
            out.u8(*joint as u8);
        }
        for (_, weight) in &inf[..3] {
            out.u8((weight * 100.0).round() as u8);
        }
        out.u32(0xFFFF_FFFF);
    }
    out.i32(1);
    for joint in 0..rig.joints {
        out.f32s(&[1.0, joint as f32 / rig.joints as f32, 0.0]);
    }
    out.i32(1).f32s(&[1.0]).i32(0).f32s(&[0.5]);
    out.0
}

type Triangle = (u32, [Corner; 3]);

/// Every grid's vertices (as grid points) and triangles, mesh after mesh.
fn grid_geometry(rig: &Rig) -> (Vec<(u32, u32, u32)>, Vec<Triangle>) {
    let stride = rig.cols + 1;
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for m in 0..rig.meshes {
        let first = vertices.len() as u32;
        for g in 0..rig.vertices_per_mesh() {
            vertices.push((m, g % stride, g / stride));
        }
        for j in 0..rig.rows {
            for i in 0..rig.cols {
                for corners in rig.quad_triangles(i, j) {
                    let corner = |g: u32| Corner {
                        vertex: first + g,
                        grid: (m, g % stride, g / stride),
                    };
                    triangles.push((m, corners.map(corner)));
                }
            }
        }
    }
    (vertices, triangles)
}

/// Gives corners that reuse a vertex their own copy, first triangle first, until there are
/// `target` vertex records.
fn split_shared_corners(
    vertices: &mut Vec<(u32, u32, u32)>,
    triangles: &mut [Triangle],
    target: u32,
) {
    let mut used = vec![false; vertices.len()];
    for (_, corners) in triangles.iter_mut() {
        for corner in corners.iter_mut() {
            let v = corner.vertex as usize;
            if !used[v] {
                used[v] = true;
            } else if vertices.len() < target as usize {
                corner.vertex = vertices.len() as u32;
                vertices.push(vertices[v]);
            }
        }
    }
}

fn write_joints(out: &mut LeBytes, rig: &Rig) {
    out.u16(rig.joints as u16);
    for joint in 0..rig.joints {
        let (translation, rotation) = rig.bind(joint);
        let parent = rig.parent(joint).map(|p| format!("joint{p}"));
        out.u8(8)
            .name(format!("joint{joint}").as_bytes(), 32)
            .name(parent.unwrap_or_default().as_bytes(), 32)
            .f32s(&rotation)
            .f32s(&translation)
            .u16(rig.frames as u16)
            .u16(rig.frames as u16);
        let time = |frame: u32| (frame + 1) as f32 / 30.0;
        for frame in 0..rig.frames {
            out.f32s(&[time(frame)]).f32s(&rig.key(joint, frame).1);
        }
        for frame in 0..rig.frames {
            out.f32s(&[time(frame)]).f32s(&rig.key(joint, frame).0);
        }
    }
}
