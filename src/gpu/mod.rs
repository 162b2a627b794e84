//! The GPU generator: lookup textures, fill pipelines, slab-wise generation and readback.
//!
//! Embedding applications use [`LookupTextures`] (their own pipelines) or
//! [`GpuNoise::record`] (record into their encoder); [`GpuNoise`] also reads fields and
//! points back.

#[cfg(feature = "gpu")]
mod context;
#[cfg(feature = "gpu")]
mod fill;
#[cfg(feature = "gpu")]
mod generator;
#[cfg(feature = "gpu")]
pub mod graph;
#[cfg(feature = "gpu")]
mod lookup;
pub mod parity;
#[cfg(feature = "gpu")]
mod read;
#[cfg(feature = "gpu")]
mod record;
#[cfg(feature = "gpu")]
pub mod timer;
#[cfg(feature = "gpu")]
pub mod readback;

pub use crate::shader::LookupVariant;
#[cfg(feature = "gpu")]
pub use context::{adapter_from_env, GpuContext};
#[cfg(feature = "gpu")]
pub use fill::{FillPass, FillPipelines, WORKGROUP};
#[cfg(feature = "gpu")]
pub use generator::{GpuNoise, GpuOptions};
#[cfg(feature = "gpu")]
pub use graph::{graph_fill_wgsl, GraphPipeline, NOISE_CALLS_PER_SUBMIT};
#[cfg(feature = "gpu")]
pub use lookup::LookupTextures;
#[cfg(feature = "gpu")]
pub use record::TextureFill;
