//! Where a picture's textures come from: the images the source file held, else the files
//! beside it, each decoded once.

use super::*;

/// The images the source file held (a glTF's), else the files given beside it.
pub(super) struct AmongFiles<'a> {
    pub(super) embedded: HashMap<String, Arc<RgbaImage>>,
    pub(super) beside: BesideTextures<&'a (dyn Companions + Sync)>,
}

impl TextureSource for AmongFiles<'_> {
    fn load(&self, reference: &str) -> Result<Arc<RgbaImage>, TextureError> {
        match self.embedded.get(reference) {
            Some(image) => Ok(Arc::clone(image)),
            None => self.beside.load(reference),
        }
    }
}

/// What a texture source gave for one reference.
type Loaded = Result<Arc<RgbaImage>, TextureError>;

/// The images the source file held (a glTF's), else the files beside it; each reference
/// is decoded once however many pictures use it.
pub(super) struct Textures {
    pub(super) embedded: HashMap<String, Arc<RgbaImage>>,
    pub(super) folder: FolderTextures,
    pub(super) cache: Mutex<HashMap<String, Loaded>>,
}

impl TextureSource for Textures {
    fn load(&self, reference: &str) -> Result<Arc<RgbaImage>, TextureError> {
        if let Some(image) = self.embedded.get(reference) {
            return Ok(Arc::clone(image));
        }
        if let Some(loaded) = self
            .cache
            .lock()
            .ok()
            .and_then(|c| c.get(reference).cloned())
        {
            return loaded;
        }
        let loaded = self.folder.load(reference);
        if let Ok(mut cache) = self.cache.lock() {
            cache.insert(reference.to_owned(), loaded.clone());
        }
        loaded
    }
}

/// Decodes the source's own images (PNG, re-encoded by the import, which already bounded
/// their size); one that does not decode is left to the folder lookup.
pub(super) fn decode_embedded(images: &[rigport::Image]) -> HashMap<String, Arc<RgbaImage>> {
    images
        .iter()
        .filter_map(|image| {
            let decoded = rigport_render::image::load_from_memory_with_format(
                &image.png,
                rigport_render::image::ImageFormat::Png,
            )
            .ok()?;
            Some((image.file_name.clone(), Arc::new(decoded.into_rgba8())))
        })
        .collect()
}
