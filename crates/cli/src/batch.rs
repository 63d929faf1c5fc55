//! Batch runs (`convert -o DIR`, `render -o DIR`): collect inputs first, give each its
//! output in the directory, run in parallel, summarize at the end. One home for the
//! plumbing both commands share.

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// What a batch does to each input, as its progress lines and summary say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// `convert -o DIR`.
    Convert,
    /// `render -o DIR`.
    Render,
}

impl Work {
    /// The verb: "convert", "render".
    pub fn verb(self) -> &'static str {
        match self {
            Work::Convert => "convert",
            Work::Render => "render",
        }
    }

    /// What an input that succeeded was: "converted", "rendered".
    pub fn done(self) -> &'static str {
        match self {
            Work::Convert => "converted",
            Work::Render => "rendered",
        }
    }
}

/// Runs `job(input, output)` on every readable file below `paths` ([`collect`]), in
/// parallel, each writing `dir/<input stem>.<extension>`
/// ([`rigport::batch::output_path`]). Inputs that would write the same output are planned
/// by [`rigport::batch::plan`]: a model before an animation-only file, another extension
/// kept in the name (`x.md5anim.glb`), and a second input of the same name and extension
/// (`a/x.iqe`, `b/x.iqe`) failing ("…; convert one of them separately") instead of racing.
/// `quiet`: no progress lines. The outcomes come back in input order; the error is why the
/// inputs could not be collected, or that they hold nothing to work on ([`collect`]).
pub fn run_into_dir<F>(
    paths: &[PathBuf],
    dir: &Path,
    extension: &str,
    work: Work,
    quiet: bool,
    job: F,
) -> Result<Batch, String>
where
    F: Fn(&Path, &Path) -> Result<(Vec<PathBuf>, usize), String> + Sync,
{
    let Collected { inputs, skipped } = collect(paths, work)?;
    let planned = rigport::batch::plan(&inputs, dir, extension, work.verb());
    let outputs: HashMap<&Path, &Result<PathBuf, String>> = planned
        .iter()
        .map(|p| (p.input.as_path(), &p.output))
        .collect();
    let outcomes = run_parallel(&inputs, work, quiet, |input| {
        // `run_parallel` hands back the inputs it was given, so each is planned.
        match outputs.get(input) {
            Some(Ok(output)) => job(input, output),
            Some(Err(clash)) => Err(clash.clone()),
            None => Err(format!("{} was not planned", input.display())),
        }
    });
    Ok(Batch { outcomes, skipped })
}

/// The files below `paths` a batch works on, with those it passes over; the error names a
/// path that cannot be listed, or says that nothing there can be worked on (and what was
/// skipped), which fails the batch.
pub fn collect(paths: &[PathBuf], work: Work) -> Result<Collected, String> {
    let collected = rigport::batch::collect(paths)?;
    match collected.nothing_to(paths, work.verb()) {
        Some(message) => Err(message),
        None => Ok(collected),
    }
}

/// What a batch did: an outcome per input, and the files it passed over.
pub struct Batch {
    /// One outcome per input, in input order.
    pub outcomes: Vec<Outcome>,
    /// Files below the inputs that rigport does not read (companions aside).
    pub skipped: Vec<Skipped>,
}

/// What a batch prints of the files it passed over, in one write before its summary: with
/// `-v` a line per file on stderr, with `--json` a JSON line per file on stdout.
pub fn report_skipped(skipped: &[Skipped], verbose: bool, json: bool) {
    if json {
        let lines: String = skipped
            .iter()
            .map(|s| {
                let line = serde_json::json!({
                    "input": s.path.display().to_string(),
                    "skipped": s.reason,
                });
                format!("{line}\n")
            })
            .collect();
        print!("{lines}");
    } else if verbose {
        let lines: String = skipped
            .iter()
            .map(|s| format!("skipped {}: {}\n", s.path.display(), s.reason))
            .collect();
        eprint!("{lines}");
    }
}

/// Warnings and losses in a report: what the summary and a manifest line count (the
/// dataset crate's one rule).
pub use rigport_dataset::library::warning_count;

