//! The GPU generator: lookup textures, fill pipelines, slab-wise generation and readback.
//!
//! Embedding applications use [`LookupTextures`] (their own pipelines) or
//! [`FillPipelines::record_fill`] (record into their encoder); [`GpuNoise`] adds the
//! standalone conveniences: whole fields to `Vec<f32>`, slab streaming, point evaluation.

mod context;
mod fill;
mod generator;
mod graph;
mod lookup;
pub mod parity;
pub mod readback;

pub use context::{adapter_from_env, GpuContext};
pub use fill::{
    EvalOutput, EvalPass, FieldFill, FillPass, FillPipelines, EVAL_WORKGROUP, WORKGROUP,
};
pub use generator::{GpuNoise, GpuOptions, LookupVariant};
pub use graph::{graph_fill_wgsl, GraphPipeline, NOISE_CALLS_PER_SUBMIT};
pub use lookup::LookupTextures;
