//! The fast path for the lines a large file is made of: plain `vp vt vn vb fm fa pq`
//! lines, read straight from the bytes into the store without building lexemes.
//!
//! A 100 MB file of short lines is some 5 million of them; the general reader lexes each
//! with logos into a list of tokens, then looks every token's text up again. Here one pass
//! over the bytes finds the keyword and the numbers and stores them with the same store
//! calls as the general reader ([`crate::read`]). Anything unusual — a quote, a `#`, a
//! word that is not a number, more values than the command takes, a short face, a `vb`
//! index without weight, a last line without a newline — is undone and left to the general
//! reader, which warns or fails exactly as before. So the fast path never decides anything
//! the general reader would decide differently; it only skips work when there is nothing
//! to decide.

use crate::command::{Attribute, FaceBase, PoseKind};
use crate::error::Error;
use crate::store::{Kind, Store, attribute_param, base_param, pose_param};
use rigport_model_core::Budget;
use rigport_model_core::number::{Decimal, parse_i64, plain_decimal_prefix};

/// What the arguments of a fast-path command are.
#[derive(Clone, Copy)]
enum Shape {
    /// At most this many numbers.
    Floats(usize),
    /// Face indices: at least 3 integers.
    Indices,
    /// `vb`: pairs of joint index and weight.
    Pairs,
}

/// White space between tokens, as the lexer skips it (the newline ends the line).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// Length of the white space `bytes` start with.
fn spaces(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(bytes.len())
}

/// Length of the word `bytes` start with: up to white space or the newline.
fn word(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| is_space(b) || b == b'\n')
        .unwrap_or(bytes.len())
}

/// The kind, parameter and argument shape of a fast-path keyword.
fn command(keyword: &[u8]) -> Option<(Kind, u8, Shape)> {
    let attribute = |a: Attribute| {
        (
            Kind::Vertex,
            attribute_param(a),
            Shape::Floats(a.max_values()),
        )
    };
    Some(match keyword {
        b"vp" => attribute(Attribute::Position),
        b"vt" => attribute(Attribute::TexCoord),
        b"vn" => attribute(Attribute::Normal),
        b"vb" => (Kind::Blend, 0, Shape::Pairs),
        b"fm" => (Kind::Face, base_param(FaceBase::Mesh), Shape::Indices),
        b"fa" => (Kind::Face, base_param(FaceBase::File), Shape::Indices),
        b"pq" => (
            Kind::Pose,
            pose_param(PoseKind::Quaternion),
            Shape::Floats(PoseKind::Quaternion.max_values()),
        ),
        _ => return None,
    })
}

/// Whether `byte` ends a word (white space or the newline).
fn ends_word(byte: Option<&u8>) -> bool {
    byte.is_some_and(|&b| is_space(b) || b == b'\n')
}

/// The plain decimal `rest` starts with, and its length, if a space or the newline follows
/// it: the number is read without first finding the end of the word. `None` leaves the
/// word to [`word`] and the general number parser.
fn decimal_word(rest: &[u8]) -> Option<(Decimal, usize)> {
    plain_decimal_prefix(rest).filter(|&(_, len)| ends_word(rest.get(len)))
}

/// The run of at most 9 digits `text` starts with (a face index, a joint number) and its
/// length, 0 when `text` starts with no digit.
fn short_digits(text: &[u8]) -> (i64, usize) {
    let mut value = 0i64;
    let mut len = 0;
    while let Some(&byte) = text.get(len) {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 || len == 9 {
            break;
        }
        value = value * 10 + i64::from(digit);
        len += 1;
    }
    (value, len)
}

/// [`short_digits`], if a space or the newline follows them.
fn digits_word(rest: &[u8]) -> Option<(i64, usize)> {
    let (value, len) = short_digits(rest);
    (len > 0 && ends_word(rest.get(len))).then_some((value, len))
}

/// An integer as [`parse_i64`] reads it; short runs of digits (face indices, joint
/// numbers) without the call.
fn integer(text: &[u8]) -> Option<i64> {
    match short_digits(text) {
        (value, len) if len > 0 && len == text.len() => Some(value),
        _ => parse_i64(text),
    }
}

/// Reads the line starting at `start` (ending before `end`) into `store` if it is a plain
/// fast-path line; returns the offset just past its newline. `Ok(None)`, with nothing
/// stored, leaves the line to the general reader. The error is the one the general reader
/// would give for the same line: the store refusing the command (limits).
pub(crate) fn fast_line(
    src: &[u8],
    start: usize,
    end: usize,
    store: &mut Store,
    budget: &mut Budget,
) -> Result<Option<usize>, Error> {
    let line = src.get(start..end).unwrap_or_default();
    let mut at = spaces(line);
    let keyword_start = at;
    at += word(&line[at..]);
    let Some((kind, param, shape)) = command(&line[keyword_start..at]) else {
        return Ok(None);
    };
    let mark = store.mark();
    let mut count = 0;
    loop {
        at += spaces(&line[at..]);
        let first = match line.get(at) {
            Some(b'\n') => break,
            Some(&byte) => byte,
            // The last line of the file without a newline may be cut off: general reader.
            None => {
                store.rollback(&mark);
                return Ok(None);
            }
        };
        let rest = &line[at..];
        let float = match shape {
            Shape::Floats(_) => true,
            Shape::Indices => false,
            Shape::Pairs => count % 2 == 1,
        };
        // Nearly every word is a plain number followed by a space or the newline: read it
        // in the one pass that finds its end. Anything else takes the general route below,
        // which decides exactly what it always did.
        let stored = if matches!(shape, Shape::Floats(max) if count >= max) {
            false
        } else {
            let quick = if float {
                decimal_word(rest).map(|(decimal, len)| {
                    (len, store.push_decimal(decimal, &rest[..len]) == Some(true))
                })
            } else {
                digits_word(rest).map(|(value, len)| (len, store.push_int(value)))
            };
            match quick {
                Some((len, stored)) => {
                    at += len;
                    stored
                }
                None => {
                    let len = word(rest);
                    at += len;
                    let text = &rest[..len];
                    // A quoted name or a comment is not a number: the general reader says so.
                    first != b'"'
                        && first != b'#'
                        && match float {
                            true => store.push_float_text(text) == Some(true),
                            false => integer(text).is_some_and(|v| store.push_int(v)),
                        }
                }
            }
        };
        if !stored {
            store.rollback(&mark);
            return Ok(None);
        }
        count += 1;
    }
    let complete = match shape {
        Shape::Floats(_) => true,
        Shape::Indices => count >= 3,
        Shape::Pairs => count % 2 == 0,
    };
    if !complete {
        store.rollback(&mark);
        return Ok(None);
    }
    store.finish(kind, param, &mark, budget)?;
    Ok(Some(start + at + 1))
}

#[cfg(test)]
mod tests;
