//! The writer: one canonical layout (tabs inside blocks, closing braces at column 0, the
//! file's own line ending), numbers in the shortest form that reads back to the same `f64`,
//! never with an exponent.

use crate::file::*;
use std::io::{self, Write};

struct Out<'w, W: Write> {
    w: &'w mut W,
    ending: &'static [u8],
    first: bool,
}

impl<W: Write> Out<'_, W> {
    /// Starts a new line (the line ending goes before every line but the first).
    fn line(&mut self) -> io::Result<&mut W> {
        if !self.first {
            self.w.write_all(self.ending)?;
        }
        self.first = false;
        Ok(self.w)
    }
}

fn comment<W: Write>(w: &mut W, comment: &Comment) -> io::Result<()> {
    if let Some(text) = comment {
        w.write_all(b"\t//")?;
        w.write_all(text)?;
    }
    Ok(())
}

/// A number: the shortest decimal that reads back to the same `f64`, without an exponent
/// and without a `.0` after a whole number (`ryu`, or Rust's `Display` where `ryu` would
/// use an exponent).
pub(crate) fn number<W: Write>(w: &mut W, value: f64) -> io::Result<()> {
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format(value);
    if text.contains(['e', 'E', 'i', 'N']) {
        return write!(w, "{value}");
    }
    w.write_all(text.strip_suffix(".0").unwrap_or(text).as_bytes())
}

fn quoted<W: Write>(w: &mut W, text: &[u8]) -> io::Result<()> {
    w.write_all(b"\"")?;
    w.write_all(text)?;
    w.write_all(b"\"")
}

fn vec3<W: Write>(w: &mut W, v: &[f64; 3]) -> io::Result<()> {
    w.write_all(b"( ")?;
    for x in v {
        number(w, *x)?;
        w.write_all(b" ")?;
    }
    w.write_all(b")")
}

/// Writes one record's text (without indentation, comment or line ending).
trait Record {
    fn write_record<W: Write>(&self, w: &mut W) -> io::Result<()>;
}

impl Record for Joint {
    fn write_record<W: Write>(&self, w: &mut W) -> io::Result<()> {
        quoted(w, &self.name)?;
        write!(w, "\t{} ", self.parent)?;
        vec3(w, &self.position)?;
        w.write_all(b" ")?;
        vec3(w, &self.orientation)
    }
}

impl Record for HierarchyEntry {
    fn write_record<W: Write>(&self, w: &mut W) -> io::Result<()> {
        quoted(w, &self.name)?;
        write!(w, "\t{} {} {}", self.parent, self.flags, self.start_index)
    }
}

impl Record for Bounds {
    fn write_record<W: Write>(&self, w: &mut W) -> io::Result<()> {
        vec3(w, &self.min)?;
        w.write_all(b" ")?;
        vec3(w, &self.max)
    }
}

impl Record for BaseFrameEntry {
    fn write_record<W: Write>(&self, w: &mut W) -> io::Result<()> {
        vec3(w, &self.position)?;
        w.write_all(b" ")?;
        vec3(w, &self.orientation)
    }
}

impl Record for Vec<f64> {
    fn write_record<W: Write>(&self, w: &mut W) -> io::Result<()> {
        for (i, x) in self.iter().enumerate() {
            if i > 0 {
                w.write_all(b" ")?;
            }
            number(w, *x)?;
        }
        Ok(())
    }
}

impl Record for Vec<u8> {
    fn write_record<W: Write>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(self)
    }
}

