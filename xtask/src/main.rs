//! Project automation, run as `cargo xtask <command>` (alias in `.cargo/config.toml`).
//!
//! * `golden` — regenerate the fixtures made from code, the insta snapshots and the render
//!   goldens (PNGs). Pictures are compared by their decoded pixels: a PNG is rewritten only
//!   when its pixels or dimensions differ, so a run on any machine leaves `git status` clean
//!   when nothing changed.
//! * `golden --check` — fail if a generated fixture on disk differs from what the code makes
//!   (PNGs by pixels; snapshots are checked by every `cargo test` run under `CI=true`).
//! * `golden --fixtures-only` — rewrite the generated fixtures without running the tests.
//! * `bench-data` — write the large synthetic bench inputs into `bench-data/` (not committed).
//! * `blender-addon` — build the installable Blender add-on zip into `target/rigport_io.zip`.
//! * `blender-extension [--wheel PATH]...` — build the Blender 4.2+ extension zip, with the
//!   `rigport` wheels given (else this machine's, built with maturin), into
//!   `target/dist/rigport_io-<version>.zip`.
//! * `web` — build the web page (wasm + three.js) into `target/web/`, a static site.
//! * `dist [--target TRIPLE] [cli|wheel|sdist|web|blender]...` — build every artifact a release
//!   ships into `target/dist/` (see [`dist`]).
#![forbid(unsafe_code)]

mod bench_data;
mod blender_addon;
mod blender_extension;
mod dist;
mod fixtures;
#[cfg(test)]
mod metadata;
#[cfg(test)]
mod project_text;
mod versions;
mod web;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The workspace root, found from this crate's manifest directory (like rust-analyzer's xtask).
fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["golden"] => golden(Mode::Regenerate),
        ["golden", "--check"] => golden(Mode::Check),
        ["golden", "--fixtures-only"] => golden(Mode::FixturesOnly),
        ["bench-data"] => bench_data::run(),
        ["blender-addon"] => blender_addon::run(&project_root()),
        ["blender-extension", rest @ ..] => blender_extension::run(&project_root(), rest),
        ["web"] => web::run(&project_root()),
        ["dist", rest @ ..] => dist::run(&project_root(), rest),
        _ => {
            eprintln!(
                "usage: cargo xtask golden [--check | --fixtures-only] | bench-data | blender-addon | blender-extension [--wheel PATH]... | web | dist [--target TRIPLE] [STEP]..."
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// What `golden` does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Write fixtures, then accept every snapshot.
    Regenerate,
    /// Compare fixtures only; write nothing.
    Check,
    /// Write fixtures only.
    FixturesOnly,
}

/// Whether a generated file on disk holds what the code makes: the same decoded pixels for a
/// PNG (an encoder on another machine may compress the same picture to other bytes), the
/// same bytes for anything else.
fn same_content(path: &str, on_disk: &[u8], generated: &[u8]) -> bool {
    if path.to_ascii_lowercase().ends_with(".png") {
        rigport_test_support::png::same_pixels(on_disk, generated)
    } else {
        on_disk == generated
    }
}

/// Writes (or, with [`Mode::Check`], compares) every generated fixture, then regenerates
/// snapshots unless told not to.
fn golden(mode: Mode) -> Result<(), String> {
    let check = mode == Mode::Check;
    let root = project_root();
    let mut stale = Vec::new();
    for fixture in fixtures::all() {
        let path = root.join("fixtures").join(&fixture.path);
        let on_disk = std::fs::read(&path).ok();
        if on_disk
            .as_deref()
            .is_some_and(|old| same_content(&fixture.path, old, &fixture.bytes))
        {
            continue;
        }
        if check {
            stale.push(fixture.path.clone());
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&path, &fixture.bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote fixtures/{}", fixture.path);
    }
    if check {
        if stale.is_empty() {
            println!("generated fixtures are up to date");
            return Ok(());
        }
        return Err(format!(
            "stale generated fixtures (run `cargo xtask golden`): {}",
            stale.join(", ")
        ));
    }
    if mode == Mode::FixturesOnly {
        return Ok(());
    }
    // Accept every snapshot the test suite produces; review with `git diff` afterwards.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .current_dir(&root)
        .args(["test", "--workspace", "--no-fail-fast"])
        .env("INSTA_UPDATE", "always")
        .env("INSTA_FORCE_PASS", "1")
        // The render goldens (PNG pictures of the fixtures and the README's contact sheet).
        .env("RIGPORT_UPDATE_GOLDENS", "1")
        .env_remove("CI")
        .status()
        .map_err(|e| format!("cannot run cargo test: {e}"))?;
    if status.success() {
        println!("snapshots regenerated; review them with `git diff`");
        Ok(())
    } else {
        Err("cargo test failed while regenerating snapshots".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::same_content;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    use image::{ExtendedColorType, ImageEncoder, RgbaImage};

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
}
