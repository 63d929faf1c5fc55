//! The neutral model to IQM, with the SDK compiler's semantics.

use super::ConvertOptions;
use super::bounds::{self, BoundsPlan, JointBoxes, Method};
use super::geometry::{self, ArrayVertices, Vertices, Written};
use super::quantize::{Channels, quantize};
use super::sampling::{self, flip};
use crate::error::Error;
use crate::file::{ArrayKind, File, Format, VertexArray};
use crate::records::{Anim, Joint, Mesh, Pose};
use crate::writer;
use rigport_anim::Pose as Posed;
use rigport_anim::skeleton::parent_first_order;
use rigport_model_core::{Animation, JointId, Mesh as ModelMesh, Model, Report, Skeleton, Track};
use std::collections::HashMap;

/// Vertices and animation keys from which the geometry is welded while the animations
/// are sampled on another thread (a thread costs tens of microseconds to start).
const PARALLEL_WORK: usize = 1 << 13;

/// Triangles from which the adjacency is found on a thread of its own.
const PARALLEL_TRIANGLES: usize = 1 << 14;

/// Vertex skinnings (frames × vertices) the exact per-frame bounds may take.
const EXACT_BOUNDS_WORK: u64 = 1 << 25;

/// Converts a model to an IQM file the way the SDK's `iqm` compiler would write it.
///
/// * Each mesh keeps its own vertex and triangle ranges; a mesh without triangles is
///   dropped (with a loss notice: assimp refuses empty meshes). Meshes that share a name and a
///   material are **kept apart** (the SDK merges them, and its merge loses the triangles of
///   every later repeat); engines draw them the same either way.
/// * Identical vertices of a mesh are welded. Arrays: position, texcoord (when a mesh has
///   UVs), normal, tangent (when there are texture coordinates: computed from them, `w` the
///   bitangent's sign), blend indexes and weights (when a vertex is skinned: the four
///   largest weights as ubytes summing to 255; indexes as ushort when a joint above 255 is
///   used) and colour (ubyte, when a mesh has colours).
/// * Triangles are rewound from the model's counter-clockwise fronts to IQM's clockwise
///   ones; adjacency is computed by shared position and blend, as the SDK does.
/// * Joints are written parents first (reordered if needed), rotations normalized with
///   `w ≤ 0`. Every animation is sampled at its frame rate with `rigport_anim`; a looping
///   one of duration `N / fps` gives `N` frames, others one frame per `1 / fps` up to and
///   including their end. Channels are quantized per pose over all frames (offset = min,
///   scale = range / 65535, constant channels left out of the mask); bounds are computed
///   per frame from the skinned vertices.
/// * The text table holds each distinct string once.
pub fn from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    compile(model, Parts::of(model), options, true)
}

/// [`from_model`] for a model the caller gives away: each mesh is freed as soon as it is
/// welded, and the animations as soon as they are sampled, so a large model is not held
/// in full beside the file built from it. The file and report are those of [`from_model`].
pub fn from_model_owned(
    mut model: Model,
    options: &ConvertOptions,
) -> Result<(File, Report), Error> {
    let parts = Parts {
        meshes: Part::Owned(std::mem::take(&mut model.meshes)),
        animations: Part::Owned(std::mem::take(&mut model.animations)),
    };
    compile(&model, parts, options, true)
}

/// Meshes or animations a compile reads: the model's own, or taken out of a model the
/// caller gave away, freed as soon as they are compiled.
enum Part<'a, T> {
    Borrowed(&'a [T]),
    Owned(Vec<T>),
}

impl<T> Part<'_, T> {
    fn as_slice(&self) -> &[T] {
        match self {
            Part::Borrowed(list) => list,
            Part::Owned(list) => list,
        }
    }
}

/// The meshes and animations of the model compiled (the model's own fields may be empty
/// when they were taken out).
struct Parts<'a> {
    meshes: Part<'a, ModelMesh>,
    animations: Part<'a, Animation>,
}

impl<'a> Parts<'a> {
    /// The model's own meshes and animations, borrowed.
    fn of(model: &'a Model) -> Self {
        Self {
            meshes: Part::Borrowed(&model.meshes),
            animations: Part::Borrowed(&model.animations),
        }
    }
}

