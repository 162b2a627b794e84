//! The table lookups of [`crate::cpu::lookup`] for whole lanes: gathers from the same packed
//! tables for the texture variant, the same integer hash for the hash variant.
//!
//! Classic noise looks up lattice points whose y, z, w are fixed along a row;
//! [`LaneHasher::row`] does that part once per row (`T(x, b)`'s `b` for the tables, the
//! seed's word xor the weighted y, z, w for the hash), the lanes do the rest.
//!
//! Both variants give a gradient as its index ([`Grad3`], [`Grad4`]), and the noise applies
//! it to the offsets with sign-bit operations instead of multiplications (`dot`): every
//! gradient has components ±1 and one 0, so `g · d` is a sum of sign-flipped offsets. An
//! ISA that holds 16- and 32-entry tables in registers (AVX-512) reads a gradient's
//! components from such tables and multiplies, each product after the first fused with its
//! sum (exact products: the same bits): fewer operations than the sign bits.

use super::lanes::{Isa, F, LANES, U};
use super::noise::{Logic, Order3, Selections};
use crate::cpu::lookup::{
    weighted as scalar_weighted, IntegerHasher, NoiseHasher, PackedWords, TableLookup, HASH_PRIMES,
};
use crate::tables::PermutationTables;

/// The sign bit of an `f32`.
const SIGN: u32 = 0x8000_0000;

/// `g * d` for a gradient component `g = ±1` whose sign bit is `s` (0 or [`SIGN`]): a
/// multiplication by ±1 only flips the sign.
#[inline(always)]
fn flip(d: F, s: U) -> F {
    (d.to_bits() ^ s).from_bits()
}

/// `0.0 * d` for a finite `d`: a zero with `d`'s sign.
#[inline(always)]
fn times_zero(d: F) -> F {
    (d.to_bits() & SIGN).from_bits()
}

/// The components of `gradients` as tables of `E` entries, component `a` of gradient `n` at
/// `[a][n]` (entries past the gradients 0, never read).
const fn component_tables<const N: usize, const D: usize, const E: usize>(
    gradients: &[[i8; D]; N],
) -> [[f32; E]; D] {
    let mut table = [[0.0; E]; D];
    let mut n = 0;
    while n < N {
        let mut a = 0;
        while a < D {
            table[a][n] = gradients[n][a] as f32;
            a += 1;
        }
        n += 1;
    }
    table
}

/// The components of [`crate::tables::GRAD3`] by index, for [`Isa::read16`].
const GRAD3_COMPONENTS: [[f32; 16]; 3] = component_tables(&crate::tables::GRAD3);

/// The components of [`crate::tables::GRAD4`] by index, for [`Isa::read32`].
const GRAD4_COMPONENTS: [[f32; 32]; 4] = component_tables(&crate::tables::GRAD4);

/// A gradient of 2D and 3D noise on every lane, as its index `n < 12` into
/// [`crate::tables::GRAD3`] ([`crate::cpu::lookup::grad3_of_index`]): `n / 4` says which
/// component is 0 (2, 1, 0), bits 0 and 1 the signs of the first and second of the others.
#[derive(Clone, Copy, Debug)]
pub struct Grad3(pub U);

/// A gradient of 4D noise on every lane, as its index `n < 32` into
/// [`crate::tables::GRAD4`] ([`crate::cpu::lookup::grad4_of_index`]): `n / 8` is the
/// component that is 0, bits 2, 1, 0 the signs of the others in order.
#[derive(Clone, Copy, Debug)]
pub struct Grad4(pub U);

// The groups are told apart by bit tests, not comparisons (x86 before AVX-512 has no
// unsigned comparison); that needs the index below 12 or 32, which every lookup gives.
//
// The dot products below equal the scalar `g[0] * d[0] + g[1] * d[1] + …` bit for bit for
// finite offsets (the fills' offsets are). Each product is exact (a sign flip, or a zero
// with the offset's sign), and the nonzero products are summed in the scalar order. The
// zero product is added last: a zero changes a sum only where the sum so far is zero
// (−0 only when every term is −0; a nonzero sum plus a zero is unchanged, and a zero
// plus a nonzero term is that term), so adding it last gives the scalar result, the sign
// of a zero included. `tests/reference/simd_lookup.rs` checks every index against the
// scalar products.

