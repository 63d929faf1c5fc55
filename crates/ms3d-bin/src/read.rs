//! Reading: a bounds-checked cursor over the input, the core, and the optional trailing
//! blocks.
//!
//! Every count is checked against the bytes left (count × least record size) and drawn
//! from the [`Budget`] before anything is allocated, so a hostile count fails at once.

use crate::decode::{self, Decode};
use crate::error::{Detail, Error};
use crate::file::{Comment, Comments, File, Group, Joint, JointExtra, MAGIC, VertexExtra};
use crate::records::{
    GroupHead, JointColor, JointHead, Keyframe, Keyframer, Material, ModelExtra, Record, Triangle,
    Vertex, vertex_extra_size,
};
use binrw::BinRead;
use rigport_model_core::codes;
use rigport_model_core::{Budget, ReadOptions, Report};
use std::io::Cursor;
use std::mem::size_of;
use std::ops::Range;

/// A cursor that refuses to read or allocate past what the input holds.
struct Reader<'a> {
    cursor: Cursor<&'a [u8]>,
    budget: Budget,
    /// `Some` when the joints' keys are left in the input (where each joint's lie is
    /// collected here), `None` when they are decoded into the file.
    left_keys: Option<Vec<KeySpans>>,
    /// Arrays read in bulk (vertices, triangles, a group's triangle indices) are checked and
    /// passed over, left empty in the file ([`skim_joints`]).
    skim: bool,
}

