//! What the preview shows: noise parameters, pan, zoom and the animation clock, and how a
//! window-sized frame of it becomes a [`Field`] (so the window follows the library's
//! sampling convention and the CPU reference can reproduce any frame).

use crate::bake::{shortest, NoiseSpec, ValueRange};
use crate::field::{FlagField, Fractal, FractalMode, Warp, MAX_OCTAVES};
use crate::graph::plan::Plan;
use crate::params::{FillParams, NoiseSettings, Slab};
use crate::ramp::{ColourRamp, RampStops};
use crate::{FieldOutput, NoiseError, NoiseKind};

use crate::editor::iso::{self, Cube};
use crate::editor::orbit::Orbit;
pub use crate::editor::orbit::ZOOM_STEP;
use crate::editor::share::{bake_output, Framing, Scene, SharedView};
use crate::editor::terrain::{Colours, Placement};
use crate::editor::thumbs::ThumbnailView;

/// Smallest and largest noise step per pixel: beyond these the picture is one flat cell
/// or aliased grain, and zooming further only loses the view.
const STEP_RANGE: (f64, f64) = (1e-6, 1.0);

/// The domain warp amplitude the `W` key turns on, in lattice cells.
pub const PREVIEW_WARP: f64 = 0.8;
/// The fBm octaves of the warp noise.
pub const PREVIEW_WARP_OCTAVES: u32 = 2;
/// How fast the gradients of flow noise turn (the `F` key) unless the panel changes it, in
/// radians per second.
pub const PREVIEW_FLOW_RATE: f64 = 1.0;
/// The curl component drawn as 0 and as full intensity (the `C` key): `bake --curl`'s
/// flow-map default `--range` (src/cli/bake.rs), so a screenshot and a baked flow map of
/// the same field show the same colours.
pub const PREVIEW_CURL_RANGE: (f32, f32) = (-8.0, 8.0);
/// The tile period along the animated axis of a tiled 3D or 4D view (the `T` key), in
/// lattice cells: the animation loops every `PREVIEW_TILE_DEPTH / speed` seconds.
pub const PREVIEW_TILE_DEPTH: f64 = 4.0;

/// The state of the preview that a frame depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Noise family.
    pub kind: NoiseKind,
    /// Number of dimensions, 2 to 4.
    pub dims: usize,
    /// Permutation seed.
    pub seed: u64,
    /// Fractal octaves, 1 to `MAX_OCTAVES`.
    pub octaves: u32,
    /// How octaves combine.
    pub mode: FractalMode,
    /// Frequency ratio between successive octaves (2 unless the panel changes it).
    pub lacunarity: f64,
    /// Amplitude ratio between successive octaves (0.5 unless the panel changes it).
    pub gain: f64,
    /// Noise units per pixel (the same on both axes, so pixels are square).
    pub step: f64,
    /// Noise coordinate of the top-left pixel, before the animation is added.
    pub pan: [f64; 2],
    /// Animation clock in seconds.
    pub time: f64,
    /// Noise units per second along the animated axis.
    pub speed: f64,
    /// Whether the clock is stopped.
    pub paused: bool,
    /// Domain warp amplitude in lattice cells (0 = none; the `W` key toggles it).
    pub warp: f64,
    /// Domain warp iterations, 1 to `MAX_WARP_ITERATIONS` (1 unless the panel changes it).
    pub warp_iterations: u32,
    /// Flow noise (the `F` key): the clock turns simplex noise's gradients (in 2D and 3D)
    /// instead of moving along the animated axis, so the pattern swirls in place.
    pub flow: bool,
    /// How fast flow noise turns the gradients, in radians per second.
    pub flow_rate: f64,
    /// What the frame shows: the value in gray, or [`FieldOutput::Curl`] as a flow map (the
    /// `C` key, in 2D and 3D): R, G (, B) = the curl's x, y (, z) components mapped from
    /// [`PREVIEW_CURL_RANGE`], B = 0 in 2D.
    pub output: FieldOutput,
    /// Tileable noise (the `T` key): the window shows one tile, a whole number of cells
    /// across each side, and the animated axis of 3D/4D loops with period
    /// [`PREVIEW_TILE_DEPTH`].
    pub tiled: bool,
    /// The colours of the value (`--ramp`, the panel): gray, or a colour map. A curl flow
    /// map keeps its own colours.
    pub ramp: ColourRamp,
    /// A noise graph's file name (`--graph`): the graph decides the noise, so the kind,
    /// fractal, warp, flow, curl and tiling above are not used.
    pub graph: Option<String>,
    /// How the frame is drawn (`--view`, the panel): flat, or as a terrain (a graph's).
    pub picture: Picture,
    /// The terrain view's camera (a drag orbits, the wheel zooms).
    pub camera: Orbit,
    /// The terrain view's height of a value of 1, in world units (the mesh's longer side
    /// is 2).
    pub relief: f64,
    /// The iso view's level: the value on its surface.
    pub level: f64,
}

