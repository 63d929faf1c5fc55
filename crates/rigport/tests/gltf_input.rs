//! glTF input through the facade, checked against the independent posing oracle of
//! test-support (its own JSON and accessor reading, the spec's math):
//!
//! - every corpus glTF and every readable fixture, posed inside each animation, equals the
//!   oracle within 1e-3 of the model's size (the oracle keeps the 4 largest influences,
//!   renormalized, as rigport documents);
//! - converted to .iqe and .iqm and read back: within 1e-2 (cubic splines are resampled);
//! - written back as .glb from the model: the oracle reads that file and agrees within 1e-3,
//!   and the Khronos validator finds 0 errors (when `RIGPORT_GLTF_VALIDATOR` is set);
//! - every target keeps every triangle or refuses with a message naming its limit;
//! - embedded images are written beside non-glTF outputs and embedded again in a .glb;
//! - the `fail_` fixtures are refused with a clear message.

use rigport::pipeline::{Settings, convert};
use rigport::{Document, Format, ModelOptions};
use rigport_anim::posed_meshes;
use rigport_model_core::{Mesh, Model, ReadOptions, UpAxis};
use rigport_sweep::exercise::targets;
use rigport_test_support::corpus::corpus_dir;
use rigport_test_support::fixtures::{file_name, fixtures_dir};
use rigport_test_support::gltf::oracle::{Triangle, compare, size};
use rigport_test_support::gltf::{Oracle, OracleOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Compares a pose with the oracle's, naming the file, target and pose on a mismatch.
fn check_pose(
    case: &Case,
    pose: &Pose,
    expected: &[Triangle],
    actual: &[Triangle],
    tolerance: f32,
    what: &str,
) {
    compare(expected, actual, tolerance)
        .unwrap_or_else(|e| panic!("{} {what} at {pose:?}: {e}", case.name));
}

/// Every readable glTF: the corpus's (when `RIGPORT_CORPUS` is set) and the fixtures'.
fn inputs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    if let Some(dir) = corpus_dir("gltf") {
        files.extend(gltf_files(&dir));
    }
    files.extend(
        gltf_files(&fixtures_dir().join("gltf"))
            .into_iter()
            .filter(|p| !file_name(p).starts_with("fail_")),
    );
    files
}

fn gltf_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            ext.eq_ignore_ascii_case("glb") || ext.eq_ignore_ascii_case("gltf")
        })
        .collect();
    files.sort();
    files
}

/// One input read every way the tests need.
struct Case {
    name: String,
    bytes: Vec<u8>,
    dir: PathBuf,
    oracle: Oracle,
    model: Model,
    images: Vec<rigport::Image>,
}

