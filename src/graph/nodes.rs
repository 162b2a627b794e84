//! The node table: every node type a graph file may hold, each written once with its
//! parameters (kind, range, default), what it computes, its output range and its derivative
//! rule. The JSON reader ([`super::spec`]) takes each parameter's range and default from
//! here, `docs/graphs.md`'s node reference is this table (checked by
//! `tests/reference/node_table.rs`), and an editor can build its widgets from it.

use super::program::{
    MAX_ANGLE, MAX_CELLULAR_EXPONENT, MAX_DISTANCE_EXPONENT, MAX_EXPONENT, MIN_CELLULAR_EXPONENT,
    MIN_DISTANCE_EXPONENT, MIN_EXPONENT,
};
use super::spec::{MAX_CURVE_POINTS, MAX_DOMAIN_PARAMETER, MAX_SEED, MAX_TERRACE_STEPS};
use crate::cpu::combine::WGPU_NOISE_FINITE;
use crate::field::MAX_OCTAVES;

/// Where a node type is listed in `docs/graphs.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Values from the point alone: noise, constants, coordinates.
    Sources,
    /// Sums of octaves of a source.
    Fractals,
    /// A source evaluated at a moved point.
    Domain,
    /// Functions of one or more values.
    Combinations,
}

impl Group {
    /// Every group, in the order of `docs/graphs.md`.
    pub const ALL: [Group; 4] = [
        Group::Sources,
        Group::Fractals,
        Group::Domain,
        Group::Combinations,
    ];

    /// Its name in the docs' markers (`<!-- node-table: sources -->`).
    pub fn name(self) -> &'static str {
        match self {
            Group::Sources => "sources",
            Group::Fractals => "fractals",
            Group::Domain => "domain",
            Group::Combinations => "combinations",
        }
    }
}

/// What a parameter holds and which values it takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// Another node: a name, a node written in place or a number.
    Input,
    /// An array of `min` to `max` inputs (absent unless written).
    Inputs { min: usize, max: usize },
    /// A number in `[lo, hi]` (`default` when absent; `None`: required), or an input: a
    /// node evaluated per sample, used as it is.
    Hybrid {
        lo: f64,
        hi: f64,
        default: Option<f64>,
    },
    /// A number in `[lo, hi]`; `None`: required.
    Number {
        lo: f64,
        hi: f64,
        default: Option<f64>,
    },
    /// A whole number in `[lo, hi]`.
    Integer { lo: i64, hi: i64, default: i64 },
    /// One of `names`; `None`: required.
    Choice {
        names: &'static [&'static str],
        default: Option<&'static str>,
    },
    /// One number or input for every axis, or an array of 1 to 4 (missing axes take
    /// `default`), each a number in `[lo, hi]` or an input (a node evaluated per sample; the
    /// node's doc says whether its value is clamped to `[lo, hi]`).
    HybridPerAxis { lo: f64, hi: f64, default: f64 },
    /// Two ends `[low, high]`, each a number in `[lo, hi]` or an input: a node evaluated per
    /// sample, used as it is.
    HybridPair { lo: f64, hi: f64, default: [f64; 2] },
    /// `min` to `max` points `[x, y]`, each number in `[lo, hi]`, `x` increasing; required.
    Points {
        min: usize,
        max: usize,
        lo: f64,
        hi: f64,
    },
}

/// One parameter of a node type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// Its key in the node's JSON object.
    pub name: &'static str,
    /// What it holds.
    pub kind: ParamKind,
}

/// One node type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeType {
    /// Its `"type"` in the file.
    pub name: &'static str,
    /// Where the docs list it.
    pub group: Group,
    /// Its parameters, in the order the docs list them.
    pub params: &'static [Param],
    /// What it computes, in one line.
    pub doc: &'static str,
    /// The values it takes.
    pub range: &'static str,
    /// How its derivative with respect to the sample point is formed (one-sided at kinks).
    pub derivative: &'static str,
}

impl NodeType {
    /// The parameter `name`.
    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.name == name)
    }
}

/// The node type named `name`.
pub fn node_type(name: &str) -> Option<&'static NodeType> {
    NODE_TYPES.iter().find(|t| t.name == name)
}

const fn input(name: &'static str) -> Param {
    Param {
        name,
        kind: ParamKind::Input,
    }
}

const fn required_number(name: &'static str, lo: f64, hi: f64) -> Param {
    Param {
        name,
        kind: ParamKind::Number {
            lo,
            hi,
            default: None,
        },
    }
}

const fn integer(name: &'static str, lo: i64, hi: i64, default: i64) -> Param {
    Param {
        name,
        kind: ParamKind::Integer { lo, hi, default },
    }
}

const fn choice(
    name: &'static str,
    names: &'static [&'static str],
    default: Option<&'static str>,
) -> Param {
    Param {
        name,
        kind: ParamKind::Choice { names, default },
    }
}

