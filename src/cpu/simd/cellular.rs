//! [`crate::cpu::cellular`] on lanes: cellular noise at 16 points at once, bit for bit, with
//! the scalar names and order of operations.
//!
//! The scalar search skips a cell, and every cell within it along the inner axes, once the
//! cell's gap to the point is no nearer than the point's F2 so far. The lanes visit the
//! cells in the same order and keep that choice per lane as a mask: the block skips a cell
//! only where every lane skips it, and a lane takes a feature only from a cell it visits,
//! so each lane sees exactly the scalar sequence of features.

use super::lanes::{Isa, F, U};
use super::lookup::LaneHasher;
use super::noise::wrap_lanes;
use crate::cpu::cellular::{
    wgpu_noise_cellular_finish_metric, wgpu_noise_cellular_offset, wgpu_noise_cellular_power,
    wgpu_noise_cellular_reach, wgpu_noise_cellular_reach4, CellularShape, WGPU_NOISE_CELLULAR_FAR,
};
use crate::params::{
    cellular_exponent, CELLULAR_CELL, CELLULAR_DISTANCE_CHEBYSHEV, CELLULAR_DISTANCE_EUCLIDEAN,
    CELLULAR_DISTANCE_EUCLIDEAN_SQUARED, CELLULAR_DISTANCE_HYBRID, CELLULAR_F2,
    CELLULAR_F2_MINUS_F1, CELLULAR_F3, CELLULAR_F4,
};

/// `wgpu_noise_cellular_term` on lanes (the Minkowski power per lane, by the scalar function).
#[inline(always)]
fn wgpu_noise_cellular_term(d: F, distance: u32) -> F {
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
        let e = cellular_exponent(distance);
        return d.abs().map(|v| wgpu_noise_cellular_power(v, e));
    }
    d.abs()
}

/// `wgpu_noise_cellular_combine` on lanes.
#[inline(always)]
fn wgpu_noise_cellular_combine(a: F, b: F, distance: u32) -> F {
    if distance == CELLULAR_DISTANCE_CHEBYSHEV {
        return a.max(b);
    }
    a + b
}

/// `wgpu_noise_cellular_gap` on lanes.
#[inline(always)]
fn wgpu_noise_cellular_gap(f: F, i: i32, jitter: f32, distance: u32) -> F {
    let g = (((i as f32 + 0.5) - f).abs() - 0.5 * jitter).max(F::splat(0.0));
    wgpu_noise_cellular_term(g, distance)
}

/// `wgpu_noise_cellular_delta` on lanes.
#[inline(always)]
fn wgpu_noise_cellular_delta<L: LaneHasher>(
    lut: &L,
    h: U,
    axis: u32,
    i: i32,
    f: F,
    jitter: f32,
) -> F {
    let u = lut.cell_byte_lanes(h, axis).to_f32() * (1.0f64 / 255.0) as f32;
    (i as f32 + (0.5 + jitter * (u - 0.5))) - f
}

/// `wgpu_noise_byte_unit` on lanes.
#[inline(always)]
pub(super) fn wgpu_noise_byte_unit(b: F) -> F {
    ((b - 127.5) * (1.0f64 / 127.5) as f32).clamp(-1.0, 1.0)
}

/// `wgpu_noise_cell_unit` on lanes.
#[inline(always)]
pub(super) fn wgpu_noise_cell_unit<L: LaneHasher>(lut: &L, h: U, slot: u32) -> F {
    wgpu_noise_byte_unit(lut.cell_byte_lanes(h, slot).to_f32())
}

/// `rows[a] += u_a · term` over the first `K` entries of `term` (a value, then its
/// gradient), `u_a` the unit of byte `slot + a` of the hash `h`: one point's share of a
/// vector noise's rows. Rows and entries are written out (at most 4 and 5): LLVM vectorises
/// a loop over them across its iterations, a lane at a time by gathers and scatters.
#[inline(always)]
pub(super) fn add_vector_term<L: LaneHasher, const N: usize, const K: usize, const C: usize>(
    lut: &L,
    rows: &mut [[F; K]; N],
    term: &[F; C],
    h: U,
    slot: u32,
) {
    macro_rules! row {
        ($a:literal) => {
            if $a < N {
                let u = wgpu_noise_cell_unit(lut, h, slot + $a);
                let row = &mut rows[$a];
                add_scaled(row, u, term, 0);
                add_scaled(row, u, term, 1);
                add_scaled(row, u, term, 2);
                add_scaled(row, u, term, 3);
                add_scaled(row, u, term, 4);
            }
        };
    }
    row!(0);
    row!(1);
    row!(2);
    row!(3);
}

