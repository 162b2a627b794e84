//! Standalone adapter and device acquisition (for the command line, tests and examples;
//! an embedding application brings its own device).

use crate::error::{NoiseError, Result};

/// A device and queue acquired on their own, honouring `WGPU_BACKEND`,
/// `WGPU_ADAPTER_NAME` and `WGPU_POWER_PREF`.
pub struct GpuContext {
    /// The adapter the device was created on.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl GpuContext {
    /// Acquires an adapter from the environment (or the default one) and a device with
    /// the adapter's own limits, so large textures are available where the hardware has
    /// them. Blocks until the device is ready, so not in the browser (wasm32): use
    /// [`GpuContext::new_async`] there.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new() -> Result<Self> {
        pollster::block_on(Self::new_async())
    }

    /// Async version of [`GpuContext::new`].
    pub async fn new_async() -> Result<Self> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = adapter_from_env(&instance).await?;
        Self::on_adapter(adapter).await
    }

    /// A device on the first adapter of `backends` (e.g. `wgpu::Backends::GL`), ignoring
    /// `WGPU_BACKEND` and `WGPU_ADAPTER_NAME`: the tests use it to check every backend the
    /// machine offers. Blocks, so not in the browser (wasm32).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn with_backends(backends: wgpu::Backends) -> Result<Self> {
        pollster::block_on(async {
            let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
            desc.backends = backends;
            let instance = wgpu::Instance::new(desc);
            let adapter = instance
                .request_adapter(&wgpu::RequestAdapterOptions::default())
                .await
                .map_err(|e| NoiseError::NoAdapter(format!("{backends:?}: {e}")))?;
            Self::on_adapter(adapter).await
        })
    }

    async fn on_adapter(adapter: wgpu::Adapter) -> Result<Self> {
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("wgpu-noise device"),
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|e| NoiseError::RequestDevice(e.to_string()))?;
        Ok(GpuContext {
            adapter,
            device,
            queue,
        })
    }

    /// One line naming the adapter, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Cpu, Vulkan)`.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.device_type, info.backend)
    }
}

/// The adapter `WGPU_ADAPTER_NAME` names (a case-insensitive substring, as wgpu's own
/// helper matches it), else wgpu's default choice (`WGPU_POWER_PREF` honoured).
///
/// wgpu's `initialize_adapter_from_env` panics when the name matches nothing; this returns
/// [`NoiseError::NoAdapter`] listing the adapters that do exist instead.
pub async fn adapter_from_env(instance: &wgpu::Instance) -> Result<wgpu::Adapter> {
    if let Ok(wanted) = std::env::var("WGPU_ADAPTER_NAME") {
        let adapters = instance.enumerate_adapters(wgpu::Backends::all()).await;
        let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
        let wanted_lower = wanted.to_lowercase();
        return adapters
            .into_iter()
            .find(|a| a.get_info().name.to_lowercase().contains(&wanted_lower))
            .ok_or_else(|| {
                NoiseError::NoAdapter(format!(
                    "WGPU_ADAPTER_NAME={wanted:?} matches none of {names:?}"
                ))
            });
    }
    wgpu::util::initialize_adapter_from_env_or_default(instance, None)
        .await
        .map_err(|e| NoiseError::NoAdapter(e.to_string()))
}
