//! Drawing a frame of noise: the full-screen pipeline (`shaders/preview.wgsl` over the
//! library's noise functions), for the window's swapchain and for an offscreen texture
//! that screenshots are read back from.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use crate::bake::picture::{write_png8, Channels};
use crate::editor::iso::{self, IsoDraw, IsoSurface, IsoUniforms};
use crate::editor::isosurface::IsoMesh;
use crate::editor::terrain::{self, begin_pass, Terrain, TerrainUniforms, Uniform};
use crate::embed::{self, NoiseBindings, NoiseBindingsDescriptor};
use crate::error::pop_error_scope;
use crate::gpu::readback::{map_and_read, padded_row_bytes, staging_buffer};
use crate::graph::{wgsl, Program};
use crate::ramp::ColourRamp;
use crate::shader::ApiNames;
use anyhow::{anyhow, Context, Result};

use super::view::PreviewUniforms;

/// The preview's fragment shader (without the noise functions, which are prepended).
const PREVIEW_WGSL: &str = include_str!("../../../shaders/preview.wgsl");
/// The bind group of the lookup textures; group 0 is the preview's uniform.
const NOISE_GROUP: u32 = 1;
/// Format of the screenshot target: 8-bit linear, so a byte is the gray level itself.
const SCREENSHOT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// Longest wait for a screenshot's readback (lavapipe renders large frames slowly).
const READBACK_TIMEOUT: Duration = Duration::from_secs(60);

/// The pipelines and bindings that draw noise frames.
pub struct Renderer {
    noise: NoiseBindings,
    uniform_buffer: wgpu::Buffer,
    uniform_group: wgpu::BindGroup,
    terrain: Terrain,
    compiler: Compiler,
    pipelines: Pipelines,
    /// The iso view's mesh and pipelines (the window's and the screenshot's), made with
    /// its first mesh.
    iso: Option<(IsoSurface, IsoPipelines)>,
}

/// The iso view's pipelines: the window's format and the screenshot's.
struct IsoPipelines {
    window: wgpu::RenderPipeline,
    screenshot: wgpu::RenderPipeline,
}

/// What a frame draws: the flat view's uniform, the terrain's when the terrain view is
/// shown (drawn once its pipelines are in; the flat view until then), and the size.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    pub flat: &'a PreviewUniforms,
    pub terrain: Option<&'a TerrainUniforms>,
    /// The iso view's (drawn once a mesh is in).
    pub iso: Option<&'a IsoUniforms>,
    pub size: [u32; 2],
}

/// What compiling the pipelines takes, as handles a worker thread can own (wgpu's are
/// `Clone + Send`).
#[derive(Clone)]
struct Compiler {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::PipelineLayout,
    terrain_layout: wgpu::PipelineLayout,
    window_format: wgpu::TextureFormat,
    /// The bind groups a frame is drawn with: the uniform's (0) and the lookup textures'.
    uniform_group: wgpu::BindGroup,
    noise_group: (u32, wgpu::BindGroup),
}

/// The two pipelines of one shader (the noise functions, `--graph`'s function if any and
/// `shaders/preview.wgsl`), and the terrain's of the graph when the terrain view asked
/// for them.
struct Pipelines {
    window: wgpu::RenderPipeline,
    screenshot: wgpu::RenderPipeline,
    terrain: Option<TerrainPipelines>,
}

/// The terrain's pipelines for one graph: the window's format and the screenshot's.
struct TerrainPipelines {
    window: wgpu::RenderPipeline,
    screenshot: wgpu::RenderPipeline,
}

/// Compiles the terrain's pipelines of `terrain_wgsl` ([`terrain::shader_source`]; the
/// noise functions of bind group `noise_group` go in front) for the window's format and
/// the screenshot's.
fn compile_terrain(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    noise_group: u32,
    terrain_wgsl: &str,
    [window, screenshot]: [wgpu::TextureFormat; 2],
) -> TerrainPipelines {
    let module = terrain::shader_module(device, noise_group, terrain_wgsl);
    TerrainPipelines {
        window: terrain::pipeline(device, layout, &module, window, "terrain window pipeline"),
        screenshot: terrain::pipeline(
            device,
            layout,
            &module,
            screenshot,
            "terrain screenshot pipeline",
        ),
    }
}

/// Pipelines compiling on a worker thread ([`Renderer::compile`]): a large graph takes
/// seconds (a software driver, tens), during which the window goes on drawing the
/// pipelines in use. Dropping it drops its result unseen (the thread finishes alone).
pub struct PendingGraph {
    result: mpsc::Receiver<Result<Pipelines>>,
}

