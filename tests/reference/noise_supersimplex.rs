//! OpenSimplex2S ("SuperSimplex") on the CPU against transliterations written here in
//! f64. 3D: every point of both half-lattices of the body-centred cubic lattice within the
//! kernel's reach, found by search (not by the evaluator's choice of eight), each
//! contributing `max(3/4 − |d|², 0)⁴ (g · d)` with our gradient lookup; the gradients are
//! the Java reference's 48; the noise is continuous, in [-1, 1], its gradient the central
//! differences', and the f32 mirror tracks f64; both lookups. 2D the same on the triangular
//! lattice (every lattice point within `√(2/3)` found by search, the Java's 24 gradients).

use crate::common::graphs::Rng;

use wgpu_noise::cpu::lattice::wrap256;
use wgpu_noise::cpu::supersimplex::{
    supersimplex2, supersimplex2_deriv, supersimplex2_gradient, supersimplex3, supersimplex3_deriv,
    supersimplex3_gradient, SUPERSIMPLEX2_NORM, SUPERSIMPLEX3_B_KEY, SUPERSIMPLEX3_NORM,
    SUPERSIMPLEX3_SLOT,
};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::tables::PermutationTables;

/// The Java reference's gradient table (`OpenSimplex2S.java`, `grad3`) before its division
/// by `NORMALIZER_3D`.
const JAVA_GRAD3: [[f64; 3]; 48] = {
    const A: f64 = 2.22474487139;
    const B: f64 = 3.0862664687972017;
    const C: f64 = 1.1721513422464978;
    [
        [A, A, -1.0],
        [A, A, 1.0],
        [B, C, 0.0],
        [C, B, 0.0],
        [-A, A, -1.0],
        [-A, A, 1.0],
        [-C, B, 0.0],
        [-B, C, 0.0],
        [-1.0, -A, -A],
        [1.0, -A, -A],
        [0.0, -B, -C],
        [0.0, -C, -B],
        [-1.0, -A, A],
        [1.0, -A, A],
        [0.0, -C, B],
        [0.0, -B, C],
        [-A, -A, -1.0],
        [-A, -A, 1.0],
        [-B, -C, 0.0],
        [-C, -B, 0.0],
        [-A, -1.0, -A],
        [-A, 1.0, -A],
        [-C, 0.0, -B],
        [-B, 0.0, -C],
        [-A, -1.0, A],
        [-A, 1.0, A],
        [-B, 0.0, C],
        [-C, 0.0, B],
        [-1.0, A, -A],
        [1.0, A, -A],
        [0.0, C, -B],
        [0.0, B, -C],
        [-1.0, A, A],
        [1.0, A, A],
        [0.0, B, C],
        [0.0, C, B],
        [A, -A, -1.0],
        [A, -A, 1.0],
        [C, -B, 0.0],
        [B, -C, 0.0],
        [A, -1.0, -A],
        [A, 1.0, -A],
        [B, 0.0, -C],
        [C, 0.0, -B],
        [A, -1.0, A],
        [A, 1.0, A],
        [C, 0.0, B],
        [B, 0.0, C],
    ]
};
const JAVA_NORMALIZER_3D: f64 = 0.2781926117527186;

