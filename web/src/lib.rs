//! The wgpu-noise page (`web/www/index.html`): the library's GPU fill on the browser's
//! WebGPU, drawn with a colour ramp (or as a curl flow map) into a texture whose bytes the
//! page puts on a 2D `<canvas>`, driven by plain HTML controls. The frame follows the
//! desktop preview's conventions (docs/preview.md): a 2D picture of a 2D, 3D or 4D field,
//! the clock moving along x in 2D, z in 3D and w in 4D, or turning flow noise.
//!
//! The picture goes through a readback, not a WebGPU canvas context: headless Chromium on
//! SwiftShader (the test's browser) loses the device at a canvas context's first frame, and
//! the bytes read back are exactly the ones the page shows, saves and the test compares.
//!
//! The page's script reads the controls and hands them to [`App::render`] as strings;
//! every check of a value happens here, with the library's own validation, so a bad value
//! is one message on the page and the last good picture stays. `tests/web` drives the
//! page in headless Chromium and compares what it draws with the CPU `f32` reference.

use std::sync::Arc;

use wasm_bindgen::prelude::*;
use wgpu::util::DeviceExt;
use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};
use wgpu_noise::graph::{Graph, Node, Program};
use wgpu_noise::low_level::{ColourRamp, RampStops};
use wgpu_noise::shader::{hash_key_for_seed, noise_functions_wgsl_with, HASH_KEY_OVERRIDE_ID};
use wgpu_noise::{Field, FieldOutput, GpuNoise, LookupVariant, NoiseError, NoiseKind, TextureFill};

/// The noise values drawn black and white with a graph: the nominal range of graph
/// outputs, as the desktop preview draws them.
const GRAPH_RANGE: (f32, f32) = (-1.0, 1.0);

/// The curl components drawn as 0 and full intensity: the desktop preview's and
/// `bake --curl -o flow.png`'s flow-map range.
const CURL_RANGE: (f32, f32) = (-8.0, 8.0);
/// The fBm octaves of the warp noise (the desktop preview's).
const WARP_OCTAVES: u32 = 2;
/// The tile period along the animated axis of a tiled 3D or 4D view, in cells (the
/// desktop preview's).
const TILE_DEPTH: f64 = 4.0;

/// Draws the filled texture on an `Rgba8Unorm` target: the value's
/// t = clamp((v − low) / (high − low), 0, 1) with the colour ramp (`shaders/ramp.wgsl`),
/// or a curl flow map (R, G, B = the components over low..high, B = 0 in 2D), so the
/// stored byte is round(255 · colour). Follows `ColourRamp::WGSL`.
const DRAW_WGSL: &str = r#"
@group(0) @binding(0) var field: texture_2d<f32>;
@group(0) @binding(2) var curl_field: texture_2d<f32>;
struct Draw { low: f32, high: f32, curl: u32, dims: u32, ramp: RampStops }
@group(0) @binding(1) var<uniform> draw: Draw;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // One triangle that covers the viewport: (-1,-1), (3,-1), (-1,3).
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    // Pixel (i, j), j = 0 the top row, shows texel (i, j) of the field.
    let texel = vec2<i32>(floor(position.xy));
    if (draw.curl == 1u) {
        var c = textureLoad(curl_field, texel, 0).xyz;
        if (draw.dims == 2u) {
            c.z = draw.low;
        }
        return vec4<f32>(clamp((c - draw.low) / (draw.high - draw.low), vec3<f32>(0.0), vec3<f32>(1.0)), 1.0);
    }
    let v = textureLoad(field, texel, 0).x;
    let t = clamp((v - draw.low) / (draw.high - draw.low), 0.0, 1.0);
    return vec4<f32>(colour_ramp(draw.ramp, t), 1.0);
}
"#;

/// The draw pass's uniform (`struct Draw` above).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct DrawUniform {
    low: f32,
    high: f32,
    curl: u32,
    dims: u32,
    ramp: RampStops,
}

/// How a fractal sums its octaves (the `fbm`, `turbulence` and `ridged` nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FractalMode {
    Fbm,
    Turbulence,
    Ridged,
}

/// The fractal controls: the node's mode and parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Fractal {
    mode: FractalMode,
    octaves: u32,
    lacunarity: f64,
    gain: f64,
}

