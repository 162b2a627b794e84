//! Baking noise to files: PNG (8- or 16-bit grayscale), OpenEXR (32- or 16-bit float),
//! NumPy `.npy` (little-endian `f32` with the field's true shape), KTX2 (2D or 3D texture)
//! and RAW 16-bit heightmaps — the library behind `wgpu-noise bake` (`docs/formats.md`).
//! A bake of a [`Field`] with a [`crate::field::Window`] (`source::tile`) writes one tile
//! of a larger field with exactly its texels' values there (`docs/tiles.md`). With
//! [`NoiseSpec::output`] [`FieldOutput::Gradient`] a bake writes value and analytic
//! gradient (4-channel EXR, `.npy` with a trailing axis of 4) or a tangent-space normal
//! map (RGB PNG, [`Encoding::NormalMap`]); with [`FieldOutput::Curl`], curl noise (EXR,
//! `.npy` or an RGB flow map PNG).
//!
//! [`bake`] pulls the samples of a [`NoiseSpec`] from a [`SampleSource`] (the GPU on a
//! device you own, or the `f32` CPU reference), streams them through the encoder of the
//! chosen [`Encoding`] into a temporary file beside the output, and renames that into
//! place only once it is complete and synced (`file::AtomicFile`).
//!
//! **Sampling convention** (as everywhere in this crate, see [`crate::Field`]): texel `i`
//! along an axis of `N` texels samples the noise at `offset + frequency * i / N`.
//!
//! **Memory** is bounded by the chunk size, not the field: sources hand out at most
//! `source::CHUNK_BYTES` at a time (GPU slabs of that size), `.npy` and 2D images are
//! written as the chunks arrive, and a 3D/4D image waits for one row of atlas tiles at a
//! time (`RowAssembler` in `src/bake/format.rs`).
//!
//! **Files**: 3D and 4D fields become a [`SliceAtlas`] in PNG and EXR (a grid of z-slices,
//! the layout engines import volume textures from); `.npy` keeps the N-D shape, KTX2 holds
//! a real 3D texture, RAW the slices one after another.

internal! { pub mod file; }
internal! { pub mod format; }
internal! { pub mod picture; }
internal! { pub mod source; }

pub use file::{remove_unfinished, RemovedUnfinished};
pub use picture::{write_png8, Channels};

use std::io::{BufWriter, Write};
use std::path::Path;

pub use format::{
    Encoding, ExrCompression, FileFormat, KtxTexel, PngDepth, SliceAtlas, ValueRange,
};
#[cfg(feature = "gpu")]
pub use source::GpuSource;
pub use source::{CpuSource, SampleSource};

use crate::cpu::CpuLookup;
use crate::error::{NoiseError, Result};
internal! { pub use crate::field::shortest; }
use crate::field::{Field, FieldOutput, FlagField, Fractal, FractalMode, Kernel, AXIS_NAMES};
use crate::gpu::LookupVariant;
use crate::graph::plan::Plan;
use crate::params::FillParams;
use crate::ramp::ColourRamp;

/// The largest frequency (lattice cells across the field) a bake accepts: 2²⁴. Beyond it
/// `f32` coordinates have no fractional part left, every texel falls on a lattice point,
/// and the noise would be a field of zeros — a silent wrong answer, so it is an error.
pub const MAX_FREQUENCY: f64 = (1u64 << 24) as f64;

/// The verification tolerance `wgpu-noise bake --verify` uses unless told otherwise: the
/// crate's documented GPU/CPU parity tolerance (`gpu::parity`).
pub const DEFAULT_TOLERANCE: f32 = crate::gpu::parity::PARITY_TOLERANCE;

/// The verification tolerance of tileable simplex noise: 4D simplex noise sampled on a
/// torus whose coordinates come from `cos`/`sin`, which the GPU's built-ins and Rust's
/// `f32` functions round differently (a few ulps); the r² = 0.6 kernel's jumps at 4D
/// simplex boundaries turn that into value differences of up to 1.7e-3 (measured on
/// lavapipe over 256² bakes at frequencies 3, 8, 16 with 1, 4, 8 octaves). 4e-3 is that
/// with a margin of about 2.4; a wrong texel or tile period is off by 1e-2 and more.
pub const TILEABLE_SIMPLEX_TOLERANCE: f32 = 4e-3;

