//! The two [`Codec`]s: `.psk`/`.pskx` (with its animations in a `.psa` beside it) and
//! `.psa` alone, each a [`Reader`] and a [`Writer`].

use crate::beside;
use crate::file::Kind;
use rigport_model_core::codec::{
    Codec, FormatError, FormatInfo, Input, Opening, Output, Reader, Writer, Written,
};
use rigport_model_core::{Model, Report, UpAxis};
use std::borrow::Cow;

/// The `.psk`/`.pskx` reader and writer. Reading with companions (when
/// `ReadOptions::animations_beside` is set) binds every `.psa` beside the mesh whose bone
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
    ..FormatInfo::DEFAULT
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
    animation_only: true,
    ..FormatInfo::DEFAULT
};

/// The `.psk` codec, as a registry lists it.
pub static PSK_CODEC: Codec = Codec::new(&PSK_INFO, Some(&Psk), Some(&Psk));
/// The `.psa` codec, as a registry lists it.
pub static PSA_CODEC: Codec = Codec::new(&PSA_INFO, Some(&Psa), Some(&Psa));

impl Reader for Psk {
    fn info(&self) -> &'static FormatInfo {
        &PSK_INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff_kind(bytes) == Some(Kind::Mesh)
    }

    /// Reads the mesh and, when `ReadOptions::animations_beside` asks for
    /// it, every `.psa` among the companions (sorted by name) whose bone names fit
    /// the skeleton: at least one shared, and at least half of the PSA's bones. Each
    /// sequence becomes an animation. Other `.psa` files are skipped with a note, as are ones
    /// that do not read.
    fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
        beside::open_mesh(input)
    }
}

impl Writer for Psk {
    fn info(&self) -> &'static FormatInfo {
        &PSK_INFO
    }

    /// `main` (the `.psk`) and, when the model has animations, `<stem>.psa` beside it.
    fn write(&self, model: Cow<'_, Model>, output: &Output<'_>) -> Result<Written, FormatError> {
        beside::write_mesh(&model, output.main)
    }
}

impl Reader for Psa {
    fn info(&self) -> &'static FormatInfo {
        &PSA_INFO
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        crate::sniff_kind(bytes) == Some(Kind::Anim)
    }

    fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
        beside::open_anim(input.bytes, input.options)
    }
}

impl Writer for Psa {
    fn info(&self) -> &'static FormatInfo {
        &PSA_INFO
    }

    /// Every animation as a sequence of one `.psa`.
    fn write(&self, model: Cow<'_, Model>, output: &Output<'_>) -> Result<Written, FormatError> {
        beside::write_anims(&model, output.main)
    }
}
