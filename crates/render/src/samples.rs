//! Where a target keeps its pixels. A 512 × 512 target is 8 MiB of samples, touched for
//! the first time by its first picture. On Linux a target of at least [`HUGE_PAGE`] bytes
//! lives in its own anonymous mapping, aligned to and advised for 2 MiB pages, so that
//! first touch costs a few page faults instead of one per 4 KiB (2 048 for 8 MiB, each a
//! trap into the kernel, about a third of a one-model orbit's time). Elsewhere, and when
//! the mapping or the advice fails, the pixels are an ordinary `Vec`.

use glam::Vec4;
use std::ops::{Deref, DerefMut};

/// An empty sample's nearness: every surface is nearer.
pub(crate) const EMPTY: f32 = f32::NEG_INFINITY;

/// One pixel's four samples.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(32))]
pub(crate) struct Pixel {
    /// Each sample's nearness of the closest surface so far (larger is closer; [`EMPTY`]:
    /// nothing drawn, the smallest finite value: only a line).
    pub(crate) depth: Vec4,
    /// Each sample's opaque RGBA colour; meaningful where its depth is not empty.
    pub(crate) colour: [[u8; 4]; 4],
}

impl Pixel {
    /// Nothing drawn.
    pub(crate) const EMPTY: Pixel = Pixel {
        depth: Vec4::splat(EMPTY),
        colour: [[0; 4]; 4],
    };
}

/// Size and alignment of a transparent huge page on x86-64 and AArch64 Linux.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const HUGE_PAGE: usize = 2 << 20;

/// A target's pixels, every one [`Pixel::EMPTY`] when made.
pub(crate) struct Samples(Storage);

enum Storage {
    Heap(Vec<Pixel>),
    #[cfg(target_os = "linux")]
    Mapped {
        map: memmap2::MmapMut,
        /// Where the first pixel is: the first 2 MiB boundary of the mapping.
        offset: usize,
        len: usize,
    },
}

impl Samples {
    /// `len` empty pixels.
    pub fn new(len: usize) -> Self {
        #[cfg(target_os = "linux")]
        if let Some(samples) = Self::mapped(len) {
            return samples;
        }
        Self(Storage::Heap(vec![Pixel::EMPTY; len]))
    }

    /// `len` empty pixels in a mapping of their own, if they are at least a huge page and
    /// the kernel maps them.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize) -> Option<Self> {
        let bytes = len.checked_mul(size_of::<Pixel>())?;
        if bytes < HUGE_PAGE {
            return None;
        }
        let mut map = memmap2::MmapMut::map_anon(bytes.checked_add(HUGE_PAGE)?).ok()?;
        let offset = (HUGE_PAGE - map.as_ptr() as usize % HUGE_PAGE) % HUGE_PAGE;
        // Only advice: without it (THP disabled) the pixels are ordinary pages.
        let _ = map.advise_range(memmap2::Advice::HugePage, offset, bytes);
        // The mapping is zeros; a cast that the alignment would refuse falls back to a Vec.
        bytemuck::try_cast_slice_mut::<u8, Pixel>(&mut map[offset..offset + bytes])
            .ok()?
            .fill(Pixel::EMPTY);
        Some(Self(Storage::Mapped { map, offset, len }))
    }
}

impl Deref for Samples {
    type Target = [Pixel];

    fn deref(&self) -> &[Pixel] {
        match &self.0 {
            Storage::Heap(pixels) => pixels,
            #[cfg(target_os = "linux")]
            Storage::Mapped { map, offset, len } => {
                bytemuck::cast_slice(&map[*offset..*offset + len * size_of::<Pixel>()])
            }
        }
    }
}

impl DerefMut for Samples {
    fn deref_mut(&mut self) -> &mut [Pixel] {
        match &mut self.0 {
            Storage::Heap(pixels) => pixels,
            #[cfg(target_os = "linux")]
            Storage::Mapped { map, offset, len } => {
                bytemuck::cast_slice_mut(&mut map[*offset..*offset + *len * size_of::<Pixel>()])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_storage_hold_empty_pixels() {
        for len in [0, 1, 1000, HUGE_PAGE / size_of::<Pixel>() + 3] {
            let mut samples = Samples::new(len);
            assert_eq!(samples.len(), len);
            assert!(samples.iter().all(|p| *p == Pixel::EMPTY));
            // The last pixel's last byte is writable and read back.
            if let Some(last) = samples.last_mut() {
                bytemuck::bytes_of_mut(last)[31] = 7;
            }
            assert_eq!(
                samples.last().map(|p| bytemuck::bytes_of(p)[31]),
                len.checked_sub(1).map(|_| 7)
            );
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn large_storage_starts_on_a_huge_page_boundary() {
        let samples = Samples::new(HUGE_PAGE / size_of::<Pixel>());
        assert!(matches!(samples.0, Storage::Mapped { .. }));
        assert_eq!(samples.as_ptr() as usize % HUGE_PAGE, 0);
    }
}
