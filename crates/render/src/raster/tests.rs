//! The target's own tests.
use super::resolve::{mean, select};
use super::*;

fn at(x: f32, y: f32, key: f32) -> Projected {
    Projected {
        x,
        y,
        key,
        inv_w: 1.0,
    }
}

fn flat(level: u8) -> impl Fn(Vec4) -> [u8; 4] {
    move |_| [level, level, level, 255]
}

const NONE: [Vec4; 3] = [Vec4::ZERO; 3];

#[test]
fn fills_both_windings_and_tests_depth() {
    let mut t = Target::new(8, 8, [0; 3]);
    // Lower-left half of the target, counter-clockwise on screen, far.
    t.whole().triangle(
        [at(0.0, 0.0, 0.1), at(0.0, 8.0, 0.1), at(8.0, 8.0, 0.1)],
        NONE,
        |_| [255, 0, 0, 255],
    );
    // The whole target, the other winding, nearer on the right only.
    t.whole().triangle(
        [at(0.0, 0.0, 0.0), at(16.0, 0.0, 0.5), at(0.0, 16.0, 0.0)],
        NONE,
        |_| [0, 255, 0, 255],
    );
    let img = t.resolve(false);
    // Bottom-left: the second triangle's nearness there (~0.02) is below the first's 0.1.
    assert_eq!(img.get_pixel(0, 3).0, [255, 0, 0, 255]);
    assert_eq!(img.get_pixel(3, 0).0, [0, 255, 0, 255]);
    assert!(t.covered(3, 3));
}

#[test]
fn attributes_are_interpolated_perspective_correctly() {
    // One corner far (1/w = 0.25), two near (1/w = 1): halfway across on screen, the
    // attribute is weighted towards the near corners.
    let mut corners = [at(0.0, 0.0, 1.0), at(64.0, 0.0, 1.0), at(0.0, 64.0, 0.25)];
    corners[2].inv_w = 0.25;
    let mut t = Target::new(64, 64, [0; 3]);
    t.whole().triangle(
        corners,
        [Vec4::ZERO, Vec4::ZERO, Vec4::new(255.0, 0.0, 0.0, 0.0)],
        levels,
    );
    let img = t.resolve(false);
    // Pixel (0, 16) is shaded at its centre, (1, 33) in samples: the weights there are
    // 0.48 (near) and 0.52 (far) with 1/w 1 and 0.25, so the far corner's share is
    // 0.52·0.25 / (0.48 + 0.52·0.25) ≈ 0.21.
    let red = f32::from(img.get_pixel(0, 16).0[0]) / 255.0;
    assert!((red - 0.210).abs() < 0.01, "{red}");
}

#[test]
fn bands_draw_what_the_whole_target_draws() {
    let triangles = [
        [at(3.0, -5.0, 0.2), at(70.0, 40.0, 0.9), at(-9.0, 90.0, 0.5)],
        [
            at(10.0, 10.0, 0.7),
            at(60.0, 12.0, 0.1),
            at(30.0, 63.5, 0.4),
        ],
        [at(0.0, 33.0, 0.6), at(64.0, 31.0, 0.6), at(32.0, 32.5, 0.6)],
    ];
    let draw = |bands: usize| {
        let mut t = Target::new(64, 100, [0; 3]);
        let mut parts = t.bands(bands);
        for (i, v) in triangles.iter().enumerate() {
            for band in &mut parts {
                band.triangle(*v, [Vec4::splat(40.0 * i as f32); 3], levels);
            }
        }
        drop(parts);
        t.resolve(false)
    };
    let whole = draw(1);
    assert!(whole.pixels().any(|p| p.0[0] == 40));
    for bands in [2, 3, 7, 100] {
        assert_eq!(draw(bands), whole, "{bands} bands");
    }
}

