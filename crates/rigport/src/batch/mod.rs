//! Planning a batch run (`rigport convert|render INPUTS... -o DIR` and the other front doors'
//! batch runs): which files below the inputs are read, where each one's output goes, and
//! which inputs would clash on one output. Only paths are decided here; reading, writing
//! and running in parallel are the caller's.
//!
//! ```
//! use rigport::batch::{output_path, plan};
//! use std::path::{Path, PathBuf};
//!
//! assert_eq!(output_path(Path::new("a/hero.ms3d"), Path::new("out"), "glb"),
//!            Path::new("out/hero.glb"));
//! let inputs = [PathBuf::from("a/x.iqe"), PathBuf::from("b/x.iqe")];
//! let planned = plan(&inputs, Path::new("out"), "glb", "convert");
//! assert_eq!(planned[0].output, Ok(PathBuf::from("out/x.glb")));
//! assert!(planned[1].output.as_ref().unwrap_err().contains("also the output of a/x.iqe"));
//! ```

mod collect;

pub use collect::{
    Collected, NOT_READ, ONLY_WRITTEN, Skipped, collect, collect_inputs, skipped_summary,
};

use crate::Format;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The folder an input's companions (textures, a `.gltf`'s buffers) are looked for in: its
/// own, or `.` for a bare file name.
pub fn input_dir(input: &Path) -> PathBuf {
    match input.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `DIR/<input stem>.<extension>`.
pub fn output_path(input: &Path, dir: &Path, extension: &str) -> PathBuf {
    named(
        dir,
        input.file_stem().unwrap_or(input.as_os_str()),
        extension,
    )
}

/// `DIR/<base>.<extension>`.
fn named(dir: &Path, base: &std::ffi::OsStr, extension: &str) -> PathBuf {
    let mut name = base.to_os_string();
    name.push(".");
    name.push(extension);
    dir.join(name)
}

/// One input of a batch and where its output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    /// The input file.
    pub input: PathBuf,
    /// Its output path, or why it gets none: another input earlier in the list writes the
    /// same output.
    pub output: Result<PathBuf, String>,
}

/// Gives each input its output in `dir` ([`output_path`]). When inputs would write the same
/// output, a model claims it before an animation-only file
/// ([`Format::is_animation_only`]: `x.md5mesh` before `x.md5anim`), else the first in the list does. Another input of a different extension
/// then keeps its extension in its name (`x.md5anim` → `x.md5anim.glb`, `x.txt` beside
/// `x.ms3d` → `x.txt.glb`); one of the same extension (`a/x.iqe` and `b/x.iqe`) gets an
/// error ("…; `verb` one of them separately") instead of racing.
pub fn plan(inputs: &[PathBuf], dir: &Path, extension: &str, verb: &str) -> Vec<Planned> {
    let mut order: Vec<usize> = (0..inputs.len()).collect();
    order.sort_by_key(|&i| {
        Format::from_extension(&inputs[i]).is_some_and(Format::is_animation_only)
    });
    let mut claimed: HashMap<PathBuf, &Path> = HashMap::new();
    let mut outputs: Vec<Option<Result<PathBuf, String>>> = vec![None; inputs.len()];
    for i in order {
        let input = inputs[i].as_path();
        let plain = output_path(input, dir, extension);
        let output = match claimed.get(&plain).copied() {
            None => Ok(plain),
            Some(owner) => {
                let named = output_path_keeping_extension(input, dir, extension);
                if owner.extension() != input.extension() && !claimed.contains_key(&named) {
                    Ok(named)
                } else {
                    Err(format!(
                        "{} is also the output of {}; {verb} one of them separately",
                        plain.display(),
                        owner.display()
                    ))
                }
            }
        };
        if let Ok(path) = &output {
            claimed.insert(path.clone(), input);
        }
        outputs[i] = Some(output);
    }
    inputs
        .iter()
        .zip(outputs)
        .map(|(input, output)| Planned {
            input: input.clone(),
            output: output.unwrap_or_else(|| Err(format!("{} was not planned", input.display()))),
        })
        .collect()
}

/// `DIR/<input file name>.<extension>`: [`output_path`] keeping the input's extension.
fn output_path_keeping_extension(input: &Path, dir: &Path, extension: &str) -> PathBuf {
    named(
        dir,
        input.file_name().unwrap_or(input.as_os_str()),
        extension,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outputs(inputs: &[&str]) -> Vec<Result<PathBuf, String>> {
        let inputs: Vec<PathBuf> = inputs.iter().map(PathBuf::from).collect();
        plan(&inputs, Path::new("out"), "glb", "convert")
            .into_iter()
            .map(|p| p.output)
            .collect()
    }

    #[test]
    fn a_mesh_keeps_the_plain_name_and_its_animation_its_extension() {
        // An animation-only format and the model format of its family (an animation file
        // listed first still leaves the plain name to the model).
        let anim = Format::ALL
            .into_iter()
            .find(|f| f.is_animation_only())
            .expect("an animation-only format");
        let mesh = Format::ALL
            .into_iter()
            .find(|f| f.family() == anim.family() && !f.is_animation_only())
            .expect("its family's model format");
        let (anim, mesh) = (anim.extension(), mesh.extension());
        let inputs = [
            format!("m/bob.{anim}"),
            format!("m/bob.{mesh}"),
            format!("m/walk.{anim}"),
        ];
        let got = outputs(&inputs.each_ref().map(String::as_str));
        assert_eq!(got[0], Ok(PathBuf::from(format!("out/bob.{anim}.glb"))));
        assert_eq!(got[1], Ok(PathBuf::from("out/bob.glb")));
        assert_eq!(got[2], Ok(PathBuf::from("out/walk.glb")));
    }

    #[test]
    fn clashes_of_other_extensions_keep_theirs_and_of_the_same_one_fail() {
        let got = outputs(&["a/x.iqe", "a/x.ms3d", "b/x.iqe", "c/x.ms3d.iqe"]);
        assert_eq!(got[0], Ok(PathBuf::from("out/x.glb")));
        assert_eq!(got[1], Ok(PathBuf::from("out/x.ms3d.glb")));
        let clash = got[2].as_ref().unwrap_err();
        assert!(clash.contains("also the output of a/x.iqe"), "{clash}");
        // Its plain output is the name `a/x.ms3d` was given: it keeps its extension too.
        assert_eq!(got[3], Ok(PathBuf::from("out/x.ms3d.iqe.glb")));
    }
}
