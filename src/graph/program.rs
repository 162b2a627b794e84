//! A graph lowered for one dimension count: a list of operations in evaluation order, each
//! producing one register (a point or a value). Every evaluator (the CPU in `f32` and
//! `f64`, the generated WGSL) walks this same list, so they compute the same operations in
//! the same order.
//!
//! Lowering expands what the graph writes once but evaluates at several points: a
//! fractal's source once per octave, a warp's displacement once per axis and iteration.
//! A node used twice at the same point, seed and period is evaluated once.

use std::collections::HashMap;
use std::ops::Range;

use super::spec::{
    Binary, CellularValue, GraphSpec, Input, Map, Metric, NodeKind, NodeSpec, Octaves, Plane,
    WarpFractal, WarpNoise, MAX_DOMAIN_PARAMETER,
};
use super::GraphError;
use crate::cpu::cellular::CellularShape;
use crate::cpu::warp::WARP_SHIFT;
use crate::field::{Cellular, Field, FlagField, FractalMode, Kernel, NoiseKind};
use crate::params::{
    cellular_minkowski, CELLULAR_DISTANCE_CHEBYSHEV, CELLULAR_DISTANCE_EUCLIDEAN,
    CELLULAR_DISTANCE_EUCLIDEAN_SQUARED, CELLULAR_DISTANCE_HYBRID, CELLULAR_DISTANCE_MANHATTAN,
    CELLULAR_F1, CELLULAR_F2, CELLULAR_F3, CELLULAR_F4,
};

/// The range of `pow`'s exponent (a number's, and a driven one's per sample).
pub(crate) const MIN_EXPONENT: f32 = 1.0 / 64.0;
pub(crate) const MAX_EXPONENT: f32 = 64.0;
/// The range of the `distance` node's Minkowski exponent (a node's value is clamped to it).
pub(crate) const MIN_DISTANCE_EXPONENT: f32 = 0.25;
pub(crate) const MAX_DISTANCE_EXPONENT: f32 = 16.0;
/// The largest rotation angle in radians (a number's, and a driven one's per sample).
pub(crate) const MAX_ANGLE: f32 = 1e4;

/// Most noise functions one sample may evaluate once octaves and warps are expanded.
pub const MAX_NOISE_CALLS: usize = 512;
/// Most operations of a lowered graph.
pub const MAX_OPERATIONS: usize = 8192;

/// How a node's `seed` moves its noise: the point is shifted by `seed × SEED_STEP` per
/// axis, wrapped into the lookups' 256-cell period (exact binary fractions, so the shift
/// is the same number in f32 and f64).
pub const SEED_STEP: [f64; 4] = [71.3828125, 113.6875, 89.40625, 53.15625];

/// A register: the index of the operation that produced it.
pub type Reg = usize;

/// A base noise function and its options (the arguments of `base_noise`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Source {
    /// Classic, simplex or cellular.
    pub kind: NoiseKind,
    /// Simplex 3D/4D kernel.
    pub kernel: Kernel,
    /// Cellular options.
    pub cell: CellularShape,
    /// Flow angle (simplex 2D/3D); 0 = plain.
    pub flow: f32,
    /// Tile period per axis in lattice cells; 0 = not tiled.
    pub period: [f32; 4],
}

/// Whether `kind` tiles in 2D as 4D noise on a torus (any period), not on a periodic
/// lattice (whole numbers of cells).
fn on_torus(kind: NoiseKind) -> bool {
    matches!(kind, NoiseKind::Simplex | NoiseKind::SuperSimplex)
}

/// A base noise of vectors and its options (the arguments of `base_vector`): value noise of
/// vectors (`kind` [`NoiseKind::Value`]), simplex noise of vectors ([`NoiseKind::Simplex`],
/// with `kernel` in 3D and 4D) or OpenSimplex2S noise of vectors
/// ([`NoiseKind::SuperSimplex`], tiled in 2D and 3D), tiled with `period` per axis where it
/// is non-zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VectorSource {
    /// Value, simplex or OpenSimplex2S.
    pub kind: NoiseKind,
    /// Simplex 3D/4D kernel.
    pub kernel: Kernel,
    /// Tile period per axis in lattice cells; 0 = not tiled.
    pub period: [f32; 4],
}

/// One operation.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// The sample point.
    Point,
    /// A point times `by`, per axis.
    Scale { p: Reg, by: [f32; 4] },
    /// A point plus `by`.
    Offset { p: Reg, by: [f32; 4] },
    /// A point turned in `plane`: `(c·u − s·v, s·u + c·v)`.
    Rotate {
        p: Reg,
        plane: Plane,
        cos: f32,
        sin: f32,
    },
    /// A point plus `amplitude` times the values `d` (one per axis).
    Displace { p: Reg, d: [Reg; 4], amplitude: f32 },
    /// A base noise function at a point; a cellular source's jitter and Minkowski exponent
    /// the values `driven` names where nodes give them (clamped per sample), else
    /// `source.cell`'s.
    Noise {
        p: Reg,
        source: Source,
        driven: SourceDrivers,
    },
    /// A noise of vectors at a point (`cpu::fractal::base_vector` of `source`): a point, one
    /// component per axis.
    Vector { p: Reg, source: VectorSource },
    /// The position of the nearest cellular feature of a point (`cpu::fractal::base_feature`:
    /// `source`'s jitter and distance, or the values `driven` names; wrapped into the tile
    /// where `source.period` tiles), in the point's coordinates: a point whose Jacobian is 0
    /// (constant inside each cell) but for a driven jitter's, which moves the feature.
    Feature {
        p: Reg,
        source: Source,
        driven: SourceDrivers,
    },
    /// A constant value.
    Constant(f32),
    /// One coordinate of a point.
    Axis { p: Reg, axis: usize },
    /// A point of one dimension more: `p`'s coordinates, then the value `coordinate`.
    AddAxis { p: Reg, coordinate: Reg },
    /// A point of one dimension fewer: `p` without its coordinate `axis`.
    RemoveAxis { p: Reg, axis: usize },
    /// A fractal sum: `Σ amplitude × shape(value)` in order, divided by `norm`.
    Fractal {
        mode: FractalMode,
        terms: Vec<(Reg, f32)>,
        norm: f32,
    },
    /// Two values combined.
    Binary { op: Binary, a: Reg, b: Reg },
    /// `a` to `b` as `t` goes from -1 to 1.
    Blend { a: Reg, b: Reg, t: Reg },
    /// A function of one value.
    Map { op: Map, a: Reg },
}

/// The parameters of a source that nodes give per sample ([`Op::Noise`], [`Op::Feature`]):
/// the registers of their values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SourceDrivers {
    /// The jitter (clamped to 0..1 where it is read: `eval::clamped_jitter`).
    pub jitter: Option<Reg>,
    /// The Minkowski exponent (its register clamped to
    /// [`MIN_CELLULAR_EXPONENT`]..[`MAX_CELLULAR_EXPONENT`] when lowered).
    pub exponent: Option<Reg>,
    /// A flow source's angle (its register clamped to ±[`MAX_ANGLE`] when lowered).
    pub angle: Option<Reg>,
}

impl SourceDrivers {
    /// Whether no parameter is driven.
    pub fn is_none(&self) -> bool {
        self.jitter.is_none() && self.exponent.is_none() && self.angle.is_none()
    }

    /// The registers of the driven parameters.
    pub fn regs(&self) -> impl Iterator<Item = Reg> {
        self.jitter.into_iter().chain(self.exponent).chain(self.angle)
    }
}

/// The range of a cellular Minkowski exponent (the node table's `exponent`): below 1 the
/// nearest feature may be any number of cells away.
pub const MIN_CELLULAR_EXPONENT: f32 = 1.0;
/// The largest cellular Minkowski exponent.
pub const MAX_CELLULAR_EXPONENT: f32 = 16.0;

/// A lowered graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// 2, 3 or 4: the sample point's dimensions, and the gradient's.
    pub(crate) dims: usize,
    /// In evaluation order; operation `i` produces register `i`.
    pub(crate) ops: Vec<Op>,
    /// Per operation, the dimensions of the point it works at ([`point_dims`]).
    pub(crate) point_dims: Vec<usize>,
    /// The register of the output value.
    pub(crate) output: Reg,
    /// For each noise operation, the JSON path of the node it came from (for messages
    /// about what an evaluator cannot do, such as a gradient).
    pub(crate) origins: HashMap<Reg, String>,
    /// For each fractal operation, the operations each of its octaves added, in order
    /// (the WGSL emitter writes octaves of one shape as a loop).
    pub(crate) octave_ranges: HashMap<Reg, Vec<Range<Reg>>>,
}

impl Program {
    /// The dimensions of the points it is sampled at: 2, 3 or 4.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The dimensions operation `r` works with.
    pub(crate) fn dims_at(&self, r: Reg) -> Dims {
        Dims {
            sample: self.dims,
            point: self.point_dims[r],
        }
    }

    internal! {
        /// The operations in evaluation order; operation `i` produces register `i`.
        pub fn ops(&self) -> &[Op] {
            &self.ops
        }
    }

    internal! {
        /// The dimensions of the point operation `r` works at ([`Program::dims`] but under
        /// an `add-dimension` or a `remove-dimension`).
        pub fn point_dims(&self, r: Reg) -> usize {
            self.point_dims[r]
        }
    }

    /// The number of noise functions one sample evaluates.
    pub fn noise_calls(&self) -> usize {
        self.ops
            .iter()
            .filter(|op| {
                matches!(
                    op,
                    Op::Noise { .. } | Op::Vector { .. } | Op::Feature { .. }
                )
            })
            .count()
    }

