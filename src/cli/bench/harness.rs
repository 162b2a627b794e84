//! The measurement harness behind `wgpu-noise bench`: the standard
//! workloads, GPU fill timing (device timestamps where the adapter has them, else wall time
//! around submit + wait), the empty-kernel store floor, the CPU reference in one thread or
//! all, and the medians the tables are made of.
//!
//! Peers (noise-rs, fastnoise-lite) are measured by the binary, behind the
//! `bench-peers` feature, so this module never depends on them: it only provides the
//! sample coordinates they must use ([`Workload::coordinates`]).
//!
//! The shader-variant sweep (`examples/shader_experiments`) compiles this file as its own
//! module, so it may use only the library's public API.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use wgpu_noise::error::{pop_error_scope, NoiseError, Result};
use wgpu_noise::field::{FlagField, NoiseKind};
use wgpu_noise::gpu::timer::{plausible, GpuTimer};
use wgpu_noise::gpu::{GpuContext, GpuNoise, GraphPipeline, LookupVariant, WORKGROUP};
use wgpu_noise::graph::Program;
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::FieldOutput;

/// The empty kernel (`shaders/bench_empty.wgsl`), before its workgroup size is filled in.
pub const EMPTY_WGSL: &str = include_str!("../../../shaders/bench_empty.wgsl");

/// Texels per lattice cell along every axis in every workload: the "same frequency" of all
/// paths (a 2048² field spans 128 cells, 256³ spans 16, 64⁴ spans 4).
pub const TEXELS_PER_CELL: u32 = 16;

/// How long one measured submission may take before it is reported as a timeout.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// One benchmark workload: a square/cubic/tesseract field of `side` texels per axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workload {
    /// Number of dimensions, 2 to 4.
    pub dims: usize,
    /// Texels along each axis.
    pub side: u32,
}

impl Workload {
    /// The workloads of the issue: 2D 2048², 3D 256³, 4D 64⁴.
    pub const STANDARD: [Workload; 3] = [
        Workload {
            dims: 2,
            side: 2048,
        },
        Workload { dims: 3, side: 256 },
        Workload { dims: 4, side: 64 },
    ];

    /// Smaller workloads for `--quick`: 1024², 128³, 32⁴ (1 to 2 M samples).
    pub const QUICK: [Workload; 3] = [
        Workload {
            dims: 2,
            side: 1024,
        },
        Workload { dims: 3, side: 128 },
        Workload { dims: 4, side: 32 },
    ];

    /// Total number of samples.
    pub fn samples(&self) -> u64 {
        (self.side as u64).pow(self.dims as u32)
    }

    /// Lattice cells across the field along each axis.
    pub fn frequency(&self) -> f64 {
        self.side as f64 / TEXELS_PER_CELL as f64
    }

    /// The field every path generates for `kind`.
    pub fn field(&self, kind: NoiseKind) -> FlagField {
        let size = vec![self.side; self.dims];
        let frequency = vec![self.frequency(); self.dims];
        FlagField::new(kind, &size).with_frequency(&frequency)
    }

    /// The coordinate of texel `i` along any axis, by the crate's sampling convention
    /// (`offset + frequency * i / N`, offset 0): what the peers are fed.
    #[cfg_attr(not(any(test, feature = "bench-peers")), allow(dead_code))]
    pub fn coordinates(&self) -> Vec<f64> {
        let step = self.frequency() / self.side as f64;
        (0..self.side).map(|i| step * i as f64).collect()
    }

    /// `"2D 2048²"`, `"3D 256³"`, `"4D 64⁴"`.
    pub fn label(&self) -> String {
        let power = match self.dims {
            2 => "²",
            3 => "³",
            _ => "⁴",
        };
        format!("{}D {}{power}", self.dims, self.side)
    }
}

/// The median of `values` (mean of the middle two for an even count); NaN when empty.
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => 0.5 * (v[n / 2 - 1] + v[n / 2]),
    }
}

/// Millions of samples per second.
pub fn msamples_per_s(samples: u64, time: Duration) -> f64 {
    samples as f64 / time.as_secs_f64() / 1e6
}

