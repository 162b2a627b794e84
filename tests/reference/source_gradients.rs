//! Analytic gradients of every base noise a graph source can be (`cpu::fractal::base_noise_deriv`):
//! classic, value, cellular (every output and distance), simplex and flow, untiled and tiled, in
//! 2D, 3D and 4D, with both lookups. The gradient matches central differences of the value
//! (f64) away from kinks and jumps, at small and large coordinates, and the value it
//! returns is the value function's bit for bit (f32 and f64).

use crate::common::graphs::Rng;

use wgpu_noise::cpu::cellular::CellularShape;
use wgpu_noise::cpu::fractal::{base_noise, base_noise_deriv};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher, Real};
use wgpu_noise::params::{
    CELLULAR_CELL, CELLULAR_DISTANCE_CHEBYSHEV, CELLULAR_DISTANCE_EUCLIDEAN,
    CELLULAR_DISTANCE_MANHATTAN, CELLULAR_F1, CELLULAR_F2, CELLULAR_F2_MINUS_F1, KERNEL_CONTINUOUS,
    KERNEL_REFERENCE,
};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// One base noise: what `base_noise` takes besides the point.
#[derive(Clone, Copy, Debug)]
struct Source {
    kind: NoiseKind,
    dims: usize,
    /// Per axis; 0 = untiled.
    period: [f64; 4],
    kernel: u32,
    cell: CellularShape,
    flow: f64,
}

impl Source {
    fn value<R: Real>(&self, lut: &impl NoiseHasher, p: &[R]) -> R {
        let period = self.period.map(R::lit);
        base_noise(
            lut,
            self.kind,
            p,
            &period[..self.dims],
            self.kernel,
            &self.cell,
            R::lit(self.flow),
        )
    }

    fn deriv<R: Real>(&self, lut: &impl NoiseHasher, p: &[R]) -> [R; 5] {
        let period = self.period.map(R::lit);
        base_noise_deriv(
            lut,
            self.kind,
            p,
            &period[..self.dims],
            self.kernel,
            &self.cell,
            R::lit(self.flow),
        )
    }
}

/// Every source kind and option a graph can give a base noise, per dimension count.
fn sources() -> Vec<(String, Source)> {
    let mut out = Vec::new();
    let plain = |kind, dims| Source {
        kind,
        dims,
        period: [0.0; 4],
        kernel: KERNEL_REFERENCE,
        cell: CellularShape::default(),
        flow: 0.0,
    };
    let periods = [5.0, 7.0, 3.0, 4.0];
    for dims in 2..=4 {
        let tiled = |s: Source| Source {
            period: std::array::from_fn(|a| if a < dims { periods[a] } else { 0.0 }),
            ..s
        };
        out.push((format!("classic{dims}"), plain(NoiseKind::Classic, dims)));
        out.push((
            format!("classic{dims} tiled"),
            tiled(plain(NoiseKind::Classic, dims)),
        ));
        out.push((format!("value{dims}"), plain(NoiseKind::Value, dims)));
        out.push((
            format!("value{dims} tiled"),
            tiled(plain(NoiseKind::Value, dims)),
        ));
        for (kernel, name) in [(KERNEL_REFERENCE, ""), (KERNEL_CONTINUOUS, " continuous")] {
            out.push((
                format!("simplex{dims}{name}"),
                Source {
                    kernel,
                    ..plain(NoiseKind::Simplex, dims)
                },
            ));
        }
        out.push((
            format!("supersimplex{dims}"),
            plain(NoiseKind::SuperSimplex, dims),
        ));
        if dims == 2 {
            out.push((
                "supersimplex2 tiled".to_string(),
                tiled(plain(NoiseKind::SuperSimplex, dims)),
            ));
        }
        if dims < 4 {
            out.push((
                format!("simplex{dims} tiled"),
                tiled(plain(NoiseKind::Simplex, dims)),
            ));
            out.push((
                format!("flow{dims}"),
                Source {
                    flow: 1.3,
                    ..plain(NoiseKind::Simplex, dims)
                },
            ));
        }
        let outputs = [
            (CELLULAR_F1, "f1"),
            (CELLULAR_F2, "f2"),
            (CELLULAR_F2_MINUS_F1, "f2-f1"),
            (CELLULAR_CELL, "cell"),
        ];
        let distances = [
            (CELLULAR_DISTANCE_EUCLIDEAN, "euclidean"),
            (CELLULAR_DISTANCE_MANHATTAN, "manhattan"),
            (CELLULAR_DISTANCE_CHEBYSHEV, "chebyshev"),
        ];
        for (output, o) in outputs {
            for (distance, d) in distances {
                for jitter in [1.0, 0.6] {
                    let s = Source {
                        cell: CellularShape {
                            jitter,
                            distance,
                            output,
                        },
                        ..plain(NoiseKind::Cellular, dims)
                    };
                    out.push((format!("cellular{dims} {o} {d} jitter {jitter}"), s));
                    out.push((
                        format!("cellular{dims} {o} {d} jitter {jitter} tiled"),
                        tiled(s),
                    ));
                }
            }
        }
    }
    out
}