#[test]
fn narrow_and_wide_triangles_cover_exactly_the_samples_inside() {
    // Both fill paths (four columns at a time up to 8 columns, row spans beyond),
    // against barycentric weights computed in f64 at every sample centre.
    let cases = [
        [at(3.2, 1.1, 0.5), at(9.7, 4.0, 0.5), at(5.0, 13.6, 0.5)],
        [at(17.0, 2.0, 0.5), at(1.5, 9.3, 0.5), at(62.5, 30.2, 0.5)],
        [
            at(40.0, 60.0, 0.5),
            at(44.5, 33.3, 0.5),
            at(41.0, 34.0, 0.5),
        ],
    ];
    // And triangles of every size and shape, some reaching off the target.
    let mut seed = 0x2545_f491_u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed % 10_000) as f32 / 10_000.0 * 100.0 - 18.0
    };
    let random: Vec<[Projected; 3]> = (0..200)
        .map(|_| [(); 3].map(|_| at(next(), next(), 0.5)))
        .collect();
    for v in cases.into_iter().chain(random) {
        let mut t = Target::new(64, 64, [0; 3]);
        t.whole().triangle(v, NONE, flat(255));
        let p = v.map(|q| (f64::from(q.x), f64::from(q.y)));
        let edge = |s: (f64, f64), e: (f64, f64), x: f64, y: f64| {
            (e.0 - s.0) * (y - s.1) - (e.1 - s.1) * (x - s.0)
        };
        let area = edge(p[0], p[1], p[2].0, p[2].1);
        let length = |s: (f64, f64), e: (f64, f64)| libm::hypot(e.0 - s.0, e.1 - s.1);
        let mut inside = 0;
        for y in 0..64 {
            for x in 0..64 {
                let (cx, cy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
                // Signed distances from the three edges, positive inside.
                let d = [(1, 2), (2, 0), (0, 1)]
                    .map(|(i, j)| edge(p[i], p[j], cx, cy) / area.signum() / length(p[i], p[j]));
                let least = d.iter().copied().fold(f64::INFINITY, f64::min);
                let slack = f64::from(EDGE_SLACK);
                if least > 1e-3 {
                    inside += 1;
                    assert!(t.covered(x, y), "{v:?}: ({x}, {y}) is inside");
                } else if least < -slack - 1e-3 {
                    assert!(!t.covered(x, y), "{v:?}: ({x}, {y}) is outside");
                }
            }
        }
        assert!(inside > 10 || area.abs() < 2000.0, "{v:?}: {inside}");
    }
}

#[test]
fn degenerate_huge_and_nan_triangles_are_bounded() {
    let mut t = Target::new(4, 4, [9; 3]);
    t.whole().triangle([at(1.0, 1.0, 0.5); 3], NONE, flat(255));
    t.whole().triangle(
        [at(f32::NAN, 0.0, 0.5), at(1.0, 1.0, 0.5), at(2.0, 0.0, 0.5)],
        NONE,
        flat(255),
    );
    assert!(!(0..4).any(|y| (0..4).any(|x| t.covered(x, y))));
    // Coordinates whose area overflows are skipped (the camera never makes them).
    t.whole().triangle(
        [
            at(-3e38, -3e38, 0.5),
            at(3e38, -3e38, 0.5),
            at(0.0, 3e38, 0.5),
        ],
        NONE,
        flat(255),
    );
    assert!(!t.covered(2, 2));
    // A triangle reaching far off the target covers it, visiting only its 16 samples.
    t.whole().triangle(
        [at(-1e9, -1e9, 0.5), at(1e9, -1e9, 0.5), at(0.0, 1e9, 0.5)],
        [Vec4::NAN; 3],
        levels,
    );
    assert!(t.covered(2, 2));
    t.line(at(-1e9, 2.0, 1.0), at(1e9, 2.0, 1.0), [0; 3]);
    t.line(at(-3e38, 2.0, 1.0), at(3e38, 2.0, 1.0), [0; 3]);
    t.line(at(f32::NAN, 2.0, 1.0), at(3.0, 2.0, 1.0), [0; 3]);
    assert_eq!(t.resolve(false).get_pixel(0, 1).0, [0, 0, 0, 255]);
}

