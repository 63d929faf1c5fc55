//! Throughput of the SMD reader, writer and conversions on a 10 MB reference file (the rig at 3, since SMD repeats each corner) written
//! from the synthetic rig (8 grids of 70 quads wide, 4 weights a vertex, 64 bones), counted
//! in input bytes (the writer in the bytes it writes). Run `cargo xtask bench-data` first
//! for the other formats' inputs; this one is generated in process when absent.

use rigport_smd::{ConvertOptions, from_model};
use rigport_test_support::synth;

/// A reference SMD of the synthetic rig sized for `megabytes` MB of IQE (about 3.2 times
/// that as SMD): its meshes and skeleton.
fn reference(megabytes: u32) -> Vec<u8> {
    let model = synth::model(&synth::text_rig(megabytes), 0);
    let (file, _) = from_model(&model, &ConvertOptions::default()).expect("the rig converts");
    file.to_vec()
}

rigport_test_support::format_bench!(rigport_smd, "smd", "big10.smd", reference(3));
