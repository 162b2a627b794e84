//! Random hostile graph files (`docs/graphs.md`, Limits): deep and wide graphs, long names,
//! names with control characters, keys written twice, unknown keys, values of the wrong type
//! or out of range, edge numbers (-0, 1e400, NaN, 2⁶³), huge arrays and strings, cut-off
//! files. Each `sample --graph` either prints finite values (exit 0) or is refused with
//! one `error:` line of at most 1 KiB naming the JSON path (exit 1), within 30 s and 1 GiB
//! of address space.

use std::fmt::Write as _;
use std::time::Duration;

use crate::bake_support::scratch_dir;
use crate::common::graphs::Rng;
use crate::graph_input::{assert_one_bounded_error, sample_graph};

/// A JSON text as written: objects keep every key, repeated ones too.
#[derive(Clone)]
enum J {
    /// A number, string or literal, written as is (`1e400`, `NaN`, `"x"`).
    Raw(String),
    Obj(Vec<(String, J)>),
    Arr(Vec<J>),
}

impl J {
    fn write(&self, out: &mut String) {
        match self {
            J::Raw(s) => out.push_str(s),
            J::Obj(pairs) => {
                out.push('{');
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&serde_json::to_string(k).unwrap());
                    out.push_str(": ");
                    v.write(out);
                }
                out.push('}');
            }
            J::Arr(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
        }
    }
}

fn num(v: f64) -> J {
    J::Raw(format!("{v}"))
}

fn string(s: &str) -> J {
    J::Raw(serde_json::to_string(s).unwrap())
}

/// The generator's odds and sizes.
struct Gen {
    rng: Rng,
    /// Names of the named nodes (some hostile), referenced by inputs.
    names: Vec<String>,
}

impl Gen {
    fn chance(&mut self, p: f64) -> bool {
        self.rng.unit() < p
    }

    /// A node name: plain, at or past the 64-byte limit, with control characters, or
    /// non-ASCII.
    fn name(&mut self) -> String {
        let i = self.rng.below(1000);
        match self.rng.below(100) {
            0 => "x".repeat(1 + self.rng.below(20_000) as usize),
            1 | 2 => "n".repeat(58 + self.rng.below(10) as usize),
            6..=15 => format!("a\nb{i}"),
            16..=25 => format!("\u{1b}[31m{i}\u{1b}[0m"),
            26..=30 => format!("tab\t{i}\r\u{7}"),
            31..=40 => format!("größe-{i}-→"),
            _ => format!("n{i}"),
        }
    }

    /// A value of the wrong kind or at an edge, for any parameter or input: extreme finite
    /// numbers among them (1e36 under a terrace, ±3.4e38 blended, a fractal of them with a
    /// negative gain), refused or evaluated finite by the rule of docs/graphs.md; `whole` (a
    /// seed, octaves, steps: whole-number parameters with small ranges) adds large whole
    /// numbers.
    fn hostile_value(&mut self, whole: bool) -> J {
        match self.rng.below(if whole { 22 } else { 18 }) {
            0 => J::Raw("-0".into()),
            1 => J::Raw("1e400".into()),
            2 => J::Raw("-1e-320".into()),
            3 => J::Raw("NaN".into()),
            4 => J::Raw("Infinity".into()),
            5 => J::Raw("null".into()),
            6 => J::Raw("true".into()),
            7 => string(&"s".repeat(self.rng.below(100_000) as usize)),
            8 => J::Arr((0..self.rng.below(50_000)).map(|_| num(1.0)).collect()),
            9 => J::Obj(vec![]),
            10 => string("\u{1b}[2J\n"),
            11 => J::Raw("1.5".into()),
            12 => J::Arr(vec![num(1.0); 5]),
            13 => J::Raw("-0.0".into()),
            14 => J::Raw("1e30".into()),
            15 => J::Raw("-1e30".into()),
            16 => J::Raw("3.4e38".into()),
            17 => J::Raw("1e-37".into()),
            18 => J::Raw("9223372036854775808".into()),
            19 => J::Raw("-9223372036854775809".into()),
            20 => J::Raw("1e15".into()),
            _ => num(self.rng.range(-1e9, 1e9).round()),
        }
    }

    /// A value for a parameter: mostly in a moderate range, sometimes hostile.
    fn param(&mut self, lo: f64, hi: f64, whole: bool) -> J {
        if self.chance(0.015) {
            return self.hostile_value(whole);
        }
        let v = self.rng.range(lo, hi);
        if whole {
            num(v.round())
        } else {
            num(v)
        }
    }

    /// An input: a reference (maybe to no node), a constant or a node written in place.
    fn input(&mut self, depth: usize) -> J {
        if self.chance(0.02) {
            return self.hostile_value(false);
        }
        match self.rng.below(6) {
            0 if !self.names.is_empty() => {
                let i = self.rng.below(self.names.len() as u64) as usize;
                string(&self.names[i].clone())
            }
            0 if self.chance(0.1) => string("nowhere"),
            0 => num(self.rng.range(-2.0, 2.0)),
            // Moderate constants: see `hostile_value`.
            1 => num(self.rng.range(-2.0, 2.0)),
            _ => self.node(depth),
        }
    }

