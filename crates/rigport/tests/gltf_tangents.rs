//! Vertex tangents in a `.glb` copy: a `.glb` rigport writes passes the Khronos validator
//! even when the source's `TANGENT` data breaks the rule that tangents are unit vectors with
//! `w` = ±1. Tangents are checked here by reading the output's bytes directly, and by the
//! validator when `RIGPORT_GLTF_VALIDATOR` is set.

use rigport::Format;
use rigport::pipeline::{Settings, convert};
use rigport_model_core::codes;
use rigport_test_support::gltf::builder::Builder;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the `TANGENT` accessor of the test quad holds.
enum Tangents {
    /// Stored densely in the BIN chunk.
    Dense([[f32; 4]; 4]),
    /// A sparse accessor over zeros (cannot be rewritten in place).
    Sparse,
}

/// A unit quad in the XY plane facing +Z, U along +X, with the given tangents.
fn quad(tangents: Tangents) -> Vec<u8> {
    let mut b = Builder::new();
    let positions = b.floats(&[0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1., 0.], "VEC3");
    let normals = b.floats(&[0., 0., 1., 0., 0., 1., 0., 0., 1., 0., 0., 1.], "VEC3");
    let uvs = b.floats(&[0., 1., 1., 1., 1., 0., 0., 0.], "VEC2");
    let indices = b.indices(&[0, 1, 2, 0, 2, 3]);
    let tangent = match tangents {
        Tangents::Dense(values) => b.floats(values.as_flattened(), "VEC4"),
        Tangents::Sparse => b.sparse_floats(
            None,
            4,
            "VEC4",
            &[1],
            &[1., 0., 0., 1.],
            (vec![0.; 4], vec![1.; 4]),
        ),
    };
    let mesh = b.push(
        "meshes",
        json!({"primitives": [{
            "attributes": {"POSITION": positions, "NORMAL": normals, "TEXCOORD_0": uvs, "TANGENT": tangent},
            "indices": indices,
        }]}),
    );
    let node = b.push("nodes", json!({"mesh": mesh}));
    b.push("scenes", json!({"nodes": [node]}));
    b.set("scene", json!(0));
    b.glb()
}

/// The JSON chunk and the BIN chunk of a `.glb`.
fn chunks(glb: &[u8]) -> (Value, &[u8]) {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json = serde_json::from_slice(&glb[20..20 + len]).unwrap();
    (json, &glb[20 + len + 8..])
}

/// The dense `TANGENT` values of the first primitive, or `None` when it has none.
fn tangents(glb: &[u8]) -> Option<Vec<[f32; 4]>> {
    let (json, bin) = chunks(glb);
    let accessor = &json["accessors"]
        [json["meshes"][0]["primitives"][0]["attributes"]["TANGENT"].as_u64()? as usize];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize
        + accessor["byteOffset"].as_u64().unwrap_or(0) as usize;
    let count = accessor["count"].as_u64().unwrap() as usize;
    Some(
        bin[start..start + 16 * count]
            .chunks_exact(16)
            .map(|c| {
                std::array::from_fn(|k| f32::from_le_bytes(c[4 * k..4 * k + 4].try_into().unwrap()))
            })
            .collect(),
    )
}

/// Converts `glb` to `.glb`, writes the output into `dir` as `name` and returns it with the
/// report's codes.
fn copy(glb: &[u8], dir: &Path, name: &str) -> (Vec<u8>, Vec<rigport_model_core::Code>, PathBuf) {
    let out = dir.join(name);
    let converted = convert(glb, &out, Format::Glb, &Settings::default()).unwrap();
    let bytes = converted.files[0].1.clone();
    std::fs::write(&out, &bytes).unwrap();
    let codes = converted.report.notices.iter().map(|n| n.code).collect();
    (bytes, codes, out)
}

/// The validator's error count for each file, or nothing after saying the check skipped.
fn validator_errors(files: &[PathBuf]) -> Vec<(String, u64, Value)> {
    let Some(modules) = std::env::var_os("RIGPORT_GLTF_VALIDATOR") else {
        eprintln!("validator skipped: RIGPORT_GLTF_VALIDATOR not set");
        return Vec::new();
    };
    let script = rigport_test_support::workspace_root().join("crates/gltf/tests/validate_gltf.mjs");
    let output = Command::new("node")
        .arg(script)
        .args(files)
        .env("RIGPORT_GLTF_VALIDATOR", modules)
        .output()
        .expect("node runs");
    let value: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&output.stderr));
    });
    let reports = value.as_array().cloned().unwrap_or_else(|| vec![value]);
    reports
        .into_iter()
        .map(|r| {
            (
                r["rigport"]["file"].as_str().unwrap_or("?").to_owned(),
                r["issues"]["numErrors"].as_u64().unwrap_or(u64::MAX),
                r["issues"]["messages"].clone(),
            )
        })
        .collect()
}