/// [`from_model`], with its independent jobs on two threads when `threads` allows and the
/// model is large enough to pay for them; the file is the same either way. `model` gives
/// the skeleton, materials and comment, `parts` the meshes and animations.
fn compile(
    model: &Model,
    parts: Parts<'_>,
    options: &ConvertOptions,
    threads: bool,
) -> Result<(File, Report), Error> {
    let Parts { meshes, animations } = parts;
    check_references(model, meshes.as_slice(), animations.as_slice())?;
    let mut report = Report::default();
    let order =
        parent_first_order(&model.skeleton).map_err(|e| Error::InvalidModel(e.to_string()))?;
    let mut new_index = vec![0u32; order.len()];
    for (new, old) in order.iter().enumerate() {
        new_index[old.index()] = new as u32;
    }
    if order.iter().enumerate().any(|(i, j)| j.index() != i) {
        report.info(
            rigport_model_core::codes::JOINTS_REORDERED,
            "joints were reordered so that every parent comes before its children, as IQM readers expect",
        );
    }
    let skeleton = Skeleton {
        joints: order
            .iter()
            .map(|&old| {
                let mut joint = model.skeleton.joints[old.index()].clone();
                joint.parent = joint.parent.map(|p| JointId(new_index[p.index()]));
                joint
            })
            .collect(),
    };
    let mut text = Text::default();
    let mut file = File::default();
    // The geometry is welded here while the animations are sampled on another thread:
    // neither needs the other.
    let keys: usize = animations
        .as_slice()
        .iter()
        .flat_map(|a| &a.tracks)
        .map(Track::key_count)
        .sum();
    let vertex_count: usize = meshes.as_slice().iter().map(|m| m.vertices.len()).sum();
    let (vertices, sampled) = both(
        threads && vertex_count.min(keys) >= PARALLEL_WORK,
        || add_geometry(model, meshes, &new_index, &mut text, &mut file, &mut report),
        || {
            let sampled = sampling::sample(animations.as_slice(), &skeleton, &new_index, options)?;
            let quantized = quantized(&sampled.values, &skeleton);
            Ok::<_, Error>((sampled, quantized))
        },
    );
    let vertex_count = vertices?;
    for joint in &skeleton.joints {
        let r = flip(joint.rotation);
        file.joints.push(Joint {
            name: text.add(&joint.name),
            parent: joint.parent.map_or(-1, |p| p.0 as i32),
            translate: joint.translation.to_array(),
            rotate: r.to_array(),
            scale: joint.scale.to_array(),
        });
    }
    let (sampled, (poses, frames)) = sampled?;
    let sampling::Sampled {
        values,
        anims,
        report: sampled_report,
    } = sampled;
    for anim in &anims {
        file.anims.push(Anim {
            name: text.add(anim.name),
            first_frame: anim.first_frame,
            num_frames: anim.num_frames,
            framerate: anim.framerate,
            flags: anim.flags,
        });
    }
    // The animations are no longer needed: a model given away frees them here.
    drop(anims);
    drop(animations);
    report.extend(sampled_report);
    if !values.is_empty() {
        file.header.num_frames = (values.len() / skeleton.joints.len()) as u32;
        file.header.num_framechannels = poses.iter().map(|p| p.channelmask.count_ones()).sum();
        file.poses = poses;
        file.frames = frames;
    }
    // The adjacency and the tangents need only the geometry: on a large model the
    // adjacency is found on another thread while the tangents are computed and the frames
    // bounded. They read the vertices back from the arrays (the welded list is gone).
    let triangles = std::mem::take(&mut file.triangles);
    let arrays = std::mem::take(&mut file.vertex_arrays);
    let vertices = ArrayVertices::new(&arrays);
    let has_uvs = arrays.iter().any(|a| a.kind() == ArrayKind::TexCoord);
    let parallel = threads && triangles.len() >= PARALLEL_TRIANGLES;
    let ((bounded, tangents), adjacency) = both(
        parallel,
        || {
            // The bounds first: the adjacency goes to the other thread, and the tangents
            // to whichever thread is free first.
            both(
                parallel,
                || {
                    let bounded = add_bounds(&values, &skeleton, &vertices, &mut file, &mut report);
                    // Only the bounds read the sampled values: freed once they are done,
                    // while the tangents and the adjacency may still be being made.
                    drop(values);
                    bounded
                },
                || has_uvs.then(|| geometry::tangent_bytes(&vertices, &triangles)),
            )
        },
        || (!triangles.is_empty()).then(|| geometry::adjacency(&vertices, &triangles)),
    );
    bounded?;
    file.adjacency = adjacency;
    file.triangles = triangles;
    file.vertex_arrays = arrays;
    if let Some(data) = tangents {
        // After the normals, as the SDK orders the arrays.
        let at = file
            .vertex_arrays
            .iter()
            .position(|a| a.kind() == ArrayKind::Normal)
            .map_or(file.vertex_arrays.len(), |n| n + 1);
        file.vertex_arrays.insert(
            at,
            VertexArray {
                kind: ArrayKind::Tangent.to_u32(),
                flags: 0,
                format: Format::Float.to_u32(),
                size: 4,
                offset: 0,
                data,
            },
        );
    }
    if let Some(comment) = &model.comment {
        file.comment = comment.as_bytes().to_vec();
        file.comment.push(0);
    }
    file.text = text.bytes;
    file.header.num_vertexes = vertex_count as u32;
    writer::pack(&mut file).map_err(crate::unwritable)?;
    Ok((file, report))
}

