//! `wgpu-noise preview`'s control panel, driven as a user drives it: `xdotool` clicks and
//! types at the panel's widgets on the test's X display (their places come from the
//! preview's `WGPU_NOISE_PANEL_LAYOUT` file, a test hook that only reports the layout). A
//! changed control changes the frame to the CPU reference of the new field; a bad graph
//! typed into the editor is shown as an error and the last good picture stays.
//!
//! Skipped with a note without a display, an adapter or xdotool, unless
//! `WGPU_NOISE_REQUIRE_GPU` is set (CI). With `WGPU_NOISE_DOCS_IMAGES=$PWD/docs/images`
//! and a display of its own (Xvfb), it also saves the window with the panel to
//! `docs/images/preview-panel.png`.
#![cfg(feature = "preview")]

use std::path::Path;
use std::time::{Duration, Instant};

use wgpu_noise::bake::ValueRange;
use wgpu_noise::ramp::ColourRamp;
use wgpu_noise::NoiseKind;

use super::preview::{
    assert_levels_match, own_display, ramp_reference, reference, screen_setup, window_picture,
    window_setup, Display, Frame,
};
use super::preview_graph::{
    graph_reference, picture_bytes, saved_picture, window_geometry, with_xdotool, xdotool,
    GraphFrame, Running, CELLS, DANGLING,
};
use crate::bake_support::read_npy;
use crate::common::levels::differences;

/// The panel's last layout file: `{"widgets": {NAME: [x0, y0, x1, y1]}, "graph_error": …,
/// "notice": …}`, once it satisfies `ready` (up to 180 s, as the other live tests wait).
pub(crate) fn layout_when(
    path: &Path,
    what: &str,
    ready: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(180);
    let mut last = serde_json::Value::Null;
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
                if ready(&value) {
                    return value;
                }
                last = value;
            }
        }
        assert!(
            Instant::now() < deadline,
            "the panel's layout did not show {what} within 180 s; last: {last}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The centre of widget `name` in the window, in pixels.
pub(crate) fn centre(layout: &serde_json::Value, name: &str) -> (i64, i64) {
    let r = &layout["widgets"][name];
    let at = |i: usize| {
        r[i].as_f64()
            .unwrap_or_else(|| panic!("no widget {name}: {layout}"))
    };
    (
        ((at(0) + at(2)) / 2.0).round() as i64,
        ((at(1) + at(3)) / 2.0).round() as i64,
    )
}

/// The panel as the test sees it: the display, the window and the layout file.
pub(crate) struct Panel<'a> {
    pub(crate) display: &'a Display,
    pub(crate) window: String,
    pub(crate) layout: std::path::PathBuf,
}

impl<'a> Panel<'a> {
    /// Starts the preview with `args` on `display` in `folder`, its layout reported to
    /// `folder/layout.json`, and waits for its window.
    pub(crate) fn launch(display: &'a Display, args: &[String], folder: &Path) -> (Running, Self) {
        let layout = folder.join("layout.json");
        let (running, window) = Running::launch(
            display,
            args,
            folder,
            &[("WGPU_NOISE_PANEL_LAYOUT", &layout)],
        );
        let panel = Panel {
            display,
            window,
            layout,
        };
        (running, panel)
    }

    /// Clicks "save PNG": the picture saved in `folder`.
    pub(crate) fn save_png(&self, running: &mut Running, folder: &Path) -> Vec<u8> {
        self.click("save_png");
        saved_picture(running, folder)
    }

    /// The current layout, once it has widget `name`.
    pub(crate) fn with(&self, name: &str) -> serde_json::Value {
        layout_when(&self.layout, name, |v| v["widgets"].get(name).is_some())
    }

    /// A left click at the middle of widget `name`.
    pub(crate) fn click(&self, name: &str) {
        let (x, y) = centre(&self.with(name), name);
        self.click_at(x, y);
    }

    /// Clicks widget `name` once its place stays the same for 300 ms: a section that
    /// unfolds moves what is below it over a few frames.
    pub(crate) fn click_when_settled(&self, name: &str) {
        let mut place = self.with(name)["widgets"][name].clone();
        loop {
            std::thread::sleep(std::time::Duration::from_millis(300));
            let now = self.with(name)["widgets"][name].clone();
            if now == place {
                break;
            }
            place = now;
        }
        self.click(name);
    }

