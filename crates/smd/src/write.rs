//! The faithful writer: one line per record, numbers as exporters print them (`%.6f`)
//! whenever that reads back as the same `f32`, else the shortest digits that do.

use crate::file::{
    BonePose, File, Item, NodeLine, SkeletonLine, TriangleLine, Vertex, VertexAnimationLine,
};
use std::io::{self, Write};

/// Appends one number: six decimals when they give back the same `f32` bits, else the
/// shortest round-trip digits.
pub(crate) fn number(out: &mut Vec<u8>, value: f32, scratch: &mut String) {
    use std::fmt::Write as _;
    scratch.clear();
    let _ = write!(scratch, "{value:.6}");
    if scratch.parse::<f32>().map(f32::to_bits) != Ok(value.to_bits()) {
        scratch.clear();
        let _ = write!(scratch, "{value}");
    }
    out.extend_from_slice(scratch.as_bytes());
}

fn int(out: &mut Vec<u8>, value: i32) {
    out.extend_from_slice(value.to_string().as_bytes());
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
