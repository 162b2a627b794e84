//! Using wgpu-noise inside your own wgpu application: an animated marble material.
//!
//! The application owns everything here (device, pipeline, uniform, render pass); the
//! library contributes one [`NoiseBindings`]: the WGSL of the noise functions, a bind group
//! layout for the pipeline layout, and a bind group for the pass. Read `Marble` first:
//! it is all a renderer needs to add.
//!
//! ```text
//! cargo run --release --example embed -- marble.png                 # headless, to a PNG
//! cargo run --release --example embed -- marble.png --size 1024x512 --time 3.5 --seed 7
//! cargo run --release --example embed -- --window                   # live (needs a display)
//! ```
//!
//! In the window, Space switches to the next seed (the same pipeline, new tables) and
//! Escape closes it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Parser;
use wgpu::util::DeviceExt;
use wgpu_noise::bake::Channels;
use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};

/// Per-frame parameters of the material.
///
/// Keep in sync with `struct Frame` in `MARBLE_WGSL` (four `f32`: no padding rules apply).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Frame {
    /// Seconds since the start of the animation.
    pub time: f32,
    /// Noise cells across the height of the picture.
    pub scale: f32,
    /// Width / height of the target, so the pattern is not stretched.
    pub aspect: f32,
    /// Pads the struct to 16 bytes.
    pub _pad: f32,
}

impl Frame {
    /// The frame at `time` for a `width` × `height` target.
    pub fn new(time: f32, width: u32, height: u32) -> Frame {
        Frame {
            time,
            scale: 3.0,
            aspect: width as f32 / height.max(1) as f32,
            _pad: 0.0,
        }
    }
}

/// The application's shader. It declares only its own binding (group 0) and calls
/// `fractal3` and `classic3` as if it had written them: `NoiseBindings` prepends them.
const MARBLE_WGSL: &str = r#"
// Keep in sync with `Frame` in examples/embed.rs.
struct Frame { time: f32, scale: f32, aspect: f32, pad: f32 }
@group(0) @binding(0) var<uniform> frame: Frame;

