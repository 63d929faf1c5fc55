//! The format contract every rigport format crate passes (`rigport_test_support::
//! format_contract!`): small models within what every format holds come back from
//! `from_model` → write → read → `to_model` with the same meshes, triangle corners,
//! materials and skeleton; the crate recognizes its own output, reads it strictly without a
//! warning and writes it back byte for byte; no cut of it makes a reader panic.

rigport_test_support::format_contract!(rigport_iqe);
