//! Node-driven parameters (FastNoise2's hybrid members, docs/graphs.md "A gain given by a
//! node"): each driven form written out independently in f64, its values against the f64
//! evaluator, its f32 gradient against central differences of the written-out form, and
//! what a driven parameter does with a value outside its range, per sample.

use crate::common::graphs::Rng;
use wgpu_noise::graph::{Graph, Node};

/// The graph of one node written in place, sampled in `dims` dimensions.
fn sampler_of(node: &str, dims: usize) -> wgpu_noise::graph::Sampler {
    let text = format!(r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {node} }} }}"#);
    Graph::from_json(&text)
        .unwrap_or_else(|e| panic!("{node}: {e}"))
        .sampler(dims, 0)
        .unwrap()
}

/// The central difference of `f` at `p` along each axis (step `h`).
fn central<const N: usize>(f: impl Fn([f64; N]) -> f64, p: [f64; N], h: f64) -> [f64; N] {
    std::array::from_fn(|a| {
        let (mut hi, mut lo) = (p, p);
        hi[a] += h;
        lo[a] -= h;
        (f(hi) - f(lo)) / (hi[a] - lo[a])
    })
}

/// Checks the f64 value at `p` against `want` (relative `value_tolerance`), and the f32
/// gradient at `p` rounded to f32 against central differences of `want` there (relative
/// `gradient_tolerance`); the largest gradient error, relative to `1 + |slope|`.
fn check_point<const N: usize>(
    label: &str,
    sampler: &mut wgpu_noise::graph::Sampler,
    want: &impl Fn([f64; N]) -> f64,
    p: [f64; N],
    value_tolerance: f64,
    gradient_tolerance: f64,
) -> f64 {
    let got = sampler.value_f64(&p);
    let w = want(p);
    assert!(
        (got - w).abs() <= value_tolerance * (1.0 + w.abs()),
        "{label} at {p:?}: {got} vs {w}"
    );
    let p32 = p.map(|v| v as f32);
    let d = sampler.value_and_gradient(&p32);
    let slopes = central(want, p32.map(|v| v as f64), 1e-6);
    let mut worst = 0.0f64;
    for a in 0..N {
        let error = (d[1 + a] as f64 - slopes[a]).abs() / (1.0 + slopes[a].abs());
        assert!(
            error <= gradient_tolerance,
            "{label} at {p:?}: ∂/∂{a} {} vs central {}",
            d[1 + a],
            slopes[a]
        );
        worst = worst.max(error);
    }
    worst
}

#[test]
fn node_driven_clamp_ends_are_evaluated_per_sample_with_their_gradient() {
    let mut rng = Rng::new(57);
    let x = r#"{ "type": "position", "axis": "x" }"#;
    let y = r#"{ "type": "position", "axis": "y" }"#;
    let z = r#"{ "type": "position", "axis": "z" }"#;
    let mut both = sampler_of(
        &format!(r#"{{ "type": "clamp", "source": {x}, "min": {y}, "max": {z} }}"#),
        3,
    );
    let mut low = sampler_of(
        &format!(r#"{{ "type": "clamp", "source": {x}, "min": {y}, "max": 1.5 }}"#),
        3,
    );
    // `min` where below it, else `max` where above that: `max` where the ends cross.
    let clamp = |v: f64, lo: f64, hi: f64| {
        let r = if v < lo { lo } else { v };
        if r > hi {
            hi
        } else {
            r
        }
    };
    let both_want = |p: [f64; 3]| clamp(p[0], p[1], p[2]);
    let low_want = |p: [f64; 3]| clamp(p[0], p[1], 1.5);
    let mut counts = [0usize; 3];
    let mut worst = 0.0f64;
    for _ in 0..3000 {
        let p = [
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
        ];
        // Away from the kinks, where central differences straddle them.
        let kinks = [
            p[0] - p[1],
            p[0] - p[2],
            p[1] - p[2],
            p[0] - 1.5,
            p[1] - 1.5,
        ];
        if kinks.iter().any(|k| k.abs() < 1e-3) {
            continue;
        }
        let v = both_want(p);
        counts[if v == p[0] {
            0
        } else if v == p[1] {
            1
        } else {
            2
        }] += 1;
        worst = worst.max(check_point("clamp", &mut both, &both_want, p, 0.0, 1e-6));
        worst = worst.max(check_point(
            "clamp to 1.5",
            &mut low,
            &low_want,
            p,
            0.0,
            1e-6,
        ));
    }
    println!("driven clamp ends: {counts:?} samples at v, min, max; gradient within {worst:.1e}");
    assert!(counts.iter().all(|&c| c > 300), "{counts:?}");
}

/// Number ends keep the `clamp` operation; ends given by constant nodes compute the same
/// values and gradients bit for bit, but for the sign of a zero where `v` equals an end
/// (the driven form takes the end there, the number form `v`; both have the end's slope).
#[test]
fn clamp_ends_given_by_constant_nodes_are_the_numbers() {
    let mut rng = Rng::new(58);
    let source = r#"{ "type": "fbm", "source": { "type": "simplex" }, "octaves": 2 }"#;
    let constant = |v: f64| format!(r#"{{ "type": "constant", "value": {v} }}"#);
    let mut tied = 0;
    for (lo, hi) in [(-0.25, 0.3), (0.0, 0.5), (-0.5, 0.0)] {
        let mut number = sampler_of(
            &format!(r#"{{ "type": "clamp", "source": {source}, "min": {lo}, "max": {hi} }}"#),
            2,
        );
        let mut driven = sampler_of(
            &format!(
                r#"{{ "type": "clamp", "source": {source}, "min": {}, "max": {} }}"#,
                constant(lo),
                constant(hi)
            ),
            2,
        );
        // Lattice points (whole coordinates), where the noise is ±0, and random points.
        let points = (0..64)
            .map(|i| [(i % 8) as f32 - 4.0, (i / 8) as f32 - 4.0])
            .chain((0..500).map(|_| [rng.range(-4.0, 4.0) as f32, rng.range(-4.0, 4.0) as f32]));
        for p in points {
            let (v, w) = (number.value(&p), driven.value(&p));
            let zeros = v == 0.0 && w == 0.0;
            assert!(
                v.to_bits() == w.to_bits() || zeros,
                "[{lo}, {hi}] at {p:?}: {v} vs {w}"
            );
            let (a, b) = (number.value_and_gradient(&p), driven.value_and_gradient(&p));
            let bits = |d: [f32; 5]| d.map(f32::to_bits)[1..].to_vec();
            assert_eq!(bits(a), bits(b), "[{lo}, {hi}] at {p:?}");
            tied += zeros as usize;
        }
    }
    println!("clamp ends by constant nodes: {tied} samples at a zero end");
    assert!(tied > 0, "the lattice points meet a zero end");
}

/// Quilez's polynomial smooth minimum as it is usually written, the blend form
/// `mix(b, a, h) − k h (1 − h)` with `h = clamp(1/2 + (b − a) / 2k, 0, 1)` (the lowering
/// computes the other form, `min − k h'² / 4`).
fn smooth_min(a: f64, b: f64, k: f64) -> f64 {
    let h = (0.5 + 0.5 * (b - a) / k).clamp(0.0, 1.0);
    b + (a - b) * h - k * h * (1.0 - h)
}

/// `smooth-min` and `smooth-max` of x and y with `k` the point's z: the blend form in f64,
/// the gradient (through `k` too) against central differences.
#[test]
fn a_node_driven_smooth_k_is_evaluated_per_sample_with_its_gradient() {
    let mut rng = Rng::new(48);
    for (node, max) in [("smooth-min", false), ("smooth-max", true)] {
        let mut sampler = sampler_of(
            &format!(
                r#"{{ "type": "{node}", "a": {{ "type": "position", "axis": "x" }},
                      "b": {{ "type": "position", "axis": "y" }},
                      "k": {{ "type": "position", "axis": "z" }} }}"#
            ),
            3,
        );
        let want = |p: [f64; 3]| {
            if max {
                -smooth_min(-p[0], -p[1], p[2])
            } else {
                smooth_min(p[0], p[1], p[2])
            }
        };
        let mut worst = 0.0f64;
        let mut blended = 0;
        for _ in 0..2000 {
            let p = [
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(0.05, 1.5),
            ];
            blended += ((p[0] - p[1]).abs() < p[2]) as usize;
            worst = worst.max(check_point(node, &mut sampler, &want, p, 1e-12, 1e-4));
        }
        println!(
            "{node} with k = z: {blended} of 2000 points blended, gradient within {worst:.1e}"
        );
        assert!(blended > 800, "{node}: only {blended} points within k");
    }
}

/// A driven `k` at or below 0 (where the blend has no width) gives the plain minimum
/// (maximum) and its gradient, exactly, never a NaN; a tiny positive one too.
#[test]
fn a_node_driven_smooth_k_at_or_below_0_is_the_plain_minimum() {
    let mut rng = Rng::new(49);
    for (node, max) in [("smooth-min", false), ("smooth-max", true)] {
        let mut sampler = sampler_of(
            &format!(
                r#"{{ "type": "{node}", "a": {{ "type": "position", "axis": "x" }},
                      "b": {{ "type": "position", "axis": "y" }},
                      "k": {{ "type": "position", "axis": "z" }} }}"#
            ),
            3,
        );
        for _ in 0..1000 {
            let k = match rng.below(4) {
                0 => 0.0,
                1 => -0.0,
                2 => 1e-39,
                _ => rng.range(-1e6, 0.0),
            };
            let p = [
                rng.range(-1.0, 1.0) as f32,
                rng.range(-1.0, 1.0) as f32,
                k as f32,
            ];
            let (chosen, axis) = match (max, p[0] < p[1]) {
                (false, true) | (true, false) if p[0] != p[1] => (p[0], 0),
                _ => (p[1], 1),
            };
            let d = sampler.value_and_gradient(&p);
            let mut want_d = [0.0f32; 3];
            want_d[axis] = 1.0;
            assert_eq!(d[0].to_bits(), chosen.to_bits(), "{node} at {p:?}: {d:?}");
            assert_eq!(d[1..4], want_d, "{node} at {p:?}");
            assert_eq!(
                sampler.value(&p).to_bits(),
                chosen.to_bits(),
                "{node} at {p:?}"
            );
            let p64 = p.map(|v| v as f64);
            assert_eq!(sampler.value_f64(&p64), chosen as f64, "{node} at {p:?}");
        }
    }
}

