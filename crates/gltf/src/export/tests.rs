//! Structural tests: models built in code, exported, parsed back with gltf-json and checked
//! against hand-computed expectations; optionally run through the Khronos validator.

use super::*;
use glam::{Mat4, Quat, Vec2, Vec3, Vec4};
use json::accessor::ComponentType;
use json::validation::{Checked, Validate};
use rigport_model_core::{
    Animation, Interpolation, Joint, JointId, Key, Material, MaterialId, Mesh, Severity, Track,
    Vertex,
};

/// Exports as GLB and splits the container back into its checked parts.
fn glb(model: &Model) -> (json::Root, Vec<u8>, Report) {
    let (bytes, report) = to_glb(model, &ExportOptions::default()).expect("export");
    let (root, bin) = split_glb(&bytes);
    (root, bin, report)
}

/// Reads a GLB, checking the header, chunk lengths and padding on the way.
fn split_glb(bytes: &[u8]) -> (json::Root, Vec<u8>) {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    assert_eq!(&bytes[..4], b"glTF");
    assert_eq!(word(4), 2, "version");
    assert_eq!(word(8), bytes.len(), "total length");
    let json_len = word(12);
    assert_eq!(word(16), 0x4E4F_534A);
    assert_eq!(json_len % 4, 0);
    let text = &bytes[20..20 + json_len];
    let root = json::Root::from_slice(text).expect("JSON parses");
    let trimmed = text.iter().rposition(|&b| b != b' ').unwrap() + 1;
    assert!(json_len - trimmed < 4, "JSON padded with at most 3 spaces");
    let rest = &bytes[20 + json_len..];
    let bin = if rest.is_empty() {
        Vec::new()
    } else {
        let bin_len = word(20 + json_len);
        assert_eq!(word(24 + json_len), 0x004E_4942);
        assert_eq!(bin_len % 4, 0);
        assert_eq!(rest.len(), 8 + bin_len);
        rest[8..].to_vec()
    };
    let declared = root.buffers.first().map_or(0, |b| b.byte_length.0 as usize);
    assert_eq!(declared, bin.len(), "buffer byteLength = BIN chunk length");
    let mut problems = Vec::new();
    root.validate(&root, json::Path::new, &mut |path, error| {
        problems.push(format!("{}: {error}", path()))
    });
    assert!(problems.is_empty(), "gltf-json validation: {problems:?}");
    (root, bin)
}

/// The raw little-endian bytes of an accessor's elements (views are tightly packed).
fn accessor_bytes<'a>(
    root: &'a json::Root,
    bin: &'a [u8],
    index: json::Index<json::Accessor>,
) -> (&'a [u8], &'a json::Accessor) {
    let accessor = &root.accessors[index.value()];
    let view = &root.buffer_views[accessor.buffer_view.unwrap().value()];
    let offset = view.byte_offset.map_or(0, |o| o.0 as usize);
    assert_eq!(offset % 4, 0, "views start 4-byte aligned");
    (&bin[offset..offset + view.byte_length.0 as usize], accessor)
}

fn floats(root: &json::Root, bin: &[u8], index: json::Index<json::Accessor>) -> Vec<f32> {
    let (bytes, accessor) = accessor_bytes(root, bin, index);
    assert!(matches!(
        accessor.component_type,
        Checked::Valid(json::accessor::GenericComponentType(ComponentType::F32))
    ));
    let values: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(
        values.len(),
        accessor.count.0 as usize * multiplicity(accessor)
    );
    values
}

fn uints(
    root: &json::Root,
    bin: &[u8],
    index: json::Index<json::Accessor>,
) -> (ComponentType, Vec<u32>) {
    let (bytes, accessor) = accessor_bytes(root, bin, index);
    let Checked::Valid(json::accessor::GenericComponentType(ty)) = accessor.component_type else {
        panic!()
    };
    let values: Vec<u32> = match ty {
        ComponentType::U8 => bytes.iter().map(|&b| u32::from(b)).collect(),
        ComponentType::U16 => bytes
            .chunks_exact(2)
            .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
            .collect(),
        ComponentType::U32 => bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect(),
        other => panic!("not an unsigned type: {other:?}"),
    };
    assert_eq!(
        values.len(),
        accessor.count.0 as usize * multiplicity(accessor)
    );
    (ty, values)
}

fn multiplicity(accessor: &json::Accessor) -> usize {
    let Checked::Valid(ty) = accessor.type_ else {
        panic!()
    };
    ty.multiplicity()
}

fn attribute(
    primitive: &json::mesh::Primitive,
    semantic: json::mesh::Semantic,
) -> Option<json::Index<json::Accessor>> {
    primitive.attributes.get(&Checked::Valid(semantic)).copied()
}

fn vertex(position: Vec3, normal: Vec3) -> Vertex {
    Vertex {
        position,
        normal,
        ..Vertex::default()
    }
}

