//! `wgpu-noise sample`: points on stdin, one value per line on stdout.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc::SyncSender;

use crate::cpu::Precision;
use crate::field::{FieldOutput, FlagField};
use crate::gpu::{GpuContext, GpuNoise};
use crate::graph::{self, Program};
use crate::tables::PermutationTables;
use crate::text::{quote_prefix, QUOTE_BYTES};
use crate::NoiseKind;
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};

use super::{CellularOptions, FlowOptions, NoiseOptions, WarpOptions};

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
    /// Name the backend that evaluates (the adapter and wgpu backend, or the CPU) on stderr.
    #[arg(long)]
    pub verbose: bool,
    #[command(flatten)]
    pub cellular: CellularOptions,
    #[command(flatten)]
    pub warp: WarpOptions,
    #[command(flatten)]
    pub flow: FlowOptions,
    /// A noise graph file (JSON, docs/graphs.md), evaluated instead of --noise and its
    /// options.
    #[arg(long, value_name = "FILE", conflicts_with_all = GRAPH_CONFLICTS)]
    pub graph: Option<PathBuf>,
}

/// The options `--graph` replaces (clap argument ids).
const GRAPH_CONFLICTS: [&str; 9] = [
    "kind",
    "cellular",
    "distance",
    "jitter",
    "warp",
    "warp_octaves",
    "warp_frequency",
    "warp_iterations",
    "flow_angle",
];

/// The longest line accepted, in bytes (without its line ending): a point is at most four
/// numbers, so anything longer is not one, and reading stops there instead of buffering it.
pub const MAX_LINE: usize = 4096;

/// Points per message from the input thread: what one read of the input holds, at most this.
const CHUNK: usize = 4096;

/// Most messages queued between the input thread and the evaluation: with [`CHUNK`] and
/// [`BATCH`], the bound on the points held at once (about 3 MiB), whatever the input length.
const QUEUE: usize = 16;

/// Points evaluated together (one GPU dispatch) when the input arrives faster than the
/// evaluation: the queued chunks are merged up to this size.
const BATCH: usize = 65536;

/// Reads whitespace-separated points, one per line, and prints one value per line with 17
/// significant digits, streaming: a thread reads and parses the input while the values of
/// what has arrived are evaluated and printed (and flushed), so memory stays bounded and a
/// reader of the output sees each value soon after its line is written.
///
/// A malformed line is an error naming its number (exit 1). Values of the lines before it
/// that were already evaluated stay printed: input that arrives at once (up to a batch)
/// prints nothing, a long stream prints the values of every earlier batch. A closed stdout
/// (`| head -1`) ends the run quietly and successfully.
pub fn run(args: SampleArgs) -> Result<()> {
    let dims = args.noise.dims as usize;
    let backend = open_backend(&args)?;
    let arithmetic = match (args.backend, args.precision) {
        (SampleBackend::Gpu, _) => Arithmetic::F32("--backend gpu"),
        (SampleBackend::Cpu, PrecisionArg::F32) => Arithmetic::F32("--precision f32"),
        (SampleBackend::Cpu, PrecisionArg::F64) => Arithmetic::F64,
    };

    let (tx, rx) = std::sync::mpsc::sync_channel(QUEUE);
    std::thread::Builder::new()
        .name("sample input".into())
        .spawn(move || read_chunks(std::io::stdin().lock(), dims, arithmetic, &tx))
        .context("starting the input thread")?;

    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut values = Vec::new();
    // The input thread ends (and the channel closes) at the end of the input or after an
    // error it sent.
    while let Ok(first) = rx.recv() {
        let mut batch = first?;
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(more) => batch.extend(more?),
                Err(_) => break,
            }
        }
        backend.evaluate(&batch, &mut values)?;
        let written = values
            .iter()
            .try_for_each(|&v| write_17(&mut out, v))
            .and_then(|()| out.flush());
        match written {
            Ok(()) => {}
            // The reader has what it wanted (`| head -1`): a quiet, successful end.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(e).context("writing to stdout"),
        }
    }
    Ok(())
}

/// The arithmetic the points are evaluated in, which bounds the coordinates a line may
/// hold: a finite `f64` beyond `f32`'s range would become infinite (and the value NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arithmetic {
    /// `f64`: every finite coordinate.
    F64,
    /// `f32`, because of the option named: coordinates within ±`f32::MAX` once rounded.
    F32(&'static str),
}

