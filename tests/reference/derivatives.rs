//! Analytic derivatives of simplex and flow noise (as Gustavson's sdnoise): the f64 gradient equals
//! central finite differences of the f64 reference, and the GPU's equals the f32 CPU's.

use crate::common;

use wgpu_noise::cpu::simplex::{
    flow2, flow2_deriv, flow3_deriv, flow3_r2, simplex2, simplex2_deriv, simplex3_deriv,
    simplex3_r2, simplex4_deriv, simplex4_r2, SIMPLEX3_R05_SCALE, SIMPLEX4_R05_SCALE,
};
use wgpu_noise::field::FlagField;
use wgpu_noise::tables::PermutationTables;

struct Rng(u64);

impl Rng {
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (self.0 >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo)
    }
}

/// Central differences with step h err by h²·f'''/6 plus rounding 1e-16/h ≈ 1e-11; measured
/// below 2.1e-8 (third derivatives reach ~1e3). 1e-6 leaves a margin and still catches a
/// wrong term, which errs by ~1e-1.
const H: f64 = 1e-5;
const FD_TOLERANCE: f64 = 1e-6;

/// Compares `deriv` (value then gradient) with central differences of `value` at random
/// points, skipping points where a difference step changes simplex (the r² = 0.6 kernel
/// jumps there, so no derivative exists).
fn check_against_finite_differences<const N: usize>(
    name: &str,
    value: impl Fn(&[f64; N]) -> f64,
    deriv: impl Fn(&[f64; N]) -> Vec<f64>,
    continuous: bool,
) {
    let mut rng = Rng(N as u64 * 31 + continuous as u64);
    let mut largest = 0.0f64;
    let mut checked = 0;
    for _ in 0..5000 {
        let p: [f64; N] = std::array::from_fn(|_| rng.uniform(-300.0, 300.0));
        let d = deriv(&p);
        assert!(
            (d[0] - value(&p)).abs() < 1e-12,
            "{name}: the value must equal the plain function"
        );
        let mut differences = [0.0; N];
        let mut jumped = false;
        for a in 0..N {
            let (mut lo, mut hi) = (p, p);
            lo[a] -= H;
            hi[a] += H;
            let (vl, vh) = (value(&lo), value(&hi));
            differences[a] = (vh - vl) / (2.0 * H);
            // Across a jump the centred value is not between the two sides' linear
            // extrapolations; detect it from the analytic derivatives at both ends.
            let (dl, dh) = (deriv(&lo)[a + 1], deriv(&hi)[a + 1]);
            if !continuous && ((vh - vl) - (dl + dh) * H).abs() > 1e-7 {
                jumped = true;
            }
        }
        if jumped {
            continue;
        }
        checked += 1;
        for a in 0..N {
            let error = (d[a + 1] - differences[a]).abs();
            largest = largest.max(error);
            assert!(
                error < FD_TOLERANCE,
                "{name} at {p:?} axis {a}: analytic {} vs finite difference {}",
                d[a + 1],
                differences[a]
            );
        }
    }
    assert!(checked > 4000, "{name}: only {checked} points checked");
    eprintln!(
        "DERIV {name}: max |analytic - central difference| = {largest:e} over {checked} points"
    );
}

#[test]
fn simplex_2d_gradient_equals_finite_differences() {
    let lut = PermutationTables::default();
    check_against_finite_differences::<2>(
        "simplex2",
        |p| simplex2(&lut, p[0], p[1]),
        |p| simplex2_deriv(&lut, p[0], p[1]).to_vec(),
        true,
    );
}

#[test]
fn simplex_3d_gradient_equals_finite_differences() {
    let lut = PermutationTables::default();
    for (r2, scale, continuous) in [(0.6, 32.0, false), (0.5, SIMPLEX3_R05_SCALE, true)] {
        check_against_finite_differences::<3>(
            &format!("simplex3 r²={r2}"),
            |p| simplex3_r2(&lut, p[0], p[1], p[2], r2, scale),
            |p| simplex3_deriv(&lut, p[0], p[1], p[2], r2, scale).to_vec(),
            continuous,
        );
    }
}

