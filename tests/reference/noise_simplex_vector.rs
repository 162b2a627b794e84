//! Simplex noise of vectors (the `warp` node's `simplex-vector` noise) on the CPU against
//! its definition written out here in f64: the corners of the simplex that holds the point,
//! found by search (of the unit cube's corners in the skewed frame, those ordered as the
//! point's fractions are: Kuhn's triangulation), each within the kernel's reach contributing
//! `max(r² − |d|², 0)⁴ (g · d)` times its vector, component `a` byte `1 + a` of the corner's
//! cell hash in [-1, 1], times the output scale; each component's gradient is the central
//! differences' (away from the r² = 0.6 kernel's jumps); the components stay in [-1, 1],
//! reach near both ends and are uncorrelated; the f32 mirror tracks f64; both lookups. A
//! graph's `simplex-vector` warp moves the point by that noise (written out here), and 4D
//! tiled graphs are refused with the warp's JSON path. Its continuous kernel and its tiled
//! forms: `noise_simplex_vector_forms.rs`.

use crate::common::graphs::Rng;
use crate::vector_noise_checks::{
    assert_components_in_range_and_uncorrelated, assert_it_is_its_definition, each_lookup,
    Definition,
};

use wgpu_noise::cpu::lattice::wrap256;
use wgpu_noise::cpu::simplex::{
    SIMPLEX2_VECTOR_SCALE, SIMPLEX3_VECTOR_SCALE, SIMPLEX4_VECTOR_SCALE,
};
use wgpu_noise::cpu::warp::WARP_SHIFT;
use wgpu_noise::cpu::NoiseHasher;
use wgpu_noise::graph::Graph;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// Byte `slot` of hash `h` in [-1, 1], from its definition.
pub fn unit(lut: &impl NoiseHasher, h: u32, slot: u32) -> f64 {
    (lut.cell_byte(h, slot) as f64 - 127.5) / 127.5
}

/// The lattice point `v` (whole numbers in the skewed frame) wrapped as the lookups take it.
pub fn wrapped(v: &[f64]) -> Vec<u32> {
    v.iter().map(|&c| wrap256(c)).collect()
}

/// The gradient of the lattice point `v` by the lookup's own per-point function.
pub fn gradient(lut: &impl NoiseHasher, v: &[u32]) -> Vec<f64> {
    match *v {
        [a, b] => lut.lattice_grad2::<f64>(a, b).to_vec(),
        [a, b, c] => lut.lattice_grad3::<f64>(a, b, c).to_vec(),
        [a, b, c, d] => lut.lattice_grad4::<f64>(a, b, c, d).to_vec(),
        _ => unreachable!(),
    }
}

/// The corners of the simplex that holds `p` (2 to 4 coordinates), found by search: of the
/// corners `b + o` (`o` in {0, 1}ⁿ) of the skewed unit cube `b` around `p`, those whose
/// steps `o` follow the order of `p`'s fractions (no axis stepped whose fraction is below
/// an unstepped one's); as lattice points in the skewed frame.
pub fn simplex_corners(p: &[f64]) -> Vec<Vec<f64>> {
    let n = p.len() as f64;
    let f = ((n + 1.0).sqrt() - 1.0) / n;
    let s: f64 = p.iter().sum::<f64>() * f;
    let base: Vec<f64> = p.iter().map(|&v| (v + s).floor()).collect();
    let frac: Vec<f64> = p.iter().zip(&base).map(|(&v, &b)| v + s - b).collect();
    let mut corners = Vec::new();
    for bits in 0..1u32 << p.len() {
        let o: Vec<bool> = (0..p.len()).map(|a| bits >> a & 1 == 1).collect();
        let ordered =
            (0..p.len()).all(|a| (0..p.len()).all(|b| !o[a] || o[b] || frac[a] >= frac[b]));
        if ordered {
            corners.push((0..p.len()).map(|a| base[a] + o[a] as u32 as f64).collect());
        }
    }
    assert_eq!(corners.len(), p.len() + 1, "at {p:?}: ties");
    corners
}

