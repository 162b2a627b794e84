//! What to generate: a regular grid of noise samples, and its sampling convention.
//!
//! **Sampling convention** (the same in every path: GPU, CPU, bake, preview): texel `i`
//! along an axis of `N` texels samples the noise at `offset + frequency * i / N`.
//! `frequency` is the number of lattice cells across the texture, and texels sit on cell
//! corners, so periodic noise tiles exactly.
//!
//! **Memory layout** of a field: `x` fastest, then `y`, then `z`, then `w`. A 4D field is
//! a stack of 3D volumes, one per `w` step.

use crate::error::{NoiseError, Result};

/// The noise family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoiseKind {
    /// Classic Perlin noise (gradient noise on the square lattice, quintic fade).
    Classic,
    /// Gustavson's simplex noise.
    Simplex,
    /// Cellular (Worley) noise: distances to feature points hashed per cell
    /// (`shaders/cellular.wgsl`).
    Cellular,
    /// Value noise: a value per lattice point, blended with the quintic fade
    /// (`shaders/value.wgsl`).
    Value,
    /// K.jpg's OpenSimplex2S ("SuperSimplex" in FastNoise2), 2D to 4D, tiled in 2D and 3D
    /// (`shaders/supersimplex.wgsl`): the `supersimplex` graph node; not among the
    /// command line's `--noise` choices.
    SuperSimplex,
}

impl NoiseKind {
    /// The two gradient-noise kinds, for iteration (cellular noise is not among them: its
    /// range and options differ).
    pub const ALL: [NoiseKind; 2] = [NoiseKind::Classic, NoiseKind::Simplex];

    /// Lower-case name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            NoiseKind::Classic => "classic",
            NoiseKind::Simplex => "simplex",
            NoiseKind::Cellular => "cellular",
            NoiseKind::Value => "value",
            NoiseKind::SuperSimplex => "supersimplex",
        }
    }

    /// Its code in the shaders (`WGPU_NOISE_CLASSIC` ... in `shaders/fractal.wgsl`).
    pub(crate) fn code(self) -> u32 {
        match self {
            NoiseKind::Classic => 0,
            NoiseKind::Simplex => 1,
            NoiseKind::Cellular => 2,
            NoiseKind::Value => 3,
            NoiseKind::SuperSimplex => 4,
        }
    }
}

impl std::fmt::Display for NoiseKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How octaves are combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FractalMode {
    /// Fractional Brownian motion: the plain sum of octaves, in the base noise's range.
    Fbm,
    /// Turbulence: the sum of |octave|, in [0, 1].
    Turbulence,
    /// Ridged multifractal (Musgrave): sharp crests where the noise crosses zero, in [0, 1].
    Ridged,
}

/// A fractal sum of octaves: octave `k` has frequency `lacunarity^k` and amplitude
/// `gain^k`; the sum is divided by the sum of amplitudes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fractal {
    /// How octaves are combined.
    pub mode: FractalMode,
    /// Number of octaves, 1 to 16 (`MAX_OCTAVES`; 1 fBm octave = the base noise exactly).
    pub octaves: u32,
    /// Frequency ratio between octaves (2 is usual).
    pub lacunarity: f64,
    /// Amplitude ratio between octaves (0.5 is usual).
    pub gain: f64,
}

impl Default for Fractal {
    /// One octave of fBm: the base noise itself.
    fn default() -> Self {
        Fractal {
            mode: FractalMode::Fbm,
            octaves: 1,
            lacunarity: 2.0,
            gain: 0.5,
        }
    }
}

/// Most octaves a fractal may sum (beyond 16 at lacunarity 2 the octaves are finer than
/// f32 resolves at any useful frequency).
pub const MAX_OCTAVES: u32 = 16;

/// The largest magnitude an octave's coordinates, frequency factor, amplitude or sum of
/// amplitudes may reach: 2¹²⁰ ≈ 1.3e36, f32's range (3.4e38) less 2⁸ of headroom for the
/// noise's own sums and products of coordinates (the simplex skew adds up to four).
pub const MAX_OCTAVE_MAGNITUDE: f64 = (1u128 << 120) as f64;

/// The kernel radius of simplex noise in 3D and 4D.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Kernel {
    /// r² = 0.6, as Gustavson's and Perlin's code: small jumps at simplex boundaries.
    #[default]
    Reference,
    /// r² = 0.5, rescaled to the same range: continuous everywhere.
    Continuous,
}

/// What cellular noise returns (`WGPU_NOISE_CELLULAR_*` in `shaders/cellular.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CellularOutput {
    /// Distance to the nearest feature point.
    #[default]
    F1,
    /// Distance to the second-nearest feature point.
    F2,
    /// `F2 - F1`: zero on the edges between cells.
    F2MinusF1,
    /// The nearest feature point's cell value, a per-cell hash in [-1, 1].
    Cell,
}

impl CellularOutput {
    /// Every output, for iteration.
    pub const ALL: [CellularOutput; 4] = [
        CellularOutput::F1,
        CellularOutput::F2,
        CellularOutput::F2MinusF1,
        CellularOutput::Cell,
    ];
}

/// The distance cellular noise measures (`WGPU_NOISE_CELLULAR_DISTANCE_*` in `shaders/cellular.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Distance {
    /// √(Σ dᵢ²).
    #[default]
    Euclidean,
    /// Σ |dᵢ|.
    Manhattan,
    /// max |dᵢ|.
    Chebyshev,
}

impl Distance {
    /// Every distance, for iteration.
    pub const ALL: [Distance; 3] = [Distance::Euclidean, Distance::Manhattan, Distance::Chebyshev];
}

