//! Cutting a large text into pieces that threads read at once: the one rule for where the
//! pieces go, for the readers that cut (each says where a piece may start).

/// Cuts `body..len` into at most `count` ranges of about equal length for reading on
/// several threads: after the first, each range starts where `cut_from(target)` says a
/// piece may start, at or after byte `target` (`None`: nowhere, and the rest is one range).
/// The ranges cover the body in order, none is empty.
///
/// ```
/// use rigport_model_core::pieces::cut_ranges;
///
/// let src = b"a\nbb\nccc\ndddd\n";
/// // Pieces start after a newline.
/// let after_newline = |at: usize| {
///     let newline = src[at..].iter().position(|&b| b == b'\n')?;
///     Some(at + newline + 1)
/// };
/// let ranges = cut_ranges(src.len(), 0, 3, after_newline);
/// assert_eq!(ranges, vec![0..5, 5..9, 9..14]);
/// ```
pub fn cut_ranges(
    len: usize,
    body: usize,
    count: usize,
    cut_from: impl Fn(usize) -> Option<usize>,
) -> Vec<std::ops::Range<usize>> {
    let body = body.min(len);
    let count = count.max(1);
    let mut ranges = Vec::with_capacity(count);
    let mut start = body;
    for k in 1..count {
        let target = (body + (len - body) / count * k).max(start);
        let Some(cut) = cut_from(target).filter(|&cut| cut < len) else {
            break;
        };
        if cut > start {
            ranges.push(start..cut);
            start = cut;
        }
    }
    ranges.push(start..len);
    ranges
}
