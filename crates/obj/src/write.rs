//! The OBJ and MTL text of a model as it is (no posing; see `pose.rs` for that).
//!
//! Layout of the `.obj`:
//! * a `#` header (and the model comment as `#` lines), `mtllib` when materials are written;
//! * per mesh: `o name`, its `v`, then `vt` (only if the mesh has UVs) and `vn` (only if any
//!   normal is non-zero), `usemtl`, then `f` with global 1-based indices in the form
//!   `v`, `v/vt`, `v//vn` or `v/vt/vn`. Triangles keep model-core's counter-clockwise front
//!   face, which is OBJ's too.
//!
//! UVs: model-core's origin is the top-left, OBJ's the bottom-left, so `vt u (1 − v)`.
//! Names: whitespace and control characters become `_` (OBJ names end at whitespace); empty
//! names become `mesh<i>` / `material<i>`; material names are made unique (`name_<i>`) so each
//! `usemtl` means one material. Numbers use Rust's shortest round-trip form (no exponents); a
//! NaN or infinite coordinate is written as 0 and reported.
//!
//! What OBJ cannot hold is reported as a loss: the skeleton and skin weights, animations and
//! vertex colours. The emissive colour is kept as `Ke` (widely read, though not in the
//! original MTL), the alpha map as `map_d`.

use rigport_model_core::glam::{Vec2, Vec3, Vec4};
use rigport_model_core::{Material, Mesh, Model, Report};
use std::fmt::{self, Write as _};

/// The text of an `.obj` file, its `.mtl` companion and what the export could not carry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjExport {
    /// The `.obj` text.
    pub obj: String,
    /// The `.mtl` text; empty when no materials are written (then write no `.mtl` file).
    pub mtl: String,
    /// Losses (skeleton, animations, colours) and warnings (bad indices, non-finite numbers).
    pub report: Report,
}

/// Writes `model` as OBJ text.
///
/// `mtl_file_name` is the name the `.mtl` file will have next to the `.obj` (e.g.
/// `"robot.mtl"`): with `Some`, and if the model has materials, the OBJ gets `mtllib` and one
/// `usemtl` per mesh and [`ObjExport::mtl`] holds the material library. With `None` no
/// material is written.
pub fn write_obj(model: &Model, mtl_file_name: Option<&str>) -> ObjExport {
    let mut out = ObjExport::default();
    let mut bad_numbers = 0usize;
    let with_materials = mtl_file_name.is_some() && !model.materials.is_empty();
    let material_names = unique_names(model.materials.iter().map(|m| m.name.as_str()), "material");

    line(
        &mut out.obj,
        format_args!("# Wavefront OBJ written by rigport"),
    );
    line(
        &mut out.obj,
        format_args!(
            "# {} mesh(es), {} vertices, {} triangles",
            model.meshes.len(),
            model.vertex_count(),
            model.triangle_count()
        ),
    );
    for comment in model.comment.iter().flat_map(|c| c.lines()) {
        line(&mut out.obj, format_args!("# {comment}"));
    }
    if let (true, Some(name)) = (with_materials, mtl_file_name) {
        line(&mut out.obj, format_args!("mtllib {name}"));
    }

    let mut needs_default_material = false;
    let mut skipped = 0usize;
    let (mut v_base, mut vt_base, mut vn_base) = (1usize, 1usize, 1usize);
    let mesh_names = unique_names(model.meshes.iter().map(|m| m.name.as_str()), "mesh");
    for (mesh, name) in model.meshes.iter().zip(&mesh_names) {
        line(&mut out.obj, format_args!("o {name}"));
        let has_normals = mesh.vertices.iter().any(|v| v.normal != Vec3::ZERO);
        for v in &mesh.vertices {
            let p = finite3(v.position, &mut bad_numbers);
            line(&mut out.obj, format_args!("v {} {} {}", p.x, p.y, p.z));
        }
        if mesh.has_uvs {
            for v in &mesh.vertices {
                let uv = finite2(v.uv, &mut bad_numbers);
                line(&mut out.obj, format_args!("vt {} {}", uv.x, 1.0 - uv.y));
            }
        }
        if has_normals {
            for v in &mesh.vertices {
                let n = finite3(v.normal, &mut bad_numbers);
                line(&mut out.obj, format_args!("vn {} {} {}", n.x, n.y, n.z));
            }
        }
        if with_materials {
            match mesh.material.and_then(|id| material_names.get(id.index())) {
                Some(material) => line(&mut out.obj, format_args!("usemtl {material}")),
                None => {
                    if let Some(id) = mesh.material {
                        out.report.warn(
                            rigport_model_core::codes::OBJ_MATERIAL_MISSING,
                            format!("mesh `{}` uses material {id}, which does not exist; it gets the default material", mesh.name),
                        );
                    }
                    needs_default_material = true;
                    line(&mut out.obj, format_args!("usemtl {DEFAULT_MATERIAL}"));
                }
            }
        }
        skipped += write_faces(&mut out.obj, mesh, [v_base, vt_base, vn_base], has_normals);
        v_base += mesh.vertices.len();
        vt_base += if mesh.has_uvs { mesh.vertices.len() } else { 0 };
        vn_base += if has_normals { mesh.vertices.len() } else { 0 };
    }

    if with_materials {
        write_mtl(&mut out, model, &material_names, needs_default_material);
    }
    report_losses(&mut out.report, model, skipped, bad_numbers);
    out
}

