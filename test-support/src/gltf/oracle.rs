//! An independent posing oracle for glTF files: from the JSON and the buffers alone (read by
//! [`super::read`], not by `rigport-gltf`), the world position of every triangle corner of
//! the default scene, at rest or at a time of an animation, computed the way the glTF 2.0
//! specification describes it:
//!
//! * node local = `matrix`, or `T · R · S`; an animation channel replaces its node's
//!   translation, rotation or scale, sampled LINEAR (slerp for rotations), STEP, or
//!   CUBICSPLINE (Hermite with the stored tangents scaled by the key interval);
//! * world = parent world · local, up to the scene root (non-joint ancestors included);
//! * an unskinned mesh is placed by its node's world matrix; a skinned one ignores its node
//!   and uses `Σ wᵢ · world(jointᵢ) · inverseBindMatrixᵢ`, over every JOINTS_n/WEIGHTS_n set;
//! * triangle lists, strips and fans become triangles as the spec orders them; points and
//!   lines have no triangles;
//! * morph targets move the vertices first (`POSITION` + Σ wᵢ · targetᵢ, sparse accessors
//!   as [`super::read`] reads them), by the node's `weights`, else the mesh's, replaced by a
//!   `weights` channel's sampled value in an animation (§3.7.2.2).

use super::read::{Source, array, uint};
use rigport_model_core::glam::{Mat4, Quat, Vec3};
use serde_json::Value;
use std::path::Path;

/// One triangle's corners in world space, in winding order.
pub type Triangle = [Vec3; 3];

/// Choices where rigport documents a loss the oracle should reproduce.
#[derive(Clone, Copy, Debug, Default)]
pub struct OracleOptions {
    /// Keep only this many largest influences per vertex, renormalized (rigport's neutral
    /// model holds 4); `None`: every influence, as a viewer would.
    pub max_influences: Option<usize>,
    /// Keep every mesh at its default morph weights, ignoring `weights` channels (what a
    /// format without morph targets keeps: the mesh at rest, baked).
    pub default_weights: bool,
}

/// An animation of the file: its name and the span of its key times.
#[derive(Clone, Debug, PartialEq)]
pub struct AnimationSpan {
    /// The `name` member, if any.
    pub name: Option<String>,
    /// Earliest key time in seconds.
    pub start: f32,
    /// Latest key time in seconds.
    pub end: f32,
    /// Whether it moves any node (not only morph weights).
    pub moves_nodes: bool,
}

/// A glTF file ready to be posed.
#[derive(Clone, Debug)]
pub struct Oracle {
    source: Source,
    options: OracleOptions,
}

impl Oracle {
    /// Reads a `.glb` or `.gltf` (external files from `base_dir`).
    pub fn read(bytes: &[u8], base_dir: Option<&Path>) -> Result<Self, String> {
        Ok(Self {
            source: Source::read(bytes, base_dir)?,
            options: OracleOptions::default(),
        })
    }

    /// The same oracle with other options.
    pub fn with_options(mut self, options: OracleOptions) -> Self {
        self.options = options;
        self
    }

    /// Every animation, in file order.
    pub fn animations(&self) -> Result<Vec<AnimationSpan>, String> {
        let json = &self.source.json;
        array(json, "animations")
            .iter()
            .map(|animation| {
                let (mut start, mut end) = (f32::INFINITY, f32::NEG_INFINITY);
                let mut moves_nodes = false;
                for channel in array(animation, "channels") {
                    let sampler = &animation["samplers"][uint(&channel["sampler"]).ok_or("?")?];
                    let times = self.source.accessor(uint(&sampler["input"]).ok_or("?")?)?;
                    for t in times {
                        start = start.min(t[0]);
                        end = end.max(t[0]);
                    }
                    moves_nodes |= channel["target"]["path"].as_str() != Some("weights");
                }
                Ok(AnimationSpan {
                    name: animation["name"].as_str().map(str::to_owned),
                    start: if start.is_finite() { start } else { 0.0 },
                    end: if end.is_finite() { end } else { 0.0 },
                    moves_nodes,
                })
            })
            .collect()
    }

