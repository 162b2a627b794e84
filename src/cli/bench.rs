//! `wgpu-noise bench`: every path on the same work, in one run, as M samples/s and as a
//! ratio to noise-rs.
//!
//! Paths: `gpu-fill` (record_fill into our own encoder and storage texture, no readback;
//! device timestamps where the adapter has them), `gpu-fill-wall` (the same runs, host
//! clock around submit + wait), `gpu-fill+readback` (`GpuNoise::generate`), `gpu-empty`
//! (the store floor: constants into the same texture), `cpu-f32-1t` / `cpu-f32-all` (the
//! CPU reference in a one-thread pool / rayon's global pool), `cpu-simd-1t` / `cpu-simd-all`
//! (the SIMD fill, same values, texture tables) and `cpu-simd-hash-1t` / `cpu-simd-hash-all`
//! (the hash variant; the instruction set is in the header) and, with the `bench-peers`
//! feature, `noise-rs` and `fastnoise-lite` in one thread.

use std::sync::Arc;
use std::time::Duration;

pub mod harness;

use self::harness::{self as bench, Clock, GpuBench, Workload};
use crate::cpu::simd::lane_plan;
use crate::cpu::CpuLookup;
use crate::gpu::LookupVariant;
use crate::graph::plan::Plan;
use crate::tables::PermutationTables;
use crate::FieldOutput;
use crate::NoiseKind;
use anyhow::{bail, Context, Result};
use clap::Args;

use super::{FractalArg, KindArg, StreamError};

/// Arguments of `wgpu-noise bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Smaller workloads (1024², 128³, 32⁴ instead of 2048², 256³, 64⁴): a few seconds.
    #[arg(long)]
    pub quick: bool,
    /// Timed runs per measurement (the median is reported), after one untimed warm-up on
    /// the GPU paths.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100), allow_negative_numbers = true)]
    pub repeats: u32,
    /// Print one JSON object per line (path, noise, dims, samples, msamples_per_s, ...)
    /// instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Only this noise family.
    #[arg(long = "noise", value_enum)]
    pub kind: Option<KindArg>,
    /// Only this number of dimensions.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=4), allow_negative_numbers = true)]
    pub dims: Option<u8>,
    /// Seed of the permutation (0 = Perlin's).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = super::whole_number::<u64>)]
    pub seed: u64,
    /// Skip the GPU paths (also what happens, with a notice, when there is no adapter).
    #[arg(long)]
    pub cpu_only: bool,
    /// Domain-warp every field by A lattice cells (one warp octave at the field's
    /// frequency, one iteration); the rows' noise is then e.g. `simplex+warp`, and the
    /// fastnoise-lite row warps with its own OpenSimplex2 domain warp of amplitude A.
    #[arg(long, value_name = "A", allow_negative_numbers = true)]
    pub warp: Option<f32>,
    /// Flow noise: turn simplex noise's gradients by A radians (simplex 2D and 3D only; the
    /// rows' noise is `simplex+flow`; no peer has flow noise, so there is no peer row).
    #[arg(
        long,
        value_name = "A",
        conflicts_with = "warp",
        allow_negative_numbers = true
    )]
    pub flow_angle: Option<f32>,
    /// Tileable fields: each tiles with the workload's whole number of cells as its period
    /// (rows e.g. `simplex+tiled`; 4D simplex does not tile, so it has no row; no peer tiles
    /// this way, so there is no peer row). With --graph, the graph tiled so.
    #[arg(long, conflicts_with_all = ["warp", "flow_angle"])]
    pub tileable: bool,
    /// Curl noise, 2D and 3D (rows `curl`): the GPU fill into an `Rgba32Float` target and
    /// the scalar and SIMD CPU fills (no peer has curl noise, so there is no peer row).
    #[arg(long, conflicts_with_all = ["warp", "flow_angle", "tileable"])]
    pub curl: bool,
    /// Fractal fields: N octaves (lacunarity 2, gain 0.5) summed as --fractal says (rows
    /// e.g. `simplex+fbm5`; no peer row): the flag fields a graph doing the same work is
    /// compared with.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=16), conflicts_with = "curl", allow_negative_numbers = true)]
    pub octaves: Option<u32>,
    /// How --octaves combine (default fbm).
    #[arg(long, value_enum, requires = "octaves")]
    pub fractal: Option<FractalArg>,
    /// Time the noise graph in FILE (docs/graphs.md) instead of the noise families, on every
    /// workload it lowers for: the scalar and SIMD CPU graph fills (both lookups) and the
    /// GPU's graph fill with readback; rows named `graph:<file stem>` (`graph:<file
    /// stem>+tiled` with --tileable, skipping the workloads where the graph does not tile).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["kind", "warp", "flow_angle", "curl", "octaves"])]
    pub graph: Option<std::path::PathBuf>,
    /// Time every node type of docs/graphs.md alone, one graph each (its inputs simplex
    /// noises of other seeds, required numbers 0.5 or the nearest allowed, required choices
    /// the first), on the SIMD CPU graph fill's one-thread paths and the GPU's graph fill
    /// with readback; rows named `node:<type>`: what a node costs. Then the variants whose
    /// cost differs (each warp noise and fractal form, cellular metric and output, a
    /// weighted strength, a node-driven parameter), rows named `node:<type> <param>=<value>`.
    #[arg(long, conflicts_with_all = ["kind", "warp", "flow_angle", "tileable", "curl", "octaves", "graph"])]
    pub nodes: bool,
}

