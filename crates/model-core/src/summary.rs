//! The format-independent facts `rigport info` prints about a file.

/// Counts and notes one format crate reports about a file it read, in the shape of
/// `rigport info --json`. Every count describes the file *as stored* (e.g. MilkShape vertex
/// records, not unified vertices).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileSummary {
    /// Format key: `"ms3d"`, `"ms3d-ascii"` or `"iqe"`.
    pub format: &'static str,
    /// Meshes (MilkShape groups, IQE `mesh` commands).
    pub meshes: u64,
    /// Vertex records as stored.
    pub vertices: u64,
    /// Triangles (after fanning polygons, for IQE).
    pub triangles: u64,
    /// Materials.
    pub materials: u64,
    /// Joints.
    pub joints: u64,
    /// Animations.
    pub animations: u64,
    /// The file's frame count (MilkShape total frames; IQE frames over all animations).
    pub frames: u64,
    /// Morph targets of the model the file reads as, as `(mesh, target)` names.
    pub morph_targets: Vec<(String, String)>,
    /// Animated morph-target weight tracks of that model, as `(animation, mesh)` names.
    pub weight_tracks: Vec<(String, String)>,
    /// Warnings the reader raised.
    pub warnings: Vec<String>,
    /// Further human-readable facts, in display order (`("version", "4")`, names, blocks…).
    pub details: Vec<(String, String)>,
}

impl FileSummary {
    /// These counts with the messages of `report` (a read's warnings) added to the warnings.
    pub fn with_warnings_of(mut self, report: &crate::Report) -> Self {
        self.warnings
            .extend(report.notices.iter().map(|n| n.message.clone()));
        self
    }

    /// The counts of a neutral model, with the report's messages as warnings: what a format
    /// whose file counts are the model's own reports.
    pub fn of_model(format: &'static str, model: &crate::Model, report: &crate::Report) -> Self {
        let frames = model
            .animations
            .iter()
            .map(crate::Animation::frame_count)
            .sum::<u64>();
        Self {
            format,
            meshes: model.meshes.len() as u64,
            vertices: model.vertex_count() as u64,
            triangles: model.triangle_count() as u64,
            materials: model.materials.len() as u64,
            joints: model.skeleton.len() as u64,
            animations: model.animations.len() as u64,
            frames: if model.animations.is_empty() {
                0
            } else {
                frames
            },
            morph_targets: Vec::new(),
            weight_tracks: Vec::new(),
            warnings: report.notices.iter().map(|n| n.message.clone()).collect(),
            details: Vec::new(),
        }
        .with_morphs_of(model)
    }

    /// These counts with the morph targets and weight tracks of `model` (the model the
    /// file reads as) named.
    pub fn with_morphs_of(mut self, model: &crate::Model) -> Self {
        self.morph_targets = model
            .meshes
            .iter()
            .flat_map(|m| {
                m.morph_targets
                    .iter()
                    .map(|t| (m.name.clone(), t.name.clone()))
            })
            .collect();
        self.weight_tracks = model
            .animations
            .iter()
            .flat_map(|a| {
                a.morph_tracks.iter().map(|t| {
                    let mesh = model
                        .meshes
                        .get(t.mesh.index())
                        .map_or("", |m| m.name.as_str());
                    (a.name.clone(), mesh.to_owned())
                })
            })
            .collect();
        self
    }
}