/// Runs `run` `repeats` times (at least once) and returns the median duration.
pub fn median_time(repeats: usize, mut run: impl FnMut() -> Result<Duration>) -> Result<Duration> {
    let mut secs = Vec::with_capacity(repeats.max(1));
    for _ in 0..repeats.max(1) {
        secs.push(run()?.as_secs_f64());
    }
    Ok(Duration::from_secs_f64(median(&secs)))
}

/// An output buffer of `len` samples whose pages are already touched, so that first-touch
/// page faults are not timed as noise generation.
pub fn touched_buffer(len: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(len);
    out.resize(len, 1.0f32);
    out
}

/// Times one fill of `field` by the CPU reference (`f32`, bit-mirroring the GPU) into `out`:
/// in `pool` when given (e.g. a one-thread pool), else in rayon's global pool (all cores).
/// With `output` [`FieldOutput::Curl`], curl noise (`out` holds `dims` floats per sample).
pub fn time_cpu_fill(
    lut: &PermutationTables,
    field: &FlagField,
    output: FieldOutput,
    pool: Option<&rayon::ThreadPool>,
    out: &mut [f32],
) -> Duration {
    let params = FillParams::new(field, Slab::whole(field));
    let mut fill = || match output {
        FieldOutput::Curl => wgpu_noise::cpu::fill::fill_slab_curl(lut, field.dims, &params, out),
        _ => wgpu_noise::cpu::fill::fill_slab(lut, field.kind, field.dims, &params, out),
    };
    let start = Instant::now();
    match pool {
        Some(pool) => pool.install(fill),
        None => fill(),
    }
    let elapsed = start.elapsed();
    std::hint::black_box(&out[out.len() / 2]);
    elapsed
}

/// Times one fill of `field`'s `output` by the SIMD CPU fill ([`wgpu_noise::cpu::simd`], the
/// same values as [`time_cpu_fill`]'s) on `threads` threads with the best instruction set,
/// into `out`.
pub fn time_simd_fill(
    lut: &wgpu_noise::cpu::CpuLookup,
    field: &FlagField,
    output: FieldOutput,
    threads: usize,
    out: &mut [f32],
) -> Duration {
    let params = FillParams::new(field, Slab::whole(field));
    let options = wgpu_noise::cpu::simd::FillOptions {
        threads,
        ..Default::default()
    };
    let (kind, dims) = (field.kind, field.dims);
    timed(out, |out| {
        wgpu_noise::cpu::simd::fill_slab_output_with(lut, kind, dims, &params, output, out, options)
    })
}

/// Times `fill` writing `out` (the output kept alive past the clock).
fn timed(out: &mut [f32], fill: impl FnOnce(&mut [f32])) -> Duration {
    let start = Instant::now();
    fill(out);
    let elapsed = start.elapsed();
    std::hint::black_box(&out[out.len() / 2]);
    elapsed
}

/// Times one fill of `field`'s texels with `program` by the scalar graph evaluator
/// ([`wgpu_noise::graph::eval::fill_slab`], `f32`): in `pool` when given, else in rayon's global pool.
pub fn time_graph_cpu_fill(
    program: &Program,
    lut: &PermutationTables,
    field: &FlagField,
    pool: Option<&rayon::ThreadPool>,
    out: &mut [f32],
) -> Duration {
    let params = FillParams::new(field, Slab::whole(field));
    timed(out, |out| {
        let mut fill = || wgpu_noise::graph::eval::fill_slab(program, lut, &params, out);
        match pool {
            Some(pool) => pool.install(fill),
            None => fill(),
        }
    })
}

/// Times one fill of `field`'s texels with `program` by the SIMD graph fill (the scalar
/// evaluator's values) on `threads` threads with the best instruction set.
pub fn time_graph_simd_fill(
    program: &Program,
    lut: &wgpu_noise::cpu::CpuLookup,
    field: &FlagField,
    threads: usize,
    out: &mut [f32],
) -> Duration {
    let params = FillParams::new(field, Slab::whole(field));
    let options = wgpu_noise::cpu::simd::FillOptions {
        threads,
        ..Default::default()
    };
    timed(out, |out| {
        wgpu_noise::cpu::simd::fill_graph_slab_with(program, lut, &params, out, options)
    })
}

