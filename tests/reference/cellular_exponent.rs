//! A cellular node whose Minkowski `exponent` is a node, and a cellular lookup whose `jitter`
//! and `exponent` are (docs/graphs.md, `cellular`, `cellular-lookup`): per sample the node's
//! value, clamped to the number's range, is the parameter. Values against the f64 brute
//! force of `cellular_metrics` at that exponent; constant nodes against the numbers; the
//! gradient's exponent term against central differences along the exponent itself; the
//! lookup's gradient against central differences of the whole graph.

use crate::cellular_metrics::{brute, cellular, output_of, points, sampler, Agreement};
use crate::common::graphs::{choices, Rng};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::gpu::LookupVariant;
use wgpu_noise::graph::{Graph, Node, Sampler};
use wgpu_noise::tables::PermutationTables;

/// The outputs checked: each search (two features, four) and a pair.
const OUTPUTS: [&str; 6] = ["f1", "f2", "f2-f1", "f3", "f4", "add"];

/// Minkowski cellular noise with its exponent given by `exponent`, a node.
fn driven(output: &str, exponent: Node) -> Node {
    cellular("minkowski", 1.5, output, [1, 3], 1.0).with_input("exponent", exponent)
}

/// The brute force's output at `p` with the exponent `e` (clamped to 1..16 and rounded to
/// f32: a source parameter's type, which the f64 evaluator takes a driven one in too).
fn want(lut: &impl NoiseHasher, p: &[f64], e: f64, output: &str) -> f64 {
    let e = e.clamp(1.0, 16.0) as f32 as f64;
    let sorted = brute(lut, p, 1.0, "minkowski", e);
    output_of(output, [1, 3], &sorted).expect("a distance output")
}

/// Per sample, the exponent is the node's value there: driven by the point's x (0.5..17, so
/// clamped at both ends too) and by constants inside and outside 1..16, the outputs above,
/// 2D to 4D, both lookups: the brute force's values within 1e-9 (relative) in f64 and 1e-4
/// in f32.
#[test]
fn a_driven_exponent_is_the_brute_forces_exponent_at_each_sample() {
    let mut rng = Rng::new(71);
    let tables = PermutationTables::new(3);
    let hash = IntegerHasher::new(3);
    let mut agreement = Agreement::default();
    for dims in 2..=4 {
        for output in OUTPUTS {
            for variant in [LookupVariant::Textures, LookupVariant::Hash] {
                let constant = *rng.pick(&[0.5, 1.0, 1.7, 3.0, 9.5, 16.0, 20.0]);
                let drivers = [
                    (Node::position(0), None),
                    (Node::constant(constant), Some(constant)),
                ];
                for (driver, fixed) in drivers {
                    let mut s = sampler(&driven(output, driver), dims, variant);
                    for mut p in points(&mut rng, dims, 8.0, [0, 0, 40, 20, 10][dims]) {
                        if fixed.is_none() {
                            p[0] = rng.range(0.5, 17.0) as f32 as f64;
                        }
                        let e = fixed.unwrap_or(p[0]);
                        let w = match variant {
                            LookupVariant::Textures => want(&tables, &p, e, output),
                            LookupVariant::Hash => want(&hash, &p, e, output),
                        };
                        agreement.check(&mut s, &p, w, || {
                            format!("{output} {dims}D {variant:?} exponent {e}")
                        });
                    }
                }
            }
        }
    }
    agreement.report("DRIVEN EXPONENT", 1500);
}

/// A `constant` node as the exponent is the number: the same f32 values and gradients (the
/// constant's gradient is 0), every output, 2D to 4D.
#[test]
fn a_constant_exponent_node_is_the_number() {
    let mut rng = Rng::new(72);
    for dims in 2..=4 {
        for &output in choices("cellular", "output") {
            let e = rng.range(1.0, 16.0) as f32 as f64;
            let number = cellular("minkowski", e, output, [1, 3], 1.0);
            let node = driven(output, Node::constant(e));
            let (mut a, mut b) = (
                sampler(&number, dims, LookupVariant::Hash),
                sampler(&node, dims, LookupVariant::Hash),
            );
            for p in points(&mut rng, dims, 50.0, 60) {
                let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                let (x, y) = (a.value_and_gradient(&p32), b.value_and_gradient(&p32));
                assert_eq!(x, y, "{output} {dims}D exponent {e} at {p32:?}");
            }
        }
    }
}

/// An exponent node under any other metric is not read: the graph lowers to the same
/// operations as the number's.
#[test]
fn a_driven_exponent_of_another_metric_is_not_evaluated() {
    for &metric in choices("cellular", "distance") {
        if metric == "minkowski" {
            continue;
        }
        let number = cellular(metric, 1.5, "f1", [1, 3], 1.0);
        let node = number.clone().with_input("exponent", Node::simplex());
        let ops = |n: &Node| Graph::from_node(n).unwrap().program(3, [0.0; 4]).unwrap();
        assert_eq!(ops(&number), ops(&node), "{metric}");
    }
}

/// The sampler of Minkowski cellular noise in `dims` dimensions (hash lookup, seed 3) with
/// the exponent `e`, a number.
fn at_exponent(output: &str, e: f64, dims: usize) -> Sampler {
    let node = cellular("minkowski", e, output, [1, 3], 1.0);
    Graph::from_node(&node)
        .unwrap()
        .sampler_with(dims, LookupVariant::Hash, 3)
        .unwrap()
}

