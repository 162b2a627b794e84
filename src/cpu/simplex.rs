//! CPU mirror of `shaders/simplex.wgsl`: Gustavson's simplex noise in 2D, 3D and 4D.
//!
//! Same names, same order of operations as the shader (read them side by side). In `f64`
//! with the default tables this is Gustavson's Java `SimplexNoise` (with a true floor);
//! in `f32` it is what the GPU computes.

use super::cellular::wgpu_noise_cell_unit;
use super::lattice::wrap256;
use super::lookup::NoiseHasher;
use super::real::Real;

pub use crate::tables::{
    skew_factors, SIMPLEX2_F, SIMPLEX2_G, SIMPLEX3_F, SIMPLEX3_G, SIMPLEX4_F, SIMPLEX4_G,
};

/// Squared kernel radius of 2D simplex noise (Gustavson: 0.5).
pub const SIMPLEX2_R2: f64 = 0.5;
/// Squared kernel radius of 3D and 4D simplex noise (Gustavson and Perlin: 0.6).
pub const SIMPLEX34_R2: f64 = 0.6;

/// Output scale of 3D simplex noise with the continuous kernel r² = 0.5, chosen so its
/// range matches r² = 0.6 with scale 32: the ratio of the unscaled maxima of the two
/// kernels over 4·10⁶ random points (0.030568 / 0.013006) times 32 = 75.2.
pub const SIMPLEX3_R05_SCALE: f64 = 75.2;
/// Output scale of 4D simplex noise with r² = 0.5: 27 × 0.036692 / 0.015913 = 62.26,
/// measured as for [`SIMPLEX3_R05_SCALE`].
pub const SIMPLEX4_R05_SCALE: f64 = 62.26;
/// 2π, for the torus mapping of tileable 2D simplex noise.
pub const TAU: f64 = std::f64::consts::TAU;

/// `max(t, 0)⁴`: the radial falloff of one corner (Java: `t *= t; t * t * dot`).
#[inline(always)]
pub fn falloff<R: Real>(t: R) -> R {
    let t = t.max(R::lit(0.0));
    let t2 = t * t;
    t2 * t2
}

/// The corners of the simplex containing a point: the offset `d` from each corner to the
/// point, each corner's lattice key ([`NoiseHasher::lattice_key`]) and the gradient `g` read
/// from it (`simplexN_corners` in the shader).
#[derive(Clone, Copy, Debug)]
pub struct Corners<R, const N: usize, const C: usize> {
    /// Offsets from the corners to the point.
    pub d: [[R; N]; C],
    /// Gradients of the corners.
    pub g: [[R; N]; C],
    /// Lattice keys of the corners (their hash: [`NoiseHasher::key_hash`]).
    pub key: [u32; C],
}

/// One corner's contribution `max(r² - |d|², 0)⁴ (g·d)`, in the Java code's order.
#[inline(always)]
pub fn corner_value<R: Real, const N: usize>(d: &[R; N], g: &[R; N], r2: R) -> R {
    let mut t = r2;
    for a in 0..N {
        t = t - d[a] * d[a];
    }
    let mut gd = g[0] * d[0];
    for a in 1..N {
        gd = gd + g[a] * d[a];
    }
    falloff(t) * gd
}

/// One corner's contribution to the gradient: `t⁴ g − 8 t³ (g·d) d` with
/// `t = max(r² − |d|², 0)` (the derivative of [`corner_value`] with respect to the point).
#[inline(always)]
pub fn corner_gradient<R: Real, const N: usize>(d: &[R; N], g: &[R; N], r2: R) -> [R; N] {
    let mut t = r2;
    for a in 0..N {
        t = t - d[a] * d[a];
    }
    let t = t.max(R::lit(0.0));
    let mut gd = g[0] * d[0];
    for a in 1..N {
        gd = gd + g[a] * d[a];
    }
    let t2 = t * t;
    let t4 = t2 * t2;
    let t3 = t2 * t;
    std::array::from_fn(|a| t4 * g[a] - R::lit(8.0) * t3 * gd * d[a])
}

/// `scale · Σ corner_value`, summed in corner order.
#[inline(always)]
fn sum_corners<R: Real, const N: usize, const C: usize>(
    c: &Corners<R, N, C>,
    r2: R,
    scale: R,
) -> R {
    let mut sum = corner_value(&c.d[0], &c.g[0], r2);
    for i in 1..C {
        sum = sum + corner_value(&c.d[i], &c.g[i], r2);
    }
    scale * sum
}