/// How `bench` shapes every field beyond the plain noise: `--warp`, `--flow-angle`,
/// `--tileable` or `--curl`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Shaping {
    pub warp: Option<f32>,
    pub flow_angle: Option<f32>,
    pub tileable: bool,
    /// What the fields compute: the value, or curl noise (`--curl`).
    pub output: FieldOutput,
    /// `--octaves` (and `--fractal`).
    pub fractal: Option<crate::field::Fractal>,
}

impl Shaping {
    /// The workload's field of `kind`, shaped; `None` where the shaping does not apply
    /// (flow and curl noise are simplex 2D/3D, 4D simplex does not tile).
    fn field(&self, w: &Workload, kind: NoiseKind) -> Option<crate::field::FlagField> {
        let field = w.field(kind);
        if self.curl() {
            return (kind == NoiseKind::Simplex && w.dims <= 3).then_some(field);
        }
        if self.tileable {
            return (kind != NoiseKind::Simplex || w.dims <= 3).then(|| field.with_tileable(true));
        }
        if let Some(angle) = self.flow_angle {
            return (kind == NoiseKind::Simplex && w.dims <= 3)
                .then(|| field.with_flow_angle(angle as f64));
        }
        let field = match self.fractal {
            Some(fractal) => field.with_fractal(fractal),
            None => field,
        };
        Some(match self.warp {
            Some(amplitude) => field.with_warp(crate::field::Warp {
                amplitude: amplitude as f64,
                ..Default::default()
            }),
            None => field,
        })
    }

    /// The rows' noise name for `kind`: the shaped name, then `+fbm5` for `--octaves 5`.
    fn noise(&self, kind: NoiseKind) -> String {
        let mut name = self.shaped_noise(kind).to_string();
        if let Some(f) = self.fractal {
            let mode = match f.mode {
                crate::field::FractalMode::Fbm => "fbm",
                crate::field::FractalMode::Turbulence => "turbulence",
                crate::field::FractalMode::Ridged => "ridged",
            };
            name += &format!("+{mode}{}", f.octaves);
        }
        name
    }

    /// The rows' noise name for `kind` before the fractal.
    fn shaped_noise(&self, kind: NoiseKind) -> &'static str {
        if self.curl() {
            return "curl";
        }
        if self.tileable {
            return match kind {
                NoiseKind::Classic => "classic+tiled",
                NoiseKind::Simplex => "simplex+tiled",
                NoiseKind::Cellular => "cellular+tiled",
                NoiseKind::Value => "value+tiled",
                NoiseKind::SuperSimplex => "supersimplex+tiled",
            };
        }
        match (self.warp.is_some(), self.flow_angle.is_some(), kind) {
            (_, true, _) => "simplex+flow",
            (true, _, NoiseKind::Classic) => "classic+warp",
            (true, _, NoiseKind::Simplex) => "simplex+warp",
            (true, _, NoiseKind::Cellular) => "cellular+warp",
            (true, _, NoiseKind::Value) => "value+warp",
            (true, _, NoiseKind::SuperSimplex) => "supersimplex+warp",
            (false, false, _) => kind.name(),
        }
    }

    /// Whether the fields are the plain noise (noise-rs applies).
    #[cfg(feature = "bench-peers")]
    fn is_plain(&self) -> bool {
        self.warp.is_none()
            && self.flow_angle.is_none()
            && !self.tileable
            && !self.curl()
            && self.fractal.is_none()
    }

    fn curl(&self) -> bool {
        self.output == FieldOutput::Curl
    }
}

/// One measured line of the table.
#[derive(Clone, Debug)]
pub struct Row {
    pub path: &'static str,
    /// `classic`, `simplex`, shaped (`simplex+warp`), `graph:<name>`, or `empty` for the
    /// empty kernel.
    pub noise: String,
    pub dims: usize,
    pub samples: u64,
    pub time: Duration,
    pub clock: Option<Clock>,
    /// The device's timestamps were implausible, so `time` is the wall time.
    pub rejected: bool,
}

impl Row {
    pub fn msamples_per_s(&self) -> f64 {
        bench::msamples_per_s(self.samples, self.time)
    }
}

