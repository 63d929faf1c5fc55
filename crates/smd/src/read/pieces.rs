//! Reading a large `skeleton` or `triangles` block on every core (feature `parallel`, on
//! by default).
//!
//! A block's records do not depend on each other: a pose needs only the `time` line before
//! it, a triangle only its own four lines, and both only the bone IDs of the `nodes` block.
//! So a block of a megabyte or more is first scanned for its `end` line and for places
//! where a record starts: `time` lines, and every fourth data line of `triangles` (a
//! material line; blank and comment lines do not count). The block is cut at a few of
//! those places, rayon reads the pieces at once, each with a reader of its own that knows
//! the bone IDs, line numbers and budget left, and the pieces are joined in file order: the
//! lines one reader would have read, with the same warnings (the first 32 located, the
//! rest counted) and the same materials shared.
//!
//! When the join could differ from one reader's pass (a piece fails, for instance where
//! `end` stands inside a triangle, or the pieces together overdraw the budget) the block is
//! read again on one thread, which names the failing line. Those are failures, so their
//! cost does not matter.

use super::{Kind, Line, Lines, Reader, is_end, kind};
use crate::error::Error;
use crate::file::{SkeletonLine, TriangleLine};
use rayon::prelude::*;
use rigport_model_core::Report;
use std::collections::HashSet;

/// How a reader cuts large blocks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Split {
    /// Blocks smaller than this are read on the calling thread.
    pub block: usize,
    /// No piece is made smaller than this.
    pub piece: usize,
    /// Pieces per block at most.
    pub count: usize,
}

impl Split {
    /// A megabyte-sized block or more, in pieces of at least 256 KiB, one per thread of
    /// rayon's pool (none with one thread).
    pub(crate) fn for_pool() -> Self {
        Self {
            block: 1 << 20,
            piece: 256 << 10,
            count: rayon::current_num_threads(),
        }
    }
}

