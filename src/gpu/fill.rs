//! The fill pipelines: compute passes that write noise into a caller's storage texture.
//! They record into the caller's encoder and never submit.

use std::collections::HashMap;
use std::sync::Mutex;

use wgpu::util::DeviceExt;

use super::lookup::NoiseLookup;
use crate::field::NoiseKind;
use crate::params::FillParams;
use crate::shader::{self, LookupVariant};

/// Workgroup size of the fill entry points (keep in sync with `shaders/fill.wgsl`).
pub const WORKGROUP: [u32; 3] = [8, 8, 1];
/// Workgroup size of `eval_points` (keep in sync with `shaders/fill.wgsl`).
pub const EVAL_WORKGROUP: u32 = 64;

/// The entry points of `shaders/fill.wgsl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Entry {
    Fill2d,
    Fill3d,
    Fill4d,
    Fill2dGradient,
    Fill3dGradient,
    Fill3dLayers,
    Fill4dLayers,
    Fill3dGradientLayers,
    Eval(u32),
    EvalGradients(u32),
}

impl Entry {
    fn name(self) -> &'static str {
        match self {
            Entry::Fill2d => "fill_2d",
            Entry::Fill3d => "fill_3d",
            Entry::Fill4d => "fill_4d",
            Entry::Fill2dGradient => "fill_2d_gradient",
            Entry::Fill3dGradient => "fill_3d_gradient",
            Entry::Fill3dLayers => "fill_3d_layers",
            Entry::Fill4dLayers => "fill_4d_layers",
            Entry::Fill3dGradientLayers => "fill_3d_gradient_layers",
            Entry::Eval(_) => "eval_points",
            Entry::EvalGradients(_) => "eval_gradients",
        }
    }
}

/// Compiled fill pipelines (created on first use, then reused) and their layouts.
pub struct FillPipelines {
    module: wgpu::ShaderModule,
    variant: LookupVariant,
    lookup_layout: wgpu::BindGroupLayout,
    out_2d_layout: wgpu::BindGroupLayout,
    out_3d_layout: wgpu::BindGroupLayout,
    out_2d_rgba_layout: wgpu::BindGroupLayout,
    out_3d_rgba_layout: wgpu::BindGroupLayout,
    out_layers_layout: wgpu::BindGroupLayout,
    out_layers_rgba_layout: wgpu::BindGroupLayout,
    eval_layout: wgpu::BindGroupLayout,
    eval_gradients_layout: wgpu::BindGroupLayout,
    pipelines: Mutex<HashMap<PipelineKey, wgpu::ComputePipeline>>,
}

/// What a pipeline is specialised on: its pipeline-overridable constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct PipelineKey {
    entry: Entry,
    kind: NoiseKind,
    hash_key: u32,
    /// `(octaves, mode, kernel, tiled)` of the fill entry points (`FILL_*` in fill.wgsl).
    shape: Option<(u32, u32, u32, bool)>,
    /// `(output, distance)` of cellular noise (`FILL_CELLULAR_*` in fill.wgsl).
    cellular: Option<(u32, u32)>,
}

impl PipelineKey {
    fn shape_of(settings: &crate::params::NoiseSettings) -> (u32, u32, u32, bool) {
        (
            settings.octaves,
            settings.mode,
            settings.kernel,
            settings.period.iter().any(|&p| p > 0.0),
        )
    }
}

