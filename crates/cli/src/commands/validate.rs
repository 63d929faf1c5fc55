//! `rigport validate`: a strict read plus model-level checks, with locations.

use super::Status;
use crate::args::{Detail, ValidateArgs};
use rigport::Format;
use rigport::checks::{Finding, FindingSeverity, validate};
use serde_json::json;
use std::path::Path;

/// Runs `rigport validate`: exit 1 if any file has an error; warnings alone exit 0.
pub fn run(args: &ValidateArgs) -> Status {
    let detail = args.output.detail();
    let mut status = Status::Success;
    for path in &args.files {
        let (format, findings) = validate_file(path);
        let errors = findings
            .iter()
            .filter(|f| f.severity == FindingSeverity::Error)
            .count();
        if errors > 0 {
            status = Status::Failure;
        }
        if detail == Detail::Json {
            let list: Vec<_> = findings
                .iter()
                .map(|f| json!({ "severity": f.severity.as_str(), "code": f.code.key(), "message": f.message }))
                .collect();
            println!(
                "{}",
                json!({ "file": path.display().to_string(), "format": format, "valid": errors == 0, "findings": list })
            );
            continue;
        }
        if detail == Detail::Quiet && errors == 0 {
            continue;
        }
        let verdict = if errors > 0 { "INVALID" } else { "valid" };
        println!(
            "{}: {verdict} ({} findings)",
            path.display(),
            findings.len()
        );
        let shown = |f: &&Finding| match detail {
            Detail::Quiet => f.severity == FindingSeverity::Error,
            Detail::Default => f.severity != FindingSeverity::Info,
            Detail::Verbose | Detail::Json => true,
        };
        for finding in findings.iter().filter(shown) {
            let indented = finding.message.replace('\n', "\n    ");
            println!(
                "  {}: {indented} [{}]",
                finding.severity.as_str(),
                finding.code
            );
        }
        let notes = findings
            .iter()
            .filter(|f| f.severity == FindingSeverity::Info)
            .count();
        if detail == Detail::Default {
            if let Some(notes) = super::plural(notes, "note", "notes") {
                println!("  {notes}: --verbose lists them");
            }
        }
    }
    status
}

/// Validates one file: its format key (if detected) and everything found.
fn validate_file(path: &Path) -> (Option<&'static str>, Vec<Finding>) {
    match std::fs::read(path) {
        Ok(bytes) => {
            let (format, findings) = validate(&bytes, path);
            (format.map(Format::key), findings)
        }
        Err(e) => (
            None,
            vec![Finding {
                severity: FindingSeverity::Error,
                code: rigport_model_core::codes::UNREADABLE,
                message: format!("cannot read: {e}"),
            }],
        ),
    }
}
