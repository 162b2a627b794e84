//! The noise functions on lanes, one out-of-line function per instruction set, lookup
//! variant and base function ([`LaneBase`]): what the graph fill calls for each noise
//! operation and the flag fill for each octave of a warped or flow field. Kept out of line
//! so that no function holds more than one noise body (compile time grows faster than
//! linearly with a function's size) and each body is compiled once per level, not once per
//! caller.

use super::lanes::F;
use super::lattice_period;
use super::lookup::LaneHasher;
use super::noise::{Turn, VectorLattice};
use crate::cpu::cellular::CellularShape;
use crate::cpu::simplex::{
    SIMPLEX2_R2, SIMPLEX2_VECTOR_SCALE, SIMPLEX34_R2, SIMPLEX3_R05_SCALE, SIMPLEX3_VECTOR_SCALE,
    SIMPLEX4_R05_SCALE, SIMPLEX4_VECTOR_SCALE,
};
use crate::field::{Kernel, NoiseKind};
use crate::graph::program::{Source, VectorSource};
use crate::shader::LookupVariant;

/// The lane function of one noise source, fixed for the whole fill.
#[derive(Clone, Copy, Debug)]
pub(super) enum LaneBase {
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
    /// Simplex (or, turned, flow) noise in 2D.
    Simplex2(Option<Turn>),
    /// Tileable 2D simplex with the x and y periods.
    Simplex2Tiled([f32; 2]),
    /// Simplex (or flow) noise in 3D with the kernel's squared radius and scale.
    Simplex3 {
        r2: f32,
        scale: f32,
        turn: Option<Turn>,
    },
    /// Simplex noise in 4D with the kernel's squared radius and scale.
    Simplex4 {
        r2: f32,
        scale: f32,
    },
    /// Cellular noise in 2, 3 or 4 dimensions with the lattice period of each axis.
    Cellular2([u32; 4], CellularShape),
    Cellular3([u32; 4], CellularShape),
    Cellular4([u32; 4], CellularShape),
    /// Tiled 3D simplex noise with the lattice period of each axis.
    Simplex3Tiled([u32; 3]),
    /// Value noise of vectors in 2, 3 or 4 dimensions with the lattice period of each axis
    /// ([`LaneNoise::vector`]).
    Vector2([u32; 4]),
    Vector3([u32; 4]),
    Vector4([u32; 4]),
    /// OpenSimplex2S noise of vectors in 2, 3 and 4 dimensions ([`LaneNoise::vector`]).
    SuperSimplexVector2,
    SuperSimplexVector3,
    SuperSimplexVector4,
    /// Tileable 2D OpenSimplex2S noise of vectors with the x and y periods.
    SuperSimplexVector2Tiled([f32; 2]),
    /// Tileable 3D OpenSimplex2S noise of vectors with the lattice period of each axis.
    SuperSimplexVector3Tiled([u32; 3]),
    /// Simplex noise of vectors in 2, 3 and 4 dimensions on its lattice
    /// ([`LaneNoise::vector`]).
    SimplexVector2(VectorLattice),
    SimplexVector3(VectorLattice),
    SimplexVector4(VectorLattice),
    /// No lane code faster than the scalar base function (4D cellular with the texture
    /// tables): that function per lane.
    Scalar,
}