/// Where one joint's keys lie in the input, for a read that leaves them there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct KeySpans {
    /// The bytes of its rotation keys.
    pub rotations: Range<usize>,
    /// The bytes of its translation keys.
    pub translations: Range<usize>,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` after the magic, leaving the keys in the input when `leave_keys`.
    fn over(bytes: &'a [u8], options: &ReadOptions, leave_keys: bool) -> Self {
        let mut reader = Reader {
            cursor: Cursor::new(bytes),
            budget: options.limits.budget(),
            left_keys: leave_keys.then(Vec::new),
            skim: false,
        };
        reader.cursor.set_position(MAGIC.len() as u64);
        reader
    }

    fn offset(&self) -> u64 {
        self.cursor.position()
    }

    fn len(&self) -> u64 {
        self.cursor.get_ref().len() as u64
    }

    fn remaining(&self) -> u64 {
        self.len().saturating_sub(self.offset())
    }

    fn at_end(&self) -> bool {
        self.remaining() == 0
    }

    /// Reads one fixed-size record.
    fn record<T: Record>(&mut self, what: &'static str) -> Result<T, Error> {
        self.record_with(what, T::SIZE, ())
    }

    /// Reads one record of `size` bytes with binrw arguments.
    fn record_with<T>(
        &mut self,
        what: &'static str,
        size: u64,
        args: T::Args<'_>,
    ) -> Result<T, Error>
    where
        T: BinRead,
    {
        let offset = self.offset();
        let available = self.remaining();
        if size > available {
            return Err(Error::Truncated {
                offset,
                what,
                needed: size,
                available,
            });
        }
        // The length was checked above, so binrw can only fail on an internal mismatch;
        // report it as a truncation rather than panicking.
        T::read_le_args(&mut self.cursor, args).map_err(|_| Error::Truncated {
            offset,
            what,
            needed: size,
            available,
        })
    }

    /// Checks that `count` items of at least `min_size` bytes fit in the rest of the input
    /// and draws `count` items of type `T` from the memory budget.
    fn reserve<T>(&mut self, count: u64, min_size: u64, what: &'static str) -> Result<(), Error> {
        let offset = self.offset();
        let needed = count.saturating_mul(min_size);
        let available = self.remaining();
        if needed > available {
            let detail = Detail::CountPastEnd {
                offset,
                what,
                count,
                needed,
                available,
            };
            return Err(Error::at(offset, detail));
        }
        self.budget
            .reserve(what, count, size_of::<T>() as u64)
            .map_err(|source| Error::limit(offset, source))
    }

    /// Reads `count` fixed-size records.
    fn records<T: Record>(&mut self, count: u64, what: &'static str) -> Result<Vec<T>, Error> {
        self.reserve::<T>(count, T::SIZE, what)?;
        (0..count).map(|_| self.record(what)).collect()
    }

    /// Reads `count` records of `size` bytes as one checked slice, decoding each chunk
    /// directly (see [`crate::decode`]): the fast path for the large arrays.
    fn bulk<T>(
        &mut self,
        count: u64,
        size: u64,
        what: &'static str,
        decode: impl Fn(&[u8]) -> Option<T>,
    ) -> Result<Vec<T>, Error> {
        let offset = self.offset();
        let range = self.pass_over::<T>(count, size, what)?;
        if self.skim {
            return Ok(Vec::new());
        }
        // `pass_over` checked that the slice exists; a record that does not decode is
        // reported as a truncation rather than a panic.
        let truncated = Error::Truncated {
            offset,
            what,
            needed: range.len() as u64,
            available: self.len() - offset,
        };
        let bytes = self.cursor.get_ref().get(range);
        bytes
            .and_then(|slice| decode::all(slice, size as usize, decode))
            .ok_or(truncated)
    }

    /// Checks that `count` records of `size` bytes fit and draws them from the budget as if
    /// decoded (see [`Reader::reserve`]), passes over them and returns where they lie.
    fn pass_over<T>(
        &mut self,
        count: u64,
        size: u64,
        what: &'static str,
    ) -> Result<Range<usize>, Error> {
        let offset = self.offset();
        self.reserve::<T>(count, size, what)?;
        // `reserve` checked that count × size bytes are left.
        let end = offset + count * size;
        self.cursor.set_position(end);
        Ok(offset as usize..end as usize)
    }

    /// [`Reader::bulk`] for a record type with a fixed size.
    fn decoded<T: Record + Decode>(
        &mut self,
        count: u64,
        what: &'static str,
    ) -> Result<Vec<T>, Error> {
        self.bulk(count, T::SIZE, what, T::decode)
    }

    /// Reads `len` raw bytes.
    fn bytes(&mut self, len: u64, what: &'static str) -> Result<Vec<u8>, Error> {
        self.reserve::<u8>(len, 1, what)?;
        let start = self.offset() as usize;
        let end = start + len as usize;
        self.cursor.set_position(end as u64);
        Ok(self.cursor.get_ref()[start..end].to_vec())
    }

    /// Reads an `int` count or length that must not be negative.
    fn non_negative(&mut self, what: &'static str) -> Result<u64, Error> {
        let offset = self.offset();
        let value: i32 = self.record(what)?;
        u64::try_from(value).map_err(|_| Error::Invalid {
            offset,
            what: what.into(),
            value: value.into(),
        })
    }

    /// Reads a `word` count.
    fn word(&mut self, what: &'static str) -> Result<u64, Error> {
        self.record::<u16>(what).map(u64::from)
    }
}

/// Reads a whole file.
pub(crate) fn parse(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
    let (file, _, report) = parse_with(bytes, options, false)?;
    Ok((file, report))
}

/// Reads a whole file but its joints' keys, which stay in `bytes`: the file's key arrays
/// are empty, and the spans say where each joint's keys are. For a conversion, which
/// reads the keys once, straight into the model.
pub(crate) fn parse_leaving_keys(
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<(File, Vec<KeySpans>, Report), Error> {
    let (file, spans, report) = parse_with(bytes, options, true)?;
    Ok((file, spans.unwrap_or_default(), report))
}

/// The joints and the keyframer of a file, with where each joint's keys lie, read as
/// [`parse_leaving_keys`] reads them but passing over the vertices, triangles and groups'
/// triangle indices before them (their arrays are empty): a few hundred bytes read for the
/// tracks to be made from while the rest is read. Fails where that read would fail before
/// the end of the joints.
pub(crate) fn skim_joints(
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<(File, Vec<KeySpans>), Error> {
    check_magic(bytes)?;
    let mut reader = Reader::over(bytes, options, true);
    reader.skim = true;
    let file = read_core(&mut reader)?;
    Ok((file, reader.left_keys.unwrap_or_default()))
}

/// [`parse`], or [`parse_leaving_keys`] when `leave_keys`.
fn parse_with(
    bytes: &[u8],
    options: &ReadOptions,
    leave_keys: bool,
) -> Result<(File, Option<Vec<KeySpans>>, Report), Error> {
    check_magic(bytes)?;
    let mut reader = Reader::over(bytes, options, leave_keys);
    let mut file = read_core(&mut reader)?;
    let mut report = Report::default();
    if let Err((start, problem)) = read_trailing(&mut reader, &mut file) {
        if let Error::Limit { .. } = problem {
            return Err(problem);
        }
        let tail = bytes.get(start as usize..).unwrap_or_default();
        if options.strict {
            let detail = Detail::DamagedTail {
                offset: start,
                length: tail.len() as u64,
                reason: problem.to_string(),
            };
            return Err(Error::at(start, detail));
        }
        report.warn(
            codes::DAMAGED_TAIL,
            format!(
                "damaged tail at byte {start}: {problem}; {} bytes kept as raw tail",
                tail.len()
            ),
        );
        file.tail = tail.to_vec();
    }
    Ok((file, reader.left_keys, report))
}

fn check_magic(bytes: &[u8]) -> Result<(), Error> {
    let head = &bytes[..bytes.len().min(MAGIC.len())];
    if head != &MAGIC[..head.len()] {
        return Err(Error::BadMagic {
            format: "a MilkShape 3D binary",
            expected: "MS3D000000",
            found: String::from_utf8_lossy(head).into_owned(),
        });
    }
    if head.len() < MAGIC.len() {
        return Err(Error::Truncated {
            offset: 0,
            what: "header",
            needed: 14,
            available: bytes.len() as u64,
        });
    }
    Ok(())
}

/// Everything up to the end of the joints: damage here is an error in every mode.
fn read_core(r: &mut Reader) -> Result<File, Error> {
    let version: i32 = r.record("header version")?;
    if !matches!(version, 3 | 4) {
        return Err(Error::at(10u64, Detail::UnsupportedVersion { version }));
    }
    let count = r.word("vertex count")?;
    let vertices = r.decoded::<Vertex>(count, "vertices")?;
    let count = r.word("triangle count")?;
    let triangles = r.decoded::<Triangle>(count, "triangles")?;
    let count = r.word("group count")?;
    r.reserve::<Group>(count, GroupHead::SIZE + 1, "groups")?;
    let groups = (0..count)
        .map(|_| read_group(r))
        .collect::<Result<_, _>>()?;
    let count = r.word("material count")?;
    let materials = r.records::<Material>(count, "materials")?;
    let keyframer: Keyframer = r.record("keyframer data")?;
    let count = r.word("joint count")?;
    r.reserve::<Joint>(count, JointHead::SIZE, "joints")?;
    let joints = (0..count)
        .map(|_| read_joint(r))
        .collect::<Result<_, _>>()?;
    Ok(File {
        version,
        vertices,
        triangles,
        groups,
        materials,
        keyframer,
        joints,
        comments: None,
        vertex_extra: None,
        joint_extra: None,
        model_extra: None,
        tail: Vec::new(),
    })
}

fn read_group(r: &mut Reader) -> Result<Group, Error> {
    let head: GroupHead = r.record("group")?;
    let triangle_indices = r.decoded(head.triangle_count.into(), "group triangle indices")?;
    let material_index = r.record("group material index")?;
    Ok(Group {
        flags: head.flags,
        name: head.name,
        triangle_indices,
        material_index,
    })
}

fn read_joint(r: &mut Reader) -> Result<Joint, Error> {
    let head: JointHead = r.record("joint")?;
    let (rotations, translations) = (head.rotation_key_count, head.translation_key_count);
    let (rotation_keys, translation_keys) = if r.left_keys.is_some() {
        let size = Keyframe::SIZE;
        let rotations = r.pass_over::<Keyframe>(rotations.into(), size, "rotation keys")?;
        let translations =
            r.pass_over::<Keyframe>(translations.into(), size, "translation keys")?;
        if let Some(spans) = &mut r.left_keys {
            spans.push(KeySpans {
                rotations,
                translations,
            });
        }
        (Vec::new(), Vec::new())
    } else {
        (
            r.decoded::<Keyframe>(rotations.into(), "rotation keys")?,
            r.decoded::<Keyframe>(translations.into(), "translation keys")?,
        )
    };
    Ok(Joint {
        flags: head.flags,
        name: head.name,
        parent_name: head.parent_name,
        rotation: head.rotation,
        position: head.position,
        rotation_keys,
        translation_keys,
    })
}

/// Reads the optional blocks in file order, stopping cleanly at the end of the input after
/// any of them. On failure returns where the uninterpretable bytes start and why.
fn read_trailing(r: &mut Reader, file: &mut File) -> Result<(), (u64, Error)> {
    let mut start = r.offset();
    if r.at_end() {
        return Ok(());
    }
    file.comments = Some(read_comments(r).map_err(|e| (start, e))?);
    start = r.offset();
    if r.at_end() {
        return Ok(());
    }
    let vertex_count = file.vertices.len() as u64;
    file.vertex_extra = Some(read_vertex_extra(r, vertex_count).map_err(|e| (start, e))?);
    start = r.offset();
    if r.at_end() {
        return Ok(());
    }
    let joint_count = file.joints.len() as u64;
    file.joint_extra = Some(read_joint_extra(r, joint_count).map_err(|e| (start, e))?);
    start = r.offset();
    if r.at_end() {
        return Ok(());
    }
    file.model_extra = Some(read_model_extra(r).map_err(|e| (start, e))?);
    start = r.offset();
    if r.at_end() {
        return Ok(());
    }
    Err((
        start,
        Error::at(
            start,
            Detail::UnexpectedBytes {
                offset: start,
                length: r.remaining(),
            },
        ),
    ))
}

/// Reads a sub-version and checks it is one of `known`.
fn sub_version(r: &mut Reader, what: &'static str, known: fn(i32) -> bool) -> Result<i32, Error> {
    let offset = r.offset();
    let value: i32 = r.record(what)?;
    if !known(value) {
        return Err(Error::Invalid {
            offset,
            what: what.into(),
            value: value.into(),
        });
    }
    Ok(value)
}

fn read_comments(r: &mut Reader) -> Result<Comments, Error> {
    let sub_version = sub_version(r, "comments subVersion", |v| v == 1)?;
    let groups = read_comment_list(r, "group comments")?;
    let materials = read_comment_list(r, "material comments")?;
    let joints = read_comment_list(r, "joint comments")?;
    let count = r.non_negative("model comment count")?;
    r.reserve::<Vec<u8>>(count, 4, "model comments")?;
    let model = (0..count)
        .map(|_| {
            let len = r.non_negative("model comment length")?;
            r.bytes(len, "model comment text")
        })
        .collect::<Result<_, _>>()?;
    Ok(Comments {
        sub_version,
        groups,
        materials,
        joints,
        model,
    })
}

fn read_comment_list(r: &mut Reader, what: &'static str) -> Result<Vec<Comment>, Error> {
    let count = r.non_negative(what)?;
    r.reserve::<Comment>(count, 8, what)?;
    (0..count)
        .map(|_| {
            let index = r.record("comment index")?;
            let len = r.non_negative("comment length")?;
            let text = r.bytes(len, "comment text")?;
            Ok(Comment { index, text })
        })
        .collect()
}

fn read_vertex_extra(r: &mut Reader, vertex_count: u64) -> Result<VertexExtra, Error> {
    let sub_version = sub_version(r, "vertex extra subVersion", |v| {
        vertex_extra_size(v).is_some()
    })?;
    let size = vertex_extra_size(sub_version).unwrap_or(14);
    let records = r.bulk(vertex_count, size, "vertex extra records", |chunk| {
        decode::vertex_extra(chunk, sub_version)
    })?;
    Ok(VertexExtra {
        sub_version,
        records,
    })
}

fn read_joint_extra(r: &mut Reader, joint_count: u64) -> Result<JointExtra, Error> {
    let sub_version = sub_version(r, "joint extra subVersion", |v| v == 1)?;
    let colors = r.records::<JointColor>(joint_count, "joint colours")?;
    Ok(JointExtra {
        sub_version,
        colors,
    })
}

fn read_model_extra(r: &mut Reader) -> Result<ModelExtra, Error> {
    let offset = r.offset();
    let extra: ModelExtra = r.record("model extra")?;
    if extra.sub_version != 1 {
        return Err(Error::Invalid {
            offset,
            what: "model extra subVersion".into(),
            value: extra.sub_version.into(),
        });
    }
    Ok(extra)
}
