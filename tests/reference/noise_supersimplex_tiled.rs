//! Tiled OpenSimplex2S (`supersimplex`) and its vector noise (`supersimplex-vector`) on
//! the CPU, both lookups. 2D: the 4D noise written out in f64 (the sum over every lattice
//! point within reach: `noise_supersimplex4::reference`,
//! `noise_supersimplex_vector::reference4`) at the point of a torus whose circles have the
//! periods' circumferences, its gradient the central differences'; both repeat with any
//! period. 3D: the sum over every point of the unrotated body-centred cubic lattice within
//! reach (found by search), each wrapped into the tile before it is hashed, its gradient
//! the central differences'; both repeat with any whole periods. Values and gradients stay
//! in [-1, 1]; tiled graphs join at their tile's edges; tiling in 4D is refused, in graphs
//! with the node's path and in flag fields, and 3D flag fields need whole frequencies.

use crate::common::graphs::Rng;
use crate::noise_simplex_vector_forms::{assert_tiled_graph_repeats_and_joins, torus};
use crate::noise_supersimplex4::reference;
use crate::noise_supersimplex_vector::reference4;

use wgpu_noise::cpu::cellular::CellularShape;
use wgpu_noise::cpu::fractal::{base_noise, base_noise_deriv, base_vector, base_vector_deriv};
use wgpu_noise::cpu::supersimplex::{
    supersimplex3_gradient, SUPERSIMPLEX3_B_KEY, SUPERSIMPLEX3_NORM, SUPERSIMPLEX3_SLOT,
    SUPERSIMPLEX3_VECTOR_NORM,
};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::field::{FlagField, NoiseKind};
use wgpu_noise::graph::Graph;
use wgpu_noise::params::KERNEL_REFERENCE;
use wgpu_noise::tables::PermutationTables;

/// A lookup as these checks take it (`NoiseHasher` has generic methods): the tiled noise
/// and vector noise in f64 and f32, the 4D definitions and the cell hash with its bytes.
trait Lut {
    fn noise(&self, p: &[f64], period: &[f64]) -> [f64; 5];
    fn noise32(&self, p: &[f32], period: &[f32]) -> f32;
    fn vector(&self, p: &[f64], period: &[f64]) -> [[f64; 5]; 4];
    fn vector32(&self, p: &[f32], period: &[f32]) -> [f32; 4];
    fn reference(&self, q: &[f64]) -> [f64; 5];
    fn reference4(&self, q: &[f64]) -> [[f64; 5]; 4];
    fn hash(&self, cell: &[u32]) -> u32;
    fn byte(&self, h: u32, slot: u32) -> u32;
}

impl<T: NoiseHasher> Lut for T {
    fn noise(&self, p: &[f64], period: &[f64]) -> [f64; 5] {
        let cell = CellularShape::default();
        let d = base_noise_deriv(
            self,
            NoiseKind::SuperSimplex,
            p,
            period,
            KERNEL_REFERENCE,
            &cell,
            0.0,
        );
        let v = base_noise(
            self,
            NoiseKind::SuperSimplex,
            p,
            period,
            KERNEL_REFERENCE,
            &cell,
            0.0,
        );
        assert_eq!(
            d[0].to_bits(),
            v.to_bits(),
            "at {p:?}: the gradient's value"
        );
        d
    }
    fn noise32(&self, p: &[f32], period: &[f32]) -> f32 {
        let cell = CellularShape::default();
        base_noise(
            self,
            NoiseKind::SuperSimplex,
            p,
            period,
            KERNEL_REFERENCE,
            &cell,
            0.0,
        )
    }
    fn vector(&self, p: &[f64], period: &[f64]) -> [[f64; 5]; 4] {
        let d = base_vector_deriv(self, NoiseKind::SuperSimplex, p, period, KERNEL_REFERENCE);
        let v = base_vector(self, NoiseKind::SuperSimplex, p, period, KERNEL_REFERENCE);
        for a in 0..4 {
            assert_eq!(d[a][0].to_bits(), v[a].to_bits(), "at {p:?}: component {a}");
        }
        d
    }
    fn vector32(&self, p: &[f32], period: &[f32]) -> [f32; 4] {
        base_vector(self, NoiseKind::SuperSimplex, p, period, KERNEL_REFERENCE)
    }
    fn reference(&self, q: &[f64]) -> [f64; 5] {
        reference(self, [q[0], q[1], q[2], q[3]]).0
    }
    fn reference4(&self, q: &[f64]) -> [[f64; 5]; 4] {
        reference4(self, [q[0], q[1], q[2], q[3]])
    }
    fn hash(&self, cell: &[u32]) -> u32 {
        self.cell_hash(cell)
    }
    fn byte(&self, h: u32, slot: u32) -> u32 {
        self.cell_byte(h, slot)
    }
}

