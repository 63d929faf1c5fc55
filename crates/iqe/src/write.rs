//! The canonical text layout: header, then every command in file order, one per line,
//! single spaces, LF endings, shortest round-trip numbers, quoted names; vertex attributes
//! after `vp` and mesh/animation settings indented by a tab; a blank line before each
//! `mesh`, `animation` and `frame` and before a run of joints or vertex array declarations.
//! Command order is never changed because it carries meaning in IQE (the current mesh,
//! smoothing state, the current frame). Writing what was read twice gives the same bytes.

use crate::command::{Attribute, FaceBase, VertexArrayDecl};
use crate::lines::HEADER;
use crate::packed::{decimal_parts, packed_f64};
use crate::store::{CommandRef, Store, Values};
use std::io::{self, Write};

/// Bytes gathered before they are handed to the writer.
const BUFFER: usize = 64 * 1024;

/// Writes a file's parts in the canonical layout.
pub(crate) fn write_file<W: Write>(
    mut out: W,
    header_extra: &[u8],
    commands: &Store,
    comment: Option<&[u8]>,
) -> io::Result<()> {
    out.write_all(HEADER)?;
    out.write_all(header_extra)?;
    out.write_all(b"\n\n")?;
    let mut previous: Option<CommandRef<'_>> = None;
    // Lines gather in one buffer handed to the writer in large pieces: one write per
    // 64 KiB instead of one per line (a system call each on an unbuffered file).
    let mut line = Vec::with_capacity(BUFFER + 1024);
    let count = commands.len();
    for (i, command) in commands.iter().enumerate() {
        if line.len() >= BUFFER {
            out.write_all(&line)?;
            line.clear();
        }
        if needs_blank_line(previous.as_ref(), &command) {
            line.push(b'\n');
        }
        if is_indented(&command) {
            line.push(b'\t');
        }
        write_command(&mut line, &command);
        // A raw last line may be a cut-off command the lenient reader kept; it reads back
        // only while it stays cut off, so it gets no line ending.
        let raw_tail =
            i + 1 == count && comment.is_none() && matches!(command, CommandRef::Unknown(_));
        if !raw_tail {
            line.push(b'\n');
        }
        previous = Some(command);
    }
    out.write_all(&line)?;
    if let Some(comment) = comment {
        if previous.is_some() {
            out.write_all(b"\n")?;
        }
        out.write_all(b"comment\n")?;
        out.write_all(comment)?;
    }
    Ok(())
}

fn needs_blank_line(previous: Option<&CommandRef<'_>>, command: &CommandRef<'_>) -> bool {
    let Some(previous) = previous else {
        return false;
    };
    match command {
        CommandRef::Mesh(_) | CommandRef::Animation(_) | CommandRef::Frame(_) => true,
        CommandRef::Joint { .. } => {
            !matches!(previous, CommandRef::Joint { .. } | CommandRef::Pose(..))
        }
        CommandRef::VertexArray(_) => !matches!(previous, CommandRef::VertexArray(_)),
        _ => false,
    }
}

fn is_indented(command: &CommandRef<'_>) -> bool {
    match command {
        CommandRef::Vertex(attribute, _) => *attribute != Attribute::Position,
        CommandRef::Blend(_)
        | CommandRef::SmoothIndex(_)
        | CommandRef::Material(_)
        | CommandRef::Loop
        | CommandRef::Framerate(_) => true,
        _ => false,
    }
}

