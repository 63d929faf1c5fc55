//! proptest strategies for small models that every rigport format can hold, and the
//! comparison a round trip must pass (feature `proptest`, for the format crates' tests).
//!
//! The models stay inside what MilkShape binary, MilkShape ASCII and IQE all store without
//! loss: short ASCII names, one material per mesh, at most one joint per vertex with full
//! weight, axis-aligned unit normals, and coordinates that are exact binary fractions, so a
//! writer that prints numbers correctly brings them back bit for bit. Skeleton rotations
//! pass through Euler angles in MilkShape, so they are compared with a tolerance.

use crate::{Joint, JointId, Material, MaterialId, Mesh, Model, Vertex};
use glam::{EulerRot, Quat, Vec2, Vec3};
use proptest::prelude::*;

/// A coordinate in `-8..=8` with a step of 1/4 (exact in `f32` and in short decimal text).
fn coordinate() -> impl Strategy<Value = f32> {
    (-32i32..=32).prop_map(|n| n as f32 / 4.0)
}

/// One of the six axis-aligned unit vectors.
fn axis_normal() -> impl Strategy<Value = Vec3> {
    prop::sample::select(vec![
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
    ])
}

/// A vertex; `joints` is how many joints the skeleton has (the vertex may use one of them).
fn vertex(joints: usize) -> impl Strategy<Value = Vertex> {
    let joint = if joints == 0 {
        Just(None).boxed()
    } else {
        prop::option::of(0..joints as u32).boxed()
    };
    (
        [coordinate(), coordinate(), coordinate()],
        axis_normal(),
        (0u8..=8, 0u8..=8),
        joint,
    )
        .prop_map(|(p, normal, (u, v), joint)| Vertex {
            position: Vec3::from_array(p),
            normal,
            uv: Vec2::new(f32::from(u) / 8.0, f32::from(v) / 8.0),
            joints: [
                JointId(joint.unwrap_or(0)),
                JointId(0),
                JointId(0),
                JointId(0),
            ],
            weights: [if joint.is_some() { 1.0 } else { 0.0 }, 0.0, 0.0, 0.0],
            ..Vertex::default()
        })
}

/// A mesh of 1 to 4 triangles, each with its own three vertices.
fn mesh(index: usize, joints: usize, materials: usize) -> impl Strategy<Value = Mesh> {
    (
        prop::collection::vec(vertex(joints), 3..=12),
        0..materials as u32,
    )
        .prop_map(move |(mut vertices, material)| {
            vertices.truncate(vertices.len() / 3 * 3);
            let triangles = (0..vertices.len() as u32 / 3)
                .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
                .collect();
            Mesh {
                name: format!("mesh{index}"),
                material: Some(MaterialId(material)),
                vertices,
                triangles,
                has_uvs: true,
                has_colors: false,
                morph_targets: Vec::new(),
            }
        })
}

/// A joint whose parent, if any, comes before it.
fn joint(index: usize) -> impl Strategy<Value = Joint> {
    let parent = if index == 0 {
        Just(None).boxed()
    } else {
        prop::option::of(0..index as u32).boxed()
    };
    (
        parent,
        [coordinate(), coordinate(), coordinate()],
        // Euler angles within ±1.5 rad about each axis: away from gimbal lock, where an
        // Euler round trip is ill-conditioned.
        [-6i32..=6, -6i32..=6, -6i32..=6],
    )
        .prop_map(move |(parent, t, [x, y, z])| Joint {
            name: format!("joint{index}"),
            parent: parent.map(JointId),
            translation: Vec3::from_array(t),
            rotation: Quat::from_euler(
                EulerRot::ZYX,
                z as f32 / 4.0,
                y as f32 / 4.0,
                x as f32 / 4.0,
            ),
            scale: Vec3::ONE,
        })
}

/// A model of 1–2 meshes, 1–2 materials and 0–3 joints, without animations.
pub fn small_model() -> impl Strategy<Value = Model> {
    (0usize..=3, 1usize..=2, 1usize..=2).prop_flat_map(|(joints, materials, meshes)| {
        (
            (0..joints).map(joint).collect::<Vec<_>>(),
            (0..meshes)
                .map(|m| mesh(m, joints, materials))
                .collect::<Vec<_>>(),
        )
            .prop_map(move |(joints, meshes)| {
                let mut model = Model {
                    meshes,
                    materials: (0..materials)
                        .map(|m| Material::named(format!("material{m}")))
                        .collect(),
                    ..Model::default()
                };
                model.skeleton.joints = joints;
                model
            })
    })
}

/// What a triangle corner shows: position, normal, uv and the joint of a skinned vertex.
type Corner = (Vec3, Vec3, Vec2, Option<JointId>);

fn corners(mesh: &Mesh) -> Vec<Corner> {
    mesh.triangles
        .iter()
        .flatten()
        .filter_map(|&i| mesh.vertices.get(i as usize))
        .map(|v| {
            let joint = v.influences().next().map(|(joint, _)| joint);
            (v.position, v.normal, v.uv, joint)
        })
        .collect()
}

