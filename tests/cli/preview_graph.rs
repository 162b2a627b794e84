//! `wgpu-noise preview --graph FILE`: the window draws the graph's CPU reference, and
//! editing the file redraws it live; a bad edit is reported and the last good graph stays.
//!
//! The live test presses keys with `xdotool` (XTEST) on the test's X display, as a user
//! would: `S` saves a screenshot, `Escape` quits. Without xdotool it is skipped with a
//! note, unless `WGPU_NOISE_REQUIRE_GPU` is set (CI), where that is a failure.
#![cfg(feature = "preview")]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use wgpu_noise::graph::{eval, Graph};
use wgpu_noise::tables::PermutationTables;

use super::preview::{assert_levels_match, preview, require_gpu, window_setup, Display};

/// What a frame of a graph samples: pixel (i, j) of a W × H window at x = F·i/W,
/// y = F·j/W (row 0 at the top), plus speed · time on the animated axis (x in 2D, z in
/// 3D, w in 4D).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GraphFrame {
    pub(crate) dims: usize,
    pub(crate) seed: u64,
    pub(crate) frequency: f64,
    pub(crate) time: f64,
    pub(crate) speed: f64,
    pub(crate) width: u32,
    pub(crate) height: u32,
}

impl GraphFrame {
    /// Seed 0, frequency 5, time standing still (speed 0): a 2D frame of `width` × `height`.
    pub(crate) fn still(width: u32, height: u32) -> GraphFrame {
        GraphFrame {
            dims: 2,
            seed: 0,
            frequency: 5.0,
            time: 0.0,
            speed: 0.0,
            width,
            height,
        }
    }

    pub(crate) fn options(&self) -> Vec<String> {
        [
            "--dims",
            &self.dims.to_string(),
            "--seed",
            &self.seed.to_string(),
            "--frequency",
            &self.frequency.to_string(),
            "--time",
            &self.time.to_string(),
            "--speed",
            &self.speed.to_string(),
            "--size",
            &format!("{}x{}", self.width, self.height),
        ]
        .map(String::from)
        .to_vec()
    }
}

/// The CPU reference of a frame of `graph_json`: the f32 graph evaluator at the frame's
/// points (texture variant, the preview's), gray = round(255 · clamp((v + 1) / 2, 0, 1)) as
/// `bake --graph -o x.png`'s default range.
pub(crate) fn graph_reference(graph_json: &str, frame: &GraphFrame) -> Vec<u8> {
    panned_graph_reference(graph_json, frame, [0.0, 0.0])
}

/// [`graph_reference`] of the frame panned so that its first pixel is at `pan` (before the
/// clock's offset).
pub(crate) fn panned_graph_reference(
    graph_json: &str,
    frame: &GraphFrame,
    pan: [f64; 2],
) -> Vec<u8> {
    let program = Graph::from_json(graph_json)
        .expect("a valid graph")
        .program(frame.dims, [0.0; 4])
        .expect("lowers");
    let lut = PermutationTables::new(frame.seed);
    let step = frame.frequency / frame.width as f64;
    let axis = if frame.dims == 2 { 0 } else { frame.dims - 1 };
    let mut regs = Vec::new();
    let mut out = Vec::with_capacity((frame.width * frame.height) as usize);
    for j in 0..frame.height {
        for i in 0..frame.width {
            let mut p = [pan[0] + step * i as f64, pan[1] + step * j as f64, 0.0, 0.0];
            p[axis] += frame.speed * frame.time;
            let v = eval::value::<f32>(&program, &lut, p.map(|c| c as f32), &mut regs);
            out.push((((v + 1.0) / 2.0).clamp(0.0, 1.0) * 255.0).round() as u8);
        }
    }
    out
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/graphs")
        .join(name)
}

