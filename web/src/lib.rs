//! The wgpu-noise page (`web/www/index.html`): the graph editor of the desktop preview
//! (`wgpu_noise::editor`: the node view and the JSON text kept in step) as an eframe app,
//! with the picture computed by the library's GPU fill on the browser's WebGPU.
//!
//! The UI is drawn by eframe's glow (WebGL2) renderer; the noise runs on a WebGPU device of
//! its own, used only for compute and readback: headless Chromium on SwiftShader (the test's
//! browser) loses a WebGPU device at a WebGPU canvas context's first frame, and a picture
//! read back is exactly the bytes the page shows, downloads and the test compares. The
//! values read back are coloured on the CPU with the library's colour ramp.
//!
//! The 3D view ([`terrain`]) draws the desktop preview's terrain with the same WebGPU device
//! into an offscreen texture and reads it back into the picture; the iso view ([`iso`])
//! fills a 3D graph's cube on that device, extracts its surface on the CPU and draws it
//! the same way.
//!
//! The views have the desktop preview's framing ([`Framing`]): the pan, the graph's
//! dimension count (the picture a slice one texel deep of a 3D or 4D field), the clock
//! (moving the slice along the animated axis by `speed × time`; while it runs, each picture
//! back starts the next) and the terrain's relief. The iso view's cube starts at the
//! framing's first point, as the desktop's does, and moves with the clock.
//!
//! The page's state, the picture's bytes and the widgets' rectangles are handed to the
//! page's script (`page_state`, `picture`, `layout`) for `tests/web/page.rs`, as the
//! desktop preview writes its layout for its tests.

mod iso;
mod terrain;

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use eframe::egui;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wgpu_noise::editor::export::{values_file, ValuesFile};
use wgpu_noise::editor::isosurface::LEVEL_RANGE;
use wgpu_noise::editor::orbit::{Orbit, RELIEF_RANGE};
use wgpu_noise::editor::presets::{presets_menu, PRESETS};
use wgpu_noise::editor::readout::{self, Readout};
use wgpu_noise::editor::share::{Framing, Scene, SharedView};
use wgpu_noise::editor::terrain::Placement;
use wgpu_noise::editor::thumbs::{
    colour, cpu_cost, Clock, Cost, Filled, Job, NoTimestamps, ThumbnailView, THUMBNAIL_SIZE,
    TIMED_SIZE,
};
use wgpu_noise::editor::timer::{plausible, GpuTimer};
use wgpu_noise::editor::Editor;
use wgpu_noise::graph::{Graph, GraphError, Program, Sampler};
use wgpu_noise::low_level::{padded_row_bytes, unpad_rows, ColourRamp};
use wgpu_noise::{Field, FieldOutput, GpuNoise, TextureFill};

use self::iso::{cube_of, level_of, FillKey, IsoRenderer};
use self::terrain::{Dimensions, TerrainRenderer, TerrainRequest, TERRAIN_SIZE};

/// The picture's size in texels (and in the page's points).
const SIZE: u32 = 256;
/// The values drawn at the colour ramp's ends: the nominal range of graph outputs, as the
/// desktop preview draws a graph.
const RANGE: (f32, f32) = wgpu_noise::editor::thumbs::RANGE;
/// The view the page opens with (no share link): the first preset, seed 0, 4 cells across.
const DEFAULT_FREQUENCY: f64 = 4.0;
/// The left panel's width: the picture, the settings, the buttons and the JSON text.
const PANEL_WIDTH: f32 = 300.0;
/// The speed's range, lattice cells per second (the desktop panel's).
const SPEED_RANGE: (f64, f64) = (-100.0, 100.0);
/// While the clock runs, the page's address (its share link) is rewritten at most this
/// often: Chromium throttles `history.replaceState` beyond about 200 calls in 10 s, with a
/// console warning. The copy-share-link button writes the picture's link first.
const FRAGMENT_INTERVAL_MS: f64 = 1000.0;
/// While the clock runs and the graph cannot be drawn (no draw's return wakes the next
/// frame), the page still redraws this often: the clock and its time go on, the picture
/// the last good one, as on the desktop.
const CLOCK_FRAME: std::time::Duration = std::time::Duration::from_millis(100);

/// What the page's script reads ([`page_state`], [`picture`], [`layout`]): written by the
/// app at the end of each frame.
#[derive(Default)]
struct Hook {
    /// Pictures shown so far.
    frames: u32,
    /// Whether a draw is under way or waiting (the picture is not yet the view's).
    busy: bool,
    /// The URL's fragment as the app last wrote or read it ([`App::fragment`]): another one
    /// is a link opened in the tab that the app has not yet read, so the page is busy.
    fragment: Option<String>,
    /// The view of the picture shown (its graph is the last good one).
    shown: Option<SharedView>,
    /// The clock's time now (the picture's may be older: the graph broken, a draw under
    /// way).
    clock: f64,
    /// The editor's text, error and node at fault now.
    text: String,
    error: Option<String>,
    fault: Option<String>,
    /// The line under the buttons: what the last button did, or why a link was not read.
    notice: Option<String>,
    /// The picture shown: RGBA rows, top first, its width (and height) in pixels, and the
    /// values they were coloured from (none for the 3D view).
    rgba: Vec<u8>,
    picture_size: u32,
    values: Vec<f32>,
    /// Each node's thumbnail as shown: RGBA rows, top first ([`thumbnail`]).
    thumbnail_rgba: Vec<(String, Vec<u8>)>,
    /// Named widgets' rectangles, in points from the canvas's top left corner.
    widgets: Vec<(String, egui::Rect)>,
    /// The last text put on the clipboard, and the last file downloaded.
    copied: Option<String>,
    downloaded: Option<String>,
    /// Milliseconds from the page's navigation to `start`, and to the first picture shown.
    start_ms: f64,
    first_picture_ms: Option<f64>,
    /// The last frames' CPU times in milliseconds (eframe's: the UI pass, tessellation
    /// and the WebGL paint calls).
    frame_ms: Vec<f64>,
    /// The last draws' times (milliseconds from the fill's submission to its picture), and
    /// the 3D view's (from the terrain's submission to its picture).
    draw_ms: Vec<f64>,
    terrain_ms: Vec<f64>,
    /// The iso view's pictures (from the start of the draw, the cube's fill when one is
    /// needed, to its picture), and its surfaces' extractions on the CPU.
    iso_ms: Vec<f64>,
    extract_ms: Vec<f64>,
    /// The node view's thumbnails (`editor::thumbs::Thumbnails::json`).
    thumbnails: Value,
    /// The readout under the picture (`editor::readout::Readout::json`), null before the
    /// first picture.
    readout: Value,
}

thread_local! {
    static HOOK: RefCell<Hook> = RefCell::new(Hook::default());
}

/// How many frame and draw times the hook keeps.
const TIMES_KEPT: usize = 120;