    /// Every triangle of the default scene, posed at (`animation`, `time` seconds), or at
    /// rest (the nodes' own transforms) for `None`.
    pub fn triangles(&self, pose: Option<(usize, f32)>) -> Result<Vec<Triangle>, String> {
        let json = &self.source.json;
        let nodes = array(json, "nodes");
        let mut locals: Vec<Local> = nodes.iter().map(Local::of_node).collect::<Result<_, _>>()?;
        let mut weights: Vec<Vec<f32>> = nodes
            .iter()
            .map(|node| {
                let mesh = uint(&node["mesh"]).map(|m| &json["meshes"][m]);
                let listed = node["weights"]
                    .as_array()
                    .or_else(|| mesh.and_then(|m| m["weights"].as_array()));
                listed.map_or_else(Vec::new, |w| {
                    w.iter().map(|v| v.as_f64().unwrap_or(0.0) as f32).collect()
                })
            })
            .collect();
        if let Some((index, time)) = pose {
            let animation = &array(json, "animations")
                .get(index)
                .ok_or(format!("animation {index} does not exist"))?;
            self.apply_animation(animation, time, &mut locals)?;
            if !self.options.default_weights {
                self.apply_weights(animation, time, &mut weights)?;
            }
        }
        let worlds = world_matrices(nodes, &locals)?;
        let mut triangles = Vec::new();
        for node in scene_nodes(json, nodes)? {
            let Some(mesh) = uint(&nodes[node]["mesh"]) else {
                continue;
            };
            let skin = uint(&nodes[node]["skin"])
                .map(|s| self.skin_matrices(s, &worlds))
                .transpose()?;
            for primitive in array(&json["meshes"][mesh], "primitives") {
                let pose = (worlds[node], skin.as_deref(), &weights[node][..]);
                self.primitive_triangles(primitive, pose, &mut triangles)?;
            }
        }
        Ok(triangles)
    }

    /// `world(joint) · inverseBindMatrix` for each joint of skin `index`.
    fn skin_matrices(&self, index: usize, worlds: &[Mat4]) -> Result<Vec<Mat4>, String> {
        let skin = &self.source.json["skins"][index];
        let joints: Vec<usize> = array(skin, "joints").iter().filter_map(uint).collect();
        let inverse_binds = match uint(&skin["inverseBindMatrices"]) {
            Some(accessor) => self
                .source
                .accessor(accessor)?
                .iter()
                .map(|m| Mat4::from_cols_slice(m))
                .collect(),
            None => vec![Mat4::IDENTITY; joints.len()],
        };
        joints
            .iter()
            .zip(
                inverse_binds
                    .iter()
                    .chain(std::iter::repeat(&Mat4::IDENTITY)),
            )
            .map(|(&joint, ibm)| {
                worlds
                    .get(joint)
                    .map(|w| *w * *ibm)
                    .ok_or(format!("skin {index} joint {joint} is not a node"))
            })
            .collect()
    }

