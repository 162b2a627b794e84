//! The hash variant's quality, measured the way Jarzynski & Olano ("Hash Functions for GPU
//! Rendering", JCGT 9(3), 2020) and the noise literature look at it: the gradient indices its
//! point hash picks over whole lattice periods are uniform (chi-square against 12 or 32 equal
//! bins) and independent between neighbours (chi-square of the index pairs along each axis),
//! its bits avalanche (one flipped input bit flips each output bit about half the time), and
//! the noise it drives has the texture variant's range and histogram. Each check is a
//! function of the hash, and `the_checks_reject_weak_hashes` shows each one failing on a
//! deliberately weak hash.

use wgpu_noise::cpu::fill::generate_f32;
use wgpu_noise::cpu::lookup::{grad3_index, grad4_index, IntegerHasher, NoiseHasher, HASH_PRIMES};
use wgpu_noise::cpu::Real;
use wgpu_noise::field::FlagField;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// The lattice period of the lookups (coordinates are hashed mod 256).
const PERIOD: u32 = 256;

/// The chi-square value a uniform sample exceeds with probability 10⁻⁴ for `df` degrees of
/// freedom (Wilson–Hilferty: chi²/df is nearly normal after a cube root; z = 3.719 is the
/// normal's 10⁻⁴ upper quantile; within 1 % of the exact quantile for df ≥ 10).
fn chi_square_limit(df: usize) -> f64 {
    let df = df as f64;
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + 3.719 * a.sqrt()).powi(3)
}

/// Pearson's chi-square of `counts` against equal expected counts.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// A gradient index of a lattice point (coordinates beyond the dimension 0), and how many
/// indices there are.
struct IndexHash<'a> {
    name: &'a str,
    dims: usize,
    bins: usize,
    index: &'a dyn Fn([u32; 4]) -> u32,
}

/// Every lattice point of the region: whole periods along the first two axes, `depth`
/// along the others.
fn region(dims: usize, depth: u32) -> impl Iterator<Item = [u32; 4]> {
    let extent = |axis: usize| match axis {
        a if a >= dims => 1,
        0 | 1 => PERIOD,
        _ => depth,
    };
    let (ez, ew) = (extent(2), extent(3));
    (0..ew).flat_map(move |w| {
        (0..ez).flat_map(move |z| {
            (0..PERIOD).flat_map(move |y| (0..PERIOD).map(move |x| [x, y, z, w]))
        })
    })
}

/// The chi-square of the index histogram over the region, and its limit.
fn histogram_chi_square(hash: &IndexHash, depth: u32) -> (f64, f64) {
    let mut counts = vec![0u64; hash.bins];
    for p in region(hash.dims, depth) {
        counts[(hash.index)(p) as usize] += 1;
    }
    (chi_square(&counts), chi_square_limit(hash.bins - 1))
}

/// The largest chi-square, over the axes, of the pairs (index at p, index at p + one step
/// along the axis) against `bins²` equal bins, and its limit.
fn neighbour_chi_square(hash: &IndexHash, depth: u32) -> (f64, f64) {
    let mut worst: f64 = 0.0;
    for axis in 0..hash.dims {
        let mut counts = vec![0u64; hash.bins * hash.bins];
        for p in region(hash.dims, depth) {
            let mut q = p;
            q[axis] += 1;
            let (a, b) = ((hash.index)(p) as usize, (hash.index)(q) as usize);
            counts[a * hash.bins + b] += 1;
        }
        worst = worst.max(chi_square(&counts));
    }
    (worst, chi_square_limit(hash.bins * hash.bins - 1))
}

/// The largest deviation from 1/2, over input bits (the 8 bits of each coordinate that are
/// hashed), of how often flipping the input bit flips each output bit, over `samples`
/// points: one value per output bit.
fn avalanche_bias(dims: usize, samples: u32, hash: &dyn Fn([u32; 4]) -> u32) -> [f64; 32] {
    let mut flips = vec![[0u32; 32]; dims * 8];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 32) as u32 & (PERIOD - 1)
    };
    for _ in 0..samples {
        let mut p = [0u32; 4];
        for c in p.iter_mut().take(dims) {
            *c = next();
        }
        let h = hash(p);
        for (input, row) in flips.iter_mut().enumerate() {
            let mut q = p;
            q[input / 8] ^= 1 << (input % 8);
            let d = h ^ hash(q);
            for (bit, count) in row.iter_mut().enumerate() {
                *count += (d >> bit) & 1;
            }
        }
    }
    std::array::from_fn(|bit| {
        flips
            .iter()
            .map(|row| (row[bit] as f64 / samples as f64 - 0.5).abs())
            .fold(0.0, f64::max)
    })
}

