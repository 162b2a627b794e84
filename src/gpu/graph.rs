//! Noise graphs on the GPU: a lowered graph compiled to one fused compute shader (no
//! intermediate textures), filling boxes of a field into a storage buffer.

use wgpu::util::DeviceExt;

use super::generator::GpuNoise;
use super::readback::{map_and_read, padded_row_bytes, staging_buffer};
use crate::error::{ErrorScope, NoiseError, Result};
use crate::field::{Field, FieldOutput, NoiseKind};
use crate::graph::{wgsl, Program};
use crate::params::FillParams;
use crate::shader::{self, ApiNames, LookupVariant, FILL_LOOKUP_GROUP};

/// Invocations per workgroup of `fill_graph`.
pub const GRAPH_WORKGROUP: u32 = 64;

/// The most noise functions one submit evaluates: few enough that no single submit holds
/// a slow adapter (a software one such as lavapipe) for long.
pub const NOISE_CALLS_PER_SUBMIT: u64 = 1 << 24;

/// The uniform of `fill_graph`: the box of the field (the first four members of
/// [`FillParams`], so both sample the same points) and the invocations per row of
/// workgroups.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct GraphFillParams {
    pub offset: [f32; 4],
    pub step: [f32; 4],
    pub origin: [u32; 4],
    pub extent: [u32; 4],
    /// `x`: invocations per `y` (workgroups along x × [`GRAPH_WORKGROUP`]); `y`: texels
    /// per row in `graph_values` (the box's width, or more for rows padded to a texture
    /// copy's alignment); `z`: values per texel of a curl (`dims`, or 4 for a texture).
    pub stride: [u32; 4],
}

const ENTRY_HEADER_WGSL: &str = r#"
struct GraphFillParams {
    offset: vec4<f32>,
    step: vec4<f32>,
    origin: vec4<u32>,
    extent: vec4<u32>,
    stride: vec4<u32>,
}

@group(1) @binding(0) var<uniform> graph_params: GraphFillParams;
@group(1) @binding(1) var<storage, read_write> graph_values: array<f32>;
"#;

/// The points entry point named `name`: one invocation per point of `graph_points`
/// (`extent.x` of them), `store` writing value number `texel` from the point `p`.
fn points_entry_wgsl(name: &str, store: &str) -> String {
    format!(
        r#"
@group(1) @binding(2) var<storage, read> graph_points: array<vec4<f32>>;

@compute @workgroup_size({GRAPH_WORKGROUP}, 1, 1)
fn {name}(@builtin(global_invocation_id) id: vec3<u32>) {{
    let texel = id.x + id.y * graph_params.stride.x;
    if (texel >= graph_params.extent.x) {{ return; }}
    let p = graph_points[texel];
{store}
}}
"#
    )
}

/// A fill entry point named `name`: one invocation per texel of the box, x fastest (the
/// sampling convention of fill.wgsl), `store` writing texel `texel` (the index within the
/// box's rows of `stride.y` texels) from the point `p`.
fn fill_entry_wgsl(name: &str, store: &str) -> String {
    format!(
        r#"
@compute @workgroup_size({GRAPH_WORKGROUP}, 1, 1)
fn {name}(@builtin(global_invocation_id) id: vec3<u32>) {{
    let e = graph_params.extent;
    let i = id.x + id.y * graph_params.stride.x;
    if (i >= e.x * e.y * e.z * e.w) {{ return; }}
    let index = vec4<u32>(i % e.x, (i / e.x) % e.y, (i / (e.x * e.y)) % e.z, i / (e.x * e.y * e.z));
    let p = graph_params.offset + graph_params.step * vec4<f32>(graph_params.origin + index);
    let row = index.y + e.y * (index.z + e.z * index.w);
    let texel = index.x + graph_params.stride.y * row;
{store}
}}
"#
    )
}