fn check_references(
    model: &Model,
    meshes: &[ModelMesh],
    animations: &[Animation],
) -> Result<(), Error> {
    let joints = model.skeleton.joints.len();
    for (i, joint) in model.skeleton.joints.iter().enumerate() {
        if joint.parent.is_some_and(|p| p.index() >= joints) {
            return Err(Error::InvalidModel(format!(
                "joint {i} `{}` has parent {} but there are {joints} joints",
                joint.name,
                joint.parent.map_or(0, |p| p.0)
            )));
        }
    }
    for mesh in meshes {
        if mesh
            .material
            .is_some_and(|m| m.index() >= model.materials.len())
        {
            return Err(Error::InvalidModel(format!(
                "mesh `{}` uses a material that does not exist",
                mesh.name
            )));
        }
        let n = mesh.vertices.len();
        if mesh.triangles.iter().flatten().any(|&i| i as usize >= n) {
            return Err(Error::InvalidModel(format!(
                "mesh `{}` has a triangle index past its {n} vertices",
                mesh.name
            )));
        }
    }
    for animation in animations {
        if animation.tracks.iter().any(|t| t.joint.index() >= joints) {
            return Err(Error::InvalidModel(format!(
                "animation `{}` animates a joint that does not exist",
                animation.name
            )));
        }
    }
    let vertices: usize = meshes.iter().map(|m| m.vertices.len()).sum();
    if u32::try_from(vertices).is_err() {
        return Err(crate::unwritable(format!(
            "{vertices} vertices exceed the 32-bit count"
        )));
    }
    Ok(())
}

/// The text table: each distinct string once, the empty string at offset 0.
struct Text {
    bytes: Vec<u8>,
    offsets: HashMap<String, u32>,
}

impl Default for Text {
    fn default() -> Self {
        Self {
            bytes: vec![0],
            offsets: HashMap::new(),
        }
    }
}

impl Text {
    fn add(&mut self, s: &str) -> u32 {
        if s.is_empty() {
            return 0;
        }
        if let Some(&at) = self.offsets.get(s) {
            return at;
        }
        let at = self.bytes.len() as u32;
        // A NUL would end the name early: written as a space.
        self.bytes
            .extend(s.bytes().map(|b| if b == 0 { b' ' } else { b }));
        self.bytes.push(0);
        self.offsets.insert(s.to_owned(), at);
        at
    }
}

/// A vertex's joint ids and the bits of its weights.
type Skin = ([u32; 4], [u32; 4]);

/// Blend indexes and weight bytes as the file stores them.
type Encoded = ([u32; 4], [u8; 4]);

