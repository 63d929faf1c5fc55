//! Materials: the base (diffuse) colour, opacity and base colour texture. A texture
//! embedded in the file (`Video.Content`) is handed back as a file of its own, named as the
//! material names it; one beside the file keeps its relative path for the usual lookup.

use rigport_model_core::codec::OutputFile;
use rigport_model_core::{Material, MaterialId};
use std::collections::{HashMap, HashSet};

/// The materials, the embedded images, and the material of each ufbx material `typed_id`.
pub(crate) fn convert(
    scene: &ufbx::Scene,
) -> (Vec<Material>, Vec<OutputFile>, HashMap<u32, MaterialId>) {
    let mut materials = Vec::new();
    let mut images: Vec<OutputFile> = Vec::new();
    let mut taken: HashSet<String> = HashSet::new();
    let mut ids = HashMap::new();
    for source in scene.materials.iter() {
        let Some(id) = MaterialId::from_index(materials.len()) else {
            break;
        };
        let mut material = Material::named(source.element.name.to_string());
        let base = &source.pbr.base_color;
        let factor = if source.pbr.base_factor.has_value {
            source.pbr.base_factor.value_vec4.x
        } else {
            1.0
        };
        if base.has_value {
            let c = base.value_vec4;
            material.diffuse = glam::Vec4::new(
                (c.x * factor) as f32,
                (c.y * factor) as f32,
                (c.z * factor) as f32,
                1.0,
            )
            .clamp(glam::Vec4::ZERO, glam::Vec4::ONE);
        }
        if source.pbr.opacity.has_value {
            let opacity = source.pbr.opacity.value_vec4.x as f32;
            if opacity.is_finite() {
                material.opacity = opacity.clamp(0.0, 1.0);
                material.diffuse.w = material.opacity;
            }
        }
        let texture = base
            .texture
            .as_deref()
            .or(source.fbx.diffuse_color.texture.as_deref());
        if let Some(texture) = texture {
            material.texture = texture_reference(texture, &mut images, &mut taken);
        }
        ids.insert(source.element.typed_id, id);
        materials.push(material);
    }
    (materials, images, ids)
}

/// The name a material uses for `texture`: an embedded image's file name (its bytes added to
/// `images` once), else the path beside the file.
fn texture_reference(
    texture: &ufbx::Texture,
    images: &mut Vec<OutputFile>,
    taken: &mut HashSet<String>,
) -> Option<String> {
    let relative = texture.relative_filename.to_string();
    let absolute = texture.filename.to_string();
    let path = if relative.is_empty() {
        absolute
    } else {
        relative
    };
    let content: &[u8] = if texture.content.is_empty() {
        texture.video.as_deref().map_or(&[][..], |v| &v.content[..])
    } else {
        &texture.content[..]
    };
    if content.is_empty() {
        return (!path.is_empty()).then_some(path);
    }
    let base = path
        .rsplit(['/', '\\'])
        .next()
        .filter(|name| !name.is_empty())
        .map_or_else(|| format!("{}.png", texture.element.name), str::to_owned);
    let name = rigport_model_core::codec::file_safe(&base);
    if taken.insert(name.clone()) {
        images.push(OutputFile {
            name: name.clone(),
            bytes: content.to_vec(),
        });
    }
    Some(name)
}