#[test]
fn graph_frames_are_the_cpu_reference_of_the_graph() {
    let Some(display) = window_setup() else {
        return;
    };
    for (name, dims) in [("marble.json", 2), ("terrain.json", 3), ("wood.json", 3)] {
        let frame = GraphFrame {
            dims,
            seed: 0,
            frequency: 4.0,
            time: 0.75,
            speed: 0.5,
            width: 160,
            height: 120,
        };
        let dir = tempfile::tempdir().unwrap();
        let shot = dir.path().join("frame.png");
        let path = example(name);
        let mut args = frame.options();
        args.extend(
            [
                "--graph",
                path.to_str().unwrap(),
                "--frames",
                "2",
                "--screenshot",
                shot.to_str().unwrap(),
            ]
            .map(String::from),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = preview(Some(&display), &args);
        assert!(
            out.status.success(),
            "preview {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = image::open(&shot).unwrap().into_luma8().into_raw();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_levels_match(
            &got,
            &graph_reference(&text, &frame),
            &format!("preview --graph {name} --dims {dims}"),
        );
    }
}

#[test]
fn a_bad_graph_file_is_refused_before_a_window_opens() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"version": 1, "output": "a", "nodes": {"a": {"type": "add", "a": "nowhere", "b": 1}}}"#,
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    let missing = dir.path().join("missing.json");
    for (args, says) in [
        (vec!["--graph", bad], "nodes.a.a"),
        (vec!["--graph", missing.to_str().unwrap()], "missing.json"),
        (
            vec![
                "--graph",
                &example("marble.json").to_string_lossy(),
                "--octaves",
                "3",
            ],
            "--octaves",
        ),
    ] {
        // No display: these must fail on the graph, not on the missing display.
        let out = preview(None, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("DISPLAY"), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "not one line: {stderr}");
    }
}

// ---------------------------------------------------------------------------------------
// Live editing.

/// A preview running with a window; killed if the test ends without it exiting.
pub(crate) struct Running {
    pub(crate) child: Child,
    /// Lines of its stdout and stderr, as they come.
    pub(crate) stderr: mpsc::Receiver<String>,
    /// Lines seen so far.
    pub(crate) seen: Vec<String>,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Running {
    /// Starts `wgpu-noise preview ARGS` on `display` in `folder` with `env` added, reading
    /// its stdout and stderr lines.
    pub(crate) fn start(
        display: &Display,
        args: &[String],
        folder: &Path,
        env: &[(&str, &Path)],
    ) -> Running {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
            .arg("preview")
            .args(args)
            .current_dir(folder)
            .env("DISPLAY", &display.name)
            .env_remove("WAYLAND_DISPLAY")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run wgpu-noise preview");
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let (send, lines) = mpsc::channel();
        for stream in [
            Box::new(stdout) as Box<dyn std::io::Read + Send>,
            Box::new(stderr),
        ] {
            let send = send.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if send.send(line).is_err() {
                        return;
                    }
                }
            });
        }
        Running {
            child,
            stderr: lines,
            seen: Vec::new(),
        }
    }

    /// Starts the preview as [`Running::start`] does and waits for its start-up line
    /// (stdout), which says the window is up; the running preview and its window.
    pub(crate) fn launch(
        display: &Display,
        args: &[String],
        folder: &Path,
        env: &[(&str, &Path)],
    ) -> (Running, String) {
        let mut running = Running::start(display, args, folder, env);
        running.wait_for("wgpu-noise preview on");
        (running, find_window(display))
    }

    /// Presses `Escape` in `window` and asserts that the preview exits 0 with a clean
    /// console: no panic (a worker thread's would not change the status), no warning, no
    /// validation error among all the lines it wrote.
    pub(crate) fn quit_with_escape(&mut self, display: &Display, window: &str) {
        xdotool(display, &["windowfocus", "--sync", window]);
        xdotool(display, &["key", "Escape"]);
        let status = self.wait_exit();
        assert!(status.success(), "the preview exits 0 on Escape: {status}");
        // Both streams end with the process: every line is here.
        self.seen.extend(self.stderr.iter());
        let unclean = self.seen.iter().filter(|line| {
            let line = line.to_lowercase();
            ["panicked", "warning", "[warn", "[error", "validation error"]
                .iter()
                .any(|word| line.contains(word))
        });
        let unclean: Vec<_> = unclean.collect();
        assert!(unclean.is_empty(), "the preview's console: {unclean:?}");
    }

    /// Waits up to 20 s for the preview to exit (after `Escape`); its status.
    pub(crate) fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "Escape did not close the preview"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for a stderr line containing `text`, after the lines already seen. Up to
    /// 180 s: a step takes a few seconds alone, but over 60 s was seen with other tests of
    /// this binary and two builds on the machine's two cores (lavapipe compiles the
    /// graph's pipelines and renders on the CPU).
    pub(crate) fn wait_for(&mut self, text: &str) -> String {
        let started = Instant::now();
        let deadline = started + Duration::from_secs(180);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stderr.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(text) {
                        eprintln!("{text:?} after {:.1} s", started.elapsed().as_secs_f64());
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no stderr line with {text:?} within 180 s; stderr so far: {:?}",
                    self.seen
                ),
            }
        }
    }
}

