//! Output files as every rigport door writes them ([`rigport::output`]: atomically, never
//! over an input, over an existing file only with `--force`, synced only when replacing),
//! with the command's own message for an existing file and early writeback of synced
//! outputs.

use rigport::output::OutputError;
use std::io::Write;
use std::path::Path;

pub use rigport::output::write_atomic_unsynced;

/// Checks that `path` may be written: it is not one of `inputs`, and exists only with
/// `--force` (the message says so).
pub fn check_target(path: &Path, inputs: &[&Path], force: bool) -> Result<(), String> {
    rigport::output::check_target(path, inputs, force).map_err(|error| match error {
        OutputError::Exists(path) => {
            format!(
                "{} already exists (use --force to overwrite)",
                path.display()
            )
        }
        other => other.to_string(),
    })
}

/// [`rigport::output::write_atomic`], a synced output written by [`write_for_sync`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    rigport::output::write_atomic_with(path, bytes, write_for_sync)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_output_names_the_flag() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.glb");
        check_target(&out, &[], false).unwrap();
        std::fs::write(&out, b"x").unwrap();
        assert_eq!(
            check_target(&out, &[], false).unwrap_err(),
            format!(
                "{} already exists (use --force to overwrite)",
                out.display()
            )
        );
        check_target(&out, &[], true).unwrap();
        assert!(
            check_target(&out, &[&out], true)
                .unwrap_err()
                .starts_with("refusing to overwrite the input")
        );
    }

    #[test]
    fn synced_files_of_several_writeback_steps_are_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        // Two and a half writeback steps, no two alike.
        let bytes: Vec<u8> = (0..(5usize << 20) / 2)
            .map(|i| (i % 251) as u8 ^ (i >> 20) as u8)
            .collect();
        let direct = dir.path().join("direct.bin");
        write_for_sync(&std::fs::File::create(&direct).unwrap(), &bytes).unwrap();
        assert!(std::fs::read(&direct).unwrap() == bytes);
        // Through the output rule: replacing a file is the synced case.
        let out = dir.path().join("large.glb");
        std::fs::write(&out, b"old").unwrap();
        write_atomic(&out, &bytes).unwrap();
        assert!(std::fs::read(&out).unwrap() == bytes);
    }
}