/// `[value, ∂/∂x, ∂/∂y, …]`: the value as [`sum_corners`] and the analytic gradient.
#[inline(always)]
fn value_and_gradient<R: Real, const N: usize, const C: usize>(
    c: &Corners<R, N, C>,
    r2: R,
    scale: R,
) -> [R; 5] {
    let mut out = [R::lit(0.0); 5];
    out[0] = sum_corners(c, r2, scale);
    let mut gradient = corner_gradient(&c.d[0], &c.g[0], r2);
    for i in 1..C {
        let g = corner_gradient(&c.d[i], &c.g[i], r2);
        for a in 0..N {
            gradient[a] = gradient[a] + g[a];
        }
    }
    for a in 0..N {
        out[a + 1] = scale * gradient[a];
    }
    out
}

/// The simplex of a 2D point: skew, pick the triangle, hash the three corners.
pub fn simplex2_corners<R: Real>(lut: &impl NoiseHasher, x: R, y: R) -> Corners<R, 2, 3> {
    // Beyond the limit the skew would overflow to infinity and give NaN; f32 points
    // there are 2^100 cells apart, so which cell they land in is arbitrary anyway.
    let lim = R::simplex_coord_limit();
    let x = x.clamp(-lim, lim);
    let y = y.clamp(-lim, lim);
    let f2 = R::lit(SIMPLEX2_F);
    let g2 = R::lit(SIMPLEX2_G);
    // Skew to find the cell, unskew its origin back.
    let s = (x + y) * f2;
    let i = (x + s).floor();
    let j = (y + s).floor();
    let t = (i + j) * g2;
    let x0 = x - (i - t);
    let y0 = y - (j - t);
    // Which of the two triangles: `>` as in the Java code.
    let i1: u32 = if x0 > y0 { 1 } else { 0 };
    let j1: u32 = 1 - i1;
    let x1 = x0 - R::from_u32(i1) + g2;
    let y1 = y0 - R::from_u32(j1) + g2;
    let x2 = x0 - R::lit(1.0) + R::lit(2.0) * g2;
    let y2 = y0 - R::lit(1.0) + R::lit(2.0) * g2;
    let ii = wrap256(i);
    let jj = wrap256(j);
    let key = [
        lut.lattice_key(&[ii, jj]),
        lut.lattice_key(&[ii + i1, jj + j1]),
        lut.lattice_key(&[ii + 1, jj + 1]),
    ];
    Corners {
        d: [[x0, y0], [x1, y1], [x2, y2]],
        g: key.map(|k| lut.key_grad2::<R>(k)),
        key,
    }
}

/// 2D simplex noise, in [-1, 1].
pub fn simplex2<R: Real>(lut: &impl NoiseHasher, x: R, y: R) -> R {
    sum_corners(
        &simplex2_corners(lut, x, y),
        R::lit(SIMPLEX2_R2),
        R::lit(70.0),
    )
}

/// 2D simplex noise and its analytic gradient: `[value, ∂/∂x, ∂/∂y]` (Gustavson's sdnoise).
pub fn simplex2_deriv<R: Real>(lut: &impl NoiseHasher, x: R, y: R) -> [R; 3] {
    let v = value_and_gradient(
        &simplex2_corners(lut, x, y),
        R::lit(SIMPLEX2_R2),
        R::lit(70.0),
    );
    [v[0], v[1], v[2]]
}

/// Flow noise (Perlin and Neyret's rotating gradients, as psrdnoise turns them): every
/// corner's gradient turned by `angle` radians, the same way at every corner. Animating the
/// angle makes the pattern swirl in place; angle 0 is [`simplex2`] bit for bit (the
/// gradients' components are −1, 0 or 1, so `g·cos 0 − g'·sin 0` is exactly `g`).
pub fn flow_corners2<R: Real>(c: Corners<R, 2, 3>, angle: R) -> Corners<R, 2, 3> {
    let (cs, sn) = (angle.cos(), angle.sin());
    Corners {
        d: c.d,
        g: c.g.map(|g| [g[0] * cs - g[1] * sn, g[0] * sn + g[1] * cs]),
        key: c.key,
    }
}

/// 2D flow noise: [`simplex2`] with gradients turned by `angle` radians, in [-1, 1].
pub fn flow2<R: Real>(lut: &impl NoiseHasher, x: R, y: R, angle: R) -> R {
    sum_corners(
        &flow_corners2(simplex2_corners(lut, x, y), angle),
        R::lit(SIMPLEX2_R2),
        R::lit(70.0),
    )
}

/// 2D flow noise and its analytic gradient: `[value, ∂/∂x, ∂/∂y]`.
pub fn flow2_deriv<R: Real>(lut: &impl NoiseHasher, x: R, y: R, angle: R) -> [R; 3] {
    let v = value_and_gradient(
        &flow_corners2(simplex2_corners(lut, x, y), angle),
        R::lit(SIMPLEX2_R2),
        R::lit(70.0),
    );
    [v[0], v[1], v[2]]
}

