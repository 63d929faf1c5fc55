//! The reader: lines, fields and blocks, with warnings that a strict read turns into errors.
//!
//! * [`fields`]: lines and the fields on them;
//! * here: the reader of blocks and their records ([`Reader`]);
//! * `pieces` (feature `parallel`): large blocks read on every core.

use crate::error::{Detail, Error};
use crate::file::{
    BonePose, File, Item, LineEnding, Link, Node, NodeLine, SkeletonLine, Triangle, TriangleLine,
    UnknownBlock, Version, Vertex, VertexAnimationLine,
};
use rigport_model_core::diagnostic::excerpt;
use rigport_model_core::{Budget, ReadOptions, Report, codes};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

mod fields;
#[cfg(feature = "parallel")]
mod pieces;

use fields::*;

/// Located warnings kept in a report; further ones are counted in one last notice.
const MAX_WARNINGS: usize = 32;

/// A line of a block of `time N` lines and their records, as [`Reader::timed_lines`] reads
/// it: its names in messages and budgets, and its comment and `time` lines.
trait Timed: Sized {
    /// What the budget charges its lines as.
    const LINES: &'static str;
    /// What a line starts with.
    const FIRST: &'static str;
    /// What the number after `time` is.
    const TIME: &'static str;
    /// What a record before the first `time` line lacks.
    const BEFORE: &'static str;
    /// A whole-line comment.
    fn comment(text: Vec<u8>) -> Self;
    /// A `time` line.
    fn time(time: i32, comment: Option<Vec<u8>>) -> Self;
}

impl Timed for SkeletonLine {
    const LINES: &'static str = "skeleton lines";
    const FIRST: &'static str = "`time` or a bone ID";
    const TIME: &'static str = "the frame number";
    const BEFORE: &'static str = "`time N` before the first bone line";
    fn comment(text: Vec<u8>) -> Self {
        SkeletonLine::Comment(text)
    }
    fn time(time: i32, comment: Option<Vec<u8>>) -> Self {
        SkeletonLine::Time { time, comment }
    }
}

impl Timed for VertexAnimationLine {
    const LINES: &'static str = "vertex animation lines";
    const FIRST: &'static str = "`time` or a vertex index";
    const TIME: &'static str = "the shape number";
    const BEFORE: &'static str = "`time N` before the first vertex line";
    fn comment(text: Vec<u8>) -> Self {
        VertexAnimationLine::Comment(text)
    }
    fn time(time: i32, comment: Option<Vec<u8>>) -> Self {
        VertexAnimationLine::Time { time, comment }
    }
}

/// What a line is, before its fields are read.
enum Kind<'a> {
    Blank,
    Comment(&'a [u8]),
    Data,
}

fn kind<'a>(line: &Line<'a>) -> Kind<'a> {
    let text = trim(line.text);
    if text.is_empty() {
        Kind::Blank
    } else if starts_comment(text) {
        Kind::Comment(text)
    } else {
        Kind::Data
    }
}

/// Whether a data line is `end` (optionally followed by a comment).
fn is_end(line: &Line<'_>) -> bool {
    let mut fields = line.fields();
    matches!(fields.token(), Some((b"end", _))) && !fields.more()
}

/// The bone IDs of a `nodes` block: a table for the usual small IDs, a set for the rest.
#[derive(Clone)]
struct BoneIds {
    small: Vec<bool>,
    other: HashSet<i32>,
}

impl BoneIds {
    /// IDs below this are looked up in the table (its size is bounded by this, not by the
    /// file).
    const SMALL: i32 = 4096;

    fn new(ids: impl Iterator<Item = i32>) -> Self {
        let mut set = BoneIds {
            small: Vec::new(),
            other: HashSet::new(),
        };
        for id in ids {
            if (0..Self::SMALL).contains(&id) {
                let index = id as usize;
                if set.small.len() <= index {
                    set.small.resize(index + 1, false);
                }
                set.small[index] = true;
            } else {
                set.other.insert(id);
            }
        }
        set
    }

