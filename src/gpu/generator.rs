//! [`GpuNoise`]: whole fields and point lists on the GPU, slab by slab, with bounded waits
//! and every wgpu error turned into a [`NoiseError`].

use std::time::Duration;

use super::fill::{FillPass, FillPipelines};
use super::lookup::LookupTextures;
use super::readback::{map_and_read, padded_row_bytes, staging_buffer, unpad_rows};
use crate::cpu::lookup::{with_lookup, CpuLookup};
use crate::error::{ErrorScope, NoiseError, Result};
use crate::field::{AXIS_NAMES, FieldOutput, FlagField, NoiseKind};
use crate::params::{FillParams, Slab};

/// Tuning and self-check options of [`GpuNoise`].
#[derive(Clone, Debug)]
pub struct GpuOptions {
    /// Upper bound on the bytes of one slab (its texture and its readback buffer; two
    /// slabs are in flight, so the GPU fills one while the host reads the other).
    pub slab_bytes: u64,
    /// How long to wait for one submission before reporting [`NoiseError::Timeout`].
    pub timeout: Duration,
    /// Write NaN into the target texture before each fill, so that a texel the shader
    /// failed to write shows up as NaN (a self-check used by the tests).
    #[cfg(feature = "test-hooks")]
    pub poison: bool,
}

/// Where the shaders get their permutation and gradients (re-exported from [`crate::shader`]).
pub use crate::shader::LookupVariant;

impl Default for GpuOptions {
    fn default() -> Self {
        GpuOptions {
            slab_bytes: 16 << 20,
            timeout: Duration::from_secs(120),
            #[cfg(feature = "test-hooks")]
            poison: false,
        }
    }
}

/// Generates noise fields on a device it is given (it never creates one).
pub struct GpuNoise {
    device: wgpu::Device,
    queue: wgpu::Queue,
    lookup: LookupTextures,
    lookup_bind_group: wgpu::BindGroup,
    pipelines: FillPipelines,
    hash_key: u32,
    /// Fill 3D and 4D slabs into 2D array textures instead of 3D ones: wgpu's GL backend
    /// binds a 3D storage texture one layer deep (see `FillPipelines::record_fill`).
    layered: bool,
    /// One bit per (dimension, kind, fill or points) whose self-check passed.
    checked: std::sync::atomic::AtomicU32,
    /// Slab targets kept from the last call, reused when the next has the same shape.
    slab_cache: std::sync::Mutex<Option<(SlabShape, Vec<SlabTarget>)>>,
    /// Options; change them at any time.
    pub options: GpuOptions,
}

