//! What the fuzz targets check (feature `sweep`), shared so each target is one line and the
//! facade's regression replay (`crates/rigport/tests/fuzz_regressions.rs`) runs the very same
//! checks without nightly or libFuzzer.
//!
//! Every check panics on a bug: a reader or converter that panics by itself, a file that a
//! writer produced and its reader then refused, or a faithful write that is not stable.

use crate::exercise;
use rigport_model_core::ReadOptions;

/// Lenient and strict read of one format; when a read succeeds: the summary, a faithful
/// write that reads back and writes the same bytes again, and the neutral model written by
/// the same format's `from_model` reading back too (unless `from_model` refused the model).
macro_rules! check_format {
    ($name:ident, $krate:ident) => {
        #[doc = concat!("Reader, writer and conversions of `", stringify!($krate), "`.")]
        pub fn $name(data: &[u8]) {
            use $krate::{ConvertOptions, File, from_model, to_model};
            let _ = $krate::sniff(data);
            for options in [ReadOptions::default(), ReadOptions::strict()] {
                let Ok((file, _)) = File::from_slice_with(data, &options) else {
                    continue;
                };
                let _ = file.summary();
                let written = file.to_vec();
                let again = File::from_slice(&written)
                    .unwrap_or_else(|e| panic!("faithful write does not read back: {e}"));
                assert!(
                    again.to_vec() == written,
                    "second write differs from the first"
                );
                let Ok((model, _)) = to_model(&file, &ConvertOptions::default()) else {
                    continue;
                };
                if let Ok((out, _)) = from_model(&model, &ConvertOptions::default()) {
                    let bytes = out.to_vec();
                    let back = File::from_slice(&bytes)
                        .unwrap_or_else(|e| panic!("from_model output does not read back: {e}"));
                    to_model(&back, &ConvertOptions::default())
                        .unwrap_or_else(|e| panic!("from_model output does not convert: {e}"));
                }
            }
        }
    };
}

check_format!(ms3d_bin, rigport_ms3d_bin);
check_format!(ms3d_ascii, rigport_ms3d_ascii);
check_format!(iqe_faithful, rigport_iqe);

/// [`iqe_faithful`], and the crate's codec (which reads through the scene it keeps, the
/// facade's route from IQE to other formats) agreeing with it: the same outcome, warnings,
/// model and error message.
pub fn iqe(data: &[u8]) {
    use rigport_iqe::{CODEC, ConvertOptions, File, to_model};
    use rigport_model_core::codec::Codec;
    iqe_faithful(data);
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        match (
            File::from_slice_with(data, &options),
            CODEC.read(data, &options),
        ) {
            (Ok((file, mut report)), Ok((got, got_report))) => {
                if let Ok((model, more)) = to_model(&file, &ConvertOptions::default()) {
                    report.extend(more);
                    assert!(got == model, "the codec made another model");
                    assert!(got_report == report, "the codec reported otherwise");
                }
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.message, "different errors"),
            (a, b) => panic!("File read: {}, the codec read: {}", a.is_ok(), b.is_ok()),
        }
    }
}
check_format!(iqm, rigport_iqm);
check_format!(smd_faithful, rigport_smd);

/// [`smd_faithful`], and the codec: its read agreeing with `File` + `to_model`, and every
/// file of its write (the reference and one per animation) reading back strictly.
pub fn smd(data: &[u8]) {
    use rigport_model_core::codec::{Codec, WriteOptions};
    use rigport_smd::{ConvertOptions, File, Smd, to_model};
    smd_faithful(data);
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        let read = Smd.read(data, &options);
        let by_hand = File::from_slice_with(data, &options)
            .ok()
            .and_then(|(file, _)| to_model(&file, &ConvertOptions::default()).ok())
            .map(|(model, _)| model);
        // Compared as text: a NaN coordinate is not equal to itself.
        assert!(
            format!("{:?}", read.as_ref().ok().map(|(model, _)| model))
                == format!("{:?}", by_hand.as_ref()),
            "the codec read another model"
        );
        let Ok((model, _)) = read else {
            continue;
        };
        if let Ok(written) = Smd.write(&model, "fuzz.smd", &WriteOptions::default()) {
            for file in &written.files {
                File::from_slice_with(&file.bytes, &ReadOptions::strict())
                    .unwrap_or_else(|e| panic!("{} does not read back: {e}", file.name));
            }
        }
    }
}