impl Fractal {
    /// One octave of the source itself (no fractal node).
    const NONE: Fractal = Fractal {
        mode: FractalMode::Fbm,
        octaves: 1,
        lacunarity: 2.0,
        gain: 0.5,
    };
}

/// What the controls set: the field's exact settings.
#[derive(Clone, Debug, PartialEq)]
struct Settings {
    kind: NoiseKind,
    seed: u64,
    /// Lattice cells across the canvas's width (the height spans the same cells per pixel).
    frequency: f64,
    fractal: Fractal,
    lookup: LookupVariant,
    /// 2, 3 or 4: the picture is the slice at z = w = 0 (before the clock moves it).
    dims: usize,
    /// Domain warp amplitude in cells (0: none).
    warp: f64,
    /// Flow noise: the clock turns simplex noise's gradients (2D and 3D).
    flow: bool,
    /// How fast flow noise turns, in radians per second.
    flow_rate: f64,
    /// Tileable noise: whole cells across, the animated axis looping every
    /// [`TILE_DEPTH`] cells.
    tileable: bool,
    /// Curl noise drawn as a flow map (2D and 3D).
    curl: bool,
    /// Cells per second along the animated axis.
    speed: f64,
    /// The clock in seconds (the page's, stopped while paused).
    time: f64,
    ramp: ColourRamp,
}

