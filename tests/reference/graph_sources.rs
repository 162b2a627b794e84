//! The point's own sources: `distance` (each metric), `linear` and `checkerboard` compute
//! the formulas of docs/graphs.md, checked against the same formulas in plain f64 at random
//! points in 2D, 3D and 4D, small and large; their gradients against the formulas' own.

use crate::common::graphs::{choices, Rng};
use wgpu_noise::graph::{Graph, Node};

/// `metric` of the difference `d`, written out in f64.
fn distance(metric: &str, d: &[f64], exponent: f64) -> f64 {
    let abs = d.iter().map(|x| x.abs());
    match metric {
        "euclidean" => d.iter().map(|x| x * x).sum::<f64>().sqrt(),
        "euclidean-squared" => d.iter().map(|x| x * x).sum(),
        "manhattan" => abs.sum(),
        "chebyshev" => abs.fold(0.0, f64::max),
        "hybrid" => d.iter().map(|x| x * x + x.abs()).sum(),
        // The root's exponent is a parameter too: 1 / exponent in f32.
        "minkowski" => abs
            .map(|x| x.powf(exponent))
            .sum::<f64>()
            .powf(f32_of(1.0 / exponent)),
        other => panic!("no formula for the metric {other}"),
    }
}

/// `v` rounded to f32, the precision of a graph's parameters.
fn f32_of(v: f64) -> f64 {
    v as f32 as f64
}

/// Random points of `dims` coordinates within ±`reach`.
fn points(rng: &mut Rng, dims: usize, reach: f64) -> Vec<Vec<f64>> {
    (0..200)
        .map(|_| (0..dims).map(|_| rng.range(-reach, reach)).collect())
        .collect()
}

#[test]
fn distance_is_each_metric_of_the_difference_to_its_point() {
    let mut rng = Rng::new(11);
    for dims in 2..=4 {
        for &metric in choices("distance", "metric") {
            // Parameters are f32 (docs/graphs.md): written as such, they are exact.
            let point: Vec<f64> = (0..dims).map(|_| f32_of(rng.range(-3.0, 3.0))).collect();
            let exponent = 1.5;
            let node = Node::distance()
                .with("point", point.clone())
                .with("metric", metric)
                .with("exponent", exponent);
            let mut sampler = Graph::from_node(&node).unwrap().sampler(dims, 0).unwrap();
            for reach in [4.0, 1e4] {
                for p in points(&mut rng, dims, reach) {
                    let d: Vec<f64> = p.iter().zip(&point).map(|(x, c)| x - c).collect();
                    let want = distance(metric, &d, exponent);
                    let got = sampler.value_f64(&p);
                    assert!(
                        (got - want).abs() <= 1e-12 * (1.0 + want),
                        "{metric} {dims}D at {p:?}: {got} vs {want}"
                    );
                }
            }
        }
    }
}

/// The gradient of the f32 evaluator against the metric's own: `d/|d|` (Euclidean), `2d`
/// (squared), `sign d` (Manhattan), the largest axis's sign (Chebyshev), `2d + sign d`
/// (hybrid), `sign d |d|^(p−1) / r^(p−1)` (Minkowski, `r` the distance).
#[test]
fn distance_gradients_are_the_metrics_own() {
    let mut rng = Rng::new(12);
    for &metric in choices("distance", "metric") {
        let node = Node::distance()
            .with("point", vec![0.5, -1.0, 0.25])
            .with("metric", metric);
        let mut sampler = Graph::from_node(&node).unwrap().sampler(3, 0).unwrap();
        for p in points(&mut rng, 3, 5.0) {
            let p32: Vec<f32> = p.iter().map(|&x| x as f32).collect();
            let d: Vec<f64> = [p32[0] - 0.5, p32[1] + 1.0, p32[2] - 0.25]
                .iter()
                .map(|&x| x as f64)
                .collect();
            let r = distance(metric, &d, 1.5);
            let largest = (0..3).fold(0, |m, a| if d[a].abs() > d[m].abs() { a } else { m });
            let got = sampler.value_and_gradient(&p32);
            for a in 0..3 {
                let s = d[a].signum();
                let want = match metric {
                    "euclidean" => d[a] / r,
                    "euclidean-squared" => 2.0 * d[a],
                    "manhattan" => s,
                    "chebyshev" => {
                        if a == largest {
                            s
                        } else {
                            0.0
                        }
                    }
                    "hybrid" => 2.0 * d[a] + s,
                    "minkowski" => s * d[a].abs().powf(0.5) / r.powf(0.5),
                    other => panic!("no gradient for the metric {other}"),
                };
                assert!(
                    (got[1 + a] as f64 - want).abs() <= 1e-4 * (1.0 + want.abs()),
                    "{metric} ∂/∂{a} at {p32:?}: {} vs {want}",
                    got[1 + a]
                );
            }
        }
    }
}

