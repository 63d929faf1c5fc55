//! Shared by the integration tests: the corpus files, read by name, and a plain reading of
//! the section headers that uses nothing of the crate.
#![allow(dead_code)]

use std::path::Path;

/// `(file name, bytes)` of every file of `$RIGPORT_CORPUS/<folder>`, sorted; empty (after
/// saying so) when `RIGPORT_CORPUS` is not set.
pub fn corpus(folder: &str) -> Vec<(String, Vec<u8>)> {
    let Some(dir) = rigport_test_support::corpus::corpus_dir(folder) else {
        return Vec::new();
    };
    files(&dir)
}

pub fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// One section header read with `from_le_bytes` alone: name, record size, count, where
/// its records start.
pub struct Header {
    pub name: String,
    pub size: usize,
    pub count: usize,
    pub body: usize,
}

/// Every section header of a sound file, walking `32 + size × count` at a time.
pub fn headers(bytes: &[u8]) -> Vec<Header> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 32 <= bytes.len() {
        let id = &bytes[at..at + 20];
        let end = id.iter().position(|&b| b == 0).unwrap_or(20);
        let int = |k: usize| i32::from_le_bytes(bytes[at + k..at + k + 4].try_into().unwrap());
        let (size, count) = (int(24) as usize, int(28) as usize);
        out.push(Header {
            name: String::from_utf8_lossy(&id[..end]).into_owned(),
            size,
            count,
            body: at + 32,
        });
        at += 32 + size * count;
    }
    out
}

/// The count of the first section with one of `names`, 0 without one.
pub fn count(headers: &[Header], names: &[&str]) -> usize {
    headers
        .iter()
        .find(|h| names.contains(&h.name.as_str()))
        .map_or(0, |h| h.count)
}

/// The `i32` at `at`.
pub fn int(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}
