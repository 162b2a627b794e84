//! # wgpu-noise
//!
//! Noise graphs on the GPU and the CPU. A graph ([`graph`]: written as JSON, or built in
//! Rust as a [`graph::GraphSpec`]; a [`Field`]'s noise options are one too) composes
//! classic Perlin, simplex and cellular (Worley) noise in 2D, 3D and 4D with fractal sums,
//! domain warps, flow and curl noise, tiling and combinations. It compiles to one fused
//! WGSL function run by wgpu compute passes ([`gpu`]), and runs on the CPU ([`cpu`]: scalar
//! `f32` and `f64`, and SIMD lanes with the scalar `f32` bits), with analytic gradients on
//! both.
//!
//! Around it: bakes to PNG, EXR, KTX2, RAW and `.npy` (the `bake` module and feature), the
//! noise WGSL to embed in your own shaders, plain or as WESL / naga_oil modules ([`embed`],
//! [`shader`]), and, in the `wgpu-noise` binary, a live preview window; the repository's
//! `web/` page runs the library on a browser's WebGPU.
//!
//! The base noise follows Stefan Gustavson's "Simplex noise demystified" (2005): the `f64`
//! CPU reference reproduces his Java code, the `f32` one mirrors the shaders operation for
//! operation, and the lookups are textures the host uploads or an integer hash.
//!
//! Data flows one way: [`tables`] → noise functions ([`shader`] / [`cpu`]) → graphs
//! ([`graph`]) → evaluators ([`cpu`], [`gpu`]) → file or window.
//!
//! Values are zero at every lattice point of classic noise (a property of gradient
//! noise, not a bug); see [`cpu`] for the measured output ranges.

// Loops over axes index several per-axis arrays at once (`size`, `frequency`, `offset`,
// axis names) and mirror the shaders' loops: an index reads clearer than nested zips.
#![allow(clippy::needless_range_loop)]

#[cfg(feature = "bake")]
pub mod bake;
// The `wgpu-noise` binary (the `cli` feature): a tool built on the library, not part of its
// API. It lives here so that it reaches the crate-private pieces; `src/main.rs` calls
// `run_cli`.
#[cfg(feature = "cli")]
mod cli;
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

/// The `wgpu-noise` binary's entry point (`src/main.rs`); not API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub use cli::main as run_cli;
// `src/cli/bench/harness.rs` is also compiled into `examples/shader_experiments`, where this
// crate is `wgpu_noise`: the name resolves inside the crate as well.
#[cfg(feature = "cli")]
extern crate self as wgpu_noise;

// What most users need, at the root.
pub use cpu::{Classic, NoiseFn, Simplex};
#[cfg(feature = "gpu")]
pub use embed::{NoiseBindings, NoiseBindingsDescriptor};
pub use error::{NoiseError, Result};
pub use field::{Field, FieldOutput, Fractal, FractalMode, Kernel, NoiseKind};
#[cfg(feature = "gpu")]
pub use gpu::{GpuContext, GpuNoise, GpuOptions};
pub use shader::LookupVariant;

/// The pieces [`GpuNoise`] and [`NoiseBindings`] are built from, for applications that
/// record the fill passes themselves: fill pipelines and their parameters, the lookup
/// textures and the tables they hold, WGSL assembly, and texture readback.
pub mod low_level {
    #[cfg(feature = "gpu")]
    pub use crate::gpu::readback::{map_and_read, padded_row_bytes, unpad_rows};
    #[cfg(feature = "gpu")]
    pub use crate::gpu::{FillPipelines, LookupTextures, EVAL_WORKGROUP, WORKGROUP};
    pub use crate::params::{FillParams, NoiseSettings, Slab};
    pub use crate::shader::{fill_shader_wgsl, noise_functions_wgsl, noise_functions_wgsl_with};
    pub use crate::tables::PermutationTables;
}

// Every Rust code block of the README is compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
