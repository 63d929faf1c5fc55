//! Where a file ufbx refused is damaged. ufbx says what went wrong but not where, so a
//! refused file is walked here: a binary file record by record (headers, property lists,
//! deflated arrays), an ASCII file token by token (strings and braces). The first fault
//! found gives the error its byte offset or `line:column`. Only refused files are walked.

use rigport_model_core::codec::Location;

/// How deep records may nest before the walk stops looking.
const MAX_DEPTH: usize = 4096;

/// The place and description of the first fault in `bytes`, or [`Location::Unknown`] and
/// `None` when the walk finds none (ufbx refused something deeper than the structure).
pub fn locate(bytes: &[u8]) -> (Location, Option<String>) {
    let fault = if crate::is_binary(bytes) {
        binary(bytes).map(|(offset, what)| (Location::Offset(offset as u64), what))
    } else {
        ascii(bytes).map(|(offset, what)| (Location::in_text(bytes, offset), what))
    };
    match fault {
        Some((location, what)) => (location, Some(what)),
        None => (Location::Unknown, None),
    }
}

/// A little-endian reader over the file that names the offset of what it cannot read.
struct Cursor<'a> {
    bytes: &'a [u8],
}

impl Cursor<'_> {
    fn take(&self, at: usize, n: usize, what: &str) -> Result<&[u8], (usize, String)> {
        at.checked_add(n)
            .and_then(|end| self.bytes.get(at..end))
            .ok_or_else(|| (at, format!("the file ends inside {what}")))
    }

    fn uint(&self, at: usize, wide: bool, what: &str) -> Result<u64, (usize, String)> {
        if wide {
            let b = self.take(at, 8, what)?;
            Ok(u64::from_le_bytes(b.try_into().unwrap_or_default()))
        } else {
            Ok(u64::from(self.u32(at, what)?))
        }
    }

    fn u32(&self, at: usize, what: &str) -> Result<u32, (usize, String)> {
        let b = self.take(at, 4, what)?;
        Ok(u32::from_le_bytes(b.try_into().unwrap_or_default()))
    }
}

/// The first structural fault of a binary file: `(offset, description)`.
fn binary(bytes: &[u8]) -> Option<(usize, String)> {
    binary_walk(bytes).err()
}

fn binary_walk(bytes: &[u8]) -> Result<(), (usize, String)> {
    let cursor = Cursor { bytes };
    let version = cursor.u32(23, "the header")?;
    let wide = version >= 7500;
    let header = if wide { 25 } else { 13 };
    // (where the records of this list end, or None at the top level)
    let mut stack: Vec<Option<usize>> = vec![None];
    let mut at = 27usize;
    while let Some(&list_end) = stack.last() {
        if stack.len() > MAX_DEPTH {
            return Err((at, "records nest too deeply".to_owned()));
        }
        if list_end.is_none() && bytes.len().saturating_sub(at) < header {
            // The top level may end without its null record (some writers' footers).
            return Ok(());
        }
        let end = cursor.uint(at, wide, "a record header")? as usize;
        let props = cursor.uint(at + if wide { 8 } else { 4 }, wide, "a record header")?;
        let props_len = cursor.uint(at + if wide { 16 } else { 8 }, wide, "a record header")?;
        let name_len = *cursor
            .take(at + header - 1, 1, "a record header")?
            .first()
            .unwrap_or(&0);
        if end == 0 && props == 0 && props_len == 0 && name_len == 0 {
            // A null record: the end of this list.
            let after = at + header;
            match stack.pop().flatten() {
                Some(expected) if expected != after => {
                    return Err((
                        at,
                        format!(
                            "a record list ends at byte {after}, not at byte {expected} where its record ends"
                        ),
                    ));
                }
                None => return Ok(()),
                _ => {}
            }
            at = after;
            continue;
        }
        if end <= at || end > bytes.len() {
            return Err((
                at,
                format!(
                    "a record claims to end at byte {end}, outside the file ({} bytes)",
                    bytes.len()
                ),
            ));
        }
        if let Some(Some(parent_end)) = stack.last() {
            if end > *parent_end {
                return Err((
                    at,
                    format!(
                        "a record ends at byte {end}, past its parent's end at byte {parent_end}"
                    ),
                ));
            }
        }
        let name_at = at + header;
        cursor.take(name_at, usize::from(name_len), "a record name")?;
        let props_at = name_at + usize::from(name_len);
        let props_end = props_at
            .checked_add(props_len as usize)
            .filter(|&e| e <= end)
            .ok_or((
                at,
                format!(
                    "a record's {props_len} bytes of properties run past its end at byte {end}"
                ),
            ))?;
        properties(&cursor, props_at, props_end, props)?;
        if props_end < end {
            stack.push(Some(end));
            at = props_end;
        } else {
            at = end;
        }
    }
    Ok(())
}