    /// Whether a field may move its offset by whole periods before rounding it to `f32`
    /// ([`Program::sampled_field`]), and on which lattice: `Some` when such a shift leaves
    /// the program's value unchanged. Tiled, the tile period is one of every source (the
    /// lowering carries it through scales and octaves) unless a position is read. Untiled,
    /// the 256-cell periods of one lattice (`field::reduce_by_periods`) are, when
    /// every source is on it (classic and cellular, or simplex) and every scale is a whole
    /// number; a rotation or a position breaks it.
    ///
    /// A point is shifted by a period when the sample point is: offsets keep the shift,
    /// scales move it to a period of the scaled source, and a displacement by values that
    /// repeat keeps it too.
    pub fn lattice(&self) -> Option<NoiseKind> {
        let tiled = self.ops.iter().any(|op| {
            let period = match op {
                Op::Noise { source, .. } | Op::Feature { source, .. } => &source.period,
                Op::Vector { source, .. } => &source.period,
                _ => return false,
            };
            period[..self.dims].iter().any(|&p| p > 0.0)
        });
        let dims = |r: Reg| self.point_dims[r];
        // Per register: whether a shift of the sample point by a period shifts this point
        // by a period (points), or leaves this value unchanged (values).
        let mut periodic = vec![false; self.ops.len()];
        let mut lattice: Option<NoiseKind> = None;
        let whole = |r: Reg, by: &[f32; 4]| tiled || by[..dims(r)].iter().all(|v| v.fract() == 0.0);
        for (r, op) in self.ops.iter().enumerate() {
            periodic[r] = match op {
                Op::Point | Op::Constant(_) => true,
                Op::Scale { p, by } => periodic[*p] && whole(r, by),
                Op::Offset { p, .. } => periodic[*p],
                Op::Rotate { .. } | Op::Axis { .. } => false,
                Op::Displace { p, d, .. } => {
                    periodic[*p] && d[..dims(r)].iter().all(|&v| periodic[v])
                }
                // Tiled, a shift by a period leaves the feature unchanged (wrapped into the
                // tile); untiled, it moves it by the 256-cell period of its lattice.
                Op::Noise { p, .. } | Op::Vector { p, .. } | Op::Feature { p, .. } => {
                    // Cellular and value noise hash cells on the square lattice, as classic
                    // noise.
                    // SuperSimplex in 3D repeats every 768 (`field::reduce_by_periods`).
                    let kind = match op {
                        Op::Noise { source, .. } if source.kind == NoiseKind::Simplex => {
                            NoiseKind::Simplex
                        }
                        Op::Noise { source, .. } if source.kind == NoiseKind::SuperSimplex => {
                            NoiseKind::SuperSimplex
                        }
                        Op::Vector { source, .. }
                            if matches!(
                                source.kind,
                                NoiseKind::Simplex | NoiseKind::SuperSimplex
                            ) =>
                        {
                            source.kind
                        }
                        _ => NoiseKind::Classic,
                    };
                    // Untiled, 2D SuperSimplex's skew is irrational: it has no period. 4D
                    // SuperSimplex is on 4D simplex noise's lattice, with its period.
                    if kind == NoiseKind::SuperSimplex && dims(r) == 2 && !tiled {
                        continue;
                    }
                    let kind = if kind == NoiseKind::SuperSimplex && dims(r) == 4 {
                        NoiseKind::Simplex
                    } else {
                        kind
                    };
                    let same = *lattice.get_or_insert(kind) == kind;
                    // A driven jitter or exponent, a value, must repeat too.
                    let drivers = match op {
                        Op::Noise { driven, .. } | Op::Feature { driven, .. } => {
                            driven.regs().all(|v| periodic[v])
                        }
                        _ => true,
                    };
                    periodic[*p] && (same || tiled) && drivers
                }
                // A shift along the sample's axes leaves the added coordinate, a value, as it
                // is where that value repeats; a removed axis takes its shift with it.
                Op::AddAxis { p, coordinate } => periodic[*p] && periodic[*coordinate],
                Op::RemoveAxis { p, .. } => periodic[*p],
                Op::Fractal { terms, .. } => terms.iter().all(|&(v, _)| periodic[v]),
                Op::Binary { a, b, .. } => periodic[*a] && periodic[*b],
                Op::Blend { a, b, t } => periodic[*a] && periodic[*b] && periodic[*t],
                Op::Map { a, .. } => periodic[*a],
            };
        }
        periodic[self.output].then_some(lattice.unwrap_or(NoiseKind::Classic))
    }

    /// `field` as this program samples it: `sampled_field` of its [`Program::lattice`].
    pub fn sampled_field(&self, field: &Field) -> FlagField {
        sampled_field(self.lattice(), field)
    }
}

/// `field` as a program of `lattice` ([`Program::lattice`]) samples it: the grid with the
/// lattice's kind and default options, its offset reduced by whole periods
/// ([`crate::field::FlagField::reduced_offset`]: by the tile period when tiled, else by the
/// lattice's) only when the program repeats so.
pub fn sampled_field(lattice: Option<NoiseKind>, field: &Field) -> FlagField {
    let mut grid = field.clone();
    grid.reduce_offset = field.reduce_offset && lattice.is_some();
    FlagField::on(grid, lattice.unwrap_or(NoiseKind::Classic))
}

/// The dimension counts an operation works with: the sample's (the gradient's length) and
/// those of the point it works at (below an `add-dimension` or a `remove-dimension`, one
/// more or fewer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub sample: usize,
    pub point: usize,
}

/// The dimensions of the point operation `op` works at, from those of the registers before
/// it, `before`: a point operation's own, a noise operation's point's; the sample's for a
/// value.
fn point_dims(op: &Op, before: &[usize], sample: usize) -> usize {
    match *op {
        Op::Scale { p, .. }
        | Op::Offset { p, .. }
        | Op::Rotate { p, .. }
        | Op::Displace { p, .. }
        | Op::Noise { p, .. }
        | Op::Vector { p, .. }
        | Op::Feature { p, .. } => before[p],
        Op::AddAxis { p, .. } => before[p] + 1,
        Op::RemoveAxis { p, .. } => before[p] - 1,
        Op::Point
        | Op::Constant(_)
        | Op::Axis { .. }
        | Op::Fractal { .. }
        | Op::Binary { .. }
        | Op::Blend { .. }
        | Op::Map { .. } => sample,
    }
}

/// Where a node is evaluated: its point, the seed its sources add, the tile period there.
#[derive(Clone, Copy, Debug)]
struct Context {
    point: Reg,
    seed: i64,
    period: [f32; 4],
}

/// A node (by its address in the spec, which outlives the lowering: a path string would
/// copy long names into every key), the point, seed and period it is evaluated at.
type MemoKey = (*const NodeSpec, Reg, i64, [u32; 4]);

struct Lowering<'a> {
    spec: &'a GraphSpec,
    dims: usize,
    ops: Vec<Op>,
    /// Per operation, [`point_dims`].
    point_dims: Vec<usize>,
    origins: HashMap<Reg, String>,
    octave_ranges: HashMap<Reg, Vec<Range<Reg>>>,
    memo: HashMap<MemoKey, Reg>,
    constants: HashMap<u32, Reg>,
    /// Named nodes being lowered, outermost first (a name met again is a cycle).
    stack: Vec<String>,
    noise_calls: usize,
}

fn err(path: &str, message: impl Into<String>) -> GraphError {
    GraphError {
        path: path.to_string(),
        message: message.into(),
    }
}

/// Lowers `spec` for `dims` dimensions.
pub fn lower(spec: &GraphSpec, dims: usize, period: [f32; 4]) -> Result<Program, GraphError> {
    if !(2..=4).contains(&dims) {
        return Err(err(
            "",
            format!("graphs take 2, 3 or 4 dimensions, not {dims}"),
        ));
    }
    let mut l = Lowering {
        spec,
        dims,
        ops: vec![Op::Point],
        point_dims: vec![dims],
        origins: HashMap::new(),
        octave_ranges: HashMap::new(),
        memo: HashMap::new(),
        constants: HashMap::new(),
        stack: Vec::new(),
        noise_calls: 0,
    };
    let ctx = Context {
        point: 0,
        seed: 0,
        period,
    };
    let output = l.named(&spec.output, "output", ctx, 0)?;
    Ok(Program {
        dims,
        ops: l.ops,
        point_dims: l.point_dims,
        output,
        origins: l.origins,
        octave_ranges: l.octave_ranges,
    })
}

