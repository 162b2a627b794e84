//! `wgpu-noise bake`: a noise texture or volume to a PNG, EXR, .npy, KTX2 or RAW file.
//!
//! The work is [`crate::bake`]'s; this module parses the options (into one-line
//! errors, never clap's multi-line usage dumps, for values clap cannot check), picks the
//! backend, and reports.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use crate::bake::file::AtomicFile;
use crate::bake::{
    self, BakeOptions, CpuSource, Encoding, ExrCompression, FileFormat, GpuSource, KtxTexel,
    NoiseSpec, PngDepth, SampleSource, ValueRange,
};
use crate::field::{FlagField, Fractal, Kernel};
use crate::gpu::{GpuContext, GpuNoise, LookupVariant};
use crate::ramp::ColourRamp;
use crate::{FieldOutput, NoiseError, NoiseKind};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use super::GRAPH_CONFLICTS;

use super::{BackendArg, CellularOptions, FlowOptions, FractalArg, NoiseOptions, WarpOptions};

/// Arguments of `wgpu-noise bake`.
///
/// Texel `i` along an axis of `N` texels samples the noise at `offset + frequency * i / N`.
#[derive(Args, Debug)]
#[command(after_help = "\
Formats (from the extension, or --format; docs/formats.md has the details): .png 16-bit \
(or --bits 8) grayscale, level p of 65535 = low + (high-low)*p/65535 over --range \
(default -1,1; 0,1 for --fractal turbulence and ridged, whose values lie in [0,1]); .exr \
one float channel Y, 32-bit (or --half), ZIP (or --compression none|piz); .npy \
little-endian f32 of shape (y,x), (z,y,x) or (w,z,y,x); .ktx2 a 2D or 3D texture, \
R32_SFLOAT (or --half: R16_SFLOAT; --bits 16|8: R16/R8_UNORM levels over --range); \
.r16/.raw little-endian u16 levels over --range, no header (the size is printed). In \
PNG and EXR a 3D/4D field is a slice atlas: slice s = z + depth*w is the tile at column \
s % C, row s / C.

--gradient (any field or --graph, on the CPU or the GPU) writes value and analytic gradient \
(derivatives with respect to noise-space coordinates): .exr with 4 float channels \
R = value, G = d/dx, B = d/dy, A = d/dz (0 in 2D); .npy with a trailing axis of 4 \
(shape (y,x,4) or (z,y,x,4)). --normal-map writes a 2D RGB PNG tangent-space normal map, \
OpenGL convention (+X right, +Y up = towards the top row): \
n = normalize(-s*dv/dx, -s*dv/dy_up, 1) with derivatives per texel (noise-space \
derivative * frequency/size) and s = --normal-strength, stored as (n+1)/2.

Examples:
  wgpu-noise bake --size 512x512 --frequency 8 -o clouds.png
  wgpu-noise bake --size 512x512 --frequency 4 --octaves 6 -o fbm.png
  wgpu-noise bake --size 256x256 --frequency 4 --octaves 5 --fractal ridged -o ridges.png
  wgpu-noise bake --size 256x256 --frequency 4 --octaves 4 --tileable -o tile.png
  wgpu-noise bake --size 256x256 --frequency 8 --octaves 4 --normal-map -o normals.png
  wgpu-noise bake --size 256x256 --frequency 8 --gradient -o value_and_gradient.exr
  wgpu-noise bake --dims 3 --size 128x128x128 -o density.npy
  wgpu-noise bake --dims 4 --noise classic --size 64x64x64x32 -o animated.exr
  wgpu-noise bake --dims 3 --size 128 --half -o density.ktx2
  wgpu-noise bake --size 4096 --octaves 8 -o terrain.r16
  wgpu-noise bake --size 65536 --octaves 8 --tiles 16,16 --tile 3,5 -o tile_3_5.exr
  wgpu-noise bake --noise cellular --cellular f2-f1 --size 256x256 --range 0,1 -o cells.png")]