impl Settings {
    /// Reads the controls' values (a JSON object of strings, as the inputs hold them).
    fn parse(controls: &str) -> Result<Settings, String> {
        let value: serde_json::Value =
            serde_json::from_str(controls).map_err(|e| format!("controls: {e}"))?;
        let text = |name: &str| -> Result<String, String> {
            match value.get(name) {
                Some(serde_json::Value::String(s)) => Ok(s.trim().to_string()),
                Some(serde_json::Value::Number(n)) => Ok(n.to_string()),
                _ => Err(format!("{name}: missing")),
            }
        };
        let number = |name: &str| -> Result<f64, String> {
            let s = text(name)?;
            match s.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(format!("{name}: {s:?} is not a finite number")),
            }
        };
        let kind = match text("kind")?.as_str() {
            "classic" => NoiseKind::Classic,
            "simplex" => NoiseKind::Simplex,
            "cellular" => NoiseKind::Cellular,
            "value" => NoiseKind::Value,
            other => {
                return Err(format!(
                    "kind: {other:?} is not classic, simplex, cellular or value"
                ))
            }
        };
        let seed_text = text("seed")?;
        let seed = seed_text.parse::<u64>().map_err(|_| {
            format!(
                "seed: {seed_text:?} is not a whole number from 0 to {}",
                u64::MAX
            )
        })?;
        let octaves_text = text("octaves")?;
        let octaves = octaves_text
            .parse::<u32>()
            .map_err(|_| format!("octaves: {octaves_text:?} is not a whole number"))?;
        let mode = match text("fractal")?.as_str() {
            "fbm" => FractalMode::Fbm,
            "turbulence" => FractalMode::Turbulence,
            "ridged" => FractalMode::Ridged,
            other => {
                return Err(format!(
                    "fractal: {other:?} is not fbm, turbulence or ridged"
                ))
            }
        };
        let lookup = match text("lookup")?.as_str() {
            "textures" => LookupVariant::Textures,
            "hash" => LookupVariant::Hash,
            other => return Err(format!("lookup: {other:?} is not textures or hash")),
        };
        let dims = match text("dims")?.as_str() {
            "2" => 2,
            "3" => 3,
            "4" => 4,
            other => return Err(format!("dims: {other:?} is not 2, 3 or 4")),
        };
        let flag = |name: &str| -> Result<bool, String> {
            match text(name)?.as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                other => Err(format!("{name}: {other:?} is not true or false")),
            }
        };
        let ramp = ColourRamp::from_name(&text("ramp")?).map_err(|e| format!("ramp: {e}"))?;
        Ok(Settings {
            kind,
            seed,
            frequency: number("frequency")?,
            fractal: Fractal {
                mode,
                octaves,
                lacunarity: number("lacunarity")?,
                gain: number("gain")?,
            },
            lookup,
            dims,
            warp: number("warp")?,
            flow: flag("flow")?,
            flow_rate: number("flow_rate")?,
            tileable: flag("tileable")?,
            curl: flag("curl")?,
            speed: number("speed")?,
            time: number("time")?,
            ramp,
        })
    }

    /// The axis the clock moves along: x in 2D, z in 3D, w in 4D.
    fn animated_axis(&self) -> usize {
        match self.dims {
            2 => 0,
            d => d - 1,
        }
    }

    /// Whether curl noise is drawn (2D and 3D, not with a graph).
    fn showing_curl(&self, graph: bool) -> bool {
        self.curl && !graph && self.dims <= 3
    }

    /// Whether the field tiles (not 4D simplex, nor curl noise, nor a graph).
    fn tiling(&self, graph: bool) -> bool {
        // 4D simplex noise does not tile.
        let simplex4 = self.kind == NoiseKind::Simplex && self.dims == 4;
        self.tileable && !graph && !simplex4 && !self.showing_curl(graph)
    }

    /// Whether the clock turns the gradients instead of moving (simplex 2D and 3D).
    fn flowing(&self, graph: bool) -> bool {
        self.flow
            && !graph
            && self.kind == NoiseKind::Simplex
            && self.dims <= 3
            && !self.showing_curl(graph)
            && !self.tiling(graph)
    }

    /// Whether the picture changes with the clock.
    fn animated(&self, graph: bool) -> bool {
        if self.flowing(graph) {
            self.flow_rate != 0.0
        } else {
            self.speed != 0.0
        }
    }

    /// The field these settings describe on a `width` × `height` canvas (with a graph
    /// when `graph`): pixel `i` samples `offset + frequency · i / N`, the clock adds
    /// `speed · time` to the animated axis's offset, or turns flow noise by
    /// `flow_rate · time`.
    fn field(&self, width: u32, height: u32, graph: bool) -> Field {
        let mut offset = [0.0; 4];
        if !self.flowing(graph) {
            offset[self.animated_axis()] += self.speed * self.time;
        }
        let mut frequency = [
            self.frequency,
            self.frequency * f64::from(height) / f64::from(width),
            1.0,
            1.0,
        ];
        if self.tiling(graph) {
            frequency = [
                frequency[0].round().max(1.0),
                frequency[1].round().max(1.0),
                TILE_DEPTH,
                TILE_DEPTH,
            ];
        }
        let d = self.dims;
        let size = &[width, height, 1, 1][..d];
        let mut field = Field::new(size)
            .with_tileable(self.tiling(graph))
            .with_frequency(&frequency[..d])
            .with_offset(&offset[..d]);
        // A graph is drawn at its own coordinates, however long it has been animated.
        field.reduce_offset = !graph;
        field
    }

    /// The controls' graph ([`Settings::node`]) lowered for `field`'s dimensions and tiling.
    fn program(&self, field: &Field) -> Result<Program, wgpu_noise::graph::GraphError> {
        Graph::from_node(&self.node())?.program(field.dims, field.tile_period())
    }

    /// The angle the clock has turned flow noise by (0 when it does not flow).
    fn flow_angle(&self, graph: bool) -> f64 {
        if self.flowing(graph) {
            self.flow_rate * self.time
        } else {
            0.0
        }
    }

    /// The noise the controls describe, as a graph: a source (classic, simplex, flow or
    /// cellular noise), its fractal when there is more than one fBm octave, a warp of that
    /// when the warp is on; the command line's flags build the same graph, and the library
    /// runs one of this shape on its hand-written fill, the clock's angle a uniform.
    fn node(&self) -> Node {
        if self.showing_curl(false) {
            // The 3D curl takes simplex noise's continuous kernel (as the command line's).
            let simplex = Node::simplex();
            return match self.dims {
                3 => simplex.with("kernel", "continuous"),
                _ => simplex,
            };
        }
        let flow_angle = self.flow_angle(false);
        let source = match self.kind {
            NoiseKind::Classic => Node::classic(),
            // The angle as the fill's uniform holds it.
            NoiseKind::Simplex if flow_angle != 0.0 => {
                Node::flow(flow_angle.rem_euclid(std::f64::consts::TAU))
            }
            NoiseKind::Simplex => Node::simplex(),
            NoiseKind::Cellular => Node::cellular(),
            NoiseKind::Value => Node::value(),
            NoiseKind::SuperSimplex => Node::supersimplex(),
        };
        let f = &self.fractal;
        let mut node = if f.octaves > 1 || f.mode != FractalMode::Fbm {
            let fractal = match f.mode {
                FractalMode::Fbm => source.fbm(),
                FractalMode::Turbulence => source.turbulence(),
                FractalMode::Ridged => source.ridged(),
            };
            fractal
                .with("octaves", f.octaves)
                .with("lacunarity", f.lacunarity)
                .with("gain", f.gain)
        } else {
            source
        };
        if self.warp != 0.0 {
            let warp_noise = match self.kind {
                NoiseKind::Simplex => "simplex",
                _ => "classic",
            };
            node = node
                .warp(self.warp)
                .with("octaves", WARP_OCTAVES)
                .with("noise", warp_noise)
                .with("lacunarity", f.lacunarity)
                .with("gain", f.gain);
        }
        node
    }
}

