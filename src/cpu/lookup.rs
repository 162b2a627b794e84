//! The table lookups of the noise functions, in two variants with the same interface:
//!
//! - [`PermutationTables`]: CPU mirror of `shaders/lookup.wgsl`, fetching from the same packed
//!   texels the host uploads as textures (Gustavson's permutation and gradients);
//! - [`IntegerHasher`]: CPU mirror of `shaders/lookup_hash.wgsl`, the computational
//!   (texture-free) variant: one integer hash per lattice point stands in for the
//!   permutation chain and the gradients are decoded from its bits (same gradient
//!   sets, another pattern).
//!
//! Method names and arguments match the WGSL functions.

use std::sync::OnceLock;

use super::real::Real;
use crate::shader::LookupVariant;
use crate::tables::{PermutationTables, GRAD3, GRAD4};

/// The lookup choice ([`LookupVariant`]) with its data, for the CPU mirror: the tables the
/// texture variant uploads (boxed: they are large, the hash key is a word), or the integer
/// hash of the texture-free variant.
///
/// The SIMD fills ([`crate::cpu::simd`]) take it and pick their monomorphised lane code once,
/// before any loop; the scalar mirror functions take either variant's data directly
/// (`&PermutationTables` or `&IntegerHasher`: the types that implement [`NoiseHasher`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CpuLookup {
    /// The texture variant's permutation and gradient tables ([`LookupVariant::Textures`]).
    Tables(TableLookup),
    /// The hash variant's integer hash ([`LookupVariant::Hash`]).
    Hash(IntegerHasher),
}

impl CpuLookup {
    /// The CPU mirror of `variant` for `seed`.
    pub fn new(variant: LookupVariant, seed: u64) -> Self {
        match variant {
            LookupVariant::Textures => {
                CpuLookup::Tables(TableLookup::new(PermutationTables::new(seed)))
            }
            LookupVariant::Hash => CpuLookup::Hash(IntegerHasher::new(seed)),
        }
    }

    /// Which variant this is.
    pub fn variant(&self) -> LookupVariant {
        match self {
            CpuLookup::Tables(_) => LookupVariant::Textures,
            CpuLookup::Hash(_) => LookupVariant::Hash,
        }
    }

    /// Whether this is the mirror of `variant` for `seed` (what [`CpuLookup::new`] makes).
    pub fn is(&self, variant: LookupVariant, seed: u64) -> bool {
        match self {
            CpuLookup::Tables(t) => variant == LookupVariant::Textures && t.tables().seed() == seed,
            CpuLookup::Hash(h) => variant == LookupVariant::Hash && *h == IntegerHasher::new(seed),
        }
    }
}

/// The texture variant's tables, and the form the SIMD fills read them in (packed on the
/// first fill, then kept rather than packed per fill: the tables cannot change after
/// [`TableLookup::new`]).
#[derive(Clone, Debug)]
pub struct TableLookup {
    tables: Box<PermutationTables>,
    packed: OnceLock<Option<Box<PackedWords>>>,
}

impl TableLookup {
    /// The lookup of `tables` (edited tables too: gradients the SIMD fills cannot decode
    /// make them run the scalar reference).
    pub fn new(tables: PermutationTables) -> Self {
        TableLookup {
            tables: Box::new(tables),
            packed: OnceLock::new(),
        }
    }

    /// The tables.
    pub fn tables(&self) -> &PermutationTables {
        &self.tables
    }

    /// The tables packed for the SIMD fills' gathers, or `None` if their gradients or 4D
    /// order are not the ones the lanes decode.
    pub(crate) fn packed_words(&self) -> Option<&PackedWords> {
        self.packed
            .get_or_init(|| PackedWords::new(&self.tables).map(Box::new))
            .as_deref()
    }
}

impl PartialEq for TableLookup {
    fn eq(&self, other: &Self) -> bool {
        self.tables == other.tables
    }
}

impl Eq for TableLookup {}

/// Evaluates `$body` with `$lut` bound to the concrete lookup inside the [`CpuLookup`]
/// `$lookup` (`&PermutationTables` or `&IntegerHasher`): one dispatch, and `$body` compiled
/// once per variant, so loops inside it hold no branch on the variant.
macro_rules! with_lookup {
    ($lookup:expr, |$lut:ident| $body:expr) => {
        match $lookup {
            $crate::cpu::lookup::CpuLookup::Tables(tables) => {
                let $lut: &$crate::tables::PermutationTables = tables.tables();
                $body
            }
            $crate::cpu::lookup::CpuLookup::Hash(hash) => {
                let $lut: &$crate::cpu::lookup::IntegerHasher = hash;
                $body
            }
        }
    };
}
pub(crate) use with_lookup;

