//! Bytes to commands: the header, one command per line, and the verbatim comment section.

use crate::command::{Attribute, FaceBase, PoseKind, VertexArrayDecl};
use crate::error::{Detail, Error};
use crate::fast::fast_line;
use crate::lexer::{Lexeme, LineLexer, Token, token_text, trim_end};
use crate::lines::{HEADER, Line, header_line, header_start};
use crate::notes::Notes;
use crate::store::{Follow, Kind, Store, attribute_param, base_param, pose_param};
use rigport_model_core::codes;
use rigport_model_core::diagnostic::{Span, excerpt};
use rigport_model_core::number::parse_i64;
use rigport_model_core::{Budget, LimitError, ReadOptions};
use std::ops::Range;

/// What the parser found, before interpretation.
pub(crate) struct Parsed {
    pub header_extra: Vec<u8>,
    pub commands: Store,
    pub comment: Option<Vec<u8>>,
    /// Whether the commands were handed to the caller's `follow` as they were read (all of
    /// them, in order, and nothing else); otherwise it may have been given any or none.
    pub followed: bool,
}

/// How the body of a file is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// On every core when the file is large and the `parallel` feature is on.
    Auto,
    /// On the calling thread.
    #[cfg_attr(not(test), allow(dead_code))]
    One,
    /// In (at most) this many chunks on the thread pool, whatever the size (for tests).
    #[cfg_attr(any(not(test), not(feature = "parallel")), allow(dead_code))]
    Chunks(usize),
}

/// Reads the header and every command.
pub(crate) fn parse(
    src: &[u8],
    options: &ReadOptions,
    notes: &mut Notes,
    split: Split,
    follow: Follow<'_>,
) -> Result<Parsed, Error> {
    let start = header_start(src);
    let (line_end, body) = header_line(src);
    let first_line = &src[start..line_end];
    if !first_line.starts_with(HEADER) {
        let found = excerpt(trim_end(first_line), 40);
        return Err(Error::at(start..line_end, Detail::MissingHeader { found }));
    }
    let header_extra = trim_end(&first_line[HEADER.len()..]).to_vec();
    let mut followed = true;
    let (commands, comment) = match parse_body_parallel(src, body, options, notes, split, follow) {
        Some(done) => done?,
        None => {
            followed = false;
            let mut store = Store::default();
            let mut budget = options.limits.budget();
            let comment = parse_lines(
                src,
                body..src.len(),
                options,
                notes,
                &mut store,
                &mut budget,
            )?;
            (store, comment)
        }
    };
    notes.flush_strict(options)?;
    Ok(Parsed {
        header_extra,
        commands,
        comment: comment.map(|at| src.get(at..).unwrap_or_default().to_vec()),
        followed,
    })
}

/// The body read on several threads, or `None` to read it on this one (see
/// [`crate::parallel`]).
#[cfg(feature = "parallel")]
fn parse_body_parallel(
    src: &[u8],
    body: usize,
    options: &ReadOptions,
    notes: &mut Notes,
    split: Split,
    follow: Follow<'_>,
) -> Option<Result<(Store, Option<usize>), Error>> {
    use crate::parallel::{parse_body, parse_chunks, split as split_body};
    match split {
        Split::Auto => parse_body(src, body, options, notes, parse_lines, follow),
        Split::One => None,
        Split::Chunks(count) => {
            let ranges = split_body(src, body, count);
            parse_chunks(src, &ranges, options, notes, parse_lines, follow)
        }
    }
}

/// Without the `parallel` feature every body is read on the calling thread.
#[cfg(not(feature = "parallel"))]
fn parse_body_parallel(
    _: &[u8],
    _: usize,
    _: &ReadOptions,
    _: &mut Notes,
    _: Split,
    _: Follow<'_>,
) -> Option<Result<(Store, Option<usize>), Error>> {
    None
}

