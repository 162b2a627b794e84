//! The editor page (`web/www`, built by `web/build`: the graph editor of `wgpu_noise::editor`
//! as an eframe app, the noise on the browser's WebGPU) in headless Chromium, used as a
//! person would: every picture it shows is the CPU `f32` reference of the view it reports.
//!
//! One run of `web/page.mjs` serves every test here: it loads the page, then clicks,
//! right-clicks, drags, types and pastes (Ctrl+V) on the egui canvas at the places the page
//! reports for its widgets, and records after each step the page's state (the view drawn,
//! the editor's text, error and node at fault), the picture's bytes and the page's
//! address; it opens share links in fresh pages (steps' addresses, and a top-down 3D view
//! made here), and the page once more without WebGPU.
//!
//! The 3D view is checked as the desktop's terrain is (tests/common/terrain.rs): seen from
//! straight above, each vertex's pixel is the CPU value's gray times the Lambert shading of
//! the normal of the CPU's analytic gradient. The iso view as the desktop's is
//! (tests/common/iso.rs): a plane `z − c` seen from straight above is the square and the
//! gray the CPU predicts.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use serde_json::{json, Value};
use wgpu_noise::editor::orbit::{Orbit, DEFAULT_RELIEF, PITCH_RANGE, RELIEF_RANGE};
use wgpu_noise::editor::share::{Framing, Scene, SharedView};
use wgpu_noise::editor::thumbs::{Clock, NoTimestamps};
use wgpu_noise::field::FlagField;
use wgpu_noise::graph::Graph;
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::ramp::ColourRamp;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

use crate::common::iso::{compare_plane_from_above, plane_json};
use crate::common::levels::{assert_levels_match, differences};
use crate::common::terrain::{compare_top_down, Mesh, TopDown};
use crate::{assert_clean_console, browser_tools, run_driver, skip};

/// The preset chosen first, and the node of it the added node is wired to (its output).
const PRESET: &str = "marble";

fn preset_output() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("examples/graphs/{PRESET}.json"));
    let text = std::fs::read_to_string(path).expect("the preset's file");
    let graph: Value = serde_json::from_str(&text).unwrap();
    graph["output"].as_str().unwrap().to_string()
}

/// The steps after the first picture, in order (their names index the session).
fn steps() -> Value {
    let output = preset_output();
    json!([
        { "name": "presets menu", "actions": [
            { "click": "presets" },
            { "until": format!("preset.{PRESET}") },
        ] },
        { "name": "preset", "actions": [{ "click": format!("preset.{PRESET}") }] },
        // The seed's number dragged 60 px to the right (0.2 a pixel).
        { "name": "seed dragged", "actions": [{ "drag": ["seed", [60, 0]] }] },
        { "name": "terrain ramp", "actions": [
            { "click": "ramp" },
            { "until": "ramp.terrain" },
            { "click": "ramp.terrain" },
        ] },
        // A ridged node added on the canvas's empty lower part: its source is unwired, so
        // the graph is bad, the node is marked and the picture stays.
        { "name": "ridged added", "actions": [
            { "right_click": "node_canvas", "at": [0.35, 0.62] },
            { "until": "add_filter" },
            { "type": "ridged" },
            { "click": "add.ridged" },
            { "until": "node.ridged" },
        ] },
        { "name": "ridged wired", "actions": [
            { "drag": [format!("port.{output}.out"), "port.ridged.source"] },
            { "click": "node.ridged" },
            { "click": "node_output" },
        ] },
        { "name": "downloads", "actions": [
            { "capture": "picture", "file": "canvas.png" },
            { "click": "download_png" },
            { "download": "wgpu-noise.png" },
            { "click": "download_npy" },
            { "download": "wgpu-noise.npy" },
            { "click": "download_exr" },
            { "download": "wgpu-noise.exr" },
            { "click": "copy_bake" },
            { "hover": "picture", "at": [0.3, 0.7] },
        ] },
        { "name": "copied JSON", "actions": [{ "click": "copy_json" }] },
        { "name": "3d", "actions": [{ "click": "view.3d" }] },
        // A drag right turns the scene right (the camera's yaw down), a drag up lowers it.
        { "name": "3d dragged", "actions": [{ "drag": ["picture", [64, -16]] }] },
        { "name": "3d zoomed", "actions": [{ "wheel": "picture", "delta": -200 }] },
        // The iso view of the same graph and camera, at a level its values (ridged: 0 to
        // 1) cross: a click on the level slider's rail about 0.4 of the way along it.
        { "name": "iso", "actions": [
            { "click": "view.iso" },
            { "settle": true },
            { "click": "level", "at": [0.365, 0.5] },
            { "settle": true },
            { "click": "copy_bake" },
        ] },
        // Back to 2D, the whole JSON box selected and a graph typed over it.
        { "name": "typed", "actions": [
            { "click": "view.2d" },
            { "click": "graph_text" },
            { "press": "Control+A" },
            { "type": TYPED },
        ] },
        // The frequency's number dragged 40 px to the right (0.05 a pixel): the picture
        // and the thumbnails are of the new region.
        { "name": "frequency dragged", "actions": [{ "drag": ["frequency", [40, 0]] }] },
        // The 2D picture dragged 48 px left and 32 px down: the view's region moves with it.
        { "name": "panned", "actions": [
            { "drag": ["picture", [-48, 32]] },
            { "settle": true },
            { "click": "copy_bake" },
        ] },
        // The typed graph in 3D: the picture a slice of its 3D field, from the pan.
        { "name": "dims 3", "actions": [{ "click": "dims.3" }] },
        // The clock run (three pictures recorded as they come) and stopped.
        { "name": "played", "actions": [
            { "click": "play" },
            { "frames": 3 },
            { "click": "play" },
            { "settle": true },
            { "click": "copy_bake" },
        ] },
        { "name": "still paused", "actions": [{ "wait": 800 }] },
        // Its terrain, then a click on the relief slider's rail past the default.
        { "name": "terrain panned", "actions": [{ "click": "view.3d" }] },
        { "name": "relief", "actions": [{ "click": "relief", "at": [0.5, 0.5] }] },
        // The 2D view (its paused picture landed first, so that the next one is of the
        // clock running), played, then a node added that breaks the graph, then no input
        // (the page recorded at once and after two waits), then paused.
        { "name": "broken while playing", "actions": [
            { "click": "view.2d" },
            { "settle": true },
            { "click": "play" },
            { "frames": 1 },
            { "right_click": "node_canvas", "at": [0.35, 0.62] },
            { "until": "add_filter" },
            { "type": "ridged" },
            { "click": "add.ridged" },
            { "until": "node.ridged" },
            { "now": true },
            { "wait": BROKEN_WAIT_MS },
            { "now": true },
            { "wait": BROKEN_WAIT_MS },
            { "now": true },
            { "click": "play" },
        ] },
        // A one-line graph typed over the broken one, a click away from the box, then a
        // click on the box's middle (below that one line) and another graph typed.
        { "name": "typed again", "actions": [
            { "click": "graph_text" },
            { "press": "Control+A" },
            { "type": TYPED },
            { "settle": true },
            { "click": "node_canvas", "at": [0.5, 0.9] },
            { "click": "graph_text" },
            { "press": "Control+A" },
            { "type": TYPED_AGAIN },
        ] },
        // A graph copied elsewhere (several lines) pasted over the whole box with Ctrl+V.
        { "name": "pasted", "actions": [
            { "click": "graph_text" },
            { "press": "Control+A" },
            { "clipboard": PASTED },
            { "press": "Control+V" },
            { "until": "node.fractal" },
        ] },
        // The worley node's jitter slider grabbed by its handle (at 1, the rail's right
        // end: about the widget's middle, the number box is right of the rail) and dragged
        // 30 px to the left.
        { "name": "jitter dragged", "actions": [
            { "drag": ["param.worley.jitter", [-30, 0]] },
        ] },
        // The node feeding the fractal's gain selected (a click on its header) and deleted
        // with the node view's button, then the deletion undone and redone with its buttons.
        { "name": "gain deleted", "actions": [
            { "click": "node.gain" },
            { "click": "node_delete" },
        ] },
        { "name": "undone", "actions": [{ "click": "node_undo" }] },
        { "name": "redone", "actions": [{ "click": "node_redo" }] },
    ])
}

/// How long the page is left alone with its clock running and its graph broken.
const BROKEN_WAIT_MS: u64 = 1500;

/// The graph typed into the JSON box (one line: the box's own text, keystroke by keystroke).
const TYPED: &str = r#"{"version": 1, "output": "r", "nodes": {"r": {"type": "ridged", "source": {"type": "simplex"}, "octaves": 4}}}"#;

/// The graph typed into the JSON box last, over [`TYPED`].
const TYPED_AGAIN: &str = r#"{"version": 1, "output": "f", "nodes": {"f": {"type": "fbm", "source": {"type": "classic"}, "octaves": 3}}}"#;

/// The graph pasted into the JSON box (as a file holds it, over several lines): a 3-octave
/// fBm of cellular noise whose gain is a node's (`gain`, a constant; deleted, the fBm's gain
/// falls back to its default, 0.5, and the graph still draws).
const PASTED: &str = r#"{
  "version": 1,
  "output": "fractal",
  "nodes": {
    "fractal": {"type": "fbm", "source": "worley", "octaves": 3, "gain": "gain"},
    "gain": {"type": "constant", "value": 0.3},
    "worley": {"type": "cellular", "jitter": 1.0}
  }
}"#;

/// The 2D page's size in texels, which the terrain's mesh covers.
const FLAT_SIZE: u32 = 256;
/// The 3D picture's size in pixels.
const TERRAIN_SIZE: u32 = 512;
/// The top-down view's graph (a 3-octave simplex fBm), seed, frequency and camera distance.
const FBM: &str = r#"{"version": 1, "output": "n",
  "nodes": {"n": {"type": "fbm", "source": {"type": "simplex"}, "octaves": 3}}}"#;
const TOP_DOWN_SEED: u64 = 3;
const TOP_DOWN_FREQUENCY: f64 = 3.0;
const TOP_DOWN_DISTANCE: f64 = 3.0;

/// The share string of the top-down 3D view of [`FBM`], made here (the page never had it).
fn top_down_link() -> String {
    top_down_view().encode()
}

