//! `wgpu-noise preview --view terrain`: the terrain seen from straight above is, vertex by
//! vertex, the ramp's colour of the CPU value times the Lambert shading of the normal of
//! the CPU's analytic gradient (and is placed where the CPU heights project); orbiting
//! changes the picture; the panel's readout under the cursor is the CPU sampler's value
//! and gradient (the gradient also central differences of the values), on the flat view
//! and on the terrain, and its range is the CPU's over the terrain's vertices.
//!
//! Skipped with a note without a display, an adapter or xdotool, unless
//! `WGPU_NOISE_REQUIRE_GPU` is set (CI). With `WGPU_NOISE_DOCS_IMAGES=$PWD/docs/images` it
//! also saves `docs/images/preview-terrain.png`.
#![cfg(feature = "preview")]

use std::path::Path;

use wgpu_noise::editor::orbit::Orbit;
use wgpu_noise::editor::terrain::{DEFAULT_RELIEF, GRID};
use wgpu_noise::graph::{Graph, Sampler};

use crate::common::terrain::{compare_top_down, Mesh, TopDown};

use super::preview::{preview, window_setup, Display};
use super::preview_graph::{with_xdotool, xdotool, GraphFrame, FBM};
use super::preview_panel::{layout_when, Panel};

/// The frames of these tests: a 3-octave simplex fBm, 3 cells across, time standing still.
fn frame(dims: usize, width: u32, height: u32) -> GraphFrame {
    GraphFrame {
        dims,
        seed: 3,
        frequency: 3.0,
        time: 1.5,
        speed: if dims == 2 { 0.0 } else { 0.5 },
        width,
        height,
    }
}

fn sampler(frame: &GraphFrame) -> Sampler {
    Graph::from_json(FBM)
        .unwrap()
        .sampler(frame.dims, frame.seed)
        .unwrap()
}

/// The mesh over `frame`: its first pixel samples the animation's offset on the animated
/// axis.
fn mesh(frame: &GraphFrame) -> Mesh {
    let step = (frame.frequency / frame.width as f64) as f32;
    let mut origin = [0.0f32; 4];
    let axis = if frame.dims == 2 { 0 } else { frame.dims - 1 };
    origin[axis] = (frame.speed * frame.time) as f32;
    Mesh::over(origin, step, [frame.width, frame.height])
}

