//! `wgpu-noise preview`: a window where the noise moves live and every parameter is one
//! key away; with `--frames`/`--screenshot` it runs unattended (render, save, exit).
//!
//! [`view`] holds what a frame depends on (pure state, no window), [`render`] draws it
//! (swapchain or offscreen for screenshots), [`panel`] is the control panel drawn over it;
//! this module is the window and its input.

mod iso;
mod panel;
pub mod render;
mod thumbs;
pub mod view;
pub mod watch;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::{ElementState, KeyEvent, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, OwnedDisplayHandle};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

use crate::bake::{self, BakeOptions, CpuSource, NoiseSpec};
use crate::editor::export::ValuesFile;
use crate::field::{FlagField, MAX_OCTAVES};
use crate::graph::Program;
use crate::{FieldOutput, NoiseKind};

use self::iso::{IsoKey, IsoRequest, IsoWorker};
use self::panel::{Notice, Painted, Panel, Request, Visibility};
use self::render::{write_png, Frame, PendingGraph, Renderer};
use self::thumbs::ThumbnailWorker;
use self::view::{Picture, View, ZOOM_STEP};
use self::watch::{GraphWatch, Reload};
use super::{FractalArg, NoiseOptions};
use crate::editor::orbit::{self, Orbit};
use crate::editor::readout;
use crate::editor::share::{self, SharedView};
use crate::editor::terrain;

/// The keys, as shown in the window title and printed at the start.
const HELP: &str =
    "N kind · 2/3/4 dims · +/- octaves · M fractal · W warp · F flow · C curl · T tile · ↑/↓ frequency · [/] seed · \
                    Space pause · R reset · drag pan (terrain: orbit) · wheel zoom · S screenshot · H/Tab panel · Esc quit";
/// What the graph editor holds when no `--graph` file is given.
pub const DEFAULT_GRAPH: &str = r#"{
  "version": 1,
  "output": "n",
  "nodes": {
    "n": {"type": "fbm", "source": {"type": "simplex"}, "octaves": 4}
  }
}
"#;
/// What to run instead when no window can be opened.
const BAKE_HINT: &str = "`wgpu-noise bake` writes the same noise to an image file without a window";
/// How often the title's frame statistics are refreshed.
const STATS_PERIOD: Duration = Duration::from_millis(500);
/// Longest clock step between two frames: after a stall (minimised, dragged window) the
/// animation resumes where it was instead of jumping.
const MAX_FRAME_STEP: f64 = 0.1;
/// An unattended run that has not finished by then has a window that never draws.
const UNATTENDED_TIMEOUT: Duration = Duration::from_secs(120);
/// How often a minimised window is checked for a restore.
const MINIMISED_POLL: Duration = Duration::from_millis(250);
/// Pixels of a touchpad scroll that count as one wheel notch.
const PIXELS_PER_NOTCH: f64 = 40.0;
/// How often a graph compiling off the event loop is looked at while nothing moves.
const COMPILE_POLL: Duration = Duration::from_millis(50);
/// The readout's range is computed again (65 536 samples on the CPU) at most this often
/// while the picture moves.
const RANGE_PERIOD: Duration = Duration::from_millis(500);

/// Arguments of `wgpu-noise preview`.
#[derive(Args, Debug)]
#[command(
    after_help = "Keys: N kind (classic/simplex/cellular) · 2/3/4 dimensions · +/- octaves · M fBm/turbulence/ridged · \
W domain warp · F flow noise · C curl noise (flow-map colours) · T tileable · \
Up/Down frequency · [/] seed · Space pause · R reset · drag pan (the terrain view: orbit) · wheel zoom · S screenshot · H/Tab control panel · Esc/Q quit

With --graph FILE the graph decides the noise (the kind, fractal, warp, flow, curl and tile keys \
do nothing); the file is reloaded when it changes, and a bad edit is reported while the last \
good graph stays on screen.

Examples:
  wgpu-noise preview --noise classic --dims 3 --octaves 4
  wgpu-noise preview --graph examples/graphs/marble.json
  wgpu-noise preview --graph examples/graphs/island.json --frequency 4 --view terrain --ramp terrain
  wgpu-noise preview --dims 4 --time 2.5 --frames 3 --screenshot frame.png"
)]
pub struct PreviewArgs {
    #[command(flatten)]
    pub noise: NoiseOptions,
    /// Lattice cells across the window's width (the height spans the same cells per pixel).
    #[arg(long, default_value_t = 8.0, allow_negative_numbers = true)]
    pub frequency: f64,
    /// Fractal octaves (1 = the base noise).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_OCTAVES as i64), allow_negative_numbers = true)]
    pub octaves: u32,
    /// How octaves combine.
    #[arg(long, value_enum, default_value = "fbm")]
    pub fractal: FractalArg,
    /// Start time in seconds (the animation adds speed × time to x in 2D, z in 3D, w in 4D).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub time: f64,
    /// Lattice cells per second along the animated axis.
    #[arg(long, default_value_t = share::DEFAULT_SPEED, allow_negative_numbers = true)]
    pub speed: f64,
    /// Window size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "800x600", value_parser = parse_window_size)]
    pub size: PhysicalSize<u32>,
    /// Render N frames and exit (the clock stays at --time, so the result is reproducible).
    #[arg(long, allow_hyphen_values = true, value_parser = super::whole_number::<u64>)]
    pub frames: Option<u64>,
    /// Save the last frame to this PNG and exit (after --frames frames, default 1).
    #[arg(long, value_name = "FILE")]
    pub screenshot: Option<PathBuf>,
    /// Replace the --screenshot file if it exists.
    #[arg(long, requires = "screenshot")]
    pub force: bool,
    /// Present as fast as possible instead of at the display's refresh rate.
    #[arg(long)]
    pub no_vsync: bool,
    /// Start with curl noise shown as a flow map (the `C` key; 2D and 3D): R, G (, B) =
    /// the curl's x, y (, z) components over -8..8, as `bake --curl -o flow.png` writes.
    #[arg(long)]
    pub curl: bool,
    /// Start with tileable noise (the `T` key): one tile of whole cells across the window,
    /// the animation looping every 4 cells along z (3D) or w (4D).
    #[arg(long)]
    pub tileable: bool,
    /// The colours of the value: gray, or a colour map (the panel changes it; a curl flow
    /// map keeps its own colours).
    #[arg(long, value_name = "RAMP", value_parser = super::ramp_parser(), default_value = "gray")]
    pub ramp: crate::ramp::ColourRamp,
    /// Draw a noise graph file (JSON, docs/graphs.md) instead of --noise and the fractal
    /// options, reloading it whenever it changes.
    #[arg(long, value_name = "FILE", conflicts_with_all = GRAPH_CONFLICTS)]
    pub graph: Option<PathBuf>,
    /// The control panel at the start (H and Tab show and hide it); default shown, hidden
    /// with --frames or --screenshot.
    #[arg(long, value_enum)]
    pub panel: Option<Visibility>,
    /// How the frame is drawn: flat, a graph's value as a lit terrain, or a 3D graph's
    /// surface at --level (iso; the views of a graph are, without --graph, the editor's
    /// graph's); the panel switches it.
    #[arg(long, value_enum, default_value = "2d")]
    pub view: Picture,
    /// The terrain view's camera at the start: YAW,PITCH,DISTANCE (degrees, degrees, world
    /// units; yaw 0 looks north from the south, pitch 90 straight down; the mesh's longer
    /// side is 2).
    #[arg(long, value_name = "YAW,PITCH,DISTANCE", value_parser = parse_camera, allow_hyphen_values = true)]
    pub camera: Option<Orbit>,
    /// The iso view's level at the start: the graph's value on the surface drawn (-4 to 4).
    #[arg(long, default_value_t = 0.0, value_parser = parse_level, allow_hyphen_values = true)]
    pub level: f64,
    /// Open a share link (the editor page's address with its `#` fragment, or the fragment
    /// alone): its graph, seed, cells across the window's width, colour ramp, view, camera,
    /// level, pan, dimensions, clock (time, speed, paused) and relief.
    #[arg(long, value_name = "LINK", conflicts_with_all = LINK_CONFLICTS)]
    pub link: Option<String>,
    /// The editor page's address that the panel's "copy share link" puts before the
    /// link's fragment.
    #[arg(long, value_name = "URL", default_value = share::PAGE_URL)]
    pub page_url: String,
}