/// Name of the material given to meshes without one (only written when needed).
const DEFAULT_MATERIAL: &str = "rigport_default";

/// Writes a mesh's `f` lines; returns how many triangles were skipped for indices past the
/// end of the mesh. `base` is the 1-based global index of the mesh's first v, vt and vn.
fn write_faces(obj: &mut String, mesh: &Mesh, base: [usize; 3], has_normals: bool) -> usize {
    let count = mesh.vertices.len();
    let mut skipped = 0;
    for triangle in &mesh.triangles {
        if triangle.iter().any(|&i| i as usize >= count) {
            skipped += 1;
            continue;
        }
        obj.push('f');
        for &i in triangle {
            let i = i as usize;
            let (v, vt, vn) = (base[0] + i, base[1] + i, base[2] + i);
            let _ = match (mesh.has_uvs, has_normals) {
                (false, false) => write!(obj, " {v}"),
                (true, false) => write!(obj, " {v}/{vt}"),
                (false, true) => write!(obj, " {v}//{vn}"),
                (true, true) => write!(obj, " {v}/{vt}/{vn}"),
            };
        }
        obj.push('\n');
    }
    skipped
}

/// Writes the `.mtl` text: every material, then the default one if a mesh needs it.
fn write_mtl(out: &mut ObjExport, model: &Model, names: &[String], with_default: bool) {
    let mtl = &mut out.mtl;
    line(mtl, format_args!("# Wavefront MTL written by rigport"));
    let default = Material::default();
    let materials = model
        .materials
        .iter()
        .zip(names.iter().map(String::as_str))
        .chain(with_default.then_some((&default, DEFAULT_MATERIAL)));
    let mut backslashes = 0usize;
    for (material, name) in materials {
        mtl.push('\n');
        line(mtl, format_args!("newmtl {name}"));
        for (key, colour) in [
            ("Ka", material.ambient),
            ("Kd", material.diffuse),
            ("Ks", material.specular),
            ("Ke", material.emissive),
        ] {
            let c = finite4(colour);
            line(mtl, format_args!("{key} {} {} {}", c.x, c.y, c.z));
        }
        line(mtl, format_args!("Ns {}", finite(material.shininess)));
        line(mtl, format_args!("d {}", finite(material.opacity)));
        line(mtl, format_args!("illum 2"));
        for (key, path) in [
            ("map_Kd", &material.texture),
            ("map_d", &material.alpha_map),
        ] {
            if let Some(path) = path.as_deref().filter(|p| !p.is_empty()) {
                backslashes += usize::from(path.contains('\\'));
                line(mtl, format_args!("{key} {}", path.replace('\\', "/")));
            }
        }
    }
    if backslashes > 0 {
        out.report.info(
            rigport_model_core::codes::OBJ_TEXTURE_PATH_SLASHES,
            format!("{backslashes} texture path(s) had back-slashes; written with forward slashes"),
        );
    }
}

/// Losses and warnings of the export as a whole.
fn report_losses(report: &mut Report, model: &Model, skipped: usize, bad_numbers: usize) {
    if !model.skeleton.is_empty() {
        report.loss(
            rigport_model_core::codes::OBJ_NO_SKELETON,
            format!(
                "OBJ has no skeleton: {} joint(s) and the skin weights were dropped (the meshes are written in their current shape)",
                model.skeleton.len()
            ),
        );
    }
    if !model.animations.is_empty() {
        report.loss(
            rigport_model_core::codes::OBJ_NO_ANIMATION,
            format!(
                "OBJ has no animation: {} animation(s) dropped",
                model.animations.len()
            ),
        );
    }
    let coloured = model.meshes.iter().filter(|m| m.has_colors).count();
    if coloured > 0 {
        report.loss(
            rigport_model_core::codes::OBJ_NO_VERTEX_COLORS,
            format!("OBJ has no vertex colours: dropped those of {coloured} mesh(es)"),
        );
    }
    if skipped > 0 {
        report.warn(
            rigport_model_core::codes::OBJ_TRIANGLE_OUT_OF_RANGE,
            format!("skipped {skipped} triangle(s) whose indices point past their mesh's vertices"),
        );
    }
    if bad_numbers > 0 {
        report.warn(
            rigport_model_core::codes::OBJ_NOT_FINITE,
            format!("{bad_numbers} number(s) were NaN or infinite; written as 0"),
        );
    }
}