/// A scale's or an offset's `by`: per axis, within [`MAX_DOMAIN_PARAMETER`], each axis a
/// number or an input.
const fn domain_vector(default: f64) -> Param {
    hybrid_per_axis("by", default)
}

/// A per-axis parameter within [`MAX_DOMAIN_PARAMETER`], each axis a number or an input.
const fn hybrid_per_axis(name: &'static str, default: f64) -> Param {
    Param {
        name,
        kind: ParamKind::HybridPerAxis {
            lo: -MAX_DOMAIN_PARAMETER,
            hi: MAX_DOMAIN_PARAMETER,
            default,
        },
    }
}

/// The largest magnitude of any number in a graph (`docs/graphs.md`, "Finite numbers").
const LARGEST: f64 = WGPU_NOISE_FINITE;
/// An angle in radians, or a flow angle.
const ANGLE: f64 = MAX_ANGLE as f64;

const SEED: Param = integer("seed", -MAX_SEED, MAX_SEED, 0);
/// The metrics of the `distance` node and of `cellular`'s distances (`spec::Metric`).
const METRICS: &[&str] = &[
    "euclidean",
    "euclidean-squared",
    "manhattan",
    "chebyshev",
    "hybrid",
    "minkowski",
];
const KERNEL: Param = choice("kernel", &["reference", "continuous"], Some("reference"));
const SOURCE: Param = input("source");
const A: Param = input("a");
const B: Param = input("b");
const OCTAVES: Param = integer("octaves", 1, MAX_OCTAVES as i64, 3);
/// The `distance` node's Minkowski exponent: a number, or a node giving it per sample
/// (clamped to the number's range there).
const DISTANCE_EXPONENT: Param = Param {
    name: "exponent",
    kind: ParamKind::Hybrid {
        lo: MIN_DISTANCE_EXPONENT as f64,
        hi: MAX_DISTANCE_EXPONENT as f64,
        default: Some(1.5),
    },
};
/// A fractal's gain: a number, or a node giving it per sample.
const FRACTAL_GAIN: Param = Param {
    name: "gain",
    kind: ParamKind::Hybrid {
        lo: -64.0,
        hi: 64.0,
        default: Some(0.5),
    },
};
/// A fractal's lacunarity: a number, or a node giving it per sample (clamped to the
/// number's range there).
const FRACTAL_LACUNARITY: Param = Param {
    name: "lacunarity",
    kind: ParamKind::Hybrid {
        lo: 1.0 / 64.0,
        hi: 64.0,
        default: Some(2.0),
    },
};
/// A warp's frequency: a number, or a node giving it per sample.
const WARP_FREQUENCY: Param = Param {
    name: "frequency",
    kind: ParamKind::Hybrid {
        lo: 1e-6,
        hi: MAX_DOMAIN_PARAMETER,
        default: Some(1.0),
    },
};
/// A rotation's angle: a number, or a node giving it per sample (clamped to the number's
/// range there).
const ROTATE_ANGLE: Param = Param {
    name: "angle",
    kind: ParamKind::Hybrid {
        lo: -ANGLE,
        hi: ANGLE,
        default: None,
    },
};
/// Cellular noise's jitter: a number, or a node giving it per sample (clamped to 0..1
/// there: the search's reach holds up to 1).
/// A cellular node's Minkowski exponent: a number, or a node giving it per sample (clamped
/// to the same range, `program::MIN_CELLULAR_EXPONENT`..`MAX_CELLULAR_EXPONENT`).
const CELLULAR_EXPONENT: Param = Param {
    name: "exponent",
    kind: ParamKind::Hybrid {
        lo: MIN_CELLULAR_EXPONENT as f64,
        hi: MAX_CELLULAR_EXPONENT as f64,
        default: Some(1.5),
    },
};
const CELLULAR_JITTER: Param = Param {
    name: "jitter",
    kind: ParamKind::Hybrid {
        lo: 0.0,
        hi: 1.0,
        default: Some(1.0),
    },
};
/// A smooth minimum's or maximum's blend width: a number, or a node giving it per sample.
const SMOOTH_K: Param = Param {
    name: "k",
    kind: ParamKind::Hybrid {
        lo: 1e-6,
        hi: 1e3,
        default: Some(0.1),
    },
};

const FRACTAL: &[Param] = &[
    SOURCE,
    OCTAVES,
    FRACTAL_LACUNARITY,
    FRACTAL_GAIN,
    integer("seed_step", -MAX_SEED, MAX_SEED, 0),
];
/// fBm's and ridged's: [`FRACTAL`] and a weighted strength.
const WEIGHTED_FRACTAL: &[Param] = &[
    SOURCE,
    OCTAVES,
    FRACTAL_LACUNARITY,
    FRACTAL_GAIN,
    integer("seed_step", -MAX_SEED, MAX_SEED, 0),
    Param {
        name: "weighted_strength",
        kind: ParamKind::Hybrid {
            lo: 0.0,
            hi: 1.0,
            default: Some(0.0),
        },
    },
];
const FRACTAL_DERIVATIVE: &str =
    "the octaves' gradients, each through its frequency (chain rule), by the fractal's rule below";