/// A `k` given by a constant node is the number's smooth minimum, within f32's rounding of
/// the two forms of the polynomial.
#[test]
fn a_smooth_k_given_by_a_constant_node_is_the_numbers() {
    let mut rng = Rng::new(50);
    for node in ["smooth-min", "smooth-max"] {
        for k in [1e-6, 0.1, 0.7, 3.0, 1000.0] {
            let a = Node::simplex();
            let b = Node::classic().with("seed", 3);
            let number = Node::of_type(node)
                .with_input("a", a.clone())
                .with_input("b", b.clone())
                .with("k", k);
            let driven = Node::of_type(node)
                .with_input("a", a)
                .with_input("b", b)
                .with_input("k", Node::constant(k));
            let mut number = Graph::from_node(&number).unwrap().sampler(2, 5).unwrap();
            let mut driven = Graph::from_node(&driven).unwrap().sampler(2, 5).unwrap();
            for _ in 0..300 {
                let p = [rng.range(-4.0, 4.0) as f32, rng.range(-4.0, 4.0) as f32];
                let (n, d) = (number.value(&p), driven.value(&p));
                assert!(
                    (n - d).abs() <= 4e-7 * (1.0 + k as f32),
                    "{node} k {k} at {p:?}: {n} vs {d}"
                );
            }
        }
    }
}

/// `remap` with ends given by nodes: `x` from `[-1, y]` onto `[z, 3]`, and from `[y, 1]`
/// onto `[0, z]` clamped there, in 3D: `t₀ + (v − f₀)(t₁ − t₀) / (f₁ − f₀)` written out
/// in f64, its gradient through the ends (quotient rule) against central differences.
#[test]
fn node_driven_remap_ends_are_evaluated_per_sample_with_their_gradient() {
    let mut rng = Rng::new(51);
    let remap =
        |v: f64, f: [f64; 2], t: [f64; 2]| t[0] + (v - f[0]) * (t[1] - t[0]) / (f[1] - f[0]);
    let x = r#"{ "type": "position", "axis": "x" }"#;
    let y = r#"{ "type": "position", "axis": "y" }"#;
    let z = r#"{ "type": "position", "axis": "z" }"#;
    let mut open = sampler_of(
        &format!(r#"{{ "type": "remap", "source": {x}, "from": [-1, {y}], "to": [{z}, 3] }}"#),
        3,
    );
    let mut clamped = sampler_of(
        &format!(
            r#"{{ "type": "remap", "source": {x}, "from": [{y}, 1], "to": [0, {z}], "clamp": "on" }}"#
        ),
        3,
    );
    let open_want = |p: [f64; 3]| remap(p[0], [-1.0, p[1]], [p[2], 3.0]);
    let clamped_want = |p: [f64; 3]| {
        let r = remap(p[0], [p[1], 1.0], [0.0, p[2]]);
        r.clamp(p[2].min(0.0), p[2].max(0.0))
    };
    let (mut worst, mut inside) = (0.0f64, 0);
    for _ in 0..2000 {
        let p = [
            rng.range(-2.0, 2.0),
            rng.range(0.2, 3.0),
            rng.range(-2.0, 2.0),
        ];
        worst = worst.max(check_point("remap", &mut open, &open_want, p, 1e-12, 1e-4));
        let q = [p[0], -p[1], p[2]];
        // Away from the clamp's kinks (where central differences straddle them).
        let r = remap(q[0], [q[1], 1.0], [0.0, q[2]]);
        if (r - q[2].min(0.0)).abs() > 1e-3 && (r - q[2].max(0.0)).abs() > 1e-3 {
            inside += (r > q[2].min(0.0) && r < q[2].max(0.0)) as usize;
            worst = worst.max(check_point(
                "clamped remap",
                &mut clamped,
                &clamped_want,
                q,
                1e-12,
                1e-4,
            ));
        }
    }
    println!("driven remap ends: gradient within {worst:.1e}; {inside} clamped points inside");
    assert!(inside > 300, "{inside}");
}

/// `from` ends given by nodes that meet (the same node at both ends, or ends within f32's
/// smallest normal number) map every value onto `to`'s low end, as `divide` by 0 gives 0:
/// its value and gradient, never a NaN.
#[test]
fn node_driven_remap_ends_that_meet_give_the_low_end_of_to() {
    let mut rng = Rng::new(52);
    let mut same = sampler_of(
        r#"{ "type": "remap", "source": { "type": "simplex" },
             "from": [{ "type": "position", "axis": "y" }, { "type": "position", "axis": "y" }],
             "to": [{ "type": "position", "axis": "x" }, 5] }"#,
        2,
    );
    for _ in 0..500 {
        let p = [rng.range(-4.0, 4.0) as f32, rng.range(-4.0, 4.0) as f32];
        let d = same.value_and_gradient(&p);
        assert_eq!(d[..3], [p[0], 1.0, 0.0], "at {p:?}");
        assert_eq!(same.value(&p), p[0], "at {p:?}");
        assert_eq!(
            same.value_f64(&p.map(|v| v as f64)),
            p[0] as f64,
            "at {p:?}"
        );
    }
    // Ends 1e-39 apart (below f32's normal numbers): `divide`'s 0, in f32 and f64 alike.
    let mut tiny = sampler_of(
        r#"{ "type": "remap", "source": 0.5, "from": [0, { "type": "position", "axis": "y" }],
             "to": [-2, { "type": "position", "axis": "x" }] }"#,
        2,
    );
    let p = [3.0f32, 1e-39];
    assert_eq!(tiny.value_and_gradient(&p)[..3], [-2.0, 0.0, 0.0]);
    assert_eq!(tiny.value_f64(&[3.0, 1e-39]), -2.0);
}

/// Number ends keep the `remap` operation (a graph's bakes stay as they were); an end given
/// by a constant node computes the same value, by the same operations' order.
#[test]
fn remap_ends_given_by_constant_nodes_are_the_numbers() {
    let mut rng = Rng::new(53);
    let number = Node::simplex().remap([-0.75, 1.25], [-3.0, 7.0]);
    let driven = Node::simplex()
        .remap([-1.0, 1.0], [0.0, 1.0])
        .with(
            "from",
            serde_json::json!([-0.75, { "type": "constant", "value": 1.25 }]),
        )
        .with(
            "to",
            serde_json::json!([{ "type": "constant", "value": -3.0 }, 7.0]),
        );
    let mut number = Graph::from_node(&number).unwrap().sampler(2, 1).unwrap();
    let mut driven = Graph::from_node(&driven).unwrap().sampler(2, 1).unwrap();
    for _ in 0..500 {
        let p = [rng.range(-4.0, 4.0) as f32, rng.range(-4.0, 4.0) as f32];
        assert_eq!(
            number.value(&p).to_bits(),
            driven.value(&p).to_bits(),
            "at {p:?}"
        );
    }
}

