//! The contract every reader keeps, run over the registry: a format gets it by being
//! registered. For a format that is also written, its own output (of a small skinned,
//! animated model every format holds) is sniffed as that format, opens strictly without a
//! warning with the files written beside it, writes back to the same bytes, and no cut of
//! it makes the reader panic or fail without saying why. A format read but not written
//! (FBX) is held to the same on the first corpus file of its folder when `RIGPORT_CORPUS`
//! is set. Every reader has a fuzz target in `fuzz/`, the same one line for all of them,
//! and its check runs here on the file and some of its cuts.

use rigport::Format;
use rigport_model_core::codec::{Codec, Companions, Folder, Input, NoCompanions, Opening};
use rigport_model_core::{ReadOptions, Severity};
use rigport_test_support::contract::{contract_model, cut_lengths};
use std::path::{Path, PathBuf};

/// The contract model, with an animation when the small model drew none (an animation-only
/// format writes nothing without one).
fn animated_model() -> rigport_model_core::Model {
    let mut model = contract_model();
    if model.animations.is_empty() {
        let joints = model.skeleton.joints.len();
        let mut animation = rigport_model_core::Animation::new("idle", 30.0);
        animation.tracks = (0..joints)
            .filter_map(rigport_model_core::JointId::from_index)
            .map(rigport_model_core::Track::new)
            .collect();
        model.animations.push(animation);
    }
    model
}

/// `bytes` (the main file of `format`, with `beside` around it) sniffed, opened strictly,
/// written back, and cut everywhere.
fn keeps_the_contract(
    format: Format,
    codec: &Codec,
    bytes: &[u8],
    beside: &dyn Companions,
    strict_clean: bool,
) {
    assert_eq!(
        rigport::sniff(bytes),
        Some(format),
        "{format}: sniffed as itself"
    );
    let strict = ReadOptions::strict();
    let input = Input::new(bytes, &strict).beside(beside);
    let (opening, report) = codec
        .open(&input)
        .unwrap_or_else(|e| panic!("{format}: a strict read refuses it: {e}"));
    if strict_clean {
        assert!(
            report.notices.iter().all(|n| n.severity == Severity::Info),
            "{format}: reading its own output warns: {report}"
        );
    }
    let Opening::File(file) = opening else {
        panic!("{format}: opened to keep, it gave no file");
    };
    assert_eq!(file.info().key, format.key(), "{format}: the file's format");
    assert!(
        file.to_vec() == bytes,
        "{format}: writing what was read gives other bytes"
    );
    let _ = file.summary();
    let lenient = ReadOptions::default();
    let mut refused = 0usize;
    for cut in cut_lengths(bytes.len()) {
        for options in [&lenient, &strict] {
            // A panic fails the test; an error must say something.
            if let Err(error) = codec.open(&Input::new(&bytes[..cut], options)) {
                assert!(!error.message.is_empty(), "{format}: empty error at {cut}");
                refused += 1;
            }
        }
    }
    assert!(refused > 0, "{format}: every cut read, even the empty one");
    // The format's fuzz check (what its fuzz target runs) on the file and some of its cuts.
    for cut in cut_lengths(bytes.len()).into_iter().step_by(32) {
        rigport_sweep::fuzz::format(format, &bytes[..cut]);
    }
    rigport_sweep::fuzz::format(format, bytes);
}

#[test]
fn every_reader_of_the_registry_keeps_the_contract() {
    let model = animated_model();
    let mut checked = Vec::new();
    for format in Format::ALL.into_iter().filter(|f| f.can_read()) {
        let codec = format.codec().expect("readable formats are in this build");
        if format.can_write() {
            let main = format!("contract.{}", format.extension());
            let written = codec
                .write(&model, &main, &Default::default())
                .unwrap_or_else(|e| panic!("{format}: the contract model is not written: {e}"));
            // In a folder, where a `.gltf` finds its `.bin` by path.
            let dir = tempfile::tempdir().expect("a temporary folder");
            for file in &written.files {
                std::fs::write(dir.path().join(&file.name), &file.bytes).expect("written");
            }
            let beside = Folder::new(dir.path());
            keeps_the_contract(format, codec, &written.files[0].bytes, &beside, true);
            checked.push(format);
        } else if let Some(file) = first_corpus_file(format) {
            let bytes = std::fs::read(&file).expect("a corpus file reads");
            keeps_the_contract(format, codec, &bytes, &NoCompanions, false);
            checked.push(format);
        } else {
            eprintln!("{format}: read only and RIGPORT_CORPUS unset: skipped");
        }
    }
    assert!(checked.len() >= 10, "only {checked:?} checked");
}

/// The first file (by name) of `format`'s corpus folder, when `RIGPORT_CORPUS` is set.
fn first_corpus_file(format: Format) -> Option<PathBuf> {
    let dir = rigport_test_support::corpus::corpus_dir(format.key())?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| Format::from_extension(p) == Some(format))
        .collect();
    files.sort();
    files.into_iter().next()
}

#[test]
fn every_reader_has_the_one_fuzz_target() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    let one_line = std::fs::read_to_string(fuzz.join("fuzz_targets/pipeline.rs"))
        .expect("the pipeline target");
    for format in Format::ALL.into_iter().filter(|f| f.can_read()) {
        let name = format.key().replace('-', "_");
        let path = fuzz.join(format!("fuzz_targets/{name}.rs"));
        let target = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("{format}: no fuzz target {}", path.display()));
        assert_eq!(
            target, one_line,
            "{format}: its fuzz target is not the one line"
        );
        assert!(
            manifest.contains(&format!(
                "name = \"{name}\"\npath = \"fuzz_targets/{name}.rs\""
            )),
            "{format}: fuzz/Cargo.toml has no [[bin]] for it"
        );
    }
}