/// 2D simplex noise that tiles with `period` (in lattice cells, any positive real) along
/// x and y: 4D simplex noise sampled on a torus, the circle of circumference `period.x`
/// in (x, y) and of `period.y` in (z, w), so the local scale is that of the plain noise.
pub fn simplex2_tiled<R: Real>(lut: &impl NoiseHasher, x: R, y: R, period: [R; 2]) -> R {
    let [a, b, c, d] = torus_point(x, y, period).0;
    simplex4(lut, a, b, c, d)
}

/// [`simplex2_tiled`] and its gradient `[value, ∂/∂x, ∂/∂y]`: the 4D gradient taken back
/// through the torus, `∂/∂x = −sin(ax) ∂/∂X + cos(ax) ∂/∂Y` (the circle's radius and the
/// angle's rate `2π/period` cancel), likewise for y with Z and W.
pub fn simplex2_tiled_deriv<R: Real>(lut: &impl NoiseHasher, x: R, y: R, period: [R; 2]) -> [R; 3] {
    let ([a, b, c, e], turns) = torus_point(x, y, period);
    torus_gradient(simplex4_deriv(lut, a, b, c, e, R::lit(SIMPLEX34_R2), R::lit(27.0)), turns)
}

/// Which of the six tetrahedra of a cube holds the offsets `(x0, y0, z0)`: the unit steps
/// to its second and third corners, by the comparisons of the Java code (`>=` included).
#[inline(always)]
fn simplex3_order<R: Real>(x0: R, y0: R, z0: R) -> ([u32; 3], [u32; 3]) {
    if x0 >= y0 {
        if y0 >= z0 {
            ([1, 0, 0], [1, 1, 0])
        } else if x0 >= z0 {
            ([1, 0, 0], [1, 0, 1])
        } else {
            ([0, 0, 1], [1, 0, 1])
        }
    } else if y0 < z0 {
        ([0, 0, 1], [0, 1, 1])
    } else if x0 < z0 {
        ([0, 1, 0], [0, 1, 1])
    } else {
        ([0, 1, 0], [1, 1, 0])
    }
}

/// The simplex of a 3D point: skew, pick the tetrahedron, hash the four corners.
pub fn simplex3_corners<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R) -> Corners<R, 3, 4> {
    // Beyond the limit the skew would overflow to infinity and give NaN; f32 points
    // there are 2^100 cells apart, so which cell they land in is arbitrary anyway.
    let lim = R::simplex_coord_limit();
    let x = x.clamp(-lim, lim);
    let y = y.clamp(-lim, lim);
    let z = z.clamp(-lim, lim);
    let f3 = R::lit(SIMPLEX3_F);
    let g3 = R::lit(SIMPLEX3_G);
    let s = (x + y + z) * f3;
    let i = (x + s).floor();
    let j = (y + s).floor();
    let k = (z + s).floor();
    let t = (i + j + k) * g3;
    let x0 = x - (i - t);
    let y0 = y - (j - t);
    let z0 = z - (k - t);
    let (o1, o2) = simplex3_order(x0, y0, z0);
    let x1 = x0 - R::from_u32(o1[0]) + g3;
    let y1 = y0 - R::from_u32(o1[1]) + g3;
    let z1 = z0 - R::from_u32(o1[2]) + g3;
    let x2 = x0 - R::from_u32(o2[0]) + R::lit(2.0) * g3;
    let y2 = y0 - R::from_u32(o2[1]) + R::lit(2.0) * g3;
    let z2 = z0 - R::from_u32(o2[2]) + R::lit(2.0) * g3;
    let x3 = x0 - R::lit(1.0) + R::lit(3.0) * g3;
    let y3 = y0 - R::lit(1.0) + R::lit(3.0) * g3;
    let z3 = z0 - R::lit(1.0) + R::lit(3.0) * g3;
    let ii = wrap256(i);
    let jj = wrap256(j);
    let kk = wrap256(k);
    let key = [
        lut.lattice_key(&[ii, jj, kk]),
        lut.lattice_key(&[ii + o1[0], jj + o1[1], kk + o1[2]]),
        lut.lattice_key(&[ii + o2[0], jj + o2[1], kk + o2[2]]),
        lut.lattice_key(&[ii + 1, jj + 1, kk + 1]),
    ];
    Corners {
        d: [[x0, y0, z0], [x1, y1, z1], [x2, y2, z2], [x3, y3, z3]],
        g: key.map(|k| lut.key_grad3::<R>(k)),
        key,
    }
}

/// 3D simplex noise, in [-1, 1].
pub fn simplex3<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R) -> R {
    simplex3_r2(lut, x, y, z, R::lit(SIMPLEX34_R2), R::lit(32.0))
}