fn each_lut(check: impl Fn(&dyn Lut, &str)) {
    check(&PermutationTables::new(0), "tables");
    check(&IntegerHasher::new(5), "hash");
}

/// Periods whole, fractional, and far from square.
const PERIODS: [[f64; 2]; 3] = [[4.0, 3.0], [3.7, 2.25], [0.5, 40.0]];

/// `(p + h) − (p − h)` along `axis` of `value` over the actual step (exact in f64).
fn central(value: impl Fn(&[f64]) -> f64, p: &[f64], axis: usize, h: f64) -> f64 {
    let (mut lo, mut hi) = (p.to_vec(), p.to_vec());
    lo[axis] -= h;
    hi[axis] += h;
    (value(&hi) - value(&lo)) / (hi[axis] - lo[axis])
}

/// The bound on |analytic − central difference| / (1 + |analytic|): OpenSimplex2S is
/// smooth (C³), so the differences with step 1e-5 err by h²·f'''/6 and the rounding of the
/// torus's angles at coordinates to 1e4 (about 1e-7, as tiled 2D simplex's in
/// `source_gradients`); a wrong term of the torus's chain rule errs by 1e-1 and more.
const GRADIENT_BOUND: f64 = 1e-6;

#[test]
fn tiled_2d_is_the_4d_noise_on_the_torus_and_its_gradient_the_central_differences() {
    each_lut(|lut, name| {
        let mut rng = Rng::new(61);
        let mut worst = 0f64;
        for period in PERIODS {
            for n in 0..1500 {
                let reach = [3.0, 300.0, 1e4][n % 3];
                let p: Vec<f64> = (0..2).map(|_| rng.range(-reach, reach)).collect();
                let q = torus(&p, &period);
                let (got, want) = (lut.noise(&p, &period), lut.reference(&q));
                assert!(
                    (got[0] - want[0]).abs() < 1e-9,
                    "{name} period {period:?} at {p:?}: {} vs {}",
                    got[0],
                    want[0]
                );
                let (got_v, want_v) = (lut.vector(&p, &period), lut.reference4(&q));
                for a in 0..4 {
                    let want = if a < 2 { want_v[a][0] } else { 0.0 };
                    assert!(
                        (got_v[a][0] - want).abs() < 1e-9,
                        "{name} period {period:?} at {p:?}: component {a} {} vs {want}",
                        got_v[a][0]
                    );
                }
                for axis in 0..2 {
                    let h = 1e-5;
                    let numeric = central(|p| lut.noise(p, &period)[0], &p, axis, h);
                    let err = (numeric - got[1 + axis]).abs() / (1.0 + got[1 + axis].abs());
                    worst = worst.max(err);
                    assert!(
                        err < GRADIENT_BOUND,
                        "{name} period {period:?} at {p:?}: ∂/∂{axis} {} vs {numeric}",
                        got[1 + axis]
                    );
                    for (a, row) in got_v.iter().enumerate().take(2) {
                        let numeric = central(|p| lut.vector(p, &period)[a][0], &p, axis, h);
                        let analytic = row[1 + axis];
                        let err = (numeric - analytic).abs() / (1.0 + analytic.abs());
                        worst = worst.max(err);
                        assert!(
                            err < GRADIENT_BOUND,
                            "{name} period {period:?} at {p:?}: ∂{a}/∂{axis} {analytic} vs {numeric}"
                        );
                    }
                }
                assert!(
                    got[3..]
                        .iter()
                        .chain(got_v[2..].iter().flatten())
                        .all(|&v| v == 0.0),
                    "{name} at {p:?}: entries past two axes"
                );
            }
        }
        eprintln!("{name}: worst |analytic − central| / (1 + |analytic|) {worst:e}");
    });
}

