//! Uniforms shared with the WGSL fill shader, and the slabs a field is generated in.

use crate::field::{Cellular, CellularOutput, Distance, Field, FlagField, FractalMode, Kernel, Warp};

/// `NoiseSettings::mode`: fractional Brownian motion (plain sum of octaves).
pub const FRACTAL_FBM: u32 = 0;
/// `NoiseSettings::mode`: turbulence (sum of |octave|).
pub const FRACTAL_TURBULENCE: u32 = 1;
/// `NoiseSettings::mode`: ridged multifractal (Musgrave).
pub const FRACTAL_RIDGED: u32 = 2;
/// `NoiseSettings::kernel`: simplex 3D/4D with r² = 0.6, as Gustavson and Perlin.
pub const KERNEL_REFERENCE: u32 = 0;
/// `NoiseSettings::kernel`: simplex 3D/4D with the continuous r² = 0.5, rescaled.
pub const KERNEL_CONTINUOUS: u32 = 1;

/// `NoiseSettings::cellular_output` (`WGPU_NOISE_CELLULAR_*` in `shaders/cellular.wgsl`): F1.
pub const CELLULAR_F1: u32 = 0;
/// `NoiseSettings::cellular_output`: F2.
pub const CELLULAR_F2: u32 = 1;
/// `NoiseSettings::cellular_output`: F2 - F1.
pub const CELLULAR_F2_MINUS_F1: u32 = 2;
/// `NoiseSettings::cellular_output`: the nearest feature's cell value in [-1, 1].
pub const CELLULAR_CELL: u32 = 3;
/// `NoiseSettings::cellular_output`: F3, the third-nearest distance (graphs only).
pub const CELLULAR_F3: u32 = 4;
/// `NoiseSettings::cellular_output`: F4, the fourth-nearest distance (graphs only).
pub const CELLULAR_F4: u32 = 5;
/// `NoiseSettings::cellular_distance` (`WGPU_NOISE_CELLULAR_DISTANCE_*` in `shaders/cellular.wgsl`).
pub const CELLULAR_DISTANCE_EUCLIDEAN: u32 = 0;
/// `NoiseSettings::cellular_distance`: Σ |dᵢ|.
pub const CELLULAR_DISTANCE_MANHATTAN: u32 = 1;
/// `NoiseSettings::cellular_distance`: max |dᵢ|.
pub const CELLULAR_DISTANCE_CHEBYSHEV: u32 = 2;
/// `NoiseSettings::cellular_distance`: Σ dᵢ² (graphs only).
pub const CELLULAR_DISTANCE_EUCLIDEAN_SQUARED: u32 = 3;
/// `NoiseSettings::cellular_distance`: Σ (dᵢ² + |dᵢ|) (graphs only).
pub const CELLULAR_DISTANCE_HYBRID: u32 = 4;

/// `NoiseSettings::cellular_distance` of the Minkowski distance `(Σ |dᵢ|^e)^(1/e)` (graphs
/// only): the exponent's `f32` bits, `e` in [1, 16] (every such code is far past the named
/// ones; `wgpu_noise_cellular_exponent` in `shaders/cellular.wgsl` reads it back).
pub fn cellular_minkowski(exponent: f32) -> u32 {
    debug_assert!((1.0..=16.0).contains(&exponent));
    exponent.to_bits()
}

/// The Minkowski exponent of the cellular distance code `distance`, 0 for the named metrics.
#[inline(always)]
pub fn cellular_exponent(distance: u32) -> f32 {
    if distance > CELLULAR_DISTANCE_HYBRID {
        f32::from_bits(distance)
    } else {
        0.0
    }
}

/// How the base noise is shaped: tiling, fractal octaves, simplex kernel, cellular options,
/// domain warp, flow angle.
///
/// Keep in sync with `struct NoiseSettings` in `shaders/fractal.wgsl` (80 bytes: WGSL
/// rounds the struct up to a multiple of 16, hence the explicit padding here).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct NoiseSettings {
    /// Tile period per axis in lattice cells; 0 = not tiled.
    pub period: [f32; 4],
    /// Number of octaves (1 = the base noise itself).
    pub octaves: u32,
    /// `FRACTAL_FBM`, `FRACTAL_TURBULENCE` or `FRACTAL_RIDGED`.
    pub mode: u32,
    /// Frequency ratio between octaves.
    pub lacunarity: f32,
    /// Amplitude ratio between octaves.
    pub gain: f32,
    /// `KERNEL_REFERENCE` or `KERNEL_CONTINUOUS`.
    pub kernel: u32,
    /// Cellular noise: `CELLULAR_F1`, `CELLULAR_F2`, `CELLULAR_F2_MINUS_F1` or `CELLULAR_CELL`.
    pub cellular_output: u32,
    /// Cellular noise: `CELLULAR_DISTANCE_*`.
    pub cellular_distance: u32,
    /// Cellular noise: feature point jitter in [0, 1].
    pub cellular_jitter: f32,
    /// Domain warp (`shaders/warp.wgsl`): displacement scale in lattice units.
    pub warp_amplitude: f32,
    /// Domain warp: frequency of the warp noise relative to the field's.
    pub warp_frequency: f32,
    /// Domain warp: fBm octaves of the warp noise.
    pub warp_octaves: u32,
    /// Domain warp: 0 = none, 1 = warp, 2 = warp of a warp, ...
    pub warp_iterations: u32,
    /// Flow noise (simplex 2D/3D, untiled): gradient rotation in radians; 0 = plain simplex.
    pub flow_angle: f32,
    /// WGSL's padding of the struct to 80 bytes.
    pub _padding: [u32; 3],
}

