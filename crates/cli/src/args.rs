//! Command-line arguments.

use crate::format_arg::FormatArg;
use clap::{Args, Parser, Subcommand};
use rigport_dataset::picture::{CameraConvention, DepthFormat, Passes, RenderError, Rgb, View};
use std::path::PathBuf;

/// Inspect, validate, convert and draw skeletal models.
///
/// The formats each command names in its help come from the library's format registry
/// ([`Cli::command_with_formats`]), so a format added there is listed everywhere.
#[derive(Debug, Parser)]
#[command(name = "rigport", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses the process's arguments against [`Cli::command_with_formats`], exiting with
    /// clap's message and code 2 on a usage error (as `Parser::parse` does).
    pub fn parse_with_formats() -> Cli {
        use clap::FromArgMatches;
        let matches = Self::command_with_formats().get_matches();
        Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
    }

    /// The command line with every format list of its help made from the registry: the
    /// formats read (`rigport --help`, and after each reading command's help) and the keys
    /// `convert` writes (its summary line).
    pub fn command_with_formats() -> clap::Command {
        use clap::CommandFactory;
        use rigport::{Format, UpAxis};
        let read: Vec<Format> = Format::ALL.into_iter().filter(|f| f.can_read()).collect();
        let keys = |formats: &[Format]| -> String {
            formats
                .iter()
                .map(|f| f.key())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let written: Vec<Format> = Format::ALL.into_iter().filter(|f| f.can_write()).collect();
        let mut list = String::from("Formats read (detected from the content):\n");
        for format in &read {
            list.push_str(&format!(
                "  {:<11} {}\n",
                format.key(),
                format.description()
            ));
        }
        let up = |axis: UpAxis| -> Vec<Format> {
            let known = Format::ALL.into_iter().filter(|f| f.is_enabled());
            known.filter(|f| f.up_axis() == axis).collect()
        };
        let axes = format!(
            "Up axes: Z for {}; Y for {}.",
            keys(&up(UpAxis::Z)),
            keys(&up(UpAxis::Y))
        );
        let read_keys = format!("Formats read: {}.", keys(&read));
        Cli::command()
            .about("Inspect, validate, convert and draw skeletal models (the formats below).")
            .after_help(list)
            .mut_subcommand("info", |c| c.after_help(read_keys.clone()))
            .mut_subcommand("validate", |c| c.after_help(read_keys.clone()))
            .mut_subcommand("render", |c| c.after_help(format!("{read_keys}\n{axes}")))
            .mut_subcommand("convert", |c| {
                c.about(format!(
                    "Convert models between formats ({})",
                    keys(&written)
                ))
                .after_help(format!(
                    "{read_keys} Formats written: {}.\n{axes}",
                    keys(&written)
                ))
            })
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Summarize model files: counts, names, optional blocks, warnings.
    ///
    /// The format is detected from the content, not the extension.
    Info(InfoArgs),
    /// Convert models between formats.
    ///
    /// `rigport convert IN OUT` converts one file, the format taken from OUT's extension or
    /// `--to`. `rigport convert INPUTS... --to FORMAT -o DIR` converts files and directories
    /// (recursed) in parallel. The input's format is detected from the content; a .gltf's
    /// external .bin and images are read from its folder, and a glTF's embedded images are
    /// written beside non-glTF outputs as `<output stem>_<image>.png`.
    Convert(ConvertArgs),
    /// Read files strictly and list every problem with its location.
    Validate(ValidateArgs),
    /// Draw a posed frame, a contact sheet or an animated PNG of an animation, or orbit
    /// views with depth, normal and mask passes for a whole asset library.
    ///
    /// `rigport render IN OUT.png` draws one file; `rigport render INPUTS... -o DIR` draws
    /// files and directories (recursed) in parallel, one `DIR/<name>.png` each.
    ///
    /// Upright: every camera is placed in the model's upright frame. Y-up formats are drawn
    /// as they are; Z-up formats (each format's up axis is listed below) are seen
    /// through the turn to Y-up (x, y, z) -> (x, z, -y) that their .glb gets, so +Z of the
    /// file is up in the picture and `front` shows the side a Blender-made character faces
    /// (-Y in Blender). The axes named below are those of the upright (Y-up) frame.
    ///
    /// Cameras: `front` is an orthographic projection onto the XY plane, looking down -Z
    /// with +Y up (+X to the right), fitted to the posed model's bounds at that time with a
    /// 5 % margin, aspect kept, centred. `back`, `left`, `right` and `top` are the same
    /// camera turned: looking down +Z, +X, -X and -Y (`top` has -Z up). `iso` (the default)
    /// is a three-quarter perspective view (30 degree field of view) from front-right-above:
    /// the front camera turned 45 degrees about +Y towards +X and raised 30 degrees, fitted
    /// the same way.
    ///
    /// Asset libraries: with -o DIR, `--orbit`, `--animate` or `--metadata` give each model
    /// a folder DIR/<name>/ and write DIR/manifest.jsonl, one JSON line per input as it
    /// finishes (`"status": "ok"` with its outputs, or `"failed"` with the error; a damaged
    /// file does not stop the run). `--orbit N` writes view_00.png ... (N perspective views,
    /// 40 degree vertical field of view, evenly around the up axis starting at the front,
    /// raised --elevation degrees, each at the nearest distance where the model fills the
    /// middle 90 %; `--orbit random:N --seed S`: N cameras from a seeded SplitMix64,
    /// azimuth uniform, elevation uniform over the sphere between -20 and 60 degrees,
    /// distance 1 to 1.5 times that nearest one, the same files for the same seed) and transforms.json (instant-ngp / nerfstudio: w, h, fl_x, fl_y, cx,
    /// cy, camera_angle_x, frames[].file_path and camera-to-world transform_matrix with
    /// OpenGL camera axes, the camera looking down -Z with +Y up; world = the model's
    /// coordinates turned Y-up exactly as in its .glb). `--passes` adds view_00_depth.png
    /// (16-bit: distance from the eye along the view axis = value x integer_depth_scale of
    /// transforms.json, 0 = background), view_00_normal.png (camera-space normals, OpenGL
    /// axes, turned towards the camera, RGB = (n + 1) / 2 x 255, black background) and
    /// view_00_mask.png (8-bit coverage). `--depth-format png16|npy` writes the depth pass
    /// as nerfstudio and OpenCV load it: png16, 16-bit distance in steps of 0.001 of the
    /// model's unit (millimetres for a model in metres; a coarser power of ten when the
    /// farthest surface is beyond 65 535 steps), npy, float32 (view_00_depth.npy), and
    /// transforms.json gives `depth_unit_scale_factor` (value x factor = distance along the
    /// view axis, 0 = no surface). `--camera-convention opencv` writes the camera-to-world
    /// matrices in OpenCV camera axes (looking down +Z, +Y down) and says so in
    /// transforms.json (`"camera_convention": "opencv"`, `"transform": "camera_to_world"`);
    /// pictures and keypoints are unchanged. Every frame of transforms.json carries `view` (its
    /// index), `frame` (0) and `time` (seconds into the animation drawn, 0 for the bind
    /// pose). `--keypoints` adds keypoints.json beside transforms.json: `joints` (name,
    /// parent index or null) and per view `frames` (file_path, view, frame, time, and per
    /// joint in joint order `keypoints`: `world` [x, y, z] in the world of transforms.json,
    /// posed as the pictures are; `pixel` [u, v], sub-pixel, (0, 0) the top-left corner of
    /// the top-left pixel, pixel centres at +0.5, u right, v down, so that u = cx + fl_x x /
    /// (-z), v = cy - fl_y y / (-z) for the point (x, y, z) in camera axes; `depth` along
    /// the view as the depth pass measures it; `visibility`: "visible" when at most 5 % of
    /// the model's size (its bind-pose bounds' diagonal) behind the surface drawn at its
    /// pixel (or, off the silhouette, behind none within 2 pixels), "occluded" otherwise
    /// (behind the surface, or off the silhouette), "outside" when outside the frame), and
    /// DIR/annotations.json for the whole run in COCO keypoints form: one image per view,
    /// one annotation each (keypoints [x, y, v] with v = 2 visible, 1 occluded, 0 outside
    /// and x, y the pixel less 0.5, COCO's integer pixel centres; bbox and area from the
    /// mask; num_keypoints, iscrowd 0), and one category per distinct skeleton (the same
    /// joint names and parents), named after its first model, with the joint names as
    /// keypoints and 1-based [parent, child] bones as skeleton. `--animate` writes animation.png, an APNG with one
    /// frame per animation frame (or --fps); without --orbit and --animate the model's
    /// picture is picture.png. `--orbit --animate` draws instead every view at every frame
    /// of the animation (--anim; one frame per animation frame, or --fps, or --frames N
    /// spread evenly) into view_00/frame_0000.png ... (passes beside them as
    /// view_00/frame_0000_depth.png ...), each view's camera fitted once to the box around
    /// the model in every frame; transforms.json and keypoints.json list every picture,
    /// frame by frame, with its view, frame and time. `--views-per-frame K` draws K
    /// random cameras per frame (from --seed) instead of every orbit view. `--metadata` writes metadata.json: the `info --json` object
    /// plus up, bounds (Y-up), joint_list, animation_list and textures found and missing.
    /// `--resume` skips inputs whose manifest line says ok and whose outputs all exist whole.
    /// Pictures are renamed into place whole but not synced to disk one by one: after a
    /// machine crash, `--resume` draws again a model whose files were cut short.
    ///
    /// Drawing: z-buffer, both faces drawn, Lambert shading from a light at the camera plus
    /// ambient; the material's texture where its image is found beside the model (PNG,
    /// JPEG, BMP, TGA; found as the glTF export finds it), else vertex colours, else the
    /// material's diffuse colour; 4 samples per pixel. Default pose: the bind pose of a model
    /// without animations, else the first frame of the first animation.
    #[command(long_about)]
    Render(RenderArgs),
    /// List the formats this build reads and writes (`--json`: the table the Blender
    /// add-ons and the Python package use).
    Formats(FormatsArgs),
}

/// `rigport formats`.
#[derive(Debug, Args)]
pub struct FormatsArgs {
    /// One JSON object, key → family, description, extension, extensions, reads, writes,
    /// animation_only, in the registry's order.
    #[arg(long)]
    pub json: bool,
}

/// Options shared by commands that read models.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct ReadArgs {
    /// Treat damaged or unexpected input as an error instead of a warning.
    #[arg(long)]
    pub strict: bool,
    /// Also attach the animation files beside the model that fit its skeleton, for formats
    /// that keep animations in files of their own (every such file in the model's folder
    /// whose joints are the model's, each animation named after its file).
    #[arg(long)]
    pub anims_beside: bool,
}

