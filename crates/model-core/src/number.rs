//! Numbers parsed straight from the bytes of a text format, with exactly the results of
//! `str::parse`.
//!
//! Text readers spend much of their time on numbers, and most numbers in real files are
//! short plain decimals (`-0.123456`, `42`). Those take a fast path here: one pass over the
//! digits, no UTF-8 check, and for floats Clinger's exact case — an integer mantissa and a
//! power of ten that are both exactly representable give a correctly rounded quotient with
//! one division, so the result is bit for bit what `str::parse` returns. Anything else
//! (exponents, `inf`, long mantissas, malformed text) goes to `str::parse` itself.

/// A plain decimal `[+-]?digits[.digits]` (or `[+-]?.digits`): its sign, its digits as an
/// integer with trailing fraction zeros removed, and how many fraction digits remain.
///
/// Public so a reader can store such a number more compactly than an `f64` (its value is
/// exactly what [`parse_f64`] gives: `mantissa / 10^fraction_digits`, negated if `negative`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimal {
    /// A leading `-`.
    pub negative: bool,
    /// The digits as an integer, trailing fraction zeros removed.
    pub mantissa: u64,
    /// Digits after the point that remain.
    pub fraction_digits: u32,
}

/// Reads a plain decimal of at most 19 digits once trailing fraction zeros are dropped (so
/// the mantissa cannot overflow `u64`); `None` for anything else, which the callers hand to
/// `str::parse`.
pub fn plain_decimal(bytes: &[u8]) -> Option<Decimal> {
    match plain_decimal_prefix(bytes) {
        Some((decimal, len)) if len == bytes.len() => Some(decimal),
        _ => None,
    }
}

/// The plain decimal `bytes` start with and its length in bytes: the longest
/// `[+-]?digits[.digits]` or `[+-]?.digits` prefix, if it has at most 19 digits once
/// trailing fraction zeros are dropped. A reader that knows which bytes end a number checks
/// the byte after it, and so finds the number without first finding the end of the word.
/// Where the whole of `bytes` is such a number, this is [`plain_decimal`]'s.
///
/// Inlined into the readers: it runs once per number of a text file.
#[inline]
pub fn plain_decimal_prefix(bytes: &[u8]) -> Option<(Decimal, usize)> {
    let (negative, sign) = match bytes.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let body = &bytes[sign..];
    // One pass over the digits with plain indexing: this runs for every number of a text
    // file, so iterator adapters and divisions are kept out of it. Arithmetic wraps; a
    // mantissa of more than 19 digits is refused afterwards, before it is used.
    let mut mantissa = 0u64;
    let mut at = 0;
    while let Some(&byte) = body.get(at) {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(digit));
        at += 1;
    }
    let integer_digits = at;
    let mut fraction_digits = 0;
    if body.get(at) == Some(&b'.') {
        let start = at + 1;
        // The common case, at most 7 fraction digits and a byte after them among the next
        // 8 (`0.11631 `), reads those 8 bytes at once.
        if let Some(digits) = body.get(start..start + 8).and_then(short_fraction)
            && (integer_digits > 0 || digits.len > 0)
        {
            if integer_digits + digits.kept > 19 {
                return None;
            }
            let decimal = Decimal {
                negative,
                mantissa: mantissa
                    .wrapping_mul(POW10_U64[digits.kept])
                    .wrapping_add(digits.value),
                fraction_digits: digits.kept as u32,
            };
            return Some((decimal, sign + start + digits.len));
        }
        let mut end = start;
        // `20.000000` is 20: trailing zeros are dropped from the text (no division), which
        // keeps the value and widens the fast path. One pass keeps the mantissa and the
        // digit count as of the last non-zero fraction digit.
        let mut running = mantissa;
        while let Some(&byte) = body.get(end) {
            let digit = byte.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            running = running.wrapping_mul(10).wrapping_add(u64::from(digit));
            end += 1;
            if digit != 0 {
                mantissa = running;
                fraction_digits = end - start;
            }
        }
        if integer_digits == 0 && end == start {
            return None;
        }
        at = end;
    } else if integer_digits == 0 {
        return None;
    }
    if integer_digits + fraction_digits > 19 {
        return None;
    }
    let decimal = Decimal {
        negative,
        mantissa,
        fraction_digits: fraction_digits as u32,
    };
    Some((decimal, sign + at))
}

/// 10⁰ … 10⁷, for [`short_fraction`]'s digits.
const POW10_U64: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// A run of fraction digits read by [`short_fraction`].
struct Fraction {
    /// Digits in the run.
    len: usize,
    /// Digits up to the last non-zero one (the trailing zeros dropped).
    kept: usize,
    /// Those digits as an integer.
    value: u64,
}