impl Default for NoiseSettings {
    /// The plain base noise: one octave, not tiled, reference kernel.
    fn default() -> Self {
        NoiseSettings {
            period: [0.0; 4],
            octaves: 1,
            mode: FRACTAL_FBM,
            lacunarity: 2.0,
            gain: 0.5,
            kernel: KERNEL_REFERENCE,
            cellular_output: CELLULAR_F1,
            cellular_distance: CELLULAR_DISTANCE_EUCLIDEAN,
            cellular_jitter: 1.0,
            warp_amplitude: 0.0,
            warp_frequency: 1.0,
            warp_octaves: 1,
            warp_iterations: 0,
            flow_angle: 0.0,
            _padding: [0; 3],
        }
    }
}

impl NoiseSettings {
    internal! {
        /// These settings with the cellular options `c`.
        pub fn with_cellular(mut self, c: &Cellular) -> Self {
            self.cellular_output = match c.output {
                CellularOutput::F1 => CELLULAR_F1,
                CellularOutput::F2 => CELLULAR_F2,
                CellularOutput::F2MinusF1 => CELLULAR_F2_MINUS_F1,
                CellularOutput::Cell => CELLULAR_CELL,
            };
            self.cellular_distance = match c.distance {
                Distance::Euclidean => CELLULAR_DISTANCE_EUCLIDEAN,
                Distance::Manhattan => CELLULAR_DISTANCE_MANHATTAN,
                Distance::Chebyshev => CELLULAR_DISTANCE_CHEBYSHEV,
            };
            self.cellular_jitter = c.jitter as f32;
            self
        }
    }

    internal! {
        /// These settings with the domain warp `w` (no iteration when it is inactive).
        pub fn with_warp(mut self, w: &Warp) -> Self {
            if w.is_active() {
                self.warp_amplitude = w.amplitude as f32;
                self.warp_frequency = w.frequency as f32;
                self.warp_octaves = w.octaves;
                self.warp_iterations = w.iterations;
            }
            self
        }
    }

    /// These settings with the flow angle `angle` (radians), reduced modulo 2π in `f64`
    /// before it is rounded to `f32`, so that the angle (and its sine and cosine) stay
    /// accurate however long an animation runs; a whole turn changes nothing.
    pub fn with_flow_angle(mut self, angle: f64) -> Self {
        self.flow_angle = angle.rem_euclid(std::f64::consts::TAU) as f32;
        self
    }

    internal! {
        /// The settings of `field`.
        pub fn of(field: &FlagField) -> Self {
            let mut period = [0.0f32; 4];
            if field.tileable {
                for (p, f) in period.iter_mut().zip(field.frequency).take(field.dims) {
                    *p = f as f32;
                }
            }
            NoiseSettings {
                period,
                octaves: field.fractal.octaves,
                mode: field.fractal.mode.code(),
                lacunarity: field.fractal.lacunarity as f32,
                gain: field.fractal.gain as f32,
                kernel: field.kernel.code(),
                ..NoiseSettings::default()
            }
            .with_cellular(&field.cellular)
            .with_warp(&field.warp)
            .with_flow_angle(field.flow_angle)
        }
    }
}

impl FractalMode {
    /// Its `FRACTAL_*` code in the uniforms.
    pub(crate) fn code(self) -> u32 {
        match self {
            FractalMode::Fbm => FRACTAL_FBM,
            FractalMode::Turbulence => FRACTAL_TURBULENCE,
            FractalMode::Ridged => FRACTAL_RIDGED,
        }
    }
}

impl Kernel {
    /// Its `KERNEL_*` code in the uniforms.
    pub(crate) fn code(self) -> u32 {
        match self {
            Kernel::Reference => KERNEL_REFERENCE,
            Kernel::Continuous => KERNEL_CONTINUOUS,
        }
    }
}

/// Parameters of one fill dispatch.
///
/// Keep in sync with `struct FillParams` in `shaders/fill.wgsl` (same fields, same order;
/// `vec4` members, so no padding rules come into play). The CPU mirror
/// (`cpu::fill`) reads the same struct, so both paths round the same `f32`s.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct FillParams {
    /// Noise-space coordinate of field texel 0, per axis (reduced in `f64`, then rounded).
    pub offset: [f32; 4],
    /// Coordinate step per texel, `frequency / size`, per axis.
    pub step: [f32; 4],
    /// Field index of this slab's first texel `[x, y, z, w]`.
    pub origin: [u32; 4],
    /// Size of this slab in texels `[x, y, z, w]`; unused axes are 1.
    pub extent: [u32; 4],
    /// Tiling, octaves and kernel.
    pub settings: NoiseSettings,
}

