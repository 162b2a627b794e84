//! CPU mirror of `shaders/classic.wgsl`: classic Perlin noise in 2D, 3D and 4D.
//!
//! 3D is Gustavson's Java `ClassicNoise` (with a true floor). 2D and 4D extend the same
//! scheme: hash `perm[X+perm[Y]] % 12` with the x, y of `grad3` in 2D,
//! `perm[X+perm[Y+perm[Z+perm[W]]]] % 32` with `grad4` in 4D, the quintic fade, and
//! interpolation along x, then y, then z, then w. Same names and order as the shader.

use super::lattice::{wrap256, wrap_period};
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

/// Cell index along one axis and the next one, both wrapped to `period` cells.
#[inline(always)]
fn cell_pair<R: Real>(cell: R, period: u32) -> [u32; 2] {
    // The tables' own period needs no integer division (the same result, faster).
    if period == 256 {
        let i0 = wrap256(cell);
        return [i0, (i0 + 1) & 255];
    }
    let i0 = wrap_period(cell, period);
    [i0, (i0 + 1) % period]
}

/// 2D classic noise that repeats every `period` cells along each axis (Perlin's
/// "pnoise"); a period of 256 is the plain function.
pub fn classic2_periodic<R: Real>(lut: &impl NoiseHasher, x: R, y: R, period: [u32; 2]) -> R {
    let cx = x.floor();
    let cy = y.floor();
    let x = x - cx;
    let y = y - cy;
    let xi = cell_pair(cx, period[0]);
    let yi = cell_pair(cy, period[1]);
    // perm[X+perm[Y]] = T(X, Y); the gradient is grad3's x, y.
    let g00 = lut.grad3_at::<R>(xi[0], yi[0]);
    let g10 = lut.grad3_at::<R>(xi[1], yi[0]);
    let g01 = lut.grad3_at::<R>(xi[0], yi[1]);
    let g11 = lut.grad3_at::<R>(xi[1], yi[1]);
    let one = R::lit(1.0);
    let n00 = g00[0] * x + g00[1] * y;
    let n10 = g10[0] * (x - one) + g10[1] * y;
    let n01 = g01[0] * x + g01[1] * (y - one);
    let n11 = g11[0] * (x - one) + g11[1] * (y - one);
    let u = fade(x);
    let v = fade(y);
    let nx0 = lerp(n00, n10, u);
    let nx1 = lerp(n01, n11, u);
    lerp(nx0, nx1, v)
}

/// 3D classic Perlin noise (Gustavson's `ClassicNoise.noise`). Zero at every lattice point.
pub fn classic3<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R) -> R {
    classic3_periodic(lut, x, y, z, [256, 256, 256])
}

/// 3D classic noise that repeats every `period` cells along each axis.
pub fn classic3_periodic<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R, period: [u32; 3]) -> R {
    let cx = x.floor();
    let cy = y.floor();
    let cz = z.floor();
    let x = x - cx;
    let y = y - cy;
    let z = z - cz;
    let xi = cell_pair(cx, period[0]);
    let yi = cell_pair(cy, period[1]);
    let zi = cell_pair(cz, period[2]);
    // perm[X+perm[Y+perm[Z]]] = T(X, Y + P(Z)).
    let pz0 = lut.perm1(zi[0]);
    let pz1 = lut.perm1(zi[1]);
    let g000 = lut.grad3_at::<R>(xi[0], yi[0] + pz0);
    let g001 = lut.grad3_at::<R>(xi[0], yi[0] + pz1);
    let g010 = lut.grad3_at::<R>(xi[0], yi[1] + pz0);
    let g011 = lut.grad3_at::<R>(xi[0], yi[1] + pz1);
    let g100 = lut.grad3_at::<R>(xi[1], yi[0] + pz0);
    let g101 = lut.grad3_at::<R>(xi[1], yi[0] + pz1);
    let g110 = lut.grad3_at::<R>(xi[1], yi[1] + pz0);
    let g111 = lut.grad3_at::<R>(xi[1], yi[1] + pz1);
    let one = R::lit(1.0);
    let dot3 = |g: [R; 3], x: R, y: R, z: R| g[0] * x + g[1] * y + g[2] * z;
    let n000 = dot3(g000, x, y, z);
    let n100 = dot3(g100, x - one, y, z);
    let n010 = dot3(g010, x, y - one, z);
    let n110 = dot3(g110, x - one, y - one, z);
    let n001 = dot3(g001, x, y, z - one);
    let n101 = dot3(g101, x - one, y, z - one);
    let n011 = dot3(g011, x, y - one, z - one);
    let n111 = dot3(g111, x - one, y - one, z - one);
    let u = fade(x);
    let v = fade(y);
    let w = fade(z);
    let nx00 = lerp(n000, n100, u);
    let nx01 = lerp(n001, n101, u);
    let nx10 = lerp(n010, n110, u);
    let nx11 = lerp(n011, n111, u);
    let nxy0 = lerp(nx00, nx10, v);
    let nxy1 = lerp(nx01, nx11, v);
    lerp(nxy0, nxy1, w)
}

/// 4D classic Perlin noise. Zero at every lattice point.
pub fn classic4<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R, w: R) -> R {
    classic4_periodic(lut, x, y, z, w, NATURAL_PERIOD)
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
    let cx = x.floor();
    let cy = y.floor();
    let cz = z.floor();
    let cw = w.floor();
    let x = x - cx;
    let y = y - cy;
    let z = z - cz;
    let w = w - cw;
    let xi = cell_pair(cx, period[0]);
    let yi = cell_pair(cy, period[1]);
    let zi = cell_pair(cz, period[2]);
    let wi = cell_pair(cw, period[3]);
    // Corner (a, b, c, d) in {0,1}⁴: perm[X+a+perm[Y+b+perm[Z+c+perm[W+d]]]] % 32
    // = grad4 at T(X + a, Y + b + T(Z + c, W + d)), dotted with the offset to the corner.
    let corner = |a: u32, b: u32, c: u32, d: u32| {
        let g = lut.grad4_at::<R>(
            xi[a as usize],
            yi[b as usize] + lut.hash2(zi[c as usize], wi[d as usize]),
        );
        let dx = x - R::from_u32(a);
        let dy = y - R::from_u32(b);
        let dz = z - R::from_u32(c);
        let dw = w - R::from_u32(d);
        g[0] * dx + g[1] * dy + g[2] * dz + g[3] * dw
    };
    let u = fade(x);
    let v = fade(y);
    let s = fade(z);
    let q = fade(w);
    // Interpolate along x, then y, then z, then w.
    let along_x = |b, c, d| lerp(corner(0, b, c, d), corner(1, b, c, d), u);
    let along_y = |c, d| lerp(along_x(0, c, d), along_x(1, c, d), v);
    let along_z = |d| lerp(along_y(0, d), along_y(1, d), s);
    lerp(along_z(0), along_z(1), q)
}
