//! What a model points at that it does not have: [`Model::check_references`].
//!
//! Readers never build such a model (they repair or drop damaged references and report it),
//! so a dangling index means the model was built or edited by hand. Every writer refuses it
//! with a typed error naming the first problem: dropping the offending parts instead would
//! write a file that reads back fine but is not the model the caller meant.

use crate::{JointId, MaterialId, MeshId, Model};
use std::fmt;

/// One index of a [`Model`] that points past the list it indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReferenceProblem {
    /// A mesh uses a material past the end of [`Model::materials`].
    MeshMaterial {
        /// The mesh.
        mesh: MeshId,
        /// The material it names.
        material: MaterialId,
        /// Number of materials.
        materials: usize,
    },
    /// A vertex has a non-zero weight on a joint past the end of the skeleton.
    VertexJoint {
        /// The mesh.
        mesh: MeshId,
        /// The vertex within the mesh.
        vertex: usize,
        /// The joint it is weighted to.
        joint: JointId,
        /// Number of joints.
        joints: usize,
    },
    /// A triangle corner names a vertex past the end of its mesh's vertices.
    TriangleVertex {
        /// The mesh.
        mesh: MeshId,
        /// The triangle within the mesh.
        triangle: usize,
        /// The vertex index it names.
        vertex: u32,
        /// Number of vertices of the mesh.
        vertices: usize,
    },
    /// A joint's parent is past the end of the skeleton.
    JointParent {
        /// The joint.
        joint: JointId,
        /// The parent it names.
        parent: JointId,
        /// Number of joints.
        joints: usize,
    },
    /// An animation track animates a joint past the end of the skeleton.
    TrackJoint {
        /// Index of the animation in [`Model::animations`].
        animation: usize,
        /// Index of the track in the animation.
        track: usize,
        /// The joint it animates.
        joint: JointId,
        /// Number of joints.
        joints: usize,
    },
}

impl fmt::Display for ReferenceProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::MeshMaterial {
                mesh,
                material,
                materials,
            } => write!(
                f,
                "mesh {mesh} uses material {material}, but there are {materials} materials"
            ),
            Self::VertexJoint {
                mesh,
                vertex,
                joint,
                joints,
            } => write!(
                f,
                "vertex {vertex} of mesh {mesh} is weighted to joint {joint}, but there are {joints} joints"
            ),
            Self::TriangleVertex {
                mesh,
                triangle,
                vertex,
                vertices,
            } => write!(
                f,
                "triangle {triangle} of mesh {mesh} uses vertex {vertex}, but the mesh has {vertices} vertices"
            ),
            Self::JointParent {
                joint,
                parent,
                joints,
            } => write!(
                f,
                "joint {joint} has parent {parent}, but there are {joints} joints"
            ),
            Self::TrackJoint {
                animation,
                track,
                joint,
                joints,
            } => write!(
                f,
                "track {track} of animation {animation} animates joint {joint}, but there are {joints} joints"
            ),
        }
    }
}

impl std::error::Error for ReferenceProblem {}

