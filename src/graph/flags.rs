//! The noise options of a [`Field`] (the command line's `--noise`, `--octaves`, `--warp…`,
//! `--flow-angle`, …) as a graph.
//!
//! [`graph_of`] is what the options mean: a source, a fractal of it, a warp of that. Which
//! kernel computes a graph of that shape is the planner's choice (`graph::plan`).

use std::collections::BTreeMap;

use super::program::Program;
use super::spec::{
    CellularValue, GraphSpec, Input, NodeKind, NodeSpec, Octaves, WarpFractal, WarpNoise,
};
use super::GraphError;
use crate::cpu::warp::warp_kind;
use crate::field::{FieldOutput, FlagField, FractalMode, Kernel, NoiseKind};
use crate::params::NoiseSettings;

/// The graph `field`'s noise options describe, for `output`: its source (classic,
/// simplex, cellular or flow noise), a fractal of it when there are several octaves or
/// another mode, and a warp of that when the warp is active. Curl noise in 3D takes the
/// continuous kernel (`cpu::curl::curl3`).
pub fn graph_of(field: &FlagField, output: FieldOutput) -> GraphSpec {
    let kernel = if output == FieldOutput::Curl && field.dims == 3 {
        Kernel::Continuous
    } else {
        field.kernel
    };
    let source = match field.kind {
        NoiseKind::Classic => NodeKind::Classic { seed: 0 },
        NoiseKind::Value => NodeKind::Value { seed: 0 },
        NoiseKind::SuperSimplex => NodeKind::SuperSimplex { seed: 0 },
        // The angle as the fill's uniform carries it (`NoiseSettings::with_flow_angle`).
        NoiseKind::Simplex if field.flow_angle != 0.0 => NodeKind::Flow {
            seed: 0,
            angle: Input::Constant(
                NoiseSettings::default()
                    .with_flow_angle(field.flow_angle)
                    .flow_angle,
            ),
            kernel,
        },
        NoiseKind::Simplex => NodeKind::Simplex { seed: 0, kernel },
        NoiseKind::Cellular => NodeKind::Cellular {
            seed: 0,
            output: CellularValue::Output(field.cellular.output),
            distance: field.cellular.distance.into(),
            driven_exponent: None,
            jitter: Input::Constant(field.cellular.jitter as f32),
        },
    };
    let mut nodes = BTreeMap::new();
    let mut add = |name: &str, node: NodeKind| {
        let spec = NodeSpec {
            path: format!("nodes.{name}"),
            node,
        };
        nodes.insert(name.to_string(), spec);
        Input::Named(name.to_string())
    };
    let mut top = add("noise", source);
    let f = &field.fractal;
    // One fBm octave is the source itself, whatever the lacunarity and gain.
    if f.octaves > 1 || f.mode != FractalMode::Fbm {
        top = add(
            "fractal",
            NodeKind::Fractal {
                source: top,
                octaves: Octaves {
                    mode: f.mode,
                    count: f.octaves,
                    lacunarity: Input::Constant(f.lacunarity as f32),
                    gain: Input::Constant(f.gain as f32),
                    seed_step: 0,
                    weighted_strength: Input::Constant(0.0),
                },
            },
        );
    }
    let w = &field.warp;
    if w.is_active() {
        // A classic warp has no kernel: the field's (refused for other noise than simplex
        // by `FlagField::validate`) is dropped rather than passed where graphs refuse it.
        let (noise, warp_kernel) = match warp_kind(field.kind) {
            NoiseKind::Simplex => (WarpNoise::Simplex, kernel),
            _ => (WarpNoise::Classic, Kernel::Reference),
        };
        top = add(
            "warp",
            NodeKind::Warp {
                source: top,
                amplitude: Input::Constant(w.amplitude as f32),
                frequency: Input::Constant(w.frequency as f32),
                octaves: w.octaves,
                iterations: w.iterations,
                noise,
                fractal: WarpFractal::Independent,
                kernel: warp_kernel,
                lacunarity: Input::Constant(f.lacunarity as f32),
                gain: Input::Constant(f.gain as f32),
                displacement: None,
            },
        );
    }
    let Input::Named(output) = top else {
        unreachable!("every node above is named")
    };
    GraphSpec { nodes, output }
}

/// `graph_of(field)` lowered as a graph file would be for `field` (its dimensions and tile
/// period).
pub fn program_of(field: &FlagField, output: FieldOutput) -> Result<Program, GraphError> {
    let period = NoiseSettings::of(field).period;
    super::program::lower(&graph_of(field, output), field.dims, period)
}
