//! The table lookups of [`crate::cpu::lookup`] for whole lanes: gathers from the same packed
//! tables for the texture variant, the same integer hash for the hash variant.
//!
//! Classic noise hashes `T(x, b)` with `b` fixed along a row (it depends on y, z, w only);
//! [`LaneHasher::row`] does that part once per row, the lanes do the rest.

use super::lanes::{F, U};
use crate::cpu::lookup::{IntegerHasher, NoiseHasher};
use crate::tables::PermutationTables;

/// [`NoiseHasher`] for `LANES` arguments at once, lane `i` equal to the scalar lookup of lane `i`.
pub trait LaneHasher: NoiseHasher {
    /// What [`LaneHasher::row`] keeps of a row's `b` in `T(a, b)`.
    type Row: Copy + Default + std::fmt::Debug;
    /// The `b` part of `T(a, b)`, once per row.
    fn row(&self, b: u32) -> Self::Row;
    /// `grad3_at(a, b)` for a row's `b`.
    fn grad3_row(&self, row: Self::Row, a: U) -> [F; 3];
    /// `grad4_at(a, b)` for a row's `b`.
    fn grad4_row(&self, row: Self::Row, a: U) -> [F; 4];
    /// `grad3_at(a, b)`.
    fn grad3(&self, a: U, b: U) -> [F; 3];
    /// `grad4_at(a, b)`.
    fn grad4(&self, a: U, b: U) -> [F; 4];
    /// `perm1(a)`.
    fn perm1_lanes(&self, a: U) -> U;
    /// `hash2(a, b)`.
    fn hash2_lanes(&self, a: U, b: U) -> U;
    /// `simplex4_order(c)`.
    fn simplex4_order_lanes(&self, c: U) -> [U; 4];
    /// What `T(a, b + o)` for `o` = 0 and 1 share ([`LaneHasher::hash2_step`]).
    type Pair: Copy;
    /// The shared part of `T(a, b)` and `T(a, b + 1)`.
    fn pair(&self, b: U) -> Self::Pair;
    /// `hash2(a, b + o)` (`o` 0 or 1 per lane) from `pair(b)`.
    fn hash2_step(&self, a: U, b: U, o: U, pair: &Self::Pair) -> U;
}

/// [`PermutationTables`] repacked for gathers: each RGBA8 texel as one little-endian `u32` (the
/// bytes in the same order), in fixed-size arrays so a masked index needs no bounds check.
pub struct PackedTables<'a> {
    tables: &'a PermutationTables,
    hash_grad3: Box<[u32; 65536]>,
    grad4: Box<[u32; 65536]>,
    perm: [u32; 256],
    simplex4: [u32; 64],
}

impl<'a> PackedTables<'a> {
    /// Packs `tables` (512 KiB; a few tens of microseconds).
    pub fn new(tables: &'a PermutationTables) -> Self {
        let pack = |texels: &[[u8; 4]]| -> Box<[u32; 65536]> {
            let words: Vec<u32> = texels.iter().map(|t| u32::from_le_bytes(*t)).collect();
            words
                .into_boxed_slice()
                .try_into()
                .expect("the tables are 256×256 texels")
        };
        PackedTables {
            tables,
            hash_grad3: pack(&tables.hash_grad3),
            grad4: pack(&tables.grad4),
            perm: tables.perm.map(u32::from),
            simplex4: tables.simplex4.map(u32::from_le_bytes),
        }
    }

    #[inline(always)]
    fn gather(table: &[u32; 65536], index: U) -> U {
        index.map(|i| table[(i & 0xffff) as usize])
    }
}

/// The texel index of `T(a, b)` (`texel_2d` in the scalar lookup).
#[inline(always)]
fn texel_index(a: U, b: U) -> U {
    ((b & 255) << 8) + (a & 255)
}

/// Byte `k` of each packed texel as the scalar lookup's `unbias`: `c as f32 - 1.0`.
#[inline(always)]
fn unbias(t: U, k: u32) -> F {
    ((t >> (8 * k)) & 255).to_f32() - 1.0
}

