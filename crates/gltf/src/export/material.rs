//! Materials: the classic diffuse/opacity/emissive/texture set onto glTF's metallic-roughness
//! model. One glTF material per model material, in the same order, so material ids carry over;
//! double-sided copies (see [`super::sides`]) come after them.

use super::buffer::Builder;
use super::sides::MaterialPlan;
use super::textures::Textures;
use gltf_json as json;
use json::material::{
    AlphaMode, EmissiveFactor, PbrBaseColorFactor, PbrMetallicRoughness, StrengthFactor,
};
use json::validation::Checked;
use rigport_model_core::{Material, Model, Report, codes};

/// Writes every material of the model in order, then the double-sided variants the plan
/// asks for (textures shared by reference).
pub(super) fn write_materials(
    model: &Model,
    plan: &MaterialPlan,
    textures: &mut Textures,
    builder: &mut Builder,
    report: &mut Report,
) {
    let mut clamped = 0usize;
    // glTF needs TEXCOORD_0 on every primitive whose material has a texture: a material that
    // a mesh without texture coordinates uses is written without its texture.
    let untextured: Vec<bool> = (0..model.materials.len())
        .map(|index| {
            model
                .meshes
                .iter()
                .any(|m| !m.has_uvs && m.material.is_some_and(|id| id.index() == index))
        })
        .collect();
    let mut dropped = Vec::new();
    let mut texture_of = |index: usize, builder: &mut Builder, report: &mut Report| {
        let material = &model.materials[index];
        let path = material.texture.as_deref()?;
        if untextured[index] {
            if !dropped.contains(&index) {
                dropped.push(index);
            }
            return None;
        }
        textures.texture_for(path, &material.name, builder, report)
    };
    for (index, (material, &double_sided)) in
        model.materials.iter().zip(&plan.double_sided).enumerate()
    {
        let texture = texture_of(index, builder, report);
        let (mut gltf_material, was_clamped) = convert(material, texture);
        gltf_material.double_sided = double_sided;
        clamped += usize::from(was_clamped);
        builder.root.push(gltf_material);
    }
    for &source in &plan.variants {
        let gltf_material = match source.and_then(|m| model.materials.get(m).map(|x| (m, x))) {
            Some((index, material)) => {
                let texture = texture_of(index, builder, report);
                let (mut copy, _) = convert(material, texture);
                copy.name = Some(format!("{} (double-sided)", material.name));
                copy
            }
            // glTF's default material, which is single-sided, made double-sided.
            None => json::Material {
                name: Some("default (double-sided)".to_owned()),
                ..Default::default()
            },
        };
        builder.root.push(json::Material {
            double_sided: true,
            ..gltf_material
        });
    }
    for index in dropped {
        let material = &model.materials[index];
        report.loss(
            codes::TEXTURE_WITHOUT_UVS,
            format!(
                "material `{}`: texture `{}` not written: a mesh using it has no texture coordinates",
                material.name,
                material.texture.as_deref().unwrap_or_default()
            ),
        );
    }
    if clamped > 0 {
        report.warn(
            rigport_model_core::codes::GLTF_COLOUR_CLAMPED,
            format!(
                "{clamped} materials had colour or opacity values outside 0..1; they were clamped"
            ),
        );
    }
    report_unmapped(&model.materials, report);
}

/// The glTF material for one model material, and whether any value had to be clamped.
fn convert(
    material: &Material,
    texture: Option<json::Index<json::Texture>>,
) -> (json::Material, bool) {
    let diffuse = material.diffuse;
    // Opacity multiplies the diffuse alpha (1 in every MilkShape file seen), so either can
    // make the material see-through.
    let raw = [
        diffuse.x,
        diffuse.y,
        diffuse.z,
        diffuse.w * material.opacity,
    ];
    let base = raw.map(unit);
    let emissive_raw = [
        material.emissive.x,
        material.emissive.y,
        material.emissive.z,
    ];
    let emissive = emissive_raw.map(unit);
    let clamped = raw != base || emissive_raw != emissive;
    let alpha_mode = if base[3] < 1.0 {
        AlphaMode::Blend
    } else {
        AlphaMode::Opaque
    };
    let gltf_material = json::Material {
        alpha_mode: Checked::Valid(alpha_mode),
        name: Some(material.name.clone()),
        pbr_metallic_roughness: PbrMetallicRoughness {
            base_color_factor: PbrBaseColorFactor(base),
            base_color_texture: texture.map(|index| json::texture::Info {
                index,
                tex_coord: 0,
                extensions: None,
                extras: Default::default(),
            }),
            // Fixed-function materials are dielectric and, without a specular model, rough.
            metallic_factor: StrengthFactor(0.0),
            roughness_factor: StrengthFactor(1.0),
            ..Default::default()
        },
        emissive_factor: EmissiveFactor(emissive),
        ..Default::default()
    };
    (gltf_material, clamped)
}

/// Clamps to `0..=1`, with non-finite values becoming 0 (below) or 1 (above).
pub(super) fn unit(value: f32) -> f32 {
    if value.is_nan() {
        0.0
    } else {
        value.clamp(0.0, 1.0)
    }
}

/// Names the material properties glTF has no place for, with how many materials used them.
fn report_unmapped(materials: &[Material], report: &mut Report) {
    let count = |has: &dyn Fn(&Material) -> bool| materials.iter().filter(|m| has(m)).count();
    let lost = [
        (
            "ambient colour",
            count(&|m| m.ambient.truncate() != glam::Vec3::ZERO),
        ),
        (
            "specular colour",
            count(&|m| m.specular.truncate() != glam::Vec3::ZERO),
        ),
        ("shininess", count(&|m| m.shininess != 0.0)),
        (
            "alpha map",
            count(&|m| m.alpha_map.as_deref().is_some_and(|p| !p.trim().is_empty())),
        ),
    ];
    for (what, n) in lost {
        if n > 0 {
            report.loss(
                rigport_model_core::codes::GLTF_MATERIAL_UNMAPPED,
                format!("{what} of {n} materials has no glTF equivalent; not carried"),
            );
        }
    }
}
