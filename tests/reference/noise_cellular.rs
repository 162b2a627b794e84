//! Cellular (Worley) noise on the CPU: F1, F2 and the cell value equal a brute-force search
//! over a wide neighbourhood, for every distance, several jitters and both lookup variants;
//! closed forms at jitter 0; tiling; ranges and the 1-Lipschitz property of F1.
//!
//! `CELLULAR_BRUTE_POINTS=1000000 cargo test --release --test reference noise_cellular:: -- --nocapture`
//! runs the brute-force comparison on 10⁶ points per dimension, euclidean, jitter 1 (the figure in
//! `docs/noise-kinds.md`); the suite's default is smaller to keep it fast in debug builds.

use rayon::prelude::*;
use wgpu_noise::cpu::cellular::{
    cellular, cellular_periodic, wgpu_noise_cellular_combine, wgpu_noise_cellular_delta,
    wgpu_noise_cellular_term, wgpu_noise_cellular_value, wgpu_noise_cellular_wrap, CellularShape,
};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::params::{
    cellular_exponent, cellular_minkowski, CELLULAR_CELL, CELLULAR_DISTANCE_CHEBYSHEV,
    CELLULAR_DISTANCE_EUCLIDEAN, CELLULAR_DISTANCE_EUCLIDEAN_SQUARED, CELLULAR_DISTANCE_HYBRID,
    CELLULAR_DISTANCE_MANHATTAN, CELLULAR_F1, CELLULAR_F2, CELLULAR_F2_MINUS_F1,
};
use wgpu_noise::tables::PermutationTables;

/// A tiny deterministic generator for test points (SplitMix64).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        lo + (z >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo)
    }
}

const DISTANCES: [(u32, &str); 3] = [
    (CELLULAR_DISTANCE_EUCLIDEAN, "euclidean"),
    (CELLULAR_DISTANCE_MANHATTAN, "manhattan"),
    (CELLULAR_DISTANCE_CHEBYSHEV, "chebyshev"),
];

