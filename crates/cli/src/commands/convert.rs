//! `rigport convert`: one file, or many in parallel with `-o DIR`.

use super::Status;
use crate::args::{ConvertArgs, Detail};
use crate::batch;
use crate::output::{check_target, write_atomic};
use rigport::Format;
use rigport::attach::AnimationSource;
use rigport::pipeline::{self, Converted, PoseRequest, Settings};
use rigport_model_core::{ReadOptions, Report, Severity, codes};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Runs `rigport convert`.
pub fn run(args: &ConvertArgs) -> Status {
    let read = args.read.options();
    let mut animations = Vec::with_capacity(args.with_anims.len());
    for path in &args.with_anims {
        match AnimationSource::read(path, &read) {
            Ok(source) => animations.push(source),
            Err(message) => {
                eprintln!("error: --with-anims {message}");
                return Status::Failure;
            }
        }
    }
    let settings = Settings {
        read,
        animations,
        pose: PoseRequest {
            time: args.time,
            frame: args.frame,
            anim: args.anim.clone(),
        },
        keep_texture_uris: args.no_embed_textures,
        // Set per input by `convert_file`: textures (and a .gltf's external files) are looked
        // for beside each model.
        concat_animations: args.concat_animations,
        keep_axes: args.keep_axes,
        source_dir: None,
        source_name: None,
        beside: None,
        fps: args.fps,
    };
    let posing = args.time.is_some() || args.frame.is_some() || args.anim.is_some();
    let to = args.to.map(|arg| arg.0);
    let target = to.or_else(|| args.paths.get(1).and_then(|p| Format::from_extension(p)));
    if posing && target != Some(Format::Obj) {
        eprintln!("error: --time, --frame and --anim pose the model for OBJ output only");
        return Status::Usage;
    }
    match &args.out_dir {
        Some(dir) => run_batch(args, dir, &settings),
        None => run_single(args, &settings),
    }
}

fn run_single(args: &ConvertArgs, settings: &Settings) -> Status {
    let (input, output) = match super::input_and_output(
        &args.paths,
        "convert takes IN OUT, or INPUTS... --to FORMAT -o DIR",
    ) {
        Ok(paths) => paths,
        Err(status) => return status,
    };
    let Some(target) = args
        .to
        .map(|arg| arg.0)
        .or_else(|| Format::from_extension(output))
    else {
        eprintln!(
            "error: cannot tell the output format from {}; use --to",
            output.display()
        );
        return Status::Usage;
    };
    match convert_file(input, output, target, args.force, !args.no_mmap, settings) {
        Ok((written, report)) => {
            let detail = args.output.detail();
            print_report(input, &written, &report, detail);
            Status::Success
        }
        Err(message) => {
            if args.output.json {
                println!("{}", super::error_json(input, &message));
            }
            eprintln!("{}: {message}", input.display());
            Status::Failure
        }
    }
}

fn run_batch(args: &ConvertArgs, dir: &Path, settings: &Settings) -> Status {
    let Some(target) = args.to.map(|arg| arg.0) else {
        eprintln!("error: batch conversion (-o DIR) needs --to FORMAT");
        return Status::Usage;
    };
    let detail = args.output.detail();
    let outcomes = batch::run_into_dir(
        &args.paths,
        dir,
        target.extension(),
        batch::Work::Convert,
        detail == Detail::Quiet,
        |input, output| {
            let result = convert_file(input, output, target, args.force, !args.no_mmap, settings);
            batch_outcome(input, result, detail)
        },
    );
    batch_status(outcomes, batch::Work::Convert, detail)
}

