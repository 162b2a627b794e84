//! The interactive page (`web/www`, built by `web/build`) in headless Chromium: what it
//! shows after each change a user makes is the CPU `f32` reference of the settings it
//! reports.
//!
//! One run of `web/page.mjs` serves every test here: it loads the page, then types and
//! chooses in its controls and graph box as a user would (puppeteer's keyboard and
//! selects, each keystroke an `input` event), and records after each step the canvas's
//! pixels, the settings the page reports and its error lines; it clicks "save PNG" and
//! "save graph", and opens the page once more without `navigator.gpu`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use serde_json::{json, Value};
use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::graph::Graph;
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{Field, Fractal, FractalMode, NoiseKind};

use crate::common::levels::{assert_levels_match, differences};
use crate::{assert_clean_start, browser_tools, run_driver, skip};

/// The graph typed into the page: ridged simplex, domain-warped.
const GRAPH: &str = r#"{"version":1,"output":"out","nodes":{"base":{"type":"simplex"},"ridges":{"type":"ridged","source":"base","octaves":3},"out":{"type":"warp","source":"ridges","amplitude":0.4,"octaves":2}}}"#;

/// The steps after the first picture, in order (their names index the session).
fn steps() -> Value {
    json!([
        { "name": "seed 5", "actions": [{ "type": "seed", "text": "5" }] },
        { "name": "classic, 4 ridged octaves, hash", "actions": [
            { "select": "kind", "value": "classic" },
            { "select": "fractal", "value": "ridged" },
            { "type": "octaves", "text": "4" },
            { "select": "lookup", "value": "hash" },
        ] },
        { "name": "graph", "actions": [{ "type": "graph", "text": GRAPH }] },
        { "name": "bad graph", "actions": [{ "append": "graph", "text": "x" }] },
        { "name": "save", "actions": [
            { "click": "save-png", "download": "wgpu-noise.png" },
            { "click": "save-graph", "download": "graph.json" },
        ] },
    ])
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
    let screenshot = match std::env::var_os("WGPU_NOISE_DOCS_IMAGES") {
        Some(docs) => PathBuf::from(docs).join("web-app.png"),
        None => dir.path().join("web-app.png"),
    };
    let request = json!({
        "chromium": chromium,
        "site": web.join("www"),
        "screenshot": screenshot,
        "downloads": downloads,
        "steps": steps(),
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

/// The canvas's gray levels (asserting a gray, opaque picture).
fn gray(st: &Value) -> Vec<u8> {
    let rgba: Vec<u8> = st["rgba"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u8)
        .collect();
    rgba.chunks(4)
        .map(|px| {
            assert!(
                px[0] == px[1] && px[1] == px[2] && px[3] == 255,
                "{}: an opaque gray picture: {px:?}",
                st["name"]
            );
            px[0]
        })
        .collect()
}

/// The field the page reports it drew (`App::settings`).
fn reported_field(settings: &Value) -> Field {
    let kind = match settings["kind"].as_str().unwrap() {
        "classic" => NoiseKind::Classic,
        "simplex" => NoiseKind::Simplex,
        "cellular" => NoiseKind::Cellular,
        other => panic!("kind {other}"),
    };
    let f = &settings["fractal"];
    let mode = match f["mode"].as_str().unwrap() {
        "fbm" => FractalMode::Fbm,
        "turbulence" => FractalMode::Turbulence,
        "ridged" => FractalMode::Ridged,
        other => panic!("mode {other}"),
    };
    let size: Vec<u32> = settings["size"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    let frequency: Vec<f64> = settings["frequency"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    Field::new(kind, &size)
        .with_frequency(&frequency)
        .with_fractal(Fractal {
            mode,
            octaves: f["octaves"].as_u64().unwrap() as u32,
            lacunarity: f["lacunarity"].as_f64().unwrap(),
            gain: f["gain"].as_f64().unwrap(),
        })
}

/// The CPU `f32` reference of what the page reports it drew: the field, or the graph over
/// it, with the reported lookup and seed, gray = round(255 · clamp((v − low) / (high −
/// low), 0, 1)) with the reported black and white values.
fn reference(settings: &Value) -> Vec<u8> {
    let seed: u64 = settings["seed"].as_str().unwrap().parse().unwrap();
    match settings["lookup"].as_str().unwrap() {
        "textures" => reference_with(settings, &PermutationTables::new(seed)),
        "hash" => reference_with(settings, &IntegerHasher::new(seed)),
        other => panic!("lookup {other}"),
    }
}

fn reference_with(settings: &Value, lut: &impl NoiseHasher) -> Vec<u8> {
    let field = reported_field(settings);
    let values = match settings["graph"].as_str() {
        None => generate_f32(lut, &field).expect("a valid field"),
        Some(text) => {
            let program = Graph::from_json(text)
                .and_then(|g| g.program(2, [0.0; 4]))
                .expect("the page's graph is valid");
            let params = FillParams::new(&field, Slab::whole(&field));
            let mut out = vec![0.0; params.len()];
            wgpu_noise::graph::fill_slab(&program, lut, &params, &mut out);
            out
        }
    };
    let low = settings["gray"][0].as_f64().unwrap() as f32;
    let high = settings["gray"][1].as_f64().unwrap() as f32;
    values
        .iter()
        .map(|&v| (((v - low) / (high - low)).clamp(0.0, 1.0) * 255.0).round() as u8)
        .collect()
}

fn mean_difference(a: &[u8], b: &[u8]) -> f64 {
    let d = differences(a, b);
    d.iter().map(|&v| f64::from(v)).sum::<f64>() / d.len() as f64
}

#[test]
fn the_page_loads_on_the_browsers_webgpu_with_a_clean_console() {
    let Some(s) = session() else { return };
    let r = &s.result;
    eprintln!("page status: {}", r["status"]);
    assert_clean_start(r);
}

#[test]
fn every_picture_the_page_shows_is_the_cpu_reference_of_the_settings_it_reports() {
    let Some(s) = session() else { return };
    let first = step(s, "first picture");
    // The page's defaults.
    let settings = &first["settings"];
    assert_eq!(settings["kind"], "simplex");
    assert_eq!(settings["seed"], "0");
    assert_eq!(settings["size"], json!([256, 256]));
    assert_eq!(reported_field(settings).frequency[..2], [8.0, 8.0]);
    assert_eq!(settings["fractal"]["octaves"], 1);
    assert_eq!(settings["lookup"], "textures");
    assert_eq!(settings["graph"], Value::Null);
    for name in [
        "first picture",
        "seed 5",
        "classic, 4 ridged octaves, hash",
        "graph",
    ] {
        let st = step(s, name);
        assert_eq!(st["error"], "", "{name}: no error shown");
        assert_eq!(st["graph_error"], "", "{name}: no graph error shown");
        let got = gray(st);
        assert_levels_match(&got, &reference(&st["settings"]), &format!("page: {name}"));
        let (lo, hi) = (got.iter().min().unwrap(), got.iter().max().unwrap());
        assert!(hi - lo > 100, "{name}: a picture, not a blank: {lo}..{hi}");
    }
}

#[test]
fn a_control_change_draws_the_new_fields_reference() {
    let Some(s) = session() else { return };
    let first = step(s, "first picture");
    let seed = step(s, "seed 5");
    assert_eq!(seed["settings"]["seed"], "5", "the typed seed is drawn");
    let mut expected = first["settings"].clone();
    expected["seed"] = json!("5");
    assert_eq!(seed["settings"], expected, "only the seed changed");
    let d = mean_difference(&gray(seed), &gray(first));
    eprintln!("seed 0 → 5: mean |Δgray| {d:.1}");
    assert!(d > 5.0, "the picture changed with the seed");

    let ridged = step(s, "classic, 4 ridged octaves, hash");
    let r = &ridged["settings"];
    assert_eq!(
        (
            &r["kind"],
            &r["fractal"]["mode"],
            &r["fractal"]["octaves"],
            &r["lookup"]
        ),
        (
            &json!("classic"),
            &json!("ridged"),
            &json!(4),
            &json!("hash")
        )
    );
    // Clearing the octaves box before typing 4 is a refused change (an empty number),
    // shown and then replaced by the next keystroke's good one.
    assert!(ridged["rejected"].as_u64().unwrap() >= 1);
    let d = mean_difference(&gray(ridged), &gray(seed));
    eprintln!("classic ridged hash: mean |Δgray| {d:.1}");
    assert!(d > 5.0, "the picture changed with the controls");
}

#[test]
fn a_graph_typed_into_the_page_is_drawn_and_a_bad_edit_keeps_the_last_good_picture() {
    let Some(s) = session() else { return };
    let graph = step(s, "graph");
    assert_eq!(graph["settings"]["graph"], GRAPH);
    let bad = step(s, "bad graph");
    let error = bad["graph_error"].as_str().unwrap();
    eprintln!("bad graph: {error}");
    assert!(
        error.starts_with("graph: not valid JSON"),
        "the error is shown: {error:?}"
    );
    assert_eq!(bad["settings"]["graph"], GRAPH, "the last good graph stays");
    assert_eq!(
        gray(bad),
        gray(graph),
        "the last good picture stays, byte for byte"
    );
}

#[test]
fn the_page_saves_its_picture_as_png_and_its_graph_as_json() {
    let Some(s) = session() else { return };
    let saved = image::open(s.downloads.join("wgpu-noise.png"))
        .expect("save PNG wrote a PNG")
        .to_rgba8();
    let shown = step(s, "save");
    let rgba: Vec<u8> = shown["rgba"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u8)
        .collect();
    assert_eq!(saved.dimensions(), (256, 256));
    assert_eq!(saved.into_raw(), rgba, "the PNG holds the canvas's pixels");
    let graph = std::fs::read_to_string(s.downloads.join("graph.json")).expect("save graph");
    assert_eq!(graph, GRAPH, "the saved graph is the last good one");
    Graph::from_json(&graph).expect("the saved graph loads");
}

#[test]
fn without_webgpu_the_page_says_what_it_needs() {
    let Some(s) = session() else { return };
    let bare = &s.result["no_webgpu"];
    assert_eq!(bare["ready"], false);
    let error = bare["error"].as_str().unwrap();
    eprintln!("without WebGPU: {error}");
    assert!(error.contains("no WebGPU"), "{error:?}");
}
