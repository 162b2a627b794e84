//! Noise graphs on lanes: [`crate::graph::eval::value`] in `f32` on 16 samples at a time,
//! bit for bit, on all cores.
//!
//! A block of 16 samples (along x in a row) walks the program's operations once with
//! `eval`'s one operation loop, the lanes `F` as its [`Number`], as FastNoise2 runs its
//! node tree over a block. Sums and products are lane arithmetic in the scalar order of
//! operations; the operations with a branch per sample call the scalar `f32` functions per
//! lane; each noise source calls its out-of-line lane function ([`bases`](super::bases)).
//! A source whose lane code is slower than the scalar search (4D cellular noise with the
//! texture tables) evaluates the scalar `f32` base function per lane, the same values by
//! definition. A graph's gradient runs the same loop on dual lanes (`super::derivatives`).

use super::bases::{LaneBase, LaneNoise};
use super::lanes::{F, LANES, U};
use super::lookup::LaneHasher;
use super::warped::WarpedFractal;
use super::{lane_x, row_point, run_row_blocks, shape_octave, FillOptions, SimdLevel};
use crate::cpu::combine::{wgpu_noise_blend, WGPU_NOISE_FINITE};
use crate::cpu::lookup::NoiseHasher;
use crate::cpu::lookup::{with_lookup, CpuLookup};
use crate::field::FractalMode;
use crate::graph::eval::{self, SourceValues, Number};
use crate::graph::program::{Op, Program, Source, VectorSource};
use crate::graph::spec::{Binary, Ease, Map};
use crate::params::FillParams;
use crate::shader::LookupVariant;

/// Fills `out` (x fastest) with `program`'s values at the texels of `params`: the values of
/// [`crate::graph::eval::fill_slab`] bit for bit, on all cores with the best instruction set.
pub fn fill_graph_slab(program: &Program, lut: &CpuLookup, params: &FillParams, out: &mut [f32]) {
    fill_graph_slab_with(program, lut, params, out, FillOptions::default());
}

/// [`fill_graph_slab`] with explicit threads and instruction set; not generic (the lookup
/// variant is picked here, once; see [`super::fill_slab_with`]).
///
/// # Panics
/// If `out` is not the slab's length or `options.level` is not available on this CPU
/// (programming errors).
pub fn fill_graph_slab_with(
    program: &Program,
    lut: &CpuLookup,
    params: &FillParams,
    out: &mut [f32],
    options: FillOptions,
) {
    assert_eq!(out.len(), params.len(), "output length must match the slab");
    assert!(
        SimdLevel::available().contains(&options.level),
        "{} is not available on this CPU",
        options.level.name()
    );
    if !super::LANE_CODE {
        with_lookup!(lut, |lut| crate::graph::eval::fill_slab(
            program, lut, params, out
        ));
        return;
    }
    let job = GraphJob::new(program, params, lut.variant());
    match lut {
        CpuLookup::Tables(t) => match t.packed() {
            Some(packed) => run(&packed, &job, out, options),
            // Gradients the lanes cannot decode: the scalar evaluator reads them as they are.
            None => crate::graph::eval::fill_slab(program, t.tables(), params, out),
        },
        CpuLookup::Hash(h) => run(h, &job, out, options),
    }
}

/// Whether every noise operation of `program` has lane code with `lookup` (otherwise the
/// SIMD graph fill evaluates those operations with the scalar function per lane).
pub fn graph_has_lanes(program: &Program, lookup: LookupVariant) -> bool {
    super::LANE_CODE
        && !program
            .ops
            .iter()
            .any(|op| match op {
                Op::Feature { .. } => true,
                Op::Noise { driven, .. } => !driven.is_none(),
                _ => false,
            })
        && GraphJob::bases(program, lookup)
            .flatten()
            .all(|b| !matches!(b, LaneBase::Scalar))
}