/// The digits at the start of `bytes` (8 of them), if fewer than 8: each byte is tested
/// and converted in one 64-bit word (no loop per digit).
#[inline]
fn short_fraction(bytes: &[u8]) -> Option<Fraction> {
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    let word = u64::from_le_bytes(bytes.try_into().ok()?);
    // Digits become 0–9 in their byte; any other byte keeps a bit of its high nibble, or
    // goes past 9 (adding 6 then carries into the high nibble). A carry out of a byte of
    // 0xFA or more only reaches the bytes after it, past the first non-digit.
    let t = word ^ 0x3030_3030_3030_3030;
    let non_digit = (t & HIGH) | (t.wrapping_add(0x0606_0606_0606_0606) & HIGH);
    let len = (non_digit.trailing_zeros() / 8) as usize;
    if len == 8 {
        return None;
    }
    let digits = t & ((1u64 << (8 * len)) - 1);
    // The high bit of each byte that holds a non-zero digit (no carries: 9 + 0x7F < 0x100).
    let non_zero = digits.wrapping_add(0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080;
    let kept = (64 - non_zero.leading_zeros() as usize) / 8;
    let value = if kept == 0 {
        0
    } else {
        // The kept digits moved to the top bytes (the ones below read as leading zeros),
        // then combined pairwise: 8 digits, first digit in the lowest byte.
        let v = digits << (8 * (8 - kept));
        let v = v.wrapping_mul(10).wrapping_add(v >> 8);
        let pairs = v & 0x0000_00FF_0000_00FF;
        let next = (v >> 16) & 0x0000_00FF_0000_00FF;
        pairs
            .wrapping_mul(100 + (1_000_000 << 32))
            .wrapping_add(next.wrapping_mul(1 + (10_000 << 32)))
            >> 32
    };
    Some(Fraction { len, kept, value })
}

/// Powers of ten exactly representable as `f64` (10²² is the last).
const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Powers of ten exactly representable as `f32` (10¹⁰ is the last).
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// The text as `&str` parsed by the standard library (the slow, general path).
fn std_parse<T: std::str::FromStr>(bytes: &[u8]) -> Option<T> {
    std::str::from_utf8(bytes).ok()?.parse().ok()
}

/// `str::parse::<f64>` on bytes: `None` where it fails (including non-UTF-8 bytes).
pub fn parse_f64(bytes: &[u8]) -> Option<f64> {
    if let Some(d) = plain_decimal(bytes)
        && d.mantissa <= 1 << 53
        && let Some(&scale) = POW10_F64.get(d.fraction_digits as usize)
    {
        // Both operands are exact, so the one rounding is the correct one.
        let value = d.mantissa as f64 / scale;
        return Some(if d.negative { -value } else { value });
    }
    std_parse(bytes)
}

/// `str::parse::<f32>` on bytes: `None` where it fails (including non-UTF-8 bytes).
pub fn parse_f32(bytes: &[u8]) -> Option<f32> {
    if let Some(d) = plain_decimal(bytes)
        && d.mantissa <= 1 << 24
        && let Some(&scale) = POW10_F32.get(d.fraction_digits as usize)
    {
        // Both operands are exact, so the one rounding is the correct one.
        let value = d.mantissa as f32 / scale;
        return Some(if d.negative { -value } else { value });
    }
    std_parse(bytes)
}

/// `str::parse::<i64>` on bytes: `None` where it fails.
pub fn parse_i64(bytes: &[u8]) -> Option<i64> {
    let (negative, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, bytes),
    };
    // At most 18 digits fit an i64 whatever they are: one pass, no overflow check.
    if !digits.is_empty() && digits.len() <= 18 {
        let mut value = 0i64;
        for &byte in digits {
            let digit = byte.wrapping_sub(b'0');
            if digit > 9 {
                return std_parse(bytes);
            }
            value = value * 10 + i64::from(digit);
        }
        return Some(if negative { -value } else { value });
    }
    std_parse(bytes)
}

