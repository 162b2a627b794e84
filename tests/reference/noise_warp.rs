//! Domain warp on the CPU: the convention of `shaders/warp.wgsl` recomputed here from the
//! plain noise functions (one iteration and Quilez's warp of a warp), amplitude 0 is the
//! unwarped field bit for bit, the displacement is bounded by the amplitude (through the
//! 1-Lipschitz F1 of cellular noise), tileable warped fields tile, and bad options are
//! clear errors.

use wgpu_noise::cpu::fill::{generate_f32, generate_f64};
use wgpu_noise::cpu::warp::WARP_SHIFT;
use wgpu_noise::cpu::{noise_at, IntegerHasher, NoiseHasher};
use wgpu_noise::field::{FlagField, Fractal, Warp};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

fn warp(amplitude: f64, octaves: u32, frequency: f64, iterations: u32) -> Warp {
    Warp {
        amplitude,
        frequency,
        octaves,
        iterations,
    }
}

/// fBm of `kind` at `p` (gain 0.5, lacunarity 2), written out from the plain functions.
fn fbm(lut: &impl NoiseHasher, kind: NoiseKind, p: &[f64], octaves: u32) -> f64 {
    let (mut sum, mut norm, mut amplitude, mut frequency) = (0.0, 0.0, 1.0, 1.0);
    for _ in 0..octaves {
        let q: Vec<f64> = p.iter().map(|v| v * frequency).collect();
        sum += amplitude * noise_at::<f64>(lut, kind, &q);
        norm += amplitude;
        amplitude *= 0.5;
        frequency *= 2.0;
    }
    sum / norm
}

/// The warped point of the documented convention: q₀ = p, q_(k+1) = p + A·W_k(q_k), with
/// component a of W_k the warp noise's fBm at q_k·F + (k·dims + a + 1)·shift.
fn warped_point(lut: &impl NoiseHasher, kind: NoiseKind, p: &[f64], w: &Warp) -> Vec<f64> {
    let warp_kind = if kind == NoiseKind::Simplex {
        NoiseKind::Simplex
    } else {
        NoiseKind::Classic
    };
    let dims = p.len();
    let mut q = p.to_vec();
    for k in 0..w.iterations as usize {
        let d: Vec<f64> = (0..dims)
            .map(|a| {
                let at: Vec<f64> = (0..dims)
                    .map(|b| q[b] * w.frequency + WARP_SHIFT[b] * (k * dims + a + 1) as f64)
                    .collect();
                fbm(lut, warp_kind, &at, w.octaves)
            })
            .collect();
        q = (0..dims).map(|a| p[a] + w.amplitude * d[a]).collect();
    }
    q
}

fn check_convention(lut: &impl NoiseHasher, label: &str) {
    for (kind, dims) in [
        (NoiseKind::Simplex, 2),
        (NoiseKind::Classic, 3),
        (NoiseKind::Simplex, 4),
        (NoiseKind::Classic, 2),
    ] {
        for w in [warp(0.75, 1, 1.0, 1), warp(1.5, 3, 0.5, 2)] {
            let size = [9, 7, 3, 2];
            let field = FlagField::new(kind, &size[..dims])
                .with_frequency(&[3.0, 2.5, 1.5, 1.0])
                .with_offset(&[-20.25, 4.5, 7.0, -3.0])
                .with_warp(w);
            let values = generate_f64(lut, &field).unwrap();
            let mut max = 0.0f64;
            for (i, v) in values.iter().enumerate() {
                let index = [
                    i as u32 % size[0],
                    (i as u32 / size[0]) % size[1],
                    (i as u32 / (size[0] * size[1])) % size[2],
                    i as u32 / (size[0] * size[1] * size[2]),
                ];
                let p = field.coordinate(index);
                let q = warped_point(lut, kind, &p[..dims], &w);
                max = max.max((v - noise_at::<f64>(lut, kind, &q)).abs());
            }
            // The same f64 operations in a different grouping: rounding only.
            assert!(
                max < 1e-12,
                "{label} {kind:?} {dims}D {w:?}: max error {max:e}"
            );
        }
    }
}

#[test]
fn the_warped_field_is_the_noise_at_the_documented_warped_point() {
    check_convention(&PermutationTables::new(7), "textures");
    check_convention(&IntegerHasher::new(7), "hash");
}

#[test]
fn amplitude_zero_is_the_unwarped_field_bit_for_bit() {
    let lut = PermutationTables::new(3);
    for kind in [NoiseKind::Classic, NoiseKind::Simplex, NoiseKind::Cellular] {
        let field = FlagField::new(kind, &[33, 17, 5])
            .with_frequency(&[4.0, 3.0, 2.0])
            .with_fractal(Fractal {
                octaves: 3,
                ..Fractal::default()
            });
        let plain = generate_f32(&lut, &field).unwrap();
        let still = generate_f32(&lut, &field.clone().with_warp(warp(0.0, 4, 3.0, 2))).unwrap();
        assert!(
            plain
                .iter()
                .zip(&still)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{kind:?}"
        );
        let moved = generate_f32(&lut, &field.with_warp(warp(0.5, 1, 1.0, 1))).unwrap();
        assert!(plain != moved, "{kind:?}: a warp of 0.5 changed nothing");
    }
}

