//! Profile-driven experiments on COPIES of the 3D fill shader (the product's
//! `shaders/fill.wgsl` is never touched here): workgroup shape, samples per invocation,
//! lookups from storage buffers instead of textures, output to a storage buffer instead of
//! a storage texture. Each variant is first checked against the CPU reference on a small
//! odd-sized field (so a faster variant that computes something else cannot win), then
//! timed on a `side`³ field like the product's fill.
//!
//! Sources: `fill_variant.wgsl` (entry point template) and `lookup_buffers.wgsl` (the
//! lookup helpers over storage buffers) beside this file, assembled with the product's
//! `shaders/classic.wgsl` and `shaders/simplex.wgsl`.

use wgpu::util::DeviceExt;

use super::harness::{
    median_gpu, storage_texture_entry, uniform_entry, wait, FillTarget, GpuBench, GpuTiming,
    Workload, TIMEOUT,
};
use wgpu_noise::error::{pop_error_scope, NoiseError, Result};
use wgpu_noise::field::{FlagField, NoiseKind};
use wgpu_noise::low_level::{map_and_read, padded_row_bytes, unpad_rows, PermutationTables};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::shader;
use wgpu_noise::GpuNoise;

/// The entry-point template (placeholders documented in the file).
pub const VARIANT_WGSL: &str = include_str!("fill_variant.wgsl");
/// `shaders/lookup.wgsl`'s helpers reading storage buffers.
pub const LOOKUP_BUFFERS_WGSL: &str = include_str!("lookup_buffers.wgsl");

/// Where the noise functions read their tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableStorage {
    /// The product's lookup textures (`textureLoad`).
    Textures,
    /// The same texels in read-only storage buffers.
    Buffers,
}

/// Where the fill writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// An `R32Float` 3D storage texture, as the product.
    Texture,
    /// A dense `array<f32>` storage buffer (x fastest), which needs no row padding on readback.
    Buffer,
}

/// The axis along which one invocation evaluates several samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Along {
    /// Along x: an invocation's samples are adjacent, neighbouring lanes are `n` apart.
    X,
    /// Along z: neighbouring lanes stay x-adjacent, an invocation walks through slices.
    Z,
}

/// One configuration of the fill kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// `@workgroup_size`.
    pub workgroup: [u32; 3],
    /// Samples per invocation.
    pub per_invocation: u32,
    /// Axis of the samples of one invocation.
    pub along: Along,
    /// Table storage.
    pub lookup: TableStorage,
    /// Output storage.
    pub output: Output,
}

impl Variant {
    /// The product's configuration (8×8×1, one sample per invocation, textures in and out).
    pub const BASELINE: Variant = Variant {
        workgroup: [8, 8, 1],
        per_invocation: 1,
        along: Along::X,
        lookup: TableStorage::Textures,
        output: Output::Texture,
    };

    /// A short name, e.g. `16x16x1`, `8x8x1 z4`, `8x8x1 lut=buffers out=buffer`.
    pub fn name(&self) -> String {
        let [x, y, z] = self.workgroup;
        let mut name = format!("{x}x{y}x{z}");
        if self.per_invocation > 1 {
            let axis = if self.along == Along::X { 'x' } else { 'z' };
            name += &format!(" {axis}{}", self.per_invocation);
        }
        if self.lookup == TableStorage::Buffers {
            name += " lut=buffers";
        }
        if self.output == Output::Buffer {
            name += " out=buffer";
        }
        name
    }

    fn per_axis(&self) -> (u32, u32) {
        match self.along {
            Along::X => (self.per_invocation, 1),
            Along::Z => (1, self.per_invocation),
        }
    }

