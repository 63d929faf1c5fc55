//! Bytes to [`Command`]s: the header, one command per line, and the verbatim comment section.

use crate::command::{Attribute, Command, FaceBase, PoseKind, VertexArrayDecl};
use crate::error::Error;
use crate::lexer::{Lexeme, Token, for_each_line, token_text, trim_end};
use crate::notes::Notes;
use rigport_model_core::diagnostic::{Span, excerpt};
use rigport_model_core::number::{parse_f64, parse_i64};
use rigport_model_core::{Budget, ReadOptions};

/// The header every IQE file starts with.
pub(crate) const HEADER: &[u8] = b"# Inter-Quake Export";
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What the parser found, before interpretation.
pub(crate) struct Parsed {
    pub header_extra: Vec<u8>,
    pub commands: Vec<Command>,
    pub spans: Vec<Span>,
    pub comment: Option<Vec<u8>>,
}

/// Where the header starts: after an optional byte-order mark and spaces or tabs (iqm.cpp
/// accepts anything before the `#`; real files have leading spaces).
pub(crate) fn header_start(bytes: &[u8]) -> usize {
    let after_bom = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let rest = bytes.get(after_bom..).unwrap_or_default();
    after_bom
        + rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
}

/// Reads the header and every command.
pub(crate) fn parse(src: &[u8], options: &ReadOptions, notes: &mut Notes) -> Result<Parsed, Error> {
    let start = header_start(src);
    let line_end = src[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |p| start + p);
    let first_line = &src[start..line_end];
    if !first_line.starts_with(HEADER) {
        return Err(Error::MissingHeader {
            span: start..line_end,
            found: excerpt(trim_end(first_line), 40),
        });
    }
    let mut budget = options.limits.budget();
    let mut parsed = Parsed {
        header_extra: trim_end(&first_line[HEADER.len()..]).to_vec(),
        commands: Vec::new(),
        spans: Vec::new(),
        comment: None,
    };
    let body = (line_end + 1).min(src.len());
    let ends_with_newline = src.last() == Some(&b'\n');
    for_each_line(src, body, |lexemes, next_line| {
        let is_cut_off = next_line == src.len() && !ends_with_newline;
        let (code, comment) = split_trailing_comment(lexemes);
        if let Some(first) = code.first()
            && first.token == Token::Word
            && token_text(src, first) == b"comment"
        {
            // Everything from the next line to the end of the file, verbatim.
            parsed.comment = Some(src.get(next_line..).unwrap_or_default().to_vec());
            return Ok(false);
        }
        if !code.is_empty() {
            let line_span = code[0].span.start..code[code.len() - 1].span.end;
            let command = match read_command(src, code, notes) {
                Ok(command) => command,
                // A damaged last line (a cut-off file) is kept raw in lenient mode.
                Err(err) if is_cut_off && !options.strict => {
                    notes.warn(
                        "damaged-tail",
                        Some(line_span.clone()),
                        format!("the last line is cut off ({err}); kept as it is"),
                    );
                    Command::Unknown(src[line_span.clone()].to_vec())
                }
                Err(err) => return Err(err),
            };
            if let Command::Unknown(raw) = &command {
                notes.warn(
                    "unknown-command",
                    Some(line_span.clone()),
                    format!("unknown command `{}` kept as it is", excerpt(raw, 40)),
                );
            }
            push(&mut parsed, &mut budget, command, line_span)?;
        }
        if let Some(comment) = comment {
            let text = token_text(src, comment).to_vec();
            push(
                &mut parsed,
                &mut budget,
                Command::Comment(text),
                comment.span.clone(),
            )?;
        }
        Ok(true)
    })?;
    notes.flush_strict(options)?;
    Ok(parsed)
}

fn push(
    parsed: &mut Parsed,
    budget: &mut Budget,
    command: Command,
    span: Span,
) -> Result<(), Error> {
    let size = std::mem::size_of::<Command>() as u64 + std::mem::size_of::<Span>() as u64;
    budget.reserve("IQE commands", 1, size + command.heap_bytes())?;
    parsed.commands.push(command);
    parsed.spans.push(span);
    Ok(())
}

