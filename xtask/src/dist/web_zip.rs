//! The web page: `rigport-web-<version>.zip`, the static site `cargo xtask web` writes
//! (`target/web/`), under one top folder `rigport-web-<version>/`. The page names every file
//! by a relative URL and three.js is vendored, so the folder runs from any static host or
//! subfolder.

use super::{Context, Made};
use std::path::{Path, PathBuf};

/// Builds the site and zips it.
pub fn build(cx: &Context, made: &mut Made) -> Result<(), String> {
    crate::web::run(&cx.root)?;
    let site = cx.root.join("target/web");
    let folder = format!("rigport-web-{}", cx.version);
    let mut files = Vec::new();
    walk(&site, &mut files)?;
    files.sort();
    let entries: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|path| {
            let inside = path
                .strip_prefix(&site)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            (path, format!("{folder}/{inside}"))
        })
        .collect();
    if !entries
        .iter()
        .any(|(_, name)| name.ends_with("/index.html"))
    {
        return Err(format!("{}: no index.html", site.display()));
    }
    let zip = cx.out.join(format!("{folder}.zip"));
    super::archive(&zip, &entries)?;
    made.push(zip);
    Ok(())
}

/// Every file below `dir`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}
