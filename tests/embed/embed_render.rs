//! The noise functions inside an application's own **render** pipeline: a full-screen
//! triangle whose fragment shader calls them, rendered into an R32Float target, read back
//! and compared with the CPU `f32` reference; the bind group index the application
//! chooses; seed changes without rebuilding the pipeline.
//!
//! Sample points: the fragment at pixel (i, j) receives `@builtin(position).xy` =
//! (i + 0.5, j + 0.5) (pixel centres, no multisampling), which `vec2<u32>` truncates back
//! to the exact integers (i, j). From there both sides do the same `f32` arithmetic,
//! `offset + step * f32(index)`, as the fill shader and its CPU mirror do.

use crate::common;

use std::time::Duration;

use wgpu::util::DeviceExt;
use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};
use wgpu_noise::gpu::readback::{map_and_read, padded_row_bytes, unpad_rows};
use wgpu_noise::gpu::GpuContext;
use wgpu_noise::{cpu, tables::PermutationTables, NoiseError, NoiseKind};

/// The documented parity tolerance of the compute path (absolute), used here unchanged:
/// the fragment stage runs the same WGSL functions on the same `f32` inputs.
const TOLERANCE: f32 = 1e-5;

/// 67 × 45: 268 bytes per row, padded to 512 in the readback copy, so a mistake in the
/// row padding shows up as a mismatch.
const WIDTH: u32 = 67;
const HEIGHT: u32 = 45;

/// Out of the noise range: a pixel the triangle failed to cover keeps it.
const CLEAR_VALUE: f32 = -7.0;

/// The six functions, as (kind, dimensions, WGSL name); the index is `Params::which`.
const FUNCTIONS: [(NoiseKind, usize, &str); 6] = [
    (NoiseKind::Classic, 2, "classic2"),
    (NoiseKind::Classic, 3, "classic3"),
    (NoiseKind::Classic, 4, "classic4"),
    (NoiseKind::Simplex, 2, "simplex2"),
    (NoiseKind::Simplex, 3, "simplex3"),
    (NoiseKind::Simplex, 4, "simplex4"),
];

/// The application's own uniform. Keep in sync with `struct Params` in `PARITY_SHADER`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    offset: [f32; 4],
    step: [f32; 4],
    /// x: index into `FUNCTIONS`; the rest pads to 16 bytes.
    which: [u32; 4],
}

const PARAMS: Params = Params {
    offset: [-3.2, 1.1, 300.0, -7.0],
    step: [0.173, 0.091, 0.057, 0.033],
    which: [0; 4],
};

/// A full-screen triangle and a fragment shader evaluating one of the six functions.
/// The application's uniform is at group 0; the noise group is chosen by the test.
const PARITY_SHADER: &str = r#"
// Keep in sync with `Params` in tests/embed/embed_render.rs.
struct Params {
    offset: vec4<f32>,
    step: vec4<f32>,
    which: vec4<u32>,
}
@group(0) @binding(0) var<uniform> params: Params;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) pos: vec4<f32>) -> @location(0) f32 {
    let ij = vec2<u32>(pos.xy);  // pixel centre (i + 0.5, j + 0.5) -> (i, j), exactly
    let index = vec4<u32>(ij.x, ij.y, ij.x + ij.y, ij.x + 2u * ij.y);
    let p = params.offset + params.step * vec4<f32>(index);
    switch params.which.x {
        case 0u: { return classic2(p.xy); }
        case 1u: { return classic3(p.xyz); }
        case 2u: { return classic4(p); }
        case 3u: { return simplex2(p.xy); }
        case 4u: { return simplex3(p.xyz); }
        default: { return simplex4(p); }
    }
}
"#;

/// The CPU reference of `PARITY_SHADER` for function `which`, row by row.
fn cpu_reference(lut: &PermutationTables, params: &Params, which: usize) -> Vec<f32> {
    let (kind, dims, _) = FUNCTIONS[which];
    let mut out = Vec::with_capacity((WIDTH * HEIGHT) as usize);
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let index = [x, y, x + y, x + 2 * y];
            let p: [f32; 4] =
                std::array::from_fn(|a| params.offset[a] + params.step[a] * index[a] as f32);
            out.push(cpu::noise_at::<f32>(lut, kind, &p[..dims]));
        }
    }
    out
}

/// An application's render setup: its uniform and bind group at group 0, a pipeline
/// drawing into R32Float, the noise at `noise.group()` (unused indices in between left
/// empty).
struct App {
    params: wgpu::Buffer,
    params_group: wgpu::BindGroup,
    pipeline: wgpu::RenderPipeline,
    target: wgpu::Texture,
    readback: wgpu::Buffer,
}

