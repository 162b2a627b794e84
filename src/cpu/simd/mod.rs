//! The SIMD CPU fill: the `f32` reference of [`crate::cpu::fill`] on 16 samples at a time,
//! on all cores, bit for bit the same values.
//!
//! - `lanes`: lane arrays whose plain per-lane loops LLVM turns into vector instructions;
//! - `lookup`: the two lookup variants on lanes (gathers from the packed tables, or the
//!   integer hash);
//! - `noise`: classic and simplex noise on lanes, branches turned into selections;
//! - `bases`: those noise functions compiled out of line, once per instruction set, lookup
//!   and base function;
//! - this file: rows, octaves, threads and the run-time choice of instruction set
//!   ([`SimdLevel`]).
//!
//! Rows (fixed y, z, w) are the unit of work: classic noise computes its y/z/w part once per
//! row and octave, and the row's x runs along the lanes. Rows are handed to
//! `std::thread::available_parallelism()` threads in blocks.
//!
//! Fields with a domain warp or flow noise take full lane points instead (`points`): the
//! warp moves each lane's point along every axis, so nothing is shared along a row. They
//! call the out-of-line lane functions of `bases`, which the graph fill (`graph`) calls too.
//!
//! Gradient and curl fields (`derivatives`, [`fill_slab_output`]) run their rows along the
//! lanes too, with the noise's analytic gradient on lanes.
//!
//! On wasm32 no lane code is compiled: the fills run the scalar reference (the same values).
//! For wasm32, LLVM takes far longer over the lane code than over all the rest of the
//! build (docs/performance.md, Compile time), and a page draws its fields on the GPU.

// The lane machinery below is unused where no lane code is compiled.
#![cfg_attr(
    target_arch = "wasm32",
    allow(
        dead_code,
        unused_imports,
        unused_macros,
        unused_variables,
        unused_unsafe
    )
)]

/// Invokes `$copy!(module, isa[, features])` once per instruction set of this target: the
/// one list of levels, their lane operations ([`lanes::Isa`]) and `#[target_feature]`s from which every lane fill
/// (flag fields, graphs, gradient and curl fields) makes its copies. FMA is not enabled for
/// AVX2 (Rust never contracts multiply-adds anyway). SSE2 is the x86-64 baseline (without
/// `roundps`, so its floor is truncation, [`lanes::Sse2Lanes`]); other architectures have one level, their
/// baseline. Only the copies of the target's architecture are compiled.
macro_rules! level_copies {
    ($copy:ident) => {
        #[cfg(target_arch = "x86_64")]
        $copy!(
            avx512,
            $crate::cpu::simd::lanes::Avx512Lanes,
            "avx512f,avx512vl,avx512dq,avx512bw"
        );
        #[cfg(target_arch = "x86_64")]
        $copy!(avx2, $crate::cpu::simd::lanes::Avx2Lanes, "avx2");
        #[cfg(target_arch = "x86_64")]
        $copy!(sse2, $crate::cpu::simd::lanes::Sse2Lanes, "sse2");
        #[cfg(not(any(target_arch = "x86_64", target_arch = "wasm32")))]
        $copy!(native, $crate::cpu::simd::lanes::NativeLanes);
    };
}

/// `$call` with `$module` naming the copies of `level` that `level_copies` made (a module
/// of the caller's).
///
/// # Safety
/// `$call` runs code compiled for `level`: the caller must have checked that the CPU has
/// it (the fills accept only levels [`SimdLevel::available`] lists).
macro_rules! on_level {
    ($level:expr, $module:ident => $call:expr) => {
        match $level {
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx512 => {
                use avx512 as $module;
                $call
            }
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx2 => {
                use avx2 as $module;
                $call
            }
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Sse2 => {
                use sse2 as $module;
                $call
            }
            #[cfg(not(any(target_arch = "x86_64", target_arch = "wasm32")))]
            SimdLevel::Neon | SimdLevel::Portable => {
                use native as $module;
                $call
            }
            // Not available on this architecture, so no fill passes it.
            #[allow(unreachable_patterns)]
            level => unreachable!("{} is not available on this CPU", level.name()),
        }
    };
}

// The lane types, lane lookups and lane noise functions: the fill's machinery, not API.
mod bases;
mod cellular;
pub mod lanes;
pub mod lookup;
mod noise;
mod points;
mod supersimplex;
mod value;
mod warped;

