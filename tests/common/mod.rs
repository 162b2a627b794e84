//! Shared by the integration tests: the GPU, when there is one.
#![allow(dead_code)]

pub mod graphs;
pub mod iso;
pub mod levels;
pub mod terrain;

use wgpu_noise::field::FlagField;
use wgpu_noise::gpu::{GpuContext, GpuNoise, LookupVariant};

/// The GPU context, or `None` with a note on stderr when no adapter exists.
///
/// When `WGPU_NOISE_REQUIRE_GPU` is set (`.ci/run` sets it), a missing adapter is a test
/// failure instead, so a broken driver install can never pass silently.
pub fn gpu() -> Option<GpuContext> {
    quiet_lavapipe();
    match GpuContext::new() {
        Ok(ctx) => Some(ctx),
        Err(e) => {
            if std::env::var_os("WGPU_NOISE_REQUIRE_GPU").is_some() {
                panic!("WGPU_NOISE_REQUIRE_GPU is set but no GPU is usable: {e}");
            }
            eprintln!("SKIPPED (no GPU adapter): {e}");
            None
        }
    }
}

fn quiet_lavapipe() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        // lavapipe complains on stderr without it; harmless, but noisy.
        let dir = std::env::temp_dir().join("wgpu-noise-xdg");
        let _ = std::fs::create_dir_all(&dir);
        std::env::set_var("XDG_RUNTIME_DIR", dir);
    }
}

/// The backends the parity tests check, each on its own: Vulkan (lavapipe on a machine
/// without a GPU) and OpenGL ES (Mesa's llvmpipe through EGL).
pub const BACKENDS: [(&str, wgpu::Backends); 2] = [
    ("vulkan", wgpu::Backends::VULKAN),
    ("gl", wgpu::Backends::GL),
];

/// One context per backend of [`BACKENDS`] that has an adapter, with the backend's name.
///
/// With `WGPU_NOISE_REQUIRE_GPU` set (`.ci/run`), every backend of [`BACKENDS`] must have
/// one: a missing backend fails the test instead of shrinking what it checks.
pub fn gpu_per_backend() -> Vec<(&'static str, GpuContext)> {
    quiet_lavapipe();
    let required = std::env::var_os("WGPU_NOISE_REQUIRE_GPU").is_some();
    let mut out = Vec::new();
    for (name, backends) in BACKENDS {
        match GpuContext::with_backends(backends) {
            Ok(ctx) => out.push((name, ctx)),
            Err(e) if required => {
                panic!("WGPU_NOISE_REQUIRE_GPU is set but the {name} backend is unusable: {e}")
            }
            Err(e) => eprintln!("SKIPPED {name} (no adapter): {e}"),
        }
    }
    out
}

/// The lookup variants, in the order the tests take them.
pub const LOOKUPS: [LookupVariant; 2] = [LookupVariant::Textures, LookupVariant::Hash];

/// A generator on `ctx` for each of [`LOOKUPS`], with its variant.
pub fn generator_per_lookup(ctx: &GpuContext, seed: u64) -> Vec<(LookupVariant, GpuNoise)> {
    LOOKUPS
        .into_iter()
        .map(|v| (v, lookup_generator(ctx, seed, v)))
        .collect()
}

/// One generator for each backend of [`gpu_per_backend`], the lookups taking turns: backend
/// `i` takes `LOOKUPS[(i + seed) % 2]`, so a test checks each backend and each lookup, and
/// the tests' seeds turn which backend runs which.
///
/// For the tests of particular nodes: compiling a graph's pipelines is most of the GPU
/// suite's time (lavapipe: docs/performance.md, Compile time), and all four pairs would
/// compile each graph four times for what two pairs show. The lookup is the same code
/// under every graph, and `backend_parity` and the random graphs check it on every pair.
pub fn gpu_per_backend_taking_turns(seed: u64) -> Vec<(&'static str, LookupVariant, GpuNoise)> {
    gpu_per_backend()
        .into_iter()
        .enumerate()
        .map(|(i, (backend, ctx))| {
            let variant = LOOKUPS[(i + seed as usize) % LOOKUPS.len()];
            (backend, variant, lookup_generator(&ctx, seed, variant))
        })
        .collect()
}

fn lookup_generator(ctx: &GpuContext, seed: u64, variant: LookupVariant) -> GpuNoise {
    GpuNoise::with_variant(&ctx.device, &ctx.queue, seed, variant).expect("generator")
}

/// The plain `kind` noise in `dims` dimensions (one octave, untiled, reference kernel;
/// cellular with its defaults) at `points` on the GPU: the graph of one source, as `sample
/// --backend gpu` evaluates it.
pub fn evaluate_plain(
    gpu: &GpuNoise,
    kind: wgpu_noise::NoiseKind,
    dims: usize,
    points: &[[f32; 4]],
) -> wgpu_noise::Result<Vec<f32>> {
    use wgpu_noise::FieldOutput;
    let plain = FlagField::new(kind, &vec![1; dims]);
    let program = wgpu_noise::graph::flags::program_of(&plain, FieldOutput::Value)
        .expect("a plain source lowers");
    gpu.evaluate_graph(&program, FieldOutput::Value, points)
}

/// A generator on the default seed, poisoning every target before it is filled.
pub fn generator(ctx: &GpuContext, seed: u64) -> GpuNoise {
    let mut g = GpuNoise::new(&ctx.device, &ctx.queue, seed).expect("generator");
    g.options.poison = true;
    g
}
