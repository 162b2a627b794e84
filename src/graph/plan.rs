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
use crate::field::{Cellular, CellularOutput, Distance, Field, Fractal, FractalMode, Warp};

/// The kernel that computes a field's samples.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// The hand-written fill of this field's noise options.
    Fused(Field),
    /// The generic evaluators: `program` on `field`, the grid as the program samples it
    /// ([`Program::sampled_field`]).
    Graph {
        /// The lowered graph.
        program: Arc<Program>,
        /// The grid, its noise options at their defaults.
        field: Field,
    },
}

impl Plan {
    /// `program` on `field`'s grid for `output`: the hand-written fill where the field's own
    /// noise options, or options read back from the program's shape, compute the program
    /// operation for operation and that fill has `output` ([`FieldOutput::check`]); else the
    /// generic evaluators.
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
    pub fn field(&self) -> &Field {
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

/// The field with `field`'s grid whose noise options compute `program` (lowered for that
/// grid) operation for operation, if there is one: `field` itself when its own options do,
/// else options read back from the program's shape and checked by lowering them again.
/// `None` for any program that is not one source, a fractal of it and a warp of that.
fn fused_field(program: &Program, field: &Field, output: FieldOutput) -> Option<Field> {
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
    CellularOutput::ALL.iter().find_map(|&output| {
        Distance::ALL.iter().find_map(|&distance| {
            let options = Cellular {
                output,
                distance,
                jitter: cell.jitter as f64,
            };
            (CellularShape::from_options(&options) == *cell).then_some(options)
        })
    })
}