    pub(crate) fn click_at(&self, x: i64, y: i64) {
        let (x, y) = (x.to_string(), y.to_string());
        xdotool(
            self.display,
            &["mousemove", "--window", &self.window, &x, &y, "click", "1"],
        );
    }

    /// Clicks into the text of widget `name` (a number field or the graph editor), selects
    /// it all and types `text` over it. Keys sent before the field has the keyboard would
    /// be the preview's (`3` is the 3D key), so the typing waits for the panel to say so.
    pub(crate) fn type_into(&self, name: &str, text: &str) {
        self.click(name);
        self.wait_typing(true);
        self.key("ctrl+a");
        xdotool(self.display, &["type", "--delay", "5", text]);
    }

    /// Waits until the panel shows a view whose description has `text` (so that the next
    /// click comes in a later frame than the change: two clicks in one frame would be one).
    pub(crate) fn wait_view(&self, text: &str) {
        layout_when(&self.layout, &format!("a view with {text:?}"), |v| {
            v["view"].as_str().is_some_and(|d| d.contains(text))
        });
    }

    /// Presses `key` until the view's description says `text`: under load a key can be
    /// lost before the window takes it, so after each press the view has 10 s to show it
    /// before the next (a toggle's second press comes only after the first was not seen).
    pub(crate) fn key_until_view(&self, key: &str, text: &str) {
        let shows = |v: &serde_json::Value| v["view"].as_str().is_some_and(|d| d.contains(text));
        for _ in 0..5 {
            self.key(key);
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                let now = std::fs::read_to_string(&self.layout).ok();
                let value = now.and_then(|t| serde_json::from_str(&t).ok());
                if value.as_ref().is_some_and(shows) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        self.wait_view(text);
    }

    /// Waits until a text field has the keys (`true`) or none has.
    pub(crate) fn wait_typing(&self, typing: bool) {
        layout_when(&self.layout, &format!("typing: {typing}"), |v| {
            v["typing"].as_bool() == Some(typing)
        });
    }

    pub(crate) fn key(&self, key: &str) {
        xdotool(self.display, &["windowfocus", "--sync", &self.window]);
        xdotool(self.display, &["key", key]);
    }
}

/// Runs `command` (the panel's `wgpu-noise bake … -o FILE`) in `folder` with another
/// output file; the picture it writes, as gray levels.
pub(crate) fn run_bake(command: &str, folder: &Path) -> Vec<u8> {
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words[..2], ["wgpu-noise", "bake"], "{command}");
    let mut args: Vec<&str> = words[2..].to_vec();
    let o = args.iter().position(|&w| w == "-o").expect("-o FILE");
    args[o + 1] = "baked.png";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .arg("bake")
        .args(&args)
        .arg("--force")
        .current_dir(folder)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    picture_bytes(&folder.join("baked.png"))
}

/// Clicks "save EXR" or "save .npy" (`extension`) and reads the values of the file it
/// names, the frame's `width` × `height` (640 × 600 here) with the top row first.
fn saved_values(panel: &Panel, running: &mut Running, folder: &Path, extension: &str) -> Vec<f32> {
    panel.click(&format!("save_{extension}"));
    let line = running.wait_for(&format!(".{extension} ("));
    let name = line
        .split_whitespace()
        .nth(1)
        .expect("`saved NAME (…)`")
        .to_string();
    let path = folder.join(name);
    match extension {
        "npy" => read_npy(&path, &[600, 640]),
        _ => {
            let image = exr::prelude::read_first_flat_layer_from_file(&path)
                .expect("a readable OpenEXR file");
            assert_eq!(image.layer_data.size.0, 640);
            assert_eq!(image.layer_data.size.1, 600);
            let channels = &image.layer_data.channel_data.list;
            assert_eq!(channels.len(), 1, "one channel");
            match &channels[0].sample_data {
                exr::prelude::FlatSamples::F32(v) => v.clone(),
                other => panic!("32-bit float samples, not {other:?}"),
            }
        }
    }
}

