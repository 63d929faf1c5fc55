//! Throughput of the PSK reader, writer and conversions on a `.psk` written from the
//! synthetic rig (the 10 MB text rig's meshes and skeleton), counted in input bytes (the
//! writer in the bytes it writes). Generated in process when `bench-data/` has no copy.

use rigport_psk::{ConvertOptions, from_model};
use rigport_test_support::synth;

/// A `.psk` of the synthetic rig sized for `megabytes` MB of IQE.
fn reference(megabytes: u32) -> Vec<u8> {
    let model = synth::model(&synth::text_rig(megabytes), 0);
    let (file, _) = from_model(&model, &ConvertOptions::default()).expect("the rig converts");
    file.to_vec()
}

rigport_test_support::format_bench!(rigport_psk, "psk", "big10.psk", reference(10));