/// The graphs' metrics (the `cellular` node's `distance`), searched as the three above.
fn graph_distances() -> [(u32, &'static str); 4] {
    [
        (CELLULAR_DISTANCE_EUCLIDEAN_SQUARED, "euclidean-squared"),
        (CELLULAR_DISTANCE_HYBRID, "hybrid"),
        (cellular_minkowski(1.5), "minkowski 1.5"),
        (cellular_minkowski(3.0), "minkowski 3"),
    ]
}

/// Whether the search reaches `dims` cells per axis (as Manhattan): Minkowski below 2.
fn reaches_like_manhattan(distance: u32) -> bool {
    distance == CELLULAR_DISTANCE_MANHATTAN
        || (distance > CELLULAR_DISTANCE_HYBRID && cellular_exponent(distance) < 2.0)
}

fn shape(jitter: f32, distance: u32, output: u32) -> CellularShape {
    CellularShape {
        jitter,
        distance,
        output,
    }
}

/// What the brute force finds: F1, F2, the cell value of F1's cell, and the largest
/// per-axis offset |k| of the cells that held F1 and F2.
struct Brute {
    f1: f64,
    f2: f64,
    /// The cell values of every cell at distance F1: with quantised feature offsets,
    /// Chebyshev (and rarely other) distances tie exactly, and the search keeps the first
    /// of the tied cells it visits.
    values: Vec<f64>,
    reach_used: i32,
}

/// Every cell at offsets `-radius..=radius` per axis, the distances accumulated in the same
/// order as the shader (x, y, z, w), so equal inputs give bit-identical distances.
/// The radius needs no proof of its own: a crude bound suffices. F2 is at most the larger
/// distance of the own cell's feature and a face neighbour's: √(n + 3) < 3 (euclidean),
/// 2 (Chebyshev), n + 1 (Manhattan, and Minkowski, at most Manhattan), 2n + 4 ≤ 12 (hybrid:
/// its value at 3); a cell with |k_i| = r + 1 is at least r away.
fn brute_force(lut: &impl NoiseHasher, p: &[f64], s: &CellularShape) -> Brute {
    let dims = p.len();
    let radius: i32 = if reaches_like_manhattan(s.distance) {
        dims as i32 + 1
    } else if s.distance == CELLULAR_DISTANCE_HYBRID {
        4
    } else {
        3
    };
    let c: Vec<f64> = p.iter().map(|v| v.floor()).collect();
    let f: Vec<f64> = p.iter().zip(&c).map(|(v, c)| v - c).collect();
    let jitter = s.jitter as f64;
    let side = (2 * radius + 1) as usize;
    let mut all: Vec<(f64, f64, i32)> = Vec::new();
    for n in 0..side.pow(dims as u32) {
        let k: Vec<i32> = (0..dims)
            .map(|a| (n / side.pow(a as u32) % side) as i32 - radius)
            .collect();
        let cell: Vec<u32> = (0..dims)
            .map(|a| wgpu_noise_cellular_wrap(c[a] + k[a] as f64, 256))
            .collect();
        let h = lut.cell_hash(&cell);
        let mut d = 0.0;
        for a in 0..dims {
            let t = wgpu_noise_cellular_term(
                wgpu_noise_cellular_delta(lut, h, a as u32, k[a], f[a], jitter),
                s.distance,
            );
            d = if a == 0 {
                t
            } else {
                wgpu_noise_cellular_combine(d, t, s.distance)
            };
        }
        let reach = k.iter().map(|v| v.abs()).max().unwrap();
        all.push((d, wgpu_noise_cellular_value(lut, h), reach));
    }
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let root = |v: f64| {
        if s.distance == CELLULAR_DISTANCE_EUCLIDEAN {
            v.sqrt()
        } else if s.distance > CELLULAR_DISTANCE_HYBRID {
            // The root's exponent is 1 / e in f32 (as the `distance` node's).
            v.powf((1.0 / cellular_exponent(s.distance)) as f64)
        } else {
            v
        }
    };
    Brute {
        f1: root(all[0].0),
        f2: root(all[1].0),
        values: all
            .iter()
            .take_while(|c| c.0 == all[0].0)
            .map(|c| c.1)
            .collect(),
        reach_used: all[0].2.max(all[1].2),
    }
}

/// Points per dimension for the euclidean distance at jitter 1 (the default cellular noise):
/// `CELLULAR_BRUTE_POINTS`, else 3000. The other cases run on the default counts.
fn brute_points() -> usize {
    std::env::var("CELLULAR_BRUTE_POINTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
}

/// Compares the search with the brute force on `count` random points in [-300, 300]^n
/// (beyond the 256-cell period on both sides). Returns the number of points whose F1 or F2
/// came from a cell outside the 3^n block around the point's own cell.
fn check_against_brute_force(
    lut: &impl NoiseHasher,
    label: &str,
    dims: usize,
    jitter: f32,
    distance: u32,
    count: usize,
) -> usize {
    let outside: usize = (0..count)
        .into_par_iter()
        .map(|n| {
            let mut rng = Rng::new(n as u64 ^ ((dims as u64) << 40));
            let p: Vec<f64> = (0..dims).map(|_| rng.range(-300.0, 300.0)).collect();
            let b = brute_force(lut, &p, &shape(jitter, distance, CELLULAR_F1));
            let get = |output| cellular::<f64>(lut, &p, &shape(jitter, distance, output));
            let (f1, f2, value) = (get(CELLULAR_F1), get(CELLULAR_F2), get(CELLULAR_CELL));
            assert_eq!(f1, b.f1, "{label} {p:?}: F1");
            assert_eq!(f2, b.f2, "{label} {p:?}: F2");
            assert!(
                b.values.contains(&value),
                "{label} {p:?}: cell value {value} not among {:?}",
                b.values
            );
            assert_eq!(
                get(CELLULAR_F2_MINUS_F1),
                b.f2 - b.f1,
                "{label} {p:?}: F2 - F1"
            );
            usize::from(b.reach_used > 1)
        })
        .sum();
    eprintln!(
        "BRUTE {label}: F1, F2 and cell value equal on {count} points; F1 or F2 beyond the 3^{dims} block at {outside}"
    );
    outside
}

fn brute_force_suite(lut: &impl NoiseHasher, variant: &str) {
    for dims in 2..=4 {
        for (distance, name) in DISTANCES.into_iter().chain(graph_distances()) {
            for jitter in [1.0, 0.6] {
                let count = if distance == CELLULAR_DISTANCE_EUCLIDEAN && jitter == 1.0 {
                    brute_points()
                } else {
                    3000
                };
                // Manhattan's brute force box is (2n + 3)^n cells: fewer points in 4D.
                let n = if reaches_like_manhattan(distance) && dims == 4 {
                    count / 10
                } else if jitter < 1.0 {
                    count / 4
                } else {
                    count
                };
                let label = format!("{variant} {dims}D {name} jitter {jitter}");
                check_against_brute_force(lut, &label, dims, jitter, distance, n.max(100));
            }
        }
    }
}

#[test]
fn f1_f2_and_cell_value_equal_a_brute_force_search_with_the_tables() {
    brute_force_suite(&PermutationTables::new(0), "tables");
}

#[test]
fn f1_f2_and_cell_value_equal_a_brute_force_search_with_the_hash() {
    brute_force_suite(&IntegerHasher::new(7), "hash");
}

/// Points chosen so that the second-nearest feature lies two cells away: 3^n is not enough.
#[test]
fn a_3x3_search_would_miss_f2_at_jitter_1() {
    let lut = PermutationTables::new(0);
    let outside = check_against_brute_force(
        &lut,
        "tables 2D euclidean jitter 1 (3x3 check)",
        2,
        1.0,
        CELLULAR_DISTANCE_EUCLIDEAN,
        20_000,
    );
    assert!(
        outside > 0,
        "expected some points whose F1 or F2 lies beyond the 3x3 block"
    );
}

/// At jitter 0 the feature points are the cell centres: F1 and F2 have closed forms.
#[test]
fn jitter_0_gives_the_distances_to_the_cell_centres() {
    let lut = IntegerHasher::new(3);
    let mut rng = Rng::new(11);
    for dims in 2..=4 {
        for _ in 0..2000 {
            let p: Vec<f64> = (0..dims).map(|_| rng.range(-50.0, 50.0)).collect();
            // Per-axis distance to the nearest centre, and the largest of them.
            let e: Vec<f64> = p.iter().map(|v| (v - v.floor() - 0.5).abs()).collect();
            let big = e.iter().cloned().fold(0.0, f64::max);
            let sq: f64 = e.iter().map(|v| v * v).sum();
            let sum: f64 = e.iter().sum();
            let expect = [
                // F2: step one cell along the axis farthest from the centre.
                (
                    CELLULAR_DISTANCE_EUCLIDEAN,
                    sq.sqrt(),
                    (sq - big * big + (1.0 - big) * (1.0 - big)).sqrt(),
                ),
                (CELLULAR_DISTANCE_MANHATTAN, sum, sum - big + (1.0 - big)),
            ];
            for (distance, f1, f2) in expect {
                let s = |o| shape(0.0, distance, o);
                let got1 = cellular::<f64>(&lut, &p, &s(CELLULAR_F1));
                let got2 = cellular::<f64>(&lut, &p, &s(CELLULAR_F2));
                assert!((got1 - f1).abs() < 1e-12, "{p:?}: F1 {got1} vs {f1}");
                assert!((got2 - f2).abs() < 1e-12, "{p:?}: F2 {got2} vs {f2}");
            }
            let cheb = cellular::<f64>(
                &lut,
                &p,
                &shape(0.0, CELLULAR_DISTANCE_CHEBYSHEV, CELLULAR_F1),
            );
            assert!(
                (cheb - big).abs() < 1e-12,
                "{p:?}: Chebyshev F1 {cheb} vs {big}"
            );
        }
    }
}

#[test]
fn f1_is_1_lipschitz_and_outputs_keep_their_ranges() {
    let lut = PermutationTables::new(0);
    let mut rng = Rng::new(5);
    for dims in 2..=4 {
        for (distance, name) in DISTANCES {
            for _ in 0..2000 {
                let p: Vec<f64> = (0..dims).map(|_| rng.range(-100.0, 100.0)).collect();
                let q: Vec<f64> = p.iter().map(|v| v + rng.range(-0.3, 0.3)).collect();
                let s = |o| shape(1.0, distance, o);
                let gap: Vec<f64> = p.iter().zip(&q).map(|(a, b)| (a - b).abs()).collect();
                let dist = match distance {
                    CELLULAR_DISTANCE_EUCLIDEAN => gap.iter().map(|v| v * v).sum::<f64>().sqrt(),
                    CELLULAR_DISTANCE_MANHATTAN => gap.iter().sum(),
                    _ => gap.iter().cloned().fold(0.0, f64::max),
                };
                let (a, b) = (
                    cellular::<f64>(&lut, &p, &s(CELLULAR_F1)),
                    cellular::<f64>(&lut, &q, &s(CELLULAR_F1)),
                );
                assert!(
                    (a - b).abs() <= dist + 1e-12,
                    "{dims}D {name}: F1 not 1-Lipschitz at {p:?}"
                );
                let f2 = cellular::<f64>(&lut, &p, &s(CELLULAR_F2));
                assert!(
                    a >= 0.0 && f2 >= a,
                    "{dims}D {name}: 0 <= F1 <= F2 at {p:?}"
                );
                let v = cellular::<f64>(&lut, &p, &s(CELLULAR_CELL));
                assert!((-1.0..=1.0).contains(&v), "{dims}D {name}: cell value {v}");
            }
        }
    }
}

/// With whole-number periods, moving by a period along any axis gives the same value.
#[test]
fn periodic_cellular_noise_repeats_with_its_period() {
    let lut = IntegerHasher::new(1);
    let mut rng = Rng::new(8);
    let periods = [1u32, 3, 5, 7];
    for dims in 2..=4 {
        for _ in 0..500 {
            let p: Vec<f64> = (0..dims).map(|_| rng.range(-20.0, 20.0)).collect();
            for (distance, _) in DISTANCES.into_iter().chain(graph_distances()) {
                for output in [CELLULAR_F1, CELLULAR_F2, CELLULAR_CELL] {
                    let s = shape(0.8, distance, output);
                    let v = cellular_periodic::<f64>(&lut, &p, &periods[..dims], &s);
                    for a in 0..dims {
                        let mut q = p.clone();
                        q[a] += periods[a] as f64 * 2.0;
                        let w = cellular_periodic::<f64>(&lut, &q, &periods[..dims], &s);
                        // Equal up to the rounding of the moved coordinate's fraction.
                        assert!(
                            (v - w).abs() < 1e-9 || output == CELLULAR_CELL && v == w,
                            "{dims}D axis {a}: {v} vs {w}"
                        );
                    }
                }
            }
        }
    }
}

/// The f32 mirror tracks the f64 reference (same operations, f32 rounding).
#[test]
fn f32_mirror_is_close_to_f64() {
    let lut = PermutationTables::new(0);
    let mut rng = Rng::new(9);
    let mut worst = 0.0f64;
    for dims in 2..=4 {
        for _ in 0..5000 {
            let p: Vec<f32> = (0..dims).map(|_| rng.range(-100.0, 100.0) as f32).collect();
            let p64: Vec<f64> = p.iter().map(|&v| v as f64).collect();
            let s = shape(1.0, CELLULAR_DISTANCE_EUCLIDEAN, CELLULAR_F1);
            let d = (cellular::<f32>(&lut, &p, &s) as f64 - cellular::<f64>(&lut, &p64, &s)).abs();
            worst = worst.max(d);
        }
    }
    eprintln!("F32 cellular F1: max |f32 - f64| = {worst:e}");
    // Fractions of coordinates up to 100 keep 2^-17 resolution in f32: distances move by
    // that much at most, plus a few ulps of the arithmetic.
    assert!(worst < 2e-5, "{worst}");
}
