//! Lane arrays: `LANES` values side by side (or [`HALF`] of them, for the noises an ISA runs
//! in half blocks: [`Isa::HALF_BLOCKS`]), every operation a plain loop over the lanes.
//!
//! Compiled inside a `#[target_feature]` function (see `dispatch` in the parent module) each loop becomes
//! one or a few vector instructions (16 lanes = one AVX-512 register, two AVX2, four SSE2 or
//! NEON). Each lane performs exactly the `f32`/`u32` operation the scalar reference performs,
//! in the same order (Rust never contracts `a * b + c` into a fused multiply-add), so a lane's
//! result equals the scalar result bit for bit.

use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Shl, Shr, Sub};

/// Number of samples evaluated together.
pub const LANES: usize = 16;

/// `N` `f32` values (`LANES` but in half blocks).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct F<const N: usize = LANES>(pub [f32; N]);

/// `N` `u32` values (integer lattice arithmetic and comparison results: 1 = true).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct U<const N: usize = LANES>(pub [u32; N]);

impl<const N: usize> F<N> {
    /// Every lane `v`.
    #[inline(always)]
    pub fn splat(v: f32) -> F<N> {
        F([v; N])
    }

    /// Lane-wise `f(self)`.
    #[inline(always)]
    pub fn map(self, f: impl Fn(f32) -> f32) -> F<N> {
        F(self.0.map(f))
    }

    /// Lane-wise `f(self, other)`.
    #[inline(always)]
    pub fn zip(self, other: F<N>, f: impl Fn(f32, f32) -> f32) -> F<N> {
        F(std::array::from_fn(|i| f(self.0[i], other.0[i])))
    }

    /// Lane-wise comparison `self > other` (1 or 0).
    #[inline(always)]
    pub fn gt(self, other: F<N>) -> U<N> {
        U(std::array::from_fn(|i| (self.0[i] > other.0[i]) as u32))
    }

    /// Lane-wise comparison `self >= other` (1 or 0).
    #[inline(always)]
    pub fn ge(self, other: F<N>) -> U<N> {
        U(std::array::from_fn(|i| (self.0[i] >= other.0[i]) as u32))
    }

    /// Lane-wise comparison `self < other` (1 or 0).
    #[inline(always)]
    pub fn lt(self, other: F<N>) -> U<N> {
        U(std::array::from_fn(|i| (self.0[i] < other.0[i]) as u32))
    }

    /// Lane-wise `f32::max` (the scalar reference's `Real::max`).
    #[inline(always)]
    pub fn max(self, other: F<N>) -> F<N> {
        self.zip(other, f32::max)
    }

    /// Lane-wise `f32::sqrt` (correctly rounded, as the scalar root taken in `f64` and
    /// rounded to `f32`).
    #[inline(always)]
    pub fn sqrt(self) -> F<N> {
        self.map(f32::sqrt)
    }

    /// Lane-wise `f32::abs`.
    #[inline(always)]
    pub fn abs(self) -> F<N> {
        self.map(f32::abs)
    }

    /// Lane-wise `f32::clamp`, written out (`clamp` asserts `lo <= hi`, a branch per lane).
    #[inline(always)]
    pub fn clamp(self, lo: f32, hi: f32) -> F<N> {
        self.map(|v| {
            let v = if v < lo { lo } else { v };
            if v > hi {
                hi
            } else {
                v
            }
        })
    }

    /// Writes the first `out.len()` lanes (at most `N`) to `out`: a full chunk as one
    /// store, a row's last, shorter chunk with a copy of its length in a function of its
    /// own. Inline, LLVM merges the two into one `memcpy` call of a selected length: a
    /// call for every chunk.
    #[inline(always)]
    pub fn store(self, out: &mut [f32]) {
        match <&mut [f32; N]>::try_from(&mut *out) {
            Ok(full) => *full = self.0,
            Err(_) => store_short(&self.0, out),
        }
    }

    /// Lane-wise `f32::to_bits`.
    #[inline(always)]
    pub fn to_bits(self) -> U<N> {
        U(self.0.map(f32::to_bits))
    }

    /// Saturating conversion to `u32` (`as`: NaN -> 0), as the scalar `to_f64() as u32`
    /// (widening to `f64` is exact, so converting from `f32` directly is the same).
    #[inline(always)]
    pub fn to_u32(self) -> U<N> {
        U(self.0.map(|v| v as u32))
    }

    /// The scalar `wrap256` of lanes that are whole numbers (or infinite, or NaN): a whole
    /// number's low 8 bits as a two's-complement integer are its floored residue mod 256.
    /// Whole `f32`s of magnitude 2³¹ or more are multiples of 256 (they are that far
    /// apart), so their residue is 0, as the scalar gives for them, ±∞ and NaN. A
    /// comparison, a conversion and a mask, where the scalar's division, floor, multiply
    /// and subtraction would be 8 vector instructions per axis.
    #[inline(always)]
    pub fn whole_low8(self) -> U<N> {
        U(self.0.map(|v| {
            if v.abs() < 2_147_483_648.0 {
                // SAFETY: |v| < 2³¹, so its truncation fits an i32.
                (unsafe { v.to_int_unchecked::<i32>() } as u32) & 255
            } else {
                0
            }
        }))
    }

