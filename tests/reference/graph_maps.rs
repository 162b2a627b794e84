//! The FastNoise2 nodes written as maps: `sine` (and the sine every evaluator computes),
//! `signed-sqrt` and `remap`'s `clamp`, checked against their formulas written out in f64,
//! their gradients against the formulas' derivatives.

use crate::common::graphs::Rng;
use wgpu_noise::cpu::combine::{wgpu_noise_sin, wgpu_noise_sin_slope, WGPU_NOISE_SIN_LIMIT};
use wgpu_noise::graph::{Graph, Node};

/// `v` rounded to f32, the precision of a graph's parameters and of the f32 evaluator.
fn f32_of(v: f64) -> f64 {
    v as f32 as f64
}

/// The sine's error bound below its limit (docs/graphs.md).
const SIN_ERROR: f64 = 1.5e-7;

/// `wgpu_noise_sin` in f32 (the GPU's operations) against f64's `sin` at the same f32
/// argument, over ranges up to the limit: the reduction by quarter turns stays exact as
/// far as `f32` holds the argument, so the error does not grow with it. Its slope is the
/// cosine, as accurate.
#[test]
fn the_sine_is_within_its_bound_of_f64_sin_up_to_its_limit_and_0_past_it() {
    let mut rng = Rng::new(21);
    let limit = WGPU_NOISE_SIN_LIMIT;
    for reach in [1.0, 10.0, 1e3, 1e5, 1e6, 1e7, limit] {
        let (mut sin_error, mut cos_error) = (0.0f64, 0.0f64);
        for _ in 0..200_000 {
            let x = rng.range(-reach, reach) as f32;
            if (x as f64).abs() >= limit {
                continue;
            }
            let want = (x as f64).sin_cos();
            sin_error = sin_error.max((wgpu_noise_sin(x) as f64 - want.0).abs());
            cos_error = cos_error.max((wgpu_noise_sin_slope(x) as f64 - want.1).abs());
        }
        println!("|x| < {reach:e}: sin off by {sin_error:.2e}, its slope (cos) by {cos_error:.2e}");
        assert!(sin_error <= SIN_ERROR, "sin below {reach:e}: {sin_error:e}");
        assert!(cos_error <= SIN_ERROR, "cos below {reach:e}: {cos_error:e}");
    }
    // Exact at the quarter turns' zeros and ones that f32 holds.
    assert_eq!(wgpu_noise_sin(0.0f32), 0.0);
    assert_eq!(wgpu_noise_sin_slope(0.0f32), 1.0);
    assert_eq!(wgpu_noise_sin(std::f32::consts::FRAC_PI_2), 1.0);
    assert_eq!(wgpu_noise_sin(-std::f32::consts::FRAC_PI_2), -1.0);
    // The same operations in f64 are the same function, more precisely.
    for _ in 0..10_000 {
        let x = rng.range(-1e4, 1e4);
        assert!(
            (wgpu_noise_sin(x) - x.sin()).abs() <= SIN_ERROR,
            "f64 at {x}"
        );
    }
    for x in [limit, -limit, 1e20, -1e30, f64::from(f32::MAX)] {
        assert_eq!(wgpu_noise_sin(x as f32), 0.0, "{x:e}");
        assert_eq!(wgpu_noise_sin_slope(x as f32), 0.0, "{x:e}");
        assert_eq!(wgpu_noise_sin(x), 0.0, "f64 {x:e}");
    }
    // Just below the limit it is still the sine.
    let below = (limit - 2.0) as f32;
    assert!((wgpu_noise_sin(below) as f64 - (below as f64).sin()).abs() <= SIN_ERROR);
}

/// Random points of `dims` coordinates within ±`reach`, as f32.
fn points(rng: &mut Rng, dims: usize, reach: f64) -> Vec<Vec<f32>> {
    (0..200)
        .map(|_| (0..dims).map(|_| rng.range(-reach, reach) as f32).collect())
        .collect()
}