    fn contains(&self, id: i32) -> bool {
        if (0..Self::SMALL).contains(&id) {
            self.small.get(id as usize).copied().unwrap_or(false)
        } else {
            self.other.contains(&id)
        }
    }
}

struct Reader<'a> {
    src: &'a [u8],
    lines: Lines<'a>,
    strict: bool,
    budget: Budget,
    report: Report,
    warnings: usize,
    /// The code of the latest warning (the one the count of unlisted warnings carries).
    last_code: rigport_model_core::Code,
    /// Bone IDs of the `nodes` block read so far (`None` before it).
    ids: Option<BoneIds>,
    materials: HashSet<Arc<[u8]>>,
    /// The material of the previous triangle (the next one usually shares it).
    last_material: Option<Arc<[u8]>>,
    /// How large blocks are cut to be read on every core (`None`: on this thread).
    #[cfg(feature = "parallel")]
    split: Option<pieces::Split>,
}

impl<'a> Reader<'a> {
    /// A warning at `span` of `line`; an error when reading strictly.
    fn warn(
        &mut self,
        line: &Line<'_>,
        span: Range<usize>,
        code: rigport_model_core::Code,
        message: String,
    ) -> Result<(), Error> {
        if self.strict {
            return Err(Error::strict(span, message));
        }
        self.warnings += 1;
        self.last_code = code;
        if self.warnings <= MAX_WARNINGS {
            let column = span.start.saturating_sub(line.start) + 1;
            self.report
                .warn(code, format!("{}:{column}: {message}", line.number));
        }
        Ok(())
    }

    fn charge(
        &mut self,
        span: &Range<usize>,
        what: &'static str,
        bytes: usize,
    ) -> Result<(), Error> {
        self.budget
            .reserve(what, 1, bytes as u64)
            .map_err(|source| Error::limit(span.clone(), source))
    }

    fn check_bone(
        &mut self,
        line: &Line<'_>,
        id: i32,
        span: Range<usize>,
        what: &str,
    ) -> Result<(), Error> {
        if let Some(ids) = &self.ids {
            if !ids.contains(id) {
                self.warn(
                    line,
                    span,
                    codes::INDEX_OUT_OF_RANGE,
                    format!("{what} {id} is not in the `nodes` block"),
                )?;
            }
        }
        Ok(())
    }

    fn eof_span(&self) -> Range<usize> {
        self.src.len()..self.src.len()
    }

    /// The end of a block at the end of the input: a warning (the block is closed there),
    /// an error when strict.
    fn unclosed(&mut self, keyword: &str, opened: &Line<'_>) -> Result<(), Error> {
        let span = opened.trimmed_span();
        let message = format!(
            "the `{keyword}` block opened on line {} is not closed by `end` before the input ends",
            opened.number
        );
        if self.strict {
            return Err(Error::strict(self.eof_span(), message));
        }
        let opened = *opened;
        self.warn(&opened, span, codes::DAMAGED_TAIL, message)
    }

