//! Throughput of glTF export and of whole conversions to `.glb` through the library
//! (bytes in, glb bytes out, nothing written to disk), for one big input of each format.
//! Run `cargo xtask bench-data` first; without it smaller inputs are generated in process.

use criterion::{Criterion, Throughput};
use rigport::Format;
use rigport::document::Document;
use rigport::pipeline::{Settings, convert};
use rigport_gltf::export::{ExportOptions, to_glb};
use std::hint::black_box;
use std::path::Path;

use rigport_test_support::{bench_main, synth};

/// The inputs: a name for the bench and the bytes.
fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let dir = env!("CARGO_MANIFEST_DIR");
    vec![
        (
            "ms3d limits",
            synth::load_or_generate(dir, "limits.ms3d", || synth::ms3d(&synth::small_ms3d())),
        ),
        (
            "iqe 10 MB",
            synth::load_or_generate(dir, "big10.iqe", || synth::iqe(&synth::text_rig(1))),
        ),
        (
            "ms3d-ascii 10 MB",
            synth::load_or_generate(dir, "big10.txt", || synth::ms3d_ascii(&synth::text_rig(1))),
        ),
    ]
}

fn glb(c: &mut Criterion) {
    let settings = Settings::default();
    for (name, bytes) in inputs() {
        let (document, _) =
            Document::sniff_and_read(&bytes, &settings.read).expect("the bench input reads");
        let (model, _) = document.to_model().expect("the bench input converts");
        let options = ExportOptions::default();
        let (glb, _) = to_glb(&model, &options).expect("the bench input exports as glb");
        let glb_len = glb.len();

        let mut group = c.benchmark_group(format!("glb/{name}"));
        group.throughput(Throughput::Bytes(glb_len as u64));
        group.bench_function("export (model to glb)", |b| {
            b.iter(|| to_glb(black_box(&model), &options))
        });
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("convert (file bytes to glb)", |b| {
            b.iter(|| {
                convert(
                    black_box(&bytes),
                    Path::new("out.glb"),
                    Format::Glb,
                    &settings,
                )
            })
        });
        group.finish();
    }
}

bench_main!(glb);