impl NoiseHasher for PackedTables<'_> {
    #[inline(always)]
    fn hash2(&self, a: u32, b: u32) -> u32 {
        self.tables.hash2(a, b)
    }
    #[inline(always)]
    fn grad3_at<R: crate::cpu::Real>(&self, a: u32, b: u32) -> [R; 3] {
        self.tables.grad3_at(a, b)
    }
    #[inline(always)]
    fn grad4_at<R: crate::cpu::Real>(&self, a: u32, b: u32) -> [R; 4] {
        self.tables.grad4_at(a, b)
    }
    #[inline(always)]
    fn perm1(&self, a: u32) -> u32 {
        self.tables.perm1(a)
    }
    #[inline(always)]
    fn simplex4_order(&self, c: u32) -> [u32; 4] {
        self.tables.simplex4_order(c)
    }
}

impl LaneHasher for PackedTables<'_> {
    /// The texel row offset `(b & 255) * 256`.
    type Row = u32;

    #[inline(always)]
    fn row(&self, b: u32) -> u32 {
        (b & 255) * 256
    }

    #[inline(always)]
    fn grad3_row(&self, row: u32, a: U) -> [F; 3] {
        let t = Self::gather(&self.hash_grad3, (a & 255) + row);
        [unbias(t, 1), unbias(t, 2), unbias(t, 3)]
    }

    #[inline(always)]
    fn grad4_row(&self, row: u32, a: U) -> [F; 4] {
        let t = Self::gather(&self.grad4, (a & 255) + row);
        [unbias(t, 0), unbias(t, 1), unbias(t, 2), unbias(t, 3)]
    }

    #[inline(always)]
    fn grad3(&self, a: U, b: U) -> [F; 3] {
        let t = Self::gather(&self.hash_grad3, texel_index(a, b));
        [unbias(t, 1), unbias(t, 2), unbias(t, 3)]
    }

    /// The texels behind a [`U::seam`]: without it LLVM's AVX2 copy unpacked each texel's
    /// bytes with scalar instructions, and 4D simplex with the tables ran at the scalar
    /// fill's speed (docs/performance.md, fourth session). Only here: the same seam in
    /// the other gathers measured slower for classic noise.
    #[inline(always)]
    fn grad4(&self, a: U, b: U) -> [F; 4] {
        let t = Self::gather(&self.grad4, texel_index(a, b)).seam();
        [unbias(t, 0), unbias(t, 1), unbias(t, 2), unbias(t, 3)]
    }

    #[inline(always)]
    fn perm1_lanes(&self, a: U) -> U {
        a.map(|i| self.perm[(i & 255) as usize])
    }

    #[inline(always)]
    fn hash2_lanes(&self, a: U, b: U) -> U {
        Self::gather(&self.hash_grad3, texel_index(a, b)) & 255
    }

    #[inline(always)]
    fn simplex4_order_lanes(&self, c: U) -> [U; 4] {
        let t = c.map(|i| self.simplex4[(i & 63) as usize]);
        std::array::from_fn(|k| (t >> (8 * k as u32)) & 255)
    }

    /// Nothing: `T(a, b)` is one gather from the 2D table.
    type Pair = ();

    #[inline(always)]
    fn pair(&self, _b: U) {}

    #[inline(always)]
    fn hash2_step(&self, a: U, b: U, o: U, _pair: &()) -> U {
        self.hash2_lanes(a, b + o)
    }
}

