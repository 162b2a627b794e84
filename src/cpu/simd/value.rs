//! Value noise on lanes: `crate::cpu::value` operation for operation, each lane a whole
//! point (the corners' hashes differ per lane).

use super::cellular::wgpu_noise_cellular_value;
use super::lanes::{Isa, F};
use super::lookup::LaneHasher;
use super::noise::{blend_corners_deriv, lerp, pick, PointCell};

/// The values of the `2^D` corners of each lane's cell (corner `k = a + 2b + 4c + 8e` at
/// offset `(a, b, c, e)`, as `value_corners`).
#[inline(always)]
fn corner_values<L: LaneHasher, const D: usize>(lut: &L, cells: &[[super::lanes::U; 2]; 4]) -> [F; 16] {
    let mut n = [F::splat(0.0); 16];
    for (k, n) in n.iter_mut().enumerate().take(1 << D) {
        let bit = |a: usize| (k >> a) & 1;
        let corner = [
            pick(cells[0], bit(0)),
            pick(cells[1], bit(1)),
            pick(cells[2], bit(2)),
            pick(cells[3], bit(3)),
        ];
        *n = wgpu_noise_cellular_value(lut, lut.cell_hash_lanes::<D>(&corner));
    }
    n
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
    let mut n = corner_values::<L, D>(lut, &cells);
    // `blend_corners`: along x, then y, then z, then w.
    let mut len = 1 << D;
    for fade in fades.iter().take(D) {
        len /= 2;
        for k in 0..len {
            n[k] = lerp(n[2 * k], n[2 * k + 1], *fade);
        }
    }
    n[0]
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
    let n = corner_values::<L, D>(lut, &cell.cells);
    blend_corners_deriv::<D>(n, [[F::splat(0.0); 4]; 16], &cell)
}
