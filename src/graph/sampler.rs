//! A graph sampled on the CPU at points of your choosing: values in `f32` (the GPU's
//! operations) or `f64`, and analytic gradients.

use super::eval::{self, Dual};
use super::{Graph, GraphError, Program};
use crate::cpu::lookup::CpuLookup;
use crate::shader::LookupVariant;

/// A graph lowered for a dimension count and a lookup, with the scratch space its
/// evaluation reuses: [`Graph::sampler`].
///
/// A point's coordinates past the graph's dimensions are ignored and missing ones are 0.
#[derive(Debug)]
pub struct Sampler {
    program: Program,
    lookup: CpuLookup,
    values: Vec<[f32; 4]>,
    values64: Vec<[f64; 4]>,
    duals: Vec<[Dual<f32>; 4]>,
}

/// `p` as the evaluators take it: four coordinates, those past `dims` 0.
fn point<R: Copy + Default>(p: &[R], dims: usize) -> [R; 4] {
    std::array::from_fn(|a| {
        if a < dims {
            p.get(a).copied().unwrap_or_default()
        } else {
            R::default()
        }
    })
}

impl Sampler {
    /// The graph's value at `p`, in `f32`: what the GPU and the bake compute there.
    pub fn value(&mut self, p: &[f32]) -> f32 {
        let p = point(p, self.program.dims);
        match &self.lookup {
            CpuLookup::Tables(t) => eval::value(&self.program, t.tables(), p, &mut self.values),
            CpuLookup::Hash(h) => eval::value(&self.program, h, p, &mut self.values),
        }
    }

    /// The graph's value at `p`, in `f64`.
    pub fn value_f64(&mut self, p: &[f64]) -> f64 {
        let p = point(p, self.program.dims);
        match &self.lookup {
            CpuLookup::Tables(t) => eval::value(&self.program, t.tables(), p, &mut self.values64),
            CpuLookup::Hash(h) => eval::value(&self.program, h, p, &mut self.values64),
        }
    }

    /// `[value, ∂/∂x, ∂/∂y, ∂/∂z, ∂/∂w]` at `p`, in `f32` (derivatives past the graph's
    /// dimensions 0).
    pub fn value_and_gradient(&mut self, p: &[f32]) -> [f32; 5] {
        let p = point(p, self.program.dims);
        match &self.lookup {
            CpuLookup::Tables(t) => {
                eval::value_and_gradient(&self.program, t.tables(), p, &mut self.duals)
            }
            CpuLookup::Hash(h) => eval::value_and_gradient(&self.program, h, p, &mut self.duals),
        }
    }
}

impl Graph {
    /// The graph sampled on the CPU in `dims` (2 to 4) dimensions with the texture lookups'
    /// tables for `seed` (as `bake --seed`); [`Graph::sampler_with`] for the hash.
    pub fn sampler(&self, dims: usize, seed: u64) -> Result<Sampler, GraphError> {
        self.sampler_with(dims, LookupVariant::Textures, seed)
    }

    /// The graph sampled on the CPU with the lookup `variant` for `seed`.
    pub fn sampler_with(
        &self,
        dims: usize,
        variant: LookupVariant,
        seed: u64,
    ) -> Result<Sampler, GraphError> {
        Ok(Sampler {
            program: self.program(dims, [0.0; 4])?,
            lookup: CpuLookup::new(variant, seed),
            values: Vec::new(),
            values64: Vec::new(),
            duals: Vec::new(),
        })
    }
}