/// `--level`: a number within the iso view's range.
fn parse_level(s: &str) -> std::result::Result<f64, String> {
    let (low, high) = crate::editor::isosurface::LEVEL_RANGE;
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|l| (low..=high).contains(l))
        .ok_or_else(|| format!("the level must be a number from {low} to {high}, not {s:?}"))
}

/// `--camera YAW,PITCH,DISTANCE`: finite numbers within the camera's ranges.
fn parse_camera(s: &str) -> std::result::Result<Orbit, String> {
    let numbers: Vec<f64> = s
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| format!("expected YAW,PITCH,DISTANCE (three numbers), got {s:?}"))?;
    let [yaw, pitch, distance] = numbers[..] else {
        return Err(format!(
            "expected YAW,PITCH,DISTANCE (three numbers), got {s:?}"
        ));
    };
    let (low, high) = orbit::PITCH_RANGE;
    let (near, far) = orbit::DISTANCE_RANGE;
    if !yaw.is_finite() {
        return Err(format!(
            "the yaw must be a finite number of degrees, not {yaw}"
        ));
    }
    if !(low.to_degrees()..=high.to_degrees()).contains(&pitch) {
        return Err(format!(
            "the pitch must be {:.2} to {} degrees, not {pitch}",
            low.to_degrees(),
            high.to_degrees()
        ));
    }
    if !(near..=far).contains(&distance) {
        return Err(format!(
            "the distance must be {near} to {far}, not {distance}"
        ));
    }
    Ok(Orbit::new(yaw.to_radians(), pitch.to_radians(), distance))
}

/// The options `--graph` replaces (clap argument ids).
const GRAPH_CONFLICTS: [&str; 5] = ["kind", "octaves", "fractal", "curl", "tileable"];
/// The options `--link` replaces: `--graph`'s and what a link holds (clap argument ids).
const LINK_CONFLICTS: [&str; 15] = [
    "kind",
    "octaves",
    "fractal",
    "curl",
    "tileable",
    "graph",
    "dims",
    "seed",
    "frequency",
    "ramp",
    "view",
    "camera",
    "level",
    "time",
    "speed",
];

fn parse_window_size(s: &str) -> std::result::Result<PhysicalSize<u32>, String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, got {s:?}"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| (1..=16384).contains(&n))
    };
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok(PhysicalSize::new(w, h)),
        _ => Err(format!(
            "expected WIDTHxHEIGHT with each side 1 to 16384, got {s:?}"
        )),
    }
}

/// Runs the subcommand.
pub fn run(args: PreviewArgs) -> Result<()> {
    if !(args.frequency.is_finite() && args.frequency > 0.0) {
        bail!(
            "--frequency must be a positive number, not {}",
            crate::bake::shortest(args.frequency)
        );
    }
    if !args.time.is_finite() || !args.speed.is_finite() {
        bail!("--time and --speed must be finite numbers");
    }
    if args.page_url.contains(['#', ' ']) || args.page_url.is_empty() {
        bail!(
            "--page-url {:?}: give the page's address, without spaces or a `#` fragment",
            args.page_url
        );
    }
    let mut view = initial_view(&args);
    let link = match &args.link {
        Some(link) => Some(open_link(link, &mut view, args.size)?),
        None => None,
    };
    // A --time so large that the animated axis loses its resolution is refused, as bake
    // refuses such offsets (Field::validate).
    if let Err(e) = view.drawn_field(args.size.width, args.size.height) {
        bail!("--time {}: {e}", args.time);
    }
    if args.tileable {
        // The T key may toggle tiling where it does not apply (the view says so); an option
        // asked for at the start is refused instead of being ignored.
        if args.noise.kind == super::KindArg::Simplex && args.noise.dims == 4 {
            bail!("--tileable: simplex noise tiles in 2D and 3D only (give --dims 2 or 3, or --noise classic or cellular)");
        }
        if args.curl {
            bail!("--tileable and --curl: curl noise does not tile");
        }
    }
    if args.curl && args.noise.dims == 4 {
        bail!("--curl: curl noise is 2D or 3D (give --dims 2 or 3)");
    }
    if args.frames == Some(0) {
        bail!("--frames must be at least 1");
    }
    if let Some(path) = &args.screenshot {
        check_screenshot_path(path, args.force)?;
    }
    let graph = match (&args.graph, link) {
        (_, Some(graph)) => Some(graph),
        (Some(path), None) => Some(GraphWatch::open(path, args.noise.dims as usize)?),
        // The terrain is a graph's: the editor's, which the panel shows.
        (None, None) if args.view == Picture::Terrain => Some(
            GraphWatch::typed(DEFAULT_GRAPH, args.noise.dims as usize)
                .map_err(|why| anyhow!("the editor's graph: {why}"))?,
        ),
        (None, None) => None,
    };
    super::quiet_xdg_runtime_dir();
    check_display()?;
    let event_loop = EventLoop::new()
        .map_err(|e| anyhow!("cannot open a window ({}); {BAKE_HINT}", window_error(&e)))?;
    let mut app = App::new(&args, view, event_loop.owned_display_handle(), graph);
    event_loop
        .run_app(&mut app)
        .map_err(|e| anyhow!("the window's event loop failed: {e}"))?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `--link LINK`: its view shown in `view` (a frame of `size`) and its graph, lowered for
/// the view; the error names what is wrong with it.
fn open_link(
    link: &str,
    view: &mut View,
    size: PhysicalSize<u32>,
) -> Result<(GraphWatch, Program)> {
    let shared = SharedView::from_link(link).map_err(|why| anyhow!("--link: {why}"))?;
    view.show_shared(&shared, size.width)
        .map_err(|e| anyhow!("--link: {e}"))?;
    // A pan or clock so far out that the frame's pixels are no longer distinct points is
    // refused, as a graph's bake refuses such offsets (Field::validate).
    view.field(size.width, size.height)
        .grid
        .validate()
        .map_err(|e| anyhow!("--link: its pan and clock: {e}"))?;
    GraphWatch::typed(&shared.graph, view.dims)
        .map_err(|why| anyhow!("--link: its graph in {}D: {why}", view.dims))
}

/// The view the window opens with.
fn initial_view(args: &PreviewArgs) -> View {
    View {
        kind: args.noise.kind.into(),
        dims: args.noise.dims as usize,
        seed: args.noise.seed,
        octaves: args.octaves,
        mode: args.fractal.into(),
        lacunarity: crate::field::Fractal::default().lacunarity,
        gain: crate::field::Fractal::default().gain,
        step: args.frequency / args.size.width as f64,
        pan: [0.0, 0.0],
        time: args.time,
        speed: args.speed,
        paused: false,
        warp: 0.0,
        warp_iterations: 1,
        flow: false,
        flow_rate: view::PREVIEW_FLOW_RATE,
        output: if args.curl {
            crate::FieldOutput::Curl
        } else {
            crate::FieldOutput::Value
        },
        tiled: args.tileable,
        ramp: args.ramp,
        graph: None,
        picture: args.view,
        camera: args.camera.unwrap_or_default(),
        relief: terrain::DEFAULT_RELIEF,
        level: args.level,
    }
}

/// `--screenshot FILE`, before a window opens: a `.png` name (the file is a PNG), and a
/// file that does not exist yet unless `--force` (as `bake` checks its output).
fn check_screenshot_path(path: &std::path::Path, force: bool) -> Result<()> {
    let png = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if !png {
        bail!(
            "--screenshot {}: screenshots are PNG files; give the name a .png extension",
            path.display()
        );
    }
    crate::bake::file::check_target(path, force).map_err(screenshot_exists_hint)
}

/// `bake`'s hint for an existing output, with this command's flag.
fn screenshot_exists_hint(e: crate::NoiseError) -> anyhow::Error {
    match e {
        crate::NoiseError::OutputExists(path) => anyhow!(
            "{} already exists; pass --force to overwrite it",
            path.display()
        ),
        other => other.into(),
    }
}

/// winit's own message without the source location it prepends to OS errors ("os error at
/// /…/winit-0.30.13/src/…/mod.rs:788: Failed to open connection to X server"): a path
/// on the machine that built the binary tells the user nothing.
fn window_error(e: &dyn std::fmt::Display) -> String {
    let text = e.to_string();
    if let Some(rest) = text.strip_prefix("os error at ") {
        // The location is `FILE:LINE: `; the message follows the first `:DIGITS: `.
        let mut search = 0;
        while let Some(colon) = rest[search..].find(':').map(|i| i + search) {
            let after = &rest[colon + 1..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && after[digits..].starts_with(": ") {
                return after[digits + 2..].to_string();
            }
            search = colon + 1;
        }
    }
    text
}

/// On X11/Wayland systems, a missing display is named before winit tries to connect.
fn check_display() -> Result<()> {
    if cfg!(all(
        unix,
        not(target_os = "macos"),
        not(target_os = "android")
    )) {
        let set = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            bail!("no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set); {BAKE_HINT}");
        }
    }
    Ok(())
}

/// The window, its surface and the device drawing into it.
struct Gfx {
    /// The node view's thumbnails, filled off the event loop (first: dropped, and its
    /// thread ended, before the device and the window).
    thumbnails: ThumbnailWorker,
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    device: wgpu::Device,
    queue: wgpu::Queue,
    renderer: Renderer,
    panel: Panel,
    /// The pipelines of the latest graph change, compiling off the event loop (the window
    /// draws the last good ones meanwhile).
    compiling: Option<Compiling>,
    /// Whether compiles include the terrain's pipelines (the terrain view was asked for).
    terrain: bool,
    /// The iso view's surfaces, filled and extracted off the event loop (started when the
    /// view is first shown).
    iso: Option<IsoWorker>,
}

/// A graph change compiling ([`PendingGraph`]), and who hears how it went.
struct Compiling {
    pending: PendingGraph,
    /// `view.graph` once it is drawn (the uniforms must match the pipelines).
    shows: Option<String>,
    report: Report,
}

/// Who hears how a graph change's compile went.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Report {
    /// An edit of the `--graph` file: `reloaded FILE` once it is drawn, or its error
    /// (stderr and title).
    File,
    /// The panel editor's graph: an error is shown in the editor.
    Editor,
    /// A switch between the graph and the settings: an error goes to stderr and the title.
    Switch,
}

