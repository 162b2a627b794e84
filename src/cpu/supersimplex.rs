//! CPU mirror of `shaders/supersimplex.wgsl`: K.jpg's OpenSimplex2S ("SuperSimplex" in
//! FastNoise2) in 2D (the Java's triangular lattice and its 24 gradients, its branches'
//! choice of four points; below) and in 3D, after the branch-free GLSL of OpenSimplex2: the
//! body-centred cubic lattice as two cubic half-lattices (`A` on the whole points, `B` on
//! the points half a step along every axis), four points of each around the point, each
//! contributing `max(3/4 − |d|², 0)⁴ (g · d)`. Same names, same order of operations as the
//! shader. The 3D choices (docs/graphs.md, SuperSimplex):
//!
//! - **Orientation**: the "conventional" (Java `noise3_Fallback`) rotation,
//!   `X = (2/3)(x + y + z) − p`: orthonormal and its own inverse, the same for every axis
//!   (the noise of a graph has no preferred axis; `ImproveXY` favours z as time).
//! - **Gradients**: each lattice point is hashed through [`NoiseHasher`] (`cell_hash` of its
//!   wrapped coordinates, `B`'s moved by [`SUPERSIMPLEX3_B_KEY`] so that the two
//!   half-lattices' points differ), and byte [`SUPERSIMPLEX3_SLOT`] of that hash, `b` in
//!   0..=255, picks gradient `(48 b) >> 8` of the 48 of the expanded rhombic dodecahedron
//!   ([`supersimplex3_gradient`]): 16 of them (the indices `3k`) are drawn by 6 bytes, the
//!   32 others by 5 (`6/256` against `5/256`; the uniform draw is `1/48`).
//! - **Periods**: the rotation maps a shift by 768 along one axis to a shift by whole
//!   multiples of 256 (the lookups' period) of the rotated lattice, so the noise repeats
//!   every 768 along each axis ([`crate::field::reduce_by_periods`]); it does not tile on
//!   a smaller square period.
//! - **Tiling**: 2D tiles as tileable 2D simplex does ([`super::simplex::simplex2_tiled`]):
//!   the 4D noise on a torus ([`supersimplex2_tiled`]). 3D tiles on any whole period per
//!   axis with the lattice unrotated, its cells wrapped into the tile
//!   ([`supersimplex3_tiled`]). 4D does not tile.

use super::cellular::wgpu_noise_cell_unit;
use super::lattice::{cell_pair, wrap256};
use super::lookup::NoiseHasher;
use super::real::Real;
use super::simplex::{torus_gradient, torus_point, torus_vector_gradients};

/// The rotation's factor: `X = (2/3)(x + y + z) − p`.
pub const SUPERSIMPLEX3_ROTATE: f64 = 2.0 / 3.0;
/// The kernel's squared radius: `max(3/4 − |d|², 0)⁴`.
pub const SUPERSIMPLEX3_R2: f64 = 0.75;
/// The lengthening of the cuboctahedral part of a gradient, `√(3/2)` (the GLSL's
/// `1.22474487139`).
pub const SUPERSIMPLEX3_EXPAND: f64 = 1.224_744_871_391_589;
/// The scale of the gradients of the first kind (the GLSL's noise scale `3.5946317686139184`)
/// and of the second kind (shortened by `1 − 0.042942436724648037` to the same length).
pub const SUPERSIMPLEX3_SCALE: [f64; 2] = [
    3.594_631_768_613_918_4,
    3.594_631_768_613_918_4 * (1.0 - 0.042_942_436_724_648_037),
];
/// The output scale: the sum times this is within [-1, 1] (docs/graphs.md, SuperSimplex).
pub const SUPERSIMPLEX3_NORM: f64 = 1.0;
/// The hash byte that picks a lattice point's gradient (2D and 3D).
pub const SUPERSIMPLEX3_SLOT: u32 = 0;
/// What half-lattice `B`'s wrapped coordinates are moved by before they are hashed.
pub const SUPERSIMPLEX3_B_KEY: u32 = 128;

/// Gradient `n` (0 to 47) of the expanded rhombic dodecahedron, as the GLSL's `grad`: bits
/// 0 to 2 the signs of a cube vertex `c` (set: +1), bit 3 its kind, `n >> 4` the axis `k`
/// zeroed in the cuboctahedral vertex `o`; the rhombic part is `c` (kind 0) or
/// `o + c × o` (kind 1); the gradient is `(o √(3/2) + rhombic part) · scale of its kind`.
#[inline(always)]
pub fn supersimplex3_gradient<R: Real>(n: u32) -> [R; 3] {
    let sign = |bit: u32| {
        if n & bit != 0 {
            R::lit(1.0)
        } else {
            R::lit(-1.0)
        }
    };
    let cube = [sign(1), sign(2), sign(4)];
    let kind = (n >> 3) & 1;
    let axis = n >> 4;
    let zero = R::lit(0.0);
    let o: [R; 3] = std::array::from_fn(|a| if a as u32 == axis { zero } else { cube[a] });
    let cross = [
        cube[1] * o[2] - cube[2] * o[1],
        cube[2] * o[0] - cube[0] * o[2],
        cube[0] * o[1] - cube[1] * o[0],
    ];
    let rhomb: [R; 3] = std::array::from_fn(|a| if kind == 1 { o[a] + cross[a] } else { cube[a] });
    let scale = R::lit(SUPERSIMPLEX3_SCALE[kind as usize]);
    std::array::from_fn(|a| (o[a] * R::lit(SUPERSIMPLEX3_EXPAND) + rhomb[a]) * scale)
}

