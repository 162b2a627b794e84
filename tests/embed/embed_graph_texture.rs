//! A noise graph into a texture the application owns: `GpuNoise::record` records
//! the graph's fill into the application's encoder (nothing submitted, no readback), for
//! 2D, 3D and 4D fields (4D as a 2D array, layer `w · z_size + z`), on every backend.
//! What lands in the texture is the same bits as the library's own readback of the graph
//! (`fill_graph_box`), and the f32 CPU evaluator's values within the parity bound; the
//! same for the graph's gradient and curl (`Rgba32Float` textures) against the f32 CPU
//! evaluator's derivatives, and for `evaluate_graph` at a list of points.

use crate::common;

use crate::common::graphs::{DERIVATIVES, JUMPS, RELATIVE};
use wgpu_noise::field::FlagField;
use wgpu_noise::gpu::GpuNoise;
use wgpu_noise::graph::{eval, Graph};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{FieldOutput, NoiseError, NoiseKind, TextureFill};

/// 16 fBm octaves of simplex noise: 16 noise calls per texel, so a field of a million
/// texels is more than one of the fill's dispatches (2^24 noise calls each).
const FBM16: &str = r#"{"version": 1, "output": "n",
  "nodes": {"n": {"type": "fbm", "source": {"type": "simplex"}, "octaves": 16}}}"#;

fn terrain() -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs/terrain.json"),
    )
    .unwrap()
}

fn texture(
    device: &wgpu::Device,
    size: [u32; 3],
    dimension: wgpu::TextureDimension,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("the application's graph texture"),
        size: wgpu::Extent3d {
            width: size[0],
            height: size[1],
            depth_or_array_layers: size[2],
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension,
        format,
        usage,
        view_formats: &[],
    })
}

struct Case {
    graph: String,
    field: FlagField,
    dimension: wgpu::TextureDimension,
}

fn cases() -> Vec<Case> {
    use wgpu::TextureDimension::{D2, D3};
    let field = |size: &[u32], frequency: f64| {
        FlagField::new(NoiseKind::Simplex, size)
            .with_frequency(&vec![frequency; size.len()])
            .with_offset(&vec![0.25; size.len()])
    };
    vec![
        // Widths that are no multiple of the 64-texel copy alignment.
        Case {
            graph: terrain(),
            field: field(&[37, 21], 4.0),
            dimension: D2,
        },
        Case {
            graph: terrain(),
            field: field(&[37, 21, 9], 4.0),
            dimension: D3,
        },
        Case {
            graph: terrain(),
            field: field(&[19, 11, 3, 4], 3.0),
            dimension: D2,
        },
        // 1 310 720 texels of 16 noise calls: two dispatches (12 and 4 volumes along w).
        Case {
            graph: FBM16.to_string(),
            field: field(&[64, 64, 20, 16], 2.0),
            dimension: D2,
        },
    ]
}

#[test]
fn a_graph_recorded_into_the_applications_texture_is_the_librarys_fill_and_the_cpu_reference() {
    for (backend, ctx) in common::gpu_per_backend() {
        let (device, queue) = (&ctx.device, &ctx.queue);
        let gpu = GpuNoise::new(device, queue, 0).unwrap();
        let lut = PermutationTables::new(0);
        for case in cases() {
            let field = &case.field;
            let program = Graph::from_json(&case.graph)
                .unwrap()
                .program(field.dims, [0.0; 4])
                .unwrap();
            let pipeline = gpu.graph_pipeline(&program, FieldOutput::Value).unwrap();
            let [nx, ny, nz, nw] = field.size;
            let target = texture(
                device,
                [nx, ny, nz * nw],
                case.dimension,
                wgpu::TextureFormat::R32Float,
                wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
            );
            let mut encoder = device.create_command_encoder(&Default::default());
            gpu.record(
                &mut encoder,
                &TextureFill {
                    program: &program,
                    field,
                    output: FieldOutput::Value,
                    texture: &target,
                },
            )
            .unwrap();
            queue.submit([encoder.finish()]);
            let got = crate::embed_support::read_texture(device, queue, &target);

            let mut library = Vec::new();
            for params in FillParams::boxes(field, gpu.graph_box_texels(&pipeline)) {
                gpu.fill_graph_box(&pipeline, &params, &mut library)
                    .unwrap();
            }
            assert_eq!(got.len(), library.len());
            let differing = got
                .iter()
                .zip(&library)
                .filter(|(a, b)| a.to_bits() != b.to_bits())
                .count();
            assert_eq!(
                differing, 0,
                "{backend} {:?}: texels differ from the library's readback",
                field.size
            );

            // The CPU reference at every 7th texel. The bound is the documented parity bound
            // of graphs without ill-conditioned combinations (docs/graphs.md: 1e-4 × (1 + |v|);
            // measured here at most 2.2e-5 on GL for terrain).
            let params = FillParams::new(field, Slab::whole(field));
            let mut regs = Vec::new();
            let mut worst = 0.0f32;
            for i in (0..got.len()).step_by(7) {
                let index = [
                    (i % nx as usize) as u32,
                    ((i / nx as usize) % ny as usize) as u32,
                    ((i / (nx * ny) as usize) % nz as usize) as u32,
                    (i / (nx * ny * nz) as usize) as u32,
                ];
                let p = wgpu_noise::cpu::fill::sample_point(&params, index);
                let v = eval::value::<f32>(&program, &lut, p, &mut regs);
                let error = (got[i] - v).abs() / (1.0 + v.abs());
                worst = worst.max(error);
            }
            eprintln!(
                "{backend} {:?}: max relative |texture − cpu| = {worst:.2e}",
                field.size
            );
            assert!(worst <= 1e-4, "{backend} {:?}: {worst:e}", field.size);
        }
    }
}

