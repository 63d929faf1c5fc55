//! The project's text describes the code and its behaviour, never how or by whom it was made.
//! This test reads every `.md`, `.rs`, `.py`, `.toml` and `.txt` file of the workspace (not
//! `fixtures/`, which holds inputs, nor build output) and fails on words that tell the
//! story of the work instead: work sessions, waves, engineers, "the lead", rounds, agents,
//! and issue numbers (`issue 12`, `issue #12`, `(#12)`).
//!
//! Legitimate uses stay legal because the patterns are narrow: an animation named `"wave"`,
//! `Wavefront OBJ`, "the leading digit", `skin #2.bmp`, `{:#04x}` and `#[derive]` do not
//! match. A line that must use one of the words for what the code does goes in [`ALLOWED`].

use std::path::{Path, PathBuf};

/// Extensions of the text files checked.
const EXTENSIONS: [&str; 5] = ["md", "rs", "py", "toml", "txt"];

/// Directories never read: inputs (`fixtures/` at the root), build output and tool caches.
const SKIPPED_DIRS: [&str; 5] = [
    ".git",
    "target",
    "node_modules",
    "bench-data",
    "__pycache__",
];

/// Lines allowed to use a flagged word, as (path from the root, text the line contains).
const ALLOWED: [(&str, &str); 0] = [];

/// This file names the words it looks for.
const THIS_FILE: &str = "xtask/src/project_text.rs";

/// Whether `text[at..]` starts a word (the character before is not a letter or digit).
fn starts_word(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_none_or(|c| !c.is_alphanumeric())
}

/// Whether the word ending at `end` ends there (the character after is not a letter).
fn ends_word(text: &str, end: usize) -> bool {
    text[end..]
        .chars()
        .next()
        .is_none_or(|c| !c.is_alphabetic())
}

/// Every start of `needle` in `text`.
fn starts<'a>(text: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(needle).map(|(i, _)| i)
}

/// Whether `rest` is optional spaces, an optional `#`, then a digit.
fn number_follows(rest: &str) -> bool {
    let rest = rest.trim_start();
    let rest = rest.strip_prefix('#').unwrap_or(rest);
    rest.starts_with(|c: char| c.is_ascii_digit())
}

/// The first making-of phrase in `line`, if any.
fn making_of(line: &str) -> Option<&'static str> {
    let lower = line.to_lowercase();
    let text = lower.as_str();
    if text.contains("session") {
        return Some("session");
    }
    if text.contains("engineer") {
        return Some("engineer");
    }
    for at in starts(text, "the lead") {
        if starts_word(text, at) && ends_word(text, at + "the lead".len()) {
            return Some("the lead");
        }
    }
    for at in starts(text, "wave") {
        let rest = &text[at + 4..];
        if starts_word(text, at)
            && (rest.starts_with('s') && ends_word(rest, 1) || number_follows(rest))
        {
            return Some("wave");
        }
    }
    for at in starts(text, "round") {
        let rest = &text[at + 5..];
        let this = text[..at].ends_with("this ");
        if starts_word(text, at) && ends_word(text, at + 5) && (this || number_follows(rest)) {
            return Some("round");
        }
    }
    for at in starts(text, "agent") {
        let end = at + 5 + usize::from(text[at + 5..].starts_with('s'));
        if starts_word(text, at) && ends_word(text, end) {
            return Some("agent");
        }
    }
    for at in starts(text, "issue") {
        let rest = &text[at + 5..];
        let rest = rest.strip_prefix('s').unwrap_or(rest);
        if starts_word(text, at) && number_follows(rest) {
            return Some("issue number");
        }
    }
    for at in starts(text, "(#") {
        if text[at + 2..].starts_with(|c: char| c.is_ascii_digit()) {
            return Some("issue number");
        }
    }
    None
}

/// Every checked file below `dir`.
fn text_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            let inputs = dir == root && name == "fixtures";
            if !inputs && !SKIPPED_DIRS.contains(&name.as_ref()) {
                text_files(root, &path, out);
            }
        } else if path
            .extension()
            .is_some_and(|e| EXTENSIONS.iter().any(|x| e.eq_ignore_ascii_case(x)))
        {
            out.push(path);
        }
    }
}

#[test]
fn the_projects_text_says_what_the_code_does_not_how_it_was_made() {
    let root = crate::project_root();
    let mut files = Vec::new();
    text_files(&root, &root, &mut files);
    files.sort();
    assert!(
        files.len() > 100,
        "only {} text files found below {}",
        files.len(),
        root.display()
    );
    let mut hits = Vec::new();
    for path in &files {
        let relative = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        if relative == THIS_FILE {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            let allowed = ALLOWED
                .iter()
                .any(|(file, part)| *file == relative && line.contains(part));
            if let Some(word) = making_of(line).filter(|_| !allowed) {
                hits.push(format!("{relative}:{}: {word}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "text that tells how the project was made (say what the code does instead):\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_patterns_catch_the_story_and_leave_the_code_alone() {
    for flagged in [
        "Re-measured in session 5",
        "two sessions ago",
        "IQM v2 binary (wave 2)",
        "## 9. Wave 2: what the new parts must respect",
        "tasks come in waves",
        "while four other engineers built",
        "The lead re-measures on a quiet machine.",
        "the system allocator (issue 16)",
        "issue #12",
        "see issues 3 and 4",
        "Issue 12 parts 3 and 4",
        "fixed in (#15)",
        "this round adds",
        "measured in round 2",
        "another agent changed it",
    ] {
        assert!(making_of(flagged).is_some(), "not flagged: {flagged}");
    }
    for fine in [
        "Wavefront OBJ + MTL export",
        "animation \"wave\"",
        "Animation::new(\"wave\", 24.0)",
        "The leading digit stands for 10^(d − 1 − f).",
        "C:\\Art Work\\skin #2.bmp",
        "fm 1 #2 3",
        "found chunk type {chunk_type:#010x}",
        "#[derive(Clone, Debug)]",
        "round trips are byte-identical",
        "rounds to whole percents; round(x)",
        "report[\"issues\"][\"numErrors\"]",
        "a round-trip of 2 files",
        "agentic",
        "Helpers shared by the integration tests",
    ] {
        assert_eq!(making_of(fine), None, "flagged: {fine}");
    }
}
