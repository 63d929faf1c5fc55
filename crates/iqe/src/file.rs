//! The faithful file struct and its entry points.

use crate::command::Command;
use crate::error::Error;
use crate::lines::{HEADER, header_start};
use crate::notes::Notes;
use crate::read::{Split, parse};
use crate::scene::{Purpose, Scene, Walk};
use crate::store::{CommandRef, Kind, Store};
use crate::write::write_file;
use rigport_model_core::{Limits, ReadOptions, Report};
use std::io::Write;

/// An IQE file as stored: the header, every command in file order, and the comment section.
///
/// Reading and then writing keeps every command (unknown ones included) and the comment
/// section byte for byte; numbers and names keep their values, the layout becomes canonical.
/// Commands are held compactly (a few bytes per number); [`File::commands`] views them and
/// [`File::push`] appends one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct File {
    /// Whatever followed `# Inter-Quake Export` on the first line (usually nothing).
    pub header_extra: Vec<u8>,
    /// The commands in file order.
    commands: Store,
    /// Everything after the line holding `comment`, verbatim, if the file has that command.
    pub comment: Option<Vec<u8>>,
}

/// Whether `bytes` look like an IQE file: the header, optionally after a byte-order mark and
/// spaces.
pub fn sniff(bytes: &[u8]) -> bool {
    bytes
        .get(header_start(bytes)..)
        .is_some_and(|rest| rest.starts_with(HEADER))
}

rigport_model_core::faithful_readers!();

impl File {
    /// Reads a file; the report holds the warnings (`line N: …`). With
    /// `ReadOptions { strict: true }` the first warning is an error instead.
    ///
    /// With the `parallel` feature (on by default) a file of a megabyte or more is read on
    /// every core of rayon's thread pool; the file, the report and any error are the same
    /// as when it is read on one thread.
    pub fn from_slice_with(bytes: &[u8], options: &ReadOptions) -> Result<(File, Report), Error> {
        Self::from_slice_split(bytes, options, Split::Auto)
    }

    /// [`File::from_slice_with`], reading the body as `split` says.
    pub(crate) fn from_slice_split(
        bytes: &[u8],
        options: &ReadOptions,
        split: Split,
    ) -> Result<(File, Report), Error> {
        // Only checked: a scene costs memory that reading a file should not.
        read_file(bytes, options, split, Purpose::Check).map(|(file, _, report)| (file, report))
    }

    /// A file of these commands.
    pub fn from_commands<'c>(
        header_extra: Vec<u8>,
        commands: impl IntoIterator<Item = &'c Command>,
        comment: Option<Vec<u8>>,
    ) -> Result<File, Error> {
        let mut file = File {
            header_extra,
            commands: Store::default(),
            comment,
        };
        for command in commands {
            file.push(command)?;
        }
        Ok(file)
    }

    /// Appends a command. Fails only when the file outgrows 32-bit offsets (many gigabytes).
    pub fn push(&mut self, command: &Command) -> Result<(), Error> {
        let mut unlimited = Limits::unlimited().budget();
        Ok(self.commands.push(command, &mut unlimited)?)
    }

    /// The commands as stored.
    pub(crate) fn store(&self) -> &Store {
        &self.commands
    }

    /// Number of commands.
    pub fn command_count(&self) -> usize {
        self.commands.len()
    }

    /// Command `i` (in file order).
    pub fn command(&self, i: usize) -> Option<CommandRef<'_>> {
        self.commands.get(i)
    }

    /// The commands in file order.
    pub fn commands(&self) -> impl ExactSizeIterator<Item = CommandRef<'_>> + '_ {
        self.commands.iter()
    }

    /// The commands and the comment section, for a conversion that frees the commands as
    /// it goes.
    pub(crate) fn into_commands(self) -> (Store, Option<Vec<u8>>) {
        (self.commands, self.comment)
    }

    /// How many commands are of `kind` (cheap: nothing is decoded).
    pub(crate) fn count_kind(&self, kinds: &[Kind]) -> usize {
        self.commands.kinds().filter(|k| kinds.contains(k)).count()
    }

    /// Writes the file in the canonical layout (see the crate docs).
    pub fn write<W: Write>(&self, writer: W) -> std::io::Result<()> {
        write_file(
            writer,
            &self.header_extra,
            &self.commands,
            self.comment.as_deref(),
        )
    }

    /// The file in the canonical layout.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write(&mut out);
        out
    }

    /// What the commands mean: vertex arrays, meshes, fanned triangles, skeleton, frames.
    ///
    /// A file read from text was interpreted once while reading, so this fails only for
    /// commands pushed since. The error's span then points at the offending command in the
    /// file's own text, [`File::to_vec`] (render it against those bytes): the file keeps
    /// no other text.
    pub fn scene(&self) -> Result<Scene<'_>, Error> {
        Scene::build(&self.commands, &mut Notes::default())
            .map_err(|located| located.locate(&self.to_vec()))
    }
}

/// Reads a file and interprets its commands for `purpose` (which checks them: array
/// lengths, indices, parents), returning the scene beside the file (detached; empty of
/// vertices and triangles for [`Purpose::Check`]).
///
/// A file read in chunks on the thread pool is interpreted a chunk at a time as they are
/// read ([`Walk`]), so most of that walk is done by the time the last chunk is read.
pub(crate) fn read_file(
    bytes: &[u8],
    options: &ReadOptions,
    split: Split,
    purpose: Purpose,
) -> Result<(File, Scene<'static>, Report), Error> {
    let mut notes = Notes::default();
    let mut walk = Walk::new(purpose);
    let parsed = parse(bytes, options, &mut notes, split, &mut |chunk| {
        walk.follow(chunk)
    })?;
    let interpreted = match parsed.followed {
        true => walk.finish(&parsed.commands, &mut notes),
        false => Scene::walk(&parsed.commands, purpose, &mut notes),
    }
    .map(Scene::detach)
    .map_err(|e| e.locate(bytes))?;
    notes.locate_commands(bytes);
    notes.flush_strict(options)?;
    let file = File {
        header_extra: parsed.header_extra,
        commands: parsed.commands,
        comment: parsed.comment,
    };
    Ok((file, interpreted, notes.into_report(bytes)))
}