impl Lowering<'_> {
    fn push(&mut self, op: Op, path: &str) -> Result<Reg, GraphError> {
        if self.ops.len() >= MAX_OPERATIONS {
            return Err(err(
                path,
                format!(
                    "the graph expands to more than {MAX_OPERATIONS} operations per sample \
                     (octaves and warps multiply the nodes under them)"
                ),
            ));
        }
        self.point_dims
            .push(point_dims(&op, &self.point_dims, self.dims));
        self.ops.push(op);
        Ok(self.ops.len() - 1)
    }

    /// The dimensions of the point `p`.
    fn point_dims(&self, p: Reg) -> usize {
        self.point_dims[p]
    }

    fn constant(&mut self, v: f32, path: &str) -> Result<Reg, GraphError> {
        if let Some(&r) = self.constants.get(&v.to_bits()) {
            return Ok(r);
        }
        let r = self.push(Op::Constant(v), path)?;
        self.constants.insert(v.to_bits(), r);
        Ok(r)
    }

    /// Coordinate `axis` of the point: not periodic, so refused in a tiled field (where it
    /// would leave seams the field promises not to have).
    fn axis(&mut self, axis: usize, path: &str, ctx: Context) -> Result<Reg, GraphError> {
        if ctx.period.iter().any(|&p| p > 0.0) {
            return Err(err(
                path,
                "reads the point's coordinates, which do not repeat: it does not tile",
            ));
        }
        self.push(Op::Axis { p: ctx.point, axis }, path)
    }

    fn binary(&mut self, op: Binary, a: Reg, b: Reg, path: &str) -> Result<Reg, GraphError> {
        self.push(Op::Binary { op, a, b }, path)
    }

    /// `a op c` for a constant `c`.
    fn by_constant(&mut self, op: Binary, a: Reg, c: f32, path: &str) -> Result<Reg, GraphError> {
        let b = self.constant(c, path)?;
        self.binary(op, a, b, path)
    }

    /// `terms` combined by `op` from the first to the last.
    fn fold(&mut self, op: Binary, terms: &[Reg], path: &str) -> Result<Reg, GraphError> {
        let (&first, rest) = terms.split_first().expect("at least one term");
        rest.iter()
            .try_fold(first, |sum, &t| self.binary(op, sum, t, path))
    }

    /// Axis `a`'s input of the per-axis parameter `key`, `inputs` (a number's constant, or
    /// the node's value).
    fn axis_input(
        &mut self,
        inputs: &[Input],
        key: &str,
        a: usize,
        path: &str,
        ctx: Context,
        depth: usize,
    ) -> Result<Reg, GraphError> {
        let apath = format!("{}[{a}]", self.sub(path, key));
        self.input(&inputs[a], &apath, ctx, depth)
    }

    /// The `distance` node: the differences to its point per axis, `to_point`, measured by
    /// `metric`, Minkowski's exponent the value `exponent` where a node gives it.
    fn distance(
        &mut self,
        to_point: &[Reg],
        metric: Metric,
        exponent: Option<Reg>,
        path: &str,
    ) -> Result<Reg, GraphError> {
        let mut terms = Vec::with_capacity(to_point.len());
        for &d in to_point {
            let square = |l: &mut Self| l.binary(Binary::Multiply, d, d, path);
            let abs = |l: &mut Self| l.push(Op::Map { op: Map::Abs, a: d }, path);
            terms.push(match metric {
                Metric::Euclidean | Metric::EuclideanSquared => square(self)?,
                Metric::Manhattan | Metric::Chebyshev => abs(self)?,
                Metric::Hybrid => {
                    let (s, m) = (square(self)?, abs(self)?);
                    self.binary(Binary::Add, s, m, path)?
                }
                Metric::Minkowski { exponent: number } => {
                    let m = abs(self)?;
                    match exponent {
                        None => self.push(
                            Op::Map {
                                op: Map::Pow { exponent: number },
                                a: m,
                            },
                            path,
                        )?,
                        Some(e) => self.binary(Binary::Pow, m, e, path)?,
                    }
                }
            });
        }
        let combine = match metric {
            Metric::Chebyshev => Binary::Max,
            _ => Binary::Add,
        };
        let sum = self.fold(combine, &terms, path)?;
        let root = match (metric, exponent) {
            (Metric::Minkowski { .. }, Some(e)) => {
                let one = self.constant(1.0, path)?;
                let root = self.binary(Binary::Divide, one, e, path)?;
                return self.binary(Binary::Pow, sum, root, path);
            }
            (Metric::Euclidean, _) => 0.5,
            (Metric::Minkowski { exponent }, None) => 1.0 / exponent,
            _ => return Ok(sum),
        };
        self.push(Op::Map { op: Map::Pow { exponent: root }, a: sum }, path)
    }

    fn input(
        &mut self,
        input: &Input,
        path: &str,
        ctx: Context,
        depth: usize,
    ) -> Result<Reg, GraphError> {
        match input {
            Input::Named(name) => self.named(name, path, ctx, depth),
            Input::Inline(node) => self.node(node, ctx, depth),
            Input::Constant(v) => self.constant(*v, path),
        }
    }

    fn named(
        &mut self,
        name: &str,
        path: &str,
        ctx: Context,
        depth: usize,
    ) -> Result<Reg, GraphError> {
        let Some(node) = self.spec.nodes.get(name) else {
            return Err(err(path, format!("no node is named \"{name}\"")));
        };
        if let Some(start) = self.stack.iter().position(|n| n == name) {
            let mut cycle: Vec<&str> = self.stack[start..].iter().map(String::as_str).collect();
            cycle.push(name);
            return Err(err(path, format!("a cycle: {}", cycle.join(" → "))));
        }
        self.stack.push(name.to_string());
        let r = self.node(node, ctx, depth);
        self.stack.pop();
        r
    }

    fn node(&mut self, spec: &NodeSpec, ctx: Context, depth: usize) -> Result<Reg, GraphError> {
        let path = spec.path.as_str();
        if depth >= super::spec::MAX_DEPTH {
            return Err(err(
                path,
                format!("the graph is deeper than {} nodes", super::spec::MAX_DEPTH),
            ));
        }
        let key = (
            spec as *const NodeSpec,
            ctx.point,
            ctx.seed,
            ctx.period.map(f32::to_bits),
        );
        if let Some(&r) = self.memo.get(&key) {
            return Ok(r);
        }
        let r = self.lower_node(spec, ctx, depth + 1)?;
        self.memo.insert(key, r);
        Ok(r)
    }

    fn sub(&self, path: &str, key: &str) -> String {
        format!("{path}.{key}")
    }

    /// Whether `ctx` tiles along any of the program's axes.
    fn tiled(&self, ctx: Context) -> bool {
        ctx.period[..self.point_dims(ctx.point)].iter().any(|&p| p > 0.0)
    }

    fn noise(
        &mut self,
        kind: NoiseKind,
        options: NoiseOptions,
        path: &str,
        ctx: Context,
    ) -> Result<Reg, GraphError> {
        let dims = self.point_dims(ctx.point);
        let tiled = self.tiled(ctx);
        if tiled && kind == NoiseKind::Simplex && dims == 4 {
            return Err(err(path, "simplex noise does not tile in 4D"));
        }
        if kind == NoiseKind::SuperSimplex && tiled && dims == 4 {
            return Err(err(
                path,
                "supersimplex noise does not tile in 4D (its lattice there repeats on no \
                 square period)",
            ));
        }
        if options.flow != 0.0 || options.driven.angle.is_some() {
            if dims == 4 {
                return Err(err(path, "flow noise is 2D and 3D only"));
            }
            if tiled {
                return Err(err(path, "flow noise does not tile"));
            }
        }
        // 2D simplex and SuperSimplex noise tile on a torus of any period; the periodic
        // lattices of the others take whole numbers of cells (base_noise rounds).
        let whole_periods = !(on_torus(kind) && dims == 2);
        let p = self.noise_point(whole_periods, options.seed, path, ctx)?;
        let source = Source {
            kind,
            kernel: options.kernel,
            cell: options.cell,
            flow: options.flow,
            period: ctx.period,
        };
        let r = self.push(
            Op::Noise {
                p,
                source,
                driven: options.driven,
            },
            path,
        )?;
        self.origins.insert(r, path.to_string());
        Ok(r)
    }

    /// A noise of vectors of `kind` with simplex kernel `kernel` ([`Op::Vector`]) at `ctx`
    /// (its noise's `seed` added to the context's): a point.
    fn vector(
        &mut self,
        kind: NoiseKind,
        kernel: Kernel,
        seed: i64,
        path: &str,
        ctx: Context,
    ) -> Result<Reg, GraphError> {
        let dims = self.point_dims(ctx.point);
        let tiled = self.tiled(ctx);
        if kind == NoiseKind::SuperSimplex && tiled && dims == 4 {
            return Err(err(
                path,
                "supersimplex-vector noise does not tile in 4D (its lattice there repeats on \
                 no square period)",
            ));
        }
        if kind == NoiseKind::Simplex && tiled && dims == 4 {
            return Err(err(path, "simplex-vector noise does not tile in 4D"));
        }
        // As the scalar noise's: the 2D torus takes any period, the 3D periodic lattice
        // (and value noise's) whole numbers of cells.
        let whole_periods = !(on_torus(kind) && dims == 2);
        let p = self.noise_point(whole_periods, seed, path, ctx)?;
        let source = VectorSource {
            kind,
            kernel,
            period: ctx.period,
        };
        let r = self.push(Op::Vector { p, source }, path)?;
        self.origins.insert(r, path.to_string());
        Ok(r)
    }

    /// The `cellular-lookup` node: the nearest feature of the point moved by the seed (the
    /// context's plus `seed`), moved back by that seed, so that it is in the context's
    /// coordinates (its cell plus its jittered offset, wrapped into the tile where the
    /// context tiles), then `source` at that position times `frequency`. The lookup is
    /// evaluated untiled (the feature repeats with the tile, so the lookup does) with the
    /// context's seed: the node's own `seed` moves the features only.
    fn cellular_lookup(
        &mut self,
        lookup: &Lookup,
        path: &str,
        ctx: Context,
        depth: usize,
    ) -> Result<Reg, GraphError> {
        let Lookup {
            source,
            frequency,
            seed,
            cell,
            driven,
        } = *lookup;
        let q = self.noise_point(true, seed, path, ctx)?;
        let options = NoiseOptions::seeded(seed);
        let feature = Source {
            kind: NoiseKind::Cellular,
            kernel: options.kernel,
            cell,
            flow: options.flow,
            period: ctx.period,
        };
        let mut at = self.push(
            Op::Feature {
                p: q,
                source: feature,
                driven,
            },
            path,
        )?;
        self.origins.insert(at, path.to_string());
        let seed = ctx.seed + seed;
        if seed != 0 {
            let by = SEED_STEP.map(|s| -(((seed as f64) * s).rem_euclid(256.0) as f32));
            at = self.push(Op::Offset { p: at, by }, path)?;
        }
        let untiled = Context {
            point: at,
            seed: ctx.seed,
            period: [0.0; 4],
        };
        // A node-driven frequency (evaluated at the node's point) scales the feature's
        // position as a scale by a node scales a point: the Jacobian gains `position ∇f`.
        let at = match frequency {
            Input::Constant(f) => self.push(
                Op::Scale {
                    p: at,
                    by: [*f; 4],
                },
                path,
            )?,
            node => {
                let f = self.input(node, &self.sub(path, "frequency"), ctx, depth)?;
                self.moved_by(true, [f; 4], path, untiled)?
            }
        };
        let c = Context {
            point: at,
            ..untiled
        };
        self.input(source, &self.sub(path, "source"), c, depth)
    }

    /// A node's Minkowski exponent given by a node: read for `minkowski` only, evaluated at
    /// the node's point and clamped per sample to `range`, the number's range.
    fn driven_exponent(
        &mut self,
        exponent: &Option<Input>,
        metric: Metric,
        range: Map,
        path: &str,
        ctx: Context,
        depth: usize,
    ) -> Result<Option<Reg>, GraphError> {
        match (exponent, metric) {
            (Some(e), Metric::Minkowski { .. }) => {
                let e = self.input(e, &self.sub(path, "exponent"), ctx, depth)?;
                Ok(Some(self.push(Op::Map { op: range, a: e }, path)?))
            }
            _ => Ok(None),
        }
    }

    /// A cellular node's jitter (its number, 1 where a node gives it) and the parameters
    /// nodes give per sample, evaluated at the node's point: a driven jitter is clamped where
    /// it is read (the search's reach holds for any jitter up to 1), a driven exponent here.
    fn cell_drivers(
        &mut self,
        jitter: &Input,
        exponent: &Option<Input>,
        metric: Metric,
        path: &str,
        ctx: Context,
        depth: usize,
    ) -> Result<(f32, SourceDrivers), GraphError> {
        let (jitter, driven_jitter) = match jitter {
            Input::Constant(j) => (*j, None),
            node => (1.0, Some(self.input(node, &self.sub(path, "jitter"), ctx, depth)?)),
        };
        let range = Map::Clamp {
            min: MIN_CELLULAR_EXPONENT,
            max: MAX_CELLULAR_EXPONENT,
        };
        let exponent = self.driven_exponent(exponent, metric, range, path, ctx, depth)?;
        let driven = SourceDrivers {
            jitter: driven_jitter,
            exponent,
            angle: None,
        };
        Ok((jitter, driven))
    }

    /// Where a noise of the node at `path` is evaluated in `ctx`, counted against
    /// [`MAX_NOISE_CALLS`]: the context's point, moved by the seed (the context's plus
    /// `seed`); its tile period checked (whole numbers of cells where `whole_periods`).
    fn noise_point(
        &mut self,
        whole_periods: bool,
        seed: i64,
        path: &str,
        ctx: Context,
    ) -> Result<Reg, GraphError> {
        let dims = self.point_dims(ctx.point);
        if self.tiled(ctx) {
            for (a, &p) in ctx.period[..dims].iter().enumerate() {
                if p <= 0.0 || (whole_periods && p != p.round()) || p > 65536.0 {
                    return Err(err(
                        path,
                        format!(
                            "tiles with a period of {p} cells along axis {a} here: a tiled \
                             field needs whole periods at every source (scale and octave \
                             frequencies that keep them whole)"
                        ),
                    ));
                }
            }
        }
        self.noise_calls += 1;
        if self.noise_calls > MAX_NOISE_CALLS {
            return Err(err(
                path,
                format!(
                    "the graph evaluates more than {MAX_NOISE_CALLS} noise functions per \
                     sample (octaves and warps multiply the nodes under them)"
                ),
            ));
        }
        let mut p = ctx.point;
        let seed = ctx.seed + seed;
        if seed != 0 {
            let by = SEED_STEP.map(|s| ((seed as f64) * s).rem_euclid(256.0) as f32);
            p = self.push(Op::Offset { p, by }, path)?;
        }
        Ok(p)
    }

    /// The `white` node: value noise at the lattice point `⌊p⌋` (there it is that point's
    /// value, unblended), `⌊x⌋` as `x − (x mod 1)` (exact in f32), the point built by
    /// displacing the origin (`p × 0`) by the cells. The seed moves it by whole cells
    /// (`SEED_STEP` rounded down), so it stays on the lattice.
    fn white(&mut self, seed: i64, path: &str, ctx: Context) -> Result<Reg, GraphError> {
        let mut d = [0; 4];
        for (a, d) in d.iter_mut().enumerate().take(self.point_dims(ctx.point)) {
            let x = self.axis(a, path, ctx)?;
            let fraction = self.by_constant(Binary::Modulus, x, 1.0, path)?;
            *d = self.binary(Binary::Subtract, x, fraction, path)?;
        }
        let origin = self.push(
            Op::Scale {
                p: ctx.point,
                by: [0.0; 4],
            },
            path,
        )?;
        let mut cell = self.push(
            Op::Displace {
                p: origin,
                d,
                amplitude: 1.0,
            },
            path,
        )?;
        let seed = ctx.seed + seed;
        if seed != 0 {
            let by = SEED_STEP.map(|s| ((seed as f64) * s).rem_euclid(256.0).floor() as f32);
            cell = self.push(Op::Offset { p: cell, by }, path)?;
        }
        let at_cell = Context {
            point: cell,
            seed: 0,
            period: ctx.period,
        };
        self.noise(NoiseKind::Value, NoiseOptions::seeded(0), path, at_cell)
    }

    /// Octaves of `source` at `ctx`, each at the point and period times the octave's
    /// frequency, in the order of operations of `cpu::fractal::fractal`; `driven`: the
    /// register of a gain a node gives per sample (`o.gain` is then that node), and the
    /// weighted strength, a number or such a register.
    fn octaves(
        &mut self,
        source: &mut dyn FnMut(&mut Self, Context) -> Result<Reg, GraphError>,
        o: &Octaves,
        driven: Driven,
        path: &str,
        ctx: Context,
    ) -> Result<Reg, GraphError> {
        let Driven {
            gain,
            strength,
            lacunarity,
        } = driven;
        let constant = |input: &Input| match input {
            Input::Constant(v) => *v,
            _ => 1.0,
        };
        let constant_gain = constant(&o.gain);
        let (scales, norm) = octave_scales(o.count, constant(&o.lacunarity), constant_gain, path)?;
        let lacunarity = match lacunarity {
            Some(_) if self.tiled(ctx) => {
                return Err(err(
                    &self.sub(path, "lacunarity"),
                    "a lacunarity given by a node does not tile (each octave's tile period \
                     would change from sample to sample)",
                ))
            }
            Some(l) => Some(self.push(Op::Map { op: LACUNARITY_RANGE, a: l }, path)?),
            None => None,
        };
        let mut driven_frequency: Option<Reg> = None;
        let mut terms = Vec::with_capacity(scales.len());
        let mut ranges = Vec::with_capacity(scales.len());
        for (k, (frequency, amplitude)) in scales.into_iter().enumerate() {
            let start = self.ops.len();
            let point = match lacunarity {
                // `lacunarity^k` as `octave_scales` computes it (`1 × l` is `l`), the point
                // scaled by it as `moved_by` scales (the same bits as `Op::Scale`).
                Some(l) if k > 0 => {
                    let f = match driven_frequency {
                        None => l,
                        Some(f) => self.binary(Binary::Multiply, f, l, path)?,
                    };
                    driven_frequency = Some(f);
                    self.moved_by(true, [f; 4], path, ctx)?
                }
                _ => self.octave_point(ctx.point, frequency, path)?,
            };
            let octave = Context {
                point,
                seed: ctx.seed + o.seed_step * k as i64,
                period: ctx.period.map(|p| p * frequency),
            };
            terms.push((source(self, octave)?, amplitude));
            ranges.push(start..self.ops.len());
        }
        if let Some(gain) = gain {
            return self.driven_sum(&terms, gain, o.mode, strength, path);
        }
        check_norm(norm, constant_gain, path)?;
        if let Some(strength) = strength {
            return match o.mode {
                FractalMode::Fbm => self.weighted_sum(&terms, o.mode, strength, norm, path),
                FractalMode::Ridged => {
                    let ridges = self.ridges(&terms, path)?;
                    self.weighted_sum(&ridges, o.mode, strength, norm, path)
                }
                FractalMode::Turbulence => unreachable!("turbulence has no weighted strength"),
            };
        }
        let r = self.push(
            Op::Fractal {
                mode: o.mode,
                terms,
                norm,
            },
            path,
        )?;
        self.octave_ranges.insert(r, ranges);
        Ok(r)
    }

    /// The octaves `terms` summed with a gain `gain` a node gives per sample, as operations:
    /// each octave shaped by the fractal's mode (turbulence `|n|`, ridged [`Self::ridges`]),
    /// octave `k` of amplitude `gain^k` (and weighted as [`Self::weighted_sum`]), the sum over
    /// the amplitudes' sum (0 where that is 0: `divide`'s rule).
    fn driven_sum(
        &mut self,
        terms: &[(Reg, f32)],
        gain: Reg,
        mode: FractalMode,
        strength: Option<Hybrid>,
        path: &str,
    ) -> Result<Reg, GraphError> {
        let shaped: Vec<Reg> = match mode {
            FractalMode::Fbm => terms.iter().map(|&(n, _)| n).collect(),
            FractalMode::Turbulence => terms
                .iter()
                .map(|&(n, _)| self.push(Op::Map { op: Map::Abs, a: n }, path))
                .collect::<Result<_, _>>()?,
            FractalMode::Ridged => self.ridges(terms, path)?.into_iter().map(|(r, _)| r).collect(),
        };
        let mut amplitude = self.constant(1.0, path)?;
        let (mut sum, mut norm, mut weight) = (None, None, None);
        for (k, &v) in shaped.iter().enumerate() {
            if k > 0 {
                amplitude = self.binary(Binary::Multiply, amplitude, gain, path)?;
            }
            let mut term = self.binary(Binary::Multiply, v, amplitude, path)?;
            if let Some(w) = weight {
                term = self.binary(Binary::Multiply, term, w, path)?;
            }
            sum = Some(match sum {
                None => term,
                Some(total) => self.binary(Binary::Add, total, term, path)?,
            });
            norm = Some(match norm {
                None => amplitude,
                Some(total) => self.binary(Binary::Add, total, amplitude, path)?,
            });
            if let (Some(strength), true) = (strength, k + 1 < shaped.len()) {
                let factor = self.weight_factor(mode, v, strength, path)?;
                weight = Some(match weight {
                    None => factor,
                    Some(w) => self.binary(Binary::Multiply, w, factor, path)?,
                });
            }
        }
        let (sum, norm) = (sum.expect("an octave"), norm.expect("an octave"));
        self.binary(Binary::Divide, sum, norm, path)
    }

    /// The ridged octaves of `Op::Fractal`'s rule as operations: each octave `n` becomes
    /// `(1 − |n|)²` times the previous ridge's weight, the weight `clamp(2 r, 0, 1)` of its
    /// ridge `r` (1 before the first); the amplitudes kept.
    fn ridges(&mut self, terms: &[(Reg, f32)], path: &str) -> Result<Vec<(Reg, f32)>, GraphError> {
        let mut out = Vec::with_capacity(terms.len());
        let mut weight = None;
        for &(n, amplitude) in terms {
            let magnitude = self.push(Op::Map { op: Map::Abs, a: n }, path)?;
            let one = self.constant(1.0, path)?;
            let ridge = self.binary(Binary::Subtract, one, magnitude, path)?;
            let mut r = self.binary(Binary::Multiply, ridge, ridge, path)?;
            if let Some(w) = weight {
                r = self.binary(Binary::Multiply, r, w, path)?;
            }
            let twice = self.by_constant(Binary::Multiply, r, 2.0, path)?;
            let clamp = Map::Clamp { min: 0.0, max: 1.0 };
            weight = Some(self.push(Op::Map { op: clamp, a: twice }, path)?);
            out.push((r, amplitude));
        }
        Ok(out)
    }

    /// The factor a weighted strength scales the octaves after `v` by: fBm's `lerp(1, (v +
    /// 1) / 2, s)` of each octave `v`, ridged's `lerp(1, v, s)` of each ridge `v`. A constant
    /// strength as `scale × v + offset`, a driven one as `1 + s (w − 1)` of the lerp's end
    /// `w`.
    fn weight_factor(
        &mut self,
        mode: FractalMode,
        v: Reg,
        strength: Hybrid,
        path: &str,
    ) -> Result<Reg, GraphError> {
        match strength {
            Hybrid::Constant(s) => {
                let [scale, offset] = match mode {
                    FractalMode::Fbm => [0.5 * s, 1.0 - 0.5 * s],
                    _ => [s, 1.0 - s],
                };
                let scaled = self.by_constant(Binary::Multiply, v, scale, path)?;
                self.by_constant(Binary::Add, scaled, offset, path)
            }
            Hybrid::Driven(s) => {
                let below = match mode {
                    FractalMode::Fbm => {
                        let half = self.by_constant(Binary::Multiply, v, 0.5, path)?;
                        self.by_constant(Binary::Subtract, half, 0.5, path)?
                    }
                    _ => self.by_constant(Binary::Subtract, v, 1.0, path)?,
                };
                let scaled = self.binary(Binary::Multiply, below, s, path)?;
                self.by_constant(Binary::Add, scaled, 1.0, path)
            }
        }
    }

    /// Octaves with a weighted strength (FastNoise2's): every octave after the first is also
    /// scaled by [`Self::weight_factor`] of each octave `v` before it, so octaves grow on the
    /// peaks of the ones below; the sum over the amplitudes' sum `norm`. Written as
    /// operations, so every evaluator and its derivative follow.
    fn weighted_sum(
        &mut self,
        terms: &[(Reg, f32)],
        mode: FractalMode,
        strength: Hybrid,
        norm: f32,
        path: &str,
    ) -> Result<Reg, GraphError> {
        let (mut sum, mut weight) = (None, None);
        for (k, &(n, amplitude)) in terms.iter().enumerate() {
            let mut term = self.by_constant(Binary::Multiply, n, amplitude, path)?;
            if let Some(w) = weight {
                term = self.binary(Binary::Multiply, term, w, path)?;
            }
            sum = Some(match sum {
                None => term,
                Some(total) => self.binary(Binary::Add, total, term, path)?,
            });
            if k + 1 < terms.len() {
                let factor = self.weight_factor(mode, n, strength, path)?;
                weight = Some(match weight {
                    None => factor,
                    Some(w) => self.binary(Binary::Multiply, w, factor, path)?,
                });
            }
        }
        let sum = sum.expect("at least one octave");
        self.by_constant(Binary::Divide, sum, norm, path)
    }

    fn lower_node(
        &mut self,
        spec: &NodeSpec,
        ctx: Context,
        depth: usize,
    ) -> Result<Reg, GraphError> {
        let path = spec.path.as_str();
        let dims = self.point_dims(ctx.point);
        match &spec.node {
            NodeKind::Classic { seed } => {
                self.noise(NoiseKind::Classic, NoiseOptions::seeded(*seed), path, ctx)
            }
            NodeKind::Value { seed } => {
                self.noise(NoiseKind::Value, NoiseOptions::seeded(*seed), path, ctx)
            }
            NodeKind::SuperSimplex { seed } => {
                self.noise(NoiseKind::SuperSimplex, NoiseOptions::seeded(*seed), path, ctx)
            }
            NodeKind::White { seed } => self.white(*seed, path, ctx),
            NodeKind::Simplex { seed, kernel } => {
                let options = NoiseOptions {
                    kernel: *kernel,
                    ..NoiseOptions::seeded(*seed)
                };
                self.noise(NoiseKind::Simplex, options, path, ctx)
            }
            NodeKind::Cellular {
                seed,
                output,
                distance,
                driven_exponent,
                jitter,
            } => {
                let (jitter, driven) =
                    self.cell_drivers(jitter, driven_exponent, *distance, path, ctx, depth)?;
                // The cellular source of the output code `output`.
                let source = |l: &mut Self, output: u32| {
                    let cell = CellularShape {
                        jitter,
                        distance: cellular_distance(*distance),
                        output,
                    };
                    let options = NoiseOptions {
                        cell,
                        driven,
                        ..NoiseOptions::seeded(*seed)
                    };
                    l.noise(NoiseKind::Cellular, options, path, ctx)
                };
                // F1 to F4.
                let nearest = [CELLULAR_F1, CELLULAR_F2, CELLULAR_F3, CELLULAR_F4];
                match *output {
                    CellularValue::Output(output) => {
                        let shape = CellularShape::from_options(&Cellular {
                            output,
                            ..Cellular::default()
                        });
                        source(self, shape.output)
                    }
                    CellularValue::Nearest(k) => source(self, nearest[k - 1]),
                    // Two searches and the binary node's operation: its value, its gradient
                    // rule and its guard, as the `add`, … nodes of the two.
                    CellularValue::Pair { op, a, b } => {
                        let fa = source(self, nearest[a - 1])?;
                        let fb = source(self, nearest[b - 1])?;
                        self.binary(op, fa, fb, path)
                    }
                }
            }
            NodeKind::CellularLookup {
                source,
                frequency,
                seed,
                distance,
                driven_exponent,
                jitter,
            } => {
                let (jitter, driven) =
                    self.cell_drivers(jitter, driven_exponent, *distance, path, ctx, depth)?;
                let cell = CellularShape {
                    jitter,
                    distance: cellular_distance(*distance),
                    output: CELLULAR_F1,
                };
                let lookup = Lookup {
                    source,
                    frequency,
                    seed: *seed,
                    cell,
                    driven,
                };
                self.cellular_lookup(&lookup, path, ctx, depth)
            }
            NodeKind::Flow {
                seed,
                angle,
                kernel,
            } => {
                // A node is evaluated at the node's point and clamped per sample to the
                // number's range; the source's own angle is then 0 (plain simplex, turned
                // per sample).
                let (flow, angle) = match angle {
                    Input::Constant(a) => (*a, None),
                    node => {
                        let a = self.input(node, &self.sub(path, "angle"), ctx, depth)?;
                        let range = Map::Clamp {
                            min: -MAX_ANGLE,
                            max: MAX_ANGLE,
                        };
                        (0.0, Some(self.push(Op::Map { op: range, a }, path)?))
                    }
                };
                let options = NoiseOptions {
                    flow,
                    kernel: *kernel,
                    driven: SourceDrivers {
                        angle,
                        ..SourceDrivers::default()
                    },
                    ..NoiseOptions::seeded(*seed)
                };
                self.noise(NoiseKind::Simplex, options, path, ctx)
            }
            NodeKind::Constant(v) => self.constant(*v, path),
            NodeKind::Position { axis } => {
                if *axis >= dims {
                    return Err(err(
                        &self.sub(path, "axis"),
                        format!("the field has {dims} dimensions"),
                    ));
                }
                self.axis(*axis, path, ctx)
            }
            NodeKind::Distance {
                point,
                metric,
                driven_exponent,
            } => {
                // As `pow`'s exponent.
                let range = Map::Clamp {
                    min: MIN_DISTANCE_EXPONENT,
                    max: MAX_DISTANCE_EXPONENT,
                };
                let exponent =
                    self.driven_exponent(driven_exponent, *metric, range, path, ctx, depth)?;
                let mut to_point = Vec::with_capacity(dims);
                for a in 0..dims {
                    let x = self.axis(a, path, ctx)?;
                    let c = self.axis_input(point, "point", a, path, ctx, depth)?;
                    to_point.push(self.binary(Binary::Subtract, x, c, path)?);
                }
                self.distance(&to_point, *metric, exponent, path)
            }
            NodeKind::Linear { multiplier, offset } => {
                let mut terms = Vec::with_capacity(dims);
                for a in 0..dims {
                    let x = self.axis(a, path, ctx)?;
                    let o = self.axis_input(offset, "offset", a, path, ctx, depth)?;
                    let shifted = self.binary(Binary::Add, x, o, path)?;
                    let m = self.axis_input(multiplier, "multiplier", a, path, ctx, depth)?;
                    terms.push(self.binary(Binary::Multiply, shifted, m, path)?);
                }
                self.fold(Binary::Add, &terms, path)
            }
            NodeKind::Checkerboard => {
                // ⌊x⌋ as x − (x mod 1), exact in f32; the parity of their sum as its floored
                // remainder by 2; then 1 − 2 × parity.
                let mut cells = Vec::with_capacity(dims);
                for a in 0..dims {
                    let x = self.axis(a, path, ctx)?;
                    let fraction = self.by_constant(Binary::Modulus, x, 1.0, path)?;
                    cells.push(self.binary(Binary::Subtract, x, fraction, path)?);
                }
                let sum = self.fold(Binary::Add, &cells, path)?;
                let parity = self.by_constant(Binary::Modulus, sum, 2.0, path)?;
                let scaled = self.by_constant(Binary::Multiply, parity, -2.0, path)?;
                self.by_constant(Binary::Add, scaled, 1.0, path)
            }
            NodeKind::Sine { scale } => {
                // FastNoise2's `p × (1 / scale)`: a number's frequency rounded once when the
                // graph is lowered; a node's clamped to the number's range and divided per
                // sample (the same `f32` bits for a constant node: f32 division is rounded
                // once too).
                let range = Map::Clamp {
                    min: (1.0 / MAX_DOMAIN_PARAMETER) as f32,
                    max: MAX_DOMAIN_PARAMETER as f32,
                };
                let mut terms = Vec::with_capacity(dims);
                for a in 0..dims {
                    let x = self.axis(a, path, ctx)?;
                    let arg = match &scale[a] {
                        Input::Constant(s) => {
                            let frequency = (1.0 / *s as f64) as f32;
                            self.by_constant(Binary::Multiply, x, frequency, path)?
                        }
                        _ => {
                            let s = self.axis_input(scale, "scale", a, path, ctx, depth)?;
                            let s = self.push(Op::Map { op: range.clone(), a: s }, path)?;
                            let one = self.constant(1.0, path)?;
                            let frequency = self.binary(Binary::Divide, one, s, path)?;
                            self.binary(Binary::Multiply, x, frequency, path)?
                        }
                    };
                    terms.push(self.push(Op::Map { op: Map::Sine, a: arg }, path)?);
                }
                self.fold(Binary::Multiply, &terms, path)
            }
            NodeKind::Fractal { source, octaves } => {
                let mut driven = |key: &str, input: &Input| match input {
                    Input::Constant(_) => Ok(None),
                    node => self.input(node, &self.sub(path, key), ctx, depth).map(Some),
                };
                let gain = driven("gain", &octaves.gain)?;
                let lacunarity = driven("lacunarity", &octaves.lacunarity)?;
                let strength = match driven("weighted_strength", &octaves.weighted_strength)? {
                    Some(r) => Some(Hybrid::Driven(r)),
                    None => match octaves.weighted_strength {
                        Input::Constant(s) if s != 0.0 => Some(Hybrid::Constant(s)),
                        _ => None,
                    },
                };
                let source_path = self.sub(path, "source");
                self.octaves(
                    &mut |l, c| l.input(source, &source_path, c, depth),
                    octaves,
                    Driven {
                        gain,
                        strength,
                        lacunarity,
                    },
                    path,
                    ctx,
                )
            }
            NodeKind::Scale { source, by } => {
                let tiled = ctx.period.iter().any(|&p| p > 0.0);
                let p = self.push(
                    Op::Scale {
                        p: ctx.point,
                        by: *by,
                    },
                    path,
                )?;
                let period = if tiled {
                    std::array::from_fn(|a| ctx.period[a] * by[a].abs())
                } else {
                    ctx.period
                };
                let c = Context {
                    point: p,
                    period,
                    ..ctx
                };
                self.input(source, &self.sub(path, "source"), c, depth)
            }
            NodeKind::Offset { source, by } => {
                let p = self.push(
                    Op::Offset {
                        p: ctx.point,
                        by: *by,
                    },
                    path,
                )?;
                let c = Context { point: p, ..ctx };
                self.input(source, &self.sub(path, "source"), c, depth)
            }
            NodeKind::Rotate {
                source,
                angle,
                plane,
            } => {
                if plane[1] >= dims {
                    return Err(err(
                        &self.sub(path, "plane"),
                        format!("the field has {dims} dimensions"),
                    ));
                }
                if ctx.period.iter().any(|&p| p > 0.0) {
                    return Err(err(path, "a rotated domain does not tile"));
                }
                let p = match angle {
                    Input::Constant(a) => {
                        let a = *a as f64;
                        let op = Op::Rotate {
                            p: ctx.point,
                            plane: *plane,
                            cos: a.cos() as f32,
                            sin: a.sin() as f32,
                        };
                        self.push(op, path)?
                    }
                    node => {
                        let angle = self.input(node, &self.sub(path, "angle"), ctx, depth)?;
                        self.rotated_by(angle, *plane, path, ctx)?
                    }
                };
                let c = Context { point: p, ..ctx };
                self.input(source, &self.sub(path, "source"), c, depth)
            }
            NodeKind::RotatePlane { source, plane } => {
                let p = self.rotated_plane(*plane, path, ctx)?;
                let c = Context { point: p, ..ctx };
                self.input(source, &self.sub(path, "source"), c, depth)
            }
            NodeKind::AddDimension { source, position } => {
                let source_path = self.sub(path, "source");
                // FastNoise2's: a 4D point passes through (there is no fifth axis).
                if dims == 4 {
                    return self.input(source, &source_path, ctx, depth);
                }
                if self.tiled(ctx) {
                    return Err(err(
                        path,
                        "add-dimension does not tile: its new axis has no tile period",
                    ));
                }
                let position_path = self.sub(path, "position");
                let coordinate = self.input(position, &position_path, ctx, depth)?;
                let p = self.push(
                    Op::AddAxis {
                        p: ctx.point,
                        coordinate,
                    },
                    path,
                )?;
                let c = Context { point: p, ..ctx };
                self.input(source, &source_path, c, depth)
            }
            NodeKind::RemoveDimension { source, axis } => {
                let source_path = self.sub(path, "source");
                // FastNoise2's: a 2D point passes through, and a 3D one without a `w` to
                // remove.
                if dims == 2 || *axis >= dims {
                    return self.input(source, &source_path, ctx, depth);
                }
                let p = self.push(
                    Op::RemoveAxis {
                        p: ctx.point,
                        axis: *axis,
                    },
                    path,
                )?;
                // The tile's periods follow their axes.
                let period = std::array::from_fn(|a| match a {
                    3 => 0.0,
                    a if a < *axis => ctx.period[a],
                    a => ctx.period[a + 1],
                });
                let c = Context {
                    point: p,
                    period,
                    ..ctx
                };
                self.input(source, &source_path, c, depth)
            }
            NodeKind::SeedOffset { source, offset } => {
                let c = Context {
                    seed: ctx.seed + offset,
                    ..ctx
                };
                self.input(source, &self.sub(path, "source"), c, depth)
            }
            NodeKind::Warp {
                source,
                amplitude,
                frequency,
                octaves,
                iterations,
                noise,
                fractal,
                kernel,
                lacunarity,
                gain,
                displacement,
            } => {
                let mut hybrid = |key: &str, input: &Input| match input {
                    Input::Constant(a) => Ok(Hybrid::Constant(*a)),
                    node => Ok(Hybrid::Driven(self.input(node, &self.sub(path, key), ctx, depth)?)),
                };
                let amplitude = hybrid("amplitude", amplitude)?;
                let q = match displacement {
                    Some(inputs) => {
                        let dpath = self.sub(path, "displacement");
                        if inputs.len() != dims {
                            return Err(err(
                                &dpath,
                                format!(
                                    "has {} inputs; the field has {dims} dimensions",
                                    inputs.len()
                                ),
                            ));
                        }
                        let mut d = [0; 4];
                        for (a, input) in inputs.iter().enumerate() {
                            d[a] = self.input(input, &format!("{dpath}[{a}]"), ctx, depth)?;
                        }
                        self.displace(ctx.point, d, amplitude, Hybrid::Constant(1.0), path)?
                    }
                    None => {
                        let warp = Warp {
                            amplitude,
                            frequency: hybrid("frequency", frequency)?,
                            octaves: *octaves,
                            iterations: *iterations,
                            noise: *noise,
                            fractal: *fractal,
                            kernel: *kernel,
                            lacunarity: hybrid("lacunarity", lacunarity)?,
                            gain: hybrid("gain", gain)?,
                        };
                        self.warp(&warp, path, ctx)?
                    }
                };
                let c = Context { point: q, ..ctx };
                self.input(source, &self.sub(path, "source"), c, depth)
            }
            NodeKind::Binary { op, a, b } => {
                let a = self.input(a, &self.sub(path, "a"), ctx, depth)?;
                let b = self.input(b, &self.sub(path, "b"), ctx, depth)?;
                self.push(Op::Binary { op: *op, a, b }, path)
            }
            NodeKind::Remap {
                source,
                from,
                to,
                clamp,
            } => {
                let v = self.input(source, &self.sub(path, "source"), ctx, depth)?;
                let mut ends = [0; 4];
                for (e, (key, a)) in [("from", 0), ("from", 1), ("to", 0), ("to", 1)]
                    .into_iter()
                    .enumerate()
                {
                    let input = if key == "from" { &from[a] } else { &to[a] };
                    ends[e] = self.input(input, &format!("{path}.{key}[{a}]"), ctx, depth)?;
                }
                self.driven_remap(v, ends, *clamp, path)
            }
            NodeKind::MovedBy { scale, source, by } => {
                let bpath = self.sub(path, "by");
                let mut amounts = [0; 4];
                match by.as_slice() {
                    [all] => amounts = [self.input(all, &bpath, ctx, depth)?; 4],
                    axes => {
                        for (a, by) in axes.iter().enumerate().take(dims) {
                            let apath = format!("{bpath}[{a}]");
                            amounts[a] = self.input(by, &apath, ctx, depth)?;
                        }
                    }
                }
                let p = self.moved_by(*scale, amounts, path, ctx)?;
                let c = Context { point: p, ..ctx };
                self.input(source, &self.sub(path, "source"), c, depth)
            }
            // `f32::clamp`'s two comparisons, in its order, as `max` and `min` of two values:
            // `min` unless `v` is above it, then `max` unless that is below it. Where `v`
            // equals an end the end is taken, value and gradient, as a number end's slope is
            // 0 there (`Map::Clamp`): the values are equal, but for the sign of a zero.
            NodeKind::Clamp { source, ends } => {
                let v = self.input(source, &self.sub(path, "source"), ctx, depth)?;
                let low = self.input(&ends[0], &self.sub(path, "min"), ctx, depth)?;
                let high = self.input(&ends[1], &self.sub(path, "max"), ctx, depth)?;
                let r = self.binary(Binary::Max, v, low, path)?;
                self.binary(Binary::Min, r, high, path)
            }
            NodeKind::Pow { source, exponent } => {
                // The exponent clamped to the number's range (below it `|v|^e` is infinite at
                // 0, and 0 × ∞ a NaN), then `pow` of two values.
                let v = self.input(source, &self.sub(path, "source"), ctx, depth)?;
                let e = self.input(exponent, &self.sub(path, "exponent"), ctx, depth)?;
                let range = Map::Clamp {
                    min: MIN_EXPONENT,
                    max: MAX_EXPONENT,
                };
                let e = self.push(Op::Map { op: range, a: e }, path)?;
                self.binary(Binary::Pow, v, e, path)
            }
            NodeKind::Terrace {
                source,
                steps,
                smoothness,
            } => {
                let v = self.input(source, &self.sub(path, "source"), ctx, depth)?;
                let s = self.input(smoothness, &self.sub(path, "smoothness"), ctx, depth)?;
                self.driven_terrace(v, *steps, s, path)
            }
            NodeKind::Smooth { max, a, b, k } => {
                let a = self.input(a, &self.sub(path, "a"), ctx, depth)?;
                let b = self.input(b, &self.sub(path, "b"), ctx, depth)?;
                let k = self.input(k, &self.sub(path, "k"), ctx, depth)?;
                self.driven_smooth(*max, a, b, k, path)
            }
            NodeKind::Blend { a, b, t, ease } => {
                let a = self.input(a, &self.sub(path, "a"), ctx, depth)?;
                let b = self.input(b, &self.sub(path, "b"), ctx, depth)?;
                let mut t = self.input(t, &self.sub(path, "t"), ctx, depth)?;
                if let Some(ease) = ease {
                    t = self.push(Op::Map { op: Map::Ease(*ease), a: t }, path)?;
                }
                self.push(Op::Blend { a, b, t }, path)
            }
            NodeKind::Map {
                op,
                source,
                then,
                by,
            } => {
                let mut a = self.input(source, &self.sub(path, "source"), ctx, depth)?;
                if let Some(by) = by {
                    let b = self.input(by, &self.sub(path, "strength"), ctx, depth)?;
                    a = self.binary(Binary::Multiply, a, b, path)?;
                }
                let r = self.push(Op::Map { op: op.clone(), a }, path)?;
                match then {
                    Some(op) => self.push(Op::Map { op: op.clone(), a: r }, path),
                    None => Ok(r),
                }
            }
        }
    }

    /// The point of `ctx` scaled (`scale`) or moved by the registers `by`, one per axis, as
    /// operations so that the Jacobian follows through the amounts: a move is a displacement
    /// by them (`p + 1 × by`, the same bits as `offset`'s `p + by`); a scale the origin
    /// (`p × 0`) displaced by each coordinate times its amount, `pₐ × byₐ`, whose gradient
    /// is `byₐ ∇pₐ + pₐ ∇byₐ`. A scale reads the point's coordinates, so it does not tile.
    fn moved_by(
        &mut self,
        scale: bool,
        by: [Reg; 4],
        path: &str,
        ctx: Context,
    ) -> Result<Reg, GraphError> {
        if !scale {
            let op = Op::Displace {
                p: ctx.point,
                d: by,
                amplitude: 1.0,
            };
            return self.push(op, path);
        }
        if self.tiled(ctx) {
            return Err(err(
                path,
                "a scale by a node does not tile (the point's tile period would change from \
                 sample to sample)",
            ));
        }
        let mut d = [0; 4];
        for (a, d) in d.iter_mut().enumerate().take(self.point_dims(ctx.point)) {
            let x = self.push(Op::Axis { p: ctx.point, axis: a }, path)?;
            *d = self.binary(Binary::Multiply, x, by[a], path)?;
        }
        self.point_of(ctx.point, d, path)
    }

    /// The point of `ctx` turned in `plane` by the value `angle` (clamped to ±[`MAX_ANGLE`]):
    /// `(c·u − s·v, s·u + c·v)` of its coordinates with the angle's sine and cosine, the
    /// other coordinates as they are, built from values ([`Self::point_of`]) so that the
    /// Jacobian follows through the angle too.
    fn rotated_by(&mut self, angle: Reg, plane: Plane, path: &str, ctx: Context) -> Result<Reg, GraphError> {
        let range = Map::Clamp {
            min: -MAX_ANGLE,
            max: MAX_ANGLE,
        };
        let angle = self.push(Op::Map { op: range, a: angle }, path)?;
        let sin = self.push(Op::Map { op: Map::Sine, a: angle }, path)?;
        let cos = self.push(Op::Map { op: Map::Cosine, a: angle }, path)?;
        let p = ctx.point;
        let mut d = [0; 4];
        for (a, d) in d.iter_mut().enumerate().take(self.point_dims(p)) {
            *d = self.push(Op::Axis { p, axis: a }, path)?;
        }
        let [u, v] = plane;
        let (x, y) = (d[u], d[v]);
        let (cx, sy) = (
            self.binary(Binary::Multiply, cos, x, path)?,
            self.binary(Binary::Multiply, sin, y, path)?,
        );
        let (sx, cy) = (
            self.binary(Binary::Multiply, sin, x, path)?,
            self.binary(Binary::Multiply, cos, y, path)?,
        );
        d[u] = self.binary(Binary::Subtract, cx, sy, path)?;
        d[v] = self.binary(Binary::Add, sx, cy, path)?;
        self.point_of(p, d, path)
    }

    /// A point (of `p`'s dimensions) whose coordinates are the values `d`: the origin
    /// `p × 0` displaced by them (`0 + 1 × dₐ` has `dₐ`'s bits), so that its Jacobian is
    /// theirs.
    fn point_of(&mut self, p: Reg, d: [Reg; 4], path: &str) -> Result<Reg, GraphError> {
        let origin = self.push(
            Op::Scale {
                p,
                by: [0.0; 4],
            },
            path,
        )?;
        self.push(
            Op::Displace {
                p: origin,
                d,
                amplitude: 1.0,
            },
            path,
        )
    }

    /// The point of `ctx` turned so that `plane` (axes `a`, `b`; `c` the third) cuts the
    /// lattice evenly, as `rotate-plane`'s doc writes it: the origin (`p × 0`) displaced by
    /// the new coordinates, so that the Jacobian follows through the same operations; a 2D
    /// point gains z = 0 first. It reads the coordinates, so it does not tile.
    fn rotated_plane(&mut self, plane: Plane, path: &str, ctx: Context) -> Result<Reg, GraphError> {
        if self.tiled(ctx) {
            return Err(err(path, "a turned domain does not tile"));
        }
        let mut ctx = ctx;
        if self.point_dims(ctx.point) == 2 {
            // FastNoise2's: a 2D point gains z = 0, and the source is 3D.
            let zero = self.constant(0.0, path)?;
            let op = Op::AddAxis {
                p: ctx.point,
                coordinate: zero,
            };
            ctx.point = self.push(op, path)?;
        }
        let dims = self.point_dims(ctx.point);
        let [a, b] = plane;
        let c = 3 - b;
        let mut d = [0; 4];
        for (axis, d) in d.iter_mut().enumerate().take(dims) {
            *d = self.axis(axis, path, ctx)?;
        }
        let ab = self.binary(Binary::Add, d[a], d[b], path)?;
        let s = self.by_constant(Binary::Multiply, ab, PLANE_SKEW, path)?;
        let t = self.by_constant(Binary::Multiply, d[c], PLANE_LIFT, path)?;
        for axis in [a, b] {
            let moved = self.binary(Binary::Add, d[axis], s, path)?;
            d[axis] = self.binary(Binary::Subtract, moved, t, path)?;
        }
        let lift = self.by_constant(Binary::Multiply, ab, PLANE_LIFT, path)?;
        d[c] = self.binary(Binary::Add, t, lift, path)?;
        self.point_of(ctx.point, d, path)
    }

    /// A terrace of `v` whose smoothness is the register `s`, as operations in
    /// `wgpu_noise_terrace`'s order, so that the gradient follows through `s`: `x = v ×
    /// steps`, its fraction `f = x mod 1` and whole part `x − f` (`modulus` by 1 computes
    /// `x − ⌊x⌋`, the same bits), the ramp `t = clamp((f − (1 − s)) / s, 0, 1)` eased by
    /// `t² (3 − 2t)`, and `(whole + eased) / steps`. `s` is clamped to [0, 1] first; at 0
    /// the division is `divide`'s 0, so the ramp is 0 and the steps hard, as the number 0
    /// gives them.
    fn driven_terrace(
        &mut self,
        v: Reg,
        steps: f32,
        s: Reg,
        path: &str,
    ) -> Result<Reg, GraphError> {
        let unit = Map::Clamp { min: 0.0, max: 1.0 };
        let x = self.by_constant(Binary::Multiply, v, steps, path)?;
        let f = self.by_constant(Binary::Modulus, x, 1.0, path)?;
        let whole = self.binary(Binary::Subtract, x, f, path)?;
        let s = self.push(Op::Map { op: unit.clone(), a: s }, path)?;
        let one = self.constant(1.0, path)?;
        let start = self.binary(Binary::Subtract, one, s, path)?;
        let into = self.binary(Binary::Subtract, f, start, path)?;
        let ramp = self.binary(Binary::Divide, into, s, path)?;
        let t = self.push(Op::Map { op: unit, a: ramp }, path)?;
        let square = self.binary(Binary::Multiply, t, t, path)?;
        let twice = self.by_constant(Binary::Multiply, t, 2.0, path)?;
        let three = self.constant(3.0, path)?;
        let rest = self.binary(Binary::Subtract, three, twice, path)?;
        let eased = self.binary(Binary::Multiply, square, rest, path)?;
        let sum = self.binary(Binary::Add, whole, eased, path)?;
        self.by_constant(Binary::Divide, sum, steps, path)
    }

    /// A remap of `v` whose ends `[from low, from high, to low, to high]` are registers, as
    /// operations in `wgpu_noise_remap`'s order, `t₀ + (v − f₀)(t₁ − t₀) / (f₁ − f₀)`, so that
    /// the gradient follows through the ends; the division is `divide`'s, 0 where the `from`
    /// ends meet (the value is then `t₀`). With `clamp`, then clamped to `[min(t₀, t₁),
    /// max(t₀, t₁)]` by `max` and `min`.
    fn driven_remap(
        &mut self,
        v: Reg,
        ends: [Reg; 4],
        clamp: bool,
        path: &str,
    ) -> Result<Reg, GraphError> {
        let [f0, f1, t0, t1] = ends;
        let shifted = self.binary(Binary::Subtract, v, f0, path)?;
        let span = self.binary(Binary::Subtract, t1, t0, path)?;
        let scaled = self.binary(Binary::Multiply, shifted, span, path)?;
        let width = self.binary(Binary::Subtract, f1, f0, path)?;
        let moved = self.binary(Binary::Divide, scaled, width, path)?;
        let r = self.binary(Binary::Add, t0, moved, path)?;
        if !clamp {
            return Ok(r);
        }
        let low = self.binary(Binary::Min, t0, t1, path)?;
        let high = self.binary(Binary::Max, t0, t1, path)?;
        let r = self.binary(Binary::Max, r, low, path)?;
        self.binary(Binary::Min, r, high, path)
    }

    /// A smooth minimum (or maximum, `max`) of `a` and `b` whose blend width is the register
    /// `k`, as operations so that every evaluator and the gradient (through `k` too) follow:
    /// Quilez's polynomial in its other form, `min(a, b) − k h² / 4` (`max(a, b) + k h² / 4`)
    /// with `h = max(k − |a − b|, 0) / k`, which is `wgpu_noise_smooth_min`'s value. Where
    /// `k` is 0 or negative (or below f32's normal numbers: the division's 0) `h` is 0, so
    /// the value is the plain minimum (maximum), with its gradient.
    fn driven_smooth(
        &mut self,
        max: bool,
        a: Reg,
        b: Reg,
        k: Reg,
        path: &str,
    ) -> Result<Reg, GraphError> {
        let difference = self.binary(Binary::Subtract, a, b, path)?;
        let apart = self.push(
            Op::Map {
                op: Map::Abs,
                a: difference,
            },
            path,
        )?;
        let overlap = self.binary(Binary::Subtract, k, apart, path)?;
        let overlap = self.by_constant(Binary::Max, overlap, 0.0, path)?;
        let h = self.binary(Binary::Divide, overlap, k, path)?;
        let square = self.binary(Binary::Multiply, h, h, path)?;
        let scaled = self.binary(Binary::Multiply, square, k, path)?;
        let rounding = self.by_constant(Binary::Multiply, scaled, 0.25, path)?;
        let (chosen, then) = if max {
            (Binary::Max, Binary::Add)
        } else {
            (Binary::Min, Binary::Subtract)
        };
        let chosen = self.binary(chosen, a, b, path)?;
        self.binary(then, chosen, rounding, path)
    }

    /// The warped point of `cpu::warp::warp`, as operations: each iteration displaces the
    /// original point by the warp's fBm at the last point times the frequency, shifted
    /// ([`Self::warp_displacement`], or for a `vector` warp [`Self::vector_displacement`]).
    /// A progressive warp's octaves are iterations of one octave instead, each displacing
    /// the point the octaves before it displaced, at its own frequency and amplitude. A
    /// frequency, lacunarity or gain given by a node is evaluated at the warp's point.
    fn warp(&mut self, w: &Warp, path: &str, ctx: Context) -> Result<Reg, GraphError> {
        for (key, parameter) in [("frequency", w.frequency), ("lacunarity", w.lacunarity)] {
            if matches!(parameter, Hybrid::Driven(_)) && self.tiled(ctx) {
                return Err(err(
                    &self.sub(path, key),
                    format!(
                        "a warp's {key} given by a node does not tile (the warp's tile period \
                         would change from sample to sample)"
                    ),
                ));
            }
        }
        let mut q = ctx.point;
        if w.fractal == WarpFractal::Progressive {
            if w.iterations > 1 {
                return Err(err(
                    &self.sub(path, "iterations"),
                    "a progressive warp has one iteration: each of its octaves warps the point \
                     the octaves before it warped",
                ));
            }
            let (scales, norm) =
                octave_scales(w.octaves, w.lacunarity.number(), w.gain.number(), path)?;
            let frequencies = self.octave_frequencies(&scales, w.lacunarity, path)?;
            let amplitudes = self.octave_weights(&scales, norm, w.gain, path)?;
            let one = Warp { octaves: 1, ..*w };
            for (k, (frequency, amplitude)) in frequencies.into_iter().zip(amplitudes).enumerate() {
                let frequency = self.product(w.frequency, frequency, path)?;
                let d = self.warp_iteration(&one, k as u32, frequency, q, path, ctx)?;
                q = self.displace(q, d, w.amplitude, amplitude, path)?;
            }
            return Ok(q);
        }
        for k in 0..w.iterations {
            let d = self.warp_iteration(w, k, w.frequency, q, path, ctx)?;
            q = self.displace(ctx.point, d, w.amplitude, Hybrid::Constant(1.0), path)?;
        }
        Ok(q)
    }

    /// Each octave's frequency `lacunarity^k` of `scales` (`octave_scales`'s); for a
    /// lacunarity a node gives, clamped to its range, the products `l × l × …` in
    /// `octave_scales`'s order (`1 × l` is `l`).
    fn octave_frequencies(
        &mut self,
        scales: &[(f32, f32)],
        lacunarity: Hybrid,
        path: &str,
    ) -> Result<Vec<Hybrid>, GraphError> {
        let Hybrid::Driven(l) = lacunarity else {
            return Ok(scales.iter().map(|&(f, _)| Hybrid::Constant(f)).collect());
        };
        let l = self.push(Op::Map { op: LACUNARITY_RANGE, a: l }, path)?;
        let mut frequencies = vec![Hybrid::Constant(1.0)];
        let mut power = l;
        for k in 1..scales.len() {
            if k > 1 {
                power = self.binary(Binary::Multiply, power, l, path)?;
            }
            frequencies.push(Hybrid::Driven(power));
        }
        Ok(frequencies)
    }

    /// Each octave's weight `gain^k / Σ gain^j` of `scales` and their sum `norm`
    /// (`octave_scales`'s, an error where the sum is not finite or is 0); for a gain a node
    /// gives, the same products, sum and quotients as operations (0 where the sum is 0:
    /// `divide`'s rule).
    fn octave_weights(
        &mut self,
        scales: &[(f32, f32)],
        norm: f32,
        gain: Hybrid,
        path: &str,
    ) -> Result<Vec<Hybrid>, GraphError> {
        let g = match gain {
            Hybrid::Constant(g) => {
                check_norm(norm, g, path)?;
                return Ok(scales.iter().map(|&(_, a)| Hybrid::Constant(a / norm)).collect());
            }
            Hybrid::Driven(g) => g,
        };
        let mut powers = vec![self.constant(1.0, path)?];
        let mut sum = powers[0];
        for k in 1..scales.len() {
            let power = self.binary(Binary::Multiply, powers[k - 1], g, path)?;
            sum = self.binary(Binary::Add, sum, power, path)?;
            powers.push(power);
        }
        powers
            .into_iter()
            .map(|power| Ok(Hybrid::Driven(self.binary(Binary::Divide, power, sum, path)?)))
            .collect()
    }

    /// `a × b`: a number where both are, else an operation (a register for the number).
    fn product(&mut self, a: Hybrid, b: Hybrid, path: &str) -> Result<Hybrid, GraphError> {
        let reg = |h: Hybrid, l: &mut Self| match h {
            Hybrid::Constant(v) => l.constant(v, path),
            Hybrid::Driven(r) => Ok(r),
        };
        match (a, b) {
            (Hybrid::Constant(a), Hybrid::Constant(b)) => Ok(Hybrid::Constant(a * b)),
            _ => {
                let (a, b) = (reg(a, self)?, reg(b, self)?);
                Ok(Hybrid::Driven(self.binary(Binary::Multiply, a, b, path)?))
            }
        }
    }

    /// The point `at` scaled by `frequency` and its context: `Op::Scale` by a number (the
    /// periods scaled too), by a node's value as a scale by a node scales (untiled).
    fn scaled_by(
        &mut self,
        at: Reg,
        frequency: Hybrid,
        path: &str,
        ctx: Context,
    ) -> Result<Context, GraphError> {
        match frequency {
            Hybrid::Constant(f) => Ok(Context {
                point: self.push(Op::Scale { p: at, by: [f; 4] }, path)?,
                seed: ctx.seed,
                period: ctx.period.map(|p| p * f),
            }),
            Hybrid::Driven(f) => Ok(Context {
                point: self.moved_by(true, [f; 4], path, Context { point: at, ..ctx })?,
                ..ctx
            }),
        }
    }

    /// Iteration `k`'s displacement of the warp `w` sampled at `q × frequency`.
    fn warp_iteration(
        &mut self,
        w: &Warp,
        k: u32,
        frequency: Hybrid,
        q: Reg,
        path: &str,
        ctx: Context,
    ) -> Result<[Reg; 4], GraphError> {
        let at = self.scaled_by(q, frequency, path, ctx)?;
        match w.noise {
            WarpNoise::Vector => self.vector_displacement(NoiseKind::Value, w, k, path, at),
            WarpNoise::SuperSimplexVector => {
                self.vector_displacement(NoiseKind::SuperSimplex, w, k, path, at)
            }
            WarpNoise::SimplexVector => {
                self.vector_displacement(NoiseKind::Simplex, w, k, path, at)
            }
            _ => self.warp_displacement(w, k, path, at),
        }
    }

    /// `p` displaced by `amplitude × scale` times the values `d` (one per axis); a driven
    /// amplitude multiplies each value first, then a driven scale (a number's product
    /// `amplitude × scale` where the amplitude is one).
    fn displace(
        &mut self,
        p: Reg,
        d: [Reg; 4],
        amplitude: Hybrid,
        scale: Hybrid,
        path: &str,
    ) -> Result<Reg, GraphError> {
        let dims = self.point_dims(p);
        let (mut d, amplitude) = match (amplitude, scale) {
            (Hybrid::Constant(a), Hybrid::Constant(s)) => (d, Hybrid::Constant(a * s)),
            (Hybrid::Constant(a), Hybrid::Driven(s)) => {
                let a = self.constant(a, path)?;
                (d, Hybrid::Driven(self.binary(Binary::Multiply, a, s, path)?))
            }
            (Hybrid::Driven(r), scale) => {
                let mut scaled = d;
                for d in scaled.iter_mut().take(dims) {
                    *d = self.binary(Binary::Multiply, *d, r, path)?;
                }
                (scaled, scale)
            }
        };
        let amplitude = match amplitude {
            Hybrid::Constant(a) => a,
            Hybrid::Driven(r) => {
                for d in d.iter_mut().take(dims) {
                    *d = self.binary(Binary::Multiply, *d, r, path)?;
                }
                1.0
            }
        };
        self.push(Op::Displace { p, d, amplitude }, path)
    }

    /// `at` shifted by `WARP_SHIFT × times` along each axis.
    fn warp_shifted(&mut self, at: Reg, times: u32, path: &str) -> Result<Reg, GraphError> {
        let dims = self.point_dims(at);
        let by = std::array::from_fn(|b| {
            if b < dims {
                WARP_SHIFT[b] as f32 * times as f32
            } else {
                0.0
            }
        });
        self.push(Op::Offset { p: at, by }, path)
    }

    /// Iteration `k`'s displacement of a warp of one noise per axis: along axis `a`, fBm of
    /// the warp noise at `at` shifted by `WARP_SHIFT × (k·dims + a + 1)`.
    fn warp_displacement(
        &mut self,
        w: &Warp,
        k: u32,
        path: &str,
        at: Context,
    ) -> Result<[Reg; 4], GraphError> {
        let kind = match w.noise {
            WarpNoise::Classic => NoiseKind::Classic,
            WarpNoise::Simplex => NoiseKind::Simplex,
            WarpNoise::Value => NoiseKind::Value,
            WarpNoise::Vector | WarpNoise::SimplexVector | WarpNoise::SuperSimplexVector => {
                unreachable!("a vector warp has one noise for every axis")
            }
        };
        let options = NoiseOptions {
            kernel: w.kernel,
            ..NoiseOptions::seeded(0)
        };
        let fbm = Octaves {
            mode: FractalMode::Fbm,
            count: w.octaves,
            lacunarity: Input::Constant(w.lacunarity.number()),
            gain: Input::Constant(w.gain.number()),
            seed_step: 0,
            weighted_strength: Input::Constant(0.0),
        };
        let driven = Driven {
            gain: w.gain.register(),
            lacunarity: w.lacunarity.register(),
            strength: None,
        };
        let dims = self.point_dims(at.point);
        let mut d = [0; 4];
        for (a, d) in d.iter_mut().enumerate().take(dims) {
            let shifted = Context {
                point: self.warp_shifted(at.point, k * dims as u32 + a as u32 + 1, path)?,
                ..at
            };
            *d = self.octaves(
                &mut |l, c| l.noise(kind, options, path, c),
                &fbm,
                driven,
                path,
                shifted,
            )?;
        }
        Ok(d)
    }

    /// Iteration `k`'s displacement of a `vector` or `supersimplex-vector` warp: fBm of the
    /// noise of vectors of `kind` ([`Op::Vector`]) at `at` shifted by `WARP_SHIFT × (k·dims + 1)` (the other warps'
    /// shift of their first axis), axis `a` the octaves' component `a`: one noise per octave
    /// for every axis. One octave is the noise itself.
    fn vector_displacement(
        &mut self,
        kind: NoiseKind,
        w: &Warp,
        k: u32,
        path: &str,
        at: Context,
    ) -> Result<[Reg; 4], GraphError> {
        let dims = self.point_dims(at.point);
        let shifted = self.warp_shifted(at.point, k * dims as u32 + 1, path)?;
        let (scales, norm) =
            octave_scales(w.octaves, w.lacunarity.number(), w.gain.number(), path)?;
        if let Hybrid::Constant(gain) = w.gain {
            check_norm(norm, gain, path)?;
        }
        let frequencies = self.octave_frequencies(&scales, w.lacunarity, path)?;
        let mut terms: [Vec<(Reg, f32)>; 4] = Default::default();
        for (frequency, (_, amplitude)) in frequencies.into_iter().zip(scales) {
            let octave = match frequency {
                Hybrid::Constant(f) => Context {
                    point: self.octave_point(shifted, f, path)?,
                    seed: at.seed,
                    period: at.period.map(|p| p * f),
                },
                driven => self.scaled_by(shifted, driven, path, at)?,
            };
            let v = self.vector(kind, w.kernel, 0, path, octave)?;
            for (axis, terms) in terms.iter_mut().enumerate().take(dims) {
                terms.push((self.push(Op::Axis { p: v, axis }, path)?, amplitude));
            }
        }
        let mut d = [0; 4];
        for (d, terms) in d.iter_mut().zip(terms).take(dims) {
            *d = match (terms.as_slice(), w.gain) {
                ([(one, _)], _) => *one,
                (_, Hybrid::Driven(gain)) => {
                    self.driven_sum(&terms, gain, FractalMode::Fbm, None, path)?
                }
                (_, Hybrid::Constant(_)) => self.push(
                    Op::Fractal {
                        mode: FractalMode::Fbm,
                        terms,
                        norm,
                    },
                    path,
                )?,
            };
        }
        Ok(d)
    }

    /// An octave's point: `at` times its `frequency` (`at` itself at 1).
    fn octave_point(&mut self, at: Reg, frequency: f32, path: &str) -> Result<Reg, GraphError> {
        if frequency == 1.0 {
            return Ok(at);
        }
        self.push(
            Op::Scale {
                p: at,
                by: [frequency; 4],
            },
            path,
        )
    }
}