impl Grad3 {
    /// `g[0] * d[0] + g[1] * d[1]` (2D noise uses the first two components): where the
    /// ISA reads a 16-entry table in a register, those products and that sum themselves
    /// (as [`Grad3::dot3`]).
    #[inline(always)]
    pub fn dot2<I: Isa>(self, d: [F; 2]) -> F {
        let n = self.0;
        let (g0, g1) = (
            I::read16(&GRAD3_COMPONENTS[0], n),
            I::read16(&GRAD3_COMPONENTS[1], n),
        );
        if let (Some(g0), Some(g1)) = (g0, g1) {
            return I::add_exact_product(g0 * d[0], g1, d[1]);
        }
        let (lt4, lt8) = ((n & 12).eq(0), (n & 8).eq(0));
        // Groups 0 and 1 start with ±d[0], group 2 (g = [0, s1]) with ±d[1].
        let first = flip(lt8.select_f(d[0], d[1]), n << 31);
        // Group 0: ±d[1]; groups 1 and 2: the zero product (of d[1], of d[0]).
        let second = lt4.select_f(
            flip(d[1], (n << 30) & SIGN),
            times_zero(lt8.select_f(d[1], d[0])),
        );
        first + second
    }

    /// `g[0] * d[0] + g[1] * d[1] + g[2] * d[2]`: where the ISA reads a 16-entry table in
    /// a register, those products and sums themselves (three permutes, a multiply and two
    /// [`Isa::add_exact_product`]s: fewer operations than the sign-bit form below).
    #[inline(always)]
    pub fn dot3<I: Isa>(self, d: [F; 3]) -> F {
        let n = self.0;
        let (g0, g1, g2) = (
            I::read16(&GRAD3_COMPONENTS[0], n),
            I::read16(&GRAD3_COMPONENTS[1], n),
            I::read16(&GRAD3_COMPONENTS[2], n),
        );
        if let (Some(g0), Some(g1), Some(g2)) = (g0, g1, g2) {
            return I::add_exact_product(I::add_exact_product(g0 * d[0], g1, d[1]), g2, d[2]);
        }
        let (lt4, lt8) = ((n & 12).eq(0), (n & 8).eq(0));
        // The nonzero components in order: [d0, d1], [d0, d2] or [d1, d2].
        let first = flip(lt8.select_f(d[0], d[1]), n << 31);
        let second = flip(lt4.select_f(d[1], d[2]), (n << 30) & SIGN);
        let zero = lt4.select_f(d[2], lt8.select_f(d[1], d[0]));
        (first + second) + times_zero(zero)
    }

