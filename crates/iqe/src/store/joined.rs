//! The commands of a file as one or more [`Segment`]s in file order.
//!
//! A file read on one thread is one segment. A file read in chunks on several threads
//! keeps each chunk's segment as it is: joining them by copying into one set of arrays
//! would hold every command twice at the peak, and the chunks' freed memory would stay
//! with the idle worker threads that made it. Commands are numbered across segments; a
//! lookup finds its segment by a binary search over a handful of starts.

use super::{CommandRef, Kind, Mark, Segment, Sizes, StoredValue, Values};
use crate::command::{Attribute, Command, VertexArrayDecl};
use rigport_model_core::number::Decimal;
use rigport_model_core::{Budget, LimitError};
use std::ops::Range;
use std::sync::Arc;

/// The commands of a file in file order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Store {
    /// The segments before the last, with the number of their first command (empty unless
    /// the file was read in chunks). Shared, so a conversion can hand the ones its
    /// animations need to another thread while it frees the others ([`Store::view`]).
    earlier: Vec<(usize, Arc<Segment>)>,
    /// The last segment, where commands are appended.
    last: Segment,
    /// The number of the first command of `last`.
    last_start: usize,
    /// For each block of [`BLOCK`] commands before `last`, the earlier segment holding its
    /// first command: a lookup starts there instead of searching every segment.
    blocks: Vec<u32>,
}

/// Commands per entry of [`Store::blocks`]; segments of a large file hold far more, so a
/// lookup steps past at most one segment boundary.
const BLOCK: usize = 1 << 12;

impl PartialEq for Store {
    /// Same commands with the same values, however the file was cut into segments.
    fn eq(&self, other: &Store) -> bool {
        if self.earlier.is_empty() && other.earlier.is_empty() {
            return self.last == other.last;
        }
        self.len() == other.len()
            && (0..self.len()).all(|i| match (self.locate(i), other.locate(i)) {
                (Some((a, i)), Some((b, j))) => a.same_command(i, b, j),
                _ => false,
            })
    }
}

impl Store {
    /// An empty store with room for about `text_len` bytes of dense text
    /// ([`Segment::for_text`]).
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    pub fn for_text(text_len: usize) -> Store {
        Store {
            last: Segment::for_text(text_len),
            ..Store::default()
        }
    }

    /// Number of commands.
    pub fn len(&self) -> usize {
        self.last_start + self.last.len()
    }

    /// The segment holding command `i`, and its number there.
    fn locate(&self, i: usize) -> Option<(&Segment, usize)> {
        if let Some(local) = i.checked_sub(self.last_start) {
            return Some((&self.last, local));
        }
        // The last segment starting at or before `i` (the first starts at 0).
        let mut at = *self.blocks.get(i / BLOCK)? as usize;
        while self
            .earlier
            .get(at + 1)
            .is_some_and(|(start, _)| *start <= i)
        {
            at += 1;
        }
        let (start, segment) = self.earlier.get(at)?;
        Some((segment.as_ref(), i - start))
    }

    /// Appends the commands of `later` after these (the next chunk of a file read on
    /// several threads), keeping its segments as they are. `None` when the joined store
    /// would outgrow the 32-bit offsets one segment has, where a reader on one thread
    /// fails: the caller then reads the file that way, to name the failing command.
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    pub fn append(&mut self, later: Store) -> Option<()> {
        let fits = |n: usize| u32::try_from(n).is_ok();
        let (ours, theirs) = (self.sizes(), later.sizes());
        let total = Sizes {
            entries: ours.entries + theirs.entries,
            words: ours.words + theirs.words,
            bytes: ours.bytes + theirs.bytes,
        };
        if !(fits(total.entries) && fits(total.words) && fits(total.bytes)) {
            return None;
        }
        let base = self.len();
        let Store {
            earlier,
            last,
            last_start,
            blocks: _,
        } = later;
        let mut previous = std::mem::take(&mut self.last);
        previous.shrink_to_fit();
        let mut segments = std::iter::once((self.last_start, previous))
            .map(|(start, s)| (start, Arc::new(s)))
            .chain(earlier.into_iter().map(|(start, s)| (base + start, s)))
            .filter(|(_, segment)| segment.len() > 0);
        self.earlier.extend(&mut segments);
        self.last = last;
        self.last_start = base + last_start;
        self.index_blocks();
        Some(())
    }

