//! Textures and winding through the binary: a model converted into another folder gives a
//! self-contained glTF (its BMP, TGA, JPEG and PNG images found beside the source by name,
//! case-insensitively, after dropping Windows paths), `--no-embed-textures` keeps the URIs,
//! and a mesh wound against its own normals is drawn double-sided.
//!
//! Fixtures are made here: a small MilkShape model written with the ms3d crate and images
//! encoded with the `image` crate.

mod common;

use common::repo_root;
use image::{DynamicImage, ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};
use rigport::formats::ms3d;
use rigport_model_core::{Material, MaterialId, Mesh, Model, Vertex, glam::Vec2, glam::Vec3};
use serde_json::Value;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Texture references as real files store them, and the file each names on disk.
const TEXTURES: [(&str, &str); 4] = [
    ("skin.bmp", "skin.bmp"),
    // Windows-absolute path of the author's machine, and another case than the file.
    (r"C:\Users\artist\My Models\Face.TGA", "face.tga"),
    (r".\metal.jpg", "metal.jpg"),
    ("Wood.PNG", "wood.png"),
];

fn encode(image: DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, format).unwrap();
    out.into_inner()
}

fn rgb(seed: u8) -> RgbImage {
    RgbImage::from_fn(8, 8, |x, y| {
        Rgb([x as u8 * 30 + seed, y as u8 * 30, seed.wrapping_mul(3)])
    })
}

/// The image files of [`TEXTURES`], in that order.
fn images() -> Vec<Vec<u8>> {
    let rgba = RgbaImage::from_fn(8, 8, |x, y| Rgba([x as u8 * 30, 200, y as u8 * 30, 128]));
    vec![
        encode(rgb(1).into(), ImageFormat::Bmp),
        encode(rgba.into(), ImageFormat::Tga),
        encode(rgb(2).into(), ImageFormat::Jpeg),
        encode(rgb(3).into(), ImageFormat::Png),
    ]
}

/// A quad per material facing +Z, wound counter-clockwise seen from its normal (or
/// clockwise for `flip`ped meshes).
fn model(references: &[&str], flip: &[bool]) -> Model {
    let mut model = Model::default();
    for (i, reference) in references.iter().enumerate() {
        model.materials.push(Material {
            texture: Some((*reference).to_owned()),
            ..Material::named(format!("material {i}"))
        });
        let mut mesh = Mesh::new(format!("mesh {i}"));
        let x = i as f32 * 2.0;
        for (p, uv) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            .map(|(a, b)| (Vec3::new(x + a, b, 0.0), Vec2::new(a, 1.0 - b)))
        {
            mesh.vertices.push(Vertex {
                position: p,
                normal: Vec3::Z,
                uv,
                ..Vertex::default()
            });
        }
        mesh.has_uvs = true;
        mesh.triangles = if flip.get(i).copied().unwrap_or(false) {
            vec![[0, 2, 1], [0, 3, 2]]
        } else {
            vec![[0, 1, 2], [0, 2, 3]]
        };
        mesh.material = Some(MaterialId(i as u32));
        model.meshes.push(mesh);
    }
    model
}

/// A source folder holding `model.ms3d` and the image files, and an empty output folder.
struct Fixture {
    _root: tempfile::TempDir,
    source: PathBuf,
    out: PathBuf,
}

fn fixture(references: &[&str], flip: &[bool], files: &[(&str, Vec<u8>)]) -> Fixture {
    let root = tempfile::tempdir().unwrap();
    let source = root.path().join("art");
    let out = root.path().join("export");
    std::fs::create_dir_all(&source).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    let (file, _) = ms3d::from_model(&model(references, flip), &Default::default()).unwrap();
    std::fs::write(source.join("model.ms3d"), file.to_vec()).unwrap();
    for (name, bytes) in files {
        std::fs::write(source.join(name), bytes).unwrap();
    }
    Fixture {
        _root: root,
        source,
        out,
    }
}

fn textured() -> Fixture {
    let references: Vec<&str> = TEXTURES.iter().map(|t| t.0).collect();
    let files: Vec<(&str, Vec<u8>)> = TEXTURES.iter().map(|t| t.1).zip(images()).collect();
    fixture(&references, &[], &files)
}

fn run(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigport"))
        .arg("convert")
        .args(args)
        .output()
        .expect("rigport runs")
}