impl ReadArgs {
    /// The reading options these switches ask for.
    pub fn options(self) -> rigport_model_core::ReadOptions {
        rigport_model_core::ReadOptions {
            strict: self.strict,
            animations_beside: self.anims_beside,
            ..rigport_model_core::ReadOptions::default()
        }
    }
}

/// How much a command prints: the same three switches, with the same meaning, on every
/// subcommand. Errors always go to standard error; the exit code never depends on them.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct OutputArgs {
    /// Print errors only.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print every note, not only the warnings.
    #[arg(short, long)]
    pub verbose: bool,
    /// Machine-readable output: one JSON object per file per line on standard output
    /// (a file that fails gives an object with an `error` field). Overrides -q and -v.
    #[arg(long)]
    pub json: bool,
}

impl OutputArgs {
    /// The detail these switches ask for (`--json` first, then `-q`, then `-v`).
    pub fn detail(&self) -> Detail {
        match (self.json, self.quiet, self.verbose) {
            (true, _, _) => Detail::Json,
            (_, true, _) => Detail::Quiet,
            (_, _, true) => Detail::Verbose,
            _ => Detail::Default,
        }
    }
}

/// How much of what a command found it prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// One JSON object per file (`--json`).
    Json,
    /// Errors only (`-q`).
    Quiet,
    /// Results and warnings, with a count of what `-v` would add.
    Default,
    /// Everything (`-v`).
    Verbose,
}