/// The page's state as JSON: pictures shown, whether one is being drawn (always while the
/// clock runs with a graph that can be drawn, and while a link opened in the tab is not yet
/// read), the view shown (graph, seed as a string, frequency, ramp, its framing: pan, dims,
/// time, speed, paused and relief, the terrain's camera `[yaw, pitch, distance]` in the 3D
/// view, else null, and the iso view's `{camera, level}`, else null) and its share string,
/// the clock's time now, the picture's size, the editor's text, error and node at fault,
/// the last copied text and download, and the timings.
#[wasm_bindgen]
pub fn page_state() -> String {
    HOOK.with_borrow(|h| {
        json!({
            "frames": h.frames,
            "busy": h.busy || fragment() != h.fragment,
            "shown": h.shown.as_ref().map(|v| json!({
                "graph": v.graph,
                "seed": v.seed.to_string(),
                "frequency": v.frequency,
                "ramp": v.ramp,
                "pan": v.framing.pan,
                "dims": v.framing.dims,
                "time": v.framing.time,
                "speed": v.framing.speed,
                "paused": v.framing.paused,
                "relief": v.framing.relief,
                "terrain": v.scene.terrain().map(|c| [c.yaw, c.pitch, c.distance]),
                "iso": match v.scene {
                    Scene::Iso { camera: c, level } => json!({
                        "camera": [c.yaw, c.pitch, c.distance],
                        "level": level,
                    }),
                    Scene::Flat | Scene::Terrain(_) => Value::Null,
                },
            })),
            "clock": h.clock,
            "share": h.shown.as_ref().map(SharedView::encode),
            "size": [h.picture_size, h.picture_size],
            "range": [RANGE.0, RANGE.1],
            "text": h.text,
            "error": h.error,
            "fault": h.fault,
            "notice": h.notice,
            "copied": h.copied,
            "downloaded": h.downloaded,
            "start_ms": h.start_ms,
            "first_picture_ms": h.first_picture_ms,
            "frame_ms": h.frame_ms,
            "draw_ms": h.draw_ms,
            "terrain_ms": h.terrain_ms,
            "iso_ms": h.iso_ms,
            "extract_ms": h.extract_ms,
            "thumbnails": h.thumbnails,
            "readout": h.readout,
        })
        .to_string()
    })
}

/// The picture shown: RGBA rows, top first (`size` of [`page_state`]; empty before the
/// first).
#[wasm_bindgen]
pub fn picture() -> Vec<u8> {
    HOOK.with_borrow(|h| h.rgba.clone())
}

/// Node `name`'s thumbnail as shown: RGBA rows, top first (empty for none).
#[wasm_bindgen]
pub fn thumbnail(name: &str) -> Vec<u8> {
    HOOK.with_borrow(|h| {
        h.thumbnail_rgba
            .iter()
            .find(|(n, _)| n == name)
            .map_or_else(Vec::new, |(_, rgba)| rgba.clone())
    })
}

/// The named widgets' rectangles as JSON, `{name: [left, top, right, bottom]}` in CSS
/// pixels from the canvas's top left corner.
#[wasm_bindgen]
pub fn layout() -> String {
    HOOK.with_borrow(|h| {
        let widgets: serde_json::Map<String, Value> = h
            .widgets
            .iter()
            .map(|(name, r)| (name.clone(), json!([r.min.x, r.min.y, r.max.x, r.max.y])))
            .collect();
        Value::Object(widgets).to_string()
    })
}

/// Opens WebGPU, then runs the editor on the canvas `canvas_id`. The view comes from the
/// URL's fragment (a share link) when it holds one; one that cannot be read opens the first
/// preset with the link's error shown. Errors: no WebGPU adapter or device, or no such
/// canvas.
#[wasm_bindgen]
pub async fn start(canvas_id: String) -> Result<(), JsError> {
    HOOK.with_borrow_mut(|h| h.start_ms = now_ms());
    let gpu = Gpu::open().await.map_err(|e| JsError::new(&e))?;
    let window = web_sys::window().ok_or_else(|| JsError::new("no window"))?;
    // A link that cannot be read opens the first preset, saying why.
    let (view, link_error) = match fragment().map(|f| SharedView::decode(&f)) {
        Some(Ok(view)) => (view, None),
        Some(Err(why)) => (default_view(), Some(why)),
        None => (default_view(), None),
    };
    let canvas = window
        .document()
        .and_then(|d| d.get_element_by_id(&canvas_id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        .ok_or_else(|| JsError::new(&format!("no canvas #{canvas_id}")))?;
    let options = eframe::WebOptions {
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::WebRunner::new()
        .start(
            canvas,
            options,
            Box::new(move |cc| {
                let mut app = App::new(&cc.egui_ctx, gpu, view);
                app.notice = link_error.map(|why| format!("the link: {why}"));
                Ok(Box::new(app))
            }),
        )
        .await
        .map_err(|e| JsError::new(&format!("the editor did not start: {e:?}")))
}

/// Milliseconds since the page's navigation (`performance.now()`).
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The WebGPU side: the device, the library's generator and the texture it fills.
struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    noise: GpuNoise,
    target: wgpu::Texture,
}

impl Gpu {
    /// Records and submits the fill of `program` with `seed` over `field` (the size of
    /// `target`, the picture's texture when none), and its copy into a buffer to map; the
    /// record's error when the graph cannot be filled.
    fn fill_and_read(
        &mut self,
        program: &Program,
        seed: u64,
        field: &Field,
        target: Option<&wgpu::Texture>,
    ) -> Result<wgpu::Buffer, String> {
        let target = target.unwrap_or(&self.target);
        if self.noise.lookup().seed() != seed {
            self.noise.set_seed(seed);
        }
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("fill and copy"),
            });
        let fill = TextureFill {
            program,
            field,
            output: FieldOutput::Value,
            texture: target,
        };
        self.noise
            .record(&mut encoder, &fill)
            .map_err(|e| e.to_string())?;
        let buffer = copy_to_readback(&self.device, &mut encoder, target, "values readback");
        self.queue.submit([encoder.finish()]);
        Ok(buffer)
    }

    /// Submits `job`'s sub-graph's fill of its region at [`TIMED_SIZE`]² between `clock`'s
    /// timestamps (after the thumbnail's fill, whose pipeline it reuses) and maps them;
    /// `None` when the fill cannot be recorded.
    fn time_fill(
        &self,
        ctx: &egui::Context,
        program: &Program,
        job: &Job,
        clock: &PageClock,
    ) -> Option<PendingTiming> {
        let field = job.key.field_at(TIMED_SIZE);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("node cost"),
            });
        clock.timer.begin(&mut encoder);
        let fill = TextureFill {
            program,
            field: &field,
            output: FieldOutput::Value,
            texture: &clock.timed,
        };
        self.noise.record(&mut encoder, &fill).ok()?;
        clock.timer.end(&mut encoder);
        let submitted_ms = now_ms();
        self.queue.submit([encoder.finish()]);
        let mapped = Rc::new(Cell::new(None));
        let done = mapped.clone();
        let repaint = ctx.clone();
        clock
            .timer
            .readback()
            .map_async(wgpu::MapMode::Read, .., move |r| {
                done.set(Some((r, now_ms())));
                repaint.request_repaint();
            });
        Some(PendingTiming {
            submitted_ms,
            mapped,
        })
    }

    async fn open() -> Result<Gpu, String> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::BROWSER_WEBGPU,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions::default())
            .await
            .map_err(|e| format!("no WebGPU adapter: {e}"))?;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("wgpu-noise page"),
                // The node costs' clock, where the browser offers it.
                required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
                ..Default::default()
            })
            .await
            .map_err(|e| format!("no WebGPU device: {e}"))?;
        // What the browser's validation catches is a console error, which the page's test
        // fails on.
        device.on_uncaptured_error(Arc::new(|e: wgpu::Error| {
            web_sys::console::error_1(&format!("WebGPU error: {e}").into());
        }));
        let noise = GpuNoise::new(&device, &queue, 0).map_err(|e| e.to_string())?;
        let target = values_texture(&device, SIZE, "noise values");
        Ok(Gpu {
            device,
            queue,
            noise,
            target,
        })
    }
}