/// The bound on [`avalanche_bias`] of every output bit over 20 000 points: about 6 times
/// the sampling noise of one frequency (σ = 0.0035); the largest measured is 0.016.
const AVALANCHE_BOUND: f64 = 0.02;

/// The largest of [`avalanche_bias`] over the output bits.
fn worst_avalanche_bias(bias: &[f64; 32]) -> f64 {
    bias.iter().cloned().fold(0.0, f64::max)
}

/// Asserts the index checks on `hash` and prints their values.
fn check_indices(hash: &IndexHash, depth: u32) {
    let (h, h_limit) = histogram_chi_square(hash, depth);
    let (n, n_limit) = neighbour_chi_square(hash, depth);
    eprintln!(
        "{} {}D: index histogram chi² {h:.1} (limit {h_limit:.1}, df {}), neighbour pairs chi² {n:.1} (limit {n_limit:.1}, df {})",
        hash.name,
        hash.dims,
        hash.bins - 1,
        hash.bins * hash.bins - 1
    );
    assert!(
        h < h_limit,
        "{} {}D: the gradient indices are not uniform: chi² {h} ≥ {h_limit}",
        hash.name,
        hash.dims
    );
    assert!(
        n < n_limit,
        "{} {}D: neighbours' indices are not independent: chi² {n} ≥ {n_limit}",
        hash.name,
        hash.dims
    );
}

#[test]
fn the_gradient_indices_are_uniform_and_independent_between_neighbours() {
    for seed in [0u64, 1, 12345] {
        let hash = IntegerHasher::new(seed);
        let name = format!("point hash, seed {seed}");
        // 2D and 3D points pick among the 12 grad3 gradients, 4D among the 32 of grad4;
        // whole periods in x and y (65 536 points per layer), 16 layers in z and w.
        check_indices(
            &IndexHash {
                name: &name,
                dims: 2,
                bins: 12,
                index: &|p| grad3_index(hash.point_hash2(p[0], p[1])),
            },
            1,
        );
        check_indices(
            &IndexHash {
                name: &name,
                dims: 3,
                bins: 12,
                index: &|p| grad3_index(hash.point_hash3(p[0], p[1], p[2])),
            },
            16,
        );
        check_indices(
            &IndexHash {
                name: &name,
                dims: 4,
                bins: 32,
                index: &|p| grad4_index(hash.point_hash4(p[0], p[1], p[2], p[3])),
            },
            4,
        );
    }
}

/// A hash of a lattice point (coordinates beyond its dimension 0).
type PointHash<'a> = &'a dyn Fn([u32; 4]) -> u32;

#[test]
fn the_point_hash_bits_avalanche() {
    let hash = IntegerHasher::new(7);
    let cases: [(usize, PointHash); 3] = [
        (2, &|p| hash.point_hash2(p[0], p[1])),
        (3, &|p| hash.point_hash3(p[0], p[1], p[2])),
        (4, &|p| hash.point_hash4(p[0], p[1], p[2], p[3])),
    ];
    for (dims, f) in cases {
        let bias = avalanche_bias(dims, 20_000, f);
        let worst = worst_avalanche_bias(&bias);
        eprintln!(
            "point hash {dims}D: largest avalanche bias {worst:.4} (bound {AVALANCHE_BOUND})"
        );
        assert!(worst < AVALANCHE_BOUND, "{dims}D: avalanche bias {bias:?}");
    }
}

