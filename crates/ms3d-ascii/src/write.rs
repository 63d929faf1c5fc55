//! The writer: CRLF line endings, the layout MilkShape itself uses, numbers in the shortest
//! form that reads back to the same `f32` and never with an exponent.

use crate::file::{Block, Bone, File, Key, Material, Mesh};
use crate::number::Formatter;
use std::io::{self, Write};

/// Line ending MilkShape writes.
const EOL: &str = "\r\n";

/// Writes numbers separated by spaces: the shortest decimal that parses back to the same
/// value, never with an exponent (`0.00004`, not `4e-5`); see [`crate::number`].
/// Non-finite values cannot be read back; the reader never produces them.
fn floats<W: Write>(w: &mut W, values: &[f32]) -> io::Result<()> {
    let mut formatter = Formatter::new();
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            w.write_all(b" ")?;
        }
        w.write_all(formatter.format(v))?;
    }
    Ok(())
}

fn quoted<W: Write>(w: &mut W, bytes: &[u8]) -> io::Result<()> {
    w.write_all(b"\"")?;
    w.write_all(bytes)?;
    w.write_all(b"\"")
}

fn quoted_line<W: Write>(w: &mut W, bytes: &[u8]) -> io::Result<()> {
    quoted(w, bytes)?;
    w.write_all(EOL.as_bytes())
}

fn floats_line<W: Write>(w: &mut W, values: &[f32]) -> io::Result<()> {
    floats(w, values)?;
    w.write_all(EOL.as_bytes())
}

/// Writes a whole file.
pub(crate) fn write<W: Write>(file: &File, w: W) -> io::Result<()> {
    // Every number is a separate small write; one buffer turns them into 64 KiB writes
    // (a system call per number on an unbuffered file otherwise).
    let mut w = io::BufWriter::with_capacity(64 * 1024, w);
    write!(w, "// MilkShape 3D ASCII{EOL}{EOL}")?;
    for (i, block) in file.blocks.iter().enumerate() {
        // MilkShape separates the big blocks by a blank line.
        let big = matches!(
            block,
            Block::Meshes(_) | Block::Materials(_) | Block::Bones(_)
        );
        if big && i > 0 {
            w.write_all(EOL.as_bytes())?;
        }
        match block {
            Block::Frames(n) => write!(w, "Frames: {n}{EOL}")?,
            Block::Frame(n) => write!(w, "Frame: {n}{EOL}")?,
            Block::Meshes(meshes) => {
                write!(w, "Meshes: {}{EOL}", meshes.len())?;
                meshes.iter().try_for_each(|m| mesh(&mut w, m))?;
            }
            Block::Materials(materials) => {
                write!(w, "Materials: {}{EOL}", materials.len())?;
                materials.iter().try_for_each(|m| material(&mut w, m))?;
            }
            Block::Bones(bones) => {
                write!(w, "Bones: {}{EOL}", bones.len())?;
                bones.iter().try_for_each(|b| bone(&mut w, b))?;
            }
            Block::Unknown(block) => {
                w.write_all(&block.header)?;
                w.write_all(EOL.as_bytes())?;
                for line in &block.lines {
                    w.write_all(line)?;
                    w.write_all(EOL.as_bytes())?;
                }
            }
        }
    }
    w.write_all(&file.damaged_tail)?;
    w.flush()
}

fn mesh<W: Write>(w: &mut W, m: &Mesh) -> io::Result<()> {
    quoted(w, &m.name)?;
    write!(w, " {} {}{EOL}", m.flags, m.material)?;
    write!(w, "{}{EOL}", m.vertices.len())?;
    for v in &m.vertices {
        write!(w, "{} ", v.flags)?;
        floats(w, &v.position)?;
        w.write_all(b" ")?;
        floats(w, &v.uv)?;
        write!(w, " {}{EOL}", v.bone)?;
    }
    write!(w, "{}{EOL}", m.normals.len())?;
    for n in &m.normals {
        floats_line(w, n)?;
    }
    write!(w, "{}{EOL}", m.triangles.len())?;
    for t in &m.triangles {
        let [a, b, c] = t.vertices;
        let [na, nb, nc] = t.normals;
        write!(
            w,
            "{} {a} {b} {c} {na} {nb} {nc} {}{EOL}",
            t.flags, t.smoothing_group
        )?;
    }
    Ok(())
}

fn material<W: Write>(w: &mut W, m: &Material) -> io::Result<()> {
    quoted_line(w, &m.name)?;
    floats_line(w, &m.ambient)?;
    floats_line(w, &m.diffuse)?;
    floats_line(w, &m.specular)?;
    floats_line(w, &m.emissive)?;
    floats_line(w, &[m.shininess])?;
    floats_line(w, &[m.transparency])?;
    quoted_line(w, &m.texture)?;
    quoted_line(w, &m.alpha_map)
}

fn bone<W: Write>(w: &mut W, b: &Bone) -> io::Result<()> {
    quoted_line(w, &b.name)?;
    quoted_line(w, &b.parent)?;
    write!(w, "{} ", b.flags)?;
    floats(w, &b.position)?;
    w.write_all(b" ")?;
    floats_line(w, &b.rotation)?;
    keys(w, &b.position_keys)?;
    keys(w, &b.rotation_keys)
}

fn keys<W: Write>(w: &mut W, keys: &[Key]) -> io::Result<()> {
    write!(w, "{}{EOL}", keys.len())?;
    for k in keys {
        floats_line(w, &[k.frame, k.value[0], k.value[1], k.value[2]])?;
    }
    Ok(())
}