/// A draw on its way back: the buffer the values (the 3D views' pixels, the iso view's
/// cube) are copied into, whether its map is done, the view it draws and when it was
/// submitted.
struct Pending {
    buffer: wgpu::Buffer,
    mapped: Rc<Cell<Option<Result<(), wgpu::BufferAsyncError>>>>,
    view: SharedView,
    submitted_ms: f64,
    /// The iso view's cube (its values and gradients), not a picture.
    cube: bool,
}

/// The picture shown and the view it is of.
struct Shown {
    view: SharedView,
    texture: egui::TextureHandle,
}

struct App {
    gpu: Gpu,
    editor: Editor,
    /// The view's settings (the editor holds the graph).
    seed: u64,
    frequency: f64,
    ramp: ColourRamp,
    dimensions: Dimensions,
    /// The 3D view's camera (kept while the 2D view is shown).
    camera: Orbit,
    /// The iso view's level.
    level: f64,
    /// The views' framing: the pan (dragging the 2D picture moves it), the graph's
    /// dimensions (the iso view's graph is 3D; they choose its animated axis), the clock
    /// and the relief.
    framing: Framing,
    /// The wall time (`performance.now()`, ms) the clock last advanced at; `None` while it
    /// is stopped.
    clock_ms: Option<f64>,
    /// When the page's address was last rewritten ([`FRAGMENT_INTERVAL_MS`]).
    fragment_ms: f64,
    /// The 3D view's GPU side, made when it is first drawn.
    terrain: Option<TerrainRenderer>,
    /// The iso view's, likewise.
    iso: Option<IsoRenderer>,
    /// When the iso view's draw under way started (its cube's fill, when it needs one).
    iso_started_ms: Option<f64>,
    pending: Option<Pending>,
    /// The view changed while a draw was under way: draw again when it is back.
    redraw: bool,
    shown: Option<Shown>,
    /// What the last button did, or why it failed.
    notice: Option<String>,
    /// The URL's fragment as the page last wrote or read it: another one is a link opened in
    /// this tab (read on `hashchange`).
    fragment: Option<String>,
    thumbnails: PageThumbnails,
    /// The CPU side of the readout, for the view shown.
    probing: Option<Probing>,
}

/// The readout's sampler of the view shown (2D; 3D for the iso view), the range drawn, and
/// the texels' spacing and the terrain's mesh ([`flat_placement`]).
struct Probing {
    view: SharedView,
    sampler: Sampler,
    range: (f32, f32),
    step: [f32; 2],
    placement: Placement,
}

impl App {
    fn new(ctx: &egui::Context, gpu: Gpu, view: SharedView) -> App {
        let thumbnails = PageThumbnails::new(&gpu.device, &gpu.queue, gpu_clock_asked());
        let framing = view.framing;
        let mut editor = Editor::new(view.graph);
        editor.nodes_shown = true;
        let mut app = App {
            gpu,
            editor,
            seed: view.seed,
            frequency: view.frequency,
            // `SharedView::decode` checked the name.
            ramp: ColourRamp::from_name(&view.ramp).unwrap_or(ColourRamp::ALL[0]),
            dimensions: Dimensions::of(&view.scene),
            camera: view.scene.camera().unwrap_or_default(),
            level: level_of(&view.scene),
            framing,
            clock_ms: None,
            fragment_ms: f64::NEG_INFINITY,
            terrain: None,
            iso: None,
            iso_started_ms: None,
            pending: None,
            redraw: false,
            shown: None,
            notice: None,
            fragment: fragment(),
            thumbnails,
            probing: None,
        };
        repaint_on_hashchange(ctx);
        app.draw(ctx);
        app
    }

    /// A share link opened in this tab (the address bar's fragment edited): its view drawn,
    /// or the link's error shown and the view kept.
    fn follow_fragment(&mut self, ctx: &egui::Context) {
        let now = fragment();
        if now.is_none() || now == self.fragment {
            return;
        }
        self.fragment = now.clone();
        match now.map(|f| SharedView::decode(&f)) {
            Some(Ok(view)) => {
                self.editor.set_text(view.graph.clone());
                self.seed = view.seed;
                self.frequency = view.frequency;
                // `SharedView::decode` checked the name.
                self.ramp = ColourRamp::from_name(&view.ramp).unwrap_or(self.ramp);
                self.dimensions = Dimensions::of(&view.scene);
                self.camera = view.scene.camera().unwrap_or(self.camera);
                self.framing = view.framing;
                self.clock_ms = None;
                if let Scene::Iso { level, .. } = view.scene {
                    self.level = level;
                }
                self.notice = None;
                self.draw(ctx);
            }
            Some(Err(why)) => self.notice = Some(format!("the link: {why}")),
            None => {}
        }
    }

    /// The view the editor and the settings describe now, with the page's framing.
    fn view(&self) -> SharedView {
        let scene = match self.dimensions {
            Dimensions::Flat => Scene::Flat,
            Dimensions::Terrain => Scene::Terrain(self.camera),
            Dimensions::Iso => Scene::Iso {
                camera: self.camera,
                level: self.level,
            },
        };
        SharedView {
            graph: self.editor.text.clone(),
            seed: self.seed,
            frequency: self.frequency,
            ramp: self.ramp.name().to_string(),
            framing: self.framing,
            scene,
        }
    }

    /// Makes the page's address `view`'s share link.
    fn write_fragment(&mut self, view: &SharedView) {
        let shared = view.encode();
        set_fragment(&shared);
        self.fragment = Some(shared);
    }

    /// Whether the clock runs.
    fn clock_running(&self) -> bool {
        !self.framing.paused
    }

    /// While the clock runs and no draw is under way (the last is back): advances the clock
    /// by the wall time since it last did and draws the view at the new time. One draw at a
    /// time, so the pictures come as fast as the device draws them: a draw's readback asks
    /// for the next frame, and a frame that started none asks for one [`CLOCK_FRAME`] on.
    fn tick(&mut self, ctx: &egui::Context) {
        if !self.clock_running() {
            self.clock_ms = None;
            return;
        }
        let now = now_ms();
        let then = *self.clock_ms.get_or_insert(now);
        if self.pending.is_some() || self.redraw {
            return;
        }
        self.framing.time += (now - then) / 1e3;
        self.clock_ms = Some(now);
        self.draw(ctx);
        if self.pending.is_none() && !self.redraw {
            ctx.request_repaint_after(CLOCK_FRAME);
        }
    }

