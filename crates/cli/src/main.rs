//! `rigport`: inspect, validate and convert skeletal models. A thin layer over the `rigport`
//! library: arguments, output formatting, batch runs and safe file writing.
//!
//! Exit codes: 0 success, 1 bad input or a failed conversion, 2 usage error.
// deny, not forbid: `input::map_file` maps large inputs and `input::forget_pages` hands
// their read pages back (measured in `input.rs`); `heap::HugePages` is the global
// allocator, the system one advising 2 MiB pages under large blocks and its heap, and
// `heap::heap_per_core` / `heap::keep_freed_blocks` tune glibc's allocator (all measured in
// `heap/`). Those are the binary's `unsafe` code.
#![deny(unsafe_code)]

mod args;
mod batch;
mod commands;
mod format_arg;
mod heap;
mod input;
mod output;

use std::process::ExitCode;

// The system allocator, with 2 MiB pages under large blocks and its heap (`heap::HugePages`). mimalloc
// kept the freed input resident and did not reuse it, so a 104 MB IQE -> glb peaked at
// 335 MiB (3.3x the input) with it against 237 MiB (2.33x) with glibc, which returns
// large blocks at once; BENCHMARKS.md has the runs.
#[global_allocator]
static ALLOCATOR: heap::HugePages = heap::HugePages;

fn main() -> ExitCode {
    heap::heap_per_core();
    let cli = args::Cli::parse_with_formats();
    let status = match &cli.command {
        args::Command::Info(a) => commands::info::run(a),
        args::Command::Convert(a) => commands::convert::run(a),
        args::Command::Validate(a) => commands::validate::run(a),
        args::Command::Render(a) => commands::render::run(a),
        args::Command::Formats(a) => commands::formats::run(a),
    };
    status.into()
}