/// Reads the command lines of `range` (which starts a line and ends at a line's end) into
/// `store`, drawing each command's size from `budget`. Returns where the `comment`
/// section's text starts if its line is in `range` (reading stops there). Spans in errors
/// and notes are offsets in the whole of `src`, wherever `range` starts.
pub(crate) fn parse_lines(
    src: &[u8],
    range: Range<usize>,
    options: &ReadOptions,
    notes: &mut Notes,
    store: &mut Store,
    budget: &mut Budget,
) -> Result<Option<usize>, Error> {
    let ends_with_newline = src.last() == Some(&b'\n');
    let end = range.end.min(src.len());
    let mut lexer = LineLexer::default();
    let mut at = range.start;
    let mut consumed = ReadSoFar::new(options, at);
    while at < end {
        consumed.reached(at);
        if fast_lines_enabled() {
            if let Some(next) = fast_line(src, at, end, store, budget)? {
                at = next;
                continue;
            }
        }
        let (lexemes, next) = lexer.line(src, at, end);
        at = next;
        if lexemes.is_empty() {
            continue;
        }
        let line = Line::new(lexemes, next);
        if line.starts_comment_section(src) {
            // Everything from the next line to the end of the file, verbatim.
            return Ok(Some(line.next_line));
        }
        let mut comment = line.comment;
        if let Some(line_span) = line.code_span() {
            let is_cut_off = line.next_line == src.len() && !ends_with_newline;
            let mark = store.mark();
            let (kind, param) = match read_command(src, line.code, notes, store) {
                Ok(read) => read,
                // A damaged last line (a cut-off file) is kept raw in lenient mode.
                Err(err) if is_cut_off && !options.strict => {
                    notes.warn(
                        codes::DAMAGED_TAIL,
                        Some(line_span.clone()),
                        format!("the last line is cut off ({err}); kept as it is"),
                    );
                    store.rollback(&mark);
                    // With its trailing comment: the line must be written back whole, as the
                    // cut-off last line, to read back the same way.
                    let end = comment.take().map_or(line_span.end, |c| c.span.end);
                    store.push_bytes(&src[line_span.start..end]);
                    (Kind::Unknown, 0)
                }
                Err(err) => return Err(err),
            };
            if kind == Kind::Unknown {
                notes.warn(
                    codes::UNKNOWN_COMMAND,
                    Some(line_span.clone()),
                    format!(
                        "unknown command `{}` kept as it is",
                        excerpt(&src[line_span.clone()], 40)
                    ),
                );
            }
            store.finish(kind, param, &mark, budget)?;
        }
        if let Some(comment) = comment {
            let mark = store.mark();
            store.push_bytes(token_text(src, comment));
            store.finish(Kind::Comment, 0, &mark, budget)?;
        }
    }
    consumed.reached_end(end);
    Ok(None)
}

/// Tells [`ReadOptions::consumed`] about the lines read, a step at a time.
struct ReadSoFar<'o> {
    hook: &'o rigport_model_core::Consumed,
    /// Where the bytes not yet reported start.
    from: usize,
    /// Where the next report is due (never when nobody listens).
    due: usize,
}

impl<'o> ReadSoFar<'o> {
    /// Reports at least this many bytes at once: a system call per megabyte costs nothing
    /// beside reading it, and the pages held back are a few.
    const STEP: usize = 1 << 20;

    fn new(options: &'o ReadOptions, at: usize) -> Self {
        let hook = &options.consumed;
        let due = if hook.is_set() {
            at.saturating_add(Self::STEP)
        } else {
            usize::MAX
        };
        ReadSoFar {
            hook,
            from: at,
            due,
        }
    }

    /// Every line before `at` is read.
    #[inline]
    fn reached(&mut self, at: usize) {
        if at >= self.due {
            self.hook.call(self.from..at);
            self.from = at;
            self.due = at.saturating_add(Self::STEP);
        }
    }

    /// The range is read to its end (nothing happens when nobody listens).
    fn reached_end(&mut self, end: usize) {
        self.hook.call(self.from..end.max(self.from));
    }
}

#[cfg(test)]
thread_local! {
    /// Tests turn the fast path off to compare it with the general reader.
    pub(crate) static FAST_LINES: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether plain lines take the fast path ([`fast_line`]); always outside tests.
fn fast_lines_enabled() -> bool {
    #[cfg(test)]
    return FAST_LINES.with(std::cell::Cell::get);
    #[cfg(not(test))]
    true
}

/// The arguments of one command line and how to complain about them.
struct Args<'a> {
    src: &'a [u8],
    keyword: &'a [u8],
    line: Span,
    items: &'a [Lexeme],
}

/// The error for a store whose side table of wide numbers is full.
fn store_full() -> Error {
    Error::from(LimitError {
        what: "IQE commands",
        count: 1,
        item_bytes: 8,
        remaining: 0,
    })
}

impl<'a> Args<'a> {
    fn syntax(&self, span: Span, expected: &'static str, found: &[u8]) -> Error {
        let detail = Detail::Syntax {
            command: String::from_utf8_lossy(self.keyword).into_owned(),
            expected,
            found: excerpt(found, 40),
        };
        Error::at(span, detail)
    }