    /// Starts drawing the current view, or marks the node at fault and keeps the picture
    /// when the graph cannot be drawn. One draw at a time: a change during one is drawn
    /// when it is back.
    fn draw(&mut self, ctx: &egui::Context) {
        let view = self.view();
        // Checked before waiting for the draw under way, so a broken edit is marked in the
        // frame it is made, not when that draw is back.
        let program = match program_of(&view) {
            Ok(program) => program,
            Err(e) => {
                self.iso_started_ms = None;
                self.editor.set_error(Some(&e));
                return;
            }
        };
        if self.pending.is_some() {
            self.redraw = true;
            return;
        }
        self.redraw = false;
        if let Scene::Iso { camera, level } = view.scene {
            return self.draw_iso(ctx, view, &program, &camera, level);
        }
        self.iso_started_ms = None;
        if let Some(camera) = view.scene.terrain() {
            return self.draw_terrain(ctx, view, &program, &camera);
        }
        let field = flat_field(&view.framing, view.frequency);
        let filled = self.gpu.fill_and_read(&program, view.seed, &field, None);
        let buffer = match filled {
            Ok(buffer) => buffer,
            Err(e) => {
                self.editor.error = Some(e);
                self.editor.fault = None;
                return;
            }
        };
        self.editor.set_error(None);
        self.read_back(ctx, buffer, view);
    }