#[test]
fn the_48_gradients_are_the_java_references() {
    let ours: Vec<[f64; 3]> = (0..48).map(supersimplex3_gradient::<f64>).collect();
    for (n, g) in ours.iter().enumerate() {
        let found = JAVA_GRAD3
            .iter()
            .position(|j| (0..3).all(|a| (j[a] / JAVA_NORMALIZER_3D - g[a]).abs() < 1e-9));
        assert!(found.is_some(), "gradient {n} {g:?} is not one of Java's");
        for (m, h) in ours.iter().enumerate().take(n) {
            assert!(g != h, "gradients {m} and {n} are the same");
        }
    }
    // Equal lengths (the shortened kind matches the other).
    let len = |g: &[f64; 3]| (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt();
    let (lo, hi) = ours
        .iter()
        .map(len)
        .fold((f64::MAX, 0f64), |(lo, hi), l| (lo.min(l), hi.max(l)));
    eprintln!("gradient lengths {lo} to {hi}");
    assert!(hi - lo < 1e-9 * hi);
}

/// How often each of the 48 gradients is drawn from a hash byte: 16 by 6 bytes, 32 by 5.
#[test]
fn a_byte_picks_a_gradient_with_the_documented_bias() {
    let mut count = [0u32; 48];
    for b in 0..256u32 {
        count[((b * 48) >> 8) as usize] += 1;
    }
    let six: Vec<usize> = (0..48).filter(|&n| count[n] == 6).collect();
    assert_eq!(six, (0..16).map(|k| 3 * k).collect::<Vec<_>>());
    assert!(count.iter().all(|&c| c == 5 || c == 6));
}

/// The gradient of the lattice point at `pos` (whole numbers: half-lattice A; whole plus
/// one half: B, hashed at `pos − 1/2` moved by the key), as documented in
/// `src/cpu/supersimplex.rs`.
fn gradient(lut: &impl NoiseHasher, pos: [f64; 3]) -> [f64; 3] {
    let b_half = pos[0].fract().abs() == 0.5;
    let v: [u32; 3] = std::array::from_fn(|a| {
        if b_half {
            (wrap256(pos[a] - 0.5) + SUPERSIMPLEX3_B_KEY) & 255
        } else {
            wrap256(pos[a])
        }
    });
    let byte = lut.cell_byte(lut.cell_hash(&v), SUPERSIMPLEX3_SLOT);
    supersimplex3_gradient((byte * 48) >> 8)
}

/// The noise and its gradient at `p` written out in f64: the conventional rotation
/// `X = (2/3)(x + y + z) − p`, then every point of the two half-lattices (whole and
/// whole-plus-half points of X's space) in the 4×4×4 block around X summed where the
/// kernel reaches, and the gradient rotated back.
fn reference(lut: &impl NoiseHasher, p: [f64; 3]) -> ([f64; 4], usize) {
    let r = (p[0] + p[1] + p[2]) * (2.0 / 3.0);
    let x = [r - p[0], r - p[1], r - p[2]];
    let mut sum = [0.0; 4];
    let mut reached = 0;
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
                    reached += 1;
                    let g = gradient(lut, pos);
                    let e = d[0] * g[0] + d[1] * g[1] + d[2] * g[2];
                    sum[0] += a.powi(4) * e;
                    for c in 0..3 {
                        sum[c + 1] += -8.0 * a.powi(3) * e * d[c] + a.powi(4) * g[c];
                    }
                }
            }
        }
    }
    let s = (sum[1] + sum[2] + sum[3]) * (2.0 / 3.0);
    let n = SUPERSIMPLEX3_NORM;
    (
        [
            sum[0] * n,
            (s - sum[1]) * n,
            (s - sum[2]) * n,
            (s - sum[3]) * n,
        ],
        reached,
    )
}

fn each_lookup(check: impl Fn(&dyn NoiseHasherDyn, &str)) {
    check(&PermutationTables::new(0), "tables");
    check(&IntegerHasher::new(5), "hash");
}

/// The two lookups behind one reference (`NoiseHasher` has generic methods).
trait NoiseHasherDyn {
    fn noise2_64(&self, p: [f64; 2]) -> [f64; 3];
    fn noise2_32(&self, p: [f32; 2]) -> [f32; 3];
    fn value2_64(&self, p: [f64; 2]) -> f64;
    fn reference2(&self, p: [f64; 2]) -> ([f64; 3], usize);
    fn noise64(&self, p: [f64; 3]) -> [f64; 4];
    fn noise32(&self, p: [f32; 3]) -> [f32; 4];
    fn value64(&self, p: [f64; 3]) -> f64;
    fn reference(&self, p: [f64; 3]) -> ([f64; 4], usize);
}

impl<T: NoiseHasher> NoiseHasherDyn for T {
    fn noise2_64(&self, p: [f64; 2]) -> [f64; 3] {
        supersimplex2_deriv(self, p)
    }
    fn noise2_32(&self, p: [f32; 2]) -> [f32; 3] {
        supersimplex2_deriv(self, p)
    }
    fn value2_64(&self, p: [f64; 2]) -> f64 {
        supersimplex2(self, p)
    }
    fn reference2(&self, p: [f64; 2]) -> ([f64; 3], usize) {
        reference2(self, p)
    }
    fn noise64(&self, p: [f64; 3]) -> [f64; 4] {
        supersimplex3_deriv(self, p)
    }
    fn noise32(&self, p: [f32; 3]) -> [f32; 4] {
        supersimplex3_deriv(self, p)
    }
    fn value64(&self, p: [f64; 3]) -> f64 {
        supersimplex3(self, p)
    }
    fn reference(&self, p: [f64; 3]) -> ([f64; 4], usize) {
        reference(self, p)
    }
}