/// The vector noise and its Jacobian at `p` written out in f64: rows `a`, `[component,
/// ∂/∂x, …]`, over the corners of [`simplex_corners`].
pub fn reference(lut: &impl NoiseHasher, p: &[f64]) -> Vec<Vec<f64>> {
    let (r2, scale) = match p.len() {
        2 => (0.5, SIMPLEX2_VECTOR_SCALE),
        3 => (0.6, SIMPLEX3_VECTOR_SCALE),
        _ => (0.6, SIMPLEX4_VECTOR_SCALE),
    };
    reference_with(lut, p, r2, scale)
}

/// [`reference`] with the kernel's squared radius `r2` and the output scale `scale`.
pub fn reference_with(lut: &impl NoiseHasher, p: &[f64], r2: f64, scale: f64) -> Vec<Vec<f64>> {
    let n = p.len();
    let nf = n as f64;
    let g_unskew = (1.0 - 1.0 / (nf + 1.0).sqrt()) / nf;
    let mut rows = vec![vec![0.0; n + 1]; n];
    for v in simplex_corners(p) {
        let t = v.iter().sum::<f64>() * g_unskew;
        let d: Vec<f64> = (0..n).map(|a| p[a] - (v[a] - t)).collect();
        let a = r2 - d.iter().map(|x| x * x).sum::<f64>();
        if a <= 0.0 {
            continue;
        }
        let cell = wrapped(&v);
        let g = gradient(lut, &cell);
        let h = lut.cell_hash(&cell);
        let e: f64 = (0..n).map(|c| g[c] * d[c]).sum();
        for (k, row) in rows.iter_mut().enumerate() {
            let u = unit(lut, h, 1 + k as u32);
            row[0] += u * a.powi(4) * e;
            for c in 0..n {
                row[c + 1] += u * (-8.0 * a.powi(3) * e * d[c] + a.powi(4) * g[c]);
            }
        }
    }
    rows.iter()
        .map(|row| row.iter().map(|v| v * scale).collect())
        .collect()
}

/// [`reference`] as the shared checks take it.
struct SimplexVectors;

impl Definition for SimplexVectors {
    const KIND: NoiseKind = NoiseKind::Simplex;
    fn reference(lut: &impl NoiseHasher, p: &[f64]) -> Vec<Vec<f64>> {
        reference(lut, p)
    }
}

#[test]
fn it_is_the_sum_over_the_corners_of_the_simplex_that_holds_the_point() {
    each_lookup::<SimplexVectors>(|lut, name| assert_it_is_its_definition(lut, name, 41, 2..=4));
}

/// Central differences with step 1e-5 at points whose steps stay in one simplex (across a
/// simplex's face the r² = 0.6 kernel of 3D and 4D jumps: no derivative exists there).
#[test]
fn each_components_gradient_is_the_central_differences() {
    each_lookup::<SimplexVectors>(|lut, name| {
        let mut rng = Rng::new(42);
        let h = 1e-5;
        for dims in 2..=4 {
            let (mut worst, mut checked) = (0f64, 0);
            for n in 0..3000 {
                let reach = if n % 2 == 0 { 10.0 } else { 1e4 };
                let p: Vec<f64> = (0..dims).map(|_| rng.range(-reach, reach)).collect();
                let corners = simplex_corners(&p);
                let steps: Vec<(Vec<f64>, Vec<f64>)> = (0..dims)
                    .map(|b| {
                        let (mut lo, mut hi) = (p.clone(), p.clone());
                        lo[b] -= h;
                        hi[b] += h;
                        (lo, hi)
                    })
                    .collect();
                if steps.iter().any(|(lo, hi)| {
                    simplex_corners(lo) != corners || simplex_corners(hi) != corners
                }) {
                    continue;
                }
                checked += 1;
                let d = lut.deriv64(&p);
                for (b, (lo, hi)) in steps.iter().enumerate() {
                    let (vlo, vhi) = (lut.value64(lo), lut.value64(hi));
                    for a in 0..dims {
                        let numeric = (vhi[a] - vlo[a]) / (2.0 * h);
                        let err = (numeric - d[a][b + 1]).abs();
                        worst = worst.max(err);
                        assert!(
                            err < 1e-5,
                            "{name} {dims}D at {p:?}: ∂{a}/∂{b} {} vs {numeric}",
                            d[a][b + 1]
                        );
                    }
                }
            }
            assert!(checked > 2900, "{name} {dims}D: {checked} points checked");
            eprintln!(
                "{name} {dims}D: worst |analytic − central difference| {worst:e} ({checked} points)"
            );
        }
    });
}