/// The view of [`top_down_link`].
fn top_down_view() -> SharedView {
    let scene = Scene::Terrain(Orbit::new(0.0, PITCH_RANGE.1, TOP_DOWN_DISTANCE));
    SharedView {
        graph: FBM.to_string(),
        seed: TOP_DOWN_SEED,
        frequency: TOP_DOWN_FREQUENCY,
        ramp: "gray".to_string(),
        scene,
        framing: Framing::of(&scene),
    }
}

/// The framing of [`top_down_framed_link`]: the graph in 3D, panned, paused 2 s into its
/// clock, raised higher than the default.
fn top_down_framing() -> Framing {
    Framing {
        pan: [1.25, -0.5],
        dims: 3,
        time: 2.0,
        speed: 0.75,
        paused: true,
        relief: 0.4,
    }
}

/// The top-down 3D view of [`FBM`] with [`top_down_framing`], made here.
fn top_down_framed_link() -> String {
    SharedView {
        framing: top_down_framing(),
        ..top_down_view()
    }
    .encode()
}

/// [`top_down_framed_link`] with its clock run on by [`FAR_PERIODS`] periods of the 3D
/// simplex lattice along z: `speed · (time − 2)` is `768 · FAR_PERIODS` (`(0, 0, 768)` is
/// 256 whole cells along each skewed axis, a period of the hashed lattice).
fn top_down_far_link() -> String {
    SharedView {
        framing: Framing {
            time: top_down_far_time(),
            ..top_down_framing()
        },
        ..top_down_view()
    }
    .encode()
}

/// How many lattice periods [`top_down_far_link`]'s clock is past the framed one's.
const FAR_PERIODS: f64 = 128.0;

/// The clock of [`top_down_far_link`]: z = 1.5 + 768 · 128 = 98 305.5, where neighbouring
/// `f32` values are 1/128 apart, coarser than the mesh's 3/256 between vertices.
fn top_down_far_time() -> f64 {
    let framing = top_down_framing();
    framing.time + 768.0 * FAR_PERIODS / framing.speed
}

/// The plane `z − c` at `frequency` in the page's gray view `scene`.
fn plane_link(c: f64, frequency: f64, scene: Scene) -> String {
    SharedView {
        graph: plane_json(c),
        seed: 0,
        frequency,
        ramp: "gray".to_string(),
        scene,
        framing: Framing::of(&scene),
    }
    .encode()
}

/// The plane's iso link at the default camera; 2D chosen (the plane has no 2D picture:
/// its `z` is not a 2D field's, so the error is shown and the picture kept), then iso
/// again, then a drag to look straight down (the default pitch is 50°; 80 px down raise
/// it past 90°, where it stops).
const CHOSEN_PLANE: (f64, f64) = (0.55, 2.0);
/// The plane of the iso link seen straight down, its level, and the link's distance.
const LINKED_PLANE: (f64, f64) = (4.0, 8.0);
const LINKED_LEVEL: f64 = 0.25;

/// The caves recipe's iso view in the terrain ramp: the docs' picture of it, timed.
fn caves_link() -> String {
    caves_view().encode()
}

/// The view of [`caves_link`].
fn caves_view() -> SharedView {
    let caves = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs/caves.json"),
    )
    .unwrap();
    let scene = Scene::Iso {
        camera: Orbit::new(30f64.to_radians(), 35f64.to_radians(), 2.6),
        level: 0.0,
    };
    SharedView {
        graph: caves,
        seed: 0,
        // A lattice cell across: the recipe's tunnels are a few hundredths of a cell wide
        // (docs/graphs.md), a few voxels of the 64³ cube here.
        frequency: 1.0,
        ramp: "terrain".to_string(),
        scene,
        framing: Framing::of(&scene),
    }
}

/// The caves view panned and paused 2 s into its clock, the graph in 3D: its cube starts at
/// (1.5, −0.75, 0.5).
fn caves_framed_view() -> SharedView {
    SharedView {
        framing: Framing {
            pan: [1.5, -0.75],
            dims: 3,
            time: 2.0,
            speed: 0.25,
            paused: true,
            relief: DEFAULT_RELIEF,
        },
        ..caves_view()
    }
}

/// The island preset in 3D with the terrain ramp: the docs' picture of the page.
fn island_link() -> String {
    let island = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs/island.json"),
    )
    .unwrap();
    let scene = Scene::Terrain(Orbit::new(25f64.to_radians(), 38f64.to_radians(), 2.4));
    SharedView {
        graph: island,
        seed: 0,
        frequency: 4.0,
        ramp: "terrain".to_string(),
        scene,
        framing: Framing::of(&scene),
    }
    .encode()
}

struct Session {
    result: Value,
    downloads: PathBuf,
    _dir: tempfile::TempDir,
}

fn session() -> Option<&'static Session> {
    static SESSION: OnceLock<Option<Session>> = OnceLock::new();
    SESSION.get_or_init(run_page).as_ref()
}

