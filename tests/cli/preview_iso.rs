//! `wgpu-noise preview --view iso`: a 3D graph's surface at the level, filled on the
//! window's device and extracted on the CPU; from straight above a plane `z − c` draws
//! where and as the CPU predicts (tests/common/iso.rs); a bad `--level` is a clear error.
//!
//! Skipped with a note without a display or an adapter, unless `WGPU_NOISE_REQUIRE_GPU` is
//! set (CI). With `WGPU_NOISE_DOCS_IMAGES=$PWD/docs/images` it also saves
//! `docs/images/preview-iso.png` (the caves recipe).
#![cfg(feature = "preview")]

use std::path::Path;

use wgpu_noise::editor::iso::SAMPLES;

use crate::common::iso::{compare_plane_from_above, plane_json};

use super::preview::{preview, window_setup};
use super::preview_graph::GraphFrame;
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
            &frame(2.0, 720, 480),
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