impl Model {
    /// Every index of the model that points at something it does not have, in the order
    /// materials of meshes, skins and triangles mesh by mesh, parents, tracks. Empty for
    /// every model a rigport reader returns.
    ///
    /// Unused weight slots (weight 0) are not references and are not checked.
    ///
    /// ```
    /// use rigport_model_core::{Model, Mesh, Vertex, ReferenceProblem, MeshId};
    ///
    /// let mut mesh = Mesh::new("m");
    /// mesh.vertices.push(Vertex::default());
    /// mesh.triangles.push([0, 0, 3]);
    /// let mut model = Model::default();
    /// model.meshes.push(mesh);
    /// assert_eq!(
    ///     model.check_references(),
    ///     [ReferenceProblem::TriangleVertex { mesh: MeshId(0), triangle: 0, vertex: 3, vertices: 1 }]
    /// );
    /// ```
    pub fn check_references(&self) -> Vec<ReferenceProblem> {
        let mut problems = Vec::new();
        let (materials, joints) = (self.materials.len(), self.skeleton.len());
        for (m, mesh) in self.meshes.iter().enumerate() {
            let id = MeshId(m as u32);
            if let Some(material) = mesh.material.filter(|m| m.index() >= materials) {
                problems.push(ReferenceProblem::MeshMaterial {
                    mesh: id,
                    material,
                    materials,
                });
            }
            for (vertex, v) in mesh.vertices.iter().enumerate() {
                if let Some((joint, _)) = v.influences().find(|(j, _)| j.index() >= joints) {
                    problems.push(ReferenceProblem::VertexJoint {
                        mesh: id,
                        vertex,
                        joint,
                        joints,
                    });
                }
            }
            let vertices = mesh.vertices.len();
            for (triangle, corners) in mesh.triangles.iter().enumerate() {
                if let Some(&vertex) = corners.iter().find(|&&v| v as usize >= vertices) {
                    problems.push(ReferenceProblem::TriangleVertex {
                        mesh: id,
                        triangle,
                        vertex,
                        vertices,
                    });
                }
            }
        }
        for (j, joint) in self.skeleton.joints.iter().enumerate() {
            if let Some(parent) = joint.parent.filter(|p| p.index() >= joints) {
                problems.push(ReferenceProblem::JointParent {
                    joint: JointId(j as u32),
                    parent,
                    joints,
                });
            }
        }
        for (animation, a) in self.animations.iter().enumerate() {
            for (track, t) in a.tracks.iter().enumerate() {
                if t.joint.index() >= joints {
                    problems.push(ReferenceProblem::TrackJoint {
                        animation,
                        track,
                        joint: t.joint,
                        joints,
                    });
                }
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Animation, Joint, Material, Mesh, Track, Vertex};

    #[test]
    fn each_kind_of_dangling_index_is_found_once() {
        let mut model = Model::default();
        model.materials.push(Material::named("only"));
        model.skeleton.joints.push(Joint::new("root"));
        let mut child = Joint::new("child");
        child.parent = Some(JointId(5));
        model.skeleton.joints.push(child);
        let mut mesh = Mesh::new("m");
        mesh.material = Some(MaterialId(1));
        mesh.vertices.push(Vertex {
            joints: [JointId(0), JointId(9), JointId(0), JointId(0)],
            weights: [0.5, 0.5, 0.0, 0.0],
            ..Vertex::default()
        });
        // Slot 2 names joint 7 with weight 0: not a reference.
        mesh.vertices.push(Vertex {
            joints: [JointId(0), JointId(0), JointId(7), JointId(0)],
            weights: [1.0, 0.0, 0.0, 0.0],
            ..Vertex::default()
        });
        mesh.triangles = vec![[0, 1, 1], [0, 1, 2]];
        model.meshes.push(mesh);
        let mut animation = Animation::new("a", 30.0);
        animation.tracks = vec![Track::new(JointId(1)), Track::new(JointId(2))];
        model.animations.push(animation);

        let problems = model.check_references();
        assert_eq!(
            problems,
            [
                ReferenceProblem::MeshMaterial {
                    mesh: MeshId(0),
                    material: MaterialId(1),
                    materials: 1
                },
                ReferenceProblem::VertexJoint {
                    mesh: MeshId(0),
                    vertex: 0,
                    joint: JointId(9),
                    joints: 2
                },
                ReferenceProblem::TriangleVertex {
                    mesh: MeshId(0),
                    triangle: 1,
                    vertex: 2,
                    vertices: 2
                },
                ReferenceProblem::JointParent {
                    joint: JointId(1),
                    parent: JointId(5),
                    joints: 2
                },
                ReferenceProblem::TrackJoint {
                    animation: 0,
                    track: 1,
                    joint: JointId(2),
                    joints: 2
                },
            ]
        );
        assert!(problems[3].to_string().contains("parent 5"));
    }

    #[test]
    fn a_sound_model_has_no_problems() {
        let mut model = Model::default();
        model.skeleton.joints.push(Joint::new("root"));
        let mut mesh = Mesh::new("m");
        mesh.vertices.push(Vertex {
            weights: [1.0, 0.0, 0.0, 0.0],
            ..Vertex::default()
        });
        mesh.triangles.push([0, 0, 0]);
        model.meshes.push(mesh);
        assert!(model.check_references().is_empty());
    }
}