/// 3D simplex noise with squared kernel radius `r2` and output scale `scale`.
pub fn simplex3_r2<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R, r2: R, scale: R) -> R {
    sum_corners(&simplex3_corners(lut, x, y, z), r2, scale)
}

/// 3D simplex noise and its analytic gradient `[value, ∂/∂x, ∂/∂y, ∂/∂z]`, with squared
/// kernel radius `r2` and output scale `scale` (0.6 and 32 for the reference noise).
pub fn simplex3_deriv<R: Real>(
    lut: &impl NoiseHasher,
    x: R,
    y: R,
    z: R,
    r2: R,
    scale: R,
) -> [R; 4] {
    let v = value_and_gradient(&simplex3_corners(lut, x, y, z), r2, scale);
    [v[0], v[1], v[2], v[3]]
}

/// 3D flow noise's corners: each gradient (an edge midpoint of the cube, one component 0)
/// turned by `angle` radians within its own coordinate plane, about the axis `k` it is zero
/// on: `g cos + (k × g) sin`. Every component product is exact, so angle 0 is [`simplex3`]
/// bit for bit and the gradient's length stays √2.
pub fn flow_corners3<R: Real>(c: Corners<R, 3, 4>, angle: R) -> Corners<R, 3, 4> {
    let (cs, sn) = (angle.cos(), angle.sin());
    let one = R::lit(1.0);
    Corners {
        d: c.d,
        g: c.g.map(|g| {
            let k = [one - g[0].abs(), one - g[1].abs(), one - g[2].abs()];
            let kxg = [
                k[1] * g[2] - k[2] * g[1],
                k[2] * g[0] - k[0] * g[2],
                k[0] * g[1] - k[1] * g[0],
            ];
            std::array::from_fn(|a| g[a] * cs + kxg[a] * sn)
        }),
        key: c.key,
    }
}

/// 3D flow noise: [`simplex3`] with gradients turned by `angle` radians, in [-1, 1].
pub fn flow3<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R, angle: R) -> R {
    flow3_r2(lut, [x, y, z], angle, R::lit(SIMPLEX34_R2), R::lit(32.0))
}

/// 3D flow noise at `p` with squared kernel radius `r2` and output scale `scale` (as
/// [`simplex3_r2`]).
pub fn flow3_r2<R: Real>(lut: &impl NoiseHasher, p: [R; 3], angle: R, r2: R, scale: R) -> R {
    let c = simplex3_corners(lut, p[0], p[1], p[2]);
    sum_corners(&flow_corners3(c, angle), r2, scale)
}

/// 3D flow noise at `p` and its analytic gradient `[value, ∂/∂x, ∂/∂y, ∂/∂z]` (as
/// [`simplex3_deriv`]).
pub fn flow3_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 3],
    angle: R,
    r2: R,
    scale: R,
) -> [R; 4] {
    let c = simplex3_corners(lut, p[0], p[1], p[2]);
    let v = value_and_gradient(&flow_corners3(c, angle), r2, scale);
    [v[0], v[1], v[2], v[3]]
}

/// Output scale of [`simplex3_periodic`]: its measured extremes (f64, 10⁶ random points,
/// both lookup variants; `tests/reference/noise_periodic3.rs` re-measures them) are
/// ±0.01300 unscaled, so 74 maps them to ±0.962, within [-1, 1] like the other simplex
/// functions with a margin for points not sampled.
pub const SIMPLEX3_PERIODIC_SCALE: f64 = 74.0;

/// The simplex of a 3D point on the lattice of psrdnoise (Gustavson & McEwan 2022): the
/// points `Mi·i` for whole `i` in `uvw = (y + z, x + z, x + y)` space, which integer
/// translations along x, y and z map onto itself. Each corner is wrapped into the tile
/// `[0, period)` (whole numbers) in xyz before it is hashed, so the noise tiles.
pub fn simplex3_periodic_corners<R: Real>(
    lut: &impl NoiseHasher,
    x: R,
    y: R,
    z: R,
    period: [u32; 3],
) -> Corners<R, 3, 4> {
    let u = y + z;
    let v = x + z;
    let w = x + y;
    let i = u.floor();
    let j = v.floor();
    let k = w.floor();
    let fu = u - i;
    let fv = v - j;
    let fw = w - k;
    // Which of the six tetrahedra of the uvw cube: the order of the fractions.
    let (o1, o2) = simplex3_order(fu, fv, fw);
    let mut d = [[R::lit(0.0); 3]; 4];
    let mut key = [0; 4];
    let offsets = [[0, 0, 0], o1, o2, [1, 1, 1]];
    for (c, o) in offsets.iter().enumerate() {
        let a = i + R::from_u32(o[0]);
        let b = j + R::from_u32(o[1]);
        let e = k + R::from_u32(o[2]);
        // The corner in xyz: Mi·(a, b, e), half-integers, exact.
        let half = R::lit(0.5);
        let cx = (b + e - a) * half;
        let cy = (a + e - b) * half;
        let cz = (a + b - e) * half;
        d[c] = [x - cx, y - cy, z - cz];
        // Wrapped into the tile, back to uvw (whole numbers), hashed as simplex3's corners.
        let wx = wrap_half_period(cx, period[0]);
        let wy = wrap_half_period(cy, period[1]);
        let wz = wrap_half_period(cz, period[2]);
        let ii = wrap256(wy + wz);
        let jj = wrap256(wx + wz);
        let kk = wrap256(wx + wy);
        key[c] = lut.lattice_key(&[ii, jj, kk]);
    }
    Corners {
        d,
        g: key.map(|k| lut.key_grad3::<R>(k)),
        key,
    }
}

