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

    /// The picture: each pixel the mean of its samples (rows filtered in parallel when the
    /// fill was). On one thread the picture is written as it is computed, without first
    /// zeroing a buffer (with the allocator keeping freed pictures for reuse, zeroing 1 MiB
    /// a picture was 4 % of drawing a library).
    ///
    /// With `clear`, each pixel's depths are emptied as it is read, for a caller that reads
    /// nothing more from this picture: the next [`Target::reset`] then has nothing to clear.
    /// Clearing in a pass of its own read and wrote the whole drawn box once more, a fifth
    /// of the time of drawing a library (its cost is memory traffic, not instructions).
    pub fn resolve(&mut self, clear: bool) -> RgbaImage {
        self.resolve_with::<false>(clear, &|_| 0.0, None).0
    }

    /// [`Target::resolve`], also finding the pixels a triangle covers as
    /// [`Target::resolve_depth`] with `distance` (monotonic in the key) would give them a
    /// depth above 0: their box and count, in the same reading of each pixel, with no
    /// depth picture drawn.
    ///
    /// With `shown`, the smallest key whose distance is finite and above 0 when every
    /// larger finite key's is and no smaller one's is ([`shown_from`]), a pixel is covered
    /// when a sample reaches it, and distances are not asked.
    pub fn resolve_covered(
        &mut self,
        clear: bool,
        distance: &(dyn Fn(f32) -> f32 + Sync),
        shown: Option<f32>,
    ) -> (RgbaImage, Cover) {
        self.resolve_with::<true>(clear, distance, shown)
    }

    /// [`Target::resolve`], counting the covered pixels when `COVER` (`distance` is not
    /// called otherwise).
    fn resolve_with<const COVER: bool>(
        &mut self,
        clear: bool,
        distance: &(dyn Fn(f32) -> f32 + Sync),
        shown: Option<f32>,
    ) -> (RgbaImage, Cover) {
        let (w, h) = pixels(self.width, self.height);
        let background = u32::from_le_bytes(self.background);
        // Outside the box drawn on, every pixel is the background.
        let [x0, x1, y0, y1] = self.dirty.get().unwrap_or([1, 0, 1, 0]);
        let (columns, rows) = (x0..x1.saturating_add(1), y0..y1.saturating_add(1));
        // The pixels of row `y` that may have been drawn on.
        let drawn = |y: usize| {
            if rows.contains(&y) {
                columns.start.min(w)..columns.end.min(w)
            } else {
                0..0
            }
        };
        let fill = background.to_le_bytes();
        let resolve = |pixel: &mut Pixel| {
            let colour = resolved(pixel, background);
            if clear {
                pixel.depth = Vec4::splat(EMPTY);
            }
            colour
        };
        // Counts pixel `x` of a row in `row` when covered, before `resolve` empties it.
        // The covered pixels of a row's drawn part `pixels` (from column `first`), read
        // before `resolve` empties them.
        let count = |pixels: &[Pixel], first: usize| {
            shown
                .and_then(|shown| row_cover(pixels, first, shown))
                .unwrap_or_else(|| {
                    let mut row = RowCover::NONE;
                    for (x, pixel) in (first..).zip(pixels) {
                        if nearest_distance(pixel, distance) > 0.0 {
                            row.first = row.first.min(x);
                            row.last = x;
                            row.count += 1;
                        }
                    }
                    row
                })
        };
        let mut cover = Cover::NONE;
        let out: Vec<[u8; 4]> = if w == 0 {
            Vec::new()
        } else if self.parallel {
            let mut out = vec![[0u8; 4]; w * h];
            cover = out
                .par_chunks_mut(w)
                .zip(self.pixels.par_chunks_mut(w))
                .enumerate()
                .map(|(y, (line, pixels))| {
                    let drawn = drawn(y);
                    line[..drawn.start].fill(fill);
                    line[drawn.end..].fill(fill);
                    let row = match COVER {
                        true => count(&pixels[drawn.clone()], drawn.start),
                        false => RowCover::NONE,
                    };
                    for (out, pixel) in line[drawn.clone()].iter_mut().zip(&mut pixels[drawn]) {
                        *out = resolve(pixel);
                    }
                    row.at(y)
                })
                .reduce(|| Cover::NONE, Cover::join);
            out
        } else {
            let mut out = Vec::with_capacity(w * h);
            for (y, pixels) in self.pixels.chunks_exact_mut(w).enumerate() {
                let drawn = drawn(y);
                if COVER {
                    cover = cover.join(count(&pixels[drawn.clone()], drawn.start).at(y));
                }
                out.extend(std::iter::repeat_n(fill, drawn.start));
                out.extend(pixels[drawn.clone()].iter_mut().map(resolve));
                out.extend(std::iter::repeat_n(fill, w - drawn.end));
            }
            out
        };
        if clear {
            self.dirty = Dirty::empty();
        }
        let image = RgbaImage::from_raw(w as u32, h as u32, out.into_flattened())
            .unwrap_or_else(|| RgbaImage::new(w as u32, h as u32));
        (image, cover)
    }

    /// The distance [`Target::resolve_depth`] gives pixel (`x`, `y`) (which must lie in
    /// the picture), read from the samples without drawing the depth picture.
    pub fn depth_at(&self, x: u32, y: u32, distance: impl Fn(f32) -> f32) -> f32 {
        let w = (self.width / SUPERSAMPLE) as usize;
        nearest_distance(&self.pixels[y as usize * w + x as usize], &distance)
    }

    /// Each pixel's distance (`distance(key)` of its nearest sample covered by a
    /// triangle), 0 where none is.
    pub fn resolve_depth(&self, distance: impl Fn(f32) -> f32 + Sync) -> crate::DepthImage {
        let (w, h) = pixels(self.width, self.height);
        let mut out = vec![0f32; w * h];
        let one = |(out, pixel): (&mut f32, &Pixel)| {
            *out = nearest_distance(pixel, &distance);
        };
        if self.parallel {
            out.par_iter_mut().zip(&self.pixels[..]).for_each(one);
        } else {
            out.iter_mut().zip(&self.pixels[..]).for_each(one);
        }
        image::ImageBuffer::from_raw(w as u32, h as u32, out)
            .unwrap_or_else(|| image::ImageBuffer::new(w as u32, h as u32))
    }

    /// Each pixel's share of its samples covered by a triangle, 0–255.
    pub fn resolve_mask(&self) -> image::GrayImage {
        let (w, h) = pixels(self.width, self.height);
        let share = |pixel: &Pixel| {
            let covered = pixel
                .depth
                .cmpgt(Vec4::splat(LINE_ONLY))
                .bitmask()
                .count_ones();
            ((covered * 255 + 2) / 4) as u8
        };
        let out: Vec<u8> = if self.parallel {
            self.pixels.par_iter().map(share).collect()
        } else {
            self.pixels.iter().map(share).collect()
        };
        image::GrayImage::from_raw(w as u32, h as u32, out)
            .unwrap_or_else(|| image::GrayImage::new(w as u32, h as u32))
    }
}

