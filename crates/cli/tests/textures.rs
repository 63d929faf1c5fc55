//! Texture lookup on the command line: the one rule (base name, any case, then the same stem
//! with another image extension) finds the images `render`, `convert` and `info` use, and a
//! texture not found is a `texture-missing` warning naming it in each of them.

mod common;

use common::rigport;
use std::fmt::Write as _;
use std::path::Path;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn s(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// An IQE cube whose six faces each span the whole texture; its one material is `material`
/// (IQE keeps no texture field: the material string names the image).
fn textured_cube(material: &str) -> String {
    let mut iqe = format!("# Inter-Quake Export\nmesh cube\nmaterial \"{material}\"\n");
    // Each face: a fixed axis and sign, and the two axes it spans.
    let faces: [(usize, f32); 6] = [
        (0, 1.0),
        (0, -1.0),
        (1, 1.0),
        (1, -1.0),
        (2, 1.0),
        (2, -1.0),
    ];
    for (axis, sign) in faces {
        let (a, b) = ((axis + 1) % 3, (axis + 2) % 3);
        for (u, v) in [(0.0f32, 0.0f32), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)] {
            let mut p = [0.0f32; 3];
            p[axis] = sign;
            p[a] = u * 2.0 - 1.0;
            p[b] = v * 2.0 - 1.0;
            let mut n = [0.0f32; 3];
            n[axis] = sign;
            let _ = writeln!(iqe, "vp {} {} {}", p[0], p[1], p[2]);
            let _ = writeln!(iqe, "vn {} {} {}", n[0], n[1], n[2]);
            let _ = writeln!(iqe, "vt {u} {v}");
        }
    }
    for face in 0..6 {
        let o = face * 4;
        let _ = writeln!(iqe, "fm {} {} {}", o, o + 1, o + 2);
        let _ = writeln!(iqe, "fm {} {} {}", o, o + 2, o + 3);
    }
    iqe
}

/// A red and blue checkerboard, nothing like the grey a material without texture is drawn in.
fn checker() -> image::RgbaImage {
    image::RgbaImage::from_fn(16, 16, |x, y| {
        if (x / 4 + y / 4) % 2 == 0 {
            image::Rgba([230, 20, 20, 255])
        } else {
            image::Rgba([20, 20, 230, 255])
        }
    })
}

fn render(model: &Path, png: &Path) -> std::process::Output {
    rigport(&["render", &s(model), &s(png), "--size", "64x64"])
}

#[test]
fn render_draws_the_texture_beside_the_model_and_warns_when_it_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let with = dir.path().join("with");
    let alone = dir.path().join("alone");
    std::fs::create_dir_all(&with).unwrap();
    std::fs::create_dir_all(&alone).unwrap();
    // Named as an absolute Windows path to a JPEG; shipped as a PNG in another case.
    let cube = textured_cube(r"C:\art\Skin.jpg");
    std::fs::write(with.join("cube.iqe"), &cube).unwrap();
    std::fs::write(alone.join("cube.iqe"), &cube).unwrap();
    checker().save(with.join("skin.PNG")).unwrap();

    let textured = render(&with.join("cube.iqe"), &dir.path().join("textured.png"));
    assert_eq!(
        textured.status.code(),
        Some(0),
        "{}",
        text(&textured.stderr)
    );
    assert!(
        !text(&textured.stdout).contains("texture-"),
        "{}",
        text(&textured.stdout)
    );
    let plain = render(&alone.join("cube.iqe"), &dir.path().join("plain.png"));
    assert_eq!(plain.status.code(), Some(0), "{}", text(&plain.stderr));
    let said = text(&plain.stdout);
    assert!(
        said.contains("texture-missing") && said.contains(r"C:\art\Skin.jpg"),
        "{said}"
    );

    let a = image::open(dir.path().join("textured.png"))
        .unwrap()
        .to_rgba8();
    let b = image::open(dir.path().join("plain.png"))
        .unwrap()
        .to_rgba8();
    let differing = a
        .pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > 24))
        .count();
    let share = differing as f64 / (64.0 * 64.0);
    assert!(
        share >= 0.2,
        "only {:.1} % of the pixels differ",
        share * 100.0
    );
    // The textured picture shows both colours of the checkerboard.
    let dominant = |a: u8, b: u8| u16::from(a) > 2 * u16::from(b.max(20));
    let reddish = a.pixels().filter(|p| dominant(p.0[0], p.0[2])).count();
    let bluish = a.pixels().filter(|p| dominant(p.0[2], p.0[0])).count();
    assert!(reddish > 50 && bluish > 50, "red {reddish}, blue {bluish}");
}

#[test]
fn convert_embeds_an_image_of_another_type_and_warns_about_missing_ones() {
    let dir = tempfile::tempdir().unwrap();
    // `Body.jpg` named, `Body.tga` shipped (as the IQM SDK's sample model does).
    std::fs::write(dir.path().join("body.iqe"), textured_cube("Body.jpg")).unwrap();
    image::DynamicImage::ImageRgba8(checker())
        .save_with_format(dir.path().join("Body.tga"), image::ImageFormat::Tga)
        .unwrap();
    let glb = dir.path().join("body.glb");
    let run = rigport(&[
        "convert",
        &s(&dir.path().join("body.iqe")),
        &s(&glb),
        "--json",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert!(
        !report["report"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["code"] == "texture-missing"),
        "{report}"
    );
    let bytes = std::fs::read(&glb).unwrap();
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    assert_eq!(
        json["images"][0]["mimeType"], "image/png",
        "{}",
        json["images"]
    );
    assert_eq!(json["images"][0]["name"], "Body.tga");
    assert!(json["images"][0]["bufferView"].is_u64());

    // The same model alone: converted, with a warning naming the texture.
    let alone = tempfile::tempdir().unwrap();
    std::fs::write(alone.path().join("body.iqe"), textured_cube("Body.jpg")).unwrap();
    for target in ["glb", "ms3d"] {
        let out = alone.path().join(format!("body.{target}"));
        let run = rigport(&["convert", &s(&alone.path().join("body.iqe")), &s(&out)]);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        let said = text(&run.stdout);
        assert!(
            said.contains("texture-missing") && said.contains("Body.jpg"),
            "{target}: {said}"
        );
    }
}

#[test]
fn info_lists_textures_found_and_missing() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("body.iqe");
    std::fs::write(&model, textured_cube(r".\body.JPG")).unwrap();
    let run = rigport(&["info", "--json", &s(&model)]);
    assert_eq!(run.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(value["textures"]["found"], serde_json::json!([]));
    assert_eq!(
        value["textures"]["missing"],
        serde_json::json!([r".\body.JPG"])
    );
    assert_eq!(value["triangles"], 12, "every earlier field is kept");
    let text_run = rigport(&["info", &s(&model)]);
    let said = text(&text_run.stdout);
    assert!(said.contains("0 found, 1 missing"), "{said}");
    assert!(
        said.contains(r"warning: texture `.\body.JPG` not found"),
        "{said}"
    );

    checker().save(dir.path().join("Body.bmp")).unwrap();
    let run = rigport(&["info", "--json", &s(&model)]);
    let value: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(value["textures"]["found"], serde_json::json!(["Body.bmp"]));
    assert_eq!(value["textures"]["missing"], serde_json::json!([]));
    let verbose = text(&rigport(&["info", "-v", &s(&model)]).stdout);
    assert!(verbose.contains(r".\body.JPG -> Body.bmp"), "{verbose}");
}
