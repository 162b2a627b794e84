//! Share links on the desktop: the panel's "copy share link" is the page's link of the graph
//! and view (`editor::share`), and `wgpu-noise preview --link LINK` opens one. A link the
//! desktop makes opens in a fresh window on the same picture byte for byte; a link the page
//! makes (the share encoder with the page's settings) opens on the graph and settings it
//! holds: the flat view is the CPU reference of them, the terrain and the iso view are the
//! pictures of the same options given one by one, and the window's own link is the page's
//! back. Bad links are one `error:` line before any window opens.
//!
//! Skipped with a note without a display, an adapter or xdotool, unless
//! `WGPU_NOISE_REQUIRE_GPU` is set (CI).
#![cfg(feature = "preview")]

use std::path::Path;

use wgpu_noise::editor::orbit::{Orbit, ZOOM_STEP};
use wgpu_noise::editor::share::{Framing, Scene, SharedView, PAGE_URL};

use super::preview::{preview, window_setup};
use super::preview_graph::{
    graph_reference, panned_graph_reference, picture_bytes, with_xdotool, xdotool, GraphFrame, FBM,
};
use super::preview_panel::{layout_when, run_bake, Panel};
use crate::common::iso::plane_json;
use crate::common::levels::assert_levels_match;

/// The window's size in the tests: room for the panel beside the picture, its buttons
/// within the window.
const WIDTH: u32 = 640;
const HEIGHT: u32 = 600;

/// A camera given in degrees, as `--camera` takes it.
fn camera_degrees(yaw: f64, pitch: f64, distance: f64) -> Orbit {
    Orbit::new(yaw.to_radians(), pitch.to_radians(), distance)
}

