//! Helpers shared by the integration tests. Nothing here uses the crate's parser, so the
//! tests compare the reader against an independent reading of the same bytes.
#![allow(dead_code)]

use std::path::PathBuf;

use rigport_test_support::corpus;

/// `$RIGPORT_CORPUS/ms3d-ascii`, or `None` (after saying so) when the variable is unset.
pub fn corpus_dir() -> Option<PathBuf> {
    corpus::corpus_dir("ms3d-ascii")
}

/// Every `.txt` file of a folder, sorted.
pub fn txt_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

/// The fixture folder of this format.
pub fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/ms3d-ascii")
}

/// One token of the content comparison: numbers compare as `f32`, the rest as bytes.
#[derive(Debug, PartialEq)]
pub enum Tok {
    Num(f32),
    Text(Vec<u8>),
}

/// The content of a file as the crate docs define it: lines without endings and
/// surrounding blanks, no blank or `//` lines, cut at `//` outside quotes, tokens split at
/// blanks with a quoted string as one token, numbers as `f32`.
pub fn content(bytes: &[u8]) -> Vec<Vec<Tok>> {
    lines(bytes)
        .into_iter()
        .map(|line| tokens(&line))
        .filter(|t| !t.is_empty())
        .collect()
}

fn tokens(line: &[u8]) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if line[i..].starts_with(b"//") {
            break;
        } else if b == b'"' {
            let end = line[i + 1..]
                .iter()
                .position(|&c| c == b'"')
                .map_or(line.len(), |p| i + 2 + p);
            out.push(Tok::Text(line[i..end].to_vec()));
            i = end;
        } else {
            let end = line[i..]
                .iter()
                .position(|c| c.is_ascii_whitespace())
                .map_or(line.len(), |p| i + p);
            let word = &line[i..end];
            let num = std::str::from_utf8(word)
                .ok()
                .and_then(|s| s.parse::<f32>().ok());
            out.push(match num {
                Some(v) => Tok::Num(v),
                None => Tok::Text(word.to_vec()),
            });
            i = end;
        }
    }
    out
}

/// Non-blank, non-comment lines, trimmed.
pub fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii().to_vec())
        .filter(|l| !l.is_empty() && !l.starts_with(b"//"))
        .collect()
}

/// Counts found by walking the lines with the format's layout, independent of the crate.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub meshes: u64,
    pub vertices: u64,
    pub normals: u64,
    pub triangles: u64,
    pub materials: u64,
    pub bones: u64,
    pub keys: u64,
    pub frames: u64,
    pub blocks: Vec<String>,
}

fn number(line: &[u8]) -> usize {
    std::str::from_utf8(line).unwrap().trim().parse().unwrap()
}

/// Walks a sound file's lines: a header `Word: N`, then the block's fixed layout.
pub fn count_lines(bytes: &[u8]) -> Counts {
    let lines = lines(bytes);
    let mut c = Counts::default();
    let mut i = 0;
    while i < lines.len() {
        let line = std::str::from_utf8(&lines[i]).unwrap();
        let (word, n) = line.split_once(':').unwrap();
        let n: usize = n.trim().parse().unwrap();
        c.blocks.push(word.to_owned());
        i += 1;
        match word {
            "Frames" => c.frames = n as u64,
            "Meshes" => {
                c.meshes = n as u64;
                for _ in 0..n {
                    i += 1; // name line
                    for total in [&mut c.vertices, &mut c.normals, &mut c.triangles] {
                        let k = number(&lines[i]);
                        *total += k as u64;
                        i += 1 + k;
                    }
                }
            }
            "Materials" => {
                c.materials = n as u64;
                i += 9 * n;
            }
            "Bones" => {
                c.bones = n as u64;
                for _ in 0..n {
                    i += 3;
                    for _ in 0..2 {
                        let k = number(&lines[i]);
                        c.keys += k as u64;
                        i += 1 + k;
                    }
                }
            }
            // Frame has no data lines; unknown blocks run to the next header line.
            _ => {
                while i < lines.len() && !is_header(&lines[i]) {
                    i += 1;
                }
            }
        }
    }
    c
}

fn is_header(line: &[u8]) -> bool {
    line.first().is_some_and(u8::is_ascii_uppercase) && line.contains(&b':')
}
