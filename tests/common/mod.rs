//! Shared by the integration tests: the GPU, when there is one.
#![allow(dead_code)]

use wgpu_noise::gpu::{GpuContext, GpuNoise};

/// The GPU context, or `None` with a note on stderr when no adapter exists.
///
/// When `WGPU_NOISE_REQUIRE_GPU` is set (`.ci/run` sets it), a missing adapter is a test
/// failure instead, so a broken driver install can never pass silently.
pub fn gpu() -> Option<GpuContext> {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        // lavapipe complains on stderr without it; harmless, but noisy.
        let dir = std::env::temp_dir().join("wgpu-noise-xdg");
        let _ = std::fs::create_dir_all(&dir);
        std::env::set_var("XDG_RUNTIME_DIR", dir);
    }
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

/// A generator on the default seed, poisoning every target before it is filled.
pub fn generator(ctx: &GpuContext, seed: u64) -> GpuNoise {
    let mut g = GpuNoise::new(&ctx.device, &ctx.queue, seed).expect("generator");
    g.options.poison = true;
    g
}
