//! The files beside a model that a read may need ([`Companions`]): none, a folder on disk, a
//! map held in memory, or one file laid over others ([`Overlay`]).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// Files a read may need beside the main one, looked up by file name (a `.md5anim` beside a
/// `.md5mesh`, a `.gltf`'s `.bin`). A folder on disk, a zip or the files a web page was
/// given all answer the same way.
pub trait Companions {
    /// The content of the file called `name` beside the main file, if there is one.
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>>;
    /// The names of every file beside the main one (for codecs that look for a pattern,
    /// such as `<stem>*.md5anim`); empty when the source cannot list them.
    fn names(&self) -> Vec<String> {
        Vec::new()
    }
    /// The size in bytes of the file called `name`, if there is one, so a caller can refuse
    /// a file larger than its limits before reading it. By default the file is read to
    /// measure it; sources that know sizes (a folder, files in memory) answer directly.
    fn size(&self, name: &str) -> Option<u64> {
        self.get(name).map(|bytes| bytes.len() as u64)
    }
    /// The folder on disk the companions are in, when they are files of one (formats whose
    /// files name companions by relative path, such as a `.gltf`'s `textures/skin.png`,
    /// read them from there).
    fn folder(&self) -> Option<&Path> {
        None
    }
}

/// The names of the animation files beside a model that a read attaches: when
/// [`ReadOptions::animations_beside`](crate::ReadOptions::animations_beside) asks for them,
/// every file among `companions` whose name ends in `.<extension>` (any case), sorted; none
/// otherwise. The one rule of the codecs whose models keep their animations in files beside
/// them (an `.md5mesh`'s `.md5anim` files, a `.psk`'s `.psa` files); each file is then read
/// one at a time with [`Companions::get`].
///
/// ```
/// use rigport_model_core::ReadOptions;
/// use rigport_model_core::codec::animation_names_beside;
/// use std::collections::BTreeMap;
///
/// let files = BTreeMap::from([
///     ("walk.ANM".to_owned(), b"w".to_vec()),
///     ("idle.anm".to_owned(), b"i".to_vec()),
///     ("skin.png".to_owned(), b"p".to_vec()),
/// ]);
/// let mut options = ReadOptions::default();
/// assert!(animation_names_beside(&files, &options, "anm").is_empty());
/// options.animations_beside = true;
/// assert_eq!(animation_names_beside(&files, &options, "anm"), ["idle.anm", "walk.ANM"]);
/// ```
pub fn animation_names_beside(
    companions: &dyn Companions,
    options: &crate::ReadOptions,
    extension: &str,
) -> Vec<String> {
    if !options.animations_beside {
        return Vec::new();
    }
    let suffix = format!(".{}", extension.to_ascii_lowercase());
    let mut names: Vec<String> = companions
        .names()
        .into_iter()
        .filter(|n| n.to_ascii_lowercase().ends_with(&suffix))
        .collect();
    names.sort();
    names
}

/// What a read makes of one animation file beside a model ([`attach_animations_beside`]).
#[derive(Debug)]
pub enum Beside<T> {
    /// It fits: attached, with a note for the report (`None`: attached silently).
    Attach(T, Option<String>),
    /// Not an animation file of this format: passed over silently.
    Skip,
    /// It does not fit the model: passed over, noted with why (`does not fit …`).
    Unfit(String),
    /// It could not be read: passed over, warned with the reader's message.
    Unreadable(String),
}

/// The animation files beside a model that a read attaches, in the order of
/// [`animation_names_beside`], each read by `read` from its name and content: one file held
/// at a time, and one wording for the report (`animations-attached` notes; files that do not
/// fit or do not read are `animations-dropped`).
///
/// ```
/// use rigport_model_core::codec::{Beside, attach_animations_beside};
/// use rigport_model_core::{ReadOptions, Report};
/// use std::collections::BTreeMap;
///
/// let files = BTreeMap::from([
///     ("a.anm".to_owned(), b"ok".to_vec()),
///     ("b.anm".to_owned(), b"??".to_vec()),
/// ]);
/// let mut options = ReadOptions::default();
/// options.animations_beside = true;
/// let mut report = Report::default();
/// let attached = attach_animations_beside(&files, &options, "anm", &mut report, |_, bytes| {
///     if bytes == b"ok" {
///         Beside::Attach(bytes.len(), None)
///     } else {
///         Beside::Unreadable("not an animation".to_owned())
///     }
/// });
/// assert_eq!(attached, [2]);
/// assert_eq!(report.notices.len(), 1);
/// ```
pub fn attach_animations_beside<T>(
    companions: &dyn Companions,
    options: &crate::ReadOptions,
    extension: &str,
    report: &mut crate::Report,
    mut read: impl FnMut(&str, &[u8]) -> Beside<T>,
) -> Vec<T> {
    let mut attached = Vec::new();
    for name in animation_names_beside(companions, options, extension) {
        let Some(content) = companions.get(&name) else {
            continue;
        };
        match read(&name, &content) {
            Beside::Attach(file, note) => {
                if let Some(note) = note {
                    report.info(
                        crate::codes::ANIMATIONS_ATTACHED,
                        format!("`{name}`: {note}"),
                    );
                }
                attached.push(file);
            }
            Beside::Skip => {}
            Beside::Unfit(why) => report.info(
                crate::codes::ANIMATIONS_DROPPED,
                format!("`{name}` {why} and was not read"),
            ),
            Beside::Unreadable(error) => report.warn(
                crate::codes::ANIMATIONS_DROPPED,
                format!("`{name}` could not be read: {error}"),
            ),
        }
    }
    attached
}