/// Builds the page with `web/build` (wasm32 release build, then `wasm-bindgen`), or the
/// reason it cannot be built here.
fn build_page(web: &Path) -> Result<(), String> {
    let bindgen = Command::new("wasm-bindgen").arg("--version").output();
    if !bindgen.is_ok_and(|o| o.status.success()) {
        return Err("wasm-bindgen-cli is not installed (see web/build)".into());
    }
    let sysroot = Command::new("rustc")
        .args([
            "--print",
            "target-libdir",
            "--target",
            "wasm32-unknown-unknown",
        ])
        .output()
        .map_err(|e| format!("rustc: {e}"))?;
    let libdir = String::from_utf8_lossy(&sysroot.stdout).trim().to_string();
    if !sysroot.status.success() || !Path::new(&libdir).exists() {
        return Err(
            "the wasm32-unknown-unknown target is not installed (rustup target add)".into(),
        );
    }
    let start = Instant::now();
    let out = Command::new(web.join("build"))
        .output()
        .expect("web/build runs");
    eprintln!("web/build: {:.1} s", start.elapsed().as_secs_f64());
    assert!(
        out.status.success(),
        "web/build failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(())
}

fn run_page() -> Option<Session> {
    let (chromium, web) = match browser_tools() {
        Ok(tools) => tools,
        Err(reason) => return skip(reason),
    };
    if let Err(reason) = build_page(&web) {
        return skip(reason);
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let downloads = dir.path().join("downloads");
    std::fs::create_dir(&downloads).unwrap();
    let images = std::env::var_os("WGPU_NOISE_DOCS_IMAGES")
        .map_or_else(|| dir.path().to_path_buf(), PathBuf::from);
    let screenshot = images.join("web-app.png");
    let request = json!({
        "chromium": chromium,
        "site": web.join("www"),
        "screenshot": screenshot,
        // The 2D editor after the node was wired and the JSON copied (the clipboard is
        // read then too).
        "screenshot_step": "copied JSON",
        "downloads": downloads,
        "steps": steps(),
        "reopen": [
            { "name": "shared 2d", "step": "copied JSON" },
            // The GPU's clock asked for on SwiftShader, a CPU adapter, where the page
            // otherwise times nodes on the CPU.
            { "name": "gpu clock", "step": "ridged wired", "query": "clock=gpu" },
            { "name": "shared 3d", "step": "3d zoomed" },
            { "name": "shared iso", "step": "iso" },
            { "name": "shared panned", "step": "panned" },
            { "name": "shared played", "step": "played" },
            { "name": "shared relief", "step": "relief" },
            {
                "name": "iso chosen",
                "fragment": plane_link(CHOSEN_PLANE.0, CHOSEN_PLANE.1, Scene::Iso {
                    camera: Orbit::default(),
                    level: 0.0,
                }),
                "actions": [
                    { "click": "view.2d" },
                    { "settle": true },
                    { "click": "view.iso" },
                    { "settle": true },
                    { "drag": ["picture", [0, 80]] },
                    { "settle": true },
                    { "hover": "picture", "at": [0.5, 0.5] },
                ],
            },
            {
                "name": "iso link",
                "fragment": plane_link(LINKED_PLANE.0, LINKED_PLANE.1, Scene::Iso {
                    camera: Orbit::new(0.0, PITCH_RANGE.1, TOP_DOWN_DISTANCE),
                    level: LINKED_LEVEL,
                }),
                // A click on the level slider's rail: a new level, the same cube.
                "actions": [{ "click": "level", "at": [0.3, 0.5] }, { "settle": true }],
            },
            {
                "name": "caves iso",
                "fragment": caves_link(),
                "screenshot": images.join("web-iso.png"),
            },
            {
                "name": "caves iso framed",
                "fragment": caves_framed_view().encode(),
                "actions": [{ "click": "copy_bake" }],
            },
            { "name": "top-down", "fragment": top_down_link() },
            { "name": "top-down framed", "fragment": top_down_framed_link() },
            { "name": "top-down far", "fragment": top_down_far_link() },
            // A link that cannot be read, then a good one opened in the same tab.
            {
                "name": "bad link",
                "fragment": "v1.not-a-share-link",
                "actions": [{ "fragment": top_down_link() }],
            },
            {
                "name": "island 3d",
                "fragment": island_link(),
                "screenshot": images.join("web-terrain.png"),
                // Pictures to time: the camera turned 11.25° at a time.
                "actions": (0..6)
                    .flat_map(|_| [json!({ "drag": ["picture", [-8, 0]] }), json!({ "settle": 1 })])
                    .collect::<Vec<_>>(),
            },
        ],
    });
    let result = run_driver(&web.join("page.mjs"), &request, dir.path());
    eprintln!("page screenshot {}", screenshot.display());
    Some(Session {
        result,
        downloads,
        _dir: dir,
    })
}

/// What the page showed after the step `name` ("first picture" before any).
fn step<'a>(s: &'a Session, name: &str) -> &'a Value {
    s.result["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|st| st["name"] == name)
        .unwrap_or_else(|| panic!("no step {name:?}"))
}

/// The picture's RGBA bytes.
fn rgba(st: &Value) -> Vec<u8> {
    st["rgba"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u8)
        .collect()
}

/// The view a step's picture is of: `{graph, seed, frequency, ramp}`.
fn shown(st: &Value) -> &Value {
    &st["state"]["shown"]
}

/// The CPU `f32` reference (RGBA) of a view the page reports: its graph over the page's
/// 256 × 256 grid at its frequency, with its seed's permutation tables, `t = clamp((v + 1)
/// / 2, 0, 1)` drawn with its colour ramp.
fn reference(view: &Value) -> Vec<u8> {
    let ramp = ColourRamp::from_name(view["ramp"].as_str().unwrap()).unwrap();
    reference_of(view, 256, ramp)
}

/// The dimensions (2 where it reports none) and the first pixel's point of a view the page
/// reports (a picture's or a thumbnail's): the origin a thumbnail reports; else its pan (0
/// where it reports none) plus, where it reports a clock, `speed × time` along the animated
/// axis (x in 2D, the last axis in 3D and 4D).
fn framing_of(reported: &Value) -> (usize, [f64; 4]) {
    let dims = reported
        .get("dims")
        .map_or(2, |d| d.as_u64().unwrap() as usize);
    if let Some(origin) = reported.get("origin") {
        return (dims, numbers(origin).try_into().unwrap());
    }
    let mut origin = [0.0; 4];
    if let Some(pan) = reported.get("pan") {
        origin[..2].copy_from_slice(&numbers(pan));
    }
    let speed = reported.get("speed").and_then(Value::as_f64);
    if let (Some(speed), Some(time)) = (speed, reported.get("time")) {
        origin[if dims == 2 { 0 } else { dims - 1 }] += speed * time.as_f64().unwrap();
    }
    (dims, origin)
}

/// The CPU `f32` reference (RGBA) of the `graph` a page reports with its `seed`,
/// `frequency` and framing ([`framing_of`]), over a `side` × `side` grid (a slice one texel
/// deep in 3D and 4D), `t = clamp((v + 1) / 2, 0, 1)` drawn with `ramp`.
fn reference_of(reported: &Value, side: u32, ramp: ColourRamp) -> Vec<u8> {
    let seed: u64 = reported["seed"].as_str().unwrap().parse().unwrap();
    let frequency = reported["frequency"].as_f64().unwrap();
    let (dims, origin) = framing_of(reported);
    let size = [side, side, 1, 1];
    let field = FlagField::new(NoiseKind::Simplex, &size[..dims])
        .with_frequency(&[frequency; 4][..dims])
        .with_offset(&origin[..dims]);
    let program = Graph::from_json(reported["graph"].as_str().unwrap())
        .and_then(|g| g.program(dims, [0.0; 4]))
        .expect("the page's graph is valid");
    let params = FillParams::new(&field, Slab::whole(&field));
    let mut values = vec![0.0; params.len()];
    let lut = PermutationTables::new(seed);
    wgpu_noise::graph::eval::fill_slab(&program, &lut, &params, &mut values);
    values
        .iter()
        .flat_map(|&v| {
            let [r, g, b] = ramp.rgb8(((v + 1.0) / 2.0).clamp(0.0, 1.0));
            [r, g, b, 255]
        })
        .collect()
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// The mean |Δlevel| over the RGBA bytes of two pictures.
fn mean_difference(a: &[u8], b: &[u8]) -> f64 {
    let d = differences(a, b);
    d.iter().map(|&v| f64::from(v)).sum::<f64>() / d.len() as f64
}

/// Asserts `st`'s picture is its view's CPU reference, and not a blank.
fn assert_reference(st: &Value, what: &str) {
    let got = rgba(st);
    assert_levels_match(&got, &reference(shown(st)), &format!("page: {what}"));
    let mut colours: Vec<&[u8]> = got.chunks(4).collect();
    colours.sort();
    colours.dedup();
    assert!(
        colours.len() > 50,
        "{what}: a picture, not a blank: {} colours",
        colours.len()
    );
}

#[test]
fn the_page_loads_on_the_browsers_webgpu_with_a_clean_console() {
    let Some(s) = session() else { return };
    assert_clean_console(&s.result);
    let first = step(s, "first picture");
    let state = &first["state"];
    eprintln!(
        "start() at {:.0} ms, first picture at {:.0} ms from navigation",
        state["start_ms"].as_f64().unwrap(),
        state["first_picture_ms"].as_f64().unwrap(),
    );
    let last = &step(s, "copied JSON")["state"];
    let mut frames = numbers(&last["frame_ms"]);
    frames.sort_by(f64::total_cmp);
    eprintln!(
        "frames' CPU time (eframe): median {:.1} ms, 90th percentile {:.1} ms over {}; \
         pictures (fill + readback): {:?} ms",
        frames[frames.len() / 2],
        frames[frames.len() * 9 / 10],
        frames.len(),
        numbers(&last["draw_ms"])
    );
    assert_eq!(state["error"], Value::Null);
    assert_eq!(state["size"], json!([256, 256]));
    // The page opens on the first preset, with the graph in the editor and its nodes shown.
    let terrain = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs/terrain.json"),
    )
    .unwrap();
    assert_eq!(shown(first)["graph"], terrain.as_str());
    assert_eq!(state["text"], terrain.as_str());
    assert_reference(first, "first picture");
}

#[test]
fn choosing_a_preset_or_a_setting_draws_the_new_views_reference() {
    let Some(s) = session() else { return };
    // The menu offers every shipped graph, each of which draws in 2D.
    let mut offered: Vec<String> = step(s, "presets menu")["widgets"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| Some(w.as_str()?.strip_prefix("preset.")?.to_string()))
        .collect();
    offered.sort();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs");
    let mut shipped = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).unwrap();
            Graph::from_json(&text)
                .and_then(|g| g.program(2, [0.0; 4]))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            shipped.push(path.file_stem().unwrap().to_str().unwrap().to_string());
        }
    }
    shipped.sort();
    assert_eq!(offered, shipped, "the presets are the shipped graphs");
    let preset = step(s, "preset");
    let marble = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("examples/graphs/{PRESET}.json")),
    )
    .unwrap();
    assert_eq!(
        shown(preset)["graph"],
        marble.as_str(),
        "the preset is drawn"
    );
    assert_reference(preset, "preset");
    let seeded = step(s, "seed dragged");
    let seed = shown(seeded)["seed"].as_str().unwrap();
    eprintln!("the seed dragged to {seed}");
    assert_ne!(seed, "0", "the drag changed the seed");
    assert_reference(seeded, "seed dragged");
    let d = mean_difference(&rgba(seeded), &rgba(preset));
    assert!(d > 3.0, "the picture changed with the seed: {d:.1}");
    let terrain = step(s, "terrain ramp");
    assert_eq!(shown(terrain)["ramp"], "terrain");
    assert_reference(terrain, "terrain ramp");
    let coloured = rgba(terrain)
        .chunks(4)
        .filter(|p| p[0] != p[1] || p[1] != p[2])
        .count();
    assert!(coloured > 30_000, "the terrain ramp colours: {coloured}");
}

#[test]
fn a_node_added_and_wired_on_the_canvas_draws_the_new_graphs_reference() {
    let Some(s) = session() else { return };
    let before = step(s, "terrain ramp");
    let added = step(s, "ridged added");
    let state = &added["state"];
    let text = state["text"].as_str().unwrap();
    assert!(
        text.contains("\"ridged\""),
        "the node is in the JSON: {text}"
    );
    // A bad edit: the node at fault is marked, the error shown, the last good picture stays.
    eprintln!("after adding: {}", state["error"]);
    assert_eq!(state["fault"], "ridged", "the unwired node is at fault");
    assert!(state["error"]
        .as_str()
        .is_some_and(|e| e.contains("ridged")));
    assert_eq!(shown(added), shown(before), "the last good view stays");
    assert_eq!(rgba(added), rgba(before), "the last good picture stays");

    let wired = step(s, "ridged wired");
    let view = shown(wired);
    let graph: Value = serde_json::from_str(view["graph"].as_str().unwrap()).unwrap();
    assert_eq!(graph["output"], "ridged");
    assert_eq!(graph["nodes"]["ridged"]["source"], preset_output());
    assert_eq!(wired["state"]["error"], Value::Null);
    assert_eq!(
        wired["state"]["text"], view["graph"],
        "the text is the graph drawn"
    );
    assert_reference(wired, "ridged wired");
    let d = mean_difference(&rgba(wired), &rgba(before));
    assert!(d > 3.0, "the picture changed with the graph: {d:.1}");
}

/// What the share link `name` showed in a fresh page.
fn reopened<'a>(s: &'a Session, name: &str) -> &'a Value {
    let page = &s.result["reopened"][name];
    assert_eq!(page["start"]["started"], true, "{name}: {page}");
    &page["state"]
}

#[test]
fn a_share_link_opened_in_a_fresh_page_reproduces_graph_and_picture() {
    let Some(s) = session() else { return };
    let shared = [
        ("shared 2d", "copied JSON"),
        ("shared 3d", "3d zoomed"),
        ("shared panned", "panned"),
        ("shared played", "played"),
        ("shared relief", "relief"),
    ];
    for (name, step_name) in shared {
        let last = step(s, step_name);
        let href = last["href"].as_str().unwrap();
        eprintln!("{name} link: {} characters", href.len());
        assert!(href.contains("#v1."), "the address holds the view: {href}");
        assert_eq!(
            last["state"]["share"].as_str().map(|f| format!("#{f}")),
            href.rsplit_once('#').map(|(_, f)| format!("#{f}")),
            "the address is the share string of the view shown"
        );
        let shared = reopened(s, name);
        assert_eq!(
            shown(shared),
            shown(last),
            "{name}: the same graph and view"
        );
        assert_eq!(
            rgba(shared),
            rgba(last),
            "{name}: the same picture, byte for byte"
        );
    }
    assert!(shown(reopened(s, "shared 3d"))["terrain"].is_array());
}