/// A unit quad in the XY plane facing +Z, counter-clockwise, with UVs, and a material.
fn static_model() -> Model {
    let mut mesh = Mesh::new("quad");
    for (p, uv) in [
        (Vec3::new(0.0, 0.0, 0.0), Vec2::new(0.0, 1.0)),
        (Vec3::new(2.0, 0.0, 0.0), Vec2::new(1.0, 1.0)),
        (Vec3::new(2.0, 1.0, -0.5), Vec2::new(1.0, 0.0)),
        (Vec3::new(0.0, 1.0, 0.0), Vec2::new(0.0, 0.0)),
    ] {
        mesh.vertices.push(Vertex {
            uv,
            ..vertex(p, Vec3::Z)
        });
    }
    mesh.triangles = vec![[0, 1, 2], [0, 2, 3]];
    mesh.has_uvs = true;
    mesh.material = Some(MaterialId(0));
    let material = Material {
        diffuse: Vec4::new(1.0, 0.5, 0.25, 1.0),
        texture: Some(r"textures\wood.png".to_owned()),
        ..Material::named("wood")
    };
    Model {
        meshes: vec![mesh],
        materials: vec![material],
        ..Model::default()
    }
}

#[test]
fn static_mesh_round_trips_structurally() {
    let (root, bin, report) = glb(&static_model());
    assert_eq!(root.meshes.len(), 1);
    let primitive = &root.meshes[0].primitives[0];
    let position = attribute(primitive, json::mesh::Semantic::Positions).unwrap();
    let accessor = &root.accessors[position.value()];
    assert_eq!(accessor.count.0, 4);
    // Bounds by hand over the four corners.
    assert_eq!(accessor.min, Some(serde_json::json!([0.0, 0.0, -0.5])));
    assert_eq!(accessor.max, Some(serde_json::json!([2.0, 1.0, 0.0])));
    let normals = floats(
        &root,
        &bin,
        attribute(primitive, json::mesh::Semantic::Normals).unwrap(),
    );
    assert_eq!(normals, [0.0, 0.0, 1.0].repeat(4));
    let uvs = floats(
        &root,
        &bin,
        attribute(primitive, json::mesh::Semantic::TexCoords(0)).unwrap(),
    );
    assert_eq!(uvs, [0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
    assert!(
        attribute(primitive, json::mesh::Semantic::Colors(0)).is_none(),
        "no colours in the source"
    );
    assert!(attribute(primitive, json::mesh::Semantic::Joints(0)).is_none());
    let (ty, indices) = uints(&root, &bin, primitive.indices.unwrap());
    assert_eq!(ty, ComponentType::U16);
    assert_eq!(indices, [0, 1, 2, 0, 2, 3]);

    let material = &root.materials[primitive.material.unwrap().value()];
    assert_eq!(
        material.pbr_metallic_roughness.base_color_factor.0,
        [1.0, 0.5, 0.25, 1.0]
    );
    assert_eq!(
        material.alpha_mode,
        Checked::Valid(json::material::AlphaMode::Opaque)
    );
    assert_eq!(root.images[0].uri.as_deref(), Some("textures/wood.png"));

    assert_eq!(root.nodes.len(), 1);
    assert_eq!(root.nodes[0].mesh, Some(json::Index::new(0)));
    assert_eq!(root.scenes[0].nodes, vec![json::Index::new(0)]);
    assert!(root.skins.is_empty() && root.animations.is_empty());
    // The default material still has ambient 0.2: glTF has no place for it.
    assert!(
        report
            .with_code(rigport_model_core::codes::GLTF_MATERIAL_UNMAPPED)
            .any(|n| n.message.contains("ambient"))
    );
    assert_eq!(report.count(Severity::Warning), 0, "{report}");
}

/// Joint 0 `child` (parent 1, listed first), joint 1 `root`; a two-triangle strip, the lower
/// vertices on the root, the upper ones shared, and a linear animation with messy keys.
fn skinned_model() -> Model {
    let root = Joint {
        translation: Vec3::new(0.0, 1.0, 0.0),
        ..Joint::new("root")
    };
    let child = Joint {
        parent: Some(JointId(1)),
        translation: Vec3::new(0.0, 2.0, 0.0),
        rotation: Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        ..Joint::new("child")
    };
    let mut mesh = Mesh::new("strip");
    let bind = |joints: [u32; 4], weights: [f32; 4], p: Vec3| Vertex {
        joints: joints.map(JointId),
        weights,
        ..vertex(p, Vec3::Z)
    };
    mesh.vertices = vec![
        bind([1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0], Vec3::new(0.0, 0.0, 0.0)),
        bind([1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0], Vec3::new(1.0, 0.0, 0.0)),
        // 60 % / 40 % stored as 0.6 and 0.4 (sums to 1 in f32 only approximately).
        bind([1, 0, 0, 0], [0.6, 0.4, 0.0, 0.0], Vec3::new(1.0, 3.0, 0.0)),
        bind([0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0], Vec3::new(0.0, 3.0, 0.0)),
    ];
    mesh.triangles = vec![[0, 1, 2], [0, 2, 3]];
    let mut track = Track::new(JointId(0));
    // Out of order, with two keys at t = 0.5 (the later one, 0.3 rad, must win).
    track.rotations = vec![
        Key::new(1.0, Quat::from_rotation_x(1.0)),
        Key::new(0.0, Quat::IDENTITY),
        Key::new(0.5, Quat::from_rotation_x(0.2)),
        Key::new(0.5, Quat::from_rotation_x(0.3)),
    ];
    // Not unit: must be normalized.
    track.translations = vec![
        Key::new(0.0, Vec3::new(0.0, 2.0, 0.0)),
        Key::new(1.0, Vec3::new(0.0, 3.0, 0.0)),
    ];
    let mut root_track = Track::new(JointId(1));
    root_track.scales = vec![Key::new(0.0, Vec3::ONE), Key::new(1.0, Vec3::splat(2.0))];
    let animation = Animation {
        tracks: vec![track, root_track],
        duration: 1.0,
        looping: true,
        ..Animation::new("wave", 24.0)
    };
    Model {
        meshes: vec![mesh],
        skeleton: rigport_model_core::Skeleton {
            joints: vec![child, root],
        },
        animations: vec![animation],
        ..Model::default()
    }
}

#[test]
fn skinned_chain_with_child_before_parent() {
    let (root, bin, report) = glb(&skinned_model());
    // Nodes: 0 child, 1 root, 2 mesh. The tree: 1 → 0; the scene lists 1 and the mesh.
    assert_eq!(root.nodes[0].name.as_deref(), Some("child"));
    assert_eq!(root.nodes[1].children, Some(vec![json::Index::new(0)]));
    assert_eq!(root.nodes[0].children, None);
    assert_eq!(
        root.scenes[0].nodes,
        vec![json::Index::new(1), json::Index::new(2)]
    );
    assert_eq!(root.nodes[2].skin, Some(json::Index::new(0)));
    let rotation = root.nodes[0].rotation.unwrap().0;
    let half = std::f32::consts::FRAC_PI_4;
    assert!((rotation[2] - half.sin()).abs() < 1e-6 && (rotation[3] - half.cos()).abs() < 1e-6);

    let skin = &root.skins[0];
    assert_eq!(skin.joints, vec![json::Index::new(0), json::Index::new(1)]);
    let ibm = floats(&root, &bin, skin.inverse_bind_matrices.unwrap());
    assert_eq!(ibm.len(), 32);
    for m in ibm.chunks_exact(16) {
        assert_eq!(
            [m[3], m[7], m[11], m[15]],
            [0.0, 0.0, 0.0, 1.0],
            "exactly affine"
        );
    }
    // Root world bind = T(0,1,0) → inverse moves by (0,−1,0).
    assert_eq!(&ibm[16 + 12..16 + 15], &[0.0, -1.0, 0.0]);
    // Child world bind = T(0,3,0)·Rz(90°): its inverse maps the child origin (0,3,0) to 0
    // and the world point (0,4,0) (one up from the joint) onto the local +X... rotated back: (1,0,0).
    let child_inverse = Mat4::from_cols_slice(&ibm[..16]);
    assert!(
        child_inverse
            .transform_point3(Vec3::new(0.0, 3.0, 0.0))
            .length()
            < 1e-6
    );
    assert!((child_inverse.transform_point3(Vec3::new(0.0, 4.0, 0.0)) - Vec3::X).length() < 1e-6);

    let primitive = &root.meshes[0].primitives[0];
    let (ty, joints) = uints(
        &root,
        &bin,
        attribute(primitive, json::mesh::Semantic::Joints(0)).unwrap(),
    );
    assert_eq!(ty, ComponentType::U8, "two joints fit in u8");
    assert_eq!(joints, [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    let weights = floats(
        &root,
        &bin,
        attribute(primitive, json::mesh::Semantic::Weights(0)).unwrap(),
    );
    for w in weights.chunks_exact(4) {
        let sum: f64 = w.iter().map(|&x| f64::from(x)).sum();
        assert!((sum - 1.0).abs() < 1e-7, "{w:?}");
    }
    assert!((weights[8] - 0.6).abs() < 1e-7 && (weights[9] - 0.4).abs() < 1e-7);

    let animation = &root.animations[0];
    assert_eq!(animation.name.as_deref(), Some("wave"));
    // child: translation, rotation; root: scale.
    let targets: Vec<(usize, json::animation::Property)> = animation
        .channels
        .iter()
        .map(|c| (c.target.node.value(), c.target.path.unwrap()))
        .collect();
    use json::animation::Property::*;
    assert_eq!(targets, [(0, Translation), (0, Rotation), (1, Scale)]);
    let rotation_sampler = &animation.samplers[animation.channels[1].sampler.value()];
    assert_eq!(
        rotation_sampler.interpolation,
        Checked::Valid(json::animation::Interpolation::Linear)
    );
    let times = floats(&root, &bin, rotation_sampler.input);
    assert_eq!(times, [0.0, 0.5, 1.0], "sorted, the duplicate collapsed");
    let input = &root.accessors[rotation_sampler.input.value()];
    assert_eq!(input.min, Some(serde_json::json!([0.0])));
    assert_eq!(input.max, Some(serde_json::json!([1.0])));
    let rotations = floats(&root, &bin, rotation_sampler.output);
    let middle = Quat::from_slice(&rotations[4..8]);
    assert!(
        middle.abs_diff_eq(Quat::from_rotation_x(0.3), 1e-6),
        "the later key at 0.5 wins: {middle}"
    );
    for q in rotations.chunks_exact(4) {
        assert!((Quat::from_slice(q).length() - 1.0).abs() < 1e-6);
    }
    // The translation channel shares the input [0, 1] with the scale channel.
    let samplers = &animation.samplers;
    assert_eq!(samplers[0].input, samplers[2].input);

    for code in [
        "gltf-keys-reordered",
        "gltf-key-duplicate-time",
        "gltf-animation-fps-loop",
    ] {
        assert_eq!(report.with_code(code).count(), 1, "{code} in {report}");
    }
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_WINDING_DISAGREES)
            .count(),
        0,
        "{report}"
    );
}

#[test]
fn several_roots_and_unbound_vertices_get_a_common_ancestor() {
    let mut model = skinned_model();
    model.skeleton.joints.push(Joint::new("second root"));
    // Vertex 1 bound to nothing: it must stay put, on a joint that never moves.
    model.meshes[0].vertices[1].weights = [0.0; 4];
    let (root, bin, report) = glb(&model);
    // Nodes: 0 child, 1 root, 2 second root, 3 unbound joint, 4 armature, 5 mesh.
    assert_eq!(
        root.nodes[3].name.as_deref(),
        Some(skeleton::UNBOUND_JOINT_NAME)
    );
    assert_eq!(root.nodes[4].name.as_deref(), Some(skeleton::ARMATURE_NAME));
    let children = root.nodes[4].children.clone().unwrap();
    assert_eq!(children, [1, 2, 3].map(json::Index::new));
    assert_eq!(root.scenes[0].nodes, [4, 5].map(json::Index::new));
    let skin = &root.skins[0];
    assert_eq!(skin.joints, [0, 1, 2, 3].map(json::Index::new));
    let ibm = floats(&root, &bin, skin.inverse_bind_matrices.unwrap());
    assert_eq!(&ibm[48..], &Mat4::IDENTITY.to_cols_array());
    let primitive = &root.meshes[0].primitives[0];
    let (_, joints) = uints(
        &root,
        &bin,
        attribute(primitive, json::mesh::Semantic::Joints(0)).unwrap(),
    );
    assert_eq!(&joints[4..8], &[3, 0, 0, 0]);
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_UNBOUND_JOINT)
            .count(),
        1
    );
}