struct VertexOut {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

// One triangle that covers the whole target: no vertex buffer needed.
@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> VertexOut {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    var out: VertexOut;
    out.position = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let p = vec2<f32>(in.uv.x * frame.aspect, in.uv.y) * frame.scale;
    let t = frame.time * 0.15;
    // The library's fractal sum (fractal3, NoiseSettings and the constants come with the
    // noise functions): five octaves of simplex fBm, not tiled, with the continuous kernel
    // (no small jumps at simplex boundaries for the veins to trace).
    let fbm5 = NoiseSettings(vec4<f32>(0.0), 5u, WGPU_NOISE_FRACTAL_FBM, 2.03, 0.5, WGPU_NOISE_KERNEL_CONTINUOUS, WGPU_NOISE_CELLULAR_F1, WGPU_NOISE_CELLULAR_DISTANCE_EUCLIDEAN, 1.0, 0.0, 1.0, 1u, 0u, 0.0);
    // Marble: parallel bands, their phase displaced by turbulence.
    let turbulence = fractal3(WGPU_NOISE_SIMPLEX, vec3<f32>(p, t), fbm5);
    let bands = sin((p.x + 0.6 * p.y) * 3.0 + turbulence * 3.0);
    let vein = pow(1.0 - abs(bands), 2.5);
    // Clouding of the stone: a slower, broader layer.
    let cloud = fractal3(WGPU_NOISE_SIMPLEX, vec3<f32>(p * 0.5 + 11.0, t * 0.5), fbm5);
    // A faint grain of fine classic noise, so flat areas are not flat.
    let grain = 0.025 * classic3(vec3<f32>(p * 40.0, t));
    let stone = mix(vec3<f32>(0.93, 0.91, 0.87), vec3<f32>(0.72, 0.70, 0.68), clamp(0.5 + cloud, 0.0, 1.0));
    let vein_colour = vec3<f32>(0.16, 0.19, 0.26);
    let colour = mix(stone, vein_colour, vein * 0.85) + grain;
    return vec4<f32>(clamp(colour, vec3<f32>(0.0), vec3<f32>(1.0)), 1.0);
}
"#;

/// The marble material: the application's own pipeline and uniform, plus the noise.
///
/// Use it like any renderer in the style of glyphon: [`Marble::prepare`] uploads the frame
/// parameters, [`Marble::render`] records into a render pass the caller owns.
pub struct Marble {
    pipeline: wgpu::RenderPipeline,
    frame: wgpu::Buffer,
    frame_group: wgpu::BindGroup,
    noise: NoiseBindings,
}

impl Marble {
    /// Builds the pipeline for targets of `format`, with the noise tables of `seed`.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        seed: u64,
    ) -> anyhow::Result<Marble> {
        // 1. The noise: group 1, because the application's own uniform is at group 0.
        let noise = NoiseBindings::new(
            device,
            queue,
            &NoiseBindingsDescriptor {
                group: 1,
                seed,
                visibility: wgpu::ShaderStages::FRAGMENT,
            },
        )?;

        // 2. The application's own binding, exactly as it would be without the library.
        let frame = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("marble frame uniform"),
            contents: bytemuck::bytes_of(&Frame::new(0.0, 1, 1)),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("marble frame layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let frame_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("marble frame group"),
            layout: &frame_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: frame.as_entire_binding(),
            }],
        });

        // 3. The shader: the noise functions prepended to ours, checked by naga first, so a
        //    mistake in MARBLE_WGSL is an error naming its line rather than a wgpu panic.
        let module = noise.create_shader_module(device, Some("marble shader"), MARBLE_WGSL)?;

        // 4. The pipeline layout: our group 0, the noise at its group.
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("marble pipeline layout"),
            bind_group_layouts: &[Some(&frame_layout), Some(noise.layout())],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("marble pipeline"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            multiview_mask: None,
            cache: None,
        });
        Ok(Marble {
            pipeline,
            frame,
            frame_group,
            noise,
        })
    }

    /// Uploads this frame's parameters (takes effect with the next submission).
    pub fn prepare(&self, queue: &wgpu::Queue, frame: &Frame) {
        queue.write_buffer(&self.frame, 0, bytemuck::bytes_of(frame));
    }

    /// Another pattern, same pipeline: the noise tables are rewritten in place.
    pub fn set_seed(&mut self, queue: &wgpu::Queue, seed: u64) {
        self.noise.set_seed(queue, seed);
    }

    /// The seed of the current pattern.
    pub fn seed(&self) -> u64 {
        self.noise.seed()
    }

    /// Records the material into `pass`: a full-screen triangle.
    pub fn render(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.frame_group, &[]);
        self.noise.set_render(pass); // its bind group, at the index it was created for
        pass.draw(0..3, 0..1);
    }

    /// Records a render pass that clears `view` and draws the material into it (what both
    /// the headless and the window path of this example do each frame).
    pub fn draw_to(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        view: &wgpu::TextureView,
        label: &str,
    ) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(label),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
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
        self.render(&mut pass);
    }
}

/// The device an application would already have (here: the adapter named by
/// `WGPU_BACKEND` / `WGPU_ADAPTER_NAME`, or the default one).
async fn request_device(
    instance: &wgpu::Instance,
    surface: Option<&wgpu::Surface<'_>>,
) -> anyhow::Result<(wgpu::Adapter, wgpu::Device, wgpu::Queue)> {
    // (wgpu::util::initialize_adapter_from_env_or_default does the same, but panics when
    // WGPU_ADAPTER_NAME names no adapter; an application should say so instead.)
    let adapter = match std::env::var("WGPU_ADAPTER_NAME") {
        Ok(name) => {
            let wanted = name.to_lowercase();
            instance
                .enumerate_adapters(wgpu::Backends::all())
                .await
                .into_iter()
                .find(|a| {
                    a.get_info().name.to_lowercase().contains(&wanted)
                        && surface.is_none_or(|s| a.is_surface_supported(s))
                })
                .with_context(|| format!("WGPU_ADAPTER_NAME={name} names no usable adapter"))?
        }
        Err(_) => instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::from_env().unwrap_or_default(),
                compatible_surface: surface,
                ..Default::default()
            })
            .await
            .context("no GPU adapter (on Linux without a GPU: install mesa-vulkan-drivers)")?,
    };
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("embed example device"),
            ..Default::default()
        })
        .await
        .context("could not create a GPU device")?;
    Ok((adapter, device, queue))
}

