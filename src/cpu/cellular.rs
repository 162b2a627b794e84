//! CPU mirror of `shaders/cellular.wgsl`: cellular (Worley) noise in 2D, 3D and 4D, with
//! the shader's names and order of operations. The proof that the searched cells make F1
//! and F2 exact is in the shader's header comment; the conventions are in
//! `docs/noise-kinds.md`.

use super::lattice::{wrap256, wrap_period};
use super::lookup::NoiseHasher;
use super::real::Real;
use crate::params::{
    cellular_exponent, NoiseSettings, CELLULAR_CELL, CELLULAR_DISTANCE_CHEBYSHEV,
    CELLULAR_DISTANCE_EUCLIDEAN, CELLULAR_DISTANCE_EUCLIDEAN_SQUARED, CELLULAR_DISTANCE_HYBRID,
    CELLULAR_DISTANCE_MANHATTAN, CELLULAR_F2, CELLULAR_F2_MINUS_F1, CELLULAR_F3, CELLULAR_F4,
};

/// Larger than any distance (squared) in the searched box.
pub(crate) const WGPU_NOISE_CELLULAR_FAR: f64 = 1e30;

/// What cellular noise returns and how it measures distance (`CellularShape` in the shader).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellularShape {
    /// 0 (regular grid) to 1 (anywhere in the cell).
    pub jitter: f32,
    /// `CELLULAR_DISTANCE_*` of [`crate::params`].
    pub distance: u32,
    /// `CELLULAR_*` of [`crate::params`].
    pub output: u32,
}

impl Default for CellularShape {
    /// F1, Euclidean distance, jitter 1.
    fn default() -> Self {
        CellularShape::of(&NoiseSettings::default())
    }
}

impl CellularShape {
    /// The shape of the cellular options `c`.
    pub fn from_options(c: &crate::field::Cellular) -> Self {
        CellularShape::of(&NoiseSettings::default().with_cellular(c))
    }

    /// The cellular options carried by `settings`.
    pub fn of(settings: &NoiseSettings) -> Self {
        CellularShape {
            jitter: settings.cellular_jitter,
            distance: settings.cellular_distance,
            output: settings.cellular_output,
        }
    }
}

/// The searched offsets per axis are `-reach..=reach` (proof in `shaders/cellular.wgsl`).
#[inline(always)]
pub fn wgpu_noise_cellular_reach(dims: u32, distance: u32) -> i32 {
    if distance == CELLULAR_DISTANCE_MANHATTAN {
        return dims as i32;
    }
    if distance == CELLULAR_DISTANCE_HYBRID && dims == 4 {
        return 3;
    }
    if distance > CELLULAR_DISTANCE_HYBRID && cellular_exponent(distance) < 2.0 {
        return dims as i32;
    }
    2
}

/// The searched offsets per axis for F3 and F4: `-reach..=reach` (proof in
/// `shaders/cellular.wgsl`).
#[inline(always)]
pub fn wgpu_noise_cellular_reach4(dims: u32, distance: u32) -> i32 {
    if distance == CELLULAR_DISTANCE_CHEBYSHEV {
        return 2;
    }
    if distance == CELLULAR_DISTANCE_MANHATTAN {
        return dims as i32 + 1;
    }
    if distance > CELLULAR_DISTANCE_HYBRID && cellular_exponent(distance) < 2.0 {
        return dims as i32 + 1;
    }
    3
}

/// The `t`-th offset in visiting order: 0, -1, 1, -2, 2, ...
#[inline(always)]
pub(crate) fn wgpu_noise_cellular_offset(t: i32) -> i32 {
    let k = (t + 1) / 2;
    if (t & 1) == 1 {
        -k
    } else {
        k
    }
}

/// One axis's share of a distance: squared (euclidean, euclidean-squared), squared plus
/// absolute (hybrid), the absolute value to the power `e` (Minkowski) or absolute.
#[inline(always)]
pub fn wgpu_noise_cellular_term<R: Real>(d: R, distance: u32) -> R {
    if distance == CELLULAR_DISTANCE_EUCLIDEAN {
        return d * d;
    }
    if distance == CELLULAR_DISTANCE_EUCLIDEAN_SQUARED {
        return d * d;
    }
    if distance == CELLULAR_DISTANCE_HYBRID {
        return d * d + d.abs();
    }
    if distance > CELLULAR_DISTANCE_HYBRID {
        return wgpu_noise_cellular_power(d.abs(), R::lit(cellular_exponent(distance) as f64));
    }
    d.abs()
}

/// `v^e` for `v >= 0`, 0 at 0 (WGSL's `pow` is undefined there).
#[inline(always)]
pub fn wgpu_noise_cellular_power<R: Real>(v: R, e: R) -> R {
    if v == R::lit(0.0) {
        return R::lit(0.0);
    }
    v.powf(e)
}

