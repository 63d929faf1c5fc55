//! Throughput of the B3D reader, writer and conversions on a B3D file written from the
//! synthetic rig (the 10 MB text rig's meshes and skeleton), counted in input bytes (the
//! writer in the bytes it writes). Generated in process when `bench-data/` has no copy.

use rigport_b3d::{ConvertOptions, from_model};
use rigport_test_support::synth;

/// A B3D file of the synthetic rig sized for `megabytes` MB of IQE.
fn reference(megabytes: u32) -> Vec<u8> {
    let model = synth::model(&synth::text_rig(megabytes), 0);
    let (file, _) = from_model(&model, &ConvertOptions::default()).expect("the rig converts");
    file.to_vec()
}

rigport_test_support::format_bench!(rigport_b3d, "b3d", "big10.b3d", reference(10));