    /// [`F::to_u32`] of lanes clamped to `[0, HIGH]`: NaN and negative lanes 0, as `as` gives,
    /// lanes above `HIGH` `HIGH`. Clamped by selections and converted without saturation,
    /// because LLVM turns Rust's saturating `as` into a compare, a conditional move and a
    /// scalar conversion per lane, this into one vector conversion. Callers pick `HIGH` so
    /// that their lanes never reach it or that it is the answer for them.
    #[inline(always)]
    pub fn clamped_to_u32<const HIGH: u32>(self) -> U<N> {
        // Every whole number up to the largest f32 below 2³¹ is converted exactly below.
        const { assert!(HIGH <= 2_147_483_520 && HIGH as f32 as u32 == HIGH) };
        let high = HIGH as f32;
        U(self.0.map(|v| {
            let v = if v >= 0.0 { v } else { 0.0 };
            let v = if v <= high { v } else { high };
            // SAFETY: v is finite and in [0, HIGH], below 2³¹, so it fits an i32.
            unsafe { v.to_int_unchecked::<i32>() as u32 }
        }))
    }
}

/// The first `out.len()` lanes of `lanes` to `out` (see [`F::store`]).
#[cold]
#[inline(never)]
fn store_short<const N: usize>(lanes: &[f32; N], out: &mut [f32]) {
    out.copy_from_slice(&lanes[..out.len()]);
}

impl<const N: usize> U<N> {
    /// Every lane `v`.
    #[inline(always)]
    pub fn splat(v: u32) -> U<N> {
        U([v; N])
    }

    /// Lane-wise `f(self)`.
    #[inline(always)]
    pub fn map(self, f: impl Fn(u32) -> u32) -> U<N> {
        U(self.0.map(f))
    }

    /// The same lanes, kept in memory as one array: a seam for LLVM's SLP vectoriser,
    /// whose search from each store back through the operations is depth-limited. Long
    /// integer chains (the hash) that it would otherwise leave scalar start again here as
    /// one 16-lane store (a store and a load of 64 bytes, in L1). The slot is the whole
    /// aligned `U`: a bare array's slot may straddle two cache lines, where the load cannot
    /// take its value from the store in flight (it halved the warped classic hash fill).
    #[inline(always)]
    pub fn seam(self) -> U<N> {
        std::hint::black_box(self)
    }

    /// Whether any lane is nonzero (for a comparison result: true on any lane).
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0.iter().any(|&v| v != 0)
    }

    /// Lane-wise `self >= v` (1 or 0).
    #[inline(always)]
    pub fn ge_u32(self, v: u32) -> U<N> {
        self.map(|a| (a >= v) as u32)
    }

    /// Lane-wise `self as f32` (exact for the small values used here).
    #[inline(always)]
    pub fn to_f32(self) -> F<N> {
        F(self.0.map(|v| v as f32))
    }

    /// Lane-wise `f32::from_bits`.
    // Named after the scalar function it applies to each lane, as `to_bits` is.
    #[allow(clippy::wrong_self_convention)]
    #[inline(always)]
    pub fn from_bits(self) -> F<N> {
        F(self.0.map(f32::from_bits))
    }

    /// Lane-wise `self * m` (wrapping).
    #[inline(always)]
    pub fn wrapping_mul(self, m: u32) -> U<N> {
        self.map(|v| v.wrapping_mul(m))
    }

    /// Lane-wise `self == v` (1 or 0).
    #[inline(always)]
    pub fn eq(self, v: u32) -> U<N> {
        self.map(|a| (a == v) as u32)
    }

    /// Lane-wise `if self != 0 { a } else { b }`: branch-free selection.
    #[inline(always)]
    pub fn select(self, a: U<N>, b: U<N>) -> U<N> {
        U(std::array::from_fn(|i| {
            if self.0[i] != 0 {
                a.0[i]
            } else {
                b.0[i]
            }
        }))
    }

    /// Lane-wise `if self != 0 { a } else { b }` for `f32` lanes.
    #[inline(always)]
    pub fn select_f(self, a: F<N>, b: F<N>) -> F<N> {
        F(std::array::from_fn(|i| {
            if self.0[i] != 0 {
                a.0[i]
            } else {
                b.0[i]
            }
        }))
    }
}