/// `row[k] += u · term[k]`, where the row has an entry `k`.
#[inline(always)]
fn add_scaled<const K: usize, const C: usize>(row: &mut [F; K], u: F, term: &[F; C], k: usize) {
    if k < K {
        row[k] = row[k] + u * term[k];
    }
}

/// `wgpu_noise_cellular_value` on lanes.
#[inline(always)]
pub(super) fn wgpu_noise_cellular_value<L: LaneHasher>(lut: &L, h: U) -> F {
    wgpu_noise_cell_unit(lut, h, 4)
}

/// `wgpu_noise_cellular_finish` on lanes: the output of `F1`, `F2` (squared for Euclidean
/// distance) and the value of F1's cell.
#[inline(always)]
fn wgpu_noise_cellular_finish(f1: F, f2: F, value: F, shape: &CellularShape) -> F {
    let (mut f1, mut f2) = (f1, f2);
    if shape.distance == CELLULAR_DISTANCE_EUCLIDEAN {
        f1 = f1.sqrt();
        f2 = f2.sqrt();
    }
    if shape.distance > CELLULAR_DISTANCE_HYBRID {
        f1 = f1.map(|v| wgpu_noise_cellular_finish_metric(v, shape.distance));
        f2 = f2.map(|v| wgpu_noise_cellular_finish_metric(v, shape.distance));
    }
    if shape.output == CELLULAR_F2 {
        return f2;
    }
    if shape.output == CELLULAR_F2_MINUS_F1 {
        return f2 - f1;
    }
    if shape.output == CELLULAR_CELL {
        return value;
    }
    f1
}

/// What the walk keeps of the features it meets, per lane (the scalar `Track`).
trait LaneTrack {
    /// The searched offsets per axis are `-reach..=reach`.
    fn reach(dims: u32, distance: u32) -> i32;
    /// A cell no nearer than this (its gap) cannot change what is kept.
    fn threshold(&self) -> F;
    /// The feature at distance `d` in the cell of hash `h`, on the lanes of `visit`.
    fn insert<L: LaneHasher>(&mut self, lut: &L, visit: U, d: F, h: U, shape: &CellularShape);
}

/// The nearest two features (the scalar `Nearest`): F1, F2 and F1's cell value.
struct LaneNearest {
    f1: F,
    f2: F,
    value: F,
}

impl LaneTrack for LaneNearest {
    #[inline(always)]
    fn reach(dims: u32, distance: u32) -> i32 {
        wgpu_noise_cellular_reach(dims, distance)
    }
    #[inline(always)]
    fn threshold(&self) -> F {
        self.f2
    }
    /// `wgpu_noise_cellular_insert` on the lanes that visit the cell.
    #[inline(always)]
    fn insert<L: LaneHasher>(&mut self, lut: &L, visit: U, d: F, h: U, shape: &CellularShape) {
        let nearest = visit & d.lt(self.f1);
        let second = visit & (nearest ^ 1) & d.lt(self.f2);
        if shape.output == CELLULAR_CELL && nearest.any() {
            self.value = nearest.select_f(wgpu_noise_cellular_value(lut, h), self.value);
        }
        self.f2 = nearest.select_f(self.f1, second.select_f(d, self.f2));
        self.f1 = nearest.select_f(d, self.f1);
    }
}

/// The nearest `K` features (3 or 4; the scalar `NearestK`), nearest first.
struct LaneNearestK<const K: usize> {
    best: [F; K],
}

impl<const K: usize> LaneTrack for LaneNearestK<K> {
    #[inline(always)]
    fn reach(dims: u32, distance: u32) -> i32 {
        wgpu_noise_cellular_reach4(dims, distance)
    }
    #[inline(always)]
    fn threshold(&self) -> F {
        self.best[K - 1]
    }
    /// `NearestK::insert` on the lanes that visit the cell: each kept distance the feature
    /// is nearer than takes the one before it (or the feature, at the first).
    #[inline(always)]
    fn insert<L: LaneHasher>(&mut self, _lut: &L, visit: U, d: F, _h: U, _shape: &CellularShape) {
        let nearer: [U; K] = std::array::from_fn(|k| visit & d.lt(self.best[k]));
        for k in (1..K).rev() {
            let moved = nearer[k - 1].select_f(self.best[k - 1], d);
            self.best[k] = nearer[k].select_f(moved, self.best[k]);
        }
        self.best[0] = nearer[0].select_f(d, self.best[0]);
    }
}

