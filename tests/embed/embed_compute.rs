//! The noise functions inside an application's own **compute** pipeline: the application's
//! storage buffers at group 0, the noise at group 1 visible to the compute stage only,
//! compared with the CPU `f32` reference at the same points.

use crate::common;

use std::time::Duration;

use wgpu::util::DeviceExt;
use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};
use wgpu_noise::gpu::readback::map_and_read;
use wgpu_noise::{cpu, tables::PermutationTables, NoiseKind};

/// The documented parity tolerance of the compute path (absolute).
const TOLERANCE: f32 = 1e-5;

/// The application's kernel: one point in, all six noise values out.
const KERNEL: &str = r#"
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

/// Scattered points over [-300, 300)⁴ (a fixed linear congruential sequence), so they
/// cover negative cells and more than one 256-cell period.
fn points(n: usize) -> Vec<[f32; 4]> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 40) as f32 / (1u64 << 24) as f32) * 600.0 - 300.0
    };
    (0..n).map(|_| [next(), next(), next(), next()]).collect()
}

#[test]
fn compute_shader_noise_matches_the_cpu_reference_for_all_six_functions() {
    let Some(ctx) = common::gpu() else { return };
    let (device, queue) = (&ctx.device, &ctx.queue);
    let seed = 3;
    let desc = NoiseBindingsDescriptor {
        group: 1,
        seed,
        visibility: wgpu::ShaderStages::COMPUTE,
    };
    let noise = NoiseBindings::new(device, queue, &desc).unwrap();

    let points = points(4000);
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("test points"),
        contents: bytemuck::cast_slice(&points),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let bytes = (points.len() * 6 * 4) as u64;
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test values"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test values readback"),
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
        label: Some("test compute layout"),
        entries: &[storage(0, true), storage(1, false)],
    });
    let app_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("test compute group"),
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
    let module = noise
        .create_shader_module(device, Some("test compute shader"), KERNEL)
        .unwrap();
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("test compute pipeline layout"),
        bind_group_layouts: &[Some(&app_layout), Some(noise.layout())],
        immediate_size: 0,
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("test compute pipeline"),
        layout: Some(&layout),
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });

    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("test compute"),
    });
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("test noise"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &app_group, &[]);
        noise.set_compute(&mut pass);
        pass.dispatch_workgroups((points.len() as u32).div_ceil(64), 1, 1);
    }
    encoder.copy_buffer_to_buffer(&output, 0, &staging, 0, bytes);
    let submission = queue.submit([encoder.finish()]);
    let gpu: Vec<f32> = map_and_read(
        device,
        &staging,
        submission,
        Duration::from_secs(120),
        |b| bytemuck::cast_slice(b).to_vec(),
    )
    .unwrap();

    let lut = PermutationTables::new(seed);
    let names = [
        "classic2", "classic3", "classic4", "simplex2", "simplex3", "simplex4",
    ];
    for (f, name) in names.iter().enumerate() {
        let kind = if f < 3 {
            NoiseKind::Classic
        } else {
            NoiseKind::Simplex
        };
        let dims = f % 3 + 2;
        let mut max = 0.0f32;
        let mut nonzero = 0;
        for (i, p) in points.iter().enumerate() {
            let g = gpu[6 * i + f];
            let c = cpu::noise_at::<f32>(&lut, kind, &p[..dims]);
            let e = (g - c).abs();
            max = if e.is_nan() {
                f32::INFINITY
            } else {
                max.max(e)
            };
            nonzero += usize::from(g != 0.0);
        }
        eprintln!(
            "{name}: {} points, max abs error vs CPU f32 {max:e}",
            points.len()
        );
        assert!(
            max <= TOLERANCE,
            "{name}: max abs error {max:e} > {TOLERANCE:e}"
        );
        assert!(
            nonzero * 2 > points.len(),
            "{name}: mostly zeros; the shader may not have run"
        );
    }
}
