//! Shared by the embedding tests: run a composed compute shader of the application's own
//! (its buffers at group 0, the noise's textures at a group of its choosing) and compare
//! what it wrote with the CPU `f32` reference.
#![allow(dead_code)]

use std::time::Duration;

use wgpu::util::DeviceExt;
use wgpu_noise::cpu::{self, NoiseHasher};
use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};
use wgpu_noise::gpu::readback::map_and_read;
use wgpu_noise::shader::HASH_KEY_OVERRIDE_ID;
use wgpu_noise::tables::hash_key_for_seed;
use wgpu_noise::NoiseKind;

/// The documented parity tolerance of the compute path (absolute).
pub const TOLERANCE: f32 = 1e-5;

/// The six functions, in the order the kernels below write them per point.
pub const SIX: [(&str, NoiseKind, usize); 6] = [
    ("classic2", NoiseKind::Classic, 2),
    ("classic3", NoiseKind::Classic, 3),
    ("classic4", NoiseKind::Classic, 4),
    ("simplex2", NoiseKind::Simplex, 2),
    ("simplex3", NoiseKind::Simplex, 3),
    ("simplex4", NoiseKind::Simplex, 4),
];

/// The application's buffers, as every kernel of these tests declares them.
pub const APP_BINDINGS: &str = "
@group(0) @binding(0) var<storage, read> points: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> values: array<f32>;
";

/// The body of a kernel writing the six functions (named `{prefix}classic2`, ...) at
/// each point: `main`, workgroup size 64.
pub fn six_function_kernel(prefix: &str) -> String {
    let mut body = String::from(
        "@compute @workgroup_size(64)\nfn main(@builtin(global_invocation_id) id: vec3<u32>) {\n    \
         let i = id.x;\n    if (i >= arrayLength(&points)) { return; }\n    let p = points[i];\n",
    );
    for (k, (name, _, dims)) in SIX.iter().enumerate() {
        let arg = ["p.xy", "p.xyz", "p"][dims - 2];
        body.push_str(&format!(
            "    values[6u * i + {k}u] = {prefix}{name}({arg});\n"
        ));
    }
    body.push_str("}\n");
    body
}

/// A kernel (`main`, workgroup size 64) over [`APP_BINDINGS`] after `functions` (the noise
/// source): `body` computes the point `p`'s `components` values into the array `out`
/// (with `i` the point's index), which the kernel writes to `values`.
pub fn points_kernel(functions: &str, body: &str, components: usize) -> String {
    format!(
        "{functions}\n{APP_BINDINGS}\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
             let i = id.x;\n\
             if (i >= arrayLength(&points)) {{ return; }}\n\
             let p = points[i];\n\
             {body}\n\
             for (var k = 0u; k < {components}u; k = k + 1u) {{ values[{components}u * i + k] = out[k]; }}\n\
         }}\n"
    )
}

/// Scattered points over [-300, 300)⁴ (a fixed linear congruential sequence): negative
/// cells and more than one 256-cell period.
pub fn points(n: usize) -> Vec<[f32; 4]> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 40) as f32 / (1u64 << 24) as f32) * 600.0 - 300.0
    };
    (0..n).map(|_| [next(), next(), next(), next()]).collect()
}

/// The noise's side of a pipeline: its bind group layout and bind group at `group`
/// (none for the hash variant), and pipeline constants by name or id.
pub struct NoiseSide<'a> {
    pub group: u32,
    pub binding: Option<(&'a wgpu::BindGroupLayout, &'a wgpu::BindGroup)>,
    pub constants: Vec<(String, f64)>,
}

impl<'a> NoiseSide<'a> {
    /// The texture variant's side: `noise`'s layout and bind group at its group.
    pub fn textures(noise: &'a NoiseBindings) -> Self {
        NoiseSide {
            group: noise.group(),
            binding: Some((noise.layout(), noise.bind_group())),
            constants: vec![],
        }
    }

    /// The hash variant's side at `group`: no bindings; the seed's key goes in by the
    /// override's id (the module systems rename the override itself).
    pub fn hash(group: u32, seed: u64) -> Self {
        NoiseSide {
            group,
            binding: None,
            constants: vec![(
                HASH_KEY_OVERRIDE_ID.to_string(),
                hash_key_for_seed(seed) as f64,
            )],
        }
    }
}

/// The lookup textures of `seed` bound at `group` for compute shaders.
pub fn compute_bindings(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    group: u32,
    seed: u64,
) -> NoiseBindings {
    NoiseBindings::new(
        device,
        queue,
        &NoiseBindingsDescriptor {
            group,
            seed,
            visibility: wgpu::ShaderStages::COMPUTE,
        },
    )
    .expect("lookup textures")
}

/// The application's side of the test kernels: `points` in, `values` out (group 0, as
/// [`APP_BINDINGS`] declares them), and a staging buffer to read `values` back.
pub struct AppBuffers {
    pub layout: wgpu::BindGroupLayout,
    pub group: wgpu::BindGroup,
    output: wgpu::Buffer,
    staging: wgpu::Buffer,
    bytes: u64,
    /// Workgroups of 64 that cover the points.
    pub workgroups: u32,
}

