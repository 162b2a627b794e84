//! Tileable 3D simplex noise on the GPU equals the f32 CPU mirror on every backend, both
//! lookup variants, with fractal octaves, offsets far from the tile and a domain warp.

use crate::common;

use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::IntegerHasher;
use wgpu_noise::field::{FlagField, Fractal, FractalMode, Warp};
use wgpu_noise::gpu::parity::tolerance;
use wgpu_noise::gpu::GpuNoise;
use wgpu_noise::shader::LookupVariant;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

fn fields() -> Vec<FlagField> {
    let base = FlagField::new(NoiseKind::Simplex, &[29, 17, 11])
        .with_frequency(&[5.0, 3.0, 7.0])
        .with_tileable(true);
    vec![
        base.clone(),
        base.clone().with_offset(&[-1000.25, 33.5, 7.0]),
        base.clone().with_fractal(Fractal {
            mode: FractalMode::Ridged,
            octaves: 3,
            ..Fractal::default()
        }),
        base.with_warp(Warp {
            amplitude: 0.5,
            frequency: 2.0,
            octaves: 2,
            iterations: 1,
        }),
    ]
}

#[test]
fn tileable_3d_simplex_equals_the_cpu_mirror_on_every_backend() {
    for (backend, ctx) in common::gpu_per_backend() {
        for variant in [LookupVariant::Textures, LookupVariant::Hash] {
            let seed = 99;
            let mut g = GpuNoise::with_variant(&ctx.device, &ctx.queue, seed, variant).unwrap();
            g.options.poison = true;
            let mut max = 0.0f32;
            for field in fields() {
                let label = format!("{backend} {variant:?} {:?} {:?}", field.fractal, field.warp);
                let gpu = g
                    .generate(&field)
                    .unwrap_or_else(|e| panic!("{label}: {e}"));
                let cpu = match variant {
                    LookupVariant::Textures => generate_f32(&PermutationTables::new(seed), &field),
                    LookupVariant::Hash => generate_f32(&IntegerHasher::new(seed), &field),
                }
                .unwrap();
                // The kernel is continuous, so there are no boundary jumps to allow for.
                for (i, (a, b)) in gpu.iter().zip(&cpu).enumerate() {
                    let e = (a - b).abs();
                    assert!(
                        e <= tolerance(&field),
                        "{label}: sample {i}: gpu {a} cpu {b}"
                    );
                    max = max.max(e);
                }
            }
            eprintln!(
                "PARITY simplex3_periodic {backend} {variant:?}: max |gpu - cpu f32| = {max:e}"
            );
        }
    }
}
