//! `rigport`: inspect, validate and convert skeletal models. A thin layer over the `rigport`
//! library: arguments, output formatting, batch runs and safe file writing.
//!
//! Exit codes: 0 success, 1 bad input or a failed conversion, 2 usage error.
#![forbid(unsafe_code)]

mod args;
mod batch;
mod commands;
mod format_arg;
mod output;

use clap::Parser;
use std::process::ExitCode;

// No `#[global_allocator]`: the system one (issue 16). mimalloc, used before, was no faster on any measured
// conversion once the readers stopped churning memory, and it kept freed memory for a
// second, so a 104 MB IQE -> glb peaked at 308 MB (2.96x the input) against 228-239 MB
// (2.2-2.3x) with glibc, which returns large blocks at once. Its C build is gone too.

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
