//! Writing output files as every rigport door does (the command line, the Python package):
//! atomically, never over an input, over an existing file only when asked, and synced to
//! the disk before the rename only when a file is replaced.
//!
//! ```
//! # fn main() -> Result<(), rigport::output::OutputError> {
//! use rigport::output::{check_target, write_atomic};
//! let dir = std::env::temp_dir().join(format!("rigport-doc-{}", std::process::id()));
//! let out = dir.join("model.iqe");
//! check_target(&out, &[], false)?;
//! write_atomic(&out, b"# Inter-Quake Export\n")?;
//! // Written once, it is not written again unless the caller says so.
//! assert!(check_target(&out, &[], false).is_err());
//! check_target(&out, &[], true)?;
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok(())
//! # }
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

/// Why an output may not or could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output exists and overwriting was not asked for.
    #[error("{0} already exists")]
    Exists(PathBuf),
    /// The output is one of the inputs.
    #[error("refusing to overwrite the input {0}")]
    IsInput(PathBuf),
    /// The file system refused.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The output path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// Whether two paths name the same file (both must exist to compare by identity).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Checks that `path` may be written: it is not one of `inputs`, and exists only if `force`.
pub fn check_target(path: &Path, inputs: &[&Path], force: bool) -> Result<(), OutputError> {
    if inputs.iter().any(|input| same_file(input, path)) {
        return Err(OutputError::IsInput(path.to_path_buf()));
    }
    if path.exists() && !force {
        return Err(OutputError::Exists(path.to_path_buf()));
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder (made if
/// missing), then renamed over the target, so a reader never sees a half-written file. The
/// file gets the permissions of the file it replaces, or `rw-r--r--` when new. When it
/// replaces a file, the new bytes are synced to the disk before the rename
/// ([`sync_before_rename`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write_atomic_with(path, bytes, write_at_once)
}

/// How a synced output's bytes reach its temporary file before the sync: [`write_at_once`],
/// or a caller's own way, such as starting their writeback as they are written so the
/// sync waits for less (the `rigport` command does, with Linux's `sync_file_range`).
pub type SyncedWrite = fn(&std::fs::File, &[u8]) -> std::io::Result<()>;

/// Writes all of `bytes` to `file` at once.
pub fn write_at_once(mut file: &std::fs::File, bytes: &[u8]) -> std::io::Result<()> {
    file.write_all(bytes)
}

/// [`write_atomic`], writing the bytes of an output that is synced with `synced_write`.
pub fn write_atomic_with(
    path: &Path,
    bytes: &[u8],
    synced_write: SyncedWrite,
) -> Result<(), OutputError> {
    let sync = sync_before_rename(path).then_some(synced_write);
    write_via_temporary(path, bytes, sync)
}

/// Whether writing `path` syncs the new bytes before the rename: only when a file is there
/// to be replaced.
///
/// A rename over a file whose new bytes are not yet on the disk can, after a machine crash,
/// leave neither the old file nor the new one: the sync keeps the file that was there
/// until its replacement is whole. A new file has nothing before it to lose; after such a
/// crash it may be missing or short, and converting again (the input is never written)
/// makes it. The sync cost 2.5–5.5 ms a file on ext4 (virtio disk), up to a fifth of
/// converting an 11 MB `.ms3d` and about 15 % of a 36-file batch to glb.
pub fn sync_before_rename(path: &Path) -> bool {
    path.exists()
}

/// [`write_atomic`] without forcing the bytes to disk before the rename, for files that
/// can be made again (the pictures of an asset library, whose run checks each listed
/// output when it resumes): an interrupted process still never leaves a half-written file
/// under the final name. Syncing each of a library's hundreds of pictures cost about 15 %
/// of an orbit run's time.
pub fn write_atomic_unsynced(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write_via_temporary(path, bytes, None)
}

/// The temporary file, written with `sync`'s way and synced when there is one (else
/// written at once), renamed over `path`.
fn write_via_temporary(
    path: &Path,
    bytes: &[u8],
    sync: Option<SyncedWrite>,
) -> Result<(), OutputError> {
    let io = |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = crate::batch::input_dir(path);
    std::fs::create_dir_all(&dir).map_err(io)?;
    let temp = tempfile::Builder::new()
        .prefix(".rigport-")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(io)?;
    sync.unwrap_or(write_at_once)(temp.as_file(), bytes).map_err(io)?;
    // Temporary files are created private (0600); a model file is an ordinary document.
    set_ordinary_permissions(temp.as_file(), path).map_err(io)?;
    if sync.is_some() {
        temp.as_file().sync_all().map_err(io)?;
    }
    temp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Gives the new file the permissions of the file it replaces, or `rw-r--r--` when new.
#[cfg(unix)]
fn set_ordinary_permissions(file: &std::fs::File, target: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let permissions = match std::fs::metadata(target) {
        Ok(existing) => existing.permissions(),
        Err(_) => std::fs::Permissions::from_mode(0o644),
    };
    file.set_permissions(permissions)
}

/// Elsewhere the temporary file already has ordinary permissions.
#[cfg(not(unix))]
fn set_ordinary_permissions(_: &std::fs::File, _: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests;
