//! A noise graph's gradient and curl on the GPU equal the f32 CPU evaluator
//! (`graph::eval::value_and_gradient`, `graph::eval::curl`) within the bound of
//! docs/graphs.md, channel by channel, on every backend and both lookup variants: the
//! terrain example and random graphs of every node type, at small and large coordinates.
//! The tests of particular graphs take one lookup per backend
//! (`common::gpu_per_backend_taking_turns`): both lookups and both backends, not all four pairs.

use crate::common;
use crate::common::graphs::{
    covering_graphs, graph_of_node, graph_parity, Parity, Rng, ARITHMETIC_GRAPHS, DERIVATIVES,
    JUMPS,
};

use wgpu_noise::cpu::curl::CURL_SHIFTS;
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

/// `f32`s per texel of `output` for a `dims`-dimensional graph (the CPU fills' layout).
fn channels(output: FieldOutput, dims: usize) -> usize {
    output.values_per_sample(dims)
}

/// `output` of `program` over `field`: by the GPU's graph pipeline, by the f32 CPU (the
/// bake's fill), by the f64 CPU evaluator at the same (f32) sample points, and by the f32 CPU
/// evaluator at those points moved by four ulps along every axis.
fn fill_both(
    gpu: &GpuNoise,
    variant: LookupVariant,
    seed: u64,
    field: &FlagField,
    program: Program,
    output: FieldOutput,
) -> (Vec<f32>, Vec<f32>, Vec<f64>, Vec<f32>) {
    let pipeline = gpu
        .graph_pipeline(&program, output)
        .expect("graph pipeline");
    let mut on_gpu = Vec::new();
    for params in FillParams::boxes(field, gpu.graph_box_texels(&pipeline)) {
        gpu.fill_graph_box(&pipeline, &params, &mut on_gpu)
            .expect("graph fill");
    }
    let params = FillParams::new(field, Slab::whole(field));
    let n = channels(output, program.dims());
    let mut on_cpu = vec![0.0; params.len() * n];
    // The generic evaluator at the GPU's own sample points (`params`), not the
    // hand-written fill a flag-shaped graph would run on in a bake (`NoiseSpec::plan`).
    let plan = Plan::Graph {
        program: std::sync::Arc::new(program.clone()),
        field: field.clone(),
    };
    CpuLookup::new(variant, seed).fill(&plan, output, &params, &mut on_cpu);
    let at = |i: usize| {
        let [nx, ny, nz, _] = params.extent.map(|e| e as usize);
        let index = [
            i % nx,
            (i / nx) % ny,
            (i / (nx * ny)) % nz,
            i / (nx * ny * nz),
        ];
        sample_point(&params, index.map(|v| v as u32)).map(f64::from)
    };
    let reference = |f: &dyn Fn([f64; 4]) -> Vec<f64>| -> Vec<f64> {
        (0..params.len()).flat_map(|i| f(at(i))).collect()
    };
    let regs = std::cell::RefCell::new(Vec::new());
    let regs32 = std::cell::RefCell::new(Vec::new());
    macro_rules! reference {
        ($lut:expr) => {{
            let lut = $lut;
            let f64s = reference(&|p| {
                let regs = &mut regs.borrow_mut();
                match output {
                    FieldOutput::Value => {
                        vec![eval::value::<f64>(&program, &lut, p, &mut Vec::new())]
                    }
                    FieldOutput::Gradient => {
                        eval::value_and_gradient::<f64>(&program, &lut, p, regs)[..4].to_vec()
                    }
                    FieldOutput::Curl => eval::curl::<f64>(&program, &lut, p, regs)[..n].to_vec(),
                }
            });
            let moved: Vec<f32> = reference(&|p| {
                let regs = &mut regs32.borrow_mut();
                let p = p.map(|x| x as f32);
                let v: Vec<f32> = match output {
                    FieldOutput::Value => {
                        vec![eval::value::<f32>(
                            &program,
                            &lut,
                            moved_by_4_ulps(p),
                            &mut Vec::new(),
                        )]
                    }
                    FieldOutput::Gradient => {
                        eval::value_and_gradient::<f32>(&program, &lut, moved_by_4_ulps(p), regs)
                            [..4]
                            .to_vec()
                    }
                    FieldOutput::Curl => moved_curl(&program, &lut, p, regs)[..n].to_vec(),
                };
                v.into_iter().map(f64::from).collect()
            })
            .into_iter()
            .map(|v| v as f32)
            .collect();
            (f64s, moved)
        }};
    }
    let (on_cpu64, moved) = match variant {
        LookupVariant::Textures => reference!(PermutationTables::new(seed)),
        LookupVariant::Hash => reference!(IntegerHasher::new(seed)),
    };
    (on_gpu, on_cpu, on_cpu64, moved)
}

/// `p` moved up by four ulps along every axis.
fn moved_by_4_ulps(p: [f32; 4]) -> [f32; 4] {
    p.map(|x| x.next_up().next_up().next_up().next_up())
}

/// The curl of `program` at `p` with every point the graph is evaluated at moved by four
/// ulps: in 3D the potentials' points `p + CURL_SHIFTS[k]`, not `p` itself, whose few
/// ulps near the origin the shift's addition rounds away (a shift of 41.125 has ulps 32
/// times those of a coordinate near 1).
fn moved_curl(
    program: &Program,
    lut: &impl wgpu_noise::cpu::NoiseHasher,
    p: [f32; 4],
    regs: &mut Vec<[wgpu_noise::graph::eval::Dual<f32>; 4]>,
) -> [f32; 3] {
    let mut gradient = |q| eval::value_and_gradient::<f32>(program, lut, moved_by_4_ulps(q), regs);
    if program.dims() == 2 {
        let d = gradient(p);
        return [d[2], -d[1], 0.0];
    }
    let [a, b, c] = CURL_SHIFTS
        .map(|s| gradient([0, 1, 2, 3].map(|k| if k < 3 { p[k] + s[k] as f32 } else { 0.0 })));
    [c[2] - b[3], a[3] - c[1], b[1] - a[2]]
}