/// `str::parse::<i32>` on bytes: `None` where it fails (out of range included).
pub fn parse_i32(bytes: &[u8]) -> Option<i32> {
    parse_i64(bytes).and_then(|v| i32::try_from(v).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn same_f64(text: &str) {
        let want = text.parse::<f64>().ok();
        let got = parse_f64(text.as_bytes());
        assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{text:?}");
    }

    fn same_f32(text: &str) {
        let want = text.parse::<f32>().ok();
        let got = parse_f32(text.as_bytes());
        assert_eq!(got.map(f32::to_bits), want.map(f32::to_bits), "{text:?}");
    }

    fn same_ints(text: &str) {
        assert_eq!(
            parse_i64(text.as_bytes()),
            text.parse::<i64>().ok(),
            "{text:?}"
        );
        assert_eq!(
            parse_i32(text.as_bytes()),
            text.parse::<i32>().ok(),
            "{text:?}"
        );
    }

    #[test]
    fn edge_cases_match_the_standard_library() {
        for text in [
            "0",
            "-0",
            "+0",
            "-0.000000",
            "1.",
            ".5",
            "-.5",
            ".",
            "-",
            "+",
            "",
            "1..2",
            "1.2.3",
            "20.000000",
            "0.1",
            "0.3",
            "16777217",
            "16777216",
            "9007199254740993",
            "9007199254740992",
            "1234567890123456789",
            "12345678901234567890",
            "4e-05",
            "1E5",
            "inf",
            "-inf",
            "NaN",
            "nan",
            "infinity",
            "1_000",
            " 1",
            "1 ",
            "0x10",
            "--1",
            "+-1",
            "3.4028235e38",
            "1e400",
            "0.00000000000000000000001",
            "99999999999",
            "-2147483648",
            "2147483648",
            "-9223372036854775808",
            "9223372036854775807",
            "9223372036854775808",
            "000000000000000000001",
        ] {
            same_f64(text);
            same_f32(text);
            same_ints(text);
        }
        assert_eq!(parse_f64(b"\xff1"), None);
    }

    /// Digits, fraction and length by the definition: the fraction's trailing zeros cut
    /// from the text before its digits are read.
    fn by_definition(bytes: &[u8]) -> Option<(Decimal, usize)> {
        let sign = usize::from(matches!(bytes.first(), Some(b'-' | b'+')));
        let body = &bytes[sign..];
        let digits = |from: usize| {
            from + body[from..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count()
        };
        let integer = digits(0);
        let (fraction, len) = match body.get(integer) {
            Some(b'.') => {
                let end = digits(integer + 1);
                let mut kept = end;
                while kept > integer + 1 && body[kept - 1] == b'0' {
                    kept -= 1;
                }
                (&body[integer + 1..kept], end)
            }
            _ => (&body[..0], integer),
        };
        if len == 0 || (integer == 0 && len == 1) || integer + fraction.len() > 19 {
            return None;
        }
        let mantissa = body[..integer].iter().chain(fraction).fold(0u64, |m, b| {
            m.wrapping_mul(10).wrapping_add(u64::from(b - b'0'))
        });
        let decimal = Decimal {
            negative: bytes.first() == Some(&b'-'),
            mantissa,
            fraction_digits: fraction.len() as u32,
        };
        Some((decimal, sign + len))
    }

    #[test]
    fn short_fractions_before_any_byte_are_read_as_defined() {
        // Every fraction length around the 8-byte word, trailing zeros or not, ended by
        // every byte value (and by nothing but digits beyond the word).
        for digits in [
            "", "0", "5", "05", "50", "1234567", "7654321", "0000000", "1000000",
        ] {
            for len in 0..=digits.len() {
                for end in 0..=255u8 {
                    for before in ["0", "-12", "", "+9999999999999"] {
                        let mut text = format!("{before}.{}", &digits[..len]).into_bytes();
                        text.push(end);
                        text.extend_from_slice(b"12345678");
                        assert_eq!(
                            plain_decimal_prefix(&text),
                            by_definition(&text),
                            "{:?}",
                            String::from_utf8_lossy(&text)
                        );
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn a_prefix_before_any_bytes_is_read_as_defined(
            text in "[-+]?[0-9]{0,21}\\.[0-9]{0,9}",
            tail in proptest::collection::vec(any::<u8>(), 0..12),
        ) {
            let mut bytes = text.into_bytes();
            bytes.extend(tail);
            prop_assert_eq!(plain_decimal_prefix(&bytes), by_definition(&bytes));
        }

        #[test]
        fn a_prefix_is_read_as_defined(text in "[-+]?[0-9]{0,21}(\\.[0-9]{0,24})?[-+ .0-9ex]{0,3}") {
            prop_assert_eq!(plain_decimal_prefix(text.as_bytes()), by_definition(text.as_bytes()));
        }

        #[test]
        fn a_prefix_is_the_longest_plain_decimal_the_text_starts_with(
            text in "[-+]?[0-9]{0,21}(\\.[0-9]{0,5})?[-+ .0-9ex]{0,3}"
        ) {
            let bytes = text.as_bytes();
            match plain_decimal_prefix(bytes) {
                Some((decimal, len)) => {
                    prop_assert_eq!(plain_decimal(&bytes[..len]), Some(decimal));
                    for longer in len + 1..=bytes.len() {
                        prop_assert_eq!(plain_decimal(&bytes[..longer]), None, "{}", longer);
                    }
                }
                None => prop_assert_eq!(plain_decimal(bytes), None),
            }
        }

        #[test]
        fn number_like_text_matches_the_standard_library(text in "[-+]?[0-9]{0,12}(\\.[0-9]{0,12})?") {
            same_f64(&text);
            same_f32(&text);
            same_ints(&text);
        }

        #[test]
        fn printed_floats_read_back_as_the_standard_library_reads_them(
            value in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO,
            decimals in 0usize..10,
        ) {
            let small = value % 1000.0;
            same_f64(&format!("{small:.decimals$}"));
            same_f32(&format!("{small:.decimals$}"));
            same_f64(&format!("{value}"));
            same_f32(&format!("{}", value as f32));
        }
    }
}