    /// The gradient's components (`grad3_of_index`), for flow noise, which turns them.
    #[inline(always)]
    pub fn vector(self) -> [F; 3] {
        let n = self.0;
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
}

impl Grad4 {
    /// `g[0] * d[0] + g[1] * d[1] + g[2] * d[2] + g[3] * d[3]`: where the ISA reads a
    /// 32-entry table in registers, those products and sums themselves (as
    /// [`Grad3::dot3`]).
    #[inline(always)]
    pub fn dot<I: Isa>(self, d: [F; 4]) -> F {
        let n = self.0;
        let (g0, g1, g2, g3) = (
            I::read32(&GRAD4_COMPONENTS[0], n),
            I::read32(&GRAD4_COMPONENTS[1], n),
            I::read32(&GRAD4_COMPONENTS[2], n),
            I::read32(&GRAD4_COMPONENTS[3], n),
        );
        if let (Some(g0), Some(g1), Some(g2), Some(g3)) = (g0, g1, g2, g3) {
            let sum = I::add_exact_product(g0 * d[0], g1, d[1]);
            return I::add_exact_product(I::add_exact_product(sum, g2, d[2]), g3, d[3]);
        }
        let (lt8, lt16, ge24) = ((n & 24).eq(0), (n & 16).eq(0), (n & 24).eq(24));
        // The nonzero components in order: d without the component `n / 8`.
        let a = flip(lt8.select_f(d[1], d[0]), (n << 29) & SIGN);
        let b = flip(lt16.select_f(d[2], d[1]), (n << 30) & SIGN);
        let c = flip(ge24.select_f(d[2], d[3]), n << 31);
        let zero = lt16.select_f(lt8.select_f(d[0], d[1]), ge24.select_f(d[3], d[2]));
        ((a + b) + c) + times_zero(zero)
    }
}

impl Grad4 {
    /// The gradient's components (`grad4_of_index`), for classic noise's row tables.
    #[inline(always)]
    pub fn vector(self) -> [F; 4] {
        let n = self.0;
        let (a, b, c) = (sign(n, 4), sign(n, 2), sign(n, 1));
        let group = n >> 3;
        let zero = F::splat(0.0);
        let (g0, g1, g2, g3) = (group.eq(0), group.eq(1), group.eq(2), group.eq(3));
        [
            g0.select_f(zero, a),
            g0.select_f(a, g1.select_f(zero, b)),
            (g0 | g1).select_f(b, g2.select_f(zero, c)),
            g3.select_f(zero, c),
        ]
    }
}

/// `±1` from bit `bit` of `n` (set = -1), as the scalar decoders' sign choice.
#[inline(always)]
fn sign(n: U, bit: u32) -> F {
    (n & bit).eq(0).select_f(F::splat(1.0), F::splat(-1.0))
}

/// The gradients of [`NoiseHasher`] for `LANES` lattice points at once, lane `i` the
/// index of the scalar lookup's gradient at lane `i`.
pub trait LaneHasher: NoiseHasher {
    /// What [`LaneHasher::row`] keeps of a lattice point's y, z, w.
    type Row: Copy + Default + std::fmt::Debug;
    /// The form of the 3D simplex order the graph evaluator's copies run with this lookup:
    /// the one LLVM compiles to the faster code there.
    type GraphOrder3: Order3;
    /// The fewest texels a cell along x for which the classic fill keeps x tables
    /// (`ClassicXTable`): at denser lanes the y, z, w cells change every row or two, and
    /// the tables' upkeep costs more than the lanes' own lookups. Where that happens
    /// differs per lookup; the 3D ridged tree (`examples/graphs/bench/ridged5-classic.json`)
    /// shows it.
    const TABLE_TEXELS_PER_CELL: usize;
    /// Whether this lookup's lane code holds few registers (the hash: arithmetic on the
    /// cells), so that two chunks at once fit AVX2's 16 (`Isa::PAIRS`); the textures'
    /// gathers do not.
    const FEW_REGISTERS: bool;
    /// The part of the lookup of the `dims`-dimensional lattice point `(x, y, z, w)` that
    /// does not depend on x, once per row (`yzw`: the wrapped y, z, w; those beyond `dims` 0).
    fn row(&self, dims: usize, yzw: [u32; 3]) -> Self::Row;
    /// `lattice_grad3(x, y, z)` (in 2D `lattice_grad2(x, y)`: its first two components)
    /// for a row's y, z.
    fn grad3_row<I: Isa>(&self, row: Self::Row, x: U) -> Grad3;
    /// `lattice_grad4(x, y, z, w)` for a row's y, z, w.
    fn grad4_row(&self, row: Self::Row, x: U) -> Grad4;
    /// `lattice_grad2(a, b)` (the first two components).
    fn grad2<I: Isa>(&self, a: U, b: U) -> Grad3;
    /// `lattice_grad3(a, b, c)`.
    fn grad3<I: Isa>(&self, a: U, b: U, c: U) -> Grad3;
    /// `lattice_grad4(a, b, c, d)`.
    fn grad4(&self, a: U, b: U, c: U, d: U) -> Grad4;
    /// The gradients of a 2D simplex's corners `cell`, `cell + o1`, `cell + 1` (an
    /// implementation may share work between them).
    #[inline(always)]
    fn simplex2_grads<I: Isa>(&self, cell: [U; 2], o1: [U; 2]) -> [Grad3; 3] {
        let [i, j] = cell;
        [
            self.grad2::<I>(i, j),
            self.grad2::<I>(i + o1[0], j + o1[1]),
            self.grad2::<I>(i + 1, j + 1),
        ]
    }
    /// The gradients of a 3D simplex's corners `cell`, `cell + o1`, `cell + o2`, `cell + 1`
    /// (an implementation may share work between them).
    #[inline(always)]
    fn simplex3_grads<I: Isa>(&self, cell: [U; 3], o1: [U; 3], o2: [U; 3]) -> [Grad3; 4] {
        let [i, j, k] = cell;
        [
            self.grad3::<I>(i, j, k),
            self.grad3::<I>(i + o1[0], j + o1[1], k + o1[2]),
            self.grad3::<I>(i + o2[0], j + o2[1], k + o2[2]),
            self.grad3::<I>(i + 1, j + 1, k + 1),
        ]
    }
    /// The gradients of a 4D simplex's corners `cell + o` for the five offsets `o` (an
    /// implementation may share work between them).
    #[inline(always)]
    fn simplex4_grads(&self, cell: [U; 4], o: [[U; 4]; 5]) -> [Grad4; 5] {
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
    /// `cell_hash` of the 3D points at four offsets `o` (0 or 1 per lane and axis) of the
    /// cube whose two cells along each axis are `cells` (wrapped at 256 here; a tiled
    /// noise's wrapped to its period before): an implementation may share work between
    /// the points.
    #[inline(always)]
    fn cell_hashes3<const N: usize>(&self, cells: [[U<N>; 2]; 3], o: [[U<N>; 3]; 4]) -> [U<N>; 4] {
        [
            self.cell_hash_lanes::<3, N>(&cube_point3(&cells, o[0])),
            self.cell_hash_lanes::<3, N>(&cube_point3(&cells, o[1])),
            self.cell_hash_lanes::<3, N>(&cube_point3(&cells, o[2])),
            self.cell_hash_lanes::<3, N>(&cube_point3(&cells, o[3])),
        ]
    }
    /// `cell_hash` of the 4D cell `cell` moved by `step` (0 or 1 per axis; backwards on
    /// the lanes where `flip` is 1), wrapped: a point of the 4D OpenSimplex2S walk,
    /// `supersimplex4_point_hash` (an implementation may share work between the walk's
    /// points).
    #[inline(always)]
    fn walk_hash4<I: Isa>(&self, cell: &[U; 4], step: [u32; 4], flip: U) -> U {
        let h = [
            wrapped_step(cell[0], step[0], flip),
            wrapped_step(cell[1], step[1], flip),
            wrapped_step(cell[2], step[2], flip),
            wrapped_step(cell[3], step[3], flip),
        ];
        let hash = self.cell_hash_lanes::<4, _>(&h);
        if I::SEAM_WALK_HASH {
            hash.seam()
        } else {
            hash
        }
    }
    /// `simplex4_order(c)`.
    fn simplex4_order_lanes(&self, c: U) -> [U; 4];
    /// `cell_hash` of the `D`-dimensional cells `cell` (the first `D` coordinates).
    fn cell_hash_lanes<const D: usize, const N: usize>(&self, cell: &[U<N>; 4]) -> U<N>;
    /// `cell_byte(h, slot)`.
    fn cell_byte_lanes<const N: usize>(&self, h: U<N>, slot: u32) -> U<N>;
}

/// The lanes' lookup of the texture variant: the tables (for what the lanes leave to the
/// scalar lookup) and their packed words.
pub struct PackedTables<'a> {
    tables: &'a PermutationTables,
    pub words: &'a PackedWords,
}

impl TableLookup {
    /// The tables as the SIMD fills read them, or `None` if their gradients or 4D order are
    /// not the ones the lanes decode.
    pub fn packed(&self) -> Option<PackedTables<'_>> {
        Some(PackedTables::new(self.tables(), self.packed_words()?))
    }
}

