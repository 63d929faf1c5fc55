//! Files held in memory, by name: what the page was given (dropped or chosen files), seen by
//! the facade as the files beside the model ([`Companions`]).

use rigport_model_core::codec::Companions;
use rigport_model_core::texture::file_name_of;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Files by name (no folders: a browser hands over file names only), in name order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryFiles {
    files: BTreeMap<String, Vec<u8>>,
}

impl MemoryFiles {
    /// No files.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) the file `name`. A name with folders keeps only its file name.
    pub fn insert(&mut self, name: &str, bytes: Vec<u8>) {
        let name = file_name_of(name).unwrap_or(name).to_owned();
        self.files.insert(name, bytes);
    }

    /// The content of the file called exactly `name`.
    pub fn bytes(&self, name: &str) -> Option<&[u8]> {
        self.files.get(name).map(Vec::as_slice)
    }

    /// Every file, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.files.iter().map(|(n, b)| (n.as_str(), b.as_slice()))
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether there are no files.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The name of the file `reference` names: the file name after any folder (`/` or `\`,
    /// a drive letter), exactly, then ignoring case. Ties between names that differ only in
    /// case go to the first in name order.
    pub fn find(&self, reference: &str) -> Option<&str> {
        let name = file_name_of(reference)?;
        if let Some((found, _)) = self.files.get_key_value(name) {
            return Some(found);
        }
        let wanted = name.to_lowercase();
        self.files
            .keys()
            .find(|n| n.to_lowercase() == wanted)
            .map(String::as_str)
    }
}

impl Companions for MemoryFiles {
    fn get(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        let found = self.find(name)?;
        self.bytes(found).map(Cow::Borrowed)
    }

    /// The size of the file called exactly `name` (as a folder on a case-sensitive disk
    /// answers): the shared texture rule then finds other cases through
    /// [`Companions::names`] and reports the name the file really has.
    fn size(&self, name: &str) -> Option<u64> {
        self.files.get(name).map(|bytes| bytes.len() as u64)
    }

    fn names(&self) -> Vec<String> {
        self.files.keys().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(names: &[&str]) -> MemoryFiles {
        let mut files = MemoryFiles::new();
        for (i, name) in names.iter().enumerate() {
            files.insert(name, vec![i as u8]);
        }
        files
    }

    #[test]
    fn companions_are_found_by_file_name_then_ignoring_case() {
        let files = files(&["Body.JPG", "mesh.iqm", "body.jpg"]);
        assert_eq!(files.get("mesh.iqm").as_deref(), Some(&[1u8][..]));
        // An exact match wins over a case-insensitive one.
        assert_eq!(files.get("body.jpg").as_deref(), Some(&[2u8][..]));
        assert_eq!(files.find(r"C:\models\MESH.IQM"), Some("mesh.iqm"));
        // Ignoring case, the first in name order.
        assert_eq!(files.find(r".\textures\BODY.jpg"), Some("Body.JPG"));
        assert_eq!(files.get("head.jpg"), None);
        assert_eq!(files.get("dir/"), None);
        assert_eq!(files.names(), ["Body.JPG", "body.jpg", "mesh.iqm"]);
    }

    #[test]
    fn images_are_found_by_the_shared_texture_rule() {
        use rigport_model_core::texture::find;
        let files = files(&["skin.png", "face.TGA"]);
        assert_eq!(find(&files, "skin.tga").as_deref(), Some("skin.png"));
        assert_eq!(find(&files, r"C:\x\Face.bmp").as_deref(), Some("face.TGA"));
        assert_eq!(find(&files, "skin").as_deref(), Some("skin.png"));
        assert_eq!(find(&files, "eyes.png"), None);
    }

    #[test]
    fn names_with_folders_keep_the_file_name() {
        let mut files = MemoryFiles::new();
        files.insert("a/b/mesh.iqm", vec![1]);
        assert_eq!(files.bytes("mesh.iqm"), Some(&[1u8][..]));
        assert_eq!(files.len(), 1);
        assert!(!files.is_empty());
    }
}
