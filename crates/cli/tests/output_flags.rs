//! One voice on the command line: every subcommand takes `-q` (errors only), `-v` (every
//! note) and `--json` (one JSON object per file), and exits 0 when all went well, 1 on bad
//! input or a failed step, 2 on a wrong command line.

mod common;

use common::rigport;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const GOOD: &str = "fixtures/ms3d/rig_full.ms3d";
const BAD: &str = "fixtures/ms3d/fail_truncated_core.ms3d";

/// The arguments of `command` on `input`, writing into `dir` where it writes.
fn args(command: &str, input: &str, dir: &std::path::Path) -> Vec<String> {
    let mut args = vec![command.to_owned(), input.to_owned()];
    let stem = std::path::Path::new(input)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    match command {
        "convert" => args.push(
            dir.join(format!("{stem}.iqe"))
                .to_string_lossy()
                .into_owned(),
        ),
        "render" => {
            args.push(
                dir.join(format!("{stem}.png"))
                    .to_string_lossy()
                    .into_owned(),
            );
            args.extend(["--size".to_owned(), "16x16".to_owned()]);
        }
        _ => {}
    }
    args
}

fn run(command: &str, input: &str, flag: Option<&str>) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let mut args = args(command, input, dir.path());
    args.extend(flag.map(str::to_owned));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    rigport(&refs)
}

#[test]
fn every_subcommand_takes_the_three_switches_with_one_meaning() {
    for command in ["info", "convert", "validate", "render"] {
        // Default: something on standard output, exit 0.
        let plain = run(command, GOOD, None);
        assert_eq!(
            plain.status.code(),
            Some(0),
            "{command}: {}",
            text(&plain.stderr)
        );
        assert!(!plain.stdout.is_empty(), "{command} printed nothing");

        // Quiet: nothing at all for a good file; the error (only) for a bad one, exit 1.
        let quiet = run(command, GOOD, Some("-q"));
        assert_eq!(quiet.status.code(), Some(0), "{command} -q");
        assert!(
            quiet.stdout.is_empty() && quiet.stderr.is_empty(),
            "{command} -q: {}{}",
            text(&quiet.stdout),
            text(&quiet.stderr)
        );
        let quiet_bad = run(command, BAD, Some("--quiet"));
        assert_eq!(
            quiet_bad.status.code(),
            Some(1),
            "{command} -q on bad input"
        );
        let said = format!("{}{}", text(&quiet_bad.stdout), text(&quiet_bad.stderr));
        assert!(
            said.contains("byte"),
            "{command} -q: the error is said: {said}"
        );
        assert!(!said.contains("warning"), "{command} -q: {said}");

        // Verbose: at least what the default says.
        let verbose = run(command, GOOD, Some("-v"));
        assert_eq!(verbose.status.code(), Some(0), "{command} -v");
        assert!(
            verbose.stdout.len() >= plain.stdout.len(),
            "{command} -v says less than the default"
        );

        // JSON: one object per line, for a good file and for a bad one.
        for (input, code) in [(GOOD, 0), (BAD, 1)] {
            let json = run(command, input, Some("--json"));
            assert_eq!(json.status.code(), Some(code), "{command} --json {input}");
            let lines = text(&json.stdout);
            assert!(
                !lines.trim().is_empty(),
                "{command} --json {input}: no output"
            );
            for line in lines.lines() {
                let value: serde_json::Value = serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("{command} --json: {e}: {line}"));
                assert!(value.is_object(), "{command}: {line}");
                if code == 1 && command != "validate" {
                    assert!(value["error"].is_string(), "{command}: {line}");
                }
            }
        }

        // Usage errors: 2, whatever the command.
        let both = run(command, GOOD, Some("-qv"));
        assert_eq!(both.status.code(), Some(2), "{command} -q -v");
        let unknown = run(command, GOOD, Some("--frobnicate"));
        assert_eq!(unknown.status.code(), Some(2), "{command} --frobnicate");
    }
}

#[test]
fn render_reports_what_changes_the_picture_not_conversion_losses() {
    // A MilkShape file converted to the model reports notes and losses (comments, joint
    // flags…); a picture of it has nothing to say about them unless asked.
    let plain = run("render", GOOD, None);
    let verbose = run("render", GOOD, Some("-v"));
    let plain = text(&plain.stdout);
    let verbose = text(&verbose.stdout);
    assert!(plain.starts_with("wrote "), "{plain}");
    assert!(
        !plain.contains("  loss: ") && !plain.contains("  info: "),
        "the default names only warnings: {plain}"
    );
    assert!(
        verbose.lines().count() > plain.lines().count(),
        "-v lists the notes the default leaves out:\n{verbose}"
    );
    // An unknown animation changes the picture: an error, exit 1.
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("x.png");
    let run = rigport(&[
        "render",
        GOOD,
        png.to_str().unwrap(),
        "--anim",
        "no-such-animation",
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        text(&run.stderr).contains("no-such-animation"),
        "{}",
        text(&run.stderr)
    );
}

#[test]
fn batch_runs_take_the_switches_too() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["convert", "render"] {
        let out = dir.path().join(command);
        let mut args = vec![command, GOOD, BAD, "-o", out.to_str().unwrap(), "--json"];
        if command == "convert" {
            args.extend(["--to", "iqe"]);
        }
        let run = rigport(&args);
        assert_eq!(run.status.code(), Some(1), "{command}: one input fails");
        let values: Vec<serde_json::Value> = text(&run.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(values.len(), 2, "{command}: one line per input");
        assert_eq!(values.iter().filter(|v| v["error"].is_string()).count(), 1);
        assert_eq!(values.iter().filter(|v| v["outputs"].is_array()).count(), 1);
    }
}
