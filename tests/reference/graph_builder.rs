//! Graphs built in Rust (`graph::Node`) are the graph files they spell, read by the same
//! reader; `Graph::sampler` evaluates them at points as the CPU evaluators do.

use serde_json::json;
use wgpu_noise::graph::{eval, Graph, Node};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::LookupVariant;

/// The graph of one node object, from its JSON.
fn from_json(node: serde_json::Value) -> Graph {
    let text = json!({ "version": 1, "output": "out", "nodes": { "out": node } }).to_string();
    Graph::from_json(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn each_builder_writes_the_node_a_file_would() {
    let s = || json!({ "type": "simplex" });
    let c = || json!({ "type": "classic" });
    let cases: Vec<(Node, serde_json::Value)> = vec![
        (Node::classic(), c()),
        (
            Node::cellular().with("output", "f2-f1"),
            json!({ "type": "cellular", "output": "f2-f1" }),
        ),
        (Node::flow(0.5), json!({ "type": "flow", "angle": 0.5 })),
        (
            Node::constant(2.0),
            json!({ "type": "constant", "value": 2.0 }),
        ),
        (
            Node::position(2),
            json!({ "type": "position", "axis": "z" }),
        ),
        (
            Node::simplex().fbm().with("octaves", 5),
            json!({ "type": "fbm", "source": s(), "octaves": 5 }),
        ),
        (
            Node::simplex().ridged(),
            json!({ "type": "ridged", "source": s() }),
        ),
        (
            Node::simplex().turbulence(),
            json!({ "type": "turbulence", "source": s() }),
        ),
        (
            Node::simplex().scale(4.0),
            json!({ "type": "scale", "source": s(), "by": 4.0 }),
        ),
        (
            Node::simplex().with("seed", 3).offset(1.5),
            json!({ "type": "offset", "source": { "type": "simplex", "seed": 3 }, "by": 1.5 }),
        ),
        (
            Node::simplex().rotate(0.3),
            json!({ "type": "rotate", "source": s(), "angle": 0.3 }),
        ),
        (
            Node::simplex().warp(0.4),
            json!({ "type": "warp", "source": s(), "amplitude": 0.4 }),
        ),
        (
            Node::simplex().seed(2),
            json!({ "type": "seed", "source": s(), "offset": 2 }),
        ),
        (
            Node::simplex().abs(),
            json!({ "type": "abs", "source": s() }),
        ),
        (
            Node::simplex().clamp(-0.5, 0.5),
            json!({ "type": "clamp", "source": s(), "min": -0.5, "max": 0.5 }),
        ),
        (
            Node::simplex().remap([-1.0, 1.0], [0.0, 2.0]),
            json!({ "type": "remap", "source": s(), "from": [-1.0, 1.0], "to": [0.0, 2.0] }),
        ),
        (
            Node::simplex().pow(2.0),
            json!({ "type": "pow", "source": s(), "exponent": 2.0 }),
        ),
        (
            Node::simplex().terrace(6),
            json!({ "type": "terrace", "source": s(), "steps": 6 }),
        ),
        (
            Node::simplex().ping_pong(2.0),
            json!({ "type": "ping-pong", "source": s(), "strength": 2.0 }),
        ),
        (
            Node::simplex().min(Node::classic()),
            json!({ "type": "min", "a": s(), "b": c() }),
        ),
        (
            Node::simplex().max(0.5),
            json!({ "type": "max", "a": s(), "b": { "type": "constant", "value": 0.5 } }),
        ),
        (
            Node::simplex().smooth_min(Node::classic(), 0.2),
            json!({ "type": "smooth-min", "a": s(), "b": c(), "k": 0.2 }),
        ),
        (
            Node::simplex().smooth_max(Node::classic(), 0.2),
            json!({ "type": "smooth-max", "a": s(), "b": c(), "k": 0.2 }),
        ),
        (
            Node::simplex().modulus(0.5),
            json!({ "type": "modulus", "a": s(), "b": { "type": "constant", "value": 0.5 } }),
        ),
        (
            Node::simplex().blend(Node::classic(), Node::cellular()),
            json!({ "type": "blend", "a": s(), "b": c(), "t": { "type": "cellular" } }),
        ),
        (
            Node::simplex() + Node::classic(),
            json!({ "type": "add", "a": s(), "b": c() }),
        ),
        (
            Node::simplex() - 1.0,
            json!({ "type": "subtract", "a": s(), "b": { "type": "constant", "value": 1.0 } }),
        ),
        (
            2.0 * Node::simplex(),
            json!({ "type": "multiply", "a": { "type": "constant", "value": 2.0 }, "b": s() }),
        ),
        (
            Node::simplex() / Node::classic(),
            json!({ "type": "divide", "a": s(), "b": c() }),
        ),
        (
            -Node::simplex(),
            json!({ "type": "multiply", "a": s(), "b": { "type": "constant", "value": -1.0 } }),
        ),
    ];
    for (built, file) in cases {
        let graph = Graph::from_node(&built).unwrap_or_else(|e| panic!("{built:?}: {e}"));
        assert_eq!(graph, from_json(file.clone()), "{file}");
        assert_eq!(built.into_json(), file);
    }
}

#[test]
fn a_built_graph_is_checked_as_a_file_is() {
    let cases = [
        (
            Node::simplex().fbm().with("octaves", 40),
            "nodes.out.octaves: 40 is out of range (1 to 16)",
        ),
        (
            Node::simplex().with("sead", 1),
            "nodes.out.sead: unknown parameter of a \"simplex\" node",
        ),
        (
            Node::position(7),
            "nodes.out.axis: \"7\" is not one of x, y, z, w",
        ),
        (
            Node::of_type("perlin"),
            "nodes.out.type: unknown node type \"perlin\" (docs/graphs.md lists them)",
        ),
        (
            Node::simplex() * 1e31,
            "nodes.out.b.value: 1e31 is out of range (-1e30 to 1e30)",
        ),
    ];
    for (node, message) in cases {
        assert_eq!(Graph::from_node(&node).unwrap_err().to_string(), message);
    }
}

#[test]
fn a_sampler_gives_the_evaluators_values_and_gradients() {
    let node = (Node::simplex().fbm().with("octaves", 4) * 0.7 + Node::classic().scale(3.0)).abs();
    let graph = Graph::from_node(&node).unwrap();
    for dims in 2..=4 {
        let program = graph.program(dims, [0.0; 4]).unwrap();
        let lut = PermutationTables::new(7);
        let mut sampler = graph.sampler(dims, 7).unwrap();
        for i in 0..20 {
            let p = [0.37 * i as f32, 1.3 - 0.11 * i as f32, 2.5, -0.7];
            let v = eval::value(&program, &lut, p, &mut Vec::new());
            assert_eq!(
                sampler.value(&p[..dims]).to_bits(),
                v.to_bits(),
                "{dims}D at {p:?}"
            );
            let g = eval::value_and_gradient(&program, &lut, p, &mut Vec::new());
            assert_eq!(sampler.value_and_gradient(&p[..dims]), g);
            let p64 = p.map(f64::from);
            let v64 = eval::value(&program, &lut, p64, &mut Vec::new());
            assert_eq!(sampler.value_f64(&p64[..dims]), v64);
            // f32 against f64: up to 5.1e-5 measured here (4D: the reference kernel's
            // tiny jumps at simplex faces fall on either side in f32 and f64).
            assert!((v64 - v as f64).abs() < 1e-3, "{dims}D: f32 {v} f64 {v64}");
        }
    }
}

#[test]
fn a_sampler_takes_any_point_length_and_refuses_other_dimensions() {
    let graph = Graph::from_node(&Node::simplex()).unwrap();
    let mut sampler = graph.sampler(3, 0).unwrap();
    // Missing coordinates are 0; those past the graph's dimensions are ignored.
    assert_eq!(sampler.value(&[0.3]), sampler.value(&[0.3, 0.0, 0.0]));
    assert_eq!(
        sampler.value(&[0.3, 0.4, 0.5, 9.0]),
        sampler.value(&[0.3, 0.4, 0.5])
    );
    assert!(sampler.value(&[]).is_finite());
    for dims in [0, 1, 5] {
        assert!(graph.sampler(dims, 0).is_err(), "{dims}D");
    }
    // The hash lookup gives another pattern of the same noise.
    let mut hash = graph.sampler_with(3, LookupVariant::Hash, 0).unwrap();
    assert_ne!(
        hash.value(&[0.3, 0.4, 0.5]),
        sampler.value(&[0.3, 0.4, 0.5])
    );
}
