//! `cargo xtask dist [--target TRIPLE] [STEP]...`: every artifact a release ships, written
//! into `target/dist/`, each with a `.sha256` beside it.
//!
//! Steps (all of them unless some are named), one file each in this folder:
//! * `cli` ([`cli`]) — `rigport-<version>-<target>.tar.gz` (`.zip` for Windows): the static
//!   `rigport` executable (`x86_64-unknown-linux-musl` unless `--target` says otherwise),
//!   README.md, CHANGELOG.md and both licence texts;
//! * `wheel` ([`python::wheel`]) — the abi3 `rigport` wheel for manylinux2014 (glibc 2.17),
//!   built by maturin with zig as the linker, so no Docker image is needed;
//! * `sdist` ([`python::sdist`]) — `rigport-<version>.tar.gz`, what `pip install` builds
//!   the extension from on a machine with Rust;
//! * `web` ([`web_zip`]) — `rigport-web-<version>.zip`, the static site of `cargo xtask web`.
//! * `blender` ([`crate::blender_extension::build`]) — `rigport_io-<version>.zip`, the Blender
//!   extension with the wheels above inside.
//!
//! Adding an artifact is one more entry in [`STEPS`] and its function: a step gets the
//! [`Context`] and the [`Made`] list of what earlier steps wrote (the Blender extension
//! takes the wheels from it), and pushes its own files there.
//!
//! Before building, the workspace's versions are compared ([`crate::versions`]): a release
//! whose files would name different versions is refused. The executables and the extension
//! are built with the `shipped` profile (the release profile without debug information,
//! stripped). Archives and checksums are written by `archive.py` with Python, which the
//! wheel's build needs anyway.

mod cli;
mod python;
mod web_zip;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Cargo profile of shipped executables (`[profile.shipped]` in the workspace manifest).
pub const PROFILE: &str = "shipped";

/// The CLI's target when `--target` is not given: any x86-64 Linux, statically linked.
pub const DEFAULT_TARGET: &str = "x86_64-unknown-linux-musl";

/// The helper that writes archives and checksums.
const ARCHIVE_PY: &str = include_str!("archive.py");

/// What every step needs to know.
pub struct Context {
    /// The workspace root.
    pub root: PathBuf,
    /// `target/dist/`.
    pub out: PathBuf,
    /// The workspace version, in every file name.
    pub version: String,
    /// The CLI's Rust target triple.
    pub target: String,
}

/// The files the steps have written so far, in order.
#[derive(Default)]
pub struct Made(Vec<PathBuf>);

impl Made {
    /// Records one written artifact.
    pub fn push(&mut self, path: PathBuf) {
        self.0.push(path);
    }

    /// The written files whose names end with `suffix` (`.whl`: the wheels).
    pub fn ending_with(&self, suffix: &str) -> Vec<PathBuf> {
        self.0
            .iter()
            .filter(|p| p.to_string_lossy().ends_with(suffix))
            .cloned()
            .collect()
    }
}

/// One artifact step: its name on the command line and what it builds.
struct Step {
    name: &'static str,
    build: fn(&Context, &mut Made) -> Result<(), String>,
}

/// Every step, in the order they run (a later one may use what an earlier one made).
const STEPS: [Step; 5] = [
    Step {
        name: "cli",
        build: cli::build,
    },
    Step {
        name: "wheel",
        build: python::wheel,
    },
    Step {
        name: "sdist",
        build: python::sdist,
    },
    Step {
        name: "web",
        build: web_zip::build,
    },
    Step {
        name: "blender",
        build: blender,
    },
];

/// The Blender extension, `rigport_io-<version>.zip`, with the wheels the earlier steps made
/// (this machine's, built with maturin, when the `wheel` step did not run).
fn blender(cx: &Context, made: &mut Made) -> Result<(), String> {
    made.push(crate::blender_extension::build(
        &cx.root,
        &made.ending_with(".whl"),
    )?);
    Ok(())
}

