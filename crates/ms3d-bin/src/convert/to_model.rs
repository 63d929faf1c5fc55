//! File → neutral model.

use super::ConvertOptions;
use super::keys::{KeySource, Keys};
use super::losses::report_losses;
use crate::error::Error;
use crate::file::{File, Group, Joint as FileJoint};
use crate::records::Material as FileMaterial;
use crate::summary::display_name;
use rigport_anim::euler::euler_to_quat;
use rigport_anim::milkshape::{
    self, BindPose, KeyTimeline, StoredSkin, absolute_track, decode_skin, report_keys_outside,
    resolve_parents_by_name,
};
use rigport_anim::skeleton::break_cycles;
use rigport_model_core::codes;
use rigport_model_core::glam::{Vec2, Vec3, Vec4};
use rigport_model_core::text::{decode_name, until_nul};
use rigport_model_core::{
    Animation, Joint, JointId, Material, MaterialId, Mesh, Model, Report, Skeleton, Track, UpAxis,
    Vertex,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Keys from which the joints' tracks are made on several threads (waking a thread costs
/// tens of microseconds; 64 Ki keys take a few milliseconds).
const PARALLEL_KEYS: usize = 1 << 16;

/// The threads tracks may be made on: rayon's pool with the `parallel` feature, else this
/// one.
fn pool_threads() -> usize {
    #[cfg(feature = "parallel")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "parallel"))]
    1
}

/// Converts a file to the neutral model, reporting what the model cannot carry.
///
/// Every file whose joints hold any key yields exactly one animation, named
/// [`ConvertOptions::animation_name`], at the file's frame rate and lasting
/// `total frames / fps` seconds. Damaged references (a group naming a missing triangle, a
/// missing parent, an out-of-range joint or material) become warnings, never errors.
pub fn to_model(file: &File, options: &ConvertOptions) -> Result<(Model, Report), Error> {
    to_model_from(file, options, KeySource::File)
}

/// [`to_model`] with the joints' keys read from `keys`. The tracks of a long animation are
/// made on the other cores while this thread welds the meshes, then this thread helps.
fn to_model_from(
    file: &File,
    options: &ConvertOptions,
    keys: KeySource,
) -> Result<(Model, Report), Error> {
    let mut animation_report = Report::default();
    let planned = Tracks::plan(file, options, keys, &mut animation_report);
    let (parts, made) = with_tracks(planned.as_ref(), || Parts::of(file));
    Ok(model_of(file, parts, planned, made, animation_report))
}

/// The tracks a [`Tracks`] plan made, by each thread that made some.
pub(crate) type Made = Vec<Vec<(usize, Track, usize)>>;

/// Runs `main` on this thread while the planned tracks are made on the other cores; this
/// thread then makes the tracks no other thread has taken.
pub(crate) fn with_tracks<M>(
    planned: Option<&(Animation, Tracks)>,
    main: impl FnOnce() -> M,
) -> (M, Made) {
    let tracks = planned.map(|(_, tracks)| tracks);
    let helpers = tracks.map_or(0, |t| t.threads - 1);
    let make = || tracks.map(Tracks::make).unwrap_or_default();
    let ((made, own), helped) = alongside(helpers, make, || (main(), make()));
    (made, std::iter::once(own).chain(helped).collect())
}

/// The parts of the model made from the file's meshes and joints: the meshes welded, the
/// skeleton, and what they report.
pub(crate) struct Parts {
    meshes: Vec<Mesh>,
    skeleton: Skeleton,
    report: Report,
}

impl Parts {
    /// The parts of `file`'s model.
    pub(crate) fn of(file: &File) -> Self {
        let mut report = Report::default();
        let skeleton = skeleton(&file.joints, &mut report);
        let skins = skins(file, &mut report);
        let mut welder = Welder::new(file);
        let meshes: Vec<Mesh> = file
            .groups
            .iter()
            .map(|group| welder.mesh(group, &skins))
            .collect();
        welder.report(&mut report);
        Self {
            meshes,
            skeleton,
            report,
        }
    }
}

/// `file`'s model from its parts and the tracks made from the plan (see [`with_tracks`]),
/// and everything they and the plan (`animation_report`) report.
pub(crate) fn model_of(
    file: &File,
    parts: Parts,
    planned: Option<(Animation, Tracks)>,
    made: Made,
    mut animation_report: Report,
) -> (Model, Report) {
    let Parts {
        meshes,
        skeleton,
        mut report,
    } = parts;
    let animation =
        planned.map(|(animation, tracks)| tracks.finish(animation, made, &mut animation_report));
    report.extend(animation_report);
    let model = Model {
        meshes,
        materials: file.materials.iter().map(material).collect(),
        skeleton,
        animations: animation.into_iter().collect(),
        comment: file
            .comments
            .as_ref()
            .and_then(|c| c.model.first())
            .map(|text| decode_name(text)),
        up: UpAxis::Y,
    };
    report_losses(file, &mut report);
    (model, report)
}

/// Runs `main` on the calling thread while up to `helpers` threads of rayon's pool run
/// `help`, and returns what `main` and each helper made. Threads of the pool, started once
/// and then waiting, are woken on an idle core at once; a thread started for the call can
/// wait on the caller's core for a scheduler tick (4 ms) before it runs (measured on the
/// 2-core VM of BENCHMARKS.md). Without the `parallel` feature no helper runs.
fn alongside<M, H: Send>(
    helpers: usize,
    help: impl Fn() -> H + Sync,
    main: impl FnOnce() -> M,
) -> (M, Vec<H>) {
    #[cfg(feature = "parallel")]
    if helpers > 0 {
        let mut helped: Vec<Option<H>> = (0..helpers).map(|_| None).collect();
        let made = rayon::in_place_scope(|scope| {
            for slot in &mut helped {
                let help = &help;
                scope.spawn(move |_| *slot = Some(help()));
            }
            main()
        });
        // The scope ends when every job has run.
        return (made, helped.into_iter().flatten().collect());
    }
    let _ = (helpers, &help);
    (main(), Vec::new())
}

/// Joints with parents found by name; a missing parent or a cycle makes the joint a root
/// (the shared MilkShape rules in `rigport_anim`).
fn skeleton(joints: &[FileJoint], report: &mut Report) -> Skeleton {
    let names: Vec<(&[u8], &[u8])> = joints
        .iter()
        .map(|j| (until_nul(&j.name), until_nul(&j.parent_name)))
        .collect();
    let parents = resolve_parents_by_name(&names, decode_name, report);
    let mut skeleton = Skeleton {
        joints: joints
            .iter()
            .zip(&names)
            .zip(parents)
            .map(|((joint, (name, _)), parent)| Joint {
                name: decode_name(name),
                parent,
                translation: Vec3::from(joint.position),
                rotation: euler_to_quat(Vec3::from(joint.rotation)),
                scale: Vec3::ONE,
            })
            .collect(),
    };
    break_cycles(&mut skeleton, report);
    skeleton
}

/// The decoded skin of every vertex record; influences on joints that do not exist are
/// dropped (with a warning) and the rest renormalized.
fn skins(file: &File, report: &mut Report) -> Vec<([JointId; 4], [f32; 4])> {
    let joint_count = file.joints.len();
    let mut dropped = 0usize;
    let skins = file
        .vertices
        .iter()
        .enumerate()
        .map(|(index, vertex)| {
            let block = file.vertex_extra.as_ref();
            let extra = block.and_then(|e| e.records.get(index));
            let stored = StoredSkin {
                bone_id: vertex.bone_id,
                extra_bone_ids: extra.map_or([-1; 3], |e| e.bone_ids),
                weights: extra.map_or([0; 3], |e| e.weights),
                has_extra: extra.is_some(),
                sub_version: block.map_or(0, |e| e.sub_version),
            };
            let (joints, mut weights) = decode_skin(stored);
            for (joint, weight) in joints.iter().zip(weights.iter_mut()) {
                if *weight > 0.0 && joint.index() >= joint_count {
                    *weight = 0.0;
                    dropped += 1;
                }
            }
            let total: f32 = weights.iter().sum();
            if total > 0.0 {
                weights.iter_mut().for_each(|w| *w /= total);
            }
            (joints, weights)
        })
        .collect();
    if dropped > 0 {
        report.warn(
            codes::JOINT_OUT_OF_RANGE,
            format!(
                "{dropped} vertex influences name a joint past the {joint_count} joints; dropped"
            ),
        );
    }
    skins
}

/// Welds per-corner attributes into unified vertices, group by group, and counts what it
/// had to skip.
struct Welder<'a> {
    file: &'a File,
    triangle_used: Vec<bool>,
    vertex_used: Vec<bool>,
    missing_triangles: usize,
    bad_triangles: usize,
    bad_materials: usize,
    welded: Welded,
}