/// Reads, converts and writes one file; returns the written paths and the report.
pub fn convert_file(
    input: &Path,
    output: &Path,
    target: Format,
    force: bool,
    map: bool,
    settings: &Settings,
) -> Result<(Vec<PathBuf>, Report), String> {
    // Refuse before the work, not after: a re-run without --force should not convert anything.
    check_target(output, &[input], force)?;
    let bytes = crate::input::read(input, map).map_err(|e| format!("cannot read: {e}"))?;
    let settings = Settings {
        read: ReadOptions {
            consumed: bytes.consumed(),
            ..settings.read.clone()
        },
        ..settings.clone()
    }
    .with_source(input);
    let Converted { files, report } =
        pipeline::convert_owned(bytes, output, target, &settings).map_err(|e| e.to_string())?;
    for (path, _) in &files {
        check_target(path, &[input], force)?;
    }
    for (path, content) in &files {
        write_atomic(path, content).map_err(|e| e.to_string())?;
    }
    Ok((files.into_iter().map(|(path, _)| path).collect(), report))
}

fn print_report(input: &Path, written: &[PathBuf], report: &Report, detail: Detail) {
    match detail {
        Detail::Json => println!("{}", outcome_json(input, written, report)),
        Detail::Quiet => {}
        Detail::Verbose => {
            for path in written {
                println!("wrote {}", path.display());
            }
            for notice in &report.notices {
                println!("  {notice}");
            }
        }
        Detail::Default => {
            for path in written {
                println!("wrote {}", path.display());
            }
            // Warnings, and the frame ranges of concatenated animations: what the user
            // asked for with --concat-animations.
            for notice in report
                .notices
                .iter()
                .filter(|n| n.severity == Severity::Warning || n.code == codes::ANIMATION_RANGE)
            {
                println!("  {notice}");
            }
            if let Some(line) = super::count_line(report) {
                println!("  {line}");
            }
        }
    }
}

/// What a batch run prints for one input as it finishes, in one write so parallel runs do
/// not interleave lines: its JSON line (`--json`) or every notice (`-v`); by default and
/// with `-q` nothing (warnings are counted in the summary). Returns the outcome for the
/// summary.
pub fn batch_outcome(
    input: &Path,
    result: Result<(Vec<PathBuf>, Report), String>,
    detail: Detail,
) -> Result<(Vec<PathBuf>, usize), String> {
    match result {
        Ok((written, report)) => {
            match detail {
                Detail::Json => println!("{}", outcome_json(input, &written, &report)),
                Detail::Verbose => eprint!("{}", notice_lines(input, &report)),
                Detail::Quiet | Detail::Default => {}
            }
            Ok((written, batch::warning_count(&report)))
        }
        Err(message) => {
            if detail == Detail::Json {
                println!("{}", super::error_json(input, &message));
            }
            Err(message)
        }
    }
}

/// Ends a batch: a failure to start it (nothing to work on among the inputs included) is an
/// error line; otherwise the files skipped (`-v`, `--json`), the summary (only its failure
/// lines with `-q`), and failure when any input failed.
pub fn batch_status(
    batch: Result<batch::Batch, String>,
    work: batch::Work,
    detail: Detail,
) -> Status {
    let batch::Batch { outcomes, skipped } = match batch {
        Ok(batch) => batch,
        Err(message) => {
            eprintln!("error: {message}");
            return Status::Failure;
        }
    };
    batch::report_skipped(&skipped, detail == Detail::Verbose, detail == Detail::Json);
    let summary = batch::summary(&outcomes, &skipped, work);
    match detail {
        // Errors only: the failure lines, not the counts.
        Detail::Quiet => summary.lines().skip(1).for_each(|line| eprintln!("{line}")),
        _ => eprint!("{summary}"),
    }
    if batch::any_failed(&outcomes) {
        Status::Failure
    } else {
        Status::Success
    }
}

/// The `--json` line of one file a command wrote.
pub fn outcome_json(input: &Path, written: &[PathBuf], report: &Report) -> serde_json::Value {
    let outputs: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    json!({ "input": input.display().to_string(), "outputs": outputs, "report": super::notices_json(report) })
}

/// Every notice of one batch input, under its name.
fn notice_lines(input: &Path, report: &Report) -> String {
    let mut out = String::new();
    for notice in &report.notices {
        out.push_str(&format!("  {}: {notice}\n", input.display()));
    }
    out
}