/// Whether xdotool can be run; without it a test is skipped with a note, or fails when
/// `WGPU_NOISE_REQUIRE_GPU` is set.
pub(crate) fn have_xdotool() -> bool {
    if Command::new("xdotool").arg("version").output().is_ok() {
        return true;
    }
    assert!(
        !require_gpu(),
        "WGPU_NOISE_REQUIRE_GPU is set but xdotool is missing; install xdotool"
    );
    eprintln!("SKIPPED (no xdotool to press keys)");
    false
}

/// `display` when there is one and xdotool can drive it (else `None`: see [`have_xdotool`]).
pub(crate) fn with_xdotool(display: Option<Display>) -> Option<Display> {
    let display = display?;
    have_xdotool().then_some(display)
}

/// Where `window` is on the screen and its size, in pixels.
pub(crate) struct WindowGeometry {
    pub(crate) x: u32,
    pub(crate) y: u32,
    pub(crate) width: u32,
    pub(crate) height: u32,
}

/// `window`'s place and size as xdotool reports them.
pub(crate) fn window_geometry(display: &Display, window: &str) -> WindowGeometry {
    let geometry = xdotool(display, &["getwindowgeometry", "--shell", window]);
    let value = |key: &str| -> u32 {
        geometry
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {key} in {geometry}"))
    };
    WindowGeometry {
        x: value("X"),
        y: value("Y"),
        width: value("WIDTH"),
        height: value("HEIGHT"),
    }
}

/// The preview's window (its title starts with "wgpu-noise").
pub(crate) fn find_window(display: &Display) -> String {
    let window = xdotool(display, &["search", "--sync", "--name", "wgpu-noise"]);
    window
        .lines()
        .next()
        .expect("the window is found")
        .to_string()
}