/// How the frame is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Picture {
    /// The value of each pixel in the colour ramp's colours (the field's slice at the
    /// animated point in 3D and 4D).
    #[default]
    #[value(name = "2d")]
    Flat,
    /// A graph's value over the same frame as a lit height field seen through an orbit
    /// camera.
    Terrain,
    /// A 3D graph's surface where its value is the level, over a cube whose top face is
    /// the frame's square, seen through the orbit camera.
    Iso,
}

impl View {
    /// The axis the clock moves along: x in 2D (the picture scrolls), z in 3D, w in 4D
    /// (a 3D slice at z = 0 moving through 4D). The preview reads it through
    /// [`View::framing`]; the tests through this.
    #[cfg(feature = "test-hooks")]
    pub fn animated_axis(&self) -> usize {
        self.framing().animated_axis()
    }

    /// Where and when the view looks: its pan, dimensions, clock and relief, as a share
    /// link holds them.
    pub fn framing(&self) -> Framing {
        Framing {
            pan: self.pan,
            dims: self.dims,
            time: self.time,
            speed: self.speed,
            paused: self.paused,
            relief: self.relief,
        }
    }

    /// Whether the clock turns the gradients ([`View::flow`], for simplex 2D and 3D;
    /// flow noise does not tile).
    pub fn flowing(&self) -> bool {
        self.flow
            && self.graph.is_none()
            && self.kind == NoiseKind::Simplex
            && self.dims <= 3
            && !self.showing_curl()
            && !self.tiling()
    }

    /// Whether the frame is tileable noise ([`View::tiled`]; not 4D simplex, which does
    /// not tile, nor curl noise).
    pub fn tiling(&self) -> bool {
        self.tiled
            && self.graph.is_none()
            && !(self.kind == NoiseKind::Simplex && self.dims == 4)
            && !self.showing_curl()
    }

    /// Whether the frame shows curl noise ([`View::output`]; 2D and 3D, whatever the kind:
    /// curl noise is made from simplex noise).
    pub fn showing_curl(&self) -> bool {
        self.output == FieldOutput::Curl && self.graph.is_none() && self.dims <= 3
    }

    /// The `C` key: curl noise, or back to the value.
    pub fn toggle_curl(&mut self) {
        self.output = match self.output {
            FieldOutput::Curl => FieldOutput::Value,
            _ => FieldOutput::Curl,
        };
    }

    /// The field a `width` × `height` frame samples: pixel `i` across an axis of `N`
    /// pixels samples `offset + frequency * i / N` with `frequency = step * N`, and the
    /// clock adds `speed * time` to the offset of [`View::animated_axis`] (or, when
    /// [`View::flowing`], turns the gradients by `flow_rate * time`). Row 0 is the
    /// top of the window.
    pub fn field(&self, width: u32, height: u32) -> FlagField {
        let (offset, flow_angle) = if self.flowing() {
            (
                [self.pan[0], self.pan[1], 0.0, 0.0],
                self.flow_rate * self.time,
            )
        } else {
            (self.framing().origin(), 0.0)
        };
        let size = [width, height, 1, 1];
        let mut frequency = [
            self.step * width as f64,
            self.step * height as f64,
            1.0,
            1.0,
        ];
        if self.tiling() {
            // Tile periods are whole numbers of cells: the nearest across each side (so
            // pixels may be slightly non-square), [`PREVIEW_TILE_DEPTH`] along z and w
            // (one texel deep, so the frequency there is only the period).
            frequency = [
                frequency[0].round().max(1.0),
                frequency[1].round().max(1.0),
                PREVIEW_TILE_DEPTH,
                PREVIEW_TILE_DEPTH,
            ];
        }
        let mut field = FlagField::new(self.kind, &size[..self.dims])
            .with_tileable(self.tiling())
            .with_frequency(&frequency[..self.dims])
            .with_offset(&offset[..self.dims])
            .with_fractal(Fractal {
                mode: self.mode,
                octaves: self.octaves,
                lacunarity: self.lacunarity,
                gain: self.gain,
            })
            .with_warp(Warp {
                amplitude: self.warp,
                octaves: PREVIEW_WARP_OCTAVES,
                iterations: self.warp_iterations,
                ..Warp::default()
            })
            .with_flow_angle(flow_angle);
        // The kind's lattice periods are not a graph's (`graph::Program::lattice`): a
        // graph is drawn at its own coordinates, however long it has been animated.
        field.reduce_offset = self.graph.is_none();
        field
    }

