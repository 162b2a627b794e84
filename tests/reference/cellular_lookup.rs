//! The `cellular-lookup` node (FastNoise2's CellularLookup): the nearest feature, found here
//! by an f64 brute force over a wide box (every cell's feature placed from its hash bytes,
//! docs/noise-kinds.md), then the lookup graph written out at that feature's position times
//! the frequency, against the evaluators in 2D to 4D, small and large coordinates, both
//! lookups; the value is constant inside a feature's cell and its gradient 0; a tiled lookup
//! repeats.

use crate::common::graphs::Rng;
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::gpu::LookupVariant;
use wgpu_noise::graph::eval;
use wgpu_noise::graph::{Graph, Node, Sampler};
use wgpu_noise::tables::PermutationTables;

/// The nearest feature of `p` (the lattice of 256 cells per axis) by the euclidean or
/// manhattan distance over every cell within `dims + 2` of its own (the bound of
/// cellular_metrics.rs), and the gap to the second nearest (to skip near-ties).
fn nearest(lut: &impl NoiseHasher, p: &[f64], jitter: f64, metric: &str) -> (Vec<f64>, f64) {
    let dims = p.len();
    let radius = dims as i64 + 2;
    let side = (2 * radius + 1) as usize;
    let c: Vec<i64> = p.iter().map(|v| v.floor() as i64).collect();
    let mut all: Vec<(f64, Vec<f64>)> = Vec::new();
    for n in 0..side.pow(dims as u32) {
        let k: Vec<i64> = (0..dims)
            .map(|a| (n / side.pow(a as u32) % side) as i64 - radius)
            .collect();
        let cell: Vec<u32> = (0..dims)
            .map(|a| (c[a] + k[a]).rem_euclid(256) as u32)
            .collect();
        let h = lut.cell_hash(&cell);
        let f: Vec<f64> = (0..dims)
            .map(|a| {
                let u = lut.cell_byte(h, a as u32) as f64 / 255.0;
                (c[a] + k[a]) as f64 + 0.5 + jitter * (u - 0.5)
            })
            .collect();
        let d: f64 = match metric {
            "euclidean" => (0..dims).map(|a| (f[a] - p[a]).powi(2)).sum::<f64>().sqrt(),
            _ => (0..dims).map(|a| (f[a] - p[a]).abs()).sum(),
        };
        all.push((d, f));
    }
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let gap = all[1].0 - all[0].0;
    (all.swap_remove(0).1, gap)
}

/// The lookup graphs: a node and its value at a point, written out (`None`: the simplex
/// node, whose value the library's own simplex sampler gives).
fn lookups() -> Vec<(&'static str, Node)> {
    vec![
        ("position-y", Node::position(1)),
        ("linear", Node::linear()),
        ("simplex", Node::simplex()),
    ]
}

fn lookup_node(source: &Node, frequency: f64, metric: &str, jitter: f64) -> Node {
    Node::of_type("cellular-lookup")
        .with_input("source", source.clone())
        .with("frequency", frequency)
        .with("distance", metric)
        .with("jitter", jitter)
}

fn sampler(node: &Node, dims: usize, variant: LookupVariant) -> Sampler {
    Graph::from_node(node)
        .unwrap()
        .sampler_with(dims, variant, 3)
        .unwrap()
}

fn points(rng: &mut Rng, dims: usize, reach: f64, count: usize) -> Vec<Vec<f64>> {
    (0..count)
        .map(|_| {
            (0..dims)
                .map(|_| rng.range(-reach, reach) as f32 as f64)
                .collect()
        })
        .collect()
}