pub(crate) fn xdotool(display: &Display, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", &display.name)
        .output()
        .expect("run xdotool");
    assert!(
        out.status.success(),
        "xdotool {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Replaces `path` as editors save: a new file renamed over the old one.
pub(crate) fn save(path: &Path, text: &str) {
    let new = path.with_extension("json.new");
    std::fs::write(&new, text).unwrap();
    std::fs::rename(&new, path).unwrap();
}

/// The picture of the next `saved NAME (…)` line (see [`LiveGraph::press_s`]), as gray
/// levels.
pub(crate) fn saved_picture(running: &mut Running, folder: &Path) -> Vec<u8> {
    let mut line = running.wait_for("saved ");
    while let Ok(next) = running.stderr.recv_timeout(Duration::from_secs(1)) {
        running.seen.push(next.clone());
        if next.contains("saved ") {
            line = next;
        }
    }
    let name = line
        .split_whitespace()
        .nth(1)
        .expect("`saved NAME (…)`")
        .to_string();
    picture_bytes(&folder.join(name))
}

/// A PNG's pixels: one byte each for a grayscale picture, else RGBA.
pub(crate) fn picture_bytes(path: &Path) -> Vec<u8> {
    match image::open(path).unwrap() {
        image::DynamicImage::ImageLuma8(gray) => gray.into_raw(),
        other => other.to_rgba8().into_raw(),
    }
}

pub(crate) const FBM: &str = r#"{"version": 1, "output": "n",
  "nodes": {"n": {"type": "fbm", "source": {"type": "simplex"}, "octaves": 3}}}"#;
pub(crate) const CELLS: &str = r#"{"version": 1, "output": "edges",
  "nodes": {"cells": {"type": "cellular", "output": "f2-f1"},
            "edges": {"type": "remap", "source": "cells", "from": [0, 0.5], "to": [-1, 1]}}}"#;
pub(crate) const DANGLING: &str = r#"{"version": 1, "output": "n",
  "nodes": {"n": {"type": "multiply", "a": "cells", "b": 2}}}"#;

/// A preview of a graph file being edited (`FBM` at the start), a 160 × 120 still frame.
/// Its fields drop in order: the preview before its folder and its display.
pub(crate) struct LiveGraph {
    pub(crate) running: Running,
    pub(crate) window: String,
    /// The graph file, in `dir`.
    pub(crate) graph: PathBuf,
    pub(crate) dir: tempfile::TempDir,
    pub(crate) frame: GraphFrame,
    pub(crate) display: Display,
}

impl LiveGraph {
    /// The preview started on a display with xdotool, or `None` (skipped, as
    /// [`with_xdotool`] says).
    pub(crate) fn launch() -> Option<LiveGraph> {
        let display = with_xdotool(window_setup())?;
        let frame = GraphFrame::still(160, 120);
        let dir = tempfile::tempdir().unwrap();
        let graph = dir.path().join("live.json");
        save(&graph, FBM);
        let mut args = frame.options();
        args.extend(["--graph".to_string(), graph.to_string_lossy().into_owned()]);
        let (running, window) = Running::launch(&display, &args, dir.path(), &[]);
        Some(LiveGraph {
            running,
            window,
            graph,
            dir,
            frame,
            display,
        })
    }

    /// A screenshot taken with the `S` key: the file its `saved NAME (…)` line names. On
    /// a loaded machine one press was seen to save twice (two `saved` lines, the same
    /// picture), so lines that follow within a second are read too and the last file named
    /// is taken: the preview's state does not change meanwhile, and no stale line is left
    /// for the next step.
    pub(crate) fn press_s(&mut self) -> Vec<u8> {
        xdotool(&self.display, &["windowfocus", "--sync", &self.window]);
        xdotool(&self.display, &["key", "s"]);
        saved_picture(&mut self.running, self.dir.path())
    }
}

#[test]
fn editing_the_graph_file_redraws_it_and_a_bad_edit_keeps_the_last_good_graph() {
    let Some(mut live) = LiveGraph::launch() else {
        return;
    };

    let first = live.press_s();
    assert_levels_match(
        &first,
        &graph_reference(FBM, &live.frame),
        "the graph at start",
    );

    save(&live.graph, CELLS);
    live.running.wait_for("reloaded");
    let edited = live.press_s();
    assert_levels_match(
        &edited,
        &graph_reference(CELLS, &live.frame),
        "after an edit",
    );

    save(&live.graph, DANGLING);
    let error = live.running.wait_for("error:");
    assert!(
        error.contains("nodes.n.a"),
        "the error names the path: {error}"
    );
    assert!(error.contains("last good graph"), "{error}");
    let kept = live.press_s();
    assert_eq!(kept, edited, "a bad edit keeps the last good picture");

    live.running.quit_with_escape(&live.display, &live.window);
}