/// Runs the subcommand.
pub fn run(args: BenchArgs) -> Result<()> {
    let workloads: Vec<Workload> = (if args.quick {
        Workload::QUICK
    } else {
        Workload::STANDARD
    })
    .into_iter()
    .filter(|w| args.dims.is_none_or(|d| d as usize == w.dims))
    .collect();
    // Classic and simplex by default; cellular (slower, and scalar on the CPU) when asked
    // for with `--noise cellular`.
    let kinds: Vec<NoiseKind> = match args.kind {
        Some(kind) => vec![NoiseKind::from(kind)],
        None => NoiseKind::ALL.to_vec(),
    };
    let repeats = args.repeats as usize;
    let shaping = Shaping {
        warp: args.warp,
        flow_angle: args.flow_angle,
        tileable: args.tileable,
        output: if args.curl {
            FieldOutput::Curl
        } else {
            FieldOutput::Value
        },
        fractal: args.octaves.map(|octaves| crate::field::Fractal {
            mode: args.fractal.unwrap_or(FractalArg::Fbm).into(),
            octaves,
            lacunarity: 2.0,
            gain: 0.5,
        }),
    };
    if let Some(w) = args.warp.filter(|a| !a.is_finite()) {
        bail!("--warp {w}: the amplitude must be a finite number");
    }
    if let Some(a) = args.flow_angle.filter(|a| !a.is_finite()) {
        bail!("--flow-angle {a}: the angle must be a finite number of radians");
    }
    // A shaping that applies to none of the chosen fields would measure nothing and print
    // an empty table: say why instead.
    let applies = workloads
        .iter()
        .any(|w| kinds.iter().any(|&k| shaping.field(w, k).is_some()));
    if !applies {
        let (flag, reason) = if args.curl {
            (
                "--curl",
                "curl noise is made from simplex noise in 2D and 3D",
            )
        } else if args.tileable {
            ("--tileable", "4D simplex noise does not tile")
        } else {
            (
                "--flow-angle",
                "flow noise turns the gradients of simplex noise in 2D and 3D",
            )
        };
        let chosen = [
            args.kind
                .map(|k| format!("--noise {}", NoiseKind::from(k).name())),
            args.dims.map(|d| format!("--dims {d}")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
        bail!("{flag}: {reason}; nothing to measure with {chosen}");
    }

    let gpu = if args.cpu_only {
        None
    } else {
        match bench::bench_context() {
            Ok(ctx) => {
                let adapter = ctx.describe();
                let gpu = GpuBench::new(&ctx.device, &ctx.queue, args.seed)
                    .context("setting up the GPU benchmark")?;
                Some((ctx, adapter, gpu))
            }
            Err(e) => {
                errln!("notice: GPU paths skipped: {e}")?;
                None
            }
        }
    };
    let adapter = gpu
        .as_ref()
        .map_or("none (GPU paths skipped)".to_string(), |(_, a, _)| {
            a.clone()
        });
    let clock = gpu.as_ref().map(|(_, _, g)| g.clock());
    let header = format!(
        "wgpu-noise bench · {} · {} (load {}) · adapter: {adapter} · GPU fill clock: {} · CPU SIMD: {} · median of {repeats} · {} texels per lattice cell",
        bench::today_utc(),
        bench::machine_description(),
        bench::load_average().map_or("?".to_string(), |l| format!("{l:.2}")),
        clock.map_or("-", Clock::name),
        crate::cpu::simd_level(),
        bench::TEXELS_PER_CELL,
    );

    let rows = match &args.graph {
        _ if args.nodes => measure_nodes(
            &workloads,
            repeats,
            args.seed,
            gpu.as_ref().map(|(_, _, g)| g),
        )?,
        Some(path) => measure_graph(
            &workloads,
            path,
            repeats,
            args.seed,
            gpu.as_ref().map(|(_, _, g)| g),
            args.tileable,
        )?,
        None => measure(
            &workloads,
            &kinds,
            repeats,
            args.seed,
            gpu.as_ref().map(|(_, _, g)| g),
            shaping,
        )?,
    };
    if args.json {
        for r in &rows {
            outln!("{}", json_line(r, &rows))?;
        }
    } else {
        outln!("{header}\n")?;
        print_table(&rows)?;
        outln!("")?;
        print_targets(&rows)?;
    }
    Ok(())
}

/// One `--json` line: `path`, `noise`, `dims`, `samples`, `msamples_per_s`, and where they
/// apply `clock`, `timestamps_rejected`, `ratio_to_noise_rs`.
pub fn json_line(r: &Row, rows: &[Row]) -> serde_json::Value {
    let mut object = serde_json::json!({
        "path": r.path,
        "noise": r.noise,
        "dims": r.dims,
        "samples": r.samples,
        "msamples_per_s": round3(r.msamples_per_s()),
    });
    if let Some(c) = r.clock {
        object["clock"] = c.name().into();
    }
    if r.path.starts_with("cpu-simd") {
        object["simd"] = crate::cpu::simd_level().into();
    }
    if r.rejected {
        object["timestamps_rejected"] = true.into();
    }
    if let Some(ratio) = ratio_to(rows, r, "noise-rs") {
        object["ratio_to_noise_rs"] = round3(ratio).into();
    }
    object
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// Measures every path on every workload, in a fixed order, with progress on stderr.
pub fn measure(
    workloads: &[Workload],
    kinds: &[NoiseKind],
    repeats: usize,
    seed: u64,
    gpu: Option<&GpuBench>,
    shaping: Shaping,
) -> Result<Vec<Row>> {
    let lut = PermutationTables::new(seed);
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .context("building a one-thread pool")?;
    let mut rows = Vec::new();
    for w in workloads {
        let samples = w.samples();
        let output = shaping.output;
        // Curl noise has `dims` floats per sample.
        let floats = output.values_per_sample(w.dims);
        let mut out = bench::touched_buffer(samples as usize * floats);
        let rows_before = rows.len();
        for &kind in kinds {
            let Some(field) = shaping.field(w, kind) else {
                continue;
            };
            // The fills below take the field as it is, unchecked.
            field
                .validate()
                .with_context(|| format!("{} {}", w.label(), shaping.noise(kind)))?;
            let noise = shaping.noise(kind);
            let noise = noise.as_str();
            let progress = |path: &str| errln!("measuring {} {noise} {path}", w.label());
            if let Some(gpu) = gpu {
                progress("gpu-fill")?;
                let target = gpu.fill_target(&field, output)?;
                gpu.time_fill(&target, kind)?; // compiles the pipeline
                let timings = (0..repeats)
                    .map(|_| gpu.time_fill(&target, kind))
                    .collect::<crate::Result<Vec<_>>>()?;
                let timing = bench::median_gpu(&timings);
                let (time, clock) = timing.preferred();
                let rejected = timing.rejected;
                rows.push(Row {
                    path: "gpu-fill",
                    noise: noise.to_string(),
                    dims: w.dims,
                    samples,
                    time,
                    clock: Some(clock),
                    rejected,
                });
                if clock != Clock::Wall {
                    let wall = Row {
                        path: "gpu-fill-wall",
                        time: timing.wall,
                        clock: Some(Clock::Wall),
                        ..rows[rows.len() - 1].clone()
                    };
                    rows.push(wall);
                }
                drop(target);
                progress("gpu-fill+readback")?;
                gpu.time_generate(&field, output)?;
                let time = bench::median_time(repeats, || gpu.time_generate(&field, output))?;
                rows.push(Row {
                    path: "gpu-fill+readback",
                    noise: noise.to_string(),
                    dims: w.dims,
                    samples,
                    time,
                    clock: Some(Clock::Wall),
                    rejected: false,
                });
                // The texture-free variant (another pattern, same work), by the host clock.
                progress("gpu-fill-hash")?;
                let target = gpu.fill_target(&field, output)?;
                gpu.time_fill_with(&target, kind, LookupVariant::Hash)?;
                let time = bench::median_time(repeats, || {
                    Ok(gpu.time_fill_with(&target, kind, LookupVariant::Hash)?.wall)
                })?;
                rows.push(Row {
                    path: "gpu-fill-hash",
                    noise: noise.to_string(),
                    dims: w.dims,
                    samples,
                    time,
                    clock: Some(Clock::Wall),
                    rejected: false,
                });
                drop(target);
                progress("gpu-fill+readback-hash")?;
                gpu.time_generate_with(&field, LookupVariant::Hash, output)?;
                let time = bench::median_time(repeats, || {
                    gpu.time_generate_with(&field, LookupVariant::Hash, output)
                })?;
                rows.push(Row {
                    path: "gpu-fill+readback-hash",
                    noise: noise.to_string(),
                    dims: w.dims,
                    samples,
                    time,
                    clock: Some(Clock::Wall),
                    rejected: false,
                });
            }
            progress("cpu-f32-1t")?;
            let time = bench::median_time(repeats, || {
                Ok(bench::time_cpu_fill(
                    &lut,
                    &field,
                    output,
                    Some(&one_thread),
                    &mut out,
                ))
            })?;
            rows.push(Row {
                path: "cpu-f32-1t",
                noise: noise.to_string(),
                dims: w.dims,
                samples,
                time,
                clock: None,
                rejected: false,
            });
            progress("cpu-f32-all")?;
            let time = bench::median_time(repeats, || {
                Ok(bench::time_cpu_fill(&lut, &field, output, None, &mut out))
            })?;
            rows.push(Row {
                path: "cpu-f32-all",
                noise: noise.to_string(),
                dims: w.dims,
                samples,
                time,
                clock: None,
                rejected: false,
            });
            // The SIMD fill (same values as cpu-f32), both lookup variants.
            let lookups = [LookupVariant::Textures, LookupVariant::Hash]
                .map(|variant| CpuLookup::new(variant, seed));
            let [textures, hash] = &lookups;
            let simd_paths: [(&'static str, &CpuLookup, usize); 4] = [
                ("cpu-simd-1t", textures, 1),
                ("cpu-simd-all", textures, bench::cores()),
                ("cpu-simd-hash-1t", hash, 1),
                ("cpu-simd-hash-all", hash, bench::cores()),
            ];
            // Flag fields without lane code of their own (cellular noise, tiled 3D simplex)
            // bake on their graph's lanes where it has them (`simd::lane_plan`, as `bake`'s
            // CPU source), so those rows time that; where neither has lanes the SIMD fill
            // would time the scalar one, so there is no row.
            let plan = Plan::Fused(field.clone());
            for &(path, lookup, threads) in &simd_paths {
                let lanes = lane_plan(&plan, lookup.variant(), output);
                if !lanes.lanes {
                    continue;
                }
                progress(path)?;
                let time = bench::median_time(repeats, || {
                    Ok(match &lanes.plan {
                        Plan::Fused(field) => {
                            bench::time_simd_fill(lookup, field, output, threads, &mut out)
                        }
                        Plan::Graph { program, field } => {
                            bench::time_graph_simd_fill(program, lookup, field, threads, &mut out)
                        }
                    })
                })?;
                rows.push(Row {
                    path,
                    noise: noise.to_string(),
                    dims: w.dims,
                    samples,
                    time,
                    clock: None,
                    rejected: false,
                });
            }
            #[cfg(feature = "bench-peers")]
            {
                // noise-rs has no domain warp of the same kind: no row for warped fields.
                if shaping.is_plain() {
                    progress("noise-rs")?;
                    let time = bench::median_time(repeats, || {
                        Ok(peers::noise_rs(kind, w, seed, &mut out))
                    })?;
                    rows.push(Row {
                        path: "noise-rs",
                        noise: noise.to_string(),
                        dims: w.dims,
                        samples,
                        time,
                        clock: None,
                        rejected: false,
                    });
                }
                if w.dims <= 3
                    && shaping.flow_angle.is_none()
                    && !shaping.tileable
                    && !shaping.curl()
                {
                    progress("fastnoise-lite")?;
                    let time = bench::median_time(repeats, || {
                        Ok(peers::fastnoise_lite(kind, w, seed, shaping.warp, &mut out))
                    })?;
                    rows.push(Row {
                        path: "fastnoise-lite",
                        noise: noise.to_string(),
                        dims: w.dims,
                        samples,
                        time,
                        clock: None,
                        rejected: false,
                    });
                }
            }
        }
        // The store floor, for workloads that have rows (curl noise has no 4D).
        if let Some(gpu) = gpu.filter(|_| rows.len() > rows_before) {
            errln!("measuring {} gpu-empty", w.label())?;
            let field = w.field(NoiseKind::Simplex);
            let target = gpu.fill_target(&field, FieldOutput::Value)?;
            gpu.time_empty(&target)?;
            let timings = (0..repeats)
                .map(|_| gpu.time_empty(&target))
                .collect::<crate::Result<Vec<_>>>()?;
            let timing = bench::median_gpu(&timings);
            let (time, clock) = timing.preferred();
            rows.push(Row {
                path: "gpu-empty",
                noise: "empty".to_string(),
                dims: w.dims,
                samples,
                time,
                clock: Some(clock),
                rejected: timing.rejected,
            });
        }
    }
    Ok(rows)
}

/// A graph of the node type `t` alone: each input a simplex noise of its own seed, each
/// required number 0.5 (or the nearest value its range allows), each required choice the
/// first, points 5 from (−1, −1) to (1, 1) (`y = x |x|`); the rest, optional inputs among
/// them, at their defaults.
pub fn node_alone(t: &crate::graph::nodes::NodeType) -> serde_json::Value {
    use crate::graph::nodes::ParamKind;
    let mut node = serde_json::Map::new();
    node.insert("type".into(), t.name.into());
    let mut seed = 0;
    let mut simplex = || {
        seed += 1;
        serde_json::json!({ "type": "simplex", "seed": seed })
    };
    for p in t.params {
        let value = match p.kind {
            ParamKind::Input => simplex(),
            ParamKind::Number {
                lo,
                hi,
                default: None,
            }
            | ParamKind::Hybrid {
                lo,
                hi,
                default: None,
            } => 0.5f64.clamp(lo, hi).into(),
            ParamKind::Choice {
                names,
                default: None,
            } => names[0].into(),
            ParamKind::Points { .. } => {
                let x = [-1.0f64, -0.5, 0.0, 0.5, 1.0];
                serde_json::json!(x.map(|x| [x, x * x.abs()]))
            }
            _ => continue,
        };
        node.insert(p.name.into(), value);
    }
    serde_json::json!({ "version": 1, "output": "node", "nodes": { "node": node } })
}

/// Parameters and the whole numbers they are set to.
pub type Numbers = &'static [(&'static str, i64)];

/// The choice parameters whose choices cost differently, each with the numbers its rows set
/// (a fractal warp's forms differ only over several octaves): [`node_variants`] has a row of
/// every choice but the default (the node alone's row), or of every choice where numbers
/// are set.
pub const VARIANT_CHOICES: &[(&str, &str, Numbers)] = &[
    ("warp", "noise", &[]),
    ("warp", "fractal", &[("octaves", 3)]),
    ("cellular", "distance", &[]),
    ("cellular", "output", &[]),
    ("cellular-lookup", "distance", &[]),
];

/// The variants of node types that `bench --nodes` times beside each node alone, each its
/// row's name (`warp noise=value`: the node type, then the parameters set) and its graph:
/// [`node_alone`] with one choice of [`VARIANT_CHOICES`] (and the numbers set there); `fbm`
/// and `ridged` with `weighted_strength` 0.5; `fbm` whose `gain`, and `warp` whose
/// `frequency`, is a simplex noise of its own seed (a node-driven parameter).
pub fn node_variants() -> Vec<(String, serde_json::Value)> {
    use crate::graph::nodes::{node_type, ParamKind};
    let alone = |name: &str| node_alone(node_type(name).expect("a node type of the table"));
    let with = |name: &str, set: &[(&str, serde_json::Value)]| {
        let mut graph = alone(name);
        let mut label = name.to_string();
        for (param, value) in set {
            graph["nodes"]["node"][*param] = value.clone();
            let shown = match value {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Object(node) => node["type"].as_str().unwrap_or("node").into(),
                v => v.to_string(),
            };
            label += &format!(" {param}={shown}");
        }
        (label, graph)
    };
    let mut variants = Vec::new();
    for &(name, param, numbers) in VARIANT_CHOICES {
        let kind = node_type(name).and_then(|t| t.param(param)).map(|p| p.kind);
        let Some(ParamKind::Choice { names, default }) = kind else {
            panic!("{name}.{param} is not a choice in the node table");
        };
        for &choice in names {
            if numbers.is_empty() && default == Some(choice) {
                continue;
            }
            let mut set: Vec<(&str, serde_json::Value)> =
                numbers.iter().map(|&(p, v)| (p, v.into())).collect();
            set.push((param, choice.into()));
            variants.push(with(name, &set));
        }
    }
    for name in ["fbm", "ridged"] {
        variants.push(with(name, &[("weighted_strength", 0.5.into())]));
    }
    // Seeds past the node alone's inputs (1 and up).
    let driven = |seed: u64| serde_json::json!({ "type": "simplex", "seed": 100 + seed });
    variants.push(with("fbm", &[("gain", driven(1))]));
    variants.push(with("warp", &[("frequency", driven(2))]));
    variants
}

/// Measures every node type alone ([`node_alone`]) on every workload it lowers for: the
/// GPU's graph fill with readback (both lookups) and the SIMD graph fill on one thread
/// (both lookups); then each of [`node_variants`] so.
pub fn measure_nodes(
    workloads: &[Workload],
    repeats: usize,
    seed: u64,
    gpu: Option<&GpuBench>,
) -> Result<Vec<Row>> {
    let how = Measure {
        repeats,
        seed,
        gpu,
        one_thread_only: true,
        tileable: false,
    };
    let mut rows = Vec::new();
    for t in crate::graph::nodes::NODE_TYPES {
        let text = node_alone(t).to_string();
        let graph = crate::graph::Graph::from_json(&text)
            .map_err(|e| anyhow::anyhow!("the {} node alone: {e}", t.name))?;
        let noise = format!("node:{}", t.name);
        rows.extend(measure_program(workloads, &graph, &noise, &how)?);
    }
    for (name, graph) in node_variants() {
        let graph = crate::graph::Graph::from_json(&graph.to_string())
            .map_err(|e| anyhow::anyhow!("the node variant {name}: {e}"))?;
        rows.extend(measure_program(
            workloads,
            &graph,
            &format!("node:{name}"),
            &how,
        )?);
    }
    Ok(rows)
}

/// What [`measure_program`] times and how.
struct Measure<'a> {
    repeats: usize,
    seed: u64,
    gpu: Option<&'a GpuBench>,
    /// Only the one-thread SIMD paths of the CPU (no scalar fill, no fused fill).
    one_thread_only: bool,
    /// Tiled with the workload's whole number of cells per axis (`--tileable`).
    tileable: bool,
}

/// Measures the graph in the file at `path` on every workload it lowers for (at the
/// workload's sample points; `tileable`: tiled with the workload's whole number of cells,
/// rows named `graph:<stem>+tiled`): the GPU's graph fill with readback (both lookups), the
/// scalar graph fill and the SIMD graph fill (both lookups), one thread and all.
pub fn measure_graph(
    workloads: &[Workload],
    path: &std::path::Path,
    repeats: usize,
    seed: u64,
    gpu: Option<&GpuBench>,
    tileable: bool,
) -> Result<Vec<Row>> {
    let shown = path.display();
    let text = crate::graph::read_file(path).with_context(|| format!("--graph {shown}"))?;
    let graph = crate::graph::Graph::from_json(&text)
        .map_err(|e| anyhow::anyhow!("--graph {shown}: {e}"))?;
    let stem = path
        .file_stem()
        .map_or("graph".into(), |s| s.to_string_lossy());
    let noise = if tileable {
        format!("graph:{stem}+tiled")
    } else {
        format!("graph:{stem}")
    };
    let measure = Measure {
        repeats,
        seed,
        gpu,
        one_thread_only: false,
        tileable,
    };
    let rows = measure_program(workloads, &graph, &noise, &measure)?;
    if rows.is_empty() {
        bail!("--graph {shown}: lowers for none of the chosen workloads");
    }
    Ok(rows)
}

/// Measures `graph` (rows named `noise`) on every workload it lowers for, as `how` says.
fn measure_program(
    workloads: &[Workload],
    graph: &crate::graph::Graph,
    noise: &str,
    how: &Measure,
) -> Result<Vec<Row>> {
    let Measure {
        repeats,
        seed,
        gpu,
        one_thread_only,
        tileable,
    } = *how;
    let noise = noise.to_string();
    let lut = PermutationTables::new(seed);
    let lookups =
        [LookupVariant::Textures, LookupVariant::Hash].map(|variant| CpuLookup::new(variant, seed));
    let [textures, hash] = &lookups;
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .context("building a one-thread pool")?;
    let mut rows = Vec::new();
    for w in workloads {
        let field = w.field(NoiseKind::Simplex).with_tileable(tileable);
        let program = match graph.program(w.dims, field.tile_period()) {
            Ok(program) => program,
            Err(e) => {
                errln!("notice: {} skipped: {noise}: {e}", w.label())?;
                continue;
            }
        };
        let samples = w.samples();
        let mut out = bench::touched_buffer(samples as usize);
        let mut row = |path: &'static str, time| {
            rows.push(Row {
                path,
                noise: noise.clone(),
                dims: w.dims,
                samples,
                time,
                clock: None,
                rejected: false,
            })
        };
        let progress = |path: &str| errln!("measuring {} {noise} {path}", w.label());
        if let Some(gpu) = gpu {
            for (path, variant) in [
                ("gpu-fill+readback", LookupVariant::Textures),
                ("gpu-fill+readback-hash", LookupVariant::Hash),
            ] {
                progress(path)?;
                let pipeline = gpu.graph_pipeline(&program, variant)?;
                gpu.time_graph_generate(&pipeline, variant, &field)?;
                let time = bench::median_time(repeats, || {
                    gpu.time_graph_generate(&pipeline, variant, &field)
                })?;
                row(path, time);
            }
        }
        let scalar_paths: &[(&'static str, Option<&rayon::ThreadPool>)] = if one_thread_only {
            &[]
        } else {
            &[("cpu-f32-1t", Some(&one_thread)), ("cpu-f32-all", None)]
        };
        for &(path, pool) in scalar_paths {
            progress(path)?;
            let time = bench::median_time(repeats, || {
                Ok(bench::time_graph_cpu_fill(
                    &program, &lut, &field, pool, &mut out,
                ))
            })?;
            row(path, time);
        }
        // A graph of a flag field's shape runs on the hand-written fill where that has
        // lanes for it (what `bake` does with it, `simd::lane_plan`): those rows beside the
        // generic evaluator's. Where the fill has none, `bake` runs the graph's lanes: the
        // generic rows are the bake's.
        let plan = Plan::new(Arc::new(program.clone()), &field, FieldOutput::Value);
        let simd_paths: [(&'static str, &CpuLookup, usize, bool); 8] = [
            ("cpu-simd-1t", textures, 1, false),
            ("cpu-simd-all", textures, bench::cores(), false),
            ("cpu-simd-hash-1t", hash, 1, false),
            ("cpu-simd-hash-all", hash, bench::cores(), false),
            ("cpu-simd-fused-1t", textures, 1, true),
            ("cpu-simd-fused-all", textures, bench::cores(), true),
            ("cpu-simd-fused-hash-1t", hash, 1, true),
            ("cpu-simd-fused-hash-all", hash, bench::cores(), true),
        ];
        for (path, lookup, threads, on_fill) in simd_paths {
            if one_thread_only && (threads != 1 || on_fill) {
                continue;
            }
            let fill = match on_fill {
                false => None,
                true => match (
                    &plan,
                    lane_plan(&plan, lookup.variant(), FieldOutput::Value).plan,
                ) {
                    (Plan::Fused(_), Plan::Fused(fill)) => Some(fill),
                    _ => continue,
                },
            };
            progress(path)?;
            let time = bench::median_time(repeats, || {
                Ok(match fill {
                    None => {
                        bench::time_graph_simd_fill(&program, lookup, &field, threads, &mut out)
                    }
                    Some(ref fill) => {
                        bench::time_simd_fill(lookup, fill, FieldOutput::Value, threads, &mut out)
                    }
                })
            })?;
            row(path, time);
        }
    }
    Ok(rows)
}

/// `row`'s speed over the speed of `path` on the same noise family and dimensions.
fn ratio_to(rows: &[Row], row: &Row, path: &str) -> Option<f64> {
    rows.iter()
        .find(|r| r.path == path && r.noise == row.noise && r.dims == row.dims)
        .map(|base| row.msamples_per_s() / base.msamples_per_s())
}

pub fn find<'r>(rows: &'r [Row], path: &str, noise: &str, dims: usize) -> Option<&'r Row> {
    rows.iter()
        .find(|r| r.path == path && r.noise == noise && r.dims == dims)
}

