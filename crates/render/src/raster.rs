//! The z-buffered target: filled triangles, depth-tested lines, and the 2×2 box filter down
//! to the final picture.
//!
//! Every loop is bounded by the target: a triangle visits only the pixels of its bounding
//! box clamped to the target, a line only the pixels of its part inside the target, so the
//! work is at most pixels × primitives whatever the coordinates.

use crate::camera::Projected;
use image::RgbaImage;

/// Nearness a line pixel may lie behind the surface and still be drawn (keys span 0..1).
const LINE_DEPTH_SLACK: f32 = 0.005;

/// One sample: nearness of the closest surface so far (larger is closer) and its colour,
/// side by side so the depth test and the colour write touch one cache line.
#[derive(Clone, Copy)]
struct Sample {
    depth: f32,
    colour: [u8; 3],
}

/// Colour and depth, one sample per pixel (the supersampled resolution).
pub(crate) struct Target {
    width: u32,
    height: u32,
    samples: Vec<Sample>,
}

/// A linear colour in `0..=1` to 8 bits.
#[inline]
pub(crate) fn to_u8(c: f32) -> u8 {
    // `as` maps NaN to 0; the clamp keeps the rest in range.
    (c * 255.0 + 0.5).clamp(0.0, 255.0) as u8
}

impl Target {
    /// A target filled with `background`, depth empty.
    pub fn new(width: u32, height: u32, background: [u8; 3]) -> Self {
        let n = width as usize * height as usize;
        let empty = Sample {
            depth: f32::NEG_INFINITY,
            colour: background,
        };
        Self {
            width,
            height,
            samples: vec![empty; n],
        }
    }

    /// Fills a triangle (either winding). `shade` gets the perspective-correct barycentric
    /// weights of the three corners and returns the colour. Degenerate or non-finite
    /// triangles draw nothing.
    pub fn triangle(&mut self, v: [Projected; 3], shade: impl Fn([f32; 3]) -> [f32; 3]) {
        let [a, b, c] = v;
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
        if !area.is_finite() || area.abs() < 1e-9 {
            return;
        }
        let (min_x, max_x) = (a.x.min(b.x).min(c.x), a.x.max(b.x).max(c.x));
        let (min_y, max_y) = (a.y.min(b.y).min(c.y), a.y.max(b.y).max(c.y));
        // Rows and columns whose pixel centres (i + 0.5) may lie inside, clamped to the
        // target; the edge functions decide exactly. `as` truncates (a floor here, as the
        // values are clamped to be non-negative) without a libm call.
        if max_x < 0.5 || max_y < 0.5 || min_x > self.width as f32 || min_y > self.height as f32 {
            return;
        }
        let last_x = self.width as usize - 1;
        let last_y = self.height as usize - 1;
        let x0 = ((min_x - 0.5).max(0.0) as usize).min(last_x);
        let x1 = ((max_x - 0.5).max(0.0) as usize).min(last_x);
        let y0 = ((min_y - 0.5).max(0.0) as usize).min(last_y);
        let y1 = ((max_y - 0.5).max(0.0) as usize).min(last_y);
        let inv_area = area.recip();
        // Barycentric weight of each corner = edge function of the opposite edge / area:
        // edge(p; s, e) = (e.x - s.x)(p.y - s.y) - (e.y - s.y)(p.x - s.x), linear in x.
        let edges = [(b, c), (c, a), (a, b)];
        let step = edges.map(|(s, e)| -(e.y - s.y) * inv_area);
        let inv_step = step.map(|d| if d != 0.0 { d.recip() } else { 0.0 });
        let inv_w = [a.inv_w, b.inv_w, c.inv_w];
        let perspective = inv_w[0] != inv_w[1] || inv_w[1] != inv_w[2];
        let keys = [a.key, b.key, c.key];
        let key_step = step[0] * keys[0] + step[1] * keys[1] + step[2] * keys[2];
        let width = self.width as usize;
        let span = (x1 - x0) as f32;
        let px = x0 as f32 + 0.5;
        for y in y0..=y1 {
            let py = y as f32 + 0.5;
            let l0 = [0, 1, 2].map(|k| {
                let (s, e) = edges[k];
                ((e.x - s.x) * (py - s.y) - (e.y - s.y) * (px - s.x)) * inv_area
            });
            // The columns k (from x0) where every l_i(k) = l0_i + step_i k >= 0.
            let (mut lo, mut hi) = (0.0_f32, span);
            for i in 0..3 {
                if step[i] > 0.0 {
                    lo = lo.max(-l0[i] * inv_step[i]);
                } else if step[i] < 0.0 {
                    hi = hi.min(-l0[i] * inv_step[i]);
                } else if l0[i] < 0.0 {
                    hi = -1.0;
                }
            }
            if lo.partial_cmp(&hi).is_none_or(|o| o.is_gt()) {
                continue;
            }
            let k_lo = ceil_non_negative(lo);
            let k_hi = hi as usize; // floor: hi >= lo >= 0
            if k_lo > k_hi {
                continue;
            }
            let row = y * width + x0;
            let kf = k_lo as f32;
            let mut l = [
                l0[0] + step[0] * kf,
                l0[1] + step[1] * kf,
                l0[2] + step[2] * kf,
            ];
            let mut key = l[0] * keys[0] + l[1] * keys[1] + l[2] * keys[2];
            for i in row + k_lo..=row + k_hi {
                let sample = &mut self.samples[i];
                if key > sample.depth {
                    sample.depth = key;
                    // Rounding at the span's ends can leave a weight a hair below zero.
                    let w = l.map(|x| x.max(0.0));
                    let p = if perspective {
                        let p = [w[0] * inv_w[0], w[1] * inv_w[1], w[2] * inv_w[2]];
                        let sum = p[0] + p[1] + p[2];
                        if sum > 0.0 {
                            let r = sum.recip();
                            [p[0] * r, p[1] * r, p[2] * r]
                        } else {
                            w
                        }
                    } else {
                        w
                    };
                    sample.colour = shade(p).map(to_u8);
                }
                l[0] += step[0];
                l[1] += step[1];
                l[2] += step[2];
                key += key_step;
            }
        }
    }

