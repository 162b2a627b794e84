//! The flags are sugar for graphs: every valid combination of the field's noise options
//! names a graph (`graph::flags::graph_of`) whose generic evaluation gives the hand-written
//! fill's bits, and a graph of that shape, however it was written, is recognised and run on
//! the fill (`graph::plan::Plan::new`).

use std::sync::Arc;

use crate::common::graphs::Rng;
use wgpu_noise::bake::NoiseSpec;
use wgpu_noise::cpu::CpuLookup;
use wgpu_noise::field::{
    Cellular, CellularOutput, Distance, FlagField, Fractal, FractalMode, Kernel, Warp,
};
use wgpu_noise::gpu::LookupVariant;
use wgpu_noise::graph::plan::Plan;
use wgpu_noise::graph::{flags, Graph, Program};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::FieldOutput;
use wgpu_noise::NoiseKind;

/// A random combination of every noise option the command line has (many invalid: the
/// caller skips what `FlagField::validate` refuses).
fn random_field(rng: &mut Rng) -> FlagField {
    let dims = 2 + rng.below(3) as usize;
    let kind = *rng.pick(&[NoiseKind::Classic, NoiseKind::Simplex, NoiseKind::Cellular]);
    let size: Vec<u32> = (0..dims).map(|a| [9, 6, 4, 3][a]).collect();
    let tileable = rng.below(4) == 0;
    let frequency: Vec<f64> = (0..dims)
        .map(|_| {
            if tileable {
                rng.range(1.0, 6.0).round()
            } else {
                rng.range(0.5, 6.0)
            }
        })
        .collect();
    let far = rng.below(3) == 0;
    let offset: Vec<f64> = (0..dims)
        .map(|_| {
            if far {
                rng.range(-1e4, 1e4)
            } else {
                rng.range(-50.0, 50.0)
            }
        })
        .collect();
    let mut field = FlagField::new(kind, &size)
        .with_frequency(&frequency)
        .with_offset(&offset)
        .with_tileable(tileable);
    if rng.below(3) != 0 {
        field = field.with_fractal(Fractal {
            mode: *rng.pick(&[
                FractalMode::Fbm,
                FractalMode::Turbulence,
                FractalMode::Ridged,
            ]),
            octaves: 1 + rng.below(5) as u32,
            lacunarity: *rng.pick(&[2.0, 3.0, 2.5, 1.87]),
            gain: *rng.pick(&[0.5, 0.6, 0.35]),
        });
    }
    if kind == NoiseKind::Simplex && dims >= 3 && rng.below(2) == 0 {
        field = field.with_kernel(Kernel::Continuous);
    }
    if kind == NoiseKind::Cellular {
        field = field.with_cellular(Cellular {
            output: *rng.pick(&[
                CellularOutput::F1,
                CellularOutput::F2,
                CellularOutput::F2MinusF1,
                CellularOutput::Cell,
            ]),
            distance: *rng.pick(&[
                Distance::Euclidean,
                Distance::Manhattan,
                Distance::Chebyshev,
            ]),
            jitter: *rng.pick(&[1.0, 0.5, 0.0]),
        });
    }
    if rng.below(3) == 0 {
        field = field.with_warp(Warp {
            amplitude: *rng.pick(&[0.5, -1.25, 2.0]),
            frequency: *rng.pick(&[1.0, 2.0, 0.75]),
            octaves: 1 + rng.below(3) as u32,
            iterations: 1 + rng.below(3) as u32,
        });
    }
    if kind == NoiseKind::Simplex && dims <= 3 && !tileable && rng.below(3) == 0 {
        field = field.with_flow_angle(*rng.pick(&[0.7, -2.5]));
    }
    field
}

/// The field's values as the bake computes them on the CPU, in `f32`, on the spec's plan.
fn fill(spec: &NoiseSpec) -> Vec<f32> {
    fill_on(&spec.plan(), spec)
}

/// The values of `spec` computed by the kernel of `plan`.
fn fill_on(plan: &Plan, spec: &NoiseSpec) -> Vec<f32> {
    let field = plan.field();
    let params = FillParams::new(field, Slab::whole(field));
    let mut out = vec![0.0; field.len() as usize * spec.channels()];
    CpuLookup::new(spec.lookup, spec.seed).fill(plan, spec.output, &params, &mut out);
    out
}

/// The plan `Plan::new` makes of `program` on `field`'s grid: its fused field, if any.
fn fused_field(program: &Program, field: &FlagField) -> Option<FlagField> {
    match Plan::new(Arc::new(program.clone()), field, FieldOutput::Value) {
        Plan::Fused(fused) => Some(fused),
        Plan::Graph { .. } => None,
    }
}