#[test]
fn absolute_texture_path_and_transparency() {
    let mut model = static_model();
    model.materials[0].texture = Some(r"C:\Art Work\skin #2.bmp".to_owned());
    model.materials[0].opacity = 0.5;
    model.materials[0].specular = Vec4::ONE;
    model.materials[0].shininess = 40.0;
    model.materials.push(Material {
        texture: Some("/abs/skin #2.bmp".to_owned()),
        ..Material::named("same image")
    });
    let (root, _, report) = glb(&model);
    assert_eq!(root.images.len(), 1, "one image per distinct URI");
    assert_eq!(root.images[0].uri.as_deref(), Some("skin%20%232.bmp"));
    assert_eq!(root.textures.len(), 1);
    let material = &root.materials[0];
    assert_eq!(
        material.alpha_mode,
        Checked::Valid(json::material::AlphaMode::Blend)
    );
    assert_eq!(material.pbr_metallic_roughness.base_color_factor.0[3], 0.5);
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_TEXTURE_ABSOLUTE)
            .count(),
        2
    );
    assert!(
        report
            .with_code(rigport_model_core::codes::GLTF_TEXTURE_ABSOLUTE)
            .all(|n| n.severity == Severity::Warning)
    );
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_TEXTURE_FORMAT)
            .count(),
        1,
        "BMP is not a core glTF image"
    );
    let unmapped: Vec<&str> = report
        .with_code(rigport_model_core::codes::GLTF_MATERIAL_UNMAPPED)
        .map(|n| n.message.as_str())
        .collect();
    assert!(
        unmapped
            .iter()
            .any(|m| m.starts_with("specular colour of 1 ")),
        "{unmapped:?}"
    );
    assert!(
        unmapped.iter().any(|m| m.starts_with("shininess of 1 ")),
        "{unmapped:?}"
    );
}

