//! The two [`Codec`]s: `.psk`/`.pskx` (with its animations in a `.psa` beside it) and
//! `.psa` alone.

use crate::convert::{
    ConvertOptions, anim_from_model, from_model, shared_bones, to_model, to_model_with_animations,
};
use crate::error::Error;
use crate::file::{File, Kind};
use rigport_model_core::codec::{
    Beside, Codec, Companions, FormatError, FormatInfo, Keep, Kept, Location, NoCompanions,
    Opening, WriteOptions, Written, WrittenFiles, attach_animations_beside, model_of,
};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report, UpAxis};
use std::any::Any;

/// The `.psk`/`.pskx` codec. Reading with companions (when
/// [`ReadOptions::animations_beside`] is set) binds every `.psa` beside the mesh whose bone
/// names fit its skeleton; writing gives the `.psk` and, when the model has animations,
/// one `<stem>.psa` holding every sequence.
#[derive(Clone, Copy, Debug, Default)]
pub struct Psk;

/// The `.psa` codec: a skeleton (the bone names and their reference pose) and one
/// animation per sequence.
#[derive(Clone, Copy, Debug, Default)]
pub struct Psa;

/// What the `.psk` codec is.
pub static PSK_INFO: FormatInfo = FormatInfo {
    key: "psk",
    family: "PSK",
    description: "Unreal ActorX mesh (`.psk`, `.pskx`; animations as `.psa` beside it)",
    extensions: &["psk", "pskx"],
    up: UpAxis::Z,
    writes: true,
    reads: true,
    one_timeline: false,
    animation_only: false,
    morph_targets: false,
};

/// What the `.psa` codec is.
pub static PSA_INFO: FormatInfo = FormatInfo {
    key: "psa",
    family: "PSK",
    description: "Unreal ActorX animations (`.psa`)",
    extensions: &["psa"],
    up: UpAxis::Z,
    writes: true,
    reads: true,
    one_timeline: false,
    animation_only: true,
    morph_targets: false,
};

/// The `.psk` codec as a value (for a registry's `static` list).
pub static PSK_CODEC: Psk = Psk;
/// The `.psa` codec as a value.
pub static PSA_CODEC: Psa = Psa;

fn format_error(key: &'static str, error: Error) -> FormatError {
    FormatError::wrap(key, Location::at_offset(error.offset()), error)
}

