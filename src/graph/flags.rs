//! The noise options of a [`Field`] (the command line's `--noise`, `--octaves`, `--warp…`,
//! `--flow-angle`, …) as a graph, and back.
//!
//! [`graph_of`] is what the options mean: a source, a fractal of it, a warp of that. Any
//! graph whose lowered program is one of those ([`fused_field`]) is computed by the
//! hand-written fill of `shaders/fill.wgsl` and its CPU mirrors, the compiler's kernel for
//! that shape; every other graph by the generic evaluators. `tests/reference/flag_graphs.rs`
//! checks that both give the same bits.

use std::collections::BTreeMap;

use super::program::{Op, Program};
use super::spec::{GraphSpec, Input, NodeKind, NodeSpec, WarpNoise};
use super::GraphError;
use crate::cpu::cellular::CellularShape;
use crate::cpu::warp::warp_kind;
use crate::field::FieldOutput;
use crate::field::{
    Cellular, CellularOutput, Distance, Field, Fractal, FractalMode, Kernel, NoiseKind, Warp,
};
use crate::params::NoiseSettings;

/// The graph `field`'s noise options describe, for `output`: its source (classic,
/// simplex, cellular or flow noise), a fractal of it when there are several octaves or
/// another mode, and a warp of that when the warp is active. Curl noise in 3D takes the
/// continuous kernel (`cpu::curl::curl3`).
pub fn graph_of(field: &Field, output: FieldOutput) -> GraphSpec {
    let kernel = if output == FieldOutput::Curl && field.dims == 3 {
        Kernel::Continuous
    } else {
        field.kernel
    };
    let source = match field.kind {
        NoiseKind::Classic => NodeKind::Classic { seed: 0 },
        // The angle as the fill's uniform carries it (`NoiseSettings::with_flow_angle`).
        NoiseKind::Simplex if field.flow_angle != 0.0 => NodeKind::Flow {
            seed: 0,
            angle: NoiseSettings::default()
                .with_flow_angle(field.flow_angle)
                .flow_angle,
            kernel,
        },
        NoiseKind::Simplex => NodeKind::Simplex { seed: 0, kernel },
        NoiseKind::Cellular => NodeKind::Cellular {
            seed: 0,
            output: field.cellular.output,
            distance: field.cellular.distance,
            jitter: field.cellular.jitter as f32,
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
                mode: f.mode,
                source: top,
                octaves: f.octaves,
                lacunarity: f.lacunarity as f32,
                gain: f.gain as f32,
                seed_step: 0,
            },
        );
    }
    let w = &field.warp;
    if w.is_active() {
        top = add(
            "warp",
            NodeKind::Warp {
                source: top,
                amplitude: w.amplitude as f32,
                frequency: w.frequency as f32,
                octaves: w.octaves,
                iterations: w.iterations,
                noise: match warp_kind(field.kind) {
                    NoiseKind::Simplex => WarpNoise::Simplex,
                    _ => WarpNoise::Classic,
                },
                kernel,
                lacunarity: f.lacunarity as f32,
                gain: f.gain as f32,
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
pub fn program_of(field: &Field, output: FieldOutput) -> Result<Program, GraphError> {
    let period = NoiseSettings::of(field).period;
    super::program::lower(&graph_of(field, output), field.dims, period)
}

/// The field with `field`'s grid whose noise options compute `program` (lowered for that
/// grid) operation for operation, if there is one: `field` itself when its own options do,
/// else options read back from the program's shape and checked by lowering them again.
/// `None` for any program that is not one source, a fractal of it and a warp of that.
pub fn fused_field(program: &Program, field: &Field, output: FieldOutput) -> Option<Field> {
    let same = |candidate: &Field| {
        program_of(candidate, output).is_ok_and(|p| {
            p.dims == program.dims && p.ops == program.ops && p.output == program.output
        })
    };
    if same(field) {
        return Some(field.clone());
    }
    let candidate = read_back(program, field)?;
    same(&candidate).then_some(candidate)
}

/// A guess at the flag options of `program` from its shape (checked by the caller).
fn read_back(program: &Program, field: &Field) -> Option<Field> {
    let ops = &program.ops;
    let noise_at = |r: usize| match &ops[r] {
        Op::Noise { p, source } => Some((*p, *source)),
        _ => None,
    };
    // The frequency factor of an octave after the first: its point is scaled by it.
    let scale_of = |r: usize| match &ops[r] {
        Op::Scale { by, .. } => Some(by[0] as f64),
        _ => None,
    };
    let (mode, terms) = match &ops[program.output] {
        Op::Fractal { mode, terms, .. } => (*mode, terms.clone()),
        Op::Noise { .. } => (FractalMode::Fbm, vec![(program.output, 1.0)]),
        _ => return None,
    };
    let (point, source) = noise_at(terms.first()?.0)?;
    let mut fractal = Fractal {
        mode,
        octaves: terms.len() as u32,
        ..Fractal::default()
    };
    if let Some(&(second, gain)) = terms.get(1) {
        fractal.gain = gain as f64;
        fractal.lacunarity = scale_of(noise_at(second)?.0)?;
    }
    // The warp: a chain of displacements of the sample point, each by fBm of the warp
    // noise at the last warped point (or the sample point) scaled and shifted.
    let mut warp = Warp::default();
    let mut iterations = 0;
    let mut q = point;
    while let Op::Displace { p: 0, d, amplitude } = &ops[q] {
        let Op::Fractal { terms: fbm, .. } = &ops[d[0]] else {
            return None;
        };
        let (shifted, _) = noise_at(fbm.first()?.0)?;
        let Op::Offset { p: scaled, .. } = &ops[shifted] else {
            return None;
        };
        let Op::Scale { p: previous, by } = &ops[*scaled] else {
            return None;
        };
        warp.amplitude = *amplitude as f64;
        warp.frequency = by[0] as f64;
        warp.octaves = fbm.len() as u32;
        iterations += 1;
        warp.iterations = iterations;
        // The warp's fBm has the field's lacunarity and gain, seen here with one octave.
        if let (1, Some(&(second, gain))) = (fractal.octaves, fbm.get(1)) {
            fractal.gain = gain as f64;
            fractal.lacunarity = scale_of(noise_at(second)?.0)?;
        }
        q = *previous;
    }
    if q != 0 {
        return None;
    }
    let mut out = field
        .clone()
        .with_fractal(fractal)
        .with_kernel(source.kernel)
        .with_cellular(cellular_of(&source.cell)?)
        .with_warp(warp)
        .with_flow_angle(source.flow as f64)
        .with_tileable(source.period[..field.dims].iter().any(|&p| p > 0.0));
    out.kind = source.kind;
    Some(out)
}

/// The cellular options whose shape is `cell`.
fn cellular_of(cell: &CellularShape) -> Option<Cellular> {
    const OUTPUTS: [CellularOutput; 4] = [
        CellularOutput::F1,
        CellularOutput::F2,
        CellularOutput::F2MinusF1,
        CellularOutput::Cell,
    ];
    const DISTANCES: [Distance; 3] = [
        Distance::Euclidean,
        Distance::Manhattan,
        Distance::Chebyshev,
    ];
    OUTPUTS.iter().find_map(|&output| {
        DISTANCES.iter().find_map(|&distance| {
            let options = Cellular {
                output,
                distance,
                jitter: cell.jitter as f64,
            };
            (CellularShape::from_options(&options) == *cell).then_some(options)
        })
    })
}
