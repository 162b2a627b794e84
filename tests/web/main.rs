//! The library's embeddable WGSL on a browser's own WebGPU (Chromium: Dawn and Tint, not
//! wgpu and naga), against the CPU `f32` reference.
//!
//! One run of `web/check.mjs` (puppeteer-core pointed at the system Chromium, headless,
//! WebGPU on SwiftShader) serves every test of this binary: this side writes the WGSL
//! (`shader::noise_functions_wgsl_with` of both lookup variants, with kernels and a
//! fragment shader of the test's own), the lookup textures of the texture contract
//! (`embed::contract`) and the points; the page (`web/check/index.html`) runs them and
//! hands back values and pictures; each test asserts one behaviour of that run.
//! Needs `npm ci` in `web/` and Chromium (`/usr/bin/chromium`, or `WGPU_NOISE_CHROMIUM`);
//! without them the tests are skipped with a note — unless `WGPU_NOISE_REQUIRE_GPU` is
//! set (CI), where a missing piece is a failure. `WGPU_NOISE_DOCS_IMAGES=$PWD/docs/images`
//! saves the page's screenshot as `web-page.png` there.

#[path = "../common/mod.rs"]
mod common;
#[path = "../embed_support/mod.rs"]
mod embed_support;
mod page;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use serde_json::{json, Value};
use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::embed::contract::{lookup_textures, Dimension, TexelFormat};
use wgpu_noise::field::{FlagField, Fractal, FractalMode};
use wgpu_noise::params::{FillParams, NoiseSettings, Slab};
use wgpu_noise::shader::{noise_functions_wgsl_with, LookupVariant, HASH_KEY_OVERRIDE_ID};
use wgpu_noise::tables::{hash_key_for_seed, PermutationTables};
use wgpu_noise::NoiseKind;

use common::levels::{assert_levels_match, differences};
use embed_support::{APP_BINDINGS, SIX};

/// The bind group the page gives the lookup textures (the application's choice).
const GROUP: u32 = 1;

/// The seed of the embedded-function check (not 0: Perlin's own permutation).
const SEED: u64 = 11;

/// The canvas: 256 × 256 pixels.
const SIZE: u32 = 256;

/// A field the page draws, with the lookup variant and seed it is drawn with.
struct Picture {
    name: &'static str,
    field: FlagField,
    variant: LookupVariant,
    seed: u64,
}

fn pictures() -> Vec<Picture> {
    let fractal = |mode, octaves| Fractal {
        mode,
        octaves,
        ..Fractal::default()
    };
    vec![
        Picture {
            name: "simplex, 1 fBm octave, textures, seed 0",
            field: FlagField::new(NoiseKind::Simplex, &[SIZE, SIZE]).with_frequency(&[8.0, 8.0]),
            variant: LookupVariant::Textures,
            seed: 0,
        },
        Picture {
            name: "simplex, 4 ridged octaves, textures, seed 7",
            field: FlagField::new(NoiseKind::Simplex, &[SIZE, SIZE])
                .with_frequency(&[8.0, 8.0])
                .with_fractal(fractal(FractalMode::Ridged, 4)),
            variant: LookupVariant::Textures,
            seed: 7,
        },
        Picture {
            name: "classic, 3 fBm octaves, hash, seed 7",
            field: FlagField::new(NoiseKind::Classic, &[SIZE, SIZE])
                .with_frequency(&[5.5, 5.5])
                .with_fractal(fractal(FractalMode::Fbm, 3)),
            variant: LookupVariant::Hash,
            seed: 7,
        },
    ]
}

/// The noise values drawn black and white: fBm in [-1, 1], ridged sums in [0, 1] (the
/// desktop preview's ramp).
fn gray_range(mode: FractalMode) -> (f32, f32) {
    match mode {
        FractalMode::Fbm => (-1.0, 1.0),
        FractalMode::Turbulence | FractalMode::Ridged => (0.0, 1.0),
    }
}

