//! One render (or one contact sheet) of the benchmark model, for instruction counts:
//! `valgrind --tool=callgrind target/release/examples/profile [one|front|textured|sheet|one-png|sheet-png] [OUT.png]`
//! (`-png`: also encode the picture),
//! and `profile compare A.png B.png` counts the pixels two pictures differ in.
//! Criterion's loops make counts depend on timing; this runs the work exactly once.

use rigport_render::{NoTextures, PoseAt, RenderOptions, View, render, render_sheet};

use rigport_test_support::synth::sphere;

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "one".to_owned());
    if what == "compare" {
        return compare();
    }
    let model = sphere::sphere(174);
    let pose = PoseAt::Animation {
        index: 0,
        time: 0.5,
    };
    let options = RenderOptions {
        pose,
        ..RenderOptions::default()
    };
    let picture = match what.as_str() {
        "one" => render(&model, &options, &NoTextures),
        "front" => render(
            &model,
            &RenderOptions {
                view: View::Front,
                ..options
            },
            &NoTextures,
        ),
        "sheet" | "sheet-png" => render_sheet(&model, &RenderOptions::default(), 16, &NoTextures),
        "one-png" => render(&model, &options, &NoTextures),
        "textured" => {
            let checker = rigport_render::image::RgbaImage::from_fn(256, 256, |x, y| {
                let on = (x / 16 + y / 16) % 2 == 0;
                rigport_render::image::Rgba(if on {
                    [230, 200, 40, 255]
                } else {
                    [40, 60, 200, 255]
                })
            });
            let textures = std::collections::HashMap::from([(
                "skin.png".to_owned(),
                std::sync::Arc::new(checker),
            )]);
            render(&sphere::textured(174), &options, &textures)
        }
        other => panic!("unknown case {other}: one, front, textured, sheet, one-png or sheet-png"),
    }
    .expect("the benchmark model draws");
    if what.ends_with("-png") {
        let png = rigport_render::encode_png(&picture.image).expect("the picture encodes");
        println!("{} bytes of PNG", png.len());
    }
    // An optional second argument saves the picture, to compare pixels across changes.
    if let Some(path) = std::env::args().nth(2) {
        picture.image.save(&path).expect("the picture saves");
    }
    println!("{:?}", picture.image.dimensions());
}

/// Prints how many pixels of two pictures differ at all, and by more than the goldens'
/// tolerance of 8 levels.
fn compare() {
    let open = |i: usize| {
        let path = std::env::args().nth(i).expect("compare A.png B.png");
        rigport_render::image::open(&path)
            .expect("a picture")
            .into_rgba8()
    };
    let (a, b) = (open(2), open(3));
    assert_eq!(a.dimensions(), b.dimensions());
    let (mut any, mut over, mut most) = (0, 0, 0);
    for (p, q) in a.pixels().zip(b.pixels()) {
        let d =
            p.0.iter()
                .zip(q.0)
                .map(|(x, y)| x.abs_diff(y))
                .max()
                .unwrap_or(0);
        any += usize::from(d > 0);
        over += usize::from(d > 8);
        most = most.max(d);
    }
    let total = a.width() * a.height();
    println!("{any} of {total} pixels differ, {over} by more than 8 levels, at most {most}");
}