/// A terrace of `x` in `n` steps, its ramps over the last `s` of each step, written out.
fn terrace(x: f64, n: f64, s: f64) -> f64 {
    let u = x * n;
    let (i, f) = (u.floor(), u - u.floor());
    let t = if s > 0.0 {
        ((f - (1.0 - s)) / s).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (i + t * t * (3.0 - 2.0 * t)) / n
}

/// `terrace` of x in 3 steps with `smoothness` the point's y: written out in f64, its
/// gradient through the smoothness against central differences (the ramps meet the flats
/// with slope 0, so it is smooth where the smoothness is above 0).
#[test]
fn a_node_driven_terrace_smoothness_is_evaluated_per_sample_with_its_gradient() {
    let mut rng = Rng::new(54);
    let mut sampler = sampler_of(
        r#"{ "type": "terrace", "steps": 3, "source": { "type": "position", "axis": "x" },
             "smoothness": { "type": "position", "axis": "y" } }"#,
        2,
    );
    let want = |p: [f64; 2]| terrace(p[0], 3.0, p[1]);
    let (mut worst, mut ramps) = (0.0f64, 0);
    for _ in 0..2000 {
        let p = [rng.range(-3.0, 3.0), rng.range(0.05, 1.0)];
        let f = p[0] * 3.0 - (p[0] * 3.0).floor();
        ramps += (f > 1.0 - p[1]) as usize;
        worst = worst.max(check_point("terrace", &mut sampler, &want, p, 1e-12, 1e-4));
    }
    println!(
        "terrace with smoothness y: {ramps} of 2000 points on ramps, gradient within {worst:.1e}"
    );
    assert!(ramps > 800, "{ramps}");
}

/// A driven smoothness is clamped to 0–1 per sample: at or below 0 the steps are hard, as
/// smoothness 0 makes them, at or above 1 the ramps are smoothness 1's, bit for bit (values
/// in f32 and f64; the gradient 0 on hard steps, within f32's rounding on ramps); between,
/// a constant node's smoothness is the number's, bit for bit too.
#[test]
fn a_node_driven_terrace_smoothness_is_clamped_to_0_to_1() {
    let mut rng = Rng::new(55);
    let source = r#"{ "type": "fbm", "source": { "type": "simplex" } }"#;
    let terrace = |s: &str| {
        sampler_of(
            &format!(
                r#"{{ "type": "terrace", "steps": 5, "source": {source}, "smoothness": {s} }}"#
            ),
            2,
        )
    };
    let constant = |v: f64| format!(r#"{{ "type": "constant", "value": {v:e} }}"#);
    let cases = [
        (constant(-3.0), 0.0),
        (constant(0.0), 0.0),
        (constant(-1e-30), 0.0),
        (constant(1e-30), 1e-30),
        (constant(0.3), 0.3),
        (constant(0.75), 0.75),
        (constant(1.0), 1.0),
        (constant(4.0), 1.0),
        (constant(1e30), 1.0),
    ];
    for (driven, number) in cases {
        let mut driven_sampler = terrace(&driven);
        let mut number_sampler = terrace(&format!("{number:e}"));
        for _ in 0..300 {
            let p = [rng.range(-4.0, 4.0), rng.range(-4.0, 4.0)];
            let p32 = p.map(|v| v as f32);
            let (d, n) = (
                driven_sampler.value_and_gradient(&p32),
                number_sampler.value_and_gradient(&p32),
            );
            assert_eq!(d[0].to_bits(), n[0].to_bits(), "{driven} at {p:?}");
            // Hard steps: 0 alike; on a ramp the number's slope is one expression, the
            // driven one the chain rule through the ramp's operations.
            for a in 1..3 {
                assert!(
                    (d[a] - n[a]).abs() <= 1e-5 * (1.0 + n[a].abs())
                        && (number > 0.0 || d[a] == 0.0),
                    "{driven} at {p:?}: gradient {d:?} vs {n:?}"
                );
            }
            assert_eq!(
                driven_sampler.value(&p32).to_bits(),
                number_sampler.value(&p32).to_bits(),
                "{driven} at {p:?}"
            );
            assert_eq!(
                driven_sampler.value_f64(&p).to_bits(),
                number_sampler.value_f64(&p).to_bits(),
                "{driven} at {p:?}"
            );
        }
    }
}

/// `pow` of x with its exponent the point's y: `sign(x) |x|^y` in f64, its gradient against
/// central differences, `∂/∂y = sign(x) |x|^y ln |x|` through the exponent included.
#[test]
fn a_node_driven_pow_exponent_is_evaluated_per_sample_with_its_gradient() {
    let mut rng = Rng::new(56);
    let mut sampler = sampler_of(
        r#"{ "type": "pow", "source": { "type": "position", "axis": "x" },
             "exponent": { "type": "position", "axis": "y" } }"#,
        2,
    );
    let want = |p: [f64; 2]| p[0].signum() * p[0].abs().powf(p[1]);
    let mut worst = 0.0f64;
    for _ in 0..2000 {
        let x = rng.range(0.05, 3.0) * if rng.below(2) == 0 { 1.0 } else { -1.0 };
        let p = [x, rng.range(0.3, 3.0)];
        // f32's powf against f64's, relative to the value (up to 27 here).
        worst = worst.max(check_point("pow", &mut sampler, &want, p, 1e-12, 2e-5));
        // The exponent's slope written out, against the f32 gradient.
        let p32 = p.map(|v| v as f32);
        let (x, y) = (p32[0] as f64, p32[1] as f64);
        let slope = x.signum() * x.abs().powf(y) * x.abs().ln();
        let d = sampler.value_and_gradient(&p32);
        assert!(
            (d[2] as f64 - slope).abs() <= 1e-5 * (1.0 + slope.abs()),
            "at {p:?}: ∂/∂e {} vs {slope}",
            d[2]
        );
    }
    println!("pow with exponent y: gradient within {worst:.1e}");
    // At v = 0 the value is 0 and its slope in the exponent 0 (|v|^e ln |v| → 0); the slope
    // in v is the number's rule: 1e30 below exponent 1, 1 at 1, 0 above.
    for (e, dv) in [(0.5f32, 1e30f32), (1.0, 1.0), (2.5, 0.0)] {
        let d = sampler.value_and_gradient(&[0.0, e]);
        assert_eq!(d[..3], [0.0, dv, 0.0], "at (0, {e})");
    }
}

