//! CPU mirror of `shaders/classic.wgsl`: classic Perlin noise in 2D, 3D and 4D.
//!
//! 3D is Gustavson's Java `ClassicNoise` (with a true floor). 2D and 4D extend the same
//! scheme: hash `perm[X+perm[Y]] % 12` with the x, y of `grad3` in 2D,
//! `perm[X+perm[Y+perm[Z+perm[W]]]] % 32` with `grad4` in 4D, the quintic fade, and
//! interpolation along x, then y, then z, then w. The same order of operations as the shader
//! (its named corners are the arrays of [`ClassicCell`] here, indexed by corner bits).

use super::lattice::cell_pair;
use super::lookup::NoiseHasher;
use super::real::Real;

/// The quintic fade curve `6t⁵ − 15t⁴ + 10t³`, in the Java code's order of operations.
#[inline(always)]
pub fn fade<R: Real>(t: R) -> R {
    t * t * t * (t * (t * R::lit(6.0) - R::lit(15.0)) + R::lit(10.0))
}

/// Linear interpolation as the Java code writes it: `(1 - t) * a + t * b`.
#[inline(always)]
pub fn lerp<R: Real>(a: R, b: R, t: R) -> R {
    (R::lit(1.0) - t) * a + t * b
}

/// The lattice period of the tables themselves: classic noise without tiling.
pub const NATURAL_PERIOD: [u32; 4] = [256; 4];

/// 2D classic Perlin noise. Zero at every lattice point.
pub fn classic2<R: Real>(lut: &impl NoiseHasher, x: R, y: R) -> R {
    classic2_periodic(lut, x, y, [256, 256])
}

/// The lattice cell of a point: the point's offsets `f` within the cell and the gradient
/// `g` of each of its 2^N corners, corner `a + 2b + 4c + 8d` at offset `(a, b, c, d)`
/// (`classicN` in the shader, before the corner dot products).
#[derive(Clone, Copy, Debug)]
pub struct ClassicCell<R, const N: usize, const C: usize> {
    /// Offsets of the point from the cell's lower corner, each in [0, 1).
    pub f: [R; N],
    /// Gradients of the corners.
    pub g: [[R; N]; C],
}

/// Corner `c`'s dot product `g · (f − corner)`, summed along x, y, z, w in order.
#[inline(always)]
fn corner_dot<R: Real, const N: usize, const C: usize>(cell: &ClassicCell<R, N, C>, c: usize) -> R {
    let d = |a: usize| {
        if (c >> a) & 1 == 1 {
            cell.f[a] - R::lit(1.0)
        } else {
            cell.f[a]
        }
    };
    let g = &cell.g[c];
    let mut n = g[0] * d(0);
    for a in 1..N {
        n = n + g[a] * d(a);
    }
    n
}

/// Classic noise of a cell: the corner dots interpolated along x, then y, then z, then w
/// with the fade of each offset.
#[inline(always)]
fn interpolate<R: Real, const N: usize, const C: usize>(cell: &ClassicCell<R, N, C>) -> R {
    blend_corners::<R, N, C>(&cell.f, std::array::from_fn(|c| corner_dot(cell, c)))
}

/// Corner values `n` (corner `a + 2b + 4c + 8d` at offset `(a, b, c, d)`) blended along x,
/// then y, then z, then w by the fade of each offset `f` (the lattice noises' last step).
#[inline(always)]
pub(super) fn blend_corners<R: Real, const N: usize, const C: usize>(f: &[R; N], n: [R; C]) -> R {
    let mut n = n;
    let mut len = C;
    for a in 0..N {
        let u = fade(f[a]);
        len /= 2;
        for k in 0..len {
            n[k] = lerp(n[2 * k], n[2 * k + 1], u);
        }
    }
    n[0]
}

/// The slope of [`fade`]: `30t²(t − 1)²`.
#[inline(always)]
fn fade_slope<R: Real>(t: R) -> R {
    let s = t - R::lit(1.0);
    R::lit(30.0) * t * t * s * s
}

/// [`interpolate`] and its gradient `[value, ∂/∂x, …]` (unused entries 0); a corner dot's
/// gradient is its corner's gradient. The value is [`interpolate`]'s bit for bit.
#[inline(always)]
fn interpolate_deriv<R: Real, const N: usize, const C: usize>(
    cell: &ClassicCell<R, N, C>,
) -> [R; 5] {
    blend_corners_deriv::<R, N, C>(&cell.f, std::array::from_fn(|c| corner_dot(cell, c)), cell.g)
}

/// [`blend_corners`] and its gradient `[value, ∂/∂x, …]` (unused entries 0), the corners'
/// gradients `dn`: every lerp `(1 − u) a + u b` carries `(1 − u) ∇a + u ∇b + (b − a) ∇u`.
/// The value is [`blend_corners`]'s bit for bit.
#[inline(always)]
pub(super) fn blend_corners_deriv<R: Real, const N: usize, const C: usize>(
    f: &[R; N],
    n: [R; C],
    dn: [[R; N]; C],
) -> [R; 5] {
    let zero = R::lit(0.0);
    let one = R::lit(1.0);
    let (mut n, mut dn) = (n, dn);
    let mut len = C;
    for a in 0..N {
        let u = fade(f[a]);
        let du = fade_slope(f[a]);
        len /= 2;
        for k in 0..len {
            let (lo, hi) = (n[2 * k], n[2 * k + 1]);
            let (dlo, dhi) = (dn[2 * k], dn[2 * k + 1]);
            n[k] = lerp(lo, hi, u);
            dn[k] = std::array::from_fn(|j| {
                let along = if j == a { (hi - lo) * du } else { zero };
                (one - u) * dlo[j] + u * dhi[j] + along
            });
        }
    }
    let mut out = [zero; 5];
    out[0] = n[0];
    out[1..=N].copy_from_slice(&dn[0]);
    out
}