    /// Draws a line two samples wide (one output pixel) where it is not hidden behind a
    /// surface.
    pub fn line(&mut self, a: Projected, b: Projected, colour: [u8; 3]) {
        let Some((t0, t1)) = clip(a, b, self.width as f32, self.height as f32) else {
            return;
        };
        let lerp = |t: f32| {
            (
                a.x + (b.x - a.x) * t,
                a.y + (b.y - a.y) * t,
                a.key + (b.key - a.key) * t,
            )
        };
        let (sx, sy, _) = lerp(t0);
        let (ex, ey, _) = lerp(t1);
        // At most the target's width + height steps: the clipped segment lies inside it.
        let steps = (ex - sx).abs().max((ey - sy).abs()).ceil().max(1.0) as usize;
        let (w, h) = (self.width as usize, self.height as usize);
        for i in 0..=steps {
            let t = t0 + (t1 - t0) * (i as f32 / steps as f32);
            let (x, y, key) = lerp(t);
            let (x, y) = (x.max(0.0) as usize, y.max(0.0) as usize);
            if x >= w || y >= h || key < self.samples[y * w + x].depth - LINE_DEPTH_SLACK {
                continue;
            }
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (x, y) = (x + dx, y + dy);
                if x < w && y < h {
                    self.samples[y * w + x].colour = colour;
                }
            }
        }
    }

    /// Whether a sample is covered by a triangle.
    #[cfg(test)]
    pub fn covered(&self, x: u32, y: u32) -> bool {
        self.samples[(y * self.width + x) as usize].depth > f32::NEG_INFINITY
    }

    /// The picture: each output pixel the mean of `factor`×`factor` samples.
    pub fn resolve(&self, factor: u32) -> RgbaImage {
        let (w, h) = (self.width / factor, self.height / factor);
        let (f, sw) = (factor as usize, self.width as usize);
        let n = factor * factor;
        let mut out = Vec::with_capacity(w as usize * h as usize * 4);
        for y in 0..h as usize {
            let rows = &self.samples[y * f * sw..(y * f + f) * sw];
            for x in 0..w as usize {
                let mut sum = [0u32; 3];
                for row in rows.chunks_exact(sw) {
                    for sample in &row[x * f..x * f + f] {
                        let c = sample.colour;
                        sum[0] += u32::from(c[0]);
                        sum[1] += u32::from(c[1]);
                        sum[2] += u32::from(c[2]);
                    }
                }
                let avg = sum.map(|s| ((s + n / 2) / n) as u8);
                out.extend_from_slice(&[avg[0], avg[1], avg[2], 255]);
            }
        }
        RgbaImage::from_raw(w, h, out).unwrap_or_else(|| RgbaImage::new(w, h))
    }
}