/// `cellular_periodic` in `D` dimensions (the first `D` of `p` and `period`) on lanes: the
/// scalar `cellular2/3/4_nearest` loops, x outermost, as one walk over the cells.
#[inline(always)]
pub fn cellular<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
    shape: &CellularShape,
) -> F {
    let far = F::splat(WGPU_NOISE_CELLULAR_FAR as f32);
    // F3 and F4 from their kept distances (`wgpu_noise_cellular_finish_k`).
    let finish_k = |d: F| {
        if shape.distance == CELLULAR_DISTANCE_EUCLIDEAN {
            d.sqrt()
        } else if shape.distance > CELLULAR_DISTANCE_HYBRID {
            d.map(|v| wgpu_noise_cellular_finish_metric(v, shape.distance))
        } else {
            d
        }
    };
    if shape.output == CELLULAR_F3 {
        let near = walk::<L, I, D, _>(lut, p, period, shape, LaneNearestK { best: [far; 3] });
        return finish_k(near.best[2]);
    }
    if shape.output == CELLULAR_F4 {
        let near = walk::<L, I, D, _>(lut, p, period, shape, LaneNearestK { best: [far; 4] });
        return finish_k(near.best[3]);
    }
    let near = LaneNearest {
        f1: far,
        f2: far,
        value: F::splat(0.0),
    };
    let near = walk::<L, I, D, _>(lut, p, period, shape, near);
    wgpu_noise_cellular_finish(near.f1, near.f2, near.value, shape)
}

/// The walk over the cells of [`cellular`], keeping what `near` keeps.
#[inline(always)]
fn walk<L: LaneHasher, I: Isa, const D: usize, T: LaneTrack>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
    shape: &CellularShape,
    mut near: T,
) -> T {
    let m = shape.distance;
    let jitter = shape.jitter;
    let c: [F; D] = std::array::from_fn(|a| I::floor(p[a]));
    let f: [F; D] = std::array::from_fn(|a| p[a] - c[a]);
    let n = (2 * T::reach(D as u32, m) + 1) as usize;
    // Per axis: the visiting index of its offset, the offset, the gap so far (combined over
    // the outer axes), the lanes that visit the cell, its wrapped coordinate.
    let mut t = [0usize; D];
    let mut offsets = [0i32; D];
    let mut gaps = [F::splat(0.0); D];
    let mut visits = [U::splat(0); D];
    let mut cells = [U::splat(0); 4];
    // The outermost axis whose offset changed since the last cell.
    let mut from = 0;
    loop {
        let mut skipped = None;
        for a in from..D {
            let i = wgpu_noise_cellular_offset(t[a] as i32);
            offsets[a] = i;
            let g = wgpu_noise_cellular_gap(f[a], i, jitter, m);
            let (g, outer) = if a == 0 {
                (g, U::splat(1))
            } else {
                (
                    wgpu_noise_cellular_combine(gaps[a - 1], g, m),
                    visits[a - 1],
                )
            };
            gaps[a] = g;
            visits[a] = outer & g.lt(near.threshold());
            if !visits[a].any() {
                skipped = Some(a);
                break;
            }
            cells[a] = wrap_lanes::<I, _>(c[a] + i as f32, period[a]);
        }
        match skipped {
            // No lane visits this cell along axis `a`: on to the next offset along `a`.
            Some(a) => t[a + 1..].fill(n - 1),
            None => {
                let h = lut.cell_hash_lanes::<D, _>(&cells);
                let mut d = F::splat(0.0);
                for a in 0..D {
                    let e = wgpu_noise_cellular_term(
                        wgpu_noise_cellular_delta(lut, h, a as u32, offsets[a], f[a], jitter),
                        m,
                    );
                    d = if a == 0 {
                        e
                    } else {
                        wgpu_noise_cellular_combine(d, e, m)
                    };
                }
                near.insert(lut, visits[D - 1], d, h, shape);
            }
        }
        // The next cell: the innermost axis with an offset left, the axes inside it from
        // their first offset.
        let mut a = D;
        loop {
            if a == 0 {
                return near;
            }
            a -= 1;
            t[a] += 1;
            if t[a] < n {
                break;
            }
            t[a] = 0;
        }
        from = a;
    }
}
