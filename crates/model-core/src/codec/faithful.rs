//! A reader and writer made from a format crate's faithful layer ([`Faithful`] →
//! [`FaithfulCodec`]), and the macros that write the repeated parts of a faithful format
//! crate.

use super::{
    FormatError, FormatInfo, Input, Intent, Location, ModelOptions, Modelled, Opened, Opening,
    Output, Reader, WriteOptions, Writer, Written,
};
use crate::{FileSummary, Model, ReadOptions, Report};
use std::any::Any;
use std::borrow::Cow;
use std::fmt;

/// A format crate's faithful layer, described once so that [`FaithfulCodec`] can be its
/// [`Reader`] and [`Writer`]: the crate names its file type, its error and five functions it
/// already has (and, where it can free a file as it writes it out, a sixth: `into_vec`).
pub trait Faithful: Send + Sync + 'static {
    /// The faithful file (`File`).
    type File: Send + Sync + fmt::Debug + 'static;
    /// The crate's own findings, the detail of its [`Error`](crate::Error).
    type Detail: std::error::Error + Send + Sync + 'static;

    /// The faithful read (`File::from_slice_with`).
    fn read(bytes: &[u8], options: &ReadOptions) -> Result<(Self::File, Report), ErrorOf<Self>>;
    /// The faithful write (`File::to_vec`).
    fn to_vec(file: &Self::File) -> Vec<u8>;
    /// [`Faithful::to_vec`] of a file given away, which a crate may free part by part as
    /// it is copied out (`File::into_vec`); the same bytes.
    fn into_vec(file: Self::File) -> Vec<u8> {
        Self::to_vec(&file)
    }
    /// What `info` prints (`File::summary`).
    fn summary(file: &Self::File) -> FileSummary;
    /// The neutral model.
    fn to_model(
        file: &Self::File,
        options: &ModelOptions,
    ) -> Result<(Model, Report), ErrorOf<Self>>;
    /// The file written from a model; a model given away ([`Cow::Owned`]) may be freed part
    /// by part as it is written.
    fn from_model(
        model: Cow<'_, Model>,
        options: &WriteOptions,
    ) -> Result<(Self::File, Report), ErrorOf<Self>>;
}

/// The error of a [`Faithful`] crate.
pub type ErrorOf<F> = crate::Error<<F as Faithful>::Detail>;

/// The model a faster read keeps until it is wanted ([`FaithfulCodec::with_model_read`]).
pub type PendingOf<F> = Box<dyn FnOnce() -> Result<(Model, Report), ErrorOf<F>> + Send>;

/// A read for the model alone that is faster than the faithful read then
/// [`Faithful::to_model`] (it builds what the model is made from while it checks the file).
pub type ModelRead<F> = fn(&[u8], &ReadOptions) -> Result<(PendingOf<F>, Report), ErrorOf<F>>;

/// The [`Reader`] and [`Writer`] of a crate's [`Faithful`] layer.
pub struct FaithfulCodec<F: Faithful> {
    info: &'static FormatInfo,
    sniff: fn(&[u8]) -> bool,
    model_read: Option<ModelRead<F>>,
}

impl<F: Faithful> FaithfulCodec<F> {
    /// The codec of the format `info` says, whose files `sniff` recognises.
    pub const fn new(info: &'static FormatInfo, sniff: fn(&[u8]) -> bool) -> Self {
        Self {
            info,
            sniff,
            model_read: None,
        }
    }

    /// This codec reading for the model alone ([`Intent::Model`]) with `read`.
    pub const fn with_model_read(mut self, read: ModelRead<F>) -> Self {
        self.model_read = Some(read);
        self
    }
}

impl<F: Faithful> fmt::Debug for FaithfulCodec<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("FaithfulCodec")
            .field(&self.info.key)
            .finish()
    }
}

/// A model made from a file whose bytes are gone.
fn modelled<F: Faithful>(
    info: &'static FormatInfo,
    made: Result<(Model, Report), ErrorOf<F>>,
) -> Result<Modelled, FormatError> {
    let (model, report) = made.map_err(|error| error.into_format_error(info.key, None))?;
    Ok(Modelled::of(model, report))
}

/// A [`Faithful`] layer's file, kept by [`FaithfulCodec`]'s [`Reader::open`].
struct FaithfulFile<F: Faithful> {
    info: &'static FormatInfo,
    file: F::File,
}