/// A block whose records can be read in pieces.
pub(super) trait Body {
    /// The block's keyword.
    const KEYWORD: &'static str;
    /// One line of the block as the file keeps it.
    type Line: Send;
    /// Whether a data line, the `index`th of the block (from 0), starts a record.
    fn starts_record(index: usize, line: &Line<'_>) -> bool;
    /// Reads the block's lines up to `end` or the end of the lines (see
    /// `Reader::skeleton_lines`).
    fn read(reader: &mut Reader<'_>, out: &mut Vec<Self::Line>) -> Result<bool, Error>;
    /// Shares the materials of the lines with those `reader` has met (triangles only).
    fn share_materials(_reader: &mut Reader<'_>, _lines: &mut [Self::Line]) {}
}

/// A `skeleton` block: records start at `time` lines.
pub(super) struct Skeleton;

impl Body for Skeleton {
    const KEYWORD: &'static str = "skeleton";
    type Line = SkeletonLine;
    fn starts_record(_: usize, line: &Line<'_>) -> bool {
        matches!(line.fields().token(), Some((b"time", _)))
    }
    fn read(reader: &mut Reader<'_>, out: &mut Vec<SkeletonLine>) -> Result<bool, Error> {
        reader.skeleton_lines(out)
    }
}

/// A `triangles` block: a material line and three vertex lines per triangle.
pub(super) struct Triangles;

impl Body for Triangles {
    const KEYWORD: &'static str = "triangles";
    type Line = TriangleLine;
    fn starts_record(index: usize, _: &Line<'_>) -> bool {
        index % 4 == 0
    }
    fn read(reader: &mut Reader<'_>, out: &mut Vec<TriangleLine>) -> Result<bool, Error> {
        reader.triangle_lines(out)
    }
    fn share_materials(reader: &mut Reader<'_>, lines: &mut [TriangleLine]) {
        for line in lines {
            if let TriangleLine::Triangle(triangle) = line {
                triangle.material = reader.material(&triangle.material.clone());
            }
        }
    }
}

/// Where a piece starts: its first byte and the number of the line before it.
#[derive(Clone, Copy)]
struct Start {
    pos: usize,
    number: usize,
}

/// What a scan of a block found: where its pieces start (the first at the block's first
/// line) and its `end` line, if any.
struct Scan {
    starts: Vec<Start>,
    /// The `end` line: where it starts and the reader's place after it.
    end: Option<(usize, Start)>,
    /// The reader's place at the end of the input, for a block without `end`.
    last: Start,
}

/// Scans the block from the reader's place for its end and record starts about
/// `piece` bytes apart. An `end` inside a triangle ends the scan too: the piece before it
/// then fails, and the block is read again on one thread.
fn scan<B: Body>(reader: &Reader<'_>, piece: usize) -> Scan {
    let first = Start {
        pos: reader.lines.pos,
        number: reader.lines.number,
    };
    let mut lines = Lines {
        src: reader.lines.src,
        pos: first.pos,
        number: first.number,
    };
    let mut starts = vec![first];
    let mut data = 0usize;
    let mut before = first;
    while let Some(line) = lines.next() {
        if matches!(kind(&line), Kind::Data) {
            if is_end(&line) {
                let after = Start {
                    pos: lines.pos.min(lines.src.len()),
                    number: lines.number,
                };
                return Scan {
                    starts,
                    end: Some((line.start, after)),
                    last: after,
                };
            }
            let far = line.start >= starts[starts.len() - 1].pos + piece.max(1);
            if far && B::starts_record(data, &line) {
                starts.push(before);
            }
            data += 1;
        }
        before = Start {
            pos: lines.pos.min(lines.src.len()),
            number: lines.number,
        };
    }
    Scan {
        starts,
        end: None,
        last: before,
    }
}

/// One piece as its reader read it.
struct Piece<L> {
    lines: Vec<L>,
    report: Report,
    warnings: usize,
    last_code: rigport_model_core::Code,
    drawn: u64,
}

/// Reads the block the reader is at in pieces on the thread pool and moves the reader past
/// it; `None` (the reader unmoved) when it should be read on one thread: a small block, one
/// thread, no place to cut, or a join one reader could have read otherwise (see the module
/// docs). The caller then reads it.
pub(super) fn read_block<B: Body>(
    reader: &mut Reader<'_>,
    opened: &Line<'_>,
) -> Option<Result<Vec<B::Line>, Error>> {
    let split = reader.split?;
    let threads = split.count;
    let rest = reader.lines.src.len().saturating_sub(reader.lines.pos);
    if threads < 2 || rest < split.block {
        return None;
    }
    let scan = scan::<B>(reader, split.piece);
    let end = scan
        .end
        .as_ref()
        .map_or(reader.lines.src.len(), |(at, _)| *at);
    let len = end - reader.lines.pos;
    if len < split.block {
        return None;
    }
    // About one piece per thread, at the scanned record starts.
    let mut starts = Vec::with_capacity(threads);
    for start in &scan.starts {
        let target = reader.lines.pos + len / threads * starts.len();
        if start.pos >= target {
            starts.push(*start);
        }
    }
    if starts.len() < 2 {
        return None;
    }
    let ends: Vec<usize> = starts.iter().skip(1).map(|s| s.pos).chain([end]).collect();
    let pieces: Vec<Result<Piece<B::Line>, Error>> = starts
        .par_iter()
        .zip(&ends)
        .map(|(start, &end)| read_piece::<B>(reader, *start, end))
        .collect();
    let mut drawn = 0u64;
    let mut joined = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let piece = piece.ok()?;
        drawn = drawn.saturating_add(piece.drawn);
        joined.push(piece);
    }
    // Drawn as one reader would have; more than is left means one reader fails somewhere.
    reader.budget.reserve("block lines", 1, drawn).ok()?;
    let mut read = Vec::new();
    for mut piece in joined {
        B::share_materials(reader, &mut piece.lines);
        read.append(&mut piece.lines);
        let listed = super::MAX_WARNINGS.saturating_sub(reader.warnings);
        reader
            .report
            .notices
            .extend(piece.report.notices.into_iter().take(listed));
        reader.warnings += piece.warnings;
        if piece.warnings > 0 {
            reader.last_code = piece.last_code;
        }
    }
    let after = scan.end.as_ref().map_or(scan.last, |(_, after)| *after);
    reader.lines.pos = after.pos;
    reader.lines.number = after.number;
    if scan.end.is_none()
        && let Err(error) = reader.unclosed(B::KEYWORD, opened)
    {
        return Some(Err(error));
    }
    Some(Ok(read))
}

/// Reads `src[start.pos..end]` of the block with a reader of its own.
fn read_piece<B: Body>(
    reader: &Reader<'_>,
    start: Start,
    end: usize,
) -> Result<Piece<B::Line>, Error> {
    let mut own = Reader {
        src: reader.src,
        lines: Lines {
            src: &reader.lines.src[..end],
            pos: start.pos,
            number: start.number,
        },
        strict: reader.strict,
        budget: reader.budget,
        report: Report::default(),
        warnings: 0,
        last_code: reader.last_code,
        ids: reader.ids.clone(),
        materials: HashSet::new(),
        last_material: None,
        split: None,
    };
    let mut lines = Vec::new();
    B::read(&mut own, &mut lines)?;
    Ok(Piece {
        lines,
        report: own.report,
        warnings: own.warnings,
        last_code: own.last_code,
        drawn: reader.budget.remaining() - own.budget.remaining(),
    })
}

#[cfg(test)]
mod tests;