/// The table, in Markdown (readable in a terminal, pasteable into the README).
fn print_table(rows: &[Row]) -> Result<(), StreamError> {
    outln!("| noise | dims | samples | path | M samples/s | × noise-rs | × fastnoise-lite |")?;
    outln!("|---|---|---:|---|---:|---:|---:|")?;
    let ratio =
        |r: &Row, path| ratio_to(rows, r, path).map_or("—".to_string(), |v| format!("{v:.2}"));
    for r in rows {
        let path = match r.clock {
            Some(Clock::DeviceTimestamps) => format!("{} (device timestamps)", r.path),
            Some(Clock::Wall) if r.rejected => format!("{} (wall: timestamps implausible)", r.path),
            Some(Clock::Wall) if matches!(r.path, "gpu-fill" | "gpu-empty") => {
                format!("{} (wall: no timestamps)", r.path)
            }
            _ => r.path.to_string(),
        };
        let noise = if r.noise == "empty" { "—" } else { &r.noise };
        outln!(
            "| {noise} | {}D | {} | {path} | {:.1} | {} | {} |",
            r.dims,
            r.samples,
            r.msamples_per_s(),
            ratio(r, "noise-rs"),
            ratio(r, "fastnoise-lite")
        )?;
    }
    Ok(())
}