/// The WGSL statements storing `output` of the graph at `p` for texel (or point) `texel`
/// of `graph_values`: one value, four (value and gradient), or `dims` curl components
/// followed by zeros up to `stride.z` values per texel (`dims` for the CPU's layout, 4
/// for an `Rgba32Float` texture).
fn store_wgsl(output: FieldOutput, dims: usize) -> String {
    match output {
        FieldOutput::Value => "    graph_values[texel] = wgpu_noise_graph(p);".to_string(),
        FieldOutput::Gradient => "    let d = wgpu_noise_graph_gradient(p);\n    \
                                  graph_values[4u * texel] = d[0];\n    \
                                  graph_values[4u * texel + 1u] = d[1];\n    \
                                  graph_values[4u * texel + 2u] = d[2];\n    \
                                  graph_values[4u * texel + 3u] = d[3];"
            .to_string(),
        FieldOutput::Curl => {
            let mut store = "    let v = wgpu_noise_graph_curl(p);\n    \
                             let at = graph_params.stride.z * texel;"
                .to_string();
            for c in 0..dims {
                store += &format!("\n    graph_values[at + {c}u] = v[{c}];");
            }
            store += &format!(
                "\n    for (var c = {dims}u; c < graph_params.stride.z; c++) {{ \
                 graph_values[at + c] = 0.0; }}"
            );
            store
        }
    }
}

/// The whole WGSL source of a graph's value pipelines (the fill and the point list).
pub fn graph_fill_wgsl(program: &Program, variant: LookupVariant) -> String {
    graph_output_wgsl(program, variant, FieldOutput::Value)
}

/// The whole WGSL source of the pipelines computing `output` of `program` over a box
/// (`fill_graph`, `fill_graph_gradient`, `fill_graph_curl`) and at a list of points
/// (`evaluate_graph`, `evaluate_graph_gradient`, `evaluate_graph_curl`): the value, the
/// value and gradient (four values per texel) or the curl (2D and 3D, `stride.z` values
/// per texel).
///
/// # Panics
/// For the curl of a 4D program (callers check: [`GpuNoise::graph_pipeline`]).
pub fn graph_output_wgsl(program: &Program, variant: LookupVariant, output: FieldOutput) -> String {
    let noise = shader::noise_functions_wgsl_with(variant, FILL_LOOKUP_GROUP);
    let gradient =
        || wgsl::gradient_function(program, "wgpu_noise_graph_gradient", ApiNames::Plain);
    let functions = match output {
        FieldOutput::Value => wgsl::function(program, "wgpu_noise_graph", ApiNames::Plain),
        FieldOutput::Gradient => gradient(),
        FieldOutput::Curl => format!(
            "{}\n{}",
            gradient(),
            wgsl::curl_function(
                program,
                "wgpu_noise_graph_curl",
                "wgpu_noise_graph_gradient",
                ApiNames::Plain
            )
        ),
    };
    let store = store_wgsl(output, program.dims);
    format!(
        "{noise}\n{functions}\n{ENTRY_HEADER_WGSL}{}{}",
        fill_entry_wgsl(GraphEntry::Fill(output).name(), &store),
        points_entry_wgsl(GraphEntry::Points(output).name(), &store)
    )
}

/// What a graph pipeline computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphEntry {
    /// `fill_graph` (and its `_gradient`, `_curl` forms): `output` at the texels of a box of
    /// a field.
    Fill(FieldOutput),
    /// `evaluate_graph` (and its `_gradient`, `_curl` forms): `output` at a list of points.
    Points(FieldOutput),
}

impl GraphEntry {
    /// The entry point's name in the shader.
    pub fn name(self) -> &'static str {
        match self {
            GraphEntry::Fill(FieldOutput::Value) => "fill_graph",
            GraphEntry::Fill(FieldOutput::Gradient) => "fill_graph_gradient",
            GraphEntry::Fill(FieldOutput::Curl) => "fill_graph_curl",
            GraphEntry::Points(FieldOutput::Value) => "evaluate_graph",
            GraphEntry::Points(FieldOutput::Gradient) => "evaluate_graph_gradient",
            GraphEntry::Points(FieldOutput::Curl) => "evaluate_graph_curl",
        }
    }

    fn output(self) -> FieldOutput {
        match self {
            GraphEntry::Fill(output) | GraphEntry::Points(output) => output,
        }
    }
}