    /// Starts drawing `view`'s terrain of `program` seen from `camera` (the 3D view).
    fn draw_terrain(
        &mut self,
        ctx: &egui::Context,
        view: SharedView,
        program: &Program,
        camera: &Orbit,
    ) {
        let gpu = &self.gpu;
        let renderer = match self.terrain.take() {
            Some(renderer) => Ok(renderer),
            None => TerrainRenderer::new(&gpu.device, &gpu.queue, view.seed),
        };
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("terrain and copy"),
            });
        let (_, placement) = flat_placement(program, view.frequency, &view.framing);
        let request = TerrainRequest {
            program,
            seed: view.seed,
            placement: &placement,
            ramp: self.ramp,
            range: RANGE,
            camera,
        };
        let buffer = renderer.map(|mut renderer| {
            let buffer = renderer.record(&gpu.device, &gpu.queue, &mut encoder, &request);
            self.terrain = Some(renderer);
            buffer
        });
        match buffer {
            Ok(buffer) => {
                self.editor.set_error(None);
                gpu.queue.submit([encoder.finish()]);
                self.read_back(ctx, buffer, view);
            }
            Err(e) => {
                self.editor.error = Some(e);
                self.editor.fault = None;
            }
        }
    }

    /// Starts drawing `view`'s iso-surface at `level` seen from `camera`: its cube's fill
    /// on the GPU when the graph, the seed or the frequency changed (then drawn when it is
    /// back, [`App::receive`]), else the surface (extracted again at a new level).
    fn draw_iso(
        &mut self,
        ctx: &egui::Context,
        view: SharedView,
        program: &Program,
        camera: &Orbit,
        level: f64,
    ) {
        let gpu = &mut self.gpu;
        let renderer = self
            .iso
            .get_or_insert_with(|| IsoRenderer::new(&gpu.device));
        let key = FillKey::of(&view);
        let cube = cube_of(&view);
        self.iso_started_ms.get_or_insert_with(now_ms);
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("iso and copy"),
            });
        if !renderer.has_samples(&key) {
            if gpu.noise.lookup().seed() != view.seed {
                gpu.noise.set_seed(view.seed);
            }
            let filled =
                renderer.record_fill(&gpu.device, &gpu.noise, &mut encoder, program, &cube);
            return match filled {
                Ok(buffer) => {
                    self.editor.set_error(None);
                    gpu.queue.submit([encoder.finish()]);
                    self.map_back(ctx, buffer, view, true);
                }
                Err(e) => {
                    self.iso_started_ms = None;
                    self.editor.error = Some(format!("the iso view: {e}"));
                    self.editor.fault = None;
                }
            };
        }
        match renderer.extract(&gpu.device, &key, &cube, level, now_ms) {
            Ok(Some(ms)) => HOOK.with_borrow_mut(|h| keep_last(&mut h.extract_ms, ms)),
            Ok(None) => {}
            Err(e) => {
                self.iso_started_ms = None;
                self.editor.error = Some(format!("the iso view: {e}"));
                self.editor.fault = None;
                return;
            }
        }
        self.editor.set_error(None);
        let buffer = renderer.record_draw(&gpu.device, &gpu.queue, &mut encoder, camera, self.ramp);
        gpu.queue.submit([encoder.finish()]);
        self.read_back(ctx, buffer, view);
    }

    /// Maps `buffer`, the picture of `view` on its way back; [`App::receive`] shows it.
    fn read_back(&mut self, ctx: &egui::Context, buffer: wgpu::Buffer, view: SharedView) {
        self.map_back(ctx, buffer, view, false);
    }

    /// Maps `buffer`, the picture of `view` (or its iso cube) on its way back.
    fn map_back(
        &mut self,
        ctx: &egui::Context,
        buffer: wgpu::Buffer,
        view: SharedView,
        cube: bool,
    ) {
        let mapped = Rc::new(Cell::new(None));
        let done = mapped.clone();
        let repaint = ctx.clone();
        buffer.map_async(wgpu::MapMode::Read, .., move |r| {
            done.set(Some(r));
            repaint.request_repaint();
        });
        self.pending = Some(Pending {
            buffer,
            mapped,
            view,
            submitted_ms: now_ms(),
            cube,
        });
    }

    /// Shows a draw that is back: its values coloured into the picture.
    fn receive(&mut self, ctx: &egui::Context) {
        let Some(pending) = &self.pending else { return };
        let Some(mapped) = pending.mapped.take() else {
            return;
        };
        let pending = self.pending.take().expect("a draw under way");
        if pending.cube {
            return self.receive_cube(ctx, pending, mapped);
        }
        let mut values = Vec::with_capacity((SIZE * SIZE) as usize);
        let mut rgba = Vec::new();
        let read = mapped.map_err(|e| e.to_string()).and_then(|()| {
            let bytes = pending
                .buffer
                .slice(..)
                .get_mapped_range()
                .map_err(|e| e.to_string())?;
            if pending.view.scene.camera().is_some() {
                rgba = terrain::unpad_rgba(&bytes);
            } else {
                unpad_rows(
                    &bytes,
                    SIZE,
                    SIZE as usize,
                    padded_row_bytes(SIZE),
                    &mut values,
                );
            }
            Ok(())
        });
        if let Err(e) = read {
            self.editor.error = Some(format!("the picture's readback failed: {e}"));
        } else {
            pending.buffer.unmap();
            let ramp = ColourRamp::from_name(&pending.view.ramp).unwrap_or(self.ramp);
            // The 3D view's pixels are drawn shaded; the 2D view's values are coloured here.
            let (size, options) = match pending.view.scene.camera() {
                // Twice the points' size: linear filtering averages it down.
                Some(_) => (TERRAIN_SIZE, egui::TextureOptions::LINEAR),
                None => {
                    rgba = colour(&values, ramp);
                    (SIZE, egui::TextureOptions::NEAREST)
                }
            };
            let image =
                egui::ColorImage::from_rgba_unmultiplied([size as usize, size as usize], &rgba);
            match &mut self.shown {
                Some(shown) => shown.texture.set(image, options),
                None => {
                    self.shown = Some(Shown {
                        view: pending.view.clone(),
                        texture: ctx.load_texture("noise", image, options),
                    })
                }
            }
            if let Some(shown) = &mut self.shown {
                shown.view = pending.view.clone();
            }
            let now = now_ms();
            let running = !pending.view.framing.paused;
            if !running || now - self.fragment_ms >= FRAGMENT_INTERVAL_MS {
                self.write_fragment(&pending.view);
                self.fragment_ms = now;
            }
            HOOK.with_borrow_mut(|h| {
                h.frames += 1;
                h.first_picture_ms.get_or_insert(now);
                match pending.view.scene {
                    Scene::Flat => keep_last(&mut h.draw_ms, now - pending.submitted_ms),
                    Scene::Terrain(_) => keep_last(&mut h.terrain_ms, now - pending.submitted_ms),
                    Scene::Iso { .. } => {
                        let started = self.iso_started_ms.take().unwrap_or(pending.submitted_ms);
                        keep_last(&mut h.iso_ms, now - started);
                    }
                }
                h.shown = Some(pending.view.clone());
                h.rgba = rgba;
                h.picture_size = size;
                h.values = values;
            });
        }
        if self.redraw {
            self.draw(ctx);
        }
    }

    /// Keeps the iso cube that is back and draws the view (its surface, or a newer fill
    /// when the view changed meanwhile).
    fn receive_cube(
        &mut self,
        ctx: &egui::Context,
        pending: Pending,
        mapped: Result<(), wgpu::BufferAsyncError>,
    ) {
        let read = mapped.map_err(|e| e.to_string()).and_then(|()| {
            let bytes = pending
                .buffer
                .slice(..)
                .get_mapped_range()
                .map_err(|e| e.to_string())?;
            if let Some(renderer) = &mut self.iso {
                renderer.receive_samples(FillKey::of(&pending.view), &bytes);
            }
            Ok(())
        });
        match read {
            Ok(()) => {
                pending.buffer.unmap();
                self.draw(ctx);
            }
            Err(e) => {
                self.iso_started_ms = None;
                self.editor.error = Some(format!("the iso cube's readback failed: {e}"));
                if self.redraw {
                    self.draw(ctx);
                }
            }
        }
    }

    /// The readout of the picture shown: the graph's value and gradient at the point under
    /// the cursor (the 2D picture's texel, or where the cursor's ray meets the terrain) and
    /// the range drawn (the 2D picture's values; the terrain's grid on the CPU), as the
    /// desktop preview's panel shows them. `None` before the first picture.
    fn readout(&mut self, picture: &egui::Response) -> Option<Readout> {
        let view = &self.shown.as_ref()?.view;
        if self.probing.as_ref().map(|p| &p.view) != Some(view) {
            let graph = Graph::from_json(&view.graph).ok()?;
            let mut sampler = graph.sampler(graph_dims(view), view.seed).ok()?;
            let program = program_of(view).ok()?;
            let (step, placement) = flat_placement(&program, view.frequency, &view.framing);
            let range = match view.scene {
                Scene::Terrain(_) => readout::range(&mut sampler, &placement),
                // The cube's values, as filled on the GPU.
                Scene::Iso { .. } => self.iso.as_ref()?.range(&FillKey::of(view))?,
                Scene::Flat => HOOK.with_borrow(|h| {
                    h.values
                        .iter()
                        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| {
                            (lo.min(v), hi.max(v))
                        })
                }),
            };
            self.probing = Some(Probing {
                view: view.clone(),
                sampler,
                range,
                step,
                placement,
            });
        }
        let probing = self.probing.as_mut()?;
        let (step, placement) = (probing.step, probing.placement);
        let cursor = picture.hover_pos().map(|p| {
            let d = p - picture.rect.min;
            [f64::from(d.x), f64::from(d.y)]
        });
        let size = [SIZE; 2];
        let point = cursor.and_then(|c| match probing.view.scene {
            Scene::Terrain(camera) => {
                readout::terrain_point(&mut probing.sampler, &placement, &camera, size, c)
            }
            Scene::Iso { camera, level } => {
                let surface = readout::IsoSurfaceAt {
                    cube: cube_of(&probing.view),
                    level: level as f32,
                };
                readout::iso_point(&mut probing.sampler, &surface, &camera, size, c)
            }
            Scene::Flat => readout::flat_point(&placement, step, size, c),
        });
        Some(Readout {
            cursor,
            probe: point.map(|p| readout::probe(&mut probing.sampler, p)),
            range: probing.range,
        })
    }

    /// Puts `text` on the clipboard (and in the hook, for the test).
    fn copy(&mut self, ctx: &egui::Context, what: &str, text: String) {
        ctx.copy_text(text.clone());
        HOOK.with_borrow_mut(|h| h.copied = Some(text));
        self.notice = Some(format!("copied the {what}"));
    }

    /// The left panel: the picture, the view's settings, the buttons, the JSON text.
    fn controls(&mut self, ui: &mut egui::Ui, named: &mut Vec<(String, egui::Rect)>) {
        let ctx = ui.ctx().clone();
        ui.heading("wgpu-noise");
        let points = egui::vec2(SIZE as f32, SIZE as f32);
        let sense = egui::Sense::drag();
        let picture = match &self.shown {
            Some(shown) => ui.add(egui::Image::new((shown.texture.id(), points)).sense(sense)),
            None => ui.allocate_exact_size(points, sense).1,
        };
        named.push(("picture".to_string(), picture.rect));
        if let Some(readout) = self.readout(&picture) {
            let dims = self.shown.as_ref().map_or(2, |s| graph_dims(&s.view));
            let lines = ui.label(egui::RichText::new(readout.lines(dims)).monospace().small());
            named.push(("readout".to_string(), lines.rect));
            HOOK.with_borrow_mut(|h| h.readout = readout.json());
        }
        let mut changed = terrain::dimensions_choice(ui, &mut self.dimensions, named);
        if self.dimensions == Dimensions::Flat {
            changed |= pan_input(&picture, self.frequency, &mut self.framing.pan);
        } else {
            changed |= terrain::orbit_input(ui, &picture, points.y, &mut self.camera);
        }
        if self.dimensions == Dimensions::Iso {
            ui.horizontal(|ui| {
                ui.label("level");
                let (low, high) = LEVEL_RANGE;
                let level = ui.add(egui::Slider::new(&mut self.level, low..=high));
                named.push(("level".to_string(), level.rect));
                changed |= level.changed();
            });
        }
        ui.horizontal(|ui| {
            changed |= presets_menu(ui, &mut self.editor, named);
            ui.label("seed");
            let seed = ui.add(egui::DragValue::new(&mut self.seed).speed(0.2));
            named.push(("seed".to_string(), seed.rect));
            changed |= seed.changed();
        });
        ui.horizontal(|ui| {
            ui.label("frequency");
            let frequency = ui.add(
                egui::DragValue::new(&mut self.frequency)
                    .range(0.0625..=1024.0)
                    .speed(0.05),
            );
            named.push(("frequency".to_string(), frequency.rect));
            changed |= frequency.changed();
            let mut ramp = self.ramp;
            let combo = egui::ComboBox::from_id_salt("ramp")
                .selected_text(ramp.name())
                .show_ui(ui, |ui| {
                    for r in ColourRamp::ALL {
                        let option = ui.selectable_value(&mut ramp, r, r.name());
                        named.push((format!("ramp.{}", r.name()), option.rect));
                    }
                });
            named.push(("ramp".to_string(), combo.response.rect));
            if ramp != self.ramp {
                self.ramp = ramp;
                changed = true;
            }
        });
        if self.dimensions != Dimensions::Iso {
            changed |= framing_controls(ui, &mut self.framing, self.dimensions, named);
        }
        ui.horizontal_wrapped(|ui| {
            let mut button = |ui: &mut egui::Ui, name: &str, text: &str| {
                let r = ui.button(text);
                named.push((name.to_string(), r.rect));
                r.clicked()
            };
            if button(ui, "copy_share", "copy share link") {
                // While the clock runs the address lags the picture (`FRAGMENT_INTERVAL_MS`).
                if let Some(view) = self.shown.as_ref().map(|s| s.view.clone()) {
                    self.write_fragment(&view);
                }
                let url = web_sys::window()
                    .and_then(|w| w.location().href().ok())
                    .unwrap_or_default();
                self.copy(&ctx, "share link", url);
            }
            if button(ui, "copy_json", "copy JSON") {
                self.copy(&ctx, "graph's JSON", self.editor.text.clone());
            }
            if button(ui, "copy_bake", "copy bake command") {
                if let Some(shown) = &self.shown {
                    let command = shown.view.bake_command(SIZE, SIZE);
                    self.copy(&ctx, "bake command (save the JSON as graph.json)", command);
                }
            }
            if button(ui, "download_png", "download PNG") {
                self.notice = Some(match download_png() {
                    Ok(()) => "downloaded wgpu-noise.png".to_string(),
                    Err(e) => format!("PNG: {e}"),
                });
            }
            for file in ValuesFile::ALL {
                let name = format!("download_{}", file.extension());
                if button(ui, &name, &format!("download {}", file.label())) {
                    self.notice = Some(match download_values(file) {
                        Ok(name) => format!("downloaded {name}"),
                        Err(e) => format!("{}: {e}", file.label()),
                    });
                }
            }
        });
        if let Some(notice) = &self.notice {
            ui.label(egui::RichText::new(notice).small());
        }
        ui.separator();
        ui.label("graph (JSON, docs/graphs.md)");
        // Room below the text for the error line.
        let row = ui.text_style_height(&egui::TextStyle::Monospace);
        let (text, text_box) =
            self.editor
                .show_text(ui, "graph text", ui.available_height() - 4.0 * row);
        named.push(("graph_text".to_string(), text_box));
        if text.changed() {
            self.editor.text_edited();
            changed = true;
        }
        // Below the text, as in the desktop panel: a line appearing above it would move the
        // box as it is typed in.
        if let Some(error) = &self.editor.error {
            let r = ui.colored_label(egui::Color32::RED, format!("error: {error}"));
            named.push(("graph_error".to_string(), r.rect));
        }
        if changed {
            self.draw(&ctx);
        }
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        // The previous frame's, whole.
        let frame_ms = frame.info().cpu_usage.map(|s| f64::from(s) * 1e3);
        let ctx = ui.ctx().clone();
        self.follow_fragment(&ctx);
        self.receive(&ctx);
        self.fill_thumbnails(&ctx);
        let mut named = Vec::new();
        egui::Panel::left("controls")
            .resizable(false)
            .exact_size(PANEL_WIDTH)
            .show(ui, |ui| self.controls(ui, &mut named));
        let nodes = egui::CentralPanel::default().show(ui, |ui| {
            let editor = &mut self.editor;
            editor.show_nodes(ui, &mut named)
        });
        if nodes.inner {
            self.draw(&ctx);
        }
        self.tick(&ctx);
        let running = self.clock_running() && self.editor.error.is_none();
        let busy = running || self.pending.is_some() || self.redraw || self.thumbnails.busy();
        HOOK.with_borrow_mut(|h| {
            h.busy = busy;
            h.clock = self.framing.time;
            h.fragment = self.fragment.clone();
            h.thumbnails = self.editor.thumbnails.json(self.editor.model.graph());
            h.thumbnail_rgba.clear();
            for node in &self.editor.model.graph().nodes {
                if let Some(t) = self.editor.thumbnails.get(&node.name) {
                    h.thumbnail_rgba.push((node.name.clone(), t.rgba.clone()));
                }
            }
            h.text = self.editor.text.clone();
            h.error = self.editor.error.clone();
            h.fault = self.editor.fault.clone();
            h.notice = self.notice.clone();
            h.widgets = named;
            if let Some(ms) = frame_ms {
                keep_last(&mut h.frame_ms, ms);
            }
        });
    }
}

