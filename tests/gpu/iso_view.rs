//! The iso view's renderer (`editor::iso`) on each backend: the GPU's fill of a 3D graph
//! extracted into the surface the CPU reference crosses the level on, and the surface drawn
//! from straight above where the CPU projects it, with the shading of its gradient.

use std::time::Duration;

use crate::common;
use crate::common::iso::{compare_plane_from_above, plane_json};
use wgpu_noise::editor::iso::{self, Cube, IsoDraw, IsoSurface};
use wgpu_noise::editor::orbit::{Orbit, PITCH_RANGE};
use wgpu_noise::graph::Graph;
use wgpu_noise::low_level::{map_and_read, padded_row_bytes, ColourRamp};

const SIZE: u32 = 200;
const DISTANCE: f64 = 3.0;

fn plane(c: f64) -> Graph {
    Graph::from_json(&plane_json(c)).unwrap()
}

/// The gray frame of the surface of `graph` at `level` over `cube`, from `camera`.
fn draw(ctx: &wgpu_noise::GpuContext, graph: &Graph, cube: &Cube, camera: &Orbit) -> Vec<u8> {
    let (device, queue) = (&ctx.device, &ctx.queue);
    let noise = common::generator(ctx, 0);
    let program = graph.program(3, [0.0; 4]).unwrap();
    let mesh = iso::fill_and_extract(&noise, &program, cube, 0.0).unwrap();
    assert!(!mesh.triangles.is_empty());
    let mut surface = IsoSurface::new(device);
    surface.set_mesh(device, &mesh, cube);
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let pipeline = iso::pipeline(device, &surface.layout, format, "iso test pipeline");
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("iso test frame"),
        size: wgpu::Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let padded = padded_row_bytes(SIZE);
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("iso test readback"),
        size: padded as u64 * SIZE as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    let uniforms = iso::uniforms(camera, [SIZE; 2], ColourRamp::Gray.stops());
    let draw = IsoDraw {
        device,
        queue,
        encoder: &mut encoder,
        pipeline: &pipeline,
        uniforms: &uniforms,
    };
    surface.draw(draw, &texture.create_view(&Default::default()), [SIZE; 2]);
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(SIZE),
            },
        },
        wgpu::Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 1,
        },
    );
    let submission = queue.submit([encoder.finish()]);
    map_and_read(
        device,
        &buffer,
        submission,
        Duration::from_secs(60),
        |bytes| {
            bytes
                .chunks(padded as usize)
                .take(SIZE as usize)
                .flat_map(|row| row[..4 * SIZE as usize].chunks(4).map(|p| p[0]))
                .collect()
        },
    )
    .unwrap()
}

/// A plane seen from straight above fills the square the CPU projects the cube's top view
/// to, at the height's gray times the shading of a normal straight up; black outside.
#[test]
fn a_plane_from_straight_above_draws_where_and_as_the_cpu_predicts() {
    let camera = Orbit::new(0.0, PITCH_RANGE.1, DISTANCE);
    let cube = Cube {
        origin: [0.0; 3],
        frequency: 2.0,
        samples: iso::SAMPLES,
    };
    for (backend, ctx) in common::gpu_per_backend() {
        for c in [0.55, 1.2] {
            let gray = draw(&ctx, &plane(c), &cube, &camera);
            let got = compare_plane_from_above(
                c,
                cube.frequency,
                cube.samples,
                DISTANCE,
                SIZE,
                &|x, y| gray[(y * SIZE + x) as usize],
            );
            println!("{backend} plane at {c}: {got:?}");
            assert!(
                got.inside > 10_000 && got.outside > 1_000,
                "{backend}: {got:?}"
            );
            assert!(
                got.worst <= 1 && got.not_black == 0,
                "{backend} c {c}: {got:?}"
            );
        }
    }
}

/// The GPU fill's surface is the CPU's: each vertex between two samples the f32 CPU
/// reference puts on either side of the level, where it interpolates to the level.
#[test]
fn the_gpu_fills_surface_crosses_the_level_where_the_cpu_reference_does() {
    let graph = Graph::from_json(
        r#"{"version": 1, "output": "n", "nodes": {"n": {"type": "fbm",
            "source": {"type": "simplex"}, "octaves": 3}}}"#,
    )
    .unwrap();
    let cube = Cube {
        origin: [0.5, -1.0, 3.0],
        frequency: 3.0,
        samples: 32,
    };
    let n = cube.samples as usize;
    let field = cube.field();
    for (backend, ctx) in common::gpu_per_backend() {
        let noise = common::generator(&ctx, 0);
        let program = graph.program(3, [0.0; 4]).unwrap();
        let mesh = iso::fill_and_extract(&noise, &program, &cube, 0.1).unwrap();
        let mut cpu = graph.sampler(3, 0).unwrap();
        let mut worst = 0.0f64;
        for (v, &[a, b]) in mesh.segments.iter().enumerate() {
            let point = |s: u32| {
                let s = s as usize;
                let c =
                    field.coordinate([(s % n) as u32, (s / n % n) as u32, (s / (n * n)) as u32, 0]);
                [c[0] as f32, c[1] as f32, c[2] as f32]
            };
            let (va, vb) = (cpu.value(&point(a)) as f64, cpu.value(&point(b)) as f64);
            // The GPU's values are the CPU's within the parity tolerance (1e-5 here).
            assert!(
                va < 0.1 + 1e-5 && vb > 0.1 - 1e-5,
                "{backend} vertex {v}: {va}, {vb}"
            );
            let grid = |s: u32| {
                let s = s as usize;
                [s % n, s / n % n, s / (n * n)].map(|c| c as f64)
            };
            let (ga, gb) = (grid(a), grid(b));
            let p = mesh.positions[v].map(f64::from);
            let k = (0..3).find(|&k| ga[k] != gb[k]).unwrap();
            let t = (p[k] - ga[k]) / (gb[k] - ga[k]);
            worst = worst.max((va + t * (vb - va) - 0.1).abs());
        }
        println!(
            "{backend}: {} vertices, the CPU reference interpolated within {worst:e} of the level",
            mesh.positions.len()
        );
        assert!(mesh.positions.len() > 1000);
        assert!(worst < 1e-4, "{backend}: {worst}");
    }
}