impl Gfx {
    /// Compiles the pipelines of `graph` (the settings for `None`) off the event loop; they
    /// are drawn, and `view.graph` becomes `shows`, once they are in
    /// ([`App::finish_compile`]). A compile still pending is superseded: its pipelines are
    /// never drawn. `report` `None` (the graph lowered again for other dimensions) reports
    /// in place of the superseded change.
    fn compile(&mut self, graph: Option<&Program>, shows: Option<String>, report: Option<Report>) {
        let report = report
            .or(self.compiling.as_ref().map(|c| c.report))
            .unwrap_or(Report::Switch);
        self.compiling = Some(Compiling {
            pending: self.renderer.compile(graph, self.terrain),
            shows,
            report,
        });
    }
}

/// The uniforms of a frame: the flat view's, and the terrain's or the iso view's when
/// one is shown.
struct FrameUniforms {
    flat: view::PreviewUniforms,
    terrain: Option<terrain::TerrainUniforms>,
    iso: Option<crate::editor::iso::IsoUniforms>,
}

impl FrameUniforms {
    fn frame(&self, size: [u32; 2]) -> Frame<'_> {
        Frame {
            flat: &self.flat,
            terrain: self.terrain.as_ref(),
            iso: self.iso.as_ref(),
            size,
        }
    }
}

/// What the readout's range was computed for.
#[derive(Debug, PartialEq)]
struct RangeKey {
    program: Program,
    seed: u64,
    placement: terrain::Placement,
}

/// Frames counted over the current statistics period.
struct Stats {
    since: Instant,
    frames: u32,
    pixels: u64,
    /// Last measured: milliseconds per frame and samples (pixels) per second.
    shown: Option<(f64, f64)>,
}

struct App {
    display: OwnedDisplayHandle,
    size: PhysicalSize<u32>,
    present_mode: wgpu::PresentMode,
    initial: View,
    view: View,
    /// `Some(n)`: unattended, exit after `n` frames.
    frames: Option<u64>,
    screenshot: Option<PathBuf>,
    /// `--force`: the `--screenshot` file may replace an existing one.
    overwrite_screenshot: bool,
    gfx: Option<Gfx>,
    error: Option<anyhow::Error>,
    started: Instant,
    drawn: u64,
    last_frame: Option<Instant>,
    /// No frame before this instant (the surface said it is occluded or timed out).
    hold_until: Option<Instant>,
    stats: Stats,
    cursor: PhysicalPosition<f64>,
    /// The cursor's last place over the picture (not the panel), for the readout.
    pointer: Option<PhysicalPosition<f64>>,
    /// The readout's range: what it was computed for, when, and the range.
    range: Option<(RangeKey, Instant, (f32, f32))>,
    dragging: bool,
    /// `--graph`: the watched file, and its last good graph lowered for `view.dims` (drawn
    /// now, or once its pipelines are in: `Gfx::compiling`).
    graph: Option<(GraphWatch, Program)>,
    /// Why the last graph change is not drawn (shown in the title until the file's next
    /// good edit).
    graph_error: Option<String>,
    /// The least and greatest value of the iso view's cube whose surface is drawn.
    iso_range: Option<(f32, f32)>,
    /// The control panel at the start.
    panel_start: Visibility,
    /// The last graph the panel saved: its file and text (the bake command names it while
    /// the editor holds that text).
    saved_graph: Option<(PathBuf, String)>,
    /// `--page-url`: the address share links are made for.
    page_url: String,
}

impl App {
    fn new(
        args: &PreviewArgs,
        mut view: View,
        display: OwnedDisplayHandle,
        graph: Option<(GraphWatch, Program)>,
    ) -> Self {
        view.graph = graph.as_ref().map(|(watch, _)| watch.name());
        let unattended = args.frames.is_some() || args.screenshot.is_some();
        App {
            display,
            size: args.size,
            present_mode: if args.no_vsync {
                wgpu::PresentMode::AutoNoVsync
            } else {
                wgpu::PresentMode::AutoVsync
            },
            initial: view.clone(),
            view,
            frames: unattended.then(|| args.frames.unwrap_or(1)),
            screenshot: args.screenshot.clone(),
            overwrite_screenshot: args.force,
            gfx: None,
            error: None,
            started: Instant::now(),
            drawn: 0,
            last_frame: None,
            hold_until: None,
            stats: Stats {
                since: Instant::now(),
                frames: 0,
                pixels: 0,
                shown: None,
            },
            cursor: PhysicalPosition::new(0.0, 0.0),
            pointer: None,
            range: None,
            dragging: false,
            graph,
            graph_error: None,
            iso_range: None,
            panel_start: args.panel.unwrap_or(if unattended {
                Visibility::Hidden
            } else {
                Visibility::Shown
            }),
            saved_graph: None,
            page_url: args.page_url.clone(),
        }
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, error: anyhow::Error) {
        self.error.get_or_insert(error);
        event_loop.exit();
    }

