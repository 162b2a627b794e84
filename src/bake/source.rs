//! Where baked samples come from: the GPU ([`GpuSource`], on a device the caller owns) or
//! the `f32` CPU mirror of the shaders ([`CpuSource`], all cores). Both hand out the field
//! in bounded chunks, in memory order.
//!
//! A chunk holds one `f32` per texel, or four — `[value, ∂/∂x, ∂/∂y, ∂/∂z]`, interleaved —
//! when the spec asks for the gradient ([`NoiseSpec::output`]), or `dims` for curl noise.

use crate::bake::NoiseSpec;
use crate::cpu::lookup::CpuLookup;
use crate::cpu::simd::{self, fill_graph_slab_output, fill_slab_output};
use crate::error::{NoiseError, Result};
use crate::field::{AXIS_NAMES, Field, FieldOutput, Window};
#[cfg(feature = "gpu")]
use crate::gpu::GpuNoise;
use crate::gpu::LookupVariant;
use crate::graph::plan::Plan;
use crate::params::FillParams;

impl CpuLookup {
    /// Fills the box `params` of `plan`'s field with `output` on lanes: the fused fill
    /// ([`fill_slab_output`]: one value, four interleaved for a gradient, `dims` for a curl
    /// per texel) or the graph's ([`fill_graph_slab_output`]); the scalar reference's values
    /// bit for bit.
    pub fn fill(&self, plan: &Plan, output: FieldOutput, params: &FillParams, out: &mut [f32]) {
        match plan {
            Plan::Fused(field) => {
                fill_slab_output(self, field.kind, field.dims, params, output, out)
            }
            Plan::Graph { program, .. } => {
                fill_graph_slab_output(program, self, params, output, out)
            }
        }
    }
}

/// The most bytes of samples a source hands out at once (16 MiB = 4 Mi samples), and the
/// GPU slab size [`GpuSource`] asks for: small enough that a bake's peak memory stays far
/// below the field's size, large enough that per-chunk overhead is negligible.
pub const CHUNK_BYTES: u64 = 16 << 20;

/// Something that generates a [`NoiseSpec`]'s samples.
///
/// A fractal or tileable variant is another implementation (or a parameter the spec
/// carries): the encoders, the file handling and the verification do not change.
pub trait SampleSource {
    /// A few words for messages, e.g. `gpu` or `cpu (2 threads)`.
    fn name(&self) -> String;

    /// Generates every sample of `spec` once, in memory order (x fastest, then y, z, w),
    /// handing each contiguous box to `sink` with the `FillParams` that describe it (the
    /// CPU reference can regenerate the same box from them). Stops at the first error.
    fn produce(
        &mut self,
        spec: &NoiseSpec,
        sink: &mut dyn FnMut(&FillParams, &[f32]) -> Result<()>,
    ) -> Result<()>;
}

/// The GPU, through a [`GpuNoise`] on the caller's device.
#[cfg(feature = "gpu")]
pub struct GpuSource {
    noise: GpuNoise,
}

#[cfg(feature = "gpu")]
impl GpuSource {
    /// Bakes with `noise` (its seed is set from each spec), limiting its slabs to
    /// `CHUNK_BYTES` if they were larger.
    pub fn new(mut noise: GpuNoise) -> Self {
        noise.options.slab_bytes = noise.options.slab_bytes.min(CHUNK_BYTES);
        GpuSource { noise }
    }

    /// Whether this device can generate `spec` (sizes within its texture and buffer limits,
    /// the generator compiled for the spec's lookup variant).
    pub fn check(&self, spec: &NoiseSpec) -> Result<()> {
        spec.validate()?;
        let variant = self.noise.pipelines().variant();
        if variant != spec.lookup {
            return Err(NoiseError::Output(format!(
                "the GPU generator uses the {variant:?} lookup but the bake asks for {:?}",
                spec.lookup
            )));
        }
        // Texture sides are the same for a gradient or curl field (Rgba32Float texels); its
        // 4× larger layers are checked against the buffer limit when the bake starts.
        self.noise.slab_layers(spec.plan().field()).map(drop)
    }

    /// The generator, e.g. to change its options.
    pub fn generator_mut(&mut self) -> &mut GpuNoise {
        &mut self.noise
    }
}

#[cfg(feature = "gpu")]
impl SampleSource for GpuSource {
    fn name(&self) -> String {
        format!("gpu ({})", self.noise.adapter_description())
    }

    fn produce(
        &mut self,
        spec: &NoiseSpec,
        sink: &mut dyn FnMut(&FillParams, &[f32]) -> Result<()>,
    ) -> Result<()> {
        self.check(spec)?;
        self.noise.set_seed(spec.seed);
        self.noise.read_plan(&spec.plan(), spec.output, sink)
    }
}

/// The `f32` CPU reference, on all cores: the SIMD fills (`cpu::simd::fill_slab`,
/// `cpu::simd::fill_graph_slab`), and the scalar gradient and curl fills.
pub struct CpuSource {
    lookup: Option<CpuLookup>,
    chunk_samples: u64,
    /// Whether the last [`SampleSource::produce`] ran SIMD lanes (or the scalar fill).
    lanes: bool,
}

