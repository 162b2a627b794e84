//! 4D OpenSimplex2S ("SuperSimplex") on the CPU against a definition written here in f64:
//! every point of the 4D simplex lattice (skew `(√5 − 1)/4`) within the kernel's reach
//! `√(18/25)`, found by search over the skewed cells around the point (not by the
//! evaluator's walk of sixteen), each contributing `max(18/25 − |d|², 0)⁴ (g · d)` with
//! Gustavson's 32 gradients (`tables::GRAD4`) picked by byte 0 of the point's cell hash
//! (`b >> 3`); the noise is continuous, in [-1, 1], its gradient the central differences',
//! the f32 mirror tracks f64, and it repeats on 4D simplex noise's period; both lookups.

use crate::common::graphs::Rng;

use wgpu_noise::cpu::lattice::wrap256;
use wgpu_noise::cpu::supersimplex::{
    supersimplex4, supersimplex4_deriv, supersimplex4_gradient, SUPERSIMPLEX4_NORM,
};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::graph::Graph;
use wgpu_noise::tables::{PermutationTables, GRAD4};

/// The kernel's squared radius, `18/25`.
const R2: f64 = 18.0 / 25.0;

/// A lattice point within the kernel's reach of a point: its wrapped skewed coordinates,
/// the point's offset `d` from it (unskewed) and `a = r² − |d|² > 0`.
pub struct Reached {
    pub cell: [u32; 4],
    pub d: [f64; 4],
    pub a: f64,
}

/// Every lattice point within `√(18/25)` of `p`, found by search. A lattice point `x`
/// (skewed) is at unskewed `x − g Σx`; the point's skewed offset from it is the unskewed one
/// `u` plus `f Σu`, at most `0.85 + 0.31 · 4 · 0.85 < 2` per axis, so the skewed cells
/// `floor(p + f Σp) − 2` to `+ 3` along each axis hold every point within reach.
pub fn within_reach(p: [f64; 4]) -> Vec<Reached> {
    let f = (5f64.sqrt() - 1.0) / 4.0;
    let g = (5.0 - 5f64.sqrt()) / 20.0;
    let s = p.iter().sum::<f64>() * f;
    let base = p.map(|v| (v + s).floor());
    let mut out = Vec::new();
    for i in 0..6usize.pow(4) {
        let x: [f64; 4] =
            std::array::from_fn(|a| base[a] + ((i / 6usize.pow(a as u32)) % 6) as f64 - 2.0);
        let t = x.iter().sum::<f64>() * g;
        let d: [f64; 4] = std::array::from_fn(|a| p[a] - (x[a] - t));
        let a = R2 - d.iter().map(|v| v * v).sum::<f64>();
        if a > 0.0 {
            out.push(Reached {
                cell: x.map(wrap256),
                d,
                a,
            });
        }
    }
    out
}

/// The gradient of the lattice point of hash `h`: `GRAD4[b >> 3]`, `b` its hash's byte 0.
pub fn gradient(lut: &impl NoiseHasher, h: u32) -> [f64; 4] {
    GRAD4[(lut.cell_byte(h, 0) >> 3) as usize].map(f64::from)
}

/// The noise and its gradient at `p` from the definition, and how many points reached it.
pub fn reference(lut: &impl NoiseHasher, p: [f64; 4]) -> ([f64; 5], usize) {
    let points = within_reach(p);
    let mut sum = [0.0; 5];
    for q in &points {
        let g = gradient(lut, lut.cell_hash(&q.cell));
        let e: f64 = (0..4).map(|c| g[c] * q.d[c]).sum();
        sum[0] += q.a.powi(4) * e;
        for c in 0..4 {
            sum[c + 1] += -8.0 * q.a.powi(3) * e * q.d[c] + q.a.powi(4) * g[c];
        }
    }
    (sum.map(|v| v * SUPERSIMPLEX4_NORM), points.len())
}

/// The two lookups behind one check (`NoiseHasher` has generic methods).
trait Lookup {
    fn deriv64(&self, p: [f64; 4]) -> [f64; 5];
    fn deriv32(&self, p: [f32; 4]) -> [f32; 5];
    fn value64(&self, p: [f64; 4]) -> f64;
    fn reference(&self, p: [f64; 4]) -> ([f64; 5], usize);
}

impl<T: NoiseHasher> Lookup for T {
    fn deriv64(&self, p: [f64; 4]) -> [f64; 5] {
        supersimplex4_deriv(self, p)
    }
    fn deriv32(&self, p: [f32; 4]) -> [f32; 5] {
        supersimplex4_deriv(self, p)
    }
    fn value64(&self, p: [f64; 4]) -> f64 {
        supersimplex4(self, p)
    }
    fn reference(&self, p: [f64; 4]) -> ([f64; 5], usize) {
        reference(self, p)
    }
}