    /// The complete WGSL of this variant evaluating `noise` (`classic3`, `simplex3` or
    /// `bench_store_only3`).
    pub fn wgsl(&self, noise: &str) -> String {
        let (px, pz) = self.per_axis();
        let [x, y, z] = self.workgroup;
        // Unrolled, so that one sample per invocation is exactly fill_3d (no loop).
        let samples: Vec<String> = (0..self.per_invocation)
            .map(|s| {
                let (sx, sz) = if self.along == Along::X {
                    (s, 0)
                } else {
                    (0, s)
                };
                match (px, pz) {
                    (1, 1) => "fill_one(id);".to_string(),
                    _ => format!(
                        "fill_one(vec3<u32>(id.x * {px}u + {sx}u, id.y, id.z * {pz}u + {sz}u));"
                    ),
                }
            })
            .collect();
        let entry = VARIANT_WGSL
            .replace("WG_X", &x.to_string())
            .replace("WG_Y", &y.to_string())
            .replace("WG_Z", &z.to_string())
            .replace("SAMPLES", &samples.join("\n    "))
            .replace("NOISE3", noise)
            .replace(
                "STORE(",
                match self.output {
                    Output::Texture => "store_texture(",
                    Output::Buffer => "store_buffer(",
                },
            );
        let functions = match self.lookup {
            TableStorage::Textures => shader::noise_functions_wgsl(0),
            TableStorage::Buffers => format!(
                "{}\n{}\n{LOOKUP_BUFFERS_WGSL}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}",
                shader::LOOKUP_WGSL,
                shader::LATTICE_WGSL,
                buffer_fetches(shader::CLASSIC_WGSL),
                buffer_fetches(shader::SIMPLEX_WGSL),
                buffer_fetches(shader::CELLULAR_WGSL),
                buffer_fetches(shader::VALUE_WGSL),
                buffer_fetches(shader::SUPERSIMPLEX_WGSL),
                buffer_fetches(shader::FRACTAL_WGSL),
                shader::WARP_WGSL,
                shader::CURL_WGSL
            ),
        };
        format!("{functions}\n{entry}")
    }

    /// Workgroups to dispatch for an `extent` of texels.
    pub fn workgroups(&self, extent: [u32; 3]) -> [u32; 3] {
        let (px, pz) = self.per_axis();
        let [x, y, z] = self.workgroup;
        [
            extent[0].div_ceil(x * px),
            extent[1].div_ceil(y),
            extent[2].div_ceil(z * pz),
        ]
    }
}

/// The lookups of `shaders/lookup.wgsl` that `lookup_buffers.wgsl` re-implements: every
/// `buf_NAME` function defined there, as `NAME`. Read from the file, so a lookup added
/// to both cannot be left out of the renaming.
fn fetches() -> Vec<&'static str> {
    LOOKUP_BUFFERS_WGSL
        .split("fn buf_")
        .skip(1)
        .filter_map(|rest| rest.split('(').next())
        .collect()
}

/// `source` with every call of a [`fetches`] helper renamed to its `buf_` twin (whole
/// identifiers only: `my_wgpu_noise_hash2(` stays).
fn buffer_fetches(source: &str) -> String {
    let mut out = source.to_string();
    for name in fetches() {
        let call = format!("{name}(");
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(&call) {
            let whole = rest[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            result.push_str(&rest[..at]);
            if whole {
                result.push_str("buf_");
            }
            result.push_str(&call);
            rest = &rest[at + call.len()..];
        }
        result.push_str(rest);
        out = result;
    }
    out
}

/// What a variant evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// `classic3` or `simplex3`: the plain base noise.
    Noise(NoiseKind),
    /// What `shaders/fill.wgsl` evaluates per sample: `fractal3` with the uniform's
    /// settings (one octave, not tiled, reference kernel here).
    Product(NoiseKind),
    /// `fractal3` with the same settings as a compile-time constant: what specialising
    /// the pipeline (override constants) would recover.
    ProductConst(NoiseKind),
    /// Only the sample point and the store: this variant's floor.
    StoreOnly,
}

impl Work {
    /// The WGSL function evaluated.
    pub fn function(self) -> &'static str {
        match self {
            Work::Noise(NoiseKind::Classic) => "classic3",
            Work::Noise(NoiseKind::Simplex) => "simplex3",
            Work::Product(NoiseKind::Classic) => "product_classic3",
            Work::Product(NoiseKind::Simplex) => "product_simplex3",
            Work::ProductConst(NoiseKind::Classic) => "product_const_classic3",
            Work::ProductConst(NoiseKind::Simplex) => "product_const_simplex3",
            // The variants (`VARIANTS`) compare the gradient-noise kinds only.
            Work::Noise(
                kind @ (NoiseKind::Cellular | NoiseKind::Value | NoiseKind::SuperSimplex),
            )
            | Work::Product(
                kind @ (NoiseKind::Cellular | NoiseKind::Value | NoiseKind::SuperSimplex),
            )
            | Work::ProductConst(
                kind @ (NoiseKind::Cellular | NoiseKind::Value | NoiseKind::SuperSimplex),
            ) => {
                unreachable!("no experiment variant evaluates {kind} noise")
            }
            Work::StoreOnly => "bench_store_only3",
        }
    }
}

