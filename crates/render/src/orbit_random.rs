//! Seeded random orbit cameras, as Objaverse-XL renders its objects: azimuth uniform around
//! the up axis, elevation uniform over the band of the sphere between
//! [`RANDOM_ELEVATION_DEGREES`] (no pole favoured), and the distance jittered by a factor in
//! [`RANDOM_DISTANCE_SCALE`]. The numbers come from SplitMix64, written here, so a seed
//! gives the same cameras on every machine and in every version that keeps this module.

use crate::Orbit;

/// Lowest and highest elevation of a random camera, in degrees.
pub const RANDOM_ELEVATION_DEGREES: [f32; 2] = [-20.0, 60.0];

/// Smallest and largest distance scale of a random camera
/// ([`Orbit::distance_scale`]): from filling the frame to showing the model at two thirds
/// of that size.
pub const RANDOM_DISTANCE_SCALE: [f32; 2] = [1.0, 1.5];

/// SplitMix64 (Steele, Lea and Flood 2014): a 64-bit state stepped by the golden ratio and
/// mixed; small, fast and good enough to place cameras.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)` from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// The next random orbit camera (three numbers: azimuth, elevation, distance).
    pub fn orbit(&mut self) -> Orbit {
        let azimuth = 360.0 * self.unit();
        let [lo, hi] = RANDOM_ELEVATION_DEGREES.map(|d| libm::sin(f64::from(d).to_radians()));
        let elevation = libm::asin(lo + (hi - lo) * self.unit()).to_degrees();
        let [near, far] = RANDOM_DISTANCE_SCALE.map(f64::from);
        let scale = near + (far - near) * self.unit();
        Orbit {
            azimuth_degrees: azimuth as f32,
            elevation_degrees: elevation as f32,
            distance_scale: scale as f32,
        }
    }
}

impl Orbit {
    /// `count` random cameras from `seed` (see the module's rule): the same seed gives the
    /// same cameras. The first `count` of [`SplitMix64::orbit`]'s sequence.
    pub fn random(count: u32, seed: u64) -> Vec<Orbit> {
        let mut random = SplitMix64::new(seed);
        (0..count).map(|_| random.orbit()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_gives_the_reference_sequence() {
        // The first outputs of the reference implementation seeded with 0.
        let mut random = SplitMix64::new(0);
        assert_eq!(random.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(random.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(random.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn random_orbits_stay_in_their_ranges_and_repeat_by_seed() {
        let orbits = Orbit::random(500, 7);
        assert_eq!(orbits, Orbit::random(500, 7));
        assert_ne!(orbits, Orbit::random(500, 8));
        assert_eq!(Orbit::random(3, 7), orbits[..3]);
        for o in &orbits {
            assert!((0.0..360.0).contains(&o.azimuth_degrees), "{o:?}");
            assert!((-20.0..=60.0).contains(&o.elevation_degrees), "{o:?}");
            assert!((1.0..=1.5).contains(&o.distance_scale), "{o:?}");
        }
        // Spread over the ranges, not stuck.
        let high = orbits.iter().filter(|o| o.elevation_degrees > 20.0).count();
        let behind = orbits.iter().filter(|o| o.azimuth_degrees > 180.0).count();
        assert!((150..350).contains(&high) && (200..300).contains(&behind));
    }
}
