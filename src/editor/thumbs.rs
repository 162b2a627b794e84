//! The node view's thumbnails and costs: each node's sub-graph (the nodes it reads, with it
//! as the output), what the host is asked to fill for it, and the pictures and costs the
//! host hands back. No GPU, window or threads here: the host (the desktop preview, the page)
//! fills the sub-graphs on its own device and times them.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use super::model::{write, EditorGraph, EditorNode};
use crate::cpu::simd::{fill_graph_slab_with, FillOptions};
use crate::cpu::CpuLookup;
use crate::field::Field;
use crate::graph::nodes::{node_type, ParamKind};
use crate::graph::program::sampled_field;
use crate::graph::{Graph, GraphError, Program};
use crate::params::{FillParams, Slab};
use crate::ramp::ColourRamp;
use crate::shader::LookupVariant;

/// A thumbnail's side in texels (and in points on the node view).
pub const THUMBNAIL_SIZE: u32 = 64;
/// The side of the fill a sub-graph's GPU cost is timed on: a thumbnail's fill is too short
/// for the GPU's clock to tell it from its start-up.
pub const TIMED_SIZE: u32 = 256;
/// The values drawn at the colour ramp's ends: the nominal range of graph outputs, as the
/// hosts draw a graph's picture.
pub const RANGE: (f32, f32) = (-1.0, 1.0);
/// Thumbnails kept for sub-graphs no node shows now (an undo shows them again at once).
const KEPT: usize = 256;

/// What the main view shows that the thumbnails show too: the lookup's seed and the part
/// of the graph's space. Texel `(i, j)` of a thumbnail samples `origin + (i, j) · step` on x
/// and y, and the origin's own coordinates on the axes after y (the slice of an animated
/// 3D or 4D graph).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThumbnailView {
    pub seed: u64,
    /// Lattice cells across a thumbnail: across the main view's width.
    pub frequency: f64,
    /// The point of the main view's first pixel (top left), with its slice's z and w.
    pub origin: [f64; 4],
    /// The dimensions the sub-graphs are lowered for, 2 to 4 (the main view's).
    pub dims: usize,
}

/// What a thumbnail is a picture of: a sub-graph's JSON over the main view's region.
#[derive(Clone, Debug, PartialEq)]
pub struct ThumbnailKey {
    pub graph: String,
    pub view: ThumbnailView,
}

impl ThumbnailKey {
    /// The texel spacing: texel `(i, j)` samples `origin + (i, j) · step`.
    pub fn step(&self) -> f64 {
        self.view.frequency / f64::from(THUMBNAIL_SIZE)
    }

    /// The grid of the thumbnail's region at `side` × `side` texels: x and y from the
    /// origin, one texel at the origin's coordinate on each further axis.
    pub fn field_at(&self, side: u32) -> Field {
        let ThumbnailView {
            frequency,
            origin,
            dims,
            ..
        } = self.view;
        let size = [side, side, 1, 1];
        Field::new(&size[..dims])
            .with_frequency(&[frequency, frequency, 1.0, 1.0][..dims])
            .with_offset(&origin[..dims])
    }

    /// The grid a thumbnail samples ([`ThumbnailKey::field_at`] its size).
    pub fn field(&self) -> Field {
        self.field_at(THUMBNAIL_SIZE)
    }

    /// The sub-graph lowered for the view's dimensions.
    pub fn program(&self) -> Result<Program, GraphError> {
        Graph::from_json(&self.graph)?.program(self.view.dims, [0.0; 4])
    }

    fn id(&self) -> KeyId {
        let v = &self.view;
        let origin = v.origin.map(f64::to_bits);
        (
            self.graph.clone(),
            v.seed,
            v.frequency.to_bits(),
            origin,
            v.dims,
        )
    }
}

/// A [`ThumbnailKey`] as a hash set's item (its numbers' bits).
type KeyId = (String, u64, u64, [u64; 4], usize);

/// Which clock a cost was measured with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Timestamp queries around the sub-graph's GPU fill.
    GpuTimestamps,
    /// The host's clock around the SIMD CPU evaluator's fill of the thumbnail's texels,
    /// and why not the GPU's timestamps.
    CpuSimd(NoTimestamps),
}

/// Why a cost is not from the GPU's timestamps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoTimestamps {
    /// The adapter has no timestamp queries.
    Missing,
    /// The adapter is the CPU (lavapipe, llvmpipe, SwiftShader): its timestamps of a small
    /// fill are the host's and fall below the host's own overheads.
    CpuAdapter,
    /// The timestamps could not be true against the host's clock.
    Implausible,
}

