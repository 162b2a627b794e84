//! Noise graphs on lanes: [`crate::graph::eval::value`] in `f32` on 16 samples at a time,
//! bit for bit, on all cores.
//!
//! A block of 16 samples (along x in a row) walks the program's operations once, each
//! operation applied to whole lanes (a register is `[F; 4]`: a point, or a value in its
//! first lane array), as FastNoise2 runs its node tree over a block. Point operations and
//! sums are lane arithmetic in the scalar order of operations; the combine operations call
//! the scalar `f32` functions per lane; each noise source calls its out-of-line lane function
//! ([`bases`](super::bases)). A source whose
//! lane code is slower than the scalar search (4D cellular noise with the texture tables)
//! evaluates the scalar `f32` base function per lane, the same values by definition.

use super::bases::{LaneBase, LaneNoise};
use super::lanes::{F, LANES};
use super::lookup::LaneHasher;
use super::{lane_x, row_point, run_row_blocks, shape_octave, FillOptions, SimdLevel};
use crate::cpu::combine::{wgpu_noise_blend, wgpu_noise_finite, WGPU_NOISE_FINITE};
use crate::cpu::lookup::NoiseHasher;
use crate::cpu::lookup::{with_lookup, CpuLookup};
use crate::graph::eval;
use crate::graph::program::{Op, Program, Source};
use crate::graph::spec::Binary;
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
        && GraphJob::bases(program, lookup)
            .flatten()
            .all(|b| !matches!(b, LaneBase::Scalar))
}

/// One fill: the program, the lane function of each noise operation, the slab.
struct GraphJob<'a> {
    program: &'a Program,
    /// Per operation: its lane function where it is a noise operation.
    bases: Vec<Option<LaneBase>>,
    params: &'a FillParams,
}

impl<'a> GraphJob<'a> {
    fn new(program: &'a Program, params: &'a FillParams, lookup: LookupVariant) -> Self {
        GraphJob {
            program,
            bases: Self::bases(program, lookup).collect(),
            params,
        }
    }

    /// Per operation of `program`: its lane function where it is a noise operation.
    fn bases(
        program: &Program,
        lookup: LookupVariant,
    ) -> impl Iterator<Item = Option<LaneBase>> + '_ {
        program.ops.iter().map(move |op| match op {
            Op::Noise { source, .. } => Some(LaneBase::of(source, program.dims, lookup)),
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

/// A point register: `f(a)` clamped as `wgpu_noise_finite` per coordinate below `dims`, 0
/// past it (`point` of the scalar evaluator).
///
/// A loop, not `array::from_fn`: its closure stays an out-of-line call per axis, compiled
/// without the level's features, in the hottest loop of the generic fill.
#[inline(always)]
pub(super) fn point(dims: usize, f: impl Fn(usize) -> F) -> [F; 4] {
    let limit = WGPU_NOISE_FINITE as f32;
    let mut q = [F::splat(0.0); 4];
    for (a, q) in q.iter_mut().enumerate().take(dims) {
        *q = f(a).clamp(-limit, limit);
    }
    q
}

/// A value register (the value in the first lane array, as the scalar evaluator's).
#[inline(always)]
fn value(v: F) -> [F; 4] {
    [v, F::splat(0.0), F::splat(0.0), F::splat(0.0)]
}

/// `wgpu_noise_finite` on lanes.
#[inline(always)]
pub(super) fn finite(v: F) -> F {
    let limit = WGPU_NOISE_FINITE as f32;
    v.clamp(-limit, limit)
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

/// `eval::value` on lanes: every operation on the block's 16 samples.
#[inline(always)]
fn block<L: LaneHasher, N: LaneNoise<L>>(
    lut: &L,
    job: &GraphJob,
    sample: &[F; 4],
    regs: &mut Vec<[F; 4]>,
) -> F {
    let program = job.program;
    let dims = program.dims;
    regs.clear();
    for (op, base) in program.ops.iter().zip(&job.bases) {
        let v = match op {
            Op::Point => point(dims, |a| sample[a]),
            Op::Scale { p, by } => point(dims, |a| regs[*p][a] * by[a]),
            Op::Offset { p, by } => point(dims, |a| regs[*p][a] + by[a]),
            Op::Rotate { p, plane, cos, sin } => {
                let q = regs[*p];
                let (c, s) = (*cos, *sin);
                let [u, v] = *plane;
                point(dims, |a| {
                    if a == u {
                        c * q[u] - s * q[v]
                    } else if a == v {
                        s * q[u] + c * q[v]
                    } else {
                        q[a]
                    }
                })
            }
            Op::Displace { p, d, amplitude } => {
                point(dims, |a| regs[*p][a] + *amplitude * regs[d[a]][0])
            }
            Op::Noise { p, source } => {
                let base = base.expect("every noise operation has its lane function");
                value(match base {
                    LaneBase::Scalar => scalar_noise(lut, source, dims, &regs[*p]),
                    _ => {
                        let mut v = [F::splat(0.0)];
                        N::eval(lut, base, std::slice::from_ref(&regs[*p]), &mut v);
                        v[0]
                    }
                })
            }
            Op::Constant(c) => value(F::splat(*c)),
            Op::Axis { p, axis } => value(regs[*p][*axis]),
            Op::Fractal { mode, terms, norm } => {
                let mode = mode.code();
                let mut sum = F::splat(0.0);
                let mut weight = F::splat(1.0);
                for &(n, amplitude) in terms {
                    // `wgpu_noise_octave_term`: the term clamped.
                    sum = sum + finite(amplitude * shape_octave(mode, regs[n][0], &mut weight));
                }
                value(finite(sum / *norm))
            }
            Op::Binary { op, a, b } => {
                let (a, b) = (regs[*a][0], regs[*b][0]);
                value(finite(match op {
                    Binary::Add => a + b,
                    Binary::Subtract => a - b,
                    Binary::Multiply => a * b,
                    _ => a.zip(b, |a, b| eval::binary(*op, a, b)),
                }))
            }
            Op::Blend { a, b, t } => {
                let (a, b, t) = (regs[*a][0], regs[*b][0], regs[*t][0]);
                value(F(std::array::from_fn(|i| {
                    wgpu_noise_finite(wgpu_noise_blend(a.0[i], b.0[i], t.0[i]))
                })))
            }
            Op::Map { op, a } => value(finite(regs[*a][0].map(|v| eval::map(*op, v)))),
        };
        regs.push(v);
    }
    regs[program.output][0]
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
