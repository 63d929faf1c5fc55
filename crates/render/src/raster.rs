//! The z-buffered target: filled triangles, depth-tested lines, and the box filter down to
//! the final picture.
//!
//! Every loop is bounded by the target: a triangle visits only the pixels of its bounding
//! box clamped to the target, a line only the pixels of its part inside the target, so the
//! work is at most pixels × primitives whatever the coordinates.
//!
//! Triangles are filled by [`Band`]s, disjoint runs of rows that can be drawn on different
//! cores: a band draws exactly the samples the whole target would in its rows (the same
//! arithmetic per row, the same triangle order), so the picture does not depend on how many
//! bands drew it.

use crate::camera::Projected;
use glam::Vec4;
use image::RgbaImage;
use rayon::prelude::*;

/// Nearness a line pixel may lie behind the surface and still be drawn (keys span 0..1).
const LINE_DEPTH_SLACK: f32 = 0.005;

/// Columns tested at once by the narrow-triangle path (one SSE register of `f32`).
const LANES: usize = 4;

/// Fewest sample rows worth a band of their own (smaller bands cost more in per-triangle
/// rejection than they gain in balance).
const MIN_BAND_ROWS: usize = 32;

/// Colour and depth, one sample per pixel (the supersampled resolution). Depth and colour
/// are separate planes so the wire pass can read every row's depth while bands write
/// their own rows' colours, and the filter reads colours only.
pub(crate) struct Target {
    width: u32,
    height: u32,
    /// Nearness of the closest surface so far (larger is closer).
    depth: Vec<f32>,
    /// Opaque RGBA, so a sample is written with one store and filtered without repacking.
    colour: Vec<[u8; 4]>,
}

/// Three channels already scaled to `0..=255` (in `x`, `y`, `z`) to opaque 8-bit RGBA,
/// rounded to nearest; NaN gives 0.
#[inline]
pub(crate) fn levels(c: Vec4) -> [u8; 4] {
    // `max` first: it returns its argument for a NaN lane. Adding 2^23 leaves the rounded
    // value in the low mantissa bits, cheaper than three saturating float-to-int casts.
    let v = c.max(Vec4::ZERO).min(Vec4::splat(255.0)) + Vec4::splat(8_388_608.0);
    [
        v.x.to_bits() as u8,
        v.y.to_bits() as u8,
        v.z.to_bits() as u8,
        255,
    ]
}

impl Target {
    /// A target filled with `background`, depth empty.
    pub fn new(width: u32, height: u32, background: [u8; 3]) -> Self {
        let mut target = Self {
            width: 0,
            height: 0,
            depth: Vec::new(),
            colour: Vec::new(),
        };
        target.reset(width, height, background);
        target
    }

    /// Makes this target `width`×`height`, filled with `background`, depth empty, reusing
    /// its buffers (a contact sheet draws many cells of one size).
    pub fn reset(&mut self, width: u32, height: u32, background: [u8; 3]) {
        let n = width as usize * height as usize;
        let [r, g, b] = background;
        self.width = width;
        self.height = height;
        self.depth.clear();
        self.depth.resize(n, f32::NEG_INFINITY);
        self.colour.clear();
        self.colour.resize(n, [r, g, b, 255]);
    }

