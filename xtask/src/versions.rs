//! One version for everything a release ships: the workspace's `[workspace.package] version`.
//!
//! Every crate takes it with `version.workspace = true` (so `rigport --version` and the Python
//! extension's `__version__` print it), maturin gives the wheel the Cargo version
//! (`dynamic = ["version"]` in `pyproject.toml`), and the Blender extension's manifest states
//! it. What has to repeat it — the `version = "…"` requirement beside each `path = …`
//! dependency, a manifest, CHANGELOG.md's newest release — is compared here, and the test
//! fails naming every place that disagrees.

use std::path::Path;

/// The Blender extension's manifest, wherever the add-on keeps it.
pub const BLENDER_MANIFESTS: [&str; 2] = [
    "integrations/blender/blender_manifest.toml",
    "integrations/blender/rigport_io/blender_manifest.toml",
];

/// The value of `key = "value"` in `[section]` of a TOML file (one-line strings only, which
/// is how every file here writes the keys read).
pub fn toml_string(text: &str, section: &str, key: &str) -> Option<String> {
    let mut current = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = name.trim().to_owned();
            continue;
        }
        if current != section {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if k.trim() == key {
            let v = v.trim();
            let v = v.split_once(" #").map_or(v, |(v, _)| v).trim();
            return v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .map(str::to_owned);
        }
    }
    None
}

/// The lines of `[section]`.
fn section_lines<'a>(text: &'a str, section: &str) -> Vec<&'a str> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            inside = trimmed[1..trimmed.len() - 1].trim() == section;
            continue;
        }
        if inside {
            out.push(trimmed);
        }
    }
    out
}

/// The workspace's members, from the root `Cargo.toml`'s `members = [...]`.
pub fn workspace_members(root_manifest: &str) -> Vec<String> {
    let mut members = Vec::new();
    let mut inside = false;
    for line in root_manifest.lines() {
        let line = line.trim();
        if line.starts_with("members") && line.contains('[') {
            inside = true;
            continue;
        }
        if inside {
            if line.starts_with(']') {
                break;
            }
            if let Some(name) = line.strip_prefix('"').and_then(|l| l.split('"').next()) {
                members.push(name.to_owned());
            }
        }
    }
    members
}

/// Where a member's manifest disagrees with `version`: its `[package] version` (unless it
/// takes the workspace's) and every `version = "…"` beside a `path = …` dependency.
pub fn manifest_disagreements(name: &str, text: &str, version: &str) -> Vec<String> {
    let mut out = Vec::new();
    let package = section_lines(text, "package");
    if !package.is_empty() {
        let inherits = package
            .iter()
            .any(|l| l.replace(' ', "") == "version.workspace=true");
        let own = toml_string(text, "package", "version");
        if !inherits && own.as_deref() != Some(version) {
            out.push(format!(
                "{name}: [package] version is {own:?}, not `version.workspace = true` or {version}"
            ));
        }
    }
    for (n, line) in text.lines().enumerate() {
        if !line.contains("path =") || line.trim_start().starts_with('#') {
            continue;
        }
        if let Some(rest) = line.split("version = \"").nth(1) {
            let stated = rest.split('"').next().unwrap_or_default();
            if stated != version {
                out.push(format!(
                    "{name}:{}: path dependency requires {stated}, the workspace is {version}",
                    n + 1
                ));
            }
        }
    }
    out
}

/// Where `pyproject.toml` disagrees: it must take the version from Cargo (`dynamic`) or
/// state `version` itself.
pub fn pyproject_disagreement(text: &str, version: &str) -> Option<String> {
    let dynamic = section_lines(text, "project")
        .iter()
        .any(|l| l.starts_with("dynamic") && l.contains("\"version\""));
    match toml_string(text, "project", "version") {
        Some(stated) if stated != version => Some(format!(
            "bindings/python/pyproject.toml: version {stated}, the workspace is {version}"
        )),
        Some(_) => None,
        None if dynamic => None,
        None => Some(
            "bindings/python/pyproject.toml: neither `version` nor `dynamic = [\"version\"]`"
                .to_owned(),
        ),
    }
}

