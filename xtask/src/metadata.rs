//! What the registries show about rigport: every crate published to crates.io has the
//! metadata crates.io lists it by, the dev-only crates are never published, and the
//! descriptions that list formats (the facade's, the command's, the Python package's) name
//! every format rigport reads.

use crate::versions::{toml_string, workspace_members};
use std::path::Path;

/// Crates that only the workspace uses: never published.
const DEV_ONLY: [&str; 5] = [
    "rigport-test-support",
    "rigport-sweep",
    "xtask",
    "rigport-wasm",
    "rigport-python",
];

/// crates.io's category slugs a rigport crate may use.
const CATEGORIES: [&str; 8] = [
    "parser-implementations",
    "graphics",
    "game-development",
    "multimedia::images",
    "multimedia",
    "rendering",
    "rendering::data-formats",
    "command-line-utilities",
];

/// Every format rigport reads, as (what to call it in a message, names that may stand for it
/// in a description: any one of them is enough).
const READABLE: [(&str, &[&str]); 10] = [
    (
        "MilkShape 3D binary",
        &["MilkShape 3D binary", "MilkShape 3D (binary"],
    ),
    ("MilkShape 3D ASCII", &["ASCII"]),
    ("IQE", &["IQE", "Inter-Quake Export"]),
    (
        "IQM",
        &["IQM", "Inter-Quake Export and Model", "Inter-Quake Model"],
    ),
    ("MD5", &["MD5"]),
    ("SMD", &["SMD"]),
    ("PSK/PSA", &["PSK"]),
    ("B3D", &["B3D"]),
    ("glTF", &["glTF"]),
    ("MilkShape", &["MilkShape"]),
];

/// The readable formats a description leaves out.
fn formats_missing(description: &str) -> Vec<&'static str> {
    READABLE
        .iter()
        .filter(|(_, names)| !names.iter().any(|n| description.contains(n)))
        .map(|(format, _)| *format)
        .collect()
}

/// The strings of a one-line `key = ["a", "b"]` array in `[section]`.
fn toml_list(text: &str, section: &str, key: &str) -> Option<Vec<String>> {
    let mut current = "";
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') && line.ends_with(']') {
            current = &line[1..line.len() - 1];
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if current == section && k.trim() == key {
            let inner = v.trim().strip_prefix('[')?.strip_suffix(']')?;
            return Some(
                inner
                    .split(',')
                    .map(|s| s.trim().trim_matches('"').to_owned())
                    .filter(|s| !s.is_empty())
                    .collect(),
            );
        }
    }
    None
}

/// Whether `[package]` says `key.workspace = true` or gives `key` itself.
fn has_field(text: &str, key: &str) -> bool {
    let inherited = format!("{key}.workspace=true");
    toml_string(text, "package", key).is_some_and(|v| !v.is_empty())
        || text.lines().any(|l| l.replace(' ', "") == inherited)
}

/// What a published crate's manifest lacks; `dir` is its folder.
fn published_crate_problems(name: &str, text: &str, dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["description", "license", "repository", "readme"] {
        if !has_field(text, key) {
            out.push(format!("{name}: no {key}"));
        }
    }
    match toml_list(text, "package", "keywords") {
        Some(k) if (1..=5).contains(&k.len()) => {
            for word in k.iter().filter(|w| {
                w.len() > 20 || !w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            }) {
                out.push(format!(
                    "{name}: keyword {word:?} is not a crates.io keyword"
                ));
            }
        }
        k => out.push(format!("{name}: keywords {k:?}, not 1 to 5")),
    }
    match toml_list(text, "package", "categories") {
        Some(c) if !c.is_empty() && c.len() <= 5 => {
            for category in c.iter().filter(|c| !CATEGORIES.contains(&c.as_str())) {
                out.push(format!(
                    "{name}: category {category:?} is not one rigport uses"
                ));
            }
        }
        c => out.push(format!("{name}: categories {c:?}, not 1 to 5")),
    }
    if let Some(readme) = toml_string(text, "package", "readme") {
        match std::fs::read_to_string(dir.join(&readme)) {
            Ok(readme) => {
                let install = if text.contains("[[bin]]") && !text.contains("[lib]") {
                    format!("cargo install {name}")
                } else {
                    format!("cargo add {name}")
                };
                if !readme.contains(&install) {
                    out.push(format!("{name}: its README shows no `{install}`"));
                }
            }
            Err(e) => out.push(format!("{name}: readme {readme}: {e}")),
        }
    }
    // A description that lists formats lists every one rigport reads.
    let description = toml_string(text, "package", "description").unwrap_or_default();
    if description.contains("MilkShape") && description.contains("glTF") {
        let missing = formats_missing(&description);
        if !missing.is_empty() {
            out.push(format!(
                "{name}: its description lists formats but not {}",
                missing.join(", ")
            ));
        }
    }
    out
}

