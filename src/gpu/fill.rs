//! The fill pipelines: compute passes that write noise into a caller's storage texture.
//! They record into the caller's encoder and never submit.

use std::collections::HashMap;
use std::sync::Mutex;

use wgpu::util::DeviceExt;

use super::graph::{GraphEntry, GraphPipeline};
use super::lookup::LookupTextures;
use super::GpuNoise;
use crate::error::{ErrorScope, NoiseError, Result};
use crate::field::{Field, FieldOutput, FlagField, NoiseKind};
use crate::graph::Program;
use crate::params::{FillParams, Slab};
use crate::shader::{self, LookupVariant};

/// Workgroup size of the fill entry points (keep in sync with `shaders/fill.wgsl`).
pub const WORKGROUP: [u32; 3] = [8, 8, 1];

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
    Fill2dCurl,
    Fill3dCurl,
    Fill3dCurlLayers,
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
            Entry::Fill2dCurl => "fill_2d_curl",
            Entry::Fill3dCurl => "fill_3d_curl",
            Entry::Fill3dCurlLayers => "fill_3d_curl_layers",
        }
    }
}

/// One fill pass for [`FillPipelines::record_fill`].
#[derive(Clone, Copy, Debug)]
pub struct FillPass<'a> {
    /// The lookup bind group (layout [`FillPipelines::lookup_layout`]).
    pub lookup: &'a wgpu::BindGroup,
    /// The noise family.
    pub kind: NoiseKind,
    /// 2, 3 or 4.
    pub dims: usize,
    /// The slab to fill and the noise settings.
    pub params: &'a FillParams,
    /// The storage texture view written (`R32Float` for values, else `Rgba32Float`).
    pub target: &'a wgpu::TextureView,
    /// What each texel holds.
    pub output: FieldOutput,
    /// The seed key of the hash variant (`tables::hash_key_for_seed`); unused otherwise.
    pub hash_key: u32,
}

/// The generator's compute pipelines (created on first use, then reused) and the fill's
/// layouts: the one cache of every plan's pipelines, keyed by what the plan computes.
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
    cache: Mutex<PipelineCache>,
    /// The fill shader and output layouts for a 16-bit storage format, made on first use.
    half_formats: Mutex<HashMap<wgpu::TextureFormat, HalfFormat>>,
}

/// The fill entry points recompiled to store `R16Float` (values) or `Rgba16Float`
/// (value and gradient) instead of the 32-bit formats.
#[derive(Clone)]
struct HalfFormat {
    module: wgpu::ShaderModule,
    layout_2d: wgpu::BindGroupLayout,
    layout_3d: wgpu::BindGroupLayout,
    /// 2D array targets: 3D/4D fills on the GL backend (`Entry::Fill*Layers`).
    layout_layers: wgpu::BindGroupLayout,
}

/// The WGSL storage format of the 16-bit formats the fill can write, and whether it
/// holds the gradient (four channels).
fn half_format(format: wgpu::TextureFormat) -> Option<(&'static str, bool)> {
    match format {
        wgpu::TextureFormat::R16Float => Some(("r16float", false)),
        wgpu::TextureFormat::Rgba16Float => Some(("rgba16float", true)),
        _ => None,
    }
}

/// Every pipeline compiled so far, by the plan it computes: the hand-written fill's entry
/// points specialised on a fused plan's constants (a finite set: loop counts and modes),
/// and the last few graphs' own pipelines (a live editor compiles one per edit).
#[derive(Default)]
struct PipelineCache {
    fused: HashMap<PipelineKey, wgpu::ComputePipeline>,
    /// Oldest first.
    graphs: Vec<(GraphKey, GraphPipeline)>,
}

/// The most graph pipelines the cache keeps.
const CACHED_GRAPH_PIPELINES: usize = 32;

/// What a graph's pipeline is compiled from: its program (rather than its WGSL, so that
/// finding the pipeline of a graph recorded every frame generates no shader text), the hash
/// variant's key and the entry point.
type GraphKey = (Program, u32, GraphEntry);

