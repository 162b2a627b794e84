//! Gradient and curl fields on lanes: [`crate::cpu::fill::fill_slab_gradient`] (fBm of
//! simplex or flow noise and its analytic gradient, `cpu::fractal::fbm_deriv`) and
//! [`crate::cpu::fill::fill_slab_curl`] (`cpu::curl`) on 16 samples at a time, bit for bit,
//! on all cores.
//!
//! A row's x runs along the lanes, as in the value fill. The noise and its gradient
//! (`noise::simplex2_deriv`, `simplex3_deriv`) is one out-of-line function per instruction
//! set and lookup, called once per octave (gradient fields) or potential (3D curl), so no
//! function holds more than one copy of the noise.
//!
//! A graph's gradient and curl ([`fill_graph_slab_output`]: [`crate::graph::eval`]'s dual
//! numbers, bit for bit) run every operation on lanes ([`super::dual`]). Its untiled 2D and
//! 3D simplex and flow sources take the same lane functions, its classic sources one of
//! their own (`noise::classic_point_deriv`, 2D to 4D, tiled or not); the others (cellular,
//! tiled simplex) the scalar gradient per lane.

use super::bases::LaneBase;
use super::graph::scalar_feature;
use super::lanes::{F, LANES};
use super::lookup::LaneHasher;
use super::noise::{Turn, VectorLattice};
use super::{
    fill_graph_slab_with, fill_slab_with, lane_x, row_point, run_row_blocks, FillOptions,
    SimdLevel, LANE_CODE,
};
use crate::cpu::cellular::CellParameter;
use crate::cpu::curl::CURL_SHIFTS;
use crate::cpu::lookup::{CpuLookup, NoiseHasher};
use crate::cpu::simplex::{SIMPLEX34_R2, SIMPLEX3_R05_SCALE};
use crate::field::{FieldOutput, NoiseKind};
use crate::graph::eval::{self, Dual};
use crate::graph::program::{Dims, Op, Program, Source, VectorSource};
use crate::params::{FillParams, KERNEL_CONTINUOUS};
use crate::shader::LookupVariant;

/// Fills `out` with `output` of a field without a graph at the texels of `params`, as the
/// scalar fills lay it out ([`FieldOutput::values_per_sample`] `f32`s per texel, x fastest):
/// [`super::fill_slab`]'s values, or the values and gradients of
/// [`crate::cpu::fill::fill_slab_gradient`], or the curl of
/// [`crate::cpu::fill::fill_slab_curl`], bit for bit, on all cores with the best instruction
/// set.
pub fn fill_slab_output(
    lut: &CpuLookup,
    kind: NoiseKind,
    dims: usize,
    params: &FillParams,
    output: FieldOutput,
    out: &mut [f32],
) {
    fill_slab_output_with(lut, kind, dims, params, output, out, FillOptions::default());
}

/// [`fill_slab_output`] with explicit threads and instruction set; not generic (the lookup
/// variant is picked here, once; see [`super::fill_slab_with`]).
///
/// # Panics
/// If `out` does not hold the slab's values, a gradient or curl field is not 2D or 3D, or
/// `options.level` is not available on this CPU (programming errors: bakes check the field
/// with [`FieldOutput::check`] first).
pub fn fill_slab_output_with(
    lut: &CpuLookup,
    kind: NoiseKind,
    dims: usize,
    params: &FillParams,
    output: FieldOutput,
    out: &mut [f32],
    options: FillOptions,
) {
    if output == FieldOutput::Value {
        return fill_slab_with(lut, kind, dims, params, out, options);
    }
    assert!(
        (2..=3).contains(&dims),
        "gradient and curl fields are 2D or 3D"
    );
    assert_call(params, output, dims, out, options.level);
    if !LANE_CODE {
        crate::cpu::lookup::with_lookup!(lut, |lut| scalar(lut, dims, params, output, out));
        return;
    }
    let job = DerivativesJob::new(dims, params, output, options.level);
    match lut {
        CpuLookup::Tables(t) => match t.packed() {
            Some(packed) => run(&packed, &job, out, options.threads),
            // Gradients the lanes cannot decode: the scalar reference reads them as they are.
            None => scalar(t.tables(), dims, params, output, out),
        },
        CpuLookup::Hash(h) => run(h, &job, out, options.threads),
    }
}

/// Fills `out` with `output` of `program` at the texels of `params` ([`FieldOutput::values_per_sample`]
/// `f32`s per texel, x fastest): the values of [`crate::graph::eval::fill_slab`], the gradients of
/// [`crate::graph::eval::fill_slab_gradient`] or the curl of [`crate::graph::eval::fill_slab_curl`], bit
/// for bit, on all cores with the best instruction set.
pub fn fill_graph_slab_output(
    program: &Program,
    lut: &CpuLookup,
    params: &FillParams,
    output: FieldOutput,
    out: &mut [f32],
) {
    fill_graph_slab_output_with(program, lut, params, output, out, FillOptions::default());
}

/// [`fill_graph_slab_output`] with explicit threads and instruction set.
///
/// # Panics
/// If `out` does not hold the slab's values, a curl is asked of a program that is not 2D
/// or 3D, or `options.level` is not available on this CPU (programming errors).
pub fn fill_graph_slab_output_with(
    program: &Program,
    lut: &CpuLookup,
    params: &FillParams,
    output: FieldOutput,
    out: &mut [f32],
    options: FillOptions,
) {
    if output == FieldOutput::Value {
        return fill_graph_slab_with(program, lut, params, out, options);
    }
    let dims = program.dims;
    assert!(
        output != FieldOutput::Curl || (2..=3).contains(&dims),
        "curl noise is 2D or 3D"
    );
    assert_call(params, output, dims, out, options.level);
    if !LANE_CODE {
        crate::cpu::lookup::with_lookup!(lut, |lut| graph_scalar(
            program, lut, params, output, out
        ));
        return;
    }
    let job = GraphDerivativesJob::new(program, params, output, lut.variant(), options.level);
    match lut {
        CpuLookup::Tables(t) => match t.packed() {
            Some(packed) => run_graph(&packed, &job, out, options.threads),
            // Gradients the lanes cannot decode: the scalar evaluator reads them as they are.
            None => graph_scalar(program, t.tables(), params, output, out),
        },
        CpuLookup::Hash(h) => run_graph(h, &job, out, options.threads),
    }
}