#[test]
fn published_crates_carry_their_metadata_and_dev_crates_stay_home() {
    let root = crate::project_root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut problems = Vec::new();
    let mut published = 0;
    for member in workspace_members(&manifest) {
        let dir = root.join(&member);
        let text = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        let name = toml_string(&text, "package", "name").unwrap();
        let unpublished = toml_string(&text, "package", "publish").is_some()
            || text.lines().any(|l| l.replace(' ', "") == "publish=false");
        match (DEV_ONLY.contains(&name.as_str()), unpublished) {
            (true, true) => {}
            (true, false) => problems.push(format!("{member}: dev-only, needs publish = false")),
            (false, true) => problems.push(format!("{member}: publish = false, but it ships")),
            (false, false) => {
                published += 1;
                problems.extend(published_crate_problems(&name, &text, &dir));
            }
        }
    }
    assert!(published >= 10, "only {published} published crates found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The `include_str!`/`include_bytes!` paths in `text` (a file in `dir`) that leave `crate_dir`.
fn includes_outside(text: &str, dir: &Path, crate_dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for macro_name in ["include_str!(\"", "include_bytes!(\""] {
        for (at, _) in text.match_indices(macro_name) {
            let rest = &text[at + macro_name.len()..];
            let Some(path) = rest.split('"').next() else {
                continue;
            };
            let mut resolved = dir.to_path_buf();
            for part in path.split('/') {
                match part {
                    ".." => {
                        resolved.pop();
                    }
                    "." | "" => {}
                    other => resolved.push(other),
                }
            }
            if !resolved.starts_with(crate_dir) {
                out.push(path.to_owned());
            }
        }
    }
    out
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `cargo package` builds each crate from its own folder, so the code it compiles (`src/`,
/// `build.rs`) includes no file from outside that folder.
#[test]
fn packaged_code_includes_no_file_outside_its_crate() {
    let root = crate::project_root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut found = Vec::new();
    let mut files = 0;
    for member in workspace_members(&manifest) {
        let crate_dir = root.join(&member);
        let mut sources = Vec::new();
        rust_files(&crate_dir.join("src"), &mut sources);
        sources.push(crate_dir.join("build.rs"));
        for file in sources {
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            files += 1;
            let dir = file.parent().unwrap();
            for path in includes_outside(&text, dir, &crate_dir) {
                found.push(format!("{}: {path}", file.display()));
            }
        }
    }
    assert!(files > 100, "only {files} source files read");
    assert!(
        found.is_empty(),
        "files included from outside their crate:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_python_package_description_names_every_readable_format() {
    let root = crate::project_root();
    let pyproject = std::fs::read_to_string(root.join("bindings/python/pyproject.toml")).unwrap();
    let description = toml_string(&pyproject, "project", "description").unwrap();
    let missing = formats_missing(&description);
    assert!(
        missing.is_empty(),
        "bindings/python/pyproject.toml's description leaves out {}: {description}",
        missing.join(", ")
    );
}

#[test]
fn missing_metadata_and_formats_are_found() {
    assert_eq!(
        formats_missing("Reads MilkShape 3D (binary and ASCII), IQE, IQM and glTF"),
        ["MD5", "SMD", "PSK/PSA", "B3D"]
    );
    assert!(
        formats_missing("MilkShape 3D binary and ASCII, IQE, IQM, MD5, SMD, PSK, B3D, glTF")
            .is_empty()
    );
    let dir = std::env::temp_dir();
    let bare = "[package]\nname = \"rigport-x\"\ndescription = \"MilkShape and glTF\"\n\
                keywords = [\"a\", \"b c\"]\ncategories = [\"science\"]\n";
    let found = published_crate_problems("rigport-x", bare, &dir);
    for expected in [
        "no license",
        "no repository",
        "no readme",
        "keyword \"b c\"",
        "category \"science\"",
        "IQE, IQM, MD5, SMD, PSK/PSA, B3D",
    ] {
        assert!(
            found.iter().any(|p| p.contains(expected)),
            "{expected:?} not in {found:?}"
        );
    }
    let crate_dir = Path::new("/w/crates/iqe");
    let text = "const A: &str = include_str!(\"../README.md\");\n\
                const B: &[u8] = include_bytes!(\"../../../fixtures/a.iqe\");";
    assert_eq!(
        includes_outside(text, &crate_dir.join("src"), crate_dir),
        ["../../../fixtures/a.iqe"]
    );
    assert_eq!(
        toml_list(
            "[package]\nkeywords = [\"a\", \"b\"]\n",
            "package",
            "keywords"
        ),
        Some(vec!["a".to_owned(), "b".to_owned()])
    );
}