/// The seal of [`NoiseHasher`]: a trait no other crate can name, so none can implement it.
pub(crate) mod sealed {
    pub trait Sealed {}
}

/// The seal, for the tests' deliberately broken lookups; not API.
#[cfg(feature = "test-hooks")]
#[doc(hidden)]
pub use sealed::Sealed;

impl sealed::Sealed for PermutationTables {}
impl sealed::Sealed for IntegerHasher {}

/// The lookups every noise function needs: the gradient of a lattice point, the hash of a
/// cellular cell and its bytes, the 4D simplex traversal order. Lattice coordinates are
/// taken mod 256 (the lookups' own period).
///
/// The bound of the scalar mirror functions, implemented by the data of [`CpuLookup`]'s two
/// variants, [`PermutationTables`] and [`IntegerHasher`]. It is sealed: no type outside this
/// crate can implement it.
pub trait NoiseHasher: sealed::Sealed + Sync {
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
    /// The key of the lattice point with wrapped coordinates `point` (2, 3 or 4 of them):
    /// what its gradient ([`NoiseHasher::key_grad3`], …) and its hash
    /// ([`NoiseHasher::key_hash`]) are read from, so a walk of the lattice looks each point
    /// up once for both. `key_gradN(lattice_key(p))` is `lattice_gradN(p)` bit for bit.
    fn lattice_key(&self, point: &[u32]) -> u32;
    /// The gradient of the 2D lattice point of key `key` (as [`NoiseHasher::lattice_grad2`]).
    fn key_grad2<R: Real>(&self, key: u32) -> [R; 2];
    /// The gradient of the 3D lattice point of key `key` (as [`NoiseHasher::lattice_grad3`]).
    fn key_grad3<R: Real>(&self, key: u32) -> [R; 3];
    /// The gradient of the 4D lattice point of key `key` (as [`NoiseHasher::lattice_grad4`]).
    fn key_grad4<R: Real>(&self, key: u32) -> [R; 4];
    /// The hash of the lattice point of key `key`: its [`NoiseHasher::cell_hash`], read
    /// with [`NoiseHasher::cell_byte`].
    fn key_hash(&self, key: u32) -> u32;
}

/// Gustavson's table lookups (mirror of `shaders/lookup.wgsl`): `P(i) = perm[i & 255]`,
/// `T(a, b) = P(a + P(b))`, and Perlin's nested chain per lattice point.
impl PermutationTables {
    /// `T(a, b)`: two permutation steps.
    #[inline(always)]
    pub(crate) fn hash2(&self, a: u32, b: u32) -> u32 {
        texel_2d(&self.hash_grad3, a, b)[0] as u32
    }

    /// `grad3[T(a, b) % 12]`.
    #[inline(always)]
    pub(crate) fn grad3_at<R: Real>(&self, a: u32, b: u32) -> [R; 3] {
        let t = texel_2d(&self.hash_grad3, a, b);
        [unbias(t[1]), unbias(t[2]), unbias(t[3])]
    }