/// What the `…_output_with` fills assert of their call: `out` holds `output` of the slab
/// `params`, and the CPU has the instruction set `level`.
fn assert_call(
    params: &FillParams,
    output: FieldOutput,
    dims: usize,
    out: &[f32],
    level: SimdLevel,
) {
    assert_eq!(
        out.len(),
        params.len() * output.values_per_sample(dims),
        "output length must match the slab"
    );
    assert!(
        SimdLevel::available().contains(&level),
        "{} is not available on this CPU",
        level.name()
    );
}

/// The scalar evaluator's gradient or curl of a graph.
fn graph_scalar(
    program: &Program,
    lut: &impl NoiseHasher,
    params: &FillParams,
    output: FieldOutput,
    out: &mut [f32],
) {
    match output {
        FieldOutput::Gradient => crate::graph::eval::fill_slab_gradient(
            program,
            lut,
            params,
            bytemuck::cast_slice_mut(out),
        ),
        FieldOutput::Curl => crate::graph::eval::fill_slab_curl(program, lut, params, out),
        FieldOutput::Value => unreachable!("values are filled by `fill_graph_slab_with`"),
    }
}

/// The scalar fill of a gradient or curl field.
fn scalar(
    lut: &impl NoiseHasher,
    dims: usize,
    params: &FillParams,
    output: FieldOutput,
    out: &mut [f32],
) {
    match output {
        FieldOutput::Gradient => {
            crate::cpu::fill::fill_slab_gradient(lut, dims, params, bytemuck::cast_slice_mut(out))
        }
        FieldOutput::Curl => crate::cpu::fill::fill_slab_curl(lut, dims, params, out),
        FieldOutput::Value => unreachable!("values are filled by `fill_slab_with`"),
    }
}

/// One gradient or curl fill: the parameters and what is fixed for all its rows.
struct DerivativesJob<'a> {
    params: &'a FillParams,
    dims: usize,
    output: FieldOutput,
    /// Gradient fields: each octave's `[frequency, amplitude]` and the amplitudes' sum, in
    /// the scalar `fbm_deriv`'s order of operations.
    octaves: Vec<[f32; 2]>,
    norm: f32,
    /// Gradient fields: the turn of their flow noise (angle 0 too, as `fbm_deriv`), and the
    /// squared kernel radius and scale of 3D simplex noise.
    turn: Turn,
    r2: f32,
    scale: f32,
    level: SimdLevel,
}

impl<'a> DerivativesJob<'a> {
    fn new(dims: usize, params: &'a FillParams, output: FieldOutput, level: SimdLevel) -> Self {
        let s = &params.settings;
        let (mut amplitude, mut frequency, mut norm) = (1.0f32, 1.0f32, 0.0f32);
        let mut octaves = Vec::with_capacity(s.octaves as usize);
        for _ in 0..s.octaves {
            octaves.push([frequency, amplitude]);
            norm += amplitude;
            amplitude *= s.gain;
            frequency *= s.lacunarity;
        }
        let (r2, scale) = if s.kernel == KERNEL_CONTINUOUS {
            (0.5, SIMPLEX3_R05_SCALE as f32)
        } else {
            (SIMPLEX34_R2 as f32, 32.0)
        };
        DerivativesJob {
            params,
            dims,
            output,
            octaves,
            norm,
            turn: Turn::new(s.flow_angle),
            r2,
            scale,
            level,
        }
    }
}

/// Fills `out` with blocks of rows on `threads` threads (the calling thread is one of them).
fn run<L: LaneHasher>(lut: &L, job: &DerivativesJob, out: &mut [f32], threads: usize) {
    let e = job.params.extent;
    let row = e[0] as usize * job.output.values_per_sample(job.dims);
    let rows = (e[1] * e[2] * e[3]) as usize;
    run_row_blocks(row, rows, out, threads, |first_row, block| {
        // SAFETY: `fill_slab_output_with` accepts only levels `SimdLevel::available`
        // detected on this CPU, so the instructions each level's copies use exist.
        unsafe { on_level!(job.level, level => level::rows(lut, job, first_row, block)) }
    });
}

/// The lane function of a graph's noise operation whose gradient has one.
#[derive(Clone, Copy, Debug)]
enum LaneGradient {
    /// Classic noise in 2, 3 or 4 dimensions with the lattice period of each axis.
    Classic2([u32; 4]),
    Classic3([u32; 4]),
    Classic4([u32; 4]),
    /// Value noise in 2, 3 or 4 dimensions with the lattice period of each axis.
    Value2([u32; 4]),
    Value3([u32; 4]),
    Value4([u32; 4]),
    /// OpenSimplex2S ("SuperSimplex") noise in 2D, 3D and 4D.
    SuperSimplex2,
    SuperSimplex3,
    SuperSimplex4,
    /// Tileable 2D OpenSimplex2S with the x and y periods.
    SuperSimplex2Tiled([f32; 2]),
    /// Tileable 3D OpenSimplex2S with the lattice period of each axis.
    SuperSimplex3Tiled([u32; 3]),
    Simplex2(Option<Turn>),
    Simplex3 {
        r2: f32,
        scale: f32,
        turn: Option<Turn>,
    },
    /// Value noise of vectors in 2, 3 or 4 dimensions with the lattice period of each axis.
    Vector2([u32; 4]),
    Vector3([u32; 4]),
    Vector4([u32; 4]),
    /// OpenSimplex2S noise of vectors in 2, 3 and 4 dimensions.
    SuperSimplexVector2,
    SuperSimplexVector3,
    SuperSimplexVector4,
    /// Tileable 2D OpenSimplex2S noise of vectors with the x and y periods.
    SuperSimplexVector2Tiled([f32; 2]),
    /// Tileable 3D OpenSimplex2S noise of vectors with the lattice period of each axis.
    SuperSimplexVector3Tiled([u32; 3]),
    /// Simplex noise of vectors in 2, 3 and 4 dimensions on its lattice.
    SimplexVector2(VectorLattice),
    SimplexVector3(VectorLattice),
    SimplexVector4(VectorLattice),
}