/// Accumulates axis shares: sum, or max for Chebyshev.
#[inline(always)]
pub fn wgpu_noise_cellular_combine<R: Real>(a: R, b: R, distance: u32) -> R {
    if distance == CELLULAR_DISTANCE_CHEBYSHEV {
        return a.max(b);
    }
    a + b
}

/// The share of the gap between `f` and the interval the feature of the cell at offset `i`
/// can occupy along one axis.
#[inline(always)]
fn wgpu_noise_cellular_gap<R: Real>(f: R, i: i32, jitter: R, distance: u32) -> R {
    let g = ((R::lit(i as f64) + R::lit(0.5) - f).abs() - R::lit(0.5) * jitter).max(R::lit(0.0));
    wgpu_noise_cellular_term(g, distance)
}

/// Feature coordinate minus point along `axis`, for the cell at offset `i` with hash `h`.
#[inline(always)]
pub fn wgpu_noise_cellular_delta<R: Real>(
    lut: &impl NoiseHasher,
    h: u32,
    axis: u32,
    i: i32,
    f: R,
    jitter: R,
) -> R {
    let u = R::from_u32(lut.cell_byte(h, axis)) * R::lit(1.0 / 255.0);
    R::lit(i as f64) + (R::lit(0.5) + jitter * (u - R::lit(0.5))) - f
}

/// A byte's value `b` (0 to 255, or a blend of bytes) as a number in [-1, 1].
#[inline(always)]
pub fn wgpu_noise_byte_unit<R: Real>(b: R) -> R {
    ((b - R::lit(127.5)) * R::lit(1.0 / 127.5)).clamp(R::lit(-1.0), R::lit(1.0))
}

/// Byte `slot` of the cell with hash `h` as a number in [-1, 1].
#[inline(always)]
pub fn wgpu_noise_cell_unit<R: Real>(lut: &impl NoiseHasher, h: u32, slot: u32) -> R {
    wgpu_noise_byte_unit(R::from_u32(lut.cell_byte(h, slot)))
}

/// The cell value of the cell with hash `h`, in [-1, 1].
#[inline(always)]
pub fn wgpu_noise_cellular_value<R: Real>(lut: &impl NoiseHasher, h: u32) -> R {
    wgpu_noise_cell_unit(lut, h, 4)
}

/// The nearest two features found so far: `best` = `(F1, F2, value of F1's cell)` (the
/// shader's `best`), and for the gradient which cells hold F1's and F2's features (their
/// hash and offsets from the point's cell).
#[derive(Clone, Copy, Debug)]
pub struct Nearest<R> {
    /// F1, F2 (squared for Euclidean distance), the value of F1's cell.
    pub best: [R; 3],
    /// The cells of F1's and F2's features: hash and per-axis offsets.
    pub cells: [(u32, [i32; 4]); 2],
}

/// Keeps [`Nearest`] up to date with a feature at distance `d` in the cell `(h, offset)`
/// (a tie keeps the feature met first).
#[inline(always)]
fn wgpu_noise_cellular_insert<R: Real>(
    lut: &impl NoiseHasher,
    near: &mut Nearest<R>,
    d: R,
    h: u32,
    offset: [i32; 4],
) {
    let best = near.best;
    if d < best[0] {
        near.best = [d, best[0], wgpu_noise_cellular_value(lut, h)];
        near.cells = [(h, offset), near.cells[0]];
    } else if d < best[1] {
        near.best = [best[0], d, best[2]];
        near.cells[1] = (h, offset);
    }
}

/// What a search keeps of the features it meets: the nearest two ([`Nearest`]) or the
/// nearest `K` ([`NearestK`]).
pub trait Track<R: Real>: Sized {
    /// The searched offsets per axis are `-reach..=reach`.
    fn reach(&self, dims: u32, distance: u32) -> i32;
    /// A cell no nearer than this (its gap) cannot change what is kept.
    fn threshold(&self) -> R;
    /// Keeps the feature at distance `d` in the cell `(h, offset)` if it is among the nearest.
    fn insert(&mut self, lut: &impl NoiseHasher, d: R, h: u32, offset: [i32; 4]);
}

impl<R: Real> Nearest<R> {
    /// Nothing found yet.
    #[inline(always)]
    pub fn none() -> Self {
        let far = R::lit(WGPU_NOISE_CELLULAR_FAR);
        Nearest {
            best: [far, far, R::lit(0.0)],
            cells: [(0, [0; 4]); 2],
        }
    }
}

