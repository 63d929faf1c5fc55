//! Reading a large file's commands on every core (feature `parallel`, on by default).
//!
//! IQE is line oriented and no token spans a newline, so the body splits at line
//! boundaries into chunks that rayon reads at once, each into its own [`Store`] and
//! [`Notes`] with spans that are offsets in the whole file. The chunks are then joined in
//! file order, without copying, into a store holding the commands one reader would have
//! read, value for value, with the same warnings in the same order; the first chunk that fails gives the error one reader would
//! have met first (every earlier chunk read cleanly), already pointing at its line.
//!
//! A calling thread outside the pool follows the chunks as they come in (`Follow`): it
//! walks each chunk's commands once the chunks before it are read, while the pool reads
//! the rest.
//!
//! What one reader decides from everything before a line is settled while joining: a
//! `comment` section ends the file (later chunks are dropped), and the allocation budget is
//! checked on the chunks' total. When that total overdraws the budget, or offsets outgrow
//! 32 bits, the file is read again on one thread, which names the very command that fails.
//! Those are failures anyway, so their cost does not matter.

use crate::error::Error;
use crate::notes::Notes;
use crate::store::{Follow, Store};
use rayon::prelude::*;
use rigport_model_core::{Budget, ReadOptions};
use std::ops::Range;
use std::sync::{Condvar, Mutex, PoisonError};

/// The one-thread reader of a range of command lines (`read::parse_lines`), handed in by the
/// caller so this module does not depend on the reader that uses it: it reads `range` of
/// `src` into the store, drawing from the budget, and returns where a `comment` section
/// starts.
pub(crate) type ReadLines = fn(
    &[u8],
    Range<usize>,
    &ReadOptions,
    &mut Notes,
    &mut Store,
    &mut Budget,
) -> Result<Option<usize>, Error>;

/// Bodies smaller than this are read on the calling thread: handing chunks to the thread
/// pool costs tens of microseconds, and a small file reads in about a millisecond anyway.
pub(crate) const MIN_PARALLEL_BYTES: usize = 1 << 20;

/// No chunk is made smaller than this: each chunk adds a join and a few allocations.
const MIN_CHUNK_BYTES: usize = 256 << 10;

/// Chunks per thread, unless the file is large (see [`MAX_CHUNK_BYTES`]): several, so that
/// the caller can walk the first chunks' commands ([`Follow`]) while the last are read.
const CHUNKS_PER_THREAD: usize = 4;

/// No chunk of a large file is made larger than this. Each chunk's commands are a segment
/// of the store, and a conversion frees the segments whose meshes it has made
/// ([`Store::release`]): smaller segments are freed sooner, so a 100 MB file's commands
/// shrink while its model grows instead of being held whole beside it.
const MAX_CHUNK_BYTES: usize = 8 << 20;

/// One chunk as its thread read it.
struct Chunk {
    store: Store,
    notes: Notes,
    /// What the [`ReadLines`] function returned: where the comment section starts, or the error.
    read: Result<Option<usize>, Error>,
    /// Bytes the chunk drew from its own copy of the budget.
    drawn: u64,
}

/// Reads the body `src[body..]` on the thread pool. `None` when it should be read on one
/// thread instead: a small body, a pool of one thread and a body of one chunk, or a failure
/// only one reader can name exactly (see the module docs). A body of more than one
/// [`MAX_CHUNK_BYTES`] chunk is cut even for a pool of one thread, so that a conversion can
/// free its segments one by one.
pub(crate) fn parse_body(
    src: &[u8],
    body: usize,
    options: &ReadOptions,
    notes: &mut Notes,
    read_lines: ReadLines,
    follow: Follow<'_>,
) -> Option<Result<(Store, Option<usize>), Error>> {
    let len = src.len().saturating_sub(body);
    let threads = rayon::current_num_threads();
    if len < MIN_PARALLEL_BYTES {
        return None;
    }
    let count = (threads * CHUNKS_PER_THREAD)
        .max(len.div_ceil(MAX_CHUNK_BYTES))
        .min(len / MIN_CHUNK_BYTES);
    if count < 2 {
        return None;
    }
    parse_chunks(
        src,
        &split(src, body, count),
        options,
        notes,
        read_lines,
        follow,
    )
}

/// Splits `src[body..]` into at most `count` ranges of about equal length, each ending
/// just after a newline (the last one at the end of the file).
pub(crate) fn split(src: &[u8], body: usize, count: usize) -> Vec<Range<usize>> {
    let after_newline = |at: usize| {
        let newline = src.get(at..)?.iter().position(|&b| b == b'\n')?;
        Some(at + newline + 1)
    };
    rigport_model_core::pieces::cut_ranges(src.len(), body, count, after_newline)
}