/// Mean, standard deviation and the 1 %, 50 % and 99 % quantiles of `values`.
fn statistics(values: &[f32]) -> [f64; 5] {
    let n = values.len() as f64;
    let mean = values.iter().map(|&v| v as f64).sum::<f64>() / n;
    let var = values
        .iter()
        .map(|&v| (v as f64 - mean).powi(2))
        .sum::<f64>()
        / n;
    let mut sorted = values.to_vec();
    sorted.sort_by(f32::total_cmp);
    let q = |p: f64| sorted[((n - 1.0) * p) as usize] as f64;
    [mean, var.sqrt(), q(0.01), q(0.5), q(0.99)]
}

/// `hash`'s noise statistics beside the texture variant's, on fields of many lattice cells
/// (2D 128², 3D 24³, 4D 8⁴ cells): `Err` says which statistic is off.
fn compare_with_textures(
    kind: NoiseKind,
    dims: usize,
    hash: &impl NoiseHasher,
) -> Result<(), String> {
    let (size, frequency): (&[u32], f64) = match dims {
        2 => (&[1024, 1024], 128.0),
        3 => (&[96, 96, 96], 24.0),
        _ => (&[24, 24, 24, 24], 8.0),
    };
    let field = FlagField::new(kind, size).with_frequency(&vec![frequency; dims]);
    let h = statistics(&generate_f32(hash, &field).map_err(|e| e.to_string())?);
    let t =
        statistics(&generate_f32(&PermutationTables::new(0), &field).map_err(|e| e.to_string())?);
    eprintln!(
        "{kind} {dims}D mean / std / q01 / q50 / q99: hash {:.4} / {:.4} / {:.4} / {:.4} / {:.4}, textures {:.4} / {:.4} / {:.4} / {:.4} / {:.4}",
        h[0], h[1], h[2], h[3], h[4], t[0], t[1], t[2], t[3], t[4]
    );
    // Both variants pick gradients uniformly from the same sets, so their value
    // distributions agree up to the sampling noise of a finite field: bounds measured at
    // 3-6× the largest difference seen between the two variants and between seeds.
    let std_ratio = h[1] / t[1];
    let checks = [
        ("mean", h[0].abs(), 0.03),
        ("std ratio − 1", (std_ratio - 1.0).abs(), 0.08),
        ("q01", (h[2] - t[2]).abs(), 0.1),
        ("median", h[3].abs(), 0.05),
        ("q99", (h[4] - t[4]).abs(), 0.1),
    ];
    for (what, value, bound) in checks {
        if value > bound {
            return Err(format!("{kind} {dims}D: {what} {value:.4} > {bound}"));
        }
    }
    Ok(())
}

#[test]
fn the_noise_has_the_texture_variants_range_and_histogram() {
    for seed in [0u64, 9] {
        let hash = IntegerHasher::new(seed);
        for kind in [NoiseKind::Classic, NoiseKind::Simplex] {
            for dims in 2..=4 {
                compare_with_textures(kind, dims, &hash).unwrap();
            }
        }
    }
}