    fn text(&self, lexeme: &Lexeme) -> &'a [u8] {
        token_text(self.src, lexeme)
    }

    /// A bare word's bytes; a quoted name or a comment where a value belongs is an error.
    fn value(&self, lexeme: &Lexeme, expected: &'static str) -> Result<&'a [u8], Error> {
        if lexeme.token != Token::Word {
            return Err(self.syntax(
                lexeme.span.clone(),
                expected,
                &self.src[lexeme.span.clone()],
            ));
        }
        Ok(self.text(lexeme))
    }

    /// Stores one number straight from its text, as `str::parse` reads it (short decimals
    /// never become an `f64`, see [`crate::packed`]).
    fn push_number(&self, lexeme: &Lexeme, store: &mut Store) -> Result<(), Error> {
        let text = self.value(lexeme, "a number")?;
        match store.push_float_text(text) {
            Some(true) => Ok(()),
            Some(false) => Err(store_full()),
            None => Err(self.syntax(lexeme.span.clone(), "a number", text)),
        }
    }

    /// Stores every argument as a number.
    fn push_numbers(&self, store: &mut Store) -> Result<(), Error> {
        self.items
            .iter()
            .try_for_each(|lexeme| self.push_number(lexeme, store))
    }

    /// An integer, parsed from the bytes: as `str::parse`.
    fn integer(&self, lexeme: &Lexeme) -> Result<i64, Error> {
        let text = self.value(lexeme, "an integer")?;
        parse_i64(text).ok_or_else(|| self.syntax(lexeme.span.clone(), "an integer", text))
    }

    /// Stores one integer.
    fn push_integer(&self, lexeme: &Lexeme, store: &mut Store) -> Result<(), Error> {
        let value = self.integer(lexeme)?;
        if store.push_int(value) {
            Ok(())
        } else {
            Err(store_full())
        }
    }

    /// Stores every argument as an integer.
    fn push_integers(&self, store: &mut Store) -> Result<(), Error> {
        self.items
            .iter()
            .try_for_each(|lexeme| self.push_integer(lexeme, store))
    }

    /// Stores the one optional integer argument; the parameter says whether it was there.
    fn push_optional_integer(&self, store: &mut Store, notes: &mut Notes) -> Result<u8, Error> {
        self.extra_after(1, notes);
        match self.items.first() {
            Some(lexeme) => self.push_integer(lexeme, store).map(|()| 1),
            None => Ok(0),
        }
    }

    /// Stores the one optional number argument; the parameter says whether it was there.
    fn push_optional_number(&self, store: &mut Store, notes: &mut Notes) -> Result<u8, Error> {
        self.extra_after(1, notes);
        match self.items.first() {
            Some(lexeme) => self.push_number(lexeme, store).map(|()| 1),
            None => Ok(0),
        }
    }

    /// Stores the optional name; the parameter says whether it was there.
    fn push_name(&self, store: &mut Store, notes: &mut Notes) -> u8 {
        self.extra_after(1, notes);
        store.push_optional_name(self.items.first().map(|l| self.text(l)))
    }

    /// Warns about arguments past the `max` a command uses.
    fn extra_after(&self, max: usize, notes: &mut Notes) {
        if let Some(extra) = self.items.get(max) {
            let last = self.items.last().map_or(extra.span.end, |l| l.span.end);
            notes.warn(
                codes::EXTRA_ARGUMENTS,
                Some(extra.span.start..last),
                format!(
                    "`{}` uses {max} value(s); {} more ignored",
                    String::from_utf8_lossy(self.keyword),
                    self.items.len() - max
                ),
            );
        }
    }

    fn end_of_line(&self) -> Span {
        self.line.end..self.line.end
    }
}

