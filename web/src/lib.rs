//! The wgpu-noise page (`web/www/index.html`): the library's GPU fill on the browser's
//! WebGPU, drawn with a gray ramp into a texture whose bytes the page puts on a 2D
//! `<canvas>`, driven by plain HTML controls.
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
use wgpu_noise::gpu::{FieldFill, GraphPipeline};
use wgpu_noise::graph::Graph;
use wgpu_noise::shader::{noise_functions_wgsl_with, HASH_KEY_OVERRIDE_ID};
use wgpu_noise::tables::hash_key_for_seed;
use wgpu_noise::{Field, FieldOutput, Fractal, FractalMode, GpuNoise, LookupVariant, NoiseKind};

/// The noise values drawn black and white with a graph: the nominal range of graph
/// outputs, as the desktop preview draws them.
const GRAPH_RANGE: (f32, f32) = (-1.0, 1.0);

/// Draws the filled `R32Float` texture with the gray ramp of the desktop preview:
/// gray = clamp((v − low) / (high − low), 0, 1) on an `Rgba8Unorm` target, so the
/// stored byte is round(255 · gray).
const DRAW_WGSL: &str = r#"
@group(0) @binding(0) var field: texture_2d<f32>;
struct Gray { low: f32, high: f32, pad0: f32, pad1: f32 }
@group(0) @binding(1) var<uniform> gray: Gray;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // One triangle that covers the viewport: (-1,-1), (3,-1), (-1,3).
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    // Pixel (i, j), j = 0 the top row, shows texel (i, j) of the field.
    let v = textureLoad(field, vec2<i32>(floor(position.xy)), 0).x;
    let g = clamp((v - gray.low) / (gray.high - gray.low), 0.0, 1.0);
    return vec4<f32>(g, g, g, 1.0);
}
"#;

/// What the controls set: the field's exact settings.
#[derive(Clone, Debug, PartialEq)]
struct Settings {
    kind: NoiseKind,
    seed: u64,
    /// Lattice cells across the canvas's width (the height spans the same cells per pixel).
    frequency: f64,
    fractal: Fractal,
    lookup: LookupVariant,
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
            other => {
                return Err(format!(
                    "kind: {other:?} is not classic, simplex or cellular"
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
        })
    }

    /// The field these settings describe on a `width` × `height` canvas.
    fn field(&self, width: u32, height: u32) -> Field {
        let fx = self.frequency;
        let fy = self.frequency * f64::from(height) / f64::from(width);
        Field::new(self.kind, &[width, height])
            .with_frequency(&[fx, fy])
            .with_fractal(self.fractal)
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

/// The noise values drawn black and white without a graph: fBm lies in [-1, 1],
/// turbulence and ridged sums in [0, 1] (the desktop preview's ramp).
fn gray_range(mode: FractalMode) -> (f32, f32) {
    match mode {
        FractalMode::Fbm => (-1.0, 1.0),
        FractalMode::Turbulence | FractalMode::Ridged => (0.0, 1.0),
    }
}

/// The graph the text box holds: its text and its fill pipeline, lowered for 2D.
struct GoodGraph {
    text: String,
    pipeline: GraphPipeline,
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
    /// The drawn picture (`Rgba8Unorm`), copied to `frame` after each draw.
    picture: wgpu::Texture,
    /// The last draw's picture on its way to the host ([`App::picture`] reads it).
    frame: Option<wgpu::Buffer>,
    draw: wgpu::RenderPipeline,
    draw_group: wgpu::BindGroup,
    gray: wgpu::Buffer,
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
    let target = device.create_texture(&wgpu::TextureDescriptor {
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
    });
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
    let gray = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("gray ramp"),
        contents: bytemuck::cast_slice(&[0f32; 4]),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    });
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("draw"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
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
                resource: gray.as_entire_binding(),
            },
        ],
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("draw"),
        source: wgpu::ShaderSource::Wgsl(DRAW_WGSL.into()),
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
        picture,
        frame: None,
        draw,
        draw_group,
        gray,
        settings: None,
        graph: None,
        adapter: adapter_name,
    })
}

