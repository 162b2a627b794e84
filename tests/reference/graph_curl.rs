//! Curl of any graph (`graph::eval::curl`): divergence-free in 2D and 3D (central
//! differences of the curl, f64), and the curl of a graph of one simplex source is the
//! flags' curl noise (`cpu::fill::fill_slab_curl`) byte for byte.

use crate::common::graphs::Rng;

use std::sync::Arc;

use wgpu_noise::bake::NoiseSpec;
use wgpu_noise::cpu::CpuLookup;
use wgpu_noise::field::FlagField;
use wgpu_noise::graph::plan::Plan;
use wgpu_noise::graph::{eval, Graph, Program};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{FieldOutput, LookupVariant, NoiseKind};

/// A graph with every smooth kind of node: classic fBm blended into warped continuous
/// simplex noise by a third source, scaled and rotated (no kinks: C² everywhere, so the
/// curl's divergence is 0 up to the differences' own error).
const SMOOTH: &str = r#"{
  "version": 1,
  "output": "out",
  "nodes": {
    "mask": { "type": "simplex", "kernel": "continuous", "seed": 2 },
    "hills": { "type": "fbm", "source": { "type": "classic", "seed": 1 }, "octaves": 3 },
    "flow": { "type": "warp", "amplitude": 0.3, "noise": "classic",
              "source": { "type": "simplex", "kernel": "continuous" } },
    "mixed": { "type": "blend", "a": "hills", "b": "flow", "t": "mask" },
    "out": { "type": "rotate", "angle": 0.7, "source": { "type": "scale", "by": 1.7, "source": "mixed" } }
  }
}"#;

/// The terrain example: cellular borders, ridges and terrace ramps are kinks of its value,
/// so its gradient jumps there and the curl's divergence is a spike; elsewhere it is 0.
const TERRAIN: &str = include_str!("../../examples/graphs/terrain.json");

/// The divergence of the curl at `p` by central differences with step `h`, and the sum of
/// the magnitudes of its terms (what cancels).
fn divergence(program: &Program, lut: &PermutationTables, p: [f64; 4], h: f64) -> (f64, f64) {
    let mut duals = Vec::new();
    let (mut div, mut size) = (0.0, 0.0);
    for a in 0..program.dims() {
        let (mut lo, mut hi) = (p, p);
        lo[a] -= h;
        hi[a] += h;
        let c_hi = eval::curl::<f64>(program, lut, hi, &mut duals)[a];
        let c_lo = eval::curl::<f64>(program, lut, lo, &mut duals)[a];
        let term = (c_hi - c_lo) / (hi[a] - lo[a]);
        div += term;
        size += term.abs();
    }
    (div, size)
}

/// `|div| / (1 + Σ|∂cₐ/∂pₐ|)` at random points for `text` in `dims` dimensions; at
/// points where the differences with `h` and `h/2` disagree (a kink within the step) the
/// curl is not differentiable and the point is skipped. Returns (worst, checked, skipped).
fn relative_divergence(text: &str, dims: usize, scale: f64) -> (f64, usize, usize) {
    let program = Graph::from_json(text)
        .unwrap()
        .program(dims, [0.0; 4])
        .unwrap();
    let lut = PermutationTables::new(4);
    let mut rng = Rng::new(dims as u64);
    let (mut worst, mut checked, mut skipped) = (0.0f64, 0, 0);
    let h = 1e-5;
    for _ in 0..400 {
        let p: [f64; 4] = std::array::from_fn(|a| {
            if a < dims {
                rng.range(-scale, scale)
            } else {
                0.0
            }
        });
        let (d1, s1) = divergence(&program, &lut, p, h);
        let (d2, s2) = divergence(&program, &lut, p, h / 2.0);
        if (d1 - d2).abs() > 1e-5 * (1.0 + s1.max(s2)) {
            skipped += 1;
            continue;
        }
        worst = worst.max(d2.abs() / (1.0 + s2));
        checked += 1;
    }
    (worst, checked, skipped)
}

/// Measured: `|div curl|` is at most 7.5e-7 of its terms for the smooth graph and 3.1e-6
/// for the terrain away from its kinks, 2D and 3D, at |p| up to 1e3 (printed): the h²
/// truncation of second differences of fields whose third derivatives are large. A curl
/// built wrong (a swapped sign, a component from the wrong copy) leaves divergences of the
/// size of the terms themselves.
const DIVERGENCE_TOLERANCE: f64 = 2e-5;

#[test]
fn the_curl_of_a_graph_is_divergence_free_in_2d_and_3d() {
    for dims in [2, 3] {
        for (name, text) in [("smooth", SMOOTH), ("terrain", TERRAIN)] {
            for scale in [10.0, 1e3] {
                let (worst, checked, skipped) = relative_divergence(text, dims, scale);
                println!(
                    "{name} {dims}D at |p| ≤ {scale}: |div curl| ≤ {worst:.1e} of its terms at \
                     {checked} points, {skipped} at kinks skipped"
                );
                assert!(worst < DIVERGENCE_TOLERANCE, "{name} {dims}D: {worst}");
                if name == "smooth" {
                    assert_eq!(skipped, 0, "a smooth graph has no kinks");
                } else {
                    assert!(skipped * 4 < checked, "{name} {dims}D: {skipped} kinks");
                }
            }
        }
    }
}

/// A 4D-free field of `dims` dimensions for the byte comparisons.
fn field(dims: usize) -> FlagField {
    let size = [40, 24, 6, 1];
    FlagField::new(NoiseKind::Simplex, &size[..dims])
        .with_frequency(&[3.0; 4][..dims])
        .with_offset(&[-1.5, 7.25, 0.5, 0.0][..dims])
}

#[test]
fn the_curl_of_one_simplex_source_is_the_flags_curl_noise_byte_for_byte() {
    // The flags' curl noise is one simplex source of the continuous kernel in 3D (2D
    // simplex noise has one kernel).
    let one = |kernel: &str| {
        format!(
            r#"{{ "version": 1, "output": "n", "nodes": {{ "n": {{ "type": "simplex", "kernel": "{kernel}" }} }} }}"#
        )
    };
    for lookup in [LookupVariant::Textures, LookupVariant::Hash] {
        for dims in [2, 3] {
            let field = field(dims);
            let params = FillParams::new(&field, Slab::whole(&field));
            let lut = CpuLookup::new(lookup, 9);
            let flags = NoiseSpec::of_flags(&field, FieldOutput::Curl, 9)
                .unwrap()
                .with_lookup(lookup);
            let program = Graph::from_json(&one("continuous"))
                .unwrap()
                .program(dims, [0.0; 4])
                .unwrap();
            // The generic evaluator, not the fill the planner would fuse the graph to.
            let graph = Plan::Graph {
                field: program.sampled_field(&field),
                program: Arc::new(program),
            };
            let mut a = vec![0.0f32; params.len() * dims];
            let mut b = vec![0.0f32; params.len() * dims];
            lut.fill(&flags.plan(), FieldOutput::Curl, &params, &mut a);
            lut.fill(&graph, FieldOutput::Curl, &params, &mut b);
            let same = a.iter().zip(&b).filter(|(x, y)| x.to_bits() == y.to_bits());
            assert_eq!(
                same.count(),
                a.len(),
                "{lookup:?} {dims}D: the graph's curl differs from the flags'"
            );
            println!("{lookup:?} {dims}D: {} curl components identical", a.len());
        }
    }
}
