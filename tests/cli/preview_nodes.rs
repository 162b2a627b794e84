//! `wgpu-noise preview`'s node view, driven as a user drives it: `xdotool` right-clicks,
//! drags and clicks at the nodes, ports and parameters the preview's
//! `WGPU_NOISE_PANEL_LAYOUT` file reports. A node added and wired changes the frame to the
//! CPU reference of the new graph, and so does a node's slider; a bad edit marks its node and
//! the last good picture stays; undo brings the graph back; the JSON text and the nodes
//! follow each other.
//!
//! Skipped as `preview_panel`'s tests are.
#![cfg(feature = "preview")]

use super::preview::{assert_levels_match, screen_setup, Display};
use super::preview_graph::{graph_reference, with_xdotool, xdotool, GraphFrame, Running, CELLS};
use super::preview_panel::{centre, layout_when, Panel};
use crate::common::levels::differences;

const BASE: &str = r#"{"version": 1, "output": "base", "nodes": {"base": {"type": "simplex"}}}"#;

/// A preview of [`BASE`] (or another graph) to drive: its screen, the frame it draws and its folder (holding
/// `base.json`). The fields drop in this order: the folder, then the display, then the
/// screen's folder.
struct BasePreview {
    dir: tempfile::TempDir,
    frame: GraphFrame,
    display: Display,
    _screen: tempfile::TempDir,
}

impl BasePreview {
    /// `None` where the test is skipped (as `preview_panel`'s tests are).
    fn new() -> Option<BasePreview> {
        BasePreview::with_graph(BASE)
    }

    /// A preview of the graph `text` (as `base.json`) instead of [`BASE`].
    fn with_graph(text: &str) -> Option<BasePreview> {
        let screen = tempfile::tempdir().unwrap();
        let display = with_xdotool(screen_setup(screen.path()))?;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("base.json"), text).unwrap();
        Some(BasePreview {
            dir,
            frame: GraphFrame::still(800, 720),
            display,
            _screen: screen,
        })
    }

    /// The preview started on `base.json` (`--graph`) with the panel shown, a still
    /// 800 × 720 frame.
    fn launch(&self) -> (Running, Panel<'_>) {
        let mut args = self.frame.options();
        args.extend(["--graph", "base.json", "--panel", "shown"].map(String::from));
        Panel::launch(&self.display, &args, self.dir.path())
    }
}

impl Panel<'_> {
    /// The point `(fx, fy)` of the way across widget `name` (0.5, 0.5: its centre).
    fn at(&self, name: &str, fx: f64, fy: f64) -> (i64, i64) {
        let layout = self.with(name);
        let r = &layout["widgets"][name];
        let v = |i: usize| r[i].as_f64().unwrap();
        (
            (v(0) + fx * (v(2) - v(0))).round() as i64,
            (v(1) + fy * (v(3) - v(1))).round() as i64,
        )
    }

    /// Clicks widget `name` once it has kept its place over a few frames (a menu that
    /// changes size may move once).
    fn click_settled(&self, name: &str) {
        let mut last = self.with(name)["widgets"][name].clone();
        loop {
            std::thread::sleep(std::time::Duration::from_millis(300));
            let now = self.with(name)["widgets"][name].clone();
            if now == last {
                break;
            }
            last = now;
        }
        self.click(name);
    }

    /// Clicks node `name`'s header and waits until it is the selected node (a click in the
    /// same frame as the next would be lost).
    fn select(&self, name: &str) {
        self.click(&format!("node.{name}"));
        layout_when(&self.layout, &format!("{name} selected"), |v| {
            v["node_selected"].as_str() == Some(name)
        });
    }

    /// Presses the left button at widget `from`'s centre, moves to `to`'s in steps (egui
    /// sees a drag once the pointer has moved a few points) and releases it there.
    fn drag(&self, from: &str, to: &str) {
        let (x0, y0) = centre(&self.with(from), from);
        let (x1, y1) = centre(&self.with(to), to);
        let w = self.window.as_str();
        let goto = |x: i64, y: i64| {
            xdotool(
                self.display,
                &["mousemove", "--window", w, &x.to_string(), &y.to_string()],
            );
            std::thread::sleep(std::time::Duration::from_millis(60));
        };
        goto(x0, y0);
        xdotool(self.display, &["mousedown", "1"]);
        for k in 1..=8 {
            goto(x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8);
        }
        xdotool(self.display, &["mouseup", "1"]);
    }

    /// The layout once the editor's text satisfies `ready`, the node at fault is `fault`
    /// and the graph is drawn (compiled, or refused).
    fn graph_when(
        &self,
        what: &str,
        ready: impl Fn(&str) -> bool,
        fault: Option<&str>,
    ) -> serde_json::Value {
        layout_when(&self.layout, what, |v| {
            v["graph_text"].as_str().is_some_and(&ready)
                && v["graph_fault"].as_str() == fault
                && v["compiling"] == false
        })
    }
}