/// The GPU and scalar CPU fills' targets, checked against this run's numbers (where both
/// sides were measured).
fn print_targets(rows: &[Row]) -> Result<(), StreamError> {
    outln!("Targets (issue 8), from this run:")?;
    let verdict = |ok: bool| if ok { "met" } else { "NOT met" };
    for noise in ["classic", "simplex"] {
        let Some(fill) = find(rows, "gpu-fill", noise, 3) else {
            continue;
        };
        for (peer, factor) in [("noise-rs", 4.0), ("fastnoise-lite", 2.0)] {
            if let Some(base) = find(rows, peer, noise, 3) {
                let r = fill.msamples_per_s() / base.msamples_per_s();
                outln!(
                    "- gpu-fill {noise} 3D ≥ {factor}× {peer}: {r:.2}× — {}",
                    verdict(r >= factor)
                )?;
            }
        }
    }
    let cores = bench::cores() as f64;
    for r in rows.iter().filter(|r| r.path == "cpu-f32-all") {
        if let Some(base) = find(rows, "noise-rs", &r.noise, r.dims) {
            let need = base.msamples_per_s() * cores * 0.8;
            outln!(
                "- cpu-f32-all {} {}D ≥ noise-rs × {cores} cores × 0.8 = {need:.1} M/s: {:.1} M/s — {}",
                r.noise,
                r.dims,
                r.msamples_per_s(),
                verdict(r.msamples_per_s() >= need)
            )?;
        }
    }
    for noise in ["classic", "simplex"] {
        let fill =
            find(rows, "gpu-fill-wall", noise, 3).or_else(|| find(rows, "gpu-fill", noise, 3));
        if let (Some(fill), Some(rb)) = (fill, find(rows, "gpu-fill+readback", noise, 3)) {
            let extra = rb.time.as_secs_f64() / fill.time.as_secs_f64() - 1.0;
            outln!(
                "- readback adds ≤ 30% over fill ({noise} 3D, both wall clock): {:+.0}% — {}",
                extra * 100.0,
                verdict(extra <= 0.30)
            )?;
        }
    }
    Ok(())
}