#[test]
fn linear_is_the_sum_of_shifted_coordinates_times_their_multipliers() {
    let mut rng = Rng::new(13);
    for dims in 2..=4 {
        let multiplier: Vec<f64> = (0..dims).map(|_| f32_of(rng.range(-2.0, 2.0))).collect();
        let offset: Vec<f64> = (0..dims).map(|_| f32_of(rng.range(-5.0, 5.0))).collect();
        let node = Node::linear()
            .with("multiplier", multiplier.clone())
            .with("offset", offset.clone());
        let mut sampler = Graph::from_node(&node).unwrap().sampler(dims, 0).unwrap();
        for p in points(&mut rng, dims, 100.0) {
            let want: f64 = (0..dims).map(|a| (p[a] + offset[a]) * multiplier[a]).sum();
            let got = sampler.value_f64(&p);
            assert!(
                (got - want).abs() <= 1e-12 * (1.0 + want.abs()),
                "{dims}D at {p:?}"
            );
            let p32: Vec<f32> = p.iter().map(|&x| x as f32).collect();
            let gradient = sampler.value_and_gradient(&p32);
            for a in 0..dims.min(3) {
                assert_eq!(gradient[1 + a], multiplier[a] as f32, "∂/∂{a}");
            }
        }
    }
}

#[test]
fn checkerboard_is_the_parity_of_the_cells_whole_coordinates() {
    let mut rng = Rng::new(14);
    let sampler_of = |dims| {
        Graph::from_node(&Node::checkerboard())
            .unwrap()
            .sampler(dims, 0)
            .unwrap()
    };
    for dims in 2..=4 {
        let mut sampler = sampler_of(dims);
        let mut seen = [0usize; 2];
        for reach in [3.0, 1e5] {
            for p in points(&mut rng, dims, reach) {
                let p32: Vec<f32> = p.iter().map(|&x| x as f32).collect();
                let cells: i64 = p32.iter().map(|&x| (x as f64).floor() as i64).sum();
                let want = if cells.rem_euclid(2) == 0 { 1.0 } else { -1.0 };
                assert_eq!(sampler.value(&p32), want, "{dims}D at {p32:?}");
                assert_eq!(
                    sampler.value_f64(&p),
                    if p.iter()
                        .map(|x| x.floor() as i64)
                        .sum::<i64>()
                        .rem_euclid(2)
                        == 0
                    {
                        1.0
                    } else {
                        -1.0
                    }
                );
                let gradient = sampler.value_and_gradient(&p32);
                assert_eq!(gradient[1..4], [0.0; 3], "{dims}D at {p32:?}");
                seen[(want < 0.0) as usize] += 1;
            }
        }
        assert!(seen[0] > 100 && seen[1] > 100, "{dims}D: {seen:?}");
    }
    // Cells are [n, n + 1): whole numbers start a cell.
    let mut sampler = sampler_of(2);
    assert_eq!(sampler.value(&[0.0, 0.0]), 1.0);
    assert_eq!(sampler.value(&[-1e-7, 0.0]), -1.0);
    assert_eq!(sampler.value(&[1.0, 0.0]), -1.0);
    assert_eq!(sampler.value(&[1.0, 1.0]), 1.0);
}