/// Floored modulo `period` (a whole number) of a multiple of 1/2: exact, as `wrap_period`.
#[inline(always)]
fn wrap_half_period<R: Real>(c: R, period: u32) -> R {
    let p = R::from_u32(period);
    let mut r = c - p * (c / p).floor();
    if r < R::lit(0.0) {
        r = r + p;
    }
    if r >= p {
        r = r - p;
    }
    r
}

/// 3D simplex noise that tiles with whole-number `period` along x, y and z (a different
/// lattice from [`simplex3`]'s, so a different pattern): continuous kernel r² = 0.5,
/// in [-1, 1].
pub fn simplex3_periodic<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R, period: [u32; 3]) -> R {
    sum_corners(
        &simplex3_periodic_corners(lut, x, y, z, period),
        R::lit(0.5),
        R::lit(SIMPLEX3_PERIODIC_SCALE),
    )
}

/// [`simplex3_periodic`] and its gradient `[value, ∂/∂x, ∂/∂y, ∂/∂z]`.
pub fn simplex3_periodic_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 3],
    period: [u32; 3],
) -> [R; 4] {
    let v = value_and_gradient(
        &simplex3_periodic_corners(lut, p[0], p[1], p[2], period),
        R::lit(0.5),
        R::lit(SIMPLEX3_PERIODIC_SCALE),
    );
    [v[0], v[1], v[2], v[3]]
}

/// The simplex of a 4D point: skew, rank the offsets, hash the five corners.
pub fn simplex4_corners<R: Real>(
    lut: &impl NoiseHasher,
    x: R,
    y: R,
    z: R,
    w: R,
) -> Corners<R, 4, 5> {
    // Beyond the limit the skew would overflow to infinity and give NaN; f32 points
    // there are 2^100 cells apart, so which cell they land in is arbitrary anyway.
    let lim = R::simplex_coord_limit();
    let x = x.clamp(-lim, lim);
    let y = y.clamp(-lim, lim);
    let z = z.clamp(-lim, lim);
    let w = w.clamp(-lim, lim);
    let f4 = R::lit(SIMPLEX4_F);
    let g4 = R::lit(SIMPLEX4_G);
    let s = (x + y + z + w) * f4;
    let i = (x + s).floor();
    let j = (y + s).floor();
    let k = (z + s).floor();
    let l = (w + s).floor();
    let t = (i + j + k + l) * g4;
    let x0 = x - (i - t);
    let y0 = y - (j - t);
    let z0 = z - (k - t);
    let w0 = w - (l - t);
    // Six pairwise comparisons index the traversal table.
    let c = (if x0 > y0 { 32 } else { 0 })
        + (if x0 > z0 { 16 } else { 0 })
        + (if y0 > z0 { 8 } else { 0 })
        + (if x0 > w0 { 4 } else { 0 })
        + (if y0 > w0 { 2 } else { 0 })
        + (if z0 > w0 { 1 } else { 0 });
    let order = lut.simplex4_order(c);
    let o1 = order.map(|r| (r >= 3) as u32);
    let o2 = order.map(|r| (r >= 2) as u32);
    let o3 = order.map(|r| (r >= 1) as u32);
    let x1 = x0 - R::from_u32(o1[0]) + g4;
    let y1 = y0 - R::from_u32(o1[1]) + g4;
    let z1 = z0 - R::from_u32(o1[2]) + g4;
    let w1 = w0 - R::from_u32(o1[3]) + g4;
    let x2 = x0 - R::from_u32(o2[0]) + R::lit(2.0) * g4;
    let y2 = y0 - R::from_u32(o2[1]) + R::lit(2.0) * g4;
    let z2 = z0 - R::from_u32(o2[2]) + R::lit(2.0) * g4;
    let w2 = w0 - R::from_u32(o2[3]) + R::lit(2.0) * g4;
    let x3 = x0 - R::from_u32(o3[0]) + R::lit(3.0) * g4;
    let y3 = y0 - R::from_u32(o3[1]) + R::lit(3.0) * g4;
    let z3 = z0 - R::from_u32(o3[2]) + R::lit(3.0) * g4;
    let w3 = w0 - R::from_u32(o3[3]) + R::lit(3.0) * g4;
    let x4 = x0 - R::lit(1.0) + R::lit(4.0) * g4;
    let y4 = y0 - R::lit(1.0) + R::lit(4.0) * g4;
    let z4 = z0 - R::lit(1.0) + R::lit(4.0) * g4;
    let w4 = w0 - R::lit(1.0) + R::lit(4.0) * g4;
    let ii = wrap256(i);
    let jj = wrap256(j);
    let kk = wrap256(k);
    let ll = wrap256(l);
    let corner = |o: [u32; 4]| lut.lattice_key(&[ii + o[0], jj + o[1], kk + o[2], ll + o[3]]);
    let key = [
        corner([0, 0, 0, 0]),
        corner(o1),
        corner(o2),
        corner(o3),
        corner([1, 1, 1, 1]),
    ];
    Corners {
        d: [
            [x0, y0, z0, w0],
            [x1, y1, z1, w1],
            [x2, y2, z2, w2],
            [x3, y3, z3, w3],
            [x4, y4, z4, w4],
        ],
        g: key.map(|k| lut.key_grad4::<R>(k)),
        key,
    }
}

