//! The page's iso view: the surface where a 3D graph's value is the level, as the desktop
//! preview draws it. The cube's values and analytic gradients are filled by the library's
//! GPU fill on the page's WebGPU device (`GpuNoise::record` into a 3D texture, copied into
//! a buffer and mapped: the browser cannot wait on the GPU, so the page's frames carry on
//! meanwhile), the surface is extracted on the CPU (`wgpu_noise::editor::isosurface`) and
//! drawn by the desktop's renderer (`wgpu_noise::editor::iso`) into an offscreen texture
//! read back into the picture, as the terrain is.
//!
//! The samples of the last fill are kept: a new level or camera draws without a fill.

use wgpu_noise::editor::iso::{self, Cube, IsoDraw, IsoSurface};
use wgpu_noise::editor::orbit::Orbit;
use wgpu_noise::editor::share::{Scene, SharedView};
use wgpu_noise::graph::Program;
use wgpu_noise::low_level::ColourRamp;
use wgpu_noise::{FieldOutput, GpuNoise, TextureFill};

use crate::terrain::TERRAIN_SIZE;

/// The format drawn into: 8-bit linear, as the terrain's.
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// Bytes per sample of the gradient fill: value and three derivatives, `f32` each.
const SAMPLE_BYTES: u32 = 16;

/// The cube a view's graph is filled over: from its framing's first point (the pan and
/// the clock's offset, as the desktop's cube), the view's frequency across each axis (as
/// the 2D picture has across its side), [`iso::SAMPLES`] samples along each.
pub fn cube_of(view: &SharedView) -> Cube {
    let origin = view.framing.origin();
    Cube {
        origin: [origin[0], origin[1], origin[2]],
        frequency: view.frequency,
        samples: iso::SAMPLES,
    }
}

/// What a cube's samples are of: a fill is needed when it changes.
#[derive(Clone, Debug, PartialEq)]
pub struct FillKey {
    graph: String,
    seed: u64,
    frequency: f64,
    origin: [f64; 3],
}

impl FillKey {
    pub fn of(view: &SharedView) -> FillKey {
        FillKey {
            graph: view.graph.clone(),
            seed: view.seed,
            frequency: view.frequency,
            origin: cube_of(view).origin,
        }
    }
}

/// The iso view's level of a scene (0 when it is not the iso view).
pub fn level_of(scene: &Scene) -> f64 {
    match *scene {
        Scene::Iso { level, .. } => level,
        Scene::Flat | Scene::Terrain(_) => 0.0,
    }
}

/// The iso view's GPU side on the page's device: the cube's texture, the surface's
/// buffers, the pipeline and the picture's target; the samples of the last fill and the
/// level its mesh was extracted at.
pub struct IsoRenderer {
    volume: wgpu::Texture,
    surface: IsoSurface,
    pipeline: wgpu::RenderPipeline,
    target: wgpu::Texture,
    samples: Option<(FillKey, Vec<f32>)>,
    extracted: Option<(FillKey, f64)>,
}