/// One gradient or curl fill of a graph: the program, the lane function of each operation
/// (`None`: the scalar operation per lane), the slab.
struct GraphDerivativesJob<'a> {
    program: &'a Program,
    lanes: Vec<Option<LaneGradient>>,
    params: &'a FillParams,
    output: FieldOutput,
    level: SimdLevel,
}

impl<'a> GraphDerivativesJob<'a> {
    fn new(
        program: &'a Program,
        params: &'a FillParams,
        output: FieldOutput,
        lookup: LookupVariant,
        level: SimdLevel,
    ) -> Self {
        let lanes = program
            .ops
            .iter()
            .zip(&program.point_dims)
            .map(|(op, &dims)| match op {
                // A driven parameter: the scalar functions per lane, below.
                Op::Noise { driven, .. } if !driven.is_none() => None,
                Op::Noise { source, .. } => match LaneBase::of(source, dims, lookup) {
                    LaneBase::Classic2(lattice) => Some(LaneGradient::Classic2(lattice)),
                    LaneBase::Classic3(lattice) => Some(LaneGradient::Classic3(lattice)),
                    LaneBase::Classic4(lattice) => Some(LaneGradient::Classic4(lattice)),
                    LaneBase::Value2(lattice) => Some(LaneGradient::Value2(lattice)),
                    LaneBase::Value3(lattice) => Some(LaneGradient::Value3(lattice)),
                    LaneBase::Value4(lattice) => Some(LaneGradient::Value4(lattice)),
                    LaneBase::SuperSimplex2 => Some(LaneGradient::SuperSimplex2),
                    LaneBase::SuperSimplex3 => Some(LaneGradient::SuperSimplex3),
                    LaneBase::SuperSimplex4 => Some(LaneGradient::SuperSimplex4),
                    LaneBase::SuperSimplex2Tiled(period) => {
                        Some(LaneGradient::SuperSimplex2Tiled(period))
                    }
                    LaneBase::SuperSimplex3Tiled(period) => {
                        Some(LaneGradient::SuperSimplex3Tiled(period))
                    }
                    LaneBase::Simplex2(turn) => Some(LaneGradient::Simplex2(turn)),
                    LaneBase::Simplex3 { r2, scale, turn } => {
                        Some(LaneGradient::Simplex3 { r2, scale, turn })
                    }
                    _ => None,
                },
                Op::Vector { source, .. } => Some(match LaneBase::vector(source, dims) {
                    LaneBase::SuperSimplexVector2 => LaneGradient::SuperSimplexVector2,
                    LaneBase::SuperSimplexVector3 => LaneGradient::SuperSimplexVector3,
                    LaneBase::SuperSimplexVector4 => LaneGradient::SuperSimplexVector4,
                    LaneBase::SuperSimplexVector2Tiled(period) => {
                        LaneGradient::SuperSimplexVector2Tiled(period)
                    }
                    LaneBase::SuperSimplexVector3Tiled(period) => {
                        LaneGradient::SuperSimplexVector3Tiled(period)
                    }
                    LaneBase::SimplexVector2(l) => LaneGradient::SimplexVector2(l),
                    LaneBase::SimplexVector3(l) => LaneGradient::SimplexVector3(l),
                    LaneBase::SimplexVector4(l) => LaneGradient::SimplexVector4(l),
                    LaneBase::Vector2(lattice) => LaneGradient::Vector2(lattice),
                    LaneBase::Vector3(lattice) => LaneGradient::Vector3(lattice),
                    LaneBase::Vector4(lattice) => LaneGradient::Vector4(lattice),
                    base => unreachable!("{base:?} is not a vector noise"),
                }),
                _ => None,
            })
            .collect();
        GraphDerivativesJob {
            program,
            lanes,
            params,
            output,
            level,
        }
    }
}

/// [`run`] for a graph's gradient or curl.
fn run_graph<L: LaneHasher>(lut: &L, job: &GraphDerivativesJob, out: &mut [f32], threads: usize) {
    let e = job.params.extent;
    let row = e[0] as usize * job.output.values_per_sample(job.program.dims);
    let rows = (e[1] * e[2] * e[3]) as usize;
    run_row_blocks(row, rows, out, threads, |first_row, block| {
        // SAFETY: `fill_graph_slab_output_with` accepts only levels `SimdLevel::available`
        // detected on this CPU, so the instructions each level's copies use exist.
        unsafe { on_level!(job.level, level => level::graph_rows(lut, job, first_row, block)) }
    });
}

