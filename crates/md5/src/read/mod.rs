//! The reader: one pass over the lines, a block at a time, checks of every index against
//! what the file holds, warnings gathered per code.
//!
//! * [`notes`]: warnings per code, and errors in a strict read;
//! * [`cursor`]: the tokens of one line;
//! * [`state`]: the block being read and the facts the checks need;
//! * [`lines`]: the line state machine over a run of lines (which [`crate::parallel`] runs
//!   on several runs at once and joins);
//! * [`checks`]: index and count checks, per block and for the whole file.

mod checks;
mod cursor;
pub(crate) mod lines;
mod notes;
mod state;

use crate::error::{Detail, Error};
use crate::file::*;
use crate::lex::BOM;
use checks::check_file;
pub(crate) use lines::{Lines, read_lines};
use rigport_model_core::diagnostic::line_col;
use rigport_model_core::{ReadOptions, Report};

/// Reads a whole file: its lines on every core when it is large (see [`crate::parallel`]),
/// else in one pass, then the checks that need the whole file.
pub(crate) fn parse(src: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
    let bom = src.starts_with(BOM);
    let body = if bom { BOM.len() } else { 0 };
    #[cfg(feature = "parallel")]
    if let Some(lines) = crate::parallel::read_body(src, body, options) {
        return finish(src, bom, lines);
    }
    finish(src, bom, read_lines(src, body, options)?)
}

/// The checks that need the whole file, and the file.
pub(crate) fn finish(src: &[u8], bom: bool, lines: Lines) -> Result<(File, Report), Error> {
    let Lines {
        items,
        open,
        facts,
        mut notes,
        line_ending,
        any_token,
        drawn: _,
    } = lines;
    if let Some((_, opened, name)) = open {
        let (line, _) = line_col(src, opened.start);
        return Err(Error::at(
            opened,
            Detail::UnexpectedEof {
                block: name.to_owned(),
                line,
            },
        ));
    }
    if !any_token {
        return Err(Error::at(src.len()..src.len(), Detail::Empty));
    }
    let Some((kind, _)) = facts.kind else {
        return Err(Error::at(
            src.len()..src.len(),
            Detail::Inconsistent {
                message: "neither an md5mesh (numMeshes, joints, mesh) nor an md5anim \
                      (numFrames, hierarchy, baseframe, frame)"
                    .to_owned(),
            },
        ));
    };
    check_file(kind, &facts, &mut notes)?;
    let file = File {
        kind,
        items,
        line_ending: line_ending.unwrap_or_default(),
        final_newline: src.last() == Some(&b'\n'),
        bom,
    };
    Ok((file, notes.into_report(src)))
}