#[test]
fn simplex_4d_gradient_equals_finite_differences() {
    let lut = PermutationTables::default();
    for (r2, scale, continuous) in [(0.6, 27.0, false), (0.5, SIMPLEX4_R05_SCALE, true)] {
        check_against_finite_differences::<4>(
            &format!("simplex4 r²={r2}"),
            |p| simplex4_r2(&lut, p[0], p[1], p[2], p[3], r2, scale),
            |p| simplex4_deriv(&lut, p[0], p[1], p[2], p[3], r2, scale).to_vec(),
            continuous,
        );
    }
}

#[test]
fn gradient_fields_on_gpu_equal_the_cpu_mirror_and_follow_the_values() {
    use wgpu_noise::cpu::fill::fill_slab_gradient;
    use wgpu_noise::field::{Fractal, Kernel};
    use wgpu_noise::params::{FillParams, Slab};
    use wgpu_noise::NoiseKind;
    let Some(ctx) = common::gpu() else { return };
    let g = common::generator(&ctx, 4);
    let lut = PermutationTables::new(4);
    for (size, kernel) in [
        (&[45u32, 33][..], Kernel::Reference),
        (&[17, 13, 9][..], Kernel::Reference),
        (&[17, 13, 9][..], Kernel::Continuous),
    ] {
        let field = FlagField::new(NoiseKind::Simplex, size)
            .with_frequency(&[4.0, 3.0, 2.0])
            .with_offset(&[-12.5, 40.25, 3.0])
            .with_fractal(Fractal {
                octaves: 3,
                ..Fractal::default()
            })
            .with_kernel(kernel);
        let gpu = g.generate_gradient(&field).unwrap();
        let params = FillParams::new(&field, Slab::whole(&field));
        let mut cpu = vec![[0.0f32; 4]; gpu.len()];
        fill_slab_gradient(&lut, field.dims, &params, &mut cpu);
        let error = gpu
            .iter()
            .zip(&cpu)
            .flat_map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs()))
            .fold(0.0f32, f32::max);
        // The value channel equals the plain fBm field.
        let plain = wgpu_noise::cpu::fill::generate_f32(&lut, &field).unwrap();
        let value_error = gpu
            .iter()
            .zip(&plain)
            .map(|(a, b)| (a[0] - b).abs())
            .fold(0.0f32, f32::max);
        eprintln!("GRADIENT FIELD {}D {kernel:?}: max |gpu - cpu| = {error:e}, value vs plain field {value_error:e}", size.len());
        // Gradients reach ~10: the value tolerance 1e-5 scaled by that (measured ≤ 1e-6).
        assert!(error <= 1e-4 && value_error <= 1e-5);
    }
    let classic = FlagField::new(NoiseKind::Classic, &[4, 4]);
    assert!(g
        .generate_gradient(&classic)
        .unwrap_err()
        .to_string()
        .contains("simplex noise only"));
}

#[test]
fn flow_noise_gradients_equal_finite_differences_at_any_angle() {
    let lut = PermutationTables::default();
    for angle in [0.3, 2.0, -4.1] {
        check_against_finite_differences::<2>(
            &format!("flow2 angle {angle}"),
            |p| flow2(&lut, p[0], p[1], angle),
            |p| flow2_deriv(&lut, p[0], p[1], angle).to_vec(),
            true,
        );
        for (r2, scale, continuous) in [(0.6, 32.0, false), (0.5, SIMPLEX3_R05_SCALE, true)] {
            check_against_finite_differences::<3>(
                &format!("flow3 r²={r2} angle {angle}"),
                |p| flow3_r2(&lut, *p, angle, r2, scale),
                |p| flow3_deriv(&lut, *p, angle, r2, scale).to_vec(),
                continuous,
            );
        }
    }
}
