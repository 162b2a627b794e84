//! Value noise on the GPU equals the f32 CPU mirror: both lookup variants, 2D/3D/4D, plain,
//! tiled, fractal and warped, at offsets beyond the 256-cell period, and at given points.
//! Targets are poisoned with NaN, so an unwritten texel fails.

use crate::common;

use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::IntegerHasher;
use wgpu_noise::field::{FlagField, Fractal, FractalMode, Warp};
use wgpu_noise::gpu::GpuNoise;
use wgpu_noise::shader::LookupVariant;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// Parity tolerance, absolute. The same f32 operations run on both sides; the GPU may fuse
/// a multiply-add (a few ulps of values below 1 per blend step, and more through a warp's
/// moved point, whose fraction the blend's slope of up to 3.75 per unit multiplies).
const TOLERANCE: f32 = 2e-5;

fn fields(dims: usize) -> Vec<FlagField> {
    let size: &[u32] = match dims {
        2 => &[37, 23],
        3 => &[13, 9, 5],
        _ => &[7, 5, 3, 4],
    };
    let field = || {
        FlagField::new(NoiseKind::Value, size)
            .with_frequency(&[7.3, 5.0, 4.2, 3.3])
            .with_offset(&[-300.7, 12.25, -1.5, 700.125])
    };
    vec![
        field(),
        FlagField::new(NoiseKind::Value, size)
            .with_frequency(&[5.0, 3.0, 2.0, 2.0])
            .with_tileable(true)
            .with_fractal(Fractal {
                octaves: 3,
                ..Fractal::default()
            }),
        field().with_fractal(Fractal {
            mode: FractalMode::Ridged,
            octaves: 4,
            ..Fractal::default()
        }),
        field().with_warp(Warp {
            amplitude: 0.7,
            ..Warp::default()
        }),
    ]
}

fn parity(variant: LookupVariant, dims: usize) {
    let Some(ctx) = common::gpu() else { return };
    let seed = 4321;
    let mut g = GpuNoise::with_variant(&ctx.device, &ctx.queue, seed, variant).unwrap();
    g.options.poison = true;
    let mut worst = 0.0f32;
    let mut samples = 0;
    for field in fields(dims) {
        let label = format!("{variant:?} {dims}D {:?} {:?}", field.fractal, field.warp);
        let gpu = g
            .generate(&field)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        let cpu = match variant {
            LookupVariant::Textures => generate_f32(&PermutationTables::new(seed), &field),
            LookupVariant::Hash => generate_f32(&IntegerHasher::new(seed), &field),
        }
        .unwrap();
        assert_eq!(gpu.len(), cpu.len(), "{label}");
        for (i, (g, c)) in gpu.iter().zip(&cpu).enumerate() {
            let e = (g - c).abs();
            assert!(
                e <= TOLERANCE,
                "{label}: sample {i}: gpu {g} cpu {c} differ by {e:e}"
            );
            worst = worst.max(e);
        }
        samples += gpu.len();
    }
    eprintln!(
        "PARITY value {variant:?} {dims}D: max |gpu - cpu f32| = {worst:e} over {samples} samples"
    );
}

#[test]
fn value_2d_gpu_equals_cpu_with_textures() {
    parity(LookupVariant::Textures, 2);
}

#[test]
fn value_3d_gpu_equals_cpu_with_textures() {
    parity(LookupVariant::Textures, 3);
}

#[test]
fn value_4d_gpu_equals_cpu_with_textures() {
    parity(LookupVariant::Textures, 4);
}

#[test]
fn value_2d_gpu_equals_cpu_with_the_hash() {
    parity(LookupVariant::Hash, 2);
}

#[test]
fn value_3d_gpu_equals_cpu_with_the_hash() {
    parity(LookupVariant::Hash, 3);
}

#[test]
fn value_4d_gpu_equals_cpu_with_the_hash() {
    parity(LookupVariant::Hash, 4);
}

/// `evaluate` (the `sample --backend gpu` path) at points across several periods.
#[test]
fn evaluated_points_equal_the_cpu() {
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 3);
    let lut = PermutationTables::new(3);
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
        let gpu = common::evaluate_plain(&g, NoiseKind::Value, dims, &points).unwrap();
        for (p, v) in points.iter().zip(gpu) {
            let c = wgpu_noise::cpu::noise_at::<f32>(&lut, NoiseKind::Value, &p[..dims]);
            assert!((v - c).abs() <= TOLERANCE, "{dims}D {p:?}: gpu {v} cpu {c}");
        }
    }
}
