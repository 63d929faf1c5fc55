//! `f32` as the shortest decimal that reads back to the same value, in positional notation
//! (`0.00004`, never `4e-5`: MilkShape's own reader takes no exponent).
//!
//! The digits come from `ryu` (std's `Display` holds the writer under 200 MB/s);
//! this module only places the decimal point. Between two equally short candidates ryu may
//! pick the other one than std (ties to even); both read back to the same `f32`.

/// Longest text [`format`] makes: the largest `f32` has 39 integer digits, the smallest
/// subnormal `0.` plus 44 zeros and 2 digits; a sign on top.
const MAX_LEN: usize = 64;

/// A buffer for [`format`], reused between numbers.
pub(crate) struct Formatter {
    ryu: ryu::Buffer,
    out: [u8; MAX_LEN],
}

impl Formatter {
    pub(crate) fn new() -> Self {
        Self {
            ryu: ryu::Buffer::new(),
            out: [0; MAX_LEN],
        }
    }

    /// The text of `value`, as std's `Display` spells it (`1`, `-0`, `0.8`, `0.00004`,
    /// `100000000000000000000`). Not-finite values give `NaN`, `inf` or `-inf`, which the
    /// reader refuses; `from_model` never writes them.
    pub(crate) fn format(&mut self, value: f32) -> &[u8] {
        if !value.is_finite() {
            return if value.is_nan() {
                b"NaN"
            } else if value > 0.0 {
                b"inf"
            } else {
                b"-inf"
            };
        }
        let text = self.ryu.format_finite(value).as_bytes();
        if !text.contains(&b'e') {
            // Positional already (ryu's choice for most magnitudes); std writes no `.0`.
            return text.strip_suffix(b".0").unwrap_or(text);
        }
        let (negative, text) = match text.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, text),
        };
        let (mantissa, exponent) = match text.iter().position(|&b| b == b'e') {
            Some(e) => (&text[..e], parse_exponent(&text[e + 1..])),
            None => (text, 0),
        };
        // Digits without the point, and where the point was.
        let mut digits = [0u8; 24];
        let mut count = 0usize;
        let mut point = mantissa.len() as i32;
        for (i, &b) in mantissa.iter().enumerate() {
            if b == b'.' {
                point = i as i32;
            } else if count < digits.len() {
                digits[count] = b;
                count += 1;
            }
        }
        let mut digits = &digits[..count];
        let mut point = point + exponent;
        while let Some((b'0', rest)) = digits.split_first() {
            digits = rest;
            point -= 1;
        }
        while let Some((b'0', rest)) = digits.split_last() {
            digits = rest;
        }
        let mut len = 0usize;
        let mut push = |out: &mut [u8; MAX_LEN], bytes: &[u8]| {
            let end = (len + bytes.len()).min(MAX_LEN);
            out[len..end].copy_from_slice(&bytes[..end - len]);
            len = end;
        };
        if negative {
            push(&mut self.out, b"-");
        }
        if digits.is_empty() {
            push(&mut self.out, b"0");
        } else if point <= 0 {
            push(&mut self.out, b"0.");
            for _ in 0..-point {
                push(&mut self.out, b"0");
            }
            push(&mut self.out, digits);
        } else if point as usize >= digits.len() {
            push(&mut self.out, digits);
            for _ in digits.len()..point as usize {
                push(&mut self.out, b"0");
            }
        } else {
            let (int, frac) = digits.split_at(point as usize);
            push(&mut self.out, int);
            push(&mut self.out, b".");
            push(&mut self.out, frac);
        }
        &self.out[..len]
    }
}

/// The exponent after ryu's `e` (`-7`, `16`); ryu writes nothing else there.
fn parse_exponent(text: &[u8]) -> i32 {
    let (sign, digits) = match text.split_first() {
        Some((b'-', rest)) => (-1, rest),
        _ => (1, text),
    };
    sign * digits.iter().fold(0i32, |n, &d| {
        n.saturating_mul(10)
            .saturating_add(i32::from(d.wrapping_sub(b'0')))
    })
}

#[cfg(test)]
mod tests {
    use super::Formatter;

    fn text(value: f32) -> String {
        String::from_utf8(Formatter::new().format(value).to_vec()).unwrap()
    }

    #[test]
    fn positional_shortest_digits_as_display_spells_them() {
        let cases = [
            (0.8_f32, "0.8"),
            (4e-5, "0.00004"),
            (-1.005, "-1.005"),
            (1.0, "1"),
            (-0.0, "-0"),
            (0.0, "0"),
            (1e20, "100000000000000000000"),
            (123.456, "123.456"),
            (1.5e-7, "0.00000015"),
            (f32::MAX, "340282350000000000000000000000000000000"),
        ];
        for (value, expected) in cases {
            assert_eq!(text(value), expected, "{value:?}");
            assert_eq!(format!("{value}"), expected, "std agrees on {value:?}");
        }
        // The smallest subnormal: 0.000…0001 with 44 zeros after the point, then 4.
        let tiny = text(f32::from_bits(1));
        assert_eq!(tiny, format!("{}", f32::from_bits(1)));
        assert!(tiny.len() <= super::MAX_LEN);
    }

    #[test]
    fn every_exponent_and_many_mantissas_read_back_bit_identical() {
        // Every binary exponent, both signs, a spread of mantissas (including subnormals);
        // each text parses back to the same bits and has no exponent.
        let mut formatter = Formatter::new();
        let mut checked = 0usize;
        for exponent in 0u32..255 {
            for mantissa in [0u32, 1, 2, 0x0ccccd, 0x3fffff, 0x400000, 0x7ffffe, 0x7fffff] {
                for sign in [0u32, 1] {
                    let bits = sign << 31 | exponent << 23 | mantissa;
                    let value = f32::from_bits(bits);
                    let text = std::str::from_utf8(formatter.format(value))
                        .unwrap()
                        .to_owned();
                    assert!(!text.contains(['e', 'E']), "{text}");
                    let back: f32 = text.parse().unwrap();
                    assert_eq!(back.to_bits(), bits, "{text}");
                    // Never longer than std's shortest spelling.
                    assert!(text.len() <= format!("{value}").len(), "{text} vs {value}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 255 * 8 * 2);
    }
}
