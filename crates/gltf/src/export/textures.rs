//! glTF images and textures for the materials' texture references: embedded in the GLB's
//! buffer, written as companion files beside a `.gltf`, or (when asked, or when the image
//! cannot be found) referenced by URI as stored. One image and texture per distinct image.

use super::buffer::Builder;
use super::images::{ImageError, ImageSource, Prepared, SourceImage, prepare};
use super::uri::{image_uri, is_core_image, percent_encode};
use gltf_json as json;
use rigport_model_core::{Model, Report, codes};
use std::collections::{HashMap, HashSet};

/// Where the images go.
pub(super) enum Placement<'a> {
    /// Nothing is read: every reference becomes a URI as stored.
    Reference,
    /// Images are read through the source and stored in the GLB's binary chunk.
    Embed(&'a dyn ImageSource),
    /// Images are read through the source and returned as files to write beside the
    /// `.gltf`, named `{stem}-{image name}.png|jpg`; `taken` holds names already in use
    /// (the buffer file).
    Companion {
        source: &'a dyn ImageSource,
        stem: String,
        taken: Vec<String>,
    },
}

/// An image file to write beside a `.gltf` file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompanionImage {
    /// File name (no folder), as the `.gltf` names it (percent-encoded there).
    pub name: String,
    /// PNG or JPEG bytes.
    pub bytes: Vec<u8>,
}

/// What a texture reference resolved to before anything is written.
enum Resolved {
    /// An image ready to store, with the name of the file it came from.
    Image { file: String, prepared: Prepared },
    /// Not looked for, not found or not usable: written as a URI.
    Uri,
}

/// The textures of one export.
pub(super) struct Textures<'a> {
    placement: Placement<'a>,
    /// Per stored reference: what it resolved to.
    resolved: HashMap<String, Resolved>,
    /// glTF texture per stored reference already written.
    written: HashMap<String, json::Index<json::Texture>>,
    /// glTF texture per URI of images written as URIs.
    by_uri: HashMap<String, json::Index<json::Texture>>,
    /// Companion files, in the order written.
    pub companions: Vec<CompanionImage>,
    /// Lower-cased companion names in use.
    names: HashSet<String>,
}

impl<'a> Textures<'a> {
    /// Reads and converts every image the model's materials name (when the placement reads
    /// images at all), reporting each one that is missing or unusable.
    pub fn load(model: &Model, placement: Placement<'a>, report: &mut Report) -> Self {
        let mut resolved = HashMap::new();
        let source = match &placement {
            Placement::Reference => None,
            Placement::Embed(source) => Some(*source),
            Placement::Companion { source, .. } => Some(*source),
        };
        let mut converted = 0usize;
        if let Some(source) = source {
            for material in &model.materials {
                let Some(stored) = material.texture.as_deref() else {
                    continue;
                };
                if image_uri(stored).is_none() || resolved.contains_key(stored) {
                    continue;
                }
                let outcome = resolve(source, stored, &material.name, report);
                if let Resolved::Image { prepared, .. } = &outcome {
                    converted += usize::from(prepared.converted_from.is_some());
                }
                resolved.insert(stored.to_owned(), outcome);
            }
        }
        let found = resolved
            .values()
            .filter(|r| matches!(r, Resolved::Image { .. }))
            .count();
        if found > 0 {
            let where_ = match placement {
                Placement::Companion { .. } => "written beside the .gltf",
                _ => "embedded",
            };
            report.info(
                rigport_model_core::codes::GLTF_TEXTURE_EMBEDDED,
                format!("{found} texture images {where_} ({converted} converted to PNG)"),
            );
        }
        let names = match &placement {
            Placement::Companion { taken, .. } => taken.iter().map(|n| n.to_lowercase()).collect(),
            _ => HashSet::new(),
        };
        Self {
            placement,
            resolved,
            written: HashMap::new(),
            by_uri: HashMap::new(),
            companions: Vec::new(),
            names,
        }
    }

    /// Bytes of image data that will go into the buffer (to size it once).
    pub fn embedded_bytes(&self) -> usize {
        if !matches!(self.placement, Placement::Embed(_)) {
            return 0;
        }
        self.resolved
            .values()
            .map(|r| match r {
                Resolved::Image { prepared, .. } => prepared.bytes.len() + 3,
                Resolved::Uri => 0,
            })
            .sum()
    }

    /// The texture for a material's stored reference, written on first use.
    pub fn texture_for(
        &mut self,
        stored: &str,
        material_name: &str,
        builder: &mut Builder,
        report: &mut Report,
    ) -> Option<json::Index<json::Texture>> {
        if let Some(&index) = self.written.get(stored) {
            return Some(index);
        }
        let image = match self.resolved.remove(stored) {
            Some(Resolved::Image { file, prepared }) => self.store(file, prepared, builder),
            _ => {
                let uri = uri_reference(stored, material_name, report)?;
                // References spelled differently (`.\\a.png`, `a.png`) share one image.
                if let Some(&index) = self.by_uri.get(&uri) {
                    self.written.insert(stored.to_owned(), index);
                    return Some(index);
                }
                let image = uri_image(&uri, material_name, builder, report);
                let texture = push_texture(builder, image);
                self.by_uri.insert(uri, texture);
                self.written.insert(stored.to_owned(), texture);
                return Some(texture);
            }
        };
        let texture = push_texture(builder, image);
        self.written.insert(stored.to_owned(), texture);
        Some(texture)
    }