    /// The triangles of a primitive posed by `(world, skin matrices, morph weights)`.
    fn primitive_triangles(
        &self,
        primitive: &Value,
        (world, skin, weights): (Mat4, Option<&[Mat4]>, &[f32]),
        out: &mut Vec<Triangle>,
    ) -> Result<(), String> {
        let mode = uint(&primitive["mode"]).unwrap_or(4);
        if !(4..=6).contains(&mode) {
            return Ok(());
        }
        let attributes = &primitive["attributes"];
        let positions = self
            .source
            .accessor(uint(&attributes["POSITION"]).ok_or("primitive without POSITION")?)?;
        let mut placed: Vec<Vec3> = positions
            .iter()
            .map(|p| Vec3::new(p[0], p[1], p[2]))
            .collect();
        for (target, &weight) in array(primitive, "targets").iter().zip(weights) {
            let Some(accessor) = uint(&target["POSITION"]) else {
                continue;
            };
            if weight == 0.0 {
                continue;
            }
            for (p, d) in placed.iter_mut().zip(self.source.accessor(accessor)?) {
                *p += Vec3::new(d[0], d[1], d[2]) * weight;
            }
        }
        match skin {
            None => placed
                .iter_mut()
                .for_each(|p| *p = world.transform_point3(*p)),
            Some(matrices) => {
                let influences = self.influences(attributes, placed.len())?;
                for (p, list) in placed.iter_mut().zip(influences) {
                    let mut m = Mat4::ZERO;
                    for (joint, weight) in self.kept(list) {
                        let joint_matrix = matrices
                            .get(joint as usize)
                            .ok_or(format!("joint {joint} past the skin's end"))?;
                        m += *joint_matrix * weight;
                    }
                    *p = m.transform_point3(*p);
                }
            }
        }
        let indices: Vec<usize> = match uint(&primitive["indices"]) {
            Some(accessor) => self
                .source
                .integers(accessor)?
                .into_iter()
                .map(|row| row[0] as usize)
                .collect(),
            None => (0..placed.len()).collect(),
        };
        let corner = |i: usize| {
            placed
                .get(indices[i])
                .copied()
                .ok_or(format!("index {} out of range", indices[i]))
        };
        let n = indices.len();
        let count = match mode {
            4 => n / 3,
            _ => n.saturating_sub(2),
        };
        for i in 0..count {
            let corners = match mode {
                4 => [3 * i, 3 * i + 1, 3 * i + 2],
                // The spec's strip order: odd triangles swap their first two corners so
                // every triangle keeps the strip's winding.
                5 => [i, i + 1 + i % 2, i + 2 - i % 2],
                _ => [i + 1, i + 2, 0],
            };
            out.push([
                corner(corners[0])?,
                corner(corners[1])?,
                corner(corners[2])?,
            ]);
        }
        Ok(())
    }

    /// Every (joint, weight) of each vertex over all JOINTS_n/WEIGHTS_n sets.
    fn influences(&self, attributes: &Value, count: usize) -> Result<Vec<Vec<(u32, f32)>>, String> {
        let mut out = vec![Vec::new(); count];
        for set in 0.. {
            let (Some(joints), Some(weights)) = (
                uint(&attributes[format!("JOINTS_{set}")]),
                uint(&attributes[format!("WEIGHTS_{set}")]),
            ) else {
                break;
            };
            let joints = self.source.integers(joints)?;
            let weights = self.source.accessor(weights)?;
            for ((list, j), w) in out.iter_mut().zip(joints).zip(weights) {
                list.extend(j.into_iter().zip(w).filter(|&(_, w)| w > 0.0));
            }
        }
        Ok(out)
    }

    /// The influences kept under [`OracleOptions::max_influences`], renormalized when cut.
    fn kept(&self, mut list: Vec<(u32, f32)>) -> Vec<(u32, f32)> {
        let Some(max) = self.options.max_influences else {
            return list;
        };
        if list.len() <= max {
            return list;
        }
        list.sort_by(|a, b| b.1.total_cmp(&a.1));
        list.truncate(max);
        let sum: f32 = list.iter().map(|&(_, w)| w).sum();
        list.iter().map(|&(j, w)| (j, w / sum)).collect()
    }

    /// Replaces the weights of every node a `weights` channel of `animation` drives by the
    /// channel's value at `time`.
    fn apply_weights(
        &self,
        animation: &Value,
        time: f32,
        weights: &mut [Vec<f32>],
    ) -> Result<(), String> {
        for channel in array(animation, "channels") {
            let target = &channel["target"];
            if target["path"].as_str() != Some("weights") {
                continue;
            }
            let node = uint(&target["node"]).ok_or("weights channel without node")?;
            let (times, rows, mode) = self.keys(animation, channel)?;
            let flat: Vec<f32> = rows.into_iter().map(|v| v[0]).collect();
            let per_key = if mode == "CUBICSPLINE" { 3 } else { 1 };
            let targets = flat.len() / (times.len() * per_key).max(1);
            let values: Vec<Vec<f32>> = flat.chunks(targets.max(1)).map(<[f32]>::to_vec).collect();
            let value = sample(&times, &values, mode, false, time)?;
            *weights
                .get_mut(node)
                .ok_or(format!("weights channel node {node} out of range"))? = value;
        }
        Ok(())
    }