mod derivatives;
mod graph;

pub use self::derivatives::{
    fill_graph_slab_output, fill_graph_slab_output_with, fill_slab_output, fill_slab_output_with,
};
pub use self::graph::{
    fill_graph_slab, fill_graph_slab_with, graph_has_lanes, graph_has_warped_kernel,
};

use std::sync::Mutex;

use self::lanes::{Isa, Pairing, F, LANES, U};
use self::lookup::LaneHasher;
use self::noise::{ClassicRow, ClassicXTable};
use self::points::{fill_point_rows, PointSetup};
use crate::cpu::fill::sample_point;
use crate::cpu::lookup::CpuLookup;
use crate::cpu::simplex::{SIMPLEX34_R2, SIMPLEX3_R05_SCALE, SIMPLEX4_R05_SCALE, TAU};
use crate::field::{FieldOutput, FlagField, NoiseKind};
use crate::gpu::LookupVariant;
use crate::graph::plan::Plan;
use crate::params::{
    FillParams, NoiseSettings, Slab, FRACTAL_FBM, FRACTAL_RIDGED, FRACTAL_TURBULENCE,
    KERNEL_CONTINUOUS, KERNEL_REFERENCE,
};

/// An instruction set the fill can run with, chosen at run time ([`SimdLevel::best`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimdLevel {
    /// x86-64 with AVX-512 (F, VL, DQ, BW): one 16-lane register per value.
    Avx512,
    /// x86-64 with AVX2: two 8-lane registers per value.
    Avx2,
    /// x86-64 baseline: four 4-lane registers per value, `floor` without `roundps`.
    Sse2,
    /// aarch64 (NEON is part of the baseline).
    Neon,
    /// Any other target: the same lane code, vectorised as far as the baseline allows; on
    /// wasm32 the scalar reference.
    Portable,
}

impl SimdLevel {
    /// The fastest level this CPU supports.
    pub fn best() -> SimdLevel {
        *SimdLevel::available()
            .first()
            .unwrap_or(&SimdLevel::Portable)
    }

    /// Every level this CPU supports, fastest first (tests run each of them).
    // Each target compiles its own `push`es; off x86 only one remains.
    #[allow(clippy::vec_init_then_push)]
    pub fn available() -> Vec<SimdLevel> {
        #[allow(unused_mut)]
        let mut levels = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512dq")
                && is_x86_feature_detected!("avx512bw")
            {
                levels.push(SimdLevel::Avx512);
            }
            if is_x86_feature_detected!("avx2") {
                levels.push(SimdLevel::Avx2);
            }
            levels.push(SimdLevel::Sse2);
        }
        #[cfg(target_arch = "aarch64")]
        levels.push(SimdLevel::Neon);
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        levels.push(SimdLevel::Portable);
        levels
    }

    /// Its name: `avx512`, `avx2`, `sse2`, `neon` or `portable`.
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Avx512 => "avx512",
            SimdLevel::Avx2 => "avx2",
            SimdLevel::Sse2 => "sse2",
            SimdLevel::Neon => "neon",
            SimdLevel::Portable => "portable",
        }
    }
}

/// The name of the instruction set the SIMD fill uses on this CPU (e.g. `avx512`).
pub fn simd_level() -> &'static str {
    SimdLevel::best().name()
}

/// The number of threads the fill uses by default: `std::thread::available_parallelism`.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// How to run a fill: threads and instruction set.
#[derive(Clone, Copy, Debug)]
pub struct FillOptions {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// The instruction set; must be one of [`SimdLevel::available`].
    pub level: SimdLevel,
}

impl Default for FillOptions {
    /// All cores, the best instruction set.
    fn default() -> Self {
        FillOptions {
            threads: default_threads(),
            level: SimdLevel::best(),
        }
    }
}

/// The whole field in `f32` with the SIMD fill on all cores: the same values as
/// [`crate::cpu::fill::generate_f32`] with the lookup's tables or hash, bit for bit.
pub fn fill_field(lut: &CpuLookup, field: &FlagField) -> crate::error::Result<Vec<f32>> {
    field.validate()?;
    let params = FillParams::new(field, Slab::whole(field));
    let mut out = vec![0.0f32; params.len()];
    fill_slab(lut, field.kind, field.dims, &params, &mut out);
    Ok(out)
}