/// A graph compiled for one device and lookup variant.
#[derive(Clone, Debug)]
pub struct GraphPipeline {
    entry: GraphEntry,
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    /// Noise calls per texel: the program's, three times over for a 3D curl.
    noise_calls: u64,
    dims: usize,
    /// The program's [`Program::lattice`]: how a field's offset may be reduced.
    lattice: Option<NoiseKind>,
}

impl GraphPipeline {
    /// `f32`s per texel of its output: 1 (value), 4 (value and gradient) or `dims` (curl),
    /// as the CPU fills write them.
    pub fn channels(&self) -> usize {
        self.entry.output().values_per_sample(self.dims)
    }

    /// What it computes.
    pub fn output(&self) -> FieldOutput {
        self.entry.output()
    }
}

impl GpuNoise {
    internal! {
        /// The fill pipeline of `program`'s `output` for this generator's lookup variant (and,
        /// for the hash variant, its seed): its value, its value and analytic gradient
        /// (`[value, ∂/∂x, ∂/∂y, ∂/∂z]` per texel, as `graph::eval::fill_slab_gradient`) or its
        /// curl (2D and 3D, `dims` values per texel, as `graph::eval::fill_slab_curl`). Compiled
        /// on first use, then taken from a cache of the last few graphs.
        pub fn graph_pipeline(&self, program: &Program, output: FieldOutput) -> Result<GraphPipeline> {
            check_output(program, output)?;
            self.cached_graph_pipeline(program, GraphEntry::Fill(output))
        }
    }

    /// [`GpuNoise::graph_pipeline`] for `entry`.
    fn cached_graph_pipeline(&self, program: &Program, entry: GraphEntry) -> Result<GraphPipeline> {
        self.pipelines().graph((program, self.hash_key(), entry), || {
            let wgsl = graph_output_wgsl(program, self.pipelines().variant(), entry.output());
            self.compile_graph(&wgsl, program, entry)
        })
    }

