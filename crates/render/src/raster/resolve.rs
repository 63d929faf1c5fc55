//! The picture a target resolves to: each pixel the mean of its samples (colour), the
//! nearest covered sample's distance (depth), whether any sample is covered (mask).

use super::*;

impl Target {
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
pub(super) fn select(samples: &[[u8; 4]; 4], lanes: u32, background: u32) -> [u32; 4] {
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
pub(super) fn mean(samples: [u32; 4]) -> u32 {
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
