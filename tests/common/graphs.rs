//! Random valid noise graphs, for the randomised graph tests (CPU and GPU), and the
//! parity bound between a graph on the GPU and on the CPU.

use std::collections::BTreeSet;

use serde_json::{json, Value};
use wgpu_noise::graph::nodes::{node_type, ParamKind, NODE_TYPES};
use wgpu_noise::graph::{Graph, Program};

/// A small, fixed-seed generator (SplitMix64): the same graphs on every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// What a random graph may contain.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// 2 to 4.
    pub dims: usize,
    /// Deepest nesting of nodes.
    pub depth: usize,
    /// No terrace with hard steps (a jump, where no derivative exists; kinks stay).
    pub differentiable: bool,
}

/// A random graph file of `shape`, with a few named nodes (some used twice).
pub fn random_graph(rng: &mut Rng, shape: Shape) -> Value {
    let mut named = serde_json::Map::new();
    let shared = node(rng, shape, shape.depth.saturating_sub(2), &[]);
    named.insert("shared".into(), shared);
    let names = ["shared".to_string()];
    let out = node(rng, shape, shape.depth, &names);
    named.insert("out".into(), out);
    json!({ "version": 1, "output": "out", "nodes": Value::Object(named) })
}

/// The names the node table offers for the choice parameter `param` of `node`.
pub fn choices(node: &str, param: &str) -> &'static [&'static str] {
    let kind = node_type(node).and_then(|t| t.param(param)).map(|p| p.kind);
    match kind {
        Some(ParamKind::Choice { names, .. }) => names,
        _ => panic!("{node}.{param} is not a choice in the node table"),
    }
}

fn leaf(rng: &mut Rng, shape: Shape) -> Value {
    let axes = ["x", "y", "z", "w"];
    let mut kinds = vec!["simplex", "constant", "position", "simplex-continuous"];
    if shape.dims < 4 {
        kinds.push("flow");
    }
    kinds.push("supersimplex");
    // A checkerboard and white noise jump at their cells' faces, but their derivatives
    // are 0 on both sides.
    kinds.extend([
        "classic",
        "cellular",
        "classic",
        "value",
        "white",
        "distance",
        "linear",
        "checkerboard",
        "sine",
    ]);
    let seed = rng.below(7) as i64 - 3;
    let per_axis = |rng: &mut Rng, lo: f64, hi: f64| -> Vec<f64> {
        (0..shape.dims).map(|_| rng.range(lo, hi)).collect()
    };
    match *rng.pick(&kinds) {
        "simplex" => json!({ "type": "simplex", "seed": seed }),
        "simplex-continuous" => json!({ "type": "simplex", "kernel": "continuous" }),
        // A third of the angles driven by smooth noise.
        "flow" => {
            let angle = if rng.below(3) == 0 {
                driven(json!({ "type": "value", "seed": seed }), -3.0, 3.0)
            } else {
                json!(rng.range(-3.0, 3.0))
            };
            json!({ "type": "flow", "angle": angle, "seed": seed })
        }
        "constant" => json!({ "type": "constant", "value": rng.range(-2.0, 2.0) }),
        "position" => {
            json!({ "type": "position", "axis": axes[rng.below(shape.dims as u64) as usize] })
        }
        "classic" => json!({ "type": "classic", "seed": seed }),
        "value" => json!({ "type": "value", "seed": seed }),
        "supersimplex" => json!({ "type": "supersimplex", "seed": seed }),
        "white" => json!({ "type": "white", "seed": seed }),
        // A third of the points, exponents, offsets, multipliers and sine scales with an
        // axis (or the exponent) driven by smooth noise over the numbers' range.
        "distance" => {
            let mut point = json!(per_axis(rng, -2.0, 2.0));
            drive_an_axis(rng, &mut point, shape.dims, seed, (-2.0, 2.0));
            let mut exponent = json!(rng.range(1.0, 3.0));
            if rng.below(3) == 0 {
                exponent = driven(json!({ "type": "value", "seed": seed }), 0.75, 3.0);
            }
            json!({
                "type": "distance",
                "point": point,
                "metric": *rng.pick(choices("distance", "metric")),
                "exponent": exponent,
            })
        }
        "linear" => {
            let mut multiplier = json!(per_axis(rng, -1.0, 1.0));
            drive_an_axis(rng, &mut multiplier, shape.dims, seed, (-1.0, 1.0));
            let mut offset = json!(per_axis(rng, -2.0, 2.0));
            drive_an_axis(rng, &mut offset, shape.dims, seed, (-2.0, 2.0));
            json!({ "type": "linear", "multiplier": multiplier, "offset": offset })
        }
        "checkerboard" => json!({ "type": "checkerboard" }),
        "sine" => {
            let mut scale = json!(per_axis(rng, 0.25, 4.0));
            drive_an_axis(rng, &mut scale, shape.dims, seed, (0.25, 4.0));
            json!({ "type": "sine", "scale": scale })
        }
        _ => {
            // A third of the jitters driven: smooth noise over a range a little past
            // 0..1 (clamped per sample there).
            let jitter = if rng.below(3) == 0 {
                let source = if rng.below(2) == 0 {
                    "simplex"
                } else {
                    "value"
                };
                driven(json!({ "type": source, "seed": seed }), -0.2, 1.2)
            } else {
                json!(rng.unit())
            };
            json!({
                "type": "cellular",
                "output": *rng.pick(choices("cellular", "output")),
                "a": 1 + rng.below(4),
                "b": 1 + rng.below(4),
                "distance": *rng.pick(choices("cellular", "distance")),
                "exponent": cellular_exponent(rng, seed),
                "jitter": jitter,
                "seed": seed,
            })
        }
    }
}