/// A standalone device for benchmarking: [`GpuContext::new`] plus the `TIMESTAMP_QUERY`
/// feature when the adapter offers it (honours `WGPU_BACKEND`, `WGPU_ADAPTER_NAME`).
pub fn bench_context() -> Result<GpuContext> {
    pollster::block_on(async {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = wgpu::util::initialize_adapter_from_env_or_default(&instance, None)
            .await
            .map_err(|e| NoiseError::NoAdapter(e.to_string()))?;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("wgpu-noise bench device"),
                required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
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
    })
}

/// Which clock a GPU time comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Timestamp queries written by the device before and after the passes.
    DeviceTimestamps,
    /// The host's clock around `submit` + waiting for the submission.
    Wall,
}

impl Clock {
    /// `"device-timestamps"` or `"wall"`.
    pub fn name(self) -> &'static str {
        match self {
            Clock::DeviceTimestamps => "device-timestamps",
            Clock::Wall => "wall",
        }
    }
}

/// One timed submission.
#[derive(Clone, Copy, Debug)]
pub struct GpuTiming {
    /// Device time between the first and last timestamp, when the device has timestamps
    /// and they are plausible against the wall time.
    pub device: Option<Duration>,
    /// Host time around submit + wait.
    pub wall: Duration,
    /// Whether the device gave timestamps that cannot be true (see `device`: then `None`).
    pub rejected: bool,
}

impl GpuTiming {
    /// The device time where there is one, else the wall time, and which it is.
    pub fn preferred(&self) -> (Duration, Clock) {
        match self.device {
            Some(d) => (d, Clock::DeviceTimestamps),
            None => (self.wall, Clock::Wall),
        }
    }
}

/// The median of several [`GpuTiming`]s, per clock; the device time only when every
/// run has one (so a row never mixes clocks).
pub fn median_gpu(timings: &[GpuTiming]) -> GpuTiming {
    let wall = median(
        &timings
            .iter()
            .map(|t| t.wall.as_secs_f64())
            .collect::<Vec<_>>(),
    );
    let device: Option<Vec<f64>> = timings
        .iter()
        .map(|t| t.device.map(|d| d.as_secs_f64()))
        .collect();
    GpuTiming {
        device: device
            .filter(|d| !d.is_empty())
            .map(|d| Duration::from_secs_f64(median(&d))),
        wall: Duration::from_secs_f64(wall),
        rejected: timings.iter().any(|t| t.rejected),
    }
}

/// A storage texture sized for the slabs of one field, and the slabs' parameters.
pub struct FillTarget {
    dims: usize,
    output: FieldOutput,
    view: wgpu::TextureView,
    slabs: Vec<FillParams>,
}

/// GPU timing on a given device: fills recorded into the harness's own encoder and
/// `R32Float` storage texture (no readback), the empty kernel, and [`GpuNoise::generate`].
pub struct GpuBench {
    device: wgpu::Device,
    queue: wgpu::Queue,
    noise: GpuNoise,
    /// The texture-free (hash) lookup variant on the same device.
    hash_noise: GpuNoise,
    timestamps: Option<GpuTimer>,
    empty_layouts: [wgpu::BindGroupLayout; 2],
    empty_pipelines: [wgpu::ComputePipeline; 2],
    cpu_adapter: bool,
}

