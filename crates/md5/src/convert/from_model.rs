//! The neutral model to `.md5mesh` and `.md5anim`.

use super::ConvertOptions;
use crate::error::{Detail, Error};
use crate::file::*;
use crate::math::{Rigid, stored_xyz};
use glam::{DQuat, DVec3, Vec3};
use rigport_anim::skeleton::parent_first_order;
use rigport_anim::skin::skin_vertex;
use rigport_anim::{Pose, normalize_animation};
use rigport_model_core::{Model, Report, TooMany, codes};

/// Most frames one `.md5anim` is written with (three hours at 24 frames per second).
const MAX_FRAMES: usize = 1 << 18;
/// Most joint poses (frames × joints) one `.md5anim` is written with.
const MAX_POSES: usize = 1 << 22;
/// Poses every animation may be sampled into whatever its key count (as the SMD writer does).
const FREE_POSES: usize = 1 << 17;
/// Most skinned vertices (frames × vertices) the bounds are computed from exactly; past it
/// each frame's box is the posed joints grown by the farthest vertex from its joint.
const MAX_SKINNED: usize = 1 << 24;

/// How the model's joints are laid out in the file: parents first, with a root added at
/// index 0 when some vertex has no joint, the model has no joints, or it has several roots.
struct Layout {
    /// File joint → model joint (`None`: the added root).
    joints: Vec<Option<usize>>,
    /// Model joint → file joint.
    file_index: Vec<usize>,
    /// Parent of each file joint (−1 for the root).
    parents: Vec<i64>,
    /// Names as written.
    names: Vec<Vec<u8>>,
    /// Bind pose of each file joint, parent-relative.
    local: Vec<Rigid>,
    /// Bind pose of each file joint, model space.
    world: Vec<Rigid>,
}

/// A name fit for a quoted MD5 string: quotes become `'`, control characters spaces.
fn quotable(name: &str, changed: &mut usize) -> Vec<u8> {
    let clean: String = name
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    if clean != name {
        *changed += 1;
    }
    clean.into_bytes()
}

fn report_names(changed: usize, report: &mut Report) {
    if changed > 0 {
        report.info(
            codes::NAMES_CHANGED,
            format!(
                "{changed} names held quotes or control characters, which MD5 strings cannot; \
                 they became `'` and spaces"
            ),
        );
    }
}

/// Rounds to the shortest decimal of the nearest `f32` (the model's precision), so the file
/// does not print 17 digits of rounding noise; non-finite numbers become 0 and are counted.
/// Quaternions are not rounded (see [`exact`]): `w` is rebuilt from `x y z`, and where it is
/// small an error in them grows by `1 / w`.
fn short(x: f64, non_finite: &mut usize) -> f64 {
    let f = x as f32;
    if !f.is_finite() {
        *non_finite += 1;
        return 0.0;
    }
    let mut buffer = ryu::Buffer::new();
    rigport_model_core::number::parse_f64(buffer.format_finite(f).as_bytes()).unwrap_or(0.0)
}

/// A quaternion component kept to `f64` precision; non-finite becomes 0 and is counted.
fn exact(x: f64, non_finite: &mut usize) -> f64 {
    if x.is_finite() {
        x
    } else {
        *non_finite += 1;
        0.0
    }
}

fn short3(v: DVec3, non_finite: &mut usize) -> [f64; 3] {
    [
        short(v.x, non_finite),
        short(v.y, non_finite),
        short(v.z, non_finite),
    ]
}