/// A cellular node's Minkowski exponent: a number in 1..3, or for a third of them smooth
/// noise over 0.75..3 (clamped to 1 per sample below it).
fn cellular_exponent(rng: &mut Rng, seed: i64) -> Value {
    if rng.below(3) == 0 {
        driven(json!({ "type": "value", "seed": seed }), 0.75, 3.0)
    } else {
        json!(rng.range(1.0, 3.0))
    }
}

fn input(rng: &mut Rng, shape: Shape, depth: usize, names: &[String]) -> Value {
    if !names.is_empty() && rng.below(6) == 0 {
        return Value::String(rng.pick(names).clone());
    }
    if rng.below(10) == 0 {
        return json!(rng.range(-1.0, 1.0));
    }
    node(rng, shape, depth, names)
}

/// In a third of the draws, one axis of the per-axis numbers `axes` replaced by simplex
/// noise remapped onto `range`.
fn drive_an_axis(rng: &mut Rng, axes: &mut Value, dims: usize, seed: i64, range: (f64, f64)) {
    if rng.below(3) == 0 {
        let a = rng.below(dims as u64) as usize;
        axes[a] = driven(json!({ "type": "simplex", "seed": seed }), range.0, range.1);
    }
}

/// A node-driven parameter: `source` remapped from [-1, 1] onto `[lo, hi]` (noise keeps
/// it within; a position or a constant past ±1 takes it beyond, as a node may).
fn driven(source: Value, lo: f64, hi: f64) -> Value {
    json!({ "type": "remap", "source": source, "from": [-1, 1], "to": [lo, hi] })
}

