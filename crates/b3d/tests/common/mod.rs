//! What the tests share: the corpus files and a plain chunk walker written from the format
//! description alone, independent of the crate's reader.
#![allow(dead_code)]

use std::path::PathBuf;

/// Every file of `$RIGPORT_CORPUS/<folder>`, sorted (`None` when the corpus is not set).
pub fn corpus(folder: &str) -> Option<Vec<PathBuf>> {
    let dir = rigport_test_support::corpus::corpus_dir(folder)?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "b3d"))
        .collect();
    files.sort();
    Some(files)
}

/// Counts a plain reading of a B3D file finds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub meshes: u64,
    pub vertices: u64,
    pub triangles: u64,
    pub tris_chunks: u64,
    pub bones: u64,
    pub keys: u64,
    pub brushes: u64,
}

fn int(b: &[u8], p: usize) -> i32 {
    i32::from_le_bytes(b[p..p + 4].try_into().unwrap())
}

/// Walks the chunks of `b` and counts; `Err(offset)` at the first chunk header that is
/// damaged (negative length, past its parent, not letters) or a record cut short.
pub fn plain_counts(b: &[u8]) -> Result<Counts, usize> {
    let mut c = Counts::default();
    walk(b, 0, b.len(), &mut c, true)?;
    Ok(c)
}

fn walk(b: &[u8], mut p: usize, end: usize, c: &mut Counts, top: bool) -> Result<(), usize> {
    while p < end {
        if end - p < 8 {
            return Err(p);
        }
        let tag = &b[p..p + 4];
        let len = int(b, p + 4);
        if len < 0 || p + 8 + len as usize > end || !tag.iter().all(|x| x.is_ascii_alphanumeric()) {
            return Err(p);
        }
        let (s, e) = (p + 8, p + 8 + len as usize);
        match tag {
            b"BB3D" if top => walk(b, s + 4, e, c, false)?,
            b"NODE" => {
                let name = b[s..e].iter().position(|&x| x == 0).ok_or(s)?;
                walk(b, s + name + 1 + 40, e, c, false)?
            }
            b"MESH" => {
                c.meshes += 1;
                walk(b, s + 4, e, c, false)?
            }
            b"VRTS" => {
                let (f, n, k) = (int(b, s), int(b, s + 4), int(b, s + 8));
                let size = 12 + 12 * (f & 1) + 16 * ((f >> 1) & 1) + 4 * n * k;
                c.vertices += ((len - 12) / size) as u64;
            }
            b"TRIS" => {
                c.tris_chunks += 1;
                c.triangles += ((len - 4) / 12) as u64;
            }
            b"BONE" => c.bones += 1,
            b"KEYS" => c.keys += 1,
            b"BRUS" => {
                let n = int(b, s) as usize;
                let mut q = s + 4;
                while q < e {
                    let name = b[q..e].iter().position(|&x| x == 0).ok_or(q)?;
                    q += name + 1 + 28 + 4 * n;
                    c.brushes += 1;
                }
            }
            _ => {}
        }
        p = e;
    }
    Ok(())
}