impl NoTimestamps {
    /// Why a host's device does not time sub-graphs, or `None` where it does: it needs
    /// timestamp queries (`has_queries`) on an adapter that is not the CPU (`cpu_adapter`).
    /// Measured on lavapipe: 0.43 ns per sample for a 256² simplex fill whose 1024² fill
    /// takes 13 (`bench`), and passing the plausibility check
    /// (`gpu::timer::plausible`: its 1 ms slack is longer than the fill).
    pub fn of_device(has_queries: bool, cpu_adapter: bool) -> Option<NoTimestamps> {
        if !has_queries {
            Some(NoTimestamps::Missing)
        } else if cpu_adapter {
            Some(NoTimestamps::CpuAdapter)
        } else {
            None
        }
    }
}

impl Clock {
    /// The clock's short name, shown on the node.
    pub fn name(self) -> &'static str {
        match self {
            Clock::GpuTimestamps => "GPU timestamps",
            // wasm32 has no lane code: the scalar evaluator fills there.
            Clock::CpuSimd(_) if cfg!(target_arch = "wasm32") => "CPU",
            Clock::CpuSimd(_) => "CPU SIMD",
        }
    }

    /// Why this clock, for the tooltip and the test hook.
    pub fn why(self) -> &'static str {
        match self {
            Clock::GpuTimestamps => "the adapter's timestamp queries",
            Clock::CpuSimd(NoTimestamps::Missing) => "the adapter has no timestamp queries",
            Clock::CpuSimd(NoTimestamps::CpuAdapter) => {
                "the adapter runs on the CPU, whose timestamps of a small fill are not its cost"
            }
            Clock::CpuSimd(NoTimestamps::Implausible) => {
                "the GPU's timestamps were implausible against the host's clock"
            }
        }
    }
}

/// What one sub-graph costs to evaluate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub ns_per_sample: f64,
    pub clock: Clock,
}

/// What the host filled for a [`ThumbnailKey`]: the values (`THUMBNAIL_SIZE²`, rows from
/// the top) and their cost, or why not.
#[derive(Clone, Debug)]
pub struct Filled {
    pub values: Result<Vec<f32>, String>,
    pub cost: Option<Cost>,
}

/// One node's thumbnail.
pub struct Thumbnail {
    pub key: ThumbnailKey,
    pub filled: Filled,
    /// The values coloured with the ramp (RGBA), and the texture holding them.
    pub rgba: Vec<u8>,
    pub texture: Option<egui::TextureHandle>,
}

/// The node view's thumbnails: one per node, by name.
#[derive(Default)]
pub struct Thumbnails {
    shown: HashMap<String, Thumbnail>,
    /// Keys asked for and not yet back.
    asked: HashSet<KeyId>,
    /// Filled results by key, for sub-graphs shown again (at most [`KEPT`]).
    kept: Vec<(ThumbnailKey, Filled)>,
    /// The sub-graphs' costs by their JSON (at most [`KEPT`]).
    costs: HashMap<String, Cost>,
    ramp: ColourRamp,
}

/// A sub-graph the host is asked to fill for node `node`.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    pub node: String,
    pub key: ThumbnailKey,
    /// The sub-graph's cost measured over another region, which the host gives back
    /// instead of timing it again: the cost of a sample does not depend on where it is,
    /// and the region moves every frame while the main view is animated.
    pub cost: Option<Cost>,
}

/// `name`'s sub-graph as a graph file: the nodes it reads through wires, directly or not,
/// and itself, with `name` as the output (`None`: no such node).
pub fn sub_graph(graph: &EditorGraph, name: &str) -> Option<String> {
    graph.nodes.iter().find(|n| n.name == name)?;
    let mut read = vec![name.to_string()];
    let mut at = 0;
    while at < read.len() {
        let node = graph.nodes.iter().find(|n| n.name == read[at]);
        for from in node.map(reads).unwrap_or_default() {
            if !read.iter().any(|r| r == from) && graph.nodes.iter().any(|n| n.name == from) {
                read.push(from.to_string());
            }
        }
        at += 1;
    }
    let sub = EditorGraph {
        nodes: graph
            .nodes
            .iter()
            .filter(|n| read.contains(&n.name))
            .cloned()
            .collect(),
        output: name.to_string(),
    };
    Some(write(&sub))
}

/// Adds to `below` every node `name` reads, directly or through others, once each.
fn nodes_below<'g>(graph: &'g EditorGraph, name: &str, below: &mut Vec<&'g str>) {
    let Some(node) = graph.nodes.iter().find(|n| n.name == name) else {
        return;
    };
    for input in reads(node) {
        if !below.contains(&input) {
            below.push(input);
            nodes_below(graph, input, below);
        }
    }
}

