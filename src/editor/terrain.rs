//! The terrain view of the desktop preview and of the web page: the graph's value as a lit
//! height field (`shaders/terrain.wgsl`), a grid mesh over the flat view's frame seen
//! through the orbit camera ([`super::orbit`]), with a depth buffer; its uniform, its
//! pipeline and its draw into a texture the caller gives.

use wgpu::util::DeviceExt;

use super::orbit::Orbit;
use crate::graph::{wgsl, Program};
use crate::ramp::{ColourRamp, RampStops};
use crate::shader::ApiNames;

/// The terrain's shader (the noise functions, the ramp and the graph's gradient function
/// are prepended).
const TERRAIN_WGSL: &str = include_str!("../../shaders/terrain.wgsl");
/// Vertices along each side of the mesh.
pub const GRID: u32 = 256;
/// The unit vector towards the light, world space: from the north-west and 45° up, as
/// relief maps are lit (slopes facing the top-left of the flat view are bright).
pub const LIGHT: [f64; 3] = [-0.5, 0.5, std::f64::consts::FRAC_1_SQRT_2];
/// The light a face turned away from [`LIGHT`] still gets.
pub const AMBIENT: f32 = 0.25;
pub use super::orbit::DEFAULT_RELIEF;
/// The depth buffer's format.
const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The uniform of `shaders/terrain.wgsl`: the layout of its `struct Terrain` (checked with
/// naga by `the_terrain_uniform_is_the_wgsl_structs_layout`, `tests/cli/preview_view.rs`).
///
/// Vertex `(i, j)` of the [`GRID`]² mesh, `u = i / (GRID − 1)`, `v = j / (GRID − 1)`,
/// samples the field point `origin + (u · span.x, v · span.y)` (the flat view's frame
/// from its first pixel to its last) and stands at world `((2u − 1) · extent.x,
/// (1 − 2v) · extent.y, relief · value)`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct TerrainUniforms {
    /// World to clip space, column-major.
    pub view_projection: [[f32; 4]; 4],
    /// The field point of vertex (0, 0).
    pub origin: [f32; 4],
    /// Field units from the first vertex to the last along x and y (z, w 0).
    pub span: [f32; 4],
    /// The unit vector towards the light ([`LIGHT`]; w 0).
    pub light: [f32; 4],
    /// Half the mesh's width and height in world units (the longer 1).
    pub extent: [f32; 2],
    /// World height of a value of 1.
    pub relief: f32,
    /// [`AMBIENT`].
    pub ambient: f32,
    /// [`GRID`].
    pub grid: u32,
    /// The value drawn with the ramp's first colour.
    pub gray_low: f32,
    /// The value drawn with its last.
    pub gray_high: f32,
    /// Pads to the 16-byte alignment of `ramp`.
    pub _pad: u32,
    /// The colour ramp.
    pub ramp: RampStops,
}

/// Where the mesh lies: which field point each vertex samples and where it stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// The field point of vertex (0, 0) (f32, as the shader gets it).
    pub origin: [f32; 4],
    /// Field units from the first vertex to the last along x and y.
    pub span: [f32; 2],
    /// Half the mesh's width and height in world units.
    pub extent: [f64; 2],
    /// World height of a value of 1.
    pub relief: f64,
}

impl Placement {
    /// The mesh over a `width` × `height` flat view whose pixel (0, 0) samples `origin`
    /// and whose pixels are `step` field units apart, raised by `relief`.
    pub fn over(origin: [f32; 4], step: [f32; 2], [width, height]: [u32; 2], relief: f64) -> Self {
        let longer = width.max(height) as f64;
        Placement {
            origin,
            span: [
                step[0] * (width.max(2) - 1) as f32,
                step[1] * (height.max(2) - 1) as f32,
            ],
            extent: [width as f64 / longer, height as f64 / longer],
            relief,
        }
    }

    /// The field point at mesh coordinates `u`, `v` (0 to 1 across; the shader's f32
    /// operations).
    pub fn field_point(&self, u: f32, v: f32) -> [f32; 4] {
        let mut p = self.origin;
        p[0] += u * self.span[0];
        p[1] += v * self.span[1];
        p
    }

    /// The mesh coordinates `u`, `v` under world `x`, `y` (outside 0..1: off the mesh).
    pub fn uv(&self, x: f64, y: f64) -> [f64; 2] {
        [
            (x / self.extent[0] + 1.0) / 2.0,
            (1.0 - y / self.extent[1]) / 2.0,
        ]
    }

