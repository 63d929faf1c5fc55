//! .glb and .gltf as inputs of the `rigport` binary: info, validate, convert (single and
//! batch), render, `--fps`, and the messages and exit codes of broken files.

mod common;

use common::{file_name, fixtures, repo_root, rigport};
use std::path::{Path, PathBuf};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn s(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The glTF fixtures (`.glb`, `.gltf`), failures included, relative to the repo root.
fn gltf_fixtures() -> Vec<PathBuf> {
    fixtures("gltf")
        .into_iter()
        .filter(|p| {
            let name = file_name(p);
            name.ends_with(".glb") || name.ends_with(".gltf")
        })
        .collect()
}

/// The corpus's glTF files, or none after saying the check skipped.
fn corpus_gltf() -> Vec<PathBuf> {
    let Some(dir) = rigport_test_support::corpus::corpus_dir("gltf") else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn info_reads_every_glb_and_gltf_by_content() {
    for path in gltf_fixtures().into_iter().chain(corpus_gltf()) {
        let name = file_name(&path);
        let out = rigport(&["info", "--json", &s(&path)]);
        let stdout = text(&out.stdout);
        // Reading checks the container and the JSON; accessors are checked by conversion.
        let unreadable = [
            "fail_broken_json.gltf",
            "fail_truncated.glb",
            "fail_missing_external.gltf",
            "fail_draco.glb",
        ];
        if unreadable.contains(&name.as_str()) {
            assert_eq!(out.status.code(), Some(1), "{name}: {stdout}");
            continue;
        }
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let json: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
        let format = json["format"].as_str().unwrap();
        assert!(format == "glb" || format == "gltf", "{name}: {format}");
        assert!(json["triangles"].as_u64().unwrap() > 0, "{name}: {json}");
    }
}

#[test]
fn broken_gltf_exits_1_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    for (name, wanted) in [
        ("fail_broken_json.gltf", "4:3"),
        ("fail_truncated.glb", "byte"),
        ("fail_missing_external.gltf", "missing.bin"),
        ("fail_draco.glb", "KHR_draco_mesh_compression"),
        ("fail_index_out_of_range.glb", "out of range"),
        ("fail_accessor_out_of_range.glb", "accessor 0"),
    ] {
        let input = format!("fixtures/gltf/{name}");
        for ext in ["iqm", "glb", "ms3d"] {
            let out = rigport(&["convert", &input, &s(&dir.path().join(format!("o.{ext}")))]);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{name} -> {ext}: {stderr}");
            assert!(
                stderr.contains(name) && stderr.contains(wanted),
                "{name} -> {ext}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
        let out = rigport(&["validate", &input]);
        assert_eq!(out.status.code(), Some(1), "{name}: validate");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn json_errors_name_line_and_column() {
    let out = rigport(&["info", "fixtures/gltf/fail_broken_json.gltf"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("4:3") && stderr.contains("\"scenes\""),
        "{stderr}"
    );
}

#[test]
fn convert_writes_embedded_images_beside_the_output() {
    let dir = tempfile::tempdir().unwrap();
    // MilkShape stores the texture file name; IQE and IQM keep one string per material,
    // which engines load as the texture, so the material is named after the image.
    for output in ["hero.ms3d", "hero.txt", "hero.iqe", "hero.iqm"] {
        let out = dir.path().join(output);
        let run = rigport(&["convert", "fixtures/gltf/textures.glb", &s(&out), "--force"]);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        let written = std::fs::read(&out).unwrap();
        for image in ["hero_bricks.png", "hero_grass.png"] {
            let png = std::fs::read(dir.path().join(image)).unwrap();
            assert!(png.starts_with(b"\x89PNG"), "{image}");
            image::load_from_memory(&png).unwrap();
            let named = written.windows(image.len()).any(|w| w == image.as_bytes());
            assert!(named, "{output} names {image}");
        }
    }
}

#[test]
fn a_gltf_with_external_files_converts_into_another_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("model.glb");
    let run = rigport(&["convert", "fixtures/gltf/external.gltf", &s(&out)]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let glb = std::fs::read(&out).unwrap();
    assert_eq!(&glb[..4], b"glTF");
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + len]).unwrap();
    let image = &json["images"][0];
    assert!(
        image.get("bufferView").is_some() && image.get("uri").is_none(),
        "{json}"
    );
}

#[test]
fn fps_sets_the_resampling_rate_and_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("i.iqe");
    let run = rigport(&[
        "convert",
        "fixtures/gltf/interpolations.glb",
        &s(&out),
        "--fps",
        "12",
        "--verbose",
    ]);
    let stderr = text(&run.stderr) + &text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("animation-resampled") && stderr.contains("12 fps"),
        "{stderr}"
    );
    for bad in ["0", "-3", "nan", "abc", "5000"] {
        let run = rigport(&[
            "convert",
            "fixtures/gltf/interpolations.glb",
            &s(&out),
            "--fps",
            bad,
            "--force",
        ]);
        assert_eq!(run.status.code(), Some(2), "--fps {bad}");
    }
}

#[test]
fn batch_converts_the_corpus_gltf_with_unique_image_names() {
    let inputs = corpus_gltf();
    if inputs.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["convert".to_owned()];
    args.extend(inputs.iter().map(|p| s(p)));
    args.extend(["--to", "iqm", "-o"].map(str::to_owned));
    args.push(s(dir.path()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = rigport(&args);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let written: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| file_name(&e.unwrap().path()))
        .collect();
    for input in &inputs {
        let stem = input.file_stem().unwrap().to_string_lossy();
        assert!(written.contains(&format!("{stem}.iqm")), "{written:?}");
    }
    // Every PNG belongs to one output: its name starts with that output's stem.
    for png in written.iter().filter(|n| n.ends_with(".png")) {
        let owners = inputs
            .iter()
            .filter(|i| png.starts_with(&format!("{}_", i.file_stem().unwrap().to_string_lossy())))
            .count();
        assert!(owners >= 1, "{png} belongs to no output");
    }
}

#[test]
fn validate_and_render_take_gltf() {
    for input in ["fixtures/gltf/textures.glb", "fixtures/gltf/external.gltf"] {
        let run = rigport(&["validate", input]);
        let stdout = text(&run.stdout);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{input}: {stdout}{}",
            text(&run.stderr)
        );
        assert!(!stdout.contains("missing-texture"), "{input}: {stdout}");
    }
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("t.png");
    let run = rigport(&[
        "render",
        "fixtures/gltf/textures.glb",
        &s(&png),
        "--size",
        "64x64",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let picture = image::open(&png).unwrap().into_rgb8();
    // The grass quad's green checker is drawn from the embedded PNG, not a flat colour.
    let green = picture
        .pixels()
        .filter(|p| {
            let [r, g, b] = p.0.map(i32::from);
            g > r + 60 && g > b + 60
        })
        .count();
    assert!(green > 0, "no textured green pixel");
    assert!(repo_root().join("fixtures/gltf/textures.glb").is_file());
}