/// The cell of a 2D point, repeating every `period` cells.
#[inline(always)]
fn classic2_cell<R: Real>(
    lut: &impl NoiseHasher,
    x: R,
    y: R,
    period: [u32; 2],
) -> ClassicCell<R, 2, 4> {
    let cx = x.floor();
    let cy = y.floor();
    let xi = cell_pair(cx, period[0]);
    let yi = cell_pair(cy, period[1]);
    let g = |a: usize, b: usize| lut.lattice_grad2::<R>(xi[a], yi[b]);
    ClassicCell {
        f: [x - cx, y - cy],
        g: [g(0, 0), g(1, 0), g(0, 1), g(1, 1)],
    }
}

/// 2D classic noise that repeats every `period` cells along each axis (Perlin's
/// "pnoise"); a period of 256 is the plain function.
pub fn classic2_periodic<R: Real>(lut: &impl NoiseHasher, x: R, y: R, period: [u32; 2]) -> R {
    interpolate(&classic2_cell(lut, x, y, period))
}

/// [`classic2_periodic`] and its gradient `[value, ∂/∂x, ∂/∂y, 0, 0]`.
pub fn classic2_periodic_deriv<R: Real>(
    lut: &impl NoiseHasher,
    x: R,
    y: R,
    period: [u32; 2],
) -> [R; 5] {
    interpolate_deriv(&classic2_cell(lut, x, y, period))
}

/// 3D classic Perlin noise (Gustavson's `ClassicNoise.noise`). Zero at every lattice point.
pub fn classic3<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R) -> R {
    classic3_periodic(lut, x, y, z, [256, 256, 256])
}

/// The cell of a 3D point, repeating every `period` cells.
#[inline(always)]
fn classic3_cell<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 3],
    period: [u32; 3],
) -> ClassicCell<R, 3, 8> {
    let c = p.map(|v| v.floor());
    let xi = cell_pair(c[0], period[0]);
    let yi = cell_pair(c[1], period[1]);
    let zi = cell_pair(c[2], period[2]);
    ClassicCell {
        f: [p[0] - c[0], p[1] - c[1], p[2] - c[2]],
        g: std::array::from_fn(|k| lut.lattice_grad3::<R>(xi[k & 1], yi[(k >> 1) & 1], zi[k >> 2])),
    }
}

/// 3D classic noise that repeats every `period` cells along each axis.
pub fn classic3_periodic<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R, period: [u32; 3]) -> R {
    interpolate(&classic3_cell(lut, [x, y, z], period))
}

/// [`classic3_periodic`] at `p` and its gradient `[value, ∂/∂x, ∂/∂y, ∂/∂z, 0]`.
pub fn classic3_periodic_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 3],
    period: [u32; 3],
) -> [R; 5] {
    interpolate_deriv(&classic3_cell(lut, p, period))
}

/// 4D classic Perlin noise. Zero at every lattice point.
pub fn classic4<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R, w: R) -> R {
    classic4_periodic(lut, x, y, z, w, NATURAL_PERIOD)
}

/// The cell of a 4D point, repeating every `period` cells.
#[inline(always)]
fn classic4_cell<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 4],
    period: [u32; 4],
) -> ClassicCell<R, 4, 16> {
    let c = p.map(|v| v.floor());
    let xi = cell_pair(c[0], period[0]);
    let yi = cell_pair(c[1], period[1]);
    let zi = cell_pair(c[2], period[2]);
    let wi = cell_pair(c[3], period[3]);
    // Corner (a, b, c, d) in {0,1}⁴, a the lowest bit of k.
    ClassicCell {
        f: std::array::from_fn(|a| p[a] - c[a]),
        g: std::array::from_fn(|k| {
            let bit = |a: usize| (k >> a) & 1;
            lut.lattice_grad4::<R>(xi[bit(0)], yi[bit(1)], zi[bit(2)], wi[bit(3)])
        }),
    }
}

/// 4D classic noise that repeats every `period` cells along each axis.
pub fn classic4_periodic<R: Real>(
    lut: &impl NoiseHasher,
    x: R,
    y: R,
    z: R,
    w: R,
    period: [u32; 4],
) -> R {
    interpolate(&classic4_cell(lut, [x, y, z, w], period))
}

/// [`classic4_periodic`] at `p` and its gradient `[value, ∂/∂x, ∂/∂y, ∂/∂z, ∂/∂w]`.
pub fn classic4_periodic_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 4],
    period: [u32; 4],
) -> [R; 5] {
    interpolate_deriv(&classic4_cell(lut, p, period))
}
