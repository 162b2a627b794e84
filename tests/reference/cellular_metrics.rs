//! The `cellular` node's six metrics (the `distance` node's) and its outputs, against a
//! brute force written out here in f64: every cell of a wide box, its feature placed from the
//! cell's hash bytes, measured by the metric's formula (docs/graphs.md), the distances sorted;
//! F1 to F4 are the first four and the pairs their sums, differences, products and quotients,
//! in 2D to 4D, small and large coordinates, both lookups.
//! Minkowski at exponent 1 and 2 is Manhattan and Euclidean within rounding; the gradients
//! equal central differences away from ties and kinks.

use crate::common::graphs::{choices, Rng};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::gpu::LookupVariant;
use wgpu_noise::graph::{Graph, Node, Sampler};
use wgpu_noise::tables::PermutationTables;

/// `metric` of the difference `d`, written out in f64 (docs/graphs.md, the `distance` node;
/// Minkowski's root is a parameter: `1 / exponent` in f32).
fn metric_of(metric: &str, d: &[f64], exponent: f64) -> f64 {
    let abs = d.iter().map(|x| x.abs());
    match metric {
        "euclidean" => d.iter().map(|x| x * x).sum::<f64>().sqrt(),
        "euclidean-squared" => d.iter().map(|x| x * x).sum(),
        "manhattan" => abs.sum(),
        "chebyshev" => abs.fold(0.0, f64::max),
        "hybrid" => d.iter().map(|x| x * x + x.abs()).sum(),
        "minkowski" => abs
            .map(|x| x.powf(exponent))
            .sum::<f64>()
            .powf((1.0 / exponent as f32) as f64),
        other => panic!("no formula for the metric {other}"),
    }
}

/// The distances from `p` to the features of every cell within `radius` cells of its own,
/// sorted, with each one's difference `feature − p` (the lattice of 256 cells per axis).
/// Feature of cell `c`: `c + 0.5 + jitter (byte / 255 − 0.5)` per axis, byte `a` of the
/// cell's hash (docs/noise-kinds.md). The radius needs only a crude bound: four features
/// (the own cell's, the two face neighbours' on the nearer side along two axes, and their
/// diagonal neighbour's) lie within 1.5 along two axes and 1 along the others, `n + 1` by
/// Manhattan (the largest here but for hybrid: `2n + 3.5` at most, below its 12 at 3); a
/// cell `r + 1` away along one axis is at least `r` away. So `n + 2` serves all six.
pub(crate) fn brute(
    lut: &impl NoiseHasher,
    p: &[f64],
    jitter: f64,
    metric: &str,
    exponent: f64,
) -> Vec<(f64, Vec<f64>)> {
    let dims = p.len();
    let radius = dims as i64 + 2;
    let side = (2 * radius + 1) as usize;
    let c: Vec<i64> = p.iter().map(|v| v.floor() as i64).collect();
    let mut all = Vec::with_capacity(side.pow(dims as u32));
    for n in 0..side.pow(dims as u32) {
        let k: Vec<i64> = (0..dims)
            .map(|a| (n / side.pow(a as u32) % side) as i64 - radius)
            .collect();
        let cell: Vec<u32> = (0..dims)
            .map(|a| (c[a] + k[a]).rem_euclid(256) as u32)
            .collect();
        let h = lut.cell_hash(&cell);
        let d: Vec<f64> = (0..dims)
            .map(|a| {
                let u = lut.cell_byte(h, a as u32) as f64 / 255.0;
                (c[a] + k[a]) as f64 + 0.5 + jitter * (u - 0.5) - p[a]
            })
            .collect();
        all.push((metric_of(metric, &d, exponent), d));
    }
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    all
}

/// The cellular node of `metric` (with `exponent`), `output` (with the pair `ab`) and
/// `jitter`.
pub(crate) fn cellular(
    metric: &str,
    exponent: f64,
    output: &str,
    ab: [usize; 2],
    jitter: f64,
) -> Node {
    Node::cellular()
        .with("distance", metric)
        .with("exponent", exponent)
        .with("output", output)
        .with("a", ab[0])
        .with("b", ab[1])
        .with("jitter", jitter)
}