impl GpuBench {
    /// Sets up the generator (`seed`), the empty kernel and, when the device has the
    /// `TIMESTAMP_QUERY` feature, the timestamp queries.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, seed: u64) -> Result<Self> {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let noise = GpuNoise::new(device, queue, seed)?;
        let hash_noise = GpuNoise::with_variant(device, queue, seed, LookupVariant::Hash)?;
        let timestamps = GpuTimer::new(device, queue, "wgpu-noise bench");
        let source = EMPTY_WGSL
            .replace("WG_X", &WORKGROUP[0].to_string())
            .replace("WG_Y", &WORKGROUP[1].to_string())
            .replace("WG_Z", &WORKGROUP[2].to_string());
        let empty_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("wgpu-noise bench empty kernel"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let empty_layouts = [
            wgpu::TextureViewDimension::D2,
            wgpu::TextureViewDimension::D3,
        ]
        .map(|dimension| {
            let binding = if dimension == wgpu::TextureViewDimension::D2 {
                1
            } else {
                2
            };
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("wgpu-noise bench empty layout"),
                entries: &[uniform_entry(0), storage_texture_entry(binding, dimension)],
            })
        });
        let empty_pipelines = [
            ("empty_2d", &empty_layouts[0]),
            ("empty_3d", &empty_layouts[1]),
        ]
        .map(|(entry, layout)| {
            let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("wgpu-noise bench empty pipeline layout"),
                bind_group_layouts: &[Some(layout)],
                immediate_size: 0,
            });
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&format!("wgpu-noise bench {entry}")),
                layout: Some(&pipeline_layout),
                module: &empty_module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        });
        pop_error_scope(scope)?;
        Ok(GpuBench {
            device: device.clone(),
            queue: queue.clone(),
            noise,
            hash_noise,
            timestamps,
            empty_layouts,
            empty_pipelines,
            cpu_adapter: device.adapter_info().device_type == wgpu::DeviceType::Cpu,
        })
    }

    /// The clock fills are timed with on this device.
    pub fn clock(&self) -> Clock {
        if self.timestamps.is_some() {
            Clock::DeviceTimestamps
        } else {
            Clock::Wall
        }
    }

    /// A storage texture holding one slab of `field` (as [`GpuNoise::generate_slabs`]
    /// would split it) for `output` (`R32Float` for values, else `Rgba32Float`), and the
    /// parameters of every slab.
    pub fn fill_target(&self, field: &FlagField, output: FieldOutput) -> Result<FillTarget> {
        let layers = self.noise.slab_layers(field)?;
        let [nx, ny, nz, _] = field.size;
        let (dimension, size) = match field.dims {
            2 => (
                wgpu::TextureDimension::D2,
                wgpu::Extent3d {
                    width: nx,
                    height: layers,
                    depth_or_array_layers: 1,
                },
            ),
            3 => (
                wgpu::TextureDimension::D3,
                wgpu::Extent3d {
                    width: nx,
                    height: ny,
                    depth_or_array_layers: layers,
                },
            ),
            _ => (
                wgpu::TextureDimension::D3,
                wgpu::Extent3d {
                    width: nx,
                    height: ny,
                    depth_or_array_layers: nz * layers,
                },
            ),
        };
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let texture = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("wgpu-noise bench fill target"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension,
            format: output.texture_format(),
            usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        pop_error_scope(oom)?;
        pop_error_scope(scope)?;
        Ok(FillTarget {
            dims: field.dims,
            output,
            view: texture.create_view(&wgpu::TextureViewDescriptor::default()),
            slabs: Slab::split(field, layers)
                .map(|slab| FillParams::new(field, slab))
                .collect(),
        })
    }

    /// One timed fill of all of `target`'s slabs with `kind` noise, through
    /// [`wgpu_noise::gpu::FillPipelines::record_fill`], with no readback. Run it once untimed
    /// first: the first call compiles the pipeline.
    pub fn time_fill(&self, target: &FillTarget, kind: NoiseKind) -> Result<GpuTiming> {
        self.time_fill_with(target, kind, LookupVariant::Textures)
    }

    /// [`GpuBench::time_fill`] with either lookup variant (textures or hashing).
    pub fn time_fill_with(
        &self,
        target: &FillTarget,
        kind: NoiseKind,
        variant: LookupVariant,
    ) -> Result<GpuTiming> {
        let noise = self.generator(variant);
        self.time_recorded(|encoder| {
            for params in &target.slabs {
                noise.pipelines().record_fill(
                    &self.device,
                    encoder,
                    &wgpu_noise::gpu::FillPass {
                        lookup: noise.lookup_bind_group(),
                        kind,
                        dims: target.dims,
                        params,
                        target: &target.view,
                        output: target.output,
                        hash_key: noise.hash_key(),
                    },
                );
            }
        })
    }

    /// One timed pass of the empty kernel over all of `target`'s slabs: the store floor.
    pub fn time_empty(&self, target: &FillTarget) -> Result<GpuTiming> {
        let which = usize::from(target.dims != 2);
        let binding = if target.dims == 2 { 1 } else { 2 };
        let groups: Vec<(wgpu::BindGroup, [u32; 3])> = target
            .slabs
            .iter()
            .map(|params| {
                let uniform = self.uniform(params);
                let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("wgpu-noise bench empty bind group"),
                    layout: &self.empty_layouts[which],
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: uniform.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding,
                            resource: wgpu::BindingResource::TextureView(&target.view),
                        },
                    ],
                });
                let [nx, ny, nz, nw] = params.extent;
                let depth = if target.dims == 4 { nz * nw } else { nz };
                let count = [
                    nx.div_ceil(WORKGROUP[0]),
                    ny.div_ceil(WORKGROUP[1]),
                    depth.div_ceil(WORKGROUP[2]),
                ];
                (bind_group, count)
            })
            .collect();
        self.time_recorded(|encoder| {
            for (bind_group, [x, y, z]) in &groups {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("wgpu-noise bench empty pass"),
                    timestamp_writes: None,
                });
                pass.set_pipeline(&self.empty_pipelines[which]);
                pass.set_bind_group(0, bind_group, &[]);
                pass.dispatch_workgroups(*x, *y, *z);
            }
        })
    }

    /// Wall time of [`GpuNoise::generate`]: fill, copy to a buffer, map, unpad into a `Vec`
    /// (the whole path a user of `generate` waits for, allocation included).
    pub fn time_generate(&self, field: &FlagField, output: FieldOutput) -> Result<Duration> {
        self.time_generate_with(field, LookupVariant::Textures, output)
    }

    /// [`GpuBench::time_generate`] with either lookup variant; curl noise through
    /// [`GpuNoise::generate_curl_slabs`] into a `Vec` the same way.
    pub fn time_generate_with(
        &self,
        field: &FlagField,
        variant: LookupVariant,
        output: FieldOutput,
    ) -> Result<Duration> {
        let noise = self.generator(variant);
        let start = Instant::now();
        if output == FieldOutput::Curl {
            let mut texels = Vec::with_capacity(field.len() as usize);
            noise.generate_curl_slabs(field, |_, t| {
                texels.extend_from_slice(t);
                Ok(())
            })?;
            let elapsed = start.elapsed();
            std::hint::black_box(&texels[texels.len() / 2]);
            return Ok(elapsed);
        }
        let values = noise.generate(field)?;
        let elapsed = start.elapsed();
        std::hint::black_box(&values[values.len() / 2]);
        Ok(elapsed)
    }

    /// `program`'s fill pipeline for `variant` (compiled now, outside any timing).
    pub fn graph_pipeline(
        &self,
        program: &Program,
        variant: LookupVariant,
    ) -> Result<GraphPipeline> {
        self.generator(variant)
            .graph_pipeline(program, FieldOutput::Value)
    }

    /// Wall time of the GPU's graph fill of `field` with `pipeline` (made by
    /// [`GpuBench::graph_pipeline`] for `variant`): boxes of `graph_box_texels`, one submit
    /// and readback each, as `bake --graph --backend gpu` runs it.
    pub fn time_graph_generate(
        &self,
        pipeline: &GraphPipeline,
        variant: LookupVariant,
        field: &FlagField,
    ) -> Result<Duration> {
        let noise = self.generator(variant);
        let mut values = Vec::new();
        let start = Instant::now();
        for params in FillParams::boxes(field, noise.graph_box_texels(pipeline)) {
            values.clear();
            noise.fill_graph_box(pipeline, &params, &mut values)?;
        }
        let elapsed = start.elapsed();
        std::hint::black_box(values.last());
        Ok(elapsed)
    }

    /// The generator of `variant` the harness times (the preview's node thumbnails record
    /// with it inside [`GpuBench::time_recorded`]).
    pub fn generator(&self, variant: LookupVariant) -> &GpuNoise {
        match variant {
            LookupVariant::Textures => &self.noise,
            LookupVariant::Hash => &self.hash_noise,
        }
    }

    /// Switches both generators' lookups to `seed`.
    // Used by the preview's thumbnails, not by the shader sweep that also compiles this file.
    #[allow(dead_code)]
    pub fn set_seed(&mut self, seed: u64) {
        self.noise.set_seed(seed);
        self.hash_noise.set_seed(seed);
    }

    /// A uniform buffer holding `params`.
    pub(crate) fn uniform(&self, params: &FillParams) -> wgpu::Buffer {
        use wgpu::util::DeviceExt;
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("wgpu-noise bench params"),
                contents: bytemuck::bytes_of(params),
                usage: wgpu::BufferUsages::UNIFORM,
            })
    }

    /// Records with `record` between two timestamps (when available), submits, waits and
    /// returns the device and wall times.
    pub fn time_recorded(
        &self,
        record: impl FnOnce(&mut wgpu::CommandEncoder),
    ) -> Result<GpuTiming> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("wgpu-noise bench encoder"),
            });
        if let Some(timer) = &self.timestamps {
            timer.begin(&mut encoder);
        }
        record(&mut encoder);
        if let Some(timer) = &self.timestamps {
            timer.end(&mut encoder);
        }
        let command_buffer = encoder.finish();
        pop_error_scope(scope)?;
        let start = Instant::now();
        let submission = self.queue.submit([command_buffer]);
        wait(&self.device, submission)?;
        let wall = start.elapsed();
        let device = match &self.timestamps {
            None => None,
            Some(timer) => Some(read_elapsed(&self.device, timer)?),
        };
        let rejected = device.is_some_and(|d| !plausible(d, wall, self.cpu_adapter));
        Ok(GpuTiming {
            device: if rejected { None } else { device },
            wall,
            rejected,
        })
    }
}

