//! Materials in the classic fixed-function shape both MilkShape and glTF's base colour map to.

use glam::Vec4;

/// A material. Colours are RGBA in `0.0..=1.0`.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// Name as shown to a person.
    pub name: String,
    /// Ambient colour.
    pub ambient: Vec4,
    /// Diffuse colour (glTF base colour factor).
    pub diffuse: Vec4,
    /// Specular colour.
    pub specular: Vec4,
    /// Emissive colour.
    pub emissive: Vec4,
    /// Phong exponent, `0.0..=128.0` in MilkShape.
    pub shininess: f32,
    /// Opacity: 1 is opaque, 0 fully transparent (MilkShape calls this "transparency").
    pub opacity: f32,
    /// Texture path exactly as stored (may be relative, absolute, use back-slashes).
    pub texture: Option<String>,
    /// Alpha-map path exactly as stored.
    pub alpha_map: Option<String>,
}

impl Default for Material {
    fn default() -> Self {
        Self {
            name: String::new(),
            ambient: Vec4::new(0.2, 0.2, 0.2, 1.0),
            diffuse: Vec4::new(0.8, 0.8, 0.8, 1.0),
            specular: Vec4::new(0.0, 0.0, 0.0, 1.0),
            emissive: Vec4::new(0.0, 0.0, 0.0, 1.0),
            shininess: 0.0,
            opacity: 1.0,
            texture: None,
            alpha_map: None,
        }
    }
}

impl Material {
    /// A default material with a name.
    pub fn named(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..Self::default()
        }
    }
}
