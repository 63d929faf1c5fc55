//! Throughput of the MilkShape ASCII reader, writer and conversions on a 9 MB file
//! (`bench-data/big10.txt`: 8 grids of 4970 vertices, 64 bones with 640 keys of each
//! kind). Run `cargo xtask bench-data` first; without it a 1 MB file is generated in
//! process.

use rigport_test_support::{format_bench, synth};

format_bench!(
    rigport_ms3d_ascii,
    "ms3d-ascii",
    "big10.txt",
    synth::ms3d_ascii(&synth::text_rig(1))
);
