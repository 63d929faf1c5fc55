//! Inter-Quake Export as a [`Codec`](rigport_model_core::codec::Codec): a reader and a
//! writer over the crate's faithful layer, for callers that handle every format alike
//! (the `rigport` facade, the Python package, the web page).
//!
//! ```
//! let codec = &rigport_iqe::CODEC;
//! assert_eq!(codec.info().key, "iqe");
//! assert_eq!(codec.info().up, rigport_model_core::UpAxis::Z);
//! ```

use rigport_model_core::UpAxis;
use rigport_model_core::codec::FormatInfo;

static INFO: FormatInfo = FormatInfo {
    key: "iqe",
    family: "IQE",
    description: "Inter-Quake Export (`.iqe`)",
    extensions: &["iqe"],
    up: UpAxis::Z,
    writes: true,
    reads: true,
    names_materials_by_texture: true,
    ..FormatInfo::DEFAULT
};

rigport_model_core::faithful_codec!(Iqe, INFO, model_read = read_scene);

/// The read for the model alone: the scene the read checks the commands with is kept, and
/// becomes the model once the text is freed (the commands are not interpreted twice).
fn read_scene(
    bytes: &[u8],
    options: &rigport_model_core::ReadOptions,
) -> Result<
    (
        rigport_model_core::codec::PendingOf<Iqe>,
        rigport_model_core::Report,
    ),
    crate::Error,
> {
    let (read, report) = crate::interpreted::Interpreted::from_slice_with(bytes, options)?;
    let convert = crate::ConvertOptions::default();
    Ok((Box::new(move || Ok(read.into_model(&convert))), report))
}
