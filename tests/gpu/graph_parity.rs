//! Noise graphs on the GPU equal the f32 CPU evaluator, on every backend and both lookup
//! variants: the terrain example of docs/graphs.md and random graphs of every node type,
//! at small and large coordinates. The tests of particular graphs take one lookup per
//! backend (`common::gpu_per_backend_taking_turns`).

use crate::common;
use crate::common::graphs::{assert_graph_parity, covering_graphs, Rng};

use wgpu_noise::cpu::fill::sample_point;
use wgpu_noise::cpu::CpuLookup;
use wgpu_noise::cpu::IntegerHasher;
use wgpu_noise::field::FlagField;
use wgpu_noise::gpu::{GpuNoise, LookupVariant};
use wgpu_noise::graph::plan::Plan;
use wgpu_noise::graph::{eval, Graph, Program};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{FieldOutput, NoiseKind};

/// The field filled by the GPU's graph pipeline, by the f32 CPU evaluator, and by the f64
/// one at the same (f32) sample points.
fn fill_both(
    gpu: &GpuNoise,
    variant: LookupVariant,
    seed: u64,
    field: &FlagField,
    program: Program,
) -> (Vec<f32>, Vec<f32>, Vec<f64>) {
    let pipeline = gpu
        .graph_pipeline(&program, FieldOutput::Value)
        .expect("graph pipeline");
    let mut on_gpu = Vec::new();
    for params in FillParams::boxes(field, gpu.graph_box_texels(&pipeline)) {
        gpu.fill_graph_box(&pipeline, &params, &mut on_gpu)
            .expect("graph fill");
    }
    let params = FillParams::new(field, Slab::whole(field));
    let mut on_cpu = vec![0.0; params.len()];
    let f64_at = |lut: &dyn Fn([f64; 4]) -> f64| -> Vec<f64> {
        let [nx, ny, nz, _] = params.extent.map(|e| e as usize);
        (0..params.len())
            .map(|i| {
                let index = [
                    i % nx,
                    (i / nx) % ny,
                    (i / (nx * ny)) % nz,
                    i / (nx * ny * nz),
                ]
                .map(|v| v as u32);
                lut(sample_point(&params, index).map(f64::from))
            })
            .collect()
    };
    let regs = std::cell::RefCell::new(Vec::new());
    let on_cpu64 = match variant {
        LookupVariant::Textures => {
            let lut = PermutationTables::new(seed);
            f64_at(&|p| eval::value::<f64>(&program, &lut, p, &mut regs.borrow_mut()))
        }
        LookupVariant::Hash => {
            let lut = IntegerHasher::new(seed);
            f64_at(&|p| eval::value::<f64>(&program, &lut, p, &mut regs.borrow_mut()))
        }
    };
    // The generic evaluator at the GPU's own sample points (`params`), not the
    // hand-written fill a flag-shaped graph would run on in a bake (`NoiseSpec::plan`).
    let plan = Plan::Graph {
        program: std::sync::Arc::new(program),
        field: field.clone(),
    };
    CpuLookup::new(variant, seed).fill(&plan, FieldOutput::Value, &params, &mut on_cpu);
    (on_gpu, on_cpu, on_cpu64)
}

fn field(dims: usize, offset: f64) -> FlagField {
    let size: &[u32] = match dims {
        2 => &[23, 17],
        3 => &[11, 9, 5],
        _ => &[6, 5, 4, 3],
    };
    FlagField::new(NoiseKind::Simplex, size)
        .with_frequency(&vec![3.0; dims])
        .with_offset(&vec![offset; dims])
}

#[test]
fn the_terrain_example_on_the_gpu_equals_the_f32_cpu() {
    let graph = Graph::from_json(include_str!("../../examples/graphs/terrain.json")).unwrap();
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(3) {
        for dims in [2, 3] {
            for offset in [0.0, 1e4] {
                let field = field(dims, offset).with_frequency(&vec![4.0; dims]);
                let program = graph.program(dims, [0.0; 4]).unwrap();
                let (g, c, c64) = fill_both(&gpu, variant, 3, &field, program);
                let label = format!("{backend} {variant:?} terrain {dims}D offset {offset}");
                println!(
                    "{label}: max relative error {:.1e}",
                    assert_graph_parity(&label, &g, &c, &c64)
                );
            }
        }
    }
}

