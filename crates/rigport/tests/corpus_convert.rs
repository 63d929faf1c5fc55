//! The real-file corpus through the whole converter: every file that reads converts to every
//! format, and (when the Khronos validator is available) every glb validates, the real glTF
//! files' included.

use rigport::Format;
use rigport::document::Document;
use rigport::pipeline::{Settings, convert};
use rigport_model_core::ReadOptions;
use rigport_sweep::exercise::targets;
use rigport_test_support::corpus::CORPUS_FORMATS;
use rigport_test_support::fixtures::{file_name, readable_fixtures};
use rigport_test_support::workspace_root as repo_root;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The two corpus files whose core is damaged in their own git history (MANIFEST.tsv).
const DAMAGED_CORE: [&str; 2] = ["assimp_Wuson_broken2018.ms3d", "icub_iCub_Head_a.ms3d"];

#[test]
fn every_corpus_file_converts_to_every_format() {
    let Some(files) = rigport_test_support::corpus::corpus_files(&CORPUS_FORMATS) else {
        return;
    };
    let mut table = Vec::new();
    for path in &files {
        let name = file_name(path);
        let bytes = std::fs::read(path).unwrap();
        let read = Document::sniff_and_read(&bytes, &ReadOptions::default());
        if DAMAGED_CORE.contains(&name.as_str()) {
            let error = read.expect_err("a damaged core must not read");
            assert!(error.to_string().contains("byte"), "{name}: {}", error);
            continue;
        }
        let (document, _) = read.unwrap_or_else(|e| panic!("{name}: {}", e));
        let (model, _) = document
            .to_model()
            .unwrap_or_else(|e| panic!("{name}: {}", e));
        for target in targets() {
            let output = Path::new("out").with_extension(target.extension());
            let result = convert(&bytes, &output, target, &Settings::default());
            match (&result, target) {
                // MilkShape cannot hold several animations or more than 4 weights' worth of
                // joints per vertex; such a refusal must be an error, never a corrupt file.
                // An .md5anim and a .psa need an animation to write.
                (
                    Err(message),
                    Format::Ms3d | Format::Ms3dAscii | Format::Md5Anim | Format::Psa,
                ) => {
                    eprintln!("{name} -> {}: refused: {message}", target.key());
                    continue;
                }
                (Err(message), _) => panic!("{name} -> {}: {message}", target.key()),
                (Ok(_), _) => {}
            }
            let converted = result.unwrap();
            // glTF outputs are read back by tests/gltf_input.rs (a .gltf's .bin is not on
            // disk here).
            let gltf = matches!(target, Format::Glb | Format::Gltf);
            if target.can_read() && target != document.format() && !gltf {
                let (back, _) =
                    Document::read(&converted.files[0].1, target, &ReadOptions::strict())
                        .unwrap_or_else(|e| {
                            panic!("{name} -> {} does not read back: {}", target.key(), e)
                        });
                let (back_model, _) = back.to_model().unwrap();
                // An .md5anim and a .psa hold no mesh; an .md5mesh adds a root joint when a
                // vertex has none or there are several roots (`joint-added`), as do an
                // .md5anim, a .psk and a .psa.
                if !matches!(target, Format::Md5Anim | Format::Psa) {
                    assert_eq!(
                        back_model.triangle_count(),
                        model.triangle_count(),
                        "{name} -> {}",
                        target.key()
                    );
                }
                let added = usize::from(
                    matches!(
                        target,
                        Format::Md5Mesh | Format::Md5Anim | Format::Psk | Format::Psa
                    ) && converted.report.with_code("joint-added").next().is_some(),
                );
                // SMD and PSK bind every vertex to a bone, and a PSA animates at least one: a
                // model without joints (an FBX whose animation moves no mesh) gets one.
                let joints = match target {
                    Format::Smd | Format::Psk | Format::Psa => model.skeleton.joints.len().max(1),
                    _ => model.skeleton.joints.len(),
                };
                assert_eq!(
                    back_model.skeleton.joints.len(),
                    joints + added,
                    "{name} -> {}",
                    target.key()
                );
            }
        }
        table.push(format!(
            "{name}: {} triangles, {} joints, {} animations",
            model.triangle_count(),
            model.skeleton.joints.len(),
            model.animations.len()
        ));
    }
    eprintln!("{}", table.join("\n"));
    assert_eq!(table.len(), files.len() - DAMAGED_CORE.len());
}

