//! The table lookups of [`crate::cpu::lookup`] for whole lanes: gathers from the same packed
//! tables for the texture variant, the same integer hash for the hash variant.
//!
//! Classic noise looks up lattice points whose y, z, w are fixed along a row;
//! [`LaneHasher::row`] does that part once per row (`T(x, b)`'s `b` for the tables, the
//! seed's word xor the weighted y, z, w for the hash), the lanes do the rest.

use super::lanes::{F, U};
use crate::cpu::lookup::{weighted as scalar_weighted, IntegerHasher, NoiseHasher, HASH_PRIMES};
use crate::tables::PermutationTables;

/// The gradients of [`NoiseHasher`] for `LANES` lattice points at once, lane `i` equal to the
/// scalar lookup of lane `i`.
pub trait LaneHasher: NoiseHasher {
    /// What [`LaneHasher::row`] keeps of a lattice point's y, z, w.
    type Row: Copy + Default + std::fmt::Debug;
    /// The part of the lookup of the `dims`-dimensional lattice point `(x, y, z, w)` that
    /// does not depend on x, once per row (`yzw`: the wrapped y, z, w; those beyond `dims` 0).
    fn row(&self, dims: usize, yzw: [u32; 3]) -> Self::Row;
    /// `lattice_grad3(x, y, z)` (in 2D `lattice_grad2(x, y)` as its first two components)
    /// for a row's y, z.
    fn grad3_row(&self, row: Self::Row, x: U) -> [F; 3];
    /// `lattice_grad4(x, y, z, w)` for a row's y, z, w.
    fn grad4_row(&self, row: Self::Row, x: U) -> [F; 4];
    /// `lattice_grad2(a, b)`.
    fn grad2(&self, a: U, b: U) -> [F; 2];
    /// `lattice_grad3(a, b, c)`.
    fn grad3(&self, a: U, b: U, c: U) -> [F; 3];
    /// `lattice_grad4(a, b, c, d)`.
    fn grad4(&self, a: U, b: U, c: U, d: U) -> [F; 4];
    /// The gradients of a 2D simplex's corners `cell`, `cell + o1`, `cell + 1` (an
    /// implementation may share work between them).
    #[inline(always)]
    fn simplex2_grads(&self, cell: [U; 2], o1: [U; 2]) -> [[F; 2]; 3] {
        let [i, j] = cell;
        [
            self.grad2(i, j),
            self.grad2(i + o1[0], j + o1[1]),
            self.grad2(i + 1, j + 1),
        ]
    }
    /// The gradients of a 3D simplex's corners `cell`, `cell + o1`, `cell + o2`, `cell + 1`
    /// (an implementation may share work between them).
    #[inline(always)]
    fn simplex3_grads(&self, cell: [U; 3], o1: [U; 3], o2: [U; 3]) -> [[F; 3]; 4] {
        let [i, j, k] = cell;
        [
            self.grad3(i, j, k),
            self.grad3(i + o1[0], j + o1[1], k + o1[2]),
            self.grad3(i + o2[0], j + o2[1], k + o2[2]),
            self.grad3(i + 1, j + 1, k + 1),
        ]
    }
    /// The gradients of a 4D simplex's corners `cell + o` for the five offsets `o` (an
    /// implementation may share work between them).
    #[inline(always)]
    fn simplex4_grads(&self, cell: [U; 4], o: [[U; 4]; 5]) -> [[F; 4]; 5] {
        let [i, j, k, l] = cell;
        // Written out, not `o.map(..)`: a closure left as a call would be compiled without
        // the caller's `#[target_feature]`s.
        [
            self.grad4(i + o[0][0], j + o[0][1], k + o[0][2], l + o[0][3]),
            self.grad4(i + o[1][0], j + o[1][1], k + o[1][2], l + o[1][3]),
            self.grad4(i + o[2][0], j + o[2][1], k + o[2][2], l + o[2][3]),
            self.grad4(i + o[3][0], j + o[3][1], k + o[3][2], l + o[3][3]),
            self.grad4(i + o[4][0], j + o[4][1], k + o[4][2], l + o[4][3]),
        ]
    }
    /// `simplex4_order(c)`.
    fn simplex4_order_lanes(&self, c: U) -> [U; 4];
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
    fn lattice_grad2<R: crate::cpu::Real>(&self, a: u32, b: u32) -> [R; 2] {
        self.tables.lattice_grad2(a, b)
    }
    #[inline(always)]
    fn lattice_grad3<R: crate::cpu::Real>(&self, a: u32, b: u32, c: u32) -> [R; 3] {
        self.tables.lattice_grad3(a, b, c)
    }
    #[inline(always)]
    fn lattice_grad4<R: crate::cpu::Real>(&self, a: u32, b: u32, c: u32, d: u32) -> [R; 4] {
        self.tables.lattice_grad4(a, b, c, d)
    }
    #[inline(always)]
    fn cell_hash(&self, cell: &[u32]) -> u32 {
        self.tables.cell_hash(cell)
    }
    #[inline(always)]
    fn cell_byte(&self, h: u32, slot: u32) -> u32 {
        self.tables.cell_byte(h, slot)
    }
    #[inline(always)]
    fn simplex4_order(&self, c: u32) -> [u32; 4] {
        self.tables.simplex4_order(c)
    }
}