/// Channel 0 of a gradient (the value) within the values' bound (`graph_parity`), every
/// other channel within [`DERIVATIVES`], at most [`JUMPS`] of each channel's values over
/// (kinks); the worst of the channels (`bound`: the largest bound applied).
///
/// A derivative is compared only where the f32 CPU determines it: where the f32 CPU's
/// differs from f64's by more than [`DERIVATIVES`], or from the f32 CPU's own at the point
/// moved by four ulps (`moved`: the few ulps by which the GPU's own `pow`, `sin` and `cos`
/// may differ from the CPU's, docs/graphs.md) by more than half of it. There (a remainder of a value past
/// 1e4, whose ulps are the divisor's size, feeding a smooth minimum's or a blend's weights)
/// every f32 evaluation, the GPU's among them, follows other values: the GPU's pow, a few
/// ulps from the CPU's, suffices to move it. Such values are counted and printed; a GPU
/// error where the f32 CPU determines the derivative still fails.
fn assert_channels(
    label: &str,
    n: usize,
    gpu: &[f32],
    cpu: &[f32],
    cpu64: &[f64],
    moved: &[f32],
) -> Parity {
    assert_eq!(gpu.len(), cpu.len(), "{label}: value count");
    let pick32 = |v: &[f32], c: usize| v.iter().skip(c).step_by(n).copied().collect::<Vec<_>>();
    let determined = |i: usize| {
        let (c, c64, m) = (cpu[i] as f64, cpu64[i], moved[i] as f64);
        let bound = DERIVATIVES as f64 * (1.0 + c.abs());
        (c - c64).abs() <= bound && (c - m).abs() <= bound / 2.0
    };
    let mut all = Parity::default();
    let mut undetermined = 0;
    for c in 0..n {
        let label = format!("{label} channel {c}");
        let (g, k) = (pick32(gpu, c), pick32(cpu, c));
        let p = if n == 4 && c == 0 {
            let ref64: Vec<f64> = cpu64.iter().step_by(n).copied().collect();
            graph_parity(&label, &g, &k, &ref64)
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
                if !determined(i * n + c) {
                    undetermined += 1;
                    continue;
                }
                let e = (a - b).abs() / (1.0 + b.abs());
                if e > DERIVATIVES {
                    p.over += 1;
                } else {
                    p.worst = p.worst.max(e);
                }
            }
            p
        };
        assert!(
            p.over as f64 <= JUMPS * g.len() as f64,
            "{label}: {} of {} values over the bound {:e}",
            p.over,
            g.len(),
            p.bound
        );
        all = worse(all, p);
    }
    if undetermined > 0 {
        println!(
            "{label}: {undetermined} of {} derivatives not determined in f32 (not compared)",
            gpu.len()
        );
    }
    all
}

/// `output` filled by [`fill_both`]: values within the values' bound (`graph_parity`) but
/// for at most [`JUMPS`] of them (discontinuities), gradients and curls by
/// [`assert_channels`].
fn assert_output(
    label: &str,
    output: FieldOutput,
    dims: usize,
    (g, c, c64, moved): &(Vec<f32>, Vec<f32>, Vec<f64>, Vec<f32>),
) -> Parity {
    if output == FieldOutput::Value {
        let p = graph_parity(label, g, c, c64);
        let allowed = JUMPS * g.len() as f64;
        assert!(p.over as f64 <= allowed, "{label}: {} over", p.over);
        p
    } else {
        assert_channels(label, channels(output, dims), g, c, c64, moved)
    }
}

/// The larger errors and bounds of two comparisons, their jumps added.
fn worse(a: Parity, b: Parity) -> Parity {
    Parity {
        worst: a.worst.max(b.worst),
        bound: a.bound.max(b.bound),
        over: a.over + b.over,
    }
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
fn the_terrain_examples_gradient_and_curl_on_the_gpu_equal_the_f32_cpu() {
    let graph = Graph::from_json(include_str!("../../examples/graphs/terrain.json")).unwrap();
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(3) {
        for dims in [2, 3] {
            for offset in [0.0, 1e4] {
                let field = field(dims, offset).with_frequency(&vec![4.0; dims]);
                let program = graph.program(dims, [0.0; 4]).unwrap();
                for output in [FieldOutput::Gradient, FieldOutput::Curl] {
                    let (g, c, c64, moved) =
                        fill_both(&gpu, variant, 3, &field, program.clone(), output);
                    let label =
                        format!("{backend} {variant:?} terrain {dims}D {output:?} offset {offset}");
                    let p = assert_channels(&label, channels(output, dims), &g, &c, &c64, &moved);
                    println!(
                        "{label}: max relative error {:.1e} (bound up to {:.1e}), {} of {} values over it",
                        p.worst,
                        p.bound,
                        p.over,
                        g.len()
                    );
                }
            }
        }
    }
}

/// A node-driven parameter: fBm whose gain is itself a noise (simplex remapped to 0.3–0.7),
/// its value and gradient on the GPU equal the f32 CPU within the bound, every backend and
/// lookup (taking turns), 2D and 3D, near and far.
#[test]
fn a_noise_driven_gain_bakes_on_the_gpu_as_on_the_cpu() {
    let graph = Graph::from_json(
        r#"{ "version": 1, "output": "f", "nodes": { "f": { "type": "fbm", "octaves": 4,
            "source": { "type": "simplex" },
            "gain": { "type": "remap", "source": { "type": "simplex", "seed": 5 },
                      "from": [-1, 1], "to": [0.3, 0.7] } } } }"#,
    )
    .unwrap();
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(4) {
        for dims in [2, 3] {
            for offset in [0.0, 1e4] {
                let field = field(dims, offset).with_frequency(&vec![3.0; dims]);
                let program = graph.program(dims, [0.0; 4]).unwrap();
                for output in [FieldOutput::Value, FieldOutput::Gradient] {
                    let (g, c, c64, moved) =
                        fill_both(&gpu, variant, 4, &field, program.clone(), output);
                    let label = format!(
                        "{backend} {variant:?} driven gain {dims}D {output:?} offset {offset}"
                    );
                    let p = assert_channels(&label, channels(output, dims), &g, &c, &c64, &moved);
                    println!("{label}: max relative error {:.1e}", p.worst);
                }
            }
        }
    }
}

