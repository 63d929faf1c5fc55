//! `rigport render`: one picture, or one per model in parallel with `-o DIR`.

use super::Status;
use crate::args::RenderArgs;
use crate::batch;
use crate::output::{check_target, write_atomic};
use rigport::picture::{PictureRequest, RenderOptions, render_png};
use rigport::pipeline::PoseRequest;
use rigport_model_core::{ReadOptions, Report, Severity};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Runs `rigport render`.
pub fn run(args: &RenderArgs) -> Status {
    let request = PictureRequest {
        read: ReadOptions {
            strict: args.read.strict,
            ..ReadOptions::default()
        },
        options: RenderOptions {
            width: args.size.0,
            height: args.size.1,
            view: args.view,
            background: args.background,
            wire: args.wire,
            ..RenderOptions::default()
        },
        pose: PoseRequest {
            time: args.time,
            frame: args.frame,
            anim: args.anim.clone(),
        },
        sheet: args.sheet,
    };
    match &args.out_dir {
        Some(dir) => run_batch(args, dir, &request),
        None => run_single(args, &request),
    }
}

fn run_single(args: &RenderArgs, request: &PictureRequest) -> Status {
    let [input, output] = args.paths.as_slice() else {
        eprintln!(
            "error: render takes IN OUT.png, or INPUTS... -o DIR (got {} paths)",
            args.paths.len()
        );
        return Status::Usage;
    };
    match render_file(input, output, args.force, request) {
        Ok(report) => {
            println!("wrote {}", output.display());
            for notice in &report.notices {
                println!("  {notice}");
            }
            Status::Success
        }
        Err(message) => {
            eprintln!("{}: {message}", input.display());
            Status::Failure
        }
    }
}

fn run_batch(args: &RenderArgs, dir: &Path, request: &PictureRequest) -> Status {
    let inputs = match batch::collect_inputs(&args.paths) {
        Ok(inputs) => inputs,
        Err(message) => {
            eprintln!("error: {message}");
            return Status::Failure;
        }
    };
    // Inputs with the same stem would draw into the same PNG: the first in sorted order gets
    // it, the others fail instead of racing (as in `convert`).
    let mut claimed: HashMap<PathBuf, &Path> = HashMap::new();
    for input in &inputs {
        claimed
            .entry(batch_output_path(input, dir))
            .or_insert(input);
    }
    let outcomes = batch::run_parallel(&inputs, false, |input| {
        let output = batch_output_path(input, dir);
        match claimed.get(&output) {
            Some(owner) if *owner != input => Err(format!(
                "{} is also the output of {}; render one of them separately",
                output.display(),
                owner.display()
            )),
            _ => render_file(input, &output, args.force, request)
                .map(|report| (vec![output], warning_count(&report))),
        }
    });
    eprint!("{}", batch::summary(&outcomes));
    if outcomes.iter().any(|o| o.result.is_err()) {
        Status::Failure
    } else {
        Status::Success
    }
}

fn warning_count(report: &Report) -> usize {
    report
        .notices
        .iter()
        .filter(|n| n.severity != Severity::Info)
        .count()
}

/// `DIR/<input stem>.png`.
fn batch_output_path(input: &Path, dir: &Path) -> PathBuf {
    let mut name = input
        .file_stem()
        .unwrap_or(input.as_os_str())
        .to_os_string();
    name.push(".png");
    dir.join(name)
}

/// Reads, draws and writes one picture; textures are looked up beside the input.
pub fn render_file(
    input: &Path,
    output: &Path,
    force: bool,
    request: &PictureRequest,
) -> Result<Report, String> {
    check_target(output, &[input], force).map_err(|e| e.to_string())?;
    let bytes = std::fs::read(input).map_err(|e| format!("cannot read: {e}"))?;
    let source_dir = match input.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let (png, report) = render_png(&bytes, source_dir, request).map_err(|e| e.to_string())?;
    write_atomic(output, &png).map_err(|e| e.to_string())?;
    Ok(report)
}