/// The frequency `lacunarity^k` and amplitude `gain^k` of each of `count` octaves, in `f32`
/// as a fractal computes them, and the amplitudes' sum; an error where a frequency is not
/// finite.
fn octave_scales(
    count: u32,
    lacunarity: f32,
    gain: f32,
    path: &str,
) -> Result<(Vec<(f32, f32)>, f32), GraphError> {
    let mut scales = Vec::with_capacity(count as usize);
    let (mut amplitude, mut frequency, mut norm) = (1.0f32, 1.0f32, 0.0f32);
    for k in 0..count {
        if !frequency.is_finite() {
            return Err(err(
                path,
                format!("octave {k}'s frequency lacunarity^{k} is {frequency} in f32 (lacunarity {lacunarity}); it must be finite"),
            ));
        }
        scales.push((frequency, amplitude));
        norm += amplitude;
        if k + 1 < count {
            amplitude *= gain;
            frequency *= lacunarity;
        }
    }
    Ok((scales, norm))
}

/// An error unless the octaves' amplitudes (of gain `gain`) sum to `norm`, finite and not 0.
fn check_norm(norm: f32, gain: f32, path: &str) -> Result<(), GraphError> {
    if norm.is_finite() && norm != 0.0 {
        return Ok(());
    }
    Err(err(
        path,
        format!("these octaves' amplitudes sum to {norm} (gain {gain}); the sum must be finite and not 0"),
    ))
}

