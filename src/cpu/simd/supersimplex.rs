//! OpenSimplex2S ("SuperSimplex") 2D, 3D and 4D on lanes: `crate::cpu::supersimplex` operation for
//! operation, each lane a whole point (its lattice points' hashes differ per lane); the
//! scalar's choices (`if`) are selections here.

use std::sync::LazyLock;

use super::cellular::add_vector_term;
use super::lanes::{Isa, F, U};
use super::lookup::LaneHasher;
use super::noise::{
    cell_pair_lanes, torus_gradient, torus_lane_point, torus_turns, torus_vector_gradients,
};
use crate::cpu::supersimplex::{
    supersimplex3_gradient, supersimplex4_gradient,
    SUPERSIMPLEX2_GRADIENTS, SUPERSIMPLEX2_NORM, SUPERSIMPLEX2_R2, SUPERSIMPLEX2_SKEW,
    SUPERSIMPLEX2_UNSKEW, SUPERSIMPLEX3_B_KEY, SUPERSIMPLEX3_EXPAND, SUPERSIMPLEX3_NORM,
    SUPERSIMPLEX3_R2, SUPERSIMPLEX3_ROTATE, SUPERSIMPLEX3_SCALE, SUPERSIMPLEX3_SLOT,
    SUPERSIMPLEX2_VECTOR_NORM, SUPERSIMPLEX3_VECTOR_NORM, SUPERSIMPLEX4_NORM, SUPERSIMPLEX4_R2,
    SUPERSIMPLEX4_SKEW, SUPERSIMPLEX4_UNSKEW, SUPERSIMPLEX4_VECTOR_NORM, SUPERSIMPLEX4_VERTICES,
    SUPERSIMPLEX_VECTOR_SLOT,
};

/// `supersimplex3_gradient` of the gradient indices `n`.
#[inline(always)]
fn gradient<const N: usize>(n: U<N>) -> [F<N>; 3] {
    let (one, minus, zero) = (F::splat(1.0), F::splat(-1.0), F::splat(0.0));
    let cube = [
        (n & 1).select_f(one, minus),
        (n & 2).select_f(one, minus),
        (n & 4).select_f(one, minus),
    ];
    let kind = (n >> 3) & 1;
    let axis = n >> 4;
    let o = [
        axis.eq(0).select_f(zero, cube[0]),
        axis.eq(1).select_f(zero, cube[1]),
        axis.eq(2).select_f(zero, cube[2]),
    ];
    let cross = [
        cube[1] * o[2] - cube[2] * o[1],
        cube[2] * o[0] - cube[0] * o[2],
        cube[0] * o[1] - cube[1] * o[0],
    ];
    let rhomb = [
        kind.select_f(o[0] + cross[0], cube[0]),
        kind.select_f(o[1] + cross[1], cube[1]),
        kind.select_f(o[2] + cross[2], cube[2]),
    ];
    let scale = kind.select_f(
        F::splat(SUPERSIMPLEX3_SCALE[1] as f32),
        F::splat(SUPERSIMPLEX3_SCALE[0] as f32),
    );
    let expand = SUPERSIMPLEX3_EXPAND as f32;
    [
        (o[0] * expand + rhomb[0]) * scale,
        (o[1] * expand + rhomb[1]) * scale,
        (o[2] * expand + rhomb[2]) * scale,
    ]
}

/// [`supersimplex3_gradient`] of each index below 48, component by component: what an ISA
/// that holds such a table in registers ([`Isa::read48`]) reads in place of [`gradient`].
type GradientTable = [[f32; 48]; 3];

static GRADIENTS: LazyLock<GradientTable> =
    LazyLock::new(|| component_tables(supersimplex3_gradient::<f32>));

/// `gradient` of each index below `N`, component by component (its bits: the tables are
/// the scalar reference's).
fn component_tables<const N: usize, const D: usize>(
    gradient: fn(u32) -> [f32; D],
) -> [[f32; N]; D] {
    let mut table = [[0.0; N]; D];
    for n in 0..N {
        for (component, g) in table.iter_mut().zip(gradient(n as u32)) {
            component[n] = g;
        }
    }
    table
}

/// The gradients of the indices `n`: read from `table` where the ISA can, else decoded.
/// (No closures on this path: one is compiled without the ISA's target features, and the
/// intrinsics in it are calls.)
#[inline(always)]
fn gradient_of<I: Isa, const N: usize>(table: &GradientTable, n: U<N>) -> [F<N>; 3] {
    match (
        I::read48(&table[0], n),
        I::read48(&table[1], n),
        I::read48(&table[2], n),
    ) {
        (Some(x), Some(y), Some(z)) => [x, y, z],
        _ => gradient(n),
    }
}

/// `supersimplex3_point` on lanes: the lattice point at offsets `o` (0 or 1 per lane) of
/// hash `h`.
#[inline(always)]
fn point<L: LaneHasher, I: Isa, const N: usize>(
    lut: &L,
    table: &GradientTable,
    f: &[F<N>; 3],
    o: [U<N>; 3],
    h: U<N>,
) -> [F<N>; 4] {
    let d = [f[0] - o[0].to_f32(), f[1] - o[1].to_f32(), f[2] - o[2].to_f32()];
    let a = (F::splat(SUPERSIMPLEX3_R2 as f32) - ((d[0] * d[0] + d[1] * d[1]) + d[2] * d[2]))
        .max(F::splat(0.0));
    let byte = lut.cell_byte_lanes(h, SUPERSIMPLEX3_SLOT);
    let g = gradient_of::<I, N>(table, byte.wrapping_mul(48) >> 8);
    let aa = a * a;
    let aaaa = aa * aa;
    let e = (d[0] * g[0] + d[1] * g[1]) + d[2] * g[2];
    let t = -8.0f32 * (aa * a * e);
    [
        aaaa * e,
        t * d[0] + aaaa * g[0],
        t * d[1] + aaaa * g[1],
        t * d[2] + aaaa * g[2],
    ]
}

