//! Commands stored compactly: one 8-byte entry per command, its numbers in a shared array
//! of 32-bit words (see [`crate::packed`]) and its names and raw text in a shared byte
//! array.
//!
//! A file of millions of lines would otherwise hold a `Vec` (24 bytes, plus an allocation
//! and its bookkeeping) for every line, several times the size of the text; here a `vp`
//! line of three short decimals costs 20 bytes. [`CommandRef`] is the borrowed view of one
//! command; [`Command`] the owned form a program builds.

use crate::command::{Attribute, Command, FaceBase, PoseKind, VertexArrayDecl};
use crate::packed::{Wide, is_wide, unpack_f64, unpack_i64};
use rigport_model_core::number::Decimal;
use rigport_model_core::{Budget, LimitError};
use std::marker::PhantomData;

/// What a reader's caller does with the commands of a file as they are read, a store of
/// them at a time, in file order (the chunks read on the thread pool, which joined make
/// the file's store: see `crate::parallel`).
pub(crate) type Follow<'a> = &'a mut dyn FnMut(&Store);

/// What an entry holds; its arguments live in the word array (numbers) or the byte array
/// (names, raw text), never both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Comment,
    Vertex,
    Blend,
    SmoothIndex,
    VertexArray,
    Mesh,
    Material,
    Face,
    FaceSmooth,
    SmoothUv,
    SmoothGroup,
    SmoothAngle,
    Joint,
    Pose,
    Animation,
    Loop,
    Framerate,
    Frame,
    Unknown,
}

impl Kind {
    /// Number of kinds (`Unknown` is the last).
    pub const COUNT: usize = Kind::Unknown as usize + 1;
}

/// `len` of an entry whose real length is in [`Segment::long_lengths`].
const LONG: u16 = u16::MAX;

/// One command: where its arguments start, how many words or bytes they take, and a
/// parameter (the attribute, face base or pose kind; for optional arguments whether the
/// argument is there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    start: u32,
    len: u16,
    kind: Kind,
    param: u8,
}

/// Array positions before a command is added, so a line that fails halfway is undone.
pub(crate) struct Mark {
    words: usize,
    bytes: usize,
    wide: (usize, usize),
}

/// Commands in file order, in one set of arrays: a whole file read on one thread, or one
/// chunk of a file read on several ([`Store`] joins them).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Segment {
    entries: Vec<Entry>,
    words: Vec<u32>,
    bytes: Vec<u8>,
    wide: WideTables,
    /// `(entry, length)` for entries whose argument length does not fit 16 bits, in entry
    /// order (rare: a polygon of 65 535 corners, a megabyte comment).
    long_lengths: Vec<(u32, u32)>,
}

/// How many entries, words and bytes a segment holds (or has room for).
#[cfg_attr(not(feature = "parallel"), allow(dead_code))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sizes {
    pub entries: usize,
    pub words: usize,
    pub bytes: usize,
}

/// Which side table the words of a kind's arguments index: its numbers are all floats,
/// all integers, or `vb` pairs (integer, float).
#[derive(Clone, Copy, PartialEq, Eq)]
enum WordTypes {
    Floats,
    Ints,
    Pairs,
}

fn word_types(kind: Kind) -> Option<WordTypes> {
    match kind {
        Kind::Vertex | Kind::Pose | Kind::SmoothAngle | Kind::Framerate => Some(WordTypes::Floats),
        Kind::Face | Kind::FaceSmooth | Kind::SmoothIndex | Kind::SmoothUv | Kind::SmoothGroup => {
            Some(WordTypes::Ints)
        }
        Kind::Blend => Some(WordTypes::Pairs),
        Kind::Comment
        | Kind::VertexArray
        | Kind::Mesh
        | Kind::Material
        | Kind::Joint
        | Kind::Animation
        | Kind::Loop
        | Kind::Frame
        | Kind::Unknown => None,
    }
}

/// Bytes one entry costs besides its arguments, for the allocation budget.
const ENTRY_BYTES: u64 = std::mem::size_of::<Entry>() as u64;