fn node(rng: &mut Rng, shape: Shape, depth: usize, names: &[String]) -> Value {
    if depth == 0 || rng.below(4) == 0 {
        return leaf(rng, shape);
    }
    let d = depth - 1;
    let planes: Vec<&str> = ["xy", "xz", "yz", "xw", "yw", "zw"]
        .into_iter()
        .filter(|p| p.chars().all(|c| "xyzw"[..shape.dims].contains(c)))
        .collect();
    let kinds = [
        "fbm",
        "ridged",
        "turbulence",
        "scale",
        "offset",
        "rotate",
        "rotate-plane",
        "warp",
        "warp-by",
        "seed",
        "add",
        "subtract",
        "multiply",
        "divide",
        "modulus",
        "min",
        "max",
        "smooth-min",
        "smooth-max",
        "blend",
        "abs",
        "clamp",
        "remap",
        "pow",
        "signed-sqrt",
        "curve",
        "terrace",
        "ping-pong",
        "cellular-lookup",
        "add-dimension",
        "remove-dimension",
    ];
    let kind = *rng.pick(&kinds);
    let src = |rng: &mut Rng| input(rng, shape, d, names);
    match kind {
        "fbm" | "ridged" | "turbulence" => {
            let mut fractal = json!({
                "type": kind,
                "source": src(rng),
                "octaves": 1 + rng.below(3),
                "lacunarity": rng.range(1.5, 2.5),
                "gain": rng.range(0.3, 0.7),
                "seed_step": rng.below(3),
            });
            if kind != "turbulence" && rng.below(2) == 0 {
                fractal["weighted_strength"] = json!(rng.unit());
            }
            // A gain given per sample by a node (kept within 0.3 to 0.7).
            if rng.below(4) == 0 {
                fractal["gain"] = json!({
                    "type": "remap",
                    "source": src(rng),
                    "from": [-1, 1],
                    "to": [0.3, 0.7],
                });
            }
            // A lacunarity given per sample by a node (kept within 1.5 to 2.5).
            if rng.below(5) == 0 {
                fractal["lacunarity"] = driven(src(rng), 1.5, 2.5);
            }
            fractal
        }
        "scale" => {
            let mut scale =
                json!({ "type": "scale", "source": src(rng), "by": rng.range(0.25, 4.0) });
            // Amounts given per sample by nodes: one for every axis, or x's alone (kept
            // within 0.5 to 2).
            match rng.below(6) {
                0 => scale["by"] = driven(src(rng), 0.5, 2.0),
                1 => scale["by"] = json!([driven(src(rng), 0.5, 2.0), rng.range(0.25, 4.0)]),
                _ => {}
            }
            scale
        }
        "offset" => {
            let mut by: Vec<Value> = (0..shape.dims)
                .map(|_| json!(rng.range(-10.0, 10.0)))
                .collect();
            // An amount given per sample by a node: one for every axis, or y's.
            match rng.below(6) {
                0 => {
                    return json!({ "type": "offset", "source": src(rng), "by": driven(src(rng), -2.0, 2.0) })
                }
                1 => by[1] = driven(src(rng), -2.0, 2.0),
                _ => {}
            }
            json!({ "type": "offset", "source": src(rng), "by": by })
        }
        // In 2D the turn adds z = 0: the source is 3D, drawn as `add-dimension`'s is.
        "rotate-plane" => {
            let source = if shape.dims == 2 {
                input(rng, Shape { dims: 3, ..shape }, d, &[])
            } else {
                src(rng)
            };
            json!({
                "type": "rotate-plane",
                "source": source,
                "plane": *rng.pick(&["xy", "xz"]),
            })
        }
        "rotate" => {
            // A quarter of the angles driven by a smooth noise.
            let angle = if rng.below(4) == 0 {
                driven(
                    json!({ "type": "simplex", "seed": rng.below(5) }),
                    -3.0,
                    3.0,
                )
            } else {
                json!(rng.range(-3.0, 3.0))
            };
            json!({
                "type": "rotate",
                "source": src(rng),
                "angle": angle,
                "plane": *rng.pick(&planes),
            })
        }
        "warp" => {
            let warp_noises: Vec<&str> = choices("warp", "noise").to_vec();
            let fractal = *rng.pick(choices("warp", "fractal"));
            // A progressive warp has one iteration (its octaves are its iterations).
            let iterations = if fractal == "progressive" {
                1
            } else {
                1 + rng.below(2)
            };
            let mut warp = json!({
                "type": "warp",
                "source": src(rng),
                "amplitude": rng.range(-1.0, 1.0),
                // Whole frequencies keep a tiled field's periods whole: such warps tile.
                "frequency": if rng.below(3) == 0 { (1 + rng.below(2)) as f64 } else { rng.range(0.5, 2.0) },
                "octaves": 1 + rng.below(2),
                "iterations": iterations,
                "noise": *rng.pick(&warp_noises),
                "fractal": fractal,
            });
            // A third of the simplex warps with the continuous kernel (the others' warps
            // have none to choose).
            if matches!(warp["noise"].as_str(), Some("simplex" | "simplex-vector"))
                && rng.below(3) == 0
            {
                warp["kernel"] = json!("continuous");
            }
            // A frequency, lacunarity and gain given per sample by nodes (kept within 0.5
            // to 2, 1.5 to 2.5 and 0.3 to 0.7).
            for (key, lo, hi) in [
                ("frequency", 0.5, 2.0),
                ("lacunarity", 1.5, 2.5),
                ("gain", 0.3, 0.7),
            ] {
                if rng.below(5) == 0 {
                    warp[key] = driven(src(rng), lo, hi);
                }
            }
            warp
        }
        "warp-by" => {
            let by: Vec<Value> = (0..shape.dims).map(|_| leaf(rng, shape)).collect();
            json!({ "type": "warp", "source": src(rng), "amplitude": rng.range(-0.5, 0.5), "displacement": by })
        }
        "seed" => json!({ "type": "seed", "source": src(rng), "offset": rng.below(9) as i64 - 4 }),
        // The source one dimension up (a 4D point passes through), without the shared
        // names: a node drawn for the graph's dimensions may not lower in others (a
        // rotation's plane, a warp's displacements). The position: 0, a number or a node.
        "add-dimension" => {
            let up = Shape {
                dims: (shape.dims + 1).min(4),
                ..shape
            };
            let mut add = json!({ "type": "add-dimension", "source": input(rng, up, d, &[]) });
            match rng.below(3) {
                0 => {}
                1 => add["position"] = json!(rng.range(-4.0, 4.0)),
                _ => add["position"] = src(rng),
            }
            add
        }
        // One dimension down (2D points, and 3D ones without a `w` to remove, pass through).
        "remove-dimension" => {
            let axis = *rng.pick(choices("remove-dimension", "axis"));
            let removed = "xyzw".find(axis).expect("an axis");
            let down = Shape {
                dims: if shape.dims == 2 || removed >= shape.dims {
                    shape.dims
                } else {
                    shape.dims - 1
                },
                ..shape
            };
            json!({ "type": "remove-dimension", "source": input(rng, down, d, &[]), "axis": axis })
        }
        // Piecewise constant: it jumps at the cells' borders, as `white` and `cell`.
        "cellular-lookup" => {
            let exponent = cellular_exponent(rng, 7);
            json!({
                "type": "cellular-lookup",
                "source": src(rng),
                // A quarter of the frequencies driven by a smooth noise.
                "frequency": if rng.below(4) == 0 {
                    driven(json!({ "type": "value", "seed": rng.below(5) }), 0.05, 2.0)
                } else {
                    json!(rng.range(0.05, 2.0))
                },
                "distance": *rng.pick(choices("cellular-lookup", "distance")),
                "exponent": exponent,
                // A quarter of the jitters driven, past 0..1 in places (clamped there).
                "jitter": if rng.below(4) == 0 {
                    driven(json!({ "type": "value", "seed": rng.below(5) }), -0.2, 1.2)
                } else {
                    json!(rng.unit())
                },
                "seed": rng.below(9) as i64 - 4,
            })
        }
        // A divisor near 0 is kept out: a quotient's rounding grows as 1/b² there (the GPU's
        // and the CPU's f32 differ by the conditioning, not by an error), and a modulus by a
        // small `b` wraps many times within a central difference's step. `|b|` is in
        // [0.5, 2] here; `ARITHMETIC_GRAPHS` below and tests/reference/graph_divide_modulus.rs
        // take small and zero ones.
        "divide" | "modulus" => {
            let (lo, hi) = if rng.below(2) == 0 {
                (0.5, 2.0)
            } else {
                (-2.0, -0.5)
            };
            let b = json!({ "type": "clamp", "source": src(rng), "min": lo, "max": hi });
            json!({ "type": kind, "a": src(rng), "b": b })
        }
        "add" | "subtract" | "multiply" | "min" | "max" => {
            json!({ "type": kind, "a": src(rng), "b": src(rng) })
        }
        "smooth-min" | "smooth-max" => {
            let mut smooth =
                json!({ "type": kind, "a": src(rng), "b": src(rng), "k": rng.range(0.05, 0.5) });
            // A blend width given per sample by a node (kept within 0.05 to 0.5).
            if rng.below(3) == 0 {
                smooth["k"] = driven(src(rng), 0.05, 0.5);
            }
            smooth
        }
        "blend" => json!({
            "type": "blend",
            "a": src(rng),
            "b": src(rng),
            "t": src(rng),
            "interpolation": *rng.pick(choices("blend", "interpolation")),
        }),
        "abs" => json!({ "type": "abs", "source": src(rng) }),
        "clamp" => {
            let lo = rng.range(-1.0, 0.0);
            let hi = lo + rng.range(0.1, 1.5);
            let mut clamp = json!({ "type": "clamp", "source": src(rng), "min": lo, "max": hi });
            // An end given per sample by a node, on its side of the other end.
            match rng.below(4) {
                0 => clamp["min"] = driven(src(rng), lo - 0.5, lo),
                1 => clamp["max"] = driven(src(rng), hi, hi + 0.5),
                _ => {}
            }
            clamp
        }
        "remap" => {
            let mut remap = json!({
                "type": "remap",
                "source": src(rng),
                "from": [-1.0, 1.0],
                "to": [rng.range(-2.0, 0.0), rng.range(0.1, 2.0)],
                "clamp": *rng.pick(choices("remap", "clamp")),
            });
            // An end given per sample by a node: `to`'s low end, or `from`'s high end (kept
            // within 0.75 to 1.5, away from the low end).
            match rng.below(4) {
                0 => remap["to"][0] = driven(src(rng), -2.0, 0.0),
                1 => remap["from"][1] = driven(src(rng), 0.75, 1.5),
                _ => {}
            }
            remap
        }
        "pow" => {
            let mut pow =
                json!({ "type": "pow", "source": src(rng), "exponent": rng.range(1.0, 3.0) });
            // An exponent given per sample by a node: within 1 to 3 for a differentiable graph
            // (clamped there: below 1 the slope at 0 is infinite), else past them too where
            // the node's values reach.
            if rng.below(3) == 0 {
                let mut exponent = driven(src(rng), 1.0, 3.0);
                if shape.differentiable {
                    exponent["clamp"] = json!("on");
                }
                pow["exponent"] = exponent;
            }
            pow
        }
        // Its slope is infinite at 0 (as `pow`'s below exponent 1), which central
        // differences cannot follow: a differentiable graph takes it of 1 + |v|.
        "signed-sqrt" if shape.differentiable => {
            let v = json!({ "type": "abs", "source": src(rng) });
            json!({ "type": "signed-sqrt", "source": { "type": "add", "a": 1.0, "b": v } })
        }
        "signed-sqrt" => json!({ "type": "signed-sqrt", "source": src(rng) }),
        // 2 to 8 points over about the noise's range, 0.1 to 0.6 apart, y within ±1.5.
        "curve" => {
            let mut x = rng.range(-1.5, -0.5);
            let points: Vec<[f64; 2]> = (0..2 + rng.below(7))
                .map(|_| {
                    let point = [x, rng.range(-1.5, 1.5)];
                    x += rng.range(0.1, 0.6);
                    point
                })
                .collect();
            json!({ "type": "curve", "source": src(rng), "points": points })
        }
        "terrace" => {
            let mut terrace = json!({
                "type": "terrace",
                "source": src(rng),
                "steps": 1 + rng.below(8),
                "smoothness": if shape.differentiable { rng.range(0.2, 1.0) } else { rng.unit() },
            });
            // A smoothness given per sample by a node: within 0.2 to 1 for a differentiable
            // graph (clamped there), else past 0 and 1 too where the node's values reach.
            if rng.below(3) == 0 {
                let mut smoothness = driven(src(rng), 0.2, 1.0);
                if shape.differentiable {
                    smoothness["clamp"] = json!("on");
                }
                terrace["smoothness"] = smoothness;
            }
            terrace
        }
        _ => json!({ "type": "ping-pong", "source": src(rng), "strength": rng.range(0.5, 3.0) }),
    }
}