/// `supersimplex3_cube`, `supersimplex3_corners` and `supersimplex3_point_hash` on lanes:
/// the place in the unit cube, the four points' offsets and their hashes, the cells along
/// each axis wrapped to `period` (256: untiled) and `key` added.
#[inline(always)]
fn cube<L: LaneHasher, I: Isa, const N: usize>(
    lut: &L,
    x: [F<N>; 3],
    key: u32,
    period: [u32; 3],
) -> ([F<N>; 3], [[U<N>; 3]; 4], [U<N>; 4]) {
    let b = [I::floor(x[0]), I::floor(x[1]), I::floor(x[2])];
    let f = [x[0] - b[0], x[1] - b[1], x[2] - b[2]];
    let cells = [
        keyed_pair(cell_pair_lanes::<I, _>(b[0], period[0]), key),
        keyed_pair(cell_pair_lanes::<I, _>(b[1], period[1]), key),
        keyed_pair(cell_pair_lanes::<I, _>(b[2], period[2]), key),
    ];
    let o = corners(&f);
    (f, o, lut.cell_hashes3(cells, o))
}

/// The period of each axis of an untiled noise: the hash's own 256.
const UNTILED: [u32; 3] = [256; 3];

/// An axis's two cells with `key` added.
#[inline(always)]
fn keyed_pair<const N: usize>([c0, c1]: [U<N>; 2], key: u32) -> [U<N>; 2] {
    [c0 + key, c1 + key]
}

/// `supersimplex3_corners` on lanes: the four points' offsets at the place `f` in the unit
/// cube.
#[inline(always)]
fn corners<const N: usize>(f: &[F<N>; 3]) -> [[U<N>; 3]; 4] {
    let far1 = ((f[0] + f[1]) + f[2]).ge(F::splat(1.5));
    let far2 = ((f[1] + f[2]) - f[0]).ge(F::splat(0.5));
    let far3 = ((f[0] + f[2]) - f[1]).ge(F::splat(0.5));
    let far4 = ((f[0] + f[1]) - f[2]).ge(F::splat(0.5));
    // `near` by a selection, not `1 - far`: LLVM moved the bits of `1 - far` between mask
    // registers one at a time (a third of the function's instructions).
    let near = |far: U<N>| far.select(U::splat(0), U::splat(1));
    [
        [far1, far1, far1],
        [near(far2), far2, far2],
        [far3, near(far3), far3],
        [far4, far4, near(far4)],
    ]
}

/// `a + b`, component by component, written out (no loop: see [`half`]).
#[inline(always)]
fn add4<const N: usize>(a: [F<N>; 4], b: [F<N>; 4]) -> [F<N>; 4] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
}

/// `supersimplex3_half` on lanes. The four points are written out: as a loop over the
/// corner array LLVM kept the loop, its corners in memory and their masks rebuilt bit by
/// bit.
#[inline(always)]
fn half<L: LaneHasher, I: Isa, const N: usize>(
    lut: &L,
    table: &GradientTable,
    x: [F<N>; 3],
    key: u32,
) -> [F<N>; 4] {
    let (f, o, h) = cube::<L, I, N>(lut, x, key, UNTILED);
    half_points::<L, I, N>(lut, table, &f, o, h)
}

/// The four points of a half-lattice at offsets `o` of hashes `h`, summed.
#[inline(always)]
fn half_points<L: LaneHasher, I: Isa, const N: usize>(
    lut: &L,
    table: &GradientTable,
    f: &[F<N>; 3],
    [o0, o1, o2, o3]: [[U<N>; 3]; 4],
    [h0, h1, h2, h3]: [U<N>; 4],
) -> [F<N>; 4] {
    let out = add4([F::splat(0.0); 4], point::<L, I, N>(lut, table, f, o0, h0));
    let out = add4(out, point::<L, I, N>(lut, table, f, o1, h1));
    let out = add4(out, point::<L, I, N>(lut, table, f, o2, h2));
    add4(out, point::<L, I, N>(lut, table, f, o3, h3))
}

/// `supersimplex3_rotate` on lanes.
#[inline(always)]
fn rotate<const N: usize>(p: [F<N>; 3]) -> [F<N>; 3] {
    let r = ((p[0] + p[1]) + p[2]) * SUPERSIMPLEX3_ROTATE as f32;
    [r - p[0], r - p[1], r - p[2]]
}