/// Options of cellular noise (see `docs/noise-kinds.md`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cellular {
    /// What is returned.
    pub output: CellularOutput,
    /// How distance is measured; distances are in lattice units, not rescaled.
    pub distance: Distance,
    /// How far feature points stray from their cell's centre, 0 (a regular grid) to 1
    /// (anywhere in the cell).
    pub jitter: f64,
}

/// Domain warp: the field's noise sampled at a point moved by a vector of noise. The exact
/// convention (which noise, where each component samples it) is in `shaders/warp.wgsl`
/// and `docs/noise-kinds.md`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Warp {
    /// Displacement scale, in lattice units of the field's noise; 0 = no warp.
    pub amplitude: f64,
    /// Frequency of the warp noise relative to the field's frequency.
    pub frequency: f64,
    /// fBm octaves of the warp noise (with the field's lacunarity and gain).
    pub octaves: u32,
    /// 1 = warp once; 2 = warp of a warp (Quilez); up to 4 (`MAX_WARP_ITERATIONS`).
    pub iterations: u32,
}

/// Most warp iterations a field may have.
pub const MAX_WARP_ITERATIONS: u32 = 4;

impl Default for Warp {
    /// No warp (amplitude 0); once warped, one iteration of one octave at the field's
    /// frequency.
    fn default() -> Self {
        Warp {
            amplitude: 0.0,
            frequency: 1.0,
            octaves: 1,
            iterations: 1,
        }
    }
}

impl Warp {
    /// Whether this warp moves any point (a non-zero amplitude).
    pub fn is_active(&self) -> bool {
        self.amplitude != 0.0
    }
}

impl Default for Cellular {
    /// F1, Euclidean distance, jitter 1.
    fn default() -> Self {
        Cellular {
            output: CellularOutput::F1,
            distance: Distance::Euclidean,
            jitter: 1.0,
        }
    }
}

/// The largest number of samples one field may hold (2³² − 1): indices stay exact in
/// `f32` up to 2²⁴ per axis, and a `Vec<f32>` of this size is already 16 GiB.
pub const MAX_FIELD_SAMPLES: u64 = u32::MAX as u64;

/// The largest size of one axis (2²⁴): texel indices are converted to `f32` exactly.
pub const MAX_AXIS_SIZE: u32 = 1 << 24;

/// What a field or graph computes at each sample: the one name of the output kind, for
/// bakes ([`crate::bake::NoiseSpec::output`]), the GPU fills ([`crate::gpu::TextureFill`],
/// [`crate::gpu::GpuNoise::read`]) and the CPU mirrors. A normal map is
/// an encoding of the [`FieldOutput::Gradient`] (its strength and texel scale belong to
/// the file: `bake::Encoding::NormalMap`), not an output of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FieldOutput {
    /// The value: one `f32` per sample (`R32Float` in a texture).
    #[default]
    Value,
    /// The value and its analytic gradient, `[value, ∂/∂x, ∂/∂y, ∂/∂z]` (derivatives with
    /// respect to noise-space coordinates; `Rgba32Float`).
    Gradient,
    /// Curl noise, 2D and 3D: `dims` values per sample (`Rgba32Float` texels
    /// `(x, y, 0, 0)` or `(x, y, z, 0)`): the curl of the graph.
    Curl,
}

impl FieldOutput {
    /// `f32`s per sample as the CPU fills and a bake pack them: 1, 4, or `dims` for curl.
    pub fn values_per_sample(self, dims: usize) -> usize {
        match self {
            FieldOutput::Value => 1,
            FieldOutput::Gradient => 4,
            FieldOutput::Curl => dims,
        }
    }

    /// Channels of a texture holding it: 1 (`R32Float`) or 4 (`Rgba32Float`; curl padded
    /// with zeros).
    pub fn texture_channels(self) -> u32 {
        match self {
            FieldOutput::Value => 1,
            FieldOutput::Gradient | FieldOutput::Curl => 4,
        }
    }

    /// The 32-bit float texture format holding it.
    #[cfg(feature = "gpu")]
    pub fn texture_format(self) -> wgpu::TextureFormat {
        match self {
            FieldOutput::Value => wgpu::TextureFormat::R32Float,
            FieldOutput::Gradient | FieldOutput::Curl => wgpu::TextureFormat::Rgba32Float,
        }
    }

    internal! {
        /// Checks that the hand-written fill of `field`'s options can compute it:
        /// [`FlagField::validate`], [`FlagField::check_gradient`] or [`FlagField::check_curl`].
        pub fn check(self, field: &FlagField) -> Result<()> {
            match self {
                FieldOutput::Value => field.validate(),
                FieldOutput::Gradient => field.check_gradient(),
                FieldOutput::Curl => field.check_curl(),
            }
        }
    }
}

/// A regular grid of samples in 2, 3 or 4 dimensions: where a graph is sampled (its size,
/// frequency, offset, tiling and window; the noise is the graph's).
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Number of dimensions, 2 to 4.
    pub dims: usize,
    /// Texels per axis `[x, y, z, w]`; unused axes are 1.
    pub size: [u32; 4],
    /// Lattice cells across the field per axis; unused axes are ignored.
    pub frequency: [f64; 4],
    /// Noise-space coordinate of texel 0 per axis.
    pub offset: [f64; 4],
    /// Reduce `offset` by whole periods of the noise on the host, in `f64`, before it is
    /// rounded to `f32`, where the graph repeats so (on by default; see
    /// [`crate::graph::Program::lattice`]).
    pub reduce_offset: bool,
    /// Make the field tile: opposite edges join seamlessly. The tile period along each axis
    /// is the frequency (cells across the field), which a graph is lowered for
    /// ([`Field::tile_period`]). Classic and cellular noise tile in any dimension
    /// (whole-number frequencies); simplex noise tiles in 2D (4D noise on a torus) and 3D
    /// (whole-number frequencies, on another lattice), SuperSimplex in 2D (on a torus) and
    /// 3D (whole-number frequencies, its lattice unrotated).
    pub tileable: bool,
    /// `Some` when this field is one box (a tile) of a larger one: see [`Window`].
    pub window: Option<Window>,
}