/// Names safe for OBJ/MTL: whitespace and control characters become `_`, an empty name
/// becomes `<fallback><i>`, and a name already taken gets `_<i>` appended.
fn unique_names<'a>(names: impl Iterator<Item = &'a str>, fallback: &str) -> Vec<String> {
    let mut taken = std::collections::HashSet::new();
    let mut result = Vec::new();
    for (i, name) in names.enumerate() {
        let mut clean: String = name
            .chars()
            .map(|c| {
                if c.is_whitespace() || c.is_control() {
                    '_'
                } else {
                    c
                }
            })
            .collect();
        if clean.is_empty() {
            clean = format!("{fallback}{i}");
        }
        while taken.contains(&clean) {
            clean = format!("{clean}_{i}");
        }
        taken.insert(clean.clone());
        result.push(clean);
    }
    result
}

/// Appends formatted text and a newline (writing to a `String` cannot fail).
fn line(out: &mut String, args: fmt::Arguments<'_>) {
    let _ = out.write_fmt(args);
    out.push('\n');
}

/// `x`, or 0 if it is NaN or infinite.
fn finite(x: f32) -> f32 {
    if x.is_finite() { x } else { 0.0 }
}

fn finite2(v: Vec2, bad: &mut usize) -> Vec2 {
    *bad += usize::from(!v.is_finite());
    Vec2::new(finite(v.x), finite(v.y))
}

fn finite3(v: Vec3, bad: &mut usize) -> Vec3 {
    *bad += usize::from(!v.is_finite());
    Vec3::new(finite(v.x), finite(v.y), finite(v.z))
}