/// The format of the headless target: sRGB, so the PNG's bytes are display-ready.
const HEADLESS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Renders one frame of `marble` (built for [`HEADLESS_FORMAT`]) into a `width` × `height`
/// texture and reads it back as tightly packed RGBA8 rows.
pub fn render_rgba(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    marble: &Marble,
    width: u32,
    height: u32,
    time: f32,
) -> anyhow::Result<Vec<u8>> {
    let max = device.limits().max_texture_dimension_2d;
    if width > max || height > max {
        bail!("{width}x{height} is larger than this device's largest texture ({max}x{max})");
    }
    let size = wgpu::Extent3d {
        width,
        height,
        depth_or_array_layers: 1,
    };
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("marble headless target"),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: HEADLESS_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    // Texture-to-buffer copies need rows padded to 256 bytes.
    let row_bytes = width * 4;
    let padded = row_bytes.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("marble readback"),
        size: u64::from(padded) * u64::from(height),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    marble.prepare(queue, &Frame::new(time, width, height));
    let view = target.create_view(&Default::default());
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("marble frame"),
    });
    marble.draw_to(&mut encoder, &view, "marble pass");
    encoder.copy_texture_to_buffer(
        target.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &readback,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        size,
    );
    let submission = queue.submit([encoder.finish()]);
    // The library's bounded wait-and-map helper: a stuck device is an error, not a hang.
    let rgba = wgpu_noise::low_level::map_and_read(
        device,
        &readback,
        submission,
        std::time::Duration::from_secs(120),
        |bytes| {
            bytes
                .chunks(padded as usize)
                .flat_map(|row| &row[..row_bytes as usize])
                .copied()
                .collect()
        },
    )?;
    Ok(rgba)
}

/// Writes `rgba` as a PNG, completely or not at all (the library's PNG writer for whole
/// pictures, behind its `bake` feature).
fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        bail!(
            "cannot write {}: the directory {} does not exist",
            path.display(),
            dir.display()
        );
    }
    wgpu_noise::bake::write_png8(path, width, height, Channels::Rgba, rgba)?;
    Ok(())
}

/// The command line.
#[derive(Parser, Debug)]
#[command(about = "An animated marble material that calls wgpu-noise from its own fragment shader")]
pub struct Args {
    /// The PNG file to render to (headless).
    pub output: Option<PathBuf>,
    /// Picture size, WIDTHxHEIGHT.
    #[arg(long, default_value = "512x512", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Animation time in seconds (the headless frame).
    #[arg(long, default_value_t = 0.0)]
    pub time: f32,
    /// Noise seed (0 = Perlin's permutation).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Show the animation in a window (needs a display and the `preview` feature).
    #[arg(long)]
    pub window: bool,
    /// With --window: close after this many frames.
    #[arg(long)]
    pub frames: Option<u64>,
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, got `{s}`"))?;
    let parse = |v: &str| v.trim().parse::<u32>().ok().filter(|&n| n > 0);
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!(
            "expected two positive whole numbers WIDTHxHEIGHT, got `{s}`"
        )),
    }
}

/// Renders the headless frame `args` describes and writes it to `path`.
pub fn render_png(path: &Path, args: &Args) -> anyhow::Result<()> {
    if !path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        bail!("the output must be a .png file, not `{}`", path.display());
    }
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let (_adapter, device, queue) = pollster::block_on(request_device(&instance, None))?;
    let marble = Marble::new(&device, &queue, HEADLESS_FORMAT, args.seed)?;
    let (width, height) = args.size;
    let rgba = render_rgba(&device, &queue, &marble, width, height, args.time)?;
    write_png(path, width, height, &rgba)
}