/// The hash of the lattice point at offset `o` (0 or 1 per axis) from the lower corner of
/// the unit cube the point is in: `cells[a]` the cube's two cells along axis `a`, wrapped
/// ([`cell_pair`]), `key` added (`wgpu_noise_supersimplex3_point_hash`).
#[inline(always)]
pub fn supersimplex3_point_hash(
    lut: &impl NoiseHasher,
    cells: [[u32; 2]; 3],
    key: u32,
    o: [u32; 3],
) -> u32 {
    let v: [u32; 3] = std::array::from_fn(|a| (cells[a][o[a] as usize] + key) & 255);
    lut.cell_hash(&v)
}

/// One lattice point's contribution and its gradient with respect to the rotated point,
/// `[value, ∂/∂X, ∂/∂Y, ∂/∂Z]`: the point at offset `o` from the lower corner of the unit
/// cube the point is in, at `f` in it, of hash `h` ([`supersimplex3_point_hash`]), byte `b`
/// of which picks gradient `(48 b) >> 8` (`wgpu_noise_supersimplex3_point`).
#[inline(always)]
pub fn supersimplex3_point<R: Real>(lut: &impl NoiseHasher, f: [R; 3], o: [u32; 3], h: u32) -> [R; 4] {
    let d: [R; 3] = std::array::from_fn(|a| f[a] - R::from_u32(o[a]));
    let a = (R::lit(SUPERSIMPLEX3_R2) - ((d[0] * d[0] + d[1] * d[1]) + d[2] * d[2]))
        .max(R::lit(0.0));
    let g = supersimplex3_gradient::<R>((lut.cell_byte(h, SUPERSIMPLEX3_SLOT) * 48) >> 8);
    let aa = a * a;
    let aaaa = aa * aa;
    let e = (d[0] * g[0] + d[1] * g[1]) + d[2] * g[2];
    let t = R::lit(-8.0) * (aa * a * e);
    [
        aaaa * e,
        t * d[0] + aaaa * g[0],
        t * d[1] + aaaa * g[1],
        t * d[2] + aaaa * g[2],
    ]
}

/// Which of each pair of opposite corners of the unit cube at `f` (the point's place in
/// its cube) the half-lattice takes, as offsets from the cube's lower corner: the one
/// nearer `f`. Where the two are equally near, `f` is at least `√(3/4)` from both: outside
/// both kernels.
#[inline(always)]
pub fn supersimplex3_corners<R: Real>(f: [R; 3]) -> [[u32; 3]; 4] {
    let far1 = (f[0] + f[1]) + f[2] >= R::lit(1.5);
    let far2 = (f[1] + f[2]) - f[0] >= R::lit(0.5);
    let far3 = (f[0] + f[2]) - f[1] >= R::lit(0.5);
    let far4 = (f[0] + f[1]) - f[2] >= R::lit(0.5);
    let pick = |far: bool, near: [u32; 3], other: [u32; 3]| if far { other } else { near };
    [
        pick(far1, [0, 0, 0], [1, 1, 1]),
        pick(far2, [1, 0, 0], [0, 1, 1]),
        pick(far3, [0, 1, 0], [1, 0, 1]),
        pick(far4, [0, 0, 1], [1, 1, 0]),
    ]
}

/// The point `x`'s place in its unit cube (in the lattice's frame) and the cube's two cells
/// along each axis, wrapped to `period` cells (256: the lookups' own period)
/// (`wgpu_noise_supersimplex3_cube`).
#[inline(always)]
pub fn supersimplex3_cube<R: Real>(x: [R; 3], period: [u32; 3]) -> ([R; 3], [[u32; 2]; 3]) {
    let b = x.map(|v| v.floor());
    (
        std::array::from_fn(|a| x[a] - b[a]),
        std::array::from_fn(|a| cell_pair(b[a], period[a])),
    )
}

/// One half-lattice's sum at `x` in the lattice's frame (its points the whole points of
/// `x`'s space) with its gradient, the points [`supersimplex3_corners`] picks hashed with
/// `key` added, the cells wrapped to `period` (`wgpu_noise_supersimplex3_half`).
#[inline(always)]
pub fn supersimplex3_half<R: Real>(
    lut: &impl NoiseHasher,
    x: [R; 3],
    key: u32,
    period: [u32; 3],
) -> [R; 4] {
    let (f, cells) = supersimplex3_cube(x, period);
    let mut out = [R::lit(0.0); 4];
    for o in supersimplex3_corners(f) {
        let c = supersimplex3_point(lut, f, o, supersimplex3_point_hash(lut, cells, key, o));
        out = std::array::from_fn(|k| out[k] + c[k]);
    }
    out
}

/// The point rotated into the lattice's frame: `(2/3)(x + y + z) − p`
/// (`wgpu_noise_supersimplex3_rotate`),
/// also the gradient taken back (the rotation is symmetric and its own inverse).
#[inline(always)]
pub fn supersimplex3_rotate<R: Real>(p: [R; 3]) -> [R; 3] {
    let r = ((p[0] + p[1]) + p[2]) * R::lit(SUPERSIMPLEX3_ROTATE);
    [r - p[0], r - p[1], r - p[2]]
}

