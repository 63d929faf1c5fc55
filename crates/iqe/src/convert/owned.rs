//! IQE to the neutral model for a conversion that owns the file: the commands are freed
//! as soon as nothing left to make needs them.

use super::ConvertOptions;
use super::meshes::MeshBuilder;
use super::to_model::{
    ConvertedAnimations, Losses, NormalFacts, Parts, begin, convert_animations, finish, join,
    normals_of,
};
use crate::file::File;
use crate::normals::CornerNormals;
use crate::scene::{Scene, SceneAnimation, SceneMesh, pose_at};
use crate::store::Store;
use rigport_model_core::{Joint, Mesh, Model, Report};
use std::collections::HashSet;
use std::ops::Range;

/// Triangles made between two looks at what can be freed (a few in the crate's tests, so
/// that their small files are freed piece by piece too).
const PIECE: usize = if cfg!(test) { 5 } else { 1 << 15 };

/// Files of fewer commands than this keep them whole until their meshes are made, which
/// then share both cores (about 40 MB of text and 25 MB of commands).
const KEPT_WHOLE_BELOW: usize = 1 << 20;

/// Whether `store`'s commands are kept whole while the meshes are made. Never in the
/// crate's tests, which compare the meshes made while the commands are freed with those of
/// [`super::to_model`], made from both ends of the list.
fn kept_whole(store: &Store) -> bool {
    !cfg!(test) && store.len() < KEPT_WHOLE_BELOW
}

/// `to_model`'s model and report for a file and scene the conversion owns.
///
/// The animations are converted on another thread (with the `parallel` feature) from
/// their own share of the commands, the segments holding poses, which are freed as their
/// poses are converted. In a large file the meshes are made meanwhile in order, a piece of
/// triangles at a time, and after each piece the segments that hold no vertex still to
/// make are freed: those of later meshes and those the mesh's remaining triangles name are
/// kept (its vertices no triangle names are made first, and added last). A large file's
/// commands thus shrink while its model grows instead of being held whole beside it, as
/// long as its triangles name vertices roughly in file order, as exporters write them. In
/// a smaller file ([`KEPT_WHOLE_BELOW`]) the thread that converted the animations then
/// makes meshes too, from the last ([`MeshBuilder::all_beside`]).
pub(crate) fn owned_scene_to_model(
    file: File,
    scene: Scene<'static>,
    options: &ConvertOptions,
) -> (Model, Report) {
    let (mut store, comment) = file.into_commands();
    store.freeze();
    let mut scene = Scene::attach(scene, &store);
    let losses = Losses::gather(&store, &scene);
    let begun = begin(&scene);
    let has_triangles = !scene.triangles.is_empty();
    let poses = store.view(&scene.animation_commands());
    let animated = scene.take_animations();
    let joints = &begun.model.skeleton.joints;
    let ((normals, meshes, skin), animations) = if kept_whole(&store) {
        let (normals, meshes, skin, animations) = MeshBuilder::all_beside(
            &scene,
            || normals_of(&scene),
            || convert_poses(&animated, poses, options, joints),
        );
        ((NormalFacts::of(&normals), meshes, skin), animations)
    } else {
        let detached = scene.detach();
        join(
            || {
                let (normals, meshes, skin) = make_meshes(store, detached);
                (NormalFacts::of(&normals), meshes, skin)
            },
            || convert_poses(&animated, poses, options, joints),
        )
    };
    let parts = Parts {
        normals,
        has_triangles,
        meshes,
        skin,
        animations,
        losses,
    };
    finish(begun, parts, comment.as_deref(), options)
}

/// The animations of `scene` (detached), read from `poses`, a view of the commands that
/// hold them: the segments holding poses already converted are freed as the conversion
/// moves on, and the rest when it ends, while the meshes are still being made.
fn convert_poses(
    scene: &Scene<'static>,
    mut poses: Store,
    options: &ConvertOptions,
    skeleton: &[Joint],
) -> ConvertedAnimations {
    // Poses are read in file order when every animation's frames follow the ones before;
    // otherwise nothing is freed before the end.
    let mut next_release = match in_file_order(&scene.animations) {
        true => 0,
        false => usize::MAX,
    };
    let read = |i: usize| {
        let command = scene.pose_command(i)?;
        if i >= next_release {
            let later = command..usize::MAX;
            poses.release(std::slice::from_ref(&later));
            next_release = i.saturating_add(PIECE);
        }
        pose_at(&poses, command)
    };
    convert_animations(&scene.animations, read, options, skeleton)
}