    fn init(&mut self, event_loop: &ActiveEventLoop) -> Result<Gfx> {
        let attributes = Window::default_attributes()
            .with_title("wgpu-noise preview")
            .with_inner_size(self.size)
            .with_min_inner_size(PhysicalSize::new(1, 1));
        let window =
            Arc::new(event_loop.create_window(attributes).map_err(|e| {
                anyhow!("cannot open a window ({}); {BAKE_HINT}", window_error(&e))
            })?);
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
                Box::new(self.display.clone()),
            ));
        let surface = instance
            .create_surface(window.clone())
            .context("cannot draw into the window")?;
        let adapter = pollster::block_on(wgpu::util::initialize_adapter_from_env_or_default(
            &instance,
            Some(&surface),
        ))
        .map_err(|e| {
            anyhow!("no GPU adapter can draw into a window ({e}); {BAKE_HINT} (with --backend cpu)")
        })?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("wgpu-noise preview device"),
            // The node view times each node's fill with timestamps where the adapter has them.
            required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .context("cannot create a device on the adapter")?;
        let caps = surface.get_capabilities(&adapter);
        // A linear 8-bit format shows the same bytes a screenshot saves; sRGB ones work too
        // (the shader pre-decodes), other formats are used as they come.
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| {
                matches!(
                    f,
                    wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Rgba8Unorm
                )
            })
            .or_else(|| caps.formats.first().copied())
            .ok_or_else(|| anyhow!("the adapter cannot present to this window; {BAKE_HINT}"))?;
        let size = window.inner_size();
        let max = device.limits().max_texture_dimension_2d;
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.clamp(1, max),
            height: size.height.clamp(1, max),
            present_mode: self.present_mode,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        if size.width > 0 && size.height > 0 {
            surface.configure(&device, &config);
        }
        let terrain = self.view.showing_terrain();
        let renderer = Renderer::new(
            &device,
            &queue,
            self.view.seed,
            format,
            self.graph.as_ref().map(|(_, program)| program),
            terrain,
        )?;
        if self.frames.is_none() {
            outln!(
                "wgpu-noise preview on {} — keys: {HELP}",
                adapter.get_info().name
            )?;
        }
        let editor = match &self.graph {
            Some((watch, _)) => watch.text().to_string(),
            None => DEFAULT_GRAPH.to_string(),
        };
        let panel = Panel::new(&window, &device, format, self.panel_start, editor);
        let thumbnails = ThumbnailWorker::start(&device, &queue);
        Ok(Gfx {
            thumbnails,
            window,
            surface,
            config,
            device,
            queue,
            renderer,
            panel,
            compiling: None,
            terrain,
            iso: None,
        })
    }

    /// The terrain view asked for by the panel or a key: the graph drawn now is compiled
    /// again with the terrain's pipelines (the flat view meanwhile).
    fn sync_terrain(&mut self) {
        let Some(gfx) = self.gfx.as_mut() else {
            return;
        };
        let wanted = self.view.picture == Picture::Terrain;
        if wanted == gfx.terrain {
            return;
        }
        gfx.terrain = wanted;
        let shows = gfx
            .compiling
            .as_ref()
            .map_or_else(|| self.view.graph.clone(), |c| c.shows.clone());
        if wanted && shows.is_some() && !gfx.renderer.has_terrain() {
            let program = self.graph.as_ref().map(|(_, program)| program);
            gfx.compile(program, shows, None);
        }
    }

    /// The iso view's surface for a frame of `size` pixels: asked of the worker when the
    /// graph, the seed, the cube or the level changed (the last mesh stays drawn until the
    /// new one is back); a surface back is drawn from now on, its error goes to the title
    /// as a graph's does.
    fn sync_iso(&mut self, size: [u32; 2]) -> Result<()> {
        if !self.view.showing_iso() {
            return Ok(());
        }
        let (Some((watch, _)), Some(gfx)) = (&self.graph, self.gfx.as_mut()) else {
            return Ok(());
        };
        let cube = self.view.uniforms(size[0], size[1])?.iso_cube(size);
        let key = IsoKey {
            text: watch.graph_text().to_string(),
            seed: self.view.seed,
            cube,
            level: self.view.level,
        };
        let worker = gfx
            .iso
            .get_or_insert_with(|| IsoWorker::start(&gfx.device, &gfx.queue));
        if worker.asked() != Some(&key) {
            match watch.program(3) {
                Ok(program) => worker.ask(IsoRequest { key, program }),
                Err(why) => {
                    let why = format!("the iso view: {why}");
                    errln!("{why}")?;
                    self.graph_error = Some(why);
                }
            }
        }
        for done in worker.take() {
            self.iso_range = done.range;
            match done.mesh {
                Ok(mesh) => gfx
                    .renderer
                    .set_iso_mesh(&gfx.device, &mesh, &done.key.cube),
                Err(why) => {
                    let why = format!("the iso view: {why}");
                    errln!("{why}")?;
                    self.graph_error = Some(why);
                }
            }
        }
        Ok(())
    }

    /// Whether the iso view's surface asked for last is still being computed.
    fn iso_busy(&self) -> bool {
        self.view.showing_iso()
            && self
                .gfx
                .as_ref()
                .and_then(|g| g.iso.as_ref())
                .is_some_and(IsoWorker::busy)
    }

    /// The panel's readout for a frame of `size` pixels: the graph's value and gradient
    /// under the pointer and the range drawn (recomputed when the graph, the seed or the
    /// placement changed; while the picture moves, at most every [`RANGE_PERIOD`]); none
    /// for the settings' noise or while the panel is hidden.
    fn update_readout(&mut self, size: [u32; 2]) {
        let shown = self
            .gfx
            .as_ref()
            .is_some_and(|g| g.panel.visibility == Visibility::Shown);
        let readout = if shown { self.readout(size) } else { None };
        if let Some(gfx) = self.gfx.as_mut() {
            gfx.panel.readout = readout;
        }
    }

    fn readout(&mut self, size: [u32; 2]) -> Option<readout::Readout> {
        let (watch, program) = self.graph.as_ref().filter(|_| self.view.graph.is_some())?;
        let iso = self.view.showing_iso();
        let dims = if iso { 3 } else { self.view.dims };
        let mut sampler = watch.sampler(dims, self.view.seed).ok()?;
        let flat = self.view.uniforms(size[0], size[1]).ok()?;
        let placement = flat.terrain_placement(size, self.view.relief);
        if iso {
            // The surface drawn: the point where the cursor's ray crosses it, the range of
            // the cube its mesh was extracted from.
            let surface = readout::IsoSurfaceAt {
                cube: flat.iso_cube(size),
                level: self.view.level as f32,
            };
            let point = self.pointer.and_then(|at| {
                let camera = &self.view.camera;
                readout::iso_point(&mut sampler, &surface, camera, size, [at.x, at.y])
            });
            return Some(readout::Readout {
                cursor: self.pointer.map(|at| [at.x, at.y]),
                probe: point.map(|p| readout::probe(&mut sampler, p)),
                range: self.iso_range?,
            });
        }
        let point = self.pointer.and_then(|at| {
            let cursor = [at.x, at.y];
            if self.view.showing_terrain() {
                readout::terrain_point(&mut sampler, &placement, &self.view.camera, size, cursor)
            } else {
                let step = [flat.step[0], flat.step[1]];
                readout::flat_point(&placement, step, size, cursor)
            }
        });
        let probe = point.map(|p| readout::probe(&mut sampler, p));
        let key = RangeKey {
            program: program.clone(),
            seed: self.view.seed,
            placement,
        };
        let range = match &self.range {
            Some((last, at, range))
                if *last == key || (self.animating() && at.elapsed() < RANGE_PERIOD) =>
            {
                *range
            }
            _ => {
                let range = readout::range(&mut sampler, &placement);
                self.range = Some((key, Instant::now(), range));
                range
            }
        };
        Some(readout::Readout {
            cursor: self.pointer.map(|at| [at.x, at.y]),
            probe,
            range,
        })
    }

    /// What the current frame of `size` pixels draws: the flat view's uniform, and the
    /// terrain's when it is shown.
    fn frame_uniforms(&self, size: [u32; 2]) -> Result<FrameUniforms> {
        let flat = self.view.uniforms(size[0], size[1])?;
        let terrain = self.view.showing_terrain().then(|| {
            let placement = flat.terrain_placement(size, self.view.relief);
            terrain::uniforms(&placement, &self.view.camera, size, &flat.terrain_colours())
        });
        let iso = self
            .view
            .showing_iso()
            .then(|| crate::editor::iso::uniforms(&self.view.camera, size, flat.ramp));
        Ok(FrameUniforms { flat, terrain, iso })
    }

    /// Draws one frame; in unattended mode, counts it and finishes after the last.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let Some(gfx) = self.gfx.as_mut() else {
            return Ok(());
        };
        let size = gfx.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return Ok(()); // minimised: nothing to draw into
        }
        if (size.width, size.height) != (gfx.config.width, gfx.config.height) {
            let max = gfx.device.limits().max_texture_dimension_2d;
            gfx.config.width = size.width.min(max);
            gfx.config.height = size.height.min(max);
            gfx.surface.configure(&gfx.device, &gfx.config);
        }
        let now = Instant::now();
        if self.frames.is_none() {
            if let Some(last) = self.last_frame {
                self.view
                    .tick((now - last).as_secs_f64().min(MAX_FRAME_STEP));
            }
        }
        self.last_frame = Some(now);
        let (width, height) = (gfx.config.width, gfx.config.height);
        let (frame, suboptimal) = match gfx.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) => (t, false),
            wgpu::CurrentSurfaceTexture::Suboptimal(t) => (t, true),
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                self.hold_until = Some(now + Duration::from_millis(50));
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                gfx.surface.configure(&gfx.device, &gfx.config);
                gfx.window.request_redraw();
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Validation => bail!("wgpu rejected the window's surface"),
        };
        // The panel's pass only for a frame that is drawn: its texture updates (the font
        // atlas first) must reach its renderer.
        self.update_readout([width, height]);
        let painted = self.run_panel(width, height)?;
        self.sync_terrain();
        self.sync_iso([width, height])?;
        let uniforms = self.frame_uniforms([width, height])?;
        let iso_busy = self.iso_busy();
        let Some(gfx) = self.gfx.as_mut() else {
            return Ok(());
        };
        let target = frame.texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("preview swapchain view"),
            ..Default::default()
        });
        let mut encoder = gfx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("preview frame encoder"),
            });
        let drawn = uniforms.frame([width, height]);
        gfx.renderer
            .draw_window(&gfx.device, &gfx.queue, &mut encoder, &target, drawn);
        if let Some(painted) = painted {
            gfx.panel.paint(
                &gfx.device,
                &gfx.queue,
                &mut encoder,
                &target,
                [width, height],
                painted,
            );
        }
        gfx.queue.submit([encoder.finish()]);
        gfx.panel.compiling = gfx.compiling.is_some();
        gfx.panel.frames = self.drawn + 1;
        gfx.panel.iso_busy = iso_busy;
        gfx.panel
            .write_layout()
            .context("writing the panel layout (WGPU_NOISE_PANEL_LAYOUT)")?;
        gfx.window.pre_present_notify();
        gfx.queue.present(frame);
        if suboptimal {
            gfx.surface.configure(&gfx.device, &gfx.config);
        }
        self.drawn += 1;
        self.count_frame(width, height);
        if let Some(total) = self.frames {
            // An unattended run ends on a frame that shows the iso view's surface.
            if self.drawn >= total && !self.iso_busy() {
                if let Some(path) = self.screenshot.clone() {
                    self.save_screenshot(&path, self.overwrite_screenshot)?;
                }
                event_loop.exit();
            }
        }
        Ok(())
    }

    fn count_frame(&mut self, width: u32, height: u32) {
        let animating = self.animating();
        let stats = &mut self.stats;
        if !animating {
            // Paused frames come only on input: their spacing measures the user, not the
            // renderer. Keep the last measurement and start afresh on resume.
            stats.since = Instant::now();
            stats.frames = 0;
            stats.pixels = 0;
            return;
        }
        stats.frames += 1;
        stats.pixels += width as u64 * height as u64;
        let elapsed = stats.since.elapsed();
        if elapsed >= STATS_PERIOD {
            let secs = elapsed.as_secs_f64();
            stats.shown = Some((
                1000.0 * secs / stats.frames as f64,
                stats.pixels as f64 / secs,
            ));
            stats.since = Instant::now();
            stats.frames = 0;
            stats.pixels = 0;
            self.update_title();
        }
    }

    /// Title: what is shown, how fast, and the keys.
    fn update_title(&self) {
        let Some(gfx) = &self.gfx else { return };
        let speed = match self.stats.shown {
            Some((ms, samples)) => {
                format!(
                    "{ms:.1} ms ({:.1} fps), {:.1} M samples/s",
                    1000.0 / ms,
                    samples / 1e6
                )
            }
            None => "measuring…".to_string(),
        };
        let error = match &self.graph_error {
            Some(why) => format!(" — graph error (the last good graph stays): {why}"),
            None => String::new(),
        };
        gfx.window.set_title(&format!(
            "wgpu-noise — {}{error} — {speed} — {HELP}",
            self.view.describe(gfx.config.width)
        ));
    }

    /// Looks at the `--graph` file: a good edit is compiled and drawn once its pipelines
    /// are in (the last good graph meanwhile), a bad one is reported (stderr and title)
    /// while the last good graph stays. The edit becomes the last good graph at once (the
    /// dimension keys lower it); only a compile error (rare) keeps an older one drawn.
    fn reload_graph(&mut self) -> Result<()> {
        let Some((watch, program)) = self.graph.as_mut() else {
            return Ok(());
        };
        match watch.look(self.view.dims) {
            Reload::Unchanged => Ok(()),
            Reload::Loaded(new) => {
                *program = new;
                match self.gfx.as_mut() {
                    Some(gfx) => {
                        gfx.compile(Some(program), Some(watch.name()), Some(Report::File));
                        Ok(())
                    }
                    // No window yet: it opens with this graph.
                    None => {
                        self.view.graph = Some(watch.name());
                        self.report(Report::File, Ok(()))
                    }
                }
            }
            Reload::Failed(why) => self.report(Report::File, Err(why)),
        }
    }

    /// Draws with the pipelines of the latest graph change once they are compiled, and
    /// reports how it went.
    fn finish_compile(&mut self) -> Result<()> {
        let Some(gfx) = self.gfx.as_mut() else {
            return Ok(());
        };
        let Some(compiling) = &gfx.compiling else {
            return Ok(());
        };
        let Some(outcome) = gfx.renderer.adopt(&compiling.pending) else {
            return Ok(());
        };
        let report = compiling.report;
        if outcome.is_ok() {
            self.view.graph = compiling.shows.clone();
        }
        gfx.compiling = None;
        self.report(report, outcome.map_err(|e| format!("{e:#}")))
    }

    /// Tells `report` how a graph change went (drawn now, or why not: the last good graph
    /// stays).
    fn report(&mut self, report: Report, outcome: std::result::Result<(), String>) -> Result<()> {
        let path = self
            .graph
            .as_ref()
            .and_then(|(w, _)| w.path())
            .map_or_else(String::new, |p| p.display().to_string());
        match (report, outcome) {
            (Report::File, Ok(())) => {
                self.graph_error = None;
                if let (Some(gfx), Some((watch, _))) = (self.gfx.as_mut(), &self.graph) {
                    // The file's edit is the graph drawn now: the editor shows it.
                    gfx.panel.editor.set_text(watch.text().to_string());
                }
                errln!("reloaded {path}")?;
            }
            (Report::File, Err(why)) => {
                errln!("error: --graph {path}: {why}; the last good graph stays")?;
                self.graph_error = Some(why);
            }
            (Report::Editor, Err(why)) => {
                if let Some(gfx) = self.gfx.as_mut() {
                    gfx.panel.editor.error = Some(why);
                    gfx.panel.editor.fault = None;
                }
            }
            (Report::Switch, Err(why)) => {
                errln!("error: {why}; the last good graph stays")?;
                self.graph_error = Some(why);
            }
            (Report::Editor | Report::Switch, Ok(())) => {}
        }
        self.update_title();
        if let Some(gfx) = &self.gfx {
            gfx.window.request_redraw();
        }
        Ok(())
    }

    /// Lowers the last good graph again for `view.dims` (a dimension key) and draws it.
    fn relower_graph(&mut self) -> std::result::Result<(), String> {
        let Some((watch, program)) = self.graph.as_mut() else {
            return Ok(());
        };
        *program = watch.program(self.view.dims)?;
        // A graph kept while the settings are drawn (and stay) is only lowered.
        if let Some(gfx) = self.gfx.as_mut() {
            let shows = gfx
                .compiling
                .as_ref()
                .map_or_else(|| self.view.graph.clone(), |c| c.shows.clone());
            if shows.is_some() {
                gfx.compile(Some(program), shows, None);
            }
        }
        Ok(())
    }

    /// Renders the current frame offscreen at the window's size and saves it (replacing
    /// an existing file only with `overwrite`).
    fn save_screenshot(&self, path: &std::path::Path, overwrite: bool) -> Result<()> {
        let gfx = self
            .gfx
            .as_ref()
            .ok_or_else(|| anyhow!("no window to take a screenshot of"))?;
        let (width, height) = (gfx.config.width, gfx.config.height);
        let uniforms = self.frame_uniforms([width, height])?;
        let frame = uniforms.frame([width, height]);
        let pixels = gfx.renderer.screenshot(&gfx.device, &gfx.queue, frame)?;
        write_png(path, width, height, &pixels, overwrite)?;
        errln!(
            "saved {} ({width}×{height}, {})",
            path.display(),
            self.view.describe(width)
        )?;
        Ok(())
    }

    /// Bakes the values of a `width` × `height` frame (the field drawn, before its colours;
    /// the terrain's heightmap in the 3D view) with the CPU reference into the first free
    /// `wgpu-noise-preview-NNN` file of `file`'s kind: what `wgpu-noise bake --backend cpu`
    /// writes for the frame's bake command.
    fn save_values(&self, file: ValuesFile, width: u32, height: u32) -> Result<PathBuf> {
        let view = &self.view;
        let field = view.field(width, height);
        let spec = match &self.graph {
            Some((_, program)) if view.graph.is_some() => {
                NoiseSpec::new(program.clone(), field.grid.clone(), view.seed)
            }
            _ if view.showing_curl() => NoiseSpec::of_flags(
                &FlagField::on(field.grid.clone(), NoiseKind::Simplex),
                FieldOutput::Curl,
                view.seed,
            )?,
            _ => NoiseSpec::of_flags(&field, FieldOutput::Value, view.seed)?,
        };
        let path = next_free_path(file.extension());
        let options = BakeOptions::new(file.encoding());
        let report = bake::bake(
            &spec,
            &mut CpuSource::new(),
            &path,
            &options,
            &mut |_, _| {},
        )?;
        errln!(
            "saved {} ({width}×{height}, {}, {} samples in [{}, {}])",
            path.display(),
            view.describe(width),
            report.samples,
            report.min,
            report.max
        )?;
        Ok(path)
    }

    /// Handles a pressed key; returns whether the picture changed.
    fn key(&mut self, event_loop: &ActiveEventLoop, event: &KeyEvent) -> Result<bool> {
        let view_before = self.view.clone();
        let dims_before = self.view.dims;
        let graph_before = self.view.graph.clone();
        let view = &mut self.view;
        // Held keys repeat only the stepping ones (octaves, frequency, seed), never a
        // toggle or a screenshot.
        let repeatable = matches!(
            event.logical_key.as_ref(),
            Key::Named(NamedKey::ArrowUp | NamedKey::ArrowDown)
                | Key::Character("+" | "=" | "-" | "_" | "[" | "]")
        );
        if event.repeat && !repeatable {
            return Ok(false);
        }
        match event.logical_key.as_ref() {
            Key::Named(NamedKey::Escape) => event_loop.exit(),
            Key::Named(NamedKey::Space) => {
                view.paused = !view.paused;
                // The clock resumes from where it stopped, not from the time the pause lasted.
                self.last_frame = None;
                self.stats = Stats {
                    since: Instant::now(),
                    frames: 0,
                    pixels: 0,
                    shown: self.stats.shown,
                };
            }
            Key::Named(NamedKey::Tab) => self.toggle_panel(),
            Key::Named(NamedKey::ArrowUp) => self.zoom_at_centre(1.0 / ZOOM_STEP),
            Key::Named(NamedKey::ArrowDown) => self.zoom_at_centre(ZOOM_STEP),
            Key::Character(c) => match c.to_lowercase().as_str() {
                "q" => event_loop.exit(),
                "n" => {
                    view.kind = match view.kind {
                        crate::NoiseKind::Classic => crate::NoiseKind::Simplex,
                        crate::NoiseKind::Simplex => crate::NoiseKind::Cellular,
                        crate::NoiseKind::Cellular => crate::NoiseKind::Value,
                        // Not among the flags' kinds (a graph node only).
                        crate::NoiseKind::Value | crate::NoiseKind::SuperSimplex => {
                            crate::NoiseKind::Classic
                        }
                    }
                }
                "2" => view.dims = 2,
                "3" => view.dims = 3,
                "4" => view.dims = 4,
                "+" | "=" => view.add_octaves(1),
                "-" | "_" => view.add_octaves(-1),
                "m" => view.next_mode(),
                "w" => view.toggle_warp(),
                "f" => view.flow = !view.flow,
                "c" => view.toggle_curl(),
                "t" => view.tiled = !view.tiled,
                "]" => view.seed = view.seed.wrapping_add(1),
                "[" => view.seed = view.seed.wrapping_sub(1),
                "r" => {
                    *view = self.initial.clone();
                    self.last_frame = None;
                }
                "h" => self.toggle_panel(),
                "s" => {
                    let path = next_screenshot_path();
                    // A free name; should one appear meanwhile, it is not replaced.
                    match self.save_screenshot(&path, false) {
                        Ok(()) => {}
                        // A failed screenshot is reported; the preview goes on.
                        Err(e) => errln!("error: screenshot: {e:#}")?,
                    }
                    return Ok(false);
                }
                _ => return Ok(false),
            },
            _ => return Ok(false),
        }
        if self.view.dims != dims_before {
            if let Err(why) = self.relower_graph() {
                errln!("error: the graph in {}D: {why}", self.view.dims)?;
                self.view.dims = dims_before;
            }
        }
        if let Some(gfx) = self.gfx.as_mut() {
            // A key that leads where the window cannot draw is refused, as a panel edit is.
            if let Err(e) = self.view.drawn_field(gfx.config.width, gfx.config.height) {
                errln!("error: {e}")?;
                self.view = view_before;
                return Ok(false);
            }
            gfx.renderer.set_seed(&gfx.queue, self.view.seed);
            // `R` returns to the launch's source (the settings or the --graph file's graph)
            // whichever the panel picked since, once its pipelines are in.
            if self.view.graph.is_some() != graph_before.is_some() {
                let shows = std::mem::replace(&mut self.view.graph, graph_before);
                let graph = match &shows {
                    Some(_) => self.graph.as_ref().map(|(_, program)| program),
                    None => None,
                };
                gfx.compile(graph, shows, Some(Report::Switch));
            }
        }
        Ok(true)
    }

    /// `H` and `Tab`: shows or hides the control panel.
    fn toggle_panel(&mut self) {
        if let Some(gfx) = self.gfx.as_mut() {
            let next = gfx.panel.visibility.toggled();
            gfx.panel.set_visibility(next);
        }
    }

    /// The panel's pass for a `width` × `height` frame, if it is shown: its controls change
    /// the view (a change the field refuses is undone and reported in the panel), and its
    /// requests are carried out before the frame is drawn.
    fn run_panel(&mut self, width: u32, height: u32) -> Result<Option<Painted>> {
        let Some(gfx) = self.gfx.as_mut() else {
            return Ok(None);
        };
        if gfx.panel.visibility == Visibility::Hidden {
            return Ok(None);
        }
        let before = self.view.clone();
        // Thumbnails back from the worker are shown in this pass; the sub-graphs of this
        // pass's edits are asked for after it.
        let thumbnails = self.view.thumbnails(width, height);
        gfx.panel
            .thumbnails(&mut gfx.thumbnails, thumbnails, self.view.ramp);
        let (requests, painted) = gfx.panel.run(&gfx.window, &mut self.view, [width, height]);
        let thumbnails = self.view.thumbnails(width, height);
        gfx.panel
            .thumbnails(&mut gfx.thumbnails, thumbnails, self.view.ramp);
        if self.view != before {
            if let Err(e) = self.view.drawn_field(width, height) {
                self.view = before.clone();
                gfx.panel.notice = Some(Notice::Failed(e.to_string()));
            }
            if self.view.paused != before.paused {
                // The clock resumes from where it stopped (as with Space).
                self.last_frame = None;
            }
            gfx.renderer.set_seed(&gfx.queue, self.view.seed);
            if self.view.dims != before.dims {
                if let Err(why) = self.relower_graph() {
                    self.view.dims = before.dims;
                    if let Some(gfx) = self.gfx.as_mut() {
                        gfx.panel.notice = Some(Notice::Failed(format!(
                            "the graph in {}D: {why}",
                            self.view.dims
                        )));
                    }
                }
            }
            self.update_title();
        }
        // A graph the requests compile comes with the terrain's pipelines if it was picked.
        self.sync_terrain();
        for request in requests {
            self.carry_out(request, width)?;
        }
        Ok(Some(painted))
    }

    /// Does what a panel button or edit asked for.
    fn carry_out(&mut self, request: Request, width: u32) -> Result<()> {
        let Some(gfx) = self.gfx.as_mut() else {
            return Ok(());
        };
        match request {
            Request::UseSettings => {
                gfx.compile(None, None, Some(Report::Switch));
            }
            Request::ApplyGraph => {
                let text = gfx.panel.editor.text.clone();
                // A good graph is the last good graph at once, drawn once it is compiled.
                match watch::lower_graph(&text, self.view.dims) {
                    Ok((graph, program)) => {
                        gfx.panel.editor.set_error(None);
                        match &mut self.graph {
                            Some((watch, lowered)) => {
                                watch.adopt(graph, &text);
                                *lowered = program;
                            }
                            None => {
                                self.graph = Some(
                                    GraphWatch::typed(&text, self.view.dims)
                                        .map_err(|why| anyhow!("{why}"))?,
                                );
                            }
                        }
                        if let Some((watch, program)) = &self.graph {
                            gfx.compile(Some(program), Some(watch.name()), Some(Report::Editor));
                        }
                    }
                    // The last good graph stays drawn; the node at fault is marked.
                    Err(why) => gfx.panel.editor.set_error(Some(&why)),
                }
            }
            Request::SavePng => {
                let path = next_screenshot_path();
                let notice = match self.save_screenshot(&path, false) {
                    Ok(()) => Notice::Done(format!("saved {}", path.display())),
                    Err(e) => {
                        errln!("error: screenshot: {e:#}")?;
                        Notice::Failed(format!("{e:#}"))
                    }
                };
                self.set_notice(notice);
            }
            Request::SaveValues(file) => {
                let height = gfx.config.height;
                let notice = match self.save_values(file, width, height) {
                    Ok(path) => Notice::Done(format!("saved {}", path.display())),
                    Err(e) => {
                        errln!("error: save {}: {e:#}", file.label())?;
                        Notice::Failed(format!("{e:#}"))
                    }
                };
                self.set_notice(notice);
            }
            Request::SaveGraph => {
                let text = gfx.panel.editor.text.clone();
                let notice = match save_new_file(next_graph_path, &text) {
                    Ok(path) => {
                        errln!("saved {}", path.display())?;
                        let shown = format!("saved {}", path.display());
                        self.saved_graph = Some((path, text));
                        Notice::Done(shown)
                    }
                    Err(e) => Notice::Failed(format!("save graph: {e}")),
                };
                self.set_notice(notice);
            }
            Request::ShareLink => {
                // The graph drawn: the last good one (the editor's text may be a bad edit).
                let graph = self.graph.as_ref().filter(|_| self.view.graph.is_some());
                let notice = match graph {
                    Some((watch, _)) => {
                        let shared = self.view.shared(watch.graph_text(), width);
                        let link = shared.link(&self.page_url);
                        outln!("{link}")?;
                        gfx.panel.copy(&link);
                        Notice::Done(link)
                    }
                    None => Notice::Failed(
                        "a share link is of a graph: draw the editor's graph first".into(),
                    ),
                };
                self.set_notice(notice);
            }
            Request::BakeCommand => {
                let height = gfx.config.height;
                let editor = &gfx.panel.editor.text;
                // The graph's file: the one last saved or read with the editor's text.
                let graph_file = [
                    self.saved_graph
                        .as_ref()
                        .filter(|(_, t)| t == editor)
                        .map(|(p, _)| p.clone()),
                    self.graph
                        .as_ref()
                        .and_then(|(w, _)| w.path().filter(|_| w.text() == editor))
                        .map(Into::into),
                ]
                .into_iter()
                .flatten()
                .next();
                let mut shown = self.view.bake_command(
                    width,
                    height,
                    graph_file.as_deref(),
                    std::path::Path::new("noise.png"),
                );
                let command = shown.clone();
                if self.view.graph.is_some() && graph_file.is_none() {
                    shown.push_str("\n(save the graph first and give its file to --graph)");
                }
                outln!("{command}")?;
                gfx.panel.copy(&command);
                self.set_notice(Notice::Done(shown));
            }
        }
        self.update_title();
        Ok(())
    }

    fn set_notice(&mut self, notice: Notice) {
        if let Some(gfx) = self.gfx.as_mut() {
            gfx.panel.notice = Some(notice);
        }
    }

    /// Frequency keys: more (`factor` < 1 zooms out) or fewer cells, about the centre.
    fn zoom_at_centre(&mut self, factor: f64) {
        if let Some(gfx) = &self.gfx {
            let (w, h) = (gfx.config.width as f64, gfx.config.height as f64);
            self.view.zoom_at(factor, w / 2.0, h / 2.0);
        }
    }

    /// Whether frames should keep coming without input.
    fn animating(&self) -> bool {
        self.frames.is_some() || !self.view.paused
    }
}

