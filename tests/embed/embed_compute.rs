//! The noise functions inside an application's own **compute** pipeline: the application's
//! storage buffers at group 0, the noise at group 1 visible to the compute stage only,
//! compared with the CPU `f32` reference at the same points.

use crate::common;

use crate::embed_support::{check_six, points, six_function_kernel, AppBuffers, APP_BINDINGS};
use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};
use wgpu_noise::tables::PermutationTables;

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
    let app = AppBuffers::new(device, &points, 6);
    // The application's kernel: one point in, all six noise values out.
    let kernel = format!("{APP_BINDINGS}{}", six_function_kernel(""));
    let module = noise
        .create_shader_module(device, Some("test compute shader"), &kernel)
        .unwrap();
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("test compute pipeline layout"),
        bind_group_layouts: &[Some(&app.layout), Some(noise.layout())],
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
        pass.set_bind_group(0, &app.group, &[]);
        noise.set_compute(&mut pass);
        pass.dispatch_workgroups(app.workgroups, 1, 1);
    }
    let gpu = app.submit_and_read(device, queue, encoder);
    check_six(
        "compute pipeline",
        &gpu,
        &points,
        &PermutationTables::new(seed),
    );
}
