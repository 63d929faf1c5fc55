//! Front-face check: glTF draws counter-clockwise triangles as front faces, so a triangle's
//! face normal (right-hand rule over its corners) should point the way its stored vertex
//! normals point. The format crates own the winding fix; the exporter only counts and reports.

use glam::Vec3;
use rigport_model_core::Mesh;

/// How the triangles of a mesh agree with their stored normals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Winding {
    /// Triangles whose face normal points away from the average of their vertex normals.
    pub disagree: usize,
    /// Triangles that could be judged (non-degenerate, with non-zero vertex normals).
    pub checked: usize,
}

/// Checks every triangle of `mesh`; triangles with an out-of-range index, zero area or no
/// usable normals are not counted either way.
pub fn check_winding(mesh: &Mesh) -> Winding {
    let mut result = Winding::default();
    for triangle in &mesh.triangles {
        let corners = triangle.map(|i| mesh.vertices.get(i as usize));
        let [Some(a), Some(b), Some(c)] = corners else {
            continue;
        };
        let face = (b.position - a.position).cross(c.position - a.position);
        let stored: Vec3 = a.normal + b.normal + c.normal;
        let agreement = face.dot(stored);
        if !agreement.is_finite() || face.length_squared() == 0.0 || stored.length_squared() == 0.0
        {
            continue;
        }
        result.checked += 1;
        if agreement < 0.0 {
            result.disagree += 1;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::Vertex;

    fn triangle(normal: Vec3, order: [u32; 3]) -> Mesh {
        let mut mesh = Mesh::new("t");
        for p in [Vec3::ZERO, Vec3::X, Vec3::Y] {
            mesh.vertices.push(Vertex {
                position: p,
                normal,
                ..Vertex::default()
            });
        }
        mesh.triangles.push(order);
        mesh
    }

    #[test]
    fn counter_clockwise_seen_from_the_normal_agrees() {
        // (0,0,0) → (1,0,0) → (0,1,0) turns counter-clockwise seen from +Z.
        assert_eq!(
            check_winding(&triangle(Vec3::Z, [0, 1, 2])),
            Winding {
                disagree: 0,
                checked: 1
            }
        );
        assert_eq!(
            check_winding(&triangle(Vec3::Z, [0, 2, 1])),
            Winding {
                disagree: 1,
                checked: 1
            }
        );
        assert_eq!(
            check_winding(&triangle(-Vec3::Z, [0, 1, 2])),
            Winding {
                disagree: 1,
                checked: 1
            }
        );
    }

    #[test]
    fn unjudgeable_triangles_are_not_counted() {
        assert_eq!(
            check_winding(&triangle(Vec3::ZERO, [0, 1, 2])),
            Winding::default()
        );
        assert_eq!(
            check_winding(&triangle(Vec3::Z, [0, 0, 1])),
            Winding::default()
        );
        assert_eq!(
            check_winding(&triangle(Vec3::Z, [0, 1, 7])),
            Winding::default()
        );
    }
}
