//! The codec helpers' own tests.
use super::*;
use std::collections::BTreeMap;

#[test]
fn locations_read_as_people_expect() {
    assert_eq!(
        Location::in_text(b"a\nbc d", 5),
        Location::Text { line: 2, column: 4 }
    );
    let e = FormatError::new("smd", Location::Text { line: 3, column: 7 }, "bad number");
    assert_eq!(e.to_string(), "smd: 3:7: bad number");
    let e = FormatError::new("iqm", Location::Unknown, "too many joints");
    assert_eq!(e.to_string(), "iqm: too many joints");
}

#[test]
fn text_errors_render_with_the_line_and_a_caret() {
    let src = b"version 1\r\nnodes\r\n  0 \"root\" x\r\n";
    let e = FormatError::new("smd", Location::in_text(src, 29), "expected a number");
    let shown = e.render(src);
    assert!(shown.contains("--> 3:12"), "{shown}");
    assert!(shown.contains("0 \"root\" x"), "{shown}");
    assert!(shown.ends_with('^'), "{shown}");
    let binary = FormatError::new("iqm", Location::Offset(8), "bad");
    assert_eq!(binary.render(b"whatever"), "iqm: byte 8: bad");
}

#[test]
fn wrapped_errors_keep_their_source() {
    let io = std::io::Error::other("boom");
    let e = FormatError::wrap("md5mesh", Location::Offset(3), io);
    assert_eq!(e.to_string(), "md5mesh: byte 3: boom");
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn overlays_answer_from_memory_first() {
    let mut under = BTreeMap::new();
    under.insert("eyes.png".to_owned(), b"eyes".to_vec());
    under.insert("skin.png".to_owned(), b"disk".to_vec());
    let held = [("skin.png", &b"held"[..])];
    let overlay = Overlay::new(held, Some(&under));
    assert_eq!(overlay.get("skin.png").as_deref(), Some(&b"held"[..]));
    assert_eq!(overlay.get("eyes.png").as_deref(), Some(&b"eyes"[..]));
    assert_eq!(overlay.size("skin.png"), Some(4));
    assert_eq!(overlay.names(), ["skin.png", "eyes.png"]);
    let alone = Overlay::new(std::iter::empty(), None);
    assert!(alone.get("skin.png").is_none() && alone.names().is_empty());
}

#[test]
fn plain_errors_show_the_crate_message() {
    let io = std::io::Error::other("too many joints");
    let e = FormatError::wrap_plain("iqm", Location::Offset(4), io);
    assert_eq!(e.render(b"whatever"), "too many joints");
    assert_eq!(e.to_string(), "iqm: byte 4: too many joints");
    let text = FormatError::new("smd", Location::Text { line: 1, column: 1 }, "bad")
        .with_rendered("drawn by the crate");
    assert_eq!(text.render(b"x"), "drawn by the crate");
}

#[test]
#[cfg(unix)]
fn a_folder_lists_its_files_and_links_to_files_once() {
    use std::os::unix::fs::symlink;
    let dir = std::env::temp_dir().join(format!("rigport-folder-list-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("textures")).unwrap();
    std::fs::write(dir.join("skin.png"), b"png").unwrap();
    std::fs::write(dir.join("Body.TGA"), b"tga").unwrap();
    symlink(dir.join("skin.png"), dir.join("linked.png")).unwrap();
    symlink(dir.join("textures"), dir.join("linked-folder")).unwrap();
    symlink(dir.join("gone.png"), dir.join("dangling.png")).unwrap();
    let folder = Folder::new(&dir);
    assert_eq!(folder.names(), ["Body.TGA", "linked.png", "skin.png"]);
    // Listed once: a file made later is not listed, though it is read by name.
    std::fs::write(dir.join("later.png"), b"later").unwrap();
    assert_eq!(folder.names(), ["Body.TGA", "linked.png", "skin.png"]);
    assert_eq!(folder.size("later.png"), Some(5));
    assert_eq!(folder, Folder::new(&dir), "equal whether listed or not");
    assert_eq!(Folder::new(&dir).names().len(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn companion_names() {
    assert_eq!(stem_of("hero.md5mesh"), "hero");
    assert_eq!(stem_of(".hidden"), ".hidden");
    assert_eq!(stem_of("noext"), "noext");
    assert_eq!(file_safe("run/fast 2"), "run_fast_2");
    assert_eq!(file_safe(".."), "__");
    assert_eq!(file_safe(""), "_");
}

#[test]
fn a_companion_beside_takes_the_main_stem_unless_that_name_is_taken() {
    let mut files = WrittenFiles::new("hero.psk", b"m".to_vec(), "mesh");
    assert_eq!(
        files.beside("psa", "anims", b"a".to_vec(), "2 animations"),
        "hero.psa"
    );
    // The main file already holds `<stem>.psa` (ignoring case): the part names the companion.
    let mut clash = WrittenFiles::new("Hero.PSA", b"m".to_vec(), "mesh");
    assert_eq!(
        clash.beside("psa", "anims", b"a".to_vec(), "2 animations"),
        "Hero_anims.psa"
    );
    let mut report = Report::default();
    let names: Vec<String> = files
        .finish(&mut report)
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(names, ["hero.psk", "hero.psa"]);
    assert_eq!(
        report.notices[0].message,
        "wrote hero.psk (mesh), hero.psa (2 animations)"
    );
}
