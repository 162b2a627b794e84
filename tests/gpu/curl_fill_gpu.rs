//! The GPU's curl fill (`GpuNoise::generate_curl_slabs`) equals the f32 CPU curl noise
//! (`cpu::fill::fill_slab_curl`) on every backend the machine offers, with both lookup
//! variants, in 2D and 3D, in one slab and in many, including the square
//! multiple-of-6-layer shapes wgpu's GL backend makes cube maps of; fields curl noise
//! does not have are refused with a reason.

use crate::common;

use wgpu_noise::cpu::fill::fill_slab_curl;
use wgpu_noise::cpu::lookup::{IntegerHasher, NoiseHasher};
use wgpu_noise::field::FlagField;
use wgpu_noise::gpu::parity::{GRADIENT_TOLERANCE_SCALE, PARITY_TOLERANCE};
use wgpu_noise::gpu::{GpuNoise, LookupVariant};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{NoiseError, NoiseKind};

/// The GPU's curl field of `field`, `dims` components per texel, slab by slab, and the
/// number of slabs it came in.
fn gpu_curl(g: &GpuNoise, field: &FlagField) -> (Vec<f32>, usize) {
    let mut out = Vec::new();
    let mut slabs = 0;
    g.generate_curl_slabs(field, |_, texels| {
        slabs += 1;
        for t in texels {
            out.extend_from_slice(&t[..field.dims]);
            // The unused channels are written as 0, not left as the poison.
            assert!(t[field.dims..].iter().all(|&v| v == 0.0), "{t:?}");
        }
        Ok(())
    })
    .expect("curl fill");
    (out, slabs)
}

fn cpu_curl(lut: &impl NoiseHasher, field: &FlagField) -> Vec<f32> {
    let params = FillParams::new(field, Slab::whole(field));
    let mut out = vec![0.0f32; params.len() * field.dims];
    fill_slab_curl(lut, field.dims, &params, &mut out);
    out
}

#[test]
fn curl_fields_equal_the_cpu_curl_noise_on_every_backend_and_lookup() {
    let sizes: [&[u32]; 5] = [&[16, 16], &[33, 7], &[8, 8, 6], &[8, 8, 12], &[17, 9, 5]];
    // Curl components are derivatives (up to about ±8): the gradient channels' rule.
    let tolerance = PARITY_TOLERANCE * GRADIENT_TOLERANCE_SCALE;
    for (name, ctx) in common::gpu_per_backend() {
        for variant in [LookupVariant::Textures, LookupVariant::Hash] {
            let mut g =
                GpuNoise::with_variant(&ctx.device, &ctx.queue, 5, variant).expect("generator");
            g.options.poison = true;
            for size in sizes {
                let field = FlagField::new(NoiseKind::Simplex, size)
                    .with_frequency(&[5.0, 3.5, 2.5])
                    .with_offset(&[-17.25, 3.5, 40.125]);
                let (gpu, _) = gpu_curl(&g, &field);
                let cpu = match variant {
                    LookupVariant::Textures => cpu_curl(&PermutationTables::new(5), &field),
                    LookupVariant::Hash => cpu_curl(&IntegerHasher::new(5), &field),
                };
                assert_eq!(gpu.len(), cpu.len());
                let worst =
                    gpu.iter()
                        .zip(&cpu)
                        .map(|(a, b)| (a - b).abs())
                        .fold(
                            0.0f32,
                            |m, e| if e.is_nan() { f32::INFINITY } else { m.max(e) },
                        );
                let largest = cpu.iter().fold(0.0f32, |m, v| m.max(v.abs()));
                eprintln!(
                    "CURL FILL {name} {variant:?} {size:?}: max |GPU - CPU| {worst:e} (largest component {largest:.3})"
                );
                assert!(worst <= tolerance, "{name} {variant:?} {size:?}: {worst:e}");
                // Not a field of zeros that would pass trivially.
                assert!(
                    largest > 0.5,
                    "{name} {variant:?} {size:?}: largest {largest}"
                );
            }
        }
    }
}

#[test]
fn a_curl_field_larger_than_one_slab_comes_in_slabs_in_order() {
    for (name, ctx) in common::gpu_per_backend() {
        let mut g = common::generator(&ctx, 0);
        // 3D, 64×64×24 texels of 16 bytes: 1.5 MiB, four slabs of 384 KiB.
        g.options.slab_bytes = 64 * 64 * 16 * 6;
        let field = FlagField::new(NoiseKind::Simplex, &[64, 64, 24]).with_frequency(&[4.0; 3]);
        let (gpu, slabs) = gpu_curl(&g, &field);
        assert!(slabs >= 4, "{name}: {slabs} slabs");
        let cpu = cpu_curl(&PermutationTables::new(0), &field);
        let worst = gpu
            .iter()
            .zip(&cpu)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        eprintln!("CURL FILL {name} {slabs} slabs: max |GPU - CPU| {worst:e}");
        assert!(
            worst <= PARITY_TOLERANCE * GRADIENT_TOLERANCE_SCALE,
            "{name}: {worst:e}"
        );
    }
}

#[test]
fn fields_without_curl_noise_are_refused_with_the_reason() {
    let Some(ctx) = common::gpu() else {
        return;
    };
    let g = common::generator(&ctx, 0);
    let cases = [
        (FlagField::new(NoiseKind::Classic, &[8, 8]), "simplex"),
        (
            FlagField::new(NoiseKind::Simplex, &[4, 4, 4, 4]),
            "2D or 3D",
        ),
        (
            FlagField::new(NoiseKind::Simplex, &[8, 8]).with_fractal(wgpu_noise::field::Fractal {
                octaves: 2,
                ..Default::default()
            }),
            "octave",
        ),
    ];
    for (field, reason) in cases {
        match g.generate_curl_slabs(&field, |_, _| Ok(())) {
            Err(NoiseError::InvalidField(m)) => assert!(m.contains(reason), "{m}"),
            other => panic!("{field:?}: {other:?}"),
        }
    }
}