    /// The world height of `value`.
    pub fn height(&self, value: f64) -> f64 {
        self.relief * value
    }
}

/// How the terrain is coloured: the values drawn with the ramp's first and last colours,
/// and the ramp.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Colours {
    pub low: f32,
    pub high: f32,
    pub ramp: RampStops,
}

/// The terrain's uniform for a frame of `size` pixels drawn from `placement`'s mesh, seen
/// from `camera`.
pub fn uniforms(
    placement: &Placement,
    camera: &Orbit,
    size: [u32; 2],
    colours: &Colours,
) -> TerrainUniforms {
    let aspect = size[0].max(1) as f64 / size[1].max(1) as f64;
    let light = LIGHT.map(|c| c as f32);
    TerrainUniforms {
        view_projection: camera.view_projection(aspect),
        origin: placement.origin,
        span: [placement.span[0], placement.span[1], 0.0, 0.0],
        light: [light[0], light[1], light[2], 0.0],
        extent: placement.extent.map(|e| e as f32),
        relief: placement.relief as f32,
        ambient: AMBIENT,
        grid: GRID,
        gray_low: colours.low,
        gray_high: colours.high,
        _pad: 0,
        ramp: colours.ramp,
    }
}

/// The terrain shader's own WGSL (the noise functions go first): the mesh, the colour
/// ramp and `program`'s value-and-gradient function.
pub fn shader_source(program: &Program) -> String {
    let graph = wgsl::gradient_function(program, "terrain_graph", ApiNames::Plain);
    format!("{TERRAIN_WGSL}\n{}\n{graph}", ColourRamp::WGSL)
}

/// The terrain's buffers and layouts, which no graph changes.
pub struct Terrain {
    uniform_buffer: wgpu::Buffer,
    uniform_group: wgpu::BindGroup,
    pub layout: wgpu::PipelineLayout,
    indices: wgpu::Buffer,
    index_count: u32,
    /// The depth buffer of the last size drawn into with [`Terrain::draw`].
    depth: Option<([u32; 2], wgpu::TextureView)>,
}

impl Terrain {
    /// The mesh's index buffer and the uniform, for pipelines that take the noise bindings
    /// of `noise_layout` at `noise_group` (1).
    pub fn new(device: &wgpu::Device, noise_layout: &wgpu::BindGroupLayout) -> Self {
        let Uniform {
            buffer: uniform_buffer,
            layout: uniform_layout,
            group: uniform_group,
        } = Uniform::zeroed::<TerrainUniforms>(
            device,
            "terrain",
            wgpu::ShaderStages::VERTEX_FRAGMENT,
        );
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("terrain pipeline layout"),
            bind_group_layouts: &[Some(&uniform_layout), Some(noise_layout)],
            immediate_size: 0,
        });
        let triangles = mesh_indices(GRID);
        let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("terrain indices"),
            contents: bytemuck::cast_slice(&triangles),
            usage: wgpu::BufferUsages::INDEX,
        });
        Terrain {
            uniform_buffer,
            uniform_group,
            layout,
            indices,
            index_count: triangles.len() as u32,
            depth: None,
        }
    }

    /// Records the terrain of `draw.uniforms` into `target` of `size` pixels (the depth
    /// buffer is kept for the next draw of that size).
    pub fn draw(&mut self, draw: Draw<'_>, target: &wgpu::TextureView, size: [u32; 2]) {
        if self.depth.as_ref().map(|(s, _)| *s) != Some(size) {
            self.depth = Some((size, depth_view(draw.device, size)));
        }
        let depth = self.depth.as_ref().map(|(_, view)| view.clone());
        if let Some(depth) = depth {
            self.record(draw, target, &depth);
        }
    }

    /// Records the terrain of `draw.uniforms` into `target` of `size` pixels with a depth
    /// buffer of its own (for a caller that holds the terrain shared).
    pub fn draw_once(&self, draw: Draw<'_>, target: &wgpu::TextureView, size: [u32; 2]) {
        let depth = depth_view(draw.device, size);
        self.record(draw, target, &depth);
    }

    fn record(&self, draw: Draw<'_>, target: &wgpu::TextureView, depth: &wgpu::TextureView) {
        draw.queue
            .write_buffer(&self.uniform_buffer, 0, bytemuck::bytes_of(draw.uniforms));
        let mut pass = begin_pass(draw.encoder, "terrain pass", target, Some(depth));
        pass.set_pipeline(draw.pipeline);
        pass.set_bind_group(0, &self.uniform_group, &[]);
        draw.noise.set_render(&mut pass);
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.index_count, 0, 0..1);
    }
}