/// 4D simplex noise, in [-1, 1].
pub fn simplex4<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R, w: R) -> R {
    simplex4_r2(lut, x, y, z, w, R::lit(SIMPLEX34_R2), R::lit(27.0))
}

/// 4D simplex noise with squared kernel radius `r2` and output scale `scale`.
#[allow(clippy::too_many_arguments)]
pub fn simplex4_r2<R: Real>(lut: &impl NoiseHasher, x: R, y: R, z: R, w: R, r2: R, scale: R) -> R {
    sum_corners(&simplex4_corners(lut, x, y, z, w), r2, scale)
}

/// 4D simplex noise and its analytic gradient `[value, ∂/∂x, ∂/∂y, ∂/∂z, ∂/∂w]`.
#[allow(clippy::too_many_arguments)]
pub fn simplex4_deriv<R: Real>(
    lut: &impl NoiseHasher,
    x: R,
    y: R,
    z: R,
    w: R,
    r2: R,
    scale: R,
) -> [R; 5] {
    value_and_gradient(&simplex4_corners(lut, x, y, z, w), r2, scale)
}

/// The hash byte of the first component of a simplex corner's vector (the `warp` node's
/// `simplex-vector` noise): component `a` is byte `SIMPLEX_VECTOR_SLOT + a` of the corner's
/// hash ([`NoiseHasher::key_hash`]).
pub const SIMPLEX_VECTOR_SLOT: u32 = 1;
/// The output scale of the 2D vector noise: [`simplex2`]'s, 70. A component is at most
/// `Σ max(r² − |d|², 0)⁴ |g · d|` over the corners (every vector component ±1), whose
/// largest value over the triangle and the gradients, found by search, is 0.014256: 0.998
/// scaled (docs/graphs.md, the `simplex-vector` warp).
pub const SIMPLEX2_VECTOR_SCALE: f64 = 70.0;
/// The output scale of the 3D vector noise: [`simplex3`]'s, 32; the bound found as for
/// [`SIMPLEX2_VECTOR_SCALE`] is 0.030585, 0.979 scaled.
pub const SIMPLEX3_VECTOR_SCALE: f64 = 32.0;
/// The output scale of the 4D vector noise: [`simplex4`]'s, 27; the bound found as for
/// [`SIMPLEX2_VECTOR_SCALE`] is 0.036730, 0.992 scaled.
pub const SIMPLEX4_VECTOR_SCALE: f64 = 27.0;

/// The vector sums of simplex noise of vectors over the corners `c` with squared kernel
/// radius `r2`, before the output scale: row `a` is component `a`, `Σ u_a · [value,
/// gradient…]` over the corners in order, `u_a` byte `SIMPLEX_VECTOR_SLOT + a` of the
/// corner's hash in [-1, 1] and `[value, gradient…]` its [`corner_value`] and
/// [`corner_gradient`], the first `K` of them (`K` 1: the values alone)
/// (`wgpu_noise_simplex_vector_rowsN`).
#[inline(always)]
fn simplex_vector_rows<R: Real, const N: usize, const C: usize, const K: usize>(
    lut: &impl NoiseHasher,
    c: &Corners<R, N, C>,
    r2: R,
) -> [[R; K]; N] {
    let mut rows = [[R::lit(0.0); K]; N];
    for i in 0..C {
        let mut term = [R::lit(0.0); K];
        term[0] = corner_value(&c.d[i], &c.g[i], r2);
        if K > 1 {
            let g = corner_gradient(&c.d[i], &c.g[i], r2);
            term[1..=N].copy_from_slice(&g);
        }
        let h = lut.key_hash(c.key[i]);
        for (a, row) in rows.iter_mut().enumerate() {
            let u: R = wgpu_noise_cell_unit(lut, h, SIMPLEX_VECTOR_SLOT + a as u32);
            *row = std::array::from_fn(|k| row[k] + u * term[k]);
        }
    }
    rows
}

