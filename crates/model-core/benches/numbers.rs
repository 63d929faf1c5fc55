//! The readers' number parser beside the SIMD-class float parsers (`fast-float2`,
//! `lexical-parse-float`) and the standard library, on the numbers text model files hold:
//! 5- and 6-decimal coordinates and quaternions, short weights and integers.
//!
//! Two shapes: a word already cut out (`parse_f32` against each parser's whole-text entry),
//! and a number found at the start of the rest of a line, its end found while parsing
//! (`plain_decimal_prefix` against each parser's `parse_partial`), to `f64`, the way the
//! IQE reader's line parser uses it.

use criterion::{Criterion, Throughput, criterion_main};
use lexical_parse_float::FromLexical;
use rigport_model_core::number::{parse_f32, plain_decimal_prefix};
use std::hint::black_box;

/// Deterministic noise in `[-1, 1)`.
fn noise(seed: u64) -> f64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// A line's worth of numbers as IQE, MD5 and SMD exporters write them: one in four an
/// integer or a one-decimal weight, the rest 5 or 6 decimals.
fn words(count: u64) -> Vec<String> {
    (0..count)
        .map(|i| {
            let v = noise(i) * 2.0;
            match i % 8 {
                0 => format!("{}", (v.abs() * 500.0) as u32),
                1 => format!("{:.1}", v.abs() / 2.0),
                2..=4 => format!("{v:.5}"),
                _ => format!("{v:.6}"),
            }
        })
        .collect()
}

/// Powers of ten exactly representable as `f64`, as `number::parse_f64` divides by them.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The `f64` of a parsed `Decimal`, as the IQE reader decodes the ones it stored (these
/// inputs are all within the exact case).
fn decimal_value(d: rigport_model_core::number::Decimal) -> f64 {
    let value = d.mantissa as f64 / POW10[d.fraction_digits as usize];
    if d.negative { -value } else { value }
}

fn bench_numbers(c: &mut Criterion) {
    let words = words(100_000);
    let text = words.join(" ") + "\n";
    let bytes: usize = words.iter().map(String::len).sum();
    // Every parser gives every number the same bits, or the comparison means nothing.
    for w in &words {
        let want = w.parse::<f32>().unwrap().to_bits();
        assert_eq!(parse_f32(w.as_bytes()).map(f32::to_bits), Some(want), "{w}");
        let fast: f32 = fast_float2::parse(w).unwrap();
        assert_eq!(fast.to_bits(), want, "{w}");
        let lexical = f32::from_lexical(w.as_bytes()).unwrap();
        assert_eq!(lexical.to_bits(), want, "{w}");
    }

    let mut group = c.benchmark_group("numbers/word");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("rigport parse_f32", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for w in &words {
                sum += parse_f32(black_box(w.as_bytes())).unwrap_or(0.0);
            }
            sum
        })
    });
    group.bench_function("fast-float2", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for w in &words {
                sum += fast_float2::parse::<f32, _>(black_box(w.as_bytes())).unwrap_or(0.0);
            }
            sum
        })
    });
    group.bench_function("lexical-parse-float", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for w in &words {
                sum += f32::from_lexical(black_box(w.as_bytes())).unwrap_or(0.0);
            }
            sum
        })
    });
    group.bench_function("str::parse", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for w in &words {
                sum += black_box(w.as_str()).parse::<f32>().unwrap_or(0.0);
            }
            sum
        })
    });
    group.finish();

    // The same bits in the line shape too, where the IQE reader wants `f64`.
    for w in &words {
        let want = w.parse::<f64>().unwrap().to_bits();
        let (decimal, len) = plain_decimal_prefix(w.as_bytes()).unwrap();
        assert_eq!(
            (decimal_value(decimal).to_bits(), len),
            (want, w.len()),
            "{w}"
        );
    }

    let mut group = c.benchmark_group("numbers/line");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("rigport plain_decimal_prefix", |b| {
        b.iter(|| {
            let line = black_box(text.as_bytes());
            let (mut at, mut sum) = (0, 0.0f64);
            while let Some((decimal, len)) = plain_decimal_prefix(&line[at..]) {
                sum += decimal_value(decimal);
                at += len + 1;
            }
            sum
        })
    });
    group.bench_function("fast-float2 parse_partial", |b| {
        b.iter(|| {
            let line = black_box(text.as_bytes());
            let (mut at, mut sum) = (0, 0.0f64);
            while let Ok((value, len)) = fast_float2::parse_partial::<f64, _>(&line[at..]) {
                sum += value;
                at += len + 1;
            }
            sum
        })
    });
    group.bench_function("lexical-parse-float parse_partial", |b| {
        b.iter(|| {
            let line = black_box(text.as_bytes());
            let (mut at, mut sum) = (0, 0.0f64);
            while let Ok((value, len)) = f64::from_lexical_partial(&line[at..]) {
                sum += value;
                at += len + 1;
            }
            sum
        })
    });
    group.finish();
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench_numbers(&mut c);
}

criterion_main!(benches);