    fn top(&mut self) -> Result<File, Error> {
        let mut file = File::default();
        if let Some(nl) = self.src.iter().position(|&b| b == b'\n') {
            if nl > 0 && self.src[nl - 1] == b'\r' {
                file.line_ending = LineEnding::CrLf;
            }
        }
        file.final_newline = self.src.last().is_none_or(|&b| b == b'\n');
        let mut any_data = false;
        let mut version_seen = false;
        while let Some(line) = self.lines.next() {
            let text = match kind(&line) {
                Kind::Blank => continue,
                Kind::Comment(text) => {
                    self.charge(&line.trimmed_span(), "comment lines", 24 + text.len())?;
                    file.items.push(Item::Comment(text.to_vec()));
                    continue;
                }
                Kind::Data => trim(line.text),
            };
            any_data = true;
            let mut fields = line.fields();
            let Some((keyword, keyword_span)) = fields.token() else {
                continue;
            };
            match keyword {
                b"version" => {
                    let value = fields.int("the version number")?;
                    let comment = fields.finish()?;
                    if value != 1 {
                        self.warn(
                            &line,
                            keyword_span,
                            codes::UNSUPPORTED_VERSION,
                            format!("version {value}; SMD files are version 1"),
                        )?;
                    }
                    version_seen = true;
                    file.items.push(Item::Version(Version { value, comment }));
                }
                b"nodes" | b"skeleton" | b"triangles" | b"vertexanimation" => {
                    if let Some(comment) = fields.finish()? {
                        file.items.push(Item::Comment(comment));
                    }
                    if !version_seen {
                        version_seen = true;
                        self.warn(
                            &line,
                            keyword_span.clone(),
                            codes::MISSING_MAGIC,
                            "no `version 1` line before the first block".to_owned(),
                        )?;
                    }
                    let item = match keyword {
                        b"nodes" => Item::Nodes(self.nodes(&line)?),
                        b"skeleton" => Item::Skeleton(self.skeleton(&line)?),
                        b"triangles" => Item::Triangles(self.triangles(&line)?),
                        _ => Item::VertexAnimation(self.vertex_animation(&line)?),
                    };
                    file.items.push(item);
                }
                b"end" => {
                    return Err(Error::at(
                        keyword_span,
                        Detail::Unexpected {
                            expected: "a block keyword (`nodes`, `skeleton`, `triangles`)",
                            found: "end".to_owned(),
                        },
                    ));
                }
                _ if !fields.more() && text.len() == keyword.len() => {
                    // A single word: a block this reader does not know, kept raw.
                    file.items
                        .push(Item::Unknown(self.unknown(&line, keyword)?));
                }
                _ => {
                    return Err(Error::at(
                        keyword_span,
                        Detail::Unexpected {
                            expected: "`version` or a block keyword (`nodes`, `skeleton`, `triangles`)",
                            found: excerpt(keyword, 40),
                        },
                    ));
                }
            }
        }
        if !any_data {
            return Err(Error::at(self.eof_span(), Detail::Empty));
        }
        if !file.items.iter().any(|i| matches!(i, Item::Nodes(_))) {
            return Err(Error::at(self.eof_span(), Detail::MissingNodes));
        }
        if self.warnings > MAX_WARNINGS {
            self.report.warn(
                self.last_code,
                format!(
                    "{} further warnings not listed",
                    self.warnings - MAX_WARNINGS
                ),
            );
        }
        Ok(file)
    }

    fn nodes(&mut self, opened: &Line<'_>) -> Result<Vec<NodeLine>, Error> {
        let mut out = Vec::new();
        let mut ids: HashMap<i32, usize> = HashMap::new();
        let mut parents = Vec::new();
        let mut closed = false;
        while let Some(line) = self.lines.next() {
            match kind(&line) {
                Kind::Blank => continue,
                Kind::Comment(text) => {
                    self.charge(&line.trimmed_span(), "comment lines", 24 + text.len())?;
                    out.push(NodeLine::Comment(text.to_vec()));
                    continue;
                }
                Kind::Data => {}
            }
            if is_end(&line) {
                closed = true;
                break;
            }
            let mut fields = line.fields();
            let (_, id_span) = {
                let mut peek = line.fields();
                peek.require("a bone ID")?
            };
            let id = fields.int("a bone ID")?;
            let (name, quoted) = fields.name()?;
            let (_, parent_span) = {
                let mut peek = fields.clone();
                peek.require("a parent ID")?
            };
            let parent = fields.int("a parent ID")?;
            let comment = fields.finish()?;
            self.charge(
                &line.trimmed_span(),
                "bones",
                std::mem::size_of::<NodeLine>() + name.len(),
            )?;
            if id < 0 {
                self.warn(
                    &line,
                    id_span.clone(),
                    codes::INDEX_OUT_OF_RANGE,
                    format!("bone ID {id} is negative"),
                )?;
            }
            if let Some(first) = ids.get(&id) {
                let first = *first;
                self.warn(
                    &line,
                    id_span,
                    codes::DUPLICATE_JOINT_IDS,
                    format!("bone ID {id} is listed again (first on line {first})"),
                )?;
            } else {
                ids.insert(id, line.number);
            }
            parents.push((line, parent_span, parent));
            out.push(NodeLine::Node(Node {
                id,
                name,
                quoted,
                parent,
                comment,
            }));
        }
        if !closed {
            self.unclosed("nodes", opened)?;
        }
        for (line, span, parent) in parents {
            if parent != -1 && !ids.contains_key(&parent) {
                self.warn(
                    &line,
                    span,
                    codes::MISSING_PARENT,
                    format!("parent ID {parent} is not in the `nodes` block; the bone is a root"),
                )?;
            }
        }
        self.ids = Some(BoneIds::new(ids.into_keys()));
        Ok(out)
    }