/// Splits a line into its code and a `#` comment that ends it.
fn split_trailing_comment(lexemes: &[Lexeme]) -> (&[Lexeme], Option<&Lexeme>) {
    match lexemes.iter().position(|l| l.token == Token::Comment) {
        Some(at) => (&lexemes[..at], lexemes.get(at)),
        None => (lexemes, None),
    }
}

/// The arguments of one command line and how to complain about them.
struct Args<'a> {
    src: &'a [u8],
    keyword: &'a [u8],
    line: Span,
    items: &'a [Lexeme],
}

impl<'a> Args<'a> {
    fn syntax(&self, span: Span, expected: &'static str, found: &[u8]) -> Error {
        Error::Syntax {
            span,
            command: String::from_utf8_lossy(self.keyword).into_owned(),
            expected,
            found: excerpt(found, 40),
        }
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

    /// A number, parsed from the bytes (no UTF-8 check, no `String`): as `str::parse`.
    fn number(&self, lexeme: &Lexeme) -> Result<f64, Error> {
        let text = self.value(lexeme, "a number")?;
        parse_f64(text).ok_or_else(|| self.syntax(lexeme.span.clone(), "a number", text))
    }

    /// Every argument as a number, in a vector of exactly that length (a file holds
    /// millions of these; spare capacity would be most of their memory).
    fn numbers(&self) -> Result<Vec<f64>, Error> {
        let mut out = Vec::with_capacity(self.items.len());
        for lexeme in self.items {
            out.push(self.number(lexeme)?);
        }
        Ok(out)
    }

    /// Every argument as an integer, in a vector of exactly that length.
    fn integers(&self) -> Result<Vec<i64>, Error> {
        let mut out = Vec::with_capacity(self.items.len());
        for lexeme in self.items {
            out.push(self.integer(lexeme)?);
        }
        Ok(out)
    }

    /// An integer, parsed from the bytes: as `str::parse`.
    fn integer(&self, lexeme: &Lexeme) -> Result<i64, Error> {
        let text = self.value(lexeme, "an integer")?;
        parse_i64(text).ok_or_else(|| self.syntax(lexeme.span.clone(), "an integer", text))
    }

    fn optional<T>(
        &self,
        read: impl Fn(&Lexeme) -> Result<T, Error>,
        notes: &mut Notes,
    ) -> Result<Option<T>, Error> {
        self.extra_after(1, notes);
        self.items.first().map(read).transpose()
    }

    fn name(&self, notes: &mut Notes) -> Option<Vec<u8>> {
        self.extra_after(1, notes);
        self.items.first().map(|l| self.text(l).to_vec())
    }

    /// Warns about arguments past the `max` a command uses.
    fn extra_after(&self, max: usize, notes: &mut Notes) {
        if let Some(extra) = self.items.get(max) {
            let last = self.items.last().map_or(extra.span.end, |l| l.span.end);
            notes.warn(
                "extra-arguments",
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

/// Reads one command line (its first lexeme is not a comment).
fn read_command(src: &[u8], code: &[Lexeme], notes: &mut Notes) -> Result<Command, Error> {
    let line = code[0].span.start..code[code.len() - 1].span.end;
    let raw = || Command::Unknown(src[line.clone()].to_vec());
    if code[0].token != Token::Word {
        return Ok(raw());
    }
    let args = Args {
        src,
        keyword: token_text(src, &code[0]),
        line: line.clone(),
        items: &code[1..],
    };
    let attribute = |a: Attribute, notes: &mut Notes| -> Result<Command, Error> {
        args.extra_after(a.max_values(), notes);
        Ok(Command::Vertex(a, args.numbers()?))
    };
    let pose = |kind: PoseKind, notes: &mut Notes| -> Result<Command, Error> {
        args.extra_after(kind.max_values(), notes);
        Ok(Command::Pose(kind, args.numbers()?))
    };
    let face = |base: FaceBase, notes: &mut Notes| -> Result<Command, Error> {
        let indices = args.integers()?;
        if indices.len() < 3 {
            notes.warn(
                "short-face",
                Some(line.clone()),
                format!(
                    "a face needs 3 indices, this one has {}; it makes no triangle",
                    indices.len()
                ),
            );
        }
        Ok(Command::Face(base, indices))
    };
    Ok(match args.keyword {
        b"vp" => attribute(Attribute::Position, notes)?,
        b"vt" => attribute(Attribute::TexCoord, notes)?,
        b"vn" => attribute(Attribute::Normal, notes)?,
        b"vx" => attribute(Attribute::Tangent, notes)?,
        b"vc" => attribute(Attribute::Color, notes)?,
        [b'v', digit @ b'0'..=b'9'] => attribute(Attribute::Custom(digit - b'0'), notes)?,
        b"vb" => Command::Blend(read_blends(&args, notes)?),
        b"vs" => match args.optional(|l| args.integer(l), notes)? {
            Some(index) => Command::SmoothIndex(index),
            None => {
                return Err(args.syntax(args.end_of_line(), "a smoothing index", b"end of line"));
            }
        },
        b"fa" => face(FaceBase::File, notes)?,
        b"fm" => face(FaceBase::Mesh, notes)?,
        b"fs" => Command::FaceSmooth(args.integers()?),
        b"pq" => pose(PoseKind::Quaternion, notes)?,
        b"pm" => pose(PoseKind::Matrix, notes)?,
        b"pa" => pose(PoseKind::Angles, notes)?,
        b"mesh" => Command::Mesh(args.name(notes)),
        b"material" => Command::Material(args.name(notes)),
        b"animation" => Command::Animation(args.name(notes)),
        b"frame" => Command::Frame(args.name(notes)),
        b"loop" => {
            args.extra_after(0, notes);
            Command::Loop
        }
        b"framerate" => match args.optional(|l| args.number(l), notes)? {
            Some(rate) => Command::Framerate(rate),
            None => {
                return Err(args.syntax(args.end_of_line(), "frames per second", b"end of line"));
            }
        },
        b"smoothuv" => Command::SmoothUv(args.optional(|l| args.integer(l), notes)?),
        b"smoothgroup" => Command::SmoothGroup(args.optional(|l| args.integer(l), notes)?),
        b"smoothangle" => Command::SmoothAngle(args.optional(|l| args.number(l), notes)?),
        b"joint" => read_joint(&args, notes)?,
        b"vertexarray" => read_vertex_array(&args, notes)?,
        _ => raw(),
    })
}

fn read_blends(args: &Args<'_>, notes: &mut Notes) -> Result<Vec<(i64, f64)>, Error> {
    let mut pairs = Vec::with_capacity(args.items.len() / 2);
    for pair in args.items.chunks(2) {
        let index = args.integer(&pair[0])?;
        let weight = match pair.get(1) {
            Some(l) => args.number(l)?,
            None => {
                notes.warn(
                    "blend-without-weight",
                    Some(pair[0].span.clone()),
                    "`vb` joint index without a weight; weight 0 assumed",
                );
                0.0
            }
        };
        pairs.push((index, weight));
    }
    Ok(pairs)
}

fn read_joint(args: &Args<'_>, notes: &mut Notes) -> Result<Command, Error> {
    let Some(first) = args.items.first() else {
        return Err(args.syntax(args.end_of_line(), "a joint name", b"end of line"));
    };
    args.extra_after(2, notes);
    let parent = args.items.get(1).map(|l| args.integer(l)).transpose()?;
    Ok(Command::Joint {
        name: args.text(first).to_vec(),
        parent,
    })
}

fn read_vertex_array(args: &Args<'_>, notes: &mut Notes) -> Result<Command, Error> {
    if args.items.len() < 3 {
        return Err(args.syntax(
            args.end_of_line(),
            "`vertexarray TYPE COMPONENT SIZE [NAME]`",
            &args.src[args.line.clone()],
        ));
    }
    args.extra_after(4, notes);
    let word = |i: usize| args.text(&args.items[i]).to_vec();
    Ok(Command::VertexArray(VertexArrayDecl {
        kind: word(0),
        component: word(1),
        size: word(2),
        name: args.items.get(3).map(|l| args.text(l).to_vec()),
    }))
}
