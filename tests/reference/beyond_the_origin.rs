//! Fractal sums, tileable noise, the kernel radius option and large coordinates: each on
//! the GPU and the CPU reference, with its measured figure printed.

use crate::common;

use wgpu_noise::cpu::fill::{generate_f32, generate_f64};
use wgpu_noise::cpu::simplex::{simplex3_r2, simplex4_r2, SIMPLEX3_R05_SCALE, SIMPLEX4_R05_SCALE};
use wgpu_noise::field::{FlagField, Fractal, FractalMode, Kernel};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// GPU vs f32 CPU parity tolerance (see tests/gpu/gpu_parity.rs). Fractal sums add octaves
/// of values that each meet it, normalised by the sum of amplitudes, so it still holds.
const TOLERANCE: f32 = 1e-5;

fn max_abs_difference(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, |m, d| if d.is_nan() { f32::NAN } else { m.max(d) })
}

#[test]
fn fractal_sums_match_on_gpu_and_cpu() {
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 3);
    let lut = PermutationTables::new(3);
    for mode in [
        FractalMode::Fbm,
        FractalMode::Turbulence,
        FractalMode::Ridged,
    ] {
        for kind in NoiseKind::ALL {
            for size in [&[29u32, 17][..], &[9, 8, 7], &[5, 4, 3, 3]] {
                let fractal = Fractal {
                    mode,
                    octaves: 5,
                    lacunarity: 2.0,
                    gain: 0.5,
                };
                let field = FlagField::new(kind, size)
                    .with_frequency(&[3.0, 2.0, 2.0, 1.0])
                    .with_offset(&[-7.25, 3.5, 300.0, 1.0])
                    .with_fractal(fractal);
                let gpu = g.generate(&field).unwrap();
                let cpu = generate_f32(&lut, &field).unwrap();
                let error = max_abs_difference(&gpu, &cpu);
                eprintln!(
                    "FRACTAL {mode:?} {kind} {}D: max |gpu - cpu| = {error:e}",
                    size.len()
                );
                let bound = if kind == NoiseKind::Simplex && size.len() > 2 {
                    2e-3
                } else {
                    TOLERANCE
                };
                assert!(error <= bound, "{mode:?} {kind} {}D: {error}", size.len());
            }
        }
    }
}

#[test]
fn one_fbm_octave_is_the_base_noise_and_more_octaves_add_detail() {
    let lut = PermutationTables::default();
    let base = FlagField::new(NoiseKind::Simplex, &[64, 64]).with_frequency(&[4.0, 4.0]);
    let one = base.clone().with_fractal(Fractal {
        octaves: 1,
        ..Fractal::default()
    });
    assert_eq!(
        generate_f32(&lut, &base).unwrap(),
        generate_f32(&lut, &one).unwrap()
    );
    let six = generate_f32(
        &lut,
        &base.clone().with_fractal(Fractal {
            octaves: 6,
            ..Fractal::default()
        }),
    )
    .unwrap();
    // Fine detail shows in the second difference along rows (the curvature).
    let roughness = |v: &[f32]| {
        v.windows(3)
            .map(|w| (w[2] - 2.0 * w[1] + w[0]).abs())
            .sum::<f32>()
            / v.len() as f32
    };
    let plain = generate_f32(&lut, &base).unwrap();
    eprintln!(
        "mean |second difference|: 1 octave {:.4}, 6 octaves {:.4}",
        roughness(&plain),
        roughness(&six)
    );
    assert!(
        roughness(&six) > 1.5 * roughness(&plain),
        "measured ratio is ~2"
    );
    for mode in [FractalMode::Turbulence, FractalMode::Ridged] {
        let v = generate_f32(
            &lut,
            &base.clone().with_fractal(Fractal {
                mode,
                octaves: 4,
                ..Fractal::default()
            }),
        )
        .unwrap();
        assert!(
            v.iter().all(|x| (0.0..=1.0).contains(x)),
            "{mode:?} leaves [0, 1]"
        );
    }
}

/// The jump between the last and the first texel of a row (across the tile edge), as a
/// multiple of the largest jump between neighbours inside the texture.
fn edge_seam(values: &[f32], width: usize, height: usize) -> (f32, f32) {
    let mut inside = 0.0f32;
    let mut across = 0.0f32;
    for y in 0..height {
        let row = &values[y * width..(y + 1) * width];
        for x in 1..width {
            inside = inside.max((row[x] - row[x - 1]).abs());
        }
        across = across.max((row[0] - row[width - 1]).abs());
    }
    for x in 0..width {
        across = across.max((values[x] - values[(height - 1) * width + x]).abs());
    }
    (across, inside)
}

