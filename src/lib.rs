//! # wgpu-noise
//!
//! Classic Perlin noise and simplex noise in 2D, 3D and 4D, after Stefan Gustavson's
//! "Simplex noise demystified" (2005): WGSL shaders whose permutation, gradient and 4D
//! traversal tables are **textures** the host uploads, a wgpu host that fills 2D, 3D and
//! 4D textures with compute passes, and a CPU reference that reproduces Gustavson's Java
//! code in `f64` and mirrors the shaders in `f32`.
//!
//! Data flows one way: [`tables`] → (GPU textures | CPU reference) → noise functions
//! ([`shader`] / [`cpu`]) → fill ([`gpu`]) → readback → file or window.
//!
//! Values are zero at every lattice point of classic noise (a property of gradient
//! noise, not a bug); see [`cpu`] for the measured output ranges.

// Loops over axes index several per-axis arrays at once (`size`, `frequency`, `offset`,
// axis names) and mirror the shaders' loops: an index reads clearer than nested zips.
#![allow(clippy::needless_range_loop)]

#[cfg(feature = "bake")]
pub mod bake;
pub mod cpu;
pub mod embed;
pub mod error;
pub mod field;
pub mod gpu;
pub mod graph;
pub mod params;
pub mod ramp;
pub mod shader;
#[cfg(any(test, feature = "test-hooks"))]
#[doc(hidden)]
pub mod struct_layout;
pub mod tables;
pub mod text;

// What most users need, at the root.
pub use cpu::{Classic, NoiseFn, Simplex};
pub use embed::{NoiseBindings, NoiseBindingsDescriptor};
pub use error::{NoiseError, Result};
pub use field::{Field, FieldOutput, Fractal, FractalMode, Kernel, NoiseKind};
pub use gpu::{GpuContext, GpuNoise, GpuOptions};
pub use shader::LookupVariant;

/// The pieces [`GpuNoise`] and [`NoiseBindings`] are built from, for applications that
/// record the fill passes themselves: fill pipelines and their parameters, the lookup
/// textures and the tables they hold, WGSL assembly, and texture readback.
pub mod low_level {
    pub use crate::gpu::readback::{map_and_read, padded_row_bytes, unpad_rows};
    pub use crate::gpu::{FillPipelines, LookupTextures, EVAL_WORKGROUP, WORKGROUP};
    pub use crate::params::{FillParams, NoiseSettings, Slab};
    pub use crate::shader::{fill_shader_wgsl, noise_functions_wgsl, noise_functions_wgsl_with};
    pub use crate::tables::PermutationTables;
}

// Every Rust code block of the README is compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