impl<R: Real> Track<R> for Nearest<R> {
    #[inline(always)]
    fn reach(&self, dims: u32, distance: u32) -> i32 {
        wgpu_noise_cellular_reach(dims, distance)
    }
    #[inline(always)]
    fn threshold(&self) -> R {
        self.best[1]
    }
    #[inline(always)]
    fn insert(&mut self, lut: &impl NoiseHasher, d: R, h: u32, offset: [i32; 4]) {
        wgpu_noise_cellular_insert(lut, self, d, h, offset)
    }
}

/// The nearest `K` (3 or 4) features found so far, nearest first (`wgpu_noise_CellularNearest4`
/// in the shader, which keeps four and searches for the `K`-th): their distances (squared for
/// the euclidean distance, powers' sums for Minkowski) and cells.
#[derive(Clone, Copy, Debug)]
pub struct NearestK<R, const K: usize> {
    /// F1 to F`K`.
    pub best: [R; K],
    /// The cells of their features: hash and per-axis offsets.
    pub cells: [(u32, [i32; 4]); K],
}

impl<R: Real, const K: usize> NearestK<R, K> {
    /// Nothing found yet.
    #[inline(always)]
    pub fn none() -> Self {
        NearestK {
            best: [R::lit(WGPU_NOISE_CELLULAR_FAR); K],
            cells: [(0, [0; 4]); K],
        }
    }
}

impl<R: Real, const K: usize> Track<R> for NearestK<R, K> {
    #[inline(always)]
    fn reach(&self, dims: u32, distance: u32) -> i32 {
        wgpu_noise_cellular_reach4(dims, distance)
    }
    #[inline(always)]
    fn threshold(&self) -> R {
        self.best[K - 1]
    }
    /// `wgpu_noise_cellular_insert4`: the feature goes before the first kept one it is
    /// nearer than (a tie keeps the feature met first), the farther ones move down.
    #[inline(always)]
    fn insert(&mut self, _lut: &impl NoiseHasher, d: R, h: u32, offset: [i32; 4]) {
        let mut slot = K;
        for k in (0..K).rev() {
            if d < self.best[k] {
                slot = k;
            }
        }
        if slot == K {
            return;
        }
        for k in (slot + 1..K).rev() {
            self.best[k] = self.best[k - 1];
            self.cells[k] = self.cells[k - 1];
        }
        self.best[slot] = d;
        self.cells[slot] = (h, offset);
    }
}

#[inline(always)]
fn wgpu_noise_cellular_finish<R: Real>(best: [R; 3], shape: &CellularShape) -> R {
    let mut f1 = best[0];
    let mut f2 = best[1];
    if shape.distance == CELLULAR_DISTANCE_EUCLIDEAN {
        // A correctly rounded square root in both precisions (f64's root rounded to f32 is
        // f32's correctly rounded root: 53 >= 2 * 24 + 2 bits).
        f1 = R::lit(f1.to_f64().sqrt());
        f2 = R::lit(f2.to_f64().sqrt());
    }
    if shape.distance > CELLULAR_DISTANCE_HYBRID {
        f1 = wgpu_noise_cellular_finish_metric(f1, shape.distance);
        f2 = wgpu_noise_cellular_finish_metric(f2, shape.distance);
    }
    if shape.output == CELLULAR_F2 {
        return f2;
    }
    if shape.output == CELLULAR_F2_MINUS_F1 {
        return f2 - f1;
    }
    if shape.output == CELLULAR_CELL {
        return best[2];
    }
    f1
}

/// F3 or F4 from its kept distance `d` (`wgpu_noise_cellular_finish`'s roots).
#[inline(always)]
fn wgpu_noise_cellular_finish_k<R: Real>(d: R, shape: &CellularShape) -> R {
    if shape.distance == CELLULAR_DISTANCE_EUCLIDEAN {
        return R::lit(d.to_f64().sqrt());
    }
    if shape.distance > CELLULAR_DISTANCE_HYBRID {
        return wgpu_noise_cellular_finish_metric(d, shape.distance);
    }
    d
}

/// A Minkowski distance from the sum of its powers: the sum to the power `1 / e`.
#[inline(always)]
pub(crate) fn wgpu_noise_cellular_finish_metric<R: Real>(sum: R, distance: u32) -> R {
    wgpu_noise_cellular_power(sum, wgpu_noise_cellular_root::<R>(distance))
}

/// The Minkowski distance's root: `1 / e` in `f32` in both precisions, as the `distance`
/// node's (a parameter of its `pow`).
#[inline(always)]
fn wgpu_noise_cellular_root<R: Real>(distance: u32) -> R {
    R::lit((1.0 / cellular_exponent(distance)) as f64)
}

/// `t^e` for `t >= 0` and `e >= 0`, with `0^0` = 1 (the slope of `|δ|` for `e` = 1).
#[inline(always)]
fn wgpu_noise_cellular_slope_power<R: Real>(t: R, e: R) -> R {
    if t == R::lit(0.0) {
        return if e == R::lit(0.0) {
            R::lit(1.0)
        } else {
            R::lit(0.0)
        };
    }
    t.powf(e)
}