/// `binding` as the fill shaders' `FillParams` uniform.
pub(crate) fn uniform_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<FillParams>() as u64),
        },
        count: None,
    }
}

/// `binding` as a write-only `R32Float` storage texture.
pub(crate) fn storage_texture_entry(
    binding: u32,
    view_dimension: wgpu::TextureViewDimension,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::StorageTexture {
            access: wgpu::StorageTextureAccess::WriteOnly,
            format: wgpu::TextureFormat::R32Float,
            view_dimension,
        },
        count: None,
    }
}

/// Waits (at most [`TIMEOUT`]) for `submission`.
pub(crate) fn wait(device: &wgpu::Device, submission: wgpu::SubmissionIndex) -> Result<()> {
    device
        .poll(wgpu::PollType::Wait {
            submission_index: Some(submission),
            timeout: Some(TIMEOUT),
        })
        .map(|_| ())
        .map_err(|e| match e {
            wgpu::PollError::Timeout => NoiseError::Timeout(TIMEOUT),
            other => NoiseError::Gpu(other.to_string()),
        })
}

/// Maps `timer`'s readback (its work already waited for) and reads the time between its
/// timestamps.
fn read_elapsed(device: &wgpu::Device, timer: &GpuTimer) -> Result<Duration> {
    let buffer = timer.readback();
    let (sender, receiver) = mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = sender.send(r);
    });
    let _ = device.poll(wgpu::PollType::Wait {
        submission_index: None,
        timeout: Some(TIMEOUT),
    });
    receiver
        .recv_timeout(TIMEOUT)
        .map_err(|_| NoiseError::Timeout(TIMEOUT))?
        .map_err(|e| NoiseError::Readback(e.to_string()))?;
    let elapsed = {
        let view = buffer
            .get_mapped_range(..)
            .map_err(|e| NoiseError::Readback(e.to_string()))?;
        timer.elapsed(&view)
    };
    buffer.unmap();
    elapsed.ok_or_else(|| NoiseError::Readback("fewer than two timestamps read back".into()))
}

/// The machine in one line: CPU model (Linux: `/proc/cpuinfo`) and logical cores.
pub fn machine_description() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    format!("{model}, {} cores", cores())
}

/// The 1-minute load average (Linux: `/proc/loadavg`): other work on the machine skews
/// every CPU-side figure, so the header of a run states it.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Logical cores available to this process.
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Today's date (UTC) as `YYYY-MM-DD`, from the system clock.
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}