    /// Fills [`Store::blocks`] for the earlier segments.
    fn index_blocks(&mut self) {
        let earlier = &self.earlier;
        self.blocks = (0..self.last_start.div_ceil(BLOCK))
            .map(|block| {
                let first = block * BLOCK;
                let at = earlier.partition_point(|(start, _)| *start <= first);
                at.saturating_sub(1) as u32
            })
            .collect();
    }

    /// Entries, words and bytes over every segment.
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    fn sizes(&self) -> Sizes {
        self.earlier
            .iter()
            .map(|(_, s)| s.as_ref())
            .chain([&self.last])
            .map(Segment::sizes)
            .fold(Sizes::default(), |sum, s| Sizes {
                entries: sum.entries + s.entries,
                words: sum.words + s.words,
                bytes: sum.bytes + s.bytes,
            })
    }

    /// Where the last segment's arrays stand, to undo a command that fails halfway.
    pub fn mark(&self) -> Mark {
        self.last.mark()
    }

    /// Drops everything added after `mark`.
    pub fn rollback(&mut self, mark: &Mark) {
        self.last.rollback(mark);
    }

    /// Appends a float argument ([`Segment::push_float`]).
    pub fn push_float(&mut self, value: f64) -> bool {
        self.last.push_float(value)
    }

    /// Appends the float spelled `text` ([`Segment::push_float_text`]).
    pub fn push_float_text(&mut self, text: &[u8]) -> Option<bool> {
        self.last.push_float_text(text)
    }

    /// Appends a float argument read as a plain decimal ([`Segment::push_decimal`]).
    pub fn push_decimal(&mut self, decimal: Decimal, text: &[u8]) -> Option<bool> {
        self.last.push_decimal(decimal, text)
    }

    /// Appends an integer argument.
    pub fn push_int(&mut self, value: i64) -> bool {
        self.last.push_int(value)
    }

    /// Appends raw bytes.
    pub fn push_bytes(&mut self, bytes: &[u8]) {
        self.last.push_bytes(bytes);
    }

    /// Ends a command ([`Segment::finish`]).
    pub fn finish(
        &mut self,
        kind: Kind,
        param: u8,
        mark: &Mark,
        budget: &mut Budget,
    ) -> Result<(), LimitError> {
        self.last.finish(kind, param, mark, budget)
    }

    /// Appends an owned command.
    pub fn push(&mut self, command: &Command, budget: &mut Budget) -> Result<(), LimitError> {
        self.last.push(command, budget)
    }

    /// A name that may be absent ([`Segment::push_optional_name`]).
    pub fn push_optional_name(&mut self, name: Option<&[u8]>) -> u8 {
        self.last.push_optional_name(name)
    }

    /// A joint's bytes.
    pub fn push_joint(&mut self, name: &[u8], parent: Option<i64>) {
        self.last.push_joint(name, parent);
    }

    /// A declaration's bytes.
    pub fn push_vertex_array(&mut self, decl: &VertexArrayDecl) {
        self.last.push_vertex_array(decl);
    }

    /// The kind of command `i`.
    pub fn kind(&self, i: usize) -> Option<Kind> {
        let (segment, i) = self.locate(i)?;
        segment.kind(i)
    }

    /// The attribute of command `i` when it is a vertex attribute.
    pub fn attribute(&self, i: usize) -> Option<Attribute> {
        let (segment, i) = self.locate(i)?;
        segment.attribute(i)
    }

