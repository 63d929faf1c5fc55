//! The reader: blocks in any order, each known block at most once, unknown blocks kept raw.

mod checks;
mod cursor;
#[cfg(feature = "parallel")]
mod pieces;
mod records;

use crate::file::{Block, File, UnknownBlock};
use crate::lexer::{Token, is_header_line, trim_end, trim_start};
use crate::{Detail, Error};
use cursor::Cursor;
use rigport_model_core::codes;
use rigport_model_core::diagnostic::line_col;
use rigport_model_core::{ReadOptions, Report};
use std::ops::Range;

/// The comment line every MilkShape ASCII file starts with.
pub(crate) const MAGIC: &[u8] = b"// MilkShape 3D ASCII";

/// A UTF-8 byte-order mark some editors put in front.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The known block words, in the order MilkShape writes them.
const KNOWN: [&str; 5] = ["Frames", "Frame", "Meshes", "Materials", "Bones"];

/// Where the first line starts once a byte-order mark and blank lines are passed.
fn content_start(src: &[u8]) -> usize {
    let after_bom = if src.starts_with(BOM) { BOM.len() } else { 0 };
    let rest = src.get(after_bom..).unwrap_or_default();
    after_bom
        + rest
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(rest.len())
}

/// Whether the input starts with the MilkShape ASCII header comment.
pub(crate) fn has_magic(src: &[u8]) -> bool {
    src.get(content_start(src)..)
        .is_some_and(|rest| rest.starts_with(MAGIC))
}

/// How large blocks are read: on every core (feature `parallel`), else on this thread.
#[cfg(feature = "parallel")]
type Split = Option<pieces::Split>;
#[cfg(not(feature = "parallel"))]
type Split = ();

/// Reads a whole file.
pub(crate) fn parse(src: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
    #[cfg(feature = "parallel")]
    let split = Some(pieces::Split::for_pool());
    #[cfg(not(feature = "parallel"))]
    let split = ();
    parse_split(src, options, split)
}

/// [`parse`], with large blocks read as `split` says.
fn parse_split(src: &[u8], options: &ReadOptions, split: Split) -> Result<(File, Report), Error> {
    let mut report = Report::default();
    if !has_magic(src) {
        if options.strict {
            return Err(Error::at(0..0, Detail::MissingMagic));
        }
        report.warn(
            codes::MISSING_MAGIC,
            "the file does not start with `// MilkShape 3D ASCII`; read it anyway",
        );
    }
    let start = if src.starts_with(BOM) { BOM.len() } else { 0 };
    let mut c = Cursor::new(src, start, options.limits.budget());
    let mut checks = checks::Checks::new(options.strict);
    let mut file = File::default();
    let mut seen: [Option<Range<usize>>; KNOWN.len()] = Default::default();

    while c.skip_newlines() {
        let (token, span) = c.token("a block header")?;
        if token != Token::Header {
            let found = rigport_model_core::diagnostic::excerpt(
                src.get(span.clone()).unwrap_or_default(),
                40,
            );
            let expected = "a block header such as `Meshes: 1`";
            let found = format!("`{found}`");
            return Err(Error::at(span, Detail::Unexpected { expected, found }));
        }
        let word = src.get(span.start..span.end - 1).unwrap_or_default();
        let Some(kind) = KNOWN.iter().position(|k| k.as_bytes() == word) else {
            file.blocks
                .push(Block::Unknown(unknown_block(&mut c, span)));
            continue;
        };
        if let Some(first) = &seen[kind] {
            let detail = Detail::DuplicateBlock {
                name: KNOWN[kind],
                first_line: line_col(src, first.start).0,
            };
            return Err(Error::at(span, detail));
        }
        seen[kind] = Some(span.clone());
        match known_block(&mut c, kind, &mut checks, split) {
            Ok(block) => file.blocks.push(block),
            Err(error) if is_truncation(&error, src) && !options.strict => {
                let line_start = src[..span.start]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
                let (line, _) = line_col(src, line_start);
                let (at_line, at_col) = line_col(src, error.span().map_or(0, |s| s.start));
                report.warn(
                    codes::DAMAGED_TAIL,
                    format!(
                        "{at_line}:{at_col}: {error}; the `{}:` block from line {line} to the end \
                         ({} bytes) is kept as it is but not interpreted",
                        KNOWN[kind],
                        src.len() - line_start
                    ),
                );
                file.damaged_tail = src[line_start..].to_vec();
                break;
            }
            Err(error) => return Err(error),
        }
    }
    checks.finish(&file, src, &mut report)?;
    Ok((file, report))
}

/// Whether the input simply ends inside what was being read: the file ran out, a count
/// promises more than is left, or the error sits on a last line with no line break after it
/// (a cut inside a quoted name or a number, `"Bone0` or `4e-`). Lenient reading keeps such a
/// tail raw with a warning.
fn is_truncation(error: &Error, src: &[u8]) -> bool {
    match error {
        Error::Format {
            detail: Detail::UnexpectedEof { .. } | Detail::CountExceedsInput { .. },
            ..
        } => true,
        _ => error
            .span()
            .is_some_and(|s| !src[s.start.min(src.len())..].contains(&b'\n')),
    }
}

/// The rest of a known block after its header word.
fn known_block(
    c: &mut Cursor,
    kind: usize,
    checks: &mut checks::Checks,
    #[cfg_attr(not(feature = "parallel"), allow(unused_variables))] split: Split,
) -> Result<Block, Error> {
    let (n, span) = c.int("the block's number (an integer)")?;
    c.end_line()?;
    Ok(match KNOWN[kind] {
        "Frames" => Block::Frames(n),
        "Frame" => Block::Frame(n),
        "Meshes" => {
            let count = records::mesh_count(c, n, span)?;
            #[cfg(feature = "parallel")]
            if let Some(meshes) = split.and_then(|split| pieces::meshes(c, count, checks, split)) {
                return Ok(Block::Meshes(meshes));
            }
            Block::Meshes(records::meshes(c, count, checks)?)
        }
        "Materials" => {
            let count = records::material_count(c, n, span)?;
            Block::Materials(records::materials(c, count)?)
        }
        _ => {
            let count = records::bone_count(c, n, span)?;
            #[cfg(feature = "parallel")]
            if let Some(bones) = split.and_then(|split| pieces::bones(c, count, checks, split)) {
                return Ok(Block::Bones(bones));
            }
            Block::Bones(records::bones(c, count)?)
        }
    })
}

/// An unknown block: the rest of its header line and every following line up to the next
/// block header, skipping blank and comment lines.
fn unknown_block(c: &mut Cursor, header_span: Range<usize>) -> UnknownBlock {
    let src = c.src();
    let rest = c.remainder();
    let (rest_of_header, mut consumed) = split_line(rest);
    let header_end = header_span.end + rest_of_header.len();
    let header = trim_end(src.get(header_span.start..header_end).unwrap_or_default()).to_vec();
    let mut lines = Vec::new();
    while consumed < rest.len() {
        let (line, len) = split_line(&rest[consumed..]);
        if is_header_line(line) {
            break;
        }
        let text = trim_start(trim_end(line));
        if !text.is_empty() && !text.starts_with(b"//") {
            lines.push(trim_end(line).to_vec());
        }
        consumed += len;
    }
    c.take_raw(consumed);
    UnknownBlock { header, lines }
}

/// The first line of `bytes` without its `\n`, and its length including the `\n`.
fn split_line(bytes: &[u8]) -> (&[u8], usize) {
    match bytes.iter().position(|&b| b == b'\n') {
        Some(end) => (&bytes[..end], end + 1),
        None => (bytes, bytes.len()),
    }
}
