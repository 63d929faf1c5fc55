//! Throughput of the MilkShape ASCII reader, writer and conversions on a 4.5 MB file
//! (`bench-data/big5.txt`: 8 grids of 2485 vertices, 64 bones with 320 keys of each kind;
//! the 10 MB `big10.txt` has 76160 triangles, past MilkShape's limit of 65534, which
//! `from_model` refuses). Run `cargo xtask bench-data` first; without it a 1 MB file is
//! generated in process.

use rigport_test_support::{format_bench, synth};

format_bench!(
    rigport_ms3d_ascii,
    "ms3d-ascii",
    "big5.txt",
    synth::ms3d_ascii(&synth::text_rig(1))
);