/// [`crate::cpu::fill::fill_slab`] with the SIMD fill on all cores (same values).
pub fn fill_slab(
    lut: &CpuLookup,
    kind: NoiseKind,
    dims: usize,
    params: &FillParams,
    out: &mut [f32],
) {
    fill_slab_with(lut, kind, dims, params, out, FillOptions::default());
}

/// [`fill_slab`] with explicit threads and instruction set.
///
/// Not generic: the lookup variant is picked here, once, and the lane code is compiled once,
/// in this crate (a generic entry point would be instantiated again in every crate that
/// calls it: the binary, each application, where it cost as long as in this one).
///
/// # Panics
/// If `out` is not the slab's length, `dims` is not 2 to 4, or `options.level` is not
/// available on this CPU (programming errors).
pub fn fill_slab_with(
    lut: &CpuLookup,
    kind: NoiseKind,
    dims: usize,
    params: &FillParams,
    out: &mut [f32],
    options: FillOptions,
) {
    assert_eq!(out.len(), params.len(), "output length must match the slab");
    assert!((2..=4).contains(&dims), "dimensions must be 2, 3 or 4");
    assert!(
        SimdLevel::available().contains(&options.level),
        "{} is not available on this CPU",
        options.level.name()
    );
    if !has_lane_code(kind, dims, &params.settings) {
        // The scalar reference fills it (the same values by definition).
        crate::cpu::lookup::with_lookup!(lut, |lut| crate::cpu::fill::fill_slab(
            lut, kind, dims, params, out
        ));
        return;
    }
    let job = Job::new(kind, dims, params, options.level);
    match lut {
        CpuLookup::Tables(t) => match t.packed() {
            Some(packed) => run_threads(&packed, &job, out, options.threads),
            // Gradients the lanes cannot decode: the scalar reference reads them as they are.
            None => crate::cpu::fill::fill_slab(t.tables(), kind, dims, params, out),
        },
        CpuLookup::Hash(h) => run_threads(h, &job, out, options.threads),
    }
}

/// Whether the SIMD fill of `field` runs lanes (otherwise it is the scalar reference's fill).
pub fn lanes_apply(field: &FlagField) -> bool {
    has_lane_code(field.kind, field.dims, &NoiseSettings::of(field))
}

/// How the CPU's lanes run a [`Plan`]: the bake's CPU source and `bench` take the same.
#[derive(Clone, Debug)]
pub struct LanePlan {
    /// The kernel they run: the plan's own, or, for a fused field whose fill has no lanes
    /// (cellular noise, tiled 3D simplex), the graph of its options where that has lanes,
    /// which computes the fill's values bit for bit (`tests/reference/flag_graphs.rs`).
    pub plan: Plan,
    /// Whether each value becomes `v + 0.0` to match the fused fill: it sums one fBm octave
    /// as `0 + 1·n` (`cpu::fractal`), which turns a −0 into +0, where the graph of one octave
    /// is the source itself.
    pub positive_zero: bool,
    /// Whether they run lanes (otherwise the fill is the scalar reference's).
    pub lanes: bool,
}

/// How the lanes run `plan` for `output` with `lookup` ([`LanePlan`]).
pub fn lane_plan(plan: &Plan, lookup: LookupVariant, output: FieldOutput) -> LanePlan {
    let same = |lanes| LanePlan {
        plan: plan.clone(),
        positive_zero: false,
        lanes,
    };
    let field = match plan {
        // A graph runs on lanes: operations without lane code run their scalar function
        // per lane inside them.
        Plan::Graph { .. } => return same(true),
        Plan::Fused(field) if lanes_apply(field) => return same(true),
        Plan::Fused(field) => field,
    };
    let on_graph = (output == FieldOutput::Value)
        .then(|| crate::graph::flags::program_of(field, output).ok())
        .flatten()
        .filter(|program| graph_has_lanes(program, lookup));
    match on_graph {
        Some(program) => LanePlan {
            plan: Plan::Graph {
                field: program.sampled_field(field),
                program: std::sync::Arc::new(program),
            },
            positive_zero: field.fractal.octaves == 1,
            lanes: true,
        },
        None => same(false),
    }
}