/// A link that cannot be read opens the first preset and says why (the console stays
/// clean: `the_page_loads_on_the_browsers_webgpu_with_a_clean_console`); a link then opened
/// in the same tab (its fragment edited) is followed: the same view and picture as in a
/// fresh page.
#[test]
fn a_bad_link_opens_the_first_preset_and_a_link_opened_in_the_tab_is_followed() {
    let Some(s) = session() else { return };
    let opened = reopened(s, "bad link");
    let first = step(s, "first picture");
    assert_eq!(shown(opened), shown(first), "the first preset");
    assert_eq!(rgba(opened), rgba(first), "the first preset's picture");
    let notice = opened["state"]["notice"].as_str().unwrap_or_default();
    assert!(
        notice.starts_with("the link: "),
        "the link's error: {notice:?}"
    );
    let followed = &s.result["reopened"]["bad link"]["after"];
    let fresh = reopened(s, "top-down");
    assert_eq!(shown(followed), shown(fresh), "the link's view");
    assert_eq!(
        rgba(followed),
        rgba(fresh),
        "the link's picture, byte for byte"
    );
    assert_eq!(followed["state"]["notice"], Value::Null);
}

/// The step `name`, after `text` was typed or pasted into the JSON box: the box holds it, it
/// is drawn and the picture is its CPU reference.
fn assert_entered<'a>(s: &'a Session, name: &str, text: &str) -> &'a Value {
    let entered = step(s, name);
    assert_eq!(
        entered["state"]["text"], text,
        "{name}: the box holds what was entered"
    );
    assert_eq!(
        shown(entered)["graph"],
        text,
        "{name}: the entered graph is drawn"
    );
    assert_eq!(entered["state"]["error"], Value::Null);
    assert_reference(entered, name);
    entered
}

/// A graph typed into the JSON box over its whole text is what the box holds and what is
/// drawn: the typed graph's CPU reference.
#[test]
fn a_graph_typed_into_the_json_box_draws_its_reference() {
    let Some(s) = session() else { return };
    let typed = assert_entered(s, "typed", TYPED);
    assert_eq!(shown(typed)["terrain"], Value::Null, "in 2D");
}

/// The JSON box takes a click anywhere in it, however short its text: a graph typed into
/// it, after a click away, over a one-line graph is what it holds and what is drawn.
#[test]
fn the_json_box_takes_a_second_graph_typed_over_a_short_one() {
    let Some(s) = session() else { return };
    assert_entered(s, "typed again", TYPED_AGAIN);
}

/// The nodes a step's node view shows, by name.
fn nodes_shown(st: &Value) -> Vec<&str> {
    let mut nodes: Vec<&str> = st["widgets"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w.as_str()?.strip_prefix("node."))
        .collect();
    nodes.sort_unstable();
    nodes
}

/// The graph a step's JSON box holds, parsed.
fn text_graph(st: &Value) -> Value {
    serde_json::from_str(st["state"]["text"].as_str().unwrap()).unwrap()
}

/// A graph written elsewhere, on the clipboard, pasted with Ctrl+V over the JSON box's
/// whole text: the box holds it, it is drawn (its CPU reference) and the node view shows its
/// nodes in place of the last graph's.
#[test]
fn a_graph_pasted_into_the_json_box_draws_its_reference_and_shows_its_nodes() {
    let Some(s) = session() else { return };
    assert_clean_console(&s.result);
    assert_eq!(nodes_shown(step(s, "typed again")), ["f", "f.source"]);
    let pasted = assert_entered(s, "pasted", PASTED);
    assert_eq!(nodes_shown(pasted), ["fractal", "gain", "worley"]);
    assert_eq!(pasted["state"]["fault"], Value::Null);
}

/// A node's slider dragged on the node view: the JSON box holds the new value (and the
/// graph is otherwise as it was), and the picture is the CPU reference of the edited graph.
#[test]
fn dragging_a_nodes_slider_writes_its_value_and_draws_the_edited_graphs_reference() {
    let Some(s) = session() else { return };
    assert_clean_console(&s.result);
    let before = step(s, "pasted");
    let dragged = step(s, "jitter dragged");
    let mut edited = text_graph(dragged);
    let jitter = edited["nodes"]["worley"]["jitter"].as_f64();
    eprintln!("the jitter slider dragged from 1 to {jitter:?}");
    assert!(
        jitter.is_some_and(|j| (0.0..1.0).contains(&j)),
        "the drag left moved the jitter below 1: {jitter:?}"
    );
    edited["nodes"]["worley"]["jitter"] = json!(1.0);
    assert_eq!(
        edited,
        text_graph(before),
        "only the jitter changed: {}",
        dragged["state"]["text"]
    );
    assert_eq!(dragged["state"]["error"], Value::Null);
    assert_eq!(
        shown(dragged)["graph"],
        dragged["state"]["text"],
        "the edited graph is drawn"
    );
    assert_reference(dragged, "jitter dragged");
    let d = mean_difference(&rgba(dragged), &rgba(before));
    eprintln!("the jitter changed the picture: mean |Δlevel| {d:.2}");
    assert!(d > 1.0, "the picture changed with the jitter: {d:.2}");
}

/// A node selected on the node view and deleted with its button: the graph without it (the
/// input it fed falls back to its default) is in the JSON box and drawn, its CPU reference;
/// undo brings back the graph, its text and its picture byte for byte; redo deletes it again,
/// the same text and picture.
#[test]
fn deleting_a_node_draws_the_graph_without_it_and_undo_and_redo_step_through_it() {
    let Some(s) = session() else { return };
    assert_clean_console(&s.result);
    let before = step(s, "jitter dragged");
    let deleted = step(s, "gain deleted");
    let mut without = text_graph(before);
    without["nodes"].as_object_mut().unwrap().remove("gain");
    without["nodes"]["fractal"]
        .as_object_mut()
        .unwrap()
        .remove("gain");
    assert_eq!(
        text_graph(deleted),
        without,
        "the node and its wire are gone: {}",
        deleted["state"]["text"]
    );
    assert_eq!(nodes_shown(deleted), ["fractal", "worley"]);
    assert_eq!(deleted["state"]["error"], Value::Null);
    assert_eq!(deleted["state"]["fault"], Value::Null);
    assert_eq!(shown(deleted)["graph"], deleted["state"]["text"]);
    assert_reference(deleted, "gain deleted");
    let d = mean_difference(&rgba(deleted), &rgba(before));
    eprintln!("the fBm's gain from 0.3 (the node) to 0.5 (its default): mean |Δlevel| {d:.2}");
    assert!(d > 1.0, "the picture changed with the gain: {d:.2}");

    for (name, like) in [("undone", before), ("redone", deleted)] {
        let st = step(s, name);
        assert_eq!(
            st["state"]["text"], like["state"]["text"],
            "{name}: the JSON box's text"
        );
        assert_eq!(shown(st), shown(like), "{name}: the view drawn");
        assert_eq!(nodes_shown(st), nodes_shown(like), "{name}: the nodes");
        assert_eq!(st["state"]["error"], Value::Null, "{name}");
        assert!(rgba(st) == rgba(like), "{name}: the picture, byte for byte");
    }
}

/// The camera `[yaw, pitch, distance]` of a step's 3D view.
fn camera(st: &Value) -> Vec<f64> {
    numbers(&shown(st)["terrain"])
}

#[test]
fn switching_to_3d_shows_the_terrain_and_dragging_and_the_wheel_move_its_camera() {
    let Some(s) = session() else { return };
    let flat = step(s, "copied JSON");
    let terrain = step(s, "3d");
    assert_eq!(shown(flat)["terrain"], Value::Null);
    let default = Orbit::default();
    assert_eq!(
        camera(terrain),
        [default.yaw, default.pitch, default.distance],
        "the 3D view opens at the default camera"
    );
    assert_eq!(shown(terrain)["graph"], shown(flat)["graph"]);
    assert_eq!(
        terrain["state"]["size"],
        json!([TERRAIN_SIZE, TERRAIN_SIZE])
    );
    let pixels = rgba(terrain);
    assert_eq!(pixels.len(), (TERRAIN_SIZE * TERRAIN_SIZE * 4) as usize);
    // The mesh (coloured, lit) against a black background.
    let black = pixels.chunks(4).filter(|p| p[..3] == [0, 0, 0]).count();
    let mut colours: Vec<&[u8]> = pixels.chunks(4).collect();
    colours.sort();
    colours.dedup();
    eprintln!(
        "3D: {black} black pixels of {}, {} colours",
        pixels.len() / 4,
        colours.len()
    );
    assert!(colours.len() > 1000, "a terrain, not a blank");
    assert!(black > 10_000 && black < pixels.len() / 4 / 2);

    let dragged = step(s, "3d dragged");
    let [yaw, pitch, distance] = camera(dragged)[..] else {
        panic!("a camera")
    };
    // 64 px right of 256 turn a quarter round, 16 up lower it 22.5°; egui keeps the
    // pointer's motion before it calls it a drag (a few points) out of the drag.
    let turned = (default.yaw - yaw).rem_euclid(std::f64::consts::TAU);
    let lowered = default.pitch - pitch;
    eprintln!(
        "the drag turned the camera {:.1}° and lowered it {:.1}°",
        turned.to_degrees(),
        lowered.to_degrees()
    );
    assert!((60.0..=90.5).contains(&turned.to_degrees()), "{turned}");
    assert!((10.0..=22.6).contains(&lowered.to_degrees()), "{lowered}");
    assert_eq!(distance, default.distance);
    let changed = |a: &[u8], b: &[u8]| {
        a.chunks(4)
            .zip(b.chunks(4))
            .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
            .count()
    };
    let turned_pixels = changed(&rgba(terrain), &rgba(dragged));
    let zoomed = step(s, "3d zoomed");
    let closer = camera(zoomed)[2];
    let zoomed_pixels = changed(&rgba(dragged), &rgba(zoomed));
    eprintln!(
        "of {} pixels: the drag changed {turned_pixels}, the wheel {zoomed_pixels} \
         (the camera {closer:.3} away)",
        pixels.len() / 4
    );
    assert!(
        closer < distance,
        "the wheel forward comes closer: {closer}"
    );
    assert!(turned_pixels > pixels.len() / 4 / 5);
    assert!(zoomed_pixels > pixels.len() / 4 / 10);
    let mut times = numbers(&zoomed["state"]["terrain_ms"]);
    eprintln!("512² terrain pictures (draw + readback), ms: {times:?}");
    // The first includes the pipeline's compile.
    times.remove(0);
    times.sort_by(f64::total_cmp);
    if let Some(median) = times.get(times.len() / 2) {
        eprintln!("512² terrain picture on SwiftShader: median {median:.0} ms");
    }
}