/// `rigport info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Files to inspect.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Output detail.
    #[command(flatten)]
    pub output: OutputArgs,
    /// With `--json`: add `anim_details`, one `{"name", "fps", "duration"}` per animation as
    /// `convert` reads them (frames per second, seconds), so a front door can set its
    /// frame rate to the file's. Builds the model, so slower than the counts alone.
    #[arg(long, requires = "json")]
    pub anim_details: bool,
    /// Reading options.
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `rigport convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// `IN OUT` for one file; with `-o DIR`, any number of input files or directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format; by default taken from the output file's extension.
    #[arg(long, value_enum)]
    pub to: Option<FormatArg>,
    /// Batch mode: write every converted file into this directory.
    #[arg(short = 'o', long = "out-dir")]
    pub out_dir: Option<PathBuf>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
    /// Pose the model at this time in seconds (OBJ output).
    #[arg(long, conflicts_with = "frame")]
    pub time: Option<f32>,
    /// Pose the model at this frame of the animation (OBJ output).
    #[arg(long)]
    pub frame: Option<f32>,
    /// Animation to pose, by name or index (default: the first).
    #[arg(long)]
    pub anim: Option<String>,
    /// glTF output: keep texture references as URIs instead of embedding the images found
    /// beside the input (.glb) or writing them as PNG/JPEG beside the output (.gltf).
    #[arg(long)]
    pub no_embed_textures: bool,
    /// Attach the animations of FILE (any readable format, e.g. an animation-only .iqm) to
    /// the model's skeleton; joints are matched by name, or by index when FILE names none
    /// and the joint counts agree. Repeatable.
    #[arg(long = "with-anims", value_name = "FILE")]
    pub with_anims: Vec<PathBuf>,
    /// Frames per second at which glTF cubic-spline animations are resampled for targets
    /// that cannot hold their tangents (every target but glb and gltf).
    #[arg(long, default_value_t = 30.0, value_parser = parse_fps, value_name = "N")]
    pub fps: f32,
    /// MilkShape output (.ms3d, .txt), which holds one timeline: lay every animation end to
    /// end on it, each starting on the whole frame after the previous one, and report each
    /// one's frame range ("walk: frames 1-30"). Without it the first animation is written
    /// and the others are reported lost. Other targets keep every animation and ignore it.
    #[arg(long)]
    pub concat_animations: bool,
    /// Keep the source's coordinates as they are. By default a model converted between
    /// formats that stand models along different axes (listed in `rigport convert --help`) is turned so it stands in the output as it did in the source,
    /// with an `axes-converted` note.
    #[arg(long)]
    pub keep_axes: bool,
    /// Output detail: `--json` prints the conversion report as JSON, `-v` every loss and
    /// note of the report, not only the warnings and a count.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Read every input into memory instead of mapping files of 1 MiB or more. A mapped
    /// file that another program truncates or rewrites during the conversion can make it
    /// fail or stop with a bus error; a copy cannot.
    #[arg(long)]
    pub no_mmap: bool,
    /// Reading options.
    #[command(flatten)]
    pub read: ReadArgs,
}

/// `rigport validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Output detail: `-q` lists only files with errors and their errors; `-v` adds the
    /// notes (limits of other formats and the like) to the errors and warnings.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `rigport render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// `IN OUT.png` for one file; with `-o DIR`, any number of input files or directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Batch mode: write one PNG per model into this directory.
    #[arg(short = 'o', long = "out-dir")]
    pub out_dir: Option<PathBuf>,
    /// Picture size (of each sheet cell), WIDTHxHEIGHT, at most 4096 a side.
    #[arg(long, default_value = "512x512", value_parser = parse_size, value_name = "WxH")]
    pub size: (u32, u32),
    /// Camera: front, back, left, right, top or iso (see above).
    #[arg(long, default_value = "iso", value_parser = parse_view)]
    pub view: View,
    /// Pose the model at this time in seconds.
    #[arg(long, conflicts_with_all = ["frame", "sheet"])]
    pub time: Option<f32>,
    /// Pose the model at this frame of the animation (time = frame / fps).
    #[arg(long, conflicts_with = "sheet")]
    pub frame: Option<f32>,
    /// Animation to pose, by name or index (default: the first).
    #[arg(long)]
    pub anim: Option<String>,
    /// Draw N frames spread evenly over the animation, in a grid of cells of --size each.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub sheet: Option<u32>,
    /// Background colour, RRGGBB hex.
    #[arg(long, default_value = "404048", value_parser = parse_rgb, value_name = "RRGGBB")]
    pub background: Rgb,
    /// Overlay the triangles' edges.
    #[arg(long)]
    pub wire: bool,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
    /// Draw N perspective views evenly around the model's up axis, with transforms.json
    /// (needs -o DIR; see above). `random:N`: N views from --seed, azimuth uniform,
    /// elevation uniform over the sphere between -20 and 60 degrees (--elevation is not
    /// used), distance 1 to 1.5 times the nearest that fills the frame.
    #[arg(long, value_name = "N|random:N", value_parser = parse_orbit,
          requires = "out_dir", conflicts_with_all = ["sheet", "view"])]
    pub orbit: Option<OrbitArg>,
    /// Seed of the random cameras (--orbit random:N): the same seed, the same cameras.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "orbit")]
    pub seed: u64,
    /// Height of the orbit cameras above the horizontal plane, in degrees (-89 to 89).
    #[arg(long, default_value_t = 20.0, value_parser = parse_elevation, value_name = "DEG",
          allow_hyphen_values = true, requires = "orbit")]
    pub elevation: f32,
    /// Pictures to write per orbit view: a comma-separated list of color, depth, normal,
    /// mask (color is always written).
    #[arg(long, default_value = "color", value_parser = parse_passes, value_name = "LIST",
          requires = "orbit")]
    pub passes: Passes,
    /// Write the depth pass (drawn whatever --passes says) as nerfstudio and OpenCV load
    /// it: `png16`, a 16-bit grey PNG of distance / step, the step a millimetre (0.001 of
    /// the model's unit, the metre for nerfstudio) or, when the farthest surface is beyond
    /// 65.535 units, the smallest power of ten that holds it; `npy`, float32 distances in
    /// NumPy's .npy format (view_00_depth.npy). transforms.json then holds
    /// `depth_unit_scale_factor` (the step, or 1 for npy; value x factor = distance along
    /// the view axis, 0 = no surface) instead of `integer_depth_scale`. OpenEXR is not
    /// written. Without this flag, --passes depth writes the 16-bit PNG scaled to the
    /// farthest surface of the model's views (`integer_depth_scale`).
    #[arg(long, value_parser = parse_depth_format, value_name = "png16|npy",
          requires = "orbit")]
    pub depth_format: Option<DepthFormat>,
    /// Camera axes of transforms.json's camera-to-world matrices: `opengl` (nerfstudio,
    /// instant-ngp, Blender: the camera looks down its -Z, +Y up; the default) or `opencv`
    /// (COLMAP, OpenCV: looking down +Z, +Y down). Given, transforms.json also says
    /// `"camera_convention"` and `"transform": "camera_to_world"`. Pictures and keypoint
    /// pixels are the same either way.
    #[arg(long, value_parser = parse_camera_convention, value_name = "opengl|opencv",
          requires = "orbit")]
    pub camera_convention: Option<CameraConvention>,
    /// Write keypoints.json per model (each joint's world position, pixel, depth and
    /// visibility in every view) and DIR/annotations.json (COCO keypoints) for the run
    /// (see above).
    #[arg(long, requires = "orbit")]
    pub keypoints: bool,
    /// Draw the skeleton over each orbit colour picture, for checking keypoints by eye:
    /// each joint a dot at its keypoint pixel and each bone a line to its parent, green
    /// where visible, magenta where occluded, those outside the frame left out. Depth,
    /// normal and mask pictures are unchanged; keypoints.json needs --keypoints.
    #[arg(long, requires = "orbit")]
    pub draw_skeleton: bool,
    /// Write every frame of the animation (--anim, default the first) as an animated PNG.
    #[arg(long, conflicts_with_all = ["sheet", "time", "frame"])]
    pub animate: bool,
    /// Frames per second of --animate (default: the animation's own rate).
    #[arg(long, value_parser = parse_fps, value_name = "N", requires = "animate")]
    pub fps: Option<f32>,
    /// With --orbit --animate: N frames spread evenly over the animation instead of one per
    /// frame at --fps.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10000),
          requires = "animate", requires = "orbit", conflicts_with = "fps")]
    pub frames: Option<u32>,
    /// With --orbit --animate: K random cameras per frame (from --seed, as --orbit random:N
    /// places them) instead of every orbit camera at every frame.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1000),
          requires = "animate", requires = "orbit")]
    pub views_per_frame: Option<u32>,
    /// Write DIR/<name>/metadata.json per model (needs -o DIR).
    #[arg(long, requires = "out_dir")]
    pub metadata: bool,
    /// Skip inputs that DIR/manifest.jsonl lists as done and whose outputs all exist;
    /// redraw the others, replacing partial outputs (needs -o DIR).
    #[arg(long, requires = "out_dir")]
    pub resume: bool,
    /// Output detail: by default only what changes the picture (a texture not found, triangles
    /// not drawn, damaged input); `-v` adds every note and conversion loss.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Reading options.
    #[command(flatten)]
    pub read: ReadArgs,
}