/// Both half-lattices at `x` in the lattice's frame, the cells wrapped to `period`:
/// `[value, ∂/∂X, ∂/∂Y, ∂/∂Z]` before the output scale, the gradient in that frame
/// (`wgpu_noise_supersimplex3_sum`).
#[inline(always)]
fn supersimplex3_sum<R: Real>(lut: &impl NoiseHasher, x: [R; 3], period: [u32; 3]) -> [R; 4] {
    let a = supersimplex3_half(lut, x, 0, period);
    let half = R::lit(0.5);
    let b = [x[0] - half, x[1] - half, x[2] - half];
    let b = supersimplex3_half(lut, b, SUPERSIMPLEX3_B_KEY, period);
    [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
}

/// 3D OpenSimplex2S noise at `p`, in [-1, 1] (`wgpu_noise_supersimplex3`).
pub fn supersimplex3<R: Real>(lut: &impl NoiseHasher, p: [R; 3]) -> R {
    supersimplex3_sum(lut, supersimplex3_rotate(p), [256; 3])[0] * R::lit(SUPERSIMPLEX3_NORM)
}

/// [`supersimplex3`] and its gradient, `[value, ∂/∂x, ∂/∂y, ∂/∂z]`
/// (`wgpu_noise_supersimplex3_deriv`); the value is [`supersimplex3`]'s bit for bit.
pub fn supersimplex3_deriv<R: Real>(lut: &impl NoiseHasher, p: [R; 3]) -> [R; 4] {
    let s = supersimplex3_sum(lut, supersimplex3_rotate(p), [256; 3]);
    let g = supersimplex3_rotate([s[1], s[2], s[3]]);
    let norm = R::lit(SUPERSIMPLEX3_NORM);
    [s[0] * norm, g[0] * norm, g[1] * norm, g[2] * norm]
}

/// 3D OpenSimplex2S noise tiled with `period` whole cells per axis, in [-1, 1]: the
/// lattice unrotated (the rotation maps no square period onto the lattice), its cells
/// wrapped into the tile before they are hashed (`wgpu_noise_supersimplex3_tiled`).
pub fn supersimplex3_tiled<R: Real>(lut: &impl NoiseHasher, p: [R; 3], period: [u32; 3]) -> R {
    supersimplex3_sum(lut, p, period)[0] * R::lit(SUPERSIMPLEX3_NORM)
}

/// [`supersimplex3_tiled`] and its gradient, `[value, ∂/∂x, ∂/∂y, ∂/∂z]`
/// (`wgpu_noise_supersimplex3_tiled_deriv`).
pub fn supersimplex3_tiled_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 3],
    period: [u32; 3],
) -> [R; 4] {
    supersimplex3_sum(lut, p, period).map(|v| v * R::lit(SUPERSIMPLEX3_NORM))
}

/// The skew of 2D OpenSimplex2S's triangular lattice, `(√3 − 1)/2` (simplex noise's).
pub const SUPERSIMPLEX2_SKEW: f64 = 0.366_025_403_784_438_6;
/// Its unskew, `−(3 − √3)/6`.
pub const SUPERSIMPLEX2_UNSKEW: f64 = -0.211_324_865_405_187_13;
/// The 2D kernel's squared radius: `max(2/3 − |d|², 0)⁴`.
pub const SUPERSIMPLEX2_R2: f64 = 2.0 / 3.0;
/// The Java reference's `NORMALIZER_2D`, which its gradients are divided by.
pub const SUPERSIMPLEX2_NORMALIZER: f64 = 0.054_818_664_956_251_18;
/// The first-quadrant gradients at 7.5°, 22.5° and 37.5° (the Java's `grad2` decimals over
/// its normaliser); the others are their swaps and sign changes.
pub const SUPERSIMPLEX2_GRADIENTS: [[f64; 2]; 3] = [
    [
        0.991_444_861_373_81 / SUPERSIMPLEX2_NORMALIZER,
        0.130_526_192_220_052 / SUPERSIMPLEX2_NORMALIZER,
    ],
    [
        0.923_879_532_511_287 / SUPERSIMPLEX2_NORMALIZER,
        0.382_683_432_365_09 / SUPERSIMPLEX2_NORMALIZER,
    ],
    [
        0.793_353_340_291_235 / SUPERSIMPLEX2_NORMALIZER,
        0.608_761_429_008_721 / SUPERSIMPLEX2_NORMALIZER,
    ],
];
/// The 2D output scale: the sum times this is within [-1, 1].
pub const SUPERSIMPLEX2_NORM: f64 = 1.0;

/// 2D gradient `n` (0 to 23): `n >> 3` picks one of [`SUPERSIMPLEX2_GRADIENTS`], bit 2 swaps
/// its components, bits 0 and 1 negate x and y (`wgpu_noise_supersimplex2_gradient`): the
/// 24 directions `7.5° + 15° k` of the Java's table.
#[inline(always)]
pub fn supersimplex2_gradient<R: Real>(n: u32) -> [R; 2] {
    let k = (n >> 3) as usize;
    let base = [
        R::lit(SUPERSIMPLEX2_GRADIENTS[k.min(2)][0]),
        R::lit(SUPERSIMPLEX2_GRADIENTS[k.min(2)][1]),
    ];
    let (u, v) = if n & 4 != 0 {
        (base[1], base[0])
    } else {
        (base[0], base[1])
    };
    let sign = |bit: u32| if n & bit != 0 { R::lit(-1.0) } else { R::lit(1.0) };
    [u * sign(1), v * sign(2)]
}

/// The hash of the 2D lattice point `hv` steps (wrapped, 255 for −1) from the point's cell
/// (`cell` wrapped) (`wgpu_noise_supersimplex2_point_hash`).
#[inline(always)]
pub fn supersimplex2_point_hash(lut: &impl NoiseHasher, cell: [u32; 2], hv: [u32; 2]) -> u32 {
    lut.cell_hash(&[(cell[0] + hv[0]) & 255, (cell[1] + hv[1]) & 255])
}

/// One 2D lattice point's contribution and its gradient, `[value, ∂/∂x, ∂/∂y]`: the point
/// `v` (skewed, whole numbers −1 to 2 from the point's cell) at `d0` minus its unskewed
/// offset from the cell's corner, of hash `h` ([`supersimplex2_point_hash`])
/// (`wgpu_noise_supersimplex2_point`).
#[inline(always)]
pub fn supersimplex2_point<R: Real>(lut: &impl NoiseHasher, d0: [R; 2], v: [R; 2], h: u32) -> [R; 3] {
    let t = (v[0] + v[1]) * R::lit(SUPERSIMPLEX2_UNSKEW);
    let d = [d0[0] - (v[0] + t), d0[1] - (v[1] + t)];
    let a = (R::lit(SUPERSIMPLEX2_R2) - (d[0] * d[0] + d[1] * d[1])).max(R::lit(0.0));
    let g = supersimplex2_gradient::<R>((lut.cell_byte(h, SUPERSIMPLEX3_SLOT) * 24) >> 8);
    let aa = a * a;
    let aaaa = aa * aa;
    let e = d[0] * g[0] + d[1] * g[1];
    let t = R::lit(-8.0) * (aa * a * e);
    [aaaa * e, t * d[0] + aaaa * g[0], t * d[1] + aaaa * g[1]]
}

