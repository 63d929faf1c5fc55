//! Command-line arguments.

use crate::format_arg::FormatArg;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Inspect, validate and convert MilkShape 3D, Inter-Quake Export and Inter-Quake Model files.
#[derive(Debug, Parser)]
#[command(name = "rigport", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Summarize model files: counts, names, optional blocks, warnings.
    ///
    /// The format is detected from the content, not the extension.
    Info(InfoArgs),
    /// Convert models between formats (ms3d, ms3d-ascii, iqe, iqm, glb, gltf, obj).
    ///
    /// `rigport convert IN OUT` converts one file, the format taken from OUT's extension or
    /// `--to`. `rigport convert INPUTS... --to FORMAT -o DIR` converts files and directories
    /// (recursed) in parallel.
    Convert(ConvertArgs),
    /// Read files strictly and list every problem with its location.
    Validate(ValidateArgs),
}

/// Options shared by commands that read models.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct ReadArgs {
    /// Treat damaged or unexpected input as an error instead of a warning.
    #[arg(long)]
    pub strict: bool,
}

/// `rigport info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Files to inspect.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// One JSON object per file per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Reading options.
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `rigport convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// `IN OUT` for one file; with `-o DIR`, any number of input files or directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format; by default taken from the output file's extension.
    #[arg(long, value_enum)]
    pub to: Option<FormatArg>,
    /// Batch mode: write every converted file into this directory.
    #[arg(short = 'o', long = "out-dir")]
    pub out_dir: Option<PathBuf>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
    /// Pose the model at this time in seconds (OBJ output).
    #[arg(long, conflicts_with = "frame")]
    pub time: Option<f32>,
    /// Pose the model at this frame of the animation (OBJ output).
    #[arg(long)]
    pub frame: Option<f32>,
    /// Animation to pose, by name or index (default: the first).
    #[arg(long)]
    pub anim: Option<String>,
    /// Attach the animations of FILE (any readable format, e.g. an animation-only .iqm) to
    /// the model's skeleton; joints are matched by name, or by index when FILE names none
    /// and the joint counts agree. Repeatable.
    #[arg(long = "with-anims", value_name = "FILE")]
    pub with_anims: Vec<PathBuf>,
    /// Print the conversion report as JSON.
    #[arg(long)]
    pub json: bool,
    /// List every loss and note of the report, not only the warnings and a count.
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Print errors only.
    #[arg(short, long)]
    pub quiet: bool,
    /// Reading options.
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `rigport validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// One JSON object per file per line instead of text.
    #[arg(long)]
    pub json: bool,
}
