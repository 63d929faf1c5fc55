//! Pictures find textures among files in memory (what the web page and the Python package
//! hand over) by the same rule as `info`, and warn about the same missing ones.

use rigport_dataset::picture::{PictureRequest, RenderOptions, View, render_png_with};
use rigport_model_core::codes;
use rigport_render::image;
use std::collections::BTreeMap;
use std::io::Cursor;

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

#[test]
fn pictures_and_info_use_the_same_rule() {
    let request = PictureRequest {
        options: RenderOptions {
            width: 32,
            height: 32,
            view: View::Front,
            ..RenderOptions::default()
        },
        ..PictureRequest::default()
    };
    let files = BTreeMap::from([("Body.tga".to_owned(), tga())]);
    let (with, report) = render_png_with(&square("Body.jpg"), None, &files, &request).unwrap();
    assert_eq!(
        report.with_code(codes::TEXTURE_MISSING).count(),
        0,
        "{report:?}"
    );
    let none = BTreeMap::new();
    let (without, report) = render_png_with(&square("Body.jpg"), None, &none, &request).unwrap();
    let missing: Vec<_> = report.with_code(codes::TEXTURE_MISSING).collect();
    assert_eq!(missing.len(), 1);
    assert!(missing[0].message.contains("Body.jpg"));
    assert_ne!(with, without, "the texture changes the picture");

    let options = rigport::ReadOptions::default();
    let info = rigport::info::inspect(&square("Body.jpg"), None, Some(&files), &options).unwrap();
    assert_eq!(
        info.textures.found,
        [("Body.jpg".to_owned(), "Body.tga".to_owned())]
    );
    let info = rigport::info::inspect(&square("Body.jpg"), None, Some(&none), &options).unwrap();
    assert_eq!(info.textures.missing, ["Body.jpg"]);
    assert!(info.summary.warnings.iter().any(|w| w.contains("Body.jpg")));
}
