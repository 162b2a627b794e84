//! The graphs at the bounds of docs/graphs.md "Finite numbers" (the issue-46 probes:
//! fractals, terraces, blends and ping-pong of the largest constants, powers with an
//! infinite slope at 0, remaps of the narrowest ranges) give finite values, gradients and
//! curls on the GPU, on every backend (Vulkan and GL), equal to the `f32` CPU evaluator's
//! within the bounds of the graph parity tests: the WGSL follows the CPU's finite rule.

use crate::common;
use crate::common::graphs::{graph_parity, one_node_graph, Parity, DERIVATIVES, EXTREMES, JUMPS};

use wgpu_noise::cpu::fill::sample_point;
use wgpu_noise::field::FlagField;
use wgpu_noise::graph::{eval, Graph, Program};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{FieldOutput, NoiseKind};

/// The sample points of a field through the origin (where simplex and classic noise are
/// 0): 64 × 4 in 2D, 16 × 4 × 4 in 3D.
fn points(dims: usize) -> Vec<[f32; 4]> {
    let size: &[u32] = if dims == 2 { &[64, 4] } else { &[16, 4, 4] };
    let field = FlagField::new(NoiseKind::Simplex, size).with_frequency(&vec![4.0; dims]);
    let params = FillParams::new(&field, Slab::whole(&field));
    let [nx, ny, nz, _] = params.extent;
    let mut out = Vec::new();
    for z in 0..nz {
        for y in 0..ny {
            for x in 0..nx {
                out.push(sample_point(&params, [x, y, z, 0]));
            }
        }
    }
    out
}

/// `output` of `program` at `points` on the CPU, in `f32` and `f64`, in the GPU's layout.
fn cpu(program: &Program, output: FieldOutput, points: &[[f32; 4]]) -> (Vec<f32>, Vec<f64>) {
    let lut = PermutationTables::new(0);
    let n = output.values_per_sample(program.dims());
    let (mut r32, mut r64) = (Vec::new(), Vec::new());
    let mut regs32 = Vec::new();
    let mut regs64 = Vec::new();
    for p in points {
        let p64 = p.map(f64::from);
        match output {
            FieldOutput::Value => {
                r32.push(eval::value::<f32>(program, &lut, *p, &mut Vec::new()));
                r64.push(eval::value::<f64>(program, &lut, p64, &mut Vec::new()));
            }
            FieldOutput::Gradient => {
                r32.extend(&eval::value_and_gradient::<f32>(program, &lut, *p, &mut regs32)[..n]);
                r64.extend(&eval::value_and_gradient::<f64>(program, &lut, p64, &mut regs64)[..n]);
            }
            FieldOutput::Curl => {
                r32.extend(&eval::curl::<f32>(program, &lut, *p, &mut regs32)[..n]);
                r64.extend(&eval::curl::<f64>(program, &lut, p64, &mut regs64)[..n]);
            }
        }
    }
    (r32, r64)
}

/// Channel 0 of a value or gradient under the values' bound, every other channel (and
/// every curl component) under [`DERIVATIVES`]; every GPU value finite; at most [`JUMPS`]
/// of a channel's values over (kinks).
fn assert_close(label: &str, output: FieldOutput, n: usize, gpu: &[f32], c32: &[f32], c64: &[f64]) {
    assert_eq!(gpu.len(), c32.len(), "{label}: value count");
    for c in 0..n {
        let pick = |v: &[f32]| v.iter().skip(c).step_by(n).copied().collect::<Vec<_>>();
        let (g, k) = (pick(gpu), pick(c32));
        let label = format!("{label} channel {c}");
        let parity = if c == 0 && output != FieldOutput::Curl {
            let k64: Vec<f64> = c64.iter().skip(c).step_by(n).copied().collect();
            graph_parity(&label, &g, &k, &k64)
        } else {
            let mut p = Parity {
                bound: DERIVATIVES,
                ..Parity::default()
            };
            for (i, (a, b)) in g.iter().zip(&k).enumerate() {
                assert!(
                    a.is_finite() && b.is_finite(),
                    "{label}: value {i}: gpu {a} cpu {b}"
                );
                if (a - b).abs() / (1.0 + b.abs()) > DERIVATIVES {
                    p.over += 1;
                }
            }
            p
        };
        assert!(
            parity.over as f64 <= JUMPS * g.len() as f64,
            "{label}: {} of {} values over the bound {:e}; gpu {g:?}\ncpu {k:?}",
            parity.over,
            g.len(),
            parity.bound
        );
    }
}

#[test]
fn graphs_at_the_bounds_are_finite_on_every_backend_and_match_the_cpu() {
    let backends = common::gpu_per_backend();
    for (backend, ctx) in &backends {
        let gpu = common::generator(ctx, 0);
        for (what, node) in EXTREMES {
            for dims in [2, 3] {
                let program = Graph::from_json(&one_node_graph(node))
                    .and_then(|g| g.program(dims, [0.0; 4]))
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let points = points(dims);
                for output in [FieldOutput::Value, FieldOutput::Gradient, FieldOutput::Curl] {
                    let on_gpu = gpu
                        .evaluate_graph(&program, output, &points)
                        .unwrap_or_else(|e| panic!("{backend} {what}: {e}"));
                    let (c32, c64) = cpu(&program, output, &points);
                    let n = output.values_per_sample(dims);
                    let label = format!("{backend}, {what}, {dims}D {output:?}");
                    assert_close(&label, output, n, &on_gpu, &c32, &c64);
                }
            }
        }
    }
}