#[test]
fn cubic_animation_gets_catmull_rom_tangents() {
    let mut model = skinned_model();
    let mut track = Track::new(JointId(1));
    track.translations = vec![
        Key::new(0.0, Vec3::ZERO),
        Key::new(1.0, Vec3::new(2.0, 0.0, 0.0)),
        Key::new(3.0, Vec3::new(2.0, 4.0, 0.0)),
    ];
    model.animations = vec![Animation {
        interpolation: Interpolation::Cubic,
        tracks: vec![track],
        ..Animation::new("cubic", 30.0)
    }];
    let (root, bin, _) = glb(&model);
    let animation = &root.animations[0];
    let sampler = &animation.samplers[0];
    assert_eq!(
        sampler.interpolation,
        Checked::Valid(json::animation::Interpolation::CubicSpline)
    );
    let output = floats(&root, &bin, sampler.output);
    assert_eq!(
        root.accessors[sampler.output.value()].count.0,
        9,
        "in-tangent, value, out-tangent per key"
    );
    // Hand-computed tangents (per second): ends one-sided, the middle (v2 − v0)/(t2 − t0).
    let m0 = [2.0, 0.0, 0.0];
    let m1 = [2.0 / 3.0, 4.0 / 3.0, 0.0];
    let m2 = [0.0, 2.0, 0.0];
    let expected: Vec<f32> = [
        m0,
        [0.0; 3],
        m0,
        m1,
        [2.0, 0.0, 0.0],
        m1,
        m2,
        [2.0, 4.0, 0.0],
        m2,
    ]
    .concat();
    for (got, want) in output.iter().zip(&expected) {
        assert!((got - want).abs() < 1e-6, "{output:?} vs {expected:?}");
    }
}