/// The 2D lattice points around `p`: `d0` (the point's offset from its rhombic cell's
/// corner), the cell (wrapped) and four points, each as its skewed offset from the cell and
/// its wrapped steps (`wgpu_noise_supersimplex2_points`). The point is skewed onto the
/// triangular lattice, and of its rhombic cell's corners (0, 0) and (1, 1) and two more,
/// picked as the Java's branches pick them (by which half of the rhombus it is in, then by
/// two comparisons): every lattice point within the kernel's reach. The unskewed offsets
/// are the point's own (the skew and unskew cancel), so a gradient needs no transform.
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn supersimplex2_points<R: Real>(p: [R; 2]) -> ([R; 2], [u32; 2], [([R; 2], [u32; 2]); 4]) {
    let s = (p[0] + p[1]) * R::lit(SUPERSIMPLEX2_SKEW);
    let xs = [p[0] + s, p[1] + s];
    let b = xs.map(|v| v.floor());
    let i = [xs[0] - b[0], xs[1] - b[1]];
    let cell = b.map(wrap256);
    let t = (i[0] + i[1]) * R::lit(SUPERSIMPLEX2_UNSKEW);
    let d0 = [i[0] + t, i[1] + t];
    let xmy = i[0] - i[1];
    let far = i[0] + i[1] > R::lit(1.0);
    let (one, zero) = (R::lit(1.0), R::lit(0.0));
    // The third and fourth points: offsets in the skewed lattice, and as wrapped steps.
    let (v2, h2) = if far {
        if i[0] + xmy > one {
            ([R::lit(2.0), one], [2, 1])
        } else {
            ([zero, one], [0, 1])
        }
    } else if i[0] + xmy < zero {
        ([R::lit(-1.0), zero], [255, 0])
    } else {
        ([one, zero], [1, 0])
    };
    let (v3, h3) = if far {
        if i[1] - xmy > one {
            ([one, R::lit(2.0)], [1, 2])
        } else {
            ([one, zero], [1, 0])
        }
    } else if i[1] < xmy {
        ([zero, R::lit(-1.0)], [0, 255])
    } else {
        ([zero, one], [0, 1])
    };
    (d0, cell, [([zero, zero], [0, 0]), ([one, one], [1, 1]), (v2, h2), (v3, h3)])
}

/// Both 2D sums at `p`: `[value, ∂/∂x, ∂/∂y]` before the output scale, over
/// [`supersimplex2_points`] (`wgpu_noise_supersimplex2_sum`).
#[inline(always)]
fn supersimplex2_sum<R: Real>(lut: &impl NoiseHasher, p: [R; 2]) -> [R; 3] {
    let (d0, cell, points) = supersimplex2_points(p);
    let mut out = [R::lit(0.0); 3];
    for (v, hv) in points {
        let c = supersimplex2_point(lut, d0, v, supersimplex2_point_hash(lut, cell, hv));
        out = std::array::from_fn(|k| out[k] + c[k]);
    }
    out
}

/// 2D OpenSimplex2S noise at `p`, in [-1, 1] (`wgpu_noise_supersimplex2`).
pub fn supersimplex2<R: Real>(lut: &impl NoiseHasher, p: [R; 2]) -> R {
    supersimplex2_sum(lut, p)[0] * R::lit(SUPERSIMPLEX2_NORM)
}

/// [`supersimplex2`] and its gradient, `[value, ∂/∂x, ∂/∂y]`
/// (`wgpu_noise_supersimplex2_deriv`); the value is [`supersimplex2`]'s bit for bit.
pub fn supersimplex2_deriv<R: Real>(lut: &impl NoiseHasher, p: [R; 2]) -> [R; 3] {
    let s = supersimplex2_sum(lut, p);
    let norm = R::lit(SUPERSIMPLEX2_NORM);
    [s[0] * norm, s[1] * norm, s[2] * norm]
}

/// The skew of 4D OpenSimplex2S's lattice, `(√5 − 1)/4`: 4D simplex noise's, so the two share
/// the lattice and its period ([`crate::field::reduce_by_periods`]).
pub const SUPERSIMPLEX4_SKEW: f64 = crate::tables::SIMPLEX4_F;
/// Its unskew, `−(5 − √5)/20`.
pub const SUPERSIMPLEX4_UNSKEW: f64 = -crate::tables::SIMPLEX4_G;
/// The 4D kernel's squared radius: `max(18/25 − |d|², 0)⁴`. FastNoise2 uses 4/5, where its
/// walk misses lattice points two short steps away (`|v|² = 2`, e.g. skewed `(1, 0, −1, 0)`)
/// that reach 0.72 of the point; 18/25 is the largest radius at which the walk reaches every
/// lattice point within reach (the nearest such point, over the nearest vertex's Voronoi cell,
/// is at `|d|² = 0.72` exactly: at `(0.4, 0, −0.4, 0)` from it).
pub const SUPERSIMPLEX4_R2: f64 = 0.72;
/// The 4D output scale: the sum times this is within [-1, 1] (docs/graphs.md, SuperSimplex).
pub const SUPERSIMPLEX4_NORM: f64 = 9.0;
/// The fifteen lattice points of FastNoise2's 4D walk besides the nearest, as skewed offsets
/// from it (each taken as `v` or `−v`, whichever faces the point): the ten of `|v|² = 4/5`
/// (one axis, or all four) and the twenty of `6/5` (two or three axes), in pairs.
pub const SUPERSIMPLEX4_VERTICES: [[u32; 4]; 15] = [
    [1, 1, 1, 1],
    [1, 1, 1, 0],
    [1, 1, 0, 1],
    [1, 0, 1, 1],
    [0, 1, 1, 1],
    [1, 0, 0, 0],
    [1, 1, 0, 0],
    [1, 0, 1, 0],
    [1, 0, 0, 1],
    [0, 1, 0, 0],
    [0, 1, 1, 0],
    [0, 1, 0, 1],
    [0, 0, 1, 0],
    [0, 0, 1, 1],
    [0, 0, 0, 1],
];