/// A cell coordinate wrapped to `period` cells (256: the lookups' own period).
#[inline(always)]
pub fn wgpu_noise_cellular_wrap<R: Real>(cell: R, period: u32) -> u32 {
    if period == 256 {
        return wrap256(cell);
    }
    wrap_period(cell, period)
}

/// The nearest two features of a 2D point, with `period` cells per axis (whole numbers, 1 to 2²⁴).
pub fn cellular2_nearest<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 2],
    period: [u32; 2],
    shape: &CellularShape,
) -> Nearest<R> {
    cellular2_search(lut, p, period, shape, Nearest::none())
}

/// [`cellular2_nearest`]'s search, keeping what `near` keeps.
#[inline(always)]
fn cellular2_search<R: Real, T: Track<R>>(
    lut: &impl NoiseHasher,
    p: [R; 2],
    period: [u32; 2],
    shape: &CellularShape,
    mut near: T,
) -> T {
    let c = p.map(|v| v.floor());
    let f = [p[0] - c[0], p[1] - c[1]];
    let m = shape.distance;
    let jitter = R::lit(shape.jitter as f64);
    let n = 2 * near.reach(2, m) + 1;
    for tx in 0..n {
        let i = wgpu_noise_cellular_offset(tx);
        let gx = wgpu_noise_cellular_gap(f[0], i, jitter, m);
        if gx >= near.threshold() {
            continue;
        }
        let cx = wgpu_noise_cellular_wrap(c[0] + R::lit(i as f64), period[0]);
        for ty in 0..n {
            let j = wgpu_noise_cellular_offset(ty);
            let gy =
                wgpu_noise_cellular_combine(gx, wgpu_noise_cellular_gap(f[1], j, jitter, m), m);
            if gy >= near.threshold() {
                continue;
            }
            let cy = wgpu_noise_cellular_wrap(c[1] + R::lit(j as f64), period[1]);
            let h = lut.cell_hash(&[cx, cy]);
            let dx =
                wgpu_noise_cellular_term(wgpu_noise_cellular_delta(lut, h, 0, i, f[0], jitter), m);
            let dy =
                wgpu_noise_cellular_term(wgpu_noise_cellular_delta(lut, h, 1, j, f[1], jitter), m);
            let d = wgpu_noise_cellular_combine(dx, dy, m);
            near.insert(lut, d, h, [i, j, 0, 0]);
        }
    }
    near
}

/// The nearest two features of a 3D point, with `period` cells per axis.
pub fn cellular3_nearest<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 3],
    period: [u32; 3],
    shape: &CellularShape,
) -> Nearest<R> {
    cellular3_search(lut, p, period, shape, Nearest::none())
}

/// [`cellular3_nearest`]'s search, keeping what `near` keeps.
#[inline(always)]
fn cellular3_search<R: Real, T: Track<R>>(
    lut: &impl NoiseHasher,
    p: [R; 3],
    period: [u32; 3],
    shape: &CellularShape,
    mut near: T,
) -> T {
    let c = p.map(|v| v.floor());
    let f: [R; 3] = std::array::from_fn(|a| p[a] - c[a]);
    let m = shape.distance;
    let jitter = R::lit(shape.jitter as f64);
    let n = 2 * near.reach(3, m) + 1;
    for tx in 0..n {
        let i = wgpu_noise_cellular_offset(tx);
        let gx = wgpu_noise_cellular_gap(f[0], i, jitter, m);
        if gx >= near.threshold() {
            continue;
        }
        let cx = wgpu_noise_cellular_wrap(c[0] + R::lit(i as f64), period[0]);
        for ty in 0..n {
            let j = wgpu_noise_cellular_offset(ty);
            let gy =
                wgpu_noise_cellular_combine(gx, wgpu_noise_cellular_gap(f[1], j, jitter, m), m);
            if gy >= near.threshold() {
                continue;
            }
            let cy = wgpu_noise_cellular_wrap(c[1] + R::lit(j as f64), period[1]);
            for tz in 0..n {
                let k = wgpu_noise_cellular_offset(tz);
                let gz =
                    wgpu_noise_cellular_combine(gy, wgpu_noise_cellular_gap(f[2], k, jitter, m), m);
                if gz >= near.threshold() {
                    continue;
                }
                let cz = wgpu_noise_cellular_wrap(c[2] + R::lit(k as f64), period[2]);
                let h = lut.cell_hash(&[cx, cy, cz]);
                let delta = |axis, o, f| {
                    wgpu_noise_cellular_term(
                        wgpu_noise_cellular_delta(lut, h, axis, o, f, jitter),
                        m,
                    )
                };
                let (dx, dy, dz) = (delta(0, i, f[0]), delta(1, j, f[1]), delta(2, k, f[2]));
                let d = wgpu_noise_cellular_combine(wgpu_noise_cellular_combine(dx, dy, m), dz, m);
                near.insert(lut, d, h, [i, j, k, 0]);
            }
        }
    }
    near
}

