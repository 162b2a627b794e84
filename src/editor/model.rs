//! The graph editor's model: a graph file as named nodes with places on the node view, their
//! parameters as written and their wires (an input holding a node's name), read from the
//! JSON text and written back to it, changed by [`Edit`]s that can be undone and redone. No
//! drawing, no window, no files: the node view ([`super::node_view`]) and the JSON text box
//! both go through it, on the desktop and in the browser alike.

use serde_json::{Map, Value};

use super::thumbs::THUMBNAIL_SIZE;
use crate::graph::nodes::{node_type, ParamKind, NODE_TYPES};
use crate::graph::GraphError;

/// The longest node name a graph file takes (`docs/graphs.md`).
const MAX_NAME_BYTES: usize = 64;
/// Where new columns and rows of the automatic layout go, in points: a node of up to six
/// parameters fits a row with [`GAP`] to spare.
const COLUMN_STEP: f32 = 230.0;
const ROW_STEP: f32 = 240.0;
/// The automatic layout's margin from the view's corner.
const MARGIN: f32 = 20.0;
/// The least space the automatic layout leaves between a new node's frame and any other.
const GAP: f32 = 10.0;

/// A node's frame on the node view, in points: the header, one row per parameter, the
/// thumbnail's row and a foot. The node view draws frames at this size and the layout keeps
/// them apart by it.
pub const NODE_WIDTH: f32 = 210.0;
pub const HEADER_HEIGHT: f32 = 22.0;
pub const ROW_HEIGHT: f32 = 22.0;
/// The thumbnail's row under the parameters: the picture and its margins.
pub const THUMBNAIL_ROW: f32 = THUMBNAIL_SIZE as f32 + 8.0;
const FOOT: f32 = 4.0;

/// The axes a per-axis parameter is edited along on the node view: x, y, z and w (a
/// graph of fewer dimensions reads the first ones).
pub const AXES: usize = 4;

/// The rows a parameter of `kind` takes on a node's frame: a per-axis parameter has a
/// second row with a widget and a port for each axis.
pub fn param_rows(kind: &ParamKind) -> usize {
    match kind {
        ParamKind::HybridPerAxis { .. } => 2,
        _ => 1,
    }
}

/// The size of the frame of a node of type `type_name` (an unknown type's has no parameter
/// rows).
pub fn node_size(type_name: &str) -> [f32; 2] {
    let rows: usize =
        node_type(type_name).map_or(0, |t| t.params.iter().map(|p| param_rows(&p.kind)).sum());
    [
        NODE_WIDTH,
        HEADER_HEIGHT + ROW_HEIGHT * rows as f32 + THUMBNAIL_ROW + FOOT,
    ]
}

/// One named node.
#[derive(Clone, Debug, PartialEq)]
pub struct EditorNode {
    pub name: String,
    /// Its `"type"`.
    pub type_name: String,
    /// Its parameters as written, without `"type"`; a wired input holds the name of the node
    /// it reads. A parameter left out takes the node table's default.
    pub params: Map<String, Value>,
    /// Its top-left corner on the node view, in points.
    pub place: [f32; 2],
}

/// One wire into a node: its input `param` (only axis `axis` of it, where a per-axis
/// parameter has a node for that axis alone) reads node `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wire<'a> {
    pub param: &'a str,
    pub axis: Option<usize>,
    pub from: &'a str,
}