impl Record for MeshLine {
    fn write_record<W: Write>(&self, w: &mut W) -> io::Result<()> {
        match self {
            MeshLine::Name(name) => {
                w.write_all(b"name ")?;
                quoted(w, name)
            }
            MeshLine::Shader(shader) => {
                w.write_all(b"shader ")?;
                quoted(w, shader)
            }
            MeshLine::NumVerts(n) => write!(w, "numverts {n}"),
            MeshLine::NumTris(n) => write!(w, "numtris {n}"),
            MeshLine::NumWeights(n) => write!(w, "numweights {n}"),
            MeshLine::Vert(v) => {
                write!(w, "vert {} ( ", v.index)?;
                number(w, v.uv[0])?;
                w.write_all(b" ")?;
                number(w, v.uv[1])?;
                write!(w, " ) {} {}", v.first_weight, v.weight_count)
            }
            MeshLine::Tri(t) => {
                let [a, b, c] = t.vertices;
                write!(w, "tri {} {a} {b} {c}", t.index)
            }
            MeshLine::Weight(x) => {
                write!(w, "weight {} {} ", x.index, x.joint)?;
                number(w, x.bias)?;
                w.write_all(b" ")?;
                vec3(w, &x.position)
            }
        }
    }
}

fn block<W: Write, T: Record>(
    out: &mut Out<'_, W>,
    opener: &[u8],
    block: &Block<T>,
) -> io::Result<()> {
    let w = out.line()?;
    w.write_all(opener)?;
    w.write_all(b" {")?;
    comment(w, &block.open_comment)?;
    for line in &block.lines {
        let w = out.line()?;
        match line {
            Line::Record(record, c) => {
                w.write_all(b"\t")?;
                record.write_record(w)?;
                comment(w, c)?;
            }
            Line::Blank => {}
            Line::Comment(text) => {
                w.write_all(b"\t//")?;
                w.write_all(text)?;
            }
            Line::Unknown(raw) => {
                w.write_all(b"\t")?;
                w.write_all(raw)?;
            }
        }
    }
    let w = out.line()?;
    w.write_all(b"}")?;
    comment(w, &block.close_comment)
}

pub(crate) fn write<W: Write>(file: &File, mut w: W) -> io::Result<()> {
    let mut out = Out {
        w: &mut w,
        ending: file.line_ending.bytes(),
        first: true,
    };
    if file.bom {
        out.w.write_all(crate::lex::BOM)?;
    }
    for item in &file.items {
        match item {
            Item::Blank => {
                out.line()?;
            }
            Item::Comment(text) => {
                let w = out.line()?;
                w.write_all(b"//")?;
                w.write_all(text)?;
            }
            Item::Header(header, c) => {
                let w = out.line()?;
                w.write_all(header.keyword().as_bytes())?;
                w.write_all(b" ")?;
                match header {
                    Header::Commandline(text) => quoted(w, text)?,
                    Header::FrameRate(rate) => number(w, *rate)?,
                    Header::Version(n)
                    | Header::NumJoints(n)
                    | Header::NumMeshes(n)
                    | Header::NumFrames(n)
                    | Header::NumAnimatedComponents(n) => write!(w, "{n}")?,
                }
                comment(w, c)?;
            }
            Item::Joints(b) => block(&mut out, b"joints", b)?,
            Item::Mesh(b) => block(&mut out, b"mesh", b)?,
            Item::Hierarchy(b) => block(&mut out, b"hierarchy", b)?,
            Item::Bounds(b) => block(&mut out, b"bounds", b)?,
            Item::BaseFrame(b) => block(&mut out, b"baseframe", b)?,
            Item::Frame(f) => block(&mut out, format!("frame {}", f.index).as_bytes(), &f.block)?,
            Item::Unknown(raw) => out.line()?.write_all(raw)?,
            Item::UnknownBlock(header, b) => block(&mut out, header, b)?,
        }
    }
    if file.final_newline && !out.first {
        out.w.write_all(out.ending)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_are_shortest_without_exponents() {
        for (value, text) in [
            (0.0, "0"),
            (-0.0, "-0"),
            (24.0, "24"),
            (0.1, "0.1"),
            (-0.632455532, "-0.632455532"),
            (1e-7, "0.0000001"),
            (1e21, "1000000000000000000000"),
            (123456.789, "123456.789"),
        ] {
            let mut out = Vec::new();
            super::number(&mut out, value).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), text);
            assert_eq!(text.parse::<f64>().unwrap().to_bits(), value.to_bits());
        }
    }
}