/// The graph's `output` at point `p` by the f32 CPU evaluator: the value and gradient
/// (four values), or the curl (`dims`).
fn cpu_output(
    program: &wgpu_noise::graph::Program,
    lut: &PermutationTables,
    output: FieldOutput,
    p: [f32; 4],
) -> Vec<f32> {
    let mut regs = Vec::new();
    match output {
        FieldOutput::Value => vec![eval::value::<f32>(program, lut, p, &mut Vec::new())],
        FieldOutput::Gradient => {
            eval::value_and_gradient::<f32>(program, lut, p, &mut regs)[..4].to_vec()
        }
        FieldOutput::Curl => {
            eval::curl::<f32>(program, lut, p, &mut regs)[..program.dims()].to_vec()
        }
    }
}

/// Counts the values of `gpu` over the bound against `cpu` (`n` per sample: channel 0 of a
/// gradient is the value, bound [`RELATIVE`]; derivatives and curl components
/// [`DERIVATIVES`]), asserting that at most [`JUMPS`] of them are (kinks of the terrace)
/// and returning the worst relative error of the others.
fn assert_derivatives(label: &str, output: FieldOutput, n: usize, gpu: &[f32], cpu: &[f32]) -> f32 {
    assert_eq!(gpu.len(), cpu.len(), "{label}: value count");
    let (mut worst, mut over) = (0.0f32, 0);
    for (i, (a, b)) in gpu.iter().zip(cpu).enumerate() {
        assert!(
            a.is_finite() && b.is_finite(),
            "{label}: value {i}: gpu {a} cpu {b}"
        );
        let bound = if output == FieldOutput::Gradient && i % n == 0 {
            RELATIVE
        } else {
            DERIVATIVES
        };
        let e = (a - b).abs() / (1.0 + b.abs());
        if e > bound {
            over += 1;
        } else {
            worst = worst.max(e);
        }
    }
    assert!(
        over as f64 <= JUMPS * gpu.len() as f64,
        "{label}: {over} of {} values over the bound",
        gpu.len()
    );
    worst
}

#[test]
fn a_graphs_gradient_and_curl_recorded_into_the_applications_texture_are_the_cpu_evaluators() {
    use wgpu::TextureDimension::{D2, D3};
    for (backend, ctx) in common::gpu_per_backend() {
        let (device, queue) = (&ctx.device, &ctx.queue);
        let gpu = GpuNoise::new(device, queue, 0).unwrap();
        let lut = PermutationTables::new(0);
        let graph = Graph::from_json(&terrain()).unwrap();
        for (size, dimension) in [(&[37u32, 21][..], D2), (&[37, 21, 9][..], D3)] {
            let dims = size.len();
            let field = FlagField::new(NoiseKind::Simplex, size)
                .with_frequency(&vec![4.0; dims])
                .with_offset(&vec![0.25; dims]);
            let program = graph.program(dims, [0.0; 4]).unwrap();
            for output in [FieldOutput::Gradient, FieldOutput::Curl] {
                let label = format!("{backend} {dims}D {output:?}");
                let pipeline = gpu.graph_pipeline(&program, output).unwrap();
                let [nx, ny, nz, _] = field.size;
                let target = texture(
                    device,
                    [nx, ny, nz],
                    dimension,
                    wgpu::TextureFormat::Rgba32Float,
                    wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
                );
                let mut encoder = device.create_command_encoder(&Default::default());
                gpu.record(
                    &mut encoder,
                    &TextureFill {
                        program: &program,
                        field: &field,
                        output,
                        texture: &target,
                    },
                )
                .unwrap();
                queue.submit([encoder.finish()]);
                let texels = crate::embed_support::read_texture(device, queue, &target);

                // The library's readback of the same pipeline: `channels` values per texel,
                // the texture's first `channels` channels; a curl's other channels are 0.
                let n = pipeline.channels();
                let mut library = Vec::new();
                for params in FillParams::boxes(&field, gpu.graph_box_texels(&pipeline)) {
                    gpu.fill_graph_box(&pipeline, &params, &mut library)
                        .unwrap();
                }
                let got: Vec<f32> = texels
                    .chunks(4)
                    .flat_map(|t| {
                        assert!(t[n..].iter().all(|&v| v == 0.0), "{label}: padding {t:?}");
                        t[..n].to_vec()
                    })
                    .collect();
                assert_eq!(got.len(), library.len(), "{label}");
                assert!(
                    got.iter()
                        .zip(&library)
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "{label}: texels differ from the library's readback"
                );

                // The f32 CPU evaluator at every texel's sample point.
                let params = FillParams::new(&field, Slab::whole(&field));
                let points: Vec<[f32; 4]> = (0..params.len())
                    .map(|i| {
                        let index = [
                            (i % nx as usize) as u32,
                            ((i / nx as usize) % ny as usize) as u32,
                            (i / (nx * ny) as usize) as u32,
                            0,
                        ];
                        wgpu_noise::cpu::fill::sample_point(&params, index)
                    })
                    .collect();
                let cpu: Vec<f32> = points
                    .iter()
                    .flat_map(|&p| cpu_output(&program, &lut, output, p))
                    .collect();
                let worst = assert_derivatives(&label, output, n, &got, &cpu);

                // The same output at a list of points (every 5th texel's).
                let some: Vec<[f32; 4]> = points.iter().step_by(5).copied().collect();
                let at_points = gpu.evaluate_graph(&program, output, &some).unwrap();
                let cpu_some: Vec<f32> = some
                    .iter()
                    .flat_map(|&p| cpu_output(&program, &lut, output, p))
                    .collect();
                let worst_points = assert_derivatives(
                    &format!("{label} points"),
                    output,
                    n,
                    &at_points,
                    &cpu_some,
                );
                eprintln!(
                    "{label}: max relative |texture − cpu| = {worst:.2e}, \
                     |evaluate_graph − cpu| = {worst_points:.2e}"
                );
            }
        }
    }
}

