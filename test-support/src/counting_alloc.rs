//! A global allocator that counts, per thread, the bytes currently allocated and their peak,
//! so a test can measure what one conversion needed while other threads run other cases.
//!
//! Install it in the test binary that measures:
//! `#[global_allocator] static ALLOC: rigport_test_support::counting_alloc::Counting = Counting;`
//!
//! Per thread, not process-wide, because the sweep spreads cases over worker threads and the
//! test harness runs tests in parallel; everything rigport does for one input happens on the
//! calling thread (the pipeline spawns no threads), so the per-thread peak is the case's peak.

// The one place in the workspace that needs `unsafe`: a `GlobalAlloc` implementation is an
// `unsafe impl` with `unsafe fn`s by definition. The crate root denies unsafe code (not
// forbid, which no module could relax) and only this module allows it.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Wraps [`System`], adding to the calling thread's counters.
pub struct Counting;

thread_local! {
    // `const` initialisers with no destructor: no lazy registration, so the allocator can
    // touch them at any time, even while the thread is being torn down.
    static CURRENT: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn add(delta: isize) {
    let _ = CURRENT.try_with(|current| {
        let now = current.get().wrapping_add(delta);
        current.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged and only
// adds bookkeeping on thread-local cells, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            add(layout.size() as isize);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            add(layout.size() as isize);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded contract.
        unsafe { System.dealloc(ptr, layout) };
        add(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded contract.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            add(new_size as isize - layout.size() as isize);
        }
        new
    }
}

/// Runs `f` and returns its result with the most bytes it held allocated at once on this
/// thread (above what the thread held when `f` started).
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = CURRENT.with(Cell::get);
    PEAK.with(|peak| peak.set(base));
    let result = f();
    let peak = PEAK.with(Cell::get);
    (result, usize::try_from(peak - base).unwrap_or(0))
}
