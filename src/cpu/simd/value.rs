//! Value noise on lanes: `crate::cpu::value` operation for operation, each lane a whole
//! point (the corners' hashes differ per lane).

use super::cellular::wgpu_noise_cell_unit;
use super::lanes::{Isa, F, U};
use super::lookup::LaneHasher;
use super::noise::{blend_corners_deriv, lerp, pick, PointCell};

/// The hashes of the `2^D` corners of each lane's cell (corner `k = a + 2b + 4c + 8e` at
/// offset `(a, b, c, e)`, as `value_hashes`).
#[inline(always)]
fn corner_hashes<L: LaneHasher, const D: usize>(lut: &L, cells: &[[U; 2]; 4]) -> [U; 16] {
    let mut h = [U::splat(0); 16];
    for (k, h) in h.iter_mut().enumerate().take(1 << D) {
        let bit = |a: usize| (k >> a) & 1;
        let corner = [
            pick(cells[0], bit(0)),
            pick(cells[1], bit(1)),
            pick(cells[2], bit(2)),
            pick(cells[3], bit(3)),
        ];
        *h = lut.cell_hash_lanes::<D>(&corner);
    }
    h
}

/// Byte `slot` of each corner's hash in [-1, 1] (`corner_units`): slot 4 the corners'
/// values, slots 0 to 3 the components of their vectors.
#[inline(always)]
fn corner_units<L: LaneHasher, const D: usize>(lut: &L, h: &[U; 16], slot: u32) -> [F; 16] {
    let mut n = [F::splat(0.0); 16];
    for (n, h) in n.iter_mut().zip(h).take(1 << D) {
        *n = wgpu_noise_cell_unit(lut, *h, slot);
    }
    n
}

/// `blend_corners` of the corners `n` with the lanes' `fades`: along x, then y, then z,
/// then w.
#[inline(always)]
fn blend<const D: usize>(mut n: [F; 16], fades: &[F; 4]) -> F {
    let mut len = 1 << D;
    for fade in fades.iter().take(D) {
        len /= 2;
        for k in 0..len {
            n[k] = lerp(n[2 * k], n[2 * k + 1], *fade);
        }
    }
    n[0]
}

/// `value2/3/4_periodic` at the lane points `p` (their first `D` coordinates) with the
/// lattice period `period` of each axis (256: not tiled).
#[inline(always)]
pub fn value_point<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
) -> F {
    let PointCell { fades, cells, .. } = PointCell::new::<I, D>(p, period);
    let h = corner_hashes::<L, D>(lut, &cells);
    blend::<D>(corner_units::<L, D>(lut, &h, 4), &fades)
}

/// [`value_point`] and its gradient `[value, ∂/∂x, …]` (entries past `D` 0): the scalar
/// `value2/3/4_periodic_deriv` (`blend_corners_deriv` from corners of gradient 0) operation
/// for operation, the `+ 0` terms kept.
#[inline(always)]
pub fn value_point_deriv<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
) -> [F; 5] {
    let cell = PointCell::new::<I, D>(p, period);
    let h = corner_hashes::<L, D>(lut, &cell.cells);
    blend_corners_deriv::<D>(corner_units::<L, D>(lut, &h, 4), [[F::splat(0.0); 4]; 16], &cell)
}

/// Value noise of vectors (`value_vector`) at the lane points `p`, as [`value_point`]:
/// each component blended from its byte of the corners' hashes, components past `D` 0.
#[inline(always)]
pub fn value_vector_point<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
) -> [F; 4] {
    let PointCell { fades, cells, .. } = PointCell::new::<I, D>(p, period);
    let h = corner_hashes::<L, D>(lut, &cells);
    let mut v = [F::splat(0.0); 4];
    for (a, v) in v.iter_mut().enumerate().take(D) {
        *v = blend::<D>(corner_units::<L, D>(lut, &h, a as u32), &fades);
    }
    v
}

/// [`value_vector_point`] and each component's gradient (`value_vector_deriv`): `d[a] =
/// [component a, ∂/∂x, …]`.
#[inline(always)]
pub fn value_vector_point_deriv<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
) -> [[F; 5]; 4] {
    let cell = PointCell::new::<I, D>(p, period);
    let h = corner_hashes::<L, D>(lut, &cell.cells);
    let mut d = [[F::splat(0.0); 5]; 4];
    for (a, d) in d.iter_mut().enumerate().take(D) {
        let n = corner_units::<L, D>(lut, &h, a as u32);
        *d = blend_corners_deriv::<D>(n, [[F::splat(0.0); 4]; 16], &cell);
    }
    d
}
