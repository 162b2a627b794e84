//! CPU mirror of `shaders/lattice.wgsl`: wrapping whole-number cell coordinates.

use super::real::Real;

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

/// Cell index along one axis and the next one, both wrapped to `period` cells.
#[inline(always)]
pub fn cell_pair<R: Real>(cell: R, period: u32) -> [u32; 2] {
    // The tables' own period needs no integer division (the same result, faster).
    if period == 256 {
        let i0 = wrap256(cell);
        return [i0, (i0 + 1) & 255];
    }
    let i0 = wrap_period(cell, period);
    [i0, (i0 + 1) % period]
}
