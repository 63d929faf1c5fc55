//! The files the project makes from code (feature `generate`), written by the `generate`
//! binary that `cargo xtask golden` and `cargo xtask bench-data` run:
//!
//! * [`all`]: the fixtures under `fixtures/`, per format. Each generator writes the bytes by
//!   hand (not through the crate under test) so that reader tests are not circular;
//! * [`write_fixtures`]: writes them, or checks the ones on disk, by [`same_content`];
//! * [`bench_data`]: the large synthetic bench inputs under `bench-data/`.

pub mod bench_data;
pub mod ms3d;

use std::path::Path;

/// One generated file, relative to `fixtures/`.
pub struct Fixture {
    /// Path below `fixtures/`, with forward slashes.
    pub path: String,
    /// Exact file content.
    pub bytes: Vec<u8>,
}

/// Every generated fixture of every format.
pub fn all() -> Vec<Fixture> {
    let mut out = Vec::new();
    out.extend(ms3d::fixtures());
    // glTF: built by test-support's fixture builder (JSON + buffers, no rigport-gltf code),
    // which the tests also use to make variations in memory.
    out.extend(crate::gltf::fixtures::all().into_iter().map(|f| Fixture {
        path: format!("gltf/{}", f.name),
        bytes: f.bytes,
    }));
    out
}

/// Whether a generated file on disk holds what the code makes: the same decoded pixels for a
/// PNG (an encoder on another machine may compress the same picture to other bytes), the
/// same bytes for anything else.
pub fn same_content(path: &str, on_disk: &[u8], generated: &[u8]) -> bool {
    if path.to_ascii_lowercase().ends_with(".png") {
        crate::png::same_pixels(on_disk, generated)
    } else {
        on_disk == generated
    }
}

/// Writes every generated fixture below `fixtures`, leaving alone the files that already hold
/// the same content; with `check`, writes nothing and fails naming the stale ones.
pub fn write_fixtures(fixtures: &Path, check: bool) -> Result<(), String> {
    let mut stale = Vec::new();
    for fixture in all() {
        let path = fixtures.join(&fixture.path);
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
    if !check {
        return Ok(());
    }
    if stale.is_empty() {
        println!("generated fixtures are up to date");
        return Ok(());
    }
    Err(format!(
        "stale generated fixtures (run `cargo xtask golden`): {}",
        stale.join(", ")
    ))
}
