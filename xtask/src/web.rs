//! `cargo xtask web`: the static site in `target/web/` (the page, the wasm module and its
//! JavaScript glue, three.js), which needs nothing but a static file server.
//!
//! Steps, each checked with a message saying what is missing and how to get it:
//! 1. the `wasm32-unknown-unknown` target (`rustup target add`);
//! 2. the `wasm-bindgen` CLI at the version of the `wasm-bindgen` crate in `Cargo.lock`,
//!    installed into `target/tools/` when neither it nor a matching one on `PATH` is there;
//! 3. `rigport-wasm` built for wasm32 (release), then `wasm-bindgen --target web`;
//! 4. three.js from the npm registry at the version `web/package-lock.json` pins (`npm ci`);
//! 5. the page (`web/*.html|css|js`) and the three.js modules it imports (found by following
//!    their relative imports) copied into `target/web/`, three.js's licence beside them.

use crate::dist::run_command;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The wasm target.
const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The three.js modules the page imports; whatever they import is copied too.
const THREE_ENTRIES: [&str; 4] = [
    "build/three.module.js",
    "examples/jsm/controls/OrbitControls.js",
    "examples/jsm/loaders/GLTFLoader.js",
    "examples/jsm/loaders/TGALoader.js",
];

/// Builds the site into `target/web/`.
pub fn run(root: &Path) -> Result<(), String> {
    let site = root.join("target/web");
    crate::dist::ensure_rust_target(WASM_TARGET).map_err(|e| {
        format!("{e}\nthe {WASM_TARGET} target is missing: install it with `rustup target add {WASM_TARGET}`")
    })?;
    let version = wasm_bindgen_version(root)?;
    let bindgen = ensure_wasm_bindgen(root, &version)?;
    let wasm = build_wasm(root)?;
    if site.exists() {
        std::fs::remove_dir_all(&site).map_err(|e| format!("{}: {e}", site.display()))?;
    }
    let pkg = site.join("pkg");
    run_command(
        Command::new(&bindgen)
            .args(["--target", "web", "--no-typescript", "--out-dir"])
            .arg(&pkg)
            .arg(&wasm),
        "wasm-bindgen",
    )?;
    let web = root.join("web");
    npm_ci(&web)?;
    copy_page(&web, &site)?;
    copy_three(&web.join("node_modules/three"), &site.join("vendor/three"))?;
    let size = folder_size(&site);
    println!(
        "site written to {} ({:.1} MiB); serve it with e.g. `python3 -m http.server -d {} 8000`",
        site.display(),
        size as f64 / (1 << 20) as f64,
        site.display()
    );
    Ok(())
}

/// The version of the `wasm-bindgen` crate in `Cargo.lock`.
fn wasm_bindgen_version(root: &Path) -> Result<String, String> {
    let lock_path = root.join("Cargo.lock");
    let lock =
        std::fs::read_to_string(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == r#"name = "wasm-bindgen""# {
            let version = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = \""))
                .and_then(|l| l.strip_suffix('"'));
            if let Some(version) = version {
                return Ok(version.to_owned());
            }
        }
    }
    Err(format!(
        "{} names no `wasm-bindgen` package (run `cargo check -p rigport-wasm` once)",
        lock_path.display()
    ))
}

/// What `wasm-bindgen --version` says, if the program runs.
fn bindgen_version(program: &Path) -> Option<String> {
    let output = Command::new(program).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    Some(text.split_whitespace().nth(1)?.to_owned())
}

/// The `wasm-bindgen` CLI at `version`: `target/tools/bin/wasm-bindgen`, else one on `PATH`,
/// else installed into `target/tools` with `cargo install`.
fn ensure_wasm_bindgen(root: &Path, version: &str) -> Result<PathBuf, String> {
    let tools = root.join("target/tools");
    let local = tools.join("bin/wasm-bindgen");
    for candidate in [local.clone(), PathBuf::from("wasm-bindgen")] {
        if bindgen_version(&candidate).as_deref() == Some(version) {
            return Ok(candidate);
        }
    }
    println!(
        "installing wasm-bindgen-cli {version} into {} (matches the wasm-bindgen crate in Cargo.lock; takes a few minutes once)",
        tools.display()
    );
    let install = |locked: bool| {
        let mut command = Command::new(env_or("CARGO", "cargo"));
        command.args([
            "install",
            "wasm-bindgen-cli",
            "--version",
            version,
            "--root",
        ]);
        command.arg(&tools);
        // Unoptimized: it builds in about 100 s instead of 170 s on two cores, and binds
        // the page's module in 2 s instead of 1.4 s, to the same bytes.
        command.arg("--debug");
        if locked {
            command.arg("--locked");
        }
        // Its own build folder: the CLI's dependencies are not the workspace's.
        command.env("CARGO_TARGET_DIR", tools.join("build"));
        run_command(&mut command, "cargo install wasm-bindgen-cli")
    };
    // `--locked` first, as the CLI's authors built it; its lock file can pin a dependency
    // release the registry no longer offers, and then the newest compatible ones are used.
    if let Err(first) = install(true) {
        println!("{first}; retrying without --locked");
        install(false).map_err(|e| {
            format!(
                "{e}\nthe wasm-bindgen CLI {version} is missing: install it with \
                 `cargo install wasm-bindgen-cli --version {version} --root {}`",
                tools.display()
            )
        })?;
    }
    match bindgen_version(&local) {
        Some(found) if found == version => Ok(local),
        found => Err(format!(
            "{} reports version {found:?}, not {version}",
            local.display()
        )),
    }
}