fn layout(model: &Model, report: &mut Report) -> Result<Layout, Error> {
    if let Some(problem) = model.check_references().into_iter().next() {
        return Err(problem.into());
    }
    let order =
        parent_first_order(&model.skeleton).map_err(|e| Error::InvalidModel(e.to_string()))?;
    let joints = &model.skeleton.joints;
    let roots = joints.iter().filter(|j| j.parent.is_none()).count();
    let unbound = model
        .meshes
        .iter()
        .flat_map(|m| &m.vertices)
        .filter(|v| !v.is_skinned())
        .count();
    let added_root = joints.is_empty() || unbound > 0 || roots > 1;
    let mut layout = Layout {
        joints: Vec::new(),
        file_index: vec![0; joints.len()],
        parents: Vec::new(),
        names: Vec::new(),
        local: Vec::new(),
        world: Vec::new(),
    };
    let mut changed = 0;
    if added_root {
        let mut name = "origin".to_owned();
        while model.skeleton.find(&name).is_some() {
            name.push('_');
        }
        let why = match (joints.is_empty(), unbound > 0) {
            (true, _) => "the model has no joints".to_owned(),
            (false, true) => format!("{unbound} vertices are bound to no joint"),
            (false, false) => format!("the model has {roots} roots"),
        };
        report.info(
            codes::JOINT_ADDED,
            format!("a root joint `{name}` was added at index 0: {why}"),
        );
        layout.joints.push(None);
        layout.parents.push(-1);
        layout.names.push(name.into_bytes());
        layout.local.push(Rigid::IDENTITY);
        layout.world.push(Rigid::IDENTITY);
    }
    let mut scaled = 0;
    for id in order {
        let i = id.index();
        let joint = &joints[i];
        let file = layout.joints.len();
        layout.file_index[i] = file;
        layout.joints.push(Some(i));
        layout.names.push(quotable(&joint.name, &mut changed));
        if !joint.scale.abs_diff_eq(Vec3::ONE, 1e-6) {
            scaled += 1;
        }
        let local = Rigid {
            position: joint.translation.as_dvec3(),
            rotation: joint.rotation.as_dquat().normalize(),
        };
        let (parent, world) = match joint.parent {
            Some(p) => {
                let p = layout.file_index[p.index()];
                (p as i64, layout.world[p].then(&local))
            }
            None if added_root => (0, local),
            None => (-1, local),
        };
        layout.parents.push(parent);
        layout.local.push(local);
        layout.world.push(world);
    }
    if scaled > 0 {
        report.loss(
            codes::JOINT_SCALE,
            format!("{scaled} joints have a bind scale other than 1, which MD5 cannot hold"),
        );
    }
    report_names(changed, report);
    Ok(layout)
}

fn header_items(items: &mut Vec<Item>, model: &Model, changed: &mut usize) {
    let commandline = model
        .comment
        .as_deref()
        .map(|c| quotable(c, changed))
        .unwrap_or_default();
    items.push(Item::Header(Header::Version(10), None));
    items.push(Item::Header(Header::Commandline(commandline), None));
    items.push(Item::Blank);
}

