//! Value noise of vectors (the `warp` node's `vector` noise) on the CPU: at a lattice point
//! its component `a` is byte `a` of that point's cell hash in [-1, 1]; between lattice
//! points each component is the quintic blend of the corners' components (the weights
//! written out here in f64); its gradient is the blend's derivative (central differences);
//! the components stay in [-1, 1], reach near both ends and are uncorrelated; tiled, it
//! repeats with its period; the f32 mirror tracks f64; both lookups. A `vector` warp moves
//! the point by the fBm of that noise at the shifted, scaled point (written out here).

use crate::common::graphs::Rng;

use wgpu_noise::cpu::fractal::{base_vector, base_vector_deriv};
use wgpu_noise::cpu::warp::WARP_SHIFT;
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher, Real};
use wgpu_noise::graph::Graph;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// The vector at `p` (untiled).
fn vector<R: Real>(lut: &impl NoiseHasher, p: &[R]) -> [R; 4] {
    base_vector(lut, NoiseKind::Value, p, &[R::lit(0.0); 4][..p.len()], 0)
}

/// The quintic fade, written here from its definition `6t⁵ − 15t⁴ + 10t³`.
fn quintic(t: f64) -> f64 {
    t.powi(3) * (10.0 - 15.0 * t + 6.0 * t * t)
}

type V64<'a> = dyn Fn(&[f64]) -> [f64; 4] + 'a;
type V32<'a> = dyn Fn(&[f32]) -> [f32; 4] + 'a;
/// Byte `slot` of the hash of a cell (its whole coordinates, wrapped to the lookup's period).
type CellByte<'a> = dyn Fn(&[u32], u32) -> u32 + 'a;

/// `check(cell byte, vector in f64, in f32, name)` with each lookup.
fn each_lookup(check: impl Fn(&CellByte<'_>, &V64<'_>, &V32<'_>, &str)) {
    let tables = PermutationTables::new(0);
    let hash = IntegerHasher::new(5);
    check(
        &|cell, slot| tables.cell_byte(tables.cell_hash(cell), slot),
        &|p| vector(&tables, p),
        &|p| vector(&tables, p),
        "tables",
    );
    check(
        &|cell, slot| hash.cell_byte(hash.cell_hash(cell), slot),
        &|p| vector(&hash, p),
        &|p| vector(&hash, p),
        "hash",
    );
}

#[test]
fn at_a_lattice_point_each_component_is_a_byte_of_the_points_cell_hash() {
    each_lookup(|cell_byte, v64, _, name| {
        let mut rng = Rng::new(1);
        for dims in 2..=4 {
            for n in 0..300 {
                // Small and large cells (±10⁶ keeps whole numbers exact); the lookups'
                // lattice repeats every 256 cells.
                let reach = if n % 2 == 0 { 300.0 } else { 1e6 };
                let p: Vec<f64> = (0..dims)
                    .map(|_| rng.range(-reach, reach).floor())
                    .collect();
                let cell: Vec<u32> = p.iter().map(|v| v.rem_euclid(256.0) as u32).collect();
                let got = v64(&p);
                for (a, &got) in got.iter().enumerate() {
                    let want = if a < dims {
                        (cell_byte(&cell, a as u32) as f64 - 127.5) / 127.5
                    } else {
                        0.0
                    };
                    assert!(
                        (got - want).abs() < 1e-15,
                        "{name} {dims}D at {p:?}: component {a} is {got}, byte {want}"
                    );
                }
            }
        }
    });
}

#[test]
fn between_lattice_points_each_component_is_the_quintic_blend_of_the_corners() {
    each_lookup(|_, v64, _, name| {
        let mut rng = Rng::new(2);
        for dims in 2..=4 {
            for n in 0..2000 {
                let reach = if n % 2 == 0 { 50.0 } else { 1e5 };
                let p: Vec<f64> = (0..dims).map(|_| rng.range(-reach, reach)).collect();
                let c: Vec<f64> = p.iter().map(|v| v.floor()).collect();
                let mut blend = [0.0; 4];
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
                    for (b, v) in blend.iter_mut().zip(v64(&at)) {
                        *b += weight * v;
                    }
                }
                let got = v64(&p);
                for a in 0..4 {
                    assert!(
                        (got[a] - blend[a]).abs() < 1e-12,
                        "{name} {dims}D at {p:?}: component {a} {} vs the blend {}",
                        got[a],
                        blend[a]
                    );
                }
            }
        }
    });
}

