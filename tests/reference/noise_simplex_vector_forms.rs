//! The `simplex-vector` warp's continuous kernel and tiled forms on the CPU, against their
//! definitions written out in f64, both lookups: with the continuous kernel (3D and 4D) the
//! sum over the simplex's corners with r² = 0.5 and its scale, continuous across the faces
//! of the simplices where the reference kernel jumps, its gradient the central
//! differences'; tiled in 3D the sum over every point of the periodic lattice within reach
//! (found by search), each wrapped into the tile before it is hashed; tiled in 2D the 4D
//! noise on the torus, its gradient the central differences'; both repeat with their period,
//! values and gradients, and tiled warp graphs join at their tiles' edges. A continuous
//! kernel on a warp whose noise has none is refused with its JSON path.

use crate::common::graphs::Rng;
use crate::noise_simplex_vector::{gradient, reference, reference_with, simplex_corners, unit};
use crate::vector_noise_checks::{
    assert_components_in_range_and_uncorrelated, assert_it_is_its_definition, each_lookup,
    Definition,
};

use wgpu_noise::cpu::fractal::{base_vector, base_vector_deriv};
use wgpu_noise::cpu::lattice::wrap256;
use wgpu_noise::cpu::simplex::{SIMPLEX3_PERIODIC_SCALE, SIMPLEX3_R05_SCALE, SIMPLEX4_R05_SCALE};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::graph::{eval, Graph};
use wgpu_noise::params::{KERNEL_CONTINUOUS, KERNEL_REFERENCE};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// The continuous kernel's noise: [`reference_with`] r² = 0.5 and its scales.
struct ContinuousSimplexVectors;

impl Definition for ContinuousSimplexVectors {
    const KIND: NoiseKind = NoiseKind::Simplex;
    const KERNEL: u32 = KERNEL_CONTINUOUS;
    fn reference(lut: &impl NoiseHasher, p: &[f64]) -> Vec<Vec<f64>> {
        let scale = if p.len() == 3 {
            SIMPLEX3_R05_SCALE
        } else {
            SIMPLEX4_R05_SCALE
        };
        reference_with(lut, p, 0.5, scale)
    }
}

/// `check` with the tables of seed 0 and the hash of seed 5.
fn each_lut(check: impl Fn(&dyn Lut, &str)) {
    check(&PermutationTables::new(0), "tables");
    check(&IntegerHasher::new(5), "hash");
}

/// A lookup as these checks take it (`NoiseHasher` has generic methods): the vector noise
/// with a period and a kernel, in f64 and f32, and its definition's lookups.
trait Lut {
    fn value(&self, p: &[f64], period: &[f64], kernel: u32) -> [f64; 4];
    fn value32(&self, p: &[f32], period: &[f32], kernel: u32) -> [f32; 4];
    fn deriv(&self, p: &[f64], period: &[f64], kernel: u32) -> [[f64; 5]; 4];
    /// [`reference`] at the 4D point `q`.
    fn reference4(&self, q: &[f64]) -> Vec<Vec<f64>>;
    /// The gradient and the vector of the lattice point `cell` (wrapped), by definition.
    fn point(&self, cell: &[u32]) -> (Vec<f64>, [f64; 3]);
}

impl<L: NoiseHasher> Lut for L {
    fn value(&self, p: &[f64], period: &[f64], kernel: u32) -> [f64; 4] {
        base_vector(self, NoiseKind::Simplex, p, period, kernel)
    }
    fn value32(&self, p: &[f32], period: &[f32], kernel: u32) -> [f32; 4] {
        base_vector(self, NoiseKind::Simplex, p, period, kernel)
    }
    fn deriv(&self, p: &[f64], period: &[f64], kernel: u32) -> [[f64; 5]; 4] {
        base_vector_deriv(self, NoiseKind::Simplex, p, period, kernel)
    }
    fn reference4(&self, q: &[f64]) -> Vec<Vec<f64>> {
        reference(self, q)
    }
    fn point(&self, cell: &[u32]) -> (Vec<f64>, [f64; 3]) {
        let h = self.cell_hash(cell);
        (
            gradient(self, cell),
            std::array::from_fn(|a| unit(self, h, 1 + a as u32)),
        )
    }
}

