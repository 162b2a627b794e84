//! The graph file, parsed: nodes as written, every value checked, each with the JSON path
//! its errors name. The format is documented in `docs/graphs.md`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

type JsonObject = serde_json::Map<String, Value>;

use super::nodes::{node_type, NodeType, ParamKind};
use super::GraphError;
use crate::cpu::combine::WGPU_NOISE_FINITE;
use crate::field::{CellularOutput, Distance, FractalMode, Kernel};
use crate::text::{prefix, quote_prefix, QUOTE_BYTES};

/// The file format version this crate reads.
pub const FORMAT_VERSION: u64 = 1;
/// Most nodes a graph may hold, named and inline together.
pub const MAX_NODES: usize = 256;
/// Deepest chain of inputs from the output to a source.
pub const MAX_DEPTH: usize = 32;
/// The largest magnitude a parameter that scales or moves the domain may take (scale,
/// offset, amplitude, frequency): far beyond any useful value, far below f32's range.
pub const MAX_DOMAIN_PARAMETER: f64 = 1e6;
/// Most terrace steps.
pub const MAX_TERRACE_STEPS: u32 = 1024;
/// The seed offsets a node may add (their sum over a path is bounded the same way).
pub const MAX_SEED: i64 = 1 << 20;
/// The largest graph file (and graph text) read, in bytes: 1 MiB, thousands of times a
/// graph within the other limits.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// The longest node name, in bytes (UTF-8). Every JSON path of an error starts with one.
pub const MAX_NAME_BYTES: usize = 64;

/// An input of a node: another node by name, a node written in place, or a constant.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// A node of `nodes`, by name.
    Named(String),
    /// A node written where it is used.
    Inline(Box<NodeSpec>),
    /// A number, the `constant` node.
    Constant(f32),
}

/// A node as written, with the JSON path of its object (`nodes.mixed`, `nodes.mask.source`).
#[derive(Clone, Debug, PartialEq)]
pub struct NodeSpec {
    /// Where it is in the file, for messages.
    pub path: String,
    /// What it computes.
    pub node: NodeKind,
}

/// The kinds of lattice noise a warp's displacement can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpNoise {
    /// Classic Perlin noise.
    Classic,
    /// Simplex noise.
    Simplex,
    /// Value noise: random values on the lattice, blended, one noise per axis.
    Value,
    /// Value noise of vectors: one random vector per lattice point, blended, every axis
    /// from one noise (FastNoise2's `DomainWarpGradient`).
    Vector,
    /// OpenSimplex2S noise of vectors: each lattice point's contribution times a random
    /// vector, every axis from one lattice walk (FastNoise2's `DomainWarpSuperSimplex`).
    SuperSimplexVector,
    /// Simplex noise of vectors: each simplex corner's contribution times a random vector,
    /// every axis from one simplex (FastNoise2's `DomainWarpSimplex`).
    SimplexVector,
}

/// How a warp's octaves combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpFractal {
    /// Summed at one point, as fBm (FastNoise2's independent warp fractal).
    Independent,
    /// Each moves the point the octaves before it moved (FastNoise2's progressive one).
    Progressive,
}

/// How the `distance` node measures the difference `d` between the point and its `point`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Metric {
    /// `√Σ d²`.
    Euclidean,
    /// `Σ d²`.
    EuclideanSquared,
    /// `Σ |d|`.
    Manhattan,
    /// `max |d|`.
    Chebyshev,
    /// `Σ (d² + |d|)`: Euclidean squared plus Manhattan.
    Hybrid,
    /// `(Σ |d|^exponent)^(1/exponent)`.
    Minkowski { exponent: f32 },
}

impl From<Distance> for Metric {
    /// The metric of the command line's cellular `--distance`.
    fn from(d: Distance) -> Metric {
        match d {
            Distance::Euclidean => Metric::Euclidean,
            Distance::Manhattan => Metric::Manhattan,
            Distance::Chebyshev => Metric::Chebyshev,
        }
    }
}

/// What the `cellular` node returns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CellularValue {
    /// F1, F2, F2 − F1 or the cell value: the command line's `--cellular`.
    Output(CellularOutput),
    /// F3 or F4: the third or fourth nearest distance.
    Nearest(usize),
    /// `F_a op F_b`, `a` and `b` in 1 to 4 (FastNoise2's distance indices and return type):
    /// `op` is `Add`, `Subtract`, `Multiply` or `Divide`, the binary nodes' operations.
    Pair { op: Binary, a: usize, b: usize },
}

/// Combinations of two values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Binary {
    /// `a + b`.
    Add,
    /// `a - b`.
    Subtract,
    /// `a * b`.
    Multiply,
    /// `a / b`, 0 where `|b|` is below f32's smallest normal number.
    Divide,
    /// `a − b ⌊a / b⌋` (floored, as GLSL's `mod`), 0 where `|b|` is below f32's smallest
    /// normal number.
    Modulus,
    /// The smaller.
    Min,
    /// The larger.
    Max,
    /// `sign(a) |a|^b` (`pow` whose exponent `b` a node gives: `b` within 1/64 to 64).
    Pow,
    /// Polynomial smooth minimum with blend width `k > 0`.
    SmoothMin(f32),
    /// Polynomial smooth maximum with blend width `k > 0`.
    SmoothMax(f32),
}

/// Functions of one value.
#[derive(Clone, Debug, PartialEq)]
pub enum Map {
    /// `|v|`.
    Abs,
    /// `v` clamped to `[min, max]`.
    Clamp { min: f32, max: f32 },
    /// `[from.0, from.1]` mapped linearly onto `[to.0, to.1]` (not clamped).
    Remap { from: [f32; 2], to: [f32; 2] },
    /// `sign(v) |v|^exponent`.
    Pow { exponent: f32 },
    /// `steps` flat terraces per unit, joined by smooth ramps of relative width `smoothness`.
    Terrace { steps: f32, smoothness: f32 },
    /// A triangle wave of `v * strength`, in [-1, 1].
    PingPong { strength: f32 },
    /// A blend's `t` eased by a curve (the `blend` node's `interpolation`).
    Ease(Ease),
    /// `sin v` (`wgpu_noise_sin`: the same `f32` operations on the CPU and the GPU).
    Sine,
    /// `cos v` (`wgpu_noise_sin_slope`, as [`Map::Sine`]).
    Cosine,
    /// A monotone cubic spline through points (shared: a map is copied per octave).
    Curve(Arc<Curve>),
}

