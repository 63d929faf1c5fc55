//! PSK and PSA to the neutral model.

use super::{ConvertOptions, codes as psk_codes, srgb_to_linear};
use crate::error::{Detail, Error};
use crate::file::{Body, File, Kind, name_of};
use glam::{Quat, Vec2, Vec3, Vec4};
use rigport_anim::weights::keep_largest_four;
use rigport_model_core::{
    Animation, Joint, JointId, Key, Material, MaterialId, Mesh, Model, MorphTarget, Report,
    Skeleton, Track, UpAxis, Vertex, codes,
};
use std::collections::HashMap;

/// A stored orientation as the rotation it stands for: the root's as stored, every other
/// bone's conjugated (the convention of the crate docs), normalised. A zero or non-finite
/// quaternion is the identity. Counts the quaternions that were not unit length.
pub(crate) fn rotation_of(stored: [f32; 4], root: bool, adjusted: &mut usize) -> Quat {
    let q = Quat::from_xyzw(stored[0], stored[1], stored[2], stored[3]);
    let q = if root { q } else { q.conjugate() };
    let length = q.length();
    if !(length.is_finite() && length > 1e-12) {
        *adjusted += 1;
        return Quat::IDENTITY;
    }
    if (length - 1.0).abs() > 1e-3 {
        *adjusted += 1;
    }
    // Unit to rounding: kept as stored, so a file written from the model stores the same bits.
    if (length - 1.0).abs() <= 1e-6 {
        q
    } else {
        q / length
    }
}

fn report_adjusted(adjusted: usize, what: &str, report: &mut Report) {
    if adjusted > 0 {
        report.info(
            codes::ROTATION_NORMALIZED,
            format!("{adjusted} {what} quaternions were not of unit length and were normalised (zero ones became the identity)"),
        );
    }
}

/// The skeleton of `REFSKELT` or `BONENAMES`: bone 0 is the root whatever its parent says;
/// another bone whose parent is not a bone (or itself) becomes a root too.
fn skeleton_of(file: &File, report: &mut Report) -> Skeleton {
    let bones = file.bones();
    let mut adjusted = 0;
    let mut extra_roots = 0;
    let mut skeleton = Skeleton {
        joints: bones
            .iter()
            .enumerate()
            .map(|(i, bone)| {
                let parent = if i == 0 {
                    None
                } else if bone.parent >= 0
                    && (bone.parent as usize) < bones.len()
                    && bone.parent as usize != i
                {
                    Some(JointId(bone.parent as u32))
                } else {
                    extra_roots += 1;
                    None
                };
                Joint {
                    name: name_of(&bone.name),
                    parent,
                    translation: Vec3::from_array(bone.position),
                    rotation: rotation_of(bone.orientation, i == 0, &mut adjusted),
                    scale: Vec3::ONE,
                }
            })
            .collect(),
    };
    if extra_roots > 0 && file.kind == Kind::Mesh {
        report.warn(
            codes::MISSING_PARENT,
            format!("{extra_roots} bones besides bone 0 have no parent; they are roots"),
        );
    }
    report_adjusted(adjusted, "bone", report);
    rigport_anim::skeleton::break_cycles(&mut skeleton, report);
    skeleton
}

/// Converts a file of either kind: a `.psk` to meshes, materials and the skeleton; a
/// `.psa` to its skeleton (bone names, the hierarchy and reference pose as stored) and one
/// animation per sequence.
pub fn to_model(file: &File, options: &ConvertOptions) -> Result<(Model, Report), Error> {
    match file.kind {
        Kind::Mesh => to_model_with_animations(file, &[], options),
        Kind::Anim => {
            let mut report = Report::default();
            let skeleton = skeleton_of(file, &mut report);
            let map: Vec<Option<JointId>> = (0..skeleton.len())
                .map(|i| Some(JointId(i as u32)))
                .collect();
            let animations = animations_of(file, &map, options, &mut report)?;
            let model = Model {
                skeleton,
                animations,
                up: UpAxis::Z,
                ..Model::default()
            };
            Ok((model, report))
        }
    }
}

/// Which PSA bones are which skeleton joints, by name: trailing spaces ignored, an exact
/// match first, else one that differs only in ASCII case. `None` for a PSA bone the
/// skeleton lacks.
pub fn bind_by_name(skeleton: &Skeleton, psa: &File) -> Vec<Option<JointId>> {
    let mut exact: HashMap<&str, JointId> = HashMap::new();
    let mut folded: HashMap<String, JointId> = HashMap::new();
    for (i, joint) in skeleton.joints.iter().enumerate().rev() {
        exact.insert(joint.name.as_str(), JointId(i as u32));
        folded.insert(joint.name.to_ascii_lowercase(), JointId(i as u32));
    }
    psa.bones()
        .iter()
        .map(|bone| {
            let name = name_of(&bone.name);
            exact
                .get(name.as_str())
                .or_else(|| folded.get(&name.to_ascii_lowercase()))
                .copied()
        })
        .collect()
}