impl<'a> PackedTables<'a> {
    /// The lanes' lookup of `tables` packed as `words`.
    pub fn new(tables: &'a PermutationTables, words: &'a PackedWords) -> Self {
        PackedTables { tables, words }
    }

    #[inline(always)]
    fn gather<const N: usize>(table: &[u32; 65536], index: U<N>) -> U<N> {
        index.map(|i| table[(i & 0xffff) as usize])
    }
}

/// The texel index of `T(a, b)` (`texel_2d` in the scalar lookup).
#[inline(always)]
fn texel_index<const N: usize>(a: U<N>, b: U<N>) -> U<N> {
    ((b & 255) << 8) + (a & 255)
}

impl crate::cpu::lookup::sealed::Sealed for PackedTables<'_> {}

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
    #[inline(always)]
    fn lattice_key(&self, point: &[u32]) -> u32 {
        self.tables.lattice_key(point)
    }
    #[inline(always)]
    fn key_grad2<R: crate::cpu::Real>(&self, key: u32) -> [R; 2] {
        self.tables.key_grad2(key)
    }
    #[inline(always)]
    fn key_grad3<R: crate::cpu::Real>(&self, key: u32) -> [R; 3] {
        self.tables.key_grad3(key)
    }
    #[inline(always)]
    fn key_grad4<R: crate::cpu::Real>(&self, key: u32) -> [R; 4] {
        self.tables.key_grad4(key)
    }
    #[inline(always)]
    fn key_hash(&self, key: u32) -> u32 {
        self.tables.key_hash(key)
    }
}

impl PackedTables<'_> {
    /// `P(a)` on every lane.
    #[inline(always)]
    fn perm1_lanes<const N: usize>(&self, a: U<N>) -> U<N> {
        a.map(|i| self.words.perm[(i & 255) as usize])
    }

    /// `T(a, b)` on every lane.
    #[inline(always)]
    fn hash2_lanes<const N: usize>(&self, a: U<N>, b: U<N>) -> U<N> {
        Self::gather(&self.words.hash_grad3, texel_index(a, b)) & 255
    }

    /// The gradient of the `hash_grad3` texel at `(a, b)` on every lane.
    #[inline(always)]
    fn grad3_at_lanes(&self, a: U, b: U) -> Grad3 {
        Grad3(Self::gather(&self.words.hash_grad3, texel_index(a, b)) >> 8)
    }
}

