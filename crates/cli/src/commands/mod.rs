//! One module per subcommand. Each returns the process exit status.

pub mod convert;
pub mod formats;
pub mod info;
pub mod render;
pub mod render_library;
pub mod validate;

use rigport_model_core::{Report, Severity};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A report's notices as JSON objects (`severity`, `code`, `message`), the shape every
/// command's `--json` uses.
pub fn notices_json(report: &Report) -> Value {
    rigport::info::report_json(report)
}

/// The `--json` line of a file a command failed on.
pub fn error_json(input: &Path, message: &str) -> Value {
    json!({ "input": input.display().to_string(), "error": message })
}

/// "12 losses, 1 note: --verbose lists them", or `None` when there are neither.
pub fn count_line(report: &Report) -> Option<String> {
    let parts: Vec<String> = [
        plural(report.count(Severity::Loss), "loss", "losses"),
        plural(report.count(Severity::Info), "note", "notes"),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| format!("{}: --verbose lists them", parts.join(", ")))
}

/// `n` things in the number they need, `None` for none.
pub fn plural(n: usize, one: &str, many: &str) -> Option<String> {
    match n {
        0 => None,
        1 => Some(format!("1 {one}")),
        n => Some(format!("{n} {many}")),
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_line_names_losses_and_notes_in_the_plural_they_need() {
        let mut report = Report::default();
        assert_eq!(count_line(&report), None);
        report.warn(
            rigport_model_core::codes::COUNT_MISMATCH,
            "a warning is printed, not counted",
        );
        assert_eq!(count_line(&report), None);
        report.loss(rigport_model_core::codes::SMOOTHING, "x");
        assert_eq!(
            count_line(&report).as_deref(),
            Some("1 loss: --verbose lists them")
        );
        report.loss(rigport_model_core::codes::COMMENTS, "y");
        report.info(rigport_model_core::codes::RESAMPLED, "z");
        assert_eq!(
            count_line(&report).as_deref(),
            Some("2 losses, 1 note: --verbose lists them")
        );
    }
}
