//! The table lookups of the noise functions, in two variants with the same interface:
//!
//! - [`PermutationTables`]: CPU mirror of `shaders/lookup.wgsl`, fetching from the same packed
//!   texels the host uploads as textures (Gustavson's permutation and gradients);
//! - [`IntegerHasher`]: CPU mirror of `shaders/lookup_hash.wgsl`, the computational
//!   (texture-free) variant: an integer hash stands in for the permutation and the
//!   gradients are decoded from the hash bits (same gradient sets, another pattern).
//!
//! Method names and arguments match the WGSL functions.

use super::real::Real;
use crate::tables::PermutationTables;

/// The CPU side of the lookup choice ([`crate::LookupVariant`]), one enum whether it owns
/// the tables (`T = Box<PermutationTables>`: `bake::source::CpuHasher`) or borrows them
/// (`T = &PermutationTables`: the SIMD fill's dispatch, `simd::LaneSource`).
#[derive(Clone, Debug)]
pub enum CpuLookup<T> {
    /// The texture variant's permutation and gradient tables.
    Tables(T),
    /// The hash variant: the integer hash.
    Hash(IntegerHasher),
}

/// The lookups every noise function needs (`T(a, b) = P(a + P(b))`, see [`crate::tables`]).
pub trait NoiseHasher: Sync {
    /// `T(a, b)`: two permutation steps.
    fn hash2(&self, a: u32, b: u32) -> u32;
    /// `grad3[T(a, b) % 12]`.
    fn grad3_at<R: Real>(&self, a: u32, b: u32) -> [R; 3];
    /// `grad4[T(a, b) % 32]`.
    fn grad4_at<R: Real>(&self, a: u32, b: u32) -> [R; 4];
    /// `P(a)`: one permutation step.
    fn perm1(&self, a: u32) -> u32;
    /// The 4D simplex traversal order for comparison code `c`.
    fn simplex4_order(&self, c: u32) -> [u32; 4];
}

impl NoiseHasher for PermutationTables {
    #[inline(always)]
    fn hash2(&self, a: u32, b: u32) -> u32 {
        texel_2d(&self.hash_grad3, a, b)[0] as u32
    }

    #[inline(always)]
    fn grad3_at<R: Real>(&self, a: u32, b: u32) -> [R; 3] {
        let t = texel_2d(&self.hash_grad3, a, b);
        [unbias(t[1]), unbias(t[2]), unbias(t[3])]
    }

    #[inline(always)]
    fn grad4_at<R: Real>(&self, a: u32, b: u32) -> [R; 4] {
        texel_2d(&self.grad4, a, b).map(unbias)
    }

    #[inline(always)]
    fn perm1(&self, a: u32) -> u32 {
        self.perm[(a & 255) as usize] as u32
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
/// `P(i) = lowbias32((i & 255) ^ (key << 8)) & 255` (Wellons' integer hash), where `key`
/// is [`IntegerHasher::key`], the low 24 bits of a SplitMix64 draw from the seed; gradients
/// are decoded from the hash bits; the 4D traversal order is computed by rank counting.
/// Equal integer arithmetic on both sides makes CPU and GPU agree bit for bit.
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

    #[inline(always)]
    fn p(&self, i: u32) -> u32 {
        lowbias32((i & 255) ^ (self.key << 8)) & 255
    }
}

/// Chris Wellons' `lowbias32` integer hash.
#[inline(always)]
pub fn lowbias32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// `grad3[h % 12]` from the bits of `h`: the group `h / 4` (of `h % 12`) says which
/// component is 0, bits 0 and 1 give the signs of the other two (matches [`crate::tables::GRAD3`]).
#[inline(always)]
pub fn grad3_from_hash<R: Real>(h: u32) -> [R; 3] {
    let h = h % 12;
    let s1 = if h & 1 != 0 {
        R::lit(-1.0)
    } else {
        R::lit(1.0)
    };
    let s2 = if h & 2 != 0 {
        R::lit(-1.0)
    } else {
        R::lit(1.0)
    };
    let zero = R::lit(0.0);
    match h / 4 {
        0 => [s1, s2, zero],
        1 => [s1, zero, s2],
        _ => [zero, s1, s2],
    }
}

/// `grad4[h % 32]` from the bits of `h`: the group `h / 8` says which component is 0,
/// bits 2, 1, 0 give the signs of the others in order (matches [`crate::tables::GRAD4`]).
#[inline(always)]
pub fn grad4_from_hash<R: Real>(h: u32) -> [R; 4] {
    let h = h % 32;
    let sign = |bit: u32| {
        if h & bit != 0 {
            R::lit(-1.0)
        } else {
            R::lit(1.0)
        }
    };
    let (a, b, c) = (sign(4), sign(2), sign(1));
    let zero = R::lit(0.0);
    match h / 8 {
        0 => [zero, a, b, c],
        1 => [a, zero, b, c],
        2 => [a, b, zero, c],
        _ => [a, b, c, zero],
    }
}

impl NoiseHasher for IntegerHasher {
    #[inline(always)]
    fn hash2(&self, a: u32, b: u32) -> u32 {
        self.p(a.wrapping_add(self.p(b)))
    }

    #[inline(always)]
    fn grad3_at<R: Real>(&self, a: u32, b: u32) -> [R; 3] {
        grad3_from_hash(self.hash2(a, b))
    }

    #[inline(always)]
    fn grad4_at<R: Real>(&self, a: u32, b: u32) -> [R; 4] {
        grad4_from_hash(self.hash2(a, b))
    }

    #[inline(always)]
    fn perm1(&self, a: u32) -> u32 {
        self.p(a)
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
        for h in 0..12 {
            assert_eq!(grad3_from_hash::<f64>(h), GRAD3[h as usize].map(f64::from));
        }
        for h in 0..32 {
            assert_eq!(grad4_from_hash::<f64>(h), GRAD4[h as usize].map(f64::from));
        }
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
