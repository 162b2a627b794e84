//! The GPU readback equals the f32 CPU reference, which mirrors the shaders operation for
//! operation: every function, odd sizes, several seeds, negative offsets, coordinates far
//! beyond the 256-cell period, many slabs, every row width. Targets are poisoned with NaN
//! before each fill, so a texel the shader did not write fails.

use crate::common;

use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::field::FlagField;
use wgpu_noise::gpu::GpuNoise;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{NoiseError, NoiseKind};

/// Parity tolerance, absolute. Both sides evaluate the same f32 operations on the same
/// f32 inputs; the GPU compiler may still fuse a multiply-add or reorder a sum, which
/// moves a result by a few ulps of the intermediate values (measured: ≤ 3e-8 on lavapipe).
const TOLERANCE: f32 = 1e-5;

/// Simplex 3D/4D with r² = 0.6 jump by up to ~1e-3 at simplex boundaries (design notes §3;
/// `tests/kernel_radius.rs`-style measurement: the largest jump seen is below 2e-3). A
/// sample within rounding of a boundary may be put in different simplices by the CPU and
/// the GPU, so such a sample may differ by up to this much — at most 1 in 10⁴ samples.
const BOUNDARY_JUMP: f32 = 2e-3;

struct Parity {
    max_error: f32,
    over_tolerance: usize,
}

fn compare(label: &str, field: &FlagField, gpu: &[f32], cpu: &[f32]) -> Parity {
    assert_eq!(gpu.len(), cpu.len(), "{label}: sample count");
    let mut parity = Parity {
        max_error: 0.0,
        over_tolerance: 0,
    };
    for (i, (g, c)) in gpu.iter().zip(cpu).enumerate() {
        let error = (g - c).abs();
        assert!(
            !error.is_nan(),
            "{label}: sample {i} is NaN (not written?) gpu {g} cpu {c}"
        );
        parity.max_error = parity.max_error.max(error);
        if error > TOLERANCE {
            parity.over_tolerance += 1;
            let boundary_case =
                field.kind == NoiseKind::Simplex && field.dims > 2 && error <= BOUNDARY_JUMP;
            assert!(
                boundary_case,
                "{label}: sample {i}: gpu {g} cpu {c} differ by {error:e}"
            );
        }
    }
    assert!(
        parity.over_tolerance * 10_000 <= gpu.len().max(10_000),
        "{label}: {} samples over tolerance",
        parity.over_tolerance
    );
    parity
}

fn check(g: &GpuNoise, seed: u64, field: &FlagField) -> Parity {
    let label = format!(
        "{} {}D {:?} seed {seed}",
        field.kind,
        field.dims,
        &field.size[..field.dims]
    );
    let gpu = g.generate(field).unwrap_or_else(|e| panic!("{label}: {e}"));
    let cpu = generate_f32(&PermutationTables::new(seed), field).unwrap();
    compare(&label, field, &gpu, &cpu)
}

fn fields(kind: NoiseKind, dims: usize) -> Vec<FlagField> {
    let sizes: &[&[u32]] = match dims {
        2 => &[&[37, 23], &[1, 9], &[255, 3], &[1000, 2], &[64, 64]],
        3 => &[&[17, 9, 5], &[1, 1, 1], &[33, 2, 7]],
        _ => &[&[7, 5, 3, 4], &[9, 1, 2, 3]],
    };
    let placements: [(&[f64], &[f64]); 3] = [
        (&[3.0, 2.5, 1.75, 2.0], &[0.0, 0.0, 0.0, 0.0]),
        (&[7.3, 11.0, 4.2, 3.3], &[-300.7, -12.25, -1.5, -700.125]),
        (&[2.0, 5.0, 3.0, 1.0], &[513.25, 1000.5, 256.0, 255.9]),
    ];
    let mut out = Vec::new();
    for size in sizes {
        for (frequency, offset) in placements {
            out.push(
                FlagField::new(kind, size)
                    .with_frequency(frequency)
                    .with_offset(offset),
            );
        }
    }
    out
}

fn parity_of(kind: NoiseKind, dims: usize) {
    let Some(ctx) = common::gpu() else { return };
    let mut g = common::generator(&ctx, 0);
    let mut worst = Parity {
        max_error: 0.0,
        over_tolerance: 0,
    };
    let mut samples = 0;
    for seed in [0, 1, 12345] {
        g.set_seed(seed);
        for field in fields(kind, dims) {
            let p = check(&g, seed, &field);
            samples += field.len();
            worst.max_error = worst.max_error.max(p.max_error);
            worst.over_tolerance += p.over_tolerance;
        }
    }
    eprintln!(
        "PARITY {kind}{dims}: max |gpu - cpu f32| = {:e} over {samples} samples, {} over {TOLERANCE:e}",
        worst.max_error, worst.over_tolerance
    );
}