pub struct BakeArgs {
    #[command(flatten)]
    pub noise: NoiseOptions,
    /// Texels per axis: WxH (2D), WxHxD (3D), WxHxDxT (4D), as many sizes as --dims; one
    /// number N means N along every axis.
    #[arg(long, value_name = "WxH[xD[xT]]", allow_hyphen_values = true)]
    pub size: String,
    /// Lattice cells across the field: one value for every axis, or one per axis (F,F,F).
    #[arg(
        long,
        value_name = "F[,F...]",
        default_value = "8",
        allow_hyphen_values = true
    )]
    pub frequency: String,
    /// Noise-space coordinate of texel 0, one value per axis (X,Y[,Z[,W]]); default 0.
    #[arg(long, value_name = "X,Y[,Z[,W]]", allow_hyphen_values = true)]
    pub offset: Option<String>,
    /// A noise graph file (JSON, docs/graphs.md): computed instead of --noise and the options
    /// that shape it (octaves, fractal, kernel, cellular, warp, flow).
    #[arg(long, value_name = "FILE", conflicts_with_all = GRAPH_CONFLICTS)]
    pub graph: Option<PathBuf>,
    /// Output file; the extension picks the format: .png, .exr, .npy, .ktx2, .r16/.raw.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The format, whatever the extension: png, exr, npy, ktx2 or raw.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// EXR and KTX2: 16-bit floats (half, R16_SFLOAT) instead of 32-bit.
    #[arg(long)]
    pub half: bool,
    /// EXR block compression: none, zip (default: lossless, the OpenEXR library's own
    /// default, read by every EXR reader) or piz.
    #[arg(long, value_enum)]
    pub compression: Option<CompressionArg>,
    /// Bake only tile I,J[,K] (counting from 0) of the field --size describes, with exactly
    /// the texels' values in the whole bake; needs --tiles. See docs/tiles.md.
    #[arg(
        long,
        value_name = "I,J[,K]",
        requires = "tiles",
        allow_hyphen_values = true
    )]
    pub tile: Option<String>,
    /// Tiles along x, y[, z] the whole field is split into (the last one smaller when the
    /// count does not divide the size).
    #[arg(
        long,
        value_name = "NX,NY[,NZ]",
        requires = "tile",
        allow_hyphen_values = true
    )]
    pub tiles: Option<String>,
    /// With --tile: also bake N texels past the tile's far edges (x, y, z), so that
    /// neighbouring tiles share a border of N texels (none past the field's edge).
    #[arg(long, value_name = "N", requires = "tile", allow_hyphen_values = true,
          value_parser = super::whole_number::<u32>)]
    pub overlap: Option<u32>,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Where to generate: gpu, cpu (the f32 reference, all cores), or auto (the GPU when an
    /// adapter exists and can hold the field, else the CPU, with a notice on stderr).
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendArg,
    /// Recompute every sample with the f32 CPU reference; print the max abs error and the
    /// count over --tolerance; fail (writing nothing) if any sample is over.
    #[arg(long)]
    pub verify: bool,
    /// Tolerance of --verify (absolute) on the value; gradient channels get 10x (they reach
    /// ~10 where values reach 1). Default: the documented GPU/CPU parity tolerance 1e-5
    /// (4e-3 for --tileable 2D simplex: 4D noise on a torus via cos/sin, measured up to
    /// 1.7e-3); simplex 3D/4D may need ~2e-3 on some GPUs (r²=0.6 boundary jumps).
    #[arg(long, requires = "verify", allow_hyphen_values = true,
          value_parser = super::non_negative_f32)]
    pub tolerance: Option<f32>,
    /// PNG and KTX2 (R8/R16_UNORM) bits per sample: 8 or 16 (default 16; KTX2 default is
    /// R32_SFLOAT, RAW is always 16).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(["8", "16"]))]
    pub bits: Option<String>,
    /// PNG, RAW and KTX2 --bits: the values of the darkest and brightest level, LOW,HIGH
    /// (default -1,1).
    #[arg(long, value_name = "LOW,HIGH", allow_hyphen_values = true)]
    pub range: Option<String>,
    /// PNG/EXR of a 3D/4D field: tiles per atlas row (must divide the slice count).
    /// Default: near-square in 3D, one row per w step in 4D.
    #[arg(long, allow_hyphen_values = true, value_parser = super::whole_number::<u32>)]
    pub columns: Option<u32>,
    /// Fractal octaves summed (1 to 16; 1 = the plain noise).
    #[arg(
        long,
        value_name = "N",
        default_value = "1",
        allow_hyphen_values = true
    )]
    pub octaves: String,
    /// Frequency ratio between successive octaves.
    #[arg(
        long,
        value_name = "L",
        default_value = "2",
        allow_hyphen_values = true
    )]
    pub lacunarity: String,
    /// Amplitude ratio between successive octaves.
    #[arg(
        long,
        value_name = "G",
        default_value = "0.5",
        allow_hyphen_values = true
    )]
    pub gain: String,
    /// How octaves combine: fbm (plain sum, values in about [-1,1]), turbulence (sum of
    /// |noise|, in [0,1]) or ridged (Musgrave's ridged multifractal, in [0,1]).
    #[arg(long, value_enum, default_value = "fbm")]
    pub fractal: FractalArg,
    /// Make opposite edges join seamlessly; the tile period along each axis is the
    /// frequency. Classic and cellular noise in any dimension (whole-number frequencies),
    /// simplex in 2D (any frequency) and 3D (whole-number frequencies; another lattice).
    #[arg(long)]
    pub tileable: bool,
    /// Simplex 3D/4D kernel: reference (r²=0.6, as Gustavson's code; tiny jumps at simplex
    /// boundaries) or continuous (r²=0.5, rescaled to the same range).
    #[arg(long, value_enum, default_value = "reference")]
    pub kernel: KernelArg,
    /// Where the permutation and gradients come from: textures (Gustavson's tables, the
    /// reference values) or hash (computed, texture-free; another pattern).
    #[arg(long, value_enum, default_value = "textures")]
    pub lookup: LookupArg,
    /// Write value and gradient (.exr: R,G,B,A = value, d/dx, d/dy, d/dz; .npy: trailing
    /// axis of 4). Any field or --graph (docs/graphs.md: the derivative rule of each
    /// node), on the CPU or the GPU.
    #[arg(long)]
    pub gradient: bool,
    /// Write curl noise, the divergence-free vector field of the noise (2D: its rotated
    /// gradient; 3D: the curl of three decorrelated copies; simplex noise in 3D takes the
    /// continuous kernel): 2 or 3 channels (.exr RG/RGB, .npy trailing axis, .png an RGB
    /// flow map over --range, default -8,8). Any 2D or 3D field or --graph, on the CPU or
    /// the GPU.
    #[arg(long, conflicts_with_all = ["gradient", "normal_map"])]
    pub curl: bool,
    /// Colour a value PNG with a ramp (an RGB PNG: the ramp's colour of the value's place
    /// in --range); gray writes the plain grayscale PNG.
    #[arg(long, value_name = "RAMP", value_parser = super::ramp_parser(), default_value = "gray")]
    pub ramp: ColourRamp,
    /// Write a tangent-space normal map (2D, RGB PNG, OpenGL convention +Y up) from the
    /// gradient.
    #[arg(long)]
    pub normal_map: bool,
    /// Height scale s of --normal-map (default 1: the noise value is the height in texels).
    #[arg(long, value_name = "S", allow_hyphen_values = true)]
    pub normal_strength: Option<String>,
    #[command(flatten)]
    pub cellular: CellularOptions,
    #[command(flatten)]
    pub warp: WarpOptions,
    #[command(flatten)]
    pub flow: FlowOptions,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Grayscale (or normal map) PNG.
    Png,
    /// OpenEXR.
    Exr,
    /// NumPy array.
    Npy,
    /// KTX2 texture.
    Ktx2,
    /// 16-bit little-endian RAW heightmap.
    Raw,
}