/// Reads each range on the thread pool and joins the chunks (see [`parse_body`]); every
/// chunk the store is made of is handed to `follow` first, in order. With a calling thread
/// outside rayon's pool, each chunk is followed as soon as it and the ones before it are
/// read, while the pool reads the rest. When the result is `None`, what `follow` was given
/// is not the file (the caller reads it on one thread).
pub(crate) fn parse_chunks(
    src: &[u8],
    ranges: &[Range<usize>],
    options: &ReadOptions,
    notes: &mut Notes,
    read_lines: ReadLines,
    follow: Follow<'_>,
) -> Option<Result<(Store, Option<usize>), Error>> {
    let limit = options.limits.budget().remaining();
    // Each chunk's store is allocated here, on the calling thread, with room for its text:
    // the allocator then hands its memory back to this thread when the file is dropped,
    // for the conversion's later allocations, instead of leaving it with an idle worker.
    // The room reserved (about 2.4 bytes per byte of text) stays within the allocation
    // limit: a third of it, shared by the chunks.
    let room = usize::try_from(limit / 3 / ranges.len().max(1) as u64).unwrap_or(usize::MAX);
    let work: Vec<(Range<usize>, Store)> = ranges
        .iter()
        .map(|range| (range.clone(), Store::for_text(range.len().min(room))))
        .collect();
    let read = |(range, store)| read_chunk(src, range, store, options, read_lines, limit);
    let mut chunks: Vec<Chunk> = match rayon::current_thread_index() {
        None => read_following(work, read, follow),
        // A worker waiting for chunks could wait for itself: it reads them, then follows.
        Some(_) => {
            let chunks: Vec<Chunk> = work.into_par_iter().map(read).collect();
            let mut following = true;
            for chunk in &chunks {
                following = follow_next(chunk, following, follow);
            }
            chunks
        }
    };
    // The chunks one reader would have read: up to the first that fails or holds the
    // comment section.
    let mut kept = 0;
    let mut drawn = 0u64;
    for chunk in &chunks {
        kept += 1;
        drawn = drawn.saturating_add(chunk.drawn);
        match &chunk.read {
            // Its own budget ran out, so the shared one would have too, maybe earlier.
            Err(Error::Limit { .. }) => return None,
            Err(_) | Ok(Some(_)) => break,
            Ok(None) => {}
        }
    }
    if drawn > limit {
        return None;
    }
    chunks.truncate(kept);
    if let Some(Chunk { read: Err(_), .. }) = chunks.last() {
        return chunks.pop().and_then(|chunk| chunk.read.err()).map(Err);
    }
    let mut joined = Notes::default();
    let mut store: Option<Store> = None;
    let mut comment = None;
    for chunk in chunks {
        match &mut store {
            None => store = Some(chunk.store),
            // The chunks' segments are kept as they are, nothing is copied.
            Some(store) => store.append(chunk.store)?,
        }
        joined.append(chunk.notes);
        comment = chunk.read.ok().flatten();
    }
    let store = store.unwrap_or_default();
    notes.append(joined);
    Some(Ok((store, comment)))
}

/// Reads `range` of `src` into `store` with a budget of its own (`limit` bytes).
fn read_chunk(
    src: &[u8],
    range: Range<usize>,
    mut store: Store,
    options: &ReadOptions,
    read_lines: ReadLines,
    limit: u64,
) -> Chunk {
    let mut notes = Notes::default();
    let mut budget = options.limits.budget();
    let read = read_lines(src, range, options, &mut notes, &mut store, &mut budget);
    // The room reserved is touched in 2 MiB pages (the binary's allocator asks for them):
    // up to a page per array beyond the commands, until the chunks are joined. Given back
    // now, it is not held beside what the caller makes of the chunks meanwhile.
    store.shrink_to_fit();
    Chunk {
        store,
        notes,
        read,
        drawn: limit - budget.remaining(),
    }
}

/// Hands `chunk` to `follow` if it is one of the store's (`following`: every chunk before
/// it read to its end); whether the chunks after it still are.
fn follow_next(chunk: &Chunk, following: bool, follow: Follow<'_>) -> bool {
    if following && chunk.read.is_ok() {
        follow(&chunk.store);
    }
    following && matches!(chunk.read, Ok(None))
}

/// A chunk's place while the chunks are read: not yet read, or read (`None`: its reader
/// stopped, which only a panic does).
enum Slot {
    Reading,
    Done(Option<Box<Chunk>>),
}

/// Puts the chunk read (or nothing, when its reader unwinds) in its slot when dropped,
/// and wakes the thread following the chunks.
struct Deliver<'s> {
    slots: &'s Mutex<Vec<Slot>>,
    ready: &'s Condvar,
    at: usize,
    chunk: Option<Box<Chunk>>,
}

impl Drop for Deliver<'_> {
    fn drop(&mut self) {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(slot) = slots.get_mut(self.at) {
            *slot = Slot::Done(self.chunk.take());
        }
        self.ready.notify_all();
    }
}

/// Reads the chunks of `work` on the thread pool while this thread, which is none of its
/// workers, follows them in order as they come in.
fn read_following(
    work: Vec<(Range<usize>, Store)>,
    read: impl Fn((Range<usize>, Store)) -> Chunk + Sync,
    follow: Follow<'_>,
) -> Vec<Chunk> {
    let slots = Mutex::new(work.iter().map(|_| Slot::Reading).collect::<Vec<_>>());
    let ready = Condvar::new();
    let mut chunks = Vec::with_capacity(work.len());
    let count = work.len();
    rayon::in_place_scope(|scope| {
        for (at, part) in work.into_iter().enumerate() {
            let (slots, ready, read) = (&slots, &ready, &read);
            scope.spawn(move |_| {
                let mut deliver = Deliver {
                    slots,
                    ready,
                    at,
                    chunk: None,
                };
                deliver.chunk = Some(Box::new(read(part)));
            });
        }
        let mut following = true;
        for at in 0..count {
            let mut guard = slots.lock().unwrap_or_else(PoisonError::into_inner);
            while matches!(guard.get(at), Some(Slot::Reading)) {
                guard = ready.wait(guard).unwrap_or_else(PoisonError::into_inner);
            }
            let slot = guard
                .get_mut(at)
                .map(|s| std::mem::replace(s, Slot::Done(None)));
            drop(guard);
            // A reader that panicked: the scope passes its panic on once every task ends.
            let Some(Slot::Done(Some(chunk))) = slot else {
                break;
            };
            following = follow_next(&chunk, following, follow);
            chunks.push(*chunk);
        }
    });
    chunks
}

#[cfg(test)]
mod tests;
