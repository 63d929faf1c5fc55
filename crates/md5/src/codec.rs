//! The two [`Codec`]s: `.md5mesh` (with its animations as companion `.md5anim` files) and
//! `.md5anim` alone, each a [`Reader`] and a [`Writer`].

use crate::beside;
use crate::file::Kind;
use rigport_model_core::codec::{
    Codec, FormatError, FormatInfo, Input, Opening, Output, Reader, Writer, Written,
};
use rigport_model_core::{Model, Report, UpAxis};
use std::borrow::Cow;

/// The `.md5mesh` codec. Reading with companions picks up every `.md5anim` beside the mesh
/// whose joints match it; writing gives `X.md5mesh` and an `X_<animation>.md5anim` per
/// animation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Md5Mesh;

/// The `.md5anim` codec: a skeleton (hierarchy and baseframe) and one animation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Md5Anim;

/// The `.md5mesh` codec, as a registry lists it.
pub static MESH_CODEC: Codec = Codec::new(&MESH_INFO, Some(&Md5Mesh), Some(&Md5Mesh));
/// The `.md5anim` codec, as a registry lists it.
pub static ANIM_CODEC: Codec = Codec::new(&ANIM_INFO, Some(&Md5Anim), Some(&Md5Anim));

pub(crate) static MESH_INFO: FormatInfo = FormatInfo {
    key: "md5mesh",
    family: "MD5",
    description: "id Tech 4 MD5 mesh (`.md5mesh`, animations as `.md5anim` beside it)",
    extensions: &["md5mesh"],
    up: UpAxis::Z,
    writes: true,
    reads: true,
    ..FormatInfo::DEFAULT
};

pub(crate) static ANIM_INFO: FormatInfo = FormatInfo {
    key: "md5anim",
    family: "MD5",
    description: "id Tech 4 MD5 animation (`.md5anim`)",
    extensions: &["md5anim"],
    up: UpAxis::Z,
    writes: true,
    reads: true,
    animation_only: true,
    ..FormatInfo::DEFAULT
};

impl Reader for Md5Mesh {
    fn info(&self) -> &'static FormatInfo {
        &MESH_INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff_kind(bytes) == Some(Kind::Mesh)
    }

    /// Reads the mesh and, when `ReadOptions::animations_beside` asks for
    /// it, every `.md5anim` among the companions (sorted by name) whose joints are
    /// the mesh's (by index or by name); each becomes an animation named as the writer names
    /// files, read back (`hero_walk.md5anim` beside `hero.md5mesh` is `walk`, any other file
    /// its stem; `animation_name_beside`). Other `.md5anim` files are skipped with a note, as are ones that do not read.
    fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
        beside::open_mesh(input)
    }
}

impl Writer for Md5Mesh {
    fn info(&self) -> &'static FormatInfo {
        &MESH_INFO
    }

    /// `main` (the `.md5mesh`) and, per animation, `<stem>_<animation>.md5anim` beside it
    /// (`<stem>.md5anim` for an animation named as the mesh, which assimp also loads).
    fn write(&self, model: Cow<'_, Model>, output: &Output<'_>) -> Result<Written, FormatError> {
        beside::write_mesh(&model, output.main)
    }
}

impl Reader for Md5Anim {
    fn info(&self) -> &'static FormatInfo {
        &ANIM_INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff_kind(bytes) == Some(Kind::Anim)
    }

    /// The skeleton and one animation named `anim` (the file's name is not known here).
    fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
        beside::open_anim(input.bytes, input.options)
    }
}

impl Writer for Md5Anim {
    fn info(&self) -> &'static FormatInfo {
        &ANIM_INFO
    }

    /// The first animation as `main`, each further one as `<stem>_<animation>.md5anim`.
    fn write(&self, model: Cow<'_, Model>, output: &Output<'_>) -> Result<Written, FormatError> {
        beside::write_anims(&model, output.main)
    }
}