/// `--compression none|zip|piz`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompressionArg {
    /// Uncompressed.
    None,
    /// ZIP, 16 scan lines per block.
    Zip,
    /// PIZ, 32 scan lines per block.
    Piz,
}

/// `--kernel reference|continuous`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KernelArg {
    /// r² = 0.6, as the reference code.
    Reference,
    /// r² = 0.5, continuous.
    Continuous,
}

/// `--lookup textures|hash`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LookupArg {
    /// Lookup textures (Gustavson's tables).
    Textures,
    /// Integer hash, no textures.
    Hash,
}

/// The default `--range` of a curl flow map: curl components reach about ±6 in 2D and ±8
/// in 3D (docs/noise-kinds.md, "Curl noise"); beyond, they are clamped and counted.
const CURL_RANGE: ValueRange = ValueRange {
    low: -8.0,
    high: 8.0,
};

/// Runs the subcommand.
impl BakeArgs {
    /// What the flags ask each texel to hold (the one place they map to the library's
    /// output): `--gradient`, and `--normal-map` (made from the gradient), the value and
    /// gradient; `--curl` curl noise.
    fn output(&self) -> FieldOutput {
        if self.curl {
            FieldOutput::Curl
        } else if self.gradient || self.normal_map {
            FieldOutput::Gradient
        } else {
            FieldOutput::Value
        }
    }
}

