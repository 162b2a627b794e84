//! Value noise on lanes: `crate::cpu::value` operation for operation, each lane a whole
//! point (the corners' hashes differ per lane).

use super::cellular::wgpu_noise_cellular_value;
use super::lanes::{Isa, F};
use super::lookup::LaneHasher;
use super::noise::{lerp, pick, PointCell};

/// `value2/3/4_periodic` at the lane points `p` (their first `D` coordinates) with the
/// lattice period `period` of each axis (256: not tiled).
#[inline(always)]
pub fn value_point<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
) -> F {
    let PointCell { fades, cells, .. } = PointCell::new::<I, D>(p, period);
    // Corner `k = a + 2b + 4c + 8e` at offset `(a, b, c, e)`, as `value_corners`.
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