    fn choice(&mut self, names: &[&str]) -> J {
        if self.chance(0.03) {
            return string(&self.name());
        }
        let name = *self.rng.pick(names);
        string(name)
    }

    /// A node `depth` levels from its sources, with hostile touches.
    fn node(&mut self, depth: usize) -> J {
        let mut pairs: Vec<(String, J)> = Vec::new();
        let leaf = depth == 0 || self.chance(0.15);
        let kinds: &[&str] = if leaf {
            &[
                "classic", "simplex", "cellular", "constant", "position", "sine",
            ]
        } else {
            &[
                "fbm",
                "ridged",
                "turbulence",
                "scale",
                "offset",
                "rotate",
                "warp",
                "seed",
                "add",
                "subtract",
                "multiply",
                "divide",
                "modulus",
                "min",
                "max",
                "smooth-min",
                "blend",
                "abs",
                "clamp",
                "remap",
                "pow",
                "signed-sqrt",
                "curve",
                "terrace",
                "ping-pong",
            ]
        };
        let kind = *self.rng.pick(kinds);
        pairs.push(("type".into(), string(kind)));
        let d = depth.saturating_sub(1);
        match kind {
            "classic" | "simplex" | "cellular" => {
                pairs.push(("seed".into(), self.param(-1.1e6, 1.1e6, true)));
                if kind == "simplex" {
                    pairs.push(("kernel".into(), self.choice(&["reference", "continuous"])));
                }
                if kind == "cellular" {
                    pairs.push(("output".into(), self.choice(&["f1", "f2", "f2-f1", "cell"])));
                    pairs.push(("jitter".into(), self.param(0.0, 1.2, false)));
                }
            }
            "constant" => pairs.push(("value".into(), self.param(-2.0, 2.0, false))),
            "position" => pairs.push(("axis".into(), self.choice(&["x", "y", "z", "w"]))),
            "sine" => pairs.push(("scale".into(), self.param(-0.5, 4.0, false))),
            "fbm" | "ridged" | "turbulence" => {
                pairs.push(("source".into(), self.input(d)));
                pairs.push(("octaves".into(), self.param(1.0, 17.0, true)));
                pairs.push(("gain".into(), self.param(-1.0, 1.0, false)));
                pairs.push(("lacunarity".into(), self.param(0.5, 3.0, false)));
            }
            "scale" | "offset" => {
                pairs.push(("source".into(), self.input(d)));
                let n = if self.chance(0.05) {
                    5 * self.rng.below(2) as usize
                } else {
                    1 + self.rng.below(4) as usize
                };
                let by = (0..n).map(|_| self.param(-4.0, 4.0, false)).collect();
                pairs.push(("by".into(), J::Arr(by)));
            }
            "rotate" => {
                pairs.push(("source".into(), self.input(d)));
                pairs.push(("angle".into(), self.param(-7.0, 7.0, false)));
                pairs.push(("plane".into(), self.choice(&["xy", "xz", "yz", "zw"])));
            }
            "warp" => {
                pairs.push(("source".into(), self.input(d)));
                pairs.push(("amplitude".into(), self.param(-2.0, 2.0, false)));
                pairs.push(("octaves".into(), self.param(1.0, 3.0, true)));
                if self.chance(0.3) {
                    let n = 1 + self.rng.below(4) as usize;
                    let items = (0..n).map(|_| self.input(d)).collect();
                    pairs.push(("displacement".into(), J::Arr(items)));
                }
            }
            "seed" => {
                pairs.push(("source".into(), self.input(d)));
                pairs.push(("offset".into(), self.param(-10.0, 10.0, true)));
            }
            "add" | "subtract" | "multiply" | "divide" | "modulus" | "min" | "max"
            | "smooth-min" => {
                pairs.push(("a".into(), self.input(d)));
                pairs.push(("b".into(), self.input(d)));
            }
            "blend" => {
                for k in ["a", "b", "t"] {
                    pairs.push((k.into(), self.input(d)));
                }
            }
            _ => {
                pairs.push(("source".into(), self.input(d)));
                match kind {
                    "clamp" => {
                        pairs.push(("min".into(), self.param(-2.0, 0.0, false)));
                        pairs.push(("max".into(), self.param(0.0, 2.0, false)));
                    }
                    "remap" => {
                        let to = vec![self.param(-2.0, 0.0, false), self.param(0.0, 2.0, false)];
                        pairs.push(("to".into(), J::Arr(to)));
                        if self.chance(0.5) {
                            pairs.push(("clamp".into(), self.choice(&["off", "on"])));
                        }
                    }
                    "pow" => pairs.push(("exponent".into(), self.param(0.5, 2.0, false))),
                    // Points in any order and count: some increase, most are refused.
                    "curve" => {
                        let n = self.rng.below(10) as usize;
                        let points = (0..n)
                            .map(|k| {
                                let x = self.param(k as f64 - 1.5, k as f64, false);
                                J::Arr(vec![x, self.param(-2.0, 2.0, false)])
                            })
                            .collect();
                        pairs.push(("points".into(), J::Arr(points)));
                    }
                    "terrace" => {
                        pairs.push(("steps".into(), self.param(1.0, 1100.0, true)));
                        pairs.push(("smoothness".into(), self.param(0.0, 1.0, false)));
                    }
                    "ping-pong" => pairs.push(("strength".into(), self.param(0.1, 10.0, false))),
                    _ => {}
                }
            }
        }
        self.touch(&mut pairs);
        J::Obj(pairs)
    }