/// Where the validator is, or `None` after saying the test skipped.
fn validator() -> Option<(PathBuf, String)> {
    let Some(modules) = std::env::var_os("RIGPORT_GLTF_VALIDATOR") else {
        eprintln!(
            "skipped: RIGPORT_GLTF_VALIDATOR not set (path to a node_modules holding gltf-validator)"
        );
        return None;
    };
    let script = repo_root().join("crates/gltf/tests/validate_gltf.mjs");
    Some((script, modules.to_string_lossy().into_owned()))
}

/// Converts each input to glb in a temporary directory and validates them all in one run.
fn validate_all(inputs: &[PathBuf]) {
    let Some((script, modules)) = validator() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let bytes = std::fs::read(input).unwrap();
        let out = dir.path().join(format!("{i:03}_{}.glb", file_name(input)));
        // The folder of the input: a glTF's external buffers and images, textures beside a
        // model.
        let settings = Settings {
            source_dir: input.parent().map(Path::to_path_buf),
            ..Settings::default()
        };
        match convert(&bytes, &out, Format::Glb, &settings) {
            Ok(converted) => {
                std::fs::write(&out, &converted.files[0].1).unwrap();
                outputs.push(out);
            }
            Err(message) => assert!(
                DAMAGED_CORE.contains(&file_name(input).as_str()),
                "{}: {message}",
                input.display()
            ),
        }
    }
    let result = Command::new("node")
        .arg(&script)
        .args(&outputs)
        .env("RIGPORT_GLTF_VALIDATOR", &modules)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&result.stdout);
    let reports: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&result.stderr)));
    let reports = reports.as_array().cloned().unwrap_or_else(|| vec![reports]);
    let mut failures = Vec::new();
    for report in &reports {
        let errors = report["rigport"]["errors"].as_u64().unwrap_or(u64::MAX);
        let file = report["rigport"]["file"].as_str().unwrap_or("?").to_owned();
        eprintln!(
            "{file}: {errors} errors, {} warnings",
            report["issues"]["numWarnings"]
        );
        if errors != 0 {
            failures.push(format!("{file}: {:#}", report["issues"]["messages"]));
        }
    }
    assert_eq!(reports.len(), outputs.len());
    assert!(
        failures.is_empty(),
        "validator errors:\n{}",
        failures.join("\n")
    );
    assert!(result.status.success());
}

#[test]
fn glb_of_every_fixture_passes_the_khronos_validator() {
    let inputs: Vec<PathBuf> = readable_fixtures()
        .iter()
        .map(|p| repo_root().join(p))
        .collect();
    validate_all(&inputs);
}

#[test]
fn glb_of_every_corpus_file_passes_the_khronos_validator() {
    let Some(files) = rigport_test_support::corpus::corpus_files(&CORPUS_FORMATS) else {
        return;
    };
    validate_all(&files);
}

/// Every real glTF (morph targets included) converts to a .glb the validator accepts: a .glb is copied (tangents
/// glTF forbids rebuilt), a .gltf goes through the model.
#[test]
fn glb_of_every_corpus_gltf_passes_the_khronos_validator() {
    let Some(mut files) = rigport_test_support::corpus::corpus_files(&["gltf", "gltf-morph"])
    else {
        return;
    };
    // A .gltf's buffers beside it are not inputs.
    files.retain(|f| f.extension().is_some_and(|e| e == "gltf" || e == "glb"));
    assert!(!files.is_empty());
    validate_all(&files);
}