impl EditorNode {
    /// The wires into it: each input holding a node's name, and each axis of a per-axis
    /// parameter that does.
    pub fn wires(&self) -> Vec<Wire<'_>> {
        let mut wires = Vec::new();
        for (key, value) in &self.params {
            if !is_input(&self.type_name, key) {
                continue;
            }
            match value {
                Value::String(from) => wires.push(Wire {
                    param: key,
                    axis: None,
                    from,
                }),
                Value::Array(axes) if per_axis_default(&self.type_name, key).is_some() => {
                    for (axis, value) in axes.iter().enumerate() {
                        if let Some(from) = value.as_str() {
                            wires.push(Wire {
                                param: key,
                                axis: Some(axis),
                                from,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        wires
    }
}

/// The default of parameter `key` of node type `type_name`, if it is a per-axis parameter
/// ([`ParamKind::HybridPerAxis`]).
pub fn per_axis_default(type_name: &str, key: &str) -> Option<f64> {
    match node_type(type_name)?.param(key)?.kind {
        ParamKind::HybridPerAxis { default, .. } => Some(default),
        _ => None,
    }
}

/// Axis `axis` of a per-axis parameter written as `value`: left out, `default`; one number
/// or node, that for every axis; an array, its entry (`default` past its end).
pub fn axis_value(value: Option<&Value>, axis: usize, default: f64) -> Value {
    match value {
        None => Value::from(default),
        Some(Value::Array(axes)) => axes.get(axis).cloned().unwrap_or(Value::from(default)),
        Some(v) => v.clone(),
    }
}

/// Whether parameter `key` of node type `type_name` takes a node ([`ParamKind::Input`], a
/// number that may be a node: [`ParamKind::Hybrid`], or per-axis numbers one node may give
/// for every axis: [`ParamKind::HybridPerAxis`]).
pub fn is_input(type_name: &str, key: &str) -> bool {
    node_type(type_name)
        .and_then(|t| t.param(key))
        .is_some_and(|p| {
            matches!(
                p.kind,
                ParamKind::Input | ParamKind::Hybrid { .. } | ParamKind::HybridPerAxis { .. }
            )
        })
}

/// The graph as the editor holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct EditorGraph {
    /// The nodes in the order the view lists them (new ones last).
    pub nodes: Vec<EditorNode>,
    /// The `output` node's name.
    pub output: String,
}

/// One change of the graph.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// A node of `type_name` with the table's defaults (a required number its range's
    /// value nearest 0, a required choice its first), its inputs unwired, at `place`.
    Add { type_name: String, place: [f32; 2] },
    /// The node and every wire from it (an input it fed falls back to its default, or is
    /// unwired; an axis of a per-axis parameter, to the parameter's default).
    Delete { name: String },
    /// Input `param` of node `to` reads node `from`.
    Connect {
        from: String,
        to: String,
        param: String,
    },
    /// Parameter `param` of node `node` set to `value`; `Value::Null` leaves it out (its
    /// default, or an unwired input).
    Set {
        node: String,
        param: String,
        value: Value,
    },
    /// Axis `axis` (below [`AXES`]) of per-axis parameter `param` of node `node` set to
    /// `value`, a number or a node's name (a wire into that axis alone): the parameter is
    /// written as an array of its axes up to the last one written, the others as they read
    /// before ([`axis_value`]).
    SetAxis {
        node: String,
        param: String,
        axis: usize,
        value: Value,
    },
    /// The node whose value the field is.
    SetOutput { name: String },
    /// A node moved on the view.
    Move { name: String, place: [f32; 2] },
}

/// What makes two edits in a row one step of the undo history: the frames of one slider
/// drag or of one node's move, and a run of typing in the JSON text.
#[derive(Clone, Debug, PartialEq)]
enum Run {
    Set {
        node: String,
        param: String,
    },
    SetAxis {
        node: String,
        param: String,
        axis: usize,
    },
    Move {
        name: String,
    },
    Text,
}

/// The editor's graph with its undo history.
#[derive(Clone, Debug)]
pub struct GraphModel {
    graph: EditorGraph,
    undo: Vec<EditorGraph>,
    redo: Vec<EditorGraph>,
    /// The run the last edit belongs to (the next edit of the same run merges with it).
    run: Option<Run>,
    /// Each node's JSON path in the text it was last read from (an inline node's is where it
    /// was written in place), so that an error's path names its node.
    origins: Vec<(String, String)>,
}

impl GraphModel {
    /// The model of graph file `text`.
    pub fn from_json(text: &str) -> Result<GraphModel, String> {
        let (graph, origins) = read(text, None)?;
        Ok(GraphModel {
            graph,
            undo: Vec::new(),
            redo: Vec::new(),
            run: None,
            origins,
        })
    }

    /// A model with no nodes (the editor's text is no graph's shape).
    pub fn empty() -> GraphModel {
        GraphModel {
            graph: EditorGraph {
                nodes: Vec::new(),
                output: String::new(),
            },
            undo: Vec::new(),
            redo: Vec::new(),
            run: None,
            origins: Vec::new(),
        }
    }

    /// The graph now.
    pub fn graph(&self) -> &EditorGraph {
        &self.graph
    }

    /// The node `name`.
    pub fn node(&self, name: &str) -> Option<&EditorNode> {
        self.graph.nodes.iter().find(|n| n.name == name)
    }

    /// The graph file: one line per node, the node table's parameter order.
    pub fn to_json(&self) -> String {
        write(&self.graph)
    }

    /// Reads the JSON text typed into the editor: nodes keep their places by name, new ones
    /// are laid out; one step of the undo history per run of typing. Text that is no graph
    /// file's shape (not JSON, no `nodes` object, a node without a `"type"`) leaves the model
    /// as it is and says why.
    pub fn read_text(&mut self, text: &str) -> Result<(), String> {
        self.read_edit(text, Some(Run::Text))
    }

    /// Reads a text that replaced the editor's whole (a preset, a `--graph` file's edit) as
    /// [`GraphModel::read_text`] does, as one step of the undo history of its own.
    pub fn replace_text(&mut self, text: &str) -> Result<(), String> {
        self.read_edit(text, None)
    }

    fn read_edit(&mut self, text: &str, run: Option<Run>) -> Result<(), String> {
        let (graph, origins) = read(text, Some(&self.graph))?;
        if graph != self.graph {
            self.record(run);
            self.graph = graph;
        }
        self.origins = origins;
        Ok(())
    }

    /// Applies `edit`; returns the name of the node it added, if any. An edit naming no node
    /// of the graph is refused, and changes nothing.
    pub fn apply(&mut self, edit: Edit) -> Result<Option<String>, String> {
        let missing = |name: &str| format!("no node is named {name:?}");
        let index = |g: &EditorGraph, name: &str| {
            g.nodes
                .iter()
                .position(|n| n.name == name)
                .ok_or(missing(name))
        };
        let mut graph = self.graph.clone();
        let mut added = None;
        let run = match &edit {
            Edit::Add { type_name, place } => {
                let table = node_type(type_name)
                    .ok_or_else(|| format!("no node type is named {type_name:?}"))?;
                let name = free_name(&graph, type_name);
                let mut params = Map::new();
                for p in table.params {
                    if let Some(value) = starter(&p.kind) {
                        params.insert(p.name.to_string(), value);
                    }
                }
                graph.nodes.push(EditorNode {
                    name: name.clone(),
                    type_name: type_name.clone(),
                    params,
                    place: *place,
                });
                added = Some(name);
                None
            }
            Edit::Delete { name } => {
                let i = index(&graph, name)?;
                graph.nodes.remove(i);
                for node in &mut graph.nodes {
                    let type_name = node.type_name.clone();
                    node.params.retain(|key, value| {
                        !(is_input(&type_name, key) && value.as_str() == Some(name))
                    });
                    // An axis of a per-axis parameter it fed falls back to the default.
                    for (key, value) in node.params.iter_mut() {
                        let kind = node_type(&type_name)
                            .and_then(|t| t.param(key))
                            .map(|p| p.kind);
                        if let (
                            Some(ParamKind::HybridPerAxis { default, .. }),
                            Value::Array(axes),
                        ) = (kind, value)
                        {
                            for axis in axes.iter_mut().filter(|a| a.as_str() == Some(name)) {
                                *axis = Value::from(default);
                            }
                        }
                    }
                }
                None
            }
            Edit::Connect { from, to, param } => {
                index(&graph, from)?;
                let i = index(&graph, to)?;
                let node = &mut graph.nodes[i];
                if !is_input(&node.type_name, param) {
                    return Err(format!("{to}.{param} is not an input"));
                }
                node.params
                    .insert(param.clone(), Value::String(from.clone()));
                None
            }
            Edit::Set { node, param, value } => {
                let i = index(&graph, node)?;
                let params = &mut graph.nodes[i].params;
                match value {
                    Value::Null => params.remove(param),
                    v => params.insert(param.clone(), v.clone()),
                };
                Some(Run::Set {
                    node: node.clone(),
                    param: param.clone(),
                })
            }
            Edit::SetAxis {
                node,
                param,
                axis,
                value,
            } => {
                if let Some(from) = value.as_str() {
                    index(&graph, from)?;
                }
                let i = index(&graph, node)?;
                let n = &mut graph.nodes[i];
                let default = per_axis_default(&n.type_name, param)
                    .ok_or_else(|| format!("{node}.{param} is not a per-axis parameter"))?;
                if *axis >= AXES {
                    return Err(format!("{node}.{param} has no axis {axis}"));
                }
                if !(value.is_number() || value.is_string()) {
                    return Err(format!(
                        "axis {axis} of {node}.{param} takes a number or a node, not {value}"
                    ));
                }
                let now = n.params.get(param);
                let len = match now {
                    Some(Value::Array(axes)) => axes.len().max(axis + 1),
                    _ => AXES,
                };
                let axes = (0..len)
                    .map(|a| match a == *axis {
                        true => value.clone(),
                        false => axis_value(now, a, default),
                    })
                    .collect();
                n.params.insert(param.clone(), Value::Array(axes));
                Some(Run::SetAxis {
                    node: node.clone(),
                    param: param.clone(),
                    axis: *axis,
                })
            }
            Edit::SetOutput { name } => {
                index(&graph, name)?;
                graph.output = name.clone();
                None
            }
            Edit::Move { name, place } => {
                let i = index(&graph, name)?;
                graph.nodes[i].place = *place;
                Some(Run::Move { name: name.clone() })
            }
        };
        if graph != self.graph {
            self.record(run);
            self.graph = graph;
            self.origins = named_origins(&self.graph);
        }
        Ok(added)
    }

    /// Keeps the graph before an edit for [`GraphModel::undo`], unless the edit continues
    /// the last one's run.
    fn record(&mut self, run: Option<Run>) {
        if run.is_none() || run != self.run {
            self.undo.push(self.graph.clone());
        }
        self.redo.clear();
        self.run = run;
    }

    /// Returns to the graph before the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(before) = self.undo.pop() else {
            return false;
        };
        self.redo.push(std::mem::replace(&mut self.graph, before));
        self.origins = named_origins(&self.graph);
        self.run = None;
        true
    }

    /// Makes the last undone edit again; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(after) = self.redo.pop() else {
            return false;
        };
        self.undo.push(std::mem::replace(&mut self.graph, after));
        self.origins = named_origins(&self.graph);
        self.run = None;
        true
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The node `error` is about: the one whose JSON path (an inline node's: where it was
    /// written) is the longest start of the error's path; `None` for the file as a whole.
    pub fn node_at_fault(&self, error: &GraphError) -> Option<&str> {
        let within = |path: &str| {
            error.path.strip_prefix(path).is_some_and(|rest| {
                rest.is_empty() || rest.starts_with('.') || rest.starts_with('[')
            })
        };
        self.origins
            .iter()
            .filter(|(_, path)| within(path))
            .max_by_key(|(_, path)| path.len())
            .map(|(name, _)| name.as_str())
    }
}

/// The value a new node's parameter is written with: `None` for one left to its default
/// (or an input left unwired, or points, which have no neutral value).
fn starter(kind: &ParamKind) -> Option<Value> {
    match *kind {
        ParamKind::Number {
            lo,
            hi,
            default: None,
        }
        | ParamKind::Hybrid {
            lo,
            hi,
            default: None,
        } => Some(Value::from(0f64.clamp(lo, hi))),
        ParamKind::Choice {
            names,
            default: None,
        } => Some(Value::from(names[0])),
        _ => None,
    }
}

/// `base` if no node has that name, else `base-2`, `base-3`, …
fn free_name(graph: &EditorGraph, base: &str) -> String {
    let taken = |name: &str| graph.nodes.iter().any(|n| n.name == name);
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|i| format!("{base}-{i}"))
        .find(|name| !taken(name))
        .expect("a free name")
}

/// Each node's path in a text written from the graph.
fn named_origins(graph: &EditorGraph) -> Vec<(String, String)> {
    graph
        .nodes
        .iter()
        .map(|n| (n.name.clone(), format!("nodes.{}", n.name)))
        .collect()
}

/// The graph of `text` and each node's path in it; nodes written in place become named
/// nodes (`parent.param`). Places are kept from `before` by name; new nodes are laid out in
/// columns by their distance from the output (the output rightmost).
fn read(
    text: &str,
    before: Option<&EditorGraph>,
) -> Result<(EditorGraph, Vec<(String, String)>), String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let file = value.as_object().ok_or("the graph is not a JSON object")?;
    let output = match file.get("output") {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let nodes = file
        .get("nodes")
        .and_then(Value::as_object)
        .ok_or("the graph has no \"nodes\" object")?;
    let mut graph = EditorGraph {
        nodes: Vec::new(),
        output,
    };
    let mut origins = Vec::new();
    for (name, node) in nodes {
        let path = format!("nodes.{name}");
        let node = editor_node(name, node, &path)?;
        graph.nodes.push(node);
        origins.push((name.clone(), path));
    }
    // Nodes written in place, outermost first: each becomes a named node and its input
    // holds the name.
    let mut i = 0;
    while i < graph.nodes.len() {
        let type_name = graph.nodes[i].type_name.clone();
        let keys: Vec<String> = graph.nodes[i].params.keys().cloned().collect();
        for key in keys {
            if !is_input(&type_name, &key) || !graph.nodes[i].params[&key].is_object() {
                continue;
            }
            let parent = &graph.nodes[i].name;
            let path = format!("{}.{key}", origins[i].1);
            let mut name = format!("{parent}.{key}");
            if name.len() > MAX_NAME_BYTES {
                name = type_name.clone();
            }
            let name = free_name(&graph, &name);
            let node = editor_node(&name, &graph.nodes[i].params[&key], &path)?;
            graph.nodes[i]
                .params
                .insert(key, Value::String(name.clone()));
            graph.nodes.push(node);
            origins.push((name, path));
        }
        i += 1;
    }
    // The order of `before` for the nodes it has, then by name (a JSON object's order is
    // not kept), so that text written and read again is written the same.
    let rank = |name: &str| {
        before
            .and_then(|b| b.nodes.iter().position(|n| n.name == name))
            .unwrap_or(usize::MAX)
    };
    graph
        .nodes
        .sort_by(|a, b| (rank(&a.name), &a.name).cmp(&(rank(&b.name), &b.name)));
    lay_out(&mut graph, before);
    Ok((graph, origins))
}

/// The node `name` from its JSON object at `path`.
fn editor_node(name: &str, node: &Value, path: &str) -> Result<EditorNode, String> {
    let object = node
        .as_object()
        .ok_or_else(|| format!("{path}: a node is a JSON object"))?;
    let type_name = object
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{path}: a node has a \"type\""))?;
    let mut params = object.clone();
    params.remove("type");
    Ok(EditorNode {
        name: name.to_string(),
        type_name: type_name.to_string(),
        params,
        place: [f32::NAN; 2],
    })
}

