//! Reading a large `Meshes:` or `Bones:` block on every core (feature `parallel`, on by
//! default).
//!
//! A block holds a count of records, each of a fixed shape of lines: a mesh is a header
//! line and three arrays (vertices, normals, triangles), each a count line and that many
//! lines; a bone is three lines and two key arrays. One record does not depend on another
//! (indices into other blocks are judged at the end). So a block of a megabyte or more is
//! first scanned for where each record starts, reading only the count lines, and cut into
//! about one run of records per thread; rayon reads the runs at once, each with a cursor
//! of its own, and the runs are joined in file order with their index findings, as one
//! reader would have read them.
//!
//! When the join could differ from one reader's pass (the scan cannot follow the shapes,
//! a run fails or does not end where the scan said, or the runs together overdraw the
//! budget) the block is read again on one thread, which names the failing line. Those are
//! failures, so their cost does not matter.

use super::checks::Checks;
use super::cursor::Cursor;
use super::records;
use super::split_line;
use crate::Error;
use crate::file::{Bone, Mesh};
use crate::lexer::trim_start;
use rayon::prelude::*;
use rigport_model_core::Budget;
use rigport_model_core::number::parse_i32;
use std::ops::Range;

/// How a reader cuts large blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Split {
    /// Blocks smaller than this are read on the calling thread.
    pub block: usize,
    /// Runs of records per block at most.
    pub count: usize,
}

impl Split {
    /// A megabyte-sized block or more, one run per thread of rayon's pool (none with one
    /// thread).
    pub(crate) fn for_pool() -> Self {
        Self {
            block: 1 << 20,
            count: rayon::current_num_threads(),
        }
    }
}

/// The lines of one record: a plain line, or a count line and that many lines.
#[derive(Clone, Copy)]
enum Part {
    Line,
    Array,
}

/// A mesh: its header line, then vertices, normals and triangles.
const MESH: &[Part] = &[Part::Line, Part::Array, Part::Array, Part::Array];

/// A bone: name, parent and bind lines, then position and rotation keys.
const BONE: &[Part] = &[Part::Line, Part::Line, Part::Line, Part::Array, Part::Array];

/// The next line from `at` that holds a token (not blank, not only a comment): its text
/// and where the line after it starts.
fn content_line(src: &[u8], mut at: usize) -> Option<(&[u8], usize)> {
    while at < src.len() {
        let (line, len) = split_line(&src[at..]);
        at += len;
        let text = trim_start(line);
        if !text.is_empty() && !text.starts_with(b"//") {
            return Some((text, at));
        }
    }
    None
}

/// Where the record of `shape` starting at `at` ends; `None` when a count line does not
/// start with a count or the input ends first.
fn record_end(src: &[u8], mut at: usize, shape: &[Part]) -> Option<usize> {
    for part in shape {
        let (text, next) = content_line(src, at)?;
        at = next;
        if let Part::Array = part {
            let word = text
                .iter()
                .position(|b| b.is_ascii_whitespace() || *b == b'/')
                .map_or(text, |end| &text[..end]);
            let count = usize::try_from(parse_i32(word)?).ok()?;
            for _ in 0..count {
                at = content_line(src, at)?.1;
            }
        }
    }
    Some(at)
}

/// Where each of `count` records of `shape` starts from `at`, and where the last ends.
fn record_starts(src: &[u8], at: usize, count: usize, shape: &[Part]) -> Option<Vec<usize>> {
    let mut starts = Vec::with_capacity(count + 1);
    starts.push(at);
    for _ in 0..count {
        starts.push(record_end(src, *starts.last()?, shape)?);
    }
    Some(starts)
}

/// Runs of records of about equal bytes, at most `runs`: ranges of record numbers.
fn runs(starts: &[usize], runs: usize) -> Vec<Range<usize>> {
    let records = starts.len() - 1;
    let (first, last) = (starts[0], starts[records]);
    let mut out = Vec::with_capacity(runs);
    let mut from = 0;
    for k in 1..runs {
        let target = first + (last - first) / runs * k;
        let cut = starts.partition_point(|&s| s < target).min(records);
        if cut > from {
            out.push(from..cut);
            from = cut;
        }
    }
    if from < records {
        out.push(from..records);
    }
    out
}

/// One run as its cursor read it.
struct Run<T> {
    records: Vec<T>,
    checks: Checks,
    drawn: u64,
}

/// Reads `starts[run.start]..starts[run.end]` as `run.len()` records with a cursor of its
/// own; `None` when the run fails or its records do not end where the scan said.
fn read_run<T>(
    src: &[u8],
    starts: &[usize],
    run: Range<usize>,
    budget: Budget,
    strict: bool,
    read: impl Fn(&mut Cursor, &mut Checks) -> Result<T, Error>,
) -> Option<Run<T>> {
    let end = starts[run.end];
    let mut cursor = Cursor::new(&src[..end], starts[run.start], budget);
    let mut checks = Checks::new(strict);
    let mut records = Vec::with_capacity(run.len());
    for _ in run {
        records.push(read(&mut cursor, &mut checks).ok()?);
    }
    if cursor.skip_newlines() {
        return None;
    }
    let drawn = budget.remaining() - cursor.budget.remaining();
    Some(Run {
        records,
        checks,
        drawn,
    })
}

/// Reads `count` records of `shape` from the cursor's place in runs on the thread pool and
/// moves the cursor past them; `None` (the cursor unmoved) when they should be read on one
/// thread (see the module docs).
fn read_block<T: Send>(
    c: &mut Cursor,
    checks: &mut Checks,
    split: Split,
    count: usize,
    shape: &[Part],
    read: impl Fn(&mut Cursor, &mut Checks) -> Result<T, Error> + Sync,
) -> Option<Vec<T>> {
    let src = c.src();
    let at = c.pos();
    if split.count < 2 || count < 2 || src.len() - at < split.block {
        return None;
    }
    let starts = record_starts(src, at, count, shape)?;
    if starts[count] - at < split.block {
        return None;
    }
    let runs = runs(&starts, split.count);
    if runs.len() < 2 {
        return None;
    }
    let (budget, strict) = (c.budget, checks.strict());
    let read_runs: Vec<Option<Run<T>>> = runs
        .into_par_iter()
        .map(|run| read_run(src, &starts, run, budget, strict, &read))
        .collect();
    let mut joined = Vec::with_capacity(read_runs.len());
    let mut drawn = 0u64;
    for run in read_runs {
        let run = run?;
        drawn = drawn.saturating_add(run.drawn);
        joined.push(run);
    }
    // Drawn as one reader would have; more than is left means one reader fails somewhere.
    c.budget.reserve("records", 1, drawn).ok()?;
    let mut records = Vec::with_capacity(count);
    for run in joined {
        records.extend(run.records);
        checks.append(run.checks);
    }
    c.take_raw(starts[count] - at);
    Some(records)
}

/// [`records::meshes`] in runs on the thread pool, or `None`.
pub(crate) fn meshes(
    c: &mut Cursor,
    count: usize,
    checks: &mut Checks,
    split: Split,
) -> Option<Vec<Mesh>> {
    read_block(c, checks, split, count, MESH, records::mesh)
}

/// [`records::bones`] in runs on the thread pool, or `None`.
pub(crate) fn bones(
    c: &mut Cursor,
    count: usize,
    checks: &mut Checks,
    split: Split,
) -> Option<Vec<Bone>> {
    read_block(c, checks, split, count, BONE, |c, _| records::bone(c))
}

#[cfg(test)]
mod tests;
