//! The files beside an MD5 mesh: the `.md5anim` files read with an `.md5mesh` (those whose
//! joints fit it), the file a reader keeps, and the `.md5anim` files written beside a mesh.

use crate::convert::{
    ConvertOptions, anim_from_model, from_model, match_joints, to_model, to_model_with_animations,
};
use crate::error::Error;
use crate::file::{File, Kind};
use rigport_model_core::codec::{
    Beside, FormatError, Input, Keep, Kept, Location, Opening, Written, WrittenFiles,
    animation_name_beside, attach_animations_beside,
};
use rigport_model_core::{FileSummary, Model, ReadOptions, Report};

use crate::codec::{ANIM_INFO, MESH_INFO};

fn read_kind(
    key: &'static str,
    kind: Kind,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<(File, Report), FormatError> {
    let (file, report) =
        File::from_slice_with(bytes, options).map_err(|e| e.into_format_error(key, Some(bytes)))?;
    if file.kind != kind {
        return Err(FormatError::new(
            key,
            Location::Unknown,
            format!("this is an {}, not an {}", file.kind.key(), kind.key()),
        ));
    }
    Ok((file, report))
}

/// An MD5 file a reader keeps, and for a mesh the `.md5anim` files beside it that fit its
/// joints, each named by [`animation_name_beside`] (`hero_walk.md5anim` beside
/// `hero.md5mesh` is `walk`).
impl Keep for File {
    type Beside = (String, File);

    fn summary(&self) -> FileSummary {
        File::summary(self)
    }

    fn to_vec(&self) -> Vec<u8> {
        File::to_vec(self)
    }

    fn to_model(&self, anims: &[(String, File)]) -> Result<(Model, Report), FormatError> {
        let convert = ConvertOptions::default();
        let (key, made) = if self.kind == Kind::Mesh {
            let refs: Vec<(&str, &File)> = anims.iter().map(|(n, f)| (n.as_str(), f)).collect();
            let made = to_model_with_animations(self, &refs, &convert);
            (MESH_INFO.key, made)
        } else {
            (ANIM_INFO.key, to_model(self, &convert))
        };
        made.map_err(|e| FormatError::wrap(key, Location::Unknown, e))
    }
}

/// Opens an `.md5anim`.
pub(crate) fn open_anim(
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<(Opening, Report), FormatError> {
    let (file, report) = read_kind(ANIM_INFO.key, Kind::Anim, bytes, options)?;
    Kept::opening(&ANIM_INFO, file, report)
}

/// Opens an `.md5mesh` with the `.md5anim` files beside it that fit its joints (see
/// [`Md5Mesh`](crate::Md5Mesh)'s `Reader::open`).
pub(crate) fn open_mesh(input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
    let (bytes, options, companions) = (input.bytes, input.options, input.companions);
    let (mesh, mut report) = read_kind(MESH_INFO.key, Kind::Mesh, bytes, options)?;
    let mesh_names: Vec<String> = mesh
        .joints()
        .map(|j| rigport_model_core::text::decode_name(&j.name))
        .collect();
    let mesh_names: Vec<&str> = mesh_names.iter().map(String::as_str).collect();
    let anims = attach_animations_beside(
        companions,
        options,
        "md5anim",
        &mut report,
        |name, content| match File::from_slice_with(content, options) {
            Ok((file, _)) if file.kind == Kind::Anim => {
                let stem = animation_name_beside(input.name, name).to_owned();
                // Only animations that fit this mesh's joints.
                if match_joints(&mesh_names, &file, &stem).is_ok() {
                    Beside::Attach((stem, file), None)
                } else {
                    Beside::Unfit("does not fit this mesh's joints".to_owned())
                }
            }
            Ok(_) => Beside::Skip,
            Err(error) => Beside::Unreadable(error.render(content)),
        },
    );
    Kept::opening_with(&MESH_INFO, mesh, anims, report)
}

/// The `.md5mesh` written as `main` and, per animation, `<stem>_<animation>.md5anim` beside
/// it (`<stem>.md5anim` for an animation named `<stem>`; named by [`WrittenFiles`]' one rule); the report lists the files.
pub(crate) fn write_mesh(model: &Model, main: &str) -> Result<Written, FormatError> {
    let key = MESH_INFO.key;
    let convert = ConvertOptions::default();
    let fail = |e: Error| FormatError::wrap(key, Location::Unknown, e);
    let (file, mut report) = from_model(model, &convert).map_err(fail)?;
    let mut files = WrittenFiles::new(main, file.to_vec(), "mesh");
    for (index, animation) in model.animations.iter().enumerate() {
        let (anim, anim_report) = anim_from_model(model, index, &convert).map_err(fail)?;
        report.extend(anim_report);
        let what = animation_note(&animation.name, &anim);
        files.companion(&animation.name, "md5anim", anim.to_vec(), &what);
    }
    let files = files.finish(&mut report);
    Ok(Written { files, report })
}

/// The first animation written as `main`, each further one as `<stem>_<animation>.md5anim`;
/// a model without animations is an error.
pub(crate) fn write_anims(model: &Model, main: &str) -> Result<Written, FormatError> {
    let key = ANIM_INFO.key;
    if model.animations.is_empty() {
        return Err(FormatError::new(
            key,
            Location::Unknown,
            "the model has no animation to write as an .md5anim",
        ));
    }
    let convert = ConvertOptions::default();
    let mut report = Report::default();
    let mut files: Option<WrittenFiles> = None;
    for (index, animation) in model.animations.iter().enumerate() {
        let (anim, converted) = anim_from_model(model, index, &convert)
            .map_err(|e| FormatError::wrap(key, Location::Unknown, e))?;
        report.extend(converted);
        let what = animation_note(&animation.name, &anim);
        match &mut files {
            None => files = Some(WrittenFiles::new(main, anim.to_vec(), &what)),
            Some(files) => {
                files.companion(&animation.name, "md5anim", anim.to_vec(), &what);
            }
        }
    }
    let files = files.map(|f| f.finish(&mut report)).unwrap_or_default();
    Ok(Written { files, report })
}

/// How the report describes an `.md5anim` written: its animation and frame count.
fn animation_note(name: &str, anim: &File) -> String {
    format!("animation `{name}`, {} frames", anim.frames().count())
}
