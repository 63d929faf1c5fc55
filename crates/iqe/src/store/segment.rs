//! A [`Segment`]: the commands of one stretch of the file, appended one at a time (each
//! line's numbers packed, its names and raw text kept) and read back by index.

use super::*;

impl Segment {
    /// Number of commands.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Where the arrays stand, to undo a command that fails halfway.
    pub fn mark(&self) -> Mark {
        Mark {
            words: self.words.len(),
            bytes: self.bytes.len(),
            wide: self.wide.0.lengths(),
        }
    }

    /// Drops everything added after `mark`.
    pub fn rollback(&mut self, mark: &Mark) {
        self.words.truncate(mark.words);
        self.bytes.truncate(mark.bytes);
        self.wide.0.truncate(mark.wide);
    }

    /// How many entries, words and bytes the segment holds.
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    pub fn sizes(&self) -> Sizes {
        Sizes {
            entries: self.entries.len(),
            words: self.words.len(),
            bytes: self.bytes.len(),
        }
    }

    /// An empty segment with room for `sizes`.
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    fn with_capacity(sizes: Sizes) -> Segment {
        Segment {
            entries: Vec::with_capacity(sizes.entries),
            words: Vec::with_capacity(sizes.words),
            bytes: Vec::with_capacity(sizes.bytes),
            ..Segment::default()
        }
    }

    /// Room for the commands of about `text_len` bytes of dense text (vertex, face and pose
    /// lines of short numbers). Memory reserved but never written costs address space only,
    /// and a store filled without growing leaves no freed copies behind: a worker thread
    /// that goes idle after reading its chunk would keep those for the whole conversion
    /// (the allocator returns a thread's freed pages to the system only on its own later
    /// calls).
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    pub fn for_text(text_len: usize) -> Segment {
        Segment::with_capacity(Sizes {
            // The shortest command lines (`vn 0 1 0`, `fm 1 2 3`) take 9 bytes.
            entries: text_len / 8,
            // A number takes at least 2 bytes with its separator; 3 in dense files.
            words: text_len / 3,
            // Names and comments are a small part of large files; these grow if needed.
            bytes: text_len / 64,
        })
    }