/// What a pipeline is specialised on: its pipeline-overridable constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct PipelineKey {
    entry: Entry,
    kind: NoiseKind,
    hash_key: u32,
    /// The loop counts and branches of the fill entry points (`FILL_*` in fill.wgsl).
    shape: Option<FillShape>,
    /// `(output, distance)` of cellular noise (`FILL_CELLULAR_*` in fill.wgsl).
    cellular: Option<(u32, u32)>,
    /// A 16-bit storage format ([`half_format`]) instead of the 32-bit one.
    half: Option<wgpu::TextureFormat>,
}

/// The settings a fill pipeline is specialised on (`FILL_*` in fill.wgsl).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct FillShape {
    octaves: u32,
    mode: u32,
    kernel: u32,
    tiled: bool,
    warp_octaves: u32,
    warp_iterations: u32,
    flow: bool,
}

impl FillShape {
    fn of(settings: &crate::params::NoiseSettings) -> Self {
        FillShape {
            octaves: settings.octaves,
            mode: settings.mode,
            kernel: settings.kernel,
            tiled: settings.period.iter().any(|&p| p > 0.0),
            warp_octaves: settings.warp_octaves,
            warp_iterations: settings.warp_iterations,
            flow: settings.flow_angle != 0.0,
        }
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
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries,
            })
        };
        FillPipelines {
            module,
            variant,
            lookup_layout: LookupTextures::bind_group_layout(device, wgpu::ShaderStages::COMPUTE),
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
            cache: Mutex::new(PipelineCache::default()),
            half_formats: Mutex::new(HashMap::new()),
        }
    }

    /// The layout of the lookup bind group at group 0 of every fill pipeline.
    pub fn lookup_layout(&self) -> &wgpu::BindGroupLayout {
        &self.lookup_layout
    }

    /// The module and output layout of `entry` storing `half` (a [`half_format`]) or the
    /// default 32-bit format.
    fn module_and_layout(
        &self,
        device: &wgpu::Device,
        entry: Entry,
        half: Option<wgpu::TextureFormat>,
    ) -> (wgpu::ShaderModule, wgpu::BindGroupLayout) {
        let Some((format, (wgsl_name, rgba))) = half.and_then(|f| Some((f, half_format(f)?)))
        else {
            return (self.module.clone(), self.output_layout(entry).clone());
        };
        let mut cache = self.half_formats.lock().unwrap_or_else(|p| p.into_inner());
        let half = cache.entry(format).or_insert_with(|| {
            // The same fill source with the storage format of the matching outputs
            // swapped: `r32float` (values) or `rgba32float` (value and gradient).
            let from = if rgba {
                "<rgba32float, write>"
            } else {
                "<r32float, write>"
            };
            let source = shader::fill_shader_wgsl(self.variant)
                .replace(from, &format!("<{wgsl_name}, write>"));
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(&format!("wgpu-noise fill shader ({wgsl_name})")),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
            let layout = |binding, view_dimension| {
                device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: Some(&format!("wgpu-noise fill {wgsl_name} layout")),
                    entries: &[
                        wgpu::BindGroupLayoutEntry {
                            binding: 0,
                            visibility: wgpu::ShaderStages::COMPUTE,
                            ty: wgpu::BindingType::Buffer {
                                ty: wgpu::BufferBindingType::Uniform,
                                has_dynamic_offset: false,
                                min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<
                                    FillParams,
                                >(
                                )
                                    as u64),
                            },
                            count: None,
                        },
                        wgpu::BindGroupLayoutEntry {
                            binding,
                            visibility: wgpu::ShaderStages::COMPUTE,
                            ty: wgpu::BindingType::StorageTexture {
                                access: wgpu::StorageTextureAccess::WriteOnly,
                                format,
                                view_dimension,
                            },
                            count: None,
                        },
                    ],
                })
            };
            // The bindings of the entry points in shaders/fill.wgsl.
            let (b2, b3) = if rgba { (6, 7) } else { (1, 2) };
            let b_layers = if rgba { 9 } else { 8 };
            HalfFormat {
                module,
                layout_2d: layout(b2, wgpu::TextureViewDimension::D2),
                layout_3d: layout(b3, wgpu::TextureViewDimension::D3),
                layout_layers: layout(b_layers, wgpu::TextureViewDimension::D2Array),
            }
        });
        let layout = match entry {
            Entry::Fill2d | Entry::Fill2dGradient | Entry::Fill2dCurl => half.layout_2d.clone(),
            Entry::Fill3dLayers
            | Entry::Fill4dLayers
            | Entry::Fill3dGradientLayers
            | Entry::Fill3dCurlLayers => half.layout_layers.clone(),
            _ => half.layout_3d.clone(),
        };
        (half.module.clone(), layout)
    }

    fn output_layout(&self, entry: Entry) -> &wgpu::BindGroupLayout {
        match entry {
            Entry::Fill2d => &self.out_2d_layout,
            Entry::Fill3d | Entry::Fill4d => &self.out_3d_layout,
            Entry::Fill2dGradient | Entry::Fill2dCurl => &self.out_2d_rgba_layout,
            Entry::Fill3dGradient | Entry::Fill3dCurl => &self.out_3d_rgba_layout,
            Entry::Fill3dLayers | Entry::Fill4dLayers => &self.out_layers_layout,
            Entry::Fill3dGradientLayers | Entry::Fill3dCurlLayers => &self.out_layers_rgba_layout,
        }
    }

    /// How many pipelines the cache holds: the fill's specialisations and graphs' own.
    pub(crate) fn compiled(&self) -> usize {
        let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache.fused.len() + cache.graphs.len()
    }

    /// The graph pipeline of a [`GraphKey`], compiled by `compile` on first use (then kept among the
    /// last [`CACHED_GRAPH_PIPELINES`]); a compile error is returned and nothing kept.
    pub(crate) fn graph(
        &self,
        (program, hash_key, entry): (&Program, u32, GraphEntry),
        compile: impl FnOnce() -> Result<GraphPipeline>,
    ) -> Result<GraphPipeline> {
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        let found = cache
            .graphs
            .iter()
            .find(|((p, h, e), _)| p == program && *h == hash_key && *e == entry);
        if let Some((_, pipeline)) = found {
            return Ok(pipeline.clone());
        }
        let pipeline = compile()?;
        if cache.graphs.len() == CACHED_GRAPH_PIPELINES {
            cache.graphs.remove(0);
        }
        let key = (program.clone(), hash_key, entry);
        cache.graphs.push((key, pipeline.clone()));
        Ok(pipeline)
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
            half,
        } = key;
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache
            .fused
            .entry(key)
            .or_insert_with(|| {
                let label = format!("wgpu-noise {} {kind}", entry.name());
                let (module, output_layout) = self.module_and_layout(device, entry, half);
                let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some(&label),
                    bind_group_layouts: &[Some(&self.lookup_layout), Some(&output_layout)],
                    immediate_size: 0,
                });
                let kind_value = f64::from(kind.code());
                let hash_key_id = shader::HASH_KEY_OVERRIDE_ID.to_string();
                let mut constants = vec![("NOISE_KIND", kind_value)];
                if self.variant == LookupVariant::Hash {
                    constants.push((hash_key_id.as_str(), hash_key as f64));
                }
                if let Some(shape) = shape {
                    constants.push(("FILL_OCTAVES", shape.octaves as f64));
                    constants.push(("FILL_MODE", shape.mode as f64));
                    constants.push(("FILL_KERNEL", shape.kernel as f64));
                    constants.push(("FILL_TILED", if shape.tiled { 1.0 } else { 0.0 }));
                    constants.push(("FILL_WARP_OCTAVES", shape.warp_octaves as f64));
                    constants.push(("FILL_WARP_ITERATIONS", shape.warp_iterations as f64));
                    constants.push(("FILL_FLOW", if shape.flow { 1.0 } else { 0.0 }));
                }
                if let Some((output, distance)) = cellular {
                    constants.push(("FILL_CELLULAR_OUTPUT", output as f64));
                    constants.push(("FILL_CELLULAR_DISTANCE", distance as f64));
                }
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(&label),
                    layout: Some(&layout),
                    module: &module,
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

    /// Records a compute pass into `encoder` that fills `fill.target` with the slab
    /// `fill.params` describes: a 2D `R32Float` storage texture for `dims == 2`, a 3D one
    /// for 3, and for 4 a 3D one of depth `extent.z * extent.w` (layer `w * extent.z + z`).
    /// With [`FieldOutput::Gradient`] or [`FieldOutput::Curl`], an `Rgba32Float` target gets
    /// four floats per texel instead (2D and 3D; see [`FieldOutput`]).
    ///
    /// For 3D and 4D, `target` may instead be a view of a 2D array texture
    /// (`TextureViewDimension::D2Array`), one layer per z (4D: per `w * extent.z + z`).
    /// On wgpu's GL backend it must be: there a 3D storage texture is bound one layer
    /// deep, so only z = 0 would be written (docs/backends.md).
    /// Nothing is checked here; [`crate::gpu::GpuNoise::record`] is the checked call for a
    /// texture of the application's own.
    pub fn record_fill(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        fill: &FillPass<'_>,
    ) {
        self.record_fill_as(device, encoder, fill, None);
    }

    /// [`FillPipelines::record_fill`] storing a 16-bit format ([`half_format`]) when
    /// `half` is given.
    fn record_fill_as(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        fill: &FillPass<'_>,
        half: Option<wgpu::TextureFormat>,
    ) {
        let FillPass {
            lookup,
            kind,
            dims,
            params,
            target,
            output,
            hash_key,
        } = *fill;
        let layers = target.texture().dimension() == wgpu::TextureDimension::D2;
        let entry = match (output, dims, layers) {
            (FieldOutput::Value, 2, _) => Entry::Fill2d,
            (FieldOutput::Value, 3, false) => Entry::Fill3d,
            (FieldOutput::Value, 3, true) => Entry::Fill3dLayers,
            (FieldOutput::Value, _, false) => Entry::Fill4d,
            (FieldOutput::Value, _, true) => Entry::Fill4dLayers,
            (FieldOutput::Gradient, 2, _) => Entry::Fill2dGradient,
            (FieldOutput::Gradient, _, false) => Entry::Fill3dGradient,
            (FieldOutput::Gradient, _, true) => Entry::Fill3dGradientLayers,
            (FieldOutput::Curl, 2, _) => Entry::Fill2dCurl,
            (FieldOutput::Curl, _, false) => Entry::Fill3dCurl,
            (FieldOutput::Curl, _, true) => Entry::Fill3dCurlLayers,
        };
        let shape = Some(FillShape::of(&params.settings));
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
                half,
            },
        );
        let (_, output_layout) = self.module_and_layout(device, entry, half);
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("wgpu-noise fill params"),
            contents: bytemuck::bytes_of(params),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let target_binding = match entry {
            Entry::Fill2d => 1,
            Entry::Fill2dGradient | Entry::Fill2dCurl => 6,
            Entry::Fill3dGradient | Entry::Fill3dCurl => 7,
            Entry::Fill3dLayers | Entry::Fill4dLayers => 8,
            Entry::Fill3dGradientLayers | Entry::Fill3dCurlLayers => 9,
            _ => 2,
        };
        let output = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("wgpu-noise fill output"),
            layout: &output_layout,
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
}