#[test]
fn it_is_the_sum_over_every_lattice_point_the_kernel_reaches() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(11);
        let (mut worst, mut most_reached) = (0f64, 0);
        for n in 0..20_000 {
            let reach = [2.0, 300.0, 1e4][n % 3];
            let p = [0; 3].map(|_| rng.range(-reach, reach));
            let (want, reached) = lut.reference(p);
            let got = lut.noise64(p);
            assert_eq!(
                got[0],
                lut.value64(p),
                "{name}: the value with the gradient differs"
            );
            most_reached = most_reached.max(reached);
            for c in 0..4 {
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
        eprintln!("{name}: worst |f64 − transliteration| {worst:e}; at most {most_reached} points reached");
        // The evaluator takes eight points; never more are within reach.
        assert!(most_reached <= 8);
    });
}

#[test]
fn it_stays_within_minus_one_and_one() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(12);
        let mut max = 0f64;
        for _ in 0..400_000 {
            let p = [0; 3].map(|_| rng.range(-1000.0, 1000.0));
            max = max.max(lut.value64(p).abs());
        }
        eprintln!("{name}: max |supersimplex3| over 4·10⁵ points: {max}");
        assert!(max <= 1.0 && max > 0.6, "{name}: max |value| {max}");
    });
}

/// Along random lines, samples 10⁻⁴ apart differ by at most the gradient's bound times the
/// step: no jumps where the evaluator's choice of points changes.
#[test]
fn it_is_continuous() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(13);
        // The steepest slope seen, with margin, as the Lipschitz bound.
        let mut steepest = 0f64;
        for _ in 0..50_000 {
            let p = [0; 3].map(|_| rng.range(-100.0, 100.0));
            let d = lut.noise64(p);
            steepest = steepest.max((d[1] * d[1] + d[2] * d[2] + d[3] * d[3]).sqrt());
        }
        let bound = 1.25 * steepest;
        let h = 1e-4;
        let mut worst = 0f64;
        for _ in 0..200 {
            let start = [0; 3].map(|_| rng.range(-50.0, 50.0));
            let dir = [0; 3].map(|_| rng.range(-1.0, 1.0));
            let len = (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]).sqrt();
            let mut prev = lut.value64(start);
            for k in 1..2000 {
                let t = k as f64 * h;
                let p: [f64; 3] = std::array::from_fn(|a| start[a] + dir[a] / len * t);
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
fn its_gradient_is_the_central_differences() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(14);
        let h = 1e-5;
        let mut worst = 0f64;
        for n in 0..5000 {
            let reach = if n % 2 == 0 { 10.0 } else { 1000.0 };
            let p = [0; 3].map(|_| rng.range(-reach, reach));
            let d = lut.noise64(p);
            for a in 0..3 {
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

/// The f32 mirror against f64 at the same (f32) points: within a few f32 steps of the
/// coordinates times the slope.
#[test]
fn the_f32_mirror_tracks_f64() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(15);
        for reach in [10.0f64, 1000.0, 1e4] {
            let mut worst = [0f64; 2];
            for _ in 0..20_000 {
                let p32 = [0; 3].map(|_| rng.range(-reach, reach) as f32);
                let p64 = p32.map(f64::from);
                let (a, b) = (lut.noise32(p32), lut.noise64(p64));
                worst[0] = worst[0].max((f64::from(a[0]) - b[0]).abs());
                for c in 1..4 {
                    worst[1] = worst[1].max((f64::from(a[c]) - b[c]).abs());
                }
            }
            // The rotation rounds at the coordinates' scale: an f32 step of `reach`.
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

/// The Java reference's 2D gradients (`grad2`, before the division by `NORMALIZER_2D`).
const JAVA_GRAD2: [[f64; 2]; 24] = [
    [0.130526192220052, 0.99144486137381],
    [0.38268343236509, 0.923879532511287],
    [0.608761429008721, 0.793353340291235],
    [0.793353340291235, 0.608761429008721],
    [0.923879532511287, 0.38268343236509],
    [0.99144486137381, 0.130526192220051],
    [0.99144486137381, -0.130526192220051],
    [0.923879532511287, -0.38268343236509],
    [0.793353340291235, -0.60876142900872],
    [0.608761429008721, -0.793353340291235],
    [0.38268343236509, -0.923879532511287],
    [0.130526192220052, -0.99144486137381],
    [-0.130526192220052, -0.99144486137381],
    [-0.38268343236509, -0.923879532511287],
    [-0.608761429008721, -0.793353340291235],
    [-0.793353340291235, -0.608761429008721],
    [-0.923879532511287, -0.38268343236509],
    [-0.99144486137381, -0.130526192220052],
    [-0.99144486137381, 0.130526192220051],
    [-0.923879532511287, 0.38268343236509],
    [-0.793353340291235, 0.608761429008721],
    [-0.608761429008721, 0.793353340291235],
    [-0.38268343236509, 0.923879532511287],
    [-0.130526192220052, 0.99144486137381],
];
const JAVA_NORMALIZER_2D: f64 = 0.05481866495625118;

#[test]
fn the_24_2d_gradients_are_the_java_references() {
    let ours: Vec<[f64; 2]> = (0..24).map(supersimplex2_gradient::<f64>).collect();
    for (n, g) in ours.iter().enumerate() {
        let found = JAVA_GRAD2
            .iter()
            .any(|j| (0..2).all(|a| (j[a] / JAVA_NORMALIZER_2D - g[a]).abs() < 1e-9));
        assert!(found, "2D gradient {n} {g:?} is not one of Java's");
        for (m, h) in ours.iter().enumerate().take(n) {
            assert!(g != h, "2D gradients {m} and {n} are the same");
        }
    }
    // From a byte, (24 b) >> 8: 16 gradients by 11 bytes, 8 by 10.
    let mut count = [0u32; 24];
    for b in 0..256u32 {
        count[((b * 24) >> 8) as usize] += 1;
    }
    let ten: Vec<usize> = (0..24).filter(|&n| count[n] == 10).collect();
    eprintln!("2D gradients drawn by 10 bytes (the others 11): {ten:?}");
    assert_eq!(ten.len(), 8);
    assert!(count.iter().all(|&c| c == 10 || c == 11));
}

/// The 2D noise and its gradient at `p` in f64: the lattice points `(X + (X + Y) U, Y +
/// (X + Y) U)` for whole `X`, `Y` (U the unskew) in the 6×6 block of skewed cells around
/// `p`'s, summed where the kernel `max(2/3 − |d|², 0)⁴` reaches, each with our gradient
/// lookup (the point's wrapped skewed coordinates hashed as a cell).
fn reference2(lut: &impl NoiseHasher, p: [f64; 2]) -> ([f64; 3], usize) {
    let f = (3f64.sqrt() - 1.0) / 2.0;
    let u = -(3.0 - 3f64.sqrt()) / 6.0;
    let s = (p[0] + p[1]) * f;
    let base = [(p[0] + s).floor(), (p[1] + s).floor()];
    let mut sum = [0.0; 3];
    let mut reached = 0;
    for i in -2..=3 {
        for j in -2..=3 {
            let (x, y) = (base[0] + i as f64, base[1] + j as f64);
            let pos = [x + (x + y) * u, y + (x + y) * u];
            let d = [p[0] - pos[0], p[1] - pos[1]];
            let a = 2.0 / 3.0 - (d[0] * d[0] + d[1] * d[1]);
            if a <= 0.0 {
                continue;
            }
            reached += 1;
            let h = lut.cell_hash(&[wrap256(x), wrap256(y)]);
            let g = supersimplex2_gradient::<f64>((lut.cell_byte(h, SUPERSIMPLEX3_SLOT) * 24) >> 8);
            let e = d[0] * g[0] + d[1] * g[1];
            sum[0] += a.powi(4) * e;
            for c in 0..2 {
                sum[c + 1] += -8.0 * a.powi(3) * e * d[c] + a.powi(4) * g[c];
            }
        }
    }
    (sum.map(|v| v * SUPERSIMPLEX2_NORM), reached)
}

#[test]
fn in_2d_it_is_the_sum_over_every_lattice_point_the_kernel_reaches() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(21);
        let (mut worst, mut most) = (0f64, 0);
        for n in 0..20_000 {
            let reach = [2.0, 300.0, 1e4][n % 3];
            let p = [0; 2].map(|_| rng.range(-reach, reach));
            let (want, reached) = lut.reference2(p);
            let got = lut.noise2_64(p);
            assert_eq!(
                got[0],
                lut.value2_64(p),
                "{name}: the value with the gradient differs"
            );
            most = most.max(reached);
            for c in 0..3 {
                let err = (got[c] - want[c]).abs();
                worst = worst.max(err);
                assert!(
                    err < 1e-9,
                    "{name} 2D at {p:?}: component {c} {} vs {}",
                    got[c],
                    want[c]
                );
            }
        }
        eprintln!(
            "{name} 2D: worst |f64 − transliteration| {worst:e}; at most {most} points reached"
        );
        assert!(most <= 4);
    });
}

#[test]
fn in_2d_it_is_in_range_continuous_and_its_gradient_the_central_differences() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(22);
        let (mut max, mut steepest) = (0f64, 0f64);
        for _ in 0..400_000 {
            let p = [0; 2].map(|_| rng.range(-1000.0, 1000.0));
            let d = lut.noise2_64(p);
            max = max.max(d[0].abs());
            steepest = steepest.max((d[1] * d[1] + d[2] * d[2]).sqrt());
        }
        eprintln!("{name} 2D: max |value| over 4·10⁵ points {max}, steepest |∇| {steepest:.4}");
        assert!(max <= 1.0 && max > 0.6, "{name}: max |value| {max}");
        let (h, bound) = (1e-4, 1.25 * steepest);
        let mut quotient = 0f64;
        for _ in 0..200 {
            let start = [0; 2].map(|_| rng.range(-50.0, 50.0));
            let angle = rng.range(0.0, std::f64::consts::TAU);
            let mut prev = lut.value2_64(start);
            for k in 1..2000 {
                let t = k as f64 * h;
                let v = lut.value2_64([start[0] + angle.cos() * t, start[1] + angle.sin() * t]);
                quotient = quotient.max((v - prev).abs() / h);
                prev = v;
            }
        }
        eprintln!("{name} 2D: steepest difference quotient {quotient:.4}");
        assert!(quotient <= bound, "{name} 2D: a jump: {quotient} > {bound}");
        let mut worst = 0f64;
        for n in 0..5000 {
            let reach = if n % 2 == 0 { 10.0 } else { 1000.0 };
            let p = [0; 2].map(|_| rng.range(-reach, reach));
            let d = lut.noise2_64(p);
            for a in 0..2 {
                let (mut lo, mut hi) = (p, p);
                lo[a] -= 1e-5;
                hi[a] += 1e-5;
                let numeric = (lut.value2_64(hi) - lut.value2_64(lo)) / 2e-5;
                worst = worst.max((numeric - d[a + 1]).abs());
            }
        }
        eprintln!("{name} 2D: worst |analytic − central difference| {worst:e}");
        assert!(worst < 1e-5);
        for reach in [10.0f64, 1000.0, 1e4] {
            let mut err = [0f64; 2];
            for _ in 0..20_000 {
                let p32 = [0; 2].map(|_| rng.range(-reach, reach) as f32);
                let (a, b) = (lut.noise2_32(p32), lut.noise2_64(p32.map(f64::from)));
                err[0] = err[0].max((f64::from(a[0]) - b[0]).abs());
                err[1] = err[1].max(
                    (f64::from(a[1]) - b[1])
                        .abs()
                        .max((f64::from(a[2]) - b[2]).abs()),
                );
            }
            let step = reach * f64::from(f32::EPSILON);
            eprintln!(
                "{name} 2D |p| ≤ {reach}: worst f32 error value {:e}, gradient {:e}",
                err[0], err[1]
            );
            assert!(
                err[0] <= 1e-5 + 20.0 * step && err[1] <= 1e-4 + 400.0 * step,
                "{name} 2D {reach}: {err:?}"
            );
        }
    });
}