    /// How many commands there are of each kind, indexed by `Kind as usize` (one pass,
    /// nothing decoded).
    pub fn kind_counts(&self) -> [usize; Kind::COUNT] {
        let mut counts = [0; Kind::COUNT];
        for kind in self.kinds() {
            counts[kind as usize] += 1;
        }
        counts
    }

    /// Frees every segment before the last that holds none of the commands in `keep`, for
    /// a conversion that has made all it needed from them: its memory goes back before the
    /// rest of the model is made. The commands keep their numbers; those of a freed
    /// segment read as absent. The last segment (where commands are appended) stays.
    pub fn release(&mut self, keep: &[Range<usize>]) {
        for k in 0..self.earlier.len() {
            let end = self
                .earlier
                .get(k + 1)
                .map_or(self.last_start, |(start, _)| *start);
            let (start, segment) = &mut self.earlier[k];
            let kept = keep.iter().any(|r| r.start < end && *start < r.end);
            if !kept && segment.len() > 0 {
                *segment = Arc::default();
            }
        }
    }

    /// Gives back the room reserved ahead ([`Store::for_text`]) that the commands did not
    /// take.
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    pub fn shrink_to_fit(&mut self) {
        self.last.shrink_to_fit();
    }

    /// Makes the last segment one of the earlier ones, which can be shared and freed: for
    /// a store that takes no more commands.
    pub fn freeze(&mut self) {
        let mut last = std::mem::take(&mut self.last);
        last.shrink_to_fit();
        if last.len() > 0 {
            let start = self.last_start;
            self.last_start += last.len();
            self.earlier.push((start, Arc::new(last)));
            self.index_blocks();
        }
    }

    /// The same commands, sharing the segments that hold any in `keep` (the others read as
    /// absent), for a [frozen](Store::freeze) store; see [`Store::release`].
    pub fn view(&self, keep: &[Range<usize>]) -> Store {
        debug_assert_eq!(self.last.len(), 0, "a view of a store still growing");
        let mut view = Store {
            earlier: self.earlier.clone(),
            last: Segment::default(),
            last_start: self.len(),
            blocks: self.blocks.clone(),
        };
        view.release(keep);
        view
    }

    /// The kinds of every command, in order.
    pub fn kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        self.segments().flat_map(Segment::kinds)
    }

    /// Command `i`.
    pub fn get(&self, i: usize) -> Option<CommandRef<'_>> {
        let (segment, i) = self.locate(i)?;
        segment.command(i)
    }

    /// The numbers of command `i` (none when there is no such command).
    pub fn values<T: StoredValue>(&self, i: usize) -> Values<'_, T> {
        match self.locate(i) {
            Some((segment, i)) => segment.values(i),
            None => self.last.values(usize::MAX),
        }
    }

    /// Every command in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = CommandRef<'_>> + '_ {
        Commands {
            segments: self.segments().collect(),
            segment: 0,
            index: 0,
            remaining: self.len(),
        }
    }

    /// Every command's segment and number there, in order: a walk over every command
    /// without a search per command.
    pub fn positions(&self) -> impl Iterator<Item = (&Segment, usize)> + '_ {
        self.segments()
            .flat_map(|segment| (0..segment.len()).map(move |i| (segment, i)))
    }

    /// The segments in order.
    fn segments(&self) -> impl Iterator<Item = &Segment> + '_ {
        self.earlier
            .iter()
            .map(|(_, s)| s.as_ref())
            .chain([&self.last])
    }
}

/// The commands of every segment in order.
struct Commands<'a> {
    segments: Vec<&'a Segment>,
    segment: usize,
    index: usize,
    remaining: usize,
}

impl<'a> Iterator for Commands<'a> {
    type Item = CommandRef<'a>;

    fn next(&mut self) -> Option<CommandRef<'a>> {
        loop {
            let segment = *self.segments.get(self.segment)?;
            if let Some(command) = segment.command(self.index) {
                self.index += 1;
                self.remaining = self.remaining.saturating_sub(1);
                return Some(command);
            }
            self.segment += 1;
            self.index = 0;
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Commands<'_> {}
