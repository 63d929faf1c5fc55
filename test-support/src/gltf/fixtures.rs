//! The glTF fixtures: what the real corpus lacks, built with [`Builder`] from plain numbers
//! and written into `fixtures/gltf/` by `cargo xtask golden` (checked by `--check` in CI).
//!
//! Most are one small rig: a bar of 2 × 3 vertices standing on the Y axis, skinned to a chain
//! of joints, with an animation that bends it. Each fixture adds the one feature it is named
//! after. Names starting with `fail_` must be refused with a clear message.

use super::builder::{Builder, component};
use rigport_model_core::glam::{Mat4, Quat, Vec3};
use serde_json::{Value, json};
use std::f32::consts::FRAC_PI_4;

/// One generated file: its name below `fixtures/gltf/` and its content.
#[derive(Clone, Debug)]
pub struct GltfFixture {
    /// File name (no folder).
    pub name: &'static str,
    /// Exact content.
    pub bytes: Vec<u8>,
}

/// Every glTF fixture, companions (`.bin`, images) included, sorted by name.
pub fn all() -> Vec<GltfFixture> {
    let mut out = Vec::new();
    let mut add = |name, bytes| out.push(GltfFixture { name, bytes });
    let (json, bin) = external().gltf_external("external.bin");
    add("external.gltf", json);
    add("external.bin", bin);
    add("external_texture.png", checker_png([200, 40, 40]));
    add("sparse.glb", sparse().glb());
    add("quantized.glb", quantized().glb());
    add("strips_fans.gltf", strips_fans().gltf_data_uri());
    add("points_lines.glb", points_lines().glb());
    add("influences8.glb", influences8().glb());
    add("two_skins.glb", two_skins().glb());
    add("ancestor_transform.glb", ancestor_transform().glb());
    add("ancestor_turn.glb", ancestor_turn().glb());
    add("interpolations.glb", interpolations().glb());
    add("morph.glb", morph().glb());
    add("textures.glb", textures().glb());
    add("fail_missing_external.gltf", missing_external());
    add("fail_draco.glb", draco().glb());
    add("fail_broken_json.gltf", broken_json());
    add("fail_accessor_out_of_range.glb", accessor_out_of_range());
    add("fail_index_out_of_range.glb", index_out_of_range().glb());
    let truncated = interpolations().glb();
    add(
        "fail_truncated.glb",
        truncated[..truncated.len() * 2 / 3].to_vec(),
    );
    out.sort_by_key(|f| f.name);
    out
}

/// A joint of a fixture rig: name, parent (index in the rig), rest translation and rotation.
struct JointSpec {
    name: &'static str,
    parent: Option<usize>,
    translation: Vec3,
    rotation: Quat,
}

