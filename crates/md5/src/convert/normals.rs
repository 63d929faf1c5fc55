//! Smooth normals for meshes whose file stores none (MD5): each vertex gets the sum of the
//! normals of the triangles around it, weighted by their areas, normalised.

use glam::Vec3;
use rigport_model_core::Mesh;

/// Sets every vertex normal of `mesh` from its counter-clockwise triangles (area-weighted).
/// A vertex on no triangle, or only on degenerate ones, gets a zero normal.
///
/// ```
/// use rigport_md5::smooth_normals;
/// use rigport_model_core::{Mesh, Vertex};
/// use glam::Vec3;
///
/// let mut mesh = Mesh::new("quad");
/// for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
///     mesh.vertices.push(Vertex { position: p, ..Vertex::default() });
/// }
/// mesh.triangles.push([0, 1, 2]);
/// smooth_normals(&mut mesh);
/// assert_eq!(mesh.vertices[2].normal, Vec3::Z);
/// ```
pub fn smooth_normals(mesh: &mut Mesh) {
    let mut sums = vec![glam::DVec3::ZERO; mesh.vertices.len()];
    for triangle in &mesh.triangles {
        let Some(p) = triangle
            .iter()
            .map(|&i| mesh.vertices.get(i as usize).map(|v| v.position.as_dvec3()))
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        // Twice the triangle's area along its normal.
        let n = (p[1] - p[0]).cross(p[2] - p[0]);
        for &i in triangle {
            sums[i as usize] += n;
        }
    }
    for (vertex, sum) in mesh.vertices.iter_mut().zip(sums) {
        let n = sum.normalize_or_zero().as_vec3();
        vertex.normal = if n.is_finite() { n } else { Vec3::ZERO };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::Vertex;

    #[test]
    fn a_shared_edge_averages_by_area() {
        // Two triangles sharing the edge 0-1 along X: one in the XY plane (normal +Z, area
        // 0.5), one in the XZ plane (normal −Y, area 1): the shared vertices get
        // (0, −1, 0.5) normalised.
        let mut mesh = Mesh::new("fold");
        for p in [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(0.0, 0.0, 2.0)] {
            mesh.vertices.push(Vertex {
                position: p,
                ..Vertex::default()
            });
        }
        mesh.triangles = vec![[0, 1, 2], [0, 1, 3]];
        smooth_normals(&mut mesh);
        let expected = Vec3::new(0.0, -1.0, 0.5).normalize();
        assert!((mesh.vertices[0].normal - expected).length() < 1e-6);
        assert!((mesh.vertices[2].normal - Vec3::Z).length() < 1e-6);
        assert!((mesh.vertices[3].normal - Vec3::NEG_Y).length() < 1e-6);
    }
}