/// The node view's thumbnails on the page's WebGPU device: one sub-graph at a time is
/// filled at the thumbnail's size by the library's GPU fill and read back as the picture
/// is, and timed with the GPU's timestamps where the device has them and is not the CPU
/// (as the desktop preview's), else on the CPU.
struct PageThumbnails {
    target: wgpu::Texture,
    /// The GPU's clock, or why the costs are not from it.
    clock: Result<PageClock, NoTimestamps>,
    /// Sub-graphs asked for and not started.
    waiting: Vec<Job>,
    /// The one on its way back.
    pending: Option<PendingThumbnail>,
}

/// Timestamps around a sub-graph's fill of its region at [`TIMED_SIZE`]² (a thumbnail's
/// 64² fill is too short for the GPU's clock to tell it from its start-up).
struct PageClock {
    timer: GpuTimer,
    timed: wgpu::Texture,
}

/// A thumbnail's fill on its way back.
struct PendingThumbnail {
    job: Job,
    program: Program,
    buffer: wgpu::Buffer,
    mapped: Rc<Cell<Option<Result<(), wgpu::BufferAsyncError>>>>,
    /// Its timed fill's timestamps, when timed on the GPU.
    timing: Option<PendingTiming>,
}

/// A timed fill on its way back: when it was submitted and, once its timestamps are
/// mapped, when that was found done (`performance.now()`, ms).
struct PendingTiming {
    submitted_ms: f64,
    mapped: Rc<Cell<Option<MapDone>>>,
}

/// A map's result, and when its callback ran (`performance.now()`, ms).
type MapDone = (Result<(), wgpu::BufferAsyncError>, f64);

impl PendingThumbnail {
    /// Whether its values, and its timestamps when timed on the GPU, are back.
    fn back(&self) -> bool {
        is_set(&self.mapped) && self.timing.as_ref().is_none_or(|t| is_set(&t.mapped))
    }
}

/// Whether a map's callback has set `cell`.
fn is_set<T>(cell: &Cell<Option<T>>) -> bool {
    let v = cell.take();
    let set = v.is_some();
    cell.set(v);
    set
}

/// Whether the page's address asks for the GPU's clock on any adapter (`?clock=gpu`), the
/// CPU's (SwiftShader's) too.
fn gpu_clock_asked() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| {
            q.trim_start_matches('?')
                .split('&')
                .any(|p| p == "clock=gpu")
        })
}

impl PageThumbnails {
    /// The thumbnails' texture and clock on `device`; `gpu_clock_asked`: the GPU's clock
    /// on a CPU adapter too.
    fn new(device: &wgpu::Device, queue: &wgpu::Queue, gpu_clock_asked: bool) -> PageThumbnails {
        let target = values_texture(device, THUMBNAIL_SIZE, "thumbnail values");
        let cpu_adapter = device.adapter_info().device_type == wgpu::DeviceType::Cpu;
        let timer = GpuTimer::new(device, queue, "node cost");
        let clock = match NoTimestamps::of_device(timer.is_some(), cpu_adapter && !gpu_clock_asked)
        {
            Some(why) => Err(why),
            None => Ok(PageClock {
                timer: timer.expect("a device with timestamp queries"),
                timed: values_texture(device, TIMED_SIZE, "node cost values"),
            }),
        };
        PageThumbnails {
            target,
            clock,
            waiting: Vec::new(),
            pending: None,
        }
    }