pub fn run(args: BakeArgs) -> Result<()> {
    let dims = args.noise.dims as usize;
    let kind: NoiseKind = args.noise.kind.into();
    // A tiled bake's whole field may hold more samples than one bake may (the tile is
    // checked instead).
    let size = parse_size(&args.size, dims, args.tile.is_some())?;
    let frequency = parse_numbers("--frequency", &args.frequency, dims, true)?;
    // Frequency 0 samples one coordinate along the axis: a constant, never what a bake of
    // several texels is for (a size of 1 says so, if it is).
    for (axis, (f, n)) in ["x", "y", "z", "w"].iter().zip(frequency.iter().zip(&size)) {
        if *f == 0.0 && *n > 1 {
            bail!(
                "--frequency {}: 0 along {axis} makes every one of its {n} texels sample the same coordinate (a constant); give a non-zero frequency",
                args.frequency
            );
        }
    }
    let offset = match &args.offset {
        Some(text) => parse_numbers("--offset", text, dims, false)?,
        None => vec![0.0; dims],
    };
    let fractal = Fractal {
        mode: args.fractal.into(),
        octaves: parse_count("--octaves", &args.octaves)?,
        lacunarity: parse_numbers("--lacunarity", &args.lacunarity, 1, false)?[0],
        gain: parse_numbers("--gain", &args.gain, 1, false)?[0],
    };
    let kernel = match args.kernel {
        KernelArg::Reference => Kernel::Reference,
        KernelArg::Continuous => Kernel::Continuous,
    };
    let lookup = match args.lookup {
        LookupArg::Textures => LookupVariant::Textures,
        LookupArg::Hash => LookupVariant::Hash,
    };
    let mut field = FlagField::new(kind, &size)
        .with_frequency(&frequency)
        .with_offset(&offset)
        .with_fractal(fractal)
        .with_tileable(args.tileable)
        .with_kernel(kernel)
        .with_cellular(args.cellular.resolve(kind)?)
        .with_warp(args.warp.resolve()?)
        .with_flow_angle(args.flow.resolve()?);
    if let (Some(tile), Some(tiles)) = (&args.tile, &args.tiles) {
        let index = parse_counts("--tile", tile)?;
        let count = parse_counts("--tiles", tiles)?;
        field.grid = bake::source::tile(&field.grid, &index, &count, args.overlap.unwrap_or(0))
            .with_context(|| format!("--tile {tile} --tiles {tiles}"))?;
    }
    // Every bake computes a graph: the file's, or the one the flags describe, whose
    // options are checked first so that a message names the flag. A graph the flags'
    // hand-written fill computes runs on it (`NoiseSpec::plan`).
    let spec = match &args.graph {
        Some(path) => {
            let program = super::load_graph(path, &field)?;
            NoiseSpec::new(program, field.grid.clone(), args.noise.seed).with_output(args.output())
        }
        None => NoiseSpec::of_flags(&field, args.output(), args.noise.seed)?,
    }
    .with_lookup(lookup);
    let options = BakeOptions {
        encoding: encoding(&args)?,
        atlas_columns: args.columns,
        overwrite: args.force,
        verify: args.verify.then(|| {
            args.tolerance
                .unwrap_or_else(|| bake::default_tolerance(&spec))
        }),
    };
    // Everything that can fail before the (possibly slow) GPU start-up and work: the
    // options, then the output (exists? a directory? can its directory take a new file?).
    options.plan(&spec)?;
    let with_hint = |e: NoiseError| match e {
        NoiseError::OutputExists(path) => anyhow::anyhow!(
            "{} already exists; pass --force to overwrite it",
            path.display()
        ),
        other => other.into(),
    };
    let file = AtomicFile::create(&args.output, args.force).map_err(with_hint)?;
    super::report_leftovers(&file)?;

    let mut source = pick_source(args.backend, &spec)?;
    let progress = progress_bar(spec.field.len());
    let started = Instant::now();
    let report = bake::bake_into(&spec, source.as_mut(), file, &options, &mut |done, _| {
        progress.set_position(done)
    });
    progress.finish_and_clear();
    let report = report.map_err(with_hint)?;

    if let Some(v) = &report.verify {
        outln!("verify: {}", v.summary())?;
    }
    if report.clamped > 0 {
        match options.encoding.value_range() {
            Some(range) => errln!(
                "notice: {} of {} samples were outside [{}, {}] and clamped to the PNG's range (widen it with --range)",
                report.clamped,
                report.samples,
                bake::shortest(range.low),
                bake::shortest(range.high)
            )?,
            // Half floats (`--half`): every value of every texel is one.
            None => errln!(
                "notice: {} of {} values were outside [-65504, 65504] and clamped to the largest finite half float (write 32-bit floats without --half)",
                report.clamped,
                report.samples * spec.output.values_per_sample(spec.field.dims) as u64
            )?,
        }
    }
    let layout = if options.encoding.format().is_image() && report.atlas.slices > 1 {
        format!(
            ", {}x{} atlas of {} slices",
            report.atlas.width(),
            report.atlas.height(),
            report.atlas.slices
        )
    } else {
        String::new()
    };
    errln!(
        "wrote {}: {}, {}{layout}, values in [{}, {}], {} in {:.2} s",
        args.output.display(),
        spec.describe(),
        options.encoding.describe(),
        bake::shortest(report.min),
        bake::shortest(report.max),
        source.name(),
        started.elapsed().as_secs_f64()
    )?;
    if options.encoding.format() == FileFormat::Raw {
        // The file holds no size: engines' RAW import asks for it.
        let f = &spec.field;
        let size: Vec<String> = f.size[..f.dims].iter().map(u32::to_string).collect();
        outln!(
            "raw: {} texels (width x height{}), 16-bit little-endian, no header",
            size.join(" x "),
            [" x depth", " x depth x time"][..f.dims - 2].concat()
        )?;
    }
    Ok(())
}