    /// Samples per row.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Sample rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The whole target as one band.
    #[cfg(test)]
    pub fn whole(&mut self) -> Band<'_> {
        self.bands(1).pop().expect("one band")
    }

    /// The target split into about `count` bands of whole rows, top to bottom.
    pub fn bands(&mut self, count: usize) -> Vec<Band<'_>> {
        let width = self.width as usize;
        let height = self.height as usize;
        let rows = height
            .div_ceil(count.max(1))
            .max(MIN_BAND_ROWS)
            .min(height)
            .max(1);
        let chunk = rows * width.max(1);
        self.depth
            .chunks_mut(chunk)
            .zip(self.colour.chunks_mut(chunk))
            .enumerate()
            .map(|(i, (depth, colour))| Band {
                width,
                height,
                first_row: i * rows,
                depth,
                colour,
            })
            .collect()
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
        let [r, g, b] = colour;
        for i in 0..=steps {
            let t = t0 + (t1 - t0) * (i as f32 / steps as f32);
            let (x, y, key) = lerp(t);
            let (x, y) = (x.max(0.0) as usize, y.max(0.0) as usize);
            if x >= w || y >= h || key < self.depth[y * w + x] - LINE_DEPTH_SLACK {
                continue;
            }
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (x, y) = (x + dx, y + dy);
                if x < w && y < h {
                    self.colour[y * w + x] = [r, g, b, 255];
                }
            }
        }
    }

    /// Whether a sample is covered by a triangle.
    #[cfg(test)]
    pub fn covered(&self, x: u32, y: u32) -> bool {
        self.depth[(y * self.width + x) as usize] > f32::NEG_INFINITY
    }

    /// The picture: each output pixel the mean of `factor`×`factor` samples, rows filtered
    /// in parallel.
    pub fn resolve(&self, factor: u32) -> RgbaImage {
        let (w, h) = (self.width / factor, self.height / factor);
        let mut out = vec![0u8; w as usize * h as usize * 4];
        if w > 0 {
            let (f, sw) = (factor as usize, self.width as usize);
            out.par_chunks_mut(w as usize * 4)
                .zip(self.colour.par_chunks(f * sw))
                .for_each(|(line, rows)| resolve_row(line, rows, f, sw));
        }
        RgbaImage::from_raw(w, h, out).unwrap_or_else(|| RgbaImage::new(w, h))
    }
}

impl Target {
    /// Each output pixel's distance (`distance(key)` of its nearest covered sample among
    /// `factor`×`factor`), 0 where none is covered.
    pub fn resolve_depth(
        &self,
        factor: u32,
        distance: impl Fn(f32) -> f32 + Sync,
    ) -> crate::DepthImage {
        let (w, h) = (self.width / factor, self.height / factor);
        let mut out = vec![0f32; w as usize * h as usize];
        if w > 0 {
            let (f, sw) = (factor as usize, self.width as usize);
            out.par_chunks_mut(w as usize)
                .zip(self.depth.par_chunks(f * sw))
                .for_each(|(line, rows)| {
                    for (x, out) in line.iter_mut().enumerate() {
                        let nearest = rows
                            .chunks_exact(sw)
                            .flat_map(|row| &row[x * f..x * f + f])
                            .fold(f32::NEG_INFINITY, |a, &b| a.max(b));
                        if nearest > f32::NEG_INFINITY {
                            let d = distance(nearest);
                            *out = if d.is_finite() { d.max(0.0) } else { 0.0 };
                        }
                    }
                });
        }
        image::ImageBuffer::from_raw(w, h, out).unwrap_or_else(|| image::ImageBuffer::new(w, h))
    }

    /// Each output pixel's covered share of its `factor`×`factor` samples, 0–255.
    pub fn resolve_mask(&self, factor: u32) -> image::GrayImage {
        let (w, h) = (self.width / factor, self.height / factor);
        let mut out = vec![0u8; w as usize * h as usize];
        if w > 0 {
            let (f, sw) = (factor as usize, self.width as usize);
            let n = (f * f) as u32;
            out.par_chunks_mut(w as usize)
                .zip(self.depth.par_chunks(f * sw))
                .for_each(|(line, rows)| {
                    for (x, out) in line.iter_mut().enumerate() {
                        let covered = rows
                            .chunks_exact(sw)
                            .flat_map(|row| &row[x * f..x * f + f])
                            .filter(|&&d| d > f32::NEG_INFINITY)
                            .count() as u32;
                        *out = ((covered * 255 + n / 2) / n) as u8;
                    }
                });
        }
        image::GrayImage::from_raw(w, h, out).unwrap_or_else(|| image::GrayImage::new(w, h))
    }
}