#[test]
fn nodes_added_wired_and_set_change_the_frame_to_the_new_graphs_reference() {
    let Some(base) = BasePreview::new() else {
        return;
    };
    let (mut running, panel) = base.launch();
    let (display, frame, dir) = (&base.display, &base.frame, &base.dir);
    let save = |running: &mut Running| panel.save_png(running, dir.path());
    let first = save(&mut running);
    assert_levels_match(&first, &graph_reference(BASE, frame), "the start");

    // The node view, with the file's one node.
    panel.click("node_view_toggle");
    panel.with("node.base");

    // Right-click on the canvas right of base, filter the menu, add a ridged node: its
    // source is unwired, so the graph is bad, the node is marked and the picture stays.
    let (x, y) = panel.at("node_canvas", 0.0, 0.0);
    let (x, y) = ((x + 280).to_string(), (y + 40).to_string());
    let w = panel.window.as_str();
    xdotool(display, &["mousemove", "--window", w, &x, &y, "click", "3"]);
    panel.with("add_filter");
    panel.wait_typing(true);
    xdotool(display, &["windowfocus", "--sync", w]);
    xdotool(display, &["type", "--delay", "5", "ridged"]);
    layout_when(&panel.layout, "the menu filtered", |v| {
        v["widgets"].get("add.fbm").is_none()
    });
    panel.click_settled("add.ridged");
    let shown = panel.graph_when("ridged added", |t| t.contains("\"ridged\""), Some("ridged"));
    eprintln!("after adding: error: {}", shown["graph_error"]);
    // The menu closed (a click while it closes would be taken by it).
    layout_when(&panel.layout, "the menu closed", |v| {
        v["widgets"].get("add_filter").is_none() && v["widgets"].get("node.ridged").is_some()
    });
    assert!(
        shown["graph_error"]
            .as_str()
            .is_some_and(|e| e.contains("nodes.ridged")),
        "{shown}"
    );
    assert_eq!(
        save(&mut running),
        first,
        "a bad graph keeps the last good picture"
    );

    // Wire base's output to ridged's source, and make ridged the output.
    panel.drag("port.base.out", "port.ridged.source");
    panel.graph_when("the wire", |t| t.contains("\"source\": \"base\""), None);
    panel.select("ridged");
    panel.click("node_output");
    let wired = panel.graph_when(
        "ridged drawn",
        |t| t.contains("\"output\": \"ridged\""),
        None,
    );
    let text = wired["graph_text"].as_str().unwrap().to_string();
    let ridged = save(&mut running);
    assert_levels_match(&ridged, &graph_reference(&text, frame), "base → ridged");
    let changed = differences(&first, &ridged)
        .iter()
        .filter(|&&d| d > 2)
        .count();
    assert!(changed > ridged.len() / 2, "only {changed} pixels changed");

    // The octaves slider, clicked a third of the way along.
    // A slider moves while the button is down on it: a press held over a few frames, as a
    // hand's click is.
    let (x, y) = panel.at("param.ridged.octaves", 0.3, 0.5);
    let w = panel.window.as_str();
    xdotool(
        display,
        &["mousemove", "--window", w, &x.to_string(), &y.to_string()],
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    xdotool(display, &["mousedown", "1"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    xdotool(display, &["mouseup", "1"]);
    let slid = panel.graph_when("octaves set", |t| t.contains("\"octaves\""), None);
    let slid_text = slid["graph_text"].as_str().unwrap().to_string();
    eprintln!("after the slider: {slid_text}");
    let octaves = save(&mut running);
    assert_levels_match(
        &octaves,
        &graph_reference(&slid_text, frame),
        "ridged's octaves slider",
    );
    assert_ne!(octaves, ridged, "the slider changed the picture");

    // Delete base: ridged's source is unwired again, ridged is marked, the picture stays;
    // undo brings base and its wire back.
    panel.select("base");
    panel.click("node_delete");
    panel.graph_when("base deleted", |t| !t.contains("\"base\""), Some("ridged"));
    assert_eq!(
        save(&mut running),
        octaves,
        "a bad edit keeps the last good picture"
    );
    panel.click("node_undo");
    panel.graph_when("base back", |t| t == slid_text, None);
    panel.with("node.base");

    // The JSON text typed: the node view shows its nodes.
    panel.type_into("graph_text", &CELLS.replace('\n', " "));
    panel.with("node.edges");
    panel.with("node.cells");
    layout_when(&panel.layout, "no node base", |v| {
        v["widgets"].get("node.base").is_none()
    });
    panel.graph_when("the typed graph drawn", |t| t.contains("edges"), None);
    let cells = save(&mut running);
    assert_levels_match(&cells, &graph_reference(CELLS, frame), "the typed graph");

    panel.click_at(100, 100);
    panel.wait_typing(false);
    running.quit_with_escape(display, &panel.window);
}

#[test]
fn a_preset_picked_from_the_menu_is_drawn_as_its_reference_and_the_keys_edit_it() {
    let Some(base) = BasePreview::new() else {
        return;
    };
    let (mut running, panel) = base.launch();
    let (display, frame, dir) = (&base.display, &base.frame, &base.dir);
    panel.click("node_view_toggle");
    panel.with("node.base");

    // The menu holds every shipped graph; picking one puts its text and nodes in the
    // editor and draws it.
    panel.click("presets");
    let menu = panel.with("preset.marble");
    let entries = menu["widgets"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| k.starts_with("preset."))
        .count();
    assert_eq!(entries, shipped_graphs().len(), "{menu}");
    panel.click_settled("preset.marble");
    let marble = std::fs::read_to_string("examples/graphs/marble.json").unwrap();
    panel.graph_when("marble drawn", |t| t == marble, None);
    layout_when(&panel.layout, "no node base", |v| {
        v["widgets"].get("node.base").is_none()
    });
    let drawn = panel.save_png(&mut running, dir.path());
    assert_levels_match(
        &drawn,
        &graph_reference(&marble, frame),
        "the marble preset",
    );

    // A preset is an edit like any other. With the pointer over the node view, Ctrl+Z
    // undoes it, Ctrl+Shift+Z redoes it, and Delete removes the selected node.
    let (x, y) = panel.at("node_canvas", 0.9, 0.9);
    let w = panel.window.as_str();
    xdotool(
        display,
        &["mousemove", "--window", w, &x.to_string(), &y.to_string()],
    );
    let key = |keys: &str| {
        xdotool(display, &["windowfocus", "--sync", w]);
        xdotool(display, &["key", keys]);
    };
    key("ctrl+z");
    panel.graph_when("base back", |t| t.contains("\"base\""), None);
    panel.with("node.base");
    key("ctrl+shift+z");
    panel.graph_when("marble again", |t| t.contains("\"bands\""), None);
    panel.select("bands");
    let (x, y) = panel.at("node_canvas", 0.9, 0.9);
    xdotool(
        display,
        &["mousemove", "--window", w, &x.to_string(), &y.to_string()],
    );
    key("Delete");
    panel.graph_when(
        "bands deleted",
        |t| !t.contains("\"bands\""),
        Some("marble"),
    );

    panel.click_at(100, 100);
    running.quit_with_escape(display, &panel.window);
}

/// The graphs under `examples/graphs/` (the presets menu's entries).
fn shipped_graphs() -> Vec<std::path::PathBuf> {
    std::fs::read_dir("examples/graphs")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect()
}

/// A graph whose `distance` node's point has two axes, for [`BasePreview::with_graph`].
const AXES_GRAPH: &str = r#"{"version": 1, "output": "d", "nodes": {"base": {"type": "simplex"}, "d": {"type": "distance", "point": [0.5, 0.5]}}}"#;

/// `nodes.d.point` of the graph file `text`, if it is one.
fn point_of(text: &str) -> Option<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    Some(v["nodes"]["d"]["point"].clone())
}

/// A per-axis parameter's axes on the node view: a wire dropped on one axis's port gives
/// that axis alone, a drag on another axis's number sets it, and a click on the wired
/// axis's port gives it back the default; after each the frame is the CPU reference of the
/// graph the editor's text holds.
#[test]
fn one_axis_of_a_per_axis_parameter_is_wired_dragged_and_unwired_on_the_node_view() {
    let Some(base) = BasePreview::with_graph(AXES_GRAPH) else {
        return;
    };
    let (mut running, panel) = base.launch();
    let (display, frame, dir) = (&base.display, &base.frame, &base.dir);
    let save = |running: &mut Running| panel.save_png(running, dir.path());
    let first = save(&mut running);
    panel.click("node_view_toggle");
    panel.with("port.d.point.1");

    // base's output dropped on y's port: y alone reads base.
    panel.drag("port.base.out", "port.d.point.1");
    let wired = panel.graph_when(
        "y from base",
        |t| point_of(t) == Some(serde_json::json!([0.5, "base"])),
        None,
    );
    let text = wired["graph_text"].as_str().unwrap().to_string();
    let y_wired = save(&mut running);
    assert_levels_match(&y_wired, &graph_reference(&text, frame), "y from base");
    assert_ne!(y_wired, first, "the wire changed the picture");

    // x's number dragged to the right: x grows, y still reads base.
    let (x0, y0) = panel.at("param.d.point.0", 0.5, 0.5);
    let w = panel.window.as_str();
    let goto = |x: i64| {
        let (x, y) = (x.to_string(), y0.to_string());
        xdotool(display, &["mousemove", "--window", w, &x, &y]);
        std::thread::sleep(std::time::Duration::from_millis(60));
    };
    goto(x0);
    xdotool(display, &["mousedown", "1"]);
    for k in 1..=8 {
        goto(x0 + 5 * k);
    }
    xdotool(display, &["mouseup", "1"]);
    let dragged = panel.graph_when(
        "x dragged",
        |t| {
            point_of(t)
                .is_some_and(|p| p[1] == "base" && p[0].as_f64().is_some_and(|x| x > 0.5 + 1e-6))
        },
        None,
    );
    let text = dragged["graph_text"].as_str().unwrap().to_string();
    eprintln!("after the drag: {:?}", point_of(&text));
    let x_dragged = save(&mut running);
    assert_levels_match(&x_dragged, &graph_reference(&text, frame), "x dragged");
    assert_ne!(x_dragged, y_wired, "the drag changed the picture");

    // A click on y's wired port: y is the default again, x keeps its number.
    let x = point_of(&text).unwrap()[0].clone();
    panel.click("port.d.point.1");
    let unwired = panel.graph_when(
        "y unwired",
        |t| point_of(t) == Some(serde_json::json!([x, 0.0])),
        None,
    );
    let text = unwired["graph_text"].as_str().unwrap().to_string();
    assert_levels_match(
        &save(&mut running),
        &graph_reference(&text, frame),
        "y unwired",
    );
    running.quit_with_escape(display, &panel.window);
}