#[test]
fn the_continuous_kernel_is_the_sum_over_the_simplexs_corners_with_r2_one_half() {
    each_lookup::<ContinuousSimplexVectors>(|lut, name| {
        assert_it_is_its_definition(lut, name, 51, 3..=4)
    });
}

#[test]
fn the_continuous_kernels_components_stay_in_minus_1_to_1_and_are_uncorrelated() {
    each_lookup::<ContinuousSimplexVectors>(|lut, name| {
        assert_components_in_range_and_uncorrelated(lut, name, 52, 3..=4)
    });
}

/// The largest change of any component across the faces of the simplices met along 3000
/// random segments of length 0.4 (coordinates to 50), each crossing bisected down to
/// 1e-12.
fn largest_face_jump(dims: usize, noise: impl Fn(&[f64]) -> [f64; 4], seed: u64) -> f64 {
    let mut rng = Rng::new(seed);
    let mut largest = 0f64;
    for _ in 0..3000 {
        let p: Vec<f64> = (0..dims).map(|_| rng.range(-50.0, 50.0)).collect();
        let dir: Vec<f64> = (0..dims).map(|_| rng.range(-1.0, 1.0)).collect();
        let norm = dir.iter().map(|v| v * v).sum::<f64>().sqrt();
        let q: Vec<f64> = (0..dims).map(|a| p[a] + 0.4 * dir[a] / norm).collect();
        let start = simplex_of(&p);
        if simplex_of(&q) == start {
            continue;
        }
        let (mut lo, mut hi) = (p, q);
        for _ in 0..60 {
            let mid: Vec<f64> = (0..dims).map(|a| 0.5 * (lo[a] + hi[a])).collect();
            if simplex_of(&mid) == start {
                lo = mid;
            } else {
                hi = mid;
            }
            let width: f64 = (0..dims).map(|a| (hi[a] - lo[a]).abs()).fold(0.0, f64::max);
            if width < 1e-12 {
                break;
            }
        }
        let (a, b) = (noise(&lo), noise(&hi));
        for c in 0..dims {
            largest = largest.max((a[c] - b[c]).abs());
        }
    }
    largest
}

/// Which simplex holds `p`: its skewed cell and the order of its fractions there (ties,
/// which the bisection meets on a face, broken by the axis).
fn simplex_of(p: &[f64]) -> (Vec<i64>, Vec<usize>) {
    let (f, _) = wgpu_noise::cpu::simplex::skew_factors(p.len());
    let s: f64 = p.iter().sum::<f64>() * f;
    let cell: Vec<i64> = p.iter().map(|&v| (v + s).floor() as i64).collect();
    let frac: Vec<f64> = p
        .iter()
        .zip(&cell)
        .map(|(&v, &c)| v + s - c as f64)
        .collect();
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| frac[b].total_cmp(&frac[a]).then(a.cmp(&b)));
    (cell, order)
}

/// Across the faces of the simplices the reference kernel (r² = 0.6) jumps, by up to a few
/// thousandths; the continuous one does not (a change of 1e-12 times its slope).
#[test]
fn the_continuous_kernel_is_continuous_across_simplex_faces() {
    each_lut(|lut, name| {
        for dims in 3..=4 {
            let untiled = [0.0; 4];
            let jump =
                |kernel| largest_face_jump(dims, |p| lut.value(p, &untiled[..dims], kernel), 53);
            let (continuous, reference) = (jump(KERNEL_CONTINUOUS), jump(KERNEL_REFERENCE));
            eprintln!(
                "{name} {dims}D: largest jump across a face {continuous:e} continuous, {reference:e} reference"
            );
            assert!(continuous < 1e-9, "{name} {dims}D: {continuous}");
            assert!(reference > 1e-4, "{name} {dims}D: {reference}");
        }
    });
}

/// Central differences with step 1e-5 at every point (the continuous kernel has no jumps to
/// step over), `value`'s gradient against `deriv`'s.
fn assert_gradient_is_the_central_differences(
    name: &str,
    dims: usize,
    points: impl Iterator<Item = Vec<f64>>,
    value: impl Fn(&[f64]) -> [f64; 4],
    deriv: impl Fn(&[f64]) -> [[f64; 5]; 4],
    bound: f64,
) {
    let h = 1e-5;
    let mut worst = 0f64;
    let mut checked = 0;
    for p in points {
        checked += 1;
        let d = deriv(&p);
        for b in 0..dims {
            let (mut lo, mut hi) = (p.clone(), p.clone());
            lo[b] -= h;
            hi[b] += h;
            let (vlo, vhi) = (value(&lo), value(&hi));
            for a in 0..dims {
                let numeric = (vhi[a] - vlo[a]) / (2.0 * h);
                let err = (numeric - d[a][b + 1]).abs();
                worst = worst.max(err);
                assert!(
                    err < bound,
                    "{name} {dims}D at {p:?}: ∂{a}/∂{b} {} vs {numeric}",
                    d[a][b + 1]
                );
            }
        }
    }
    eprintln!("{name} {dims}D: worst |analytic − central difference| {worst:e} ({checked} points)");
}

