//! Materials (base colour, alpha, emissive, name) and the base-colour images they use,
//! re-encoded as PNG with unique, filesystem-safe file names.

use super::{GltfFile, ImportError, ImportOptions, ImportedImage};
use glam::Vec4;
use rigport_model_core::{Material, Report, codes};
use std::collections::HashSet;

/// PNG file signature: such images pass through unchanged once their header decodes.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The model materials and the images they name.
pub(crate) fn materials(
    file: &GltfFile,
    options: &ImportOptions,
    report: &mut Report,
) -> Result<(Vec<Material>, Vec<ImportedImage>), ImportError> {
    let _ = options;
    let root = file.root();
    let mut materials = Vec::with_capacity(root.materials.len());
    let mut images: Vec<ImportedImage> = Vec::new();
    // Per glTF image: its file name once converted (`None`: not converted yet or failed).
    let mut converted: Vec<Option<Option<String>>> = vec![None; root.images.len()];
    let mut taken = HashSet::new();
    let mut other_textures = 0usize;
    for (m, gltf) in root.materials.iter().enumerate() {
        let pbr = &gltf.pbr_metallic_roughness;
        let [r, g, b, a] = pbr.base_color_factor.0;
        let [er, eg, eb] = gltf.emissive_factor.0;
        let mut material = Material {
            name: gltf.name.clone().unwrap_or_else(|| format!("material{m}")),
            diffuse: Vec4::new(r, g, b, 1.0),
            opacity: a,
            emissive: Vec4::new(er, eg, eb, 1.0),
            ..Material::default()
        };
        other_textures += usize::from(pbr.metallic_roughness_texture.is_some())
            + usize::from(gltf.normal_texture.is_some())
            + usize::from(gltf.occlusion_texture.is_some())
            + usize::from(gltf.emissive_texture.is_some());
        if let Some(info) = &pbr.base_color_texture {
            let t = info.index.value();
            let texture = root.textures.get(t).ok_or_else(|| {
                ImportError::index(
                    format!("material {m} baseColorTexture"),
                    t,
                    root.textures.len(),
                )
            })?;
            let i = texture.source.value();
            let slot = converted.get_mut(i).ok_or_else(|| {
                ImportError::index(format!("texture {t} source"), i, root.images.len())
            })?;
            if slot.is_none() {
                *slot = Some(convert(file, i, &mut taken, &mut images, report));
            }
            material.texture = slot.clone().flatten();
        }
        materials.push(material);
    }
    if other_textures > 0 {
        report.loss(
            codes::MATERIAL_PROPERTIES,
            format!("{other_textures} metallic-roughness, normal, occlusion or emissive textures are not carried (only the base colour image)"),
        );
    }
    Ok((materials, images))
}

/// Converts image `i` to PNG and records it; its file name, or `None` (with a warning)
/// when it cannot be decoded.
fn convert(
    file: &GltfFile,
    i: usize,
    taken: &mut HashSet<String>,
    images: &mut Vec<ImportedImage>,
    report: &mut Report,
) -> Option<String> {
    if let Some(path) = file.missing_image(i) {
        // Warned about when the file was read; a later export looks for it beside the source.
        return Some(path.to_string());
    }
    let bytes = file.image(i).unwrap_or_default();
    let png = match to_png(bytes) {
        Ok(png) => png,
        Err(message) => {
            report.warn(
                codes::IMAGE_UNDECODABLE,
                format!("image {i} cannot be decoded ({message}); its material keeps no texture"),
            );
            return None;
        }
    };
    let gltf = &file.root().images[i];
    let stem = gltf
        .name
        .clone()
        .or_else(|| {
            gltf.uri
                .as_deref()
                .filter(|u| !u.starts_with("data:"))
                .and_then(|u| u.rsplit(['/', '\\']).next())
                .map(|name| {
                    name.rsplit_once('.')
                        .map_or(name, |(stem, _)| stem)
                        .to_string()
                })
        })
        .unwrap_or_else(|| format!("image{i}"));
    let name = unique_name(&safe_stem(&stem), taken);
    images.push(ImportedImage {
        file_name: name.clone(),
        png,
    });
    Some(name)
}

/// PNG bytes for an encoded image: PNG passes through (after its header decodes), anything
/// else the `image` crate reads is decoded and re-encoded.
fn to_png(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    if bytes.starts_with(PNG_SIGNATURE) {
        reader.into_dimensions().map_err(|e| e.to_string())?;
        return Ok(bytes.to_vec());
    }
    let decoded = reader.decode().map_err(|e| e.to_string())?;
    let mut png = Vec::new();
    decoded
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(png)
}

/// A file stem made of ASCII letters, digits, `-` and `_` only (everything else `_`), at
/// most 64 characters, never empty or a Windows device name.
fn safe_stem(stem: &str) -> String {
    let mut out: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    let reserved = ["con", "prn", "aux", "nul", "com1", "lpt1"];
    if out.trim_matches('_').is_empty() || reserved.contains(&out.to_ascii_lowercase().as_str()) {
        out = format!("image_{out}");
    }
    out
}

/// `stem.png`, or `stem-2.png`… when taken (compared case-insensitively).
fn unique_name(stem: &str, taken: &mut HashSet<String>) -> String {
    let mut name = format!("{stem}.png");
    let mut k = 2;
    while !taken.insert(name.to_ascii_lowercase()) {
        name = format!("{stem}-{k}.png");
        k += 1;
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_and_unique() {
        let mut taken = HashSet::new();
        assert_eq!(unique_name(&safe_stem("Skin"), &mut taken), "Skin.png");
        assert_eq!(unique_name(&safe_stem("skin"), &mut taken), "skin-2.png");
        assert_eq!(
            unique_name(&safe_stem("../a b:c"), &mut taken),
            "___a_b_c.png"
        );
        assert_eq!(unique_name(&safe_stem(""), &mut taken), "image_.png");
        assert_eq!(unique_name(&safe_stem("CON"), &mut taken), "image_CON.png");
    }
}
