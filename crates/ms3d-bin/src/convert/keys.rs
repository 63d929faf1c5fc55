//! Where a conversion reads the joints' keys from: the file's own arrays, or the input a
//! read left them in ([`crate::read::parse_leaving_keys`]), so that a conversion decodes
//! each key once, straight into the model, without the faithful arrays in between.

use crate::decode::Decode;
use crate::file::Joint;
use crate::read::KeySpans;
use crate::records::{Keyframe, Record};
use rigport_model_core::glam::Vec3;
use std::slice::ChunksExact;

/// Where the joints' keys are read from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum KeySource<'a> {
    /// The file's own key arrays.
    File,
    /// The input the read left them in, with where each joint's lie.
    Input {
        /// The whole input.
        bytes: &'a [u8],
        /// One entry per joint, in file order.
        spans: &'a [KeySpans],
    },
}

impl<'a> KeySource<'a> {
    /// The rotation keys of joint `index`.
    pub fn rotations(&self, index: usize, joint: &'a Joint) -> Keys<'a> {
        match self {
            KeySource::File => Keys::Decoded(joint.rotation_keys.iter()),
            KeySource::Input { bytes, spans } => {
                stored(bytes, spans.get(index).map(|s| s.rotations.clone()))
            }
        }
    }

    /// The translation keys of joint `index`.
    pub fn translations(&self, index: usize, joint: &'a Joint) -> Keys<'a> {
        match self {
            KeySource::File => Keys::Decoded(joint.translation_keys.iter()),
            KeySource::Input { bytes, spans } => {
                stored(bytes, spans.get(index).map(|s| s.translations.clone()))
            }
        }
    }
}

/// The keys stored in `bytes[span]` (none when there is no such span).
fn stored(bytes: &[u8], span: Option<std::ops::Range<usize>>) -> Keys<'_> {
    let slice = span.and_then(|span| bytes.get(span)).unwrap_or_default();
    Keys::Stored(slice.chunks_exact(Keyframe::SIZE as usize))
}

/// One joint's keys as `(time in seconds, value)`, from either source.
#[derive(Clone, Debug)]
pub(crate) enum Keys<'a> {
    /// Keys the read decoded into the file.
    Decoded(std::slice::Iter<'a, Keyframe>),
    /// Keys still in the input, decoded as they are taken.
    Stored(ChunksExact<'a, u8>),
}

impl Iterator for Keys<'_> {
    type Item = (f32, Vec3);

    fn next(&mut self) -> Option<Self::Item> {
        let key = match self {
            Keys::Decoded(keys) => *keys.next()?,
            // Every chunk is a whole record, so it always decodes.
            Keys::Stored(chunks) => Keyframe::decode(chunks.next()?)?,
        };
        Some((key.time, Vec3::from(key.value)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = match self {
            Keys::Decoded(keys) => keys.len(),
            Keys::Stored(chunks) => chunks.len(),
        };
        (len, Some(len))
    }
}

impl ExactSizeIterator for Keys<'_> {}
