//! What the fuzz targets check, shared so each target is one line and the facade's regression
//! replay (`crates/rigport/tests/fuzz_regressions.rs`) runs the very same checks without
//! nightly or libFuzzer.
//!
//! Every check panics on a bug: a reader or converter that panics by itself, a faithful copy
//! that does not read back or is not stable, or a file that a writer produced and its reader
//! then refused. The checks go through the registry's codecs, so a format added there is
//! checked like the others.

use crate::exercise;
use rigport::Format;
use rigport_model_core::ReadOptions;
use rigport_model_core::codec::{Codec, Input, Location, WriteOptions};
use std::collections::BTreeMap;
use std::path::Path;

/// The check of the fuzz target named `target`: `pipeline`, `sniff`, or a format's key with
/// `_` for `-` (`ms3d_ascii`), which runs [`format()`]. Each target of `fuzz/` is this call
/// with its own name.
///
/// # Panics
///
/// On a bug; also when no check has that name.
pub fn target(target: &str, data: &[u8]) {
    match target {
        "pipeline" => pipeline(data),
        "sniff" => sniff(data),
        _ => match Format::from_key(&target.replace('_', "-")) {
            Some(found) => format(found, data),
            None => panic!("no fuzz check is named {target}"),
        },
    }
}

/// One format's reader and writer on `data`: sniff, summary, lenient and strict reads, the
/// faithful copy (which must read back and copy to the same bytes again), the model, and
/// the model written in the same format with every file of the write reading back strictly.
///
/// # Panics
///
/// On a bug, as above; also when `format` is not in this build.
pub fn format(format: Format, data: &[u8]) {
    let codec = format
        .codec()
        .unwrap_or_else(|| panic!("{format} is not in this build"));
    let _ = codec.sniff(data);
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        // One read keeps the file for its summary and every check of its faithful bytes.
        let keeps_every_byte = KEEPS_EVERY_BYTE.contains(&format.key());
        match codec.open_file(data, &options) {
            Ok((file, _)) => {
                let _ = file.summary();
                let copy = file.to_vec();
                assert!(
                    !keeps_every_byte || copy == data,
                    "{format}: the faithful write differs from the input"
                );
                if format.has(|info| info.faithful_copy) {
                    faithful_copy_is_stable(codec, &copy);
                }
            }
            Err(error) => assert!(
                !keeps_every_byte || matches!(error.location, Location::Offset(_)),
                "{format}: a read error without an offset: {error}"
            ),
        }
        let Ok((model, _)) = codec.read(data, &options) else {
            continue;
        };
        if !format.can_write() {
            continue;
        }
        let main = format!("fuzz.{}", format.extension());
        let Ok(written) = codec.write(&model, &main, &WriteOptions::default()) else {
            continue;
        };
        let files: BTreeMap<String, Vec<u8>> = written
            .files
            .iter()
            .map(|file| (file.name.clone(), file.bytes.clone()))
            .collect();
        for file in &written.files {
            let Some(back) = Format::from_extension(Path::new(&file.name))
                .filter(|f| f.can_read())
                .and_then(Format::codec)
            else {
                continue;
            };
            let strict = ReadOptions::strict();
            back.read_model(&Input::new(&file.bytes, &strict).beside(&files))
                .unwrap_or_else(|e| panic!("{} does not read back: {e}", file.name));
        }
    }
}

/// The formats whose reads keep every byte of any input they accept, damaged tails and
/// unknown sections included, and place every refusal at a byte offset.
const KEEPS_EVERY_BYTE: [&str; 3] = ["b3d", "psk", "psa"];

/// A faithful `copy`: read again, it copies to the same bytes.
fn faithful_copy_is_stable(codec: &Codec, copy: &[u8]) {
    let (again, _) = codec
        .open_file(copy, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("the faithful copy does not read back: {e}"));
    assert!(
        again.to_vec() == copy,
        "a copy of the copy differs from the copy"
    );
}

/// The whole pipeline: sniff, read, summary, convert to every format, read back.
pub fn pipeline(data: &[u8]) {
    if let Err(bug) = exercise::exercise(data) {
        panic!("{bug}");
    }
}

/// Content sniffing names a format whose own codec claims the bytes, and never panics.
pub fn sniff(data: &[u8]) {
    if let Some(found) = rigport::document::sniff(data) {
        let codec = found.codec().expect("sniffing names formats of this build");
        assert!(
            codec.sniff(data),
            "{found} does not claim what sniffing gave it"
        );
        assert!(
            found.can_read(),
            "sniffing named {found}, which is not read"
        );
    }
}
