//! A finite input never gives NaN: the simplex skew sums the coordinates, which
//! overflowed to infinity for huge ones (`2e38 2e38` in 2D f32, `1e38` × 4 in 4D, `1e308`
//! pairs in f64). Checked on the f32 and f64 CPU references and on the GPU, values and
//! gradients, both lookup variants.

use crate::common;

use wgpu_noise::cpu::lookup::IntegerHasher;
use wgpu_noise::cpu::noise_at;
use wgpu_noise::cpu::simplex::{simplex2_deriv, simplex3_deriv, simplex4_deriv};
use wgpu_noise::field::FlagField;
use wgpu_noise::gpu::{GpuNoise, LookupVariant};
use wgpu_noise::graph::flags::program_of;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{FieldOutput, NoiseKind};

/// Huge finite coordinates of every sign mix, as f64; the f32 cases are these rounded
/// (f32::MAX and beyond saturate to f32::MAX).
fn huge_points(dims: usize, scale: f64) -> Vec<Vec<f64>> {
    let magnitudes = [1e37, 1e38, 2e38, 3.4e38, scale];
    let mut out = Vec::new();
    for m in magnitudes {
        for signs in 0..(1u32 << dims) {
            let p: Vec<f64> = (0..dims)
                .map(|a| if signs >> a & 1 == 1 { -m } else { m })
                .collect();
            out.push(p);
        }
        // One huge coordinate among ordinary ones.
        let mut p = vec![0.3; dims];
        p[dims - 1] = m;
        out.push(p);
    }
    out
}

fn to_f32(p: &[f64]) -> Vec<f32> {
    p.iter()
        .map(|&v| (v as f32).clamp(-f32::MAX, f32::MAX))
        .collect()
}

#[test]
fn the_cpu_references_never_give_nan_for_finite_input() {
    let lut = PermutationTables::new(0);
    let hash = IntegerHasher::new(0);
    for dims in 2..=4 {
        for p in huge_points(dims, f64::MAX) {
            let q = to_f32(&p);
            for kind in NoiseKind::ALL {
                let v64 = noise_at(&lut, kind, &p);
                let v32 = noise_at(&lut, kind, &q);
                let h32 = noise_at(&hash, kind, &q);
                assert!(
                    v64.is_finite() && v32.is_finite() && h32.is_finite(),
                    "{kind} {dims}D at {p:?}: f64 {v64}, f32 {v32}, hash f32 {h32}"
                );
            }
            let (r2, s3, s4) = (0.6f32, 32.0f32, 27.0f32);
            let gradient: Vec<f32> = match dims {
                2 => simplex2_deriv(&lut, q[0], q[1]).to_vec(),
                3 => simplex3_deriv(&lut, q[0], q[1], q[2], r2, s3).to_vec(),
                _ => simplex4_deriv(&lut, q[0], q[1], q[2], q[3], r2, s4).to_vec(),
            };
            assert!(
                gradient.iter().all(|v| v.is_finite()),
                "simplex {dims}D gradient at {q:?}: {gradient:?}"
            );
        }
    }
}

#[test]
fn the_gpu_never_gives_nan_for_finite_input() {
    let Some(ctx) = common::gpu() else { return };
    for variant in [LookupVariant::Textures, LookupVariant::Hash] {
        let g = GpuNoise::with_variant(&ctx.device, &ctx.queue, 0, variant).unwrap();
        for dims in 2..=4 {
            let points: Vec<[f32; 4]> = huge_points(dims, f64::MAX)
                .iter()
                .map(|p| {
                    let mut q = [0.0; 4];
                    q[..dims].copy_from_slice(&to_f32(p));
                    q
                })
                .collect();
            for kind in NoiseKind::ALL {
                let values = common::evaluate_plain(&g, kind, dims, &points).unwrap();
                for (p, v) in points.iter().zip(&values) {
                    assert!(v.is_finite(), "{variant:?} {kind} {dims}D at {p:?}: {v}");
                }
            }
            // The value and ∂/∂x, ∂/∂y, ∂/∂z (a point's gradient output, `FieldOutput`).
            let simplex = FlagField::new(NoiseKind::Simplex, &vec![1; dims]);
            let program = program_of(&simplex, FieldOutput::Gradient).unwrap();
            let gradients = g
                .evaluate_graph(&program, FieldOutput::Gradient, &points)
                .unwrap();
            for (p, gradient) in points.iter().zip(gradients.chunks_exact(4)) {
                assert!(
                    gradient.iter().all(|c| c.is_finite()),
                    "{variant:?} simplex {dims}D gradient at {p:?}: {gradient:?}"
                );
            }
        }
    }
}
