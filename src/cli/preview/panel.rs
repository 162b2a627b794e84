//! The control panel: an egui side panel drawn over the noise, in its own render pass over
//! the same swapchain texture after the noise. Its controls change the [`View`] (the same
//! state the keys change), hold the graph editor, and ask the window for files and the
//! bake command ([`Request`]); what they show is read back from the frame's [`Field`].

use std::path::PathBuf;

use egui::{Color32, RichText};
use winit::window::Window;

use crate::field::{FlagField, FractalMode, MAX_OCTAVES, MAX_WARP_ITERATIONS};
use crate::{FieldOutput, NoiseKind};

use super::thumbs::{Outcome, ThumbnailWorker};
use super::view::{mode_name, Picture, View};
use crate::editor::export::ValuesFile;
use crate::editor::orbit::RELIEF_RANGE;
use crate::editor::presets::presets_menu;
use crate::editor::readout::Readout;
use crate::editor::thumbs::ThumbnailView;
use crate::editor::Editor;
use crate::ramp::ColourRamp;

/// The environment variable of the test hook: a file the panel writes the screen rectangles
/// of its named widgets to (JSON, physical pixels, see [`Panel::write_layout`]), so that a
/// test can click and type at them as a user would. Not for anything else.
pub const LAYOUT_ENV: &str = "WGPU_NOISE_PANEL_LAYOUT";
/// Width of the panel in logical points.
const PANEL_WIDTH: f32 = 270.0;
/// The window height (pixels) from which the view and readout section starts open.
const ROOM_FOR_VIEW_SECTION: u32 = 700;
/// Height of the node view at the start, in logical points.
const NODE_VIEW_HEIGHT: f32 = 420.0;

/// Whether the panel is drawn (`H` and `Tab` switch it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Visibility {
    /// Drawn over the right side of the window; the pointer over it is the panel's, and the
    /// keys while one of its text fields is typed into.
    Shown,
    /// Not drawn; the whole window is the noise.
    Hidden,
}

impl Visibility {
    /// The other one.
    pub fn toggled(self) -> Self {
        match self {
            Visibility::Shown => Visibility::Hidden,
            Visibility::Hidden => Visibility::Shown,
        }
    }
}

/// What the panel asks the window to do after its pass.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Draw the view's noise from the settings (no graph).
    UseSettings,
    /// Compile the editor's text and draw it (the graph's source was picked, or edited).
    ApplyGraph,
    /// Save the noise frame as the `S` key does.
    SavePng,
    /// Bake the frame's values (not its colours) to a new file.
    SaveValues(ValuesFile),
    /// Write the editor's graph to a new file.
    SaveGraph,
    /// Show and copy the `wgpu-noise bake` command of the frame.
    BakeCommand,
    /// Show and copy the share link of the graph and view (the page's).
    ShareLink,
}

/// A line the panel shows under its buttons: what the last button did.
#[derive(Clone, Debug)]
pub enum Notice {
    /// Done: the command, or the file written.
    Done(String),
    /// Failed: why.
    Failed(String),
}

/// The panel's egui state and its renderer.
pub struct Panel {
    ctx: egui::Context,
    state: egui_winit::State,
    renderer: egui_wgpu::Renderer,
    pub visibility: Visibility,
    pub editor: Editor,
    pub notice: Option<Notice>,
    /// The value under the cursor and the range drawn (`None` for the settings' noise).
    pub readout: Option<Readout>,
    /// Whether a graph change is compiling (the frame still shows the last one), for
    /// [`LAYOUT_ENV`].
    pub compiling: bool,
    /// For the test hook: the frames presented with this one, and whether the iso view's
    /// surface asked for is still being computed.
    pub frames: u64,
    pub iso_busy: bool,
    /// [`LAYOUT_ENV`]: the file, and what was last written to it.
    layout: Option<(PathBuf, String)>,
    /// The named widgets of the last pass, in points.
    named: Vec<(String, egui::Rect)>,
    /// Where the pointer is, in points, as the window's events say: egui's own position
    /// is the last frame's, and a key may come before the next frame.
    pointer: Option<egui::Pos2>,
    /// The view after the last pass ([`View::describe`]), for [`LAYOUT_ENV`].
    described: String,
}