impl Default for CpuSource {
    fn default() -> Self {
        CpuSource {
            lookup: None,
            chunk_samples: CHUNK_BYTES / 4,
            lanes: true,
        }
    }
}

impl CpuSource {
    /// A CPU source handing out chunks of `CHUNK_BYTES` (the lookup of each spec's
    /// variant and seed is built on first use).
    pub fn new() -> Self {
        CpuSource::default()
    }

    /// The same with chunks of at most `samples` samples (at least one row): smaller
    /// chunks use less memory; the values do not depend on it.
    pub fn with_chunk_samples(samples: u64) -> Self {
        CpuSource {
            lookup: None,
            chunk_samples: samples.max(1),
            lanes: true,
        }
    }

    fn lookup(&mut self, variant: LookupVariant, seed: u64) -> &CpuLookup {
        if self.lookup.as_ref().is_none_or(|l| !l.is(variant, seed)) {
            self.lookup = Some(CpuLookup::new(variant, seed));
        }
        self.lookup.as_ref().expect("just set")
    }
}

impl SampleSource for CpuSource {
    fn name(&self) -> String {
        format!(
            "cpu ({} threads, {})",
            simd::default_threads(),
            if self.lanes {
                simd::simd_level()
            } else {
                "scalar"
            }
        )
    }

    fn produce(
        &mut self,
        spec: &NoiseSpec,
        sink: &mut dyn FnMut(&FillParams, &[f32]) -> Result<()>,
    ) -> Result<()> {
        spec.validate()?;
        let channels = spec.channels();
        // The budget is in bytes: a gradient chunk holds a quarter as many texels.
        let budget = (self.chunk_samples / channels as u64).max(1);
        let plan = spec.plan();
        let boxes = FillParams::boxes(plan.field(), budget);
        let lanes = simd::lane_plan(&plan, spec.lookup, spec.output);
        // The lanes' boxes are the plan's (the same size and window), with their sampling.
        let lane_boxes = FillParams::boxes(lanes.plan.field(), budget);
        self.lanes = lanes.lanes;
        let lookup = self.lookup(spec.lookup, spec.seed);
        let mut values = Vec::new();
        for (params, lane_params) in boxes.iter().zip(&lane_boxes) {
            values.resize(params.len() * channels, 0.0);
            lookup.fill(&lanes.plan, spec.output, lane_params, &mut values);
            if lanes.positive_zero {
                values.iter_mut().for_each(|v| *v += 0.0);
            }
            sink(params, &values)?;
        }
        Ok(())
    }
}

/// Tile `index` of a grid of `count` tiles over the first `count.len()` axes of `field` (2
/// or 3 of them), with `overlap` more texels towards the far edge so that neighbours
/// share borders: `field` itself is the whole bake.
///
/// Along an axis of `N` texels in `n` tiles, every tile is `t = ceil(N / n)` texels wide
/// and tile `i` covers `i*t .. min(i*t + t + overlap, N)`: the last tile is smaller when
/// `n` does not divide `N`, and a grid that would leave a tile empty is refused. The tile
/// is a [`Window`] of `field`, so its texels carry the whole bake's values exactly.
pub fn tile(field: &Field, index: &[u32], count: &[u32], overlap: u32) -> Result<Field> {
    let axes = count.len();
    let bad = |m: String| Err(NoiseError::InvalidField(m));
    if index.len() != axes || !(2..=3).contains(&axes) || axes > field.dims {
        return bad(format!(
            "a tile is given by 2{} indices and as many tile counts (x, y[, z]); got {} and {} for a {}D field",
            if field.dims > 2 { " or 3" } else { "" },
            index.len(),
            axes,
            field.dims
        ));
    }
    if field.window.is_some() {
        return bad("a tile of a tile: give the whole field's size".into());
    }
    let mut origin = [0u32; 4];
    let mut size = field.size;
    for a in 0..axes {
        let (name, whole, n, i) = (AXIS_NAMES[a], field.size[a], count[a], index[a]);
        if n == 0 || n > whole {
            return bad(format!(
                "{n} tiles along {name}: must be 1 to the size along {name} ({whole})"
            ));
        }
        if i >= n {
            return bad(format!(
                "tile index {i} along {name}: tiles count from 0 to {}",
                n - 1
            ));
        }
        let width = whole.div_ceil(n);
        if (n - 1) as u64 * width as u64 >= whole as u64 {
            return bad(format!(
                "{whole} texels along {name} in {n} tiles of {width} leave the last tile empty \
                 (use a tile count c for which ceil({whole}/c)*(c-1) < {whole}, e.g. one dividing {whole})"
            ));
        }
        let start = i * width;
        let end = (start as u64 + width as u64 + overlap as u64).min(whole as u64) as u32;
        origin[a] = start;
        size[a] = end - start;
    }
    let mut tile = field.clone();
    tile.size = size;
    tile.window = Some(Window {
        origin,
        whole: field.size,
    });
    tile.validate()?;
    Ok(tile)
}
