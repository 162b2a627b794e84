//! `GpuNoise::read`: any graph's value, gradient or curl on any grid comes back in the CPU's
//! layout, box by box in memory order, from the kernel the planner picks (the hand-written
//! fill for a flag-shaped graph, the graph's own pipeline otherwise), equal to the `f32`
//! CPU fill of the same plan, on every backend and at small and large coordinates: values
//! within the bake's verification tolerance, derivatives (a gradient's, a curl's
//! components) within the relative bound of docs/graphs.md with its allowance for kinks.

use std::sync::Arc;

use crate::common;
use crate::common::graphs::{DERIVATIVES, JUMPS};
use wgpu_noise::bake::{default_tolerance, NoiseSpec};
use wgpu_noise::cpu::CpuLookup;
use wgpu_noise::field::FlagField;
use wgpu_noise::graph::plan::Plan;
use wgpu_noise::graph::{Graph, Node, Program};
use wgpu_noise::{FieldOutput, LookupVariant, NoiseKind};

/// The graphs read: one of the hand-written fill's shape, and two it does not have.
fn graphs() -> Vec<(&'static str, Graph)> {
    let terrain = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs/terrain.json"),
    )
    .expect("terrain example");
    vec![
        (
            "fBm of simplex",
            Graph::from_node(&Node::simplex().fbm().with("octaves", 4)).unwrap(),
        ),
        (
            "a sum of two sources",
            Graph::from_node(&(Node::simplex() * 0.7 + Node::cellular() * 0.3)).unwrap(),
        ),
        ("terrain", Graph::from_json(&terrain).unwrap()),
    ]
}

#[test]
fn every_graph_output_reads_back_in_the_cpu_layout_as_the_cpu_computes_it() {
    let outputs = [FieldOutput::Value, FieldOutput::Gradient, FieldOutput::Curl];
    let mut fused = 0;
    for (backend, ctx) in common::gpu_per_backend() {
        let gpu = common::generator(&ctx, 5);
        let cpu = CpuLookup::new(LookupVariant::Textures, 5);
        for (name, graph) in graphs() {
            for (size, offset) in [
                (&[24u32, 16][..], &[0.0, 0.0][..]),
                (&[12, 8, 6][..], &[-3.5e4, 2.0e5, 7.25][..]),
            ] {
                let dims = size.len();
                let program: Program = graph.program(dims, [0.0; 4]).unwrap();
                let field = FlagField::new(NoiseKind::Simplex, size)
                    .with_frequency(&[3.0; 4][..dims])
                    .with_offset(offset);
                for output in outputs {
                    let what = format!("{backend} {name} {dims}D {output:?}");
                    let plan = Plan::new(Arc::new(program.clone()), &field, output);
                    fused += matches!(plan, Plan::Fused(_)) as usize;
                    let spec =
                        NoiseSpec::new(program.clone(), field.grid.clone(), 5).with_output(output);
                    let tolerance = default_tolerance(&spec);
                    let channels = output.values_per_sample(dims);
                    let (mut texels, mut worst, mut kinks) = (0u64, 0.0f32, 0usize);
                    gpu.read_plan(&plan, output, |params, values| {
                        let first = (0..dims).rev().fold(0u64, |i, a| {
                            i * field.size[a] as u64 + params.origin[a] as u64
                        });
                        assert_eq!(first, texels, "{what}: boxes in memory order");
                        assert_eq!(values.len(), params.len() * channels, "{what}: layout");
                        let mut expected = vec![0.0; values.len()];
                        cpu.fill(&plan, output, params, &mut expected);
                        for (g, c) in values.chunks(channels).zip(expected.chunks(channels)) {
                            for k in 0..channels {
                                assert!(g[k].is_finite(), "{what}: channel {k}: GPU {}", g[k]);
                                let (error, bound) = if k == 0 && output != FieldOutput::Curl {
                                    ((g[k] - c[k]).abs(), tolerance)
                                } else {
                                    ((g[k] - c[k]).abs() / (1.0 + c[k].abs()), DERIVATIVES)
                                };
                                if error > bound && bound == DERIVATIVES {
                                    kinks += 1;
                                    continue;
                                }
                                assert!(
                                    error <= bound,
                                    "{what}: channel {k}: GPU {} CPU {} (bound {bound})",
                                    g[k],
                                    c[k]
                                );
                                worst = worst.max(error / bound);
                            }
                        }
                        texels += params.len() as u64;
                        Ok(())
                    })
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                    let values = texels as f64 * channels as f64;
                    assert!(
                        kinks as f64 <= JUMPS * values,
                        "{what}: {kinks} of {values} derivatives over the bound {DERIVATIVES}"
                    );
                    assert_eq!(texels, field.len(), "{what}: every texel once");
                    println!("{what}: worst error {worst:.3} of the bound, {kinks} at kinks");
                }
            }
        }
    }
    // The fBm graph's value (both sizes) and its 2D and 3D gradient run on the fill.
    assert!(fused > 0, "no graph ran on the hand-written fill");
}

/// The public `read` hands over each box as a `FieldBox` (its first texel and size), in
/// memory order, with the same values the plan's own readback gives.
#[test]
fn read_hands_over_field_boxes_in_memory_order() {
    for (backend, ctx) in common::gpu_per_backend() {
        let gpu = common::generator(&ctx, 5);
        for (name, graph) in graphs().into_iter().take(2) {
            let size = [20u32, 12, 6];
            let program = graph.program(3, [0.0; 4]).unwrap();
            let field = wgpu_noise::Field::new(&size).with_frequency(&[3.0; 3]);
            let plan = Plan::new(Arc::new(program.clone()), &field, FieldOutput::Value);
            let mut planned = Vec::new();
            gpu.read_plan(&plan, FieldOutput::Value, |_, values| {
                planned.extend_from_slice(values);
                Ok(())
            })
            .unwrap();
            let mut read = Vec::new();
            gpu.read(&program, &field, FieldOutput::Value, |texels, values| {
                let first = (0..3)
                    .rev()
                    .fold(0u64, |i, a| i * size[a] as u64 + texels.origin[a] as u64);
                assert_eq!(first, read.len() as u64, "{backend} {name}: memory order");
                let count: u32 = texels.extent.iter().product();
                assert_eq!(values.len(), count as usize, "{backend} {name}: box size");
                read.extend_from_slice(values);
                Ok(())
            })
            .unwrap();
            assert_eq!(read.len() as u64, field.len(), "{backend} {name}");
            assert!(read == planned, "{backend} {name}: the plan's values");
        }
    }
}