/// What `output` (with the pair `ab`) is of the sorted distances (`None`: not a distance
/// output).
pub(crate) fn output_of(
    output: &str,
    [a, b]: [usize; 2],
    sorted: &[(f64, Vec<f64>)],
) -> Option<f64> {
    let f = |k: usize| sorted[k - 1].0;
    Some(match output {
        "f1" => f(1),
        "f2" => f(2),
        "f3" => f(3),
        "f4" => f(4),
        "f2-f1" => f(2) - f(1),
        "add" => f(a) + f(b),
        "subtract" => f(a) - f(b),
        "multiply" => f(a) * f(b),
        // As the `divide` node: 0 where |b| is below f32's smallest normal number.
        "divide" if f(b).abs() < f32::MIN_POSITIVE as f64 => 0.0,
        "divide" => f(a) / f(b),
        "cell" => return None,
        other => panic!("no formula for the output {other}"),
    })
}

/// A random pair of distance indices, 1 to 4 each.
fn pair(rng: &mut Rng) -> [usize; 2] {
    [1 + rng.below(4) as usize, 1 + rng.below(4) as usize]
}

/// Random points of `dims` coordinates within ±`reach`, rounded to f32 (so that the f32
/// and f64 evaluators see the same point).
pub(crate) fn points(rng: &mut Rng, dims: usize, reach: f64, count: usize) -> Vec<Vec<f64>> {
    (0..count)
        .map(|_| {
            (0..dims)
                .map(|_| rng.range(-reach, reach) as f32 as f64)
                .collect()
        })
        .collect()
}

/// The sampler of `node` in `dims` dimensions with `variant`'s lookup for seed 3.
pub(crate) fn sampler(node: &Node, dims: usize, variant: LookupVariant) -> Sampler {
    Graph::from_node(node)
        .unwrap()
        .sampler_with(dims, variant, 3)
        .unwrap()
}

/// A sampler's values against the brute force's: within 1e-9 (relative) in f64, and in f32
/// at the same point (an f32: only the arithmetic rounds) within 1e-4; the worst errors seen
/// and the points checked.
#[derive(Default)]
pub(crate) struct Agreement {
    pub checked: usize,
    pub worst64: f64,
    pub worst32: f64,
}

impl Agreement {
    /// Checks `s` at `p` against the brute force's `want`; `case` names it in a failure.
    pub(crate) fn check(
        &mut self,
        s: &mut Sampler,
        p: &[f64],
        want: f64,
        case: impl Fn() -> String,
    ) {
        let got = s.value_f64(p);
        let e = (got - want).abs() / (1.0 + want.abs());
        self.worst64 = self.worst64.max(e);
        assert!(e <= 1e-9, "{} at {p:?}: f64 {got} vs {want}", case());
        let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
        let got32 = s.value(&p32) as f64;
        let e32 = (got32 - want).abs() / (1.0 + want.abs());
        self.worst32 = self.worst32.max(e32);
        assert!(e32 <= 1e-4, "{} at {p:?}: f32 {got32} vs {want}", case());
        self.checked += 1;
    }

    /// Prints the worst errors under `title` and requires at least `least` points.
    pub(crate) fn report(&self, title: &str, least: usize) {
        let Agreement {
            checked,
            worst64,
            worst32,
        } = self;
        eprintln!("{title}: {checked} points; max relative error f64 {worst64:e}, f32 {worst32:e}");
        assert!(*checked > least, "{checked}");
    }
}