impl AppBuffers {
    /// Buffers for `points` and `per_point` output floats per point.
    pub fn new(device: &wgpu::Device, points: &[[f32; 4]], per_point: usize) -> Self {
        let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("test points"),
            contents: bytemuck::cast_slice(points),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let bytes = (points.len() * per_point * 4) as u64;
        let output = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("test values"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("test values readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let storage = |binding, read_only| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("test app layout"),
            entries: &[storage(0, true), storage(1, false)],
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("test app group"),
            layout: &layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: input.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: output.as_entire_binding(),
                },
            ],
        });
        AppBuffers {
            layout,
            group,
            output,
            staging,
            bytes,
            workgroups: (points.len() as u32).div_ceil(64),
        }
    }

    /// Copies `values` to the staging buffer at the end of `encoder`, submits it and
    /// reads the values back.
    pub fn submit_and_read(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        mut encoder: wgpu::CommandEncoder,
    ) -> Vec<f32> {
        encoder.copy_buffer_to_buffer(&self.output, 0, &self.staging, 0, self.bytes);
        let submission = queue.submit([encoder.finish()]);
        map_and_read(
            device,
            &self.staging,
            submission,
            Duration::from_secs(120),
            |b| bytemuck::cast_slice(b).to_vec(),
        )
        .expect("readback")
    }
}

/// Compiles `wgsl` (a complete shader: the application's `points`/`values` at group 0
/// and its `main`), runs it over `points` with `noise` bound, and returns `values`
/// (`per_point` floats per point).
pub fn run_kernel(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    wgsl: &str,
    noise: &NoiseSide<'_>,
    points: &[[f32; 4]],
    per_point: usize,
) -> Vec<f32> {
    let app = AppBuffers::new(device, points, per_point);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("test kernel"),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let mut layouts: Vec<Option<&wgpu::BindGroupLayout>> = vec![Some(&app.layout)];
    if let Some((layout, _)) = noise.binding {
        layouts.resize(noise.group as usize + 1, None);
        layouts[noise.group as usize] = Some(layout);
    }
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("test kernel layout"),
        bind_group_layouts: &layouts,
        immediate_size: 0,
    });
    let constants: Vec<(&str, f64)> = noise
        .constants
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("test kernel pipeline"),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some("main"),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants: &constants,
            ..Default::default()
        },
        cache: None,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &app.group, &[]);
        if let Some((_, group)) = noise.binding {
            pass.set_bind_group(noise.group, group, &[]);
        }
        pass.dispatch_workgroups(app.workgroups, 1, 1);
    }
    if let Some(e) = pollster::block_on(scope.pop()) {
        panic!("wgpu refused the test kernel: {e}\n{wgsl}");
    }
    app.submit_and_read(device, queue, encoder)
}

/// Max |GPU − CPU f32| of each of the six functions (`values` as the six-function kernel
/// writes them; NaN counts as infinite). Asserts each is within [`TOLERANCE`] and that
/// most values are nonzero (the kernel really ran); `what` names the case in messages.
pub fn check_six(what: &str, values: &[f32], points: &[[f32; 4]], lut: &impl NoiseHasher) -> f32 {
    let mut worst = 0.0f32;
    for (f, (name, kind, dims)) in SIX.iter().enumerate() {
        let mut max = 0.0f32;
        let mut nonzero = 0;
        for (i, p) in points.iter().enumerate() {
            let g = values[6 * i + f];
            let c = cpu::noise_at::<f32>(lut, *kind, &p[..*dims]);
            let e = (g - c).abs();
            max = if e.is_nan() {
                f32::INFINITY
            } else {
                max.max(e)
            };
            nonzero += usize::from(g != 0.0);
        }
        eprintln!(
            "{what}: {name}: {} points, max abs error vs CPU f32 {max:e}",
            points.len()
        );
        assert!(max <= TOLERANCE, "{what}: {name}: max abs error {max:e}");
        assert!(
            nonzero * 2 > points.len(),
            "{what}: {name}: mostly zeros; the shader may not have run"
        );
        worst = worst.max(max);
    }
    worst
}

/// The application's render pipeline of these tests: `vs` and `fs` of `module`, drawing
/// into one `R32Float` target (a full-screen triangle, no vertex buffers).
pub fn r32float_pipeline(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::TextureFormat::R32Float.into())],
        }),
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// `noise.record` of `field`'s own noise options: the graph the command line's flags build
/// (`graph::flags::program_of`), which the planner runs on the hand-written fill.
pub fn record_options(
    noise: &wgpu_noise::GpuNoise,
    encoder: &mut wgpu::CommandEncoder,
    field: &wgpu_noise::field::FlagField,
    output: wgpu_noise::FieldOutput,
    texture: &wgpu::Texture,
) -> wgpu_noise::Result<()> {
    let program = wgpu_noise::graph::flags::program_of(field, output)
        .map_err(|e| wgpu_noise::NoiseError::InvalidField(e.to_string()))?;
    noise.record(
        encoder,
        &wgpu_noise::TextureFill {
            program: &program,
            field,
            output,
            texture,
        },
    )
}

/// The texture's texels, x fastest, then y, then layer (or z); an `Rgba32Float` texel is
/// four values.
pub fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Vec<f32> {
    let size = texture.size();
    let channels = match texture.format() {
        wgpu::TextureFormat::Rgba32Float => 4,
        _ => 1,
    };
    let padded = wgpu_noise::gpu::readback::padded_row_bytes(size.width * channels);
    let rows = size.height * size.depth_or_array_layers;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test readback"),
        size: padded as u64 * rows as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(size.height),
            },
        },
        size,
    );
    let submission = queue.submit([encoder.finish()]);
    wgpu_noise::gpu::readback::map_and_read(
        device,
        &buffer,
        submission,
        Duration::from_secs(120),
        |b| {
            let mut texels = Vec::new();
            wgpu_noise::gpu::readback::unpad_rows(
                b,
                size.width * channels,
                rows as usize,
                padded,
                &mut texels,
            );
            texels
        },
    )
    .unwrap()
}