impl LaneBase {
    /// The lane function of a vector operation of `source` in `dims` dimensions.
    pub(super) fn vector(source: &VectorSource, dims: usize) -> LaneBase {
        let period = source.period;
        let lattice = period.map(lattice_period);
        // As `base_vector`: the first period decides whether simplex's tiles; the kernel
        // applies untiled.
        let tiled = period[0] > 0.0;
        let continuous = source.kernel == Kernel::Continuous;
        let plain = |r2: f64, scale: f64| VectorLattice::Plain {
            r2: r2 as f32,
            scale: scale as f32,
        };
        match (source.kind, dims) {
            (NoiseKind::SuperSimplex, 2) if tiled => {
                LaneBase::SuperSimplexVector2Tiled([period[0], period[1]])
            }
            (NoiseKind::SuperSimplex, 2) => LaneBase::SuperSimplexVector2,
            (NoiseKind::SuperSimplex, 3) if tiled => {
                LaneBase::SuperSimplexVector3Tiled([lattice[0], lattice[1], lattice[2]])
            }
            (NoiseKind::SuperSimplex, 3) => LaneBase::SuperSimplexVector3,
            (NoiseKind::SuperSimplex, _) => LaneBase::SuperSimplexVector4,
            (NoiseKind::Simplex, 2) if tiled => {
                LaneBase::SimplexVector2(VectorLattice::Torus([period[0], period[1]]))
            }
            (NoiseKind::Simplex, 2) => {
                LaneBase::SimplexVector2(plain(SIMPLEX2_R2, SIMPLEX2_VECTOR_SCALE))
            }
            (NoiseKind::Simplex, 3) if tiled => LaneBase::SimplexVector3(VectorLattice::Periodic(
                [lattice[0], lattice[1], lattice[2]],
            )),
            (NoiseKind::Simplex, 3) if continuous => {
                LaneBase::SimplexVector3(plain(0.5, SIMPLEX3_R05_SCALE))
            }
            (NoiseKind::Simplex, 3) => {
                LaneBase::SimplexVector3(plain(SIMPLEX34_R2, SIMPLEX3_VECTOR_SCALE))
            }
            (NoiseKind::Simplex, _) if continuous => {
                LaneBase::SimplexVector4(plain(0.5, SIMPLEX4_R05_SCALE))
            }
            (NoiseKind::Simplex, _) => {
                LaneBase::SimplexVector4(plain(SIMPLEX34_R2, SIMPLEX4_VECTOR_SCALE))
            }
            (_, 2) => LaneBase::Vector2(lattice),
            (_, 3) => LaneBase::Vector3(lattice),
            _ => LaneBase::Vector4(lattice),
        }
    }

    /// The lane function `base_noise` chooses for `source` in `dims` dimensions with the
    /// `lookup`'s lane code.
    pub(super) fn of(source: &Source, dims: usize, lookup: LookupVariant) -> LaneBase {
        let lattice = source.period.map(lattice_period);
        let continuous = source.kernel == Kernel::Continuous;
        let turn = (source.flow != 0.0).then(|| Turn::new(source.flow));
        match (source.kind, dims) {
            (NoiseKind::Value, 2) => LaneBase::Value2(lattice),
            (NoiseKind::Value, 3) => LaneBase::Value3(lattice),
            (NoiseKind::Value, _) => LaneBase::Value4(lattice),
            // As `base_noise`: the first period decides whether 2D OpenSimplex2S tiles.
            (NoiseKind::SuperSimplex, 2) if source.period[0] > 0.0 => {
                LaneBase::SuperSimplex2Tiled([source.period[0], source.period[1]])
            }
            (NoiseKind::SuperSimplex, 2) => LaneBase::SuperSimplex2,
            (NoiseKind::SuperSimplex, 3) if source.period[0] > 0.0 => {
                LaneBase::SuperSimplex3Tiled([lattice[0], lattice[1], lattice[2]])
            }
            (NoiseKind::SuperSimplex, 3) => LaneBase::SuperSimplex3,
            (NoiseKind::SuperSimplex, _) => LaneBase::SuperSimplex4,
            (NoiseKind::Cellular, 2) => LaneBase::Cellular2(lattice, source.cell),
            (NoiseKind::Cellular, 3) => LaneBase::Cellular3(lattice, source.cell),
            // The lanes visit every cell that any of them visits; in 4D with the texture
            // tables (six gathers a cell) that cost more than the scalar search per lane
            // (docs/performance.md, The SIMD CPU fill).
            (NoiseKind::Cellular, _) if lookup == LookupVariant::Textures => LaneBase::Scalar,
            (NoiseKind::Cellular, _) => LaneBase::Cellular4(lattice, source.cell),
            (NoiseKind::Classic, 2) => LaneBase::Classic2(lattice),
            (NoiseKind::Classic, 3) => LaneBase::Classic3(lattice),
            (NoiseKind::Classic, _) => LaneBase::Classic4(lattice),
            // As `base_noise`: the first period decides whether 2D and 3D simplex tile, and
            // tiling comes before flow.
            (NoiseKind::Simplex, 2) if source.period[0] > 0.0 => {
                LaneBase::Simplex2Tiled([source.period[0], source.period[1]])
            }
            (NoiseKind::Simplex, 2) => LaneBase::Simplex2(turn),
            (NoiseKind::Simplex, 3) if source.period[0] > 0.0 => {
                LaneBase::Simplex3Tiled([lattice[0], lattice[1], lattice[2]])
            }
            (NoiseKind::Simplex, 3) => {
                let (r2, scale) = if continuous {
                    (0.5, SIMPLEX3_R05_SCALE as f32)
                } else {
                    (SIMPLEX34_R2 as f32, 32.0)
                };
                LaneBase::Simplex3 { r2, scale, turn }
            }
            (NoiseKind::Simplex, _) => {
                let (r2, scale) = if continuous {
                    (0.5, SIMPLEX4_R05_SCALE as f32)
                } else {
                    (SIMPLEX34_R2 as f32, 27.0)
                };
                LaneBase::Simplex4 { r2, scale }
            }
        }
    }
}