/// A driven exponent is clamped to the number's range, 1/64 to 64, per sample (below it
/// `|v|^e` is infinite at 0): past each end it is that end's `pow`, and within, a constant
/// node's exponent is the number's, bit for bit (values in f32 and f64, gradients).
#[test]
fn a_node_driven_pow_exponent_is_clamped_to_its_range() {
    let mut rng = Rng::new(57);
    let source = r#"{ "type": "multiply", "a": 3, "b": { "type": "simplex" } }"#;
    let pow = |e: &str| {
        sampler_of(
            &format!(r#"{{ "type": "pow", "source": {source}, "exponent": {e} }}"#),
            2,
        )
    };
    let constant = |v: f64| format!(r#"{{ "type": "constant", "value": {v:e} }}"#);
    let cases = [
        (constant(-3.0), 1.0 / 64.0),
        (constant(0.0), 1.0 / 64.0),
        (constant(0.001), 1.0 / 64.0),
        (constant(0.5), 0.5),
        (constant(1.0), 1.0),
        (constant(2.75), 2.75),
        (constant(64.0), 64.0),
        (constant(1e30), 64.0),
    ];
    for (driven, number) in cases {
        let mut driven_sampler = pow(&driven);
        let mut number_sampler = pow(&format!("{number:e}"));
        for _ in 0..300 {
            let p = [rng.range(-4.0, 4.0), rng.range(-4.0, 4.0)];
            let p32 = p.map(|v| v as f32);
            let (d, n) = (
                driven_sampler.value_and_gradient(&p32),
                number_sampler.value_and_gradient(&p32),
            );
            assert!(d.iter().all(|v| v.is_finite()), "{driven} at {p:?}: {d:?}");
            assert_eq!(d[0].to_bits(), n[0].to_bits(), "{driven} at {p:?}");
            assert_eq!(d[1..], n[1..], "{driven} at {p:?}");
            assert_eq!(
                driven_sampler.value(&p32).to_bits(),
                number_sampler.value(&p32).to_bits(),
                "{driven} at {p:?}"
            );
            assert_eq!(
                driven_sampler.value_f64(&p).to_bits(),
                number_sampler.value_f64(&p).to_bits(),
                "{driven} at {p:?}"
            );
        }
    }
}

/// `scale` and `offset` by nodes, in 3D, of the product `x y` at the moved point: one node
/// for every axis and one per axis, written out in f64 (`(x s)(y s)`, `(x z)(2 y)`,
/// `(x + y)(y + y)`, `x (y + x)`), their gradients (the chain rule's `p ∇by` term
/// included) against central differences.
#[test]
fn node_driven_scale_and_offset_amounts_are_evaluated_per_sample_with_their_gradient() {
    let mut rng = Rng::new(58);
    let xy = r#"{ "type": "multiply", "a": { "type": "position", "axis": "x" },
                  "b": { "type": "position", "axis": "y" } }"#;
    let x = r#"{ "type": "position", "axis": "x" }"#;
    let y = r#"{ "type": "position", "axis": "y" }"#;
    let z = r#"{ "type": "position", "axis": "z" }"#;
    type Want = Box<dyn Fn([f64; 3]) -> f64>;
    let cases: [(String, Want); 5] = [
        (
            format!(r#"{{ "type": "scale", "source": {xy}, "by": {z} }}"#),
            Box::new(|p: [f64; 3]| p[0] * p[2] * p[1] * p[2]),
        ),
        (
            format!(r#"{{ "type": "scale", "source": {xy}, "by": [{z}, 2] }}"#),
            Box::new(|p: [f64; 3]| p[0] * p[2] * p[1] * 2.0),
        ),
        (
            format!(r#"{{ "type": "offset", "source": {xy}, "by": {y} }}"#),
            Box::new(|p: [f64; 3]| (p[0] + p[1]) * (p[1] + p[1])),
        ),
        (
            format!(r#"{{ "type": "offset", "source": {xy}, "by": [0, {x}] }}"#),
            Box::new(|p: [f64; 3]| p[0] * (p[1] + p[0])),
        ),
        // A scale by a node under an offset by one: the chain rule through both.
        (
            format!(
                r#"{{ "type": "offset", "by": [{z}, 1],
                      "source": {{ "type": "scale", "source": {xy}, "by": [1, {x}] }} }}"#
            ),
            Box::new(|p: [f64; 3]| {
                let q = [p[0] + p[2], p[1] + 1.0];
                q[0] * (q[1] * q[0])
            }),
        ),
    ];
    for (node, want) in &cases {
        let mut sampler = sampler_of(node, 3);
        let mut worst = 0.0f64;
        for _ in 0..1000 {
            let p = [
                rng.range(-2.0, 2.0),
                rng.range(-2.0, 2.0),
                rng.range(-2.0, 2.0),
            ];
            worst = worst.max(check_point(node, &mut sampler, want, p, 1e-12, 1e-5));
        }
        println!(
            "{}: gradient within {worst:.1e}",
            node.split_whitespace()
                .take(4)
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}

/// Amounts given by constant nodes move the point by the same bits as the numbers (a
/// noise there is the same noise, its gradient the same); amounts past any useful size
/// (a node of ±1e30) give finite values and gradients, never a NaN; a scale by a node does
/// not tile, and says so naming the node.
#[test]
fn node_driven_scale_and_offset_amounts_as_constants_past_their_range_and_tiled() {
    let mut rng = Rng::new(59);
    let source = r#"{ "type": "simplex", "seed": 2 }"#;
    let constant = |v: f64| format!(r#"{{ "type": "constant", "value": {v:e} }}"#);
    for kind in ["scale", "offset"] {
        for amounts in [[1.75, -0.5], [3.0, 3.0], [-2.25, 0.125]] {
            let number = format!(
                r#"{{ "type": "{kind}", "source": {source}, "by": [{:e}, {:e}] }}"#,
                amounts[0], amounts[1]
            );
            let driven = format!(
                r#"{{ "type": "{kind}", "source": {source}, "by": [{}, {:e}] }}"#,
                constant(amounts[0]),
                amounts[1]
            );
            let (mut n, mut d) = (sampler_of(&number, 2), sampler_of(&driven, 2));
            for _ in 0..300 {
                let p = [rng.range(-8.0, 8.0), rng.range(-8.0, 8.0)];
                let p32 = p.map(|v| v as f32);
                let (gn, gd) = (n.value_and_gradient(&p32), d.value_and_gradient(&p32));
                assert_eq!(gn[0].to_bits(), gd[0].to_bits(), "{driven} at {p:?}");
                assert_eq!(gn[1..3], gd[1..3], "{driven} at {p:?}");
                assert_eq!(
                    n.value(&p32).to_bits(),
                    d.value(&p32).to_bits(),
                    "{driven} at {p:?}"
                );
                assert_eq!(
                    n.value_f64(&p).to_bits(),
                    d.value_f64(&p).to_bits(),
                    "{driven} at {p:?}"
                );
            }
        }
        let huge = format!(
            r#"{{ "type": "{kind}", "source": {{ "type": "fbm", "source": {source} }},
                  "by": {{ "type": "multiply", "a": 1e30, "b": {{ "type": "position", "axis": "x" }} }} }}"#
        );
        let mut huge = sampler_of(&huge, 2);
        for _ in 0..300 {
            let p = [rng.range(-8.0, 8.0) as f32, rng.range(-8.0, 8.0) as f32];
            let g = huge.value_and_gradient(&p);
            assert!(
                g.iter().all(|v| v.is_finite()),
                "{kind} by 1e30 x at {p:?}: {g:?}"
            );
            assert!(huge.value(&p).is_finite() && huge.value_f64(&p.map(|v| v as f64)).is_finite());
        }
    }
    let tiled = |node: &str| {
        let text = format!(r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {node} }} }}"#);
        Graph::from_json(&text)
            .unwrap()
            .program(2, [4.0, 4.0, 0.0, 0.0])
    };
    let e = tiled(&format!(
        r#"{{ "type": "scale", "source": {source}, "by": {{ "type": "classic" }} }}"#
    ))
    .unwrap_err();
    assert_eq!(e.path, "nodes.o", "{e}");
    assert!(e.message.contains("does not tile"), "{e}");
    // An offset by a node that tiles tiles.
    tiled(&format!(
        r#"{{ "type": "offset", "source": {source}, "by": {{ "type": "classic" }} }}"#
    ))
    .unwrap();
}

/// fBm of `x y` over 3 octaves of gain 0.5 with the lacunarity `1.5 + z / 4` given per
/// sample, in 3D: octave `k` at `p × l^k`, written out in f64, its gradient (through the
/// lacunarity: the source does not read z, so `∂/∂z` is the lacunarity's part alone)
/// against central differences; ridged and turbulence the same way.
#[test]
fn a_node_driven_lacunarity_is_evaluated_per_sample_with_its_gradient() {
    let mut rng = Rng::new(60);
    let source = r#"{ "type": "multiply", "a": { "type": "position", "axis": "x" },
                      "b": { "type": "position", "axis": "y" } }"#;
    let lacunarity = r#"{ "type": "add", "a": 1.5, "b": { "type": "multiply", "a": 0.25,
                          "b": { "type": "position", "axis": "z" } } }"#;
    let wave = |x: f64, y: f64, _z: f64| x * y;
    // Octave `n` shaped by the fractal (docs/graphs.md), with the weight Musgrave's ridges
    // carry to the next octave: `(1 − |n|)²` times the weight, the next weight
    // `clamp(2 r, 0, 1)`.
    fn shape(kind: &str, n: f64, weight: &mut f64) -> f64 {
        match kind {
            "fbm" => n,
            "turbulence" => n.abs(),
            _ => {
                let r = (1.0 - n.abs()) * (1.0 - n.abs()) * *weight;
                *weight = (2.0 * r).clamp(0.0, 1.0);
                r
            }
        }
    }
    for kind in ["fbm", "turbulence", "ridged"] {
        let mut sampler = sampler_of(
            &format!(
                r#"{{ "type": "{kind}", "source": {source}, "octaves": 3, "gain": 0.5,
                      "lacunarity": {lacunarity} }}"#
            ),
            3,
        );
        let want = |p: [f64; 3]| {
            let l = 1.5 + p[2] / 4.0;
            let (mut sum, mut norm, mut f, mut a, mut weight) = (0.0, 0.0, 1.0, 1.0, 1.0);
            for _ in 0..3 {
                sum += a * shape(kind, wave(p[0] * f, p[1] * f, p[2] * f), &mut weight);
                norm += a;
                f *= l;
                a *= 0.5;
            }
            sum / norm
        };
        let mut worst = 0.0f64;
        for _ in 0..1000 {
            let p = [
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-2.0, 2.0),
            ];
            // Ridges and turbulence have kinks where `x y` is 0: a point that near one is
            // skipped.
            let near_kink = (0..3).any(|k| {
                let l: f64 = 1.5 + p[2] / 4.0;
                wave(p[0] * l.powi(k), p[1] * l.powi(k), p[2] * l.powi(k)).abs() < 1e-3
            });
            if kind != "fbm" && near_kink {
                continue;
            }
            worst = worst.max(check_point(kind, &mut sampler, &want, p, 1e-12, 2e-5));
        }
        println!("{kind} with lacunarity 1.5 + z/4: gradient within {worst:.1e}");
    }
}