    /// `grad4[T(a, b) % 32]`.
    #[inline(always)]
    pub(crate) fn grad4_at<R: Real>(&self, a: u32, b: u32) -> [R; 4] {
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

    /// The texel the chain reaches, `a + 256 b'` with `b' = b`, `b + P(c)`, `b + T(c, d)`:
    /// the gradient is stored there and the hash is `T(a, b')`, its first channel.
    #[inline(always)]
    fn lattice_key(&self, point: &[u32]) -> u32 {
        let (a, b) = match *point {
            [a, b] => (a, b),
            [a, b, c] => (a, b + self.perm1(c)),
            [a, b, c, d] => (a, b + self.hash2(c, d)),
            _ => panic!("lattice_key takes 2, 3 or 4 coordinates, not {}", point.len()),
        };
        (a & 255) | ((b & 255) << 8)
    }

    #[inline(always)]
    fn key_grad2<R: Real>(&self, key: u32) -> [R; 2] {
        let g = self.grad3_at(key & 255, key >> 8);
        [g[0], g[1]]
    }

    #[inline(always)]
    fn key_grad3<R: Real>(&self, key: u32) -> [R; 3] {
        self.grad3_at(key & 255, key >> 8)
    }

    #[inline(always)]
    fn key_grad4<R: Real>(&self, key: u32) -> [R; 4] {
        self.grad4_at(key & 255, key >> 8)
    }

    #[inline(always)]
    fn key_hash(&self, key: u32) -> u32 {
        self.hash2(key & 255, key >> 8)
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
/// Each lattice point is hashed once, whole: its coordinates mod 256 are weighted by
/// [`HASH_PRIMES`] and xor-combined with [`IntegerHasher::key`] (the low 24 bits of a
/// SplitMix64 draw from the seed) in bits 8 to 31, as FastNoise2 combines a corner, and the
/// sum is mixed by [`point_mix`]. The point's hash picks the gradient with its top bits and
/// places a cell's feature with its bytes. The 4D traversal order is computed by rank
/// counting. Equal integer arithmetic on both sides makes CPU and GPU agree bit for bit.
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

    /// The seed's word in the combination: the key above the low 8 bits.
    #[inline(always)]
    pub fn seed_word(&self) -> u32 {
        self.key << 8
    }

    /// The hash of the 2D lattice point `(a, b)`.
    #[inline(always)]
    pub fn point_hash2(&self, a: u32, b: u32) -> u32 {
        point_mix(self.seed_word() ^ weighted(0, a) ^ weighted(1, b))
    }

    /// The hash of the 3D lattice point `(a, b, c)`.
    #[inline(always)]
    pub fn point_hash3(&self, a: u32, b: u32, c: u32) -> u32 {
        point_mix(self.seed_word() ^ weighted(0, a) ^ weighted(1, b) ^ weighted(2, c))
    }

    /// The hash of the 4D lattice point `(a, b, c, d)`.
    #[inline(always)]
    pub fn point_hash4(&self, a: u32, b: u32, c: u32, d: u32) -> u32 {
        point_mix(
            self.seed_word() ^ weighted(0, a) ^ weighted(1, b) ^ weighted(2, c) ^ weighted(3, d),
        )
    }
}

/// The odd primes that weight a lattice point's x, y, z and w before they are xor-combined
/// (FastNoise2's, so that one coordinate step changes many bits of the combination).
pub const HASH_PRIMES: [u32; 4] = [501_125_321, 1_136_930_381, 1_720_413_743, 1_066_037_191];

/// Coordinate `c` of axis `axis`, reduced mod 256 (the lookups' period) and weighted.
#[inline(always)]
pub fn weighted(axis: usize, c: u32) -> u32 {
    (c & 255).wrapping_mul(HASH_PRIMES[axis])
}

/// The mix of a combined lattice point: a multiply (FastNoise2's `0x27d4eb2d`) that carries
/// the low bits up, then the second half of Wellons' `lowbias32` (xorshift, multiply,
/// xorshift), which carries the high bits down; with the multiply alone, the neighbours'
/// 4D gradient indices and every low bit fail `tests/reference/hash_quality.rs`.
#[inline(always)]
pub fn point_mix(v: u32) -> u32 {
    let mut h = v.wrapping_mul(0x27d4_eb2d);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846c_a68b);
    h ^ (h >> 16)
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
/// slots 0 to 3 are the bytes of `h` from the top, slot 4 the top byte of `h · 0x9E3779B9`
/// (a bijection of all 32 bits: 4D cells use every byte of `h` for the jitter).
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

    #[inline(always)]
    fn simplex4_order(&self, c: u32) -> [u32; 4] {
        rank_order(c)
    }

    /// The point's hash: the gradient is decoded from it.
    #[inline(always)]
    fn lattice_key(&self, point: &[u32]) -> u32 {
        self.cell_hash(point)
    }

    #[inline(always)]
    fn key_grad2<R: Real>(&self, key: u32) -> [R; 2] {
        let g = grad3_of_index::<R>(grad3_index(key));
        [g[0], g[1]]
    }

    #[inline(always)]
    fn key_grad3<R: Real>(&self, key: u32) -> [R; 3] {
        grad3_of_index(grad3_index(key))
    }

    #[inline(always)]
    fn key_grad4<R: Real>(&self, key: u32) -> [R; 4] {
        grad4_of_index(grad4_index(key))
    }

    #[inline(always)]
    fn key_hash(&self, key: u32) -> u32 {
        key
    }
}

/// The 4D traversal order of comparison code `c` by rank counting: each axis's rank is the
/// number of comparisons it wins (bits 32 to 1 of `c`: x > y, x > z, y > z, x > w, y > w,
/// z > w). For every code real numbers give, this is [`crate::tables::SIMPLEX4_ORDER`].
#[inline(always)]
pub fn rank_order(c: u32) -> [u32; 4] {
    let bit = |v: u32| (c & v != 0) as u32;
    let (xy, xz, yz, xw, yw, zw) = (bit(32), bit(16), bit(8), bit(4), bit(2), bit(1));
    [
        xy + xz + xw,
        (1 - xy) + yz + yw,
        (1 - xz) + (1 - yz) + zw,
        (1 - xw) + (1 - yw) + (1 - zw),
    ]
}

/// The comparison codes (as [`rank_order`] reads them) that four real numbers can give:
/// every ordering, ties included.
pub fn reachable_comparison_codes() -> impl Iterator<Item = u32> {
    (0..256u32).map(|k| {
        let [x, y, z, w] = [k & 3, (k >> 2) & 3, (k >> 4) & 3, k >> 6];
        let gt = |a: u32, b: u32, bit: u32| if a > b { bit } else { 0 };
        gt(x, y, 32) | gt(x, z, 16) | gt(y, z, 8) | gt(x, w, 4) | gt(y, w, 2) | gt(z, w, 1)
    })
}

/// [`PermutationTables`] repacked for gathers, in fixed-size arrays so a masked index needs
/// no bounds check: a `hash_grad3` texel as `T(a, b) | n << 8` with `n` its gradient's
/// `GRAD3` index, a `grad4` texel as its gradient's `GRAD4` index (the lanes' `Grad3` and
/// `Grad4`). Kept by [`TableLookup`], so that each fill does not pack them again.
#[derive(Clone)]
pub struct PackedWords {
    pub hash_grad3: Box<[u32; 65536]>,
    pub grad4: Box<[u32; 65536]>,
    pub(crate) perm: [u32; 256],
}

impl std::fmt::Debug for PackedWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PackedWords").finish_non_exhaustive()
    }
}