/// The glTF import: lenient and strict read (no folder: an external URI is an error), the
/// summary, the faithful bytes, the model, and the model written as .glb reading back.
pub fn gltf(data: &[u8]) {
    use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
    let _ = rigport_gltf::sniff(data);
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        let Ok((file, _)) = GltfFile::from_slice_with(data, &options, None) else {
            continue;
        };
        let _ = file.summary();
        assert!(
            file.to_vec() == data,
            "the faithful bytes differ from the input"
        );
        let Ok((imported, _)) = to_model(&file, &ImportOptions::default()) else {
            continue;
        };
        let export = rigport_gltf::export::ExportOptions::default();
        if let Ok((glb, _)) = rigport_gltf::export::to_glb(&imported.model, &export) {
            let (back, _) = GltfFile::from_slice_with(&glb, &ReadOptions::default(), None)
                .unwrap_or_else(|e| panic!("exported .glb does not read back: {e}"));
            to_model(&back, &ImportOptions::default())
                .unwrap_or_else(|e| panic!("exported .glb does not convert: {e}"));
        }
    }
}

/// The whole pipeline: sniff, read, summary, convert to every format, read back.
pub fn pipeline(data: &[u8]) {
    if let Err(bug) = exercise::exercise(data) {
        panic!("{bug}");
    }
}

/// Content sniffing agrees with the format crates' own `sniff` and never panics.
pub fn sniff(data: &[u8]) {
    use rigport::Format;
    let found = rigport::document::sniff(data);
    let claims = [
        (Format::Ms3d, rigport_ms3d_bin::sniff(data)),
        (Format::Iqm, rigport_iqm::sniff(data)),
        (
            if data.starts_with(b"glTF") {
                Format::Glb
            } else {
                Format::Gltf
            },
            rigport_gltf::sniff(data),
        ),
        (Format::Iqe, rigport_iqe::sniff(data)),
        (Format::Ms3dAscii, rigport_ms3d_ascii::sniff(data)),
    ];
    // The registry takes the first crate that claims the bytes, in this order.
    let expected = claims.iter().find(|(_, yes)| *yes).map(|(f, _)| *f);
    assert_eq!(found, expected);
}

check_format!(md5_faithful, rigport_md5);

/// [`md5_faithful`], and the two codecs: a read agreeing with `File` + `to_model`, every
/// file of a write (the `.md5mesh` and one `.md5anim` per animation) reading back strictly
/// and converting, and the animations written alone reading back.
pub fn md5(data: &[u8]) {
    use rigport_md5::{ConvertOptions, File, Kind, Md5Anim, Md5Mesh, to_model};
    use rigport_model_core::codec::{Codec, WriteOptions};
    md5_faithful(data);
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        let by_hand = File::from_slice_with(data, &options)
            .ok()
            .and_then(|(file, _)| {
                Some((
                    file.kind,
                    to_model(&file, &ConvertOptions::default()).ok()?.0,
                ))
            });
        let read = match by_hand.as_ref().map(|(kind, _)| *kind) {
            Some(Kind::Anim) => Md5Anim.read(data, &options),
            _ => Md5Mesh.read(data, &options),
        };
        assert!(
            read.as_ref().ok().map(|(model, _)| model) == by_hand.as_ref().map(|(_, m)| m),
            "the codec read another model"
        );
        let Ok((model, _)) = read else {
            continue;
        };
        let written = match Md5Mesh.write(&model, "fuzz.md5mesh", &WriteOptions::default()) {
            Ok(written) => written,
            Err(_) => continue,
        };
        for file in &written.files {
            let (back, _) = File::from_slice_with(&file.bytes, &ReadOptions::strict())
                .unwrap_or_else(|e| panic!("{} does not read back: {e}", file.name));
            to_model(&back, &ConvertOptions::default())
                .unwrap_or_else(|e| panic!("{} does not convert: {e}", file.name));
        }
    }
}
