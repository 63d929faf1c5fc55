//! `rigport`: inspect, validate and convert skeletal models. A thin layer over the `rigport`
//! library: arguments, output formatting, batch runs and safe file writing.
//!
//! Exit codes: 0 success, 1 bad input or a failed conversion, 2 usage error.
// deny, not forbid: `input::map_file` maps large inputs and `input::forget_pages` hands
// their read pages back (measured in `input.rs`), and `heap::keep_freed_blocks` tunes
// glibc's allocator for `render` (measured in `heap.rs`): the three `unsafe` blocks of the
// binary.
#![deny(unsafe_code)]

mod args;
mod batch;
mod commands;
mod format_arg;
mod heap;
mod input;
mod output;

use clap::Parser;
use std::process::ExitCode;

// No `#[global_allocator]`: the system one. mimalloc keeps the freed input resident and
// does not reuse it, so a 104 MB IQE -> glb peaks at 335 MiB (3.3x the input) with it
// against 237 MiB (2.33x) with glibc, which returns large blocks at once. Side by side it is
// as fast on IQE -> IQM and batch runs, faster only on the 32767-triangle .ms3d -> glb
// (32.9 against 40.8 ms, both over 10x assimp); BENCHMARKS.md has the runs.

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    let status = match &cli.command {
        args::Command::Info(a) => commands::info::run(a),
        args::Command::Convert(a) => commands::convert::run(a),
        args::Command::Validate(a) => commands::validate::run(a),
        args::Command::Render(a) => commands::render::run(a),
    };
    status.into()
}