/// The `curve` node's spline, as every evaluator computes it: a monotone cubic Hermite
/// spline (Fritsch–Carlson tangents) through points of increasing `x`, constant past the
/// ends. Its `f32` numbers are computed once, in `f64`, when the graph is read.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// The points' `x`, increasing: 2 to [`MAX_CURVE_POINTS`].
    pub x: Vec<f32>,
    /// The first and the last point's `y`: the value at and past each end.
    pub ends: [f32; 2],
    /// Per segment `k` (from `x[k]` to `x[k + 1]`): `[1 / width, a, b, c, d]`, the cubic
    /// `a + t (b + t (c + t d))` in `t = (v − x[k]) / width` (`wgpu_noise_curve`).
    pub segments: Vec<[f32; 5]>,
}

/// Most points of a `curve` node.
pub const MAX_CURVE_POINTS: usize = 8;

/// The narrowest segment of a `curve`: `1 / width` is within about 1e30, as every number.
const MIN_CURVE_WIDTH: f64 = 1e-30;

impl Curve {
    /// The spline through `points` (`x` increasing by at least [`MIN_CURVE_WIDTH`]): the
    /// Fritsch–Carlson tangents (the secants' mean where they have one sign, else 0; one-sided
    /// at the ends; scaled down where they would overshoot), and each segment's cubic in `f64`,
    /// rounded to `f32`.
    fn through(points: &[[f32; 2]]) -> Curve {
        let n = points.len();
        let x: Vec<f64> = points.iter().map(|p| p[0] as f64).collect();
        let y: Vec<f64> = points.iter().map(|p| p[1] as f64).collect();
        let secant: Vec<f64> = (0..n - 1)
            .map(|k| (y[k + 1] - y[k]) / (x[k + 1] - x[k]))
            .collect();
        let mut m = vec![0.0; n];
        m[0] = secant[0];
        m[n - 1] = secant[n - 2];
        for k in 1..n - 1 {
            if secant[k - 1] * secant[k] > 0.0 {
                m[k] = (secant[k - 1] + secant[k]) / 2.0;
            }
        }
        for (k, &s) in secant.iter().enumerate() {
            if s == 0.0 {
                m[k] = 0.0;
                m[k + 1] = 0.0;
                continue;
            }
            let (alpha, beta) = (m[k] / s, m[k + 1] / s);
            let size = alpha * alpha + beta * beta;
            if size > 9.0 {
                let tau = 3.0 / size.sqrt();
                m[k] = tau * alpha * s;
                m[k + 1] = tau * beta * s;
            }
        }
        let segments = (0..n - 1)
            .map(|k| {
                let width = x[k + 1] - x[k];
                let rise = y[k + 1] - y[k];
                let (b, b1) = (width * m[k], width * m[k + 1]);
                [
                    1.0 / width,
                    y[k],
                    b,
                    3.0 * rise - 2.0 * b - b1,
                    -2.0 * rise + b + b1,
                ]
                .map(|v| v as f32)
            })
            .collect();
        Curve {
            x: points.iter().map(|p| p[0]).collect(),
            ends: [points[0][1], points[n - 1][1]],
            segments,
        }
    }
}

/// How a `blend` moves from `a` to `b` as its weight goes from 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ease {
    /// `3w² − 2w³`.
    Hermite,
    /// `6w⁵ − 15w⁴ + 10w³`.
    Quintic,
}

impl Ease {
    /// Its code in `wgpu_noise_ease`.
    pub(crate) fn code(self) -> u32 {
        match self {
            Ease::Hermite => crate::cpu::combine::WGPU_NOISE_EASE_HERMITE,
            Ease::Quintic => crate::cpu::combine::WGPU_NOISE_EASE_QUINTIC,
        }
    }
}

/// A coordinate plane a rotation turns.
pub type Plane = [usize; 2];