/// The choice parameters whose every choice the random graphs must use:
/// [`unused_node_types`] names them `"{node} {param}={choice}"`.
pub const COVERED_CHOICES: &[(&str, &str)] = &[
    ("cellular", "output"),
    ("cellular", "distance"),
    ("cellular-lookup", "distance"),
    ("distance", "metric"),
    ("warp", "noise"),
    ("warp", "fractal"),
];

/// The node types a graph file uses, and its choices of [`COVERED_CHOICES`] as
/// `"{node} {param}={choice}"`.
pub fn node_types(text: &str) -> BTreeSet<String> {
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(map) => {
                if let Some(Value::String(t)) = map.get("type") {
                    out.insert(t.clone());
                    for (node, param) in COVERED_CHOICES.iter().filter(|(n, _)| n == t) {
                        if let Some(Value::String(c)) = map.get(*param) {
                            out.insert(format!("{node} {param}={c}"));
                        }
                    }
                }
                map.values().for_each(|v| walk(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    walk(&serde_json::from_str(text).unwrap(), &mut out);
    out
}

/// Of every node type of the node table and every choice of [`COVERED_CHOICES`], those
/// that none of the graph files `texts` uses: what the random graph tests assert is empty.
pub fn unused_node_types(texts: &[impl AsRef<str>]) -> Vec<String> {
    let used: BTreeSet<String> = texts.iter().flat_map(|t| node_types(t.as_ref())).collect();
    let types = NODE_TYPES.iter().map(|t| t.name.to_string());
    let choices = COVERED_CHOICES.iter().flat_map(|&(node, param)| {
        choices(node, param)
            .iter()
            .map(move |c| format!("{node} {param}={c}"))
    });
    types.chain(choices).filter(|t| !used.contains(t)).collect()
}

/// The random graphs of the randomised GPU tests: `graphs` graphs drawn from `rng` (2D to
/// 4D, depth 1 to 6; one that does not lower is skipped), then of the graphs drawn after
/// them (up to 5000 drawn in all) only those that use a node type or choice none before
/// used, until every one is used. `test(rng, i, shape, text, program)` checks the `i`th
/// graph kept, drawing what else it needs from `rng` (so the seed fixes the whole run).
/// Asserts that the graphs kept use every node type and every choice of
/// [`COVERED_CHOICES`] (`label` names the run); returns how many were kept and drawn.
pub fn covering_graphs(
    label: &str,
    rng: &mut Rng,
    graphs: usize,
    mut test: impl FnMut(&mut Rng, usize, Shape, &str, Program),
) -> (usize, usize) {
    let (mut texts, mut drawn) = (Vec::new(), 0);
    let mut unused = unused_node_types(&[] as &[&str]);
    while texts.len() < graphs || (!unused.is_empty() && drawn < 5000) {
        drawn += 1;
        let shape = Shape {
            dims: 2 + rng.below(3) as usize,
            depth: 1 + rng.below(6) as usize,
            differentiable: false,
        };
        let text = random_graph(rng, shape).to_string();
        let Ok(program) = Graph::from_json(&text)
            .unwrap()
            .program(shape.dims, [0.0; 4])
        else {
            continue;
        };
        let types = node_types(&text);
        if texts.len() >= graphs && !unused.iter().any(|t| types.contains(t)) {
            continue;
        }
        test(rng, texts.len(), shape, &text, program);
        unused.retain(|t| !types.contains(t));
        texts.push(text);
    }
    let unused = unused_node_types(&texts);
    assert!(
        unused.is_empty(),
        "{label}: no random graph uses {unused:?}"
    );
    (texts.len(), drawn)
}

/// The bound of docs/graphs.md: `|gpu − cpu| ≤ (1e-4 + 8 e₃₂) (1 + |cpu|)`, where `e₃₂` is
/// the largest `|cpu − cpu₆₄| / (1 + |cpu|)` over the field: f32's own error on this graph.
/// Every operation is the same f32 operation on both sides; the GPU compilers may fuse a
/// multiply-add or use their own `pow`/`sin`/`cos`, each worth a few ulps, and a graph
/// chains up to a few hundred of them, scaled by the slopes of the nodes after them. Where
/// f32 cannot resolve a graph (a triangle wave of 1e12), the f32 CPU already differs from
/// the same graph in f64 by about as much as any other f32 evaluation may.
pub const RELATIVE: f32 = 1e-4;
pub const CONDITIONING: f32 = 8.0;
/// Samples within rounding of a discontinuity (a hard terrace step, a cellular cell
/// boundary, a reference-kernel simplex boundary) may differ by the jump itself: at most
/// this fraction of a field's samples.
pub const JUMPS: f64 = 0.01;

/// The bound of a derivative or curl component: `|gpu − cpu| ≤ DERIVATIVES (1 + |cpu|)`
/// (docs/graphs.md). Measured: at most 2e-4 on Vulkan (lavapipe), 2.9e-3 on GL (llvmpipe,
/// whose compiler regroups sums) for the terrain's 3D curl at offset 1e4; the values'
/// conditioning term (`8 e₃₂`) does not serve here, as f32 and f64 take different sides of
/// kinks and `e₃₂` becomes the size of a jump.
pub const DERIVATIVES: f32 = 4e-3;

/// How a GPU field compares with the f32 CPU's under the bound above.
#[derive(Clone, Copy, Debug, Default)]
pub struct Parity {
    /// The largest relative error of the samples within the bound.
    pub worst: f32,
    /// The bound: `RELATIVE + CONDITIONING × e₃₂`.
    pub bound: f32,
    /// Samples over the bound (discontinuities).
    pub over: usize,
}

/// Compares `gpu` with `cpu` (and `cpu64`, the same samples in f64) under the bound above.
pub fn graph_parity(label: &str, gpu: &[f32], cpu: &[f32], cpu64: &[f64]) -> Parity {
    assert_eq!(gpu.len(), cpu.len(), "{label}: sample count");
    let relative = |a: f32, b: f64| ((a as f64 - b).abs() / (1.0 + (a as f64).abs())) as f32;
    let f32_error = cpu
        .iter()
        .zip(cpu64)
        .map(|(&c, &c64)| relative(c, c64))
        .fold(0.0, f32::max);
    let bound = RELATIVE + CONDITIONING * f32_error;
    let mut parity = Parity {
        bound,
        ..Parity::default()
    };
    for (i, (g, c)) in gpu.iter().zip(cpu).enumerate() {
        assert!(
            g.is_finite() && c.is_finite(),
            "{label}: sample {i}: gpu {g} cpu {c}"
        );
        let error = relative(*g, *c as f64);
        if error > bound {
            parity.over += 1;
        } else {
            parity.worst = parity.worst.max(error);
        }
    }
    parity
}

/// [`graph_parity`], asserting that at most [`JUMPS`] of the samples are over the bound;
/// the largest relative error of the others.
pub fn assert_graph_parity(label: &str, gpu: &[f32], cpu: &[f32], cpu64: &[f64]) -> f32 {
    let parity = graph_parity(label, gpu, cpu, cpu64);
    assert!(
        parity.over as f64 <= JUMPS * gpu.len() as f64,
        "{label}: {} of {} samples over the bound {:e}",
        parity.over,
        gpu.len(),
        parity.bound
    );
    parity.worst
}

/// A graph of one node `o`, written in place.
pub fn one_node_graph(node: &str) -> String {
    format!(r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {node} }} }}"#)
}