/// The nearest two features of a 4D point, with `period` cells per axis.
pub fn cellular4_nearest<R: Real>(
    lut: &impl NoiseHasher,
    p: [R; 4],
    period: [u32; 4],
    shape: &CellularShape,
) -> Nearest<R> {
    cellular4_search(lut, p, period, shape, Nearest::none())
}

/// [`cellular4_nearest`]'s search, keeping what `near` keeps.
#[inline(always)]
fn cellular4_search<R: Real, T: Track<R>>(
    lut: &impl NoiseHasher,
    p: [R; 4],
    period: [u32; 4],
    shape: &CellularShape,
    mut near: T,
) -> T {
    let c = p.map(|v| v.floor());
    let f: [R; 4] = std::array::from_fn(|a| p[a] - c[a]);
    let m = shape.distance;
    let jitter = R::lit(shape.jitter as f64);
    let n = 2 * near.reach(4, m) + 1;
    for tx in 0..n {
        let i = wgpu_noise_cellular_offset(tx);
        let gx = wgpu_noise_cellular_gap(f[0], i, jitter, m);
        if gx >= near.threshold() {
            continue;
        }
        let cx = wgpu_noise_cellular_wrap(c[0] + R::lit(i as f64), period[0]);
        for ty in 0..n {
            let j = wgpu_noise_cellular_offset(ty);
            let gy =
                wgpu_noise_cellular_combine(gx, wgpu_noise_cellular_gap(f[1], j, jitter, m), m);
            if gy >= near.threshold() {
                continue;
            }
            let cy = wgpu_noise_cellular_wrap(c[1] + R::lit(j as f64), period[1]);
            for tz in 0..n {
                let k = wgpu_noise_cellular_offset(tz);
                let gz =
                    wgpu_noise_cellular_combine(gy, wgpu_noise_cellular_gap(f[2], k, jitter, m), m);
                if gz >= near.threshold() {
                    continue;
                }
                let cz = wgpu_noise_cellular_wrap(c[2] + R::lit(k as f64), period[2]);
                for tw in 0..n {
                    let l = wgpu_noise_cellular_offset(tw);
                    let gw = wgpu_noise_cellular_combine(
                        gz,
                        wgpu_noise_cellular_gap(f[3], l, jitter, m),
                        m,
                    );
                    if gw >= near.threshold() {
                        continue;
                    }
                    let cw = wgpu_noise_cellular_wrap(c[3] + R::lit(l as f64), period[3]);
                    let h = lut.cell_hash(&[cx, cy, cz, cw]);
                    let delta = |axis, o, f| {
                        wgpu_noise_cellular_term(
                            wgpu_noise_cellular_delta(lut, h, axis, o, f, jitter),
                            m,
                        )
                    };
                    let (dx, dy) = (delta(0, i, f[0]), delta(1, j, f[1]));
                    let (dz, dw) = (delta(2, k, f[2]), delta(3, l, f[3]));
                    let d = wgpu_noise_cellular_combine(
                        wgpu_noise_cellular_combine(wgpu_noise_cellular_combine(dx, dy, m), dz, m),
                        dw,
                        m,
                    );
                    near.insert(lut, d, h, [i, j, k, l]);
                }
            }
        }
    }
    near
}

/// Cellular noise at `p` (2 to 4 coordinates) on the lookups' own 256-cell lattice
/// (`cellular2/3/4` in the shader).
pub fn cellular<R: Real>(lut: &impl NoiseHasher, p: &[R], shape: &CellularShape) -> R {
    cellular_periodic(lut, p, &[256; 4][..p.len()], shape)
}

/// The nearest two features of `p` (2 to 4 coordinates) with `period` cells per axis.
///
/// # Panics
/// If `p` does not have 2, 3 or 4 coordinates (a programming error, not an input error).
#[inline(always)]
fn cellular_nearest<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[u32],
    shape: &CellularShape,
) -> Nearest<R> {
    cellular_search(lut, p, period, shape, Nearest::none())
}

/// The search of `p` (2 to 4 coordinates) keeping what `near` keeps.
#[inline(always)]
fn cellular_search<R: Real, T: Track<R>>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[u32],
    shape: &CellularShape,
    near: T,
) -> T {
    match (p, period) {
        (&[x, y], &[a, b, ..]) => cellular2_search(lut, [x, y], [a, b], shape, near),
        (&[x, y, z], &[a, b, c, ..]) => cellular3_search(lut, [x, y, z], [a, b, c], shape, near),
        (&[x, y, z, w], &[a, b, c, d, ..]) => {
            cellular4_search(lut, [x, y, z, w], [a, b, c, d], shape, near)
        }
        _ => panic!("cellular takes 2, 3 or 4 coordinates, not {}", p.len()),
    }
}