macro_rules! binary_ops {
    ($ty:ident, $scalar:ty, $($tr:ident $method:ident $op:tt),*) => {$(
        impl<const N: usize> $tr for $ty<N> {
            type Output = $ty<N>;
            #[inline(always)]
            fn $method(self, o: $ty<N>) -> $ty<N> {
                $ty(std::array::from_fn(|i| self.0[i] $op o.0[i]))
            }
        }
        impl<const N: usize> $tr<$scalar> for $ty<N> {
            type Output = $ty<N>;
            #[inline(always)]
            fn $method(self, o: $scalar) -> $ty<N> {
                $ty(self.0.map(|v| v $op o))
            }
        }
        impl<const N: usize> $tr<$ty<N>> for $scalar {
            type Output = $ty<N>;
            #[inline(always)]
            fn $method(self, o: $ty<N>) -> $ty<N> {
                $ty(o.0.map(|v| self $op v))
            }
        }
    )*};
}

binary_ops!(F, f32, Add add +, Sub sub -, Mul mul *, Div div /);

impl<const N: usize> Neg for F<N> {
    type Output = F<N>;
    #[inline(always)]
    fn neg(self) -> F<N> {
        self.map(|v| -v)
    }
}

// Integer lanes: the lattice indices and hashes stay far below 2³², so `+` never wraps in
// the reference either; `wrapping_add` keeps the lanes free of overflow checks.
impl<const N: usize> Add for U<N> {
    type Output = U<N>;
    #[inline(always)]
    fn add(self, o: U<N>) -> U<N> {
        U(std::array::from_fn(|i| self.0[i].wrapping_add(o.0[i])))
    }
}

impl<const N: usize> Add<u32> for U<N> {
    type Output = U<N>;
    #[inline(always)]
    fn add(self, o: u32) -> U<N> {
        self.map(|v| v.wrapping_add(o))
    }
}

impl<const N: usize> Sub for U<N> {
    type Output = U<N>;
    #[inline(always)]
    fn sub(self, o: U<N>) -> U<N> {
        U(std::array::from_fn(|i| self.0[i].wrapping_sub(o.0[i])))
    }
}

impl<const N: usize> Sub<U<N>> for u32 {
    type Output = U<N>;
    #[inline(always)]
    fn sub(self, o: U<N>) -> U<N> {
        o.map(|v| self.wrapping_sub(v))
    }
}

/// Lane-wise wrapping product (the hash's multiplications).
impl<const N: usize> Mul for U<N> {
    type Output = U<N>;
    #[inline(always)]
    fn mul(self, o: U<N>) -> U<N> {
        U(std::array::from_fn(|i| self.0[i].wrapping_mul(o.0[i])))
    }
}

macro_rules! int_ops {
    ($($tr:ident $method:ident $op:tt),*) => {$(
        impl<const N: usize> $tr for U<N> {
            type Output = U<N>;
            #[inline(always)]
            fn $method(self, o: U<N>) -> U<N> {
                U(std::array::from_fn(|i| self.0[i] $op o.0[i]))
            }
        }
        impl<const N: usize> $tr<u32> for U<N> {
            type Output = U<N>;
            #[inline(always)]
            fn $method(self, o: u32) -> U<N> {
                self.map(|v| v $op o)
            }
        }
    )*};
}

int_ops!(BitAnd bitand &, BitOr bitor |, BitXor bitxor ^, Shr shr >>, Shl shl <<);

/// What an instruction set does its own way: `floor` (one instruction where the ISA has it:
/// SSE4.1 `roundps`, AVX-512 `vrndscaleps`, NEON `frintm`; otherwise from a truncating
/// conversion), reading short tables per lane (register permutes where the ISA has them),
/// the cell wraps and the hash's multiplies.
///
/// The tables are blocked: entry `e` of table `t` (of `tables`) at
/// `(e / BLOCK * tables + t) * BLOCK + e % BLOCK`, so that one register's window of entries
/// is two blocks `tables * BLOCK` apart, at offsets known when the code is compiled.
pub trait Isa: Copy {
    /// Whether this ISA reads tables with register permutes ([`Isa::window`],
    /// [`Isa::read`]); without them the lanes look up their own cells (reading a table
    /// lane by lane costs more than the lookups it saves).
    const PERMUTES: bool = false;

    /// Entries per block of the tables this ISA reads (its register's lanes).
    const BLOCK: usize = LANES;

    /// Which flag fills evaluate two chunks of a row at once with this ISA (`fractal` in
    /// `simd/mod.rs`). AVX-512 has 32 registers, a chunk's lanes one of them: every fill.
    /// AVX2 holds a chunk in two of its 16: the hash's only, as two chunks of the texture
    /// variant's spill registers.
    const PAIRS: Pairing = Pairing::Never;

    /// Whether the noise with the most live values, 3D OpenSimplex2S, runs each block as
    /// two blocks of [`HALF`] lanes ([`halves`], [`joined`]): AVX2, whose sixteen
    /// registers hold a half's values where a whole block's (two registers each) spill.
    /// The other noises measured no faster so (docs/node-costs.md).
    const HALF_BLOCKS: bool = false;

    /// Lane-wise `f32::floor`, bit for bit.
    fn floor<const N: usize>(x: F<N>) -> F<N>;

    /// The scalar `wrap256` (`crate::cpu::lattice::wrap256`) of whole-number cells on
    /// every lane.
    #[inline(always)]
    fn wrap256<const N: usize>(cell: F<N>) -> U<N> {
        cell.whole_low8()
    }