/// Places the nodes without one (`NaN`): kept from `before` by name, or in columns by their
/// longest distance from the output node (the output rightmost, a node nothing reads in
/// the leftmost column), rows in list order. A new node goes to its row's place on a fixed
/// grid unless its frame would come within [`GAP`] of a frame placed before it (a kept
/// node, wherever it is, or a taller node above it in the column): then to the first place
/// lower in its column that is that far from every frame. Graphs whose nodes fit the grid
/// keep the grid's places.
fn lay_out(graph: &mut EditorGraph, before: Option<&EditorGraph>) {
    for node in &mut graph.nodes {
        if let Some(old) = before.and_then(|b| b.nodes.iter().find(|n| n.name == node.name)) {
            node.place = old.place;
        }
    }
    if graph.nodes.iter().all(|n| !n.place[0].is_nan()) {
        return;
    }
    let n = graph.nodes.len();
    let index = |name: &str| graph.nodes.iter().position(|n| n.name == name);
    // Longest distance from the output along wires (Bellman-Ford style, bounded by n
    // rounds so a cycle ends it).
    let mut depth: Vec<Option<usize>> = vec![None; n];
    if let Some(o) = index(&graph.output) {
        depth[o] = Some(0);
    }
    for _ in 0..n {
        let mut changed = false;
        for (i, node) in graph.nodes.iter().enumerate() {
            let Some(d) = depth[i] else { continue };
            for wire in node.wires() {
                if let Some(j) = index(wire.from) {
                    if depth[j].is_none_or(|e| e < d + 1) && d + 1 < n {
                        depth[j] = Some(d + 1);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let deepest = depth.iter().flatten().max().copied().unwrap_or(0);
    // The leftmost column holds the nodes nothing reads, if there are any.
    let unread = usize::from(depth.iter().any(Option::is_none));
    let mut rows = vec![0usize; deepest + 2];
    // Below the last new node of each column, so that a column's new nodes keep list order.
    let mut lowest = vec![f32::NEG_INFINITY; deepest + 2];
    // The frames placed so far (min and max corners): the kept nodes' (a new node's is
    // NaN), then each new one's.
    let mut taken: Vec<[f32; 4]> = graph
        .nodes
        .iter()
        .map(frame)
        .filter(|f| f.iter().all(|v| v.is_finite()))
        .collect();
    for (i, node) in graph.nodes.iter_mut().enumerate() {
        let column = depth[i].map_or(0, |d| deepest + unread - d);
        let row = rows[column];
        rows[column] += 1;
        if node.place[0].is_nan() {
            let [width, height] = node_size(&node.type_name);
            let x = MARGIN + column as f32 * COLUMN_STEP;
            let mut y = (MARGIN + row as f32 * ROW_STEP).max(lowest[column]);
            // Each step clears every frame in the way and never meets it again, so the
            // search ends within as many steps as there are frames.
            for _ in 0..=taken.len() {
                let below = taken
                    .iter()
                    .filter(|f| {
                        x < f[2] + GAP
                            && f[0] - GAP < x + width
                            && y < f[3] + GAP
                            && f[1] - GAP < y + height
                    })
                    .map(|f| f[3] + GAP)
                    .fold(f32::NEG_INFINITY, f32::max);
                if below == f32::NEG_INFINITY {
                    break;
                }
                y = below;
            }
            node.place = [x, y];
            lowest[column] = y + height + GAP;
            taken.push(frame(node));
        }
    }
}

/// The frame of `node` on the node view: its min and max corners.
fn frame(node: &EditorNode) -> [f32; 4] {
    let [x, y] = node.place;
    let [width, height] = node_size(&node.type_name);
    [x, y, x + width, y + height]
}

/// The graph file of `graph`: `version`, `output`, then one line per node with `"type"`
/// first and its parameters in the node table's order (others after, as written).
pub(super) fn write(graph: &EditorGraph) -> String {
    let quote = |s: &str| Value::from(s).to_string();
    let mut lines = Vec::new();
    for node in &graph.nodes {
        let mut fields = vec![format!("\"type\": {}", quote(&node.type_name))];
        let order: Vec<&str> = node_type(&node.type_name)
            .map(|t| t.params.iter().map(|p| p.name).collect())
            .unwrap_or_default();
        let mut keys: Vec<&String> = node.params.keys().collect();
        keys.sort_by_key(|k| order.iter().position(|o| o == k).unwrap_or(usize::MAX));
        for key in keys {
            fields.push(format!("{}: {}", quote(key), node.params[key]));
        }
        lines.push(format!(
            "    {}: {{ {} }}",
            quote(&node.name),
            fields.join(", ")
        ));
    }
    format!(
        "{{\n  \"version\": 1,\n  \"output\": {},\n  \"nodes\": {{\n{}\n  }}\n}}\n",
        quote(&graph.output),
        lines.join(",\n")
    )
}

/// Every node type's name, in the node table's order (the node view's add menu).
pub fn type_names() -> impl Iterator<Item = &'static str> {
    NODE_TYPES.iter().map(|t| t.name)
}
