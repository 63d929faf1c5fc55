//! Small models within what every format holds (see `rigport_model_core::strategies`)
//! written as MilkShape 3D ASCII by `from_model`, read back and converted by `to_model`, come back
//! with the same meshes, triangle corners, materials and skeleton.

use rigport_model_core::strategies::check_round_trip;
use rigport_ms3d_ascii::{File, from_model, to_model};

#[test]
fn small_models_round_trip() {
    check_round_trip(|model| {
        let (file, _) = from_model(model, &Default::default()).unwrap();
        let back = File::from_slice(&file.to_vec()).unwrap();
        to_model(&back, &Default::default()).unwrap().0
    });
}