/// The noise, the vector noise and their gradients at `p` and whole numbers of periods on
/// along each axis are equal, within f64's rounding of the point; the f32 mirror tracks
/// f64 within `f32_bound` (points to ±20). The dimensions are the periods'.
#[test]
fn tiled_2d_repeats_with_any_period_values_and_gradients() {
    // f32 rounds the point and the torus's angles at the coordinates' scale.
    each_lut(|lut, name| assert_repeats(lut, name, &PERIODS.map(Vec::from), 1e-4, 62));
}

fn assert_repeats(lut: &dyn Lut, name: &str, periods: &[Vec<f64>], f32_bound: f64, seed: u64) {
    let mut rng = Rng::new(seed);
    for period in periods {
        let dims = period.len();
        for _ in 0..1000 {
            let p: Vec<f64> = (0..dims).map(|_| rng.range(-20.0, 20.0)).collect();
            let (d, v) = (lut.noise(&p, period), lut.vector(&p, period));
            for axis in 0..dims {
                for turns in [-2.0, 1.0, 3.0] {
                    let mut q = p.clone();
                    q[axis] += turns * period[axis];
                    let (e, w) = (lut.noise(&q, period), lut.vector(&q, period));
                    for k in 0..=dims {
                        assert!(
                            (d[k] - e[k]).abs() < 1e-9,
                            "{name} period {period:?} at {p:?} moved {turns} along {axis}: entry {k} {} vs {}",
                            d[k],
                            e[k]
                        );
                        for a in 0..dims {
                            assert!(
                                (v[a][k] - w[a][k]).abs() < 1e-9,
                                "{name} period {period:?} at {p:?} moved {turns} along {axis}: component {a} entry {k}"
                            );
                        }
                    }
                }
            }
        }
        let period32: Vec<f32> = period.iter().map(|&v| v as f32).collect();
        let mut worst = 0f64;
        for _ in 0..2000 {
            let p: Vec<f32> = (0..dims).map(|_| rng.range(-20.0, 20.0) as f32).collect();
            let p64: Vec<f64> = p.iter().map(|&v| v as f64).collect();
            let n = (lut.noise32(&p, &period32) as f64 - lut.noise(&p64, period)[0]).abs();
            let (v32, v64) = (lut.vector32(&p, &period32), lut.vector(&p64, period));
            worst = worst.max(n);
            for a in 0..dims {
                worst = worst.max((v32[a] as f64 - v64[a][0]).abs());
            }
        }
        eprintln!("{name} period {period:?}: max |f32 − f64| {worst:e}");
        assert!(
            worst < f32_bound,
            "{name} period {period:?}: f32 vs f64 {worst}"
        );
    }
}

/// Over 2·10⁵ random points per tile (coordinates to 1000) the noise and the vector's
/// components stay in [-1, 1] and pass ±0.5 (tiles large enough to hold many lattice
/// points).
#[test]
fn tiled_2d_stays_in_minus_1_to_1() {
    let periods = [vec![40.0, 30.0], vec![37.5, 22.25]];
    each_lut(|lut, name| assert_in_range(lut, name, &periods, 63));
}

