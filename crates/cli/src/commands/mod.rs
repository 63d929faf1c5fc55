//! One module per subcommand. Each returns the process exit status.

pub mod convert;
pub mod info;
pub mod render;
pub mod validate;

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