const BINARY: &[Param] = &[A, B];
const SMOOTH: &[Param] = &[A, B, SMOOTH_K];
const MAP: &[Param] = &[SOURCE];

/// Every node type, in the order of `docs/graphs.md`.
pub const NODE_TYPES: &[NodeType] = &[
    NodeType {
        name: "classic",
        group: Group::Sources,
        params: &[SEED],
        doc: "classic Perlin noise",
        range: "[-1, 1]",
        derivative: "analytic, tiled or not: the corner dots' gradients interpolated, plus each fade's slope `30t²(t − 1)²` times the difference it interpolates; smooth (C²) everywhere",
    },
    NodeType {
        name: "value",
        group: Group::Sources,
        params: &[SEED],
        doc: "value noise: a value in [-1, 1] per lattice point (`cellular`'s `cell` value of that cell), blended along each axis with the quintic fade, as classic noise's corner dots",
        range: "[-1, 1]",
        derivative: "analytic, tiled or not: each fade's slope `30t²(t − 1)²` times the difference it blends; smooth (C²) everywhere",
    },
    NodeType {
        name: "white",
        group: Group::Sources,
        params: &[SEED],
        doc: "white noise: one value in [-1, 1] per unit cell, unblended (`value` noise at the cell's lower corner, `⌊p⌋`, which is `cellular`'s `cell` value of that cell); one value per texel when a cell is a texel (`--frequency` equal to the size)",
        range: "[-1, 1]",
        derivative: "0 (a constant per cell; it jumps at the cells' faces)",
    },
    NodeType {
        name: "simplex",
        group: Group::Sources,
        params: &[SEED, KERNEL],
        doc: "simplex noise",
        range: "[-1, 1]",
        derivative: "analytic, tiled or not (2D tiles: the 4D gradient taken back through the torus; 3D tiles: on their own lattice); the reference kernel in 3D and 4D (and the 4D noise under 2D tiles) jumps by tiny amounts at simplex faces",
    },
    NodeType {
        name: "supersimplex",
        group: Group::Sources,
        params: &[SEED],
        doc: "OpenSimplex2S (FastNoise2's SuperSimplex) in 2D, 3D and 4D: in 3D the body-centred cubic lattice, each point's kernel `max(3/4 − |d|², 0)⁴` reaching eight of them; in 2D the triangular lattice, kernel `max(2/3 − |d|², 0)⁴`, four points; in 4D simplex noise's lattice, FastNoise2's walk of sixteen points, kernel `max(18/25 − |d|², 0)⁴`; smoother than `simplex`, without its grid-aligned streaks. Tiled, the 2D noise is the 4D noise on a torus (any periods, as `simplex`'s), the 3D noise its lattice unrotated with each point wrapped into the tile (whole periods); 4D does not tile",
        range: "[-1, 1] (measured max 0.993 in 3D, 0.9998 in 2D, 0.90 in 4D)",
        derivative: "analytic: the kernels' gradients (in 3D rotated back); smooth (C³) everywhere",
    },
    NodeType {
        name: "cellular",
        group: Group::Sources,
        params: &[
            SEED,
            choice(
                "output",
                &[
                    "f1", "f2", "f2-f1", "cell", "f3", "f4", "add", "subtract", "multiply",
                    "divide",
                ],
                Some("f1"),
            ),
            integer("a", 1, 4, 2),
            integer("b", 1, 4, 1),
            choice("distance", METRICS, Some("euclidean")),
            CELLULAR_EXPONENT,
            CELLULAR_JITTER,
        ],
        doc: "cellular noise, as `--noise cellular`: `f1` to `f4` the distances to the nearest to the fourth-nearest feature, `cell` the nearest one's cell value; `add`, `subtract`, `multiply`, `divide` the pair `Fa + Fb`, `Fa − Fb`, `Fa × Fb`, `Fa / Fb` (`a` and `b` read for these only; `divide` as the `divide` node: 0 where `|Fb|` is below f32's smallest normal number), `f2-f1` one search for `subtract` of 2 and 1; `distance` the `distance` node's `metric` (the same six, the same definitions), `exponent` 1 to 16 (below 1 the nearest feature may be any number of cells away), a number or a node (clamped to 1..16 per sample; read for `minkowski` only); `jitter` how far a feature may stray from its cell's centre, a number or a node (clamped to 0..1 per sample)",
        range: "distances ≥ 0; `cell` in [-1, 1]; a pair by its operation",
        derivative: "analytic, tiled or not: see below; `cell` is 0; a driven `jitter` adds its gradient times each feature's `−Σₐ ∂F/∂pₐ (uₐ − ½)` (0 where it is clamped); a driven `exponent` e its gradient times each feature's `F (Σₐ|δₐ|^e ln|δₐ| / (e S) − ln S / e²)`, `S = Σₐ|δₐ|^e` (0 where it is clamped)",
    },
    NodeType {
        name: "cellular-lookup",
        group: Group::Sources,
        params: &[
            SOURCE,
            Param {
                name: "frequency",
                kind: ParamKind::Hybrid {
                    lo: -MAX_DOMAIN_PARAMETER,
                    hi: MAX_DOMAIN_PARAMETER,
                    default: Some(0.1),
                },
            },
            SEED,
            choice("distance", METRICS, Some("euclidean")),
            CELLULAR_EXPONENT,
            CELLULAR_JITTER,
        ],
        doc: "`source` at the position of the nearest feature (`cellular`'s `f1` feature, by the same `distance`, `exponent` and `jitter`, each a number or a node as there) times `frequency` (FastNoise2's CellularLookup and its lookup frequency; a number or a node evaluated per sample at the node's point): constant inside each feature's Voronoi cell but for a node-driven frequency. The position is in the node's coordinates (lattice cells of unit size: the feature's cell plus its jittered offset; under a tiled field its cell wrapped into the tile, so the lookup repeats with it); `seed` moves the features only, `source` is evaluated untiled with the seeds above this node",
        range: "the source's",
        derivative: "0 (constant inside each cell; the jumps at the cells' borders have none); with a node-driven `frequency` f, the source's gradient at the lookup point times `position ∇f`; with a driven `jitter` j, the feature moves by `(u − ½) ∇j` (u its cell's offsets in 0..1; 0 where j is clamped), which the source's gradient follows; a driven `exponent` only picks the feature: 0",
    },
    NodeType {
        name: "flow",
        group: Group::Sources,
        params: &[
            Param {
                name: "angle",
                kind: ParamKind::Hybrid {
                    lo: -ANGLE,
                    hi: ANGLE,
                    default: None,
                },
            },
            KERNEL,
            SEED,
        ],
        doc: "flow noise (2D, 3D): simplex noise with its gradients turned by `angle` radians; `angle` a number or a node evaluated per sample at the node's point (clamped to ±1e4 there)",
        range: "[-1, 1] in 2D; ±1.12 in 3D",
        derivative: "analytic; with a node-driven angle θ, plus `∂N/∂θ ∇θ`: the noise is `A cos θ + B sin θ` in the angle (its gradients turned), so `∂N/∂θ = B cos θ − A sin θ` with `A` the noise at angle 0 and `B` at π/2",
    },
    NodeType {
        name: "constant",
        group: Group::Sources,
        params: &[required_number("value", -LARGEST, LARGEST)],
        doc: "the value",
        range: "the value",
        derivative: "0",
    },
    NodeType {
        name: "position",
        group: Group::Sources,
        params: &[choice("axis", &["x", "y", "z", "w"], None)],
        doc: "that coordinate of the point",
        range: "the coordinate",
        derivative: "the unit vector",
    },
    NodeType {
        name: "distance",
        group: Group::Sources,
        params: &[
            hybrid_per_axis("point", 0.0),
            choice("metric", METRICS, Some("euclidean")),
            DISTANCE_EXPONENT,
        ],
        doc: "the distance from the point to `point`, by the difference `d`: `euclidean` `√Σd²`, `euclidean-squared` `Σd²`, `manhattan` `Σ|d|`, `chebyshev` `max |d|`, `hybrid` `Σ(d² + |d|)`, `minkowski` `(Σ|d|^exponent)^(1/exponent)` (`exponent` is read for `minkowski` only); each axis of `point`, and `exponent`, a number or a node evaluated per sample (the exponent clamped to its range there)",
        range: "≥ 0",
        derivative: "chain rule through the metric; one-sided where a coordinate of `d` is 0 (but for the squared terms) or, for `chebyshev`, where two are equally largest; 0 at `point` itself; the chain rule through `point` and `exponent` where nodes give them",
    },
    NodeType {
        name: "linear",
        group: Group::Sources,
        params: &[hybrid_per_axis("multiplier", 1.0), hybrid_per_axis("offset", 0.0)],
        doc: "`Σ (p + offset) × multiplier` over the field's axes: a ramp along `multiplier`; each axis of `multiplier` and `offset` a number or a node evaluated per sample",
        range: "unbounded",
        derivative: "`multiplier` (the chain rule through `offset` and `multiplier` where nodes give them)",
    },
    NodeType {
        name: "checkerboard",
        group: Group::Sources,
        params: &[],
        doc: "1 in the unit cells whose whole-number coordinates `⌊p⌋` sum to an even number, else -1",
        range: "-1 or 1",
        derivative: "0 (the jumps at the cells' faces have none)",
    },
    NodeType {
        name: "sine",
        group: Group::Sources,
        params: &[Param {
            name: "scale",
            kind: ParamKind::HybridPerAxis {
                lo: 1.0 / MAX_DOMAIN_PARAMETER,
                hi: MAX_DOMAIN_PARAMETER,
                default: 1.0,
            },
        }],
        doc: "`∏ sin(pₐ / scaleₐ)` over the field's axes (FastNoise2's SineWave, each axis with its own feature scale: a period of `2π scale`); `p / scale` is `p × (1 / scale)`, and `sin` the same `f32` operations on the CPU and the GPU (below); each axis of `scale` a number or a node evaluated per sample, clamped to its range there",
        range: "[-1, 1]",
        derivative: "per axis `cos(pₐ / scaleₐ) / scaleₐ` times the other axes' sines (product rule); with a node-driven scale `s`, its axis's factor also gains `−cos(pₐ / s) pₐ / s² ∇s` (0 where `s` is clamped)",
    },
    NodeType {
        name: "fbm",
        group: Group::Fractals,
        params: WEIGHTED_FRACTAL,
        doc: "fractal Brownian motion: the octaves' sum over the sum of amplitudes; with `weighted_strength` `s`, each octave after the first is also scaled by `1 + s (n − 1) / 2` of every octave `n` below it (FastNoise2's weighted strength: detail on the peaks)",
        range: "the source's, for a gain in (0, 1]",
        derivative: "the octaves' gradients, each through its frequency (chain rule), by the fractal's rule below; with `weighted_strength`, through each octave's weights too (product rule)",
    },
    NodeType {
        name: "ridged",
        group: Group::Fractals,
        params: WEIGHTED_FRACTAL,
        doc: "ridged multifractal: octaves of `(1 − |n|)²`, each weighted by the previous ridge; with `weighted_strength` `s`, each octave after the first is also scaled by `1 − s + s r` of every ridge `r` below it (FastNoise2's weighted strength)",
        range: "[0, 1] over a source in [-1, 1]",
        derivative: "the octaves' gradients, each through its frequency (chain rule), by the fractal's rule below; with `weighted_strength`, through each octave's weights too (product rule)",
    },
    NodeType {
        name: "turbulence",
        group: Group::Fractals,
        params: FRACTAL,
        doc: "octaves of `|n|`",
        range: "[0, 1] over a source in [-1, 1]",
        derivative: FRACTAL_DERIVATIVE,
    },
    NodeType {
        name: "scale",
        group: Group::Domain,
        params: &[
            SOURCE,
            domain_vector(1.0),
        ],
        doc: "`source` at `p × by`; `by` a number or a node for every axis, or one per axis, each evaluated per sample at the scale's point (\"Hybrid parameters\" above)",
        range: "the source's",
        derivative: "chain rule; with node-driven amounts, through them too (`∇(p × by) = by ∇p + p ∇by` per axis)",
    },
    NodeType {
        name: "offset",
        group: Group::Domain,
        params: &[
            SOURCE,
            domain_vector(0.0),
        ],
        doc: "`source` at `p + by`; `by` a number or a node for every axis, or one per axis, each evaluated per sample at the offset's point",
        range: "the source's",
        derivative: "unchanged; with node-driven amounts, plus their gradients (`∇p + ∇by`)",
    },
    NodeType {
        name: "rotate",
        group: Group::Domain,
        params: &[
            SOURCE,
            ROTATE_ANGLE,
            choice("plane", &["xy", "xz", "yz", "xw", "yw", "zw"], Some("xy")),
        ],
        doc: "`source` at `p` turned by `angle` radians in the plane; `angle` a number or a node evaluated per sample at the node's point (clamped to ±1e4 there; its sine and cosine by the `sine` node's `f32` operations, within 1.5e-7)",
        range: "the source's",
        derivative: "rotated; with a node-driven angle θ, plus the turned point's `∂/∂θ` (the coordinates turned a quarter more) times `∇θ`",
    },
    NodeType {
        name: "rotate-plane",
        group: Group::Domain,
        params: &[SOURCE, choice("plane", &["xy", "xz"], Some("xy"))],
        doc: "`source` at `p` turned so that `plane` cuts the lattice evenly, in 3D and 4D (`w` unchanged; a 2D point gains z = 0 first, its source 3D): OpenSimplex2's rotation, FastNoise2's DomainRotatePlane (Improve XY / XZ Planes). With `a`, `b` the plane's axes and `c` the third, `s = (pₐ + p_b) × −0.211324865405187`, `t = p_c × 0.577350269189626`: `(pₐ + s − t, p_b + s − t, t + (pₐ + p_b) × 0.577350269189626)` in that order of operations",
        range: "the source's",
        derivative: "rotated (chain rule through the same operations)",
    },
    NodeType {
        name: "warp",
        group: Group::Domain,
        params: &[
            SOURCE,
            Param {
                name: "amplitude",
                kind: ParamKind::Hybrid {
                    lo: -MAX_DOMAIN_PARAMETER,
                    hi: MAX_DOMAIN_PARAMETER,
                    default: None,
                },
            },
            WARP_FREQUENCY,
            integer("octaves", 1, MAX_OCTAVES as i64, 1),
            integer("iterations", 1, 8, 1),
            choice(
                "noise",
                &[
                    "simplex",
                    "classic",
                    "value",
                    "vector",
                    "supersimplex-vector",
                    "simplex-vector",
                ],
                Some("simplex"),
            ),
            choice("fractal", &["independent", "progressive"], Some("independent")),
            KERNEL,
            FRACTAL_LACUNARITY,
            FRACTAL_GAIN,
            Param {
                name: "displacement",
                kind: ParamKind::Inputs { min: 1, max: 4 },
            },
        ],
        doc: "`source` at `p + amplitude × fBm(p × frequency + shift)` per axis (`--warp`'s convention, docs/noise-kinds.md), the fBm of `noise`, one noise per axis; `vector`: one noise for every axis, a random vector per lattice point (byte `a` of its cell hash in [-1, 1] along axis `a`) blended with the quintic fade as `value` noise blends values, its fBm `p + amplitude × fBm(p × frequency + shift)` (FastNoise2's `DomainWarpGradient`, one hash per corner); `supersimplex-vector`: one OpenSimplex2S lattice walk for every axis, each point's `supersimplex` contribution `max(r² − |d|², 0)⁴ (g · d)` times a random vector (bytes 1 to `dims` of its hash in [-1, 1]), summed (FastNoise2's `DomainWarpSuperSimplex`, gradient outer product; 2D to 4D; tiled as `supersimplex`: in 2D the first two components of the 4D noise on its torus, in 3D on the unrotated lattice); `simplex-vector`: the same on `simplex`'s lattice, one simplex for every axis, each corner's term `max(r² − |d|², 0)⁴ (g · d)` times a random vector (bytes 1 to `dims` of its hash in [-1, 1]), summed and scaled (FastNoise2's `DomainWarpSimplex`; 2D to 4D; `kernel` and tiling as `simplex`'s: tiled in 2D on the torus, in 3D on the periodic lattice); `kernel` `continuous` for the `simplex` and `simplex-vector` noises only (the others have no kernel: refused); `fractal` `progressive`: octave `k` moves the point the octaves before it moved, by `amplitude × gain^k / Σ gain^j` times the noise at that point × `frequency × lacunarity^k` (FastNoise2's progressive warp; one iteration), where `independent` sums the octaves at one point (its independent warp); `amplitude`, `frequency`, `lacunarity` and `gain` each a number or a node evaluated per sample at the warp's point (a node's lacunarity clamped to 1/64–64 as a fractal's; a node's frequency or lacunarity does not tile); with `displacement`, at `p + amplitude × (d₀, d₁, …)` (one input per axis)",
        range: "the source's",
        derivative: "the Jacobian of the warp (`J + amplitude ∇d` with `displacement`), through a node-driven `amplitude` by the product rule; through node-driven `frequency` `f`, `lacunarity` `l` and `gain` `g` by the chain rule: octave `k` of the displacement is `w_k n(x_k)`, `x_k = (q f + s) l^k` (`q` the point the octave moves, `s` its shift), `w_k = g^k / Σⱼ g^j`, so `∂x_k/∂p = l^k (f ∂q/∂p + q ∇fᵀ) + (q f + s) ∇(l^k)ᵀ` with `∇(l^k) = k l^(k−1) ∇l`, and `∇(w_k n) = w_k ∇n(x_k) ∂x_k/∂p + n ∇w_k`, `∇w_k = (k g^(k−1) − w_k Σⱼ j g^(j−1)) ∇g / Σⱼ g^j`; `simplex-vector`'s `∇n` analytic as `simplex`'s (tiled in 2D each component's 4D gradient taken back through the torus; the reference kernel in 3D and 4D, and the 4D noise under 2D tiles, jumps by tiny amounts at simplex faces)",
    },
    NodeType {
        name: "seed",
        group: Group::Domain,
        params: &[SOURCE, integer("offset", -MAX_SEED, MAX_SEED, 1)],
        doc: "`source` with every noise source under it adding `offset` to its seed",
        range: "the source's",
        derivative: "unchanged",
    },
    NodeType {
        name: "add-dimension",
        group: Group::Domain,
        params: &[
            SOURCE,
            Param {
                name: "position",
                kind: ParamKind::Hybrid {
                    lo: -MAX_DOMAIN_PARAMETER,
                    hi: MAX_DOMAIN_PARAMETER,
                    default: Some(0.0),
                },
            },
        ],
        doc: "`source` one dimension up, at `(p, position)`: the point with `position` as its last coordinate, a number or a node evaluated per sample at the node's point (FastNoise2's AddDimension); in 4D `source` at `p` (there is no fifth axis); not in a tiled field (the new axis has no tile period)",
        range: "the source's",
        derivative: "`∇ₚs + ∂s/∂position · ∇position`: the source's gradient along the point's axes, plus along the new axis through the position",
    },
    NodeType {
        name: "remove-dimension",
        group: Group::Domain,
        params: &[SOURCE, choice("axis", &["x", "y", "z", "w"], Some("y"))],
        doc: "`source` one dimension down, at `p` without coordinate `axis` (FastNoise2's RemoveDimension, whose default is `y`); in 2D, and in 3D for `w`, `source` at `p`",
        range: "the source's",
        derivative: "the source's along the other axes (in their order); 0 along `axis`",
    },
    NodeType {
        name: "add",
        group: Group::Combinations,
        params: BINARY,
        doc: "`a + b`",
        range: "the sum",
        derivative: "`∇a + ∇b`",
    },
    NodeType {
        name: "subtract",
        group: Group::Combinations,
        params: BINARY,
        doc: "`a − b`",
        range: "the difference",
        derivative: "`∇a − ∇b`",
    },
    NodeType {
        name: "multiply",
        group: Group::Combinations,
        params: BINARY,
        doc: "`a b`",
        range: "the product",
        derivative: "`b ∇a + a ∇b`",
    },
    NodeType {
        name: "divide",
        group: Group::Combinations,
        params: BINARY,
        doc: "`a / b`; 0 where `|b|` is below f32's smallest normal number (1.2e-38), as for `b = 0`",
        range: "the quotient, within ±1e30",
        derivative: "`∇a / b − (a / b) ∇b / b`, each weight clamped to ±1e30; 0 where the value is 0 for a tiny `b`",
    },
    NodeType {
        name: "modulus",
        group: Group::Combinations,
        params: BINARY,
        doc: "the floored remainder `a − b ⌊a / b⌋`, as GLSL's `mod` (the sign of `b`; WGSL's `%` truncates instead); 0 where `|b|` is below 1.2e-38",
        range: "[0, b) for b > 0, (b, 0] for b < 0",
        derivative: "`∇a − ⌊a / b⌋ ∇b`; the value jumps where `a / b` is a whole number",
    },
    NodeType {
        name: "min",
        group: Group::Combinations,
        params: BINARY,
        doc: "the smaller of `a` and `b`",
        range: "the smaller",
        derivative: "the chosen side's (`b` on ties)",
    },
    NodeType {
        name: "max",
        group: Group::Combinations,
        params: BINARY,
        doc: "the larger of `a` and `b`",
        range: "the larger",
        derivative: "the chosen side's (`b` on ties)",
    },
    NodeType {
        name: "smooth-min",
        group: Group::Combinations,
        params: SMOOTH,
        doc: "polynomial smooth minimum (Quilez) of blend width `k`; `k` a number or a node evaluated per sample (FastNoise2's hybrid smoothness; \"Hybrid parameters\" above)",
        range: "at most the smaller",
        derivative: "`h ∇a + (1 − h) ∇b`; with a node-driven `k`, through `k` too",
    },
    NodeType {
        name: "smooth-max",
        group: Group::Combinations,
        params: SMOOTH,
        doc: "polynomial smooth maximum of blend width `k`; `k` a number or a node evaluated per sample",
        range: "at least the larger",
        derivative: "`h ∇a + (1 − h) ∇b`; with a node-driven `k`, through `k` too",
    },
    NodeType {
        name: "blend",
        group: Group::Combinations,
        params: &[
            A,
            B,
            input("t"),
            choice(
                "interpolation",
                &["linear", "hermite", "quintic"],
                Some("linear"),
            ),
        ],
        doc: "`a + (b − a) w`, `w = clamp(t/2 + 1/2, 0, 1)`: `a` at `t ≤ −1`, `b` at `t ≥ 1`; `interpolation` eases `w` by `3w² − 2w³` (`hermite`) or `6w⁵ − 15w⁴ + 10w³` (`quintic`) (FastNoise2's Fade)",
        range: "between `a` and `b`",
        derivative: "product rule; `t` counts inside (−1, 1), through the curve's slope (0 at both ends for `hermite` and `quintic`)",
    },
    NodeType {
        name: "abs",
        group: Group::Combinations,
        params: MAP,
        doc: "`|v|`",
        range: "≥ 0",
        derivative: "slope +1 at 0",
    },
    NodeType {
        name: "clamp",
        group: Group::Combinations,
        params: &[
            SOURCE,
            Param {
                name: "min",
                kind: ParamKind::Hybrid {
                    lo: -LARGEST,
                    hi: LARGEST,
                    default: Some(-1.0),
                },
            },
            Param {
                name: "max",
                kind: ParamKind::Hybrid {
                    lo: -LARGEST,
                    hi: LARGEST,
                    default: Some(1.0),
                },
            },
        ],
        doc: "`v` clamped to `[min, max]` (numbers: `min ≤ max`); each end a number or a node evaluated per sample (\"Hybrid parameters\" above): `min` where `v` is below it, else `max` where `v` is above that, else `v` (so `max` where a driven `min` lies above it)",
        range: "[min, max]",
        derivative: "0 where clamped; with node-driven ends, the end's gradient where it is the value",
    },
    NodeType {
        name: "remap",
        group: Group::Combinations,
        params: &[
            SOURCE,
            Param {
                name: "from",
                kind: ParamKind::HybridPair {
                    lo: -LARGEST,
                    hi: LARGEST,
                    default: [-1.0, 1.0],
                },
            },
            Param {
                name: "to",
                kind: ParamKind::HybridPair {
                    lo: -LARGEST,
                    hi: LARGEST,
                    default: [0.0, 1.0],
                },
            },
            choice("clamp", &["off", "on"], Some("off")),
        ],
        doc: "`from` mapped linearly onto `to` (the ends of `from` differ); with `clamp` `on`, then clamped to `to`'s range (a `clamp` node after it); each end a number or a node evaluated per sample (\"Hybrid parameters\" above)",
        range: "`to` over `from`",
        derivative: "the slope (clamped to ±1e30); 0 where `clamp` clamps; with node-driven ends, through the ends too (quotient rule)",
    },
    NodeType {
        name: "pow",
        group: Group::Combinations,
        params: &[
            SOURCE,
            Param {
                name: "exponent",
                kind: ParamKind::Hybrid {
                    lo: MIN_EXPONENT as f64,
                    hi: MAX_EXPONENT as f64,
                    default: None,
                },
            },
        ],
        doc: "`sign(v) |v|^exponent` (odd: no NaN for negatives); `exponent` a number or a node evaluated per sample, clamped to its range (\"Hybrid parameters\" above)",
        range: "[-1, 1] over [-1, 1]",
        derivative: "`exponent |v|^(exponent−1)`, clamped to 1e30; at `v = 0`: 1e30 below exponent 1 (the slope is infinite there), 1 at 1, 0 above; with a node-driven exponent `e`, plus `sign(v) |v|^e ln |v|` (0 at `v = 0`) times `∇e` inside its range",
    },
    NodeType {
        name: "signed-sqrt",
        group: Group::Combinations,
        params: MAP,
        doc: "`sign(v) √|v|` (FastNoise2's SignedSquareRoot): `pow` with exponent 0.5",
        range: "[-1, 1] over [-1, 1]",
        derivative: "`pow`'s: `1 / (2 √|v|)`, clamped to 1e30, and 1e30 at `v = 0` (the slope is infinite there)",
    },
    NodeType {
        name: "curve",
        group: Group::Combinations,
        params: &[
            SOURCE,
            Param {
                name: "points",
                kind: ParamKind::Points {
                    min: 2,
                    max: MAX_CURVE_POINTS,
                    lo: -LARGEST,
                    hi: LARGEST,
                },
            },
        ],
        doc: "`v` through a monotone cubic spline (Fritsch–Carlson: no overshoot, monotone between each two points) through `points` `[[x, y], …]`, `x` increasing by at least 1e-30; the first point's `y` at and below its `x`, the last's at and above (FastNoise2 issue 120's remap curve)",
        range: "within the points' `y`",
        derivative: "the cubic's slope, clamped to ±1e30; 0 at and past the ends (one-sided where the end tangents are not 0)",
    },
    NodeType {
        name: "terrace",
        group: Group::Combinations,
        params: &[
            SOURCE,
            integer("steps", 1, MAX_TERRACE_STEPS as i64, 4),
            Param {
                name: "smoothness",
                kind: ParamKind::Hybrid {
                    lo: 0.0,
                    hi: 1.0,
                    default: Some(0.0),
                },
            },
        ],
        doc: "`steps` flat terraces per unit, each ending in a smoothstep ramp over its last `smoothness`; `smoothness` a number or a node evaluated per sample, clamped to 0–1 (\"Hybrid parameters\" above)",
        range: "about the source's",
        derivative: "0 on the flats, the ramp's slope (clamped to 1e30); hard steps (smoothness 0) are jumps; with a node-driven `smoothness`, through it too inside (0, 1)",
    },
    NodeType {
        name: "ping-pong",
        group: Group::Combinations,
        params: &[
            SOURCE,
            Param {
                name: "strength",
                kind: ParamKind::Hybrid {
                    lo: 1e-3,
                    hi: 1e3,
                    default: Some(1.0),
                },
            },
        ],
        doc: "a triangle wave of `v × strength` (period 2); `strength` a number or a node evaluated per sample (FastNoise2's hybrid strength)",
        range: "[-1, 1]",
        derivative: "`±2 strength`; with a node-driven `strength` `s`, `±2 (s ∇v + v ∇s)` (the product rule)",
    },
];