/// The peer crates, one thread, on the workloads' coordinates (noise-rs in f64 as its API
/// takes, fastnoise-lite in f32), writing `f32`s into the same buffer as the other paths.
#[cfg(feature = "bench-peers")]
mod peers {
    use std::time::{Duration, Instant};

    use super::harness::Workload;
    use crate::NoiseKind;
    use fastnoise_lite::{DomainWarpType, FastNoiseLite, NoiseType};
    use noise::{NoiseFn, Perlin, Simplex, Value, Worley};

    /// Rows of `w` (x fastest) as (y, z, w) coordinate indices, calling `row` for each.
    fn for_rows(w: &Workload, out: &mut [f32], mut row: impl FnMut([usize; 3], &mut [f32])) {
        let n = w.side as usize;
        for (r, values) in out.chunks_mut(n).enumerate() {
            row([r % n, (r / n) % n, r / (n * n)], values);
        }
    }

    fn fill_noise_rs<F>(f: &F, w: &Workload, out: &mut [f32])
    where
        F: NoiseFn<f64, 2> + NoiseFn<f64, 3> + NoiseFn<f64, 4>,
    {
        let c = w.coordinates();
        match w.dims {
            2 => for_rows(w, out, |[y, _, _], values| {
                for (x, v) in values.iter_mut().enumerate() {
                    *v = f.get([c[x], c[y]]) as f32;
                }
            }),
            3 => for_rows(w, out, |[y, z, _], values| {
                for (x, v) in values.iter_mut().enumerate() {
                    *v = f.get([c[x], c[y], c[z]]) as f32;
                }
            }),
            _ => for_rows(w, out, |[y, z, t], values| {
                for (x, v) in values.iter_mut().enumerate() {
                    *v = f.get([c[x], c[y], c[z], c[t]]) as f32;
                }
            }),
        }
    }

