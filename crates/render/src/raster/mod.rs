//! The z-buffered target: filled triangles, depth-tested lines, and the box filter down to
//! the final picture.
//!
//! The target keeps [`SUPERSAMPLE`]² = 4 samples per pixel, stored together (a pixel's four
//! depths are one vector), in the manner of multisampling: coverage and depth are decided
//! per sample, four at once, and a triangle's colour is computed once per pixel, at its
//! centre, and given to the samples it wins. The picture is the mean of each pixel's
//! samples, so edges and intersections are smoothed as by drawing at twice the size,
//! at about the cost of drawing at the final size.
//!
//! Every loop is bounded by the target: a triangle visits only the pixels of its bounding
//! box clamped to the target, a line only the pixels of its part inside the target, so the
//! work is at most pixels × primitives whatever the coordinates.
//!
//! Triangles are filled by [`Band`]s, disjoint runs of pixel rows that can be drawn on
//! different cores: a band draws exactly the samples the whole target would in its rows
//! (the same arithmetic per row, the same triangle order), so the picture does not depend on
//! how many bands drew it.

use crate::camera::Projected;
use crate::samples::{EMPTY, Pixel, Samples};
use glam::{BVec4A, Vec4};
use image::RgbaImage;
use rayon::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

mod resolve;
pub(crate) use resolve::shown_from;

/// Samples per output pixel in each direction.
pub const SUPERSAMPLE: u32 = 2;

/// Nearness a line pixel may lie behind the surface and still be drawn (keys span 0..1).
const LINE_DEPTH_SLACK: f32 = 0.005;

/// Each lane's sample column and row within its pixel: lanes are the samples (0, 0),
/// (1, 0), (0, 1), (1, 1).
const LANE_X: Vec4 = Vec4::new(0.0, 1.0, 0.0, 1.0);
const LANE_Y: Vec4 = Vec4::new(0.0, 0.0, 1.0, 1.0);

/// Widest triangles, in pixels, whose every pixel in the bounding box is tested; wider
/// ones solve each row's span first.
const NARROW_PIXELS: usize = 8;

/// Fewest pixel rows worth a band of their own (smaller bands cost more in per-triangle
/// rejection than they gain in balance).
const MIN_BAND_ROWS: usize = 16;

/// How far outside a triangle, in samples, a sample may lie and still count as inside.
/// The weights are stepped across a row by repeated adds, and two triangles sharing an
/// edge compute its weight from different corners, so a sample on the edge could come out
/// a little outside both: a crack the background (or a face behind) shows through. Every
/// edge of every triangle is moved out by this same distance, so two faces along an edge
/// cover the same samples on the far side, and a picture is unchanged by which of them is
/// drawn. 1/256 of a sample is far above the rounding and far below anything visible.
const EDGE_SLACK: f32 = 1.0 / 256.0;

/// Colour and depth of every sample, a pixel's four samples together (one cache line
/// holds two pixels' depths and colours, which the depth test, the colour write and the
/// filter read together). A sample's colour counts only where its depth says something
/// was drawn: until then it is the background, so only depths are cleared, and only where
/// the last picture drew.
pub(crate) struct Target {
    /// Samples per row ([`SUPERSAMPLE`] × pixels).
    width: u32,
    /// Sample rows.
    height: u32,
    /// Every pixel, row by row.
    pixels: Samples,
    /// Opaque RGBA of samples where nothing is drawn.
    background: [u8; 4],
    /// The pixels drawn since the last clear.
    dirty: Dirty,
    /// Whether the last [`Target::bands`] asked for more than one band: the filters then
    /// run on rayon's pool too; with one band (several pictures drawn at once, one per
    /// core) they run on the calling thread, which would otherwise wait for its rows and
    /// start another picture meanwhile, each with a target of its own.
    parallel: bool,
}

/// Most pixels a thread's target keeps between pictures (2^20 pixels, 32 MiB of samples);
/// a larger one is freed after its picture.
const KEPT_PIXELS: usize = 1 << 20;

/// Most targets kept for reuse.
const KEPT_TARGETS: usize = 16;

/// Targets waiting to be reused by the next picture (an orbit's views, a sheet's cells, a
/// folder's models): their buffers are allocated and first touched once, not once per
/// picture.
static TARGETS: Mutex<Vec<Target>> = Mutex::new(Vec::new());