/// The tolerance `--verify` uses for `spec` unless told otherwise:
/// [`TILEABLE_SIMPLEX_TOLERANCE`] for tileable 2D simplex noise, the gradient channels'
/// tolerance ([`GRADIENT_TOLERANCE_SCALE`] × [`DEFAULT_TOLERANCE`]) for curl noise, whose
/// components are derivatives, else the parity tolerance of the field
/// (`gpu::parity::tolerance`: [`DEFAULT_TOLERANCE`] unless warped), for a graph
/// `gpu::parity::graph_tolerance`.
pub fn default_tolerance(spec: &NoiseSpec) -> f32 {
    let plan = spec.plan();
    let f = plan.field();
    if spec.output == FieldOutput::Curl {
        DEFAULT_TOLERANCE * GRADIENT_TOLERANCE_SCALE
    } else if f.tileable && f.kind == crate::field::NoiseKind::Simplex && f.dims == 2 {
        TILEABLE_SIMPLEX_TOLERANCE
    } else if let Some(program) = plan.program() {
        crate::gpu::parity::graph_tolerance(program)
    } else {
        crate::gpu::parity::tolerance(f)
    }
}

/// How much looser `--verify` is on the gradient channels than on the value (the value
/// tolerance 1e-5 becomes 1e-4 on ∂/∂x, ∂/∂y, ∂/∂z; `src/gpu/parity.rs` says why).
pub use crate::gpu::parity::GRADIENT_TOLERANCE_SCALE;

/// What to bake: the noise graph, the grid it is sampled on, the permutation seed, where the
/// lookups come from, and what each texel holds.
///
/// The kernel that computes it is [`NoiseSpec::plan`]'s choice: the hand-written fill where
/// the graph has its shape, else the generic evaluators of the graph. The plan's field
/// travels into the `FillParams` every source and the verifier use; so a bake honours the
/// grid without code of its own.
#[derive(Clone, Debug, PartialEq)]
pub struct NoiseSpec {
    /// The noise: a graph lowered for the field's dimensions and tile period
    /// ([`crate::graph::Graph::program`] with [`Field::tile_period`]).
    pub graph: std::sync::Arc<crate::graph::Program>,
    /// The grid of samples: dimensions, size, frequency, offset, tiling, window.
    pub field: Field,
    /// The permutation seed (0 = Perlin's).
    pub seed: u64,
    /// Lookup textures (Gustavson's permutation, the reference values) or the texture-free
    /// hash (another pattern); the verifier uses the matching CPU mirror
    /// (`cpu::CpuLookup`).
    pub lookup: LookupVariant,
    /// What each texel holds: the value; four values, `[value, ∂/∂x, ∂/∂y, ∂/∂z]`
    /// (derivatives with respect to noise-space coordinates); or the graph's curl, `dims`
    /// values (2D and 3D). Set it with [`NoiseSpec::with_output`].
    pub output: FieldOutput,
}

impl NoiseSpec {
    /// A spec of `graph` on `field` with `seed`: lookup textures, values only.
    pub fn new(graph: crate::graph::Program, field: Field, seed: u64) -> Self {
        NoiseSpec {
            graph: std::sync::Arc::new(graph),
            field,
            seed,
            lookup: LookupVariant::Textures,
            output: FieldOutput::Value,
        }
    }

    internal! {
        /// The spec of the graph `field`'s noise options describe (the command line's flags:
        /// [`crate::graph::flags::program_of`]) for `output`, after the options' own checks
        /// ([`FlagField::validate`]), whose messages name the options. Every output of the
        /// graph is offered, also where the hand-written fill has none (a classic gradient,
        /// a warped curl): the planner runs those on the graph.
        pub fn of_flags(field: &FlagField, output: FieldOutput, seed: u64) -> Result<NoiseSpec> {
            field.validate()?;
            let program = crate::graph::flags::program_of(field, output)
                .map_err(|e| NoiseError::InvalidField(e.to_string()))?;
            Ok(NoiseSpec::new(program, field.grid.clone(), seed).with_output(output))
        }
    }

    /// The kernel that computes this spec (`graph::plan`): the hand-written fill where the
    /// graph has its shape and the output, else the generic evaluators.
    pub fn plan(&self) -> Plan {
        Plan::new(self.graph.clone(), &self.field, self.output)
    }

    /// The same with another lookup variant.
    pub fn with_lookup(mut self, lookup: LookupVariant) -> Self {
        self.lookup = lookup;
        self
    }