    /// `wrap256(cell)` where `cell` is `floor(v)` (a simplex cell: its lattice
    /// coordinate, on the hash's chain of dependent operations).
    #[inline(always)]
    fn wrap256_floor(_v: F, cell: F) -> U {
        Self::wrap256(cell)
    }

    /// Whether [`Isa::wrapping_mul`] is this ISA's own vector multiply: a chain through it
    /// is vector code whatever LLVM's SLP vectoriser finds, so it needs no [`U::seam`].
    /// AVX-512's is (it shortens the 2D and 3D simplex hash chains); AVX2's intrinsic is
    /// slower than what LLVM makes of the plain loop, so AVX2 keeps LLVM's.
    const VECTOR_MULTIPLY: bool = false;

    /// Whether the tables' hash of a 4D OpenSimplex2S walk's point goes behind a
    /// [`U::seam`] ([`super::lookup::LaneHasher::walk_hash4`]): without it LLVM's AVX-512
    /// copy gathers and unpacks the table bytes slower (4D `supersimplex` with the tables
    /// on one thread, best of ten: 215.0 ms without, 168.0 with); AVX2's is faster without
    /// (170.6, 200.8 with), SSE2 the same either way.
    const SEAM_WALK_HASH: bool = false;

    /// Lane-wise `v * m`, wrapping (the hash's mix).
    #[inline(always)]
    fn wrapping_mul(v: U, m: u32) -> U {
        v.wrapping_mul(m)
    }

    /// Lane-wise `((v >> 16) * m) >> 16`: the top 16 bits times `m`, scaled back by 2¹⁶
    /// (the hash's gradient index). A 16-bit multiply where the ISA has one: half the
    /// latency of the 32-bit one, and one µop.
    #[inline(always)]
    fn scale_top16(v: U, m: u16) -> U {
        (v >> 16).wrapping_mul(u32::from(m)) >> 16
    }

    /// Lane-wise `a + g * d` for a product `g * d` that is exact (a gradient component
    /// `g` of ±1 or 0 times an offset): one fused multiply-add where the ISA has one.
    /// Rounding an exact product leaves it as it is, so the fused sum rounds the same real
    /// number once, as the unfused one does: the two are equal bit for bit, signed zeros
    /// and overflows too.
    #[inline(always)]
    fn add_exact_product(a: F, g: F, d: F) -> F {
        a + g * d
    }

    /// Entry `n[i]` (below 48) of `table` on every lane where this ISA holds such a table
    /// in registers (AVX-512: three of them, two permutes and a blend); `None` elsewhere,
    /// where the caller computes the entry instead (reading it lane by lane costs more).
    #[inline(always)]
    fn read48<const N: usize>(_table: &[f32; 48], _n: U<N>) -> Option<F<N>> {
        None
    }

    /// Entry `n[i]` (below 32) of `table` on every lane where this ISA holds such a table
    /// in registers (AVX-512: two of them, one permute); `None` elsewhere (as
    /// [`Isa::read48`]).
    #[inline(always)]
    fn read32(_table: &[f32; 32], _n: U) -> Option<F> {
        None
    }

    /// Entry `n[i]` (below 16) of `table` on every lane where this ISA holds such a table
    /// in a register (AVX-512: one permute); `None` elsewhere (as [`Isa::read48`]).
    #[inline(always)]
    fn read16(_table: &[f32; 16], _n: U) -> Option<F> {
        None
    }

    /// Prepares [`Isa::read`] of entries `at[i]` and `at[i] + 1` of tables of `blocks`
    /// blocks, for entries `at` (whole numbers, as `f32`s) that do not decrease along the
    /// lanes; `None` where the lanes spread wider than one window, or outside the tables,
    /// and always without [`Isa::PERMUTES`].
    #[inline(always)]
    fn window(_at: F, _blocks: usize) -> Option<Window> {
        None
    }

    /// Entry `at[i] + side` of table `t` of `tables` on every lane.
    ///
    /// # Safety
    /// `window` is one [`Isa::window`] gave (so this ISA permutes), for tables of the
    /// `blocks` it was given: `blocked` holds `blocks * tables * BLOCK` entries; `t <
    /// tables`, `side <= 1`.
    #[inline(always)]
    unsafe fn read(
        _blocked: &[f32],
        _window: &Window,
        _tables: usize,
        _t: usize,
        _side: usize,
    ) -> F {
        unreachable!("an ISA without permutes gives no window to read with")
    }
}

/// Which lookups' fills an ISA runs two chunks at a time ([`Isa::PAIRS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// None.
    Never,
    /// Those whose lookup holds few registers (`LaneHasher::FEW_REGISTERS`).
    FewRegisters,
    /// Every one.
    Always,
}

/// Which entries [`Isa::read`] reads on every lane: the block at which each register's
/// window starts (the window is it and the next), and each lane's entry from there (for
/// `side` 0 and 1).
#[derive(Clone, Copy, Debug)]
pub struct Window {
    block: [usize; 2],
    at: [U; 2],
}