/// `preview_graph` when no graph decides the noise (`GRAPH` is then false and it is never
/// called).
const NO_GRAPH_WGSL: &str = "fn preview_graph(p: vec4<f32>) -> f32 { return 0.0; }";

impl Renderer {
    /// Compiles the preview pipelines for a window of `window_format`, with the lookup
    /// tables of `seed`, drawing `graph` if there is one (and its terrain with `terrain`).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        seed: u64,
        window_format: wgpu::TextureFormat,
        graph: Option<&Program>,
        terrain: bool,
    ) -> Result<Self> {
        let noise = NoiseBindings::new(
            device,
            queue,
            &NoiseBindingsDescriptor {
                group: NOISE_GROUP,
                seed,
                // The terrain's vertices sample the graph too.
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            },
        )?;
        let Uniform {
            buffer: uniform_buffer,
            layout: uniform_layout,
            group: uniform_group,
        } = Uniform::zeroed::<PreviewUniforms>(device, "preview", wgpu::ShaderStages::FRAGMENT);
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("preview pipeline layout"),
            bind_group_layouts: &[Some(&uniform_layout), Some(noise.layout())],
            immediate_size: 0,
        });
        let terrain_resources = Terrain::new(device, noise.layout());
        let compiler = Compiler {
            device: device.clone(),
            queue: queue.clone(),
            layout,
            terrain_layout: terrain_resources.layout.clone(),
            window_format,
            uniform_group: uniform_group.clone(),
            noise_group: (noise.group(), noise.bind_group().clone()),
        };
        let pipelines = PendingGraph::start(compiler.clone(), graph, terrain).wait()?;
        Ok(Renderer {
            noise,
            uniform_buffer,
            uniform_group,
            terrain: terrain_resources,
            compiler,
            pipelines,
            iso: None,
        })
    }

    /// Starts compiling the pipelines that draw `graph` (or the flags' noise for `None`),
    /// and its terrain with `terrain`; [`Renderer::adopt`] draws with them once they are in.
    pub fn compile(&self, graph: Option<&Program>, terrain: bool) -> PendingGraph {
        PendingGraph::start(self.compiler.clone(), graph, terrain)
    }

    /// Whether the pipelines drawn now include the terrain's.
    pub fn has_terrain(&self) -> bool {
        self.pipelines.terrain.is_some()
    }

    /// Draws with `pending`'s pipelines from now on if its compile has finished: `None`
    /// while it goes on, else how it went (after an error the pipelines in use stay). Once
    /// it has answered, `pending` is spent.
    pub fn adopt(&mut self, pending: &PendingGraph) -> Option<Result<()>> {
        let result = match pending.result.try_recv() {
            Ok(result) => result,
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => Err(stopped()),
        };
        Some(result.map(|pipelines| self.pipelines = pipelines))
    }

    /// Draws `mesh` over `cube` in the iso view from now on.
    pub fn set_iso_mesh(&mut self, device: &wgpu::Device, mesh: &IsoMesh, cube: &iso::Cube) {
        let (surface, _) = self.iso.get_or_insert_with(|| {
            let surface = IsoSurface::new(device);
            let pipeline = |format, label| iso::pipeline(device, &surface.layout, format, label);
            let pipelines = IsoPipelines {
                window: pipeline(self.compiler.window_format, "iso window pipeline"),
                screenshot: pipeline(SCREENSHOT_FORMAT, "iso screenshot pipeline"),
            };
            (surface, pipelines)
        });
        surface.set_mesh(device, mesh, cube);
    }

    /// Switches the lookup tables to `seed` (uploads only when it changed).
    pub fn set_seed(&mut self, queue: &wgpu::Queue, seed: u64) {
        self.noise.set_seed(queue, seed);
    }

    /// Records `frame` into `target` (a swapchain texture's view).
    pub fn draw_window(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        frame: Frame<'_>,
    ) {
        if let (Some(uniforms), Some((surface, pipelines))) = (frame.iso, &mut self.iso) {
            let draw = IsoDraw {
                device,
                queue,
                encoder,
                pipeline: &pipelines.window,
                uniforms,
            };
            surface.draw(draw, target, frame.size);
            return;
        }
        if let (Some(uniforms), Some(pipelines)) = (frame.terrain, &self.pipelines.terrain) {
            let draw = terrain::Draw {
                device,
                queue,
                encoder,
                pipeline: &pipelines.window,
                noise: &self.noise,
                uniforms,
            };
            self.terrain.draw(draw, target, frame.size);
            return;
        }
        queue.write_buffer(&self.uniform_buffer, 0, bytemuck::bytes_of(frame.flat));
        self.draw(
            encoder,
            target,
            &self.pipelines.window,
            "preview window pass",
        );
    }

    /// Renders `frame` offscreen and reads it back: one gray byte per pixel, or RGBA for a
    /// curl flow map or a colour ramp other than gray ([`PreviewUniforms::is_gray`]), rows
    /// top to bottom.
    pub fn screenshot(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        frame: Frame<'_>,
    ) -> Result<Vec<u8>> {
        let [width, height] = frame.size;
        let uniforms = frame.flat;
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("preview screenshot target"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: SCREENSHOT_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("preview screenshot view"),
            ..Default::default()
        });
        // 4 bytes per RGBA8 texel, the same padding as an f32 texel.
        let padded = padded_row_bytes(width);
        let buffer = staging_buffer(
            device,
            "preview screenshot readback",
            padded as u64 * height as u64,
        );
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("preview screenshot encoder"),
        });
        if let (Some(uniforms), Some((surface, pipelines))) = (frame.iso, &self.iso) {
            let draw = IsoDraw {
                device,
                queue,
                encoder: &mut encoder,
                pipeline: &pipelines.screenshot,
                uniforms,
            };
            surface.draw_once(draw, &view, frame.size);
        } else if let (Some(terrain), Some(pipelines)) = (frame.terrain, &self.pipelines.terrain) {
            let draw = terrain::Draw {
                device,
                queue,
                encoder: &mut encoder,
                pipeline: &pipelines.screenshot,
                noise: &self.noise,
                uniforms: terrain,
            };
            self.terrain.draw_once(draw, &view, frame.size);
        } else {
            queue.write_buffer(&self.uniform_buffer, 0, bytemuck::bytes_of(uniforms));
            self.draw(
                &mut encoder,
                &view,
                &self.pipelines.screenshot,
                "preview screenshot pass",
            );
        }
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(height),
                },
            },
            wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
        );
        let submission = queue.submit([encoder.finish()]);
        let channels = if uniforms.is_gray() { 1 } else { 4 };
        let pixels = map_and_read(device, &buffer, submission, READBACK_TIMEOUT, |bytes| {
            let mut pixels = Vec::with_capacity(width as usize * height as usize * channels);
            for row in bytes.chunks(padded as usize).take(height as usize) {
                // A gray frame: R of each RGBA texel (G and B hold the same value).
                for texel in row[..width as usize * 4].chunks_exact(4) {
                    pixels.extend_from_slice(&texel[..channels]);
                }
            }
            pixels
        })?;
        Ok(pixels)
    }

    fn draw(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        pipeline: &wgpu::RenderPipeline,
        label: &str,
    ) {
        let mut pass = begin_pass(encoder, label, target, None);
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &self.uniform_group, &[]);
        self.noise.set_render(&mut pass);
        pass.draw(0..3, 0..1);
    }
}