/// Checks `count` properties from `at` to `end`, inflating deflated arrays.
fn properties(
    cursor: &Cursor<'_>,
    mut at: usize,
    end: usize,
    count: u64,
) -> Result<(), (usize, String)> {
    for _ in 0..count {
        let code = *cursor.take(at, 1, "a property")?.first().unwrap_or(&0);
        let size = match code {
            b'C' => 1,
            b'Y' => 2,
            b'I' | b'F' => 4,
            b'D' | b'L' => 8,
            b'S' | b'R' => 4 + cursor.u32(at + 1, "a string property")? as usize,
            b'f' | b'd' | b'l' | b'i' | b'b' => {
                let n = cursor.u32(at + 1, "an array property")? as usize;
                let encoding = cursor.u32(at + 5, "an array property")?;
                let stored = cursor.u32(at + 9, "an array property")? as usize;
                let element = match code {
                    b'd' | b'l' => 8,
                    b'b' => 1,
                    _ => 4,
                };
                let data = cursor.take(at + 13, stored, "an array property")?;
                match encoding {
                    0 if stored != n.saturating_mul(element) => {
                        return Err((
                            at,
                            format!("an array of {n} elements stores {stored} bytes"),
                        ));
                    }
                    0 => {}
                    1 => {
                        let expected = n.saturating_mul(element);
                        match miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(
                            data, expected,
                        ) {
                            Ok(out) if out.len() == expected => {}
                            Ok(out) => {
                                return Err((
                                    at + 13,
                                    format!(
                                        "a deflated array holds {} bytes, not the {expected} of its {n} elements",
                                        out.len()
                                    ),
                                ));
                            }
                            Err(_) => {
                                return Err((
                                    at + 13,
                                    "a deflated array's data is damaged".to_owned(),
                                ));
                            }
                        }
                    }
                    other => {
                        return Err((at + 5, format!("an array has the unknown encoding {other}")));
                    }
                }
                12 + stored
            }
            other => {
                return Err((
                    at,
                    format!("a property has the unknown type code 0x{other:02x}"),
                ));
            }
        };
        at = at + 1 + size;
        if at > end {
            return Err((
                at,
                "a property runs past its record's property list".to_owned(),
            ));
        }
    }
    Ok(())
}

/// The first structural fault of an ASCII file: an unterminated string, a `}` closing
/// nothing, or the end of the file inside a record.
fn ascii(bytes: &[u8]) -> Option<(usize, String)> {
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b';' => {
                i = memchr_newline(bytes, i);
                continue;
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] != b'"' {
                    return Some((start, "a string is not closed on its line".to_owned()));
                }
            }
            b'{' => {
                if open.len() >= MAX_DEPTH {
                    return Some((i, "records nest too deeply".to_owned()));
                }
                open.push(i);
            }
            b'}' if open.pop().is_none() => {
                return Some((i, "a `}` closes no record".to_owned()));
            }
            0 => return Some((i, "a NUL byte in a text file".to_owned())),
            _ => {}
        }
        i += 1;
    }
    open.first().map(|_| {
        let last = *open.last().unwrap_or(&0);
        let (line, column) = rigport_model_core::diagnostic::line_col(bytes, last);
        (
            bytes.len(),
            format!("the file ends inside the record opened at {line}:{column}"),
        )
    })
}

fn memchr_newline(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ascii_file_cut_inside_a_record_is_placed_at_its_end() {
        let text = b"; FBX 7.4.0 project file\nObjects:  {\n\tModel: 1, \"Model::a\", \"Null\" {\n";
        let (location, what) = locate(text);
        assert_eq!(location, Location::Text { line: 4, column: 1 });
        assert!(what.unwrap().contains("opened at 3:"), "cut inside Model");
        let (location, _) = locate(b"; FBX 7.4.0 project file\nA: \"open\n");
        assert_eq!(location, Location::Text { line: 2, column: 4 });
        assert_eq!(locate(b"; FBX 7.4.0\nA: 1 {\n}\n").1, None);
    }

    #[test]
    fn a_binary_record_past_the_end_names_its_offset() {
        let mut bytes = crate::sniff::BINARY_MAGIC.to_vec();
        bytes.extend_from_slice(&[0x1a, 0]);
        bytes.extend_from_slice(&7400u32.to_le_bytes());
        // A record claiming to end at byte 1000 in a 60-byte file.
        bytes.extend_from_slice(&1000u32.to_le_bytes());
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.push(1);
        bytes.push(b'A');
        let (location, what) = locate(&bytes);
        assert_eq!(location, Location::Offset(27));
        assert!(what.unwrap().contains("outside the file"));
    }
}