/// 4D gradient `n` (0 to 31), Gustavson's [`crate::tables::GRAD4`]`[n]` decoded: `n >> 3` the
/// axis that is 0, bits 2, 1 and 0 the signs (set: −1) of the other three in order
/// (`wgpu_noise_supersimplex4_gradient`).
#[inline(always)]
pub fn supersimplex4_gradient<R: Real>(n: u32) -> [R; 4] {
    let axis = n >> 3;
    std::array::from_fn(|k| {
        let k = k as u32;
        let bit = if k < axis { 4 >> k } else { 8 >> k };
        if k == axis {
            R::lit(0.0)
        } else if n & bit != 0 {
            R::lit(-1.0)
        } else {
            R::lit(1.0)
        }
    })
}

/// The skewed point's place in its unit cell, moved to the nearest lattice point (its
/// Voronoi cell's centre): `offset`, the point's unskewed offset from it; `cell`, its skewed
/// coordinates wrapped (masked when hashed); `normal`, the vector whose dot product with a
/// skewed offset is the unskewed one's with `offset` (FastNoise2's "double unskew").
#[derive(Clone, Copy)]
pub struct SuperSimplex4Walk<R> {
    pub offset: [R; 4],
    pub cell: [u32; 4],
    pub normal: [R; 4],
}

/// Which corner of the skewed unit cell at `i` (the point's place in it) is the nearest
/// lattice point, as a bit per axis: FastNoise2's comparison chain, each vertex's score
/// against the best so far (`wgpu_noise_supersimplex4_nearest`).
#[inline(always)]
pub fn supersimplex4_nearest<R: Real>(i: [R; 4]) -> u32 {
    let twice = (((i[0] + i[1]) + i[2]) + i[3]) * R::lit(-0.2);
    let n = i.map(|v| v + twice);
    let total = -twice;
    let mut best = R::lit(0.6) - total;
    let mut bits = if R::lit(0.2) > best { 15 } else { 0 };
    best = best.max(R::lit(0.2));
    let mut consider = |best: &mut R, score: R, vertex: u32| {
        if score > *best {
            bits = vertex;
        }
        *best = best.max(score);
    };
    consider(&mut best, -n[3], 0b0111);
    consider(&mut best, -n[2], 0b1011);
    consider(&mut best, -n[1], 0b1101);
    consider(&mut best, -n[0], 0b1110);
    best = best + (total - R::lit(0.2));
    consider(&mut best, n[0], 0b0001);
    consider(&mut best, n[1], 0b0010);
    consider(&mut best, n[2], 0b0100);
    consider(&mut best, n[3], 0b1000);
    best = best + (R::lit(0.2) - n[0]);
    consider(&mut best, n[1], 0b0011);
    consider(&mut best, n[2], 0b0101);
    consider(&mut best, n[3], 0b1001);
    best = best + n[0];
    consider(&mut best, n[1] + n[2], 0b0110);
    best = best - n[3];
    consider(&mut best, n[1], 0b1010);
    consider(&mut best, n[2], 0b1100);
    bits
}

/// The point `p` on the 4D lattice (`wgpu_noise_supersimplex4_walk`): skewed, its unit
/// cell's corner and place in it, moved to the nearest lattice point
/// ([`supersimplex4_nearest`]).
#[inline(always)]
pub fn supersimplex4_walk<R: Real>(p: [R; 4]) -> SuperSimplex4Walk<R> {
    let s = (((p[0] + p[1]) + p[2]) + p[3]) * R::lit(SUPERSIMPLEX4_SKEW);
    let xs = p.map(|v| v + s);
    let b = xs.map(|v| v.floor());
    let nearest = supersimplex4_nearest(std::array::from_fn(|a| xs[a] - b[a]));
    let m: [u32; 4] = std::array::from_fn(|a| (nearest >> a) & 1);
    let i: [R; 4] = std::array::from_fn(|a| (xs[a] - b[a]) - R::from_u32(m[a]));
    let cell = std::array::from_fn(|a| wrap256(b[a]) + m[a]);
    let sum = ((i[0] + i[1]) + i[2]) + i[3];
    let twice = sum * R::lit(-0.2);
    let t = sum * R::lit(SUPERSIMPLEX4_UNSKEW);
    SuperSimplex4Walk {
        offset: i.map(|v| v + t),
        cell,
        normal: i.map(|v| v + twice),
    }
}

/// Whether the walk takes `−v` rather than `v` (`wgpu_noise_supersimplex4_flip`): where the
/// unskewed `v` points away from the point (`normal · v < 0`; where it is 0, both are at
/// least `√(4/5)` away, outside the kernel).
#[inline(always)]
pub fn supersimplex4_flip<R: Real>(normal: [R; 4], v: [u32; 4]) -> bool {
    let t: [R; 4] = std::array::from_fn(|a| normal[a] * R::from_u32(v[a]));
    ((t[0] + t[1]) + t[2]) + t[3] < R::lit(0.0)
}