    /// A channel's key times, output rows and interpolation.
    fn keys<'a>(&self, animation: &'a Value, channel: &Value) -> Result<Keys<'a>, String> {
        let sampler =
            &animation["samplers"][uint(&channel["sampler"]).ok_or("channel without sampler")?];
        let times: Vec<f32> = self
            .source
            .accessor(uint(&sampler["input"]).ok_or("sampler without input")?)?
            .into_iter()
            .map(|t| t[0])
            .collect();
        let values = self
            .source
            .accessor(uint(&sampler["output"]).ok_or("sampler without output")?)?;
        let mode = sampler["interpolation"].as_str().unwrap_or("LINEAR");
        Ok((times, values, mode))
    }

    fn apply_animation(
        &self,
        animation: &Value,
        time: f32,
        locals: &mut [Local],
    ) -> Result<(), String> {
        for channel in array(animation, "channels") {
            let target = &channel["target"];
            let (Some(node), Some(path)) = (uint(&target["node"]), target["path"].as_str()) else {
                continue;
            };
            if path == "weights" {
                continue;
            }
            let (times, values, mode) = self.keys(animation, channel)?;
            let value = sample(&times, &values, mode, path == "rotation", time)?;
            let local = locals
                .get_mut(node)
                .ok_or(format!("channel node {node} out of range"))?;
            match path {
                "translation" => local.translation = Vec3::new(value[0], value[1], value[2]),
                "rotation" => {
                    local.rotation =
                        Quat::from_xyzw(value[0], value[1], value[2], value[3]).normalize()
                }
                "scale" => local.scale = Vec3::new(value[0], value[1], value[2]),
                _ => {}
            }
            local.matrix = None;
        }
        Ok(())
    }
}

/// A channel's key times, output rows (one per accessor element) and interpolation.
type Keys<'a> = (Vec<f32>, Vec<Vec<f32>>, &'a str);

/// A node's local transform: its matrix, or TRS.
#[derive(Clone, Copy, Debug)]
struct Local {
    matrix: Option<Mat4>,
    translation: Vec3,
    rotation: Quat,
    scale: Vec3,
}

impl Local {
    fn of_node(node: &Value) -> Result<Self, String> {
        let floats = |key: &str, default: &[f32]| -> Vec<f32> {
            node[key].as_array().map_or_else(
                || default.to_vec(),
                |a| a.iter().map(|v| v.as_f64().unwrap_or(0.0) as f32).collect(),
            )
        };
        let t = floats("translation", &[0.0; 3]);
        let r = floats("rotation", &[0.0, 0.0, 0.0, 1.0]);
        let s = floats("scale", &[1.0; 3]);
        let m = floats("matrix", &[]);
        if !(m.is_empty() || m.len() == 16) || t.len() != 3 || r.len() != 4 || s.len() != 3 {
            return Err("node transform of the wrong length".into());
        }
        let matrix = (m.len() == 16).then(|| Mat4::from_cols_slice(&m));
        // A matrix node has no TRS; the decomposition is only used if an animation targets
        // it, which the spec forbids.
        let (scale, rotation, translation) = match matrix {
            Some(m) => m.to_scale_rotation_translation(),
            None => (
                Vec3::from_slice(&s),
                Quat::from_xyzw(r[0], r[1], r[2], r[3]),
                Vec3::from_slice(&t),
            ),
        };
        Ok(Self {
            matrix,
            translation,
            rotation,
            scale,
        })
    }

    fn to_mat4(self) -> Mat4 {
        self.matrix.unwrap_or_else(|| {
            Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
        })
    }
}

