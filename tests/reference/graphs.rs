//! Noise graphs on the CPU: the file format's checks (each bad input names its JSON path),
//! graphs that spell out what flags say give the flags' values bit for bit, a single source
//! in f64 is Gustavson's Java code, random graphs stay finite everywhere, and analytic
//! gradients match central differences away from kinks.

use crate::common::graphs::{random_graph, unused_node_types, Rng, Shape};

use wgpu_noise::bake::NoiseSpec;
use wgpu_noise::cpu::CpuLookup;
use wgpu_noise::field::{FlagField, Fractal, FractalMode, Kernel};
use wgpu_noise::graph::plan::Plan;
use wgpu_noise::graph::program::Op;
use wgpu_noise::graph::{eval, Graph, Program};
use wgpu_noise::params::{FillParams, NoiseSettings, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{FieldOutput, LookupVariant, NoiseKind};

/// The terrain graph of docs/graphs.md, as shipped.
pub const TERRAIN: &str = include_str!("../../examples/graphs/terrain.json");

#[test]
fn the_terrain_example_lowers_in_2d_3d_and_4d() {
    let graph = Graph::from_json(TERRAIN).expect("the example parses");
    for dims in 2..=4 {
        let program = graph.program(dims, [0.0; 4]).expect("lowers");
        // ridges 5 + cells 1 + mask 3, at the warped point; the warp: dims axes × 2 octaves.
        assert_eq!(program.noise_calls(), 9 + dims * 2, "{dims}D");
        let lut = PermutationTables::new(0);
        let v = eval::value(&program, &lut, [0.3f32, 1.7, 2.1, 0.4], &mut Vec::new());
        assert!(v.is_finite(), "{dims}D: {v}");
    }
}

/// Each bad graph, the JSON path its error must name, and words of the message.
#[test]
fn bad_graphs_are_refused_naming_the_json_path() {
    let wrap =
        |nodes: &str| format!(r#"{{ "version": 1, "output": "out", "nodes": {{ {nodes} }} }}"#);
    let deep = {
        let mut chain = String::from(r#""n0": { "type": "simplex" }"#);
        for i in 1..40 {
            chain += &format!(r#", "n{i}": {{ "type": "abs", "source": "n{}" }}"#, i - 1);
        }
        chain + r#", "out": { "type": "abs", "source": "n39" }"#
    };
    let many = {
        let mut nodes = String::from(r#""out": { "type": "simplex" }"#);
        for i in 0..300 {
            nodes += &format!(r#", "c{i}": {{ "type": "constant", "value": 1 }}"#);
        }
        nodes
    };
    let cases: Vec<(String, &str, &str)> = vec![
        ("{ not json".into(), "", "not valid JSON"),
        (
            r#"{ "version": 2, "output": "a", "nodes": {} }"#.into(),
            "version",
            "not a version",
        ),
        (
            r#"{ "output": "a", "nodes": {} }"#.into(),
            "version",
            "missing",
        ),
        (
            wrap(r#""a": { "type": "simplex" }"#),
            "output",
            "no node is named \"out\"",
        ),
        (
            wrap(r#""out": { "type": "perlin" }"#),
            "nodes.out.type",
            "unknown node type",
        ),
        (
            wrap(r#""out": { "type": "simplex", "octaves": 3 }"#),
            "nodes.out.octaves",
            "unknown parameter",
        ),
        (
            wrap(r#""out": { "type": "fbm", "source": { "type": "simplex" }, "octaves": "five" }"#),
            "nodes.out.octaves",
            "whole number",
        ),
        (
            wrap(r#""out": { "type": "fbm", "source": { "type": "simplex" }, "octaves": 17 }"#),
            "nodes.out.octaves",
            "out of range",
        ),
        (
            wrap(r#""out": { "type": "cellular", "jitter": 2 }"#),
            "nodes.out.jitter",
            "out of range",
        ),
        (
            wrap(
                r#""out": { "type": "fbm", "source": { "type": "simplex", "kernel": "smooth" } }"#,
            ),
            "nodes.out.source.kernel",
            "not one of",
        ),
        (
            wrap(r#""out": { "type": "blend", "a": 1, "b": 2, "t": "mask" }"#),
            "nodes.out.t",
            "no node is named \"mask\"",
        ),
        (
            wrap(
                r#""out": { "type": "abs", "source": "b" }, "b": { "type": "abs", "source": "out" }"#,
            ),
            "nodes.out.source",
            "a cycle: b → out → b",
        ),
        (
            wrap(r#""out": { "type": "abs", "source": [1] }"#),
            "nodes.out.source",
            "must be a node",
        ),
        (
            wrap(r#""out": { "type": "clamp", "source": 1, "min": 1, "max": 0 }"#),
            "nodes.out.max",
            "below min",
        ),
        (
            wrap(r#""out": { "type": "remap", "source": 1, "from": [1, 1] }"#),
            "nodes.out.from",
            "differ",
        ),
        (
            wrap(r#""out": { "type": "scale", "source": 1, "by": 1e300 }"#),
            "nodes.out.by",
            "out of range",
        ),
        (
            wrap(r#""out": { "type": "simplex" }, "extra": { "type": "simplex", "seed": 1.5 }"#),
            "nodes.extra.seed",
            "whole number",
        ),
        (wrap(&deep), "", "deeper than"),
        (wrap(&many), "", "more than 256 nodes"),
        (
            wrap(
                r#""out": { "type": "fbm", "octaves": 16, "source": { "type": "fbm", "octaves": 16, "source": { "type": "fbm", "octaves": 16, "source": { "type": "simplex" } } } }"#,
            ),
            "nodes.out.source.source.source",
            "noise functions per sample",
        ),
    ];
    for (text, path, words) in cases {
        let error = Graph::from_json(&text)
            .and_then(|g| g.program(3, [0.0; 4]).map(drop))
            .expect_err(&text);
        let shown = error.to_string();
        assert!(
            error.path == path || (path.is_empty() && shown.contains(words)),
            "{text}\n  expected path {path:?}, got {:?} ({shown})",
            error.path
        );
        assert!(
            shown.contains(words),
            "{text}\n  expected {words:?} in {shown:?}"
        );
        println!("{shown}");
    }
}

#[test]
fn dimension_specific_nodes_are_refused_where_they_do_not_apply() {
    let cases = [
        (
            r#"{ "type": "position", "axis": "w" }"#,
            3,
            "nodes.out.axis",
        ),
        (r#"{ "type": "flow", "angle": 1 }"#, 4, "nodes.out"),
        (
            r#"{ "type": "rotate", "source": 1, "angle": 1, "plane": "zw" }"#,
            3,
            "nodes.out.plane",
        ),
        (
            r#"{ "type": "warp", "source": 1, "amplitude": 1, "displacement": [1, 2] }"#,
            3,
            "nodes.out.displacement",
        ),
    ];
    for (node, dims, path) in cases {
        let text = format!(r#"{{ "version": 1, "output": "out", "nodes": {{ "out": {node} }} }}"#);
        let error = Graph::from_json(&text)
            .unwrap()
            .program(dims, [0.0; 4])
            .expect_err(node);
        assert_eq!(error.path, path, "{node} in {dims}D: {error}");
    }
    let tiled = r#"{ "version": 1, "output": "out", "nodes": { "out": { "type": "simplex" } } }"#;
    let error = Graph::from_json(tiled)
        .unwrap()
        .program(4, [4.0; 4])
        .unwrap_err();
    assert!(error.message.contains("does not tile"), "{error}");
}

/// The f32 values of `field` filled by the bake's CPU path (the SIMD fill, bit for bit the
/// scalar reference) and of `graph` over the same texels.
fn flags_and_graph(field: &FlagField, graph: &str) -> (Vec<f32>, Vec<f32>) {
    let program = Graph::from_json(graph)
        .unwrap()
        .program(field.dims, NoiseSettings::of(field).period)
        .unwrap();
    let params = FillParams::new(field, Slab::whole(field));
    let lut = CpuLookup::new(LookupVariant::Textures, 0);
    let mut flags = vec![0.0; params.len()];
    let value = FieldOutput::Value;
    lut.fill(&Plan::Fused(field.clone()), value, &params, &mut flags);
    let mut from_graph = vec![0.0; params.len()];
    let spec = NoiseSpec::new(program, field.grid.clone(), 0);
    lut.fill(&spec.plan(), value, &params, &mut from_graph);
    (flags, from_graph)
}

fn graph_of(node: &str) -> String {
    format!(r#"{{ "version": 1, "output": "out", "nodes": {{ "out": {node} }} }}"#)
}

#[test]
fn graphs_that_spell_out_flags_give_the_flags_bits() {
    let fractal = |mode, octaves| Fractal {
        mode,
        octaves,
        ..Fractal::default()
    };
    let warp = wgpu_noise::field::Warp {
        amplitude: 1.5,
        octaves: 2,
        frequency: 0.5,
        iterations: 2,
    };
    let cases: Vec<(FlagField, String)> = vec![
        (
            FlagField::new(NoiseKind::Simplex, &[33, 17, 9])
                .with_frequency(&[4.0, 3.0, 2.0])
                .with_fractal(fractal(FractalMode::Ridged, 5)),
            graph_of(r#"{ "type": "ridged", "source": { "type": "simplex" }, "octaves": 5 }"#),
        ),
        (
            FlagField::new(NoiseKind::Simplex, &[40, 30]).with_frequency(&[5.0, 5.0]),
            graph_of(r#"{ "type": "simplex" }"#),
        ),
        (
            FlagField::new(NoiseKind::Classic, &[32, 24])
                .with_frequency(&[4.0, 3.0])
                .with_fractal(fractal(FractalMode::Fbm, 4))
                .with_tileable(true),
            graph_of(r#"{ "type": "fbm", "source": { "type": "classic" }, "octaves": 4 }"#),
        ),
        (
            FlagField::new(NoiseKind::Classic, &[9, 8, 7, 3])
                .with_frequency(&[2.0, 2.0, 2.0, 1.0])
                .with_fractal(fractal(FractalMode::Turbulence, 3)),
            graph_of(r#"{ "type": "turbulence", "source": { "type": "classic" }, "octaves": 3 }"#),
        ),
        (
            FlagField::new(NoiseKind::Simplex, &[20, 20, 8])
                .with_frequency(&[3.0, 3.0, 3.0])
                .with_fractal(fractal(FractalMode::Fbm, 3))
                .with_kernel(Kernel::Continuous),
            graph_of(
                r#"{ "type": "fbm", "source": { "type": "simplex", "kernel": "continuous" }, "octaves": 3 }"#,
            ),
        ),
        (
            FlagField::new(NoiseKind::Simplex, &[48, 40])
                .with_frequency(&[2.0, 2.0])
                .with_fractal(fractal(FractalMode::Fbm, 3))
                .with_warp(warp),
            graph_of(
                r#"{ "type": "warp", "amplitude": 1.5, "octaves": 2, "frequency": 0.5, "iterations": 2,
                          "source": { "type": "fbm", "source": { "type": "simplex" }, "octaves": 3 } }"#,
            ),
        ),
        (
            FlagField::new(NoiseKind::Cellular, &[24, 20, 6])
                .with_frequency(&[4.0, 4.0, 2.0])
                .with_cellular(wgpu_noise::field::Cellular {
                    output: wgpu_noise::field::CellularOutput::F2MinusF1,
                    distance: wgpu_noise::field::Distance::Manhattan,
                    jitter: 0.75,
                })
                .with_fractal(fractal(FractalMode::Fbm, 2)),
            graph_of(
                r#"{ "type": "fbm", "octaves": 2, "source": { "type": "cellular", "output": "f2-f1", "distance": "manhattan", "jitter": 0.75 } }"#,
            ),
        ),
        (
            FlagField::new(NoiseKind::Simplex, &[30, 30])
                .with_frequency(&[6.0, 6.0])
                .with_fractal(fractal(FractalMode::Fbm, 2))
                .with_flow_angle(0.8),
            graph_of(
                r#"{ "type": "fbm", "octaves": 2, "source": { "type": "flow", "angle": 0.8 } }"#,
            ),
        ),
    ];
    for (field, graph) in &cases {
        let (flags, from_graph) = flags_and_graph(field, graph);
        let same = flags
            .iter()
            .zip(&from_graph)
            .filter(|(a, b)| a.to_bits() == b.to_bits())
            .count();
        assert_eq!(
            same,
            flags.len(),
            "{graph}: {same} of {} samples identical",
            flags.len()
        );
        println!("{} samples identical: {graph}", flags.len());
    }
}

#[test]
fn a_single_source_in_f64_is_the_java_reference() {
    let lut = PermutationTables::new(0);
    for (kind, dims) in [
        ("simplex", 2),
        ("simplex", 3),
        ("simplex", 4),
        ("classic", 3),
    ] {
        let program = Graph::from_json(&graph_of(&format!(r#"{{ "type": "{kind}" }}"#)))
            .unwrap()
            .program(dims, [0.0; 4])
            .unwrap();
        let noise_kind = if kind == "simplex" {
            NoiseKind::Simplex
        } else {
            NoiseKind::Classic
        };
        let mut rng = Rng::new(dims as u64);
        let mut regs = Vec::new();
        for _ in 0..2000 {
            let p: [f64; 4] = std::array::from_fn(|a| {
                if a < dims {
                    rng.range(-1000.0, 1000.0)
                } else {
                    0.0
                }
            });
            let v = eval::value::<f64>(&program, &lut, p, &mut regs);
            let reference = wgpu_noise::cpu::noise_at::<f64>(&lut, noise_kind, &p[..dims]);
            assert_eq!(v.to_bits(), reference.to_bits(), "{kind}{dims} at {p:?}");
        }
    }
}

fn random_point(rng: &mut Rng, dims: usize, scale: f64) -> [f64; 4] {
    std::array::from_fn(|a| {
        if a < dims {
            rng.range(-scale, scale)
        } else {
            0.0
        }
    })
}

/// Valid random graphs of every node type (the generator in tests/common/graphs.rs), as
/// programs; graphs over the per-sample limits are counted, not used.
fn random_programs(
    seed: u64,
    count: usize,
    shape_of: impl Fn(&mut Rng) -> Shape,
) -> Vec<(String, Program)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut over_limit = 0;
    while out.len() < count {
        let shape = shape_of(&mut rng);
        let text = random_graph(&mut rng, shape).to_string();
        let graph = Graph::from_json(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        match graph.program(shape.dims, [0.0; 4]) {
            Ok(p) => out.push((text, p)),
            Err(e) if e.message.contains("per sample") => over_limit += 1,
            Err(e) => panic!("{text}\n{e}"),
        }
    }
    println!("{count} random graphs ({over_limit} more were over the per-sample limits)");
    out
}

#[test]
fn random_graphs_are_finite_at_small_and_large_coordinates() {
    let programs = random_programs(11, 300, |rng| Shape {
        dims: 2 + rng.below(3) as usize,
        depth: 1 + rng.below(6) as usize,
        differentiable: false,
    });
    let lut = PermutationTables::new(5);
    let mut rng = Rng::new(99);
    let (mut r32, mut r64) = (Vec::new(), Vec::new());
    let mut samples = 0;
    for (text, program) in &programs {
        for scale in [1.0, 100.0, 1e4, 1e6] {
            for _ in 0..8 {
                let p = random_point(&mut rng, program.dims(), scale);
                let v32 = eval::value::<f32>(program, &lut, p.map(|v| v as f32), &mut r32);
                let v64 = eval::value::<f64>(program, &lut, p, &mut r64);
                assert!(
                    v32.is_finite() && v64.is_finite(),
                    "{text}\n at {p:?}: {v32} / {v64}"
                );
                samples += 1;
            }
        }
    }
    println!(
        "{samples} samples of {} graphs, all finite (f32 and f64)",
        programs.len()
    );
}

#[test]
fn random_graph_gradients_match_central_differences_away_from_kinks() {
    let programs = random_programs(23, 300, |rng| Shape {
        dims: 2 + rng.below(3) as usize,
        depth: 1 + rng.below(6) as usize,
        differentiable: true,
    });
    let unused = unused_node_types(&programs.iter().map(|(text, _)| text).collect::<Vec<_>>());
    assert!(unused.is_empty(), "no random graph uses {unused:?}");
    let lut = PermutationTables::new(1);
    let mut rng = Rng::new(7);
    let (mut duals, mut regs) = (Vec::new(), Vec::new());
    let (mut checked, mut kinks, mut steep, mut worst) = (0usize, 0usize, 0usize, 0.0f64);
    for (text, program) in &programs {
        let dims = program.dims();
        // A driven cellular jitter or exponent reaches the f64 evaluator rounded to f32 (a
        // source's parameters are f32: `eval::with_values`), so the f64 values step by its
        // f32 ulp (about 6e-8 for a jitter, 2.4e-7 for an exponent near 3) times the slope
        // along it: over a central difference's 2h = 7.4e-5 that is up to about 1e-3 of the
        // slope (1.4e-4 measured for a jitter on a 3D Minkowski F1, 1.1e-4 for an exponent
        // on a 2D Minkowski F4), the bound `cellular_jitter::the_gradient_carries_the_jitters_slope`
        // uses.
        let rounded = program.ops().iter().any(|op| match op {
            Op::Noise { driven, .. } | Op::Feature { driven, .. } => !driven.is_none(),
            _ => false,
        });
        let tolerance = if rounded { 1e-3 } else { 1e-4 };
        for _ in 0..10 {
            let p = random_point(&mut rng, dims, 50.0);
            let analytic = eval::value_and_gradient::<f64>(program, &lut, p, &mut duals);
            let value = eval::value::<f64>(program, &lut, p, &mut regs);
            assert_eq!(
                analytic[0].to_bits(),
                value.to_bits(),
                "{text}: the gradient path's value"
            );
            for a in 0..dims {
                let mut at = |h: f64| {
                    let mut q = p;
                    q[a] += h;
                    eval::value::<f64>(program, &lut, q, &mut regs)
                };
                let mut central = |h: f64| (at(h) - at(-h)) / (2.0 * h);
                // Steps in ratios far from whole numbers: a periodic node (ping-pong) whose
                // input moves by near whole periods within steps in ratios of 2 made three
                // aliased differences agree (1233 against an analytic 1.28e6, verified
                // against sampled values: the triangle wave wrapped 64, 32 and 16 times).
                let (d1, d2, d3) = (central(1e-4), central(3.7e-5), central(1.3e-5));
                let scale = 1.0 + analytic[1 + a].abs();
                // Steeper than a change of 1e3 over the step: a bounded node after it (a
                // ping-pong's period of 2) wraps many times within the step, or f64 rounds its
                // input coarser than the step; differences cannot measure it.
                if analytic[1 + a].abs() * 1e-4 > 1e3 {
                    steep += 1;
                    continue;
                }
                // A kink or a jump within the step: the differences at three steps disagree.
                if (d1 - d2).abs() > 1e-4 * scale || (d2 - d3).abs() > 1e-4 * scale {
                    kinks += 1;
                    continue;
                }
                let error = (analytic[1 + a] - d2).abs() / scale;
                worst = worst.max(error);
                assert!(
                    error < tolerance,
                    "{text}\n at {p:?} axis {a}: analytic {} central {d2}",
                    analytic[1 + a]
                );
                checked += 1;
            }
        }
    }
    println!("{checked} derivatives within {worst:.1e} (relative) of central differences; {kinks} near a kink and {steep} steeper than 1e7 skipped");
    assert!(
        (kinks + steep) * 5 < checked,
        "too many kinks: {kinks} of {}",
        checked + kinks
    );
}

#[test]
fn the_shipped_clouds_tile_in_3d() {
    let text = include_str!("../../examples/graphs/clouds.json");
    let period = 4.0f32;
    let program = Graph::from_json(text)
        .unwrap()
        .program(3, [period, period, period, 0.0])
        .unwrap();
    let lut = PermutationTables::new(0);
    let mut rng = Rng::new(3);
    let mut regs = Vec::new();
    let mut worst = 0.0f32;
    for _ in 0..2000 {
        let p: [f32; 4] = std::array::from_fn(|a| {
            if a < 3 {
                rng.range(0.0, 4.0) as f32
            } else {
                0.0
            }
        });
        let v = eval::value(&program, &lut, p, &mut regs);
        for a in 0..3 {
            let mut q = p;
            q[a] += period;
            worst = worst.max((eval::value(&program, &lut, q, &mut regs) - v).abs());
        }
    }
    println!("clouds at p and p + one period along each axis differ by at most {worst:e}");
    // The f32 rounding of p + 4 moves the point by up to 2.4e-7 cells; the fBm's slopes
    // (4 octaves at lacunarity 2, remapped ×1/1.2) turn that into a few 1e-6.
    assert!(worst < 1e-4, "{worst}");
}
