//! CPU mirror of `shaders/value.wgsl`: value noise in 2D, 3D and 4D, one value per lattice
//! point (the cell value of cellular noise's `cell` output) blended along x, then y, then
//! z, then w with the quintic fade. In [-1, 1]; at a lattice point, that point's value.

use super::cellular::wgpu_noise_cellular_value;
use super::classic::{blend_corners, blend_corners_deriv};
use super::lattice::cell_pair;
use super::lookup::NoiseHasher;
use super::real::Real;

/// The lower corner `c` of the cell of `p` and the values of its `C = 2^N` corners
/// (corner `a + 2b + 4c + 8d` at offset `(a, b, c, d)`), repeating every `period` cells
/// (the shader's `wgpu_noise_value_cornersN`).
#[inline(always)]
fn value_corners<R: Real, const N: usize, const C: usize>(
    lut: &impl NoiseHasher,
    p: &[R; N],
    period: [u32; N],
) -> ([R; N], [R; C]) {
    let c = p.map(|v| v.floor());
    let pairs: [[u32; 2]; N] = std::array::from_fn(|a| cell_pair(c[a], period[a]));
    let values = std::array::from_fn(|k| {
        let corner: [u32; N] = std::array::from_fn(|a| pairs[a][(k >> a) & 1]);
        wgpu_noise_cellular_value(lut, lut.cell_hash(&corner))
    });
    (std::array::from_fn(|a| p[a] - c[a]), values)
}

/// Value noise of `N` dimensions (`C = 2^N` corners) repeating every `period` cells.
#[inline(always)]
fn value_periodic<R: Real, const N: usize, const C: usize>(
    lut: &impl NoiseHasher,
    p: [R; N],
    period: [u32; N],
) -> R {
    let (f, corners) = value_corners::<R, N, C>(lut, &p, period);
    blend_corners(&f, corners)
}

/// [`value_periodic`] and its gradient `[value, ∂/∂x, …]` (entries past `N` 0).
#[inline(always)]
fn value_periodic_deriv<R: Real, const N: usize, const C: usize>(
    lut: &impl NoiseHasher,
    p: [R; N],
    period: [u32; N],
) -> [R; 5] {
    let (f, corners) = value_corners::<R, N, C>(lut, &p, period);
    blend_corners_deriv(&f, corners, [[R::lit(0.0); N]; C])
}

/// 2D value noise repeating every `period` cells along each axis; 256 is the plain function.
pub fn value2_periodic<R: Real>(lut: &impl NoiseHasher, p: [R; 2], period: [u32; 2]) -> R {
    value_periodic::<R, 2, 4>(lut, p, period)
}

/// 3D value noise repeating every `period` cells along each axis.
pub fn value3_periodic<R: Real>(lut: &impl NoiseHasher, p: [R; 3], period: [u32; 3]) -> R {
    value_periodic::<R, 3, 8>(lut, p, period)
}

/// 4D value noise repeating every `period` cells along each axis.
pub fn value4_periodic<R: Real>(lut: &impl NoiseHasher, p: [R; 4], period: [u32; 4]) -> R {
    value_periodic::<R, 4, 16>(lut, p, period)
}

/// [`value2_periodic`] and its gradient `[value, ∂/∂x, ∂/∂y, 0, 0]`.
pub fn value2_periodic_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 2],
    period: [u32; 2],
) -> [R; 5] {
    value_periodic_deriv::<R, 2, 4>(lut, p, period)
}

/// [`value3_periodic`] and its gradient `[value, ∂/∂x, ∂/∂y, ∂/∂z, 0]`.
pub fn value3_periodic_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 3],
    period: [u32; 3],
) -> [R; 5] {
    value_periodic_deriv::<R, 3, 8>(lut, p, period)
}

/// [`value4_periodic`] and its gradient `[value, ∂/∂x, ∂/∂y, ∂/∂z, ∂/∂w]`.
pub fn value4_periodic_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 4],
    period: [u32; 4],
) -> [R; 5] {
    value_periodic_deriv::<R, 4, 16>(lut, p, period)
}