/// The fragment shader the page draws a field with: pixel (i, j), j = 0 the top row,
/// samples offset + step · (i, j) (the fill's sampling convention) with `fractal2`, and
/// gray = clamp((v − low) / (high − low), 0, 1) on a linear target.
const DRAW_WGSL: &str = r#"
struct Frame {
    offset: vec4<f32>,
    step: vec4<f32>,
    settings: NoiseSettings,
    kind: u32,
    gray_low: f32,
    gray_high: f32,
    pad: u32,
}
@group(0) @binding(0) var<uniform> frame: Frame;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let p = frame.offset + frame.step * vec4<f32>(floor(position.xy), 0.0, 0.0);
    let v = fractal2(frame.kind, p.xy, frame.settings);
    let g = clamp((v - frame.gray_low) / (frame.gray_high - frame.gray_low), 0.0, 1.0);
    return vec4<f32>(g, g, g, 1.0);
}
"#;

/// The bytes of `Frame` above for `field`.
fn frame_bytes(field: &FlagField) -> Vec<u8> {
    let params = FillParams::new(field, Slab::whole(field));
    let (low, high) = gray_range(field.fractal.mode);
    let kind: u32 = match field.kind {
        NoiseKind::Classic => 0,
        NoiseKind::Simplex => 1,
        NoiseKind::Cellular => 2,
        NoiseKind::Value => 3,
        NoiseKind::SuperSimplex => 4,
    };
    let mut out = Vec::new();
    out.extend_from_slice(bytemuck::cast_slice(&params.offset));
    out.extend_from_slice(bytemuck::cast_slice(&params.step));
    out.extend_from_slice(bytemuck::bytes_of(&NoiseSettings::of(field)));
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(&low.to_le_bytes());
    out.extend_from_slice(&high.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out
}

/// What the page needs for `variant` and `seed`: the lookup textures of the contract
/// (texture variant) or the hash key's pipeline constant (hash variant).
fn noise_side(variant: LookupVariant, seed: u64) -> (Value, Value) {
    match variant {
        LookupVariant::Textures => {
            let textures: Vec<Value> = lookup_textures(seed)
                .into_iter()
                .map(|t| {
                    json!({
                        "binding": t.binding,
                        "dimension": match t.dimension { Dimension::D1 => "D1", Dimension::D2 => "D2" },
                        "width": t.width,
                        "height": t.height,
                        "format": match t.format { TexelFormat::R8Uint => "R8Uint", TexelFormat::Rgba8Uint => "Rgba8Uint" },
                        "texels": t.texels,
                    })
                })
                .collect();
            (json!(textures), json!({}))
        }
        LookupVariant::Hash => (
            Value::Null,
            Value::Object(
                [(
                    HASH_KEY_OVERRIDE_ID.to_string(),
                    json!(hash_key_for_seed(seed)),
                )]
                .into_iter()
                .collect(),
            ),
        ),
    }
}

/// The six-function kernel of the embedding tests (classic2..simplex4 per point) after the
/// noise functions of `variant`.
fn kernel_wgsl(variant: LookupVariant) -> String {
    format!(
        "{}\n{APP_BINDINGS}{}",
        noise_functions_wgsl_with(variant, GROUP),
        embed_support::six_function_kernel("")
    )
}

fn variant_name(variant: LookupVariant) -> &'static str {
    match variant {
        LookupVariant::Textures => "textures",
        LookupVariant::Hash => "hash",
    }
}

/// The recorded run, or `None` when the page cannot run here (the reason printed).
fn session() -> Option<&'static Value> {
    static SESSION: OnceLock<Option<Value>> = OnceLock::new();
    SESSION.get_or_init(run_page).as_ref()
}

/// `None` with the reason on stderr, or a panic under `WGPU_NOISE_REQUIRE_GPU`.
fn skip<T>(reason: String) -> Option<T> {
    if std::env::var_os("WGPU_NOISE_REQUIRE_GPU").is_some() {
        panic!("WGPU_NOISE_REQUIRE_GPU is set but the browser cannot be tested: {reason}");
    }
    eprintln!("SKIPPED (browser): {reason}");
    None
}