/// Whether any input of a batch failed.
pub fn any_failed(outcomes: &[Outcome]) -> bool {
    outcomes.iter().any(|o| o.result.is_err())
}

pub use rigport::batch::{Collected, Skipped, input_dir};

/// What happened to one input.
pub struct Outcome {
    /// The input file.
    pub input: PathBuf,
    /// Written outputs and warning count, or why it failed.
    pub result: Result<(Vec<PathBuf>, usize), String>,
}

/// Runs `convert` on every input in parallel, with a progress bar on a terminal and one
/// plain line per file otherwise (`quiet`: neither; failures are in the summary). Results
/// come back in input order.
pub fn run_parallel<F>(inputs: &[PathBuf], work: Work, quiet: bool, convert: F) -> Vec<Outcome>
where
    F: Fn(&Path) -> Result<(Vec<PathBuf>, usize), String> + Sync,
{
    let bar = if std::io::stderr().is_terminal() && !quiet {
        let bar = ProgressBar::new(inputs.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let plain = bar.is_hidden();
    let outcomes: Vec<Outcome> = inputs
        .par_iter()
        .map(|input| {
            let result = convert(input);
            if plain && !quiet {
                match &result {
                    Ok((outputs, _)) => {
                        for output in outputs {
                            eprintln!(
                                "{} {} -> {}",
                                work.done(),
                                input.display(),
                                output.display()
                            );
                        }
                    }
                    Err(message) => eprintln!("failed {}: {message}", input.display()),
                }
            } else {
                bar.set_message(input.display().to_string());
                bar.inc(1);
            }
            Outcome {
                input: input.clone(),
                result,
            }
        })
        .collect();
    bar.finish_and_clear();
    outcomes
}

/// The closing summary lines: the counts, what was skipped (by extension), then each
/// failure.
pub fn summary(outcomes: &[Outcome], skipped: &[Skipped], work: Work) -> String {
    let done = outcomes.iter().filter(|o| o.result.is_ok()).count();
    let warnings: usize = outcomes
        .iter()
        .filter_map(|o| o.result.as_ref().ok().map(|r| r.1))
        .sum();
    let failed: Vec<&Outcome> = outcomes.iter().filter(|o| o.result.is_err()).collect();
    let mut out = format!(
        "{done} {}, {} with warnings or losses ({warnings} in all), {} failed\n",
        work.done(),
        outcomes
            .iter()
            .filter(|o| o.result.as_ref().is_ok_and(|r| r.1 > 0))
            .count(),
        failed.len()
    );
    if let Some(line) = rigport::batch::skipped_summary(skipped) {
        out.push_str(&format!("{line}\n"));
    }
    for outcome in failed {
        if let Err(message) = &outcome.result {
            let first_line = message.lines().next().unwrap_or_default();
            out.push_str(&format!(
                "  failed {}: {first_line}\n",
                outcome.input.display()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_input_claims_a_shared_output_and_the_others_fail() {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["a", "b"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
            std::fs::write(dir.path().join(sub).join("x.iqe"), b"").unwrap();
        }
        std::fs::write(dir.path().join("y.ms3d"), b"").unwrap();
        let out = dir.path().join("out");
        let outcomes = run_into_dir(
            &[dir.path().to_path_buf()],
            &out,
            "png",
            Work::Render,
            true,
            |_, output| Ok((vec![output.to_path_buf()], 1)),
        )
        .unwrap();
        let results: Vec<Result<PathBuf, String>> = outcomes
            .outcomes
            .into_iter()
            .map(|o| o.result.map(|r| r.0[0].clone()))
            .collect();
        assert_eq!(results[0], Ok(out.join("x.png")));
        let clash = results[1].as_ref().unwrap_err();
        assert!(clash.contains("render one of them separately"), "{clash}");
        assert_eq!(results[2], Ok(out.join("y.png")));
        assert_eq!(input_dir(Path::new("m.iqe")), PathBuf::from("."));
        assert_eq!(input_dir(Path::new("d/m.iqe")), PathBuf::from("d"));
    }
}