    /// Whether the frame is the terrain: the terrain view of a graph (the settings are
    /// drawn flat).
    pub fn showing_terrain(&self) -> bool {
        self.picture == Picture::Terrain && self.graph.is_some()
    }

    /// Whether the frame is the iso view of a graph (the settings are drawn flat).
    pub fn showing_iso(&self) -> bool {
        self.picture == Picture::Iso && self.graph.is_some()
    }

    /// The `W` key: warp by [`PREVIEW_WARP`] cells, or not at all.
    pub fn toggle_warp(&mut self) {
        self.warp = if self.warp == 0.0 { PREVIEW_WARP } else { 0.0 };
    }

    /// The noise options a `width` × `height` frame of the settings draws, computed as
    /// every bake computes them: the settings built into a graph and planned
    /// ([`NoiseSpec::of_flags`], [`NoiseSpec::plan`]); the window's shader runs the
    /// hand-written fill of the options the planner reads back. A curl frame is the curl of
    /// one octave of simplex noise ([`View::showing_curl`]). A graph view's noise is its
    /// graph: its field holds only the grid.
    pub fn drawn_field(&self, width: u32, height: u32) -> Result<FlagField, NoiseError> {
        let field = self.field(width, height);
        if self.graph.is_some() {
            return Ok(field);
        }
        let (field, output) = if self.showing_curl() {
            let simplex = FlagField::on(field.grid.clone(), NoiseKind::Simplex);
            (simplex, FieldOutput::Curl)
        } else {
            (field, FieldOutput::Value)
        };
        match NoiseSpec::of_flags(&field, output, self.seed)?.plan() {
            Plan::Fused(drawn) => Ok(drawn),
            Plan::Graph { .. } => Err(NoiseError::InvalidField(format!(
                "the window draws only what the hand-written fill computes, not {}",
                self.describe(width)
            ))),
        }
    }

    /// The shader's uniform for a `width` × `height` frame ([`View::drawn_field`]).
    pub fn uniforms(&self, width: u32, height: u32) -> Result<PreviewUniforms, NoiseError> {
        let field = self.drawn_field(width, height)?;
        let fill = FillParams::new(&field, Slab::whole(&field));
        let (lo, hi) = if self.showing_curl() {
            PREVIEW_CURL_RANGE
        } else if self.graph.is_some() {
            GRAPH_RANGE
        } else {
            value_range(self.mode)
        };
        Ok(PreviewUniforms {
            offset: fill.offset,
            step: fill.step,
            settings: NoiseSettings::of(&field),
            kind: field.kind.code(),
            dims: self.dims as u32,
            gray_low: lo,
            gray_high: hi,
            curl: self.showing_curl() as u32,
            _pad: [0; 3],
            ramp: self.ramp.stops(),
        })
    }

