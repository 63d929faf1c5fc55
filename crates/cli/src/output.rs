//! Writing output files safely: atomically, never over an input, never over an existing file
//! unless asked.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Why an output could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output exists and `--force` was not given.
    #[error("{0} already exists (use --force to overwrite)")]
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

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, then
/// renamed over the target, so a reader never sees a half-written file. When it replaces a
/// file, the new bytes are synced to the disk before the rename ([`sync_before_rename`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write_via_temporary(path, bytes, sync_before_rename(path))
}

/// Whether writing `path` syncs the new bytes before the rename: only when a file is there
/// to be replaced.
///
/// A rename over a file whose new bytes are not yet on the disk can, after a machine crash,
/// leave neither the old file nor the new one: the sync keeps the file that was there
/// until its replacement is whole. A new file has nothing before it to lose; after such a
/// crash it may be missing or short, and converting again (the input is never written)
/// makes it, as for pictures. The sync cost 2.5–5.5 ms a file on ext4 (virtio disk), up to
/// a fifth of converting an 11 MB `.ms3d` and about 15 % of a 36-file batch to glb.
pub fn sync_before_rename(path: &Path) -> bool {
    path.exists()
}

/// [`write_atomic`] without forcing the bytes to disk before the rename, for files that
/// can be made again (pictures of a library): an interrupted process still never leaves a
/// half-written file under the final name, and after a machine crash `render --resume`
/// checks that each output listed as done is whole (see `render_library`). Syncing each
/// of a library's hundreds of pictures cost about 15 % of an orbit run's time.
pub fn write_atomic_unsynced(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write_via_temporary(path, bytes, false)
}

fn write_via_temporary(path: &Path, bytes: &[u8], sync: bool) -> Result<(), OutputError> {
    let io = |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut temp = tempfile::Builder::new()
        .prefix(".rigport-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io)?;
    match sync {
        true => write_for_sync(temp.as_file(), bytes).map_err(io)?,
        false => temp.write_all(bytes).map_err(io)?,
    }
    // Temporary files are created private (0600); a model file is an ordinary document.
    set_ordinary_permissions(temp.as_file(), path).map_err(io)?;
    if sync {
        temp.as_file().sync_all().map_err(io)?;
    }
    temp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Bytes written before their way to the disk is started (see [`write_for_sync`]).
#[cfg(target_os = "linux")]
const WRITEBACK_STEP: usize = 1 << 20;

/// Writes `bytes` to `file`, which is synced next, starting each megabyte's way to the disk
/// as soon as it is written (Linux `sync_file_range`, which only starts the writeback), so
/// the disk works while the rest is copied and the sync waits for less. A 9 MB file written
/// then synced took 6.6–7.1 ms, written this way 4.6–4.7 ms (ext4, virtio disk;
/// BENCHMARKS.md). Elsewhere the bytes are written at once.
fn write_for_sync(mut file: &std::fs::File, bytes: &[u8]) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let mut written = 0usize;
        for step in bytes.chunks(WRITEBACK_STEP) {
            file.write_all(step)?;
            let start = written;
            written += step.len();
            let (Ok(offset), Ok(length)) = (
                libc::off64_t::try_from(start),
                libc::off64_t::try_from(step.len()),
            ) else {
                continue;
            };
            // SAFETY: `sync_file_range` reads no memory of this process: it asks the
            // kernel to start writing out a range of an open file's pages. Its failure
            // (a file system without it) changes nothing: the sync that follows still
            // writes everything, so its result is ignored.
            #[allow(unsafe_code)]
            unsafe {
                libc::sync_file_range(
                    file.as_raw_fd(),
                    offset,
                    length,
                    libc::SYNC_FILE_RANGE_WRITE,
                );
            }
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    file.write_all(bytes)
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
mod tests {
    use super::*;

    #[test]
    fn refuses_existing_and_input_paths() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.ms3d");
        std::fs::write(&input, b"x").unwrap();
        assert!(matches!(
            check_target(&input, &[&input], true),
            Err(OutputError::IsInput(_))
        ));
        let out = dir.path().join("out.ms3d");
        check_target(&out, &[&input], false).unwrap();
        assert!(!sync_before_rename(&out), "a new file has nothing to keep");
        write_atomic(&out, b"abc").unwrap();
        assert!(
            sync_before_rename(&out),
            "the file written is kept until replaced"
        );
        assert!(matches!(
            check_target(&out, &[&input], false),
            Err(OutputError::Exists(_))
        ));
        check_target(&out, &[&input], true).unwrap();
        write_atomic(&out, b"def").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"def");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&out).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o644, "not the temporary file's 0600");
        }
        // No temporary files are left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn a_file_of_several_writeback_steps_is_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("large.glb");
        // Two and a half steps, none of them alike.
        let bytes: Vec<u8> = (0..(5usize << 20) / 2)
            .map(|i| (i % 251) as u8 ^ (i >> 20) as u8)
            .collect();
        write_atomic(&out, &bytes).unwrap();
        assert!(std::fs::read(&out).unwrap() == bytes);
        // Replacing it syncs, a megabyte at a time.
        let reversed: Vec<u8> = bytes.iter().rev().copied().collect();
        write_atomic(&out, &reversed).unwrap();
        assert!(std::fs::read(&out).unwrap() == reversed);
        write_atomic_unsynced(&out, &bytes[..1000]).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), &bytes[..1000]);
    }
}