/// Fills rows `first_row..` (as many as `out` holds) of a graph's gradient or curl.
#[inline(always)]
fn fill_graph_rows<L: LaneHasher, N: LaneDerivatives<L>>(
    lut: &L,
    job: &GraphDerivativesJob,
    first_row: usize,
    out: &mut [f32],
) {
    let params = job.params;
    let nx = params.extent[0] as usize;
    let dims = job.program.dims;
    let per_sample = job.output.values_per_sample(dims);
    let zero = F::splat(0.0);
    let mut regs = vec![[Dual { v: zero, d: [zero; 4] }; 4]; job.program.ops.len()];
    for (r, values) in out.chunks_mut(nx * per_sample).enumerate() {
        let p = row_point(params, first_row + r);
        for (chunk, values) in values.chunks_mut(LANES * per_sample).enumerate() {
            let points = [
                lane_x(params, chunk),
                F::splat(p[1]),
                F::splat(p[2]),
                F::splat(p[3]),
            ];
            let v: [F; 4] = match job.output {
                FieldOutput::Gradient => {
                    let g = graph_gradient::<L, N>(lut, job, &points, &mut regs);
                    [g[0], g[1], g[2], g[3]]
                }
                _ if dims == 2 => curl2_of(&graph_gradient::<L, N>(lut, job, &points, &mut regs)),
                _ => {
                    // A loop, not `map`: a closure can stay a call compiled without the
                    // level's features.
                    let mut potentials = [[zero; 5]; 3];
                    for (potential, s) in potentials.iter_mut().zip(CURL_SHIFTS) {
                        let shifted = curl_shifted(&points, s);
                        *potential = graph_gradient::<L, N>(lut, job, &shifted, &mut regs);
                    }
                    let [a, b, c] = potentials;
                    curl3_of(&a, &b, &c)
                }
            };
            for (i, texel) in values.chunks_exact_mut(per_sample).enumerate() {
                for (c, value) in texel.iter_mut().enumerate() {
                    *value = v[c].0[i];
                }
            }
        }
    }
}

/// [`eval::value_and_gradient`] at the lanes' points `points`: `[value, ∂/∂x, ∂/∂y, ∂/∂z,
/// ∂/∂w]`. Every operation is [`eval::step`] on dual lanes; a noise operation with a lane
/// function calls it, the others the scalar gradient per lane. `regs` is scratch space, a
/// register per operation, each written in place (a register is 1280 bytes).
#[inline(always)]
fn graph_gradient<L: LaneHasher, N: LaneDerivatives<L>>(
    lut: &L,
    job: &GraphDerivativesJob,
    points: &[F; 4],
    regs: &mut [[Dual<F>; 4]],
) -> [F; 5] {
    let program = job.program;
    let zero = F::splat(0.0);
    let p: [Dual<F>; 4] = std::array::from_fn(|a| Dual::coordinate(a, points[a]));
    // A noise operation's `[value, ∂/∂q₀, …]` in `noise[0]`, a vector operation's per
    // component.
    let mut noise = [[zero; 5]; 4];
    for (k, (op, lane)) in program.ops.iter().zip(&job.lanes).enumerate() {
        let dims = program.dims_at(k);
        if let Op::Feature {
            p: at,
            source,
            driven,
        } = op
        {
            // The scalar search per lane; its position in `noise[a][0]`, how it moves with a
            // driven jitter in `noise[a][1]`.
            let q = regs[*at].map(|q| q.v);
            let values = eval::source_values(driven, regs).0;
            let f = scalar_feature(lut, source, dims.point, &q, values);
            for (noise, f) in noise.iter_mut().zip(f) {
                noise[0] = f;
            }
            if values.jitter.is_some() {
                for i in 0..LANES {
                    let point = [q[0].0[i], q[1].0[i], q[2].0[i], q[3].0[i]];
                    let source = eval::with_values(source, values.map(|v| v.0[i]));
                    let moves = eval::feature_jitter_slope(lut, &source, &point[..dims.point]);
                    for (noise, m) in noise.iter_mut().zip(moves) {
                        noise[1].0[i] = m;
                    }
                }
            }
        } else if let (Op::Vector { p: at, .. }, Some(lane)) = (op, lane) {
            let q = regs[*at].map(|q| q.v);
            noise = match *lane {
                LaneGradient::Vector2(lattice) => N::vector::<2>(lut, &q, &lattice),
                LaneGradient::Vector3(lattice) => N::vector::<3>(lut, &q, &lattice),
                LaneGradient::Vector4(lattice) => N::vector::<4>(lut, &q, &lattice),
                LaneGradient::SuperSimplexVector2 => N::supersimplex_vector::<2>(lut, &q),
                LaneGradient::SuperSimplexVector3 => N::supersimplex_vector::<3>(lut, &q),
                LaneGradient::SuperSimplexVector4 => N::supersimplex_vector::<4>(lut, &q),
                LaneGradient::SuperSimplexVector2Tiled(period) => {
                    N::supersimplex_vector2_tiled(lut, &q, period)
                }
                LaneGradient::SuperSimplexVector3Tiled(period) => {
                    N::supersimplex_vector3_tiled(lut, &q, period)
                }
                LaneGradient::SimplexVector2(l) => N::simplex_vector::<2>(lut, &q, l),
                LaneGradient::SimplexVector3(l) => N::simplex_vector::<3>(lut, &q, l),
                LaneGradient::SimplexVector4(l) => N::simplex_vector::<4>(lut, &q, l),
                _ => unreachable!("a vector operation has a vector noise"),
            };
        } else {
            // `base_noise_deriv`'s padding: components past `dims` 0.
            noise[0] = match (op, lane) {
                (Op::Noise { p, .. }, Some(lane)) => {
                    let q = regs[*p].map(|q| q.v);
                    match *lane {
                        LaneGradient::Classic2(lattice) => N::classic::<2>(lut, &q, &lattice),
                        LaneGradient::Classic3(lattice) => N::classic::<3>(lut, &q, &lattice),
                        LaneGradient::Classic4(lattice) => N::classic::<4>(lut, &q, &lattice),
                        LaneGradient::Value2(lattice) => N::value::<2>(lut, &q, &lattice),
                        LaneGradient::Value3(lattice) => N::value::<3>(lut, &q, &lattice),
                        LaneGradient::Value4(lattice) => N::value::<4>(lut, &q, &lattice),
                        LaneGradient::SuperSimplex2 => {
                            let d = N::supersimplex2(lut, &q);
                            [d[0], d[1], d[2], zero, zero]
                        }
                        LaneGradient::SuperSimplex3 => {
                            let d = N::supersimplex3(lut, &q);
                            [d[0], d[1], d[2], d[3], zero]
                        }
                        LaneGradient::SuperSimplex4 => N::supersimplex4(lut, &q),
                        LaneGradient::SuperSimplex2Tiled(period) => {
                            N::supersimplex2_tiled(lut, &q, period)
                        }
                        LaneGradient::SuperSimplex3Tiled(period) => {
                            let d = N::supersimplex3_tiled(lut, &q, period);
                            [d[0], d[1], d[2], d[3], zero]
                        }
                        LaneGradient::Simplex2(turn) => {
                            let d = N::simplex2(lut, q[0], q[1], turn);
                            [d[0], d[1], d[2], zero, zero]
                        }
                        LaneGradient::Simplex3 { r2, scale, turn } => {
                            let d = N::simplex3(lut, [q[0], q[1], q[2]], r2, scale, turn);
                            [d[0], d[1], d[2], d[3], zero]
                        }
                        LaneGradient::Vector2(_)
                        | LaneGradient::Vector3(_)
                        | LaneGradient::Vector4(_)
                        | LaneGradient::SuperSimplexVector2
                        | LaneGradient::SuperSimplexVector3
                        | LaneGradient::SuperSimplexVector4
                        | LaneGradient::SuperSimplexVector2Tiled(_)
                        | LaneGradient::SuperSimplexVector3Tiled(_)
                        | LaneGradient::SimplexVector2(_)
                        | LaneGradient::SimplexVector3(_)
                        | LaneGradient::SimplexVector4(_) => {
                            unreachable!("a noise operation is no vector")
                        }
                    }
                }
                (Op::Noise { p, source, driven }, None) => {
                    let q = regs[*p].map(|q| q.v);
                    // Driven parameters: each lane's values (`eval::step`'s), the slopes
                    // along the jitter, the exponent and the angle in `noise[1][0..3]`.
                    let values = eval::source_values(driven, regs).0;
                    let mut d = [zero; 5];
                    for i in 0..LANES {
                        let point = [q[0].0[i], q[1].0[i], q[2].0[i], q[3].0[i]];
                        let point = &point[..dims.point];
                        let source = eval::with_values(source, values.map(|v| v.0[i]));
                        let lane = eval::noise_deriv(lut, &source, point);
                        for (d, lane) in d.iter_mut().zip(lane) {
                            d.0[i] = lane;
                        }
                        let drivers = [
                            (values.jitter.is_some(), CellParameter::Jitter),
                            (values.exponent.is_some(), CellParameter::Exponent),
                        ];
                        for (slope, (driven, parameter)) in noise[1].iter_mut().zip(drivers) {
                            if driven {
                                slope.0[i] = eval::parameter_slope(lut, &source, point, parameter);
                            }
                        }
                        if values.angle.is_some() {
                            noise[1][2].0[i] = eval::angle_slope(lut, &source, point);
                        }
                    }
                    d
                }
                _ => [zero; 5],
            };
        }
        let (done, next) = regs.split_at_mut(k);
        N::step(dims, (k, op), &p, done, &noise, &mut next[0]);
    }
    let out = regs[program.output][0];
    [out.v, out.d[0], out.d[1], out.d[2], out.d[3]]
}

