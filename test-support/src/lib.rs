//! What rigport's tests, benches, fuzz targets and `cargo xtask` share, in one crate used as
//! a dev-dependency (publish = false), instead of files included by `#[path]`:
//!
//! * [`corpus`]: where the real-file corpus is (`RIGPORT_CORPUS`), or a "skipped" note;
//! * [`fixtures`]: the workspace's own small files under `fixtures/`;
//! * [`synth`]: deterministic synthetic inputs (bench data, also written by `cargo xtask`);
//! * [`contract`]: the format-contract macros `round_trip_test!` and `format_contract!`;
//! * [`codec_agreement`]: a codec's own reads held to its faithful layer's;
//! * [`milkshape_limits`]: MilkShape's limits checked alike on both MilkShape writers;
//! * [`counting_alloc`]: a per-thread counting global allocator for memory bounds;
//! * `bench` (feature `bench`): criterion settings, `bench_main!`, `format_bench!`;
//! * `gltf` (feature `gltf`): the glTF fixture builder, fixtures and independent posing oracle;
//! * `png` (feature `png`): pictures compared and rewritten by their decoded pixels;
//! * `generated` (feature `generate`): the fixtures and bench inputs made from code, written
//!   by the `generate` binary that `cargo xtask golden` and `cargo xtask bench-data` run;
//!
//! It depends on `rigport-model-core` alone, so every format crate's tests can use it without
//! an arrow pointing back up; the hostile-input checks that drive every format through the
//! facade live above it, in `rigport-sweep`.
//!
//! ```
//! use rigport_test_support::{fixtures, workspace_root};
//!
//! let rig = fixtures::fixture("ms3d", "rig_full.ms3d");
//! assert!(rig.starts_with(workspace_root()) && rig.is_file());
//! let bytes = rigport_test_support::synth::ms3d(&rigport_test_support::synth::small_ms3d());
//! assert!(bytes.starts_with(b"MS3D000000"));
//! ```
// `deny`, not `forbid`: `counting_alloc` must implement `GlobalAlloc`, which is unsafe by
// definition, and is the one module that allows it.
#![deny(unsafe_code)]

#[cfg(feature = "bench")]
pub mod bench;
pub mod codec_agreement;
pub mod contract;
pub mod corpus;
pub mod counting_alloc;
pub mod fixtures;
#[cfg(feature = "generate")]
pub mod generated;
#[cfg(feature = "gltf")]
pub mod gltf;
pub mod milkshape_limits;
#[cfg(feature = "png")]
pub mod png;
pub mod synth;

use std::path::{Path, PathBuf};

/// The workspace root (this crate sits one level below it, in `test-support/`).
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = here.parent().unwrap_or(here);
    root.canonicalize().unwrap_or_else(|_| root.to_path_buf())
}