/// One output row from the `f` sample rows of width `sw` behind it.
fn resolve_row(line: &mut [u8], rows: &[[u8; 4]], f: usize, sw: usize) {
    if f == 2 {
        // The common case, with the loop shape the compiler can keep in registers.
        let (top, bottom) = rows.split_at(sw);
        for ((out, t), b) in line
            .chunks_exact_mut(4)
            .zip(top.chunks_exact(2))
            .zip(bottom.chunks_exact(2))
        {
            for c in 0..3 {
                let sum = u16::from(t[0][c])
                    + u16::from(t[1][c])
                    + u16::from(b[0][c])
                    + u16::from(b[1][c]);
                out[c] = ((sum + 2) / 4) as u8;
            }
            out[3] = 255;
        }
        return;
    }
    let n = (f * f) as u32;
    for (x, out) in line.chunks_exact_mut(4).enumerate() {
        let mut sum = [0u32; 3];
        for row in rows.chunks_exact(sw) {
            for sample in &row[x * f..x * f + f] {
                for c in 0..3 {
                    sum[c] += u32::from(sample[c]);
                }
            }
        }
        for c in 0..3 {
            out[c] = ((sum[c] + n / 2) / n) as u8;
        }
        out[3] = 255;
    }
}

/// Rows `first_row..` of a [`Target`], filled by one job.
pub(crate) struct Band<'a> {
    /// Samples per row.
    width: usize,
    /// Rows of the whole target (triangles are clipped to it the same way in every band).
    height: usize,
    first_row: usize,
    depth: &'a mut [f32],
    colour: &'a mut [[u8; 4]],
}