#[test]
fn the_islands_3d_view_is_timed() {
    let Some(s) = session() else { return };
    let island = &s.result["reopened"]["island 3d"];
    let first = &island["state"]["state"];
    eprintln!(
        "island in 3D from a share link: first picture at {:.0} ms from navigation",
        first["first_picture_ms"].as_f64().unwrap()
    );
    let after = &island["after"];
    let mut times = numbers(&after["state"]["terrain_ms"]);
    eprintln!("island, 512² terrain pictures (draw + readback), ms: {times:?}");
    // The first includes the pipeline's compile; each drag drew at least one more.
    assert!(times.len() >= 7, "{times:?}");
    times.remove(0);
    times.sort_by(f64::total_cmp);
    eprintln!(
        "island, 512² terrain picture on SwiftShader: {:.0} to {:.0} ms, median {:.0} ms over {}",
        times[0],
        times[times.len() - 1],
        times[times.len() / 2],
        times.len()
    );
    let (from, to) = (camera(&island["state"]), camera(after));
    eprintln!("island: the camera from {from:?} to {to:?}");
    // Six drags of 8 px left turn the camera 6 · 11.25° the other way round.
    assert!((to[0] - from[0] - 1.5 * std::f64::consts::FRAC_PI_4).abs() < 0.1);
}

#[test]
fn the_3d_view_from_above_is_the_lambert_shading_of_the_cpu_gradients_normal() {
    let Some(s) = session() else { return };
    assert_top_down(reopened(s, "top-down"), "page 3D from above");
}

/// The same of a link with a framing: the graph in 3D, panned, its clock paused at a
/// time, a higher relief: the mesh samples the 3D field from the pan and the clock's z,
/// raised by that relief.
#[test]
fn a_framed_3d_view_from_above_is_the_cpus_over_its_pan_and_slice_at_its_relief() {
    let Some(s) = session() else { return };
    let st = reopened(s, "top-down framed");
    let view = shown(st);
    let framing = top_down_framing();
    assert_eq!(numbers(&view["pan"]), framing.pan);
    assert_eq!(view["dims"], framing.dims);
    assert_eq!(view["time"], framing.time);
    assert_eq!(view["speed"], framing.speed);
    assert_eq!(view["relief"], framing.relief);
    assert_top_down(st, "page 3D from above, framed");
    let plain = rgba(reopened(s, "top-down"));
    assert!(
        mean_difference(&rgba(st), &plain) > 1.0,
        "another region, slice and relief than the plain top-down view"
    );
}

/// The framed view with its clock far along, a whole number of lattice periods on: the
/// same terrain, byte for byte, as near the origin. The mesh starts where the 2D picture's
/// fill does, at the clock's point moved back by whole periods; at the unmoved point in
/// `f32` its vertices would fall on a grid of 1/128, not their 3/256 spacing.
#[test]
fn a_3d_view_played_far_along_its_clock_is_drawn_as_finely_as_near_the_origin() {
    let Some(s) = session() else { return };
    let far = reopened(s, "top-down far");
    assert_eq!(shown(far)["time"], top_down_far_time());
    let near = reopened(s, "top-down framed");
    assert!(
        rgba(far) == rgba(near),
        "the far view differs from the near one in {} of {} bytes (mean {:.2} levels)",
        rgba(far)
            .iter()
            .zip(rgba(near))
            .filter(|(a, b)| *a != b)
            .count(),
        rgba(near).len(),
        mean_difference(&rgba(far), &rgba(near))
    );
}

/// Asserts that `st`'s picture, [`FBM`]'s terrain seen from straight above
/// [`TOP_DOWN_DISTANCE`] away, is at each vertex the CPU value's gray times the Lambert
/// shading of the CPU gradient's normal, for the mesh of the view's framing as the page
/// reports it (its dimensions, first point and relief).
fn assert_top_down(st: &Value, what: &str) {
    let view = shown(st);
    assert_eq!(view["graph"], FBM);
    let pixels = rgba(st);
    assert_eq!(pixels.len(), (TERRAIN_SIZE * TERRAIN_SIZE * 4) as usize);
    let step = (TOP_DOWN_FREQUENCY / f64::from(FLAT_SIZE)) as f32;
    let (dims, origin) = framing_of(view);
    let mut mesh = Mesh::over(origin.map(|o| o as f32), step, [FLAT_SIZE; 2]);
    mesh.relief = view["relief"].as_f64().unwrap();
    let mut sampler = Graph::from_json(FBM)
        .unwrap()
        .sampler(dims, TOP_DOWN_SEED)
        .unwrap();
    let gray = |x: u32, y: u32| pixels[((y * TERRAIN_SIZE + x) * 4) as usize];
    let size = [TERRAIN_SIZE; 2];
    let TopDown {
        compared,
        worst,
        off,
        mean,
        histogram,
        lit,
        ..
    } = compare_top_down(&mesh, &mut sampler, TOP_DOWN_DISTANCE, size, &gray);
    eprintln!("{what}: differences 0..9+: {histogram:?}");
    eprintln!(
        "{what}: {compared} vertices at pixel centres, worst {worst} levels, \
         {off} over 2, mean {mean:.2}; {lit} pixels hold a vertex"
    );
    assert!(compared > 2000, "only {compared} vertices compared");
    assert!(
        worst <= 6,
        "a pixel {worst} levels off its vertex's shading"
    );
    assert!(off * 50 <= compared, "{off} of {compared} over 2 levels");
    assert!(mean < 0.75, "{mean} levels off on average");
    assert!(lit > 40_000, "the mesh covers only {lit} pixels");
    // Gray pixels: the three channels agree.
    assert!(pixels.chunks(4).all(|p| p[0] == p[1] && p[1] == p[2]));
}

#[test]
fn the_downloads_and_copies_hold_what_the_page_shows() {
    let Some(s) = session() else { return };
    let st = step(s, "downloads");
    let saved = image::open(s.downloads.join("wgpu-noise.png"))
        .expect("download PNG wrote a PNG")
        .to_rgba8();
    assert_eq!(saved.dimensions(), (256, 256));
    // What the canvas shows: the picture's place on the screen as the page drew it (egui's
    // texture through WebGL2, before the downloads were clicked), pixel for pixel the PNG.
    let canvas = image::open(s.downloads.join("canvas.png"))
        .expect("the picture's place on the screen captured")
        .to_rgba8();
    assert_eq!(
        canvas.dimensions(),
        (256, 256),
        "the picture is shown at 1:1"
    );
    let (mut worst, mut off) = (0u8, 0usize);
    for (shown, saved) in canvas.pixels().zip(saved.pixels()) {
        let d = (0..3).map(|c| shown[c].abs_diff(saved[c])).max().unwrap();
        worst = worst.max(d);
        off += usize::from(d > 0);
    }
    eprintln!("the canvas against the PNG: {off} pixels differ, by at most {worst} levels");
    assert_eq!(worst, 0, "the PNG holds what the canvas shows");
    assert_eq!(
        saved.into_raw(),
        rgba(st),
        "the PNG holds the picture's pixels"
    );
    // The values: coloured as the page colours them, they are the picture.
    let npy = std::fs::read(s.downloads.join("wgpu-noise.npy")).expect("download .npy");
    assert_eq!(&npy[..8], b"\x93NUMPY\x01\x00");
    let header_len = u16::from_le_bytes([npy[8], npy[9]]) as usize;
    let header = std::str::from_utf8(&npy[10..10 + header_len]).unwrap();
    assert!(header.contains("'descr': '<f4'") && header.contains("'shape': (256, 256)"));
    assert_eq!((10 + header_len) % 64, 0, "the data starts 64-byte aligned");
    let values: Vec<f32> = npy[10 + header_len..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(values.len(), 256 * 256);
    let ramp = ColourRamp::from_name(shown(st)["ramp"].as_str().unwrap()).unwrap();
    let coloured: Vec<u8> = values
        .iter()
        .flat_map(|&v| {
            let [r, g, b] = ramp.rgb8(((v + 1.0) / 2.0).clamp(0.0, 1.0));
            [r, g, b, 255]
        })
        .collect();
    assert_eq!(coloured, rgba(st), "the .npy holds the values drawn");
    readout_is_the_cpu_samplers(st, &values);
    let exr = exr::prelude::read_first_flat_layer_from_file(s.downloads.join("wgpu-noise.exr"))
        .expect("download EXR wrote an OpenEXR file");
    assert_eq!(exr.layer_data.size, exr::math::Vec2(256, 256));
    let channels = &exr.layer_data.channel_data.list;
    assert_eq!(channels.len(), 1, "one channel");
    let exr::prelude::FlatSamples::F32(exr_values) = &channels[0].sample_data else {
        panic!("32-bit float samples");
    };
    assert_eq!(
        exr_values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        "the EXR holds the .npy's values"
    );

    // The bake command, run with the graph saved as it says, bakes the same view.
    let command = st["state"]["copied"].as_str().unwrap();
    eprintln!("bake command: {command}");
    let view = shown(st);
    assert!(command.starts_with("wgpu-noise bake --graph graph.json --size 256x256"));
    assert!(command.contains(&format!("--seed {}", view["seed"].as_str().unwrap())));
    let json = step(s, "copied JSON");
    assert_eq!(json["state"]["copied"], json["state"]["text"]);
    assert_eq!(
        s.result["clipboard"], json["state"]["text"],
        "the clipboard holds the JSON"
    );
    bake_matches(command, view["graph"].as_str().unwrap(), &rgba(st));
}

/// The readout under the picture, with the cursor at (0.3, 0.7) of it: the point is the
/// hovered texel's, its value and gradient the CPU sampler's there (the page runs the same
/// `f32` code, compiled for wasm32), the value the picture's own within the GPU's parity
/// tolerance, and the range the least and greatest of the picture's `values`.
fn readout_is_the_cpu_samplers(st: &Value, values: &[f32]) {
    let readout = &st["state"]["readout"];
    eprintln!("readout: {readout}");
    let view = shown(st);
    let frequency = view["frequency"].as_f64().unwrap();
    let seed: u64 = view["seed"].as_str().unwrap().parse().unwrap();
    let probe = &readout["probe"];
    let number = |v: &Value| v.as_f64().unwrap() as f32;
    let point: Vec<f32> = probe["point"]
        .as_array()
        .unwrap()
        .iter()
        .map(number)
        .collect();
    let step = (frequency / f64::from(FLAT_SIZE)) as f32;
    let texel = [0, 1].map(|a| (point[a] / step).round() as usize);
    for (a, fraction) in [0.3, 0.7].into_iter().enumerate() {
        assert_eq!(
            point[a],
            step * texel[a] as f32,
            "axis {a}: a texel's point"
        );
        let hovered = fraction * f64::from(FLAT_SIZE);
        assert!(
            (texel[a] as f64 - hovered).abs() <= 1.0,
            "axis {a}: texel {} is not the hovered {hovered}",
            texel[a]
        );
    }
    let graph = wgpu_noise::graph::Graph::from_json(view["graph"].as_str().unwrap()).unwrap();
    let mut sampler = graph.sampler(2, seed).unwrap();
    let [value, gx, gy, ..] = sampler.value_and_gradient(&[point[0], point[1], 0.0, 0.0]);
    let close = |got: f32, want: f32, what: &str| {
        assert!(
            (got - want).abs() <= 1e-5 * want.abs().max(1.0),
            "{what}: the page's {got}, the CPU's {want}"
        );
    };
    close(number(&probe["value"]), value, "value");
    close(number(&probe["gradient"][0]), gx, "∂/∂x");
    close(number(&probe["gradient"][1]), gy, "∂/∂y");
    let drawn = values[texel[1] * FLAT_SIZE as usize + texel[0]];
    assert!(
        (drawn - value).abs() <= wgpu_noise::bake::DEFAULT_TOLERANCE,
        "the picture's value {drawn} vs the readout's {value}"
    );
    let (low, high) = values
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    assert_eq!(
        [number(&readout["range"][0]), number(&readout["range"][1])],
        [low, high],
        "the range drawn"
    );
}

/// Runs the page's bake command (the binary, on the CPU) and compares its PNG with the page's
/// picture.
fn bake_matches(command: &str, graph: &str, picture: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("graph.json"), graph).unwrap();
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .args(&args)
        .args(["--backend", "cpu"])
        .current_dir(dir.path())
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let baked = image::open(dir.path().join("noise.png"))
        .expect("the bake wrote noise.png")
        .to_rgba8()
        .into_raw();
    assert_levels_match(&baked, picture, "the bake command's PNG against the page");
}