/// The f64 evaluator equals the brute force's lookup within 1e-9 (relative) wherever the
/// nearest two features are not within 1e-9 of a tie; the f32 evaluator within the rounding
/// of the feature's position to f32 through the source's slope (relative to 1 + |value|),
/// and picks the other feature (a near-tie in f32) at few points.
#[test]
fn the_lookup_at_the_nearest_feature_equals_a_brute_force_in_f64() {
    let mut rng = Rng::new(4801);
    let tables = PermutationTables::new(3);
    let hash = IntegerHasher::new(3);
    let (mut checked, mut ties, mut other32) = (0usize, 0usize, 0usize);
    let (mut worst64, mut worst32) = (0.0f64, 0.0f64);
    for dims in 2..=4 {
        for (name, source) in lookups() {
            for metric in ["euclidean", "manhattan"] {
                for variant in [LookupVariant::Textures, LookupVariant::Hash] {
                    let jitter = *rng.pick(&[1.0, 0.6]);
                    let frequency = *rng.pick(&[0.1, 1.0, 3.25]);
                    let node = lookup_node(&source, frequency, metric, jitter);
                    let mut s = sampler(&node, dims, variant);
                    let mut inner = sampler(&source, dims, variant);
                    for reach in [4.0, 1e4] {
                        for p in points(&mut rng, dims, reach, [0, 0, 30, 16, 6][dims]) {
                            let (f, gap) = match variant {
                                LookupVariant::Textures => {
                                    nearest(&tables, &p, jitter as f32 as f64, metric)
                                }
                                LookupVariant::Hash => {
                                    nearest(&hash, &p, jitter as f32 as f64, metric)
                                }
                            };
                            let at: Vec<f64> =
                                f.iter().map(|v| v * (frequency as f32 as f64)).collect();
                            let want = match name {
                                "position-y" => at[1],
                                "linear" => at.iter().sum(),
                                _ => inner.value_f64(&at),
                            };
                            if gap <= 1e-9 * (1.0 + reach) {
                                ties += 1;
                                continue;
                            }
                            let got = s.value_f64(&p);
                            let e = (got - want).abs() / (1.0 + want.abs());
                            worst64 = worst64.max(e);
                            assert!(
                                e <= 1e-9,
                                "{name} {metric} {dims}D {variant:?} at {p:?}: {got} vs {want}"
                            );
                            let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                            let got32 = s.value(&p32) as f64;
                            let e32 = (got32 - want).abs() / (1.0 + want.abs());
                            // The feature's position rounds to f32 (half an ulp of the
                            // point's magnitude per axis), times the frequency, through the
                            // source's slope (|∇simplex| < 3 per axis; 1 for the others).
                            let tol =
                                1e-5 + 4.0 * dims as f64 * frequency * reach * f32::EPSILON as f64;
                            if e32 > tol && gap < 1e-2 {
                                other32 += 1;
                            } else {
                                worst32 = worst32.max(e32 / tol);
                                assert!(
                                    e32 <= tol,
                                    "f32 {name} {metric} {dims}D {variant:?} at {p:?}: \
                                     {got32} vs {want}"
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "CELLULAR LOOKUP: {checked} points ({ties} near-ties skipped); max relative error \
         f64 {worst64:e}, f32 {worst32:.3} of its bound; f32 took another feature at {other32}"
    );
    assert!(checked > 800, "{checked}");
    assert!(other32 * 100 <= checked, "{other32} of {checked}");
}

/// Every point on the segment from a sample point to its nearest feature lies in that
/// feature's (convex) cell: the value there is the sample's, bit for bit, in f32 and f64;
/// the gradient is 0 and its value the value's.
#[test]
fn the_value_is_constant_inside_a_cell_and_its_gradient_is_0() {
    let mut rng = Rng::new(4802);
    let (mut checked, mut differ) = (0usize, 0usize);
    for dims in 2..=4 {
        let source = Node::simplex().scale(0.37) + Node::position(0);
        let node = lookup_node(&source, 1.0, "euclidean", 0.9);
        let mut s = sampler(&node, dims, LookupVariant::Hash);
        // The feature's position itself, by position lookups of frequency 1.
        let mut at: Vec<Sampler> = (0..dims)
            .map(|a| {
                sampler(
                    &lookup_node(&Node::position(a), 1.0, "euclidean", 0.9),
                    dims,
                    LookupVariant::Hash,
                )
            })
            .collect();
        for p in points(&mut rng, dims, 50.0, 200) {
            let f: Vec<f64> = at.iter_mut().map(|s| s.value_f64(&p)).collect();
            let v64 = s.value_f64(&p);
            let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
            let v32 = s.value(&p32);
            for t in [0.25, 0.5, 0.9, 0.999] {
                let q: Vec<f64> = (0..dims).map(|a| p[a] + t * (f[a] - p[a])).collect();
                assert_eq!(s.value_f64(&q), v64, "{dims}D {p:?} → {q:?}");
                let q32: Vec<f32> = q.iter().map(|&v| v as f32).collect();
                if s.value(&q32).to_bits() != v32.to_bits() {
                    // Only where p itself is within f32 rounding of a cell border.
                    differ += 1;
                }
                let g = s.value_and_gradient(&q32);
                assert_eq!(g[0].to_bits(), s.value(&q32).to_bits());
                assert_eq!(&g[1..], &[0.0; 4], "{dims}D gradient at {q32:?}");
                checked += 1;
            }
        }
    }
    eprintln!("CELLULAR LOOKUP CONSTANT: {checked} points inside cells; f32 differed at {differ}");
    assert!(differ * 200 <= checked, "{differ} of {checked}");
}

/// Tiled (the field's period, here 5 or 8 per axis, under a scale of 2), the lookup
/// repeats: a sample and the same sample a whole period away agree bit for bit in f32 and
/// f64 (small whole-period shifts, exact in f32), with a non-zero seed too; untiled it does
/// not.
#[test]
fn a_tiled_lookup_repeats() {
    let mut rng = Rng::new(4803);
    let lut = PermutationTables::new(5);
    let mut checked = 0;
    for dims in 2..=4 {
        for period in [5.0f32, 8.0] {
            for seed in [0, 7] {
                let node = lookup_node(&Node::simplex(), 0.1, "euclidean", 1.0)
                    .with("seed", seed)
                    .scale(2.0);
                let graph = Graph::from_node(&node).unwrap();
                let program = graph.program(dims, [period; 4]).unwrap();
                let untiled = graph.program(dims, [0.0; 4]).unwrap();
                let mut same_untiled = 0;
                for _ in 0..60 {
                    let p: [f32; 4] = std::array::from_fn(|a| {
                        if a < dims {
                            rng.range(-20.0, 20.0) as f32
                        } else {
                            0.0
                        }
                    });
                    let k = rng.below(3) as f32 + 1.0;
                    let axis = rng.below(dims as u64) as usize;
                    let mut q = p;
                    // The field's period (the scale's source tiles with twice as many cells).
                    q[axis] += k * period;
                    let a = eval::value(&program, &lut, p, &mut Vec::new());
                    let b = eval::value(&program, &lut, q, &mut Vec::new());
                    assert_eq!(
                        a.to_bits(),
                        b.to_bits(),
                        "{dims}D period {period} {p:?} {q:?}"
                    );
                    let p64 = p.map(f64::from);
                    let q64 = q.map(f64::from);
                    let a64 = eval::value(&program, &lut, p64, &mut Vec::new());
                    let b64 = eval::value(&program, &lut, q64, &mut Vec::new());
                    assert_eq!(a64, b64);
                    let (u, w) = (
                        eval::value(&untiled, &lut, p, &mut Vec::new()),
                        eval::value(&untiled, &lut, q, &mut Vec::new()),
                    );
                    same_untiled += usize::from(u == w);
                    checked += 1;
                }
                assert!(same_untiled < 10, "untiled repeated {same_untiled} times");
            }
        }
    }
    eprintln!("CELLULAR LOOKUP TILED: {checked} pairs a period apart equal");
}

/// The node's `seed` moves the features (the lookup of `position` changes) but not the
/// lookup source: a seed-offset above the node moves both, as the node's own seed plus the
/// source's own seed would.
#[test]
fn seeds_move_the_features_and_the_lookup_takes_the_contexts() {
    let lut = PermutationTables::new(2);
    let mut rng = Rng::new(4804);
    let plain = lookup_node(&Node::simplex(), 1.0, "euclidean", 1.0);
    let seeded = plain.clone().with("seed", 3);
    let outer = plain.clone().seed(3);
    let both = lookup_node(&Node::simplex().with("seed", 3), 1.0, "euclidean", 1.0).with("seed", 3);
    let program = |n: &Node| Graph::from_node(n).unwrap().program(2, [0.0; 4]).unwrap();
    let (plain, seeded, outer, both) = (
        program(&plain),
        program(&seeded),
        program(&outer),
        program(&both),
    );
    let mut moved = 0;
    for _ in 0..100 {
        let p = [
            rng.range(-30.0, 30.0) as f32,
            rng.range(-30.0, 30.0) as f32,
            0.0,
            0.0,
        ];
        let v = |pr| eval::value(pr, &lut, p, &mut Vec::new());
        moved += usize::from(v(&plain) != v(&seeded));
        assert_eq!(v(&outer).to_bits(), v(&both).to_bits(), "{p:?}");
    }
    assert!(moved > 80, "{moved}");
}

/// A node-driven frequency (here the point's x) is read per sample: the lookup of the
/// source `position` y is the nearest feature's y times x (the brute force's, within 1e-9
/// in f64), its gradient `(feature y, 0, …)` (the feature is constant inside its cell,
/// the frequency moves with x), and a constant node is the number (values and gradients).
#[test]
fn a_node_driven_lookup_frequency_scales_the_features_position_per_sample() {
    let mut rng = Rng::new(4803);
    let hash = IntegerHasher::new(3);
    let (mut checked, mut worst) = (0usize, 0.0f64);
    for dims in 2..=4 {
        let by_x = Node::of_type("cellular-lookup")
            .with_input("source", Node::position(1))
            .with_input("frequency", Node::position(0));
        let mut s = sampler(&by_x, dims, LookupVariant::Hash);
        let constant = Node::of_type("cellular-lookup")
            .with_input("source", Node::simplex())
            .with_input("frequency", Node::constant(0.37));
        let number = lookup_node(&Node::simplex(), 0.37, "euclidean", 1.0);
        let (mut a, mut b) = (
            sampler(&constant, dims, LookupVariant::Hash),
            sampler(&number, dims, LookupVariant::Hash),
        );
        for reach in [4.0, 1e4] {
            for mut p in points(&mut rng, dims, reach, 40) {
                p[0] = rng.range(0.5, 3.0) as f32 as f64;
                let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                assert_eq!(a.value_and_gradient(&p32), b.value_and_gradient(&p32));
                let (f, gap) = nearest(&hash, &p, 1.0, "euclidean");
                if gap <= 1e-6 * (1.0 + reach) {
                    continue;
                }
                let want = f[1] * p[0];
                let got = s.value_f64(&p);
                let e = (got - want).abs() / (1.0 + want.abs());
                worst = worst.max(e);
                assert!(e <= 1e-9, "{dims}D at {p:?}: {got} vs {want}");
                let g = s.value_and_gradient(&p32);
                // The feature's y rounded to f32 (the point's magnitude).
                let tol = 1e-6 + 4.0 * reach * f32::EPSILON as f64;
                assert!(
                    (g[1] as f64 - f[1]).abs() <= tol,
                    "{dims}D ∂/∂x at {p:?}: {} vs the feature's y {}",
                    g[1],
                    f[1]
                );
                assert!(
                    g[2..=dims].iter().all(|&d| d == 0.0),
                    "{dims}D at {p:?}: {g:?}"
                );
                checked += 1;
            }
        }
    }
    eprintln!("DRIVEN LOOKUP FREQUENCY: {checked} points, max relative error f64 {worst:e}");
    assert!(checked > 200, "{checked}");
}