    fn busy(&self) -> bool {
        self.pending.is_some() || !self.waiting.is_empty()
    }

    /// What `pending`'s sub-graph costs by the GPU's clock, or why not (then it is timed on
    /// the CPU). Its timestamps, when there are any, are read and unmapped either way.
    fn gpu_cost(&self, pending: &PendingThumbnail) -> Result<Cost, NoTimestamps> {
        let clock = self.clock.as_ref().map_err(|why| *why)?;
        // None: the timed fill could not be recorded where the thumbnail's could.
        let timing = pending.timing.as_ref().ok_or(NoTimestamps::Implausible)?;
        Self::timed_cost(clock, timing).ok_or(NoTimestamps::Implausible)
    }

    /// The cost per sample from a timed fill's timestamps, if they are plausible.
    fn timed_cost(clock: &PageClock, timing: &PendingTiming) -> Option<Cost> {
        let (mapped, done_ms) = timing.mapped.take()?;
        mapped.ok()?;
        let readback = clock.timer.readback();
        let device = readback
            .slice(..)
            .get_mapped_range()
            .ok()
            .and_then(|bytes| clock.timer.elapsed(&bytes));
        readback.unmap();
        let device = device?;
        let wall =
            std::time::Duration::from_secs_f64((done_ms - timing.submitted_ms).max(0.0) * 1e-3);
        // Not checked as a CPU adapter's (not much shorter than the page's wait): the clock
        // runs on a GPU, or on a CPU adapter where the address asks for it.
        plausible(device, wall, false).then(|| Cost {
            ns_per_sample: device.as_secs_f64() * 1e9 / f64::from(TIMED_SIZE * TIMED_SIZE),
            clock: Clock::GpuTimestamps,
        })
    }
}

impl App {
    /// The node view's thumbnails: a fill that is back is shown on its node with its cost,
    /// the sub-graphs of nodes whose thumbnail is of another graph or view are asked for,
    /// and the next one is started while the picture is not being drawn.
    fn fill_thumbnails(&mut self, ctx: &egui::Context) {
        let back = self.thumbnails.pending.as_ref().is_some_and(|p| p.back());
        if back {
            let pending = self
                .thumbnails
                .pending
                .take()
                .expect("a thumbnail under way");
            let mapped = pending.mapped.take().expect("its values mapped");
            let side = THUMBNAIL_SIZE;
            let values = mapped.map_err(|e| e.to_string()).and_then(|()| {
                let bytes = pending
                    .buffer
                    .slice(..)
                    .get_mapped_range()
                    .map_err(|e| e.to_string())?;
                let mut values = Vec::with_capacity((side * side) as usize);
                unpad_rows(
                    &bytes,
                    side,
                    side as usize,
                    padded_row_bytes(side),
                    &mut values,
                );
                Ok(values)
            });
            pending.buffer.unmap();
            let timed = self.thumbnails.gpu_cost(&pending);
            let cost = values.is_ok().then(|| {
                pending.job.cost.unwrap_or_else(|| {
                    timed.unwrap_or_else(|why| {
                        cpu_cost(&pending.program, &pending.job.key, why, now_ms)
                    })
                })
            });
            let filled = Filled { values, cost };
            self.editor.thumbnails.receive(ctx, pending.job, filled);
            ctx.request_repaint();
        }
        let graph = self.editor.model.graph();
        // Of the main view's region: its pan, dimensions and the clock's slice (the iso
        // view's, a slice through its cube's first point).
        let framing = self.view().framing;
        let view = ThumbnailView {
            seed: self.seed,
            frequency: self.frequency,
            origin: framing.origin(),
            dims: framing.dims,
        };
        let jobs = self.editor.thumbnails.wanted(ctx, graph, view, self.ramp);
        self.thumbnails.waiting.extend(jobs);
        if self.thumbnails.pending.is_none() && self.pending.is_none() && !self.redraw {
            self.start_thumbnail(ctx);
        }
    }

    /// Starts the next waiting sub-graph's fill (one superseded by a newer one of its node
    /// is dropped; one that cannot be drawn is shown as its error at once).
    fn start_thumbnail(&mut self, ctx: &egui::Context) {
        while !self.thumbnails.waiting.is_empty() {
            let job = self.thumbnails.waiting.remove(0);
            if self.thumbnails.waiting.iter().any(|j| j.node == job.node) {
                self.editor.thumbnails.forget(&job);
                continue;
            }
            let program = match job.key.program() {
                Ok(program) => program,
                Err(e) => {
                    let filled = Filled {
                        values: Err(e.to_string()),
                        cost: None,
                    };
                    self.editor.thumbnails.receive(ctx, job, filled);
                    continue;
                }
            };
            let target = Some(&self.thumbnails.target);
            let field = job.key.field();
            let filled = self
                .gpu
                .fill_and_read(&program, job.key.view.seed, &field, target);
            let buffer = match filled {
                Ok(buffer) => buffer,
                Err(e) => {
                    let filled = Filled {
                        values: Err(e),
                        cost: None,
                    };
                    self.editor.thumbnails.receive(ctx, job, filled);
                    continue;
                }
            };
            let mapped = Rc::new(Cell::new(None));
            let done = mapped.clone();
            let repaint = ctx.clone();
            buffer.map_async(wgpu::MapMode::Read, .., move |r| {
                done.set(Some(r));
                repaint.request_repaint();
            });
            let timing = match &self.thumbnails.clock {
                Ok(clock) if job.cost.is_none() => self.gpu.time_fill(ctx, &program, &job, clock),
                _ => None,
            };
            self.thumbnails.pending = Some(PendingThumbnail {
                job,
                program,
                buffer,
                mapped,
                timing,
            });
            return;
        }
    }
}

/// A `side`² texture of values for a fill: storage, as the hand-written fill stores to
/// it; copied into, as a graph's own pipeline's buffers are; copied out, for the readback.
fn values_texture(device: &wgpu::Device, side: u32, label: &str) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: side,
            height: side,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FieldOutput::Value.texture_format(),
        usage: wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// A buffer to map, with `texture` (4-byte texels) copied into it by `encoder`, its rows
/// padded to [`padded_row_bytes`].
fn copy_to_readback(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    label: &str,
) -> wgpu::Buffer {
    let padded = padded_row_bytes(texture.width());
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: u64::from(padded) * u64::from(texture.height()),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: None,
            },
        },
        texture.size(),
    );
    buffer
}

/// Keeps the last [`TIMES_KEPT`] times.
fn keep_last(times: &mut Vec<f64>, ms: f64) {
    if times.len() == TIMES_KEPT {
        times.remove(0);
    }
    times.push(ms);
}

/// The URL's fragment without its `#`, when it holds one.
fn fragment() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    Some(hash.strip_prefix('#').unwrap_or(&hash).to_string()).filter(|f| !f.is_empty())
}

