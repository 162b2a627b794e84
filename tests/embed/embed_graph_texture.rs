//! A noise graph into a texture the application owns: `GpuNoise::record_graph` records
//! the graph's fill into the application's encoder (nothing submitted, no readback), for
//! 2D, 3D and 4D fields (4D as a 2D array, layer `w · z_size + z`), on every backend.
//! What lands in the texture is the same bits as the library's own readback of the graph
//! (`fill_graph_box`), and the f32 CPU evaluator's values within the parity bound.

use crate::common;

use std::time::Duration;

use wgpu_noise::gpu::readback::{map_and_read, padded_row_bytes, unpad_rows};
use wgpu_noise::gpu::GpuNoise;
use wgpu_noise::graph::{eval, Graph};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{Field, NoiseError, NoiseKind};

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

/// The texture's texels, x fastest, then y, then layer (or z).
fn read_texture(device: &wgpu::Device, queue: &wgpu::Queue, texture: &wgpu::Texture) -> Vec<f32> {
    let size = texture.size();
    let padded = padded_row_bytes(size.width);
    let rows = size.height * size.depth_or_array_layers;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test readback"),
        size: padded as u64 * rows as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(size.height),
            },
        },
        size,
    );
    let submission = queue.submit([encoder.finish()]);
    map_and_read(device, &buffer, submission, Duration::from_secs(120), |b| {
        let mut texels = Vec::new();
        unpad_rows(b, size.width, rows as usize, padded, &mut texels);
        texels
    })
    .unwrap()
}

struct Case {
    graph: String,
    field: Field,
    dimension: wgpu::TextureDimension,
}

fn cases() -> Vec<Case> {
    use wgpu::TextureDimension::{D2, D3};
    let field = |size: &[u32], frequency: f64| {
        Field::new(NoiseKind::Simplex, size)
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
            let pipeline = gpu.graph_pipeline(&program).unwrap();
            let [nx, ny, nz, nw] = field.size;
            let target = texture(
                device,
                [nx, ny, nz * nw],
                case.dimension,
                wgpu::TextureFormat::R32Float,
                wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
            );
            let mut encoder = device.create_command_encoder(&Default::default());
            gpu.record_graph(&mut encoder, &pipeline, field, &target)
                .unwrap();
            queue.submit([encoder.finish()]);
            let got = read_texture(device, queue, &target);

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

#[test]
fn a_texture_that_cannot_hold_the_graph_fill_is_refused_by_name() {
    let Some(ctx) = common::gpu() else {
        return;
    };
    let device = &ctx.device;
    let gpu = GpuNoise::new(device, &ctx.queue, 0).unwrap();
    let field = Field::new(NoiseKind::Simplex, &[32, 16, 4]);
    let program = Graph::from_json(&terrain())
        .unwrap()
        .program(3, [0.0; 4])
        .unwrap();
    let pipeline = gpu.graph_pipeline(&program).unwrap();
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
        let mut encoder = device.create_command_encoder(&Default::default());
        match gpu.record_graph(&mut encoder, &pipeline, &field, &target) {
            Err(NoiseError::InvalidArgument(why)) => {
                assert!(why.contains(says), "{size:?} {format:?}: {why}")
            }
            other => panic!("{size:?} {format:?} {usage:?}: {other:?}"),
        }
    }
    let flat = Field::new(NoiseKind::Simplex, &[32, 16]);
    let target = texture(device, [32, 16, 1], D2, R32Float, U::COPY_DST);
    let mut encoder = device.create_command_encoder(&Default::default());
    match gpu.record_graph(&mut encoder, &pipeline, &flat, &target) {
        Err(NoiseError::InvalidArgument(why)) => assert!(why.contains("3D"), "{why}"),
        other => panic!("a 3D graph into a 2D field: {other:?}"),
    }
}