/// The encoding from --format or the extension, and the options that apply to it (which
/// other formats refuse).
fn encoding(args: &BakeArgs) -> Result<Encoding> {
    let format = match args.format {
        Some(FormatArg::Png) => FileFormat::Png,
        Some(FormatArg::Exr) => FileFormat::Exr,
        Some(FormatArg::Npy) => FileFormat::Npy,
        Some(FormatArg::Ktx2) => FileFormat::Ktx2,
        Some(FormatArg::Raw) => FileFormat::Raw,
        // The library lists the extensions; the flag that overrides them is the CLI's.
        None => FileFormat::from_path(&args.output)
            .map_err(|e| anyhow::anyhow!("{e} (or name it with --format)"))?,
    };
    let name = format.extension();
    if args.normal_strength.is_some() && !args.normal_map {
        bail!("--normal-strength applies to --normal-map only");
    }
    if args.half && !matches!(format, FileFormat::Exr | FileFormat::Ktx2) {
        bail!("--half applies to .exr and .ktx2 only");
    }
    if args.compression.is_some() && format != FileFormat::Exr {
        bail!("--compression applies to .exr only");
    }
    if args.half && args.bits.is_some() {
        bail!("--half and --bits: pick one (R16_SFLOAT floats, or UNORM levels)");
    }
    let range = || -> Result<ValueRange> {
        match &args.range {
            // Turbulence and ridged sums lie in [0, 1]: -1..1 would waste half the levels.
            None if args.fractal != FractalArg::Fbm => Ok(ValueRange::new(0.0, 1.0)?),
            None => Ok(ValueRange::NOMINAL),
            Some(text) => {
                let v = parse_numbers("--range", text, 2, false)?;
                Ok(ValueRange::new(v[0], v[1]).with_context(|| format!("--range {text}"))?)
            }
        }
    };
    if args.ramp != ColourRamp::Gray
        && (format != FileFormat::Png || args.output() != FieldOutput::Value || args.normal_map)
    {
        bail!(
            "--ramp {}: colour ramps are for PNGs of the value (not {})",
            args.ramp.name(),
            if format != FileFormat::Png {
                format!(".{name}")
            } else if args.normal_map {
                "--normal-map".to_string()
            } else if args.output() == FieldOutput::Curl {
                "--curl, whose PNG is a flow map".to_string()
            } else {
                "--gradient".to_string()
            }
        );
    }
    if args.normal_map {
        if format != FileFormat::Png {
            bail!("--normal-map writes a PNG, not .{name} (for the raw gradient use --gradient)");
        }
        if args.range.is_some() {
            bail!("--range does not apply to --normal-map (normals are stored as (n+1)/2)");
        }
        let strength = match &args.normal_strength {
            Some(text) => parse_numbers("--normal-strength", text, 1, false)?[0],
            None => 1.0,
        };
        if strength < 0.0 {
            bail!(
                "--normal-strength {}: must be ≥ 0",
                bake::shortest(strength)
            );
        }
        return Ok(Encoding::NormalMap {
            depth: png_depth(args),
            strength,
        });
    }
    let output = args.output();
    if output == FieldOutput::Gradient && format == FileFormat::Png {
        bail!("--gradient: a grayscale PNG holds one value per texel; write .exr or .npy, or pass --normal-map");
    }
    if output == FieldOutput::Gradient && matches!(format, FileFormat::Ktx2 | FileFormat::Raw) {
        bail!("--gradient: .{name} holds one value per texel; write .exr or .npy");
    }
    match format {
        FileFormat::Png if output == FieldOutput::Curl => Ok(Encoding::FlowMap {
            depth: png_depth(args),
            range: match &args.range {
                None => CURL_RANGE,
                Some(_) => range()?,
            },
        }),
        FileFormat::Png => Ok(Encoding::Png {
            depth: png_depth(args),
            range: range()?,
            ramp: args.ramp,
        }),
        FileFormat::Ktx2 if args.bits.is_some() => Ok(Encoding::Ktx2 {
            texel: KtxTexel::Unorm {
                depth: png_depth(args),
                range: range()?,
            },
        }),
        FileFormat::Ktx2 if args.range.is_some() => {
            bail!("--range applies to KTX2 levels (--bits 8|16); float texels store the values themselves")
        }
        FileFormat::Ktx2 => Ok(Encoding::Ktx2 {
            texel: if args.half {
                KtxTexel::Float16
            } else {
                KtxTexel::Float32
            },
        }),
        FileFormat::Raw => {
            if args.bits.as_deref() == Some("8") {
                bail!("--bits 8: RAW heightmaps are 16-bit (use .png or .ktx2 for 8 bits)");
            }
            Ok(Encoding::Raw { range: range()? })
        }
        FileFormat::Exr | FileFormat::Npy => {
            let png_only = [
                ("--bits", args.bits.is_some()),
                ("--range", args.range.is_some()),
            ];
            if let Some((flag, _)) = png_only.iter().find(|(_, given)| *given) {
                bail!("{flag} applies to PNG, KTX2 and RAW output only; .{name} stores the values themselves");
            }
            if format == FileFormat::Npy {
                return Ok(Encoding::Npy);
            }
            Ok(Encoding::Exr {
                half: args.half,
                compression: match args.compression {
                    None => ExrCompression::default(),
                    Some(CompressionArg::None) => ExrCompression::None,
                    Some(CompressionArg::Zip) => ExrCompression::Zip,
                    Some(CompressionArg::Piz) => ExrCompression::Piz,
                },
            })
        }
    }
}