/// A lacunarity given by a constant node is the number's, bit for bit (values in f32 and
/// f64, gradients); past the number's range, 1/64 to 64, it is clamped per sample to that
/// end; a lacunarity given by a node does not tile, and says so naming the parameter.
#[test]
fn a_node_driven_lacunarity_is_clamped_to_its_range_and_does_not_tile() {
    let mut rng = Rng::new(61);
    let mut worst = 0.0f64;
    let constant = |v: f64| format!(r#"{{ "type": "constant", "value": {v:e} }}"#);
    let fbm = |l: &str| {
        sampler_of(
            &format!(
                r#"{{ "type": "fbm", "source": {{ "type": "simplex" }}, "octaves": 4,
                      "lacunarity": {l} }}"#
            ),
            2,
        )
    };
    for (driven, number) in [
        (constant(-3.0), 1.0 / 64.0),
        (constant(0.0), 1.0 / 64.0),
        (constant(0.5), 0.5),
        (constant(2.0), 2.0),
        (constant(3.7), 3.7),
        (constant(1e30), 64.0),
    ] {
        let (mut d, mut n) = (fbm(&driven), fbm(&format!("{number:e}")));
        for _ in 0..300 {
            let p = [rng.range(-8.0, 8.0), rng.range(-8.0, 8.0)];
            let p32 = p.map(|v| v as f32);
            let (gd, gn) = (d.value_and_gradient(&p32), n.value_and_gradient(&p32));
            assert!(
                gd.iter().all(|v| v.is_finite()),
                "{driven} at {p:?}: {gd:?}"
            );
            assert_eq!(gd[0].to_bits(), gn[0].to_bits(), "{driven} at {p:?}");
            assert_eq!(gd[1..3], gn[1..3], "{driven} at {p:?}");
            assert_eq!(
                d.value(&p32).to_bits(),
                n.value(&p32).to_bits(),
                "{driven} at {p:?}"
            );
            // In f64 the number's powers `l^k` are rounded to f32 as the fractal computes
            // them, a node's are f64 products: equal up to that rounding of the frequency
            // (2⁻²⁴ relative) times the point and the noise's slope (measured: within 1e-5
            // at |p| ≤ 8, 4 octaves of lacunarity 3.7: 4.9e-6).
            let (vd, vn) = (d.value_f64(&p), n.value_f64(&p));
            worst = worst.max((vd - vn).abs());
            assert!((vd - vn).abs() <= 1e-5, "{driven} at {p:?}: {vd} vs {vn}");
        }
    }
    println!("f64: a constant node's lacunarity within {worst:.1e} of the number's");
    let text = r#"{ "version": 1, "output": "o", "nodes": { "o": { "type": "fbm",
                    "source": { "type": "simplex" }, "lacunarity": { "type": "classic" } } } }"#;
    let e = Graph::from_json(text)
        .unwrap()
        .program(2, [4.0, 4.0, 0.0, 0.0])
        .unwrap_err();
    assert_eq!(e.path, "nodes.o.lacunarity", "{e}");
    assert!(e.message.contains("does not tile"), "{e}");
}

/// The random graphs of the lane, GPU and gradient tests (`tests/common/graphs.rs`) draw
/// every driven form above: counted over 600 graphs of the lane test's shapes.
/// A rotation by the point's z: in xy, `(cos z · x − sin z · y, sin z · x + cos z · y)`,
/// here its x (the `position` x of the turned point) and its y, written out in f64 (the
/// sine and cosine are the `sine` node's `f32` operations, within 1.5e-7 of `sin`, so the
/// values within 2e-7 of the formula's); the gradient (through the angle too: `∂/∂z` is the
/// point turned a quarter more) against central differences.
#[test]
fn a_node_driven_rotation_angle_is_evaluated_per_sample_with_its_gradient() {
    let mut rng = Rng::new(49);
    for (axis, turned) in [("x", 0), ("y", 1)] {
        let mut sampler = sampler_of(
            &format!(
                r#"{{ "type": "rotate", "plane": "xy",
                      "source": {{ "type": "position", "axis": "{axis}" }},
                      "angle": {{ "type": "position", "axis": "z" }} }}"#
            ),
            3,
        );
        let want = |p: [f64; 3]| {
            let (s, c) = p[2].sin_cos();
            [c * p[0] - s * p[1], s * p[0] + c * p[1]][turned]
        };
        let mut worst = 0.0f64;
        for _ in 0..2000 {
            let p = [
                rng.range(-4.0, 4.0),
                rng.range(-4.0, 4.0),
                rng.range(-7.0, 7.0),
            ];
            worst = worst.max(check_point(axis, &mut sampler, &want, p, 2e-7, 1e-4));
        }
        println!("rotation by z, turned {axis}: gradient within {worst:.1e}");
    }
}