#[test]
fn a_vector_warp_bakes_on_the_gpu_as_on_the_cpu() {
    // The benchmark's tree (FastNoise2's `DomainWarpGradient` over fBm), iterated, in 2D to
    // 4D, and tiled.
    let warp = |iterations: u32| {
        Graph::from_json(&format!(
            r#"{{ "version": 1, "output": "w", "nodes": {{ "w": {{ "type": "warp",
                "source": {{ "type": "fbm", "source": {{ "type": "value" }}, "octaves": 3 }},
                "noise": "vector", "amplitude": 0.5, "frequency": 1.0, "octaves": 2,
                "iterations": {iterations} }} }} }}"#
        ))
        .unwrap()
    };
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(6) {
        for dims in [2, 3, 4] {
            for (iterations, offset, period) in [
                (1, 0.0, [0.0; 4]),
                (2, 1e4, [0.0; 4]),
                (1, 0.0, [8.0, 8.0, 8.0, 8.0]),
            ] {
                let field = field(dims, offset).with_frequency(&vec![3.0; dims]);
                let program = warp(iterations).program(dims, period).unwrap();
                for output in [FieldOutput::Value, FieldOutput::Gradient] {
                    let (g, c, c64, moved) =
                        fill_both(&gpu, variant, 6, &field, program.clone(), output);
                    let label = format!(
                        "{backend} {variant:?} vector warp {dims}D x{iterations} {output:?} offset {offset} period {}",
                        period[0]
                    );
                    let p = assert_channels(&label, channels(output, dims), &g, &c, &c64, &moved);
                    println!("{label}: max relative error {:.1e}", p.worst);
                }
            }
        }
    }
}

/// The `simplex-vector` warp (FastNoise2's `DomainWarpSimplex` over fBm), once and iterated,
/// in 2D to 4D, with the continuous kernel, and tiled in 2D and 3D: its values and
/// gradients on the GPU as on the f32 CPU, every backend and lookup (taking turns).
#[test]
fn a_simplex_vector_warp_bakes_on_the_gpu_as_on_the_cpu() {
    let warp = |iterations: u32, kernel: &str| {
        Graph::from_json(&format!(
            r#"{{ "version": 1, "output": "w", "nodes": {{ "w": {{ "type": "warp",
                "source": {{ "type": "fbm", "source": {{ "type": "simplex" }}, "octaves": 3 }},
                "noise": "simplex-vector", "amplitude": 0.5, "frequency": 1.0, "octaves": 2,
                "iterations": {iterations}, "kernel": "{kernel}" }} }} }}"#
        ))
        .unwrap()
    };
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(6) {
        for dims in [2, 3, 4] {
            for (iterations, offset, kernel, period) in [
                (1, 0.0, "reference", [0.0; 4]),
                (2, 1e4, "reference", [0.0; 4]),
                (1, 0.0, "continuous", [0.0; 4]),
                (2, 1e4, "continuous", [0.0; 4]),
                (1, 0.0, "reference", [3.0; 4]),
                (2, 0.0, "continuous", [3.0; 4]),
            ] {
                // Simplex noise does not tile in 4D.
                if dims == 4 && period[0] > 0.0 {
                    continue;
                }
                let field = field(dims, offset).with_frequency(&vec![3.0; dims]);
                let program = warp(iterations, kernel).program(dims, period).unwrap();
                for output in [FieldOutput::Value, FieldOutput::Gradient] {
                    let (g, c, c64, moved) =
                        fill_both(&gpu, variant, 6, &field, program.clone(), output);
                    let label = format!(
                        "{backend} {variant:?} simplex-vector warp {dims}D x{iterations} {kernel} period {} {output:?} offset {offset}",
                        period[0]
                    );
                    let p = assert_channels(&label, channels(output, dims), &g, &c, &c64, &moved);
                    let abs = g
                        .iter()
                        .zip(&c)
                        .map(|(a, b)| (a - b).abs())
                        .fold(0.0, f32::max);
                    println!(
                        "{label}: max relative error {:.1e}, max |gpu − cpu| {abs:.1e}, {} over the bound",
                        p.worst, p.over
                    );
                }
            }
        }
    }
}

