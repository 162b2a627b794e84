//! What every noise of vectors of the `warp` node (`simplex-vector`, `supersimplex-vector`)
//! is checked for, with both lookups: its values and gradients are its definition written
//! out in f64, and its components stay in [-1, 1], reach near both ends and are
//! uncorrelated. Each noise's module gives its definition ([`Definition`]).

use std::marker::PhantomData;
use std::ops::RangeInclusive;

use crate::common::graphs::Rng;

use wgpu_noise::cpu::fractal::{base_vector, base_vector_deriv};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// A noise of vectors and its definition in f64.
pub trait Definition {
    /// The noise (`base_vector`'s kind, untiled).
    const KIND: NoiseKind;
    /// Its kernel (`base_vector`'s, `KERNEL_REFERENCE` or `KERNEL_CONTINUOUS`).
    const KERNEL: u32 = 0;
    /// The noise and its Jacobian at `p` from the definition: rows `a` (one per axis),
    /// `[component a, ∂/∂x, …]`.
    fn reference(lut: &impl NoiseHasher, p: &[f64]) -> Vec<Vec<f64>>;
}

/// A noise of vectors with one lookup, as the checks take it (`NoiseHasher` has generic
/// methods).
pub trait VectorNoise {
    /// [`Definition::reference`].
    fn reference(&self, p: &[f64]) -> Vec<Vec<f64>>;
    /// The noise in f64, per component (components past the dimensions 0).
    fn value64(&self, p: &[f64]) -> [f64; 4];
    /// The noise in f32.
    fn value32(&self, p: &[f32]) -> [f32; 4];
    /// The noise and each component's gradient in f64.
    fn deriv64(&self, p: &[f64]) -> [[f64; 5]; 4];
}

/// The noise `D` with the lookup `L`.
struct WithLookup<'a, D, L> {
    lut: &'a L,
    definition: PhantomData<D>,
}

impl<D: Definition, L: NoiseHasher> VectorNoise for WithLookup<'_, D, L> {
    fn reference(&self, p: &[f64]) -> Vec<Vec<f64>> {
        D::reference(self.lut, p)
    }
    fn value64(&self, p: &[f64]) -> [f64; 4] {
        base_vector(self.lut, D::KIND, p, &[0.0; 4][..p.len()], D::KERNEL)
    }
    fn value32(&self, p: &[f32]) -> [f32; 4] {
        base_vector(self.lut, D::KIND, p, &[0.0; 4][..p.len()], D::KERNEL)
    }
    fn deriv64(&self, p: &[f64]) -> [[f64; 5]; 4] {
        base_vector_deriv(self.lut, D::KIND, p, &[0.0; 4][..p.len()], D::KERNEL)
    }
}

/// `check` with the noise `D` on the tables of seed 0 and the hash of seed 5.
pub fn each_lookup<D: Definition>(check: impl Fn(&dyn VectorNoise, &str)) {
    let tables = PermutationTables::new(0);
    let hash = IntegerHasher::new(5);
    check(
        &WithLookup::<D, _> {
            lut: &tables,
            definition: PhantomData,
        },
        "tables",
    );
    check(
        &WithLookup::<D, _> {
            lut: &hash,
            definition: PhantomData,
        },
        "hash",
    );
}

/// At 10 000 random points per dimension (coordinates to 2, 300 and 1e4), the f64 values
/// and gradients are the definition's within 1e-9, and the value with the gradient is the
/// value alone exactly.
pub fn assert_it_is_its_definition(
    lut: &dyn VectorNoise,
    name: &str,
    seed: u64,
    dims: RangeInclusive<usize>,
) {
    let mut rng = Rng::new(seed);
    for dims in dims {
        let mut worst = 0f64;
        for n in 0..10_000 {
            let reach = [2.0, 300.0, 1e4][n % 3];
            let p: Vec<f64> = (0..dims).map(|_| rng.range(-reach, reach)).collect();
            let want = lut.reference(&p);
            let got = lut.deriv64(&p);
            let value = lut.value64(&p);
            for a in 0..4 {
                assert_eq!(
                    got[a][0], value[a],
                    "{name}: the value with the gradient differs"
                );
                for c in 0..5 {
                    let want = if a < dims && c <= dims {
                        want[a][c]
                    } else {
                        0.0
                    };
                    let err = (got[a][c] - want).abs();
                    worst = worst.max(err);
                    assert!(
                        err < 1e-9,
                        "{name} {dims}D at {p:?}: component {a} entry {c} {} vs {want}",
                        got[a][c]
                    );
                }
            }
        }
        eprintln!("{name} {dims}D: worst |f64 − definition| {worst:e}");
    }
}

/// Over 4·10⁵ random points per dimension (coordinates to 1000), each component stays in
/// [-1, 1] and passes ±0.6, and the first two are uncorrelated (|r| < 0.05).
pub fn assert_components_in_range_and_uncorrelated(
    lut: &dyn VectorNoise,
    name: &str,
    seed: u64,
    dims: RangeInclusive<usize>,
) {
    let mut rng = Rng::new(seed);
    for dims in dims {
        let (mut lo, mut hi) = ([0f64; 4], [0f64; 4]);
        let (mut sum, mut square, mut cross) = ([0f64; 4], [0f64; 4], 0f64);
        let count = 400_000;
        for _ in 0..count {
            let p: Vec<f64> = (0..dims).map(|_| rng.range(-1000.0, 1000.0)).collect();
            let v = lut.value64(&p);
            for a in 0..dims {
                lo[a] = lo[a].min(v[a]);
                hi[a] = hi[a].max(v[a]);
                sum[a] += v[a];
                square[a] += v[a] * v[a];
            }
            cross += v[0] * v[1];
        }
        let n = count as f64;
        let sd: Vec<f64> = (0..dims)
            .map(|a| (square[a] / n - (sum[a] / n).powi(2)).sqrt())
            .collect();
        let correlation = (cross / n - sum[0] * sum[1] / (n * n)) / (sd[0] * sd[1]);
        eprintln!(
            "{name} {dims}D over 4·10⁵ points: min {:?} max {:?} sd {sd:?} corr(x, y) {correlation:.4}",
            &lo[..dims],
            &hi[..dims]
        );
        for a in 0..dims {
            assert!(
                lo[a] >= -1.0 && hi[a] <= 1.0,
                "{name} {dims}D: out of [-1, 1]"
            );
            assert!(
                lo[a] < -0.6 && hi[a] > 0.6,
                "{name} {dims}D: {a} {lo:?} {hi:?}"
            );
        }
        assert!(
            correlation.abs() < 0.05,
            "{name} {dims}D: correlation {correlation}"
        );
    }
}