impl LaneHasher for PackedTables<'_> {
    /// The texel row offset `(b & 255) * 256` of `T(x, b)`, `b` = `y`, `y + P(z)` or
    /// `y + T(z, w)`.
    type Row = u32;
    type GraphOrder3 = Selections;
    const TABLE_TEXELS_PER_CELL: usize = 4;
    const FEW_REGISTERS: bool = false;

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
    fn grad3_row<I: Isa>(&self, row: u32, a: U) -> Grad3 {
        Grad3(Self::gather(&self.words.hash_grad3, (a & 255) + row) >> 8)
    }

    #[inline(always)]
    fn grad4_row(&self, row: u32, a: U) -> Grad4 {
        Grad4(Self::gather(&self.words.grad4, (a & 255) + row))
    }

    #[inline(always)]
    fn grad2<I: Isa>(&self, a: U, b: U) -> Grad3 {
        self.grad3_at_lanes(a, b)
    }

    #[inline(always)]
    fn grad3<I: Isa>(&self, a: U, b: U, c: U) -> Grad3 {
        self.grad3_at_lanes(a, b + self.perm1_lanes(c))
    }

    /// The gathered indices behind a [`U::seam`]: without it LLVM's AVX2 copy unpacks
    /// the texel's bytes with scalar instructions, and 4D simplex with the tables runs at
    /// the scalar fill's speed. Only here: in the other gathers the seam slows classic
    /// noise down.
    #[inline(always)]
    fn grad4(&self, a: U, b: U, c: U, d: U) -> Grad4 {
        Grad4(
            Self::gather(
                &self.words.grad4,
                texel_index(a, b + self.hash2_lanes(c, d)),
            )
            .seam(),
        )
    }

    /// `P(k + o.z)` for o.z = 0 or 1: two lookups serve the four corners (the same
    /// integers as the scalar code's four).
    #[inline(always)]
    fn simplex3_grads<I: Isa>(&self, cell: [U; 3], o1: [U; 3], o2: [U; 3]) -> [Grad3; 4] {
        let [i, j, k] = cell;
        let pk = [self.perm1_lanes(k), self.perm1_lanes(k + 1)];
        [
            self.grad3_at_lanes(i, j + pk[0]),
            self.grad3_at_lanes(i + o1[0], j + o1[1] + o1[2].select(pk[1], pk[0])),
            self.grad3_at_lanes(i + o2[0], j + o2[1] + o2[2].select(pk[1], pk[0])),
            self.grad3_at_lanes(i + 1, j + 1 + pk[1]),
        ]
    }

    /// Rank counting, which [`PackedWords::new`] checked the table gives: arithmetic
    /// instead of a gather of comparison codes, which is faster.
    #[inline(always)]
    fn simplex4_order_lanes(&self, c: U) -> [U; 4] {
        rank_order_lanes(c)
    }

    #[inline(always)]
    fn cell_hash_lanes<const D: usize, const N: usize>(&self, cell: &[U<N>; 4]) -> U<N> {
        let [x, y, z, w] = *cell;
        match D {
            2 => self.hash2_lanes(x, y),
            3 => self.hash2_lanes(x, y + self.perm1_lanes(z)),
            _ => self.hash2_lanes(x, y + self.hash2_lanes(z, w)),
        }
    }

    #[inline(always)]
    fn cell_byte_lanes<const N: usize>(&self, h: U<N>, slot: u32) -> U<N> {
        self.perm1_lanes(h + 51 * slot)
    }
}

/// [`crate::cpu::lookup::rank_order`] on every lane.
#[inline(always)]
pub fn rank_order_lanes(c: U) -> [U; 4] {
    let bit = |v: u32| (c & v).eq(0).select(U::splat(0), U::splat(1));
    let (xy, xz, yz, xw, yw, zw) = (bit(32), bit(16), bit(8), bit(4), bit(2), bit(1));
    [
        xy + xz + xw,
        (1 - xy) + yz + yw,
        ((1 - xz) + (1 - yz)) + zw,
        ((1 - xw) + (1 - yw)) + (1 - zw),
    ]
}

/// The multipliers of [`crate::cpu::lookup::point_mix`].
const MIX: [u32; 2] = [0x27d4_eb2d, 0x846c_a68b];