/// The smallest whole number at or above `v >= 0`, without a libm call.
#[inline]
fn ceil_non_negative(v: f32) -> usize {
    let t = v as usize;
    if (t as f32) < v { t + 1 } else { t }
}

/// Liang–Barsky: the parameter range of segment a→b inside `[0, w) × [0, h)`, if any.
fn clip(a: Projected, b: Projected, w: f32, h: f32) -> Option<(f32, f32)> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    if !(a.x.is_finite() && a.y.is_finite() && dx.is_finite() && dy.is_finite()) {
        return None;
    }
    let (mut t0, mut t1) = (0.0_f32, 1.0_f32);
    let limit_x = w - 1e-3;
    let limit_y = h - 1e-3;
    for (p, q) in [
        (-dx, a.x),
        (dx, limit_x - a.x),
        (-dy, a.y),
        (dy, limit_y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then_some((t0, t1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f32, y: f32, key: f32) -> Projected {
        Projected {
            x,
            y,
            key,
            inv_w: 1.0,
        }
    }

    #[test]
    fn fills_both_windings_and_tests_depth() {
        let mut t = Target::new(8, 8, [0; 3]);
        // Lower-left half of the target, counter-clockwise on screen, far.
        t.triangle(
            [at(0.0, 0.0, 0.1), at(0.0, 8.0, 0.1), at(8.0, 8.0, 0.1)],
            |_| [1.0, 0.0, 0.0],
        );
        // The whole target, the other winding, nearer on the right only.
        t.triangle(
            [at(0.0, 0.0, 0.0), at(16.0, 0.0, 0.5), at(0.0, 16.0, 0.0)],
            |_| [0.0, 1.0, 0.0],
        );
        let img = t.resolve(1);
        // Bottom-left: the second triangle's nearness there (~0.02) is below the first's 0.1.
        assert_eq!(img.get_pixel(0, 7).0, [255, 0, 0, 255]);
        assert_eq!(img.get_pixel(7, 0).0, [0, 255, 0, 255]);
        assert!(t.covered(3, 3));
    }

    #[test]
    fn degenerate_huge_and_nan_triangles_are_bounded() {
        let mut t = Target::new(4, 4, [9; 3]);
        t.triangle([at(1.0, 1.0, 0.5); 3], |_| [1.0; 3]);
        t.triangle(
            [at(f32::NAN, 0.0, 0.5), at(1.0, 1.0, 0.5), at(2.0, 0.0, 0.5)],
            |_| [1.0; 3],
        );
        assert!(!(0..4).any(|y| (0..4).any(|x| t.covered(x, y))));
        // Coordinates whose area overflows are skipped (the camera never makes them).
        t.triangle(
            [
                at(-3e38, -3e38, 0.5),
                at(3e38, -3e38, 0.5),
                at(0.0, 3e38, 0.5),
            ],
            |_| [1.0; 3],
        );
        assert!(!t.covered(2, 2));
        // A triangle reaching far off the target covers it, visiting only its 16 samples.
        t.triangle(
            [at(-1e9, -1e9, 0.5), at(1e9, -1e9, 0.5), at(0.0, 1e9, 0.5)],
            |_| [1.0; 3],
        );
        assert!(t.covered(2, 2));
        t.line(at(-1e9, 2.0, 1.0), at(1e9, 2.0, 1.0), [0; 3]);
        t.line(at(-3e38, 2.0, 1.0), at(3e38, 2.0, 1.0), [0; 3]);
        t.line(at(f32::NAN, 2.0, 1.0), at(3.0, 2.0, 1.0), [0; 3]);
        assert_eq!(t.resolve(1).get_pixel(1, 2).0, [0, 0, 0, 255]);
    }

    #[test]
    fn resolve_averages_blocks() {
        let mut t = Target::new(2, 2, [0; 3]);
        t.triangle(
            [at(0.0, 0.0, 1.0), at(2.0, 0.0, 1.0), at(2.0, 2.0, 1.0)],
            |_| [1.0; 3],
        );
        // Upper-right triangle covers sample (1,0) and the two diagonal ones on its edge.
        let img = t.resolve(2);
        assert_eq!(img.dimensions(), (1, 1));
        let v = img.get_pixel(0, 0).0[0];
        assert!(v > 0 && v < 255, "{v}");
    }
}