/// The borrowed view of one command (see [`Command`] for the meaning of each variant).
#[derive(Clone, Debug, PartialEq)]
pub enum CommandRef<'a> {
    /// A `#` comment line (the text after `#`).
    Comment(&'a [u8]),
    /// `vp`, `vt`, `vn`, `vx`, `vc`, `v0`–`v9` with the values given.
    Vertex(Attribute, Values<'a, f64>),
    /// `vb`: joint index / weight pairs.
    Blend(Values<'a, (i64, f64)>),
    /// `vs N`.
    SmoothIndex(i64),
    /// `vertexarray` declaration.
    VertexArray(VertexArrayDecl),
    /// `mesh [NAME]`.
    Mesh(Option<&'a [u8]>),
    /// `material [NAME]`.
    Material(Option<&'a [u8]>),
    /// `fa`/`fm`.
    Face(FaceBase, Values<'a, i64>),
    /// `fs`.
    FaceSmooth(Values<'a, i64>),
    /// `smoothuv [N]`.
    SmoothUv(Option<i64>),
    /// `smoothgroup [N]`.
    SmoothGroup(Option<i64>),
    /// `smoothangle [DEGREES]`.
    SmoothAngle(Option<f64>),
    /// `joint NAME [PARENT]`.
    Joint {
        /// Joint name.
        name: &'a [u8],
        /// Parent index as written.
        parent: Option<i64>,
    },
    /// `pq`, `pm` or `pa`.
    Pose(PoseKind, Values<'a, f64>),
    /// `animation [NAME]`.
    Animation(Option<&'a [u8]>),
    /// `loop`.
    Loop,
    /// `framerate N`.
    Framerate(f64),
    /// `frame [LABEL]`.
    Frame(Option<&'a [u8]>),
    /// An unknown command's raw line.
    Unknown(&'a [u8]),
}

/// A value type stored in words: `f64`, `i64`, or a `vb` pair `(i64, f64)`.
pub trait StoredValue: sealed::Sealed + Copy {
    /// Words one value takes.
    #[doc(hidden)]
    const WORDS: usize;
    /// Decodes one value from its words.
    #[doc(hidden)]
    fn decode(words: &[u32], wide: &WideTables) -> Self;
}

/// The side tables values too large for a word live in (opaque).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WideTables(Wide);

mod joined;
mod segment;
pub(crate) use joined::Store;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f64 {}
    impl Sealed for i64 {}
    impl Sealed for (i64, f64) {}
}

impl StoredValue for f64 {
    const WORDS: usize = 1;
    fn decode(words: &[u32], wide: &WideTables) -> Self {
        unpack_f64(words[0], &wide.0)
    }
}

impl StoredValue for i64 {
    const WORDS: usize = 1;
    fn decode(words: &[u32], wide: &WideTables) -> Self {
        unpack_i64(words[0], &wide.0)
    }
}

impl StoredValue for (i64, f64) {
    const WORDS: usize = 2;
    fn decode(words: &[u32], wide: &WideTables) -> Self {
        (unpack_i64(words[0], &wide.0), unpack_f64(words[1], &wide.0))
    }
}

/// The numbers of one command, decoded as they are read.
#[derive(Clone, Copy)]
pub struct Values<'a, T> {
    words: &'a [u32],
    wide: &'a WideTables,
    value: PhantomData<T>,
}

impl<'a, T: StoredValue> Values<'a, T> {
    /// Number of values.
    pub fn len(&self) -> usize {
        self.words.len() / T::WORDS
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.words.len() < T::WORDS
    }

    /// Value `i`.
    pub fn get(&self, i: usize) -> Option<T> {
        let words = self.words.get(i * T::WORDS..(i + 1) * T::WORDS)?;
        Some(T::decode(words, self.wide))
    }

    /// The values in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + 'a {
        let wide = self.wide;
        self.words
            .chunks_exact(T::WORDS)
            .map(move |w| T::decode(w, wide))
    }

    /// The values as a vector.
    pub fn to_vec(self) -> Vec<T> {
        self.iter().collect()
    }

    /// The stored words, for the writer's fast path.
    pub(crate) fn words(&self) -> &'a [u32] {
        self.words
    }

    /// Whether `other` holds the same values for certain: the same words, read through the
    /// same side table (a segment's long values are numbered in its own table).
    pub(crate) fn same_as(&self, other: &Values<'_, T>) -> bool {
        std::ptr::eq(self.wide, other.wide) && self.words == other.words
    }
}

impl Values<'_, f64> {
    /// Decodes the first values into `buffer` (as many as fit) and returns them.
    pub(crate) fn decode_into<'b>(&self, buffer: &'b mut [f64]) -> &'b [f64] {
        let n = self.len().min(buffer.len());
        for (slot, value) in buffer.iter_mut().zip(self.iter()) {
            *slot = value;
        }
        &buffer[..n]
    }
}

impl<T: StoredValue + PartialEq> PartialEq for Values<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: StoredValue + std::fmt::Debug> std::fmt::Debug for Values<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl CommandRef<'_> {
    /// The owned command.
    pub fn to_command(&self) -> Command {
        let name = |n: &Option<&[u8]>| n.map(<[u8]>::to_vec);
        match self {
            CommandRef::Comment(text) => Command::Comment(text.to_vec()),
            CommandRef::Vertex(a, values) => Command::Vertex(*a, values.to_vec()),
            CommandRef::Blend(pairs) => Command::Blend(pairs.to_vec()),
            CommandRef::SmoothIndex(n) => Command::SmoothIndex(*n),
            CommandRef::VertexArray(decl) => Command::VertexArray(decl.clone()),
            CommandRef::Mesh(n) => Command::Mesh(name(n)),
            CommandRef::Material(n) => Command::Material(name(n)),
            CommandRef::Face(base, indices) => Command::Face(*base, indices.to_vec()),
            CommandRef::FaceSmooth(flags) => Command::FaceSmooth(flags.to_vec()),
            CommandRef::SmoothUv(n) => Command::SmoothUv(*n),
            CommandRef::SmoothGroup(n) => Command::SmoothGroup(*n),
            CommandRef::SmoothAngle(a) => Command::SmoothAngle(*a),
            CommandRef::Joint { name, parent } => Command::Joint {
                name: name.to_vec(),
                parent: *parent,
            },
            CommandRef::Pose(kind, values) => Command::Pose(*kind, values.to_vec()),
            CommandRef::Animation(n) => Command::Animation(name(n)),
            CommandRef::Loop => Command::Loop,
            CommandRef::Framerate(rate) => Command::Framerate(*rate),
            CommandRef::Frame(n) => Command::Frame(name(n)),
            CommandRef::Unknown(raw) => Command::Unknown(raw.to_vec()),
        }
    }
}

/// The attribute of a `Vertex` entry's parameter.
fn attribute_of(param: u8) -> Attribute {
    match param {
        0 => Attribute::Position,
        1 => Attribute::TexCoord,
        2 => Attribute::Normal,
        3 => Attribute::Tangent,
        4 => Attribute::Color,
        n => Attribute::Custom((n - 5).min(9)),
    }
}

/// A `Vertex` entry's parameter for an attribute.
pub(crate) fn attribute_param(attribute: Attribute) -> u8 {
    match attribute {
        Attribute::Position => 0,
        Attribute::TexCoord => 1,
        Attribute::Normal => 2,
        Attribute::Tangent => 3,
        Attribute::Color => 4,
        Attribute::Custom(n) => 5 + n.min(9),
    }
}

fn pose_of(param: u8) -> PoseKind {
    match param {
        0 => PoseKind::Quaternion,
        1 => PoseKind::Matrix,
        _ => PoseKind::Angles,
    }
}

pub(crate) fn pose_param(kind: PoseKind) -> u8 {
    match kind {
        PoseKind::Quaternion => 0,
        PoseKind::Matrix => 1,
        PoseKind::Angles => 2,
    }
}

pub(crate) fn base_param(base: FaceBase) -> u8 {
    u8::from(base == FaceBase::Mesh)
}

/// Whether a kind keeps its arguments in the byte array.
fn uses_bytes(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Comment
            | Kind::VertexArray
            | Kind::Mesh
            | Kind::Material
            | Kind::Joint
            | Kind::Animation
            | Kind::Frame
            | Kind::Unknown
    )
}

/// The error for a store that outgrew its 32-bit offsets (a file of many gigabytes).
fn too_large(budget: &Budget) -> LimitError {
    LimitError {
        what: "IQE commands",
        count: 1,
        item_bytes: u64::from(u32::MAX),
        remaining: budget.remaining(),
    }
}