/// The names `node`'s inputs hold: a wired input's, and those in arrays of inputs and of
/// per-axis numbers that may be nodes (which the node view shows as JSON).
fn reads(node: &EditorNode) -> Vec<&str> {
    let table = node_type(&node.type_name);
    node.params
        .iter()
        .filter(|(key, _)| {
            table.and_then(|t| t.param(key)).is_some_and(|p| {
                matches!(
                    p.kind,
                    ParamKind::Input
                        | ParamKind::Hybrid { .. }
                        | ParamKind::Inputs { .. }
                        | ParamKind::HybridPerAxis { .. }
                        | ParamKind::HybridPair { .. }
                )
            })
        })
        .flat_map(|(_, value)| match value {
            Value::String(name) => vec![name.as_str()],
            Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// The CPU timing of a sub-graph: batches of fills of at least [`CPU_BATCH_MS`] each (a
/// browser's clock ticks every 0.1 ms, longer than a small sub-graph's fill), at least
/// [`CPU_BATCHES`] of them and more until [`CPU_TIMING_MS`] have passed.
const CPU_BATCH_MS: f64 = 5.0;
const CPU_BATCHES: usize = 3;
const CPU_TIMING_MS: f64 = 60.0;
/// The most batches, and the most fills in a batch.
const CPU_RUNS_MAX: usize = 1000;

/// What `program` (`key`'s sub-graph, [`ThumbnailKey::program`]) costs per sample on the SIMD CPU
/// evaluator (the scalar evaluator where the target has no lane code: wasm32) on one
/// thread over the thumbnail's texels: the fastest batch's time per fill (the least
/// disturbed by other work on the cores), timed with `now_ms` (the host's clock in
/// milliseconds); `why` says why not the GPU's timestamps.
pub fn cpu_cost(
    program: &Program,
    key: &ThumbnailKey,
    why: NoTimestamps,
    now_ms: impl Fn() -> f64,
) -> Cost {
    let field = key.field();
    let sampled = sampled_field(program.lattice(), &field);
    let params = FillParams::new(&sampled, Slab::whole(&sampled));
    let lut = CpuLookup::new(LookupVariant::Textures, key.view.seed);
    let options = FillOptions {
        threads: 1,
        ..FillOptions::default()
    };
    let mut out = vec![0.0f32; params.len()];
    let started = now_ms();
    let mut fastest = f64::INFINITY;
    for batch in 0..CPU_RUNS_MAX {
        let start = now_ms();
        let mut fills = 0;
        while fills < CPU_RUNS_MAX && (fills == 0 || now_ms() - start < CPU_BATCH_MS) {
            fill_graph_slab_with(program, &lut, &params, &mut out, options);
            fills += 1;
        }
        fastest = fastest.min((now_ms() - start) / fills as f64);
        if batch + 1 >= CPU_BATCHES && now_ms() - started >= CPU_TIMING_MS {
            break;
        }
    }
    Cost {
        ns_per_sample: fastest * 1e6 / params.len() as f64,
        clock: Clock::CpuSimd(why),
    }
}

/// `values` drawn with `ramp`: `t = clamp((v − low) / (high − low), 0, 1)` over [`RANGE`],
/// opaque RGBA.
pub fn colour(values: &[f32], ramp: ColourRamp) -> Vec<u8> {
    let (low, high) = RANGE;
    values
        .iter()
        .flat_map(|&v| {
            let [r, g, b] = ramp.rgb8(((v - low) / (high - low)).clamp(0.0, 1.0));
            [r, g, b, 255]
        })
        .collect()
}

impl Thumbnails {
    /// The sub-graphs to fill for `graph`'s nodes over `view`: those whose
    /// thumbnail is of another sub-graph and not asked for yet (a sub-graph filled before
    /// is shown from what was kept). Thumbnails of nodes gone are dropped; `ramp` recolours
    /// the ones held.
    pub fn wanted(
        &mut self,
        ctx: &egui::Context,
        graph: &EditorGraph,
        view: ThumbnailView,
        ramp: ColourRamp,
    ) -> Vec<Job> {
        self.shown
            .retain(|name, _| graph.nodes.iter().any(|n| n.name == *name));
        if ramp != self.ramp {
            self.ramp = ramp;
            for (name, thumbnail) in &mut self.shown {
                paint(ctx, name, thumbnail, ramp);
            }
        }
        let mut jobs = Vec::new();
        for node in &graph.nodes {
            let Some(sub) = sub_graph(graph, &node.name) else {
                continue;
            };
            let key = ThumbnailKey { graph: sub, view };
            if self.shown.get(&node.name).is_some_and(|t| t.key == key) {
                continue;
            }
            if let Some((_, filled)) = self.kept.iter().find(|(k, _)| *k == key) {
                let filled = filled.clone();
                self.show(ctx, &node.name, key, filled);
                continue;
            }
            if self.asked.insert(key.id()) {
                jobs.push(Job {
                    node: node.name.clone(),
                    cost: self.costs.get(&key.graph).copied(),
                    key,
                });
            }
        }
        jobs
    }

    /// The host dropped `job` unfilled (a newer one for its node came first).
    pub fn forget(&mut self, job: &Job) {
        self.asked.remove(&job.key.id());
    }

    /// Whether some sub-graph asked for is not back yet.
    pub fn pending(&self) -> bool {
        !self.asked.is_empty()
    }

    /// The host filled `job`: its picture is shown on the node (if the node still has
    /// that sub-graph, or none yet) and kept.
    pub fn receive(&mut self, ctx: &egui::Context, job: Job, filled: Filled) {
        self.asked.remove(&job.key.id());
        if self.kept.len() == KEPT {
            self.kept.remove(0);
        }
        self.kept.push((job.key.clone(), filled.clone()));
        if let Some(cost) = filled.cost {
            if self.costs.len() == KEPT {
                self.costs.clear();
            }
            self.costs.insert(job.key.graph.clone(), cost);
        }
        self.show(ctx, &job.node, job.key, filled);
    }

    fn show(&mut self, ctx: &egui::Context, node: &str, key: ThumbnailKey, filled: Filled) {
        let mut thumbnail = Thumbnail {
            key,
            filled,
            rgba: Vec::new(),
            texture: self.shown.remove(node).and_then(|t| t.texture),
        };
        paint(ctx, node, &mut thumbnail, self.ramp);
        self.shown.insert(node.to_string(), thumbnail);
    }

    /// Node `name`'s thumbnail.
    pub fn get(&self, name: &str) -> Option<&Thumbnail> {
        self.shown.get(name)
    }

    /// Node `name`'s own cost: its sub-graph's less the own costs of every node below it,
    /// each counted once (a node read by two of its inputs is not subtracted twice), so
    /// the own costs of a sub-graph's nodes add up to its cost. `None` unless all of them
    /// are measured with one clock.
    pub fn own_cost(&self, graph: &EditorGraph, name: &str) -> Option<f64> {
        let total = self.shown.get(name).and_then(|t| t.filled.cost)?;
        let mut below = Vec::new();
        nodes_below(graph, name, &mut below);
        if below.contains(&name) {
            // A cycle (a graph being edited): no node of it has a cost of its own.
            return None;
        }
        let mut own = total.ns_per_sample;
        for node in below {
            let cost = self.shown.get(node).and_then(|t| t.filled.cost)?;
            if cost.clock.name() != total.clock.name() {
                return None;
            }
            own -= self.own_cost(graph, node)?;
        }
        Some(own)
    }

    /// The thumbnails as JSON for the hosts' test hooks: by node, the sub-graph, its view
    /// (seed, frequency, origin, dimensions), the RGBA
    /// bytes' FNV-1a hash, the cost, the own cost and the clock, or the error.
    pub fn json(&self, graph: &EditorGraph) -> Value {
        let nodes: serde_json::Map<String, Value> = self
            .shown
            .iter()
            .map(|(name, t)| {
                let cost = t.filled.cost;
                let value = json!({
                    "graph": t.key.graph,
                    "seed": t.key.view.seed.to_string(),
                    "frequency": t.key.view.frequency,
                    "origin": t.key.view.origin,
                    "dims": t.key.view.dims,
                    "rgba_fnv": format!("{:016x}", fnv1a(&t.rgba)),
                    "ns_per_sample": cost.map(|c| c.ns_per_sample),
                    "own_ns_per_sample": self.own_cost(graph, name),
                    "clock": cost.map(|c| c.clock.name()),
                    "clock_why": cost.map(|c| c.clock.why()),
                    "error": t.filled.values.as_ref().err(),
                });
                (name.clone(), value)
            })
            .collect();
        Value::Object(nodes)
    }
}

/// Colours `thumbnail`'s values with `ramp` into its texture (none for an error).
fn paint(ctx: &egui::Context, node: &str, thumbnail: &mut Thumbnail, ramp: ColourRamp) {
    let side = THUMBNAIL_SIZE as usize;
    match &thumbnail.filled.values {
        Ok(values) if values.len() == side * side => {
            thumbnail.rgba = colour(values, ramp);
            let image = egui::ColorImage::from_rgba_unmultiplied([side, side], &thumbnail.rgba);
            let options = egui::TextureOptions::NEAREST;
            match &mut thumbnail.texture {
                Some(texture) => texture.set(image, options),
                None => {
                    thumbnail.texture =
                        Some(ctx.load_texture(format!("thumbnail {node}"), image, options))
                }
            }
        }
        _ => {
            thumbnail.rgba.clear();
            thumbnail.texture = None;
        }
    }
}

/// 64-bit FNV-1a: a short fingerprint of a thumbnail's bytes for the test hooks.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
