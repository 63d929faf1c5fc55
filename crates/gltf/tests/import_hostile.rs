//! Damaged input never panics: every truncation and a sweep of byte flips of each corpus
//! glTF give a value or an error (the full hostile sweep and the fuzz target live in the
//! facade; this is the crate's own smoke check).

use rigport_gltf::import::{GltfFile, ImportOptions, to_model};
use rigport_model_core::ReadOptions;
use std::path::Path;

fn try_import(bytes: &[u8], dir: Option<&Path>) {
    if let Ok((file, _)) = GltfFile::from_slice_with(bytes, &ReadOptions::default(), dir) {
        let _ = to_model(&file, &ImportOptions::default());
    }
}

#[test]
fn truncations_and_byte_flips_never_panic() {
    let Some(dir) = rigport_test_support::corpus::corpus_dir("gltf") else {
        return;
    };
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let dir = path.parent();
        let step = (bytes.len() / 400).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            try_import(&bytes[..cut], dir);
        }
        // Flips in the headers and JSON (where structure lives), then spread over the rest.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for k in 0..600 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let limit = if k < 400 {
                bytes.len().min(4096)
            } else {
                bytes.len()
            };
            let at = (state as usize) % limit;
            let mut damaged = bytes.clone();
            damaged[at] ^= 1 << ((state >> 60) % 8);
            try_import(&damaged, dir);
        }
    }
}