impl Band<'_> {
    /// Fills the part of a triangle (either winding) in this band's rows. Each corner
    /// carries three attributes (`x`, `y`, `z`; `w` is ignored); `shade` gets them
    /// interpolated perspective-correctly at a sample (with `w` = 1) and returns its
    /// colour. Degenerate or non-finite triangles draw nothing.
    #[inline]
    pub fn triangle(
        &mut self,
        v: [Projected; 3],
        attributes: [Vec4; 3],
        shade: impl Fn(Vec4) -> [u8; 4],
    ) {
        let [a, b, c] = v;
        let rows = self.depth.len() / self.width.max(1);
        let (min_y, max_y) = (a.y.min(b.y).min(c.y), a.y.max(b.y).max(c.y));
        // Rows whose centres (y + 0.5) may lie inside; the edge functions decide exactly.
        // Checked first, as most triangles miss most bands. NaN fails every comparison.
        let (top, bottom) = (self.first_row as f32, (self.first_row + rows) as f32);
        if !(max_y >= top + 0.5 && min_y <= bottom - 0.5) {
            return;
        }
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
        if !area.is_finite() || area.abs() < 1e-9 {
            return;
        }
        let (min_x, max_x) = (a.x.min(b.x).min(c.x), a.x.max(b.x).max(c.x));
        if max_x < 0.5 || max_y < 0.5 || min_x > self.width as f32 || min_y > self.height as f32 {
            return;
        }
        // The first and last rows and columns whose centres (i + 0.5) lie within the
        // bounding box, clamped to the target. The values are finite here.
        let last_x = self.width as f32 - 1.0;
        let last_y = self.height as f32 - 1.0;
        let x0 = ceil_non_negative((min_x - 0.5).max(0.0).min(last_x));
        let x1 = floor_non_negative((max_x - 0.5).max(0.0).min(last_x));
        let y0 = ceil_non_negative((min_y - 0.5).max(0.0).min(last_y));
        let y1 = floor_non_negative((max_y - 0.5).max(0.0).min(last_y));
        let (y0, y1) = (y0.max(self.first_row), y1.min(self.first_row + rows - 1));
        if x0 > x1 || y0 > y1 {
            return;
        }
        let inv_area = area.recip();
        // Barycentric weight of each corner = edge function of the opposite edge / area:
        // edge(p; s, e) = (e.x - s.x)(p.y - s.y) - (e.y - s.y)(p.x - s.x), linear in x and
        // y; per row it is `rise × (p.y - s.y) + base` with `base` fixed by the first column.
        let edges = [(b, c), (c, a), (a, b)];
        let px = x0 as f32 + 0.5;
        let step = edges.map(|(s, e)| -(e.y - s.y) * inv_area);
        let rise = edges.map(|(s, e)| (e.x - s.x) * inv_area);
        let base = [0, 1, 2].map(|i| step[i] * (px - edges[i].0.x));
        let inv_step = step.map(|d| if d != 0.0 { d.recip() } else { 0.0 });
        let inv_w = [a.inv_w, b.inv_w, c.inv_w];
        let perspective = inv_w[0] != inv_w[1] || inv_w[1] != inv_w[2];
        // Perspective-correct interpolation: attribute × 1/w and 1/w itself (in `w`) are
        // linear on screen; their ratio at a sample is the attribute there. Orthographic:
        // 1/w is 1 everywhere. Each linear quantity is a plane through corner `a`:
        // f(p) = f(a) + df/dx (p.x - a.x) + df/dy (p.y - a.y).
        let weighted = [0, 1, 2].map(|i| {
            let s = if perspective { inv_w[i] } else { 1.0 };
            (attributes[i] * s).truncate().extend(s)
        });
        let slope = |d: [f32; 3]| weighted[0] * d[0] + weighted[1] * d[1] + weighted[2] * d[2];
        let (attribute_dx, attribute_dy) = (slope(step), slope(rise));
        let keys = [a.key, b.key, c.key];
        let key_slope = |d: [f32; 3]| d[0] * keys[0] + d[1] * keys[1] + d[2] * keys[2];
        let (key_dx, key_dy) = (key_slope(step), key_slope(rise));
        let width = self.width;
        let columns = x1 - x0 + 1;
        if columns <= 2 * LANES {
            // Narrow triangles (most of a dense mesh): test the edge functions of four
            // columns at once instead of solving each row's span, whose divisions and
            // float-to-integer conversions cost more than the few samples it covers.
            // (Measured: a general loop over any number of groups, or this path for
            // boxes up to 32 columns, cost more than it saved.)
            let offsets = Vec4::new(0.0, 1.0, 2.0, 3.0);
            let across = step.map(|d| Vec4::splat(d) * offsets);
            let ahead = step.map(|d| Vec4::splat(d * LANES as f32));
            let groups =
                [columns.min(LANES), columns.saturating_sub(LANES)].map(|n| (1u32 << n) - 1);
            let (dx0, at_x0) = (px - a.x, attribute_dx * (px - a.x));
            for y in y0..=y1 {
                let py = y as f32 + 0.5;
                let dy = py - a.y;
                let mut edge = [0, 1, 2]
                    .map(|i| Vec4::splat(rise[i] * (py - edges[i].0.y) + base[i]) + across[i]);
                let row_at = weighted[0] + at_x0 + attribute_dy * dy;
                let row_key = a.key + key_dx * dx0 + key_dy * dy;
                let row = (y - self.first_row) * width + x0;
                for (group, valid) in groups.into_iter().enumerate() {
                    if valid == 0 {
                        break;
                    }
                    // All three weights >= 0 (false for NaN), in columns that exist.
                    let inside = edge[0].cmpge(Vec4::ZERO)
                        & edge[1].cmpge(Vec4::ZERO)
                        & edge[2].cmpge(Vec4::ZERO);
                    let mut mask = inside.bitmask() & valid;
                    while mask != 0 {
                        let k = group * LANES + mask.trailing_zeros() as usize;
                        mask &= mask - 1;
                        let kf = k as f32;
                        let key = row_key + key_dx * kf;
                        let i = row + k;
                        if key > self.depth[i] {
                            self.depth[i] = key;
                            let at = row_at + attribute_dx * kf;
                            self.colour[i] =
                                shade(if perspective { at * at.w.recip() } else { at });
                        }
                    }
                    for (e, d) in edge.iter_mut().zip(ahead) {
                        *e += d;
                    }
                }
            }
            return;
        }
        let span = (x1 - x0) as f32;
        for y in y0..=y1 {
            let py = y as f32 + 0.5;
            let l0 = [0, 1, 2].map(|i| rise[i] * (py - edges[i].0.y) + base[i]);
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
            let k_hi = floor_non_negative(hi);
            if k_lo > k_hi {
                continue;
            }
            let (dx, dy) = (px + k_lo as f32 - a.x, py - a.y);
            let mut at = weighted[0] + attribute_dx * dx + attribute_dy * dy;
            let mut key = a.key + key_dx * dx + key_dy * dy;
            let row = (y - self.first_row) * width + x0;
            let range = row + k_lo..=row + k_hi;
            for (depth, colour) in self.depth[range.clone()]
                .iter_mut()
                .zip(&mut self.colour[range])
            {
                if key > *depth {
                    *depth = key;
                    *colour = shade(if perspective { at * at.w.recip() } else { at });
                }
                at += attribute_dx;
                key += key_dx;
            }
        }
    }
}

