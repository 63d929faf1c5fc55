//! A codec made from a format crate's faithful layer ([`Faithful`] → [`FaithfulCodec`]), and the
//! macros that write the repeated parts of a faithful format crate.

use super::{
    Codec, Companions, FormatError, FormatInfo, Location, ModelOptions, Modelled, Opened, Opening,
    PendingModel, WriteOptions, Written,
};
use crate::{FileSummary, Model, ReadOptions, Report};
use std::any::Any;
use std::fmt;

/// A format crate's faithful layer, described once so that [`FaithfulCodec`] can implement
/// [`Codec`] over it: the crate names its file type, its error and five functions it already
/// has, and gets reading, summaries, faithful copies and writing through the shared trait.
pub trait Faithful: Send + Sync + 'static {
    /// The faithful file (`File`).
    type File: Send + Sync + fmt::Debug + 'static;
    /// The crate's error.
    type Error: std::error::Error + Send + Sync + 'static;

    /// What the format is.
    fn info() -> &'static FormatInfo;
    /// Whether `bytes` look like this format.
    fn sniff(bytes: &[u8]) -> bool;
    /// The faithful read (`File::from_slice_with`).
    fn read(bytes: &[u8], options: &ReadOptions) -> Result<(Self::File, Report), Self::Error>;
    /// The faithful write (`File::to_vec`).
    fn to_vec(file: &Self::File) -> Vec<u8>;
    /// What `info` prints (`File::summary`).
    fn summary(file: &Self::File) -> FileSummary;
    /// The neutral model (`to_model` with the default options).
    fn to_model(file: &Self::File) -> Result<(Model, Report), Self::Error>;
    /// The file written from a model (`from_model` with the default options).
    fn from_model(model: &Model) -> Result<(Self::File, Report), Self::Error>;
    /// [`Faithful::from_model`] for a model the caller gives away (by default borrowed); a
    /// crate that can free parts of the model as it goes overrides it.
    fn from_model_owned(model: Model) -> Result<(Self::File, Report), Self::Error> {
        Self::from_model(&model)
    }
    /// Where in `bytes` the error is.
    fn location(error: &Self::Error, bytes: &[u8]) -> Location;

    /// The error as a person should see it, against the `bytes` read (by default its
    /// `Display`; text formats draw the line and a caret).
    fn render(error: &Self::Error, bytes: &[u8]) -> String {
        let _ = bytes;
        error.to_string()
    }

    /// Bytes to the neutral model in one step; a crate with a faster way than
    /// [`Faithful::read`] then [`Faithful::to_model`] overrides it.
    fn read_model(bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), Self::Error> {
        let (file, mut report) = Self::read(bytes, options)?;
        let (model, more) = Self::to_model(&file)?;
        report.extend(more);
        Ok((model, report))
    }

    /// The read of [`Codec::read_pending`]: by default the faithful file, turned into the
    /// model when the closure runs; a crate that builds what the model is made from while
    /// it checks the file keeps that instead.
    #[allow(clippy::type_complexity)]
    fn read_pending(
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Result<
        (
            Box<dyn FnOnce() -> Result<(Model, Report), Self::Error> + Send>,
            Report,
        ),
        Self::Error,
    > {
        let (file, report) = Self::read(bytes, options)?;
        Ok((Box::new(move || Self::to_model(&file)), report))
    }
}

/// The [`Codec`] of a crate's [`Faithful`] layer.
pub struct FaithfulCodec<F>(std::marker::PhantomData<fn() -> F>);

impl<F> FaithfulCodec<F> {
    /// The codec (a unit value: usable in a `static`).
    pub const fn new() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<F> Default for FaithfulCodec<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F> fmt::Debug for FaithfulCodec<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FaithfulCodec")
    }
}

impl<F: Faithful> FaithfulCodec<F> {
    fn error(error: F::Error, bytes: &[u8]) -> FormatError {
        let location = F::location(&error, bytes);
        let rendered = F::render(&error, bytes);
        FormatError::wrap(F::info().key, location, error).with_rendered(rendered)
    }
}

/// The file a faithful layer made from a model, written as `main`, with its report.
fn written<F: Faithful>(
    made: Result<(F::File, Report), F::Error>,
    main: &str,
) -> Result<Written, FormatError> {
    let (file, report) =
        made.map_err(|e| FormatError::wrap_plain(F::info().key, Location::Unknown, e))?;
    let mut written = Written::single(main, F::to_vec(&file));
    written.report = report;
    Ok(written)
}

/// A model made from a file whose bytes are gone, with its error located as it can
/// still be: a byte offset still says where, a line cannot.
fn modelled<F: Faithful>(made: Result<(Model, Report), F::Error>) -> Result<Modelled, FormatError> {
    let (model, report) = made.map_err(|error| {
        let location = match F::location(&error, &[]) {
            Location::Offset(offset) => Location::Offset(offset),
            _ => Location::Unknown,
        };
        FormatError::wrap_plain(F::info().key, location, error)
    })?;
    Ok(Modelled {
        model,
        images: Vec::new(),
        report,
    })
}

/// A [`Faithful`] layer's file, kept by [`FaithfulCodec::open`].
struct FaithfulFile<F: Faithful>(F::File);

