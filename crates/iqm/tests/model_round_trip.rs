//! Small models within what every format holds (see `rigport_model_core::strategies`)
//! written as IQM by `from_model`, read back and converted by `to_model`, come back with
//! the same meshes, triangle corners, materials and skeleton.

rigport_test_support::round_trip_test!(rigport_iqm);