    /// Gives back the room [`Segment::for_text`] reserved and the commands did not take
    /// (with 2 MiB pages under large blocks, room touched only in part would otherwise
    /// hold a whole page).
    pub fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
        self.words.shrink_to_fit();
        self.bytes.shrink_to_fit();
    }

    /// Appends a float argument.
    pub fn push_float(&mut self, value: f64) -> bool {
        self.wide
            .0
            .float_word(value)
            .map(|w| self.words.push(w))
            .is_some()
    }

    /// Appends the float spelled `text`; `None` when it is not a number, `Some(false)`
    /// when the side table is full.
    pub fn push_float_text(&mut self, text: &[u8]) -> Option<bool> {
        let word = self.wide.0.float_word_from_text(text)?;
        Some(word.map(|w| self.words.push(w)).is_some())
    }

    /// [`Segment::push_float_text`] for a `text` already read as the plain `decimal`.
    pub fn push_decimal(&mut self, decimal: Decimal, text: &[u8]) -> Option<bool> {
        let word = self.wide.0.float_word_from_decimal(decimal, text)?;
        Some(word.map(|w| self.words.push(w)).is_some())
    }

    /// Appends an integer argument.
    pub fn push_int(&mut self, value: i64) -> bool {
        self.wide
            .0
            .int_word(value)
            .map(|w| self.words.push(w))
            .is_some()
    }

    /// Appends raw bytes to the byte array.
    pub fn push_bytes(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Ends a command whose arguments were appended since `mark`, drawing its size from
    /// `budget`.
    pub fn finish(
        &mut self,
        kind: Kind,
        param: u8,
        mark: &Mark,
        budget: &mut Budget,
    ) -> Result<(), LimitError> {
        let (start, len, bytes) = if uses_bytes(kind) {
            let len = self.bytes.len() - mark.bytes;
            (mark.bytes, len, len as u64)
        } else {
            let len = self.words.len() - mark.words;
            (mark.words, len, 4 * len as u64)
        };
        let wide = (self.wide.0.lengths().0 - mark.wide.0 + self.wide.0.lengths().1 - mark.wide.1)
            as u64
            * 8;
        budget.reserve("IQE commands", 1, ENTRY_BYTES + bytes + wide)?;
        let index = u32::try_from(self.entries.len()).map_err(|_| too_large(budget))?;
        let start = u32::try_from(start).map_err(|_| too_large(budget))?;
        let end_fits = u32::try_from(start as usize + len).is_ok();
        if !end_fits {
            return Err(too_large(budget));
        }
        let short = u16::try_from(len).ok().filter(|&l| l != LONG);
        if short.is_none() {
            self.long_lengths.push((index, len as u32));
        }
        self.entries.push(Entry {
            start,
            len: short.unwrap_or(LONG),
            kind,
            param,
        });
        Ok(())
    }

    /// Appends an owned command (how programs build files).
    pub fn push(&mut self, command: &Command, budget: &mut Budget) -> Result<(), LimitError> {
        let mark = self.mark();
        let mut fits = true;
        let mut floats = |store: &mut Self, values: &[f64]| {
            for &v in values {
                fits &= store.push_float(v);
            }
        };
        let (kind, param) = match command {
            Command::Comment(text) => {
                self.push_bytes(text);
                (Kind::Comment, 0)
            }
            Command::Vertex(a, values) => {
                floats(self, values);
                (Kind::Vertex, attribute_param(*a))
            }
            Command::Blend(pairs) => {
                for &(index, weight) in pairs {
                    fits &= self.push_int(index) && self.push_float(weight);
                }
                (Kind::Blend, 0)
            }
            Command::SmoothIndex(n) => {
                fits &= self.push_int(*n);
                (Kind::SmoothIndex, 0)
            }
            Command::VertexArray(decl) => {
                self.push_vertex_array(decl);
                (Kind::VertexArray, u8::from(decl.name.is_some()))
            }
            Command::Mesh(n) => (Kind::Mesh, self.push_optional_name(n.as_deref())),
            Command::Material(n) => (Kind::Material, self.push_optional_name(n.as_deref())),
            Command::Animation(n) => (Kind::Animation, self.push_optional_name(n.as_deref())),
            Command::Frame(n) => (Kind::Frame, self.push_optional_name(n.as_deref())),
            Command::Face(base, indices) => {
                for &i in indices {
                    fits &= self.push_int(i);
                }
                (Kind::Face, base_param(*base))
            }
            Command::FaceSmooth(flags) => {
                for &i in flags {
                    fits &= self.push_int(i);
                }
                (Kind::FaceSmooth, 0)
            }
            Command::SmoothUv(n) | Command::SmoothGroup(n) => {
                if let Some(n) = n {
                    fits &= self.push_int(*n);
                }
                let kind = if matches!(command, Command::SmoothUv(_)) {
                    Kind::SmoothUv
                } else {
                    Kind::SmoothGroup
                };
                (kind, u8::from(n.is_some()))
            }
            Command::SmoothAngle(a) => {
                floats(self, a.as_slice());
                (Kind::SmoothAngle, u8::from(a.is_some()))
            }
            Command::Joint { name, parent } => {
                self.push_joint(name, *parent);
                (Kind::Joint, u8::from(parent.is_some()))
            }
            Command::Pose(kind, values) => {
                floats(self, values);
                (Kind::Pose, pose_param(*kind))
            }
            Command::Loop => (Kind::Loop, 0),
            Command::Framerate(rate) => {
                fits &= self.push_float(*rate);
                (Kind::Framerate, 0)
            }
            Command::Unknown(raw) => {
                self.push_bytes(raw);
                (Kind::Unknown, 0)
            }
        };
        if !fits {
            self.rollback(&mark);
            return Err(too_large(budget));
        }
        self.finish(kind, param, &mark, budget)
            .inspect_err(|_| self.rollback(&mark))
    }

    /// A name that may be absent: the parameter says whether it is there.
    pub fn push_optional_name(&mut self, name: Option<&[u8]>) -> u8 {
        if let Some(name) = name {
            self.push_bytes(name);
        }
        u8::from(name.is_some())
    }

    /// A joint's bytes: the parent (8 bytes, when given) then the name.
    pub fn push_joint(&mut self, name: &[u8], parent: Option<i64>) {
        if let Some(parent) = parent {
            self.push_bytes(&parent.to_le_bytes());
        }
        self.push_bytes(name);
    }

    /// A declaration's bytes: each word with a 4-byte length before it.
    pub fn push_vertex_array(&mut self, decl: &VertexArrayDecl) {
        let words = [&decl.kind, &decl.component, &decl.size];
        for word in words.into_iter().chain(decl.name.as_ref()) {
            self.push_bytes(&(word.len() as u32).to_le_bytes());
            self.push_bytes(word);
        }
    }

    /// The argument length of entry `i`.
    fn len_of(&self, i: usize, entry: &Entry) -> usize {
        if entry.len != LONG {
            return usize::from(entry.len);
        }
        let at = self
            .long_lengths
            .binary_search_by_key(&(i as u32), |&(e, _)| e);
        at.map_or(0, |at| self.long_lengths[at].1 as usize)
    }

    /// The kind of command `i` (cheap: no argument is decoded).
    pub fn kind(&self, i: usize) -> Option<Kind> {
        self.entries.get(i).map(|e| e.kind)
    }

    /// The attribute of command `i` when it is a vertex attribute.
    pub fn attribute(&self, i: usize) -> Option<Attribute> {
        let entry = self.entries.get(i)?;
        (entry.kind == Kind::Vertex).then(|| attribute_of(entry.param))
    }

    /// The kinds of every command, in order.
    pub fn kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        self.entries.iter().map(|e| e.kind)
    }

    /// The view of command `i`, whose entry is `entry`.
    fn view(&self, i: usize, entry: &Entry) -> CommandRef<'_> {
        let start = entry.start as usize;
        let range = start..start + self.len_of(i, entry);
        let bytes = || self.bytes.get(range.clone()).unwrap_or_default();
        let optional = || (entry.param != 0).then(bytes);
        let single_int = || self.values::<i64>(i).get(0);
        match entry.kind {
            Kind::Comment => CommandRef::Comment(bytes()),
            Kind::Vertex => CommandRef::Vertex(attribute_of(entry.param), self.values(i)),
            Kind::Blend => CommandRef::Blend(self.values(i)),
            Kind::SmoothIndex => CommandRef::SmoothIndex(single_int().unwrap_or(0)),
            Kind::VertexArray => CommandRef::VertexArray(vertex_array(bytes(), entry.param)),
            Kind::Mesh => CommandRef::Mesh(optional()),
            Kind::Material => CommandRef::Material(optional()),
            Kind::Face => {
                let base = if entry.param == 0 {
                    FaceBase::File
                } else {
                    FaceBase::Mesh
                };
                CommandRef::Face(base, self.values(i))
            }
            Kind::FaceSmooth => CommandRef::FaceSmooth(self.values(i)),
            Kind::SmoothUv => CommandRef::SmoothUv(single_int()),
            Kind::SmoothGroup => CommandRef::SmoothGroup(single_int()),
            Kind::SmoothAngle => CommandRef::SmoothAngle(self.values(i).get(0)),
            Kind::Joint => {
                let raw = bytes();
                let (parent, name) = match raw.split_first_chunk::<8>() {
                    Some((parent, name)) if entry.param != 0 => {
                        (Some(i64::from_le_bytes(*parent)), name)
                    }
                    _ => (None, raw),
                };
                CommandRef::Joint { name, parent }
            }
            Kind::Pose => CommandRef::Pose(pose_of(entry.param), self.values(i)),
            Kind::Animation => CommandRef::Animation(optional()),
            Kind::Loop => CommandRef::Loop,
            Kind::Framerate => CommandRef::Framerate(self.values(i).get(0).unwrap_or(0.0)),
            Kind::Frame => CommandRef::Frame(optional()),
            Kind::Unknown => CommandRef::Unknown(bytes()),
        }
    }

    /// The numbers of command `i` (the caller knows its kind stores numbers of type `T`).
    pub fn values<T: StoredValue>(&self, i: usize) -> Values<'_, T> {
        let words = match self.entries.get(i) {
            Some(entry) if !uses_bytes(entry.kind) => {
                let start = entry.start as usize;
                self.words
                    .get(start..start + self.len_of(i, entry))
                    .unwrap_or_default()
            }
            _ => &[],
        };
        Values {
            words,
            wide: &self.wide,
            value: PhantomData,
        }
    }
}