/// The hash of the walk's lattice point `v` (or `−v` where `flip`) from the nearest
/// (`wgpu_noise_supersimplex4_point_hash`).
#[inline(always)]
pub fn supersimplex4_point_hash(lut: &impl NoiseHasher, cell: [u32; 4], v: [u32; 4], flip: bool) -> u32 {
    let h: [u32; 4] = std::array::from_fn(|a| {
        let step = if flip { 256 - v[a] } else { v[a] };
        (cell[a] + step) & 255
    });
    lut.cell_hash(&h)
}

/// One 4D lattice point's contribution and its gradient, `[value, ∂/∂x, ∂/∂y, ∂/∂z, ∂/∂w]`:
/// the point `v` (or `−v` where `flip`) from the nearest, at `offset` ([`SuperSimplex4Walk`])
/// minus its unskewed offset, of hash `h`, byte `b` of which picks gradient `b >> 3`
/// (`wgpu_noise_supersimplex4_point`). The skew and unskew cancel: the gradient needs no
/// transform.
#[inline(always)]
pub fn supersimplex4_point<R: Real>(
    lut: &impl NoiseHasher,
    offset: [R; 4],
    v: [u32; 4],
    flip: bool,
    h: u32,
) -> [R; 5] {
    let sv: [R; 4] = std::array::from_fn(|a| {
        let c = R::from_u32(v[a]);
        if flip {
            -c
        } else {
            c
        }
    });
    let t = (((sv[0] + sv[1]) + sv[2]) + sv[3]) * R::lit(SUPERSIMPLEX4_UNSKEW);
    let d: [R; 4] = std::array::from_fn(|a| offset[a] - (sv[a] + t));
    let a = (R::lit(SUPERSIMPLEX4_R2) - ((d[0] * d[0] + d[1] * d[1]) + (d[2] * d[2] + d[3] * d[3])))
        .max(R::lit(0.0));
    let g = supersimplex4_gradient::<R>(lut.cell_byte(h, SUPERSIMPLEX3_SLOT) >> 3);
    let aa = a * a;
    let aaaa = aa * aa;
    let e = (d[0] * g[0] + d[1] * g[1]) + (d[2] * g[2] + d[3] * g[3]);
    let s = R::lit(-8.0) * (aa * a * e);
    [
        aaaa * e,
        s * d[0] + aaaa * g[0],
        s * d[1] + aaaa * g[1],
        s * d[2] + aaaa * g[2],
        s * d[3] + aaaa * g[3],
    ]
}

/// The 4D walk's sixteen points as `(v, flip)`: the nearest (`v = 0`) and one of each pair of
/// [`SUPERSIMPLEX4_VERTICES`].
#[inline(always)]
fn supersimplex4_points<R: Real>(normal: [R; 4]) -> [([u32; 4], bool); 16] {
    std::array::from_fn(|k| {
        if k == 0 {
            ([0; 4], false)
        } else {
            let v = SUPERSIMPLEX4_VERTICES[k - 1];
            (v, supersimplex4_flip(normal, v))
        }
    })
}

/// The 4D sum at `p` before the output scale: `[value, ∂/∂x, …, ∂/∂w]`
/// (`wgpu_noise_supersimplex4_sum`).
#[inline(always)]
fn supersimplex4_sum<R: Real>(lut: &impl NoiseHasher, p: [R; 4]) -> [R; 5] {
    let w = supersimplex4_walk(p);
    let mut out = [R::lit(0.0); 5];
    for (v, flip) in supersimplex4_points(w.normal) {
        let h = supersimplex4_point_hash(lut, w.cell, v, flip);
        let c = supersimplex4_point(lut, w.offset, v, flip, h);
        out = std::array::from_fn(|k| out[k] + c[k]);
    }
    out
}

/// 4D OpenSimplex2S noise at `p`, in [-1, 1] (`wgpu_noise_supersimplex4`).
pub fn supersimplex4<R: Real>(lut: &impl NoiseHasher, p: [R; 4]) -> R {
    supersimplex4_sum(lut, p)[0] * R::lit(SUPERSIMPLEX4_NORM)
}

/// [`supersimplex4`] and its gradient, `[value, ∂/∂x, ∂/∂y, ∂/∂z, ∂/∂w]`
/// (`wgpu_noise_supersimplex4_deriv`); the value is [`supersimplex4`]'s bit for bit.
pub fn supersimplex4_deriv<R: Real>(lut: &impl NoiseHasher, p: [R; 4]) -> [R; 5] {
    let norm = R::lit(SUPERSIMPLEX4_NORM);
    supersimplex4_sum(lut, p).map(|v| v * norm)
}

/// 2D OpenSimplex2S noise that tiles with `period` (in lattice cells, any positive real)
/// along x and y: [`supersimplex4`] on the torus of tileable 2D simplex noise
/// ([`super::simplex::simplex2_tiled`]), the circle of circumference `period.x` in (x, y)
/// and of `period.y` in (z, w), so the local scale is that of the plain noise
/// (`wgpu_noise_supersimplex2_tiled`).
pub fn supersimplex2_tiled<R: Real>(lut: &impl NoiseHasher, p: [R; 2], period: [R; 2]) -> R {
    supersimplex4(lut, torus_point(p[0], p[1], period).0)
}

/// [`supersimplex2_tiled`] and its gradient `[value, ∂/∂x, ∂/∂y]`: the 4D gradient taken
/// back through the torus as `simplex2_tiled_deriv` does
/// (`wgpu_noise_supersimplex2_tiled_deriv`).
pub fn supersimplex2_tiled_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 2],
    period: [R; 2],
) -> [R; 3] {
    let (q, turns) = torus_point(p[0], p[1], period);
    torus_gradient(supersimplex4_deriv(lut, q), turns)
}