#[test]
fn a_texture_that_cannot_hold_the_graph_fill_is_refused_by_name() {
    let Some(ctx) = common::gpu() else {
        return;
    };
    let device = &ctx.device;
    let gpu = GpuNoise::new(device, &ctx.queue, 0).unwrap();
    let field = FlagField::new(NoiseKind::Simplex, &[32, 16, 4]);
    let program = Graph::from_json(&terrain())
        .unwrap()
        .program(3, [0.0; 4])
        .unwrap();
    let record = |field: &FlagField, output, target: &wgpu::Texture| {
        let mut encoder = device.create_command_encoder(&Default::default());
        let texture = target;
        gpu.record(
            &mut encoder,
            &TextureFill {
                program: &program,
                field,
                output,
                texture,
            },
        )
    };
    use wgpu::TextureDimension::{D2, D3};
    use wgpu::TextureFormat::{R32Float, Rgba8Unorm};
    use wgpu::TextureUsages as U;
    for (size, dimension, format, usage, says) in [
        ([32, 16, 4], D3, Rgba8Unorm, U::COPY_DST, "R32Float"),
        ([32, 16, 4], D3, R32Float, U::TEXTURE_BINDING, "COPY_DST"),
        ([32, 16, 3], D2, R32Float, U::COPY_DST, "32×16×4"),
        ([31, 16, 4], D3, R32Float, U::COPY_DST, "32×16×4"),
    ] {
        let target = texture(device, size, dimension, format, usage);
        match record(&field, FieldOutput::Value, &target) {
            Err(NoiseError::InvalidArgument(why)) => {
                assert!(why.contains(says), "{size:?} {format:?}: {why}")
            }
            other => panic!("{size:?} {format:?} {usage:?}: {other:?}"),
        }
    }
    let flat = FlagField::new(NoiseKind::Simplex, &[32, 16]);
    let target = texture(device, [32, 16, 1], D2, R32Float, U::COPY_DST);
    match record(&flat, FieldOutput::Value, &target) {
        Err(NoiseError::InvalidArgument(why)) => assert!(why.contains("3D"), "{why}"),
        other => panic!("a 3D graph into a 2D field: {other:?}"),
    }
    // The gradient goes to an Rgba32Float texture, not the value's R32Float.
    let target = texture(device, [32, 16, 4], D3, R32Float, U::COPY_DST);
    match record(&field, FieldOutput::Gradient, &target) {
        Err(NoiseError::InvalidArgument(why)) => assert!(why.contains("Rgba32Float"), "{why}"),
        other => panic!("a gradient into an R32Float texture: {other:?}"),
    }
    // A 4D graph has no curl, at points either.
    let four = Graph::from_json(&terrain())
        .unwrap()
        .program(4, [0.0; 4])
        .unwrap();
    match gpu.evaluate_graph(&four, FieldOutput::Curl, &[[0.5; 4]]) {
        Err(NoiseError::InvalidArgument(why)) => assert!(why.contains("2D or 3D"), "{why}"),
        other => panic!("the curl of a 4D graph: {other:?}"),
    }
}