/// Central differences of each component of the vectors of `lut` at random points vs
/// their analytic gradient; returns the largest difference.
fn check_gradient(lut: &impl NoiseHasher, name: &str, rng: &mut Rng) -> f64 {
    let mut worst = 0.0f64;
    for dims in 2..=4 {
        for n in 0..500 {
            let reach = if n % 2 == 0 { 40.0 } else { 1e4 };
            let p: Vec<f64> = (0..dims).map(|_| rng.range(-reach, reach)).collect();
            let d = base_vector_deriv(lut, NoiseKind::Value, &p, &[0.0; 4][..dims], 0);
            let h = 1e-6;
            for b in 0..dims {
                let (mut hi, mut lo) = (p.clone(), p.clone());
                hi[b] += h;
                lo[b] -= h;
                // A step across a cell face meets the next cell's quintic, whose first
                // derivative matches (C²): the difference stays close.
                let (vh, vl) = (vector(lut, &hi), vector(lut, &lo));
                for a in 0..4 {
                    // Over the step as it rounds (at 10⁴ an ulp of p is 2e-12, 2e-6 of h).
                    let want = (vh[a] - vl[a]) / (hi[b] - lo[b]);
                    let e = (d[a][1 + b] - want).abs();
                    worst = worst.max(e);
                    // Central differences of values near 1 at h = 1e-6 carry about 1e-10
                    // of rounding, the quintic's third derivative 1e-11.
                    assert!(
                        e < 1e-6,
                        "{name} {dims}D at {p:?}: d component {a} / d axis {b} is {}, central {want}",
                        d[a][1 + b]
                    );
                }
            }
            let v = vector(lut, &p);
            for a in 0..4 {
                assert_eq!(
                    d[a][0], v[a],
                    "{name} {dims}D: the value beside the gradient"
                );
            }
        }
    }
    worst
}

#[test]
fn each_components_gradient_is_its_blends_derivative() {
    let mut rng = Rng::new(6);
    let worst = check_gradient(&PermutationTables::new(3), "tables", &mut rng).max(check_gradient(
        &IntegerHasher::new(4),
        "hash",
        &mut rng,
    ));
    eprintln!("value noise of vectors: max |analytic − central| = {worst:e}");
}