impl App {
    fn new(ctx: &GpuContext, noise: &NoiseBindings, shader: &str, uniform_bytes: &[u8]) -> App {
        let device = &ctx.device;
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("test params"),
            contents: uniform_bytes,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let params_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("test params layout"),
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
        let params_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("test params group"),
            layout: &params_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: params.as_entire_binding(),
            }],
        });
        let module = noise
            .create_shader_module(device, Some("test fragment shader"), shader)
            .unwrap();
        let mut layouts: Vec<Option<&wgpu::BindGroupLayout>> =
            vec![None; noise.group() as usize + 1];
        layouts[0] = Some(&params_layout);
        layouts[noise.group() as usize] = Some(noise.layout());
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("test pipeline layout"),
            bind_group_layouts: &layouts,
            immediate_size: 0,
        });
        let pipeline = crate::embed_support::r32float_pipeline(
            device,
            "test render pipeline",
            &layout,
            &module,
        );
        let target = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("test R32Float target"),
            size: wgpu::Extent3d {
                width: WIDTH,
                height: HEIGHT,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R32Float,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("test readback"),
            size: u64::from(padded_row_bytes(WIDTH)) * u64::from(HEIGHT),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        App {
            params,
            params_group,
            pipeline,
            target,
            readback,
        }
    }

    /// Renders one frame with `uniform_bytes` and returns the target, row padding removed.
    fn render(&self, ctx: &GpuContext, noise: &NoiseBindings, uniform_bytes: &[u8]) -> Vec<f32> {
        ctx.queue.write_buffer(&self.params, 0, uniform_bytes);
        let view = self.target.create_view(&Default::default());
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("test frame"),
            });
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("test noise pass"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: CLEAR_VALUE as f64,
                            g: 0.0,
                            b: 0.0,
                            a: 1.0,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.params_group, &[]);
            noise.set_render(&mut pass);
            pass.draw(0..3, 0..1);
        }
        let padded = padded_row_bytes(WIDTH);
        encoder.copy_texture_to_buffer(
            self.target.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(HEIGHT),
                },
            },
            wgpu::Extent3d {
                width: WIDTH,
                height: HEIGHT,
                depth_or_array_layers: 1,
            },
        );
        let submission = ctx.queue.submit([encoder.finish()]);
        let mut out = Vec::with_capacity((WIDTH * HEIGHT) as usize);
        map_and_read(
            &ctx.device,
            &self.readback,
            submission,
            Duration::from_secs(120),
            |bytes| unpad_rows(bytes, WIDTH, HEIGHT as usize, padded, &mut out),
        )
        .unwrap();
        out
    }
}

fn max_abs_error(gpu: &[f32], cpu: &[f32]) -> f32 {
    assert_eq!(gpu.len(), cpu.len());
    assert!(
        !gpu.contains(&CLEAR_VALUE),
        "some pixels were not covered by the full-screen triangle"
    );
    gpu.iter()
        .zip(cpu)
        .map(|(a, b)| (a - b).abs())
        .fold(
            0.0f32,
            |m, e| if e.is_nan() { f32::INFINITY } else { m.max(e) },
        )
}

fn with_which(which: usize) -> Params {
    Params {
        which: [which as u32, 0, 0, 0],
        ..PARAMS
    }
}

#[test]
fn fragment_shader_noise_matches_the_cpu_reference_for_all_six_functions() {
    let Some(ctx) = common::gpu() else { return };
    let noise = NoiseBindings::new(
        &ctx.device,
        &ctx.queue,
        &NoiseBindingsDescriptor {
            group: 1,
            ..Default::default()
        },
    )
    .unwrap();
    let app = App::new(&ctx, &noise, PARITY_SHADER, bytemuck::bytes_of(&PARAMS));
    let lut = PermutationTables::new(0);
    for (which, (_, _, name)) in FUNCTIONS.iter().enumerate() {
        let params = with_which(which);
        let gpu = app.render(&ctx, &noise, bytemuck::bytes_of(&params));
        let cpu = cpu_reference(&lut, &params, which);
        let max = max_abs_error(&gpu, &cpu);
        let spread = gpu.iter().fold(f32::MIN, |m, &v| m.max(v))
            - gpu.iter().fold(f32::MAX, |m, &v| m.min(v));
        eprintln!("{name}: {WIDTH}x{HEIGHT} fragments, max abs error vs CPU f32 {max:e}, value spread {spread:.3}");
        assert!(
            max <= TOLERANCE,
            "{name}: max abs error {max:e} > {TOLERANCE:e}"
        );
        // Agreement on a constant picture would prove nothing.
        assert!(
            spread > 0.5,
            "{name}: the picture is nearly constant (spread {spread})"
        );
    }
}

