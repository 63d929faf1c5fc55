//! Speed of one picture and of a contact sheet of a 60 000-triangle skinned, animated model,
//! and of encoding them as PNG.

use criterion::{Criterion, Throughput, criterion_main};
use rigport_render::image;
use rigport_render::{NoTextures, PoseAt, RenderOptions, View, encode_png, render, render_sheet};
use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;

use rigport_test_support::synth::sphere::{self, sphere};

fn bench(c: &mut Criterion) {
    let model = sphere(174);
    assert!(model.triangle_count() >= 60_000);
    let mut group = c.benchmark_group("render");
    group.throughput(Throughput::Elements(model.triangle_count() as u64));
    for view in [View::Iso, View::Front] {
        let options = RenderOptions {
            view,
            pose: PoseAt::Animation {
                index: 0,
                time: 0.5,
            },
            ..RenderOptions::default()
        };
        group.bench_function(format!("512x512 60k triangles {view}"), |b| {
            b.iter(|| render(black_box(&model), &options, &NoTextures).unwrap())
        });
    }
    let wire = RenderOptions {
        wire: true,
        ..RenderOptions::default()
    };
    group.bench_function("512x512 60k triangles iso wire", |b| {
        b.iter(|| render(black_box(&model), &wire, &NoTextures).unwrap())
    });
    // A 256x256 checker texture wrapped once around the sphere (nearest-texel sampling).
    let textured = sphere::textured(174);
    let checker = image::RgbaImage::from_fn(256, 256, |x, y| {
        let on = (x / 16 + y / 16) % 2 == 0;
        image::Rgba(if on {
            [230, 200, 40, 255]
        } else {
            [40, 60, 200, 255]
        })
    });
    let textures = HashMap::from([("skin.png".to_owned(), Arc::new(checker))]);
    group.bench_function("512x512 60k triangles iso textured", |b| {
        b.iter(|| render(black_box(&textured), &RenderOptions::default(), &textures).unwrap())
    });
    group.sample_size(10);
    group.bench_function("sheet 16 x 512x512 60k triangles", |b| {
        b.iter(|| {
            render_sheet(
                black_box(&model),
                &RenderOptions::default(),
                16,
                &NoTextures,
            )
            .unwrap()
        })
    });
    group.finish();

    // What `rigport render` adds after drawing: the PNG of a picture and of a sheet.
    let mut png = c.benchmark_group("png");
    let one = render(&model, &RenderOptions::default(), &NoTextures).unwrap();
    png.bench_function("encode 512x512", |b| {
        b.iter(|| encode_png(black_box(&one.image)).unwrap())
    });
    png.sample_size(10);
    let sheet = render_sheet(&model, &RenderOptions::default(), 16, &NoTextures).unwrap();
    png.bench_function("encode sheet 2048x2048", |b| {
        b.iter(|| encode_png(black_box(&sheet.image)).unwrap())
    });
    png.finish();
}

/// Criterion's generated entry point, kept private so it needs no docs.
mod entry {
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(entry::benches);
