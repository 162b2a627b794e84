//! Noise graphs: one composable description of what a field computes, built in Rust
//! ([`Node`]) or read from JSON (`docs/graphs.md`), lowered for a dimension count to a
//! [`Program`] that the CPU evaluates in `f32` and `f64` with analytic gradients
//! ([`Sampler`]), that the GPU runs ([`crate::GpuNoise::record`], [`crate::GpuNoise::read`]), that a bake
//! writes, and that compiles to one WGSL function ([`wgsl`]).
//!
//! ```
//! use wgpu_noise::graph::Graph;
//!
//! let graph = Graph::from_json(r#"{
//!     "version": 1,
//!     "output": "ridges",
//!     "nodes": { "ridges": { "type": "ridged", "source": { "type": "simplex" }, "octaves": 5 } }
//! }"#).unwrap();
//! let mut sampler = graph.sampler(3, 0).unwrap(); // 3D, seed 0
//! let v = sampler.value(&[0.3, 0.2, 0.1]);
//! assert!((0.0..=1.0).contains(&v));
//! ```

mod build;
internal! { pub mod eval; }
internal! { pub mod flags; }
mod json;
internal! { pub mod nodes; }
internal! { pub mod plan; }
internal! { pub mod program; }
mod sampler;
internal! { pub mod spec; }
pub mod wgsl;

use std::collections::HashSet;
#[cfg(feature = "cli")]
use std::path::Path;

use crate::text::{one_line, quote_prefix};

pub use self::build::Node;
pub use self::program::Program;
pub use self::sampler::Sampler;
internal! {
    pub use self::spec::GraphSpec;
}
use self::spec::{Input, NodeKind, NodeSpec};

/// What is wrong with a graph, and where: `path` is the JSON path of the offending value
/// (`nodes.mixed.t`), empty for the file as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphError {
    /// The JSON path, e.g. `nodes.mixed.t`.
    pub path: String,
    /// What is wrong there.
    pub message: String,
}

/// Bytes of a JSON path shown in a message, at most (its middle is left out beyond).
const SHOWN_PATH_BYTES: usize = 400;
/// Bytes of an error's message shown, at most (a cycle through many names).
const SHOWN_MESSAGE_BYTES: usize = 400;

/// One line, whatever the names in it: control characters escaped, the path and the message
/// each at most a few hundred bytes (their middles left out beyond).
impl std::fmt::Display for GraphError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let message = one_line(&self.message, SHOWN_MESSAGE_BYTES);
        if self.path.is_empty() {
            write!(f, "{message}")
        } else {
            write!(f, "{}: {message}", one_line(&self.path, SHOWN_PATH_BYTES))
        }
    }
}

impl std::error::Error for GraphError {}

/// Reads a graph file's text: at most [`spec::MAX_FILE_BYTES`] bytes are read, and a larger
/// file (or an endless one, `/dev/zero`) is an error naming the limit. Every command that
/// takes `--graph` reads through this.
#[cfg(feature = "cli")]
pub(crate) fn read_file(path: &Path) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    let limit = spec::MAX_FILE_BYTES;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!(
                "larger than the limit of a graph file, {limit} bytes ({} MiB)",
                limit >> 20
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::InvalidData, "not UTF-8 text"))
}

/// A checked graph: every value in range, every reference resolved, no cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    spec: GraphSpec,
}

impl Graph {
    /// Reads and checks a graph file.
    pub fn from_json(text: &str) -> Result<Graph, GraphError> {
        let spec = GraphSpec::from_json(text)?;
        check_references(&spec)?;
        Ok(Graph { spec })
    }

    internal! {
        /// The graph as parsed.
        pub fn spec(&self) -> &GraphSpec {
            &self.spec
        }
    }

    /// The graph lowered for `dims` (2 to 4) dimensions, tiling with `period` cells per axis
    /// (0: not tiled). Errors name the node that cannot be evaluated so (a 4D flow source, a
    /// rotated tile, more work per sample than the limits allow).
    pub fn program(&self, dims: usize, period: [f32; 4]) -> Result<Program, GraphError> {
        program::lower(&self.spec, dims, period)
    }
}

/// A per-axis parameter's inputs with their paths (`{path}[{axis}]`).
fn per_axis_inputs<'a>(path: &str, axes: &'a [Input]) -> Vec<(String, &'a Input)> {
    axes.iter()
        .enumerate()
        .map(|(a, input)| (format!("{path}[{a}]"), input))
        .collect()
}

