//! Number formatting shared by the text writers: six decimals, as MilkShape's `%f` and
//! most IQE exporters print them.

use std::io::Write;

/// Appends `values` as `%.6f` numbers, each preceded by a space.
pub fn numbers(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        // Writing to a Vec cannot fail.
        let _ = write!(out, " {v:.6}");
    }
}

/// Appends `line` (already formatted) and `eol`.
pub fn line(out: &mut Vec<u8>, line: std::fmt::Arguments<'_>, eol: &str) {
    let _ = out.write_fmt(line);
    out.extend_from_slice(eol.as_bytes());
}