/// The view a page opens without a link: the first preset.
fn default_view() -> SharedView {
    SharedView {
        graph: PRESETS[0].1.to_string(),
        seed: 0,
        frequency: DEFAULT_FREQUENCY,
        ramp: "gray".to_string(),
        scene: Scene::Flat,
        framing: Framing::of(&Scene::Flat),
    }
}

/// Asks egui for a frame when the URL's fragment changes (a link opened in this tab), so
/// that [`App::follow_fragment`] reads it.
fn repaint_on_hashchange(ctx: &egui::Context) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let ctx = ctx.clone();
    let listener = Closure::<dyn FnMut()>::new(move || ctx.request_repaint());
    let _ =
        window.add_event_listener_with_callback("hashchange", listener.as_ref().unchecked_ref());
    // The page lives as long as the listener.
    listener.forget();
}

/// Writes the share string into the URL's fragment (no new history entry), so that the
/// page's address is always its share link.
fn set_fragment(shared: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("#{shared}")));
    }
}

/// The spacing of the [`SIZE`]² picture's texels at `frequency` (field units), and the
/// terrain's mesh over that picture from `framing`'s first pixel, its first texel to its
/// last, raised by its relief. The first pixel is the point [`Framing::origin`] (the pan
/// and the clock's offset) moved by whole lattice periods of `program` towards the origin,
/// as the 2D picture's fill moves it ([`Program::sampled_field`]): the same values, and
/// `f32` spacing as fine as near the origin however long the clock has run.
fn flat_placement(program: &Program, frequency: f64, framing: &Framing) -> ([f32; 2], Placement) {
    let step = [(frequency / f64::from(SIZE)) as f32; 2];
    let field = program.sampled_field(&flat_field(framing, frequency));
    let origin = field.reduced_offset().map(|o| o as f32);
    let placement = Placement::over(origin, step, [SIZE; 2], framing.relief);
    (step, placement)
}

/// `view`'s graph lowered for its scene: untiled, in the framing's dimensions, in 3D for the
/// iso view (as the desktop's iso view lowers it).
fn program_of(view: &SharedView) -> Result<Program, GraphError> {
    Graph::from_json(&view.graph)?.program(graph_dims(view), [0.0; 4])
}

/// The 2D picture's field: [`SIZE`]² texels at `frequency` from `framing`'s first pixel, in
/// its dimensions (a slice one texel deep in 3D and 4D, as `SharedView::bake_command`
/// bakes it).
fn flat_field(framing: &Framing, frequency: f64) -> Field {
    let dims = framing.dims;
    let size = [SIZE, SIZE, 1, 1];
    Field::new(&size[..dims])
        .with_frequency(&[frequency; 4][..dims])
        .with_offset(&framing.origin()[..dims])
}

/// The dimensions `view`'s graph is lowered for: 3 in the iso view, else its framing's.
fn graph_dims(view: &SharedView) -> usize {
    match view.scene {
        Scene::Iso { .. } => 3,
        Scene::Flat | Scene::Terrain(_) => view.framing.dims,
    }
}

/// The framing's controls under the view's settings: the graph's dimensions, play /
/// pause and the speed with the clock's time, and in the 3D view the relief; named `dims.2`
/// to `dims.4`, `play`, `speed` and `relief` for the test. Returns whether one changed.
fn framing_controls(
    ui: &mut egui::Ui,
    framing: &mut Framing,
    dimensions: Dimensions,
    named: &mut Vec<(String, egui::Rect)>,
) -> bool {
    let before = *framing;
    ui.horizontal(|ui| {
        ui.label("graph in");
        for (dims, name) in [(2, "dims.2"), (3, "dims.3"), (4, "dims.4")] {
            let r = ui.selectable_value(&mut framing.dims, dims, format!("{dims}D"));
            named.push((name.to_string(), r.rect));
        }
        ui.separator();
        let r = ui.button(if framing.paused { "play" } else { "pause" });
        named.push(("play".to_string(), r.rect));
        if r.clicked() {
            framing.paused = !framing.paused;
        }
    });
    ui.horizontal(|ui| {
        ui.label("speed");
        let (low, high) = SPEED_RANGE;
        let speed = ui.add(
            egui::DragValue::new(&mut framing.speed)
                .range(low..=high)
                // A link's speed beyond the range is kept as it is, not changed by showing it.
                .clamp_existing_to_range(false)
                .speed(0.01)
                .suffix(" cells/s"),
        );
        named.push(("speed".to_string(), speed.rect));
        let time = ui.label(format!("t = {:.2} s", framing.time));
        named.push(("time".to_string(), time.rect));
    });
    if dimensions == Dimensions::Terrain {
        ui.horizontal(|ui| {
            ui.label("relief");
            let (low, high) = RELIEF_RANGE;
            let relief = ui.add(egui::Slider::new(&mut framing.relief, low..=high));
            named.push(("relief".to_string(), relief.rect));
        });
    }
    *framing != before
}

/// Moves the 2D view's `pan` with a drag of its `picture` (the picture follows the pointer:
/// a texel is `frequency / SIZE` lattice units); whether it moved.
fn pan_input(picture: &egui::Response, frequency: f64, pan: &mut [f64; 2]) -> bool {
    let moved = picture.drag_delta();
    if moved == egui::Vec2::ZERO {
        return false;
    }
    let per_pixel = frequency / f64::from(SIZE);
    pan[0] -= f64::from(moved.x) * per_pixel;
    pan[1] -= f64::from(moved.y) * per_pixel;
    true
}

/// Downloads the picture shown (2D or 3D) as `wgpu-noise.png`.
fn download_png() -> Result<(), String> {
    let (rgba, size) = HOOK.with_borrow(|h| (h.rgba.clone(), h.picture_size));
    if rgba.is_empty() {
        return Err("no picture yet".into());
    }
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, size, size);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(&rgba).map_err(|e| e.to_string())?;
    }
    download("wgpu-noise.png", "image/png", &bytes)
}

/// Downloads the values of the 2D picture shown as `wgpu-noise.exr` or `.npy` (256 rows of
/// 256, the top row first), as `wgpu-noise bake` writes them; returns the file's name.
fn download_values(file: ValuesFile) -> Result<String, String> {
    let (values, seen) = HOOK.with_borrow(|h| {
        let seen = h.shown.as_ref().is_some_and(|v| v.scene.camera().is_some());
        (h.values.clone(), seen)
    });
    if seen {
        return Err("the 3D and iso views have no grid of values: switch to 2D".into());
    }
    if values.is_empty() {
        return Err("no picture yet".into());
    }
    let description = "wgpu-noise page: the values of the picture shown. \
        Texel i of N along an axis samples offset + frequency*i/N.";
    let bytes = values_file(file, SIZE, SIZE, &values, description)?;
    let name = format!("wgpu-noise.{}", file.extension());
    download(&name, "application/octet-stream", &bytes)?;
    Ok(name)
}

/// Downloads `bytes` as the file `name`: a blob URL clicked in an `<a download>`.
fn download(name: &str, mime: &str, bytes: &[u8]) -> Result<(), String> {
    let js = |e: JsValue| format!("{e:?}");
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(js)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(js)?
        .dyn_into()
        .map_err(|_| "not an anchor".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    // The URL is not revoked: revoking it at once may cancel the download it started.
    a.click();
    HOOK.with_borrow_mut(|h| h.downloaded = Some(name.to_string()));
    Ok(())
}