/// `supersimplex3_sum` on lanes.
#[inline(always)]
fn sum<L: LaneHasher, I: Isa, const N: usize>(lut: &L, p: [F<N>; 3]) -> [F<N>; 4] {
    let x = rotate(p);
    let table = &*GRADIENTS;
    let a = half::<L, I, N>(lut, table, x, 0);
    let b = half::<L, I, N>(
        lut,
        table,
        [x[0] - 0.5f32, x[1] - 0.5f32, x[2] - 0.5f32],
        SUPERSIMPLEX3_B_KEY,
    );
    [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
}

/// `supersimplex3` at the lane points `p` (their first three coordinates).
#[inline(always)]
pub fn supersimplex3_point<L: LaneHasher, I: Isa, const N: usize>(lut: &L, p: &[F<N>; 4]) -> F<N> {
    sum::<L, I, N>(lut, [p[0], p[1], p[2]])[0] * SUPERSIMPLEX3_NORM as f32
}

/// `supersimplex3_deriv` at the lane points `p`: `[value, ∂/∂x, ∂/∂y, ∂/∂z]`.
#[inline(always)]
pub fn supersimplex3_point_deriv<L: LaneHasher, I: Isa, const N: usize>(
    lut: &L,
    p: &[F<N>; 4],
) -> [F<N>; 4] {
    let s = sum::<L, I, N>(lut, [p[0], p[1], p[2]]);
    let g = rotate([s[1], s[2], s[3]]);
    let norm = SUPERSIMPLEX3_NORM as f32;
    [s[0] * norm, g[0] * norm, g[1] * norm, g[2] * norm]
}

/// `supersimplex3_sum` of a tiled noise on lanes: the point unrotated, the cells wrapped to
/// `period`.
#[inline(always)]
fn tiled_sum<L: LaneHasher, I: Isa, const N: usize>(
    lut: &L,
    x: [F<N>; 3],
    period: [u32; 3],
) -> [F<N>; 4] {
    let table = &*GRADIENTS;
    let (f, o, h) = cube::<L, I, N>(lut, x, 0, period);
    let a = half_points::<L, I, N>(lut, table, &f, o, h);
    let b = [x[0] - 0.5f32, x[1] - 0.5f32, x[2] - 0.5f32];
    let (f, o, h) = cube::<L, I, N>(lut, b, SUPERSIMPLEX3_B_KEY, period);
    let b = half_points::<L, I, N>(lut, table, &f, o, h);
    add4(a, b)
}

/// `supersimplex3_tiled` at the lane points `p` (their first three coordinates).
#[inline(always)]
pub fn supersimplex3_tiled_point<L: LaneHasher, I: Isa, const N: usize>(
    lut: &L,
    p: &[F<N>; 4],
    period: [u32; 3],
) -> F<N> {
    tiled_sum::<L, I, N>(lut, [p[0], p[1], p[2]], period)[0] * SUPERSIMPLEX3_NORM as f32
}

/// `supersimplex3_tiled_deriv` at the lane points `p`: `[value, ∂/∂x, ∂/∂y, ∂/∂z]`.
#[inline(always)]
pub fn supersimplex3_tiled_point_deriv<L: LaneHasher, I: Isa, const N: usize>(
    lut: &L,
    p: &[F<N>; 4],
    period: [u32; 3],
) -> [F<N>; 4] {
    let s = tiled_sum::<L, I, N>(lut, [p[0], p[1], p[2]], period);
    let norm = SUPERSIMPLEX3_NORM as f32;
    [s[0] * norm, s[1] * norm, s[2] * norm, s[3] * norm]
}

/// `supersimplex2_gradient` of the gradient indices `n`.
#[inline(always)]
fn gradient2(n: U) -> [F; 2] {
    let k = n >> 3;
    let g = SUPERSIMPLEX2_GRADIENTS;
    let g = [splat2(g[0]), splat2(g[1]), splat2(g[2])];
    let base = [
        k.eq(1).select_f(g[1][0], g[0][0]),
        k.eq(1).select_f(g[1][1], g[0][1]),
    ];
    let base = [k.eq(2).select_f(g[2][0], base[0]), k.eq(2).select_f(g[2][1], base[1])];
    let swap = n & 4;
    let (u, v) = (swap.select_f(base[1], base[0]), swap.select_f(base[0], base[1]));
    let (one, minus) = (F::splat(1.0), F::splat(-1.0));
    [u * (n & 1).select_f(minus, one), v * (n & 2).select_f(minus, one)]
}

/// The constant vector `v` on every lane.
#[inline(always)]
fn splat2(v: [f64; 2]) -> [F; 2] {
    [F::splat(v[0] as f32), F::splat(v[1] as f32)]
}

/// `supersimplex2_point_hash` on lanes.
#[inline(always)]
fn point_hash2<L: LaneHasher>(lut: &L, cell: &[U; 2], hv: [U; 2]) -> U {
    let h = [(cell[0] + hv[0]) & 255, (cell[1] + hv[1]) & 255];
    lut.cell_hash_lanes::<2, _>(&[h[0], h[1], U::splat(0), U::splat(0)])
}

/// `supersimplex2_point` on lanes.
#[inline(always)]
fn point2<L: LaneHasher>(lut: &L, d0: &[F; 2], v: [F; 2], hash: U) -> [F; 3] {
    let t = (v[0] + v[1]) * SUPERSIMPLEX2_UNSKEW as f32;
    let d = [d0[0] - (v[0] + t), d0[1] - (v[1] + t)];
    let a = (F::splat(SUPERSIMPLEX2_R2 as f32) - (d[0] * d[0] + d[1] * d[1])).max(F::splat(0.0));
    let byte = lut.cell_byte_lanes(hash, SUPERSIMPLEX3_SLOT);
    let g = gradient2(byte.wrapping_mul(24) >> 8);
    let aa = a * a;
    let aaaa = aa * aa;
    let e = d[0] * g[0] + d[1] * g[1];
    let s = -8.0f32 * (aa * a * e);
    [aaaa * e, s * d[0] + aaaa * g[0], s * d[1] + aaaa * g[1]]
}

/// The 2D lattice points of `supersimplex2_points` on lanes: the point's offset from its
/// cell's corner, the wrapped cell, and the third and fourth points' offsets (the first two
/// are (0, 0) and (1, 1) on every lane).
struct Points2 {
    d0: [F; 2],
    cell: [U; 2],
    v2: [F; 2],
    v3: [F; 2],
}

/// `supersimplex2_points` on lanes: the scalar's branches as selections of the offsets,
/// whose wrapped steps are their low 8 bits ([`steps2`]). The points leave through memory
/// (`black_box`, as [`U::seam`]): LLVM's SLP vectoriser otherwise packs the x and y lanes
/// together, gathering the point's coordinates and rebuilding the masks lane by lane.
#[inline(always)]
fn points2<I: Isa>(p: [F; 2]) -> Points2 {
    let s = (p[0] + p[1]) * SUPERSIMPLEX2_SKEW as f32;
    let xs = [p[0] + s, p[1] + s];
    let b = [I::floor(xs[0]), I::floor(xs[1])];
    let i = [xs[0] - b[0], xs[1] - b[1]];
    let cell = [b[0].whole_low8(), b[1].whole_low8()];
    let t = (i[0] + i[1]) * SUPERSIMPLEX2_UNSKEW as f32;
    let d0 = [i[0] + t, i[1] + t];
    let xmy = i[0] - i[1];
    let far = (i[0] + i[1]).gt(F::splat(1.0));
    let (zero, one, two, minus) = (F::splat(0.0), F::splat(1.0), F::splat(2.0), F::splat(-1.0));
    let far_one = far.select_f(one, zero);
    // Third point: far: (2, 1) or (0, 1); near: (−1, 0) or (1, 0).
    let c1 = (i[0] + xmy).gt(one);
    let c3 = (i[0] + xmy).lt(zero);
    let v2 = [far.select_f(c1.select_f(two, zero), c3.select_f(minus, one)), far_one];
    // Fourth point: far: (1, 2) or (1, 0); near: (0, −1) or (0, 1).
    let c2 = (i[1] - xmy).gt(one);
    let c4 = i[1].lt(xmy);
    let v3 = [far_one, far.select_f(c2.select_f(two, zero), c4.select_f(minus, one))];
    std::hint::black_box(Points2 { d0, cell, v2, v3 })
}

/// The wrapped steps of the skewed offsets `v` (whole numbers −1 to 2; −1 is 255), as the
/// scalar's `supersimplex2_points` pairs them with `v`: one conversion per axis, where
/// selections of the steps beside those of the offsets had their masks rebuilt lane by
/// lane.
#[inline(always)]
fn steps2(v: [F; 2]) -> [U; 2] {
    [v[0].whole_low8(), v[1].whole_low8()]
}

/// The term of the 2D lattice point at offsets `v` (`supersimplex2_point` of its hash).
#[inline(always)]
fn term2<L: LaneHasher>(lut: &L, points: &Points2, v: [F; 2]) -> [F; 3] {
    point2(lut, &points.d0, v, point_hash2(lut, &points.cell, steps2(v)))
}

/// `a + b`, component by component, written out.
#[inline(always)]
fn add3(a: [F; 3], b: [F; 3]) -> [F; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `supersimplex2_sum` on lanes, the four points written out (see [`half`]).
#[inline(always)]
fn sum2<L: LaneHasher, I: Isa>(lut: &L, p: [F; 2]) -> [F; 3] {
    let points = points2::<I>(p);
    let (zero, one) = (F::splat(0.0), F::splat(1.0));
    let out = add3([zero; 3], term2(lut, &points, [zero, zero]));
    let out = add3(out, term2(lut, &points, [one, one]));
    let out = add3(out, term2(lut, &points, points.v2));
    add3(out, term2(lut, &points, points.v3))
}

/// `supersimplex2` at the lane points `p` (their first two coordinates).
#[inline(always)]
pub fn supersimplex2_point<L: LaneHasher, I: Isa>(lut: &L, p: &[F; 4]) -> F {
    sum2::<L, I>(lut, [p[0], p[1]])[0] * SUPERSIMPLEX2_NORM as f32
}

/// `supersimplex2_deriv` at the lane points `p`: `[value, ∂/∂x, ∂/∂y]`.
#[inline(always)]
pub fn supersimplex2_point_deriv<L: LaneHasher, I: Isa>(lut: &L, p: &[F; 4]) -> [F; 3] {
    let s = sum2::<L, I>(lut, [p[0], p[1]]);
    let norm = SUPERSIMPLEX2_NORM as f32;
    [s[0] * norm, s[1] * norm, s[2] * norm]
}

/// `supersimplex4_gradient` of the gradient indices `n`.
#[inline(always)]
fn gradient4(n: U) -> [F; 4] {
    let axis = n >> 3;
    [
        gradient4_component(n, axis, 0),
        gradient4_component(n, axis, 1),
        gradient4_component(n, axis, 2),
        gradient4_component(n, axis, 3),
    ]
}

/// [`supersimplex4_gradient`] of each index below 32, component by component: what an ISA
/// that holds such a table in registers ([`Isa::read32`]) reads in place of [`gradient4`].
static GRADIENTS4: LazyLock<[[f32; 32]; 4]> =
    LazyLock::new(|| component_tables(supersimplex4_gradient::<f32>));

/// The 4D gradients of the indices `n`: read from `table` where the ISA can, else decoded
/// (no closures on this path, as [`gradient_of`]).
#[inline(always)]
fn gradient4_of<I: Isa>(table: &[[f32; 32]; 4], n: U) -> [F; 4] {
    match (
        I::read32(&table[0], n),
        I::read32(&table[1], n),
        I::read32(&table[2], n),
        I::read32(&table[3], n),
    ) {
        (Some(x), Some(y), Some(z), Some(w)) => [x, y, z, w],
        _ => gradient4(n),
    }
}

/// Component `k` of `supersimplex4_gradient` of `n`, whose zero axis is `axis`.
#[inline(always)]
fn gradient4_component(n: U, axis: U, k: u32) -> F {
    // Component k's sign bit: 4 >> k before the zero axis, 8 >> k after it.
    let bit = (axis.ge_u32(k + 1)).select(U::splat(4 >> k), U::splat(8 >> k));
    let signed = (n & bit).select_f(F::splat(-1.0), F::splat(1.0));
    axis.eq(k).select_f(F::splat(0.0), signed)
}

/// One step of `supersimplex4_nearest`'s chain: `vertex` where `score` beats `best`.
#[inline(always)]
fn consider(best: &mut F, bits: &mut U, score: F, vertex: u32) {
    *bits = score.gt(*best).select(U::splat(vertex), *bits);
    *best = best.max(score);
}

/// `supersimplex4_nearest` on lanes: FastNoise2's comparison chain as selections.
#[inline(always)]
fn nearest4(i: &[F; 4]) -> U {
    let twice = (((i[0] + i[1]) + i[2]) + i[3]) * -0.2f32;
    let n = [i[0] + twice, i[1] + twice, i[2] + twice, i[3] + twice];
    let total = -twice;
    let mut best = F::splat(0.6) - total;
    let mut bits = F::splat(0.2).gt(best).select(U::splat(15), U::splat(0));
    best = best.max(F::splat(0.2));
    consider(&mut best, &mut bits, -n[3], 0b0111);
    consider(&mut best, &mut bits, -n[2], 0b1011);
    consider(&mut best, &mut bits, -n[1], 0b1101);
    consider(&mut best, &mut bits, -n[0], 0b1110);
    best = best + (total - 0.2f32);
    consider(&mut best, &mut bits, n[0], 0b0001);
    consider(&mut best, &mut bits, n[1], 0b0010);
    consider(&mut best, &mut bits, n[2], 0b0100);
    consider(&mut best, &mut bits, n[3], 0b1000);
    best = best + (F::splat(0.2) - n[0]);
    consider(&mut best, &mut bits, n[1], 0b0011);
    consider(&mut best, &mut bits, n[2], 0b0101);
    consider(&mut best, &mut bits, n[3], 0b1001);
    best = best + n[0];
    consider(&mut best, &mut bits, n[1] + n[2], 0b0110);
    best = best - n[3];
    consider(&mut best, &mut bits, n[1], 0b1010);
    consider(&mut best, &mut bits, n[2], 0b1100);
    bits
}

/// `supersimplex4_walk` on lanes: `(offset, cell, normal)`.
#[inline(always)]
fn walk4<I: Isa>(p: [F; 4]) -> ([F; 4], [U; 4], [F; 4]) {
    let s = (((p[0] + p[1]) + p[2]) + p[3]) * SUPERSIMPLEX4_SKEW as f32;
    let xs = [p[0] + s, p[1] + s, p[2] + s, p[3] + s];
    let b = [I::floor(xs[0]), I::floor(xs[1]), I::floor(xs[2]), I::floor(xs[3])];
    let nearest = nearest4(&[xs[0] - b[0], xs[1] - b[1], xs[2] - b[2], xs[3] - b[3]]);
    let m = [nearest & 1, (nearest >> 1) & 1, (nearest >> 2) & 1, (nearest >> 3) & 1];
    let i = [
        (xs[0] - b[0]) - m[0].to_f32(),
        (xs[1] - b[1]) - m[1].to_f32(),
        (xs[2] - b[2]) - m[2].to_f32(),
        (xs[3] - b[3]) - m[3].to_f32(),
    ];
    let cell = [
        b[0].whole_low8() + m[0],
        b[1].whole_low8() + m[1],
        b[2].whole_low8() + m[2],
        b[3].whole_low8() + m[3],
    ];
    let sum = ((i[0] + i[1]) + i[2]) + i[3];
    let twice = sum * -0.2f32;
    let t = sum * SUPERSIMPLEX4_UNSKEW as f32;
    (
        [i[0] + t, i[1] + t, i[2] + t, i[3] + t],
        cell,
        [i[0] + twice, i[1] + twice, i[2] + twice, i[3] + twice],
    )
}

/// What the lanes use of point `k` of the walk (the nearest, then one of each pair of
/// `SUPERSIMPLEX4_VERTICES`, in the scalar's order: `supersimplex4_points`): its steps `v`,
/// all ones where a step is 1 (which of the normal's components [`flip4`] sums), and `v`
/// unskewed, `v + (Σv)·unskew` in `f32` as `supersimplex4_point` computes it, which the
/// point `−v` negates exactly (`(−v) + (Σ−v)·unskew` rounds as its negation; `Σv ≥ 1`).
#[derive(Clone, Copy)]
struct WalkPoint4 {
    step: [u32; 4],
    mask: [u32; 4],
    unskewed: [f32; 4],
}

/// The walk's sixteen points ([`WalkPoint4`]), in the order their terms are summed.
const WALK4: [WalkPoint4; 16] = walk_points4();

const fn walk_points4() -> [WalkPoint4; 16] {
    let mut points = [WalkPoint4 {
        step: [0; 4],
        mask: [0; 4],
        // The nearest: `0 + 0 · unskew` is +0.
        unskewed: [0.0; 4],
    }; 16];
    let mut k = 1;
    while k < 16 {
        let v = SUPERSIMPLEX4_VERTICES[k - 1];
        let f = [v[0] as f32, v[1] as f32, v[2] as f32, v[3] as f32];
        let t = (((f[0] + f[1]) + f[2]) + f[3]) * SUPERSIMPLEX4_UNSKEW as f32;
        let mut a = 0;
        while a < 4 {
            points[k].step[a] = v[a];
            points[k].mask[a] = if v[a] == 0 { 0 } else { u32::MAX };
            points[k].unskewed[a] = f[a] + t;
            a += 1;
        }
        k += 1;
    }
    points
}

/// `supersimplex4_flip` on lanes (1 where the walk takes `−v`): the normal's components
/// where `v` is 1, summed in order. Where `v` is 0 the scalar adds `normal · 0`, a zero of
/// the normal's sign, here +0: the sum differs at most in a zero's sign, which `< 0` does
/// not see.
#[inline(always)]
fn flip4(normal: &[F; 4], mask: [u32; 4]) -> U {
    let t = [
        (normal[0].to_bits() & mask[0]).from_bits(),
        (normal[1].to_bits() & mask[1]).from_bits(),
        (normal[2].to_bits() & mask[2]).from_bits(),
        (normal[3].to_bits() & mask[3]).from_bits(),
    ];
    (((t[0] + t[1]) + t[2]) + t[3]).lt(F::splat(0.0))
}

/// The point's offset along one axis unskewed, negated where `flip` is 1.
#[inline(always)]
fn unskewed_step(unskewed: f32, flip: U) -> F {
    flip.select_f(F::splat(-unskewed), F::splat(unskewed))
}

/// `supersimplex4_point` on lanes.
#[inline(always)]
fn point4<L: LaneHasher, I: Isa>(
    lut: &L,
    table: &[[f32; 32]; 4],
    offset: &[F; 4],
    point: &WalkPoint4,
    flip: U,
    h: U,
) -> [F; 5] {
    let u = point.unskewed;
    let d = [
        offset[0] - unskewed_step(u[0], flip),
        offset[1] - unskewed_step(u[1], flip),
        offset[2] - unskewed_step(u[2], flip),
        offset[3] - unskewed_step(u[3], flip),
    ];
    let a = (F::splat(SUPERSIMPLEX4_R2 as f32)
        - ((d[0] * d[0] + d[1] * d[1]) + (d[2] * d[2] + d[3] * d[3])))
        .max(F::splat(0.0));
    let g = gradient4_of::<I>(table, lut.cell_byte_lanes(h, SUPERSIMPLEX3_SLOT) >> 3);
    let aa = a * a;
    let aaaa = aa * aa;
    let e = (d[0] * g[0] + d[1] * g[1]) + (d[2] * g[2] + d[3] * g[3]);
    let s = -8.0f32 * (aa * a * e);
    [
        aaaa * e,
        s * d[0] + aaaa * g[0],
        s * d[1] + aaaa * g[1],
        s * d[2] + aaaa * g[2],
        s * d[3] + aaaa * g[3],
    ]
}

/// Point `k` (0 to 15) of the walk and its flip: the nearest (never flipped), then
/// [`WALK4`]'s others.
#[inline(always)]
fn vertex4(normal: &[F; 4], k: usize) -> (&'static WalkPoint4, U) {
    let point = &WALK4[k];
    if k == 0 {
        (point, U::splat(0))
    } else {
        (point, flip4(normal, point.mask))
    }
}

/// `supersimplex4_sum` on lanes.
#[inline(always)]
fn sum4<L: LaneHasher, I: Isa>(lut: &L, p: [F; 4]) -> [F; 5] {
    let (offset, cell, normal) = walk4::<I>(p);
    let table = &*GRADIENTS4;
    let mut out = [F::splat(0.0); 5];
    for k in 0..16 {
        let (point, flip) = vertex4(&normal, k);
        let h = lut.walk_hash4::<I>(&cell, point.step, flip);
        let c = point4::<L, I>(lut, table, &offset, point, flip, h);
        out = [out[0] + c[0], out[1] + c[1], out[2] + c[2], out[3] + c[3], out[4] + c[4]];
    }
    out
}

/// `supersimplex4` at the lane points `p`.
#[inline(always)]
pub fn supersimplex4_point<L: LaneHasher, I: Isa>(lut: &L, p: &[F; 4]) -> F {
    sum4::<L, I>(lut, *p)[0] * SUPERSIMPLEX4_NORM as f32
}

/// `supersimplex4_deriv` at the lane points `p`: `[value, ∂/∂x, …, ∂/∂w]`.
#[inline(always)]
pub fn supersimplex4_point_deriv<L: LaneHasher, I: Isa>(lut: &L, p: &[F; 4]) -> [F; 5] {
    let s = sum4::<L, I>(lut, *p);
    let norm = SUPERSIMPLEX4_NORM as f32;
    [s[0] * norm, s[1] * norm, s[2] * norm, s[3] * norm, s[4] * norm]
}

/// `supersimplex4_vector_sum` on lanes.
#[inline(always)]
fn vector_sum4<L: LaneHasher, I: Isa, const K: usize>(lut: &L, p: [F; 4]) -> [[F; K]; 4] {
    let (offset, cell, normal) = walk4::<I>(p);
    let table = &*GRADIENTS4;
    let mut rows = [[F::splat(0.0); K]; 4];
    for k in 0..16 {
        let (point, flip) = vertex4(&normal, k);
        let h = lut.walk_hash4::<I>(&cell, point.step, flip);
        let c = point4::<L, I>(lut, table, &offset, point, flip, h);
        add_vector_term(lut, &mut rows, &c, h, SUPERSIMPLEX_VECTOR_SLOT);
    }
    rows
}

/// `supersimplex2_vector_sum` on lanes.
#[inline(always)]
fn vector_sum2<L: LaneHasher, I: Isa, const K: usize>(lut: &L, p: [F; 2]) -> [[F; K]; 2] {
    let points = points2::<I>(p);
    let (zero, one) = (F::splat(0.0), F::splat(1.0));
    let mut rows = [[zero; K]; 2];
    vector_term2(lut, &mut rows, &points, [zero, zero]);
    vector_term2(lut, &mut rows, &points, [one, one]);
    vector_term2(lut, &mut rows, &points, points.v2);
    vector_term2(lut, &mut rows, &points, points.v3);
    rows
}

/// The term of the 2D lattice point at offsets `v` added to a vector warp's `rows`.
#[inline(always)]
fn vector_term2<L: LaneHasher, const K: usize>(
    lut: &L,
    rows: &mut [[F; K]; 2],
    points: &Points2,
    v: [F; 2],
) {
    let h = point_hash2(lut, &points.cell, steps2(v));
    let c = point2(lut, &points.d0, v, h);
    add_vector_term(lut, rows, &c, h, SUPERSIMPLEX_VECTOR_SLOT);
}

/// `supersimplex3_vector_half` on lanes.
#[inline(always)]
fn vector_half<L: LaneHasher, I: Isa, const K: usize>(
    lut: &L,
    table: &GradientTable,
    x: [F; 3],
    key: u32,
    rows: &mut [[F; K]; 3],
) {
    let (f, o, h) = cube::<L, I, _>(lut, x, key, UNTILED);
    vector_points::<L, I, K>(lut, table, &f, o, h, rows);
}

/// The four points of a half-lattice at offsets `o` of hashes `h` added to a vector warp's
/// `rows`.
#[inline(always)]
fn vector_points<L: LaneHasher, I: Isa, const K: usize>(
    lut: &L,
    table: &GradientTable,
    f: &[F; 3],
    [o0, o1, o2, o3]: [[U; 3]; 4],
    [h0, h1, h2, h3]: [U; 4],
    rows: &mut [[F; K]; 3],
) {
    vector_term3::<L, I, K>(lut, table, rows, f, o0, h0);
    vector_term3::<L, I, K>(lut, table, rows, f, o1, h1);
    vector_term3::<L, I, K>(lut, table, rows, f, o2, h2);
    vector_term3::<L, I, K>(lut, table, rows, f, o3, h3);
}

/// `supersimplex3_vector_sum` of a tiled noise on lanes: the point unrotated, the cells
/// wrapped to `period`.
#[inline(always)]
fn tiled_vector_sum3<L: LaneHasher, I: Isa, const K: usize>(
    lut: &L,
    x: [F; 3],
    period: [u32; 3],
) -> [[F; K]; 3] {
    let mut rows = [[F::splat(0.0); K]; 3];
    let table = &*GRADIENTS;
    let (f, o, h) = cube::<L, I, _>(lut, x, 0, period);
    vector_points::<L, I, K>(lut, table, &f, o, h, &mut rows);
    let b = [x[0] - 0.5f32, x[1] - 0.5f32, x[2] - 0.5f32];
    let (f, o, h) = cube::<L, I, _>(lut, b, SUPERSIMPLEX3_B_KEY, period);
    vector_points::<L, I, K>(lut, table, &f, o, h, &mut rows);
    rows
}

/// `supersimplex_vector3_tiled` at the lane points `p`, the fourth component 0.
#[inline(always)]
pub fn supersimplex_vector3_tiled_point<L: LaneHasher, I: Isa>(
    lut: &L,
    p: &[F; 4],
    period: [u32; 3],
) -> [F; 4] {
    let rows = tiled_vector_sum3::<L, I, 1>(lut, [p[0], p[1], p[2]], period);
    let norm = SUPERSIMPLEX3_VECTOR_NORM as f32;
    [rows[0][0] * norm, rows[1][0] * norm, rows[2][0] * norm, F::splat(0.0)]
}

/// `supersimplex_vector_deriv3_tiled` at the lane points `p`: `d[a] = [component a, ∂/∂x,
/// ∂/∂y, ∂/∂z, 0]`.
#[inline(always)]
pub fn supersimplex_vector3_tiled_point_deriv<L: LaneHasher, I: Isa>(
    lut: &L,
    p: &[F; 4],
    period: [u32; 3],
) -> [[F; 5]; 4] {
    let rows = tiled_vector_sum3::<L, I, 4>(lut, [p[0], p[1], p[2]], period);
    let norm = SUPERSIMPLEX3_VECTOR_NORM as f32;
    [
        padded_row(rows[0], norm),
        padded_row(rows[1], norm),
        padded_row(rows[2], norm),
        [F::splat(0.0); 5],
    ]
}

/// `r · norm` with a fifth entry 0 (a free function: see [`gradient_of`]).
#[inline(always)]
fn padded_row(r: [F; 4], norm: f32) -> [F; 5] {
    [r[0] * norm, r[1] * norm, r[2] * norm, r[3] * norm, F::splat(0.0)]
}

/// The term of the 3D lattice point at offsets `o` of hash `h` added to a vector warp's
/// `rows`.
#[inline(always)]
fn vector_term3<L: LaneHasher, I: Isa, const K: usize>(
    lut: &L,
    table: &GradientTable,
    rows: &mut [[F; K]; 3],
    f: &[F; 3],
    o: [U; 3],
    h: U,
) {
    let c = point::<L, I, _>(lut, table, f, o, h);
    add_vector_term(lut, rows, &c, h, SUPERSIMPLEX_VECTOR_SLOT);
}

/// `supersimplex3_vector_sum` on lanes.
#[inline(always)]
fn vector_sum3<L: LaneHasher, I: Isa, const K: usize>(lut: &L, p: [F; 3]) -> [[F; K]; 3] {
    let x = rotate(p);
    let mut rows = [[F::splat(0.0); K]; 3];
    let table = &*GRADIENTS;
    vector_half::<L, I, K>(lut, table, x, 0, &mut rows);
    let b = [x[0] - 0.5f32, x[1] - 0.5f32, x[2] - 0.5f32];
    vector_half::<L, I, K>(lut, table, b, SUPERSIMPLEX3_B_KEY, &mut rows);
    rows
}

/// `supersimplex_vector` at the lane points `p` (their first `D` coordinates, 2 to 4),
/// components past `D` 0.
#[inline(always)]
pub fn supersimplex_vector_point<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
) -> [F; 4] {
    let zero = F::splat(0.0);
    if D == 2 {
        let rows = vector_sum2::<L, I, 1>(lut, [p[0], p[1]]);
        let norm = SUPERSIMPLEX2_VECTOR_NORM as f32;
        [rows[0][0] * norm, rows[1][0] * norm, zero, zero]
    } else if D == 4 {
        let rows = vector_sum4::<L, I, 1>(lut, *p);
        let norm = SUPERSIMPLEX4_VECTOR_NORM as f32;
        [rows[0][0] * norm, rows[1][0] * norm, rows[2][0] * norm, rows[3][0] * norm]
    } else {
        let rows = vector_sum3::<L, I, 1>(lut, [p[0], p[1], p[2]]);
        let norm = SUPERSIMPLEX3_VECTOR_NORM as f32;
        [rows[0][0] * norm, rows[1][0] * norm, rows[2][0] * norm, zero]
    }
}

/// `v · norm`, written out (as [`vector_point`]).
#[inline(always)]
fn scaled5(v: [F; 5], norm: f32) -> [F; 5] {
    [v[0] * norm, v[1] * norm, v[2] * norm, v[3] * norm, v[4] * norm]
}

/// `supersimplex_vector_deriv` at the lane points `p`: `d[a] = [component a, ∂/∂x, …]`.
#[inline(always)]
pub fn supersimplex_vector_point_deriv<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
) -> [[F; 5]; 4] {
    let zero = F::splat(0.0);
    let mut d = [[zero; 5]; 4];
    if D == 2 {
        let rows = vector_sum2::<L, I, 3>(lut, [p[0], p[1]]);
        let norm = SUPERSIMPLEX2_VECTOR_NORM as f32;
        for (d, row) in d.iter_mut().zip(rows) {
            *d = [row[0] * norm, row[1] * norm, row[2] * norm, zero, zero];
        }
    } else if D == 4 {
        let rows = vector_sum4::<L, I, 5>(lut, *p);
        let norm = SUPERSIMPLEX4_VECTOR_NORM as f32;
        d = [
            scaled5(rows[0], norm),
            scaled5(rows[1], norm),
            scaled5(rows[2], norm),
            scaled5(rows[3], norm),
        ];
    } else {
        let rows = vector_sum3::<L, I, 4>(lut, [p[0], p[1], p[2]]);
        let norm = SUPERSIMPLEX3_VECTOR_NORM as f32;
        for (d, row) in d.iter_mut().zip(rows) {
            let g = rotate([row[1], row[2], row[3]]);
            *d = [row[0] * norm, g[0] * norm, g[1] * norm, g[2] * norm, zero];
        }
    }
    d
}