/// What a node computes (`docs/graphs.md` lists each with its parameters).
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// Classic Perlin noise.
    Classic { seed: i64 },
    /// Value noise.
    Value { seed: i64 },
    /// OpenSimplex2S ("SuperSimplex") noise, 2D to 4D.
    SuperSimplex { seed: i64 },
    /// White noise: a value per unit cell.
    White { seed: i64 },
    /// Simplex noise with a kernel.
    Simplex { seed: i64, kernel: Kernel },
    /// Cellular noise.
    Cellular {
        seed: i64,
        output: CellularValue,
        distance: Metric,
        /// `minkowski`'s exponent where a node gives it (`distance`'s number otherwise).
        driven_exponent: Option<Input>,
        jitter: Input,
    },
    /// `source` at the position of the nearest cellular feature times `frequency`
    /// (FastNoise2's CellularLookup).
    CellularLookup {
        source: Input,
        frequency: Input,
        seed: i64,
        distance: Metric,
        /// `minkowski`'s exponent where a node gives it (`distance`'s number otherwise).
        driven_exponent: Option<Input>,
        jitter: Input,
    },
    /// Flow noise: simplex noise with gradients turned by `angle` (2D and 3D), with a kernel.
    Flow {
        seed: i64,
        /// Radians: a number or an input.
        angle: Input,
        kernel: Kernel,
    },
    /// A constant.
    Constant(f32),
    /// One coordinate of the point.
    Position { axis: usize },
    /// The distance from the point to `point` by `metric`.
    Distance {
        /// Per axis a number or an input.
        point: Vec<Input>,
        metric: Metric,
        /// `minkowski`'s exponent where a node gives it (`metric`'s number otherwise).
        driven_exponent: Option<Input>,
    },
    /// `Σ (p + offset) × multiplier` over the axes (per axis a number or an input).
    Linear {
        multiplier: Vec<Input>,
        offset: Vec<Input>,
    },
    /// 1 in the unit cells whose whole-number coordinates sum to an even number, else -1.
    Checkerboard,
    /// `∏ sin(p / scale)` over the axes (FastNoise2's SineWave; `scale` its feature scale,
    /// per axis a number or an input).
    Sine { scale: Vec<Input> },
    /// A fractal sum of octaves of `source`.
    Fractal { source: Input, octaves: Octaves },
    /// `source` at the point scaled per axis.
    Scale { source: Input, by: [f32; 4] },
    /// `source` at the point moved by `by`.
    Offset { source: Input, by: [f32; 4] },
    /// `source` at the point scaled (`scale`) or moved by amounts nodes give per sample:
    /// `by` holds one input for every axis, or one per axis (a number a constant; all
    /// numbers are [`NodeKind::Scale`] or [`NodeKind::Offset`]).
    MovedBy {
        scale: bool,
        source: Input,
        by: Vec<Input>,
    },
    /// `source` at the point rotated by `angle` radians in `plane` (a number or a node).
    Rotate {
        source: Input,
        angle: Input,
        plane: Plane,
    },
    /// `source` at the point turned so that `plane` cuts the lattice evenly (FastNoise2's
    /// DomainRotatePlane): `plane` `[0, 1]` (xy) or `[0, 2]` (xz).
    RotatePlane { source: Input, plane: Plane },
    /// `source` at the point moved by a vector of noise: the fBm convention of the flags
    /// (`displacement` absent) or one input per axis.
    Warp {
        source: Input,
        amplitude: Input,
        frequency: Input,
        octaves: u32,
        iterations: u32,
        noise: WarpNoise,
        fractal: WarpFractal,
        kernel: Kernel,
        lacunarity: Input,
        gain: Input,
        displacement: Option<Vec<Input>>,
    },
    /// `source` with every noise source's seed moved by `offset`.
    SeedOffset { source: Input, offset: i64 },
    /// `source` one dimension up, at the point with `position` as its last coordinate
    /// (FastNoise2's AddDimension).
    AddDimension { source: Input, position: Input },
    /// `source` one dimension down, at the point without coordinate `axis` (FastNoise2's
    /// RemoveDimension).
    RemoveDimension { source: Input, axis: usize },
    /// Two inputs combined.
    Binary { op: Binary, a: Input, b: Input },
    /// A smooth minimum (or maximum, `max`) of `a` and `b` whose blend width `k` a node
    /// gives per sample (a number is [`Binary::SmoothMin`]'s or [`Binary::SmoothMax`]'s).
    Smooth {
        max: bool,
        a: Input,
        b: Input,
        k: Input,
    },
    /// `a` to `b` as `t` goes from -1 to 1 (clamped).
    Blend {
        a: Input,
        b: Input,
        t: Input,
        /// `None`: linear.
        ease: Option<Ease>,
    },
    /// A `remap` with an end given by a node per sample (one of numbers only is a
    /// [`Map::Remap`]): `from` mapped linearly onto `to`, then clamped to `to`'s range
    /// where `clamp`.
    Remap {
        source: Input,
        from: Box<[Input; 2]>,
        to: Box<[Input; 2]>,
        clamp: bool,
    },
    /// A `pow` whose `exponent` a node gives per sample (a number is [`Map::Pow`]'s).
    Pow { source: Input, exponent: Input },
    /// A `clamp` whose `[min, max]` nodes give per sample (numbers are [`Map::Clamp`]'s).
    Clamp { source: Input, ends: Box<[Input; 2]> },
    /// A `terrace` whose ramps' `smoothness` a node gives per sample (a number is
    /// [`Map::Terrace`]'s).
    Terrace {
        source: Input,
        steps: f32,
        smoothness: Input,
    },
    /// A function of one input, and a second one after it (a remap's clamp).
    Map {
        op: Map,
        source: Input,
        then: Option<Map>,
        /// A node the source is multiplied by before `op` (a node-driven parameter that
        /// scales the value, as ping-pong's `strength`).
        by: Option<Input>,
    },
}

/// How a fractal node sums its source's octaves.
#[derive(Clone, Debug, PartialEq)]
pub struct Octaves {
    /// How each octave is shaped and summed.
    pub mode: FractalMode,
    /// How many.
    pub count: u32,
    /// Each octave's frequency over the one before: a number, or a node giving it per
    /// sample.
    pub lacunarity: Input,
    /// Each octave's amplitude over the one before: a number, or a node giving it per
    /// sample.
    pub gain: Input,
    /// Each octave's seed over the one before.
    pub seed_step: i64,
    /// fBm and ridged only: how much each octave is scaled by the octaves before it (0: not
    /// at all): a number, or a node giving it per sample.
    pub weighted_strength: Input,
}

/// A whole graph file: its nodes by name and the output node's name.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphSpec {
    /// The named nodes.
    pub nodes: BTreeMap<String, NodeSpec>,
    /// The name of the node the graph's value is.
    pub output: String,
}

/// A per-axis parameter's amounts as read: numbers alone, or inputs (one for every axis, or
/// one per axis).
enum Amounts {
    Numbers([f32; 4]),
    Inputs(Vec<Input>),
}

impl Amounts {
    /// One input per axis (numbers as constants).
    fn per_axis(self) -> Vec<Input> {
        match self {
            Amounts::Numbers(n) => n.map(Input::Constant).to_vec(),
            Amounts::Inputs(all) if all.len() == 1 => vec![all[0].clone(); 4],
            Amounts::Inputs(axes) => axes,
        }
    }
}