/// Runs the preview unattended with `extra` options and returns the screenshot (gray or
/// RGBA bytes, as saved).
pub(crate) fn shoot(
    display: &Display,
    frame: &GraphFrame,
    graph: &Path,
    extra: &[&str],
) -> image::DynamicImage {
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("terrain.png");
    let mut args = frame.options();
    args.extend(
        [
            "--graph",
            graph.to_str().unwrap(),
            "--frames",
            "2",
            "--screenshot",
            shot.to_str().unwrap(),
        ]
        .map(String::from),
    );
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = preview(Some(display), &args);
    assert!(
        out.status.success(),
        "preview {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    image::open(&shot).expect("the screenshot is a PNG")
}

fn graph_file(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("fbm.json");
    std::fs::write(&path, FBM).unwrap();
    path
}

#[test]
fn the_terrain_from_above_is_the_lambert_shading_of_the_cpu_gradients_normal() {
    let Some(display) = window_setup() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let graph = graph_file(dir.path());
    let distance = 3.0;
    // 2D, and a 3D graph's slice at the animated z.
    for dims in [2, 3] {
        let frame = frame(dims, 256, 256);
        let camera = format!("0,90,{distance}");
        let shot = shoot(
            &display,
            &frame,
            &graph,
            &["--view", "terrain", "--camera", &camera],
        );
        let shot = shot.into_luma8();
        let mut sampler = sampler(&frame);
        let size = [frame.width, frame.height];
        let gray = |x: u32, y: u32| shot.get_pixel(x, y)[0];
        let TopDown {
            compared,
            worst,
            off,
            mean,
            histogram,
            lit,
            background,
        } = compare_top_down(&mesh(&frame), &mut sampler, distance, size, &gray);
        eprintln!("{dims}D: differences 0..9+: {histogram:?}");
        eprintln!(
            "{dims}D terrain from above: {compared} vertices at pixel centres, worst {worst} \
             levels, {off} over 2; {lit} pixels under the mesh, {background} others not black"
        );
        assert!(compared > 2000, "only {compared} vertices compared");
        // Measured on lavapipe (2D): of 2 739 vertices, differences 0, 1, 2, 3, 4 levels
        // for 1 786, 869, 69, 14, 1 (mean 0.38): the pixel's centre is up to 0.1 px from
        // the vertex, where the interpolation of the neighbours' normals and values
        // already moves the shading by a few levels on steep slopes.
        assert!(
            worst <= 6,
            "{dims}D: a pixel {worst} levels off its vertex's shading"
        );
        assert!(
            off * 50 <= compared,
            "{dims}D: {off} of {compared} over 2 levels"
        );
        assert!(mean < 0.75, "{dims}D: {mean} levels off on average");
        assert!(lit > 40_000, "{dims}D: the mesh covers only {lit} pixels");
        // The pixels just outside the outline may catch a triangle's edge.
        assert!(
            background < 2 * frame.width as usize,
            "{dims}D: {background} pixels off the mesh are lit"
        );
    }
}

#[test]
fn orbiting_the_camera_changes_the_picture() {
    let Some(display) = window_setup() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let graph = graph_file(dir.path());
    let frame = frame(2, 200, 150);
    let view = |camera: &str| {
        shoot(
            &display,
            &frame,
            &graph,
            &["--view", "terrain", "--camera", camera, "--ramp", "viridis"],
        )
        .into_rgba8()
        .into_raw()
    };
    let south = view("0,40,3");
    let east = view("90,40,3");
    let near = view("0,40,2");
    let changed = |a: &[u8], b: &[u8]| {
        a.chunks(4)
            .zip(b.chunks(4))
            .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
            .count()
    };
    let pixels = (frame.width * frame.height) as usize;
    let turned = changed(&south, &east);
    let zoomed = changed(&south, &near);
    eprintln!("of {pixels} pixels: turned 90° changes {turned}, coming closer {zoomed}");
    // Measured on lavapipe: 9 728 and 17 120 of 30 000.
    assert!(turned > pixels / 5 && zoomed > pixels / 5);
    // The same camera draws the same picture.
    assert_eq!(south, view("0,40,3"), "two runs of one camera differ");

    if let Some(docs) = std::env::var_os("WGPU_NOISE_DOCS_IMAGES") {
        let island = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs/island.json");
        let picture = GraphFrame {
            dims: 2,
            seed: 0,
            frequency: 4.0,
            time: 0.0,
            speed: 0.0,
            width: 720,
            height: 480,
        };
        let shot = shoot(
            &display,
            &picture,
            &island,
            &[
                "--view",
                "terrain",
                "--camera",
                "25,38,2.4",
                "--ramp",
                "terrain",
            ],
        );
        let path = Path::new(&docs).join("preview-terrain.png");
        shot.save(&path).unwrap();
        eprintln!("saved {}", path.display());
    }
}

/// The readout's record in the panel's layout once it is of the cursor at window pixel
/// `at` in a view whose description has `view`.
fn probe_when(layout: &Path, at: (i32, i32), view: &str) -> serde_json::Value {
    let cursor = serde_json::json!([at.0 as f64, at.1 as f64]);
    let value = layout_when(layout, &format!("a readout at {at:?}"), |v| {
        v["readout"]["cursor"] == cursor
            && !v["readout"]["probe"].is_null()
            && v["view"].as_str().is_some_and(|d| d.contains(view))
    });
    value["readout"].clone()
}

fn floats(v: &serde_json::Value) -> Vec<f32> {
    v.as_array()
        .unwrap_or_else(|| panic!("an array: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

/// The readout's value and gradient are the CPU sampler's at its point, the gradient also
/// the central differences of the f64 values there.
fn check_probe(readout: &serde_json::Value, sampler: &mut Sampler, dims: usize) -> [f32; 4] {
    let point: [f32; 4] = floats(&readout["probe"]["point"]).try_into().unwrap();
    let value = readout["probe"]["value"].as_f64().unwrap() as f32;
    let gradient = floats(&readout["probe"]["gradient"]);
    let [v, gx, gy, gz, _] = sampler.value_and_gradient(&point);
    assert_eq!(value, v, "the value at {point:?}");
    assert_eq!(gradient[..3], [gx, gy, gz], "the gradient at {point:?}");
    let h = 1e-3;
    for axis in 0..dims {
        let mut at = |d: f64| {
            let mut q = point.map(|c| c as f64);
            q[axis] += d;
            sampler.value_f64(&q)
        };
        let central = (at(h) - at(-h)) / (2.0 * h);
        // f32 against f64 differences of step 1e-3 (truncation ~h², a few 1e-5 for this
        // graph's curvature, plus f32 rounding of a gradient of a few units).
        assert!(
            (central - gradient[axis] as f64).abs() < 2e-3 * (1.0 + central.abs()),
            "∂/∂{axis} at {point:?}: {} vs central differences {central}",
            gradient[axis]
        );
    }
    point
}

#[test]
fn the_readout_is_the_cpu_samplers_value_and_gradient_under_the_cursor() {
    let Some(display) = with_xdotool(window_setup()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let graph = graph_file(dir.path());
    let frame = frame(2, 640, 480);
    let mut args = frame.options();
    args.extend(["--graph", graph.to_str().unwrap(), "--panel", "shown"].map(String::from));
    let (mut running, panel) = Panel::launch(&display, &args, dir.path());
    let layout = panel.layout.clone();
    panel.with("view_section");
    let mut sampler = sampler(&frame);
    let mesh = mesh(&frame);

    // The flat view: the pixel's point, x = step · i, y = step · j.
    let (i, j) = (101, 157);
    xdotool(
        &display,
        &[
            "mousemove",
            "--window",
            &panel.window,
            &i.to_string(),
            &j.to_string(),
        ],
    );
    let readout = probe_when(&layout, (i, j), "graph");
    let point = check_probe(&readout, &mut sampler, 2);
    let step = (frame.frequency / frame.width as f64) as f32;
    assert_eq!(
        point[..2],
        [step * i as f32, step * j as f32],
        "the pixel's point"
    );
    // The range: the least and greatest value at the terrain's vertices.
    let mut range = (f32::INFINITY, f32::NEG_INFINITY);
    for j in 0..GRID {
        for i in 0..GRID {
            let v = sampler.value(&mesh.point(i, j));
            range = (range.0.min(v), range.1.max(v));
        }
    }
    assert_eq!(
        floats(&readout["range"]),
        [range.0, range.1],
        "the range drawn"
    );
    eprintln!("flat readout {readout}");

    // The terrain: the point where the cursor's ray meets the CPU heights.
    // The section is folded in a window under 700 px high; it opens with an animation,
    // so the choice is clicked once its place stays put.
    panel.click("view_section");
    panel.click_when_settled("view.terrain");
    panel.wait_view("terrain");
    let (x, y) = (300, 260);
    xdotool(
        &display,
        &[
            "mousemove",
            "--window",
            &panel.window,
            &x.to_string(),
            &y.to_string(),
        ],
    );
    let readout = probe_when(&layout, (x, y), "terrain");
    let point = check_probe(&readout, &mut sampler, 2);
    let [wx, wy] = mesh.world(point);
    let height = DEFAULT_RELIEF * sampler.value(&point) as f64;
    let m = Orbit::default().view_projection(frame.width as f64 / frame.height as f64);
    let clip: [f64; 4] = std::array::from_fn(|row| {
        let p = [wx, wy, height, 1.0];
        (0..4).map(|c| m[c][row] as f64 * p[c]).sum()
    });
    let seen = [
        (clip[0] / clip[3] + 1.0) / 2.0 * frame.width as f64,
        (1.0 - clip[1] / clip[3]) / 2.0 * frame.height as f64,
    ];
    eprintln!("terrain readout {readout}: its point is seen at {seen:?}");
    assert!(
        (seen[0] - x as f64).abs() < 0.05 && (seen[1] - y as f64).abs() < 0.05,
        "the terrain's point under ({x}, {y}) is seen at {seen:?}"
    );

    // A drag over the terrain orbits the camera: the view says so.
    let before = layout_when(&layout, "the view", |v| v["view"].is_string())["view"].clone();
    xdotool(&display, &["mousedown", "1"]);
    xdotool(
        &display,
        &["mousemove", "--window", &panel.window, "200", "300"],
    );
    xdotool(&display, &["mouseup", "1"]);
    // 100 px left and 40 px down in a 480 px high window: the camera turns 75° east and
    // rises 30° (a drag across the height is a whole turn).
    let after = layout_when(&layout, "a turned camera", |v| {
        v["view"]
            .as_str()
            .is_some_and(|d| d.contains("terrain (yaw 75°, pitch 80°"))
    });
    eprintln!("dragged: {before} → {}", after["view"]);
    running.quit_with_escape(&display, &panel.window);
}
