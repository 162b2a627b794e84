//! The FastNoise2 nodes written as maps: `sine` (and the sine every evaluator computes),
//! `signed-sqrt`, `remap`'s `clamp` and `curve`, checked against their formulas written out
//! in f64, their gradients against the formulas' derivatives.

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

/// The Fritsch–Carlson tangents of `points`, written out in f64 (Fritsch and Carlson 1980,
/// as Wikipedia's "Monotone cubic interpolation" states them).
fn fritsch_carlson(points: &[[f64; 2]]) -> Vec<f64> {
    let n = points.len();
    let delta: Vec<f64> = points
        .windows(2)
        .map(|w| (w[1][1] - w[0][1]) / (w[1][0] - w[0][0]))
        .collect();
    let mut m: Vec<f64> = (0..n)
        .map(|k| match k {
            0 => delta[0],
            k if k == n - 1 => delta[n - 2],
            k if delta[k - 1] * delta[k] <= 0.0 => 0.0,
            k => (delta[k - 1] + delta[k]) / 2.0,
        })
        .collect();
    for k in 0..n - 1 {
        if delta[k] == 0.0 {
            (m[k], m[k + 1]) = (0.0, 0.0);
            continue;
        }
        let (a, b) = (m[k] / delta[k], m[k + 1] / delta[k]);
        if a * a + b * b > 9.0 {
            let tau = 3.0 / (a * a + b * b).sqrt();
            (m[k], m[k + 1]) = (tau * a * delta[k], tau * b * delta[k]);
        }
    }
    m
}

/// The Hermite spline of `points` with tangents `m` at `v` and its slope, written out with
/// the Hermite basis; constant past the ends.
fn hermite(points: &[[f64; 2]], m: &[f64], v: f64) -> (f64, f64) {
    let n = points.len();
    if v <= points[0][0] {
        return (points[0][1], 0.0);
    }
    if v >= points[n - 1][0] {
        return (points[n - 1][1], 0.0);
    }
    let k = (0..n - 1).rfind(|&k| points[k][0] <= v).unwrap();
    let ([x0, y0], [x1, y1]) = (points[k], points[k + 1]);
    let h = x1 - x0;
    let t = (v - x0) / h;
    let (t2, t3) = (t * t, t * t * t);
    let value = (2.0 * t3 - 3.0 * t2 + 1.0) * y0
        + (t3 - 2.0 * t2 + t) * h * m[k]
        + (-2.0 * t3 + 3.0 * t2) * y1
        + (t3 - t2) * h * m[k + 1];
    let slope = ((6.0 * t2 - 6.0 * t) * y0
        + (3.0 * t2 - 4.0 * t + 1.0) * h * m[k]
        + (-6.0 * t2 + 6.0 * t) * y1
        + (3.0 * t2 - 2.0 * t) * h * m[k + 1])
        / h;
    (value, slope)
}

/// Curves of 2 to 8 points: monotone data, data that turns (its extrema at the points), flat
/// stretches and a steep step that the tangents must be scaled down for.
const CURVES: &[&[[f64; 2]]] = &[
    &[[-1.0, 0.0], [1.0, 1.0]],
    &[[-1.0, -1.0], [-0.2, -0.9], [0.1, 0.8], [1.0, 1.0]],
    &[
        [-0.75, 0.5],
        [0.0, -0.5],
        [0.5, 1.5],
        [0.625, 1.5],
        [0.75, 1.5],
        [1.5, -2.0],
    ],
    &[
        [-2.0, 0.0],
        [-1.0, 0.0],
        [-0.5, 0.05],
        [-0.25, 1.0],
        [0.0, 1.0],
        [0.25, 3.0],
        [0.5, 3.25],
        [2.0, 4.0],
    ],
];

/// `curve` against the spline written out in f64 (Fritsch–Carlson tangents, Hermite basis):
/// its values (f64 evaluator: the same spline with its cubic's numbers rounded to f32; f32
/// evaluator within f32's rounding), its gradient against the basis' derivative, its
/// monotonicity between each two points, and the points' `y` past the ends.
#[test]
fn curve_is_the_monotone_cubic_spline_through_its_points() {
    let mut rng = Rng::new(25);
    for points in CURVES {
        let m = fritsch_carlson(points);
        let node = Node::of_type("curve")
            .with_input("source", Node::position(0))
            .with("points", serde_json::json!(points));
        let mut sampler = Graph::from_node(&node).unwrap().sampler(2, 0).unwrap();
        let scale = points.iter().map(|p| p[1].abs()).fold(1.0, f64::max);
        let (first, last) = (points[0][0], points[points.len() - 1][0]);
        let mut previous: Option<(f64, f64)> = None;
        for i in 0..=2000 {
            // Past both ends, and every point itself (at i multiple of 2000 / (n − 1)).
            let v = f32_of(first - 0.5 + (last - first + 1.0) * i as f64 / 2000.0);
            let (want, slope) = hermite(points, &m, v);
            let got = sampler.value_f64(&[v, 0.0]);
            assert!(
                (got - want).abs() <= 1e-6 * scale,
                "{points:?} at {v}: {got} vs {want}"
            );
            let g = sampler.value_and_gradient(&[v as f32, 0.0]);
            assert!((g[0] as f64 - want).abs() <= 2e-6 * scale, "f32 at {v}");
            let steepest = m.iter().fold(1.0, |s: f64, m| s.max(m.abs()));
            assert!(
                (g[1] as f64 - slope).abs() <= 1e-5 * steepest,
                "{points:?} slope at {v}: {} vs {slope}",
                g[1]
            );
            // Monotone between each two points: the value moves the way the points do.
            if let Some((u, before)) = previous {
                let k = (0..points.len() - 1).find(|&k| points[k + 1][0] >= v);
                if let Some(k) = k.filter(|&k| u >= points[k][0]) {
                    let rise = points[k + 1][1] - points[k][1];
                    assert!(
                        (got - before) * rise.signum() >= -1e-6 * scale,
                        "{points:?}: not monotone from {u} to {v}"
                    );
                }
            }
            previous = Some((v, got));
        }
        for p in points.iter() {
            assert!((sampler.value_f64(&[p[0], 0.0]) - p[1]).abs() <= 1e-6 * scale);
        }
        // The gradient against central differences of the f64 evaluator, inside segments.
        for _ in 0..200 {
            let v = rng.range(first, last);
            if points.iter().any(|p| (p[0] - v).abs() < 1e-3) {
                continue;
            }
            let h = 1e-6;
            let difference =
                (sampler.value_f64(&[v + h, 0.0]) - sampler.value_f64(&[v - h, 0.0])) / (2.0 * h);
            let g = sampler.value_and_gradient(&[v as f32, 0.0])[1] as f64;
            assert!(
                (g - difference).abs() <= 1e-4 * (1.0 + difference.abs()),
                "{points:?} at {v}: {g} vs {difference}"
            );
        }
    }
}