/// Appends one command without its line ending.
pub(crate) fn write_command(out: &mut Vec<u8>, command: &CommandRef<'_>) {
    match command {
        CommandRef::Comment(text) => {
            out.push(b'#');
            out.extend_from_slice(text);
        }
        CommandRef::Vertex(attribute, values) => stored_numbers(out, attribute.keyword(), values),
        CommandRef::Pose(kind, values) => stored_numbers(out, kind.keyword(), values),
        CommandRef::Blend(pairs) => {
            out.extend_from_slice(b"vb");
            for (k, words) in pairs.words().chunks_exact(2).enumerate() {
                let (index, weight) = pairs.get(k).unwrap_or_default();
                push_integer(out, index);
                out.push(b' ');
                push_stored_number(out, words[1], || weight);
            }
        }
        CommandRef::SmoothIndex(n) => integers(out, "vs", [*n]),
        CommandRef::VertexArray(decl) => vertex_array(out, decl),
        CommandRef::Mesh(name) => optional_name(out, "mesh", *name),
        CommandRef::Material(name) => optional_name(out, "material", *name),
        CommandRef::Animation(name) => optional_name(out, "animation", *name),
        CommandRef::Face(base, indices) => {
            let keyword = match base {
                FaceBase::File => "fa",
                FaceBase::Mesh => "fm",
            };
            integers(out, keyword, indices.iter());
        }
        CommandRef::FaceSmooth(flags) => integers(out, "fs", flags.iter()),
        CommandRef::SmoothUv(n) => integers(out, "smoothuv", *n),
        CommandRef::SmoothGroup(n) => integers(out, "smoothgroup", *n),
        CommandRef::SmoothAngle(a) => numbers(out, "smoothangle", a.as_slice()),
        CommandRef::Joint { name, parent } => {
            out.extend_from_slice(b"joint ");
            push_name(out, name);
            if let Some(parent) = parent {
                push_integer(out, *parent);
            }
        }
        CommandRef::Loop => out.extend_from_slice(b"loop"),
        CommandRef::Framerate(rate) => numbers(out, "framerate", std::slice::from_ref(rate)),
        CommandRef::Frame(label) => {
            out.extend_from_slice(b"frame");
            if let Some(label) = label {
                out.push(b' ');
                push_word(out, label);
            }
        }
        CommandRef::Unknown(raw) => out.extend_from_slice(raw),
    }
}

fn numbers(out: &mut Vec<u8>, keyword: &str, values: &[f64]) {
    out.extend_from_slice(keyword.as_bytes());
    for &v in values {
        out.push(b' ');
        push_number(out, v);
    }
}

/// Stored numbers: a packed decimal is printed from its digits (no float formatting), any
/// other value as [`push_number`] prints it — the same text either way.
fn stored_numbers(out: &mut Vec<u8>, keyword: &str, values: &Values<'_, f64>) {
    out.extend_from_slice(keyword.as_bytes());
    for (i, &word) in values.words().iter().enumerate() {
        out.push(b' ');
        push_stored_number(out, word, || values.get(i).unwrap_or(0.0));
    }
}

/// One stored number: from its digits when packed, else its value (`wide` gives it for a
/// wide word) through [`push_number`].
fn push_stored_number(out: &mut Vec<u8>, word: u32, wide: impl FnOnce() -> f64) {
    let printed = decimal_parts(word).is_some_and(|(m, f)| push_decimal(out, m, f));
    if !printed {
        // Wide, or packed but too small for positional text.
        push_number(out, packed_f64(word).unwrap_or_else(wide));
    }
}

fn integers(out: &mut Vec<u8>, keyword: &str, values: impl IntoIterator<Item = i64>) {
    out.extend_from_slice(keyword.as_bytes());
    for v in values {
        push_integer(out, v);
    }
}

/// A space and the integer, formatted straight into the buffer (no `fmt` machinery).
fn push_integer(out: &mut Vec<u8>, value: i64) {
    out.push(b' ');
    if value < 0 {
        out.push(b'-');
    }
    push_digits(out, value.unsigned_abs());
}

/// The decimal digits of `n`.
fn push_digits(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(digits(n, &mut [0; 20]));
}

/// The decimal digits of `n`, written at the end of `buffer`.
fn digits(mut n: u64, buffer: &mut [u8; 20]) -> &[u8] {
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buffer[at..]
}

/// Prints `mantissa / 10^fraction_digits` positionally, exactly as [`push_number`] prints
/// that value: a packed decimal is its own shortest round-trip text (see
/// [`crate::packed`]). Returns `false`, printing nothing, for magnitudes below 10⁻⁵, which
/// [`push_number`] writes with an exponent.
fn push_decimal(out: &mut Vec<u8>, mantissa: i32, fraction_digits: u32) -> bool {
    if mantissa == 0 {
        out.push(b'0');
        return true;
    }
    let mut buffer = [0; 20];
    let digits = digits(u64::from(mantissa.unsigned_abs()), &mut buffer);
    let (d, f) = (digits.len(), fraction_digits as usize);
    // The leading digit stands for 10^(d − 1 − f).
    if d + 5 < f + 1 {
        return false;
    }
    if mantissa < 0 {
        out.push(b'-');
    }
    if f == 0 {
        out.extend_from_slice(digits);
    } else if d > f {
        out.extend_from_slice(&digits[..d - f]);
        out.push(b'.');
        out.extend_from_slice(&digits[d - f..]);
    } else {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', f - d));
        out.extend_from_slice(digits);
    }
    true
}