/// Converts a `.psk` with the sequences of `.psa` files bound to its skeleton by bone name
/// ([`bind_by_name`]): one animation per sequence; skeleton bones a PSA does not name keep
/// their bind pose, PSA bones the skeleton lacks are reported and dropped.
pub fn to_model_with_animations(
    mesh: &File,
    psas: &[&File],
    options: &ConvertOptions,
) -> Result<(Model, Report), Error> {
    let mut report = Report::default();
    if mesh.kind != Kind::Mesh {
        return Err(Error::detail(Detail::Missing("ACTRHEAD")));
    }
    let skeleton = skeleton_of(mesh, &mut report);
    let (meshes, materials) = meshes_of(mesh, skeleton.len(), &mut report);
    let mut animations = Vec::new();
    for psa in psas {
        let map = bind_by_name(&skeleton, psa);
        let unmatched: Vec<String> = psa
            .bones()
            .iter()
            .zip(&map)
            .filter(|(_, j)| j.is_none())
            .map(|(b, _)| name_of(&b.name))
            .collect();
        if !unmatched.is_empty() {
            report.warn(
                psk_codes::PSA_BONES_UNMATCHED,
                format!(
                    "{} of the PSA's {} bones are not in the skeleton; their keys were dropped: {}",
                    unmatched.len(),
                    map.len(),
                    unmatched.join(", ")
                ),
            );
        }
        let covered = map.iter().flatten().count();
        if covered < skeleton.len() {
            report.info(
                psk_codes::PSA_BONES_UNMATCHED,
                format!(
                    "the PSA animates {covered} of the skeleton's {} bones; the others keep their bind pose",
                    skeleton.len()
                ),
            );
        }
        animations.extend(animations_of(psa, &map, options, &mut report)?);
    }
    let model = Model {
        meshes,
        materials,
        skeleton,
        animations,
        comment: None,
        up: UpAxis::Z,
    };
    Ok((model, report))
}

/// Where each sequence's frames start among all the frames of `ANIMKEYS`: as stored, or
/// recomputed as running sums when the first sequence's `FirstRawFrame` equals its
/// `NumRawFrames` (the CUE4Parse bug).
fn sequence_starts(psa: &File, report: &mut Report) -> Result<Vec<u64>, Error> {
    let sequences = psa.sequences();
    let bones = psa.bones().len() as u64;
    let total = (psa.keys().len() as u64).checked_div(bones).unwrap_or(0);
    let buggy = sequences
        .first()
        .is_some_and(|s| s.num_raw_frames > 0 && s.first_raw_frame == s.num_raw_frames);
    let mut starts = Vec::with_capacity(sequences.len());
    if buggy {
        let mut at = 0u64;
        for s in sequences {
            starts.push(at);
            at += u64::try_from(s.num_raw_frames).unwrap_or(0);
        }
        report.warn(
            psk_codes::FIRST_RAW_FRAME,
            format!(
                "the first sequence's FirstRawFrame is its frame count ({}), as CUE4Parse wrote it; the sequences' starts were recomputed as running sums",
                sequences[0].num_raw_frames
            ),
        );
    } else {
        starts.extend(
            sequences
                .iter()
                .map(|s| u64::try_from(s.first_raw_frame).unwrap_or(u64::MAX)),
        );
    }
    let (info_at, info_size) = psa.body_offset(|b| matches!(b, Body::AnimInfo(_)));
    for (i, (s, &start)) in sequences.iter().zip(&starts).enumerate() {
        let frames = u64::try_from(s.num_raw_frames).unwrap_or(u64::MAX);
        if bones > 0 && start.saturating_add(frames) > total {
            let offset = info_at + i as u64 * info_size + 160;
            return Err(Error::at(
                offset,
                Detail::Inconsistent {
                    offset,
                    message: format!(
                        "sequence {i} `{}` covers frames {}..+{} but ANIMKEYS holds {total} frames of {bones} bones",
                        name_of(&s.name),
                        s.first_raw_frame,
                        s.num_raw_frames
                    ),
                },
            ));
        }
    }
    Ok(starts)
}

