//! An independent reading of SMD text for the tests: a line scan that knows blocks,
//! comments and material lines and nothing else, for counts and content comparison.

#![allow(dead_code)]

use std::path::PathBuf;

/// Every file of `$RIGPORT_CORPUS/<dir>`, sorted, or `None` when the variable is unset.
pub fn corpus(dir: &str) -> Option<Vec<PathBuf>> {
    let dir = rigport_test_support::corpus::corpus_dir(dir)?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    Some(files)
}

/// Counts a plain scan finds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub nodes: u64,
    pub frames: u64,
    pub triangles: u64,
}

fn is_comment(line: &str) -> bool {
    line.starts_with("//") || line.starts_with('#') || line.starts_with(';')
}

/// What each non-blank line is: `(block, index of the data line within the block, text)`.
fn lines(text: &str) -> Vec<(&'static str, usize, &str)> {
    let mut out = Vec::new();
    let mut block = "";
    let mut index = 0;
    for raw in text.split('\n') {
        let line = raw.trim_matches([' ', '\t', '\r']);
        if line.is_empty() {
            continue;
        }
        if is_comment(line) {
            out.push(("comment", 0, line));
            continue;
        }
        let word = line.split_whitespace().next().unwrap_or("");
        if block.is_empty() {
            block = match word {
                "nodes" => "nodes",
                "skeleton" => "skeleton",
                "triangles" => "triangles",
                "vertexanimation" => "vertexanimation",
                "version" => "",
                _ => "unknown",
            };
            index = 0;
            out.push(("top", 0, line));
            continue;
        }
        if word == "end" && line.split_whitespace().count() == 1 {
            block = "";
            out.push(("top", 0, line));
            continue;
        }
        out.push((block, index, line));
        index += 1;
    }
    out
}

/// The counts of a scan: node lines, `time` lines of `skeleton`, material lines.
pub fn counts(text: &str) -> Counts {
    let mut counts = Counts::default();
    for (block, index, line) in lines(text) {
        match block {
            "nodes" => counts.nodes += 1,
            "skeleton" if line.starts_with("time") => counts.frames += 1,
            "triangles" if index % 4 == 0 => counts.triangles += 1,
            _ => {}
        }
    }
    counts
}

/// A field of the content definition.
#[derive(Debug)]
pub enum Field {
    Number(f32),
    Text(String),
}

impl PartialEq for Field {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Field::Number(a), Field::Number(b)) => a.to_bits() == b.to_bits(),
            (Field::Text(a), Field::Text(b)) => a == b,
            _ => false,
        }
    }
}

fn fields_of(line: &str, out: &mut Vec<Field>) {
    let mut rest = line;
    loop {
        rest = rest.trim_start_matches([' ', '\t', '\r']);
        if rest.is_empty() {
            return;
        }
        if is_comment(rest) {
            out.push(Field::Text(rest.trim_end().to_owned()));
            return;
        }
        if let Some(after) = rest.strip_prefix('"') {
            let close = after.find('"').expect("closed quote");
            out.push(Field::Text(format!("\"{}\"", &after[..close])));
            rest = &after[close + 1..];
            continue;
        }
        let end = rest.find([' ', '\t', '\r']).unwrap_or(rest.len());
        let word = &rest[..end];
        out.push(match word.parse::<f32>() {
            Ok(n) => Field::Number(n),
            Err(_) => Field::Text(word.to_owned()),
        });
        rest = &rest[end..];
    }
}

/// The content of a file: its fields in order, one list per non-blank line.
pub fn content(text: &str) -> Vec<Vec<Field>> {
    lines(text)
        .into_iter()
        .map(|(block, index, line)| {
            let mut fields = Vec::new();
            if block == "comment" || (block == "triangles" && index % 4 == 0) {
                fields.push(Field::Text(line.to_owned()));
            } else {
                fields_of(line, &mut fields);
            }
            fields
        })
        .collect()
}