/// The base functions of one operation, computed before [`eval::step`] runs it: a noise
/// operation's in `[0]`, a vector operation's per component.
struct Computed<'a>(&'a [[F; 5]; 4]);

impl eval::Bases<Dual<F>> for Computed<'_> {
    #[inline(always)]
    fn noise(&mut self, _op: usize, _source: &Source, _q: &[Dual<F>; 4]) -> [F; 5] {
        self.0[0]
    }
    #[inline(always)]
    fn driven(
        &mut self,
        _op: usize,
        _source: &Source,
        _q: &[Dual<F>; 4],
        _values: eval::SourceValues<F>,
    ) -> ([F; 5], [F; 3]) {
        (self.0[0], [self.0[1][0], self.0[1][1], self.0[1][2]])
    }
    #[inline(always)]
    fn vector(&mut self, _op: usize, _source: &VectorSource, _q: &[Dual<F>; 4]) -> [[F; 5]; 4] {
        *self.0
    }
    #[inline(always)]
    fn feature(
        &mut self,
        _op: usize,
        _source: &Source,
        _q: &[Dual<F>; 4],
        _values: eval::SourceValues<F>,
    ) -> ([F; 4], [F; 4]) {
        let column = |k: usize| [self.0[0][k], self.0[1][k], self.0[2][k], self.0[3][k]];
        (column(0), column(1))
    }
}

