//! Throughput of the MilkShape binary reader, writer and conversions on a file at the
//! format's limits (`bench-data/limits.ms3d`: 65534 vertices and triangles, 128 joints
//! with 2000 keys of each kind). Run `cargo xtask bench-data` first; without it a smaller
//! file is generated in process.

use rigport_test_support::{format_bench, synth};

format_bench!(
    rigport_ms3d_bin,
    "ms3d-bin",
    "limits.ms3d",
    synth::ms3d(&synth::small_ms3d())
);
