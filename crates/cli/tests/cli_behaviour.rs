//! The `rigport` binary's contract: exit codes, overwrite rules, batch mode, posed OBJ.

mod common;

use common::{repo_root, rigport};
use std::path::Path;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn s(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(rigport(&["convert", "a.ms3d"]).status.code(), Some(2));
    assert_eq!(rigport(&["convert", "a", "b", "c"]).status.code(), Some(2));
    assert_eq!(rigport(&["frobnicate"]).status.code(), Some(2));
    let out = rigport(&[
        "convert",
        "fixtures/ms3d/rig_full.ms3d",
        "/tmp/rigport-out.unknown",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--to"), "{}", text(&out.stderr));
}

#[test]
fn bad_input_exits_1_naming_file_and_offset() {
    let out = rigport(&["info", "fixtures/ms3d/fail_truncated_core.ms3d"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("fail_truncated_core.ms3d") && err.contains("byte"),
        "{err}"
    );
}

#[test]
fn same_format_copy_is_byte_identical_and_overwrites_need_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("copy.ms3d");
    let input = "fixtures/ms3d/rig_full.ms3d";
    let first = rigport(&["convert", input, &s(&out)]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(repo_root().join(input)).unwrap()
    );
    let again = rigport(&["convert", input, &s(&out)]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again.stderr).contains("--force"));
    assert_eq!(
        rigport(&["convert", input, &s(&out), "--force"])
            .status
            .code(),
        Some(0)
    );
    // The input itself is never overwritten, even with --force.
    let copy = dir.path().join("input.ms3d");
    std::fs::copy(repo_root().join(input), &copy).unwrap();
    let onto_input = rigport(&["convert", &s(&copy), &s(&copy), "--force"]);
    assert_eq!(onto_input.status.code(), Some(1));
    assert!(text(&onto_input.stderr).contains("input"));
}

#[test]
fn batch_converts_the_rest_when_one_file_is_broken() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(inputs.join("nested")).unwrap();
    for (from, to) in [
        ("fixtures/ms3d/rig_full.ms3d", "rig.ms3d"),
        ("fixtures/iqe/poses.iqe", "nested/poses.iqe"),
        ("fixtures/ms3d-ascii/lf_skinned_quad.txt", "quad.txt"),
        ("fixtures/ms3d/fail_truncated_core.ms3d", "broken.ms3d"),
    ] {
        std::fs::copy(repo_root().join(from), inputs.join(to)).unwrap();
    }
    let out_dir = dir.path().join("out");
    let out = rigport(&["convert", &s(&inputs), "--to", "glb", "-o", &s(&out_dir)]);
    assert_eq!(out.status.code(), Some(1), "one input is broken");
    let err = text(&out.stderr);
    assert!(
        err.contains("3 converted") && err.contains("1 failed"),
        "{err}"
    );
    assert!(err.contains("broken.ms3d"), "{err}");
    for name in ["rig.glb", "poses.glb", "quad.glb"] {
        let bytes = std::fs::read(out_dir.join(name)).unwrap();
        assert_eq!(&bytes[..4], b"glTF", "{name}");
    }
    assert!(!out_dir.join("broken.glb").exists());
}

/// Parses the `v` lines of an OBJ file.
fn obj_positions(obj: &str) -> Vec<[f32; 3]> {
    obj.lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|rest| {
            let v: Vec<f32> = rest
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            [v[0], v[1], v[2]]
        })
        .collect()
}