/// The lane functions of gradient and curl fields, compiled for one instruction set: the
/// noise gradients and a graph's dual operations.
trait LaneDerivatives<L> {
    /// [`eval::step`] on dual lanes: one operation of a graph's gradient, into `out`, a
    /// noise operation's base function `noise[0]`, a vector operation's `noise`.
    fn step(
        dims: Dims,
        op: (usize, &Op),
        p: &[Dual<F>; 4],
        regs: &[[Dual<F>; 4]],
        noise: &[[F; 5]; 4],
        out: &mut [Dual<F>; 4],
    );
    /// `classic2/3/4_periodic_deriv` at the lane points `p` (their first `D` coordinates)
    /// with the lattice period `period` of each axis: `[value, ∂/∂x, …]`, 0 past `D`.
    fn classic<const D: usize>(lut: &L, p: &[F; 4], period: &[u32; 4]) -> [F; 5];
    /// `value2/3/4_periodic_deriv`, as [`LaneDerivatives::classic`].
    fn value<const D: usize>(lut: &L, p: &[F; 4], period: &[u32; 4]) -> [F; 5];
    /// `value_vector_deriv`: each component's `[value, ∂/∂x, …]`, as [`LaneDerivatives::classic`].
    fn vector<const D: usize>(lut: &L, p: &[F; 4], period: &[u32; 4]) -> [[F; 5]; 4];
    /// `supersimplex_vector_deriv` at the lane points `p` (their first `D` coordinates, 2
    /// to 4), as [`LaneDerivatives::vector`].
    fn supersimplex_vector<const D: usize>(lut: &L, p: &[F; 4]) -> [[F; 5]; 4];
    /// `supersimplex_vector_deriv2_tiled` at the lane points `p` (their first two
    /// coordinates) with `period`, as [`LaneDerivatives::vector`].
    fn supersimplex_vector2_tiled(lut: &L, p: &[F; 4], period: [f32; 2]) -> [[F; 5]; 4];
    /// `supersimplex_vector_deriv3_tiled` at the lane points `p` (their first three
    /// coordinates) with the lattice period `period` of each axis, as
    /// [`LaneDerivatives::vector`].
    fn supersimplex_vector3_tiled(lut: &L, p: &[F; 4], period: [u32; 3]) -> [[F; 5]; 4];
    /// `simplex_vector_deriv` at the lane points `p` (their first `D` coordinates, 2 to 4)
    /// on `lattice`, as [`LaneDerivatives::vector`].
    fn simplex_vector<const D: usize>(lut: &L, p: &[F; 4], lattice: VectorLattice) -> [[F; 5]; 4];
    /// `supersimplex2_deriv` at the lane points `p` (their first two coordinates).
    fn supersimplex2(lut: &L, p: &[F; 4]) -> [F; 3];
    /// `supersimplex3_deriv` at the lane points `p` (their first three coordinates).
    fn supersimplex3(lut: &L, p: &[F; 4]) -> [F; 4];
    /// `supersimplex4_deriv` at the lane points `p`.
    fn supersimplex4(lut: &L, p: &[F; 4]) -> [F; 5];
    /// `supersimplex2_tiled_deriv` at the lane points `p` (their first two coordinates)
    /// with `period`, padded to `[value, ∂/∂x, ∂/∂y, 0, 0]`.
    fn supersimplex2_tiled(lut: &L, p: &[F; 4], period: [f32; 2]) -> [F; 5];
    /// `supersimplex3_tiled_deriv` at the lane points `p` (their first three coordinates)
    /// with the lattice period `period` of each axis.
    fn supersimplex3_tiled(lut: &L, p: &[F; 4], period: [u32; 3]) -> [F; 4];
    /// `simplex2_deriv`, or with `turn` `flow2_deriv`.
    fn simplex2(lut: &L, x: F, y: F, turn: Option<Turn>) -> [F; 3];
    /// `simplex3_deriv`, or with `turn` `flow3_deriv`.
    fn simplex3(lut: &L, p: [F; 3], r2: f32, scale: f32, turn: Option<Turn>) -> [F; 4];
}

/// Fills rows `first_row..` (as many as `out` holds) of the job's slab.
#[inline(always)]
fn fill_rows<L: LaneHasher, N: LaneDerivatives<L>>(
    lut: &L,
    job: &DerivativesJob,
    first_row: usize,
    out: &mut [f32],
) {
    let params = job.params;
    let nx = params.extent[0] as usize;
    let per_sample = job.output.values_per_sample(job.dims);
    for (r, values) in out.chunks_mut(nx * per_sample).enumerate() {
        let p = row_point(params, first_row + r);
        for (chunk, values) in values.chunks_mut(LANES * per_sample).enumerate() {
            let px = lane_x(params, chunk);
            let p = [px, F::splat(p[1]), F::splat(p[2])];
            let v = match job.output {
                FieldOutput::Gradient => gradient::<L, N>(lut, job, p),
                _ => curl::<L, N>(lut, job, p),
            };
            for (i, texel) in values.chunks_exact_mut(per_sample).enumerate() {
                for (c, value) in texel.iter_mut().enumerate() {
                    *value = v[c].0[i];
                }
            }
        }
    }
}

/// The scalar `fbm_deriv` at the lanes' points `p`: `[value, ∂/∂x, ∂/∂y, ∂/∂z]`.
#[inline(always)]
fn gradient<L: LaneHasher, N: LaneDerivatives<L>>(
    lut: &L,
    job: &DerivativesJob,
    p: [F; 3],
) -> [F; 4] {
    let zero = F::splat(0.0);
    let mut sum = [zero; 4];
    for &[frequency, amplitude] in &job.octaves {
        // The one call of each noise function (each call site is another inlined copy).
        let d = if job.dims == 2 {
            let v = N::simplex2(lut, p[0] * frequency, p[1] * frequency, Some(job.turn));
            [v[0], v[1], v[2], zero]
        } else {
            let q = [p[0] * frequency, p[1] * frequency, p[2] * frequency];
            N::simplex3(lut, q, job.r2, job.scale, Some(job.turn))
        };
        sum[0] = sum[0] + amplitude * d[0];
        for a in 1..4 {
            sum[a] = sum[a] + amplitude * (d[a] * frequency);
        }
    }
    for v in &mut sum {
        *v = *v / job.norm;
    }
    sum
}

/// The scalar `curl2`/`curl3` at the lanes' points `p` (unused components 0).
#[inline(always)]
fn curl<L: LaneHasher, N: LaneDerivatives<L>>(lut: &L, job: &DerivativesJob, p: [F; 3]) -> [F; 4] {
    if job.dims == 2 {
        return curl2_of(&N::simplex2(lut, p[0], p[1], None));
    }
    let zero = F::splat(0.0);
    let mut potentials = [[zero; 4]; 3];
    for (potential, s) in potentials.iter_mut().zip(CURL_SHIFTS) {
        let [x, y, z, _] = curl_shifted(&[p[0], p[1], p[2], zero], s);
        *potential = N::simplex3(lut, [x, y, z], 0.5, SIMPLEX3_R05_SCALE as f32, None);
    }
    let [a, b, c] = potentials;
    curl3_of(&a, &b, &c)
}