/// [`crate::cpu::lookup::point_mix`] on every lane.
#[inline(always)]
fn point_mix<const N: usize>(v: U<N>) -> U<N> {
    let h = mix_to_last_step(v);
    (h ^ (h >> 16)).seam()
}

/// `point_mix` but its last step, `h ^ (h >> 16)`, which leaves bits 16 to 31 as they
/// are: all the gradients read (two vector instructions a corner fewer).
#[inline(always)]
fn mix_to_last_step<const N: usize>(v: U<N>) -> U<N> {
    mix_to_last_step_with(v, U::wrapping_mul)
}

/// [`mix_to_last_step`] by the ISA's own multiplies where it has them ([`Isa::wrapping_mul`]),
/// or behind a [`U::seam`].
#[inline(always)]
fn mix_to_last_step_by<I: Isa>(v: U) -> U {
    if I::VECTOR_MULTIPLY {
        mix_to_last_step_with(v, I::wrapping_mul)
    } else {
        mix_to_last_step(v).seam()
    }
}

/// [`mix_to_last_step`] with the multiply `times`.
#[inline(always)]
fn mix_to_last_step_with<const N: usize>(v: U<N>, times: impl Fn(U<N>, u32) -> U<N>) -> U<N> {
    let h = times(v, MIX[0]);
    let h = h ^ (h >> 15);
    times(h, MIX[1])
}

/// The gradient of the combined lattice point `v` (`grad3_index(point_mix(v))`).
#[inline(always)]
pub fn grad3_of_point<I: Isa>(v: U) -> Grad3 {
    grad3_from_hash::<I>(mix_to_last_step_by::<I>(v))
}

/// The 4D gradient of the combined lattice point `v` (`grad4_index(point_mix(v))`), with
/// the whole mix: without its last step the 4D simplex fill is slower, where 2D and 3D
/// gain. LLVM's multiplies: with AVX-512's own ([`Isa::wrapping_mul`]) LLVM splits the 4D
/// fill's lanes into 128- and 256-bit pieces.
#[inline(always)]
pub fn grad4_of_point(v: U) -> Grad4 {
    grad4_from_hash(point_mix(v))
}

/// [`crate::cpu::lookup::weighted`] on every lane.
#[inline(always)]
fn weighted<const N: usize>(axis: usize, c: U<N>) -> U<N> {
    (c & 255).wrapping_mul(HASH_PRIMES[axis])
}

/// [`crate::cpu::lookup::grad3_index`] on every lane.
#[inline(always)]
fn grad3_from_hash<I: Isa>(h: U) -> Grad3 {
    Grad3(I::scale_top16(h, 12))
}

/// [`crate::cpu::lookup::grad4_index`] on every lane.
#[inline(always)]
fn grad4_from_hash(h: U) -> Grad4 {
    Grad4(h >> 27)
}

/// A classic row of the hash variant: the seed's word xor the weighted y, z, w.
#[derive(Clone, Copy, Debug, Default)]
pub struct HashRow(u32);

/// The weighted coordinates of an axis's two cells `c` and `c + 1` of a simplex (its
/// corners' coordinates along that axis are one or the other).
#[derive(Clone, Copy)]
struct AxisWeights<const N: usize = LANES>([U<N>; 2]);

impl<const N: usize> AxisWeights<N> {
    /// The weighted cells `c` and `c + 1` along `axis`: `(c + 1) mod 256` weighs the
    /// prime more than `c mod 256`, or nothing where `c mod 256` is 255 (an addition and
    /// a selection where a second multiplication is two long-latency µops).
    #[inline(always)]
    fn new(axis: usize, c: U<N>) -> AxisWeights<N> {
        let w = weighted(axis, c);
        let next = (c & 255).eq(255).select(U::splat(0), w + HASH_PRIMES[axis]);
        AxisWeights([w, next])
    }

    /// [`AxisWeights::new`] by two multiplications, for 3D simplex: there the selection's
    /// longer-lived registers make the AVX2 copy spill (2D and 4D gain on every level).
    #[inline(always)]
    fn multiplied(axis: usize, c: U<N>) -> AxisWeights<N> {
        AxisWeights::of_pair(axis, [c, c + 1])
    }

    /// The weighted cells `pair` along `axis`: a cube's two cells, which a tiled noise
    /// wraps to its period.
    #[inline(always)]
    fn of_pair(axis: usize, pair: [U<N>; 2]) -> AxisWeights<N> {
        AxisWeights([weighted(axis, pair[0]), weighted(axis, pair[1])])
    }

    /// The weighted coordinate of the corner at offset `o` (0 or 1 per lane).
    #[inline(always)]
    fn at(&self, o: U<N>) -> U<N> {
        o.select(self.0[1], self.0[0])
    }
}

