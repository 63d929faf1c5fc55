//! Numbers stored in one 32-bit word each.
//!
//! An IQE file is mostly short decimals (`0.148410`, `72`): an `f64` or `i64` per value
//! would hold more memory than the text it came from. A word holds such a value in place —
//! a float as the decimal `m / 10^f` (27-bit signed mantissa, 4-bit `f`), an integer as a
//! 31-bit signed value — and anything else (long mantissas, exponents, `-0`, `inf`, huge
//! integers) as the index of a full value in a side table, flagged by the top bit.
//!
//! The encoding is canonical: a value is packed in place exactly when it can be, whether it
//! came from text or from a program, so two stores holding the same values hold the same
//! words. A packed float decodes with one exact division, bit for bit what
//! [`parse_f64`](rigport_model_core::number::parse_f64) gives for its text (Clinger's fast
//! path), and its shortest text is its own digits, which the writer prints without any
//! float formatting.

use rigport_model_core::number::{Decimal, parse_f64, plain_decimal};

/// Top bit: the rest of the word indexes the side table.
const WIDE: u32 = 1 << 31;
/// Largest mantissa magnitude a packed float holds (27-bit two's complement).
const MAX_MANTISSA: u64 = (1 << 26) - 1;
/// Most fraction digits a packed float holds (4 bits).
const MAX_FRACTION: u32 = 15;
/// Range of a packed integer (31-bit two's complement).
const INT_RANGE: std::ops::RangeInclusive<i64> = -(1 << 30)..=(1 << 30) - 1;

/// Powers of ten exactly representable as `f64`, for the packed fraction digits.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// Values too large or too odd for a word, indexed by the word's lower 31 bits.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Wide {
    pub floats: Vec<f64>,
    pub ints: Vec<i64>,
}

/// The word of the decimal `±mantissa / 10^fraction_digits`, if it fits in place.
fn packed_decimal(d: Decimal) -> Option<u32> {
    if d.mantissa > MAX_MANTISSA || d.fraction_digits > MAX_FRACTION {
        return None;
    }
    if d.negative && d.mantissa == 0 {
        return None; // −0 has no two's complement mantissa
    }
    let m = if d.negative {
        -(d.mantissa as i32)
    } else {
        d.mantissa as i32
    };
    Some(((m as u32) << 4) & !WIDE | d.fraction_digits)
}

/// The word of `value` if some decimal of at most 8 digits and 15 fraction digits is
/// exactly it (the canonical test: text and programs pack the same values).
pub(crate) fn pack_f64(value: f64) -> Option<u32> {
    if !value.is_finite() || value.abs() > MAX_MANTISSA as f64 {
        return None;
    }
    if value == 0.0 && value.is_sign_negative() {
        return None; // −0 has no two's complement mantissa
    }
    for (f, &scale) in POW10.iter().enumerate() {
        let scaled = value * scale;
        if scaled.abs() > MAX_MANTISSA as f64 {
            return None;
        }
        let m = scaled.round();
        // A shorter decimal than the shortest one of `value` cannot equal it, so the first
        // `f` that gives back exactly `value` is the one its text would have.
        if (m / scale).to_bits() == value.to_bits() {
            return packed_decimal(Decimal {
                negative: m < 0.0,
                mantissa: m.abs() as u64,
                fraction_digits: f as u32,
            });
        }
    }
    None
}

/// The mantissa and fraction digits of a packed float, `None` for a wide one.
pub(crate) fn decimal_parts(word: u32) -> Option<(i32, u32)> {
    if word & WIDE != 0 {
        return None;
    }
    // Shift the 27-bit mantissa to the top, then back down with sign extension.
    let mantissa = ((word << 1) as i32) >> 5;
    Some((mantissa, word & 0xF))
}

/// The value of a packed float word, `None` for a wide one.
pub(crate) fn packed_f64(word: u32) -> Option<f64> {
    // Both operands are exact, so the one rounding is the correct one.
    decimal_parts(word).map(|(m, f)| f64::from(m) / POW10[f as usize])
}

/// The value of a float word.
pub(crate) fn unpack_f64(word: u32, wide: &Wide) -> f64 {
    match packed_f64(word) {
        Some(value) => value,
        None => wide
            .floats
            .get((word & !WIDE) as usize)
            .copied()
            .unwrap_or(0.0),
    }
}

/// The value of an integer word.
pub(crate) fn unpack_i64(word: u32, wide: &Wide) -> i64 {
    if word & WIDE == 0 {
        i64::from(((word << 1) as i32) >> 1)
    } else {
        wide.ints.get((word & !WIDE) as usize).copied().unwrap_or(0)
    }
}

