//! Graphs built in Rust: [`Node`] writes the same tree a graph file holds, and
//! [`Graph::from_node`] reads it with the file's reader, so a built graph has the ranges,
//! defaults and messages of `docs/graphs.md` (its JSON paths start at `nodes.out`).
//!
//! ```
//! use wgpu_noise::graph::{Graph, Node};
//!
//! let hills = Node::simplex().fbm().with("octaves", 5);
//! let cells = Node::cellular().with("output", "f2-f1");
//! let graph = Graph::from_node(&(hills * 0.7 + cells.scale(2.0) * 0.3)).unwrap();
//! let mut sampler = graph.sampler(3, 7).unwrap();
//! assert!(sampler.value(&[0.5, 1.25, 2.0]).abs() < 2.0);
//!
//! // A parameter out of its range is an error naming its path, as in a file.
//! let e = Graph::from_node(&Node::simplex().fbm().with("octaves", 40)).unwrap_err();
//! assert_eq!(e.to_string(), "nodes.out.octaves: 40 is out of range (1 to 16)");
//! ```

use std::ops::{Add, Div, Mul, Neg, Sub};

use serde_json::{Map, Value};

use super::{Graph, GraphError};

/// A node of a graph built in Rust, with its inputs: the object a graph file holds for it.
/// Node types and parameters are those of the node table (`graph::nodes::NODE_TYPES`,
/// `docs/graphs.md`); [`Graph::from_node`] checks them.
///
/// Numbers combine with `+`, `-`, `*`, `/` (and `f64` constants): `a * 0.5 + b`.
#[derive(Clone, Debug, PartialEq)]
pub struct Node(Map<String, Value>);

impl Node {
    /// A node of type `name` with no parameters yet (any type of the node table).
    pub fn of_type(name: &str) -> Node {
        let mut map = Map::new();
        map.insert("type".into(), Value::from(name));
        Node(map)
    }

    /// This node with the parameter `key` set to `value` (a number, a choice's name, an
    /// array of numbers). A key or value the node's type does not take is an error of
    /// [`Graph::from_node`].
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Node {
        self.0.insert(key.into(), value.into());
        self
    }

    /// This node with the input `key` set to `node`.
    pub fn with_input(mut self, key: &str, node: impl Into<Node>) -> Node {
        self.0.insert(key.into(), node.into().into_json());
        self
    }

    /// The node as a graph file writes it.
    pub fn into_json(self) -> Value {
        Value::Object(self.0)
    }

    /// A graph file whose output is this node.
    pub fn to_graph_json(&self) -> String {
        let mut nodes = Map::new();
        nodes.insert("out".into(), Value::Object(self.0.clone()));
        let mut file = Map::new();
        file.insert("version".into(), Value::from(super::spec::FORMAT_VERSION));
        file.insert("output".into(), Value::from("out"));
        file.insert("nodes".into(), Value::Object(nodes));
        Value::Object(file).to_string()
    }

    fn over(self, name: &str) -> Node {
        Node::of_type(name).with_input("source", self)
    }

    fn pair(name: &str, a: Node, b: impl Into<Node>) -> Node {
        Node::of_type(name).with_input("a", a).with_input("b", b)
    }

    /// Classic Perlin noise.
    pub fn classic() -> Node {
        Node::of_type("classic")
    }

    /// Value noise.
    pub fn value() -> Node {
        Node::of_type("value")
    }

    /// OpenSimplex2S ("SuperSimplex") noise, 2D to 4D.
    pub fn supersimplex() -> Node {
        Node::of_type("supersimplex")
    }

    /// White noise: one value per unit cell.
    pub fn white() -> Node {
        Node::of_type("white")
    }

    /// Simplex noise.
    pub fn simplex() -> Node {
        Node::of_type("simplex")
    }

    /// Cellular (Worley) noise: F1 with Euclidean distances unless `output` and `distance`
    /// say otherwise.
    pub fn cellular() -> Node {
        Node::of_type("cellular")
    }

    /// Flow noise, its gradients turned by `angle` radians.
    pub fn flow(angle: f64) -> Node {
        Node::of_type("flow").with("angle", angle)
    }

    /// A constant.
    pub fn constant(value: f64) -> Node {
        Node::of_type("constant").with("value", value)
    }

    /// Coordinate `axis` (0 to 3: x, y, z, w) of the point.
    pub fn position(axis: usize) -> Node {
        let name = ["x", "y", "z", "w"].get(axis).copied();
        Node::of_type("position").with("axis", name.map_or(format!("{axis}"), String::from))
    }

    /// The Euclidean distance to the origin, unless `point` and `metric` say otherwise.
    pub fn distance() -> Node {
        Node::of_type("distance")
    }