    /// Compiles the pipeline of `program`'s `entry`, whose whole shader is `wgsl`.
    fn compile_graph(
        &self,
        wgsl: &str,
        program: &Program,
        entry: GraphEntry,
    ) -> Result<GraphPipeline> {
        let device = self.device();
        let scope = ErrorScope::push(device, wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("wgpu-noise graph fill shader"),
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        });
        let binding = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty,
            count: None,
        };
        let storage = |read_only| wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        };
        let mut entries = vec![
            binding(
                0,
                wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(
                        std::mem::size_of::<GraphFillParams>() as u64
                    ),
                },
            ),
            binding(1, storage(false)),
        ];
        if matches!(entry, GraphEntry::Points(_)) {
            entries.push(binding(2, storage(true)));
        }
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("wgpu-noise graph fill layout"),
            entries: &entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("wgpu-noise graph fill pipeline layout"),
            bind_group_layouts: &[Some(self.pipelines().lookup_layout()), Some(&layout)],
            immediate_size: 0,
        });
        let hash_key_id = shader::HASH_KEY_OVERRIDE_ID.to_string();
        let mut constants = Vec::new();
        if self.pipelines().variant() == LookupVariant::Hash {
            constants.push((hash_key_id.as_str(), self.hash_key() as f64));
        }
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("wgpu-noise graph fill"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(entry.name()),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                ..Default::default()
            },
            cache: None,
        });
        scope.pop()?;
        // A gradient evaluates each source once (with its derivatives); a 3D curl evaluates
        // the gradient at three points.
        let copies = if entry.output() == FieldOutput::Curl && program.dims == 3 {
            3
        } else {
            1
        };
        Ok(GraphPipeline {
            entry,
            pipeline,
            layout,
            noise_calls: program.noise_calls().max(1) as u64 * copies,
            dims: program.dims,
            lattice: program.lattice(),
        })
    }

    internal! {
        /// The most texels of one submit of `pipeline` (`NOISE_CALLS_PER_SUBMIT`), within the
        /// device's storage binding size for its output.
        pub fn graph_box_texels(&self, pipeline: &GraphPipeline) -> u64 {
            let binding = self.device().limits().max_storage_buffer_binding_size
                / (4 * pipeline.channels() as u64);
            (NOISE_CALLS_PER_SUBMIT / pipeline.noise_calls)
                .max(GRAPH_WORKGROUP as u64)
                .min(binding)
                .max(1)
        }
    }

    internal! {
        /// Fills the box `params` describes with `pipeline`'s graph in one submit, appending
        /// its output (x fastest, [`GraphPipeline::channels`] values per texel) to `out`. Keep
        /// boxes within [`GpuNoise::graph_box_texels`] (`FillParams::boxes` cuts a field so) for
        /// short submits.
        pub fn fill_graph_box(
            &self,
            pipeline: &GraphPipeline,
            params: &FillParams,
            out: &mut Vec<f32>,
        ) -> Result<()> {
            if !matches!(pipeline.entry, GraphEntry::Fill(_)) {
                return Err(NoiseError::InvalidArgument(
                    "this graph pipeline evaluates a list of points, not a box".into(),
                ));
            }
            let texels = params.len() as u64;
            let bytes = self.graph_buffer_bytes(texels.saturating_mul(pipeline.channels() as u64))?;
            if texels == 0 {
                return Ok(());
            }
            let device = self.device();
            let scope = ErrorScope::push(device, wgpu::ErrorFilter::Validation);
            let values = self.graph_values_buffer(bytes);
            let staging = staging_buffer(device, "wgpu-noise graph readback", bytes);
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("wgpu-noise graph fill"),
            });
            let channels = pipeline.channels() as u32;
            self.record_graph_box(
                &mut encoder,
                pipeline,
                params,
                &values,
                [params.extent[0], channels],
            )?;
            encoder.copy_buffer_to_buffer(&values, 0, &staging, 0, bytes);
            let submission = self.queue().submit([encoder.finish()]);
            scope.pop()?;
            map_and_read(device, &staging, submission, self.options.timeout, |b| {
                out.extend_from_slice(bytemuck::cast_slice(b));
            })
        }
    }

    /// Records the fill of `field` with `pipeline`'s graph into `texture` through buffers
    /// copied into it: [`GpuNoise::record`]'s kernel for any plan into a `COPY_DST`
    /// texture (its checks are [`check_graph_target`]'s). The work is recorded as
    /// dispatches of at most `NOISE_CALLS_PER_SUBMIT` noise calls each.
    pub(crate) fn record_graph(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        pipeline: &GraphPipeline,
        field: &Field,
        texture: &wgpu::Texture,
    ) -> Result<()> {
        field.validate()?;
        if pipeline.dims != field.dims {
            return Err(NoiseError::InvalidArgument(format!(
                "the graph was lowered for {}D, the field is {}D",
                pipeline.dims, field.dims
            )));
        }
        let GraphEntry::Fill(output) = pipeline.entry else {
            return Err(NoiseError::InvalidArgument(
                "this graph pipeline evaluates a list of points, not a field".into(),
            ));
        };
        check_graph_target(field, texture, output)?;
        let field = &crate::graph::program::sampled_field(pipeline.lattice, field);
        let device = self.device();
        let scope = ErrorScope::push(device, wgpu::ErrorFilter::Validation);
        let [nx, _, nz, _] = field.size;
        // Texels of `channels` floats, rows padded to the alignment a buffer-to-texture copy
        // needs (`pitch` texels).
        let channels = output.texture_channels();
        let texel_bytes = 4 * channels;
        let pitch = padded_row_bytes(nx * channels) / texel_bytes;
        let row_bytes = pitch as u64 * texel_bytes as u64;
        let limit = device.limits().max_storage_buffer_binding_size / row_bytes;
        let max_texels = self
            .graph_box_texels(pipeline)
            .min(limit.max(1) * nx as u64);
        let start = field.origin();
        for params in FillParams::boxes(field, max_texels) {
            let [ex, ey, ez, ew] = params.extent;
            let rows = ey as u64 * ez as u64 * ew as u64;
            let bytes = self.graph_buffer_bytes(rows * pitch as u64 * channels as u64)?;
            let values = self.graph_values_buffer(bytes);
            self.record_graph_box(encoder, pipeline, &params, &values, [pitch, channels])?;
            let origin: [u32; 4] = std::array::from_fn(|a| params.origin[a] - start[a]);
            // One copy per w: the layers of a 4D box are contiguous only within one volume.
            for w in 0..ew {
                encoder.copy_buffer_to_texture(
                    wgpu::TexelCopyBufferInfo {
                        buffer: &values,
                        layout: wgpu::TexelCopyBufferLayout {
                            offset: w as u64 * ey as u64 * ez as u64 * row_bytes,
                            bytes_per_row: Some(pitch * texel_bytes),
                            rows_per_image: Some(ey),
                        },
                    },
                    wgpu::TexelCopyTextureInfo {
                        texture,
                        mip_level: 0,
                        origin: wgpu::Origin3d {
                            x: origin[0],
                            y: origin[1],
                            z: origin[2] + (origin[3] + w) * nz,
                        },
                        aspect: wgpu::TextureAspect::All,
                    },
                    wgpu::Extent3d {
                        width: ex,
                        height: ey,
                        depth_or_array_layers: ez,
                    },
                );
            }
        }
        scope.pop()
    }

    /// The bytes of a buffer of `values` `f32`s, within the device's storage binding limit.
    fn graph_buffer_bytes(&self, values: u64) -> Result<u64> {
        let limit = self.device().limits().max_storage_buffer_binding_size;
        values
            .checked_mul(4)
            .filter(|&b| b <= limit)
            .ok_or_else(|| NoiseError::ExceedsLimit {
                what: "graph fill box (bytes)".into(),
                requested: values.saturating_mul(4),
                limit,
            })
    }

    fn graph_values_buffer(&self, bytes: u64) -> wgpu::Buffer {
        self.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgpu-noise graph values"),
            size: bytes.max(4),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })
    }

    /// Records one dispatch of `pipeline` over the box `params` into `encoder`, writing
    /// `values` with `pitch` texels per row and (for a curl) `channels` values per texel.
    fn record_graph_box(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        pipeline: &GraphPipeline,
        params: &FillParams,
        values: &wgpu::Buffer,
        [pitch, channels]: [u32; 2],
    ) -> Result<()> {
        debug_assert!(matches!(pipeline.entry, GraphEntry::Fill(_)));
        let uniform = |invocations_per_row| GraphFillParams {
            offset: params.offset,
            step: params.step,
            origin: params.origin,
            extent: params.extent,
            stride: [invocations_per_row, pitch, channels, 0],
        };
        self.record_dispatch(
            encoder,
            pipeline,
            params.len() as u64,
            uniform,
            values,
            None,
        )
    }

    /// Records one dispatch of `pipeline` over `invocations` into `encoder`: workgroups
    /// in rows of at most the device's limit, the uniform made by `uniform` from the
    /// invocations per row, `values` (and `points`) bound.
    fn record_dispatch(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        pipeline: &GraphPipeline,
        invocations: u64,
        uniform: impl FnOnce(u32) -> GraphFillParams,
        values: &wgpu::Buffer,
        points: Option<&wgpu::Buffer>,
    ) -> Result<()> {
        let device = self.device();
        let groups = invocations.div_ceil(GRAPH_WORKGROUP as u64);
        let max = device.limits().max_compute_workgroups_per_dimension as u64;
        let x = groups.min(max);
        let y = groups.div_ceil(x.max(1));
        if y > max {
            return Err(NoiseError::ExceedsLimit {
                what: "graph fill workgroups".into(),
                requested: groups,
                limit: max * max,
            });
        }
        let uniform = uniform((x * GRAPH_WORKGROUP as u64) as u32);
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("wgpu-noise graph fill params"),
            contents: bytemuck::bytes_of(&uniform),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let mut entries = vec![
            wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: values.as_entire_binding(),
            },
        ];
        if let Some(points) = points {
            entries.push(wgpu::BindGroupEntry {
                binding: 2,
                resource: points.as_entire_binding(),
            });
        }
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("wgpu-noise graph fill bind group"),
            layout: &pipeline.layout,
            entries: &entries,
        });
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("wgpu-noise graph fill"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&pipeline.pipeline);
        pass.set_bind_group(0, self.lookup_bind_group(), &[]);
        pass.set_bind_group(1, &bind_group, &[]);
        pass.dispatch_workgroups(x as u32, y as u32, 1);
        Ok(())
    }

    /// `output` of `program` at each of `points` (coordinates past its dimensions
    /// ignored), [`FieldOutput::values_per_sample`] values per point, in submits of at most
    /// `NOISE_CALLS_PER_SUBMIT` noise calls: the GPU twin of `graph::eval::value::<f32>`,
    /// `graph::eval::value_and_gradient::<f32>` (its first four values) and
    /// `graph::eval::curl::<f32>` (2D and 3D).
    pub fn evaluate_graph(
        &self,
        program: &Program,
        output: FieldOutput,
        points: &[[f32; 4]],
    ) -> Result<Vec<f32>> {
        check_output(program, output)?;
        let pipeline = self.cached_graph_pipeline(program, GraphEntry::Points(output))?;
        let channels = pipeline.channels() as u32;
        let device = self.device();
        // 16 bytes per point: the points buffer is the larger of the two.
        let binding = device.limits().max_storage_buffer_binding_size / 16;
        let batch = self.graph_box_texels(&pipeline).min(binding).max(1) as usize;
        let mut out = Vec::with_capacity(points.len());
        for batch in points.chunks(batch) {
            let n = batch.len() as u64;
            let scope = ErrorScope::push(device, wgpu::ErrorFilter::Validation);
            let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("wgpu-noise graph points"),
                contents: bytemuck::cast_slice(batch),
                usage: wgpu::BufferUsages::STORAGE,
            });
            let bytes = self.graph_buffer_bytes(n * channels as u64)?;
            let values = self.graph_values_buffer(bytes);
            let staging = staging_buffer(device, "wgpu-noise graph readback", bytes);
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("wgpu-noise graph points"),
            });
            let uniform = |invocations_per_row| GraphFillParams {
                offset: [0.0; 4],
                step: [0.0; 4],
                origin: [0; 4],
                extent: [n as u32, 1, 1, 1],
                stride: [invocations_per_row, n as u32, channels, 0],
            };
            self.record_dispatch(&mut encoder, &pipeline, n, uniform, &values, Some(&input))?;
            encoder.copy_buffer_to_buffer(&values, 0, &staging, 0, bytes);
            let submission = self.queue().submit([encoder.finish()]);
            scope.pop()?;
            map_and_read(device, &staging, submission, self.options.timeout, |b| {
                out.extend_from_slice(bytemuck::cast_slice(b));
            })?;
        }
        Ok(out)
    }
}