/// One measured variant.
#[derive(Clone, Debug)]
pub struct VariantResult {
    /// The stage of the sweep it belongs to.
    pub stage: &'static str,
    /// The configuration.
    pub variant: Variant,
    /// What it evaluated.
    pub work: Work,
    /// Median timing of the repeats (after one untimed warm-up).
    pub timing: GpuTiming,
    /// The fastest repeat (preferred clock): on a machine shared with other work, the
    /// run least disturbed by it.
    pub best: std::time::Duration,
    /// Samples per timed run.
    pub samples: u64,
    /// Largest |GPU − CPU f32| on the check field (`None` for [`Work::StoreOnly`]).
    pub max_abs_diff: Option<f32>,
}

impl VariantResult {
    /// Millions of samples per second by the preferred clock (median).
    pub fn msamples_per_s(&self) -> f64 {
        super::harness::msamples_per_s(self.samples, self.timing.preferred().0)
    }

    /// Millions of samples per second of the fastest repeat.
    pub fn best_msamples_per_s(&self) -> f64 {
        super::harness::msamples_per_s(self.samples, self.best)
    }
}

/// The lookup tables as storage buffers, bound at group 0.
struct BufferLookup {
    layout: wgpu::BindGroupLayout,
    bind_group: wgpu::BindGroup,
}

impl BufferLookup {
    fn new(device: &wgpu::Device, tables: &PermutationTables) -> Self {
        let words = |texels: &[[u8; 4]]| -> Vec<u32> {
            texels.iter().map(|t| u32::from_le_bytes(*t)).collect()
        };
        let perm: Vec<u32> = tables.perm.iter().map(|&p| p as u32).collect();
        let contents = [
            words(&tables.hash_grad3),
            words(&tables.grad4),
            perm,
            words(&tables.simplex4),
        ];
        let buffers: Vec<wgpu::Buffer> = contents
            .iter()
            .map(|c| {
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("wgpu-noise experiment lookup buffer"),
                    contents: bytemuck::cast_slice(c),
                    usage: wgpu::BufferUsages::STORAGE,
                })
            })
            .collect();
        // Bindings 4 to 7: lookup.wgsl's textures keep 0 to 3 (declared, unused).
        let entries: Vec<wgpu::BindGroupLayoutEntry> = (4..8)
            .map(|binding| storage_buffer_entry(binding, true))
            .collect();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("wgpu-noise experiment lookup buffers layout"),
            entries: &entries,
        });
        let bind_entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: 4 + i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("wgpu-noise experiment lookup buffers"),
            layout: &layout,
            entries: &bind_entries,
        });
        BufferLookup { layout, bind_group }
    }
}

fn storage_buffer_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// A 3D field's texture and buffer outputs, bound at group 1 with its parameters.
struct Outputs {
    field: FlagField,
    texture: wgpu::Texture,
    buffer: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
}

