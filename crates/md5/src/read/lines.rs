//! The line state machine: one pass over a run of lines, a block at a time.

use super::checks::*;
use super::cursor::*;
use super::notes::*;
use super::state::*;
use crate::error::{Detail, Error};
use crate::file::*;
use crate::lex::{TokenKind, for_each_line_from, tokenize, trim};
use rigport_model_core::diagnostic::{Span, excerpt};
use rigport_model_core::{Budget, ReadOptions, codes};

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

/// Draws one line's worth of memory from the budget: a line's records take at most a few
/// times its bytes (an `f64` per number of at least two bytes, a fixed record size).
pub(super) fn reserve(budget: &mut Budget, range: &Span) -> Result<(), Error> {
    budget
        .reserve("MD5 lines", 1, 128 + 4 * range.len() as u64)
        .map_err(|source| Error::limit(range.clone(), source))
}

#[allow(clippy::too_many_arguments)]
pub(super) fn top_line(
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
        return Err(Error::at(
            span,
            Detail::Camera {
                keyword: String::from_utf8_lossy(word).into_owned(),
            },
        ));
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

pub(super) fn block_line(
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
                return Err(Error::at(
                    parent_span,
                    Detail::Inconsistent {
                        message: format!("joint {own} is its own parent"),
                    },
                ));
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
                return Err(Error::at(
                    flags_span,
                    Detail::BadNumber {
                        expected: "flags from 0 to 63",
                        found: flags.to_string(),
                    },
                ));
            }
            let own = facts.hierarchy.len() as i64;
            if parent == own {
                return Err(Error::at(
                    span,
                    Detail::Inconsistent {
                        message: format!("joint {own} is its own parent"),
                    },
                ));
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
                        return Err(Error::at(
                            joint_span,
                            Detail::IndexOutOfRange {
                                what: "weight joint",
                                index: joint,
                                len: facts.joint_parents.len(),
                            },
                        ));
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