/// Whether the SIMD graph fill runs `program` with `lookup` on the warped fractal's segment
/// kernel (`super::warped`) rather than its operation loop.
pub fn graph_has_warped_kernel(program: &Program, lookup: LookupVariant) -> bool {
    let bases: Vec<_> = GraphJob::bases(program, lookup).collect();
    super::LANE_CODE && WarpedFractal::of(program, &bases).is_some()
}

/// One fill: the program, the lane function of each noise operation, the slab.
struct GraphJob<'a> {
    program: &'a Program,
    /// Per operation: its lane function where it is a noise operation.
    bases: Vec<Option<LaneBase>>,
    /// The program as the warped fractal's segment kernel takes it, if it has that shape.
    warped: Option<WarpedFractal>,
    params: &'a FillParams,
}

impl<'a> GraphJob<'a> {
    fn new(program: &'a Program, params: &'a FillParams, lookup: LookupVariant) -> Self {
        let bases: Vec<_> = Self::bases(program, lookup).collect();
        GraphJob {
            program,
            warped: WarpedFractal::of(program, &bases),
            bases,
            params,
        }
    }

    /// Per operation of `program`: its lane function where it is a noise operation.
    fn bases(
        program: &Program,
        lookup: LookupVariant,
    ) -> impl Iterator<Item = Option<LaneBase>> + '_ {
        let dims = &program.point_dims;
        program.ops.iter().zip(dims).map(move |(op, &dims)| match op {
            Op::Noise { source, .. } => Some(LaneBase::of(source, dims, lookup)),
            Op::Vector { source, .. } => Some(LaneBase::vector(source, dims)),
            _ => None,
        })
    }
}

/// Fills `out` in blocks of rows on the option's threads with its instruction set's copy.
fn run<L: LaneHasher + Sync>(lut: &L, job: &GraphJob, out: &mut [f32], options: FillOptions) {
    let e = job.params.extent;
    let rows = (e[1] * e[2] * e[3]) as usize;
    run_row_blocks(
        e[0] as usize,
        rows,
        out,
        options.threads,
        |first_row, block| {
            // SAFETY: `fill_graph_source` accepts only levels `SimdLevel::available`
            // detected on this CPU, so the instructions each copy is compiled with exist.
            unsafe { on_level!(options.level, level => level::rows(lut, job, first_row, block)) }
        },
    );
}

/// The scalar `f32` base function of `source` on each lane (sources without lane code).
/// Out of line and compiled once per lookup: it is the scalar code, not lane code.
#[inline(never)]
fn scalar_noise<L: NoiseHasher>(lut: &L, source: &Source, dims: usize, p: &[F; 4]) -> F {
    F(std::array::from_fn(|i| {
        let q = [p[0].0[i], p[1].0[i], p[2].0[i], p[3].0[i]];
        eval::noise(lut, source, &q[..dims])
    }))
}

/// The scalar `f32` base function of `source` with each lane's values of its driven
/// parameters on each lane (a cellular source whose jitter or exponent is driven). Out of
/// line, as [`scalar_noise`].
#[inline(never)]
fn driven_noise<L: NoiseHasher>(
    lut: &L,
    source: &Source,
    dims: usize,
    p: &[F; 4],
    values: SourceValues<F>,
) -> F {
    F(std::array::from_fn(|i| {
        let q = [p[0].0[i], p[1].0[i], p[2].0[i], p[3].0[i]];
        let source = eval::with_values(source, values.map(|v| v.0[i]));
        eval::noise(lut, &source, &q[..dims])
    }))
}

/// `wgpu_noise_finite` on lanes.
#[inline(always)]
pub(super) fn finite(v: F) -> F {
    let limit = WGPU_NOISE_FINITE as f32;
    v.clamp(-limit, limit)
}

/// `f(lane)` on every lane.
#[inline(always)]
fn per_lane(f: impl Fn(usize) -> f32) -> F {
    F(std::array::from_fn(f))
}