#[test]
fn panel_controls_change_the_frame_to_the_new_fields_reference() {
    // On an Xvfb server of our own (no DISPLAY given) the window is also read from the
    // screen: the noise beside the panel, and the picture for the docs.
    let docs = std::env::var_os("WGPU_NOISE_DOCS_IMAGES");
    let screen = tempfile::tempdir().unwrap();
    let own_display = own_display();
    let Some(display) = with_xdotool(screen_setup(screen.path())) else {
        return;
    };
    // Time stands still (speed 0) so that every saved frame is the field of the controls.
    let start = Frame {
        kind: NoiseKind::Simplex,
        dims: 2,
        seed: 0,
        octaves: 1,
        frequency: 5.0,
        time: 0.0,
        speed: 0.0,
        width: 640,
        height: 600,
    };
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<String> = [
        "--noise",
        "simplex",
        "--dims",
        "2",
        "--frequency",
        "5",
        "--time",
        "0",
        "--speed",
        "0",
        "--size",
        "640x600",
        "--panel",
        "shown",
    ]
    .map(String::from)
    .to_vec();
    let (mut running, panel) = Panel::launch(&display, &args, dir.path());
    let save = |running: &mut Running| panel.save_png(running, dir.path());

    let first = save(&mut running);
    assert_levels_match(&first, &reference(&start), "the start, panel shown");

    // A click on "classic": the frame is classic noise.
    panel.click("kind.classic");
    panel.wait_view("classic 2D");
    let classic = Frame {
        kind: NoiseKind::Classic,
        ..start
    };
    let got = save(&mut running);
    assert_levels_match(&got, &reference(&classic), "after clicking classic");
    let changed = differences(&first, &got).iter().filter(|&&d| d > 2).count();
    eprintln!(
        "simplex → classic: {changed} of {} pixels changed",
        got.len()
    );
    assert!(changed > got.len() / 2, "only {changed} pixels changed");

    // Octaves typed into their field, then a key (the panel shown, nothing typed into):
    // `]` is the next seed.
    panel.type_into("octaves", "3");
    panel.key("Return");
    panel.wait_typing(false);
    panel.wait_view("×3");
    let three = Frame {
        octaves: 3,
        ..classic
    };
    let got = save(&mut running);
    assert_levels_match(&got, &reference(&three), "3 octaves typed");
    panel.key("bracketright");
    panel.wait_view("seed 1");
    let seeded = Frame { seed: 1, ..three };
    let frame_now = save(&mut running);
    assert_levels_match(&frame_now, &reference(&seeded), "`]` with the panel shown");

    // The bake command of the frame writes the same picture.
    panel.click("bake_command");
    let command = running.wait_for("wgpu-noise bake ");
    let baked = run_bake(&command, dir.path());
    assert_levels_match(&baked, &frame_now, &format!("`{command}` vs the frame"));

    // A colour ramp: the frame is the same values in the ramp's colours, and the bake
    // command says so.
    panel.click("ramp.terrain");
    panel.wait_view("terrain colours");
    let terrain = save(&mut running);
    assert_levels_match(
        &terrain,
        &ramp_reference(&seeded, ColourRamp::Terrain),
        "the terrain colour ramp",
    );
    panel.click("bake_command");
    let command = running.wait_for("wgpu-noise bake ");
    assert!(command.contains("--ramp terrain"), "{command}");
    let baked = run_bake(&command, dir.path());
    assert_levels_match(&baked, &terrain, &format!("`{command}` vs the frame"));
    panel.click("ramp.gray");
    layout_when(&panel.layout, "gray again", |v| {
        v["view"].as_str().is_some_and(|d| !d.contains("colours"))
    });

    // The graph editor: a good graph is drawn, a bad one is shown and the picture stays.
    let graph_frame = GraphFrame {
        dims: 2,
        seed: 1,
        frequency: 5.0,
        time: 0.0,
        speed: 0.0,
        width: 640,
        height: 600,
    };
    panel.type_into("graph_text", &CELLS.replace('\n', " "));
    panel.wait_view("graph editor");
    layout_when(&panel.layout, "no graph error", |v| {
        v["graph_error"].is_null()
    });
    let cells = save(&mut running);
    assert_levels_match(
        &cells,
        &graph_reference(CELLS, &graph_frame),
        "the graph typed into the editor",
    );
    // "save graph" writes the editor's text to a new file, which the bake command names.
    panel.click("save_graph");
    running.wait_for("saved wgpu-noise-graph-001.json");
    let saved = std::fs::read_to_string(dir.path().join("wgpu-noise-graph-001.json")).unwrap();
    assert_eq!(saved, CELLS.replace('\n', " "), "the editor's text");
    panel.click("bake_command");
    let command = running.wait_for("wgpu-noise bake ");
    assert!(
        command.contains("--graph wgpu-noise-graph-001.json"),
        "{command}"
    );
    let baked = run_bake(&command, dir.path());
    assert_levels_match(&baked, &cells, &format!("`{command}` vs the frame"));
    // "save EXR" and "save .npy": the frame's values themselves, which drawn in the
    // graph's gray levels are the frame.
    let exr = saved_values(&panel, &mut running, dir.path(), "exr");
    let npy = saved_values(&panel, &mut running, dir.path(), "npy");
    assert_eq!(
        exr.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        npy.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        "the EXR and the .npy hold the same values"
    );
    let range = ValueRange::NOMINAL;
    let levels: Vec<u8> = npy
        .iter()
        .map(|&v| range.quantize(v, 255).0 as u8)
        .collect();
    assert_levels_match(
        &levels,
        &cells,
        "the saved values in gray levels vs the frame",
    );

    // The window as the display shows it: the same noise beside the panel.
    if own_display {
        let at = window_geometry(&display, &panel.window);
        let picture = window_picture(
            &screen.path().join("Xvfb_screen0"),
            at.x,
            at.y,
            at.width,
            at.height,
        );
        let layout = panel.with("panel");
        let left = layout["widgets"]["panel"][0].as_f64().unwrap() as u32;
        assert!(left > 300, "the panel starts at x = {left}");
        let (w, h) = (graph_frame.width as usize, graph_frame.height as usize);
        let beside = |pixels: &dyn Fn(usize, usize) -> u8| -> Vec<u8> {
            (0..h)
                .flat_map(|j| (0..left as usize).map(move |i| (j, i)))
                .map(|(j, i)| pixels(i, j))
                .collect()
        };
        let shown = beside(&|i, j| picture.get_pixel(i as u32, j as u32)[0]);
        let saved = beside(&|i, j| cells[j * w + i]);
        assert_levels_match(
            &shown,
            &saved,
            "the window beside the panel vs the saved frame",
        );
        if let Some(folder) = &docs {
            let path = Path::new(folder).join("preview-panel.png");
            picture.save(&path).unwrap();
            eprintln!("saved {}", path.display());
        }
    }

    panel.type_into("graph_text", &DANGLING.replace('\n', " "));
    // The error is set after a frame's panel pass, so its line is drawn, and listed among
    // the widgets, from the next frame on: wait for the line, not only the text.
    let shown = layout_when(&panel.layout, "the graph error's line", |v| {
        v["graph_error"]
            .as_str()
            .is_some_and(|e| e.contains("nodes.n.a"))
            && v["widgets"].get("graph_error").is_some()
    });
    eprintln!("the panel shows: error: {}", shown["graph_error"]);
    let kept = save(&mut running);
    assert_eq!(kept, cells, "a bad graph keeps the last good picture");

    // Tab and H hide the panel and show it again (once a click on the noise has taken the
    // keys from the editor).
    panel.click_at(100, 100);
    panel.wait_typing(false);
    // `R` returns to the launch's settings: the picture is no longer the graph's.
    panel.key("r");
    panel.wait_view("simplex 2D");
    let reset = save(&mut running);
    assert_levels_match(&reset, &reference(&start), "after R");
    for key in ["Tab", "h"] {
        panel.key(key);
        layout_when(&panel.layout, &format!("no widgets after {key}"), |v| {
            v["widgets"].as_object().is_some_and(|w| w.is_empty())
        });
        panel.key(key);
        panel.with("save_png");
    }

    running.quit_with_escape(&display, &panel.window);
}

#[test]
fn the_panel_starts_hidden_when_unattended_unless_asked_for() {
    let Some(display) = window_setup() else {
        return;
    };
    for (extra, shown) in [(None, false), (Some("shown"), true)] {
        let dir = tempfile::tempdir().unwrap();
        let layout = dir.path().join("layout.json");
        let shot = dir.path().join("frame.png");
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_wgpu-noise"));
        cmd.args([
            "preview",
            "--size",
            "640x480",
            "--frames",
            "2",
            "--screenshot",
        ])
        .arg(&shot)
        .env("DISPLAY", &display.name)
        .env_remove("WAYLAND_DISPLAY")
        .env("WGPU_NOISE_PANEL_LAYOUT", &layout);
        if let Some(panel) = extra {
            cmd.args(["--panel", panel]);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let written: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&layout).unwrap()).unwrap();
        let widgets = written["widgets"].as_object().unwrap();
        assert_eq!(
            widgets.contains_key("save_png"),
            shown,
            "--panel {extra:?} with --screenshot: {written}"
        );
        // The screenshot is the noise alone either way.
        assert!(image::open(&shot).unwrap().as_luma8().is_some());
    }
}
