//! The iso view of the desktop preview and of the page (the `gpu` feature): a 3D graph's
//! values and analytic gradients filled over a cube with the library's GPU fill, the
//! surface `value = level` extracted on the CPU ([`super::isosurface`]), and the mesh
//! drawn lit through the orbit camera ([`super::orbit`]) with the terrain's light
//! (`shaders/iso.wgsl`). The desktop reads the cube back with the blocking [`fill`] (not
//! on wasm32, where the page records the same fill and maps its copy: a browser cannot
//! wait on the GPU).
//!
//! World space: the cube is `[-EXTENT, EXTENT]³` about the orbit's centre, z up; sample
//! `(i, j, k)` of the `n`³ grid stands at `EXTENT · (2i/(n−1) − 1, 1 − 2j/(n−1),
//! 2k/(n−1) − 1)` (world y against field y, as the terrain and the flat view), so the
//! camera looking straight down sees the cube's x, y as the flat view shows them.

use wgpu::util::DeviceExt;

use super::isosurface::IsoMesh;
use super::orbit::Orbit;
use super::terrain::{begin_pass, depth_test, depth_view, Uniform, AMBIENT, LIGHT};
use crate::field::{Field, Window};
use crate::ramp::{ColourRamp, RampStops};

/// The iso view's shader (the ramp is appended).
const ISO_WGSL: &str = include_str!("../../shaders/iso.wgsl");
/// Samples along each side of the cube.
pub const SAMPLES: u32 = 64;
/// z-layers of the cube [`fill`] fills in one submit. The window draws on the same device
/// and queue: a heavy graph's cube in one submit (nine seconds for eight octaves of
/// cellular noise with its gradient on lavapipe) held the window's frames back for as
/// long; in runs of 4 layers a frame waits for one run at most.
#[cfg(not(target_arch = "wasm32"))]
const LAYERS_PER_SUBMIT: u32 = 4;
/// Half the cube's side in world units: from straight above at the orbit's default
/// distance (3) its top face still fits the 45° field of view.
pub const EXTENT: f64 = 0.75;

/// The uniform of `shaders/iso.wgsl`: the layout of its `struct Iso` (checked with naga by
/// `the_iso_uniform_is_the_wgsl_structs_layout`, `tests/cli/preview_view.rs`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct IsoUniforms {
    /// World to clip space, column-major.
    pub view_projection: [[f32; 4]; 4],
    /// The camera's position (w 0).
    pub eye: [f32; 4],
    /// The unit vector towards the light ([`LIGHT`]; w 0).
    pub light: [f32; 4],
    /// [`EXTENT`]: heights from `-extent` to `extent` take the ramp's first to last colour.
    pub extent: f32,
    /// [`AMBIENT`].
    pub ambient: f32,
    /// Pads to the 16-byte alignment of `ramp`.
    pub _pad: [f32; 2],
    /// The colour ramp.
    pub ramp: RampStops,
}

/// The cube a 3D graph is filled over: `samples`³ samples from the field point `origin`,
/// `frequency` lattice cells across each axis (the flat view's frequency; the fill's
/// sampling convention: sample `i` at `origin + frequency · i / samples`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cube {
    pub origin: [f64; 3],
    pub frequency: f64,
    pub samples: u32,
}

impl Cube {
    /// The 3D field the GPU fills (values and gradients: `FieldOutput::Gradient`).
    pub fn field(&self) -> Field {
        Field::new(&[self.samples; 3])
            .with_frequency(&[self.frequency; 3])
            .with_offset(&self.origin)
    }

    /// The `count` z-layers of [`Cube::field`] from layer `z0`: a window of it, with exactly
    /// its samples.
    pub fn layers(&self, z0: u32, count: u32) -> Field {
        let n = self.samples;
        let mut field = self.field();
        field.size[2] = count;
        field.with_window(Some(Window {
            origin: [0, 0, z0, 0],
            whole: [n, n, n, 1],
        }))
    }

