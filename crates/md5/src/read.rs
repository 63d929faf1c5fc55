//! The reader: one pass over the lines, a block at a time, checks of every index against
//! what the file holds, warnings gathered per code.

use crate::error::Error;
use crate::file::*;
use crate::lex::{BOM, Token, TokenKind, for_each_line_from, tokenize, trim};
use rigport_model_core::diagnostic::{Span, excerpt, line_col};
use rigport_model_core::number::{parse_f64, parse_i64};
use rigport_model_core::{Budget, ReadOptions, Report, codes};

/// Report code: a count line (`numverts`, `numJoints`…) disagrees with the records.
pub(crate) const COUNT_MISMATCH: &str = codes::COUNT_MISMATCH;

/// Warnings of one read, one entry per code: the first place and message, and how many more.
pub(crate) struct Notes {
    strict: bool,
    entries: Vec<(&'static str, Span, String, usize)>,
}

impl Notes {
    pub(crate) fn new(strict: bool) -> Self {
        Self {
            strict,
            entries: Vec::new(),
        }
    }

    /// A warning at `span`; in a strict read, the error it becomes.
    pub(crate) fn warn(
        &mut self,
        code: &'static str,
        span: Span,
        message: impl FnOnce() -> String,
    ) -> Result<(), Error> {
        if self.strict {
            return Err(Error::Strict {
                span,
                code,
                message: message(),
            });
        }
        match self.entries.iter_mut().find(|e| e.0 == code) {
            Some(entry) => entry.3 += 1,
            None => self.entries.push((code, span, message(), 0)),
        }
        Ok(())
    }

    /// Adds the warnings of the lines read after these, as if one reader had met them.
    #[cfg(feature = "parallel")]
    pub(crate) fn append(&mut self, later: Notes) {
        for (code, span, message, more) in later.entries {
            match self.entries.iter_mut().find(|e| e.0 == code) {
                Some(entry) => entry.3 += more + 1,
                None => self.entries.push((code, span, message, more)),
            }
        }
    }

    pub(crate) fn into_report(self, src: &[u8]) -> Report {
        let mut report = Report::default();
        for (code, span, message, more) in self.entries {
            let (line, _) = line_col(src, span.start);
            let tail = match more {
                0 => String::new(),
                1 => " (and 1 more like it)".to_owned(),
                n => format!(" (and {n} more like it)"),
            };
            report.warn(code, format!("line {line}: {message}{tail}"));
        }
        report
    }
}

/// How a token reads in a message.
fn describe(src: &[u8], token: &Token) -> String {
    match token.kind {
        TokenKind::Word => format!("`{}`", excerpt(&src[token.text.clone()], 40)),
        TokenKind::Str => format!("string \"{}\"", excerpt(&src[token.text.clone()], 40)),
        TokenKind::Unterminated => "a string without its closing quote".to_owned(),
        TokenKind::Open => "`(`".to_owned(),
        TokenKind::Close => "`)`".to_owned(),
        TokenKind::OpenBrace => "`{`".to_owned(),
        TokenKind::CloseBrace => "`}`".to_owned(),
    }
}

/// The tokens of one line, read left to right.
struct Cursor<'a> {
    src: &'a [u8],
    tokens: &'a [Token],
    at: usize,
    line_end: usize,
}