#[test]
fn every_valid_flag_field_is_its_graph_bit_for_bit() {
    let mut rng = Rng::new(0x5eed_f1a9);
    let (mut checked, mut refused, mut warped, mut tiled, mut far) = (0, 0, 0, 0, 0);
    while checked < 300 {
        let field = random_field(&mut rng);
        if field.validate().is_err() {
            refused += 1;
            continue;
        }
        let program = flags::program_of(&field, FieldOutput::Value)
            .unwrap_or_else(|e| panic!("{field:?}: a valid field has no graph: {e}"));
        let lookup = *rng.pick(&[LookupVariant::Textures, LookupVariant::Hash]);
        let seed = rng.below(3);
        let flags_spec = NoiseSpec::of_flags(&field, FieldOutput::Value, seed)
            .unwrap()
            .with_lookup(lookup);
        // The hand-written fill of the options, against the generic evaluator (not the
        // fill the planner fuses the graph to).
        let graph_plan = Plan::Graph {
            field: program.sampled_field(&field),
            program: Arc::new(program),
        };
        let flags_plan = Plan::Fused(field.clone());
        let (a, b) = (
            fill_on(&flags_plan, &flags_spec),
            fill_on(&graph_plan, &flags_spec),
        );
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            assert!(
                x.to_bits() == y.to_bits(),
                "{field:?} {lookup:?} seed {seed}: texel {i}: flags {x}, graph {y}"
            );
        }
        checked += 1;
        warped += field.warp.is_active() as usize;
        tiled += field.tileable as usize;
        far += field.offset.iter().any(|o| o.abs() > 128.0) as usize;
    }
    println!(
        "{checked} flag fields equal to their graphs bit for bit ({warped} warped, {tiled} \
         tiled, {far} far from the origin); {refused} random combinations refused as invalid"
    );
    assert!(warped >= 30 && tiled >= 30 && far >= 30, "coverage");
}

#[test]
fn a_graph_of_a_flag_shape_is_recognised_however_it_is_written() {
    let mut rng = Rng::new(0xfa57);
    let mut recognised = 0;
    while recognised < 300 {
        let field = random_field(&mut rng);
        if field.validate().is_err() {
            continue;
        }
        let program = flags::program_of(&field, FieldOutput::Value).unwrap();
        // The grid alone: the noise options must come back from the program.
        let grid = program.sampled_field(&field);
        let fused = fused_field(&program, &grid)
            .unwrap_or_else(|| panic!("{field:?}: its own graph is not recognised"));
        // The options read back may differ where they change nothing (the lacunarity of
        // one octave); the fill computes the same bits.
        assert_eq!(fused.kind, field.kind, "{field:?}");
        let spec = NoiseSpec::of_flags(&field, FieldOutput::Value, rng.below(3)).unwrap();
        let planned = spec.plan();
        assert!(matches!(planned, Plan::Fused(_)), "{field:?}: {planned:?}");
        let (a, b, c) = (
            fill_on(&Plan::Fused(field.clone()), &spec),
            fill_on(&Plan::Fused(fused.clone()), &spec),
            fill_on(&planned, &spec),
        );
        assert!(
            a.iter().zip(&c).all(|(x, y)| x.to_bits() == y.to_bits()),
            "{field:?} planned as {planned:?} computes other values"
        );
        assert!(
            a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()),
            "{field:?} read back as {fused:?} computes other values"
        );
        recognised += 1;
    }
    // Written by hand, with names and inline nodes of its own.
    let text = r#"{ "version": 1, "output": "top", "nodes": {
        "top": { "type": "warp", "amplitude": 0.5, "octaves": 2, "iterations": 2,
                 "source": { "type": "ridged", "octaves": 4, "source": "n" } },
        "n": { "type": "simplex" } } }"#;
    let field = FlagField::new(NoiseKind::Classic, &[16, 16, 4]).with_frequency(&[4.0, 4.0, 1.0]);
    let program = Graph::from_json(text)
        .unwrap()
        .program(3, [0.0; 4])
        .unwrap();
    let fused = fused_field(&program, &field).expect("recognised");
    assert_eq!(fused.kind, NoiseKind::Simplex);
    assert_eq!(
        (fused.fractal.mode, fused.fractal.octaves),
        (FractalMode::Ridged, 4)
    );
    assert_eq!((fused.warp.octaves, fused.warp.iterations), (2, 2));
    // Not flag shapes: composites, a seed, a scale.
    for text in [
        r#"{ "version": 1, "output": "s", "nodes": { "s": { "type": "add", "a": { "type": "simplex" }, "b": { "type": "classic" } } } }"#,
        r#"{ "version": 1, "output": "s", "nodes": { "s": { "type": "simplex", "seed": 3 } } }"#,
        r#"{ "version": 1, "output": "s", "nodes": { "s": { "type": "scale", "by": [2, 2, 2], "source": { "type": "simplex" } } } }"#,
    ] {
        let program = Graph::from_json(text)
            .unwrap()
            .program(3, [0.0; 4])
            .unwrap();
        assert!(
            fused_field(&program, &field).is_none(),
            "{text} taken for a flag field"
        );
    }
    let terrain = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs/terrain.json"),
    )
    .unwrap();
    let program = Graph::from_json(&terrain)
        .unwrap()
        .program(3, [0.0; 4])
        .unwrap();
    assert!(fused_field(&program, &field).is_none());
}

#[test]
fn the_kernel_follows_the_output() {
    // Plain classic noise is a flag shape for its value but the fill has no classic
    // gradient: asked for the gradient, it runs as the graph.
    let field = FlagField::new(NoiseKind::Classic, &[12, 8]).with_frequency(&[3.0, 2.0]);
    let program = flags::program_of(&field, FieldOutput::Value).unwrap();
    let value = NoiseSpec::new(program, field.grid.clone(), 2);
    assert!(
        matches!(value.plan(), Plan::Fused(_)),
        "the value runs on the fill"
    );
    let gradient = value.with_output(FieldOutput::Gradient);
    assert!(
        matches!(gradient.plan(), Plan::Graph { .. }),
        "the gradient runs as the graph"
    );
    assert_eq!(fill(&gradient).len(), 12 * 8 * 4);
    // Back to the value: the fill again, with the options read back from the graph.
    let back = gradient.with_output(FieldOutput::Value);
    assert!(matches!(back.plan(), Plan::Fused(field) if field.kind == NoiseKind::Classic));
}
