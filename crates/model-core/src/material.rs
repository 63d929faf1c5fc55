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

    /// A default material whose one string is both its name and its texture reference: the
    /// convention of formats that store only a material string and whose engines load that
    /// string as the image (IQE, IQM: the IQM SDK's `mrfixit.iqm` names `Body.jpg`; MD5
    /// shaders). A blank name names no texture.
    ///
    /// ```
    /// use rigport_model_core::Material;
    ///
    /// assert_eq!(Material::named_as_texture("Body.jpg").texture.as_deref(), Some("Body.jpg"));
    /// assert_eq!(Material::named_as_texture(" ").texture, None);
    /// ```
    pub fn named_as_texture(name: impl Into<String>) -> Self {
        let name = name.into();
        let texture = (!name.trim().is_empty()).then(|| name.clone());
        Self {
            name,
            texture,
            ..Self::default()
        }
    }

    /// Whether this material holds nothing beyond what a format storing one string per
    /// material keeps ([`Material::named_as_texture`]): default properties, and no texture
    /// or the name as texture.
    pub fn is_only_a_name(&self) -> bool {
        let texture_is_name = match self.texture.as_deref() {
            None => true,
            Some(texture) => texture == self.name,
        };
        texture_is_name
            && Material {
                texture: None,
                ..self.clone()
            } == Material::named(self.name.clone())
    }
}
