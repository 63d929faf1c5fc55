//! The CLI archive: `rigport-<version>-<target>.tar.gz` (`.zip` for a Windows target) holding
//! `rigport-<version>-<target>/` with the executable, README.md, CHANGELOG.md, both licence
//! texts and the third-party notices.
//!
//! The default target, `x86_64-unknown-linux-musl`, links the C runtime statically: the
//! executable runs on any x86-64 Linux with nothing installed. (The CLI's glibc allocator
//! tuning in `crates/cli/src/heap` is compiled for glibc targets only.)

use super::{Context, Made, PROFILE};
use std::process::Command;

/// Builds the executable for `cx.target` and archives it.
pub fn build(cx: &Context, made: &mut Made) -> Result<(), String> {
    super::ensure_rust_target(&cx.target)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    super::run_command(
        Command::new(cargo).current_dir(&cx.root).args([
            "build",
            "--locked",
            "-p",
            "rigport-cli",
            "--bin",
            "rigport",
            "--profile",
            PROFILE,
            "--target",
            &cx.target,
        ]),
        "cargo build -p rigport-cli",
    )?;
    let windows = cx.target.contains("windows");
    let exe_name = if windows { "rigport.exe" } else { "rigport" };
    let exe = super::target_dir(&cx.root)
        .join(&cx.target)
        .join(PROFILE)
        .join(exe_name);
    let folder = format!("rigport-{}-{}", cx.version, cx.target);
    let mut entries = vec![(exe, format!("{folder}/{exe_name}"))];
    for file in [
        "README.md",
        "CHANGELOG.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "THIRD-PARTY-NOTICES.md",
    ] {
        entries.push((cx.root.join(file), format!("{folder}/{file}")));
    }
    let archive = cx.out.join(format!(
        "{folder}.{}",
        if windows { "zip" } else { "tar.gz" }
    ));
    super::archive(&archive, &entries)?;
    made.push(archive);
    Ok(())
}