/// A grid with the command line's noise options (`--noise`, `--octaves`, `--warp`, …): the
/// input of the hand-written fill, which the planner makes for a graph of its shape
/// (`graph::plan`), and which `graph::flags::graph_of` turns into a graph.
#[derive(Clone, Debug, PartialEq)]
pub struct FlagField {
    /// The grid.
    pub grid: Field,
    /// The noise family.
    pub kind: NoiseKind,
    /// Fractal octaves (default: one octave, the base noise).
    pub fractal: Fractal,
    /// Kernel radius of simplex noise in 3D and 4D.
    pub kernel: Kernel,
    /// Options of cellular noise (ignored by the other kinds).
    pub cellular: Cellular,
    /// Domain warp (default: none).
    pub warp: Warp,
    /// Flow noise: the angle in radians by which simplex noise's gradients are turned
    /// (`flow2`/`flow3` in `shaders/simplex.wgsl`); 0 (the default) is plain simplex noise.
    /// Simplex 2D and 3D, untiled; every octave turns by the same angle, the warp noise not.
    pub flow_angle: f64,
}

impl std::ops::Deref for FlagField {
    type Target = Field;
    fn deref(&self) -> &Field {
        &self.grid
    }
}

impl std::ops::DerefMut for FlagField {
    fn deref_mut(&mut self) -> &mut Field {
        &mut self.grid
    }
}

/// A box of a field's texels, as [`crate::GpuNoise::read`] hands them over: its first
/// texel and its size along each axis (an unused axis has origin 0 and extent 1). Its
/// samples are in memory order, x fastest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldBox {
    /// Index of the box's first texel in the field, `[x, y, z, w]`.
    pub origin: [u32; 4],
    /// The box's size in texels, `[x, y, z, w]`.
    pub extent: [u32; 4],
}

/// Where a field lies in a larger one: its texels are the box at `origin` of a field of
/// size `whole` with the same frequency, offset, tiling and seed, and carry exactly the
/// values those texels have there. The step is `frequency / whole` and texel `i` of the
/// box is texel `origin + i` of the whole field, so every generator computes the same
/// `f32` coordinate `offset + step * (origin + i)` as a bake of the whole field (an offset
/// re-derived for the tile would round differently): tiles baked apart stitch bit for bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Index in the whole field of this field's texel 0, `[x, y, z, w]`.
    pub origin: [u32; 4],
    /// Size of the whole field `[x, y, z, w]`; unused axes are 1.
    pub whole: [u32; 4],
}

impl Field {
    /// A grid of `size.len()` (2 to 4) dimensions, frequency 1 and offset 0 on every axis.
    /// Call [`Field::validate`] (every generator does) to check it.
    pub fn new(size: &[u32]) -> Self {
        let mut full = [1u32; 4];
        for (d, s) in full.iter_mut().zip(size) {
            *d = *s;
        }
        Field {
            dims: size.len(),
            size: full,
            frequency: [1.0; 4],
            offset: [0.0; 4],
            reduce_offset: true,
            tileable: false,
            window: None,
        }
    }

    /// Makes this field the box at `window.origin` of a field of size `window.whole`
    /// (see [`Window`]); `None` makes it whole again.
    pub fn with_window(mut self, window: Option<Window>) -> Self {
        self.window = window;
        self
    }

    /// Size of the whole field this one is part of (its own size when it is whole).
    pub fn whole_size(&self) -> [u32; 4] {
        self.window.map_or(self.size, |w| w.whole)
    }

    /// Index in the whole field of this field's texel 0 (0 when it is whole).
    pub fn origin(&self) -> [u32; 4] {
        self.window.map_or([0; 4], |w| w.origin)
    }

    /// Makes the field tileable (see [`Field::tileable`]).
    pub fn with_tileable(mut self, tileable: bool) -> Self {
        self.tileable = tileable;
        self
    }

    /// Sets the frequency (lattice cells across the field) of every axis.
    pub fn with_frequency(mut self, frequency: &[f64]) -> Self {
        for (d, f) in self.frequency.iter_mut().zip(frequency) {
            *d = *f;
        }
        self
    }

    /// Sets the offset (coordinate of texel 0) of every axis.
    pub fn with_offset(mut self, offset: &[f64]) -> Self {
        for (d, o) in self.offset.iter_mut().zip(offset) {
            *d = *o;
        }
        self
    }

    /// The tile period per axis a graph is lowered for ([`crate::graph::Graph::program`]):
    /// the frequency along each axis of a tileable field, else 0 (not tiled).
    pub fn tile_period(&self) -> [f32; 4] {
        let mut period = [0.0f32; 4];
        if self.tileable {
            for (p, f) in period.iter_mut().zip(self.frequency).take(self.dims) {
                *p = f as f32;
            }
        }
        period
    }

    /// Total number of samples; `u64::MAX` when the product of the sizes is larger
    /// (which [`Field::validate`] refuses), never a wrapped count.
    pub fn len(&self) -> u64 {
        u64::try_from(self.exact_len()).unwrap_or(u64::MAX)
    }