/// A curve's points are refused naming the JSON path of the first bad number: too few or
/// too many, not increasing, not a pair, out of range, not finite.
#[test]
fn curve_points_are_checked_naming_their_path() {
    let read = |points: &str| {
        let text = format!(
            r#"{{"version": 1, "output": "o", "nodes": {{"o": {{"type": "curve",
               "source": {{"type": "simplex"}}, "points": {points}}}}}}}"#
        );
        Graph::from_json(&text).map(|_| ()).unwrap_err().to_string()
    };
    for (points, want) in [
        ("[[0, 1]]", "nodes.o.points: must have 2 to 8 points, not 1"),
        (
            "[[0,0],[1,0],[2,0],[3,0],[4,0],[5,0],[6,0],[7,0],[8,0]]",
            "nodes.o.points: must have 2 to 8 points, not 9",
        ),
        (
            "[[0, 0], [1, 0], [1, 1]]",
            "nodes.o.points[2][0]: x must increase, by at least 1e-30: 1 after 1",
        ),
        (
            "[[0, 0], [-1, 1]]",
            "nodes.o.points[1][0]: x must increase, by at least 1e-30: -1 after 0",
        ),
        (
            "[[0, 0], [1e-31, 1]]",
            "nodes.o.points[1][0]: x must increase",
        ),
        (
            "[[0, 0], [1, 2, 3]]",
            "nodes.o.points[1]: must be [x, y], not [1,2,3]",
        ),
        ("[[0, 0], 1]", "nodes.o.points[1]: must be [x, y], not 1"),
        (
            "{}",
            "nodes.o.points: must be an array of [x, y] points, not {}",
        ),
        (
            "[[0, 0], [1, 2e30]]",
            "nodes.o.points[1][1]: 2e30 is out of range",
        ),
        (
            "[[0, 0], [1, \"a\"]]",
            "nodes.o.points[1][1]: must be a number",
        ),
        ("[[0, 1e400], [1, 0]]", "nodes.o.points[0][1]"),
    ] {
        let e = read(points);
        assert!(e.starts_with(want), "{points}: {e}");
    }
}

/// The ping-pong triangle wave of `u`, written out: period 2, from -1 at even `u` to 1 at odd
/// `u`; and its slope.
fn triangle(u: f64) -> (f64, f64) {
    let y = u - 2.0 * (u / 2.0).floor();
    if y < 1.0 {
        (2.0 * y - 1.0, 2.0)
    } else {
        (3.0 - 2.0 * y, -2.0)
    }
}

#[test]
fn a_node_driven_ping_pong_strength_is_evaluated_per_sample_with_its_gradient() {
    // ping-pong of x with strength y: tri(x y), whose gradient is tri'(x y) (y, x).
    let graph = wgpu_noise::graph::Graph::from_json(
        r#"{ "version": 1, "output": "p", "nodes": { "p": { "type": "ping-pong",
            "source": { "type": "position", "axis": "x" },
            "strength": { "type": "position", "axis": "y" } } } }"#,
    )
    .unwrap();
    let mut sampler = graph.sampler(2, 0).unwrap();
    let mut rng = crate::common::graphs::Rng::new(41);
    for _ in 0..500 {
        let p = [rng.range(-5.0, 5.0), rng.range(0.1, 3.0)];
        let (want, slope) = triangle(p[0] * p[1]);
        let got = sampler.value_f64(&p);
        assert!((got - want).abs() < 1e-12, "at {p:?}: {got} vs {want}");
        let p32 = [p[0] as f32, p[1] as f32];
        let d = sampler.value_and_gradient(&p32);
        // Away from the wave's kinks (there, one-sided), the slope times (y, x).
        let u = p32[0] as f64 * p32[1] as f64;
        if (u - u.round()).abs() > 1e-3 {
            let (_, slope32) = triangle(u);
            assert_eq!(slope32, slope, "at {p:?}: the side of the kink");
            let want = [slope * p32[1] as f64, slope * p32[0] as f64];
            for a in 0..2 {
                assert!(
                    (d[1 + a] as f64 - want[a]).abs() < 1e-5 * (1.0 + want[a].abs()),
                    "at {p:?}: ∂/∂{a} {} vs {}",
                    d[1 + a],
                    want[a]
                );
            }
        }
    }
}