#[test]
fn classic_2d_gpu_equals_cpu() {
    parity_of(NoiseKind::Classic, 2);
}

#[test]
fn classic_3d_gpu_equals_cpu() {
    parity_of(NoiseKind::Classic, 3);
}

#[test]
fn classic_4d_gpu_equals_cpu() {
    parity_of(NoiseKind::Classic, 4);
}

#[test]
fn simplex_2d_gpu_equals_cpu() {
    parity_of(NoiseKind::Simplex, 2);
}

#[test]
fn simplex_3d_gpu_equals_cpu() {
    parity_of(NoiseKind::Simplex, 3);
}

#[test]
fn simplex_4d_gpu_equals_cpu() {
    parity_of(NoiseKind::Simplex, 4);
}

#[test]
fn every_row_width_reads_back_without_padding_artifacts() {
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 0);
    for width in [1, 2, 37, 63, 64, 65, 255, 256, 257, 1000] {
        for kind in NoiseKind::ALL {
            check(
                &g,
                0,
                &FlagField::new(kind, &[width, 3]).with_frequency(&[5.0, 2.0]),
            );
            check(
                &g,
                0,
                &FlagField::new(kind, &[width, 2, 2]).with_frequency(&[5.0, 2.0, 1.0]),
            );
        }
    }
}

#[test]
fn small_slabs_give_the_same_field_as_one_slab() {
    let Some(ctx) = common::gpu() else { return };
    let mut g = common::generator(&ctx, 5);
    g.options.slab_bytes = 4096; // forces one layer (or a few) per slab
    for size in [&[45u32, 31][..], &[13, 11, 9], &[6, 5, 4, 7]] {
        let field = FlagField::new(NoiseKind::Simplex, size).with_frequency(&[4.0, 3.0, 2.0, 2.0]);
        let layers = g.slab_layers(&field).unwrap();
        assert!(
            layers < size[size.len() - 1],
            "the test must exercise several slabs"
        );
        check(&g, 5, &field);
    }
}

#[test]
fn a_4d_volume_larger_than_a_slab_is_split_along_z() {
    let Some(ctx) = common::gpu() else { return };
    let mut g = common::generator(&ctx, 2);
    let field = FlagField::new(NoiseKind::Classic, &[20, 12, 9, 3])
        .with_frequency(&[3.0, 2.0, 2.0, 1.5])
        .with_offset(&[-4.5, 0.25, 7.0, 300.0]);
    // One w-volume is 9 z-slices of 12 rows × 256 padded bytes = 27 KiB: a 8 KiB budget
    // holds 2 slices per slab, so each volume is generated in 5 slabs.
    g.options.slab_bytes = 8 << 10;
    let mut slabs = Vec::new();
    g.generate_slabs(&field, |slab, values| {
        slabs.push((slab, values.len()));
        Ok(())
    })
    .unwrap();
    assert_eq!(slabs.len(), 3 * 5, "{slabs:?}");
    assert!(slabs
        .iter()
        .all(|(s, len)| s.z_range.is_some() && *len <= 2 * 12 * 20));
    check(&g, 2, &field);
}