/// F3 or F4 of `p` (`shape.output`), as kept (squared for the euclidean distance, …), and
/// its feature's cell.
#[inline(always)]
fn cellular_kth<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[u32],
    shape: &CellularShape,
) -> (R, (u32, [i32; 4])) {
    if shape.output == CELLULAR_F3 {
        let near = cellular_search(lut, p, period, shape, NearestK::<R, 3>::none());
        return (near.best[2], near.cells[2]);
    }
    let near = cellular_search(lut, p, period, shape, NearestK::<R, 4>::none());
    (near.best[3], near.cells[3])
}

/// Cellular noise at `p` (2 to 4 coordinates) repeating every `period` cells per axis
/// (`cellular2/3/4_periodic` in the shader).
///
/// # Panics
/// If `p` does not have 2, 3 or 4 coordinates (a programming error, not an input error).
pub fn cellular_periodic<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[u32],
    shape: &CellularShape,
) -> R {
    if shape.output == CELLULAR_F3 || shape.output == CELLULAR_F4 {
        return wgpu_noise_cellular_finish_k(cellular_kth(lut, p, period, shape).0, shape);
    }
    wgpu_noise_cellular_finish(cellular_nearest(lut, p, period, shape).best, shape)
}

/// [`cellular_periodic`] and its gradient `[value, ∂/∂x, …]` (entries past `p.len()` 0).
///
/// A feature at `δ = feature − p` is at distance `|δ|` (Euclidean: gradient `−δ/|δ|`, 0 at
/// the feature itself), `Σ|δₐ|` (Manhattan: `−sign δₐ`), `max |δₐ|` (Chebyshev: `−sign δₐ`
/// along the axis of the largest, the first such axis on a tie), `Σδₐ²` (Euclidean squared:
/// `−2δₐ`), `Σ(δₐ² + |δₐ|)` (hybrid: `−2δₐ − sign δₐ`) or `r = (Σ|δₐ|^e)^(1/e)` (Minkowski:
/// `−sign δₐ (|δₐ| / r)^(e−1)`, 0 at the feature itself), with the sign of 0 taken as +1
/// (as `abs`'s slope). F1, F2 and F2 − F1 take the gradients of their features;
/// where two features are equally near (a cell border, a kink) the one the search met
/// first is F1. The cell value is constant within a cell: gradient 0.
pub fn cellular_periodic_deriv<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[u32],
    shape: &CellularShape,
) -> [R; 5] {
    let dims = p.len();
    let mut out = [R::lit(0.0); 5];
    if shape.output == CELLULAR_F3 || shape.output == CELLULAR_F4 {
        let (d, cell) = cellular_kth(lut, p, period, shape);
        out[0] = wgpu_noise_cellular_finish_k(d, shape);
        let g = wgpu_noise_cellular_slope(lut, p, shape, cell, d);
        out[1..1 + dims].copy_from_slice(&g[..dims]);
        return out;
    }
    let near = cellular_nearest(lut, p, period, shape);
    out[0] = wgpu_noise_cellular_finish(near.best, shape);
    if shape.output == CELLULAR_CELL {
        return out;
    }
    let slope = |cell, d| wgpu_noise_cellular_slope(lut, p, shape, cell, d);
    let g1 = slope(near.cells[0], near.best[0]);
    let g2 = slope(near.cells[1], near.best[1]);
    for a in 0..dims {
        out[1 + a] = if shape.output == CELLULAR_F2 {
            g2[a]
        } else if shape.output == CELLULAR_F2_MINUS_F1 {
            g2[a] - g1[a]
        } else {
            g1[a]
        };
    }
    out
}

/// A parameter of cellular noise that a graph's node may give per sample, for the
/// derivative along it ([`cellular_periodic_parameter_slope`]; the shader's
/// `WGPU_NOISE_CELLULAR_JITTER` and `WGPU_NOISE_CELLULAR_EXPONENT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellParameter {
    /// `shape.jitter`.
    Jitter,
    /// The Minkowski exponent of `shape.distance`.
    Exponent,
}

impl CellParameter {
    /// The shader's code of the parameter.
    pub fn code(self) -> u32 {
        match self {
            CellParameter::Jitter => 0,
            CellParameter::Exponent => 1,
        }
    }
}