/// A pixel's depth: `distance(key)` of its nearest sample covered by a triangle, 0 where
/// none is (or the distance is not a finite one).
#[inline]
fn nearest_distance<F: Fn(f32) -> f32 + ?Sized>(pixel: &Pixel, distance: &F) -> f32 {
    let nearest = pixel.depth.max_element();
    if nearest > LINE_ONLY {
        let d = distance(nearest);
        if d.is_finite() { d.max(0.0) } else { 0.0 }
    } else {
        0.0
    }
}

/// For a perspective camera's `distance` (`near / key` as `f32`): the smallest key whose
/// distance is finite and above 0, found among the positive `f32`s by halving (the
/// distance falls as the key grows, so every larger key's is too; a key of 0 or below has
/// none). `None` when the largest key's distance is not such a one, or 0's is.
pub(crate) fn shown_from(distance: impl Fn(f32) -> f32) -> Option<f32> {
    let shown = |bits: u32| {
        let d = distance(f32::from_bits(bits));
        d.is_finite() && d > 0.0
    };
    let (mut lo, mut hi) = (0f32.to_bits(), f32::MAX.to_bits());
    if shown(lo) || !shown(hi) {
        return None;
    }
    // shown(hi) and not shown(lo) throughout.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if shown(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(f32::from_bits(hi))
}

/// The covered pixels of one row: first and last column, and how many.
#[derive(Clone, Copy)]
struct RowCover {
    first: usize,
    last: usize,
    count: u64,
}

impl RowCover {
    const NONE: RowCover = RowCover {
        first: usize::MAX,
        last: 0,
        count: 0,
    };

    /// These pixels, of row `y`.
    fn at(self, y: usize) -> Cover {
        if self.count == 0 {
            return Cover::NONE;
        }
        Cover {
            lo: [self.first, y],
            hi: [self.last, y],
            area: self.count,
        }
    }
}

