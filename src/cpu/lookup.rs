//! The table lookups of the noise functions, in two variants with the same interface:
//!
//! - [`PermutationTables`]: CPU mirror of `shaders/lookup.wgsl`, fetching from the same packed
//!   texels the host uploads as textures (Gustavson's permutation and gradients);
//! - [`IntegerHasher`]: CPU mirror of `shaders/lookup_hash.wgsl`, the computational
//!   (texture-free) variant: one integer hash per lattice point (`pcg3d`/`pcg4d`) stands in
//!   for the permutation chain and the gradients are decoded from its bits (same gradient
//!   sets, another pattern).
//!
//! Method names and arguments match the WGSL functions.

use super::real::Real;
use crate::tables::PermutationTables;

/// The lookups every noise function needs: the gradient of a lattice point, the hash of a
/// cellular cell and its bytes, the 4D simplex traversal order. Lattice coordinates are
/// taken mod 256 (the lookups' own period).
pub trait NoiseHasher: Sync {
    /// The gradient of the 2D lattice point `(a, b)`: a [`crate::tables::GRAD3`] gradient's x, y.
    fn lattice_grad2<R: Real>(&self, a: u32, b: u32) -> [R; 2];
    /// The gradient of the 3D lattice point `(a, b, c)`, one of [`crate::tables::GRAD3`].
    fn lattice_grad3<R: Real>(&self, a: u32, b: u32, c: u32) -> [R; 3];
    /// The gradient of the 4D lattice point `(a, b, c, d)`, one of [`crate::tables::GRAD4`].
    fn lattice_grad4<R: Real>(&self, a: u32, b: u32, c: u32, d: u32) -> [R; 4];
    /// The hash of a cellular cell from its wrapped coordinates (2, 3 or 4 of them).
    fn cell_hash(&self, cell: &[u32]) -> u32;
    /// Byte `slot` (0 to 255) of a cell with hash `h`: slots 0 to 3 the feature's jitter
    /// along x, y, z, w, slot 4 the cell value.
    fn cell_byte(&self, h: u32, slot: u32) -> u32;
    /// The 4D simplex traversal order for comparison code `c`.
    fn simplex4_order(&self, c: u32) -> [u32; 4];
}

/// Gustavson's table lookups (mirror of `shaders/lookup.wgsl`): `P(i) = perm[i & 255]`,
/// `T(a, b) = P(a + P(b))`, and Perlin's nested chain per lattice point.
impl PermutationTables {
    /// `T(a, b)`: two permutation steps.
    #[inline(always)]
    pub fn hash2(&self, a: u32, b: u32) -> u32 {
        texel_2d(&self.hash_grad3, a, b)[0] as u32
    }

    /// `grad3[T(a, b) % 12]`.
    #[inline(always)]
    pub fn grad3_at<R: Real>(&self, a: u32, b: u32) -> [R; 3] {
        let t = texel_2d(&self.hash_grad3, a, b);
        [unbias(t[1]), unbias(t[2]), unbias(t[3])]
    }

    /// `grad4[T(a, b) % 32]`.
    #[inline(always)]
    pub fn grad4_at<R: Real>(&self, a: u32, b: u32) -> [R; 4] {
        texel_2d(&self.grad4, a, b).map(unbias)
    }

    /// `P(a)`: one permutation step.
    #[inline(always)]
    pub fn perm1(&self, a: u32) -> u32 {
        self.perm[(a & 255) as usize] as u32
    }
}

impl NoiseHasher for PermutationTables {
    /// `grad3[T(a, b) % 12]`'s x, y.
    #[inline(always)]
    fn lattice_grad2<R: Real>(&self, a: u32, b: u32) -> [R; 2] {
        let g = self.grad3_at(a, b);
        [g[0], g[1]]
    }

    /// `grad3` at `T(a, b + P(c))` (`perm[a + perm[b + perm[c]]]`).
    #[inline(always)]
    fn lattice_grad3<R: Real>(&self, a: u32, b: u32, c: u32) -> [R; 3] {
        self.grad3_at(a, b + self.perm1(c))
    }

    /// `grad4` at `T(a, b + T(c, d))`.
    #[inline(always)]
    fn lattice_grad4<R: Real>(&self, a: u32, b: u32, c: u32, d: u32) -> [R; 4] {
        self.grad4_at(a, b + self.hash2(c, d))
    }

