//! Reading a large file's lines on every core (feature `parallel`, on by default).
//!
//! MD5 is line oriented and no token spans a newline, but a line's meaning depends on the
//! block around it. The body is therefore cut only before lines that open a `mesh` or
//! `frame` block, where one reader of a well-formed file has no block open, and rayon
//! reads the pieces at once, each from a fresh state, with spans that are offsets in the
//! whole file. The pieces are joined in file order ([`Lines::append`]) into what one
//! reader would have read, with the same warnings in the same order.
//!
//! When the join could differ from one reader's pass (a piece fails, a block is left open
//! across a cut, the pieces disagree on the kind of file or both hold joints, or their
//! total overdraws the memory budget) the file is read again on one thread, which gives
//! that reader's result and names the very line that fails. Those are failures or files
//! no tool writes, so their cost does not matter.

use crate::read::lines::{Lines, read_lines};
use rayon::prelude::*;
use rigport_model_core::ReadOptions;
use std::ops::Range;

/// Bodies smaller than this are read on the calling thread: handing pieces to the thread
/// pool costs tens of microseconds, and a small file reads in about a millisecond anyway.
const MIN_PARALLEL_BYTES: usize = 1 << 20;

/// No piece is made smaller than this.
const MIN_PIECE_BYTES: usize = 256 << 10;

/// Reads the body `src[body..]` on the thread pool; `None` when it should be read on one
/// thread instead (a small body, one thread, no place to cut, or a join one reader could
/// have read otherwise: see the module docs).
pub(crate) fn read_body(src: &[u8], body: usize, options: &ReadOptions) -> Option<Lines> {
    let len = src.len().saturating_sub(body);
    let threads = rayon::current_num_threads();
    if len < MIN_PARALLEL_BYTES || threads < 2 {
        return None;
    }
    let count = threads.min(len / MIN_PIECE_BYTES);
    read_pieces(src, &split(src, body, count), options)
}

/// Splits `src[body..]` into at most `count` ranges of about equal length, each after the
/// first starting with a line that opens a `mesh` or `frame` block.
pub(crate) fn split(src: &[u8], body: usize, count: usize) -> Vec<Range<usize>> {
    rigport_model_core::pieces::cut_ranges(src.len(), body, count, |at| block_start_from(src, at))
}

/// The start of the first line at or after the line holding `from` (not the file's first)
/// that opens a `mesh` or `frame` block: after spaces and tabs, the word and then a space,
/// a tab or `{`.
fn block_start_from(src: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        let newline = memchr::memchr(b'\n', src.get(at..)?)?;
        let line = at + newline + 1;
        let rest = &src[line..];
        let indent = rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let text = &rest[indent..];
        let opens = [&b"mesh"[..], b"frame"].iter().any(|word| {
            text.starts_with(word) && matches!(text.get(word.len()), Some(b' ' | b'\t' | b'{'))
        });
        if opens {
            return Some(line);
        }
        at = line;
    }
}

/// Reads each range on the thread pool and joins the pieces (see [`read_body`]).
pub(crate) fn read_pieces(
    src: &[u8],
    ranges: &[Range<usize>],
    options: &ReadOptions,
) -> Option<Lines> {
    if ranges.len() < 2 {
        return None;
    }
    let pieces: Vec<Result<Lines, crate::Error>> = ranges
        .par_iter()
        .map(|range| read_lines(&src[..range.end], range.start, options))
        .collect();
    let mut joined: Option<Lines> = None;
    for piece in pieces {
        let piece = piece.ok()?;
        match &mut joined {
            None => joined = Some(piece),
            Some(lines) => {
                if !lines.append(piece) {
                    return None;
                }
            }
        }
    }
    let lines = joined?;
    (lines.drawn <= options.limits.budget().remaining()).then_some(lines)
}

#[cfg(test)]
mod tests;