/// `--bits`: 16 unless 8.
fn png_depth(args: &BakeArgs) -> PngDepth {
    match args.bits.as_deref() {
        Some("8") => PngDepth::Eight,
        _ => PngDepth::Sixteen,
    }
}

/// The GPU, the CPU, or (auto) the GPU if there is one that can hold the field.
fn pick_source(backend: BackendArg, spec: &NoiseSpec) -> Result<Box<dyn SampleSource>> {
    if backend == BackendArg::Cpu {
        return Ok(Box::new(CpuSource::new()));
    }
    let cpu_instead = |reason: String| -> Result<Box<dyn SampleSource>> {
        errln!(
            "notice: {reason}; baking on the CPU instead ({} threads)",
            rayon::current_num_threads()
        )?;
        Ok(Box::new(CpuSource::new()))
    };
    let ctx = match GpuContext::new() {
        Ok(ctx) => ctx,
        Err(e) if backend == BackendArg::Gpu => return Err(e).context("--backend gpu"),
        Err(_) => return cpu_instead("no GPU adapter".into()),
    };
    let info = ctx.adapter.get_info();
    // A software rasteriser (lavapipe, llvmpipe) is slower than the CPU backend's own
    // code on the same cores: auto takes the CPU there.
    if backend == BackendArg::Auto && info.device_type == wgpu::DeviceType::Cpu {
        return cpu_instead(format!(
            "the only GPU adapter, {} ({:?}), is a software rasteriser, slower than the CPU \
             backend",
            info.name, info.backend
        ));
    }
    let gpu =
        GpuNoise::with_variant(&ctx.device, &ctx.queue, spec.seed, spec.lookup).and_then(|noise| {
            // The adapter's self-check (GpuNoise runs it anyway; here its failure can
            // still choose the CPU).
            noise.self_check(spec.plan().field().kind, spec.field.dims)?;
            let source = GpuSource::new(noise);
            source.check(spec)?;
            Ok(source)
        });
    match (gpu, backend) {
        (Ok(source), _) => Ok(Box::new(source)),
        (Err(e), BackendArg::Gpu) => Err(e).context("--backend gpu"),
        (Err(e @ NoiseError::SelfCheck { .. }), _) => cpu_instead(e.to_string()),
        (Err(e), _) => cpu_instead(format!("the GPU cannot bake this: {e}")),
    }
}