/// Whether the flag fill's lanes implement this field: classic and simplex noise with and
/// without domain warp and flow noise, tiled too; not tiled 3D simplex (its periodic
/// lattice, also as the noise of a tiled 3D simplex field's warp), nor cellular noise, whose
/// lanes are the graph evaluator's ([`graph_has_lanes`]).
fn has_lane_code(kind: NoiseKind, dims: usize, settings: &NoiseSettings) -> bool {
    let tiled = settings.period.iter().any(|&p| p > 0.0);
    LANE_CODE
        && !matches!(
            kind,
            NoiseKind::Cellular | NoiseKind::Value | NoiseKind::SuperSimplex
        )
        && !(kind == NoiseKind::Simplex && dims == 3 && tiled)
}

/// Whether this target compiles the lane code (all but wasm32).
const LANE_CODE: bool = cfg!(not(target_arch = "wasm32"));

/// Which lane function a fill evaluates (fixed for the whole fill, so the per-row and
/// per-lane code is specialised for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    Classic2,
    Classic3,
    Classic4,
    Simplex2,
    /// Tileable 2D simplex: 4D simplex on a torus.
    Simplex2Tiled,
    Simplex3,
    Simplex4,
}

/// One fill: the parameters and what is fixed for all its rows.
struct Job<'a> {
    params: &'a FillParams,
    dims: usize,
    base: Base,
    /// One fBm octave of untiled noise with the reference kernel: the scalar fill calls the
    /// base function directly (which differs from the octave sum in the sign of a zero),
    /// so this does too.
    plain: bool,
    /// Squared kernel radius and scale of simplex 3D/4D.
    r2: f32,
    scale: f32,
    level: SimdLevel,
    /// Warped or flow fields: the set-up of their full lane points (then `plain` is unused).
    points: Option<PointSetup>,
}

impl<'a> Job<'a> {
    fn new(kind: NoiseKind, dims: usize, params: &'a FillParams, level: SimdLevel) -> Self {
        let s = &params.settings;
        let plain = s.octaves == 1
            && s.mode == FRACTAL_FBM
            && s.kernel == KERNEL_REFERENCE
            && s.period == [0.0; 4];
        let base = match (kind, dims) {
            (NoiseKind::Classic, 2) => Base::Classic2,
            (NoiseKind::Classic, 3) => Base::Classic3,
            (NoiseKind::Classic, _) => Base::Classic4,
            // As `base_noise`: only the first period decides whether 2D simplex tiles.
            (NoiseKind::Simplex, 2) if s.period[0] > 0.0 => Base::Simplex2Tiled,
            (NoiseKind::Simplex, 2) => Base::Simplex2,
            (NoiseKind::Simplex, 3) => Base::Simplex3,
            (NoiseKind::Simplex, _) => Base::Simplex4,
            (NoiseKind::Cellular | NoiseKind::Value | NoiseKind::SuperSimplex, _) => {
                unreachable!("{kind} noise takes the scalar path")
            }
        };
        let continuous = s.kernel == KERNEL_CONTINUOUS;
        let (r2, scale) = match (dims, continuous) {
            (3, true) => (0.5, SIMPLEX3_R05_SCALE as f32),
            (4, true) => (0.5, SIMPLEX4_R05_SCALE as f32),
            (4, false) => (SIMPLEX34_R2 as f32, 27.0),
            _ => (SIMPLEX34_R2 as f32, 32.0),
        };
        let points = (s.warp_iterations > 0 || s.flow_angle != 0.0)
            .then(|| PointSetup::new(s, base, r2, scale));
        Job {
            params,
            dims,
            base,
            plain,
            r2,
            scale,
            level,
            points,
        }
    }

    fn rows(&self) -> usize {
        let e = self.params.extent;
        (e[1] * e[2] * e[3]) as usize
    }
}

/// Fills `out` with blocks of rows on `threads` threads (the calling thread is one of them).
fn run_threads<L: LaneHasher>(lut: &L, job: &Job, out: &mut [f32], threads: usize) {
    let nx = job.params.extent[0] as usize;
    run_row_blocks(nx, job.rows(), out, threads, |first_row, block| {
        dispatch(lut, job, first_row, block)
    });
}