/// Each graph's output node `nodes` (its `"w"` node's body), in 2D and 3D, at offsets 0 and
/// 1e4: its values and gradients on the GPU as on the f32 CPU, every backend and lookup (taking turns).
fn assert_nodes_bake_alike(nodes: &[&str], seed: u64) {
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(seed) {
        for node in nodes {
            let graph = Graph::from_json(&format!(
                r#"{{ "version": 1, "output": "w", "nodes": {{ "w": {{ {node} }} }} }}"#
            ))
            .unwrap();
            for dims in [2, 3] {
                for offset in [0.0, 1e4] {
                    let field = field(dims, offset);
                    let program = graph.program(dims, [0.0; 4]).unwrap();
                    for output in [FieldOutput::Value, FieldOutput::Gradient] {
                        let (g, c, c64, moved) =
                            fill_both(&gpu, variant, seed, &field, program.clone(), output);
                        let label = format!(
                            "{backend} {variant:?} {{{node}}} {dims}D {output:?} offset {offset}"
                        );
                        let n = channels(output, dims);
                        let p = assert_channels(&label, n, &g, &c, &c64, &moved);
                        println!(
                            "{backend} {variant:?} {dims}D {output:?} offset {offset}: max relative error {:.1e}",
                            p.worst
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn progressive_and_node_driven_warps_bake_on_the_gpu_as_on_the_cpu() {
    let fbm = r#""type": "warp", "source": { "type": "fbm", "source": { "type": "simplex" } }"#;
    assert_nodes_bake_alike(
        &[
            &format!(
                r#"{fbm}, "fractal": "progressive", "noise": "simplex", "amplitude": 0.6, "octaves": 3"#
            ),
            &format!(
                r#"{fbm}, "fractal": "progressive", "noise": "vector", "amplitude": 0.6, "octaves": 3"#
            ),
            &format!(
                r#"{fbm}, "noise": "vector", "octaves": 2, "amplitude": {{ "type": "remap",
                    "source": {{ "type": "simplex", "seed": 5 }}, "from": [-1, 1], "to": [0.2, 0.6] }}"#
            ),
            &format!(
                r#"{fbm}, "noise": "classic", "amplitude": {{ "type": "remap",
                    "source": {{ "type": "value", "seed": 5 }}, "from": [-1, 1], "to": [0.2, 0.6] }}"#
            ),
            &format!(
                r#"{fbm}, "noise": "simplex", "amplitude": 0.5, "octaves": 3, "iterations": 2,
                    "frequency": {{ "type": "remap", "source": {{ "type": "value", "seed": 3 }},
                                    "from": [-1, 1], "to": [0.5, 2] }},
                    "lacunarity": {{ "type": "remap", "source": {{ "type": "simplex", "seed": 4 }},
                                     "from": [-1, 1], "to": [1.5, 2.5] }},
                    "gain": {{ "type": "remap", "source": {{ "type": "classic", "seed": 6 }},
                               "from": [-1, 1], "to": [0.3, 0.7] }}"#
            ),
            &format!(
                r#"{fbm}, "noise": "vector", "fractal": "progressive", "amplitude": 0.5, "octaves": 3,
                    "frequency": {{ "type": "remap", "source": {{ "type": "simplex", "seed": 3 }},
                                    "from": [-1, 1], "to": [0.5, 2] }},
                    "lacunarity": {{ "type": "remap", "source": {{ "type": "value", "seed": 4 }},
                                     "from": [-1, 1], "to": [1.5, 2.5] }},
                    "gain": {{ "type": "simplex", "seed": 6 }}"#
            ),
            &format!(
                r#"{fbm}, "noise": "simplex-vector", "amplitude": 0.5, "octaves": 2,
                    "lacunarity": {{ "type": "remap", "source": {{ "type": "value", "seed": 4 }},
                                     "from": [-1, 1], "to": [1.5, 2.5] }},
                    "gain": {{ "type": "remap", "source": {{ "type": "classic", "seed": 6 }},
                               "from": [-1, 1], "to": [0.3, 0.7] }}"#
            ),
        ],
        7,
    );
}

/// A warp's frequency, lacunarity and gain given by constant nodes bake the numbers' bits
/// on the GPU too (values; gradients where the gain is a number), every backend and
/// lookup (taking turns).
#[test]
fn warp_parameters_of_constant_nodes_bake_the_numbers_bits_on_the_gpu() {
    let constant = |v: &str| format!(r#"{{ "type": "constant", "value": {v} }}"#);
    let warp = |noise: &str, fractal: &str, [f, l, g]: [&str; 3]| {
        Graph::from_json(&format!(
            r#"{{ "version": 1, "output": "w", "nodes": {{ "w": {{ "type": "warp",
                 "source": {{ "type": "simplex" }}, "noise": "{noise}", "fractal": "{fractal}",
                 "amplitude": 0.5, "octaves": 3, "frequency": {f}, "lacunarity": {l},
                 "gain": {g} }} }} }}"#
        ))
        .unwrap()
    };
    let seed = 7;
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(seed) {
        for noise in ["simplex", "simplex-vector"] {
            for fractal in ["independent", "progressive"] {
                let numbers = warp(noise, fractal, ["1.25", "1.75", "0.6"]);
                let (f, l, g) = (constant("1.25"), constant("1.75"), constant("0.6"));
                for (driven, gradients) in [
                    (warp(noise, fractal, [&f, &l, "0.6"]), true),
                    (warp(noise, fractal, [&f, &l, &g]), false),
                ] {
                    for dims in [2, 3] {
                        let field = field(dims, 1e4);
                        let output = [FieldOutput::Value, FieldOutput::Gradient][dims - 2];
                        {
                            let fill = |graph: &Graph| {
                                let program = graph.program(dims, [0.0; 4]).unwrap();
                                fill_both(&gpu, variant, seed, &field, program, output).0
                            };
                            let (a, b) = (fill(&driven), fill(&numbers));
                            let label = format!(
                                "{backend} {variant:?} {noise} {fractal} {dims}D {output:?}"
                            );
                            let n = channels(output, dims);
                            let compared = if gradients { n } else { 1 };
                            for (i, (a, b)) in a.iter().zip(&b).enumerate() {
                                if i % n < compared {
                                    assert_eq!(a.to_bits(), b.to_bits(), "{label} at {i}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `add-dimension` (a constant and a noise-driven position) and `remove-dimension` (in 3D;
/// 2D passes through), values and gradients through the moved axes.
#[test]
fn added_and_removed_dimensions_bake_on_the_gpu_as_on_the_cpu() {
    assert_nodes_bake_alike(
        &[
            r#""type": "add-dimension", "position": 0.37,
             "source": { "type": "fbm", "source": { "type": "simplex", "kernel": "continuous" } }"#,
            r#""type": "add-dimension", "source": { "type": "value" },
             "position": { "type": "multiply", "a": { "type": "simplex", "seed": 4 }, "b": 2 }"#,
            r#""type": "remove-dimension", "axis": "x", "source": { "type": "classic" }"#,
            r#""type": "remove-dimension", "axis": "z",
             "source": { "type": "warp", "amplitude": 0.5, "source": { "type": "simplex" } }"#,
        ],
        9,
    );
}

/// Cellular noise whose jitter is a noise (past 0..1 in places, clamped there): F1, F2 − F1
/// and F3, values and gradients (through the jitter too).
#[test]
fn a_noise_driven_cellular_jitter_bakes_on_the_gpu_as_on_the_cpu() {
    let jitter = r#""jitter": { "type": "remap", "source": { "type": "simplex", "seed": 5 },
                                "from": [-1, 1], "to": [-0.2, 1.2] }"#;
    assert_nodes_bake_alike(
        &[
            &format!(r#""type": "cellular", {jitter}"#),
            &format!(r#""type": "cellular", "output": "f2-f1", "distance": "manhattan", {jitter}"#),
            &format!(r#""type": "cellular", "output": "f3", "distance": "minkowski", {jitter}"#),
        ],
        6,
    );
}

/// Cellular noise whose Minkowski exponent is a noise (below 1 in places, clamped there), a
/// cellular lookup whose jitter and exponent are, and flow noise whose angle is: values and
/// gradients (through them too).
#[test]
fn noise_driven_source_parameters_bake_on_the_gpu_as_on_the_cpu() {
    let exponent = r#""distance": "minkowski",
        "exponent": { "type": "remap", "source": { "type": "value", "seed": 4 },
                      "from": [-1, 1], "to": [0.8, 3.0] }"#;
    let jitter = r#""jitter": { "type": "remap", "source": { "type": "simplex", "seed": 5 },
                                "from": [-1, 1], "to": [-0.2, 1.2] }"#;
    assert_nodes_bake_alike(
        &[
            &format!(r#""type": "cellular", {exponent}"#),
            &format!(r#""type": "cellular", "output": "f2-f1", {exponent}, {jitter}"#),
            &format!(r#""type": "cellular", "output": "f3", {exponent}"#),
            &format!(
                r#""type": "cellular-lookup", "source": {{ "type": "simplex" }},
                   "frequency": 0.3, {exponent}, {jitter}"#
            ),
            r#""type": "flow", "kernel": "continuous",
               "angle": { "type": "remap", "source": { "type": "value", "seed": 2 },
                          "from": [-1, 1], "to": [-3, 3] }"#,
        ],
        6,
    );
}

/// A rotation whose angle is a noise (the sine and cosine of `f32` operations the GPU
/// computes as the CPU does), values and gradients (through the angle too).
#[test]
fn a_noise_driven_rotation_bakes_on_the_gpu_as_on_the_cpu() {
    assert_nodes_bake_alike(
        &[r#""type": "rotate", "plane": "xy",
             "source": { "type": "fbm", "source": { "type": "simplex" }, "octaves": 3 },
             "angle": { "type": "remap", "source": { "type": "value", "seed": 2 },
                        "from": [-1, 1], "to": [-3, 3] }"#],
        5,
    );
}

/// A clamp whose ends are noises (one crossing the other's range, where `max` wins), values
/// and gradients (through the end that is the value).
#[test]
fn a_clamp_between_noises_bakes_on_the_gpu_as_on_the_cpu() {
    assert_nodes_bake_alike(
        &[r#""type": "clamp",
             "source": { "type": "fbm", "source": { "type": "simplex" }, "octaves": 3 },
             "min": { "type": "remap", "source": { "type": "value", "seed": 2 },
                      "from": [-1, 1], "to": [-0.6, 0.1] },
             "max": { "type": "remap", "source": { "type": "classic", "seed": 3 },
                      "from": [-1, 1], "to": [-0.1, 0.5] }"#],
        5,
    );
}

/// A cellular lookup whose frequency is a noise: the feature's position scaled per sample
/// (values and gradients, through the frequency).
#[test]
fn a_noise_driven_lookup_frequency_bakes_on_the_gpu_as_on_the_cpu() {
    assert_nodes_bake_alike(
        &[
            r#""type": "cellular-lookup", "source": { "type": "simplex", "seed": 1 },
             "frequency": { "type": "remap", "source": { "type": "value", "seed": 2 },
                            "from": [-1, 1], "to": [0.1, 0.6] }"#,
        ],
        4,
    );
}

#[test]
fn node_driven_strengths_bake_on_the_gpu_as_on_the_cpu() {
    assert_nodes_bake_alike(
        &[
            r#""type": "ping-pong", "source": { "type": "fbm", "source": { "type": "simplex" } },
             "strength": { "type": "remap", "source": { "type": "value", "seed": 3 },
                           "from": [-1, 1], "to": [1, 4] }"#,
            r#""type": "fbm", "octaves": 4, "source": { "type": "simplex" },
             "weighted_strength": { "type": "remap", "source": { "type": "value", "seed": 3 },
                                    "from": [-1, 1], "to": [0, 1] }"#,
            r#""type": "ridged", "octaves": 4, "source": { "type": "classic" },
             "weighted_strength": { "type": "remap", "source": { "type": "value", "seed": 3 },
                                    "from": [-1, 1], "to": [0, 1] }"#,
        ],
        8,
    );
}

/// The parameters docs/graphs.md lists as hybrid since issue 48, each given by a noise
/// (values and gradients, through the parameter too).
#[test]
fn node_driven_combination_parameters_bake_on_the_gpu_as_on_the_cpu() {
    assert_nodes_bake_alike(
        &[
            r#""type": "smooth-min", "a": { "type": "simplex" }, "b": { "type": "classic", "seed": 2 },
             "k": { "type": "remap", "source": { "type": "value", "seed": 3 },
                    "from": [-1, 1], "to": [0.05, 0.6] }"#,
            r#""type": "smooth-max", "a": { "type": "fbm", "source": { "type": "simplex" } },
             "b": { "type": "value", "seed": 4 },
             "k": { "type": "remap", "source": { "type": "simplex", "seed": 3 },
                    "from": [-1, 1], "to": [-0.2, 0.5] }"#,
            r#""type": "remap", "source": { "type": "fbm", "source": { "type": "simplex" } },
             "from": [-1, { "type": "remap", "source": { "type": "value", "seed": 3 },
                            "from": [-1, 1], "to": [0.5, 1.5] }],
             "to": [{ "type": "classic", "seed": 5 }, 2]"#,
            r#""type": "remap", "source": { "type": "simplex" }, "clamp": "on",
             "from": [-0.5, 0.5], "to": [-0.25, { "type": "simplex", "seed": 6 }]"#,
            r#""type": "terrace", "steps": 4, "source": { "type": "fbm", "source": { "type": "simplex" } },
             "smoothness": { "type": "remap", "source": { "type": "value", "seed": 3 },
                             "from": [-1, 1], "to": [0.1, 1.2] }"#,
            r#""type": "pow", "source": { "type": "fbm", "source": { "type": "simplex" } },
             "exponent": { "type": "remap", "source": { "type": "value", "seed": 3 },
                           "from": [-1, 1], "to": [1, 3] }"#,
            r#""type": "scale", "source": { "type": "fbm", "source": { "type": "simplex" } },
             "by": { "type": "remap", "source": { "type": "value", "seed": 3 },
                     "from": [-1, 1], "to": [0.5, 2] }"#,
            r#""type": "offset", "source": { "type": "classic" },
             "by": [0.5, { "type": "simplex", "seed": 7 }, { "type": "value", "seed": 2 }]"#,
            r#""type": "fbm", "octaves": 4, "source": { "type": "simplex" },
             "lacunarity": { "type": "remap", "source": { "type": "value", "seed": 3 },
                             "from": [-1, 1], "to": [1.5, 2.5] }"#,
            r#""type": "ridged", "octaves": 3, "source": { "type": "classic" },
             "lacunarity": { "type": "simplex", "seed": 8 }"#,
            r#""type": "sine", "scale": [{ "type": "remap", "source": { "type": "simplex", "seed": 3 },
                                          "from": [-1, 1], "to": [0.5, 2] }, 1.5, 0.75]"#,
        ],
        9,
    );
}

/// `rotate-plane` (both planes) over simplex and classic noise, in 2D, 3D and 4D, at offsets 0
/// and 1e4: values and gradients on the GPU as on the f32 CPU, every backend and lookup (taking turns).
#[test]
fn a_plane_rotation_bakes_on_the_gpu_as_on_the_cpu() {
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(6) {
        for (plane, noise) in [("xy", "simplex"), ("xz", "classic")] {
            let graph = Graph::from_json(&format!(
                r#"{{ "version": 1, "output": "r", "nodes": {{ "r": {{ "type": "rotate-plane",
                      "plane": "{plane}", "source": {{ "type": "{noise}" }} }} }} }}"#
            ))
            .unwrap();
            for dims in [2, 3, 4] {
                let program = graph.program(dims, [0.0; 4]).unwrap();
                for offset in [0.0, 1e4] {
                    let field = field(dims, offset);
                    for output in [FieldOutput::Value, FieldOutput::Gradient] {
                        let (g, c, c64, moved) =
                            fill_both(&gpu, variant, 6, &field, program.clone(), output);
                        let label = format!(
                            "{backend} {variant:?} rotate-plane {plane} {noise} {dims}D {output:?} offset {offset}"
                        );
                        let p =
                            assert_channels(&label, channels(output, dims), &g, &c, &c64, &moved);
                        println!("{label}: max relative error {:.1e}", p.worst);
                    }
                }
            }
        }
    }
}

/// Random graphs' gradients and curls (every node type, and every choice of
/// `COVERED_CHOICES`; random wiring, depth up to 6, 2D to 4D, offsets 0 to 1e4) on each
/// backend, the lookups taking turns.
#[test]
fn random_graphs_gradient_and_curl_on_the_gpu_equal_the_f32_cpu() {
    // 60 graphs per backend, then of the graphs drawn after them (up to 5000) only those
    // that use a node type or choice none before used, until every one is used. Not
    // hundreds: a gradient and a curl pipeline are compiled per graph and backend, and deep
    // graphs compile slowly: the first 60 graphs took 62 s on both backends, the first 200
    // 331 s; these 69 (194 drawn) take 150 s (AMD EPYC VM, 2 cores, load 2.6–3.7 with another
    // build running, 2026-11-30).
    const GRAPHS: usize = 60;
    for (backend, ctx) in common::gpu_per_backend() {
        let generators = common::generator_per_lookup(&ctx, 9);
        let mut rng = Rng::new(47);
        let (mut gradients, mut curls) = (Parity::default(), Parity::default());
        let (mut values, mut curl_graphs) = (0, 0);
        let (kept, drawn) =
            covering_graphs(backend, &mut rng, GRAPHS, |rng, i, shape, text, program| {
                let (variant, gpu) = &generators[i % generators.len()];
                let variant = *variant;
                let offset = *rng.pick(&[0.0, 100.0, 1e4]);
                let field = field(shape.dims, offset);
                let label = format!("{backend} {variant:?} offset {offset} {text}");
                let (g, c, c64, moved) = fill_both(
                    gpu,
                    variant,
                    9,
                    &field,
                    program.clone(),
                    FieldOutput::Gradient,
                );
                values += g.len();
                gradients = worse(
                    gradients,
                    assert_channels(&format!("{label} gradient"), 4, &g, &c, &c64, &moved),
                );
                if shape.dims < 4 {
                    let (g, c, c64, moved) =
                        fill_both(gpu, variant, 9, &field, program, FieldOutput::Curl);
                    let n = shape.dims;
                    curls = worse(
                        curls,
                        assert_channels(&format!("{label} curl"), n, &g, &c, &c64, &moved),
                    );
                    curl_graphs += 1;
                }
            });
        println!(
            "{backend}: {kept} random graphs' gradients ({drawn} drawn), max relative error {:.1e} \
             (bound up to {:.1e}), {} of {values} values over it; {curl_graphs} curls, max \
             relative error {:.1e} (bound up to {:.1e}), {} over it",
            gradients.worst,
            gradients.bound,
            gradients.over,
            curls.worst,
            curls.bound,
            curls.over
        );
    }
}

/// The pipelines of one graph's outputs are cached apart: asking for the value after the
/// gradient gives the value, and the curl of a 4D graph is an error, not a panic.
#[test]
fn a_graphs_output_pipelines_are_cached_apart() {
    let graph = Graph::from_json(include_str!("../../examples/graphs/terrain.json")).unwrap();
    let Some(ctx) = common::gpu() else {
        return;
    };
    let gpu = GpuNoise::new(&ctx.device, &ctx.queue, 1).expect("generator");
    let program = graph.program(2, [0.0; 4]).unwrap();
    let field = field(2, 0.0);
    let params = FillParams::new(&field, Slab::whole(&field));
    let mut fills = Vec::new();
    for output in [FieldOutput::Gradient, FieldOutput::Value, FieldOutput::Curl] {
        let pipeline = gpu.graph_pipeline(&program, output).unwrap();
        assert_eq!(pipeline.channels(), channels(output, 2), "{output:?}");
        let mut out = Vec::new();
        gpu.fill_graph_box(&pipeline, &params, &mut out).unwrap();
        assert_eq!(out.len(), params.len() * channels(output, 2), "{output:?}");
        fills.push(out);
    }
    // The gradient's value channel is the value; the curl is the gradient turned.
    let value: Vec<f32> = fills[0].iter().step_by(4).copied().collect();
    assert_eq!(value.len(), fills[1].len());
    for (i, (v, w)) in value.iter().zip(&fills[1]).enumerate() {
        assert!(
            (v - w).abs() <= 1e-4 * (1.0 + w.abs()),
            "texel {i}: {v} vs {w}"
        );
    }
    for (i, (g, c)) in fills[0].chunks(4).zip(fills[2].chunks(2)).enumerate() {
        assert_eq!([c[0], c[1]], [g[2], -g[1]], "texel {i}");
    }
    let four = graph.program(4, [0.0; 4]).unwrap();
    let err = gpu.graph_pipeline(&four, FieldOutput::Curl).unwrap_err();
    assert!(err.to_string().contains("2D or 3D"), "{err}");
}

/// The divide and modulus graphs' values, gradients and (2D, 3D) curls on the GPU equal
/// the f32 CPU's, near the origin and at 1e4, on every backend and lookup (taking turns).
#[test]
fn divide_and_modulus_graphs_on_the_gpu_equal_the_f32_cpu() {
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(9) {
        for (i, node) in ARITHMETIC_GRAPHS.iter().enumerate() {
            let graph = Graph::from_json(&graph_of_node(node)).unwrap();
            // Each graph in one dimension count (2D, 3D, 4D in turn): a pipeline each.
            let dims = 2 + i % 3;
            let program = graph.program(dims, [0.0; 4]).unwrap();
            for offset in [0.0, 1e4] {
                let field = field(dims, offset);
                let mut outputs = vec![FieldOutput::Value, FieldOutput::Gradient];
                if dims < 4 {
                    outputs.push(FieldOutput::Curl);
                }
                for output in outputs {
                    let label =
                        format!("{backend} {variant:?} {dims}D {output:?} at {offset} {node}");
                    let filled = fill_both(&gpu, variant, 9, &field, program.clone(), output);
                    let p = assert_output(&label, output, dims, &filled);
                    println!(
                        "{label}: max relative error {:.1e}, {} over",
                        p.worst, p.over
                    );
                }
            }
        }
    }
}

/// The Chebyshev gradient points along the largest axis of the feature's offset, as the
/// CPU's. An axis found by equality with the search's distance would be none where the
/// compiler computes the two differently (points with many significant bits, as warped
/// ones): the x axis, at 1–6 % of these samples on lavapipe and llvmpipe.
#[test]
fn the_chebyshev_gradient_at_warped_points_equals_the_f32_cpu() {
    let cellular = r#"{ "type": "cellular", "distance": "chebyshev", "jitter": 0.917 }"#;
    for dims in 2..=4 {
        let displacement: Vec<String> = (0..dims)
            .map(|a| match a {
                0 => r#"{ "type": "classic", "seed": 3 }"#.to_string(),
                _ => format!("{}", 0.1 * a as f64),
            })
            .collect();
        let text = graph_of_node(&format!(
            r#"{{ "type": "warp", "amplitude": -0.48, "displacement": [{}], "source": {cellular} }}"#,
            displacement.join(", ")
        ));
        let program = Graph::from_json(&text)
            .unwrap()
            .program(dims, [0.0; 4])
            .unwrap();
        for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(9) {
            let field = field(dims, 100.0);
            let output = FieldOutput::Gradient;
            let (g, c, c64, moved) = fill_both(&gpu, variant, 9, &field, program.clone(), output);
            let label = format!("{backend} {variant:?} {dims}D");
            let p = assert_channels(&label, 4, &g, &c, &c64, &moved);
            println!(
                "{label}: max relative error {:.1e}, {} over",
                p.worst, p.over
            );
        }
    }
}

/// The `cellular` node with each metric (Minkowski at exponents 1.5 and 3) and each output,
/// in 2D to 4D in turn, near the origin and at 1e4: values and gradients on the GPU as on
/// the f32 CPU, on every backend and lookup (taking turns).
#[test]
fn cellular_metrics_and_outputs_on_the_gpu_equal_the_f32_cpu() {
    let metrics = [
        ("euclidean", 1.5),
        ("euclidean-squared", 1.5),
        ("manhattan", 1.5),
        ("chebyshev", 1.5),
        ("hybrid", 1.5),
        ("minkowski", 1.5),
        ("minkowski", 3.0),
    ];
    let outputs = common::graphs::choices("cellular", "output");
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(6) {
        let mut worst = [0.0f32; 2];
        for (i, (metric, exponent)) in metrics.iter().enumerate() {
            // Two outputs per metric, every output over the metrics.
            for j in [i, i + outputs.len() / 2] {
                let output_name = outputs[j % outputs.len()];
                // The pair (read by add, …, divide): every index over the outputs.
                let (a, b) = (1 + j % 4, 1 + (i + j / 2) % 4);
                let node = format!(
                    r#"{{ "type": "cellular", "distance": "{metric}", "exponent": {exponent},
                         "output": "{output_name}", "a": {a}, "b": {b}, "jitter": 0.9 }}"#
                );
                let graph = Graph::from_json(&graph_of_node(&node)).unwrap();
                let dims = 2 + j % 3;
                let offset = [0.0, 1e4][j % 2];
                let program = graph.program(dims, [0.0; 4]).unwrap();
                let field = field(dims, offset);
                for (k, output) in [FieldOutput::Value, FieldOutput::Gradient]
                    .into_iter()
                    .enumerate()
                {
                    let label =
                        format!("{backend} {variant:?} {dims}D {output:?} at {offset} {node}");
                    let filled = fill_both(&gpu, variant, 6, &field, program.clone(), output);
                    let p = assert_output(&label, output, dims, &filled);
                    worst[k] = worst[k].max(p.worst);
                }
            }
        }
        println!(
            "{backend}: cellular metrics and outputs, max relative error values {:.1e}, gradients {:.1e}",
            worst[0], worst[1]
        );
    }
}

/// SuperSimplex (`supersimplex`, 2D to 4D) on the GPU: its values, gradients and curl (2D, 3D)
/// equal the f32 CPU's within the bounds of docs/graphs.md with no sample over them (it has no
/// jumps and no kinks), plain, seeded, as fBm, ridged and warped, and the
/// `supersimplex-vector` warp (one octave, and three octaves iterated twice over simplex fBm
/// in 2D and 3D and over supersimplex fBm in 2D to 4D), untiled, in 2D tiled on a torus
/// of fractional periods and in 3D tiled with whole periods on the unrotated lattice, near
/// the origin and at 1e4, on every backend and lookup (taking turns);
/// the largest absolute differences are printed.
#[test]
fn supersimplex_graphs_on_the_gpu_equal_the_f32_cpu() {
    let nodes = [
        r#"{ "type": "supersimplex" }"#,
        r#"{ "type": "supersimplex", "seed": -7 }"#,
        r#"{ "type": "fbm", "octaves": 4, "source": { "type": "supersimplex", "seed": 2 } }"#,
        r#"{ "type": "ridged", "octaves": 3, "source": { "type": "supersimplex" } }"#,
        r#"{ "type": "warp", "amplitude": 0.4, "source": { "type": "supersimplex" } }"#,
        r#"{ "type": "warp", "amplitude": 0.4, "noise": "supersimplex-vector",
            "source": { "type": "supersimplex" } }"#,
        r#"{ "type": "warp", "amplitude": 0.6, "noise": "supersimplex-vector", "octaves": 3,
            "iterations": 2, "source": { "type": "fbm", "source": { "type": "simplex" } } }"#,
        // Over a source without jumps: 4D simplex noise's reference kernel jumps at simplex
        // faces, and twice-warped points a rounding apart land on either side of one (one
        // 4D gradient sample over the bound on GL).
        r#"{ "type": "warp", "amplitude": 0.6, "noise": "supersimplex-vector", "octaves": 3,
            "iterations": 2, "source": { "type": "fbm", "source": { "type": "supersimplex" } } }"#,
    ];
    let outputs = [FieldOutput::Value, FieldOutput::Gradient, FieldOutput::Curl];
    let mut worst = [[0f32; 3]; 3];
    for (backend, variant, gpu) in common::gpu_per_backend_taking_turns(5) {
        for node in nodes {
            let graph = Graph::from_json(&graph_of_node(node)).unwrap();
            let over_simplex = node.contains(r#""type": "simplex""#);
            for dims in [2, 3, 4] {
                if dims == 4 && over_simplex {
                    continue;
                }
                let periods: &[[f32; 4]] = match dims {
                    2 => &[[0.0; 4], [2.75, 1.5, 0.0, 0.0]],
                    3 => &[[0.0; 4], [3.0, 2.0, 4.0, 0.0]],
                    _ => &[[0.0; 4]],
                };
                for (period, offset) in periods.iter().flat_map(|p| [(p, 0.0), (p, 1e4)]) {
                    let program = graph.program(dims, *period).unwrap();
                    let field = field(dims, offset);
                    for (o, output) in outputs.into_iter().enumerate() {
                        if dims == 4 && output == FieldOutput::Curl {
                            continue;
                        }
                        let label = format!(
                            "{backend} {variant:?} {dims}D {output:?} at {offset} period {period:?} {node}"
                        );
                        let (g, c, c64, moved) =
                            fill_both(&gpu, variant, 5, &field, program.clone(), output);
                        let n = channels(output, dims);
                        let p = if output == FieldOutput::Value {
                            graph_parity(&label, &g, &c, &c64)
                        } else {
                            assert_channels(&label, n, &g, &c, &c64, &moved)
                        };
                        assert_eq!(
                            p.over, 0,
                            "{label}: {} over the bound {:e}",
                            p.over, p.bound
                        );
                        let abs = g
                            .iter()
                            .zip(&c)
                            .map(|(a, b)| (a - b).abs())
                            .fold(0.0, f32::max);
                        worst[dims - 2][o] = worst[dims - 2][o].max(abs);
                        println!(
                            "{label}: max relative error {:.1e}, max |gpu − cpu| {abs:.1e}",
                            p.worst
                        );
                    }
                }
            }
        }
    }
    for (d, w) in worst.iter().enumerate() {
        println!(
            "supersimplex {}D: max |gpu − cpu| value {:.1e}, gradient {:.1e}, curl {:.1e}",
            d + 2,
            w[0],
            w[1],
            w[2]
        );
    }
}