/// The SDK's weight encoding: the four largest weights, normalized, as bytes summing to 255.
fn encode_weights(vertex: &rigport_model_core::Vertex, remap: &[u32]) -> Encoded {
    // The four largest weights on joints that exist, largest first (ties keep their
    // order), without allocating: this runs once per vertex.
    let mut pairs = [(0u32, 0f32); 4];
    let mut len = 0;
    for (j, w) in vertex.influences() {
        if j.index() >= remap.len() {
            continue;
        }
        let mut at = len;
        while at > 0 && pairs[at - 1].1.total_cmp(&w).is_lt() {
            at -= 1;
        }
        if at == 4 {
            continue;
        }
        len = (len + 1).min(4);
        pairs.copy_within(at..len - 1, at + 1);
        pairs[at] = (remap[j.index()], w);
    }
    let pairs = &pairs[..len];
    let total: f32 = pairs.iter().map(|p| p.1).sum();
    let mut joints = [0u32; 4];
    let mut bytes = [0u8; 4];
    if pairs.is_empty() || total <= 0.0 {
        return (joints, bytes);
    }
    let mut sum: i32 = 0;
    for (k, (j, w)) in pairs.iter().enumerate() {
        joints[k] = *j;
        bytes[k] = (0.5 + f64::from(w / total) * 255.0) as u8;
        sum += i32::from(bytes[k]);
    }
    // As the SDK: take from (or give to) the slots in turn until the sum is 255.
    while sum > 255 {
        for b in bytes.iter_mut() {
            if *b > 0 && sum > 255 {
                *b -= 1;
                sum -= 1;
            }
        }
    }
    while sum < 255 {
        for b in bytes.iter_mut() {
            if *b < 255 && sum < 255 {
                *b += 1;
                sum += 1;
            }
        }
    }
    (joints, bytes)
}

