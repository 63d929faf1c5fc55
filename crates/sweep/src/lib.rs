//! The hostile-input checks every rigport reader and conversion is held to, in one place for
//! the three things that run them: the facade's sweep test (`crates/rigport/tests`), the
//! cargo-fuzz targets (`fuzz/`) and the replay of every crasher found
//! (`crates/rigport/tests/fuzz_regressions.rs`).
//!
//! * [`exercise`]: sniff, read (lenient and strict), summarize, convert to every format this
//!   build writes and read each output back, and draw, checking that every refusal is a
//!   short message;
//! * [`fuzz`]: one function per fuzz target, each panicking on a bug.
//!
//! ```
//! let converted = rigport_sweep::exercise::exercise(
//!     b"# Inter-Quake Export\nmesh tri\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n",
//! )
//! .unwrap();
//! assert!(converted >= 6);
//! ```
#![forbid(unsafe_code)]

pub mod exercise;
pub mod fuzz;
