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
use wgpu_noise::cpu::fill::{fill_slab_curl, generate_f32};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::field::{FlagField, Fractal, FractalMode, Warp};
use wgpu_noise::graph::Graph;
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::ramp::ColourRamp;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

use crate::common::levels::{assert_levels_match_within, differences};
use crate::{assert_clean_start, browser_tools, run_driver, skip};

/// The graph typed into the page: ridged simplex, domain-warped.
const GRAPH: &str = r#"{"version":1,"output":"out","nodes":{"base":{"type":"simplex"},"ridges":{"type":"ridged","source":"base","octaves":3},"out":{"type":"warp","source":"ridges","amplitude":0.4,"octaves":2}}}"#;

/// The steps after the first picture, in order (their names index the session).
fn steps() -> Value {
    json!([
        { "name": "seed 5", "actions": [{ "type": "seed", "text": "5" }] },
        { "name": "value noise", "actions": [{ "select": "kind", "value": "value" }] },
        { "name": "classic, 4 ridged octaves, hash", "actions": [
            { "select": "kind", "value": "classic" },
            { "select": "fractal", "value": "ridged" },
            { "type": "octaves", "text": "4" },
            { "select": "lookup", "value": "hash" },
        ] },
        { "name": "3D, terrain colours, warped", "actions": [
            { "select": "dims", "value": "3" },
            { "select": "ramp", "value": "terrain" },
            { "type": "warp", "text": "0.5" },
        ] },
        { "name": "animated, then paused", "actions": [
            { "type": "speed", "text": "2" },
            { "wait": 1500 },
            { "click": "paused" },
        ] },
        { "name": "curl flow map", "actions": [{ "click": "curl" }] },
        { "name": "4D tileable, magma", "actions": [
            { "click": "curl" },
            { "select": "dims", "value": "4" },
            { "click": "tileable" },
            { "select": "ramp", "value": "magma" },
        ] },
        { "name": "flowing simplex 2D", "actions": [
            { "select": "dims", "value": "2" },
            { "select": "kind", "value": "simplex" },
            { "click": "tileable" },
            { "type": "warp", "text": "0" },
            { "click": "flow" },
            { "click": "paused" },
            // The clock advances when a frame is done; the first frame of flow noise (its
            // shader compiled on SwiftShader) took over 1 s here (2-core EPYC, under load),
            // so a 1 s wait saw no frame end. The clock then ran 2.97 of these 3 s.
            { "wait": 3000 },
            { "click": "paused" },
        ] },
        { "name": "graph", "actions": [
            { "select": "ramp", "value": "gray" },
            { "type": "graph", "text": GRAPH },
        ] },
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

/// The canvas's RGBA bytes.
fn rgba(st: &Value) -> Vec<u8> {
    st["rgba"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u8)
        .collect()
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// The field the page reports it drew (`App::settings`).
fn reported_field(settings: &Value) -> FlagField {
    let kind = match settings["kind"].as_str().unwrap() {
        "classic" => NoiseKind::Classic,
        "simplex" => NoiseKind::Simplex,
        "cellular" => NoiseKind::Cellular,
        "value" => NoiseKind::Value,
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
    let warp = &settings["warp"];
    let mut field = FlagField::new(kind, &size)
        .with_tileable(settings["tileable"].as_bool().unwrap())
        .with_frequency(&numbers(&settings["frequency"]))
        .with_offset(&numbers(&settings["offset"]))
        .with_fractal(Fractal {
            mode,
            octaves: f["octaves"].as_u64().unwrap() as u32,
            lacunarity: f["lacunarity"].as_f64().unwrap(),
            gain: f["gain"].as_f64().unwrap(),
        })
        .with_warp(Warp {
            amplitude: warp["amplitude"].as_f64().unwrap(),
            octaves: warp["octaves"].as_u64().unwrap() as u32,
            iterations: warp["iterations"].as_u64().unwrap() as u32,
            ..Warp::default()
        })
        .with_flow_angle(settings["flow_angle"].as_f64().unwrap());
    field.reduce_offset = settings["reduce_offset"].as_bool().unwrap();
    field
}

/// The CPU `f32` reference of what the page reports it drew (RGBA): the field, or the
/// graph over it, with the reported lookup and seed, `t = clamp((v − low) / (high − low),
/// 0, 1)` with the reported range drawn with the reported colour ramp; or curl noise's
/// components mapped from the range (B = 0 in 2D).
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
    let low = settings["range"][0].as_f64().unwrap() as f32;
    let high = settings["range"][1].as_f64().unwrap() as f32;
    let unit = |v: f32| ((v - low) / (high - low)).clamp(0.0, 1.0);
    let level = |t: f32| (t * 255.0).round() as u8;
    let params = FillParams::new(&field, Slab::whole(&field));
    if settings["output"] == "curl" {
        let d = field.dims;
        let mut curl = vec![0.0; params.len() * d];
        fill_slab_curl(lut, d, &params, &mut curl);
        return curl
            .chunks_exact(d)
            .flat_map(|c| {
                [
                    level(unit(c[0])),
                    level(unit(c[1])),
                    c.get(2).map_or(0, |&z| level(unit(z))),
                    255,
                ]
            })
            .collect();
    }
    let values = match settings["graph"].as_str() {
        None => generate_f32(lut, &field).expect("a valid field"),
        Some(text) => {
            let program = Graph::from_json(text)
                .and_then(|g| g.program(field.dims, [0.0; 4]))
                .expect("the page's graph is valid");
            let mut out = vec![0.0; params.len()];
            wgpu_noise::graph::eval::fill_slab(&program, lut, &params, &mut out);
            out
        }
    };
    let ramp = ColourRamp::from_name(settings["ramp"].as_str().unwrap()).unwrap();
    values
        .iter()
        .flat_map(|&v| {
            let [r, g, b] = ramp.rgb8(unit(v));
            [r, g, b, 255]
        })
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
    assert_eq!(
        (&settings["dims"], &settings["ramp"], &settings["animated"]),
        (&json!(2), &json!("gray"), &json!(false))
    );
    for name in [
        "first picture",
        "seed 5",
        "value noise",
        "classic, 4 ridged octaves, hash",
        "3D, terrain colours, warped",
        "animated, then paused",
        "curl flow map",
        "4D tileable, magma",
        "flowing simplex 2D",
        "graph",
    ] {
        let st = step(s, name);
        assert_eq!(st["error"], "", "{name}: no error shown");
        assert_eq!(st["graph_error"], "", "{name}: no graph error shown");
        let got = rgba(st);
        // Flow noise turns its gradients by the cos and sin of the clock's angle, the same
        // f32 on both sides; its off-by-one share varied with the angle the clock stopped
        // at: 2021 to 3793 of 262144 values (0.77 to 1.45%) in six runs on a Xeon VM with
        // SwiftShader (2026-11-28), the other steps at most 66; 4% leaves that spread room.
        // The cause is not isolated (SwiftShader's sin and cos are the candidates); no
        // value is off by more.
        let one_in = if name == "flowing simplex 2D" {
            25
        } else {
            100
        };
        let what = format!("page: {name}");
        assert_levels_match_within(&got, &reference(&st["settings"]), &what, one_in);
        let mut colours: Vec<&[u8]> = got.chunks(4).collect();
        colours.sort();
        colours.dedup();
        assert!(
            colours.len() > 50,
            "{name}: a picture, not a blank: {} colours",
            colours.len()
        );
    }
}

#[test]
fn the_new_controls_set_the_fields_dimensions_warp_tiling_curl_and_colours() {
    let Some(s) = session() else { return };
    let terrain = &step(s, "3D, terrain colours, warped")["settings"];
    assert_eq!(terrain["dims"], 3);
    assert_eq!(terrain["size"], json!([256, 256, 1]));
    assert_eq!(terrain["ramp"], "terrain");
    assert_eq!(terrain["warp"]["amplitude"], 0.5);
    let curl = &step(s, "curl flow map")["settings"];
    assert_eq!(curl["output"], "curl");
    assert_eq!(numbers(&curl["range"]), [-8.0, 8.0], "the flow map's range");
    let tiled = &step(s, "4D tileable, magma")["settings"];
    assert_eq!(
        (&tiled["dims"], &tiled["tileable"], &tiled["ramp"]),
        (&json!(4), &json!(true), &json!("magma"))
    );
    assert_eq!(tiled["output"], "value", "4D has no curl");
    // Tiled: whole cells across, the animated axis looping every 4 cells.
    assert_eq!(reported_field(tiled).frequency[..4], [8.0, 8.0, 4.0, 4.0]);
    let terrain_rgb = rgba(step(s, "3D, terrain colours, warped"));
    let coloured = terrain_rgb
        .chunks(4)
        .filter(|p| p[0] != p[1] || p[1] != p[2])
        .count();
    eprintln!("terrain ramp: {coloured} of 65536 pixels not gray");
    assert!(coloured > 60_000, "the terrain ramp colours the picture");
}

#[test]
fn the_clock_moves_the_animated_axis_or_turns_flow_noise_and_pause_stops_it() {
    let Some(s) = session() else { return };
    let paused = &step(s, "animated, then paused")["settings"];
    let time = paused["time"].as_f64().unwrap();
    eprintln!("animated 3D at 2 cells/s for 1.5 s: paused at t = {time:.3} s");
    assert!(time > 0.3, "the clock ran: t = {time}");
    assert_eq!(paused["animated"], true);
    let offset = numbers(&paused["offset"]);
    assert_eq!(
        offset,
        [0.0, 0.0, 2.0 * time],
        "3D moves along z at the speed"
    );
    // The curl step changed nothing but the output: paused, the clock stayed.
    assert_eq!(step(s, "curl flow map")["settings"]["time"], paused["time"]);
    let flowing = &step(s, "flowing simplex 2D")["settings"];
    let flow_time = flowing["time"].as_f64().unwrap();
    eprintln!("flow noise ran to t = {flow_time:.3} s");
    assert!(flow_time > time + 0.2, "the clock ran again once resumed");
    assert_eq!(
        flowing["flow_angle"].as_f64().unwrap(),
        flow_time,
        "1 rad/s"
    );
    assert_eq!(
        numbers(&flowing["offset"]),
        [0.0, 0.0],
        "flow noise turns, it does not move"
    );
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
    let d = mean_difference(&rgba(seed), &rgba(first));
    eprintln!("seed 0 → 5: mean |Δlevel| (RGBA) {d:.1}");
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
    let d = mean_difference(&rgba(ridged), &rgba(seed));
    eprintln!("classic ridged hash: mean |Δlevel| (RGBA) {d:.1}");
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
        rgba(bad),
        rgba(graph),
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