/// fBm's weighted strength `s`: octave `k` of amplitude `gain^k` is also scaled by
/// `1 + s (n − 1) / 2` of every octave `n` below it, and the sum is over the amplitudes' sum.
/// Over the source `x`, octave `k` is `x · lacunarity^k`, so the sum is written out here.
#[test]
fn weighted_strength_scales_each_octave_by_the_octaves_below() {
    let mut rng = Rng::new(15);
    for s in [0.0, 0.3, 1.0] {
        let (octaves, lacunarity, gain) = (4, 2.0f64, 0.5f64);
        let node = Node::position(0)
            .fbm()
            .with("octaves", octaves)
            .with("lacunarity", lacunarity)
            .with("gain", gain)
            .with("weighted_strength", s);
        let mut sampler = Graph::from_node(&node).unwrap().sampler(2, 0).unwrap();
        for p in points(&mut rng, 2, 1.0) {
            let (mut sum, mut norm, mut weight) = (0.0, 0.0, 1.0);
            for k in 0..octaves {
                let n = p[0] * lacunarity.powi(k);
                let amplitude = gain.powi(k);
                sum += amplitude * weight * n;
                norm += amplitude;
                // The factor's constants are f32: `s / 2` and `1 − s / 2`.
                let half = f32_of(0.5 * f32_of(s));
                weight *= n * half + f32_of(1.0 - half);
            }
            let want = sum / norm;
            let got = sampler.value_f64(&p);
            assert!(
                (got - want).abs() <= 1e-12 * (1.0 + want.abs()),
                "s = {s} at {p:?}: {got} vs {want}"
            );
        }
    }
    let refused = Node::position(0)
        .turbulence()
        .with("weighted_strength", 0.5);
    assert_eq!(
        Graph::from_node(&refused).unwrap_err().to_string(),
        "nodes.out.weighted_strength: unknown parameter of a \"turbulence\" node"
    );
}

/// A weighted strength given by a node (here the point's y) is evaluated per sample at the
/// fractal's point: fBm of x with `weighted_strength` y is the sum above with `s = y`, and its
/// gradient follows through the strength (central differences of the f64 value).
#[test]
fn a_node_driven_weighted_strength_is_evaluated_per_sample_with_its_gradient() {
    let mut rng = Rng::new(16);
    let (octaves, lacunarity, gain) = (3, 2.0f64, 0.5f64);
    let node = Node::position(0)
        .fbm()
        .with("octaves", octaves)
        .with("lacunarity", lacunarity)
        .with("gain", gain)
        .with_input("weighted_strength", Node::position(1));
    let mut sampler = Graph::from_node(&node).unwrap().sampler(2, 0).unwrap();
    let fbm = |x: f64, s: f64| {
        let (mut sum, mut norm, mut weight) = (0.0, 0.0, 1.0);
        for k in 0..octaves {
            let n = x * lacunarity.powi(k);
            let amplitude = gain.powi(k);
            sum += amplitude * weight * n;
            norm += amplitude;
            weight *= 1.0 + s * ((n + 1.0) / 2.0 - 1.0);
        }
        sum / norm
    };
    for p in points(&mut rng, 2, 1.0) {
        let want = fbm(p[0], p[1]);
        let got = sampler.value_f64(&p);
        assert!(
            (got - want).abs() <= 1e-12 * (1.0 + want.abs()),
            "at {p:?}: {got} vs {want}"
        );
        let h = 1e-6;
        let central = [
            (fbm(p[0] + h, p[1]) - fbm(p[0] - h, p[1])) / (2.0 * h),
            (fbm(p[0], p[1] + h) - fbm(p[0], p[1] - h)) / (2.0 * h),
        ];
        let d = sampler.value_and_gradient(&[p[0] as f32, p[1] as f32]);
        for a in 0..2 {
            // f32 at a point rounded to f32, slopes up to about 10 here.
            assert!(
                (d[1 + a] as f64 - central[a]).abs() <= 1e-4 * (1.0 + central[a].abs()),
                "at {p:?}: ∂/∂{a} {} vs central {}",
                d[1 + a],
                central[a]
            );
        }
    }
}

