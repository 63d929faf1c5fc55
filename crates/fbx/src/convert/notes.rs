//! What the report says of a scene beyond its meshes and animations: the axis and unit
//! conversion, and what the neutral model has no place for.

use rigport_model_core::{Report, codes};

/// Adds the scene's notes to `report`.
pub(crate) fn add(scene: &ufbx::Scene, report: &mut Report) {
    report.info(
        codes::AXES_CONVERTED,
        format!(
            "FBX axes (up {}, {} m per unit) converted to Y up and metres, as Blender imports it",
            up_axis(scene),
            unit_scale_factor(scene) / 100.0
        ),
    );
    if !scene.cameras.is_empty() {
        report.loss(
            codes::CAMERAS,
            format!("{} cameras are not carried", scene.cameras.len()),
        );
    }
    let mut elements = Vec::new();
    for (count, what) in [
        (scene.lights.len(), "lights"),
        (scene.nurbs_curves.len(), "NURBS curves"),
        (scene.line_curves.len(), "line curves"),
        (scene.nurbs_surfaces.len(), "NURBS surfaces"),
    ] {
        if count > 0 {
            elements.push(format!("{count} {what}"));
        }
    }
    let not_linear = scene
        .skin_deformers
        .iter()
        .filter(|s| s.skinning_method != ufbx::SkinningMethod::Linear)
        .count();
    if not_linear > 0 {
        elements.push(format!(
            "{not_linear} skins' dual-quaternion or rigid skinning (skinned linearly)"
        ));
    }
    if !elements.is_empty() {
        report.loss(
            codes::SCENE_ELEMENTS,
            format!("not carried: {}", elements.join(", ")),
        );
    }
}

/// The file's up axis as its `GlobalSettings` give it (`UpAxis`, `UpAxisSign`): `+Y`, `-Z`,
/// or `unknown` (FBX 5 files name none).
pub(crate) fn up_axis(scene: &ufbx::Scene) -> &'static str {
    let props = &scene.settings.props;
    let axis = props.find_prop("UpAxis").map(|p| p.value_int);
    let sign = props.find_prop("UpAxisSign").map_or(1, |p| p.value_int);
    match (axis, sign >= 0) {
        (Some(0), true) => "+X",
        (Some(0), false) => "-X",
        (Some(1), true) => "+Y",
        (Some(1), false) => "-Y",
        (Some(2), true) => "+Z",
        (Some(2), false) => "-Z",
        _ => axis_name(scene.settings.original_axis_up),
    }
}

/// The file's `UnitScaleFactor` (centimetres per file unit), or what ufbx took it to be.
pub(crate) fn unit_scale_factor(scene: &ufbx::Scene) -> f64 {
    let props = &scene.settings.props;
    props
        .find_prop("UnitScaleFactor")
        .map(|p| p.value_vec4.x)
        .filter(|f| f.is_finite() && *f > 0.0)
        .unwrap_or(scene.settings.original_unit_meters * 100.0)
}

/// `+Y`, `-Z`, or `unknown`.
fn axis_name(axis: ufbx::CoordinateAxis) -> &'static str {
    use ufbx::CoordinateAxis as A;
    match axis {
        A::PositiveX => "+X",
        A::NegativeX => "-X",
        A::PositiveY => "+Y",
        A::NegativeY => "-Y",
        A::PositiveZ => "+Z",
        A::NegativeZ => "-Z",
        _ => "unknown",
    }
}
