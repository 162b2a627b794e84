//! CPU mirror of `shaders/value.wgsl`: value noise in 2D, 3D and 4D, one value per lattice
//! point (the cell value of cellular noise's `cell` output) blended along x, then y, then
//! z, then w with the quintic fade. In [-1, 1]; at a lattice point, that point's value.

use super::cellular::{wgpu_noise_byte_unit, wgpu_noise_cell_unit};
use super::classic::{blend_corners, blend_corners_deriv};
use super::lattice::cell_pair;
use super::lookup::NoiseHasher;
use super::real::Real;

/// The lower corner `c` of the cell of `p`, the offsets `p − c` and the hashes of the cell's
/// `C = 2^N` corners (corner `a + 2b + 4c + 8d` at offset `(a, b, c, d)`), repeating every
/// `period` cells (the shader's `wgpu_noise_value_hashesN`).
#[inline(always)]
fn value_hashes<R: Real, const N: usize, const C: usize>(
    lut: &impl NoiseHasher,
    p: &[R; N],
    period: [u32; N],
) -> ([R; N], [u32; C]) {
    let c = p.map(|v| v.floor());
    let pairs: [[u32; 2]; N] = std::array::from_fn(|a| cell_pair(c[a], period[a]));
    let hashes = std::array::from_fn(|k| {
        let corner: [u32; N] = std::array::from_fn(|a| pairs[a][(k >> a) & 1]);
        lut.cell_hash(&corner)
    });
    (std::array::from_fn(|a| p[a] - c[a]), hashes)
}

/// Byte `slot` of each corner's hash in [-1, 1] (`wgpu_noise_value_corner_units`): slot 4 is
/// the corner's value, slots 0 to 3 the components of its vector.
#[inline(always)]
fn corner_units<R: Real, const C: usize>(lut: &impl NoiseHasher, h: &[u32; C], slot: u32) -> [R; C] {
    h.map(|h| wgpu_noise_cell_unit(lut, h, slot))
}

/// The offsets in the cell of `p` and its corners' values (the shader's
/// `wgpu_noise_value_corner_units` of `wgpu_noise_value_hashesN`, slot 4).
#[inline(always)]
fn value_corners<R: Real, const N: usize, const C: usize>(
    lut: &impl NoiseHasher,
    p: &[R; N],
    period: [u32; N],
) -> ([R; N], [R; C]) {
    let (f, h) = value_hashes::<R, N, C>(lut, p, period);
    (f, corner_units(lut, &h, 4))
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

/// Byte `slot` of each corner's hash as a number 0 to 255
/// (`wgpu_noise_value_corner_bytes`).
#[inline(always)]
fn corner_bytes<R: Real, const C: usize>(lut: &impl NoiseHasher, h: &[u32; C], slot: u32) -> [R; C] {
    h.map(|h| R::from_u32(lut.cell_byte(h, slot)))
}

/// Value noise of vectors in `N` dimensions (the `warp` node's `vector` noise, as
/// FastNoise2's `DomainWarpGradient`): at each lattice point a vector whose component `a` is
/// byte `a` of the point's cell hash in [-1, 1], the corners' vectors blended as
/// [`value_periodic`] blends values, component by component; one hash per corner serves
/// every component. The bytes are blended, then mapped to [-1, 1] (the map is linear: one
/// map per component, not one per corner). Components past `N` are 0
/// (`wgpu_noise_value_vectorN_periodic`).
#[inline(always)]
fn value_vector_periodic<R: Real, const N: usize, const C: usize>(
    lut: &impl NoiseHasher,
    p: [R; N],
    period: [u32; N],
) -> [R; 4] {
    let (f, h) = value_hashes::<R, N, C>(lut, &p, period);
    let mut v = [R::lit(0.0); 4];
    for (a, v) in v.iter_mut().enumerate().take(N) {
        *v = wgpu_noise_byte_unit(blend_corners(&f, corner_bytes(lut, &h, a as u32)));
    }
    v
}

/// [`value_vector_periodic`] and each component's gradient: `d[a] = [component a, ∂/∂x, …]`
/// (entries past `N` 0), the bytes' blend's gradient times the map's slope 1 / 127.5 (its
/// clamp never bites: 255 maps to 1 in `f32`).
#[inline(always)]
fn value_vector_periodic_deriv<R: Real, const N: usize, const C: usize>(
    lut: &impl NoiseHasher,
    p: [R; N],
    period: [u32; N],
) -> [[R; 5]; 4] {
    let (f, h) = value_hashes::<R, N, C>(lut, &p, period);
    let mut d = [[R::lit(0.0); 5]; 4];
    for (a, d) in d.iter_mut().enumerate().take(N) {
        let b = blend_corners_deriv(&f, corner_bytes(lut, &h, a as u32), [[R::lit(0.0); N]; C]);
        d[0] = wgpu_noise_byte_unit(b[0]);
        for (d, b) in d[1..].iter_mut().zip(&b[1..]) {
            *d = *b * R::lit(1.0 / 127.5);
        }
    }
    d
}

/// Value noise of vectors at `p` (2 to 4 coordinates) repeating every `period` cells along
/// each axis: [`value_vector_periodic`] of `p`'s dimensions.
pub fn value_vector<R: Real>(lut: &impl NoiseHasher, p: &[R], period: &[u32]) -> [R; 4] {
    match p.len() {
        2 => value_vector_periodic::<R, 2, 4>(lut, [p[0], p[1]], [period[0], period[1]]),
        3 => value_vector_periodic::<R, 3, 8>(
            lut,
            [p[0], p[1], p[2]],
            [period[0], period[1], period[2]],
        ),
        _ => value_vector_periodic::<R, 4, 16>(
            lut,
            [p[0], p[1], p[2], p[3]],
            [period[0], period[1], period[2], period[3]],
        ),
    }
}

/// [`value_vector`] and each component's gradient ([`value_vector_periodic_deriv`]).
pub fn value_vector_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[u32],
) -> [[R; 5]; 4] {
    match p.len() {
        2 => value_vector_periodic_deriv::<R, 2, 4>(lut, [p[0], p[1]], [period[0], period[1]]),
        3 => value_vector_periodic_deriv::<R, 3, 8>(
            lut,
            [p[0], p[1], p[2]],
            [period[0], period[1], period[2]],
        ),
        _ => value_vector_periodic_deriv::<R, 4, 16>(
            lut,
            [p[0], p[1], p[2], p[3]],
            [period[0], period[1], period[2], period[3]],
        ),
    }
}