/// World matrix of every node (parent world · local), following `children`.
fn world_matrices(nodes: &[Value], locals: &[Local]) -> Result<Vec<Mat4>, String> {
    let mut parent = vec![None; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        for child in array(node, "children").iter().filter_map(uint) {
            *parent.get_mut(child).ok_or("child out of range")? = Some(i);
        }
    }
    let mut worlds: Vec<Option<Mat4>> = vec![None; nodes.len()];
    for start in 0..nodes.len() {
        // The ancestors not yet known, nearest first; then computed from the top down.
        let mut chain = vec![start];
        let mut above = Mat4::IDENTITY;
        while let Some(p) = parent[*chain.last().expect("never empty")] {
            if let Some(world) = worlds[p] {
                above = world;
                break;
            }
            if chain.len() > nodes.len() {
                return Err("the node hierarchy has a cycle".into());
            }
            chain.push(p);
        }
        for &n in chain.iter().rev() {
            above = match worlds[n] {
                Some(world) => world,
                None => above * locals[n].to_mat4(),
            };
            worlds[n] = Some(above);
        }
    }
    Ok(worlds
        .into_iter()
        .map(|w| w.unwrap_or(Mat4::IDENTITY))
        .collect())
}

/// The nodes of the default scene (`scene`, else scene 0, else every root), depth first.
fn scene_nodes(json: &Value, nodes: &[Value]) -> Result<Vec<usize>, String> {
    let roots: Vec<usize> = match array(json, "scenes").get(uint(&json["scene"]).unwrap_or(0)) {
        Some(scene) => array(scene, "nodes").iter().filter_map(uint).collect(),
        None => {
            let children: Vec<usize> = nodes
                .iter()
                .flat_map(|n| array(n, "children").iter().filter_map(uint))
                .collect();
            (0..nodes.len()).filter(|i| !children.contains(i)).collect()
        }
    };
    let mut out = Vec::new();
    let mut stack: Vec<usize> = roots.into_iter().rev().collect();
    while let Some(n) = stack.pop() {
        if out.len() > nodes.len() {
            return Err("the scene graph has a cycle".into());
        }
        out.push(n);
        let node = nodes.get(n).ok_or(format!("scene node {n} out of range"))?;
        stack.extend(array(node, "children").iter().rev().filter_map(uint));
    }
    Ok(out)
}

/// One channel's value at `time`: clamped outside the keys; `values` holds one row per key,
/// or three (in-tangent, value, out-tangent) for CUBICSPLINE.
fn sample(
    times: &[f32],
    values: &[Vec<f32>],
    mode: &str,
    rotation: bool,
    time: f32,
) -> Result<Vec<f32>, String> {
    let cubic = mode == "CUBICSPLINE";
    let value_of = |k: usize| -> Result<&Vec<f32>, String> {
        values
            .get(if cubic { 3 * k + 1 } else { k })
            .ok_or("sampler output shorter than its input".into())
    };
    let n = times.len();
    if n == 0 {
        return Err("sampler without keys".into());
    }
    if time <= times[0] {
        return value_of(0).cloned();
    }
    if time >= times[n - 1] {
        return value_of(n - 1).cloned();
    }
    let k = times.partition_point(|&t| t <= time) - 1;
    let (t0, t1) = (times[k], times[k + 1]);
    let span = t1 - t0;
    let s = (time - t0) / span;
    let (a, b) = (value_of(k)?, value_of(k + 1)?);
    Ok(match mode {
        "STEP" => a.clone(),
        "CUBICSPLINE" => {
            let out_tangent = values.get(3 * k + 2).ok_or("tangent missing")?;
            let in_tangent = values.get(3 * (k + 1)).ok_or("tangent missing")?;
            let (s2, s3) = (s * s, s * s * s);
            let v: Vec<f32> = (0..a.len())
                .map(|c| {
                    (2.0 * s3 - 3.0 * s2 + 1.0) * a[c]
                        + (s3 - 2.0 * s2 + s) * span * out_tangent[c]
                        + (-2.0 * s3 + 3.0 * s2) * b[c]
                        + (s3 - s2) * span * in_tangent[c]
                })
                .collect();
            if rotation { normalized(v) } else { v }
        }
        _ if rotation => {
            let qa = Quat::from_xyzw(a[0], a[1], a[2], a[3]).normalize();
            let qb = Quat::from_xyzw(b[0], b[1], b[2], b[3]).normalize();
            qa.slerp(qb, s).to_array().to_vec()
        }
        _ => a.iter().zip(b).map(|(x, y)| x + (y - x) * s).collect(),
    })
}