    /// The same computing `output` at each texel.
    pub fn with_output(mut self, output: FieldOutput) -> Self {
        self.output = output;
        self
    }

    /// `f32`s per texel: 1, 4 with the gradient, 2 or 3 (the dimensions) for curl noise.
    pub fn channels(&self) -> usize {
        self.output.values_per_sample(self.field.dims)
    }

    /// The grid as the plan's kernel samples it (the fused fill's field with its options, or
    /// the program's grid with curl in 2D or 3D only), plus the bake's own limit on the
    /// frequency ([`MAX_FREQUENCY`]).
    pub fn validate(&self) -> Result<()> {
        if self.graph.dims != self.field.dims {
            return Err(NoiseError::InvalidField(format!(
                "the graph was lowered for {}D, the field is {}D",
                self.graph.dims, self.field.dims
            )));
        }
        match self.plan() {
            Plan::Graph { field, .. } => {
                if self.output == FieldOutput::Curl && !(2..=3).contains(&field.dims) {
                    return Err(NoiseError::InvalidField("curl noise is 2D or 3D".into()));
                }
                field.validate()?;
            }
            Plan::Fused(field) => self.output.check(&field)?,
        }
        let dims = self.field.dims;
        for (name, f) in AXIS_NAMES.iter().zip(&self.field.frequency).take(dims) {
            if f.abs() > MAX_FREQUENCY {
                return Err(NoiseError::InvalidField(format!(
                    "frequency along {name} is {f:e}, beyond ±2^24 (f32 coordinates that large \
                     have no fractional part: the noise would be 0 everywhere)"
                )));
            }
        }
        Ok(())
    }

    /// One line, e.g. `simplex noise, 3D, seed 0, size 64x64x64, frequency 8,8,8, offset 0,0,0`.
    pub fn describe(&self) -> String {
        let plan = self.plan();
        let f = plan.field();
        let join = |v: &[f64]| v.iter().map(|&x| shortest(x)).collect::<Vec<_>>().join(",");
        let size: Vec<String> = f.size[..f.dims].iter().map(u32::to_string).collect();
        let what = match plan.program() {
            Some(program) => format!(
                "noise graph ({} noise calls per sample)",
                program.noise_calls()
            ),
            None => format!("{} noise", f.kind),
        };
        let mut text = format!(
            "{what}, {}D, seed {}, size {}, frequency {}, offset {}",
            f.dims,
            self.seed,
            size.join("x"),
            join(&f.frequency[..f.dims]),
            join(&f.offset[..f.dims])
        );
        let fractal = &f.fractal;
        if *fractal != Fractal::default() {
            let mode = match fractal.mode {
                FractalMode::Fbm => "fBm",
                FractalMode::Turbulence => "turbulence",
                FractalMode::Ridged => "ridged multifractal",
            };
            let octaves = match fractal.octaves {
                1 => "1 octave".to_string(),
                n => format!("{n} octaves"),
            };
            text += &format!(
                ", {mode} of {octaves} (lacunarity {}, gain {})",
                shortest(fractal.lacunarity),
                shortest(fractal.gain)
            );
        }
        if f.tileable {
            text += ", tileable";
        }
        let warp = &f.warp;
        if warp.is_active() {
            text += &format!(
                ", domain warp {} ({} octave{} at frequency ×{}, {} iteration{})",
                shortest(warp.amplitude),
                warp.octaves,
                if warp.octaves == 1 { "" } else { "s" },
                shortest(warp.frequency),
                warp.iterations,
                if warp.iterations == 1 { "" } else { "s" }
            );
        }
        if f.flow_angle != 0.0 {
            text += &format!(", flow angle {} rad", shortest(f.flow_angle));
        }
        if let Some(window) = &f.window {
            let span: Vec<String> = (0..f.dims)
                .map(|a| format!("{}..{}", window.origin[a], window.origin[a] + f.size[a]))
                .collect();
            let whole: Vec<String> = window.whole[..f.dims].iter().map(u32::to_string).collect();
            text += &format!(
                ", tile of texels {} of the whole {} field",
                span.join(" x "),
                whole.join("x")
            );
        }
        if f.kernel != Kernel::default() {
            text += &format!(", {:?} kernel", f.kernel);
        }
        if self.lookup != LookupVariant::Textures {
            text += &format!(", {:?} lookup", self.lookup);
        }
        match self.output {
            FieldOutput::Value => {}
            FieldOutput::Gradient => text += ", value and gradient",
            FieldOutput::Curl => text += &format!(", curl noise ({} channels)", f.dims),
        }
        text
    }
}