impl GpuNoise {
    /// Records into `encoder` the fused fill of `field` (noise options included) into the
    /// storage texture `texture`: [`GpuNoise::record`]'s kernel for a plan the fill
    /// computes. Errors as [`GpuNoise::record`]'s.
    pub(crate) fn record_fused(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        field: &FlagField,
        output: FieldOutput,
        texture: &wgpu::Texture,
    ) -> Result<()> {
        let device = self.device();
        let half = fused_format(device, texture.format(), output)?;
        output.check(field)?;
        check_target(field, texture)?;
        let layers = texture.dimension() == wgpu::TextureDimension::D2 && field.dims >= 3;
        if texture.dimension() == wgpu::TextureDimension::D3
            && device.adapter_info().backend == wgpu::Backend::Gl
        {
            // wgpu's GL backend binds a 3D storage texture one layer deep: only z = 0
            // would be written (docs/backends.md).
            return Err(NoiseError::InvalidArgument(
                "on wgpu's GL backend a 3D storage texture is written only at z = 0; \
                 fill a 2D array texture with one layer per z (4D: per w·z_size + z) instead"
                    .into(),
            ));
        }
        if layers
            && device.adapter_info().backend == wgpu::Backend::Gl
            && super::generator::would_be_a_cube_map(true, texture.size())
        {
            // wgpu's GL backend made this texture a cube map (square layers, a multiple of
            // 6 of them): a 2D array view of it writes the wrong texels (docs/backends.md).
            return Err(NoiseError::InvalidArgument(format!(
                "on wgpu's GL backend a 2D texture of {} square layers is created as a cube \
                 map, which the fill cannot write as layers; create it with one more layer \
                 (or non-square layers)",
                texture.size().depth_or_array_layers
            )));
        }
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("wgpu-noise field target"),
            dimension: layers.then_some(wgpu::TextureViewDimension::D2Array),
            base_mip_level: 0,
            mip_level_count: Some(1),
            ..Default::default()
        });
        let params = FillParams::new(field, Slab::whole(field));
        let scope = ErrorScope::push(device, wgpu::ErrorFilter::Validation);
        self.pipelines().record_fill_as(
            device,
            encoder,
            &FillPass {
                lookup: self.lookup_bind_group(),
                kind: field.kind,
                dims: field.dims,
                params: &params,
                target: &view,
                output,
                hash_key: self.hash_key(),
            },
            half,
        );
        scope.pop()
    }
}

