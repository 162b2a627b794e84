//! Value noise on the CPU: at a lattice point it is that cell's value (cellular noise's
//! `cell` output at jitter 0, read at the cell's centre); between lattice points it is the
//! quintic blend of its corners' values (the weights written out here in f64); it stays in
//! [-1, 1], repeats with its tile period, and the f32 mirror tracks f64; both lookups.

use crate::common::graphs::Rng;

use wgpu_noise::cpu::cellular::{cellular, CellularShape};
use wgpu_noise::cpu::fractal::base_noise;
use wgpu_noise::cpu::{noise_at, IntegerHasher, NoiseHasher, Real};
use wgpu_noise::params::{CELLULAR_CELL, CELLULAR_DISTANCE_EUCLIDEAN, KERNEL_REFERENCE};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

fn value<R: Real>(lut: &impl NoiseHasher, p: &[R]) -> R {
    noise_at(lut, NoiseKind::Value, p)
}

/// Value noise tiled with `period` cells per axis.
fn tiled(lut: &impl NoiseHasher, p: &[f64], period: &[f64]) -> f64 {
    let cell = CellularShape::default();
    base_noise(
        lut,
        NoiseKind::Value,
        p,
        period,
        KERNEL_REFERENCE,
        &cell,
        0.0,
    )
}

/// The quintic fade, written here from its definition `6t⁵ − 15t⁴ + 10t³`.
fn quintic(t: f64) -> f64 {
    t.powi(3) * (10.0 - 15.0 * t + 6.0 * t * t)
}

fn each_lookup(check: impl Fn(&dyn Fn(&[f64]) -> f64, &dyn Fn(&[f32]) -> f32, &str)) {
    let tables = PermutationTables::new(0);
    let hash = IntegerHasher::new(5);
    check(&|p| value(&tables, p), &|p| value(&tables, p), "tables");
    check(&|p| value(&hash, p), &|p| value(&hash, p), "hash");
}

/// At whole-number points, `value` equals the cellular cell value read at the cell's
/// centre with jitter 0 (where the point's own cell is the nearest).
fn check_lattice_points(lut: &impl NoiseHasher, name: &str) {
    let at_centre = CellularShape {
        jitter: 0.0,
        distance: CELLULAR_DISTANCE_EUCLIDEAN,
        output: CELLULAR_CELL,
    };
    let mut rng = Rng::new(1);
    for dims in 2..=4 {
        for n in 0..300 {
            // Small and large cells (±10⁶ keeps whole numbers and their centres exact).
            let reach = if n % 2 == 0 { 300.0 } else { 1e6 };
            let p: Vec<f64> = (0..dims)
                .map(|_| rng.range(-reach, reach).floor())
                .collect();
            let centre: Vec<f64> = p.iter().map(|v| v + 0.5).collect();
            let cell = cellular(lut, &centre, &at_centre);
            assert_eq!(value(lut, &p), cell, "{name} {dims}D at {p:?}");
        }
    }
}

#[test]
fn at_a_lattice_point_it_is_that_cells_value() {
    check_lattice_points(&PermutationTables::new(0), "tables");
    check_lattice_points(&IntegerHasher::new(5), "hash");
}

#[test]
fn between_lattice_points_it_is_the_quintic_blend_of_the_corner_values() {
    each_lookup(|v64, _, name| {
        let mut rng = Rng::new(2);
        for dims in 2..=4 {
            for n in 0..2000 {
                let reach = if n % 2 == 0 { 50.0 } else { 1e5 };
                let p: Vec<f64> = (0..dims).map(|_| rng.range(-reach, reach)).collect();
                let c: Vec<f64> = p.iter().map(|v| v.floor()).collect();
                let mut blend = 0.0;
                for corner in 0..1usize << dims {
                    let mut weight = 1.0;
                    let mut at = c.clone();
                    for a in 0..dims {
                        let u = quintic(p[a] - c[a]);
                        if corner >> a & 1 == 1 {
                            at[a] += 1.0;
                            weight *= u;
                        } else {
                            weight *= 1.0 - u;
                        }
                    }
                    blend += weight * v64(&at);
                }
                let got = v64(&p);
                assert!(
                    (got - blend).abs() < 1e-12,
                    "{name} {dims}D at {p:?}: {got} vs the blend {blend}"
                );
            }
        }
    });
}

#[test]
fn it_stays_in_minus_1_to_1_and_reaches_near_both_ends() {
    each_lookup(|v64, _, name| {
        let mut rng = Rng::new(3);
        for dims in 2..=4 {
            let (mut lo, mut hi) = (f64::MAX, f64::MIN);
            for _ in 0..100_000 {
                let p: Vec<f64> = (0..dims).map(|_| rng.range(-1000.0, 1000.0)).collect();
                let v = v64(&p);
                lo = lo.min(v);
                hi = hi.max(v);
            }
            eprintln!("value noise {name} {dims}D over 10⁵ points: [{lo:.4}, {hi:.4}]");
            assert!((-1.0..=1.0).contains(&lo) && (-1.0..=1.0).contains(&hi));
            assert!(lo < -0.9 && hi > 0.9, "{name} {dims}D: [{lo}, {hi}]");
        }
    });
}

#[test]
fn tiled_it_repeats_with_its_period() {
    let lut = IntegerHasher::new(2);
    let periods = [3.0, 5.0, 7.0, 4.0];
    let mut rng = Rng::new(4);
    for dims in 2..=4 {
        let period = &periods[..dims];
        for _ in 0..500 {
            let p: Vec<f64> = (0..dims).map(|_| rng.range(-20.0, 20.0)).collect();
            let v = tiled(&lut, &p, period);
            for a in 0..dims {
                let mut q = p.clone();
                q[a] += period[a] * 3.0;
                let w = tiled(&lut, &q, period);
                // Equal up to the rounding of the moved coordinate's fraction.
                assert!(
                    (v - w).abs() < 1e-12,
                    "{dims}D axis {a} at {p:?}: {v} vs {w}"
                );
            }
        }
    }
}

#[test]
fn the_f32_mirror_tracks_f64() {
    each_lookup(|v64, v32, name| {
        let mut rng = Rng::new(5);
        let mut worst = 0.0f64;
        for dims in 2..=4 {
            for _ in 0..20_000 {
                let p: Vec<f32> = (0..dims)
                    .map(|_| rng.range(-1000.0, 1000.0) as f32)
                    .collect();
                let p64: Vec<f64> = p.iter().map(|&v| v as f64).collect();
                worst = worst.max((v32(&p) as f64 - v64(&p64)).abs());
            }
        }
        eprintln!("value noise {name}: max |f32 - f64| = {worst:e}");
        // The same point in both: only the blend's arithmetic rounds (a few ulps of 1).
        assert!(worst < 2e-6, "{name}: {worst}");
    });
}
