//! CPU mirror of `shaders/lookup.wgsl`: the texture fetches, served from the same packed
//! texels the host uploads ([`LookupTables`]). Function names and arguments match the WGSL.

use super::real::Real;
use crate::tables::LookupTables;

/// Floored modulo 256 of a whole-number cell coordinate: the lattice wrap.
///
/// Every step is exact in binary floating point, so it is right at any magnitude and for
/// negative cells (where a truncating `%` or an `i32` cast would not be).
#[inline(always)]
pub fn wrap256<R: Real>(cell: R) -> u32 {
    let r = cell - R::lit(256.0) * (cell / R::lit(256.0)).floor();
    // `as` saturates (NaN -> 0); the mask keeps a texel coordinate in range regardless.
    (r.to_f64() as u32) & 255
}

/// Floored modulo `period` of a whole-number cell coordinate, for tileable noise.
///
/// The division is inexact for periods that are not powers of two, so the result is
/// corrected by one period when rounding put it just outside `[0, period)`.
#[inline(always)]
pub fn wrap_period<R: Real>(cell: R, period: u32) -> u32 {
    let p = R::from_u32(period);
    let mut r = cell - p * (cell / p).floor();
    if r < R::lit(0.0) {
        r = r + p;
    }
    if r >= p {
        r = r - p;
    }
    // `as` saturates (NaN -> 0); the remainder keeps the index in range regardless.
    (r.to_f64() as u32) % period
}

/// `T(a, b) = P(a + P(b))`: two permutation steps in one fetch (`hash_grad3.r`).
#[inline(always)]
pub fn hash2(lut: &LookupTables, a: u32, b: u32) -> u32 {
    texel_2d(&lut.hash_grad3, a, b)[0] as u32
}

/// `grad3[T(a, b) % 12]` (`hash_grad3.gba - 1`).
#[inline(always)]
pub fn grad3_at<R: Real>(lut: &LookupTables, a: u32, b: u32) -> [R; 3] {
    let t = texel_2d(&lut.hash_grad3, a, b);
    [unbias(t[1]), unbias(t[2]), unbias(t[3])]
}

/// `grad4[T(a, b) % 32]` (`grad4.rgba - 1`).
#[inline(always)]
pub fn grad4_at<R: Real>(lut: &LookupTables, a: u32, b: u32) -> [R; 4] {
    texel_2d(&lut.grad4, a, b).map(unbias)
}

/// `P(a)`: one permutation step (`perm.r`).
#[inline(always)]
pub fn perm1(lut: &LookupTables, a: u32) -> u32 {
    lut.perm[(a & 255) as usize] as u32
}

/// The 4D simplex traversal order for comparison code `c` (`simplex4.rgba`).
#[inline(always)]
pub fn simplex4_order(lut: &LookupTables, c: u32) -> [u32; 4] {
    lut.simplex4[(c & 63) as usize].map(u32::from)
}

#[inline(always)]
fn texel_2d(texels: &[[u8; 4]], a: u32, b: u32) -> [u8; 4] {
    texels[((b & 255) * 256 + (a & 255)) as usize]
}

#[inline(always)]
fn unbias<R: Real>(c: u8) -> R {
    R::from_u32(c as u32) - R::lit(1.0)
}
