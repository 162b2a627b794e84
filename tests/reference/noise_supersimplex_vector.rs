//! OpenSimplex2S noise of vectors (the `warp` node's `supersimplex-vector` noise) on the CPU
//! against its definition written out here in f64: every lattice point within the kernel's
//! reach, found by search (3D: both half-lattices of the body-centred cubic lattice after
//! the rotation; 2D: the triangular lattice), contributing `max(r² − |d|², 0)⁴ (g · d)` times
//! its vector, component `a` byte `1 + a` of the point's hash in [-1, 1]; each component's
//! gradient is the central differences'; the components stay in [-1, 1], reach near both
//! ends and are uncorrelated; the f32 mirror tracks f64; both lookups. A graph's
//! `supersimplex-vector` warp moves the point by that noise (written out here), in 2D to 4D,
//! and tiled graphs are refused with the warp's JSON path. 4D: every point of the 4D simplex
//! lattice within `√(18/25)` (`noise_supersimplex4.rs`).

use crate::common::graphs::Rng;
use crate::vector_noise_checks::{
    assert_components_in_range_and_uncorrelated, assert_it_is_its_definition, each_lookup,
    Definition,
};

use crate::noise_supersimplex4::{gradient as gradient4, within_reach};
use wgpu_noise::cpu::lattice::wrap256;
use wgpu_noise::cpu::supersimplex::{
    supersimplex2_gradient, supersimplex3_gradient, SUPERSIMPLEX2_VECTOR_NORM, SUPERSIMPLEX3_B_KEY,
    SUPERSIMPLEX3_SLOT, SUPERSIMPLEX3_VECTOR_NORM, SUPERSIMPLEX4_VECTOR_NORM,
};
use wgpu_noise::cpu::warp::WARP_SHIFT;
use wgpu_noise::cpu::NoiseHasher;
use wgpu_noise::graph::Graph;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// Byte `slot` of hash `h` in [-1, 1], from its definition.
fn unit(lut: &impl NoiseHasher, h: u32, slot: u32) -> f64 {
    (lut.cell_byte(h, slot) as f64 - 127.5) / 127.5
}

/// Adds one lattice point's contribution to `sum` (rows: component `a`, then its gradient
/// in the lattice's frame): kernel `a⁴ (g · d)` and its gradient times the vector.
fn add_point<const N: usize, const K: usize>(
    lut: &impl NoiseHasher,
    sum: &mut [[f64; K]; N],
    h: u32,
    g: [f64; N],
    d: [f64; N],
    a: f64,
) {
    let e: f64 = (0..N).map(|c| g[c] * d[c]).sum();
    for (k, row) in sum.iter_mut().enumerate() {
        let u = unit(lut, h, 1 + k as u32);
        row[0] += u * a.powi(4) * e;
        for c in 0..N {
            row[c + 1] += u * (-8.0 * a.powi(3) * e * d[c] + a.powi(4) * g[c]);
        }
    }
}

