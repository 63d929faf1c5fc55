//! Reading an input file: large ones are mapped into memory instead of copied.
//!
//! Copying a file into fresh memory costs a page fault per 4 KiB page; on the virtual
//! machines this project is measured on that is about 0.35 ms per megabyte, and reading a
//! 10 MB IQE took 4.8 ms of a 45 ms conversion to IQM. A mapping shares the pages the
//! kernel already caches: the same conversion takes 40.4 ms (interleaved `hyperfine`
//! runs), and the 100 MB IQE → glb conversions 0.53 → 0.43 s and 0.35 → 0.29 s. The
//! mapping is dropped as soon as the file is read, like the copy before it, so the peak
//! memory does not change.
//!
//! The cost is the one every mapping reader has (ripgrep maps large files the same way):
//! the bytes are the file's, so a file that another program truncates or rewrites while
//! rigport reads it can make the read fail, give a wrong result, or stop the process with
//! a bus error. `--no-mmap` reads a private copy instead. Files under [`MIN_MAPPED_BYTES`],
//! and anything that is not a regular file (a pipe, a device), are always copied.

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// Files smaller than this are read into memory: mapping and unmapping cost a few system
/// calls, as much as copying a small file.
pub const MIN_MAPPED_BYTES: u64 = 1 << 20;

/// The bytes of an input file, mapped or copied.
pub enum Input {
    /// The file mapped read-only.
    Mapped(memmap2::Mmap),
    /// A copy of the file.
    Read(Vec<u8>),
}

impl AsRef<[u8]> for Input {
    fn as_ref(&self) -> &[u8] {
        match self {
            Input::Mapped(map) => map,
            Input::Read(bytes) => bytes,
        }
    }
}

/// Reads `path`, mapping it when `map` allows and the file is a regular file of at least
/// [`MIN_MAPPED_BYTES`]. A mapping the system refuses falls back to a copy.
pub fn read(path: &Path, map: bool) -> std::io::Result<Input> {
    let mut file = File::open(path)?;
    let metadata = file.metadata()?;
    if map && metadata.is_file() && metadata.len() >= MIN_MAPPED_BYTES {
        if let Ok(mapped) = map_file(&file) {
            return Ok(Input::Mapped(mapped));
        }
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(Input::Read(bytes))
}

/// `file` mapped read-only.
#[allow(unsafe_code)]
fn map_file(file: &File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the map is read-only and private to this process, and lives only while the
    // file is read into the format crate's own structures (`pipeline::convert_owned` drops
    // it before converting). What `Mmap::map` cannot rule out is another process changing
    // the file meanwhile; the module docs say what that does, and `--no-mmap` avoids it.
    unsafe { memmap2::Mmap::map(file) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_files_are_mapped_small_ones_and_refusals_copied_with_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let large = dir.path().join("large.iqe");
        let content: Vec<u8> = (0..MIN_MAPPED_BYTES as usize + 5)
            .map(|i| (i % 251) as u8)
            .collect();
        std::fs::write(&large, &content).unwrap();
        let small = dir.path().join("small.iqe");
        std::fs::write(&small, &content[..1000]).unwrap();
        let mapped = read(&large, true).unwrap();
        assert!(matches!(mapped, Input::Mapped(_)));
        assert_eq!(mapped.as_ref(), &content[..]);
        let copied = read(&large, false).unwrap();
        assert!(matches!(copied, Input::Read(_)));
        assert_eq!(copied.as_ref(), &content[..]);
        let small = read(&small, true).unwrap();
        assert!(matches!(small, Input::Read(_)));
        assert_eq!(small.as_ref(), &content[..1000]);
        // Not a file: the error names the problem, as reading it did before.
        assert!(read(dir.path(), true).is_err());
        assert!(read(&dir.path().join("missing.iqe"), true).is_err());
    }
}
