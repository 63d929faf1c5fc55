//! Small models survive `from_model` → write → read → `to_model` as SMD holds them: the
//! skeleton exactly (bind rotations to 1e-4), every triangle corner (position, normal, uv,
//! joint) in order per material line — SMD has no mesh names, so meshes sharing a material
//! come back as one — with triangles that turned against their normals rewound, and
//! vertices bound to no joint bound to the first bone. Plus the rest of the format
//! contract: the crate recognizes its own output, a strict read takes it without warnings,
//! and writing it again gives the same bytes.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rigport_model_core::glam::{Vec2, Vec3};
use rigport_model_core::strategies::small_model;
use rigport_model_core::{JointId, Model, ReadOptions};
use rigport_smd::{ConvertOptions, File, from_model, sniff, to_model};
use rigport_test_support::contract::contract_model;

type Corner = (Vec3, Vec3, Vec2, Option<JointId>);

/// Triangles grouped by material name, in mesh order.
fn triangles_by_material(
    model: &Model,
    unskinned: Option<JointId>,
) -> Vec<(String, Vec<[Corner; 3]>)> {
    let mut out: Vec<(String, Vec<[Corner; 3]>)> = Vec::new();
    for mesh in &model.meshes {
        let name = mesh
            .material
            .map(|m| model.materials[m.index()].name.clone())
            .unwrap_or_default();
        let index = match out.iter().position(|(n, _)| *n == name) {
            Some(i) => i,
            None => {
                out.push((name, Vec::new()));
                out.len() - 1
            }
        };
        for triangle in &mesh.triangles {
            let corners = triangle.map(|i| {
                let v = &mesh.vertices[i as usize];
                let joint = v.influences().next().map(|(j, _)| j).or(unskinned);
                (v.position, v.normal, v.uv, joint)
            });
            out[index].1.push(corners);
        }
    }
    out
}

fn same(original: &Model, back: &Model) -> Result<(), String> {
    let fallback = Some(JointId(0));
    let mut expected = triangles_by_material(original, fallback);
    // Triangles turned against their normals come back rewound.
    for (_, triangles) in &mut expected {
        for t in triangles.iter_mut() {
            let face = (t[1].0 - t[0].0).cross(t[2].0 - t[0].0);
            if face.dot(t[0].1 + t[1].1 + t[2].1) < 0.0 {
                t.swap(1, 2);
            }
        }
    }
    let got = triangles_by_material(back, None);
    if expected.len() != got.len() {
        return Err(format!(
            "{} materials came back as {}",
            expected.len(),
            got.len()
        ));
    }
    for ((name_a, a), (name_b, b)) in expected.iter().zip(&got) {
        if name_a != name_b || a.len() != b.len() {
            return Err(format!(
                "material `{name_a}` ({}) came back as `{name_b}` ({})",
                a.len(),
                b.len()
            ));
        }
        for (ta, tb) in a.iter().zip(b) {
            for (x, y) in ta.iter().zip(tb) {
                let ok = x.0.abs_diff_eq(y.0, 1e-6)
                    && x.1.abs_diff_eq(y.1, 1e-6)
                    && x.2.abs_diff_eq(y.2, 1e-6)
                    && x.3 == y.3;
                if !ok {
                    return Err(format!("`{name_a}`: {ta:?} came back as {tb:?}"));
                }
            }
        }
    }
    let (ja, jb) = (&original.skeleton.joints, &back.skeleton.joints);
    if ja.is_empty() {
        return if jb.len() == 1 {
            Ok(())
        } else {
            Err(format!("{} joints for none", jb.len()))
        };
    }
    if ja.len() != jb.len() {
        return Err(format!("{} joints came back as {}", ja.len(), jb.len()));
    }
    for (a, b) in ja.iter().zip(jb) {
        let ok = a.name == b.name
            && a.parent == b.parent
            && a.translation.abs_diff_eq(b.translation, 1e-5)
            && a.rotation.dot(b.rotation).abs() > 1.0 - 1e-4;
        if !ok {
            return Err(format!("joint {a:?} came back as {b:?}"));
        }
    }
    Ok(())
}

fn round_trip(model: &Model) -> Model {
    let (file, _) = from_model(model, &ConvertOptions::default()).expect("from_model");
    let back = File::from_slice(&file.to_vec()).expect("the written file reads back");
    to_model(&back, &ConvertOptions::default())
        .expect("converts")
        .0
}

#[test]
fn small_models_round_trip() {
    let mut runner = TestRunner::new(Config {
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&small_model(), |model| {
            same(&model, &round_trip(&model)).map_err(TestCaseError::fail)
        })
        .unwrap();
}

#[test]
fn the_comparison_sees_changes() {
    let model = contract_model();
    assert_eq!(same(&model, &round_trip(&model)), Ok(()));
    let mut moved = round_trip(&model);
    moved.meshes[0].vertices[0].position.x += 0.25;
    assert!(same(&model, &moved).is_err());
    let mut renamed = round_trip(&model);
    renamed.skeleton.joints[1].name.push('x');
    assert!(same(&model, &renamed).is_err());
}

#[test]
fn its_own_output_is_recognized_and_stable() {
    let (file, _) = from_model(&contract_model(), &ConvertOptions::default()).unwrap();
    let bytes = file.to_vec();
    assert!(sniff(&bytes));
    let (back, report) = File::from_slice_with(&bytes, &ReadOptions::strict()).unwrap();
    assert!(report.is_empty(), "{report}");
    assert!(back.to_vec() == bytes);
}