#[test]
fn declared_length_past_the_last_key_is_held() {
    // A one-shot animation holds its last pose to the declared length (a looping one wraps).
    let mut model = skinned_model();
    model.animations[0].looping = false;
    model.animations[0].duration = 2.5;
    let (root, bin, report) = glb(&model);
    let animation = &root.animations[0];
    let first = &animation.samplers[animation.channels[0].sampler.value()];
    assert_eq!(floats(&root, &bin, first.input), [0.0, 1.0, 2.5]);
    let values = floats(&root, &bin, first.output);
    assert_eq!(
        &values[6..],
        &values[3..6],
        "the hold repeats the last value"
    );
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_ANIMATION_LENGTH_HELD)
            .count(),
        1
    );
}

#[test]
fn looping_animation_blends_back_to_its_first_key() {
    // N frames at F fps loop over N/F: every channel ends with its first value at the period,
    // instead of holding the last one.
    let mut model = skinned_model();
    model.animations[0].looping = true;
    model.animations[0].duration = 2.0;
    let (root, bin, report) = glb(&model);
    let animation = &root.animations[0];
    assert!(!animation.channels.is_empty());
    for channel in &animation.channels {
        let sampler = &animation.samplers[channel.sampler.value()];
        let times = floats(&root, &bin, sampler.input);
        assert_eq!(times.last(), Some(&2.0), "{times:?}");
        let values = floats(&root, &bin, sampler.output);
        let width = values.len() / times.len();
        let (first, last) = (&values[..width], &values[values.len() - width..]);
        let dot: f32 = first.iter().zip(last).map(|(a, b)| a * b).sum();
        let same = first.iter().zip(last).all(|(a, b)| (a - b).abs() < 1e-6);
        let negated = first.iter().zip(last).all(|(a, b)| (a + b).abs() < 1e-6);
        assert!(
            same || (width == 4 && negated && dot < 0.0),
            "{first:?} {last:?}"
        );
    }
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_ANIMATION_LOOP_WRAP)
            .count(),
        1
    );
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_ANIMATION_LENGTH_HELD)
            .count(),
        0
    );
}

#[test]
fn empty_meshes_and_animations_are_left_out_and_reported() {
    let mut model = static_model();
    let mut no_triangles = Mesh::new("points only");
    no_triangles.vertices.push(vertex(Vec3::ZERO, Vec3::Z));
    model.meshes.push(no_triangles);
    model.meshes.push(Mesh::new("nothing"));
    let mut broken = Mesh::new("dangling");
    broken.vertices.push(vertex(Vec3::ZERO, Vec3::Z));
    broken.triangles.push([0, 0, 5]);
    model.meshes.push(broken);
    model.animations.push(Animation::new("idle", 24.0));
    model.comment = Some("made in 2004".to_owned());
    let (root, _, report) = glb(&model);
    assert_eq!(root.meshes.len(), 1);
    assert!(root.animations.is_empty());
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_MESH_NO_TRIANGLES)
            .count(),
        2,
        "{report}"
    );
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_MESH_EMPTY)
            .count(),
        1
    );
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_TRIANGLE_INDEX_OUT_OF_RANGE)
            .count(),
        1
    );
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_ANIMATION_EMPTY)
            .count(),
        1
    );
    assert_eq!(
        report
            .with_code(rigport_model_core::codes::GLTF_COMMENT)
            .count(),
        1
    );
}

#[test]
fn empty_model_is_a_valid_document_without_buffer() {
    let (bytes, report) = to_glb(&Model::default(), &ExportOptions::default()).unwrap();
    let (root, bin) = split_glb(&bytes);
    assert!(bin.is_empty() && root.buffers.is_empty());
    assert!(root.scenes.is_empty() && root.scene.is_none());
    assert!(report.is_empty(), "{report}");
}

#[test]
fn winding_that_disagrees_with_normals_is_reported() {
    let mut model = static_model();
    model.meshes[0].triangles[1] = [0, 3, 2];
    let (root, _, report) = glb(&model);
    let notice = report
        .with_code(rigport_model_core::codes::GLTF_WINDING_DISAGREES)
        .next()
        .expect("reported");
    assert_eq!(notice.severity, Severity::Warning);
    assert!(notice.message.starts_with("1 of 2 "), "{}", notice.message);
    // Written as given: the exporter does not fix the winding.
    assert_eq!(
        root.accessors[root.meshes[0].primitives[0].indices.unwrap().value()]
            .count
            .0,
        6
    );
}

