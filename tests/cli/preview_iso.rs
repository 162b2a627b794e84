//! `wgpu-noise preview --view iso`: a 3D graph's surface at the level, filled on the
//! window's device and extracted on the CPU; from straight above a plane `z − c` draws
//! where and as the CPU predicts (tests/common/iso.rs); a bad `--level` is a clear error;
//! the window goes on presenting frames while the worker fills and extracts a heavy
//! graph's cube (the layout hook's frame counter).
//!
//! Skipped with a note without a display or an adapter, unless `WGPU_NOISE_REQUIRE_GPU` is
//! set (CI). With `WGPU_NOISE_DOCS_IMAGES=$PWD/docs/images` it also saves
//! `docs/images/preview-iso.png` (the caves recipe).
#![cfg(feature = "preview")]

use std::path::Path;

use wgpu_noise::editor::iso::SAMPLES;

use crate::common::iso::{compare_plane_from_above, plane_json};

use super::preview::{preview, window_setup};
use super::preview_graph::{with_xdotool, GraphFrame, Running};
use super::preview_panel::Panel;
use super::preview_terrain::shoot;

const SIZE: u32 = 256;
const DISTANCE: f64 = 3.0;

/// A 3D frame `frequency` cells across from the origin, time standing still.
fn frame(frequency: f64, width: u32, height: u32) -> GraphFrame {
    GraphFrame {
        dims: 3,
        seed: 0,
        frequency,
        time: 0.0,
        speed: 0.0,
        width,
        height,
    }
}

#[test]
fn a_plane_from_straight_above_draws_where_and_as_the_cpu_predicts() {
    let Some(display) = window_setup() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let plane_frame = frame(2.0, SIZE, SIZE);
    for (c, level) in [(0.55, "0"), (1.0, "0.2")] {
        let graph = dir.path().join("plane.json");
        std::fs::write(&graph, plane_json(c)).unwrap();
        let camera = format!("0,90,{DISTANCE}");
        let shot = shoot(
            &display,
            &plane_frame,
            &graph,
            &["--view", "iso", "--camera", &camera, "--level", level],
        )
        .into_luma8();
        // The surface z − c = level is the plane at c + level.
        let height = c + level.parse::<f64>().unwrap();
        let got = compare_plane_from_above(height, 2.0, SAMPLES, DISTANCE, SIZE, &|x, y| {
            shot.get_pixel(x, y)[0]
        });
        eprintln!("plane at {height}: {got:?}");
        assert!(got.inside > 10_000 && got.outside > 1_000, "{got:?}");
        assert!(got.worst <= 1 && got.not_black == 0, "{got:?}");
    }

    if let Some(docs) = std::env::var_os("WGPU_NOISE_DOCS_IMAGES") {
        let caves = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs/caves.json");
        let shot = shoot(
            &display,
            // A lattice cell across: the recipe's tunnels are a few hundredths of a cell
            // wide (docs/graphs.md), a few voxels of the 64³ cube here.
            &frame(1.0, 720, 480),
            &caves,
            &[
                "--view",
                "iso",
                "--camera",
                "30,35,2.6",
                "--ramp",
                "terrain",
            ],
        );
        let path = Path::new(&docs).join("preview-iso.png");
        shot.save(&path).unwrap();
        eprintln!("saved {}", path.display());
    }
}

#[test]
fn a_bad_level_is_a_clear_error() {
    for (level, says) in [
        ("5", "the level must be a number from -4 to 4, not \"5\""),
        ("nan", "the level must be a number from -4 to 4"),
        ("high", "the level must be a number from -4 to 4"),
    ] {
        let out = preview(None, &["--view", "iso", "--level", level]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "--level {level}");
        assert!(stderr.contains(says), "--level {level}: {stderr}");
    }
}

/// Eight octaves of cellular F2 − F1 in 3D with its gradient over the 64³ cube: seconds of
/// the worker's time on lavapipe (pipeline and fill).
const HEAVY: &str = r#"{"version": 1, "output": "n", "nodes": {
  "n": {"type": "fbm", "source": {"type": "cellular", "output": "f2-f1"}, "octaves": 8}}}"#;

/// The layout hook's frame counter and iso flag, read every 10 ms, from the moment the
/// worker is first seen busy until it is seen done: the seconds it was busy, the frames
/// presented meanwhile and the longest wait between two of them.
fn while_busy(running: &mut Running, layout: &Path) -> (f64, u64, f64) {
    use std::time::{Duration, Instant};
    let deadline = Instant::now() + Duration::from_secs(180);
    let mut busy_since: Option<(Instant, u64)> = None;
    let mut last_frame: Option<(Instant, u64)> = None;
    let mut longest = 0.0f64;
    loop {
        assert!(
            Instant::now() < deadline,
            "the iso worker did not start and finish within 180 s; stderr {:?}",
            running.seen
        );
        std::thread::sleep(Duration::from_millis(10));
        let Ok(text) = std::fs::read_to_string(layout) else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let (Some(frames), Some(busy)) = (v["frames"].as_u64(), v["iso_busy"].as_bool()) else {
            continue;
        };
        let now = Instant::now();
        match (busy_since, busy) {
            (None, false) => continue,
            (None, true) => {
                busy_since = Some((now, frames));
                last_frame = Some((now, frames));
            }
            (Some((since, first)), _) => {
                let (at, seen) = last_frame.unwrap();
                if frames != seen {
                    longest = longest.max((now - at).as_secs_f64());
                    last_frame = Some((now, frames));
                }
                if !busy {
                    return ((now - since).as_secs_f64(), frames - first, longest);
                }
            }
        }
    }
}

#[test]
fn the_window_keeps_drawing_while_the_iso_worker_computes() {
    let Some(display) = with_xdotool(window_setup()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("heavy.json"), HEAVY).unwrap();
    // The clock runs (frames keep coming) but does not move the cube.
    let mut args = frame(2.0, 320, 240).options();
    args.extend(
        [
            "--graph",
            "heavy.json",
            "--view",
            "iso",
            "--panel",
            "hidden",
        ]
        .map(String::from),
    );
    let (mut running, panel) = Panel::launch(&display, &args, dir.path());
    // The first surface, then a new seed's (`]`: the cube filled again).
    let mut periods = vec![while_busy(&mut running, &panel.layout)];
    panel.key("bracketright");
    periods.push(while_busy(&mut running, &panel.layout));
    for (busy, frames, longest) in periods {
        eprintln!(
            "the worker busy {busy:.2} s: {frames} frames presented, the longest wait {longest:.3} s"
        );
        // Long enough that a window waiting for the worker would show it.
        assert!(busy > 0.5, "the graph is not heavy enough: {busy:.2} s");
        assert!(frames >= 3, "{frames} frames in {busy:.2} s");
        assert!(
            longest < busy / 2.0,
            "a wait of {longest:.3} s between frames while the worker was busy {busy:.2} s"
        );
    }
    running.quit_with_escape(&display, &panel.window);
}