    /// `T(x, y)`, `T(x, y + P(z))`, `T(x, y + T(z, w))`.
    #[inline(always)]
    fn cell_hash(&self, cell: &[u32]) -> u32 {
        match *cell {
            [x, y] => self.hash2(x, y),
            [x, y, z] => self.hash2(x, y + self.perm1(z)),
            [x, y, z, w] => self.hash2(x, y + self.hash2(z, w)),
            _ => panic!("cell_hash takes 2, 3 or 4 coordinates, not {}", cell.len()),
        }
    }

    /// `P(h + 51 slot)`.
    #[inline(always)]
    fn cell_byte(&self, h: u32, slot: u32) -> u32 {
        self.perm1(h + 51 * slot)
    }

    #[inline(always)]
    fn simplex4_order(&self, c: u32) -> [u32; 4] {
        self.simplex4[(c & 63) as usize].map(u32::from)
    }
}

#[inline(always)]
fn texel_2d(texels: &[[u8; 4]], a: u32, b: u32) -> [u8; 4] {
    texels[((b & 255) * 256 + (a & 255)) as usize]
}

#[inline(always)]
fn unbias<R: Real>(c: u8) -> R {
    R::from_u32(c as u32) - R::lit(1.0)
}

/// The computational lookup variant (mirror of `shaders/lookup_hash.wgsl`).
///
/// Each lattice point is hashed once, whole, with `pcg3d` (2D and 3D points; z = 0 in 2D) or
/// `pcg4d` (4D points) of Jarzynski & Olano, "Hash Functions for GPU Rendering" (JCGT 9(3),
/// 2020), on the coordinates mod 256 with [`IntegerHasher::key`] (the low 24 bits of a
/// SplitMix64 draw from the seed) in bits 8 to 31 of the x input. The x output is the
/// point's hash: its top bits pick the gradient, its bytes place a cell's feature. The 4D
/// traversal order is computed by rank counting. Equal integer arithmetic on both sides makes
/// CPU and GPU agree bit for bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntegerHasher {
    /// The hash key of the seed (the shader's `WGPU_NOISE_HASH_KEY`).
    pub key: u32,
}

impl IntegerHasher {
    /// The hash variant for `seed`.
    pub fn new(seed: u64) -> Self {
        IntegerHasher {
            key: crate::tables::hash_key_for_seed(seed),
        }
    }

    /// The seeded x input: the coordinate mod 256, the key above it.
    #[inline(always)]
    pub fn keyed(&self, a: u32) -> u32 {
        (a & 255) | (self.key << 8)
    }

    /// The hash of the 2D lattice point `(a, b)`.
    #[inline(always)]
    pub fn point_hash2(&self, a: u32, b: u32) -> u32 {
        pcg3d_x([self.keyed(a), b & 255, 0])
    }

    /// The hash of the 3D lattice point `(a, b, c)`.
    #[inline(always)]
    pub fn point_hash3(&self, a: u32, b: u32, c: u32) -> u32 {
        pcg3d_x([self.keyed(a), b & 255, c & 255])
    }

    /// The hash of the 4D lattice point `(a, b, c, d)`.
    #[inline(always)]
    pub fn point_hash4(&self, a: u32, b: u32, c: u32, d: u32) -> u32 {
        pcg4d_x([self.keyed(a), b & 255, c & 255, d & 255])
    }
}

/// The x output of Jarzynski & Olano's `pcg3d` (the rest of its last round is not needed).
#[inline(always)]
pub fn pcg3d_x(v: [u32; 3]) -> u32 {
    let [mut x, mut y, mut z] = v.map(|c| c.wrapping_mul(1_664_525).wrapping_add(1_013_904_223));
    x = x.wrapping_add(y.wrapping_mul(z));
    y = y.wrapping_add(z.wrapping_mul(x));
    z = z.wrapping_add(x.wrapping_mul(y));
    let (x, y, z) = (x ^ (x >> 16), y ^ (y >> 16), z ^ (z >> 16));
    x.wrapping_add(y.wrapping_mul(z))
}