/// `supersimplex2_tiled` at the lane points `p` (their first two coordinates): the 4D noise
/// at their torus point of `period`.
#[inline(always)]
pub fn supersimplex2_tiled_point<L: LaneHasher, I: Isa>(lut: &L, p: &[F; 4], period: [f32; 2]) -> F {
    supersimplex4_point::<L, I>(lut, &torus_lane_point(p, period))
}

/// `supersimplex2_tiled_deriv` at the lane points `p`, padded: `[value, ∂/∂x, ∂/∂y, 0, 0]`.
#[inline(always)]
pub fn supersimplex2_tiled_point_deriv<L: LaneHasher, I: Isa>(
    lut: &L,
    p: &[F; 4],
    period: [f32; 2],
) -> [F; 5] {
    let d = supersimplex4_point_deriv::<L, I>(lut, &torus_lane_point(p, period));
    torus_gradient(&d, torus_turns(p, period))
}

/// `supersimplex_vector2_tiled` at the lane points `p`: the first two components of the 4D
/// vector noise at their torus point of `period`, the others 0.
#[inline(always)]
pub fn supersimplex_vector2_tiled_point<L: LaneHasher, I: Isa>(
    lut: &L,
    p: &[F; 4],
    period: [f32; 2],
) -> [F; 4] {
    let v = supersimplex_vector_point::<L, I, 4>(lut, &torus_lane_point(p, period));
    let zero = F::splat(0.0);
    [v[0], v[1], zero, zero]
}

/// `supersimplex_vector_deriv2_tiled` at the lane points `p`: each of the first two
/// components' 4D gradient taken back through the torus.
#[inline(always)]
pub fn supersimplex_vector2_tiled_point_deriv<L: LaneHasher, I: Isa>(
    lut: &L,
    p: &[F; 4],
    period: [f32; 2],
) -> [[F; 5]; 4] {
    let d = supersimplex_vector_point_deriv::<L, I, 4>(lut, &torus_lane_point(p, period));
    torus_vector_gradients(&d, torus_turns(p, period))
}