/// Converts a model to an `.md5mesh` (the animations go to [`anim_from_model`]).
///
/// Joints are written parents first in model space. Every vertex needs a weight: when some
/// vertex is bound to no joint, when the model has no joints, or when it has several roots
/// (Doom 3 wants one root at index 0), a root joint `origin` at the model's origin is added
/// at index 0 and the model's roots become its children (`joint-added`); unbound vertices
/// get weight 1 on it. Each vertex's influences become its weights, with positions in the
/// joint's bind space. Triangles are written in MD5's winding; a mesh's `shader` is its
/// material's texture if it has one, else the material's name, else `""`; its name goes in
/// a `// meshes: NAME` line (the IQM SDK's source of mesh names). Normals and vertex
/// colours are not stored (losses).
pub fn from_model(model: &Model, options: &ConvertOptions) -> Result<(File, Report), Error> {
    let _ = options;
    let mut report = Report::default();
    let layout = layout(model, &mut report)?;
    let (mut changed, mut non_finite, mut renormalized, mut texture_named) = (0, 0, 0, 0);
    let mut items = Vec::new();
    header_items(&mut items, model, &mut changed);
    items.push(Item::Header(
        Header::NumJoints(layout.joints.len() as i64),
        None,
    ));
    items.push(Item::Header(
        Header::NumMeshes(model.meshes.len() as i64),
        None,
    ));
    items.push(Item::Blank);
    let mut joints = Block::default();
    for f in 0..layout.joints.len() {
        let world = layout.world[f];
        joints.lines.push(Line::Record(
            Joint {
                name: layout.names[f].clone(),
                parent: layout.parents[f],
                position: short3(world.position, &mut non_finite),
                orientation: stored_xyz(world.rotation).map(|x| exact(x, &mut non_finite)),
            },
            None,
        ));
    }
    items.push(Item::Joints(joints));
    for mesh in &model.meshes {
        items.push(Item::Blank);
        let mut block: Block<MeshLine> = Block::default();
        let mut name = b" meshes: ".to_vec();
        name.extend(quotable(&mesh.name, &mut changed));
        block.lines.push(Line::Comment(name));
        let shader = match mesh.material.and_then(|m| model.materials.get(m.index())) {
            Some(material) => match material.texture.as_deref().filter(|t| !t.is_empty()) {
                Some(texture) => {
                    if texture != material.name {
                        texture_named += 1;
                    }
                    quotable(texture, &mut changed)
                }
                None => quotable(&material.name, &mut changed),
            },
            None => Vec::new(),
        };
        block
            .lines
            .push(Line::Record(MeshLine::Shader(shader), None));
        block.lines.push(Line::Blank);
        block.lines.push(Line::Record(
            MeshLine::NumVerts(mesh.vertices.len() as i64),
            None,
        ));
        let mut weights = Vec::new();
        for (i, vertex) in mesh.vertices.iter().enumerate() {
            let mut influences: Vec<(usize, f64)> = vertex
                .influences()
                .map(|(j, w)| (layout.file_index[j.index()], f64::from(w)))
                .collect();
            if influences.is_empty() {
                influences.push((0, 1.0));
            }
            let sum: f64 = influences.iter().map(|(_, w)| w).sum();
            if (sum - 1.0).abs() > 1e-4 {
                renormalized += 1;
            }
            let first = weights.len() as i64;
            let position = vertex.position.as_dvec3();
            for (joint, w) in &influences {
                weights.push(Weight {
                    index: weights.len() as i64,
                    joint: *joint as i64,
                    bias: short(w / sum, &mut non_finite),
                    position: short3(
                        layout.world[*joint].inverse_apply(position),
                        &mut non_finite,
                    ),
                });
            }
            block.lines.push(Line::Record(
                MeshLine::Vert(Vert {
                    index: i as i64,
                    uv: [
                        short(f64::from(vertex.uv.x), &mut non_finite),
                        short(f64::from(vertex.uv.y), &mut non_finite),
                    ],
                    first_weight: first,
                    weight_count: influences.len() as i64,
                }),
                None,
            ));
        }
        block.lines.push(Line::Blank);
        block.lines.push(Line::Record(
            MeshLine::NumTris(mesh.triangles.len() as i64),
            None,
        ));
        for (i, [a, b, c]) in mesh.triangles.iter().enumerate() {
            block.lines.push(Line::Record(
                MeshLine::Tri(Tri {
                    index: i as i64,
                    vertices: [i64::from(*a), i64::from(*c), i64::from(*b)],
                }),
                None,
            ));
        }
        block.lines.push(Line::Blank);
        block.lines.push(Line::Record(
            MeshLine::NumWeights(weights.len() as i64),
            None,
        ));
        block.lines.extend(
            weights
                .into_iter()
                .map(|w| Line::Record(MeshLine::Weight(w), None)),
        );
        items.push(Item::Mesh(block));
    }
    report_names(changed, &mut report);
    if renormalized > 0 {
        report.info(
            codes::WEIGHTS_RENORMALIZED,
            format!("{renormalized} vertices' weights did not sum to 1 and were rescaled"),
        );
    }
    if texture_named > 0 {
        report.info(
            codes::MATERIAL_NAMED_AFTER_TEXTURE,
            format!("{texture_named} meshes' shader is their material's texture"),
        );
    }
    if non_finite > 0 {
        report.loss(
            codes::NON_FINITE,
            format!("{non_finite} numbers were not finite and were written as 0"),
        );
    }
    if model.vertex_count() > 0 {
        report.loss(
            codes::NORMALS_NOT_STORED,
            "MD5 stores no normals: readers compute them from the triangles",
        );
    }
    let colored = model.meshes.iter().filter(|m| m.has_colors).count();
    if colored > 0 {
        report.loss(
            codes::VERTEX_COLORS,
            format!("{colored} meshes have vertex colours, which MD5 cannot hold"),
        );
    }
    if model.materials.iter().any(|m| {
        m.alpha_map.is_some() || m.diffuse != rigport_model_core::Material::default().diffuse
    }) {
        report.loss(
            codes::MATERIAL_PROPERTIES,
            "MD5 keeps one shader string per mesh: material colours and alpha maps are not carried",
        );
    }
    let file = File {
        kind: Kind::Mesh,
        items,
        line_ending: LineEnding::Lf,
        final_newline: true,
        bom: false,
    };
    Ok((file, report))
}