/// Nodes at the bounds of docs/graphs.md "Finite numbers" (each name, then the node `o`),
/// each of which gave NaN or an infinity on `7877bc5` (issue 46), in `f32` or on the GPU.
pub const EXTREMES: &[(&str, &str)] = &[
    (
        "terrace of the largest constant, 1024 steps",
        r#"{ "type": "terrace", "source": 1e30, "steps": 1024, "smoothness": 0.5 }"#,
    ),
    (
        "blend of -1e30 and 1e30 at t = -1",
        r#"{ "type": "blend", "a": -1e30, "b": 1e30, "t": -1 }"#,
    ),
    (
        "ping-pong of 1e30, strength 1000",
        r#"{ "type": "ping-pong", "source": 1e30, "strength": 1000 }"#,
    ),
    (
        "fBm of 1e30, gain -2, 16 octaves",
        r#"{ "type": "fbm", "source": 1e30, "octaves": 16, "gain": -2 }"#,
    ),
    (
        "fBm of 1e30, gain -64, 16 octaves",
        r#"{ "type": "fbm", "source": 1e30, "octaves": 16, "gain": -64 }"#,
    ),
    (
        "ridged of 1e30, gain -2",
        r#"{ "type": "ridged", "source": 1e30, "octaves": 16, "gain": -2 }"#,
    ),
    (
        "turbulence of -1e30, gain -64",
        r#"{ "type": "turbulence", "source": -1e30, "octaves": 16, "gain": -64 }"#,
    ),
    (
        "ridged of x times 1e30 (huge values and slopes), gain 0",
        r#"{ "type": "ridged", "octaves": 4, "gain": 0,
             "source": { "type": "multiply", "a": { "type": "position", "axis": "x" }, "b": 1e30 } }"#,
    ),
    (
        "ridged of x times 1e30, gain -3",
        r#"{ "type": "ridged", "octaves": 6, "gain": -3,
             "source": { "type": "multiply", "a": { "type": "position", "axis": "x" }, "b": 1e30 } }"#,
    ),
    (
        "product of two huge values with opposite huge slopes",
        r#"{ "type": "multiply",
             "a": { "type": "multiply", "a": { "type": "position", "axis": "x" }, "b": 1e30 },
             "b": { "type": "subtract", "a": 1e30,
                    "b": { "type": "multiply", "a": { "type": "position", "axis": "x" }, "b": 1e30 } } }"#,
    ),
    (
        "pow of 1e30, exponent 64",
        r#"{ "type": "pow", "source": 1e30, "exponent": 64 }"#,
    ),
    (
        "pow of fBm simplex, exponent 0.5 (infinite slope at 0)",
        r#"{ "type": "pow", "exponent": 0.5,
             "source": { "type": "fbm", "source": { "type": "simplex" }, "octaves": 4 } }"#,
    ),
    (
        "pow of classic, exponent 0.25 (0 at every lattice point)",
        r#"{ "type": "pow", "exponent": 0.25, "source": { "type": "classic" } }"#,
    ),
    (
        "remap of the narrowest range onto the widest",
        r#"{ "type": "remap", "source": { "type": "simplex" }, "from": [0, 1e-37], "to": [-1e30, 1e30] }"#,
    ),
    (
        "smooth-min of the largest values, the smallest k",
        r#"{ "type": "smooth-min", "a": 1e30, "b": { "type": "multiply", "a": -1e30,
             "b": { "type": "simplex" } }, "k": 1e-6 }"#,
    ),
    (
        "curve of the narrowest segment between the largest values (a slope past f32)",
        r#"{ "type": "curve", "points": [[0, -1e30], [1e-30, 1e30], [1, 1e30]],
             "source": { "type": "multiply", "a": { "type": "position", "axis": "x" }, "b": 1e-30 } }"#,
    ),
    (
        "sine far past its limit, at the largest scale of the point",
        r#"{ "type": "scale", "by": 1e6, "source": { "type": "sine", "scale": 1e-6 } }"#,
    ),
    // Node-driven parameters past their ranges (docs/graphs.md, "Hybrid parameters"): a
    // node of ±1e30 (simplex times 1e30: 0 at the origin and the lattice points).
    (
        "smooth-min whose k a node drives through 0 to ±1e30",
        r#"{ "type": "smooth-min", "a": { "type": "classic" }, "b": { "type": "simplex", "seed": 1 },
             "k": { "type": "multiply", "a": 1e30, "b": { "type": "simplex" } } }"#,
    ),
    (
        "remap whose from ends a node makes meet, onto ends of ±1e30",
        r#"{ "type": "remap", "source": { "type": "classic" }, "clamp": "on",
             "from": [{ "type": "simplex" }, { "type": "simplex" }],
             "to": [-1e30, { "type": "multiply", "a": 1e30, "b": { "type": "classic", "seed": 2 } }] }"#,
    ),
    (
        "pow of 1e30 times noise, its exponent a node of ±1e30",
        r#"{ "type": "pow", "source": { "type": "multiply", "a": 1e30, "b": { "type": "classic" } },
             "exponent": { "type": "multiply", "a": 1e30, "b": { "type": "simplex" } } }"#,
    ),
    (
        "terrace whose smoothness a node drives through 0 to ±1e30",
        r#"{ "type": "terrace", "steps": 7, "source": { "type": "simplex", "seed": 1 },
             "smoothness": { "type": "multiply", "a": 1e30, "b": { "type": "simplex" } } }"#,
    ),
    (
        "scale and offset by nodes of ±1e30",
        r#"{ "type": "scale", "by": [{ "type": "multiply", "a": 1e30, "b": { "type": "simplex" } }, 2],
             "source": { "type": "offset", "source": { "type": "classic" },
                         "by": { "type": "multiply", "a": -1e30, "b": { "type": "classic", "seed": 3 } } } }"#,
    ),
    // Constant nodes: a node that drives a warp's parameter through 0 to ±1e30 makes the
    // warped point chaotic there (its gradient jumps between the CPU's and the GPU's
    // roundings on more samples than the bound allows); so does a frequency of 1e30 on GL
    // (noise at coordinates of ±1e30 × 64ᵏ: 36 of 256 3D derivatives over the bound).
    (
        "independent warp whose lacunarity and gain nodes of ±1e30 give",
        r#"{ "type": "warp", "amplitude": 0.5, "octaves": 3, "iterations": 2, "source": { "type": "simplex" },
             "lacunarity": { "type": "constant", "value": -1e30 },
             "gain": { "type": "constant", "value": 1e30 } }"#,
    ),
    (
        "progressive vector warp whose lacunarity and gain nodes of ±1e30 give",
        r#"{ "type": "warp", "amplitude": 0.5, "octaves": 3, "fractal": "progressive", "noise": "vector",
             "source": { "type": "classic" },
             "lacunarity": { "type": "constant", "value": 1e30 },
             "gain": { "type": "constant", "value": -1e30 } }"#,
    ),
    (
        "terrace of a huge slope, the smallest smoothness",
        r#"{ "type": "terrace", "steps": 1024, "smoothness": 1e-30,
             "source": { "type": "multiply", "a": { "type": "position", "axis": "y" }, "b": 1e29 } }"#,
    ),
];