impl GpuNoise {
    /// Uploads the lookup textures of `seed` and compiles the fill shader.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, seed: u64) -> Result<Self> {
        Self::with_variant(device, queue, seed, LookupVariant::Textures)
    }

    /// Like [`GpuNoise::new`], with the texture-free hash variant if asked for.
    pub fn with_variant(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        seed: u64,
        variant: LookupVariant,
    ) -> Result<Self> {
        let scope = ErrorScope::push(device, wgpu::ErrorFilter::Validation);
        let lookup = LookupTextures::new(device, queue, seed);
        let pipelines = FillPipelines::new(device, variant);
        let lookup_bind_group = lookup.bind_group(device, pipelines.lookup_layout());
        scope.pop()?;
        Ok(GpuNoise {
            device: device.clone(),
            queue: queue.clone(),
            lookup,
            lookup_bind_group,
            pipelines,
            hash_key: crate::tables::hash_key_for_seed(seed),
            layered: device.adapter_info().backend == wgpu::Backend::Gl,
            checked: std::sync::atomic::AtomicU32::new(0),
            slab_cache: std::sync::Mutex::new(None),
            options: GpuOptions::default(),
        })
    }

    /// The device this generator runs on.
    pub(crate) fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The adapter and backend this generator runs on, e.g. `llvmpipe (LLVM 15.0.6, 256
    /// bits), Vulkan`.
    pub fn adapter_description(&self) -> String {
        let info = self.device.adapter_info();
        format!("{}, {:?}", info.name, info.backend)
    }

    internal! {
        /// Whether 3D and 4D slabs are filled into 2D array textures (always on GL).
        pub fn layered_volumes(&self) -> bool {
            self.layered
        }
    }

    /// Fills 3D and 4D slabs into 2D array textures on any backend (tests use it to run
    /// the GL path on Vulkan too). Ignored on GL, which needs them.
    #[cfg(feature = "test-hooks")]
    pub fn force_layered_volumes(&mut self, layered: bool) {
        self.layered = layered || self.device.adapter_info().backend == wgpu::Backend::Gl;
    }

    /// Checks this adapter the first time a kind and dimension are filled: fills a small
    /// probe field with this generator's lookup variant and compares it with the f32 CPU
    /// reference. Every `generate*` call runs it (once per kind, dimension and generator:
    /// a few milliseconds, plus compiling the plain pipeline if the work does not use it);
    /// call it yourself to choose a backend before starting work. Fails with
    /// [`NoiseError::SelfCheck`] naming the adapter and backend.
    pub fn self_check(&self, kind: NoiseKind, dims: usize) -> Result<()> {
        self.self_check_path(kind, dims, false)
    }

    internal! {
        /// [`GpuNoise::self_check`] for point evaluation ([`GpuNoise::evaluate_graph`]) of the
        /// plain `kind` noise, near the origin and up to |p| = 1e8.
        pub fn self_check_points(&self, kind: NoiseKind, dims: usize) -> Result<()> {
            self.self_check_path(kind, dims, true)
        }
    }

    fn self_check_path(&self, kind: NoiseKind, dims: usize, points: bool) -> Result<()> {
        use std::sync::atomic::Ordering;
        if !(2..=4).contains(&dims) {
            return Err(NoiseError::InvalidField(format!(
                "dimensions must be 2, 3 or 4, not {dims}"
            )));
        }
        let index = ((dims - 2) * 4 + kind.code() as usize) * 2 + points as usize;
        let bit = 1u32 << index;
        if self.checked.load(Ordering::Relaxed) & bit != 0 {
            return Ok(());
        }
        let seed = self.lookup.seed();
        let lookup = CpuLookup::new(self.pipelines.variant(), seed);
        let max_error = with_lookup!(&lookup, |lut| self.probe(kind, dims, points, lut))?;
        if let Some(max_error) = max_error {
            let info = self.device.adapter_info();
            return Err(NoiseError::SelfCheck {
                adapter: info.name,
                backend: format!("{:?}", info.backend),
                max_error,
                what: if points {
                    format!("{dims}D {kind} point evaluation")
                } else {
                    format!("a {dims}D {kind} fill")
                },
            });
        }
        self.checked.fetch_or(bit, Ordering::Relaxed);
        Ok(())
    }

    /// The probe of [`GpuNoise::self_check`]: `Some(largest error)` when it fails.
    fn probe(
        &self,
        kind: NoiseKind,
        dims: usize,
        points: bool,
        lut: &impl crate::cpu::lookup::NoiseHasher,
    ) -> Result<Option<f32>> {
        let (gpu, cpu) = if points {
            // Near the origin, and far from it (|p| from 1e3 to 1e8, where a compiler that
            // regroups a sum rounds to other cells: points are not reduced by periods).
            let near = (0..64).map(|i| {
                let t = i as f32;
                [
                    t * 0.37 - 9.0,
                    t * 0.11 + 0.7,
                    1.2 - t * 0.53,
                    t * 0.29 + 0.4,
                ]
            });
            let far = (0..48).map(|i| {
                let m = 10f32.powi(3 + i % 6);
                let t = i as f32;
                [
                    m * (0.731 - t * 0.0173),
                    -m * (0.389 + t * 0.0121),
                    m * (0.947 - t * 0.0311),
                    -m * (0.523 - t * 0.0197),
                ]
            });
            let points: Vec<[f32; 4]> = near.chain(far).collect();
            // The plain function as a graph of one source (`graph::flags`), at the points.
            let plain = FlagField::new(kind, &vec![1; dims]);
            let program = crate::graph::flags::program_of(&plain, FieldOutput::Value)
                .map_err(|e| NoiseError::InvalidArgument(e.to_string()))?;
            let gpu = self.evaluate_graph(&program, FieldOutput::Value, &points)?;
            let cpu: Vec<f32> = points
                .iter()
                .map(|p| crate::cpu::noise_at(lut, kind, &p[..dims]))
                .collect();
            (gpu, cpu)
        } else {
            let size: &[u32] = match dims {
                2 => &[16, 16],
                3 => &[8, 8, 4],
                _ => &[4, 4, 3, 3],
            };
            let field = FlagField::new(kind, size)
                .with_frequency(&[3.0, 2.5, 2.0, 1.5])
                .with_offset(&[-1.25, 0.5, 2.75, -3.5]);
            let mut gpu = Vec::with_capacity(field.len() as usize);
            self.run_slabs_unchecked(&field, FieldOutput::Value, true, |_, v| {
                gpu.extend_from_slice(v);
                Ok(())
            })?;
            (gpu, crate::cpu::fill::generate_f32(lut, &field)?)
        };
        Ok(super::parity::parity_failure(
            &gpu,
            &cpu,
            1,
            super::parity::PARITY_TOLERANCE,
        ))
    }

    /// Compares one read-back slab ([`FieldOutput::texture_channels`] floats per texel) with the f32 CPU
    /// reference by the rule of [`super::parity`]. Values come from the SIMD fill
    /// (bit-identical to the scalar one), gradients and curl noise from the scalar fills.
    fn check_slab_on_cpu(
        &self,
        field: &FlagField,
        slab: Slab,
        output: FieldOutput,
        values: &[f32],
    ) -> Result<()> {
        let params = FillParams::new(field, slab);
        let seed = self.lookup.seed();
        let lookup = CpuLookup::new(self.pipelines.variant(), seed);
        let expected = cpu_slab(&lookup, field, &params, output);
        // Every curl component is a derivative: all four channels get the gradient rule.
        let (channels, tolerance) = match output {
            FieldOutput::Curl => (
                1,
                super::parity::tolerance(field) * super::parity::GRADIENT_TOLERANCE_SCALE,
            ),
            _ => (
                output.texture_channels() as usize,
                super::parity::tolerance(field),
            ),
        };
        if let Some(max_error) =
            super::parity::parity_failure(values, &expected, channels, tolerance)
        {
            let info = self.device.adapter_info();
            let what = match output {
                FieldOutput::Value => "fill",
                FieldOutput::Gradient => "gradient",
                FieldOutput::Curl => "curl",
            };
            return Err(NoiseError::SelfCheck {
                adapter: info.name,
                backend: format!("{:?}", info.backend),
                max_error,
                what: format!(
                    "a {}D {} {what} (each GL slab is compared with the CPU reference)",
                    field.dims, field.kind
                ),
            });
        }
        Ok(())
    }

    /// Forgets passed self-checks, so the next use runs them again (to time them).
    #[cfg(feature = "test-hooks")]
    pub fn forget_self_checks(&self) {
        self.checked.store(0, std::sync::atomic::Ordering::Relaxed);
    }

    /// Uploads another seed's tables and changes the hash key behind the generator's
    /// back, and forgets passed self-checks: the next use must fail its self-check.
    #[cfg(feature = "test-hooks")]
    pub fn sabotage_for_test(&mut self) {
        let other = self.lookup.seed() ^ 0x5eed;
        self.lookup
            .upload_tables(&self.queue, &crate::tables::PermutationTables::new(other));
        self.hash_key = crate::tables::hash_key_for_seed(other);
        self.checked.store(0, std::sync::atomic::Ordering::Relaxed);
    }

    /// Switches to the tables of another seed (rewrites the lookup textures in place).
    pub fn set_seed(&mut self, seed: u64) {
        self.lookup.set_seed(&self.queue, seed);
        self.hash_key = crate::tables::hash_key_for_seed(seed);
    }

    internal! {
        /// The seed key the hash variant's pipelines are specialised with.
        pub fn hash_key(&self) -> u32 {
            self.hash_key
        }
    }

    /// The uploaded lookup textures.
    pub fn lookup(&self) -> &LookupTextures {
        &self.lookup
    }

    /// The queue this generator submits to.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The lookup variant this generator's pipelines read ([`GpuOptions`]).
    pub fn lookup_variant(&self) -> LookupVariant {
        self.pipelines.variant()
    }

    internal! {
        /// The fill pipelines and the generator's cache of graph pipelines.
        pub fn pipelines(&self) -> &FillPipelines {
            &self.pipelines
        }
    }

    internal! {
        /// The lookup bind group the pipelines take at group 0.
        pub fn lookup_bind_group(&self) -> &wgpu::BindGroup {
            &self.lookup_bind_group
        }
    }

    internal! {
        /// How many outer layers (rows in 2D, z-slices in 3D, w-volumes in 4D) one slab of
        /// `field` holds, or why the device cannot generate it.
        pub fn slab_layers(&self, field: &FlagField) -> Result<u32> {
            self.slab_layers_for(field, 1)
        }
    }

    /// [`GpuNoise::slab_layers`] for `channels` f32 per texel (1, or 4 for gradients).
    fn slab_layers_for(&self, field: &FlagField, channels: u32) -> Result<u32> {
        field.validate()?;
        let limits = self.device.limits();
        let [nx, ny, nz, _] = field.size;
        let (max_side, what) = if field.dims == 2 {
            (limits.max_texture_dimension_2d, "max_texture_dimension_2d")
        } else {
            (limits.max_texture_dimension_3d, "max_texture_dimension_3d")
        };
        // Layered volumes (GL) hold their z-layers as array layers.
        let (max_depth, depth_what) =
            if field.dims > 2 && self.layered && limits.max_texture_array_layers < max_side {
                (limits.max_texture_array_layers, "max_texture_array_layers")
            } else {
                (max_side, what)
            };
        let inner_axes = if field.dims == 4 { 3 } else { field.dims - 1 };
        for axis in 0..inner_axes {
            let size = field.size[axis];
            let (limit, what) = if axis == 2 {
                (max_depth, depth_what)
            } else {
                (max_side, what)
            };
            if size > limit {
                return Err(NoiseError::ExceedsLimit {
                    what: format!("size along {} ({what})", AXIS_NAMES[axis]),
                    requested: size as u64,
                    limit: limit as u64,
                });
            }
        }
        // Texture layers along the outer axis: one per row/slice, nz per 4D volume.
        let texture_layers_per_layer = if field.dims == 4 { nz } else { 1 };
        let layer_bytes = padded_row_bytes(nx * channels) as u64
            * if field.dims == 2 { 1 } else { ny as u64 }
            * texture_layers_per_layer as u64;
        // A 4D volume too big for one buffer is split along z (see `volume_split`): then
        // one z-slice must fit.
        let smallest_unit = if field.dims == 4 {
            layer_bytes / nz as u64
        } else {
            layer_bytes
        };
        if smallest_unit > limits.max_buffer_size {
            return Err(NoiseError::ExceedsLimit {
                what: "bytes of one layer (max_buffer_size)".into(),
                requested: smallest_unit,
                limit: limits.max_buffer_size,
            });
        }
        let buffer_limit = limits
            .max_buffer_size
            .min(self.options.slab_bytes.max(layer_bytes));
        let by_bytes = (buffer_limit / layer_bytes).max(1);
        let by_texture = (max_depth / texture_layers_per_layer) as u64;
        let outer = field.size[field.dims - 1] as u64;
        Ok(by_bytes.min(by_texture).min(outer).max(1) as u32)
    }

    /// For a 4D field whose single w-volume is larger than a slab may be
    /// ([`GpuOptions::slab_bytes`]), the number of z-slices per slab; `None` when whole
    /// volumes fit.
    fn volume_split(&self, field: &FlagField, channels: u32) -> Option<u32> {
        if field.dims != 4 {
            return None;
        }
        let [nx, ny, nz, _] = field.size;
        let slice_bytes = padded_row_bytes(nx * channels) as u64 * ny as u64;
        let budget = self
            .options
            .slab_bytes
            .min(self.device.limits().max_buffer_size);
        (slice_bytes * nz as u64 > budget)
            .then(|| (budget / slice_bytes).clamp(1, nz as u64) as u32)
    }

    internal! {
        /// Generates `field` slab by slab, handing each slab's values (x fastest) to `sink`
        /// in order. Peak memory is one slab, whatever the field's size.
        pub fn generate_slabs(
            &self,
            field: &FlagField,
            sink: impl FnMut(Slab, &[f32]) -> Result<()>,
        ) -> Result<()> {
            self.run_slabs(field, FieldOutput::Value, sink)
        }
    }

    internal! {
        /// Like [`GpuNoise::generate_slabs`] for fBm of simplex noise with its analytic
        /// gradient: `[value, ∂/∂x, ∂/∂y, ∂/∂z]` per texel (2D and 3D; see
        /// [`FlagField::check_gradient`]). Derivatives are with respect to noise-space coordinates.
        pub fn generate_gradient_slabs(
            &self,
            field: &FlagField,
            mut sink: impl FnMut(Slab, &[[f32; 4]]) -> Result<()>,
        ) -> Result<()> {
            self.run_slabs(field, FieldOutput::Gradient, |slab, values| {
                sink(slab, bytemuck::cast_slice(values))
            })
        }
    }

    internal! {
        /// The whole gradient field (see [`GpuNoise::generate_gradient_slabs`]).
        pub fn generate_gradient(&self, field: &FlagField) -> Result<Vec<[f32; 4]>> {
            field.check_gradient()?;
            let mut out = Vec::with_capacity(field.len() as usize);
            self.generate_gradient_slabs(field, |_, values| {
                out.extend_from_slice(values);
                Ok(())
            })?;
            Ok(out)
        }
    }

    internal! {
        /// Like [`GpuNoise::generate_slabs`] for curl noise (`crate::cpu::curl`):
        /// `[x, y, 0, 0]` (2D) or `[x, y, z, 0]` (3D) per texel; see [`FlagField::check_curl`].
        pub fn generate_curl_slabs(
            &self,
            field: &FlagField,
            mut sink: impl FnMut(Slab, &[[f32; 4]]) -> Result<()>,
        ) -> Result<()> {
            self.run_slabs(field, FieldOutput::Curl, |slab, values| {
                sink(slab, bytemuck::cast_slice(values))
            })
        }
    }

    /// Fills and reads back `field` slab by slab, [`FieldOutput::texture_channels`] floats per texel.
    pub(super) fn run_slabs(
        &self,
        field: &FlagField,
        output: FieldOutput,
        sink: impl FnMut(Slab, &[f32]) -> Result<()>,
    ) -> Result<()> {
        output.check(field)?;
        self.self_check(field.kind, field.dims)?;
        #[cfg(feature = "test-hooks")]
        let poison = self.options.poison;
        #[cfg(not(feature = "test-hooks"))]
        let poison = false;
        self.run_slabs_unchecked(field, output, poison, sink)
    }

    /// [`GpuNoise::run_slabs`] without the self-check (the self-check's own fills).
    fn run_slabs_unchecked(
        &self,
        field: &FlagField,
        output: FieldOutput,
        poison: bool,
        mut sink: impl FnMut(Slab, &[f32]) -> Result<()>,
    ) -> Result<()> {
        let channels = output.texture_channels();
        let layers = self.slab_layers_for(field, channels)?;
        let [nx, ny, nz, _] = field.size;
        let slabs: Vec<Slab> = match self.volume_split(field, channels) {
            Some(z_per_slab) => Slab::split_volumes(field, z_per_slab).collect(),
            None => Slab::split(field, layers).collect(),
        };
        // Rows (2D) or z-layers (3D, 4D) of a slab's texture.
        let extent_of = |slab: &Slab| match field.dims {
            2 => wgpu::Extent3d {
                width: nx,
                height: slab.count,
                depth_or_array_layers: 1,
            },
            3 => wgpu::Extent3d {
                width: nx,
                height: ny,
                depth_or_array_layers: slab.count,
            },
            _ => {
                let depth = slab.z_range.map_or(nz * slab.count, |(_, count)| count);
                wgpu::Extent3d {
                    width: nx,
                    height: ny,
                    depth_or_array_layers: depth,
                }
            }
        };
        // The first slab is the largest: every target is sized for it.
        let shape = SlabShape {
            dims: field.dims,
            layered: self.layered,
            size: extent_of(&slabs[0]),
            output,
        };
        // wgpu's GL backend has returned wrong 3D/4D texels with no error in three ways
        // so far, each shape-dependent, so a small probe cannot catch the next one
        // (docs/backends.md): there every 3D/4D slab (values, and gradients) is compared
        // with the CPU reference, so a wrong result is an error, never a value.
        let check_on_cpu =
            field.dims > 2 && self.device.adapter_info().backend == wgpu::Backend::Gl;
        // Two targets used in turn: the GPU fills slab k while the host reads slab k - 1.
        let ring = self.slab_targets(shape)?;
        let mut values = Vec::new();
        let mut pending: Option<(Slab, usize, wgpu::SubmissionIndex, wgpu::Extent3d)> = None;
        let mut read = |(slab, target, submission, copy_size): (
            Slab,
            usize,
            wgpu::SubmissionIndex,
            wgpu::Extent3d,
        ),
                        values: &mut Vec<f32>|
         -> Result<()> {
            let t: &SlabTarget = &ring[target];
            let rows = copy_size.height as usize * copy_size.depth_or_array_layers as usize;
            values.clear();
            map_and_read(
                &self.device,
                &t.buffer,
                submission,
                self.options.timeout,
                |bytes| unpad_rows(bytes, nx * channels, rows, t.padded, values),
            )?;
            if check_on_cpu {
                self.check_slab_on_cpu(field, slab, output, values)?;
            }
            sink(slab, values)
        };
        for (k, slab) in slabs.into_iter().enumerate() {
            let target = k % ring.len();
            let t = &ring[target];
            let params = FillParams::new(field, slab);
            let copy_size = extent_of(&slab);
            let scope = ErrorScope::push(&self.device, wgpu::ErrorFilter::Validation);
            if poison {
                self.poison(&t.texture, copy_size, channels);
            }
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("wgpu-noise slab"),
                });
            self.pipelines.record_fill(
                &self.device,
                &mut encoder,
                &FillPass {
                    lookup: &self.lookup_bind_group,
                    kind: field.kind,
                    dims: field.dims,
                    params: &params,
                    target: &t.view,
                    output,
                    hash_key: self.hash_key,
                },
            );
            encoder.copy_texture_to_buffer(
                t.texture.as_image_copy(),
                wgpu::TexelCopyBufferInfo {
                    buffer: &t.buffer,
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(t.padded),
                        rows_per_image: Some(copy_size.height),
                    },
                },
                copy_size,
            );
            let submission = self.queue.submit([encoder.finish()]);
            scope.pop()?;
            if let Some(previous) = pending.replace((slab, target, submission, copy_size)) {
                read(previous, &mut values)?;
            }
        }
        if let Some(last) = pending {
            read(last, &mut values)?;
        }
        self.return_slab_targets(shape, ring);
        Ok(())
    }

    /// Two slab targets of `shape`: the ones of an earlier call when the shape matches
    /// (allocating and clearing 2 × 16 MiB on every call would cost more than the fill of
    /// a small field), else new ones.
    fn slab_targets(&self, shape: SlabShape) -> Result<Vec<SlabTarget>> {
        let mut cache = self.slab_cache.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((cached, targets)) = cache.take() {
            if cached == shape {
                return Ok(targets);
            }
        }
        drop(cache);
        let scope = ErrorScope::push(&self.device, wgpu::ErrorFilter::Validation);
        let oom = ErrorScope::push(&self.device, wgpu::ErrorFilter::OutOfMemory);
        let targets = (0..2)
            .map(|_| SlabTarget::new(&self.device, shape))
            .collect();
        oom.pop()?;
        scope.pop()?;
        Ok(targets)
    }

    fn return_slab_targets(&self, shape: SlabShape, targets: Vec<SlabTarget>) {
        *self.slab_cache.lock().unwrap_or_else(|p| p.into_inner()) = Some((shape, targets));
    }

    internal! {
        /// Generates the whole of `field` (x fastest, then y, z, w).
        pub fn generate(&self, field: &FlagField) -> Result<Vec<f32>> {
            field.validate()?;
            let mut out = Vec::with_capacity(field.len() as usize);
            self.generate_slabs(field, |_, values| {
                out.extend_from_slice(values);
                Ok(())
            })?;
            Ok(out)
        }
    }

    fn poison(&self, texture: &wgpu::Texture, size: wgpu::Extent3d, channels: u32) {
        let texels = (size.width * channels) as usize
            * size.height as usize
            * size.depth_or_array_layers as usize;
        let nan = vec![f32::NAN; texels];
        self.queue.write_texture(
            texture.as_image_copy(),
            bytemuck::cast_slice(&nan),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(size.width * 4 * channels),
                rows_per_image: Some(size.height),
            },
            size,
        );
    }
}