/// How to write the file.
#[derive(Clone, Debug, PartialEq)]
pub struct BakeOptions {
    /// Format and format settings.
    pub encoding: Encoding,
    /// Tiles per atlas row for 3D/4D images (PNG, EXR); `None` = [`SliceAtlas::new`]'s default.
    pub atlas_columns: Option<u32>,
    /// Replace an existing output file (otherwise it is an error, before any work).
    pub overwrite: bool,
    /// Recompute every sample with the `f32` CPU reference and fail if one differs by
    /// more than this; nothing is written then.
    pub verify: Option<f32>,
}

impl BakeOptions {
    /// Options for `encoding`: default atlas, no overwrite, no verification.
    pub fn new(encoding: Encoding) -> Self {
        BakeOptions {
            encoding,
            atlas_columns: None,
            overwrite: false,
            verify: None,
        }
    }

    /// Every check that needs no file and no generator: the spec, the atlas, the format's
    /// size limits. Returns the image layout (the one-tile atlas for 2D and `.npy`).
    pub fn plan(&self, spec: &NoiseSpec) -> Result<SliceAtlas> {
        spec.validate()?;
        let format = self.encoding.format();
        let curl_encoding = matches!(
            self.encoding,
            Encoding::Exr { .. } | Encoding::Npy | Encoding::FlowMap { .. }
        );
        let curl = spec.output == FieldOutput::Curl;
        if curl && !curl_encoding {
            return Err(NoiseError::Output(format!(
                "curl noise has {} values per texel: write it to .exr, .npy or a flow map PNG, not {}",
                spec.channels(),
                self.encoding.describe()
            )));
        }
        if !curl && matches!(self.encoding, Encoding::FlowMap { .. }) {
            return Err(NoiseError::Output(
                "a flow map holds curl noise: bake with it".into(),
            ));
        }
        match (&self.encoding, spec.output == FieldOutput::Gradient) {
            (Encoding::Png { .. }, true) => {
                return Err(NoiseError::Output(
                    "a value PNG holds one value per texel: write the gradient to .exr or .npy, \
                     or a normal map (PNG)"
                        .into(),
                ))
            }
            (Encoding::NormalMap { .. }, false) => {
                return Err(NoiseError::Output(
                    "a normal map is made from the gradient: bake with it".into(),
                ))
            }
            (Encoding::Ktx2 { .. } | Encoding::Raw { .. }, true) => {
                return Err(NoiseError::Output(format!(
                    "{} holds one value per texel: write the gradient to .exr or .npy",
                    self.encoding.describe()
                )))
            }
            (Encoding::Ktx2 { .. }, false) => format::ktx2::check_dims(spec.field.dims)?,
            (Encoding::NormalMap { strength, .. }, true) => {
                if spec.field.dims != 2 {
                    return Err(NoiseError::Output(format!(
                        "a normal map is a 2D image; this field is {}D (write its gradient to .exr or .npy)",
                        spec.field.dims
                    )));
                }
                if !(strength.is_finite() && *strength >= 0.0) {
                    return Err(NoiseError::Output(format!(
                        "normal strength must be finite and ≥ 0, not {}",
                        shortest(*strength)
                    )));
                }
            }
            _ => {}
        }
        if !format.is_image() && self.atlas_columns.is_some() {
            return Err(NoiseError::Output(
                "atlas columns apply to PNG and EXR only (.npy keeps the N-D shape)".into(),
            ));
        }
        if let Some(t) = self.verify {
            if !(t.is_finite() && t >= 0.0) {
                return Err(NoiseError::Output(format!(
                    "verification tolerance must be finite and ≥ 0, not {t}"
                )));
            }
        }
        let atlas = SliceAtlas::new(&spec.field, self.atlas_columns)?;
        atlas.check_fits_channels(format, spec.channels() as u64)?;
        Ok(atlas)
    }
}