/// The lane noise functions of one instruction set: the `Level` of each level's module.
pub(super) trait LaneNoise<L: LaneHasher> {
    /// `out[i]` = the noise `base` at the lane points `p[i]` (their first `D` coordinates),
    /// for every `i` of the shorter of the two: one call for a whole row of lane blocks,
    /// so that the call and the function's set-up are paid once.
    ///
    /// # Panics
    /// On [`LaneBase::Scalar`], which has no lane function (a programming error).
    fn eval(lut: &L, base: LaneBase, p: &[[F; 4]], out: &mut [F]);

    /// `out[i]` = the vector noise `base` at the lane points `p[i]`, per component, for
    /// every `i` of the shorter of the two (one call for a row of lane blocks, as `eval`).
    ///
    /// # Panics
    /// On a `base` that is not a vector noise (a programming error).
    fn vector(lut: &L, base: LaneBase, p: &[[F; 4]], out: &mut [[F; 4]]);
}

/// `*out = value` with `point` = each of `p`'s lane blocks and `out` the matching one of
/// `out`, for the shorter of the two (each block ended by `block_done`).
macro_rules! for_each_block {
    ($p:expr, $out:expr, |$point:ident| $value:expr) => {
        for ($point, out) in $p.iter().zip($out) {
            *out = $value;
            block_done(out);
        }
    };
}

/// [`for_each_block!`] two blocks at a time where the ISA pairs chunks (`super::paired`, as
/// the flag fill): LLVM interleaves the two copies' instructions, and the core overlaps
/// their chains of dependent operations (simplex noise is bound by their latency). The
/// last block of an odd count, and every block elsewhere, one at a time. Used by the lane
/// functions it measured faster for (docs/performance.md, "Graphs").
macro_rules! for_each_pair {
    ($p:expr, $out:expr, |$point:ident| $value:expr) => {{
        let (p, out) = ($p, $out);
        let n = p.len().min(out.len());
        let pairs = if super::super::paired::<L, I>() { n / 2 } else { 0 };
        let (p2, p1) = p[..n].split_at(2 * pairs);
        let (out2, out1) = out[..n].split_at_mut(2 * pairs);
        for (pair, out) in p2.chunks_exact(2).zip(out2.chunks_exact_mut(2)) {
            let a = {
                let $point = &pair[0];
                $value
            };
            let b = {
                let $point = &pair[1];
                $value
            };
            out[0] = a;
            block_done(&mut out[0]);
            out[1] = b;
            block_done(&mut out[1]);
        }
        for_each_block!(p1, out1, |$point| $value);
    }};
}

/// [`for_each_block!`] with each block run as two blocks of half its lanes ([`by_halves!`])
/// where the ISA splits blocks (`Isa::HALF_BLOCKS`): `$half` is the value at `$point`, a
/// `&[F<HALF>; 4]`; elsewhere `$whole`, the loop over whole blocks.
macro_rules! for_each_half {
    ($p:expr, $out:expr, |$point:ident| $half:expr, $whole:expr) => {
        if I::HALF_BLOCKS {
            for_each_block!($p, $out, |$point| by_halves!(|$point| [$half])[0])
        } else {
            $whole
        }
    };
}

/// The `turn` a plain (not flow) simplex copy is given and ignores.
const NO_TURN: Turn = Turn { cos: 1.0, sin: 0.0 };