/// Does what `args` asks: a PNG, a window, or both.
pub fn run(args: &Args) -> anyhow::Result<()> {
    if args.output.is_none() && !args.window {
        bail!("give an output PNG path, or --window");
    }
    if let Some(path) = &args.output {
        render_png(path, args)?;
        println!(
            "wrote {} ({}x{}, time {}, seed {})",
            path.display(),
            args.size.0,
            args.size.1,
            args.time,
            args.seed
        );
    }
    if args.window {
        window::run(args)?;
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    match run(&Args::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Without the `preview` feature there is no windowing library to open a window with.
#[cfg(not(feature = "preview"))]
mod window {
    pub fn run(_: &super::Args) -> anyhow::Result<()> {
        anyhow::bail!(
            "this build has no window support: build with the `preview` feature (on by default)"
        )
    }
}

/// The same `Marble`, drawn into a window's surface every frame.
#[cfg(feature = "preview")]
mod window {
    use std::sync::Arc;
    use std::time::Instant;

    use anyhow::Context;
    use winit::application::ApplicationHandler;
    use winit::event::{ElementState, KeyEvent, WindowEvent};
    use winit::event_loop::{ActiveEventLoop, EventLoop};
    use winit::keyboard::{Key, NamedKey};
    use winit::window::{Window, WindowId};

    use super::{request_device, Args, Frame, Marble};

    pub fn run(args: &Args) -> anyhow::Result<()> {
        let event_loop = EventLoop::new().context("cannot open a window here (no display?)")?;
        let mut app = App {
            args,
            state: None,
            error: None,
            start: Instant::now(),
            frames: 0,
        };
        event_loop
            .run_app(&mut app)
            .context("the window's event loop failed")?;
        app.error.map_or(Ok(()), Err)
    }

    struct State {
        window: Arc<Window>,
        surface: wgpu::Surface<'static>,
        device: wgpu::Device,
        queue: wgpu::Queue,
        config: wgpu::SurfaceConfiguration,
        marble: Marble,
    }

    struct App<'a> {
        args: &'a Args,
        state: Option<State>,
        error: Option<anyhow::Error>,
        start: Instant,
        frames: u64,
    }

    impl App<'_> {
        fn init(&self, event_loop: &ActiveEventLoop) -> anyhow::Result<State> {
            let (width, height) = self.args.size;
            let attributes = Window::default_attributes()
                .with_title("wgpu-noise: marble (Space: next seed, Esc: quit)")
                .with_inner_size(winit::dpi::PhysicalSize::new(width, height));
            let window = Arc::new(
                event_loop
                    .create_window(attributes)
                    .context("cannot create a window")?,
            );
            let instance =
                wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
                    Box::new(event_loop.owned_display_handle()),
                ));
            let surface = instance
                .create_surface(window.clone())
                .context("cannot create a surface for the window")?;
            let (adapter, device, queue) =
                pollster::block_on(request_device(&instance, Some(&surface)))?;
            let size = window.inner_size();
            let config = surface
                .get_default_config(&adapter, size.width.max(1), size.height.max(1))
                .context("the adapter cannot present to this window")?;
            surface.configure(&device, &config);
            let marble = Marble::new(&device, &queue, config.format, self.args.seed)?;
            Ok(State {
                window,
                surface,
                device,
                queue,
                config,
                marble,
            })
        }

        fn draw(&mut self, event_loop: &ActiveEventLoop) {
            let Some(s) = &mut self.state else { return };
            let frame = match s.surface.get_current_texture() {
                wgpu::CurrentSurfaceTexture::Success(t)
                | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
                wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                    return
                }
                _ => {
                    s.surface.configure(&s.device, &s.config);
                    return;
                }
            };
            let view = frame.texture.create_view(&Default::default());
            let time = self.args.time + self.start.elapsed().as_secs_f32();
            s.marble
                .prepare(&s.queue, &Frame::new(time, s.config.width, s.config.height));
            let mut encoder = s
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("marble window frame"),
                });
            s.marble.draw_to(&mut encoder, &view, "marble window pass");
            s.queue.submit([encoder.finish()]);
            s.queue.present(frame);
            self.frames += 1;
            if self.args.frames.is_some_and(|n| self.frames >= n) {
                event_loop.exit();
            } else {
                s.window.request_redraw();
            }
        }
    }

    impl ApplicationHandler for App<'_> {
        fn resumed(&mut self, event_loop: &ActiveEventLoop) {
            if self.state.is_some() {
                return;
            }
            match self.init(event_loop) {
                Ok(state) => {
                    state.window.request_redraw();
                    self.state = Some(state);
                }
                Err(e) => {
                    self.error = Some(e);
                    event_loop.exit();
                }
            }
        }

        fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
            match event {
                WindowEvent::CloseRequested => event_loop.exit(),
                WindowEvent::KeyboardInput {
                    event:
                        KeyEvent {
                            logical_key,
                            state: ElementState::Pressed,
                            ..
                        },
                    ..
                } => match logical_key {
                    Key::Named(NamedKey::Escape) => event_loop.exit(),
                    Key::Named(NamedKey::Space) => {
                        if let Some(s) = &mut self.state {
                            let seed = s.marble.seed().wrapping_add(1);
                            s.marble.set_seed(&s.queue, seed);
                            s.window.set_title(&format!(
                                "wgpu-noise: marble, seed {seed} (Space: next seed, Esc: quit)"
                            ));
                        }
                    }
                    _ => {}
                },
                WindowEvent::Resized(size) => {
                    if let Some(s) = &mut self.state {
                        s.config.width = size.width.max(1);
                        s.config.height = size.height.max(1);
                        s.surface.configure(&s.device, &s.config);
                        s.window.request_redraw();
                    }
                }
                WindowEvent::RedrawRequested => self.draw(event_loop),
                _ => {}
            }
        }
    }
}