fn add_geometry(
    model: &Model,
    meshes: Part<'_, ModelMesh>,
    remap: &[u32],
    text: &mut Text,
    file: &mut File,
    report: &mut Report,
) -> Result<usize, Error> {
    let list = meshes.as_slice();
    let has_uvs = list.iter().any(|m| m.has_uvs && !m.vertices.is_empty());
    let has_colors = list.iter().any(|m| m.has_colors && !m.vertices.is_empty());
    let mut all: Vec<Written> = Vec::with_capacity(list.iter().map(|m| m.vertices.len()).sum());
    file.triangles
        .reserve(list.iter().map(|m| m.triangles.len()).sum());
    let mut welded = 0usize;
    let mut truncated = 0usize;
    let mut empty = Vec::new();
    let mut add_mesh = |mesh: &ModelMesh| {
        if mesh.triangles.is_empty() {
            empty.push(format!("`{}`", mesh.name));
            return;
        }
        let first_vertex = all.len() as u32;
        // The last skin encoded and its encoding: neighbouring vertices usually share it.
        let mut last_skin: Option<(Skin, Encoded)> = None;
        // Each vertex is welded as it is made: straight into `all`, with no array of the
        // mesh's vertices before welding.
        let local = geometry::weld_into(
            mesh.vertices.iter().map(|v| {
                if v.influences().count() > 4 {
                    truncated += 1;
                }
                let (joints, weights) = if remap.is_empty() {
                    ([0; 4], [0; 4])
                } else {
                    let skin = (v.joints.map(|j| j.0), v.weights.map(f32::to_bits));
                    match last_skin {
                        Some((last, encoded)) if last == skin => encoded,
                        _ => {
                            let encoded = encode_weights(v, remap);
                            last_skin = Some((skin, encoded));
                            encoded
                        }
                    }
                };
                Written {
                    position: v.position,
                    uv: if mesh.has_uvs {
                        v.uv
                    } else {
                        Default::default()
                    },
                    normal: v.normal,
                    color: if mesh.has_colors {
                        v.color
                            .to_array()
                            .map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8)
                    } else {
                        [255; 4]
                    },
                    joints,
                    weights,
                }
            }),
            &mut all,
        );
        welded += local.len() - (all.len() - first_vertex as usize);
        let first_triangle = file.triangles.len() as u32;
        for t in &mesh.triangles {
            let [a, b, c] = t.map(|i| first_vertex + local[i as usize]);
            file.triangles.push([a, c, b]);
        }
        let material = mesh
            .material
            .and_then(|m| model.materials.get(m.index()))
            .map_or(0, |m| text.add(&m.name));
        file.meshes.push(Mesh {
            name: text.add(&mesh.name),
            material,
            first_vertex,
            num_vertexes: all.len() as u32 - first_vertex,
            first_triangle,
            num_triangles: file.triangles.len() as u32 - first_triangle,
        });
    };
    match meshes {
        Part::Borrowed(list) => list.iter().for_each(&mut add_mesh),
        // A model given away: each mesh is freed as soon as it is welded.
        Part::Owned(list) => list.into_iter().for_each(|mesh| add_mesh(&mesh)),
    }
    if !empty.is_empty() {
        report.loss(
            rigport_model_core::codes::EMPTY_MESHES,
            format!(
                "{} meshes without triangles dropped (IQM readers such as assimp refuse empty meshes): {}",
                empty.len(),
                empty.join(", ")
            ),
        );
    }
    if welded > 0 {
        report.info(
            rigport_model_core::codes::VERTICES_WELDED,
            format!("{welded} identical vertices welded"),
        );
    }
    if truncated > 0 {
        report.loss(
            rigport_model_core::codes::WEIGHTS_TRUNCATED,
            format!("{truncated} vertices had more than 4 weights; kept the 4 largest"),
        );
    }
    let array = |kind: ArrayKind, format: Format, size: u32, data: Vec<u8>| VertexArray {
        kind: kind.to_u32(),
        flags: 0,
        format: format.to_u32(),
        size,
        offset: 0,
        data,
    };
    let floats = |values: &mut dyn Iterator<Item = f32>| -> Vec<u8> {
        let mut bytes = Vec::with_capacity(values.size_hint().0 * 4);
        values.for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
        bytes
    };
    file.vertex_arrays.push(array(
        ArrayKind::Position,
        Format::Float,
        3,
        floats(&mut all.iter().flat_map(|v| v.position.to_array())),
    ));
    if has_uvs {
        file.vertex_arrays.push(array(
            ArrayKind::TexCoord,
            Format::Float,
            2,
            floats(&mut all.iter().flat_map(|v| v.uv.to_array())),
        ));
    }
    file.vertex_arrays.push(array(
        ArrayKind::Normal,
        Format::Float,
        3,
        floats(&mut all.iter().flat_map(|v| v.normal.to_array())),
    ));
    // The tangents are computed later, beside the bounds (see `compile`).
    if all.iter().any(|v| v.weights != [0; 4]) {
        let widest = all.iter().flat_map(|v| v.joints).max().unwrap_or(0);
        let (format, data): (Format, Vec<u8>) = if widest <= 255 {
            (
                Format::UByte,
                all.iter().flat_map(|v| v.joints.map(|j| j as u8)).collect(),
            )
        } else {
            report.warn(
                rigport_model_core::codes::BLEND_INDEXES_USHORT,
                format!(
                    "joint {widest} is above 255: blend indexes written as ushort, which raylib and other ubyte-only readers cannot load"
                ),
            );
            (
                Format::UShort,
                all.iter()
                    .flat_map(|v| v.joints.map(|j| j as u16))
                    .flat_map(u16::to_le_bytes)
                    .collect(),
            )
        };
        file.vertex_arrays
            .push(array(ArrayKind::BlendIndexes, format, 4, data));
        file.vertex_arrays.push(array(
            ArrayKind::BlendWeights,
            Format::UByte,
            4,
            all.iter().flat_map(|v| v.weights).collect(),
        ));
    }
    if has_colors {
        file.vertex_arrays.push(array(
            ArrayKind::Color,
            Format::UByte,
            4,
            all.iter().flat_map(|v| v.color).collect(),
        ));
    }
    if all.is_empty() {
        file.vertex_arrays.clear();
    }
    // The arrays hold every vertex now: the welded list is freed, and what follows reads
    // the arrays ([`ArrayVertices`]).
    Ok(all.len())
}

/// The poses of `skeleton` with their channels quantized over the sampled `values`, and
/// the quantized frames (nothing when nothing is animated).
fn quantized(values: &[Channels], skeleton: &Skeleton) -> (Vec<Pose>, Vec<u16>) {
    if values.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let mut poses: Vec<Pose> = skeleton
        .joints
        .iter()
        .map(|j| Pose {
            parent: j.parent.map_or(-1, |p| p.0 as i32),
            ..Pose::default()
        })
        .collect();
    let frames = quantize(values, &mut poses);
    (poses, frames)
}