/// `wgpu_noise_smooth_min` per lane, in its order of operations.
#[inline(always)]
fn smooth_min(a: F, b: F, k: f32) -> F {
    let k = F::splat(k);
    let h = (F::splat(0.5) + F::splat(0.5) * (b - a) / k).clamp(0.0, 1.0);
    b + (a - b) * h - k * h * (F::splat(1.0) - h)
}

/// `wgpu_noise_blend_weight` per lane: `t` from [-1, 1] to [0, 1], clamped.
#[inline(always)]
fn blend_weight(t: F) -> F {
    (t * 0.5 + 0.5).clamp(0.0, 1.0)
}

/// `wgpu_noise_tiny` per lane: `|b|` below f32's smallest normal number.
#[inline(always)]
fn tiny(b: F) -> U {
    b.abs().lt(F::splat(f32::MIN_POSITIVE))
}

/// 16 samples: sums and products are lane arithmetic in the scalar order of operations;
/// the operations with a branch per sample call the scalar `f32` function per lane.
impl Number for F {
    #[inline(always)]
    fn constant(v: f32) -> F {
        F::splat(v)
    }
    #[inline(always)]
    fn finite(self) -> F {
        finite(self)
    }
    #[inline(always)]
    fn abs_slope(self) -> F {
        self.lt(F::splat(0.0))
            .select_f(F::splat(-1.0), F::splat(1.0))
    }
    #[inline(always)]
    fn octave_term(amplitude: F, shaped: F) -> F {
        finite(amplitude * shaped)
    }
    #[inline(always)]
    fn shape_octave(mode: FractalMode, n: F, weight: &mut F) -> F {
        shape_octave(mode.code(), n, weight)
    }
    #[inline(always)]
    fn ridged_slope(v: F, dv: F, w: F, dw: F) -> F {
        // `wgpu_noise_ridged_slope`: the products clamped, then the sum.
        let ridge = 1.0 - v.abs();
        let square = finite(ridge * ridge);
        finite(finite(2.0 * ridge * (-v.abs_slope() * dv)) * w + square * dw)
    }
    #[inline(always)]
    fn ridge_weight_slope(shaped: F, d: F) -> F {
        let r2 = shaped * 2.0;
        let inside = r2.gt(F::splat(0.0)) & r2.lt(F::splat(1.0));
        inside.select_f(2.0 * d, F::splat(0.0))
    }
    #[inline(always)]
    fn apply_binary(op: Binary, a: F, b: F) -> F {
        match op {
            Binary::Add => a + b,
            Binary::Subtract => a - b,
            Binary::Multiply => a * b,
            // `cpu::combine`'s functions with their branches as selects: the same f32
            // operations, so the same bits, on vectors.
            Binary::Divide => tiny(b).select_f(F::splat(0.0), a / b),
            Binary::Modulus => {
                let floored = (a / b).map(f32::floor);
                tiny(b).select_f(F::splat(0.0), a - b * floored)
            }
            Binary::Min => a.lt(b).select_f(a, b),
            Binary::Max => a.gt(b).select_f(a, b),
            Binary::SmoothMin(k) => smooth_min(a, b, k),
            Binary::SmoothMax(k) => -smooth_min(-a, -b, k),
            // A driven `pow`'s exponent: the scalar function per lane.
            Binary::Pow => per_lane(|i| f32::apply_binary(op, a.0[i], b.0[i])),
        }
    }
    #[inline(always)]
    fn binary_weights(op: Binary, a: F, b: F) -> [F; 2] {
        let one = F::splat(1.0);
        match op {
            Binary::Add => [one, one],
            Binary::Subtract => [one, -one],
            Binary::Multiply => [b, a],
            _ => {
                let w = |i: usize, k: usize| f32::binary_weights(op, a.0[i], b.0[i])[k];
                [per_lane(|i| w(i, 0)), per_lane(|i| w(i, 1))]
            }
        }
    }
    #[inline(always)]
    fn apply_blend(a: F, b: F, t: F) -> F {
        per_lane(|i| wgpu_noise_blend(a.0[i], b.0[i], t.0[i]))
    }
    #[inline(always)]
    fn blend_weights(a: F, b: F, t: F) -> [F; 2] {
        let w = |i: usize| f32::blend_weights(a.0[i], b.0[i], t.0[i]);
        [per_lane(|i| w(i)[0]), per_lane(|i| w(i)[1])]
    }
    #[inline(always)]
    fn apply_map(op: &Map, v: F) -> F {
        match *op {
            Map::Abs => v.abs(),
            // `f32::clamp`'s two comparisons, written out.
            Map::Clamp { min, max } => v.clamp(min, max),
            // `wgpu_noise_remap`'s operations in its order.
            Map::Remap { from, to } => {
                F::splat(to[0]) + (v - F::splat(from[0])) * F::splat(to[1] - to[0])
                    / F::splat(from[1] - from[0])
            }
            // `wgpu_noise_ping_pong`'s operations in its order.
            Map::PingPong { strength } => {
                let x = v * F::splat(strength);
                let y = x - F::splat(2.0) * (x * F::splat(0.5)).map(f32::floor);
                let tri = y.lt(F::splat(1.0)).select_f(y, F::splat(2.0) - y);
                tri * F::splat(2.0) - F::splat(1.0)
            }
            // `wgpu_noise_ease`'s operations in its order.
            Map::Ease(ease) => {
                let w = blend_weight(v);
                let e = match ease {
                    Ease::Hermite => w * w * (3.0 - 2.0 * w),
                    Ease::Quintic => w * w * w * (w * (w * 6.0 - 15.0) + 10.0),
                };
                e * 2.0 - 1.0
            }
            _ => v.map(|v| f32::apply_map(op, v)),
        }
    }
    #[inline(always)]
    fn map_slope(op: &Map, v: F) -> F {
        match *op {
            // A constant.
            Map::Remap { .. } => F::splat(f32::map_slope(op, 0.0)),
            // `wgpu_noise_ease_slope`'s operations in its order.
            Map::Ease(ease) => {
                let w = blend_weight(v);
                match ease {
                    Ease::Hermite => 6.0 * w * (1.0 - w),
                    Ease::Quintic => {
                        let s = w - 1.0;
                        30.0 * w * w * s * s
                    }
                }
            }
            _ => v.map(|v| f32::map_slope(op, v)),
        }
    }
}