/// The check has teeth: tables that differ from the CPU's make parity fail.
#[test]
fn a_wrong_texture_upload_breaks_parity() {
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 0);
    let field3 = FlagField::new(NoiseKind::Simplex, &[32, 16, 8]).with_frequency(&[4.0, 2.0, 1.0]);
    let field4 =
        FlagField::new(NoiseKind::Classic, &[8, 8, 4, 4]).with_frequency(&[2.0, 2.0, 1.0, 1.0]);
    let reference = PermutationTables::new(0);
    let cpu3 = generate_f32(&reference, &field3).unwrap();
    let cpu4 = generate_f32(&reference, &field4).unwrap();
    let max_error = |gpu: Vec<f32>, cpu: &[f32]| {
        gpu.iter()
            .zip(cpu)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max)
    };

    // The self-check runs on first use of each dimension (tests/gpu/self_check.rs); pass it
    // first, so what follows measures the fills themselves.
    g.self_check(NoiseKind::Simplex, 3).unwrap();
    g.self_check(NoiseKind::Classic, 4).unwrap();
    // A shuffled permutation (another seed's tables) uploaded behind the CPU's back.
    g.lookup().upload(g.queue(), &PermutationTables::new(99));
    let shuffled = max_error(g.generate(&field3).unwrap(), &cpu3);
    // One wrong 4D gradient: the texel of the corner (0,0,0,0) of the first cell,
    // grad4 at T(0, T(0, 0)), flipped.
    let mut corrupted = reference.clone();
    let corner = reference.hash_grad3[0][0] as usize * 256;
    corrupted.grad4[corner] = corrupted.grad4[corner].map(|c| 2 - c);
    g.lookup().upload(g.queue(), &corrupted);
    let one_gradient = max_error(g.generate(&field4).unwrap(), &cpu4);
    // Two entries of the permutation texture (used by 3D) swapped.
    let mut corrupted = reference.clone();
    corrupted.perm.swap(0, 1);
    g.lookup().upload(g.queue(), &corrupted);
    let two_perm_entries = max_error(g.generate(&field3).unwrap(), &cpu3);
    // And back to the right tables: parity again.
    g.lookup().upload(g.queue(), &reference);
    let restored = max_error(g.generate(&field3).unwrap(), &cpu3);
    eprintln!(
        "TEETH max error with a shuffled table {shuffled:e}, one flipped gradient {one_gradient:e}, \
         two swapped perm entries {two_perm_entries:e}; restored {restored:e}"
    );
    assert!(
        shuffled > 0.1,
        "a shuffled permutation went unnoticed ({shuffled})"
    );
    assert!(
        one_gradient > 0.01,
        "a flipped gradient went unnoticed ({one_gradient})"
    );
    assert!(
        two_perm_entries > 0.01,
        "swapped permutation entries went unnoticed ({two_perm_entries})"
    );
    assert!(restored <= TOLERANCE);
}

#[test]
fn a_256_cubed_volume_is_filled_correctly() {
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 0);
    for kind in NoiseKind::ALL {
        let field = FlagField::new(kind, &[256, 256, 256])
            .with_frequency(&[8.0, 8.0, 8.0])
            .with_offset(&[-3.5, 100.25, 7.0]);
        let p = check(&g, 0, &field);
        eprintln!(
            "256³ {kind}: max error {:e}, {} over tolerance",
            p.max_error, p.over_tolerance
        );
    }
}

#[test]
fn a_64_to_the_4th_field_is_filled_correctly() {
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 0);
    for kind in NoiseKind::ALL {
        let field = FlagField::new(kind, &[64, 64, 64, 64])
            .with_frequency(&[4.0, 4.0, 4.0, 4.0])
            .with_offset(&[1.5, -2.0, 0.0, 9.75]);
        let p = check(&g, 0, &field);
        eprintln!(
            "64⁴ {kind}: max error {:e}, {} over tolerance",
            p.max_error, p.over_tolerance
        );
    }
}

#[test]
fn sizes_beyond_the_device_limits_are_clear_errors() {
    let Some(ctx) = common::gpu() else { return };
    let g = GpuNoise::new(&ctx.device, &ctx.queue, 0).unwrap();
    let limits = ctx.device.limits();
    let too_wide = limits.max_texture_dimension_2d + 1;
    let err = g
        .generate(&FlagField::new(NoiseKind::Simplex, &[too_wide, 2]))
        .unwrap_err();
    assert!(matches!(err, NoiseError::ExceedsLimit { .. }), "{err}");
    assert!(err.to_string().contains("size along x"), "{err}");
    let too_deep = limits.max_texture_dimension_3d + 1;
    let err = g
        .generate(&FlagField::new(NoiseKind::Classic, &[4, 4, too_deep, 2]))
        .unwrap_err();
    assert!(err.to_string().contains("size along z"), "{err}");
    eprintln!("limit error: {err}");
    // A tall 2D field (more rows than one texture holds) is split into slabs instead.
    let tall = FlagField::new(
        NoiseKind::Simplex,
        &[2, limits.max_texture_dimension_2d + 3],
    )
    .with_frequency(&[1.0, 64.0]);
    assert_eq!(g.generate(&tall).unwrap().len() as u64, tall.len());
    // Invalid fields are rejected before any GPU work.
    let err = g
        .generate(&FlagField::new(NoiseKind::Simplex, &[0, 5]))
        .unwrap_err();
    assert!(matches!(err, NoiseError::InvalidField(_)), "{err}");
}