/// What one terrain draw records with.
pub struct Draw<'a> {
    pub device: &'a wgpu::Device,
    pub queue: &'a wgpu::Queue,
    pub encoder: &'a mut wgpu::CommandEncoder,
    pub pipeline: &'a wgpu::RenderPipeline,
    pub noise: &'a crate::embed::NoiseBindings,
    pub uniforms: &'a TerrainUniforms,
}

/// Two triangles per cell of a `grid`² vertex mesh, row by row.
fn mesh_indices(grid: u32) -> Vec<u32> {
    let mut indices = Vec::with_capacity(((grid - 1) * (grid - 1) * 6) as usize);
    for j in 0..grid - 1 {
        for i in 0..grid - 1 {
            let a = j * grid + i;
            let (b, c) = (a + 1, a + grid);
            indices.extend_from_slice(&[a, c, b, b, c, c + 1]);
        }
    }
    indices
}

/// A depth buffer of `size` pixels (the terrain's and the iso view's).
pub fn depth_view(device: &wgpu::Device, size: [u32; 2]) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some("terrain depth"),
            size: wgpu::Extent3d {
                width: size[0].max(1),
                height: size[1].max(1),
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        })
        .create_view(&Default::default())
}

/// The terrain's pipeline of `module` ([`shader_module`]) drawing into `format`.
pub fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    format: wgpu::TextureFormat,
    label: &str,
) -> wgpu::RenderPipeline {
    let constants = [("TARGET_SRGB", if format.is_srgb() { 1.0 } else { 0.0 })];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_terrain"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some("fs_terrain"),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                ..Default::default()
            },
            targets: &[Some(format.into())],
        }),
        // Both faces: a low camera sees under the mesh's edges.
        primitive: wgpu::PrimitiveState {
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: Some(depth_test()),
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// The shader module of `terrain_wgsl` ([`shader_source`]) with the noise functions of
/// bind group `noise_group` in front.
///
/// Not checked by naga here (as `embed::shader_source` does): that would put naga's WGSL
/// reader and validator into the web page, 1.1 MB of its 7.4 MB of wasm, for a shader the
/// program generates and `tests/gpu/shader_validation.rs` validates. The device's own
/// validation still reports an error (the desktop's error scope, the page's console).
pub fn shader_module(
    device: &wgpu::Device,
    noise_group: u32,
    terrain_wgsl: &str,
) -> wgpu::ShaderModule {
    let source = format!(
        "{}\n{terrain_wgsl}",
        crate::shader::noise_functions_wgsl(noise_group)
    );
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("terrain shader"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    })
}

/// A uniform buffer of one `T` (zeroed) with its bind group layout (binding 0, seen by
/// `visibility`) and bind group, labelled `"{name} uniforms"`, `… uniform layout` and
/// `… uniform group`: the terrain's, and the desktop preview's flat view's.
pub struct Uniform {
    pub buffer: wgpu::Buffer,
    pub layout: wgpu::BindGroupLayout,
    pub group: wgpu::BindGroup,
}

impl Uniform {
    pub fn zeroed<T: bytemuck::Pod>(
        device: &wgpu::Device,
        name: &str,
        visibility: wgpu::ShaderStages,
    ) -> Uniform {
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(&format!("{name} uniforms")),
            contents: bytemuck::bytes_of(&<T as bytemuck::Zeroable>::zeroed()),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(&format!("{name} uniform layout")),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<T>() as u64),
                },
                count: None,
            }],
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(&format!("{name} uniform group")),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            }],
        });
        Uniform {
            buffer,
            layout,
            group,
        }
    }
}

/// A render pass into `target`, cleared to black; with `depth`, that depth buffer cleared to
/// 1 and discarded after (the lit meshes: the terrain's, the iso surface's).
pub(crate) fn begin_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    target: &wgpu::TextureView,
    depth: Option<&wgpu::TextureView>,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: depth.map(|view| wgpu::RenderPassDepthStencilAttachment {
            view,
            depth_ops: Some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(1.0),
                store: wgpu::StoreOp::Discard,
            }),
            stencil_ops: None,
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// The depth test of a lit mesh's pipeline: nearer fragments win, and write their depth.
pub(crate) fn depth_test() -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(true),
        depth_compare: Some(wgpu::CompareFunction::Less),
        stencil: Default::default(),
        bias: Default::default(),
    }
}