/// Converts animation `index` of a model to an `.md5anim` for the `.md5mesh` that
/// [`from_model`] writes from the same model (same joints, same order).
///
/// The animation is sampled at its own frame rate rounded to a whole number (Doom 3 reads
/// `frameRate` as an integer; `resampled` when that changes it) from time 0 to its end. The
/// baseframe is the bind pose; a joint's component is flagged (and written in every frame)
/// when some frame differs from the baseframe. Each frame's `bounds` hold the skinned
/// vertices (the joints when there are none). Scale keys and the loop flag are not carried.
pub fn anim_from_model(
    model: &Model,
    index: usize,
    options: &ConvertOptions,
) -> Result<(File, Report), Error> {
    let mut report = Report::default();
    let source = model
        .animations
        .get(index)
        .ok_or(Error::detail(Detail::NoAnimation(index)))?;
    let layout = layout(model, &mut report)?;
    let mut animation = source.clone();
    report.extend(normalize_animation(&mut animation, model.skeleton.len()));
    let fps = if animation.fps.is_finite() && animation.fps > 0.0 {
        animation.fps
    } else {
        options.fallback_fps()
    };
    let rate = fps.round().clamp(1.0, 1e6);
    if (rate - fps).abs() > 1e-3 {
        report.info(
            codes::RESAMPLED,
            format!(
                "`{}` was sampled at {rate} frames per second (MD5 frame rates are whole numbers; \
                 it had {fps})",
                animation.name
            ),
        );
    }
    let end = animation.end_time();
    let span = (f64::from(end) * f64::from(rate)).round();
    let frames = if span.is_finite() && span >= 0.0 && span < MAX_FRAMES as f64 {
        span as usize + 1
    } else {
        MAX_FRAMES + 1
    };
    TooMany::check("MD5 animation", "frames", frames, MAX_FRAMES)?;
    TooMany::check(
        "MD5 animation",
        "joint poses (frames × joints)",
        frames.saturating_mul(layout.joints.len()),
        MAX_POSES,
    )?;
    // Sampling stores every joint at every frame: beyond a small allowance, only as many
    // poses as the model has keys are justified (a tiny file declaring a huge duration must
    // not make the writer allocate gigabytes).
    let allowance = FREE_POSES.max(model.key_count());
    let poses_needed = frames.saturating_mul(layout.joints.len());
    if poses_needed > allowance {
        return Err(Error::InvalidModel(format!(
            "animation `{}` would need {frames} frames of {} joints at {rate} fps, more poses than the model's keys justify ({allowance})",
            rigport_model_core::diagnostic::excerpt(animation.name.as_bytes(), 40),
            layout.joints.len()
        )));
    }
    let mut pose = Pose::new(&model.skeleton).map_err(|e| Error::InvalidModel(e.to_string()))?;
    let joint_count = layout.joints.len();
    let mut non_finite = 0;
    let base: Vec<[f64; 6]> = layout
        .local
        .iter()
        .map(|l| pack(l.position, l.rotation, &mut non_finite))
        .collect();
    let mut poses: Vec<[f64; 6]> = Vec::with_capacity(frames * joint_count);
    let mut bounds = Vec::with_capacity(frames);
    let exact_bounds = frames.saturating_mul(model.vertex_count()) <= MAX_SKINNED;
    let reach = if exact_bounds { 0.0 } else { reach(model) };
    let mut scaled = false;
    for f in 0..frames {
        let time = f as f32 / rate;
        pose.sample(&animation, time);
        let locals = pose.local_transforms();
        for joint in &layout.joints {
            match joint {
                None => poses.push(base[0]),
                Some(i) => {
                    let t = locals[*i];
                    scaled |= !t.scale.abs_diff_eq(Vec3::ONE, 1e-5);
                    poses.push(pack(
                        t.translation.as_dvec3(),
                        t.rotation.as_dquat(),
                        &mut non_finite,
                    ));
                }
            }
        }
        bounds.push(if exact_bounds {
            frame_bounds(model, &pose, &mut non_finite)
        } else {
            joint_bounds(&pose, reach, &mut non_finite)
        });
    }
    if scaled {
        report.loss(
            codes::SCALE_KEYS,
            format!("`{}` scales joints, which MD5 cannot hold", animation.name),
        );
    }
    if animation.looping {
        report.loss(
            codes::LOOPING,
            format!("`{}` loops; MD5 files have no loop flag", animation.name),
        );
    }
    // Flags: the components some frame moves away from the baseframe.
    let mut flags = vec![0i64; joint_count];
    for frame in poses.chunks(joint_count.max(1)) {
        for (j, values) in frame.iter().enumerate() {
            for (c, (v, b)) in values.iter().zip(&base[j]).enumerate() {
                if (v - b).abs() > 1e-6 * (1.0 + b.abs()) {
                    flags[j] |= 1 << c;
                }
            }
        }
    }
    let mut start = 0i64;
    let mut hierarchy = Block::default();
    for (j, &flag) in flags.iter().enumerate() {
        hierarchy.lines.push(Line::Record(
            HierarchyEntry {
                name: layout.names[j].clone(),
                parent: layout.parents[j],
                flags: flag,
                start_index: if flag == 0 { 0 } else { start },
            },
            None,
        ));
        start += i64::from(flag.count_ones());
    }
    let mut changed = 0;
    let mut items = Vec::new();
    header_items(&mut items, model, &mut changed);
    for header in [
        Header::NumFrames(frames as i64),
        Header::NumJoints(joint_count as i64),
        Header::FrameRate(f64::from(rate)),
        Header::NumAnimatedComponents(start),
    ] {
        items.push(Item::Header(header, None));
    }
    items.push(Item::Blank);
    items.push(Item::Hierarchy(hierarchy));
    items.push(Item::Blank);
    items.push(Item::Bounds(Block::of(bounds)));
    items.push(Item::Blank);
    items.push(Item::BaseFrame(Block::of(base.iter().map(|b| {
        BaseFrameEntry {
            position: [b[0], b[1], b[2]],
            orientation: [b[3], b[4], b[5]],
        }
    }))));
    for (f, frame) in poses.chunks(joint_count.max(1)).enumerate().take(frames) {
        items.push(Item::Blank);
        let lines = frame.iter().enumerate().filter_map(|(j, values)| {
            let picked: Vec<f64> = (0..6)
                .filter(|c| flags[j] & (1 << c) != 0)
                .map(|c| values[c])
                .collect();
            (!picked.is_empty()).then_some(picked)
        });
        items.push(Item::Frame(Frame {
            index: f as i64,
            block: Block::of(lines),
        }));
    }
    if non_finite > 0 {
        report.loss(
            codes::NON_FINITE,
            format!("{non_finite} numbers were not finite and were written as 0"),
        );
    }
    report_names(changed, &mut report);
    let file = File {
        kind: Kind::Anim,
        items,
        line_ending: LineEnding::Lf,
        final_newline: true,
        bom: false,
    };
    Ok((file, report))
}

