//! # wgpu-noise
//!
//! Noise graphs on the GPU and the CPU. A graph composes classic Perlin, simplex and
//! cellular (Worley) noise in 2D, 3D and 4D with fractal sums, domain warps, flow and curl
//! noise, tiling and combinations; it compiles to one fused WGSL function run by wgpu
//! compute passes, and runs on the CPU (scalar `f32` and `f64`, and SIMD lanes with the
//! scalar `f32` bits), with analytic gradients on both.
//!
//! One entry per job:
//!
//! - **Build a graph in Rust**: [`graph::Node`] (or read one written as JSON:
//!   [`graph::Graph::from_json`]); a [`Field`] is the grid it is sampled on.
//! - **Sample it on the CPU at points of yours**: [`graph::Sampler`], in `f32` as the GPU
//!   does, in `f64`, or with its gradient.
//! - **Fill a texture on the GPU**: [`GpuNoise::record`] into your encoder and your
//!   texture, or [`GpuNoise::read`] back in boxes; [`GpuContext`] when you have no device
//!   yet.
//! - **Bake to a file from Rust**: `bake` (the `bake` module and feature: PNG, EXR, KTX2,
//!   RAW and `.npy`, written whole or not at all).
//! - **Embed the WGSL in your own shader**: [`embed`] ([`NoiseBindings`] on wgpu 29 or 30, the
//!   wgpu-free texture contract) and [`shader`] (the source, WESL and naga_oil modules).
//!
//! [`low_level`] holds the pieces [`GpuNoise`] and [`NoiseBindings`] are built from. The
//! `wgpu-noise` binary (the `cli` feature: `sample`, `bake`, `bench`, a live preview window)
//! and the repository's `web/` page are built on this library; neither is part of its API.
//!
//! The base noise follows Stefan Gustavson's "Simplex noise demystified" (2005): the `f64`
//! CPU reference reproduces his Java code, the `f32` one mirrors the shaders operation for
//! operation, and the lookups are textures the host uploads or an integer hash
//! ([`LookupVariant`]).
//!
//! Values are zero at every lattice point of classic noise (a property of gradient
//! noise, not a bug); `docs/noise-kinds.md` has the measured output ranges.

// Loops over axes index several per-axis arrays at once (`size`, `frequency`, `offset`,
// axis names) and mirror the shaders' loops: an index reads clearer than nested zips.
#![allow(clippy::needless_range_loop)]

/// An item of the library's internals: crate-private, and public (hidden from the
/// documentation) only with the `test-hooks` feature, through which the tests and the
/// development examples reach it. Not API. Without `test-hooks` a build that leaves some of
/// it unused (no `cli`, no `bake`) is not warned about it.
macro_rules! internal {
    ($($(#[$attr:meta])* pub const $name:ident: $ty:ty = $value:expr;)+) => {
        $(
            $(#[$attr])*
            #[cfg(feature = "test-hooks")]
            #[doc(hidden)]
            pub const $name: $ty = $value;

            $(#[$attr])*
            #[cfg(not(feature = "test-hooks"))]
            #[allow(dead_code)]
            pub(crate) const $name: $ty = $value;
        )+
    };
    ($(#[$attr:meta])* pub $($item:tt)*) => {
        $(#[$attr])*
        #[cfg(feature = "test-hooks")]
        #[doc(hidden)]
        pub $($item)*

        $(#[$attr])*
        #[cfg(not(feature = "test-hooks"))]
        #[allow(dead_code, unused_imports)]
        pub(crate) $($item)*
    };
}

// The entry points: one module per job (the crate docs above), and `low_level`.
#[cfg(feature = "bake")]
pub mod bake;
pub mod embed;
pub mod graph;
pub mod shader;

// The internals, reached through the re-exports below.
internal! { pub mod cpu; }
internal! { pub mod error; }
internal! { pub mod field; }
internal! { pub mod gpu; }
internal! { pub mod params; }
internal! { pub mod ramp; }
internal! { pub mod tables; }
internal! { pub mod text; }
#[cfg(feature = "test-hooks")]
#[doc(hidden)]
pub mod struct_layout;

// The `wgpu-noise` binary (the `cli` feature): a tool built on the library, not part of its
// API. It lives here so that it reaches the crate-private pieces; `src/main.rs` calls
// `run_cli`. With `test-hooks` it is public (hidden) like the internals, for tests/cli;
// without, private, so that the binary's build still reports what of it is unused.
#[cfg(all(feature = "cli", feature = "test-hooks"))]
#[doc(hidden)]
pub mod cli;
#[cfg(all(feature = "cli", not(feature = "test-hooks")))]
mod cli;

// The graph editor (the `editor` feature): a tool module shared by the desktop preview and
// the web page (`web/`, its own crate, which is why it is public), not part of the API.
#[cfg(feature = "editor")]
#[doc(hidden)]
pub mod editor;

/// The `wgpu-noise` binary's entry point (`src/main.rs`); not API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub use cli::main as run_cli;
// `src/cli/bench/harness.rs` is also compiled into `examples/shader_experiments`, where this
// crate is `wgpu_noise`: the name resolves inside the crate as well.
#[cfg(feature = "cli")]
extern crate self as wgpu_noise;

// The grid, its errors, and the GPU generator, at the root.
#[cfg(feature = "gpu")]
pub use embed::{NoiseBindings, NoiseBindingsDescriptor};
pub use error::{NoiseError, Result};
pub use field::{Field, FieldBox, FieldOutput, NoiseKind, Window};
#[cfg(feature = "gpu")]
pub use gpu::{GpuContext, GpuNoise, GpuOptions, TextureFill};
pub use shader::LookupVariant;

/// The pieces [`GpuNoise`] and [`NoiseBindings`] are built from, for applications that
/// manage them themselves: the lookup textures and the tables they hold, texture readback,
/// and the colour ramps the preview and the web page draw with.
pub mod low_level {
    #[cfg(feature = "gpu")]
    pub use crate::gpu::readback::{map_and_read, padded_row_bytes, unpad_rows};
    #[cfg(feature = "gpu")]
    pub use crate::gpu::LookupTextures;
    pub use crate::ramp::{ColourRamp, RampStops};
    pub use crate::tables::PermutationTables;
}

// Every Rust code block of the README is compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