    /// The field point at world position `w` (inside the cube or not): the inverse of
    /// [`Cube::world`] followed by the fill's sampling, in `f64` then rounded.
    pub fn field_point(&self, w: [f64; 3]) -> [f32; 4] {
        let last = f64::from(self.samples.max(2) - 1);
        let grid = [
            w[0] / EXTENT + 1.0,
            1.0 - w[1] / EXTENT,
            w[2] / EXTENT + 1.0,
        ]
        .map(|g| g * last / 2.0);
        let step = self.frequency / f64::from(self.samples);
        let p: [f64; 3] = std::array::from_fn(|a| self.origin[a] + step * grid[a]);
        [p[0] as f32, p[1] as f32, p[2] as f32, 0.0]
    }

    /// The world position of grid coordinates `g` (sample `(i, j, k)` at `(i, j, k)`).
    pub fn world(&self, g: [f32; 3]) -> [f32; 3] {
        let last = (self.samples.max(2) - 1) as f32;
        let e = EXTENT as f32;
        [
            (2.0 * g[0] / last - 1.0) * e,
            (1.0 - 2.0 * g[1] / last) * e,
            (2.0 * g[2] / last - 1.0) * e,
        ]
    }
}

/// One vertex of the mesh as the GPU reads it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct IsoVertex {
    pub world: [f32; 3],
    /// The gradient in world axes (unnormalised): the field's, y turned as world y is
    /// (the map from field to world scales every axis alike).
    pub normal: [f32; 3],
}

/// The mesh's vertices in world space.
pub fn vertices(mesh: &IsoMesh, cube: &Cube) -> Vec<IsoVertex> {
    mesh.positions
        .iter()
        .zip(&mesh.gradients)
        .map(|(&p, g)| IsoVertex {
            world: cube.world(p),
            normal: [g[0], -g[1], g[2]],
        })
        .collect()
}

/// The iso view's uniform for a frame of `size` pixels seen from `camera`.
pub fn uniforms(camera: &Orbit, size: [u32; 2], ramp: RampStops) -> IsoUniforms {
    let aspect = size[0].max(1) as f64 / size[1].max(1) as f64;
    let [x, y, z] = camera.eye().map(|c| c as f32);
    let light = LIGHT.map(|c| c as f32);
    IsoUniforms {
        view_projection: camera.view_projection(aspect),
        eye: [x, y, z, 0.0],
        light: [light[0], light[1], light[2], 0.0],
        extent: EXTENT as f32,
        ambient: AMBIENT,
        _pad: [0.0; 2],
        ramp,
    }
}

/// The iso view's WGSL: `shaders/iso.wgsl` and the colour ramp (no graph: the mesh is
/// drawn from its buffers).
pub fn shader_source() -> String {
    format!("{ISO_WGSL}\n{}", ColourRamp::WGSL)
}

/// The iso view's uniform, pipeline layout, mesh buffers and depth buffer.
pub struct IsoSurface {
    uniform_buffer: wgpu::Buffer,
    uniform_group: wgpu::BindGroup,
    pub layout: wgpu::PipelineLayout,
    /// The mesh's vertex and index buffers and index count (`None`: no surface).
    mesh: Option<(wgpu::Buffer, wgpu::Buffer, u32)>,
    /// The depth buffer of the last size drawn into.
    depth: Option<([u32; 2], wgpu::TextureView)>,
}

