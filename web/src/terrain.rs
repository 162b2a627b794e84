//! The page's 3D view: the editor's graph as the desktop preview's lit terrain
//! (`wgpu_noise::editor::terrain`: the mesh raised by the value, normals from the graph's
//! analytic gradient, the orbit camera) drawn with the page's WebGPU device into an
//! offscreen texture and read back into the picture, as the 2D values are.

use eframe::egui;
use wgpu_noise::editor::orbit::{Orbit, ZOOM_STEP};
use wgpu_noise::editor::share::Scene;
use wgpu_noise::editor::terrain::{self, Colours, Draw, Placement, Terrain};
use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};
use wgpu_noise::graph::Program;
use wgpu_noise::low_level::{padded_row_bytes, ColourRamp};

/// The 3D picture's size in pixels: twice the 2D picture's, shown in the same 256 points,
/// so that each point averages four pixels (the mesh's edges are smoothed).
pub const TERRAIN_SIZE: u32 = 512;
/// The format drawn into: 8-bit linear, so a byte is the shaded colour itself.
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// The bind group of the lookup textures; group 0 is the terrain's uniform.
const NOISE_GROUP: u32 = 1;
/// The wheel's points per notch of [`ZOOM_STEP`] (a browser's wheel notch is about 100 CSS
/// pixels).
const POINTS_PER_NOTCH: f32 = 100.0;

/// Which picture the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dimensions {
    /// The graph's values over the grid, coloured.
    Flat,
    /// The graph as a lit terrain seen through the orbit camera.
    Terrain,
    /// The surface where the graph's value in 3D is the level, seen through the orbit
    /// camera ([`crate::iso`]).
    Iso,
}

impl Dimensions {
    /// The picture of a share link's scene.
    pub fn of(scene: &Scene) -> Dimensions {
        match scene {
            Scene::Flat => Dimensions::Flat,
            Scene::Terrain(_) => Dimensions::Terrain,
            Scene::Iso { .. } => Dimensions::Iso,
        }
    }
}

/// What one terrain picture is of.
pub struct TerrainRequest<'a> {
    pub program: &'a Program,
    pub seed: u64,
    /// Where the mesh lies: over the 2D picture's texels ([`crate::flat_placement`]).
    pub placement: &'a Placement,
    pub ramp: ColourRamp,
    /// The values drawn with the ramp's first and last colours.
    pub range: (f32, f32),
    pub camera: &'a Orbit,
}

/// The terrain's GPU side on the page's device: the lookup textures for the vertex
/// shader, the mesh, the target and the pipeline of the last graph drawn.
pub struct TerrainRenderer {
    noise: NoiseBindings,
    terrain: Terrain,
    target: wgpu::Texture,
    pipeline: Option<(Program, wgpu::RenderPipeline)>,
}

impl TerrainRenderer {
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, seed: u64) -> Result<Self, String> {
        let noise = NoiseBindings::new(
            device,
            queue,
            &NoiseBindingsDescriptor {
                group: NOISE_GROUP,
                seed,
                // The vertex shader evaluates the graph; the fragment shader only shades.
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            },
        )
        .map_err(|e| e.to_string())?;
        let terrain = Terrain::new(device, noise.layout());
        let target = picture_target(device, FORMAT, "terrain picture");
        Ok(TerrainRenderer {
            noise,
            terrain,
            target,
            pipeline: None,
        })
    }

    /// Records the terrain of `request` into the target, and its copy into a new buffer to
    /// map (rows padded to [`padded_row_bytes`]); returns the buffer.
    pub fn record(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        request: &TerrainRequest<'_>,
    ) -> wgpu::Buffer {
        if self.noise.seed() != request.seed {
            self.noise.set_seed(queue, request.seed);
        }
        if self.pipeline.as_ref().map(|(p, _)| p) != Some(request.program) {
            let wgsl = terrain::shader_source(request.program);
            // What WebGPU's validation catches goes to the console (`Gpu::open`).
            let module = terrain::shader_module(device, NOISE_GROUP, &wgsl);
            let pipeline = terrain::pipeline(
                device,
                &self.terrain.layout,
                &module,
                FORMAT,
                "terrain pipeline",
            );
            self.pipeline = Some((request.program.clone(), pipeline));
        }
        let Some((_, pipeline)) = &self.pipeline else {
            unreachable!("the pipeline was made above");
        };
        let colours = Colours {
            low: request.range.0,
            high: request.range.1,
            ramp: request.ramp.stops(),
        };
        let size = [TERRAIN_SIZE; 2];
        let uniforms = terrain::uniforms(request.placement, request.camera, size, &colours);
        let view = self.target.create_view(&Default::default());
        let draw = Draw {
            device,
            queue,
            encoder,
            pipeline,
            noise: &self.noise,
            uniforms: &uniforms,
        };
        self.terrain.draw(draw, &view, size);
        crate::copy_to_readback(device, encoder, &self.target, "terrain readback")
    }
}

/// A [`TERRAIN_SIZE`]² texture the 3D views draw into and the picture is copied from.
pub fn picture_target(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    label: &str,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: TERRAIN_SIZE,
            height: TERRAIN_SIZE,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// The RGBA rows of a mapped 3D-view readback, without their padding.
pub fn unpad_rgba(bytes: &[u8]) -> Vec<u8> {
    let padded = padded_row_bytes(TERRAIN_SIZE) as usize;
    let row = TERRAIN_SIZE as usize * 4;
    bytes
        .chunks(padded)
        .take(TERRAIN_SIZE as usize)
        .flat_map(|r| &r[..row])
        .copied()
        .collect()
}

/// The 2D / 3D / iso choice, named `view.2d`, `view.3d` and `view.iso` for the test;
/// returns whether it changed.
pub fn dimensions_choice(
    ui: &mut egui::Ui,
    dimensions: &mut Dimensions,
    named: &mut Vec<(String, egui::Rect)>,
) -> bool {
    let before = *dimensions;
    ui.horizontal(|ui| {
        ui.label("view");
        for (value, name, text) in [
            (Dimensions::Flat, "view.2d", "2D"),
            (Dimensions::Terrain, "view.3d", "3D"),
            (Dimensions::Iso, "view.iso", "iso"),
        ] {
            let r = ui.selectable_value(dimensions, value, text);
            named.push((name.to_string(), r.rect));
        }
        if *dimensions != Dimensions::Flat {
            ui.label(egui::RichText::new("drag: orbit · wheel: zoom").small());
        }
    });
    *dimensions != before
}

/// A drag on the 3D or iso picture (`response`, `height` points high) orbits the camera, the
/// wheel over it comes closer or goes back, as on the desktop; returns whether the camera
/// moved.
pub fn orbit_input(
    ui: &egui::Ui,
    response: &egui::Response,
    height: f32,
    camera: &mut Orbit,
) -> bool {
    let before = *camera;
    if response.dragged() {
        let d = response.drag_delta();
        camera.drag(f64::from(d.x), f64::from(d.y), f64::from(height));
    }
    if response.hovered() {
        let notches: f32 = ui.input(|i| {
            i.events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::MouseWheel { unit, delta, .. } => Some(match unit {
                        egui::MouseWheelUnit::Point => delta.y / POINTS_PER_NOTCH,
                        egui::MouseWheelUnit::Line => delta.y,
                        egui::MouseWheelUnit::Page => delta.y * 10.0,
                    }),
                    _ => None,
                })
                .sum()
        });
        if notches != 0.0 {
            camera.zoom(ZOOM_STEP.powf(f64::from(notches)));
        }
    }
    *camera != before
}
