//! The warp node's octaves and amplitude, written out here from the plain noise functions in
//! f64: a progressive warp moves each octave's point by the octaves before it (FastNoise2's
//! progressive warp fractal), for every warp noise; an amplitude given by a node scales the
//! displacement per sample, and the gradient follows through it by the product rule; a
//! progressive warp of more than one iteration is refused.

use crate::common::graphs::Rng;

use wgpu_noise::cpu::fractal::base_vector;
use wgpu_noise::cpu::warp::WARP_SHIFT;
use wgpu_noise::cpu::{noise_at, NoiseHasher};
use wgpu_noise::graph::Graph;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// The warp noise `noise`'s component `axis` at `p` (a per-axis noise is one function for
/// every axis: it is sampled at a shifted point per axis).
pub(crate) fn warp_noise(lut: &impl NoiseHasher, noise: &str, p: &[f64], axis: usize) -> f64 {
    match noise {
        "vector" => base_vector(lut, NoiseKind::Value, p, &[0.0; 4][..p.len()], 0)[axis],
        "simplex-vector" => base_vector(lut, NoiseKind::Simplex, p, &[0.0; 4][..p.len()], 0)[axis],
        "simplex" => noise_at(lut, NoiseKind::Simplex, p),
        "classic" => noise_at(lut, NoiseKind::Classic, p),
        "value" => noise_at(lut, NoiseKind::Value, p),
        other => panic!("no warp noise {other}"),
    }
}

fn graph(warp: &str) -> Graph {
    Graph::from_json(&format!(
        r#"{{ "version": 1, "output": "w", "nodes": {{ "w": {warp} }} }}"#
    ))
    .unwrap_or_else(|e| panic!("{warp}: {e}"))
}

#[test]
fn a_progressive_warp_moves_each_octave_from_the_point_the_octaves_before_moved() {
    let (amplitude, frequency, gain, lacunarity) = (0.75, 1.25, 0.5f64, 2.0f64);
    let lut = PermutationTables::new(4);
    let mut rng = Rng::new(31);
    for noise in ["vector", "simplex-vector", "simplex", "classic", "value"] {
        for dims in 2..=4 {
            // Every axis's warped coordinate, one graph each (the source reads it).
            for axis in 0..dims {
                let g = graph(&format!(
                    r#"{{ "type": "warp", "fractal": "progressive", "noise": "{noise}",
                        "source": {{ "type": "position", "axis": "{}" }},
                        "amplitude": {amplitude}, "frequency": {frequency}, "octaves": 3,
                        "gain": {gain}, "lacunarity": {lacunarity} }}"#,
                    ["x", "y", "z", "w"][axis]
                ));
                let mut sampler = g.sampler(dims, 4).unwrap();
                for reach in [10.0, 1e4] {
                    for _ in 0..40 {
                        let p: Vec<f64> = (0..dims).map(|_| rng.range(-reach, reach)).collect();
                        let norm = 1.0 + gain + gain * gain;
                        let mut q = p.clone();
                        for k in 0..3 {
                            let f = frequency * lacunarity.powi(k);
                            // The graph's octave amplitude, an f32 constant: the warp's
                            // amplitude times g^k over the amplitudes' sum, each in f32.
                            let a = (amplitude as f32 * (gain.powi(k) as f32 / norm as f32)) as f64;
                            let d: Vec<f64> = (0..dims)
                                .map(|b| {
                                    // Octave k's shift: iteration k's of an iterated warp
                                    // (per axis, or the first axis's for a vector).
                                    let times = if noise.ends_with("vector") {
                                        k as usize * dims + 1
                                    } else {
                                        k as usize * dims + b + 1
                                    };
                                    let at: Vec<f64> = (0..dims)
                                        .map(|c| q[c] * f + WARP_SHIFT[c] * times as f64)
                                        .collect();
                                    warp_noise(&lut, noise, &at, b)
                                })
                                .collect();
                            for b in 0..dims {
                                q[b] += a * d[b];
                            }
                        }
                        let got = sampler.value_f64(&p);
                        // The same f32 constants; the graph's f64 arithmetic rounds in its
                        // own order.
                        assert!(
                            (got - q[axis]).abs() < 1e-9 * (1.0 + reach),
                            "{noise} {dims}D axis {axis} at {p:?}: {got} vs {}",
                            q[axis]
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_node_driven_amplitude_scales_the_displacement_per_sample_with_its_gradient() {
    let lut = PermutationTables::new(2);
    let mut rng = Rng::new(32);
    // The amplitude is y itself: x + y × v(p + shift), whose gradient is
    // (1 + y ∂v/∂x, v + y ∂v/∂y).
    let g = graph(
        r#"{ "type": "warp", "noise": "vector", "source": { "type": "position", "axis": "x" },
             "amplitude": { "type": "position", "axis": "y" } }"#,
    );
    let mut sampler = g.sampler(2, 2).unwrap();
    for _ in 0..200 {
        let p = [rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)];
        let at = |p: &[f64; 2]| [p[0] + WARP_SHIFT[0], p[1] + WARP_SHIFT[1]];
        let v = |p: &[f64; 2]| base_vector(&lut, NoiseKind::Value, &at(p), &[0.0; 2], 0)[0];
        let want = p[0] + p[1] * v(&p);
        let got = sampler.value_f64(&p);
        assert!((got - want).abs() < 1e-12, "at {p:?}: {got} vs {want}");
        // The analytic gradient (f32) against central differences of the f64 value.
        let h = 1e-5;
        let central = |axis: usize| {
            let (mut hi, mut lo) = (p, p);
            hi[axis] += h;
            lo[axis] -= h;
            (hi[0] + hi[1] * v(&hi) - (lo[0] + lo[1] * v(&lo))) / (hi[axis] - lo[axis])
        };
        let d = sampler.value_and_gradient(&[p[0] as f32, p[1] as f32]);
        for axis in 0..2 {
            let want = central(axis);
            // f32 at a point rounded to f32 (slopes up to about 10 there), against central
            // differences good to 1e-8.
            assert!(
                (d[1 + axis] as f64 - want).abs() < 1e-4 * (1.0 + want.abs()),
                "at {p:?}: ∂/∂{axis} {} vs central {want}",
                d[1 + axis]
            );
        }
    }
}

#[test]
fn a_progressive_warp_of_several_iterations_is_refused() {
    let text = r#"{ "version": 1, "output": "w", "nodes": { "w": { "type": "warp",
        "fractal": "progressive", "iterations": 2, "amplitude": 1, "source": { "type": "simplex" } } } }"#;
    let e = Graph::from_json(text)
        .unwrap()
        .program(2, [0.0; 4])
        .unwrap_err();
    assert_eq!(e.path, "nodes.w.iterations", "{e}");
    assert!(e.message.contains("one iteration"), "{e}");
}