#[test]
fn tileable_textures_join_seamlessly_at_opposite_edges() {
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 0);
    let lut = PermutationTables::default();
    let (w, h) = (96usize, 80usize);
    for kind in NoiseKind::ALL {
        for octaves in [1, 4] {
            let fractal = Fractal {
                octaves,
                ..Fractal::default()
            };
            let field = FlagField::new(kind, &[w as u32, h as u32])
                .with_frequency(&[6.0, 5.0])
                .with_offset(&[-3.0, 1000.0])
                .with_fractal(fractal);
            let tiled = g.generate(&field.clone().with_tileable(true)).unwrap();
            // Tileable simplex goes through cos/sin (the torus), which GPUs do not round as
            // the CPU's libm does: measured up to 1.7e-3 over nine 256² bakes (the bake's
            // --verify default for it is 4e-3); classic tiling has no transcendental.
            let bound = if kind == NoiseKind::Simplex {
                4e-3
            } else {
                TOLERANCE
            };
            let error = max_abs_difference(
                &tiled,
                &generate_f32(&lut, &field.clone().with_tileable(true)).unwrap(),
            );
            assert!(error <= bound, "{kind} tiled: gpu vs cpu {error}");
            let plain = g.generate(&field).unwrap();
            let (seam, inside) = edge_seam(&tiled, w, h);
            let (plain_seam, _) = edge_seam(&plain, w, h);
            eprintln!("TILE {kind} {octaves} octave(s): seam jump {seam:.4} vs largest inner step {inside:.4}; untiled seam {plain_seam:.4}");
            assert!(seam <= inside * 1.01, "{kind}: the seam is a visible edge");
            assert!(
                plain_seam > inside,
                "{kind}: untiled noise should not join by accident"
            );
        }
    }
    // Classic noise tiles in 3D too, and the period is exact in f64.
    let field = FlagField::new(NoiseKind::Classic, &[4, 4, 4])
        .with_frequency(&[3.0, 4.0, 5.0])
        .with_tileable(true);
    let settings = wgpu_noise::params::NoiseSettings::of(&field);
    for p in [[0.3, 1.7, 2.2], [-5.5, 8.25, 0.125]] {
        let a = wgpu_noise::cpu::fractal::fractal::<f64>(&lut, NoiseKind::Classic, &p, &settings);
        let b = wgpu_noise::cpu::fractal::fractal::<f64>(
            &lut,
            NoiseKind::Classic,
            &[p[0] + 3.0, p[1] - 4.0, p[2] + 10.0],
            &settings,
        );
        assert!((a - b).abs() < 1e-12, "classic 3D tile period: {a} vs {b}");
    }
}

/// Walks random segments and bisects each change of simplex (found by comparing the
/// skewed cell and the ordering of the offsets) down to 1e-13; the jump is the change of
/// the value across it.
fn largest_boundary_jump(dims: usize, noise: impl Fn(&[f64]) -> f64) -> f64 {
    let simplex_of = |p: &[f64]| -> Vec<i64> {
        let (f, g) = wgpu_noise::cpu::simplex::skew_factors(dims);
        let s: f64 = p.iter().sum::<f64>() * f;
        let cell: Vec<f64> = p.iter().map(|c| (c + s).floor()).collect();
        let t: f64 = cell.iter().sum::<f64>() * g;
        let d: Vec<f64> = p.iter().zip(&cell).map(|(c, k)| c - (k - t)).collect();
        let mut key: Vec<i64> = cell.iter().map(|&k| k as i64).collect();
        for a in 0..dims {
            for b in a + 1..dims {
                key.push((d[a] > d[b]) as i64);
            }
        }
        key
    };
    let mut state = 12345u64;
    let mut rnd = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut largest = 0.0f64;
    for _ in 0..400 {
        let start: Vec<f64> = (0..dims).map(|_| rnd() * 40.0 - 20.0).collect();
        let dir: Vec<f64> = (0..dims).map(|_| rnd() - 0.5).collect();
        let at = |t: f64| -> Vec<f64> { start.iter().zip(&dir).map(|(s, d)| s + t * d).collect() };
        let steps = 200;
        for i in 0..steps {
            let (mut lo, mut hi) = (i as f64 * 0.02, (i + 1) as f64 * 0.02);
            if simplex_of(&at(lo)) == simplex_of(&at(hi)) {
                continue;
            }
            while hi - lo > 1e-13 {
                let mid = 0.5 * (lo + hi);
                if simplex_of(&at(mid)) == simplex_of(&at(lo)) {
                    lo = mid
                } else {
                    hi = mid
                }
            }
            largest = largest.max((noise(&at(hi)) - noise(&at(lo))).abs());
        }
    }
    largest
}