/// The gradient of a 3D simplex corner at offset `o` from the cell whose axes are `axes`
/// (a function, not a closure: a closure left as a call would be compiled without the
/// caller's `#[target_feature]`s).
#[inline(always)]
fn corner3<I: Isa>(axes: &[AxisWeights; 3], o: [U; 3]) -> Grad3 {
    grad3_of_point::<I>(cell_point3(axes, o))
}

/// The wrapped cell coordinate `cell + step` (`cell + 256 − step` where `flip`): `step`
/// negated in two's complement (`!step + 1`) where `flip` is 1, the same low 8 bits.
/// Arithmetic, not a selection: with `step` read at run time LLVM built the selection's
/// mask bit by bit.
#[inline(always)]
fn wrapped_step(cell: U, step: u32, flip: U) -> U {
    let negate = 0 - flip;
    ((cell + (U::splat(step) ^ negate)) + flip) & 255
}

/// Axis `axis`'s weighed cell of a 4D walk's point ([`LaneHasher::walk_hash4`]): `cell`
/// where `step` is 0, else `cell + 1`, or `cell − 1` on the lanes where `flip` is 1. The
/// first does not depend on the point, so LLVM weighs it once for the walk's sixteen
/// points; the others it weighs after the selection, one multiplication. (Weighing all
/// three once, kept apart from the points by a `black_box`, measured no faster.)
#[inline(always)]
fn walk_weighed(axis: usize, cell: U, step: u32, flip: U) -> U {
    let stepped = flip.select(weighted(axis, cell + 255), weighted(axis, cell + 1));
    if step == 0 {
        weighted(axis, cell)
    } else {
        stepped
    }
}

/// The wrapped 3D point at offset `o` of the cube whose two cells along each axis are
/// `cells`, its fourth coordinate 0 (a function, not a closure: see [`corner3`]).
#[inline(always)]
fn cube_point3<const N: usize>(cells: &[[U<N>; 2]; 3], o: [U<N>; 3]) -> [U<N>; 4] {
    [
        o[0].select(cells[0][1], cells[0][0]) & 255,
        o[1].select(cells[1][1], cells[1][0]) & 255,
        o[2].select(cells[2][1], cells[2][0]) & 255,
        U::splat(0),
    ]
}

/// The combined (unmixed) hash of the 3D point at offset `o` from the cell whose axes are
/// `axes` (as [`corner3`]).
#[inline(always)]
fn cell_point3<const N: usize>(axes: &[AxisWeights<N>; 3], o: [U<N>; 3]) -> U<N> {
    axes[0].at(o[0]) ^ axes[1].at(o[1]) ^ axes[2].at(o[2])
}

/// The gradient of a 2D simplex corner at offset `o` (as [`corner3`]).
#[inline(always)]
fn corner2<I: Isa>(axes: &[AxisWeights; 2], o: [U; 2]) -> Grad3 {
    grad3_of_point::<I>(axes[0].at(o[0]) ^ axes[1].at(o[1]))
}

/// The gradient of a 4D simplex corner at offset `o` (as [`corner3`]).
#[inline(always)]
fn corner4(axes: &[AxisWeights; 4], o: [U; 4]) -> Grad4 {
    grad4_of_point(axes[0].at(o[0]) ^ axes[1].at(o[1]) ^ axes[2].at(o[2]) ^ axes[3].at(o[3]))
}

impl IntegerHasher {
    /// The seed's word xor the weighted x, on every lane.
    #[inline(always)]
    fn x_lanes<const N: usize>(&self, a: U<N>) -> U<N> {
        weighted(0, a) ^ self.seed_word()
    }

    /// The weighted cells of x, `x`, with the seed's word.
    #[inline(always)]
    fn seeded<const N: usize>(&self, x: AxisWeights<N>) -> AxisWeights<N> {
        let seed = U::splat(self.seed_word());
        AxisWeights([x.0[0] ^ seed, x.0[1] ^ seed])
    }
}

impl LaneHasher for IntegerHasher {
    type Row = HashRow;
    type GraphOrder3 = Logic;
    const TABLE_TEXELS_PER_CELL: usize = 2;
    const FEW_REGISTERS: bool = true;

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
    fn grad3_row<I: Isa>(&self, row: HashRow, a: U) -> Grad3 {
        grad3_of_point::<I>(weighted(0, a) ^ row.0)
    }

    #[inline(always)]
    fn grad4_row(&self, row: HashRow, a: U) -> Grad4 {
        grad4_of_point(weighted(0, a) ^ row.0)
    }