/// The cellular distance code (`NoiseSettings::cellular_distance`) of `metric`.
fn cellular_distance(metric: Metric) -> u32 {
    match metric {
        Metric::Euclidean => CELLULAR_DISTANCE_EUCLIDEAN,
        Metric::EuclideanSquared => CELLULAR_DISTANCE_EUCLIDEAN_SQUARED,
        Metric::Manhattan => CELLULAR_DISTANCE_MANHATTAN,
        Metric::Chebyshev => CELLULAR_DISTANCE_CHEBYSHEV,
        Metric::Hybrid => CELLULAR_DISTANCE_HYBRID,
        Metric::Minkowski { exponent } => cellular_minkowski(exponent),
    }
}

/// A `cellular-lookup` node's parameters, lowered ([`Lowering::cellular_lookup`]).
struct Lookup<'a> {
    source: &'a Input,
    frequency: &'a Input,
    seed: i64,
    cell: CellularShape,
    driven: SourceDrivers,
}

/// The options of one noise source in a graph.
#[derive(Clone, Copy, Debug)]
struct NoiseOptions {
    seed: i64,
    kernel: Kernel,
    cell: CellularShape,
    flow: f32,
    /// The registers of a cellular source's driven parameters ([`Op::Noise`]).
    driven: SourceDrivers,
}

