//! What a write makes: the files ([`Written`], the main one first), and the one rule that
//! names the files written beside it ([`WrittenFiles`]).

use crate::{Report, codes};

/// One file a write produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// File name, in the main output's folder.
    pub name: String,
    /// Content.
    pub bytes: Vec<u8>,
}

/// What [`Writer::write`](super::Writer::write) produced: the main file first, then its
/// companions, and a report of everything the format could not carry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Written {
    /// Files, the main one first.
    pub files: Vec<OutputFile>,
    /// Losses and notes.
    pub report: Report,
}

impl Written {
    /// One file and an empty report.
    pub fn single(name: &str, bytes: Vec<u8>) -> Self {
        Self {
            files: vec![OutputFile {
                name: name.to_owned(),
                bytes,
            }],
            report: Report::default(),
        }
    }
}

/// The stem of a main output name (`"hero.mdl"` → `"hero"`), for naming companions.
pub fn stem_of(main: &str) -> &str {
    match main.rfind('.') {
        Some(dot) if dot > 0 => &main[..dot],
        _ => main,
    }
}

/// A name made safe as part of a file name: letters, digits, `-`, `_` and `.` kept, anything
/// else `_`; never empty, never `.` or `..` alone.
pub fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() || safe.chars().all(|c| c == '.') {
        "_".repeat(safe.len().max(1))
    } else {
        safe
    }
}

/// The name a reader gives an animation file `file` found beside the main file `main`: the
/// inverse of [`WrittenFiles::companion`]'s rule, so that what a write names comes back
/// under the same name. `<stem>_<part>.<ext>` beside `<stem>.<main ext>` is `part` (the stem
/// compared ignoring case); any other file is its own stem (`<stem>.<ext>` beside the main
/// file is `stem`). Without the main file's name (`None`), every file is its own stem.
///
/// ```
/// use rigport_model_core::codec::animation_name_beside;
///
/// assert_eq!(animation_name_beside(Some("hero.md5mesh"), "hero_walk.md5anim"), "walk");
/// assert_eq!(animation_name_beside(Some("Hero.md5mesh"), "hero_walk.md5anim"), "walk");
/// assert_eq!(animation_name_beside(Some("hero.md5mesh"), "hero.md5anim"), "hero");
/// assert_eq!(animation_name_beside(Some("hero.md5mesh"), "idle.md5anim"), "idle");
/// assert_eq!(animation_name_beside(None, "hero_walk.md5anim"), "hero_walk");
/// ```
pub fn animation_name_beside<'a>(main: Option<&str>, file: &'a str) -> &'a str {
    let stem = stem_of(file);
    let Some(main) = main.map(stem_of) else {
        return stem;
    };
    let cut = main.len() + 1;
    match (stem.get(..main.len()), stem.as_bytes().get(main.len())) {
        (Some(head), Some(b'_')) if head.eq_ignore_ascii_case(main) && stem.len() > cut => {
            &stem[cut..]
        }
        _ => stem,
    }
}

/// The files a write makes, named by one rule: the main file first, then each companion
/// `<stem>_<part>.<extension>` beside it (`hero_walk.seq`), the part made
/// [`file_safe`], with `_2`, `_3`… added when the name would clash with one already written
/// **ignoring case** (two animations "Walk" and "walk" would overwrite each other on Windows
/// and macOS). A part named as the main file's stem is `<stem>.<extension>` where that name
/// is free (an animation `hero` beside `hero.md5mesh` is `hero.md5anim`).
/// [`animation_name_beside`] is the rule read back. [`WrittenFiles::finish`] reports them all
/// in one `files-written` note.
///
/// ```
/// use rigport_model_core::Report;
/// use rigport_model_core::codec::WrittenFiles;
///
/// let mut files = WrittenFiles::new("hero.mdl", b"ref".to_vec(), "reference");
/// files.companion("Walk", "seq", b"a".to_vec(), "animation `Walk`");
/// files.companion("walk", "seq", b"b".to_vec(), "animation `walk`");
/// let mut report = Report::default();
/// let written = files.finish(&mut report);
/// let names: Vec<&str> = written.iter().map(|f| f.name.as_str()).collect();
/// assert_eq!(names, ["hero.mdl", "hero_Walk.seq", "hero_walk_2.seq"]);
/// let mut files = WrittenFiles::new("hero.mdl", b"ref".to_vec(), "reference");
/// assert_eq!(files.companion("hero", "seq", b"a".to_vec(), "animation `hero`"), "hero.seq");
/// assert_eq!(files.companion("hero", "mdl", b"b".to_vec(), "animation `hero`"), "hero_hero.mdl");
/// assert_eq!(
///     report.notices[0].message,
///     "wrote hero.mdl (reference), hero_Walk.seq (animation `Walk`), hero_walk_2.seq (animation `walk`)"
/// );
/// ```
#[derive(Clone, Debug, Default)]
pub struct WrittenFiles {
    files: Vec<OutputFile>,
    listed: Vec<String>,
}

impl WrittenFiles {
    /// The main file `main` (its name as asked), described as `what` ("mesh", "reference").
    pub fn new(main: &str, bytes: Vec<u8>, what: &str) -> Self {
        let mut files = Self::default();
        files.push(main.to_owned(), bytes, what);
        files
    }

    /// Adds a companion named after `part` with `extension` (no dot), described as `what`
    /// ("animation `walk`, 30 frames"); returns the name it got.
    pub fn companion(&mut self, part: &str, extension: &str, bytes: Vec<u8>, what: &str) -> &str {
        let stem = self
            .files
            .first()
            .map_or("", |f| stem_of(&f.name))
            .to_owned();
        let own = format!("{stem}.{extension}");
        if part == stem && !self.taken(&own) {
            self.push(own, bytes, what);
            return &self.files[self.files.len() - 1].name;
        }
        let base = format!("{stem}_{}", file_safe(part));
        let mut name = format!("{base}.{extension}");
        let mut n = 2;
        while self.taken(&name) {
            name = format!("{base}_{n}.{extension}");
            n += 1;
        }
        self.push(name, bytes, what);
        &self.files[self.files.len() - 1].name
    }

    /// Adds a companion that holds everything of its kind under the main file's own stem,
    /// `<stem>.<extension>` (`hero.psa` beside `hero.psk`), described as `what`; when that
    /// name is taken (ignoring case) it is named after `part` as [`companion`](Self::companion)
    /// names files. Returns the name it got.
    pub fn beside(&mut self, extension: &str, part: &str, bytes: Vec<u8>, what: &str) -> &str {
        let stem = self.files.first().map_or("", |f| stem_of(&f.name));
        let name = format!("{stem}.{extension}");
        if self.taken(&name) {
            return self.companion(part, extension, bytes, what);
        }
        self.push(name, bytes, what);
        &self.files[self.files.len() - 1].name
    }

    /// Whether a file of this name is written already (ignoring case).
    fn taken(&self, name: &str) -> bool {
        self.files.iter().any(|f| f.name.eq_ignore_ascii_case(name))
    }

    /// Adds a file under the name given.
    fn push(&mut self, name: String, bytes: Vec<u8>, what: &str) {
        self.listed.push(format!("{name} ({what})"));
        self.files.push(OutputFile { name, bytes });
    }

    /// The files, the main one first, with a `files-written` note naming each in `report`.
    pub fn finish(self, report: &mut Report) -> Vec<OutputFile> {
        report.info(
            codes::FILES_WRITTEN,
            format!("wrote {}", self.listed.join(", ")),
        );
        self.files
    }
}
