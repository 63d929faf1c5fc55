//! Generated files are compared as their readers see them: pictures by decoded pixels, the
//! rest by bytes.

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder, RgbaImage};
use rigport_test_support::generated::same_content;

fn png(image: &RgbaImage, compression: CompressionType) -> Vec<u8> {
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, compression, FilterType::Adaptive)
        .write_image(
            image,
            image.width(),
            image.height(),
            ExtendedColorType::Rgba8,
        )
        .unwrap();
    out
}

#[test]
fn pictures_compare_by_pixels_and_other_files_by_bytes() {
    let picture = RgbaImage::from_fn(64, 64, |x, y| image::Rgba([x as u8, y as u8, 9, 255]));
    let (fast, best) = (
        png(&picture, CompressionType::Fast),
        png(&picture, CompressionType::Best),
    );
    assert_ne!(
        fast, best,
        "the two encodings must differ for this test to mean anything"
    );
    assert!(same_content("gltf/texture.png", &fast, &best));
    assert!(same_content("gltf/TEXTURE.PNG", &fast, &best));
    // Other bytes under another name are other content.
    assert!(!same_content("gltf/texture.bin", &fast, &best));
    let mut moved = picture.clone();
    moved.put_pixel(10, 10, image::Rgba([0, 0, 0, 255]));
    assert!(!same_content(
        "a.png",
        &fast,
        &png(&moved, CompressionType::Fast)
    ));
    let smaller = RgbaImage::from_fn(64, 32, |x, y| image::Rgba([x as u8, y as u8, 9, 255]));
    assert!(!same_content(
        "a.png",
        &fast,
        &png(&smaller, CompressionType::Fast)
    ));
}