/// Runs `f` with a target taken from those kept for reuse (a new one when none is free,
/// as when a thread waiting for the rows of one picture draws another), and keeps it
/// afterwards unless it is large.
pub(crate) fn with_target<R>(f: impl FnOnce(&mut Target) -> R) -> R {
    let kept = TARGETS.lock().ok().and_then(|mut targets| targets.pop());
    let mut target = kept.unwrap_or_else(|| Target::new(0, 0, [0; 3]));
    let result = f(&mut target);
    if target.pixels.len() <= KEPT_PIXELS {
        if let Ok(mut targets) = TARGETS.lock() {
            if targets.len() < KEPT_TARGETS {
                targets.push(target);
            }
        }
    }
    result
}

/// A sample only a line was drawn on: nearer than empty, farther than any surface.
const LINE_ONLY: f32 = f32::MIN;

/// The box of pixels drawn since the last clear, grown by the bands as they draw (from
/// several threads, hence atomics; each band adds its box once, when it is dropped).
#[derive(Debug, Default)]
struct Dirty {
    x0: AtomicUsize,
    x1: AtomicUsize,
    y0: AtomicUsize,
    y1: AtomicUsize,
}

impl Dirty {
    /// An empty box.
    fn empty() -> Self {
        Self {
            x0: AtomicUsize::new(usize::MAX),
            x1: AtomicUsize::new(0),
            y0: AtomicUsize::new(usize::MAX),
            y1: AtomicUsize::new(0),
        }
    }

    /// Grows the box to hold pixels `x0..=x1` of rows `y0..=y1`.
    fn add(&self, [x0, x1, y0, y1]: [usize; 4]) {
        self.x0.fetch_min(x0, Ordering::Relaxed);
        self.x1.fetch_max(x1, Ordering::Relaxed);
        self.y0.fetch_min(y0, Ordering::Relaxed);
        self.y1.fetch_max(y1, Ordering::Relaxed);
    }

    /// The box as `[x0, x1, y0, y1]` (inclusive), if anything was drawn.
    fn get(&self) -> Option<[usize; 4]> {
        let b = [&self.x0, &self.x1, &self.y0, &self.y1].map(|a| a.load(Ordering::Relaxed));
        (b[0] <= b[1] && b[2] <= b[3]).then_some(b)
    }
}

/// A box that holds nothing yet, for [`Dirty::add`].
const NOTHING: [usize; 4] = [usize::MAX, 0, usize::MAX, 0];