/// The index of each gradient of `gradients` by its biased texel bytes (`c + 1` each, so
/// 0 to 2), read as a base-3 number; `u32::MAX` for bytes that are no gradient of the set.
fn gradient_indices<const N: usize>(gradients: &[[i8; N]]) -> Vec<u32> {
    let mut index = vec![u32::MAX; 3usize.pow(N as u32)];
    for (n, g) in gradients.iter().enumerate() {
        index[g.iter().fold(0, |k, &c| 3 * k + (c + 1) as usize)] = n as u32;
    }
    index
}

/// The gradient index of biased texel bytes in the table of [`gradient_indices`], if they
/// are one of its gradients.
fn gradient_index(index: &[u32], bytes: &[u8]) -> Option<u32> {
    let key = bytes
        .iter()
        .try_fold(0, |k, &b| (b < 3).then_some(3 * k + b as usize))?;
    Some(index[key]).filter(|&n| n != u32::MAX)
}

impl PackedWords {
    /// Packs `tables` (512 KiB, so made once per lookup and kept), or `None` if a texel's
    /// gradient is not one of [`GRAD3`] / [`GRAD4`], or
    /// the 4D traversal table is not the rank order for a comparison code real numbers give
    /// (edited tables): the lanes decode gradients from their indices and rank the 4D
    /// offsets by counting.
    pub fn new(tables: &PermutationTables) -> Option<Self> {
        let rank_ordered = reachable_comparison_codes()
            .all(|c| tables.simplex4[c as usize].map(u32::from) == rank_order(c));
        if !rank_ordered {
            return None;
        }
        let to_array = |words: Vec<u32>| -> Box<[u32; 65536]> {
            words
                .into_boxed_slice()
                .try_into()
                .expect("the tables are 256×256 texels")
        };
        let (index3, index4) = (gradient_indices(&GRAD3), gradient_indices(&GRAD4));
        let hash_grad3 = tables
            .hash_grad3
            .iter()
            .map(|t| Some(u32::from(t[0]) | gradient_index(&index3, &t[1..])? << 8))
            .collect::<Option<Vec<u32>>>()?;
        let grad4 = tables
            .grad4
            .iter()
            .map(|t| gradient_index(&index4, t))
            .collect::<Option<Vec<u32>>>()?;
        Some(PackedWords {
            hash_grad3: to_array(hash_grad3),
            grad4: to_array(grad4),
            perm: tables.perm.map(u32::from),
        })
    }
}