/// A borrowed source answers as the source does.
impl<T: Companions + ?Sized> Companions for &T {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        (**self).get(name)
    }
    fn names(&self) -> Vec<String> {
        (**self).names()
    }
    fn size(&self, name: &str) -> Option<u64> {
        (**self).size(name)
    }
    fn folder(&self) -> Option<&Path> {
        (**self).folder()
    }
}

/// No files beside the main one.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCompanions;

impl Companions for NoCompanions {
    fn get(&self, _: &str) -> Option<Cow<'_, [u8]>> {
        None
    }
    fn size(&self, _: &str) -> Option<u64> {
        None
    }
}

/// Files given in memory by name (the files a web page was handed, say). A name may hold a
/// relative path (`textures/skin.png`) when the caller keeps folders.
impl<S: std::hash::BuildHasher> Companions for HashMap<String, Vec<u8>, S> {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        self.get(name).map(|bytes| Cow::Borrowed(bytes.as_slice()))
    }
    fn size(&self, name: &str) -> Option<u64> {
        self.get(name).map(|bytes| bytes.len() as u64)
    }
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.keys().cloned().collect();
        names.sort();
        names
    }
}

/// Files given in memory by name, in name order.
impl Companions for BTreeMap<String, Vec<u8>> {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        self.get(name).map(|bytes| Cow::Borrowed(bytes.as_slice()))
    }
    fn size(&self, name: &str) -> Option<u64> {
        self.get(name).map(|bytes| bytes.len() as u64)
    }
    fn names(&self) -> Vec<String> {
        self.keys().cloned().collect()
    }
}

/// The files in a folder on disk: the companions of a model read from that folder.
///
/// A name is a file name, or a relative path below the folder with `/` or `\` between its
/// parts; names with a drive, a root or a `..` part name nothing (a model's references must
/// not reach outside its folder). [`Companions::names`] lists the folder's files (not its
/// subfolders), sorted. The folder is listed once, on the first call, and each entry is only
/// looked up on disk when it is a link (a folder of thousands of files costs one listing,
/// not a lookup per file per texture).
///
/// ```
/// use rigport_model_core::codec::{Companions, Folder};
///
/// let dir = std::env::temp_dir().join(format!("rigport-folder-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("skin.png"), b"png").unwrap();
/// let folder = Folder::new(&dir);
/// assert_eq!(folder.get("skin.png").as_deref(), Some(&b"png"[..]));
/// assert_eq!(folder.size(r".\skin.png"), Some(3));
/// assert!(folder.get("../skin.png").is_none());
/// assert_eq!(folder.names(), ["skin.png"]);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct Folder {
    dir: PathBuf,
    /// The folder's file names, sorted, once listed.
    listing: OnceLock<Vec<String>>,
}

/// Two folders are equal when they name the same folder, listed or not.
impl PartialEq for Folder {
    fn eq(&self, other: &Self) -> bool {
        self.dir == other.dir
    }
}

impl Eq for Folder {}

impl Folder {
    /// The files in folder `dir` (`""` is the current folder).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        Self {
            dir,
            listing: OnceLock::new(),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of the file `name` names inside the folder, if the name stays inside it.
    pub fn path_of(&self, name: &str) -> Option<PathBuf> {
        let normalised = name.trim().replace('\\', "/");
        let relative = Path::new(&normalised);
        let inside = !normalised.is_empty()
            && !normalised.contains(':')
            && relative
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
            && relative
                .components()
                .any(|c| matches!(c, Component::Normal(_)));
        inside.then(|| self.dir.join(relative))
    }
}

impl Companions for Folder {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        let path = self.path_of(name)?;
        if !path.is_file() {
            return None;
        }
        std::fs::read(path).ok().map(Cow::Owned)
    }

    fn size(&self, name: &str) -> Option<u64> {
        let metadata = std::fs::metadata(self.path_of(name)?).ok()?;
        metadata.is_file().then_some(metadata.len())
    }

    fn folder(&self) -> Option<&Path> {
        Some(&self.dir)
    }

    fn names(&self) -> Vec<String> {
        self.listing.get_or_init(|| list_files(&self.dir)).clone()
    }
}

/// The names of the files in `dir` (and of links to files), sorted. The listing's own file
/// types answer for everything but links, which are followed to see what they name.
fn list_files(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| match entry.file_type() {
            Ok(kind) if kind.is_symlink() => entry.path().is_file(),
            Ok(kind) => kind.is_file(),
            Err(_) => false,
        })
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// Files a write may read besides the model (texture images to embed): `files` given in
/// memory first (the images a source file held), then the files of `under`, if any.
pub struct Overlay<'a> {
    files: Vec<(&'a str, &'a [u8])>,
    under: Option<&'a dyn Companions>,
}

impl<'a> Overlay<'a> {
    /// `files` (name and content) over `under`.
    pub fn new(
        files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
        under: Option<&'a dyn Companions>,
    ) -> Self {
        Self {
            files: files.into_iter().collect(),
            under,
        }
    }
}

impl fmt::Debug for Overlay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.files.iter().map(|(name, _)| *name).collect();
        f.debug_struct("Overlay")
            .field("files", &names)
            .field("under", &self.under.is_some())
            .finish()
    }
}

impl Companions for Overlay<'_> {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        match self.files.iter().find(|(n, _)| *n == name) {
            Some((_, bytes)) => Some(Cow::Borrowed(bytes)),
            None => self.under?.get(name),
        }
    }
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.files.iter().map(|(n, _)| (*n).to_owned()).collect();
        if let Some(under) = self.under {
            for name in under.names() {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        names
    }
    fn size(&self, name: &str) -> Option<u64> {
        match self.files.iter().find(|(n, _)| *n == name) {
            Some((_, bytes)) => Some(bytes.len() as u64),
            None => self.under?.size(name),
        }
    }
    fn folder(&self) -> Option<&Path> {
        self.under?.folder()
    }
}