fn kind_name(kind: NoiseKind) -> &'static str {
    kind.name()
}

fn mode_name(mode: FractalMode) -> &'static str {
    match mode {
        FractalMode::Fbm => "fbm",
        FractalMode::Turbulence => "turbulence",
        FractalMode::Ridged => "ridged",
    }
}

fn lookup_name(lookup: LookupVariant) -> &'static str {
    match lookup {
        LookupVariant::Textures => "textures",
        LookupVariant::Hash => "hash",
    }
}

/// The noise values drawn at the ramp's ends without a graph: fBm lies in [-1, 1],
/// turbulence and ridged sums in [0, 1] (the desktop preview's ramp).
fn value_range(mode: FractalMode) -> (f32, f32) {
    match mode {
        FractalMode::Fbm => (-1.0, 1.0),
        FractalMode::Turbulence | FractalMode::Ridged => (0.0, 1.0),
    }
}

/// `text` parsed and lowered for `dims`.
fn lower(text: &str, dims: usize) -> Result<GoodGraph, String> {
    let graph = Graph::from_json(text).map_err(|e| format!("graph: {e}"))?;
    let program = graph
        .program(dims, [0.0; 4])
        .map_err(|e| format!("graph: {e}"))?;
    Ok(GoodGraph {
        text: text.to_string(),
        program,
    })
}

/// The graph the text box holds: its text, lowered for the settings' dimensions.
struct GoodGraph {
    text: String,
    program: Program,
}

/// The page's GPU state.
#[wasm_bindgen]
pub struct App {
    device: wgpu::Device,
    queue: wgpu::Queue,
    width: u32,
    height: u32,
    noise: GpuNoise,
    /// The field's values, filled by the library, read by the draw pass.
    target: wgpu::Texture,
    /// The curl noise of the field (`Rgba32Float`), when it is drawn.
    curl_target: wgpu::Texture,
    /// The drawn picture (`Rgba8Unorm`), copied to `frame` after each draw.
    picture: wgpu::Texture,
    /// The last draw's picture on its way to the host ([`App::picture`] reads it).
    frame: Option<wgpu::Buffer>,
    draw: wgpu::RenderPipeline,
    draw_group: wgpu::BindGroup,
    draw_uniform: wgpu::Buffer,
    settings: Option<Settings>,
    graph: Option<GoodGraph>,
    adapter: String,
}