/// Which simplex noise of vectors ([`simplex_vector`]): the lattice it is on, its tiling
/// and its kernel, as [`simplex2`], [`simplex3`] and [`simplex4`] and their tiled forms
/// choose them for the `simplex` node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SimplexVectorForm<R> {
    /// Untiled on simplex noise's lattice; `continuous`: in 3D and 4D the kernel r² = 0.5
    /// with [`SIMPLEX3_R05_SCALE`] and [`SIMPLEX4_R05_SCALE`] (2D's kernel is r² = 0.5
    /// already), else r² = 0.6 with the reference scales.
    Plain { continuous: bool },
    /// 2D, tiling with `period` (any positive reals) along x and y: the 4D noise on the
    /// torus of [`simplex2_tiled`], its first two components, each gradient taken back
    /// through the torus.
    Torus([R; 2]),
    /// 3D, tiling with whole-number `period` along x, y and z: on the periodic lattice of
    /// [`simplex3_periodic`] (kernel r² = 0.5, scale [`SIMPLEX3_PERIODIC_SCALE`]).
    Periodic([u32; 3]),
}

/// The corners of the simplex around `p` (2 to 4 coordinates) of `form`'s lattice, their
/// kernel's squared radius and the vector noise's output scale (not for the torus, whose
/// 4D noise is [`VectorRows::Four`] at the torus point).
#[inline(always)]
fn simplex_vector_rows_at<R: Real, const K2: usize, const K3: usize, const K4: usize>(
    lut: &impl NoiseHasher,
    p: &[R],
    form: SimplexVectorForm<R>,
) -> VectorRows<R, K2, K3, K4> {
    let continuous = matches!(form, SimplexVectorForm::Plain { continuous: true });
    match (p, form) {
        // The torus's 4D noise with its reference kernel, as `simplex2_tiled`'s.
        (&[x, y], SimplexVectorForm::Torus(period)) => {
            let [a, b, c, e] = torus_point(x, y, period).0;
            VectorRows::Four(
                simplex_vector_rows(lut, &simplex4_corners(lut, a, b, c, e), R::lit(SIMPLEX34_R2)),
                R::lit(SIMPLEX4_VECTOR_SCALE),
            )
        }
        (&[x, y], _) => VectorRows::Two(
            simplex_vector_rows(lut, &simplex2_corners(lut, x, y), R::lit(SIMPLEX2_R2)),
            R::lit(SIMPLEX2_VECTOR_SCALE),
        ),
        (&[x, y, z], SimplexVectorForm::Periodic(period)) => VectorRows::Three(
            simplex_vector_rows(
                lut,
                &simplex3_periodic_corners(lut, x, y, z, period),
                R::lit(0.5),
            ),
            R::lit(SIMPLEX3_PERIODIC_SCALE),
        ),
        (&[x, y, z], _) => {
            let (r2, scale) = if continuous {
                (0.5, SIMPLEX3_R05_SCALE)
            } else {
                (SIMPLEX34_R2, SIMPLEX3_VECTOR_SCALE)
            };
            VectorRows::Three(
                simplex_vector_rows(lut, &simplex3_corners(lut, x, y, z), R::lit(r2)),
                R::lit(scale),
            )
        }
        (&[x, y, z, w], _) => {
            let (r2, scale) = if continuous {
                (0.5, SIMPLEX4_R05_SCALE)
            } else {
                (SIMPLEX34_R2, SIMPLEX4_VECTOR_SCALE)
            };
            VectorRows::Four(
                simplex_vector_rows(lut, &simplex4_corners(lut, x, y, z, w), R::lit(r2)),
                R::lit(scale),
            )
        }
        _ => unreachable!("simplex noise of vectors is 2D to 4D, not {}D", p.len()),
    }
}

/// The point of [`simplex2_tiled`]'s torus for `(x, y)` with `period`, and the cosines and
/// sines of its two angles `[cos ax, sin ax, cos ay, sin ay]` (the torus's Jacobian).
#[inline(always)]
pub(super) fn torus_point<R: Real>(x: R, y: R, period: [R; 2]) -> ([R; 4], [R; 4]) {
    let tau = R::lit(TAU);
    let ax = x / period[0] * tau;
    let ay = y / period[1] * tau;
    let rx = period[0] / tau;
    let ry = period[1] / tau;
    let (cx, sx, cy, sy) = (ax.cos(), ax.sin(), ay.cos(), ay.sin());
    ([rx * cx, rx * sx, ry * cy, ry * sy], [cx, sx, cy, sy])
}

