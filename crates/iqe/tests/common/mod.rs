//! Helpers shared by the integration tests.
#![allow(dead_code)]

use rigport_iqe::{File, Scene};
use std::path::PathBuf;

/// `fixtures/iqe` of the workspace.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/iqe")
}

/// The bytes of a fixture.
pub fn fixture_bytes(name: &str) -> Vec<u8> {
    std::fs::read(fixtures_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A fixture read leniently, panicking with the rendered error otherwise.
pub fn fixture(name: &str) -> File {
    let bytes = fixture_bytes(name);
    File::from_slice(&bytes).unwrap_or_else(|e| panic!("{}", e.render(&bytes)))
}

/// A fixture's interpretation (the file it borrows lives until the test process ends).
pub fn scene(name: &str) -> Scene<'static> {
    let file: &'static File = Box::leak(Box::new(fixture(name)));
    file.scene().expect(name)
}