fn each_lookup(check: impl Fn(&dyn Lookup, &str)) {
    check(&PermutationTables::new(0), "tables");
    check(&IntegerHasher::new(5), "hash");
}

#[test]
fn the_32_gradients_are_gustavsons() {
    for (n, want) in GRAD4.iter().enumerate() {
        assert_eq!(
            supersimplex4_gradient::<f64>(n as u32),
            want.map(f64::from),
            "gradient {n}"
        );
    }
}

#[test]
fn in_4d_it_is_the_sum_over_every_lattice_point_the_kernel_reaches() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(41);
        let (mut worst, mut most_reached) = (0f64, 0);
        for n in 0..20_000 {
            let reach = [2.0, 300.0, 1e4][n % 3];
            let p = [0; 4].map(|_| rng.range(-reach, reach));
            let (want, reached) = lut.reference(p);
            let got = lut.deriv64(p);
            assert_eq!(
                got[0],
                lut.value64(p),
                "{name}: the value with the gradient differs"
            );
            most_reached = most_reached.max(reached);
            for c in 0..5 {
                let err = (got[c] - want[c]).abs();
                worst = worst.max(err);
                assert!(
                    err < 1e-9,
                    "{name} at {p:?}: component {c} {} vs {}",
                    got[c],
                    want[c]
                );
            }
        }
        eprintln!(
            "{name}: worst |f64 − definition| {worst:e}; at most {most_reached} points reached"
        );
        // The evaluator walks sixteen points; never more are within reach.
        assert!(most_reached <= 16);
    });
}

/// Over 4·10⁵ random points the value stays in [-1, 1] and passes 0.6; climbing the
/// gradient of `|value|` from the 50 highest of them finds no local maximum above 1 either
/// (the output scale 9 is chosen on these figures: docs/graphs.md, SuperSimplex).
#[test]
fn in_4d_it_stays_within_minus_one_and_one() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(42);
        let mut max = 0f64;
        let mut highest: Vec<(f64, [f64; 4])> = Vec::new();
        for _ in 0..400_000 {
            let p = [0; 4].map(|_| rng.range(-1000.0, 1000.0));
            let v = lut.value64(p).abs();
            max = max.max(v);
            if highest.len() < 50 || v > highest[49].0 {
                highest.push((v, p));
                highest.sort_by(|a, b| b.0.total_cmp(&a.0));
                highest.truncate(50);
            }
        }
        // Gradient ascent on |value| with a step that shrinks when it overshoots.
        let mut climbed = 0f64;
        for &(_, start) in &highest {
            let (mut p, mut step) = (start, 1e-2);
            let mut d = lut.deriv64(p);
            for _ in 0..2000 {
                let sign = d[0].signum();
                let q: [f64; 4] = std::array::from_fn(|a| p[a] + step * sign * d[a + 1]);
                let e = lut.deriv64(q);
                if e[0].abs() > d[0].abs() {
                    (p, d) = (q, e);
                } else {
                    step *= 0.5;
                }
            }
            climbed = climbed.max(d[0].abs());
        }
        eprintln!(
            "{name}: max |supersimplex4| over 4·10⁵ points {max}; climbing from the 50 highest {climbed}"
        );
        assert!(max <= 1.0 && max > 0.6, "{name}: max |value| {max}");
        assert!(climbed <= 1.0, "{name}: a local maximum {climbed}");
    });
}

/// Along random lines, samples 10⁻⁴ apart differ by at most the gradient's bound times the
/// step: no jumps where the walk's choice of points changes.
#[test]
fn in_4d_it_is_continuous() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(43);
        let norm = |d: &[f64; 5]| (d[1] * d[1] + d[2] * d[2] + d[3] * d[3] + d[4] * d[4]).sqrt();
        let mut steepest = 0f64;
        for _ in 0..50_000 {
            let p = [0; 4].map(|_| rng.range(-100.0, 100.0));
            steepest = steepest.max(norm(&lut.deriv64(p)));
        }
        // The steepest slope seen, with margin, as the Lipschitz bound.
        let bound = 1.25 * steepest;
        let h = 1e-4;
        let mut worst = 0f64;
        for _ in 0..200 {
            let start = [0; 4].map(|_| rng.range(-50.0, 50.0));
            let dir = [0; 4].map(|_| rng.range(-1.0, 1.0));
            let len = dir.iter().map(|v| v * v).sum::<f64>().sqrt();
            let mut prev = lut.value64(start);
            for k in 1..2000 {
                let t = k as f64 * h;
                let p: [f64; 4] = std::array::from_fn(|a| start[a] + dir[a] / len * t);
                let v = lut.value64(p);
                worst = worst.max((v - prev).abs() / h);
                prev = v;
            }
        }
        eprintln!("{name}: steepest |∇| {steepest:.4}, steepest difference quotient {worst:.4}");
        assert!(worst <= bound, "{name}: a jump: {worst} > {bound}");
    });
}