impl<F: Faithful> fmt::Debug for FaithfulFile<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.file.fmt(f)
    }
}

impl<F: Faithful> Opened for FaithfulFile<F> {
    fn info(&self) -> &'static FormatInfo {
        self.info
    }

    fn summary(&self) -> FileSummary {
        F::summary(&self.file)
    }

    fn to_vec(&self) -> Vec<u8> {
        F::to_vec(&self.file)
    }

    fn to_model(&self, options: &ModelOptions) -> Result<Modelled, FormatError> {
        modelled::<F>(self.info, F::to_model(&self.file, options))
    }

    fn as_any(&self) -> &dyn Any {
        &self.file
    }
}

impl<F: Faithful> Reader for FaithfulCodec<F> {
    fn info(&self) -> &'static FormatInfo {
        self.info
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        (self.sniff)(bytes)
    }

    fn open(&self, input: &Input<'_>) -> Result<(Opening, Report), FormatError> {
        let info = self.info;
        let error = |e: ErrorOf<F>| e.into_format_error(info.key, Some(input.bytes));
        if let (Intent::Model(_), Some(read)) = (input.intent, self.model_read) {
            let (pending, report) = read(input.bytes, input.options).map_err(error)?;
            let pending = Box::new(move || modelled::<F>(info, pending()));
            return Ok((Opening::Model(pending), report));
        }
        let (file, report) = F::read(input.bytes, input.options).map_err(error)?;
        Ok((Opening::file(FaithfulFile::<F> { info, file }), report))
    }
}

impl<F: Faithful> Writer for FaithfulCodec<F> {
    fn info(&self) -> &'static FormatInfo {
        self.info
    }

    fn write(&self, model: Cow<'_, Model>, output: &Output<'_>) -> Result<Written, FormatError> {
        let (file, report) = F::from_model(model, output.options).map_err(|e| {
            let mut error = e.into_format_error(self.info.key, None);
            error.location = Location::Unknown;
            error
        })?;
        let mut written = Written::single(output.main, F::into_vec(file));
        written.report = report;
        Ok(written)
    }
}

/// Implements [`Faithful`] for a unit struct `$ty` of a format crate whose root has the usual
/// faithful layer (`File` with `from_slice_with`, `to_vec` and `summary`; `Error`; `sniff`;
/// `to_model` and `from_model` with `ConvertOptions`), and defines `CODEC`, its
/// [`Codec`](super::Codec). `info` is the crate's [`FormatInfo`]; `Detail` its own error
/// findings (its `Error` is [`crate::Error<Detail>`]). Optional, in this order: `from_owned`
/// (a `from_model` taking the model by value), `model_read` (a faster read for the model
/// alone, [`FaithfulCodec::with_model_read`]) and `into_vec` (a `File::to_vec` taking the
/// file by value, [`Faithful::into_vec`]).
///
/// These formats convert with their crate's default `ConvertOptions`: their files say their
/// own frame rate, or the format defines one, so [`ModelOptions`] and [`WriteOptions`]
/// (which name a glTF's rate and an OBJ's pose) ask nothing of them.
///
/// ```ignore
/// rigport_model_core::faithful_codec!(Iqm, INFO, from_owned = crate::from_model_owned);
/// ```
// `crate::` is meant: it names the format crate that calls the macro, whose root holds
// `File`, `Error`, `Detail`, `sniff`, `to_model`, `from_model` and `ConvertOptions`.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! faithful_codec {
    (
        $ty:ident, $info:expr
        $(, from_owned = $owned:path)?
        $(, model_read = $model_read:path)?
        $(, into_vec = $into_vec:path)?
        $(,)?
    ) => {
        /// The faithful layer of this crate, as
        /// [`Faithful`](rigport_model_core::codec::Faithful) describes it.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $ty;

        /// This format's reader and writer.
        pub static FAITHFUL: $crate::codec::FaithfulCodec<$ty> =
            $crate::codec::FaithfulCodec::new(&$info, crate::sniff)
                $(.with_model_read($model_read))?;

        /// This format's codec, as a registry lists it.
        pub static CODEC: $crate::codec::Codec =
            $crate::codec::Codec::new(&$info, Some(&FAITHFUL), Some(&FAITHFUL));

        impl $crate::codec::Faithful for $ty {
            type File = crate::File;
            type Detail = crate::Detail;

            fn read(
                bytes: &[u8],
                options: &$crate::ReadOptions,
            ) -> Result<(crate::File, $crate::Report), crate::Error> {
                crate::File::from_slice_with(bytes, options)
            }

            fn to_vec(file: &crate::File) -> Vec<u8> {
                file.to_vec()
            }
            $(
                fn into_vec(file: crate::File) -> Vec<u8> {
                    $into_vec(file)
                }
            )?

            fn summary(file: &crate::File) -> $crate::FileSummary {
                file.summary()
            }

            fn to_model(
                file: &crate::File,
                _: &$crate::codec::ModelOptions,
            ) -> Result<($crate::Model, $crate::Report), crate::Error> {
                crate::to_model(file, &crate::ConvertOptions::default())
            }

            fn from_model(
                model: std::borrow::Cow<'_, $crate::Model>,
                _: &$crate::codec::WriteOptions,
            ) -> Result<(crate::File, $crate::Report), crate::Error> {
                $crate::faithful_codec!(@from model $($owned)?)
            }
        }
    };
    (@from $model:ident) => {
        crate::from_model(&$model, &crate::ConvertOptions::default())
    };
    (@from $model:ident $owned:path) => {
        match $model {
            std::borrow::Cow::Owned(model) => $owned(model, &crate::ConvertOptions::default()),
            std::borrow::Cow::Borrowed(model) => {
                crate::from_model(model, &crate::ConvertOptions::default())
            }
        }
    };
}