/// Every metric, every distance output, 2D to 4D, at ±4 and ±1e4, both lookups, two jitters:
/// the f64 evaluator equals the brute force within 1e-9 (relative), and the f32 one within
/// f32 rounding of the point's fraction.
#[test]
fn each_metric_and_output_equals_a_brute_force_in_f64() {
    let mut rng = Rng::new(48);
    let tables = PermutationTables::new(3);
    let hash = IntegerHasher::new(3);
    let mut agreement = Agreement::default();
    for dims in 2..=4 {
        for &metric in choices("cellular", "distance") {
            let exponents: &[f64] = if metric == "minkowski" {
                &[1.0, 1.5, 3.7]
            } else {
                &[1.5]
            };
            for &exponent in exponents {
                for &output in choices("cellular", "output") {
                    for variant in [LookupVariant::Textures, LookupVariant::Hash] {
                        let jitter = *rng.pick(&[1.0, 0.7]);
                        let ab = pair(&mut rng);
                        let node = cellular(metric, exponent, output, ab, jitter);
                        let mut s = sampler(&node, dims, variant);
                        let count = [0, 0, 40, 20, 8][dims];
                        for reach in [4.0, 1e4] {
                            for p in points(&mut rng, dims, reach, count) {
                                // The jitter and exponent are f32 parameters.
                                let jitter = jitter as f32 as f64;
                                let exponent = exponent as f32 as f64;
                                let sorted = match variant {
                                    LookupVariant::Textures => {
                                        brute(&tables, &p, jitter, metric, exponent)
                                    }
                                    LookupVariant::Hash => {
                                        brute(&hash, &p, jitter, metric, exponent)
                                    }
                                };
                                let Some(want) = output_of(output, ab, &sorted) else {
                                    continue;
                                };
                                agreement.check(&mut s, &p, want, || {
                                    format!(
                                        "{metric} (exponent {exponent}) {output} {ab:?} {dims}D \
                                         {variant:?} jitter {jitter}"
                                    )
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    agreement.report("CELLULAR METRICS", 2000);
}

/// Minkowski at exponent 1 is Manhattan and at 2 Euclidean, within rounding (the powers'
/// and the root's), for F1, F2 and F2 − F1, in f32.
#[test]
fn minkowski_at_1_and_2_is_manhattan_and_euclidean() {
    let mut rng = Rng::new(49);
    let mut worst = [0.0f64; 2];
    for dims in 2..=4 {
        for output in ["f1", "f2", "f2-f1", "f3", "f4"] {
            for (i, (exponent, same)) in [(1.0, "manhattan"), (2.0, "euclidean")]
                .into_iter()
                .enumerate()
            {
                let ab = [2, 1];
                let mut a = sampler(
                    &cellular("minkowski", exponent, output, ab, 1.0),
                    dims,
                    LookupVariant::Hash,
                );
                let mut b = sampler(
                    &cellular(same, 1.5, output, ab, 1.0),
                    dims,
                    LookupVariant::Hash,
                );
                for p in points(&mut rng, dims, 50.0, 300) {
                    let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                    let (x, y) = (a.value(&p32) as f64, b.value(&p32) as f64);
                    let e = (x - y).abs() / (1.0 + y.abs());
                    worst[i] = worst[i].max(e);
                    assert!(
                        e <= 1e-6,
                        "minkowski {exponent} vs {same} {output} {dims}D at {p32:?}: {x} vs {y}"
                    );
                }
            }
        }
    }
    eprintln!(
        "MINKOWSKI: max relative difference to manhattan {:e}, to euclidean {:e}",
        worst[0], worst[1]
    );
}

/// The f32 gradients equal central differences of the f64 values (step 1e-4) away from
/// ties and kinks: a point counts where the two-sided difference agrees with the halved
/// step's (the output is smooth there); most points count.
#[test]
fn gradients_equal_central_differences_away_from_ties() {
    let mut rng = Rng::new(50);
    let (mut checked, mut skipped, mut worst) = (0usize, 0usize, 0.0f64);
    for dims in 2..=4 {
        for &metric in choices("cellular", "distance") {
            for &output in choices("cellular", "output") {
                if output == "cell" {
                    continue;
                }
                let exponent = if metric == "minkowski" { 1.5 } else { 2.5 };
                let node = cellular(metric, exponent, output, pair(&mut rng), 0.9);
                let mut s = sampler(&node, dims, LookupVariant::Textures);
                for p in points(&mut rng, dims, 20.0, 60) {
                    let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                    let g = s.value_and_gradient(&p32);
                    let mut smooth = true;
                    let mut want = [0.0; 4];
                    for a in 0..dims {
                        let diff = |s: &mut Sampler, h: f64| {
                            let (mut lo, mut hi) = (p.clone(), p.clone());
                            lo[a] -= h;
                            hi[a] += h;
                            (s.value_f64(&hi) - s.value_f64(&lo)) / (2.0 * h)
                        };
                        let (d1, d2) = (diff(&mut s, 1e-4), diff(&mut s, 5e-5));
                        smooth &= (d1 - d2).abs() <= 1e-5 * (1.0 + d1.abs());
                        want[a] = d1;
                    }
                    if !smooth {
                        skipped += 1;
                        continue;
                    }
                    for a in 0..dims {
                        let e = (g[1 + a] as f64 - want[a]).abs() / (1.0 + want[a].abs());
                        worst = worst.max(e);
                        assert!(
                            e <= 1e-3,
                            "{metric} {output} {dims}D ∂/∂{a} at {p32:?}: {} vs {}",
                            g[1 + a],
                            want[a]
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    eprintln!(
        "CELLULAR GRADIENTS: {checked} points checked, {skipped} near a tie or kink; \
         max relative error {worst:e}"
    );
    assert!(
        checked > 10 * skipped,
        "{checked} checked, {skipped} skipped"
    );
}

/// F3 and F4 of the search (the library's f64 function) equal the brute force on many
/// points per metric and dimension count, jitter 1 (the farthest features), with the tables:
/// the search boxes of the proof in `shaders/cellular.wgsl` are wide enough. Counts the
/// points whose F4 came from a cell beyond the 5ⁿ block (reach 2) around the point's own.
#[test]
fn f3_and_f4_equal_the_brute_force_on_many_points() {
    use rayon::prelude::*;
    use wgpu_noise::cpu::cellular::{cellular, CellularShape};
    use wgpu_noise::params::{cellular_minkowski, CELLULAR_F3, CELLULAR_F4};
    let lut = PermutationTables::new(1);
    let metrics = [
        ("euclidean", 0, 1.5),
        ("manhattan", 1, 1.5),
        ("chebyshev", 2, 1.5),
        ("euclidean-squared", 3, 1.5),
        ("hybrid", 4, 1.5),
        ("minkowski", cellular_minkowski(1.5), 1.5),
        ("minkowski", cellular_minkowski(3.0), 3.0),
    ];
    for dims in 2..=4 {
        for (name, distance, exponent) in metrics {
            let count = [0, 0, 3000, 1500, 200][dims];
            let beyond: usize = (0..count)
                .into_par_iter()
                .map(|n| {
                    let mut rng = Rng::new(n as u64 ^ ((dims as u64) << 40) ^ distance as u64);
                    let p: Vec<f64> = (0..dims).map(|_| rng.range(-300.0, 300.0)).collect();
                    let sorted = brute(&lut, &p, 1.0, name, exponent);
                    for (k, output) in [(3, CELLULAR_F3), (4, CELLULAR_F4)] {
                        let shape = CellularShape {
                            jitter: 1.0,
                            distance,
                            output,
                        };
                        let got = cellular::<f64>(&lut, &p, &shape);
                        let want = sorted[k - 1].0;
                        assert!(
                            (got - want).abs() <= 1e-9 * (1.0 + want),
                            "{name} {exponent} F{k} {dims}D at {p:?}: {got} vs {want}"
                        );
                    }
                    // The cell of F4's feature: its offset from the point's cell.
                    let far = sorted[3].1.iter().zip(&p).any(|(d, p)| {
                        let cell = (p + d).floor() - p.floor();
                        cell.abs() > 2.0
                    });
                    usize::from(far)
                })
                .sum();
            eprintln!(
                "F3 F4 {name} {exponent} {dims}D: {count} points, F4 beyond reach 2 at {beyond}"
            );
        }
    }
}