/// The ISA's floor, no table reads (NEON, other targets: the lanes look up their own cells).
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub struct NativeLanes;

#[cfg(not(target_arch = "x86_64"))]
impl Isa for NativeLanes {
    #[inline(always)]
    fn floor<const N: usize>(x: F<N>) -> F<N> {
        x.map(f32::floor)
    }
}

/// AVX2: the ISA's floor; table reads from blocks of 8 entries, two `vpermps` and a blend
/// for each 8-lane half.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx2Lanes;

#[cfg(target_arch = "x86_64")]
impl Isa for Avx2Lanes {
    const PERMUTES: bool = true;
    const PAIRS: Pairing = Pairing::FewRegisters;
    const BLOCK: usize = 8;
    const HALF_BLOCKS: bool = true;

    #[inline(always)]
    fn scale_top16(v: U, m: u16) -> U {
        use std::arch::x86_64::{
            __m256i, _mm256_mulhi_epu16, _mm256_set1_epi16, _mm256_srli_epi32,
        };
        // SAFETY: compiled only into the AVX2 copies, which run where the CPU has AVX2;
        // two 8-lane registers are the 16 lanes in order.
        unsafe {
            let halves = std::mem::transmute::<[u32; LANES], [__m256i; 2]>(v.0);
            let m = _mm256_set1_epi16(m as i16);
            let scaled = halves.map(|h| _mm256_srli_epi32::<16>(_mm256_mulhi_epu16(h, m)));
            U(std::mem::transmute::<[__m256i; 2], [u32; LANES]>(scaled))
        }
    }

    /// As [`Sse2Lanes::wrap256`], 8 lanes a conversion.
    #[inline(always)]
    fn wrap256<const N: usize>(cell: F<N>) -> U<N> {
        use std::arch::x86_64::{__m256i, _mm256_cvttps_epi32, _mm256_loadu_ps, _mm256_storeu_si256};
        if !N.is_multiple_of(8) {
            return cell.whole_low8();
        }
        let mut whole = U([0; N]);
        for r in 0..N / 8 {
            // SAFETY: compiled only into the AVX2 copies, which run where the CPU has AVX2;
            // register `r` is lanes `8 r` to `8 r + 7`, within the `N` lanes.
            unsafe {
                let v = _mm256_cvttps_epi32(_mm256_loadu_ps(cell.0.as_ptr().add(8 * r)));
                _mm256_storeu_si256(whole.0.as_mut_ptr().add(8 * r).cast::<__m256i>(), v);
            }
        }
        whole & 255
    }

    #[inline(always)]
    fn floor<const N: usize>(x: F<N>) -> F<N> {
        x.map(f32::floor)
    }

    #[inline(always)]
    fn window(at: F, blocks: usize) -> Option<Window> {
        let mut block = [0; 2];
        let mut start = F::splat(0.0);
        for (h, block) in block.iter_mut().enumerate() {
            let (lo, hi) = (at.0[8 * h], at.0[8 * h + 7]);
            if !(lo >= 0.0 && hi >= lo && hi < (blocks * 8) as f32) {
                return None;
            }
            *block = lo as usize / 8;
            // The half's lanes and their next entries within its block and the next.
            if *block + 1 >= blocks || hi + 1.0 - (*block * 8) as f32 > 15.0 {
                return None;
            }
            start.0[8 * h..8 * h + 8].fill((*block * 8) as f32);
        }
        // Whole numbers from 0 to 14 where the lanes ascend (others clamp to the window:
        // wrong entries, never memory outside it).
        let at = (at - start).clamped_to_u32::<255>();
        Some(Window {
            block,
            at: [at, at + 1],
        })
    }

    #[inline(always)]
    unsafe fn read(blocked: &[f32], window: &Window, tables: usize, t: usize, side: usize) -> F {
        use std::arch::x86_64::{
            __m256, __m256i, _mm256_blendv_ps, _mm256_castsi256_ps, _mm256_loadu_ps,
            _mm256_permutevar8x32_ps, _mm256_slli_epi32,
        };
        // SAFETY: 16 `u32`s and two 8-lane registers are the same 64 bytes.
        let at: [__m256i; 2] = unsafe { std::mem::transmute(window.at[side].0) };
        let mut halves = [[0.0f32; 8]; 2];
        for (h, half) in halves.iter_mut().enumerate() {
            // SAFETY: compiled only into the AVX2 copies, which run where the CPU has AVX2;
            // `window` checked that the block and the next are within the tables, and the
            // caller that the tables hold them.
            *half = unsafe {
                let p = blocked.as_ptr().add((window.block[h] * tables + t) * 8);
                let lo = _mm256_permutevar8x32_ps(_mm256_loadu_ps(p), at[h]);
                let hi = _mm256_permutevar8x32_ps(_mm256_loadu_ps(p.add(tables * 8)), at[h]);
                // Entries 8 to 15 (bit 3) from the next block.
                let upper = _mm256_castsi256_ps(_mm256_slli_epi32::<28>(at[h]));
                std::mem::transmute::<__m256, [f32; 8]>(_mm256_blendv_ps(lo, hi, upper))
            };
        }
        // SAFETY: two 8-lane halves are the 16 lanes in order.
        F(unsafe { std::mem::transmute::<[[f32; 8]; 2], [f32; LANES]>(halves) })
    }
}

