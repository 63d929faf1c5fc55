//! `cargo xtask blender-extension [--wheel PATH]...`: the Blender extension zip,
//! `target/dist/rigport_io-<version>.zip`.
//!
//! A Blender 4.2+ extension is a zip with `blender_manifest.toml` at its top, the add-on's
//! Python files beside it and the Python wheels it bundles under `wheels/`; the manifest
//! lists those wheels (`wheels = ["./wheels/…whl"]`) and Blender installs the one made for
//! the machine it runs on. The zip takes `integrations/blender/rigport_io/` (its `.py`
//! files and the manifest, whose `wheels = []` line is replaced by the wheels given), the
//! add-on README, both licence texts and the third-party notices. Without `--wheel`, the `rigport` wheel for this
//! machine is built with `maturin build --release` into `target/dist/wheels/`. Every wheel
//! must be a `rigport` wheel of the workspace's version. The archive is written by Python's
//! `zipfile`, as the legacy add-on's zip is.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The extension's id in its manifest, and the zip's name before the version.
pub const ID: &str = "rigport_io";

/// The manifest line the builder replaces with the bundled wheels.
const WHEELS_PLACEHOLDER: &str = "wheels = []";

/// The Python that writes the archive: `python3 - ZIP MANIFEST_TEXT (SOURCE NAME)...`.
/// Writes a zip: `argv[1]` the zip, `argv[2]` the manifest's text (none when empty), then
/// pairs of a file and its name in the zip.
const WRITE_ZIP: &str = r"
import sys, zipfile
zip_path, manifest = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
with zipfile.ZipFile(zip_path, 'w', zipfile.ZIP_DEFLATED) as z:
    if manifest:
        z.writestr('blender_manifest.toml', manifest)
    for src, name in zip(args[0::2], args[1::2]):
        z.write(src, name)
";

/// Writes `zip` (with python3's `zipfile`): `blender_manifest.toml` holding `manifest`
/// unless it is empty, then each file of `entries` under its name.
pub(crate) fn write_zip(
    zip: &Path,
    manifest: &str,
    entries: &[(PathBuf, String)],
) -> Result<(), String> {
    let mut command = Command::new("python3");
    command.arg("-c").arg(WRITE_ZIP).arg(zip).arg(manifest);
    for (source, name) in entries {
        command.arg(source).arg(name);
    }
    let status = command
        .status()
        .map_err(|e| format!("cannot run python3 (needed to write the zip): {e}"))?;
    if !status.success() {
        return Err(format!(
            "python3 could not write {}: {status}",
            zip.display()
        ));
    }
    Ok(())
}

/// Runs the subcommand: `args` are what follows `blender-extension`.
pub fn run(root: &Path, args: &[&str]) -> Result<(), String> {
    let mut wheels = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match *arg {
            "--wheel" => {
                let path = rest.next().ok_or("--wheel needs a path")?;
                wheels.push(PathBuf::from(path));
            }
            other => return Err(format!("unknown argument {other:?} (use --wheel PATH)")),
        }
    }
    let zip = build(root, &wheels)?;
    println!("wrote {}", zip.display());
    Ok(())
}

/// Builds `target/dist/rigport_io-<version>.zip` with `wheels` (built here when empty);
/// returns its path. `cargo xtask dist` calls this with the wheel it built.
pub fn build(root: &Path, wheels: &[PathBuf]) -> Result<PathBuf, String> {
    let version = workspace_version(root)?;
    let dist = root.join("target/dist");
    std::fs::create_dir_all(&dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    let wheels = if wheels.is_empty() {
        vec![build_wheel(root, &dist.join("wheels"), &version)?]
    } else {
        wheels.to_vec()
    };
    let mut wheel_names = Vec::new();
    for wheel in &wheels {
        let name = wheel
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| format!("{}: not a file name", wheel.display()))?;
        check_wheel_name(name, &version)?;
        if !wheel.is_file() {
            return Err(format!("{} is missing", wheel.display()));
        }
        wheel_names.push(name.to_owned());
    }
    let addon = root.join("integrations/blender");
    let package = addon.join(ID);
    let manifest = std::fs::read_to_string(package.join("blender_manifest.toml"))
        .map_err(|e| format!("{}/blender_manifest.toml: {e}", package.display()))?;
    let manifest = manifest_with_wheels(&manifest, &wheel_names, &version)?;
    let mut entries = python_files(&package, "")?;
    entries.push((addon.join("README.md"), "README.md".to_owned()));
    entries.push((
        crate::blender_formats::write(root)?,
        crate::blender_formats::NAME.to_owned(),
    ));
    for licence in ["LICENSE-MIT", "LICENSE-APACHE", "THIRD-PARTY-NOTICES.md"] {
        entries.push((root.join(licence), licence.to_owned()));
    }
    for (wheel, name) in wheels.iter().zip(&wheel_names) {
        entries.push((wheel.clone(), format!("wheels/{name}")));
    }
    for (source, _) in &entries {
        if !source.is_file() {
            return Err(format!("{} is missing", source.display()));
        }
    }
    let zip = dist.join(format!("{ID}-{version}.zip"));
    write_zip(&zip, &manifest, &entries)?;
    Ok(zip)
}

/// The workspace's `[workspace.package] version`.
pub fn workspace_version(root: &Path) -> Result<String, String> {
    let path = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[workspace.package]";
            continue;
        }
        if let Some(value) = line.strip_prefix("version").map(str::trim)
            && inside
            && let Some(value) = value.strip_prefix('=')
        {
            return Ok(value.trim().trim_matches('"').to_owned());
        }
    }
    Err(format!(
        "no [workspace.package] version in {}",
        path.display()
    ))
}