#[wasm_bindgen]
impl App {
    /// Applies the controls (a JSON object of the inputs' strings: kind, seed, frequency,
    /// octaves, lacunarity, gain, fractal, lookup) and draws the field; returns
    /// [`App::settings`]. A bad value is an error and the canvas keeps its last picture.
    pub fn render(&mut self, controls: &str) -> Result<String, JsError> {
        let settings = Settings::parse(controls).map_err(|e| JsError::new(&e))?;
        let field = settings.field(self.width, self.height);
        field.validate().map_err(|e| JsError::new(&e.to_string()))?;
        if self.noise.pipelines().variant() != settings.lookup {
            self.noise =
                GpuNoise::with_variant(&self.device, &self.queue, settings.seed, settings.lookup)
                    .map_err(|e| JsError::new(&e.to_string()))?;
            // The graph's pipeline belongs to the old generator's lookup variant.
            if let Some(graph) = self.graph.take() {
                self.graph = Some(self.lower(&graph.text).map_err(|e| JsError::new(&e))?);
            }
        } else if self.noise.lookup().seed() != settings.seed {
            self.noise.set_seed(settings.seed);
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
        self.graph = if text.trim().is_empty() {
            None
        } else {
            Some(self.lower(text).map_err(|e| JsError::new(&e))?)
        };
        if let Some(settings) = &self.settings {
            let field = settings.field(self.width, self.height);
            self.draw_field(&field)
                .map_err(|e| JsError::new(&e.to_string()))?;
        }
        Ok(self.settings())
    }

    /// The drawn field's exact settings as JSON: kind, dims, size, frequency per axis,
    /// offset, seed (a string: it may exceed 2^53), fractal, lookup, the values drawn
    /// black and white, and the graph's text (null without one).
    pub fn settings(&self) -> String {
        let Some(s) = &self.settings else {
            return "null".into();
        };
        let field = s.field(self.width, self.height);
        let (low, high) = self.gray_range(s);
        serde_json::json!({
            "kind": kind_name(s.kind),
            "dims": field.dims,
            "size": [field.size[0], field.size[1]],
            "frequency": [field.frequency[0], field.frequency[1]],
            "offset": [field.offset[0], field.offset[1]],
            "seed": s.seed.to_string(),
            "fractal": {
                "mode": mode_name(s.fractal.mode),
                "octaves": s.fractal.octaves,
                "lacunarity": s.fractal.lacunarity,
                "gain": s.fractal.gain,
            },
            "lookup": lookup_name(s.lookup),
            "gray": [low, high],
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
    fn gray_range(&self, s: &Settings) -> (f32, f32) {
        if self.graph.is_some() {
            GRAPH_RANGE
        } else {
            gray_range(s.fractal.mode)
        }
    }

    /// `text` parsed, lowered for 2D and compiled for the current generator.
    fn lower(&self, text: &str) -> Result<GoodGraph, String> {
        let graph = Graph::from_json(text).map_err(|e| format!("graph: {e}"))?;
        let program = graph
            .program(2, [0.0; 4])
            .map_err(|e| format!("graph: {e}"))?;
        let pipeline = self
            .noise
            .graph_pipeline(&program)
            .map_err(|e| format!("graph: {e}"))?;
        Ok(GoodGraph {
            text: text.to_string(),
            pipeline,
        })
    }

    /// Fills the target with `field` (or the graph over it), draws it into the picture and
    /// starts the picture's copy to the host ([`App::picture`]).
    fn draw_field(&mut self, field: &Field) -> wgpu_noise::Result<()> {
        let Some(settings) = &self.settings else {
            return Ok(());
        };
        let (low, high) = self.gray_range(settings);
        self.queue
            .write_buffer(&self.gray, 0, bytemuck::cast_slice(&[low, high, 0.0, 0.0]));
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("fill and draw"),
            });
        match &self.graph {
            Some(graph) => {
                self.noise
                    .record_graph(&mut encoder, &graph.pipeline, field, &self.target)?
            }
            None => self.noise.record_field(
                &self.device,
                &mut encoder,
                &FieldFill {
                    field,
                    texture: &self.target,
                    output: FieldOutput::Value,
                },
            )?,
        }
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
