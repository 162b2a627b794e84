//! The planner: which kernel computes a lowered program on a field, decided in one place for
//! the CPU and the GPU alike.
//!
//! A program of the shape the hand-written fill computes (one source, a fractal of it, a
//! warp of that: [`super::flags::graph_of`]) runs on that fill (`shaders/fill.wgsl`,
//! `cpu::fill`, `cpu::simd`) with the options read back from its operations; every other
//! program on the generic evaluators (the program's WGSL, `graph::eval`, the graph's lanes).
//! `tests/reference/flag_graphs.rs` checks that both give the same bits.

use std::sync::Arc;

use super::flags::program_of;
use super::program::{Op, Program};
use crate::cpu::cellular::CellularShape;
use crate::field::FieldOutput;
use crate::field::{
    Cellular, CellularOutput, Distance, Field, FlagField, Fractal, FractalMode, Kernel, Warp,
};

/// The kernel that computes a field's samples.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// The hand-written fill of these noise options on the grid.
    Fused(FlagField),
    /// The generic evaluators: `program` on `field`, the grid as the program samples it
    /// ([`Program::sampled_field`]).
    Graph {
        /// The lowered graph.
        program: Arc<Program>,
        /// The grid as the program samples it ([`Program::sampled_field`]).
        field: FlagField,
    },
}

impl Plan {
    /// `program` on the grid `field` for `output`: the hand-written fill where options read
    /// back from the program's shape compute the program operation for operation and that
    /// fill has `output` ([`FieldOutput::check`]); else the generic evaluators.
    pub fn new(program: Arc<Program>, field: &Field, output: FieldOutput) -> Plan {
        match fused_field(&program, field, output).filter(|f| output.check(f).is_ok()) {
            Some(fused) => Plan::Fused(fused),
            None => Plan::Graph {
                field: program.sampled_field(field),
                program,
            },
        }
    }

    /// The field the kernel fills: the fused field, or the grid as the program samples it.
    pub fn field(&self) -> &FlagField {
        match self {
            Plan::Fused(field) | Plan::Graph { field, .. } => field,
        }
    }

    /// The program the generic evaluators run, if they do.
    pub fn program(&self) -> Option<&Arc<Program>> {
        match self {
            Plan::Fused(_) => None,
            Plan::Graph { program, .. } => Some(program),
        }
    }
}

/// The noise options on `field` that compute `program` (lowered for that grid) operation
/// for operation, if there are any: read back from the program's shape and checked by
/// lowering them again. `None` for any program that is not one source, a fractal of it and
/// a warp of that.
fn fused_field(program: &Program, field: &Field, output: FieldOutput) -> Option<FlagField> {
    let mut candidate = read_back(program, field)?;
    if output == FieldOutput::Curl {
        // The curl fill picks its own kernel (`graph_of`: the continuous one in 3D) and
        // takes the options' default.
        candidate.kernel = Kernel::default();
    }
    program_of(&candidate, output)
        .is_ok_and(|p| p.dims == program.dims && p.ops == program.ops && p.output == program.output)
        .then_some(candidate)
}

/// A guess at the flag options of `program` from its shape (checked by the caller).
fn read_back(program: &Program, field: &Field) -> Option<FlagField> {
    let ops = &program.ops;
    let noise_at = |r: usize| match &ops[r] {
        Op::Noise { p, source, driven } if driven.is_none() => Some((*p, *source)),
        _ => None,
    };
    // The frequency factor of an octave after the first: its point is scaled by it.
    let scale_of = |r: usize| match &ops[r] {
        Op::Scale { by, .. } => Some(decimal(by[0])),
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
        fractal.gain = decimal(gain);
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
        warp.amplitude = decimal(*amplitude);
        warp.frequency = decimal(by[0]);
        warp.octaves = fbm.len() as u32;
        iterations += 1;
        warp.iterations = iterations;
        // The warp's fBm has the field's lacunarity and gain, seen here with one octave.
        if let (1, Some(&(second, gain))) = (fractal.octaves, fbm.get(1)) {
            fractal.gain = decimal(gain);
            fractal.lacunarity = scale_of(noise_at(second)?.0)?;
        }
        q = *previous;
    }
    if q != 0 {
        return None;
    }
    let out = FlagField::on(field.clone(), source.kind)
        .with_fractal(fractal)
        .with_kernel(source.kernel)
        .with_cellular(cellular_of(&source.cell)?)
        .with_warp(warp)
        .with_flow_angle(decimal(source.flow))
        .with_tileable(source.period[..field.dims].iter().any(|&p| p > 0.0));
    Some(out)
}

/// The cellular options whose shape is `cell`.
fn cellular_of(cell: &CellularShape) -> Option<Cellular> {
    CellularOutput::ALL.iter().find_map(|&output| {
        Distance::ALL.iter().find_map(|&distance| {
            let options = Cellular {
                output,
                distance,
                jitter: decimal(cell.jitter),
            };
            (CellularShape::from_options(&options) == *cell).then_some(options)
        })
    })
}

/// The `f64` a program's `f32` parameter was most likely written as: its shortest decimal
/// (`1.87`, not `1.8700000047683716`), which rounds to the same `f32`, so that the options read
/// back print as the flags were given.
fn decimal(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(x as f64)
}
