//! The Python package, through maturin (`bindings/python/pyproject.toml`):
//! * the wheel `rigport-<version>-cp39-abi3-manylinux_2_17_<arch>.manylinux2014_<arch>.whl`:
//!   one wheel for every CPython from 3.9 (pyo3's abi3), linked by zig against glibc 2.17's
//!   symbols (`maturin build --zig --compatibility manylinux2014`), so it needs neither a
//!   manylinux Docker image nor a Rust toolchain where it is installed;
//! * the sdist `rigport-<version>.tar.gz`: `maturin sdist` takes `pyproject.toml`, the
//!   workspace's `Cargo.toml` and `Cargo.lock`, and every path crate the extension depends
//!   on, so `pip install` builds it on a machine with Rust.
//!
//! Both carry `THIRD-PARTY-NOTICES.md`, copied into the package's folder first.
//!
//! maturin is `$MATURIN`, else `maturin` on `PATH`, else `python -m maturin`; with `--zig`
//! it finds zig on `PATH` or the `ziglang` package (`pip install maturin ziglang`).

use super::{Context, Made, PROFILE};
use std::process::Command;

/// `bindings/python/Cargo.toml`, the extension's manifest.
const MANIFEST: &str = "bindings/python/Cargo.toml";

/// A command running maturin.
fn maturin() -> Command {
    if let Some(maturin) = std::env::var_os("MATURIN") {
        return Command::new(maturin);
    }
    let on_path = Command::new("maturin")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if on_path {
        return Command::new("maturin");
    }
    let mut command = super::python();
    command.args(["-m", "maturin"]);
    command
}

/// The third-party notices (`THIRD-PARTY-NOTICES.md`, ufbx's licence among them), which the
/// wheel and the sdist carry in the package's folder.
pub const NOTICES: &str = "THIRD-PARTY-NOTICES.md";

/// The notices copied into the Python package's folder while it lives, removed after (not
/// git-ignored: maturin leaves git-ignored files out of a wheel).
struct Notices(std::path::PathBuf);

impl Notices {
    fn copy(cx: &Context) -> Result<Notices, String> {
        let to = cx.root.join("bindings/python/python/rigport").join(NOTICES);
        std::fs::copy(cx.root.join(NOTICES), &to)
            .map(|_| Notices(to.clone()))
            .map_err(|e| format!("{}: {e}", to.display()))
    }
}

impl Drop for Notices {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Builds the wheel for this machine: manylinux2014 through zig on Linux, the platform's
/// own wheel elsewhere.
pub fn wheel(cx: &Context, made: &mut Made) -> Result<(), String> {
    let _notices = Notices::copy(cx)?;
    let scratch = super::scratch(cx, "wheel-build")?;
    let mut command = maturin();
    command
        .current_dir(&cx.root)
        .args(["build", "--locked", "--profile", PROFILE, "-m", MANIFEST])
        .arg("--out")
        .arg(&scratch);
    if cfg!(target_os = "linux") {
        command.args(["--zig", "--compatibility", "manylinux2014"]);
    }
    super::run_command(&mut command, "maturin build").map_err(|e| {
        format!("{e}\nthe wheel needs maturin and, on Linux, zig: `pip install maturin ziglang`")
    })?;
    let wheel = super::take_one(cx, &scratch, ".whl")?;
    let name = wheel.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!("rigport-{}-cp39-abi3-", cx.version);
    if !name.starts_with(&prefix) {
        return Err(format!(
            "{name}: not an abi3 wheel of rigport {}",
            cx.version
        ));
    }
    made.push(wheel);
    Ok(())
}

/// Builds the source distribution.
pub fn sdist(cx: &Context, made: &mut Made) -> Result<(), String> {
    let _notices = Notices::copy(cx)?;
    let scratch = super::scratch(cx, "sdist-build")?;
    let mut command = maturin();
    command
        .current_dir(&cx.root)
        .args(["sdist", "-m", MANIFEST])
        .arg("--out")
        .arg(&scratch);
    super::run_command(&mut command, "maturin sdist")
        .map_err(|e| format!("{e}\nthe sdist needs maturin: `pip install maturin`"))?;
    let sdist = super::take_one(cx, &scratch, ".tar.gz")?;
    let expected = format!("rigport-{}.tar.gz", cx.version);
    if sdist.file_name().is_none_or(|n| n != expected.as_str()) {
        return Err(format!("{}: expected {expected}", sdist.display()));
    }
    made.push(sdist);
    Ok(())
}