/// Cellular F1 is 1-Lipschitz, so |F1(q) − F1(p)| ≤ |q − p| ≤ A·√N·max|warp fBm|, and
/// classic noise (the warp of cellular fields) stays within √N/2: at most A·N/2. The bound
/// is reached in places: a warp that moved points further than its amplitude says would
/// fail it.
#[test]
fn the_displacement_is_bounded_by_the_amplitude() {
    let lut = PermutationTables::new(11);
    for dims in 2..=4 {
        let size = [40, 30, 6, 4];
        let amplitude = 0.25;
        let field = FlagField::new(NoiseKind::Cellular, &size[..dims]).with_frequency(&[6.0; 4]);
        let plain = generate_f64(&lut, &field).unwrap();
        let warped = generate_f64(&lut, &field.with_warp(warp(amplitude, 2, 1.0, 1))).unwrap();
        let bound = amplitude * dims as f64 / 2.0;
        let largest = plain
            .iter()
            .zip(&warped)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        eprintln!("WARP {dims}D: max |F1(warped) - F1| = {largest:.4} (bound {bound})");
        assert!(largest <= bound, "{dims}D: {largest} > {bound}");
        assert!(
            largest > bound / 20.0,
            "{dims}D: the warp barely moved ({largest})"
        );
    }
}

/// A tileable warped field repeats with the tile: texel i and the same point one period
/// further (f64, unreduced coordinates) agree, for classic (any dimension) and simplex (2D).
#[test]
fn tileable_warped_fields_tile() {
    let lut = PermutationTables::new(5);
    for (kind, dims) in [
        (NoiseKind::Classic, 2),
        (NoiseKind::Classic, 3),
        (NoiseKind::Cellular, 4),
        (NoiseKind::Simplex, 2),
    ] {
        let size = [24, 16, 4, 3];
        let frequency = [4.0, 2.0, 2.0, 1.0];
        let w = warp(0.8, 2, 2.0, 2);
        let field = FlagField::new(kind, &size[..dims])
            .with_frequency(&frequency)
            .with_tileable(true)
            .with_warp(w);
        let shifted = field.clone().with_offset(&frequency);
        let (a, b) = (
            generate_f64(&lut, &field).unwrap(),
            generate_f64(&lut, &shifted).unwrap(),
        );
        let errors: Vec<f64> = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).collect();
        let largest = errors.iter().cloned().fold(0.0, f64::max);
        let off = errors.iter().filter(|&&e| e > 1e-9).count();
        eprintln!(
            "WARP TILE {kind:?} {dims}D: {off} of {} differ, max {largest:e}",
            a.len()
        );
        if kind != NoiseKind::Simplex {
            assert_eq!(off, 0, "{kind:?} {dims}D: max {largest:e}");
            continue;
        }
        // Tiled simplex is 4D simplex noise on a torus with the r² = 0.6 kernel, which
        // jumps by up to about 1e-3 at simplex boundaries; the torus's symmetric points
        // lie on such boundaries often, and one period further their sin/cos round the
        // other way. Measured on this grid without the warp: 17 of 384 samples differ,
        // by up to 1.15e-3. So for simplex: no difference beyond such a jump.
        assert!(largest < 2e-3, "{kind:?} {dims}D: {largest:e}");
        assert!(
            off * 10 <= a.len(),
            "{kind:?} {dims}D: {off} samples differ"
        );
    }
}

#[test]
fn bad_warp_options_are_clear_errors() {
    let field = |w: Warp| FlagField::new(NoiseKind::Simplex, &[8, 8]).with_warp(w);
    let message = |w: Warp| field(w).validate().unwrap_err().to_string();
    assert!(message(warp(f64::NAN, 1, 1.0, 1)).contains("warp amplitude"));
    assert!(message(warp(1.0, 0, 1.0, 1)).contains("warp octaves"));
    assert!(message(warp(1.0, 1, 0.0, 1)).contains("warp frequency"));
    assert!(message(warp(1.0, 1, 1.0, 9)).contains("warp iterations"));
    assert!(message(warp(1e38, 1, 1.0, 1)).contains("beyond"));
    let tiled = FlagField::new(NoiseKind::Classic, &[8, 8])
        .with_frequency(&[3.0, 3.0])
        .with_tileable(true)
        .with_warp(warp(1.0, 1, 0.5, 1));
    assert!(tiled
        .validate()
        .unwrap_err()
        .to_string()
        .contains("whole number of warp cells"));
    let gradient = field(warp(1.0, 1, 1.0, 1)).check_gradient().unwrap_err();
    assert!(gradient.to_string().contains("warped"));
}
