//! `rigport convert`: one file, or many in parallel with `-o DIR`.

use super::Status;
use crate::args::ConvertArgs;
use crate::batch;
use crate::formats::Format;
use crate::output::{check_target, write_atomic};
use crate::pipeline::{self, Converted, PoseRequest, Settings};
use rigport_model_core::{ReadOptions, Report};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Runs `rigport convert`.
pub fn run(args: &ConvertArgs) -> Status {
    let settings = Settings {
        read: ReadOptions {
            strict: args.read.strict,
            ..ReadOptions::default()
        },
        pose: PoseRequest {
            time: args.time,
            frame: args.frame,
            anim: args.anim.clone(),
        },
    };
    match &args.out_dir {
        Some(dir) => run_batch(args, dir, &settings),
        None => run_single(args, &settings),
    }
}

fn run_single(args: &ConvertArgs, settings: &Settings) -> Status {
    let [input, output] = args.paths.as_slice() else {
        eprintln!(
            "error: convert takes IN OUT, or INPUTS... --to FORMAT -o DIR (got {} paths)",
            args.paths.len()
        );
        return Status::Usage;
    };
    let Some(target) = args.to.or_else(|| Format::from_extension(output)) else {
        eprintln!(
            "error: cannot tell the output format from {}; use --to",
            output.display()
        );
        return Status::Usage;
    };
    match convert_file(input, output, target, args.force, settings) {
        Ok((written, report)) => {
            print_report(input, &written, &report, args.json);
            Status::Success
        }
        Err(message) => {
            if args.json {
                println!(
                    "{}",
                    json!({ "input": input.display().to_string(), "error": message })
                );
            }
            eprintln!("{}: {message}", input.display());
            Status::Failure
        }
    }
}

fn run_batch(args: &ConvertArgs, dir: &Path, settings: &Settings) -> Status {
    let Some(target) = args.to else {
        eprintln!("error: batch conversion (-o DIR) needs --to FORMAT");
        return Status::Usage;
    };
    let inputs = match batch::collect_inputs(&args.paths) {
        Ok(inputs) => inputs,
        Err(message) => {
            eprintln!("error: {message}");
            return Status::Failure;
        }
    };
    let outcomes = batch::run_parallel(&inputs, |input| {
        let output = batch_output_path(input, dir, target);
        convert_file(input, &output, target, args.force, settings)
            .map(|(written, report)| (written, report.notices.len()))
    });
    eprint!("{}", batch::summary(&outcomes));
    if outcomes.iter().any(|o| o.result.is_err()) {
        Status::Failure
    } else {
        Status::Success
    }
}

/// `DIR/<input stem>.<target extension>`.
fn batch_output_path(input: &Path, dir: &Path, target: Format) -> PathBuf {
    let stem = input.file_stem().unwrap_or(input.as_os_str());
    let mut name = stem.to_os_string();
    name.push(".");
    name.push(target.extension());
    dir.join(name)
}

/// Reads, converts and writes one file; returns the written paths and the report.
pub fn convert_file(
    input: &Path,
    output: &Path,
    target: Format,
    force: bool,
    settings: &Settings,
) -> Result<(Vec<PathBuf>, Report), String> {
    let bytes = std::fs::read(input).map_err(|e| format!("cannot read: {e}"))?;
    let Converted { files, report } = pipeline::convert_owned(bytes, output, target, settings)?;
    for (path, _) in &files {
        check_target(path, &[input], force).map_err(|e| e.to_string())?;
    }
    for (path, content) in &files {
        write_atomic(path, content).map_err(|e| e.to_string())?;
    }
    Ok((files.into_iter().map(|(path, _)| path).collect(), report))
}

fn print_report(input: &Path, written: &[PathBuf], report: &Report, as_json: bool) {
    if as_json {
        let notices: Vec<_> = report
            .notices
            .iter()
            .map(|n| json!({ "severity": n.severity.to_string(), "code": n.code, "message": n.message }))
            .collect();
        let outputs: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        println!(
            "{}",
            json!({ "input": input.display().to_string(), "outputs": outputs, "report": notices })
        );
        return;
    }
    for path in written {
        println!("wrote {}", path.display());
    }
    for notice in &report.notices {
        println!("  {notice}");
    }
}
