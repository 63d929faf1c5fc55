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

mod blender_addon;
mod blender_extension;
mod blender_formats;
mod dist;
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
        ["bench-data"] => generate(&["bench-data"]),
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

/// Runs test-support's `generate` binary (the generators live there, beside the fixture
/// builder and synthetic inputs the tests share), with `args`.
fn generate(args: &[&str]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .current_dir(project_root())
        .args(["run", "-q", "--locked", "-p", "rigport-test-support"])
        .args(["--features", "generate", "--bin", "generate", "--"])
        .args(args)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`generate {}` failed", args.join(" ")))
    }
}

/// Writes (or, with [`Mode::Check`], compares) every generated fixture, then regenerates
/// snapshots unless told not to.
fn golden(mode: Mode) -> Result<(), String> {
    if mode == Mode::Check {
        return generate(&["fixtures", "--check"]);
    }
    generate(&["fixtures"])?;
    if mode == Mode::FixturesOnly {
        return Ok(());
    }
    let root = project_root();
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