/// Weak hashes of a lattice point, each with the flaw one check is there to find.
#[test]
fn the_checks_reject_weak_hashes() {
    // A linear hash (the coordinates' weighted sum, then a multiply): uniform indices, but
    // a step along an axis moves the index by a fixed amount.
    let linear = |p: [u32; 4]| (p[0] + 3 * p[1] + 5 * p[2] + 7 * p[3]).wrapping_mul(0x9e37_79b9);
    let linear_index = |p: [u32; 4]| grad3_index(linear(p));
    let h = IndexHash {
        name: "linear",
        dims: 3,
        bins: 12,
        index: &linear_index,
    };
    let (n, limit) = neighbour_chi_square(&h, 16);
    assert!(
        n > limit,
        "the neighbour check passes a linear hash: {n} < {limit}"
    );
    // The hash variant before contract version 3: `P(i) = lowbias32((i & 255) ^ key << 8) & 255`
    // nested per axis, `P(x + P(y + P(z))) % 12`, here with key 0. `& 255` of lowbias32 is
    // no permutation, so the chain's 8-bit outputs are lumpy: some gradients come up 1.9× as
    // often as others (chi² 31 616 over this region).
    let lowbias32 = |mut x: u32| {
        x ^= x >> 16;
        x = x.wrapping_mul(0x7feb_352d);
        x ^= x >> 15;
        x = x.wrapping_mul(0x846c_a68b);
        x ^ (x >> 16)
    };
    let p = |i: u32| lowbias32(i & 255) & 255;
    let chain = |q: [u32; 4]| p(q[0] + p(q[1] + p(q[2]))) % 12;
    let h = IndexHash {
        name: "lowbias32 chain",
        dims: 3,
        bins: 12,
        index: &chain,
    };
    let (c, limit) = histogram_chi_square(&h, 16);
    assert!(
        c > limit,
        "the histogram check passes the lowbias32 chain: {c} < {limit}"
    );
    // FastNoise2's hash alone (the same weighted combination, one multiply, no mix): its
    // low bits depend on the inputs' low bits only, and its top 5 bits (the 4D gradient
    // index) repeat between neighbours (chi² about 5 000 against a limit of 1 200).
    let one_multiply = |p: [u32; 4]| {
        let weighted = |axis: usize| (p[axis] & 255).wrapping_mul(HASH_PRIMES[axis]);
        (weighted(0) ^ weighted(1) ^ weighted(2) ^ weighted(3)).wrapping_mul(0x27d4_eb2d)
    };
    let bias = avalanche_bias(3, 20_000, &one_multiply);
    let worst = worst_avalanche_bias(&bias);
    assert!(
        worst > AVALANCHE_BOUND,
        "the avalanche check passes a single multiply: {bias:?}"
    );
    let one_multiply_index = |p: [u32; 4]| grad4_index(one_multiply(p));
    let h = IndexHash {
        name: "one multiply",
        dims: 4,
        bins: 32,
        index: &one_multiply_index,
    };
    let (n, limit) = neighbour_chi_square(&h, 4);
    assert!(
        n > limit,
        "the neighbour check passes a single multiply in 4D: {n} < {limit}"
    );
    // A hasher that gives every lattice point the same gradient: its classic noise is not
    // the texture variant's distribution (std 0.15 against 0.26 to 0.29). Its simplex noise
    // is close to it in these statistics (2D std 0.45 against 0.44): a single gradient is
    // caught by the index checks above, not by this one.
    for dims in 2..=4 {
        assert!(
            compare_with_textures(NoiseKind::Classic, dims, &OneGradient).is_err(),
            "the statistics check passes classic {dims}D noise of a single gradient"
        );
    }
}

/// The lookups of a broken hash: one gradient for every lattice point (the texture
/// variant's traversal order, so the simplex itself is right).
struct OneGradient;

// `NoiseHasher` is sealed; the `test-hooks` feature lets this broken one past the seal.
impl wgpu_noise::cpu::lookup::Sealed for OneGradient {}

impl NoiseHasher for OneGradient {
    fn lattice_grad2<R: Real>(&self, _: u32, _: u32) -> [R; 2] {
        [R::lit(1.0), R::lit(1.0)]
    }
    fn lattice_grad3<R: Real>(&self, _: u32, _: u32, _: u32) -> [R; 3] {
        [R::lit(1.0), R::lit(1.0), R::lit(0.0)]
    }
    fn lattice_grad4<R: Real>(&self, _: u32, _: u32, _: u32, _: u32) -> [R; 4] {
        [R::lit(0.0), R::lit(1.0), R::lit(1.0), R::lit(1.0)]
    }
    fn cell_hash(&self, _: &[u32]) -> u32 {
        0
    }
    fn cell_byte(&self, _: u32, _: u32) -> u32 {
        0
    }
    fn simplex4_order(&self, c: u32) -> [u32; 4] {
        PermutationTables::new(0).simplex4_order(c)
    }
    fn lattice_key(&self, _: &[u32]) -> u32 {
        0
    }
    fn key_grad2<R: Real>(&self, _: u32) -> [R; 2] {
        self.lattice_grad2(0, 0)
    }
    fn key_grad3<R: Real>(&self, _: u32) -> [R; 3] {
        self.lattice_grad3(0, 0, 0)
    }
    fn key_grad4<R: Real>(&self, _: u32) -> [R; 4] {
        self.lattice_grad4(0, 0, 0, 0)
    }
    fn key_hash(&self, _: u32) -> u32 {
        0
    }
}