fn run_json(args: &[&str]) -> (Output, Value) {
    let output = Command::new(env!("CARGO_BIN_EXE_rigport"))
        .arg("convert")
        .args(args)
        .arg("--json")
        .output()
        .expect("rigport runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr)));
    (output, json)
}

/// The JSON chunk and the BIN chunk of a GLB.
fn glb_parts(bytes: &[u8]) -> (Value, &[u8]) {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    assert_eq!(&bytes[..4], b"glTF");
    let json_len = word(12);
    let json = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    let bin_start = 20 + json_len + 8;
    (json, &bytes[bin_start..bin_start + word(20 + json_len)])
}

/// The bytes an embedded image's buffer view holds.
fn embedded<'a>(json: &Value, bin: &'a [u8], image: &Value) -> &'a [u8] {
    let view = &json["bufferViews"][image["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    &bin[start..start + view["byteLength"].as_u64().unwrap() as usize]
}

/// Runs the Khronos validator (strict: a missing image counts) when
/// `RIGPORT_GLTF_VALIDATOR` is set; `None` after saying the check skipped.
fn validate(file: &Path) -> Option<Value> {
    let Some(modules) = std::env::var_os("RIGPORT_GLTF_VALIDATOR") else {
        eprintln!("skipped: RIGPORT_GLTF_VALIDATOR not set");
        return None;
    };
    let output = Command::new("node")
        .arg(repo_root().join("crates/gltf/tests/validate_gltf.mjs"))
        .arg(file)
        .arg("--strict")
        .env("RIGPORT_GLTF_VALIDATOR", modules)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    Some(
        serde_json::from_str(&stdout).unwrap_or_else(|e| {
            panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr))
        }),
    )
}

fn assert_valid(file: &Path, expected_images: usize) {
    let Some(report) = validate(file) else { return };
    assert_eq!(report["issues"]["numErrors"], 0, "{report:#}");
    assert_eq!(report["issues"]["numWarnings"], 0, "{report:#}");
    let resources = report["info"]["resources"].as_array().unwrap();
    let images: Vec<_> = resources
        .iter()
        .filter(|r| r["pointer"].as_str().unwrap_or("").starts_with("/images/"))
        .collect();
    assert_eq!(images.len(), expected_images, "{report:#}");
    for image in images {
        let mime = image["mimeType"].as_str().unwrap_or("");
        assert!(mime == "image/png" || mime == "image/jpeg", "{report:#}");
    }
}

#[test]
fn a_model_converted_into_another_folder_gets_its_images_embedded() {
    let f = textured();
    let glb = f.out.join("model.glb");
    let output = run(&[&f.source.join("model.ms3d"), &glb]);
    assert!(output.status.success(), "{output:?}");
    let bytes = std::fs::read(&glb).unwrap();
    let (json, bin) = glb_parts(&bytes);
    let gltf_images = json["images"].as_array().unwrap();
    assert_eq!(gltf_images.len(), 4, "{json:#}");
    let sources = images();
    let expected = [
        ("image/png", "skin.bmp"),
        ("image/png", "face.tga"),
        ("image/jpeg", "metal.jpg"),
        ("image/png", "wood.png"),
    ];
    for (i, (image, (mime, name))) in gltf_images.iter().zip(expected).enumerate() {
        assert_eq!(image["mimeType"], mime, "{image}");
        assert_eq!(image["name"], name, "{image}");
        assert!(image.get("uri").is_none(), "{image}");
        let data = embedded(&json, bin, image);
        match i {
            // BMP and TGA: re-encoded as PNG with the same pixels.
            0 | 1 => {
                let format = [ImageFormat::Bmp, ImageFormat::Tga][i];
                let source = image::load_from_memory_with_format(&sources[i], format).unwrap();
                let png = image::load_from_memory_with_format(data, ImageFormat::Png).unwrap();
                assert_eq!(png.to_rgba8(), source.to_rgba8(), "{name}");
            }
            // JPEG and PNG pass through byte for byte.
            _ => assert_eq!(data, sources[i].as_slice(), "{name}"),
        }
    }
    // Every material keeps its texture.
    for material in json["materials"].as_array().unwrap() {
        assert!(material["pbrMetallicRoughness"]["baseColorTexture"].is_object());
    }
    // Nothing was written beside the .glb.
    assert_eq!(std::fs::read_dir(&f.out).unwrap().count(), 1);
    assert_valid(&glb, 4);
}