    /// `Σ (p + offset) × multiplier` over the axes: `x + y (+ z + w)` unless `multiplier`
    /// and `offset` say otherwise.
    pub fn linear() -> Node {
        Node::of_type("linear")
    }

    /// 1 and -1 in alternate unit cells.
    pub fn checkerboard() -> Node {
        Node::of_type("checkerboard")
    }

    /// fBm of this node (3 octaves unless `octaves` says otherwise).
    pub fn fbm(self) -> Node {
        self.over("fbm")
    }

    /// Ridged multifractal of this node.
    pub fn ridged(self) -> Node {
        self.over("ridged")
    }

    /// Turbulence of this node.
    pub fn turbulence(self) -> Node {
        self.over("turbulence")
    }

    /// This node at the point times `by` (per axis: `with("by", [x, y, …])`).
    pub fn scale(self, by: f64) -> Node {
        self.over("scale").with("by", by)
    }

    /// This node at the point plus `by`.
    pub fn offset(self, by: f64) -> Node {
        self.over("offset").with("by", by)
    }

    /// This node at the point turned by `angle` radians in the xy plane (`plane` for others).
    pub fn rotate(self, angle: f64) -> Node {
        self.over("rotate").with("angle", angle)
    }

    /// This node at the point warped by `amplitude` times a vector of noise.
    pub fn warp(self, amplitude: f64) -> Node {
        self.over("warp").with("amplitude", amplitude)
    }

    /// This node with every noise source under it adding `offset` to its seed.
    pub fn seed(self, offset: i64) -> Node {
        self.over("seed").with("offset", offset)
    }

    /// `|v|`.
    pub fn abs(self) -> Node {
        self.over("abs")
    }

    /// Clamped to `[min, max]`.
    pub fn clamp(self, min: f64, max: f64) -> Node {
        self.over("clamp").with("min", min).with("max", max)
    }

    /// `from` mapped linearly onto `to`.
    pub fn remap(self, from: [f64; 2], to: [f64; 2]) -> Node {
        self.over("remap")
            .with("from", from.to_vec())
            .with("to", to.to_vec())
    }

    /// `sign(v) |v|^exponent`.
    pub fn pow(self, exponent: f64) -> Node {
        self.over("pow").with("exponent", exponent)
    }

    /// `steps` terraces per unit.
    pub fn terrace(self, steps: u32) -> Node {
        self.over("terrace").with("steps", steps)
    }

    /// A triangle wave of `v × strength`.
    pub fn ping_pong(self, strength: f64) -> Node {
        self.over("ping-pong").with("strength", strength)
    }

    /// The smaller of this node and `b`.
    pub fn min(self, b: impl Into<Node>) -> Node {
        Node::pair("min", self, b)
    }

    /// The larger of this node and `b`.
    pub fn max(self, b: impl Into<Node>) -> Node {
        Node::pair("max", self, b)
    }

    /// Polynomial smooth minimum of blend width `k`.
    pub fn smooth_min(self, b: impl Into<Node>, k: f64) -> Node {
        Node::pair("smooth-min", self, b).with("k", k)
    }

    /// Polynomial smooth maximum of blend width `k`.
    pub fn smooth_max(self, b: impl Into<Node>, k: f64) -> Node {
        Node::pair("smooth-max", self, b).with("k", k)
    }

    /// The floored remainder of this node by `b` (GLSL's `mod`).
    pub fn modulus(self, b: impl Into<Node>) -> Node {
        Node::pair("modulus", self, b)
    }

    /// This node to `b` as `t` goes from -1 to 1.
    pub fn blend(self, b: impl Into<Node>, t: impl Into<Node>) -> Node {
        Node::pair("blend", self, b).with_input("t", t)
    }
}

impl From<f64> for Node {
    fn from(value: f64) -> Node {
        Node::constant(value)
    }
}

macro_rules! binary_operator {
    ($trait:ident, $method:ident, $name:literal) => {
        impl<B: Into<Node>> $trait<B> for Node {
            type Output = Node;
            fn $method(self, b: B) -> Node {
                Node::pair($name, self, b)
            }
        }
        impl $trait<Node> for f64 {
            type Output = Node;
            fn $method(self, b: Node) -> Node {
                Node::pair($name, Node::constant(self), b)
            }
        }
    };
}

binary_operator!(Add, add, "add");
binary_operator!(Sub, sub, "subtract");
binary_operator!(Mul, mul, "multiply");
binary_operator!(Div, div, "divide");

impl Neg for Node {
    type Output = Node;
    fn neg(self) -> Node {
        Node::pair("multiply", self, -1.0)
    }
}

impl Graph {
    /// The graph whose output is `node`, checked as a graph file is.
    pub fn from_node(node: &Node) -> Result<Graph, GraphError> {
        Graph::from_json(&node.to_graph_json())
    }
}
