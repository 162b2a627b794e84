//! Recording a graph into a texture the application owns, whichever kernel computes it: the
//! one way to fill a texture without reading it back.

use std::sync::Arc;

use super::fill::fused_format;
use super::generator::GpuNoise;
use crate::error::{NoiseError, Result};
use crate::field::{Field, FieldOutput};
use crate::graph::plan::Plan;
use crate::graph::Program;

/// A fill of a texture the application owns, for [`GpuNoise::record`].
#[derive(Clone, Copy, Debug)]
pub struct TextureFill<'a> {
    /// The noise: a graph lowered for the field's dimensions ([`crate::graph::Graph::program`]).
    pub program: &'a Program,
    /// The grid it is sampled on; its size is the texture's (2D: `x × y`; 3D: `x × y × z`;
    /// 4D: `x × y × (z·w)`, layer `w·z_size + z`).
    pub field: &'a Field,
    /// What each texel holds: the value, `(value, ∂/∂x, ∂/∂y, ∂/∂z)`, or the curl
    /// (`x, y, 0, 0` or `x, y, z, 0`).
    pub output: FieldOutput,
    /// The application's texture: a 2D texture for a 2D field; for 3D and 4D a 3D texture
    /// or a 2D array (one layer per z). Its usages decide how it is written:
    /// `STORAGE_BINDING` lets the hand-written fill store to it (in the output's format,
    /// [`FieldOutput::texture_format`], or where the device guarantees storage to it, the
    /// 16-bit `R16Float` / `Rgba16Float`); `COPY_DST` lets any graph's own pipeline fill
    /// a buffer that is copied into it (32-bit formats). Mip level 0 is written.
    pub texture: &'a wgpu::Texture,
}

impl GpuNoise {
    /// Records into `encoder` the passes that fill `fill.texture` with `fill.output` of
    /// `fill.program` on `fill.field`'s grid, with this generator's lookup (seed); nothing
    /// is submitted or read back, so the texture is ready for the application's own
    /// passes after this encoder.
    ///
    /// The kernel is the planner's choice, as for [`GpuNoise::read`]: a program the
    /// hand-written fill computes (one source, a fractal of it, a warp of that) is stored
    /// straight into a `STORAGE_BINDING` texture by that fill, whose pipelines take the
    /// parameters as uniforms, so a graph rebuilt every frame with new gains, angles or
    /// amplitudes compiles nothing new. Any other program, or a texture with `COPY_DST`
    /// but not `STORAGE_BINDING`, runs the program's own pipeline (compiled on first use
    /// and cached) into buffers copied into the texture, in dispatches of at most
    /// `NOISE_CALLS_PER_SUBMIT` noise calls each, all in the caller's one submit.
    ///
    /// Errors: [`NoiseError::InvalidField`] for an unusable field,
    /// [`NoiseError::InvalidArgument`] when the program's dimensions, or the texture's
    /// size, dimension or usages do not fit, [`NoiseError::UnsupportedFormat`] for a
    /// format the chosen kernel cannot write, and [`NoiseError::Gpu`] for what wgpu's
    /// validation still catches.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, fill: &TextureFill<'_>) -> Result<()> {
        let TextureFill {
            program,
            field,
            output,
            texture,
        } = *fill;
        field.validate()?;
        if program.dims != field.dims {
            return Err(NoiseError::InvalidArgument(format!(
                "the graph was lowered for {}D, the field is {}D",
                program.dims, field.dims
            )));
        }
        let usage = texture.usage();
        let storage = usage.contains(wgpu::TextureUsages::STORAGE_BINDING);
        let copy = usage.contains(wgpu::TextureUsages::COPY_DST);
        // wgpu's GL backend binds a 3D storage texture one layer deep (docs/backends.md):
        // such a texture is filled by copies when it allows them.
        let gl_volume = texture.dimension() == wgpu::TextureDimension::D3
            && self.device().adapter_info().backend == wgpu::Backend::Gl;
        let plan = Plan::new(Arc::new(program.clone()), field, output);
        let fused = match &plan {
            Plan::Fused(fused) => Some(fused),
            Plan::Graph { .. } => None,
        };
        match fused {
            Some(fused) if storage && !(gl_volume && copy) => {
                self.record_fused(encoder, fused, output, texture)
            }
            _ if copy => {
                let pipeline = self.graph_pipeline(program, output)?;
                self.record_graph(encoder, &pipeline, field, texture)
            }
            Some(_) => {
                // A format the fill cannot store to is the first thing to fix.
                fused_format(self.device(), texture.format(), output)?;
                Err(NoiseError::InvalidArgument(
                    "the target texture needs TextureUsages::STORAGE_BINDING (the \
                     hand-written fill stores to it) or COPY_DST (the graph's own pipeline \
                     is copied into it)"
                        .into(),
                ))
            }
            None => Err(NoiseError::InvalidArgument(
                "this graph runs on its own pipeline, whose output is copied into the \
                 texture: the target texture needs TextureUsages::COPY_DST"
                    .into(),
            )),
        }
    }

    internal! {
        /// How many pipelines this generator has compiled and keeps: the hand-written
        /// fill's specialisations and the graphs' own.
        pub fn compiled_pipelines(&self) -> usize {
            self.pipelines().compiled()
        }
    }
}