/// What evaluates the points: the graph of the noise options (or of `--graph`) on the
/// CPU evaluator at a precision, or on the GPU.
struct Backend {
    program: Program,
    on: GraphOn,
    /// Whether each value becomes `v + 0.0`, as the flags' warped or flowing noise sums its
    /// one octave `0 + 1·n` (`cpu::fractal`), which turns a −0 into +0, where the graph of
    /// one octave is the source itself (`cpu::simd::LanePlan::positive_zero` for fills).
    positive_zero: bool,
}

/// Where the graph is evaluated.
enum GraphOn {
    Cpu {
        lut: PermutationTables,
        precision: Precision,
    },
    Gpu {
        gpu: GpuNoise,
        _ctx: GpuContext,
    },
}

/// Backend selection for `--backend` (and `--precision`): the one place that decides where
/// `sample` evaluates and may say so on stderr (an adapter line for a `--verbose`, a
/// fallback notice) before any input is read. The noise options are a graph
/// (`graph::flags`), evaluated as a `--graph` file is.
fn open_backend(args: &SampleArgs) -> Result<Backend> {
    if let Some(path) = &args.graph {
        let field = FlagField::new(NoiseKind::Simplex, &vec![1; args.noise.dims as usize]);
        let program = super::load_graph(path, &field)?;
        let on = open_evaluator(args, &program, None, &format!(", graph {}", path.display()))?;
        return Ok(Backend {
            program,
            on,
            positive_zero: false,
        });
    }
    let kind: NoiseKind = args.noise.kind.into();
    let field = FlagField::new(kind, &vec![1; args.noise.dims as usize])
        .with_cellular(args.cellular.resolve(kind)?)
        .with_warp(args.warp.resolve()?)
        .with_flow_angle(args.flow.resolve()?);
    // The warp's ranges and where flow applies, checked as for a field.
    field.validate()?;
    let program = graph::flags::program_of(&field, FieldOutput::Value)?;
    let on = open_evaluator(args, &program, Some(kind), "")?;
    Ok(Backend {
        program,
        on,
        positive_zero: field.warp.is_active() || field.flow_angle != 0.0,
    })
}

/// Where [`open_backend`] evaluates `program`; on the GPU, the point evaluation of `probe`'s
/// noise is checked first (`GpuNoise::self_check_points`). `what` ends the `--verbose` line.
fn open_evaluator(
    args: &SampleArgs,
    program: &Program,
    probe: Option<NoiseKind>,
    what: &str,
) -> Result<GraphOn> {
    let on = match args.backend {
        SampleBackend::Cpu => {
            let precision = match args.precision {
                PrecisionArg::F64 => Precision::F64,
                PrecisionArg::F32 => Precision::F32,
            };
            if args.verbose {
                errln!(
                    "sample: cpu, {}{what}",
                    format!("{precision:?}").to_lowercase()
                )?;
            }
            GraphOn::Cpu {
                lut: PermutationTables::new(args.noise.seed),
                precision,
            }
        }
        SampleBackend::Gpu => {
            if args.precision == PrecisionArg::F64 && std::env::args().any(|a| a == "--precision") {
                bail!("--backend gpu computes in f32; drop --precision f64 or use --backend cpu");
            }
            let ctx = GpuContext::new().context("--backend gpu needs a GPU adapter")?;
            let gpu = GpuNoise::new(&ctx.device, &ctx.queue, args.noise.seed)?;
            if args.verbose {
                errln!("sample: gpu ({}), f32{what}", gpu.adapter_description())?;
            }
            if let Some(kind) = probe {
                gpu.self_check_points(kind, program.dims)?;
            }
            GraphOn::Gpu { gpu, _ctx: ctx }
        }
    };
    Ok(on)
}

impl Backend {
    /// The values at `points` (their first `dims` coordinates) into `values`.
    fn evaluate(&self, points: &[[f64; 4]], values: &mut Vec<f64>) -> Result<()> {
        values.clear();
        let program = &self.program;
        match &self.on {
            GraphOn::Cpu { lut, precision } => {
                let mut regs64 = Vec::new();
                let mut regs32 = Vec::new();
                values.extend(points.iter().map(|p| match precision {
                    Precision::F64 => graph::eval::value::<f64>(program, lut, *p, &mut regs64),
                    Precision::F32 => {
                        let q = p.map(|v| v as f32);
                        graph::eval::value::<f32>(program, lut, q, &mut regs32) as f64
                    }
                }));
            }
            GraphOn::Gpu { gpu, .. } => {
                let pts: Vec<[f32; 4]> = points.iter().map(|p| p.map(|v| v as f32)).collect();
                values.extend(
                    gpu.evaluate_graph(program, FieldOutput::Value, &pts)?
                        .into_iter()
                        .map(f64::from),
                );
            }
        }
        if self.positive_zero {
            values.iter_mut().for_each(|v| *v += 0.0);
        }
        Ok(())
    }
}