#[test]
fn its_components_stay_in_minus_1_to_1_reach_near_both_ends_and_are_uncorrelated() {
    each_lookup(|_, v64, _, name| {
        let mut rng = Rng::new(3);
        for dims in 2..=4 {
            let n = 100_000;
            let mut lo = [f64::MAX; 4];
            let mut hi = [f64::MIN; 4];
            let mut samples = Vec::with_capacity(n);
            for _ in 0..n {
                let p: Vec<f64> = (0..dims).map(|_| rng.range(-1000.0, 1000.0)).collect();
                let v = v64(&p);
                for a in 0..dims {
                    lo[a] = lo[a].min(v[a]);
                    hi[a] = hi[a].max(v[a]);
                }
                samples.push(v);
            }
            let mean = |a: usize| samples.iter().map(|v| v[a]).sum::<f64>() / n as f64;
            let m: Vec<f64> = (0..dims).map(mean).collect();
            let cov = |a: usize, b: usize| {
                samples
                    .iter()
                    .map(|v| (v[a] - m[a]) * (v[b] - m[b]))
                    .sum::<f64>()
                    / n as f64
            };
            for a in 0..dims {
                assert!(
                    (-1.0..=1.0).contains(&lo[a]) && (-1.0..=1.0).contains(&hi[a]),
                    "{name} {dims}D component {a}: [{}, {}]",
                    lo[a],
                    hi[a]
                );
                assert!(lo[a] < -0.9 && hi[a] > 0.9, "{name} {dims}D component {a}");
                for b in a + 1..dims {
                    let rho = cov(a, b) / (cov(a, a) * cov(b, b)).sqrt();
                    eprintln!("vector noise {name} {dims}D: correlation of {a} and {b} {rho:+.4}");
                    // With the hash, 10⁵ samples of a smooth field (about 10⁴ independent
                    // cells in 2D) give |ρ| of order 0.01. The tables' cell hash is a byte:
                    // 256 vectors in all, whose components' sample correlation is of order
                    // 1/√255 = 0.063; three of those bound it.
                    let bound = if name == "tables" {
                        3.0 / 255f64.sqrt()
                    } else {
                        0.05
                    };
                    assert!(rho.abs() < bound, "{name} {dims}D: ρ({a}, {b}) = {rho}");
                }
            }
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
            let v = base_vector(&lut, NoiseKind::Value, &p, period, 0);
            for a in 0..dims {
                let mut q = p.clone();
                q[a] += period[a] * 3.0;
                let w = base_vector(&lut, NoiseKind::Value, &q, period, 0);
                for c in 0..4 {
                    // Equal up to the rounding of the moved coordinate's fraction.
                    assert!(
                        (v[c] - w[c]).abs() < 1e-12,
                        "{dims}D axis {a} at {p:?}: {v:?} vs {w:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_f32_mirror_tracks_f64() {
    each_lookup(|_, v64, v32, name| {
        let mut rng = Rng::new(5);
        let mut worst = 0.0f64;
        for dims in 2..=4 {
            for _ in 0..20_000 {
                let p: Vec<f32> = (0..dims)
                    .map(|_| rng.range(-1000.0, 1000.0) as f32)
                    .collect();
                let p64: Vec<f64> = p.iter().map(|&v| v as f64).collect();
                let (a, b) = (v32(&p), v64(&p64));
                for c in 0..4 {
                    worst = worst.max((a[c] as f64 - b[c]).abs());
                }
            }
        }
        eprintln!("vector noise {name}: max |f32 - f64| = {worst:e}");
        // The same point in both: only the blend's arithmetic rounds (a few ulps of 1).
        assert!(worst < 2e-6, "{name}: {worst}");
    });
}

#[test]
fn a_vector_warp_moves_the_point_by_the_fbm_of_the_vectors_at_the_shifted_point() {
    let (amplitude, frequency) = (0.75, 1.25);
    let mut rng = Rng::new(7);
    for dims in 2..=4 {
        for axis in 0..dims {
            let graph = Graph::from_json(&format!(
                r#"{{ "version": 1, "output": "w", "nodes": {{ "w": {{ "type": "warp",
                    "source": {{ "type": "position", "axis": "{}" }}, "noise": "vector",
                    "amplitude": {amplitude}, "frequency": {frequency}, "octaves": 3,
                    "lacunarity": 2.0, "gain": 0.5 }} }} }}"#,
                ["x", "y", "z", "w"][axis]
            ))
            .unwrap();
            let mut sampler = graph.sampler(dims, 9).unwrap();
            let lut = PermutationTables::new(9);
            for reach in [10.0, 1e4] {
                for _ in 0..100 {
                    let p: Vec<f64> = (0..dims).map(|_| rng.range(-reach, reach)).collect();
                    // One iteration, its shift WARP_SHIFT × 1; octave k at 2^k times the
                    // point with amplitude 0.5^k, the sum over 1.75.
                    let q: Vec<f64> = (0..dims)
                        .map(|b| p[b] * frequency + WARP_SHIFT[b])
                        .collect();
                    let mut fbm = 0.0;
                    for (k, amp) in [1.0, 0.5, 0.25].into_iter().enumerate() {
                        let at: Vec<f64> = q.iter().map(|v| v * (1 << k) as f64).collect();
                        fbm += amp * vector(&lut, &at)[axis];
                    }
                    let want = p[axis] + amplitude * fbm / 1.75;
                    let got = sampler.value_f64(&p);
                    // The graph's parameters are f32 (exact here) and its arithmetic f64 in
                    // the lowering's order, not this sum's.
                    assert!(
                        (got - want).abs() < 1e-9 * (1.0 + reach),
                        "{dims}D axis {axis} at {p:?}: {got} vs {want}"
                    );
                }
            }
        }
    }
}
