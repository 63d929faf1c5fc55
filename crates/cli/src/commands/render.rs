//! `rigport render`: one picture, or one per model in parallel with `-o DIR`; with
//! `--orbit`, `--animate` or `--metadata`, a folder per model and a manifest line per input.

use super::Status;
use crate::args::{Detail, RenderArgs};
use crate::batch;
use crate::output::{check_target, write_atomic};
use rigport::pipeline::PoseRequest;
use rigport_dataset::picture::{PictureRequest, Prepared, RenderOptions, render_png};
use rigport_model_core::{Notice, Report, Severity};
use std::path::Path;

/// Runs `rigport render`.
pub fn run(args: &RenderArgs) -> Status {
    crate::heap::keep_freed_blocks();
    let request = PictureRequest {
        read: args.read.options(),
        options: RenderOptions {
            width: args.size.0,
            height: args.size.1,
            view: args.view,
            background: args.background,
            wire: args.wire,
            passes: args.passes,
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
        Some(dir) if args.orbit.is_some() || args.animate || args.metadata => {
            super::render_library::run(args, dir, &request)
        }
        Some(dir) => run_batch(args, dir, &request),
        None => run_single(args, &request),
    }
}

fn run_single(args: &RenderArgs, request: &PictureRequest) -> Status {
    let (input, output) = match super::input_and_output(
        &args.paths,
        "render takes IN OUT.png, or INPUTS... -o DIR",
    ) {
        Ok(paths) => paths,
        Err(status) => return status,
    };
    let detail = args.output.detail();
    match render_file(input, output, args.force, request, args.animate, args.fps) {
        Ok(report) => {
            print_report(input, output, &report, detail);
            Status::Success
        }
        Err(message) => {
            if detail == Detail::Json {
                println!("{}", super::error_json(input, &message));
            }
            eprintln!("{}: {message}", input.display());
            Status::Failure
        }
    }
}

/// Whether a notice changes the picture: the renderer's own (a texture not found or not
/// decoded, triangles not drawn) and the reader's warnings about damaged input. Losses and
/// notes of the conversion to the model do not: a picture is not a conversion.
fn changes_the_picture(notice: &Notice) -> bool {
    notice.severity == Severity::Warning
}

fn print_report(input: &Path, output: &Path, report: &Report, detail: Detail) {
    match detail {
        Detail::Json => println!(
            "{}",
            super::convert::outcome_json(input, &[output.to_path_buf()], report)
        ),
        Detail::Quiet => {}
        Detail::Default | Detail::Verbose => {
            println!("wrote {}", output.display());
            for notice in report
                .notices
                .iter()
                .filter(|n| detail == Detail::Verbose || changes_the_picture(n))
            {
                println!("  {notice}");
            }
        }
    }
}

fn run_batch(args: &RenderArgs, dir: &Path, request: &PictureRequest) -> Status {
    let detail = args.output.detail();
    let outcomes = batch::run_into_dir(
        &args.paths,
        dir,
        "png",
        batch::Work::Render,
        detail == Detail::Quiet,
        |input, output| {
            let result = render_file(input, output, args.force, request, args.animate, args.fps)
                .map(|mut report| {
                    if detail != Detail::Verbose && detail != Detail::Json {
                        report.notices.retain(changes_the_picture);
                    }
                    (vec![output.to_path_buf()], report)
                });
            super::convert::batch_outcome(input, result, detail)
        },
    );
    super::convert::batch_status(outcomes, batch::Work::Render, detail)
}

/// Reads, draws and writes one picture; textures are looked up beside the input.
pub fn render_file(
    input: &Path,
    output: &Path,
    force: bool,
    request: &PictureRequest,
    animate: bool,
    fps: Option<f32>,
) -> Result<Report, String> {
    check_target(output, &[input], force)?;
    let bytes = std::fs::read(input).map_err(|e| format!("cannot read: {e}"))?;
    let (png, report) = if animate {
        let prepared = Prepared::read(&bytes, &batch::input_dir(input), &request.read)
            .map_err(|e| e.to_string())?;
        drop(bytes);
        let animated = prepared
            .animation(request, fps)
            .map_err(|e| e.to_string())?;
        let mut report = prepared.report.clone();
        report.extend(animated.report);
        (animated.png, report)
    } else {
        render_png(&bytes, &batch::input_dir(input), request).map_err(|e| e.to_string())?
    };
    write_atomic(output, &png).map_err(|e| e.to_string())?;
    Ok(report)
}
