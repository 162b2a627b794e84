//! A fractal, or one noise, at a point moved by the `vector` warp (FastNoise2's
//! `DomainWarpGradient` over fBm, the peer's warped tree) on lanes, a segment of lane blocks
//! at a time.
//!
//! The graph fill ([`super::graph`]) takes a program of this shape here instead of walking
//! its operation loop block by block: the warp is computed straight into the warped points
//! of a segment, then each octave calls its out-of-line lane function once for the whole
//! segment (as [`super::points`] runs a warped flag field). The operations are the
//! program's, in its order and with its clamps (`eval::step`), so the values are the
//! operation loop's bit for bit (`tests/reference/simd_identity.rs`).

use super::bases::{LaneBase, LaneNoise};
use super::graph::finite;
use super::lanes::{block_done, F, LANES};
use super::lookup::LaneHasher;
use super::points::SEGMENT_BLOCKS;
use super::{lane_x, row_point, shape_octave};
use crate::field::NoiseKind;
use crate::graph::program::{Op, Program, Reg, VectorSource};
use crate::params::FillParams;

/// A point scaled then shifted: `Op::Scale` (where there is one) then `Op::Offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Affine {
    scale: Option<[f32; 4]>,
    shift: Option<[f32; 4]>,
}

/// One octave of the fractal: its point's scale, its lane function and its amplitude.
#[derive(Clone, Copy, Debug)]
struct Octave {
    scale: Option<[f32; 4]>,
    base: LaneBase,
    amplitude: f32,
}

/// What the kernel makes of its octaves' noise.
#[derive(Clone, Copy, Debug)]
enum Sum {
    /// `Op::Fractal`: the shaped octaves summed, divided by `norm`.
    Fractal {
        /// `FractalMode::code`.
        mode: u32,
        norm: f32,
    },
    /// The output is the one octave's `Op::Noise` itself.
    Noise,
}

/// A program whose output is a fractal of noise at scaled copies of one point, or one noise
/// at that point (scaled), that point the sample point displaced by one `vector` warp (one
/// octave, one iteration): what the segment kernel computes.
#[derive(Clone, Debug)]
pub(super) struct WarpedFractal {
    dims: usize,
    /// The point the warp's vector noise is sampled at, from the sample point.
    warp_at: Affine,
    /// The warp's vector noise.
    vector: LaneBase,
    /// The displacement's scale.
    amplitude: f32,
    octaves: Vec<Octave>,
    sum: Sum,
}

impl WarpedFractal {
    /// The kernel's form of `program`, if it has the shape ([`WarpedFractal`]) and every
    /// noise has a lane function in `bases` (one entry per operation).
    pub(super) fn of(program: &Program, bases: &[Option<LaneBase>]) -> Option<WarpedFractal> {
        let ops = &program.ops;
        let dims = program.dims;
        if program.point_dims.iter().any(|&d| d != dims) {
            return None;
        }
        let noise_alone = [(program.output, 1.0)];
        let (terms, sum) = match &ops[program.output] {
            Op::Fractal { mode, terms, norm } => (
                &terms[..],
                Sum::Fractal {
                    mode: mode.code(),
                    norm: *norm,
                },
            ),
            Op::Noise { .. } => (&noise_alone[..], Sum::Noise),
            _ => return None,
        };
        let lanes = |r: Reg| bases[r].filter(|b| !matches!(b, LaneBase::Scalar));
        // Each octave: noise at the warped point `q` or at `q` scaled.
        let mut q = None;
        let mut octaves = Vec::with_capacity(terms.len());
        for &(n, amplitude) in terms {
            let Op::Noise { p, driven, .. } = &ops[n] else {
                return None;
            };
            if !driven.is_none() {
                return None;
            }
            let (at, scale) = match &ops[*p] {
                Op::Scale { p, by } => (*p, Some(*by)),
                _ => (*p, None),
            };
            if *q.get_or_insert(at) != at {
                return None;
            }
            octaves.push(Octave {
                scale,
                base: lanes(n)?,
                amplitude,
            });
        }
        let Op::Displace { p: 0, d, amplitude } = &ops[q?] else {
            return None;
        };
        // One vector noise read along every axis.
        let mut vector = None;
        for (axis, &r) in d.iter().enumerate().take(dims) {
            let Op::Axis { p, axis: a } = ops[r] else {
                return None;
            };
            if a != axis || *vector.get_or_insert(p) != p {
                return None;
            }
        }
        let v = vector?;
        let Op::Vector {
            p: shifted,
            source:
                VectorSource {
                    kind: NoiseKind::Value,
                    ..
                },
        } = ops[v]
        else {
            return None;
        };
        let warp_at = affine_of_sample(ops, shifted)?;
        (matches!(ops[0], Op::Point)).then_some(WarpedFractal {
            dims,
            warp_at,
            vector: lanes(v)?,
            amplitude: *amplitude,
            octaves,
            sum,
        })
    }
}

