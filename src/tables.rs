//! The lookup tables of Gustavson's noise, built in one place.
//!
//! Everything that depends on the permutation is derived here: the CPU reference reads
//! the very same packed texels ([`PermutationTables`]) that the GPU host uploads as textures,
//! so a mismatch between the two paths can only come from the noise code itself.
//!
//! # Texture layout (keep in sync with `shaders/lookup.wgsl`)
//!
//! Let `P(i) = perm[i & 255]` and `T(a, b) = P(a + P(b))`. Gustavson's hashes are chains
//! of `P`, and `T` folds two links of a chain into one fetch:
//!
//! The four textures, their bindings, sizes and texel meanings are tabulated once, as the
//! texture contract in docs/embedding.md ([`crate::embed::contract`] derives it from this
//! module and the shader):
//! `hash_grad3` holds `T(a, b)` and `grad3[T(a, b) % 12]` at texel (a, b) (256×256),
//! `grad4` holds `grad4[T(a, b) % 32]` (256×256), `perm` holds `P(a)` at (a, 0) (256×1),
//! `simplex4` the 4D traversal order at (c, 0) (64×1).
//!
//! All four are 2D textures (`texture_2d<u32>`): OpenGL ES has no 1D textures, and wgpu's
//! GL backend read 1D ones back wrong (docs/backends.md).
//!
//! Gradient components are in {-1, 0, 1} and stored with a bias of +1, so that an
//! unsigned 8-bit integer format holds them and the shader decodes them exactly
//! (`f32(texel) - 1.0`); normalised formats would decode by /255 and be inexact.
//!
//! With these, `perm[ii+perm[jj]]` = `T(ii, jj)` (one fetch),
//! `perm[ii+perm[jj+perm[kk]]]` = `T(ii, jj + P(kk))` (two fetches) and
//! `perm[ii+perm[jj+perm[kk+perm[ll]]]]` = `T(ii, jj + T(kk, ll))` (two fetches).

/// Ken Perlin's reference permutation, as listed in Gustavson's Java code.
/// It is the permutation of seed 0, the default.
pub const PERLIN_PERMUTATION: [u8; 256] = [
    151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30, 69,
    142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219,
    203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175,
    74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60, 211, 133, 230,
    220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1, 216, 80, 73, 209, 76,
    132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173,
    186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212, 207, 206,
    59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213, 119, 248, 152, 2, 44, 154, 163,
    70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232,
    178, 185, 112, 104, 218, 246, 97, 228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162,
    241, 81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181, 199, 106, 157, 184, 84, 204,
    176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141,
    128, 195, 78, 66, 215, 61, 156, 180,
];

/// The 12 gradients of 3D noise (midpoints of a cube's edges); 2D noise uses their x, y.
pub const GRAD3: [[i8; 3]; 12] = [
    [1, 1, 0],
    [-1, 1, 0],
    [1, -1, 0],
    [-1, -1, 0],
    [1, 0, 1],
    [-1, 0, 1],
    [1, 0, -1],
    [-1, 0, -1],
    [0, 1, 1],
    [0, -1, 1],
    [0, 1, -1],
    [0, -1, -1],
];

/// The 32 gradients of 4D noise (midpoints of a tesseract's edges).
pub const GRAD4: [[i8; 4]; 32] = [
    [0, 1, 1, 1],
    [0, 1, 1, -1],
    [0, 1, -1, 1],
    [0, 1, -1, -1],
    [0, -1, 1, 1],
    [0, -1, 1, -1],
    [0, -1, -1, 1],
    [0, -1, -1, -1],
    [1, 0, 1, 1],
    [1, 0, 1, -1],
    [1, 0, -1, 1],
    [1, 0, -1, -1],
    [-1, 0, 1, 1],
    [-1, 0, 1, -1],
    [-1, 0, -1, 1],
    [-1, 0, -1, -1],
    [1, 1, 0, 1],
    [1, 1, 0, -1],
    [1, -1, 0, 1],
    [1, -1, 0, -1],
    [-1, 1, 0, 1],
    [-1, 1, 0, -1],
    [-1, -1, 0, 1],
    [-1, -1, 0, -1],
    [1, 1, 1, 0],
    [1, 1, -1, 0],
    [1, -1, 1, 0],
    [1, -1, -1, 0],
    [-1, 1, 1, 0],
    [-1, 1, -1, 0],
    [-1, -1, 1, 0],
    [-1, -1, -1, 0],
];