#[test]
fn broken_values_are_repaired_for_the_validator() {
    let mut model = skinned_model();
    let mesh = &mut model.meshes[0];
    mesh.vertices[0].normal = Vec3::ZERO;
    mesh.vertices[1].position.x = f32::NAN;
    mesh.vertices[2].normal = Vec3::new(0.0, 0.0, 3.0);
    mesh.has_colors = true;
    mesh.vertices[3].color = Vec4::new(2.0, 0.5, -1.0, 1.0);
    model.skeleton.joints[0].rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    model.animations[0].tracks[0]
        .rotations
        .push(Key::new(2.0, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)));
    // A garbage time as found in a damaged MilkShape file: dropped, not shifting the rest.
    model.animations[0].tracks[1]
        .scales
        .push(Key::new(-3.3e38, Vec3::ONE));
    let (root, bin, report) = glb(&model);
    let primitive = &root.meshes[0].primitives[0];
    let normals = floats(
        &root,
        &bin,
        attribute(primitive, json::mesh::Semantic::Normals).unwrap(),
    );
    for n in normals.chunks_exact(3) {
        assert!((Vec3::from_slice(n).length() - 1.0).abs() < 1e-6, "{n:?}");
    }
    let colours = floats(
        &root,
        &bin,
        attribute(primitive, json::mesh::Semantic::Colors(0)).unwrap(),
    );
    assert_eq!(&colours[12..], &[1.0, 0.5, 0.0, 1.0]);
    assert!(
        root.nodes[0].rotation.is_none(),
        "zero rotation became the identity"
    );
    for code in [
        "gltf-normals-generated",
        "gltf-non-finite-vertex",
        "gltf-colour-clamped",
        "gltf-joint-transform-invalid",
        "gltf-key-invalid",
        "gltf-key-time-negative",
    ] {
        assert_eq!(report.with_code(code).count(), 1, "{code} in {report}");
    }
}

#[test]
fn separate_layout_names_its_buffer_file() {
    let bin_name = bin_file_name_for(std::path::Path::new("out/my model.gltf"));
    let options = ExportOptions::default().with_pretty(true);
    let (SeparateFiles { json, bin, .. }, _) =
        to_gltf(&static_model(), &bin_name, &options).unwrap();
    let root = json::Root::from_str(&json).unwrap();
    assert_eq!(root.buffers[0].uri.as_deref(), Some("my%20model.bin"));
    assert_eq!(root.buffers[0].byte_length.0 as usize, bin.len());
    assert_eq!(bin.len() % 4, 0);
}

/// Every model the tests build, by name, for the external validator.
fn all_models() -> Vec<(&'static str, Model)> {
    let mut several_roots = skinned_model();
    several_roots
        .skeleton
        .joints
        .push(Joint::new("second root"));
    several_roots.meshes[0].vertices[1].weights = [0.0; 4];
    let mut cubic = skinned_model();
    cubic.animations[0].interpolation = Interpolation::Cubic;
    cubic.animations[0].duration = 4.0;
    let mut transparent = static_model();
    transparent.materials[0].texture = Some(r"C:\Art Work\skin #2.png".to_owned());
    transparent.materials[0].opacity = 0.25;
    vec![
        ("static", static_model()),
        ("skinned", skinned_model()),
        ("several-roots", several_roots),
        ("cubic", cubic),
        ("transparent", transparent),
        ("empty", Model::default()),
    ]
}

/// A valid 1×1 RGB PNG, written beside the test GLBs so the validator can check images.
const TINY_PNG: [u8; 69] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xDF, 0xC0, 0x00,
    0x00, 0x04, 0x01, 0x01, 0x80, 0xC5, 0x2A, 0x18, 0x5D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
    0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// Runs `crates/gltf/tests/validate_gltf.mjs` on a GLB and returns its exit success and the
/// report it printed.
fn run_validator(
    modules: &std::ffi::OsStr,
    glb: &std::path::Path,
    strict: bool,
) -> (bool, serde_json::Value) {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validate_gltf.mjs");
    let mut command = std::process::Command::new("node");
    command
        .arg(&script)
        .arg(glb)
        .env("RIGPORT_GLTF_VALIDATOR", modules);
    if strict {
        command.arg("--strict");
    }
    let result = command.output().expect("node runs");
    let stdout = String::from_utf8_lossy(&result.stdout);
    let report = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&result.stderr)));
    (result.status.success(), report)
}