/// The size and format of the textures slabs are filled into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SlabShape {
    dims: usize,
    /// A 2D array texture for 3D and 4D (see `GpuNoise::layered`).
    layered: bool,
    size: wgpu::Extent3d,
    output: FieldOutput,
}

/// One slab's storage texture and the buffer it is copied into for reading back.
struct SlabTarget {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    buffer: wgpu::Buffer,
    padded: u32,
}

/// The slab texture's size: the slab's, plus one unused layer where wgpu's GL backend
/// would otherwise make a layered target a cube map. wgpu-hal (30) creates every 2D
/// texture whose layers are square and a multiple of 6 as `TEXTURE_CUBE_MAP(_ARRAY)`
/// (`is_cube_compatible`, a heuristic because GL fixes the target at creation), and a
/// fill through a 2D array view of it writes or reads the wrong texels: every 8x8x6,
/// 16x16x12 or 64x64x96x3 GL fill came out wrong (tests/gpu/backend_parity.rs). Copies and
/// the fill cover the slab's extent only, so the extra layer is never read.
fn texture_size(shape: SlabShape) -> wgpu::Extent3d {
    let mut size = shape.size;
    if would_be_a_cube_map(shape.layered || shape.dims == 2, size) {
        size.depth_or_array_layers += 1;
    }
    size
}

