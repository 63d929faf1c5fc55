//! Inter-Quake Export through the shared [`Codec`](rigport_model_core::codec::Codec) trait, for
//! callers that handle every format alike (the `rigport` facade, the Python package, the
//! web page).
//!
//! ```
//! use rigport_model_core::codec::Codec;
//!
//! let codec = &rigport_iqe::CODEC;
//! assert_eq!(codec.info().key, "iqe");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Z);
//! ```

use rigport_model_core::UpAxis;
use rigport_model_core::codec::{FormatInfo, Location};

static INFO: FormatInfo = FormatInfo {
    key: "iqe",
    family: "IQE",
    description: "Inter-Quake Export (`.iqe`)",
    extensions: &["iqe"],
    up: UpAxis::Z,
    writes: true,
    reads: true,
    one_timeline: false,
    animation_only: false,
    morph_targets: false,
};

rigport_model_core::faithful_codec!(
    Iqe,
    INFO,
    |error, bytes| Location::at_text(bytes, error.span().map(|span| span.start)),
    {
        fn render(error: &crate::Error, bytes: &[u8]) -> String {
            error.render(bytes)
        }

        // The scene the read checks the commands with is kept and becomes the model: the
        // commands are not interpreted twice.
        fn read_model(
            bytes: &[u8],
            options: &rigport_model_core::ReadOptions,
        ) -> Result<(rigport_model_core::Model, rigport_model_core::Report), crate::Error> {
            let (read, mut report) =
                crate::interpreted::Interpreted::from_slice_with(bytes, options)?;
            let (model, more) = read.into_model(&crate::ConvertOptions::default());
            report.extend(more);
            Ok((model, report))
        }

        // The same scene, kept until the model is wanted, so the text can be freed first.
        #[allow(clippy::type_complexity)]
        fn read_pending(
            bytes: &[u8],
            options: &rigport_model_core::ReadOptions,
        ) -> Result<
            (
                Box<
                    dyn FnOnce() -> Result<
                            (rigport_model_core::Model, rigport_model_core::Report),
                            crate::Error,
                        > + Send,
                >,
                rigport_model_core::Report,
            ),
            crate::Error,
        > {
            let (read, report) = crate::interpreted::Interpreted::from_slice_with(bytes, options)?;
            Ok((
                Box::new(move || Ok(read.into_model(&crate::ConvertOptions::default()))),
                report,
            ))
        }
    }
);