/// `r` as the sample point (register 0) scaled and shifted, if it is that.
fn affine_of_sample(ops: &[Op], r: Reg) -> Option<Affine> {
    let (r, shift) = match &ops[r] {
        Op::Offset { p, by } => (*p, Some(*by)),
        _ => (r, None),
    };
    let (r, scale) = match &ops[r] {
        // Times one, the clamped sample point is itself, NaN too: no scale.
        Op::Scale { p, by } => (*p, (*by != [1.0; 4]).then_some(*by)),
        _ => (r, None),
    };
    (r == 0).then_some(Affine { scale, shift })
}

/// `p` times `by` per coordinate (`Op::Scale`), the coordinates past `D` 0.
#[inline(always)]
fn scaled<const D: usize>(p: &[F; 4], by: &[f32; 4]) -> [F; 4] {
    point::<D>(|a| finite(p[a] * by[a]))
}

/// `p` plus `by` per coordinate (`Op::Offset`), the coordinates past `D` 0.
#[inline(always)]
fn shifted<const D: usize>(p: &[F; 4], by: &[f32; 4]) -> [F; 4] {
    point::<D>(|a| finite(p[a] + by[a]))
}

/// A point of `D` coordinates (`eval::set_point`): `f(a)` along axis `a`, 0 past them.
/// Written out: an array's `from_fn` closure stays a call without the copy's features.
#[inline(always)]
fn point<const D: usize>(f: impl Fn(usize) -> F) -> [F; 4] {
    let zero = F::splat(0.0);
    [
        f(0),
        f(1),
        if D > 2 { f(2) } else { zero },
        if D > 3 { f(3) } else { zero },
    ]
}

/// The working arrays of one segment: one entry per lane block.
struct Segment {
    /// The sample points.
    p: Vec<[F; 4]>,
    /// The warped points; first the points the warp's vector noise is sampled at.
    q: Vec<[F; 4]>,
    /// The warp's vectors.
    v: Vec<[F; 4]>,
    /// An octave's points.
    points: Vec<[F; 4]>,
    /// An octave's noise.
    noise: Vec<F>,
    /// The ridge weight carried to the next octave.
    weight: Vec<F>,
    /// The sum.
    total: Vec<F>,
}

impl Segment {
    fn new(blocks: usize) -> Segment {
        let points = vec![[F::splat(0.0); 4]; blocks];
        Segment {
            p: points.clone(),
            q: points.clone(),
            v: points.clone(),
            points,
            noise: vec![F::splat(0.0); blocks],
            weight: vec![F::splat(1.0); blocks],
            total: vec![F::splat(0.0); blocks],
        }
    }

    /// The first `n` sample points `p` warped, into `q`: `Op::Point`, the warp's `Op::Scale`
    /// and `Op::Offset`, `Op::Vector`, its `Op::Axis` per axis and `Op::Displace`, each
    /// clamped as `eval::step` does.
    #[inline(always)]
    fn warp<L: LaneHasher, N: LaneNoise<L>, const D: usize>(
        &mut self,
        lut: &L,
        w: &WarpedFractal,
        n: usize,
    ) {
        let (p, q, v) = (&mut self.p[..n], &mut self.q[..n], &mut self.v[..n]);
        for (q, p) in q.iter_mut().zip(p.iter_mut()) {
            *p = point::<D>(|a| finite(p[a]));
            let mut at = *p;
            if let Some(by) = &w.warp_at.scale {
                at = scaled::<D>(&at, by);
            }
            if let Some(by) = &w.warp_at.shift {
                at = shifted::<D>(&at, by);
            }
            *q = at;
            block_done(q);
        }
        N::vector(lut, w.vector, q, v);
        for ((q, p), v) in q.iter_mut().zip(p.iter()).zip(v.iter()) {
            let v = point::<D>(|a| finite(v[a]));
            *q = point::<D>(|a| finite(p[a] + v[a] * w.amplitude));
            block_done(q);
        }
    }