/// The picture's format: bytes as a 2D canvas's `ImageData` holds them.
const PICTURE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// Opens WebGPU and prepares the fill and the draw for a `width` × `height` picture (the
/// page's canvas). Errors: no WebGPU adapter, or a device the page cannot use (the message
/// says which).
#[wasm_bindgen]
pub async fn start(width: u32, height: u32) -> Result<App, JsError> {
    if width == 0 || height == 0 {
        return Err(JsError::new("the canvas has no pixels"));
    }
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions::default())
        .await
        .map_err(|e| JsError::new(&format!("no WebGPU adapter: {e}")))?;
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("wgpu-noise page"),
            ..Default::default()
        })
        .await
        .map_err(|e| JsError::new(&format!("no WebGPU device: {e}")))?;
    // The browser reports what its validation catches here: a console error the page's
    // test fails on.
    device.on_uncaptured_error(Arc::new(|e: wgpu::Error| {
        web_sys::console::error_1(&format!("WebGPU error: {e}").into());
    }));
    let max = device.limits().max_texture_dimension_2d;
    if width > max || height > max {
        return Err(JsError::new(&format!(
            "the canvas is {width} × {height} pixels; this device draws at most {max} × {max}"
        )));
    }
    let info = adapter.get_info();
    // Browsers may keep the adapter's name to themselves (an empty string).
    let adapter_name = if info.name.is_empty() {
        "the browser's adapter (unnamed)".to_string()
    } else {
        info.name
    };
    let noise = GpuNoise::with_variant(&device, &queue, 0, LookupVariant::Textures)
        .map_err(|e| JsError::new(&e.to_string()))?;
    let target_descriptor = wgpu::TextureDescriptor {
        label: Some("noise field"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::R32Float,
        // Storage: the library's fill; copy: its graph fill; binding: the draw.
        usage: wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    };
    let target = device.create_texture(&target_descriptor);
    let picture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("picture"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: PICTURE_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let curl_target = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("curl noise"),
        format: FieldOutput::Curl.texture_format(),
        ..target_descriptor
    });
    let draw_uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("draw uniform"),
        contents: bytemuck::bytes_of(&<DrawUniform as bytemuck::Zeroable>::zeroed()),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    });
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("draw"),
        entries: &[
            field_texture_entry(0),
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            },
            field_texture_entry(2),
        ],
    });
    let draw_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("draw"),
        layout: &layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(
                    &target.create_view(&Default::default()),
                ),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: draw_uniform.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::TextureView(&curl_target.create_view(
                    &wgpu::TextureViewDescriptor {
                        dimension: Some(wgpu::TextureViewDimension::D2),
                        ..Default::default()
                    },
                )),
            },
        ],
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("draw"),
        source: wgpu::ShaderSource::Wgsl(format!("{DRAW_WGSL}\n{}", ColourRamp::WGSL).into()),
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("draw"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let draw = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("draw"),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(PICTURE_FORMAT.into())],
        }),
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    });
    Ok(App {
        device,
        queue,
        width,
        height,
        noise,
        target,
        curl_target,
        picture,
        frame: None,
        draw,
        draw_group,
        draw_uniform,
        settings: None,
        graph: None,
        adapter: adapter_name,
    })
}

#[wasm_bindgen]
impl App {
    /// Applies the controls (a JSON object of the inputs' strings: kind, seed, frequency,
    /// octaves, lacunarity, gain, fractal, lookup, dims, warp, flow, flow_rate, tileable,
    /// curl, speed, time, ramp) and draws the field; returns [`App::settings`]. A bad value
    /// is an error and the canvas keeps its last picture.
    pub fn render(&mut self, controls: &str) -> Result<String, JsError> {
        let settings = Settings::parse(controls).map_err(|e| JsError::new(&e))?;
        let graph = self.graph.is_some();
        let field = settings.field(self.width, self.height, graph);
        // The grid and the controls' graph checked before anything changes.
        field.validate().map_err(|e| JsError::new(&e.to_string()))?;
        if !graph {
            settings
                .program(&field)
                .map_err(|e| JsError::new(&e.to_string()))?;
        }
        let variant_changed = self.noise.lookup_variant() != settings.lookup;
        let dims_changed = self.settings.as_ref().map_or(2, |s| s.dims) != settings.dims;
        // The graph lowered for these dimensions (and for the new lookup variant's
        // generator) before anything changes, so a graph that cannot be drawn so keeps
        // the last picture.
        let mut noise = None;
        if variant_changed {
            noise = Some(
                GpuNoise::with_variant(&self.device, &self.queue, settings.seed, settings.lookup)
                    .map_err(|e| JsError::new(&e.to_string()))?,
            );
        }
        let mut relowered = None;
        if let Some(g) = &self.graph {
            if dims_changed {
                relowered = Some(lower(&g.text, settings.dims).map_err(|e| JsError::new(&e))?);
            }
        }
        if let Some(noise) = noise {
            self.noise = noise;
        } else if self.noise.lookup().seed() != settings.seed {
            self.noise.set_seed(settings.seed);
        }
        if relowered.is_some() {
            self.graph = relowered;
        }
        self.settings = Some(settings);
        self.draw_field(&field)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(self.settings())
    }

    /// Makes `text` (a noise graph, `wgpu_noise::graph`'s JSON) decide the noise, or
    /// the controls again when `text` is blank, and redraws. A graph that does not parse,
    /// lower or compile is an error; the last good graph and picture stay.
    pub fn set_graph(&mut self, text: &str) -> Result<String, JsError> {
        let dims = self.settings.as_ref().map_or(2, |s| s.dims);
        let graph = if text.trim().is_empty() {
            None
        } else {
            Some(lower(text, dims).map_err(|e| JsError::new(&e))?)
        };
        let last = std::mem::replace(&mut self.graph, graph);
        if let Some(settings) = &self.settings {
            let field = settings.field(self.width, self.height, self.graph.is_some());
            if let Err(e) = self.draw_field(&field) {
                self.graph = last;
                return Err(JsError::new(&e.to_string()));
            }
        }
        Ok(self.settings())
    }