#[test]
fn the_continuous_kernels_gradient_is_the_central_differences_everywhere() {
    each_lut(|lut, name| {
        let mut rng = Rng::new(54);
        for dims in 3..=4 {
            let untiled = [0.0; 4];
            let points: Vec<Vec<f64>> = (0..3000)
                .map(|n| {
                    let reach = if n % 2 == 0 { 10.0 } else { 1e4 };
                    (0..dims).map(|_| rng.range(-reach, reach)).collect()
                })
                .collect();
            assert_gradient_is_the_central_differences(
                name,
                dims,
                points.into_iter(),
                |p| lut.value(p, &untiled[..dims], KERNEL_CONTINUOUS),
                |p| lut.deriv(p, &untiled[..dims], KERNEL_CONTINUOUS),
                1e-5,
            );
        }
    });
}

/// The tiled 3D vector noise at `p` with whole `period` from its definition: every point
/// `(a, b, e)` of the periodic lattice (whole numbers in `uvw = (y + z, x + z, x + y)`, in
/// xyz `((b + e − a)/2, (a + e − b)/2, (a + b − e)/2)`) within the kernel's reach (r² = 0.5;
/// a point within reach is within one of the point's `uvw` along each, so four candidates an
/// axis are searched), wrapped into the tile in xyz, back to `uvw` and hashed: its term
/// `max(0.5 − |d|², 0)⁴ (g · d)` times its vector, summed and scaled. Rows `a`, `[component,
/// ∂/∂x, ∂/∂y, ∂/∂z]`.
fn periodic_reference(lut: &dyn Lut, p: &[f64], period: [u32; 3]) -> Vec<Vec<f64>> {
    let uvw = [p[1] + p[2], p[0] + p[2], p[0] + p[1]];
    let base = uvw.map(|v| v.floor() as i64);
    let mut rows = vec![vec![0.0; 4]; 3];
    for a in base[0] - 1..=base[0] + 2 {
        for b in base[1] - 1..=base[1] + 2 {
            for e in base[2] - 1..=base[2] + 2 {
                let (a, b, e) = (a as f64, b as f64, e as f64);
                let c = [(b + e - a) / 2.0, (a + e - b) / 2.0, (a + b - e) / 2.0];
                let d: Vec<f64> = (0..3).map(|k| p[k] - c[k]).collect();
                let t = 0.5 - d.iter().map(|v| v * v).sum::<f64>();
                if t <= 0.0 {
                    continue;
                }
                let w: Vec<f64> = (0..3).map(|k| c[k].rem_euclid(period[k] as f64)).collect();
                let cell = [
                    wrap256(w[1] + w[2]),
                    wrap256(w[0] + w[2]),
                    wrap256(w[0] + w[1]),
                ];
                let (g, u) = lut.point(&cell);
                let gd: f64 = (0..3).map(|k| g[k] * d[k]).sum();
                for (row, u) in rows.iter_mut().zip(u) {
                    row[0] += u * t.powi(4) * gd;
                    for k in 0..3 {
                        row[k + 1] += u * (t.powi(4) * g[k] - 8.0 * t.powi(3) * gd * d[k]);
                    }
                }
            }
        }
    }
    rows.iter()
        .map(|row| row.iter().map(|v| v * SIMPLEX3_PERIODIC_SCALE).collect())
        .collect()
}

/// The point of the torus for `(x, y)` with `period`: the circles of circumference
/// `period` in (x, y) and in (z, w).
pub fn torus(p: &[f64], period: &[f64]) -> Vec<f64> {
    let tau = std::f64::consts::TAU;
    let (ax, ay) = (p[0] / period[0] * tau, p[1] / period[1] * tau);
    let (rx, ry) = (period[0] / tau, period[1] / tau);
    vec![rx * ax.cos(), rx * ax.sin(), ry * ay.cos(), ry * ay.sin()]
}