/// A progress bar on stderr when it is a terminal; hidden (drawing nothing) otherwise.
fn progress_bar(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template("baking {bar:40} {percent:>3}% {elapsed}<{eta}")
    {
        bar.set_style(style);
    }
    bar
}

/// `WxH`, `WxHxD`, `WxHxDxT` (as many sizes as `dims`), or `N` for every axis.
fn parse_size(text: &str, dims: usize, tiled: bool) -> Result<Vec<u32>> {
    let parts: Vec<&str> = text.split(['x', 'X']).map(str::trim).collect();
    let parts = if parts.len() == 1 {
        vec![parts[0]; dims]
    } else {
        parts
    };
    if parts.len() != dims {
        let example = ["W", "H", "D", "T"][..dims].join("x");
        bail!(
            "--size {text}: {} sizes, but --dims is {dims} (give {example}, or --dims {})",
            parts.len(),
            parts.len()
        );
    }
    let mut size = Vec::with_capacity(dims);
    for (axis, part) in ["x", "y", "z", "w"].iter().zip(&parts) {
        let n: u64 = part.parse().map_err(|_| {
            anyhow::anyhow!("--size {text}: {part:?} is not a whole number of texels")
        })?;
        if n == 0 {
            bail!("--size {text}: the size along {axis} is 0");
        }
        if n > crate::field::MAX_AXIS_SIZE as u64 {
            bail!(
                "--size {text}: the size along {axis} is {n}, above the maximum {}",
                crate::field::MAX_AXIS_SIZE
            );
        }
        size.push(n as u32);
    }
    // Exact: four sizes of up to 2^24 multiply to at most 2^96.
    let samples: u128 = size.iter().map(|&s| s as u128).product();
    if samples > crate::field::MAX_FIELD_SAMPLES as u128 && !tiled {
        bail!(
            "--size {text}: {samples} samples, above the maximum {}",
            crate::field::MAX_FIELD_SAMPLES
        );
    }
    Ok(size)
}

/// Comma-separated whole numbers (tile indices and counts).
fn parse_counts(flag: &str, text: &str) -> Result<Vec<u32>> {
    text.split(',')
        .map(|part| {
            part.trim()
                .parse()
                .map_err(|_| anyhow::anyhow!("{flag} {text}: {part:?} is not a whole number"))
        })
        .collect()
}

/// A whole number of at least 0 (the range check is [`Field::validate`]'s).
fn parse_count(flag: &str, text: &str) -> Result<u32> {
    text.trim()
        .parse()
        .map_err(|_| anyhow::anyhow!("{flag} {text}: not a whole number"))
}

/// Comma-separated finite numbers: `dims` of them, or (`broadcast`) one for every axis.
fn parse_numbers(flag: &str, text: &str, dims: usize, broadcast: bool) -> Result<Vec<f64>> {
    let mut values = Vec::new();
    for part in text.split(',').map(str::trim) {
        let v: f64 = part
            .parse()
            .map_err(|_| anyhow::anyhow!("{flag} {text}: {part:?} is not a number"))?;
        if !v.is_finite() {
            bail!("{flag} {text}: {part:?} is not a finite number");
        }
        values.push(v);
    }
    match values.len() {
        1 if broadcast => Ok(vec![values[0]; dims]),
        n if n == dims => Ok(values),
        n => bail!(
            "{flag} {text}: {n} values, expected {}{dims}",
            if broadcast { "1 or " } else { "" }
        ),
    }
}