    /// The drawn field's exact settings as JSON: kind, dims, size, frequency and offset
    /// per axis, seed (a string: it may exceed 2^53), fractal, warp, flow angle, whether
    /// it tiles, the output (value or curl), lookup, the values drawn at the ramp's ends
    /// (`range`), the ramp, the clock, whether the picture is animated, and the graph's
    /// text (null without one).
    pub fn settings(&self) -> String {
        let Some(s) = &self.settings else {
            return "null".into();
        };
        let graph = self.graph.is_some();
        let field = s.field(self.width, self.height, graph);
        let (low, high) = self.range(s);
        let d = field.dims;
        // Curl noise is one octave of simplex noise's, whatever the kind and fractal (as
        // the desktop preview draws it): the options `node` builds its graph from.
        let curl = s.showing_curl(graph);
        let kind = if curl { NoiseKind::Simplex } else { s.kind };
        let fractal = if curl { Fractal::NONE } else { s.fractal };
        // The warp's amplitude, fBm octaves and iterations (one octave when it is off).
        let (amplitude, warp_octaves) = if curl {
            (0.0, 1)
        } else {
            (s.warp, WARP_OCTAVES)
        };
        serde_json::json!({
            "kind": kind_name(kind),
            "dims": d,
            "size": field.size[..d],
            "frequency": field.frequency[..d],
            "offset": field.offset[..d],
            "reduce_offset": field.reduce_offset,
            "seed": s.seed.to_string(),
            "fractal": {
                "mode": mode_name(fractal.mode),
                "octaves": fractal.octaves,
                "lacunarity": fractal.lacunarity,
                "gain": fractal.gain,
            },
            "warp": {
                "amplitude": amplitude,
                "octaves": warp_octaves,
                "iterations": 1,
            },
            "flow_angle": s.flow_angle(graph),
            "tileable": field.tileable,
            "output": if s.showing_curl(graph) { "curl" } else { "value" },
            "lookup": lookup_name(s.lookup),
            "range": [low, high],
            "ramp": s.ramp.name(),
            "time": s.time,
            "animated": s.animated(graph),
            "graph": self.graph.as_ref().map(|g| g.text.clone()),
        })
        .to_string()
    }

    /// The last good graph's text ("" without one): what "save graph" downloads.
    pub fn graph_text(&self) -> String {
        self.graph
            .as_ref()
            .map_or_else(String::new, |g| g.text.clone())
    }

    /// The last drawn picture: a promise of its bytes, `width` × `height` RGBA rows top to
    /// bottom (a 2D canvas's `ImageData`), or `null` before the first draw.
    pub fn picture(&self) -> js_sys::Promise {
        let Some(buffer) = self.frame.clone() else {
            return js_sys::Promise::resolve(&JsValue::NULL);
        };
        let (width, height) = (self.width, self.height);
        wasm_bindgen_futures::future_to_promise(async move {
            let bytes = read_back(&buffer)
                .await
                .map_err(|e| JsValue::from(JsError::new(&e)))?;
            let row = width as usize * 4;
            let padded = padded_row(width) as usize;
            let rows: Vec<u8> = bytes
                .chunks(padded)
                .take(height as usize)
                .flat_map(|r| &r[..row])
                .copied()
                .collect();
            Ok(js_sys::Uint8ClampedArray::from(rows.as_slice()).into())
        })
    }

    /// The adapter the page runs on, as the browser names it.
    pub fn adapter(&self) -> String {
        self.adapter.clone()
    }