/// Random graphs (every node type, and every choice of `COVERED_CHOICES`; random wiring,
/// depth up to 6, 2D to 4D, offsets 0 to 1e4) on each backend, the lookups taking turns.
#[test]
fn random_graphs_on_the_gpu_equal_the_f32_cpu() {
    // 120 graphs per backend, then of the graphs drawn after them (up to 5000) only those
    // that use a node type or choice none before used, until every one is used. Not
    // hundreds: a graph's pipeline is compiled per backend (lavapipe, llvmpipe), and deep
    // graphs compile slowly: the first 80 graphs took 21 s on both backends, the first 249
    // 251 s; these 123 (217 drawn) take 44 s (AMD EPYC VM, 2 cores, load 2.6–3.7 with another
    // build running, 2026-11-30).
    const GRAPHS: usize = 120;
    for (backend, ctx) in common::gpu_per_backend() {
        let generators = common::generator_per_lookup(&ctx, 9);
        let mut rng = Rng::new(31);
        let mut worst = 0.0f32;
        let (kept, drawn) =
            covering_graphs(backend, &mut rng, GRAPHS, |rng, i, shape, text, program| {
                let (variant, gpu) = &generators[i % generators.len()];
                let offset = *rng.pick(&[0.0, 100.0, 1e4]);
                let (g, c, c64) = fill_both(gpu, *variant, 9, &field(shape.dims, offset), program);
                worst = worst.max(assert_graph_parity(
                    &format!("{backend} {variant:?} {text}"),
                    &g,
                    &c,
                    &c64,
                ));
            });
        println!(
            "{backend}: {kept} random graphs of {drawn} drawn, max relative error {worst:.1e}"
        );
    }
}

/// `graph_pipeline` keeps compiled graphs; the hash variant's pipelines are specialised for
/// a seed, so after `set_seed` the same graph must compile again, not come from the cache.
#[test]
fn a_cached_graph_pipeline_follows_the_generators_seed() {
    let graph = Graph::from_json(include_str!("../../examples/graphs/terrain.json")).unwrap();
    let Some(ctx) = common::gpu() else {
        return;
    };
    let field = field(2, 0.0);
    for (variant, mut gpu) in common::generator_per_lookup(&ctx, 1) {
        let program = graph.program(2, [0.0; 4]).unwrap();
        let (first, cpu1, c64) = fill_both(&gpu, variant, 1, &field, program.clone());
        assert_graph_parity(&format!("{variant:?} seed 1"), &first, &cpu1, &c64);
        gpu.set_seed(2);
        let (second, cpu2, c64) = fill_both(&gpu, variant, 2, &field, program.clone());
        assert_graph_parity(&format!("{variant:?} seed 2"), &second, &cpu2, &c64);
        assert_ne!(first, second, "{variant:?}: seed 2 drew seed 1's field");
        gpu.set_seed(1);
        let (again, _, _) = fill_both(&gpu, variant, 1, &field, program);
        assert_eq!(
            again, first,
            "{variant:?}: back on seed 1, the cached pipeline"
        );
    }
}

/// The issue-46 limit graph: two nested fBm of 16 octaves over a sum of two sources, 512
/// noise calls per sample, the most a graph may evaluate.
pub const LIMIT_GRAPH: &str = r#"{"version": 1, "output": "o", "nodes": {"o": {"type": "fbm",
    "octaves": 16, "source": {"type": "fbm", "octaves": 16, "source": {"type": "add",
    "a": {"type": "simplex"}, "b": {"type": "classic", "seed": 3}}}}}}"#;

/// Octaves of one shape are written as a loop, so the function the shader compilers
/// (which inline every call) see holds a few noise calls, not one per octave; it equals
/// the CPU, whose lowering expands every octave.
#[test]
fn a_graph_at_the_noise_call_limit_is_written_as_loops_and_equals_the_f32_cpu() {
    let graph = Graph::from_json(LIMIT_GRAPH).unwrap();
    for dims in [2, 3, 4] {
        let program = graph.program(dims, [0.0; 4]).unwrap();
        assert_eq!(program.noise_calls(), 512);
        let sites = wgpu_noise::graph::wgsl::noise_call_sites(&program);
        // Octave 0 of each fBm is written before its loop (the lowering leaves out its
        // scale by 1 only when the seed allows it to share the loop's shape): 2 × 2 × 2.
        assert!(sites <= 8, "{dims}D: {sites} noise calls written");
    }
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(5) {
        for (dims, offset) in [(2, 0.0), (3, 1e4)] {
            let program = graph.program(dims, [0.0; 4]).unwrap();
            let (g, c, c64) = fill_both(&gpu, variant, 5, &field(dims, offset), program);
            let label = format!("{backend} {variant:?} limit graph {dims}D offset {offset}");
            println!(
                "{label}: max relative error {:.1e}",
                assert_graph_parity(&label, &g, &c, &c64)
            );
        }
    }
}