/// A run of whole layers along a field's outermost axis (`y` in 2D, `z` in 3D, `w` in
/// 4D): the unit in which large fields are generated, read back and written. In 4D, a
/// slab may also be a run of z-slices inside one w-volume ([`Slab::z_range`]), for
/// volumes larger than one slab may hold. Either way a slab is a box, contiguous in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slab {
    /// First layer.
    pub start: u32,
    /// Number of layers.
    pub count: u32,
    /// 4D only: `(first z, number of z)` within the single w-volume `start` (`count` is 1).
    pub z_range: Option<(u32, u32)>,
}

impl Slab {
    /// The whole field as one slab.
    pub fn whole(field: &Field) -> Self {
        Slab {
            start: 0,
            count: field.size[field.dims - 1],
            z_range: None,
        }
    }

    /// Splits the outermost axis of `field` into slabs of at most `layers` layers.
    pub fn split(field: &Field, layers: u32) -> impl Iterator<Item = Slab> {
        let total = field.size[field.dims - 1];
        let layers = layers.max(1);
        (0..total.div_ceil(layers)).map(move |n| {
            let start = n * layers;
            Slab {
                start,
                count: layers.min(total - start),
                z_range: None,
            }
        })
    }

    /// Splits each w-volume of a 4D `field` into runs of at most `z_per_slab` z-slices.
    pub fn split_volumes(field: &Field, z_per_slab: u32) -> impl Iterator<Item = Slab> {
        let [_, _, nz, nw] = field.size;
        let z_per_slab = z_per_slab.max(1);
        (0..nw).flat_map(move |w| {
            (0..nz.div_ceil(z_per_slab)).map(move |n| {
                let z = n * z_per_slab;
                Slab {
                    start: w,
                    count: 1,
                    z_range: Some((z, z_per_slab.min(nz - z))),
                }
            })
        })
    }
}

impl FillParams {
    internal! {
        /// Splits `field` into boxes of at most `max_samples` samples (at least one row each),
        /// in memory order (origins in the whole field when `field` is a window of one): whole `w` volumes if one fits, else runs of z-slices within one
        /// volume, else runs of rows within one slice. Finer than [`Slab`]s (whole outer layers, the
        /// GPU's unit: texture layers), so that the CPU sources can generate one 4D volume larger
        /// than the budget in pieces.
        pub fn boxes(field: &FlagField, max_samples: u64) -> Vec<FillParams> {
            let [nx, ny, nz, nw] = field.size;
            let (row, slice) = (nx as u64, nx as u64 * ny as u64);
            let volume = slice * nz as u64;
            // The whole-field index of texel 0: a tile's boxes keep the whole bake's coordinates.
            let base = FillParams::new(field, Slab::whole(field));
            let start = field.origin();
            let make = |origin: [u32; 4], extent: [u32; 4]| FillParams {
                origin: std::array::from_fn(|a| start[a] + origin[a]),
                extent,
                ..base
            };
            let runs = |total: u32, unit: u64| {
                let per = (max_samples / unit).clamp(1, total as u64) as u32;
                (0..total.div_ceil(per)).map(move |i| (i * per, per.min(total - i * per)))
            };
            let mut out = Vec::new();
            if volume <= max_samples {
                for (w0, count) in runs(nw, volume) {
                    out.push(make([0, 0, 0, w0], [nx, ny, nz, count]));
                }
            } else if slice <= max_samples {
                for w in 0..nw {
                    for (z0, count) in runs(nz, slice) {
                        out.push(make([0, 0, z0, w], [nx, ny, count, 1]));
                    }
                }
            } else {
                for w in 0..nw {
                    for z in 0..nz {
                        for (y0, count) in runs(ny, row) {
                            out.push(make([0, y0, z, w], [nx, count, 1, 1]));
                        }
                    }
                }
            }
            out
        }
    }

    internal! {
        /// The parameters that generate `slab` of `field` (`origin` in the whole field when
        /// `field` is a [`crate::field::Window`] of a larger one).
        pub fn new(field: &FlagField, slab: Slab) -> Self {
            let offset = field.reduced_offset();
            let step = field.step();
            let outer = field.dims - 1;
            let mut origin = [0u32; 4];
            origin[outer] = slab.start;
            let mut extent = field.size;
            extent[outer] = slab.count;
            if let Some((z, count)) = slab.z_range {
                origin[2] = z;
                extent[2] = count;
            }
            let window = field.origin();
            let origin = std::array::from_fn(|a| origin[a] + window[a]);
            FillParams {
                offset: offset.map(|v| v as f32),
                step: step.map(|v| v as f32),
                origin,
                extent,
                settings: NoiseSettings::of(field),
            }
        }
    }

    /// Number of samples in the slab.
    pub fn len(&self) -> usize {
        self.extent.iter().map(|&e| e as usize).product()
    }

    /// Whether the slab is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