/// The derivative of [`cellular_periodic`] with respect to `parameter`, for a cellular
/// source whose jitter or Minkowski exponent is driven by a value.
///
/// Jitter: a feature moves with the jitter by `∂δₐ/∂jitter = uₐ − ½`
/// (`wgpu_noise_cellular_delta`), and its distance's slope along `δ` is minus its slope
/// along `p` ([`cellular_periodic_deriv`]'s), so each feature contributes
/// `−Σₐ gₐ (uₐ − ½)`. Exponent: [`wgpu_noise_cellular_exponent_term`]. F1, F2 and F3/F4
/// take their feature's, F2 − F1 the difference; the cell value does not move: 0. The
/// nearest features are those of the search at `shape`'s values; where two are equally
/// near the one the search met first is taken, as for the gradient.
pub fn cellular_periodic_parameter_slope<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[u32],
    shape: &CellularShape,
    parameter: CellParameter,
) -> R {
    let slope = |cell: (u32, [i32; 4]), d| match parameter {
        CellParameter::Jitter => {
            let g = wgpu_noise_cellular_slope(lut, p, shape, cell, d);
            wgpu_noise_cellular_jitter_term(lut, &g, p.len(), cell.0)
        }
        CellParameter::Exponent => wgpu_noise_cellular_exponent_term(lut, p, shape, cell, d),
    };
    if shape.output == CELLULAR_F3 || shape.output == CELLULAR_F4 {
        let (d, cell) = cellular_kth(lut, p, period, shape);
        return slope(cell, d);
    }
    if shape.output == CELLULAR_CELL {
        return R::lit(0.0);
    }
    let near = cellular_nearest(lut, p, period, shape);
    if shape.output == CELLULAR_F2 {
        slope(near.cells[1], near.best[1])
    } else if shape.output == CELLULAR_F2_MINUS_F1 {
        slope(near.cells[1], near.best[1]) - slope(near.cells[0], near.best[0])
    } else {
        slope(near.cells[0], near.best[0])
    }
}

/// One feature's slope along the Minkowski exponent `e`, the feature in cell `(h, offset)`
/// at the powers' sum `S = Σₐ|δₐ|^e` from `p`: its distance `r = S^(1/e)` changes by
/// `r (Σₐ|δₐ|^e ln|δₐ| / (e S) − ln S / e²)`, in that order of operations (an axis with
/// `δₐ = 0` adds nothing); 0 at the feature itself and for the other metrics.
#[inline(always)]
fn wgpu_noise_cellular_exponent_term<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    shape: &CellularShape,
    (h, offset): (u32, [i32; 4]),
    d: R,
) -> R {
    if shape.distance <= CELLULAR_DISTANCE_HYBRID || d == R::lit(0.0) {
        return R::lit(0.0);
    }
    let e = R::lit(cellular_exponent(shape.distance) as f64);
    let r = wgpu_noise_cellular_finish_metric(d, shape.distance);
    let jitter = R::lit(shape.jitter as f64);
    let mut t = R::lit(0.0);
    for (a, &x) in p.iter().enumerate() {
        let f = x - x.floor();
        let v = wgpu_noise_cellular_delta(lut, h, a as u32, offset[a], f, jitter).abs();
        if v > R::lit(0.0) {
            t = t + wgpu_noise_cellular_power(v, e) * v.ln();
        }
    }
    r * (t / (e * d) - d.ln() / (e * e))
}

/// One feature's jitter slope from its gradient `g` along `p` and its cell's hash `h`:
/// `−Σₐ gₐ (uₐ − ½)` over the `dims` axes, in axis order.
#[inline(always)]
fn wgpu_noise_cellular_jitter_term<R: Real>(
    lut: &impl NoiseHasher,
    g: &[R; 4],
    dims: usize,
    h: u32,
) -> R {
    let mut s = R::lit(0.0);
    for (a, &g) in g.iter().enumerate().take(dims) {
        let u = R::from_u32(lut.cell_byte(h, a as u32)) * R::lit(1.0 / 255.0);
        s = s - g * (u - R::lit(0.5));
    }
    s
}

