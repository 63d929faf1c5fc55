//! Which way is up: each format's convention, and turning a model from one to the other.
//!
//! MilkShape, glTF and OBJ stand models along +Y; IQE, IQM, MD5 and SMD along +Z. A model
//! converted between the two is turned, and the turn is baked into the data (positions,
//! normals, root joints' bind transforms, root animation keys) rather than wrapped in a
//! node, so the output reads like a file its own tools wrote.
//!
//! Z-up → Y-up is `(x, y, z) → (x, z, −y)`, a −90° turn about X; Y-up → Z-up is its inverse.

use crate::{Model, Report};
use glam::{Quat, Vec3, Vec4};

/// The axis a model stands along. Both conventions are right-handed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UpAxis {
    /// +Y up, −Z forward (MilkShape, glTF, OBJ).
    #[default]
    Y,
    /// +Z up (IQE, IQM, MD5, SMD).
    Z,
}

impl UpAxis {
    /// `"y"` or `"z"`, as in `info --json`.
    pub const fn key(self) -> &'static str {
        match self {
            UpAxis::Y => "y",
            UpAxis::Z => "z",
        }
    }

    /// `"Y-up"` or `"Z-up"`, for people.
    pub const fn label(self) -> &'static str {
        match self {
            UpAxis::Y => "Y-up",
            UpAxis::Z => "Z-up",
        }
    }

    /// The unit vector pointing up.
    pub const fn vector(self) -> Vec3 {
        match self {
            UpAxis::Y => Vec3::Y,
            UpAxis::Z => Vec3::Z,
        }
    }

    /// The rotation that takes coordinates of this convention to `to`'s (identity when equal).
    pub fn rotation_to(self, to: UpAxis) -> Quat {
        match (self, to) {
            (UpAxis::Z, UpAxis::Y) => Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            (UpAxis::Y, UpAxis::Z) => Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
            _ => Quat::IDENTITY,
        }
    }

    /// A vector of this convention in `to`'s coordinates: exact (components are moved and
    /// negated, never multiplied).
    pub fn turn_vector(self, to: UpAxis, v: Vec3) -> Vec3 {
        match (self, to) {
            (UpAxis::Z, UpAxis::Y) => Vec3::new(v.x, v.z, -v.y),
            (UpAxis::Y, UpAxis::Z) => Vec3::new(v.x, -v.z, v.y),
            _ => v,
        }
    }
}

impl std::fmt::Display for UpAxis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

impl Model {
    /// Turns the model so that it stands along `to` and sets [`Model::up`]; does nothing when
    /// it already does. Returns whether it turned.
    ///
    /// Vertex positions and normals are turned, and so are the bind transform and every
    /// translation and rotation key (with its cubic-spline tangents) of each root joint:
    /// animation keys are absolute local poses, and only roots are relative to the model's
    /// frame. Scales are local to each joint and stay as they are, so skinning the turned
    /// model gives the turned pose of the original exactly.
    ///
    /// ```
    /// use rigport_model_core::{Model, Mesh, Vertex, UpAxis};
    /// use rigport_model_core::glam::Vec3;
    ///
    /// let mut model = Model { up: UpAxis::Z, ..Model::default() };
    /// let mut mesh = Mesh::new("pole");
    /// mesh.vertices.push(Vertex { position: Vec3::new(0.0, 0.0, 2.0), ..Vertex::default() });
    /// model.meshes.push(mesh);
    /// assert!(model.turn_to(UpAxis::Y));
    /// assert_eq!(model.meshes[0].vertices[0].position, Vec3::new(0.0, 2.0, 0.0));
    /// assert_eq!(model.up, UpAxis::Y);
    /// ```
    pub fn turn_to(&mut self, to: UpAxis) -> bool {
        let from = self.up;
        if from == to {
            return false;
        }
        let q = from.rotation_to(to);
        let turn = |v: Vec3| from.turn_vector(to, v);
        for mesh in &mut self.meshes {
            for vertex in &mut mesh.vertices {
                vertex.position = turn(vertex.position);
                vertex.normal = turn(vertex.normal);
            }
            for target in &mut mesh.morph_targets {
                target.positions.iter_mut().for_each(|p| *p = turn(*p));
                target.normals.iter_mut().for_each(|n| *n = turn(*n));
            }
        }
        let roots: Vec<bool> = self
            .skeleton
            .joints
            .iter()
            .map(|j| {
                j.parent
                    .is_none_or(|p| p.index() >= self.skeleton.joints.len())
            })
            .collect();
        for (joint, _) in self
            .skeleton
            .joints
            .iter_mut()
            .zip(&roots)
            .filter(|(_, root)| **root)
        {
            joint.translation = turn(joint.translation);
            joint.rotation = (q * joint.rotation).normalize();
        }
        let qv = Vec4::from(q);
        for animation in &mut self.animations {
            for track in &mut animation.tracks {
                if !roots.get(track.joint.index()).copied().unwrap_or(false) {
                    continue;
                }
                for key in &mut track.translations {
                    key.value = turn(key.value);
                }
                for tangent in &mut track.translation_tangents {
                    tangent.in_tangent = turn(tangent.in_tangent);
                    tangent.out_tangent = turn(tangent.out_tangent);
                }
                for key in &mut track.rotations {
                    key.value = (q * key.value).normalize();
                }
                // A tangent is a quaternion-valued derivative: left-multiplying by the turn
                // is linear, so it carries over as the keys do.
                for tangent in &mut track.rotation_tangents {
                    tangent.in_tangent = quat_mul(qv, tangent.in_tangent);
                    tangent.out_tangent = quat_mul(qv, tangent.out_tangent);
                }
            }
        }
        self.up = to;
        true
    }