/// What a bake did.
#[derive(Clone, Debug, PartialEq)]
pub struct BakeReport {
    /// Samples written.
    pub samples: u64,
    /// Smallest and largest value generated.
    pub min: f32,
    /// See `min`.
    pub max: f32,
    /// PNG: samples outside the value range, clamped.
    pub clamped: u64,
    /// The image layout (PNG, EXR).
    pub atlas: SliceAtlas,
    /// The comparison with the CPU reference, when asked for.
    pub verify: Option<VerifyReport>,
}

/// The comparison of every baked sample with the `f32` CPU reference.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyReport {
    /// Samples (texels) compared.
    pub samples: u64,
    /// Largest absolute difference of the value (infinite if a sample was not finite).
    pub max_abs_error: f32,
    /// The texel `[x, y, z, w]` where it occurred.
    pub worst_texel: [u32; 4],
    /// Gradient bakes: the largest absolute difference over ∂/∂x, ∂/∂y, ∂/∂z.
    pub max_gradient_error: Option<f32>,
    /// Samples with a channel over its tolerance.
    pub over_tolerance: u64,
    /// The tolerance of the value.
    pub tolerance: f32,
    /// Gradient bakes: the tolerance of the derivatives (`tolerance` ×
    /// [`GRADIENT_TOLERANCE_SCALE`]).
    pub gradient_tolerance: Option<f32>,
    /// Whether the samples have a value channel: all but a graph's curl, whose components
    /// are all derivatives (`graph_derivatives`).
    pub has_value: bool,
    /// The derivatives of a graph on its own evaluators (a gradient's ∂/∂x, ∂/∂y, ∂/∂z,
    /// every component of a curl), held to the relative bound of docs/graphs.md instead of
    /// the absolute tolerances above.
    pub graph_derivatives: Option<DerivativeCheck>,
}

/// The comparison of a graph's derivatives with the CPU's: relative to their size, with
/// values past the bound allowed at kinks, where a derivative jumps
/// (`gpu::parity::GRAPH_DERIVATIVE_KINKS` of them).
#[derive(Clone, Debug, PartialEq)]
pub struct DerivativeCheck {
    /// Derivative values compared.
    pub values: u64,
    /// The largest `|baked − cpu| / (1 + |cpu|)` among the values within the bound.
    pub max_relative_error: f32,
    /// The bound (`gpu::parity::GRAPH_DERIVATIVE_TOLERANCE`).
    pub tolerance: f32,
    /// Values past the bound (or not finite).
    pub over: u64,
}

impl DerivativeCheck {
    /// Whether the values past the bound are few enough to be kinks.
    pub fn passed(&self) -> bool {
        self.over as f64 <= crate::gpu::parity::GRAPH_DERIVATIVE_KINKS * self.values as f64
    }
}

impl VerifyReport {
    /// Whether every compared value is within the tolerance, except a graph's derivatives:
    /// those pass with the few past their relative bound that kinks explain
    /// ([`DerivativeCheck::passed`]).
    pub fn passed(&self) -> bool {
        self.over_tolerance == 0 && self.graph_derivatives.as_ref().is_none_or(|d| d.passed())
    }

    /// One line, e.g. `max abs error 2.3841858e-7 against the f32 CPU reference (at x=1
    /// y=17 z=0 w=0); 0 of 131072 samples over the tolerance 1e-5`.
    pub fn summary(&self) -> String {
        let [x, y, z, w] = self.worst_texel;
        let max = if self.max_abs_error == 0.0 {
            "0 against the f32 CPU reference".to_string()
        } else {
            format!(
                "{:e} against the f32 CPU reference (at x={x} y={y} z={z} w={w})",
                self.max_abs_error
            )
        };
        let derivatives = self.graph_derivatives.as_ref().map_or(String::new(), |d| {
            format!(
                "derivatives: max relative error {:e} within the bound {:e} × (1 + |v|), {} of \
                 {} values past it (at most {} % at kinks)",
                d.max_relative_error,
                d.tolerance,
                d.over,
                d.values,
                crate::gpu::parity::GRAPH_DERIVATIVE_KINKS * 100.0
            )
        });
        let text = match (self.max_gradient_error, self.gradient_tolerance) {
            (Some(g), Some(gt)) => format!(
                "max abs error of the value {max}, of the gradient {g:e}; {} of {} samples over the \
                 tolerance {:e} (value) / {gt:e} (gradient)",
                self.over_tolerance, self.samples, self.tolerance
            ),
            _ => format!(
                "max abs error {max}; {} of {} samples over the tolerance {:e}",
                self.over_tolerance, self.samples, self.tolerance
            ),
        };
        match (self.has_value, derivatives.is_empty()) {
            (true, true) => text,
            (true, false) => format!("{text}; {derivatives}"),
            (false, _) => format!("{} samples, {derivatives}", self.samples),
        }
    }
}

