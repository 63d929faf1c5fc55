//! One module per subcommand. Each returns the process exit status.

pub mod convert;
pub mod info;
pub mod render;
pub mod render_library;
pub mod validate;

use std::path::{Path, PathBuf};

/// The `IN OUT` of a single-file run, or, after printing `usage` with the number of paths
/// given, the usage status.
pub fn input_and_output<'a>(
    paths: &'a [PathBuf],
    usage: &str,
) -> Result<(&'a Path, &'a Path), Status> {
    match paths {
        [input, output] => Ok((input, output)),
        _ => {
            eprintln!("error: {usage} (got {} paths)", paths.len());
            Err(Status::Usage)
        }
    }
}

/// How a command ended, as the process exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything succeeded (0).
    Success,
    /// Bad input or a failed conversion (1).
    Failure,
    /// The command line was wrong (2).
    Usage,
}

impl From<Status> for std::process::ExitCode {
    fn from(status: Status) -> Self {
        std::process::ExitCode::from(match status {
            Status::Success => 0,
            Status::Failure => 1,
            Status::Usage => 2,
        })
    }
}