    /// The product of the sizes, exact for any four `u32` sizes (at most 2¹²⁸ − 1).
    pub fn exact_len(&self) -> u128 {
        self.size.iter().map(|&s| s as u128).product()
    }

    /// Whether the field holds no sample (never true for a validated field).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Checks dimensions, sizes, frequencies, offsets and the window, and that adjacent
    /// texels are distinct `f32` coordinates (as a graph that does not repeat samples
    /// them); every generator checks the grid as its graph samples it.
    pub fn validate(&self) -> Result<()> {
        // As `graph::program::sampled_field` of a graph without a lattice period.
        let mut grid = self.clone();
        grid.reduce_offset = false;
        FlagField::on(grid, NoiseKind::Classic).validate()
    }

    /// The coordinate step per texel along each axis, `frequency / size`, in `f64` (the
    /// whole field's size for a [`Window`]).
    pub fn step(&self) -> [f64; 4] {
        let size = self.whole_size();
        std::array::from_fn(|a| self.frequency[a] / size[a] as f64)
    }

    /// The `f64` coordinate of the texel at `index` (unreduced offset: the true point;
    /// `index` counts from this field's texel 0, also in a [`Window`]).
    pub fn coordinate(&self, index: [u32; 4]) -> [f64; 4] {
        let (step, origin) = (self.step(), self.origin());
        std::array::from_fn(|a| self.offset[a] + step[a] * (origin[a] + index[a]) as f64)
    }
}

impl FlagField {
    /// A field of `kind` with `size.len()` (2 to 4) dimensions, frequency 1 and offset 0 on
    /// every axis, the other options at their defaults.
    pub fn new(kind: NoiseKind, size: &[u32]) -> Self {
        FlagField::on(Field::new(size), kind)
    }

    /// `kind` on `grid`, the other options at their defaults.
    pub fn on(grid: Field, kind: NoiseKind) -> Self {
        FlagField {
            grid,
            kind,
            fractal: Fractal::default(),
            kernel: Kernel::Reference,
            cellular: Cellular::default(),
            warp: Warp::default(),
            flow_angle: 0.0,
        }
    }

    /// [`Field::with_window`].
    pub fn with_window(mut self, window: Option<Window>) -> Self {
        self.grid.window = window;
        self
    }

    /// [`Field::with_tileable`].
    pub fn with_tileable(mut self, tileable: bool) -> Self {
        self.grid.tileable = tileable;
        self
    }

    /// [`Field::with_frequency`].
    pub fn with_frequency(mut self, frequency: &[f64]) -> Self {
        self.grid = self.grid.with_frequency(frequency);
        self
    }

    /// [`Field::with_offset`].
    pub fn with_offset(mut self, offset: &[f64]) -> Self {
        self.grid = self.grid.with_offset(offset);
        self
    }

    /// Sets the options of cellular noise.
    pub fn with_cellular(mut self, cellular: Cellular) -> Self {
        self.cellular = cellular;
        self
    }

    /// Sets the domain warp.
    pub fn with_warp(mut self, warp: Warp) -> Self {
        self.warp = warp;
        self
    }

    /// Sets the flow angle (radians; see [`FlagField::flow_angle`]).
    pub fn with_flow_angle(mut self, angle: f64) -> Self {
        self.flow_angle = angle;
        self
    }

    /// Sets the fractal octaves.
    pub fn with_fractal(mut self, fractal: Fractal) -> Self {
        self.fractal = fractal;
        self
    }

    /// Sets the simplex 3D/4D kernel.
    pub fn with_kernel(mut self, kernel: Kernel) -> Self {
        self.kernel = kernel;
        self
    }