/// Builds `rigport-wasm` for wasm32 in release and returns the `.wasm` file.
fn build_wasm(root: &Path) -> Result<PathBuf, String> {
    run_command(
        Command::new(env_or("CARGO", "cargo"))
            .current_dir(root)
            .args([
                "build",
                "-p",
                "rigport-wasm",
                "--release",
                "--target",
                WASM_TARGET,
            ])
            // 128-bit SIMD (every current browser has it): glam then computes quaternion and
            // matrix products in the same lane order as its SSE2 code on x86-64, so the
            // page's outputs are the bytes the native CLI writes. The scalar code rounds
            // some quaternion products differently in the last bit.
            .env(
                "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
                "-C target-feature=+simd128",
            )
            // ufbx (FBX) is C: clang compiles it for wasm32 without a C library, whose
            // functions rigport-fbx defines (`wasm_libc`).
            .env("CC_wasm32_unknown_unknown", "clang")
            .env("CFLAGS_wasm32_unknown_unknown", "-DUFBX_NO_LIBC"),
        "cargo build -p rigport-wasm",
    )?;
    let target_dir = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    };
    let wasm = target_dir
        .join(WASM_TARGET)
        .join("release/rigport_wasm.wasm");
    match wasm.is_file() {
        true => Ok(wasm),
        false => Err(format!("{} was not built", wasm.display())),
    }
}

/// Installs the pinned three.js with `npm ci` unless `node_modules` already holds that
/// version.
fn npm_ci(web: &Path) -> Result<(), String> {
    let lock_path = web.join("package-lock.json");
    let lock =
        std::fs::read_to_string(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    let installed =
        std::fs::read_to_string(web.join("node_modules/three/package.json")).unwrap_or_default();
    let wanted = lock
        .split("\"node_modules/three\"")
        .nth(1)
        .and_then(|rest| rest.split("\"version\": \"").nth(1))
        .and_then(|rest| rest.split('"').next())
        .ok_or_else(|| format!("{} pins no three.js version", lock_path.display()))?;
    if installed.contains(&format!("\"version\": \"{wanted}\"")) {
        return Ok(());
    }
    println!("installing three.js {wanted}: npm ci in {}", web.display());
    run_command(
        Command::new("npm")
            .current_dir(web)
            .args(["ci", "--no-audit", "--no-fund"]),
        "npm ci",
    )
    .map_err(|e| format!("{e}\nthree.js comes from the npm registry: install Node.js and npm"))
}

/// Copies the page's own files (HTML, CSS, JavaScript, icons) into the site.
fn copy_page(web: &Path, site: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(web).map_err(|e| format!("{}: {e}", web.display()))?;
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let keep = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "html" | "css" | "js" | "svg"));
        if keep && path.is_file() {
            copy(&path, &site.join(entry.file_name()))?;
        }
    }
    Ok(())
}

/// Copies the three.js modules the page imports, and everything they import by relative
/// path, keeping the package's layout; and its licence.
fn copy_three(package: &Path, to: &Path) -> Result<(), String> {
    let mut queue: Vec<PathBuf> = THREE_ENTRIES.iter().map(PathBuf::from).collect();
    let mut done = std::collections::BTreeSet::new();
    while let Some(relative) = queue.pop() {
        if !done.insert(relative.clone()) {
            continue;
        }
        let source = package.join(&relative);
        let text = std::fs::read_to_string(&source)
            .map_err(|e| format!("{}: {e} (run `npm ci` in web/)", source.display()))?;
        for import in relative_imports(&text) {
            let joined = relative.parent().unwrap_or(Path::new("")).join(import);
            queue.push(normalize(&joined));
        }
        copy(&source, &to.join(&relative))?;
    }
    copy(&package.join("LICENSE"), &to.join("LICENSE"))
}

/// The relative module paths (`./x.js`, `../y/z.js`) a JavaScript module imports.
fn relative_imports(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for quote in ['\'', '"'] {
        for marker in [format!("from {quote}"), format!("import {quote}")] {
            for (at, _) in text.match_indices(&marker) {
                let rest = &text[at + marker.len()..];
                let Some(end) = rest.find(quote) else {
                    continue;
                };
                let path = &rest[..end];
                if path.starts_with("./") || path.starts_with("../") {
                    found.push(path);
                }
            }
        }
    }
    found
}

/// `a/b/../c` → `a/c`, `./x` → `x`.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::copy(from, to)
        .map(drop)
        .map_err(|e| format!("{} -> {}: {e}", from.display(), to.display()))
}

/// Total size of the files under `dir`.
fn folder_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| {
                    let path = e.path();
                    match path.is_dir() {
                        true => folder_size(&path),
                        false => e.metadata().map_or(0, |m| m.len()),
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}

/// An environment variable's value, or `default`.
fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_imports_are_followed_and_bare_ones_left() {
        let text = "import {\n a } from 'three';\nimport { b } from '../utils/B.js';\nexport * from \"./three.core.js\";\nimport './side.js';";
        let mut found = relative_imports(text);
        found.sort();
        assert_eq!(found, ["../utils/B.js", "./side.js", "./three.core.js"]);
        assert_eq!(
            normalize(Path::new("examples/jsm/loaders/../utils/B.js")),
            PathBuf::from("examples/jsm/utils/B.js")
        );
    }
}