/// Whether the hand-written fill stores `output` to `format` on `device`: `None` for the
/// output's 32-bit format, the format for its 16-bit twin where the device guarantees
/// storage to it, else why not.
pub(crate) fn fused_format(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    output: FieldOutput,
) -> Result<Option<wgpu::TextureFormat>> {
    let rgba = output.texture_channels() == 4;
    match half_format(format) {
        _ if format == output.texture_format() => Ok(None),
        Some((_, four)) if four == rgba && storable(device, format) => Ok(Some(format)),
        _ => Err(unsupported_format(format, output)),
    }
}

/// Whether `device` can certainly use `format` as a storage texture (its features
/// guarantee it; adapter-specific extras are not assumed).
fn storable(device: &wgpu::Device, format: wgpu::TextureFormat) -> bool {
    format
        .guaranteed_format_features(device.features())
        .allowed_usages
        .contains(wgpu::TextureUsages::STORAGE_BINDING)
}

/// Why `format` is refused for `output`.
fn unsupported_format(format: wgpu::TextureFormat, output: FieldOutput) -> NoiseError {
    let offered = match output {
        FieldOutput::Value => "the fill writes values to R32Float or R16Float",
        FieldOutput::Gradient => "the fill writes value and gradient to Rgba32Float or Rgba16Float",
        FieldOutput::Curl => "the fill writes curl noise to Rgba32Float or Rgba16Float",
    };
    NoiseError::UnsupportedFormat {
        format: format!("{format:?}"),
        // A 16-bit format of the output's channels is refused only when the device cannot
        // store to it.
        reason: match half_format(format) {
            Some((_, rgba)) if rgba == (output.texture_channels() == 4) => {
                format!("this device's features do not guarantee storage to it; {offered}")
            }
            _ => offered.to_string(),
        },
    }
}

