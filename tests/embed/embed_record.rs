//! `GpuNoise::record`: one call records any graph into a texture the application owns, on
//! the kernel the planner picks. A graph of the hand-written fill's shape (a source, a
//! fractal of it, a warp of that) is stored straight into a `STORAGE_BINDING` texture; any
//! graph, or a texture that allows only copies, runs the graph's own pipeline copied into a
//! `COPY_DST` texture. Both hold the f32 CPU evaluator's values within the parity bound, on
//! every backend; a graph of the fill's shape rebuilt with new parameters (an animation, a
//! slider being dragged) compiles no new pipeline.

use crate::common;

use wgpu_noise::field::FlagField;
use wgpu_noise::graph::{Graph, Node, Program};
use wgpu_noise::{FieldOutput, GpuNoise, NoiseError, NoiseKind, TextureFill};

const SIZE: [u32; 2] = [37, 21];

/// Warped simplex fBm, the warp's fBm summed as the field's (the fill's shape).
fn warped_fbm(gain: f64, amplitude: f64) -> Node {
    Node::simplex()
        .fbm()
        .with("octaves", 4)
        .with("gain", gain)
        .warp(amplitude)
        .with("gain", gain)
}

fn program(node: &Node) -> Program {
    Graph::from_node(node)
        .unwrap()
        .program(2, [0.0; 4])
        .unwrap()
}

fn grid() -> FlagField {
    FlagField::new(NoiseKind::Simplex, &SIZE)
        .with_frequency(&[4.0, 3.0])
        .with_offset(&[-7.25, 2.5])
}

fn texture(device: &wgpu::Device, usage: wgpu::TextureUsages) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("the application's noise"),
        size: wgpu::Extent3d {
            width: SIZE[0],
            height: SIZE[1],
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::R32Float,
        usage: usage | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// Records `program` on `field` into `target`, submits, and reads the texture back.
fn record_and_read(
    ctx: &wgpu_noise::GpuContext,
    noise: &GpuNoise,
    program: &Program,
    field: &FlagField,
    target: &wgpu::Texture,
) -> Vec<f32> {
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    noise
        .record(
            &mut encoder,
            &TextureFill {
                program,
                field,
                output: FieldOutput::Value,
                texture: target,
            },
        )
        .unwrap();
    ctx.queue.submit([encoder.finish()]);
    crate::embed_support::read_texture(&ctx.device, &ctx.queue, target)
}

/// The f32 CPU evaluator at every texel's sample point (`offset + frequency · i / size`).
fn cpu_values(node: &Node, field: &FlagField) -> Vec<f32> {
    let mut sampler = Graph::from_node(node).unwrap().sampler(2, 0).unwrap();
    let step: Vec<f64> = (0..2)
        .map(|a| field.frequency[a] / field.size[a] as f64)
        .collect();
    let mut out = Vec::new();
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let p = [
                (field.offset[0] + step[0] * x as f64) as f32,
                (field.offset[1] + step[1] * y as f64) as f32,
            ];
            out.push(sampler.value(&p));
        }
    }
    out
}

#[test]
fn a_graph_of_the_fills_shape_lands_in_a_storage_or_a_copy_texture_as_the_cpu_computes_it() {
    use wgpu::TextureUsages as U;
    for (backend, ctx) in common::gpu_per_backend() {
        let noise = GpuNoise::new(&ctx.device, &ctx.queue, 0).unwrap();
        let field = grid();
        for node in [warped_fbm(0.5, 0.3), Node::cellular().ridged()] {
            let program = program(&node);
            let cpu = cpu_values(&node, &field);
            let bound = wgpu_noise::gpu::parity::graph_tolerance(&program);
            for usage in [U::STORAGE_BINDING, U::COPY_DST] {
                let target = texture(&ctx.device, usage);
                let got = record_and_read(&ctx, &noise, &program, &field, &target);
                let worst = got
                    .iter()
                    .zip(&cpu)
                    .map(|(g, c)| (g - c).abs())
                    .fold(0.0f32, f32::max);
                eprintln!(
                    "{backend} {usage:?}: max |texture − cpu| = {worst:.2e} (bound {bound:.0e})"
                );
                assert!(
                    got.iter().all(|v| v.is_finite()) && worst <= bound,
                    "{backend} {usage:?}: {worst} > {bound}"
                );
            }
        }
    }
}

#[test]
fn a_graph_of_the_fills_shape_rebuilt_with_new_parameters_compiles_nothing_new() {
    let Some(ctx) = common::gpu() else { return };
    let noise = GpuNoise::new(&ctx.device, &ctx.queue, 0).unwrap();
    let field = grid();
    let target = texture(&ctx.device, wgpu::TextureUsages::STORAGE_BINDING);
    let frame = |gain: f64, amplitude: f64| {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        let program = program(&warped_fbm(gain, amplitude));
        noise
            .record(
                &mut encoder,
                &TextureFill {
                    program: &program,
                    field: &field,
                    output: FieldOutput::Value,
                    texture: &target,
                },
            )
            .unwrap();
        ctx.queue.submit([encoder.finish()]);
    };
    frame(0.5, 0.3);
    let compiled = noise.compiled_pipelines();
    assert!(compiled >= 1);
    for i in 1..20 {
        frame(0.5 - 0.01 * i as f64, 0.3 + 0.02 * i as f64);
    }
    assert_eq!(noise.compiled_pipelines(), compiled);

    // Another shape (a graph the fill does not compute) needs its own pipeline, once.
    let copy = texture(&ctx.device, wgpu::TextureUsages::COPY_DST);
    let other = program(&(Node::simplex() * Node::classic()));
    for _ in 0..3 {
        record_and_read(&ctx, &noise, &other, &field, &copy);
    }
    assert_eq!(noise.compiled_pipelines(), compiled + 1);
}

#[test]
fn a_texture_neither_stored_to_nor_copied_into_is_refused_naming_both_usages() {
    let Some(ctx) = common::gpu() else { return };
    let noise = GpuNoise::new(&ctx.device, &ctx.queue, 0).unwrap();
    let field = grid();
    let record = |program: &Program, usage| {
        let target = texture(&ctx.device, usage);
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        noise.record(
            &mut encoder,
            &TextureFill {
                program,
                field: &field,
                output: FieldOutput::Value,
                texture: &target,
            },
        )
    };
    let fused = program(&warped_fbm(0.5, 0.3));
    match record(&fused, wgpu::TextureUsages::TEXTURE_BINDING) {
        Err(NoiseError::InvalidArgument(why)) => {
            assert!(
                why.contains("STORAGE_BINDING") && why.contains("COPY_DST"),
                "{why}"
            )
        }
        other => panic!("a texture with neither usage: {other:?}"),
    }
    // A graph only its own pipeline computes cannot be stored straight to a texture.
    let other = program(&(Node::simplex() * Node::classic()));
    match record(&other, wgpu::TextureUsages::STORAGE_BINDING) {
        Err(NoiseError::InvalidArgument(why)) => assert!(why.contains("COPY_DST"), "{why}"),
        other => panic!("a generic graph into a storage-only texture: {other:?}"),
    }
    // The program's dimensions are the field's.
    let three = Graph::from_node(&Node::simplex())
        .unwrap()
        .program(3, [0.0; 4])
        .unwrap();
    match record(&three, wgpu::TextureUsages::COPY_DST) {
        Err(NoiseError::InvalidArgument(why)) => assert!(why.contains("3D"), "{why}"),
        other => panic!("a 3D graph on a 2D field: {other:?}"),
    }
}