fn normalized(v: Vec<f32>) -> Vec<f32> {
    let length = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if length > 0.0 {
        v.iter().map(|x| x / length).collect()
    } else {
        v
    }
}

/// Length of the diagonal of the box around every corner (the "model size" tolerances are
/// relative to).
pub fn size(triangles: &[Triangle]) -> f32 {
    let mut min = Vec3::splat(f32::INFINITY);
    let mut max = Vec3::splat(f32::NEG_INFINITY);
    for p in triangles.iter().flatten() {
        min = min.min(*p);
        max = max.max(*p);
    }
    if triangles.is_empty() {
        0.0
    } else {
        (max - min).length()
    }
}

/// Checks that `actual` holds the same triangles as `expected`, in any order and starting at
/// any corner but with the same winding, every corner within `tolerance`. Returns the
/// largest corner distance found, or a message naming the first triangle without a match.
pub fn compare(expected: &[Triangle], actual: &[Triangle], tolerance: f32) -> Result<f32, String> {
    if expected.len() != actual.len() {
        return Err(format!(
            "{} triangles, expected {}",
            actual.len(),
            expected.len()
        ));
    }
    let centroid = |t: &Triangle| (t[0] + t[1] + t[2]) / 3.0;
    let mut sorted: Vec<(f32, &Triangle)> = actual.iter().map(|t| (centroid(t).x, t)).collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut worst = 0.0f32;
    for (i, want) in expected.iter().enumerate() {
        let x = centroid(want).x;
        let from = sorted.partition_point(|&(cx, _)| cx < x - tolerance);
        let best = sorted[from..]
            .iter()
            .take_while(|&&(cx, _)| cx <= x + tolerance)
            .flat_map(|&(_, got)| {
                (0..3).map(move |r| {
                    (0..3)
                        .map(|c| got[(c + r) % 3].distance(want[c]))
                        .fold(0.0f32, f32::max)
                })
            })
            .fold(f32::INFINITY, f32::min);
        if best > tolerance {
            return Err(format!(
                "triangle {i} {want:?} has no match within {tolerance} (nearest {best})"
            ));
        }
        worst = worst.max(best);
    }
    Ok(worst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubic_spline_hits_keys_and_uses_scaled_tangents() {
        // One channel, keys at 0 and 2 s, values 0 and 1, out-tangent of key 0 = 1/s.
        let values = vec![
            vec![0.0],
            vec![0.0],
            vec![1.0],
            vec![0.0],
            vec![1.0],
            vec![0.0],
        ];
        let at = |t| sample(&[0.0, 2.0], &values, "CUBICSPLINE", false, t).unwrap()[0];
        assert_eq!(at(0.0), 0.0);
        assert_eq!(at(2.0), 1.0);
        // s = 0.5: 0.5·v0 + 0.125·2·1 + 0.5·v1 + (-0.125)·2·0 = 0.75
        assert!((at(1.0) - 0.75).abs() < 1e-6, "{}", at(1.0));
        let step = sample(&[0.0, 1.0], &[vec![3.0], vec![5.0]], "STEP", false, 0.9).unwrap();
        assert_eq!(step, vec![3.0]);
    }

    #[test]
    fn compare_finds_rotated_corners_and_rejects_flipped_winding() {
        let t = [Vec3::ZERO, Vec3::X, Vec3::Y];
        let rotated = [Vec3::X, Vec3::Y, Vec3::ZERO];
        let flipped = [Vec3::ZERO, Vec3::Y, Vec3::X];
        assert!(compare(&[t], &[rotated], 1e-6).is_ok());
        assert!(compare(&[t], &[flipped], 1e-6).is_err());
        assert!(compare(&[t], &[], 1e-6).is_err());
    }
}
