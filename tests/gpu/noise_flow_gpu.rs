//! Flow noise on the GPU equals the f32 CPU mirror on every backend: simplex 2D and 3D, both
//! lookup variants, several angles (one a long animation clock, reduced on the host), fractal
//! sums, the continuous kernel, a domain warp, and value-and-gradient fields. Targets are
//! poisoned with NaN, so an unwritten texel fails.

use crate::common;

use wgpu_noise::cpu::fill::{fill_slab_gradient, generate_f32};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::field::{FlagField, Fractal, FractalMode, Kernel, Warp};
use wgpu_noise::gpu::parity::{tolerance, GRADIENT_TOLERANCE_SCALE, PARITY_TOLERANCE};
use wgpu_noise::gpu::GpuNoise;
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::shader::LookupVariant;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// Simplex 3D with the r² = 0.6 kernel jumps by up to 2e-3 at simplex boundaries; a point
/// within rounding of one may land on either side on the CPU and the GPU. At most one
/// sample in 10⁴ may.
const BOUNDARY_SHARE: usize = 10_000;
const BOUNDARY_JUMP: f32 = 2e-3;

fn fields(dims: usize) -> Vec<FlagField> {
    let size: &[u32] = if dims == 2 { &[61, 37] } else { &[19, 13, 7] };
    let base = FlagField::new(NoiseKind::Simplex, size)
        .with_frequency(&[7.3, 5.0, 3.1])
        .with_offset(&[-40.7, 12.25, 3.5]);
    let octaves = |mode, octaves| Fractal {
        mode,
        octaves,
        ..Fractal::default()
    };
    let mut out = vec![
        base.clone().with_flow_angle(0.7),
        base.clone().with_flow_angle(-2.5),
        // An animation clock 10⁴ s on: the host reduces the angle modulo 2π in f64.
        base.clone().with_flow_angle(10_000.25),
        base.clone()
            .with_flow_angle(1.9)
            .with_fractal(octaves(FractalMode::Fbm, 4)),
        base.clone()
            .with_flow_angle(3.0)
            .with_fractal(octaves(FractalMode::Ridged, 3))
            .with_warp(Warp {
                amplitude: 0.6,
                ..Warp::default()
            }),
    ];
    if dims == 3 {
        out.push(
            base.with_flow_angle(1.2)
                .with_kernel(Kernel::Continuous)
                .with_fractal(octaves(FractalMode::Turbulence, 2)),
        );
    }
    out
}

/// Worst |GPU − CPU| of the value fields of `dims`, asserting the parity rule.
fn value_fields(label: &str, g: &GpuNoise, lut: &impl NoiseHasher, dims: usize) -> f32 {
    let (mut worst, mut over, mut samples) = (0.0f32, 0usize, 0usize);
    for field in fields(dims) {
        let label = format!("{label} {dims}D angle {}", field.flow_angle);
        let gpu = g
            .generate(&field)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        let cpu = generate_f32(lut, &field).unwrap();
        for (i, (a, b)) in gpu.iter().zip(&cpu).enumerate() {
            let e = (a - b).abs();
            assert!(!e.is_nan(), "{label}: sample {i}: gpu {a} cpu {b}");
            if e > tolerance(&field) {
                assert!(e <= BOUNDARY_JUMP, "{label}: sample {i}: gpu {a} cpu {b}");
                over += 1;
            } else {
                worst = worst.max(e);
            }
        }
        samples += gpu.len();
    }
    assert!(
        over * BOUNDARY_SHARE <= samples.max(BOUNDARY_SHARE),
        "{label} {dims}D: {over} samples differ"
    );
    worst
}

/// Worst |GPU − CPU| of the value and of the derivatives of a turning fBm gradient field.
fn gradient_field(label: &str, g: &GpuNoise, lut: &impl NoiseHasher, dims: usize) -> [f32; 2] {
    let size: &[u32] = if dims == 2 { &[32, 24] } else { &[12, 10, 6] };
    let field = FlagField::new(NoiseKind::Simplex, size)
        .with_frequency(&[6.0, 5.0, 4.0])
        .with_flow_angle(2.2)
        .with_fractal(Fractal {
            octaves: 3,
            ..Fractal::default()
        });
    let gpu = g
        .generate_gradient(&field)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    let params = FillParams::new(&field, Slab::whole(&field));
    let mut cpu = vec![[0.0f32; 4]; params.len()];
    fill_slab_gradient(lut, dims, &params, &mut cpu);
    let mut worst = [0.0f32; 2];
    for (a, b) in gpu.iter().zip(&cpu) {
        for k in 0..4 {
            let e = (a[k] - b[k]).abs();
            assert!(!e.is_nan(), "{label}: gpu {a:?} cpu {b:?}");
            let slot = usize::from(k > 0);
            worst[slot] = worst[slot].max(e);
        }
    }
    assert!(
        worst[0] <= PARITY_TOLERANCE,
        "{label}: value {:e}",
        worst[0]
    );
    assert!(
        worst[1] <= PARITY_TOLERANCE * GRADIENT_TOLERANCE_SCALE,
        "{label}: derivatives {:e}",
        worst[1]
    );
    worst
}

#[test]
fn flow_noise_equals_the_cpu_mirror_on_every_backend() {
    let seed = 77;
    for (backend, ctx) in common::gpu_per_backend() {
        for variant in [LookupVariant::Textures, LookupVariant::Hash] {
            let mut g = GpuNoise::with_variant(&ctx.device, &ctx.queue, seed, variant).unwrap();
            g.options.poison = true;
            for dims in 2..=3 {
                let label = format!("{backend} {variant:?}");
                let (values, gradient) = match variant {
                    LookupVariant::Textures => {
                        let lut = PermutationTables::new(seed);
                        (
                            value_fields(&label, &g, &lut, dims),
                            gradient_field(&label, &g, &lut, dims),
                        )
                    }
                    LookupVariant::Hash => {
                        let lut = IntegerHasher::new(seed);
                        (
                            value_fields(&label, &g, &lut, dims),
                            gradient_field(&label, &g, &lut, dims),
                        )
                    }
                };
                eprintln!(
                    "PARITY flow {label} {dims}D: max |gpu - cpu f32| values {values:e}; gradient field value {:e}, derivatives {:e}",
                    gradient[0], gradient[1]
                );
            }
        }
    }
}