/// `sine` is `∏ sin(pₐ × (1 / scaleₐ))`: the f32 evaluator against that product in f64 at
/// the f32 evaluator's own arguments (`pₐ × frequencyₐ` rounded to f32, one operation), and
/// its gradient against the product rule, `frequencyₐ cos(argₐ) ∏_{b≠a} sin(arg_b)`.
#[test]
fn sine_is_the_product_of_each_axis_sine_and_its_gradient_the_product_rule() {
    let mut rng = Rng::new(22);
    for dims in 2..=4 {
        let scale: Vec<f64> = (0..dims).map(|_| f32_of(rng.range(0.1, 5.0))).collect();
        let frequency: Vec<f32> = scale.iter().map(|s| (1.0 / s) as f32).collect();
        let node = Node::of_type("sine").with("scale", scale.clone());
        let mut sampler = Graph::from_node(&node).unwrap().sampler(dims, 0).unwrap();
        for reach in [4.0, 1e4] {
            for p in points(&mut rng, dims, reach) {
                let arg: Vec<f64> = (0..dims).map(|a| (p[a] * frequency[a]) as f64).collect();
                let sines: Vec<f64> = arg.iter().map(|x| x.sin()).collect();
                let want: f64 = sines.iter().product();
                let got = sampler.value(&p);
                // Each factor within the sine's bound, the products rounded in f32.
                let bound = dims as f64 * (SIN_ERROR + 6e-8);
                assert!(
                    (got as f64 - want).abs() <= bound,
                    "{dims}D at {p:?}: {got} vs {want}"
                );
                let gradient = sampler.value_and_gradient(&p);
                assert_eq!(gradient[0], got, "the gradient's value is the value's");
                for a in 0..dims {
                    let others: f64 = (0..dims).filter(|&b| b != a).map(|b| sines[b]).product();
                    let want = frequency[a] as f64 * arg[a].cos() * others;
                    assert!(
                        (gradient[1 + a] as f64 - want).abs()
                            <= bound * (frequency[a] as f64).max(1.0),
                        "{dims}D ∂/∂{a} at {p:?}: {} vs {want}",
                        gradient[1 + a]
                    );
                }
            }
        }
    }
}

/// The default scale is 1 (a period of 2π); past the sine's limit (`|p / scale| ≥ 2²⁴`) the
/// value and its slope are 0; a scale out of its range is refused naming its path.
#[test]
fn sine_takes_scale_1_is_0_past_the_limit_and_refuses_a_scale_out_of_range() {
    let mut plain = Graph::from_node(&Node::of_type("sine"))
        .unwrap()
        .sampler(2, 0)
        .unwrap();
    let p = [1.25f32, -0.5];
    let want = (1.25f64).sin() * (-0.5f64).sin();
    assert!((plain.value(&p) as f64 - want).abs() <= 2.0 * SIN_ERROR + 1e-7);
    let fine = Node::of_type("sine").with("scale", vec![1e-6, 1.0]);
    let mut fine = Graph::from_node(&fine).unwrap().sampler(2, 0).unwrap();
    // x / 1e-6 = 2e7, past the limit.
    assert_eq!(fine.value(&[20.0, 1.0]), 0.0);
    assert_eq!(fine.value_and_gradient(&[20.0, 1.0])[1..3], [0.0, 0.0]);
    for bad in [0.0, -1.0, 2e6] {
        let e = Graph::from_node(&Node::of_type("sine").with("scale", vec![1.0, bad]))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("nodes.out.scale[1]: ") && e.contains("out of range"),
            "{bad}: {e}"
        );
    }
    // It reads the point's coordinates, which do not repeat.
    let e = Graph::from_node(&Node::of_type("sine"))
        .unwrap()
        .program(2, [4.0, 4.0, 0.0, 0.0])
        .unwrap_err()
        .to_string();
    assert!(e.contains("does not tile"), "{e}");
}