    /// Runs the embeddable WGSL (`shader::noise_functions_wgsl_with`, the `lookup`
    /// variant "textures" or "hash", seed `seed` given as a decimal string) on `points`
    /// (x, y, z, w per point) in a compute shader of the page's own: per point
    /// classic2, classic3, classic4, simplex2, simplex3, simplex4, in that order.
    pub fn evaluate_embedded(
        &self,
        lookup: &str,
        seed: &str,
        points: Vec<f32>,
    ) -> Result<js_sys::Promise, JsError> {
        let variant = match lookup {
            "textures" => LookupVariant::Textures,
            "hash" => LookupVariant::Hash,
            other => {
                return Err(JsError::new(&format!(
                    "lookup: {other:?} is not textures or hash"
                )))
            }
        };
        let seed = seed
            .parse::<u64>()
            .map_err(|_| JsError::new(&format!("seed: {seed:?} is not a whole number")))?;
        if points.is_empty() || points.len() % 4 != 0 {
            return Err(JsError::new(
                "points: a non-empty list of 4 numbers per point",
            ));
        }
        let (device, queue) = (self.device.clone(), self.queue.clone());
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            let values = evaluate_embedded(&device, &queue, variant, seed, &points)
                .await
                .map_err(|e| JsValue::from(JsError::new(&e)))?;
            Ok(js_sys::Float32Array::from(values.as_slice()).into())
        }))
    }
}

impl App {
    /// The values drawn at the ramp's ends (or a flow map's component range).
    fn range(&self, s: &Settings) -> (f32, f32) {
        if s.showing_curl(self.graph.is_some()) {
            CURL_RANGE
        } else if self.graph.is_some() {
            GRAPH_RANGE
        } else {
            value_range(s.fractal.mode)
        }
    }

    /// Fills the target with `field` (or the graph over it), draws it into the picture and
    /// starts the picture's copy to the host ([`App::picture`]).
    fn draw_field(&mut self, field: &Field) -> wgpu_noise::Result<()> {
        let Some(settings) = &self.settings else {
            return Ok(());
        };
        let (low, high) = self.range(settings);
        let curl = settings.showing_curl(self.graph.is_some());
        let uniform = DrawUniform {
            low,
            high,
            curl: u32::from(curl),
            dims: field.dims as u32,
            ramp: settings.ramp.stops(),
        };
        self.queue
            .write_buffer(&self.draw_uniform, 0, bytemuck::bytes_of(&uniform));
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("fill and draw"),
            });
        // The controls' graph is rebuilt every frame: the library runs it on the
        // hand-written fill with new uniforms, compiling nothing new.
        let controls;
        let program = match &self.graph {
            Some(graph) => &graph.program,
            None => {
                controls = settings
                    .program(field)
                    .map_err(|e| NoiseError::InvalidArgument(e.to_string()))?;
                &controls
            }
        };
        self.noise.record(
            &mut encoder,
            &TextureFill {
                program,
                field,
                output: if curl {
                    FieldOutput::Curl
                } else {
                    FieldOutput::Value
                },
                texture: if curl {
                    &self.curl_target
                } else {
                    &self.target
                },
            },
        )?;
        let view = self.picture.create_view(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("draw"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.draw);
            pass.set_bind_group(0, &self.draw_group, &[]);
            pass.draw(0..3, 0..1);
        }
        // A buffer per frame: the last one may still be mapped by a `picture` promise.
        let frame = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("picture readback"),
            size: u64::from(padded_row(self.width)) * u64::from(self.height),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            self.picture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &frame,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded_row(self.width)),
                    rows_per_image: None,
                },
            },
            self.picture.size(),
        );
        self.queue.submit([encoder.finish()]);
        self.frame = Some(frame);
        Ok(())
    }
}

/// A draw-pass binding of a filled `f32` texture (read with `textureLoad`).
fn field_texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

/// The page's own compute shader: its buffers at group 0, the noise's textures (texture
/// variant) at group 1.
const KERNEL_WGSL: &str = r#"
@group(0) @binding(0) var<storage, read> points: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> values: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= arrayLength(&points)) { return; }
    let p = points[i];
    values[6u * i + 0u] = classic2(p.xy);
    values[6u * i + 1u] = classic3(p.xyz);
    values[6u * i + 2u] = classic4(p);
    values[6u * i + 3u] = simplex2(p.xy);
    values[6u * i + 4u] = simplex3(p.xyz);
    values[6u * i + 5u] = simplex4(p);
}
"#;

/// The bind group the page gives the lookup textures.
const NOISE_GROUP: u32 = 1;