const VALID: [f32; 4] = [1., 0., 0., 1.];

#[test]
fn invalid_tangents_are_rebuilt_in_a_glb_copy_and_nothing_else_changes() {
    let source = quad(Tangents::Dense([
        [0., 0., 0., 1.],    // zero length: rebuilt from the UVs (U runs along +X)
        [2., 0., 0., 1.],    // too long: normalized
        [0., 1., 0., 0.5],   // w not ±1: its sign kept
        [0.6, 0.8, 0., -1.], // valid: kept
    ]));
    let dir = tempfile::tempdir().unwrap();
    let (bytes, codes, out) = copy(&source, dir.path(), "repaired.glb");
    assert!(codes.contains(&codes::TANGENTS_REPAIRED), "{codes:?}");
    let repaired = tangents(&bytes).unwrap();
    assert_eq!(
        repaired,
        vec![
            [1., 0., 0., 1.],
            [1., 0., 0., 1.],
            [0., 1., 0., 1.],
            [0.6, 0.8, 0., -1.]
        ]
    );
    // Only the tangent bytes and the accessor's declared bounds moved.
    let (mut expected_json, source_bin) = chunks(&source);
    expected_json["accessors"][4]["max"] = json!([1.0, 1.0, 0.0, 1.0]);
    let (json, bin) = chunks(&bytes);
    assert_eq!(json, expected_json);
    assert_eq!(bin.len(), source_bin.len());
    let view = &json["bufferViews"][json["accessors"][4]["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    let differing: Vec<usize> = (0..bin.len())
        .filter(|&i| bin[i] != source_bin[i])
        .collect();
    assert!(!differing.is_empty());
    assert!(
        differing.iter().all(|&i| (start..start + 64).contains(&i)),
        "{differing:?} outside {start}..{}",
        start + 64
    );
    for (file, errors, messages) in validator_errors(&[out]) {
        assert_eq!(errors, 0, "{file}: {messages:#}");
    }
}

#[test]
fn every_rebuilt_tangent_is_a_unit_vector_perpendicular_to_the_normal() {
    let source = quad(Tangents::Dense([
        [0.; 4],
        [f32::NAN, 0., 0., 1.],
        [0., 0., 2., 1.],
        VALID,
    ]));
    let dir = tempfile::tempdir().unwrap();
    let (bytes, _, out) = copy(&source, dir.path(), "rebuilt.glb");
    for t in tangents(&bytes).unwrap() {
        let length = (t[0] * t[0] + t[1] * t[1] + t[2] * t[2]).sqrt();
        assert!((length - 1.0).abs() < 1e-6, "{t:?}");
        assert!(
            t[2].abs() < 1e-6,
            "{t:?} is not perpendicular to the +Z normal"
        );
        assert!(t[3] == 1.0 || t[3] == -1.0, "{t:?}");
    }
    for (file, errors, messages) in validator_errors(&[out]) {
        assert_eq!(errors, 0, "{file}: {messages:#}");
    }
}

#[test]
fn valid_tangents_copy_byte_identical() {
    // Within the validator's unit-length tolerance (0.00674) counts as valid, as it does
    // for tangents quantized to bytes.
    let source = quad(Tangents::Dense([
        VALID,
        [1.005, 0., 0., 1.],
        [0., 1., 0., -1.],
        VALID,
    ]));
    let dir = tempfile::tempdir().unwrap();
    let (bytes, codes, _) = copy(&source, dir.path(), "same.glb");
    assert_eq!(bytes, source);
    assert!(!codes.contains(&codes::TANGENTS_REPAIRED), "{codes:?}");
}

#[test]
fn tangents_that_cannot_be_rewritten_in_place_go_through_the_model() {
    let source = quad(Tangents::Sparse);
    let dir = tempfile::tempdir().unwrap();
    let (bytes, codes, out) = copy(&source, dir.path(), "through_model.glb");
    assert!(codes.contains(&codes::TANGENTS_REPAIRED), "{codes:?}");
    assert!(codes.contains(&codes::TANGENTS), "{codes:?}");
    assert_eq!(tangents(&bytes), None, "the model carries no tangents");
    for (file, errors, messages) in validator_errors(&[out]) {
        assert_eq!(errors, 0, "{file}: {messages:#}");
    }
}