#[test]
fn the_continuous_kernel_removes_the_jumps_at_simplex_boundaries() {
    let lut = PermutationTables::default();
    let jump3_06 = largest_boundary_jump(3, |p| simplex3_r2(&lut, p[0], p[1], p[2], 0.6, 32.0));
    let jump3_05 = largest_boundary_jump(3, |p| {
        simplex3_r2(&lut, p[0], p[1], p[2], 0.5, SIMPLEX3_R05_SCALE)
    });
    let jump4_06 =
        largest_boundary_jump(4, |p| simplex4_r2(&lut, p[0], p[1], p[2], p[3], 0.6, 27.0));
    let jump4_05 = largest_boundary_jump(4, |p| {
        simplex4_r2(&lut, p[0], p[1], p[2], p[3], 0.5, SIMPLEX4_R05_SCALE)
    });
    eprintln!("JUMP at simplex boundaries: 3D r²=0.6 {jump3_06:e}, r²=0.5 {jump3_05:e}; 4D r²=0.6 {jump4_06:e}, r²=0.5 {jump4_05:e}");
    // A boundary crossing moves the point by < 1e-13 with slope < 100: a continuous
    // function changes by < 1e-11 there.
    assert!(jump3_05 < 1e-10 && jump4_05 < 1e-10);
    assert!(
        jump3_06 > 1e-4 && jump4_06 > 1e-4,
        "r² = 0.6 is known to jump; the search must find it"
    );
}

#[test]
fn the_continuous_kernel_runs_on_the_gpu() {
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 0);
    let lut = PermutationTables::default();
    for size in [&[31u32, 17, 9][..], &[9, 7, 5, 3]] {
        let field = FlagField::new(NoiseKind::Simplex, size)
            .with_frequency(&[5.0, 3.0, 2.0, 2.0])
            .with_kernel(Kernel::Continuous);
        let gpu = g.generate(&field).unwrap();
        let error = max_abs_difference(&gpu, &generate_f32(&lut, &field).unwrap());
        let range = gpu.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        eprintln!(
            "KERNEL r²=0.5 simplex {}D: max |gpu - cpu| = {error:e}, max |value| = {range:.3}",
            size.len()
        );
        assert!(error <= TOLERANCE);
        assert!(range <= 1.0 && range > 0.5);
    }
}

/// Offsets are reduced by whole periods in f64 on the host. Without that, f32 has only
/// 1/16 (at 10⁶) or 1 (at 10⁷) of a cell of resolution: such a field is refused.
#[test]
fn large_offsets_match_the_f64_reference_only_with_period_reduction() {
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 0);
    let lut = PermutationTables::default();
    // f32 noise near the origin vs the f64 reference: coordinates below 1024 carry an f32
    // rounding of ≤ 6e-5 and the slope stays below 5, so 5e-4 bounds the honest error.
    let tolerance = 5e-4;
    for kind in NoiseKind::ALL {
        for dims in [2usize, 3] {
            for magnitude in [1e6, 1e7, -1e7] {
                let offset = [
                    magnitude + 0.37,
                    magnitude * 0.5 - 0.71,
                    0.5 * magnitude,
                    0.0,
                ];
                let field = FlagField::new(kind, &[33, 17, 5, 1][..dims])
                    .with_frequency(&[4.0, 2.0, 1.0])
                    .with_offset(&offset[..dims]);
                let reference: Vec<f32> = generate_f64(&lut, &field)
                    .unwrap()
                    .into_iter()
                    .map(|v| v as f32)
                    .collect();
                let reduced = max_abs_difference(&g.generate(&field).unwrap(), &reference);
                // Without reduction the f32 coordinates of adjacent texels coincide: the
                // field is refused (tests/reference/offset_resolution.rs) instead of being garbage.
                let mut raw = field.clone();
                raw.reduce_offset = false;
                let unreduced = g.generate(&raw);
                eprintln!("LARGE {kind} {dims}D offset {magnitude:e}: max error with reduction {reduced:e}");
                let bound = if kind == NoiseKind::Simplex && dims == 3 {
                    2e-3
                } else {
                    tolerance
                };
                assert!(reduced <= bound, "{kind} {dims}D at {magnitude}: {reduced}");
                assert!(
                    matches!(unreduced, Err(wgpu_noise::NoiseError::InvalidField(_))),
                    "{kind} {dims}D at {magnitude}: unreduced f32 coordinates must be refused"
                );
            }
        }
    }
}