/// `a` grown to hold `b`.
#[inline]
fn grow(a: [usize; 4], b: [usize; 4]) -> [usize; 4] {
    [
        a[0].min(b[0]),
        a[1].max(b[1]),
        a[2].min(b[2]),
        a[3].max(b[3]),
    ]
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

/// Pixels per row and pixel rows of a target of `width` × `height` samples (odd sizes
/// lose their last column or row).
fn pixels(width: u32, height: u32) -> (usize, usize) {
    (
        (width / SUPERSAMPLE) as usize,
        (height / SUPERSAMPLE) as usize,
    )
}

impl Target {
    /// A target of `width` × `height` samples filled with `background`, depth empty.
    pub fn new(width: u32, height: u32, background: [u8; 3]) -> Self {
        let mut target = Self {
            width: 0,
            height: 0,
            pixels: Samples::new(0),
            background: [0, 0, 0, 255],
            dirty: Dirty::empty(),
            parallel: false,
        };
        target.reset(width, height, background);
        target
    }

    /// Makes this target `width` × `height` samples, filled with `background`, depth
    /// empty, reusing its buffers (a contact sheet draws many cells of one size, an orbit
    /// many views): a target of the same size is cleared only where it was drawn on.
    pub fn reset(&mut self, width: u32, height: u32, background: [u8; 3]) {
        let (w, h) = pixels(width, height);
        let [r, g, b] = background;
        self.background = [r, g, b, 255];
        let same = self.width as usize == w * SUPERSAMPLE as usize
            && self.height as usize == h * SUPERSAMPLE as usize
            && self.pixels.len() == w * h;
        if same {
            if let Some([x0, x1, y0, y1]) = self.dirty.get() {
                for row in self.pixels.chunks_exact_mut(w.max(1)).take(y1 + 1).skip(y0) {
                    for pixel in &mut row[x0..=x1.min(w - 1)] {
                        pixel.depth = Vec4::splat(EMPTY);
                    }
                }
            }
        } else {
            self.width = w as u32 * SUPERSAMPLE;
            self.height = h as u32 * SUPERSAMPLE;
            self.pixels = Samples::new(w * h);
        }
        self.dirty = Dirty::empty();
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

    /// Runs `fill` on each of about `count` bands of the target, on rayon's pool when
    /// there are several, else on this thread.
    pub fn fill(&mut self, count: usize, fill: impl Fn(Band<'_>) + Send + Sync) {
        let parts = self.bands(count);
        if parts.len() > 1 {
            parts.into_par_iter().for_each(fill);
        } else {
            parts.into_iter().for_each(fill);
        }
    }

    /// The target split into about `count` bands of whole pixel rows, top to bottom.
    pub fn bands(&mut self, count: usize) -> Vec<Band<'_>> {
        self.parallel = count > 1;
        let (width, height) = pixels(self.width, self.height);
        let rows = height
            .div_ceil(count.max(1))
            .max(MIN_BAND_ROWS)
            .min(height)
            .max(1);
        let chunk = rows * width.max(1);
        let dirty = &self.dirty;
        self.pixels
            .chunks_mut(chunk)
            .enumerate()
            .map(|(i, pixels)| Band {
                width,
                height,
                first_row: i * rows,
                pixels,
                drawn: NOTHING,
                dirty,
            })
            .collect()
    }

    /// The pixel and lane of sample (`x`, `y`), which must lie inside the target.
    fn at(&self, x: usize, y: usize) -> (usize, usize) {
        let w = (self.width / SUPERSAMPLE) as usize;
        ((y / 2) * w + x / 2, (x & 1) + 2 * (y & 1))
    }

    /// Draws a line two samples (one output pixel) wide where it is not hidden behind a
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
            if x >= w || y >= h {
                continue;
            }
            let (pixel, lane) = self.at(x, y);
            if key < self.pixels[pixel].depth[lane] - LINE_DEPTH_SLACK {
                continue;
            }
            // A block of 2×2 samples from this one: one output pixel's worth, wherever it
            // falls, so the filter smooths the line like an edge.
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (x, y) = (x + dx, y + dy);
                if x < w && y < h {
                    let (pixel, lane) = self.at(x, y);
                    let pixel = &mut self.pixels[pixel];
                    pixel.colour[lane] = [r, g, b, 255];
                    pixel.depth[lane] = pixel.depth[lane].max(LINE_ONLY);
                }
            }
            self.dirty
                .add([x / 2, (x + 1).min(w - 1) / 2, y / 2, (y + 1).min(h - 1) / 2]);
        }
    }

    /// Whether a sample is covered by a triangle.
    #[cfg(test)]
    pub fn covered(&self, x: u32, y: u32) -> bool {
        let (pixel, lane) = self.at(x as usize, y as usize);
        self.pixels[pixel].depth[lane] > LINE_ONLY
    }
}
/// Pixel rows `first_row..` of a [`Target`], filled by one job.
pub(crate) struct Band<'a> {
    /// Pixels per row.
    width: usize,
    /// Pixel rows of the whole target (triangles are clipped to it the same way in every
    /// band).
    height: usize,
    first_row: usize,
    pixels: &'a mut [Pixel],
    /// The pixels this band drew on, added to the target's when the band is dropped.
    drawn: [usize; 4],
    dirty: &'a Dirty,
}

impl Drop for Band<'_> {
    fn drop(&mut self) {
        if self.drawn != NOTHING {
            self.dirty.add(self.drawn);
        }
    }
}

