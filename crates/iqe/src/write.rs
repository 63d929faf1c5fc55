//! The canonical text layout: header, then every command in file order, one per line,
//! single spaces, LF endings, shortest round-trip numbers, quoted names; vertex attributes
//! after `vp` and mesh/animation settings indented by a tab; a blank line before each
//! `mesh`, `animation` and `frame` and before a run of joints or vertex array declarations.
//! Command order is never changed because it carries meaning in IQE (the current mesh,
//! smoothing state, the current frame). Writing what was read twice gives the same bytes.

use crate::command::{Attribute, Command, VertexArrayDecl};
use crate::parse::HEADER;
use std::io::{self, Write};

/// Bytes gathered before they are handed to the writer.
const BUFFER: usize = 64 * 1024;

/// Writes a file's parts in the canonical layout.
pub(crate) fn write_file<W: Write>(
    mut out: W,
    header_extra: &[u8],
    commands: &[Command],
    comment: Option<&[u8]>,
) -> io::Result<()> {
    out.write_all(HEADER)?;
    out.write_all(header_extra)?;
    out.write_all(b"\n\n")?;
    let mut previous: Option<&Command> = None;
    // Lines gather in one buffer handed to the writer in large pieces: one write per
    // 64 KiB instead of one per line (a system call each on an unbuffered file).
    let mut line = Vec::with_capacity(BUFFER + 1024);
    for (i, command) in commands.iter().enumerate() {
        if line.len() >= BUFFER {
            out.write_all(&line)?;
            line.clear();
        }
        if needs_blank_line(previous, command) {
            line.push(b'\n');
        }
        if is_indented(command) {
            line.push(b'\t');
        }
        write_command(&mut line, command);
        // A raw last line may be a cut-off command the lenient reader kept; it reads back
        // only while it stays cut off, so it gets no line ending.
        let raw_tail =
            i + 1 == commands.len() && comment.is_none() && matches!(command, Command::Unknown(_));
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

fn needs_blank_line(previous: Option<&Command>, command: &Command) -> bool {
    let Some(previous) = previous else {
        return false;
    };
    match command {
        Command::Mesh(_) | Command::Animation(_) | Command::Frame(_) => true,
        Command::Joint { .. } => !matches!(previous, Command::Joint { .. } | Command::Pose(..)),
        Command::VertexArray(_) => !matches!(previous, Command::VertexArray(_)),
        _ => false,
    }
}

fn is_indented(command: &Command) -> bool {
    match command {
        Command::Vertex(attribute, _) => *attribute != Attribute::Position,
        Command::Blend(_)
        | Command::SmoothIndex(_)
        | Command::Material(_)
        | Command::Loop
        | Command::Framerate(_) => true,
        _ => false,
    }
}

/// Appends one command without its line ending.
pub(crate) fn write_command(out: &mut Vec<u8>, command: &Command) {
    match command {
        Command::Comment(text) => {
            out.push(b'#');
            out.extend_from_slice(text);
        }
        Command::Vertex(attribute, values) => numbers(out, attribute.keyword(), values),
        Command::Pose(kind, values) => numbers(out, kind.keyword(), values),
        Command::Blend(pairs) => {
            out.extend_from_slice(b"vb");
            for (index, weight) in pairs {
                push_display(out, index);
                out.push(b' ');
                push_number(out, *weight);
            }
        }
        Command::SmoothIndex(n) => integers(out, "vs", std::slice::from_ref(n)),
        Command::VertexArray(decl) => vertex_array(out, decl),
        Command::Mesh(name) => optional_name(out, "mesh", name.as_deref()),
        Command::Material(name) => optional_name(out, "material", name.as_deref()),
        Command::Animation(name) => optional_name(out, "animation", name.as_deref()),
        Command::Face(base, indices) => {
            let keyword = match base {
                crate::command::FaceBase::File => "fa",
                crate::command::FaceBase::Mesh => "fm",
            };
            integers(out, keyword, indices);
        }
        Command::FaceSmooth(flags) => integers(out, "fs", flags),
        Command::SmoothUv(n) => integers(out, "smoothuv", n.as_slice()),
        Command::SmoothGroup(n) => integers(out, "smoothgroup", n.as_slice()),
        Command::SmoothAngle(a) => numbers(out, "smoothangle", a.as_slice()),
        Command::Joint { name, parent } => {
            out.extend_from_slice(b"joint ");
            push_name(out, name);
            if let Some(parent) = parent {
                push_display(out, parent);
            }
        }
        Command::Loop => out.extend_from_slice(b"loop"),
        Command::Framerate(rate) => numbers(out, "framerate", std::slice::from_ref(rate)),
        Command::Frame(label) => {
            out.extend_from_slice(b"frame");
            if let Some(label) = label {
                out.push(b' ');
                push_word(out, label);
            }
        }
        Command::Unknown(raw) => out.extend_from_slice(raw),
    }
}

fn numbers(out: &mut Vec<u8>, keyword: &str, values: &[f64]) {
    out.extend_from_slice(keyword.as_bytes());
    for &v in values {
        out.push(b' ');
        push_number(out, v);
    }
}

fn integers(out: &mut Vec<u8>, keyword: &str, values: &[i64]) {
    out.extend_from_slice(keyword.as_bytes());
    for v in values {
        push_display(out, v);
    }
}

/// A space and the integer, formatted straight into the buffer (no `String`).
fn push_display(out: &mut Vec<u8>, value: &i64) {
    // Writing to a Vec cannot fail.
    let _ = write!(out, " {value}");
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
    fn names_with_quotes_stay_readable() {
        let mut out = Vec::new();
        push_name(&mut out, b"a\"b");
        assert_eq!(out, b"a\"b");
        out.clear();
        push_name(&mut out, b"two words");
        assert_eq!(out, b"\"two words\"");
    }
}