/// The x output of Jarzynski & Olano's `pcg4d`.
#[inline(always)]
pub fn pcg4d_x(v: [u32; 4]) -> u32 {
    let [mut x, mut y, mut z, mut w] =
        v.map(|c| c.wrapping_mul(1_664_525).wrapping_add(1_013_904_223));
    x = x.wrapping_add(y.wrapping_mul(w));
    y = y.wrapping_add(z.wrapping_mul(x));
    z = z.wrapping_add(x.wrapping_mul(y));
    w = w.wrapping_add(y.wrapping_mul(z));
    let (x, y, w) = (x ^ (x >> 16), y ^ (y >> 16), w ^ (w >> 16));
    x.wrapping_add(y.wrapping_mul(w))
}

/// The [`crate::tables::GRAD3`] index (0 to 11) a point hash picks: its top 16 bits scaled
/// to 12 (a bias below 2⁻¹⁶ where `% 12` of a byte has one of 5 %).
#[inline(always)]
pub fn grad3_index(h: u32) -> u32 {
    ((h >> 16) * 12) >> 16
}

/// The [`crate::tables::GRAD4`] index (0 to 31) a point hash picks: its top 5 bits.
#[inline(always)]
pub fn grad4_index(h: u32) -> u32 {
    h >> 27
}

/// Byte `slot` of a point hash for a cell (the hash variant's [`NoiseHasher::cell_byte`]):
/// slots 0 to 3 are the bytes of `h` from the top (its lowest bit, the AND of two bits in
/// pcg's last product, is its weakest: `tests/reference/hash_quality.rs`), slot 4 the top
/// byte of `h · 0x9E3779B9` (a bijection of all 32 bits: 4D cells use every byte of `h` for
/// the jitter).
#[inline(always)]
pub fn point_hash_byte(h: u32, slot: u32) -> u32 {
    if slot == 4 {
        h.wrapping_mul(0x9e37_79b9) >> 24
    } else {
        (h >> (24 - 8 * slot)) & 255
    }
}

/// `grad3[n]` for an index `n` below 12: the group `n / 4` says which component is 0, bits
/// 0 and 1 give the signs of the other two (matches [`crate::tables::GRAD3`]).
#[inline(always)]
pub fn grad3_of_index<R: Real>(n: u32) -> [R; 3] {
    let s1 = if n & 1 != 0 {
        R::lit(-1.0)
    } else {
        R::lit(1.0)
    };
    let s2 = if n & 2 != 0 {
        R::lit(-1.0)
    } else {
        R::lit(1.0)
    };
    let zero = R::lit(0.0);
    match n / 4 {
        0 => [s1, s2, zero],
        1 => [s1, zero, s2],
        _ => [zero, s1, s2],
    }
}

/// `grad4[n]` for an index `n` below 32: the group `n / 8` says which component is 0, bits
/// 2, 1, 0 give the signs of the others in order (matches [`crate::tables::GRAD4`]).
#[inline(always)]
pub fn grad4_of_index<R: Real>(n: u32) -> [R; 4] {
    let sign = |bit: u32| {
        if n & bit != 0 {
            R::lit(-1.0)
        } else {
            R::lit(1.0)
        }
    };
    let (a, b, c) = (sign(4), sign(2), sign(1));
    let zero = R::lit(0.0);
    match n / 8 {
        0 => [zero, a, b, c],
        1 => [a, zero, b, c],
        2 => [a, b, zero, c],
        _ => [a, b, c, zero],
    }
}

impl NoiseHasher for IntegerHasher {
    #[inline(always)]
    fn lattice_grad2<R: Real>(&self, a: u32, b: u32) -> [R; 2] {
        let g = grad3_of_index::<R>(grad3_index(self.point_hash2(a, b)));
        [g[0], g[1]]
    }

    #[inline(always)]
    fn lattice_grad3<R: Real>(&self, a: u32, b: u32, c: u32) -> [R; 3] {
        grad3_of_index(grad3_index(self.point_hash3(a, b, c)))
    }

    #[inline(always)]
    fn lattice_grad4<R: Real>(&self, a: u32, b: u32, c: u32, d: u32) -> [R; 4] {
        grad4_of_index(grad4_index(self.point_hash4(a, b, c, d)))
    }