/// Ridged's weighted strength `s`: the ridges `r = (1 − |n|)² w` (`w` = the previous
/// ridge's `clamp(2 r, 0, 1)`, 1 at first), octave `k` also scaled by `1 − s + s r` of every
/// ridge `r` below it, and the sum over the amplitudes' sum. With `s` = 0 it is the plain
/// ridged sum. Over the source `x`, octave `k` is `x · lacunarity^k`.
#[test]
fn ridged_weighted_strength_scales_each_octave_by_the_ridges_below() {
    let mut rng = Rng::new(16);
    for s in [0.0, 0.4, 1.0] {
        let (octaves, lacunarity, gain) = (4, 2.0f64, 0.5f64);
        let node = Node::position(0)
            .ridged()
            .with("octaves", octaves)
            .with("lacunarity", lacunarity)
            .with("gain", gain)
            .with("weighted_strength", s);
        let mut sampler = Graph::from_node(&node).unwrap().sampler(2, 0).unwrap();
        for p in points(&mut rng, 2, 1.0) {
            let (mut sum, mut norm, mut weight, mut ridge_weight) = (0.0, 0.0, 1.0, 1.0);
            for k in 0..octaves {
                let n = p[0] * lacunarity.powi(k);
                let amplitude = gain.powi(k);
                let r = (1.0 - n.abs()).powi(2) * ridge_weight;
                ridge_weight = (2.0 * r).clamp(0.0, 1.0);
                sum += amplitude * weight * r;
                norm += amplitude;
                weight *= r * f32_of(s) + f32_of(1.0 - f32_of(s));
            }
            let want = sum / norm;
            let got = sampler.value_f64(&p);
            assert!(
                (got - want).abs() <= 1e-12 * (1.0 + want.abs()),
                "s = {s} at {p:?}: {got} vs {want}"
            );
        }
    }
}

/// `blend`'s `interpolation`: the weight `w = clamp(t/2 + 1/2, 0, 1)` eased by `3w² − 2w³`
/// or `6w⁵ − 15w⁴ + 10w³`, written out here; its gradient through the curve's slope, 0 where
/// `t` is clamped. `linear` is the plain weight.
#[test]
fn blend_interpolation_eases_the_weight() {
    let mut rng = Rng::new(17);
    let (a, b) = (-0.75, 2.5);
    for curve in choices("blend", "interpolation") {
        let node = Node::constant(a)
            .blend(b, Node::position(0))
            .with("interpolation", *curve);
        let mut sampler = Graph::from_node(&node).unwrap().sampler(2, 0).unwrap();
        for p in points(&mut rng, 2, 1.5) {
            let w = (p[0] * 0.5 + 0.5).clamp(0.0, 1.0);
            let (e, slope) = match *curve {
                "linear" => (w, if w > 0.0 && w < 1.0 { 0.5 } else { 0.0 }),
                "hermite" => (w * w * (3.0 - 2.0 * w), 3.0 * w * (1.0 - w)),
                "quintic" => (
                    w.powi(3) * (10.0 - 15.0 * w + 6.0 * w * w),
                    15.0 * w * w * (w - 1.0) * (w - 1.0),
                ),
                other => panic!("no formula for {other}"),
            };
            let want = a + (b - a) * e;
            let got = sampler.value_f64(&p);
            assert!(
                (got - want).abs() <= 1e-12,
                "{curve} at {p:?}: {got} vs {want}"
            );
            let p32: Vec<f32> = p.iter().map(|&x| x as f32).collect();
            let g = sampler.value_and_gradient(&p32);
            let want_dx = (b - a) * slope;
            assert!(
                (g[1] as f64 - want_dx).abs() <= 1e-5 * (1.0 + want_dx.abs()) && g[2] == 0.0,
                "{curve} at {p:?}: gradient {:?} vs d/dx {want_dx}",
                &g[1..3]
            );
        }
    }
}

