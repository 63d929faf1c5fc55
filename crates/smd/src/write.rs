//! The faithful writer: one line per record, numbers as exporters print them (`%.6f`)
//! whenever that reads back as the same `f32`, else the shortest digits that do.

use crate::file::{
    BonePose, File, Item, NodeLine, SkeletonLine, TriangleLine, Vertex, VertexAnimationLine,
};
use std::io::{self, Write};

/// Appends one number: six decimals when they give back the same `f32` bits, else the
/// shortest round-trip digits.
pub(crate) fn number(out: &mut Vec<u8>, value: f32, scratch: &mut String) {
    match six_decimals(out, value) {
        Six::Written => {}
        Six::No => shortest(out, value),
        Six::Unsure => {
            use std::fmt::Write as _;
            scratch.clear();
            let _ = write!(scratch, "{value:.6}");
            if scratch.parse::<f32>().map(f32::to_bits) == Ok(value.to_bits()) {
                out.extend_from_slice(scratch.as_bytes());
            } else {
                shortest(out, value);
            }
        }
    }
}

/// The shortest digits that read back as `value` (ryu, faster than `Display`).
fn shortest(out: &mut Vec<u8>, value: f32) {
    let mut buffer = ryu::Buffer::new();
    out.extend_from_slice(buffer.format(value).as_bytes());
}

/// What [`six_decimals`] decided.
enum Six {
    /// Six decimals read back as the value: written.
    Written,
    /// They certainly do not.
    No,
    /// Too close to call (or not a case the fast path handles).
    Unsure,
}

/// The fast path of [`number`]: writes `value` with six decimals (ties to even, as `{:.6}`
/// rounds) when that text certainly reads back as `value`.
fn six_decimals(out: &mut Vec<u8>, value: f32) -> Six {
    if !value.is_finite() || value.abs() >= 1.0e9 {
        return Six::Unsure;
    }
    let exact = f64::from(value);
    // Exact: 24 bits times 1e6 (20 bits) fits in a double's 53.
    let scaled = (exact * 1e6).round_ties_even();
    // The decimal `scaled / 1e6` reads back as `value` when it lies within half a unit in
    // the last place of `value`. `|value|·ε/2` is at least that half unit and less than
    // twice it; decide only with a clear margin either way.
    let gap = (scaled - exact * 1e6).abs() / 1e6;
    let upper = f64::from(value.abs().max(f32::MIN_POSITIVE)) * f64::from(f32::EPSILON) / 2.0;
    let lower = upper / 2.0;
    if gap > upper * (1.0 + 1e-6) {
        return Six::No;
    }
    if gap > lower * (1.0 - 1e-6) {
        return Six::Unsure;
    }
    let digits = scaled.abs() as u64;
    if value.is_sign_negative() {
        out.push(b'-');
    }
    let (whole, fraction) = (digits / 1_000_000, digits % 1_000_000);
    out.extend_from_slice(itoa_buffer(whole).as_slice());
    out.push(b'.');
    let fraction = itoa_buffer(fraction);
    let fraction = fraction.as_slice();
    out.extend(std::iter::repeat_n(b'0', 6 - fraction.len()));
    out.extend_from_slice(fraction);
    Six::Written
}

/// Decimal digits of a number, without allocating.
struct Digits {
    bytes: [u8; 20],
    start: usize,
}

impl Digits {
    fn as_slice(&self) -> &[u8] {
        &self.bytes[self.start..]
    }
}