impl Segment {
    /// Whether command `i` here and command `j` of `other` are the same command with the
    /// same values, bit for bit, however each segment numbered its side tables.
    pub fn same_command(&self, i: usize, other: &Segment, j: usize) -> bool {
        let (Some(a), Some(b)) = (self.entries.get(i), other.entries.get(j)) else {
            return false;
        };
        if (a.kind, a.param) != (b.kind, b.param) {
            return false;
        }
        let (range_a, range_b) = (self.range(i, a), other.range(j, b));
        if uses_bytes(a.kind) {
            return self.bytes.get(range_a) == other.bytes.get(range_b);
        }
        let (Some(words_a), Some(words_b)) = (self.words.get(range_a), other.words.get(range_b))
        else {
            return false;
        };
        let types = word_types(a.kind);
        words_a.len() == words_b.len()
            && words_a
                .iter()
                .zip(words_b)
                .enumerate()
                .all(|(k, (&wa, &wb))| {
                    let float = match types {
                        Some(WordTypes::Floats) => true,
                        Some(WordTypes::Pairs) => k % 2 == 1,
                        Some(WordTypes::Ints) | None => false,
                    };
                    self.word_bits(wa, float) == other.word_bits(wb, float)
                })
    }

    /// A word's value, comparable across segments: a packed word as it is (packing is
    /// canonical), a wide one as its value's bits, tagged apart.
    fn word_bits(&self, word: u32, float: bool) -> (bool, u64) {
        if !is_wide(word) {
            return (false, u64::from(word));
        }
        let bits = if float {
            unpack_f64(word, &self.wide.0).to_bits()
        } else {
            unpack_i64(word, &self.wide.0) as u64
        };
        (true, bits)
    }

    /// The argument range of entry `i`.
    fn range(&self, i: usize, entry: &Entry) -> std::ops::Range<usize> {
        let start = entry.start as usize;
        start..start + self.len_of(i, entry)
    }

    /// The view of command `i` of this segment.
    pub fn command(&self, i: usize) -> Option<CommandRef<'_>> {
        Some(self.view(i, self.entries.get(i)?))
    }
}

/// Splits a declaration's bytes back into its words.
fn vertex_array(raw: &[u8], has_name: u8) -> VertexArrayDecl {
    let mut rest = raw;
    let mut next = || -> Vec<u8> {
        let Some((len, tail)) = rest.split_first_chunk::<4>() else {
            return Vec::new();
        };
        let len = (u32::from_le_bytes(*len) as usize).min(tail.len());
        let (word, tail) = tail.split_at(len);
        rest = tail;
        word.to_vec()
    };
    VertexArrayDecl {
        kind: next(),
        component: next(),
        size: next(),
        name: (has_name != 0).then(next),
    }
}