/// In 3D the noise repeats every 768 along each axis (the rotation makes that whole
/// multiples of the lookups' 256 along every rotated axis), the period
/// `field::reduce_by_periods` moves offsets by; in f64 the shifted values agree to rounding.
#[test]
fn in_3d_it_repeats_every_768_along_each_axis() {
    each_lookup(|lut, name| {
        let mut rng = Rng::new(16);
        let mut worst = 0f64;
        for _ in 0..5000 {
            let p = [0; 3].map(|_| rng.range(-400.0, 400.0));
            for a in 0..3 {
                for k in [-2.0, 1.0, 3.0] {
                    let mut q = p;
                    q[a] += 768.0 * k;
                    worst = worst.max((lut.value64(q) - lut.value64(p)).abs());
                }
            }
        }
        eprintln!("{name}: worst |n(p + 768 k eₐ) − n(p)| {worst:e}");
        assert!(worst < 1e-9, "{name}: {worst}");
    });
    let moved = wgpu_noise::field::reduce_by_periods(
        wgpu_noise::NoiseKind::SuperSimplex,
        3,
        [1000.0, -2000.0, 5000.25, 0.0],
    );
    assert_eq!(moved, [232.0, 304.0, -375.75, 0.0]);
    // 2D has no period: its offsets stay.
    let kept = [1000.0, -2000.0, 0.0, 0.0];
    let same = wgpu_noise::field::reduce_by_periods(wgpu_noise::NoiseKind::SuperSimplex, 2, kept);
    assert_eq!(same, kept);
}
