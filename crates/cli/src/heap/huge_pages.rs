//! The global allocator: the system one, with the memory it takes from the kernel backed
//! by 2 MiB pages (Linux transparent huge pages) where it can be.

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
        advise_heap();
        block
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: forwarded (see the impl).
        let block = unsafe { std::alloc::System.alloc_zeroed(layout) };
        advise(block, layout.size());
        advise_heap();
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
        advise_heap();
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

/// Room the main heap grows by at once: enough that most of each step's 2 MiB pages are
/// still untouched when [`advise_heap`] sees the step (a page already touched in 4 KiB
/// pages stays so). glibc keeps this much free at the top of every heap, so it is also
/// memory held: steps of 4, 6 and 8 MiB took an 11 MB `.ms3d` → glb to 4 000, 3 500 and
/// 2 700 page faults (33.8, 33.3, 32.7 ms; 36.3 ms without), and a 112 MB one-mesh IQE → glb
/// to a peak of 189, 200 and 216 MB (186 MB without).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HEAP_STEP: i32 = 4 << 20;

/// The end of the part of the heap advised so far (0: the heap is not advised).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
static HEAP_ADVISED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Grows the main heap [`HEAP_STEP`] at a time, its whole 2 MiB pages then backed with
/// 2 MiB pages by [`HugePages`] as it grows, and keeps one heap per core: blocks below
/// [`HUGE_BLOCK`] come from the heaps, larger ones are mapped on their own (and advised
/// there). glibc on Linux only; elsewhere nothing changes.
///
/// A conversion makes many arrays of tens of kilobytes (a MilkShape joint's 2 000 keys, a
/// curve), each in fresh 4 KiB pages: 11 MB `.ms3d` → glb took 5 700 page faults and
/// 36–42 ms, about 4 000 faults and 31–34 ms with this (BENCHMARKS.md). glibc makes
/// up to eight heaps per core, which it grows a page at a time where no 2 MiB page can
/// form; one per core (`M_ARENA_MAX`) sends more of the work of other threads to the main
/// heap. One heap in all was as fast for that file but made readers that allocate on every
/// core wait for its lock: 30 MB SMD → IQM 156 ms with two heaps, 180 ms with one. The
/// price is each heap's free top kept for reuse, up to a step (see [`HEAP_STEP`]).
pub fn heap_per_core() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let heaps = i32::try_from(cores).unwrap_or(i32::MAX);
        // SAFETY: `mallopt` only sets glibc's allocation parameters, under its own lock;
        // the values are in the ranges it accepts (else it returns 0 and the old policy
        // stays). `sbrk(0)` only reads where the heap ends.
        #[allow(unsafe_code)]
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, heaps);
            libc::mallopt(libc::M_TOP_PAD, HEAP_STEP);
            libc::mallopt(libc::M_MMAP_THRESHOLD, HUGE_BLOCK as i32);
            let end = libc::sbrk(0) as usize;
            HEAP_ADVISED.store(
                end.next_multiple_of(HUGE_BLOCK),
                std::sync::atomic::Ordering::Relaxed,
            );
        }
    }
}

/// Advises 2 MiB pages for the whole 2 MiB pages the heap has grown by since the last
/// call (nothing before [`heap_per_core`]). A heap that shrank is advised again as it regrows.
fn advise_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::sync::atomic::Ordering::Relaxed;
        let advised = HEAP_ADVISED.load(Relaxed);
        if advised == 0 {
            return;
        }
        // SAFETY: `sbrk(0)` only reads where the heap ends.
        #[allow(unsafe_code)]
        let end = unsafe { libc::sbrk(0) } as usize / HUGE_BLOCK * HUGE_BLOCK;
        if end == advised
            || HEAP_ADVISED
                .compare_exchange(advised, end, Relaxed, Relaxed)
                .is_err()
        {
            return;
        }
        if end > advised {
            // SAFETY: the range lies inside the heap, which this process owns;
            // `MADV_HUGEPAGE` changes no content and no mapping, only which page size
            // backs it (its error, on a kernel without huge pages, changes nothing).
            #[allow(unsafe_code)]
            unsafe {
                libc::madvise(
                    advised as *mut libc::c_void,
                    end - advised,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
}