/// `lowbias32` (see [`crate::cpu::lookup::lowbias32`]) on every lane.
#[inline(always)]
fn lowbias32(x: U) -> U {
    let x = x ^ (x >> 16);
    let x = x.wrapping_mul(0x7feb_352d);
    let x = x ^ (x >> 15);
    let x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

impl IntegerHasher {
    /// `P(i)` on every lane.
    #[inline(always)]
    fn p_lanes(&self, i: U) -> U {
        (lowbias32((i & 255) ^ (self.key << 8)) & 255).seam()
    }
}

/// `±1` from bit `bit` of `h` (set = -1), as the scalar decoders' sign choice.
#[inline(always)]
fn sign(h: U, bit: u32) -> F {
    (h & bit).eq(0).select_f(F::splat(1.0), F::splat(-1.0))
}

/// [`crate::cpu::lookup::grad3_from_hash`] on every lane, branch-free.
#[inline(always)]
fn grad3_from_hash(h: U) -> [F; 3] {
    // `h % 12` for the hashes here (below 256) as a multiply and shift: the same integers
    // (floor(h · 2731 / 2¹⁵) = floor(h / 12) for h < 2¹⁰), but LLVM vectorises it where it
    // left `% 12` and the hash feeding it scalar.
    let h = h - ((h.wrapping_mul(2731) >> 15).wrapping_mul(12));
    let (s1, s2) = (sign(h, 1), sign(h, 2));
    let group = h >> 2;
    let zero = F::splat(0.0);
    let (g0, g1) = (group.eq(0), group.eq(1));
    [
        (g0 | g1).select_f(s1, zero),
        g0.select_f(s2, g1.select_f(zero, s1)),
        g0.select_f(zero, s2),
    ]
}

/// [`crate::cpu::lookup::grad4_from_hash`] on every lane, branch-free.
#[inline(always)]
fn grad4_from_hash(h: U) -> [F; 4] {
    let h = h & 31;
    let (a, b, c) = (sign(h, 4), sign(h, 2), sign(h, 1));
    let group = h >> 3;
    let zero = F::splat(0.0);
    let (g0, g1, g2) = (group.eq(0), group.eq(1), group.eq(2));
    [
        g0.select_f(zero, a),
        g0.select_f(a, g1.select_f(zero, b)),
        (g0 | g1).select_f(b, g2.select_f(zero, c)),
        (g0 | g1 | g2).select_f(c, zero),
    ]
}

impl LaneHasher for IntegerHasher {
    /// `P(b)`: the inner step of `T(a, b) = P(a + P(b))`.
    type Row = u32;

    #[inline(always)]
    fn row(&self, b: u32) -> u32 {
        self.perm1(b)
    }

    #[inline(always)]
    fn grad3_row(&self, row: u32, a: U) -> [F; 3] {
        grad3_from_hash(self.p_lanes(a + row))
    }

    #[inline(always)]
    fn grad4_row(&self, row: u32, a: U) -> [F; 4] {
        grad4_from_hash(self.p_lanes(a + row))
    }

    #[inline(always)]
    fn grad3(&self, a: U, b: U) -> [F; 3] {
        grad3_from_hash(self.hash2_lanes(a, b))
    }

    #[inline(always)]
    fn grad4(&self, a: U, b: U) -> [F; 4] {
        grad4_from_hash(self.hash2_lanes(a, b))
    }

    #[inline(always)]
    fn perm1_lanes(&self, a: U) -> U {
        self.p_lanes(a)
    }

    #[inline(always)]
    fn hash2_lanes(&self, a: U, b: U) -> U {
        self.p_lanes(a + self.p_lanes(b))
    }

    /// `P(b)` and `P(b + 1)`: the inner steps of `T(a, b) = P(a + P(b))`.
    type Pair = [U; 2];

    #[inline(always)]
    fn pair(&self, b: U) -> [U; 2] {
        [self.p_lanes(b), self.p_lanes(b + 1)]
    }

    #[inline(always)]
    fn hash2_step(&self, a: U, _b: U, o: U, pair: &[U; 2]) -> U {
        self.p_lanes(a + o.select(pair[1], pair[0]))
    }

    /// Rank counting, as the scalar hash variant.
    #[inline(always)]
    fn simplex4_order_lanes(&self, c: U) -> [U; 4] {
        let bit = |v: u32| (c & v).eq(0).select(U::splat(0), U::splat(1));
        let (xy, xz, yz, xw, yw, zw) = (bit(32), bit(16), bit(8), bit(4), bit(2), bit(1));
        [
            xy + xz + xw,
            (1 - xy) + yz + yw,
            ((1 - xz) + (1 - yz)) + zw,
            ((1 - xw) + (1 - yw)) + (1 - zw),
        ]
    }
}
