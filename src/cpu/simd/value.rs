//! Value noise on lanes: `crate::cpu::value` operation for operation, each lane a whole
//! point (the corners' hashes differ per lane).
//!
//! A cell's corners come in rows, as in `classic_point`: row `r` holds the two corners
//! along x whose offsets along y, z, w are `r`'s bits, and its rows are written out below
//! 4D (literal rows are faster than the loop: a loop's row reads its cells by index).

use super::cellular::{wgpu_noise_byte_unit, wgpu_noise_cell_unit};
use super::lanes::{Isa, F, U};
use super::lookup::LaneHasher;
use super::noise::{blend_corners_deriv, blend_rows, lerp, pick, PointCell};

/// `$body` with `$r` each row of a `D`-dimensional cell: 0 to 2^(D−1) − 1, written out
/// below 4D. A macro, not a closure: a closure stays a call, compiled without the copy's
/// target features.
macro_rules! for_each_row {
    ($d:expr, |$r:ident| $body:block) => {
        if $d == 4 {
            for $r in 0..8 {
                $body
            }
        } else {
            {
                let $r = 0;
                $body
            }
            {
                let $r = 1;
                $body
            }
            if $d == 3 {
                {
                    let $r = 2;
                    $body
                }
                {
                    let $r = 3;
                    $body
                }
            }
        }
    };
}

/// The hashes of row `r`'s two corners (offsets 0 and 1 along x), as `value_hashes`.
#[inline(always)]
fn row_hashes<L: LaneHasher, const D: usize>(lut: &L, cells: &[[U; 2]; 4], r: usize) -> [U; 2] {
    let y = pick(cells[1], r & 1);
    let z = pick(cells[2], (r >> 1) & 1);
    let w = pick(cells[3], (r >> 2) & 1);
    [
        lut.cell_hash_lanes::<D, _>(&[cells[0][0], y, z, w]),
        lut.cell_hash_lanes::<D, _>(&[cells[0][1], y, z, w]),
    ]
}

/// Byte `slot` of a row's two corners' hashes in [-1, 1], blended along x by `fade`.
#[inline(always)]
fn row_units<L: LaneHasher>(lut: &L, h: &[U; 2], slot: u32, fade: F) -> F {
    lerp(
        wgpu_noise_cell_unit(lut, h[0], slot),
        wgpu_noise_cell_unit(lut, h[1], slot),
        fade,
    )
}

/// The hashes of the `2^D` corners of each lane's cell (corner `k = a + 2b + 4c + 8e` at
/// offset `(a, b, c, e)`, as `value_hashes`).
#[inline(always)]
fn corner_hashes<L: LaneHasher, const D: usize>(lut: &L, cells: &[[U; 2]; 4]) -> [U; 16] {
    let mut h = [U::splat(0); 16];
    for_each_row!(D, |r| {
        let [left, right] = row_hashes::<L, D>(lut, cells, r);
        h[2 * r] = left;
        h[2 * r + 1] = right;
    });
    h
}

/// Byte `slot` of a row's two corners' hashes (0 to 255), blended along x by `fade`.
#[inline(always)]
fn row_bytes<L: LaneHasher>(lut: &L, h: &[U; 2], slot: u32, fade: F) -> F {
    lerp(
        lut.cell_byte_lanes(h[0], slot).to_f32(),
        lut.cell_byte_lanes(h[1], slot).to_f32(),
        fade,
    )
}

/// Byte `slot` of each corner's hash (0 to 255, `corner_bytes`).
#[inline(always)]
fn corner_bytes<L: LaneHasher, const D: usize>(lut: &L, h: &[U; 16], slot: u32) -> [F; 16] {
    let mut n = [F::splat(0.0); 16];
    for (n, h) in n.iter_mut().zip(h).take(1 << D) {
        *n = lut.cell_byte_lanes(*h, slot).to_f32();
    }
    n
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

/// `value2/3/4_periodic` at the lane points `p` (their first `D` coordinates) with the
/// lattice period `period` of each axis (256: not tiled).
#[inline(always)]
pub fn value_point<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
) -> F {
    let PointCell { fades, cells, .. } = PointCell::new::<I, D>(p, period);
    let mut n = [F::splat(0.0); 8];
    for_each_row!(D, |r| {
        let h = row_hashes::<L, D>(lut, &cells, r);
        n[r] = row_units(lut, &h, 4, fades[0]);
    });
    blend_rows::<D>(n, &fades)
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
/// each component blended from its byte of the corners' hashes, then mapped to [-1, 1];
/// components past `D` 0.
#[inline(always)]
pub fn value_vector_point<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
) -> [F; 4] {
    let PointCell { fades, cells, .. } = PointCell::new::<I, D>(p, period);
    let mut h = [[U::splat(0); 2]; 8];
    for_each_row!(D, |r| {
        h[r] = row_hashes::<L, D>(lut, &cells, r);
    });
    // Each component written out: its slot a literal.
    let zero = F::splat(0.0);
    [
        component::<L, D>(lut, &h, 0, &fades),
        component::<L, D>(lut, &h, 1, &fades),
        if D > 2 {
            component::<L, D>(lut, &h, 2, &fades)
        } else {
            zero
        },
        if D > 3 {
            component::<L, D>(lut, &h, 3, &fades)
        } else {
            zero
        },
    ]
}

/// Component `slot` of [`value_vector_point`] from the rows' hashes `h`.
#[inline(always)]
fn component<L: LaneHasher, const D: usize>(
    lut: &L,
    h: &[[U; 2]; 8],
    slot: u32,
    fades: &[F; 4],
) -> F {
    let mut n = [F::splat(0.0); 8];
    for_each_row!(D, |r| {
        n[r] = row_bytes(lut, &h[r], slot, fades[0]);
    });
    wgpu_noise_byte_unit(blend_rows::<D>(n, fades))
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
        let n = corner_bytes::<L, D>(lut, &h, a as u32);
        let b = blend_corners_deriv::<D>(n, [[F::splat(0.0); 4]; 16], &cell);
        *d = [
            wgpu_noise_byte_unit(b[0]),
            b[1] * (1.0f64 / 127.5) as f32,
            b[2] * (1.0f64 / 127.5) as f32,
            b[3] * (1.0f64 / 127.5) as f32,
            b[4] * (1.0f64 / 127.5) as f32,
        ];
    }
    d
}