/// One pass's paint jobs, drawn by [`Panel::paint`].
pub struct Painted {
    jobs: Vec<egui::ClippedPrimitive>,
    textures: egui::TexturesDelta,
    pixels_per_point: f32,
}

impl Panel {
    /// A panel for `window`, drawing into textures of `format` on `device`, with `graph` in
    /// the editor.
    pub fn new(
        window: &Window,
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        visibility: Visibility,
        graph: String,
    ) -> Self {
        let ctx = egui::Context::default();
        let state = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            window,
            Some(window.scale_factor() as f32),
            window.theme(),
            Some(device.limits().max_texture_dimension_2d as usize),
        );
        let renderer =
            egui_wgpu::Renderer::new(device, format, egui_wgpu::RendererOptions::default());
        Panel {
            ctx,
            state,
            renderer,
            visibility,
            editor: Editor::new(graph),
            notice: None,
            readout: None,
            compiling: false,
            frames: 0,
            iso_busy: false,
            layout: std::env::var_os(LAYOUT_ENV).map(|p| (PathBuf::from(p), String::new())),
            named: Vec::new(),
            pointer: None,
            described: String::new(),
        }
    }

    /// Whether a text field (the graph editor, a number being typed) has the keyboard: then
    /// keys go to it and not to the preview.
    pub fn typing(&self) -> bool {
        self.visibility == Visibility::Shown && self.ctx.text_edit_focused()
    }

    /// Shows or hides the panel; a hidden panel keeps no keyboard focus.
    pub fn set_visibility(&mut self, visibility: Visibility) {
        self.visibility = visibility;
        if visibility == Visibility::Hidden {
            self.ctx.memory_mut(|m| {
                if let Some(id) = m.focused() {
                    m.surrender_focus(id);
                }
            });
        }
    }

    /// Gives a window event to egui while the panel is shown; returns whether egui took it
    /// (the pointer over the panel, a key while [`Panel::typing`]) and whether the panel
    /// wants a redraw. Keys reach egui only while it is typing, or the node view's keys
    /// with the pointer over it, so `Space`, `Tab` and the letters keep their preview
    /// meaning otherwise.
    pub fn on_event(&mut self, window: &Window, event: &winit::event::WindowEvent) -> (bool, bool) {
        use winit::event::WindowEvent;
        if self.visibility == Visibility::Hidden {
            return (false, false);
        }
        match event {
            WindowEvent::CursorMoved { position, .. } => {
                let scale = egui_winit::pixels_per_point(&self.ctx, window);
                self.pointer = Some(egui::pos2(
                    position.x as f32 / scale,
                    position.y as f32 / scale,
                ));
            }
            WindowEvent::CursorLeft { .. } => self.pointer = None,
            _ => {}
        }
        let key = matches!(
            event,
            WindowEvent::KeyboardInput { .. } | WindowEvent::Ime(_)
        );
        if key && !self.typing() && !self.node_view_key(event) {
            return (false, false);
        }
        let response = self.state.on_window_event(window, event);
        (response.consumed, response.repaint)
    }

    /// Whether `event` is one of the node view's keys (`NodeView::shortcut`: Z and Y, with
    /// Ctrl, Delete, Backspace) with the pointer over its canvas.
    fn node_view_key(&self, event: &winit::event::WindowEvent) -> bool {
        use winit::keyboard::{Key, NamedKey};
        let winit::event::WindowEvent::KeyboardInput { event: key, .. } = event else {
            return false;
        };
        let shortcut = match key.logical_key.as_ref() {
            Key::Character(c) => ["z", "y"].contains(&c.to_lowercase().as_str()),
            Key::Named(named) => matches!(named, NamedKey::Delete | NamedKey::Backspace),
            _ => false,
        };
        let over = self.pointer.is_some_and(|p| {
            self.named
                .iter()
                .any(|(name, rect)| name == "node_canvas" && rect.contains(p))
        });
        shortcut && over
    }

    /// Runs one egui pass over `view` (changed in place by the controls) for a frame of
    /// `size` pixels; returns the requests and the paint jobs.
    pub fn run(
        &mut self,
        window: &Window,
        view: &mut View,
        size: [u32; 2],
    ) -> (Vec<Request>, Painted) {
        let input = self.state.take_egui_input(window);
        let mut requests = Vec::new();
        let mut named = Vec::new();
        let editor = &mut self.editor;
        let shown = Shown {
            notice: &self.notice,
            readout: self.readout.as_ref(),
        };
        let output = self.ctx.run_ui(input, |ui| {
            let panel = egui::Panel::right("controls")
                .resizable(false)
                .exact_size(PANEL_WIDTH)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        controls(ui, view, size, editor, &shown, &mut requests, &mut named);
                    });
                });
            named.push(("panel".to_string(), panel.response.rect));
            if editor.nodes_shown {
                // Below the noise, beside the panel: the noise stays in view above it.
                let nodes = egui::Panel::bottom("nodes")
                    .resizable(true)
                    .default_size(NODE_VIEW_HEIGHT)
                    .show(ui, |ui| editor.show_nodes(ui, &mut named));
                named.push(("node_view".to_string(), nodes.response.rect));
                if nodes.inner && !requests.contains(&Request::ApplyGraph) {
                    requests.push(Request::ApplyGraph);
                }
            }
        });
        self.named = named;
        self.described = view.describe(size[0]);
        self.state
            .handle_platform_output(window, output.platform_output);
        let pixels_per_point = output.pixels_per_point;
        let jobs = self.ctx.tessellate(output.shapes, pixels_per_point);
        (
            requests,
            Painted {
                jobs,
                textures: output.textures_delta,
                pixels_per_point,
            },
        )
    }

    /// The node view's thumbnails: those `worker` has filled are shown, and the sub-graphs
    /// of nodes whose thumbnail is of another graph or `view` (the main view's seed,
    /// region and slice) are asked for, while the node view is shown.
    pub fn thumbnails(
        &mut self,
        worker: &mut ThumbnailWorker,
        view: ThumbnailView,
        ramp: ColourRamp,
    ) {
        let thumbnails = &mut self.editor.thumbnails;
        for outcome in worker.take() {
            match outcome {
                Outcome::Filled(job, filled) => thumbnails.receive(&self.ctx, job, filled),
                Outcome::Superseded(job) => thumbnails.forget(&job),
            }
        }
        if self.editor.nodes_shown && self.visibility == Visibility::Shown {
            let graph = self.editor.model.graph();
            worker.ask(thumbnails.wanted(&self.ctx, graph, view, ramp));
        }
    }

    /// Copies `text` to the clipboard.
    pub fn copy(&mut self, text: &str) {
        self.state.set_clipboard_text(text.to_string());
    }

    /// Records the drawing of `painted` over `target` (the noise already there).
    pub fn paint(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        size: [u32; 2],
        mut painted: Painted,
    ) {
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: size,
            pixels_per_point: painted.pixels_per_point,
        };
        for (id, deltas) in &painted.textures.set {
            for delta in deltas {
                self.renderer.update_texture(device, queue, *id, delta);
            }
        }
        let callbacks =
            self.renderer
                .update_buffers(device, queue, encoder, &painted.jobs, &screen);
        debug_assert!(callbacks.is_empty(), "the panel has no paint callbacks");
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("preview panel pass"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: target,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Load,
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                })
                .forget_lifetime();
            self.renderer.render(&mut pass, &painted.jobs, &screen);
        }
        for id in &painted.textures.free {
            self.renderer.free_texture(id);
        }
        // Applied above (a delta dropped unapplied is a bug egui reports by panicking).
        painted.textures.clear();
    }

    /// The test hook ([`LAYOUT_ENV`]): writes `{"widgets": {NAME: [x0, y0, x1, y1], …},
    /// "graph_error": …, "graph_fault": …, "graph_text": …, "node_selected": …,
    /// "compiling": …, "notice": …, "typing": …, "view": …, "frames": …, "iso_busy": …}`
    /// (rectangles in the window's
    /// physical pixels, the node view's nodes, ports and parameters among them; the node the
    /// graph's error names; the editor's text; the node view's selected node; whether a graph
    /// change is still compiling;
    /// whether a text field has the keys; the view the panel shows; the frames presented,
    /// this one included; whether the iso view's worker is computing) when it changed, by
    /// renaming a complete file over the old one.
    pub fn write_layout(&mut self) -> std::io::Result<()> {
        let Some((path, last)) = &self.layout else {
            return Ok(());
        };
        let ppp = self.ctx.pixels_per_point();
        let shown = self.visibility == Visibility::Shown;
        let widgets: serde_json::Map<String, serde_json::Value> = self
            .named
            .iter()
            .filter(|_| shown)
            .map(|(name, r)| {
                let px = [r.min.x, r.min.y, r.max.x, r.max.y].map(|v| (v * ppp).round() as f64);
                (name.to_string(), serde_json::json!(px))
            })
            .collect();
        let notice = match &self.notice {
            Some(Notice::Done(s)) => serde_json::json!({ "done": s }),
            Some(Notice::Failed(s)) => serde_json::json!({ "failed": s }),
            None => serde_json::Value::Null,
        };
        let text = serde_json::json!({
            "widgets": widgets,
            "graph_error": self.editor.error,
            "graph_fault": self.editor.fault,
            "graph_text": self.editor.text,
            "node_selected": self.editor.node_view.selected(),
            "compiling": self.compiling,
            "notice": notice,
            "readout": self.readout.as_ref().map(Readout::json),
            "typing": self.typing(),
            "view": self.described,
            "thumbnails": self.editor.thumbnails.json(self.editor.model.graph()),
            "thumbnails_pending": self.editor.thumbnails.pending(),
            "frames": self.frames,
            "iso_busy": self.iso_busy,
        })
        .to_string();
        if &text == last {
            return Ok(());
        }
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, &text)?;
        std::fs::rename(&tmp, path)?;
        if let Some((_, last)) = &mut self.layout {
            *last = text;
        }
        Ok(())
    }
}