/// `wgpu-noise-graph-001.json`, … : the panel's "save graph" file names, in the current
/// directory.
fn next_graph_path(n: u32) -> PathBuf {
    PathBuf::from(format!("wgpu-noise-graph-{n:03}.json"))
}

/// Writes `text` to the first of `name(1)`, `name(2)`, … that does not exist (never
/// replacing a file, even one that appears meanwhile).
fn save_new_file(name: fn(u32) -> PathBuf, text: &str) -> std::io::Result<PathBuf> {
    use std::io::Write;
    for n in 1..=999 {
        let path = name(n);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut file) => {
                file.write_all(text.as_bytes())?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("names 001 to 999 are taken"))
}

/// `wgpu-noise-preview-001.png`, … : the first name not taken in the current directory.
fn next_screenshot_path() -> PathBuf {
    next_free_path("png")
}

/// `wgpu-noise-preview-001.EXTENSION`, … : the first name not taken in the current
/// directory.
fn next_free_path(extension: &str) -> PathBuf {
    (1u32..)
        .map(|n| PathBuf::from(format!("wgpu-noise-preview-{n:03}.{extension}")))
        .find(|p| !p.exists())
        .expect("some file number is free")
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        match self.init(event_loop) {
            Ok(gfx) => {
                gfx.window.request_redraw();
                self.gfx = Some(gfx);
                self.update_title();
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let mut changed = false;
        let input = matches!(
            event,
            WindowEvent::KeyboardInput { .. }
                | WindowEvent::MouseInput { .. }
                | WindowEvent::MouseWheel { .. }
                | WindowEvent::CursorMoved { .. }
                | WindowEvent::Ime(_)
        );
        if let Some(gfx) = self.gfx.as_mut() {
            let (consumed, repaint) = gfx.panel.on_event(&gfx.window, &event);
            if repaint {
                gfx.window.request_redraw();
            }
            if consumed && input {
                // Input for the panel (the pointer over it, keys while typing) is not the
                // preview's; a drag of the noise ends wherever the button is released.
                if let WindowEvent::MouseInput { .. } = event {
                    self.dragging = false;
                }
                if let WindowEvent::CursorMoved { position, .. } = event {
                    self.cursor = position;
                }
                if let WindowEvent::CursorLeft { .. } = event {
                    self.pointer = None;
                }
                return;
            }
        }
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                if let Some(gfx) = self.gfx.as_mut() {
                    if size.width > 0 && size.height > 0 {
                        let max = gfx.device.limits().max_texture_dimension_2d;
                        gfx.config.width = size.width.min(max);
                        gfx.config.height = size.height.min(max);
                        gfx.surface.configure(&gfx.device, &gfx.config);
                        changed = true;
                    }
                    // 0×0 (minimised): keep the old configuration, draw nothing until restored.
                }
            }
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.redraw(event_loop) {
                    self.fail(event_loop, e);
                }
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                match self.key(event_loop, &event) {
                    Ok(c) => changed = c,
                    Err(e) => self.fail(event_loop, e),
                }
            }
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => {
                self.dragging = state == ElementState::Pressed;
            }
            WindowEvent::CursorMoved { position, .. } => {
                if self.dragging {
                    let (dx, dy) = (position.x - self.cursor.x, position.y - self.cursor.y);
                    if self.view.showing_terrain() {
                        let height = self.gfx.as_ref().map_or(1, |g| g.config.height);
                        self.view.camera.drag(dx, dy, height as f64);
                    } else {
                        self.view.pan_pixels(dx, dy);
                    }
                    changed = true;
                }
                self.cursor = position;
                self.pointer = Some(position);
                if let Some(gfx) = &self.gfx {
                    // The readout follows the cursor.
                    if gfx.panel.visibility == Visibility::Shown {
                        gfx.window.request_redraw();
                    }
                }
            }
            WindowEvent::CursorLeft { .. } => self.pointer = None,
            WindowEvent::MouseWheel { delta, .. } => {
                let notches = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y as f64,
                    MouseScrollDelta::PixelDelta(p) => p.y / PIXELS_PER_NOTCH,
                };
                let factor = ZOOM_STEP.powf(notches);
                if self.view.showing_terrain() {
                    self.view.camera.zoom(factor);
                } else {
                    self.view.zoom_at(factor, self.cursor.x, self.cursor.y);
                }
                changed = true;
            }
            WindowEvent::Occluded(false) => changed = true,
            _ => {}
        }
        if changed {
            self.update_title();
            if let Some(gfx) = &self.gfx {
                gfx.window.request_redraw();
            }
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.frames.is_some() && self.started.elapsed() > UNATTENDED_TIMEOUT {
            let err = anyhow!(
                "the window drew {} of {} frames in {} s; is the display showing it?",
                self.drawn,
                self.frames.unwrap_or(0),
                UNATTENDED_TIMEOUT.as_secs()
            );
            self.fail(event_loop, err);
            return;
        }
        if let Err(e) = self.reload_graph().and_then(|()| self.finish_compile()) {
            self.fail(event_loop, e);
            return;
        }
        let Some(gfx) = &self.gfx else { return };
        match self.hold_until {
            Some(t) if Instant::now() < t => {
                event_loop.set_control_flow(ControlFlow::WaitUntil(t));
                return;
            }
            _ => self.hold_until = None,
        }
        let size = gfx.window.inner_size();
        // Minimised: 0×0 on Windows and Wayland, a window-manager state on X11 (where the
        // size stays). No frames then, only a look now and then for the restore.
        if size.width == 0 || size.height == 0 || gfx.window.is_minimized() == Some(true) {
            event_loop.set_control_flow(ControlFlow::WaitUntil(Instant::now() + MINIMISED_POLL));
            self.last_frame = None;
            return;
        }
        if self.animating() {
            // With vsync, acquiring the next swapchain image paces this loop.
            gfx.window.request_redraw();
        }
        let flow = if self.frames.is_some() {
            // Wake up now and then to enforce UNATTENDED_TIMEOUT.
            ControlFlow::WaitUntil(Instant::now() + Duration::from_secs(1))
        } else if let Some(next) = self.graph.as_ref().and_then(|(w, _)| w.next_look()) {
            // Wake up to look at the graph file even while nothing moves.
            ControlFlow::WaitUntil(next)
        } else {
            ControlFlow::Wait
        };
        // Thumbnails back are drawn; while some are being filled, the worker is looked at
        // as a compile is.
        let gfx = match self.gfx.as_mut() {
            Some(gfx) => gfx,
            None => return,
        };
        let iso_back = gfx.iso.as_mut().is_some_and(IsoWorker::poll);
        if gfx.thumbnails.poll() || iso_back {
            gfx.window.request_redraw();
        }
        // A compile in flight is looked at soon, to draw its graph promptly.
        let iso_busy = gfx.iso.as_ref().is_some_and(IsoWorker::busy);
        let compile_look = (gfx.compiling.is_some() || gfx.thumbnails.busy() || iso_busy)
            .then(|| Instant::now() + COMPILE_POLL);
        event_loop.set_control_flow(match (flow, compile_look) {
            (ControlFlow::WaitUntil(t), Some(look)) => ControlFlow::WaitUntil(t.min(look)),
            (ControlFlow::Wait, Some(look)) => ControlFlow::WaitUntil(look),
            (flow, _) => flow,
        });
    }
}