/// AVX-512: the ISA's floor; table reads from blocks of 16 entries, one two-register
/// permute (`vpermt2ps`) each.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx512Lanes;

#[cfg(target_arch = "x86_64")]
impl Isa for Avx512Lanes {
    const PERMUTES: bool = true;
    const PAIRS: Pairing = Pairing::Always;
    const VECTOR_MULTIPLY: bool = true;
    const SEAM_WALK_HASH: bool = true;

    #[inline(always)]
    fn wrapping_mul(v: U, m: u32) -> U {
        use std::arch::x86_64::{__m512i, _mm512_mullo_epi32, _mm512_set1_epi32};
        // SAFETY: compiled only into the AVX-512 copies, which run where the CPU has
        // AVX-512 F; a register is the 16 lanes.
        unsafe {
            let v = std::mem::transmute::<[u32; LANES], __m512i>(v.0);
            let product = _mm512_mullo_epi32(v, _mm512_set1_epi32(m as i32));
            U(std::mem::transmute::<__m512i, [u32; LANES]>(product))
        }
    }

    #[inline(always)]
    fn scale_top16(v: U, m: u16) -> U {
        use std::arch::x86_64::{
            __m512i, _mm512_mulhi_epu16, _mm512_set1_epi16, _mm512_srli_epi32,
        };
        // SAFETY: compiled only into the AVX-512 copies, which run where the CPU has
        // AVX-512 BW; a register is the 16 lanes.
        unsafe {
            let v = std::mem::transmute::<[u32; LANES], __m512i>(v.0);
            let scaled =
                _mm512_srli_epi32::<16>(_mm512_mulhi_epu16(v, _mm512_set1_epi16(m as i16)));
            U(std::mem::transmute::<__m512i, [u32; LANES]>(scaled))
        }
    }

    /// As [`Sse2Lanes::wrap256`], one conversion.
    #[inline(always)]
    fn wrap256<const N: usize>(cell: F<N>) -> U<N> {
        use std::arch::x86_64::{_mm512_cvttps_epi32, _mm512_loadu_ps, _mm512_storeu_si512};
        if N != LANES {
            return cell.whole_low8();
        }
        let mut whole = U([0; N]);
        // SAFETY: compiled only into the AVX-512 copies, which run where the CPU has
        // AVX-512 F; a register is the 16 lanes.
        unsafe {
            let v = _mm512_cvttps_epi32(_mm512_loadu_ps(cell.0.as_ptr()));
            _mm512_storeu_si512(whole.0.as_mut_ptr().cast(), v);
        }
        whole & 255
    }

    #[inline(always)]
    fn floor<const N: usize>(x: F<N>) -> F<N> {
        x.map(f32::floor)
    }

    /// The wrapped cell from `v` by one conversion rounding down, beside the floor rather
    /// than after it (a third of the latency of `vrndscaleps` then `vcvttps2dq` on the
    /// hash's chain). It converts what is out of the i32 range (and NaN) to 2³¹, as
    /// `wrap256` does.
    #[inline(always)]
    fn wrap256_floor(v: F, _cell: F) -> U {
        use std::arch::x86_64::{
            __m512, __m512i, _mm512_cvt_roundps_epi32, _MM_FROUND_NO_EXC, _MM_FROUND_TO_NEG_INF,
        };
        const DOWN: i32 = _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;
        // SAFETY: compiled only into the AVX-512 copies, which run where the CPU has
        // AVX-512 F; a register is the 16 lanes.
        let whole = unsafe {
            let v = std::mem::transmute::<[f32; LANES], __m512>(v.0);
            std::mem::transmute::<__m512i, [u32; LANES]>(_mm512_cvt_roundps_epi32::<DOWN>(v))
        };
        U(whole) & 255
    }

    #[inline(always)]
    fn window(at: F, blocks: usize) -> Option<Window> {
        let (lo, hi) = (at.0[0], at.0[LANES - 1]);
        if !(lo >= 0.0 && hi >= lo && hi < (blocks * LANES) as f32) {
            return None;
        }
        let block = lo as usize / LANES;
        let start = (block * LANES) as f32;
        // The lanes and their next entries within the block and the next.
        if block + 1 >= blocks || hi + 1.0 - start > 31.0 {
            return None;
        }
        // Whole numbers from 0 to 30 where the lanes ascend (others clamp to the window:
        // wrong entries, never memory outside it).
        let at = (at - start).clamped_to_u32::<255>();
        Some(Window {
            block: [block, 0],
            at: [at, at + 1],
        })
    }