    /// Checks dimensions, sizes and parameters; every generator calls it first.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(NoiseError::InvalidField(m));
        if !(2..=4).contains(&self.dims) {
            return bad(format!("dimensions must be 2, 3 or 4, not {}", self.dims));
        }
        for axis in 0..4 {
            let name = AXIS_NAMES[axis];
            let size = self.size[axis];
            if axis >= self.dims {
                if size != 1 {
                    return bad(format!(
                        "axis {name} is unused in {}D but has size {size}",
                        self.dims
                    ));
                }
                continue;
            }
            if size == 0 {
                return bad(format!("size along {name} is 0"));
            }
            if size > MAX_AXIS_SIZE {
                return bad(format!(
                    "size along {name} is {size}, above the maximum {MAX_AXIS_SIZE}"
                ));
            }
            if !self.frequency[axis].is_finite() {
                return bad(format!(
                    "frequency along {name} is {}",
                    shortest(self.frequency[axis])
                ));
            }
            if !self.offset[axis].is_finite() {
                return bad(format!(
                    "offset along {name} is {}",
                    shortest(self.offset[axis])
                ));
            }
        }
        if self.exact_len() > MAX_FIELD_SAMPLES as u128 {
            return bad(format!(
                "{} samples is above the maximum {MAX_FIELD_SAMPLES}",
                self.exact_len()
            ));
        }
        if let Some(window) = &self.window {
            for (axis, name) in AXIS_NAMES.iter().enumerate() {
                let whole = window.whole[axis];
                let end = window.origin[axis] as u64 + self.size[axis] as u64;
                if axis >= self.dims && (whole != 1 || window.origin[axis] != 0) {
                    return bad(format!(
                        "axis {name} is unused in {}D but the window spans it",
                        self.dims
                    ));
                }
                if whole > MAX_AXIS_SIZE {
                    return bad(format!(
                        "whole size along {name} is {whole}, above the maximum {MAX_AXIS_SIZE}"
                    ));
                }
                if end > whole as u64 {
                    return bad(format!(
                        "the window along {name} ends at texel {end}, beyond the whole field's {whole}"
                    ));
                }
            }
        }
        let f = &self.fractal;
        if !(1..=MAX_OCTAVES).contains(&f.octaves) {
            return bad(format!(
                "octaves must be 1 to {MAX_OCTAVES}, not {}",
                f.octaves
            ));
        }
        if !(f.lacunarity.is_finite() && f.lacunarity > 0.0) {
            return bad(format!(
                "lacunarity must be a positive number, not {}",
                shortest(f.lacunarity)
            ));
        }
        if !f.gain.is_finite() {
            return bad(format!(
                "gain must be a finite number, not {}",
                shortest(f.gain)
            ));
        }
        self.validate_octaves()?;
        if self.kernel == Kernel::Continuous && !(self.kind == NoiseKind::Simplex && self.dims >= 3)
        {
            return bad("the continuous kernel applies to simplex noise in 3D and 4D only".into());
        }
        let jitter = self.cellular.jitter;
        if !(0.0..=1.0).contains(&jitter) {
            return bad(format!(
                "jitter must be between 0 and 1, not {}",
                shortest(jitter)
            ));
        }
        self.validate_warp()?;
        self.validate_flow()?;
        if self.tileable {
            self.validate_tiling()?;
        }
        self.check_resolution()
    }

    /// Checks that adjacent texels are distinct coordinates: in `f64` at the true
    /// coordinates (what the reference and `--verify` evaluate), and in `f32` at the
    /// reduced offset and the step the shaders and the f32 mirror receive. Beyond that,
    /// rows collapse to one value and even verification cannot tell. A one-texel axis
    /// counts its frequency as the spacing (the preview's animated z or w axis).
    fn check_resolution(&self) -> Result<()> {
        let step = self.step();
        let reduced = self.reduced_offset();
        for axis in 0..self.dims {
            let name = AXIS_NAMES[axis];
            let (offset, spacing) = (self.offset[axis], step[axis]);
            if spacing == 0.0 && self.frequency[axis] == 0.0 {
                continue; // frequency 0: a constant along this axis, as asked
            }
            let extent = spacing.abs() * (self.size[axis] - 1) as f64;
            // Texels too close for f32 even from the origin: the frequency and the size are
            // the cause, whatever the offset.
            let s32 = spacing as f32;
            let far32 = (s32 * (self.size[axis] - 1) as f32).abs();
            if s32 == 0.0 || s32.abs() < 2.0 * ulp32(far32) {
                let reason = if s32 == 0.0 {
                    "which is 0 in f32".to_string()
                } else {
                    format!(
                        "too fine for f32 coordinates reaching {}: adjacent texels are no \
                         longer distinct",
                        shortest(far32)
                    )
                };
                return Err(NoiseError::InvalidField(format!(
                    "frequency along {name} is {} over {} texels: a texel spacing of {}, \
                     {reason} (use a larger frequency or fewer texels)",
                    shortest(self.frequency[axis]),
                    self.whole_size()[axis],
                    shortest(spacing)
                )));
            }
            let magnitude = offset
                .abs()
                .max((offset + spacing * (self.size[axis] - 1) as f64).abs());
            if spacing.abs() < 2.0 * ulp64(magnitude) {
                return Err(NoiseError::InvalidField(format!(
                    "offset along {name} is {offset:e}: at a texel spacing of {spacing:e}, \
                     adjacent texels are no longer distinct coordinates (f64); the largest \
                     usable offset for that spacing is about {:.3e}",
                    usable_offset(spacing, extent, 52)
                )));
            }
            let (o32, s32) = (reduced[axis] as f32, spacing as f32);
            let last32 = o32 + s32 * (self.size[axis] - 1) as f32;
            let magnitude32 = o32.abs().max(last32.abs());
            if s32.abs() < 2.0 * ulp32(magnitude32) {
                return Err(NoiseError::InvalidField(format!(
                    "offset along {name} is {offset:e} (reduced to {:e} for the f32 shaders): \
                     at a texel spacing of {spacing:e}, adjacent texels are no longer distinct \
                     f32 coordinates; the largest usable reduced offset for that spacing is \
                     about {:.3e}{}",
                    reduced[axis],
                    usable_offset(spacing, extent, 23),
                    if reduced[axis] == offset && offset.abs() > 256.0 {
                        " (offsets are reduced by whole lattice periods only with a \
                         whole-number lacunarity)"
                    } else {
                        ""
                    }
                )));
            }
        }
        Ok(())
    }

    /// Checks that the field can be generated with its gradient (value + analytic
    /// derivatives): fBm of untiled simplex noise in 2D or 3D.
    pub fn check_gradient(&self) -> Result<()> {
        self.validate()?;
        let bad = |m: &str| Err(NoiseError::InvalidField(m.to_string()));
        if self.kind != NoiseKind::Simplex {
            return bad("gradients are available for simplex noise only");
        }
        if !(2..=3).contains(&self.dims) {
            return bad("gradient fields are 2D or 3D");
        }
        if self.fractal.mode != FractalMode::Fbm {
            return bad(
                "gradients are available for fBm only (turbulence and ridged have creases)",
            );
        }
        if self.tileable {
            return bad("gradients of tileable noise are not available");
        }
        if self.warp.is_active() {
            return bad("gradients of warped noise are not available");
        }
        Ok(())
    }

    /// Checks that curl noise (`cpu::curl`, built on simplex noise) can be baked for the
    /// field: untiled, unwarped, one plain octave of simplex noise in 2D or 3D.
    pub fn check_curl(&self) -> Result<()> {
        self.validate()?;
        let bad = |m: &str| Err(NoiseError::InvalidField(m.to_string()));
        if self.kind != NoiseKind::Simplex {
            return bad(&format!(
                "curl noise is made from simplex noise, not {} noise",
                self.kind
            ));
        }
        if !(2..=3).contains(&self.dims) {
            return bad("curl noise is 2D or 3D");
        }
        if self.fractal != Fractal::default() || self.kernel != Kernel::default() {
            return bad(
                "curl noise has one octave of its own kernel (no fractal or kernel options yet)",
            );
        }
        if self.tileable || self.warp.is_active() || self.flow_angle != 0.0 {
            return bad("curl noise is not tileable, warped or flowing yet");
        }
        Ok(())
    }

    /// Checks that every octave stays within `f32` (the shaders' and the `f32` reference's
    /// arithmetic): its frequency `lacunarity^k`, its coordinates (up to `|offset| +
    /// |frequency|` times that), its amplitude `gain^k`, the sum of amplitudes and the
    /// gradient's scale `gain^k lacunarity^k` are finite, the frequency above 0, and all at
    /// most [`MAX_OCTAVE_MAGNITUDE`]; and that the gain is not negative. Computed as the
    /// shader does: `f32`, multiplied octave by octave. Without it, e.g. `lacunarity =
    /// 1e308` yields NaN samples.
    fn validate_octaves(&self) -> Result<()> {
        let bad = |m: String| Err(NoiseError::InvalidField(m));
        let f = &self.fractal;
        if f.gain < 0.0 {
            // Octaves of alternating sign, normalised by a sum smaller than that of their
            // magnitudes, leave the documented ranges ([-1, 1]; [0, 1] for turbulence and
            // ridged), and at -1 with an even count the sum is 0.
            return bad(format!("gain must be 0 or more, not {}", shortest(f.gain)));
        }
        let (lacunarity, gain) = (f.lacunarity as f32, f.gain as f32);
        let within = |v: f64| v.is_finite() && v.abs() <= MAX_OCTAVE_MAGNITUDE;
        // The largest |coordinate| of octave 0 along each axis: texel i < N samples at
        // offset + frequency * i / N.
        let extent: [f64; 4] =
            std::array::from_fn(|a| self.offset[a].abs() + self.frequency[a].abs());
        for axis in 0..self.dims {
            if !within(extent[axis]) {
                let (name, value) = if self.offset[axis].abs() >= self.frequency[axis].abs() {
                    ("offset", self.offset[axis])
                } else {
                    ("frequency", self.frequency[axis])
                };
                return bad(format!(
                    "{name} along {} is {}, beyond ±{} (coordinates must stay well within f32)",
                    AXIS_NAMES[axis],
                    shortest(value),
                    shortest(MAX_OCTAVE_MAGNITUDE)
                ));
            }
        }
        let octaves = f.octaves;
        let mut frequency = 1.0f32;
        let mut amplitude = 1.0f32;
        let mut norm = 0.0f32;
        for k in 0..octaves {
            let octave = k + 1;
            let largest = (0..self.dims)
                .map(|a| extent[a] * frequency as f64)
                .fold(0.0, f64::max);
            if !(frequency > 0.0 && within(frequency as f64) && within(largest)) {
                return bad(format!(
                    "lacunarity {} with {octaves} octaves: octave {octave}'s coordinates reach {} (lacunarity^{k} = {} in f32); every octave's must stay above 0 and within ±{}",
                    shortest(f.lacunarity),
                    shortest(largest),
                    shortest(frequency),
                    shortest(MAX_OCTAVE_MAGNITUDE)
                ));
            }
            norm += amplitude;
            // amplitude × frequency scales the octave's gradient (fbm_deriv).
            let gradient_scale = amplitude as f64 * frequency as f64;
            if !(within(amplitude as f64) && within(norm as f64) && within(gradient_scale)) {
                return bad(format!(
                    "gain {} with {octaves} octaves: octave {octave}'s amplitude gain^{k} is {} in f32 (the amplitudes sum to {}; times lacunarity^{k}, the gradient's scale, {}), beyond ±{}",
                    shortest(f.gain),
                    shortest(amplitude),
                    shortest(norm),
                    shortest(gradient_scale),
                    shortest(MAX_OCTAVE_MAGNITUDE)
                ));
            }
            frequency *= lacunarity;
            amplitude *= gain;
        }
        Ok(())
    }

    /// Checks the flow angle: finite, and non-zero only for untiled simplex noise in 2D or 3D.
    fn validate_flow(&self) -> Result<()> {
        let angle = self.flow_angle;
        let bad = |m: String| Err(NoiseError::InvalidField(m));
        if !angle.is_finite() {
            return bad(format!("flow angle must be a finite number, not {angle}"));
        }
        if angle == 0.0 {
            return Ok(());
        }
        if self.kind != NoiseKind::Simplex || !(2..=3).contains(&self.dims) {
            return bad(format!(
                "flow noise turns the gradients of simplex noise in 2D or 3D, not of {} noise \
                 in {}D",
                self.kind, self.dims
            ));
        }
        if self.tileable {
            return bad("flow noise does not tile yet".into());
        }
        Ok(())
    }

    /// Checks the warp's options, and that every coordinate the warped noise and the warp
    /// noise reach stays within f32 (|warped point| ≤ |point| + |amplitude|, the warp's
    /// fBm being normalised to the base range).
    fn validate_warp(&self) -> Result<()> {
        let bad = |m: String| Err(NoiseError::InvalidField(m));
        let w = &self.warp;
        if !w.amplitude.is_finite() {
            return bad(format!(
                "warp amplitude must be a finite number, not {}",
                shortest(w.amplitude)
            ));
        }
        if !w.is_active() {
            return Ok(());
        }
        if !(w.frequency.is_finite() && w.frequency > 0.0) {
            return bad(format!(
                "warp frequency must be a positive number, not {}",
                shortest(w.frequency)
            ));
        }
        if !(1..=MAX_OCTAVES).contains(&w.octaves) {
            return bad(format!(
                "warp octaves must be 1 to {MAX_OCTAVES}, not {}",
                w.octaves
            ));
        }
        if !(1..=MAX_WARP_ITERATIONS).contains(&w.iterations) {
            return bad(format!(
                "warp iterations must be 1 to {MAX_WARP_ITERATIONS}, not {}",
                w.iterations
            ));
        }
        let within = |v: f64| v.is_finite() && v.abs() <= MAX_OCTAVE_MAGNITUDE;
        let largest = (0..self.dims)
            .map(|a| self.offset[a].abs() + self.frequency[a].abs())
            .fold(0.0, f64::max)
            + w.amplitude.abs();
        let lacunarity = self.fractal.lacunarity as f32;
        let mut frequency = 1.0f32;
        for k in 0..self.fractal.octaves.max(w.octaves) {
            let reach = largest * frequency as f64 * w.frequency.max(1.0);
            if !within(reach) {
                return bad(format!(
                    "warp amplitude {} at warp frequency {}: octave {}'s coordinates reach {}, beyond ±{}",
                    shortest(w.amplitude),
                    shortest(w.frequency),
                    k + 1,
                    shortest(reach),
                    shortest(MAX_OCTAVE_MAGNITUDE)
                ));
            }
            frequency *= lacunarity;
        }
        if self.tileable && !(self.kind == NoiseKind::Simplex && self.dims == 2) {
            // The warp noise tiles with period frequency × warp frequency (whole numbers
            // but for 2D simplex, which tiles any period).
            for axis in 0..self.dims {
                let period = self.frequency[axis] * w.frequency;
                if period.fract() != 0.0 {
                    return bad(format!(
                        "a tileable warped field needs a whole number of warp cells across the tile: frequency × warp frequency along {} is {}",
                        AXIS_NAMES[axis],
                        shortest(period)
                    ));
                }
            }
            if w.octaves > 1 && self.fractal.lacunarity.fract() != 0.0 {
                return bad(format!(
                    "a tileable warp with several octaves needs a whole-number lacunarity, not {}",
                    shortest(self.fractal.lacunarity)
                ));
            }
        }
        Ok(())
    }

    fn validate_tiling(&self) -> Result<()> {
        let bad = |m: String| Err(NoiseError::InvalidField(m));
        match self.kind {
            NoiseKind::SuperSimplex if self.dims == 4 => {
                return bad(
                    "tileable supersimplex noise is 2D or 3D (its 4D lattice repeats on no \
                     square period)"
                        .into(),
                )
            }
            NoiseKind::Simplex if self.dims == 4 => {
                return bad(
                    "tileable simplex noise is 2D or 3D (classic noise tiles in 2D, 3D and 4D)"
                        .into(),
                )
            }
            NoiseKind::Simplex | NoiseKind::SuperSimplex if self.dims == 3 => {
                let whole = |v: f64| v >= 1.0 && v.fract() == 0.0 && v <= MAX_AXIS_SIZE as f64;
                let name = self.kind.name();
                for axis in 0..3 {
                    let f = self.frequency[axis];
                    if !whole(f) {
                        return bad(format!(
                            "tileable 3D {name} noise needs a whole-number frequency from 1 to {MAX_AXIS_SIZE} along {} (the tile period), not {}",
                            AXIS_NAMES[axis],
                            shortest(f)
                        ));
                    }
                }
                if self.fractal.octaves > 1 && !whole(self.fractal.lacunarity) {
                    return bad(format!(
                        "tileable 3D {name} noise with several octaves needs a whole-number lacunarity from 1 to {MAX_AXIS_SIZE}, not {}",
                        shortest(self.fractal.lacunarity)
                    ));
                }
            }
            // 2D, on the torus of any period.
            NoiseKind::Simplex | NoiseKind::SuperSimplex => {
                for axis in 0..2 {
                    if self.frequency[axis] <= 0.0 {
                        return bad(format!(
                            "tileable noise needs a positive frequency along {}",
                            AXIS_NAMES[axis]
                        ));
                    }
                }
            }
            NoiseKind::Classic | NoiseKind::Cellular | NoiseKind::Value => {
                let kind = self.kind;
                let whole = |v: f64| v >= 1.0 && v.fract() == 0.0 && v <= MAX_AXIS_SIZE as f64;
                for axis in 0..self.dims {
                    let f = self.frequency[axis];
                    if !whole(f) {
                        return bad(format!(
                            "tileable {kind} noise needs a whole-number frequency from 1 to {MAX_AXIS_SIZE} along {} (cells across the tile), not {}",
                            AXIS_NAMES[axis],
                            shortest(f)
                        ));
                    }
                }
                if self.fractal.octaves > 1 && !whole(self.fractal.lacunarity) {
                    return bad(format!(
                        "tileable {kind} noise with several octaves needs a whole-number lacunarity from 1 to {MAX_AXIS_SIZE}, not {}",
                        shortest(self.fractal.lacunarity)
                    ));
                }
            }
        }
        Ok(())
    }

    /// The offset the generators use: with [`Field::reduce_offset`], the same point of the
    /// noise moved by whole lattice periods to near the origin, so that it survives the
    /// rounding to `f32` (design note: f32 keeps ~7 digits; at 10⁶ a cell has 1/16 steps).
    ///
    /// The lattice repeats every 256 cells. For classic noise that is 256 along each axis.
    /// For simplex noise the period lies along the skewed axes: the offset is skewed,
    /// moved by whole periods into [-128, 128] per axis, and the removed periods are
    /// unskewed back. SuperSimplex repeats every 768 along each axis in 3D (its rotation
    /// maps that to whole lookup periods), as simplex noise in 4D (the same lattice), not at
    /// all in 2D. The range is centred on 0 so that -3 and +3 keep the same precision
    /// (reducing into [0, 256) moved -3 to 253).
    ///
    /// Octave `k` samples at `lacunarity^k` times the point, so a shift by a period is a
    /// period of every octave only for whole-number lacunarities: otherwise (with several
    /// octaves) the offset is left as it is. A tileable field is reduced by its tile
    /// period instead, which is a period of the tiled noise whatever the lacunarity.
    pub fn reduced_offset(&self) -> [f64; 4] {
        if !self.reduce_offset {
            return self.offset;
        }
        // The tile period is a period of every octave and of the warp noise (each tiles
        // with the field's period times its frequency).
        if self.tileable {
            let mut out = self.offset;
            for a in 0..self.dims {
                let period = self.frequency[a];
                out[a] -= period * (out[a] / period).round();
            }
            return out;
        }
        let whole_lacunarity = self.fractal.octaves == 1 || self.fractal.lacunarity.fract() == 0.0;
        let warp = &self.warp;
        // A lattice period of the field is one of its warp noise (same lattice) scaled by
        // the warp frequency: a period again only when that frequency is whole.
        let warp_periodic = !warp.is_active()
            || (warp.frequency.fract() == 0.0
                && (warp.octaves == 1 || self.fractal.lacunarity.fract() == 0.0));
        if !whole_lacunarity || !warp_periodic {
            return self.offset;
        }
        reduce_by_periods(self.kind, self.dims, self.offset)
    }
}