/// The preview shader's own WGSL (the noise functions go first, [`NoiseBindings`]): the
/// frame, the colour ramp and `graph`'s function (or [`NO_GRAPH_WGSL`]).
pub fn shader_source(graph: Option<&Program>) -> String {
    let graph_wgsl = match graph {
        Some(program) => wgsl::function(program, "preview_graph", ApiNames::Plain),
        None => NO_GRAPH_WGSL.to_string(),
    };
    format!("{PREVIEW_WGSL}\n{}\n{graph_wgsl}", ColourRamp::WGSL)
}

impl PendingGraph {
    /// Compiles the preview shader with `graph`'s function (or [`NO_GRAPH_WGSL`]) for the
    /// window's format and the screenshot's on a new thread, and with `terrain` the
    /// terrain's shader of the graph. Only the graph's WGSL is written here; the thread
    /// puts the noise functions in front, checks the whole with naga and compiles it (all
    /// of which grows with the graph).
    fn start(compiler: Compiler, graph: Option<&Program>, terrain: bool) -> Self {
        let preview_wgsl = shader_source(graph);
        let terrain_wgsl = graph.filter(|_| terrain).map(terrain::shader_source);
        let graph = graph.is_some();
        let (send, result) = mpsc::channel();
        std::thread::spawn(move || {
            // A receiver gone: a newer graph superseded this one.
            let _ = send.send(compiler.pipelines(graph, &preview_wgsl, terrain_wgsl.as_deref()));
        });
        PendingGraph { result }
    }

