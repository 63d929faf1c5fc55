//! Small models within what every format holds (see `rigport_model_core::strategies`)
//! written as IQE by `from_model`, read back and converted by `to_model`, come back
//! with the same meshes, triangle corners, materials and skeleton.

use proptest::prelude::*;
use rigport_iqe::{File, from_model, to_model};
use rigport_model_core::strategies::{same_content, small_model};

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn small_models_round_trip(model in small_model()) {
        let (file, _) = from_model(&model, &Default::default()).unwrap();
        let back = File::from_slice(&file.to_vec()).unwrap();
        let (back, _) = to_model(&back, &Default::default()).unwrap();
        if let Err(difference) = same_content(&model, &back) {
            return Err(TestCaseError::fail(difference));
        }
    }
}