/// Gustavson's 4D simplex traversal table, indexed by six pairwise comparisons
/// (x>y: 32, x>z: 16, y>z: 8, x>w: 4, y>w: 2, z>w: 1). Entry `c` ranks the four axes:
/// 3 marks the largest offset, 0 the smallest. Rows of zeros are impossible orderings.
pub const SIMPLEX4_ORDER: [[u8; 4]; 64] = [
    [0, 1, 2, 3],
    [0, 1, 3, 2],
    [0, 0, 0, 0],
    [0, 2, 3, 1],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [1, 2, 3, 0],
    [0, 2, 1, 3],
    [0, 0, 0, 0],
    [0, 3, 1, 2],
    [0, 3, 2, 1],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [1, 3, 2, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [1, 2, 0, 3],
    [0, 0, 0, 0],
    [1, 3, 0, 2],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [2, 3, 0, 1],
    [2, 3, 1, 0],
    [1, 0, 2, 3],
    [1, 0, 3, 2],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [2, 0, 3, 1],
    [0, 0, 0, 0],
    [2, 1, 3, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [2, 0, 1, 3],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [3, 0, 1, 2],
    [3, 0, 2, 1],
    [0, 0, 0, 0],
    [3, 1, 2, 0],
    [2, 1, 0, 3],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [3, 1, 0, 2],
    [0, 0, 0, 0],
    [3, 2, 0, 1],
    [3, 2, 1, 0],
];

/// Side of the square lookup textures and the lattice period of every noise function.
pub const PERIOD: u32 = 256;

/// A 256-entry permutation of 0..=255 chosen by a seed.
///
/// Seed 0 is Ken Perlin's reference permutation ([`PERLIN_PERMUTATION`]), so the default
/// output equals Gustavson's Java code. Any other seed shuffles that permutation with a
/// Fisher–Yates shuffle driven by SplitMix64 (written out below, with no dependency), so a
/// seed gives the same pattern on every platform and in every future version.
pub fn permutation_for_seed(seed: u64) -> [u8; 256] {
    let mut perm = PERLIN_PERMUTATION;
    if seed == 0 {
        return perm;
    }
    let mut rng = SplitMix64(seed);
    for i in (1..perm.len()).rev() {
        // Multiply-shift maps 32 random bits onto 0..=i; the bias (< 2^-24) is irrelevant
        // for a shuffle and the mapping is exact integer arithmetic everywhere.
        let j = (((rng.next() >> 32) * (i as u64 + 1)) >> 32) as usize;
        perm.swap(i, j);
    }
    perm
}

/// The 24-bit key of the computational (hash) lookup variant for `seed`: the first
/// SplitMix64 draw from the seed, top 24 bits (see `cpu::IntegerHasher`).
pub fn hash_key_for_seed(seed: u64) -> u32 {
    (SplitMix64(seed).next() >> 40) as u32
}

/// SplitMix64 (Steele, Lea, Flood 2014): the seeding PRNG, frozen here on purpose.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The packed texels of every lookup texture for one seed.
///
/// The GPU host uploads these arrays byte for byte; the CPU reference
/// (`cpu::lookup`) fetches from them with the same integer coordinates as the
/// shader's `textureLoad`s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermutationTables {
    seed: u64,
    /// `hash_grad3` texels, row-major (y outer, x inner), 256×256.
    pub hash_grad3: Vec<[u8; 4]>,
    /// `grad4` texels, row-major (y outer, x inner), 256×256.
    pub grad4: Vec<[u8; 4]>,
    /// `perm` texels: `P(a)`.
    pub perm: [u8; 256],
    /// `simplex4` texels: `SIMPLEX4_ORDER`.
    pub simplex4: [[u8; 4]; 64],
}

impl PermutationTables {
    /// Builds the tables of a seed (0 = Perlin's permutation, as in Gustavson's code).
    pub fn new(seed: u64) -> Self {
        let perm = permutation_for_seed(seed);
        let p = |i: usize| perm[i & 255] as usize;
        let side = PERIOD as usize;
        let mut hash_grad3 = Vec::with_capacity(side * side);
        let mut grad4 = Vec::with_capacity(side * side);
        for b in 0..side {
            for a in 0..side {
                let hash = p(a + p(b));
                hash_grad3.push(pack_with_hash(hash as u8, GRAD3[hash % 12]));
                grad4.push(bias(GRAD4[hash % 32]));
            }
        }
        Self {
            seed,
            hash_grad3,
            grad4,
            perm,
            simplex4: SIMPLEX4_ORDER,
        }
    }

    /// The seed these tables were built from.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

impl Default for PermutationTables {
    /// Perlin's permutation (seed 0).
    fn default() -> Self {
        Self::new(0)
    }
}

/// Stores gradient components in {-1, 0, 1} as {0, 1, 2}.
fn bias<const N: usize>(g: [i8; N]) -> [u8; N] {
    g.map(|c| (c + 1) as u8)
}

fn pack_with_hash(hash: u8, g: [i8; 3]) -> [u8; 4] {
    let [x, y, z] = bias(g);
    [hash, x, y, z]
}

// Simplex lattice constants: used by the CPU mirror (`cpu::simplex`) and by `Field`'s
// offset reduction, so they live below both.

/// Skew factor of 2D simplex noise, `(sqrt(3) - 1) / 2`.
pub const SIMPLEX2_F: f64 = 0.3660254037844386;
/// Unskew factor of 2D simplex noise, `(3 - sqrt(3)) / 6`.
pub const SIMPLEX2_G: f64 = 0.21132486540518713;
/// Skew factor of 3D simplex noise, `1 / 3`.
pub const SIMPLEX3_F: f64 = 1.0 / 3.0;
/// Unskew factor of 3D simplex noise, `1 / 6`.
pub const SIMPLEX3_G: f64 = 1.0 / 6.0;
/// Skew factor of 4D simplex noise, `(sqrt(5) - 1) / 4`.
pub const SIMPLEX4_F: f64 = 0.30901699437494745;
/// Unskew factor of 4D simplex noise, `(5 - sqrt(5)) / 20`.
pub const SIMPLEX4_G: f64 = 0.1381966011250105;

/// The skew and unskew factors `(F, G)` of simplex noise in `dims` (2 to 4) dimensions.
pub fn skew_factors(dims: usize) -> (f64, f64) {
    match dims {
        2 => (SIMPLEX2_F, SIMPLEX2_G),
        3 => (SIMPLEX3_F, SIMPLEX3_G),
        _ => (SIMPLEX4_F, SIMPLEX4_G),
    }
}
