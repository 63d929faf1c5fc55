//! MilkShape ASCII → model → binary `.ms3d` bytes → model → ASCII keeps every mesh, vertex,
//! normal, triangle, material, bone and key: the two files are the same program's data.
//!
//! Positions, texture coordinates and normals are copied, never computed, so they must come
//! back bit for bit. Bone rotations and keys pass through quaternions and back to Euler
//! angles, so they are compared as rotations and absolute transforms, with a tolerance.
//! Editor flags and smoothing groups are not in the neutral model and are not compared.
//! Vertex records are compared as sets: both writers merge records that are equal in every
//! field, so a file that lists the same record twice comes back with it once.

use rigport_test_support::corpus;

use rigport_anim::euler::euler_to_quat;
use rigport_anim::milkshape::{absolute_rotation, absolute_translation};
use rigport_model_core::glam::Vec3;
use rigport_ms3d_ascii as ascii;
use rigport_ms3d_bin as bin;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Fixtures of the project that make sense here (every vertex is used by a triangle).
const FIXTURES: [&str; 4] = [
    "lf_skinned_quad.txt",
    "crlf_normals_differ.txt",
    "exponents.txt",
    "parent_later_fractional_keys.txt",
];

fn round_trip(original: &ascii::File) -> ascii::File {
    let (model, _) = ascii::to_model(original, &ascii::ConvertOptions::default()).unwrap();
    let (binary, _) = bin::from_model(&model, &bin::ConvertOptions::default()).unwrap();
    let bytes = binary.to_vec();
    let read = bin::File::from_slice(&bytes).unwrap();
    assert_eq!(
        read.to_vec(),
        bytes,
        "the binary writer and reader disagree"
    );
    let (model, _) = bin::to_model(&read, &bin::ConvertOptions::default()).unwrap();
    let (back, _) = ascii::from_model(&model, &ascii::ConvertOptions::default()).unwrap();
    // And through the ASCII bytes too, so the text layer is part of the trip.
    ascii::File::from_slice(&back.to_vec()).unwrap()
}

/// `(position, uv, bone)` of a vertex record, by bits.
type Record = ([u32; 3], [u32; 2], i32);

fn record(v: &ascii::Vertex) -> Record {
    (v.position.map(f32::to_bits), v.uv.map(f32::to_bits), v.bone)
}

/// Everything a triangle corner stands for: its vertex record and its normal.
fn corner(mesh: &ascii::Mesh, t: &ascii::Triangle, c: usize) -> (Record, [u32; 3]) {
    let v = &mesh.vertices[t.vertices[c] as usize];
    let n = mesh.normals[t.normals[c] as usize];
    (record(v), n.map(f32::to_bits))
}

fn same_rotation(a: [f32; 3], b: [f32; 3]) -> bool {
    euler_to_quat(a.into()).dot(euler_to_quat(b.into())).abs() > 1.0 - 1e-5
}

fn near(a: Vec3, b: Vec3) -> bool {
    (a - b).length() <= 1e-4 * a.length().max(1.0)
}