#[test]
fn tiled_3d_is_the_sum_over_the_periodic_lattice_within_reach() {
    each_lut(|lut, name| {
        let mut rng = Rng::new(55);
        let mut worst = 0f64;
        for period in [[4u32, 3, 5], [1, 2, 7], [256, 256, 256], [300, 17, 1]] {
            let tile = period.map(f64::from);
            for n in 0..5000 {
                let reach = [3.0, 300.0, 1e4][n % 3];
                let p: Vec<f64> = (0..3).map(|_| rng.range(-reach, reach)).collect();
                let want = periodic_reference(lut, &p, period);
                let got = lut.deriv(&p, &tile, KERNEL_REFERENCE);
                let value = lut.value(&p, &tile, KERNEL_REFERENCE);
                // The kernel applies untiled only: the tile's lattice has its own.
                assert_eq!(lut.value(&p, &tile, KERNEL_CONTINUOUS), value);
                for a in 0..4 {
                    assert_eq!(got[a][0], value[a], "{name}: the value with the gradient");
                    for k in 0..5 {
                        let want = if a < 3 && k < 4 { want[a][k] } else { 0.0 };
                        let err = (got[a][k] - want).abs();
                        worst = worst.max(err);
                        assert!(
                            err < 1e-9 * (1.0 + reach / 100.0),
                            "{name} period {period:?} at {p:?}: component {a} entry {k} {} vs {want}",
                            got[a][k]
                        );
                    }
                }
            }
        }
        eprintln!("{name} tiled 3D: worst |f64 − definition| {worst:e}");
    });
}

#[test]
fn tiled_2d_is_the_4d_noise_on_the_torus_and_its_gradient_the_central_differences() {
    each_lut(|lut, name| {
        let mut rng = Rng::new(56);
        for period in [[4.0, 3.0], [3.7, 2.25], [0.5, 40.0]] {
            let mut points = vec![];
            for n in 0..3000 {
                let reach = [3.0, 300.0, 1e4][n % 3];
                let p: Vec<f64> = (0..2).map(|_| rng.range(-reach, reach)).collect();
                let want = lut.reference4(&torus(&p, &period));
                let got = lut.value(&p, &period, KERNEL_REFERENCE);
                for a in 0..4 {
                    let want = if a < 2 { want[a][0] } else { 0.0 };
                    assert!(
                        (got[a] - want).abs() < 1e-9,
                        "{name} period {period:?} at {p:?}: component {a} {} vs {want}",
                        got[a]
                    );
                }
                // Central differences where the steps stay in one simplex of the 4D noise
                // (its r² = 0.6 kernel jumps at the faces, as the scalar tiled simplex's).
                let h = 1e-5;
                let corners = simplex_corners(&torus(&p, &period));
                let stays = (0..2).all(|b| {
                    [-h, h].iter().all(|s| {
                        let mut q = p.clone();
                        q[b] += s;
                        simplex_corners(&torus(&q, &period)) == corners
                    })
                });
                if stays {
                    points.push(p);
                }
            }
            assert!(points.len() > 2900, "{name}: {} points", points.len());
            assert_gradient_is_the_central_differences(
                &format!("{name} torus {period:?}"),
                2,
                points.into_iter(),
                |p| lut.value(p, &period, KERNEL_REFERENCE),
                |p| lut.deriv(p, &period, KERNEL_REFERENCE),
                1e-5,
            );
        }
    });
}

/// Over 2·10⁵ random points per tile (coordinates to 1000) the tiled components stay in
/// [-1, 1] and pass ±0.6 (tiles large enough to hold many lattice points: a small one holds
/// few vectors).
#[test]
fn tiled_components_stay_in_minus_1_to_1() {
    each_lut(|lut, name| {
        let mut rng = Rng::new(59);
        for period in [
            vec![40.0, 30.0],
            vec![37.5, 22.25],
            vec![40.0, 30.0, 50.0],
            vec![256.0; 3],
        ] {
            let dims = period.len();
            let (mut lo, mut hi) = (0f64, 0f64);
            for _ in 0..200_000 {
                let p: Vec<f64> = (0..dims).map(|_| rng.range(-1000.0, 1000.0)).collect();
                let v = lut.value(&p, &period, KERNEL_REFERENCE);
                for c in &v[..dims] {
                    lo = lo.min(*c);
                    hi = hi.max(*c);
                }
            }
            eprintln!("{name} period {period:?}: components in [{lo:.4}, {hi:.4}]");
            assert!(
                lo >= -1.0 && hi <= 1.0,
                "{name} period {period:?}: {lo} {hi}"
            );
            assert!(lo < -0.6 && hi > 0.6, "{name} period {period:?}: {lo} {hi}");
        }
    });
}