#[test]
fn in_4d_its_gradient_is_the_central_differences() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(44);
        let h = 1e-5;
        let mut worst = 0f64;
        for n in 0..5000 {
            let reach = if n % 2 == 0 { 10.0 } else { 1e4 };
            let p = [0; 4].map(|_| rng.range(-reach, reach));
            let d = lut.deriv64(p);
            for a in 0..4 {
                let (mut lo, mut hi) = (p, p);
                lo[a] -= h;
                hi[a] += h;
                let numeric = (lut.value64(hi) - lut.value64(lo)) / (2.0 * h);
                let err = (numeric - d[a + 1]).abs();
                worst = worst.max(err);
                assert!(
                    err < 1e-5,
                    "{name} at {p:?} axis {a}: {} vs {numeric}",
                    d[a + 1]
                );
            }
        }
        eprintln!("{name}: worst |analytic − central difference| {worst:e}");
    });
}

/// The f32 mirror against f64 at the same (f32) points: the skew rounds at the coordinates'
/// scale, a few f32 steps of the reach times the slope.
#[test]
fn in_4d_the_f32_mirror_tracks_f64() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(45);
        for reach in [10.0f64, 1000.0, 1e4] {
            let mut worst = [0f64; 2];
            for _ in 0..20_000 {
                let p32 = [0; 4].map(|_| rng.range(-reach, reach) as f32);
                let (a, b) = (lut.deriv32(p32), lut.deriv64(p32.map(f64::from)));
                worst[0] = worst[0].max((f64::from(a[0]) - b[0]).abs());
                for c in 1..5 {
                    worst[1] = worst[1].max((f64::from(a[c]) - b[c]).abs());
                }
            }
            let step = reach * f64::from(f32::EPSILON);
            eprintln!(
                "{name} |p| ≤ {reach}: worst f32 error value {:e}, gradient {:e}",
                worst[0], worst[1]
            );
            assert!(
                worst[0] <= 1e-5 + 20.0 * step,
                "{name} {reach}: value {}",
                worst[0]
            );
            assert!(
                worst[1] <= 1e-4 + 400.0 * step,
                "{name} {reach}: gradient {}",
                worst[1]
            );
        }
    });
}

/// The noise repeats on 4D simplex noise's period (256 along each skewed axis, unskewed),
/// the period `field::reduce_by_periods` moves its offsets by: the reduced offset's value
/// is the offset's.
#[test]
fn in_4d_it_repeats_on_the_simplex_lattices_period() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(46);
        let mut worst = 0f64;
        for _ in 0..2000 {
            let p = [0; 4].map(|_| rng.range(-3000.0, 3000.0));
            let q = wgpu_noise::field::reduce_by_periods(wgpu_noise::NoiseKind::SuperSimplex, 4, p);
            assert!(q.iter().all(|v| v.abs() < 300.0), "{p:?} reduced to {q:?}");
            worst = worst.max((lut.value64(q) - lut.value64(p)).abs());
        }
        eprintln!("{name}: worst |n(reduced p) − n(p)| {worst:e}");
        assert!(worst < 1e-9, "{name}: {worst}");
    });
}

/// A 4D graph with a `supersimplex` node evaluates it (its sampler the CPU reference's
/// noise at the node's seed); tiled, it is refused with the node's JSON path.
#[test]
fn a_4d_graph_takes_it_and_a_tiled_one_is_refused() {
    let graph = Graph::from_json(
        r#"{ "version": 1, "output": "n", "nodes": { "n": { "type": "supersimplex" } } }"#,
    )
    .unwrap();
    let mut sampler = graph.sampler(4, 3).unwrap();
    let lut = PermutationTables::new(3);
    let mut rng = Rng::new(47);
    for _ in 0..200 {
        let p = [0; 4].map(|_| rng.range(-100.0, 100.0));
        let got = sampler.value_f64(&p);
        let want = reference(&lut, p).0[0];
        assert!((got - want).abs() < 1e-9, "at {p:?}: {got} vs {want}");
    }
    let tiled = graph.program(4, [4.0; 4]).unwrap_err().to_string();
    assert!(
        tiled.contains("nodes.n") && tiled.contains("does not tile"),
        "{tiled}"
    );
}