impl Outputs {
    fn new(
        device: &wgpu::Device,
        bench: &GpuBench,
        layout: &wgpu::BindGroupLayout,
        field: FlagField,
    ) -> Result<Self> {
        let [nx, ny, nz, _] = field.size;
        let bytes = field.len() * 4;
        let limit = device.limits().max_storage_buffer_binding_size;
        if bytes > limit {
            return Err(NoiseError::ExceedsLimit {
                what: "bytes of the experiment's output buffer (max_storage_buffer_binding_size)"
                    .into(),
                requested: bytes,
                limit,
            });
        }
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("wgpu-noise experiment output texture"),
            size: wgpu::Extent3d {
                width: nx,
                height: ny,
                depth_or_array_layers: nz,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D3,
            format: wgpu::TextureFormat::R32Float,
            usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgpu-noise experiment output buffer"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let uniform = bench.uniform(&FillParams::new(&field, Slab::whole(&field)));
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("wgpu-noise experiment outputs"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: buffer.as_entire_binding(),
                },
            ],
        });
        Ok(Outputs {
            field,
            texture,
            buffer,
            bind_group,
        })
    }

    fn extent(&self) -> [u32; 3] {
        [self.field.size[0], self.field.size[1], self.field.size[2]]
    }

    /// Reads back what the last run wrote to `output`.
    fn read(&self, device: &wgpu::Device, queue: &wgpu::Queue, output: Output) -> Result<Vec<f32>> {
        let [nx, ny, nz] = self.extent();
        let padded = padded_row_bytes(nx);
        let (size, rows) = match output {
            Output::Texture => (padded as u64 * ny as u64 * nz as u64, (ny * nz) as usize),
            Output::Buffer => (self.field.len() * 4, 0),
        };
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgpu-noise experiment readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("wgpu-noise experiment readback"),
        });
        match output {
            Output::Texture => encoder.copy_texture_to_buffer(
                self.texture.as_image_copy(),
                wgpu::TexelCopyBufferInfo {
                    buffer: &staging,
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(padded),
                        rows_per_image: Some(ny),
                    },
                },
                wgpu::Extent3d {
                    width: nx,
                    height: ny,
                    depth_or_array_layers: nz,
                },
            ),
            Output::Buffer => encoder.copy_buffer_to_buffer(&self.buffer, 0, &staging, 0, size),
        }
        let submission = queue.submit([encoder.finish()]);
        let mut values = Vec::with_capacity(self.field.len() as usize);
        map_and_read(
            device,
            &staging,
            submission,
            TIMEOUT,
            |bytes| match output {
                Output::Texture => unpad_rows(bytes, nx, rows, padded, &mut values),
                Output::Buffer => values.extend_from_slice(bytemuck::cast_slice(bytes)),
            },
        )?;
        Ok(values)
    }
}

/// Runs variants against the fills of a [`GpuBench`].
pub struct Experiments<'a> {
    bench: &'a GpuBench,
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The lookup textures and their layout the variants bind (`bench`'s own generator is
    /// private to the harness).
    noise: GpuNoise,
    buffers: BufferLookup,
    out_layout: wgpu::BindGroupLayout,
    timed: Outputs,
    /// Per kind (classic, simplex): the offset reduction, so the parameters, differ.
    check: [Outputs; 2],
    expected: [Vec<f32>; 2],
    repeats: usize,
}

