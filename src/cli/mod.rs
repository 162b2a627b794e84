//! Subcommands of the `wgpu-noise` binary, one module each, and the options they share.

/// `println!` that returns an error instead of panicking when stdout cannot be written
/// (`>/dev/full`, a closed pipe): `outln!("...")?`.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::write_line($crate::cli::Stream::Stdout, format_args!($($arg)*))
    };
}

/// `eprintln!` that returns an error instead of panicking: `errln!("...")?`.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::write_line($crate::cli::Stream::Stderr, format_args!($($arg)*))
    };
}

mod bake;
pub mod bench;
mod command;
#[cfg(feature = "preview")]
pub mod preview;
mod sample;

pub use command::main;

use crate::field::{Cellular, CellularOutput, Distance, Warp};
use crate::ramp::ColourRamp;
use crate::NoiseKind;
use clap::{Args, ValueEnum};

/// `--noise classic|simplex|cellular|value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// Classic Perlin noise.
    Classic,
    /// Simplex noise.
    Simplex,
    /// Cellular (Worley) noise (options: --cellular, --distance, --jitter).
    Cellular,
    /// Value noise: a value per lattice point, blended with the quintic fade.
    Value,
}

impl From<KindArg> for NoiseKind {
    fn from(k: KindArg) -> Self {
        match k {
            KindArg::Classic => NoiseKind::Classic,
            KindArg::Simplex => NoiseKind::Simplex,
            KindArg::Cellular => NoiseKind::Cellular,
            KindArg::Value => NoiseKind::Value,
        }
    }
}

/// `--fractal fbm|turbulence|ridged`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FractalArg {
    /// Fractional Brownian motion: the plain sum of octaves, in [-1, 1].
    Fbm,
    /// The sum of |octave|, in [0, 1].
    Turbulence,
    /// Ridged multifractal (Musgrave), in [0, 1].
    Ridged,
}

impl From<FractalArg> for crate::field::FractalMode {
    fn from(f: FractalArg) -> Self {
        match f {
            FractalArg::Fbm => crate::field::FractalMode::Fbm,
            FractalArg::Turbulence => crate::field::FractalMode::Turbulence,
            FractalArg::Ridged => crate::field::FractalMode::Ridged,
        }
    }
}

/// `--backend gpu|cpu|auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    /// The GPU; an error when no adapter exists.
    Gpu,
    /// The CPU reference.
    Cpu,
    /// The GPU when an adapter exists, else the CPU (with a notice on stderr).
    Auto,
}

/// Options every noise-producing subcommand shares.
#[derive(Args, Clone, Debug)]
pub struct NoiseOptions {
    /// Noise family.
    #[arg(long = "noise", value_enum, default_value = "simplex")]
    pub kind: KindArg,
    /// Number of dimensions.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4), allow_negative_numbers = true)]
    pub dims: u8,
    /// Seed of the permutation (0 = Perlin's original, as in Gustavson's code).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = whole_number::<u64>)]
    pub seed: u64,
}

/// `--cellular f1|f2|f2-f1|cell`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CellularArg {
    /// Distance to the nearest feature point.
    F1,
    /// Distance to the second-nearest feature point.
    F2,
    /// F2 - F1 (zero on cell edges).
    #[value(name = "f2-f1")]
    F2MinusF1,
    /// The nearest feature's cell value, in [-1, 1].
    Cell,
}

/// `--distance euclidean|manhattan|chebyshev`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DistanceArg {
    /// √(Σ d²).
    Euclidean,
    /// Σ |d|.
    Manhattan,
    /// max |d|.
    Chebyshev,
}

/// The options of `--noise cellular`.
#[derive(Args, Clone, Debug)]
pub struct CellularOptions {
    /// Cellular noise output: f1, f2, f2-f1 (distances in lattice units) or cell (a
    /// per-cell value in [-1,1]). Default f1.
    #[arg(long, value_enum)]
    pub cellular: Option<CellularArg>,
    /// Cellular noise distance: euclidean (default), manhattan or chebyshev.
    #[arg(long, value_enum)]
    pub distance: Option<DistanceArg>,
    /// Cellular noise: how far feature points stray from cell centres, 0 to 1 (default 1).
    #[arg(long, value_name = "J", allow_hyphen_values = true)]
    pub jitter: Option<String>,
}