/// The manifest with its `wheels = []` line listing `wheels` (under `./wheels/`); its
/// `version` must be `version`.
pub fn manifest_with_wheels(
    manifest: &str,
    wheels: &[String],
    version: &str,
) -> Result<String, String> {
    let stated = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("version = "))
        .map(|v| v.trim_matches('"'));
    if stated != Some(version) {
        return Err(format!(
            "blender_manifest.toml states version {stated:?}, the workspace is {version}"
        ));
    }
    if !manifest.lines().any(|l| l.trim() == WHEELS_PLACEHOLDER) {
        return Err(format!(
            "blender_manifest.toml has no `{WHEELS_PLACEHOLDER}` line"
        ));
    }
    let list: Vec<String> = wheels.iter().map(|w| format!("\"./wheels/{w}\"")).collect();
    let line = format!("wheels = [{}]", list.join(", "));
    Ok(manifest
        .lines()
        .map(|l| {
            if l.trim() == WHEELS_PLACEHOLDER {
                line.as_str()
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n")
}

/// Refuses a wheel that is not the `rigport` package at `version`
/// (`rigport-<version>-<tags>.whl`).
pub fn check_wheel_name(name: &str, version: &str) -> Result<(), String> {
    let prefix = format!("rigport-{version}-");
    if name.starts_with(&prefix) && name.ends_with(".whl") {
        Ok(())
    } else {
        Err(format!(
            "{name} is not a rigport {version} wheel (rigport-{version}-….whl)"
        ))
    }
}

/// Builds this machine's wheel with maturin into `out`; returns its path.
fn build_wheel(root: &Path, out: &Path, version: &str) -> Result<PathBuf, String> {
    let status = Command::new("maturin")
        .args(["build", "--release", "-m"])
        .arg(root.join("bindings/python/Cargo.toml"))
        .arg("--out")
        .arg(out)
        .status()
        .map_err(|e| format!("cannot run maturin (pip install maturin, or pass --wheel): {e}"))?;
    if !status.success() {
        return Err(format!("maturin failed: {status}"));
    }
    let prefix = format!("rigport-{version}-");
    let listing = std::fs::read_dir(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut built: Vec<(std::time::SystemTime, PathBuf)> = listing
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".whl"))
        })
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .collect();
    built.sort();
    built.pop().map(|(_, p)| p).ok_or_else(|| {
        format!(
            "maturin wrote no rigport {version} wheel into {}",
            out.display()
        )
    })
}

/// The package's `.py` files (no caches), sorted, each with its name in the zip: `folder`
/// (empty, or ending in `/`) and its file name.
pub(crate) fn python_files(package: &Path, folder: &str) -> Result<Vec<(PathBuf, String)>, String> {
    let listing = std::fs::read_dir(package).map_err(|e| format!("{}: {e}", package.display()))?;
    let mut files = Vec::new();
    for entry in listing {
        let path = entry
            .map_err(|e| format!("{}: {e}", package.display()))?
            .path();
        if path.is_file() && path.extension().is_some_and(|ext| ext == "py") {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .ok_or_else(|| format!("{}: file name is not UTF-8", path.display()))?;
            files.push((path.clone(), format!("{folder}{name}")));
        }
    }
    if files.is_empty() {
        return Err(format!("no .py files in {}", package.display()));
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str =
        "id = \"rigport_io\"\nversion = \"1.2.3\"\nwheels = []\n\n[permissions]\nfiles = \"x\"\n";

    #[test]
    fn the_wheels_line_lists_every_wheel() {
        let wheels = vec![
            "rigport-1.2.3-cp39-abi3-manylinux_2_17_x86_64.whl".to_owned(),
            "rigport-1.2.3-cp39-abi3-win_amd64.whl".to_owned(),
        ];
        let text = manifest_with_wheels(MANIFEST, &wheels, "1.2.3").unwrap();
        assert!(text.contains(
            "wheels = [\"./wheels/rigport-1.2.3-cp39-abi3-manylinux_2_17_x86_64.whl\", \"./wheels/rigport-1.2.3-cp39-abi3-win_amd64.whl\"]\n"
        ));
        assert!(!text.contains("wheels = []"));
        assert!(text.ends_with("files = \"x\"\n"));
    }

    #[test]
    fn a_manifest_of_another_version_or_without_the_line_is_refused() {
        assert!(manifest_with_wheels(MANIFEST, &[], "1.2.4").is_err());
        let without = MANIFEST.replace("wheels = []\n", "");
        assert!(manifest_with_wheels(&without, &[], "1.2.3").is_err());
    }

    #[test]
    fn only_rigport_wheels_of_the_version_are_taken() {
        assert!(check_wheel_name("rigport-1.2.3-cp39-abi3-win_amd64.whl", "1.2.3").is_ok());
        assert!(check_wheel_name("rigport-1.2.2-cp39-abi3-win_amd64.whl", "1.2.3").is_err());
        assert!(check_wheel_name("numpy-1.2.3-cp39-abi3-win_amd64.whl", "1.2.3").is_err());
        assert!(check_wheel_name("rigport-1.2.3.tar.gz", "1.2.3").is_err());
    }

    #[test]
    fn the_source_manifest_states_the_workspace_version() {
        let root = crate::project_root();
        let version = workspace_version(&root).unwrap();
        let manifest = std::fs::read_to_string(
            root.join("integrations/blender/rigport_io/blender_manifest.toml"),
        )
        .unwrap();
        manifest_with_wheels(&manifest, &[], &version).unwrap();
        assert!(manifest.contains(&format!("id = \"{ID}\"")));
    }
}