impl Band<'_> {
    /// Fills the part of a triangle (either winding, corners in sample coordinates) in
    /// this band's rows. Each corner carries three attributes (`x`, `y`, `z`; `w` is
    /// ignored); `shade` gets them interpolated perspective-correctly at the centre of each
    /// pixel the triangle wins a sample of (with `w` = 1) and returns its colour.
    /// Degenerate or non-finite triangles draw nothing.
    #[inline]
    pub fn triangle(
        &mut self,
        v: [Projected; 3],
        attributes: [Vec4; 3],
        shade: impl Fn(Vec4) -> [u8; 4],
    ) {
        let [a, b, c] = v;
        let rows = self.pixels.len() / self.width.max(1);
        let (min_y, max_y) = (a.y.min(b.y).min(c.y), a.y.max(b.y).max(c.y));
        // Sample rows whose centres (y + 0.5) may lie inside; the edge functions decide
        // exactly. Checked first, as most triangles miss most bands. NaN fails every
        // comparison.
        let s = SUPERSAMPLE as usize;
        let (top, bottom) = (
            (self.first_row * s) as f32,
            ((self.first_row + rows) * s) as f32,
        );
        if !(max_y >= top + 0.5 && min_y <= bottom - 0.5) {
            return;
        }
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
        if !area.is_finite() || area.abs() < 1e-9 {
            return;
        }
        let (min_x, max_x) = (a.x.min(b.x).min(c.x), a.x.max(b.x).max(c.x));
        let (samples_x, samples_y) = ((self.width * s) as f32, (self.height * s) as f32);
        if max_x < 0.5 || max_y < 0.5 || min_x > samples_x || min_y > samples_y {
            return;
        }
        // The first and last sample columns and rows whose centres (i + 0.5) lie within
        // the bounding box, clamped to the target, and the pixels holding them. The values
        // are finite here.
        let last_x = samples_x - 1.0;
        let last_y = samples_y - 1.0;
        let x0 = ceil_non_negative((min_x - 0.5).max(0.0).min(last_x)) / s;
        let x1 = floor_non_negative((max_x - 0.5).max(0.0).min(last_x)) / s;
        let y0 = ceil_non_negative((min_y - 0.5).max(0.0).min(last_y)) / s;
        let y1 = floor_non_negative((max_y - 0.5).max(0.0).min(last_y)) / s;
        let (y0, y1) = (y0.max(self.first_row), y1.min(self.first_row + rows - 1));
        if x0 > x1 || y0 > y1 {
            return;
        }
        self.drawn = grow(self.drawn, [x0, x1, y0, y1]);
        let inv_area = area.recip();
        // Barycentric weight of each corner = edge function of the opposite edge / area:
        // edge(p; s, e) = (e.x - s.x)(p.y - s.y) - (e.y - s.y)(p.x - s.x), linear in x and
        // y: `step` per sample column, `rise` per sample row.
        let edges = [(b, c), (c, a), (a, b)];
        let step = edges.map(|(s, e)| -(e.y - s.y) * inv_area);
        let rise = edges.map(|(s, e)| (e.x - s.x) * inv_area);
        // A weight changes by the length of its gradient per sample of distance from its
        // edge: the weight at EDGE_SLACK outside. (Squares in f64, which no f32 overflows,
        // and one `sqrt` instruction, not `hypot`, a libm call.)
        let slack = [0, 1, 2].map(|i| {
            let (dx, dy) = (f64::from(step[i]), f64::from(rise[i]));
            Vec4::splat(-EDGE_SLACK * (dx * dx + dy * dy).sqrt() as f32)
        });
        // Lane 0 of pixel column x0: sample column `s · x0`, centre + 0.5.
        let sx0 = (x0 * s) as f32 + 0.5;
        let base = [0, 1, 2].map(|i| step[i] * (sx0 - edges[i].0.x));
        let lanes =
            [0, 1, 2].map(|i| Vec4::splat(step[i]) * LANE_X + Vec4::splat(rise[i]) * LANE_Y);
        let ahead = step.map(|d| Vec4::splat(d * s as f32));
        let inv_w = [a.inv_w, b.inv_w, c.inv_w];
        let perspective = inv_w[0] != inv_w[1] || inv_w[1] != inv_w[2];
        // Perspective-correct interpolation: attribute × 1/w and 1/w itself (in `w`) are
        // linear on screen; their ratio at a point is the attribute there. Orthographic:
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
        let key_lanes = Vec4::splat(key_dx) * LANE_X + Vec4::splat(key_dy) * LANE_Y;
        let width = self.width;
        // Pixel centres lie between their samples: sample coordinate `s · i + 1`.
        let centre_dx = attribute_dx * s as f32;
        let wide = x1 - x0 + 1 > NARROW_PIXELS;
        let span = (x1 - x0) as f32;
        for y in y0..=y1 {
            let sy = (y * s) as f32 + 0.5;
            let l0 = [0, 1, 2].map(|i| rise[i] * (sy - edges[i].0.y) + base[i]);
            // Wide triangles: the pixels of this row that may hold a covered sample, from
            // the covered sample columns of its two sample rows, widened by a sample on
            // each side; the lanes' edge tests below decide exactly.
            let (first, last) = if wide {
                match row_span(l0, rise, step, span * s as f32 + 1.0) {
                    Some((lo, hi)) => (lo / s, (hi / s).min(x1 - x0)),
                    None => continue,
                }
            } else {
                (0, x1 - x0)
            };
            let px = (x0 + first) as f32;
            let (dx, dy) = ((px * s as f32 + 0.5) - a.x, sy - a.y);
            let mut edge =
                [0, 1, 2].map(|i| Vec4::splat(l0[i] + step[i] * (first * s) as f32) + lanes[i]);
            let mut key = Vec4::splat(a.key + key_dx * dx + key_dy * dy) + key_lanes;
            let (cx, cy) = (px * s as f32 + 1.0 - a.x, (y * s) as f32 + 1.0 - a.y);
            let mut at = weighted[0] + attribute_dx * cx + attribute_dy * cy;
            let key_ahead = Vec4::splat(key_dx * s as f32);
            let row = (y - self.first_row) * width + x0;
            // Within the band by construction; `get_mut` keeps a bad bound from panicking.
            let Some(span) = self.pixels.get_mut(row + first..=row + last) else {
                continue;
            };
            for pixel in span {
                // Lanes within EDGE_SLACK of all three edges (false for NaN).
                let inside =
                    edge[0].cmpge(slack[0]) & edge[1].cmpge(slack[1]) & edge[2].cmpge(slack[2]);
                if inside.any() {
                    sample(pixel, inside, key, at, perspective, &shade);
                }
                for (e, d) in edge.iter_mut().zip(ahead) {
                    *e += d;
                }
                key += key_ahead;
                at += centre_dx;
            }
        }
    }
}