impl<F: Faithful> fmt::Debug for FaithfulFile<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<F: Faithful> Opened for FaithfulFile<F> {
    fn info(&self) -> &'static FormatInfo {
        F::info()
    }

    fn summary(&self) -> FileSummary {
        F::summary(&self.0)
    }

    fn to_vec(&self) -> Vec<u8> {
        F::to_vec(&self.0)
    }

    fn to_model(&self, _: &ModelOptions) -> Result<Modelled, FormatError> {
        modelled::<F>(F::to_model(&self.0))
    }

    fn as_any(&self) -> &dyn Any {
        &self.0
    }
}

impl<F: Faithful> Codec for FaithfulCodec<F> {
    fn info(&self) -> &'static FormatInfo {
        F::info()
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        F::sniff(bytes)
    }

    fn read(&self, bytes: &[u8], options: &ReadOptions) -> Result<(Model, Report), FormatError> {
        F::read_model(bytes, options).map_err(|e| Self::error(e, bytes))
    }

    fn open(&self, bytes: &[u8], options: &ReadOptions, _: &dyn Companions) -> Option<Opening> {
        Some(match F::read(bytes, options) {
            Ok((file, report)) => {
                Ok((Box::new(FaithfulFile::<F>(file)) as Box<dyn Opened>, report))
            }
            Err(e) => Err(Self::error(e, bytes)),
        })
    }

    fn read_model(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        _: &dyn Companions,
        _: &ModelOptions,
    ) -> Result<Modelled, FormatError> {
        let (model, report) = self.read(bytes, options)?;
        Ok(Modelled {
            model,
            images: Vec::new(),
            report,
        })
    }

    fn read_pending(
        &self,
        bytes: &[u8],
        options: &ReadOptions,
        _: &dyn Companions,
        _: &ModelOptions,
    ) -> Result<(PendingModel, Report), FormatError> {
        let (pending, report) =
            F::read_pending(bytes, options).map_err(|e| Self::error(e, bytes))?;
        Ok((Box::new(move || modelled::<F>(pending())), report))
    }

    fn write(&self, model: &Model, main: &str, _: &WriteOptions) -> Result<Written, FormatError> {
        written::<F>(F::from_model(model), main)
    }

    // The files are not used, as in `write_with`.
    fn write_owned(
        &self,
        model: Model,
        main: &str,
        _: &WriteOptions,
        _: Option<&dyn Companions>,
    ) -> Result<Written, FormatError> {
        written::<F>(F::from_model_owned(model), main)
    }
}

/// Implements [`Faithful`] for a unit struct `$ty` of a format crate whose root has the usual
/// faithful layer (`File` with `from_slice_with`, `to_vec` and `summary`; `Error`; `sniff`;
/// `to_model` and `from_model` with `ConvertOptions`), and defines `CODEC`, its
/// [`FaithfulCodec`]. `info` is the crate's [`FormatInfo`]; `location` says where an error is,
/// given the error and the bytes read; further `Faithful` methods (a faster `read_model`)
/// may follow in braces.
///
/// ```ignore
/// rigport_model_core::faithful_codec!(Iqm, INFO, |error, _bytes| {
///     Location::at_offset(error.offset())
/// });
/// ```
// `crate::` is meant: it names the format crate that calls the macro, whose root holds
// `File`, `Error`, `sniff`, `to_model`, `from_model` and `ConvertOptions`.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! faithful_codec {
    ($ty:ident, $info:expr, |$error:ident, $bytes:ident| $location:expr $(, { $($extra:tt)* })?) => {
        /// The faithful layer of this crate, as
        /// [`Faithful`](rigport_model_core::codec::Faithful) describes it.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $ty;

        /// This format's codec.
        pub const CODEC: $crate::codec::FaithfulCodec<$ty> = $crate::codec::FaithfulCodec::new();

        impl $crate::codec::Faithful for $ty {
            type File = crate::File;
            type Error = crate::Error;

            fn info() -> &'static $crate::codec::FormatInfo {
                &$info
            }

            fn sniff(bytes: &[u8]) -> bool {
                crate::sniff(bytes)
            }

            fn read(
                bytes: &[u8],
                options: &$crate::ReadOptions,
            ) -> Result<(crate::File, $crate::Report), crate::Error> {
                crate::File::from_slice_with(bytes, options)
            }

            fn to_vec(file: &crate::File) -> Vec<u8> {
                file.to_vec()
            }

            fn summary(file: &crate::File) -> $crate::FileSummary {
                file.summary()
            }

            fn to_model(
                file: &crate::File,
            ) -> Result<($crate::Model, $crate::Report), crate::Error> {
                crate::to_model(file, &crate::ConvertOptions::default())
            }

            fn from_model(
                model: &$crate::Model,
            ) -> Result<(crate::File, $crate::Report), crate::Error> {
                crate::from_model(model, &crate::ConvertOptions::default())
            }

            fn location($error: &crate::Error, $bytes: &[u8]) -> $crate::codec::Location {
                $location
            }

            $($($extra)*)?
        }
    };
}

/// Defines, on a format crate's faithful `File`, the two ways of reading that follow from its
/// `File::from_slice_with`: `File::from_slice` (lenient, default limits, warnings dropped)
/// and `File::read` (everything from an `io::Read`, then `from_slice`). The crate's `Error`
/// must convert from `std::io::Error`.
///
/// ```ignore
/// rigport_model_core::faithful_readers!();
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
}