/// In 2D (any period) and 3D (whole periods) the noise and each component's gradient at
/// `p` and one period on along each axis are equal, within f64's rounding of the point.
#[test]
fn tiled_noise_repeats_with_its_period_values_and_gradients() {
    each_lut(|lut, name| {
        let mut rng = Rng::new(57);
        for period in [
            vec![4.0, 3.0],
            vec![3.7, 2.25],
            vec![4.0, 3.0, 5.0],
            vec![1.0, 7.0, 2.0],
        ] {
            let dims = period.len();
            for _ in 0..2000 {
                let p: Vec<f64> = (0..dims).map(|_| rng.range(-20.0, 20.0)).collect();
                let d = lut.deriv(&p, &period, KERNEL_REFERENCE);
                for axis in 0..dims {
                    for turns in [-2.0, 1.0, 3.0] {
                        let mut q = p.clone();
                        q[axis] += turns * period[axis];
                        let e = lut.deriv(&q, &period, KERNEL_REFERENCE);
                        for a in 0..dims {
                            for k in 0..=dims {
                                assert!(
                                    (d[a][k] - e[a][k]).abs() < 1e-9,
                                    "{name} period {period:?} at {p:?} moved {turns} along {axis}: component {a} entry {k} {} vs {}",
                                    d[a][k],
                                    e[a][k]
                                );
                            }
                        }
                    }
                }
            }
            // The f32 mirror tracks f64 (both repeat; f32 rounds the point and the torus's
            // angles at the coordinates' scale, to 20).
            let period32: Vec<f32> = period.iter().map(|&v| v as f32).collect();
            let mut worst = 0f64;
            for _ in 0..2000 {
                let p: Vec<f32> = (0..dims).map(|_| rng.range(-20.0, 20.0) as f32).collect();
                let p64: Vec<f64> = p.iter().map(|&v| v as f64).collect();
                let (a, b) = (
                    lut.value32(&p, &period32, KERNEL_REFERENCE),
                    lut.value(&p64, &period, KERNEL_REFERENCE),
                );
                for c in 0..dims {
                    worst = worst.max((a[c] as f64 - b[c]).abs());
                }
            }
            eprintln!("{name} period {period:?}: max |f32 − f64| {worst:e}");
            assert!(worst < 1e-4, "{name} period {period:?}: f32 vs f64 {worst}");
        }
    });
}

/// A tiled graph with `simplex-vector` warps (iterated, two octaves, over a tiled fBm)
/// repeats and joins at its tiles' edges ([`assert_tiled_graph_repeats_and_joins`]).
#[test]
fn tiled_simplex_vector_warp_graphs_repeat_and_join_at_the_edges() {
    let text = r#"{ "version": 1, "output": "w", "nodes": { "w": { "type": "warp",
        "source": { "type": "fbm", "source": { "type": "simplex" }, "octaves": 2 },
        "noise": "simplex-vector", "amplitude": 0.4, "frequency": 1.0, "octaves": 2,
        "iterations": 2 } } }"#;
    let tiles = [
        (2, [3.0, 2.0, 0.0, 0.0]),
        (2, [2.5, 3.5, 0.0, 0.0]),
        (3, [3.0, 2.0, 2.0, 0.0]),
    ];
    assert_tiled_graph_repeats_and_joins(text, &tiles, 58);
}