/// Hands `out` (`rows` rows of `nx` samples) to `fill(first_row, block)` in blocks of whole
/// rows on `threads` threads (the calling thread is one of them).
fn run_row_blocks(
    nx: usize,
    rows: usize,
    out: &mut [f32],
    threads: usize,
    fill: impl Fn(usize, &mut [f32]) + Sync,
) {
    if nx == 0 || rows == 0 {
        return;
    }
    let threads = threads.clamp(1, rows);
    // Blocks of about 64 Ki samples: small enough to balance the threads, large enough
    // that taking one costs nothing.
    let block_rows = (65536 / nx).clamp(1, rows.div_ceil(threads));
    let blocks = Mutex::new(out.chunks_mut(block_rows * nx).enumerate());
    let work = || loop {
        let next = blocks.lock().map(|mut b| b.next());
        let Ok(Some((index, block))) = next else {
            return;
        };
        fill(index * block_rows, block);
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
}

/// Runs the job's rows with the copy of [`fill_rows`] or [`fill_point_rows`] compiled for its
/// instruction set and base function.
fn dispatch<L: LaneHasher>(lut: &L, job: &Job, first_row: usize, out: &mut [f32]) {
    // One `match` arm per base function of the rows: each arm calls its own monomorphised
    // function, so no function holds more than one base's lane code (compile time grows
    // faster than linearly with a function's size; see `level_copy`). The point rows call
    // the out-of-line lane functions of `bases`.
    macro_rules! by_base {
        ($level:ident) => {
            match (job.base, &job.points) {
                (Base::Classic2, None) => $level::rows::<L, Classic<2>>(lut, job, first_row, out),
                (Base::Classic3, None) => $level::rows::<L, Classic<3>>(lut, job, first_row, out),
                (Base::Classic4, None) => $level::rows::<L, Classic<4>>(lut, job, first_row, out),
                (Base::Simplex2, None) => $level::rows::<L, Simplex2>(lut, job, first_row, out),
                (Base::Simplex2Tiled, None) => {
                    $level::rows::<L, Simplex2Tiled>(lut, job, first_row, out)
                }
                (Base::Simplex3, None) => $level::rows::<L, Simplex3>(lut, job, first_row, out),
                (Base::Simplex4, None) => $level::rows::<L, Simplex4>(lut, job, first_row, out),
                (_, Some(p)) => $level::points::<L>(lut, job, p, first_row, out),
            }
        };
    }
    // SAFETY: `fill_slab_with` accepts only levels `SimdLevel::available` detected on this
    // CPU, so the instructions each level's copies are compiled with exist.
    unsafe { on_level!(job.level, level => by_base!(level)) }
}

/// A module `$module` with [`fill_rows`] and [`fill_point_rows`] compiled for one
/// instruction set (`#[target_feature]`; the lane loops inlined into them become its vector
/// instructions) with its lane operations `$isa`. Each monomorphisation of `rows` (lookup variant ×
/// base function) is its own function, kept out of line, so that LLVM optimises many small
/// functions (in parallel codegen units) instead of one that holds every base; `points`
/// (one per lookup variant) calls the level's out-of-line lane functions.
macro_rules! level_copy {
    ($module:ident, $isa:ty $(, $features:literal)?) => {
        mod $module {
            use super::bases::$module::Level;
            use super::{fill_point_rows, fill_rows, BaseNoise, Job, LaneHasher, PointSetup};

            /// [`fill_rows`] compiled with this level's features.
            ///
            /// # Safety
            /// The CPU must support those features.
            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            pub(super) unsafe fn rows<L: LaneHasher, B: BaseNoise>(
                lut: &L,
                job: &Job,
                first_row: usize,
                out: &mut [f32],
            ) {
                fill_rows::<L, $isa, B>(lut, job, first_row, out)
            }

            /// [`fill_point_rows`] compiled with this level's features.
            ///
            /// # Safety
            /// The CPU must support those features.
            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            pub(super) unsafe fn points<L: LaneHasher>(
                lut: &L,
                job: &Job,
                points: &PointSetup,
                first_row: usize,
                out: &mut [f32],
            ) {
                fill_point_rows::<L, Level>(lut, job, points, first_row, out)
            }
        }
    };
}

level_copies!(level_copy);

/// The sample point of row `row` of `params` at x = 0 (rows run through y, then z, then
/// w): the scalar `sample_point` of the row's first texel.
#[inline(always)]
fn row_point(params: &FillParams, row: usize) -> [f32; 4] {
    let [_, ny, nz, _] = params.extent.map(|e| e as usize);
    let y = (row % ny) as u32;
    let z = ((row / ny) % nz) as u32;
    let w = (row / (ny * nz)) as u32;
    sample_point(params, [0, y, z, w])
}

/// The x coordinates of lane chunk `chunk` of a row: the scalar `sample_point` along x on
/// the lanes.
#[inline(always)]
fn lane_x(params: &FillParams, chunk: usize) -> F {
    let x0 = params.origin[0] + (chunk * LANES) as u32;
    U(std::array::from_fn(|i| x0 + i as u32)).to_f32() * params.step[0] + params.offset[0]
}

/// What one row needs at one octave.
#[derive(Clone, Copy, Debug)]
struct OctaveRow<R> {
    /// The octave's frequency (multiplies x on the lanes).
    frequency: f32,
    /// The octave's amplitude.
    amplitude: f32,
    /// y, z, w of the sample point times the frequency.
    q: [f32; 3],
    /// Classic noise: the row's part of the lattice.
    classic: Option<ClassicRow<R>>,
    /// Tiled 2D simplex: the x period (in cells, times the frequency), and the torus'
    /// z and w from y.
    torus: [f32; 3],
}

/// Lattice period of classic noise along one axis (`lattice_period` in the scalar fractal).
fn lattice_period(period: f32) -> u32 {
    if period > 0.0 {
        (period as f64).round() as u32
    } else {
        256
    }
}

/// Fills rows `first_row..` (as many as `out` holds) of the job's slab with the base
/// function `B`.
#[inline(always)]
fn fill_rows<L: LaneHasher, I: Isa, B: BaseNoise>(
    lut: &L,
    job: &Job,
    first_row: usize,
    out: &mut [f32],
) {
    // `dispatch` sends jobs with points to `fill_point_rows`.
    debug_assert!(
        job.points.is_none(),
        "a warped or flow job has its own rows"
    );
    let params = job.params;
    let s = &params.settings;
    let nx = params.extent[0] as usize;
    let octaves = if job.plain { 1 } else { s.octaves as usize };
    let mut setup: Vec<OctaveRow<L::Row>> = Vec::with_capacity(octaves);
    // Classic noise's x tables, one per octave: the lanes' x is the same in every row.
    let mut tables: Vec<ClassicXTable> = Vec::new();
    let chunks = nx.div_ceil(LANES);
    if B::ROW_PART == RowPart::Classic && nx > 0 {
        let (lo, hi) = (
            lane_x(params, 0).0[0],
            lane_x(params, chunks - 1).0[LANES - 1],
        );
        let mut frequency = 1.0f32;
        for _ in 0..octaves {
            let mut table = ClassicXTable::default();
            let ascending = params.step[0] >= 0.0 && frequency > 0.0;
            // Not for lanes denser than the lookup's tables pay for: rows then look up
            // their cells (in y, z, w too, so every row or two) nearly as often as the
            // lanes would, and the tables' upkeep comes on top.
            let max_cells = chunks * LANES / L::TABLE_TEXELS_PER_CELL + 2;
            table.set_octave::<I>(lo * frequency, hi * frequency, ascending, max_cells);
            table.set_chunks::<I>((0..chunks).map(|c| lane_x(params, c) * frequency));
            tables.push(table);
            frequency *= s.lacunarity;
        }
    }
    for (r, values) in out.chunks_mut(nx).enumerate() {
        let p = row_point(params, first_row + r);
        // The octaves' row set-up, in the scalar fractal's order of operations.
        setup.clear();
        let (mut amplitude, mut frequency) = (1.0f32, 1.0f32);
        for _ in 0..octaves {
            let q = [p[1] * frequency, p[2] * frequency, p[3] * frequency];
            let qp = s.period.map(|v| v * frequency);
            // An `if`, not `then(|| …)`: a closure stays a call, compiled without the
            // copy's `#[target_feature]`s, and the tables' lane lookups run in it.
            let classic = if B::ROW_PART == RowPart::Classic {
                let row = ClassicRow::new(lut, job.dims, q, qp.map(lattice_period));
                tables[setup.len()].set_row::<L, I>(lut, job.dims, &row);
                Some(row)
            } else {
                None
            };
            let mut torus = [0.0; 3];
            if B::ROW_PART == RowPart::Torus {
                let tau = TAU as f32;
                let ay = q[0] / qp[1] * tau;
                let ry = qp[1] / tau;
                torus = [qp[0], ry * ay.cos(), ry * ay.sin()];
            }
            setup.push(OctaveRow {
                frequency,
                amplitude,
                q,
                classic,
                torus,
            });
            amplitude *= s.gain;
            frequency *= s.lacunarity;
        }
        let mut norm = 0.0f32;
        for o in &setup {
            norm += o.amplitude;
        }
        // Two chunks at a time where the ISA pairs them (the last one of an odd count with
        // itself, one result kept); one at a time (twice the same) elsewhere.
        let step = if paired::<L, I>() { 2 } else { 1 };
        for (k, values) in values.chunks_mut(step * LANES).enumerate() {
            let first = step * k;
            let pair = [first, (first + step - 1).min(chunks - 1)];
            let px = [lane_x(params, pair[0]), lane_x(params, pair[1])];
            let [a, b] = fractal::<L, I, B>(lut, job, px, pair, &setup, &tables, norm);
            let (left, right) = values.split_at_mut(LANES.min(values.len()));
            a.store(left);
            if !right.is_empty() {
                b.store(right);
            }
        }
    }
}

/// The octave sum of the scalar `fractal`, lanes along x, at two chunks of a row (where
/// [`paired`]; elsewhere the first chunk's twice); for a `plain` job the base
/// function itself (one octave, frequency 1).
///
/// Two chunks in one block of code: LLVM interleaves their instructions, and the core
/// overlaps two chains of dependent multiplies where one chunk's chain keeps its scheduler
/// waiting (docs/performance.md, The SIMD CPU fill). Each is another inlined copy of the
/// base function, which lengthens the library's release build.
#[inline(always)]
fn fractal<L: LaneHasher, I: Isa, B: BaseNoise>(
    lut: &L,
    job: &Job,
    px: [F; 2],
    chunks: [usize; 2],
    setup: &[OctaveRow<L::Row>],
    tables: &[ClassicXTable],
    norm: f32,
) -> [F; 2] {
    let mode = job.params.settings.mode;
    let mut sum = [F::splat(0.0); 2];
    let mut weight = [F::splat(1.0); 2];
    for (o, octave) in setup.iter().enumerate() {
        // The two calls of the base function (inlined: every call is another copy of it).
        let [ta, tb] = chunks.map(|chunk| tables.get(o).map(|table| TableChunk { table, chunk }));
        let a = B::at_row::<L, I>(lut, job, px[0] * octave.frequency, octave, ta);
        let b = if paired::<L, I>() {
            B::at_row::<L, I>(lut, job, px[1] * octave.frequency, octave, tb)
        } else {
            a
        };
        if job.plain {
            // The base function's own value (`0 + n` would turn −0 into +0).
            return [a, b];
        }
        sum[0] = sum[0] + octave.amplitude * shape_octave(mode, a, &mut weight[0]);
        sum[1] = sum[1] + octave.amplitude * shape_octave(mode, b, &mut weight[1]);
    }
    [sum[0] / norm, sum[1] / norm]
}

/// Whether the flag fill with lookup `L` on ISA `I` evaluates two chunks at once
/// ([`Isa::PAIRS`]).
const fn paired<L: LaneHasher, I: Isa>() -> bool {
    match I::PAIRS {
        Pairing::Never => false,
        Pairing::FewRegisters => L::FEW_REGISTERS,
        Pairing::Always => true,
    }
}

/// `shape_octave` on lanes: the octave's contribution; `weight` carries the ridge weight
/// to the next octave.
#[inline(always)]
fn shape_octave(mode: u32, n: F, weight: &mut F) -> F {
    if mode == FRACTAL_TURBULENCE {
        n.abs()
    } else if mode == FRACTAL_RIDGED {
        let ridge = 1.0 - n.abs();
        // Clamped to the graphs' bound before it meets the weight (`shape_octave`).
        let limit = crate::cpu::combine::WGPU_NOISE_FINITE as f32;
        let r = (ridge * ridge).clamp(-limit, limit) * *weight;
        *weight = (r * 2.0).clamp(0.0, 1.0);
        r
    } else {
        n
    }
}

/// The part of the base function a row sets up per octave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowPart {
    /// Nothing: simplex noise skews every axis together, so each lane does the whole point.
    Point,
    /// Classic noise's y/z/w part ([`ClassicRow`]).
    Classic,
    /// Tileable 2D simplex's circle of y on the torus.
    Torus,
}