impl PackedTables<'_> {
    /// `P(a)` on every lane.
    #[inline(always)]
    fn perm1_lanes(&self, a: U) -> U {
        a.map(|i| self.perm[(i & 255) as usize])
    }

    /// `T(a, b)` on every lane.
    #[inline(always)]
    fn hash2_lanes(&self, a: U, b: U) -> U {
        Self::gather(&self.hash_grad3, texel_index(a, b)) & 255
    }

    /// `grad3[T(a, b) % 12]` on every lane.
    #[inline(always)]
    fn grad3_at_lanes(&self, a: U, b: U) -> [F; 3] {
        let t = Self::gather(&self.hash_grad3, texel_index(a, b));
        [unbias(t, 1), unbias(t, 2), unbias(t, 3)]
    }
}

impl LaneHasher for PackedTables<'_> {
    /// The texel row offset `(b & 255) * 256` of `T(x, b)`, `b` = `y`, `y + P(z)` or
    /// `y + T(z, w)`.
    type Row = u32;

    #[inline(always)]
    fn row(&self, dims: usize, yzw: [u32; 3]) -> u32 {
        let [y, z, w] = yzw;
        let b = match dims {
            2 => y,
            3 => y + self.tables.perm1(z),
            _ => y + self.tables.hash2(z, w),
        };
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
    fn grad2(&self, a: U, b: U) -> [F; 2] {
        let g = self.grad3_at_lanes(a, b);
        [g[0], g[1]]
    }

    #[inline(always)]
    fn grad3(&self, a: U, b: U, c: U) -> [F; 3] {
        self.grad3_at_lanes(a, b + self.perm1_lanes(c))
    }

    /// The texels behind a [`U::seam`]: without it LLVM's AVX2 copy unpacked each texel's
    /// bytes with scalar instructions, and 4D simplex with the tables ran at the scalar
    /// fill's speed (docs/performance.md, the `grad4` seam). Only here: the same seam in
    /// the other gathers measured slower for classic noise.
    #[inline(always)]
    fn grad4(&self, a: U, b: U, c: U, d: U) -> [F; 4] {
        let t = Self::gather(&self.grad4, texel_index(a, b + self.hash2_lanes(c, d))).seam();
        [unbias(t, 0), unbias(t, 1), unbias(t, 2), unbias(t, 3)]
    }

    /// `P(k + o.z)` for o.z = 0 or 1: two lookups serve the four corners (the same
    /// integers as the scalar code's four).
    #[inline(always)]
    fn simplex3_grads(&self, cell: [U; 3], o1: [U; 3], o2: [U; 3]) -> [[F; 3]; 4] {
        let [i, j, k] = cell;
        let pk = [self.perm1_lanes(k), self.perm1_lanes(k + 1)];
        [
            self.grad3_at_lanes(i, j + pk[0]),
            self.grad3_at_lanes(i + o1[0], j + o1[1] + o1[2].select(pk[1], pk[0])),
            self.grad3_at_lanes(i + o2[0], j + o2[1] + o2[2].select(pk[1], pk[0])),
            self.grad3_at_lanes(i + 1, j + 1 + pk[1]),
        ]
    }

    #[inline(always)]
    fn simplex4_order_lanes(&self, c: U) -> [U; 4] {
        let t = c.map(|i| self.simplex4[(i & 63) as usize]);
        std::array::from_fn(|k| (t >> (8 * k as u32)) & 255)
    }
}