/// The smallest whole number at or above `v`, for `0 <= v < 2^31`, without a libm call
/// (a conversion through `i32` is a single instruction; one through `usize` is not).
#[inline]
fn ceil_non_negative(v: f32) -> usize {
    let t = v as i32;
    (if (t as f32) < v { t + 1 } else { t }) as usize
}

/// The largest whole number at or below `v`, for `0 <= v < 2^31`.
#[inline]
fn floor_non_negative(v: f32) -> usize {
    (v as i32) as usize
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
        let img = t.resolve(1);
        // Bottom-left: the second triangle's nearness there (~0.02) is below the first's 0.1.
        assert_eq!(img.get_pixel(0, 7).0, [255, 0, 0, 255]);
        assert_eq!(img.get_pixel(7, 0).0, [0, 255, 0, 255]);
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
        let img = t.resolve(1);
        // At y = 32.5 on screen the weights are 0.49 and 0.51 (near) with 1/w 1 and 0.25:
        // the far corner's share is 0.51·0.25 / (0.49 + 0.51·0.25) ≈ 0.21.
        let red = f32::from(img.get_pixel(0, 32).0[0]) / 255.0;
        assert!((red - 0.206).abs() < 0.02, "{red}");
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
            t.resolve(1)
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
        for v in cases {
            let mut t = Target::new(64, 64, [0; 3]);
            t.whole().triangle(v, NONE, flat(255));
            let p = v.map(|q| (f64::from(q.x), f64::from(q.y)));
            let edge = |s: (f64, f64), e: (f64, f64), x: f64, y: f64| {
                (e.0 - s.0) * (y - s.1) - (e.1 - s.1) * (x - s.0)
            };
            let area = edge(p[0], p[1], p[2].0, p[2].1);
            let mut inside = 0;
            for y in 0..64 {
                for x in 0..64 {
                    let (cx, cy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
                    let w = [
                        edge(p[1], p[2], cx, cy) / area,
                        edge(p[2], p[0], cx, cy) / area,
                        edge(p[0], p[1], cx, cy) / area,
                    ];
                    let least = w.iter().copied().fold(f64::INFINITY, f64::min);
                    if least > 1e-4 {
                        inside += 1;
                        assert!(t.covered(x, y), "{v:?}: ({x}, {y}) is inside");
                    } else if least < -1e-4 {
                        assert!(!t.covered(x, y), "{v:?}: ({x}, {y}) is outside");
                    }
                }
            }
            assert!(inside > 10, "{inside}");
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
        assert_eq!(t.resolve(1).get_pixel(1, 2).0, [0, 0, 0, 255]);
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
        let img = t.resolve(2);
        assert_eq!(img.dimensions(), (1, 1));
        let v = img.get_pixel(0, 0).0[0];
        assert!(v > 0 && v < 255, "{v}");
        // Other factors use the general filter: 3×3 samples, the top row's 3 lit → 85.
        let mut t = Target::new(3, 3, [0; 3]);
        t.whole().triangle(
            [at(0.0, 0.0, 1.0), at(7.0, 0.0, 1.0), at(0.0, 1.2, 1.0)],
            NONE,
            flat(255),
        );
        assert_eq!(t.resolve(3).get_pixel(0, 0).0, [85, 85, 85, 255]);
    }
}