#[test]
fn set_seed_changes_the_picture_of_the_same_pipeline_and_bind_group() {
    let Some(ctx) = common::gpu() else { return };
    let mut noise = NoiseBindings::new(
        &ctx.device,
        &ctx.queue,
        &NoiseBindingsDescriptor {
            group: 1,
            ..Default::default()
        },
    )
    .unwrap();
    let params = with_which(4); // simplex3
    let app = App::new(&ctx, &noise, PARITY_SHADER, bytemuck::bytes_of(&params));
    let before = app.render(&ctx, &noise, bytemuck::bytes_of(&params));

    noise.set_seed(&ctx.queue, 42);
    assert_eq!(noise.seed(), 42);
    let after = app.render(&ctx, &noise, bytemuck::bytes_of(&params));

    let changed = before.iter().zip(&after).filter(|(a, b)| a != b).count();
    let mean_diff = before
        .iter()
        .zip(&after)
        .map(|(a, b)| (a - b).abs())
        .sum::<f32>()
        / before.len() as f32;
    eprintln!(
        "seed 0 -> 42: {changed} of {} pixels changed, mean abs difference {mean_diff:.3}",
        before.len()
    );
    // Every pixel's value depends on the permutation; a handful may coincide by chance.
    assert!(
        changed * 10 > before.len() * 9,
        "only {changed} pixels changed"
    );
    let max = max_abs_error(
        &after,
        &cpu_reference(&PermutationTables::new(42), &params, 4),
    );
    eprintln!("seed 42: max abs error vs CPU f32 {max:e}");
    assert!(max <= TOLERANCE, "after set_seed: max abs error {max:e}");

    noise.set_seed(&ctx.queue, 0);
    let back = app.render(&ctx, &noise, bytemuck::bytes_of(&params));
    assert!(
        before == back,
        "returning to seed 0 should reproduce the first picture exactly"
    );
}

/// The application's uniform for `GROUPS_SHADER`: time and scale, as an animation would
/// have. Keep in sync with `struct Frame` there.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Frame {
    time: f32,
    scale: f32,
    _pad: [f32; 2],
}

const GROUPS_SHADER: &str = r#"
// Keep in sync with `Frame` in tests/embed/embed_render.rs.
struct Frame { time: f32, scale: f32, pad: vec2<f32> }
@group(0) @binding(0) var<uniform> frame: Frame;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) pos: vec4<f32>) -> @location(0) f32 {
    let ij = vec2<f32>(vec2<u32>(pos.xy));
    return simplex3(vec3<f32>(ij * frame.scale, frame.time));
}
"#;

#[test]
fn noise_at_a_nonzero_group_works_beside_the_applications_own_group_0() {
    let Some(ctx) = common::gpu() else { return };
    let max_groups = ctx.device.limits().max_bind_groups;
    let frame = Frame {
        time: 2.75,
        scale: 0.0625,
        _pad: [0.0; 2],
    };
    let lut = PermutationTables::new(5);
    let cpu: Vec<f32> = (0..HEIGHT)
        .flat_map(|y| (0..WIDTH).map(move |x| (x, y)))
        .map(|(x, y)| {
            cpu::noise_at::<f32>(
                &lut,
                NoiseKind::Simplex,
                &[x as f32 * frame.scale, y as f32 * frame.scale, frame.time],
            )
        })
        .collect();
    // Group 1 directly after the application's, and the highest group with empty ones between.
    for group in [1, max_groups - 1] {
        let desc = NoiseBindingsDescriptor {
            group,
            seed: 5,
            visibility: wgpu::ShaderStages::FRAGMENT,
        };
        let noise = NoiseBindings::new(&ctx.device, &ctx.queue, &desc).unwrap();
        assert_eq!(noise.group(), group);
        let app = App::new(&ctx, &noise, GROUPS_SHADER, bytemuck::bytes_of(&frame));
        let gpu = app.render(&ctx, &noise, bytemuck::bytes_of(&frame));
        let max = max_abs_error(&gpu, &cpu);
        let inexact = gpu.iter().zip(&cpu).filter(|(a, b)| a != b).count();
        eprintln!("noise at group {group} (application at 0): max abs error vs CPU f32 {max:e}, {inexact} of {} pixels not bit-identical", gpu.len());
        assert!(max <= TOLERANCE, "group {group}: max abs error {max:e}");
    }
}

#[test]
fn a_group_index_beyond_the_devices_limit_is_a_clear_error() {
    let Some(ctx) = common::gpu() else { return };
    let max_groups = ctx.device.limits().max_bind_groups;
    let desc = NoiseBindingsDescriptor {
        group: max_groups,
        ..Default::default()
    };
    match NoiseBindings::new(&ctx.device, &ctx.queue, &desc) {
        Err(e @ NoiseError::ExceedsLimit { .. }) => {
            eprintln!("{e}");
            assert!(e.to_string().contains(&max_groups.to_string()));
        }
        Err(other) => panic!("expected ExceedsLimit, got {other:?}"),
        Ok(_) => {
            panic!("group {max_groups} was accepted on a device with {max_groups} bind groups")
        }
    }
}

#[test]
fn bindings_visible_to_no_stage_are_a_clear_error() {
    let Some(ctx) = common::gpu() else { return };
    let desc = NoiseBindingsDescriptor {
        visibility: wgpu::ShaderStages::empty(),
        ..Default::default()
    };
    let err = NoiseBindings::new(&ctx.device, &ctx.queue, &desc)
        .err()
        .expect("empty visibility accepted");
    eprintln!("{err}");
    assert!(matches!(err, NoiseError::InvalidArgument(_)), "{err:?}");
}
