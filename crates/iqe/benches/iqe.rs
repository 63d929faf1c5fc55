//! Throughput of the IQE reader, writer and conversions on a 9 MB file
//! (`bench-data/big10.iqe`: 8 grids of 4970 vertices with 4 weights each, 64 joints, 640
//! frames). Run `cargo xtask bench-data` first; without it a 1 MB file is generated in
//! process.

use rigport_test_support::{format_bench, synth};

format_bench!(
    rigport_iqe,
    "iqe",
    "big10.iqe",
    synth::iqe(&synth::text_rig(1))
);