/// The rows `first_row..` (as many as `out` holds) of the job's slab, 16 samples at a time.
#[inline(always)]
fn fill_rows<L: LaneHasher, N: LaneNoise<L>>(
    lut: &L,
    job: &GraphJob,
    first_row: usize,
    out: &mut [f32],
) {
    let params = job.params;
    if let Some(warped) = &job.warped {
        return super::warped::fill_rows::<L, N>(lut, warped, params, first_row, out);
    }
    let nx = params.extent[0] as usize;
    let mut regs: Vec<[F; 4]> = Vec::with_capacity(job.program.ops.len());
    for (r, values) in out.chunks_mut(nx).enumerate() {
        let p = row_point(params, first_row + r);
        for (chunk, values) in values.chunks_mut(LANES).enumerate() {
            let px = lane_x(params, chunk);
            let p = [px, F::splat(p[1]), F::splat(p[2]), F::splat(p[3])];
            let v = block::<L, N>(lut, job, &p, &mut regs);
            v.store(values);
        }
    }
}

/// The lane functions of a job's noise operations, the [`eval::Bases`] of lanes.
struct LaneBases<'a, L, N> {
    lut: &'a L,
    job: &'a GraphJob<'a>,
    level: std::marker::PhantomData<N>,
}

impl<L: LaneHasher, N: LaneNoise<L>> eval::Bases<F> for LaneBases<'_, L, N> {
    #[inline(always)]
    fn noise(&mut self, op: usize, source: &Source, q: &[F; 4]) -> F {
        let base = self.job.bases[op].expect("every noise operation has its lane function");
        match base {
            LaneBase::Scalar => scalar_noise(self.lut, source, self.job.program.point_dims[op], q),
            _ => {
                let mut v = [F::splat(0.0)];
                N::eval(self.lut, base, std::slice::from_ref(q), &mut v);
                v[0]
            }
        }
    }
    #[inline(always)]
    fn driven(&mut self, op: usize, source: &Source, q: &[F; 4], values: SourceValues<F>) -> (F, [F; 3]) {
        let dims = self.job.program.point_dims[op];
        (driven_noise(self.lut, source, dims, q, values), [F::splat(0.0); 3])
    }
    #[inline(always)]
    fn vector(&mut self, op: usize, _source: &VectorSource, q: &[F; 4]) -> [F; 4] {
        let base = self.job.bases[op].expect("every vector operation has its lane function");
        let mut v = [[F::splat(0.0); 4]];
        N::vector(self.lut, base, std::slice::from_ref(q), &mut v);
        v[0]
    }
    #[inline(always)]
    fn feature(
        &mut self,
        op: usize,
        source: &Source,
        q: &[F; 4],
        values: SourceValues<F>,
    ) -> ([F; 4], [F; 4]) {
        let dims = self.job.program.point_dims[op];
        let zero = [F::splat(0.0); 4];
        (scalar_feature(self.lut, source, dims, q, values), zero)
    }
}