/// The cameras `--orbit` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrbitArg {
    /// N views evenly around the up axis at `--elevation`.
    Ring(u32),
    /// N seeded random views (`random:N`).
    Random(u32),
}

fn parse_orbit(s: &str) -> Result<OrbitArg, String> {
    let (random, count) = match s.trim().split_once(':') {
        Some((kind, count)) if kind.eq_ignore_ascii_case("random") => (true, count),
        Some(_) => return Err(format!("`{s}` is not N or random:N")),
        None => (false, s),
    };
    match count.trim().parse::<u32>() {
        Ok(n) if (1..=1000).contains(&n) && random => Ok(OrbitArg::Random(n)),
        Ok(n) if (1..=1000).contains(&n) => Ok(OrbitArg::Ring(n)),
        _ => Err(format!("`{s}` is not N or random:N with N from 1 to 1000")),
    }
}

fn parse_elevation(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(e) if (-89.0..=89.0).contains(&e) => Ok(e),
        _ => Err(format!("`{s}` is not an elevation from -89 to 89 degrees")),
    }
}

fn parse_camera_convention(s: &str) -> Result<CameraConvention, String> {
    s.parse().map_err(|e: RenderError| e.to_string())
}

fn parse_depth_format(s: &str) -> Result<DepthFormat, String> {
    s.parse().map_err(|e: RenderError| e.to_string())
}