/// One animation per sequence of `psa`; `map` gives the joint of each PSA bone.
fn animations_of(
    psa: &File,
    map: &[Option<JointId>],
    options: &ConvertOptions,
    report: &mut Report,
) -> Result<Vec<Animation>, Error> {
    let starts = sequence_starts(psa, report)?;
    let bones = psa.bones().len();
    let keys = psa.keys();
    let scales = psa.scale_keys();
    let use_scales = !scales.is_empty() && scales.len() == keys.len();
    if !scales.is_empty() && !use_scales {
        report.warn(
            codes::SCALE_KEYS,
            format!(
                "SCALEKEYS holds {} keys for {} ANIMKEYS keys; the scales were not used",
                scales.len(),
                keys.len()
            ),
        );
    }
    let mut adjusted = 0;
    let mut bad_rates = 0;
    let mut animations = Vec::with_capacity(starts.len());
    for (sequence, &start) in psa.sequences().iter().zip(&starts) {
        let frames = usize::try_from(sequence.num_raw_frames).unwrap_or(0);
        let rate = sequence.anim_rate;
        let fps = if rate.is_finite() && rate > 0.0 {
            rate
        } else {
            bad_rates += 1;
            options.fallback_fps()
        };
        let mut animation = Animation::new(name_of(&sequence.name), fps);
        animation.duration = frames.saturating_sub(1) as f32 / fps;
        for (bone, joint) in map.iter().enumerate().take(bones) {
            let Some(joint) = *joint else { continue };
            let root = joint.index() == 0;
            let mut track = Track::new(joint);
            track.translations.reserve(frames);
            track.rotations.reserve(frames);
            for frame in 0..frames {
                let index = (start as usize + frame) * bones + bone;
                let key = &keys[index];
                let time = frame as f32 / fps;
                track
                    .translations
                    .push(Key::new(time, Vec3::from_array(key.position)));
                track.rotations.push(Key::new(
                    time,
                    rotation_of(key.orientation, root, &mut adjusted),
                ));
                if use_scales {
                    track
                        .scales
                        .push(Key::new(time, Vec3::from_array(scales[index].scale)));
                }
            }
            animation.tracks.push(track);
        }
        animations.push(animation);
    }
    if bad_rates > 0 {
        report.warn(
            codes::INVALID_FPS,
            format!(
                "{bad_rates} sequences have no positive AnimRate; {} frames per second were used",
                options.fallback_fps()
            ),
        );
    }
    report_adjusted(adjusted, "key", report);
    Ok(animations)
}

/// Per point: up to four influences summing to 1; an unweighted point is bound to the
/// root.
fn point_skins(file: &File, joints: usize, report: &mut Report) -> Vec<([JointId; 4], [f32; 4])> {
    let points = file.points().len();
    let mut lists: Vec<Vec<(JointId, f32)>> = vec![Vec::new(); points];
    let mut dropped = 0usize;
    for w in file.weights() {
        // Indices were checked when the file was read.
        if !(w.weight.is_finite() && w.weight > 0.0) {
            dropped += 1;
            continue;
        }
        let list = &mut lists[w.point as usize];
        let joint = JointId(w.bone as u32);
        match list.iter_mut().find(|(j, _)| *j == joint) {
            Some((_, weight)) => *weight += w.weight,
            None => list.push((joint, w.weight)),
        }
    }
    let (mut truncated, mut renormalized, mut unweighted) = (0usize, 0usize, 0usize);
    let skins = lists
        .into_iter()
        .map(|mut list| {
            if list.is_empty() {
                unweighted += 1;
                return if joints > 0 {
                    ([JointId(0); 4], [1.0, 0.0, 0.0, 0.0])
                } else {
                    ([JointId(0); 4], [0.0; 4])
                };
            }
            if keep_largest_four(&mut list) {
                truncated += 1;
            }
            let sum: f32 = list.iter().map(|(_, w)| w).sum();
            if (sum - 1.0).abs() > 1e-3 {
                renormalized += 1;
            }
            let mut ids = [JointId(0); 4];
            let mut weights = [0.0; 4];
            for (k, (joint, weight)) in list.into_iter().enumerate() {
                ids[k] = joint;
                weights[k] = weight / sum;
            }
            (ids, weights)
        })
        .collect();
    if dropped > 0 {
        report.info(
            codes::WEIGHTS_DROPPED,
            format!("{dropped} zero, negative or non-finite weights were dropped"),
        );
    }
    if truncated > 0 {
        report.loss(
            codes::WEIGHTS_TRUNCATED,
            format!("{truncated} points had more than 4 influences; kept the 4 largest"),
        );
    }
    if renormalized > 0 {
        report.info(
            codes::WEIGHTS_RENORMALIZED,
            format!("{renormalized} points' weights did not sum to 1 and were normalised"),
        );
    }
    if unweighted > 0 && joints > 0 && !file.weights().is_empty() {
        report.info(
            psk_codes::UNWEIGHTED_POINTS,
            format!("{unweighted} points have no weight; they were bound to the root bone"),
        );
    }
    skins
}