    /// Waits for the compile (the window's first pipelines).
    fn wait(self) -> Result<Pipelines> {
        self.result.recv().unwrap_or_else(|_| Err(stopped()))
    }
}

/// A compile thread that ended without an answer (it panicked).
fn stopped() -> anyhow::Error {
    anyhow!("compiling shaders/preview.wgsl: the compile thread stopped")
}

impl Compiler {
    /// Compiles `preview_wgsl` (with `graph`'s function or not) after the noise functions
    /// for the window's format and the screenshot's, and draws a pixel with the window's.
    /// Error scopes are per thread: this one catches only its own errors.
    fn pipelines(
        &self,
        graph: bool,
        preview_wgsl: &str,
        terrain_wgsl: Option<&str>,
    ) -> Result<Pipelines> {
        let device = &self.device;
        let source = embed::shader_source(self.noise_group.0, preview_wgsl)
            .context("compiling shaders/preview.wgsl")?;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("preview shader"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let window = pipeline(
            device,
            &self.layout,
            &module,
            self.window_format,
            graph,
            "preview window pipeline",
        );
        let screenshot = pipeline(
            device,
            &self.layout,
            &module,
            SCREENSHOT_FORMAT,
            graph,
            "preview screenshot pipeline",
        );
        let terrain = terrain_wgsl.map(|wgsl| {
            let formats = [self.window_format, SCREENSHOT_FORMAT];
            compile_terrain(
                device,
                &self.terrain_layout,
                self.noise_group.0,
                wgsl,
                formats,
            )
        });
        let warmed = self.warm_up(&window);
        pop_error_scope(scope).context(if terrain.is_some() {
            "compiling shaders/preview.wgsl and shaders/terrain.wgsl"
        } else {
            "compiling shaders/preview.wgsl"
        })?;
        warmed?;
        let pipelines = Pipelines {
            window,
            screenshot,
            terrain,
        };
        Ok(pipelines)
    }

    /// Draws one pixel with the window's pipeline and waits for it: a driver that finishes
    /// a shader at its first draw does it here, before the swap, so the first frame after
    /// `reloaded` is not the one that stalls. (llvmpipe does so on its one queue, for
    /// seconds with a large graph: the window's frames wait meanwhile, as they would at
    /// that first frame. The screenshot pipeline is left to its first screenshot.)
    fn warm_up(&self, window: &wgpu::RenderPipeline) -> Result<()> {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("preview warm-up encoder"),
            });
        let texture = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("preview warm-up target"),
            size: wgpu::Extent3d {
                width: 1,
                height: 1,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: self.window_format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        {
            let mut pass = begin_pass(&mut encoder, "preview warm-up pass", &view, None);
            pass.set_pipeline(window);
            pass.set_bind_group(0, &self.uniform_group, &[]);
            pass.set_bind_group(self.noise_group.0, &self.noise_group.1, &[]);
            pass.draw(0..3, 0..1);
        }
        let submission = self.queue.submit([encoder.finish()]);
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(submission),
                timeout: Some(READBACK_TIMEOUT),
            })
            .context("drawing with the new pipelines")?;
        Ok(())
    }
}

fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    format: wgpu::TextureFormat,
    graph: bool,
    label: &str,
) -> wgpu::RenderPipeline {
    let flag = |on: bool| if on { 1.0 } else { 0.0 };
    let constants = [
        ("TARGET_SRGB", flag(format.is_srgb())),
        ("GRAPH", flag(graph)),
    ];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_fullscreen"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some("fs_noise"),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                ..Default::default()
            },
            targets: &[Some(format.into())],
        }),
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// Writes a [`Renderer::screenshot`] (`width` × `height`, rows top to bottom, gray or
/// RGBA as `pixels.len()` says) to `path` as an 8-bit PNG, completely or not at all (the
/// library's one PNG path for whole pictures), replacing an existing file only with
/// `overwrite`.
pub fn write_png(
    path: &Path,
    width: u32,
    height: u32,
    pixels: &[u8],
    overwrite: bool,
) -> Result<()> {
    if !overwrite {
        crate::bake::file::check_target(path, false).map_err(super::screenshot_exists_hint)?;
    }
    let channels = if pixels.len() == width as usize * height as usize {
        Channels::Gray
    } else {
        Channels::Rgba
    };
    write_png8(path, width, height, channels, pixels)?;
    Ok(())
}
