//! Reading a field back from the GPU, whichever kernel computes it: the one way the bake,
//! the tests and applications get samples into memory.

use super::generator::GpuNoise;
use crate::error::Result;
use crate::field::{Field, FieldBox, FieldOutput};
use crate::graph::plan::Plan;
use crate::graph::Program;
use crate::params::{FillParams, Slab};

impl GpuNoise {
    /// Computes `output` of `program` at every texel of `field`'s grid and hands the
    /// samples to `sink` box by box, in memory order (x fastest, then y, z, w), each with
    /// the [`FieldBox`] it covers. A box holds
    /// [`FieldOutput::values_per_sample`] floats per texel, interleaved: the value; value
    /// and gradient `[v, ∂/∂x, ∂/∂y, ∂/∂z]`; or the curl's `dims` components, as the CPU
    /// evaluators write them. Peak memory is one box (a few MiB), whatever the field's size.
    ///
    /// The kernel is the planner's choice (`graph::plan`): the hand-written fill where the
    /// program has its shape and output, else the program's own pipeline.
    pub fn read(
        &self,
        program: &Program,
        field: &Field,
        output: FieldOutput,
        mut sink: impl FnMut(&FieldBox, &[f32]) -> Result<()>,
    ) -> Result<()> {
        let plan = Plan::new(std::sync::Arc::new(program.clone()), field, output);
        self.read_plan(&plan, output, |params, values| {
            let texels = FieldBox {
                origin: params.origin,
                extent: params.extent,
            };
            sink(&texels, values)
        })
    }

    internal! {
        /// [`GpuNoise::read`] of a plan already made: the bake's GPU source reads its spec's.
        pub fn read_plan(
            &self,
            plan: &Plan,
            output: FieldOutput,
            mut sink: impl FnMut(&FillParams, &[f32]) -> Result<()>,
        ) -> Result<()> {
            let field = match plan {
                Plan::Fused(field) => field,
                Plan::Graph { program, field } => {
                    let pipeline = self.graph_pipeline(program, output)?;
                    let mut values = Vec::new();
                    for params in FillParams::boxes(field, self.graph_box_texels(&pipeline)) {
                        values.clear();
                        self.fill_graph_box(&pipeline, &params, &mut values)?;
                        sink(&params, &values)?;
                    }
                    return Ok(());
                }
            };
            // The fill writes whole texels, four floats for a gradient or a curl; the curl
            // (`x, y, 0, 0` or `x, y, z, 0`) keeps its `dims` components.
            let (dims, channels) = (field.dims, output.values_per_sample(field.dims));
            let texel = output.texture_channels() as usize;
            let mut kept = Vec::new();
            self.run_slabs(field, output, |slab: Slab, values: &[f32]| {
                let params = FillParams::new(field, slab);
                if channels == texel {
                    return sink(&params, values);
                }
                kept.clear();
                kept.extend(values.chunks_exact(texel).flat_map(|t| &t[..dims]));
                sink(&params, &kept)
            })
        }
    }
}
