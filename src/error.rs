//! The library's error type.

use std::time::Duration;

/// Everything the library can report instead of panicking.
#[derive(Debug, thiserror::Error)]
pub enum NoiseError {
    /// No GPU adapter could be acquired (no driver, no device, or `WGPU_ADAPTER_NAME`
    /// names none). The CPU reference (`cpu`) still works.
    #[error(
        "no GPU adapter available ({0}); install a Vulkan/Metal/DX12 driver (on Linux without a GPU: \
         Mesa's lavapipe, package mesa-vulkan-drivers) or use the CPU backend"
    )]
    NoAdapter(String),
    /// The adapter refused to create a device.
    #[error("could not create a GPU device: {0}")]
    RequestDevice(String),
    /// A field description is unusable (zero size, non-finite frequency or offset, ...).
    #[error("invalid field: {0}")]
    InvalidField(String),
    /// A size is beyond what the device supports.
    #[error("{what} is {requested}, beyond this device's limit of {limit}")]
    ExceedsLimit {
        /// What exceeded the limit.
        what: String,
        /// The size asked for.
        requested: u64,
        /// The device's limit.
        limit: u64,
    },
    /// wgpu reported a validation or out-of-memory error.
    #[error("GPU error: {0}")]
    Gpu(String),
    /// The device did not finish in time.
    #[error("timed out after {0:?} waiting for the GPU")]
    Timeout(Duration),
    /// A readback buffer could not be mapped.
    #[error("could not read the result back from the GPU: {0}")]
    Readback(String),
    /// A texture format the noise cannot be written in (the reason says whether the
    /// device could store to it at all).
    #[error("cannot fill a {format} texture: {reason}")]
    UnsupportedFormat {
        /// The format asked for, as `wgpu::TextureFormat`'s `Debug` spells it.
        format: String,
        /// Why not.
        reason: String,
    },
    /// An argument is unusable (for example noise bindings visible to no shader stage).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// WGSL that does not compile together with the noise functions (the message names
    /// the line of the caller's source).
    #[error("invalid WGSL: {0}")]
    InvalidShader(String),
    /// Creating, writing or renaming a file failed (the message names the file; the
    /// cause is part of the message, not a separate `source`, so it prints once).
    #[error("{context}: {error}")]
    Io {
        /// What was being done, e.g. "writing out.png".
        context: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The output file exists and overwriting it was not asked for.
    #[error("{} already exists (refusing to overwrite it)", .0.display())]
    OutputExists(std::path::PathBuf),
    /// The output cannot be written as asked: unknown format, an image too large for
    /// the format, an option that does not apply to it.
    #[error("{0}")]
    Output(String),
    /// The adapter failed the self-check of [`crate::gpu::GpuNoise::self_check`]: a probe
    /// it computed differs from the f32 CPU reference, so its results cannot be trusted.
    #[error(
        "the GPU self-check failed on {adapter} ({backend}): {what} differs from the CPU \
         reference by up to {max_error:e}"
    )]
    SelfCheck {
        /// The adapter's name.
        adapter: String,
        /// The wgpu backend (Vulkan, Gl, ...).
        backend: String,
        /// The largest difference from the f32 CPU reference (NaN if a value was NaN).
        max_error: f32,
        /// What failed, e.g. "a 3D simplex fill".
        what: String,
    },
    /// Baked values differ from the CPU reference by more than the tolerance.
    #[error("verification failed: {0}")]
    Verification(String),
}

/// Shorthand for results of this crate.
pub type Result<T, E = NoiseError> = std::result::Result<T, E>;

/// Pops a wgpu error scope (blocking until the device answers); a captured validation or
/// out-of-memory error becomes [`NoiseError::Gpu`]. Not in the browser, where nothing may
/// block: there the library pushes no scopes, and WebGPU reports errors to the
/// device's uncaptured-error handler.
#[cfg(all(feature = "gpu", not(target_arch = "wasm32")))]
pub fn pop_error_scope(scope: wgpu::ErrorScopeGuard) -> Result<()> {
    match pollster::block_on(scope.pop()) {
        None => Ok(()),
        Some(e) => Err(NoiseError::Gpu(e.to_string())),
    }
}

/// An error scope around the library's own GPU calls. Natively it is pushed, then popped
/// and waited for, so a captured error becomes [`NoiseError::Gpu`]. In the browser
/// (wasm32) the pop answers with a promise that nothing in a synchronous call can wait
/// for, and a scope popped unread would swallow the error: there no scope is pushed, and
/// what WebGPU's validation catches reaches the device's uncaptured-error handler
/// (`wgpu::Device::on_uncaptured_error`).
#[cfg(feature = "gpu")]
pub(crate) struct ErrorScope {
    #[cfg(not(target_arch = "wasm32"))]
    guard: wgpu::ErrorScopeGuard,
}

#[cfg(feature = "gpu")]
impl ErrorScope {
    /// Pushes a scope catching `filter` on `device` (natively).
    #[cfg_attr(target_arch = "wasm32", allow(unused_variables))]
    pub(crate) fn push(device: &wgpu::Device, filter: wgpu::ErrorFilter) -> ErrorScope {
        ErrorScope {
            #[cfg(not(target_arch = "wasm32"))]
            guard: device.push_error_scope(filter),
        }
    }

    /// Pops the scope: `Err(NoiseError::Gpu)` when it caught an error (natively).
    pub(crate) fn pop(self) -> Result<()> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            pop_error_scope(self.guard)
        }
        #[cfg(target_arch = "wasm32")]
        {
            Ok(())
        }
    }
}