    #[inline(always)]
    fn read48<const N: usize>(table: &[f32; 48], n: U<N>) -> Option<F<N>> {
        use std::arch::x86_64::{
            _mm512_loadu_epi32, _mm512_loadu_ps, _mm512_mask_blend_ps, _mm512_permutex2var_ps,
            _mm512_permutexvar_ps, _mm512_set1_epi32, _mm512_storeu_ps, _mm512_test_epi32_mask,
        };
        if N != LANES {
            return None;
        }
        let mut out = F([0.0; N]);
        // SAFETY: compiled only into the AVX-512 copies, which run where the CPU has
        // AVX-512 F; the loads are the table's 48 entries; the permutes read only their
        // registers (the index's low 5 and 4 bits); a register is the 16 lanes.
        unsafe {
            let n = _mm512_loadu_epi32(n.0.as_ptr().cast());
            let p = table.as_ptr();
            let low = _mm512_permutex2var_ps(_mm512_loadu_ps(p), n, _mm512_loadu_ps(p.add(16)));
            let high = _mm512_permutexvar_ps(n, _mm512_loadu_ps(p.add(32)));
            let upper = _mm512_test_epi32_mask(n, _mm512_set1_epi32(32));
            _mm512_storeu_ps(out.0.as_mut_ptr(), _mm512_mask_blend_ps(upper, low, high));
        }
        Some(out)
    }

    #[inline(always)]
    fn add_exact_product(a: F, g: F, d: F) -> F {
        // `mul_add` lane by lane, not the intrinsic: AVX-512 F brings FMA, so LLVM fuses
        // each lane in one instruction and vectorises the lanes with the operations around
        // them (the intrinsic kept its operands apart: 3D simplex 5 % slower).
        F(std::array::from_fn(|i| g.0[i].mul_add(d.0[i], a.0[i])))
    }

    #[inline(always)]
    fn read16(table: &[f32; 16], n: U) -> Option<F> {
        use std::arch::x86_64::{__m512, __m512i, _mm512_loadu_ps, _mm512_permutexvar_ps};
        // SAFETY: compiled only into the AVX-512 copies, which run where the CPU has
        // AVX-512 F; the load is the table's 16 entries; the permute reads only its register
        // (the index's low 4 bits); a register is the 16 lanes.
        unsafe {
            let n = std::mem::transmute::<[u32; LANES], __m512i>(n.0);
            let v = _mm512_permutexvar_ps(n, _mm512_loadu_ps(table.as_ptr()));
            Some(F(std::mem::transmute::<__m512, [f32; LANES]>(v)))
        }
    }

    #[inline(always)]
    fn read32(table: &[f32; 32], n: U) -> Option<F> {
        use std::arch::x86_64::{__m512, __m512i, _mm512_loadu_ps, _mm512_permutex2var_ps};
        // SAFETY: compiled only into the AVX-512 copies, which run where the CPU has
        // AVX-512 F; the loads are the table's 32 entries; the permute reads only its two
        // registers (the index's low 5 bits); a register is the 16 lanes.
        unsafe {
            let n = std::mem::transmute::<[u32; LANES], __m512i>(n.0);
            let p = table.as_ptr();
            let v = _mm512_permutex2var_ps(_mm512_loadu_ps(p), n, _mm512_loadu_ps(p.add(16)));
            Some(F(std::mem::transmute::<__m512, [f32; LANES]>(v)))
        }
    }

    #[inline(always)]
    unsafe fn read(blocked: &[f32], window: &Window, tables: usize, t: usize, side: usize) -> F {
        use std::arch::x86_64::{__m512, __m512i, _mm512_loadu_ps, _mm512_permutex2var_ps};
        // SAFETY: compiled only into the AVX-512 copies, which run where the CPU has
        // AVX-512 F; `window` checked that the block and the next are within the tables,
        // and the caller that the tables hold them; a register is the 16 lanes.
        unsafe {
            let at = std::mem::transmute::<[u32; LANES], __m512i>(window.at[side].0);
            let p = blocked.as_ptr().add((window.block[0] * tables + t) * LANES);
            let v = _mm512_permutex2var_ps(
                _mm512_loadu_ps(p),
                at,
                _mm512_loadu_ps(p.add(tables * LANES)),
            );
            F(std::mem::transmute::<__m512, [f32; LANES]>(v))
        }
    }
}

/// `floor` without a rounding instruction (SSE2, where `f32::floor` is a libm call per
/// lane): truncate through `i32`, step down where that rounded up, keep the sign of `x`
/// (so `floor(-0.0) = -0.0`, and `-0.3` gives `-1`), and pass through values of magnitude
/// ≥ 2²³ (already whole), infinities and NaN unchanged, exactly as `f32::floor`. No table
/// reads (SSE2 has no variable permute).
#[derive(Clone, Copy, Debug)]
pub struct Sse2Lanes;