/// A base function of the flag fill on lanes, as a type (those of [`Base`]): the fill is
/// monomorphised per base function, so its per-row and per-lane code is specialised.
trait BaseNoise {
    /// What a row sets up per octave.
    const ROW_PART: RowPart;

    /// The base noise at x = `qx` (lanes) on the octave's row.
    /// `table`: classic noise's x table of the octave at the lanes' chunk.
    fn at_row<L: LaneHasher, I: Isa>(
        lut: &L,
        job: &Job,
        qx: F,
        o: &OctaveRow<L::Row>,
        table: Option<TableChunk>,
    ) -> F;
}

/// Classic noise's x table of an octave, at one chunk of the row.
#[derive(Clone, Copy)]
struct TableChunk<'a> {
    table: &'a ClassicXTable,
    /// The chunk's index in the row.
    chunk: usize,
}

/// Classic noise in `D` dimensions.
struct Classic<const D: usize>;
/// 2D simplex (or flow) noise.
struct Simplex2;
/// Tileable 2D simplex: 4D simplex on a torus.
struct Simplex2Tiled;
/// 3D simplex (or flow) noise with the job's kernel.
struct Simplex3;
/// 4D simplex noise with the job's kernel.
struct Simplex4;

impl<const D: usize> BaseNoise for Classic<D> {
    const ROW_PART: RowPart = RowPart::Classic;