/// The Khronos validator (when `RIGPORT_GLTF_VALIDATOR` names the `node_modules` directory
/// holding `gltf-validator`) finds no error and no warning in any test model, with the
/// texture images present; with them absent, the script accepts only the missing images.
#[test]
fn khronos_validator_accepts_every_test_model() {
    let Some(modules) = std::env::var_os("RIGPORT_GLTF_VALIDATOR") else {
        println!("skipped: RIGPORT_GLTF_VALIDATOR not set");
        return;
    };
    let with_images = tempfile::tempdir().unwrap();
    std::fs::create_dir(with_images.path().join("textures")).unwrap();
    for image in ["textures/wood.png", "skin #2.png"] {
        std::fs::write(with_images.path().join(image), TINY_PNG).unwrap();
    }
    for (name, model) in all_models() {
        let (bytes, _) = to_glb(&model, &ExportOptions::default()).unwrap();
        let path = with_images.path().join(format!("{name}.glb"));
        std::fs::write(&path, bytes).unwrap();
        let (success, report) = run_validator(&modules, &path, true);
        assert!(success, "{name}: {report:#}");
        assert_eq!(report["issues"]["numErrors"], 0, "{name}: {report:#}");
        assert_eq!(report["issues"]["numWarnings"], 0, "{name}: {report:#}");
    }

    // The same for `.gltf` + `.bin`, with a file name that needs percent-encoding.
    let gltf_path = with_images.path().join("skinned model.gltf");
    let options = ExportOptions::default().with_pretty(true);
    let bin_name = bin_file_name_for(&gltf_path);
    let (SeparateFiles { json, bin, .. }, _) =
        to_gltf(&skinned_model(), &bin_name, &options).unwrap();
    std::fs::write(&gltf_path, json).unwrap();
    std::fs::write(with_images.path().join("skinned model.bin"), bin).unwrap();
    let (success, report) = run_validator(&modules, &gltf_path, true);
    assert!(success, "separate files: {report:#}");
    assert_eq!(
        report["issues"]["numWarnings"], 0,
        "separate files: {report:#}"
    );
    assert_eq!(
        report["info"]["resources"][0]["storage"], "external",
        "{report:#}"
    );

    let without_images = tempfile::tempdir().unwrap();
    let path = without_images.path().join("static.glb");
    let (bytes, _) = to_glb(&static_model(), &ExportOptions::default()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    let (success, report) = run_validator(&modules, &path, false);
    assert!(success, "a missing image is accepted: {report:#}");
    assert_eq!(
        report["rigport"]["accepted"].as_array().map(Vec::len),
        Some(1),
        "{report:#}"
    );
    let (strict_success, _) = run_validator(&modules, &path, true);
    assert!(!strict_success, "--strict counts the missing image");
}

#[test]
fn of_two_tracks_for_one_joint_the_first_wins() {
    // The same rule as Animation::track, posing and every format writer, so OBJ poses, glTF
    // and the MilkShape/IQE outputs of one model agree.
    let mut model = skinned_model();
    let mut first = Track::new(JointId(1));
    first.translations = vec![Key::new(0.0, Vec3::X), Key::new(1.0, Vec3::X)];
    let mut last = Track::new(JointId(1));
    last.translations = vec![Key::new(0.0, Vec3::Z), Key::new(1.0, Vec3::Z)];
    model.animations[0].tracks = vec![first, last];
    let (root, bin, report) = glb(&model);
    let animation = &root.animations[0];
    let channel = &animation.channels[0];
    assert_eq!(channel.target.node.value(), 1);
    let values = floats(
        &root,
        &bin,
        animation.samplers[channel.sampler.value()].output,
    );
    assert_eq!(
        &values[..3],
        &[1.0, 0.0, 0.0],
        "the first track's +X, not the second's +Z"
    );
    assert!(
        report.notices.iter().any(|n| n.message.contains("track")),
        "{report}"
    );
}

#[test]
fn clean_channels_are_written_as_the_same_channels_cleaned() {
    // Rotations that cross hemispheres, a first key at −0 s, channels with the times of the
    // one before, other times and some of them, linear and step: written straight from the keys (they need no
    // cleaning), and again with an invalid key added to every channel, which sends them
    // through cleaning. Both documents and buffers must be the same.
    let mut track = Track::new(JointId(0));
    track.rotations = vec![
        Key::new(-0.0, Quat::from_rotation_x(0.1)),
        Key::new(0.5, -Quat::from_rotation_x(0.4)),
        Key::new(1.0, Quat::from_rotation_x(3.0)),
        Key::new(1.5, -Quat::from_rotation_y(2.5)),
    ];
    track.translations = vec![
        Key::new(-0.0, Vec3::new(0.0, 2.0, 0.0)),
        Key::new(0.5, Vec3::new(1.0, 2.0, 0.0)),
        Key::new(1.0, Vec3::new(0.0, 3.0, 0.0)),
        Key::new(1.5, Vec3::new(0.0, 3.0, 1.0)),
    ];
    let mut root_track = Track::new(JointId(1));
    // The times of the channel before, cut short.
    root_track.translations = vec![Key::new(0.0, Vec3::ONE), Key::new(0.5, Vec3::ONE)];
    root_track.rotations = vec![Key::new(0.0, Quat::IDENTITY), Key::new(1.5, Quat::IDENTITY)];
    root_track.scales = vec![Key::new(0.25, Vec3::ONE), Key::new(1.5, Vec3::splat(2.0))];
    let mut model = skinned_model();
    for interpolation in [Interpolation::Linear, Interpolation::Step] {
        model.animations = vec![Animation {
            tracks: vec![track.clone(), root_track.clone()],
            duration: 1.5,
            looping: false,
            interpolation,
            ..Animation::new("turn", 24.0)
        }];
        let mut dirty = model.clone();
        for track in &mut dirty.animations[0].tracks {
            let nan = f32::NAN;
            track.rotations.push(Key::new(nan, Quat::IDENTITY));
            track.translations.push(Key::new(nan, Vec3::ZERO));
            track.scales.push(Key::new(nan, Vec3::ONE));
        }
        let (clean_root, clean_bin, clean_report) = glb(&model);
        let (dirty_root, dirty_bin, dirty_report) = glb(&dirty);
        let invalid = |report: &Report| report.notices.iter().any(|n| n.code == "gltf-key-invalid");
        assert!(
            invalid(&dirty_report) && !invalid(&clean_report),
            "{dirty_report:?}"
        );
        let json = |root: &json::Root| json::serialize::to_string(root).unwrap();
        assert_eq!(json(&clean_root), json(&dirty_root), "{interpolation:?}");
        assert!(clean_bin == dirty_bin, "{interpolation:?}");
        let written = json(&clean_root);
        let name = match interpolation {
            Interpolation::Step => "\"STEP\"",
            _ => "\"LINEAR\"",
        };
        assert_eq!(written.matches(name).count(), 5, "{interpolation:?}");
    }
}

/// Image files held in memory, by name.
type ImagesInMemory = BesideImages<std::collections::BTreeMap<String, Vec<u8>>>;

/// Images beside the model (one PNG), and [`all_models`] with a textured model reading it.
fn models_and_images() -> (ImagesInMemory, Vec<(&'static str, Model)>) {
    let images = std::collections::BTreeMap::from([("skin #2.png".to_owned(), TINY_PNG.to_vec())]);
    let mut models = all_models();
    let mut textured = skinned_model();
    textured.materials = static_model().materials;
    textured.materials[0].texture = Some("skin #2.png".to_owned());
    textured.meshes[0].material = Some(MaterialId(0));
    textured.meshes[0].has_uvs = true;
    models.push(("textured", textured));
    (BesideImages::over(images), models)
}

#[test]
fn animations_written_apart_land_where_they_would_have_been_written() {
    let (images, models) = models_and_images();
    for (name, model) in &models {
        let options = ExportOptions::default();
        let export = |apart: bool, bin_uri: Option<String>| {
            let placement = Placement::Embed(&images);
            build_apart(Cow::Borrowed(model), bin_uri, placement, &options, apart).expect("export")
        };
        let (json_here, here, report_here, _) = export(false, None);
        let (json_apart, apart, report_apart, _) = export(true, None);
        let has_keys = model
            .animations
            .iter()
            .any(|a| a.tracks.iter().any(|t| t.key_count() > 0));
        assert_eq!(apart.tail.is_empty(), !has_keys, "{name}: written apart");
        assert!(here.tail.is_empty(), "{name}");
        if *name == "textured" {
            assert!(json_here.contains("image/png"), "the image is embedded");
        }
        assert_eq!(json_apart, json_here, "{name}");
        assert_eq!(report_apart, report_here, "{name}");
        let (glb_here, glb_apart) = (
            glb::assemble(&json_here, here).unwrap(),
            glb::assemble(&json_apart, apart).unwrap(),
        );
        assert!(glb_apart == glb_here, "{name}: the GLBs differ");
        let (_, bin) = split_glb(&glb_apart);
        let (_, separate, _, _) = export(true, Some("model.bin".to_owned()));
        assert!(
            separate.joined() == bin,
            "{name}: the .bin differs from the BIN chunk"
        );
    }
}

#[test]
#[cfg(feature = "parallel")]
fn long_animations_beside_small_meshes_are_written_apart() {
    let keys = |count: usize| {
        let mut track = Track::new(JointId(0));
        track.rotations = (0..count)
            .map(|i| Key::new(i as f32 / 30.0, Quat::IDENTITY))
            .collect();
        track
    };
    let mut model = skinned_model();
    model.animations[0].tracks = vec![keys(70_000)];
    // A pool of one thread writes everything in turn.
    let apart_here = rayon::current_num_threads() > 1;
    assert_eq!(animation::writes_apart(&model), apart_here);
    // Meshes that outweigh the animations: their copy would raise the peak.
    let big = &mut model.meshes[0];
    big.vertices = vec![big.vertices[0]; 200_000];
    assert!(!animation::writes_apart(&model));
    model.meshes[0].vertices.truncate(4);
    model.animations[0].tracks = vec![keys(1_000)];
    assert!(
        !animation::writes_apart(&model),
        "too few keys for a thread"
    );
}

/// A model the export owns is freed mesh by mesh as it is written, and gives the same file
/// as the borrowed one, with and without images to embed.
#[test]
fn an_owned_model_gives_the_borrowed_models_file() {
    let (images, mut models) = models_and_images();
    let mut two_meshes = skinned_model();
    two_meshes.meshes.push(two_meshes.meshes[0].clone());
    models.push(("two meshes", two_meshes));
    for (name, model) in models {
        let options = ExportOptions::default();
        for source in [None, Some(&images as &dyn ImageSource)] {
            let borrowed = to_glb_from(Cow::Borrowed(&model), &options, source).expect("export");
            let owned = to_glb_from(Cow::Owned(model.clone()), &options, source).expect("export");
            assert_eq!(owned.0, borrowed.0, "{name}: bytes");
            assert_eq!(owned.1, borrowed.1, "{name}: report");
        }
    }
}