#[test]
fn without_webgpu_the_page_says_what_it_needs() {
    let Some(s) = session() else { return };
    let bare = &s.result["no_webgpu"];
    assert_eq!(bare["started"], false);
    let error = bare["failed"].as_str().unwrap();
    eprintln!("without WebGPU: {error}");
    assert!(error.contains("no WebGPU"), "{error:?}");
}

/// 64-bit FNV-1a, as the page's hook fingerprints a thumbnail's bytes.
fn fnv1a(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// The CPU `f32` reference (RGBA) of a thumbnail the page reports: its sub-graph on a
/// 64 × 64 grid at its frequency, with its seed, drawn with `ramp` over -1..1.
fn thumbnail_reference(thumbnail: &Value, ramp: ColourRamp) -> Vec<u8> {
    reference_of(thumbnail, 64, ramp)
}

/// Asserts node `node`'s thumbnail in step `st` is its sub-graph's CPU reference over the
/// region it reports, within the GPU's levels as the main picture (`assert_levels_match`:
/// the page's GPU is the f32 CPU's within the parity bound, so a value at a level's edge may
/// round to its neighbour), and that the bytes are the ones the hook's hash is of.
fn assert_thumbnail_is_reference(st: &Value, node: &str, ramp: ColourRamp, what: &str) {
    let t = &st["state"]["thumbnails"][node];
    let hex = st["thumbnails"][node]
        .as_str()
        .expect("the thumbnail's bytes");
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    assert_eq!(
        t["rgba_fnv"].as_str(),
        Some(fnv1a(&bytes).as_str()),
        "{node}: {t}"
    );
    assert_levels_match(
        &bytes,
        &thumbnail_reference(t, ramp),
        &format!("{what}: {node}"),
    );
}

#[test]
fn each_nodes_thumbnail_is_its_sub_graphs_reference_with_a_cost() {
    let Some(s) = session() else { return };
    let before = step(s, "terrain ramp");
    let after = step(s, "ridged wired");
    let ramp = ColourRamp::from_name(shown(after)["ramp"].as_str().unwrap()).unwrap();
    let thumbnails = after["state"]["thumbnails"].as_object().unwrap();
    assert!(thumbnails.contains_key("ridged"), "{thumbnails:?}");
    for (node, t) in thumbnails {
        assert_thumbnail_is_reference(after, node, ramp, "thumbnail");
        let cost = t["ns_per_sample"].as_f64();
        eprintln!("page: {node}: {cost:?} ns/sample, {}", t["clock_why"]);
        assert!(
            cost.is_some_and(|c| c.is_finite() && c > 0.0),
            "{node}: {t}"
        );
        // SwiftShader is a CPU adapter: its timestamps are not asked for unless the
        // address asks (`each_nodes_cost_comes_from_the_gpus_timestamps_where_asked`).
        assert_eq!(t["clock"], "CPU", "{node}: {t}");
        assert!(
            [
                Clock::CpuSimd(NoTimestamps::CpuAdapter).why(),
                Clock::CpuSimd(NoTimestamps::Missing).why()
            ]
            .contains(&t["clock_why"].as_str().unwrap_or_default()),
            "{node}: {t}"
        );
        // Adding ridged, which reads the output, leaves the other nodes' thumbnails as
        // they were.
        if node != "ridged" {
            assert_eq!(
                t["rgba_fnv"], before["state"]["thumbnails"][node]["rgba_fnv"],
                "{node}"
            );
        }
    }
}

/// The page opened at the wired graph's link with `?clock=gpu`: every node's cost comes from
/// the GPU's timestamps around its sub-graph's 256² fill (SwiftShader offers timestamp
/// queries), and the thumbnails are the same bytes as without.
#[test]
fn each_nodes_cost_comes_from_the_gpus_timestamps_where_asked() {
    let Some(s) = session() else { return };
    let wired = step(s, "ridged wired");
    let timed = reopened(s, "gpu clock");
    let thumbnails = timed["state"]["thumbnails"].as_object().unwrap();
    assert_eq!(
        thumbnails.keys().collect::<Vec<_>>(),
        wired["state"]["thumbnails"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>()
    );
    for (node, t) in thumbnails {
        let cost = t["ns_per_sample"].as_f64();
        eprintln!("page, GPU clock: {node}: {cost:?} ns/sample");
        assert_eq!(t["clock"], Clock::GpuTimestamps.name(), "{node}: {t}");
        assert!(
            cost.is_some_and(|c| c.is_finite() && c > 0.0),
            "{node}: {t}"
        );
        assert_eq!(
            t["rgba_fnv"], wired["state"]["thumbnails"][node]["rgba_fnv"],
            "{node}"
        );
    }
}

#[test]
fn the_thumbnails_follow_a_frequency_change() {
    let Some(s) = session() else { return };
    let before = step(s, "typed");
    let after = step(s, "frequency dragged");
    let frequency = |st: &Value| shown(st)["frequency"].as_f64().unwrap();
    eprintln!(
        "page: frequency {} → {}",
        frequency(before),
        frequency(after)
    );
    assert!(
        frequency(after) > frequency(before),
        "the drag raised the frequency"
    );
    assert_reference(after, "frequency dragged");
    let ramp = ColourRamp::from_name(shown(after)["ramp"].as_str().unwrap()).unwrap();
    let thumbnails = after["state"]["thumbnails"].as_object().unwrap();
    assert!(!thumbnails.is_empty(), "{}", after["state"]);
    for (node, t) in thumbnails {
        // Each thumbnail is of the picture's new region: its cells across, from the
        // origin, in 2D.
        assert_eq!(
            t["frequency"].as_f64(),
            Some(frequency(after)),
            "{node}: {t}"
        );
        assert_eq!(numbers(&t["origin"]), [0.0; 4], "{node}");
        assert_eq!(t["dims"], 2, "{node}");
        assert_thumbnail_is_reference(after, node, ramp, "thumbnail over the new region");
        assert_ne!(
            t["rgba_fnv"], before["state"]["thumbnails"][node]["rgba_fnv"],
            "{node}'s thumbnail changed with the frequency"
        );
    }
}

/// The iso view's level and camera `[yaw, pitch, distance]` of a step.
fn iso_of(st: &Value) -> (f64, Vec<f64>) {
    let iso = &shown(st)["iso"];
    (iso["level"].as_f64().unwrap(), numbers(&iso["camera"]))
}

/// Asserts the gray picture of `st` is the plane `z − c` at `frequency` cut at the level it
/// reports, seen from straight above as the CPU predicts (tests/common/iso.rs).
fn assert_plane_from_above(st: &Value, c: f64, frequency: f64, what: &str) {
    let (level, camera) = iso_of(st);
    assert_eq!(camera[..2], [0.0, PITCH_RANGE.1], "{what}: straight down");
    let pixels = rgba(st);
    assert_eq!(pixels.len(), (TERRAIN_SIZE * TERRAIN_SIZE * 4) as usize);
    let gray = |x: u32, y: u32| pixels[((y * TERRAIN_SIZE + x) * 4) as usize];
    // The surface z − c = level is the plane at c + level.
    let got = compare_plane_from_above(
        c + level,
        frequency,
        wgpu_noise::editor::iso::SAMPLES,
        camera[2],
        TERRAIN_SIZE,
        &gray,
    );
    eprintln!("{what}: the plane at {}: {got:?}", c + level);
    assert!(
        got.inside > 20_000 && got.outside > 4_000,
        "{what}: {got:?}"
    );
    assert!(got.worst <= 1 && got.not_black == 0, "{what}: {got:?}");
    assert!(pixels.chunks(4).all(|p| p[0] == p[1] && p[1] == p[2]));
}

/// The plane's view switched to 2D and back to iso, turned to look straight down: the
/// surface is where and as the CPU predicts; the readout under the picture's centre is on
/// it, its value and gradient the CPU sampler's there.
#[test]
fn choosing_iso_on_a_plane_draws_the_surface_the_cpu_predicts() {
    let Some(s) = session() else { return };
    let chosen = &s.result["reopened"]["iso chosen"]["after"];
    let (c, frequency) = CHOSEN_PLANE;
    assert_eq!(
        shown(chosen)["graph"],
        plane_json(c).as_str(),
        "text {}, error {}",
        chosen["state"]["text"],
        chosen["state"]["error"]
    );
    assert_eq!(chosen["state"]["error"], Value::Null);
    let (level, camera) = iso_of(chosen);
    assert_eq!(level, 0.0, "the iso view opens at level 0");
    assert_eq!(camera[2], Orbit::default().distance);
    assert_plane_from_above(chosen, c, frequency, "iso chosen");

    let readout = &chosen["state"]["readout"];
    eprintln!("iso readout: {readout}");
    let probe = &readout["probe"];
    let number = |v: &Value| v.as_f64().unwrap() as f32;
    let point: Vec<f32> = probe["point"]
        .as_array()
        .unwrap()
        .iter()
        .map(number)
        .collect();
    let mut sampler = Graph::from_json(&plane_json(c))
        .unwrap()
        .sampler(3, 0)
        .unwrap();
    let [value, gx, gy, gz, _] = sampler.value_and_gradient(&[point[0], point[1], point[2], 0.0]);
    assert!(
        (point[2] as f64 - c).abs() < 1e-4,
        "the ray meets the plane at z = {c}: {point:?}"
    );
    // The centre of the picture, straight down: the cube's centre column (its middle
    // sample's point, frequency · 31.5 / 64, within the pixel's width).
    let centre = frequency * 31.5 / 64.0;
    for a in 0..2 {
        assert!((point[a] as f64 - centre).abs() < 0.02, "{point:?}");
    }
    assert_eq!(number(&probe["value"]), value);
    assert!(value.abs() < 1e-4, "on the surface: {value}");
    assert_eq!(
        [0, 1, 2].map(|k| number(&probe["gradient"][k])),
        [gx, gy, gz]
    );
    assert_eq!([gx, gy, gz], [0.0, 0.0, 1.0]);
    // The range: the cube's values, z − c over z from 0 to frequency · 63 / 64.
    let range = [number(&readout["range"][0]), number(&readout["range"][1])];
    let want = [-c as f32, (frequency * 63.0 / 64.0 - c) as f32];
    for k in 0..2 {
        assert!(
            (range[k] - want[k]).abs() < 1e-5,
            "range {range:?}, want {want:?}"
        );
    }
}

/// An iso link opens in the iso view at its level (the plane where the CPU predicts);
/// the level slider moves it, drawn from the same cube.
#[test]
fn an_iso_link_opens_at_its_level_and_the_slider_moves_it() {
    let Some(s) = session() else { return };
    let page = &s.result["reopened"]["iso link"];
    let opened = reopened(s, "iso link");
    let (c, frequency) = LINKED_PLANE;
    assert_eq!(opened["state"]["notice"], Value::Null);
    assert_eq!(iso_of(opened).0, LINKED_LEVEL);
    assert_plane_from_above(opened, c, frequency, "iso link");
    let moved = &page["after"];
    let (level, _) = iso_of(moved);
    eprintln!("the slider's click set the level to {level}");
    assert!(level != LINKED_LEVEL && level.abs() < 4.0, "{level}");
    assert_plane_from_above(moved, c, frequency, "level moved");
    let state = &moved["state"];
    let fills = numbers(&state["iso_ms"]).len();
    let extractions = numbers(&state["extract_ms"]);
    eprintln!("iso link: {fills} pictures, extractions {extractions:?} ms");
    assert_eq!(extractions.len(), 2, "one extraction per level");
}

/// The iso view of the edited graph, reopened from its address in a fresh page, is the
/// same view and the same picture byte for byte; its bake command writes the cube.
#[test]
fn an_iso_share_link_reproduces_the_picture_and_its_bake_command_is_the_volume() {
    let Some(s) = session() else { return };
    let iso = step(s, "iso");
    let last = step(s, "3d zoomed");
    let (level, camera) = iso_of(iso);
    eprintln!("iso view of the edited graph at level {level}");
    assert_eq!(camera, self::camera(last), "the 3D view's camera");
    assert_eq!(shown(iso)["graph"], shown(last)["graph"]);
    let pixels = rgba(iso);
    let lit = pixels.chunks(4).filter(|p| p[..3] != [0, 0, 0]).count();
    eprintln!("iso view of the edited graph: {lit} pixels lit");
    assert!(lit > 10_000, "a surface, not a blank: {lit}");
    let href = iso["href"].as_str().unwrap();
    assert_eq!(
        iso["state"]["share"].as_str().map(|f| format!("#{f}")),
        href.rsplit_once('#').map(|(_, f)| format!("#{f}")),
    );
    let shared = reopened(s, "shared iso");
    assert_eq!(shown(shared), shown(iso), "the same graph and view");
    assert_eq!(rgba(shared), pixels, "the same picture, byte for byte");

    let command = iso["state"]["copied"].as_str().unwrap();
    eprintln!("iso bake command: {command}");
    let frequency = shown(iso)["frequency"].as_f64().unwrap();
    assert!(command.contains(&format!("--dims 3 --size 64x64x64 --frequency {frequency}")));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("graph.json"),
        shown(iso)["graph"].as_str().unwrap(),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .args(command.split(' ').skip(1))
        .args(["--backend", "cpu"])
        .current_dir(dir.path())
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let npy = std::fs::read(dir.path().join("volume.npy")).unwrap();
    let header_len = u16::from_le_bytes([npy[8], npy[9]]) as usize;
    let header = std::str::from_utf8(&npy[10..10 + header_len]).unwrap();
    assert!(header.contains("'shape': (64, 64, 64)"), "{header}");
}

/// The caves recipe's iso view from a link: the time to its first picture (the cube's
/// fill on SwiftShader, its readback, the extraction in wasm, the draw and its readback);
/// the readout's range, the least and greatest value of the cube the page filled on the
/// GPU, is the f32 CPU's over the same samples within the graph's GPU tolerance.
#[test]
fn the_caves_iso_view_is_timed_and_its_cube_is_the_cpus() {
    let Some(s) = session() else { return };
    let caves = reopened(s, "caves iso");
    let state = &caves["state"];
    assert_eq!(state["error"], Value::Null);
    let pixels = rgba(caves);
    let lit = pixels.chunks(4).filter(|p| p[..3] != [0, 0, 0]).count();
    eprintln!(
        "caves iso from a link: first picture at {:.0} ms from navigation (start() at {:.0} ms); \
         the picture {:?} ms, extraction {:?} ms; {lit} pixels lit",
        state["first_picture_ms"].as_f64().unwrap(),
        state["start_ms"].as_f64().unwrap(),
        numbers(&state["iso_ms"]),
        numbers(&state["extract_ms"]),
    );
    // The tunnels drawn: 25 386 of the 262 144 pixels lit when measured, where an empty
    // cube lights none.
    assert!(lit > 10_000, "{lit}");

    assert_cube_range(caves, &SharedView::from_link(&caves_link()).unwrap());
}

/// A framed iso view (panned, its clock paused 2 s in) fills its cube from the framing's
/// first point, as the desktop's does: the readout's range is the CPU's over that cube, not
/// the origin's; the bake command's volume starts there.
#[test]
fn a_framed_iso_view_fills_its_cube_from_the_pan_and_the_clocks_slice() {
    let Some(s) = session() else { return };
    let st = reopened(s, "caves iso framed");
    let view = shown(st);
    let link = caves_framed_view();
    assert_eq!(numbers(&view["pan"]), link.framing.pan);
    assert_eq!(view["dims"], link.framing.dims);
    assert_eq!(view["time"], link.framing.time);
    assert_eq!(view["paused"], true);
    assert_eq!(st["state"]["error"], Value::Null);
    assert_cube_range(st, &link);
    let plain = rgba(reopened(s, "caves iso"));
    let moved = mean_difference(&rgba(st), &plain);
    eprintln!("framed caves iso: mean |Δlevel| {moved:.2} from the origin's cube");
    assert!(moved > 1.0, "another cube's surface than the origin's");
    let copied = &s.result["reopened"]["caves iso framed"]["after"];
    let command = copied["state"]["copied"].as_str().unwrap();
    eprintln!("framed iso bake command: {command}");
    assert!(
        command.contains(" --size 64x64x64 ") && command.contains(" --offset 1.5,-0.75,0.5 "),
        "the volume from the cube's first point: {command}"
    );
}

/// Asserts that the readout's range of the iso view `st` of `link`, the least and
/// greatest value of the cube the page filled on the GPU, is the f32 CPU's over the same
/// samples (sample `i` of 64 along each axis at `origin + frequency · i / 64`, the origin
/// the framing's first point) within the graph's GPU tolerance.
fn assert_cube_range(st: &Value, link: &SharedView) {
    let graph = Graph::from_json(&link.graph).unwrap();
    let bound = wgpu_noise::gpu::parity::graph_tolerance(&graph.program(3, [0.0; 4]).unwrap());
    let mut sampler = graph.sampler(3, link.seed).unwrap();
    let n = wgpu_noise::editor::iso::SAMPLES;
    let origin = link.framing.origin();
    let at = |a: usize, i: u32| (origin[a] + link.frequency * i as f64 / n as f64) as f32;
    let mut cpu = [f32::INFINITY, f32::NEG_INFINITY];
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                let v = sampler.value(&[at(0, x), at(1, y), at(2, z)]);
                cpu = [cpu[0].min(v), cpu[1].max(v)];
            }
        }
    }
    let range = numbers(&st["state"]["readout"]["range"]);
    eprintln!(
        "cube from {origin:?}: the page's range {range:?}, the CPU's {cpu:?}, bound {bound:e}"
    );
    for k in 0..2 {
        assert!(
            (range[k] - cpu[k] as f64).abs() <= bound as f64,
            "the page's range {range:?}, the CPU's {cpu:?}"
        );
    }
}