fn parse_passes(s: &str) -> Result<Passes, String> {
    s.parse().map_err(|e: RenderError| e.to_string())
}

/// A resampling rate: a finite number of frames per second above 0 and at most 1000.
fn parse_fps(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(fps) if rigport::pipeline::is_valid_fps(fps) => Ok(fps),
        _ => Err(format!(
            "`{s}` is not a frame rate above 0 and at most 1000"
        )),
    }
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    rigport_dataset::picture::parse_size(s).map_err(|e| e.to_string())
}

fn parse_view(s: &str) -> Result<View, String> {
    s.parse().map_err(|e: RenderError| e.to_string())
}

fn parse_rgb(s: &str) -> Result<Rgb, String> {
    s.parse().map_err(|e: RenderError| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use rigport::Format;

    fn help(path: &[&str]) -> String {
        let mut command = Cli::command_with_formats();
        for name in path {
            command = command
                .find_subcommand(name)
                .unwrap_or_else(|| panic!("no subcommand {name}"))
                .clone();
        }
        command.render_long_help().to_string()
    }

    #[test]
    fn every_help_names_every_readable_format() {
        let top = help(&[]);
        let read: Vec<Format> = Format::ALL.into_iter().filter(|f| f.can_read()).collect();
        assert!(read.len() >= 9, "{read:?}");
        for format in &read {
            assert!(
                top.contains(format.description()),
                "rigport --help: {format}\n{top}"
            );
            for command in ["info", "convert", "validate", "render"] {
                let text = help(&[command]);
                assert!(
                    text.contains(format.key()),
                    "rigport {command} --help: {format}\n{text}"
                );
            }
        }
        // The summary line of `convert` in `rigport --help` names every format it writes.
        let summary = Cli::command_with_formats()
            .find_subcommand("convert")
            .and_then(|c| c.get_about().map(ToString::to_string))
            .unwrap_or_default();
        for format in Format::ALL.into_iter().filter(|f| f.can_write()) {
            assert!(summary.contains(format.key()), "{format}: {summary}");
        }
    }
}
