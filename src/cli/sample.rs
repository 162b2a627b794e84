//! `wgpu-noise sample`: points on stdin, one value per line on stdout.

use std::io::{BufRead, BufWriter, Write};

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use wgpu_noise::cpu::{self, Precision};
use wgpu_noise::gpu::{GpuContext, GpuNoise};
use wgpu_noise::tables::LookupTables;
use wgpu_noise::NoiseKind;

use super::{CellularOptions, NoiseOptions};

/// `--precision f64|f32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PrecisionArg {
    /// The f64 reference (Gustavson's Java code).
    F64,
    /// The f32 mirror of the shaders.
    F32,
}

/// `--backend cpu|gpu` for sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SampleBackend {
    /// The CPU reference, at `--precision`.
    Cpu,
    /// The GPU shaders (always f32).
    Gpu,
}

/// Arguments of `wgpu-noise sample`.
#[derive(Args, Debug)]
pub struct SampleArgs {
    #[command(flatten)]
    pub noise: NoiseOptions,
    /// Arithmetic of the CPU reference.
    #[arg(long, value_enum, default_value = "f64")]
    pub precision: PrecisionArg,
    /// Where to evaluate: the CPU reference or the GPU shaders (f32).
    #[arg(long, value_enum, default_value = "cpu")]
    pub backend: SampleBackend,
    #[command(flatten)]
    pub cellular: CellularOptions,
}

/// Reads whitespace-separated points, one per line, and prints one value per line with 17
/// significant digits. A malformed line is an error naming its number; nothing is printed
/// for it, and the exit code is non-zero.
pub fn run(args: SampleArgs) -> Result<()> {
    let dims = args.noise.dims as usize;
    let kind: NoiseKind = args.noise.kind.into();
    let cellular = args.cellular.resolve(kind)?;
    let shape = cpu::cellular::CellularShape::from_options(&cellular);
    let points = read_points(std::io::stdin().lock(), dims)?;
    let values: Vec<f64> = match args.backend {
        SampleBackend::Cpu => {
            let lut = LookupTables::new(args.noise.seed);
            let precision = match args.precision {
                PrecisionArg::F64 => Precision::F64,
                PrecisionArg::F32 => Precision::F32,
            };
            points
                .iter()
                .map(|p| {
                    let q: Vec<f32> = p[..dims].iter().map(|&v| v as f32).collect();
                    match (precision, kind) {
                        (Precision::F64, NoiseKind::Cellular) => {
                            cpu::cellular::cellular::<f64>(&lut, &p[..dims], &shape)
                        }
                        (Precision::F32, NoiseKind::Cellular) => {
                            cpu::cellular::cellular::<f32>(&lut, &q, &shape) as f64
                        }
                        (Precision::F64, _) => cpu::noise_at::<f64>(&lut, kind, &p[..dims]),
                        (Precision::F32, _) => cpu::noise_at::<f32>(&lut, kind, &q) as f64,
                    }
                })
                .collect()
        }
        SampleBackend::Gpu => {
            if args.precision == PrecisionArg::F64 && std::env::args().any(|a| a == "--precision") {
                bail!("--backend gpu computes in f32; drop --precision f64 or use --backend cpu");
            }
            if kind == NoiseKind::Cellular && cellular != Default::default() {
                bail!("--backend gpu samples cellular noise with the default options only (f1, euclidean, jitter 1); use --backend cpu");
            }
            super::quiet_xdg_runtime_dir();
            let ctx = GpuContext::new().context("--backend gpu needs a GPU adapter")?;
            let gpu = GpuNoise::new(&ctx.device, &ctx.queue, args.noise.seed)?;
            let pts: Vec<[f32; 4]> = points.iter().map(|p| p.map(|v| v as f32)).collect();
            gpu.evaluate(kind, dims, &pts)?
                .into_iter()
                .map(f64::from)
                .collect()
        }
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    for v in values {
        writeln!(out, "{}", format_17(v))?;
    }
    out.flush()?;
    Ok(())
}

/// Parses every line before anything is printed, so a bad line leaves no partial output.
fn read_points(input: impl BufRead, dims: usize) -> Result<Vec<[f64; 4]>> {
    let mut points = Vec::new();
    for (n, line) in input.lines().enumerate() {
        let number = n + 1;
        let line = line.with_context(|| format!("reading line {number}"))?;
        if line.trim().is_empty() {
            bail!("line {number}: empty line, expected {dims} coordinates");
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != dims {
            bail!(
                "line {number}: expected {dims} coordinates, found {}: {line:?}",
                fields.len()
            );
        }
        let mut p = [0.0f64; 4];
        for (slot, text) in p.iter_mut().zip(&fields) {
            let v: f64 = text
                .parse()
                .map_err(|_| anyhow::anyhow!("line {number}: {text:?} is not a number"))?;
            if !v.is_finite() {
                bail!("line {number}: coordinate {text:?} is not finite");
            }
            *slot = v;
        }
        points.push(p);
    }
    Ok(points)
}

/// 17 significant digits, the shortest that round-trips any f64.
fn format_17(v: f64) -> String {
    format!("{:.*}", digits_after_point(v), v)
}

/// Digits after the decimal point that make 17 significant digits in fixed notation.
fn digits_after_point(v: f64) -> usize {
    if v == 0.0 {
        return 16;
    }
    let exponent = v.abs().log10().floor() as i32;
    (16 - exponent).max(0) as usize
}