/// The input thread: reads lines (at most [`MAX_LINE`] bytes each), parses them, and sends
/// the points in chunks: a chunk goes out when it is full or when the input has nothing
/// more buffered (the next read may wait), so nothing waits for input that has not come.
/// A bad line sends its error instead of the chunk that holds it, and ends the thread.
fn read_chunks(
    input: impl Read,
    dims: usize,
    arithmetic: Arithmetic,
    tx: &SyncSender<Result<Vec<[f64; 4]>>>,
) {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut line = Vec::with_capacity(MAX_LINE + 2);
    for number in 1.. {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 2)
            .read_until(b'\n', &mut line);
        let point = match read {
            Ok(0) => break,
            Ok(_) => parse_line(&line, number, dims, arithmetic),
            Err(e) => Err(anyhow::Error::new(e).context(format!("reading line {number}"))),
        };
        match point {
            Ok(p) => chunk.push(p),
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        }
        if chunk.len() == CHUNK || reader.buffer().is_empty() {
            let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
            if tx.send(Ok(full)).is_err() {
                return; // The output side has ended.
            }
        }
    }
    if !chunk.is_empty() {
        let _ = tx.send(Ok(chunk));
    }
}

/// One line (with its line ending, if any) as a point; errors name the line `number` and
/// quote at most a short prefix of it.
fn parse_line(
    bytes: &[u8],
    number: usize,
    dims: usize,
    arithmetic: Arithmetic,
) -> Result<[f64; 4]> {
    let content = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let content = content.strip_suffix(b"\r").unwrap_or(content);
    if content.len() > MAX_LINE {
        bail!(
            "line {number}: longer than {MAX_LINE} bytes, not a point (it starts {})",
            quote_prefix(&String::from_utf8_lossy(&content[..=QUOTE_BYTES]))
        );
    }
    let Ok(line) = std::str::from_utf8(content) else {
        bail!("line {number}: not UTF-8 text");
    };
    if line.trim().is_empty() {
        bail!("line {number}: empty line, expected {dims} coordinates");
    }
    let found = line.split_whitespace().count();
    if found != dims {
        bail!(
            "line {number}: expected {dims} coordinates, found {found}: {}",
            quote_prefix(line)
        );
    }
    let mut p = [0.0f64; 4];
    for (slot, text) in p.iter_mut().zip(line.split_whitespace()) {
        let v: f64 = text.parse().map_err(|_| {
            anyhow::anyhow!("line {number}: {} is not a number", quote_prefix(text))
        })?;
        if !v.is_finite() {
            bail!(
                "line {number}: coordinate {} is not finite",
                quote_prefix(text)
            );
        }
        if let Arithmetic::F32(option) = arithmetic {
            if (v as f32).is_infinite() {
                bail!(
                    "line {number}: coordinate {} is beyond the f32 range (±{:e}) that {option} computes in",
                    quote_prefix(text),
                    f32::MAX
                );
            }
        }
        *slot = v;
    }
    Ok(p)
}

/// `v` with 17 significant digits, the shortest that round-trips any f64, and a newline:
/// in fixed notation from 1e-5 to below 1e16 (noise values), in scientific notation outside
/// (`1.2345678901234567e-300`, not 300 zeros).
fn write_17(out: &mut impl Write, v: f64) -> std::io::Result<()> {
    let magnitude = v.abs();
    if v == 0.0 || (1e-5..1e16).contains(&magnitude) {
        writeln!(out, "{:.*}", digits_after_point(v), v)
    } else {
        writeln!(out, "{v:.16e}")
    }
}

/// Digits after the decimal point that make 17 significant digits in fixed notation.
fn digits_after_point(v: f64) -> usize {
    if v == 0.0 {
        return 16;
    }
    let exponent = v.abs().log10().floor() as i32;
    (16 - exponent).max(0) as usize
}
