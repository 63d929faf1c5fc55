//! Texture images: the files beside a source model ([`Beside`], any
//! [`Companions`]: a folder on disk, the files a web page was given), which of a model's
//! textures are found there ([`TextureList`], by the one rule of
//! [`rigport_model_core::texture`]), and the images a model carries inside its source file
//! (a glTF's embedded or data-URI textures): written beside the output as PNG files for the
//! formats that name image files, or handed to the writer in memory to embed.

use crate::document::Image;
use rigport_model_core::codec::{Companions, Folder};
use rigport_model_core::{Model, Report, codes, texture};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The files beside a source model, shared by a conversion's steps (and by the threads of a
/// batch): where texture images are looked for.
#[derive(Clone)]
pub struct Beside(pub Arc<dyn Companions + Send + Sync>);

impl Beside {
    /// The files in folder `dir` on disk.
    pub fn folder(dir: impl Into<PathBuf>) -> Self {
        Self(Arc::new(Folder::new(dir)))
    }

    /// Any source of files.
    pub fn new(files: impl Companions + Send + Sync + 'static) -> Self {
        Self(Arc::new(files))
    }
}

impl std::fmt::Debug for Beside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Beside").finish_non_exhaustive()
    }
}

impl Companions for Beside {
    fn get(&self, name: &str) -> Option<std::borrow::Cow<'_, [u8]>> {
        self.0.get(name)
    }
    fn names(&self) -> Vec<String> {
        self.0.names()
    }
    fn size(&self, name: &str) -> Option<u64> {
        self.0.size(name)
    }
    fn folder(&self) -> Option<&Path> {
        self.0.folder()
    }
}

/// Which of a model's texture references resolve to an image.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextureList {
    /// References found, each with the file (or the source's own image) it resolved to.
    pub found: Vec<(String, String)>,
    /// References no file matches.
    pub missing: Vec<String>,
}

impl TextureList {
    /// Resolves every distinct texture reference of `model`: an image the source file held
    /// (`images`, by the name its materials use) first, else a file among `files` by
    /// [`texture::find`].
    pub fn of(model: &Model, images: &[Image], files: &dyn Companions) -> Self {
        let mut list = Self::default();
        for reference in texture::references(model) {
            let held = images.iter().find(|image| image.file_name == reference);
            match held
                .map(|image| image.file_name.clone())
                .or_else(|| texture::find(files, reference))
            {
                Some(name) => list.found.push((reference.to_owned(), name)),
                None => list.missing.push(reference.to_owned()),
            }
        }
        list
    }

    /// One `texture-missing` warning per missing reference, naming it.
    pub fn warn_missing(&self, report: &mut Report) {
        for reference in &self.missing {
            report.warn(
                codes::TEXTURE_MISSING,
                format!("texture `{reference}` not found beside the model"),
            );
        }
    }
}

/// Renames the images so they cannot clash with another output's in the same folder
/// (`{output stem}_{image name}`), points the model's materials at the new names, and
/// returns the files to write beside `output`.
pub fn beside_output(
    model: &mut Model,
    images: &[Image],
    output: &Path,
    report: &mut Report,
) -> Vec<(PathBuf, Vec<u8>)> {
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".to_owned());
    let mut files = Vec::with_capacity(images.len());
    for image in images {
        let name = format!("{stem}_{}", image.file_name);
        for material in &mut model.materials {
            if material.texture.as_deref() == Some(image.file_name.as_str()) {
                material.texture = Some(name.clone());
            }
        }
        files.push((output.with_file_name(&name), image.png.clone()));
    }
    if !files.is_empty() {
        report.info(
            codes::IMAGES_WRITTEN,
            format!(
                "{} embedded image(s) written beside the output as PNG ({stem}_*.png)",
                files.len()
            ),
        );
    }
    files
}

/// IQE and IQM keep one string per material, and the engines that load them (Daemon,
/// Tesseract, the IQM SDK's viewer) take that string as the texture's path. A material whose
/// image was written beside the output is therefore named after that file, so the output
/// references it; the original name is reported.
pub fn name_materials_after_textures(
    model: &mut Model,
    written: &[(PathBuf, Vec<u8>)],
    report: &mut Report,
) {
    let written: Vec<&str> = written
        .iter()
        .filter_map(|(path, _)| path.file_name()?.to_str())
        .collect();
    for material in &mut model.materials {
        let Some(texture) = material.texture.as_deref() else {
            continue;
        };
        if written.contains(&texture) && material.name != texture {
            report.info(
                codes::MATERIAL_NAMED_AFTER_TEXTURE,
                format!(
                    "material `{}` is named `{texture}`, the image written beside the output",
                    material.name
                ),
            );
            material.name = texture.to_owned();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::Material;

    #[test]
    fn images_take_the_output_stem_and_the_materials_follow() {
        let mut model = Model::default();
        model.materials.push(Material {
            texture: Some("skin.png".into()),
            ..Material::named("skin")
        });
        model.materials.push(Material::named("plain"));
        let images = [Image {
            file_name: "skin.png".into(),
            png: b"\x89PNG".to_vec(),
        }];
        let mut report = Report::default();
        let files = beside_output(&mut model, &images, Path::new("out/hero.iqe"), &mut report);
        assert_eq!(
            files,
            vec![(PathBuf::from("out/hero_skin.png"), b"\x89PNG".to_vec())]
        );
        assert_eq!(model.materials[0].texture.as_deref(), Some("hero_skin.png"));
        assert_eq!(model.materials[1].texture, None);
        assert_eq!(report.with_code(codes::IMAGES_WRITTEN).count(), 1);
    }

    #[test]
    fn iqe_materials_take_the_name_of_the_image_written_beside() {
        let mut model = Model::default();
        let mut textured = Material::named("body");
        textured.texture = Some("hero_skin.png".into());
        model.materials.push(textured);
        let mut elsewhere = Material::named("eyes");
        elsewhere.texture = Some("eyes.png".into());
        model.materials.push(elsewhere);
        let written = vec![(PathBuf::from("out/hero_skin.png"), Vec::new())];
        let mut report = Report::default();
        name_materials_after_textures(&mut model, &written, &mut report);
        assert_eq!(model.materials[0].name, "hero_skin.png");
        assert_eq!(
            model.materials[1].name, "eyes",
            "an image not written keeps its name"
        );
        let notes: Vec<_> = report
            .with_code(codes::MATERIAL_NAMED_AFTER_TEXTURE)
            .collect();
        assert_eq!(notes.len(), 1);
    }
}
