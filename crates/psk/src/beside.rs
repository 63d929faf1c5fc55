//! The files beside a PSK mesh: the `.psa` files read with a `.psk` (those whose bones fit
//! it), the file a reader keeps, and the `.psa` written beside a mesh.

use crate::convert::{
    ConvertOptions, anim_from_model, from_model, shared_bones, to_model, to_model_with_animations,
};
use crate::error::Error;
use crate::file::{File, Kind};
use rigport_model_core::codec::{
    Beside, FormatError, Input, Keep, Kept, Location, Opening, Written, WrittenFiles,
    attach_animations_beside,
};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report};

use crate::codec::{PSA_INFO, PSK_INFO};

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

/// A PSK or PSA a reader keeps, and for a mesh the `.psa` files beside it whose bones fit
/// its skeleton.
impl Keep for File {
    type Beside = File;

    fn summary(&self) -> FileSummary {
        File::summary(self)
    }

    fn to_vec(&self) -> Vec<u8> {
        File::to_vec(self)
    }

    fn to_model(&self, psas: &[File]) -> Result<(Model, Report), FormatError> {
        let convert = ConvertOptions::default();
        let (key, made) = if self.kind == Kind::Mesh {
            let refs: Vec<&File> = psas.iter().collect();
            let made = to_model_with_animations(self, &refs, &convert);
            (PSK_INFO.key, made)
        } else {
            (PSA_INFO.key, to_model(self, &convert))
        };
        made.map_err(|e| format_error(key, e))
    }
}

/// Opens a `.psa`.
pub(crate) fn open_anim(
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<(Opening, Report), FormatError> {
    let (file, report) = read_kind(PSA_INFO.key, Kind::Anim, bytes, options)?;
    Kept::opening(&PSA_INFO, file, report)
}

/// Opens a `.psk` with the `.psa` files beside it whose bones fit its skeleton (see
/// [`Psk`](crate::Psk)'s `Reader::open`).
pub(crate) fn open_mesh(input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
    let (bytes, options, companions) = (input.bytes, input.options, input.companions);
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
    Kept::opening_with(&PSK_INFO, mesh, psas, report)
}

/// The `.psk` written as `main` and, when the model has animations, `<stem>.psa` beside it
/// with every animation as one sequence; the report lists the files.
pub(crate) fn write_mesh(model: &Model, main: &str) -> Result<Written, FormatError> {
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

/// Every animation as a sequence of one `.psa` written as `main`; a model without
/// animations is an error.
pub(crate) fn write_anims(model: &Model, main: &str) -> Result<Written, FormatError> {
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
