//! How the binary's memory is allocated: the C library's allocator, with 2 MiB pages under
//! large blocks ([`HugePages`], every command), and kept for reuse while pictures are drawn
//! ([`keep_freed_blocks`], `render`).
//!
//! glibc gives blocks of more than its current threshold straight back to the kernel when
//! they are freed, and trims the free top of its heap above twice that threshold, so every
//! picture of a folder run (a 1 MiB image, its PNG encoding, the passes) lands in fresh
//! pages and pays a page fault per 4 KiB: 84 000 faults and 0.76 s for the 432 pictures of
//! the corpus folder (BENCHMARKS.md "Rendering a library"). `render` raises the threshold
//! and the trim limit so that freed picture buffers are reused instead: 10 000 faults,
//! 0.64 s. Conversions keep glibc's own policy, which returns large blocks at once: with
//! these settings a 111 MB IQE → IQM conversion peaked at 348 MB instead of 268 MB.

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

/// Blocks of at least this size are backed by 2 MiB pages where they cover whole ones.
const HUGE_BLOCK: usize = 2 << 20;

/// The system allocator, asking the kernel to back the whole 2 MiB pages inside every
/// block of [`HUGE_BLOCK`] or more with 2 MiB pages (Linux transparent huge pages,
/// `madvise(MADV_HUGEPAGE)`).
///
/// A conversion writes each large array once, page by page, and glibc gives large blocks
/// back to the kernel as soon as they are freed, so every one is fresh memory: with 4 KiB
/// pages that is a page fault per 4 KiB, 123 000 of them (about 480 MB touched) for a
/// 111 MB IQE → IQM. A 2 MiB page takes one fault for 512: 42 000 faults, and the
/// conversion's median 600 → 466 ms (→ glb 506 → 409 ms; BENCHMARKS.md). A block's last
/// 2 MiB page is whole even when the block ends inside it, so the peak grows by up to
/// 2 MiB per large live block (1.66× → 1.68× the input there); readers that reserve room
/// ahead give back what they did not use (the IQE store's `shrink_to_fit`). Nothing else
/// changes: the memory is the system allocator's, and the advice only says which pages
/// back it.
pub struct HugePages;

// SAFETY: every call goes to `System` with the caller's arguments and returns what it
// returns; `advise` only gives advice about memory inside the block, which the kernel may
// ignore.
#[allow(unsafe_code)]
unsafe impl std::alloc::GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: forwarded (see the impl).
        let block = unsafe { std::alloc::System.alloc(layout) };
        advise(block, layout.size());
        block
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: forwarded (see the impl).
        let block = unsafe { std::alloc::System.alloc_zeroed(layout) };
        advise(block, layout.size());
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: forwarded (see the impl).
        unsafe { std::alloc::System.dealloc(block, layout) }
    }

    unsafe fn realloc(
        &self,
        block: *mut u8,
        layout: std::alloc::Layout,
        new_size: usize,
    ) -> *mut u8 {
        // SAFETY: forwarded (see the impl).
        let moved = unsafe { std::alloc::System.realloc(block, layout, new_size) };
        advise(moved, new_size);
        moved
    }
}

/// Advises 2 MiB pages for the whole 2 MiB pages inside `block..block + size`.
fn advise(block: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    if !block.is_null() && size >= HUGE_BLOCK {
        let start = (block as usize).next_multiple_of(HUGE_BLOCK);
        let end = (block as usize).saturating_add(size) / HUGE_BLOCK * HUGE_BLOCK;
        if end > start {
            // SAFETY: the range lies inside the block just allocated, which this process
            // owns; `MADV_HUGEPAGE` changes no content and no mapping, only which page
            // size backs it (its error, on a kernel without huge pages, changes nothing).
            #[allow(unsafe_code)]
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (block, size);
}