/// Checks that `program` has `output`: curl noise is 2D or 3D.
fn check_output(program: &Program, output: FieldOutput) -> Result<()> {
    if output == FieldOutput::Curl && !(2..=3).contains(&program.dims) {
        return Err(NoiseError::InvalidArgument(format!(
            "curl noise is 2D or 3D; the graph was lowered for {}D",
            program.dims
        )));
    }
    Ok(())
}

/// Checks that `texture` can take `output` of `field` through copies of a graph's fill.
fn check_graph_target(field: &Field, texture: &wgpu::Texture, output: FieldOutput) -> Result<()> {
    let [nx, ny, nz, nw] = field.size;
    let layers = nz as u64 * nw as u64;
    let size = texture.size();
    let problem = if texture.format() != output.texture_format() {
        Some(format!(
            "its format is {:?}, not {:?} (the {output:?} output's)",
            texture.format(),
            output.texture_format()
        ))
    } else if !texture.usage().contains(wgpu::TextureUsages::COPY_DST) {
        Some("it lacks the COPY_DST usage".to_string())
    } else if texture.dimension() == wgpu::TextureDimension::D1 {
        Some("it is a 1D texture".to_string())
    } else if (size.width, size.height, size.depth_or_array_layers as u64) != (nx, ny, layers) {
        Some(format!(
            "it is {}×{}×{}, the field needs {nx}×{ny}×{layers} (x × y × z·w)",
            size.width, size.height, size.depth_or_array_layers
        ))
    } else if texture.mip_level_count() != 1 || texture.sample_count() != 1 {
        Some("it has mip levels or samples beyond one".to_string())
    } else {
        None
    };
    match problem {
        Some(why) => Err(NoiseError::InvalidArgument(format!(
            "the texture cannot hold this graph fill: {why}"
        ))),
        None => Ok(()),
    }
}