/// What a corner adds to its vertex record: normal bits, uv bits.
type CornerKey = ([u32; 3], [u32; 2]);

/// The model vertex of each (vertex record, corner key) of one group.
///
/// Most corners of a record share its normal and uv, so the first key of each record lives
/// in an array indexed by record (no hashing); only a record with a second key (a hard edge
/// or a uv seam) goes to the map.
struct Welded {
    first: Vec<Option<(CornerKey, u32)>>,
    touched: Vec<u16>,
    more: HashMap<(u16, CornerKey), u32>,
}

impl Welded {
    fn new(records: usize) -> Self {
        Self {
            first: vec![None; records],
            touched: Vec::new(),
            more: HashMap::new(),
        }
    }

    /// Forgets the group (only the records it touched are reset).
    fn clear(&mut self) {
        for &record in &self.touched {
            self.first[usize::from(record)] = None;
        }
        self.touched.clear();
        self.more.clear();
    }

    /// The model vertex of `(record, key)`, made by `add` the first time.
    fn get_or_add(&mut self, record: u16, key: CornerKey, add: impl FnOnce() -> u32) -> u32 {
        match self.first.get_mut(usize::from(record)) {
            Some(slot @ None) => {
                let index = add();
                *slot = Some((key, index));
                self.touched.push(record);
                index
            }
            Some(Some((first, index))) if *first == key => *index,
            _ => *self.more.entry((record, key)).or_insert_with(add),
        }
    }
}