fn assert_same(name: &str, a: &ascii::File, b: &ascii::File) {
    assert_eq!(a.frames(), b.frames(), "{name}: Frames");
    assert_eq!(a.meshes().len(), b.meshes().len(), "{name}: meshes");
    for (ma, mb) in a.meshes().iter().zip(b.meshes()) {
        let mesh = String::from_utf8_lossy(&ma.name);
        assert_eq!(ma.name, mb.name, "{name}");
        assert_eq!(ma.material, mb.material, "{name} `{mesh}`: material");
        assert_eq!(
            ma.triangles.len(),
            mb.triangles.len(),
            "{name} `{mesh}`: triangles"
        );
        for (i, (ta, tb)) in ma.triangles.iter().zip(&mb.triangles).enumerate() {
            for c in 0..3 {
                assert_eq!(
                    corner(ma, ta, c),
                    corner(mb, tb, c),
                    "{name} `{mesh}` triangle {i}"
                );
            }
        }
        let records = |m: &ascii::Mesh| m.vertices.iter().map(record).collect::<BTreeSet<_>>();
        assert_eq!(records(ma), records(mb), "{name} `{mesh}`: vertex records");
        let normals = |m: &ascii::Mesh| {
            m.normals
                .iter()
                .map(|n| n.map(f32::to_bits))
                .collect::<BTreeSet<_>>()
        };
        assert_eq!(normals(ma), normals(mb), "{name} `{mesh}`: normals");
    }
    assert_eq!(a.materials(), b.materials(), "{name}: materials");
    assert_eq!(a.bones().len(), b.bones().len(), "{name}: bones");
    for (ba, bb) in a.bones().iter().zip(b.bones()) {
        let bone = String::from_utf8_lossy(&ba.name);
        assert_eq!((&ba.name, &ba.parent), (&bb.name, &bb.parent), "{name}");
        assert_eq!(ba.position, bb.position, "{name} `{bone}`: position");
        assert!(
            same_rotation(ba.rotation, bb.rotation),
            "{name} `{bone}`: rotation"
        );
        let (pa, ra) = (Vec3::from(ba.position), Vec3::from(ba.rotation));
        let (pb, rb) = (Vec3::from(bb.position), Vec3::from(bb.rotation));
        assert_eq!(
            ba.position_keys.len(),
            bb.position_keys.len(),
            "{name} `{bone}`"
        );
        for (ka, kb) in ba.position_keys.iter().zip(&bb.position_keys) {
            assert!(
                (ka.frame - kb.frame).abs() < 1e-3,
                "{name} `{bone}`: {ka:?} {kb:?}"
            );
            let (wa, wb) = (
                absolute_translation(pa, ra, ka.value.into()),
                absolute_translation(pb, rb, kb.value.into()),
            );
            assert!(near(wa, wb), "{name} `{bone}`: {wa} != {wb}");
        }
        assert_eq!(
            ba.rotation_keys.len(),
            bb.rotation_keys.len(),
            "{name} `{bone}`"
        );
        for (ka, kb) in ba.rotation_keys.iter().zip(&bb.rotation_keys) {
            assert!(
                (ka.frame - kb.frame).abs() < 1e-3,
                "{name} `{bone}`: {ka:?} {kb:?}"
            );
            let (qa, qb) = (
                absolute_rotation(ra, ka.value.into()),
                absolute_rotation(rb, kb.value.into()),
            );
            assert!(
                qa.dot(qb).abs() > 1.0 - 1e-5,
                "{name} `{bone}`: {qa} != {qb}"
            );
        }
    }
}

fn check(path: &Path) {
    let name = path.file_name().unwrap().to_string_lossy();
    let bytes = std::fs::read(path).unwrap();
    let original = ascii::File::from_slice(&bytes).unwrap();
    let back = round_trip(&original);
    assert_same(&name, &original, &back);
    let count = |f: &ascii::File| -> (usize, usize, usize) {
        let m = f.meshes();
        (
            m.iter().map(|m| m.vertices.len()).sum(),
            m.iter().map(|m| m.normals.len()).sum(),
            f.bones()
                .iter()
                .map(|b| b.position_keys.len() + b.rotation_keys.len())
                .sum(),
        )
    };
    let (a, b) = (count(&original), count(&back));
    println!(
        "{name:<60} vertices {:>5} -> {:>5}  normals {:>5} -> {:>5}  keys {:>4} -> {:>4}",
        a.0, b.0, a.1, b.1, a.2, b.2
    );
}

#[test]
fn fixtures_survive_ascii_binary_ascii() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/ms3d-ascii");
    for fixture in FIXTURES {
        check(&dir.join(fixture));
    }
}

#[test]
fn corpus_survives_ascii_binary_ascii() {
    let Some(dir) = corpus::corpus_dir("ms3d-ascii") else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 15);
    for path in &files {
        check(path);
    }
}