    /// noise-rs `Perlin` (classic) or `Simplex`, one thread.
    pub fn noise_rs(kind: NoiseKind, w: &Workload, seed: u64, out: &mut [f32]) -> Duration {
        let seed = seed as u32;
        let start = Instant::now();
        match kind {
            NoiseKind::Classic => fill_noise_rs(&Perlin::new(seed), w, out),
            NoiseKind::Simplex => fill_noise_rs(&Simplex::new(seed), w, out),
            // Worley noise (F1 distance, euclidean), the nearest peer of cellular F1.
            NoiseKind::Cellular => fill_noise_rs(
                &Worley::new(seed).set_return_type(noise::core::worley::ReturnType::Distance),
                w,
                out,
            ),
            NoiseKind::Value => fill_noise_rs(&Value::new(seed), w, out),
            // Not a `--noise` choice (a graph node only), so no row asks for it.
            NoiseKind::SuperSimplex => unreachable!("supersimplex is not a --noise choice"),
        }
        let elapsed = start.elapsed();
        std::hint::black_box(&out[out.len() / 2]);
        elapsed
    }

    /// fastnoise-lite `Perlin` (classic) or `OpenSimplex2` (simplex), frequency 1 so it
    /// samples the same coordinates, one thread; 2D and 3D only (it has no 4D). With
    /// `warp`, each point first goes through its domain warp (OpenSimplex2, that
    /// amplitude, frequency 1): one vector-valued warp evaluation, then the noise.
    pub fn fastnoise_lite(
        kind: NoiseKind,
        w: &Workload,
        seed: u64,
        warp: Option<f32>,
        out: &mut [f32],
    ) -> Duration {
        let mut f = FastNoiseLite::with_seed(seed as i32);
        let mut warper = FastNoiseLite::with_seed(seed as i32 + 1);
        warper.set_domain_warp_type(Some(DomainWarpType::OpenSimplex2));
        warper.set_domain_warp_amp(warp);
        warper.set_frequency(Some(1.0));
        f.set_noise_type(Some(match kind {
            NoiseKind::Classic => NoiseType::Perlin,
            NoiseKind::Simplex => NoiseType::OpenSimplex2,
            NoiseKind::Cellular => NoiseType::Cellular,
            NoiseKind::Value => NoiseType::Value,
            NoiseKind::SuperSimplex => NoiseType::OpenSimplex2S,
        }));
        f.set_frequency(Some(1.0));
        let c: Vec<f32> = w.coordinates().into_iter().map(|v| v as f32).collect();
        let start = Instant::now();
        match w.dims {
            2 if warp.is_some() => for_rows(w, out, |[y, _, _], values| {
                for (x, v) in values.iter_mut().enumerate() {
                    let (wx, wy) = warper.domain_warp_2d(c[x], c[y]);
                    *v = f.get_noise_2d(wx, wy);
                }
            }),
            2 => for_rows(w, out, |[y, _, _], values| {
                for (x, v) in values.iter_mut().enumerate() {
                    *v = f.get_noise_2d(c[x], c[y]);
                }
            }),
            _ if warp.is_some() => for_rows(w, out, |[y, z, _], values| {
                for (x, v) in values.iter_mut().enumerate() {
                    let (wx, wy, wz) = warper.domain_warp_3d(c[x], c[y], c[z]);
                    *v = f.get_noise_3d(wx, wy, wz);
                }
            }),
            _ => for_rows(w, out, |[y, z, _], values| {
                for (x, v) in values.iter_mut().enumerate() {
                    *v = f.get_noise_3d(c[x], c[y], c[z]);
                }
            }),
        }
        let elapsed = start.elapsed();
        std::hint::black_box(&out[out.len() / 2]);
        elapsed
    }
}