/// The exponent's own term of the gradient: with the exponent the point's x, the driven
/// graph's ∂/∂x less the fixed-exponent graph's is ∂F/∂e, which central differences along
/// the exponent (two fixed-exponent graphs, f64) give where F is smooth in it (the two
/// steps' differences agree); outside 1..16 the term is 0.
#[test]
fn the_gradient_carries_the_exponents_slope() {
    let mut rng = Rng::new(73);
    let (mut checked, mut skipped, mut worst, mut largest) = (0, 0, 0.0f64, 0.0f64);
    for dims in 2..=4 {
        for output in OUTPUTS {
            let mut s = sampler(
                &driven(output, Node::position(0)),
                dims,
                LookupVariant::Hash,
            );
            for mut p in points(&mut rng, dims, 20.0, 16) {
                let x = rng.range(0.7, 16.5) as f32 as f64;
                p[0] = x;
                let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                let driven_slope = s.value_and_gradient(&p32)[1] as f64;
                let mut fixed = at_exponent(output, x.clamp(1.0, 16.0), dims);
                let got = driven_slope - fixed.value_and_gradient(&p32)[1] as f64;
                if !(1.0..=16.0).contains(&x) {
                    assert_eq!(got, 0.0, "{output} {dims}D clamped at {p32:?}");
                    continue;
                }
                let along = |h: f64| {
                    let f = |e: f64| at_exponent(output, e, dims).value_f64(&p);
                    (f(x + h) - f(x - h)) / (2.0 * h)
                };
                // Steps of 2^-8 and 2^-9: x ± h is an f32, as the exponent a graph holds.
                let (d1, d2) = (along(1.0 / 256.0), along(1.0 / 512.0));
                if !(1.01..=15.99).contains(&x) || (d1 - d2).abs() > 1e-4 * (1.0 + d1.abs()) {
                    skipped += 1;
                    continue;
                }
                let err = (got - d1).abs() / (1.0 + d1.abs());
                worst = worst.max(err);
                largest = largest.max(d1.abs());
                assert!(
                    err <= 1e-3,
                    "{output} {dims}D at {p32:?}: exponent term {got} vs central {d1}"
                );
                checked += 1;
            }
        }
    }
    eprintln!(
        "EXPONENT SLOPE: {checked} points checked, {skipped} near a tie, kink or clamp; \
         max relative error {worst:e}, largest |∂F/∂e| {largest:.3}"
    );
    assert!(checked > 150 && largest > 0.5, "{checked} {largest}");
}

/// A cellular lookup of simplex noise (frequency 0.3, Minkowski).
fn lookup() -> Node {
    Node::of_type("cellular-lookup")
        .with_input("source", Node::simplex())
        .with("frequency", 0.3)
        .with("distance", "minkowski")
}

/// A lookup's jitter and exponent given by constant nodes are the numbers: the same f32
/// values and gradients, 2D to 4D.
#[test]
fn constant_lookup_parameter_nodes_are_the_numbers() {
    let mut rng = Rng::new(74);
    for dims in 2..=4 {
        let (j, e) = (rng.unit() as f32 as f64, rng.range(1.0, 4.0) as f32 as f64);
        let number = lookup().with("jitter", j).with("exponent", e);
        let node = lookup()
            .with_input("jitter", Node::constant(j))
            .with_input("exponent", Node::constant(e));
        let (mut a, mut b) = (
            sampler(&number, dims, LookupVariant::Hash),
            sampler(&node, dims, LookupVariant::Hash),
        );
        for p in points(&mut rng, dims, 30.0, 100) {
            let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
            let (x, y) = (a.value_and_gradient(&p32), b.value_and_gradient(&p32));
            assert_eq!(x, y, "{dims}D jitter {j} exponent {e} at {p32:?}");
        }
    }
}

/// A lookup whose jitter is the point's y (past 0..1 in places) moves its feature with y:
/// the graph's gradient against central differences of its f64 values along every axis,
/// where the two steps agree (not across a cell's border, where the value jumps); along y
/// inside 0..1 it is not 0.
#[test]
fn a_driven_lookup_jitter_moves_the_feature_in_the_gradient() {
    let mut rng = Rng::new(75);
    let (mut checked, mut skipped, mut worst, mut moved) = (0, 0, 0.0f64, 0);
    for dims in 2..=4 {
        let node = lookup().with_input("jitter", Node::position(1)).with_input(
            "exponent",
            Node::position(0).remap([-20.0, 20.0], [1.0, 4.0]),
        );
        let mut s = sampler(&node, dims, LookupVariant::Hash);
        for mut p in points(&mut rng, dims, 20.0, 150) {
            p[1] = rng.range(-0.2, 1.2) as f32 as f64;
            let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
            let g = s.value_and_gradient(&p32);
            for a in 0..dims {
                let mut along = |h: f64| {
                    let (mut lo, mut hi) = (p.clone(), p.clone());
                    lo[a] -= h;
                    hi[a] += h;
                    (s.value_f64(&hi) - s.value_f64(&lo)) / (2.0 * h)
                };
                let (d1, d2) = (along(1e-4), along(5e-5));
                if (d1 - d2).abs() > 1e-4 * (1.0 + d1.abs())
                    || (a == 1 && (p[1].abs() < 1e-3 || (p[1] - 1.0).abs() < 1e-3))
                {
                    skipped += 1;
                    continue;
                }
                let err = (g[1 + a] as f64 - d1).abs() / (1.0 + d1.abs());
                worst = worst.max(err);
                assert!(
                    err <= 1e-3,
                    "{dims}D axis {a} at {p32:?}: {} vs central {d1}",
                    g[1 + a]
                );
                if a == 1 && (0.0..1.0).contains(&p[1]) && d1.abs() > 1e-3 {
                    moved += 1;
                }
                checked += 1;
            }
        }
    }
    eprintln!(
        "LOOKUP JITTER: {checked} derivatives checked, {skipped} across a border; max relative \
         error {worst:e}; {moved} along a moving jitter not 0"
    );
    assert!(checked > 400 && moved > 50, "{checked} {moved}");
}