/// Reads one command line (its first lexeme is not a comment), appending its arguments to
/// `store`; returns the kind and parameter of the entry to finish.
fn read_command(
    src: &[u8],
    code: &[Lexeme],
    notes: &mut Notes,
    store: &mut Store,
) -> Result<(Kind, u8), Error> {
    let line = code[0].span.start..code[code.len() - 1].span.end;
    if code[0].token != Token::Word {
        store.push_bytes(&src[line]);
        return Ok((Kind::Unknown, 0));
    }
    let args = Args {
        src,
        keyword: token_text(src, &code[0]),
        line: line.clone(),
        items: &code[1..],
    };
    let attribute = |a: Attribute, store: &mut Store, notes: &mut Notes| {
        args.extra_after(a.max_values(), notes);
        args.push_numbers(store)
            .map(|()| (Kind::Vertex, attribute_param(a)))
    };
    let pose = |kind: PoseKind, store: &mut Store, notes: &mut Notes| {
        args.extra_after(kind.max_values(), notes);
        args.push_numbers(store)
            .map(|()| (Kind::Pose, pose_param(kind)))
    };
    let face = |base: FaceBase, store: &mut Store, notes: &mut Notes| {
        args.push_integers(store)?;
        if args.items.len() < 3 {
            notes.warn(
                codes::SHORT_FACE,
                Some(line.clone()),
                format!(
                    "a face needs 3 indices, this one has {}; it makes no triangle",
                    args.items.len()
                ),
            );
        }
        Ok::<_, Error>((Kind::Face, base_param(base)))
    };
    Ok(match args.keyword {
        b"vp" => attribute(Attribute::Position, store, notes)?,
        b"vt" => attribute(Attribute::TexCoord, store, notes)?,
        b"vn" => attribute(Attribute::Normal, store, notes)?,
        b"vx" => attribute(Attribute::Tangent, store, notes)?,
        b"vc" => attribute(Attribute::Color, store, notes)?,
        [b'v', digit @ b'0'..=b'9'] => attribute(Attribute::Custom(digit - b'0'), store, notes)?,
        b"vb" => {
            push_blends(&args, store, notes)?;
            (Kind::Blend, 0)
        }
        b"vs" => match args.push_optional_integer(store, notes)? {
            1 => (Kind::SmoothIndex, 0),
            _ => {
                return Err(args.syntax(args.end_of_line(), "a smoothing index", b"end of line"));
            }
        },
        b"fa" => face(FaceBase::File, store, notes)?,
        b"fm" => face(FaceBase::Mesh, store, notes)?,
        b"fs" => {
            args.push_integers(store)?;
            (Kind::FaceSmooth, 0)
        }
        b"pq" => pose(PoseKind::Quaternion, store, notes)?,
        b"pm" => pose(PoseKind::Matrix, store, notes)?,
        b"pa" => pose(PoseKind::Angles, store, notes)?,
        b"mesh" => (Kind::Mesh, args.push_name(store, notes)),
        b"material" => (Kind::Material, args.push_name(store, notes)),
        b"animation" => (Kind::Animation, args.push_name(store, notes)),
        b"frame" => (Kind::Frame, args.push_name(store, notes)),
        b"loop" => {
            args.extra_after(0, notes);
            (Kind::Loop, 0)
        }
        b"framerate" => match args.push_optional_number(store, notes)? {
            1 => (Kind::Framerate, 0),
            _ => {
                return Err(args.syntax(args.end_of_line(), "frames per second", b"end of line"));
            }
        },
        b"smoothuv" => (Kind::SmoothUv, args.push_optional_integer(store, notes)?),
        b"smoothgroup" => (Kind::SmoothGroup, args.push_optional_integer(store, notes)?),
        b"smoothangle" => (Kind::SmoothAngle, args.push_optional_number(store, notes)?),
        b"joint" => read_joint(&args, store, notes)?,
        b"vertexarray" => read_vertex_array(&args, store, notes)?,
        _ => {
            store.push_bytes(&src[line]);
            (Kind::Unknown, 0)
        }
    })
}

/// `vb` pairs; a joint index without a weight gets weight 0.
fn push_blends(args: &Args<'_>, store: &mut Store, notes: &mut Notes) -> Result<(), Error> {
    for pair in args.items.chunks(2) {
        args.push_integer(&pair[0], store)?;
        match pair.get(1) {
            Some(l) => args.push_number(l, store)?,
            None => {
                notes.warn(
                    codes::BLEND_WITHOUT_WEIGHT,
                    Some(pair[0].span.clone()),
                    "`vb` joint index without a weight; weight 0 assumed",
                );
                if !store.push_float(0.0) {
                    return Err(store_full());
                }
            }
        }
    }
    Ok(())
}

fn read_joint(args: &Args<'_>, store: &mut Store, notes: &mut Notes) -> Result<(Kind, u8), Error> {
    let Some(first) = args.items.first() else {
        return Err(args.syntax(args.end_of_line(), "a joint name", b"end of line"));
    };
    args.extra_after(2, notes);
    let parent = args.items.get(1).map(|l| args.integer(l)).transpose()?;
    store.push_joint(args.text(first), parent);
    Ok((Kind::Joint, u8::from(parent.is_some())))
}

fn read_vertex_array(
    args: &Args<'_>,
    store: &mut Store,
    notes: &mut Notes,
) -> Result<(Kind, u8), Error> {
    if args.items.len() < 3 {
        return Err(args.syntax(
            args.end_of_line(),
            "`vertexarray TYPE COMPONENT SIZE [NAME]`",
            &args.src[args.line.clone()],
        ));
    }
    args.extra_after(4, notes);
    let word = |i: usize| args.text(&args.items[i]).to_vec();
    let decl = VertexArrayDecl {
        kind: word(0),
        component: word(1),
        size: word(2),
        name: args.items.get(3).map(|l| args.text(l).to_vec()),
    };
    store.push_vertex_array(&decl);
    Ok((Kind::VertexArray, u8::from(decl.name.is_some())))
}