impl Isa for Sse2Lanes {
    /// `whole_low8` by `cvttps2dq`, which converts what is out of the i32 range (and NaN)
    /// to 2³¹, whose low 8 bits are 0 as required: no comparison, with which LLVM
    /// compiles the 3D simplex hash fill to scalar code per lane.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn wrap256<const N: usize>(cell: F<N>) -> U<N> {
        use std::arch::x86_64::{__m128i, _mm_cvttps_epi32, _mm_loadu_ps, _mm_storeu_si128};
        if !N.is_multiple_of(4) {
            return cell.whole_low8();
        }
        let mut whole = U([0; N]);
        for r in 0..N / 4 {
            // SAFETY: SSE2 is part of x86_64; register `r` is lanes `4 r` to `4 r + 3`,
            // within the `N` lanes.
            unsafe {
                let v = _mm_cvttps_epi32(_mm_loadu_ps(cell.0.as_ptr().add(4 * r)));
                _mm_storeu_si128(whole.0.as_mut_ptr().add(4 * r).cast::<__m128i>(), v);
            }
        }
        whole & 255
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn scale_top16(v: U, m: u16) -> U {
        use std::arch::x86_64::{__m128i, _mm_mulhi_epu16, _mm_set1_epi16, _mm_srli_epi32};
        // SAFETY: SSE2 is part of x86_64; four 4-lane registers are the 16 lanes in order.
        unsafe {
            let quarters = std::mem::transmute::<[u32; LANES], [__m128i; 4]>(v.0);
            let m = _mm_set1_epi16(m as i16);
            let scaled = quarters.map(|q| _mm_srli_epi32::<16>(_mm_mulhi_epu16(q, m)));
            U(std::mem::transmute::<[__m128i; 4], [u32; LANES]>(scaled))
        }
    }

    #[inline(always)]
    fn floor<const N: usize>(x: F<N>) -> F<N> {
        x.map(|v| {
            let t = (v as i32) as f32;
            let t = if t > v { t - 1.0 } else { t };
            let t = f32::from_bits(t.to_bits() | (v.to_bits() & 0x8000_0000));
            if v.abs() < 8_388_608.0 {
                t
            } else {
                v
            }
        })
    }
}

/// Lanes in half a block ([`Isa::HALF_BLOCKS`]).
pub const HALF: usize = LANES / 2;

/// The first and the second half of the lanes of each of `p`'s blocks.
#[inline(always)]
pub fn halves<const K: usize>(p: &[F; K]) -> [[F<HALF>; K]; 2] {
    let half = |h: usize| std::array::from_fn(|k| F(std::array::from_fn(|i| p[k].0[HALF * h + i])));
    [half(0), half(1)]
}

/// The block whose first half is `a`, its second `b`, for each of the `K` pairs.
#[inline(always)]
pub fn joined<const K: usize>(a: &[F<HALF>; K], b: &[F<HALF>; K]) -> [F; K] {
    std::array::from_fn(|k| {
        F(std::array::from_fn(|i| if i < HALF { a[k].0[i] } else { b[k].0[i - HALF] }))
    })
}

/// `$half` (giving `[F<HALF>; K]`) with `$p` each half of the block `$p` (`&[F; 4]`), the
/// halves' results joined: `[F; K]`. A macro, not a closure: a closure left as a call is
/// compiled without the caller's `#[target_feature]`s.
macro_rules! by_halves {
    (|$p:ident| $half:expr) => {{
        let [a, b] = $crate::cpu::simd::lanes::halves($p);
        let a = {
            let $p = &a;
            $half
        };
        let b = {
            let $p = &b;
            $half
        };
        $crate::cpu::simd::lanes::joined(&a, &b)
    }};
}
pub(crate) use by_halves;

/// The lanes of `blocks` in order, as one slice of `f32`s (aligned to 64 bytes, so that a
/// block read as one register never straddles two cache lines).
#[inline(always)]
pub fn flat(blocks: &[F]) -> &[f32] {
    // SAFETY: `F` is `repr(C)` around `[f32; LANES]` with no padding (64 bytes, aligned to
    // 64), so `blocks` is `blocks.len() * LANES` consecutive `f32`s.
    unsafe { std::slice::from_raw_parts(blocks.as_ptr().cast(), blocks.len() * LANES) }
}

/// [`flat`] for writing.
#[inline(always)]
pub fn flat_mut(blocks: &mut [F]) -> &mut [f32] {
    // SAFETY: as `flat`.
    unsafe { std::slice::from_raw_parts_mut(blocks.as_mut_ptr().cast(), blocks.len() * LANES) }
}

/// Ends one block's work in a loop over lane blocks: LLVM's loop vectoriser then leaves the
/// loop alone, and each block's own lanes stay vectorised. Otherwise it vectorises such
/// loops across blocks (the same lane of 8 blocks, 64 or 256 bytes apart) with gathers and
/// scatters, which makes the warped fills several times slower and the code much larger.
#[inline(always)]
pub fn block_done<T>(block: &mut T) {
    std::hint::black_box(block);
}