/// Dragging the 2D picture moves its region with the pointer: 48 px left and 32 px down move
/// the first pixel's point right and up by those texels (`frequency / 256` lattice units
/// each; egui reports the drag from its first frame, so a few pixels may be lost); the
/// picture is the CPU reference of the panned grid, and the bake command carries the pan as
/// its offset and bakes the same picture. (A link of it reopens it byte for byte:
/// `a_share_link_opened_in_a_fresh_page_reproduces_graph_and_picture`.)
#[test]
fn dragging_the_2d_picture_pans_it_and_its_link_and_bake_keep_the_pan() {
    let Some(s) = session() else { return };
    let before = shown(step(s, "frequency dragged"));
    let panned = step(s, "panned");
    let after = shown(panned);
    assert_eq!(
        numbers(&before["pan"]),
        [0.0, 0.0],
        "unpanned before: {before}"
    );
    let texel = after["frequency"].as_f64().unwrap() / f64::from(FLAT_SIZE);
    let pan = numbers(&after["pan"]);
    let moved = [pan[0] / texel, pan[1] / texel];
    assert!(
        (40.0..=48.5).contains(&moved[0]) && (-32.5..=-24.0).contains(&moved[1]),
        "a drag of (-48, 32) px moves the view by (48, -32) texels, not {moved:?}"
    );
    assert_reference(panned, "panned");
    let same_graph = after["graph"] == before["graph"] && after["seed"] == before["seed"];
    assert!(same_graph, "a drag moves the view, not the graph");
    assert!(
        mean_difference(&rgba(panned), &rgba(step(s, "frequency dragged"))) > 1.0,
        "the picture moved"
    );
    let command = panned["state"]["copied"].as_str().unwrap();
    eprintln!("panned bake command: {command}");
    assert!(command.contains(" --offset "), "{command}");
    bake_matches(command, after["graph"].as_str().unwrap(), &rgba(panned));
}