/// Central differences with steps `h` and `h/2` (the actual steps `(p + h) − (p − h)`,
/// exact in f64, not the nominal ones: at 1e4 the nominal step is off by 2e-7 relative).
fn central(value: &impl Fn(&[f64]) -> f64, p: &[f64], axis: usize, h: f64) -> f64 {
    let (mut lo, mut hi) = (p.to_vec(), p.to_vec());
    lo[axis] -= h;
    hi[axis] += h;
    (value(&hi) - value(&lo)) / (hi[axis] - lo[axis])
}

/// The step of the central differences. Truncation errs by h²·f'''/6 (f''' of one octave
/// reaches ~1e3 for simplex, more near a cellular feature); rounding by 1e-16·|v|/h, and at
/// coordinates of 1e4 the cell offset `p − floor(p)` carries 1e-12 absolute, 1e-7 of h.
const H: f64 = 1e-5;

/// Where the differences with h and h/2 disagree by more than this (relative to
/// 1 + |gradient|), a kink or jump lies within the step and no derivative is compared: away
/// from kinks both carry only their own error (under 2e-7, below), at a kink they differ by
/// a good part of the jump in slope.
const KINK: f64 = 1e-6;

/// The bound on |analytic − central difference| / (1 + |analytic|) away from kinks:
/// measured at most 1.2e-7 (tiled 2D simplex at coordinates of 1e4, whose torus angles
/// `x / period · 2π` carry that rounding; every other source at most 1.4e-8; the figure of
/// each is printed); a wrong term (a missing fade slope, a sign, the torus' chain rule)
/// errs by 1e-1 and more.
const TOLERANCE: f64 = 1e-6;

fn check<L: NoiseHasher>(lut: &L, lookup: &str) {
    let mut rng = Rng::new(17);
    let (mut total_checked, mut total_skipped) = (0usize, 0usize);
    for (name, source) in sources() {
        let dims = source.dims;
        let value = |p: &[f64]| source.value(lut, p);
        let (mut checked, mut skipped, mut worst) = (0usize, 0usize, 0.0f64);
        for scale in [10.0, 1e4] {
            for _ in 0..150 {
                let p: Vec<f64> = (0..dims).map(|_| rng.range(-scale, scale)).collect();
                let d = source.deriv(lut, &p);
                assert_eq!(
                    d[0].to_bits(),
                    value(&p).to_bits(),
                    "{name} ({lookup}) at {p:?}: the gradient's value (f64)"
                );
                let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                assert_eq!(
                    source.deriv(lut, &p32)[0].to_bits(),
                    source.value(lut, &p32).to_bits(),
                    "{name} ({lookup}) at {p32:?}: the gradient's value (f32)"
                );
                assert!(
                    d[1 + dims..].iter().all(|&v| v == 0.0),
                    "{name}: {d:?} past {dims} axes"
                );
                for a in 0..dims {
                    let scale = 1.0 + d[1 + a].abs();
                    let (d1, d2) = (central(&value, &p, a, H), central(&value, &p, a, H / 2.0));
                    if (d1 - d2).abs() > KINK * scale {
                        skipped += 1;
                        continue;
                    }
                    let error = (d[1 + a] - d2).abs() / scale;
                    worst = worst.max(error);
                    assert!(
                        error < TOLERANCE,
                        "{name} ({lookup}) at {p:?} axis {a}: analytic {} central {d2}",
                        d[1 + a]
                    );
                    checked += 1;
                }
            }
        }
        println!("{name} ({lookup}): {checked} derivatives within {worst:.1e}, {skipped} at kinks skipped");
        // Kinks are cell borders (cellular), simplex boundaries (the r² = 0.6 kernel's jumps,
        // also under the 2D tiles' 4D noise): a few percent of random points at most.
        assert!(
            skipped * 10 < checked,
            "{name} ({lookup}): {skipped} kinks against {checked} checked"
        );
        total_checked += checked;
        total_skipped += skipped;
    }
    println!("{lookup}: {total_checked} derivatives checked, {total_skipped} at kinks skipped");
}

#[test]
fn every_source_gradient_matches_central_differences_with_the_tables() {
    check(&PermutationTables::new(3), "tables");
}

#[test]
fn every_source_gradient_matches_central_differences_with_the_hash() {
    check(&IntegerHasher::new(3), "hash");
}

#[test]
fn classic_noise_at_a_lattice_point_has_its_corners_gradient() {
    let lut = PermutationTables::new(0);
    // At a lattice point the fade slopes vanish: the gradient is that corner's gradient.
    let d = base_noise_deriv::<f64>(
        &lut,
        NoiseKind::Classic,
        &[3.0, 5.0, 7.0],
        &[0.0; 3],
        KERNEL_REFERENCE,
        &CellularShape::default(),
        0.0,
    );
    assert_eq!(d[0], 0.0, "classic noise is 0 at lattice points");
    let g = lut.lattice_grad3::<f64>(3, 5, 7);
    assert_eq!(&d[1..4], &g[..], "the corner's gradient");
}
