//! Cellular noise on the GPU equals the f32 CPU mirror: both lookup variants, 2D/3D/4D,
//! every output and distance, several jitters, tiling and fractal octaves, offsets beyond
//! the 256-cell period. Targets are poisoned with NaN, so an unwritten texel fails.

use crate::common;

use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::IntegerHasher;
use wgpu_noise::field::{Cellular, CellularOutput, Distance, FlagField, Fractal, FractalMode};
use wgpu_noise::gpu::GpuNoise;
use wgpu_noise::shader::LookupVariant;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// Parity tolerance for the distances, absolute. The same f32 operations run on both sides;
/// the GPU may fuse a multiply-add or round `sqrt` differently by an ulp or so (distances
/// are below 4, so an ulp is below 5e-7).
const TOLERANCE: f32 = 1e-5;

/// The cell value jumps (by up to 2) where two features are equally near. A sample within
/// rounding of such an edge may be given to different cells by the CPU and the GPU; allow
/// that for at most 1 sample in 10⁴.
const EDGE_SHARE: usize = 10_000;

fn fields(dims: usize) -> Vec<FlagField> {
    let size: &[u32] = match dims {
        2 => &[37, 23],
        3 => &[13, 9, 5],
        _ => &[7, 5, 3, 4],
    };
    let mut out = Vec::new();
    for (n, output) in CellularOutput::ALL.into_iter().enumerate() {
        for (m, distance) in Distance::ALL.into_iter().enumerate() {
            let jitter = [1.0, 0.5, 0.0][(n + m) % 3];
            let cellular = Cellular {
                output,
                distance,
                jitter,
            };
            out.push(
                FlagField::new(NoiseKind::Cellular, size)
                    .with_frequency(&[7.3, 5.0, 4.2, 3.3])
                    .with_offset(&[-300.7, 12.25, -1.5, 700.125])
                    .with_cellular(cellular),
            );
        }
    }
    // Tiled, with three octaves (whole-number lacunarity), and ridged.
    out.push(
        FlagField::new(NoiseKind::Cellular, size)
            .with_frequency(&[5.0, 3.0, 2.0, 2.0])
            .with_tileable(true)
            .with_fractal(Fractal {
                octaves: 3,
                ..Fractal::default()
            }),
    );
    out.push(
        FlagField::new(NoiseKind::Cellular, size)
            .with_frequency(&[4.0, 4.0, 2.0, 2.0])
            .with_fractal(Fractal {
                mode: FractalMode::Ridged,
                octaves: 2,
                ..Fractal::default()
            })
            .with_cellular(Cellular {
                output: CellularOutput::F2MinusF1,
                ..Cellular::default()
            }),
    );
    out
}

struct Worst {
    max_error: f32,
    edge_samples: usize,
    samples: usize,
}

fn compare(label: &str, field: &FlagField, gpu: &[f32], cpu: &[f32], worst: &mut Worst) {
    assert_eq!(gpu.len(), cpu.len(), "{label}");
    let mut edges = 0;
    for (i, (g, c)) in gpu.iter().zip(cpu).enumerate() {
        let e = (g - c).abs();
        assert!(!e.is_nan(), "{label}: sample {i} NaN: gpu {g} cpu {c}");
        if e > TOLERANCE {
            let cell = field.cellular.output == CellularOutput::Cell;
            assert!(cell, "{label}: sample {i}: gpu {g} cpu {c} differ by {e:e}");
            edges += 1;
        } else {
            worst.max_error = worst.max_error.max(e);
        }
    }
    assert!(
        edges * EDGE_SHARE <= gpu.len().max(EDGE_SHARE),
        "{label}: {edges} samples differ"
    );
    worst.edge_samples += edges;
    worst.samples += gpu.len();
}

fn parity(variant: LookupVariant, dims: usize) {
    let Some(ctx) = common::gpu() else { return };
    let seed = 12345;
    let mut g = GpuNoise::with_variant(&ctx.device, &ctx.queue, seed, variant).unwrap();
    g.options.poison = true;
    let mut worst = Worst {
        max_error: 0.0,
        edge_samples: 0,
        samples: 0,
    };
    for field in fields(dims) {
        let label = format!(
            "{variant:?} {dims}D {:?} {:?}",
            field.cellular, field.fractal
        );
        let gpu = g
            .generate(&field)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        let cpu = match variant {
            LookupVariant::Textures => generate_f32(&PermutationTables::new(seed), &field),
            LookupVariant::Hash => generate_f32(&IntegerHasher::new(seed), &field),
        }
        .unwrap();
        compare(&label, &field, &gpu, &cpu, &mut worst);
    }
    eprintln!(
        "PARITY cellular {variant:?} {dims}D: max |gpu - cpu f32| = {:e} over {} samples; {} cell-value samples on an edge",
        worst.max_error, worst.samples, worst.edge_samples
    );
}

#[test]
fn cellular_2d_gpu_equals_cpu_with_textures() {
    parity(LookupVariant::Textures, 2);
}

#[test]
fn cellular_3d_gpu_equals_cpu_with_textures() {
    parity(LookupVariant::Textures, 3);
}

#[test]
fn cellular_4d_gpu_equals_cpu_with_textures() {
    parity(LookupVariant::Textures, 4);
}

#[test]
fn cellular_2d_gpu_equals_cpu_with_the_hash() {
    parity(LookupVariant::Hash, 2);
}

#[test]
fn cellular_3d_gpu_equals_cpu_with_the_hash() {
    parity(LookupVariant::Hash, 3);
}

#[test]
fn cellular_4d_gpu_equals_cpu_with_the_hash() {
    parity(LookupVariant::Hash, 4);
}

/// `evaluate` (the `sample --backend gpu` path) computes F1, euclidean, jitter 1.
#[test]
fn evaluated_points_equal_the_cpu_defaults() {
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 3);
    let lut = PermutationTables::new(3);
    let shape = wgpu_noise::cpu::cellular::CellularShape::default();
    for dims in 2..=4 {
        let points: Vec<[f32; 4]> = (0..500)
            .map(|i| {
                let t = i as f32;
                [
                    t * 0.731 - 180.0,
                    t * 0.377 + 3.1,
                    40.0 - t * 0.213,
                    t * 1.093,
                ]
            })
            .collect();
        let gpu = common::evaluate_plain(&g, NoiseKind::Cellular, dims, &points).unwrap();
        for (p, v) in points.iter().zip(gpu) {
            let c = wgpu_noise::cpu::cellular::cellular::<f32>(&lut, &p[..dims], &shape);
            assert!((v - c).abs() <= TOLERANCE, "{dims}D {p:?}: gpu {v} cpu {c}");
        }
    }
}