/// The hash byte of the first component of a lattice point's vector (the `warp` node's
/// `supersimplex-vector` noise): component `a` is byte `SUPERSIMPLEX_VECTOR_SLOT + a`, the
/// gradient's byte ([`SUPERSIMPLEX3_SLOT`]) left to the gradient.
pub const SUPERSIMPLEX_VECTOR_SLOT: u32 = 1;
/// The output scale of the 2D vector noise: its components times this are within [-1, 1]
/// (docs/graphs.md, the `supersimplex-vector` warp).
pub const SUPERSIMPLEX2_VECTOR_NORM: f64 = 1.0;
/// The output scale of the 3D vector noise (as [`SUPERSIMPLEX2_VECTOR_NORM`]).
pub const SUPERSIMPLEX3_VECTOR_NORM: f64 = 1.0;
/// The output scale of the 4D vector noise: the scalar noise's ([`SUPERSIMPLEX4_NORM`]), as
/// in 2D and 3D the vector noise keeps the scalar's.
pub const SUPERSIMPLEX4_VECTOR_NORM: f64 = SUPERSIMPLEX4_NORM;

/// `rows[a] += u_a · c` for each component `a`: one lattice point's contribution `c`
/// (`[value, gradient…]`) to the vector noise, `u_a` byte `SUPERSIMPLEX_VECTOR_SLOT + a` of
/// its hash `h` in [-1, 1] (`wgpu_noise_supersimplex_vector_point`).
#[inline(always)]
fn supersimplex_vector_point<R: Real, const N: usize, const K: usize>(
    lut: &impl NoiseHasher,
    rows: &mut [[R; K]; N],
    c: [R; K],
    h: u32,
) {
    for (a, row) in rows.iter_mut().enumerate() {
        let u: R = wgpu_noise_cell_unit(lut, h, SUPERSIMPLEX_VECTOR_SLOT + a as u32);
        *row = std::array::from_fn(|k| row[k] + u * c[k]);
    }
}

/// The vector noise of 2D OpenSimplex2S before the output scale: row `a` is component `a`
/// and its gradient, `[value, ∂/∂x, ∂/∂y]` (its first `K` entries: 1, the value alone, or 3),
/// the points of [`supersimplex2_points`] contributing their [`supersimplex2_point`] times
/// their vector's component `a` (`wgpu_noise_supersimplex2_vector_sum`).
#[inline(always)]
fn supersimplex2_vector_sum<R: Real, const K: usize>(
    lut: &impl NoiseHasher,
    p: [R; 2],
) -> [[R; K]; 2] {
    let (d0, cell, points) = supersimplex2_points(p);
    let mut rows = [[R::lit(0.0); K]; 2];
    for (v, hv) in points {
        let h = supersimplex2_point_hash(lut, cell, hv);
        let c = supersimplex2_point(lut, d0, v, h);
        supersimplex_vector_point(lut, &mut rows, std::array::from_fn(|k| c[k]), h);
    }
    rows
}

/// One half-lattice's vector sum at `x` in the lattice's frame, the cells wrapped to
/// `period`: row `a` is component `a` and its gradient in that frame, its first `K`
/// entries (1 or 4) (`wgpu_noise_supersimplex3_vector_half`).
#[inline(always)]
fn supersimplex3_vector_half<R: Real, const K: usize>(
    lut: &impl NoiseHasher,
    x: [R; 3],
    key: u32,
    period: [u32; 3],
    rows: &mut [[R; K]; 3],
) {
    let (f, cells) = supersimplex3_cube(x, period);
    for o in supersimplex3_corners(f) {
        let h = supersimplex3_point_hash(lut, cells, key, o);
        let c = supersimplex3_point(lut, f, o, h);
        supersimplex_vector_point(lut, rows, std::array::from_fn(|k| c[k]), h);
    }
}

/// The vector noise of 3D OpenSimplex2S before the output scale at `x` in the lattice's
/// frame, the cells wrapped to `period`: row `a` is component `a` and its gradient in that
/// frame, `[value, ∂/∂X, ∂/∂Y, ∂/∂Z]`; the vectors are not rotated; the first `K` entries
/// of each row, 1 (the value alone) or 4 (`wgpu_noise_supersimplex3_vector_sum`).
#[inline(always)]
fn supersimplex3_vector_sum<R: Real, const K: usize>(
    lut: &impl NoiseHasher,
    x: [R; 3],
    period: [u32; 3],
) -> [[R; K]; 3] {
    let mut rows = [[R::lit(0.0); K]; 3];
    supersimplex3_vector_half(lut, x, 0, period, &mut rows);
    let half = R::lit(0.5);
    let b = [x[0] - half, x[1] - half, x[2] - half];
    supersimplex3_vector_half(lut, b, SUPERSIMPLEX3_B_KEY, period, &mut rows);
    rows
}

/// The vector noise of 4D OpenSimplex2S before the output scale: row `a` is component `a`
/// and its gradient, `[value, ∂/∂x, …, ∂/∂w]` (its first `K` entries, 1 or 5), the walk's
/// points contributing their [`supersimplex4_point`] times their vector's component `a`
/// (`wgpu_noise_supersimplex4_vector_sum`).
#[inline(always)]
fn supersimplex4_vector_sum<R: Real, const K: usize>(
    lut: &impl NoiseHasher,
    p: [R; 4],
) -> [[R; K]; 4] {
    let w = supersimplex4_walk(p);
    let mut rows = [[R::lit(0.0); K]; 4];
    for (v, flip) in supersimplex4_points(w.normal) {
        let h = supersimplex4_point_hash(lut, w.cell, v, flip);
        let c = supersimplex4_point(lut, w.offset, v, flip, h);
        supersimplex_vector_point(lut, &mut rows, std::array::from_fn(|k| c[k]), h);
    }
    rows
}

