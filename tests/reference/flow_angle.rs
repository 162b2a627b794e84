//! A flow node whose `angle` is a node (docs/graphs.md, `flow`): per sample the node's value,
//! clamped to ±1e4, is the angle. Its values against the flow graph of that angle as a
//! number; a constant node against the number; the gradient's angle term against central
//! differences along the angle itself; the fields it is refused in.

use crate::cellular_metrics::points;
use crate::common::graphs::Rng;
use wgpu_noise::graph::{eval, Graph, Node, Sampler};
use wgpu_noise::tables::PermutationTables;

/// A flow node (2D or 3D: `kernel`) whose angle is `angle`, a node.
fn driven(kernel: &str, angle: Node) -> Node {
    Node::of_type("flow")
        .with("kernel", kernel)
        .with("seed", 2)
        .with_input("angle", angle)
}

/// The sampler of `node` in `dims` dimensions (seed 5).
fn sampler(node: &Node, dims: usize) -> Sampler {
    Graph::from_node(node).unwrap().sampler(dims, 5).unwrap()
}

/// The flow graph with the angle `angle`, a number.
fn at_angle(kernel: &str, angle: f64, dims: usize) -> Sampler {
    let node = Node::of_type("flow")
        .with("kernel", kernel)
        .with("seed", 2)
        .with("angle", angle);
    sampler(&node, dims)
}

/// Per sample, the angle is the node's value there (the point's x): the values of the
/// number's graph at that angle, bit for bit in f32 and f64, 2D and 3D, both kernels.
#[test]
fn a_driven_angle_is_the_numbers_angle_at_each_sample() {
    let mut rng = Rng::new(81);
    let mut checked = 0;
    for dims in 2..=3 {
        for kernel in ["reference", "continuous"] {
            let mut s = sampler(&driven(kernel, Node::position(0)), dims);
            for p in points(&mut rng, dims, 20.0, 60) {
                let mut fixed = at_angle(kernel, p[0], dims);
                assert_eq!(
                    s.value_f64(&p).to_bits(),
                    fixed.value_f64(&p).to_bits(),
                    "f64 {dims}D {kernel} at {p:?}"
                );
                let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                assert_eq!(
                    s.value(&p32).to_bits(),
                    fixed.value(&p32).to_bits(),
                    "f32 {dims}D {kernel} at {p:?}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 240);
}

/// A `constant` node as the angle is the number: the same f32 values and gradients.
#[test]
fn a_constant_angle_node_is_the_number() {
    let mut rng = Rng::new(82);
    for dims in 2..=3 {
        for kernel in ["reference", "continuous"] {
            let angle = rng.range(-6.0, 6.0) as f32 as f64;
            let mut a = at_angle(kernel, angle, dims);
            let mut b = sampler(&driven(kernel, Node::constant(angle)), dims);
            for p in points(&mut rng, dims, 30.0, 100) {
                let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                let (x, y) = (a.value_and_gradient(&p32), b.value_and_gradient(&p32));
                assert_eq!(x, y, "{dims}D {kernel} angle {angle} at {p32:?}");
            }
        }
    }
}

/// ∂/∂x of `node` at `p` by the f64 evaluator's gradient (seed 5).
fn slope_f64(node: &Node, dims: usize, p: &[f64]) -> f64 {
    let program = Graph::from_node(node)
        .unwrap()
        .program(dims, [0.0; 4])
        .unwrap();
    let mut q = [0.0; 4];
    q[..dims].copy_from_slice(p);
    let lut = PermutationTables::new(5);
    eval::value_and_gradient::<f64>(&program, &lut, q, &mut Vec::new())[1]
}

/// The angle's own term of the gradient: with the angle the point's x, the driven graph's
/// ∂/∂x less the fixed-angle graph's is ∂N/∂θ, which central differences along the angle
/// (two fixed-angle graphs, f64, steps 2⁻¹⁰ and 2⁻¹¹: exact in f32) give; smooth in the
/// angle everywhere, so no point is skipped. The f64 term within 1e-7 (3.6e-8 measured, the
/// central differences' own error); the f32 term within 2e-4: it is `B cos θ − A sin θ` of
/// two f32 noise values, and those are only as close to f64 as f32 noise is (1.2e-4 off at
/// (2.86, −3.76, 10.81), 3D continuous kernel, measured).
#[test]
fn the_gradient_carries_the_angles_slope() {
    let mut rng = Rng::new(83);
    let (mut checked, mut worst, mut worst32, mut largest) = (0, 0.0f64, 0.0f64, 0.0f64);
    for dims in 2..=3 {
        for kernel in ["reference", "continuous"] {
            let node = driven(kernel, Node::position(0));
            let mut s = sampler(&node, dims);
            for p in points(&mut rng, dims, 12.0, 60) {
                let x = p[0];
                let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                let driven_slope = s.value_and_gradient(&p32)[1] as f64;
                let got32 =
                    driven_slope - at_angle(kernel, x, dims).value_and_gradient(&p32)[1] as f64;
                let fixed = Node::of_type("flow")
                    .with("kernel", kernel)
                    .with("seed", 2)
                    .with("angle", x);
                let got = slope_f64(&node, dims, &p) - slope_f64(&fixed, dims, &p);
                let along = |h: f64| {
                    let f = |a: f64| at_angle(kernel, a, dims).value_f64(&p);
                    (f(x + h) - f(x - h)) / (2.0 * h)
                };
                let (d1, d2) = (along(1.0 / 1024.0), along(1.0 / 2048.0));
                assert!(
                    (d1 - d2).abs() <= 1e-5 * (1.0 + d1.abs()),
                    "{dims}D {kernel} at {p:?}: the angle's differences disagree, {d1} {d2}"
                );
                let err = (got - d2).abs() / (1.0 + d2.abs());
                let err32 = (got32 - d2).abs() / (1.0 + d2.abs());
                worst = worst.max(err);
                worst32 = worst32.max(err32);
                largest = largest.max(d2.abs());
                assert!(
                    err <= 1e-7,
                    "{dims}D {kernel} at {p:?}: angle term {got} vs {d2}"
                );
                assert!(
                    err32 <= 2e-4,
                    "f32 {dims}D {kernel} at {p:?}: {got32} vs {d2}"
                );
                checked += 1;
            }
        }
    }
    eprintln!(
        "ANGLE SLOPE: {checked} points; max relative error f64 {worst:e}, f32 {worst32:e}, \
         largest |∂N/∂θ| {largest:.3}"
    );
    assert!(largest > 0.3, "{largest}");
}

/// A driven angle is refused where a number is: in 4D and in a tiled field, naming the node.
#[test]
fn a_driven_angle_is_refused_in_4d_and_tiled() {
    let graph = Graph::from_node(&driven("reference", Node::simplex())).unwrap();
    let in_4d = graph.program(4, [0.0; 4]).unwrap_err().to_string();
    assert!(in_4d.contains("flow noise is 2D and 3D only"), "{in_4d}");
    let tiled = graph
        .program(2, [4.0, 4.0, 0.0, 0.0])
        .unwrap_err()
        .to_string();
    assert!(tiled.contains("flow noise does not tile"), "{tiled}");
}