/// Chromium and the `web/` directory with its driver installed, or why the browser
/// cannot be tested here.
fn browser_tools() -> Result<(PathBuf, PathBuf), String> {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
    let chromium = std::env::var_os("WGPU_NOISE_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chromium.exists() {
        return Err(format!(
            "no Chromium at {} (apt-get install chromium)",
            chromium.display()
        ));
    }
    if !web.join("node_modules/puppeteer-core").exists() {
        return Err("web/node_modules is missing (run `npm ci` in web/)".into());
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Err("node is not installed".into());
    }
    Ok((chromium, web))
}

/// Runs the driver `script` (`node SCRIPT REQUEST.json RESULT.json`) with `request`, in
/// `dir`, and returns its result after printing the page's console; the driver's own failure
/// or a page that did not start fails the test.
fn run_driver(script: &Path, request: &Value, dir: &Path) -> Value {
    let request_path = dir.join("request.json");
    let result_path = dir.join("result.json");
    std::fs::write(&request_path, request.to_string()).unwrap();
    let start = Instant::now();
    let out = Command::new("node")
        .arg(script)
        .arg(&request_path)
        .arg(&result_path)
        .output()
        .expect("node runs");
    eprintln!(
        "{}: {:.1} s",
        script.display(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        out.status.success(),
        "{} failed: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(&result_path).unwrap()).unwrap();
    for m in result["console"].as_array().unwrap() {
        eprintln!("console.{}: {}", m["type"].as_str().unwrap(), m["text"]);
    }
    if let Some(e) = result.get("driver_error") {
        panic!("the page failed: {}", e.as_str().unwrap());
    }
    assert_eq!(
        result["ready"], true,
        "the page did not start: {}",
        result["failed"]
    );
    result
}

fn run_page() -> Option<Value> {
    let (chromium, web) = match browser_tools() {
        Ok(tools) => tools,
        Err(reason) => return skip(reason),
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let page_png = match std::env::var_os("WGPU_NOISE_DOCS_IMAGES") {
        Some(docs) => PathBuf::from(docs).join("web-page.png"),
        None => dir.path().join("web-page.png"),
    };
    let points = embed_support::points(2000);
    let compute: Vec<Value> = [LookupVariant::Textures, LookupVariant::Hash]
        .into_iter()
        .map(|variant| {
            let (textures, constants) = noise_side(variant, SEED);
            json!({
                "name": variant_name(variant),
                "wgsl": kernel_wgsl(variant),
                "group": GROUP,
                "textures": textures,
                "constants": constants,
                "points": points.iter().flatten().collect::<Vec<_>>(),
                "per_point": SIX.len(),
            })
        })
        .collect();
    let draw: Vec<Value> = pictures()
        .iter()
        .map(|p| {
            let (textures, constants) = noise_side(p.variant, p.seed);
            json!({
                "name": p.name,
                "wgsl": format!("{}\n{DRAW_WGSL}", noise_functions_wgsl_with(p.variant, GROUP)),
                "group": GROUP,
                "textures": textures,
                "constants": constants,
                "uniform": frame_bytes(&p.field),
            })
        })
        .collect();
    let request = json!({
        "chromium": chromium,
        "site": web.join("check"),
        "out_dir": dir.path(),
        "page_screenshot": page_png,
        "compute": compute,
        "draw": draw,
    });
    let mut result = run_driver(&web.join("check.mjs"), &request, dir.path());
    eprintln!("page screenshot {}", page_png.display());
    // The screenshots live in the temporary directory: keep their gray levels.
    for p in pictures() {
        let png = result["draw"][p.name].as_str().unwrap().to_string();
        let image = image::open(&png).expect("a PNG screenshot").to_rgba8();
        assert_eq!(
            image.dimensions(),
            (SIZE, SIZE),
            "{}: the canvas's pixels",
            p.name
        );
        let gray: Vec<u8> = image
            .pixels()
            .map(|px| {
                assert!(
                    px[0] == px[1] && px[1] == px[2],
                    "{}: a gray picture: {px:?}",
                    p.name
                );
                px[0]
            })
            .collect();
        result["draw"][p.name] = json!(gray);
    }
    Some(result)
}

/// The CPU `f32` reference of a picture: gray = round(255 · clamp((v − low) / (high −
/// low), 0, 1)).
fn reference(p: &Picture) -> Vec<u8> {
    match p.variant {
        LookupVariant::Textures => reference_with(&p.field, &PermutationTables::new(p.seed)),
        LookupVariant::Hash => reference_with(&p.field, &IntegerHasher::new(p.seed)),
    }
}

fn reference_with(field: &FlagField, lut: &impl NoiseHasher) -> Vec<u8> {
    let (low, high) = gray_range(field.fractal.mode);
    generate_f32(lut, field)
        .expect("a valid field")
        .iter()
        .map(|&v| (((v - low) / (high - low)).clamp(0.0, 1.0) * 255.0).round() as u8)
        .collect()
}

fn picture(session: &Value, name: &str) -> Vec<u8> {
    session["draw"][name]
        .as_array()
        .unwrap_or_else(|| panic!("no picture {name:?}"))
        .iter()
        .map(|v| v.as_u64().unwrap() as u8)
        .collect()
}

/// A driver's result for a page that started on WebGPU with no console error or warning, no
/// uncaught exception and no failed request.
fn assert_clean_start(result: &Value) {
    assert!(
        result["status"].as_str().unwrap().starts_with("WebGPU on "),
        "status: {}",
        result["status"]
    );
    assert_clean_console(result);
}

/// A driver's result with no console error or warning, no uncaught exception and no failed
/// request.
fn assert_clean_console(result: &Value) {
    let noisy: Vec<&Value> = result["console"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| matches!(m["type"].as_str(), Some("error" | "warn" | "assert")))
        .collect();
    assert!(noisy.is_empty(), "console errors or warnings: {noisy:?}");
    assert_eq!(result["page_errors"], json!([]), "uncaught exceptions");
    assert_eq!(result["failed_requests"], json!([]), "failed requests");
}

#[test]
fn the_page_runs_on_the_browsers_webgpu_with_a_clean_console() {
    let Some(s) = session() else { return };
    eprintln!("page status: {}", s["status"].as_str().unwrap());
    assert_clean_start(s);
}

#[test]
fn fields_drawn_with_the_embeddable_wgsl_are_the_cpu_reference() {
    let Some(s) = session() else { return };
    let mut previous: Option<Vec<u8>> = None;
    for p in pictures() {
        let got = picture(s, p.name);
        assert_levels_match(&got, &reference(&p), &format!("browser canvas: {}", p.name));
        let (lo, hi) = (got.iter().min().unwrap(), got.iter().max().unwrap());
        // Not blank: each spans over 100 levels (measured: classic 3-octave fBm 65..183, the
        // narrowest; a blank or constant canvas spans none).
        assert!(
            hi - lo > 100,
            "{}: a picture, not a blank: levels {lo}..{hi}",
            p.name
        );
        // Each setting changes the picture (seed, octaves and mode, kind and lookup).
        if let Some(previous) = previous {
            let d = differences(&got, &previous);
            let mean = d.iter().map(|&v| f64::from(v)).sum::<f64>() / d.len() as f64;
            eprintln!(
                "{}: mean |Δgray| against the previous picture {mean:.1}",
                p.name
            );
            assert!(mean > 5.0, "{}: the picture changed", p.name);
        }
        previous = Some(got);
    }
}

#[test]
fn the_embeddable_wgsl_of_both_lookups_computes_the_cpu_reference_in_the_browser() {
    let Some(s) = session() else { return };
    let points = embed_support::points(2000);
    let values = |lookup: &str| -> Vec<f32> {
        s["compute"][lookup]
            .as_array()
            .unwrap_or_else(|| panic!("no {lookup} values"))
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect()
    };
    // check_six asserts the embedding tests' parity tolerance (1e-5) per function.
    let textures = embed_support::check_six(
        "Chromium WebGPU, texture lookups",
        &values("textures"),
        &points,
        &PermutationTables::new(SEED),
    );
    let hash = embed_support::check_six(
        "Chromium WebGPU, hash lookups",
        &values("hash"),
        &points,
        &IntegerHasher::new(SEED),
    );
    eprintln!("embeddable WGSL in Chromium: max abs error textures {textures:e}, hash {hash:e}");
}
