//! Domain warp on the GPU equals the f32 CPU mirror, on every backend: classic, simplex and
//! cellular noise, 2D/3D/4D, both lookup variants (taking turns by kind), one iteration and
//! Quilez's warp of a warp, several warp octaves and frequencies, fractal sums and tiling.
//! Targets are poisoned with NaN, so an unwritten texel fails.

use crate::common;

use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::IntegerHasher;
use wgpu_noise::field::{FlagField, Fractal, FractalMode, Warp};
use wgpu_noise::shader::LookupVariant;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// The library's parity tolerance of warped fields: `gpu::parity::tolerance` (its
/// `WARP_TOLERANCE_PER_AMPLITUDE` says why it grows with the amplitude).
use wgpu_noise::gpu::parity::tolerance;

/// Simplex 3D/4D with the r² = 0.6 kernel and the cell value of cellular noise jump at
/// boundaries; a warped point within rounding of one may land on either side on the CPU
/// and the GPU. At most one sample in 10⁴ may, by at most a boundary jump (2e-3) for
/// simplex; the cell value jumps by up to 2.
const BOUNDARY_SHARE: usize = 10_000;

fn fields(kind: NoiseKind, dims: usize) -> Vec<FlagField> {
    let size: &[u32] = match dims {
        2 => &[37, 23],
        3 => &[13, 9, 5],
        _ => &[7, 5, 3, 4],
    };
    let base = FlagField::new(kind, size)
        .with_frequency(&[6.3, 5.0, 4.2, 3.3])
        .with_offset(&[-300.7, 12.25, -1.5, 700.125]);
    let warp = |amplitude, octaves, frequency, iterations| Warp {
        amplitude,
        frequency,
        octaves,
        iterations,
    };
    let mut out = vec![
        base.clone().with_warp(warp(0.75, 1, 1.0, 1)),
        base.clone().with_warp(warp(1.5, 3, 0.5, 2)),
        base.clone()
            .with_warp(warp(-0.4, 2, 2.0, 1))
            .with_fractal(Fractal {
                mode: FractalMode::Ridged,
                octaves: 3,
                ..Fractal::default()
            }),
    ];
    if kind != NoiseKind::Simplex || dims == 2 {
        out.push(
            FlagField::new(kind, size)
                .with_frequency(&[4.0, 3.0, 2.0, 2.0])
                .with_tileable(true)
                .with_fractal(Fractal {
                    octaves: 2,
                    ..Fractal::default()
                })
                .with_warp(warp(1.0, 2, 2.0, 2)),
        );
    }
    out
}

#[test]
fn warped_fields_equal_the_cpu_mirror_on_every_backend() {
    let seed = 4242;
    for (backend_index, (backend, ctx)) in common::gpu_per_backend().into_iter().enumerate() {
        let mut generators = common::generator_per_lookup(&ctx, seed);
        let kinds = [NoiseKind::Classic, NoiseKind::Simplex, NoiseKind::Cellular];
        // The lookups take turns by kind, starting apart on each backend: every backend
        // runs both, every kind runs both, at half the pipelines of every pair (compiling
        // them is the test's time on lavapipe and llvmpipe).
        for (k, kind) in kinds.into_iter().enumerate() {
            let (variant, g) = &mut generators[(backend_index + k) % common::LOOKUPS.len()];
            let variant = *variant;
            g.options.poison = true;
            for dims in 2..=4 {
                let (mut max, mut boundary, mut samples) = (0.0f32, 0usize, 0usize);
                let mut worst = 0.0f32;
                for field in fields(kind, dims) {
                    let label = format!("{backend} {variant:?} {kind:?} {dims}D {:?}", field.warp);
                    let gpu = g
                        .generate(&field)
                        .unwrap_or_else(|e| panic!("{label}: {e}"));
                    let cpu = match variant {
                        LookupVariant::Textures => {
                            generate_f32(&PermutationTables::new(seed), &field)
                        }
                        LookupVariant::Hash => generate_f32(&IntegerHasher::new(seed), &field),
                    }
                    .unwrap();
                    let mut over = 0;
                    for (i, (a, b)) in gpu.iter().zip(&cpu).enumerate() {
                        let e = (a - b).abs();
                        assert!(!e.is_nan(), "{label}: sample {i}: gpu {a} cpu {b}");
                        worst = worst.max(e);
                        if e > tolerance(&field) {
                            let jump = if kind == NoiseKind::Cellular {
                                2.0
                            } else {
                                2e-3
                            };
                            assert!(e <= jump, "{label}: sample {i}: gpu {a} cpu {b}");
                            over += 1;
                        } else {
                            max = max.max(e);
                        }
                    }
                    // Tileable simplex is 4D simplex on a torus through sin/cos, which
                    // the GPU rounds differently from libm; the torus's symmetric points
                    // lie on simplex boundaries often, and each of the warp's nine
                    // evaluations here may land on the other side of one. Measured on
                    // lavapipe: 5 of 851 samples. Allow 1 in 100 there.
                    let share = if field.tileable && kind == NoiseKind::Simplex {
                        100
                    } else {
                        BOUNDARY_SHARE
                    };
                    assert!(
                        over * share <= gpu.len().max(share),
                        "{label}: {over} samples differ"
                    );
                    boundary += over;
                    samples += gpu.len();
                }
                eprintln!(
                    "PARITY warp {backend} {variant:?} {kind:?} {dims}D: max |gpu - cpu f32| = {max:e} over {samples} samples; {boundary} on a boundary, max {worst:e} with them"
                );
            }
        }
    }
}