    /// Stores a found image as the placement says.
    fn store(
        &mut self,
        file: String,
        prepared: Prepared,
        builder: &mut Builder,
    ) -> json::Index<json::Image> {
        let mime = prepared.mime;
        let (buffer_view, uri) = match &self.placement {
            Placement::Companion { stem, .. } => {
                let name = self.companion_name(stem.clone(), &file, mime.extension());
                let uri = percent_encode(&name);
                self.companions.push(CompanionImage {
                    name,
                    bytes: prepared.bytes,
                });
                (None, Some(uri))
            }
            _ => (Some(builder.raw_view(&prepared.bytes)), None),
        };
        builder.root.push(json::Image {
            buffer_view,
            mime_type: Some(json::image::MimeType(mime.as_str().to_owned())),
            name: Some(file),
            uri,
            extensions: None,
            extras: Default::default(),
        })
    }

    /// `{stem}-{file stem}.{extension}`, with `-2`, `-3`… when that name is taken (names are
    /// compared ignoring case, as Windows and macOS file systems do).
    fn companion_name(&mut self, stem: String, file: &str, extension: &str) -> String {
        let file_stem = std::path::Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let base = format!("{stem}-{file_stem}");
        let mut candidate = format!("{base}.{extension}");
        let mut n = 2;
        while !self.names.insert(candidate.to_lowercase()) {
            candidate = format!("{base}-{n}.{extension}");
            n += 1;
        }
        candidate
    }
}

/// A texture (no sampler: glTF's default repeat and filtering) over one image.
fn push_texture(
    builder: &mut Builder,
    source: json::Index<json::Image>,
) -> json::Index<json::Texture> {
    builder.root.push(json::Texture {
        name: None,
        sampler: None,
        source,
        extensions: None,
        extras: Default::default(),
    })
}

/// Looks a reference up and makes it embeddable; warns (naming it) when that fails.
fn resolve(
    source: &dyn ImageSource,
    stored: &str,
    material_name: &str,
    report: &mut Report,
) -> Resolved {
    let kept = "its URI is kept";
    match source.load(stored) {
        Ok(SourceImage { name, bytes }) => match prepare(SourceImage {
            name: name.clone(),
            bytes,
        }) {
            Ok(prepared) => Resolved::Image {
                file: name,
                prepared,
            },
            Err(why) => {
                report.warn(
                    codes::TEXTURE_UNUSABLE,
                    format!(
                        "material `{material_name}`: texture `{stored}` ({name}): {why}; {kept}"
                    ),
                );
                Resolved::Uri
            }
        },
        Err(ImageError::NotFound) => {
            report.warn(
                codes::TEXTURE_MISSING,
                format!("material `{material_name}`: texture `{stored}` not found beside the model; {kept}"),
            );
            Resolved::Uri
        }
        Err(ImageError::Unreadable(why)) => {
            report.warn(
                codes::TEXTURE_UNUSABLE,
                format!(
                    "material `{material_name}`: texture `{stored}` cannot be read: {why}; {kept}"
                ),
            );
            Resolved::Uri
        }
    }
}

/// The URI for a stored reference (relative, forward slashes, percent-encoded), reporting
/// a reference that names no file (then `None`) or an absolute one.
fn uri_reference(stored: &str, material_name: &str, report: &mut Report) -> Option<String> {
    let Some(image) = image_uri(stored) else {
        if !stored.trim().is_empty() {
            report.loss(
                rigport_model_core::codes::GLTF_TEXTURE_NO_FILE,
                format!(
                    "material `{material_name}`: texture path `{stored}` names no file; left out"
                ),
            );
        }
        return None;
    };
    if image.was_absolute {
        report.warn(
            rigport_model_core::codes::GLTF_TEXTURE_ABSOLUTE,
            format!(
                "material `{material_name}`: absolute texture path `{stored}` written as `{}` (place the image beside the model)",
                image.uri
            ),
        );
    }
    Some(image.uri)
}

/// An image referenced by URI, with a warning when viewers cannot load its type.
fn uri_image(
    uri: &str,
    material_name: &str,
    builder: &mut Builder,
    report: &mut Report,
) -> json::Index<json::Image> {
    if !is_core_image(uri) {
        report.warn(
            rigport_model_core::codes::GLTF_TEXTURE_FORMAT,
            format!(
                "material `{material_name}`: texture `{uri}` is not PNG or JPEG, which glTF viewers need; convert the image"
            ),
        );
    }
    builder.root.push(json::Image {
        buffer_view: None,
        mime_type: None,
        name: None,
        uri: Some(uri.to_owned()),
        extensions: None,
        extras: Default::default(),
    })
}