/// Whether the animations' frames name poses in rising order.
fn in_file_order(animations: &[SceneAnimation]) -> bool {
    let mut next = 0;
    animations
        .iter()
        .flat_map(|a| &a.frames)
        .filter(|frame| !frame.is_empty())
        .all(|frame| {
            let rising = frame.start >= next;
            next = frame.end;
            rising
        })
}

/// The meshes, freeing the commands as they are made (see [`owned_scene_to_model`]).
fn make_meshes(
    mut store: Store,
    detached: Scene<'static>,
) -> (CornerNormals, Vec<Mesh>, super::meshes::SkinCounts) {
    let scene = Scene::attach(detached, &store);
    let normals = normals_of(&scene);
    let mut builder = MeshBuilder::new(&scene);
    let later: Vec<Range<usize>> = (0..scene.meshes.len())
        .map(|mesh| scene.mesh_commands(mesh))
        .collect();
    // Vertices named by a made triangle of a mesh begun so far other than their own: files
    // name their own mesh's vertices, so this is nearly always empty (a table of every
    // vertex's first user would be 4 bytes each, 3 MB on a 118 MB IQE).
    let mut named_before = HashSet::new();
    let mut detached = scene.detach();
    store.release(&later);
    for (mesh, rest) in (0..later.len()).zip(1..) {
        let scene = Scene::attach(detached, &store);
        let pieces = pieces(&scene, mesh);
        builder.begin(&scene, mesh);
        // The mesh's vertices no triangle will name are made now, so their commands need
        // not be kept while the triangles are made.
        if let Some(m) = scene.meshes.get(mesh) {
            let own = named_by(&scene, &normals, m, &mut named_before);
            let unnamed = m.vertices.clone().filter(|&v| {
                let here = own.get(v - m.vertices.start).is_some_and(|&named| named);
                !here && !named_before.contains(&v)
            });
            builder.set_aside(&scene, unnamed, &normals);
        }
        detached = scene.detach();
        for (triangles, named) in pieces {
            let mut keep = vec![named];
            keep.extend_from_slice(&later[rest..]);
            store.release(&keep);
            let scene = Scene::attach(detached, &store);
            builder.triangles(&scene, triangles, &normals);
            detached = scene.detach();
        }
        // Only later meshes need commands now: `end` adds the vertices set aside.
        store.release(&later[rest..]);
        let scene = Scene::attach(detached, &store);
        builder.end(&scene, mesh, &normals);
        detached = scene.detach();
    }
    drop((store, detached));
    let (meshes, skin) = builder.finish();
    (normals, meshes, skin)
}

/// Which vertices of `mesh`'s own its triangles name, from its first vertex on, counting
/// the triangles [`MeshBuilder::triangles`] makes; the vertices of other meshes they name
/// are added to `elsewhere`.
fn named_by(
    scene: &Scene<'_>,
    normals: &CornerNormals,
    mesh: &SceneMesh,
    elsewhere: &mut HashSet<usize>,
) -> Vec<bool> {
    let mut named = vec![false; mesh.vertices.len()];
    for t in mesh.triangles.clone() {
        let (Some(triangle), Some(_)) = (scene.triangles.get(t), normals.corner_indices(scene, t))
        else {
            continue;
        };
        for v in triangle.vertices.map(|v| v as usize) {
            match v
                .checked_sub(mesh.vertices.start)
                .and_then(|at| named.get_mut(at))
            {
                Some(slot) => *slot = true,
                None => {
                    elsewhere.insert(v);
                }
            }
        }
    }
    named
}

/// The triangles of mesh `mesh` in pieces, each with the commands of the vertices that
/// triangles from the piece to the mesh's end name.
fn pieces(scene: &Scene<'_>, mesh: usize) -> Vec<(Range<usize>, Range<usize>)> {
    let Some(m) = scene.meshes.get(mesh) else {
        return Vec::new();
    };
    // The vertices named from each piece on, from the last piece back.
    let starts: Vec<usize> = m.triangles.clone().step_by(PIECE).collect();
    let mut pieces = Vec::with_capacity(starts.len());
    let mut named = (usize::MAX, 0);
    let mut end = m.triangles.end;
    for &start in starts.iter().rev() {
        let faces = scene.triangles.get(start..end).unwrap_or_default();
        let here = bounds(faces.iter().flat_map(|t| t.vertices).map(|v| v as usize));
        named = (named.0.min(here.0), named.1.max(here.1));
        pieces.push((start..end, scene.vertex_commands(named)));
        end = start;
    }
    pieces.reverse();
    pieces
}

/// The lowest and highest of `vertices` (`(usize::MAX, 0)` when there are none).
fn bounds(vertices: impl Iterator<Item = usize>) -> (usize, usize) {
    vertices.fold((usize::MAX, 0), |(low, high), v| (low.min(v), high.max(v)))
}