/// The covered pixels of `pixels` (a row's, from column `first`): those with a sample
/// at least `shown` ([`shown_from`]), counted without asking distances; `None` when a
/// sample is not finite, whose pixel's distance is asked instead.
fn row_cover(pixels: &[Pixel], first: usize, shown: f32) -> Option<RowCover> {
    let shown = Vec4::splat(shown);
    let mut top = Vec4::splat(EMPTY);
    let mut count = 0u64;
    for pixel in pixels {
        let depth = pixel.depth;
        top = top.max(depth);
        count += u64::from(depth.cmpge(shown).any());
    }
    let top = top.max_element();
    if top.is_nan() || top == f32::INFINITY {
        return None;
    }
    let covered = |pixel: &Pixel| pixel.depth.cmpge(shown).any();
    Some(match pixels.iter().position(covered) {
        Some(start) => RowCover {
            first: first + start,
            last: first + pixels.iter().rposition(covered).unwrap_or(start),
            count,
        },
        None => RowCover::NONE,
    })
}

/// The pixels of a picture a triangle covers: their box and how many
/// ([`Target::resolve_covered`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cover {
    /// Smallest column and row covered (`usize::MAX`: none).
    lo: [usize; 2],
    /// Largest column and row covered.
    hi: [usize; 2],
    /// Pixels covered.
    area: u64,
}

impl Cover {
    /// Nothing covered.
    const NONE: Cover = Cover {
        lo: [usize::MAX; 2],
        hi: [0; 2],
        area: 0,
    };

    /// The pixels of both.
    fn join(self, other: Cover) -> Cover {
        Cover {
            lo: [self.lo[0].min(other.lo[0]), self.lo[1].min(other.lo[1])],
            hi: [self.hi[0].max(other.hi[0]), self.hi[1].max(other.hi[1])],
            area: self.area + other.area,
        }
    }

    /// The box `[x, y, width, height]` (`None`: nothing covered).
    pub fn bbox(&self) -> Option<[u32; 4]> {
        (self.area > 0).then(|| {
            [
                self.lo[0] as u32,
                self.lo[1] as u32,
                (self.hi[0] - self.lo[0] + 1) as u32,
                (self.hi[1] - self.lo[1] + 1) as u32,
            ]
        })
    }

    /// How many pixels are covered.
    pub fn area(&self) -> u64 {
        self.area
    }
}

/// A pixel of the picture: the mean of its samples, `background` for those not drawn on.
#[inline(always)]
fn resolved(pixel: &Pixel, background: u32) -> [u8; 4] {
    let lanes = pixel.depth.cmpgt(Vec4::splat(EMPTY)).bitmask();
    match lanes {
        0 => background.to_le_bytes(),
        // Inside a triangle its four samples hold the one colour it was shaded with.
        0b1111 if pixel.colour[1..].iter().all(|c| *c == pixel.colour[0]) => pixel.colour[0],
        0b1111 => mean(pixel.colour.map(u32::from_le_bytes)).to_le_bytes(),
        _ => mean(select(&pixel.colour, lanes, background)).to_le_bytes(),
    }
}

/// The four samples of a pixel as RGBA words, those not in `lanes` replaced by
/// `background`.
#[inline]
fn select(samples: &[[u8; 4]; 4], lanes: u32, background: u32) -> [u32; 4] {
    std::array::from_fn(|lane| {
        if lanes >> lane & 1 != 0 {
            u32::from_le_bytes(samples[lane])
        } else {
            background
        }
    })
}

/// The mean of four RGBA samples, each channel rounded to nearest, alpha opaque. The
/// samples are taken two to a `u64`, and red and blue (then green) summed at once in
/// 16-bit fields (four 8-bit values cannot overflow them).
#[inline]
fn mean(samples: [u32; 4]) -> u32 {
    const LOW_BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    let [s0, s1, s2, s3] = samples.map(u64::from);
    let (a, b) = (s0 | s1 << 32, s2 | s3 << 32);
    // Fields: r0 + r2, b0 + b2, r1 + r3, b1 + b3, then the two halves added.
    let red_blue = (a & LOW_BYTES) + (b & LOW_BYTES);
    let red_blue = (red_blue & 0xffff_ffff) + (red_blue >> 32);
    let green = ((a >> 8) & LOW_BYTES) + ((b >> 8) & LOW_BYTES);
    let green = (green & 0xffff) + (green >> 32 & 0xffff);
    // + 2 in each field rounds the division by 4 to nearest.
    let red_blue = ((red_blue + 0x0002_0002) >> 2) & 0x00ff_00ff;
    let green = ((green + 2) >> 2) & 0xff;
    (red_blue | green << 8 | 0xff00_0000) as u32
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
                    let d = [(1, 2), (2, 0), (0, 1)].map(|(i, j)| {
                        edge(p[i], p[j], cx, cy) / area.signum() / length(p[i], p[j])
                    });
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
}