/// Whether a word indexes a side table instead of holding its value.
pub(crate) fn is_wide(word: u32) -> bool {
    word & WIDE != 0
}

impl Wide {
    /// The word for a float, adding it to the side table when it does not fit in place.
    pub fn float_word(&mut self, value: f64) -> Option<u32> {
        pack_f64(value).or_else(|| Self::index(&mut self.floats, value))
    }

    /// The word for the number spelled `text`, or `None` when it is not a number. Plain
    /// short decimals are packed from their digits without computing a float at all.
    pub fn float_word_from_text(&mut self, text: &[u8]) -> Option<Option<u32>> {
        match plain_decimal(text) {
            Some(decimal) => self.float_word_from_decimal(decimal, text),
            None => parse_f64(text).map(|value| self.float_word(value)),
        }
    }

    /// [`Wide::float_word_from_text`] for a `text` already read as the plain `decimal`.
    pub fn float_word_from_decimal(
        &mut self,
        decimal: Decimal,
        text: &[u8],
    ) -> Option<Option<u32>> {
        if let Some(word) = packed_decimal(decimal) {
            return Some(Some(word));
        }
        parse_f64(text).map(|value| self.float_word(value))
    }

    /// The word for an integer.
    pub fn int_word(&mut self, value: i64) -> Option<u32> {
        if INT_RANGE.contains(&value) {
            return Some(value as u32 & !WIDE);
        }
        Self::index(&mut self.ints, value)
    }

    /// Appends to a side table; `None` once it holds 2³¹ values (a file of many gigabytes).
    fn index<T>(table: &mut Vec<T>, value: T) -> Option<u32> {
        let index = u32::try_from(table.len()).ok().filter(|&i| i < WIDE)?;
        table.push(value);
        Some(index | WIDE)
    }

    /// Table lengths, to undo the values of a line that failed to read.
    pub fn lengths(&self) -> (usize, usize) {
        (self.floats.len(), self.ints.len())
    }

    /// Drops values added after `lengths` were taken.
    pub fn truncate(&mut self, (floats, ints): (usize, usize)) {
        self.floats.truncate(floats);
        self.ints.truncate(ints);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(value: f64) -> (f64, bool) {
        let mut wide = Wide::default();
        let word = wide.float_word(value).unwrap();
        (unpack_f64(word, &wide), word & WIDE == 0)
    }

    #[test]
    fn short_decimals_pack_in_place_and_decode_exactly() {
        for (text, packed) in [
            ("0.148410", true),
            ("-0.148410", true),
            ("67108863", true),
            ("67108864", false),
            ("-6.7108863", true),
            ("0.000000000000001", true),
            ("0.0000000000000001", false),
            ("1e-3", true),
            ("0", true),
            ("-0", false),
            ("-0.000000", false),
            ("123456789", false),
            ("inf", false),
            ("NaN", false),
        ] {
            let expected: f64 = text.parse().unwrap();
            let mut wide = Wide::default();
            let word = wide.float_word_from_text(text.as_bytes()).unwrap().unwrap();
            let got = unpack_f64(word, &wide);
            assert!(
                got.to_bits() == expected.to_bits() || (got.is_nan() && expected.is_nan()),
                "{text}: {got}"
            );
            assert_eq!(word & WIDE == 0, packed, "{text}");
            // Canonical: the value packs to the same word whatever its spelling.
            assert_eq!(
                Wide::default().float_word(expected).map(|w| w & WIDE == 0),
                Some(packed)
            );
            if packed {
                assert_eq!(pack_f64(expected), Some(word), "{text}");
            }
        }
    }

    #[test]
    fn floats_from_f32_round_trip() {
        for bits in (0..u32::MAX).step_by(65_521) {
            let value = f64::from(f32::from_bits(bits));
            if value.is_nan() {
                continue;
            }
            let (back, _) = round_trip(value);
            assert_eq!(back.to_bits(), value.to_bits(), "{value}");
        }
    }

    #[test]
    fn integers_pack_in_place_within_31_bits() {
        for value in [
            0,
            1,
            -1,
            72,
            (1 << 30) - 1,
            -(1 << 30),
            1 << 30,
            i64::MIN,
            i64::MAX,
        ] {
            let mut wide = Wide::default();
            let word = wide.int_word(value).unwrap();
            assert_eq!(unpack_i64(word, &wide), value);
            assert_eq!(word & WIDE == 0, INT_RANGE.contains(&value), "{value}");
        }
    }
}