/// `signed-sqrt` is `sign(v) √|v|` (the `pow` node's exponent 0.5): values against f64's
/// square root, the gradient `1 / (2 √|v|)` away from 0 and pow's bound 1e30 at 0.
#[test]
fn signed_sqrt_is_the_signed_square_root_with_pows_slope() {
    let node = Node::of_type("signed-sqrt").with_input("source", Node::position(0));
    let graph = Graph::from_node(&node).unwrap();
    let pow = Graph::from_node(
        &Node::of_type("pow")
            .with("exponent", 0.5)
            .with_input("source", Node::position(0)),
    )
    .unwrap();
    assert_eq!(graph.program(2, [0.0; 4]), pow.program(2, [0.0; 4]));
    let mut sampler = graph.sampler(2, 0).unwrap();
    let mut rng = Rng::new(23);
    for p in points(&mut rng, 2, 100.0) {
        let x = p[0] as f64;
        let want = x.signum() * x.abs().sqrt();
        let got = sampler.value(&p) as f64;
        assert!(
            (got - want).abs() <= 2e-7 * (1.0 + want.abs()),
            "at {x}: {got} vs {want}"
        );
        let got64 = sampler.value_f64(&[x, p[1] as f64]);
        assert!((got64 - want).abs() <= 1e-15 * (1.0 + want.abs()));
        let slope = 0.5 / x.abs().sqrt();
        let d = sampler.value_and_gradient(&p)[1] as f64;
        assert!(
            (d - slope).abs() <= 1e-6 * slope,
            "slope at {x}: {d} vs {slope}"
        );
    }
    assert_eq!(sampler.value_and_gradient(&[0.0, 1.0])[..2], [0.0, 1e30]);
}

/// `remap` with `clamp` `on`: the linear map, then clamped to `to`'s range (either way
/// round), its slope 0 where clamped; `off` (the default) leaves it unclamped.
#[test]
fn remap_clamp_clamps_to_the_target_range_with_slope_0_there() {
    let mut rng = Rng::new(24);
    for (to, clamp) in [
        ([0.25f64, 2.0], "on"),
        ([1.5, -0.5], "on"),
        ([0.25, 2.0], "off"),
    ] {
        let from = [-1.0, 3.0];
        let node = Node::of_type("remap")
            .with_input("source", Node::position(1))
            .with("from", from.to_vec())
            .with("to", to.to_vec())
            .with("clamp", clamp);
        let mut sampler = Graph::from_node(&node).unwrap().sampler(2, 0).unwrap();
        let (lo, hi) = (to[0].min(to[1]), to[0].max(to[1]));
        let mut clamped = 0;
        for p in points(&mut rng, 2, 6.0) {
            let y = p[1] as f64;
            let slope = (to[1] - to[0]) / (from[1] - from[0]);
            let linear = to[0] + (y - from[0]) * slope;
            let inside = clamp == "off" || (linear > lo && linear < hi);
            let want = if clamp == "on" {
                linear.clamp(lo, hi)
            } else {
                linear
            };
            let got = sampler.value_f64(&[p[0] as f64, y]);
            assert!(
                (got - want).abs() <= 1e-12,
                "{to:?} {clamp} at {y}: {got} vs {want}"
            );
            let g = sampler.value_and_gradient(&p);
            assert!((g[0] as f64 - want).abs() <= 1e-6, "f32 at {y}");
            let want_slope = if inside { slope } else { 0.0 };
            assert_eq!(g[1], 0.0);
            assert!(
                (g[2] as f64 - want_slope).abs() <= 1e-6,
                "{to:?} slope at {y}"
            );
            clamped += usize::from(!inside);
        }
        if clamp == "on" {
            assert!(clamped > 20, "{to:?}: {clamped} clamped samples");
        }
    }
    let e = Graph::from_node(
        &Node::of_type("remap")
            .with_input("source", Node::simplex())
            .with("clamp", true),
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("nodes.out.clamp: must be a string"), "{e}");
}