    #[inline(always)]
    fn at_row<L: LaneHasher, I: Isa>(
        lut: &L,
        _: &Job,
        qx: F,
        o: &OctaveRow<L::Row>,
        table: Option<TableChunk>,
    ) -> F {
        let row = o
            .classic
            .as_ref()
            .expect("classic noise has its row set-up");
        let TableChunk { table, chunk } = table.expect("classic noise has its x tables");
        noise::classic_tabled::<L, I, D>(lut, qx, row, table, chunk)
    }
}

impl BaseNoise for Simplex2 {
    const ROW_PART: RowPart = RowPart::Point;

    #[inline(always)]
    fn at_row<L: LaneHasher, I: Isa>(
        lut: &L,
        _: &Job,
        qx: F,
        o: &OctaveRow<L::Row>,
        _: Option<TableChunk>,
    ) -> F {
        noise::simplex2::<L, I>(lut, qx, F::splat(o.q[0]), None)
    }
}

impl BaseNoise for Simplex2Tiled {
    const ROW_PART: RowPart = RowPart::Torus;

    #[inline(always)]
    fn at_row<L: LaneHasher, I: Isa>(
        lut: &L,
        _: &Job,
        qx: F,
        o: &OctaveRow<L::Row>,
        _: Option<TableChunk>,
    ) -> F {
        // As `base_noise`, an octave whose period is not positive (a frequency that
        // underflowed) is the plain function.
        if o.torus[0] > 0.0 {
            // `simplex2_tiled`: x on a circle of circumference `period.x` (sin and cos per
            // lane, the scalar functions), y on the row's circle.
            let [x0, x1] = noise::torus_circle(qx, o.torus[0]);
            let p = [x0, x1, F::splat(o.torus[1]), F::splat(o.torus[2])];
            noise::simplex4::<L, I>(lut, p, SIMPLEX34_R2 as f32, 27.0)
        } else {
            noise::simplex2::<L, I>(lut, qx, F::splat(o.q[0]), None)
        }
    }
}

impl BaseNoise for Simplex3 {
    const ROW_PART: RowPart = RowPart::Point;

    #[inline(always)]
    fn at_row<L: LaneHasher, I: Isa>(
        lut: &L,
        job: &Job,
        qx: F,
        o: &OctaveRow<L::Row>,
        _: Option<TableChunk>,
    ) -> F {
        let p = [qx, F::splat(o.q[0]), F::splat(o.q[1])];
        noise::simplex3::<L, I, noise::Selections>(lut, p, job.r2, job.scale, None)
    }
}

impl BaseNoise for Simplex4 {
    const ROW_PART: RowPart = RowPart::Point;

    #[inline(always)]
    fn at_row<L: LaneHasher, I: Isa>(
        lut: &L,
        job: &Job,
        qx: F,
        o: &OctaveRow<L::Row>,
        _: Option<TableChunk>,
    ) -> F {
        let p = [qx, F::splat(o.q[0]), F::splat(o.q[1]), F::splat(o.q[2])];
        noise::simplex4::<L, I>(lut, p, job.r2, job.scale)
    }
}