fn finite4(v: Vec4) -> Vec4 {
    Vec4::new(finite(v.x), finite(v.y), finite(v.z), finite(v.w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_model_core::glam::{Vec2, Vec4};
    use rigport_model_core::{Animation, Joint, MaterialId, Severity, Vertex};

    fn vertex(p: [f32; 3], n: [f32; 3], uv: [f32; 2]) -> Vertex {
        Vertex {
            position: Vec3::from(p),
            normal: Vec3::from(n),
            uv: Vec2::from(uv),
            ..Vertex::default()
        }
    }

    /// Two meshes: a textured, lit triangle with material 0, and an untextured quad without a
    /// material (so it needs the default one), named with a space.
    fn model() -> Model {
        let mut tri = Mesh::new("body");
        tri.vertices = vec![
            vertex([0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0]),
            vertex([1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.25]),
            vertex([0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0]),
        ];
        tri.triangles = vec![[0, 1, 2]];
        tri.has_uvs = true;
        tri.material = Some(MaterialId(0));
        let mut quad = Mesh::new("left arm");
        quad.vertices = vec![
            vertex([0.0, 0.0, 2.0], [0.0; 3], [0.0; 2]),
            vertex([1.0, 0.0, 2.0], [0.0; 3], [0.0; 2]),
            vertex([1.0, 1.0, 2.0], [0.0; 3], [0.0; 2]),
            vertex([0.0, 1.0, 2.0], [0.0; 3], [0.0; 2]),
        ];
        quad.triangles = vec![[0, 1, 2], [0, 2, 3]];
        let skin = Material {
            name: "skin".into(),
            ambient: Vec4::new(0.1, 0.1, 0.1, 1.0),
            diffuse: Vec4::new(0.5, 0.25, 1.0, 1.0),
            specular: Vec4::new(0.0, 0.0, 0.0, 1.0),
            emissive: Vec4::new(0.0, 0.0, 0.0, 1.0),
            shininess: 12.5,
            opacity: 0.75,
            texture: Some("textures\\skin.bmp".into()),
            alpha_map: None,
        };
        Model {
            meshes: vec![tri, quad],
            materials: vec![skin],
            ..Model::default()
        }
    }

    #[test]
    fn writes_global_one_based_indices_and_flips_v() {
        let out = write_obj(&model(), Some("model.mtl"));
        // The quad's first vertex is the 4th `v` overall; it has no vt and no vn, the
        // triangle has both (vt v' = 1 − v: 0 → 1, 0.25 → 0.75, 1 → 0).
        let expected = "\
# Wavefront OBJ written by rigport
# 2 mesh(es), 7 vertices, 3 triangles
mtllib model.mtl
o body
v 0 0 0
v 1 0 0
v 0 1 0
vt 0 1
vt 1 0.75
vt 0 0
vn 0 0 1
vn 0 0 1
vn 0 0 1
usemtl skin
f 1/1/1 2/2/2 3/3/3
o left_arm
v 0 0 2
v 1 0 2
v 1 1 2
v 0 1 2
usemtl rigport_default
f 4 5 6
f 4 6 7
";
        assert_eq!(out.obj, expected);
        assert_eq!(out.report.count(Severity::Loss), 0, "{}", out.report);
    }

    #[test]
    fn writes_the_material_library() {
        let out = write_obj(&model(), Some("model.mtl"));
        let expected = "\
# Wavefront MTL written by rigport

newmtl skin
Ka 0.1 0.1 0.1
Kd 0.5 0.25 1
Ks 0 0 0
Ke 0 0 0
Ns 12.5
d 0.75
illum 2
map_Kd textures/skin.bmp

newmtl rigport_default
Ka 0.2 0.2 0.2
Kd 0.8 0.8 0.8
Ks 0 0 0
Ke 0 0 0
Ns 0
d 1
illum 2
";
        assert_eq!(out.mtl, expected);
        assert_eq!(
            out.report
                .with_code(rigport_model_core::codes::OBJ_TEXTURE_PATH_SLASHES)
                .count(),
            1
        );
    }

    #[test]
    fn without_an_mtl_name_no_material_is_written() {
        let out = write_obj(&model(), None);
        assert!(out.mtl.is_empty());
        assert!(!out.obj.contains("mtllib") && !out.obj.contains("usemtl"));
        assert!(out.obj.contains("f 1/1/1 2/2/2 3/3/3\n"));
    }

    #[test]
    fn mixed_attributes_keep_separate_counters() {
        // Mesh A: normals only; mesh B: UVs only; mesh C: both. vn and vt counters advance
        // only over the meshes that wrote them.
        let mut a = Mesh::new("a");
        a.vertices = vec![vertex([0.0; 3], [1.0, 0.0, 0.0], [0.0; 2]); 3];
        a.triangles = vec![[0, 1, 2]];
        let mut b = a.clone();
        b.name = "b".into();
        b.has_uvs = true;
        b.vertices.iter_mut().for_each(|v| v.normal = Vec3::ZERO);
        let mut c = a.clone();
        c.name = "c".into();
        c.has_uvs = true;
        let model = Model {
            meshes: vec![a, b, c],
            ..Model::default()
        };
        let obj = write_obj(&model, None).obj;
        let faces: Vec<&str> = obj.lines().filter(|l| l.starts_with("f ")).collect();
        assert_eq!(
            faces,
            ["f 1//1 2//2 3//3", "f 4/1 5/2 6/3", "f 7/4/4 8/5/5 9/6/6"]
        );
    }

    #[test]
    fn reports_what_obj_cannot_carry_and_skips_bad_triangles() {
        let mut model = model();
        model.skeleton.joints.push(Joint::new("root"));
        model.animations.push(Animation::new("walk", 30.0));
        model.meshes[0].has_colors = true;
        model.meshes[0].triangles.push([0, 1, 9]);
        model.meshes[0].vertices[0].position.x = f32::NAN;
        model.meshes[1].material = Some(MaterialId(5));
        let out = write_obj(&model, Some("m.mtl"));
        for code in [
            rigport_model_core::codes::OBJ_NO_SKELETON,
            rigport_model_core::codes::OBJ_NO_ANIMATION,
            rigport_model_core::codes::OBJ_NO_VERTEX_COLORS,
        ] {
            let notice = out
                .report
                .with_code(code)
                .next()
                .unwrap_or_else(|| panic!("{code}"));
            assert_eq!(notice.severity, Severity::Loss);
        }
        for code in [
            rigport_model_core::codes::OBJ_TRIANGLE_OUT_OF_RANGE,
            rigport_model_core::codes::OBJ_NOT_FINITE,
            rigport_model_core::codes::OBJ_MATERIAL_MISSING,
        ] {
            assert_eq!(out.report.with_code(code).count(), 1, "{code}");
        }
        assert_eq!(out.obj.lines().filter(|l| l.starts_with("f ")).count(), 3);
        assert!(out.obj.contains("\nv 0 0 0\n"));
    }

    #[test]
    fn names_are_made_safe_and_unique() {
        assert_eq!(
            unique_names(["a b", "", "a_b", "x\ty", "x_y"].into_iter(), "mesh"),
            ["a_b", "mesh1", "a_b_2", "x_y", "x_y_4"]
        );
    }
}