/// Runs the subcommand; `args` are what follows `dist`.
pub fn run(root: &Path, args: &[&str]) -> Result<(), String> {
    let mut target = DEFAULT_TARGET.to_owned();
    let mut chosen = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match *arg {
            "--target" => target = rest.next().ok_or("--target needs a triple")?.to_string(),
            name if STEPS.iter().any(|s| s.name == name) => chosen.push(name),
            other => {
                let names: Vec<_> = STEPS.iter().map(|s| s.name).collect();
                return Err(format!(
                    "unknown argument {other:?}; steps: {}",
                    names.join(", ")
                ));
            }
        }
    }
    let (version, disagreements) = crate::versions::disagreements(root)?;
    if !disagreements.is_empty() {
        return Err(format!(
            "versions disagree with the workspace's {version}:\n{}",
            disagreements.join("\n")
        ));
    }
    let cx = Context {
        root: root.to_path_buf(),
        out: target_dir(root).join("dist"),
        version,
        target,
    };
    std::fs::create_dir_all(&cx.out).map_err(|e| format!("{}: {e}", cx.out.display()))?;
    let mut made = Made::default();
    for step in &STEPS {
        if chosen.is_empty() || chosen.contains(&step.name) {
            let started = std::time::Instant::now();
            println!("== dist: {}", step.name);
            (step.build)(&cx, &mut made)?;
            println!(
                "== dist: {} done in {:.0} s",
                step.name,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let mut command = python();
    command
        .arg("-c")
        .arg(ARCHIVE_PY)
        .arg("sha256")
        .args(&made.0);
    run_command(&mut command, "archive.py sha256")?;
    println!("written to {}:", cx.out.display());
    for path in &made.0 {
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        println!("  {name} ({:.1} MiB) + .sha256", size as f64 / 1048576.0);
    }
    Ok(())
}

/// Writes `out`, an archive of `entries` (source file, name inside), as `.tar.gz` or `.zip`
/// by `out`'s name.
pub fn archive(out: &Path, entries: &[(PathBuf, String)]) -> Result<(), String> {
    let name = out.to_string_lossy();
    let kind = match () {
        () if name.ends_with(".tar.gz") => "tar.gz",
        () if name.ends_with(".zip") => "zip",
        () => return Err(format!("{name}: neither .tar.gz nor .zip")),
    };
    for (source, _) in entries {
        if !source.is_file() {
            return Err(format!("{} is missing", source.display()));
        }
    }
    let mut command = python();
    command.arg("-c").arg(ARCHIVE_PY).arg(kind).arg(out);
    for (source, inside) in entries {
        command.arg(source).arg(inside);
    }
    run_command(&mut command, "archive.py")
}

/// The Python that runs `archive.py` and maturin: `$PYTHON`, else `python3`, else `python`
/// (the name on Windows).
pub fn python() -> Command {
    if let Some(python) = std::env::var_os("PYTHON") {
        return Command::new(python);
    }
    let works = |name: &str| {
        Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    Command::new(if works("python3") {
        "python3"
    } else {
        "python"
    })
}

/// The Cargo target folder (`CARGO_TARGET_DIR`, else `target/`).
pub fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// Adds a Rust target's standard library with rustup when it is not installed.
pub fn ensure_rust_target(target: &str) -> Result<(), String> {
    let installed = Command::new("rustc")
        .args(["--print", "target-libdir", "--target", target])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|dir| dir.is_dir());
    if installed {
        return Ok(());
    }
    println!("installing the {target} target: rustup target add {target}");
    run_command(
        Command::new("rustup").args(["target", "add", target]),
        "rustup target add",
    )
}

/// A fresh, empty folder `name` under `target/dist/`, for a tool whose output file name is
/// known only after it ran.
pub fn scratch(cx: &Context, name: &str) -> Result<PathBuf, String> {
    let dir = cx.out.join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

/// Moves the one file in `dir` whose name ends with `suffix` into `target/dist/`, removes
/// `dir`, and returns the file's new path.
pub fn take_one(cx: &Context, dir: &Path, suffix: &str) -> Result<PathBuf, String> {
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    let [file] = found.as_slice() else {
        return Err(format!(
            "{}: expected one *{suffix}, found {found:?}",
            dir.display()
        ));
    };
    let to = cx.out.join(file.file_name().unwrap_or_default());
    std::fs::rename(file, &to)
        .map_err(|e| format!("{} -> {}: {e}", file.display(), to.display()))?;
    std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(to)
}

/// Runs a command, its output going to the terminal; a missing program or a failure is an
/// error naming `what`.
pub fn run_command(command: &mut Command, what: &str) -> Result<(), String> {
    let status = command.status().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{what}: program not found"),
        _ => format!("{what}: {e}"),
    })?;
    match status.success() {
        true => Ok(()),
        false => Err(format!("{what} failed ({status})")),
    }
}