/// What the panel shows of the window's doing: the last button's notice and the readout.
struct Shown<'a> {
    notice: &'a Option<Notice>,
    readout: Option<&'a Readout>,
}

/// Remembers `response`'s rectangle under `name` for [`Panel::write_layout`].
fn named(
    list: &mut Vec<(String, egui::Rect)>,
    name: &str,
    response: egui::Response,
) -> egui::Response {
    list.push((name.to_string(), response.rect));
    response
}

/// The panel's contents.
fn controls(
    ui: &mut egui::Ui,
    view: &mut View,
    size: [u32; 2],
    editor: &mut Editor,
    shown: &Shown<'_>,
    requests: &mut Vec<Request>,
    list: &mut Vec<(String, egui::Rect)>,
) {
    let width = size[0].max(1) as f64;
    ui.heading("wgpu-noise");
    ui.horizontal(|ui| {
        ui.label("noise from");
        let graph = view.graph.is_some();
        if named(list, "source.settings", ui.radio(!graph, "settings")).clicked() && graph {
            requests.push(Request::UseSettings);
        }
        if named(list, "source.graph", ui.radio(graph, "graph")).clicked() && !graph {
            requests.push(Request::ApplyGraph);
        }
    });
    let settings = view.graph.is_none();
    ui.add_enabled_ui(settings, |ui| {
        ui.horizontal(|ui| {
            for (kind, name) in [
                (NoiseKind::Classic, "kind.classic"),
                (NoiseKind::Simplex, "kind.simplex"),
                (NoiseKind::Cellular, "kind.cellular"),
                (NoiseKind::Value, "kind.value"),
            ] {
                named(
                    list,
                    name,
                    ui.selectable_value(&mut view.kind, kind, kind.name()),
                );
            }
        });
    });
    ui.horizontal(|ui| {
        for (dims, name) in [(2, "dims.2"), (3, "dims.3"), (4, "dims.4")] {
            named(
                list,
                name,
                ui.selectable_value(&mut view.dims, dims, format!("{dims}D")),
            );
        }
        ui.separator();
        named(list, "pause", ui.checkbox(&mut view.paused, "paused"));
    });
    egui::Grid::new("numbers").num_columns(2).show(ui, |ui| {
        ui.label("seed");
        named(list, "seed", ui.add(egui::DragValue::new(&mut view.seed)));
        ui.end_row();
        ui.label("cells across");
        let mut cells = view.step * width;
        let r = named(
            list,
            "frequency",
            ui.add(
                egui::DragValue::new(&mut cells)
                    .range(width * 1e-6..=width)
                    .speed(0.05),
            ),
        );
        if r.changed() {
            view.step = cells / width;
        }
        ui.end_row();
        ui.add_enabled_ui(settings, |ui| ui.label("octaves"));
        named(
            list,
            "octaves",
            ui.add_enabled(
                settings,
                egui::DragValue::new(&mut view.octaves).range(1..=MAX_OCTAVES),
            ),
        );
        ui.end_row();
        ui.add_enabled_ui(settings, |ui| ui.label("lacunarity"));
        named(
            list,
            "lacunarity",
            ui.add_enabled(
                settings,
                egui::DragValue::new(&mut view.lacunarity)
                    .range(1.0..=8.0)
                    .speed(0.01),
            ),
        );
        ui.end_row();
        ui.add_enabled_ui(settings, |ui| ui.label("gain"));
        named(
            list,
            "gain",
            ui.add_enabled(
                settings,
                egui::DragValue::new(&mut view.gain)
                    .range(0.0..=1.0)
                    .speed(0.005),
            ),
        );
        ui.end_row();
        ui.add_enabled_ui(settings, |ui| ui.label("warp"));
        ui.horizontal(|ui| {
            named(
                list,
                "warp",
                ui.add_enabled(
                    settings,
                    egui::DragValue::new(&mut view.warp)
                        .range(0.0..=8.0)
                        .speed(0.01),
                ),
            );
            named(
                list,
                "warp_iterations",
                ui.add_enabled(
                    settings,
                    egui::DragValue::new(&mut view.warp_iterations)
                        .range(1..=MAX_WARP_ITERATIONS)
                        .suffix(" ×"),
                ),
            );
        });
        ui.end_row();
        ui.add_enabled_ui(settings, |ui| ui.label("flow rate"));
        named(
            list,
            "flow_rate",
            ui.add_enabled(
                settings,
                egui::DragValue::new(&mut view.flow_rate)
                    .range(-10.0..=10.0)
                    .speed(0.01)
                    .suffix(" rad/s"),
            ),
        );
        ui.end_row();
        ui.label("speed");
        named(
            list,
            "speed",
            ui.add(
                egui::DragValue::new(&mut view.speed)
                    .range(-100.0..=100.0)
                    .speed(0.01)
                    .suffix(" cells/s"),
            ),
        );
        ui.end_row();
    });
    ui.add_enabled_ui(settings, |ui| {
        ui.horizontal(|ui| {
            for (mode, name) in [
                (FractalMode::Fbm, "fractal.fbm"),
                (FractalMode::Turbulence, "fractal.turbulence"),
                (FractalMode::Ridged, "fractal.ridged"),
            ] {
                named(
                    list,
                    name,
                    ui.selectable_value(&mut view.mode, mode, mode_name(mode)),
                );
            }
        });
        ui.horizontal(|ui| {
            named(list, "flow", ui.checkbox(&mut view.flow, "flow"));
            let mut curl = view.output == FieldOutput::Curl;
            if named(list, "curl", ui.checkbox(&mut curl, "curl")).changed() {
                view.toggle_curl();
            }
            named(list, "tileable", ui.checkbox(&mut view.tiled, "tileable"));
        });
    });
    ui.horizontal(|ui| {
        for ramp in ColourRamp::ALL {
            let name = format!("ramp.{}", ramp.name());
            named(
                list,
                &name,
                ui.selectable_value(&mut view.ramp, ramp, ramp.name()),
            );
        }
    });

    // Folded in short windows, where the graph editor below needs the rows.
    let section = egui::CollapsingHeader::new("view and readout")
        .default_open(size[1] >= ROOM_FOR_VIEW_SECTION)
        .show(ui, |ui| {
            picture_controls(ui, view, requests, list);
            // Here, not among the buttons below: a row more there pushes the graph editor
            // out of a 600-pixel window.
            if named(list, "share_link", ui.button("copy share link")).clicked() {
                requests.push(Request::ShareLink);
            }
            readout_lines(ui, view, shown.readout, list);
        });
    named(list, "view_section", section.header_response);

    ui.separator();
    // After the controls: the settings of the frame drawn next.
    let field = view.field(size[0], size[1]);
    ui.label(
        RichText::new(exact_settings(view, &field))
            .monospace()
            .small(),
    );

    ui.separator();
    ui.horizontal_wrapped(|ui| {
        if named(list, "save_png", ui.button("save PNG")).clicked() {
            requests.push(Request::SavePng);
        }
        for file in ValuesFile::ALL {
            let name = format!("save_{}", file.extension());
            let text = format!("save {}", file.label());
            if named(list, &name, ui.button(text)).clicked() {
                requests.push(Request::SaveValues(file));
            }
        }
        if named(list, "save_graph", ui.button("save graph")).clicked() {
            requests.push(Request::SaveGraph);
        }
        if named(list, "bake_command", ui.button("copy bake command")).clicked() {
            requests.push(Request::BakeCommand);
        }
    });
    match shown.notice {
        Some(Notice::Done(text)) => {
            named(
                list,
                "notice",
                ui.label(RichText::new(text).monospace().small()),
            );
        }
        Some(Notice::Failed(text)) => {
            named(list, "notice", ui.colored_label(Color32::RED, text));
        }
        None => {}
    }

    ui.separator();
    ui.horizontal(|ui| {
        // Short: the row holds the presets and the node view's toggle beside it.
        ui.label("graph JSON").on_hover_text("docs/graphs.md");
        if presets_menu(ui, editor, list) {
            requests.push(Request::ApplyGraph);
        }
        named(
            list,
            "node_view_toggle",
            ui.toggle_value(&mut editor.nodes_shown, "nodes"),
        );
    });
    // The editor scrolls within what the window shows above the error line and the hint
    // (at least 3 rows): the panel scrolls too, but an editor on screen is one a click
    // reaches, and its text can be as long as the graph.
    let row = ui.text_style_height(&egui::TextStyle::Monospace);
    let visible = ui.clip_rect().bottom() - ui.cursor().top() - 3.0 * row;
    let (edit, text_box) = editor.show_text(ui, "graph editor", visible);
    list.push(("graph_text".to_string(), text_box));
    if edit.changed() {
        editor.text_edited();
        requests.push(Request::ApplyGraph);
    }
    if let Some(error) = &editor.error {
        named(
            list,
            "graph_error",
            ui.colored_label(Color32::RED, format!("error: {error}")),
        );
    }
    ui.separator();
    ui.label(RichText::new("H / Tab hide this panel").small().weak());
}