/// The graph of `text` tiled in each of `tiles` (dimensions, period): its value and
/// gradient at a point and one period on along each axis are equal (f64), and a baked
/// tile's opposite edges continue each other: the jump across each edge (last texel to
/// first, as the tile repeats) is no larger than the largest step between neighbours inside
/// it, where the untiled graph's is larger.
pub fn assert_tiled_graph_repeats_and_joins(text: &str, tiles: &[(usize, [f32; 4])], seed: u64) {
    let graph = Graph::from_json(text).unwrap();
    let lut = PermutationTables::new(3);
    let mut rng = Rng::new(seed);
    for &(dims, period) in tiles {
        let program = graph.program(dims, period).unwrap();
        let (mut regs, mut duals) = (Vec::new(), Vec::new());
        for _ in 0..300 {
            let mut p = [0.0f64; 4];
            for v in &mut p[..dims] {
                *v = rng.range(-10.0, 10.0);
            }
            let g = eval::value_and_gradient(&program, &lut, p, &mut duals);
            for axis in 0..dims {
                let mut q = p;
                q[axis] += period[axis] as f64;
                let h = eval::value_and_gradient(&program, &lut, q, &mut duals);
                for k in 0..=dims {
                    assert!(
                        (g[k] - h[k]).abs() < 1e-9,
                        "{dims}D period {period:?} at {p:?} along {axis}: entry {k} {} vs {}",
                        g[k],
                        h[k]
                    );
                }
            }
        }
        // A tile of texels sampling one period (texel i at period × i / n per axis), as a
        // tileable bake samples its frequency.
        let size: Vec<usize> = [40, 36, 30][..dims].to_vec();
        let untiled = graph.program(dims, [0.0; 4]).unwrap();
        let texels = |program: &wgpu_noise::graph::Program, regs: &mut Vec<[f32; 4]>| {
            let count: usize = size.iter().product();
            (0..count)
                .map(|i| {
                    let mut p = [0.0f32; 4];
                    let mut rest = i;
                    for a in 0..dims {
                        p[a] = period[a] * (rest % size[a]) as f32 / size[a] as f32 - 1.5;
                        rest /= size[a];
                    }
                    eval::value(program, &lut, p, regs)
                })
                .collect::<Vec<f32>>()
        };
        let values = texels(&program, &mut regs);
        let plain = texels(&untiled, &mut regs);
        for axis in 0..dims {
            let (seam, inner) = seam_and_inner(&values, &size, axis);
            let (plain_seam, _) = seam_and_inner(&plain, &size, axis);
            eprintln!("{dims}D period {period:?} axis {axis}: seam jump {seam:.4}, largest inner step {inner:.4}, untiled seam {plain_seam:.4}");
            assert!(
                seam <= inner * 1.01,
                "{dims}D axis {axis}: seam {seam} > inner {inner}"
            );
            assert!(
                plain_seam > inner,
                "{dims}D axis {axis}: untiled joins by accident"
            );
        }
    }
}

/// The largest jump across the edge along `axis` of a grid of `size` (last texel to first)
/// and the largest step between neighbours along it inside.
fn seam_and_inner(values: &[f32], size: &[usize], axis: usize) -> (f32, f32) {
    let (mut seam, mut inner) = (0f32, 0f32);
    let stride: usize = size[..axis].iter().product();
    for (i, &v) in values.iter().enumerate() {
        let along = (i / stride) % size[axis];
        let next = if along + 1 == size[axis] {
            i - along * stride
        } else {
            i + stride
        };
        let step = (v - values[next]).abs();
        if along + 1 == size[axis] {
            seam = seam.max(step);
        } else {
            inner = inner.max(step);
        }
    }
    (seam, inner)
}

/// Only simplex noise has a kernel to choose: a warp of another noise asking for the
/// continuous one is refused with the kernel's JSON path; `simplex` and `simplex-vector`
/// take it, and the reference kernel is accepted everywhere.
#[test]
fn a_continuous_kernel_on_a_warp_without_one_is_refused_with_its_path() {
    let warp = |noise: &str, kernel: &str| {
        Graph::from_json(&format!(
            r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {{ "type": "warp",
                "source": {{ "type": "position", "axis": "x" }}, "noise": "{noise}",
                "amplitude": 0.5, "kernel": "{kernel}" }} }} }}"#
        ))
    };
    for noise in ["classic", "value", "vector", "supersimplex-vector"] {
        let e = warp(noise, "continuous").unwrap_err();
        assert_eq!(e.path, "nodes.o.kernel", "{noise}: {e}");
        assert!(e.message.contains("continuous kernel"), "{noise}: {e}");
        warp(noise, "reference").unwrap();
    }
    for noise in ["simplex", "simplex-vector"] {
        warp(noise, "continuous").unwrap();
    }
}