    /// The fractal (or the noise) at the first `n` warped points `q`, into `total`:
    /// `Op::Fractal` of the octaves' `Op::Noise` (or the one `Op::Noise`).
    #[inline(always)]
    fn fractal<L: LaneHasher, N: LaneNoise<L>, const D: usize>(
        &mut self,
        lut: &L,
        w: &WarpedFractal,
        n: usize,
    ) {
        let (q, points, noise) = (&self.q[..n], &mut self.points[..n], &mut self.noise[..n]);
        let (weight, total) = (&mut self.weight[..n], &mut self.total[..n]);
        let Sum::Fractal { mode, norm } = w.sum else {
            let octave = &w.octaves[0];
            N::eval(lut, octave.base, octave_points::<D>(octave, q, points), total);
            return;
        };
        for (total, weight) in total.iter_mut().zip(weight.iter_mut()) {
            *total = F::splat(0.0);
            *weight = F::splat(1.0);
            block_done(weight);
        }
        for octave in &w.octaves {
            N::eval(lut, octave.base, octave_points::<D>(octave, q, points), noise);
            let terms = noise.iter().zip(weight.iter_mut());
            for (total, (&n, weight)) in total.iter_mut().zip(terms) {
                let shaped = shape_octave(mode, n, weight);
                *total = *total + finite(octave.amplitude * shaped);
                block_done(total);
            }
        }
        for total in total {
            *total = finite(*total / norm);
            block_done(total);
        }
    }
}

/// The points `octave`'s noise is sampled at: the warped points `q`, scaled into `points`
/// where the octave has a scale.
#[inline(always)]
fn octave_points<'a, const D: usize>(
    octave: &Octave,
    q: &'a [[F; 4]],
    points: &'a mut [[F; 4]],
) -> &'a [[F; 4]] {
    let Some(by) = &octave.scale else {
        return q;
    };
    for (point, q) in points.iter_mut().zip(q) {
        *point = scaled::<D>(q, by);
        block_done(point);
    }
    points
}

/// The rows `first_row..` (as many as `out` holds) of the slab `params` of the program `w`
/// is the form of.
#[inline(always)]
pub(super) fn fill_rows<L: LaneHasher, N: LaneNoise<L>>(
    lut: &L,
    w: &WarpedFractal,
    params: &FillParams,
    first_row: usize,
    out: &mut [f32],
) {
    match w.dims {
        2 => rows::<L, N, 2>(lut, w, params, first_row, out),
        3 => rows::<L, N, 3>(lut, w, params, first_row, out),
        _ => rows::<L, N, 4>(lut, w, params, first_row, out),
    }
}

/// [`fill_rows`] of a `D`-dimensional program.
#[inline(always)]
fn rows<L: LaneHasher, N: LaneNoise<L>, const D: usize>(
    lut: &L,
    w: &WarpedFractal,
    params: &FillParams,
    first_row: usize,
    out: &mut [f32],
) {
    let nx = params.extent[0] as usize;
    let mut segment = Segment::new(nx.div_ceil(LANES).min(SEGMENT_BLOCKS));
    for (r, values) in out.chunks_mut(nx).enumerate() {
        let row = row_point(params, first_row + r);
        for (s, values) in values.chunks_mut(SEGMENT_BLOCKS * LANES).enumerate() {
            let n = values.len().div_ceil(LANES);
            for (chunk, p) in segment.p[..n].iter_mut().enumerate() {
                let x = lane_x(params, s * SEGMENT_BLOCKS + chunk);
                *p = [x, F::splat(row[1]), F::splat(row[2]), F::splat(row[3])];
                block_done(p);
            }
            segment.warp::<L, N, D>(lut, w, n);
            segment.fractal::<L, N, D>(lut, w, n);
            for (values, v) in values.chunks_mut(LANES).zip(&segment.total) {
                v.store(values);
            }
        }
    }
}