    /// [`Model::turn_to`] with the `axes-converted` note ("Z-up → Y-up") in `report` when the
    /// model turned.
    pub fn turn_to_reported(&mut self, to: UpAxis, report: &mut Report) -> bool {
        let from = self.up;
        let turned = self.turn_to(to);
        if turned {
            report.info(
                crate::codes::AXES_CONVERTED,
                format!(
                    "{} → {}: the model was turned to stand as it did in its source",
                    from.label(),
                    to.label()
                ),
            );
        }
        turned
    }
}

/// The Hamilton product of two quaternions stored as `x, y, z, w` (one need not be unit).
fn quat_mul(a: Vec4, b: Vec4) -> Vec4 {
    Vec4::new(
        a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Animation, Joint, JointId, Key, Mesh, Tangents, Track, Vertex};

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn z_up_to_y_up_is_x_z_minus_y_and_back() {
        let v = Vec3::new(1.0, 2.0, 3.0);
        assert_eq!(
            UpAxis::Z.turn_vector(UpAxis::Y, v),
            Vec3::new(1.0, 3.0, -2.0)
        );
        assert_eq!(
            UpAxis::Y.turn_vector(UpAxis::Z, Vec3::new(1.0, 3.0, -2.0)),
            v
        );
        // The quaternion agrees with the exact component shuffle.
        let q = UpAxis::Z.rotation_to(UpAxis::Y);
        assert!(close(q * v, Vec3::new(1.0, 3.0, -2.0)));
        let back = UpAxis::Y.rotation_to(UpAxis::Z);
        assert!(close(back * (q * v), v));
        assert_eq!(UpAxis::Y.rotation_to(UpAxis::Y), Quat::IDENTITY);
    }

    fn sample_model() -> Model {
        let mut model = Model {
            up: UpAxis::Z,
            ..Model::default()
        };
        let mut root = Joint::new("root");
        root.translation = Vec3::new(0.0, 0.0, 1.0);
        root.rotation = Quat::from_rotation_z(0.5);
        let mut child = Joint::new("child");
        child.parent = Some(JointId(0));
        child.translation = Vec3::new(0.0, 0.0, 2.0);
        model.skeleton.joints = vec![root, child];
        let mut mesh = Mesh::new("m");
        mesh.vertices.push(Vertex {
            position: Vec3::new(0.0, 0.5, 3.0),
            normal: Vec3::Z,
            ..Vertex::default()
        });
        model.meshes.push(mesh);
        let mut animation = Animation::new("a", 10.0);
        for joint in [0, 1] {
            let mut track = Track::new(JointId(joint));
            track
                .translations
                .push(Key::new(0.0, Vec3::new(1.0, 2.0, 3.0)));
            track
                .rotations
                .push(Key::new(0.0, Quat::from_rotation_y(0.3)));
            track
                .translation_tangents
                .push(Tangents::both(Vec3::new(0.0, 1.0, 0.0)));
            animation.tracks.push(track);
        }
        model.animations.push(animation);
        model
    }

    #[test]
    fn turning_changes_vertices_roots_and_root_keys_only() {
        let mut model = sample_model();
        let before = model.clone();
        assert!(model.turn_to(UpAxis::Y));
        assert!(!model.turn_to(UpAxis::Y), "already Y-up");
        let v = &model.meshes[0].vertices[0];
        assert_eq!(v.position, Vec3::new(0.0, 3.0, -0.5));
        assert_eq!(v.normal, Vec3::Y);
        assert_eq!(
            model.skeleton.joints[0].translation,
            Vec3::new(0.0, 1.0, 0.0)
        );
        assert_eq!(
            model.skeleton.joints[1], before.skeleton.joints[1],
            "children are local"
        );
        let root = &model.animations[0].tracks[0];
        assert_eq!(root.translations[0].value, Vec3::new(1.0, 3.0, -2.0));
        assert_eq!(
            root.translation_tangents[0].in_tangent,
            Vec3::new(0.0, 0.0, -1.0)
        );
        assert_eq!(
            model.animations[0].tracks[1],
            before.animations[0].tracks[1]
        );
        // The root's world rotation is the old one turned.
        let q = UpAxis::Z.rotation_to(UpAxis::Y);
        let world = model.skeleton.joints[0].rotation;
        assert!(world.abs_diff_eq(q * before.skeleton.joints[0].rotation, 1e-6));
    }

    #[test]
    fn turning_there_and_back_gives_the_numbers_back() {
        let mut model = sample_model();
        let before = model.clone();
        model.turn_to(UpAxis::Y);
        model.turn_to(UpAxis::Z);
        assert_eq!(model.meshes, before.meshes, "vectors turn exactly");
        for (a, b) in model.skeleton.joints.iter().zip(&before.skeleton.joints) {
            assert_eq!(a.translation, b.translation);
            assert!(a.rotation.abs_diff_eq(b.rotation, 1e-6));
        }
    }

    #[test]
    fn the_note_names_both_conventions() {
        let mut model = sample_model();
        let mut report = Report::default();
        assert!(model.turn_to_reported(UpAxis::Y, &mut report));
        let notice = &report.notices[0];
        assert_eq!(notice.code, crate::codes::AXES_CONVERTED);
        assert!(
            notice.message.starts_with("Z-up → Y-up"),
            "{}",
            notice.message
        );
        let mut report = Report::default();
        assert!(!model.turn_to_reported(UpAxis::Y, &mut report));
        assert!(report.notices.is_empty());
    }
}