/// The sine (`wgpu_noise_sin`, the same f32 operations as the CPU's, not WGSL's `sin`) on
/// the GPU equals the f32 CPU within the value tolerance at arguments from 0 to near its
/// limit 2²⁴, where a driver's `sin` is far off: the reduction's products are exact, so a
/// compiler that fuses them into multiply-adds computes the same bits.
#[test]
fn the_sine_on_the_gpu_equals_the_f32_cpu_up_to_its_limit() {
    for (backend, ctx) in common::gpu_per_backend() {
        let (variant, gpu) = common::generator_per_lookup(&ctx, 1).swap_remove(0);
        let mut worst = 0.0f32;
        for (scale, offset) in [(1.0, 0.0), (0.05, 100.0), (1e-3, 1e4), (1e-3, 1.6e4)] {
            for dims in [2, 3] {
                let node = wgpu_noise::graph::Node::of_type("sine").with("scale", scale);
                let program = Graph::from_node(&node)
                    .unwrap()
                    .program(dims, [0.0; 4])
                    .unwrap();
                let (g, c, _) = fill_both(&gpu, variant, 1, &field(dims, offset), program);
                let error = g
                    .iter()
                    .zip(&c)
                    .map(|(g, c)| (g - c).abs())
                    .fold(0.0, f32::max);
                println!(
                    "{backend} sine scale {scale} {dims}D offset {offset}: max error {error:.1e}"
                );
                assert!(
                    error <= wgpu_noise::gpu::parity::PARITY_TOLERANCE,
                    "{backend} sine scale {scale} {dims}D offset {offset}: {error:e}"
                );
                worst = worst.max(error);
            }
        }
        println!("{backend}: sine, max error {worst:.1e}");
    }
}

/// `curve` (its segment picked by comparisons, its cubic's numbers computed when the graph
/// is read) over simplex fBm on the GPU equals the f32 CPU within the graph bound: curves of
/// 2, 4 and 8 points, one that turns at its points (gradients: the random graphs of
/// graph_gradient_parity.rs).
#[test]
fn curves_on_the_gpu_equal_the_f32_cpu() {
    let curves = [
        "[[-0.5, -1], [0.5, 1]]",
        "[[-1, -1], [-0.2, -0.9], [0.1, 0.8], [1, 1]]",
        "[[-0.9, 0.5], [-0.6, -0.5], [-0.3, 1.5], [0, 1.5], [0.1, 1.5], [0.3, -2], [0.5, 0], [0.8, 0.2]]",
    ];
    for (backend, ctx) in common::gpu_per_backend() {
        let (variant, gpu) = common::generator_per_lookup(&ctx, 4).swap_remove(0);
        let mut worst = 0.0f32;
        for points in curves {
            let text = common::graphs::graph_of_node(&format!(
                r#"{{ "type": "curve", "points": {points},
                     "source": {{ "type": "fbm", "source": {{ "type": "simplex" }}, "octaves": 3 }} }}"#
            ));
            let graph = Graph::from_json(&text).unwrap();
            for (dims, offset) in [(2, 0.0), (3, 1e4)] {
                let program = graph.program(dims, [0.0; 4]).unwrap();
                let (g, c, c64) = fill_both(&gpu, variant, 4, &field(dims, offset), program);
                let label = format!("{backend} curve {points} {dims}D offset {offset}");
                let error = assert_graph_parity(&label, &g, &c, &c64);
                println!("{label}: max relative error {error:.1e}");
                worst = worst.max(error);
            }
        }
        println!("{backend}: curves, max relative error {worst:.1e}");
    }
}

/// `cellular-lookup` (simplex and `position` lookups; euclidean, manhattan and Minkowski
/// features; untiled and tiled; 2D to 4D; offsets 0 and 1e4) on the GPU equals the f32 CPU:
/// exactly at most samples, within the graph bound but for the samples whose nearest
/// feature the GPU and the CPU pick differently (a border within rounding: the lookup's
/// jump), at most 1 % of a field, counted.
#[test]
fn cellular_lookup_on_the_gpu_equals_the_f32_cpu() {
    let sources = [
        r#"{ "type": "simplex" }"#,
        r#"{ "type": "position", "axis": "x" }"#,
    ];
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(6) {
        let (mut samples, mut exact, mut over, mut worst) = (0usize, 0usize, 0usize, 0.0f32);
        for source in sources {
            for metric in ["euclidean", "manhattan", "minkowski"] {
                let text = common::graphs::graph_of_node(&format!(
                    r#"{{ "type": "cellular-lookup", "source": {source}, "distance": "{metric}",
                         "exponent": 3, "frequency": 0.3, "jitter": 0.9, "seed": 2 }}"#
                ));
                let graph = Graph::from_json(&text).unwrap();
                for dims in 2..=4 {
                    for (period, offset) in [(0.0, 0.0), (0.0, 1e4), (6.0, 0.0)] {
                        let program = graph.program(dims, [period; 4]).unwrap();
                        let field = field(dims, offset);
                        let (g, c, c64) = fill_both(&gpu, variant, 6, &field, program);
                        let label = format!(
                            "{backend} {variant:?} lookup {source} {metric} {dims}D \
                             period {period} offset {offset}"
                        );
                        let parity = common::graphs::graph_parity(&label, &g, &c, &c64);
                        worst = worst.max(assert_graph_parity(&label, &g, &c, &c64));
                        samples += g.len();
                        exact += g
                            .iter()
                            .zip(&c)
                            .filter(|(g, c)| g.to_bits() == c.to_bits())
                            .count();
                        over += parity.over;
                    }
                }
            }
        }
        println!(
            "{backend}: cellular-lookup, {samples} samples, {exact} exact, {over} over the \
             bound (another feature), max relative error of the others {worst:.1e}"
        );
    }
}