/// A driven angle is clamped to ±1e4 (the number's range): past it the rotation is that of
/// ±1e4, the same values, and its slope in the angle 0; a constant node's angle turns
/// the point as the number does, within the sine's 1.5e-7.
#[test]
fn a_node_driven_rotation_angle_is_clamped_and_a_constant_is_the_number() {
    let mut rng = Rng::new(50);
    let node = |angle: &str| {
        sampler_of(
            &format!(
                r#"{{ "type": "rotate", "plane": "xz", "angle": {angle},
                      "source": {{ "type": "simplex" }} }}"#
            ),
            3,
        )
    };
    let (mut past, mut at) = (
        node(r#"{ "type": "constant", "value": 3e4 }"#),
        node(r#"{ "type": "constant", "value": 1e4 }"#),
    );
    let (mut constant, mut number) = (node(r#"{ "type": "constant", "value": 0.8 }"#), node("0.8"));
    for _ in 0..500 {
        let p = [
            rng.range(-8.0, 8.0) as f32,
            rng.range(-8.0, 8.0) as f32,
            rng.range(-8.0, 8.0) as f32,
        ];
        assert_eq!(
            past.value_and_gradient(&p),
            at.value_and_gradient(&p),
            "at {p:?}"
        );
        let (a, b) = (constant.value(&p), number.value(&p));
        assert!((a - b).abs() <= 1e-5, "constant 0.8 at {p:?}: {a} vs {b}");
    }
}

#[test]
fn random_graphs_draw_every_driven_parameter() {
    use crate::common::graphs::{random_graph, Shape};
    use serde_json::Value;
    fn driven(v: &Value) -> bool {
        match v {
            Value::Number(_) => false,
            Value::Array(items) => items.iter().any(driven),
            _ => true,
        }
    }
    fn count(v: &Value, counts: &mut std::collections::BTreeMap<String, usize>) {
        match v {
            Value::Object(map) => {
                let ty = map.get("type").and_then(Value::as_str).unwrap_or("");
                for key in [
                    "k",
                    "gain",
                    "from",
                    "to",
                    "smoothness",
                    "exponent",
                    "by",
                    "lacunarity",
                    "position",
                    "angle",
                    "jitter",
                    "frequency",
                    "min",
                    "max",
                    "point",
                    "multiplier",
                    "offset",
                    "scale",
                ] {
                    if map.get(key).is_some_and(driven) {
                        *counts.entry(format!("{ty}.{key}")).or_default() += 1;
                    }
                }
                map.values().for_each(|v| count(v, counts));
            }
            Value::Array(items) => items.iter().for_each(|v| count(v, counts)),
            _ => {}
        }
    }
    let mut rng = Rng::new(20_261_123);
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..600 {
        let shape = Shape {
            dims: 2 + rng.below(3) as usize,
            depth: 1 + rng.below(6) as usize,
            differentiable: false,
        };
        count(&random_graph(&mut rng, shape), &mut counts);
    }
    println!("driven parameters in 600 random graphs: {counts:?}");
    for key in [
        "clamp.min",
        "clamp.max",
        "smooth-min.k",
        "smooth-max.k",
        "remap.from",
        "remap.to",
        "terrace.smoothness",
        "pow.exponent",
        "scale.by",
        "offset.by",
        "fbm.lacunarity",
        "ridged.lacunarity",
        "turbulence.lacunarity",
        "add-dimension.position",
        "rotate.angle",
        "cellular.jitter",
        "cellular-lookup.frequency",
        "warp.frequency",
        "warp.lacunarity",
        "warp.gain",
        "distance.point",
        "distance.exponent",
        "linear.multiplier",
        "linear.offset",
        "sine.scale",
    ] {
        assert!(
            counts.get(key).copied().unwrap_or(0) >= 5,
            "{key}: {counts:?}"
        );
    }
}

/// A warp's parameters at one point, as numbers.
#[derive(Clone, Copy)]
struct WarpParameters {
    amplitude: f64,
    frequency: f64,
    lacunarity: f64,
    gain: f64,
}

/// The point a warp of `noise` (`progressive` or independent, `octaves`, `iterations`)
/// moves `p` to, written out in f64 from the plain noise functions (docs/graphs.md,
/// `warp`): an independent warp's iteration `i` displaces `p` by `Σₖ gᵏ n((q f + s) lᵏ) / Σₖ
/// gᵏ` of the last point `q`; a progressive warp's octave `k` moves `q` by `a gᵏ / Σⱼ gʲ`
/// times `n(q f lᵏ + s)`. `s` is the shift `WARP_SHIFT × times`, `times` per axis (or the
/// first axis's for a warp of vectors); the lacunarity clamped to 1/64–64.
fn warped(
    noise: &str,
    progressive: bool,
    octaves: i32,
    iterations: usize,
    w: WarpParameters,
    p: &[f64],
) -> Vec<f64> {
    use crate::graph_warps::warp_noise;
    use wgpu_noise::cpu::warp::WARP_SHIFT;
    let lut = wgpu_noise::tables::PermutationTables::new(3);
    let dims = p.len();
    let (f, g) = (w.frequency, w.gain);
    let l = w.lacunarity.clamp(1.0 / 64.0, 64.0);
    let norm: f64 = (0..octaves).map(|k| g.powi(k)).sum();
    let times = |step: usize, b: usize| {
        if noise.ends_with("vector") {
            step * dims + 1
        } else {
            step * dims + b + 1
        }
    };
    let mut q = p.to_vec();
    if progressive {
        for k in 0..octaves {
            let fk = f * l.powi(k);
            let d: Vec<f64> = (0..dims)
                .map(|b| {
                    let at: Vec<f64> = (0..dims)
                        .map(|c| q[c] * fk + WARP_SHIFT[c] * times(k as usize, b) as f64)
                        .collect();
                    warp_noise(&lut, noise, &at, b)
                })
                .collect();
            for b in 0..dims {
                q[b] += w.amplitude * g.powi(k) / norm * d[b];
            }
        }
        return q;
    }
    for i in 0..iterations {
        let d: Vec<f64> = (0..dims)
            .map(|b| {
                let sum: f64 = (0..octaves)
                    .map(|k| {
                        let at: Vec<f64> = (0..dims)
                            .map(|c| (q[c] * f + WARP_SHIFT[c] * times(i, b) as f64) * l.powi(k))
                            .collect();
                        g.powi(k) * warp_noise(&lut, noise, &at, b)
                    })
                    .sum();
                sum / norm
            })
            .collect();
        q = (0..dims).map(|b| p[b] + w.amplitude * d[b]).collect();
    }
    q
}

/// A warp's `frequency` `1.25 + y / 4`, `lacunarity` `2 + x / 4` and `gain` `0.5 + y / 8`,
/// each given by nodes of the point: the warped coordinates (the source is `position`)
/// against the warp written out in f64, and their f32 gradients (through the parameters
/// too) against central differences of it; each noise, independent (two iterations) and
/// progressive, three octaves.
#[test]
fn node_driven_warp_frequency_lacunarity_and_gain_are_evaluated_per_sample_with_their_gradient() {
    let mut rng = Rng::new(62);
    let linear = |a: f64, b: f64, axis: &str| {
        format!(
            r#"{{ "type": "add", "a": {a}, "b": {{ "type": "multiply", "a": {b},
                  "b": {{ "type": "position", "axis": "{axis}" }} }} }}"#
        )
    };
    let (frequency, lacunarity, gain) = (
        linear(1.25, 0.25, "y"),
        linear(2.0, 0.25, "x"),
        linear(0.5, 0.125, "y"),
    );
    let parameters = |p: [f64; 2]| WarpParameters {
        amplitude: 0.75,
        frequency: 1.25 + 0.25 * p[1],
        lacunarity: 2.0 + 0.25 * p[0],
        gain: 0.5 + 0.125 * p[1],
    };
    for noise in ["simplex", "classic", "value", "vector", "simplex-vector"] {
        for progressive in [false, true] {
            let (fractal, iterations) = if progressive {
                ("progressive", 1)
            } else {
                ("independent", 2)
            };
            let (mut worst, mut worst_fixed, mut mean, mut mean_fixed) = (0.0f64, 0.0f64, 0.0, 0.0);
            for axis in 0..2 {
                let text = format!(
                    r#"{{ "type": "warp", "noise": "{noise}", "fractal": "{fractal}",
                          "source": {{ "type": "position", "axis": "{}" }}, "amplitude": 0.75,
                          "octaves": 3, "iterations": {iterations}, "frequency": {frequency},
                          "lacunarity": {lacunarity}, "gain": {gain} }}"#,
                    ["x", "y"][axis]
                );
                let graph = Graph::from_json(&format!(
                    r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {text} }} }}"#
                ))
                .unwrap();
                let mut sampler = graph.sampler(2, 3).unwrap();
                let want = |p: [f64; 2]| {
                    warped(noise, progressive, 3, iterations, parameters(p), &p)[axis]
                };
                // The same warp of the parameters' numbers at the origin.
                let numbers = parameters([0.0, 0.0]);
                let mut fixed = Graph::from_json(&format!(
                    r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {} }} }}"#,
                    text.replace(&frequency, "1.25")
                        .replace(&lacunarity, "2")
                        .replace(&gain, "0.5")
                ))
                .unwrap()
                .sampler(2, 3)
                .unwrap();
                let fixed_want =
                    |p: [f64; 2]| warped(noise, progressive, 3, iterations, numbers, &p)[axis];
                for _ in 0..100 {
                    let p = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)];
                    let label = format!("{noise} {fractal} axis {axis}");
                    let error = check_point(&label, &mut sampler, &want, p, 1e-9, 5e-2);
                    // The numbers' progressive weights are f32 constants (rounded by 6e-8),
                    // carried through the later octaves' points (measured: 2.8e-7).
                    let numbers = format!("{label}, numbers");
                    let fixed_error = check_point(&numbers, &mut fixed, &fixed_want, p, 1e-5, 5e-2);
                    worst = worst.max(error);
                    worst_fixed = worst_fixed.max(fixed_error);
                    mean += error / 200.0;
                    mean_fixed += fixed_error / 200.0;
                }
            }
            // The f32 gradient errs by the rounding of the octaves' points (the shifts reach
            // 4 × 61 before the lacunarity's powers, where f32's step is 3e-5) times the
            // noise's curvature and the chain's factors: through the lacunarity `(q f + s)
            // k lᵏ⁻¹ ∇l`, which carries the shift. So it errs most where the noise's slope
            // is near 0 (measured: up to 2.3e-2 of `1 + |slope|`, the numbers' warp 3.1e-3);
            // a missing term of the chain rule would err by about its own size, on average
            // too (measured means 1e-5 to 8.3e-4, both printed).
            println!(
                "{noise} {fractal}: gradient within {worst:.1e} (mean {mean:.1e}), \
                 the numbers' warp {worst_fixed:.1e} (mean {mean_fixed:.1e})"
            );
            assert!(mean <= 2e-3, "{noise} {fractal}: mean error {mean}");
        }
    }
}

/// The graph of a warp of `noise` over `position` x with the given parameter texts.
fn warp_sampler(
    noise: &str,
    fractal: &str,
    frequency: &str,
    lacunarity: &str,
    gain: &str,
    dims: usize,
) -> wgpu_noise::graph::Sampler {
    let iterations = if fractal == "progressive" { 1 } else { 2 };
    sampler_of(
        &format!(
            r#"{{ "type": "warp", "noise": "{noise}", "fractal": "{fractal}",
                  "source": {{ "type": "position", "axis": "x" }}, "amplitude": 0.6,
                  "octaves": 3, "iterations": {iterations}, "frequency": {frequency},
                  "lacunarity": {lacunarity}, "gain": {gain} }}"#
        ),
        dims,
    )
}