/// `eval::curl_shifted` on lanes: the points `p` moved by a 3D curl potential's shift `s`.
#[inline(always)]
fn curl_shifted(p: &[F; 4], s: [f64; 3]) -> [F; 4] {
    [
        p[0] + s[0] as f32,
        p[1] + s[1] as f32,
        p[2] + s[2] as f32,
        F::splat(0.0),
    ]
}

/// `eval::curl2_of` on lanes: from `[value, ∂/∂x, ∂/∂y, …]`, the gradient turned
/// `(∂g/∂y, −∂g/∂x)`, then two 0s.
#[inline(always)]
fn curl2_of(d: &[F]) -> [F; 4] {
    let zero = F::splat(0.0);
    [d[2], -d[1], zero, zero]
}

/// `eval::curl3_of` on lanes: the curl from `[value, ∂/∂x, ∂/∂y, ∂/∂z, …]` of the
/// potentials ψx, ψy, ψz, then a 0.
#[inline(always)]
fn curl3_of(a: &[F], b: &[F], c: &[F]) -> [F; 4] {
    [c[2] - b[3], a[3] - c[1], b[1] - a[2], F::splat(0.0)]
}

/// A module `$module` with the rows of gradient and curl fields and their lane noise
/// functions compiled for one instruction set (`#[target_feature]`) with its
/// lane operations `$isa`.
macro_rules! derivatives_level {
    ($module:ident, $isa:ty $(, $features:literal)?) => {
        mod $module {
            use super::super::lanes::{by_halves, Isa, F, HALF, LANES};
            use super::super::lookup::LaneHasher;
            use crate::graph::eval::{self, Dual};
            use super::super::noise::{self, Turn, VectorLattice};
            use crate::graph::program::{Dims, Op};
            use super::{
                fill_graph_rows, fill_rows, Computed, DerivativesJob, GraphDerivativesJob,
                LaneDerivatives,
            };

            type I = $isa;

            /// `fill_rows` compiled with this level's features.
            ///
            /// # Safety
            /// The CPU must support those features.
            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            pub(super) unsafe fn rows<L: LaneHasher>(
                lut: &L,
                job: &DerivativesJob,
                first_row: usize,
                out: &mut [f32],
            ) {
                fill_rows::<L, Level>(lut, job, first_row, out)
            }

            /// `fill_graph_rows` compiled with this level's features.
            ///
            /// # Safety
            /// The CPU must support those features.
            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            pub(super) unsafe fn graph_rows<L: LaneHasher>(
                lut: &L,
                job: &GraphDerivativesJob,
                first_row: usize,
                out: &mut [f32],
            ) {
                fill_graph_rows::<L, Level>(lut, job, first_row, out)
            }

            /// The lane functions below, for `rows` and `graph_rows`.
            pub(super) struct Level;

            impl<L: LaneHasher> LaneDerivatives<L> for Level {
                #[inline(always)]
                fn step(
                    dims: Dims,
                    op: (usize, &Op),
                    p: &[Dual<F>; 4],
                    regs: &[[Dual<F>; 4]],
                    noise: &[[F; 5]; 4],
                    out: &mut [Dual<F>; 4],
                ) {
                    // SAFETY: `Level` is used only in `rows` and `graph_rows`, whose callers
                    // checked the features.
                    unsafe { step(dims, op, p, regs, noise, out) }
                }

                #[inline(always)]
                fn classic<const D: usize>(lut: &L, p: &[F; 4], period: &[u32; 4]) -> [F; 5] {
                    // SAFETY: as above.
                    unsafe { classic::<L, D>(lut, p, period) }
                }

                #[inline(always)]
                fn value<const D: usize>(lut: &L, p: &[F; 4], period: &[u32; 4]) -> [F; 5] {
                    // SAFETY: as above.
                    unsafe { value::<L, D>(lut, p, period) }
                }

                #[inline(always)]
                fn vector<const D: usize>(lut: &L, p: &[F; 4], period: &[u32; 4]) -> [[F; 5]; 4] {
                    // SAFETY: as above.
                    unsafe { vector::<L, D>(lut, p, period) }
                }

                #[inline(always)]
                fn supersimplex_vector<const D: usize>(lut: &L, p: &[F; 4]) -> [[F; 5]; 4] {
                    // SAFETY: as above.
                    unsafe { supersimplex_vector::<L, D>(lut, p) }
                }

                #[inline(always)]
                fn supersimplex_vector2_tiled(lut: &L, p: &[F; 4], period: [f32; 2]) -> [[F; 5]; 4] {
                    // SAFETY: as above.
                    unsafe { supersimplex_vector2_tiled(lut, p, period) }
                }

                #[inline(always)]
                fn supersimplex_vector3_tiled(lut: &L, p: &[F; 4], period: [u32; 3]) -> [[F; 5]; 4] {
                    // SAFETY: as above.
                    unsafe { supersimplex_vector3_tiled(lut, p, period) }
                }

                #[inline(always)]
                fn simplex_vector<const D: usize>(
                    lut: &L,
                    p: &[F; 4],
                    lattice: VectorLattice,
                ) -> [[F; 5]; 4] {
                    // SAFETY: as above.
                    unsafe { simplex_vector::<L, D>(lut, p, lattice) }
                }

                #[inline(always)]
                fn supersimplex2(lut: &L, p: &[F; 4]) -> [F; 3] {
                    // SAFETY: as above.
                    unsafe { supersimplex2(lut, p) }
                }

                #[inline(always)]
                fn supersimplex3(lut: &L, p: &[F; 4]) -> [F; 4] {
                    // SAFETY: as above.
                    unsafe { supersimplex3(lut, p) }
                }

                #[inline(always)]
                fn supersimplex4(lut: &L, p: &[F; 4]) -> [F; 5] {
                    // SAFETY: as above.
                    unsafe { supersimplex4(lut, p) }
                }

                #[inline(always)]
                fn supersimplex2_tiled(lut: &L, p: &[F; 4], period: [f32; 2]) -> [F; 5] {
                    // SAFETY: as above.
                    unsafe { supersimplex2_tiled(lut, p, period) }
                }

                #[inline(always)]
                fn supersimplex3_tiled(lut: &L, p: &[F; 4], period: [u32; 3]) -> [F; 4] {
                    // SAFETY: as above.
                    unsafe { supersimplex3_tiled(lut, p, period) }
                }

                #[inline(always)]
                fn simplex2(lut: &L, x: F, y: F, turn: Option<Turn>) -> [F; 3] {
                    // SAFETY: as above.
                    unsafe { simplex2(lut, x, y, turn) }
                }

                #[inline(always)]
                fn simplex3(lut: &L, p: [F; 3], r2: f32, scale: f32, turn: Option<Turn>) -> [F; 4] {
                    // SAFETY: as above.
                    unsafe { simplex3(lut, p, r2, scale, turn) }
                }
            }

            /// One copy per level, not per lookup: the operations do not read the tables.
            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn step(
                dims: Dims,
                op: (usize, &Op),
                p: &[Dual<F>; 4],
                regs: &[[Dual<F>; 4]],
                noise: &[[F; 5]; 4],
                out: &mut [Dual<F>; 4],
            ) {
                eval::step(dims, op, p, regs, &mut Computed(noise), out);
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn vector<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[F; 4],
                period: &[u32; 4],
            ) -> [[F; 5]; 4] {
                super::super::value::value_vector_point_deriv::<L, I, D>(lut, p, period)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex_vector<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[F; 4],
            ) -> [[F; 5]; 4] {
                super::super::supersimplex::supersimplex_vector_point_deriv::<L, I, D>(lut, p)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex_vector<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[F; 4],
                lattice: VectorLattice,
            ) -> [[F; 5]; 4] {
                match lattice {
                    VectorLattice::Plain { r2, scale } => {
                        noise::simplex_vector_point_deriv::<L, I, D>(lut, p, r2, scale)
                    }
                    VectorLattice::Periodic(period) => simplex_vector_periodic(lut, p, period),
                    VectorLattice::Torus(period) => simplex_vector_torus(lut, p, period),
                }
            }

            // The tiled forms out of line, as the values' (`bases`).
            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex_vector_periodic<L: LaneHasher>(
                lut: &L,
                p: &[F; 4],
                period: [u32; 3],
            ) -> [[F; 5]; 4] {
                noise::simplex_vector_periodic_point_deriv::<L, I>(lut, p, period)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex_vector2_tiled<L: LaneHasher>(
                lut: &L,
                p: &[F; 4],
                period: [f32; 2],
            ) -> [[F; 5]; 4] {
                super::super::supersimplex::supersimplex_vector2_tiled_point_deriv::<L, I>(lut, p, period)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex2_tiled<L: LaneHasher>(
                lut: &L,
                p: &[F; 4],
                period: [f32; 2],
            ) -> [F; 5] {
                super::super::supersimplex::supersimplex2_tiled_point_deriv::<L, I>(lut, p, period)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex3_tiled<L: LaneHasher>(
                lut: &L,
                p: &[F; 4],
                period: [u32; 3],
            ) -> [F; 4] {
                use super::super::supersimplex::supersimplex3_tiled_point_deriv;
                if I::HALF_BLOCKS {
                    by_halves!(|p| supersimplex3_tiled_point_deriv::<L, I, HALF>(lut, p, period))
                } else {
                    supersimplex3_tiled_point_deriv::<L, I, LANES>(lut, p, period)
                }
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex_vector3_tiled<L: LaneHasher>(
                lut: &L,
                p: &[F; 4],
                period: [u32; 3],
            ) -> [[F; 5]; 4] {
                super::super::supersimplex::supersimplex_vector3_tiled_point_deriv::<L, I>(lut, p, period)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex_vector_torus<L: LaneHasher>(
                lut: &L,
                p: &[F; 4],
                period: [f32; 2],
            ) -> [[F; 5]; 4] {
                noise::simplex_vector_torus_point_deriv::<L, I>(lut, p, period)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn classic<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[F; 4],
                period: &[u32; 4],
            ) -> [F; 5] {
                noise::classic_point_deriv::<L, I, D>(lut, p, period)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn value<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[F; 4],
                period: &[u32; 4],
            ) -> [F; 5] {
                super::super::value::value_point_deriv::<L, I, D>(lut, p, period)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex2<L: LaneHasher>(lut: &L, p: &[F; 4]) -> [F; 3] {
                super::super::supersimplex::supersimplex2_point_deriv::<L, I>(lut, p)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex3<L: LaneHasher>(lut: &L, p: &[F; 4]) -> [F; 4] {
                use super::super::supersimplex::supersimplex3_point_deriv;
                if I::HALF_BLOCKS {
                    by_halves!(|p| supersimplex3_point_deriv::<L, I, HALF>(lut, p))
                } else {
                    supersimplex3_point_deriv::<L, I, LANES>(lut, p)
                }
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex4<L: LaneHasher>(lut: &L, p: &[F; 4]) -> [F; 5] {
                super::super::supersimplex::supersimplex4_point_deriv::<L, I>(lut, p)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex2<L: LaneHasher>(lut: &L, x: F, y: F, turn: Option<Turn>) -> [F; 3] {
                noise::simplex2_deriv::<L, I>(lut, x, y, turn)
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex3<L: LaneHasher>(
                lut: &L,
                p: [F; 3],
                r2: f32,
                scale: f32,
                turn: Option<Turn>,
            ) -> [F; 4] {
                noise::simplex3_deriv::<L, I, L::GraphOrder3>(lut, p, r2, scale, turn)
            }
        }
    };
}

level_copies!(derivatives_level);