/// Graphs of the `divide` and `modulus` nodes over noise, for the parity and lane tests: a
/// divisor that crosses 0 (its quotient clamped to ±1e30 near the zeros), one kept from 0,
/// under a fractal, a warp and each other.
pub const ARITHMETIC_GRAPHS: &[&str] = &[
    r#"{ "type": "divide", "a": { "type": "simplex" }, "b": { "type": "classic", "seed": 2 } }"#,
    r#"{ "type": "divide", "a": { "type": "fbm", "source": { "type": "classic" } },
         "b": { "type": "add", "a": 1.5, "b": { "type": "simplex", "seed": 1 } } }"#,
    r#"{ "type": "modulus", "a": { "type": "multiply", "a": 4, "b": { "type": "simplex" } },
         "b": { "type": "remap", "source": { "type": "classic", "seed": 3 }, "to": [0.5, 1.5] } }"#,
    r#"{ "type": "modulus", "a": { "type": "position", "axis": "x" }, "b": -0.75 }"#,
    r#"{ "type": "fbm", "octaves": 3, "source": { "type": "modulus",
         "a": { "type": "cellular", "output": "f2" }, "b": 0.4 } }"#,
    r#"{ "type": "warp", "amplitude": 0.3, "source": { "type": "divide",
         "a": { "type": "modulus", "a": { "type": "simplex" }, "b": 0.3 },
         "b": { "type": "add", "a": 2, "b": { "type": "classic" } } } }"#,
];

/// A graph file whose output is `node`.
pub fn graph_of_node(node: &str) -> String {
    format!(r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {node} }} }}"#)
}