impl CellularOptions {
    /// The cellular options; an error when one is given for another kind of noise, or
    /// the jitter is not a number in [0, 1].
    pub fn resolve(&self, kind: NoiseKind) -> anyhow::Result<Cellular> {
        let given = self.cellular.is_some() || self.distance.is_some() || self.jitter.is_some();
        if kind != NoiseKind::Cellular && given {
            anyhow::bail!("--cellular, --distance and --jitter apply to --noise cellular only");
        }
        let mut c = Cellular::default();
        if let Some(o) = self.cellular {
            c.output = match o {
                CellularArg::F1 => CellularOutput::F1,
                CellularArg::F2 => CellularOutput::F2,
                CellularArg::F2MinusF1 => CellularOutput::F2MinusF1,
                CellularArg::Cell => CellularOutput::Cell,
            };
        }
        if let Some(d) = self.distance {
            c.distance = match d {
                DistanceArg::Euclidean => Distance::Euclidean,
                DistanceArg::Manhattan => Distance::Manhattan,
                DistanceArg::Chebyshev => Distance::Chebyshev,
            };
        }
        if let Some(text) = &self.jitter {
            c.jitter = match text.trim().parse::<f64>() {
                Ok(j) if (0.0..=1.0).contains(&j) => j,
                _ => anyhow::bail!("--jitter must be a number from 0 to 1, not {text:?}"),
            };
        }
        Ok(c)
    }
}

/// The domain warp options (docs/noise-kinds.md, "Domain warp").
#[derive(Args, Clone, Debug, Default)]
pub struct WarpOptions {
    /// Domain warp: move each sample point by A times a vector of noise before sampling
    /// (A in lattice cells of the noise; default 0, no warp).
    #[arg(long, value_name = "A", allow_hyphen_values = true)]
    pub warp: Option<String>,
    /// Domain warp: fBm octaves of the warp noise (default 1; the field's lacunarity and gain).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub warp_octaves: Option<String>,
    /// Domain warp: frequency of the warp noise relative to the field's (default 1).
    #[arg(long, value_name = "F", allow_hyphen_values = true)]
    pub warp_frequency: Option<String>,
    /// Domain warp: 1 = warp, 2 = warp of a warp (Quilez), up to 4 (default 1).
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    pub warp_iterations: Option<String>,
}

impl WarpOptions {
    /// The warp; an error when a number does not parse, or an option is given without
    /// `--warp` (the field's validation checks the ranges).
    pub fn resolve(&self) -> anyhow::Result<Warp> {
        let mut w = Warp::default();
        let number = |flag: &str, text: &str| -> anyhow::Result<f64> {
            match text.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => anyhow::bail!("{flag} must be a finite number, not {text:?}"),
            }
        };
        let count = |flag: &str, text: &str| -> anyhow::Result<u32> {
            text.trim()
                .parse()
                .map_err(|_| anyhow::anyhow!("{flag} must be a whole number, not {text:?}"))
        };
        if let Some(text) = &self.warp {
            w.amplitude = number("--warp", text)?;
        } else if self.warp_octaves.is_some()
            || self.warp_frequency.is_some()
            || self.warp_iterations.is_some()
        {
            anyhow::bail!(
                "--warp-octaves, --warp-frequency and --warp-iterations need --warp A (the amplitude)"
            );
        }
        if let Some(text) = &self.warp_frequency {
            w.frequency = number("--warp-frequency", text)?;
        }
        if let Some(text) = &self.warp_octaves {
            w.octaves = count("--warp-octaves", text)?;
        }
        if let Some(text) = &self.warp_iterations {
            w.iterations = count("--warp-iterations", text)?;
        }
        Ok(w)
    }
}

/// `--flow-angle` (docs/noise-kinds.md, "Flow noise").
#[derive(Args, Clone, Debug, Default)]
pub struct FlowOptions {
    /// Flow noise: turn simplex noise's gradients by A radians (2D and 3D; animating A makes
    /// the pattern swirl in place; default 0, plain simplex noise).
    #[arg(long, value_name = "A", allow_hyphen_values = true)]
    pub flow_angle: Option<String>,
}

impl FlowOptions {
    /// The angle in radians (0 without the option); an error when it does not parse (the
    /// field's validation checks where it applies).
    pub fn resolve(&self) -> anyhow::Result<f64> {
        match &self.flow_angle {
            None => Ok(0.0),
            Some(text) => match text.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => anyhow::bail!("--flow-angle must be a finite number of radians, not {text:?}"),
            },
        }
    }
}

/// Standard output or standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// A write to stdout or stderr that failed. `main` ends quietly with status 0 when the
/// reader went away (a closed pipe: `| head -1`), else with one error line and status 1.
#[derive(Debug)]
pub struct StreamError {
    /// Where the write went.
    pub stream: Stream,
    /// Why it failed.
    pub error: std::io::Error,
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match self.stream {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        };
        write!(f, "writing to {name}: {}", self.error)
    }
}

impl std::error::Error for StreamError {}

impl StreamError {
    /// Whether the reader of the stream has gone (a closed pipe).
    pub fn reader_gone(&self) -> bool {
        self.error.kind() == std::io::ErrorKind::BrokenPipe
    }
}

/// Writes `args` and a newline to `stream`, flushed (what `outln!` and `errln!` expand to).
pub fn write_line(stream: Stream, args: std::fmt::Arguments<'_>) -> Result<(), StreamError> {
    use std::io::Write;
    let written = match stream {
        Stream::Stdout => {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{args}").and_then(|()| out.flush())
        }
        Stream::Stderr => writeln!(std::io::stderr().lock(), "{args}"),
    };
    written.map_err(|error| StreamError { stream, error })
}