/// The texture's dimension, size and usage against the field's.
fn check_target(field: &Field, texture: &wgpu::Texture) -> Result<()> {
    let bad = |m: String| Err(NoiseError::InvalidArgument(m));
    if !texture
        .usage()
        .contains(wgpu::TextureUsages::STORAGE_BINDING)
    {
        return bad("the target texture needs TextureUsages::STORAGE_BINDING".into());
    }
    let [nx, ny, nz, nw] = field.size;
    let (dimension, depth) = match field.dims {
        2 => (wgpu::TextureDimension::D2, 1),
        3 => (wgpu::TextureDimension::D3, nz),
        _ => (wgpu::TextureDimension::D3, nz.saturating_mul(nw)),
    };
    // A 3D or 4D field also fills a 2D array texture, one layer per z (the GL backend's way).
    let layered = field.dims >= 3 && texture.dimension() == wgpu::TextureDimension::D2;
    if texture.dimension() != dimension && !layered {
        return bad(format!(
            "a {}D field fills a {dimension:?} texture (or a 2D array), not a {:?} one",
            field.dims,
            texture.dimension()
        ));
    }
    let size = texture.size();
    let have = [size.width, size.height, size.depth_or_array_layers];
    if have != [nx, ny, depth] {
        return bad(format!(
            "the target texture is {}×{}×{}, the {}D field needs {nx}×{ny}×{depth}",
            have[0], have[1], have[2], field.dims
        ));
    }
    Ok(())
}