/// The dimensions are the periods'.
fn assert_in_range(lut: &dyn Lut, name: &str, periods: &[Vec<f32>], seed: u64) {
    let mut rng = Rng::new(seed);
    for period in periods {
        let dims = period.len();
        let (mut lo, mut hi) = ([0f32; 2], [0f32; 2]);
        for _ in 0..200_000 {
            let p: Vec<f32> = (0..dims)
                .map(|_| rng.range(-1000.0, 1000.0) as f32)
                .collect();
            let n = lut.noise32(&p, period);
            let v = lut.vector32(&p, period);
            for (k, x) in std::iter::once(n)
                .chain(v[..dims].iter().copied())
                .enumerate()
            {
                let k = k.min(1);
                lo[k] = lo[k].min(x);
                hi[k] = hi[k].max(x);
            }
        }
        eprintln!("{name} period {period:?}: noise in [{:.4}, {:.4}], vector components in [{:.4}, {:.4}]", lo[0], hi[0], lo[1], hi[1]);
        for k in 0..2 {
            assert!(
                lo[k] >= -1.0 && hi[k] <= 1.0,
                "{name} {period:?}: {lo:?} {hi:?}"
            );
            assert!(
                lo[k] < -0.5 && hi[k] > 0.5,
                "{name} {period:?}: {lo:?} {hi:?}"
            );
        }
    }
}

/// A tiled graph of `supersimplex` fBm warped by `supersimplex-vector` (two octaves, twice)
/// repeats and joins at its tile's edges (`assert_tiled_graph_repeats_and_joins`).
#[test]
fn a_tiled_supersimplex_graph_repeats_and_joins_at_the_edges() {
    let text = r#"{ "version": 1, "output": "w", "nodes": { "w": { "type": "warp",
        "source": { "type": "fbm", "source": { "type": "supersimplex" }, "octaves": 2 },
        "noise": "supersimplex-vector", "amplitude": 0.4, "frequency": 1.0, "octaves": 2,
        "iterations": 2 } } }"#;
    let tiles = [(2, [3.0, 2.0, 0.0, 0.0]), (2, [2.5, 3.5, 0.0, 0.0])];
    assert_tiled_graph_repeats_and_joins(text, &tiles, 64);
}

/// In 4D the lattice repeats on no square period: a tiled field is refused, in a graph
/// naming the node, and as flags. 2D flags are accepted, and 3D flags with whole-number
/// frequencies (the tile's periods); a fractional one is refused, naming its axis.
#[test]
fn tiling_in_4d_is_refused_and_2d_and_3d_are_accepted() {
    let noise = r#"{ "version": 1, "output": "n", "nodes": { "n": { "type": "supersimplex" } } }"#;
    let warp = r#"{ "version": 1, "output": "w", "nodes": { "w": { "type": "warp",
        "source": { "type": "classic" }, "noise": "supersimplex-vector", "amplitude": 0.5 } } }"#;
    for (text, node, what) in [
        (noise, "nodes.n", "supersimplex"),
        (warp, "nodes.w", "supersimplex-vector"),
    ] {
        let graph = Graph::from_json(text).unwrap();
        let e = graph.program(4, [4.0; 4]).unwrap_err().to_string();
        assert!(
            e.contains(node) && e.contains(&format!("{what} noise does not tile in 4D")),
            "4D: {e}"
        );
        assert!(graph.program(3, [4.0, 3.0, 5.0, 0.0]).is_ok(), "{text}");
        assert!(graph.program(2, [4.0, 3.0, 0.0, 0.0]).is_ok(), "{text}");
    }
    for dims in [2usize, 3, 4] {
        let size = vec![8u32; dims];
        let field = FlagField::new(NoiseKind::SuperSimplex, &size).with_tileable(true);
        let checked = field.validate();
        if dims < 4 {
            assert!(checked.is_ok(), "{dims}D: {checked:?}");
        } else {
            let e = checked.unwrap_err().to_string();
            assert!(
                e.contains("tileable supersimplex noise is 2D or 3D"),
                "{dims}D: {e}"
            );
        }
    }
    let fractional = FlagField::new(NoiseKind::SuperSimplex, &[8, 8, 8])
        .with_frequency(&[4.0, 2.5, 3.0])
        .with_tileable(true);
    let e = fractional.validate().unwrap_err().to_string();
    assert!(
        e.contains("tileable 3D supersimplex noise needs a whole-number frequency")
            && e.contains("along y"),
        "{e}"
    );
}