/// The view's picture (flat or terrain; the terrain is a graph's, so picking it with the
/// settings drawn switches to the graph) and the terrain's relief.
fn picture_controls(
    ui: &mut egui::Ui,
    view: &mut View,
    requests: &mut Vec<Request>,
    list: &mut Vec<(String, egui::Rect)>,
) {
    ui.horizontal(|ui| {
        ui.label("view");
        named(
            list,
            "view.2d",
            ui.selectable_value(&mut view.picture, Picture::Flat, "2D"),
        );
        let terrain = ui.selectable_value(&mut view.picture, Picture::Terrain, "terrain");
        if named(list, "view.terrain", terrain).clicked()
            && view.graph.is_none()
            && !requests.contains(&Request::ApplyGraph)
        {
            requests.push(Request::ApplyGraph);
        }
        let iso = ui.selectable_value(&mut view.picture, Picture::Iso, "iso");
        if named(list, "view.iso", iso).clicked()
            && view.graph.is_none()
            && !requests.contains(&Request::ApplyGraph)
        {
            requests.push(Request::ApplyGraph);
        }
        ui.add_enabled_ui(view.picture == Picture::Terrain, |ui| {
            ui.label("relief");
            named(
                list,
                "relief",
                ui.add(
                    egui::DragValue::new(&mut view.relief)
                        .range(RELIEF_RANGE.0..=RELIEF_RANGE.1)
                        .speed(0.002),
                ),
            );
        });
    });
    if view.picture == Picture::Iso {
        let (low, high) = crate::editor::isosurface::LEVEL_RANGE;
        ui.horizontal(|ui| {
            ui.label("level");
            named(
                list,
                "level",
                ui.add(egui::Slider::new(&mut view.level, low..=high).step_by(0.01)),
            );
        });
    }
}