#[test]
fn a_reused_target_forgets_what_it_drew() {
    let fill = |t: &mut Target, corners: [Projected; 3], level: u8| {
        t.whole().triangle(corners, NONE, flat(level));
    };
    let lower_right = [at(16.0, 16.0, 0.5), at(8.0, 16.0, 0.5), at(16.0, 8.0, 0.5)];
    let mut t = Target::new(16, 16, [0; 3]);
    fill(
        &mut t,
        [at(0.0, 0.0, 0.5), at(8.0, 0.0, 0.5), at(0.0, 8.0, 0.5)],
        200,
    );
    t.line(at(0.0, 14.0, 1.0), at(16.0, 14.0, 1.0), [90; 3]);
    assert_eq!(t.resolve(false).get_pixel(0, 0).0, [200, 200, 200, 255]);
    assert_eq!(t.resolve(false).get_pixel(7, 7).0, [90, 90, 90, 255]);
    // Same size, another background: the triangle and the line are gone, the new
    // background shows everywhere, and a triangle elsewhere draws as on a fresh target.
    t.reset(16, 16, [7, 8, 9]);
    assert!((0..16).all(|y| (0..16).all(|x| !t.covered(x, y))));
    fill(&mut t, lower_right, 50);
    let mut fresh = Target::new(16, 16, [7, 8, 9]);
    fill(&mut fresh, lower_right, 50);
    assert_eq!(t.resolve(false), fresh.resolve(false));
    assert_eq!(t.resolve(false).get_pixel(0, 0).0, [7, 8, 9, 255]);
    // A picture resolved with clearing leaves nothing behind either, drawn in bands.
    fill(
        &mut t,
        [at(0.0, 0.0, 0.5), at(16.0, 0.0, 0.5), at(0.0, 16.0, 0.5)],
        120,
    );
    let cleared = t.resolve(true);
    assert_eq!(cleared.get_pixel(0, 0).0, [120, 120, 120, 255]);
    assert!((0..16).all(|y| (0..16).all(|x| !t.covered(x, y))));
    t.reset(16, 16, [7, 8, 9]);
    for band in t.bands(3) {
        let mut band = band;
        band.triangle(lower_right, NONE, flat(50));
    }
    assert_eq!(t.resolve(true), fresh.resolve(false));
    // A different size starts over.
    t.reset(4, 6, [1; 3]);
    assert_eq!(t.resolve(false).dimensions(), (2, 3));
    assert!(t.resolve(false).pixels().all(|p| p.0 == [1, 1, 1, 255]));
}

#[test]
fn the_mean_of_four_samples_rounds_each_channel() {
    let samples = [
        [255, 0, 10, 255],
        [255, 1, 11, 255],
        [0, 2, 12, 255],
        [1, 3, 13, 255],
    ];
    let background = u32::from_le_bytes([100, 100, 100, 255]);
    let all = mean(select(&samples, 0b1111, background));
    // (511 + 2) / 4 = 128, (6 + 2) / 4 = 2, (46 + 2) / 4 = 12.
    assert_eq!(all.to_le_bytes(), [128, 2, 12, 255]);
    // Lanes not drawn take the background: (255 + 300 + 2) / 4 = 139.
    let two = mean(select(&samples, 0b0001, background));
    assert_eq!(two.to_le_bytes(), [139, 75, 78, 255]);
}

#[test]
fn resolve_averages_blocks() {
    let mut t = Target::new(2, 2, [0; 3]);
    t.whole().triangle(
        [at(0.0, 0.0, 1.0), at(2.0, 0.0, 1.0), at(2.0, 2.0, 1.0)],
        NONE,
        flat(255),
    );
    // Upper-right triangle covers sample (1,0) and the two diagonal ones on its edge.
    let img = t.resolve(false);
    assert_eq!(img.dimensions(), (1, 1));
    let v = img.get_pixel(0, 0).0[0];
    assert!(v > 0 && v < 255, "{v}");
}
