//! A cellular node whose `jitter` is a node (docs/graphs.md, `cellular`): per sample the
//! node's value clamped to 0..1 is the jitter. Its values against the f64 brute force of
//! `cellular_metrics` at that jitter; a constant node against the number; the gradient's
//! jitter term against central differences along the jitter itself.

use crate::cellular_metrics::{brute, cellular, output_of, points, sampler, Agreement};
use crate::common::graphs::{choices, Rng};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::gpu::LookupVariant;
use wgpu_noise::graph::{Graph, Node, Sampler};
use wgpu_noise::tables::PermutationTables;

/// The outputs checked: each search (two features, four) and a pair.
const OUTPUTS: [&str; 6] = ["f1", "f2", "f2-f1", "f3", "f4", "add"];

/// `cellular(…)` with its jitter given by `jitter`, a node.
fn driven(metric: &str, output: &str, jitter: Node) -> Node {
    cellular(metric, 1.5, output, [1, 3], 1.0).with_input("jitter", jitter)
}

/// The brute force's output at `p` with the jitter `jitter` (clamped to 0..1 and rounded to
/// f32: a source parameter's type, which the f64 evaluator takes a driven jitter in too).
fn want(lut: &impl NoiseHasher, p: &[f64], jitter: f64, metric: &str, output: &str) -> f64 {
    let jitter = jitter.clamp(0.0, 1.0) as f32 as f64;
    let sorted = brute(lut, p, jitter, metric, 1.5f32 as f64);
    output_of(output, [1, 3], &sorted).expect("a distance output")
}

/// Per sample, the jitter is the node's value there: driven by the point's x (0..1 and
/// past it on both sides, so clamped too) and by constants inside and outside 0..1, every
/// metric and the outputs above, 2D to 4D, both lookups, the brute force's values within
/// 1e-9 (relative) in f64 and 1e-4 in f32.
#[test]
fn a_driven_jitter_is_the_brute_forces_jitter_at_each_sample() {
    let mut rng = Rng::new(61);
    let tables = PermutationTables::new(3);
    let hash = IntegerHasher::new(3);
    let mut agreement = Agreement::default();
    for dims in 2..=4 {
        for &metric in choices("cellular", "distance") {
            for output in OUTPUTS {
                for variant in [LookupVariant::Textures, LookupVariant::Hash] {
                    let constant = *rng.pick(&[-0.3, 0.0, 0.25, 0.7, 1.0, 1.4]);
                    let drivers = [
                        (Node::position(0), None),
                        (Node::constant(constant), Some(constant)),
                    ];
                    for (driver, fixed) in drivers {
                        let mut s = sampler(&driven(metric, output, driver), dims, variant);
                        let count = [0, 0, 16, 8, 4][dims];
                        for reach in [4.0, 1e4] {
                            for mut p in points(&mut rng, dims, reach, count) {
                                if fixed.is_none() {
                                    // x within -0.5..1.5: the jitter there, clamped outside.
                                    p[0] = rng.range(-0.5, 1.5) as f32 as f64;
                                }
                                let jitter = fixed.unwrap_or(p[0]);
                                let w = match variant {
                                    LookupVariant::Textures => {
                                        want(&tables, &p, jitter, metric, output)
                                    }
                                    LookupVariant::Hash => want(&hash, &p, jitter, metric, output),
                                };
                                agreement.check(&mut s, &p, w, || {
                                    format!("{metric} {output} {dims}D {variant:?} jitter {jitter}")
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    agreement.report("DRIVEN JITTER", 3000);
}

/// A `constant` node as the jitter is the number: the same f32 values and gradients (the
/// constant's gradient is 0), every output, 2D to 4D.
#[test]
fn a_constant_jitter_node_is_the_number() {
    let mut rng = Rng::new(62);
    for dims in 2..=4 {
        for &output in choices("cellular", "output") {
            let jitter = rng.range(0.0, 1.0) as f32 as f64;
            let number = cellular("euclidean", 1.5, output, [1, 3], jitter);
            let node = driven("euclidean", output, Node::constant(jitter));
            let (mut a, mut b) = (
                sampler(&number, dims, LookupVariant::Hash),
                sampler(&node, dims, LookupVariant::Hash),
            );
            for p in points(&mut rng, dims, 50.0, 100) {
                let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                let (x, y) = (a.value_and_gradient(&p32), b.value_and_gradient(&p32));
                assert_eq!(x, y, "{output} {dims}D jitter {jitter} at {p32:?}");
            }
        }
    }
}

/// The sampler of `node` in `dims` dimensions (hash lookup, seed 3) with the jitter `j`, a
/// number.
fn at_jitter(metric: &str, output: &str, j: f64, dims: usize) -> Sampler {
    let node = cellular(metric, 1.5, output, [1, 3], 1.0).with("jitter", j);
    Graph::from_node(&node)
        .unwrap()
        .sampler_with(dims, LookupVariant::Hash, 3)
        .unwrap()
}

/// The jitter's own term of the gradient: with the jitter the point's x, the driven
/// graph's ∂/∂x less the fixed-jitter graph's is ∂F/∂jitter, which central differences
/// along the jitter (two fixed-jitter graphs, f64) give where F is smooth in it (the two
/// steps' differences agree); outside 0..1 the term is 0.
#[test]
fn the_gradient_carries_the_jitters_slope() {
    let mut rng = Rng::new(63);
    let (mut checked, mut skipped, mut worst, mut largest) = (0, 0, 0.0f64, 0.0f64);
    for dims in 2..=4 {
        for &metric in choices("cellular", "distance") {
            for output in OUTPUTS {
                let node = driven(metric, output, Node::position(0));
                let mut s = sampler(&node, dims, LookupVariant::Hash);
                for mut p in points(&mut rng, dims, 20.0, 12) {
                    let x = rng.range(-0.3, 1.3) as f32 as f64;
                    p[0] = x;
                    let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                    let driven_slope = s.value_and_gradient(&p32)[1] as f64;
                    let mut fixed = at_jitter(metric, output, x.clamp(0.0, 1.0), dims);
                    let got = driven_slope - fixed.value_and_gradient(&p32)[1] as f64;
                    if !(0.0..=1.0).contains(&x) {
                        assert_eq!(got, 0.0, "{metric} {output} {dims}D clamped at {p32:?}");
                        continue;
                    }
                    let along = |h: f64| {
                        let f = |j: f64| at_jitter(metric, output, j, dims).value_f64(&p);
                        (f(x + h) - f(x - h)) / (2.0 * h)
                    };
                    let (d1, d2) = (along(1e-4), along(5e-5));
                    if !(1e-3..=1.0 - 1e-3).contains(&x)
                        || (d1 - d2).abs() > 1e-5 * (1.0 + d1.abs())
                    {
                        skipped += 1;
                        continue;
                    }
                    let e = (got - d1).abs() / (1.0 + d1.abs());
                    worst = worst.max(e);
                    largest = largest.max(d1.abs());
                    assert!(
                        e <= 1e-3,
                        "{metric} {output} {dims}D at {p32:?}: jitter term {got} vs central {d1}"
                    );
                    checked += 1;
                }
            }
        }
    }
    eprintln!(
        "JITTER SLOPE: {checked} points checked, {skipped} near a tie, kink or clamp; \
         max relative error {worst:e}, largest |∂F/∂jitter| {largest:.3}"
    );
    assert!(checked > 300 && largest > 0.1, "{checked} {largest}");
}