impl NoiseOptions {
    fn seeded(seed: i64) -> Self {
        NoiseOptions {
            seed,
            kernel: Kernel::Reference,
            cell: CellularShape::default(),
            flow: 0.0,
            driven: SourceDrivers::default(),
        }
    }
}

/// `rotate-plane`'s constants, FastNoise2's literals as written (rounded to f32 here as
/// there): `−(1 − 1/√3) / 2` and `1/√3`.
#[allow(clippy::excessive_precision)]
const PLANE_SKEW: f32 = -0.211324865405187;
#[allow(clippy::excessive_precision)]
const PLANE_LIFT: f32 = 0.577350269189626;

/// A node-driven lacunarity is clamped per sample to the range the number may take.
const LACUNARITY_RANGE: Map = Map::Clamp {
    min: 1.0 / 64.0,
    max: 64.0,
};

/// The parameters of a fractal that nodes may give per sample.
#[derive(Clone, Copy, Debug, Default)]
struct Driven {
    /// The register of a node-driven gain.
    gain: Option<Reg>,
    /// The register of a node-driven lacunarity.
    lacunarity: Option<Reg>,
    /// The weighted strength, where it is not 0.
    strength: Option<Hybrid>,
}

/// A hybrid parameter lowered: a number, or the register of a node giving it per sample.
#[derive(Clone, Copy, Debug)]
enum Hybrid {
    Constant(f32),
    Driven(Reg),
}

impl Hybrid {
    /// The number; 1 for a node's value, which the octaves' numbers then do not read.
    fn number(self) -> f32 {
        match self {
            Hybrid::Constant(v) => v,
            Hybrid::Driven(_) => 1.0,
        }
    }

    /// The node's register.
    fn register(self) -> Option<Reg> {
        match self {
            Hybrid::Constant(_) => None,
            Hybrid::Driven(r) => Some(r),
        }
    }
}

/// A warp node's convention parameters.
#[derive(Clone, Copy)]
struct Warp {
    amplitude: Hybrid,
    frequency: Hybrid,
    octaves: u32,
    iterations: u32,
    noise: WarpNoise,
    fractal: WarpFractal,
    kernel: Kernel,
    lacunarity: Hybrid,
    gain: Hybrid,
}