/// Defines, on a format crate's faithful `File`, the two ways of reading that follow from its
/// `File::from_slice_with`: `File::from_slice` (lenient, default limits, warnings dropped)
/// and `File::read` (everything from an `io::Read`, then `from_slice`).
///
/// With `binary`, also `File::write`, which writes the bytes of `File::to_vec`; with `text`,
/// also `File::to_vec`, the bytes `File::write` writes.
///
/// ```ignore
/// rigport_model_core::faithful_readers!(binary);
/// ```
// `crate::` is meant: it names the format crate that calls the macro.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! faithful_readers {
    () => {
        impl crate::File {
            /// Reads a file leniently with the default limits; the warnings are dropped
            /// (see `File::from_slice_with` for them).
            pub fn from_slice(bytes: &[u8]) -> Result<crate::File, crate::Error> {
                Self::from_slice_with(bytes, &$crate::ReadOptions::default()).map(|(file, _)| file)
            }

            /// Reads everything from `reader`, then parses it with `File::from_slice`.
            pub fn read<R: std::io::Read>(mut reader: R) -> Result<crate::File, crate::Error> {
                let mut bytes = Vec::new();
                reader.read_to_end(&mut bytes)?;
                Self::from_slice(&bytes)
            }
        }
    };
    (binary) => {
        $crate::faithful_readers!();

        impl crate::File {
            /// Writes the file (see `File::to_vec`).
            pub fn write<W: std::io::Write>(&self, mut writer: W) -> std::io::Result<()> {
                writer.write_all(&self.to_vec())
            }
        }
    };
    (text) => {
        $crate::faithful_readers!();

        impl crate::File {
            /// The written file as bytes (see `File::write`).
            pub fn to_vec(&self) -> Vec<u8> {
                let mut out = Vec::new();
                // Writing to a Vec cannot fail.
                let _ = self.write(&mut out);
                out
            }
        }
    };
}

/// Defines a format crate's `ConvertOptions` when the one thing its conversions ask is the
/// frame rate to use where a file or a model gives no positive one: `default_fps`, by
/// default the crate's `DEFAULT_FPS`.
///
/// ```ignore
/// rigport_model_core::convert_options!();
/// ```
#[macro_export]
macro_rules! convert_options {
    () => {
        /// Options for converting to and from the neutral model.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct ConvertOptions {
            /// Frame rate for an animation whose file gives no positive rate, and for
            /// writing a model animation whose own rate is not positive. Default
            /// [`DEFAULT_FPS`].
            pub default_fps: f32,
        }

        impl Default for ConvertOptions {
            fn default() -> Self {
                Self {
                    default_fps: DEFAULT_FPS,
                }
            }
        }
    };
}