impl<'a> Experiments<'a> {
    /// Prepares a `side`³ timing field (the workloads' frequency) and the small check field,
    /// with the permutation of `seed`, on the device `bench` runs on.
    pub fn new(
        bench: &'a GpuBench,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        seed: u64,
        side: u32,
        repeats: usize,
    ) -> Result<Self> {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let noise = GpuNoise::new(device, queue, seed)?;
        let tables = PermutationTables::new(seed);
        let buffers = BufferLookup::new(device, &tables);
        let out_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("wgpu-noise experiment output layout"),
            entries: &[
                uniform_entry(0),
                storage_texture_entry(1, wgpu::TextureViewDimension::D3),
                storage_buffer_entry(2, false),
            ],
        });
        let workload = Workload { dims: 3, side };
        // The timed field's kind only matters to the offset reduction; offset is 0.
        let timed = Outputs::new(
            device,
            bench,
            &out_layout,
            workload.field(NoiseKind::Simplex),
        )?;
        // Odd sizes (partial workgroups on every axis), negative and large offsets.
        let check_field = |kind| {
            FlagField::new(kind, &[37, 29, 19])
                .with_frequency(&[3.3, 2.1, 1.7])
                .with_offset(&[-7.25, 3.5, 1000.125])
        };
        let check = [
            Outputs::new(device, bench, &out_layout, check_field(NoiseKind::Classic))?,
            Outputs::new(device, bench, &out_layout, check_field(NoiseKind::Simplex))?,
        ];
        let expected = [
            wgpu_noise::cpu::fill::generate_f32(&tables, &check_field(NoiseKind::Classic))?,
            wgpu_noise::cpu::fill::generate_f32(&tables, &check_field(NoiseKind::Simplex))?,
        ];
        pop_error_scope(scope)?;
        Ok(Experiments {
            bench,
            device: device.clone(),
            queue: queue.clone(),
            noise,
            buffers,
            out_layout,
            timed,
            check,
            expected,
            repeats,
        })
    }

    fn pipeline(&self, variant: &Variant, work: Work) -> Result<wgpu::ComputePipeline> {
        let device = &self.device;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("wgpu-noise experiment variant"),
            source: wgpu::ShaderSource::Wgsl(variant.wgsl(work.function()).into()),
        });
        let lookup_layout = match variant.lookup {
            TableStorage::Textures => self.noise.pipelines().lookup_layout(),
            TableStorage::Buffers => &self.buffers.layout,
        };
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("wgpu-noise experiment layout"),
            bind_group_layouts: &[Some(lookup_layout), Some(&self.out_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&format!(
                "wgpu-noise experiment {} {}",
                variant.name(),
                work.function()
            )),
            layout: Some(&layout),
            module: &module,
            entry_point: Some("fill_variant"),
            compilation_options: Default::default(),
            cache: None,
        });
        pop_error_scope(scope)?;
        Ok(pipeline)
    }

    fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        pipeline: &wgpu::ComputePipeline,
        variant: &Variant,
        outputs: &Outputs,
    ) {
        let lookup = match variant.lookup {
            TableStorage::Textures => self.noise.lookup_bind_group(),
            TableStorage::Buffers => &self.buffers.bind_group,
        };
        let [x, y, z] = variant.workgroups(outputs.extent());
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("wgpu-noise experiment pass"),
            timestamp_writes: None,
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, lookup, &[]);
        pass.set_bind_group(1, &outputs.bind_group, &[]);
        pass.dispatch_workgroups(x, y, z);
    }

    /// Compiles `variant` for `work` and, for noise, checks it against the CPU reference.
    pub fn prepare(&self, variant: Variant, work: Work) -> Result<Prepared> {
        let pipeline = self.pipeline(&variant, work)?;
        let max_abs_diff = match work {
            Work::StoreOnly => None,
            Work::Noise(kind) | Work::Product(kind) | Work::ProductConst(kind) => {
                let device = &self.device;
                let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
                let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("wgpu-noise experiment check"),
                });
                let which = usize::from(kind == NoiseKind::Simplex);
                self.record(&mut encoder, &pipeline, &variant, &self.check[which]);
                let submission = self.queue.submit([encoder.finish()]);
                pop_error_scope(scope)?;
                wait(device, submission)?;
                let got = self.check[which].read(device, &self.queue, variant.output)?;
                Some(max_abs_diff(&got, &self.expected[which]))
            }
        };
        Ok(Prepared {
            variant,
            work,
            pipeline,
            max_abs_diff,
        })
    }

    /// One timed run of a prepared variant on the timing field.
    pub fn time(&self, prepared: &Prepared) -> Result<GpuTiming> {
        self.bench.time_recorded(|encoder| {
            self.record(encoder, &prepared.pipeline, &prepared.variant, &self.timed)
        })
    }

    /// Samples of one timed run.
    pub fn samples(&self) -> u64 {
        self.timed.field.len()
    }

    /// Repeats (rounds) per measurement.
    pub fn repeats(&self) -> usize {
        self.repeats.max(1)
    }

    /// A fill target for the product's own `fill_3d` on the timing field.
    pub fn product_target(&self, kind: NoiseKind) -> Result<FillTarget> {
        self.bench.fill_target(
            &FlagField {
                kind,
                ..self.timed.field.clone()
            },
            wgpu_noise::FieldOutput::Value,
        )
    }

    /// One timed run of the product's `fill_3d` (record_fill) into `target`.
    pub fn time_product(&self, target: &FillTarget, kind: NoiseKind) -> Result<GpuTiming> {
        self.bench.time_fill(target, kind)
    }
}