async fn evaluate_embedded(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    variant: LookupVariant,
    seed: u64,
    points: &[f32],
) -> Result<Vec<f32>, String> {
    let count = points.len() / 4;
    let bytes = count
        .checked_mul(6 * 4)
        .and_then(|b| u64::try_from(b).ok())
        .ok_or("points: too many")?;
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("points"),
        contents: bytemuck::cast_slice(points),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("values"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("values readback"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let storage = |binding, read_only| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let app_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("kernel buffers"),
        entries: &[storage(0, true), storage(1, false)],
    });
    let app_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("kernel buffers"),
        layout: &app_layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: input.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: output.as_entire_binding(),
            },
        ],
    });
    // The texture variant through the embedding API (NoiseBindings: textures, layout,
    // bind group, source); the hash variant is source alone, its seed a pipeline constant.
    let bindings = match variant {
        LookupVariant::Textures => Some(
            NoiseBindings::new(
                device,
                queue,
                &NoiseBindingsDescriptor {
                    group: NOISE_GROUP,
                    seed,
                    visibility: wgpu::ShaderStages::COMPUTE,
                },
            )
            .map_err(|e| e.to_string())?,
        ),
        LookupVariant::Hash => None,
    };
    let module = match &bindings {
        Some(noise) => noise
            .create_shader_module(device, Some("embedded noise kernel"), KERNEL_WGSL)
            .map_err(|e| e.to_string())?,
        None => device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("embedded noise kernel (hash)"),
            source: wgpu::ShaderSource::Wgsl(
                format!(
                    "{}\n{KERNEL_WGSL}",
                    noise_functions_wgsl_with(LookupVariant::Hash, NOISE_GROUP)
                )
                .into(),
            ),
        }),
    };
    let mut layouts = vec![Some(&app_layout)];
    if let Some(noise) = &bindings {
        layouts.push(Some(noise.layout()));
    }
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("embedded noise kernel"),
        bind_group_layouts: &layouts,
        immediate_size: 0,
    });
    let key = HASH_KEY_OVERRIDE_ID.to_string();
    let constants: Vec<(&str, f64)> = match variant {
        LookupVariant::Hash => vec![(key.as_str(), f64::from(hash_key_for_seed(seed)))],
        LookupVariant::Textures => vec![],
    };
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("embedded noise kernel"),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some("main"),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants: &constants,
            ..Default::default()
        },
        cache: None,
    });
    let workgroups = u32::try_from(count.div_ceil(64)).map_err(|_| "points: too many")?;
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &app_group, &[]);
        if let Some(noise) = &bindings {
            pass.set_bind_group(NOISE_GROUP, noise.bind_group(), &[]);
        }
        pass.dispatch_workgroups(workgroups, 1, 1);
    }
    encoder.copy_buffer_to_buffer(&output, 0, &staging, 0, bytes);
    queue.submit([encoder.finish()]);
    let bytes = read_back(&staging).await?;
    Ok(bytemuck::pod_collect_to_vec(&bytes))
}

/// Bytes per row of the picture's readback: RGBA rows padded to WebGPU's copy alignment.
fn padded_row(width: u32) -> u32 {
    (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
}

/// Maps `buffer` the browser's way (a promise, never a blocking wait) and copies it out.
async fn read_back(buffer: &wgpu::Buffer) -> Result<Vec<u8>, String> {
    let (sender, receiver) = futures_oneshot();
    buffer.map_async(wgpu::MapMode::Read, .., sender);
    receiver.await.map_err(|e| format!("readback: {e}"))?;
    let values = {
        let view = buffer
            .get_mapped_range(..)
            .map_err(|e| format!("readback: {e}"))?;
        view.to_vec()
    };
    buffer.unmap();
    Ok(values)
}

/// A one-shot channel out of a JS promise: the sender resolves it with the map result.
#[allow(clippy::type_complexity)]
fn futures_oneshot() -> (
    impl FnOnce(Result<(), wgpu::BufferAsyncError>) + 'static,
    impl std::future::Future<Output = Result<(), String>>,
) {
    let mut resolve = None;
    let promise = js_sys::Promise::new(&mut |res, _rej| resolve = Some(res));
    let resolve = resolve.expect("a promise calls its executor at once");
    let sender = move |r: Result<(), wgpu::BufferAsyncError>| {
        let message = match r {
            Ok(()) => JsValue::NULL,
            Err(e) => JsValue::from(e.to_string()),
        };
        let _ = resolve.call1(&JsValue::UNDEFINED, &message);
    };
    let receiver = async move {
        let value = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .map_err(|e| format!("{e:?}"))?;
        match value.as_string() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    };
    (sender, receiver)
}
