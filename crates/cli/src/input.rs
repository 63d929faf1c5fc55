//! Reading an input file: large ones are mapped into memory instead of copied.
//!
//! Copying a file into fresh memory costs a page fault per 4 KiB page; on the virtual
//! machines this project is measured on that is about 0.35 ms per megabyte, and reading a
//! 10 MB IQE took 4.8 ms of a 45 ms conversion to IQM. A mapping shares the pages the
//! kernel already caches: the same conversion takes 40.4 ms (interleaved `hyperfine`
//! runs), and the 100 MB IQE → glb conversions 0.53 → 0.43 s and 0.35 → 0.29 s. The
//! mapping is dropped as soon as the file is read, like the copy before it; while it is
//! read, a reader that reports the bytes it is done with ([`Input::consumed`]) has their
//! pages handed back, so a large text file is not resident beside what is read from it.
//!
//! The cost is the one every mapping reader has (ripgrep maps large files the same way):
//! the bytes are the file's, so a file that another program truncates or rewrites while
//! rigport reads it can make the read fail, give a wrong result, or stop the process with
//! a bus error. `--no-mmap` reads a private copy instead. Files under [`MIN_MAPPED_BYTES`],
//! and anything that is not a regular file (a pipe, a device), are always copied.

use rigport_model_core::Consumed;
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// Files smaller than this are read into memory: mapping and unmapping cost a few system
/// calls, as much as copying a small file.
pub const MIN_MAPPED_BYTES: u64 = 1 << 20;

/// The bytes of an input file, mapped or copied.
pub enum Input {
    /// The file mapped read-only (shared with the hook of [`Input::consumed`], which only
    /// looks at it while this owner keeps it alive).
    Mapped(Mapping),
    /// A copy of the file.
    Read(Vec<u8>),
}

/// A file mapped read-only, unmapped on another thread when dropped.
///
/// Unmapping takes the kernel a moment per page mapped: 0.8 ms for an 11 MB `.ms3d` read
/// whole, on the thread that drops the input before it writes the output. The other
/// thread does it meanwhile; a process that ends first unmaps everything anyway.
pub struct Mapping(Option<Arc<memmap2::Mmap>>);

impl Drop for Mapping {
    fn drop(&mut self) {
        if let Some(map) = self.0.take() {
            // Were no thread to be had, the closure (and the mapping) is dropped here.
            let _ = std::thread::Builder::new().spawn(move || drop(map));
        }
    }
}

impl Input {
    /// A hook for [`ReadOptions::consumed`](rigport_model_core::ReadOptions::consumed)
    /// that hands the pages of a mapped file back to the system as the reader finishes
    /// with them, so a large text file is not held whole beside what is read from it
    /// (100 MB IQE → glb: the peak falls by about the file's size). A copy has none.
    pub fn consumed(&self) -> Consumed {
        let Input::Mapped(Mapping(Some(map))) = self else {
            return Consumed::default();
        };
        let map = Arc::downgrade(map);
        Consumed::new(move |range| {
            if let Some(map) = map.upgrade() {
                forget_pages(&map, range);
            }
        })
    }
}

impl AsRef<[u8]> for Input {
    fn as_ref(&self) -> &[u8] {
        match self {
            Input::Mapped(Mapping(map)) => map.as_deref().map_or(&[], |map| map.as_ref()),
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
            return Ok(Input::Mapped(Mapping(Some(Arc::new(mapped)))));
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

/// Drops `range` of `map` from this process's memory; the file's pages stay in the page
/// cache, and a later read of the range maps them again. Unix only (elsewhere the pages
/// stay until the mapping is dropped).
#[cfg(unix)]
#[allow(unsafe_code)]
fn forget_pages(map: &memmap2::Mmap, range: std::ops::Range<usize>) {
    let Some(len) = range.end.min(map.len()).checked_sub(range.start) else {
        return;
    };
    // SAFETY: `MADV_DONTNEED` on a read-only mapping of a file never changes what the
    // mapping reads: the private mapping was never written, so its pages are the file's,
    // and a page touched again (by a reader still at work next to the range, or to show an
    // error) is read again from the page cache. Only the process's resident memory changes.
    // An advice the system refuses changes nothing, so its error is ignored.
    let _ =
        unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, range.start, len) };
}

#[cfg(not(unix))]
fn forget_pages(_map: &memmap2::Mmap, _range: std::ops::Range<usize>) {}

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
        // Pages handed back read the same again; a copy, or a mapping already dropped,
        // takes the hook without effect.
        let consumed = mapped.consumed();
        consumed.call(0..content.len() / 2);
        consumed.call(content.len() / 2..content.len() + 4096);
        assert_eq!(mapped.as_ref(), &content[..]);
        drop(mapped);
        consumed.call(0..content.len());
        copied.consumed().call(0..content.len());
        assert_eq!(copied.as_ref(), &content[..]);
        // A mapping dropped is unmapped, on another thread.
        let mapped = read(&large, true).unwrap();
        let Input::Mapped(Mapping(Some(map))) = &mapped else {
            panic!("a large file is mapped");
        };
        let weak = Arc::downgrade(map);
        drop(mapped);
        let waited = std::time::Instant::now();
        while weak.upgrade().is_some() {
            assert!(
                waited.elapsed().as_secs() < 30,
                "the mapping was never dropped"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // Not a file: the error names the problem, as reading it did before.
        assert!(read(dir.path(), true).is_err());
        assert!(read(&dir.path().join("missing.iqe"), true).is_err());
    }
}