impl<'a> Welder<'a> {
    fn new(file: &'a File) -> Self {
        Self {
            file,
            triangle_used: vec![false; file.triangles.len()],
            vertex_used: vec![false; file.vertices.len()],
            missing_triangles: 0,
            bad_triangles: 0,
            bad_materials: 0,
            welded: Welded::new(file.vertices.len()),
        }
    }

    fn mesh(&mut self, group: &Group, skins: &[([JointId; 4], [f32; 4])]) -> Mesh {
        let mut mesh = Mesh::new(display_name(&group.name));
        mesh.has_uvs = true;
        mesh.material = u32::try_from(group.material_index)
            .ok()
            .map(MaterialId)
            .filter(|id| {
                let ok = id.index() < self.file.materials.len();
                self.bad_materials += usize::from(!ok);
                ok
            });
        let welded = &mut self.welded;
        welded.clear();
        // Room for every corner at once, given back below: growing step by step copied
        // the vertices written so far at each step (a tenth of the page faults of a
        // 32 767-triangle file → glb). Room never written is never touched.
        mesh.vertices.reserve(3 * group.triangle_indices.len());
        mesh.triangles.reserve(group.triangle_indices.len());
        for &triangle_index in &group.triangle_indices {
            let Some(triangle) = self.file.triangles.get(usize::from(triangle_index)) else {
                self.missing_triangles += 1;
                continue;
            };
            let corners = triangle.vertex_indices.map(usize::from);
            if corners.iter().any(|&v| v >= self.file.vertices.len()) {
                self.bad_triangles += 1;
                continue;
            }
            self.triangle_used[usize::from(triangle_index)] = true;
            let mut out = [0u32; 3];
            for (corner, slot) in out.iter_mut().enumerate() {
                let record = triangle.vertex_indices[corner];
                let normal = triangle.normals[corner];
                let uv = [triangle.s[corner], triangle.t[corner]];
                let key = (normal.map(f32::to_bits), uv.map(f32::to_bits));
                *slot = welded.get_or_add(record, key, || {
                    let index = usize::from(record);
                    let (joints, weights) = skins.get(index).copied().unwrap_or_default();
                    mesh.vertices.push(Vertex {
                        position: Vec3::from(self.file.vertices[index].position),
                        normal: Vec3::from(normal),
                        uv: Vec2::from(uv),
                        color: Vec4::ONE,
                        joints,
                        weights,
                    });
                    (mesh.vertices.len() - 1) as u32
                });
                self.vertex_used[usize::from(record)] = true;
            }
            mesh.triangles.push(out);
        }
        mesh.vertices.shrink_to_fit();
        mesh
    }

    fn report(&self, report: &mut Report) {
        if self.missing_triangles > 0 {
            report.warn(
                codes::MISSING_TRIANGLE,
                format!(
                    "{} group triangle indices point past the {} triangles; skipped",
                    self.missing_triangles,
                    self.file.triangles.len()
                ),
            );
        }
        if self.bad_triangles > 0 {
            report.warn(
                codes::MISSING_VERTEX,
                format!(
                    "{} triangles use a vertex index past the {} vertices; skipped",
                    self.bad_triangles,
                    self.file.vertices.len()
                ),
            );
        }
        if self.bad_materials > 0 {
            report.warn(
                codes::MISSING_MATERIAL,
                format!(
                    "{} groups use a material index past the {} materials; left without material",
                    self.bad_materials,
                    self.file.materials.len()
                ),
            );
        }
        let ungrouped = self.triangle_used.iter().filter(|u| !**u).count();
        if ungrouped > 0 {
            report.loss(
                codes::UNGROUPED_TRIANGLES,
                format!("{ungrouped} triangles belong to no group and are not carried"),
            );
        }
        let unused = self.vertex_used.iter().filter(|u| !**u).count();
        if unused > 0 {
            report.loss(
                codes::UNUSED_VERTICES,
                format!("{unused} vertices are used by no triangle and are not carried"),
            );
        }
    }
}