/// Bakes `spec` from `source` into the file `target` as `options` say, calling
/// `progress(samples done, samples in all)` after each chunk.
///
/// The file appears complete or not at all: on any error (bad options, the output
/// exists, the generator fails, a write fails, the disk fills, non-finite values, a
/// failed verification) nothing is left under `target` or beside it.
pub fn bake(
    spec: &NoiseSpec,
    source: &mut dyn SampleSource,
    target: &Path,
    options: &BakeOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<BakeReport> {
    options.plan(spec)?;
    let file = file::AtomicFile::create(target, options.overwrite)?;
    bake_into(spec, source, file, options, progress)
}

/// [`bake`] into a file already created (so that a caller can report file errors before
/// it starts a GPU); `options.overwrite` has no effect here, the file decided it.
pub fn bake_into(
    spec: &NoiseSpec,
    source: &mut dyn SampleSource,
    file: file::AtomicFile,
    options: &BakeOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<BakeReport> {
    let atlas = options.plan(spec)?;
    let target = &file.target().to_path_buf();
    let description = describe_file(spec, &options.encoding, &atlas);
    let total = spec.field.len();
    let mut stats = ValueStats::default();
    let mut verifier = options
        .verify
        .map(|tolerance| Verifier::new(spec, tolerance));
    let mut out = BufWriter::with_capacity(1 << 20, file.file());
    let job = format::EncodeJob {
        encoding: &options.encoding,
        field: &spec.field,
        channels: spec.channels(),
        atlas: &atlas,
        description: &description,
        target,
    };
    let encoded = format::encode(&job, &mut out, &mut |sink| {
        source.produce(spec, &mut |params, values| {
            stats.add(params, values, spec.channels());
            if let Some(v) = verifier.as_mut() {
                v.check(params, values)?;
            }
            sink(values)?;
            progress(stats.samples, total);
            Ok(())
        })
    })?;
    out.flush().map_err(|error| NoiseError::Io {
        context: format!("writing {}", target.display()),
        error,
    })?;
    drop(out);
    if stats.non_finite > 0 {
        let [x, y, z, w] = stats.first_non_finite;
        return Err(NoiseError::Verification(format!(
            "{} samples are NaN or infinite (the first at x={x} y={y} z={z} w={w}); {} not written",
            stats.non_finite,
            target.display()
        )));
    }
    let verify = verifier.map(|v| v.report);
    if let Some(v) = verify.as_ref().filter(|v| !v.passed()) {
        return Err(NoiseError::Verification(format!(
            "{}; {} not written",
            v.summary(),
            target.display()
        )));
    }
    file.commit()?;
    Ok(BakeReport {
        samples: stats.samples,
        min: stats.min,
        max: stats.max,
        clamped: encoded.clamped,
        atlas,
        verify,
    })
}

/// The text stored in PNG `Description` / EXR `comments`: what the file holds and how to
/// read it back.
pub(crate) fn describe_file(spec: &NoiseSpec, encoding: &Encoding, atlas: &SliceAtlas) -> String {
    let mut text = format!(
        "wgpu-noise {}: {}. Texel i of N along an axis samples offset + frequency*i/N.",
        env!("CARGO_PKG_VERSION"),
        spec.describe()
    );
    if encoding.format().is_image() {
        text += &format!(" Layout: {}.", atlas.describe(spec.field.size[2]));
    }
    let levels = |max: u32, range: &ValueRange| {
        format!(
            " Level p of {max} stands for the value {} + {}*p/{max} (values outside [{}, {}] clamped).",
            shortest(range.low),
            shortest(range.high - range.low),
            shortest(range.low),
            shortest(range.high)
        )
    };
    match encoding {
        Encoding::Ktx2 {
            texel: format::KtxTexel::Unorm { depth, range },
        } => text += &levels(depth.max_level(), range),
        Encoding::Raw { range } => {
            text += " Little-endian u16, no header, x fastest.";
            text += &levels(u16::MAX as u32, range);
        }
        Encoding::Png { depth, range, ramp } => {
            text += &levels(depth.max_level(), range);
            if *ramp != ColourRamp::Gray {
                text += &format!(
                    " RGB: the {} colour ramp of t = (value - low) / (high - low), clamped to [0, 1].",
                    ramp.name()
                );
            }
        }
        Encoding::FlowMap { depth, range } => {
            text += " RGB: R, G (, B) = the curl's x, y (, z) components; B = 0 in 2D.";
            text += &levels(depth.max_level(), range);
        }
        Encoding::NormalMap { depth, strength } => {
            text += &format!(
                " Tangent-space normal map, OpenGL convention (+X right, +Y up, i.e. towards row 0): \
                 n = normalize(-s*dv/dx, s*dv/dy, 1) with s = {}, derivatives per texel \
                 (y counting rows down), RGB level = (n+1)/2 * {}.",
                shortest(*strength),
                depth.max_level()
            );
        }
        Encoding::Exr { .. } if spec.output == FieldOutput::Gradient => {
            text += " Channels: R = value, G = d/dx, B = d/dy, A = d/dz (noise-space derivatives).";
        }
        Encoding::Npy if spec.output == FieldOutput::Gradient => {
            text += " Last axis: value, d/dx, d/dy, d/dz (noise-space derivatives).";
        }
        Encoding::Exr { .. } if spec.output == FieldOutput::Curl => {
            text += " Channels: R, G (, B) = the curl's x, y (, z) components.";
        }
        Encoding::Npy if spec.output == FieldOutput::Curl => {
            text += " Last axis: the curl's x, y (, z) components.";
        }
        _ => {}
    }
    text
}

/// Running min, max and non-finite count of the generated samples.
struct ValueStats {
    samples: u64,
    min: f32,
    max: f32,
    non_finite: u64,
    first_non_finite: [u32; 4],
}

impl Default for ValueStats {
    fn default() -> Self {
        ValueStats {
            samples: 0,
            min: f32::INFINITY,
            max: f32::NEG_INFINITY,
            non_finite: 0,
            first_non_finite: [0; 4],
        }
    }
}

/// Texels whose min and max [`ValueStats::add`] takes together: a block with none that is
/// NaN or infinite is reduced in lane arrays, which the compiler makes vector instructions
/// (a texel at a time, the comparisons of `f32::min` cost an eighth of a 3D bake).
const STATS_BLOCK: usize = 256;

/// The lanes of [`ValueStats::add`]'s reduction.
const STATS_LANES: usize = 16;

impl ValueStats {
    /// `values` holds `channels` floats per texel: min and max are of the first (the
    /// value), every channel must be finite.
    fn add(&mut self, params: &FillParams, values: &[f32], channels: usize) {
        let block = STATS_BLOCK * channels;
        for (b, chunk) in values.chunks(block).enumerate() {
            let all_finite = chunk.iter().fold(true, |all, c| all & c.is_finite());
            if all_finite && channels == 1 && chunk.len() == block {
                self.add_finite(chunk);
            } else {
                self.add_texels(params, chunk, channels, b * STATS_BLOCK);
            }
        }
        self.samples += (values.len() / channels) as u64;
    }

    /// Min and max of `values`, all finite, one channel, a multiple of the lanes long.
    fn add_finite(&mut self, values: &[f32]) {
        let mut lo = [self.min; STATS_LANES];
        let mut hi = [self.max; STATS_LANES];
        for lanes in values.chunks_exact(STATS_LANES) {
            for ((lo, hi), &v) in lo.iter_mut().zip(hi.iter_mut()).zip(lanes) {
                *lo = if v < *lo { v } else { *lo };
                *hi = if v > *hi { v } else { *hi };
            }
        }
        self.min = lo.into_iter().fold(self.min, f32::min);
        self.max = hi.into_iter().fold(self.max, f32::max);
    }

    /// Texel by texel: min and max of the finite ones, count and first position of the
    /// others. `first` is the first texel's index in the slab.
    fn add_texels(&mut self, params: &FillParams, values: &[f32], channels: usize, first: usize) {
        for (i, texel) in values.chunks_exact(channels).enumerate() {
            let v = texel[0];
            if texel.iter().all(|c| c.is_finite()) {
                self.min = self.min.min(v);
                self.max = self.max.max(v);
            } else {
                if self.non_finite == 0 {
                    self.first_non_finite = texel_of(params, first + i);
                }
                self.non_finite += 1;
            }
        }
    }
}

/// Regenerates each chunk with the `f32` CPU mirror of the spec's lookup variant and
/// compares every channel.
struct Verifier {
    lookup: CpuLookup,
    /// The kernel the CPU reference runs: the spec's plan.
    plan: Plan,
    spec: NoiseSpec,
    reference: Vec<f32>,
    report: VerifyReport,
}

impl Verifier {
    fn new(spec: &NoiseSpec, tolerance: f32) -> Self {
        let plan = spec.plan();
        // A graph's derivatives on its own evaluators follow docs/graphs.md's relative bound.
        let graph_derivatives = (plan.program().is_some() && spec.output != FieldOutput::Value)
            .then_some(DerivativeCheck {
                values: 0,
                max_relative_error: 0.0,
                tolerance: crate::gpu::parity::GRAPH_DERIVATIVE_TOLERANCE,
                over: 0,
            });
        let gradient = spec.output == FieldOutput::Gradient && graph_derivatives.is_none();
        let gradient_tolerance = gradient.then_some(tolerance * GRADIENT_TOLERANCE_SCALE);
        Verifier {
            lookup: CpuLookup::new(spec.lookup, spec.seed),
            plan,
            spec: spec.clone(),
            reference: Vec::new(),
            report: VerifyReport {
                samples: 0,
                max_abs_error: 0.0,
                worst_texel: [0; 4],
                max_gradient_error: gradient.then_some(0.0),
                over_tolerance: 0,
                tolerance,
                gradient_tolerance,
                has_value: !(spec.output == FieldOutput::Curl && graph_derivatives.is_some()),
                graph_derivatives,
            },
        }
    }

    fn check(&mut self, params: &FillParams, values: &[f32]) -> Result<()> {
        let channels = self.spec.channels();
        if values.len() != params.len() * channels {
            return Err(NoiseError::Output(format!(
                "internal error: a chunk of {} floats described as {} texels of {channels}",
                values.len(),
                params.len()
            )));
        }
        self.reference.resize(values.len(), 0.0);
        self.lookup
            .fill(&self.plan, self.spec.output, params, &mut self.reference);
        let report = &mut self.report;
        // NaN compares false with everything: count it as the worst possible error.
        let error = |a: f32, b: f32| {
            let e = (a - b).abs();
            if e.is_nan() {
                f32::INFINITY
            } else {
                e
            }
        };
        for (i, (a, b)) in values
            .chunks_exact(channels)
            .zip(self.reference.chunks_exact(channels))
            .enumerate()
        {
            // Every component of curl noise is its value; otherwise channel 0 is. A graph's
            // derivatives are held to their own bound below.
            let value_channels = match (self.spec.output, &report.graph_derivatives) {
                (FieldOutput::Curl, None) => channels,
                (FieldOutput::Curl, Some(_)) => 0,
                _ => 1,
            };
            let value_error = (0..value_channels)
                .map(|c| error(a[c], b[c]))
                .fold(0.0, f32::max);
            if value_error > report.max_abs_error {
                report.max_abs_error = value_error;
                report.worst_texel = texel_of(params, i);
            }
            let mut over = value_error > report.tolerance;
            if let (Some(max), Some(tolerance)) = (
                report.max_gradient_error.as_mut(),
                report.gradient_tolerance,
            ) {
                let g = (1..channels).map(|c| error(a[c], b[c])).fold(0.0, f32::max);
                *max = max.max(g);
                over |= g > tolerance;
            }
            report.over_tolerance += over as u64;
            if let Some(d) = report.graph_derivatives.as_mut() {
                for c in value_channels..channels {
                    let e = error(a[c], b[c]) / (1.0 + b[c].abs());
                    if e <= d.tolerance {
                        d.max_relative_error = d.max_relative_error.max(e);
                    } else {
                        d.over += 1;
                    }
                }
                d.values += (channels - value_channels) as u64;
            }
        }
        report.samples += params.len() as u64;
        Ok(())
    }
}

/// The field texel of sample `i` of the box `params` describes.
fn texel_of(params: &FillParams, i: usize) -> [u32; 4] {
    let [ex, ey, ez, _] = params.extent.map(|e| e as usize);
    let local = [
        i % ex,
        (i / ex) % ey,
        (i / (ex * ey)) % ez,
        i / (ex * ey * ez),
    ];
    std::array::from_fn(|a| params.origin[a] + local[a] as u32)
}