impl IsoRenderer {
    pub fn new(device: &wgpu::Device) -> IsoRenderer {
        let n = iso::SAMPLES;
        let volume = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("iso cube"),
            size: wgpu::Extent3d {
                width: n,
                height: n,
                depth_or_array_layers: n,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D3,
            format: FieldOutput::Gradient.texture_format(),
            // Stored to by the hand-written fill, copied into by a graph's own pipeline,
            // copied out for the extraction.
            usage: wgpu::TextureUsages::STORAGE_BINDING
                | wgpu::TextureUsages::COPY_DST
                | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let surface = IsoSurface::new(device);
        let pipeline = iso::pipeline(device, &surface.layout, FORMAT, "iso pipeline");
        let target = crate::terrain::picture_target(device, FORMAT, "iso picture");
        IsoRenderer {
            volume,
            surface,
            pipeline,
            target,
            samples: None,
            extracted: None,
        }
    }

    /// Whether the samples of `key` are in (no fill is needed to draw it).
    pub fn has_samples(&self, key: &FillKey) -> bool {
        self.samples.as_ref().is_some_and(|(k, _)| k == key)
    }

    /// The least and greatest value of the cube of `key`, if its samples are in.
    pub fn range(&self, key: &FillKey) -> Option<(f32, f32)> {
        let (k, samples) = self.samples.as_ref()?;
        (k == key).then(|| {
            samples
                .chunks_exact(4)
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), s| {
                    (lo.min(s[0]), hi.max(s[0]))
                })
        })
    }

    /// Records the fill of `program` (3D) over `cube` with `noise` (its seed set) into the
    /// cube's texture, and its copy into a new buffer to map; returns the buffer.
    pub fn record_fill(
        &self,
        device: &wgpu::Device,
        noise: &GpuNoise,
        encoder: &mut wgpu::CommandEncoder,
        program: &Program,
        cube: &Cube,
    ) -> Result<wgpu::Buffer, String> {
        let field = cube.field();
        let fill = TextureFill {
            program,
            field: &field,
            output: FieldOutput::Gradient,
            texture: &self.volume,
        };
        noise.record(encoder, &fill).map_err(|e| e.to_string())?;
        let n = cube.samples;
        // 64 samples of 16 bytes: a row is a multiple of the 256 bytes a copy's rows
        // must be, so the buffer holds the samples unpadded, in the fill's order.
        let row = n * SAMPLE_BYTES;
        debug_assert_eq!(row % wgpu::COPY_BYTES_PER_ROW_ALIGNMENT, 0);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("iso cube readback"),
            size: u64::from(row) * u64::from(n) * u64::from(n),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            self.volume.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(n),
                },
            },
            self.volume.size(),
        );
        Ok(buffer)
    }

    /// Keeps the mapped samples of a fill of `key` (`bytes`, as [`Self::record_fill`]
    /// copied them).
    pub fn receive_samples(&mut self, key: FillKey, bytes: &[u8]) {
        let samples = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        self.samples = Some((key, samples));
        self.extracted = None;
    }

    /// Extracts the surface of `key`'s samples at `level` (once per level: a camera move
    /// draws the mesh as it is); its time in milliseconds when it was extracted now.
    /// Errors: no samples of `key`, or the extraction's.
    pub fn extract(
        &mut self,
        device: &wgpu::Device,
        key: &FillKey,
        cube: &Cube,
        level: f64,
        now_ms: fn() -> f64,
    ) -> Result<Option<f64>, String> {
        let wanted = (key.clone(), level);
        if self.extracted.as_ref() == Some(&wanted) {
            return Ok(None);
        }
        let Some((_, samples)) = self.samples.as_ref().filter(|(k, _)| k == key) else {
            return Err("the iso view's cube is not filled".into());
        };
        let start = now_ms();
        let mesh = iso::extract(samples, cube, level as f32)?;
        self.surface.set_mesh(device, &mesh, cube);
        self.extracted = Some(wanted);
        Ok(Some(now_ms() - start))
    }

    /// Records the surface extracted last seen from `camera` in `ramp` into the target,
    /// and its copy into a new buffer to map (rows padded as the terrain's); returns the
    /// buffer.
    pub fn record_draw(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        camera: &Orbit,
        ramp: ColourRamp,
    ) -> wgpu::Buffer {
        let size = [TERRAIN_SIZE; 2];
        let uniforms = iso::uniforms(camera, size, ramp.stops());
        let view = self.target.create_view(&Default::default());
        let draw = IsoDraw {
            device,
            queue,
            encoder,
            pipeline: &self.pipeline,
            uniforms: &uniforms,
        };
        self.surface.draw(draw, &view, size);
        crate::copy_to_readback(device, encoder, &self.target, "iso readback")
    }
}