/// OpenSimplex2S noise of vectors at `p` (2, 3 or 4 coordinates; the `warp` node's
/// `supersimplex-vector` noise, as FastNoise2's `DomainWarpSuperSimplex` with its gradient
/// outer product): each lattice point's contribution `max(r² − |d|², 0)⁴ (g · d)` times a
/// vector whose component `a` is byte `SUPERSIMPLEX_VECTOR_SLOT + a` of the point's hash in
/// [-1, 1], summed; one walk of the lattice serves every component. Components past the
/// dimensions 0 (`wgpu_noise_supersimplex_vector2`, `…3`, `…4`).
pub fn supersimplex_vector<R: Real>(lut: &impl NoiseHasher, p: &[R]) -> [R; 4] {
    let zero = R::lit(0.0);
    match p.len() {
        2 => {
            let rows = supersimplex2_vector_sum::<R, 1>(lut, [p[0], p[1]]);
            let norm = R::lit(SUPERSIMPLEX2_VECTOR_NORM);
            [rows[0][0] * norm, rows[1][0] * norm, zero, zero]
        }
        3 => {
            let x = supersimplex3_rotate([p[0], p[1], p[2]]);
            let rows = supersimplex3_vector_sum::<R, 1>(lut, x, [256; 3]);
            let norm = R::lit(SUPERSIMPLEX3_VECTOR_NORM);
            [rows[0][0] * norm, rows[1][0] * norm, rows[2][0] * norm, zero]
        }
        _ => {
            let rows = supersimplex4_vector_sum::<R, 1>(lut, [p[0], p[1], p[2], p[3]]);
            let norm = R::lit(SUPERSIMPLEX4_VECTOR_NORM);
            rows.map(|row| row[0] * norm)
        }
    }
}

/// [`supersimplex_vector`] in 2D tiled with `period` (any positive reals): the first two
/// components of the 4D vector noise at the torus point of [`supersimplex2_tiled`], the
/// others 0 (`wgpu_noise_supersimplex_vector2_tiled`).
pub fn supersimplex_vector2_tiled<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 2],
    period: [R; 2],
) -> [R; 4] {
    let v = supersimplex_vector(lut, &torus_point(p[0], p[1], period).0);
    let zero = R::lit(0.0);
    [v[0], v[1], zero, zero]
}

/// [`supersimplex_vector2_tiled`] and each component's gradient, the 4D gradient taken back
/// through the torus as [`supersimplex2_tiled_deriv`]'s
/// (`wgpu_noise_supersimplex_vector_deriv2_tiled`).
pub fn supersimplex_vector_deriv2_tiled<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 2],
    period: [R; 2],
) -> [[R; 5]; 4] {
    let (q, turns) = torus_point(p[0], p[1], period);
    torus_vector_gradients(supersimplex_vector_deriv(lut, &q), turns)
}

/// [`supersimplex_vector`] in 3D tiled with `period` whole cells per axis, as
/// [`supersimplex3_tiled`]: the lattice unrotated, its cells wrapped into the tile; the
/// fourth component 0 (`wgpu_noise_supersimplex_vector3_tiled`).
pub fn supersimplex_vector3_tiled<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 3],
    period: [u32; 3],
) -> [R; 4] {
    let rows = supersimplex3_vector_sum::<R, 1>(lut, p, period);
    let norm = R::lit(SUPERSIMPLEX3_VECTOR_NORM);
    [rows[0][0] * norm, rows[1][0] * norm, rows[2][0] * norm, R::lit(0.0)]
}

/// [`supersimplex_vector3_tiled`] and each component's gradient, `d[a] = [component a,
/// ∂/∂x, ∂/∂y, ∂/∂z, 0]` (`wgpu_noise_supersimplex_vector_deriv3_tiled`).
pub fn supersimplex_vector_deriv3_tiled<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 3],
    period: [u32; 3],
) -> [[R; 5]; 4] {
    let rows = supersimplex3_vector_sum::<R, 4>(lut, p, period);
    let norm = R::lit(SUPERSIMPLEX3_VECTOR_NORM);
    let mut d = [[R::lit(0.0); 5]; 4];
    for (d, row) in d.iter_mut().zip(rows) {
        *d = [row[0] * norm, row[1] * norm, row[2] * norm, row[3] * norm, R::lit(0.0)];
    }
    d
}

/// [`supersimplex_vector`] and each component's gradient: `d[a] = [component a, ∂/∂x, …]`
/// (entries past the dimensions 0; `wgpu_noise_supersimplex_vector_deriv2`, `…3`, `…4`).
pub fn supersimplex_vector_deriv<R: Real>(lut: &impl NoiseHasher, p: &[R]) -> [[R; 5]; 4] {
    let mut d = [[R::lit(0.0); 5]; 4];
    match p.len() {
        2 => {
            let rows = supersimplex2_vector_sum::<R, 3>(lut, [p[0], p[1]]);
            let norm = R::lit(SUPERSIMPLEX2_VECTOR_NORM);
            for (d, row) in d.iter_mut().zip(rows) {
                *d = [row[0] * norm, row[1] * norm, row[2] * norm, R::lit(0.0), R::lit(0.0)];
            }
        }
        3 => {
            let x = supersimplex3_rotate([p[0], p[1], p[2]]);
            let rows = supersimplex3_vector_sum::<R, 4>(lut, x, [256; 3]);
            let norm = R::lit(SUPERSIMPLEX3_VECTOR_NORM);
            for (d, row) in d.iter_mut().zip(rows) {
                let g = supersimplex3_rotate([row[1], row[2], row[3]]);
                *d = [row[0] * norm, g[0] * norm, g[1] * norm, g[2] * norm, R::lit(0.0)];
            }
        }
        _ => {
            let rows = supersimplex4_vector_sum::<R, 5>(lut, [p[0], p[1], p[2], p[3]]);
            let norm = R::lit(SUPERSIMPLEX4_VECTOR_NORM);
            d = rows.map(|row| row.map(|v| v * norm));
        }
    }
    d
}