#[test]
fn obj_export_is_posed_at_the_requested_time() {
    let dir = tempfile::tempdir().unwrap();
    let bind = dir.path().join("bind.obj");
    let posed = dir.path().join("posed.obj");
    let input = "fixtures/ms3d/rig_full.ms3d";
    assert_eq!(
        rigport(&["convert", input, &s(&bind)]).status.code(),
        Some(0)
    );
    let out = rigport(&["convert", input, &s(&posed), "--time", "1.0", "--anim", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bind_v = obj_positions(&std::fs::read_to_string(&bind).unwrap());
    let posed_v = obj_positions(&std::fs::read_to_string(&posed).unwrap());
    assert_eq!(bind_v.len(), posed_v.len());
    assert!(!bind_v.is_empty());
    assert_ne!(bind_v, posed_v, "the animation moves the model at 1 s");
    assert!(dir.path().join("posed.mtl").exists());
    let missing = rigport(&[
        "convert",
        input,
        &s(&dir.path().join("x.obj")),
        "--anim",
        "nope",
    ]);
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn validate_exits_1_on_errors_and_0_on_warnings() {
    let ok = rigport(&["validate", "fixtures/iqe/poses.iqe"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stdout));
    let bad = rigport(&[
        "validate",
        "--json",
        "fixtures/ms3d/tail_junk_after_model_extra.ms3d",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&bad.stdout).unwrap();
    assert_eq!(report["valid"], false);
    assert!(
        report["findings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("byte")
    );
}

#[test]
fn batch_inputs_with_the_same_stem_do_not_overwrite_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(inputs.join("a")).unwrap();
    std::fs::create_dir_all(inputs.join("b")).unwrap();
    std::fs::copy(
        repo_root().join("fixtures/iqe/poses.iqe"),
        inputs.join("a/x.iqe"),
    )
    .unwrap();
    std::fs::copy(
        repo_root().join("fixtures/iqe/polygons.iqe"),
        inputs.join("b/x.iqe"),
    )
    .unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&inputs, inputs.join("a/loop")).unwrap();
    let out_dir = dir.path().join("out");
    let out = rigport(&["convert", &s(&inputs), "--to", "glb", "-o", &s(&out_dir)]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("1 converted") && err.contains("1 failed"),
        "{err}"
    );
    assert!(err.contains("is also the output of"), "{err}");
    // The first input in sorted order owns x.glb: it is a/x.iqe's conversion.
    let bytes = std::fs::read(inputs.join("a/x.iqe")).unwrap();
    let expected = rigport::pipeline::convert(
        &bytes,
        Path::new("x.glb"),
        rigport::Format::Glb,
        &Default::default(),
    )
    .unwrap();
    assert_eq!(
        std::fs::read(out_dir.join("x.glb")).unwrap(),
        expected.files[0].1
    );
}

#[test]
fn companion_files_never_replace_the_output_and_pose_flags_need_obj() {
    let dir = tempfile::tempdir().unwrap();
    let input = "fixtures/ms3d/rig_full.ms3d";
    let mtl = dir.path().join("out.mtl");
    let out = rigport(&["convert", input, &s(&mtl), "--to", "obj"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("companion"));
    assert!(!mtl.exists());
    let glb = dir.path().join("posed.glb");
    let out = rigport(&["convert", input, &s(&glb), "--time", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(!glb.exists());
}

#[test]
fn convert_prints_warnings_and_a_count_by_default_every_notice_when_verbose() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = s(&dir.path().join(name));
        let mut args = vec!["convert", "fixtures/ms3d/rig_full.ms3d", out.as_str()];
        args.extend_from_slice(extra);
        let output = rigport(&args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        text(&output.stdout)
    };
    let verbose = run("v.glb", &["--verbose"]);
    let default = run("d.glb", &[]);
    let quiet = run("q.glb", &["--quiet"]);

    // --verbose: the written path and one line per notice, as the report holds them.
    let notices: Vec<&str> = verbose.lines().filter(|l| l.starts_with("  ")).collect();
    let count = |severity: &str| {
        let prefix = format!("  {severity}: ");
        notices.iter().filter(|l| l.starts_with(&prefix)).count()
    };
    let (losses, notes, warnings) = (count("loss"), count("info"), count("warning"));
    assert_eq!(losses + notes + warnings, notices.len(), "{verbose}");
    assert!(losses > 1, "the fixture loses something in glTF: {verbose}");

    // Default: the path, the warnings, and one line counting the rest.
    assert!(default.starts_with("wrote "), "{default}");
    let counted = match notes {
        0 => format!("  {losses} losses: --verbose lists them"),
        1 => format!("  {losses} losses, 1 note: --verbose lists them"),
        n => format!("  {losses} losses, {n} notes: --verbose lists them"),
    };
    assert_eq!(default.lines().last(), Some(counted.as_str()), "{default}");
    assert_eq!(default.lines().count(), 1 + warnings + 1, "{default}");

    // --quiet: nothing on stdout, and the file is still written.
    assert_eq!(quiet, "");
    assert!(dir.path().join("q.glb").is_file());
    assert!(
        rigport(&["convert", "a.ms3d", "b.glb", "-q", "-v"])
            .status
            .code()
            == Some(2)
    );
}

#[test]
fn a_mapped_input_converts_exactly_as_a_copied_one() {
    // 2 MB: past the 1 MiB from which `convert` maps its input instead of copying it.
    let iqe = rigport_test_support::synth::iqe(&rigport_test_support::synth::text_rig(2));
    assert!(iqe.len() as u64 > 1 << 20, "{} bytes", iqe.len());
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.iqe");
    std::fs::write(&input, &iqe).unwrap();
    let mut outputs = Vec::new();
    for (name, flags) in [("mapped.iqm", &[][..]), ("copied.iqm", &["--no-mmap"][..])] {
        let output = dir.path().join(name);
        let mut args = vec!["convert", "-q"];
        args.extend_from_slice(flags);
        let (input, output_arg) = (s(&input), s(&output));
        args.extend([input.as_str(), output_arg.as_str()]);
        let run = rigport(&args);
        assert!(run.status.success(), "{}", text(&run.stderr));
        outputs.push(std::fs::read(&output).unwrap());
    }
    assert!(outputs[0].len() > 100_000, "{} bytes", outputs[0].len());
    assert!(
        outputs[0] == outputs[1],
        "the mapped and copied inputs gave different files"
    );
}

/// What a user reads: every subcommand that reads models names, in `-h` and `--help`, exactly
/// the formats `rigport formats --json` says this build reads.
#[test]
fn every_reading_subcommand_help_names_every_readable_format() {
    let table: serde_json::Value =
        serde_json::from_slice(&rigport(&["formats", "--json"]).stdout).unwrap();
    let mut readable: Vec<String> = table
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, f)| f["reads"] == true)
        .map(|(key, _)| key.clone())
        .collect();
    readable.sort();
    assert!(readable.len() >= 9, "{readable:?}");
    for command in ["info", "convert", "validate", "render"] {
        for flag in ["-h", "--help"] {
            let out = rigport(&[command, flag]);
            let help = text(&out.stdout);
            let line = help
                .lines()
                .find_map(|l| l.split("Formats read: ").nth(1))
                .unwrap_or_else(|| panic!("rigport {command} {flag} names no formats:\n{help}"));
            let list = line
                .split(". ")
                .next()
                .unwrap_or(line)
                .trim_end_matches('.');
            let mut named: Vec<String> = list.split(", ").map(str::to_owned).collect();
            named.sort();
            assert_eq!(named, readable, "rigport {command} {flag}");
        }
    }
}
