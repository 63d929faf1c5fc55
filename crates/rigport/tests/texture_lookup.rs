//! The one texture lookup through the library's doors, over files in memory (what the web
//! page and the Python package hand over) as over a folder: glTF embedding and `info` find
//! the same images, and warn about the same missing ones (pictures: `rigport-dataset`'s
//! `tests/texture_lookup.rs`).

use rigport::Format;
use rigport::pipeline::{Beside, Settings, convert};
use rigport_model_core::codes;
use rigport_render::image;
use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::Path;

/// An IQE square with texture coordinates whose material (its texture, by IQE's convention)
/// is `material`.
/// A square standing upright in IQE's Z-up frame (in the XZ plane), facing the front view.
fn square(material: &str) -> Vec<u8> {
    format!(
        "# Inter-Quake Export\nmesh square\nmaterial \"{material}\"\n\
         vp -1 0 -1\nvt 0 1\nvp 1 0 -1\nvt 1 1\nvp 1 0 1\nvt 1 0\nvp -1 0 1\nvt 0 0\n\
         fm 0 1 2\nfm 0 2 3\n"
    )
    .into_bytes()
}

fn tga() -> Vec<u8> {
    let image = image::RgbaImage::from_fn(8, 8, |x, _| image::Rgba([x as u8 * 30, 200, 40, 255]));
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgba8(image)
        .write_to(&mut out, image::ImageFormat::Tga)
        .unwrap();
    out.into_inner()
}

fn glb_json(glb: &[u8]) -> serde_json::Value {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

#[test]
fn glb_export_finds_images_among_files_in_memory() {
    let files = BTreeMap::from([("body.TGA".to_owned(), tga())]);
    let settings = Settings {
        beside: Some(Beside::new(files)),
        ..Settings::default()
    };
    let out = convert(
        &square("C:/art/Body.jpg"),
        Path::new("o.glb"),
        Format::Glb,
        &settings,
    )
    .unwrap();
    let json = glb_json(&out.files[0].1);
    assert_eq!(json["images"][0]["name"], "body.TGA");
    assert_eq!(json["images"][0]["mimeType"], "image/png");
    assert_eq!(out.report.with_code(codes::TEXTURE_MISSING).count(), 0);

    // Nothing beside: the reference stays a URI and the warning names it.
    let empty = Settings {
        beside: Some(Beside::new(BTreeMap::new())),
        ..Settings::default()
    };
    for target in [Format::Glb, Format::Ms3d, Format::Iqm] {
        let output = Path::new("o").with_extension(target.extension());
        let out = convert(&square("C:/art/Body.jpg"), &output, target, &empty).unwrap();
        let missing: Vec<_> = out.report.with_code(codes::TEXTURE_MISSING).collect();
        assert_eq!(missing.len(), 1, "{target:?}: {:?}", out.report);
        assert!(
            missing[0].message.contains("C:/art/Body.jpg"),
            "{}",
            missing[0].message
        );
    }
}
