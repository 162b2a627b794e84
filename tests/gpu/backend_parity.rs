//! Every wgpu backend the machine offers (Vulkan and GL; `.ci/run` requires both) gives
//! the f32 CPU reference's values: fills and point evaluation, 2D/3D/4D, classic and
//! simplex, texture and hash lookups. A compact matrix (the exhaustive one is
//! `gpu_parity.rs`, on the default backend): it exists to catch what differs between
//! backends, such as 1D textures or 3D storage bindings that one backend gets wrong.

use crate::common;

use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::lookup::{IntegerHasher, NoiseHasher};
use wgpu_noise::cpu::noise_at;
use wgpu_noise::field::FlagField;
use wgpu_noise::gpu::{GpuContext, GpuNoise, LookupVariant};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// Same tolerance and boundary rule as `gpu_parity.rs` (measured there: ≤ 3e-8 on
/// lavapipe; see docs/backends.md for GL).
const TOLERANCE: f32 = 1e-5;
/// A simplex 3D/4D sample within rounding of a simplex boundary may jump by up to this.
const BOUNDARY_JUMP: f32 = 2e-3;

fn max_error(label: &str, kind: NoiseKind, dims: usize, gpu: &[f32], cpu: &[f32]) -> f32 {
    assert_eq!(gpu.len(), cpu.len(), "{label}: sample count");
    let mut worst = 0.0f32;
    let mut over = 0;
    for (i, (g, c)) in gpu.iter().zip(cpu).enumerate() {
        let error = (g - c).abs();
        assert!(!error.is_nan(), "{label}: sample {i}: gpu {g} cpu {c}");
        worst = worst.max(error);
        if error > TOLERANCE {
            over += 1;
            assert!(
                kind == NoiseKind::Simplex && dims > 2 && error <= BOUNDARY_JUMP,
                "{label}: sample {i}: gpu {g} cpu {c} differ by {error:e}"
            );
        }
    }
    assert!(
        over * 10_000 <= gpu.len().max(10_000),
        "{label}: {over} samples over tolerance"
    );
    worst
}

fn fields(kind: NoiseKind, dims: usize) -> Vec<FlagField> {
    let (size, frequency, offset): (&[u32], &[f64], &[f64]) = match dims {
        2 => (&[37, 23], &[3.0, 2.5], &[-3.25, 7.5]),
        3 => (&[17, 9, 6], &[3.0, 2.5, 1.75], &[-3.25, 7.5, -300.5]),
        _ => (
            &[7, 5, 3, 4],
            &[2.0, 2.5, 1.75, 1.5],
            &[-3.25, 7.5, 0.5, -700.125],
        ),
    };
    let plain = FlagField::new(kind, size)
        .with_frequency(frequency)
        .with_offset(offset);
    // Fractal and tileable fields run the specialised fill pipelines.
    let fractal = plain.clone().with_fractal(wgpu_noise::field::Fractal {
        octaves: 3,
        ..Default::default()
    });
    // Square layers in a multiple of 6 (8x8x6; 4D: 3 z-layers × 2 w per slab) are what
    // wgpu's GL backend turns into cube maps; the slab textures must avoid that shape.
    let cube_shaped: &[u32] = if dims == 4 { &[8, 8, 3, 2] } else { &[8, 8, 6] };
    let mut fields = vec![plain, fractal];
    if dims > 2 {
        fields.push(FlagField::new(kind, cube_shaped).with_frequency(&[8.0; 4]));
    }
    fields
}

/// 200 points near the origin and 200 far from it (|p| from 10 to 1e8, where a shader
/// compiler that regroups the skew's sums lands in other cells: points are evaluated as
/// given, not reduced by lattice periods).
fn points(dims: usize) -> Vec<[f32; 4]> {
    let near = (0..200).map(|i| {
        let t = i as f32;
        [
            t * 0.37 - 30.0,
            t * 0.11 + 0.7,
            1.2 - t * 0.53,
            t * 0.29 + 0.4,
        ]
    });
    let far = (0..200).map(|i| {
        let m = 10f32.powi(1 + i % 8);
        let t = i as f32;
        [
            m * (0.731 - t * 0.00173),
            -m * (0.389 + t * 0.00121),
            m * (0.947 - t * 0.00311),
            -m * (0.523 - t * 0.00197),
        ]
    });
    near.chain(far)
        .map(|p| {
            let mut q = [0.0; 4];
            q[..dims].copy_from_slice(&p[..dims]);
            q
        })
        .collect()
}

/// The matrix on one generator against one CPU lookup; returns the largest error.
///
/// Every fill must succeed: on GL, the generator also compares each 3D/4D slab with the
/// CPU reference and would fail with `NoiseError::SelfCheck` on a mismatch.
fn check_generator(label: &str, g: &GpuNoise, lut: &impl NoiseHasher) -> f32 {
    let mut worst = 0.0f32;
    for kind in NoiseKind::ALL {
        for dims in 2..=4 {
            for field in fields(kind, dims) {
                let what = format!(
                    "{label} {kind} {dims}D fill octaves {}",
                    field.fractal.octaves
                );
                let gpu = match g.generate(&field) {
                    Ok(values) => values,
                    Err(e) => panic!("{what}: {e}"),
                };
                let cpu = generate_f32(lut, &field).unwrap();
                worst = worst.max(max_error(&what, kind, dims, &gpu, &cpu));
            }
            let pts = points(dims);
            let what = format!("{label} {kind} {dims}D points");
            let gpu = common::evaluate_plain(g, kind, dims, &pts)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let cpu: Vec<f32> = pts
                .iter()
                .map(|p| noise_at(lut, kind, &p[..dims]))
                .collect();
            worst = worst.max(max_error(&what, kind, dims, &gpu, &cpu));
        }
    }
    worst
}

fn check_backend(name: &str, ctx: &GpuContext, layered: bool) {
    let seed = 7;
    for variant in [LookupVariant::Textures, LookupVariant::Hash] {
        let mut g = GpuNoise::with_variant(&ctx.device, &ctx.queue, seed, variant).unwrap();
        g.options.poison = true;
        // Several slabs per 3D/4D field.
        g.options.slab_bytes = 8 << 10;
        g.force_layered_volumes(layered);
        let label = format!(
            "{name} ({}) {variant:?}{}",
            ctx.adapter.get_info().name,
            if g.layered_volumes() { " layered" } else { "" }
        );
        let worst = match variant {
            LookupVariant::Textures => check_generator(&label, &g, &PermutationTables::new(seed)),
            LookupVariant::Hash => check_generator(&label, &g, &IntegerHasher::new(seed)),
        };
        eprintln!("PARITY {label}: max |gpu - cpu f32| = {worst:e}");
    }
}

#[test]
fn every_backend_gives_the_cpu_reference_values() {
    let contexts = common::gpu_per_backend();
    for (name, ctx) in &contexts {
        check_backend(name, ctx, false);
    }
}

/// The 2D-array fill path GL needs, on the other backends too (so a change to it is
/// caught wherever the tests run).
#[test]
fn layered_volume_fills_give_the_cpu_reference_values() {
    for (name, ctx) in common::gpu_per_backend() {
        if ctx.adapter.get_info().backend != wgpu::Backend::Gl {
            check_backend(name, &ctx, true);
        }
    }
}