/// `white`: one value per unit cell, the cellular `cell` value of that cell (jitter 0, read
/// at the cell's centre), the same anywhere in the cell, gradient 0; another seed gives
/// other values, still one per cell.
#[test]
fn white_noise_is_the_cell_value_of_the_points_cell() {
    let mut rng = Rng::new(18);
    for dims in 2..=4 {
        let sampler = |node: &Node| Graph::from_node(node).unwrap().sampler(dims, 0).unwrap();
        let mut white = sampler(&Node::white());
        let mut seeded = sampler(&Node::white().with("seed", 3));
        let mut cell = sampler(&Node::cellular().with("output", "cell").with("jitter", 0.0));
        let mut differ = 0;
        for reach in [300.0, 1e5] {
            for p in points(&mut rng, dims, reach) {
                let corner: Vec<f64> = p.iter().map(|x| x.floor()).collect();
                let centre: Vec<f64> = corner.iter().map(|x| x + 0.5).collect();
                let inside: Vec<f64> = corner.iter().map(|x| x + 0.999).collect();
                let v = white.value_f64(&p);
                assert_eq!(v, cell.value_f64(&centre), "{dims}D at {p:?}");
                assert_eq!(v, white.value_f64(&inside), "{dims}D at {p:?}");
                let s = seeded.value_f64(&p);
                assert_eq!(s, seeded.value_f64(&corner), "{dims}D seeded at {p:?}");
                differ += (s != v) as usize;
                let p32: Vec<f32> = p.iter().map(|&x| x as f32).collect();
                let g = white.value_and_gradient(&p32);
                assert_eq!(g[1..=dims], vec![0.0; dims][..], "{dims}D at {p32:?}");
            }
        }
        assert!(
            differ > 390,
            "{dims}D: seed 3 equals seed 0 at {} of 400 points",
            400 - differ
        );
    }
}

/// A node-driven gain: fBm of `x` whose gain is the point's `y`, written out in f64,
/// `Σ gᵏ x lᵏ / Σ gᵏ`, and its gradient: `∂/∂x = Σ gᵏ lᵏ / Σ gᵏ` and, through the gain,
/// `∂/∂y = (S′ N − S N′) / N²` (`S`, `N` the sums, `′` their derivatives by `g`).
#[test]
fn a_node_driven_gain_is_evaluated_per_sample_with_its_gradient() {
    let mut rng = Rng::new(19);
    let (octaves, lacunarity) = (4, 2.0f64);
    let node = Node::position(0)
        .fbm()
        .with("octaves", octaves)
        .with("lacunarity", lacunarity)
        .with_input("gain", Node::position(1));
    let mut sampler = Graph::from_node(&node).unwrap().sampler(2, 0).unwrap();
    for p in points(&mut rng, 2, 1.0) {
        let (x, g) = (p[0], p[1]);
        let (mut s, mut n, mut ds, mut dn, mut sx) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for k in 0..octaves {
            let (a, l) = (g.powi(k), lacunarity.powi(k));
            let da = if k == 0 {
                0.0
            } else {
                k as f64 * g.powi(k - 1)
            };
            s += a * x * l;
            n += a;
            ds += da * x * l;
            dn += da;
            sx += a * l;
        }
        let want = s / n;
        let got = sampler.value_f64(&p);
        assert!(
            (got - want).abs() <= 1e-12 * (1.0 + want.abs()),
            "at {p:?}: {got} vs {want}"
        );
        let p32: Vec<f32> = p.iter().map(|&v| v as f32).collect();
        let d = sampler.value_and_gradient(&p32);
        let (want_dx, want_dy) = (sx / n, (ds * n - s * dn) / (n * n));
        // f32 evaluation at a point rounded to f32: the sums' rounding, relative to their size.
        let close = |a: f32, b: f64| (a as f64 - b).abs() <= 2e-4 * (1.0 + b.abs());
        assert!(
            close(d[1], want_dx) && close(d[2], want_dy),
            "at {p:?}: gradient {:?} vs ({want_dx}, {want_dy})",
            &d[1..3]
        );
    }
}