/// A warp's frequency, lacunarity and gain given by constant nodes are the numbers, bit
/// for bit in f32 (values and gradients, every warp noise, both fractals); past the
/// lacunarity's range, 1/64 to 64, it is that end's; values of ±1e30 keep every output
/// finite; gains whose sum is 0 divide to 0, leaving the point where it was; a node's
/// frequency or lacunarity does not tile, and says so naming the parameter.
#[test]
fn node_driven_warp_parameters_as_constants_past_their_range_and_tiled() {
    let mut rng = Rng::new(63);
    let constant = |v: f64| format!(r#"{{ "type": "constant", "value": {v:e} }}"#);
    let (mut worst, mut worst_gradient) = (0.0f64, 0.0f32);
    for noise in [
        "simplex",
        "classic",
        "value",
        "vector",
        "supersimplex-vector",
        "simplex-vector",
    ] {
        for fractal in ["independent", "progressive"] {
            for (driven, number) in [
                (
                    [constant(1.25), "1.75".into(), "0.6".into()],
                    ["1.25", "1.75", "0.6"],
                ),
                (
                    ["1.25".into(), constant(1.75), "0.6".into()],
                    ["1.25", "1.75", "0.6"],
                ),
                (
                    ["1.25".into(), "1.75".into(), constant(0.6)],
                    ["1.25", "1.75", "0.6"],
                ),
                (
                    [constant(0.8), constant(2.5), constant(-0.4)],
                    ["0.8", "2.5", "-0.4"],
                ),
                (
                    ["1".into(), constant(1e30), "0.5".into()],
                    ["1", "64", "0.5"],
                ),
                (
                    ["1".into(), constant(-3.0), "0.5".into()],
                    ["1", "0.015625", "0.5"],
                ),
            ] {
                let mut d = warp_sampler(noise, fractal, &driven[0], &driven[1], &driven[2], 3);
                let mut n = warp_sampler(noise, fractal, number[0], number[1], number[2], 3);
                let label = format!("{noise} {fractal} {driven:?}");
                for _ in 0..40 {
                    let p = [
                        rng.range(-4.0, 4.0),
                        rng.range(-4.0, 4.0),
                        rng.range(-4.0, 4.0),
                    ];
                    let p32 = p.map(|v| v as f32);
                    assert_eq!(
                        d.value(&p32).to_bits(),
                        n.value(&p32).to_bits(),
                        "{label} at {p:?}"
                    );
                    let (gd, gn) = (d.value_and_gradient(&p32), n.value_and_gradient(&p32));
                    if number[2] == driven[2] {
                        assert_eq!(
                            gd.map(f32::to_bits),
                            gn.map(f32::to_bits),
                            "{label} at {p:?}"
                        );
                    } else {
                        // A node's gain divides by the weights' sum by the quotient rule
                        // (`divide`'s weights 1/Σ and −s/Σ², the latter times a zero
                        // gradient), the number's fractal by Σ: the gradients ulps apart.
                        for a in 1..4 {
                            let error = (gd[a] - gn[a]).abs() / (1.0 + gn[a].abs());
                            worst_gradient = worst_gradient.max(error);
                            assert!(error <= 1e-6, "{label} at {p:?}: {gd:?} vs {gn:?}");
                        }
                    }
                    // In f64 the numbers' powers and weights are f32 constants, the nodes'
                    // f64 products and quotients.
                    let (vd, vn) = (d.value_f64(&p), n.value_f64(&p));
                    worst = worst.max((vd - vn).abs());
                    assert!((vd - vn).abs() <= 1e-4, "{label} at {p:?}: {vd} vs {vn}");
                }
            }
            // Beyond any useful value: finite everywhere.
            for driven in [
                [constant(1e30), "2".into(), "0.5".into()],
                [constant(-1e30), "2".into(), "0.5".into()],
                ["1".into(), "2".into(), constant(1e30)],
                ["1".into(), "2".into(), constant(-1e30)],
                [constant(1e30), constant(1e30), constant(1e30)],
            ] {
                let mut d = warp_sampler(noise, fractal, &driven[0], &driven[1], &driven[2], 3);
                for _ in 0..20 {
                    let p = [
                        rng.range(-4.0, 4.0),
                        rng.range(-4.0, 4.0),
                        rng.range(-4.0, 4.0),
                    ];
                    let p32 = p.map(|v| v as f32);
                    let g = d.value_and_gradient(&p32);
                    let (v, v64) = (d.value(&p32), d.value_f64(&p));
                    assert!(
                        g.iter().all(|v| v.is_finite()) && v.is_finite() && v64.is_finite(),
                        "{noise} {fractal} {driven:?} at {p:?}: {g:?} {v} {v64}"
                    );
                }
            }
        }
    }
    println!(
        "f64: constant nodes' warp parameters within {worst:.1e} of the numbers'; \
         gradients of a constant node's gain within {worst_gradient:.1e}"
    );
    // Three octaves of gain −0.5 ± √0.75 i have no real root; two of gain −1 sum to 0: the
    // number is refused, a node's displacement divides to 0.
    for fractal in ["independent", "progressive"] {
        let text = format!(
            r#"{{ "type": "warp", "fractal": "{fractal}", "source": {{ "type": "position", "axis": "x" }},
                  "amplitude": 0.6, "octaves": 2, "gain": {} }}"#,
            constant(-1.0)
        );
        let mut d = sampler_of(&text, 2);
        for _ in 0..20 {
            let p = [rng.range(-4.0, 4.0), rng.range(-4.0, 4.0)];
            assert_eq!(d.value_f64(&p), p[0], "{fractal} at {p:?}");
            let g = d.value_and_gradient(&p.map(|v| v as f32));
            assert_eq!(g[..3], [p[0] as f32, 1.0, 0.0], "{fractal} at {p:?}");
        }
        let refused = Graph::from_json(&format!(
            r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {} }} }}"#,
            text.replace(&constant(-1.0), "-1")
        ))
        .unwrap()
        .program(2, [0.0; 4])
        .unwrap_err();
        assert!(refused.message.contains("sum to 0"), "{refused}");
    }
    for key in ["frequency", "lacunarity"] {
        let text = format!(
            r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {{ "type": "warp", "amplitude": 0.5,
                  "source": {{ "type": "simplex" }}, "{key}": {{ "type": "classic" }} }} }} }}"#
        );
        let e = Graph::from_json(&text)
            .unwrap()
            .program(2, [4.0, 4.0, 0.0, 0.0])
            .unwrap_err();
        assert_eq!(e.path, format!("nodes.o.{key}"), "{e}");
        assert!(e.message.contains("does not tile"), "{e}");
    }
    let e = Graph::from_json(
        r#"{ "version": 1, "output": "o", "nodes": { "o": { "type": "warp", "amplitude": 0.5,
             "source": { "type": "simplex" }, "frequency": 0 } } }"#,
    )
    .unwrap_err();
    assert_eq!(e.path, "nodes.o.frequency", "{e}");
}