/// The bounds of every sampled frame, from the skinned vertices.
fn add_bounds(
    values: &[Channels],
    skeleton: &Skeleton,
    vertices: &impl Vertices,
    file: &mut File,
    report: &mut Report,
) -> Result<(), Error> {
    if values.is_empty() || vertices.count() == 0 {
        return Ok(());
    }
    let joints = skeleton.joints.len();
    let frames = values.len() / joints;
    let posed = Posed::new(skeleton).map_err(|e| Error::InvalidModel(e.to_string()))?;
    // Exact bounds skin every vertex in every frame, as the SDK does; past this much work
    // (a long animation of a big mesh, or a damaged key time) they are computed from
    // per-joint boxes instead, which still contain every vertex.
    let work = (frames as u64).saturating_mul(vertices.count() as u64);
    let method = if work <= EXACT_BOUNDS_WORK {
        Method::Exact(BoundsPlan::new(vertices))
    } else {
        report.info(
            rigport_model_core::codes::BOUNDS_CONSERVATIVE,
            format!(
                "{frames} frames × {} vertices: per-frame bounds computed from per-joint boxes (they contain the posed model but may be larger than the SDK's)",
                vertices.count()
            ),
        );
        Method::Conservative(JointBoxes::new(vertices, joints))
    };
    file.bounds = Some(bounds::every_frame(values, joints, &posed, &method, work));
    Ok(())
}

/// `(a(), b())`, the two on rayon's thread pool when `parallel` (and the `parallel`
/// feature) allow: for two independent jobs that each take long in a large model.
fn both<A: Send, B: Send>(
    parallel: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(feature = "parallel")]
    if parallel {
        return rayon::join(a, b);
    }
    let _ = parallel;
    let a = a();
    (a, b())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rigport_test_support::synth;

    #[test]
    fn threads_change_nothing() {
        // 8 meshes of 71 × 21 vertices (11 928) and 22 400 triangles, 64 joints, 192
        // frames: above both thresholds, so `from_model` takes the two-thread path.
        let model = synth::model(&synth::text_rig(3), 2);
        assert!(model.vertex_count() >= PARALLEL_WORK);
        assert!(model.triangle_count() >= PARALLEL_TRIANGLES);
        let options = ConvertOptions::default();
        let (threaded, threaded_report) =
            compile(&model, Parts::of(&model), &options, true).unwrap();
        let (alone, alone_report) = compile(&model, Parts::of(&model), &options, false).unwrap();
        assert_eq!(threaded.anims.len(), 2);
        assert!(threaded.bounds.is_some() && threaded.adjacency.is_some());
        assert_eq!(threaded.to_vec(), alone.to_vec());
        assert_eq!(threaded_report, alone_report);
    }

    #[test]
    fn a_model_given_away_gives_the_same_file() {
        // Large enough for both threads, plus a mesh without triangles (dropped with a
        // notice) between the others.
        let mut model = synth::model(&synth::text_rig(3), 2);
        model
            .meshes
            .insert(1, rigport_model_core::Mesh::new("no triangles"));
        let options = ConvertOptions::default();
        // Through the codec too, as the facade writes.
        use rigport_model_core::codec::{Output, WriteOptions};
        let write = WriteOptions::default();
        let by_codec = crate::CODEC
            .write_to(
                std::borrow::Cow::Owned(model.clone()),
                &Output::new("a.iqm", &write),
            )
            .unwrap();
        assert_eq!(
            by_codec.files[0].bytes,
            crate::CODEC.write(&model, "a.iqm", &write).unwrap().files[0].bytes
        );
        let (borrowed, borrowed_report) = from_model(&model, &options).unwrap();
        let (owned, owned_report) = from_model_owned(model, &options).unwrap();
        assert!(borrowed.bounds.is_some() && borrowed.adjacency.is_some());
        assert!(
            borrowed_report
                .notices
                .iter()
                .any(|n| n.code == "empty-meshes")
        );
        assert_eq!(owned.to_vec(), borrowed.to_vec());
        assert_eq!(owned_report, borrowed_report);
        // A file given away to be written frees its blocks as they are copied (on two
        // threads: it is over a megabyte), and writes the same bytes.
        let bytes = borrowed.to_vec();
        assert!(bytes.len() >= 1 << 20);
        assert!(owned.into_vec() == bytes);
    }
}