/// The newest release named in a Keep a Changelog file (the first `## [x.y.z]` heading).
pub fn newest_changelog_release(text: &str) -> Option<&str> {
    text.lines()
        .filter_map(|l| l.strip_prefix("## ["))
        .filter_map(|l| l.split(']').next())
        .find(|name| !name.eq_ignore_ascii_case("unreleased"))
}

/// Every place in the checkout at `root` that disagrees with the workspace version.
pub fn disagreements(root: &Path) -> Result<(String, Vec<String>), String> {
    let read = |relative: &str| {
        std::fs::read_to_string(root.join(relative)).map_err(|e| format!("{relative}: {e}"))
    };
    let manifest = read("Cargo.toml")?;
    let version = toml_string(&manifest, "workspace.package", "version")
        .ok_or("Cargo.toml: no [workspace.package] version")?;
    let mut out = Vec::new();
    if version.split('.').count() != 3 || !version.split('.').all(|p| p.parse::<u64>().is_ok()) {
        out.push(format!(
            "Cargo.toml: workspace version {version} is not x.y.z"
        ));
    }
    out.extend(manifest_disagreements("Cargo.toml", &manifest, &version));
    let members = workspace_members(&manifest);
    if members.is_empty() {
        out.push("Cargo.toml: no workspace members found".to_owned());
    }
    for member in &members {
        let path = format!("{member}/Cargo.toml");
        out.extend(manifest_disagreements(&path, &read(&path)?, &version));
    }
    out.extend(pyproject_disagreement(
        &read("bindings/python/pyproject.toml")?,
        &version,
    ));
    for path in BLENDER_MANIFESTS {
        if root.join(path).is_file() {
            let stated = toml_string(&read(path)?, "", "version");
            if stated.as_deref() != Some(version.as_str()) {
                out.push(format!(
                    "{path}: version {stated:?}, the workspace is {version}"
                ));
            }
        }
    }
    let changelog = read("CHANGELOG.md")?;
    match newest_changelog_release(&changelog) {
        Some(newest) if newest == version => {}
        newest => out.push(format!(
            "CHANGELOG.md: newest release section is {newest:?}, the workspace is {version}"
        )),
    }
    Ok((version, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_version_is_the_workspace_version() {
        let (version, found) = disagreements(&crate::project_root()).unwrap();
        assert!(
            found.is_empty(),
            "versions disagree with the workspace's {version}:\n{}",
            found.join("\n")
        );
        // xtask itself takes the workspace version, so `dist` names files by it.
        assert_eq!(env!("CARGO_PKG_VERSION"), version);
    }

    #[test]
    fn disagreements_are_found() {
        let member = "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\n\
                      a = { path = \"../a\", version = \"0.1.0\" }\n\
                      b = { path = \"../b\", version = \"0.2.0\" }\n";
        let found = manifest_disagreements("x/Cargo.toml", member, "0.2.0");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("[package] version"));
        assert!(found[1].contains("x/Cargo.toml:6"));
        let inheriting = "[package]\nname = \"x\"\nversion.workspace = true\n";
        assert!(manifest_disagreements("x", inheriting, "0.2.0").is_empty());

        let stated = "[project]\nname = \"rigport\"\nversion = \"0.1.0\"\n";
        assert!(pyproject_disagreement(stated, "0.2.0").is_some());
        assert!(pyproject_disagreement(stated, "0.1.0").is_none());
        let neither = "[project]\nname = \"rigport\"\n";
        assert!(pyproject_disagreement(neither, "0.2.0").is_some());
        let dynamic = "[project]\nname = \"rigport\"\ndynamic = [\"version\"]\n";
        assert!(pyproject_disagreement(dynamic, "0.2.0").is_none());

        let manifest = "schema_version = \"1.0.0\"\nid = \"rigport_io\"\nversion = \"0.1.0\" # x\n";
        assert_eq!(
            toml_string(manifest, "", "version").as_deref(),
            Some("0.1.0")
        );
        assert_eq!(
            newest_changelog_release("# C\n## [Unreleased]\n## [0.2.0] - 2026\n## [0.1.0]\n"),
            Some("0.2.0")
        );
        assert_eq!(
            workspace_members("[workspace]\nmembers = [\n  \"a\",\n  # c\n  \"b/c\",\n]\n"),
            ["a", "b/c"]
        );
    }
}
