//! How the binary's memory is allocated: the C library's allocator, with 2 MiB pages under
//! large blocks and its main heap and one heap per core ([`HugePages`], [`heap_per_core`],
//! every command), and kept for reuse while pictures are drawn ([`keep_freed_blocks`],
//! `render`).
//!
//! glibc gives blocks of more than its current threshold straight back to the kernel when
//! they are freed, and trims the free top of its heap above twice that threshold, so every
//! picture of a folder run (a 1 MiB image, its PNG encoding, the passes) lands in fresh
//! pages and pays a page fault per 4 KiB: 84 000 faults and 0.76 s for the 432 pictures of
//! the corpus folder (BENCHMARKS.md "Rendering a library"). `render` raises the threshold
//! and the trim limit so that freed picture buffers are reused instead: 10 000 faults,
//! 0.64 s. Conversions keep glibc's own policy, which returns large blocks at once: with
//! these settings a 111 MB IQE → IQM conversion peaked at 348 MB instead of 268 MB.

mod huge_pages;

pub use huge_pages::{HugePages, heap_per_core};

/// Blocks up to this size come from the heap and are reused once freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: i32 = 32 << 20;

/// Free memory at the top of the heap kept for reuse rather than returned.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: i32 = 64 << 20;

/// Keeps freed blocks of up to 32 MiB, and up to 64 MiB of free heap, for reuse (glibc
/// only; elsewhere the allocator's own policy stays).
pub fn keep_freed_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets glibc's allocation parameters, which it reads under its
    // own lock; the values are within the ranges it accepts (it returns 0 otherwise, and
    // the old policy stays).
    #[allow(unsafe_code)]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}