/// The clock's time of the view a step's (or a recorded picture's) picture is of.
fn time_of(st: &Value) -> f64 {
    shown(st)["time"].as_f64().unwrap()
}

/// The typed graph in 3D, its clock run and paused: the picture is the CPU reference of the
/// 3D field's slice one texel deep at the pan, moved along z by `speed × time` at the time
/// the page reports; the bake command has those dimensions, that slice and that offset and
/// bakes the same picture on the CPU. (Its link reopens it byte for byte, paused at that
/// time: `a_share_link_opened_in_a_fresh_page_reproduces_graph_and_picture`.)
#[test]
fn a_3d_graph_played_and_paused_is_the_cpus_slice_at_its_time_and_bakes_so() {
    let Some(s) = session() else { return };
    let flat = step(s, "panned");
    let dims3 = step(s, "dims 3");
    let played = step(s, "played");
    for (st, what) in [(dims3, "dims 3"), (played, "played")] {
        let view = shown(st);
        assert_eq!(view["dims"], 3, "{what}: {view}");
        assert_eq!(view["paused"], true, "{what}: {view}");
        assert_eq!(view["pan"], shown(flat)["pan"], "{what}: the pan kept");
        assert_eq!(st["state"]["error"], Value::Null, "{what}");
        assert_reference(st, what);
    }
    assert_eq!(time_of(dims3), 0.0, "the clock starts at 0");
    let (time, speed) = (time_of(played), shown(played)["speed"].as_f64().unwrap());
    eprintln!("played: paused at {time:.3} s, {speed} cells/s");
    assert!(time > 0.0, "the clock ran: {time}");
    let moved = mean_difference(&rgba(played), &rgba(dims3));
    eprintln!(
        "the slice moved {:.4} cells along z: mean |Δlevel| {moved:.2}",
        speed * time
    );
    assert!(moved > 0.0, "the picture moved with the clock");
    assert!(
        mean_difference(&rgba(dims3), &rgba(flat)) > 1.0,
        "the 3D field's slice is not the 2D picture"
    );
    // The node view's thumbnails are of the same slice: its first point, in 3D.
    let ramp = ColourRamp::from_name(shown(played)["ramp"].as_str().unwrap()).unwrap();
    let thumbnails = played["state"]["thumbnails"].as_object().unwrap();
    assert!(!thumbnails.is_empty(), "{}", played["state"]);
    for (node, t) in thumbnails {
        assert_eq!(t["dims"], 3, "{node}: {t}");
        assert_eq!(framing_of(t), framing_of(shown(played)), "{node}: {t}");
        assert_thumbnail_is_reference(played, node, ramp, "thumbnail over the paused slice");
    }

    let command = played["state"]["copied"].as_str().unwrap();
    eprintln!("played bake command: {command}");
    assert!(command.contains(" --dims 3 "), "{command}");
    assert!(command.contains(" --size 256x256x1 "), "{command}");
    let offset: Vec<f64> = command
        .split(" --offset ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("an offset: {command}"))
        .split(',')
        .map(|n| n.parse().unwrap())
        .collect();
    let (_, origin) = framing_of(shown(played));
    assert_eq!(offset, origin[..3], "the offset is the slice's first point");
    bake_matches(
        command,
        shown(played)["graph"].as_str().unwrap(),
        &rgba(played),
    );
}

/// While the clock runs, each picture is of a later time (the page's clock, from the wall
/// time) and shows it (each the CPU reference at its time, and each unlike the one before);
/// once paused, the clock and the picture stay.
#[test]
fn while_the_clock_runs_each_picture_is_later_and_pausing_stops_it() {
    let Some(s) = session() else { return };
    let played = step(s, "played");
    let frames = played["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 3, "three pictures recorded while playing");
    let times: Vec<f64> = frames.iter().map(time_of).collect();
    eprintln!("pictures while playing at {times:?} s");
    for (k, frame) in frames.iter().enumerate() {
        assert_eq!(
            shown(frame)["paused"],
            false,
            "picture {k} is of the running clock"
        );
        assert_eq!(
            frame["state"]["busy"], true,
            "the page is busy while the clock runs"
        );
        assert_reference(frame, &format!("playing, picture {k}"));
    }
    for (k, pair) in frames.windows(2).enumerate() {
        assert!(
            time_of(&pair[1]) > time_of(&pair[0]),
            "picture {} is later than picture {k}: {times:?}",
            k + 1
        );
        let changed = differences(&rgba(&pair[0]), &rgba(&pair[1]))
            .iter()
            .filter(|&&d| d > 0)
            .count();
        eprintln!("pictures {k} and {}: {changed} bytes differ", k + 1);
        assert!(changed > 0, "picture {} moved on from picture {k}", k + 1);
    }
    assert!(
        time_of(played) >= times[2],
        "paused after the last picture recorded"
    );
    let still = step(s, "still paused");
    assert_eq!(time_of(still), time_of(played), "the paused clock stays");
    assert_eq!(
        still["state"]["frames"], played["state"]["frames"],
        "no picture while paused"
    );
    assert_eq!(rgba(still), rgba(played));
}

/// The terrain of the panned, played 3D graph covers the 2D picture's region at its time
/// (the same framing), a click on the relief slider raises it (a new picture), and its link
/// reopens it byte for byte
/// (`a_share_link_opened_in_a_fresh_page_reproduces_graph_and_picture`).
#[test]
fn the_terrain_keeps_the_pan_and_clock_and_the_relief_slider_raises_it() {
    let Some(s) = session() else { return };
    let played = shown(step(s, "played"));
    let terrain = step(s, "terrain panned");
    let raised = step(s, "relief");
    for (st, what) in [(terrain, "terrain panned"), (raised, "relief")] {
        let view = shown(st);
        assert!(view["terrain"].is_array(), "{what}: the 3D view");
        for key in ["pan", "dims", "time", "speed", "paused"] {
            assert_eq!(view[key], played[key], "{what}: the 2D view's {key}");
        }
    }
    let default = shown(terrain)["relief"].as_f64().unwrap();
    let relief = shown(raised)["relief"].as_f64().unwrap();
    eprintln!("relief from {default} to {relief}");
    assert_eq!(default, DEFAULT_RELIEF);
    assert!(
        relief > default && relief <= RELIEF_RANGE.1,
        "the click raised the relief: {relief}"
    );
    let changed = mean_difference(&rgba(terrain), &rgba(raised));
    eprintln!("the relief changed the picture: mean |Δlevel| {changed:.2}");
    assert!(changed > 1.0, "the terrain rose");
}

/// A node that breaks the graph added while the clock runs: the error shows in the frame
/// of the edit; the clock goes on without input (the time the page reports moves on by
/// about the waits); the picture is the last good graph's, its CPU reference at its own
/// time (the draw under way at the edit lands), and then stays.
#[test]
fn a_graph_broken_while_playing_keeps_the_clock_running_and_the_last_picture() {
    let Some(s) = session() else { return };
    let frames = step(s, "broken while playing")["frames"]
        .as_array()
        .unwrap();
    let [playing, broken, waited, waited_again] = &frames[..] else {
        panic!(
            "a picture while playing and the page three times after: {}",
            frames.len()
        );
    };
    assert_eq!(shown(playing)["paused"], false, "the clock runs");
    assert_eq!(playing["state"]["error"], Value::Null);
    for (st, what) in [
        (broken, "broken"),
        (waited, "broken, waited"),
        (waited_again, "broken, waited again"),
    ] {
        assert!(st["state"]["error"].is_string(), "{what}: {}", st["state"]);
        assert_eq!(
            shown(st)["graph"],
            TYPED,
            "{what}: the last good graph is shown"
        );
        assert_reference(st, what);
    }
    // The draw under way at the edit (of the last good graph) may land after it; no other
    // picture comes, and once none is under way the picture stays byte for byte.
    let pictures = |st: &Value| st["state"]["frames"].as_u64().unwrap();
    assert!(
        pictures(waited_again) <= pictures(broken) + 1,
        "pictures drawn after the edit: {} then {}",
        pictures(broken),
        pictures(waited_again)
    );
    if pictures(waited) == pictures(waited_again) {
        assert_eq!(
            rgba(waited_again),
            rgba(waited),
            "the last good picture stays"
        );
    }
    let clock = |st: &Value| st["state"]["clock"].as_f64().unwrap();
    let waited_s = 2.0 * BROKEN_WAIT_MS as f64 / 1e3;
    eprintln!(
        "broken while playing: the clock at {:.3} s, {:.3} s after waits of {waited_s} s",
        clock(broken),
        clock(waited_again)
    );
    assert!(
        clock(waited_again) - clock(broken) >= 0.8 * waited_s,
        "the clock went on without input"
    );
}