/// Every name an input refers to exists, and no named node reaches itself.
fn check_references(spec: &GraphSpec) -> Result<(), GraphError> {
    fn inputs(node: &NodeSpec) -> Vec<(String, &Input)> {
        let p = |k: &str| format!("{}.{k}", node.path);
        match &node.node {
            NodeKind::Classic { .. }
            | NodeKind::Value { .. }
            | NodeKind::SuperSimplex { .. }
            | NodeKind::White { .. }
            | NodeKind::Simplex { .. }
            | NodeKind::Constant(_)
            | NodeKind::Position { .. }
            | NodeKind::Checkerboard => vec![],
            NodeKind::Sine { scale } => per_axis_inputs(&p("scale"), scale),
            NodeKind::Distance {
                point,
                driven_exponent,
                ..
            } => {
                let mut out = per_axis_inputs(&p("point"), point);
                out.extend(driven_exponent.iter().map(|e| (p("exponent"), e)));
                out
            }
            NodeKind::Linear { multiplier, offset } => {
                let mut out = per_axis_inputs(&p("multiplier"), multiplier);
                out.extend(per_axis_inputs(&p("offset"), offset));
                out
            }
            NodeKind::Fractal { source, octaves } => {
                vec![
                    (p("source"), source),
                    (p("lacunarity"), &octaves.lacunarity),
                    (p("gain"), &octaves.gain),
                    (p("weighted_strength"), &octaves.weighted_strength),
                ]
            }
            NodeKind::Scale { source, .. }
            | NodeKind::Offset { source, .. }
            | NodeKind::RotatePlane { source, .. }
            | NodeKind::SeedOffset { source, .. }
            | NodeKind::RemoveDimension { source, .. } => vec![(p("source"), source)],
            NodeKind::CellularLookup {
                source,
                frequency,
                jitter,
                driven_exponent,
                ..
            } => {
                let mut out = vec![
                    (p("source"), source),
                    (p("frequency"), frequency),
                    (p("jitter"), jitter),
                ];
                out.extend(driven_exponent.iter().map(|e| (p("exponent"), e)));
                out
            }
            NodeKind::Flow { angle, .. } => vec![(p("angle"), angle)],
            NodeKind::Cellular {
                jitter,
                driven_exponent,
                ..
            } => {
                let mut out = vec![(p("jitter"), jitter)];
                out.extend(driven_exponent.iter().map(|e| (p("exponent"), e)));
                out
            }
            NodeKind::Rotate { source, angle, .. } => {
                vec![(p("source"), source), (p("angle"), angle)]
            }
            NodeKind::AddDimension { source, position } => {
                vec![(p("source"), source), (p("position"), position)]
            }
            NodeKind::Map { source, by, .. } => {
                let mut v = vec![(p("source"), source)];
                v.extend(by.iter().map(|by| (p("strength"), by)));
                v
            }
            NodeKind::Terrace {
                source, smoothness, ..
            } => vec![(p("source"), source), (p("smoothness"), smoothness)],
            NodeKind::MovedBy { source, by, .. } => {
                let mut v = vec![(p("source"), source)];
                match by.as_slice() {
                    [all] => v.push((p("by"), all)),
                    axes => {
                        for (a, by) in axes.iter().enumerate() {
                            v.push((format!("{}[{a}]", p("by")), by));
                        }
                    }
                }
                v
            }
            NodeKind::Pow { source, exponent } => {
                vec![(p("source"), source), (p("exponent"), exponent)]
            }
            NodeKind::Clamp { source, ends } => vec![
                (p("source"), source),
                (p("min"), &ends[0]),
                (p("max"), &ends[1]),
            ],
            NodeKind::Remap {
                source, from, to, ..
            } => {
                let mut v = vec![(p("source"), source)];
                for (key, ends) in [("from", from), ("to", to)] {
                    for (a, end) in ends.iter().enumerate() {
                        v.push((format!("{}[{a}]", p(key)), end));
                    }
                }
                v
            }
            NodeKind::Warp {
                source,
                amplitude,
                frequency,
                lacunarity,
                gain,
                displacement,
                ..
            } => {
                let mut v = vec![
                    (p("source"), source),
                    (p("amplitude"), amplitude),
                    (p("frequency"), frequency),
                    (p("lacunarity"), lacunarity),
                    (p("gain"), gain),
                ];
                for (a, d) in displacement.iter().flatten().enumerate() {
                    v.push((format!("{}[{a}]", p("displacement")), d));
                }
                v
            }
            NodeKind::Binary { a, b, .. } => vec![(p("a"), a), (p("b"), b)],
            NodeKind::Smooth { a, b, k, .. } => vec![(p("a"), a), (p("b"), b), (p("k"), k)],
            NodeKind::Blend { a, b, t, .. } => vec![(p("a"), a), (p("b"), b), (p("t"), t)],
        }
    }
    /// Depth-first from `node`; `stack` holds the named nodes on the way.
    fn visit<'a>(
        spec: &'a GraphSpec,
        node: &'a NodeSpec,
        stack: &mut Vec<&'a str>,
        done: &mut HashSet<&'a str>,
    ) -> Result<(), GraphError> {
        for (path, input) in inputs(node) {
            match input {
                Input::Constant(_) => {}
                Input::Inline(inner) => visit(spec, inner, stack, done)?,
                Input::Named(name) => {
                    let Some((key, target)) = spec.nodes.get_key_value(name) else {
                        return Err(GraphError {
                            path,
                            message: format!("no node is named {}", quote_prefix(name)),
                        });
                    };
                    if let Some(start) = stack.iter().position(|n| n == name) {
                        let mut cycle = stack[start..].to_vec();
                        cycle.push(name);
                        return Err(GraphError {
                            path,
                            message: format!("a cycle: {}", cycle.join(" → ")),
                        });
                    }
                    if done.contains(key.as_str()) {
                        continue;
                    }
                    stack.push(key);
                    visit(spec, target, stack, done)?;
                    stack.pop();
                    done.insert(key);
                }
            }
        }
        Ok(())
    }
    let mut done = HashSet::new();
    for (name, node) in &spec.nodes {
        if done.contains(name.as_str()) {
            continue;
        }
        let mut stack = vec![name.as_str()];
        visit(spec, node, &mut stack, &mut done)?;
        done.insert(name);
    }
    Ok(())
}