    #[inline(always)]
    fn grad2<I: Isa>(&self, a: U, b: U) -> Grad3 {
        grad3_of_point::<I>(self.x_lanes(a) ^ weighted(1, b))
    }

    #[inline(always)]
    fn grad3<I: Isa>(&self, a: U, b: U, c: U) -> Grad3 {
        grad3_of_point::<I>(self.x_lanes(a) ^ weighted(1, b) ^ weighted(2, c))
    }

    #[inline(always)]
    fn grad4(&self, a: U, b: U, c: U, d: U) -> Grad4 {
        grad4_of_point(self.x_lanes(a) ^ weighted(1, b) ^ weighted(2, c) ^ weighted(3, d))
    }

    /// Each axis's two weighted cells, once for the three corners.
    #[inline(always)]
    fn simplex2_grads<I: Isa>(&self, cell: [U; 2], o1: [U; 2]) -> [Grad3; 3] {
        let axes = [
            self.seeded(AxisWeights::new(0, cell[0])),
            AxisWeights::new(1, cell[1]),
        ];
        let (zero, one) = (U::splat(0), U::splat(1));
        [
            corner2::<I>(&axes, [zero, zero]),
            corner2::<I>(&axes, o1),
            corner2::<I>(&axes, [one, one]),
        ]
    }

    /// Each axis's two weighted cells, once for the four corners.
    #[inline(always)]
    fn simplex3_grads<I: Isa>(&self, cell: [U; 3], o1: [U; 3], o2: [U; 3]) -> [Grad3; 4] {
        let x = self.seeded(AxisWeights::multiplied(0, cell[0]));
        let (y, z) = (
            AxisWeights::multiplied(1, cell[1]),
            AxisWeights::multiplied(2, cell[2]),
        );
        let axes = [x, y, z];
        let (zero, one) = (U::splat(0), U::splat(1));
        [
            corner3::<I>(&axes, [zero, zero, zero]),
            corner3::<I>(&axes, o1),
            corner3::<I>(&axes, o2),
            corner3::<I>(&axes, [one, one, one]),
        ]
    }

    /// Each axis's two weighted cells, once for the five corners.
    #[inline(always)]
    fn simplex4_grads(&self, cell: [U; 4], o: [[U; 4]; 5]) -> [Grad4; 5] {
        let x = self.seeded(AxisWeights::new(0, cell[0]));
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

    /// Each axis's two weighted cells, once for the four points.
    #[inline(always)]
    fn cell_hashes3<const N: usize>(&self, cells: [[U<N>; 2]; 3], o: [[U<N>; 3]; 4]) -> [U<N>; 4] {
        let x = self.seeded(AxisWeights::of_pair(0, cells[0]));
        let (y, z) = (
            AxisWeights::of_pair(1, cells[1]),
            AxisWeights::of_pair(2, cells[2]),
        );
        let axes = [x, y, z];
        [
            point_mix(cell_point3(&axes, o[0])),
            point_mix(cell_point3(&axes, o[1])),
            point_mix(cell_point3(&axes, o[2])),
            point_mix(cell_point3(&axes, o[3])),
        ]
    }

    #[inline(always)]
    fn walk_hash4<I: Isa>(&self, cell: &[U; 4], step: [u32; 4], flip: U) -> U {
        point_mix(
            (walk_weighed(0, cell[0], step[0], flip) ^ self.seed_word())
                ^ walk_weighed(1, cell[1], step[1], flip)
                ^ walk_weighed(2, cell[2], step[2], flip)
                ^ walk_weighed(3, cell[3], step[3], flip),
        )
    }

    /// Rank counting, as the scalar hash variant.
    #[inline(always)]
    fn simplex4_order_lanes(&self, c: U) -> [U; 4] {
        rank_order_lanes(c)
    }

    /// The coordinates past `D` are not hashed (`cell_hash` of `D` coordinates).
    #[inline(always)]
    fn cell_hash_lanes<const D: usize, const N: usize>(&self, cell: &[U<N>; 4]) -> U<N> {
        let mut v = self.x_lanes(cell[0]) ^ weighted(1, cell[1]);
        if D > 2 {
            v = v ^ weighted(2, cell[2]);
        }
        if D > 3 {
            v = v ^ weighted(3, cell[3]);
        }
        point_mix(v)
    }

    #[inline(always)]
    fn cell_byte_lanes<const N: usize>(&self, h: U<N>, slot: u32) -> U<N> {
        if slot == 4 {
            h.wrapping_mul(0x9e37_79b9) >> 24
        } else {
            (h >> (24 - 8 * slot)) & 255
        }
    }
}
