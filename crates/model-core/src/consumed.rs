//! A reader telling its caller which input bytes it has finished with.
//!
//! A caller that holds a large input in a memory map can hand the pages a reader has
//! finished with back to the system while the reader goes on (`madvise(MADV_DONTNEED)`
//! on a read-only file mapping: the pages stay in the page cache and are read again, from
//! memory, if anything looks at them). A 100 MB text file then never sits in memory
//! beside the whole of what is read from it.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// Called with byte ranges of the input that the reader will not read again, except to
/// point at an error. Readers of large text files call it as they go, from any of the
/// threads reading the file; other readers never call it.
///
/// ```
/// use rigport_model_core::{Consumed, ReadOptions};
/// use std::sync::{Arc, Mutex};
///
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let log = Arc::clone(&seen);
/// let options = ReadOptions {
///     consumed: Consumed::new(move |range| log.lock().unwrap().push(range)),
///     ..ReadOptions::default()
/// };
/// options.consumed.call(0..4096);
/// assert_eq!(*seen.lock().unwrap(), [0..4096]);
/// ```
#[derive(Clone, Default)]
pub struct Consumed(Option<Arc<dyn Fn(Range<usize>) + Send + Sync>>);

impl Consumed {
    /// A hook that calls `f` with each range.
    pub fn new(f: impl Fn(Range<usize>) + Send + Sync + 'static) -> Self {
        Consumed(Some(Arc::new(f)))
    }

    /// Whether a caller listens (a reader may then skip working out the ranges).
    pub fn is_set(&self) -> bool {
        self.0.is_some()
    }

    /// Tells the caller that `range` is done with; nothing when no caller listens or the
    /// range is empty.
    pub fn call(&self, range: Range<usize>) {
        if let Some(f) = &self.0 {
            if !range.is_empty() {
                f(range);
            }
        }
    }
}

impl fmt::Debug for Consumed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_set() {
            "Consumed(set)"
        } else {
            "Consumed(none)"
        })
    }
}

impl PartialEq for Consumed {
    /// The same hook, or none on both sides.
    fn eq(&self, other: &Consumed) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Eq for Consumed {}
