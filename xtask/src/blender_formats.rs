//! `rigport_io/formats.json` in both Blender zips: the registry's formats, as the add-on's
//! menus, file filters and importer need them (`integrations/blender/rigport_io/formats.py`
//! reads it), so the add-on names no format of its own.

use std::path::{Path, PathBuf};

/// Name of the table inside the add-on's folder.
pub const NAME: &str = "formats.json";

/// The table: the registry's formats as `rigport formats --json` prints them
/// ([`rigport::info::formats_json`]).
pub fn table() -> String {
    rigport::info::formats_json()
}

/// Writes the table beside the add-on's modules (`integrations/blender/rigport_io/`, where
/// `formats.py` reads it, git-ignored) and returns its path, for the zips to take: so the
/// add-on run from the source tree (its tests in Blender 3.4, which has no `rigport` module)
/// has the same table as the zips.
pub fn write(root: &Path) -> Result<PathBuf, String> {
    let path = root.join("integrations/blender/rigport_io").join(NAME);
    std::fs::write(&path, table()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport::Format;
    use serde_json::Value;

    #[test]
    fn every_format_of_the_registry_is_in_the_table_in_order() {
        let text = table();
        let table: Value = serde_json::from_str(&text).unwrap();
        // Each key once, in the registry's order (serde_json's map sorts, so read the text).
        let mut at = 0;
        for format in Format::ALL {
            let quoted = format!("\n  {}: ", Value::from(format.key()));
            at += text[at..].find(&quoted).expect("every key, in order") + quoted.len();
        }
        assert_eq!(table.as_object().unwrap().len(), Format::ALL.len());
        for format in Format::ALL {
            let entry = &table[format.key()];
            assert_eq!(entry["family"], format.family());
            assert_eq!(entry["animation_only"], format.is_animation_only());
            assert_eq!(entry["reads"], format.can_read());
        }
        assert_eq!(table["ms3d-ascii"]["extension"], "txt");
        assert_eq!(table["obj"]["reads"], false);
    }
}