/// `Tx Ty Tz Qx Qy Qz` of a local pose, as written.
fn pack(position: DVec3, rotation: DQuat, non_finite: &mut usize) -> [f64; 6] {
    let [x, y, z] = short3(position, non_finite);
    let [qx, qy, qz] = stored_xyz(rotation).map(|v| exact(v, non_finite));
    [x, y, z, qx, qy, qz]
}

/// The farthest any vertex is from a joint that moves it, in the bind pose.
fn reach(model: &Model) -> f32 {
    let Ok(world) = rigport_anim::skeleton::world_bind_matrices(&model.skeleton) else {
        return 0.0;
    };
    let mut reach = 0.0f32;
    for vertex in model.meshes.iter().flat_map(|m| &m.vertices) {
        for (joint, _) in vertex.influences() {
            if let Some(m) = world.get(joint.index()) {
                reach = reach.max((vertex.position - m.w_axis.truncate()).length());
            }
        }
        if !vertex.is_skinned() {
            reach = reach.max(vertex.position.length());
        }
    }
    if reach.is_finite() { reach } else { 0.0 }
}

/// A box holding every vertex without skinning each: the posed joints (and the origin, for
/// vertices bound to none) grown by `reach`. Skinning moves each vertex rigidly with its
/// joints, so it stays within `reach` of one of them.
fn joint_bounds(pose: &Pose, reach: f32, non_finite: &mut usize) -> Bounds {
    let mut min = Vec3::ZERO;
    let mut max = Vec3::ZERO;
    for world in pose.world_matrices() {
        let p = world.w_axis.truncate();
        if p.is_finite() {
            min = min.min(p);
            max = max.max(p);
        }
    }
    Bounds {
        min: short3((min - Vec3::splat(reach)).as_dvec3(), non_finite),
        max: short3((max + Vec3::splat(reach)).as_dvec3(), non_finite),
    }
}

/// The box around the skinned vertices of a posed model (or its joints when it has no
/// vertices).
fn frame_bounds(model: &Model, pose: &Pose, non_finite: &mut usize) -> Bounds {
    let mut min = Vec3::splat(f32::INFINITY);
    let mut max = Vec3::splat(f32::NEG_INFINITY);
    let mut add = |p: Vec3| {
        if p.is_finite() {
            min = min.min(p);
            max = max.max(p);
        }
    };
    let skinning = pose.skinning_matrices();
    for vertex in model.meshes.iter().flat_map(|m| &m.vertices) {
        let position = if vertex.is_skinned() {
            skin_vertex(skinning, vertex).0
        } else {
            vertex.position
        };
        add(position);
    }
    if model.vertex_count() == 0 {
        for world in pose.world_matrices() {
            add(world.w_axis.truncate());
        }
    }
    if min.x > max.x {
        return Bounds::default();
    }
    Bounds {
        min: short3(min.as_dvec3(), non_finite),
        max: short3(max.as_dvec3(), non_finite),
    }
}