    fn skeleton(&mut self, opened: &Line<'_>) -> Result<Vec<SkeletonLine>, Error> {
        #[cfg(feature = "parallel")]
        if let Some(read) = pieces::read_block::<pieces::Skeleton>(self, opened) {
            return read;
        }
        let mut out = Vec::new();
        if !self.skeleton_lines(&mut out)? {
            self.unclosed("skeleton", opened)?;
        }
        Ok(out)
    }

    /// Reads skeleton lines into `out` up to `end` (`true`) or the end of the lines
    /// (`false`). The first pose must follow a `time` line read here.
    fn skeleton_lines(&mut self, out: &mut Vec<SkeletonLine>) -> Result<bool, Error> {
        self.timed_lines(out, |reader, line, mut fields, first_span| {
            let bone = fields.int("a bone ID")?;
            let position = fields.floats("a position coordinate")?;
            let rotation = fields.floats("a rotation angle")?;
            let comment = fields.finish()?;
            reader.check_bone(line, bone, first_span, "bone ID")?;
            Ok(SkeletonLine::Pose(BonePose {
                bone,
                position,
                rotation,
                comment,
            }))
        })
    }

    /// Reads the lines of a block of `time N` lines, each followed by its records, into
    /// `out` up to `end` (`true`) or the end of the lines (`false`). `record` reads one
    /// record line from its fields, given the first field's span; a record before the
    /// first `time` line is an error.
    fn timed_lines<L: Timed>(
        &mut self,
        out: &mut Vec<L>,
        mut record: impl FnMut(&mut Self, &Line<'a>, Fields<'a>, Range<usize>) -> Result<L, Error>,
    ) -> Result<bool, Error> {
        let mut timed = false;
        while let Some(line) = self.lines.next() {
            match kind(&line) {
                Kind::Blank => continue,
                Kind::Comment(text) => {
                    self.charge(&line.trimmed_span(), "comment lines", 24 + text.len())?;
                    out.push(L::comment(text.to_vec()));
                    continue;
                }
                Kind::Data => {}
            }
            if is_end(&line) {
                return Ok(true);
            }
            self.charge(&line.trimmed_span(), L::LINES, std::mem::size_of::<L>())?;
            let mut fields = line.fields();
            let mut peek = line.fields();
            let (first, first_span) = peek.require(L::FIRST)?;
            if first == b"time" {
                fields.token();
                let time = fields.int(L::TIME)?;
                let comment = fields.finish()?;
                timed = true;
                out.push(L::time(time, comment));
                continue;
            }
            if !timed {
                return Err(Error::at(
                    first_span,
                    Detail::Unexpected {
                        expected: L::BEFORE,
                        found: excerpt(first, 40),
                    },
                ));
            }
            out.push(record(self, &line, fields, first_span)?);
        }
        Ok(false)
    }

