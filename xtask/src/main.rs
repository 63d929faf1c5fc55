//! Project automation, run as `cargo xtask <command>` (alias in `.cargo/config.toml`).
//!
//! * `golden` — regenerate the fixtures made from code, the insta snapshots and the render
//!   goldens (PNGs).
//! * `golden --check` — fail if a generated fixture on disk differs from what the code makes
//!   (snapshots are checked by every `cargo test` run under `CI=true`).
//! * `golden --fixtures-only` — rewrite the generated fixtures without running the tests.
//! * `bench-data` — write the large synthetic bench inputs into `bench-data/` (not committed).
//! * `blender-addon` — build the installable Blender add-on zip into `target/rigport_io.zip`.
//! * `web` — build the web page (wasm + three.js) into `target/web/`, a static site.
#![forbid(unsafe_code)]

mod bench_data;
mod blender_addon;
mod fixtures;
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
        ["web"] => web::run(&project_root()),
        _ => {
            eprintln!(
                "usage: cargo xtask golden [--check | --fixtures-only] | bench-data | blender-addon | web"
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

/// Writes (or, with [`Mode::Check`], compares) every generated fixture, then regenerates
/// snapshots unless told not to.
fn golden(mode: Mode) -> Result<(), String> {
    let check = mode == Mode::Check;
    let root = project_root();
    let mut stale = Vec::new();
    for fixture in fixtures::all() {
        let path = root.join("fixtures").join(&fixture.path);
        let on_disk = std::fs::read(&path).ok();
        if on_disk.as_deref() == Some(fixture.bytes.as_slice()) {
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