/// Whether wgpu's GL backend creates a 2D texture of `size` as a cube map (see
/// [`texture_size`]).
pub(crate) fn would_be_a_cube_map(two_d: bool, size: wgpu::Extent3d) -> bool {
    two_d && size.depth_or_array_layers.is_multiple_of(6) && size.width == size.height
}

impl SlabTarget {
    fn new(device: &wgpu::Device, shape: SlabShape) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("wgpu-noise slab"),
            size: texture_size(shape),
            mip_level_count: 1,
            sample_count: 1,
            dimension: if shape.dims == 2 || shape.layered {
                wgpu::TextureDimension::D2
            } else {
                wgpu::TextureDimension::D3
            },
            format: shape.output.texture_format(),
            usage: wgpu::TextureUsages::STORAGE_BINDING
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: (shape.dims > 2 && shape.layered)
                .then_some(wgpu::TextureViewDimension::D2Array),
            ..Default::default()
        });
        let padded = padded_row_bytes(shape.size.width * shape.output.texture_channels());
        let buffer = staging_buffer(device, "wgpu-noise slab readback", padded as u64 * shape.size.height as u64 * shape.size.depth_or_array_layers as u64);
        SlabTarget {
            texture,
            view,
            buffer,
            padded,
        }
    }
}

/// The f32 CPU reference of one slab, laid out as the GPU's readback of `output`: one
/// value per texel, or four (a curl padded with zeros).
fn cpu_slab(lut: &CpuLookup, field: &FlagField, params: &FillParams, output: FieldOutput) -> Vec<f32> {
    let dims = field.dims;
    let per_sample = output.values_per_sample(dims);
    let mut values = vec![0.0f32; params.len() * per_sample];
    crate::cpu::simd::fill_slab_output(lut, field.kind, dims, params, output, &mut values);
    if output != FieldOutput::Curl {
        return values;
    }
    let mut texels = vec![0.0f32; params.len() * 4];
    for (texel, c) in texels.chunks_exact_mut(4).zip(values.chunks_exact(dims)) {
        texel[..dims].copy_from_slice(c);
    }
    texels
}