    fn material(&mut self, text: &[u8]) -> Arc<[u8]> {
        if let Some(last) = &self.last_material {
            if **last == *text {
                return last.clone();
            }
        }
        let material = match self.materials.get(text) {
            Some(found) => found.clone(),
            None => {
                let material: Arc<[u8]> = Arc::from(text);
                self.materials.insert(material.clone());
                material
            }
        };
        self.last_material = Some(material.clone());
        material
    }

    fn vertex(&mut self, line: &Line<'_>) -> Result<Vertex, Error> {
        let mut fields = line.fields();
        let mut peek = line.fields();
        let (_, parent_span) = peek.require("a parent bone ID")?;
        let parent = fields.int("a parent bone ID")?;
        let position = fields.floats("a position coordinate")?;
        let normal = fields.floats("a normal coordinate")?;
        let uv = fields.floats("a texture coordinate")?;
        self.check_bone(line, parent, parent_span, "parent bone")?;
        let links = if fields.more() {
            let count = fields.int("a link count")?;
            if count < 0 {
                return Err(Error::at(
                    line.trimmed_span(),
                    Detail::BadNumber {
                        expected: "a link count of 0 or more",
                        found: count.to_string(),
                    },
                ));
            }
            // No capacity from the count: the pairs are pushed as they are read.
            let mut links = Vec::new();
            for _ in 0..count {
                let mut peek = fields.clone();
                let (_, bone_span) = peek.require("a link's bone ID")?;
                let bone = fields.int("a link's bone ID")?;
                let weight = fields.float("a link's weight")?;
                self.check_bone(line, bone, bone_span, "linked bone")?;
                links.push(Link { bone, weight });
            }
            self.charge(
                &line.trimmed_span(),
                "vertex links",
                links.len() * std::mem::size_of::<Link>(),
            )?;
            Some(links)
        } else {
            None
        };
        let comment = fields.finish()?;
        Ok(Vertex {
            parent,
            position,
            normal,
            uv,
            links,
            comment,
        })
    }

    fn triangles(&mut self, opened: &Line<'_>) -> Result<Vec<TriangleLine>, Error> {
        #[cfg(feature = "parallel")]
        if let Some(read) = pieces::read_block::<pieces::Triangles>(self, opened) {
            return read;
        }
        let mut out = Vec::new();
        if !self.triangle_lines(&mut out)? {
            self.unclosed("triangles", opened)?;
        }
        Ok(out)
    }

    /// Reads triangles into `out` up to `end` (`true`) or the end of the lines (`false`).
    fn triangle_lines(&mut self, out: &mut Vec<TriangleLine>) -> Result<bool, Error> {
        let mut closed = false;
        while let Some(line) = self.lines.next() {
            match kind(&line) {
                Kind::Blank => continue,
                Kind::Comment(text) => {
                    self.charge(&line.trimmed_span(), "comment lines", 24 + text.len())?;
                    out.push(TriangleLine::Comment(text.to_vec()));
                    continue;
                }
                Kind::Data => {}
            }
            if is_end(&line) {
                closed = true;
                break;
            }
            self.charge(
                &line.trimmed_span(),
                "triangles",
                std::mem::size_of::<TriangleLine>(),
            )?;
            let material = self.material(trim(line.text));
            let mut vertices: [Option<Vertex>; 3] = [None, None, None];
            let mut comments = Vec::new();
            let mut read = 0usize;
            while read < 3 {
                let Some(next) = self.lines.next() else {
                    return Err(Error::at(
                        self.eof_span(),
                        Detail::UnexpectedEof {
                            expected: "the triangle has fewer than 3 vertex lines",
                        },
                    ));
                };
                match kind(&next) {
                    Kind::Blank => continue,
                    Kind::Comment(text) => {
                        self.charge(&next.trimmed_span(), "comment lines", 24 + text.len())?;
                        comments.push((read as u8 + 1, text.to_vec()));
                        continue;
                    }
                    Kind::Data => {}
                }
                if is_end(&next) {
                    return Err(Error::at(
                        next.trimmed_span(),
                        Detail::Unexpected {
                            expected: "3 vertex lines after the material line",
                            found: "end".to_owned(),
                        },
                    ));
                }
                vertices[read] = Some(self.vertex(&next)?);
                read += 1;
            }
            let [Some(a), Some(b), Some(c)] = vertices else {
                unreachable!("three vertex lines were read");
            };
            out.push(TriangleLine::Triangle(Triangle {
                material,
                vertices: [a, b, c],
                comments,
            }));
        }
        Ok(closed)
    }