    #[inline(always)]
    fn cell_hash(&self, cell: &[u32]) -> u32 {
        match *cell {
            [x, y] => self.point_hash2(x, y),
            [x, y, z] => self.point_hash3(x, y, z),
            [x, y, z, w] => self.point_hash4(x, y, z, w),
            _ => panic!("cell_hash takes 2, 3 or 4 coordinates, not {}", cell.len()),
        }
    }

    #[inline(always)]
    fn cell_byte(&self, h: u32, slot: u32) -> u32 {
        point_hash_byte(h, slot)
    }

    /// Rank counting: each axis's rank is the number of comparisons it wins.
    #[inline(always)]
    fn simplex4_order(&self, c: u32) -> [u32; 4] {
        let bit = |v: u32| (c & v != 0) as u32;
        let (xy, xz, yz, xw, yw, zw) = (bit(32), bit(16), bit(8), bit(4), bit(2), bit(1));
        [
            xy + xz + xw,
            (1 - xy) + yz + yw,
            (1 - xz) + (1 - yz) + zw,
            (1 - xw) + (1 - yw) + (1 - zw),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{GRAD3, GRAD4, SIMPLEX4_ORDER};

    #[test]
    fn decoded_gradients_are_the_tables() {
        for n in 0..12 {
            assert_eq!(grad3_of_index::<f64>(n), GRAD3[n as usize].map(f64::from));
        }
        for n in 0..32 {
            assert_eq!(grad4_of_index::<f64>(n), GRAD4[n as usize].map(f64::from));
        }
    }

    /// `pcg3d` and `pcg4d` as the paper lists them, every output computed.
    fn pcg3d(v: [u32; 3]) -> [u32; 3] {
        let mut v = v.map(|c| c.wrapping_mul(1_664_525).wrapping_add(1_013_904_223));
        v[0] = v[0].wrapping_add(v[1].wrapping_mul(v[2]));
        v[1] = v[1].wrapping_add(v[2].wrapping_mul(v[0]));
        v[2] = v[2].wrapping_add(v[0].wrapping_mul(v[1]));
        v = v.map(|c| c ^ (c >> 16));
        v[0] = v[0].wrapping_add(v[1].wrapping_mul(v[2]));
        v[1] = v[1].wrapping_add(v[2].wrapping_mul(v[0]));
        v[2] = v[2].wrapping_add(v[0].wrapping_mul(v[1]));
        v
    }

    fn pcg4d(v: [u32; 4]) -> [u32; 4] {
        let mut v = v.map(|c| c.wrapping_mul(1_664_525).wrapping_add(1_013_904_223));
        for round in 0..2 {
            v[0] = v[0].wrapping_add(v[1].wrapping_mul(v[3]));
            v[1] = v[1].wrapping_add(v[2].wrapping_mul(v[0]));
            v[2] = v[2].wrapping_add(v[0].wrapping_mul(v[1]));
            v[3] = v[3].wrapping_add(v[1].wrapping_mul(v[2]));
            if round == 0 {
                v = v.map(|c| c ^ (c >> 16));
            }
        }
        v
    }

    #[test]
    fn the_point_hash_is_the_x_output_of_the_papers_pcg3d_and_pcg4d() {
        let mut state = 1u32;
        for _ in 0..10_000 {
            let mut draw = || {
                state = pcg3d_x([state, 7, 9]);
                state
            };
            let v = [draw(), draw(), draw(), draw()];
            assert_eq!(pcg3d_x([v[0], v[1], v[2]]), pcg3d([v[0], v[1], v[2]])[0]);
            assert_eq!(pcg4d_x(v), pcg4d(v)[0]);
        }
        // Values from an independent transcription of the paper's listing (Python).
        assert_eq!(pcg3d_x([0, 0, 0]), 0x9baf_d7c6);
        assert_eq!(pcg3d_x([1, 2, 3]), 0xfa9f_79a6);
        assert_eq!(pcg4d_x([0, 0, 0, 0]), 0x0f02_f829);
        assert_eq!(pcg4d_x([1, 2, 3, 4]), 0x3622_cd16);
    }

    #[test]
    fn rank_counting_reproduces_every_possible_traversal_order() {
        let hash = IntegerHasher::new(0);
        for (c, row) in SIMPLEX4_ORDER.iter().enumerate() {
            if *row != [0, 0, 0, 0] {
                assert_eq!(hash.simplex4_order(c as u32), row.map(u32::from), "c = {c}");
            }
        }
    }
}