/// 3D tile periods: small, one cell, unequal, and past the lookups' 256.
const PERIODS3: [[f64; 3]; 3] = [[4.0, 3.0, 5.0], [1.0, 2.0, 7.0], [300.0, 256.0, 9.0]];

/// The hash of the lattice point at `pos` of the unrotated lattice tiled with `period`
/// (whole numbers: half-lattice A; whole plus one half: B, hashed at `pos − 1/2` moved by
/// the key), each coordinate wrapped into the tile first, as documented in
/// `src/cpu/supersimplex.rs`.
fn tiled_hash3(lut: &dyn Lut, pos: [f64; 3], period: [f64; 3]) -> u32 {
    let b_half = pos[0].fract().abs() == 0.5;
    let v: [u32; 3] = std::array::from_fn(|a| {
        let (at, key) = if b_half {
            (pos[a] - 0.5, SUPERSIMPLEX3_B_KEY)
        } else {
            (pos[a], 0)
        };
        (at.rem_euclid(period[a]) as u32 + key) & 255
    });
    lut.hash(&v)
}

/// The tiled 3D noise and vector noise at `p` written out in f64, each row a value and its
/// gradient (row 0 the noise, row `1 + a` the vector's component `a`): every point of both
/// half-lattices (whole and whole-plus-half points, no rotation) in the 4×4×4 block around
/// `p` summed where the kernel `max(3/4 − |d|², 0)⁴` reaches; component `a` is that term
/// times byte `1 + a` of the point's hash in [-1, 1].
fn tiled_reference3(lut: &dyn Lut, p: [f64; 3], period: [f64; 3]) -> [[f64; 4]; 4] {
    let mut sum = [[0.0; 4]; 4];
    for half in [0.0, 0.5] {
        let base = p.map(|v| (v - half).floor() + half);
        for i in -1..=2 {
            for j in -1..=2 {
                for k in -1..=2 {
                    let pos = [base[0] + i as f64, base[1] + j as f64, base[2] + k as f64];
                    let d: [f64; 3] = std::array::from_fn(|a| p[a] - pos[a]);
                    let a = 0.75 - (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                    if a <= 0.0 {
                        continue;
                    }
                    let h = tiled_hash3(lut, pos, period);
                    let n = (lut.byte(h, SUPERSIMPLEX3_SLOT) * 48) >> 8;
                    let g = supersimplex3_gradient::<f64>(n);
                    let e = d[0] * g[0] + d[1] * g[1] + d[2] * g[2];
                    let term = [
                        a.powi(4) * e,
                        -8.0 * a.powi(3) * e * d[0] + a.powi(4) * g[0],
                        -8.0 * a.powi(3) * e * d[1] + a.powi(4) * g[1],
                        -8.0 * a.powi(3) * e * d[2] + a.powi(4) * g[2],
                    ];
                    let weights = [
                        SUPERSIMPLEX3_NORM,
                        unit(lut, h, 1) * SUPERSIMPLEX3_VECTOR_NORM,
                        unit(lut, h, 2) * SUPERSIMPLEX3_VECTOR_NORM,
                        unit(lut, h, 3) * SUPERSIMPLEX3_VECTOR_NORM,
                    ];
                    for (row, weight) in sum.iter_mut().zip(weights) {
                        for (r, t) in row.iter_mut().zip(term) {
                            *r += weight * t;
                        }
                    }
                }
            }
        }
    }
    sum
}

/// Byte `slot` of hash `h` in [-1, 1], from its definition.
fn unit(lut: &dyn Lut, h: u32, slot: u32) -> f64 {
    (lut.byte(h, slot) as f64 - 127.5) / 127.5
}

/// The bound on |analytic − central difference| / (1 + |analytic|) in 3D: the noise is
/// smooth (C³) and not transformed, so the differences with step 1e-5 err by h² times the
/// third derivative / 6 and by the rounding of coordinates to 1e4 (about 1e-7).
const GRADIENT_BOUND3: f64 = 1e-6;

#[test]
fn tiled_3d_is_the_sum_over_the_unrotated_lattice_wrapped_into_the_tile() {
    each_lut(|lut, name| {
        let mut rng = Rng::new(64);
        let mut worst = 0f64;
        for period in PERIODS3 {
            for n in 0..1500 {
                let reach = [3.0, 300.0, 1e4][n % 3];
                let p: Vec<f64> = (0..3).map(|_| rng.range(-reach, reach)).collect();
                let want = tiled_reference3(lut, [p[0], p[1], p[2]], period);
                let (got, got_v) = (lut.noise(&p, &period), lut.vector(&p, &period));
                for k in 0..4 {
                    assert!(
                        (got[k] - want[0][k]).abs() < 1e-9,
                        "{name} period {period:?} at {p:?}: noise entry {k} {} vs {}",
                        got[k],
                        want[0][k]
                    );
                    for a in 0..3 {
                        assert!(
                            (got_v[a][k] - want[1 + a][k]).abs() < 1e-9,
                            "{name} period {period:?} at {p:?}: component {a} entry {k} {} vs {}",
                            got_v[a][k],
                            want[1 + a][k]
                        );
                    }
                }
                let past = [got[4], got_v[0][4], got_v[1][4], got_v[2][4]];
                assert!(
                    past.iter().chain(&got_v[3]).all(|&v| v == 0.0),
                    "{name} at {p:?}: entries past three axes"
                );
                for axis in 0..3 {
                    let h = 1e-5;
                    let numeric = central(|p| lut.noise(p, &period)[0], &p, axis, h);
                    let err = (numeric - got[1 + axis]).abs() / (1.0 + got[1 + axis].abs());
                    worst = worst.max(err);
                    assert!(
                        err < GRADIENT_BOUND3,
                        "{name} period {period:?} at {p:?}: ∂/∂{axis} {} vs {numeric}",
                        got[1 + axis]
                    );
                    let a = n % 3;
                    let numeric = central(|p| lut.vector(p, &period)[a][0], &p, axis, h);
                    let analytic = got_v[a][1 + axis];
                    let err = (numeric - analytic).abs() / (1.0 + analytic.abs());
                    worst = worst.max(err);
                    assert!(
                        err < GRADIENT_BOUND3,
                        "{name} period {period:?} at {p:?}: ∂{a}/∂{axis} {analytic} vs {numeric}"
                    );
                }
            }
        }
        eprintln!("{name}: 3D worst |analytic − central| / (1 + |analytic|) {worst:e}");
    });
}

/// The tiled 3D noise, the vector noise and their gradients repeat with whole periods
/// (`assert_repeats`).
#[test]
fn tiled_3d_repeats_with_whole_periods_values_and_gradients() {
    // No rotation: f32 rounds only the point's place in its cell.
    each_lut(|lut, name| assert_repeats(lut, name, &PERIODS3.map(Vec::from), 1e-5, 65));
}

/// The tiled 3D noise and the vector's components stay in [-1, 1] and pass ±0.5
/// (`assert_in_range`).
#[test]
fn tiled_3d_stays_in_minus_1_to_1() {
    let periods = [vec![40.0, 30.0, 20.0], vec![7.0, 256.0, 3.0]];
    each_lut(|lut, name| assert_in_range(lut, name, &periods, 66));
}

/// A tiled 3D graph of `supersimplex` fBm warped by `supersimplex-vector` (two octaves,
/// twice) repeats and joins at its tile's edges (`assert_tiled_graph_repeats_and_joins`).
#[test]
fn a_tiled_3d_supersimplex_graph_repeats_and_joins_at_the_edges() {
    let text = r#"{ "version": 1, "output": "w", "nodes": { "w": { "type": "warp",
        "source": { "type": "fbm", "source": { "type": "supersimplex" }, "octaves": 2 },
        "noise": "supersimplex-vector", "amplitude": 0.4, "frequency": 1.0, "octaves": 2,
        "iterations": 2 } } }"#;
    let tiles = [(3, [3.0, 2.0, 4.0, 0.0]), (3, [5.0, 1.0, 2.0, 0.0])];
    assert_tiled_graph_repeats_and_joins(text, &tiles, 67);
}