/// The scalar `f32` nearest feature of `source` on each lane (`eval::feature`): the lanes
/// take the scalar search per lane (a lookup is one search per sample; its lanes' search
/// would need the nearest feature's cell per lane, which theirs does not keep). Out of line.
#[inline(never)]
pub(super) fn scalar_feature<L: NoiseHasher>(
    lut: &L,
    source: &Source,
    dims: usize,
    p: &[F; 4],
    values: SourceValues<F>,
) -> [F; 4] {
    let mut out = [F::splat(0.0); 4];
    for i in 0..LANES {
        let q = [p[0].0[i], p[1].0[i], p[2].0[i], p[3].0[i]];
        let source = eval::with_values(source, values.map(|v| v.0[i]));
        let f = eval::feature(lut, &source, &q[..dims]);
        for (out, f) in out.iter_mut().zip(f) {
            out.0[i] = f;
        }
    }
    out
}

/// `eval::value` on lanes: every operation on the block's 16 samples.
#[inline(always)]
fn block<L: LaneHasher, N: LaneNoise<L>>(
    lut: &L,
    job: &GraphJob,
    sample: &[F; 4],
    regs: &mut Vec<[F; 4]>,
) -> F {
    let mut bases = LaneBases::<L, N> {
        lut,
        job,
        level: std::marker::PhantomData,
    };
    eval::run(job.program, sample, regs, &mut bases)
}

/// A module `$module` with the graph fill's rows compiled for one instruction set
/// (`#[target_feature]`): the operation loop is inlined into `rows`, which calls the
/// level's out-of-line noise functions ([`bases`](super::bases)).
macro_rules! graph_level {
    ($module:ident, $isa:ty $(, $features:literal)?) => {
        mod $module {
            use super::super::bases::$module::Level;
            use super::super::lookup::LaneHasher;
            use super::{fill_rows, GraphJob};

            /// `fill_rows` compiled with this level's features.
            ///
            /// # Safety
            /// The CPU must support those features.
            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            pub(in super::super) unsafe fn rows<L: LaneHasher>(
                lut: &L,
                job: &GraphJob,
                first_row: usize,
                out: &mut [f32],
            ) {
                fill_rows::<L, Level>(lut, job, first_row, out)
            }
        }
    };
}

level_copies!(graph_level);