/// [`crate::cpu::lookup::point_mix`] on every lane.
#[inline(always)]
fn point_mix(v: U) -> U {
    let h = v.wrapping_mul(0x27d4_eb2d);
    let h = h ^ (h >> 15);
    let h = h.wrapping_mul(0x846c_a68b);
    (h ^ (h >> 16)).seam()
}

/// [`crate::cpu::lookup::weighted`] on every lane.
#[inline(always)]
fn weighted(axis: usize, c: U) -> U {
    (c & 255).wrapping_mul(HASH_PRIMES[axis])
}

/// `±1` from bit `bit` of `n` (set = -1), as the scalar decoders' sign choice.
#[inline(always)]
fn sign(n: U, bit: u32) -> F {
    (n & bit).eq(0).select_f(F::splat(1.0), F::splat(-1.0))
}

/// [`crate::cpu::lookup::grad3_of_index`] of [`crate::cpu::lookup::grad3_index`] on every
/// lane, branch-free.
#[inline(always)]
fn grad3_from_hash(h: U) -> [F; 3] {
    let n = (h >> 16).wrapping_mul(12) >> 16;
    let (s1, s2) = (sign(n, 1), sign(n, 2));
    let group = n >> 2;
    let zero = F::splat(0.0);
    let (g0, g1) = (group.eq(0), group.eq(1));
    [
        (g0 | g1).select_f(s1, zero),
        g0.select_f(s2, g1.select_f(zero, s1)),
        g0.select_f(zero, s2),
    ]
}

/// [`crate::cpu::lookup::grad4_of_index`] of [`crate::cpu::lookup::grad4_index`] on every
/// lane, branch-free.
#[inline(always)]
fn grad4_from_hash(h: U) -> [F; 4] {
    let n = h >> 27;
    let (a, b, c) = (sign(n, 4), sign(n, 2), sign(n, 1));
    let group = n >> 3;
    let zero = F::splat(0.0);
    let (g0, g1, g2) = (group.eq(0), group.eq(1), group.eq(2));
    [
        g0.select_f(zero, a),
        g0.select_f(a, g1.select_f(zero, b)),
        (g0 | g1).select_f(b, g2.select_f(zero, c)),
        (g0 | g1 | g2).select_f(c, zero),
    ]
}

/// A classic row of the hash variant: the seed's word xor the weighted y, z, w.
#[derive(Clone, Copy, Debug, Default)]
pub struct HashRow(u32);

/// The weighted coordinates of an axis's two cells `c` and `c + 1` of a simplex (its
/// corners' coordinates along that axis are one or the other).
#[derive(Clone, Copy)]
struct AxisWeights([U; 2]);

impl AxisWeights {
    /// The weighted cells `c` and `c + 1` along `axis`.
    #[inline(always)]
    fn new(axis: usize, c: U) -> AxisWeights {
        AxisWeights([weighted(axis, c), weighted(axis, c + 1)])
    }

    /// The weighted coordinate of the corner at offset `o` (0 or 1 per lane).
    #[inline(always)]
    fn at(&self, o: U) -> U {
        o.select(self.0[1], self.0[0])
    }
}

/// The gradient of a 3D simplex corner at offset `o` from the cell whose axes are `axes`
/// (a function, not a closure: a closure left as a call would be compiled without the
/// caller's `#[target_feature]`s).
#[inline(always)]
fn corner3(axes: &[AxisWeights; 3], o: [U; 3]) -> [F; 3] {
    grad3_from_hash(point_mix(
        axes[0].at(o[0]) ^ axes[1].at(o[1]) ^ axes[2].at(o[2]),
    ))
}

/// The gradient of a 2D simplex corner at offset `o` (as [`corner3`]).
#[inline(always)]
fn corner2(axes: &[AxisWeights; 2], o: [U; 2]) -> [F; 2] {
    let g = grad3_from_hash(point_mix(axes[0].at(o[0]) ^ axes[1].at(o[1])));
    [g[0], g[1]]
}

