//! A file read together with what its commands mean, for a conversion that reads the file
//! once and does not interpret it twice.

use crate::convert::{ConvertOptions, owned_scene_to_model};
use crate::error::Error;
use crate::file::{File, read_file};
use crate::read::Split;
use crate::scene::{Purpose, Scene};
use rigport_model_core::{Model, ReadOptions, Report};

/// A [`File`] with its [`Scene`] already built.
///
/// Reading a file interprets its commands to check them; [`to_model`](crate::to_model)
/// interprets them again, because a [`File`] keeps only the commands (a scene costs memory
/// that `info`, `validate` and a round trip do not need). A conversion that reads a file
/// only to convert it keeps the scene of the read instead: one pass fewer (about 5 % of
/// a 10 MB IQE → IQM), and the text can be freed before converting, as it is no longer
/// needed to point at errors.
///
/// The crate's [`CODEC`](crate::CODEC) reads through it; its tests hold it to the same
/// file, warnings, errors, model and report as [`File::from_slice_with`] + `to_model`.
#[derive(Debug)]
pub struct Interpreted {
    file: File,
    /// `file`'s scene, detached from its commands.
    scene: Scene<'static>,
}

impl Interpreted {
    /// Reads a file as [`File::from_slice_with`] does (the same file, report and errors)
    /// and keeps its scene.
    pub fn from_slice_with(
        bytes: &[u8],
        options: &ReadOptions,
    ) -> Result<(Interpreted, Report), Error> {
        Self::from_slice_split(bytes, options, Split::Auto)
    }

    /// [`Interpreted::from_slice_with`], cut into chunks as `split` says.
    pub(crate) fn from_slice_split(
        bytes: &[u8],
        options: &ReadOptions,
        split: Split,
    ) -> Result<(Interpreted, Report), Error> {
        let (file, scene, report) = read_file(bytes, options, split, Purpose::Build)?;
        Ok((Interpreted { file, scene }, report))
    }

    /// The neutral model, as [`to_model`](crate::to_model) gives it for the file read;
    /// the scene is not built again, so nothing can fail.
    pub fn into_model(self, options: &ConvertOptions) -> (Model, Report) {
        owned_scene_to_model(self.file, self.scene, options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::to_model;
    use crate::test_lines::{file_of, line};
    use proptest::prelude::*;

    /// A file of several meshes (one naming another's vertices with `fa`, one with
    /// vertices no face names), with a skeleton, base poses and an animation after them,
    /// as exporters write it.
    fn layered_file() -> Vec<u8> {
        let mut text = String::from("# Inter-Quake Export\njoint root -1\npq 0 0 0 0 0 0 1\n");
        text.push_str("joint arm 0\npq 0 1 0 0 0 0 1\n");
        for mesh in 0..5 {
            text.push_str(&format!("mesh m{mesh}\nmaterial t{}\n", mesh % 2));
            let unnamed = if mesh == 4 { 2 } else { 0 };
            for v in 0..30 + unnamed {
                let x = f64::from(v) * 0.25 + f64::from(mesh);
                text.push_str(&format!(
                    "vp {x} {} 0.5\nvt 0.{v} 0.5\nvn 0 0 1\nvb {} 0.75 1 0.25\n",
                    v % 7,
                    v % 2
                ));
            }
            for t in 0..28 {
                text.push_str(&format!("fm {t} {} {}\n", t + 1, t + 2));
            }
            if mesh == 3 {
                text.push_str("fa 0 1 2\n");
            }
        }
        text.push_str("animation wave\nframerate 30\n");
        for frame in 0..40 {
            text.push_str(&format!(
                "frame\npq 0 0 0 0 0 0 1\npq 0 1 {} 0 0 0.1 0.995\n",
                f64::from(frame) / 40.0
            ));
        }
        text.into_bytes()
    }

    /// The conversion that frees commands as it goes gives `to_model`'s model and report,
    /// whatever segments the file is cut into; `src` must read.
    fn assert_owned_is_to_model(src: &[u8], chunks: &[usize]) {
        assert!(
            owned_is_to_model_if_read(src, chunks),
            "the file does not read"
        );
    }

    /// [`assert_owned_is_to_model`] for a file that may not read (generated ones): whether
    /// it read, and so was compared.
    fn owned_is_to_model_if_read(src: &[u8], chunks: &[usize]) -> bool {
        let options = ReadOptions::default();
        let Ok((file, _)) = File::from_slice_with(src, &options) else {
            return false;
        };
        let want = to_model(&file, &ConvertOptions::default()).unwrap();
        for &count in chunks {
            let (read, _) = Interpreted::from_slice_split(src, &options, Split::Chunks(count))
                .unwrap_or_else(|e| panic!("{count} chunks: {e}"));
            let got = read.into_model(&ConvertOptions::default());
            assert_eq!(got, want, "{count} chunks");
        }
        true
    }

    #[test]
    fn freeing_segments_as_meshes_are_made_changes_no_model() {
        assert_owned_is_to_model(&layered_file(), &[1, 2, 3, 7, 40, 400]);
    }

    /// A face of one mesh may name a vertex of a later one (`fa`, a forward index): that
    /// vertex is then no vertex the later mesh's faces leave unnamed.
    #[test]
    fn a_face_naming_a_later_meshs_vertex_converts_alike() {
        // Weights summing to one half are counted as they are made: a vertex made twice
        // would count twice.
        let vertex = |p: &str| format!("vp {p}\nvb 0 0.5\n");
        let mut text =
            String::from("# Inter-Quake Export\njoint root -1\npq 0 0 0 0 0 0 1\nmesh a\n");
        for p in ["0 0 0", "1 0 0", "0 1 0"] {
            text.push_str(&vertex(p));
        }
        text.push_str("fa 0 1 6\nmesh b\n");
        for p in ["0 0 1", "1 0 1", "0 1 1", "1 1 1"] {
            text.push_str(&vertex(p));
        }
        text.push_str("fm 0 1 2\n");
        assert_owned_is_to_model(text.as_bytes(), &[1, 2, 3]);
    }

    proptest! {
        // About one generated file in six reads (the others test the errors elsewhere):
        // enough cases that some 40 are compared.
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_file_converts_alike_owned_and_borrowed(
            lines in proptest::collection::vec(line(), 0..60),
            chunks in proptest::collection::vec(1usize..30, 1..4),
        ) {
            owned_is_to_model_if_read(&file_of(&lines, false), &chunks);
        }
    }
}