/// The 3D vector and its Jacobian at `p` written out in f64: the rotation
/// `X = (2/3)(x + y + z) − p`, every point of both half-lattices in the 4×4×4 block around
/// `X` where the kernel `max(3/4 − |d|², 0)⁴` reaches, the gradients rotated back.
fn reference3(lut: &impl NoiseHasher, p: [f64; 3]) -> [[f64; 4]; 3] {
    let r = (p[0] + p[1] + p[2]) * (2.0 / 3.0);
    let x = [r - p[0], r - p[1], r - p[2]];
    let mut sum = [[0.0; 4]; 3];
    for half in [0.0, 0.5] {
        let base = x.map(|v| (v - half).floor() + half);
        for i in -1..=2 {
            for j in -1..=2 {
                for k in -1..=2 {
                    let pos = [base[0] + i as f64, base[1] + j as f64, base[2] + k as f64];
                    let d: [f64; 3] = std::array::from_fn(|a| x[a] - pos[a]);
                    let a = 0.75 - (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                    if a <= 0.0 {
                        continue;
                    }
                    // Half-lattice B is hashed at `pos − 1/2` moved by its key.
                    let v: [u32; 3] = std::array::from_fn(|c| {
                        if half == 0.5 {
                            (wrap256(pos[c] - 0.5) + SUPERSIMPLEX3_B_KEY) & 255
                        } else {
                            wrap256(pos[c])
                        }
                    });
                    let h = lut.cell_hash(&v);
                    let g = supersimplex3_gradient::<f64>(
                        (lut.cell_byte(h, SUPERSIMPLEX3_SLOT) * 48) >> 8,
                    );
                    add_point(lut, &mut sum, h, g, d, a);
                }
            }
        }
    }
    sum.map(|row| {
        let s = (row[1] + row[2] + row[3]) * (2.0 / 3.0);
        [row[0], s - row[1], s - row[2], s - row[3]].map(|v| v * SUPERSIMPLEX3_VECTOR_NORM)
    })
}

/// The 2D vector and its Jacobian at `p` written out in f64: every point of the triangular
/// lattice in the 6×6 block of skewed cells around `p` where `max(2/3 − |d|², 0)⁴` reaches.
fn reference2(lut: &impl NoiseHasher, p: [f64; 2]) -> [[f64; 3]; 2] {
    let f = (3f64.sqrt() - 1.0) / 2.0;
    let u = -(3.0 - 3f64.sqrt()) / 6.0;
    let s = (p[0] + p[1]) * f;
    let base = [(p[0] + s).floor(), (p[1] + s).floor()];
    let mut sum = [[0.0; 3]; 2];
    for i in -2..=3 {
        for j in -2..=3 {
            let (x, y) = (base[0] + i as f64, base[1] + j as f64);
            let pos = [x + (x + y) * u, y + (x + y) * u];
            let d = [p[0] - pos[0], p[1] - pos[1]];
            let a = 2.0 / 3.0 - (d[0] * d[0] + d[1] * d[1]);
            if a <= 0.0 {
                continue;
            }
            let h = lut.cell_hash(&[wrap256(x), wrap256(y)]);
            let g = supersimplex2_gradient::<f64>((lut.cell_byte(h, SUPERSIMPLEX3_SLOT) * 24) >> 8);
            add_point(lut, &mut sum, h, g, d, a);
        }
    }
    sum.map(|row| row.map(|v| v * SUPERSIMPLEX2_VECTOR_NORM))
}

/// The 4D vector and its Jacobian at `p` written out in f64: every point of the 4D lattice
/// within `√(18/25)` (`noise_supersimplex4::within_reach`, found by search), the scalar
/// noise's gradient and kernel times the point's vector.
pub fn reference4(lut: &impl NoiseHasher, p: [f64; 4]) -> [[f64; 5]; 4] {
    let mut sum = [[0.0; 5]; 4];
    for q in within_reach(p) {
        let h = lut.cell_hash(&q.cell);
        add_point(lut, &mut sum, h, gradient4(lut, h), q.d, q.a);
    }
    sum.map(|row| row.map(|v| v * SUPERSIMPLEX4_VECTOR_NORM))
}

/// The vector noise at `p` (2 to 4 coordinates) and with each component's gradient.
/// Rows as vectors.
fn vecs<const N: usize, const K: usize>(rows: [[f64; K]; N]) -> Vec<Vec<f64>> {
    rows.iter().map(|row| row.to_vec()).collect()
}

/// The definition ([`reference2`], [`reference3`], [`reference4`]) as the shared checks take it.
struct SuperSimplexVectors;

impl Definition for SuperSimplexVectors {
    const KIND: NoiseKind = NoiseKind::SuperSimplex;
    fn reference(lut: &impl NoiseHasher, p: &[f64]) -> Vec<Vec<f64>> {
        match p.len() {
            2 => vecs(reference2(lut, [p[0], p[1]])),
            3 => vecs(reference3(lut, [p[0], p[1], p[2]])),
            _ => vecs(reference4(lut, [p[0], p[1], p[2], p[3]])),
        }
    }
}

#[test]
fn it_is_the_sum_over_every_lattice_point_the_kernel_reaches() {
    each_lookup::<SuperSimplexVectors>(|lut, name| {
        assert_it_is_its_definition(lut, name, 31, 2..=4)
    });
}

#[test]
fn each_components_gradient_is_the_central_differences() {
    each_lookup::<SuperSimplexVectors>(|lut, name| {
        let mut rng = Rng::new(32);
        let h = 1e-5;
        for dims in 2..=4 {
            let mut worst = 0f64;
            for n in 0..3000 {
                let reach = if n % 2 == 0 { 10.0 } else { 1e4 };
                let p: Vec<f64> = (0..dims).map(|_| rng.range(-reach, reach)).collect();
                let d = lut.deriv64(&p);
                for b in 0..dims {
                    let (mut lo, mut hi) = (p.clone(), p.clone());
                    lo[b] -= h;
                    hi[b] += h;
                    let (vlo, vhi) = (lut.value64(&lo), lut.value64(&hi));
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
            eprintln!("{name} {dims}D: worst |analytic − central difference| {worst:e}");
        }
    });
}

#[test]
fn its_components_stay_in_minus_1_to_1_reach_near_both_ends_and_are_uncorrelated() {
    each_lookup::<SuperSimplexVectors>(|lut, name| {
        assert_components_in_range_and_uncorrelated(lut, name, 33, 2..=4)
    });
}

/// The f32 mirror against f64 at the same (f32) points: 3D's rotation rounds at the
/// coordinates' scale, an f32 step of the reach times the slope.
#[test]
fn the_f32_mirror_tracks_f64() {
    each_lookup::<SuperSimplexVectors>(|lut, name| {
        let mut rng = Rng::new(34);
        for dims in 2..=4 {
            for reach in [10.0f64, 1e4] {
                let mut worst = 0f64;
                for _ in 0..20_000 {
                    let p: Vec<f32> = (0..dims).map(|_| rng.range(-reach, reach) as f32).collect();
                    let p64: Vec<f64> = p.iter().map(|&v| v as f64).collect();
                    let (a, b) = (lut.value32(&p), lut.value64(&p64));
                    for c in 0..4 {
                        worst = worst.max((a[c] as f64 - b[c]).abs());
                    }
                }
                eprintln!("{name} {dims}D to {reach}: max |f32 − f64| {worst:e}");
                // The skew or rotation rounds at the coordinates' scale, an f32 step of the
                // reach: the scalar noise's bound (noise_supersimplex.rs).
                let bound = 1e-5 + 20.0 * reach * f64::from(f32::EPSILON);
                assert!(
                    worst < bound,
                    "{name} {dims}D to {reach}: {worst} > {bound}"
                );
            }
        }
    });
}

#[test]
fn a_supersimplex_vector_warp_moves_the_point_by_the_fbm_of_the_vectors() {
    let (amplitude, frequency) = (0.75, 1.25);
    let mut rng = Rng::new(35);
    for dims in 2..=4 {
        for axis in 0..dims {
            let graph = Graph::from_json(&format!(
                r#"{{ "version": 1, "output": "w", "nodes": {{ "w": {{ "type": "warp",
                    "source": {{ "type": "position", "axis": "{}" }},
                    "noise": "supersimplex-vector", "amplitude": {amplitude},
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
                        fbm += amp * SuperSimplexVectors::reference(&lut, &at)[axis][0];
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
        "source": { "type": "position", "axis": "x" }, "noise": "supersimplex-vector",
        "amplitude": 0.5 } } }"#;
    let graph = Graph::from_json(warp).unwrap();
    let tiled = graph.program(4, [4.0; 4]).unwrap_err().to_string();
    assert!(
        tiled.contains("nodes.w") && tiled.contains("does not tile in 4D"),
        "{tiled}"
    );
    assert!((2..=4).all(|dims| graph.program(dims, [0.0; 4]).is_ok()));
}