impl IsoSurface {
    pub fn new(device: &wgpu::Device) -> Self {
        let uniform =
            Uniform::zeroed::<IsoUniforms>(device, "iso", wgpu::ShaderStages::VERTEX_FRAGMENT);
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("iso pipeline layout"),
            bind_group_layouts: &[Some(&uniform.layout)],
            immediate_size: 0,
        });
        IsoSurface {
            uniform_buffer: uniform.buffer,
            uniform_group: uniform.group,
            layout,
            mesh: None,
            depth: None,
        }
    }

    /// Uploads `mesh` over `cube` as the surface drawn from now on.
    pub fn set_mesh(&mut self, device: &wgpu::Device, mesh: &IsoMesh, cube: &Cube) {
        if mesh.triangles.is_empty() {
            self.mesh = None;
            return;
        }
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("iso vertices"),
            contents: bytemuck::cast_slice(&vertices(mesh, cube)),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("iso indices"),
            contents: bytemuck::cast_slice(&mesh.triangles),
            usage: wgpu::BufferUsages::INDEX,
        });
        self.mesh = Some((vertices, indices, 3 * mesh.triangles.len() as u32));
    }

    /// Records the surface seen with `draw.uniforms` into `target` of `size` pixels on a
    /// black background (the depth buffer is kept for the next draw of that size).
    pub fn draw(&mut self, draw: IsoDraw<'_>, target: &wgpu::TextureView, size: [u32; 2]) {
        if self.depth.as_ref().map(|(s, _)| *s) != Some(size) {
            self.depth = Some((size, depth_view(draw.device, size)));
        }
        if let Some((_, depth)) = &self.depth {
            self.record(draw, target, depth);
        }
    }

    /// Records as [`IsoSurface::draw`] with a depth buffer of its own (for a caller that
    /// holds the surface shared: a screenshot).
    pub fn draw_once(&self, draw: IsoDraw<'_>, target: &wgpu::TextureView, size: [u32; 2]) {
        let depth = depth_view(draw.device, size);
        self.record(draw, target, &depth);
    }

    fn record(&self, draw: IsoDraw<'_>, target: &wgpu::TextureView, depth: &wgpu::TextureView) {
        draw.queue
            .write_buffer(&self.uniform_buffer, 0, bytemuck::bytes_of(draw.uniforms));
        let mut pass = begin_pass(draw.encoder, "iso pass", target, Some(depth));
        let Some((vertices, indices, count)) = &self.mesh else {
            return;
        };
        pass.set_pipeline(draw.pipeline);
        pass.set_bind_group(0, &self.uniform_group, &[]);
        pass.set_vertex_buffer(0, vertices.slice(..));
        pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..*count, 0, 0..1);
    }
}

/// What one iso draw records with.
pub struct IsoDraw<'a> {
    pub device: &'a wgpu::Device,
    pub queue: &'a wgpu::Queue,
    pub encoder: &'a mut wgpu::CommandEncoder,
    pub pipeline: &'a wgpu::RenderPipeline,
    pub uniforms: &'a IsoUniforms,
}

/// The iso view's pipeline drawing into `format` (its shader compiled here: it has no
/// graph in it).
pub fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    format: wgpu::TextureFormat,
    label: &str,
) -> wgpu::RenderPipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("iso shader"),
        source: wgpu::ShaderSource::Wgsl(shader_source().into()),
    });
    let constants = [("TARGET_SRGB", if format.is_srgb() { 1.0 } else { 0.0 })];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs_iso"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<IsoVertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3],
            })],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs_iso"),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                ..Default::default()
            },
            targets: &[Some(format.into())],
        }),
        // Both faces: the cube's faces cut surfaces open.
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

/// `program`'s values and gradients over `cube`, filled by `noise` on its device and read
/// back (blocking) in runs of [`LAYERS_PER_SUBMIT`] z-layers: `[value, ∂/∂x, ∂/∂y, ∂/∂z]`
/// per sample, the layout [`super::isosurface::Volume`] reads.
#[cfg(not(target_arch = "wasm32"))]
pub fn fill(
    noise: &crate::gpu::GpuNoise,
    program: &crate::graph::Program,
    cube: &Cube,
) -> Result<Vec<f32>, String> {
    let n = cube.samples;
    let mut samples = Vec::with_capacity(4 * (n as usize).pow(3));
    for z0 in (0..n).step_by(LAYERS_PER_SUBMIT as usize) {
        let layers = cube.layers(z0, LAYERS_PER_SUBMIT.min(n - z0));
        noise
            .read(
                program,
                &layers,
                crate::field::FieldOutput::Gradient,
                |_, values| {
                    samples.extend_from_slice(values);
                    Ok(())
                },
            )
            .map_err(|e| e.to_string())?;
    }
    Ok(samples)
}

/// The surface at `level` of `cube`'s `samples` (as [`fill`] gives them).
pub fn extract(samples: &[f32], cube: &Cube, level: f32) -> Result<IsoMesh, String> {
    let n = cube.samples as usize;
    let volume = super::isosurface::Volume {
        size: [n; 3],
        samples,
    };
    super::isosurface::extract(&volume, level)
}

/// [`fill`], then [`extract`] at `level`.
#[cfg(not(target_arch = "wasm32"))]
pub fn fill_and_extract(
    noise: &crate::gpu::GpuNoise,
    program: &crate::graph::Program,
    cube: &Cube,
    level: f32,
) -> Result<IsoMesh, String> {
    extract(&fill(noise, program, cube)?, cube, level)
}
