//! The computational (texture-free) lookup variant: the GPU's hash-based shaders equal
//! their CPU mirror, seeds change the pattern, and the pattern is not the tables'.

use crate::common;

use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::IntegerHasher;
use wgpu_noise::field::{FlagField, Fractal};
use wgpu_noise::gpu::{GpuNoise, LookupVariant};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

fn max_error(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, |m, d| if d.is_nan() { f32::NAN } else { m.max(d) })
}

#[test]
fn hash_variant_gpu_equals_its_cpu_mirror() {
    let Some(ctx) = common::gpu() else { return };
    for seed in [0u64, 7, 1 << 33] {
        let mut g =
            GpuNoise::with_variant(&ctx.device, &ctx.queue, seed, LookupVariant::Hash).unwrap();
        g.options.poison = true;
        let hash = IntegerHasher::new(seed);
        for kind in NoiseKind::ALL {
            for size in [&[37u32, 21][..], &[13, 9, 7], &[6, 5, 4, 3]] {
                let field = FlagField::new(kind, size)
                    .with_frequency(&[5.0, 3.0, 2.0, 2.0])
                    .with_offset(&[-20.5, 300.25, 7.0, -1.0])
                    .with_fractal(Fractal {
                        octaves: 3,
                        ..Fractal::default()
                    });
                let gpu = g.generate(&field).unwrap();
                let cpu = generate_f32(&hash, &field).unwrap();
                let error = max_error(&gpu, &cpu);
                eprintln!(
                    "HASH seed {seed} {kind} {}D: max |gpu - cpu| = {error:e}",
                    size.len()
                );
                // Parity tolerance of the texture variant (tests/gpu/gpu_parity.rs), and the
                // simplex 3D/4D boundary allowance there.
                let bound = if kind == NoiseKind::Simplex && size.len() > 2 {
                    2e-3
                } else {
                    1e-5
                };
                assert!(
                    error <= bound,
                    "seed {seed} {kind} {}D: {error}",
                    size.len()
                );
            }
        }
    }
}

#[test]
fn hash_variant_seeds_differ_and_its_pattern_is_not_the_tables() {
    let field = FlagField::new(NoiseKind::Simplex, &[64, 64]).with_frequency(&[8.0, 8.0]);
    let a = generate_f32(&IntegerHasher::new(1), &field).unwrap();
    let b = generate_f32(&IntegerHasher::new(2), &field).unwrap();
    let tables = generate_f32(&PermutationTables::new(1), &field).unwrap();
    assert_eq!(a, generate_f32(&IntegerHasher::new(1), &field).unwrap());
    let differing = |x: &[f32], y: &[f32]| {
        x.iter()
            .zip(y)
            .filter(|(p, q)| (*p - *q).abs() > 1e-3)
            .count()
    };
    assert!(differing(&a, &b) > a.len() * 8 / 10);
    assert!(differing(&a, &tables) > a.len() * 8 / 10);
    let (lo, hi) = a
        .iter()
        .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
    assert!(
        lo > -1.0 && hi < 1.0 && hi - lo > 1.0,
        "hash variant range {lo}..{hi}"
    );
}