    /// The `wgpu-noise bake` command that writes this view's `width` × `height` frame to
    /// `output` as the window shows it: the same field and seed, the same 8-bit levels
    /// (`--range` of the gray or flow-map mapping). A graph view names `graph_file`
    /// (`GRAPH.json` when there is none); its terrain bakes the frame's values as a 16-bit
    /// heightmap, its iso view the cube's values (`share::bake_output`, as the page).
    pub fn bake_command(
        &self,
        width: u32,
        height: u32,
        graph_file: Option<&std::path::Path>,
        output: &std::path::Path,
    ) -> String {
        let field = self.field(width, height);
        let (mut frequency, mut offset) = (field.frequency, field.offset);
        let mut d = self.dims;
        let join = |v: &[f64]| v.iter().map(|&x| shortest(x)).collect::<Vec<_>>().join(",");
        let mut size = vec![width.to_string(), height.to_string()];
        // The 3D views of a graph bake what they draw (`share::bake_output`, as the page):
        // the terrain's heights over the frame, the iso view's cube.
        let scene = if self.showing_terrain() {
            Scene::Terrain(self.camera)
        } else if let Some(cube) = self.iso_cube_of(width, height) {
            d = 3;
            size = vec![cube.samples.to_string(); 3];
            frequency = [cube.frequency, cube.frequency, cube.frequency, 0.0];
            offset = [cube.origin[0], cube.origin[1], cube.origin[2], 0.0];
            Scene::Iso {
                camera: self.camera,
                level: self.level,
            }
        } else {
            Scene::Flat
        };
        size.resize(d, "1".to_string());
        let mut args: Vec<String> = vec!["wgpu-noise".into(), "bake".into()];
        let mut push = |a: &str, b: String| {
            args.push(a.to_string());
            if !b.is_empty() {
                args.push(b);
            }
        };
        match &self.graph {
            Some(_) => push(
                "--graph",
                graph_file.map_or_else(|| "GRAPH.json".into(), |p| p.display().to_string()),
            ),
            // A curl frame is simplex noise's curl, whatever the kind (`drawn_field`).
            None if self.showing_curl() => push("--noise", NoiseKind::Simplex.name().to_string()),
            None => push("--noise", self.kind.name().to_string()),
        }
        push("--dims", d.to_string());
        push("--seed", self.seed.to_string());
        push("--size", size.join("x"));
        push("--frequency", join(&frequency[..d]));
        push("--offset", join(&offset[..d]));
        if self.showing_curl() {
            push("--curl", String::new());
        } else if self.graph.is_none() {
            let f = &field.fractal;
            if f.octaves != 1 {
                push("--octaves", f.octaves.to_string());
            }
            if f.lacunarity != Fractal::default().lacunarity {
                push("--lacunarity", shortest(f.lacunarity));
            }
            if f.gain != Fractal::default().gain {
                push("--gain", shortest(f.gain));
            }
            match f.mode {
                FractalMode::Fbm => {}
                FractalMode::Turbulence => push("--fractal", "turbulence".into()),
                FractalMode::Ridged => push("--fractal", "ridged".into()),
            }
            if field.tileable {
                push("--tileable", String::new());
            }
            if field.warp.amplitude != 0.0 {
                push("--warp", shortest(field.warp.amplitude));
                push("--warp-octaves", field.warp.octaves.to_string());
                push("--warp-iterations", field.warp.iterations.to_string());
            }
            if field.flow_angle != 0.0 {
                push("--flow-angle", shortest(field.flow_angle));
            }
            if self.mode != FractalMode::Fbm {
                let (lo, hi) = value_range(self.mode);
                push("--range", format!("{},{}", shortest(lo), shortest(hi)));
            }
        }
        if scene != Scene::Flat {
            let output = bake_output(&scene, self.ramp.name());
            args.extend(output.split(' ').map(String::from));
        } else {
            if self.ramp != ColourRamp::Gray && !self.showing_curl() {
                push("--ramp", self.ramp.name().to_string());
            }
            push("--bits", "8".into());
            push("-o", output.display().to_string());
        }
        args.iter()
            .map(|a| shell_word(a))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// What this view's share link holds for a frame `width` pixels wide drawing `graph`
    /// (a graph file's text): the seed, the cells across the width, the ramp, the picture
    /// and its camera and level, and the framing: pan, dimensions, clock and relief.
    pub fn shared(&self, graph: &str, width: u32) -> SharedView {
        SharedView {
            graph: graph.to_string(),
            seed: self.seed,
            frequency: self.step * f64::from(width),
            ramp: self.ramp.name().to_string(),
            scene: match self.picture {
                Picture::Flat => Scene::Flat,
                Picture::Terrain => Scene::Terrain(self.camera),
                Picture::Iso => Scene::Iso {
                    camera: self.camera,
                    level: self.level,
                },
            },
            framing: self.framing(),
        }
    }

    /// Shows `shared` (a share link's view) in a frame `width` pixels wide: its settings,
    /// picture and framing; the caller draws its graph. The error: the link's ramp is not
    /// one.
    pub fn show_shared(&mut self, shared: &SharedView, width: u32) -> Result<(), NoiseError> {
        self.ramp = ColourRamp::from_name(&shared.ramp)?;
        self.seed = shared.seed;
        self.step = shared.frequency / f64::from(width);
        self.picture = match shared.scene {
            Scene::Flat => Picture::Flat,
            Scene::Terrain(camera) => {
                self.camera = camera;
                Picture::Terrain
            }
            Scene::Iso { camera, level } => {
                self.camera = camera;
                self.level = level;
                Picture::Iso
            }
        };
        let framing = &shared.framing;
        self.pan = framing.pan;
        self.dims = framing.dims;
        self.time = framing.time;
        self.speed = framing.speed;
        self.paused = framing.paused;
        self.relief = framing.relief;
        Ok(())
    }

    /// What the node view's thumbnails show for a `width` × `height` frame: the frame's
    /// seed, its first pixel's point and slice (the clock's offset included), and the cells
    /// across its width.
    pub fn thumbnails(&self, width: u32, height: u32) -> ThumbnailView {
        let field = self.field(width, height);
        ThumbnailView {
            seed: self.seed,
            frequency: field.frequency[0],
            origin: field.offset,
            dims: self.dims,
        }
    }

    /// The cube the iso view of a `width` × `height` frame fills, when it is shown.
    fn iso_cube_of(&self, width: u32, height: u32) -> Option<Cube> {
        let uniforms = self.uniforms(width, height).ok()?;
        self.showing_iso()
            .then(|| uniforms.iso_cube([width, height]))
    }

    /// Moves the picture by a drag of `(dx, dy)` pixels (it follows the pointer).
    pub fn pan_pixels(&mut self, dx: f64, dy: f64) {
        self.pan[0] -= dx * self.step;
        self.pan[1] -= dy * self.step;
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the noise under pixel `(x, y)` in place.
    pub fn zoom_at(&mut self, factor: f64, x: f64, y: f64) {
        let new_step = (self.step / factor).clamp(STEP_RANGE.0, STEP_RANGE.1);
        self.pan[0] += x * (self.step - new_step);
        self.pan[1] += y * (self.step - new_step);
        self.step = new_step;
    }

    /// Adds `delta` octaves, within 1 to `MAX_OCTAVES`.
    pub fn add_octaves(&mut self, delta: i32) {
        self.octaves = (self.octaves as i32 + delta).clamp(1, MAX_OCTAVES as i32) as u32;
    }

    /// The next fractal mode: fBm → turbulence → ridged → fBm.
    pub fn next_mode(&mut self) {
        self.mode = match self.mode {
            FractalMode::Fbm => FractalMode::Turbulence,
            FractalMode::Turbulence => FractalMode::Ridged,
            FractalMode::Ridged => FractalMode::Fbm,
        };
    }

    /// Advances the clock by `dt` seconds unless paused.
    pub fn tick(&mut self, dt: f64) {
        if !self.paused {
            self.time += dt;
        }
    }

    /// A short description for the title: "simplex 3D fBm ×4, seed 0, 8.0 cells across".
    pub fn describe(&self, width: u32) -> String {
        let mode = mode_name(self.mode);
        if self.showing_curl() {
            return format!(
                "curl noise {}D (RGB = x, y, z over {}..{}), seed {}, {:.3} cells across, t={:.2}s{}",
                self.dims,
                PREVIEW_CURL_RANGE.0,
                PREVIEW_CURL_RANGE.1,
                self.seed,
                self.step * width as f64,
                self.time,
                if self.paused { " (paused)" } else { "" }
            );
        }
        let colours = match self.ramp {
            ColourRamp::Gray => String::new(),
            ramp => format!(", {} colours", ramp.name()),
        };
        if let Some(name) = &self.graph {
            let terrain = if self.showing_terrain() {
                format!(
                    " terrain (yaw {:.0}°, pitch {:.0}°, {:.2} away)",
                    self.camera.yaw.to_degrees(),
                    self.camera.pitch.to_degrees(),
                    self.camera.distance
                )
            } else {
                String::new()
            };
            return format!(
                "graph {name} {}D{terrain}, seed {}, {:.3} cells across{colours}, t={:.2}s{}",
                self.dims,
                self.seed,
                self.step * width as f64,
                self.time,
                if self.paused { " (paused)" } else { "" }
            );
        }
        format!(
            "{}{}{} {}D {mode} ×{}, seed {}, {:.3} cells across{colours}, t={:.2}s{}",
            if self.tiling() { "tileable " } else { "" },
            if self.flowing() { "flowing " } else { "" },
            self.kind.name(),
            self.dims,
            self.octaves,
            self.seed,
            self.step * width as f64,
            self.time,
            if self.paused { " (paused)" } else { "" }
        )
    }
}

/// A fractal mode as the title and the panel name it.
pub fn mode_name(mode: FractalMode) -> &'static str {
    match mode {
        FractalMode::Fbm => "fBm",
        FractalMode::Turbulence => "turbulence",
        FractalMode::Ridged => "ridged",
    }
}

/// `word` as a POSIX shell reads it back: as it is when it has only safe characters, else
/// in single quotes.
pub fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-.,/:=+".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The graph values that map to black and white: those of `bake --graph -o x.png`'s
/// default `--range`.
pub const GRAPH_RANGE: (f32, f32) = (
    ValueRange::NOMINAL.low as f32,
    ValueRange::NOMINAL.high as f32,
);

/// The noise values that map to black and white: fBm lies in [-1, 1], turbulence and
/// ridged sums in [0, 1]. Gray = round(255 · clamp((v − low) / (high − low), 0, 1)).
pub fn value_range(mode: FractalMode) -> (f32, f32) {
    match mode {
        FractalMode::Fbm => (-1.0, 1.0),
        FractalMode::Turbulence | FractalMode::Ridged => (0.0, 1.0),
    }
}

/// The uniform of `shaders/preview.wgsl`.
///
/// The same layout as `struct Preview` in `shaders/preview.wgsl` (two vec4s,
/// `NoiseSettings` (80 bytes, 16-aligned), eight 4-byte scalars, then `RampStops`),
/// checked with naga by `the_uniform_is_the_wgsl_structs_layout`
/// (`tests/cli/preview_view.rs`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct PreviewUniforms {
    /// Noise coordinate of pixel (0, 0) per axis, animation included (reduced in f64).
    pub offset: [f32; 4],
    /// Noise units per pixel per axis (`frequency / size`); unused axes 0.
    pub step: [f32; 4],
    /// Octaves, fractal mode, kernel.
    pub settings: NoiseSettings,
    /// 0 = classic, 1 = simplex.
    pub kind: u32,
    /// 2, 3 or 4.
    pub dims: u32,
    /// Noise value drawn black.
    pub gray_low: f32,
    /// Noise value drawn white.
    pub gray_high: f32,
    /// 1: draw curl noise as a flow map (components mapped from `gray_low..gray_high`).
    pub curl: u32,
    /// Pads to the 16-byte alignment of `ramp`'s array, as WGSL does.
    pub _pad: [u32; 3],
    /// The colour ramp of the value.
    pub ramp: RampStops,
}

impl PreviewUniforms {
    /// Whether the frame is gray: the value drawn with the gray ramp (not a flow map).
    pub fn is_gray(&self) -> bool {
        self.curl == 0 && self.ramp == ColourRamp::Gray.stops()
    }

    /// The terrain's mesh over this frame of `size` pixels, raised by `relief`.
    pub fn terrain_placement(&self, size: [u32; 2], relief: f64) -> Placement {
        Placement::over(self.offset, [self.step[0], self.step[1]], size, relief)
    }

    /// The iso view's cube: from the frame's first pixel (and the slice's z), as many
    /// cells across each axis as the frame's longer side shows.
    pub fn iso_cube(&self, size: [u32; 2]) -> Cube {
        Cube {
            origin: [0, 1, 2].map(|a| f64::from(self.offset[a])),
            frequency: f64::from(self.step[0]) * f64::from(size[0].max(size[1])),
            samples: iso::SAMPLES,
        }
    }

    /// The terrain's colours: this frame's.
    pub fn terrain_colours(&self) -> Colours {
        Colours {
            low: self.gray_low,
            high: self.gray_high,
            ramp: self.ramp,
        }
    }
}