fn chain(names: &[&'static str], step: f32) -> Vec<JointSpec> {
    names
        .iter()
        .enumerate()
        .map(|(i, &name)| JointSpec {
            name,
            parent: i.checked_sub(1),
            translation: if i == 0 { Vec3::ZERO } else { Vec3::Y * step },
            rotation: Quat::IDENTITY,
        })
        .collect()
}

/// Adds the joints as nodes (children linked); returns their node indices and rest world
/// matrices, `above` being the world matrix of the node they hang under.
fn add_joints(b: &mut Builder, joints: &[JointSpec], above: Mat4) -> (Vec<usize>, Vec<Mat4>) {
    let mut nodes = Vec::new();
    let mut worlds: Vec<Mat4> = Vec::new();
    for joint in joints {
        let node = b.push(
            "nodes",
            json!({
                "name": joint.name,
                "translation": joint.translation.to_array(),
                "rotation": joint.rotation.to_array(),
            }),
        );
        let local = Mat4::from_rotation_translation(joint.rotation, joint.translation);
        let world = match joint.parent {
            Some(p) => {
                children_mut(b, nodes[p]).push(json!(node));
                worlds[p] * local
            }
            None => above * local,
        };
        nodes.push(node);
        worlds.push(world);
    }
    (nodes, worlds)
}

fn children_mut(b: &mut Builder, node: usize) -> &mut Vec<Value> {
    let node = &mut b.root["nodes"][node];
    if node.get("children").is_none() {
        node["children"] = json!([]);
    }
    node["children"]
        .as_array_mut()
        .expect("children is an array")
}

/// A skin over `joints` (node indices) whose inverse bind matrices invert `worlds`.
fn add_skin(b: &mut Builder, joints: &[usize], worlds: &[Mat4]) -> usize {
    let ibm: Vec<f32> = worlds
        .iter()
        .flat_map(|w| w.inverse().to_cols_array())
        .collect();
    let accessor = b.floats(&ibm, "MAT4");
    b.push(
        "skins",
        json!({"joints": joints, "inverseBindMatrices": accessor}),
    )
}

/// Vertex data of a bar: 2 columns (x and x + 1) × `rows` rows, one unit apart in Y, facing
/// +Z, and the triangles between them (counter-clockwise seen from +Z).
struct Bar {
    positions: Vec<f32>,
    normals: Vec<f32>,
    uvs: Vec<f32>,
    indices: Vec<u16>,
}

fn bar(x: f32, rows: usize) -> Bar {
    let mut bar = Bar {
        positions: Vec::new(),
        normals: Vec::new(),
        uvs: Vec::new(),
        indices: Vec::new(),
    };
    for row in 0..rows {
        for column in 0..2 {
            bar.positions.extend([x + column as f32, row as f32, 0.0]);
            bar.normals.extend([0.0, 0.0, 1.0]);
            bar.uvs
                .extend([column as f32, 1.0 - row as f32 / (rows - 1) as f32]);
        }
    }
    for row in 0..rows as u16 - 1 {
        let (a, b, c, d) = (2 * row, 2 * row + 1, 2 * row + 2, 2 * row + 3);
        bar.indices.extend([a, b, d, a, d, c]);
    }
    bar
}

/// A mesh primitive from a bar; `skin` gives JOINTS_0/WEIGHTS_0 per vertex row.
fn bar_mesh(
    b: &mut Builder,
    bar: &Bar,
    skin: Option<&[([u16; 4], [f32; 4])]>,
    material: Option<usize>,
) -> usize {
    let position = b.floats(&bar.positions, "VEC3");
    let normal = b.floats(&bar.normals, "VEC3");
    let uv = b.floats(&bar.uvs, "VEC2");
    let indices = b.indices(&bar.indices);
    let mut attributes = json!({"POSITION": position, "NORMAL": normal, "TEXCOORD_0": uv});
    if let Some(rows) = skin {
        let mut joints = Vec::new();
        let mut weights = Vec::new();
        for (j, w) in rows {
            for _ in 0..2 {
                joints.extend(j.iter().map(|&x| i64::from(x)));
                weights.extend_from_slice(w);
            }
        }
        attributes["JOINTS_0"] =
            json!(b.integers(&joints, component::UNSIGNED_SHORT, "VEC4", false, false));
        attributes["WEIGHTS_0"] = json!(b.floats(&weights, "VEC4"));
    }
    let mut primitive = json!({"attributes": attributes, "indices": indices});
    if let Some(material) = material {
        primitive["material"] = json!(material);
    }
    b.push("meshes", json!({"name": "bar", "primitives": [primitive]}))
}

/// One animation channel: (node, path, interpolation, key times, values flattened).
type Channel<'a> = (usize, &'a str, &'a str, &'a [f32], &'a [f32]);

/// An animation of `channels`.
fn add_animation(b: &mut Builder, name: &str, channels: &[Channel<'_>]) {
    let mut samplers = Vec::new();
    let mut out = Vec::new();
    for (i, &(node, path, interpolation, times, values)) in channels.iter().enumerate() {
        let input = b.floats(times, "SCALAR");
        let ty = if path == "rotation" {
            "VEC4"
        } else if path == "weights" {
            "SCALAR"
        } else {
            "VEC3"
        };
        let output = b.floats(values, ty);
        samplers.push(json!({"input": input, "output": output, "interpolation": interpolation}));
        out.push(json!({"sampler": i, "target": {"node": node, "path": path}}));
    }
    b.push(
        "animations",
        json!({"name": name, "samplers": samplers, "channels": out}),
    );
}

fn quat_z(angle: f32) -> [f32; 4] {
    Quat::from_rotation_z(angle).to_array()
}

fn quats(angles: &[f32]) -> Vec<f32> {
    angles.iter().flat_map(|&a| quat_z(a)).collect()
}

/// Weights of a 3-row bar on joints 0 and 1: bottom on 0, middle half and half, top on 1.
const TWO_JOINT_ROWS: [([u16; 4], [f32; 4]); 3] = [
    ([0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
    ([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]),
    ([1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
];

/// The basic rig: scene → root → tip joints, a skinned bar node beside them, and a
/// bending animation of `tip`. Returns the builder and the joint nodes.
fn rig(material: Option<usize>, b: &mut Builder) -> Vec<usize> {
    let (joints, worlds) = add_joints(b, &chain(&["root", "tip"], 1.0), Mat4::IDENTITY);
    let skin = add_skin(b, &joints, &worlds);
    let mesh = bar_mesh(b, &bar(-0.5, 3), Some(&TWO_JOINT_ROWS), material);
    let body = b.push("nodes", json!({"name": "body", "mesh": mesh, "skin": skin}));
    b.push("scenes", json!({"nodes": [joints[0], body]}));
    b.set("scene", json!(0));
    joints
}

/// External `.bin` and an external PNG texture beside the `.gltf`.
fn external() -> Builder {
    let mut b = Builder::new();
    let image = b.push("images", json!({"uri": "external_texture.png"}));
    let texture = b.push("textures", json!({"source": image}));
    let material = b.material("painted", Some(texture));
    let joints = rig(Some(material), &mut b);
    add_animation(
        &mut b,
        "bend",
        &[(
            joints[1],
            "rotation",
            "LINEAR",
            &[0.0, 1.0, 2.0],
            &quats(&[0.0, FRAC_PI_4, 0.0]),
        )],
    );
    b
}

/// A static grid whose positions are a sparse accessor over a base view (two vertices
/// lifted in Z).
fn sparse() -> Builder {
    let mut b = Builder::new();
    let grid = bar(0.0, 3);
    let base = b.floats(&grid.positions, "VEC3");
    let lifted = b.sparse_floats(
        Some(base),
        6,
        "VEC3",
        &[2, 5],
        &[0.0, 1.0, 0.5, 1.0, 2.0, 0.25],
        (vec![0.0, 0.0, 0.0], vec![1.0, 2.0, 0.5]),
    );
    let indices = b.indices(&grid.indices);
    let mesh = b.push("meshes", json!({"name": "sparse", "primitives": [{"attributes": {"POSITION": lifted}, "indices": indices}]}));
    let node = b.push(
        "nodes",
        json!({"name": "sparse", "mesh": mesh, "translation": [2.0, 0.0, 0.0]}),
    );
    b.push("scenes", json!({"nodes": [node]}));
    b
}

/// KHR_mesh_quantization: normalized unsigned-short positions (the node's scale and
/// translation dequantize them), normalized byte normals and unsigned-byte UVs.
fn quantized() -> Builder {
    let mut b = Builder::new();
    b.set("extensionsUsed", json!(["KHR_mesh_quantization"]));
    b.set("extensionsRequired", json!(["KHR_mesh_quantization"]));
    let grid = bar(0.0, 3);
    let positions: Vec<i64> = grid
        .positions
        .iter()
        .map(|&v| (v / 2.0 * 65535.0).round() as i64)
        .collect();
    let position = b.integers(&positions, component::UNSIGNED_SHORT, "VEC3", true, true);
    let normals: Vec<i64> = grid.normals.iter().map(|&v| (v * 127.0) as i64).collect();
    let normal = b.integers(&normals, component::BYTE, "VEC3", true, false);
    let uvs: Vec<i64> = grid
        .uvs
        .iter()
        .map(|&v| (v * 255.0).round() as i64)
        .collect();
    let uv = b.integers(&uvs, component::UNSIGNED_BYTE, "VEC2", true, false);
    let indices = b.indices(&grid.indices);
    let mesh = b.push("meshes", json!({"name": "quantized", "primitives": [{"attributes": {"POSITION": position, "NORMAL": normal, "TEXCOORD_0": uv}, "indices": indices}]}));
    let node = b.push("nodes", json!({"name": "dequantize", "mesh": mesh, "scale": [2.0, 2.0, 2.0], "translation": [-1.0, 0.0, 0.5]}));
    b.push("scenes", json!({"nodes": [node]}));
    b
}

/// A triangle strip (indexed) and a triangle fan (not indexed).
fn strips_fans() -> Builder {
    let mut b = Builder::new();
    // Strip along X: 0 1 2 3 4 5 zig-zagging between y = 0 and y = 1.
    let strip: Vec<f32> = (0..6)
        .flat_map(|i| [i as f32 * 0.5, (i % 2) as f32, 0.0])
        .collect();
    let strip_position = b.floats(&strip, "VEC3");
    let strip_indices = b.indices(&[0, 1, 2, 3, 4, 5]);
    // Fan around the origin, counter-clockwise seen from +Z.
    let mut fan = vec![0.0, 0.0, 0.0];
    for k in 0..5 {
        let a = k as f32 * 0.6;
        fan.extend([a.cos(), a.sin(), 0.0]);
    }
    let fan_position = b.floats(&fan, "VEC3");
    let mesh = b.push(
        "meshes",
        json!({"name": "strips_fans", "primitives": [
            {"attributes": {"POSITION": strip_position}, "indices": strip_indices, "mode": 5},
            {"attributes": {"POSITION": fan_position}, "mode": 6},
        ]}),
    );
    let node = b.push(
        "nodes",
        json!({"name": "shapes", "mesh": mesh, "rotation": Quat::from_rotation_y(0.3).to_array()}),
    );
    b.push("scenes", json!({"nodes": [node]}));
    b
}

/// One triangle plus a points primitive and a lines primitive (reported as a loss).
fn points_lines() -> Builder {
    let mut b = Builder::new();
    let position = b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let lines = b.indices(&[0, 1, 1, 2]);
    let mesh = b.push(
        "meshes",
        json!({"name": "mixed", "primitives": [
            {"attributes": {"POSITION": position}},
            {"attributes": {"POSITION": position}, "mode": 0},
            {"attributes": {"POSITION": position}, "indices": lines, "mode": 1},
        ]}),
    );
    let node = b.push("nodes", json!({"name": "mixed", "mesh": mesh}));
    b.push("scenes", json!({"nodes": [node]}));
    b
}

/// A chain of 8 joints and a bar whose vertices each have 6 to 8 influences over
/// JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1, all different, so keeping the 4 largest changes
/// the pose.
fn influences8() -> Builder {
    let mut b = Builder::new();
    let names = ["j0", "j1", "j2", "j3", "j4", "j5", "j6", "j7"];
    let (joints, worlds) = add_joints(&mut b, &chain(&names, 0.25), Mat4::IDENTITY);
    let skin = add_skin(&mut b, &joints, &worlds);
    let grid = bar(-0.5, 3);
    let position = b.floats(&grid.positions, "VEC3");
    let indices = b.indices(&grid.indices);
    let mut joint_sets: [Vec<i64>; 2] = [Vec::new(), Vec::new()];
    let mut weight_sets: [Vec<f32>; 2] = [Vec::new(), Vec::new()];
    for v in 0..6u16 {
        let count = 6 + (v % 3) as usize; // 6, 7 or 8 influences
        let raw: Vec<f32> = (0..8)
            .map(|k| {
                if k < count {
                    (1 + (k + v as usize) % 8) as f32
                } else {
                    0.0
                }
            })
            .collect();
        let sum: f32 = raw.iter().sum();
        for (k, &w) in raw.iter().enumerate() {
            let set = k / 4;
            joint_sets[set].push(if w > 0.0 { k as i64 } else { 0 });
            weight_sets[set].push(w / sum);
        }
    }
    let j0 = b.integers(
        &joint_sets[0],
        component::UNSIGNED_BYTE,
        "VEC4",
        false,
        false,
    );
    let j1 = b.integers(
        &joint_sets[1],
        component::UNSIGNED_BYTE,
        "VEC4",
        false,
        false,
    );
    let w0 = b.floats(&weight_sets[0], "VEC4");
    let w1 = b.floats(&weight_sets[1], "VEC4");
    let mesh = b.push(
        "meshes",
        json!({"name": "many", "primitives": [{"attributes": {
        "POSITION": position, "JOINTS_0": j0, "WEIGHTS_0": w0, "JOINTS_1": j1, "WEIGHTS_1": w1,
    }, "indices": indices}]}),
    );
    let body = b.push("nodes", json!({"name": "body", "mesh": mesh, "skin": skin}));
    b.push("scenes", json!({"nodes": [joints[0], body]}));
    let angles: Vec<Vec<f32>> = (1..8).map(|j| quats(&[0.0, 0.1 * j as f32])).collect();
    let channels: Vec<Channel<'_>> = angles
        .iter()
        .enumerate()
        .map(|(k, angle)| {
            let channel: Channel<'_> = (joints[k + 1], "rotation", "LINEAR", &[0.0, 1.0], angle);
            channel
        })
        .collect();
    add_animation(&mut b, "curl", &channels);
    b
}

/// Two skins sharing joints: skin A over (root, mid, top), skin B over (top, mid, end) in
/// another order, each with its own bar.
fn two_skins() -> Builder {
    let mut b = Builder::new();
    let (joints, worlds) = add_joints(
        &mut b,
        &chain(&["root", "mid", "top", "end"], 1.0),
        Mat4::IDENTITY,
    );
    let skin_a = add_skin(&mut b, &joints[..3], &worlds[..3]);
    let b_order = [joints[2], joints[1], joints[3]];
    let skin_b = add_skin(&mut b, &b_order, &[worlds[2], worlds[1], worlds[3]]);
    let rows_a = [
        ([0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
        ([1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
        ([2, 1, 0, 0], [0.75, 0.25, 0.0, 0.0]),
    ];
    let mesh_a = bar_mesh(&mut b, &bar(-1.5, 3), Some(&rows_a), None);
    // Skin B's joint 0 is `top`, 1 `mid`, 2 `end`.
    let rows_b = [
        ([1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
        ([0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
        ([2, 0, 0, 0], [0.6, 0.4, 0.0, 0.0]),
    ];
    let mut shifted = bar(0.5, 3);
    shifted.positions.chunks_mut(3).for_each(|p| p[1] += 1.0);
    let mesh_b = bar_mesh(&mut b, &shifted, Some(&rows_b), None);
    let a = b.push(
        "nodes",
        json!({"name": "body_a", "mesh": mesh_a, "skin": skin_a}),
    );
    let c = b.push(
        "nodes",
        json!({"name": "body_b", "mesh": mesh_b, "skin": skin_b}),
    );
    b.push("scenes", json!({"nodes": [joints[0], a, c]}));
    add_animation(
        &mut b,
        "wave",
        &[
            (
                joints[1],
                "rotation",
                "LINEAR",
                &[0.0, 1.0],
                &quats(&[0.0, 0.4]),
            ),
            (
                joints[2],
                "rotation",
                "LINEAR",
                &[0.0, 1.0],
                &quats(&[0.0, -0.6]),
            ),
            (
                joints[3],
                "translation",
                "LINEAR",
                &[0.0, 1.0],
                &[0.0, 1.0, 0.0, 0.3, 1.2, 0.0],
            ),
        ],
    );
    b
}

/// A non-joint `Armature` node with translation, rotation and scale above the skeleton (as
/// Blender writes), and the skin's inverse bind matrices computed through it.
fn ancestor_transform() -> Builder {
    let mut b = Builder::new();
    let rotation = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let (translation, scale) = (Vec3::new(1.0, 2.0, 0.0), Vec3::splat(0.5));
    let armature = b.push(
        "nodes",
        json!({
            "name": "Armature", "translation": translation.to_array(),
            "rotation": rotation.to_array(), "scale": scale.to_array(),
        }),
    );
    let above = Mat4::from_scale_rotation_translation(scale, rotation, translation);
    let (joints, worlds) = add_joints(&mut b, &chain(&["root", "tip"], 1.0), above);
    children_mut(&mut b, armature).push(json!(joints[0]));
    let skin = add_skin(&mut b, &joints, &worlds);
    // The bar's vertices are given in world space at rest (the spec's skinned-mesh rule).
    let mut placed = bar(-0.5, 3);
    for p in placed.positions.chunks_mut(3) {
        let world = above.transform_point3(Vec3::new(p[0], p[1], p[2]));
        p.copy_from_slice(&world.to_array());
    }
    let mesh = bar_mesh(&mut b, &placed, Some(&TWO_JOINT_ROWS), None);
    let body = b.push("nodes", json!({"name": "body", "mesh": mesh, "skin": skin}));
    children_mut(&mut b, armature).push(json!(body));
    b.push("scenes", json!({"nodes": [armature]}));
    add_animation(
        &mut b,
        "bend",
        &[
            (
                joints[1],
                "rotation",
                "LINEAR",
                &[0.0, 1.0],
                &quats(&[0.0, 0.7]),
            ),
            (
                joints[0],
                "translation",
                "LINEAR",
                &[0.0, 1.0],
                &[0.0, 0.0, 0.0, 0.5, 0.0, 0.0],
            ),
        ],
    );
    b
}

/// A non-joint `Turn` node standing a Z-up skeleton up in Y, with the inverse bind matrices
/// and the vertices in the skeleton's own (Z-up) space, without the turn, and no keys on
/// the root: glTF draws the rest pose turned, so a reader must bind it turned too.
fn ancestor_turn() -> Builder {
    let mut b = Builder::new();
    let turn = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let parent = b.push(
        "nodes",
        json!({"name": "Turn", "rotation": turn.to_array()}),
    );
    // The chain stands along the skeleton's own Z: its root turned a quarter about X.
    let mut joints = chain(&["root", "tip"], 1.0);
    joints[0].rotation = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let (joints, worlds) = add_joints(&mut b, &joints, Mat4::IDENTITY);
    children_mut(&mut b, parent).push(json!(joints[0]));
    let skin = add_skin(&mut b, &joints, &worlds);
    let mut placed = bar(-0.5, 3);
    let stand = Mat4::from_quat(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2));
    for p in placed.positions.chunks_mut(3) {
        let point = stand.transform_point3(Vec3::new(p[0], p[1], p[2]));
        p.copy_from_slice(&point.to_array());
    }
    for n in placed.normals.chunks_mut(3) {
        let normal = stand.transform_vector3(Vec3::new(n[0], n[1], n[2]));
        n.copy_from_slice(&normal.to_array());
    }
    let mesh = bar_mesh(&mut b, &placed, Some(&TWO_JOINT_ROWS), None);
    let body = b.push("nodes", json!({"name": "body", "mesh": mesh, "skin": skin}));
    children_mut(&mut b, parent).push(json!(body));
    b.push("scenes", json!({"nodes": [parent]}));
    add_animation(
        &mut b,
        "bend",
        &[(
            joints[1],
            "rotation",
            "LINEAR",
            &[0.0, 1.0],
            &quats(&[0.0, 0.7]),
        )],
    );
    b
}

/// LINEAR, STEP and CUBICSPLINE animations, and one mixing STEP and LINEAR channels.
fn interpolations() -> Builder {
    let mut b = Builder::new();
    let joints = rig(None, &mut b);
    let times = [0.0, 0.5, 1.5];
    add_animation(
        &mut b,
        "linear",
        &[(
            joints[1],
            "rotation",
            "LINEAR",
            &times,
            &quats(&[0.0, 0.5, -0.3]),
        )],
    );
    add_animation(
        &mut b,
        "step",
        &[(
            joints[1],
            "translation",
            "STEP",
            &times,
            &[0.0, 1.0, 0.0, 0.4, 1.0, 0.0, -0.2, 1.5, 0.0],
        )],
    );
    // CUBICSPLINE: per key (in-tangent, value, out-tangent).
    let mut rotation = Vec::new();
    for (angle, tangent) in [(0.0f32, 0.0f32), (0.6, 0.8), (-0.2, 0.0)] {
        // d/dt of (0, 0, sin(a/2), cos(a/2)) for a = tangent·t, at the key.
        let (s, c) = (angle / 2.0).sin_cos();
        let d = [0.0, 0.0, c * tangent / 2.0, -s * tangent / 2.0];
        rotation.extend(d);
        rotation.extend(quat_z(angle));
        rotation.extend(d);
    }
    let mut translation = Vec::new();
    for (value, tangent) in [
        ([0.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
        ([0.3, 1.2, 0.0], [0.0, 0.5, 0.0]),
        ([0.0, 1.0, 0.2], [0.0, 0.0, 0.0]),
    ] {
        translation.extend(tangent);
        translation.extend(value);
        translation.extend(tangent.map(|t: f32| t * 0.5));
    }
    add_animation(
        &mut b,
        "cubic",
        &[
            (joints[1], "rotation", "CUBICSPLINE", &times, &rotation),
            (
                joints[1],
                "translation",
                "CUBICSPLINE",
                &times,
                &translation,
            ),
        ],
    );
    add_animation(
        &mut b,
        "mixed",
        &[
            (
                joints[1],
                "rotation",
                "LINEAR",
                &times,
                &quats(&[0.0, -0.5, 0.2]),
            ),
            (
                joints[0],
                "translation",
                "STEP",
                &[0.0, 0.7],
                &[0.0, 0.0, 0.0, 0.25, 0.0, 0.0],
            ),
        ],
    );
    b
}

/// A morph target on the rig's bar, animated by a `weights` channel beside a rotation.
fn morph() -> Builder {
    let mut b = Builder::new();
    let joints = rig(None, &mut b);
    let displacement: Vec<f32> = (0..6)
        .flat_map(|v| [0.0, 0.0, if v >= 4 { 0.5 } else { 0.0 }])
        .collect();
    let target = b.floats(&displacement, "VEC3");
    let mesh = &mut b.root["meshes"][0];
    mesh["primitives"][0]["targets"] = json!([{"POSITION": target}]);
    mesh["weights"] = json!([0.0]);
    let body = b.root["nodes"].as_array().map_or(0, |n| n.len() - 1);
    add_animation(
        &mut b,
        "puff",
        &[
            (body, "weights", "LINEAR", &[0.0, 1.0], &[0.0, 1.0]),
            (
                joints[1],
                "rotation",
                "LINEAR",
                &[0.0, 1.0],
                &quats(&[0.0, 0.5]),
            ),
        ],
    );
    b
}

/// Two quads textured with an embedded JPEG and an embedded PNG.
fn textures() -> Builder {
    let mut b = Builder::new();
    let jpeg = b.embedded_image(&checker_jpeg(), "image/jpeg", "bricks");
    let png = b.embedded_image(&checker_png([40, 160, 60]), "image/png", "grass");
    let materials = [
        b.material("bricks", Some(jpeg)),
        b.material("grass", Some(png)),
    ];
    let mut nodes = Vec::new();
    for (i, material) in materials.into_iter().enumerate() {
        let mesh = bar_mesh(&mut b, &bar(i as f32 * 1.5, 2), None, Some(material));
        nodes.push(b.push("nodes", json!({"name": format!("quad{i}"), "mesh": mesh})));
    }
    b.push("scenes", json!({"nodes": nodes}));
    b
}

/// A `.gltf` whose buffer is `missing.bin`, which does not exist.
fn missing_external() -> Vec<u8> {
    let mut b = Builder::new();
    let position = b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let mesh = b.push(
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": position}}]}),
    );
    let node = b.push("nodes", json!({"mesh": mesh}));
    b.push("scenes", json!({"nodes": [node]}));
    b.gltf_external("missing.bin").0
}

/// A file that requires KHR_draco_mesh_compression.
fn draco() -> Builder {
    let mut b = points_lines();
    b.set("extensionsUsed", json!(["KHR_draco_mesh_compression"]));
    b.set("extensionsRequired", json!(["KHR_draco_mesh_compression"]));
    b.root["meshes"][0]["primitives"][0]["extensions"] =
        json!({"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {"POSITION": 0}}});
    b
}

/// JSON with a missing comma on line 4.
fn broken_json() -> Vec<u8> {
    b"{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [{\"name\": \"a\"}]\n  \"scenes\": [{\"nodes\": [0]}]\n}\n".to_vec()
}

/// A position accessor claiming more vertices than its buffer view holds.
fn accessor_out_of_range() -> Vec<u8> {
    let mut b = points_lines();
    b.root["accessors"][0]["count"] = json!(3000);
    b.glb()
}

/// An index naming vertex 99 of a 3-vertex primitive.
fn index_out_of_range() -> Builder {
    let mut b = Builder::new();
    let position = b.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let indices = b.indices(&[0, 1, 99]);
    let mesh = b.push(
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": position}, "indices": indices}]}),
    );
    let node = b.push("nodes", json!({"mesh": mesh}));
    b.push("scenes", json!({"nodes": [node]}));
    b
}

fn checker(color: [u8; 3]) -> image::RgbImage {
    image::RgbImage::from_fn(8, 8, |x, y| {
        if (x / 2 + y / 2) % 2 == 0 {
            image::Rgb(color)
        } else {
            image::Rgb([240, 240, 240])
        }
    })
}

/// An 8 × 8 PNG checker in `color` and white.
pub fn checker_png(color: [u8; 3]) -> Vec<u8> {
    let mut out = Vec::new();
    checker(color)
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .expect("PNG encodes in memory");
    out
}

/// An 8 × 8 JPEG checker.
pub fn checker_jpeg() -> Vec<u8> {
    let mut out = Vec::new();
    checker([150, 70, 40])
        .write_to(
            &mut std::io::Cursor::new(&mut out),
            image::ImageFormat::Jpeg,
        )
        .expect("JPEG encodes in memory");
    out
}
