//! `cargo xtask bench-data`: writes the large deterministic bench inputs into `bench-data/`
//! at the workspace root (ignored by git). The generators live in [`crate::synth`], which the
//! criterion benches share.

use crate::synth;

use std::time::Instant;

/// Writes every input of [`synth::inputs`], skipping files that already hold the same bytes.
pub fn run() -> Result<(), String> {
    let dir = synth::bench_data_dir(env!("CARGO_MANIFEST_DIR"));
    for (name, generate) in synth::inputs() {
        let started = Instant::now();
        let bytes = generate();
        let path = dir.join(&name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        if std::fs::read(&path).ok().as_deref() == Some(bytes.as_slice()) {
            println!("up to date  {:>8.1} MB  bench-data/{name}", mb(bytes.len()));
            continue;
        }
        std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        println!(
            "wrote       {:>8.1} MB  bench-data/{name}  ({:.1} s)",
            mb(bytes.len()),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}