    fn vertex_animation(&mut self, opened: &Line<'_>) -> Result<Vec<VertexAnimationLine>, Error> {
        let mut out = Vec::new();
        let closed = self.timed_lines(&mut out, |_, _, mut fields, _| {
            let index = fields.int("a vertex index")?;
            let position = fields.floats("a position coordinate")?;
            let normal = fields.floats("a normal coordinate")?;
            let comment = fields.finish()?;
            Ok(VertexAnimationLine::Vertex {
                index,
                position,
                normal,
                comment,
            })
        })?;
        if !closed {
            self.unclosed("vertexanimation", opened)?;
        }
        Ok(out)
    }

    fn unknown(&mut self, opened: &Line<'_>, keyword: &[u8]) -> Result<UnknownBlock, Error> {
        let mut block = UnknownBlock {
            keyword: keyword.to_vec(),
            lines: Vec::new(),
        };
        let mut closed = false;
        while let Some(line) = self.lines.next() {
            let text = trim(line.text);
            if text.is_empty() {
                continue;
            }
            if is_end(&line) {
                closed = true;
                break;
            }
            self.charge(&line.trimmed_span(), "unknown lines", 24 + text.len())?;
            block.lines.push(text.to_vec());
        }
        if !closed {
            let name = String::from_utf8_lossy(keyword).into_owned();
            self.unclosed(&excerpt(name.as_bytes(), 40), opened)?;
        }
        Ok(block)
    }
}

pub(crate) fn parse(src: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
    #[cfg(feature = "parallel")]
    return parse_split(src, options, Some(pieces::Split::for_pool()));
    #[cfg(not(feature = "parallel"))]
    parse_split(src, options)
}

/// [`parse`], cutting large blocks as `split` says (`None`: on this thread).
fn parse_split(
    src: &[u8],
    options: &ReadOptions,
    #[cfg(feature = "parallel")] split: Option<pieces::Split>,
) -> Result<(File, Report), Error> {
    let mut reader = Reader {
        src,
        lines: Lines {
            src,
            pos: 0,
            number: 0,
        },
        strict: options.strict,
        budget: options.limits.budget(),
        report: Report::default(),
        warnings: 0,
        last_code: codes::INDEX_OUT_OF_RANGE,
        ids: None,
        materials: HashSet::new(),
        last_material: None,
        #[cfg(feature = "parallel")]
        split,
    };
    let file = reader.top()?;
    Ok((file, reader.report))
}

/// Whether the bytes look like SMD: blank and comment lines, then `version 1`, then (after
/// more blank or comment lines) `nodes`.
pub(crate) fn sniff(bytes: &[u8]) -> bool {
    let mut lines = Lines {
        src: bytes,
        pos: 0,
        number: 0,
    }
    .filter(|l| matches!(kind(l), Kind::Data));
    let Some(first) = lines.next() else {
        return false;
    };
    let mut fields = first.fields();
    if !matches!(fields.token(), Some((b"version", _)))
        || fields.int("").ok() != Some(1)
        || fields.more()
    {
        return false;
    }
    lines.next().is_some_and(|l| {
        let mut fields = l.fields();
        matches!(fields.token(), Some((b"nodes", _))) && !fields.more()
    })
}