/// Silences lavapipe's "XDG_RUNTIME_DIR is invalid or not set" on machines without it;
/// `main` calls it first, so every subcommand and every child it starts inherits it.
pub fn quiet_xdg_runtime_dir() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        let dir = std::env::temp_dir().join(format!("wgpu-noise-xdg-{}", unsafe_uid()));
        if std::fs::create_dir_all(&dir).is_ok() {
            std::env::set_var("XDG_RUNTIME_DIR", dir);
        }
    }
}

fn unsafe_uid() -> String {
    std::env::var("USER").unwrap_or_else(|_| "user".into())
}

/// A notice for each temporary file of an earlier, killed `wgpu-noise` that
/// [`AtomicFile::create`](crate::bake::file::AtomicFile::create) deleted.
pub fn report_leftovers(file: &crate::bake::file::AtomicFile) -> Result<(), StreamError> {
    for path in file.removed_leftovers() {
        errln!(
            "notice: removed {}, left by an interrupted wgpu-noise whose process is gone",
            path.display()
        )?;
    }
    Ok(())
}

/// A usage error clap found, as one line like every other error: clap's message, the
/// items it lists on the lines below it (joined with commas) and its tips; without the
/// usage synopsis and the pointer to `--help`.
pub fn usage_error_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let mut line = first.strip_prefix("error: ").unwrap_or(first).to_string();
    let mut items = Vec::new();
    let mut tips = Vec::new();
    for l in lines {
        let trimmed = l.trim();
        if l.starts_with("Usage:") || trimmed.starts_with("For more information") {
            break;
        }
        if let Some(tip) = trimmed.strip_prefix("tip: ") {
            tips.push(tip.to_string());
        } else if !trimmed.is_empty() {
            items.push(trimmed.to_string());
        }
    }
    if !items.is_empty() {
        line = format!("{} {}", line.trim_end(), items.join(", "));
    }
    for tip in tips {
        line += &format!(" ({tip})");
    }
    format!("error: {line}")
}

/// A clap value parser for a whole number of at least 0 that fits in `T` (`--seed`,
/// `--overlap`, `--columns`, ...): clap puts the option's name before the message, e.g.
/// `invalid value '-1' for '--seed <SEED>': must be a whole number ≥ 0`. The options that
/// use it take hyphen values, so that `-1` reaches it instead of being read as an option.
pub fn whole_number<T: TryFrom<u64>>(text: &str) -> Result<T, String> {
    let t = text.trim();
    match t.parse::<u64>() {
        Ok(v) => T::try_from(v).map_err(|_| {
            // T is an unsigned integer type of fewer than 64 bits here.
            let max = (1u64 << (8 * std::mem::size_of::<T>())) - 1;
            format!("must be a whole number from 0 to {max}")
        }),
        Err(_) if t.starts_with('-') && t[1..].parse::<f64>().is_ok() => {
            Err("must be a whole number ≥ 0".into())
        }
        Err(_) => Err("not a whole number".into()),
    }
}

/// The clap value parser of `--ramp`: the library's ramp names, listed by `--help` and in
/// the error for any other name.
pub fn ramp_parser() -> impl clap::builder::TypedValueParser<Value = ColourRamp> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(ColourRamp::ALL.map(ColourRamp::name))
        .map(|name: String| ColourRamp::from_name(&name).expect("one of the possible values"))
}

/// A clap value parser for a finite number ≥ 0 (`--tolerance`).
pub fn non_negative_f32(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Ok(_) => Err("must be a finite number ≥ 0".into()),
        Err(_) => Err("not a number".into()),
    }
}

/// The options a noise graph replaces (clap argument ids): `--graph` refuses them rather
/// than ignore them.
pub const GRAPH_CONFLICTS: [&str; 14] = [
    "kind",
    "octaves",
    "lacunarity",
    "gain",
    "fractal",
    "kernel",
    "cellular",
    "distance",
    "jitter",
    "warp",
    "warp_octaves",
    "warp_frequency",
    "warp_iterations",
    "flow_angle",
];

/// Reads the graph file at `path` and lowers it for `field` (its dimensions and tiling).
pub fn load_graph(
    path: &std::path::Path,
    field: &crate::Field,
) -> anyhow::Result<crate::graph::Program> {
    let text = crate::graph::read_file(path)
        .map_err(|e| anyhow::anyhow!("--graph {}: {e}", path.display()))?;
    let graph = crate::graph::Graph::from_json(&text)
        .map_err(|e| anyhow::anyhow!("--graph {}: {e}", path.display()))?;
    graph
        .program(field.dims, field.tile_period())
        .map_err(|e| anyhow::anyhow!("--graph {}: {e}", path.display()))
}