/// The samples of `pixel` in `inside` that `key` is nearer than: their depth becomes `key`
/// and their colour the pixel's, shaded from `at`.
#[inline(always)]
fn sample(
    pixel: &mut Pixel,
    inside: BVec4A,
    key: Vec4,
    at: Vec4,
    perspective: bool,
    shade: &impl Fn(Vec4) -> [u8; 4],
) {
    let old = pixel.depth;
    let wins = inside & key.cmpgt(old);
    let lanes = wins.bitmask();
    if lanes == 0 {
        return;
    }
    pixel.depth = Vec4::select(wins, key, old);
    let colour = shade(if perspective { at * at.w.recip() } else { at });
    let samples = &mut pixel.colour;
    if lanes == 0b1111 {
        *samples = [colour; 4];
    } else {
        for (lane, sample) in samples.iter_mut().enumerate() {
            if lanes >> lane & 1 != 0 {
                *sample = colour;
            }
        }
    }
}

/// The sample columns, counted from the row's first, where every weight
/// `l0_i + step_i · k` of either sample row of a pixel row (the second one `rise` lower)
/// is >= 0, widened by one on each side and kept within `0..=last`; `None` when there are
/// none.
#[inline]
fn row_span(l0: [f32; 3], rise: [f32; 3], step: [f32; 3], last: f32) -> Option<(usize, usize)> {
    let mut range: Option<(f32, f32)> = None;
    for row in 0..2 {
        let (mut lo, mut hi) = (0.0_f32, last);
        for i in 0..3 {
            let l = l0[i] + rise[i] * row as f32;
            if step[i] > 0.0 {
                lo = lo.max(-l / step[i]);
            } else if step[i] < 0.0 {
                hi = hi.min(-l / step[i]);
            } else if l < 0.0 {
                hi = -1.0;
            }
        }
        // Also false for NaN.
        if lo <= hi {
            range = Some(match range {
                Some((a, b)) => (a.min(lo), b.max(hi)),
                None => (lo, hi),
            });
        }
    }
    let (lo, hi) = range?;
    let lo = ceil_non_negative((lo - 1.0).max(0.0));
    let hi = floor_non_negative((hi + 1.0).min(last));
    (lo <= hi).then_some((lo, hi))
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
mod tests;