fn read_kind(
    key: &'static str,
    kind: Kind,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<(File, Report), FormatError> {
    let (file, report) = File::from_slice_with(bytes, options).map_err(|e| format_error(key, e))?;
    if file.kind != kind {
        return Err(FormatError::new(
            key,
            Location::Offset(0),
            format!(
                "this is a .{} file, not a .{}",
                file.kind.extension(),
                kind.extension()
            ),
        ));
    }
    Ok((file, report))
}

/// A PSK or PSA read faithfully ([`Codec::open`]): the file, and for a mesh the `.psa`
/// files beside it whose bones fit its skeleton.
#[derive(Debug)]
struct PskFiles {
    info: &'static FormatInfo,
    file: File,
    psas: Vec<File>,
}

impl Keep for PskFiles {
    fn summary(&self) -> FileSummary {
        self.file.summary()
    }

    fn to_vec(&self) -> Vec<u8> {
        self.file.to_vec()
    }

    fn to_model(&self) -> Result<(Model, Report), FormatError> {
        let convert = ConvertOptions::default();
        let made = if self.file.kind == Kind::Mesh {
            let refs: Vec<&File> = self.psas.iter().collect();
            to_model_with_animations(&self.file, &refs, &convert)
        } else {
            to_model(&self.file, &convert)
        };
        made.map_err(|e| format_error(self.info.key, e))
    }

    fn as_any(&self) -> &dyn Any {
        &self.file
    }
}

/// Opens a `.psa`.
fn open_anim(bytes: &[u8], options: &ReadOptions) -> Opening {
    let (file, report) = read_kind(PSA_INFO.key, Kind::Anim, bytes, options)?;
    let files = PskFiles {
        info: &PSA_INFO,
        file,
        psas: Vec::new(),
    };
    Kept::opening(&PSA_INFO, files, report)
}

/// Opens a `.psk` with the `.psa` files beside it whose bones fit its skeleton (see
/// [`Psk`]'s [`Codec::open`]).
fn open_mesh(bytes: &[u8], options: &ReadOptions, companions: &dyn Companions) -> Opening {
    let (mesh, mut report) = read_kind(PSK_INFO.key, Kind::Mesh, bytes, options)?;
    let psas = attach_animations_beside(companions, options, "psa", &mut report, |_, content| {
        match File::from_slice_with(content, options) {
            Ok((psa, _)) if psa.kind == Kind::Anim => {
                let shared = shared_bones(&mesh, &psa);
                let total = psa.bones().len();
                if shared > 0 && shared * 2 >= total {
                    let note = format!(
                        "{} sequences attached ({shared} of its {total} bones are in the skeleton)",
                        psa.sequences().len()
                    );
                    Beside::Attach(psa, Some(note))
                } else {
                    Beside::Unfit(format!(
                        "does not fit this skeleton ({shared} of its {total} bone names shared)"
                    ))
                }
            }
            Ok(_) => Beside::Skip,
            Err(error) => Beside::Unreadable(error.to_string()),
        }
    });
    let files = PskFiles {
        info: &PSK_INFO,
        file: mesh,
        psas,
    };
    Kept::opening(&PSK_INFO, files, report)
}

impl Codec for Psk {
    fn info(&self) -> &'static FormatInfo {
        &PSK_INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff_kind(bytes) == Some(Kind::Mesh)
    }

    fn read(&self, bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), FormatError> {
        self.read_with(bytes, options, &NoCompanions)
    }

    /// [`Codec::open`], then the model.
    fn read_with(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
    ) -> Result<(Model, Report), FormatError> {
        model_of(open_mesh(bytes, options, companions))
    }

    /// Reads the mesh and, when [`ReadOptions::animations_beside`] asks for it, every
    /// `.psa` among `companions.names()` (sorted by name) whose bone names fit the
    /// skeleton: at least one shared, and at least half of the PSA's bones. Each sequence
    /// becomes an animation. Other `.psa` files are skipped with a note, as are ones that
    /// do not read.
    fn open(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        companions: &dyn Companions,
    ) -> Option<Opening> {
        Some(open_mesh(bytes, options, companions))
    }

    /// `main` (the `.psk`) and, when the model has animations, `<stem>.psa` with every
    /// animation as one sequence; the report lists the files.
    fn write(
        &self,
        model: &Model,
        main: &str,
        _options: &WriteOptions,
    ) -> Result<Written, FormatError> {
        let key = PSK_INFO.key;
        let convert = ConvertOptions::default();
        let fail = |e: Error| FormatError::wrap_plain(key, Location::Unknown, e);
        let (file, mut report) = from_model(model, &convert).map_err(fail)?;
        if model.animations.is_empty() {
            let mut written = Written::single(main, file.to_vec());
            written.report = report;
            return Ok(written);
        }
        let (anim, anim_report) = anim_from_model(model, &convert).map_err(fail)?;
        report.extend(anim_report);
        let mut files = WrittenFiles::new(main, file.to_vec(), "mesh");
        let what = format!("{} animations", model.animations.len());
        files.beside("psa", "anims", anim.to_vec(), &what);
        let files = files.finish(&mut report);
        Ok(Written { files, report })
    }
}

impl Codec for Psa {
    fn info(&self) -> &'static FormatInfo {
        &PSA_INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff_kind(bytes) == Some(Kind::Anim)
    }

    fn read(&self, bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), FormatError> {
        model_of(open_anim(bytes, options))
    }

    fn open(&self, bytes: &[u8], options: &ReadOptions, _: &dyn Companions) -> Option<Opening> {
        Some(open_anim(bytes, options))
    }

    /// Every animation as a sequence of one `.psa`; a model without animations is an
    /// error.
    fn write(
        &self,
        model: &Model,
        main: &str,
        _options: &WriteOptions,
    ) -> Result<Written, FormatError> {
        let key = PSA_INFO.key;
        if model.animations.is_empty() {
            return Err(FormatError::new(
                key,
                Location::Unknown,
                "the model has no animation to write as a .psa",
            ));
        }
        let (file, report) = anim_from_model(model, &ConvertOptions::default())
            .map_err(|e| FormatError::wrap_plain(key, Location::Unknown, e))?;
        let mut written = Written::single(main, file.to_vec());
        written.report = report;
        Ok(written)
    }
}