/// The shortest text that reads back as exactly `value`, formatted straight into the
/// buffer; exponent form for very small and very large magnitudes so no number becomes
/// hundreds of digits long.
fn push_number(out: &mut Vec<u8>, value: f64) {
    let magnitude = value.abs();
    // Writing to a Vec cannot fail.
    let _ = if value == 0.0 || !value.is_finite() || (1e-5..1e16).contains(&magnitude) {
        write!(out, "{value}")
    } else {
        write!(out, "{value:e}")
    };
}

fn optional_name(out: &mut Vec<u8>, keyword: &str, name: Option<&[u8]>) {
    out.extend_from_slice(keyword.as_bytes());
    if let Some(name) = name {
        out.push(b' ');
        push_name(out, name);
    }
}

/// A name in quotes. IQE has no escapes: a name holding a quote is written bare when it has
/// no white space (the reader takes a bare word up to white space), otherwise its quotes
/// become apostrophes (such a name cannot come from a file, only from a program).
pub(crate) fn push_name(out: &mut Vec<u8>, name: &[u8]) {
    if !name.contains(&b'"') {
        out.push(b'"');
        out.extend_from_slice(name);
        out.push(b'"');
    } else if is_bare_word(name) {
        out.extend_from_slice(name);
    } else {
        out.push(b'"');
        out.extend(name.iter().map(|&b| if b == b'"' { b'\'' } else { b }));
        out.push(b'"');
    }
}

/// Whether `name` reads back as itself when written without quotes.
pub(crate) fn is_bare_word(name: &[u8]) -> bool {
    !name.is_empty()
        && !matches!(name[0], b'"' | b'#')
        && !name.iter().any(|b| b.is_ascii_whitespace() || *b == 0x0b)
}

/// A word (vertex array type, frame label) bare when possible, else as a name.
fn push_word(out: &mut Vec<u8>, word: &[u8]) {
    if is_bare_word(word) {
        out.extend_from_slice(word);
    } else {
        push_name(out, word);
    }
}

fn vertex_array(out: &mut Vec<u8>, decl: &VertexArrayDecl) {
    out.extend_from_slice(b"vertexarray");
    for word in [&decl.kind, &decl.component, &decl.size] {
        out.push(b' ');
        push_word(out, word);
    }
    if let Some(name) = &decl.name {
        out.push(b' ');
        push_name(out, name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_back_exactly() {
        for v in [
            0.99999994,
            -0.0,
            1.24573708e-05,
            3.0e20,
            30.1034,
            -4.53096294,
            1e-300,
        ] {
            let mut out = Vec::new();
            push_number(&mut out, v);
            let text = String::from_utf8(out).unwrap();
            let back: f64 = text.parse().unwrap();
            assert_eq!(back.to_bits(), v.to_bits(), "{v} -> {text}");
            assert!(text.len() < 26, "{text}");
        }
        for (v, text) in [(0.99999994, "0.99999994"), (-0.0, "-0"), (1e-300, "1e-300")] {
            let mut out = Vec::new();
            push_number(&mut out, v);
            assert_eq!(out, text.as_bytes());
        }
    }

    #[test]
    fn packed_decimals_print_as_their_values_do() {
        let mut checked = 0;
        for f in 0..=15 {
            for m in [
                1,
                -1,
                7,
                10,
                12345,
                -9_999_999,
                67_108_863,
                -67_108_863,
                1000,
                99,
            ] {
                let value = f64::from(m) / 10f64.powi(f);
                let Some(word) = crate::packed::pack_f64(value) else {
                    continue;
                };
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                push_stored_number(&mut fast, word, || unreachable!("packed"));
                push_number(&mut slow, value);
                assert_eq!(
                    String::from_utf8_lossy(&fast),
                    String::from_utf8_lossy(&slow),
                    "{m}e-{f}"
                );
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn names_with_quotes_stay_readable() {
        let mut out = Vec::new();
        push_name(&mut out, b"a\"b");
        assert_eq!(out, b"a\"b");
        out.clear();
        push_name(&mut out, b"two words");
        assert_eq!(out, b"\"two words\"");
    }
}