/// Runs `preview ARGS --size WxH --frames 2 --screenshot` in `dir`: the picture's bytes
/// (gray, or RGBA).
fn screenshot(display: &super::preview::Display, dir: &Path, name: &str, args: &[&str]) -> Vec<u8> {
    let shot = dir.join(name);
    let size = format!("{WIDTH}x{HEIGHT}");
    let mut all = args.to_vec();
    all.extend([
        "--size",
        &size,
        "--frames",
        "2",
        "--screenshot",
        shot.to_str().unwrap(),
    ]);
    let out = preview(Some(display), &all);
    assert!(
        out.status.success(),
        "preview {all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    picture_bytes(&shot)
}

#[test]
fn a_link_the_desktop_makes_opens_the_same_terrain_in_a_fresh_window() {
    let Some(display) = with_xdotool(window_setup()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("graph.json"), FBM).unwrap();
    let frame = GraphFrame {
        seed: 7,
        frequency: 3.0,
        ..GraphFrame::still(WIDTH, HEIGHT)
    };
    let page = "https://example.org/noise/";
    let mut args = frame.options();
    args.extend(
        [
            "--graph",
            "graph.json",
            "--panel",
            "shown",
            "--view",
            "terrain",
            "--camera",
            "30,50,2.5",
            "--ramp",
            "terrain",
            "--page-url",
            page,
        ]
        .map(String::from),
    );
    let (mut running, panel) = Panel::launch(&display, &args, dir.path());
    // The "view and readout" section, folded in a window this short, holds the button.
    panel.click("view_section");
    panel.click_when_settled("share_link");
    let link = running.wait_for(&format!("{page}#v1.")).trim().to_string();
    let drawn = panel.save_png(&mut running, dir.path());
    panel.click_at(100, 100);
    running.quit_with_escape(&display, &panel.window);

    // The link holds the graph and the view's settings.
    let shared = SharedView::from_link(&link).unwrap();
    assert_eq!(shared.graph, FBM);
    assert_eq!((shared.seed, shared.ramp.as_str()), (7, "terrain"));
    assert!(
        (shared.frequency - 3.0).abs() < 1e-12,
        "{}",
        shared.frequency
    );
    assert_eq!(
        shared.scene,
        Scene::Terrain(camera_degrees(30.0, 50.0, 2.5))
    );

    // Opened in a fresh window: the same picture, byte for byte.
    let opened = screenshot(&display, dir.path(), "opened.png", &["--link", &link]);
    assert_eq!(opened.len(), drawn.len());
    let differ = opened.iter().zip(&drawn).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{differ} of {} bytes differ", drawn.len());
}

#[test]
fn a_link_holds_the_pan_zoom_and_clock_and_opens_the_same_slice() {
    let Some(display) = with_xdotool(window_setup()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("graph.json"), FBM).unwrap();
    // A 3D graph whose clock runs: the picture is the slice at z = speed × time.
    let frame = GraphFrame {
        dims: 3,
        seed: 5,
        frequency: 4.0,
        time: 1.5,
        speed: 0.3,
        ..GraphFrame::still(WIDTH, HEIGHT)
    };
    let mut args = frame.options();
    args.extend(["--graph", "graph.json", "--panel", "shown"].map(String::from));
    let (mut running, panel) = Panel::launch(&display, &args, dir.path());
    panel.with("view_section");
    // A drag over the picture pans it, a wheel notch zooms in at the pointer, and the clock
    // runs until Space stops it.
    point_at(&panel, 150, 300);
    xdotool(&display, &["mousedown", "1"]);
    point_at(&panel, 110, 260);
    xdotool(&display, &["mouseup", "1"]);
    point_at(&panel, 200, 250);
    xdotool(&display, &["click", "4"]);
    layout_when(&panel.layout, "a zoomed view", |v| {
        v["view"]
            .as_str()
            .is_some_and(|d| !d.contains(" 4.000 cells"))
    });
    panel.key_until_view("space", "(paused)");
    panel.click("view_section");
    // The section unfolds over a few frames (fast ones, in the flat view).
    panel.click_when_settled("share_link");
    let link = running
        .wait_for(&format!("{PAGE_URL}#v1."))
        .trim()
        .to_string();
    let drawn = panel.save_png(&mut running, dir.path());
    panel.click("bake_command");
    let command = running.wait_for("wgpu-noise bake ").trim().to_string();
    panel.click_at(100, 100);
    running.quit_with_escape(&display, &panel.window);

    // The link holds where and when the window looked.
    let shared = SharedView::from_link(&link).unwrap();
    let framing = shared.framing;
    eprintln!("{framing:?}, {} cells across", shared.frequency);
    assert_eq!(
        (framing.dims, framing.speed, framing.paused),
        (3, 0.3, true)
    );
    assert!(framing.time > frame.time, "the clock ran: {}", framing.time);
    // One XTest wheel click zoomed in by two whole notches: winit 0.30 counts its press and
    // its release (docs/preview.md). A winit that counts one fails here: update the docs.
    let notches = (frame.frequency / shared.frequency).ln() / ZOOM_STEP.ln();
    assert!(
        (notches - 2.0).abs() < 1e-9,
        "{} cells across: {notches} notches",
        shared.frequency
    );
    // The drag moved the picture right and down.
    assert!(
        framing.pan[0] > 0.0 && framing.pan[1] > 0.0,
        "{:?}",
        framing.pan
    );
    // The window drew the CPU reference of that region and slice.
    let seen = GraphFrame {
        frequency: shared.frequency,
        time: framing.time,
        ..frame
    };
    assert_levels_match(
        &drawn,
        &panned_graph_reference(FBM, &seen, framing.pan),
        "the panned, zoomed, later slice",
    );

    // Opened in a fresh window: the same picture, byte for byte.
    let opened = screenshot(&display, dir.path(), "opened.png", &["--link", &link]);
    assert_eq!(opened.len(), drawn.len());
    let differ = opened.iter().zip(&drawn).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{differ} of {} bytes differ", drawn.len());

    // The bake command writes the same region and slice.
    assert!(command.contains("--offset "), "{command}");
    let baked = run_bake(&command, dir.path());
    assert_levels_match(&baked, &drawn, &format!("`{command}` vs the window"));
}

/// Moves the pointer to `(x, y)` in the window and waits until a frame has seen it there,
/// so that a press that follows is the picture's (the pointer starts over the panel).
fn point_at(panel: &Panel, x: u32, y: u32) {
    let (sx, sy) = (x.to_string(), y.to_string());
    xdotool(
        panel.display,
        &["mousemove", "--window", &panel.window, &sx, &sy],
    );
    layout_when(&panel.layout, &format!("the pointer at {x}, {y}"), |v| {
        v["readout"]["cursor"] == serde_json::json!([x as f64, y as f64])
    });
}

#[test]
fn a_link_the_page_makes_opens_its_graph_and_settings() {
    let Some(display) = with_xdotool(window_setup()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let size = format!("{WIDTH}x{HEIGHT}");

    // The flat view: the CPU reference of the link's graph, seed and cells across.
    let flat = SharedView {
        graph: FBM.to_string(),
        seed: 11,
        frequency: 5.0,
        ramp: "gray".into(),
        scene: Scene::Flat,
        framing: Framing::of(&Scene::Flat),
    };
    let got = screenshot(
        &display,
        dir.path(),
        "flat.png",
        &["--link", &flat.link(PAGE_URL)],
    );
    let frame = GraphFrame {
        seed: 11,
        ..GraphFrame::still(WIDTH, HEIGHT)
    };
    assert_levels_match(
        &got,
        &graph_reference(FBM, &frame),
        "the flat view of a link",
    );

    // The terrain: the picture of the same options given one by one; the bare share
    // string opens it too.
    let scene = Scene::Terrain(camera_degrees(120.0, 35.0, 2.2));
    let terrain = SharedView {
        graph: FBM.to_string(),
        seed: 3,
        frequency: 4.0,
        ramp: "viridis".into(),
        scene,
        framing: Framing::of(&scene),
    };
    std::fs::write(dir.path().join("graph.json"), FBM).unwrap();
    let graph = dir.path().join("graph.json");
    let graph = graph.to_str().unwrap();
    let options = [
        "--graph",
        graph,
        "--seed",
        "3",
        "--frequency",
        "4",
        "--ramp",
        "viridis",
        "--view",
        "terrain",
        "--camera",
        "120,35,2.2",
        "--speed",
        "0",
    ];
    let given = screenshot(&display, dir.path(), "given.png", &options);
    let opened = screenshot(
        &display,
        dir.path(),
        "t.png",
        &["--link", &terrain.encode()],
    );
    assert!(
        opened == given,
        "the terrain of a link is not the options' picture"
    );

    // The iso view of a 3D graph, at the link's level.
    let plane = plane_json(0.3);
    let scene = Scene::Iso {
        camera: camera_degrees(30.0, 40.0, 2.6),
        level: 0.25,
    };
    let iso = SharedView {
        graph: plane.clone(),
        seed: 0,
        frequency: 2.0,
        ramp: "magma".into(),
        scene,
        framing: Framing::of(&scene),
    };
    std::fs::write(dir.path().join("plane.json"), &plane).unwrap();
    let plane_file = dir.path().join("plane.json");
    let options = [
        "--graph",
        plane_file.to_str().unwrap(),
        "--dims",
        "3",
        "--frequency",
        "2",
        "--ramp",
        "magma",
        "--view",
        "iso",
        "--camera",
        "30,40,2.6",
        "--level",
        "0.25",
        "--speed",
        "0",
    ];
    let given = screenshot(&display, dir.path(), "iso-given.png", &options);
    let opened = screenshot(
        &display,
        dir.path(),
        "iso.png",
        &["--link", &iso.link(PAGE_URL)],
    );
    assert!(
        opened == given,
        "the iso view of a link is not the options' picture"
    );

    // In a window: the editor holds the link's graph, and the window's own link is the
    // page's back.
    let link = terrain.link(PAGE_URL);
    let args = ["--link", &link, "--size", &size, "--panel", "shown"].map(String::from);
    let (mut running, panel) = Panel::launch(&display, &args, dir.path());
    let layout = layout_when(&panel.layout, "the graph's text", |v| {
        v["graph_text"].is_string()
    });
    assert_eq!(layout["graph_text"].as_str(), Some(FBM));
    // The "view and readout" section, folded in a window this short, holds the button.
    panel.click("view_section");
    panel.click_when_settled("share_link");
    let back = running
        .wait_for(&format!("{PAGE_URL}#v1."))
        .trim()
        .to_string();
    assert_eq!(SharedView::from_link(&back).unwrap(), terrain);
    panel.click_at(100, 100);
    running.quit_with_escape(&display, &panel.window);
}

#[test]
fn a_link_is_read_from_a_full_address_or_alone() {
    let scene = Scene::Iso {
        camera: camera_degrees(10.0, 60.0, 3.0),
        level: -0.5,
    };
    let view = SharedView {
        graph: FBM.to_string(),
        seed: u64::MAX,
        frequency: 2.5,
        ramp: "terrain".into(),
        scene,
        framing: Framing::of(&scene),
    };
    let string = view.encode();
    let link = view.link("https://example.org/a/b/?q=1");
    assert_eq!(link, format!("https://example.org/a/b/?q=1#{string}"));
    assert_eq!(SharedView::from_link(&link), Ok(view.clone()));
    assert_eq!(SharedView::from_link(&string), Ok(view.clone()));
    assert_eq!(SharedView::from_link(&format!(" {link}\n")), Ok(view));
}

/// `preview ARGS` without a display: its status and stderr.
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let out = preview(None, args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_links_are_one_error_line_before_a_window_opens() {
    let good = SharedView {
        graph: FBM.to_string(),
        seed: 1,
        frequency: 4.0,
        ramp: "gray".into(),
        scene: Scene::Flat,
        framing: Framing::of(&Scene::Flat),
    }
    .encode();
    let body = good.strip_prefix("v1.").unwrap();
    // A graph that reads a node it does not have: it fails to lower.
    let unlowerable = SharedView {
        graph: r#"{"version": 1, "output": "a", "nodes": {"a": {"type": "add", "a": "nowhere", "b": 1}}}"#.into(),
        seed: 1,
        frequency: 4.0,
        ramp: "gray".into(),
        scene: Scene::Flat,
        framing: Framing::of(&Scene::Flat),
    }
    .link(PAGE_URL);
    // Panned so far out that the window's pixels are one f32 coordinate.
    let far = SharedView {
        graph: FBM.to_string(),
        seed: 1,
        frequency: 4.0,
        ramp: "gray".into(),
        scene: Scene::Flat,
        framing: Framing {
            pan: [1e12, 0.0],
            ..Framing::of(&Scene::Flat)
        },
    }
    .link(PAGE_URL);
    let truncated = &good[..good.len() - 12];
    let cases: [(&str, &str); 7] = [
        ("hello there", "does not start with \"v1.\""),
        ("v1.not*base64!", "not URL-safe base64"),
        (truncated, "share link: "),
        (&format!("v2.{body}"), "does not start with \"v1.\""),
        (
            &format!("{PAGE_URL}#v1.{}", &body[..body.len() / 2]),
            "share link: ",
        ),
        (&unlowerable, "--link: its graph in 2D: nodes.a.a"),
        (
            &far,
            "--link: its pan and clock: invalid field: offset along x",
        ),
    ];
    for (link, says) in cases {
        let (code, stderr) = refused(&["--link", link]);
        assert_eq!(code, Some(1), "{link}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{link}: not one line: {stderr}");
        assert!(
            stderr.starts_with("error: --link: ") && stderr.contains(says),
            "{link}: expected {says:?} in {stderr:?}"
        );
        assert!(!stderr.contains("DISPLAY"), "{link}: {stderr}");
    }
    // What a link holds is not given beside it; a page address is one without a fragment.
    let (code, stderr) = refused(&["--link", &good, "--seed", "3"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot be used with"), "{stderr}");
    let (code, stderr) = refused(&["--page-url", "http://a/#b"]);
    assert_eq!((code, stderr.lines().count()), (Some(1), 1), "{stderr}");
    assert!(stderr.contains("--page-url"), "{stderr}");
}
