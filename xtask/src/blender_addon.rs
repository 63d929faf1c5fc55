//! `cargo xtask blender-addon`: the installable zip of the Blender add-on.
//!
//! Blender's "Install add-on" takes a zip whose top folder is the Python package, so the zip
//! holds `rigport_io/*.py` plus the add-on README, both licence texts and the third-party notices inside that folder.
//! The archive is written by Python's `zipfile` (Python is already needed to run the add-on
//! tests), which keeps a compression crate out of xtask's build.

use std::path::Path;

/// Where the zip is written, under the workspace's `target/`.
pub const ZIP_NAME: &str = "rigport_io.zip";

/// Builds `target/rigport_io.zip` from `integrations/blender`.
pub fn run(root: &Path) -> Result<(), String> {
    let addon = root.join("integrations/blender");
    let package = addon.join("rigport_io");
    let mut entries = crate::blender_extension::python_files(&package, "rigport_io/")?;
    entries.push((addon.join("README.md"), "rigport_io/README.md".to_string()));
    entries.push((
        crate::blender_formats::write(root)?,
        format!("rigport_io/{}", crate::blender_formats::NAME),
    ));
    for licence in ["LICENSE-MIT", "LICENSE-APACHE", "THIRD-PARTY-NOTICES.md"] {
        entries.push((root.join(licence), format!("rigport_io/{licence}")));
    }
    for (source, _) in &entries {
        if !source.is_file() {
            return Err(format!("{} is missing", source.display()));
        }
    }
    let target = root.join("target");
    std::fs::create_dir_all(&target).map_err(|e| format!("{}: {e}", target.display()))?;
    let zip = target.join(ZIP_NAME);
    crate::blender_extension::write_zip(&zip, "", &entries)?;
    println!("wrote {} ({} files)", zip.display(), entries.len());
    Ok(())
}