/// A module `$module` with the lane noise functions compiled for one instruction set
/// (`#[target_feature]`) with its lane operations `$isa` (floor, table reads), and their `Level`. Each function runs a
/// slice of lane points (the loop compiled with the features, around the inlined noise).
macro_rules! base_level {
    ($module:ident, $isa:ty $(, $features:literal)?) => {
        pub(super) mod $module {
            use super::super::lanes::{block_done, by_halves, Isa, F, HALF, LANES};
            use super::super::lookup::LaneHasher;
            use super::super::noise::{self, Turn, VectorLattice};
            use super::super::supersimplex;
            use super::super::value;
            use super::{LaneBase, LaneNoise, NO_TURN};
            use crate::cpu::cellular::CellularShape;

            type I = $isa;

            /// The lane functions below, compiled with this level's features: only for
            /// callers that run where the features exist (the fills' per-level `rows` and
            /// `points`, whose callers checked the CPU).
            pub(in super::super) struct Level;

            impl<L: LaneHasher> LaneNoise<L> for Level {
                #[inline(always)]
                fn eval(lut: &L, base: LaneBase, p: &[[F; 4]], out: &mut [F]) {
                    // SAFETY: `Level` is used only by code that runs where the features exist.
                    unsafe {
                        match base {
                            LaneBase::Classic2(l) => classic::<L, 2>(lut, p, &l, out),
                            LaneBase::Classic3(l) => classic::<L, 3>(lut, p, &l, out),
                            LaneBase::Classic4(l) => classic::<L, 4>(lut, p, &l, out),
                            LaneBase::Value2(l) => value::<L, 2>(lut, p, &l, out),
                            LaneBase::Value3(l) => value::<L, 3>(lut, p, &l, out),
                            LaneBase::Value4(l) => value::<L, 4>(lut, p, &l, out),
                            LaneBase::SuperSimplex2 => supersimplex2(lut, p, out),
                            LaneBase::SuperSimplex3 => supersimplex3(lut, p, out),
                            LaneBase::SuperSimplex4 => supersimplex4(lut, p, out),
                            LaneBase::SuperSimplex2Tiled(period) => {
                                supersimplex2_tiled(lut, p, period, out)
                            }
                            LaneBase::SuperSimplex3Tiled(period) => {
                                supersimplex3_tiled(lut, p, period, out)
                            }
                            // Flow noise is its own copy (`FLOW`): a run-time
                            // `Option<Turn>` inside one body would keep the turn's code in
                            // the plain noise. The plain copy ignores its `turn`.
                            LaneBase::Simplex2(None) => simplex2::<L, false>(lut, p, NO_TURN, out),
                            LaneBase::Simplex2(Some(turn)) => simplex2::<L, true>(lut, p, turn, out),
                            LaneBase::Simplex2Tiled(period) => simplex2_tiled(lut, p, period, out),
                            LaneBase::Simplex3 { r2, scale, turn: None } => {
                                simplex3::<L, false>(lut, p, r2, scale, NO_TURN, out)
                            }
                            LaneBase::Simplex3 { r2, scale, turn: Some(turn) } => {
                                simplex3::<L, true>(lut, p, r2, scale, turn, out)
                            }
                            LaneBase::Simplex3Tiled(period) => simplex3_tiled(lut, p, period, out),
                            LaneBase::Simplex4 { r2, scale } => simplex4(lut, p, r2, scale, out),
                            LaneBase::Cellular2(l, shape) => {
                                cellular::<L, 2>(lut, p, &l, &shape, out)
                            }
                            LaneBase::Cellular3(l, shape) => {
                                cellular::<L, 3>(lut, p, &l, &shape, out)
                            }
                            LaneBase::Cellular4(l, shape) => {
                                cellular::<L, 4>(lut, p, &l, &shape, out)
                            }
                            LaneBase::Scalar => unreachable!("evaluated by the scalar function"),
                            LaneBase::Vector2(_)
                            | LaneBase::Vector3(_)
                            | LaneBase::Vector4(_)
                            | LaneBase::SuperSimplexVector2
                            | LaneBase::SuperSimplexVector3
                            | LaneBase::SuperSimplexVector4
                            | LaneBase::SuperSimplexVector2Tiled(_)
                            | LaneBase::SuperSimplexVector3Tiled(_)
                            | LaneBase::SimplexVector2(_)
                            | LaneBase::SimplexVector3(_)
                            | LaneBase::SimplexVector4(_) => {
                                unreachable!("evaluated by `vector`")
                            }
                        }
                    }
                }

                #[inline(always)]
                fn vector(lut: &L, base: LaneBase, p: &[[F; 4]], out: &mut [[F; 4]]) {
                    // SAFETY: as in `eval`.
                    unsafe {
                        match base {
                            LaneBase::Vector2(l) => vector::<L, 2>(lut, p, &l, out),
                            LaneBase::Vector3(l) => vector::<L, 3>(lut, p, &l, out),
                            LaneBase::Vector4(l) => vector::<L, 4>(lut, p, &l, out),
                            LaneBase::SuperSimplexVector2 => supersimplex_vector::<L, 2>(lut, p, out),
                            LaneBase::SuperSimplexVector3 => supersimplex_vector::<L, 3>(lut, p, out),
                            LaneBase::SuperSimplexVector4 => supersimplex_vector::<L, 4>(lut, p, out),
                            LaneBase::SuperSimplexVector2Tiled(period) => {
                                supersimplex_vector2_tiled(lut, p, period, out)
                            }
                            LaneBase::SuperSimplexVector3Tiled(period) => {
                                supersimplex_vector3_tiled(lut, p, period, out)
                            }
                            LaneBase::SimplexVector2(l) => simplex_vector::<L, 2>(lut, p, l, out),
                            LaneBase::SimplexVector3(l) => simplex_vector::<L, 3>(lut, p, l, out),
                            LaneBase::SimplexVector4(l) => simplex_vector::<L, 4>(lut, p, l, out),
                            _ => unreachable!("{base:?} is not a vector noise"),
                        }
                    }
                }
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn vector<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[[F; 4]],
                lattice: &[u32; 4],
                out: &mut [[F; 4]],
            ) {
                for_each_block!(p, out, |q| value::value_vector_point::<L, I, D>(lut, q, lattice));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex_vector<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[[F; 4]],
                out: &mut [[F; 4]],
            ) {
                for_each_block!(p, out, |q| supersimplex::supersimplex_vector_point::<L, I, D>(lut, q));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex_vector2_tiled<L: LaneHasher>(
                lut: &L,
                p: &[[F; 4]],
                period: [f32; 2],
                out: &mut [[F; 4]],
            ) {
                for_each_block!(p, out, |q| {
                    supersimplex::supersimplex_vector2_tiled_point::<L, I>(lut, q, period)
                });
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex_vector3_tiled<L: LaneHasher>(
                lut: &L,
                p: &[[F; 4]],
                period: [u32; 3],
                out: &mut [[F; 4]],
            ) {
                for_each_block!(p, out, |q| {
                    supersimplex::supersimplex_vector3_tiled_point::<L, I>(lut, q, period)
                });
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex_vector<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[[F; 4]],
                lattice: VectorLattice,
                out: &mut [[F; 4]],
            ) {
                match lattice {
                    VectorLattice::Plain { r2, scale } => for_each_block!(p, out, |q| {
                        noise::simplex_vector_point::<L, I, D>(lut, q, r2, scale)
                    }),
                    VectorLattice::Periodic(period) => simplex_vector_periodic(lut, p, period, out),
                    VectorLattice::Torus(period) => simplex_vector_torus(lut, p, period, out),
                }
            }

            // The tiled forms out of line: their code inside the untiled one's slows it.
            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex_vector_periodic<L: LaneHasher>(
                lut: &L,
                p: &[[F; 4]],
                period: [u32; 3],
                out: &mut [[F; 4]],
            ) {
                for_each_block!(p, out, |q| noise::simplex_vector_periodic_point::<L, I>(lut, q, period));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex_vector_torus<L: LaneHasher>(
                lut: &L,
                p: &[[F; 4]],
                period: [f32; 2],
                out: &mut [[F; 4]],
            ) {
                for_each_block!(p, out, |q| noise::simplex_vector_torus_point::<L, I>(lut, q, period));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn classic<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[[F; 4]],
                lattice: &[u32; 4],
                out: &mut [F],
            ) {
                for_each_block!(p, out, |p| noise::classic_point::<L, I, D>(lut, p, lattice));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn value<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[[F; 4]],
                lattice: &[u32; 4],
                out: &mut [F],
            ) {
                for_each_pair!(p, out, |p| value::value_point::<L, I, D>(lut, p, lattice));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex2<L: LaneHasher>(lut: &L, p: &[[F; 4]], out: &mut [F]) {
                for_each_pair!(p, out, |p| supersimplex::supersimplex2_point::<L, I>(lut, p));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex3<L: LaneHasher>(lut: &L, p: &[[F; 4]], out: &mut [F]) {
                for_each_half!(
                    p,
                    out,
                    |p| supersimplex::supersimplex3_point::<L, I, HALF>(lut, p),
                    for_each_pair!(p, out, |p| supersimplex::supersimplex3_point::<L, I, LANES>(
                        lut, p
                    ))
                );
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex4<L: LaneHasher>(lut: &L, p: &[[F; 4]], out: &mut [F]) {
                for_each_block!(p, out, |p| supersimplex::supersimplex4_point::<L, I>(lut, p));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex2_tiled<L: LaneHasher>(
                lut: &L,
                p: &[[F; 4]],
                period: [f32; 2],
                out: &mut [F],
            ) {
                for_each_block!(p, out, |p| {
                    supersimplex::supersimplex2_tiled_point::<L, I>(lut, p, period)
                });
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn supersimplex3_tiled<L: LaneHasher>(
                lut: &L,
                p: &[[F; 4]],
                period: [u32; 3],
                out: &mut [F],
            ) {
                for_each_half!(
                    p,
                    out,
                    |p| supersimplex::supersimplex3_tiled_point::<L, I, HALF>(lut, p, period),
                    for_each_block!(p, out, |p| {
                        supersimplex::supersimplex3_tiled_point::<L, I, LANES>(lut, p, period)
                    })
                );
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex3_tiled<L: LaneHasher>(
                lut: &L,
                p: &[[F; 4]],
                period: [u32; 3],
                out: &mut [F],
            ) {
                for_each_block!(p, out, |p| noise::simplex3_periodic::<L, I>(
                    lut,
                    [p[0], p[1], p[2]],
                    period,
                ));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex2<L: LaneHasher, const FLOW: bool>(
                lut: &L,
                p: &[[F; 4]],
                turn: Turn,
                out: &mut [F],
            ) {
                let turn = FLOW.then_some(turn);
                for_each_block!(p, out, |p| noise::simplex2::<L, I>(lut, p[0], p[1], turn));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex2_tiled<L: LaneHasher>(
                lut: &L,
                p: &[[F; 4]],
                period: [f32; 2],
                out: &mut [F],
            ) {
                for_each_block!(p, out, |p| noise::simplex2_tiled::<L, I>(
                    lut,
                    p[0],
                    p[1],
                    period,
                ));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex3<L: LaneHasher, const FLOW: bool>(
                lut: &L,
                p: &[[F; 4]],
                r2: f32,
                scale: f32,
                turn: Turn,
                out: &mut [F],
            ) {
                let turn = FLOW.then_some(turn);
                for_each_pair!(p, out, |p| noise::simplex3::<L, I, L::GraphOrder3>(
                    lut,
                    [p[0], p[1], p[2]],
                    r2,
                    scale,
                    turn,
                ));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn simplex4<L: LaneHasher>(
                lut: &L,
                p: &[[F; 4]],
                r2: f32,
                scale: f32,
                out: &mut [F],
            ) {
                for_each_block!(p, out, |p| noise::simplex4::<L, I>(lut, *p, r2, scale));
            }

            $(#[target_feature(enable = $features)])?
            #[inline(never)]
            unsafe fn cellular<L: LaneHasher, const D: usize>(
                lut: &L,
                p: &[[F; 4]],
                lattice: &[u32; 4],
                shape: &CellularShape,
                out: &mut [F],
            ) {
                for_each_block!(p, out, |p| super::super::cellular::cellular::<L, I, D>(
                    lut,
                    p,
                    lattice,
                    shape,
                ));
            }
        }
    };
}

level_copies!(base_level);