impl<'a> Cursor<'a> {
    fn next(&mut self, expected: &'static str) -> Result<&'a Token, Error> {
        match self.tokens.get(self.at) {
            Some(token) => {
                self.at += 1;
                Ok(token)
            }
            None => Err(Error::Unexpected {
                span: self.line_end..self.line_end,
                expected,
                found: "the end of the line".to_owned(),
            }),
        }
    }

    fn unexpected(&self, token: &Token, expected: &'static str) -> Error {
        Error::Unexpected {
            span: token.span.clone(),
            expected,
            found: describe(self.src, token),
        }
    }

    fn word(&mut self, expected: &'static str) -> Result<(&'a [u8], Span), Error> {
        let token = self.next(expected)?;
        if token.kind != TokenKind::Word {
            return Err(self.unexpected(token, expected));
        }
        Ok((&self.src[token.text.clone()], token.span.clone()))
    }

    fn int_at(&mut self, expected: &'static str) -> Result<(i64, Span), Error> {
        let (text, span) = self.word(expected)?;
        match parse_i64(text) {
            Some(value) => Ok((value, span)),
            None => Err(Error::BadNumber {
                span,
                expected,
                found: excerpt(text, 40),
            }),
        }
    }

    fn int(&mut self, expected: &'static str) -> Result<i64, Error> {
        self.int_at(expected).map(|(v, _)| v)
    }

    fn float(&mut self, expected: &'static str) -> Result<f64, Error> {
        let (text, span) = self.word(expected)?;
        match parse_f64(text) {
            Some(value) if value.is_finite() => Ok(value),
            _ => Err(Error::BadNumber {
                span,
                expected,
                found: excerpt(text, 40),
            }),
        }
    }

    /// A quoted string (an unquoted word is taken too).
    fn string(&mut self, expected: &'static str) -> Result<Vec<u8>, Error> {
        let token = self.next(expected)?;
        match token.kind {
            TokenKind::Str | TokenKind::Word => Ok(self.src[token.text.clone()].to_vec()),
            TokenKind::Unterminated => Err(Error::Unexpected {
                span: token.span.clone(),
                expected: "a closing quote `\"` on the same line",
                found: describe(self.src, token),
            }),
            _ => Err(self.unexpected(token, expected)),
        }
    }

    fn punct(&mut self, kind: TokenKind, expected: &'static str) -> Result<(), Error> {
        let token = self.next(expected)?;
        if token.kind != kind {
            return Err(self.unexpected(token, expected));
        }
        Ok(())
    }

    fn vec3(&mut self) -> Result<[f64; 3], Error> {
        self.punct(TokenKind::Open, "`(`")?;
        let v = [
            self.float("a number")?,
            self.float("a number")?,
            self.float("a number")?,
        ];
        self.punct(TokenKind::Close, "`)`")?;
        Ok(v)
    }

    fn end(&self) -> Result<(), Error> {
        match self.tokens.get(self.at) {
            None => Ok(()),
            Some(token) => Err(self.unexpected(token, "the end of the line")),
        }
    }
}

/// The block being read.
pub(crate) enum Open {
    Joints(Block<Joint>),
    Mesh(Block<MeshLine>, MeshChecks),
    Hierarchy(Block<HierarchyEntry>),
    Bounds(Block<Bounds>),
    BaseFrame(Block<BaseFrameEntry>),
    Frame(Frame),
    Unknown(Vec<u8>, Block<Vec<u8>>),
}

/// Indices of one mesh block with their places, checked when the block closes.
#[derive(Default)]
pub(crate) struct MeshChecks {
    counts: [Option<(i64, Span)>; 3],
    vert_index: Vec<(i64, Span)>,
    vert_weights: Vec<(i64, i64, Span)>,
    tri_index: Vec<(i64, Span)>,
    tri_vertex: Vec<(i64, Span)>,
    weight_index: Vec<(i64, Span)>,
}

/// What the file-wide checks at the end need.
#[derive(Default)]
pub(crate) struct Facts {
    kind: Option<(Kind, Span)>,
    headers: Vec<(Header, Span)>,
    joint_parents: Vec<(i64, Span)>,
    hierarchy: Vec<(i64, i64, i64, Span)>,
    /// The largest weight joint index and where.
    max_weight_joint: Option<(i64, Span)>,
    base_frames: Option<(usize, Span)>,
    bounds: Option<(usize, Span)>,
    frames: Vec<(usize, Span)>,
    frame_numbers: Vec<(i64, Span)>,
    mesh_blocks: usize,
}

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

/// What reading a run of lines gives, before the checks that need the whole file. Runs
/// read apart can be joined ([`Lines::append`]) when the join is what one pass would have
/// read.
pub(crate) struct Lines {
    pub(crate) items: Vec<Item>,
    pub(crate) open: Option<(Open, Span, &'static str)>,
    pub(crate) facts: Facts,
    pub(crate) notes: Notes,
    pub(crate) line_ending: Option<LineEnding>,
    pub(crate) any_token: bool,
    /// Bytes drawn from the memory budget (what a join checks against the budget).
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    pub(crate) drawn: u64,
}

/// Reads the lines of `src` from byte `start` to its end, drawing from a fresh budget.
pub(crate) fn read_lines(src: &[u8], start: usize, options: &ReadOptions) -> Result<Lines, Error> {
    let mut notes = Notes::new(options.strict);
    let mut budget = options.limits.budget();
    let mut items: Vec<Item> = Vec::new();
    let mut open: Option<(Open, Span, &'static str)> = None;
    let mut facts = Facts::default();
    let mut tokens = Vec::new();
    let mut line_ending = None;
    let mut any_token = false;

    for_each_line_from(src, start, |range, newline| {
        if newline && line_ending.is_none() {
            line_ending = Some(if src.get(range.end) == Some(&b'\r') {
                LineEnding::CrLf
            } else {
                LineEnding::Lf
            });
        }
        reserve(&mut budget, &range)?;
        let comment_range = tokenize(src, range.clone(), &mut tokens);
        let comment = comment_range.map(|c| src[c].to_vec());
        let raw = || trim(&src[range.clone()]).to_vec();
        let mut cursor = Cursor {
            src,
            tokens: &tokens,
            at: 0,
            line_end: range.end,
        };
        let Some(first) = tokens.first() else {
            let blank = comment.is_none();
            match (&mut open, comment) {
                (Some((block, _, _)), comment) => push_plain(block, blank, comment),
                (None, Some(text)) => items.push(Item::Comment(text)),
                (None, None) => items.push(Item::Blank),
            }
            return Ok(());
        };
        any_token = true;
        if let Some((block, opened, _)) = &mut open {
            if first.kind == TokenKind::CloseBrace {
                cursor.at = 1;
                cursor.end()?;
                let (block, opened, _) = open.take().expect("a block is open");
                close(block, opened, comment, &mut items, &mut facts, &mut notes)?;
                return Ok(());
            }
            let opened = opened.clone();
            return block_line(
                block,
                &opened,
                &mut cursor,
                comment,
                raw,
                &mut facts,
                &mut notes,
            );
        }
        top_line(
            src,
            &mut cursor,
            comment,
            raw,
            &mut items,
            &mut open,
            &mut facts,
            &mut notes,
        )
    })?;
    let drawn = options.limits.budget().remaining() - budget.remaining();
    Ok(Lines {
        items,
        open,
        facts,
        notes,
        line_ending,
        any_token,
        drawn,
    })
}

#[cfg(feature = "parallel")]
impl Lines {
    /// Joins the lines read after these, as one pass over both would have read them;
    /// `false` (and `self` left in any state) when one pass could have read them otherwise:
    /// a block left open across the join, lines of different kinds of file, joints on both
    /// sides (a joint's own index counts the joints before it).
    pub(crate) fn append(&mut self, next: Lines) -> bool {
        if self.open.is_some() {
            return false;
        }
        let (facts, more) = (&mut self.facts, next.facts);
        match (&facts.kind, more.kind) {
            (Some((known, _)), Some((kind, _))) if *known != kind => return false,
            (None, kind) => facts.kind = kind,
            _ => {}
        }
        for (ours, theirs) in [
            (
                facts.joint_parents.is_empty(),
                more.joint_parents.is_empty(),
            ),
            (facts.hierarchy.is_empty(), more.hierarchy.is_empty()),
        ] {
            if !ours && !theirs {
                return false;
            }
        }
        facts.headers.extend(more.headers);
        facts.joint_parents.extend(more.joint_parents);
        facts.hierarchy.extend(more.hierarchy);
        if let Some((joint, span)) = more.max_weight_joint
            && facts
                .max_weight_joint
                .as_ref()
                .is_none_or(|(m, _)| joint > *m)
        {
            facts.max_weight_joint = Some((joint, span));
        }
        for (ours, theirs) in [
            (&mut facts.base_frames, more.base_frames),
            (&mut facts.bounds, more.bounds),
        ] {
            if let Some((n, span)) = theirs {
                *ours = Some((ours.as_ref().map_or(0, |(c, _)| *c) + n, span));
            }
        }
        facts.frames.extend(more.frames);
        facts.frame_numbers.extend(more.frame_numbers);
        facts.mesh_blocks += more.mesh_blocks;
        self.items.extend(next.items);
        self.open = next.open;
        self.notes.append(next.notes);
        self.line_ending = self.line_ending.or(next.line_ending);
        self.any_token |= next.any_token;
        self.drawn = self.drawn.saturating_add(next.drawn);
        true
    }
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
        return Err(Error::UnexpectedEof {
            span: opened,
            block: name.to_owned(),
            line,
        });
    }
    if !any_token {
        return Err(Error::Empty {
            span: src.len()..src.len(),
        });
    }
    let Some((kind, _)) = facts.kind else {
        return Err(Error::Inconsistent {
            span: src.len()..src.len(),
            message: "neither an md5mesh (numMeshes, joints, mesh) nor an md5anim \
                      (numFrames, hierarchy, baseframe, frame)"
                .to_owned(),
        });
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

/// Draws one line's worth of memory from the budget: a line's records take at most a few
/// times its bytes (an `f64` per number of at least two bytes, a fixed record size).
fn reserve(budget: &mut Budget, range: &Span) -> Result<(), Error> {
    budget
        .reserve("MD5 lines", 1, 128 + 4 * range.len() as u64)
        .map_err(|source| Error::Limit {
            span: range.clone(),
            source,
        })
}

fn push_plain(open: &mut Open, blank: bool, comment: Comment) {
    fn push<T>(block: &mut Block<T>, blank: bool, comment: Comment) {
        block.lines.push(match (blank, comment) {
            (false, Some(text)) => Line::Comment(text),
            _ => Line::Blank,
        });
    }
    match open {
        Open::Joints(b) => push(b, blank, comment),
        Open::Mesh(b, _) => push(b, blank, comment),
        Open::Hierarchy(b) => push(b, blank, comment),
        Open::Bounds(b) => push(b, blank, comment),
        Open::BaseFrame(b) => push(b, blank, comment),
        Open::Frame(f) => push(&mut f.block, blank, comment),
        Open::Unknown(_, b) => push(b, blank, comment),
    }
}

/// Sets the file's kind from a line that only one kind holds.
fn decide(facts: &mut Facts, kind: Kind, span: &Span, what: &str, src: &[u8]) -> Result<(), Error> {
    match &facts.kind {
        None => {
            facts.kind = Some((kind, span.clone()));
            Ok(())
        }
        Some((known, _)) if *known == kind => Ok(()),
        Some((known, at)) => {
            let (line, _) = line_col(src, at.start);
            Err(Error::Inconsistent {
                span: span.clone(),
                message: format!(
                    "`{what}` belongs to an {}, but line {line} made this an {}",
                    kind.key(),
                    known.key()
                ),
            })
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn top_line(
    src: &[u8],
    cursor: &mut Cursor<'_>,
    comment: Comment,
    raw: impl Fn() -> Vec<u8>,
    items: &mut Vec<Item>,
    open: &mut Option<(Open, Span, &'static str)>,
    facts: &mut Facts,
    notes: &mut Notes,
) -> Result<(), Error> {
    let first = &cursor.tokens[0];
    let span = first.span.clone();
    let line_span = span.start..cursor.line_end;
    let ends_with_brace = cursor.tokens.last().map(|t| t.kind) == Some(TokenKind::OpenBrace);
    if first.kind != TokenKind::Word {
        notes.warn(codes::UNKNOWN_COMMAND, span, || {
            format!("unknown line starting with {}", describe(src, first))
        })?;
        items.push(Item::Unknown(raw()));
        return Ok(());
    }
    let word = &src[first.text.clone()];
    cursor.at = 1;
    let header = match word {
        b"MD5Version" => Some(Header::Version(cursor.int("a version number")?)),
        b"commandline" => Some(Header::Commandline(cursor.string("a quoted string")?)),
        b"numJoints" => Some(Header::NumJoints(cursor.int("a joint count")?)),
        b"numMeshes" => Some(Header::NumMeshes(cursor.int("a mesh count")?)),
        b"numFrames" => Some(Header::NumFrames(cursor.int("a frame count")?)),
        b"frameRate" => Some(Header::FrameRate(cursor.float("a frame rate")?)),
        b"numAnimatedComponents" => Some(Header::NumAnimatedComponents(
            cursor.int("a component count")?,
        )),
        _ => None,
    };
    if let Some(header) = header {
        cursor.end()?;
        match &header {
            Header::NumMeshes(_) => decide(facts, Kind::Mesh, &span, "numMeshes", src)?,
            Header::NumFrames(_) | Header::FrameRate(_) | Header::NumAnimatedComponents(_) => {
                decide(facts, Kind::Anim, &span, header.keyword(), src)?
            }
            _ => {}
        }
        facts.headers.push((header.clone(), span));
        items.push(Item::Header(header, comment));
        return Ok(());
    }
    let block = match word {
        b"joints" => Some((Open::Joints(Block::default()), "joints", Kind::Mesh)),
        b"mesh" => Some((
            Open::Mesh(Block::default(), MeshChecks::default()),
            "mesh",
            Kind::Mesh,
        )),
        b"hierarchy" => Some((Open::Hierarchy(Block::default()), "hierarchy", Kind::Anim)),
        b"bounds" => Some((Open::Bounds(Block::default()), "bounds", Kind::Anim)),
        b"baseframe" => Some((Open::BaseFrame(Block::default()), "baseframe", Kind::Anim)),
        b"frame" => {
            let index = cursor.int("a frame number")?;
            Some((
                Open::Frame(Frame {
                    index,
                    block: Block::default(),
                }),
                "frame",
                Kind::Anim,
            ))
        }
        _ => None,
    };
    if let Some((mut block, name, kind)) = block {
        cursor.punct(TokenKind::OpenBrace, "`{`")?;
        cursor.end()?;
        decide(facts, kind, &span, name, src)?;
        set_open_comment(&mut block, comment);
        *open = Some((block, line_span, name));
        return Ok(());
    }
    if matches!(word, b"numCuts" | b"cuts" | b"camera") {
        return Err(Error::Camera {
            span,
            keyword: String::from_utf8_lossy(word).into_owned(),
        });
    }
    if ends_with_brace {
        notes.warn(codes::UNKNOWN_BLOCKS, span.clone(), || {
            format!("unknown block `{}` kept as it is", excerpt(word, 40))
        })?;
        let last = cursor.tokens.last().expect("a brace").span.start;
        let header = trim(&src[span.start..last]).to_vec();
        let block = Block {
            open_comment: comment,
            ..Block::default()
        };
        *open = Some((Open::Unknown(header, block), line_span, "unknown"));
        return Ok(());
    }
    notes.warn(codes::UNKNOWN_COMMAND, span, || {
        format!("unknown line `{}` kept as it is", excerpt(word, 40))
    })?;
    items.push(Item::Unknown(raw()));
    Ok(())
}

fn set_open_comment(open: &mut Open, comment: Comment) {
    match open {
        Open::Joints(b) => b.open_comment = comment,
        Open::Mesh(b, _) => b.open_comment = comment,
        Open::Hierarchy(b) => b.open_comment = comment,
        Open::Bounds(b) => b.open_comment = comment,
        Open::BaseFrame(b) => b.open_comment = comment,
        Open::Frame(f) => f.block.open_comment = comment,
        Open::Unknown(_, b) => b.open_comment = comment,
    }
}

fn block_line(
    open: &mut Open,
    _opened: &Span,
    cursor: &mut Cursor<'_>,
    comment: Comment,
    raw: impl Fn() -> Vec<u8>,
    facts: &mut Facts,
    notes: &mut Notes,
) -> Result<(), Error> {
    let src = cursor.src;
    let first = cursor.tokens[0].clone();
    match open {
        Open::Joints(block) => {
            let name = cursor.string("a quoted joint name")?;
            let (parent, parent_span) = cursor.int_at("a parent index")?;
            let position = cursor.vec3()?;
            let orientation = cursor.vec3()?;
            cursor.end()?;
            let own = facts.joint_parents.len() as i64;
            if parent == own {
                return Err(Error::Inconsistent {
                    span: parent_span,
                    message: format!("joint {own} is its own parent"),
                });
            }
            facts.joint_parents.push((parent, parent_span));
            let joint = Joint {
                name,
                parent,
                position,
                orientation,
            };
            block.lines.push(Line::Record(joint, comment));
        }
        Open::Hierarchy(block) => {
            let name = cursor.string("a quoted joint name")?;
            let (parent, span) = cursor.int_at("a parent index")?;
            let (flags, flags_span) = cursor.int_at("flags")?;
            let start_index = cursor.int("a start index")?;
            cursor.end()?;
            if !(0..=63).contains(&flags) {
                return Err(Error::BadNumber {
                    span: flags_span,
                    expected: "flags from 0 to 63",
                    found: flags.to_string(),
                });
            }
            let own = facts.hierarchy.len() as i64;
            if parent == own {
                return Err(Error::Inconsistent {
                    span,
                    message: format!("joint {own} is its own parent"),
                });
            }
            facts.hierarchy.push((parent, flags, start_index, span));
            let entry = HierarchyEntry {
                name,
                parent,
                flags,
                start_index,
            };
            block.lines.push(Line::Record(entry, comment));
        }
        Open::Bounds(block) => {
            let min = cursor.vec3()?;
            let max = cursor.vec3()?;
            cursor.end()?;
            block.lines.push(Line::Record(Bounds { min, max }, comment));
        }
        Open::BaseFrame(block) => {
            let position = cursor.vec3()?;
            let orientation = cursor.vec3()?;
            cursor.end()?;
            let entry = BaseFrameEntry {
                position,
                orientation,
            };
            block.lines.push(Line::Record(entry, comment));
        }
        Open::Frame(frame) => {
            let mut values = Vec::with_capacity(cursor.tokens.len());
            while cursor.at < cursor.tokens.len() {
                values.push(cursor.float("a number")?);
            }
            frame.block.lines.push(Line::Record(values, comment));
        }
        Open::Unknown(_, block) => block.lines.push(Line::Unknown(raw())),
        Open::Mesh(block, checks) => {
            if first.kind != TokenKind::Word {
                notes.warn(codes::UNKNOWN_COMMAND, first.span.clone(), || {
                    format!("unknown mesh line starting with {}", describe(src, &first))
                })?;
                block.lines.push(Line::Unknown(raw()));
                return Ok(());
            }
            cursor.at = 1;
            let word = &src[first.text.clone()];
            let record = match word {
                b"shader" => MeshLine::Shader(cursor.string("a quoted shader name")?),
                b"name" => MeshLine::Name(cursor.string("a quoted mesh name")?),
                b"numverts" | b"numtris" | b"numweights" => {
                    let (n, span) = cursor.int_at("a count")?;
                    let (slot, line) = match word {
                        b"numverts" => (0, MeshLine::NumVerts(n)),
                        b"numtris" => (1, MeshLine::NumTris(n)),
                        _ => (2, MeshLine::NumWeights(n)),
                    };
                    checks.counts[slot] = Some((n, span));
                    line
                }
                b"vert" => {
                    let (index, index_span) = cursor.int_at("a vertex index")?;
                    cursor.punct(TokenKind::Open, "`(`")?;
                    let uv = [cursor.float("a number")?, cursor.float("a number")?];
                    cursor.punct(TokenKind::Close, "`)`")?;
                    let (first_weight, span) = cursor.int_at("the first weight's index")?;
                    let weight_count = cursor.int("a weight count")?;
                    checks.vert_index.push((index, index_span));
                    checks.vert_weights.push((first_weight, weight_count, span));
                    MeshLine::Vert(Vert {
                        index,
                        uv,
                        first_weight,
                        weight_count,
                    })
                }
                b"tri" => {
                    let (index, index_span) = cursor.int_at("a triangle index")?;
                    let mut vertices = [0; 3];
                    for v in &mut vertices {
                        let (value, span) = cursor.int_at("a vertex index")?;
                        checks.tri_vertex.push((value, span));
                        *v = value;
                    }
                    checks.tri_index.push((index, index_span));
                    MeshLine::Tri(Tri { index, vertices })
                }
                b"weight" => {
                    let (index, index_span) = cursor.int_at("a weight index")?;
                    let (joint, joint_span) = cursor.int_at("a joint index")?;
                    let bias = cursor.float("a bias")?;
                    let position = cursor.vec3()?;
                    if joint < 0 {
                        return Err(Error::IndexOutOfRange {
                            span: joint_span,
                            what: "weight joint",
                            index: joint,
                            len: facts.joint_parents.len(),
                        });
                    }
                    if facts
                        .max_weight_joint
                        .as_ref()
                        .is_none_or(|(m, _)| joint > *m)
                    {
                        facts.max_weight_joint = Some((joint, joint_span));
                    }
                    checks.weight_index.push((index, index_span));
                    MeshLine::Weight(Weight {
                        index,
                        joint,
                        bias,
                        position,
                    })
                }
                _ => {
                    notes.warn(codes::UNKNOWN_COMMAND, first.span.clone(), || {
                        format!("unknown mesh line `{}` kept as it is", excerpt(word, 40))
                    })?;
                    block.lines.push(Line::Unknown(raw()));
                    return Ok(());
                }
            };
            cursor.end()?;
            block.lines.push(Line::Record(record, comment));
        }
    }
    Ok(())
}

/// Record indices: out of range is an error, out of order a warning.
fn check_indices(
    what: &'static str,
    indices: &[(i64, Span)],
    notes: &mut Notes,
) -> Result<(), Error> {
    for (position, (index, span)) in indices.iter().enumerate() {
        if *index < 0 || *index >= indices.len() as i64 {
            return Err(Error::IndexOutOfRange {
                span: span.clone(),
                what,
                index: *index,
                len: indices.len(),
            });
        }
        if *index != position as i64 {
            notes.warn(codes::INDEX_OUT_OF_RANGE, span.clone(), || {
                format!("{what} {index} is record {position}: records are taken in file order")
            })?;
        }
    }
    Ok(())
}

fn check_count(
    keyword: &str,
    declared: Option<&(i64, Span)>,
    found: usize,
    notes: &mut Notes,
) -> Result<(), Error> {
    if let Some((n, span)) = declared
        && *n != found as i64
    {
        notes.warn(COUNT_MISMATCH, span.clone(), || {
            format!("`{keyword} {n}` but {found} records follow")
        })?;
    }
    Ok(())
}

fn close(
    open: Open,
    opened: Span,
    close_comment: Comment,
    items: &mut Vec<Item>,
    facts: &mut Facts,
    notes: &mut Notes,
) -> Result<(), Error> {
    let item = match open {
        Open::Joints(mut b) => {
            b.close_comment = close_comment;
            Item::Joints(b)
        }
        Open::Hierarchy(mut b) => {
            b.close_comment = close_comment;
            Item::Hierarchy(b)
        }
        Open::Bounds(mut b) => {
            b.close_comment = close_comment;
            let n = b.records().count();
            facts.bounds = Some((facts.bounds.as_ref().map_or(0, |(c, _)| *c) + n, opened));
            Item::Bounds(b)
        }
        Open::BaseFrame(mut b) => {
            b.close_comment = close_comment;
            let n = b.records().count();
            let before = facts.base_frames.as_ref().map_or(0, |(c, _)| *c);
            facts.base_frames = Some((before + n, opened));
            Item::BaseFrame(b)
        }
        Open::Frame(mut f) => {
            f.block.close_comment = close_comment;
            facts.frames.push((f.values().count(), opened.clone()));
            facts.frame_numbers.push((f.index, opened));
            Item::Frame(f)
        }
        Open::Unknown(header, mut b) => {
            b.close_comment = close_comment;
            Item::UnknownBlock(header, b)
        }
        Open::Mesh(mut b, checks) => {
            b.close_comment = close_comment;
            facts.mesh_blocks += 1;
            let (verts, tris, weights) = (
                checks.vert_index.len(),
                checks.tri_index.len(),
                checks.weight_index.len(),
            );
            check_count("numverts", checks.counts[0].as_ref(), verts, notes)?;
            check_count("numtris", checks.counts[1].as_ref(), tris, notes)?;
            check_count("numweights", checks.counts[2].as_ref(), weights, notes)?;
            check_indices("vert index", &checks.vert_index, notes)?;
            check_indices("tri index", &checks.tri_index, notes)?;
            check_indices("weight index", &checks.weight_index, notes)?;
            for (value, span) in &checks.tri_vertex {
                if *value < 0 || *value >= verts as i64 {
                    return Err(Error::IndexOutOfRange {
                        span: span.clone(),
                        what: "triangle vertex",
                        index: *value,
                        len: verts,
                    });
                }
            }
            for (first, count, span) in &checks.vert_weights {
                let fits = *first >= 0
                    && *count >= 0
                    && first
                        .checked_add(*count)
                        .is_some_and(|end| end <= weights as i64);
                if !fits {
                    return Err(Error::IndexOutOfRange {
                        span: span.clone(),
                        what: "vertex weights starting at",
                        index: *first,
                        len: weights,
                    });
                }
                if *count == 0 {
                    notes.warn(codes::BLEND_WITHOUT_WEIGHT, span.clone(), || {
                        "a vertex without weights stays at the origin, bound to no joint".to_owned()
                    })?;
                }
            }
            Item::Mesh(b)
        }
    };
    items.push(item);
    Ok(())
}

/// The checks that need the whole file: parents and weight joints against the joints,
/// frames against the hierarchy, counts against the header.
fn check_file(kind: Kind, facts: &Facts, notes: &mut Notes) -> Result<(), Error> {
    let header = |pick: fn(&Header) -> Option<i64>| {
        facts
            .headers
            .iter()
            .find_map(|(h, span)| pick(h).map(|v| (v, span.clone())))
    };
    match facts
        .headers
        .iter()
        .find(|(h, _)| matches!(h, Header::Version(_)))
    {
        None => notes.warn(codes::MISSING_MAGIC, 0..0, || {
            "no `MD5Version 10` line".to_owned()
        })?,
        Some((Header::Version(v), span)) if *v != 10 => {
            notes.warn(codes::UNSUPPORTED_VERSION, span.clone(), || {
                format!("MD5Version {v}: id Tech 4 files are version 10")
            })?
        }
        _ => {}
    }
    let num_joints = header(|h| match h {
        Header::NumJoints(n) => Some(*n),
        _ => None,
    });
    match kind {
        Kind::Mesh => {
            let joints = facts.joint_parents.len();
            for (parent, span) in &facts.joint_parents {
                if *parent < -1 || *parent >= joints as i64 {
                    return Err(Error::IndexOutOfRange {
                        span: span.clone(),
                        what: "parent joint",
                        index: *parent,
                        len: joints,
                    });
                }
            }
            if let Some((joint, span)) = &facts.max_weight_joint
                && *joint >= joints as i64
            {
                return Err(Error::IndexOutOfRange {
                    span: span.clone(),
                    what: "weight joint",
                    index: *joint,
                    len: joints,
                });
            }
            check_count("numJoints", num_joints.as_ref(), joints, notes)?;
            let meshes = header(|h| match h {
                Header::NumMeshes(n) => Some(*n),
                _ => None,
            });
            check_count("numMeshes", meshes.as_ref(), facts.mesh_blocks, notes)?;
        }
        Kind::Anim => {
            let joints = facts.hierarchy.len();
            let components = header(|h| match h {
                Header::NumAnimatedComponents(n) => Some(*n),
                _ => None,
            });
            for (parent, flags, start, span) in &facts.hierarchy {
                if *parent < -1 || *parent >= joints as i64 {
                    return Err(Error::IndexOutOfRange {
                        span: span.clone(),
                        what: "parent joint",
                        index: *parent,
                        len: joints,
                    });
                }
                if let Some((c, _)) = &components
                    && *flags != 0
                    && (*start < 0 || start.saturating_add(flags.count_ones().into()) > *c)
                {
                    notes.warn(codes::INDEX_OUT_OF_RANGE, span.clone(), || {
                        format!(
                            "components {start}.. of flags {flags} pass the frame's {c} \
                             numbers: the missing ones keep the baseframe value"
                        )
                    })?;
                }
            }
            match &facts.base_frames {
                Some((n, span)) if *n != joints => {
                    return Err(Error::Inconsistent {
                        span: span.clone(),
                        message: format!("baseframe has {n} lines for {joints} joints"),
                    });
                }
                None if joints > 0 => {
                    return Err(Error::Inconsistent {
                        span: facts.kind.as_ref().map_or(0..0, |(_, s)| s.clone()),
                        message: format!("no baseframe block for the {joints} joints"),
                    });
                }
                _ => {}
            }
            check_count("numJoints", num_joints.as_ref(), joints, notes)?;
            let num_frames = header(|h| match h {
                Header::NumFrames(n) => Some(*n),
                _ => None,
            });
            check_count("numFrames", num_frames.as_ref(), facts.frames.len(), notes)?;
            if let Some((n, span)) = &facts.bounds
                && *n != facts.frames.len()
            {
                notes.warn(COUNT_MISMATCH, span.clone(), || {
                    format!("{n} bounds for {} frames", facts.frames.len())
                })?;
            }
            for (position, (number, span)) in facts.frame_numbers.iter().enumerate() {
                if *number != position as i64 {
                    notes.warn(codes::INDEX_OUT_OF_RANGE, span.clone(), || {
                        format!("frame {number} is frame block {position}: frames are taken in file order")
                    })?;
                }
            }
            if let Some((c, _)) = &components {
                for (values, span) in &facts.frames {
                    if *values as i64 != *c {
                        notes.warn(COUNT_MISMATCH, span.clone(), || {
                            format!("a frame of {values} numbers, `numAnimatedComponents {c}`")
                        })?;
                    }
                }
            }
        }
    }
    Ok(())
}