/// The value and gradient under the cursor and the range drawn.
fn readout_lines(
    ui: &mut egui::Ui,
    view: &View,
    readout: Option<&Readout>,
    list: &mut Vec<(String, egui::Rect)>,
) {
    let text = match readout {
        // The iso view samples the graph in 3D, whatever the frame's dimensions.
        Some(readout) => readout.lines(if view.showing_iso() { 3 } else { view.dims }),
        None => "value under the cursor: a graph's (the settings have no readout)".to_string(),
    };
    named(
        list,
        "readout",
        ui.label(RichText::new(text).monospace().small()),
    );
}

/// The frame's field as the shader gets it: frequency and offset per axis, fractal, warp,
/// flow angle, tiling, time.
fn exact_settings(view: &View, field: &FlagField) -> String {
    let d = field.dims;
    let join = |v: &[f64]| {
        v.iter()
            .map(|&x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines = vec![
        format!("frequency {}", join(&field.frequency[..d])),
        format!("offset    {}", join(&field.offset[..d])),
        format!("t = {:.3} s", view.time),
    ];
    if view.graph.is_none() {
        let f = &field.fractal;
        lines.push(format!(
            "{} ×{}, lacunarity {}, gain {}",
            mode_name(f.mode),
            f.octaves,
            f.lacunarity,
            f.gain
        ));
        if field.warp.amplitude != 0.0 {
            lines.push(format!(
                "warp {} cells ×{} ({} octaves)",
                field.warp.amplitude, field.warp.iterations, field.warp.octaves
            ));
        }
        if field.flow_angle != 0.0 {
            lines.push(format!("flow angle {:.4} rad", field.flow_angle));
        }
        if field.tileable {
            lines.push("tileable".to_string());
        }
        if view.showing_curl() {
            lines.push("curl noise (flow map)".to_string());
        }
    }
    if !view.showing_curl() {
        lines.push(format!("colour ramp {}", view.ramp.name()));
    }
    lines.join("\n")
}
