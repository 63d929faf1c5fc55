//! `rigport validate`: a strict read plus model-level checks, with locations.

use super::Status;
use crate::args::ValidateArgs;
use crate::checks::{Finding, FindingSeverity, check_model};
use crate::document::Document;
use rigport_model_core::ReadOptions;
use serde_json::json;
use std::path::Path;

/// Runs `rigport validate`: exit 1 if any file has an error; warnings alone exit 0.
pub fn run(args: &ValidateArgs) -> Status {
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
        if args.json {
            let list: Vec<_> = findings
                .iter()
                .map(|f| json!({ "severity": f.severity.as_str(), "code": f.code, "message": f.message }))
                .collect();
            println!(
                "{}",
                json!({ "file": path.display().to_string(), "format": format, "valid": errors == 0, "findings": list })
            );
        } else {
            let verdict = if errors > 0 { "INVALID" } else { "valid" };
            println!(
                "{}: {verdict} ({} findings)",
                path.display(),
                findings.len()
            );
            for finding in &findings {
                let indented = finding.message.replace('\n', "\n    ");
                println!(
                    "  {}: {indented} [{}]",
                    finding.severity.as_str(),
                    finding.code
                );
            }
        }
    }
    status
}

/// Validates one file: its format key (if detected) and everything found.
pub fn validate_file(path: &Path) -> (Option<&'static str>, Vec<Finding>) {
    let error = |code, message: String| {
        vec![Finding {
            severity: FindingSeverity::Error,
            code,
            message,
        }]
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => return (None, error("unreadable", format!("cannot read: {e}"))),
    };
    let Some(format) = crate::document::sniff(&bytes) else {
        return (
            None,
            error("unknown-format", "no known file signature".into()),
        );
    };
    // Strict: a damaged tail, a trailing byte or an out-of-range index is an error here.
    let (document, _) = match Document::read(&bytes, format, &ReadOptions::strict()) {
        Ok(read) => read,
        Err(e) => return (Some(format.key()), error("read", e.message)),
    };
    let mut findings = Vec::new();
    match document.to_model() {
        Ok((model, report)) => {
            findings.extend(report.notices.into_iter().map(|n| Finding {
                severity: n.severity.into(),
                code: n.code,
                message: n.message,
            }));
            findings.extend(check_model(&model, path));
        }
        Err(e) => findings.extend(error("model", e.message)),
    }
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    (Some(format.key()), findings)
}