/// `[value, ∂/∂x, ∂/∂y]` of a 4D `[value, ∂/∂X, ∂/∂Y, ∂/∂Z, ∂/∂W]` at a torus point whose
/// angles have cosines and sines `[cos ax, sin ax, cos ay, sin ay]`:
/// `∂/∂x = −sin(ax) ∂/∂X + cos(ax) ∂/∂Y` (the circle's radius and the angle's rate
/// `2π/period` cancel), likewise for y with Z and W.
#[inline(always)]
pub(super) fn torus_gradient<R: Real>(d: [R; 5], [cx, sx, cy, sy]: [R; 4]) -> [R; 3] {
    [d[0], cx * d[2] - sx * d[1], cy * d[4] - sy * d[3]]
}

/// The rows of a 2D vector noise tiled on the torus from the rows `d` of the 4D one at the
/// torus point (angles' `turns`): its first two components, each gradient taken back
/// through the torus ([`torus_gradient`]), the others 0.
#[inline(always)]
pub(super) fn torus_vector_gradients<R: Real>(d: [[R; 5]; 4], turns: [R; 4]) -> [[R; 5]; 4] {
    let zero = R::lit(0.0);
    let back = |d: [R; 5]| {
        let [v, x, y] = torus_gradient(d, turns);
        [v, x, y, zero, zero]
    };
    [back(d[0]), back(d[1]), [zero; 5], [zero; 5]]
}

/// [`simplex_vector_rows`] in 2, 3 or 4 dimensions, with the output scale.
enum VectorRows<R, const K2: usize, const K3: usize, const K4: usize> {
    Two([[R; K2]; 2], R),
    Three([[R; K3]; 3], R),
    Four([[R; K4]; 4], R),
}

/// Simplex noise of vectors at `p` (2 to 4 coordinates; the `warp` node's `simplex-vector`
/// noise, as FastNoise2's `DomainWarpSimplex` with its gradient outer product) in `form`:
/// each corner's term `max(r² − |d|², 0)⁴ (g · d)` of [`simplex2`], [`simplex3`] or
/// [`simplex4`] (or their tiled forms) times a vector whose component `a` is byte
/// `SIMPLEX_VECTOR_SLOT + a` of the corner's hash in [-1, 1], summed and scaled: one walk of
/// the simplex serves every component. Components past the dimensions 0
/// (`wgpu_noise_simplex_vector2`, `…3`, `…4`).
pub fn simplex_vector<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    form: SimplexVectorForm<R>,
) -> [R; 4] {
    let zero = R::lit(0.0);
    match simplex_vector_rows_at::<R, 1, 1, 1>(lut, p, form) {
        VectorRows::Two(r, s) => [r[0][0] * s, r[1][0] * s, zero, zero],
        VectorRows::Three(r, s) => [r[0][0] * s, r[1][0] * s, r[2][0] * s, zero],
        // The torus's 2D noise: the first two components of the 4D noise.
        VectorRows::Four(r, s) if p.len() == 2 => [r[0][0] * s, r[1][0] * s, zero, zero],
        VectorRows::Four(r, s) => [r[0][0] * s, r[1][0] * s, r[2][0] * s, r[3][0] * s],
    }
}

/// [`simplex_vector`] and each component's gradient: `d[a] = [component a, ∂/∂x, …]`
/// (entries past the dimensions 0; `wgpu_noise_simplex_vector_deriv2`, `…3`, `…4`). On the
/// torus each component's 4D gradient is taken back as [`simplex2_tiled_deriv`]'s.
pub fn simplex_vector_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    form: SimplexVectorForm<R>,
) -> [[R; 5]; 4] {
    let mut d = [[R::lit(0.0); 5]; 4];
    fn scaled<R: Real, const K: usize>(d: &mut [[R; 5]; 4], rows: &[[R; K]], s: R) {
        for (d, row) in d.iter_mut().zip(rows) {
            for (d, &v) in d.iter_mut().zip(row) {
                *d = v * s;
            }
        }
    }
    match simplex_vector_rows_at::<R, 3, 4, 5>(lut, p, form) {
        VectorRows::Two(r, s) => scaled(&mut d, &r, s),
        VectorRows::Three(r, s) => scaled(&mut d, &r, s),
        VectorRows::Four(r, s) => scaled(&mut d, &r, s),
    }
    if let (SimplexVectorForm::Torus(period), &[x, y]) = (form, p) {
        d = torus_vector_gradients(d, torus_point(x, y, period).1);
    }
    d
}