fn itoa_buffer(mut n: u64) -> Digits {
    let mut bytes = [0u8; 20];
    let mut start = bytes.len();
    loop {
        start -= 1;
        bytes[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    Digits { bytes, start }
}

fn int(out: &mut Vec<u8>, value: i32) {
    if value < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(itoa_buffer(u64::from(value.unsigned_abs())).as_slice());
}

struct Writer {
    out: Vec<u8>,
    eol: &'static [u8],
    scratch: String,
}

impl Writer {
    fn line(&mut self, text: &[u8]) {
        self.out.extend_from_slice(text);
        self.out.extend_from_slice(self.eol);
    }

    fn numbers(&mut self, values: &[f32]) {
        for &v in values {
            self.out.push(b' ');
            number(&mut self.out, v, &mut self.scratch);
        }
    }

    fn end(&mut self, comment: &Option<Vec<u8>>) {
        if let Some(comment) = comment {
            self.out.push(b' ');
            self.out.extend_from_slice(comment);
        }
        self.out.extend_from_slice(self.eol);
    }

    fn pose(&mut self, pose: &BonePose) {
        int(&mut self.out, pose.bone);
        self.numbers(&pose.position);
        self.numbers(&pose.rotation);
        self.end(&pose.comment);
    }

    fn vertex(&mut self, vertex: &Vertex) {
        int(&mut self.out, vertex.parent);
        self.numbers(&vertex.position);
        self.numbers(&vertex.normal);
        self.numbers(&vertex.uv);
        if let Some(links) = &vertex.links {
            self.out.push(b' ');
            int(&mut self.out, links.len() as i32);
            for link in links {
                self.out.push(b' ');
                int(&mut self.out, link.bone);
                self.numbers(&[link.weight]);
            }
        }
        self.end(&vertex.comment);
    }
}

pub(crate) fn to_vec(file: &File) -> Vec<u8> {
    let mut w = Writer {
        out: Vec::new(),
        eol: file.line_ending.as_bytes(),
        scratch: String::new(),
    };
    for item in &file.items {
        match item {
            Item::Comment(text) => w.line(text),
            Item::Version(version) => {
                w.out.extend_from_slice(b"version ");
                int(&mut w.out, version.value);
                w.end(&version.comment);
            }
            Item::Nodes(lines) => {
                w.line(b"nodes");
                for line in lines {
                    match line {
                        NodeLine::Comment(text) => w.line(text),
                        NodeLine::Node(node) => {
                            int(&mut w.out, node.id);
                            w.out.push(b' ');
                            if node.quoted {
                                w.out.push(b'"');
                            }
                            w.out.extend_from_slice(&node.name);
                            if node.quoted {
                                w.out.push(b'"');
                            }
                            w.out.push(b' ');
                            int(&mut w.out, node.parent);
                            w.end(&node.comment);
                        }
                    }
                }
                w.line(b"end");
            }
            Item::Skeleton(lines) => {
                w.line(b"skeleton");
                for line in lines {
                    match line {
                        SkeletonLine::Comment(text) => w.line(text),
                        SkeletonLine::Time { time, comment } => {
                            w.out.extend_from_slice(b"time ");
                            int(&mut w.out, *time);
                            w.end(comment);
                        }
                        SkeletonLine::Pose(pose) => w.pose(pose),
                    }
                }
                w.line(b"end");
            }
            Item::Triangles(lines) => {
                w.line(b"triangles");
                for line in lines {
                    match line {
                        TriangleLine::Comment(text) => w.line(text),
                        TriangleLine::Triangle(triangle) => {
                            w.line(&triangle.material);
                            for (i, vertex) in triangle.vertices.iter().enumerate() {
                                for (_, text) in triangle
                                    .comments
                                    .iter()
                                    .filter(|(at, _)| *at as usize == i + 1)
                                {
                                    w.line(text);
                                }
                                w.vertex(vertex);
                            }
                        }
                    }
                }
                w.line(b"end");
            }
            Item::VertexAnimation(lines) => {
                w.line(b"vertexanimation");
                for line in lines {
                    match line {
                        VertexAnimationLine::Comment(text) => w.line(text),
                        VertexAnimationLine::Time { time, comment } => {
                            w.out.extend_from_slice(b"time ");
                            int(&mut w.out, *time);
                            w.end(comment);
                        }
                        VertexAnimationLine::Vertex {
                            index,
                            position,
                            normal,
                            comment,
                        } => {
                            int(&mut w.out, *index);
                            w.numbers(position);
                            w.numbers(normal);
                            w.end(comment);
                        }
                    }
                }
                w.line(b"end");
            }
            Item::Unknown(block) => {
                w.line(&block.keyword);
                for line in &block.lines {
                    w.line(line);
                }
                w.line(b"end");
            }
        }
    }
    if !file.final_newline && w.out.ends_with(w.eol) {
        let len = w.out.len() - w.eol.len();
        w.out.truncate(len);
    }
    w.out
}

pub(crate) fn write<W: Write>(file: &File, mut writer: W) -> io::Result<()> {
    writer.write_all(&to_vec(file))
}

#[cfg(test)]
// The values are the digits real files hold, written out on purpose.
#[allow(clippy::approx_constant, clippy::excessive_precision)]
mod tests {
    use super::*;

    fn slow(value: f32) -> String {
        let six = format!("{value:.6}");
        if six.parse::<f32>().map(f32::to_bits) == Ok(value.to_bits()) {
            six
        } else {
            let mut b = ryu::Buffer::new();
            b.format(value).to_owned()
        }
    }

    fn written(value: f32) -> String {
        let mut out = Vec::new();
        number(&mut out, value, &mut String::new());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_read_back_as_the_same_f32() {
        let mut values = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            1.570796,
            43.810005,
            -10.390667,
            0.000001,
            1e-7,
            3e-39,
            0.0078125,
            16.0078125,
            999_999.94,
            1e9,
            3.4e38,
            -2.5e-6,
            0.1,
            0.2,
            0.3,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
        ];
        // A deterministic spread over magnitudes and bit patterns.
        let mut bits = 0x3f80_0001u32;
        for _ in 0..20_000 {
            bits = bits.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            values.push(f32::from_bits(bits));
        }
        for value in values.into_iter().filter(|v| !v.is_nan()) {
            let text = written(value);
            let back: f32 = text.parse().unwrap();
            assert_eq!(
                back.to_bits(),
                value.to_bits(),
                "{value:e} written as {text}"
            );
            // Six decimals whenever the slow path would choose them.
            let slow = slow(value);
            if slow.contains('.') && slow.split('.').nth(1).unwrap().len() == 6 {
                assert_eq!(text.len(), slow.len(), "{value:e}: {text} vs {slow}");
            }
        }
        assert_eq!(written(-0.0), "-0.000000");
        assert_eq!(written(1.570796), "1.570796");
        assert_eq!(written(0.0078125), "0.0078125");
        assert_eq!(written(43.810005), "43.810005");
    }

    #[test]
    fn integers_by_hand() {
        let mut out = Vec::new();
        for v in [0, -1, 7, i32::MIN, i32::MAX] {
            int(&mut out, v);
            out.push(b' ');
        }
        assert_eq!(out, b"0 -1 7 -2147483648 2147483647 ");
    }
}