impl FillPipelines {
    /// Compiles the fill shader for a lookup variant and creates the layouts.
    pub fn new(device: &wgpu::Device, variant: LookupVariant) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("wgpu-noise fill shader"),
            source: wgpu::ShaderSource::Wgsl(shader::fill_shader_wgsl(variant).into()),
        });
        let uniform = wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<FillParams>() as u64),
            },
            count: None,
        };
        let storage_texture = |binding, view_dimension, format| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::StorageTexture {
                access: wgpu::StorageTextureAccess::WriteOnly,
                format,
                view_dimension,
            },
            count: None,
        };
        use wgpu::TextureFormat::{R32Float, Rgba32Float};
        use wgpu::TextureViewDimension::{D2Array, D2, D3};
        let storage_buffer = |binding, read_only| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries,
            })
        };
        FillPipelines {
            module,
            variant,
            lookup_layout: NoiseLookup::bind_group_layout(device, wgpu::ShaderStages::COMPUTE),
            out_2d_layout: layout(
                "wgpu-noise fill_2d layout",
                &[uniform, storage_texture(1, D2, R32Float)],
            ),
            out_3d_layout: layout(
                "wgpu-noise fill_3d layout",
                &[uniform, storage_texture(2, D3, R32Float)],
            ),
            out_2d_rgba_layout: layout(
                "wgpu-noise fill_2d_gradient layout",
                &[uniform, storage_texture(6, D2, Rgba32Float)],
            ),
            out_3d_rgba_layout: layout(
                "wgpu-noise fill_3d_gradient layout",
                &[uniform, storage_texture(7, D3, Rgba32Float)],
            ),
            out_layers_layout: layout(
                "wgpu-noise fill layers layout",
                &[uniform, storage_texture(8, D2Array, R32Float)],
            ),
            out_layers_rgba_layout: layout(
                "wgpu-noise fill gradient layers layout",
                &[uniform, storage_texture(9, D2Array, Rgba32Float)],
            ),
            eval_layout: layout(
                "wgpu-noise eval_points layout",
                &[storage_buffer(3, true), storage_buffer(4, false)],
            ),
            eval_gradients_layout: layout(
                "wgpu-noise eval_gradients layout",
                &[
                    storage_buffer(3, true),
                    storage_buffer(4, false),
                    storage_buffer(5, false),
                ],
            ),
            pipelines: Mutex::new(HashMap::new()),
        }
    }

    /// The layout of the lookup bind group at group 0 of every fill pipeline.
    pub fn lookup_layout(&self) -> &wgpu::BindGroupLayout {
        &self.lookup_layout
    }

    fn output_layout(&self, entry: Entry) -> &wgpu::BindGroupLayout {
        match entry {
            Entry::Fill2d => &self.out_2d_layout,
            Entry::Fill3d | Entry::Fill4d => &self.out_3d_layout,
            Entry::Fill2dGradient => &self.out_2d_rgba_layout,
            Entry::Fill3dGradient => &self.out_3d_rgba_layout,
            Entry::Fill3dLayers | Entry::Fill4dLayers => &self.out_layers_layout,
            Entry::Fill3dGradientLayers => &self.out_layers_rgba_layout,
            Entry::Eval(_) => &self.eval_layout,
            Entry::EvalGradients(_) => &self.eval_gradients_layout,
        }
    }

    /// The lookup variant these pipelines were compiled for.
    pub fn variant(&self) -> LookupVariant {
        self.variant
    }

    /// The pipeline for `key`, created on first use.
    fn pipeline(&self, device: &wgpu::Device, mut key: PipelineKey) -> wgpu::ComputePipeline {
        if self.variant != LookupVariant::Hash {
            key.hash_key = 0; // not a constant of the texture variant
        }
        let PipelineKey {
            entry,
            kind,
            hash_key,
            shape,
            cellular,
        } = key;
        let mut cache = self.pipelines.lock().unwrap_or_else(|p| p.into_inner());
        cache
            .entry(key)
            .or_insert_with(|| {
                let label = format!("wgpu-noise {} {kind}", entry.name());
                let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some(&label),
                    bind_group_layouts: &[
                        Some(&self.lookup_layout),
                        Some(self.output_layout(entry)),
                    ],
                    immediate_size: 0,
                });
                let kind_value = match kind {
                    NoiseKind::Classic => 0.0,
                    NoiseKind::Simplex => 1.0,
                    NoiseKind::Cellular => 2.0,
                };
                let dims_value = match entry {
                    Entry::Eval(d) | Entry::EvalGradients(d) => Some(d as f64),
                    _ => None,
                };
                let mut constants = vec![("NOISE_KIND", kind_value)];
                if let Some(d) = dims_value {
                    constants.push(("NOISE_DIMS", d));
                }
                if self.variant == LookupVariant::Hash {
                    constants.push(("WGPU_NOISE_HASH_KEY", hash_key as f64));
                }
                if let Some((octaves, mode, kernel, tiled)) = shape {
                    constants.push(("FILL_OCTAVES", octaves as f64));
                    constants.push(("FILL_MODE", mode as f64));
                    constants.push(("FILL_KERNEL", kernel as f64));
                    constants.push(("FILL_TILED", if tiled { 1.0 } else { 0.0 }));
                }
                if let Some((output, distance)) = cellular {
                    constants.push(("FILL_CELLULAR_OUTPUT", output as f64));
                    constants.push(("FILL_CELLULAR_DISTANCE", distance as f64));
                }
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(&label),
                    layout: Some(&layout),
                    module: &self.module,
                    entry_point: Some(entry.name()),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &constants,
                        ..Default::default()
                    },
                    cache: None,
                })
            })
            .clone()
    }

    /// Records a compute pass into `encoder` that fills `target` with the slab `params`
    /// describes: a 2D `R32Float` storage texture for `dims == 2`, a 3D one for 3, and for
    /// 4 a 3D one of depth `extent.z * extent.w` (layer `w * extent.z + z`).
    /// With `gradient`, simplex fBm with its analytic gradient goes into an `Rgba32Float`
    /// target instead, (value, d/dx, d/dy, d/dz) per texel (2D and 3D).
    ///
    /// For 3D and 4D, `target` may instead be a view of a 2D array texture
    /// (`TextureViewDimension::D2Array`), one layer per z (4D: per `w * extent.z + z`).
    /// On wgpu's GL backend it must be: there a 3D storage texture is bound one layer
    /// deep, so only z = 0 would be written (docs/backends.md).
    /// `hash_key` is the seed key of the hash variant (`tables::hash_key_for_seed`).
    #[allow(clippy::too_many_arguments)]
    pub fn record_fill(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        lookup: &wgpu::BindGroup,
        kind: NoiseKind,
        dims: usize,
        params: &FillParams,
        target: &wgpu::TextureView,
        gradient: bool,
        hash_key: u32,
    ) {
        let layers = target.texture().dimension() == wgpu::TextureDimension::D2;
        let entry = match (dims, gradient, layers) {
            (2, false, _) => Entry::Fill2d,
            (3, false, false) => Entry::Fill3d,
            (3, false, true) => Entry::Fill3dLayers,
            (_, false, false) => Entry::Fill4d,
            (_, false, true) => Entry::Fill4dLayers,
            (2, true, _) => Entry::Fill2dGradient,
            (_, true, false) => Entry::Fill3dGradient,
            (_, true, true) => Entry::Fill3dGradientLayers,
        };
        let shape = Some(PipelineKey::shape_of(&params.settings));
        let s = &params.settings;
        let cellular =
            (kind == NoiseKind::Cellular).then_some((s.cellular_output, s.cellular_distance));
        let pipeline = self.pipeline(
            device,
            PipelineKey {
                entry,
                kind,
                hash_key,
                shape,
                cellular,
            },
        );
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("wgpu-noise fill params"),
            contents: bytemuck::bytes_of(params),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let target_binding = match entry {
            Entry::Fill2d => 1,
            Entry::Fill2dGradient => 6,
            Entry::Fill3dGradient => 7,
            Entry::Fill3dLayers | Entry::Fill4dLayers => 8,
            Entry::Fill3dGradientLayers => 9,
            _ => 2,
        };
        let output = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("wgpu-noise fill output"),
            layout: self.output_layout(entry),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: target_binding,
                    resource: wgpu::BindingResource::TextureView(target),
                },
            ],
        });
        let [nx, ny, nz, nw] = params.extent;
        let depth = if dims == 4 { nz * nw } else { nz };
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("wgpu-noise fill pass"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, lookup, &[]);
        pass.set_bind_group(1, &output, &[]);
        pass.dispatch_workgroups(
            nx.div_ceil(WORKGROUP[0]),
            ny.div_ceil(WORKGROUP[1]),
            depth.div_ceil(WORKGROUP[2]),
        );
    }

    /// Records a pass that evaluates `kind` noise in `dims` dimensions at each point of
    /// `points` (`vec4<f32>` each) into `values` (`f32` each), and, when `gradients` is
    /// given, simplex noise with its analytic gradient (`vec4<f32>` each) instead.
    #[allow(clippy::too_many_arguments)]
    pub fn record_eval(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        lookup: &wgpu::BindGroup,
        kind: NoiseKind,
        dims: usize,
        points: &wgpu::Buffer,
        values: &wgpu::Buffer,
        gradients: Option<&wgpu::Buffer>,
        count: u32,
        hash_key: u32,
    ) {
        let entry = match gradients {
            Some(_) => Entry::EvalGradients(dims as u32),
            None => Entry::Eval(dims as u32),
        };
        let pipeline = self.pipeline(
            device,
            PipelineKey {
                entry,
                kind,
                hash_key,
                shape: None,
                cellular: None,
            },
        );
        let mut entries = vec![
            wgpu::BindGroupEntry {
                binding: 3,
                resource: points.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 4,
                resource: values.as_entire_binding(),
            },
        ];
        if let Some(g) = gradients {
            entries.push(wgpu::BindGroupEntry {
                binding: 5,
                resource: g.as_entire_binding(),
            });
        }
        let io = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("wgpu-noise eval io"),
            layout: self.output_layout(entry),
            entries: &entries,
        });
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("wgpu-noise eval pass"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, lookup, &[]);
        pass.set_bind_group(1, &io, &[]);
        pass.dispatch_workgroups(count.div_ceil(EVAL_WORKGROUP), 1, 1);
    }
}