/// Meshes (one per material the faces use, in material order) and materials.
fn meshes_of(file: &File, joints: usize, report: &mut Report) -> (Vec<Mesh>, Vec<Material>) {
    let points: Vec<Vec3> = file.points().iter().map(|p| Vec3::from_array(*p)).collect();
    let wedges = file.wedges();
    let faces = file.faces();
    let normals =
        (file.normals().len() == points.len() && !points.is_empty()).then(|| file.normals());
    let colors = (file.colors().len() == wedges.len() && !wedges.is_empty()).then(|| file.colors());
    let skins = point_skins(file, joints, report);
    let materials: Vec<Material> = file
        .materials()
        .iter()
        .map(|m| Material::named(name_of(&m.name)))
        .collect();
    let unusual = file
        .materials()
        .iter()
        .filter(|m| {
            m.poly_flags != 0
                || m.aux_flags != 0
                || m.aux_material != 0
                || m.lod_bias != 0
                || m.lod_style != 0
        })
        .count();
    if unusual > 0 {
        report.loss(
            codes::MATERIAL_PROPERTIES,
            format!("{unusual} materials carry poly flags, aux material or LOD settings the model does not hold"),
        );
    }
    // Face normals of the front (the stored order reversed), area-weighted.
    let point_of = |w: u32| file.point_of(&wedges[w as usize]) as usize;
    let face_normal = |f: &crate::file::Face| {
        let [a, b, c] = f.wedges.map(point_of);
        (points[c] - points[a]).cross(points[b] - points[a])
    };
    // Faces around each point, for smoothing-group normals.
    let (around_start, around) = if normals.is_none() {
        let mut count = vec![0u32; points.len() + 1];
        for f in faces {
            for w in f.wedges {
                count[point_of(w) + 1] += 1;
            }
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let mut fill = count.clone();
        let mut around = vec![0u32; faces.len() * 3];
        for (i, f) in faces.iter().enumerate() {
            for w in f.wedges {
                let p = point_of(w);
                around[fill[p] as usize] = i as u32;
                fill[p] += 1;
            }
        }
        (count, around)
    } else {
        (Vec::new(), Vec::new())
    };
    let face_normals: Vec<Vec3> = if normals.is_none() {
        faces.iter().map(face_normal).collect()
    } else {
        Vec::new()
    };
    let mut order: Vec<u8> = faces.iter().map(|f| f.material).collect();
    order.sort_unstable();
    order.dedup();
    let mut missing_material = 0usize;
    let mut meshes = Vec::with_capacity(order.len());
    // The point of each vertex of each mesh, for the morph targets.
    let mut points_of: Vec<Vec<u32>> = Vec::with_capacity(order.len());
    for &material in &order {
        let known = (material as usize) < materials.len();
        if !known {
            missing_material += 1;
        }
        let mut mesh = Mesh::new(if known {
            materials[material as usize].name.clone()
        } else {
            format!("material{material}")
        });
        mesh.material = known.then_some(MaterialId(u32::from(material)));
        mesh.has_uvs = true;
        mesh.has_colors = colors.is_some();
        let mut index: HashMap<(u32, u64), u32> = HashMap::new();
        let mut vertex_points: Vec<u32> = Vec::new();
        for (face_index, face) in faces
            .iter()
            .enumerate()
            .filter(|(_, f)| f.material == material)
        {
            let class = if normals.is_some() {
                0
            } else if face.smoothing == 0 {
                (1u64 << 32) | face_index as u64
            } else {
                u64::from(face.smoothing)
            };
            let corner = |w: u32,
                          mesh: &mut Mesh,
                          index: &mut HashMap<(u32, u64), u32>,
                          vertex_points: &mut Vec<u32>| {
                *index.entry((w, class)).or_insert_with(|| {
                    let wedge = &wedges[w as usize];
                    let p = file.point_of(wedge) as usize;
                    vertex_points.push(p as u32);
                    let normal = match normals {
                        Some(n) => Vec3::from_array(n[p]),
                        None if face.smoothing == 0 => face_normals[face_index],
                        None => around[around_start[p] as usize..around_start[p + 1] as usize]
                            .iter()
                            .filter(|&&g| faces[g as usize].smoothing & face.smoothing != 0)
                            .map(|&g| face_normals[g as usize])
                            .sum(),
                    };
                    let (joints, weights) = skins[p];
                    let color = colors.map_or(Vec4::ONE, |c| {
                        let [r, g, b, a] = c[w as usize];
                        Vec4::new(
                            srgb_to_linear(r),
                            srgb_to_linear(g),
                            srgb_to_linear(b),
                            f32::from(a) / 255.0,
                        )
                    });
                    mesh.vertices.push(Vertex {
                        position: points[p],
                        normal: normal.normalize_or_zero(),
                        uv: Vec2::new(wedge.u, wedge.v),
                        color,
                        joints,
                        weights,
                    });
                    (mesh.vertices.len() - 1) as u32
                })
            };
            let [a, b, c] = face.wedges;
            let a = corner(a, &mut mesh, &mut index, &mut vertex_points);
            let c = corner(c, &mut mesh, &mut index, &mut vertex_points);
            let b = corner(b, &mut mesh, &mut index, &mut vertex_points);
            mesh.triangles.push([a, c, b]);
        }
        meshes.push(mesh);
        points_of.push(vertex_points);
    }
    for (mesh, vertex_points) in meshes.iter_mut().zip(&points_of) {
        mesh.morph_targets = morph_targets(file, points.len(), vertex_points);
    }
    if missing_material > 0 {
        report.warn(
            codes::MISSING_MATERIAL,
            format!("faces use {missing_material} material indices past the {} materials; those meshes have no material", materials.len()),
        );
    }
    if normals.is_none() && !faces.is_empty() {
        report.info(
            codes::NORMALS_GENERATED,
            "normals were generated from the faces' smoothing groups".to_owned(),
        );
    }
    let extra = file.extra_uvs();
    if !extra.is_empty() {
        let names: Vec<String> = extra
            .iter()
            .map(|(n, _)| String::from_utf8_lossy(n).into_owned())
            .collect();
        report.loss(
            psk_codes::EXTRA_UVS,
            format!(
                "{} extra UV sets ({}) are not carried: the model holds one UV set per vertex",
                extra.len(),
                names.join(", ")
            ),
        );
    }
    (meshes, materials)
}

/// The `MRPHINFO`/`MRPHDATA` targets (PSKX) of a mesh whose vertex `v` is point
/// `vertex_points[v]`: sparse over the vertices whose point a delta moves, position and
/// normal offsets, default weight 0. None when the counts of `MRPHINFO` do not add up to
/// `MRPHDATA` (the read warned) or a delta names a point past the last.
fn morph_targets(file: &File, points: usize, vertex_points: &[u32]) -> Vec<MorphTarget> {
    let infos = file.morph_info();
    let deltas = file.morph_data();
    let total: u64 = infos.iter().map(|m| m.vertex_count.max(0) as u64).sum();
    if infos.is_empty() || total != deltas.len() as u64 {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(infos.len());
    let mut at = 0usize;
    let mut dense: Vec<Option<(Vec3, Vec3)>> = vec![None; points];
    for info in infos {
        let count = info.vertex_count.max(0) as usize;
        dense.fill(None);
        for delta in &deltas[at..at + count] {
            if let Some(slot) = usize::try_from(delta.point)
                .ok()
                .and_then(|p| dense.get_mut(p))
            {
                *slot = Some((
                    Vec3::from_array(delta.position),
                    Vec3::from_array(delta.normal),
                ));
            }
        }
        at += count;
        let mut target = MorphTarget {
            name: name_of(&info.name),
            indices: Some(Vec::new()),
            ..MorphTarget::default()
        };
        for (v, &p) in vertex_points.iter().enumerate() {
            if let Some(Some((position, normal))) = dense.get(p as usize) {
                target.indices.get_or_insert_default().push(v as u32);
                target.positions.push(*position);
                target.normals.push(*normal);
            }
        }
        out.push(target);
    }
    out
}

/// How many of a PSA's bones a `.psk`'s skeleton has, by name ([`bind_by_name`]'s rule).
pub fn shared_bones(mesh: &File, psa: &File) -> usize {
    let skeleton = Skeleton {
        joints: mesh
            .bones()
            .iter()
            .map(|b| Joint::new(name_of(&b.name)))
            .collect(),
    };
    bind_by_name(&skeleton, psa).iter().flatten().count()
}