/// The object of one node while its parameters are read: every key read is removed, and
/// whatever is left at the end is an unknown parameter.
struct Fields<'a> {
    path: &'a str,
    /// The node's type, whose table entry gives each parameter's range and default.
    ty: &'static NodeType,
    map: JsonObject,
    /// Nodes parsed so far (a bound on the file's size in nodes).
    count: &'a mut usize,
}

/// A number for messages: plain where short, in exponent form where large or tiny.
fn show(v: f64) -> String {
    if v == 0.0 || (1e-4..1e15).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// A JSON value for messages: as written, cut to its first [`QUOTE_BYTES`] bytes (a JSON
/// string's control characters are escaped already).
fn shown(v: &Value) -> String {
    let text = v.to_string();
    match prefix(&text, QUOTE_BYTES) {
        (all, false) => all.to_string(),
        (head, true) => format!("{head}…"),
    }
}

fn err(path: &str, message: impl Into<String>) -> GraphError {
    GraphError {
        path: path.to_string(),
        message: message.into(),
    }
}

impl Fields<'_> {
    fn key_path(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    fn take(&mut self, key: &str) -> Option<Value> {
        self.map.remove(key)
    }

    /// The node table's entry for the parameter `key` of this node's type.
    ///
    /// # Panics
    /// If the table does not list it (a programming error: `tests/reference/node_table.rs`
    /// reads every parameter of every type).
    fn kind(&self, key: &str) -> ParamKind {
        match self.ty.param(key) {
            Some(p) => p.kind,
            None => panic!("the node table has no parameter {key} of {}", self.ty.name),
        }
    }

    /// The node table gives `key` another kind than the reader asks for (a programming error,
    /// as [`Fields::kind`]'s).
    fn wrong_kind(&self, key: &str, asked: &str) -> ! {
        panic!("{key} of {} is not {asked} in the node table", self.ty.name)
    }

    /// A number parameter: in its range, as f32 (which must be finite and, if the number
    /// is not 0, not 0).
    fn number(&mut self, key: &str) -> Result<f32, GraphError> {
        let ParamKind::Number { lo, hi, default } = self.kind(key) else {
            self.wrong_kind(key, "a number")
        };
        let path = self.key_path(key);
        let v = match (self.take(key), default) {
            (Some(v), _) => number(&path, &v)?,
            (None, Some(d)) => d,
            (None, None) => return Err(err(&path, "missing (required)")),
        };
        ranged(&path, v, lo, hi)
    }

    /// A whole-number parameter in its range.
    fn integer(&mut self, key: &str) -> Result<i64, GraphError> {
        let ParamKind::Integer { lo, hi, default } = self.kind(key) else {
            self.wrong_kind(key, "an integer")
        };
        let path = self.key_path(key);
        let Some(v) = self.take(key) else {
            return Ok(default);
        };
        let out_of_range =
            |n: &dyn std::fmt::Display| err(&path, format!("{n} is out of range ({lo} to {hi})"));
        // A whole number however written: -0 is 0, 1e3 is 1000, 2^63 is out of range.
        if let Some(n) = v.as_i64() {
            return if (lo..=hi).contains(&n) {
                Ok(n)
            } else {
                Err(out_of_range(&n))
            };
        }
        if let Some(n) = v.as_u64() {
            return Err(out_of_range(&n));
        }
        match v.as_f64() {
            Some(f) if f.fract() == 0.0 => {
                if (lo as f64..=hi as f64).contains(&f) {
                    Ok(f as i64)
                } else {
                    Err(out_of_range(&show(f)))
                }
            }
            _ => Err(err(
                &path,
                format!("must be a whole number, not {}", shown(&v)),
            )),
        }
    }

    /// A metric: the choice `key` among the six, with `exponent` for `minkowski` (the
    /// `distance` node's `metric` and the `cellular` node's `distance`).
    /// The metric `key` with its `exponent`, a number or an input: the metric with the
    /// number, or with 1 and the input that gives the exponent per sample.
    fn metric(&mut self, key: &str) -> Result<(Metric, Option<Input>), GraphError> {
        Ok(match self.hybrid("exponent")? {
            Input::Constant(exponent) => (self.metric_of(key, exponent)?, None),
            // Its number unused: the node gives the exponent.
            driven => (self.metric_of(key, 1.0)?, Some(driven)),
        })
    }

    /// The metric `key` with `exponent` for `minkowski`.
    fn metric_of(&mut self, key: &str, exponent: f32) -> Result<Metric, GraphError> {
        self.choice(
            key,
            &[
                Metric::Euclidean,
                Metric::EuclideanSquared,
                Metric::Manhattan,
                Metric::Chebyshev,
                Metric::Hybrid,
                Metric::Minkowski { exponent },
            ],
        )
    }

    /// A choice parameter: the value of `values` at the position of its name in the table.
    fn choice<T: Copy>(&mut self, key: &str, values: &[T]) -> Result<T, GraphError> {
        let ParamKind::Choice { names, default } = self.kind(key) else {
            self.wrong_kind(key, "a choice")
        };
        assert_eq!(names.len(), values.len(), "{key} of {}", self.ty.name);
        let path = self.key_path(key);
        let chosen = match (self.take(key), default) {
            (Some(v), _) => {
                let s = v
                    .as_str()
                    .ok_or_else(|| err(&path, format!("must be a string, not {}", shown(&v))))?;
                names.iter().position(|n| *n == s).ok_or_else(|| {
                    err(
                        &path,
                        format!("{} is not one of {}", quote_prefix(s), names.join(", ")),
                    )
                })?
            }
            (None, Some(d)) => names.iter().position(|n| *n == d).unwrap_or(0),
            (None, None) => return Err(err(&path, "missing (required)")),
        };
        Ok(values[chosen])
    }

    /// A number in its range, or an input (a node used per sample as it is).
    fn hybrid(&mut self, key: &str) -> Result<Input, GraphError> {
        let ParamKind::Hybrid { lo, hi, default } = self.kind(key) else {
            self.wrong_kind(key, "a number or an input")
        };
        let path = self.key_path(key);
        match self.take(key) {
            None => match default {
                Some(d) => Ok(Input::Constant(ranged(&path, d, lo, hi)?)),
                None => Err(err(&path, "missing (required)")),
            },
            Some(v) => self.number_or_input(&path, v, lo, hi),
        }
    }

    /// `v` at `path`: a number in `lo..=hi` as a constant, anything else read as an input.
    fn number_or_input(&mut self, path: &str, v: Value, lo: f64, hi: f64) -> Result<Input, GraphError> {
        if v.is_number() {
            return Ok(Input::Constant(ranged(path, number(path, &v)?, lo, hi)?));
        }
        input(path, v, self.count)
    }

    fn input(&mut self, key: &str) -> Result<Input, GraphError> {
        debug_assert_eq!(self.kind(key), ParamKind::Input);
        let path = self.key_path(key);
        let v = self
            .take(key)
            .ok_or_else(|| err(&path, "missing (required)"))?;
        input(&path, v, self.count)
    }

    /// An optional array of inputs.
    fn inputs(&mut self, key: &str) -> Result<Option<Vec<Input>>, GraphError> {
        let ParamKind::Inputs { min, max } = self.kind(key) else {
            self.wrong_kind(key, "an input array")
        };
        let path = self.key_path(key);
        match self.take(key) {
            None => Ok(None),
            Some(Value::Array(items)) => {
                if items.len() < min || items.len() > max {
                    return Err(err(
                        &path,
                        format!("must have {min} to {max} inputs, not {}", items.len()),
                    ));
                }
                let mut inputs = Vec::with_capacity(items.len());
                for (a, item) in items.into_iter().enumerate() {
                    inputs.push(input(&format!("{path}[{a}]"), item, self.count)?);
                }
                Ok(Some(inputs))
            }
            Some(other) => Err(err(
                &path,
                format!("must be an array of inputs, not {}", shown(&other)),
            )),
        }
    }

    /// A per-axis parameter whose amounts may be inputs: one number for every axis, or an
    /// array of 1 to 4 (missing axes the default); else one input for every axis, or four,
    /// one per axis (numbers as constants, missing axes the default).
    fn hybrid_per_axis(&mut self, key: &str) -> Result<Amounts, GraphError> {
        let ParamKind::HybridPerAxis { lo, hi, default } = self.kind(key) else {
            self.wrong_kind(key, "per axis, numbers or inputs")
        };
        let path = self.key_path(key);
        let default = ranged(&path, default, lo, hi)?;
        let items = match self.take(key) {
            None => return Ok(Amounts::Numbers([default; 4])),
            Some(v) if v.is_number() => {
                let n = ranged(&path, number(&path, &v)?, lo, hi)?;
                return Ok(Amounts::Numbers([n; 4]));
            }
            Some(Value::Array(items)) => items,
            Some(v) => return Ok(Amounts::Inputs(vec![input(&path, v, self.count)?])),
        };
        if items.is_empty() || items.len() > 4 {
            return Err(err(
                &path,
                format!("must have 1 to 4 numbers or inputs, not {}", items.len()),
            ));
        }
        let mut out = vec![Input::Constant(default); 4];
        for (a, item) in items.into_iter().enumerate() {
            out[a] = self.number_or_input(&format!("{path}[{a}]"), item, lo, hi)?;
        }
        let mut numbers = [default; 4];
        for (n, input) in numbers.iter_mut().zip(&out) {
            match input {
                Input::Constant(c) => *n = *c,
                _ => return Ok(Amounts::Inputs(out)),
            }
        }
        Ok(Amounts::Numbers(numbers))
    }

    /// A `[low, high]` parameter whose ends are each a number in range or an input.
    fn hybrid_pair(&mut self, key: &str) -> Result<[Input; 2], GraphError> {
        let ParamKind::HybridPair { lo, hi, default } = self.kind(key) else {
            self.wrong_kind(key, "a pair of numbers or inputs")
        };
        let path = self.key_path(key);
        match self.take(key) {
            None => Ok([
                Input::Constant(ranged(&path, default[0], lo, hi)?),
                Input::Constant(ranged(&path, default[1], lo, hi)?),
            ]),
            Some(Value::Array(items)) if items.len() == 2 => {
                let mut out = [Input::Constant(0.0), Input::Constant(0.0)];
                for (a, item) in items.into_iter().enumerate() {
                    out[a] = self.number_or_input(&format!("{path}[{a}]"), item, lo, hi)?;
                }
                Ok(out)
            }
            Some(other) => Err(err(
                &path,
                format!("must be [low, high], not {}", shown(&other)),
            )),
        }
    }

    /// A `[[x, y], …]` parameter: its points, each number in range, `x` increasing.
    fn points(&mut self, key: &str) -> Result<Vec<[f32; 2]>, GraphError> {
        let ParamKind::Points { min, max, lo, hi } = self.kind(key) else {
            self.wrong_kind(key, "points")
        };
        let path = self.key_path(key);
        let items = match self.take(key) {
            None => return Err(err(&path, "missing (required)")),
            Some(Value::Array(items)) if (min..=max).contains(&items.len()) => items,
            Some(Value::Array(items)) => {
                return Err(err(
                    &path,
                    format!("must have {min} to {max} points, not {}", items.len()),
                ))
            }
            Some(other) => {
                return Err(err(
                    &path,
                    format!("must be an array of [x, y] points, not {}", shown(&other)),
                ))
            }
        };
        let mut points: Vec<[f32; 2]> = Vec::with_capacity(items.len());
        for (k, item) in items.iter().enumerate() {
            let p = format!("{path}[{k}]");
            let Value::Array(xy) = item else {
                return Err(err(&p, format!("must be [x, y], not {}", shown(item))));
            };
            if xy.len() != 2 {
                return Err(err(&p, format!("must be [x, y], not {}", shown(item))));
            }
            let mut point = [0.0; 2];
            for (a, v) in xy.iter().enumerate() {
                let pa = format!("{p}[{a}]");
                point[a] = ranged(&pa, number(&pa, v)?, lo, hi)?;
            }
            if let Some(previous) = points.last() {
                if (point[0] as f64 - previous[0] as f64) < MIN_CURVE_WIDTH {
                    return Err(err(
                        &format!("{p}[0]"),
                        format!(
                            "x must increase, by at least {MIN_CURVE_WIDTH:e}: {} after {}",
                            point[0], previous[0]
                        ),
                    ));
                }
            }
            points.push(point);
        }
        Ok(points)
    }

    /// The node `node` read from these fields, none left over ([`Fields::finish`]).
    fn done(self, node: NodeKind) -> Result<NodeSpec, GraphError> {
        let path = self.path.to_string();
        self.finish()?;
        Ok(NodeSpec { path, node })
    }

    /// Any key left is not a parameter of this node.
    fn finish(self) -> Result<(), GraphError> {
        match self.map.keys().next() {
            None => Ok(()),
            Some(k) => Err(err(
                &format!("{}.{k}", self.path),
                format!("unknown parameter of a \"{}\" node", self.ty.name),
            )),
        }
    }
}

fn number(path: &str, v: &Value) -> Result<f64, GraphError> {
    let n = v
        .as_f64()
        .ok_or_else(|| err(path, format!("must be a number, not {}", shown(v))))?;
    // serde_json reads numbers beyond f64 as infinity only with arbitrary precision off;
    // either way a non-finite number is refused here.
    if !n.is_finite() {
        return Err(err(path, "must be finite"));
    }
    Ok(n)
}

/// The largest magnitude of a number in a graph, constants included: the bound every
/// value is clamped to ([`WGPU_NOISE_FINITE`], docs/graphs.md "Finite numbers").
const LARGEST: f64 = WGPU_NOISE_FINITE;

/// `v` in `[lo, hi]` and, unless it is 0, a normal f32 (a subnormal one is refused: GPUs
/// may flush it to 0, so the CPU and the GPU would compute with different numbers).
fn ranged(path: &str, v: f64, lo: f64, hi: f64) -> Result<f32, GraphError> {
    if !(lo..=hi).contains(&v) {
        return Err(err(
            path,
            format!("{} is out of range ({} to {})", show(v), show(lo), show(hi)),
        ));
    }
    let f = v as f32;
    if v != 0.0 && f.abs() < f32::MIN_POSITIVE {
        return Err(err(
            path,
            format!(
                "{} is too small for f32 (0 or at least {:e} in magnitude: GPUs may flush smaller numbers to 0)",
                show(v),
                f32::MIN_POSITIVE
            ),
        ));
    }
    Ok(f)
}

fn input(path: &str, v: Value, count: &mut usize) -> Result<Input, GraphError> {
    match v {
        Value::String(name) if name.len() > MAX_NAME_BYTES => Err(err(
            path,
            format!(
                "no node is named {} (a name is at most {MAX_NAME_BYTES} bytes)",
                quote_prefix(&name)
            ),
        )),
        Value::String(name) => Ok(Input::Named(name)),
        Value::Number(_) => {
            let n = number(path, &v)?;
            Ok(Input::Constant(ranged(path, n, -LARGEST, LARGEST)?))
        }
        Value::Object(map) => Ok(Input::Inline(Box::new(node(path, map, count)?))),
        other => Err(err(
            path,
            format!(
                "must be a node's name, a node object or a number, not {}",
                shown(&other)
            ),
        )),
    }
}

const KERNELS: [Kernel; 2] = [Kernel::Reference, Kernel::Continuous];

/// The node object at `path`.
fn node(path: &str, mut map: JsonObject, count: &mut usize) -> Result<NodeSpec, GraphError> {
    *count += 1;
    if *count > MAX_NODES {
        return Err(err(
            path,
            format!("the graph has more than {MAX_NODES} nodes"),
        ));
    }
    let kind_path = format!("{path}.type");
    let kind = match map.remove("type") {
        Some(Value::String(s)) => s,
        Some(other) => {
            return Err(err(
                &kind_path,
                format!("must be a string, not {}", shown(&other)),
            ))
        }
        None => return Err(err(&kind_path, "missing: every node has a \"type\"")),
    };
    let Some(ty) = node_type(&kind) else {
        return Err(err(
            &kind_path,
            format!(
                "unknown node type {} (docs/graphs.md lists them)",
                quote_prefix(&kind)
            ),
        ));
    };
    let mut f = Fields {
        path,
        ty,
        map,
        count,
    };
    let node = match ty.name {
        "classic" => NodeKind::Classic {
            seed: f.integer("seed")?,
        },
        "value" => NodeKind::Value {
            seed: f.integer("seed")?,
        },
        "white" => NodeKind::White {
            seed: f.integer("seed")?,
        },
        "supersimplex" => NodeKind::SuperSimplex {
            seed: f.integer("seed")?,
        },
        "simplex" => NodeKind::Simplex {
            seed: f.integer("seed")?,
            kernel: f.choice("kernel", &KERNELS)?,
        },
        "cellular" => {
            let seed = f.integer("seed")?;
            let output = {
                let (a, b) = (f.integer("a")? as usize, f.integer("b")? as usize);
                let pair = |op| CellularValue::Pair { op, a, b };
                f.choice(
                    "output",
                    &[
                        CellularValue::Output(CellularOutput::F1),
                        CellularValue::Output(CellularOutput::F2),
                        CellularValue::Output(CellularOutput::F2MinusF1),
                        CellularValue::Output(CellularOutput::Cell),
                        CellularValue::Nearest(3),
                        CellularValue::Nearest(4),
                        pair(Binary::Add),
                        pair(Binary::Subtract),
                        pair(Binary::Multiply),
                        pair(Binary::Divide),
                    ],
                )?
            };
            let (distance, driven_exponent) = f.metric("distance")?;
            NodeKind::Cellular {
                seed,
                output,
                distance,
                driven_exponent,
                jitter: f.hybrid("jitter")?,
            }
        }
        "cellular-lookup" => {
            let source = f.input("source")?;
            let frequency = f.hybrid("frequency")?;
            let seed = f.integer("seed")?;
            let (distance, driven_exponent) = f.metric("distance")?;
            NodeKind::CellularLookup {
                source,
                frequency,
                seed,
                distance,
                driven_exponent,
                jitter: f.hybrid("jitter")?,
            }
        }
        "flow" => NodeKind::Flow {
            seed: f.integer("seed")?,
            angle: f.hybrid("angle")?,
            kernel: f.choice("kernel", &KERNELS)?,
        },
        "constant" => NodeKind::Constant(f.number("value")?),
        "position" => NodeKind::Position {
            axis: f.choice("axis", &[0, 1, 2, 3])?,
        },
        "distance" => {
            let point = f.hybrid_per_axis("point")?.per_axis();
            let (metric, driven_exponent) = f.metric("metric")?;
            NodeKind::Distance {
                point,
                metric,
                driven_exponent,
            }
        }
        "linear" => NodeKind::Linear {
            multiplier: f.hybrid_per_axis("multiplier")?.per_axis(),
            offset: f.hybrid_per_axis("offset")?.per_axis(),
        },
        "checkerboard" => NodeKind::Checkerboard,
        "sine" => NodeKind::Sine {
            scale: f.hybrid_per_axis("scale")?.per_axis(),
        },
        "fbm" | "ridged" | "turbulence" => NodeKind::Fractal {
            source: f.input("source")?,
            octaves: Octaves {
                mode: match ty.name {
                    "fbm" => FractalMode::Fbm,
                    "ridged" => FractalMode::Ridged,
                    _ => FractalMode::Turbulence,
                },
                count: f.integer("octaves")? as u32,
                lacunarity: f.hybrid("lacunarity")?,
                gain: f.hybrid("gain")?,
                seed_step: f.integer("seed_step")?,
                weighted_strength: match ty.name {
                    "fbm" | "ridged" => f.hybrid("weighted_strength")?,
                    _ => Input::Constant(0.0),
                },
            },
        },
        "scale" | "offset" => {
            let source = f.input("source")?;
            let scale = ty.name == "scale";
            match f.hybrid_per_axis("by")? {
                Amounts::Numbers(by) if scale => NodeKind::Scale { source, by },
                Amounts::Numbers(by) => NodeKind::Offset { source, by },
                Amounts::Inputs(by) => NodeKind::MovedBy { scale, source, by },
            }
        }
        "rotate" => NodeKind::Rotate {
            source: f.input("source")?,
            angle: f.hybrid("angle")?,
            plane: f.choice("plane", &[[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]])?,
        },
        "rotate-plane" => NodeKind::RotatePlane {
            source: f.input("source")?,
            plane: f.choice("plane", &[[0, 1], [0, 2]])?,
        },
        "warp" => {
            let (source, amplitude, frequency) =
                (f.input("source")?, f.hybrid("amplitude")?, f.hybrid("frequency")?);
            let octaves = f.integer("octaves")? as u32;
            let iterations = f.integer("iterations")? as u32;
            let noise = f.choice(
                "noise",
                &[
                    WarpNoise::Simplex,
                    WarpNoise::Classic,
                    WarpNoise::Value,
                    WarpNoise::Vector,
                    WarpNoise::SuperSimplexVector,
                    WarpNoise::SimplexVector,
                ],
            )?;
            let fractal = f.choice(
                "fractal",
                &[WarpFractal::Independent, WarpFractal::Progressive],
            )?;
            let kernel = f.choice("kernel", &KERNELS)?;
            // Only simplex noise has a kernel to choose: anywhere else the choice would be
            // silently ignored.
            if kernel == Kernel::Continuous
                && !matches!(noise, WarpNoise::Simplex | WarpNoise::SimplexVector)
            {
                return Err(err(
                    &f.key_path("kernel"),
                    "the continuous kernel applies to the simplex and simplex-vector warps \
                     only (this warp's noise has no kernel to change)",
                ));
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
                lacunarity: f.hybrid("lacunarity")?,
                gain: f.hybrid("gain")?,
                displacement: f.inputs("displacement")?,
            }
        }
        "seed" => NodeKind::SeedOffset {
            source: f.input("source")?,
            offset: f.integer("offset")?,
        },
        "add-dimension" => NodeKind::AddDimension {
            source: f.input("source")?,
            position: f.hybrid("position")?,
        },
        "remove-dimension" => NodeKind::RemoveDimension {
            source: f.input("source")?,
            axis: f.choice("axis", &[0, 1, 2, 3])?,
        },
        "add" | "subtract" | "multiply" | "divide" | "modulus" | "min" | "max" | "smooth-min"
        | "smooth-max" => {
            let a = f.input("a")?;
            let b = f.input("b")?;
            let op = match ty.name {
                "add" => Binary::Add,
                "subtract" => Binary::Subtract,
                "multiply" => Binary::Multiply,
                "divide" => Binary::Divide,
                "modulus" => Binary::Modulus,
                "min" => Binary::Min,
                "max" => Binary::Max,
                smooth => {
                    let max = smooth == "smooth-max";
                    match f.hybrid("k")? {
                        Input::Constant(k) if max => Binary::SmoothMax(k),
                        Input::Constant(k) => Binary::SmoothMin(k),
                        k => return f.done(NodeKind::Smooth { max, a, b, k }),
                    }
                }
            };
            NodeKind::Binary { op, a, b }
        }
        "blend" => NodeKind::Blend {
            a: f.input("a")?,
            b: f.input("b")?,
            t: f.input("t")?,
            ease: f.choice(
                "interpolation",
                &[None, Some(Ease::Hermite), Some(Ease::Quintic)],
            )?,
        },
        _ => {
            let source = f.input("source")?;
            let mut then = None;
            let mut by = None;
            let op = match ty.name {
                "abs" => Map::Abs,
                "clamp" => {
                    let (min, max) = match (f.hybrid("min")?, f.hybrid("max")?) {
                        (Input::Constant(min), Input::Constant(max)) => (min, max),
                        (min, max) => {
                            return f.done(NodeKind::Clamp {
                                source,
                                ends: Box::new([min, max]),
                            })
                        }
                    };
                    if min > max {
                        return Err(err(
                            &f.key_path("max"),
                            format!("{max} is below min ({min})"),
                        ));
                    }
                    Map::Clamp { min, max }
                }
                "remap" => {
                    let from = f.hybrid_pair("from")?;
                    // The slope divides by their difference, a normal f32 (as every number);
                    // ends given by nodes are `divide`'s (docs/graphs.md).
                    if let [Input::Constant(low), Input::Constant(high)] = from {
                        if (high - low).abs() < f32::MIN_POSITIVE {
                            return Err(err(
                                &f.key_path("from"),
                                format!(
                                    "the two ends must differ (by at least {:e})",
                                    f32::MIN_POSITIVE
                                ),
                            ));
                        }
                    }
                    let to = f.hybrid_pair("to")?;
                    let clamp = f.choice("clamp", &[false, true])?;
                    let (from, to) = match (from, to) {
                        (
                            [Input::Constant(f0), Input::Constant(f1)],
                            [Input::Constant(t0), Input::Constant(t1)],
                        ) => ([f0, f1], [t0, t1]),
                        (from, to) => {
                            return f.done(NodeKind::Remap {
                                source,
                                from: Box::new(from),
                                to: Box::new(to),
                                clamp,
                            })
                        }
                    };
                    // Clamped to `to`'s range, whichever way it runs.
                    if clamp {
                        then = Some(Map::Clamp {
                            min: to[0].min(to[1]),
                            max: to[0].max(to[1]),
                        });
                    }
                    Map::Remap { from, to }
                }
                "pow" => match f.hybrid("exponent")? {
                    Input::Constant(exponent) => Map::Pow { exponent },
                    exponent => {
                        return f.done(NodeKind::Pow {
                            source,
                            exponent,
                        })
                    }
                },
                "signed-sqrt" => Map::Pow { exponent: 0.5 },
                "curve" => Map::Curve(Arc::new(Curve::through(&f.points("points")?))),
                "terrace" => {
                    let steps = f.integer("steps")? as f32;
                    match f.hybrid("smoothness")? {
                        Input::Constant(smoothness) => Map::Terrace { steps, smoothness },
                        smoothness => {
                            return f.done(NodeKind::Terrace {
                                source,
                                steps,
                                smoothness,
                            })
                        }
                    }
                }
                "ping-pong" => match f.hybrid("strength")? {
                    Input::Constant(strength) => Map::PingPong { strength },
                    // `tri(v × s)`: the product, then the wave of strength 1.
                    node => {
                        by = Some(node);
                        Map::PingPong { strength: 1.0 }
                    }
                },
                other => unreachable!("the node table's type {other} has no reader"),
            };
            NodeKind::Map {
                op,
                source,
                then,
                by,
            }
        }
    };
    f.done(node)
}

impl GraphSpec {
    /// Parses a graph file. Checks every value and name; cycles and references are checked
    /// when it is lowered ([`super::Graph::from_json`] does both).
    pub fn from_json(text: &str) -> Result<GraphSpec, GraphError> {
        if text.len() > MAX_FILE_BYTES {
            return Err(err(
                "",
                format!(
                    "a graph of {} bytes is larger than the limit, {MAX_FILE_BYTES} bytes",
                    text.len()
                ),
            ));
        }
        let value = super::json::parse(text)?;
        let Value::Object(mut top) = value else {
            return Err(err("", "a graph file is a JSON object"));
        };
        match top.remove("version") {
            Some(v) if v.as_u64() == Some(FORMAT_VERSION) => {}
            Some(v) => {
                return Err(err(
                    "version",
                    format!(
                        "{} is not a version this build reads ({FORMAT_VERSION})",
                        shown(&v)
                    ),
                ))
            }
            None => return Err(err("version", "missing: write \"version\": 1")),
        }
        let output = match top.remove("output") {
            Some(Value::String(s)) => s,
            Some(other) => {
                return Err(err(
                    "output",
                    format!("must be a node's name, not {}", shown(&other)),
                ))
            }
            None => return Err(err("output", "missing: the name of the node to output")),
        };
        let nodes_value = match top.remove("nodes") {
            Some(Value::Object(m)) => m,
            Some(other) => {
                return Err(err(
                    "nodes",
                    format!("must be an object of named nodes, not {}", shown(&other)),
                ))
            }
            None => return Err(err("nodes", "missing")),
        };
        if let Some(k) = top.keys().next() {
            return Err(err(
                k,
                "unknown key (a graph has version, output and nodes)",
            ));
        }
        let mut count = 0;
        let mut nodes = BTreeMap::new();
        for (name, v) in nodes_value {
            if name.len() > MAX_NAME_BYTES {
                return Err(err(
                    &format!("nodes.{}…", prefix(&name, MAX_NAME_BYTES).0),
                    format!(
                        "a node's name is at most {MAX_NAME_BYTES} bytes, not {}",
                        name.len()
                    ),
                ));
            }
            let path = format!("nodes.{name}");
            let Value::Object(map) = v else {
                return Err(err(
                    &path,
                    format!("must be a node object, not {}", shown(&v)),
                ));
            };
            nodes.insert(name, node(&path, map, &mut count)?);
        }
        if !nodes.contains_key(&output) {
            return Err(err(
                "output",
                format!("no node is named {}", quote_prefix(&output)),
            ));
        }
        Ok(GraphSpec { nodes, output })
    }
}