/// The distance from `v` (≥ 0) to the next larger `f64`.
fn ulp64(v: f64) -> f64 {
    f64::from_bits(v.to_bits() + 1) - v
}

/// The distance from `v` (≥ 0) to the next larger `f32`.
fn ulp32(v: f32) -> f32 {
    f32::from_bits(v.to_bits() + 1) - v
}

/// The largest offset magnitude at which texels `spacing` apart across `extent` stay at
/// least two units in the last place apart, for a `mantissa_bits`-bit significand:
/// coordinates below 2^(mantissa_bits + floor(log2 spacing)) qualify.
fn usable_offset(spacing: f64, extent: f64, mantissa_bits: i32) -> f64 {
    let limit = 2f64.powi(mantissa_bits + spacing.abs().log2().floor() as i32);
    (limit - extent).max(0.0)
}

/// `v` in the fewest digits that read back as the same number (`f64` or `f32`): plain
/// for magnitudes from 1e-5 to below 1e16 (`8`, `0.125`), scientific outside (`1e-30`, not
/// thirty zeros; `2.5e20`).
pub fn shortest<T: std::fmt::Display + std::fmt::LowerExp + Copy + Into<f64>>(v: T) -> String {
    let magnitude = v.into().abs();
    if magnitude == 0.0 || (1e-5..1e16).contains(&magnitude) || !magnitude.is_finite() {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// Axis names in field order.
pub const AXIS_NAMES: [&str; 4] = ["x", "y", "z", "w"];

/// Moves `offset` by whole lattice periods of `kind` in `dims` dimensions towards the
/// origin (see [`FlagField::reduced_offset`]).
pub fn reduce_by_periods(kind: NoiseKind, dims: usize, offset: [f64; 4]) -> [f64; 4] {
    let period = crate::tables::PERIOD as f64;
    // The nearest whole number of periods: the result is centred on 0.
    let whole = |v: f64| period * (v / period).round();
    let mut out = offset;
    match kind {
        // Cellular and value noise hash cells on the square lattice, as classic noise does.
        NoiseKind::Classic | NoiseKind::Cellular | NoiseKind::Value => {
            for v in out.iter_mut().take(dims) {
                *v -= whole(*v);
            }
        }
        // The rotation `(2/3)(x + y + z) − p` maps 768 along an axis to whole multiples of
        // 256 along every rotated axis: a period of both half-lattices' hashes.
        // In 2D its skew is irrational: no period.
        NoiseKind::SuperSimplex if dims == 2 => {}
        NoiseKind::SuperSimplex if dims == 3 => {
            let period = 3.0 * period;
            for v in out.iter_mut().take(dims) {
                *v -= period * (*v / period).round();
            }
        }
        // 4D OpenSimplex2S is on 4D simplex noise's lattice, with its period.
        NoiseKind::Simplex | NoiseKind::SuperSimplex => {
            let (f, g) = crate::tables::skew_factors(dims);
            let sum: f64 = offset[..dims].iter().sum();
            let s = sum * f;
            // Whole periods in skewed space, then their unskewed images.
            let mut periods = [0.0f64; 4];
            for a in 0..dims {
                periods[a] = whole(offset[a] + s);
            }
            let t = periods[..dims].iter().sum::<f64>() * g;
            for a in 0..dims {
                out[a] = offset[a] - (periods[a] - t);
            }
        }
    }
    out
}