fn case(path: &Path) -> Case {
    let name = file_name(path);
    let bytes = std::fs::read(path).unwrap();
    let dir = path.parent().unwrap().to_path_buf();
    let oracle = Oracle::read(&bytes, Some(&dir))
        .unwrap_or_else(|e| panic!("{name}: oracle: {e}"))
        .with_options(OracleOptions {
            max_influences: Some(4),
            default_weights: false,
        });
    let (document, _) = Document::sniff_and_read_in(&bytes, &ReadOptions::default(), Some(&dir))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let (model, images, _) = document
        .to_model_with_images(&ModelOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    Case {
        name,
        bytes,
        dir,
        oracle,
        model,
        images,
    }
}

fn settings(dir: &Path) -> Settings {
    Settings {
        source_dir: Some(dir.to_path_buf()),
        ..Settings::default()
    }
}

/// The world-space triangles of posed (or bind-pose) meshes.
fn triangles(meshes: &[Mesh]) -> Vec<Triangle> {
    meshes
        .iter()
        .flat_map(|m| {
            m.triangles
                .iter()
                .map(|t| t.map(|i| m.vertices[i as usize].position))
        })
        .collect()
}

/// The model's animation for the file's animation `index`: by name, else by position.
fn animation_of(model: &Model, name: Option<&str>, index: usize) -> usize {
    name.and_then(|n| model.animations.iter().position(|a| a.name == n))
        .unwrap_or(index)
}

/// (file animation, time, oracle triangles) for a time inside each animation that moves
/// nodes, or the rest pose (`None`) of a file without one.
/// A file animation (index and name) to pose, or `None` for the rest pose.
type Pose = Option<(usize, Option<String>)>;

fn poses(case: &Case) -> Vec<(Pose, f32, Vec<Triangle>)> {
    let spans = case.oracle.animations().unwrap();
    let mut out = Vec::new();
    for (i, span) in spans.iter().enumerate().filter(|(_, s)| s.moves_nodes) {
        // Between keys rather than on one, so interpolation is what is compared.
        let time = span.start + 0.37 * (span.end - span.start);
        let expected = case.oracle.triangles(Some((i, time))).unwrap();
        out.push((Some((i, span.name.clone())), time, expected));
    }
    if out.is_empty() {
        out.push((None, 0.0, case.oracle.triangles(None).unwrap()));
    }
    out
}

/// `model` posed as `pose` asks.
fn posed(model: &Model, pose: &Pose, time: f32) -> Vec<Triangle> {
    match pose {
        None => triangles(&model.meshes),
        Some((index, name)) => {
            let animation = animation_of(model, name.as_deref(), *index);
            let (meshes, _) = posed_meshes(model, animation, time).unwrap();
            triangles(&meshes)
        }
    }
}

#[test]
fn posing_every_glb_and_gltf_equals_the_oracle() {
    let mut checked = 0;
    for path in inputs() {
        let case = case(&path);
        assert_eq!(
            case.model.triangle_count(),
            case.oracle.triangles(None).unwrap().len(),
            "{}: triangle count",
            case.name
        );
        for (pose, time, expected) in poses(&case) {
            let tolerance = 1e-3 * size(&expected).max(1e-6);
            let worst = compare(&expected, &posed(&case.model, &pose, time), tolerance)
                .unwrap_or_else(|e| panic!("{} at {pose:?} t={time}: {e}", case.name));
            eprintln!("{}: {pose:?} t={time}: worst {worst}", case.name);
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} poses checked");
}

#[test]
fn iqe_and_iqm_converted_from_gltf_pose_like_the_oracle() {
    for path in inputs() {
        let case = case(&path);
        for target in [Format::Iqe, Format::Iqm] {
            let output = PathBuf::from(format!("out.{}", target.extension()));
            let converted = convert(&case.bytes, &output, target, &settings(&case.dir))
                .unwrap_or_else(|e| panic!("{} -> {target}: {e}", case.name));
            // What the target cannot hold is reported once, counted.
            let dropped: Vec<_> = converted.report.with_code("morph-targets").collect();
            let targets = case.model.morph_target_count();
            if targets > 0 {
                let counted = format!("{targets} morph target(s)");
                assert!(
                    dropped.len() == 1 && dropped[0].message.contains(&counted),
                    "{} -> {target}: {dropped:?}",
                    case.name
                );
            } else {
                assert!(dropped.is_empty(), "{} -> {target}: {dropped:?}", case.name);
            }
            let (document, _) =
                Document::read(&converted.files[0].1, target, &ReadOptions::default()).unwrap();
            let (mut back, _) = document.to_model().unwrap();
            // IQE and IQM are Z-up: the conversion turned the model, and turning it back
            // must pose it as the glTF did.
            assert_eq!(back.up, UpAxis::Z, "{}", case.name);
            back.turn_to(UpAxis::Y);
            // IQE and IQM hold no morph targets: the meshes keep their default weights.
            let baked = case.oracle.clone().with_options(OracleOptions {
                max_influences: Some(4),
                default_weights: true,
            });
            for (pose, time, _) in poses(&case) {
                let expected = baked
                    .triangles(pose.as_ref().map(|(i, _)| (*i, time)))
                    .unwrap();
                let tolerance = 1e-2 * size(&expected).max(1e-6);
                let actual = posed(&back, &pose, time);
                let what = format!("-> {target} t={time}");
                check_pose(&case, &pose, &expected, &actual, tolerance, &what);
            }
        }
    }
}

/// The rest pose glTF draws (every node at its own transform) is the bind-pose mesh of the
/// model and of every Z-up file written from it, read back without posing: a skeleton under
/// a turned non-joint node, or skins whose inverse bind matrices do not invert the rest
/// pose, stand in the output's own vertices as glTF draws them.
#[test]
fn the_bind_pose_mesh_is_the_rest_pose_gltf_draws() {
    let mut checked = 0;
    for path in inputs() {
        let case = case(&path);
        let expected = case.oracle.triangles(None).unwrap();
        let tolerance = 1e-3 * size(&expected).max(1e-6);
        let actual = triangles(&case.model.meshes);
        compare(&expected, &actual, tolerance)
            .unwrap_or_else(|e| panic!("{}: bind-pose mesh: {e}", case.name));
        for target in [Format::Iqe, Format::Iqm, Format::Md5Mesh, Format::Smd] {
            let output = PathBuf::from(format!("out.{}", target.extension()));
            let converted = match convert(&case.bytes, &output, target, &settings(&case.dir)) {
                Ok(converted) => converted,
                // A target's limits (checked by `every_target_keeps_every_triangle...`).
                Err(e) if e.to_string().contains("limit") => continue,
                Err(e) => panic!("{} -> {target}: {e}", case.name),
            };
            let (document, _) =
                Document::read(&converted.files[0].1, target, &ReadOptions::default()).unwrap();
            let (mut back, _) = document.to_model().unwrap();
            back.turn_to(UpAxis::Y);
            compare(
                &expected,
                &triangles(&back.meshes),
                1e-2 * size(&expected).max(1e-6),
            )
            .unwrap_or_else(|e| panic!("{} -> {target}: rest vertices: {e}", case.name));
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} files checked");
}

#[test]
fn glb_written_back_from_the_model_poses_like_the_source_and_validates() {
    let dir = tempfile::tempdir().unwrap();
    let mut written = Vec::new();
    for path in inputs() {
        let case = case(&path);
        use rigport_gltf::export::{ExportOptions, ImageError, SourceImage, to_glb_with_images};
        // The images the import kept, embedded again.
        let images = |reference: &str| {
            let image = case.images.iter().find(|i| i.file_name == reference);
            image.map_or(Err(ImageError::NotFound), |i| {
                Ok(SourceImage {
                    name: i.file_name.clone(),
                    bytes: i.png.clone(),
                })
            })
        };
        let (glb, _) = to_glb_with_images(&case.model, &ExportOptions::default(), &images).unwrap();
        let again = Oracle::read(&glb, None)
            .unwrap_or_else(|e| panic!("{}: written .glb: {e}", case.name))
            .with_options(OracleOptions {
                max_influences: Some(4),
                ..OracleOptions::default()
            });
        let spans = again.animations().unwrap();
        for (pose, time, expected) in poses(&case) {
            let actual = match &pose {
                None => again.triangles(None).unwrap(),
                Some((index, name)) => {
                    let i = name
                        .as_deref()
                        .and_then(|n| spans.iter().position(|s| s.name.as_deref() == Some(n)))
                        .unwrap_or(*index);
                    again.triangles(Some((i, time))).unwrap()
                }
            };
            let tolerance = 1e-3 * size(&expected).max(1e-6);
            let what = format!("-> glb t={time}");
            check_pose(&case, &pose, &expected, &actual, tolerance, &what);
        }
        let out = dir.path().join(format!("{}.glb", case.name));
        std::fs::write(&out, glb).unwrap();
        written.push(out);
    }
    for report in validate(&written) {
        assert_eq!(report["issues"]["numErrors"], 0, "{report:#}");
    }
}

#[test]
fn every_target_keeps_every_triangle_or_names_its_limit() {
    for path in inputs() {
        let case = case(&path);
        let expected = case.model.triangle_count();
        for target in targets() {
            // An .md5anim and a .psa hold a skeleton and animations, never a mesh.
            if matches!(target, Format::Md5Anim | Format::Psa) {
                continue;
            }
            let dir = tempfile::tempdir().unwrap();
            let output = dir.path().join(format!("out.{}", target.extension()));
            let converted = match convert(&case.bytes, &output, target, &settings(&case.dir)) {
                Ok(converted) => converted,
                Err(error) => {
                    let message = error.to_string();
                    assert!(
                        message.contains("limit"),
                        "{} -> {target}: {message}",
                        case.name
                    );
                    continue;
                }
            };
            for (file, content) in &converted.files {
                std::fs::write(file, content).unwrap();
            }
            let main = &converted.files[0].1;
            let count = match target {
                Format::Glb | Format::Gltf => Oracle::read(main, Some(dir.path()))
                    .and_then(|o| o.triangles(None))
                    .unwrap_or_else(|e| panic!("{} -> {target}: {e}", case.name))
                    .len(),
                Format::Obj => String::from_utf8_lossy(main)
                    .lines()
                    .filter(|l| l.starts_with("f "))
                    .map(|l| l.split_whitespace().count() - 3)
                    .sum(),
                _ => {
                    let (document, _) =
                        Document::read(main, target, &ReadOptions::default()).unwrap();
                    document.to_model().unwrap().0.triangle_count()
                }
            };
            assert_eq!(count, expected, "{} -> {target}", case.name);
        }
    }
}

#[test]
fn embedded_images_go_beside_other_formats_and_back_into_a_glb() {
    let source = fixtures_dir().join("gltf");
    for (name, images) in [("textures.glb", 2), ("external.gltf", 1)] {
        let bytes = std::fs::read(source.join(name)).unwrap();
        let out = tempfile::tempdir().unwrap();
        for target in [Format::Iqe, Format::Ms3d, Format::Iqm] {
            let output = out.path().join(format!("model.{}", target.extension()));
            let converted = convert(&bytes, &output, target, &settings(&source)).unwrap();
            let pngs: Vec<_> = converted.files[1..]
                .iter()
                .filter(|(p, b)| file_name(p).starts_with("model_") && b.starts_with(b"\x89PNG"))
                .collect();
            assert_eq!(
                pngs.len(),
                images,
                "{name} -> {target}: {:?}",
                converted.files.len()
            );
            let (document, _) =
                Document::read(&converted.files[0].1, target, &ReadOptions::default()).unwrap();
            let (back, _) = document.to_model().unwrap();
            for material in back.materials.iter().filter_map(|m| m.texture.as_deref()) {
                assert!(
                    pngs.iter().any(|(p, _)| file_name(p) == material),
                    "{name} -> {target}: material names {material}, not one of the PNGs"
                );
            }
        }
        let output = out.path().join("model.glb");
        let converted = convert(&bytes, &output, Format::Glb, &settings(&source)).unwrap();
        let glb = &converted.files[0].1;
        if name.ends_with(".glb") {
            assert_eq!(glb, &bytes, "{name}: a .glb copy is byte-identical");
        }
        std::fs::write(&output, glb).unwrap();
        let json = glb_json(glb);
        let stored = json["images"].as_array().map_or(0, Vec::len);
        assert_eq!(stored, images, "{name}");
        for image in json["images"].as_array().unwrap() {
            assert!(image.get("bufferView").is_some(), "{name}: {image}");
            let mime = image["mimeType"].as_str().unwrap();
            assert!(
                mime == "image/png" || mime == "image/jpeg",
                "{name}: {mime}"
            );
        }
        for report in validate(&[output]) {
            assert_eq!(report["issues"]["numErrors"], 0, "{report:#}");
        }
    }
}

#[test]
fn broken_gltf_files_are_refused_with_a_clear_message() {
    let dir = fixtures_dir().join("gltf");
    for (name, wanted) in [
        ("fail_broken_json.gltf", "4:3"),
        ("fail_truncated.glb", "byte"),
        ("fail_missing_external.gltf", "missing.bin"),
        ("fail_draco.glb", "KHR_draco_mesh_compression"),
        ("fail_index_out_of_range.glb", "99"),
        ("fail_accessor_out_of_range.glb", "accessor 0"),
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        for target in targets() {
            let output = PathBuf::from(format!("out.{}", target.extension()));
            let error = convert(&bytes, &output, target, &settings(&dir))
                .err()
                .unwrap_or_else(|| panic!("{name} -> {target} converted"));
            let message = error.to_string();
            assert!(message.contains(wanted), "{name} -> {target}: {message}");
            assert!(message.len() < 1024, "{name}: {message}");
        }
    }
}

#[test]
fn sniffing_tells_glb_from_gltf_and_a_gltf_needs_its_folder() {
    let dir = fixtures_dir().join("gltf");
    let glb = std::fs::read(dir.join("textures.glb")).unwrap();
    let gltf = std::fs::read(dir.join("external.gltf")).unwrap();
    assert_eq!(rigport::sniff(&glb), Some(Format::Glb));
    assert_eq!(rigport::sniff(&gltf), Some(Format::Gltf));
    let error = Document::sniff_and_read(&gltf, &ReadOptions::default())
        .expect_err("external.bin cannot be found without a folder");
    assert!(error.to_string().contains("external.bin"), "{error}");
    let (document, _) =
        Document::sniff_and_read_in(&gltf, &ReadOptions::default(), Some(&dir)).unwrap();
    assert_eq!(document.format(), Format::Gltf);
    assert_eq!(
        document.to_vec(),
        gltf,
        "the faithful layer keeps the bytes"
    );
}

#[test]
fn cubic_splines_are_resampled_at_the_asked_rate_for_other_formats() {
    let dir = fixtures_dir().join("gltf");
    let bytes = std::fs::read(dir.join("interpolations.glb")).unwrap();
    for fps in [10.0, 60.0] {
        let settings = Settings {
            fps,
            ..settings(&dir)
        };
        let converted = convert(&bytes, Path::new("out.iqe"), Format::Iqe, &settings).unwrap();
        let resampled: Vec<_> = converted.report.with_code("animation-resampled").collect();
        assert_eq!(resampled.len(), 1, "{}", converted.report);
        assert!(
            resampled[0].message.contains(&format!("{fps}")),
            "{}",
            resampled[0].message
        );
        let (document, _) =
            Document::read(&converted.files[0].1, Format::Iqe, &ReadOptions::default()).unwrap();
        let (back, _) = document.to_model().unwrap();
        let cubic = back.animations.iter().find(|a| a.name == "cubic").unwrap();
        let keys = cubic
            .tracks
            .iter()
            .map(|t| t.rotations.len())
            .max()
            .unwrap();
        // 1.5 s of keys at `fps` frames per second, give or take the ends.
        let expected = (1.5 * fps) as usize;
        assert!(keys.abs_diff(expected) <= 2, "{keys} keys at {fps} fps");
    }
    let glb = convert(&bytes, Path::new("out.gltf"), Format::Gltf, &settings(&dir)).unwrap();
    assert_eq!(
        glb.report.with_code("animation-resampled").count(),
        0,
        "glTF keeps the splines"
    );
}

/// The JSON chunk of a .glb.
fn glb_json(glb: &[u8]) -> serde_json::Value {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

/// The Khronos validator's reports of `files` (strict: a missing image counts), or none
/// after saying the check skipped.
fn validate(files: &[PathBuf]) -> Vec<serde_json::Value> {
    let Some(modules) = std::env::var_os("RIGPORT_GLTF_VALIDATOR") else {
        eprintln!("skipped: RIGPORT_GLTF_VALIDATOR not set");
        return Vec::new();
    };
    if files.is_empty() {
        return Vec::new();
    }
    let script = rigport_test_support::workspace_root().join("crates/gltf/tests/validate_gltf.mjs");
    let output = Command::new("node")
        .arg(script)
        .args(files)
        .arg("--strict")
        .env("RIGPORT_GLTF_VALIDATOR", modules)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let value: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout} {}", String::from_utf8_lossy(&output.stderr)));
    value.as_array().cloned().unwrap_or_else(|| vec![value])
}