    /// Sometimes a key written twice or an unknown key.
    fn touch(&mut self, pairs: &mut Vec<(String, J)>) {
        if self.chance(0.02) && !pairs.is_empty() {
            let i = self.rng.below(pairs.len() as u64) as usize;
            let key = pairs[i].0.clone();
            let value = self.hostile_value(false);
            pairs.push((key, value));
        }
        if self.chance(0.01) {
            let key = self.name();
            pairs.push((key, num(1.0)));
        }
    }

    /// A whole graph file.
    fn graph(&mut self) -> String {
        let count = match self.rng.below(10) {
            0 => 250 + self.rng.below(20) as usize,
            1..=3 => 4 + self.rng.below(8) as usize,
            _ => 1 + self.rng.below(3) as usize,
        };
        let depth = match self.rng.below(10) {
            0 => 30 + self.rng.below(60) as usize,
            1 | 2 => 6 + self.rng.below(10) as usize,
            _ => 1 + self.rng.below(5) as usize,
        };
        // Distinct names (a repeated one is a key written twice, which `touch` makes).
        let all: Vec<String> = (0..count).map(|k| format!("{}-{k}", self.name())).collect();
        let mut nodes = Vec::new();
        for (i, name) in all.iter().enumerate() {
            // Named nodes refer only to those after them (most graphs are acyclic); the deep
            // one is first, the output.
            self.names = all[i + 1..].to_vec();
            let node = if count > 100 && i > 0 {
                J::Obj(vec![
                    ("type".into(), string("constant")),
                    ("value".into(), num(1.0)),
                ])
            } else {
                let node_depth = if i == 0 {
                    depth
                } else {
                    self.rng.below(3) as usize
                };
                self.node(node_depth)
            };
            nodes.push((name.clone(), node));
        }
        let mut top = vec![
            ("version".into(), num(1.0)),
            ("output".into(), string(&all[0])),
        ];
        self.touch(&mut nodes);
        top.push(("nodes".into(), J::Obj(nodes)));
        if self.chance(0.02) {
            top.push(("version".into(), num(1.0)));
        }
        let mut text = String::new();
        J::Obj(top).write(&mut text);
        if self.chance(0.03) {
            // Cut off (on a character boundary).
            let mut end = self.rng.below(text.len() as u64) as usize;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
        }
        text
    }
}

#[test]
fn hostile_graphs_are_sampled_finite_or_refused_in_one_bounded_line() {
    let dir = scratch_dir("graph-hostile");
    let mut gen = Gen {
        rng: Rng::new(46),
        names: Vec::new(),
    };
    let file = dir.join("hostile.json");
    let (mut sampled, mut refused) = (0, 0);
    let mut slowest = Duration::ZERO;
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    for case in 0..160 {
        let text = gen.graph();
        std::fs::write(&file, &text).unwrap();
        let run = sample_graph(&file);
        slowest = slowest.max(run.elapsed);
        let mut shown = text.clone();
        if shown.len() > 400 {
            let mut end = 400;
            while !shown.is_char_boundary(end) {
                end -= 1;
            }
            shown.truncate(end);
            let _ = write!(shown, "… ({} bytes)", text.len());
        }
        let what = format!("case {case}: {shown:?}");
        if run.code == Some(0) {
            let values: Vec<f64> = run
                .stdout
                .lines()
                .map(|l| l.parse().unwrap_or(f64::NAN))
                .collect();
            assert!(
                values.len() == 2 && values.iter().all(|v| v.is_finite()),
                "{what}: printed {:?}",
                run.stdout
            );
            sampled += 1;
            continue;
        }
        let line =
            assert_one_bounded_error(&run, &what, &[&format!("--graph {}: ", file.display())]);
        let rest = &line[line.find(".json: ").unwrap() + ".json: ".len()..];
        // The JSON path: a top-level key, or none for a file that is not JSON at its top.
        let named = ["nodes.", "nodes: ", "output: ", "version: "]
            .iter()
            .any(|p| rest.starts_with(p))
            || rest.starts_with("not valid JSON")
            || rest.starts_with("a graph file is a JSON object");
        assert!(named, "{what}: no JSON path in {line:?}");
        let message = rest.rsplit(": ").next().unwrap_or(rest);
        let key: String = message.chars().take(24).collect();
        *kinds.entry(key).or_default() += 1;
        refused += 1;
    }
    println!("{sampled} sampled, {refused} refused, slowest {slowest:?}");
    for (k, n) in kinds {
        println!("{n:4}  {k}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