/// The shortest of `timings` by the clock [`median_gpu`] would use for them.
pub fn best_of(timings: &[GpuTiming]) -> std::time::Duration {
    let device_everywhere = timings.iter().all(|t| t.device.is_some());
    timings
        .iter()
        .map(|t| {
            if device_everywhere {
                t.device.unwrap_or(t.wall)
            } else {
                t.wall
            }
        })
        .min()
        .unwrap_or_default()
}

/// The largest |a − b|; NaN if any value is NaN (a sample the shader failed to compute).
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    let mut max = if a.len() == b.len() { 0.0f32 } else { f32::NAN };
    for (x, y) in a.iter().zip(b) {
        let d = (x - y).abs();
        if d.is_nan() {
            return f32::NAN;
        }
        max = max.max(d);
    }
    max
}

/// A compiled and checked variant, ready to time.
pub struct Prepared {
    /// The configuration.
    pub variant: Variant,
    /// What it evaluates.
    pub work: Work,
    pipeline: wgpu::ComputePipeline,
    /// Largest |GPU − CPU f32| on the check field (`None` for [`Work::StoreOnly`]).
    pub max_abs_diff: Option<f32>,
}

/// Workgroup shapes of the sweep (64 to 256 invocations).
pub const SHAPES: [[u32; 3]; 8] = [
    [8, 8, 1],
    [16, 16, 1],
    [64, 1, 1],
    [4, 4, 4],
    [32, 4, 1],
    [16, 8, 1],
    [32, 8, 1],
    [256, 1, 1],
];

/// Samples per invocation of the sweep, as (axis, count).
pub const PER_INVOCATION: [(Along, u32); 4] =
    [(Along::Z, 2), (Along::Z, 4), (Along::X, 2), (Along::X, 4)];

/// A variant's outcome, as the sweep reports it.
pub enum Outcome<'r> {
    /// Checked and timed.
    Measured(&'r VariantResult),
    /// Failed to compile, validate or run (the sweep goes on without it).
    Failed {
        /// The configuration.
        variant: Variant,
        /// What it was to evaluate.
        work: Work,
        /// Why it failed.
        error: &'r NoiseError,
    },
}

/// The works every variant is measured with.
pub const WORKS: [Work; 7] = [
    Work::Noise(NoiseKind::Classic),
    Work::Noise(NoiseKind::Simplex),
    Work::Product(NoiseKind::Classic),
    Work::Product(NoiseKind::Simplex),
    Work::ProductConst(NoiseKind::Classic),
    Work::ProductConst(NoiseKind::Simplex),
    Work::StoreOnly,
];

/// The product's own `fill_3d`, timed in the first stage's rounds.
#[derive(Clone, Debug)]
pub struct ProductResult {
    /// The noise family.
    pub kind: NoiseKind,
    /// Median timing.
    pub timing: GpuTiming,
    /// Samples per run.
    pub samples: u64,
}