#[test]
fn gltf_output_writes_its_images_beside_it_and_refuses_to_overwrite_them() {
    let f = textured();
    let gltf = f.out.join("model.gltf");
    let output = run(&[&f.source.join("model.ms3d"), &gltf]);
    assert!(output.status.success(), "{output:?}");
    let mut written: Vec<String> = std::fs::read_dir(&f.out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "model-face.png",
            "model-metal.jpg",
            "model-skin.png",
            "model-wood.png",
            "model.bin",
            "model.gltf"
        ]
    );
    let json: Value = serde_json::from_slice(&std::fs::read(&gltf).unwrap()).unwrap();
    let uris: Vec<&str> = json["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "model-skin.png",
            "model-face.png",
            "model-metal.jpg",
            "model-wood.png"
        ]
    );
    assert_eq!(
        std::fs::read(f.out.join("model-metal.jpg")).unwrap(),
        images()[2]
    );
    assert_valid(&gltf, 4);

    // A second run must not replace the companion images (or anything) without --force.
    std::fs::remove_file(&gltf).unwrap();
    std::fs::remove_file(f.out.join("model.bin")).unwrap();
    let again = run(&[&f.source.join("model.ms3d"), &gltf]);
    assert!(!again.status.success(), "{again:?}");
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("model-skin.png"),
        "{again:?}"
    );
}

#[test]
fn no_embed_textures_keeps_the_uris_as_stored() {
    let f = textured();
    let glb = f.out.join("model.glb");
    let output = run(&[
        &f.source.join("model.ms3d"),
        &glb,
        Path::new("--no-embed-textures"),
    ]);
    assert!(output.status.success(), "{output:?}");
    let bytes = std::fs::read(&glb).unwrap();
    let (json, _) = glb_parts(&bytes);
    let uris: Vec<&str> = json["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            assert!(i.get("bufferView").is_none(), "{i}");
            i["uri"].as_str().unwrap()
        })
        .collect();
    // As before embedding existed: relative paths with forward slashes, absolute ones cut to
    // their file name.
    assert_eq!(uris, ["skin.bmp", "Face.TGA", "./metal.jpg", "Wood.PNG"]);
}

#[test]
fn a_missing_texture_is_a_warning_naming_it_and_its_uri_is_kept() {
    let png = images().pop().unwrap();
    let f = fixture(&["gone.bmp", "wood.png"], &[], &[("wood.png", png)]);
    let glb = f.out.join("model.glb");
    let source = f.source.join("model.ms3d");
    let (output, report) = run_json(&[source.to_str().unwrap(), glb.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let missing: Vec<&Value> = report["report"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["code"] == "texture-missing")
        .collect();
    assert_eq!(missing.len(), 1, "{report:#}");
    assert_eq!(missing[0]["severity"], "warning");
    assert!(
        missing[0]["message"].as_str().unwrap().contains("gone.bmp"),
        "{report:#}"
    );
    let bytes = std::fs::read(&glb).unwrap();
    let (json, _) = glb_parts(&bytes);
    assert_eq!(json["images"][0]["uri"], "gone.bmp");
    assert_eq!(json["images"][1]["mimeType"], "image/png");
}

/// Double-sided materials in a converted file, and the double-sided warnings.
fn sidedness(input: &Path, out: &Path) -> (Vec<bool>, Vec<String>) {
    let (output, report) = run_json(&[input.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let warnings = report["report"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["code"] == "gltf-double-sided")
        .map(|n| n["message"].as_str().unwrap().to_owned())
        .collect();
    let bytes = std::fs::read(out).unwrap();
    let (json, _) = glb_parts(&bytes);
    let double = json["materials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["doubleSided"].as_bool().unwrap_or(false))
        .collect();
    (double, warnings)
}

#[test]
fn a_consistently_wound_model_stays_single_sided_an_inconsistent_mesh_does_not() {
    let f = fixture(&["a.png", "b.png"], &[false, true], &[]);
    let (double, warnings) = sidedness(&f.source.join("model.ms3d"), &f.out.join("m.glb"));
    assert_eq!(double, [false, true]);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("`mesh 1` 100 % (2/2)") && !warnings[0].contains("`mesh 0`"),
        "{warnings:?}"
    );

    let f = fixture(&["a.png", "b.png"], &[false, false], &[]);
    let (double, warnings) = sidedness(&f.source.join("model.ms3d"), &f.out.join("m.glb"));
    assert_eq!(double, [false, false]);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn bender_gets_a_double_sided_material_and_a_warning() {
    let Some(root) = rigport_test_support::corpus::corpus_root() else {
        return;
    };
    let bender = root.join("ms3d-ascii/scorched3d__none__tanks__bender__bender.txt");
    let out = tempfile::tempdir().unwrap();
    let (double, warnings) = sidedness(&bender, &out.path().join("bender.glb"));
    assert!(double.contains(&true), "{double:?}");
    assert!(!warnings.is_empty());
    // DESIGN: 32 % of bender's triangles face away from their stored normals.
    assert!(warnings.iter().any(|w| w.contains("32 %")), "{warnings:#?}");
}