#[test]
fn its_components_stay_in_minus_1_to_1_reach_near_both_ends_and_are_uncorrelated() {
    each_lookup::<SimplexVectors>(|lut, name| {
        assert_components_in_range_and_uncorrelated(lut, name, 43, 2..=4)
    });
}

/// The f32 mirror against f64 at the same (f32) points: the skew rounds at the
/// coordinates' scale, an f32 step of the reach times the slope (the scalar noise's bound,
/// noise_supersimplex.rs). Where f32's rounding picks another simplex than f64's, the
/// r² = 0.6 kernel of 3D and 4D jumps between them: those points are counted apart, and
/// must be rare (none in 2D, whose r² = 0.5 kernel is continuous).
#[test]
fn the_f32_mirror_tracks_f64() {
    each_lookup::<SimplexVectors>(|lut, name| {
        let mut rng = Rng::new(44);
        for dims in 2..=4 {
            for reach in [10.0f64, 1e4] {
                let bound = 1e-5 + 20.0 * reach * f64::from(f32::EPSILON);
                let (mut worst, mut jumps, count) = (0f64, 0, 20_000);
                for _ in 0..count {
                    let p: Vec<f32> = (0..dims).map(|_| rng.range(-reach, reach) as f32).collect();
                    let p64: Vec<f64> = p.iter().map(|&v| v as f64).collect();
                    let (a, b) = (lut.value32(&p), lut.value64(&p64));
                    let err = (0..4)
                        .map(|c| (a[c] as f64 - b[c]).abs())
                        .fold(0.0, f64::max);
                    if err > bound && dims > 2 {
                        jumps += 1;
                    } else {
                        worst = worst.max(err);
                    }
                }
                eprintln!(
                    "{name} {dims}D to {reach}: max |f32 − f64| {worst:e} (bound {bound:e}), {jumps} of {count} over it"
                );
                assert!(
                    worst < bound && jumps * 1000 < count,
                    "{name} {dims}D to {reach}: {worst} > {bound} or {jumps} over it"
                );
            }
        }
    });
}

#[test]
fn a_simplex_vector_warp_moves_the_point_by_the_fbm_of_the_vectors() {
    let (amplitude, frequency) = (0.75, 1.25);
    let mut rng = Rng::new(45);
    for dims in 2..=4 {
        for axis in 0..dims {
            let graph = Graph::from_json(&format!(
                r#"{{ "version": 1, "output": "w", "nodes": {{ "w": {{ "type": "warp",
                    "source": {{ "type": "position", "axis": "{}" }},
                    "noise": "simplex-vector", "amplitude": {amplitude},
                    "frequency": {frequency}, "octaves": 3, "lacunarity": 2.0,
                    "gain": 0.5 }} }} }}"#,
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
                        fbm += amp * reference(&lut, &at)[axis][0];
                    }
                    let want = p[axis] + amplitude * fbm / 1.75;
                    let got = sampler.value_f64(&p);
                    assert!(
                        (got - want).abs() < 1e-9 * (1.0 + reach),
                        "{dims}D axis {axis} at {p:?}: {got} vs {want}"
                    );
                }
            }
        }
    }
}

#[test]
fn tiled_4d_graphs_are_refused_with_the_warps_path() {
    let warp = r#"{ "version": 1, "output": "w", "nodes": { "w": { "type": "warp",
        "source": { "type": "simplex" }, "noise": "simplex-vector",
        "amplitude": 0.5 } } }"#;
    let graph = Graph::from_json(warp).unwrap();
    let tiled = graph.program(4, [4.0; 4]).unwrap_err().to_string();
    assert!(
        tiled.contains("nodes.w") && tiled.contains("does not tile in 4D"),
        "{tiled}"
    );
    for dims in 2..=4 {
        assert!(graph.program(dims, [0.0; 4]).is_ok());
    }
    for dims in 2..=3 {
        assert!(graph.program(dims, [4.0; 4]).is_ok());
    }
    // The 3D periodic lattice takes whole periods; the 2D torus any.
    let e = graph.program(3, [2.5; 4]).unwrap_err().to_string();
    assert!(e.contains("nodes.w") && e.contains("whole periods"), "{e}");
    assert!(graph.program(2, [2.5; 4]).is_ok());
}