/// The sweep: every shape of [`SHAPES`] (with the product's own `fill_3d` as a control);
/// then [`PER_INVOCATION`] on the fastest shape; then lookups from buffers, output to a
/// buffer, and both, on the fastest configuration so far ("fastest": [`fastest`]). Every
/// variant is measured with each of [`WORKS`].
///
/// Within a stage, every candidate is compiled, checked and run once untimed first; then
/// the stage runs `repeats` rounds, each timing every candidate once, and reports medians.
/// Interleaving spreads other load on the machine over all candidates alike instead of
/// penalising whichever ran during a burst. `report` sees each outcome as it comes.
pub fn sweep(
    exp: &Experiments,
    mut report: impl FnMut(Outcome),
) -> Result<(Vec<VariantResult>, Vec<ProductResult>)> {
    let mut results: Vec<VariantResult> = Vec::new();
    let mut products = Vec::new();
    let product_targets = NoiseKind::ALL.map(|kind| exp.product_target(kind).map(|t| (kind, t)));
    let [classic_target, simplex_target] = product_targets;
    let product_targets = [classic_target?, simplex_target?];

    let stage = |name: &'static str,
                 variants: Vec<Variant>,
                 with_product: bool,
                 results: &mut Vec<VariantResult>,
                 products: &mut Vec<ProductResult>,
                 report: &mut dyn FnMut(Outcome)|
     -> Result<()> {
        let mut prepared = Vec::new();
        for variant in variants {
            for work in WORKS {
                match exp
                    .prepare(variant, work)
                    .and_then(|p| exp.time(&p).map(|_| p))
                {
                    Ok(p) => prepared.push(p),
                    Err(error) => report(Outcome::Failed {
                        variant,
                        work,
                        error: &error,
                    }),
                }
            }
        }
        if with_product {
            for (kind, target) in &product_targets {
                exp.time_product(target, *kind)?;
            }
        }
        let mut timings: Vec<Vec<GpuTiming>> = vec![Vec::new(); prepared.len()];
        let mut product_timings: Vec<Vec<GpuTiming>> = vec![Vec::new(); product_targets.len()];
        for _ in 0..exp.repeats() {
            for (p, t) in prepared.iter().zip(&mut timings) {
                t.push(exp.time(p)?);
            }
            if with_product {
                for ((kind, target), t) in product_targets.iter().zip(&mut product_timings) {
                    t.push(exp.time_product(target, *kind)?);
                }
            }
        }
        if with_product {
            for ((kind, _), t) in product_targets.iter().zip(&product_timings) {
                products.push(ProductResult {
                    kind: *kind,
                    timing: median_gpu(t),
                    samples: exp.samples(),
                });
            }
        }
        for (p, t) in prepared.iter().zip(&timings) {
            let r = VariantResult {
                stage: name,
                variant: p.variant,
                work: p.work,
                timing: median_gpu(t),
                best: best_of(t),
                samples: exp.samples(),
                max_abs_diff: p.max_abs_diff,
            };
            report(Outcome::Measured(&r));
            results.push(r);
        }
        Ok(())
    };

    let shapes = SHAPES
        .iter()
        .map(|&workgroup| Variant {
            workgroup,
            ..Variant::BASELINE
        })
        .collect();
    stage(
        "shape",
        shapes,
        true,
        &mut results,
        &mut products,
        &mut report,
    )?;
    let best_shape = fastest(&results).unwrap_or(Variant::BASELINE);
    let per = PER_INVOCATION
        .iter()
        .map(|&(along, per_invocation)| Variant {
            along,
            per_invocation,
            ..best_shape
        })
        .collect();
    stage(
        "per-invocation",
        per,
        false,
        &mut results,
        &mut products,
        &mut report,
    )?;
    let best = fastest(&results).unwrap_or(best_shape);
    let storage = [
        (TableStorage::Buffers, Output::Texture),
        (TableStorage::Textures, Output::Buffer),
        (TableStorage::Buffers, Output::Buffer),
    ]
    .iter()
    .map(|&(lookup, output)| Variant {
        lookup,
        output,
        ..best
    })
    .collect();
    stage(
        "storage",
        storage,
        false,
        &mut results,
        &mut products,
        &mut report,
    )?;
    Ok((results, products))
}

/// The variant with the least total time (fastest repeat of each) over the noise works (plain, product path and
/// constant-settings product path; classic and simplex) among those measured with all and whose values
/// matched the CPU reference within 1e-5 (the parity tolerance).
pub fn fastest(results: &[VariantResult]) -> Option<Variant> {
    let mut best: Option<(Variant, f64)> = None;
    for r in results {
        let score = score(results, &r.variant);
        if let Some(s) = score {
            if best.is_none_or(|(_, b)| s < b) {
                best = Some((r.variant, s));
            }
        }
    }
    best.map(|(v, _)| v)
}