fn material_name(model: &Model, mesh: &Mesh) -> Option<String> {
    mesh.material
        .and_then(|m| model.materials.get(m.index()))
        .map(|m| m.name.clone())
}

/// Whether `back` holds what `original` (a [`small_model`]) held: mesh names and material
/// names, every triangle corner (position, normal and uv to 1e-6, the joint), and the
/// skeleton's names, parents and bind transforms (to 1e-4). Vertex order and sharing may
/// differ: formats weld or split vertices, so triangles are compared corner by corner.
pub fn same_content(original: &Model, back: &Model) -> Result<(), String> {
    let close = |a: Vec3, b: Vec3, tolerance: f32| a.abs_diff_eq(b, tolerance);
    if original.meshes.len() != back.meshes.len() {
        return Err(format!(
            "{} meshes came back as {}",
            original.meshes.len(),
            back.meshes.len()
        ));
    }
    for (a, b) in original.meshes.iter().zip(&back.meshes) {
        if a.name != b.name || material_name(original, a) != material_name(back, b) {
            return Err(format!("mesh `{}` came back as `{}`", a.name, b.name));
        }
        let (ca, cb) = (corners(a), corners(b));
        if ca.len() != cb.len() {
            return Err(format!(
                "mesh `{}`: {} corners became {}",
                a.name,
                ca.len(),
                cb.len()
            ));
        }
        for (i, (x, y)) in ca.iter().zip(&cb).enumerate() {
            let same = close(x.0, y.0, 1e-6)
                && close(x.1, y.1, 1e-6)
                && x.2.abs_diff_eq(y.2, 1e-6)
                && x.3 == y.3;
            if !same {
                return Err(format!("mesh `{}` corner {i}: {x:?} became {y:?}", a.name));
            }
        }
    }
    let (ja, jb) = (&original.skeleton.joints, &back.skeleton.joints);
    if ja.len() != jb.len() {
        return Err(format!("{} joints came back as {}", ja.len(), jb.len()));
    }
    for (a, b) in ja.iter().zip(jb) {
        let same = a.name == b.name
            && a.parent == b.parent
            && close(a.translation, b.translation, 1e-4)
            && a.rotation.dot(b.rotation).abs() > 1.0 - 1e-4;
        if !same {
            return Err(format!("joint {a:?} came back as {b:?}"));
        }
    }
    Ok(())
}

/// The round-trip property of a format crate: every [`small_model`] that `round_trip`
/// carries through the format (`from_model`, write, read, `to_model`) comes back with
/// [`same_content`]. Format crates declare the test with `rigport-test-support`'s
/// `round_trip_test!` or `format_contract!` (the one home of the contract macros). Failure persistence is off, so no regression files appear in the
/// crates; `PROPTEST_CASES` and the other proptest variables apply as usual.
///
/// # Panics
/// When a model does not come back the same, or `round_trip` panics on one (an `unwrap`
/// on a conversion error, say): with the difference and the smallest such model proptest
/// found.
pub fn check_round_trip(round_trip: impl Fn(&Model) -> Model) {
    let config = ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let result = proptest::test_runner::TestRunner::new(config).run(&small_model(), |model| {
        same_content(&model, &round_trip(&model)).map_err(TestCaseError::fail)
    });
    if let Err(error) = result {
        panic!("{error}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    /// A generated model with joints and skinned vertices (the strategy makes them often).
    fn rigged_model() -> Model {
        let mut runner = TestRunner::deterministic();
        loop {
            let model = small_model().new_tree(&mut runner).unwrap().current();
            let skinned = model.meshes[0].vertices.iter().any(Vertex::is_skinned);
            if model.skeleton.joints.len() >= 2 && skinned {
                return model;
            }
        }
    }

    #[test]
    fn the_comparison_sees_each_kind_of_change() {
        let model = rigged_model();
        assert_eq!(same_content(&model, &model), Ok(()));
        let changes: [fn(&mut Model); 5] = [
            |m| m.meshes[0].vertices[0].position.x += 0.25,
            |m| m.meshes[0].triangles.pop().map_or((), drop),
            |m| m.skeleton.joints[1].name.push('x'),
            |m| m.skeleton.joints[1].rotation = Quat::from_rotation_x(2.0),
            |m| {
                let v = m.meshes[0].vertices.iter_mut().find(|v| v.is_skinned());
                v.expect("a skinned vertex").weights = [0.0; 4];
            },
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut changed = model.clone();
            change(&mut changed);
            assert!(same_content(&model, &changed).is_err(), "change {i} unseen");
        }
    }

    #[test]
    fn a_faithful_round_trip_passes() {
        check_round_trip(Model::clone);
    }

    #[test]
    #[should_panic(expected = "minimal failing input")]
    fn a_round_trip_that_loses_a_mesh_fails() {
        check_round_trip(|model| {
            let mut back = model.clone();
            back.meshes.pop();
            back
        });
    }

    #[test]
    #[should_panic(expected = "minimal failing input")]
    fn a_round_trip_that_panics_fails() {
        check_round_trip(|_| panic!("conversion error"));
    }
}