/// The gradient of the distance to the feature in cell `(h, offset)` at squared (or plain,
/// or the powers' sum) distance `d` from `p` (`dims` = `p.len()` coordinates, the rest 0).
#[inline(always)]
fn wgpu_noise_cellular_slope<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    shape: &CellularShape,
    (h, offset): (u32, [i32; 4]),
    d: R,
) -> [R; 4] {
    let dims = p.len();
    let jitter = R::lit(shape.jitter as f64);
    let mut g = [R::lit(0.0); 4];
    let delta: [R; 4] = std::array::from_fn(|a| {
        if a < dims {
            let f = p[a] - p[a].floor();
            wgpu_noise_cellular_delta(lut, h, a as u32, offset[a], f, jitter)
        } else {
            R::lit(0.0)
        }
    });
    let sign = |v: R| {
        if v < R::lit(0.0) {
            R::lit(1.0)
        } else {
            R::lit(-1.0)
        }
    };
    if shape.distance == CELLULAR_DISTANCE_EUCLIDEAN {
        let r = R::lit(d.to_f64().sqrt());
        if r > R::lit(0.0) {
            for a in 0..dims {
                g[a] = -delta[a] / r;
            }
        }
    } else if shape.distance == CELLULAR_DISTANCE_EUCLIDEAN_SQUARED {
        for a in 0..dims {
            g[a] = R::lit(-2.0) * delta[a];
        }
    } else if shape.distance == CELLULAR_DISTANCE_HYBRID {
        for a in 0..dims {
            g[a] = R::lit(-2.0) * delta[a] + sign(delta[a]);
        }
    } else if shape.distance > CELLULAR_DISTANCE_HYBRID {
        // (Σ|δₐ|^e)^(1/e) = r: each axis's slope −sign δₐ (|δₐ| / r)^(e−1).
        let e = R::lit(cellular_exponent(shape.distance) as f64);
        let r = wgpu_noise_cellular_finish_metric(d, shape.distance);
        if r > R::lit(0.0) {
            for a in 0..dims {
                g[a] = sign(delta[a])
                    * wgpu_noise_cellular_slope_power(delta[a].abs() / r, e - R::lit(1.0));
            }
        }
    } else if shape.distance == CELLULAR_DISTANCE_CHEBYSHEV {
        // The largest |δₐ| of this δ, the first on a tie (as the shader: the search's δ
        // may differ from it in the last bit on a GPU).
        let mut axis = 0;
        for a in 1..dims {
            if delta[a].abs() > delta[axis].abs() {
                axis = a;
            }
        }
        g[axis] = sign(delta[axis]);
    } else {
        for a in 0..dims {
            g[a] = sign(delta[a]);
        }
    }
    g
}

/// The coordinate of the feature of the cell with hash `h` along `axis`, the cell's lower
/// corner at `cell`: `cell + (0.5 + jitter (u − 0.5))`, the position
/// [`wgpu_noise_cellular_delta`] measures from the point.
#[inline(always)]
pub fn wgpu_noise_cellular_position<R: Real>(
    lut: &impl NoiseHasher,
    h: u32,
    axis: u32,
    cell: R,
    jitter: R,
) -> R {
    let u = R::from_u32(lut.cell_byte(h, axis)) * R::lit(1.0 / 255.0);
    cell + (R::lit(0.5) + jitter * (u - R::lit(0.5)))
}

/// The lower corner of the cell at offset `i` from the point's cell `c` along one axis:
/// `c + i`, wrapped into `[0, period)` where `tiled` (so that the position repeats with the
/// tile), else as it is (the field's own coordinates).
#[inline(always)]
pub fn wgpu_noise_cellular_corner<R: Real>(c: R, i: i32, period: u32, tiled: bool) -> R {
    let cell = c + R::lit(i as f64);
    if tiled {
        return R::from_u32(wgpu_noise_cellular_wrap(cell, period));
    }
    cell
}

/// How the position of the nearest feature ([`cellular_feature`]) moves with the jitter:
/// `uₐ − ½` along each of `p.len()` axes ([`wgpu_noise_cellular_position`]), 0 past them.
pub fn cellular_feature_jitter_slope<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[u32],
    shape: &CellularShape,
) -> [R; 4] {
    let (h, _) = cellular_nearest(lut, p, period, shape).cells[0];
    let mut out = [R::lit(0.0); 4];
    for (a, out) in out.iter_mut().enumerate().take(p.len()) {
        let u = R::from_u32(lut.cell_byte(h, a as u32)) * R::lit(1.0 / 255.0);
        *out = u - R::lit(0.5);
    }
    out
}

/// The position of the nearest feature (F1's, by `shape`'s distance and jitter; a tie keeps
/// the feature the search met first) of `p` (2 to 4 coordinates) with `period` cells per
/// axis, in `p`'s coordinates: its cell's corner (wrapped into the tile where `tiled`) plus
/// its jittered offset (`wgpu_noise_cellular2/3/4_feature` in the shader). Coordinates past `p.len()`
/// are 0.
pub fn cellular_feature<R: Real>(
    lut: &impl NoiseHasher,
    p: &[R],
    period: &[u32],
    tiled: bool,
    shape: &CellularShape,
) -> [R; 4] {
    let near = cellular_nearest(lut, p, period, shape);
    let (h, offset) = near.cells[0];
    let jitter = R::lit(shape.jitter as f64);
    let mut out = [R::lit(0.0); 4];
    for (a, out) in out.iter_mut().enumerate().take(p.len()) {
        let corner = wgpu_noise_cellular_corner(p[a].floor(), offset[a], period[a], tiled);
        *out = wgpu_noise_cellular_position(lut, h, a as u32, corner, jitter);
    }
    out
}