fn material(m: &FileMaterial) -> Material {
    let path = |raw: &[u8]| Some(display_name(raw)).filter(|p| !p.is_empty());
    Material {
        name: display_name(&m.name),
        ambient: Vec4::from(m.ambient),
        diffuse: Vec4::from(m.diffuse),
        specular: Vec4::from(m.specular),
        emissive: Vec4::from(m.emissive),
        shininess: m.shininess,
        opacity: m.transparency,
        texture: path(&m.texture),
        alpha_map: path(&m.alphamap),
    }
}

/// The tracks of the file's one animation, made from its keys on one or more threads: each
/// joint's keys are made absolute on their own (a sine and cosine per angle), the joints
/// taken one at a time by whichever thread is free.
pub(crate) struct Tracks<'a> {
    timeline: KeyTimeline,
    /// Joints with keys, in file order.
    animated: Vec<(JointId, &'a FileJoint, Keys<'a>, Keys<'a>)>,
    /// The next joint of `animated` to take.
    next: AtomicUsize,
    /// Threads to make the tracks on (this one included).
    threads: usize,
}

impl<'a> Tracks<'a> {
    /// The file's animation without its tracks and what makes them, `None` when no joint
    /// holds a key.
    pub(crate) fn plan(
        file: &'a File,
        options: &ConvertOptions,
        keys: KeySource<'a>,
        report: &mut Report,
    ) -> Option<(Animation, Self)> {
        let animated: Vec<(JointId, &FileJoint, Keys, Keys)> = file
            .joints
            .iter()
            .enumerate()
            .map(|(index, joint)| {
                let rotations = keys.rotations(index, joint);
                (index, joint, rotations, keys.translations(index, joint))
            })
            .filter(|(_, _, rotations, translations)| rotations.len() + translations.len() > 0)
            .filter_map(|(index, joint, rotations, translations)| {
                Some((JointId::from_index(index)?, joint, rotations, translations))
            })
            .collect();
        if animated.is_empty() {
            return None;
        }
        let keyframer = &file.keyframer;
        let animation = milkshape::animation(
            &options.animation_name,
            keyframer.fps,
            keyframer.total_frames,
            report,
        );
        let timeline = KeyTimeline::new(animation.duration, animation.fps);
        let key_count: usize = animated
            .iter()
            .map(|(_, _, rotations, translations)| rotations.len() + translations.len())
            .sum();
        let threads = match key_count >= PARALLEL_KEYS {
            true => pool_threads(),
            false => 1,
        }
        .clamp(1, 8);
        let tracks = Self {
            timeline,
            animated,
            next: AtomicUsize::new(0),
            threads,
        };
        Some((animation, tracks))
    }

    /// Makes tracks until every joint is taken: `(position in animated, track, keys
    /// dropped)`.
    fn make(&self) -> Vec<(usize, Track, usize)> {
        let mut made = Vec::new();
        loop {
            let at = self.next.fetch_add(1, Ordering::Relaxed);
            let Some((id, joint, rotations, translations)) = self.animated.get(at) else {
                return made;
            };
            let bind = BindPose::new(Vec3::from(joint.position), Vec3::from(joint.rotation));
            let (track, dropped) = absolute_track(
                *id,
                &bind,
                translations.clone(),
                rotations.clone(),
                &self.timeline,
            );
            made.push((at, track, dropped));
        }
    }

    /// `animation` with the tracks the threads made, in joint order.
    fn finish(
        &self,
        mut animation: Animation,
        parts: Vec<Vec<(usize, Track, usize)>>,
        report: &mut Report,
    ) -> Animation {
        let mut made: Vec<(usize, Track, usize)> = parts.into_iter().flatten().collect();
        made.sort_unstable_by_key(|(at, _, _)| *at);
        let mut outside = 0usize;
        for (_, track, dropped) in made {
            outside += dropped;
            animation.tracks.push(track);
        }
        report_keys_outside(outside, &self.timeline, report);
        animation
    }
}