/// The gradient of a 4D simplex corner at offset `o` (as [`corner3`]).
#[inline(always)]
fn corner4(axes: &[AxisWeights; 4], o: [U; 4]) -> [F; 4] {
    grad4_from_hash(point_mix(
        axes[0].at(o[0]) ^ axes[1].at(o[1]) ^ axes[2].at(o[2]) ^ axes[3].at(o[3]),
    ))
}

impl IntegerHasher {
    /// The seed's word xor the weighted x, on every lane.
    #[inline(always)]
    fn x_lanes(&self, a: U) -> U {
        weighted(0, a) ^ self.seed_word()
    }

    /// The weighted cells `c` and `c + 1` along x, with the seed's word.
    #[inline(always)]
    fn x_axis(&self, c: U) -> AxisWeights {
        AxisWeights([self.x_lanes(c), self.x_lanes(c + 1)])
    }
}

impl LaneHasher for IntegerHasher {
    type Row = HashRow;

    /// A 2D or 3D point's missing coordinates are 0, and weigh 0.
    #[inline(always)]
    fn row(&self, _dims: usize, yzw: [u32; 3]) -> HashRow {
        HashRow(
            self.seed_word()
                ^ scalar_weighted(1, yzw[0])
                ^ scalar_weighted(2, yzw[1])
                ^ scalar_weighted(3, yzw[2]),
        )
    }

    #[inline(always)]
    fn grad3_row(&self, row: HashRow, a: U) -> [F; 3] {
        grad3_from_hash(point_mix(weighted(0, a) ^ row.0))
    }

    #[inline(always)]
    fn grad4_row(&self, row: HashRow, a: U) -> [F; 4] {
        grad4_from_hash(point_mix(weighted(0, a) ^ row.0))
    }

    #[inline(always)]
    fn grad2(&self, a: U, b: U) -> [F; 2] {
        let g = grad3_from_hash(point_mix(self.x_lanes(a) ^ weighted(1, b)));
        [g[0], g[1]]
    }

    #[inline(always)]
    fn grad3(&self, a: U, b: U, c: U) -> [F; 3] {
        grad3_from_hash(point_mix(self.x_lanes(a) ^ weighted(1, b) ^ weighted(2, c)))
    }

    #[inline(always)]
    fn grad4(&self, a: U, b: U, c: U, d: U) -> [F; 4] {
        grad4_from_hash(point_mix(
            self.x_lanes(a) ^ weighted(1, b) ^ weighted(2, c) ^ weighted(3, d),
        ))
    }

    /// Each axis's two weighted cells, once for the three corners.
    #[inline(always)]
    fn simplex2_grads(&self, cell: [U; 2], o1: [U; 2]) -> [[F; 2]; 3] {
        let axes = [self.x_axis(cell[0]), AxisWeights::new(1, cell[1])];
        let (zero, one) = (U::splat(0), U::splat(1));
        [
            corner2(&axes, [zero, zero]),
            corner2(&axes, o1),
            corner2(&axes, [one, one]),
        ]
    }

    /// Each axis's two weighted cells, once for the four corners.
    #[inline(always)]
    fn simplex3_grads(&self, cell: [U; 3], o1: [U; 3], o2: [U; 3]) -> [[F; 3]; 4] {
        let x = self.x_axis(cell[0]);
        let (y, z) = (AxisWeights::new(1, cell[1]), AxisWeights::new(2, cell[2]));
        let axes = [x, y, z];
        let (zero, one) = (U::splat(0), U::splat(1));
        [
            corner3(&axes, [zero, zero, zero]),
            corner3(&axes, o1),
            corner3(&axes, o2),
            corner3(&axes, [one, one, one]),
        ]
    }

    /// Each axis's two weighted cells, once for the five corners.
    #[inline(always)]
    fn simplex4_grads(&self, cell: [U; 4], o: [[U; 4]; 5]) -> [[F; 4]; 5] {
        let x = self.x_axis(cell[0]);
        let (y, z, w) = (
            AxisWeights::new(1, cell[1]),
            AxisWeights::new(2, cell[2]),
            AxisWeights::new(3, cell[3]),
        );
        let axes = [x, y, z, w];
        [
            corner4(&axes, o[0]),
            corner4(&axes, o[1]),
            corner4(&axes, o[2]),
            corner4(&axes, o[3]),
            corner4(&axes, o[4]),
        ]
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