/// Total seconds of `variant` over the noise works, when all were measured and
/// matched.
pub fn score(results: &[VariantResult], variant: &Variant) -> Option<f64> {
    let time = |work| {
        results
            .iter()
            .find(|r| r.variant == *variant && r.work == work)
            .filter(|r| r.max_abs_diff.is_some_and(|d| d <= 1e-5))
            .map(|r| r.best.as_secs_f64())
    };
    WORKS
        .iter()
        .filter(|w| **w != Work::StoreOnly)
        .map(|&w| time(w))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Needs an adapter: skipped (with a note) without one, unless WGPU_NOISE_REQUIRE_GPU
    /// is set, as in tests/common.
    #[test]
    fn variants_match_the_cpu_reference_before_they_are_timed() {
        let ctx = match crate::harness::bench_context() {
            Ok(ctx) => ctx,
            Err(e) if std::env::var_os("WGPU_NOISE_REQUIRE_GPU").is_none() => {
                eprintln!("SKIPPED (no GPU adapter): {e}");
                return;
            }
            Err(e) => panic!("WGPU_NOISE_REQUIRE_GPU is set but no GPU is usable: {e}"),
        };
        let bench = GpuBench::new(&ctx.device, &ctx.queue, 0).expect("bench");
        let exp = Experiments::new(&bench, &ctx.device, &ctx.queue, 0, 16, 1).expect("experiments");
        let variants = [
            Variant::BASELINE,
            Variant {
                workgroup: [32, 4, 1],
                per_invocation: 4,
                along: Along::X,
                ..Variant::BASELINE
            },
            Variant {
                per_invocation: 2,
                along: Along::Z,
                lookup: TableStorage::Buffers,
                output: Output::Buffer,
                ..Variant::BASELINE
            },
        ];
        for variant in variants {
            for work in WORKS.into_iter().filter(|w| *w != Work::StoreOnly) {
                let prepared = exp
                    .prepare(variant, work)
                    .expect("variant compiles and runs");
                let diff = prepared.max_abs_diff.expect("noise work is checked");
                // Same f32 operations on both sides: measured 0 on lavapipe; 1e-5 is the
                // crate's documented GPU/CPU parity tolerance.
                assert!(
                    diff <= 1e-5,
                    "{} {}: max abs diff {diff}",
                    variant.name(),
                    work.function()
                );
                assert!(exp.time(&prepared).expect("timed run").wall > std::time::Duration::ZERO);
            }
        }
    }

    #[test]
    fn max_abs_diff_never_hides_a_nan() {
        assert_eq!(max_abs_diff(&[1.0, 2.0], &[1.0, 2.5]), 0.5);
        assert!(max_abs_diff(&[f32::NAN, 2.0], &[1.0, 2.0]).is_nan());
        assert!(max_abs_diff(&[1.0, f32::NAN, 2.0], &[1.0, 1.0, 9.0]).is_nan());
    }

    #[test]
    fn every_texture_lookup_has_a_buffer_twin() {
        let twins = fetches();
        let lookups: Vec<&str> = shader::LOOKUP_WGSL
            .split("\nfn ")
            .skip(1)
            .filter_map(|rest| rest.split('(').next())
            .collect();
        assert!(lookups.len() > 10, "{lookups:?}");
        for name in &lookups {
            assert!(
                twins.contains(name),
                "{name} has no buf_ twin in lookup_buffers.wgsl"
            );
        }
    }

    #[test]
    fn buffer_fetches_renames_whole_calls_only() {
        let src = "let t = wgpu_noise_cell_hash2(a, b) + my_wgpu_noise_cell_hash2(c) + wgpu_noise_lattice_grad3(x, y, wgpu_noise_cell_byte(h, 1u)).x;";
        assert_eq!(
            buffer_fetches(src),
            "let t = buf_wgpu_noise_cell_hash2(a, b) + my_wgpu_noise_cell_hash2(c) + buf_wgpu_noise_lattice_grad3(x, y, buf_wgpu_noise_cell_byte(h, 1u)).x;"
        );
    }

    #[test]
    fn one_sample_per_invocation_is_fill_3d_without_a_loop() {
        let src = Variant::BASELINE.wgsl("simplex3");
        assert!(src.contains("@workgroup_size(8, 8, 1)") && src.contains("fill_one(id);"));
        assert!(!src.contains("SAMPLES") && !src.contains("STORE(") && !src.contains("NOISE3"));
        let z4 = Variant {
            per_invocation: 4,
            along: Along::Z,
            ..Variant::BASELINE
        };
        assert!(z4
            .wgsl("classic3")
            .contains("fill_one(vec3<u32>(id.x * 1u + 0u, id.y, id.z * 4u + 3u));"));
        assert_eq!(z4.workgroups([256, 256, 256]), [32, 32, 64]);
    }
}