/// `distance` to a point whose x is the sample's y and whose y is 0.25, its Minkowski
/// exponent `1.2 + (z + 2) / 2` (the point's z remapped onto 1.2–3.2), in 3D: `(Σ |d|^e)^(1/e)`
/// written out in f64, its gradient (through the point and the exponent) against central
/// differences; and `linear` with `multiplier` `[1, z]` and `offset` `[x, 0.5]`.
#[test]
fn node_driven_distance_and_linear_parameters_are_evaluated_per_sample_with_their_gradient() {
    let mut rng = Rng::new(71);
    let x = r#"{ "type": "position", "axis": "x" }"#;
    let y = r#"{ "type": "position", "axis": "y" }"#;
    let z = r#"{ "type": "position", "axis": "z" }"#;
    let exponent =
        format!(r#"{{ "type": "remap", "source": {z}, "from": [-2, 2], "to": [1.2, 3.2] }}"#);
    let mut distance = sampler_of(
        &format!(
            r#"{{ "type": "distance", "point": [{y}, 0.25], "metric": "minkowski", "exponent": {exponent} }}"#
        ),
        3,
    );
    let mut linear = sampler_of(
        &format!(r#"{{ "type": "linear", "multiplier": [1, {z}], "offset": [{x}, 0.5] }}"#),
        3,
    );
    let distance_want = |p: [f64; 3]| {
        let e = 1.2 + (p[2] + 2.0) * 2.0 / 4.0;
        let d = [p[0] - p[1], p[1] - 0.25, p[2]];
        d.iter().map(|d| d.abs().powf(e)).sum::<f64>().powf(1.0 / e)
    };
    let linear_want = |p: [f64; 3]| (p[0] + p[0]) + (p[1] + 0.5) * p[2] + p[2];
    let (mut worst_distance, mut worst_linear) = (0.0f64, 0.0f64);
    let mut checked = 0;
    for _ in 0..2000 {
        let p = [
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
            rng.range(-2.0, 2.0),
        ];
        worst_linear = worst_linear.max(check_point(
            "linear",
            &mut linear,
            &linear_want,
            p,
            1e-12,
            1e-6,
        ));
        // Away from the zeros of the differences, where `|d|^e` bends fastest.
        if [p[0] - p[1], p[1] - 0.25, p[2]]
            .iter()
            .any(|d| d.abs() < 0.05)
        {
            continue;
        }
        checked += 1;
        let w = check_point("distance", &mut distance, &distance_want, p, 1e-6, 1e-5);
        worst_distance = worst_distance.max(w);
    }
    println!(
        "driven distance: {checked} samples, gradient within {worst_distance:.1e}; \
         driven linear: gradient within {worst_linear:.1e}"
    );
    assert!(checked > 1000, "{checked}");
}

/// Numbers keep their operations: a point, an offset and a multiplier given by constant
/// nodes compute the numbers' values and gradients bit for bit; an exponent given by a
/// constant node the number's in f32, and in f64 within the rounding of the number's `1/e`
/// to f32; a driven exponent is clamped to 0.25–16 per sample: past the ends it
/// is the end's distance.
#[test]
fn distance_and_linear_parameters_given_by_constant_nodes_are_the_numbers() {
    let mut rng = Rng::new(72);
    let constant = |v: f64| format!(r#"{{ "type": "constant", "value": {v} }}"#);
    let pairs = [
        (
            r#"{ "type": "distance", "point": [0.5, -1.25], "metric": "hybrid" }"#.to_string(),
            format!(
                r#"{{ "type": "distance", "point": [{}, {}], "metric": "hybrid" }}"#,
                constant(0.5),
                constant(-1.25)
            ),
        ),
        (
            r#"{ "type": "linear", "multiplier": [0.75, -2], "offset": [1.5, 0.25] }"#.to_string(),
            format!(
                r#"{{ "type": "linear", "multiplier": [{}, -2], "offset": [1.5, {}] }}"#,
                constant(0.75),
                constant(0.25)
            ),
        ),
    ];
    for (number, node) in &pairs {
        let (mut a, mut b) = (sampler_of(number, 2), sampler_of(node, 2));
        for _ in 0..500 {
            let p = [rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)];
            let p32 = p.map(|v| v as f32);
            assert_eq!(
                a.value_f64(&p).to_bits(),
                b.value_f64(&p).to_bits(),
                "{node} at {p:?}"
            );
            let (ga, gb) = (a.value_and_gradient(&p32), b.value_and_gradient(&p32));
            assert_eq!(
                ga.map(f32::to_bits),
                gb.map(f32::to_bits),
                "{node} at {p:?}"
            );
        }
    }
    let minkowski = |e: &str| {
        sampler_of(
            &format!(
                r#"{{ "type": "distance", "point": [0.5, -1.25], "metric": "minkowski", "exponent": {e} }}"#
            ),
            2,
        )
    };
    let mut worst = 0.0f64;
    for (number, node) in [(2.5, 2.5), (0.25, 0.1), (16.0, 40.0), (0.25, -3.0)] {
        let (mut a, mut b) = (minkowski(&number.to_string()), minkowski(&constant(node)));
        for _ in 0..300 {
            let p = [rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)];
            let (va, vb) = (a.value_f64(&p), b.value_f64(&p));
            let error = (va - vb).abs() / (1.0 + va.abs());
            // The number's root `1/e` is rounded to f32 when the graph is lowered, a node's
            // is not (measured 1.3e-8 at e = 2.5).
            assert!(
                error <= 1e-7,
                "exponent {node} at {p:?}: {vb} vs the number {number}'s {va}"
            );
            // In f32 the two forms are the same operations: `1/e` is divided in f32 by both,
            // and `pow` by a number and of two values share their function and slope.
            let p32 = p.map(|v| v as f32);
            let (ga, gb) = (a.value_and_gradient(&p32), b.value_and_gradient(&p32));
            assert_eq!(ga, gb, "exponent {node} at {p:?}");
            worst = worst.max(error);
        }
    }
    println!(
        "constant-node Minkowski exponents within {worst:.1e} of the numbers' in f64, equal in f32"
    );
}

/// `exponent` is read for `minkowski` only: a node given for another metric is not evaluated
/// (the graph lowers to the operations of the number's).
#[test]
fn a_driven_exponent_of_another_metric_is_not_evaluated() {
    let ops = |exponent: &str, metric: &str| {
        let text = format!(
            r#"{{ "version": 1, "output": "o", "nodes": {{ "o": {{ "type": "distance",
                  "metric": "{metric}", "exponent": {exponent} }} }} }}"#
        );
        Graph::from_json(&text)
            .unwrap()
            .program(3, [0.0; 4])
            .unwrap()
            .ops()
            .len()
    };
    let driven = r#"{ "type": "fbm", "source": { "type": "simplex" } }"#;
    for metric in [
        "euclidean",
        "manhattan",
        "chebyshev",
        "hybrid",
        "euclidean-squared",
    ] {
        assert_eq!(ops(driven, metric), ops("2", metric), "{metric}");
    }
    assert!(ops(driven, "minkowski") > ops("2", "minkowski"));
}

/// A node-driven sine scale: axis `a`'s factor `sin(pₐ / sₐ)` with `sₐ` the node's value at
/// the sample, so its gradient gains `−cos(pₐ / s) pₐ / s² ∇s` (written out in f64 here; the
/// number's axes keep their frequency rounded to f32, within 1e-6 of `1 / scale`).
#[test]
fn a_node_driven_sine_scale_is_evaluated_per_sample_with_its_gradient() {
    let mut rng = Rng::new(73);
    let z = r#"{ "type": "position", "axis": "z" }"#;
    let scale =
        format!(r#"{{ "type": "remap", "source": {z}, "from": [-2, 2], "to": [0.5, 2.5] }}"#);
    let mut sampler = sampler_of(
        &format!(r#"{{ "type": "sine", "scale": [{scale}, 1.5] }}"#),
        3,
    );
    let want = |p: [f64; 3]| {
        let s = 0.5 + (p[2] + 2.0) * 2.0 / 4.0;
        (p[0] / s).sin() * (p[1] / 1.5).sin() * p[2].sin()
    };
    let mut worst = 0.0f64;
    for _ in 0..2000 {
        let p = [
            rng.range(-4.0, 4.0),
            rng.range(-4.0, 4.0),
            rng.range(-2.0, 2.0),
        ];
        worst = worst.max(check_point("sine", &mut sampler, &want, p, 1e-6, 1e-5));
    }
    println!("sine scaled by z: gradient within {worst:.1e}");
}

/// A driven sine scale is clamped to the number's range, 1e-6–1e6, per sample: past its ends
/// it is the end's sine, values and gradients bit for bit (the clamp's slope is 0 there). A
/// constant node's scale is the number's in f32, values and gradients, as `1 / s` divided in
/// f32 rounds once as the number's `f64` quotient rounded to f32 does; in f64 within the
/// rounding of the number's frequency to f32.
#[test]
fn a_node_driven_sine_scale_is_clamped_and_a_constant_is_the_number() {
    let mut rng = Rng::new(74);
    let constant = |v: f64| format!(r#"{{ "type": "constant", "value": {v} }}"#);
    let sine = |scale: &str| {
        sampler_of(
            &format!(r#"{{ "type": "sine", "scale": [1.25, {scale}] }}"#),
            2,
        )
    };
    let mut worst = 0.0f64;
    for (number, node) in [
        (0.75, 0.75),
        (3.0, 3.0),
        (1e-6, -2.0),
        (1e-6, 0.0),
        (1e6, 4e7),
    ] {
        let (mut a, mut b) = (sine(&number.to_string()), sine(&constant(node)));
        for _ in 0..300 {
            let p = [rng.range(-6.0, 6.0), rng.range(-6.0, 6.0)];
            let p32 = p.map(|v| v as f32);
            assert_eq!(
                a.value_and_gradient(&p32).map(f32::to_bits),
                b.value_and_gradient(&p32).map(f32::to_bits),
                "scale {node} at {p:?}"
            );
            // At the scale 1e-6 the argument reaches 6e6, where the frequency's rounding
            // to f32 moves it by 0.4: there the f32 bits above are the statement.
            if number == 1e-6 {
                continue;
            }
            let (va, vb) = (a.value_f64(&p), b.value_f64(&p));
            let error = (va - vb).abs();
            // The argument `p × (1 / s)` differs by the frequency's rounding to f32 (2⁻²⁴
            // relative): at most 6 × 2⁻²⁴ / 0.75 = 4.8e-7 here.
            assert!(
                error <= 5e-7,
                "scale {node} at {p:?}: {vb} vs the number {number}'s {va}"
            );
            worst = worst.max(error);
        }
    }
    println!("constant-node sine scales within {worst:.1e} of the numbers' in f64, equal in f32");
}
