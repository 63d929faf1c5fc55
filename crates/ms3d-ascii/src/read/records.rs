//! The known blocks' records: meshes, materials, bones and their keys.

use super::checks::Checks;
use super::cursor::Cursor;
use crate::Error;
use crate::file::{Bone, Key, Material, Mesh, Triangle, Vertex};
use std::mem::size_of;

/// Tokens of one record, for the "can the rest of the input hold this count" check.
mod tokens {
    /// `"name" flags material` and three counts.
    pub const MESH: u64 = 6;
    /// `flags x y z u v bone`.
    pub const VERTEX: u64 = 7;
    /// `x y z`.
    pub const NORMAL: u64 = 3;
    /// `flags v1 v2 v3 n1 n2 n3 group`.
    pub const TRIANGLE: u64 = 8;
    /// Name, four colours of four, shininess, transparency, two paths.
    pub const MATERIAL: u64 = 21;
    /// Name, parent, `flags x y z rx ry rz`, two key counts.
    pub const BONE: u64 = 11;
    /// `time x y z`.
    pub const KEY: u64 = 4;
}

/// The meshes of a `Meshes: N` block.
pub(crate) fn meshes(
    c: &mut Cursor,
    count: usize,
    checks: &mut Checks,
) -> Result<Vec<Mesh>, Error> {
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(mesh(c, checks)?);
    }
    Ok(out)
}

/// Checks a block header's count for meshes.
pub(crate) fn mesh_count(
    c: &mut Cursor,
    n: i32,
    span: std::ops::Range<usize>,
) -> Result<usize, Error> {
    c.check_count(n, span, "meshes", tokens::MESH, size_of::<Mesh>())
}

/// Checks a block header's count for materials.
pub(crate) fn material_count(
    c: &mut Cursor,
    n: i32,
    span: std::ops::Range<usize>,
) -> Result<usize, Error> {
    c.check_count(
        n,
        span,
        "materials",
        tokens::MATERIAL,
        size_of::<Material>(),
    )
}

/// Checks a block header's count for bones.
pub(crate) fn bone_count(
    c: &mut Cursor,
    n: i32,
    span: std::ops::Range<usize>,
) -> Result<usize, Error> {
    c.check_count(n, span, "bones", tokens::BONE, size_of::<Bone>())
}

/// One mesh: its header line and its vertex, normal and triangle arrays.
pub(crate) fn mesh(c: &mut Cursor, checks: &mut Checks) -> Result<Mesh, Error> {
    c.skip_newlines();
    let name = c.string("a mesh name in quotes")?;
    let (flags, _) = c.int("mesh flags (an integer)")?;
    let (material, span) = c.int("a material index (an integer, -1 for none)")?;
    c.end_line()?;
    checks.material(material, span);

    let n = c.count(
        "vertices",
        "the number of vertices",
        tokens::VERTEX,
        size_of::<Vertex>(),
    )?;
    let mut vertices = Vec::with_capacity(n);
    for _ in 0..n {
        vertices.push(vertex(c, checks)?);
    }
    let n = c.count(
        "normals",
        "the number of normals",
        tokens::NORMAL,
        size_of::<[f32; 3]>(),
    )?;
    let mut normals = Vec::with_capacity(n);
    for _ in 0..n {
        normals.push(c.floats_line("a normal coordinate")?);
    }
    let n = c.count(
        "triangles",
        "the number of triangles",
        tokens::TRIANGLE,
        size_of::<Triangle>(),
    )?;
    let mut triangles = Vec::with_capacity(n);
    for _ in 0..n {
        triangles.push(triangle(c, checks, vertices.len(), normals.len())?);
    }
    Ok(Mesh {
        name,
        flags,
        material,
        vertices,
        normals,
        triangles,
    })
}

fn vertex(c: &mut Cursor, checks: &mut Checks) -> Result<Vertex, Error> {
    c.skip_newlines();
    let (flags, _) = c.int("vertex flags (an integer)")?;
    let position = c.floats("a vertex coordinate")?;
    let uv = c.floats("a texture coordinate")?;
    let (bone, span) = c.int("a bone index (an integer, -1 for none)")?;
    c.end_line()?;
    checks.bone(bone, span);
    Ok(Vertex {
        flags,
        position,
        uv,
        bone,
    })
}

fn triangle(
    c: &mut Cursor,
    checks: &mut Checks,
    vertex_count: usize,
    normal_count: usize,
) -> Result<Triangle, Error> {
    c.skip_newlines();
    let (flags, _) = c.int("triangle flags (an integer)")?;
    let mut vertices = [0; 3];
    for v in &mut vertices {
        let (index, span) = c.int("a vertex index")?;
        checks.local("vertex index", index, vertex_count, span)?;
        *v = index;
    }
    let mut normals = [0; 3];
    for n in &mut normals {
        let (index, span) = c.int("a normal index")?;
        checks.local("normal index", index, normal_count, span)?;
        *n = index;
    }
    let (smoothing_group, _) = c.int("a smoothing group (an integer)")?;
    c.end_line()?;
    Ok(Triangle {
        flags,
        vertices,
        normals,
        smoothing_group,
    })
}

/// The materials of a `Materials: N` block.
pub(crate) fn materials(c: &mut Cursor, count: usize) -> Result<Vec<Material>, Error> {
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(Material {
            name: c.string_line("a material name in quotes")?,
            ambient: c.floats_line("an ambient colour component")?,
            diffuse: c.floats_line("a diffuse colour component")?,
            specular: c.floats_line("a specular colour component")?,
            emissive: c.floats_line("an emissive colour component")?,
            shininess: c.floats_line::<1>("the shininess")?[0],
            transparency: c.floats_line::<1>("the transparency")?[0],
            texture: c.string_line("a texture path in quotes")?,
            alpha_map: c.string_line("an alpha-map path in quotes")?,
        });
    }
    Ok(out)
}

/// The bones of a `Bones: N` block.
pub(crate) fn bones(c: &mut Cursor, count: usize) -> Result<Vec<Bone>, Error> {
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(bone(c)?);
    }
    Ok(out)
}

/// One bone: its name, parent and bind lines and its two key arrays.
pub(crate) fn bone(c: &mut Cursor) -> Result<Bone, Error> {
    let name = c.string_line("a bone name in quotes")?;
    let parent = c.string_line("a parent bone name in quotes (\"\" for none)")?;
    c.skip_newlines();
    let (flags, _) = c.int("bone flags (an integer)")?;
    let position = c.floats("a bone position coordinate")?;
    let rotation = c.floats("a bone rotation angle")?;
    c.end_line()?;
    let position_keys = keys(c, "position keys", "the number of position keys")?;
    let rotation_keys = keys(c, "rotation keys", "the number of rotation keys")?;
    Ok(Bone {
        name,
        parent,
        flags,
        position,
        rotation,
        position_keys,
        rotation_keys,
    })
}

fn keys(c: &mut Cursor, what: &'static str, expected: &'static str) -> Result<Vec<Key>, Error> {
    let n = c.count(what, expected, tokens::KEY, size_of::<Key>())?;
    let mut keys = Vec::with_capacity(n);
    for _ in 0..n {
        let [frame, x, y, z] = c.floats_line("a key time or value")?;
        keys.push(Key {
            frame,
            value: [x, y, z],
        });
    }
    Ok(keys)
}
